"""A planted foot's roll: heel strike rolling flat, heel lift toward toe-off, the roll a
leg needs to reach its hip, and the hip heights and ranges the rolled feet allow
(:class:`RolledFeet`).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from game.world.easing import all_last, all_true, clamp, smoothstep
from game.world.feet import Feet, foot_axes, stance_pose
from game.world.rig import LegSpec, Rig
from game.world.types import FloatArray

_TOE_FIRST_DROP = 0.06  # stepping down more than this lands toe first


_HEEL_OFF = 0.6  # fraction of the stance at which the heel starts to lift (walking)


_PITCH_SAMPLES = np.linspace(0.0, 1.0, 6)  # fractions of each side's limit, from flat


_ROLL_RAMP = 0.15  # metres of hip travel past the ankle over which a roll may grow to full


def roll_limits(
    hip_x: FloatArray, lock: FloatArray, facing: FloatArray, landing: FloatArray, legs: LegSpec
) -> tuple[FloatArray, FloatArray]:
    """How far a planted foot may roll with the hip at ``hip_x``: ``(up, down)``, each ≥ 0,
    shape (...). Toe up only while the hip is behind the flat ankle, heel lift only once it
    is ahead, each growing smoothly over ``_ROLL_RAMP`` metres from nothing with the hip
    right above the ankle, so the roll passes through flat (and from one pivot to the
    other) continuously; and while a ``landing`` roll
    is still settling, only on its side of flat (the pivot changes only at flat)."""
    ahead = (hip_x - lock[..., 0]) * np.sign(facing)
    # cubic from zero: switching pivots near the middle moves either contact point < 0.5 mm
    up = legs.max_toe_up * clamp(-ahead / _ROLL_RAMP, 0.0, 1.0) ** 3
    down = legs.max_heel_lift * clamp(ahead / _ROLL_RAMP, 0.0, 1.0) ** 3
    return np.where(landing < 0.0, 0.0, up), np.where(landing > 0.0, 0.0, down)


def roll_side(feet: Feet, landing: FloatArray) -> FloatArray:
    """The roll (N, 2) whose side of flat each planted foot keeps this step (for
    :func:`roll_limits`): the ``landing`` roll while it settles, else the foot's pitch.
    A foot turns about its heel toe up and about its ball heel up, so it changes pivot
    only at flat: from toe up to heel lift in one step neither point held (2 mm of slide
    running up a 24° slope)."""
    return np.where(landing != 0.0, landing, feet.pitch)


def needed_pitch(
    lock: FloatArray,
    ground: FloatArray,
    facing: FloatArray,
    hip: FloatArray,
    reach: float,
    limits: tuple[FloatArray, FloatArray],
    legs: LegSpec,
) -> tuple[FloatArray, FloatArray]:
    """The least toe-up and heel-lift roll that bring the ankle within ``reach`` of ``hip``.

    Returns ``(up, down)``, each shape (...): ``up`` ≥ 0 about the heel, ``down`` ≤ 0 about
    the ball, within ``limits`` (:func:`roll_limits`; 0 where the flat foot already
    reaches). Unreachable even rolled: the roll that points the ankle straight at the hip
    (the caller clamps it).
    """
    sign = np.sign(facing)
    max_up, max_down = limits
    along, normal = foot_axes(ground, facing)
    base = lock - legs.ankle_height * normal
    # both contact pivots of the flat foot at once (heel: toe up; ball: heel lift), and the
    # ankle's distance and world direction from each
    pivot = np.array([base - legs.heel * along, base + legs.ball * along])
    arm = lock - pivot
    r, phi0 = np.hypot(arm[..., 0], arm[..., 1]), np.arctan2(arm[..., 1], arm[..., 0])
    to_hip = hip - pivot
    d = np.maximum(np.hypot(to_hip[..., 0], to_hip[..., 1]), 1e-9)
    psi = np.arctan2(to_hip[..., 1], to_hip[..., 0])
    # law of cosines: |hip − ankle| ≤ R ⟺ cos(φ − ψ) ≥ (d² + r² − R²) / (2·d·r)
    cos_gap = clamp((d * d + r * r - reach * reach) / (2.0 * d * r), -1.0, 1.0)
    gap = np.arccos(cos_gap)
    turn = phi0 - psi
    delta = np.arctan2(np.sin(turn), np.cos(turn))  # φ0 − ψ wrapped to (−π, π]
    # the ankle's direction from the pivot turns with the pitch: φ = φ0 + facing·pitch
    up = clamp(-gap[0] - sign * delta[0], 0.0, max_up)
    down = clamp(gap[1] - sign * delta[1], -max_down, 0.0)
    return up, down


@functools.lru_cache(maxsize=16)  # one rig's constants, asked for every step
def pitch_range(legs: LegSpec) -> FloatArray:
    """The stance pitches a planted foot may take, sampled: heel lift … flat … toe up
    (read-only)."""
    lift = -legs.max_heel_lift * _PITCH_SAMPLES[::-1]
    pitches = np.concatenate([lift, legs.max_toe_up * _PITCH_SAMPLES[1:]])
    pitches.setflags(write=False)
    return pitches


def _per_pitch(pitches: FloatArray, ndim: int) -> FloatArray:
    """``pitches`` (K,) as shape (K, 1, ...) with ``ndim`` ones, against feet (...)."""
    return pitches.reshape((-1,) + (1,) * ndim)


@dataclass(frozen=True, slots=True)
class RolledFeet:
    """Planted feet's ankles at every sampled stance pitch: sampled when a foot's lock
    changes (:meth:`holds_for`), then asked what the legs can carry as often as a step needs.

    Attributes
    ----------
    lock : ndarray, shape (..., 2)
        The flat-foot ankles.
    ground : ndarray, shape (...)
        Their ground angles.
    facing : ndarray, shape (...)
    legs : LegSpec
    pitches : ndarray, shape (K,)
        :func:`pitch_range`.
    ankle_x, ankle_y : ndarray, shape (K, ...)
        The ankle at each pitch (:func:`stance_pose`), pitch first: the queries reduce over
        the pitches, and numpy reduces over a leading axis many times faster than over a
        short trailing one (for 2,000 characters' feet, 8 µs against 0.7 ms); x and y
        apart, as the queries read them (a pass over every other number of an array costs
        more than over a contiguous one).
    """

    lock: FloatArray
    ground: FloatArray
    facing: FloatArray
    legs: LegSpec
    pitches: FloatArray
    ankle_x: FloatArray
    ankle_y: FloatArray

    @classmethod
    def sample(
        cls, lock: FloatArray, ground: FloatArray, facing: FloatArray, legs: LegSpec
    ) -> RolledFeet:
        """Feet locked at ``lock`` (..., 2) on ground of angle ``ground`` (...) (copied:
        the caller's arrays may change in place)."""
        pitches = pitch_range(legs)
        ankles, _, _ = stance_pose(lock, ground, _per_pitch(pitches, ground.ndim), facing, legs)
        x, y = np.ascontiguousarray(ankles[..., 0]), np.ascontiguousarray(ankles[..., 1])
        return cls(lock.copy(), ground.copy(), facing.copy(), legs, pitches, x, y)

    def resampled(
        self, lock: FloatArray, ground: FloatArray, facing: FloatArray, legs: LegSpec
    ) -> RolledFeet:
        """The samples for these feet, :meth:`sample` again only for the feet whose lock,
        ground or facing changed (a foot's lock changes when it lands or a pivot ends: in a
        crowd a few feet a step); these samples themselves when none did."""
        if self.holds_for(lock, ground, facing, legs):
            return self
        if legs is not self.legs or lock.shape != self.lock.shape:
            return RolledFeet.sample(lock, ground, facing, legs)
        same_facing = np.broadcast_to(facing == self.facing, ground.shape)
        changed = ~(all_last(lock == self.lock) & (ground == self.ground) & same_facing)
        rows = np.nonzero(changed)
        ankles, _, _ = stance_pose(
            lock[rows],
            ground[rows],
            _per_pitch(self.pitches, 1),
            np.broadcast_to(facing, ground.shape)[rows],
            legs,
        )
        x, y = self.ankle_x.copy(), self.ankle_y.copy()
        x[(slice(None),) + rows], y[(slice(None),) + rows] = ankles[..., 0], ankles[..., 1]
        return RolledFeet(lock.copy(), ground.copy(), facing.copy(), legs, self.pitches, x, y)

    def holds_for(
        self, lock: FloatArray, ground: FloatArray, facing: FloatArray, legs: LegSpec
    ) -> bool:
        """Whether :meth:`sample` would give these very samples for these feet: a foot's
        lock changes only when it lands or a pivot ends, so most steps keep the last."""
        return (
            legs is self.legs
            and lock.shape == self.lock.shape
            and facing.shape == self.facing.shape
            and all_true(lock == self.lock)
            and all_true(ground == self.ground)
            and all_true(facing == self.facing)
        )

    def rows(self, rows: NDArray[np.intp]) -> RolledFeet:
        """These samples for the characters ``rows`` (M,) only (a stage reading a few)."""
        return RolledFeet(
            self.lock.take(rows, axis=0),  # (rows_of: cheaper than a fancy index)
            self.ground.take(rows, axis=0),
            self.facing.take(rows, axis=0),
            self.legs,
            self.pitches,
            self.ankle_x.take(rows, axis=1),
            self.ankle_y.take(rows, axis=1),
        )

    def highest_hip(
        self, hip_x: FloatArray, reach: float, landing: FloatArray, legs: LegSpec
    ) -> FloatArray:
        """The highest hip at ``hip_x`` (...) within ``reach`` of the ankle for some sampled
        pitch within :func:`roll_limits`, shape (...)."""
        pitches = _per_pitch(self.pitches, self.ground.ndim)
        max_up, max_down = roll_limits(hip_x, self.lock, self.facing, landing, legs)
        usable = (pitches <= max_up + 1e-9) & (pitches >= -max_down - 1e-9)
        dx = hip_x - self.ankle_x
        # Pythagoras: a hip dx from the ankle is at most √(R² − dx²) above it
        high = self.ankle_y + np.sqrt(np.maximum(reach * reach - dx * dx, 0.0))
        return np.where(usable, high, -np.inf).max(axis=0)

    def hip_x_range(self, hip_y: FloatArray, reach: float) -> tuple[FloatArray, FloatArray]:
        """The lowest and highest hip x at height ``hip_y`` (...) within ``reach`` of the
        ankle for some sampled pitch, shape (...) each (±inf where none reaches)."""
        dy = hip_y - self.ankle_y
        room = reach * reach - dy * dy
        # Pythagoras: at height dy a hip may be ±√(R² − dy²) from the ankle horizontally;
        # where none reaches (R² − dy² ≤ 0, or NaN) half is −inf, so that x − half is +inf
        # and x + half −inf, out of the minimum and the maximum (the ankles are finite)
        half = np.sqrt(room, out=np.full_like(room, -np.inf), where=room > 0.0)
        return (self.ankle_x - half).min(axis=0), (self.ankle_x + half).max(axis=0)


def landing_roll(feet: Feet, loading_time: FloatArray) -> FloatArray:
    """The touchdown pitch (toe up, or toe down for a toe-first landing) rolling to flat
    over ``loading_time`` seconds of stance, shape (N, 2)."""
    return feet.land_pitch * (1.0 - smoothstep(feet.stance_age / loading_time))


def heel_lift_schedule(progress: FloatArray, moving: FloatArray, legs: LegSpec) -> FloatArray:
    """The scheduled heel lift (≤ 0): from ``_HEEL_OFF`` of the stance (``progress`` in
    [0, 1]) to ``toe_off`` at lift-off, scaled by ``moving`` in [0, 1] (none standing)."""
    return -legs.toe_off * smoothstep((progress - _HEEL_OFF) / (1.0 - _HEEL_OFF)) * moving


def landing_pitch(
    start_ground: FloatArray, land_ground: FloatArray, length: FloatArray, rig: Rig
) -> FloatArray:
    """The touchdown roll: heel strike (toe up, more for longer steps), or toe first (toe
    down) when the landing is more than ``_TOE_FIRST_DROP`` below the lift-off."""
    legs, gait = rig.legs, rig.gait
    strike = legs.heel_strike * clamp(np.abs(length) / (2.0 * gait.max_step_reach), 0.2, 1.0)
    return np.where(land_ground < start_ground - _TOE_FIRST_DROP, -legs.toe_first, strike)
