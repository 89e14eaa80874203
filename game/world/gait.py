"""Foot placement and the gait cycle, vectorised over N characters × 2 feet.

**Feet with a roll.** A foot is a rigid rear part (heel contact → ball) and a toe segment
hinged at the ball. Its pose is the ankle, the sole angle and the toe bend. A planted foot
is *locked* by its flat pose on the ground (``Feet.lock``, the ankle with the sole resting
on the terrain); its stance *pitch* rolls it about a contact pivot that never moves::

    pitch > 0  heel strike, toe up:   rotation about the heel contact point
    pitch = 0  foot flat:             the whole sole down
    pitch < 0  heel lift, toe down:   rotation about the ball (the toes stay flat)

**Phase-driven cycle.** Each character has a gait phase φ ∈ [0, 1) advancing at the stride
rate cadence(speed) / 120; foot i's own phase is φ + i/2. A foot is in stance for the first
*duty factor* of its phase and lifts when its phase passes it (duty > 0.5 walking: double
support; < 0.5 running: a flight phase). A landing is an event: the swing lasts the swing
time predicted at lift-off, then plants where its landing spot was chosen (terrain-aware:
the whole sole must fit, rises and drops no taller than ``max_step_height``), or hovers over
the spot until the leg can hold it there. The phase re-syncs to each landing.

**Swing.** From the toe-off pose to the heel-strike pose (toe-first when stepping down), the
ankle follows an arc lifted above the *required height*: the lowest ankle height at which
heel, ball, toe and both sole segments clear the ground under them and a cone of the ground
ahead, so the foot rises before a stair nosing instead of through it.

Arrays are structure-of-arrays: ``(N, 2)`` per foot (index 0 left, 1 right), ``(N, 2, 2)``
for points, ``(..., 3, 2)`` for sole points (heel, ball, toe).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from game.world.easing import clamp, smootherstep, smoothstep, xy
from game.world.rig import GaitSpec, LegSpec, Rig
from game.world.terrain import Terrain

FloatArray = NDArray[np.float64]
BoolArray = NDArray[np.bool_]

FOOT_SIDE = np.array([-1.0, 1.0])
"""World-x sign of each foot's depth offset (left, right): the right side is nearer the
camera when facing +x, so it sits a little ahead; mirroring swaps which side is near."""
PHASE_OFFSET = np.array([0.0, 0.5])
"""Each foot's phase is the character's phase plus this (the feet alternate)."""

# Landing candidates: shifts from the predicted spot, metres, tried nearest first.
_CANDIDATE_SHIFTS = np.array([0.0, -0.04, 0.04, -0.08, 0.08, -0.12, 0.12, -0.17, 0.17, -0.23, 0.23])
# Shorter steps, as fractions of the way from lift-off, 5 % apart: even a 1.3 m step then
# tries a spot every 6.5 cm, so at least one lands a sole (0.23 m) wholly on any tread of
# 0.3 m or more (sparser, a long step down stairs found none that fit and landed across a
# stair nose, tilted 24°, its ball hovering 2 cm over the tread)
_SHORTER_STEPS = np.linspace(0.9, 0.1, 17)
# A squaring step for a pivot may also go this much farther from its spot, and takes a
# shorter step only if that is 0.5 m nearer: both feet then find the same turnable spot
# (where the ground under the pelvis curves up, each foot found its own on its own side,
# and the body pivoted in a 0.45 m lunge)
_PIVOT_SHIFTS = np.array([-0.3, 0.3, -0.38, 0.38, -0.46, 0.46])
_PIVOT_SHORTER_COST = 0.5
_BESIDE_COST = 0.2  # ... and each metre from the other foot costs it 0.2 m of miss
KEEP_OFF_M = 0.02  # m: the least gap between a sole and a thing on the ground it keeps off
_KEEP_OFF_EDGE = 0.005  # m: the spots tried beside such a thing are this much farther out
_SOLE_SAMPLES = np.linspace(0.0, 1.0, 7)
_PROBES = np.linspace(0.0, 1.0, 12)  # fractions of the look-ahead the ground is read at
_CHORD_PASSES = 2  # sole_fits: the chord under a level sole, then twice under the tilted one
_PIVOT_BALL_GAP = 0.012  # metres a pivoting foot's ball may rest above the ground under it
# (on the bump's curved flank a sole resting on heel and toes lifts its ball 2-12 mm: at 1 mm no
# spot there could pivot, and the squaring steps went 0.4 m back to flat ground, the pelvis
# hanging 12-22 cm low over nothing: playtest 12)
RISER_WINDOW = 0.03  # m: ground rising more than MIN_RISER over this is a stair's riser
MIN_RISER = 0.06
MAX_TREAD = 0.8  # m: risers going one way closer than this make a flight (0.16 / 0.8: slope 0.2)
_SKIP_COST = 1.0  # plan_landing: landing two risers or more past the other foot costs 1 m each
_STEP_TO_COST = 0.4  # ... and on the other foot's tread of a flight costs 0.4 m
_EDGE_M = 0.3  # ... and one down a riser from a foot farther behind it than this
HEEL_HANG = 0.03  # m a standing heel may overhang a stair nose (see heel_hangs)
_HANG_COST = 0.3  # plan_landing: a pivot spot whose turned-round heel hangs off a nose costs 0.3 m
_BEND_COST = 30.0  # plan_landing: each millimetre of ground bend under a sole costs 3 cm of step
_SOLE_FLATNESS = 0.012  # metres: the ground under a sole may bend this much (a bump), not a riser
_LOOK_AHEAD = 0.5  # metres of ground ahead of the swinging sole that it rises over
_APPROACH_SLOPE = 0.8  # the required height falls off this steeply ahead of the sole (m/m)
_FLOOR_RISE = 2.0  # m/s: a swing lifting off in front of a riser rises no faster ...
_FLOOR_ACCEL = 30.0  # m/s²: ... speeding up to that from rest at most this fast
_SIDE_REACH = 0.95  # a swinging foot stays within this fraction of a leg of its hip, sideways
_MAX_HOLD = 0.3  # a swing rises in place for at most this fraction of it (swing_hold)
_FLOOR_FALL = 2.0  # m/s: a swing's clearance floor sinks no faster (unless landing needs it)
_TOE_FIRST_DROP = 0.06  # stepping down more than this lands toe first
_HEEL_OFF = 0.6  # fraction of the stance at which the heel starts to lift (walking)
_HEEL_RISE_END = 0.55  # fraction of the swing by which the early heel rise is over
_PITCH_SAMPLES = np.linspace(0.0, 1.0, 6)  # fractions of each side's limit, from flat
_ROLL_RAMP = 0.15  # metres of hip travel past the ankle over which a roll may grow to full


@dataclass(slots=True)
class Feet:
    """The feet of N characters (mutable state, updated in place each step).

    Attributes
    ----------
    planted, pinned, due, relaunched, pivot_aim : ndarray of bool, shape (N, 2)
        Locked on the ground; held by the mouse; due to lift (latched until it does);
        swinging again toward a new spot after hovering where it could not land; the last
        swing aimed at a spot to pivot on (:func:`pivot_spots`).
    lock : ndarray, shape (N, 2, 2)
        The flat-foot ankle position of planted feet (sole resting on the ground).
    angle : ndarray, shape (N, 2)
        The ground (flat sole) angle of planted feet, radians counter-clockwise from +x.
    pitch : ndarray, shape (N, 2)
        The stance roll this step (radians, + toe up about the heel, − heel up about the ball).
    land_pitch : ndarray, shape (N, 2)
        The pitch the foot touched down with (rolls to flat during loading).
    stance_age : ndarray, shape (N, 2)
        Seconds since the foot planted.
    u, duration : ndarray, shape (N, 2)
        Swing progress in [0, 1] (beyond 1: hovering) and swing length in seconds.
    start, land : ndarray, shape (N, 2, 2)
        The ankle at lift-off and at touchdown (the landing pose, rolled by ``land_pitch``).
    land_lock : ndarray, shape (N, 2, 2)
        The flat pose the landing will lock.
    start_angle, land_angle, start_bend, land_bend : ndarray, shape (N, 2)
        Sole angle and toe bend at lift-off and at touchdown.
    land_ground : ndarray, shape (N, 2)
        The ground angle under the landing (the lock's ``angle``).
    lift : ndarray, shape (N, 2)
        Sole clearance at mid-swing (metres).
    floor : ndarray, shape (N, 2)
        The swinging ankle's lowest height this step, before the lift (:func:`glide_floor`;
        −inf at lift-off: not yet measured).
    hold : ndarray, shape (N, 2)
        The fraction of the swing the foot only rises before it moves on (:func:`swing_hold`).
    land_dx : ndarray, shape (N, 2)
        Horizontal offset of the hip predicted at touchdown from the landing ankle.
    aim : ndarray, shape (N, 2)
        The ankle x the last swing was aimed at, before the landing was fitted to the
        ground (a stair nose under the spot moves the landing; aiming there again would
        land in the same place).
    ray_from, ray_hit : ndarray, shape (N, 2, 2)
        The ground ray that found the landing spot (origin and hit point).
    steps : ndarray of int, shape (N,)
        Steps taken (landings) per character.
    """

    planted: BoolArray
    pinned: BoolArray
    due: BoolArray
    relaunched: BoolArray
    pivot_aim: BoolArray
    lock: FloatArray
    angle: FloatArray
    pitch: FloatArray
    land_pitch: FloatArray
    stance_age: FloatArray
    u: FloatArray
    duration: FloatArray
    start: FloatArray
    land: FloatArray
    land_lock: FloatArray
    start_angle: FloatArray
    land_angle: FloatArray
    start_bend: FloatArray
    land_bend: FloatArray
    land_ground: FloatArray
    lift: FloatArray
    floor: FloatArray
    hold: FloatArray
    land_dx: FloatArray
    aim: FloatArray
    ray_from: FloatArray
    ray_hit: FloatArray
    steps: NDArray[np.int64]

    @classmethod
    def standing(cls, ankles: FloatArray, angles: FloatArray, ray_from: FloatArray) -> Feet:
        """Both feet planted flat at ``ankles`` (N, 2, 2) with sole ``angles`` (N, 2)."""
        n = ankles.shape[0]
        zeros = np.zeros((n, 2))
        return cls(
            planted=np.ones((n, 2), dtype=bool),
            pinned=np.zeros((n, 2), dtype=bool),
            due=np.zeros((n, 2), dtype=bool),
            relaunched=np.zeros((n, 2), dtype=bool),
            pivot_aim=np.zeros((n, 2), dtype=bool),
            lock=ankles.copy(),
            angle=angles.copy(),
            pitch=zeros.copy(),
            land_pitch=zeros.copy(),
            stance_age=np.ones((n, 2)),
            u=zeros.copy(),
            duration=np.ones((n, 2)),
            start=ankles.copy(),
            land=ankles.copy(),
            land_lock=ankles.copy(),
            start_angle=angles.copy(),
            land_angle=angles.copy(),
            start_bend=zeros.copy(),
            land_bend=zeros.copy(),
            land_ground=angles.copy(),
            lift=zeros.copy(),
            floor=ankles[..., 1].copy(),
            hold=zeros.copy(),
            land_dx=zeros.copy(),
            aim=ankles[..., 0].copy(),
            ray_from=ray_from.copy(),
            ray_hit=ankles.copy(),
            steps=np.zeros(n, dtype=np.int64),
        )

    @property
    def swinging(self) -> BoolArray:
        """Feet in the air under gait control, shape (N, 2)."""
        return ~self.planted & ~self.pinned


# -- foot geometry ---------------------------------------------------------------------
def foot_axes(angle: FloatArray, facing: FloatArray) -> tuple[FloatArray, FloatArray]:
    """The sole's heel→toe direction and its up normal, each shape ``angle.shape + (2,)``.

    ``facing`` scales the heel→toe direction: ±1 normally, between while a character
    pivots (the foot then points partly at the camera and looks shorter).
    """
    cos, sin = np.cos(angle), np.sin(angle)
    facing = np.asarray(facing)
    return xy(cos * facing, sin * facing), xy(-sin, cos)


def sole_points(
    ankle: FloatArray, angle: FloatArray, bend: FloatArray, facing: FloatArray, legs: LegSpec
) -> FloatArray:
    """Heel contact point, ball contact point and toe tip, shape ``angle.shape + (3, 2)``.

    Parameters
    ----------
    ankle : ndarray, shape (..., 2)
    angle, bend, facing : ndarray, shape (...)
        Sole angle, toe bend (radians, toes up relative to the sole) and facing scale.
    """
    along, normal = foot_axes(angle, facing)
    base = ankle - legs.ankle_height * normal  # the sole under the ankle
    heel = base - legs.heel * along
    ball = base + legs.ball * along
    # the toe segment turns about the ball by ``bend`` toward the sole's normal
    cb, sb = np.cos(bend)[..., None], np.sin(bend)[..., None]
    toe = ball + (legs.toe - legs.ball) * (cb * along + sb * normal)
    points = np.empty(np.broadcast(heel, toe).shape[:-1] + (3, 2))
    points[..., 0, :], points[..., 1, :], points[..., 2, :] = heel, ball, toe
    return points


def stance_pose(
    lock: FloatArray, ground: FloatArray, pitch: FloatArray, facing: FloatArray, legs: LegSpec
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """The ankle (..., 2), sole angle and toe bend (...) of a planted foot rolled by ``pitch``.

    The flat pose is the ankle ``lock`` with the sole along ``ground``; a positive pitch
    rotates it about the heel contact point, a negative one about the ball contact point
    with the toes left flat, so the pivot is a fixed world point either way.
    """
    along0, normal0 = foot_axes(ground, facing)
    base = lock - legs.ankle_height * normal0
    heel = base - legs.heel * along0
    ball = base + legs.ball * along0
    angle = ground + np.sign(facing) * pitch
    along, normal = foot_axes(angle, facing)
    up = (pitch >= 0.0)[..., None]
    # rigid rear foot: the ankle sits (heel, ankle_height) from the heel contact point and
    # (−ball, ankle_height) from the ball contact point, in the rolled sole's frame
    ankle = np.where(
        up,
        heel + legs.heel * along + legs.ankle_height * normal,
        ball - legs.ball * along + legs.ankle_height * normal,
    )
    return ankle, angle, np.maximum(-pitch, 0.0)


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
    pivot = np.stack([base - legs.heel * along, base + legs.ball * along])
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
    ankles : ndarray, shape (..., K, 2)
        The ankle at each pitch (:func:`stance_pose`).
    """

    lock: FloatArray
    ground: FloatArray
    facing: FloatArray
    legs: LegSpec
    pitches: FloatArray
    ankles: FloatArray

    @classmethod
    def sample(
        cls, lock: FloatArray, ground: FloatArray, facing: FloatArray, legs: LegSpec
    ) -> RolledFeet:
        """Feet locked at ``lock`` (..., 2) on ground of angle ``ground`` (...) (copied:
        the caller's arrays may change in place)."""
        pitches = pitch_range(legs)
        ankles, _, _ = stance_pose(
            lock[..., None, :], ground[..., None], pitches, facing[..., None], legs
        )
        return cls(lock.copy(), ground.copy(), facing.copy(), legs, pitches, ankles)

    def holds_for(
        self, lock: FloatArray, ground: FloatArray, facing: FloatArray, legs: LegSpec
    ) -> bool:
        """Whether :meth:`sample` would give these very samples for these feet: a foot's
        lock changes only when it lands or a pivot ends, so most steps keep the last."""
        return (
            legs is self.legs
            and lock.shape == self.lock.shape
            and facing.shape == self.facing.shape
            and bool(
                (lock == self.lock).all()
                & (ground == self.ground).all()
                & (facing == self.facing).all()
            )
        )

    def highest_hip(
        self, hip_x: FloatArray, reach: float, landing: FloatArray, legs: LegSpec
    ) -> FloatArray:
        """The highest hip at ``hip_x`` (...) within ``reach`` of the ankle for some sampled
        pitch within :func:`roll_limits`, shape (...)."""
        pitches = self.pitches
        max_up, max_down = roll_limits(hip_x, self.lock, self.facing, landing, legs)
        usable = (pitches <= max_up[..., None] + 1e-9) & (pitches >= -max_down[..., None] - 1e-9)
        dx = hip_x[..., None] - self.ankles[..., 0]
        # Pythagoras: a hip dx from the ankle is at most √(R² − dx²) above it
        high = self.ankles[..., 1] + np.sqrt(np.maximum(reach * reach - dx * dx, 0.0))
        return np.where(usable, high, -np.inf).max(axis=-1)

    def hip_x_range(self, hip_y: FloatArray, reach: float) -> tuple[FloatArray, FloatArray]:
        """The lowest and highest hip x at height ``hip_y`` (...) within ``reach`` of the
        ankle for some sampled pitch, shape (...) each (±inf where none reaches)."""
        x = self.ankles[..., 0]
        dy = hip_y[..., None] - self.ankles[..., 1]
        # Pythagoras: at height dy a hip may be ±√(R² − dy²) from the ankle horizontally
        half = np.sqrt(np.maximum(reach * reach - dy * dy, 0.0))
        lo = np.where(half > 0, x - half, np.inf).min(axis=-1)
        hi = np.where(half > 0, x + half, -np.inf).max(axis=-1)
        return lo, hi


def sole_clearance(
    terrain: Terrain,
    ankle_x: FloatArray,
    angle: FloatArray,
    bend: FloatArray,
    facing: FloatArray,
    ahead: FloatArray,
    legs: LegSpec,
) -> tuple[FloatArray, FloatArray]:
    """The lowest ankle height at which the sole clears the ground, and the height at which
    it also clears the ground ahead, shape (...) each.

    Exact: heel, ball, toe and both sole segments on or above the ground (see
    :func:`sole_penetration`). Ahead: the sole's leading point also clears a cone over the
    ground up to ``ahead`` metres further on in the direction of travel (signed), falling
    ``_APPROACH_SLOPE`` per metre, so a foot nearing a stair riser can rise before it gets
    there, continuously.
    """
    exact, offsets = _sole_depth(terrain, ankle_x, angle, bend, facing, legs)
    xs = offsets[..., 0]
    reach = np.abs(ahead)
    # the sole's leading point in the direction of travel, and its height off the ankle
    lead = np.where(ahead >= 0, xs.argmax(axis=-1), xs.argmin(axis=-1)).ravel()
    points = offsets.reshape(-1, 3, 2)
    lead_point = points[np.arange(len(points)), lead].reshape(offsets.shape[:-2] + (2,))
    edge, lowest = lead_point[..., 0], lead_point[..., 1]
    probe = edge[..., None] + ahead[..., None] * _PROBES
    cone = (terrain.height_at(probe) - _APPROACH_SLOPE * reach[..., None] * _PROBES).max(axis=-1)
    # terrain vertices inside the look-ahead window (a nosing between two probes): those
    # near it by binary search (widened by a few ulps: the window's ends are tested below
    # exactly as written, in the gap's own rounding), then the window's own test
    edge, ahead, reach = np.broadcast_arrays(edge, ahead, reach)
    slack = 1e-12 * (1.0 + np.abs(edge) + reach)
    near = np.where(ahead >= 0, edge, edge - reach) - slack
    far = np.where(ahead >= 0, edge + reach, edge) + slack
    window, v = terrain.vertices_between(near, far)
    gap = (terrain.xs[v] - edge.ravel()[window]) * np.sign(ahead).ravel()[window]
    r = reach.ravel()[window]
    inside = (gap >= 0) & (gap <= r) & (r > 0)
    vertex = np.full(edge.shape, -np.inf)
    np.maximum.at(
        vertex.reshape(-1), window[inside], (terrain.ys[v] - _APPROACH_SLOPE * gap)[inside]
    )
    return exact, np.maximum(exact, np.maximum(cone, vertex) - lowest)


def _sole_depth(
    terrain: Terrain,
    ankle_x: FloatArray,
    angle: FloatArray,
    bend: FloatArray,
    facing: FloatArray,
    legs: LegSpec,
) -> tuple[FloatArray, FloatArray]:
    """The sole's depth below the ground with its ankle at (``ankle_x``, 0), shape (...),
    so the lowest ankle height at which it clears the ground; and its heel, ball and toe
    points there, shape (..., 3, 2) (:func:`sole_points`)."""
    zeros = np.zeros(angle.shape + (2,))
    offsets = sole_points(zeros, angle, bend, facing, legs)
    offsets = offsets + xy(ankle_x, 0.0)[..., None, :]
    return sole_penetration(terrain, offsets), offsets


def sole_penetration(terrain: Terrain, soles: FloatArray) -> FloatArray:
    """How deep each sole (heel, ball, toe points and the two segments between them) is
    below the terrain, metres (≤ 0 when clear), shape ``soles.shape[:-2]``.

    A segment is checked at every terrain vertex inside its x span (stair nosings) against
    the segment's height there.
    """
    xs, ys = soles[..., 0], soles[..., 1]
    points = (terrain.height_at(xs) - ys).max(axis=-1)
    # both segments at once (heel→ball, ball→toe), each against the terrain vertices under
    # it: (segment, vertex) pairs, segment indexing the raveled (..., 2)
    px, py = xs[..., :2], ys[..., :2]
    qx, qy = xs[..., 1:], ys[..., 1:]
    segment, v = terrain.vertices_between(np.minimum(px, qx), np.maximum(px, qx))
    if not len(segment):  # no vertex under the sole (most of the ground): points decide
        return points
    px, py, qx, qy = (c.ravel()[segment] for c in (px, py, qx, qy))
    vx = terrain.xs[v]
    run = qx - px
    safe = np.where(np.abs(run) > 1e-12, run, 1.0)
    # the segment's height at vertex x: linear interpolation p + (q − p)·(x − p.x)/run
    t = clamp((vx - px) / safe, 0.0, 1.0)
    seg_y = py + (qy - py) * t
    depth = np.array(points)
    # a maximum is exact, so gathering it pair by pair gives the dense maximum's number
    np.maximum.at(depth.reshape(-1), segment // 2, terrain.ys[v] - seg_y)
    return depth


def rest_on_ground(
    terrain: Terrain, x: FloatArray, angle: FloatArray, facing: FloatArray, legs: LegSpec
) -> FloatArray:
    """The ankle height (…) at which a flat sole at ``angle`` rests on the ground at ``x``."""
    return _sole_depth(terrain, x, angle, np.zeros_like(angle), facing, legs)[0]


# -- gait curves -----------------------------------------------------------------------
def run_fraction(speed: FloatArray, gait: GaitSpec) -> FloatArray:
    """0 at walking speed and below, 1 at running speed, linear between."""
    span = max(gait.run_speed - gait.walk_speed, 1e-6)
    return clamp((np.abs(speed) - gait.walk_speed) / span, 0.0, 1.0)


def cadence(speed: FloatArray, gait: GaitSpec) -> FloatArray:
    """Steps per minute at ``speed``: piecewise linear through (0, idle), (walk, walk),
    (run, run) from the rig, extrapolated past running speed at the run segment's slope
    (people run faster mostly by longer steps, a little by quicker ones)."""
    v = np.abs(speed)
    rise = (gait.cadence_run - gait.cadence_walk) / max(gait.run_speed - gait.walk_speed, 1e-6)
    walking = gait.cadence_idle + (gait.cadence_walk - gait.cadence_idle) * v / gait.walk_speed
    running = gait.cadence_walk + rise * (v - gait.walk_speed)
    return np.where(v <= gait.walk_speed, walking, running)


def duty_factor(speed: FloatArray, gait: GaitSpec) -> FloatArray:
    """The fraction of a stride a foot is down: ``duty_walk`` walking, ``duty_run`` running."""
    return gait.duty_walk + (gait.duty_run - gait.duty_walk) * run_fraction(speed, gait)


def stride_rate(speed: FloatArray, grade: FloatArray, gait: GaitSpec) -> FloatArray:
    """Strides per second (two steps a stride); on a slope or stairs (``grade``: rise per
    run along the walking direction) the steps quicken, so at one speed they shorten; more
    uphill than down."""
    steep = clamp(grade, 0.0, 1.0) + 0.6 * clamp(-grade, 0.0, 1.0)
    return cadence(speed, gait) / 120.0 * (1.0 + gait.uphill_cadence * steep)


@dataclass(frozen=True, slots=True)
class Pace:
    """The gait's timing at one speed on one grade (computed once a step), shape (N,) each.

    Attributes
    ----------
    duty : ndarray
        :func:`duty_factor`.
    rate : ndarray
        :func:`stride_rate`, strides per second.
    """

    duty: FloatArray
    rate: FloatArray

    @classmethod
    def at(cls, speed: FloatArray, grade: FloatArray, gait: GaitSpec) -> Pace:
        """At ``speed`` (signed) on ground of ``grade`` (rise per run in +x): the slope that
        counts is the one along the direction of travel."""
        return cls(duty_factor(speed, gait), stride_rate(speed, grade * np.sign(speed), gait))

    @property
    def stance_time(self) -> FloatArray:
        """Seconds a foot is down per stride (duty factor / stride rate)."""
        return self.duty / self.rate

    @property
    def swing_time(self) -> FloatArray:
        """Seconds a foot is in the air per stride."""
        return (1.0 - self.duty) / self.rate


def half_stride(speed: FloatArray, stance_time: FloatArray, gait: GaitSpec) -> FloatArray:
    """How far ahead of the hip a foot lands at ``speed`` (signed), for a stance this long.

    The hip passes over the foot during the stance: it travels v·T, centred on the foot,
    less the roll from heel to ball that carries the leg forward by itself.
    """
    half = 0.5 * speed * stance_time - 0.5 * gait.roll_advance * np.tanh(speed / 0.3)
    return clamp(half, -gait.max_step_reach, gait.max_step_reach)


def landing_roll(feet: Feet, loading_time: FloatArray) -> FloatArray:
    """The touchdown pitch (toe up, or toe down for a toe-first landing) rolling to flat
    over ``loading_time`` seconds of stance, shape (N, 2)."""
    return feet.land_pitch * (1.0 - smoothstep(feet.stance_age / loading_time))


def heel_lift_schedule(progress: FloatArray, moving: FloatArray, legs: LegSpec) -> FloatArray:
    """The scheduled heel lift (≤ 0): from ``_HEEL_OFF`` of the stance (``progress`` in
    [0, 1]) to ``toe_off`` at lift-off, scaled by ``moving`` in [0, 1] (none standing)."""
    return -legs.toe_off * smoothstep((progress - _HEEL_OFF) / (1.0 - _HEEL_OFF)) * moving


# -- landing ----------------------------------------------------------------------------
def sole_fits(
    terrain: Terrain, x: FloatArray, facing: FloatArray, rig: Rig
) -> tuple[BoolArray, FloatArray, FloatArray]:
    """Whether a sole with its ankle over ``x`` lies flat on the ground, the ground angle,
    and how much the ground bends under it.

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
    bend : ndarray, shape (...)
        The ground's largest distance from the heel→toe line, metres (0 on a straight
        stretch; where it bends, a rigid sole cannot touch at both its heel and its ball).
    """
    legs = rig.legs
    span = legs.heel + legs.toe
    along = -legs.heel + span * _SOLE_SAMPLES  # (S,) from heel to toe

    def chord(angle: FloatArray) -> tuple[FloatArray, FloatArray]:
        """The ground under the sole tilted to ``angle`` (S samples heel to toe), and the
        angle of its heel→toe chord. A tilted sole's points lie ankle_height·sin(angle)
        uphill of a level one's and closer together by cos(angle) (as in sole_points)."""
        lean = legs.ankle_height * np.sin(angle)[..., None]  # −ankle_height·normal_x
        hs = terrain.height_at(x[..., None] + lean + (facing * np.cos(angle))[..., None] * along)
        # slope of the heel→toe chord in world x: rise / run, run = facing·span·cos(angle)
        return hs, np.arctan2((hs[..., -1] - hs[..., 0]) * facing, span * np.cos(angle))

    hs, angle = chord(np.zeros(np.shape(x)))
    line = hs[..., :1] + (hs[..., -1:] - hs[..., :1]) * _SOLE_SAMPLES
    bend = np.abs(hs - line).max(axis=-1)
    fits = (bend <= _SOLE_FLATNESS) & (np.abs(angle) <= legs.max_tilt)
    # where the sole fits, the chord under the sole as it will lie (tilted), not under a
    # level one: at a slope's foot the two differ and the heel would hover over the corner
    for _ in range(_CHORD_PASSES):
        angle = np.where(fits, chord(angle)[1], angle)
    return fits, angle, bend


def plan_landing(
    terrain: Terrain,
    rig: Rig,
    start: FloatArray,
    predicted_x: FloatArray,
    hip_y: FloatArray,
    facing: FloatArray,
    pivot: BoolArray | None = None,
    beside: FloatArray | None = None,
    other: FloatArray | None = None,
    keep_off: FloatArray | None = None,
    settling: BoolArray | None = None,
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
    """Landing spots for M lifting feet.

    Parameters
    ----------
    start : ndarray, shape (M, 2)
        The flat-foot ankle the swing leaves from (its lock).
    predicted_x : ndarray, shape (M,)
        The ideal landing x (from the body's velocity).
    hip_y : ndarray, shape (M,)
        Height the ground ray is cast from.
    facing : ndarray, shape (M,)
        +1 or −1.
    pivot : ndarray of bool, shape (M,), optional
        Feet squaring up to pivot there (turning about the ball): see :func:`pivot_spots`.
    beside : ndarray, shape (M,), optional
        The other foot's flat ankle x where it is down (NaN where not): of two spots about
        as near, a squaring step takes the one nearer it (feet together, not astride).
    other : ndarray, shape (M,), optional
        The other foot's flat ankle x, down or where it will land (NaN: none): the spot is
        at most one stair riser past it.
    keep_off : ndarray, shape (K, 3), optional
        Things on the ground no sole lands on, rows ``(x0, x1, top)`` (a cup set down): a
        spot whose sole comes within ``KEEP_OFF_M`` of one is a last resort, and the spots
        just short of and just past each are tried too.
    settling : ndarray of bool, shape (M,), optional
        Steps to stand still (squaring up, not walking on): they may come down on the other
        foot's tread of a flight (standing, feet together on one tread).

    Returns
    -------
    lock : ndarray, shape (M, 2)
        The flat-foot ankle at the landing, its sole resting on the ground.
    angle : ndarray, shape (M,)
        The landing ground angle (the heel→toe chord, clamped to ``max_tilt``).
    ray_from, ray_hit : ndarray, shape (M, 2)
        The ground ray's origin and hit point.
    """
    legs, gait = rig.legs, rig.gait
    # around the predicted spot, then shorter steps (a stair too many up: land a tread lower)
    shortened = start[:, :1] + (predicted_x - start[:, 0])[:, None] * _SHORTER_STEPS
    facing_k = facing[:, None]  # each candidate's facing (broadcast along the candidates)
    near = predicted_x[:, None] + np.concatenate([_CANDIDATE_SHIFTS, _PIVOT_SHIFTS])
    if pivot is not None and pivot.any():  # (pivot spots by the risers: for squaring steps)
        near = np.concatenate([near, _tread_pivots(terrain, predicted_x, facing_k, legs)], axis=1)
    candidates = np.concatenate([near, shortened], axis=1)
    spans = np.zeros((0, 3)) if keep_off is None else np.asarray(keep_off, float).reshape(-1, 3)
    if other is not None:
        risers = terrain.risers(MIN_RISER, RISER_WINDOW)
        # each flight riser's distance ahead of the other foot (the risers of a flight: each
        # within MAX_TREAD of the next going the same way; NaN elsewhere)
        flight = terrain.treads(MIN_RISER, RISER_WINDOW) <= MAX_TREAD
        gap = np.where(flight, (risers - other[:, None]) * facing_k, np.nan)  # ahead: > 0
        # ... and the middle of the next tread up or down the flight from it, tried too
        tread = _next_tread(gap, other, facing, legs)
        candidates = np.concatenate(
            [candidates, np.where(np.isnan(tread), predicted_x[:, None], tread)], axis=1
        )
    turned = 2.0 * legs.ball * facing_k  # a foot pivoted about its ball: its ankle's shift
    if len(spans):  # the ankle x where the sole (heel behind, toe ahead) would touch a span,
        # facing as it lands, or (a squaring step) turned round about its ball
        lo_x, hi_x = _ankles_touching(spans, facing_k, legs)
        lo_t, hi_t = _ankles_touching(spans, -facing_k, legs)
        out = _KEEP_OFF_EDGE
        edges = [lo_x - out, hi_x + out, lo_t - turned - out, hi_t - turned + out]
        candidates = np.concatenate([candidates, *edges], axis=1)
    fits, chords, bend = sole_fits(terrain, candidates, facing_k, rig)
    hang = np.zeros_like(candidates, dtype=bool)
    if pivot is not None and pivot.any():
        turnable, slope = pivot_spots(terrain, candidates, facing_k, legs)
        fits = np.where(pivot[:, None], turnable, fits)
        chords = np.where(pivot[:, None], slope, chords)
        bend = np.where(pivot[:, None], 0.0, bend)
        # turned round there, would the heel hang off a nose? Standing so, the foot steps
        # again (a ball on a stair's nose: the turn took four steps, up a riser and down)
        hang = pivot[:, None] & heel_hangs(terrain, candidates + turned, -facing_k, legs)
    start_ground = terrain.height_at(start[:, :1])
    tilt = clamp(chords, -legs.max_tilt, legs.max_tilt)
    # how high the sole would rest there (a toe over a wall's top counts)
    rested = rest_on_ground(terrain, candidates, tilt, facing_k, legs)
    rest = rested - legs.ankle_height
    ground_y = terrain.height_at(candidates)
    # a sole that fits level can still rest on a stair's nose once tilted to its chord (its
    # heel a millimetre onto a riser's slope): resting that far over the ground under the
    # ankle it does not fit (at --hz 20 a foot locked 11 cm over a tread); a pivot spot
    # may overhang a nose
    hovers = rest - ground_y > _SOLE_FLATNESS
    fits &= ~hovers if pivot is None else pivot[:, None] | ~hovers
    rise = np.abs(np.maximum(rest, ground_y) - start_ground)
    # beyond either end the world is level, but no place to step: the whole sole lands in it
    lo, hi = terrain.x_range
    toe_x, heel_x = candidates + facing_k * legs.toe, candidates - facing_k * legs.heel
    in_world = (np.minimum(toe_x, heel_x) >= lo) & (np.maximum(toe_x, heel_x) <= hi)
    low_enough = (rise <= gait.max_step_height) & in_world
    if len(spans):  # a foot never comes down on the cup, nor turns round onto it
        touching = _touches(spans, candidates, facing_k, legs)
        if pivot is not None:
            touching |= pivot[:, None] & _touches(spans, candidates + turned, -facing_k, legs)
        low_enough &= ~touching
    # nearest fitting candidate, rather off a slope's corner than across it (where the
    # ground bends under the sole its heel or ball hovers by about the bend); a sole that
    # does not fit is a last resort; a step taller than max_step_height never
    miss = np.abs(candidates - predicted_x[:, None])
    cost = miss + _BEND_COST * bend + np.where(fits, 0.0, 10.0) + np.where(low_enough, 0.0, 1e3)
    cost += _HANG_COST * hang
    if other is not None:
        # one tread beyond the other foot, never two: off a stair landing a step timed for a
        # tread but taken from the landing's back dropped two risers (32 cm) below the foot
        # on the landing and its knee bent to 95°
        there = other[:, None, None]  # NaN: no risers counted
        lo, hi = np.minimum(candidates[..., None], there), np.maximum(candidates[..., None], there)
        between = (risers > lo) & (risers < hi)
        crossed = between.sum(axis=-1)
        cost += _SKIP_COST * np.maximum(crossed - 1, 0)
        # ... and down over a riser only from a foot near its edge: from the back of a
        # landing the step onto the flight was 0.7 m long and the pelvis sank 18 cm for it
        back = np.where(between, np.abs(risers - there), 0.0).max(axis=-1, initial=0.0)
        down = ground_y < terrain.height_at(other)[:, None] - MIN_RISER  # (NaN: False)
        cost += _SKIP_COST * (down & (back > _EDGE_M))
        # ... and on a flight, a tread each: the other foot's tread (a riser within a tread
        # of it on either side) costs as much as a step 0.2 m off (beside it on one tread,
        # the first foot on a flight waited for the second, the knee bent: a squat)
        riser_ahead = ((gap > 0.0) & (gap < MAX_TREAD)).any(axis=1, keepdims=True)
        riser_behind = ((gap < 0.0) & (gap > -MAX_TREAD)).any(axis=1, keepdims=True)
        step_to = riser_ahead & riser_behind & (crossed == 0)
        # (... as does one behind it, on a tread below)
        step_to |= riser_ahead & riser_behind & ((candidates - other[:, None]) * facing_k < 0.0)
        if pivot is not None:
            step_to &= ~pivot[:, None]  # (squaring up for a pivot: feet together)
        if settling is not None:  # (... or to stand: a step to stand went a tread on)
            step_to &= ~settling[:, None]
            # ... and a step to stand lands on the other foot's tread or its own spot's
            # (under the pelvis) where it can: turned round on a tread, the foot stepping to
            # stand went up the riser ahead and he stood split across it, the knee bent 70°
            spot = predicted_x[:, None, None]
            lo, hi = (
                np.minimum(candidates[..., None], spot),
                np.maximum(candidates[..., None], spot),
            )
            off_spot = ((risers > lo) & (risers < hi)).any(axis=-1)
            step_to |= settling[:, None] & (crossed > 0) & off_spot
        cost += _STEP_TO_COST * step_to
    squaring = np.zeros((len(start), 1), dtype=bool) if pivot is None else pivot[:, None]
    far = np.arange(candidates.shape[1]) >= len(_CANDIDATE_SHIFTS)
    shorter = np.arange(candidates.shape[1]) >= near.shape[1]
    cost += np.where(far & ~shorter & ~squaring, 1e3, 0.0)  # the farther spots: pivots only
    cost += np.where(shorter & squaring, _PIVOT_SHORTER_COST, 0.0)
    if beside is not None:
        apart = np.abs(candidates - beside[:, None])  # NaN where the other foot is up
        cost += np.where(squaring & np.isfinite(apart), _BESIDE_COST * apart, 0.0)
    best = np.argmin(cost, axis=1)
    rows = np.arange(len(best))
    chosen = candidates[rows, best]
    taken = low_enough[rows, best]
    x = np.where(taken, chosen, start[:, 0])  # nowhere to step: put the foot back down
    chord = chords[rows, best]
    if not taken.all():  # the chord under the spot it stays on instead
        chord = np.where(taken, chord, sole_fits(terrain, x, facing, rig)[1])
    angle = clamp(chord, -legs.max_tilt, legs.max_tilt)
    # the sole resting there: as measured for the candidate (the same x and angle)
    y = rested[rows, best] if taken.all() else rest_on_ground(terrain, x, angle, facing, legs)
    ray_from = xy(x, np.maximum(hip_y, start[:, 1]))
    ray_hit = xy(x, terrain.height_at(x))  # where the ray from straight above meets the ground
    return xy(x, y), angle, ray_from, ray_hit


def _tread_pivots(terrain: Terrain, x: FloatArray, facing: FloatArray, legs: LegSpec) -> FloatArray:
    """Pivot spots (ankle x, shape (M, 4), facing ``facing`` (M, 1)) beside the two stair
    risers nearest ``x`` (M,), either side of each: the ball ``heel + ball`` (plus 5 mm) from
    the riser, so the heel pointing at it is just clear of it before or after the turn. On a
    0.34-0.35 m tread the heel pointing the other way then overhangs the nose by 1-2.5 cm,
    within ``HEEL_HANG``: the only spots that hold the sole both ways are 2 cm wide there,
    and the shifts from the predicted spot, 4-6 cm apart, missed them (the turn took a fourth
    step, up a riser and back down)."""
    risers = terrain.risers(MIN_RISER, RISER_WINDOW)
    if len(risers) < 2:
        return np.repeat(x[:, None], 4, axis=1)  # (no stairs: the predicted spot again)
    nearest = np.sort(np.argsort(np.abs(risers[None, :] - x[:, None]), axis=1)[:, :2], axis=1)
    reach = legs.heel + legs.ball + 0.005
    balls = (risers[nearest][..., None] + np.array([-reach, reach])).reshape(len(x), 4)
    return balls - facing * legs.ball


def _next_tread(
    gap: FloatArray, other: FloatArray, facing: FloatArray, legs: LegSpec
) -> FloatArray:
    """The ankle x (M, 1) of a sole in the middle of the tread beyond the first riser ahead of
    ``other`` (M,), from each flight riser's distance ``gap`` (M, R) ahead of it (NaN: not a
    flight's; the result NaN where there is no such tread, or ``other`` is NaN)."""
    ahead = np.where(gap > 0.0, gap, np.inf)
    first = ahead.min(axis=1, initial=np.inf)
    second = np.where(ahead > first[:, None] + 0.02, ahead, np.inf).min(axis=1, initial=np.inf)
    with np.errstate(invalid="ignore"):  # inf - inf: no tread
        ok = (first < MAX_TREAD) & (second - first <= MAX_TREAD)
    middle = other + facing * 0.5 * (first + second) - facing * 0.5 * (legs.toe - legs.heel)
    return np.where(ok, middle, np.nan)[:, None]


def _ankles_touching(
    spans: FloatArray, facing: FloatArray, legs: LegSpec
) -> tuple[FloatArray, FloatArray]:
    """The open range of ankle x, per span ``(x0, x1, top)`` (along the last axis), over
    which a flat sole ``[x − heel, x + toe]`` (facing +1; mirrored for −1) comes within
    ``KEEP_OFF_M`` of the span: ``facing``'s shape plus the spans'."""
    x0, x1 = spans[:, 0] - KEEP_OFF_M, spans[:, 1] + KEEP_OFF_M
    ahead = np.where(facing > 0, legs.toe, legs.heel)  # the sole's reach toward +x
    behind = np.where(facing > 0, legs.heel, legs.toe)
    return x0 - ahead, x1 + behind


def _touches(spans: FloatArray, x: FloatArray, facing: FloatArray, legs: LegSpec) -> BoolArray:
    """Whether a flat sole with its ankle at ``x`` comes within ``KEEP_OFF_M`` of any span
    (:func:`_ankles_touching`), the shape of ``x`` and ``facing`` broadcast."""
    lo_x, hi_x = _ankles_touching(spans, facing[..., None], legs)
    return np.asarray(((x[..., None] > lo_x) & (x[..., None] < hi_x)).any(axis=-1))


def pivot_spots(
    terrain: Terrain,
    x: FloatArray,
    facing: FloatArray,
    legs: LegSpec,
    keep_off: FloatArray | None = None,
) -> tuple[BoolArray, FloatArray]:
    """Whether a foot with its ankle at ``x`` can pivot there, and the ground angle it then
    lies at (the slope under its ball), shape (...) each. Facing either way, the sole keeps
    off ``keep_off`` (see :func:`plan_landing`).

    It turns about its ball, so turned round its sole reaches up to ``heel + ball`` beyond
    the ball where its toes reached ``toe − ball``: on a 0.34 m stair tread no spot holds the
    whole sole both ways, and a sole that fitted before the pivot put its heel 16 cm into
    the riser after it. So a pivot spot needs only the ball on the ground, the sole lying
    along the ground under the ball, with nothing higher under it facing either way (the
    heel or the toes may overhang a stair nose, in the air).
    """
    ball_x = x + facing * legs.ball
    angle = np.arctan(terrain.slope_at(ball_x))
    turnable = np.ones(np.shape(x), dtype=bool)
    # the ankle turned round about the ball: ball + (−facing)·(−ball) = x + 2·facing·ball
    for ankle_x, way in ((x, facing), (x + 2.0 * facing * legs.ball, -facing)):
        rest = rest_on_ground(terrain, ankle_x, angle, way, legs)
        ankle = xy(ankle_x, rest)
        ball = sole_points(ankle, angle, np.zeros_like(angle), way, legs)[..., 1, :]
        # on the ground where it is (a tilted sole's ball is not quite over ball_x: on a
        # curved slope, read there, it hovered by the slope times that offset)
        turnable &= ball[..., 1] <= terrain.height_at(ball[..., 0]) + _PIVOT_BALL_GAP
        if keep_off is not None and len(keep_off):  # (turned round, a heel swept into a cup)
            turnable &= ~_touches(keep_off, ankle_x, way, legs)
    return turnable, angle


def heel_hangs(terrain: Terrain, x: FloatArray, facing: FloatArray, legs: LegSpec) -> BoolArray:
    """Whether a flat foot with its ankle at ``x`` hangs its heel off a stair nose: the ground
    under the heel, read ``HEEL_HANG`` in from its back, more than ``MIN_RISER`` below the
    ground under the ball. The shape of ``x`` and ``facing`` broadcast. (A heel over the nose
    by up to ``HEEL_HANG`` stands: a foot turned round about its ball moves its heel ``heel +
    ball`` (0.18 m) past the ball either way, so on a 0.34 m tread only a spot that lets the
    heel overhang a little holds the sole before and after the turn.)"""
    ball = terrain.height_at(x + facing * legs.ball)
    heel = terrain.height_at(x - facing * (legs.heel - HEEL_HANG))
    return np.asarray(heel < ball - MIN_RISER)


def landing_pitch(
    start_ground: FloatArray, land_ground: FloatArray, length: FloatArray, rig: Rig
) -> FloatArray:
    """The touchdown roll: heel strike (toe up, more for longer steps), or toe first (toe
    down) when the landing is more than ``_TOE_FIRST_DROP`` below the lift-off."""
    legs, gait = rig.legs, rig.gait
    strike = legs.heel_strike * clamp(np.abs(length) / (2.0 * gait.max_step_reach), 0.2, 1.0)
    return np.where(land_ground < start_ground - _TOE_FIRST_DROP, -legs.toe_first, strike)


# -- swing -----------------------------------------------------------------------------
def swing_pose(
    feet: Feet, facing: FloatArray, terrain: Terrain, legs: LegSpec, dt: float = 0.0
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray, FloatArray]:
    """Ankle (N, 2, 2), sole angle, toe bend, clearance floor and hold (N, 2) along each
    swing at ``u``, ``dt`` seconds after the last pose (0: the same instant again).

    A swing's first pose (its floor not yet measured, at ``u`` 0 when it lifted this step)
    also measures its hold (:func:`swing_hold`) from the clearance it computes anyway; every
    other foot keeps ``feet.hold``.

    The ankle moves from ``start`` to ``land`` (horizontally eased, vertically blended) and
    is kept at least at the sole's required clearance height (held by :func:`glide_floor`
    where that height drops), then lifted by ``lift · sin(π·u)``; the foot pitches from its
    toe-off roll to the landing roll, the toes straightening in the first third.
    """
    u = clamp(feet.u, 0.0, 1.0)
    on = clamp((u - feet.hold) / (1.0 - feet.hold), 0.0, 1.0)  # after the hold
    s = feet.start
    e = feet.land
    # the foot leaves and arrives at rest; a minimum-jerk path (smootherstep) would peak at
    # 1.875× its mean speed, smoothstep at 1.5×: their mean peaks at ~1.69×, 10 % slower, so
    # a long swing (a walk turning into a run) no longer moves its ankle over 10 cm a step
    x = s[..., 0] + (e[..., 0] - s[..., 0]) * 0.5 * (smoothstep(on) + smootherstep(on))
    blend_y = s[..., 1] + (e[..., 1] - s[..., 1]) * smoothstep(u)
    angle = feet.start_angle + (feet.land_angle - feet.start_angle) * smoothstep(on / 0.85)
    bend = feet.start_bend * (1.0 - smoothstep(on / 0.35)) + feet.land_bend * smoothstep(
        (on - 0.65) / 0.35
    )
    travel = e[..., 0] - x
    # the look-ahead closes onto the landing (opening the window instead would sweep its
    # far end up a riser's face: a jump as tall as the rise)
    ahead = np.sign(travel) * np.minimum(np.abs(travel), _LOOK_AHEAD)
    exact, wanted = sole_clearance(terrain, x, angle, bend, facing[:, None], ahead, legs)
    floor = glide_floor(feet, exact, wanted, dt)
    lifting = ~np.isfinite(feet.floor)  # −inf from lift-off until the first pose
    hold = np.where(lifting, swing_hold(exact, wanted, feet.duration), feet.hold)
    # the sole clears the ground by ``lift`` at mid-swing; the heel rises behind early in
    # the swing (the shank trails the thigh), peaking at a quarter of it
    early = np.sin(np.pi * clamp(u / _HEEL_RISE_END, 0.0, 1.0)) ** 2
    # (the heel's rise within the floor's: lifting off before a riser, on top of it the
    # ankle rose 6-7 cm a step)
    y = np.maximum(blend_y + legs.heel_rise * early, floor) + feet.lift * np.sin(np.pi * u)
    return xy(x, y), angle, bend, floor, hold


def swing_hold(exact: FloatArray, wanted: FloatArray, duration: FloatArray) -> FloatArray:
    """The fraction of a swing lasting ``duration`` seconds that a foot lifting off with
    the clearance heights ``exact`` and ``wanted`` (:func:`sole_clearance`, at lift-off)
    spends rising before it moves toward its landing (at most ``_MAX_HOLD``).

    Lifting off with its toes against a stair riser, a foot must first rise to clear the
    ground ahead (from rest at ``_FLOOR_ACCEL``, then at ``_FLOOR_RISE``, as
    :func:`glide_floor` lets it); swinging forward at once, its toes would
    reach the riser's face and the ankle would jump up the whole rise in a step or two.
    """
    rise = np.maximum(wanted - exact, 0.0)
    # from rest at _FLOOR_ACCEL up to _FLOOR_RISE: t = √(2h/a) within the speed-up, which
    # covers V²/2a; beyond it V/a + (h − V²/2a)/V
    ramp = _FLOOR_RISE * _FLOOR_RISE / (2.0 * _FLOOR_ACCEL)
    seconds = np.where(
        rise <= ramp,
        np.sqrt(2.0 * rise / _FLOOR_ACCEL),
        _FLOOR_RISE / _FLOOR_ACCEL + (rise - ramp) / _FLOOR_RISE,
    )
    return clamp(seconds / duration, 0.0, _MAX_HOLD)


def glide_floor(feet: Feet, exact: FloatArray, wanted: FloatArray, dt: float) -> FloatArray:
    """The swing's clearance floor (N, 2) ``dt`` seconds after the last (``feet.floor``):
    ``wanted`` (the sole clear of the ground under and ahead of it), never below ``exact``
    (the sole touching the ground), but rising from the last floor at most
    ``_FLOOR_RISE · dt`` during the hold (:func:`swing_hold`), and sinking at most
    ``_FLOOR_FALL · dt``, or faster only as the straight glide that reaches the landing
    height at touchdown needs.

    Going down stairs the required height drops by a whole rise in one step as the heel
    passes a stair nose; the floor makes that a glide over a few steps instead.
    """
    last = feet.floor
    measured = np.isfinite(last)  # −inf at lift-off: the first floor is the exact one
    du = dt / feet.duration
    before = feet.u - du  # the swing's progress at the last floor
    left = np.maximum(1.0 - before, du)
    # a straight line from the last floor to the landing ankle, reached at u = 1
    glide = np.where(measured, last - feet.land[..., 1], 0.0) * (du / np.maximum(left, 1e-9))
    low = np.where(measured, last - np.maximum(_FLOOR_FALL * dt, glide), -np.inf)
    holding = before < feet.hold
    # rising from rest: its speed grows at _FLOOR_ACCEL to _FLOOR_RISE (at once, the ankle
    # rose 6-7 cm in the swing's first step: a pop, lifting off a tread from standing)
    rate = np.minimum(_FLOOR_ACCEL * (before * feet.duration + 0.5 * dt), _FLOOR_RISE)
    high = np.where(measured, np.where(holding, last + rate * dt, np.inf), -np.inf)
    return np.maximum(exact, clamp(wanted, low, high))


def within_reach(target: FloatArray, hip: FloatArray, reach: float) -> FloatArray:
    """``target`` (..., 2) raised straight up until it is within ``reach`` of ``hip`` (and
    moved toward the hip horizontally if it is more than ``_SIDE_REACH`` of that to the
    side): a swinging foot the leg cannot reach lifts instead of hanging from a straight
    leg, and one left far behind is dragged along below the hip (raised to the hip's height
    at a full reach behind, it jumped up the last few centimetres of √(R² − dx²))."""
    side = _SIDE_REACH * reach
    dx = clamp(target[..., 0] - hip[..., 0], -side, side)
    # Pythagoras: the lowest point within reach at horizontal offset dx is √(R² − dx²) down
    floor = hip[..., 1] - np.sqrt(reach * reach - dx * dx)
    return xy(hip[..., 0] + dx, np.maximum(target[..., 1], floor))


# -- pelvis ----------------------------------------------------------------------------
def spring_step(
    y: FloatArray, vy: FloatArray, goal: FloatArray, halflife: ArrayLike, dt: float
) -> tuple[FloatArray, FloatArray]:
    """One step of a critically damped spring toward ``goal`` (exact for constant goal).

    Holden, "Spring-It-On": with d = 2·ln 2 / halflife, j0 = y − goal, j1 = v + j0·d:
    y(t) = e^(−d·t)·(j0 + j1·t) + goal, v(t) = e^(−d·t)·(v − j1·d·t).
    """
    d = 2.0 * math.log(2.0) / np.maximum(halflife, 1e-6)
    j0 = y - goal
    j1 = vy + j0 * d
    decay = np.exp(-d * dt)
    return decay * (j0 + j1 * dt) + goal, decay * (vy - j1 * d * dt)
