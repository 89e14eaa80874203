"""The 2-D walker's sagittal pose carried into 3-D: body points in the body's frame, feet on
the path and on the heightfield under them, the pelvis lowered where a leg would not reach,
knee and elbow poles, and one batched ``ik.solve_3d`` for the four limbs.

The stages (each a function of explicit inputs, after ozz-animation's ``foot_ik`` sample):

1. :func:`lift_soles`: each 2-D sole point keeps its height over the 2-D ground, now over
   the heightfield under its own place; the sole's inner and outer edges likewise, so the
   foot pitches *and* rolls with the ground under it (a planted foot lies flush across a
   slope walked across).
2. :func:`ankles_of`: the ankle above the 3-D sole, from the sole's own frame.
3. :func:`pelvis_drop`: how far the pelvis must come down so each leg reaches its ankle.
4. :func:`hinge_pole`: knee poles in front of the knee (the body's yaw and the foot's
   direction), elbow poles behind and below.
5. :func:`solve_limbs`: one ``ik.solve_3d`` for all four limbs.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
from numpy.typing import ArrayLike

import ik
from game.world.feet import FOOT_SIDE
from game.world.heightfield import Heightfield
from game.world.rig import Rig
from game.world.types import BoolArray, FloatArray
from game.world.walk3d_path import PathFrame, right_of

SOLE_POINTS = ("heel", "ball", "toe", "heel_in", "heel_out", "ball_in", "ball_out")
UP = np.array([0.0, 1.0, 0.0])
ON_BODY_M = 0.25  # a point this near the line from his pelvis to his head is on him


@dataclass(frozen=True, slots=True)
class Proportions:
    """The body's widths, proportions of the leg (thigh + shin): the 2-D rig has no width.

    Attributes
    ----------
    hip_half : float
        Each hip (and the foot's line under it) this far to the side of the pelvis, m.
    shoulder_half : float
        Each shoulder this far to the side of the chest, m.
    foot_half : float
        Half the sole's width at heel and ball, m.
    reach_margin : float
        The pelvis comes down until each leg's ankle is within this fraction of full
        extension short of it (the soft reach takes the rest).
    elbow_back, elbow_down : float
        The elbow pole behind and below the shoulder, m.
    """

    hip_half: float
    shoulder_half: float
    foot_half: float
    reach_margin: float
    elbow_back: float
    elbow_down: float

    @classmethod
    def of(cls, rig: Rig) -> Proportions:
        """The hero's proportions, scaled to ``rig``'s leg (0.89 m: hips 9 cm either side)."""
        leg = rig.legs.limb.reach
        return cls(
            hip_half=0.1 * leg,
            shoulder_half=0.2 * leg,
            foot_half=0.05 * leg,
            reach_margin=0.004,
            elbow_back=0.45 * leg,
            elbow_down=0.35 * leg,
        )


def side_by_side(rig: Rig) -> Rig:
    """``rig`` as the walker in 3-D runs the 2-D gait: hips, shoulders and standing feet
    side by side. The side view staggers them along the walk (``body.hip_depth``,
    ``body.shoulder_depth``, ``gait.stance_spread``) so that both sides show; in 3-D they
    are apart across the path (:class:`Proportions`), and a stagger stands one foot ahead
    of the other (a turn from standing to one side would then start from another stance
    than its mirror image) and twists the shoulders."""
    body = replace(rig.body, hip_depth=0.0, shoulder_depth=0.0)
    return replace(rig, body=body, gait=replace(rig.gait, stance_spread=0.0))


@dataclass(frozen=True, slots=True)
class BodyFrame:
    """Where the 2-D body stands in the world this step.

    ``pelvis_xz`` (2,) the pelvis on the ground plane, ``s`` its distance along the path,
    ``forward`` and ``right`` (2,) the body's yaw as ground directions (x, z), ``drop`` how
    far the pelvis is lowered below the 2-D pose (m)."""

    pelvis_xz: FloatArray
    s: float
    forward: FloatArray
    right: FloatArray
    drop: float

    def place(self, points: ArrayLike, lateral: ArrayLike) -> FloatArray:
        """2-D body points ``(..., 2)`` (s, y) with ``lateral`` metres to the right, as
        world points ``(..., 3)``: along the body's forward from the pelvis, lowered by
        ``drop``."""
        p = np.asarray(points, dtype=float)
        ahead = (p[..., 0] - self.s)[..., None]
        side = np.asarray(lateral, dtype=float)[..., None]
        xz = self.pelvis_xz + ahead * self.forward + side * self.right
        return np.stack([xz[..., 0], p[..., 1] - self.drop, xz[..., 1]], axis=-1)


def lift_soles(
    soles_2d: FloatArray,
    ground_2d: FloatArray,
    ref_s: FloatArray,
    path: PathFrame,
    field: Heightfield,
    body: Proportions,
    swing: tuple[BoolArray, FloatArray, float] | None = None,
    shift: FloatArray | None = None,
) -> tuple[FloatArray, FloatArray]:
    """The seven sole points of both feet, ``(2, 7, 3)`` in :data:`SOLE_POINTS` order, and
    each point's lift ``(2, 7)`` over its 2-D height.

    ``soles_2d`` (2, 3, 2) is each foot's heel, ball and toe in the path frame, ``ground_2d``
    (2, 3) the 2-D ground under them, ``ref_s`` (2,) where along the path each foot is
    laid out from: its 2-D sole is set down straight along the path's direction there
    (rigid where the path bends under it), a planted foot's from the ankle it locked, so
    its points stay put while the path behind its anchor does. Each point is lifted by the heightfield under its own
    place less the 2-D ground under the 2-D point (so it keeps its clearance over the
    ground). ``swing`` is ``(swinging (2,), last lift (2, 7), most change in m)``:
    a swinging foot's lift changes by at most that much a step (a riser crossed slantwise
    is under one foot line before the other, and the lift would jump there), never
    leaving a point under the ground. ``shift`` (2, 2) moves each foot on the ground
    plane (x, z) before it is lifted."""
    lateral = FOOT_SIDE * body.hip_half  # the left foot's line to the left
    # each foot laid out straight along the path's direction at its reference
    along = path.direction(ref_s)  # (2, 2)
    base = path.at(ref_s, lateral)
    centre = base[:, None] + (soles_2d[..., 0] - ref_s[:, None])[..., None] * along[:, None]
    outward = (FOOT_SIDE[:, None] * right_of(along) * body.foot_half)[:, None]
    xz = np.concatenate([centre, centre[:, :2] - outward, centre[:, :2] + outward], axis=1)
    xz = xz[:, [0, 1, 2, 3, 5, 4, 6]]  # heel, ball, toe, heel_in, heel_out, ball_in, ball_out
    if shift is not None:
        xz = xz + shift[:, None, :]
    source = [0, 1, 2, 0, 0, 1, 1]  # the 2-D point each sole point is carried from
    ground = field.height_at(xz[..., 0], xz[..., 1])
    lift = ground - ground_2d[:, source]
    y_2d = soles_2d[..., 1][:, source]
    if swing is not None:
        swinging, last, most = swing
        eased = last + np.clip(lift - last, -most, most)
        lift = np.where(swinging[:, None], eased, lift)
    y = np.maximum(y_2d + lift, np.where(ground_2d[:, source] <= y_2d, ground, -np.inf))
    return np.stack([xz[..., 0], y, xz[..., 1]], axis=-1), y - y_2d


def _unit(v: FloatArray) -> FloatArray:
    return v / np.maximum(np.linalg.norm(v, axis=-1, keepdims=True), 1e-12)


def sole_frame(soles: FloatArray) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Each sole's unit ``along`` (heel → ball), ``right`` and ``normal`` (up out of the
    sole), shape (..., 3) each, from its seven points (..., 7, 3)."""
    along = _unit(soles[..., 1, :] - soles[..., 0, :])
    width = (soles[..., 4, :] - soles[..., 3, :]) + (soles[..., 6, :] - soles[..., 5, :])
    # outer − inner points right on the right foot and left on the left foot
    side = FOOT_SIDE.reshape((2,) + (1,) * (width.ndim - 2) + (1,))
    right = width * side
    normal = _unit(np.cross(right, along))  # right × forward is up (y-up, right-handed)
    right = np.cross(along, normal)  # square the frame: forward × up is right
    return along, right, normal


def ankles_of(soles: FloatArray, rig: Rig) -> FloatArray:
    """The ankle over each sole, ``(2, 3)``: ``ankle_height`` along the sole's normal above
    the point between heel and ball where the 2-D foot has its ankle."""
    legs = rig.legs
    _, _, normal = sole_frame(soles)
    share = legs.heel / (legs.heel + legs.ball)  # the ankle's place from heel to ball
    base = soles[:, 0] + (soles[:, 1] - soles[:, 0]) * share
    return base + legs.ankle_height * normal


def pelvis_drop(hips: FloatArray, ankles: FloatArray, reach: float) -> float:
    """How far (m, ≥ 0) the hips must come down for each to be within ``reach`` of its
    ankle: with ``h`` the horizontal and ``v`` the vertical distance, the lowered hip
    is at ``reach`` when ``(v − δ)² + h² = reach²``, so ``δ = v − √(reach² − h²)``."""
    h = np.hypot(hips[:, 0] - ankles[:, 0], hips[:, 2] - ankles[:, 2])
    v = hips[:, 1] - ankles[:, 1]
    room = np.sqrt(np.maximum(reach**2 - h**2, 0.0))
    return float(max(np.max(v - room), 0.0))


def hinge_pole(
    root: FloatArray, end: FloatArray, toward: FloatArray, distance: float
) -> FloatArray:
    """A pole ``distance`` from the root→end midpoint along ``toward`` (..., 3) (unit)."""
    return (root + end) / 2.0 + distance * toward


def knee_side(hip: FloatArray, knee: FloatArray, ankle: FloatArray, pole: FloatArray) -> FloatArray:
    """+1 where the knee is on its pole's side of the hip→ankle line, −1 where not, (...)."""
    axis = _unit(ankle - hip)

    def off_axis(p: FloatArray) -> FloatArray:
        v = p - hip
        return v - np.sum(v * axis, axis=-1, keepdims=True) * axis

    return np.where(np.sum(off_axis(knee) * off_axis(pole), axis=-1) >= 0.0, 1.0, -1.0)


def solve_limbs(
    rig: Rig, roots: FloatArray, targets: FloatArray, poles: FloatArray, poles_on: bool
) -> ik.Solution3D:
    """One ``ik.solve_3d`` for the four limbs (arms, legs) ``(4, 3)``; with the knee poles
    off the legs get a pole straight above the hip, the default a pole-less rig falls back
    to (the knees then bend wherever the leg's lean puts them, and flip)."""
    arm, leg = rig.arms.limb, rig.legs.limb
    if not poles_on:
        poles = poles.copy()
        poles[2:] = roots[2:] + UP
    return ik.solve_3d(
        roots,
        targets,
        np.array([arm.upper, arm.upper, leg.upper, leg.upper]),
        np.array([arm.lower, arm.lower, leg.lower, leg.lower]),
        poles,
        softness=np.array([arm.softness, arm.softness, leg.softness, leg.softness]),
    )


def on_body(point: FloatArray, pelvis: FloatArray, head: FloatArray) -> bool:
    """Whether ``point`` (3,) lies within :data:`ON_BODY_M` of the line from ``pelvis`` to
    ``head``: on him (a mouse over him points at him; a hand reaching there would fold the
    arm across his chest or face)."""
    axis = head - pelvis
    t = float(np.clip((point - pelvis) @ axis / max(float(axis @ axis), 1e-12), 0.0, 1.0))
    return float(np.linalg.norm(point - (pelvis + t * axis))) < ON_BODY_M
