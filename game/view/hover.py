"""The walk's hover highlight: a ring or outline on what a click under the pointer takes
(the knob, the door, the cup, a foot, the ladder) and a tip saying what the click does."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from game.canvas import WorldPen
from game.layout import font_px, intersects, ui_scale
from game.palette import PALETTE
from game.world.rig import LIMBS

if TYPE_CHECKING:
    from game.scenes.walk import WalkSim

PROP_CLICK_M = 0.12  # a click this close to the knob or the cup sends a hand to it

Box = tuple[float, float, float, float]


def draw_hover(
    pen: WorldPen, sim: WalkSim, sol: Any, pointer: NDArray[np.float64], hero: Box | None
) -> None:
    """A highlight on what a click at ``pointer`` (world) takes and what the click does
    with it, the words kept off the hero's box ``hero`` (pixels)."""
    hands = sim.props
    hover = (
        None if hands is None else hands.props.prop_at(pointer, hands.cup, PROP_CLICK_M, hands.knob)
    )
    if hands is not None and hover in ("knob", "cup", "door"):
        if {"door": "knob"}.get(hover, hover) == hands.goal or hands.phase == "release":
            return  # he is going for it: its ring and words would lie on his hand and face
    foot = sim.foot_near(pointer)
    tip = _highlight(pen, sim, sol, hover, foot)
    if tip is not None:
        _tip(pen, pointer, tip, hero, foot is not None)


def _highlight(
    pen: WorldPen, sim: WalkSim, sol: Any, hover: str | None, foot: str | None
) -> str | None:
    """Ring or outline what a click takes (``hover``: the prop under the pointer,
    ``foot``: the foot near it); the tip for it, or None when a click takes nothing."""
    hands, color, scale = sim.props, PALETTE["white"], pen.camera.scale
    if hands is not None and hover == "knob":
        pen.ring_px(hands.knob, 0.09 * scale, color, 2)
        return "click: reach for the knob"
    if hands is not None and hover == "door" and foot is None:
        pen.ring_px(hands.knob, 0.09 * scale, color, 2)
        return "click: open the door"
    if hands is not None and hover == "cup" and hands.holding < 0:
        centre = np.asarray(hands.cup) + np.array([0.0, hands.props.cup.height / 2])
        pen.ring_px(centre, 0.12 * scale, color, 2)
        return "click: pick up the cup"
    if foot is not None:
        ankle = sol.hand[0, LIMBS.index(foot)]  # as drawn this frame
        pen.ring_px(ankle, 0.08 * scale, color, 2)
        return "drag: move the foot"
    if hands is not None and hover == "ladder":
        ladder = hands.props.ladder
        x0, x1 = ladder.x - ladder.width / 2 - 0.06, ladder.x + ladder.width / 2 + 0.06
        y0, y1 = ladder.base, ladder.base + ladder.height
        pen.polyline(np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]]), color, 2, closed=True)
        if hands.holding >= 0:
            return "put the cup down to climb (click a surface)"
        return "S by the edge: climb down" if sim.on_loft() else "W at its foot: climb"
    if hands is not None and hands.holding >= 0 and hover is None:
        return "click: set the cup down there"  # (the table or the floor under the pointer)
    return None


def _tip(
    pen: WorldPen, pointer: NDArray[np.float64], tip: str, hero: Box | None, foot: bool
) -> None:
    """The ``tip`` over the pointer, or under it, or beside it away from the hero: the
    first place that keeps the words off his box (over the knob they would lie on his
    reaching hand and face); for a ``foot``, at his box's bottom, under it first. Every
    place is kept inside the window."""
    s = ui_scale(pen.canvas.size)
    x, y = pen.px(pointer)
    w, h = pen.canvas.text_size(tip, font_px(15, s))
    away = -1.0 if hero is not None and hero[0] + hero[2] / 2 > x else 1.0
    beside = x + away * 20 * s - (w if away < 0 else 0.0)
    places = [  # (left, top) of the words
        (x - w / 2, y - 16 * s - h),
        (x - w / 2, y + 16 * s),
        (beside, y - h / 2),
    ]
    if foot:
        places = places[1:2] + places[2:] + places[:1]
    width, height = pen.canvas.size
    inside = [
        (min(max(left, 0.0), width - w), min(max(top, 0.0), height - h)) for left, top in places
    ]
    clear = [p for p in inside if hero is None or not intersects((*p, w, h), hero)]
    pen.canvas.text((clear or inside)[0], tip, PALETTE["white"], font_px(15, s), "topleft")
