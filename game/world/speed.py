"""How fast each character may go: the goal speed slowed on steep ground, paced a tread a step
on a flight, eased toward a flight ahead, and stopped before ground a step cannot take.

This stage also names two running modes as it decides: ``jogging`` (the run input on a
slope too steep to run up) and ``stair_run`` (the run input on a flight).
"""

from __future__ import annotations

import math

import numpy as np

from game.world.easing import clamp
from game.world.gait import MAX_TREAD, MIN_RISER, RISER_WINDOW
from game.world.timing import flight_between, flight_pace, ground_grade, trailing_foot
from game.world.walker_state import BoolArray, FloatArray, WalkState, World

# where the speed cap reads the slope: a stride behind (−1), then fractions of the stopping
# distance ahead
_SLOPE_PROBES = np.array([-1.0, 0.0, 0.5, 1.0])


def unblocked(w: World, s: WalkState, v_target: FloatArray, sprinting: BoolArray) -> FloatArray:
    """``v_target`` slowed on steep ground (the body climbs at most ``climb_speed``), on
    a flight to a tread a step (quicker steps ``sprinting``: :attr:`stair_run`), and
    stopped before a too-tall rise or drop, or the end of the world."""
    gait = w.rig.gait
    span = gait.max_step_reach
    direction = np.sign(v_target)
    # look as far ahead as it takes to slow down: a halflife deceleration covers v·h / ln 2
    stopping = np.abs(s.vx) * gait.accel_halflife / math.log(2.0)
    # steepest mean slope over a stride, from a stride behind (the trailing foot pushes
    # off there: off the top of a flight the body keeps the climbing pace until that
    # foot has left the stairs, or the feet fall a stride behind it) up to the stopping
    # distance ahead (stairs count as the ramp they make)
    reach = np.where(_SLOPE_PROBES < 0.0, span, stopping[:, None])
    centres = s.x[:, None] + direction[:, None] * reach * _SLOPE_PROBES
    heights = w.terrain.height_at(centres[..., None] + np.array([-span, span]))
    slopes = np.abs(heights[..., 1] - heights[..., 0]) / (2.0 * span)
    # ... of ground the feet walk: a wall or a drop taller than a step is no ramp (the
    # stop below keeps the body off it); within a stride of the loft's edge or the
    # course's end wall it held a sprint to 0.23 m/s for a second or more. The stop
    # reads the ground up to a step's reach ahead (less up to a walk_to spot), and
    # both come from one steepest_rise call.
    probe_x = s.x + direction * (span + stopping)
    goal = np.abs(s.intent.goal_x - s.x) + w.rig.tuning.goal_margin  # NaN without a goal
    probe_x = np.where(goal < span + stopping, s.x + direction * goal, probe_x)
    rises = w.terrain.steepest_rise(
        np.concatenate([centres - span, s.x[:, None]], axis=1),
        np.concatenate([centres + span, probe_x[:, None]], axis=1),
        span,
    )
    walked, rise = rises[:, :-1], rises[:, -1]
    walkable = walked <= gait.max_step_height
    mean_slope = np.where(walkable, slopes, 0.0).max(axis=1)
    cap = slope_cap = gait.climb_speed / np.maximum(mean_slope, 1e-6)
    # on a flight a step spans one tread (walking, no one takes stairs two at a time:
    # landing on every other tread, each step dropped 32 cm and the stance knee bent to
    # 94°): the speed whose step is a tread, the tread measured between the risers near
    # the feet (read as riser / mean slope, a flight's end took the slope off ground half
    # landing: 0.44 m for 0.35 m treads, a pace the body kept to the landing's edge)
    risers = w.terrain.risers(MIN_RISER, RISER_WINDOW)
    treads = w.terrain.treads(MIN_RISER, RISER_WINDOW)
    # asked to run where a steep slope holds the body well below a run (not the bump),
    # off stairs (their pace is a tread a step): a jog, quick steps with a flight (timed
    # by the speed, Shift on the steep slope was a walk, one foot always down, and the
    # stance knee bent to 94° going up it)
    # (along the walk: from a stride behind to two strides and the stopping distance on)
    back, on = s.x - direction * 2.0 * span, s.x + direction * (2.0 * span + stopping)
    stairs = flight_between(w, s, back, on)
    # ... until the run is quick enough for its steps (a jog's quick steps slowing to a
    # walk's timing at the slope's foot, the run into the flight beyond was out of step)
    steep = slope_cap < w.rig.tuning.jog_below * gait.run_speed
    jog_on = s.jogging & (np.abs(s.vx) < w.rig.tuning.jog_timing)
    s.jogging = sprinting & (steep | jog_on) & ~stairs
    behind = s.x - direction * span  # the trailing foot
    ahead = s.x + direction * span  # the next landing (beyond it: _approach)
    # ... walking, the trailing foot itself (or the pelvis, if both feet are ahead of it):
    # the flight's pace lets go as the last foot leaves its last tread (held a stride
    # longer, the body sped up under a swing planned for the flight's pace: walking left
    # off the stairs onto the bump, the next step was taken from behind, the pelvis 11 cm
    # low, the knee at 85°)
    walking = ~sprinting
    if walking.any():
        behind = np.where(walking, trailing_foot(w, s, direction), behind)
    near = (risers >= np.minimum(behind, ahead)[:, None]) & (
        risers <= np.maximum(behind, ahead)[:, None]
    )
    tread = np.where(near, treads, np.inf).min(axis=1, initial=np.inf)
    flight = tread <= MAX_TREAD
    s.stair_run = np.zeros(s.count, dtype=bool)
    if flight.any():
        grade = ground_grade(w, s) * direction  # rise per run along the walk
        # running on a flight, once on it (a riser within a step of the pelvis): braking
        # into it from a run still aims for the walking stair pace (aiming for the quicker
        # one, the trailing foot was left rolled to its limit: the hip held, 0.4 m/s lost
        # in a step). Up it, and down it too since round 14 (at the walk's 0.70 m/s, Shift
        # down a flight was a walk; before the steep slope jogged and a strained foot
        # lifted at once, running down it met the slope in a lunge, the pelvis 16-25 cm
        # low), but not on the flat before an up flight (its quicker steps there put two
        # feet on its first tread)
        here = (np.abs(risers - s.x[:, None]) <= span).any(axis=1)
        down = grade < -w.rig.tuning.flat_grade
        s.stair_run = flight & here & sprinting & ((grade > 0.0) | down)
        # ... the steps quicken (:meth:`_timed`) and the body climbs faster (held to the
        # walk's timing and climb, a run up the stairs went at a walk's 0.8 m/s)
        cap = np.where(s.stair_run, cap * w.rig.tuning.run_climb, cap)
        pace = flight_pace(tread, grade, s.stair_run, w.rig)
        cap = np.where(flight, np.minimum(cap, pace), cap)
    cap = np.minimum(cap, approach(w, s, risers, treads, direction, sprinting))
    v_target = clamp(v_target, -cap, cap)
    # stop before ground that rises or drops more than a step takes within one step's
    # reach (the terrain editor refuses to build such ground with the same test)
    lo, hi = w.terrain.x_range
    blocked = (rise > gait.max_step_height) | (probe_x < lo) | (probe_x > hi)
    # ... and before a stair tread an obstacle leaves no room on for a foot (a cup set
    # on the tread below the top landing: no step down was left, yet the body walked on
    # over the flight, sinking until the legs stuck straight out behind it, for good)
    taken = taken_treads(w, s)
    if len(taken):
        near = np.where(direction > 0.0, taken[:, 0], taken[:, 1])  # its nearer end
        ahead = (near - s.x[:, None]) * direction[:, None]
        reach = (probe_x - s.x) * direction
        blocked |= ((ahead > 0.0) & (ahead <= reach[:, None])).any(axis=1)
    return np.where(blocked, 0.0, v_target)


def taken_treads(w: World, s: WalkState) -> FloatArray:
    """The stair treads ``(x0, x1)`` (K, 2) an obstacle leaves no room on for a sole
    (heel to toe, kept off it as a landing is) either side of it."""
    if not len(w.obstacles):
        return np.zeros((0, 2))
    risers = w.terrain.risers(MIN_RISER, RISER_WINDOW)
    legs = w.rig.legs
    sole = legs.heel + legs.toe + 2.0 * w.rig.tuning.keep_off
    taken = []
    for x0, x1, _ in w.obstacles:
        below, above = risers[risers < x0], risers[risers > x1]
        if not (len(below) and len(above)):
            continue
        lo, hi = float(below.max()), float(above.min())
        if hi - lo <= MAX_TREAD and max(x0 - lo, hi - x1) < sole:
            taken.append((lo, hi))
    return np.array(taken, dtype=float).reshape(-1, 2)


def climb_cap(w: World, s: WalkState, x: FloatArray, direction: FloatArray) -> FloatArray:
    """The speed (M,) the body climbs a steep slope at with its pelvis at ``x`` (M,):
    ``climb_speed`` over the ground's mean slope a step's reach either side (inf where
    that is a flight, paced by :meth:`_approach`, or a drop or wall)."""
    gait = w.rig.gait
    span = gait.max_step_reach
    ends = w.terrain.height_at(x[:, None] + np.array([-span, span]))
    slope = np.abs(ends[:, 1] - ends[:, 0]) / (2.0 * span)
    risers = w.terrain.risers(MIN_RISER, RISER_WINDOW)
    stairs = (np.abs(risers - x[:, None]) <= span).any(axis=1)
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
) -> FloatArray:
    """The speed (N,) from which the body slows at ``approach_brake`` to the pace of the
    next flight ahead (:func:`_flight_pace`, a run up it at the quicker pace it will take
    there) by a step before its first riser: ``v² = pace² + 2 a d`` (inf: none ahead).
    Without it the flight's pace came into view within the stopping distance and a run
    braked at the halflife's ~5 m/s², 1.95 to 0.7 m/s in half a second, the pelvis 16 cm
    low over the feet left wide apart. ``x``: pelvises (M,) elsewhere instead (with
    ``direction`` and ``sprinting`` of the same length), e.g. where a step will land."""
    gait = w.rig.gait
    span = gait.max_step_reach
    here = s.x if x is None else x
    beyond = (risers[None, :] - here[:, None]) * direction[:, None] - span
    beyond = np.where((treads <= MAX_TREAD) & (beyond > 0.0), beyond, np.inf)
    if not np.isfinite(beyond).any():
        return np.full(len(here), np.inf)
    first = np.argmin(beyond, axis=1)  # the nearest riser of a flight ahead
    gap, riser, tread = beyond[np.arange(len(here)), first], risers[first], treads[first]
    # the flight's grade along the walk: its riser's rise (the ground half a tread either
    # side of it: a riser may be a few cm wide) over its tread
    half = np.where(np.isfinite(tread), 0.5 * tread, 0.0)[:, None] * [-1.0, 1.0]
    heights = w.terrain.height_at(riser[:, None] + direction[:, None] * half)
    grade = (heights[:, 1] - heights[:, 0]) / tread
    quick = sprinting  # running up or down it (:attr:`stair_run` once there)
    climb = gait.climb_speed * np.where(quick, w.rig.tuning.run_climb, 1.0)
    pace = np.minimum(
        flight_pace(tread, grade, quick, w.rig), climb / np.maximum(np.abs(grade), 1e-6)
    )
    return np.sqrt(pace * pace + 2.0 * w.rig.tuning.approach_brake * gap)  # (inf for none ahead)
