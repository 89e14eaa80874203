"""The hero drawn in full: tapered limbs, shoes over the soles, the torso and the head in
profile; shared by the walk and crowd views (the crowd's other characters are drawn in
batches by :mod:`game.view.crowd_painter`).

What is drawn goes through :func:`drawn_joints`: the solved joints as the side view shows
them (the feet turned partly toward the camera mid-turn)."""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import Any

import numpy as np
from numpy.typing import NDArray

from game.camera import Camera2D
from game.canvas import WorldPen, bone
from game.palette import PALETTE, Color, mix
from game.world.character import ARMS, LEGS, PoseInputs
from game.world.feet import sole_points
from game.world.rig import LegSpec, Rig, RigColors

LEG_WIDTHS_M = (0.15, 0.11, 0.1)  # hip, knee, ankle
ARM_WIDTHS_M = (0.095, 0.075, 0.06)  # shoulder, elbow, wrist
HAND_RADIUS_M = 0.05  # wider than the wrist: the hand's disc covers the forearm's end
GRIP_HALF_M = 0.035  # the fingers round a held cup: half their span across it ...
FINGERS_M = 0.04  # ... and their height (the cup's rim and base show above and below)
SHOE_WIDTH_M = 0.095  # a shoe seen from the front: the least a drawn foot is long
LEG_SPREAD_M = 0.045  # each leg's offset from the middle, seen from the front
# The head in profile, in head radii from its centre, (forward, up) and a radius: a hair
# cap on top and a little behind, the face's disc forward and a little down, the eye level
# with the middle of the face's front; all of it turned by the pose's gaze (the head's
# pitch) about the centre. The line from the face's centre to the cap's leans 32 degrees
# back of straight up: a cap further back, over the back of the head, with the eye under
# its edge reads as a head tilted up, looking at the sky.
HEAD_HAIR = (-0.1, 0.45, 0.9)
HEAD_FACE = (0.25, -0.1, 0.85)
HEAD_EYE = (0.65, 0.0)
HEAD_TOP = max(1.0, HEAD_HAIR[1] + HEAD_HAIR[2])  # the drawn head's top, head radii up
HERO_PAD_M = 0.1  # the hero's box on screen reaches this far round his joints and shoes

Box = tuple[float, float, float, float]
HeldDrawing = tuple[int, Callable[[], None]]
"""A hand that holds something (0 left, 1 right) and what draws the held thing."""


def drawn_joints(
    pose: PoseInputs, sol: Any, soles: NDArray[np.float64], legs: LegSpec
) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]]:
    """The hero's joints as drawn, world metres: per limb root, mid and end joint, shape
    ``(4, 3, 2)``, then the ankles ``(2, 2)`` and soles ``(2, 3, 2)`` of the shoes, from
    his ``pose``, its solve ``sol`` and the simulation's ``soles``. Mid-turn the side
    view sees him partly from the front (:func:`turned_feet`): the legs move with their
    feet. Drawing only: the simulation's joints are its own."""
    ankles = sol.hand[0, LEGS]
    if abs(float(pose.spin[0])) < 1.0:  # mid-turn: seen partly from the front
        ankles, soles = turned_feet(pose, ankles, legs)
    joints_w = np.stack([pose.roots[0], sol.elbow[0], sol.hand[0]], axis=1)
    joints_w[LEGS] += ankles[:, None] - sol.hand[0, LEGS, None]
    return joints_w, ankles, soles


class HeroPainter:
    """Draws the hero (row 0 of a pose and its solve); keeps his soles and pixels for the
    frame, and his box on screen as last drawn."""

    def __init__(self) -> None:
        self._soles: tuple[PoseInputs, Any, NDArray[np.float64]] | None = None
        # the hero's joints and shoes in pixels this frame (pixels), and for what
        self._pixels: tuple[PoseInputs, Any, tuple[Any, float], list[Any], list[Any]] | None = None
        # the hero's box on screen (game.app.SubjectOnScreen): the F1 help and the
        # ground's labels keep off him
        self.box: Box | None = None

    def soles(self, pose: PoseInputs, sol: Any, rig: Rig) -> NDArray[np.float64]:
        """The hero's soles in this frame's pose (heel, ball, toe of each foot, shape
        ``(2, 3, 2)``), the simulation's: worked out once per frame for the camera and the
        overlay's pivot rings (the shoes are drawn over them but mid-turn, see
        :func:`turned_feet`)."""
        kept = self._soles
        if kept is None or kept[0] is not pose or kept[1] is not sol:
            kept = self._soles = (pose, sol, pose.soles(sol.hand[:, LEGS], rig)[0])
        return kept[2]

    def drawn_soles(self, pose: PoseInputs, sol: Any, rig: Rig) -> NDArray[np.float64]:
        """The hero's soles as drawn (see :func:`drawn_joints`), world, shape ``(2, 3, 2)``."""
        return drawn_joints(pose, sol, self.soles(pose, sol, rig), rig.legs)[2]

    def pixels(
        self, pose: PoseInputs, sol: Any, rig: Rig, camera: Camera2D
    ) -> tuple[list[Any], list[Any]]:
        """The hero's limbs' joints (per limb: root, mid and end) and shoe outlines in
        pixels, worked out once a frame (see :func:`drawn_joints`); his box on screen
        (``box``) with them, so that what is drawn before him (the ground's names) keeps
        off him."""
        view = (camera.center_w, camera.scale)
        kept = self._pixels
        if kept is not None and kept[0] is pose and kept[1] is sol and kept[2] == view:
            return kept[3], kept[4]
        joints_w, ankles, soles = drawn_joints(pose, sol, self.soles(pose, sol, rig), rig.legs)
        joints = camera.to_screen(joints_w)
        shoes_px = camera.to_screen(shoe_outlines(ankles, soles)).tolist()
        head_px = camera.point_to_screen(*pose.head[0].tolist())
        head_top = HEAD_TOP * rig.body.head_radius
        self.box = hero_box(joints, shoes_px, head_px, head_top, camera.scale)
        self._pixels = (pose, sol, view, joints.tolist(), shoes_px)
        return self._pixels[3], self._pixels[4]

    def draw(
        self,
        pen: WorldPen,
        pose: PoseInputs,
        sol: Any,
        rig: Rig,
        held: HeldDrawing | None = None,
    ) -> None:
        """The hero, far limbs first, then the torso and head, then the near limbs; a hand
        in ``held`` draws what it holds instead of its disc. The limbs' joints and the
        shoes are turned into pixels in one numpy call each (:meth:`pixels`)."""
        facing = float(pose.facing[0])
        near = 1 if facing > 0 else 0  # the right side faces the camera when facing +x
        limbs_px, shoes_px = self.pixels(pose, sol, rig, pen.camera)
        limbs = _Limbs(pen, limbs_px, shoes_px, _hero_tones(rig.colors), near, held)
        limbs.arm(1 - near)
        limbs.leg(1 - near)
        _draw_body(pen, pose, rig)
        limbs.leg(near)
        limbs.arm(near)


class _Limbs:
    """One frame's limbs of the hero in pixels, drawn one at a time (see
    :meth:`HeroPainter.draw`)."""

    def __init__(
        self,
        pen: WorldPen,
        limbs_px: list[Any],
        shoes_px: list[Any],
        tones: dict[Any, tuple[Color, Color]],
        near: int,
        held: HeldDrawing | None,
    ) -> None:
        self.canvas, self.scale = pen.canvas, pen.camera.scale
        self.limbs_px, self.shoes_px, self.tones = limbs_px, shoes_px, tones
        self.near, self.held = near, held

    def limb(
        self, index: int, widths: tuple[float, float, float], color: str, side: int, end_cap: bool
    ) -> None:
        """Limb ``index`` as two tapered bones of ``widths`` (metres) at its joints."""
        root, mid, end = self.limbs_px[index]
        c, edge = self.tones[color, side == self.near]
        # the far limbs, dark and mostly behind the body, go without their edges (eight
        # anti-aliased lines, ~5 us each in the frame); the near ones keep them
        outline = edge if side == self.near else None
        scale = self.scale
        w0, w1, w2 = widths[0] * scale, widths[1] * scale, widths[2] * scale
        bone(self.canvas, root, mid, c, w0, w1, outline, cap_b=False)
        bone(self.canvas, mid, end, c, w1, w2, outline, cap_b=end_cap)

    def arm(self, side: int) -> None:
        """An arm and its hand: a disc, or the fingers round what the hand holds."""
        # no wrist cap: the hand's disc, drawn next on the same centre, is wider
        self.limb(ARMS.start + side, ARM_WIDTHS_M, "shirt", side, end_cap=False)
        skin, edge = self.tones["skin", side == self.near]
        hand_px = self.limbs_px[ARMS.start + side][2]
        if self.held is None or self.held[0] != side:
            self.canvas.circle(hand_px, HAND_RADIUS_M * self.scale, skin)
            return
        # what the hand holds at its depth (a far hand's behind the torso and the near
        # limbs), over the wrist, and the fingers wrapped round its middle, its rim and
        # base showing; no hand's disc (it would poke out over the rim from behind)
        self.held[1]()
        half, fingers = GRIP_HALF_M * self.scale, FINGERS_M * self.scale
        x, y = hand_px
        bone(self.canvas, (x - half, y), (x + half, y), skin, fingers, fingers, edge)

    def leg(self, side: int) -> None:
        """A leg and the shoe over its sole, the sole's two parts edged (heel-ball,
        ball-toe tip)."""
        self.limb(LEGS.start + side, LEG_WIDTHS_M, "trousers", side, end_cap=True)
        shoe = self.shoes_px[side]
        color, edge = self.tones["shoes", side == self.near]
        self.canvas.polygon(shoe, color)
        self.canvas.line(shoe[0], shoe[1], edge, 3)
        self.canvas.line(shoe[1], shoe[2], edge, 3)


def _draw_body(pen: WorldPen, pose: PoseInputs, rig: Rig) -> None:
    """The hero's torso, waistband, neck and head in profile. The body's eight points,
    each a short sum, in plain floats (~0.5 µs a point against ~1 µs a numpy operation)."""
    canvas, scale, body, colors = pen.canvas, pen.camera.scale, rig.body, rig.colors
    (px, py), (cx, cy), (hx, hy) = (
        pose.pelvis[0].tolist(),
        pose.chest[0].tolist(),
        pose.head[0].tolist(),
    )
    length = max(math.hypot(cx - px, cy - py), 1e-9)
    sx, sy = (cx - px) / length, (cy - py) / length  # the spine's direction
    f = float(pose.facing[0])
    # the head's forward (fx, fy) and up (ux, uy): the facing's horizontal pitched by the gaze
    pitch = float(pose.gaze[0])
    fx, fy = f * math.cos(pitch), math.sin(pitch)
    ux, uy = -f * math.sin(pitch), math.cos(pitch)
    to_px = pen.camera.point_to_screen
    pelvis_px, chest_px, head_px = to_px(px, py), to_px(cx, cy), to_px(hx, hy)
    waist_a = to_px(px + sx * 0.03, py + sy * 0.03)
    waist_b = to_px(px + sx * 0.1, py + sy * 0.1)
    radius = body.head_radius

    def on_head(forward: float, up: float) -> tuple[float, float]:
        """A point ``forward`` and ``up`` head radii off the head's centre, in pixels."""
        a, b = forward * radius, up * radius
        return to_px(hx + a * fx + b * ux, hy + a * fy + b * uy)

    hair = on_head(HEAD_HAIR[0], HEAD_HAIR[1])
    face = on_head(HEAD_FACE[0], HEAD_FACE[1])
    eye = on_head(*HEAD_EYE)
    torso = body.torso_width * scale
    shirt_edge = _hero_tones(colors)["shirt_edge"][0]
    bone(canvas, pelvis_px, chest_px, colors.shirt, torso * 0.8, torso, shirt_edge)
    bone(canvas, waist_a, waist_b, colors.trousers, torso * 0.62, torso * 0.72)
    bone(canvas, chest_px, head_px, colors.skin, 0.07 * scale, 0.07 * scale)
    canvas.circle(head_px, radius * scale, colors.skin)
    canvas.circle(hair, HEAD_HAIR[2] * radius * scale, colors.hair)
    canvas.circle(face, HEAD_FACE[2] * radius * scale, colors.skin)
    canvas.circle(eye, max(0.012 * scale, 1.5), PALETTE["black"])


@functools.lru_cache(maxsize=8)
def _hero_tones(colors: RigColors) -> dict[Any, tuple[Color, Color]]:
    """The hero's colours, worked out once per rig: ``(part, near side?)`` gives the fill
    and its edge (far limbs are shaded toward the background), ``"shirt_edge"`` the torso's
    edge (first of the pair)."""
    tones: dict[Any, tuple[Color, Color]] = {}
    for part in ("shirt", "trousers", "skin", "shoes"):
        for near in (True, False):
            color = getattr(colors, part)
            if not near:
                color = mix(color, PALETTE["background"], colors.far_shade)
            # the shoes are edged lighter (their soles), the limbs darker
            edge = (
                mix(color, PALETTE["white"], 0.25)
                if part == "shoes"
                else mix(color, PALETTE["black"], 0.35)
            )
            tones[part, near] = (color, edge)
    shirt_edge = mix(colors.shirt, PALETTE["black"], 0.3)
    tones["shirt_edge"] = (shirt_edge, shirt_edge)
    return tones


def turned_feet(
    pose: PoseInputs, ankles: NDArray[np.float64], legs: LegSpec
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """The hero's ankles ``(2, 2)`` and soles ``(2, 3, 2)`` (heel, ball, toe tip) as drawn,
    from his solved ``ankles`` and ``pose``: mid-turn the side view sees him partly from
    the front. The simulation foreshortens each foot by the turn's cosine ``spin``, to a
    point end-on; a shoe seen from the front still shows its width, so the drawn foot is never shorter than
    ``SHOE_WIDTH_M``. And the legs, whose hips meet end-on in the simulation (its depth
    offsets scale with ``|spin|``), are drawn apart by ``LEG_SPREAD_M`` times the turn's
    sine, his right leg on the left (he turns to face the camera), so the two stay
    readable. Drawing only: the simulation's feet and traces are its own."""
    spin = pose.spin[:1]
    least = SHOE_WIDTH_M / (legs.heel + legs.toe)
    # the apparent length is the projection |spin|·L, held at the shoe's width
    apparent = np.copysign(np.maximum(np.abs(spin), least), spin)
    # sine of the turn: 1 - spin² under the root (clamped: an interpolated spin is |s| <= 1)
    side = LEG_SPREAD_M * math.sqrt(max(1.0 - float(spin[0]) ** 2, 0.0))
    drawn = ankles + np.array([[side, 0.0], [-side, 0.0]])  # left leg, right leg
    soles = sole_points(drawn, pose.foot_angle[0], pose.foot_bend[0], apparent, legs)
    return drawn, soles


def shoe_outlines(ankles: NDArray[np.float64], soles: NDArray[np.float64]) -> NDArray[np.float64]:
    """Shoes over their soles, world metres: ``ankles`` shape ``(F, 2)`` and ``soles``
    ``(F, 3, 2)`` (heel, ball, toe tip) give outlines ``(F, 8, 2)`` whose first three
    points are the sole's. The rear part is rigid from the heel to the ball, the toe cap
    bends at the ball. Each outline point is a fixed sum of the sole's points, the ankle
    and the two parts' unit directions and normals (``_SHOE_POINTS``): one matrix product
    (a dozen numpy calls in all, ~1 µs each on arrays this small)."""
    parts = soles[:, 1:] - soles[:, :-1]  # heel -> ball, ball -> toe tip: (F, 2, 2)
    lengths = np.hypot(parts[..., 0], parts[..., 1])
    along = parts / np.maximum(lengths, 1e-9)[..., None]  # (F, 2, 2): along, toe_dir
    ups = along[..., ::-1] * (-1.0, 1.0)  # each direction turned +90 degrees
    # the upper is on the ankle's side of the sole; the toe cap's normal on the upper's side
    up = np.where(ups[:, :1, 1:] < 0, -ups[:, :1], ups[:, :1])
    toe_up = np.where((ups[:, 1:] * up).sum(axis=-1, keepdims=True) < 0, -ups[:, 1:], ups[:, 1:])
    basis = np.concatenate([soles, ankles[:, None], along[:, :1], up, along[:, 1:], toe_up], axis=1)
    return _SHOE_POINTS @ basis


# The shoe's outline points (rows) as sums of heel, ball, toe tip, ankle, the sole's
# heel -> ball direction and its upward normal, the toe cap's direction and its normal:
_SHOE_POINTS = np.array(
    [
        [1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],  # heel
        [0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],  # ball
        [0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0],  # toe tip
        [0.0, 0.0, 1.0, 0.0, 0.0, 0.0, -0.012, 0.035],  # the toe cap's top
        [0.0, 1.0, 0.0, 0.0, 0.0, 0.06, 0.0, 0.0],  # over the ball
        [0.0, 0.0, 0.0, 1.0, 0.03, 0.02, 0.0, 0.0],  # the instep, before the ankle
        [0.0, 0.0, 0.0, 1.0, -0.045, 0.015, 0.0, 0.0],  # behind the ankle
        [1.0, 0.0, 0.0, 0.0, 0.0, 0.07, 0.0, 0.0],  # the heel's top
    ]
)


def hero_box(
    joints: NDArray[np.float64],
    shoes: list[Any],
    head: tuple[float, float],
    head_top_m: float,
    scale: float,
) -> tuple[float, float, float, float]:
    """The hero's box on screen (left, top, width, height): his joints and shoes, his
    head's top, grown by the widest limb and a held cup (``HERO_PAD_M``)."""
    points = np.concatenate([joints.reshape(-1, 2), np.asarray(shoes).reshape(-1, 2)])
    (x0, y0), (x1, y1) = points.min(axis=0), points.max(axis=0)
    y0 = min(float(y0), head[1] - head_top_m * scale)
    x0, x1 = (
        min(float(x0), head[0] - head_top_m * scale),
        max(float(x1), head[0] + head_top_m * scale),
    )
    pad = HERO_PAD_M * scale
    return (x0 - pad, y0 - pad, x1 - x0 + 2 * pad, float(y1) - y0 + 2 * pad)
