"""Small queries of the walkers' state the stages share: the ground's grade, the speeds the
gait is timed at, each foot's phase, hip and standing spots, the pivot's balls and ankles.

Pure functions of the :class:`~game.world.walker_state.World` and the
:class:`~game.world.walker_state.WalkState`: none writes the state.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from game.world.easing import any_true, by_column, max_last, min_last, wrap01
from game.world.feet import FOOT_SIDE, MIN_RISER, RISER_WINDOW, foot_axes, heel_hangs, stance_pose
from game.world.gait import PHASE_OFFSET, quickened_rate, slope_quickening
from game.world.modes import PACING_JOG, PACING_RUN, PACING_STAIR_RUN, Pacing
from game.world.rig import Rig
from game.world.types import BoolArray, FloatArray
from game.world.walker_state import EVERY_ROW, Rows, WalkState, World

_BEHIND_AT_AHEAD = np.array([-1.0, 0.0, 1.0])  # ground_grade's samples, in slope spans
_GRADES_KEPT = 4  # ground_grade's answers remembered (World.grades)


def timing_speed(speed: ArrayLike, floor: ArrayLike) -> FloatArray:
    """The speed the gait's timing is read at: ``speed``, at least ``floor`` fast (its sign
    kept; a floor of 0 leaves it as it is). Running on a flight (``stair_run_timing``) or
    jogging (``jog_timing``) the steps are timed for a speed above the body's, so they
    quicken instead of lengthening past a tread."""
    return np.copysign(np.maximum(np.abs(speed), floor), speed)


def flight_pace(tread: FloatArray, grade: FloatArray, quick: BoolArray, rig: Rig) -> FloatArray:
    """The speed (N,) whose step is one ``tread`` on a flight of ``grade`` (rise per run along
    the walk): ``tread · 2 · stride_rate``, a fixed point because the steps quicken with speed
    (it converges in a few rounds), timed by :func:`timing_speed` (at least
    ``stair_run_timing`` where ``quick``: running on the flight)."""
    gait = rig.gait
    # the rounds read the same stride, grade and timing floor: computed once
    stride = tread * 2.0
    quickening = slope_quickening(grade, gait)
    floor = np.where(quick, rig.tuning.stair_run_timing, 0.0)
    pace: ArrayLike = gait.walk_speed  # the first round's guess
    for _ in range(4):
        pace = stride * quickened_rate(timing_speed(pace, floor), quickening, gait)
    return np.asarray(pace)


def ground_grade(w: World, s: WalkState) -> FloatArray:
    """Mean ground slope (rise per run in +x) over ±``slope_span`` of the pelvis, from
    the sides the feet could walk: a side that rises or drops more than a step (the
    loft's edge, a wall) is left out: read as a slope, the loft's 1.8 m edge would lean
    the body standing on the loft 22° into it.

    A step asks for it ~9 times at 2 or 3 pelvis positions: the last :data:`_GRADES_KEPT`
    answers are kept (read-only) and given again for the same x, ground and rig."""
    key = s.x.tobytes()
    for terrain, rig, x, kept in w.grades:
        if x == key and terrain is w.terrain and rig is w.rig:
            return kept
    grade = _ground_grade(w, s)
    grade.setflags(write=False)
    w.grades = [(w.terrain, w.rig, key, grade), *w.grades[: _GRADES_KEPT - 1]]
    return grade


def _ground_grade(w: World, s: WalkState) -> FloatArray:
    """:func:`ground_grade` computed."""
    span = w.rig.tuning.slope_span
    heights = w.terrain.height_at(s.x[:, None] + span * _BEHIND_AT_AHEAD)
    rises = heights[:, 1:] - heights[:, :-1]  # behind → pelvis → ahead
    walkable = np.abs(rises) <= w.rig.gait.max_step_height
    # (np.add.reduce is ndarray.sum without its Python wrapper: this runs a few times a step)
    sides = np.maximum(np.add.reduce(walkable, axis=1), 1)
    return np.add.reduce(np.where(walkable, rises, 0.0), axis=1) / (sides * span)


def timed(w: World, s: WalkState, speed: FloatArray) -> FloatArray:
    """The speed (N,) the gait's timing (:class:`Pace`) is read at for a body going at
    ``speed``: :func:`_timing_speed`, quick running on a flight (:attr:`stair_run`), at
    least ``jog_timing`` jogging (:attr:`jogging`), and running on a slope that holds the
    body below a run (``climb_speed`` over its grade), the run it would be there: a run
    up or down the slope keeps a run's cadence and flight, its steps shorter (timed at
    its capped speed, a 10° run spent a fifth of its time in the air less than on the
    flat)."""
    gait, tune = w.rig.gait, w.rig.tuning
    slope_run = s.pacing == PACING_RUN  # (neither on a flight nor jogging)
    if any_true(slope_run):  # (the grade is read only then)
        held = gait.run_speed * np.abs(ground_grade(w, s)) / gait.climb_speed
        speed = np.where(slope_run, speed * np.maximum(held, 1.0), speed)
    # the least speed each pacing's steps are timed for (none walking or running), looked
    # up by pacing: one gather where two masks and two wheres cost three times as much
    floors = np.zeros(len(Pacing))
    floors[PACING_JOG], floors[PACING_STAIR_RUN] = tune.jog_timing, tune.stair_run_timing
    return timing_speed(speed, floors[s.pacing])


def speed_halflife(w: World, s: WalkState, v_target: FloatArray) -> FloatArray:
    """The halflife the velocity chases ``v_target`` with: speeding up, longer, and in
    proportion to the speed beyond a walk, so every set-off starts at the same ~3 m/s²
    (at the gait's halflife a standing body would reach a run in a quarter second, faster
    than its first steps can carry it: the hip would outrun the planted foot and be held
    back, and the pelvis dip)."""
    gait = w.rig.gait
    up = w.rig.tuning.speed_up_halflife * np.maximum(np.abs(v_target) / gait.walk_speed, 1.0)
    return np.where(np.abs(v_target) > np.abs(s.vx), up, gait.accel_halflife)


def speed_soon(w: World, s: WalkState, v_target: FloatArray) -> FloatArray:
    """The velocity ``step_lead`` seconds on (none pivoting): the pace a step is timed
    for, so the first steps of a set-off are quick enough for the body they carry (timed
    for the standing body's idle cadence, a 0.62 s swing let the hip run past the planted
    foot)."""
    decay = 2.0 ** (-w.rig.tuning.step_lead / speed_halflife(w, s, v_target))
    return np.where(s.turning, 0.0, v_target + (s.vx - v_target) * decay)


def foot_phase(w: World, s: WalkState) -> FloatArray:
    """Each foot's own phase in [0, 1), shape (N, 2)."""
    return wrap01(by_column(np.add, s.phase, PHASE_OFFSET))


def stance_progress(w: World, s: WalkState, duty: FloatArray) -> FloatArray:
    """How far into its stance each planted foot is, in [0, 1], shape (N, 2): its phase
    over the duty factor, 1 once its lift is due (:attr:`Feet.due`), 0 if it landed
    early (its phase still in the swing window, about to wrap)."""
    phase = foot_phase(w, s)
    return np.where(s.feet.due, 1.0, np.where(phase >= duty, 0.0, phase / duty))


def squaring_up(w: World, s: WalkState, v_target: FloatArray) -> BoolArray:
    """Characters stepping their feet to standing or pivot spots, not walking (N,)."""
    return s.reversing | (np.abs(v_target) < w.rig.tuning.still_speed)


def hips_x(w: World, s: WalkState, x: FloatArray) -> FloatArray:
    """Hip x of each leg for pelvis x ``x`` (N,), shape (N, 2): the depth offsets
    shrink through the middle of a pivot."""
    return x[:, None] + by_column(np.multiply, np.abs(s.spin), FOOT_SIDE * w.rig.body.hip_depth)


def stance_feet(w: World, s: WalkState) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Planted feet's ankle (N, 2, 2), sole angle and toe bend (N, 2) at their pitch."""
    feet = s.feet
    return stance_pose(feet.lock, feet.angle, feet.pitch, s.facing[:, None], w.rig.legs)


def foot_x(s: WalkState) -> FloatArray:
    """Each foot's ankle x (N, 2): where it stands, or, swinging, where it will land."""
    feet = s.feet
    return np.where(feet.planted, feet.lock[..., 0], feet.land_lock[..., 0])


def trailing_foot(
    w: World, s: WalkState, direction: FloatArray, lifting: BoolArray | None = None
) -> FloatArray:
    """The x (N,) of the rearmost foot along ``direction`` (N,), or the pelvis if both are
    ahead of it: a planted foot where it is, a swinging one where it will land; not those
    ``lifting`` (N, 2) (the other's, then)."""
    x = foot_x(s)
    if lifting is not None:
        x = np.where(lifting, x[:, ::-1], x)
    x = np.concatenate([x, s.x[:, None]], axis=1)
    return np.where(direction >= 0.0, min_last(x), max_last(x))


def flight_between(w: World, s: WalkState, behind: FloatArray, ahead: FloatArray) -> BoolArray:
    """A stair's riser from ``behind`` to ``ahead`` (M,)."""
    low, high = np.minimum(behind, ahead), np.maximum(behind, ahead)
    return w.terrain.riser_between(low, high, MIN_RISER, RISER_WINDOW)


def standing_sides(s: WalkState) -> FloatArray:
    """The side (N, 2) of ±1 along x each foot stands on at rest: the foot further along +x
    (:func:`foot_x`) takes the +x spot.
    Spots taken by order, not by leg, never ask the front foot to step back behind the
    other (a stop that lands the far foot ahead keeps it there); feet level take
    ``FOOT_SIDE``."""
    x = foot_x(s)
    swapped = x[:, 0] > x[:, 1]
    return np.where(swapped[:, None], -FOOT_SIDE, FOOT_SIDE)


def standing_spots(w: World, s: WalkState, x: FloatArray, pivot: BoolArray) -> FloatArray:
    """Flat-foot ankle x of the standing spots for pelvis x ``x`` (N,), shape (N, 2):
    spread fore and aft (:func:`standing_sides`), or for a pivot with both balls under the
    pelvis."""
    spread = x[:, None] + standing_sides(s) * w.rig.gait.stance_spread
    balls = x[:, None] - s.facing[:, None] * w.rig.legs.ball + 0.0 * FOOT_SIDE
    return np.where(pivot[:, None], balls, spread)


def heel_off_nose(w: World, s: WalkState) -> BoolArray:
    """Planted feet (N, 2) whose heel hangs off a stair nose (:func:`heel_hangs`)."""
    feet, facing = s.feet, s.facing[:, None]
    return feet.planted & heel_hangs(w.terrain, feet.lock[..., 0], facing, w.rig.legs)


def pivot_balls(w: World, s: WalkState, rows: Rows = EVERY_ROW) -> FloatArray:
    """The ball contact points the feet pivot on, shape (N, 2, 2), or of the characters
    ``rows`` (M,) alone (a foot still landing: where it will be)."""
    legs, feet = w.rig.legs, s.feet
    lock = np.where(feet.swinging[rows][..., None], feet.land_lock[rows], feet.lock[rows])
    along, normal = foot_axes(feet.angle[rows], s.turn_from[rows, None])
    return lock - legs.ankle_height * normal + legs.ball * along


def pivot_ankles(w: World, s: WalkState, rows: Rows = EVERY_ROW) -> FloatArray:
    """Ankles of pivoting feet (N, 2, 2), or of the characters ``rows`` (M,) alone: flat,
    turning about the ball by ``spin``."""
    legs = w.rig.legs
    along, normal = foot_axes(s.feet.angle[rows], s.spin[rows, None])
    return pivot_balls(w, s, rows) - legs.ball * along + legs.ankle_height * normal
