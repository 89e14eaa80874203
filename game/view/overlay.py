"""The debug overlay over the hero (O toggles it): per limb its reach annulus, soft band,
target, pole and shortfall; per foot its plant state, locked pivot and ground ray (on the
ladder, each limb's rung); the legend of those marks; a prop's goal."""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from game.canvas import Canvas, WorldPen, cross, dashed
from game.layout import font_px, ui_scale
from game.palette import PALETTE, faint
from game.view.walk_hud import limb_label, outer_left, rung_label
from game.world.character import LEGS, PoseInputs
from game.world.rig import LIMBS, Rig

if TYPE_CHECKING:
    from game.world.feet import Feet
    from game.world.props import PropHands
    from game.world.props.ladder import LadderClimb
    from game.world.terrain import Terrain

# the overlay's faint colours: the reach, dead-zone and soft-band rings; the pole's line
OVERLAY_RING_COLORS = (
    faint(PALETTE["reach"], 0.45),
    faint(PALETTE["dead_zone"], 0.5),
    faint(PALETTE["soft_band"], 0.45),
)
OVERLAY_POLE_LINE = faint(PALETTE["pole"], 0.7)
OVERLAY_PIVOT = faint(PALETTE["ok"], 0.6)  # the ring on a planted foot's pivot
OVERLAY_RAY = faint(PALETTE["metal"], 0.6)  # each foot's ground ray

LabelHidden = Callable[[WorldPen, NDArray[np.float64], str, tuple[float, float], bool, int], bool]
"""Whether a label (world point, text, offset in 1280x720 px, ending there?, font px)
would lie on the HUD or a ground label: :meth:`game.view.labels.GroundLabels.hidden`."""


def draw_limb_marks(pen: WorldPen, pose: PoseInputs, sol: Any, rig: Rig) -> None:
    """Per limb of the hero: reach annulus, dead zone, soft band, target, pole and its
    line, shortfall."""
    canvas, camera = pen.canvas, pen.camera
    specs = (rig.arms.limb, rig.arms.limb, rig.legs.limb, rig.legs.limb)
    # per limb, in pixels (one conversion): root, target, mid and end joint, pole
    points = camera.to_screen(
        np.stack([pose.roots[0], pose.targets[0], sol.elbow[0], sol.hand[0], pose.poles[0]], 1)
    ).tolist()
    pole_on, shortfall = pose.pole_on[0].tolist(), sol.shortfall[0].tolist()
    for index, spec in enumerate(specs):
        root, target, mid, end, pole = points[index]
        soft = spec.softness
        canvas.circle(root, camera.length_px(spec.reach), OVERLAY_RING_COLORS[0], 1)
        canvas.circle(root, camera.length_px(spec.dead_zone), OVERLAY_RING_COLORS[1], 1)
        if soft > 0:
            # the soft band [L − s, L]: between this circle and the reach circle
            radius = camera.length_px(spec.reach - soft)
            canvas.circle(root, radius, OVERLAY_RING_COLORS[2], 1)
        if pole_on[index]:
            canvas.line(pole, mid, OVERLAY_POLE_LINE, 1)
            canvas.circle(pole, 5, PALETTE["pole"], 2)
        if shortfall[index] > 1e-3:
            dashed(canvas, end, target, PALETTE["shortfall"], 2)
        cross(canvas, target, 5, PALETTE["target"], 2)


def draw_goal(pen: WorldPen, hands: PropHands | None) -> None:
    """The prop the hero's hands are going for, and their phase."""
    goal = None if hands is None else hands.goal_point()
    if hands is not None and goal is not None:
        pen.ring_px(goal, 9, PALETTE["accent"], 2)
        pen.text(goal, f"{hands.goal}: {hands.phase}", PALETTE["accent"], 15, "midbottom", (0, -12))


def draw_rung_labels(
    pen: WorldPen, pose: PoseInputs, on_ladder: LadderClimb, hidden: LabelHidden
) -> None:
    """On the ladder every limb's state is its rung (the gait's plant states rest)."""
    for limb, name in enumerate(LIMBS):
        end = pose.targets[0, limb]
        color = PALETTE["warn"] if limb == on_ladder.moving else PALETTE["ok"]
        text = f"{limb_label(name)}: {rung_label(on_ladder, limb)}"
        # each label on the outer side of its pair (arms, legs), whichever limb is
        # further left on screen: placed by limb side, crossed feet's labels would overprint
        pair = pose.targets[0, limb - limb % 2 : limb - limb % 2 + 2]
        left = outer_left(pair[:, 0], limb % 2)
        offset = (-14.0 if left else 14.0, -8.0 if limb < LEGS.start else 8.0)
        if limb < LEGS.start:
            # the hands' labels ahead of them, the higher one above: on the outer side,
            # the rear hand's would lie across his face
            left = bool(pose.facing[0] < 0)
            mine, other = pair[limb % 2, 1], pair[1 - limb % 2, 1]
            higher = mine > other or (mine == other and limb % 2 == 0)
            offset = (-14.0 if left else 14.0, -9.0 if higher else 9.0)
        if limb >= LEGS.start and hidden(pen, end, text, offset, left, 15):
            offset = (offset[0], -24.0)  # above the foot, off the ground's name
        pen.text(end, text, color, 15, "midright" if left else "midleft", offset)


def draw_feet_marks(
    pen: WorldPen,
    pose: PoseInputs,
    soles: NDArray[np.float64],
    feet: Feet,
    terrain: Terrain,
    hidden: LabelHidden,
) -> None:
    """Per foot of the hero: its plant state beside it, the ring on a planted foot's
    locked pivot (``soles``: the simulation's, shape ``(2, 3, 2)``) and its ground ray;
    the mark on the ground under the pelvis."""
    ankles = pose.targets[0, LEGS]
    # each foot's flags and rays as plain values (an element of an array costs ~0.1 µs)
    pinned, planted, pitch = feet.pinned[0].tolist(), feet.planted[0].tolist(), feet.pitch[0]
    rays = np.stack([feet.ray_from[0], feet.ray_hit[0]], axis=1).tolist()
    for side, label in ((0, "L"), (1, "R")):
        ankle = ankles[side]
        if pinned[side]:
            state, color = "held", PALETTE["accent"]
        elif planted[side]:
            state, color = "planted", PALETTE["ok"]
            # the locked contact pivot: the heel rolling flat, the ball lifting the heel
            pivot = soles[side, 0 if pitch[side] > 0 else 1]
            pen.circle(pivot, 0.04, OVERLAY_PIVOT, 2)
        else:
            state, color = "swing", PALETTE["warn"]
        ray_from, ray_hit = rays[side]
        pen.dashed(ray_from, ray_hit, OVERLAY_RAY, 1, 5, 5)
        pen.disc(ray_hit, 4, PALETTE["metal"])
        # beside the foot, on the outer side of the pair (the HUD owns the bottom edge)
        left = outer_left(ankles[:, 0], side)
        text = f"{label}: {state}"
        offset = (-18.0 if left else 18.0, 22.0)
        if hidden(pen, ankle, text, offset, left, 16):
            offset = (offset[0], -34.0)  # above the foot, off the status box and names
        pen.text(ankle, text, color, 16, "midright" if left else "midleft", offset)
    x = float(pose.pelvis[0, 0])
    ground = float(terrain.height_at(x))
    pen.line((x, ground - 0.05), (x, ground + 0.05), PALETTE["accent"], 2)


OVERLAY_LEGEND: tuple[tuple[str, str, str], ...] = (
    # (glyph, palette colour, meaning)
    ("ring", "reach", "reach: the end of the limb can get this far"),
    ("ring", "dead_zone", "dead zone: closer than |L1 − L2|"),
    ("ring", "soft_band", "soft band: the limb eases out, never pops"),
    ("cross", "target", "target of each hand and ankle"),
    ("dot", "pole", "pole: where the knee or elbow points"),
    ("dot", "ok", "foot planted (a ring on its locked pivot: heel or ball)"),
    ("dot", "warn", "foot swinging"),
)


def draw_overlay_legend(canvas: Canvas) -> tuple[float, float, float, float]:
    """What the overlay's circles and marks are, in the top-left corner under the tabs
    (O hides the overlay and this with it). The same every frame at a window size, so
    put down from a cached sprite (panel, glyphs and texts in one blit). Returns the box."""
    s = ui_scale(canvas.size)
    size = font_px(14, s)
    row_h = canvas.text_size("Ag", size)[1] + 3 * s
    text_w = max(canvas.text_size(text, size)[0] for _, _, text in OVERLAY_LEGEND)
    box = (10 * s, 44 * s, text_w + 42 * s, row_h * len(OVERLAY_LEGEND) + 10 * s)
    paint = functools.partial(_paint_overlay_legend, box=box, size=size, row_h=row_h)
    canvas.sprite(("overlay legend", canvas.size), _whole_pixels(box), paint)
    return box


def _whole_pixels(box: tuple[float, float, float, float]) -> tuple[int, int, int, int]:
    """The whole pixels ``box`` touches (with one to spare for anti-aliased edges)."""
    left, top = math.floor(box[0]) - 1, math.floor(box[1]) - 1
    return left, top, math.ceil(box[0] + box[2]) + 1 - left, math.ceil(box[1] + box[3]) + 1 - top


def _paint_overlay_legend(
    canvas: Canvas, box: tuple[float, float, float, float], size: int, row_h: float
) -> None:
    """The legend's panel, glyphs and texts in ``box`` (see :func:`draw_overlay_legend`)."""
    s = ui_scale(canvas.size)
    canvas.panel(box, PALETTE["panel"], 190)
    for i, (glyph, color_name, text) in enumerate(OVERLAY_LEGEND):
        y = box[1] + 5 * s + row_h * (i + 0.5)
        glyph_at = (box[0] + 17 * s, y)
        color = PALETTE[color_name]
        if glyph == "ring":
            canvas.circle(glyph_at, 6 * s, color, 1)
        elif glyph == "cross":
            r = 4 * s
            canvas.line((glyph_at[0] - r, y - r), (glyph_at[0] + r, y + r), color, 2)
            canvas.line((glyph_at[0] - r, y + r), (glyph_at[0] + r, y - r), color, 2)
        else:
            canvas.circle(glyph_at, 4 * s, color, 2)
        canvas.text((box[0] + 32 * s, y), text, PALETTE["text"], size, "midleft")
