"""The start of a swing, stage by stage: its timing, where the hip will be at touchdown,
the spot predicted from that, and the swing begun toward the landing fitted there.

Each function reads the lifting feet ``n, f`` (index arrays, the rows and sides of the
mask :func:`game.world.stepping.start_swings` was given).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from game.world.easing import braking_travel, clamp, halflife_travel
from game.world.feet import FOOT_SIDE, MIN_RISER, RISER_WINDOW, sole_points, stance_pose
from game.world.gait import Pace, half_stride
from game.world.speed import approach, climb_cap
from game.world.stance import landing_pitch
from game.world.support import Support, hip_x_range
from game.world.timing import (
    flight_between,
    foot_x,
    hips_x,
    speed_halflife,
    speed_soon,
    squaring_up,
    timed,
    trailing_foot,
)
from game.world.types import BoolArray, FloatArray, IntArray
from game.world.walker_state import WalkState, World


@dataclass(frozen=True, slots=True)
class Landing:
    """Where the lifting feet (M,) will land: the flat-foot ``lock`` (M, 2) and ground
    angle there, the ground ray that found it, the spot aimed at (``predicted``, ankle x)
    and the hip x predicted at touchdown."""

    lock: FloatArray
    ground: FloatArray
    ray_from: FloatArray
    ray_hit: FloatArray
    predicted: FloatArray
    hip_land: FloatArray


def swing_timing(
    w: World, lifting: WalkState, v_target: FloatArray, grade: FloatArray
) -> tuple[FloatArray, BoolArray]:
    """The swing's duration (M,) at the pace a step is timed for, and whether it squares
    up (toward a pivot, or stopping): such a step is short, quick whatever the cadence.
    ``lifting`` holds the lifting feet's characters' rows (:func:`rows_of`), ``v_target``
    and ``grade`` (M,) theirs."""
    tune = w.rig.tuning
    soon = speed_soon(w, lifting, v_target)
    squaring = squaring_up(w, lifting, v_target)
    pace = np.where(squaring, np.maximum(np.abs(soon), tune.square_up_speed), soon)
    duration = Pace.at(timed(w, lifting, pace), grade, w.rig.gait).swing_time
    return np.where(squaring, np.minimum(duration, tune.squaring_swing), duration), squaring


def hip_at_touchdown(
    w: World,
    lifting: WalkState,
    f: IntArray,
    lifts: BoolArray,
    x_new: FloatArray,
    v_target: FloatArray,
    duration: FloatArray,
    support: Support,
    as_is: BoolArray | None = None,
) -> tuple[FloatArray, FloatArray]:
    """Where each lifting foot's character's hip will be at touchdown and how fast it will
    be going (M,): the speed aimed for, let go of by a flight the last foot leaves, slowed
    for a flight ahead (walking) and to the climb's pace on a steep slope there; braking to
    turn round, where it stops; never past where the other leg, staying down, carries it.
    ``lifting`` holds the characters' rows (:func:`rows_of`), one per lifting foot (side
    ``f``), ``lifts`` (M, 2) their rows of the lifting feet's mask; ``x_new``, ``v_target``
    (M,) and ``support`` (:func:`support_rows`) theirs; ``as_is`` (M,): those planned for
    the pace the body keeps, not the one wished."""
    gait, feet, s = w.rig.gait, lifting.feet, lifting
    m = np.arange(len(f))
    reversing = s.reversing
    # the last foot on a flight lifting off it, walking: the flight's pace lets go
    # (speed.unblocked), so its spot is planned for the walk's pace
    direction = np.sign(s.v_goal)
    trailing = trailing_foot(w, s, direction, lifts)  # once this foot has lifted
    ahead = x_new + direction * gait.max_step_reach
    off = ~flight_between(w, s, trailing, ahead)
    off &= ~s.sprinting & ~squaring_up(w, s, v_target) & (v_target != 0.0)
    v_target = np.where(off, s.v_goal, v_target)
    if as_is is not None:
        v_target = np.where(as_is, s.vx, v_target)
    halflife = speed_halflife(w, s, v_target)
    hip_land = x_new + halflife_travel(s.vx, v_target, duration, halflife)
    # ... walking, slowing for a flight ahead as it gets there
    risers = w.terrain.risers(MIN_RISER, RISER_WINDOW)
    treads = w.terrain.treads(MIN_RISER, RISER_WINDOW)
    cap = approach(w, s, risers, treads, np.sign(v_target), s.sprinting, hip_land, within=v_target)
    walking = ~s.sprinting  # (running keeps its aim)
    v_target = np.where(walking, clamp(v_target, -cap, cap), v_target)
    # ... and, walking or running, held to the climb's pace on a steep slope there
    climb = climb_cap(w, s, hip_land, np.sign(v_target))
    v_target = clamp(v_target, -climb, climb)
    halflife = speed_halflife(w, s, v_target)  # (braking now, where the cap binds)
    hip_land = x_new + halflife_travel(s.vx, v_target, duration, halflife)
    # ... or, braking to turn round, where it will stop (the step's brake law)
    if reversing.any():
        stop = braking_travel(s.vx, np.inf, gait.accel_halflife, w.rig.tuning.reversal_brake)
        hip_land = np.where(reversing, x_new + stop, hip_land)
    # ... but never past where the other leg, if it stays down, can carry the hip
    offset = hips_x(w, s, s.x) - s.x[:, None]
    lo, hi = hip_x_range(w, s, support, s.y[:, None], gait.lock_extension)
    other = feet.planted[m, 1 - f]
    lo_other, hi_other = lo[m, 1 - f] - offset[m, 1 - f], hi[m, 1 - f] - offset[m, 1 - f]
    # (not the stop a reversal brakes to: the other foot steps to its own spot too; nor
    # where the other leg reaches no hip at this height at all, its range empty: ±inf)
    carried = other & ~reversing & (lo_other <= hi_other)
    hip_land = np.where(carried, clamp(hip_land, lo_other, hi_other), hip_land)
    decay = 2.0 ** (-duration / halflife)
    return hip_land, v_target + (s.vx - v_target) * decay


def support_rows(support: Support, rows: IntArray) -> Support:
    """``support`` for the characters ``rows`` (M,) only (:func:`rows_of`)."""
    pace = Pace(support.pace.duty[rows], support.pace.rate[rows])
    return Support(
        support.rolled.rows(rows),
        support.landing[rows],
        support.flat[rows],
        support.flat_ankles[rows],
        pace,
    )


def predicted_spot(
    w: World,
    s: WalkState,
    n: IntArray,
    f: IntArray,
    hip_land: FloatArray,
    v_land: FloatArray,
    support: Support,
) -> FloatArray:
    """The ankle x (M,) each lifting foot aims for: half a stride ahead of its own hip at
    touchdown (the stride at the step's pace), the feet spread fore and aft standing;
    about to pivot, the ball right under the pelvis where it stops."""
    gait = w.rig.gait
    stance = support.pace.stance_time[n]  # at the step's pace
    still = 1.0 - clamp(np.abs(v_land) / (0.5 * gait.walk_speed), 0.0, 1.0)
    # the spot on the side of the hip the other foot is not on (a stop's last step comes
    # up beside the front foot, a start's first step goes past the one left standing)
    other = foot_x(s)[n, 1 - f]
    side = np.where(other > hip_land, -1.0, np.where(other < hip_land, 1.0, FOOT_SIDE[f]))
    spread = FOOT_SIDE[f] * w.rig.body.hip_depth + side * gait.stance_spread * still
    predicted = hip_land + half_stride(v_land, stance, gait) + spread
    pivot_spot = hip_land - s.facing[n] * w.rig.legs.ball
    return np.where(s.reversing[n], pivot_spot, predicted)


def begin_swing(
    w: World,
    s: WalkState,
    n: IntArray,
    f: IntArray,
    lift_off: tuple[FloatArray, FloatArray, FloatArray],
    from_lock: FloatArray,
    landing: Landing,
    duration: FloatArray,
    squaring: BoolArray,
) -> None:
    """Start the swings of feet ``n, f`` from their ``lift_off`` pose (ankle, sole angle,
    toe bend) toward ``landing`` (``squaring``: steps squaring up), touching down with a heel strike (flat for a squaring
    step, toe-first where the heel would hang over a drop). Writes their ``s.feet`` rows."""
    rig, gait, legs, tune = w.rig, w.rig.gait, w.rig.legs, w.rig.tuning
    feet, facing, reversing = s.feet, s.facing[n], s.reversing[n]
    lock, ground = landing.lock, landing.ground
    start_ground = w.terrain.height_at(from_lock[:, 0])
    land_ground_y = w.terrain.height_at(lock[:, 0])
    pitch = landing_pitch(start_ground, land_ground_y, lock[:, 0] - from_lock[:, 0], rig)
    # a squaring step lands flat: the pivot waits for flat feet, not for a roll to settle
    pitch = np.where(reversing, 0.0, pitch)
    # no heel strike where the heel overhangs a drop: the roll would turn about thin air
    heel = sole_points(lock, ground, np.zeros_like(ground), facing, legs)[:, 0]
    heel_down = w.terrain.height_at(heel[:, 0]) >= heel[:, 1] - tune.heel_support
    pitch = np.where(heel_down, pitch, np.minimum(pitch, 0.0))
    land, land_angle, land_bend = stance_pose(lock, ground, pitch, facing, legs)
    feet.start[n, f], feet.start_angle[n, f], feet.start_bend[n, f] = lift_off
    feet.land[n, f] = land
    feet.land_lock[n, f] = lock
    feet.land_angle[n, f] = land_angle
    feet.land_bend[n, f] = land_bend
    feet.land_ground[n, f] = ground
    feet.land_pitch[n, f] = pitch
    length = np.abs(lock[:, 0] - from_lock[:, 0])
    # a short squaring step on the level is quicker still (down to 0.75 of the time)
    level = np.abs(land_ground_y - start_ground) < MIN_RISER
    quick = tune.squaring_swing * clamp(length / tune.squaring_step, 0.75, 1.0)
    duration = np.where(squaring & reversing & level, np.minimum(duration, quick), duration)
    feet.lift[n, f] = gait.lift_height * clamp(0.3 + length / gait.max_step_reach, 0.0, 1.0)
    feet.land_dx[n, f] = landing.hip_land + FOOT_SIDE[f] * rig.body.hip_depth - land[:, 0]
    feet.aim[n, f] = landing.predicted
    feet.pivot_aim[n, f] = reversing
    feet.ray_from[n, f] = landing.ray_from
    feet.ray_hit[n, f] = landing.ray_hit
    feet.u[n, f] = 0.0
    feet.floor[n, f] = -np.inf
    feet.hold[n, f] = 0.0  # measured at the swing's first pose (swing_pose)
    feet.duration[n, f] = duration
    feet.planted[n, f] = False
    feet.due[n, f] = False
    feet.relaunches[n, f] = 0
