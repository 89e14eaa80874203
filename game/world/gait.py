"""Foot placement: the per-foot state machine, vectorised over N characters × 2 feet.

Each foot is in one of three states::

    PLANTED ── wants to step, the other foot is planted, chosen ──▶ SWING
    SWING   ── swing progress u reaches 1 ──────────────────────▶ PLANTED (locked)
    any     ── grabbed by the mouse ────────▶ PINNED ── released ──▶ SWING

A planted foot is *locked*: its ankle target is a fixed world point until it lifts. It
*wants to step* when it falls behind its ideal spot under the hip by more than the stride
trigger, drifts too far ahead, or its leg would over-extend; the wish is latched with
hysteresis so it does not chatter. A lifting foot gets a landing spot predicted from the
body's velocity (where the hip will be when the swing ends, plus half a stance), moved to
the nearest spot where the whole sole fits the ground and the rise or drop is not taller
than ``max_step_height``, and dropped onto the ground with a ray. The swing follows an arc
that clears the highest ground on the way.

Arrays are structure-of-arrays: ``(N, 2)`` per foot (index 0 left, 1 right), ``(N, 2, 2)``
for points.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from game.world.easing import clamp, smootherstep, smoothstep
from game.world.rig import Rig
from game.world.terrain import Terrain

FloatArray = NDArray[np.float64]
BoolArray = NDArray[np.bool_]

FOOT_SIDE = np.array([-1.0, 1.0])
"""World-x sign of each foot's depth offset (left, right): the right side is nearer the
camera when facing +x, so it sits a little ahead; mirroring swaps which side is near."""

# Landing candidates: shifts from the predicted spot, metres, tried nearest first.
_CANDIDATE_SHIFTS = np.array([0.0, -0.04, 0.04, -0.08, 0.08, -0.12, 0.12, -0.17, 0.17, -0.23])
_SHORTER_STEPS = np.array([0.8, 0.65, 0.5, 0.35])  # fractions of the way from lift-off
_SOLE_SAMPLES = np.linspace(0.0, 1.0, 6)
_SOLE_FLATNESS = 0.012  # metres: the ground under a sole may bend this much (a bump), not a riser
_APEX_AT = 0.45  # swing fraction at which the ankle is highest
_HORIZONTAL_DELAY = 0.1  # the foot rises before it moves forward and lands before it stops
_MAX_ROLL = 0.4  # radians of toe-off / heel-strike roll on a full-length step


@dataclass(slots=True)
class Feet:
    """The feet of N characters (mutable state, updated in place each step).

    Attributes
    ----------
    planted, pinned, wants : ndarray of bool, shape (N, 2)
        Locked on the ground; held by the mouse; latched wish to step.
    lock : ndarray, shape (N, 2, 2)
        The locked ankle position of planted feet.
    angle : ndarray, shape (N, 2)
        The sole angle (radians, counter-clockwise from +x) this step.
    stance_age : ndarray, shape (N, 2)
        Seconds since the foot planted.
    u, duration : ndarray, shape (N, 2)
        Swing progress in [0, 1] and swing length in seconds.
    start, land : ndarray, shape (N, 2, 2)
        Where the swing began and where it lands (ankle positions).
    apex : ndarray, shape (N, 2)
        The highest ankle height of the swing arc.
    start_angle, land_angle : ndarray, shape (N, 2)
        Sole angles at lift-off and at landing.
    land_dx : ndarray, shape (N, 2)
        Horizontal landing offset from the hip predicted at touchdown (for the pelvis).
    ray_from, ray_hit : ndarray, shape (N, 2, 2)
        The ground ray that found the landing spot (origin and hit point).
    steps : ndarray of int, shape (N,)
        Steps taken (landings) per character.
    """

    planted: BoolArray
    pinned: BoolArray
    wants: BoolArray
    lock: FloatArray
    angle: FloatArray
    stance_age: FloatArray
    u: FloatArray
    duration: FloatArray
    start: FloatArray
    land: FloatArray
    apex: FloatArray
    start_angle: FloatArray
    land_angle: FloatArray
    land_dx: FloatArray
    ray_from: FloatArray
    ray_hit: FloatArray
    steps: NDArray[np.int64]

    @classmethod
    def standing(cls, ankles: FloatArray, angles: FloatArray, ray_from: FloatArray) -> Feet:
        """Both feet planted at ``ankles`` (N, 2, 2) with sole ``angles`` (N, 2)."""
        n = ankles.shape[0]
        zeros = np.zeros((n, 2))
        return cls(
            planted=np.ones((n, 2), dtype=bool),
            pinned=np.zeros((n, 2), dtype=bool),
            wants=np.zeros((n, 2), dtype=bool),
            lock=ankles.copy(),
            angle=angles.copy(),
            stance_age=np.ones((n, 2)),
            u=zeros.copy(),
            duration=np.ones((n, 2)),
            start=ankles.copy(),
            land=ankles.copy(),
            apex=ankles[..., 1].copy(),
            start_angle=angles.copy(),
            land_angle=angles.copy(),
            land_dx=zeros.copy(),
            ray_from=ray_from.copy(),
            ray_hit=ankles.copy(),
            steps=np.zeros(n, dtype=np.int64),
        )

    @property
    def swinging(self) -> BoolArray:
        """Feet in the air under gait control, shape (N, 2)."""
        return ~self.planted & ~self.pinned


def sole_fits(
    terrain: Terrain, x: FloatArray, facing: FloatArray, rig: Rig
) -> tuple[BoolArray, FloatArray]:
    """Whether a sole with its ankle over ``x`` lies flat on the ground, and the ground angle.

    Parameters
    ----------
    x, facing : ndarray, shape (...)
        Ankle x and facing (+1/−1) of each candidate.

    Returns
    -------
    fits : ndarray of bool, shape (...)
        Heel to toe, the ground stays within ``_SOLE_FLATNESS`` of the heel→toe line and its
        slope within the sole's tilt limit (a stair nosing under the sole fails).
    angle : ndarray, shape (...)
        The heel→toe ground angle (radians, counter-clockwise from +x).
    """
    legs = rig.legs
    span = legs.heel + legs.toe
    along = -legs.heel + span * _SOLE_SAMPLES  # (S,) from heel to toe
    xs = x[..., None] + facing[..., None] * along
    hs = terrain.height_at(xs)
    heel_h, toe_h = hs[..., :1], hs[..., -1:]
    line = heel_h + (toe_h - heel_h) * _SOLE_SAMPLES
    flat = np.abs(hs - line).max(axis=-1) <= _SOLE_FLATNESS
    # slope of the heel→toe chord in world x: rise / run, run = facing·span
    angle = np.arctan2((toe_h - heel_h)[..., 0] * facing, span)
    return flat & (np.abs(angle) <= legs.max_tilt), angle


def plan_landing(
    terrain: Terrain,
    rig: Rig,
    start: FloatArray,
    predicted_x: FloatArray,
    hip_y: FloatArray,
    facing: FloatArray,
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
    """Landing spots for M lifting feet.

    Parameters
    ----------
    start : ndarray, shape (M, 2)
        The ankle at lift-off.
    predicted_x : ndarray, shape (M,)
        The ideal landing x (from the body's velocity).
    hip_y : ndarray, shape (M,)
        Height the ground ray is cast from.
    facing : ndarray, shape (M,)
        +1 or −1.

    Returns
    -------
    land : ndarray, shape (M, 2)
        The landing ankle position (``ankle_height`` above the ray hit).
    angle : ndarray, shape (M,)
        The landing sole angle (ground slope clamped to ``max_tilt``).
    ray_from, ray_hit : ndarray, shape (M, 2)
        The ground ray's origin and hit point.
    """
    legs, gait = rig.legs, rig.gait
    # around the predicted spot, then shorter steps (a stair too many up: land a tread lower)
    shortened = start[:, :1] + (predicted_x - start[:, 0])[:, None] * _SHORTER_STEPS
    candidates = np.concatenate([predicted_x[:, None] + _CANDIDATE_SHIFTS, shortened], axis=1)
    fits, _ = sole_fits(
        terrain, candidates, np.broadcast_to(facing[:, None], candidates.shape), rig
    )
    start_ground = start[:, 1:2] - legs.ankle_height
    rise = np.abs(terrain.height_at(candidates) - start_ground)
    low_enough = rise <= gait.max_step_height
    # nearest fitting candidate; a sole that does not fit is a last resort; a step taller
    # than max_step_height never
    miss = np.abs(candidates - predicted_x[:, None])
    cost = miss + np.where(fits, 0.0, 10.0) + np.where(low_enough, 0.0, 1e3)
    best = np.argmin(cost, axis=1)
    rows = np.arange(len(best))
    chosen = candidates[rows, best]
    taken = low_enough[rows, best]
    x = np.where(taken, chosen, start[:, 0])  # nowhere to step: put the foot back down
    ray_from = np.stack([x, np.maximum(hip_y, start[:, 1])], axis=-1)
    hit = terrain.ray_down(ray_from)
    slope_angle = np.arctan2(-hit.normal[:, 0], hit.normal[:, 1])
    land = hit.point + np.array([0.0, legs.ankle_height])
    angle = clamp(slope_angle, -legs.max_tilt, legs.max_tilt)
    return land, angle, ray_from, hit.point


def swing_apex(
    terrain: Terrain, rig: Rig, start: FloatArray, land: FloatArray, facing: FloatArray
) -> FloatArray:
    """The top of the swing arc for M feet: above the highest ground the sole passes over.

    ``start``, ``land`` have shape (M, 2), ``facing`` (M,); returns shape (M,). Short steps
    lift less.
    """
    legs, gait = rig.legs, rig.gait
    # the sole spans heel behind to toe in front of the ankle, in the facing direction
    back = np.where(facing > 0, legs.heel, legs.toe)
    front = np.where(facing > 0, legs.toe, legs.heel)
    highest = terrain.max_height_between(
        np.minimum(start[:, 0], land[:, 0]) - back, np.maximum(start[:, 0], land[:, 0]) + front
    )
    length = np.abs(land[:, 0] - start[:, 0])
    lift = gait.lift_height * clamp(0.35 + length / (2.0 * gait.max_step_reach), 0.0, 1.0)
    return np.maximum(highest + legs.ankle_height, np.maximum(start[:, 1], land[:, 1])) + lift


def swing_pose(feet: Feet, facing: FloatArray, rig: Rig) -> tuple[FloatArray, FloatArray]:
    """Ankle position (N, 2, 2) and sole angle (N, 2) along each foot's swing arc at ``u``.

    The foot rises before it moves forward (clearing stair nosings), peaks at ``_APEX_AT``,
    and touches down with zero vertical speed; the sole rolls toe-down after lift-off and
    toe-up before the heel strikes, more for longer steps.
    """
    u = feet.u
    # horizontal progress: delayed and ended early so the foot lifts and lands vertically
    horizontal = smootherstep((u - _HORIZONTAL_DELAY) / (1.0 - 2.0 * _HORIZONTAL_DELAY))
    x = feet.start[..., 0] + (feet.land[..., 0] - feet.start[..., 0]) * horizontal
    rising = u < _APEX_AT
    up = feet.start[..., 1] + (feet.apex - feet.start[..., 1]) * smoothstep(u / _APEX_AT)
    down = feet.apex + (feet.land[..., 1] - feet.apex) * smoothstep(
        (u - _APEX_AT) / (1.0 - _APEX_AT)
    )
    y = np.where(rising, up, down)
    # toe-off then heel-strike: a full sine period of pitch, negative (toe down) first
    length = np.abs(feet.land[..., 0] - feet.start[..., 0]) / rig.gait.max_step_reach
    roll = _MAX_ROLL * clamp(length, 0.0, 1.0) * facing[:, None]
    pitch = -roll * np.sin(2.0 * np.pi * clamp(u, 0.0, 1.0))
    angle = feet.start_angle + (feet.land_angle - feet.start_angle) * horizontal + pitch
    return np.stack([x, y], axis=-1), angle


def update_wants(
    feet: Feet,
    lag: FloatArray,
    behind_trigger: FloatArray,
    ahead_trigger: FloatArray,
    extension: FloatArray,
    unplant_len: float,
    hysteresis: float,
    relieve: BoolArray,
) -> None:
    """Latch each planted foot's wish to step, with hysteresis (in place).

    Parameters
    ----------
    lag : ndarray, shape (N, 2)
        How far the foot is behind its ideal spot along the facing direction (negative:
        ahead of it).
    behind_trigger, ahead_trigger : ndarray, shape (N, 1) or (N, 2)
        Lag beyond which the foot wants to step.
    extension : ndarray, shape (N, 2)
        Hip-to-ankle distance the leg would have this step.
    unplant_len : float
        An extension beyond this wants a step.
    hysteresis : float
        The wish clears only once the foot is this far back inside every trigger.
    relieve : ndarray of bool, shape (N, 2)
        The other leg will over-extend before a swing started later could land: step now.
    """
    outside = (lag > behind_trigger) | (-lag > ahead_trigger) | (extension > unplant_len) | relieve
    inside = (
        (lag < behind_trigger - hysteresis)
        & (-lag < ahead_trigger - hysteresis)
        & (extension < unplant_len - hysteresis)
    )
    feet.wants = feet.planted & ~feet.pinned & (outside | (feet.wants & ~inside))


def choose_lifts(feet: Feet, urgency: FloatArray, double_support: float) -> BoolArray:
    """Which feet lift this step, shape (N, 2): at most one per character.

    A foot may lift only if it wants to and both feet have been planted for at least
    ``double_support`` seconds, so one foot is always down and a foot that just landed
    does not bounce straight back up; of two candidates the more ``urgent`` one goes.
    """
    settled = feet.planted & (feet.stance_age >= double_support)
    can = feet.wants & settled & settled[:, ::-1]
    score = np.where(can, urgency, -np.inf)
    first = np.argmax(score, axis=1)
    lift = np.zeros_like(can)
    lift[np.arange(len(first)), first] = True
    return lift & can
