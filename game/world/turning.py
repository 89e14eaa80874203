"""Turning round: when a reversal may pivot, the pivot's progress and the facing's flip, where
the feet stand for it (standing and pivot spots), and the pelvis's shift over the feet.
"""

from __future__ import annotations

import numpy as np

from game.world.easing import all_last, any_last, any_true, braking_travel, clamp, min_last
from game.world.feet import (
    FOOT_SIDE,
    MIN_RISER,
    foot_axes,
    rest_on_ground,
    sole_penetration,
    sole_points,
)
from game.world.modes import MOTION_BRAKE, next_motion
from game.world.pivots import pivot_spots
from game.world.rest import rest_goal, standing
from game.world.timing import heel_off_nose, pivot_balls, standing_spots
from game.world.types import BoolArray, FloatArray
from game.world.walker_state import EVERY_ROW, Rows, WalkState, World, rows_of


def advance_turn(w: World, s: WalkState, dt: float) -> None:
    """Start a pivot where the brake has run (``motion`` BRAKE), the body has stopped and
    both feet are down flat near their standing spots (BRAKE → PIVOT); advance pivots;
    flip the facing halfway; at the end re-lock the feet facing the new way about the
    balls they pivoted on (PIVOT → GO or STAND). Writes ``s.motion``, ``s.turn``,
    ``s.turn_from``, ``s.facing``, ``s.settling``; the ended pivots' feet
    (:func:`end_pivot`)."""
    feet, legs = s.feet, w.rig.legs
    # a wish held at least pivot_wish: with the feet already squared from an earlier
    # turn, a one-frame blip of the other key must not start a pivot (which, once
    # started, goes on)
    ready = (s.motion == MOTION_BRAKE) & (s.reversing_s >= w.rig.tuning.pivot_wish)
    if any_true(ready):  # (only then is there anything to check)
        ready &= ready_to_pivot(w, s)
    s.turn_from = np.where(ready, s.facing, s.turn_from)
    s.motion = next_motion(s.motion, s.wanted, s.reversing, pivot_ready=ready)
    active = s.turning  # (pivots under way and those starting now)
    s.turn = np.where(active, s.turn + dt / w.rig.gait.turn_time, 0.0)
    if any_true(active):  # (the feet are read only then)
        # a foot still landing holds the pivot short of the halfway flip (it lands long before)
        held = active & any_last(feet.swinging)
        s.turn = np.where(held, np.minimum(s.turn, w.rig.tuning.turn_while_landing), s.turn)
    done = active & (s.turn >= 1.0)
    s.facing = np.where(active & (s.turn**2 >= 0.5), -s.turn_from, s.facing)
    if any_true(done):
        end_pivot(w, s, done)
    # ... and then rise onto it where the sole is in the ground: turned round at a slope's
    # foot, the heel can swing onto the rise and stand inside it (a pivot spot lets the
    # ball hover 5 mm); slowly, as a planted foot's contact may move (0.5 mm a step)
    s.settling &= feet.planted & ~s.turning[:, None]
    if any_true(s.settling):
        x, y = feet.lock[..., 0], feet.lock[..., 1]
        rest = rest_on_ground(w.terrain, x, feet.angle, s.facing[:, None], legs)
        rise = np.where(s.settling, np.clip(rest - y, 0.0, w.rig.tuning.settle_speed * dt), 0.0)
        feet.lock[..., 1] = y + rise
        s.settling &= rest - feet.lock[..., 1] > 1e-6


_PIVOT_LOOKS = 8  # poses of the rest of a pivot the pelvis's ceiling is read at
_PIVOT_DESCENT = 0.8  # of max_pelvis_speed: the pace a pivot's pelvis is asked to come down
_PIVOT_SOLE_DEPTH = 0.001  # m a pivoting sole may dip into ground that moved under it


def pivot_path(w: World, s: WalkState) -> tuple[FloatArray, FloatArray, FloatArray]:
    """The rest of each pivot in ``_PIVOT_LOOKS`` poses, now to its end: the seconds until
    each and its spin (N, K), and the flat ankles turned about their balls then (N, K, 2, 2)
    (:func:`game.world.timing.pivot_ankles` at each)."""
    legs = w.rig.legs
    t = s.turn[:, None] + (1.0 - s.turn[:, None]) * np.linspace(0.0, 1.0, _PIVOT_LOOKS)
    wait = (t - s.turn[:, None]) * w.rig.gait.turn_time
    spin = s.turn_from[:, None] * np.cos(np.pi * t**2)  # as WalkState.spin
    along, normal = foot_axes(s.feet.angle[:, None], spin[..., None])
    ankles = pivot_balls(w, s)[:, None] - legs.ball * along + legs.ankle_height * normal
    return wait, spin, ankles


def pivot_ceiling(w: World, s: WalkState, x: FloatArray, extension: float) -> FloatArray:
    """The highest (N,) each pivoting pelvis at ``x`` may stand now for both legs to reach
    their flat feet within ``extension`` through the rest of the pivot, coming down at
    ``_PIVOT_DESCENT`` of its top speed: the least, over the pivot's remaining poses, of
    the highest hip over both feet then plus the descent until then (+inf not pivoting).

    A foot turning about its ball on a slope carries its ankle from uphill of the ball to
    downhill of it (facing up the slope at the end), ``2·ball·sin(slope)`` lower: on a 24°
    ramp 10 cm in the pivot's last quarter, faster than the pelvis may fall, so a pelvis
    following only the feet as they are would leave the legs short and slide the planted
    balls."""
    gait = w.rig.gait
    reach = extension * w.rig.legs.limb.reach
    wait, spin, ankles = pivot_path(w, s)
    hip_x = x[:, None, None] + FOOT_SIDE * w.rig.body.hip_depth * np.abs(spin)[..., None]
    dx = hip_x - ankles[..., 0]
    # Pythagoras: a hip dx from the ankle is at most √(R² − dx²) above it
    high = ankles[..., 1] + np.sqrt(np.maximum(reach * reach - dx * dx, 0.0))
    # a critically damped spring follows a goal falling at v that far behind: v·halflife/ln 2
    lag = w.rig.tuning.pivot_halflife / np.log(2.0)
    descent = _PIVOT_DESCENT * gait.max_pelvis_speed * np.maximum(wait - lag, 0.0)
    ceiling = min_last(min_last(high) + descent)
    return np.where(s.turning, ceiling, np.inf)


def pivot_clear(w: World, s: WalkState) -> BoolArray:
    """Pivoting characters (N,) whose soles stay out of the ground through the rest of
    the pivot (within ``_PIVOT_SOLE_DEPTH``), turning about the balls as they are."""
    _, spin, ankles = pivot_path(w, s)
    angle = np.broadcast_to(s.feet.angle[:, None], ankles.shape[:-1])
    soles = sole_points(ankles, angle, np.zeros_like(angle), spin[..., None], w.rig.legs)
    depth = sole_penetration(w.terrain, soles).max(axis=(1, 2))
    return s.turning & (depth <= _PIVOT_SOLE_DEPTH)


def end_pivot(w: World, s: WalkState, done: BoolArray) -> None:
    """End the pivots of ``done`` (N,): the feet re-locked facing the new way about the
    balls they pivoted on, flat, rising onto the ground where it is above them
    (``s.settling``). Writes ``feet.lock, pitch, aim``, ``s.turn`` and ``s.motion``
    (:func:`leave_pivot`)."""
    feet, legs = s.feet, w.rig.legs
    rows = np.flatnonzero(done)  # (computed on their rows alone: a few of a crowd)
    ball = pivot_balls(w, s, rows)
    along, normal = foot_axes(feet.angle[rows], -s.turn_from[rows, None])
    # rigid rear foot: the ankle sits (−ball, ankle_height) from the ball contact
    feet.lock = feet.lock.copy()
    feet.lock[rows] = ball - legs.ball * along + legs.ankle_height * normal
    s.settling |= done[:, None] & feet.planted
    feet.pitch = np.where(done[:, None], 0.0, feet.pitch)
    # the aims were the pivot's: standing on, the feet count where they are (counted
    # at the pivot spots, the pelvis would stand past the balls, legs slanted back)
    feet.aim = np.where(done[:, None], np.nan, feet.aim)
    leave_pivot(s, done)


def leave_pivot(s: WalkState, ended: BoolArray) -> None:
    """The pivots of ``ended`` (N,) are over: ``turn`` back to 0 and ``motion`` out of
    PIVOT (:func:`~game.world.modes.next_motion`: to what the walk wanted, or BRAKE where
    the brake still runs in the pivot's first step). Writes ``s.turn``, ``s.motion``."""
    s.turn = np.where(ended, 0.0, s.turn)
    s.motion = next_motion(s.motion, s.wanted, s.reversing, pivot_ended=ended)


def interrupt_pivot(w: World, s: WalkState, stop: BoolArray) -> None:
    """Pivots of ``stop`` (N,) end from where the feet are (a foot must step: the ground
    moved under it): past the halfway flip, completed (:func:`end_pivot`); before it,
    undone, facing the old way again (a reversal still wanted squares up and pivots
    anew). Writes ``s.turn``, ``s.motion``, ``s.facing`` and, completing, the feet's
    locks."""
    if not any_true(stop):
        return
    past = stop & (s.turn**2 >= 0.5)
    end_pivot(w, s, past)
    back = stop & ~past
    s.facing = np.where(back, s.turn_from, s.facing)
    leave_pivot(s, back)


def ready_to_pivot(w: World, s: WalkState) -> BoolArray:
    """Characters that may start a pivot (N,): stopped, both feet flat on their pivot
    spots, or one there and the other's squaring swing landing on its spot within
    ``pivot_overlap`` (it turns about its ball as it comes down, so the body need not
    stand still facing the old way while it lands), no foot pinned."""
    feet = s.feet
    left = (1.0 - feet.u) * feet.duration  # seconds a swing has to go
    landing = feet.swinging & feet.pivot_aim & (left <= w.rig.tuning.pivot_overlap)
    flat = feet.planted & (np.abs(feet.pitch) < w.rig.tuning.flat_pitch)
    stopped = np.abs(s.vx) < w.rig.tuning.pivot_speed
    ready = all_last(flat | landing) & any_last(flat) & stopped
    ready &= ~any_last(feet.pinned)
    return ready & all_last(on_spots(w, s, ready))


def on_spots(w: World, s: WalkState, among: BoolArray) -> BoolArray:
    """Feet at their standing or pivot spots (:meth:`_standing_spots`), shape (N, 2),
    or whose last step was aimed there; at rest, the spots where the pelvis will stand
    (:func:`~game.world.rest.rest_goal`). A foot near its pivot spot counts only where it
    can turn (:func:`pivot_spots`: turned round about its ball, its heel would go into a
    riser where its toes did not), checked for the characters ``among`` (N,) only: the
    caller reads no other row."""
    feet, gait = s.feet, w.rig.gait
    reversing = s.reversing
    # braking to turn round, the spots are where the hip will stop, not where it is now:
    # a foot beside a hip still moving would be left behind it for the pivot
    stop = braking_travel(s.vx, np.inf, gait.accel_halflife, w.rig.tuning.reversal_brake)
    x = s.x + np.where(reversing, stop, 0.0)
    # ... and standing, where the pelvis will stand over its feet (rest_goal; a body still
    # coming to a stop gets there too)
    resting = np.flatnonzero(among & standing(s))
    if len(resting):
        x[resting] = rest_goal(w, rows_of(s, resting), s.x[resting])
    ideal_x = standing_spots(w, s, x, reversing)
    tolerance = np.where(reversing, w.rig.tuning.pivot_tolerance, gait.idle_tolerance)
    there = np.abs(ideal_x - feet.lock[..., 0]) <= tolerance[:, None]
    aimed_there = np.abs(ideal_x - feet.aim) <= tolerance[:, None]
    rows = np.flatnonzero(reversing & among)
    if len(rows):  # (only they need the pivot check)
        # ... and one aimed at its pivot spot counts only if that aim was for a pivot
        turnable, _ = pivot_spots(
            w.terrain,
            feet.lock[rows, :, 0],
            s.facing[rows, None],
            w.rig.legs,
            w.kept_off,
        )
        there[rows] &= turnable
        aimed_there[rows] &= feet.pivot_aim[rows]
    # standing, a foot whose heel hangs off a stair nose (turned round about a ball on
    # the nose) is not there: it steps onto the tread rather than stand over the drop
    hanging = ~reversing[:, None] & heel_off_nose(w, s)
    return (there | aimed_there) & ~hanging


def settled(
    w: World,
    s: WalkState,
    v_target: FloatArray,
    spots: BoolArray | None = None,
    spot_behind: BoolArray | None = None,
) -> BoolArray:
    """Characters standing still with both feet down near their standing spots (N,):
    about to pivot, the spots are the balls of both feet right under the pelvis (so at
    mid-pivot both legs are straight under it and the knees pass the middle cleanly).
    A foot whose last step was aimed at its spot counts as there even where the ground
    moved its landing (a spot on a stair nose): stepping again would land it the same;
    so does one that may not step back to its spot (:func:`above_spot_behind`), except
    braking to turn round. ``spots`` and ``spot_behind`` (N, 2): :func:`on_spots` (read
    for at least the characters standing still) and :func:`above_spot_behind`, where the
    caller has them already."""
    feet = s.feet
    still = (
        all_last(feet.planted)
        & (np.abs(s.vx) < np.where(s.reversing, w.rig.tuning.pivot_speed, w.rig.tuning.still_speed))
        & (np.abs(v_target) < w.rig.tuning.still_speed)
    )
    if not any_true(still):  # walking or running: no spots to check
        return still
    # a foot whose spot is down a stair behind it may not step there (it stands where it
    # is) and counts as settled, or the other foot would keep stepping to its own spot
    # (braking to turn round, the pivot needs both feet on their spots: one kept off its
    # spot so, on a steep slope, left him braking on the spot for good)
    if spots is None:
        spots = on_spots(w, s, still)
    if spot_behind is None:
        spot_behind = above_spot_behind(w, s)
    kept = spot_behind & ~s.reversing[:, None]
    return still & all_last(spots | kept)


def above_spot_behind(w: World, s: WalkState) -> BoolArray:
    """Planted feet (N, 2) whose standing spot (:meth:`_standing_spots`) is behind them
    with its heel more than ``MIN_RISER`` lower: a step there would go back down a
    stair (a spot on a nose lands on the tread below)."""
    lock_x, facing = s.feet.lock[..., 0], s.facing[:, None]
    spot = standing_spots(w, s, s.x, np.zeros(s.count, dtype=bool))
    behind = (spot - lock_x) * facing < 0.0
    heel = w.terrain.height_at(spot - facing * w.rig.legs.heel)
    down = heel < w.terrain.height_at(lock_x) - MIN_RISER
    return s.feet.planted & behind & down & ~heel_off_nose(w, s)


def shift_over_balls(w: World, s: WalkState, rows: Rows = EVERY_ROW) -> FloatArray:
    """The x velocity (N,), or of the characters ``rows`` (M,) alone, that brings the
    pelvis to within ``pivot_tolerance`` of over the balls (a swinging foot's where it
    lands) by the end of the pivot under way: an obstacle may keep the pivot spots off the
    spot under it (stopped over a cup on the floor), and the pelvis must not hang low
    between feet it has left behind."""
    off = pivot_balls(w, s, rows)[..., 0].mean(axis=1) - s.x[rows]
    beyond = np.sign(off) * np.maximum(np.abs(off) - w.rig.tuning.pivot_tolerance, 0.0)
    left = np.maximum(1.0 - s.turn[rows], 0.1) * w.rig.gait.turn_time  # seconds to go
    return beyond / left


def shift_over_feet(w: World, s: WalkState, v_target: FloatArray) -> FloatArray:
    """Standing on both feet over an obstacle (:meth:`set_obstacles`) with a step that was
    aimed at its standing spot landed off it (more than ``idle_tolerance``), the x velocity
    (N,) that brings the pelvis over the ankles' middle in ``shift_time`` (0 elsewhere):
    stopped over a cup on the floor both feet land past it, and a body standing is over
    its feet."""
    feet, tolerance = s.feet, w.rig.gait.idle_tolerance
    if not len(w.obstacles):
        return np.zeros(s.count)
    x0, x1 = w.obstacles[:, 0] - tolerance, w.obstacles[:, 1] + tolerance
    over = any_last((s.x[:, None] >= x0) & (s.x[:, None] <= x1))
    lock_x = feet.lock[..., 0]
    spots = standing_spots(w, s, s.x, np.zeros(s.count, dtype=bool))
    kept_off = (np.abs(spots - feet.aim) <= tolerance) & (np.abs(spots - lock_x) > tolerance)
    shifting = over & all_last(feet.planted) & any_last(kept_off) & (v_target == 0.0)
    # (slower than a pivot's start: turning round from it waits for no brake)
    shift = clamp(
        (lock_x.mean(axis=1) - s.x) / w.rig.tuning.shift_time,
        -w.rig.tuning.shift_speed,
        w.rig.tuning.shift_speed,
    )
    return np.where(shifting, shift, 0.0)
