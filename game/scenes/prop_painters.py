"""How each prop is drawn and answers the pointer in the walk view: one
:class:`~game.view.hover.Look` per prop name in :data:`LOOKS`, through the
renderer-neutral :class:`~game.canvas.WorldPen` (no pygame).

Adding a prop adds its look here (its painter, and what hovering it says).
"""

from __future__ import annotations

import functools
import math
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from game.canvas import WorldPen
from game.palette import PALETTE, mix
from game.view.hover import PROP_CLICK_M, Box, Look
from game.view.prop_painter import draw_cup, paint_door, paint_ladder, paint_table, static_sprite
from game.world.props import CupProp, DoorProp, LadderProp
from game.world.props.ball import KickBall

if TYPE_CHECKING:
    from game.scenes.walk import WalkSim

BALL_PATCH_RADII = 0.42  # the ball's middle patch reaches this fraction of its radius
SHADOW_FADE_M = 1.0  # a ball this high over the ground casts no shadow
SHADOW_Y_M = 0.02  # the shadow's half height: it reaches this far above and below the ground
BALL_PAD_PX = 8  # past the ball's and its shadow's outline, nothing it draws reaches this far
_SHADOW_TURNS = np.linspace(0.0, math.tau, 20, endpoint=False)  # the shadow's 20 corners
_SHADOW_COS, _SHADOW_SIN = np.cos(_SHADOW_TURNS), np.sin(_SHADOW_TURNS)
_PATCH_TURNS = np.arange(5) * math.tau / 5  # the patch's corners, from its first
LADDER_HOVER_M = 0.06  # the pointer this close beside the ladder's rails is on it

Point = NDArray[np.float64]


def paint_ball(pen: WorldPen, ball: KickBall, sim: WalkSim, alpha: float) -> None:
    """The ball ``alpha`` of the way through its last step (:meth:`KickBall.drawn`): its
    shadow on the ground (narrower as it rises), a white ball with a dark rim, and a
    football's patch and seams turned by how far it has rolled."""
    (centre, angle), r = ball.drawn(alpha), ball.spec.radius
    ground = float(sim.terrain.height_at(centre[0]))
    if not _on_canvas(pen, centre, r, ground):
        return
    lift = max(float(centre[1]) - r - ground, 0.0)
    shade = max(1.0 - lift / SHADOW_FADE_M, 0.0)
    if shade > 0.0:
        half = r * (0.6 + 0.4 * shade)
        shadow = np.stack([centre[0] + half * _SHADOW_COS, ground + SHADOW_Y_M * _SHADOW_SIN], -1)
        pen.polygon(shadow, mix(PALETTE["ground"], PALETTE["black"], 0.45 * shade))
    ink = mix(PALETTE["black"], PALETTE["background"], 0.2)
    pen.circle(centre, r, mix(PALETTE["white"], PALETTE["metal"], 0.15), 0)
    # the middle patch: a pentagon, and a seam from each corner to the rim
    corners = angle + math.pi / 2 + _PATCH_TURNS
    ring = np.stack([np.cos(corners), np.sin(corners)], -1)
    patch = centre + BALL_PATCH_RADII * r * ring
    pen.polygon(patch, ink)
    width = max(int(pen.camera.length_px(0.012)), 1)
    (x, y), rim = centre.tolist(), 0.97 * r
    for corner, (way_x, way_y) in zip(patch.tolist(), ring.tolist(), strict=True):
        pen.line(corner, (x + rim * way_x, y + rim * way_y), ink, width)
    pen.circle(centre, r, ink, max(width, 2))


def _on_canvas(pen: WorldPen, centre: Point, r: float, ground: float) -> bool:
    """Whether any of what :func:`paint_ball` draws can land on the canvas: the ball
    (radius ``r`` about ``centre``) and its shadow (no wider than the ball, ``SHADOW_Y_M``
    about the ``ground`` under it), padded by ``BALL_PAD_PX`` for the rim's ring and line
    widths. A ball off the canvas costs a height query, not ~50 µs of drawing clipped away."""
    x, y = float(centre[0]), float(centre[1])
    (left, top), (right, bottom) = (
        pen.px((x - r, max(y + r, ground + SHADOW_Y_M))),
        pen.px((x + r, min(y - r, ground - SHADOW_Y_M))),
    )
    width, height = pen.canvas.size
    pad = BALL_PAD_PX
    return right + pad >= 0 and left - pad <= width and bottom + pad >= 0 and top - pad <= height


def _ball_highlight(pen: WorldPen, ball: KickBall, sim: WalkSim, point: Point) -> str:
    pen.ring_px(ball.state.centre, 0.18 * pen.camera.scale, PALETTE["white"], 2)
    return "click: kick the ball"


def _door_box(door: DoorProp) -> Box:
    d = door.door
    return (d.x0, d.base, d.x0 + d.width, d.base + d.height)


def _paint_door(pen: WorldPen, door: DoorProp, sim: WalkSim, alpha: float) -> None:
    """Swinging, drawn as it stands; shut, its cached sprite."""
    paint = functools.partial(paint_door, door=door)
    if door.swing > 0.0:
        paint(pen)
    else:
        static_sprite(pen.canvas, pen.camera, (door, "door"), _door_box(door), paint)


def _door_highlight(pen: WorldPen, door: DoorProp, sim: WalkSim, point: Point) -> str:
    """The knob ringed, and what a click does: from the wall side, shut, nothing (the knob
    is on its far side); open, he walks round to it first."""
    pen.ring_px(door.knob, 0.09 * pen.camera.scale, PALETTE["white"], 2)
    if door.behind(float(sim.crowd.x[0])):
        if door.swing <= 0.0:
            return "the knob is on the far side: no way to it from here"
        return "click: walk round to the knob"
    on_knob = door.under(point, PROP_CLICK_M)
    return "click: reach for the knob" if on_knob else "click: open the door"


def _door_on(door: DoorProp, point: Point) -> bool:
    return door.on_panel(point)


def _ladder_box(ladder: LadderProp) -> Box:
    lad, half = ladder.ladder, ladder.ladder.width / 2
    return (lad.x - half, lad.base, lad.x + half, lad.base + lad.height)


def _paint_ladder(pen: WorldPen, ladder: LadderProp, sim: WalkSim, alpha: float) -> None:
    paint = functools.partial(paint_ladder, ladder=ladder.ladder)
    static_sprite(pen.canvas, pen.camera, (ladder, "ladder"), _ladder_box(ladder), paint)


def _ladder_on(ladder: LadderProp, point: Point) -> bool:
    return ladder.on_it(point, LADDER_HOVER_M)


def _ladder_highlight(pen: WorldPen, ladder: LadderProp, sim: WalkSim, point: Point) -> str:
    x0, y0, x1, y1 = _ladder_box(ladder)
    x0, x1 = x0 - LADDER_HOVER_M, x1 + LADDER_HOVER_M
    outline = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]])
    pen.polyline(outline, PALETTE["white"], 2, closed=True)
    if sim.props is not None and sim.props.holding >= 0:
        return "put the cup down to climb (click a surface)"
    return "S by the edge: climb down" if sim.on_loft() else "W at its foot: climb"


def _table_box(cup: CupProp) -> Box:
    table = cup.props.table
    left, _, right, top = table.top_box()
    return (left, table.base, right, top)


def _paint_cup(pen: WorldPen, cup: CupProp, sim: WalkSim, alpha: float) -> None:
    """The table it stood on (a cached sprite), and the cup where it rests (in a hand it
    is drawn with the hand: :func:`_cup_in_hand`)."""
    table, colors = cup.props.table, sim.rig.colors
    paint = functools.partial(paint_table, table=table, colors=colors)
    static_sprite(pen.canvas, pen.camera, (cup, "table"), _table_box(cup), paint)
    if not cup.held:
        draw_cup(pen, cup.props, cup.bottom)
    if cup.refused is not None:  # a place it cannot be set: why, said there
        place, why = cup.refused
        pen.cross(place, 7, PALETTE["bad"], 2)
        pen.text(place, why, PALETTE["bad"], 15, "midbottom", (0, -10))


def _cup_in_hand(pen: WorldPen, cup: CupProp, sim: WalkSim, hand: Point) -> None:
    bottom = (float(hand[0]), float(hand[1]) - cup.props.cup.grip)
    draw_cup(pen, cup.props, bottom)


def _cup_highlight(pen: WorldPen, cup: CupProp, sim: WalkSim, point: Point) -> str | None:
    if cup.held:
        return None
    pen.ring_px(cup.centre(), 0.12 * pen.camera.scale, PALETTE["white"], 2)
    return "click: pick up the cup"


def _cup_set_down_tip(cup: CupProp, sim: WalkSim, point: Point) -> tuple[str, bool] | None:
    why = cup.refusal_at(cup.props.place_for_click(point), sim.terrain)  # as the click
    if why is None:
        return "click: set the cup down there", True
    said = cup.refused is not None and cup.refused[1] == why  # a click there says it now
    return None if said else (why, False)


LOOKS: dict[str, Look] = {
    "ball": Look(paint_ball, _ball_highlight),
    "door": Look(_paint_door, _door_highlight, _door_on, True, _door_box),
    "ladder": Look(_paint_ladder, _ladder_highlight, _ladder_on, False, _ladder_box),
    "cup": Look(
        _paint_cup,
        _cup_highlight,
        box=_table_box,
        in_hand=_cup_in_hand,
        held_tip=_cup_set_down_tip,
    ),
}


def paint_props(pen: WorldPen, sim: WalkSim, alpha: float) -> None:
    """Every prop of ``sim``, in the scene's order, ``alpha`` of the way through the last
    step (as the hero is drawn)."""
    for prop in sim.plug_ins:
        LOOKS[prop.name].paint(pen, prop, sim, alpha)


def prop_boxes(sim: WalkSim) -> list[Box]:
    """The boxes (world x0, y0, x1, y1) of the props the ground's names keep off."""
    boxes = (LOOKS[prop.name].box(prop) for prop in sim.plug_ins)
    return [box for box in boxes if box is not None]
