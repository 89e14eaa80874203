"""The gait's feet: the phase advancing at the stride rate, swings progressing and landing
(a landing is an event that re-syncs the phase), the lift rules that decide which planted
foot steps, and the start of a swing toward a landing spot chosen on the ground.
"""

from __future__ import annotations

import numpy as np

from game.world.easing import braking_travel, clamp, halflife_travel
from game.world.gait import (
    FOOT_SIDE,
    MIN_RISER,
    PHASE_OFFSET,
    RISER_WINDOW,
    Pace,
    duty_factor,
    half_stride,
    landing_pitch,
    plan_landing,
    rest_on_ground,
    sole_fits,
    sole_points,
    stance_pose,
    stride_rate,
)
from game.world.lift_rules import (
    LIFT_RULES,
    choose_lifts,
    latch_due,
    may_lift,
    read_context,
    resync_phase,
)
from game.world.locomotion import Wish
from game.world.pose import PoseInputs
from game.world.speed import approach, climb_cap
from game.world.support import Support, hip_x_range, planted_support
from game.world.timing import (
    flight_between,
    foot_phase,
    hips_x,
    speed_halflife,
    speed_soon,
    squaring_up,
    stance_feet,
    timed,
    trailing_foot,
)
from game.world.turning import settled
from game.world.walker_state import LEGS, BoolArray, FloatArray, WalkState, World


def advance_phase(
    w: World, s: WalkState, v_target: FloatArray, grade: FloatArray, dt: float
) -> None:
    """The gait phase advances at the stride rate for the speed a step is timed for (at
    least the starting cadence while the feet still have to step), and holds while
    standing; setting off, the front foot is put near mid-stance."""
    speed = np.maximum(np.abs(speed_soon(w, s, v_target)), np.abs(v_target) * 0.25)
    # squaring up (for a pivot, or standing) steps briskly, at a slow walk's cadence
    speed = np.where(
        squaring_up(w, s, v_target), np.maximum(speed, w.rig.tuning.square_up_speed), speed
    )
    speed = timed(w, s, speed)
    rate = stride_rate(speed, grade * np.sign(s.vx), w.rig.gait)
    hold = settled(w, s, v_target) | s.turning
    idle = hold | (np.abs(v_target) < w.rig.tuning.still_speed)
    starting = s.idle & ~idle
    if starting.any():
        # setting off (from standing, a stop or a pivot): the foot in front is near mid-
        # stance (the other's phase then inside its lift window: it steps at once), so it
        # lifts once the hip has passed over it (its stance was a whole one, or whatever
        # the stop left: the body outran it, the pelvis dipped 13 cm and the hip was held
        # back, the speed falling 40 % in a step)
        feet = s.feet
        at = np.where(feet.swinging, feet.land[..., 0], feet.lock[..., 0])  # a swing lands
        ahead = np.argmax(at * np.sign(v_target)[:, None], axis=1)
        into_stance = w.rig.tuning.set_off_stance * duty_factor(speed, w.rig.gait)
        s.phase = np.where(starting, (into_stance - PHASE_OFFSET[ahead]) % 1.0, s.phase)
    s.idle = idle
    s.phase = np.where(hold, s.phase, (s.phase + rate * dt) % 1.0)


def advance_swings(
    w: World, s: WalkState, dt: float, x_new: FloatArray, pace: Pace, v_target: FloatArray
) -> None:
    """Swings progress; a foot at the end of its arc plants once its leg can hold it
    there (until then it hovers over the spot while the pelvis comes down). A late
    landing re-syncs the gait phase."""
    rig, feet = w.rig, s.feet
    swinging = feet.swinging
    feet.u = np.where(swinging, feet.u + dt / feet.duration, feet.u)
    feet.stance_age = feet.stance_age + dt
    landed = swinging & (feet.u >= 1.0)
    if not landed.any():  # (most steps: no swing at its end)
        return
    hip_x = x_new[:, None] + FOOT_SIDE * rig.body.hip_depth
    reach = rig.gait.lock_extension * rig.legs.limb.reach
    distance = np.hypot(hip_x - feet.land[..., 0], s.y[:, None] - feet.land[..., 1])
    # (at a steady pace: the first steps of a run from standing reach their spots in a
    # frame or two as the pelvis comes down; landed short, they shifted the run's phases)
    steady = np.abs(s.vx) >= np.abs(v_target) - w.rig.tuning.steady_margin
    short = landed & (distance > reach) & steady[:, None]
    if short.any():
        land_short(w, s, short, hip_x, reach)
        distance = np.hypot(hip_x - feet.land[..., 0], s.y[:, None] - feet.land[..., 1])
    landed &= distance <= reach  # holdable
    feet.lock = np.where(landed[..., None], feet.land_lock, feet.lock)
    feet.angle = np.where(landed, feet.land_ground, feet.angle)
    feet.pitch = np.where(landed, feet.land_pitch, feet.pitch)
    feet.planted |= landed
    feet.stance_age = np.where(landed, 0.0, feet.stance_age)
    feet.steps += landed.sum(axis=1)
    # a foot that lands late (its phase already in its stance) restarts its stance, so
    # the other foot's lift waits for it instead of leaving it a stance of nothing
    late = landed & (foot_phase(w, s) < pace.duty[:, None] * w.rig.tuning.late_landing)
    leg = np.argmax(late, axis=1)
    s.phase = np.where(late.any(axis=1), (-PHASE_OFFSET[leg]) % 1.0, s.phase)


def land_short(w: World, s: WalkState, short: BoolArray, hip_x: FloatArray, reach: float) -> None:
    """Move the landings in ``short`` (N, 2), at the end of their swings but just out of
    the leg's ``reach`` from ``hip_x``, back toward the hip to the farthest spot it holds,
    where that is at most ``short_landing`` back and the sole fits there on ground at the
    same angle (the landing's roll stays as planned; the distance is checked again before
    it plants): the foot lands a little short instead of hovering over its spot while the
    other leg, at full stretch, held the hip (up to 0.8 m/s lost in a step at the top
    landing's edge, the pelvis a centimetre too high for a spot 0.2 m ahead)."""
    feet = s.feet
    n, f = np.nonzero(short)
    land = feet.land[n, f]
    dy = s.y[n] - land[:, 1]
    ahead = np.sign(land[:, 0] - hip_x[n, f])
    # Pythagoras: at dy below the hip, the leg holds a foot up to √(R² − dy²) away
    holds = hip_x[n, f] + ahead * np.sqrt(np.maximum(reach * reach - dy * dy, 0.0))
    back = (land[:, 0] - holds) * ahead  # > 0: how far short it must land
    x = feet.land_lock[n, f, 0] - ahead * (back + 1e-4)
    legs, facing = w.rig.legs, s.facing[n]
    fits, chord, _ = sole_fits(w.terrain, x, facing, w.rig)
    angle = clamp(chord, -legs.max_tilt, legs.max_tilt)
    # the same ground angle: the landing's roll (its pitch) stays as planned
    same = np.abs(angle - feet.land_ground[n, f]) < 1e-9
    ok = (back > 0.0) & (back <= w.rig.tuning.short_landing) & fits & same & (dy < reach)
    # asked to run (squaring up to stop or turn round, a step keeps its spot: the feet
    # pivot there; walking, the spots are reached in time)
    ok &= s.sprinting[n] & ~s.reversing[n] & ~s.turning[n]
    if not ok.any():
        return
    n, f, x, angle = n[ok], f[ok], x[ok], angle[ok]
    lock = np.stack([x, rest_on_ground(w.terrain, x, angle, s.facing[n], legs)], -1)
    pose = stance_pose(lock, angle, feet.land_pitch[n, f], s.facing[n], legs)
    feet.land_lock[n, f] = lock
    feet.land[n, f], feet.land_angle[n, f], feet.land_bend[n, f] = pose


def lift_feet(
    w: World,
    s: WalkState,
    x_new: FloatArray,
    v_target: FloatArray,
    pace: Pace,
    grade: FloatArray,
    support: Support,
) -> None:
    """Planted feet the lift rules mark (:mod:`game.world.lift_rules`, in order) lift
    toward their landing spots, at most one per character a step. Walking, a foot lifts
    only while the other is down; running, also while the other is swinging (a flight),
    but never while it hovers unable to land."""
    latch_due(w, s, pace.duty[:, None])
    ctx = read_context(w, s, x_new, v_target, pace)
    marks = (np.zeros_like(s.feet.planted), np.zeros_like(s.feet.planted))
    for rule in LIFT_RULES:
        marks = rule(w, s, ctx, support, marks)
    can = may_lift(w, s, ctx, v_target, marks)
    if not can.any():  # (most steps)
        return
    lift = choose_lifts(w, s, ctx, can, marks[1])
    if lift.any():
        resync_phase(s, lift, marks[1], pace.duty)
        ankles, angles, bends = stance_feet(w, s)
        start_swings(w, s, lift, ankles, angles, bends, x_new, v_target, grade, support)


def start_swings(
    w: World,
    s: WalkState,
    mask: BoolArray,
    ankles: FloatArray,
    angles: FloatArray,
    bends: FloatArray,
    x_new: FloatArray,
    v_target: FloatArray,
    grade: FloatArray,
    support: Support,
) -> None:
    """Lift the feet in ``mask`` (N, 2) from ``ankles`` (N, 2, 2), sole ``angles`` and
    toe ``bends`` (N, 2) toward spots predicted from the body's velocity on ground of
    ``grade`` (N,), within what the other foot's ``support`` allows."""
    rig, gait, legs = w.rig, w.rig.gait, w.rig.legs
    feet = s.feet
    n, f = np.nonzero(mask)
    start = ankles[n, f].copy()
    soon = speed_soon(w, s, v_target)
    pace = np.where(
        squaring_up(w, s, v_target),
        np.maximum(np.abs(soon), w.rig.tuning.square_up_speed),
        soon,
    )
    reversing = s.reversing[n]
    # a squaring step (toward a pivot, or stopping) is short: quick, whatever the cadence
    # (stopping from a run, a 0.5 s running swing let the hip carry on 0.85 m past the
    # planted foot and the pelvis sank 26 cm)
    duration = Pace.at(timed(w, s, pace), grade, gait).swing_time[n]
    squaring = squaring_up(w, s, v_target)[n]
    duration = np.where(squaring, np.minimum(duration, w.rig.tuning.squaring_swing), duration)
    # the last foot on a flight lifting off it, walking: the flight's pace lets go (see
    # _unblocked), so its spot is planned for the walk's pace (planned for the flight's,
    # it landed beside the hip and the next step was taken from behind)
    v_target = v_target.copy()
    direction = np.sign(s.v_goal)
    trailing = trailing_foot(w, s, direction, mask)[n]  # once this foot has lifted
    ahead = x_new[n] + direction[n] * gait.max_step_reach
    off = ~flight_between(w, s, trailing, ahead)
    off &= ~s.sprinting[n] & ~squaring_up(w, s, v_target)[n] & (v_target[n] != 0.0)
    v_target[n] = np.where(off, s.v_goal[n], v_target[n])
    # where the hip will be at touchdown, and how fast it will be going then
    halflife = speed_halflife(w, s, v_target)[n]
    hip_land = x_new[n] + halflife_travel(s.vx[n], v_target[n], duration, halflife)
    # ... walking, slowing for a flight ahead as it gets there (timed for the pace here,
    # a step onto a flight's first tread landed from far back: the next could not reach
    # the second and came down beside it)
    terrain = w.terrain
    cap = approach(
        w,
        s,  # (read for the lifting feet only)
        terrain.risers(MIN_RISER, RISER_WINDOW),
        terrain.treads(MIN_RISER, RISER_WINDOW),
        np.sign(v_target[n]),
        s.sprinting[n],
        hip_land,
    )
    v_target = v_target.copy()
    # (running keeps its aim: capping a run's aim so bent its landing knee to 82°)
    walking = ~s.sprinting[n]
    v_target[n] = np.where(walking, np.clip(v_target[n], -cap, cap), v_target[n])
    # ... and, walking or running, held to the climb's pace on a steep slope there
    # (planned on the flat before one, a run's step landed 1.4 m ahead of the hip and
    # 0.3 m up the slope; the body, held to that pace once on it, lunged: the stance
    # knee at 94°, the pelvis 24 cm low)
    climb = climb_cap(w, s, hip_land, np.sign(v_target[n]))
    v_target[n] = np.clip(v_target[n], -climb, climb)
    halflife = speed_halflife(w, s, v_target)[n]  # (braking now, where the cap binds)
    hip_land = x_new[n] + halflife_travel(s.vx[n], v_target[n], duration, halflife)
    # ... or, braking to turn round, where it will stop (step's brake law)
    if reversing.any():
        stop = braking_travel(s.vx[n], np.inf, gait.accel_halflife, w.rig.tuning.reversal_brake)
        hip_land = np.where(reversing, x_new[n] + stop, hip_land)
    # ... but never past where the other leg, if it stays down, can carry the hip
    hip_x = hips_x(w, s, s.x)
    offset = hip_x - s.x[:, None]
    lo, hi = hip_x_range(w, s, support, s.y[:, None], gait.lock_extension)
    other = feet.planted[n, 1 - f]
    lo_other, hi_other = lo[n, 1 - f] - offset[n, 1 - f], hi[n, 1 - f] - offset[n, 1 - f]
    # (not the stop a reversal brakes to: the other foot steps to its own spot too)
    hip_land = np.where(other & ~reversing, clamp(hip_land, lo_other, hi_other), hip_land)
    decay = 2.0 ** (-duration / halflife)
    v_land = v_target[n] + (s.vx[n] - v_target[n]) * decay
    stance = support.pace.stance_time[n]  # at the step's pace
    # each foot lands relative to its own hip; standing, the feet spread fore and aft
    still = 1.0 - clamp(np.abs(v_land) / (0.5 * gait.walk_speed), 0.0, 1.0)
    spread = FOOT_SIDE[f] * (rig.body.hip_depth + gait.stance_spread * still)
    predicted = hip_land + half_stride(v_land, stance, gait) + spread
    # about to pivot: the ball right under the pelvis where it stops
    pivot_spot = hip_land - s.facing[n] * legs.ball
    predicted = np.where(reversing, pivot_spot, predicted)
    facing = s.facing[n]
    from_lock = np.where(feet.planted[n, f][:, None], feet.lock[n, f], start)
    beside = np.where(feet.planted[n, 1 - f], feet.lock[n, 1 - f, 0], np.nan)
    # ... and, down or in the air (a run's flight), where it is or will be
    other_x = np.where(feet.planted, feet.lock[..., 0], feet.land_lock[..., 0])[n, 1 - f]
    lock, ground, ray_from, ray_hit = plan_landing(
        w.terrain,
        rig,
        from_lock,
        predicted,
        s.y[n],
        facing,
        reversing,
        beside,
        other_x,
        w.obstacles,
        squaring & ~reversing,
    )
    start_ground = w.terrain.height_at(from_lock[:, 0])
    land_ground_y = w.terrain.height_at(lock[:, 0])
    pitch = landing_pitch(start_ground, land_ground_y, lock[:, 0] - from_lock[:, 0], rig)
    # a squaring step lands flat: the pivot waits for flat feet, not for a heel strike
    # to roll out
    pitch = np.where(reversing, 0.0, pitch)
    # no heel strike where the heel overhangs a drop (a pivot spot may, or a last-resort
    # spot): the landing roll would turn the foot about a heel in the air
    heel = sole_points(lock, ground, np.zeros_like(ground), facing, legs)[:, 0]
    heel_down = w.terrain.height_at(heel[:, 0]) >= heel[:, 1] - w.rig.tuning.heel_support
    pitch = np.where(heel_down, pitch, np.minimum(pitch, 0.0))
    land, land_angle, land_bend = stance_pose(lock, ground, pitch, facing, legs)
    feet.start[n, f] = start
    feet.start_angle[n, f] = angles[n, f]
    feet.start_bend[n, f] = bends[n, f]
    feet.land[n, f] = land
    feet.land_lock[n, f] = lock
    feet.land_angle[n, f] = land_angle
    feet.land_bend[n, f] = land_bend
    feet.land_ground[n, f] = ground
    feet.land_pitch[n, f] = pitch
    length = np.abs(lock[:, 0] - from_lock[:, 0])
    # ... and a short one quicker still: a foot 19 cm off its pivot spot took the whole
    # 0.3 s, the body standing still facing the old way while it swung
    # (on the level: up or down a stair the quicker foot's knee moved 11-13 cm a frame)
    # (the ground's heights: a swing re-aimed in the air starts high above its ground,
    # and its 0.3 s swing, read as a step up, let the braking hip leave the planted foot
    # behind, the pelvis sinking 12 cm)
    level = np.abs(land_ground_y - start_ground) < MIN_RISER
    quick = w.rig.tuning.squaring_swing * clamp(length / w.rig.tuning.squaring_step, 0.75, 1.0)
    duration = np.where(squaring & reversing & level, np.minimum(duration, quick), duration)
    feet.lift[n, f] = gait.lift_height * clamp(0.3 + length / gait.max_step_reach, 0.0, 1.0)
    feet.land_dx[n, f] = hip_land + FOOT_SIDE[f] * rig.body.hip_depth - land[:, 0]
    feet.aim[n, f] = predicted
    feet.pivot_aim[n, f] = reversing
    feet.ray_from[n, f] = ray_from
    feet.ray_hit[n, f] = ray_hit
    feet.u[n, f] = 0.0
    feet.floor[n, f] = -np.inf
    feet.hold[n, f] = 0.0  # measured at the swing's first pose (swing_pose)
    feet.duration[n, f] = duration
    feet.planted[n, f] = False
    feet.due[n, f] = False
    feet.relaunched[n, f] = False


def update_pins(
    w: World,
    s: WalkState,
    pinned: BoolArray | None,
    solved_ankles: FloatArray,
    x_new: FloatArray,
    v_target: FloatArray,
    grade: FloatArray,
) -> None:
    """Feet newly held (``pinned`` (N, 2), None: none) leave the ground; feet let go of
    swing back into the gait from where they were shown (``solved_ankles`` (N, 2, 2))."""
    feet = s.feet
    if pinned is None:
        pinned = np.zeros_like(feet.pinned)
    grabbed = pinned & ~feet.pinned
    released = feet.pinned & ~pinned
    feet.planted &= ~grabbed
    feet.pinned = pinned.copy()
    if released.any():
        ankles = solved_ankles
        zeros = np.zeros_like(feet.angle)
        support = planted_support(w, s, Pace.at(timed(w, s, s.vx), grade, w.rig.gait))
        start_swings(w, s, released, ankles, feet.angle, zeros, x_new, v_target, grade, support)


def relaunch_swings(
    w: World,
    s: WalkState,
    wish: Wish,
    shown: PoseInputs,
    x_free: FloatArray,
    v_target: FloatArray,
    grade: FloatArray,
    support: Support,
) -> None:
    """Swings that re-aim from where the foot was last ``shown``: one hovering at a spot it
    still cannot reach, one aimed for the old pace when a reversal brakes or the walk stops
    (but not one about to land where the stopped hip stands over it), and one re-aimed for
    a stop when the walk resumes. A re-aimed foot comes down within a squaring step's time."""
    gait, tune, feet = w.rig.gait, w.rig.tuning, s.feet
    relaunch = feet.swinging & (feet.u > tune.hover_limit)
    if (wish.braking | wish.stopping).any():  # (most steps neither brake nor stop)
        stop = braking_travel(s.vx, np.inf, gait.accel_halflife, tune.reversal_brake)
        over = np.abs(feet.land[..., 0] - (x_free + stop)[:, None]) <= tune.lands_near
        late = (feet.u >= tune.late_swing) & over
        relaunch |= feet.swinging & (wish.braking | wish.stopping)[:, None] & ~late
    relaunch |= feet.swinging & feet.relaunched & wish.resuming[:, None]
    if relaunch.any():
        at, angle, bend = shown.targets[:, LEGS], shown.foot_angle, shown.foot_bend
        start_swings(w, s, relaunch, at, angle, bend, x_free, v_target, grade, support)
        feet.relaunched |= relaunch
        quick = np.minimum(feet.duration, tune.squaring_swing)
        feet.duration = np.where(relaunch, quick, feet.duration)
