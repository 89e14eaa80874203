"""What the planted feet allow the hips, and the pelvis it gives: the support samples, the
highest hip and the hip's x range per planted leg, the pelvis height (standing height, bob,
lowered only where a leg cannot reach), the hard limits that keep planted legs in the
solver's exact zone, and each planted foot's stance roll.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from game.world.easing import (
    all_last,
    any_last,
    any_true,
    clamp,
    max_last,
    min_last,
    smoothstep,
    xy,
)
from game.world.feet import (
    FOOT_SIDE,
    MIN_RISER,
    RISER_WINDOW,
    Feet,
    rest_on_ground,
    sole_fits,
)
from game.world.gait import Pace, run_fraction, spring_step
from game.world.rest import at_rest, rest_goal
from game.world.stance import (
    RolledFeet,
    heel_lift_schedule,
    landing_roll,
    needed_pitch,
    roll_limits,
    roll_side,
)
from game.world.timing import (
    foot_phase,
    ground_grade,
    hips_x,
    pivot_ankles,
    stance_progress,
)
from game.world.turning import pivot_ceiling
from game.world.types import BoolArray, FloatArray
from game.world.walker_state import WalkState, World, rows_of


@dataclass(frozen=True, slots=True)
class Support:
    """What the planted feet allow the hips in one step (computed once, asked several times).

    Attributes
    ----------
    rolled : RolledFeet
        Every foot's ankle at each sampled stance pitch.
    landing : ndarray, shape (N, 2)
        The roll whose side of flat each planted foot keeps this step: the landing roll
        still settling (:func:`landing_roll`), else the roll it has (:func:`roll_side`).
    flat : ndarray of bool, shape (N, 1)
        Characters pivoting or about to: their feet count only flat.
    flat_ankles : ndarray, shape (N, 2, 2)
        Those flat ankles (turning about the balls while pivoting).
    pace : Pace
        The gait's timing the landing rolls settle at (the step's).
    """

    rolled: RolledFeet
    landing: FloatArray
    flat: BoolArray
    flat_ankles: FloatArray
    pace: Pace


def planted_support(w: World, s: WalkState, pace: Pace) -> Support:
    """What the planted feet allow the hips, as the feet are now, at ``pace`` (the
    landing rolls settle over its stance time)."""
    feet = s.feet
    # pivoting, or about to (stopped, squaring up): flat feet only (braking, a foot left
    # behind the stopping hip still rolls: held flat, it would pull the pelvis down to it)
    turning = s.turning
    about_to = s.reversing & (np.abs(s.vx) < w.rig.tuning.pivot_speed)
    flat = (turning | about_to)[:, None]
    flat_ankles = feet.lock
    if any_true(flat):  # (the pivots' ankles computed on their rows alone)
        rows = np.flatnonzero(turning)
        flat_ankles = feet.lock.copy()
        flat_ankles[rows] = pivot_ankles(w, s, rows)
    landing = roll_side(feet, landing_roll(feet, w.rig.tuning.loading * pace.stance_time[:, None]))
    facing, legs = s.facing[:, None], w.rig.legs
    if w.rolled is None:
        w.rolled = RolledFeet.sample(feet.lock, feet.angle, facing, legs)
    rolled = w.rolled = w.rolled.resampled(feet.lock, feet.angle, facing, legs)
    return Support(rolled, landing, flat, flat_ankles, pace)


def highest_hips(
    w: World, s: WalkState, support: Support, hip_x: FloatArray, extension: float
) -> FloatArray:
    """The highest each hip at ``hip_x`` (N, 2) may be with its planted foot within
    ``extension`` of the leg, rolling the foot (:meth:`RolledFeet.highest_hip`); a
    pivoting character's feet are flat on their balls, and one about to pivot lowers
    onto flat feet, so for them only the flat pose counts. Shape (N, 2)."""
    legs = w.rig.legs
    reach = extension * legs.limb.reach
    high = support.rolled.highest_hip(hip_x, reach, support.landing, legs)
    if not any_true(support.flat):
        return high
    dx = hip_x - support.flat_ankles[..., 0]
    # Pythagoras, as in RolledFeet.highest_hip, for the one pose a flat foot has
    flat_high = support.flat_ankles[..., 1] + np.sqrt(np.maximum(reach * reach - dx * dx, 0.0))
    return np.where(support.flat, flat_high, high)


def hip_x_range(
    w: World, s: WalkState, support: Support, hip_y: FloatArray, extension: float
) -> tuple[FloatArray, FloatArray]:
    """The lowest and highest x each hip at height ``hip_y`` (N, 2) may take with its
    planted foot within ``extension`` of the leg (:meth:`RolledFeet.hip_x_range`; flat
    feet as in :meth:`_highest_hips`, but only pivoting: one about to pivot still brakes
    and steps over its rolled feet, or, held to the flat pose of a foot rolled onto its
    ball, its hip stopped dead from a walk or a run in one step). Shape (N, 2) each."""
    reach = extension * w.rig.legs.limb.reach
    lo, hi = support.rolled.hip_x_range(hip_y, reach)
    flat = support.flat & s.turning[:, None]
    if not any_true(flat):
        return lo, hi
    dy = hip_y - support.flat_ankles[..., 1]
    # Pythagoras, as in RolledFeet.hip_x_range, for the one pose a flat foot has
    half = np.sqrt(np.maximum(reach * reach - dy * dy, 0.0))
    lo = np.where(flat, support.flat_ankles[..., 0] - half, lo)
    hi = np.where(flat, support.flat_ankles[..., 0] + half, hi)
    return lo, hi


def pelvis_height(
    w: World, s: WalkState, x_new: FloatArray, pace: Pace, support: Support, dt: float
) -> FloatArray:
    """Pelvis y this step: a critically damped spring toward its goal
    (:func:`pelvis_goal`), within the pelvis's speed limit; running up a slope (not a
    flight) with the pelvis well below its goal, it rises back as fast as the slope climbs."""
    gait, tune = w.rig.gait, w.rig.tuning
    goal = pelvis_goal(w, s, x_new, pace, support)
    # pivoting, the pelvis rises briskly: the knees must be straight mid-pivot
    halflife = np.where(s.turning, tune.pivot_halflife, gait.pelvis_halflife)
    y, _ = spring_step(s.y, s.vy, goal, halflife, dt)
    limit = gait.max_pelvis_speed * dt
    low = s.sprinting
    if any_true(low):  # (only a run rises back with the slope: no riser search else)
        near = w.terrain.riser_within(x_new, gait.max_step_reach, MIN_RISER, RISER_WINDOW)
        low = low & ~near & (goal - s.y > tune.rise_back)
    climb = np.where(low, ground_grade(w, s) * (x_new - s.x), 0.0) if any_true(low) else 0.0
    return s.y + clamp(y - s.y, -limit, limit + np.maximum(climb, 0.0))


def pelvis_goal(
    w: World, s: WalkState, x_new: FloatArray, pace: Pace, support: Support
) -> FloatArray:
    """The height (N,) the pelvis aims for: standing height with the gait's bob
    (:func:`standing_height`), no higher than the feet allow (:func:`allowed_height`),
    lowered by a crouch; pivoting, as tall as the flat feet allow (straight legs: the
    knees pass the middle with the least sideways room); about to pivot, or while the
    last squaring foot lands, just low enough that both feet come down flat."""
    gait, tune, feet, turning = w.rig.gait, w.rig.tuning, s.feet, s.turning
    # standing still, only flat feet count: the pelvis settles until both rest flat (a
    # roll lets a walking leg reach, but is no pose to stand in)
    standing = all_last(feet.planted) & (np.abs(s.vx) < tune.still_speed) & ~turning
    if any_true(standing):
        flat_ankles = np.where(standing[:, None, None], feet.lock, support.flat_ankles)
        support = replace(support, flat=support.flat | standing[:, None], flat_ankles=flat_ankles)
    allowed = allowed_height(w, s, x_new, pace, support)
    stand = standing_height(w, s, x_new, pace, standing)
    goal = np.minimum(stand, allowed)
    if any_true(s.crouch > 0.0):  # (no crouch lowers nothing)
        goal = goal - tune.crouch_drop * smoothstep(s.crouch)
    pivoting = any_true(turning)
    still_landing = turning & any_last(feet.swinging) if pivoting else turning
    goal = np.where(s.reversing | still_landing, allowed - tune.flatten_margin, goal)
    if pivoting:
        # pivoting, as tall as the flat feet allow through the rest of the turn
        tall = pivots_ceiling(w, s, x_new, gait.lock_extension) - tune.flatten_margin / 4.0
        goal = np.where(still_landing, np.minimum(goal, tall), np.where(turning, tall, goal))
    return goal


def pivots_ceiling(w: World, s: WalkState, x_new: FloatArray, extension: float) -> FloatArray:
    """:func:`pivot_ceiling` (N,), +inf not pivoting, read on the pivoting characters'
    rows only (:func:`rows_of`) when they are fewer than all: its look along the rest of
    each pivot is (N, K, 2, 2) samples, and a crowd has a few pivoting at a time."""
    rows = np.flatnonzero(s.turning)
    if len(rows) == s.count:
        return pivot_ceiling(w, s, x_new, extension)
    ceiling = np.full(s.count, np.inf)
    ceiling[rows] = pivot_ceiling(w, rows_of(s, rows), x_new[rows], extension)
    return ceiling


def allowed_height(
    w: World, s: WalkState, x_new: FloatArray, pace: Pace, support: Support
) -> FloatArray:
    """The highest (N,) the pelvis may be for its feet: each planted leg within its
    comfort extension (rolling its foot), each swinging one reaching its landing in time.

    The hips are read ahead by twice the spring's halflife (it lags its goal by about
    that), a planted foot only as far as it stays down. A swing's landing need only be
    reached at touchdown: until then the pelvis may be as much higher as it can come down
    in the time left (at ``landing_descent``), which running downhill ends sooner by the
    spring's lag; a swing re-aimed after hovering has no time left."""
    gait, tune, feet = w.rig.gait, w.rig.tuning, s.feet
    until_lift = np.maximum(pace.duty[:, None] - foot_phase(w, s), 0.0) / pace.rate[:, None]
    lead = np.minimum(until_lift, 2.0 * gait.pelvis_halflife)
    hip_x = hips_x(w, s, x_new) + s.vx[:, None] * lead
    high = highest_hips(w, s, support, hip_x, gait.comfort_extension)
    allowed = np.where(feet.planted, high, np.inf)
    swinging = feet.swinging
    if any_true(swinging):  # (every foot down: no landing to reach)
        comfort = gait.comfort_extension * w.rig.legs.limb.reach
        hovering = swinging & (feet.u >= 1.0)
        dx = np.where(hovering, hip_x - feet.land[..., 0], feet.land_dx)
        # Pythagoras: a hip dx away from the foot is at most √(R² − dx²) above it; the
        # floor keeps a wildly far foot from sinking the pelvis below half a leg
        rise = np.sqrt(np.maximum(comfort * comfort - dx * dx, (0.5 * comfort) ** 2))
        landing_ground = w.terrain.height_at(feet.land_lock[..., 0])
        down = landing_ground < w.terrain.height_at(x_new)[:, None] - tune.lower_landing
        lag = 2.0 * gait.pelvis_halflife * run_fraction(s.vx, gait)[:, None] * down
        left = np.maximum((1.0 - feet.u) * feet.duration - lag, 0.0) * tune.landing_descent
        landing = feet.land[..., 1] + rise + np.where(feet.relaunches > 0, 0.0, left)
        allowed = np.where(swinging, landing, allowed)
    return min_last(allowed)


def standing_height(
    w: World, s: WalkState, x_new: FloatArray, pace: Pace, standing: BoolArray
) -> FloatArray:
    """Standing height (N,) over the ground here, with the gait's bob (up at mid-stance
    walking, down running; the running pelvis rides ``run_sink`` lower). A drop ahead is
    for the feet's reach to bring the pelvis down to; a riser up that the body reaches
    within ``stair_lead`` counts already (so a stance knee on a tread only straightens);
    ``standing``, at least over the lower foot's ground."""
    gait, legs = w.rig.gait, w.rig.legs
    ground = w.terrain.height_at(x_new)
    soon = x_new + s.vx * w.rig.tuning.stair_lead
    lo, hi = np.minimum(x_new, soon), np.maximum(x_new, soon)
    riser_soon = w.terrain.riser_between(lo, hi, MIN_RISER, RISER_WINDOW, closed=False)
    if any_true(riser_soon):
        ground = np.where(riser_soon, np.maximum(ground, w.terrain.height_at(soon)), ground)
    if any_true(standing):
        feet_ground = min_last(w.terrain.height_at(s.feet.lock[..., 0]))
        ground = np.where(standing, np.maximum(ground, feet_ground), ground)
    run = run_fraction(s.vx, gait)
    reach = legs.limb.reach
    stand = ground + legs.ankle_height + gait.stand_extension * reach - gait.run_sink * run
    moving = clamp(np.abs(s.vx) / (0.5 * gait.walk_speed), 0.0, 1.0)
    amplitude = (gait.bob_walk * (1.0 - run) - gait.bob_run * run) * moving
    # highest (walking) or lowest (running) at mid-stance of either foot: phase duty / 2
    return stand + amplitude * np.cos(2.0 * np.pi * (2.0 * s.phase - pace.duty))


def cap_pelvis(
    w: World, s: WalkState, x_new: FloatArray, y_new: FloatArray, support: Support, dt: float
) -> FloatArray:
    """Lower the pelvis (within its speed limit) where a planted leg would over-stretch
    even with its foot rolled."""
    gait, feet = w.rig.gait, s.feet
    high = highest_hips(w, s, support, hips_x(w, s, x_new), gait.lock_extension)
    cap = min_last(np.where(feet.planted, high, np.inf))
    return np.maximum(np.minimum(y_new, cap), s.y - gait.max_pelvis_speed * dt)


def hold_planted(
    w: World,
    s: WalkState,
    x_old: FloatArray,
    x_new: FloatArray,
    y_new: FloatArray,
    support: Support,
) -> FloatArray:
    """Stop the hip where a planted leg would stretch past ``lock_extension`` whatever
    its foot's roll."""
    gait, feet = w.rig.gait, s.feet
    offset = hips_x(w, s, x_new) - x_new[:, None]
    lo, hi = hip_x_range(w, s, support, y_new[:, None], gait.lock_extension)
    lo = max_last(np.where(feet.planted, lo - offset, -np.inf))
    hi = min_last(np.where(feet.planted, hi - offset, np.inf))
    # only ever cancel motion, never push the hip somewhere it was not going
    return clamp(x_new, np.minimum(lo, x_old), np.maximum(hi, x_old))


def roll_stance(w: World, s: WalkState, pace: Pace) -> None:
    """Each planted foot's pitch: the scheduled roll (heel strike rolling flat, heel
    lift toward toe-off), or more heel lift / toe up where the leg needs it to reach
    the hip within ``comfort_extension`` (the heel lifts before the pelvis drops)."""
    gait, legs, feet = w.rig.gait, w.rig.legs, s.feet
    progress = stance_progress(w, s, pace.duty[:, None])
    moving = clamp(np.abs(s.vx) / (0.4 * gait.walk_speed), 0.0, 1.0)[:, None]
    loading = w.rig.tuning.loading * pace.stance_time[:, None]
    landing = landing_roll(feet, loading)
    # the heel lift takes over from the landing roll only once it is done, gradually
    settled = smoothstep((feet.stance_age - loading) / loading)
    lift = heel_lift_schedule(progress, moving, legs) * settled
    hips = xy(hips_x(w, s, s.x), s.y[:, None])
    facing = s.facing[:, None]
    # rolled only as far as the leg needs to stay inside its lock extension (the pelvis
    # aims lower, at the comfort extension, so this is the margin, not the rule)
    reach = (gait.lock_extension - w.rig.tuning.roll_margin) * legs.limb.reach
    limits = roll_limits(hips[..., 0], feet.lock, facing, roll_side(feet, landing), legs)
    need_up, need_down = needed_pitch(feet.lock, feet.angle, facing, hips, reach, limits, legs)
    # the landing roll settles on its own, the heel lifts on schedule, and whatever the
    # schedule the leg gets at least the roll it needs to reach (within the limits)
    _, max_down = limits
    scheduled = np.where(landing != 0.0, landing, clamp(lift, -max_down, 0.0))
    pitch = np.minimum(scheduled, np.where(need_down < 0.0, need_down, np.inf))
    pitch = np.maximum(pitch, np.where(need_up > 0.0, need_up, -np.inf))
    feet.pitch = np.where(feet.planted & ~s.turning[:, None], pitch, 0.0)


def over_support(w: World, s: WalkState, x: FloatArray, dt: float) -> FloatArray:
    """Pelvis x (N,) this step for pelvises at ``x`` standing at rest (:func:`at_rest`):
    moved toward where it stands (:func:`rest_goal`; an eased approach to its support's
    end would creep up to it for ever) at ``shift_time`` (at most ``shift_speed``). So a
    body at rest stands over its feet, over the tread both feet are on or between
    two treads (stopped on a flight, a step aimed at its standing spot lands on the tread
    above a nose and left the pelvis over the tread below, about to topple backwards).
    The velocity is left alone: the shift is no walk (no step follows it)."""
    tune = w.rig.tuning
    rows = np.flatnonzero(at_rest(w, s))
    if not len(rows):
        return x
    # (the support read on the resting characters' rows only)
    at = x[rows]
    goal = rest_goal(w, s if len(rows) == s.count else rows_of(s, rows), at)
    speed = clamp((goal - at) / tune.shift_time, -tune.shift_speed, tune.shift_speed)
    moved = x.copy()
    moved[rows] = at + speed * dt
    return moved


def move_pelvis(
    w: World, s: WalkState, x_free: FloatArray, pace: Pace, support: Support, dt: float
) -> None:
    """Move each pelvis to ``x_free`` (where its velocity takes it; at rest, toward over
    its feet: :func:`over_support`) at its height this step, held back where a planted leg
    could not follow, lowered where one would over-stretch. Writes ``s.x``, ``s.y``,
    ``s.vx`` (where held), ``s.vy``."""
    x_old = s.x
    x_free = over_support(w, s, x_free, dt)
    y_new = pelvis_height(w, s, x_free, pace, support, dt)
    x_new = hold_planted(w, s, x_old, x_free, y_new, support)
    y_new = cap_pelvis(w, s, x_new, y_new, support, dt)
    s.vx = np.where(x_new != x_free, (x_new - x_old) / dt, s.vx)
    s.vy = (y_new - s.y) / dt
    s.x, s.y = x_new, y_new


def stand_feet(w: World, s: WalkState, pinned: BoolArray) -> Feet:
    """Both feet planted flat at their standing spots (returned) and the pelvis at standing
    height (writes ``s.x`` clamped to the world, ``s.y``, ``s.vy``, ``s.turn``, ``s.phase``);
    ``pinned`` (N, 2): the feet held by the mouse."""
    legs, gait = w.rig.legs, w.rig.gait
    lo, hi = w.terrain.x_range
    s.x = clamp(s.x, lo, hi)
    s.turn = np.zeros(s.count)
    foot_x = s.x[:, None] + FOOT_SIDE * gait.stance_spread
    facing = np.broadcast_to(s.facing[:, None], foot_x.shape)
    _, chord, _ = sole_fits(w.terrain, foot_x, facing, w.rig)
    angles = clamp(chord, -legs.max_tilt, legs.max_tilt)
    ankle_y = rest_on_ground(w.terrain, foot_x, angles, facing, legs)
    ankles = xy(foot_x, ankle_y)
    ray_from = ankles + np.array([0.0, legs.limb.reach])
    feet = Feet.standing(ankles, angles, ray_from)
    feet.pinned = pinned.copy()
    ground = w.terrain.height_at(s.x)
    s.y = ground + legs.ankle_height + gait.stand_extension * legs.limb.reach
    s.vy = np.zeros(s.count)
    # the gait starts with the far foot, whichever side that is (mirror images)
    s.phase = np.where(s.facing > 0, 0.0, 0.5)
    return feet
