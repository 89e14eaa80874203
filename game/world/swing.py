"""A swinging foot's path: from toe-off to heel strike on an arc lifted over the ground it
passes (the required height: every sole point clear, and a cone of the ground ahead), a
floor that rises and falls at bounded speeds, and the foot kept within its leg's reach.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

import numpy as np
from numpy.typing import NDArray

from game.world.easing import all_true, any_true, clamp, max_last, smootherstep, smoothstep, xy
from game.world.feet import Feet, sole_depth
from game.world.rig import LegSpec
from game.world.terrain import Terrain
from game.world.types import BoolArray, FloatArray

_PROBES = np.linspace(0.0, 1.0, 12)  # fractions of the look-ahead the ground is read at


_LOOK_AHEAD = 0.5  # metres of ground ahead of the swinging sole that it rises over


_APPROACH_SLOPE = 0.8  # the required height falls off this steeply ahead of the sole (m/m)


_FLOOR_RISE = 2.0  # m/s: a swing lifting off in front of a riser rises no faster ...


_FLOOR_ACCEL = 30.0  # m/s²: ... speeding up to that from rest at most this fast


_SIDE_REACH = 0.95  # a swinging foot stays within this fraction of a leg of its hip, sideways


_MAX_HOLD = 0.3  # a swing rises in place for at most this fraction of it (swing_hold)


_FLOOR_FALL = 2.0  # m/s: a swing's clearance floor sinks no faster (unless landing needs it)


_HEEL_RISE_END = 0.55  # fraction of the swing by which the early heel rise is over


_CARRY_RISE = 0.12  # running, the foot is carried up within this first fraction of a swing ...


_CARRY_FALL = 0.16  # ... and comes down to its landing only in this last fraction


# a swing's eases of its progress after the hold, smoothstep((on − start) / span), rows:
# the ankle's travel, the sole's pitch to the landing (over 0.85 of it), the toes
# straightening (the first 0.35) and bending for the landing (the last 0.35); shaped
# (start or span, ease, 1, 1) against the feet's (N, 2)
_EASES = np.array([[0.0, 0.0, 0.0, 0.65], [1.0, 0.85, 0.35, 0.35]])[..., None, None]


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
    it also clears the ground ahead, shape (...) each: ``ahead`` has the shape of the soles
    (the broadcast of the other arrays), which the look-ahead window's pairs index.

    Exact: heel, ball, toe and both sole segments on or above the ground (see
    :func:`sole_penetration`). Ahead: the sole's leading point also clears a cone over the
    ground up to ``ahead`` metres further on in the direction of travel (signed), falling
    ``_APPROACH_SLOPE`` per metre, so a foot nearing a stair riser can rise before it gets
    there, continuously.
    """
    exact, offsets = sole_depth(terrain, ankle_x, angle, bend, facing, legs)
    xs = offsets[..., 0]
    reach = np.abs(ahead)
    forward = ahead >= 0
    # the sole's leading point in the direction of travel, and its height off the ankle
    lead = np.where(forward, xs.argmax(axis=-1), xs.argmin(axis=-1)).ravel()
    points = offsets.reshape(-1, 3, 2)
    lead_point = points[np.arange(len(points)), lead].reshape(offsets.shape[:-2] + (2,))
    edge, lowest = lead_point[..., 0], lead_point[..., 1]
    probe = edge[..., None] + ahead[..., None] * _PROBES
    cone = max_last(terrain.height_at(probe) - _APPROACH_SLOPE * reach[..., None] * _PROBES)
    # terrain vertices inside the look-ahead window (a nosing between two probes): those
    # near it by binary search (widened by a few ulps: the window's ends are tested below
    # exactly as written, in the gap's own rounding), then the window's own test
    slack = 1e-12 * (1.0 + np.abs(edge) + reach)
    near = np.where(forward, edge, edge - reach) - slack
    far = np.where(forward, edge + reach, edge) + slack
    window, v = terrain.vertices_between(near, far)
    if len(window):  # (most of the ground has no vertex in the window: the cone decides)
        gap = (terrain.xs[v] - edge.ravel()[window]) * np.sign(ahead).ravel()[window]
        r = reach.ravel()[window]
        inside = (gap >= 0) & (gap <= r) & (r > 0)
        vertex = np.full(edge.shape, -np.inf)
        np.maximum.at(
            vertex.reshape(-1), window[inside], (terrain.ys[v] - _APPROACH_SLOPE * gap)[inside]
        )
        cone = np.maximum(cone, vertex)
    return exact, np.maximum(exact, cone - lowest)


# -- swing -----------------------------------------------------------------------------
def swing_pose(
    feet: Feet,
    facing: FloatArray,
    terrain: Terrain,
    legs: LegSpec,
    dt: float = 0.0,
    run: FloatArray | None = None,
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray, FloatArray]:
    """Ankle (N, 2, 2), sole angle, toe bend, clearance floor and hold (N, 2) along each
    swing at ``u``, ``dt`` seconds after the last pose (0: the same instant again), for
    characters running by ``run`` (N,, the run fraction in [0, 1]; None: walking).

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
    # the eases of ``on`` (:data:`_EASES`), all in one smoothstep
    moving, pitching, straightening, bending = smoothstep((on - _EASES[0]) / _EASES[1])
    # the foot leaves and arrives at rest; a minimum-jerk path (smootherstep) would peak at
    # 1.875× its mean speed, smoothstep at 1.5×: their mean peaks at ~1.69×, 10 % slower, so
    # a long swing (a walk turning into a run) moves its ankle under 10 cm a step
    x = s[..., 0] + (e[..., 0] - s[..., 0]) * 0.5 * (moving + smootherstep(on))
    blend_y = s[..., 1] + (e[..., 1] - s[..., 1]) * smoothstep(u)
    angle = feet.start_angle + (feet.land_angle - feet.start_angle) * pitching
    bend = feet.start_bend * (1.0 - straightening) + feet.land_bend * bending
    travel = e[..., 0] - x
    # the look-ahead closes onto the landing (opening the window instead would sweep its
    # far end up a riser's face: a jump as tall as the rise)
    ahead = np.sign(travel) * np.minimum(np.abs(travel), _LOOK_AHEAD)
    exact, wanted = sole_clearance(terrain, x, angle, bend, facing[:, None], ahead, legs)
    measured = np.isfinite(feet.floor)  # −inf from lift-off until the first pose
    floor = glide_floor(feet, exact, wanted, dt, measured)
    if all_true(measured):  # no foot lifted off this step: every hold is kept
        hold = feet.hold
    else:
        hold = np.where(measured, feet.hold, swing_hold(exact, wanted, feet.duration))
    # the sole clears the ground by ``lift`` at mid-swing; the heel rises behind early in
    # the swing (the shank trails the thigh), peaking at a quarter of it
    early = np.sin(np.pi * clamp(u / _HEEL_RISE_END, 0.0, 1.0)) ** 2
    if run is not None and any_true(run):  # (every character walking: no carry)
        early = early + (np.maximum(carried(u), early) - early) * run[:, None]
    # (the heel's rise within the floor's: lifting off before a riser, on top of it the
    # ankle would rise 6-7 cm a step)
    y = np.maximum(blend_y + legs.heel_rise * early, floor) + feet.lift * np.sin(np.pi * u)
    return xy(x, y), angle, bend, floor, hold


def carried(u: FloatArray) -> FloatArray:
    """A running swing's heel rise at ``u`` (...), in [0, 1]: up within ``_CARRY_RISE`` of
    the swing, held, and down to the landing in its last ``_CARRY_FALL``."""
    up = smoothstep(u / _CARRY_RISE)
    return up * (1.0 - smoothstep((u - (1.0 - _CARRY_FALL)) / _CARRY_FALL))


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


def glide_floor(
    feet: Feet, exact: FloatArray, wanted: FloatArray, dt: float, measured: BoolArray
) -> FloatArray:
    """The swing's clearance floor (N, 2) ``dt`` seconds after the last (``feet.floor``,
    ``measured``: finite, not −inf at lift-off):
    ``wanted`` (the sole clear of the ground under and ahead of it), never below ``exact``
    (the sole touching the ground), but rising from the last floor at most
    ``_FLOOR_RISE · dt`` during the hold (:func:`swing_hold`), and sinking at most
    ``_FLOOR_FALL · dt``, or faster only as the straight glide that reaches the landing
    height at touchdown needs.

    Going down stairs the required height drops by a whole rise in one step as the heel
    passes a stair nose; the floor makes that a glide over a few steps instead.
    """
    last = feet.floor  # −inf at lift-off: the first floor is the exact one
    du = dt / feet.duration
    before = feet.u - du  # the swing's progress at the last floor
    left = np.maximum(1.0 - before, du)
    # a straight line from the last floor to the landing ankle, reached at u = 1
    glide = np.where(measured, last - feet.land[..., 1], 0.0) * (du / np.maximum(left, 1e-9))
    low = np.where(measured, last - np.maximum(_FLOOR_FALL * dt, glide), -np.inf)
    high = np.where(measured, np.inf, -np.inf)  # rising limited only during the hold
    holding = before < feet.hold
    if any_true(holding):  # (most swings have no hold, or are past it)
        # rising from rest: its speed grows at _FLOOR_ACCEL to _FLOOR_RISE (at once, the
        # ankle would rise 6-7 cm in the swing's first step: a pop lifting off a tread from
        # standing)
        rate = np.minimum(_FLOOR_ACCEL * (before * feet.duration + 0.5 * dt), _FLOOR_RISE)
        high = np.where(measured & holding, last + rate * dt, high)
    return np.maximum(exact, clamp(wanted, low, high))


def within_reach(target: FloatArray, hip: FloatArray, reach: float) -> FloatArray:
    """``target`` (..., 2) raised straight up until it is within ``reach`` of ``hip`` (and
    moved toward the hip horizontally if it is more than ``_SIDE_REACH`` of that to the
    side): a swinging foot the leg cannot reach lifts instead of hanging from a straight
    leg, and one left far behind is dragged along below the hip (``dx`` is capped at
    ``_SIDE_REACH``: near a full reach √(R² − dx²) rises steeply to the hip's height, and a
    foot raised along it would jump up the last few centimetres)."""
    side = _SIDE_REACH * reach
    dx = clamp(target[..., 0] - hip[..., 0], -side, side)
    # Pythagoras: the lowest point within reach at horizontal offset dx is √(R² − dx²) down
    floor = hip[..., 1] - np.sqrt(reach * reach - dx * dx)
    return xy(hip[..., 0] + dx, np.maximum(target[..., 1], floor))


_FEW_PLANTED = 64  # feet: with fewer planted, every foot's path is computed (see below)


def swinging_poses(
    feet: Feet,
    swinging: BoolArray,
    facing: FloatArray,
    terrain: Terrain,
    legs: LegSpec,
    dt: float,
    run: FloatArray,
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray, FloatArray]:
    """:func:`swing_pose` of every foot (N, 2, ...), computed on the ``swinging`` feet
    only when more than ``_FEW_PLANTED`` feet are planted (a crowd's, about two in three;
    below that numpy's cost a call outweighs the elements saved), the others' rows its
    planted-foot values: the stance's ankle and angle left to the caller, ``hold`` kept.
    The path is per foot, so these are the very numbers the whole batch gives (a foot
    whose floor is still unmeasured has its ``hold`` measured, swinging or not)."""
    if swinging.size <= _FEW_PLANTED:  # (so few feet that not enough can be planted)
        return swing_pose(feet, facing, terrain, legs, dt, run)
    # (each foot's index into the (N·2, ...) rows: taken there, cheaper than [n, f])
    foot = np.flatnonzero(swinging | ~np.isfinite(feet.floor))
    if swinging.size - len(foot) <= _FEW_PLANTED:
        return swing_pose(feet, facing, terrain, legs, dt, run)
    n, f = np.divmod(foot, 2)
    # the swinging feet as a batch of M characters of one foot each, shape (M, 1, ...)
    few = Feet(**{name: _foot_rows(getattr(feet, name), foot, n) for name in _FEET_FIELDS})
    at, angle, bend, floor, hold = swing_pose(few, facing[n], terrain, legs, dt, run[n])
    ankles = np.zeros(feet.land.shape)
    angles, bends, floors = (np.zeros(swinging.shape) for _ in range(3))
    holds = feet.hold.copy()
    ankles[n, f], angles[n, f], bends[n, f] = at[:, 0], angle[:, 0], bend[:, 0]
    floors[n, f], holds[n, f] = floor[:, 0], hold[:, 0]
    return ankles, angles, bends, floors, holds


_FEET_FIELDS = tuple(field.name for field in fields(Feet))


def _foot_rows(a: NDArray[Any], foot: NDArray[np.intp], n: NDArray[np.intp]) -> NDArray[Any]:
    """``a``'s rows of the feet ``foot`` (M,) (their indices into its (N·2, ...) rows; ``n``
    (M,) their characters), shape (M, 1, ...): a per-foot array (N, 2, ...) at each foot, a
    per-character one (N, ...) at its character."""
    if a.ndim == 1:
        return a.take(n)[:, None]
    return a.reshape((-1,) + a.shape[2:]).take(foot, axis=0)[:, None]
