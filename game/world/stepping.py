"""The gait's feet: the phase advancing at the stride rate, swings progressing and landing
(a landing is an event that re-syncs the phase), the lift rules that decide which planted
foot steps, and the start of a swing toward a landing spot chosen on the ground.
"""

from __future__ import annotations

import numpy as np

from game.world.easing import any_last, braking_travel, clamp, wrap01
from game.world.feet import FOOT_SIDE, rest_on_ground, sole_fits, stance_pose
from game.world.gait import PHASE_OFFSET, Pace, duty_factor, stride_rate
from game.world.landing import plan_landing
from game.world.lift_rules import (
    LIFT_RULES,
    choose_lifts,
    latch_due,
    may_lift,
    read_context,
    resync_phase,
    settled_among,
)
from game.world.locomotion import Wish
from game.world.pose import PoseInputs
from game.world.support import Support, planted_support
from game.world.swing_start import (
    Landing,
    begin_swing,
    hip_at_touchdown,
    predicted_spot,
    support_rows,
    swing_timing,
)
from game.world.timing import (
    foot_phase,
    foot_x,
    speed_soon,
    squaring_up,
    stance_feet,
    timed,
)
from game.world.types import BoolArray, FloatArray
from game.world.walker_state import LEGS, WalkState, World, rows_of, some_rows


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
    standing = np.abs(v_target) < w.rig.tuning.still_speed
    hold = settled_among(w, s, v_target, standing) | s.turning
    idle = hold | standing
    starting = s.idle & ~idle
    if starting.any():
        # setting off (from standing, a stop or a pivot): the foot in front is near mid-
        # stance (the other's phase then inside its lift window: it steps at once), so it
        # lifts once the hip has passed over it (not after a whole stance, or whatever the
        # stop left: the body would outrun it, the pelvis dip and the hip be held back, the
        # speed falling sharply in a step)
        feet = s.feet
        at = np.where(feet.swinging, feet.land[..., 0], feet.lock[..., 0])  # a swing lands
        ahead = np.argmax(at * np.sign(v_target)[:, None], axis=1)
        lead = s.intent.lead_foot
        ahead = np.where(lead >= 0, 1 - lead, ahead)  # (asked to lead: the other stays)
        into_stance = w.rig.tuning.set_off_stance * duty_factor(speed, w.rig.gait)
        s.phase = np.where(starting, wrap01(into_stance - PHASE_OFFSET[ahead]), s.phase)
    s.idle = idle
    s.phase = np.where(hold, s.phase, wrap01(s.phase + rate * dt))


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
    # frame or two as the pelvis comes down; landed short, they would shift the run's phases)
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
    s.phase = np.where(any_last(late), wrap01(-PHASE_OFFSET[leg]), s.phase)


def land_short(w: World, s: WalkState, short: BoolArray, hip_x: FloatArray, reach: float) -> None:
    """Move the landings in ``short`` (N, 2), at the end of their swings but just out of
    the leg's ``reach`` from ``hip_x``, back toward the hip to the farthest spot it holds,
    where that is at most ``short_landing`` back and the sole fits there on ground at the
    same angle (the landing's roll stays as planned; the distance is checked again before
    it plants): the foot lands a little short instead of hovering over its spot while the
    other leg, at full stretch, holds the hip (which can cost up to 0.8 m/s in a step: at
    a top landing's edge the pelvis can stand a centimetre too high for a spot 0.2 m
    ahead)."""
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
    if ctx is None:  # (most steps: no foot may lift)
        return
    # the rules read the characters with a foot that may lift only
    rows, few, feet = ctx.rows, ctx.state, s.feet
    few_support = support if len(rows) == s.count else support_rows(support, rows)
    marks = (np.zeros_like(few.feet.planted), np.zeros_like(few.feet.planted))
    for rule in LIFT_RULES:
        marks = rule(w, few, ctx, few_support, marks)
    can = may_lift(w, few, ctx, v_target[rows], marks)
    if not can.any():  # (most steps)
        return
    lift, strained = np.zeros_like(feet.planted), np.zeros_like(feet.planted)
    lift[rows], strained[rows] = choose_lifts(w, few, ctx, can, marks[1]), marks[1]
    if lift.any():
        resync_phase(s, lift, strained, pace.duty)
        # the lifting feet's poses, read for their characters only (the rest stay NaN);
        # one foot a character, so these are the rows start_swings reads too
        rows = np.flatnonzero(any_last(lift))
        lifting = some_rows(s, rows, s.count)
        ankles = np.full(s.feet.lock.shape, np.nan)
        angles, bends = np.full(lift.shape, np.nan), np.full(lift.shape, np.nan)
        ankles[rows], angles[rows], bends[rows] = stance_feet(w, lifting)
        start_swings(w, s, lift, ankles, angles, bends, x_new, v_target, grade, support, lifting)


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
    lifting: WalkState | None = None,
    longest: float = np.inf,
    as_is: BoolArray | None = None,
    stands_on: FloatArray | None = None,
) -> None:
    """Lift the feet in ``mask`` (N, 2) from ``ankles`` (N, 2, 2), sole ``angles`` and
    toe ``bends`` (N, 2) toward spots predicted from the body's velocity on ground of
    ``grade`` (N,), within what the other foot's ``support`` allows: the swing's timing,
    where the hip will be at touchdown, the spot predicted from it, the landing fitted to
    the ground there (:func:`game.world.gait.plan_landing`), then the swing begins.
    ``lifting``: the rows of ``s`` that ``mask``'s feet are on (:func:`rows_of`, one per
    foot, in order), when the caller has them already; ``longest``: the most a swing may
    take (s), its spot planned for the hip where it will be then; ``as_is`` (N, 2): the
    feet whose spots are planned for the pace the body keeps, not the one wished;
    ``stands_on`` (N, 2, 2): for feet not planted, the flat-foot ankle on the ground their
    step is planned from (how high a spot may be, the landing's pitch), where it is not
    the ankle they leave from (a foot let go of, up in the air)."""
    n, f = np.nonzero(mask)
    # the swing's timing and the hip at touchdown read only these characters' rows
    if lifting is None:
        lifting = rows_of(s, n)
    duration, squaring = swing_timing(w, lifting, v_target[n], grade[n])
    duration = np.minimum(duration, longest)
    hip_land, v_land = hip_at_touchdown(
        w,
        lifting,
        f,
        mask[n],
        x_new[n],
        v_target[n],
        duration,
        support_rows(support, n),
        None if as_is is None else as_is[n, f],
    )
    predicted = predicted_spot(w, s, n, f, hip_land, v_land, support)
    feet, reversing = s.feet, s.reversing[n]
    start = ankles[n, f].copy()
    off_ground = start if stands_on is None else stands_on[n, f]
    from_lock = np.where(feet.planted[n, f][:, None], feet.lock[n, f], off_ground)
    beside = np.where(feet.planted[n, 1 - f], feet.lock[n, 1 - f, 0], np.nan)
    # ... and, down or in the air (a run's flight), where it is or will be
    other_x = foot_x(s)[n, 1 - f]
    lock, ground, ray_from, ray_hit = plan_landing(
        w.terrain,
        w.rig,
        from_lock,
        predicted,
        s.y[n],
        s.facing[n],
        reversing,
        beside,
        other_x,
        w.kept_off,
        squaring & ~reversing,
    )
    # standing (no walk wished, not turning round), a planted foot whose step would land
    # within the stance's spread of where it stands (a shuffle, not a step: an obstacle in
    # the way, or there already) does not lift: its aim is taken as stepped
    # (:func:`~game.world.turning.on_spots`), so it is not asked again
    stays = feet.planted[n, f] & (s.wanted[n] == 0.0) & ~reversing
    stays &= np.abs(lock[:, 0] - from_lock[:, 0]) < w.rig.gait.stance_spread
    feet.aim[n[stays], f[stays]] = predicted[stays]
    go = ~stays
    landing = Landing(lock[go], ground[go], ray_from[go], ray_hit[go], predicted[go], hip_land[go])
    lift_off = (start[go], angles[n, f][go], bends[n, f][go])
    begin_swing(w, s, n[go], f[go], lift_off, from_lock[go], landing, duration[go], squaring[go])


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
    swing back into the gait from where they were shown (``solved_ankles`` (N, 2, 2)), a
    step planned from the ground the body stands on: the other foot's where it is down,
    else the foot's own last lock (not the ground under where it was held: that may be a
    wall's top it was held against, far out of the leg's reach)."""
    feet = s.feet
    if pinned is None:
        pinned = np.zeros_like(feet.pinned)
    if not (pinned != feet.pinned).any():  # (most steps: no foot grabbed or let go)
        return
    grabbed = pinned & ~feet.pinned
    released = feet.pinned & ~pinned
    feet.planted &= ~grabbed
    feet.pinned = pinned.copy()
    if released.any():
        ankles = solved_ankles
        zeros = np.zeros_like(feet.angle)
        support = planted_support(w, s, Pace.at(timed(w, s, s.vx), grade, w.rig.gait))
        other_down = feet.planted[:, ::-1, None]
        stands_on = np.where(other_down, feet.lock[:, ::-1], feet.lock)
        start_swings(
            w,
            s,
            released,
            ankles,
            feet.angle,
            zeros,
            x_new,
            v_target,
            grade,
            support,
            stands_on=stands_on,
        )


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
    swinging = feet.swinging
    count = feet.relaunches.copy()
    hovering = swinging & (feet.u > tune.hover_limit)
    relaunch = hovering.copy()
    # the wish re-aims a swing for a stop only before its second re-aim, and for the walk
    # resuming only right after the first: a wish that flickers (a key tapped faster than
    # a step) re-aims it twice at most, not at every change, which would keep it in the air.
    # A hovering foot is re-aimed for the pace the body keeps: planned for the pace wished,
    # a wish that flickers in step with the re-aims would never be reached
    if (wish.braking | wish.stopping).any():  # (most steps neither brake nor stop)
        stop = braking_travel(s.vx, np.inf, gait.accel_halflife, tune.reversal_brake)
        over = np.abs(feet.land[..., 0] - (x_free + stop)[:, None]) <= tune.lands_near
        late = (feet.u >= tune.late_swing) & over
        relaunch |= swinging & (count < 2) & (wish.braking | wish.stopping)[:, None] & ~late
    relaunch |= swinging & (count >= 1) & (count < 2) & wish.resuming[:, None]
    if relaunch.any():
        at, angle, bend = shown.targets[:, LEGS], shown.foot_angle, shown.foot_bend
        start_swings(
            w,
            s,
            relaunch,
            at,
            angle,
            bend,
            x_free,
            v_target,
            grade,
            support,
            longest=tune.squaring_swing,
            as_is=hovering,
        )
        more = np.minimum(count + 1, 2)  # (2: the most the rules above tell apart)
        feet.relaunches = np.where(relaunch, more, feet.relaunches).astype(np.int8)
