"""The walk's props drawn through a :class:`~game.canvas.WorldPen`: the door, the table, the
ladder and the cup, and the cached sprite a still prop is drawn into once (per window
scale) to follow the camera. Which prop is drawn how is
:mod:`game.scenes.prop_painters`'."""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import ArrayLike, NDArray

from game.camera import Camera2D
from game.canvas import Canvas, WorldPen
from game.palette import PALETTE, Color, mix
from game.view.scenery import SCENERY_BACKDROP

if TYPE_CHECKING:
    from game.world.props import DoorProp, Ladder, Props, Table
    from game.world.rig import RigColors

DOORWAY: Color = (12, 12, 16)  # the dark room behind an open door
DOOR_NEAR_M = 0.05  # an open door's free edge, nearer the viewer, shows this much taller
# Static props are cached as sprites (see static_sprite), padded by this many pixels for
# line widths and the knob.
SPRITE_PAD_PX = 8

BoxW = tuple[float, float, float, float]


def static_sprite(
    canvas: Canvas,
    camera: Camera2D,
    key: Hashable,
    box_w: BoxW,
    paint: Callable[[WorldPen], None],
) -> None:
    """What ``paint(pen)`` draws inside the world box ``(x0, y0, x1, y1)`` (plus
    ``SPRITE_PAD_PX``), as a cached layer: painted through a camera of the box's own at
    ``camera``'s scale, put down where ``camera`` shows the box (to the nearest pixel)."""
    x0, y0, x1, y1 = box_w
    scale = camera.scale
    pad = SPRITE_PAD_PX
    width = math.ceil((x1 - x0) * scale) + 2 * pad
    height = math.ceil((y1 - y0) * scale) + 2 * pad

    def paint_layer(layer: Canvas) -> None:
        # the sprite's own camera puts the box's top-left corner (x0, y1) at (pad, pad)
        own = Camera2D(
            center_w=(x0 + (width / 2 - pad) / scale, y1 - (height / 2 - pad) / scale),
            scale=scale,
            viewport=(0, 0, width, height),
        )
        paint(WorldPen(layer, own))

    left, top = camera.point_to_screen(x0, y1)
    canvas.layer(
        (key, scale), SCENERY_BACKDROP, paint_layer, (left - pad, top - pad, width, height)
    )


def paint_door(pen: WorldPen, door: DoorProp) -> None:
    """The door as it stands: frame, two panels, knob. Open, the dark doorway shows
    behind a leaf that narrows toward its hinge (a side view of a door open by an
    angle shows its cosine of the width) and darkens as it turns from the light, its
    free edge a little taller as it swings toward the viewer; the knob goes with it."""
    knob, angle, shut = door.knob, door.angle, door.door
    wood, edge = PALETTE["wood"], mix(PALETTE["wood"], PALETTE["black"], 0.45)
    x0, x1, y0, y1 = shut.x0, shut.x0 + shut.width, shut.base, shut.base + shut.height
    outline = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]])
    if angle > 0.0:
        pen.polygon(outline, DOORWAY)
        pen.polygon(outline, edge, 3)
    leaf = door_leaf(shut.hinge_x, shut.width, y0, shut.height, angle)
    fill = mix(mix(wood, PALETTE["background"], 0.35), PALETTE["black"], 0.4 * math.sin(angle))
    pen.polygon(leaf(outline), fill)
    pen.polygon(leaf(outline), edge, 3)
    inset = np.array([[0.1, 0.2], [-0.1, 0.2], [-0.1, -0.15], [0.1, -0.15]])
    upper = np.array([[x0, y0 + 1.1], [x1, y0 + 1.1], [x1, y1], [x0, y1]]) + inset
    lower = np.array([[x0, y0], [x1, y0], [x1, y0 + 0.95], [x0, y0 + 0.95]]) + inset
    pen.polygon(leaf(upper), edge, 2)
    pen.polygon(leaf(lower), edge, 2)
    pen.disc(knob, max(0.035 * pen.camera.scale, 3.0), PALETTE["accent"])


def paint_table(pen: WorldPen, table: Table, colors: RigColors) -> None:
    """The table: two legs and the top, in the far tone of the hero's colours."""
    wood = mix(PALETTE["wood"], PALETTE["background"], colors.far_shade)
    edge = mix(wood, PALETTE["black"], 0.45)
    tx0, tx1 = table.x0, table.x0 + table.width
    left, bottom, right, top = table.top_box()  # the slab a carried cup keeps out of
    for x in (tx0 + 0.06, tx1 - 0.06):
        pen.line((x, table.base), (x, bottom + 0.01), edge, max(int(0.05 * pen.camera.scale), 2))
    pen.polygon([(left, bottom), (right, bottom), (right, top), (left, top)], wood)


def paint_ladder(pen: WorldPen, ladder: Ladder) -> None:
    """The ladder: two rails and the rungs."""
    wood, edge = PALETTE["wood"], mix(PALETTE["wood"], PALETTE["black"], 0.45)
    lx0, lx1 = ladder.x - ladder.width / 2, ladder.x + ladder.width / 2
    rail = max(int(0.04 * pen.camera.scale), 2)
    for x in (lx0, lx1):
        pen.line((x, ladder.base), (x, ladder.base + ladder.height), edge, rail)
    for y in ladder.rungs:
        pen.line((lx0, y), (lx1, y), wood, max(rail - 2, 2))


def draw_cup(pen: WorldPen, props: Props, bottom: ArrayLike) -> None:
    """The cup, upright, with its bottom centre at ``bottom`` (2,)."""
    canvas, camera, h = pen.canvas, pen.camera, props.cup.height
    points = camera.to_screen(props.cup_outline(bottom)).tolist()
    body, handle = points[:4], points[4]
    canvas.polygon(body, PALETTE["white"])
    canvas.polygon(body, PALETTE["metal"], 2)
    canvas.circle(handle, camera.length_px(0.3 * h), PALETTE["white"], 2)


def door_leaf(
    hinge_x: float, width: float, base: float, height: float, angle: float
) -> Callable[[NDArray[np.float64]], NDArray[np.float64]]:
    """Where the points of a shut door (world, shape ``(..., 2)``) are seen with the door
    open by ``angle`` about its hinge at ``hinge_x``, for a door ``width`` wide and
    ``height`` tall standing at ``base``: each point's distance from the hinge shows at
    ``cos(angle)``, and the free edge, nearer the viewer, is ``DOOR_NEAR_M · sin(angle)`` taller above and below
    (a point's share of it grows with its distance from the hinge and from mid-height)."""
    cos, near = math.cos(angle), DOOR_NEAR_M * math.sin(angle)

    def seen(points: NDArray[np.float64]) -> NDArray[np.float64]:
        x, y = points[..., 0], points[..., 1]
        u = np.abs(x - hinge_x) / width  # 0 at the hinge, 1 at the free edge
        v = (y - base) / height  # 0 at the bottom, 1 at the top
        return np.stack([hinge_x + (x - hinge_x) * cos, y + u * near * (2.0 * v - 1.0)], -1)

    return seen
