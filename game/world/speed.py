"""How fast each character may go: the goal speed slowed on steep ground, paced a tread a step
on a flight, eased toward a flight ahead, and stopped before ground a step cannot take.

This stage also names two running modes as it decides: ``jogging`` (the run input on a
slope too steep to run up) and ``stair_run`` (the run input on a flight).
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import NDArray

from game.world.easing import all_true, any_last, any_true, clamp, max_last, xy
from game.world.feet import MAX_TREAD, MIN_RISER, RISER_WINDOW
from game.world.modes import next_pacing
from game.world.timing import flight_between, flight_pace, ground_grade, trailing_foot
from game.world.types import BoolArray, FloatArray
from game.world.walker_state import WalkState, World

# where the speed cap reads the slope: a stride behind (−1), then fractions of the stopping
# distance ahead
_SLOPE_PROBES = np.array([-1.0, 0.0, 0.5, 1.0])
_SLOPE_PROBE_BEHIND = _SLOPE_PROBES < 0.0  # (a stride's reach from the pelvis)
_EITHER_SIDE = np.array([-1.0, 1.0])  # behind and ahead, along the walk
# _next_riser's three candidate risers, nearest first, as offsets from its binary search's
# edge: walking +x and walking −x
_AFTER_EDGE = np.array([-1, 0, 1])
_BEFORE_EDGE = np.array([0, -1, -2])


def unblocked(w: World, s: WalkState, v_target: FloatArray, sprinting: BoolArray) -> FloatArray:
    """``v_target`` slowed on steep ground (the body climbs at most ``climb_speed``), on
    a flight to a tread a step (quicker steps ``sprinting``: ``stair_run``), eased toward
    a flight ahead, and stopped before a too-tall rise or drop, or the end of the world.
    Writes ``s.pacing`` (:func:`~game.world.modes.next_pacing`: ``sprinting``, held to a
    jog or running on a flight)."""
    direction = np.sign(v_target)
    # look as far ahead as it takes to slow down: a halflife deceleration covers v·h / ln 2
    stopping = np.abs(s.vx) * w.rig.gait.accel_halflife / math.log(2.0)
    slope_cap, rise, probe_x = slope_ahead(w, s, direction, stopping)
    risers = w.terrain.risers(MIN_RISER, RISER_WINDOW)
    treads = w.terrain.treads(MIN_RISER, RISER_WINDOW)
    jog = jogging(w, s, direction, stopping, slope_cap, sprinting)
    cap, quick = stair_cap(w, s, slope_cap, direction, sprinting)
    s.pacing = next_pacing(sprinting, jog, quick)
    cap = np.minimum(cap, approach(w, s, risers, treads, direction, sprinting, within=v_target))
    v_target = clamp(v_target, -cap, cap)
    return np.where(blocked_ahead(w, s, direction, rise, probe_x), 0.0, v_target)


def slope_ahead(
    w: World, s: WalkState, direction: FloatArray, stopping: FloatArray
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """The speed (N,) the ground's steepest mean slope allows (``climb_speed`` over it), the
    tallest rise (N,) within a step's reach ahead, and how far ahead that was read (the
    probe's x, N,). The slope is read over a stride from a stride behind (the trailing foot
    pushes off there) up to the stopping distance ahead, stairs counting as the ramp they
    make; a wall or a drop taller than a step is no ramp (the stop keeps the body off it).
    The stop reads up to a step's reach ahead (less up to a ``walk_to`` spot)."""
    gait = w.rig.gait
    span = gait.max_step_reach
    reach = np.where(_SLOPE_PROBE_BEHIND, span, stopping[:, None])
    centres = s.x[:, None] + direction[:, None] * reach * _SLOPE_PROBES
    back, front = centres - span, centres + span  # each probe's stretch
    heights = w.terrain.height_at(xy(back, front))
    slopes = np.abs(heights[..., 1] - heights[..., 0]) / (2.0 * span)
    ahead = span + stopping
    probe_x = s.x + direction * ahead
    goal = np.abs(s.intent.goal_x - s.x) + w.rig.tuning.goal_margin  # NaN without a goal
    probe_x = np.where(goal < ahead, s.x + direction * goal, probe_x)
    rises = w.terrain.steepest_rise(  # the slopes' and the stop's rises in one call
        np.concatenate([back, s.x[:, None]], axis=1),
        np.concatenate([front, probe_x[:, None]], axis=1),
        span,
    )
    walked, rise = rises[:, :-1], rises[:, -1]
    mean_slope = max_last(np.where(walked <= gait.max_step_height, slopes, 0.0))
    return gait.climb_speed / np.maximum(mean_slope, 1e-6), rise, probe_x


def jogging(
    w: World,
    s: WalkState,
    direction: FloatArray,
    stopping: FloatArray,
    slope_cap: FloatArray,
    sprinting: BoolArray,
) -> BoolArray:
    """Characters (N,) asked to run where a steep slope holds the body well below a run,
    off stairs (their pace is a tread a step), from a stride behind to two strides and the
    stopping distance on: a jog, quick steps with a flight; kept until the run is quick
    enough for its own steps."""
    tune, span = w.rig.tuning, w.rig.gait.max_step_reach
    back, on = s.x - direction * 2.0 * span, s.x + direction * (2.0 * span + stopping)
    stairs = flight_between(w, s, back, on)
    steep = slope_cap < tune.jog_below * w.rig.gait.run_speed
    jog_on = s.jogging & (np.abs(s.vx) < tune.jog_timing)
    return sprinting & (steep | jog_on) & ~stairs


def stair_cap(
    w: World,
    s: WalkState,
    cap: FloatArray,
    direction: FloatArray,
    sprinting: BoolArray,
) -> tuple[FloatArray, BoolArray]:
    """``cap`` (N,) held on a flight to the pace whose step is one tread (nobody takes
    stairs two at a time), the tread measured between the risers near the feet (walking,
    from the trailing foot, so the pace lets go as the last foot leaves the flight); and
    who runs on a flight (``stair_run``: the run input, on it, up or down it): their steps
    quicken and they climb ``run_climb`` times faster. The flight's pace is worked out for
    the characters on a flight only."""
    tune, span = w.rig.tuning, w.rig.gait.max_step_reach
    behind = s.x - direction * span  # the trailing foot
    ahead = s.x + direction * span  # the next landing (beyond it: approach)
    walking = ~sprinting
    if any_true(walking):
        behind = np.where(walking, trailing_foot(w, s, direction), behind)
    low, high = np.minimum(behind, ahead), np.maximum(behind, ahead)
    tread = w.terrain.shortest_tread(low, high, MIN_RISER, RISER_WINDOW)
    flight = tread <= MAX_TREAD
    stair_run = np.zeros(s.count, dtype=bool)
    if not any_true(flight):
        return cap, stair_run
    grade = ground_grade(w, s) * direction  # rise per run along the walk
    # running on a flight once on it (a riser within a step of the pelvis), up it or down
    # it, but not on the flat before an up flight (quick steps there would put two feet on
    # its first tread)
    here = w.terrain.riser_within(s.x, span, MIN_RISER, RISER_WINDOW)
    down = grade < -tune.flat_grade
    stair_run = flight & here & sprinting & ((grade > 0.0) | down)
    cap = np.where(stair_run, cap * tune.run_climb, cap)
    on = np.flatnonzero(flight)
    pace = flight_pace(tread[on], grade[on], stair_run[on], w.rig)
    cap[on] = np.minimum(cap[on], pace)
    return cap, stair_run


def blocked_ahead(
    w: World, s: WalkState, direction: FloatArray, rise: FloatArray, probe_x: FloatArray
) -> BoolArray:
    """Characters (N,) that stop: ground rising or dropping more than a step takes within
    one step's reach (the terrain editor refuses to build such ground with the same test),
    the end of the world, or a stair tread an obstacle leaves no room on for a foot."""
    lo, hi = w.terrain.x_range
    blocked = (rise > w.rig.gait.max_step_height) | (probe_x < lo) | (probe_x > hi)
    taken = taken_treads(w, s)
    if len(taken):
        near = np.where(direction > 0.0, taken[:, 0], taken[:, 1])  # its nearer end
        ahead = (near - s.x[:, None]) * direction[:, None]
        reach = (probe_x - s.x) * direction
        blocked |= any_last((ahead > 0.0) & (ahead <= reach[:, None]))
    return np.asarray(blocked)


def taken_treads(w: World, s: WalkState) -> FloatArray:
    """The stair treads ``(x0, x1)`` (K, 2) an obstacle leaves no room on for a sole (heel
    to toe, off the obstacle by the gap a landing keeps: ``World.kept_off``): a tread
    between two risers at most ``MAX_TREAD`` apart that an obstacle overlaps with less than
    a sole's room left on either side of it (one lying across a riser, a ball against it,
    can take two)."""
    if not len(w.obstacles):
        return np.zeros((0, 2))
    risers = w.terrain.risers(MIN_RISER, RISER_WINDOW)
    sole = w.rig.legs.heel + w.rig.legs.toe
    lo, hi = risers[:-1], risers[1:]
    taken = np.zeros(len(lo), dtype=bool)
    for x0, x1, _ in w.kept_off:
        room = np.maximum(x0 - lo, hi - x1)
        taken |= (hi - lo <= MAX_TREAD) & (lo < x1) & (hi > x0) & (room < sole)
    return np.stack([lo[taken], hi[taken]], axis=1)


def climb_cap(w: World, s: WalkState, x: FloatArray, direction: FloatArray) -> FloatArray:
    """The speed (M,) the body climbs a steep slope at with its pelvis at ``x`` (M,):
    ``climb_speed`` over the ground's mean slope a step's reach either side (inf where
    that is a flight, paced by :meth:`_approach`, or a drop or wall)."""
    gait = w.rig.gait
    span = gait.max_step_reach
    ends = w.terrain.height_at(x[:, None] + np.array([-span, span]))
    slope = np.abs(ends[:, 1] - ends[:, 0]) / (2.0 * span)
    stairs = w.terrain.riser_within(x, span, MIN_RISER, RISER_WINDOW)
    rise = w.terrain.steepest_rise(x - span, x + span, span)
    smooth = ~stairs & (rise <= gait.max_step_height)
    return np.where(smooth, gait.climb_speed / np.maximum(slope, 1e-6), np.inf)


def approach(
    w: World,
    s: WalkState,
    risers: FloatArray,
    treads: FloatArray,
    direction: FloatArray,
    sprinting: BoolArray,
    x: FloatArray | None = None,
    within: FloatArray | None = None,
) -> FloatArray:
    """The speed (N,) from which the body slows at ``approach_brake`` to the pace of the
    next flight ahead (:func:`_flight_pace`, a run up it at the quicker pace it will take
    there) by a step before its first riser: ``v² = pace² + 2 a d`` (inf: none ahead).
    Without it the flight's pace can come into view within the stopping distance, and a
    run would brake at the halflife's ~5 m/s², harder than its steps can follow: the
    pelvis drops low over feet left wide apart. ``x``: pelvises (M,) elsewhere instead (with
    ``direction`` and ``sprinting`` of the same length), e.g. where a step will land.

    ``within``: the speeds (N,) the cap is for. Where every flight is so far ahead that
    it cannot bind them (``√(2 a d) ≥ |within|``: the pace only adds to that), the
    answer is inf for all, without working out the flights' paces; a cap is never read
    but as a limit on those speeds."""
    gait = w.rig.gait
    span = gait.max_step_reach
    here = s.x if x is None else x
    if len(risers):  # (without risers the terrain gives one tread, of inf)
        flights = treads <= MAX_TREAD
        risers, treads = risers[flights], treads[flights]
    if not len(risers):
        return np.full(len(here), np.inf)
    gap, first = _next_riser(risers, here, direction, span)
    room = 2.0 * w.rig.tuning.approach_brake * gap  # 2 a d (inf for none ahead)
    if within is not None and all_true(np.sqrt(room) >= np.abs(within)):
        return np.full(len(here), np.inf)
    riser, tread = risers[first], treads[first]  # (a flight's tread: finite)
    # the flight's grade along the walk: its riser's rise (the ground half a tread either
    # side of it: a riser may be a few cm wide) over its tread
    half = (0.5 * tread)[:, None] * _EITHER_SIDE
    heights = w.terrain.height_at(riser[:, None] + direction[:, None] * half)
    grade = (heights[:, 1] - heights[:, 0]) / tread
    quick = sprinting  # running up or down it (:attr:`stair_run` once there)
    climb = gait.climb_speed * np.where(quick, w.rig.tuning.run_climb, 1.0)
    pace = np.minimum(
        flight_pace(tread, grade, quick, w.rig), climb / np.maximum(np.abs(grade), 1e-6)
    )
    return np.sqrt(pace * pace + room)


def _next_riser(
    risers: FloatArray, here: FloatArray, direction: FloatArray, span: float
) -> tuple[FloatArray, NDArray[np.intp]]:
    """The nearest of the sorted ``risers`` (K ≥ 1,) more than ``span`` ahead of ``here``
    along ``direction`` (M,): its distance past that, ``(riser − here)·direction − span``
    (inf where none is, or ``direction`` is 0), and its index (any where none is).

    That distance grows with the riser's x walking +x (falls walking −x), so the risers
    ahead are a suffix (a prefix) of the sorted list: a binary search for ``here ± span``
    finds its end to within one riser (the rounding of the two sums differs by ulps; risers
    lie millimetres apart at least), and the exact test on the riser there and its two
    neighbours picks the one a dense minimum over every riser would pick."""
    forward = direction > 0.0
    edge = risers.searchsorted(here + direction * span)
    last = len(risers) - 1
    # candidates nearest first: from the edge onward walking +x, from before it walking −x
    steps = np.where(forward[:, None], _AFTER_EDGE, _BEFORE_EDGE)
    candidates = clamp(edge[:, None] + steps, 0, last)
    beyond = (risers[candidates] - here[:, None]) * direction[:, None] - span
    ahead = beyond > 0.0
    pick = ahead.argmax(axis=1)  # the nearest candidate ahead
    rows = np.arange(len(here))
    gap = np.where(ahead[rows, pick], beyond[rows, pick], np.inf)
    return gap, candidates[rows, pick]
