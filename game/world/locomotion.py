"""The intent read against the state, and the body's velocity: the first stages of a step.

:func:`read_wish` turns the step's input into what each character wants this step (which
way to face, whether a reversal starts, whether the walk stops or resumes);
:func:`begin_reversal` moves the turn machine's ``motion`` by the wish
(:func:`game.world.modes.next_motion`); :func:`advance_velocity` chases the goal speed
(slowed by :func:`game.world.speed.unblocked`, which decides the ``pacing``), brakes a
reversal at a constant deceleration, shifts a pivot over its balls and eases a crouch
while standing.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from game.world.easing import any_true, clamp, finite_clamp, halflife_blend
from game.world.modes import MOTION_BRAKE, next_motion
from game.world.speed import unblocked
from game.world.timing import speed_halflife
from game.world.turning import shift_over_balls, shift_over_feet
from game.world.types import BoolArray, FloatArray
from game.world.walker_state import WalkState, World

RUN_HELD = 0.5
"""The run input (0 … 1) above this counts as held: the pace a run asks for (the speed
blends with the input itself)."""


@dataclass(frozen=True, slots=True)
class Wish:
    """One step's input read against each character's state (all shape (N,)).

    Attributes
    ----------
    move, run : ndarray
        The walk intent in [−1, 1] (0 while rising from a crouch) and the run blend in [0, 1].
    walks : ndarray of bool
        ``move`` is past the deadband: a walk is wanted.
    facing : ndarray
        The facing wanted: the walk's, else (standing) the one asked for by ``turn_to``; 0:
        none.
    reversing : ndarray of bool
        Wants to face the other way (pivoting or not).
    braking, stopping, resuming : ndarray of bool
        A reversal starts this step; the walk's intent ends this step; it comes back (or a
        reversal is dropped) this step.
    """

    move: FloatArray
    run: FloatArray
    walks: BoolArray
    facing: FloatArray
    reversing: BoolArray
    braking: BoolArray
    stopping: BoolArray
    resuming: BoolArray


def read_wish(w: World, s: WalkState, move: ArrayLike, run: ArrayLike) -> Wish:
    """What each character wants this step from ``move`` and ``run`` (N,); reads only."""
    tune = w.rig.tuning
    move_a = finite_clamp(move, -1.0, 1.0)
    run_a = finite_clamp(run, 0.0, 1.0)
    # a crouching body stands up before it walks or turns round
    rising = s.crouch > tune.rise_first
    move_a = np.where(rising, 0.0, move_a)
    walks = np.abs(move_a) > tune.move_deadband
    wanted = np.where(walks, np.sign(move_a), s.intent.face_goal)
    wanted = np.where(rising, 0.0, wanted)
    reversing = (wanted != 0.0) & (wanted != s.facing)
    # a swing in flight aimed for the walking pace re-aims when the walk's intent ends ...
    stopping = (s.wanted != 0.0) & ~walks
    # ... and when it comes back (or a reversal is dropped) it re-aims for the walk
    braked = s.motion == MOTION_BRAKE
    resuming = (s.wanted == 0.0) | braked
    return Wish(
        move=move_a,
        run=run_a,
        walks=walks,
        facing=wanted,
        reversing=reversing,
        braking=reversing & ~s.turning & ~braked,
        stopping=stopping,
        resuming=resuming & walks & ~reversing,
    )


def begin_reversal(w: World, s: WalkState, wish: Wish, dt: float) -> None:
    """Keep this step's walk direction, the turn machine's motion from the wish (a pivot
    under way goes on: :func:`~game.world.modes.next_motion`) and how long the brake has
    run. Writes ``s.wanted``, ``s.motion``, ``s.reversing_s``."""
    s.wanted = np.where(wish.walks, np.sign(wish.move), 0.0)
    s.motion = next_motion(s.motion, s.wanted, wish.reversing)
    s.reversing_s = np.where(s.motion == MOTION_BRAKE, s.reversing_s + dt, 0.0)


def advance_velocity(w: World, s: WalkState, wish: Wish, dt: float) -> FloatArray:
    """The body's velocity this step; returns the speed aimed for (N,) after the ground's
    caps. Writes ``s.vx``, ``s.v_goal``, ``s.blocked``, ``s.crouch`` and, through
    :func:`~game.world.speed.unblocked`, ``s.pacing`` (the run input held while a walk
    is wanted, as the ground allows it: :func:`~game.world.modes.next_pacing`)."""
    gait, tune, turning = w.rig.gait, w.rig.tuning, s.turning
    top_speed = gait.walk_speed + (gait.run_speed - gait.walk_speed) * wish.run
    # a reversal first slows down facing the old way, then pivots, then sets off
    v_goal = np.where(wish.reversing | turning, 0.0, wish.move * top_speed)
    run_held = (wish.run > RUN_HELD) & wish.walks
    s.v_goal = v_goal
    v_target = unblocked(w, s, v_goal, run_held)
    s.blocked = (v_goal != 0.0) & (v_target == 0.0)
    v_old = s.vx
    s.vx = v_old + (v_target - v_old) * halflife_blend(dt, speed_halflife(w, s, v_target))
    # braking to turn round: the halflife's approach to 0 would crawl for half a second
    # (and the heel lifts it schedules with it), so it ends at a constant deceleration
    reversing = s.reversing
    if any_true(reversing):  # (the brake is worked out only then)
        braked = np.sign(v_old) * np.maximum(np.abs(v_old) - tune.reversal_brake * dt, 0.0)
        nearer = np.abs(braked) < np.abs(s.vx)
        s.vx = np.where(reversing & nearer, braked, s.vx)
    # ... pivoting, it shifts over the balls it turns on
    if any_true(turning):  # (the balls are read only then, on the pivots' rows)
        rows = np.flatnonzero(turning)
        s.vx[rows] = shift_over_balls(w, s, rows)
    # a crouch is held only standing: walking or turning round, the body rises
    still = (wish.facing == 0.0) & ~wish.reversing & ~turning
    still &= np.abs(s.vx) < tune.still_speed
    # ... and standing on feet kept off their spots (by a cup on the floor), over them
    if any_true(still):  # (the feet are read only then)
        s.vx = np.where(still, s.vx + shift_over_feet(w, s, v_target), s.vx)
    change = np.where(still, s.intent.crouch_goal, 0.0) - s.crouch
    s.crouch += clamp(change, -dt / tune.crouch_time, dt / tune.crouch_time)
    return v_target
