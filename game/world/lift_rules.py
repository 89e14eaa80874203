"""Which planted foot lifts this step: a context read once (for the characters with a foot
that may lift at all), then an ordered list of named rules that each mark feet due to lift
(or strained: their leg cannot hold the hip), then the gates every lift must pass, and at
most one foot per character chosen.

The rules, in order (:data:`LIFT_RULES`; a later rule sees what the earlier ones marked):

1. :func:`phase_due`: the gait phase has passed the duty factor (after a least stance).
2. :func:`strained_leg`: a foot rolled to its limit, or whose leg cannot hold the hip where
   it goes this step, steps now (the phase follows it).
3. :func:`left_behind`: stopping, a foot left well behind the braking hip steps.
4. :func:`rear_foot_first`: walking on both feet, the foot behind lifts, not the one ahead;
   once the hip has passed both, the one behind lifts now.
5. :func:`squaring_up`: braking to turn round, a foot off its pivot spot steps whatever
   the phase; one on its spot stays.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from game.world.easing import all_last, any_last, wrap01
from game.world.gait import PHASE_OFFSET, Pace, run_fraction
from game.world.support import Support, hip_x_range
from game.world.timing import foot_phase, hips_x, timed
from game.world.turning import above_spot_behind, on_spots, settled
from game.world.types import BoolArray, FloatArray
from game.world.walker_state import WalkState, World, some_rows


@dataclass(frozen=True, slots=True)
class LiftContext:
    """What the lift rules read, computed once a step for the M characters with a foot
    that may lift at all (arrays (M, 2) per foot, (M,) per character).

    Attributes
    ----------
    rows : ndarray of int, shape (M,)
        Those characters' rows of the crowd (sorted).
    state : WalkState
        Their state (:func:`some_rows`).
    hip_x : ndarray, shape (M, 2)
        Each leg's hip where the pelvis goes this step.
    other_down : ndarray of bool, shape (M, 2)
        The other foot bears weight (planted, or pinned on the ground).
    other_ok : ndarray of bool, shape (M, 2)
        The other foot lets this one lift: down, or running (a flight) and not hovering.
    stopping : ndarray of bool, shape (M, 2)
        No intent to move and this foot left behind the braking hip.
    into_run : ndarray of bool, shape (M, 2)
        Speeding up into a run while the other foot is in the air.
    settled_age : ndarray of bool, shape (M, 2)
        The foot has been down its least stance time.
    trails : ndarray of bool, shape (M, 2)
        Walking on both feet, the other foot is ahead of this one; squaring up on both,
        this one is behind the other along the facing.
    walking, standing : ndarray of bool, shape (M,)
        Walking (not running, not braking to turn); no intent to move.
    forward : ndarray, shape (M, 1)
        The walk's direction.
    """

    rows: NDArray[np.intp]
    state: WalkState
    hip_x: FloatArray
    other_down: BoolArray
    other_ok: BoolArray
    stopping: BoolArray
    into_run: BoolArray
    settled_age: BoolArray
    trails: BoolArray
    walking: BoolArray
    standing: BoolArray
    forward: FloatArray


def latch_due(w: World, s: WalkState, duty: FloatArray) -> None:
    """A planted foot whose phase enters the first half of its swing window is due to lift,
    and stays due until it does (the other foot may still be in the air); ``duty`` (N, 1).
    Writes ``feet.due``."""
    phase = foot_phase(w, s)
    entering = (phase >= duty) & (phase < 0.5 * (1.0 + duty))
    s.feet.due |= s.feet.planted & ~s.feet.pinned & entering


def read_context(
    w: World, s: WalkState, x_new: FloatArray, v_target: FloatArray, pace: Pace
) -> LiftContext | None:
    """The lift rules' shared reads for pelvises going to ``x_new`` aiming at ``v_target``,
    for the characters with a foot that may lift at all: planted, not held, not pivoting,
    the other foot letting it or speeding up into a run (:func:`may_lift` asks it again).
    None where there are none (most steps: walking on one foot, a run's flight)."""
    gait, tune, feet, reversing = w.rig.gait, w.rig.tuning, s.feet, s.reversing
    # a foot pinned on the ground bears weight; one dragged up in the air does not
    bearing = feet.planted.copy()
    if feet.pinned.any():  # (a foot dragged by the mouse: the hero only)
        pins = s.intent.pin_target
        ground = w.terrain.height_at(pins[..., 0]) + w.rig.legs.ankle_height
        bearing |= feet.pinned & (pins[..., 1] <= ground + tune.pin_ground)
    other_down = bearing[:, ::-1]
    running = run_fraction(timed(w, s, s.vx), gait)[:, None] > 0.5
    # stopping from a run, a foot left behind the braking hip leaves the ground as in the
    # run (a flight) instead of holding the pelvis down to reach it
    hip_x = hips_x(w, s, x_new)
    behind = (hip_x - feet.lock[..., 0]) * np.sign(s.vx)[:, None] > tune.left_behind
    standing = np.abs(v_target) < tune.still_speed
    stopping = standing[:, None] & behind & ~reversing[:, None]
    if stopping.any():  # (stopping with a foot left behind: a few steps)
        running = running | (stopping & (run_fraction(s.vx, gait)[:, None] > 0.0))
    other_flies = feet.u[:, ::-1] < 1.0  # the other foot in the air, not hovering
    other_ok = other_down | (running & other_flies)
    into_run = (s.sprinting & ~reversing)[:, None] & other_flies
    free = feet.planted & ~feet.pinned & ~s.turning[:, None] & (other_ok | into_run)
    rows = np.flatnonzero(any_last(free))
    if not len(rows):
        return None
    # the rest is read for these characters only
    few, n = some_rows(s, rows, s.count), s.count
    hip_x, other_down, other_ok, stopping, into_run, running, standing = (
        some_rows(a, rows, n)
        for a in (hip_x, other_down, other_ok, stopping, into_run, running, standing)
    )
    feet, reversing = few.feet, few.reversing
    walking = ~standing & ~running[:, 0] & ~reversing
    forward = np.sign(v_target[rows])[:, None]
    ahead = (feet.lock[..., 0] - feet.lock[:, ::-1, 0]) * forward > tune.ahead
    both_down = (walking & all_last(feet.planted))[:, None]
    # squaring up to turn round, the foot behind along the facing comes up to the other
    # first (the front one stepping back would cross behind it)
    behind = (feet.lock[..., 0] - feet.lock[:, ::-1, 0]) * few.facing[:, None] < -tune.ahead
    squaring = (reversing & all_last(feet.planted))[:, None]
    return LiftContext(
        rows=rows,
        state=few,
        hip_x=hip_x,
        other_down=other_down,
        other_ok=other_ok,
        stopping=stopping,
        into_run=into_run,
        settled_age=feet.stance_age >= tune.min_stance * pace.stance_time[rows, None],
        trails=both_down & ahead[:, ::-1] | squaring & behind,
        walking=walking,
        standing=standing,
        forward=forward,
    )


Marks = tuple[BoolArray, BoolArray]
"""``(due, strained)``, each (N, 2): feet due to lift, and feet whose leg cannot hold on."""
LiftRule = Callable[[World, WalkState, LiftContext, Support, Marks], Marks]


def phase_due(w: World, s: WalkState, ctx: LiftContext, support: Support, marks: Marks) -> Marks:
    """A foot whose phase has passed the duty factor (latched in ``feet.due``) is due, once
    it has been down its least stance time."""
    _, strained = marks
    return s.feet.due & ctx.settled_age, strained


def strained_leg(w: World, s: WalkState, ctx: LiftContext, support: Support, marks: Marks) -> Marks:
    """A foot rolled to its limit whose leg still cannot reach steps now (the walk goes
    where the phase did not foresee: a slope, a stop, a shove), and so does one whose leg,
    however rolled, cannot hold the hip where it goes this step; while the other foot is
    down, or speeding up into a run (a flight)."""
    due, strained = marks
    feet = s.feet
    strained = strained | (
        feet.planted & (feet.pitch <= -w.rig.tuning.strained * w.rig.legs.max_heel_lift)
    )
    lo, hi = hip_x_range(w, s, support, s.y[:, None], w.rig.gait.lock_extension)
    strained |= feet.planted & ((ctx.hip_x < lo) | (ctx.hip_x > hi))
    return due | (strained & (ctx.other_down | ctx.into_run)), strained


def left_behind(w: World, s: WalkState, ctx: LiftContext, support: Support, marks: Marks) -> Marks:
    """Stopping, a foot left behind the braking hip steps (after its least stance)."""
    due, strained = marks
    return due | (ctx.stopping & ctx.settled_age), strained


def rear_foot_first(
    w: World, s: WalkState, ctx: LiftContext, support: Support, marks: Marks
) -> Marks:
    """Walking on both feet, the foot behind lifts, not one ahead of it (a swing re-aimed
    to stop may land beside the other foot while the phase still names the front one);
    once the hip has passed both feet, the one behind steps now."""
    due, strained = marks
    feet, ahead_m = s.feet, w.rig.tuning.ahead
    # due, walking on both feet ahead of the other, which is not due: the other lifts
    swap = due & ctx.trails[:, ::-1] & ~due[:, ::-1]
    both_down = (ctx.walking & all_last(feet.planted))[:, None]
    passed = both_down & ((ctx.hip_x - feet.lock[..., 0]) * ctx.forward > ahead_m).all(
        axis=1, keepdims=True
    )
    rear = np.argmin(feet.lock[..., 0] * ctx.forward, axis=1)[:, None] == np.arange(2)
    late = passed & rear & ~due
    due = (due & ~swap) | swap[:, ::-1] | late
    return due, strained | swap[:, ::-1] | late  # (the phase follows the foot that lifts)


def squaring_up(w: World, s: WalkState, ctx: LiftContext, support: Support, marks: Marks) -> Marks:
    """Braking to turn round, a foot off its pivot spot steps as soon as the other lets it
    (running, also while the other is in the air), whatever the phase; one on its spot
    stays (stepping again would land it there)."""
    due, strained = marks
    rows = np.flatnonzero(s.reversing)
    if not len(rows):
        return due, strained
    # (on the braking characters' rows only: the spots are read for them alone)
    may = (ctx.other_ok & ctx.settled_age)[rows]
    ready = ~on_spots(w, some_rows(s, rows, s.count), any_last(may)) & may
    due = due.copy()
    due[rows] = ready
    return due, strained


LIFT_RULES: tuple[LiftRule, ...] = (
    phase_due,
    strained_leg,
    left_behind,
    rear_foot_first,
    squaring_up,
)
"""The lift rules in the order they apply."""


def may_lift(
    w: World, s: WalkState, ctx: LiftContext, v_target: FloatArray, marks: Marks
) -> BoolArray:
    """The feet (N, 2) that may lift now among those marked: planted (before this step),
    not held, not pivoting, with the other foot letting them (or a strained one speeding
    into a run); standing, not beside a foot held by the mouse, not a riser above its
    standing spot behind, not a front foot on its spot, and not once both feet have
    settled on their spots."""
    due, strained = marks
    feet = s.feet
    can = feet.planted & ~feet.pinned & due & (ctx.other_ok | strained & ctx.into_run)
    can &= feet.stance_age > 0.0  # a foot that lands stays down at least the step it lands
    can &= ~s.turning[:, None]
    can &= ~(feet.pinned[:, ::-1] & ctx.standing[:, None])
    # the spots below matter only standing (settled asks for no wish to move, as standing
    # does): they are read for the standing characters with a foot that may lift only
    rows = np.flatnonzero(any_last(can) & ctx.standing)
    if not len(rows):  # (most steps)
        return can
    few = some_rows(s, rows, s.count)
    spots, spot_behind = on_spots(w, few, np.ones(len(rows), dtype=bool)), above_spot_behind(w, few)
    behind = (ctx.standing & ~s.reversing)[rows, None] & spot_behind
    # (a front foot on its spot stays: the body comes to it; the rear one follows)
    lock_x = few.feet.lock[..., 0]
    way = np.where(few.vx != 0.0, np.sign(few.vx), few.facing)[:, None]
    front = (lock_x - lock_x[:, ::-1]) * way > 0.0
    stays = front & spots & ~few.reversing[:, None]
    calm = settled(w, few, v_target[rows], spots, spot_behind)
    can[rows] &= ~behind & ~stays & ~calm[:, None]
    return can


def settled_among(w: World, s: WalkState, v_target: FloatArray, standing: BoolArray) -> BoolArray:
    """:func:`settled` (N,), its spots read only for the characters that may be (both feet
    down, ``standing``: not wanting to move, ``|v_target| < still_speed``): in a crowd, a
    few."""
    rows = np.flatnonzero(all_last(s.feet.planted) & standing)
    calm = np.zeros(s.count, dtype=bool)
    if len(rows):
        calm[rows] = settled(w, some_rows(s, rows, s.count), v_target[rows])
    return calm


def choose_lifts(
    w: World, s: WalkState, ctx: LiftContext, can: BoolArray, strained: BoolArray
) -> BoolArray:
    """At most one foot per character (N, 2): one whose leg cannot hold the hip, then
    walking the one behind, then the one further into its swing phase."""
    first = np.argmax(np.where(can, foot_phase(w, s) + strained + ctx.trails, -1.0), axis=1)
    lift = np.zeros_like(can)
    lift[np.arange(s.count), first] = True
    return lift & can


def resync_phase(s: WalkState, lift: BoolArray, strained: BoolArray, duty: FloatArray) -> None:
    """A strained foot that lifts puts the phase at its own lift (writes ``s.phase``)."""
    resync = any_last(lift & strained)
    leg = np.argmax(lift, axis=1)
    s.phase = np.where(resync, wrap01(duty - PHASE_OFFSET[leg]), s.phase)
