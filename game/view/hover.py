"""The walk's hover highlight: a ring or outline on what a click under the pointer takes
(a prop, a foot) and a tip saying what the click does. How each prop answers the pointer
is its :class:`Look` (the registry is :data:`game.scenes.prop_painters.LOOKS`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from game.canvas import WorldPen
from game.layout import font_px, intersects, ui_scale
from game.palette import PALETTE, Color
from game.world.props.grip import ReachPhase
from game.world.rig import LIMBS

if TYPE_CHECKING:
    from game.scenes.walk import WalkSim

PROP_CLICK_M = 0.12  # a click this close to a prop (the knob, the cup, the ball) takes it

Box = tuple[float, float, float, float]


def _never(prop: Any, point: NDArray[np.float64]) -> bool:
    return False


def _nothing(pen: WorldPen, prop: Any, sim: WalkSim, point: NDArray[np.float64]) -> str | None:
    return None


@dataclass(frozen=True, slots=True)
class Look:
    """How a prop is drawn and answers the pointer in the walk view.

    ``paint(pen, prop, sim, alpha)`` draws it ``alpha`` of the way through the last step
    (as the hero is drawn: a prop that moves fast, the kicked ball, is drawn there too); ``highlight(pen, prop, sim, point)`` rings it and
    says what a click at ``point`` on it does (None: nothing); ``behind(prop, point)``: ``point`` is on a
    part of it that takes a click only where no foot does (the door's panel, the ladder),
    and ``clicks_behind`` whether a click there uses it; ``box(prop)`` the world box
    (x0, y0, x1, y1) the ground's names keep off, if any; ``in_hand(pen, prop, sim,
    hand)`` draws it held at the hand point, and ``held_tip(prop, sim, point)`` what a
    click at ``point`` does with it then, and whether it will (False: the words say why
    not, in red; None: nothing to say).
    """

    paint: Callable[[WorldPen, Any, WalkSim, float], None]
    highlight: Callable[[WorldPen, Any, WalkSim, NDArray[np.float64]], str | None] = _nothing
    behind: Callable[[Any, NDArray[np.float64]], bool] = _never
    clicks_behind: bool = False
    box: Callable[[Any], Box | None] = lambda prop: None
    in_hand: Callable[[WorldPen, Any, WalkSim, NDArray[np.float64]], None] | None = None
    held_tip: Callable[[Any, WalkSim, NDArray[np.float64]], tuple[str, bool] | None] | None = None


def prop_under(
    sim: WalkSim, looks: Mapping[str, Look], point: NDArray[np.float64], near_foot: bool
) -> Any:
    """The prop a click at ``point`` (world) takes: one it is on (``under``), else, with no
    foot there (``near_foot``), one whose part behind takes it (:attr:`Look.behind`)."""
    on = next((p for p in sim.plug_ins if p.under(point, PROP_CLICK_M)), None)
    if on is None and not near_foot:
        on = next((p for p in sim.plug_ins if looks[p.name].behind(p, point)), None)
    return on


def draw_hover(
    pen: WorldPen,
    sim: WalkSim,
    sol: Any,
    pointer: NDArray[np.float64],
    hero: Box | None,
    looks: Mapping[str, Look],
) -> None:
    """A highlight on what a click at ``pointer`` (world) takes and what the click does
    with it, the words kept off the hero's box ``hero`` (pixels). Nothing over a prop the
    hero is already going for, or while a hand eases back from one (its ring and words
    would lie on his hand and face)."""
    hands = sim.props
    foot = sim.foot_near(pointer)
    prop = prop_under(sim, looks, pointer, foot is not None)
    if prop is not None and (
        prop.busy or (hands is not None and hands.phase == ReachPhase.RELEASE)
    ):
        return
    tip, will = None, True
    if prop is not None:
        tip = looks[prop.name].highlight(pen, prop, sim, pointer)
    elif foot is not None:
        ankle = sol.hand[0, LIMBS.index(foot)]  # as drawn this frame
        pen.ring_px(ankle, 0.08 * pen.camera.scale, PALETTE["white"], 2)
        tip = "drag: move the foot"
    elif hands is not None and hands.holding >= 0:
        held = next((p for p in sim.plug_ins if p is hands.carried), None)
        says = None if held is None else looks[held.name].held_tip
        said = None if held is None or says is None else says(held, sim, pointer)
        if said is not None:
            tip, will = said
    if tip is not None:
        _tip(
            pen, pointer, tip, hero, foot is not None, PALETTE["white"] if will else PALETTE["bad"]
        )


def _tip(
    pen: WorldPen,
    pointer: NDArray[np.float64],
    tip: str,
    hero: Box | None,
    foot: bool,
    color: Color,
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
    left, top = (clear or inside)[0]
    # on a backing of its own: a ground name or the scenery under the words does not
    # read through them
    pad = 3 * s
    pen.canvas.panel((left - pad, top - pad, w + 2 * pad, h + 2 * pad), PALETTE["panel"], 200)
    pen.canvas.text((left, top), tip, color, font_px(15, s), "topleft")
