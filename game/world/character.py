"""N walking characters as structure-of-arrays: body, feet, pose inputs and one batched solve.

The walk scene is N = 1 (the hero); the crowd scene runs hundreds on the same code. One
fixed step is: intent → velocity (halflife; a reversal decelerates, then pivots in place)
→ gait phase (advancing at the stride rate for the speed) → feet (swings advance, landings
lock and re-sync the phase, feet whose phase passed the duty factor lift toward predicted
landing spots) → pelvis height (a critically damped spring toward standing height plus a
bob, lowered only where a leg cannot reach even with its heel lifted) → the hard limits that
keep planted legs in the solver's exact zone → stance rolls (heel strike, flat, heel lift)
→ pose inputs (roots, targets, poles) → one ``ik.solve_2d`` call for all 4·N limbs.
"""

from __future__ import annotations

import functools
import math
from contextlib import nullcontext
from dataclasses import dataclass, fields, replace
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

import ik
from game.profiling import PhaseTimer
from game.world.arms import (
    blend_hands,
    elbow_poles,
    follow_hands,
    hinge_poles,
    swing_hands,
)
from game.world.easing import (
    braking_travel,
    clamp,
    finite_clamp,
    halflife_blend,
    halflife_travel,
    smoothstep,
    xy,
)
from game.world.gait import (
    FOOT_SIDE,
    MAX_TREAD,
    MIN_RISER,
    PHASE_OFFSET,
    RISER_WINDOW,
    Feet,
    Pace,
    RolledFeet,
    duty_factor,
    foot_axes,
    half_stride,
    heel_hangs,
    heel_lift_schedule,
    landing_pitch,
    landing_roll,
    needed_pitch,
    pivot_spots,
    plan_landing,
    rest_on_ground,
    roll_limits,
    run_fraction,
    sole_fits,
    sole_points,
    spring_step,
    stance_pose,
    stride_rate,
    swing_pose,
    within_reach,
)
from game.world.rig import LegSpec, LimbSpec, Rig
from game.world.terrain import Terrain

FloatArray = NDArray[np.float64]
BoolArray = NDArray[np.bool_]

ARMS = slice(0, 2)
LEGS = slice(2, 4)
# where the speed cap reads the slope: a stride behind (−1), then fractions of the stopping
# distance ahead
_SLOPE_PROBES = np.array([-1.0, 0.0, 0.5, 1.0])
# the (N, ...) array attributes of a Crowd besides feet and poses (what resize carries over)
_PER_CHARACTER = (
    "x",
    "y",
    "vy",
    "facing",
    "vx",
    "phase",
    "idle",
    "lean",
    "turn",
    "turn_from",
    "reversing",
    "reversing_s",
    "settling",
    "stair_run",
    "jogging",
    "_v_goal",
    "sprinting",
    "knee_poles",
    "hand_weight",
    "hand_target",
    "pin_target",
    "knee_side",
    "knee_flips",
    "goal_x",
    "face_goal",
    "wanted",
    "blocked",
    "crouch",
    "crouch_goal",
)


@dataclass(frozen=True, slots=True)
class PoseInputs:
    """What the solve needs for N characters at one instant, plus what is drawn around it.

    Attributes
    ----------
    pelvis, chest, head : ndarray, shape (N, 2)
        Pelvis centre, the shoulder point at the top of the spine, the head centre.
    facing : ndarray, shape (N,)
        +1 (facing +x) or −1.
    spin : ndarray, shape (N,)
        The facing as it turns: ±1 normally, passing through 0 during a pivot (the body
        faces the camera; depth offsets, knee poles and feet shrink through the middle).
    roots, targets, poles : ndarray, shape (N, 4, 2)
        Per limb in :data:`game.world.rig.LIMBS` order: shoulder/hip, hand/ankle target,
        pole locator.
    pole_on : ndarray of bool, shape (N, 4)
        The pole hint is used; where it is off the solver gets a fixed world-up locator,
        the default a pole-less rig falls back to.
    foot_angle, foot_bend : ndarray, shape (N, 2)
        Sole angles and toe bends (radians).
    """

    pelvis: FloatArray
    chest: FloatArray
    head: FloatArray
    facing: FloatArray
    spin: FloatArray
    roots: FloatArray
    targets: FloatArray
    poles: FloatArray
    pole_on: BoolArray
    foot_angle: FloatArray
    foot_bend: FloatArray

    def lerp(self, later: PoseInputs, alpha: float) -> PoseInputs:
        """``alpha`` of the way from this pose to ``later`` (turns are continuous, so every
        input blends; the discrete facing and pole switches are ``later``'s)."""

        def mix(a: FloatArray, b: FloatArray) -> FloatArray:
            return a + (b - a) * alpha

        return PoseInputs(
            pelvis=mix(self.pelvis, later.pelvis),
            chest=mix(self.chest, later.chest),
            head=mix(self.head, later.head),
            facing=later.facing,
            spin=mix(self.spin, later.spin),
            roots=mix(self.roots, later.roots),
            targets=mix(self.targets, later.targets),
            poles=mix(self.poles, later.poles),
            pole_on=later.pole_on,
            foot_angle=mix(self.foot_angle, later.foot_angle),
            foot_bend=mix(self.foot_bend, later.foot_bend),
        )

    def soles(self, ankles: FloatArray, rig: Rig) -> FloatArray:
        """Heel, ball and toe of each foot with its ankle at ``ankles`` (N, 2, 2) (the
        solved ones): shape (N, 2, 3, 2)."""
        return sole_points(ankles, self.foot_angle, self.foot_bend, self.spin[:, None], rig.legs)


def knee_poles(
    hips: FloatArray, ankles: FloatArray, facing: FloatArray, legs: LegSpec
) -> FloatArray:
    """Knee pole locators ``pole_forward`` off the hip→ankle midpoint, on the front of the
    leg (:func:`hinge_poles` with ``−facing``: straight ahead for an upright leg). Turning
    with the leg, a knee keeps bending the one way a knee bends: a fixed point ahead of the
    midpoint fell behind the line when a dragged foot went up behind the hip (the knee
    flipped). ``hips``, ``ankles`` (N, 2, 2), ``facing`` (N,); returns (N, 2, 2)."""
    return hinge_poles(hips, ankles, -facing, legs.pole_forward)


@dataclass(frozen=True, slots=True)
class _Support:
    """What the planted feet allow the hips in one step (computed once, asked several times).

    Attributes
    ----------
    rolled : RolledFeet
        Every foot's ankle at each sampled stance pitch.
    landing : ndarray, shape (N, 2)
        The landing roll still settling (:func:`landing_roll`).
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


def solve_pose(rig: Rig, pose: PoseInputs) -> Any:
    """One batched ``ik.solve_2d`` for every limb of every character.

    Returns the solver's ``Solution2D`` with arrays of shape ``(N, 4, ...)``.
    """
    upper, lower, softness = _limb_constants(rig.arms.limb, rig.legs.limb)
    poles = pose.poles
    if not pose.pole_on.all():  # a limb without its pole bends toward world up
        poles = np.where(pose.pole_on[..., None], poles, pose.roots + np.array([0.0, 1.0]))
    # fallback side where a pole lies on the root→target line: knees forward, elbows back
    bend = pose.facing[:, None] * np.array([-1.0, -1.0, 1.0, 1.0])
    solution = ik.solve_2d(
        pose.roots, pose.targets, upper, lower, bend=bend, pole=poles, softness=softness
    )
    pivoting = np.flatnonzero(np.abs(pose.spin) != 1.0)
    if len(pivoting) == 0:
        return solution
    elbow = solution.elbow.copy()
    elbow[pivoting] = _seen_from_the_side(
        solution.elbow[pivoting],
        solution.hand[pivoting],
        pose.roots[pivoting],
        pose.spin[pivoting],
    )
    return replace(solution, elbow=elbow)


@functools.lru_cache(maxsize=8)  # one rig's constants, asked for every step
def _limb_constants(arm: LimbSpec, leg: LimbSpec) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Bone lengths and softness of the four limbs (arms, legs), read-only, shape (4,) each."""
    constants = (
        np.array([arm.upper, arm.upper, leg.upper, leg.upper]),
        np.array([arm.lower, arm.lower, leg.lower, leg.lower]),
        np.array([arm.softness, arm.softness, leg.softness, leg.softness]),
    )
    for array in constants:
        array.setflags(write=False)
    return constants


def _seen_from_the_side(
    elbow: NDArray[np.floating[Any]],
    hand: NDArray[np.floating[Any]],
    roots: FloatArray,
    spin: FloatArray,
) -> FloatArray:
    """The elbows and knees (M, 4, 2) of characters pivoting toward or away from the camera,
    as the side view sees them (``spin`` (M,), the solved ``elbow`` and ``hand``).

    A limb bends in the character's own sagittal plane, which turns with it: at ``spin`` s
    (the cosine of the pivot angle) the bend's offset from the root→hand line shows at |s|
    of its length, and end-on (s = 0) the joint lies on the line, as the feet foreshorten
    by s. Without this, the knees jumped from front to back (about 10 cm) at the step the
    knee poles crossed the legs mid-pivot. Bone lengths hold in 3-D, not in the drawing;
    ``elbow_angle`` stays the limb's own interior angle.
    """
    along = hand - roots
    offset = elbow - roots
    # the joint's foot on the root→hand line: root + along·(offset·along)/|along|²
    t = (offset * along).sum(axis=-1) / np.maximum((along * along).sum(axis=-1), 1e-12)
    foot = roots + along * t[..., None]
    return foot + np.abs(spin)[:, None, None] * (elbow - foot)


def _timing_speed(speed: FloatArray, quick: BoolArray, rig: Rig) -> FloatArray:
    """The speed the gait's timing is read at: ``speed``, or where ``quick`` (running on a
    flight) at least ``stair_run_timing``, so the steps quicken instead of lengthening past
    a tread."""
    fast = np.copysign(np.maximum(np.abs(speed), rig.tuning.stair_run_timing), speed)
    return np.where(quick, fast, speed)


def _flight_pace(tread: FloatArray, grade: FloatArray, quick: BoolArray, rig: Rig) -> FloatArray:
    """The speed (N,) whose step is one ``tread`` on a flight of ``grade`` (rise per run along
    the walk): ``tread · 2 · stride_rate``, a fixed point because the steps quicken with speed
    (it converges in a few rounds), timed by :func:`_timing_speed`."""
    pace = np.full(np.shape(tread), rig.gait.walk_speed)
    for _ in range(4):
        pace = tread * 2.0 * stride_rate(_timing_speed(pace, quick, rig), grade, rig.gait)
    return pace


def _with_row(array: NDArray[Any], n: int, row: NDArray[Any]) -> NDArray[Any]:
    """A copy of ``array`` with its row ``n`` replaced by ``row``."""
    out = array.copy()
    out[n] = row
    return out


class Crowd:
    """N characters walking one terrain; every array is ``(N, ...)``.

    Parameters
    ----------
    rig, terrain :
        The character type and the ground (swappable with :meth:`apply_assets`).
    x : array_like, shape (N,)
        Starting pelvis x.
    facing : array_like, shape (N,)
        Starting facing, +1 or −1.
    """

    def __init__(self, rig: Rig, terrain: Terrain, x: ArrayLike, facing: ArrayLike) -> None:
        self.rig = rig
        self.terrain = terrain
        self.obstacles = np.zeros((0, 3))  # things on the ground the feet keep off (x0, x1, top)
        self._swing_ground: tuple[Terrain, bytes, Terrain] | None = None  # (its key, then it)
        self._rolled: RolledFeet | None = None  # the last support's samples (_support)
        self.x = np.array(x, dtype=float).reshape(-1)
        n = self.x.shape[0]
        self.facing = np.sign(np.broadcast_to(np.asarray(facing, dtype=float), (n,))).copy()
        self.facing[self.facing == 0] = 1.0
        self.vx = np.zeros(n)
        self.vy = np.zeros(n)
        self.phase = np.zeros(n)  # gait phase in [0, 1): the left foot's
        self.idle = np.ones(n, dtype=bool)  # last step stood, pivoted or had nowhere to go
        self.lean = np.zeros(n)
        self.turn = np.zeros(n)  # pivot progress in [0, 1); 0 when not turning
        self.turn_from = self.facing.copy()  # the facing a pivot started from
        self.stair_run = np.zeros(n, dtype=bool)  # running on a flight: quick stair steps
        # asked to run where a steep slope holds the body to a climb's pace: a jog
        self.jogging: BoolArray = np.zeros(n, dtype=bool)
        self._v_goal = np.zeros(n)  # the walk's wanted velocity, before any slope or flight
        self.sprinting = np.zeros(n, dtype=bool)  # asked to run (the run input, moving)
        self.reversing = np.zeros(n, dtype=bool)  # wants to turn around, not pivoting yet
        self.reversing_s = np.zeros(n)  # ... for this many seconds
        self.settling = np.zeros((n, 2), dtype=bool)  # feet rising onto the ground after a pivot
        self.knee_poles = np.ones(n, dtype=bool)
        self.hand_weight = np.zeros((n, 2))  # 0: the hand swings, 1: it is at hand_target
        self.hand_target = np.zeros((n, 2, 2))
        self.pin_target = np.zeros((n, 2, 2))
        self.knee_side = np.zeros((n, 2))
        self.knee_flips = np.zeros(n, dtype=np.int64)
        self.goal_x = np.full(n, np.nan)  # a spot to walk to by an edge (walk_to), or NaN
        self.face_goal = np.zeros(n)  # the facing wanted while standing (turn_to), 0: none
        self.wanted = np.zeros(n)  # last step's walk direction (+1, -1; 0: none)
        self.blocked = np.zeros(n, dtype=bool)  # walking into ground a step cannot take
        self.crouch = np.zeros(n)  # 0 upright ... 1 a full crouch (crouch_to), at crouch_time
        self.crouch_goal = np.zeros(n)
        self.y = np.zeros(n)
        self.feet = self._stand(np.zeros((n, 2), dtype=bool))
        self.pose = self._pose_inputs(self._grade())
        self.prev_pose = self.pose
        self.solution = solve_pose(self.rig, self.pose)
        self.prev_solution = self.solution  # the solve of prev_pose (for drawing LOD)

    @property
    def count(self) -> int:
        """N, the number of characters."""
        return int(self.x.shape[0])

    @property
    def turning(self) -> BoolArray:
        """Characters pivoting in place this step, shape (N,)."""
        return self.turn > 0.0

    @property
    def spin(self) -> FloatArray:
        """The facing as it turns, shape (N,): ±1, through 0 mid-pivot (cosine of the
        pivot angle, so the foot's apparent length is its projection)."""
        turning = self.turning
        if not turning.any():
            return self.facing.copy()
        # the turn eases in (t²): the middle comes at t = 1/√2, when the pelvis, rising
        # through the pivot, has straightened the legs
        return np.where(turning, self.turn_from * np.cos(np.pi * self.turn**2), self.facing)

    def resize(self, count: int, x: ArrayLike, facing: ArrayLike) -> None:
        """Keep the first ``count`` characters exactly as they are; characters beyond the
        current N join standing at ``x``, ``facing`` (shape ``(count − N,)``, ignored when
        shrinking). The pose is re-solved so the solution has ``count`` rows."""
        kept = min(count, self.count)
        fresh = Crowd(self.rig, self.terrain, x, facing) if count > self.count else None

        def rows(mine: Any, theirs: Any) -> Any:
            if isinstance(mine, np.ndarray):
                part = mine[:kept]
                return part.copy() if theirs is None else np.concatenate([part, theirs])
            return type(mine)(
                **{
                    f.name: rows(getattr(mine, f.name), theirs and getattr(theirs, f.name))
                    for f in fields(mine)
                }
            )

        for name in _PER_CHARACTER:
            setattr(self, name, rows(getattr(self, name), getattr(fresh, name, None)))
        self.feet = rows(self.feet, fresh and fresh.feet)
        self.pose = rows(self.pose, fresh and fresh.pose)
        self.prev_pose = rows(self.prev_pose, fresh and fresh.prev_pose)
        self.solution = solve_pose(self.rig, self.pose)
        self.prev_solution = solve_pose(self.rig, self.prev_pose)

    # -- assets ------------------------------------------------------------------------
    def apply_assets(self, rig: Rig, terrain: Terrain) -> None:
        """Swap the rig and terrain (live reload): feet are set down on the new ground."""
        self.rig = rig
        self.terrain = terrain
        self.feet = self._stand(self.feet.pinned)
        self.pose = self._pose_inputs(self._grade())
        self.prev_pose = self.pose
        self.solution = solve_pose(self.rig, self.pose)
        self.prev_solution = self.solution

    def set_obstacles(self, spans: ArrayLike) -> None:
        """Things resting on the ground that the feet keep off (a cup set down on the floor),
        rows ``(x0, x1, top)``, world metres: a swinging foot clears each as it would a box
        standing there, and no foot lands on one. Empty: none."""
        self.obstacles = np.array(spans, dtype=float).reshape(-1, 3)

    @property
    def swing_ground(self) -> Terrain:
        """The ground a swinging foot clears: the terrain with the obstacles standing on it
        (rebuilt when either changes)."""
        if not len(self.obstacles):
            return self.terrain
        key = self.obstacles.tobytes()
        cached = self._swing_ground
        if cached is None or cached[0] is not self.terrain or cached[1] != key:
            cached = self._swing_ground = (
                self.terrain,
                key,
                self.terrain.with_boxes(self.obstacles),
            )
        return cached[2]

    def set_terrain(self, terrain: Terrain) -> None:
        """Swap the ground under the walkers (a live edit), keeping their state: a planted
        foot whose ground moved under its sole, or a swing whose landing spot moved, steps
        again onto the new ground; every other foot stays exactly where it is."""
        old, self.terrain = self.terrain, terrain
        legs, feet = self.rig.legs, self.feet
        # the sole from heel to toe under each foot's lock (planted) or landing (swinging)
        spot = np.where(feet.planted[..., None], feet.lock, feet.land)[..., 0]
        along = np.linspace(-legs.heel, legs.toe, 8) * self.facing[:, None, None]
        xs = spot[..., None] + along
        moved = np.abs(terrain.height_at(xs) - old.height_at(xs)).max(axis=-1) > 1e-4
        again = moved & ~feet.pinned
        if again.any():
            pose = self.pose  # the feet step off from where they are shown
            ankles, angles, bends = pose.targets[:, LEGS], pose.foot_angle, pose.foot_bend
            grade = self._grade()
            support = self._support(Pace.at(self._timed(self.vx), grade, self.rig.gait))
            self._start_swings(again, ankles, angles, bends, self.x, self.vx, grade, support)

    def _stand(self, pinned: BoolArray) -> Feet:
        """Both feet planted flat at their standing spots and the pelvis at standing height."""
        legs, gait = self.rig.legs, self.rig.gait
        lo, hi = self.terrain.x_range
        self.x = clamp(self.x, lo, hi)
        self.turn = np.zeros(self.count)
        foot_x = self.x[:, None] + FOOT_SIDE * gait.stance_spread
        facing = np.broadcast_to(self.facing[:, None], foot_x.shape)
        _, chord, _ = sole_fits(self.terrain, foot_x, facing, self.rig)
        angles = clamp(chord, -legs.max_tilt, legs.max_tilt)
        ankle_y = rest_on_ground(self.terrain, foot_x, angles, facing, legs)
        ankles = xy(foot_x, ankle_y)
        ray_from = ankles + np.array([0.0, legs.limb.reach])
        feet = Feet.standing(ankles, angles, ray_from)
        feet.pinned = pinned.copy()
        ground = self.terrain.height_at(self.x)
        self.y = ground + legs.ankle_height + gait.stand_extension * legs.limb.reach
        self.vy = np.zeros(self.count)
        # the gait starts with the far foot, whichever side that is (mirror images)
        self.phase = np.where(self.facing > 0, 0.0, 0.5)
        return feet

    # -- one fixed step ----------------------------------------------------------------
    def step(
        self,
        move: ArrayLike,
        run: ArrayLike,
        dt: float,
        pinned: BoolArray | None = None,
    ) -> None:
        """Advance every character one fixed step (the solve is :meth:`solve`).

        Parameters
        ----------
        move : array_like, shape (N,)
            Walk intent in [−1, 1] (sign is the direction).
        run : array_like, shape (N,)
            Run blend in [0, 1].
        dt : float
            Fixed step, seconds.
        pinned : ndarray of bool, shape (N, 2), optional
            Feet held at :attr:`pin_target` (by the mouse); a released foot swings back
            into the gait.
        """
        gait = self.rig.gait
        self.prev_pose = self.pose
        grade = self._grade()
        move_a = finite_clamp(move, -1.0, 1.0)
        run_a = finite_clamp(run, 0.0, 1.0)
        # a crouching body stands up before it walks or turns (it walked off bent double,
        # or tipped back turning round)
        rising = self.crouch > self.rig.tuning.rise_first
        move_a = np.where(rising, 0.0, move_a)
        # the way to face: the walk's, else (standing) the one asked for by turn_to
        wanted = np.where(
            np.abs(move_a) > self.rig.tuning.move_deadband, np.sign(move_a), self.face_goal
        )
        wanted = np.where(rising, 0.0, wanted)
        reversing = (wanted != 0.0) & (wanted != self.facing)
        braking = reversing & ~self.turning & ~self.reversing  # a reversal starts
        # the walk's intent ends: a swing in flight aimed for the walking pace re-aims too
        # (it hovered at a spot beyond the stopping hip and the pelvis sank up to 9.8 cm)
        stopping = (self.wanted != 0.0) & (np.abs(move_a) <= self.rig.tuning.move_deadband)
        # ... and when it comes back (or a reversal is dropped), a swing re-aimed for the stop
        # re-aims for the walk: a run let go of for 3 frames landed its swing beside the other
        # foot and the hip ran 0.9 m past it (the pelvis sank 33 cm, the knee bent to 107°);
        # a 0.03 s tap of the other key left a swing aimed at the brake's stop, behind the
        # running hip, hovering, and no foot touched the ground for 0.47 s (a glide)
        resuming = (self.wanted == 0.0) | (self.reversing & ~self.turning)
        resuming &= (np.abs(move_a) > self.rig.tuning.move_deadband) & ~reversing
        self.wanted = np.where(np.abs(move_a) > self.rig.tuning.move_deadband, np.sign(move_a), 0.0)
        self.reversing = reversing & ~self.turning
        self.reversing_s = np.where(self.reversing, self.reversing_s + dt, 0.0)
        self._advance_turn(reversing, dt)
        top_speed = gait.walk_speed + (gait.run_speed - gait.walk_speed) * run_a
        # a reversal first slows down facing the old way, then pivots, then sets off
        v_goal = np.where(reversing | self.turning, 0.0, move_a * top_speed)
        sprinting = (run_a > 0.5) & (np.abs(move_a) > self.rig.tuning.move_deadband)  # asked to run
        self.sprinting = sprinting
        self._v_goal = v_goal
        v_target = self._unblocked(v_goal, sprinting)
        self.blocked = (v_goal != 0.0) & (v_target == 0.0)
        v_old = self.vx
        self.vx = v_old + (v_target - v_old) * halflife_blend(dt, self._halflife(v_target))
        # braking to turn round: the halflife's approach to 0 would crawl for half a second
        # (and the heel lifts it schedules with it), so it ends at a constant deceleration
        braked = np.sign(v_old) * np.maximum(
            np.abs(v_old) - self.rig.tuning.reversal_brake * dt, 0.0
        )
        nearer = np.abs(braked) < np.abs(self.vx)
        self.vx = np.where(self.reversing & nearer, braked, self.vx)
        # ... pivoting, it shifts over the balls it turns on
        if self.turning.any():  # (the balls are read only then)
            self.vx = np.where(self.turning, self._shift_over_balls(), self.vx)
        # a crouch is held only standing: walking or turning round, the body rises
        still = (
            (wanted == 0.0)
            & ~reversing
            & ~self.turning
            & (np.abs(self.vx) < self.rig.tuning.still_speed)
        )
        # ... and standing on feet kept off their spots (by a cup on the floor), over them
        self.vx = np.where(still, self.vx + self._shift_over_feet(v_target), self.vx)
        change = np.where(still, self.crouch_goal, 0.0) - self.crouch
        self.crouch += clamp(
            change, -dt / self.rig.tuning.crouch_time, dt / self.rig.tuning.crouch_time
        )
        pace = Pace.at(self._timed(self.vx), grade, gait)
        x_old = self.x
        x_free = x_old + self.vx * dt
        self._update_pins(pinned, x_free, v_target, grade)
        self._advance_phase(v_target, grade, dt)
        self._advance_swings(dt, x_free, pace, v_target)
        # what the planted feet allow the hips (lifting a foot changes nothing for the others)
        support = self._support(pace)
        # a swing hovering at a spot it still cannot reach re-aims from where the foot is,
        # and so does one aimed for the old pace when a reversal brakes or the walk stops
        # (but one about to land where the stopped hip stands over it lands there: re-aimed
        # at 95 % of its swing, it took 0.3 s more while the braking hip left the other foot
        # 0.6 m behind, and the pelvis sank 15 cm)
        relaunch = self.feet.swinging & (self.feet.u > self.rig.tuning.hover_limit)
        if (braking | stopping).any():  # (most steps neither brake nor stop)
            stop = braking_travel(
                self.vx, np.inf, gait.accel_halflife, self.rig.tuning.reversal_brake
            )
            over = (
                np.abs(self.feet.land[..., 0] - (x_free + stop)[:, None])
                <= self.rig.tuning.lands_near
            )
            late = (self.feet.u >= self.rig.tuning.late_swing) & over
            relaunch |= self.feet.swinging & (braking | stopping)[:, None] & ~late
        relaunch |= self.feet.swinging & self.feet.relaunched & resuming[:, None]
        if relaunch.any():
            last = self.prev_pose  # where the foot was last shown: the new swing starts there
            at, angle, bend = last.targets[:, LEGS], last.foot_angle, last.foot_bend
            self._start_swings(relaunch, at, angle, bend, x_free, v_target, grade, support)
            self.feet.relaunched |= relaunch
            # a foot already in the air comes down within a squaring step's time (re-timed
            # for the slow pace of a stop, keys pressed in turn kept one up for 0.9 s)
            quick = np.minimum(self.feet.duration, self.rig.tuning.squaring_swing)
            self.feet.duration = np.where(relaunch, quick, self.feet.duration)
        self._lift_feet(x_free, v_target, pace, grade, support, sprinting)
        y_new = self._pelvis_height(x_free, pace, support, dt)
        x_new = self._hold_planted(x_old, x_free, y_new, support)
        y_new = self._cap_pelvis(x_new, y_new, support, dt)
        self.vx = np.where(x_new != x_free, (x_new - x_old) / dt, self.vx)
        self.vy = (y_new - self.y) / dt
        self.x, self.y = x_new, y_new
        grade = self._grade()
        self._roll_stance(Pace.at(self._timed(self.vx), grade, gait))
        self.pose = self._pose_inputs(grade, self.prev_pose, dt)

    def solve(self, timer: PhaseTimer | None = None) -> Any:
        """The batched solve of this step's pose (timed as ``timer``'s ``ik`` phase); also
        counts knee flips. The solve it replaces stays as ``prev_solution`` (the solve of
        ``prev_pose``)."""
        self.prev_solution = self.solution
        with timer.phase("ik") if timer is not None else nullcontext():
            self.solution = solve_pose(self.rig, self.pose)
        self._count_knee_flips()
        return self.solution

    def interpolated(self, alpha: float) -> tuple[PoseInputs, Any]:
        """The pose ``alpha`` of the way from the previous step, and its batched solve.

        At ``alpha`` 0 that is the previous step's pose, whose solve is kept
        (``prev_solution``), unless the facing or a pole switch changed in the step (the
        blend takes those from the later pose). A headless run draws every frame at 0.
        """
        prev, now = self.prev_pose, self.pose
        same_switches = np.array_equal(prev.facing, now.facing) and np.array_equal(
            prev.pole_on, now.pole_on
        )
        if alpha <= 0.0 and same_switches:
            return prev, self.prev_solution
        pose = prev.lerp(now, alpha)
        return pose, solve_pose(self.rig, pose)

    # -- commands: what a scene may ask of one character -------------------------------
    def pin_foot(self, n: int, foot: int, target: ArrayLike) -> None:
        """Hold character ``n``'s ``foot`` (0 left, 1 right) at ``target`` (x, y) while the
        ``pinned`` mask given to :meth:`step` says so (a foot dragged by the mouse)."""
        self.pin_target[n, foot] = target

    def aim_hands(self, n: int, targets: ArrayLike, weights: ArrayLike) -> None:
        """Character ``n``'s hands reach for ``targets`` (2, 2), each blended over its arm
        swing by its weight in [0, 1] (0: the hand swings with the gait)."""
        self.hand_target[n] = targets
        self.hand_weight[n] = clamp(weights, 0.0, 1.0)

    def take_pose(self, n: int, pose: PoseInputs, pelvis: ArrayLike) -> None:
        """Show character ``n`` in ``pose`` (a one-character pose, e.g. a ladder's) this
        step instead of the gait's, its pelvis at ``pelvis``, standing still and its hands
        off the pointer; then :meth:`solve` as usual."""
        self.prev_pose = self.pose
        self.pose = PoseInputs(
            **{
                f.name: _with_row(getattr(self.pose, f.name), n, getattr(pose, f.name)[0])
                for f in fields(PoseInputs)
            }
        )
        self.x[n], self.y[n] = np.asarray(pelvis, dtype=float)
        self.vx[n] = 0.0
        self.hand_weight[n] = 0.0

    def walk_to(self, n: int, x: float | None) -> None:
        """Let character ``n`` walk right up to ``x`` (None: no such spot): a drop or a wall
        just beyond it no longer stops the gait a step's reach short (a ladder's spot by the
        loft's edge). Its feet still land only where a sole fits."""
        self.goal_x[n] = np.nan if x is None else x

    def crouch_to(self, n: int, amount: float) -> None:
        """Character ``n`` bends its knees and stoops forward by ``amount`` in [0, 1] (1: its
        hands reach the ground just ahead of its toes) over ``crouch_time`` while it stands
        still; walking or turning round, it rises first."""
        self.crouch_goal[n] = float(clamp(amount, 0.0, 1.0)) if math.isfinite(amount) else 0.0

    def turn_to(self, n: int, facing: float) -> None:
        """While character ``n`` is not asked to walk, turn it round to ``facing`` (+1 or
        −1) the way a reversal does (squaring the feet, then a pivot) and leave it standing;
        0: no wish. Walking overrides it."""
        self.face_goal[n] = np.sign(facing)

    def face(self, n: int, facing: float) -> None:
        """Turn character ``n`` to ``facing`` (+1 or −1) at once (stepping on a ladder)."""
        self.facing[n] = 1.0 if facing >= 0 else -1.0

    def stand_at(self, n: int, ankles: ArrayLike) -> None:
        """Put character ``n``'s feet down flat at ``ankles`` (2, 2) on level soles (off a
        ladder); its step count carries on."""
        at = np.asarray(ankles, dtype=float)[None]
        ray_from = at + np.array([0.0, self.rig.legs.limb.reach])
        standing = Feet.standing(at, np.zeros((1, 2)), ray_from)
        for f in fields(Feet):
            if f.name != "steps":
                getattr(self.feet, f.name)[n] = getattr(standing, f.name)[0]

    def use_knee_poles(self, n: int, on: bool) -> None:
        """Character ``n``'s knees follow their pole hints (off: the solver picks the bend
        side, and knees flip; counted in :attr:`knee_flips`)."""
        self.knee_poles[n] = on

    def reset_counts(self) -> None:
        """Footsteps and knee flips start again from zero (new assets)."""
        self.feet.steps[:] = 0
        self.knee_flips[:] = 0

    # -- body --------------------------------------------------------------------------
    def _grade(self) -> FloatArray:
        """Mean ground slope (rise per run in +x) over ±``slope_span`` of the pelvis, from
        the sides the feet could walk: a side that rises or drops more than a step (the
        loft's edge, a wall) is left out. Read as a slope, the loft's 1.8 m edge leaned the
        body standing on the loft 22° into it (a banana facing the ladder)."""
        at = self.x[:, None] + np.array(
            [-self.rig.tuning.slope_span, 0.0, self.rig.tuning.slope_span]
        )
        rises = np.diff(self.terrain.height_at(at), axis=1)  # behind → pelvis → ahead
        walkable = np.abs(rises) <= self.rig.gait.max_step_height
        sides = np.maximum(walkable.sum(axis=1), 1)
        return np.where(walkable, rises, 0.0).sum(axis=1) / (sides * self.rig.tuning.slope_span)

    def _unblocked(self, v_target: FloatArray, sprinting: BoolArray) -> FloatArray:
        """``v_target`` slowed on steep ground (the body climbs at most ``climb_speed``), on
        a flight to a tread a step (quicker steps ``sprinting``: :attr:`stair_run`), and
        stopped before a too-tall rise or drop, or the end of the world."""
        gait = self.rig.gait
        span = gait.max_step_reach
        direction = np.sign(v_target)
        # look as far ahead as it takes to slow down: a halflife deceleration covers v·h / ln 2
        stopping = np.abs(self.vx) * gait.accel_halflife / math.log(2.0)
        # steepest mean slope over a stride, from a stride behind (the trailing foot pushes
        # off there: off the top of a flight the body keeps the climbing pace until that
        # foot has left the stairs, or the feet fall a stride behind it) up to the stopping
        # distance ahead (stairs count as the ramp they make)
        reach = np.where(_SLOPE_PROBES < 0.0, span, stopping[:, None])
        centres = self.x[:, None] + direction[:, None] * reach * _SLOPE_PROBES
        heights = self.terrain.height_at(centres[..., None] + np.array([-span, span]))
        slopes = np.abs(heights[..., 1] - heights[..., 0]) / (2.0 * span)
        # ... of ground the feet walk: a wall or a drop taller than a step is no ramp (the
        # stop below keeps the body off it); within a stride of the loft's edge or the
        # course's end wall it held a sprint to 0.23 m/s for a second or more. The stop
        # reads the ground up to a step's reach ahead (less up to a walk_to spot), and
        # both come from one steepest_rise call.
        probe_x = self.x + direction * (span + stopping)
        goal = np.abs(self.goal_x - self.x) + self.rig.tuning.goal_margin  # NaN without a goal
        probe_x = np.where(goal < span + stopping, self.x + direction * goal, probe_x)
        rises = self.terrain.steepest_rise(
            np.concatenate([centres - span, self.x[:, None]], axis=1),
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
        risers = self.terrain.risers(MIN_RISER, RISER_WINDOW)
        treads = self.terrain.treads(MIN_RISER, RISER_WINDOW)
        # asked to run where a steep slope holds the body well below a run (not the bump),
        # off stairs (their pace is a tread a step): a jog, quick steps with a flight (timed
        # by the speed, Shift on the steep slope was a walk, one foot always down, and the
        # stance knee bent to 94° going up it)
        # (along the walk: from a stride behind to two strides and the stopping distance on)
        back, on = self.x - direction * 2.0 * span, self.x + direction * (2.0 * span + stopping)
        stairs = self._flight_between(back, on)
        # ... until the run is quick enough for its steps (a jog's quick steps slowing to a
        # walk's timing at the slope's foot, the run into the flight beyond was out of step)
        steep = slope_cap < self.rig.tuning.jog_below * gait.run_speed
        jog_on = self.jogging & (np.abs(self.vx) < self.rig.tuning.jog_timing)
        self.jogging = sprinting & (steep | jog_on) & ~stairs
        behind = self.x - direction * span  # the trailing foot
        ahead = self.x + direction * span  # the next landing (beyond it: _approach)
        # ... walking, the trailing foot itself (or the pelvis, if both feet are ahead of it):
        # the flight's pace lets go as the last foot leaves its last tread (held a stride
        # longer, the body sped up under a swing planned for the flight's pace: walking left
        # off the stairs onto the bump, the next step was taken from behind, the pelvis 11 cm
        # low, the knee at 85°)
        walking = ~sprinting
        if walking.any():
            behind = np.where(walking, self._trailing_foot(direction), behind)
        near = (risers >= np.minimum(behind, ahead)[:, None]) & (
            risers <= np.maximum(behind, ahead)[:, None]
        )
        tread = np.where(near, treads, np.inf).min(axis=1, initial=np.inf)
        flight = tread <= MAX_TREAD
        self.stair_run = np.zeros(self.count, dtype=bool)
        if flight.any():
            grade = self._grade() * direction  # rise per run along the walk
            # running on a flight, once on it (a riser within a step of the pelvis): braking
            # into it from a run still aims for the walking stair pace (aiming for the quicker
            # one, the trailing foot was left rolled to its limit: the hip held, 0.4 m/s lost
            # in a step). Up it, and down it too since round 14 (at the walk's 0.70 m/s, Shift
            # down a flight was a walk; before the steep slope jogged and a strained foot
            # lifted at once, running down it met the slope in a lunge, the pelvis 16-25 cm
            # low), but not on the flat before an up flight (its quicker steps there put two
            # feet on its first tread)
            here = (np.abs(risers - self.x[:, None]) <= span).any(axis=1)
            down = grade < -self.rig.tuning.flat_grade
            self.stair_run = flight & here & sprinting & ((grade > 0.0) | down)
            # ... the steps quicken (:meth:`_timed`) and the body climbs faster (held to the
            # walk's timing and climb, a run up the stairs went at a walk's 0.8 m/s)
            cap = np.where(self.stair_run, cap * self.rig.tuning.run_climb, cap)
            pace = _flight_pace(tread, grade, self.stair_run, self.rig)
            cap = np.where(flight, np.minimum(cap, pace), cap)
        cap = np.minimum(cap, self._approach(risers, treads, direction, sprinting))
        v_target = clamp(v_target, -cap, cap)
        # stop before ground that rises or drops more than a step takes within one step's
        # reach (the terrain editor refuses to build such ground with the same test)
        lo, hi = self.terrain.x_range
        blocked = (rise > gait.max_step_height) | (probe_x < lo) | (probe_x > hi)
        # ... and before a stair tread an obstacle leaves no room on for a foot (a cup set
        # on the tread below the top landing: no step down was left, yet the body walked on
        # over the flight, sinking until the legs stuck straight out behind it, for good)
        taken = self.taken_treads()
        if len(taken):
            near = np.where(direction > 0.0, taken[:, 0], taken[:, 1])  # its nearer end
            ahead = (near - self.x[:, None]) * direction[:, None]
            reach = (probe_x - self.x) * direction
            blocked |= ((ahead > 0.0) & (ahead <= reach[:, None])).any(axis=1)
        return np.where(blocked, 0.0, v_target)

    def taken_treads(self) -> FloatArray:
        """The stair treads ``(x0, x1)`` (K, 2) an obstacle leaves no room on for a sole
        (heel to toe, kept off it as a landing is) either side of it."""
        if not len(self.obstacles):
            return np.zeros((0, 2))
        risers = self.terrain.risers(MIN_RISER, RISER_WINDOW)
        legs = self.rig.legs
        sole = legs.heel + legs.toe + 2.0 * self.rig.tuning.keep_off
        taken = []
        for x0, x1, _ in self.obstacles:
            below, above = risers[risers < x0], risers[risers > x1]
            if not (len(below) and len(above)):
                continue
            lo, hi = float(below.max()), float(above.min())
            if hi - lo <= MAX_TREAD and max(x0 - lo, hi - x1) < sole:
                taken.append((lo, hi))
        return np.array(taken, dtype=float).reshape(-1, 2)

    def _climb_cap(self, x: FloatArray, direction: FloatArray) -> FloatArray:
        """The speed (M,) the body climbs a steep slope at with its pelvis at ``x`` (M,):
        ``climb_speed`` over the ground's mean slope a step's reach either side (inf where
        that is a flight, paced by :meth:`_approach`, or a drop or wall)."""
        gait = self.rig.gait
        span = gait.max_step_reach
        ends = self.terrain.height_at(x[:, None] + np.array([-span, span]))
        slope = np.abs(ends[:, 1] - ends[:, 0]) / (2.0 * span)
        risers = self.terrain.risers(MIN_RISER, RISER_WINDOW)
        stairs = (np.abs(risers - x[:, None]) <= span).any(axis=1)
        rise = self.terrain.steepest_rise(x - span, x + span, span)
        smooth = ~stairs & (rise <= gait.max_step_height)
        return np.where(smooth, gait.climb_speed / np.maximum(slope, 1e-6), np.inf)

    def _approach(
        self,
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
        gait = self.rig.gait
        span = gait.max_step_reach
        here = self.x if x is None else x
        beyond = (risers[None, :] - here[:, None]) * direction[:, None] - span
        beyond = np.where((treads <= MAX_TREAD) & (beyond > 0.0), beyond, np.inf)
        if not np.isfinite(beyond).any():
            return np.full(len(here), np.inf)
        first = np.argmin(beyond, axis=1)  # the nearest riser of a flight ahead
        gap, riser, tread = beyond[np.arange(len(here)), first], risers[first], treads[first]
        # the flight's grade along the walk: its riser's rise (the ground half a tread either
        # side of it: a riser may be a few cm wide) over its tread
        half = np.where(np.isfinite(tread), 0.5 * tread, 0.0)[:, None] * [-1.0, 1.0]
        heights = self.terrain.height_at(riser[:, None] + direction[:, None] * half)
        grade = (heights[:, 1] - heights[:, 0]) / tread
        quick = sprinting  # running up or down it (:attr:`stair_run` once there)
        climb = gait.climb_speed * np.where(quick, self.rig.tuning.run_climb, 1.0)
        pace = np.minimum(
            _flight_pace(tread, grade, quick, self.rig), climb / np.maximum(np.abs(grade), 1e-6)
        )
        return np.sqrt(
            pace * pace + 2.0 * self.rig.tuning.approach_brake * gap
        )  # (inf for none ahead)

    # -- turning -----------------------------------------------------------------------
    def _advance_turn(self, reversing: BoolArray, dt: float) -> None:
        """Start a pivot where a reversal is wanted, the body has stopped and both feet are
        down flat near their standing spots; advance pivots; flip the facing halfway; at the end re-lock the feet facing
        the new way about the balls they pivoted on."""
        feet, legs = self.feet, self.rig.legs
        # a wish held at least pivot_wish: with the feet already squared from a turn
        # before, a one-frame blip of the other key started a pivot, which then went on
        ready = reversing & ~self.turning & (self.reversing_s >= self.rig.tuning.pivot_wish)
        if ready.any():  # (only then is there anything to check)
            ready &= self._ready_to_pivot()
        self.turn_from = np.where(ready, self.facing, self.turn_from)
        active = self.turning | ready
        self.turn = np.where(active, self.turn + dt / self.rig.gait.turn_time, 0.0)
        # a foot still landing holds the pivot short of the halfway flip (it lands long before)
        held = active & feet.swinging.any(axis=1)
        self.turn = np.where(
            held, np.minimum(self.turn, self.rig.tuning.turn_while_landing), self.turn
        )
        done = active & (self.turn >= 1.0)
        self.facing = np.where(active & (self.turn**2 >= 0.5), -self.turn_from, self.facing)
        if done.any():
            ball = self._pivot_balls()
            along, normal = foot_axes(feet.angle, -self.turn_from[:, None])
            # rigid rear foot: the ankle sits (−ball, ankle_height) from the ball contact
            relocked = ball - legs.ball * along + legs.ankle_height * normal
            feet.lock = np.where(done[:, None, None], relocked, feet.lock)
            self.settling |= done[:, None] & feet.planted
            feet.pitch = np.where(done[:, None], 0.0, feet.pitch)
            # the aims were the pivot's: standing on, the feet count where they are (aimed
            # at the pivot spots, a turn in place with the pelvis 7 cm past the balls stood
            # leaning, legs slanted back, for as long as he stood: playtest 11)
            feet.aim = np.where(done[:, None], np.nan, feet.aim)
            self.turn = np.where(done, 0.0, self.turn)
        # ... and then rise onto it where the sole is in the ground: turned round at a slope's
        # foot, the heel swung onto the rise and stood 10 mm inside it (a pivot spot lets the
        # ball hover 12 mm); slowly, as a planted foot's contact may move (0.5 mm a step)
        self.settling &= feet.planted & ~self.turning[:, None]
        if self.settling.any():
            x, y = feet.lock[..., 0], feet.lock[..., 1]
            rest = rest_on_ground(self.terrain, x, feet.angle, self.facing[:, None], legs)
            rise = np.where(
                self.settling, np.clip(rest - y, 0.0, self.rig.tuning.settle_speed * dt), 0.0
            )
            feet.lock[..., 1] = y + rise
            self.settling &= rest - feet.lock[..., 1] > 1e-6

    def _ready_to_pivot(self) -> BoolArray:
        """Characters that may start a pivot (N,): stopped, both feet flat on their pivot
        spots, or one there and the other's squaring swing landing on its spot within
        ``pivot_overlap`` (it turns about its ball as it comes down: waiting for it, the body
        stood still facing the old way for a fifth of a second), no foot pinned."""
        feet = self.feet
        left = (1.0 - feet.u) * feet.duration  # seconds a swing has to go
        landing = feet.swinging & feet.pivot_aim & (left <= self.rig.tuning.pivot_overlap)
        flat = feet.planted & (np.abs(feet.pitch) < self.rig.tuning.flat_pitch)
        stopped = np.abs(self.vx) < self.rig.tuning.pivot_speed
        ready = (flat | landing).all(axis=1) & flat.any(axis=1) & stopped
        ready &= ~feet.pinned.any(axis=1)
        return ready & self._on_spots(ready).all(axis=1)

    def _shift_over_balls(self) -> FloatArray:
        """The x velocity (N,) that brings the pelvis to within ``pivot_tolerance`` of over
        the balls (a swinging foot's where it lands) by the end of the pivot under way:
        an obstacle may keep the pivot spots off the spot under it (stopped over a cup on the
        floor, the balls were 0.28 m ahead, turned round the ankles 0.42 m, and the pelvis
        hung there 17 cm low until the feet stepped back under it: playtest 11)."""
        off = self._pivot_balls()[..., 0].mean(axis=1) - self.x
        beyond = np.sign(off) * np.maximum(np.abs(off) - self.rig.tuning.pivot_tolerance, 0.0)
        left = np.maximum(1.0 - self.turn, 0.1) * self.rig.gait.turn_time  # seconds to go
        return beyond / left

    def _shift_over_feet(self, v_target: FloatArray) -> FloatArray:
        """Standing on both feet over an obstacle (:meth:`set_obstacles`) with a step that was
        aimed at its standing spot landed off it (more than ``idle_tolerance``), the x velocity
        (N,) that brings the pelvis over the ankles' middle in ``shift_time`` (0 elsewhere):
        stopped over a cup on the floor, both feet landed past it, and he stood with the
        pelvis 18 cm behind the ankles for as long as he stood."""
        feet, tolerance = self.feet, self.rig.gait.idle_tolerance
        if not len(self.obstacles):
            return np.zeros(self.count)
        x0, x1 = self.obstacles[:, 0] - tolerance, self.obstacles[:, 1] + tolerance
        over = ((self.x[:, None] >= x0) & (self.x[:, None] <= x1)).any(axis=1)
        lock_x = feet.lock[..., 0]
        spots = self._standing_spots(self.x, np.zeros(self.count, dtype=bool))
        kept_off = (np.abs(spots - feet.aim) <= tolerance) & (np.abs(spots - lock_x) > tolerance)
        shifting = over & feet.planted.all(axis=1) & kept_off.any(axis=1) & (v_target == 0.0)
        # (slower than a pivot's start: turning round from it waits for no brake)
        shift = clamp(
            (lock_x.mean(axis=1) - self.x) / self.rig.tuning.shift_time,
            -self.rig.tuning.shift_speed,
            self.rig.tuning.shift_speed,
        )
        return np.where(shifting, shift, 0.0)

    def _pivot_balls(self) -> FloatArray:
        """The ball contact points the feet pivot on, shape (N, 2, 2) (a foot still landing:
        where it will be)."""
        legs, feet = self.rig.legs, self.feet
        lock = np.where(feet.swinging[..., None], feet.land_lock, feet.lock)
        along, normal = foot_axes(feet.angle, self.turn_from[:, None])
        return lock - legs.ankle_height * normal + legs.ball * along

    # -- feet --------------------------------------------------------------------------
    def _update_pins(
        self, pinned: BoolArray | None, x_new: FloatArray, v_target: FloatArray, grade: FloatArray
    ) -> None:
        feet = self.feet
        if pinned is None:
            pinned = np.zeros_like(feet.pinned)
        grabbed = pinned & ~feet.pinned
        released = feet.pinned & ~pinned
        feet.planted &= ~grabbed
        feet.pinned = pinned.copy()
        if released.any():
            ankles = self.solution.hand[:, LEGS]
            zeros = np.zeros_like(feet.angle)
            support = self._support(Pace.at(self._timed(self.vx), grade, self.rig.gait))
            self._start_swings(released, ankles, feet.angle, zeros, x_new, v_target, grade, support)

    def _settled(self, v_target: FloatArray) -> BoolArray:
        """Characters standing still with both feet down near their standing spots (N,):
        about to pivot, the spots are the balls of both feet right under the pelvis (so at
        mid-pivot both legs are straight under it and the knees pass the middle cleanly).
        A foot whose last step was aimed at its spot counts as there even where the ground
        moved its landing (a spot on a stair nose): stepping again would land it the same."""
        feet = self.feet
        still = (
            feet.planted.all(axis=1)
            & (
                np.abs(self.vx)
                < np.where(self.reversing, self.rig.tuning.pivot_speed, self.rig.tuning.still_speed)
            )
            & (np.abs(v_target) < self.rig.tuning.still_speed)
        )
        if not still.any():  # walking or running: no spots to check
            return still
        return still & self._on_spots(still).all(axis=1)

    def _on_spots(self, among: BoolArray) -> BoolArray:
        """Feet at their standing or pivot spots (:meth:`_standing_spots`), shape (N, 2),
        or whose last step was aimed there. A foot near its pivot spot counts only where it
        can turn (:func:`pivot_spots`: turned round about its ball, its heel would go into a
        riser where its toes did not), checked for the characters ``among`` (N,) only: the
        caller reads no other row."""
        feet, gait = self.feet, self.rig.gait
        reversing = self.reversing
        # braking to turn round, the spots are where the hip will stop (a foot beside the
        # running hip counted as on its spot, stayed, and was left 0.6 m behind: the pelvis
        # sank 14 cm to reach it)
        stop = braking_travel(self.vx, np.inf, gait.accel_halflife, self.rig.tuning.reversal_brake)
        ideal_x = self._standing_spots(self.x + np.where(reversing, stop, 0.0), reversing)
        tolerance = np.where(reversing, self.rig.tuning.pivot_tolerance, gait.idle_tolerance)
        there = np.abs(ideal_x - feet.lock[..., 0]) <= tolerance[:, None]
        aimed_there = np.abs(ideal_x - feet.aim) <= tolerance[:, None]
        rows = np.flatnonzero(reversing & among)
        if len(rows):  # (only they need the pivot check)
            # ... and one aimed at its pivot spot counts only if that aim was for a pivot
            turnable, _ = pivot_spots(
                self.terrain,
                feet.lock[rows, :, 0],
                self.facing[rows, None],
                self.rig.legs,
                self.obstacles,
            )
            there[rows] &= turnable
            aimed_there[rows] &= feet.pivot_aim[rows]
        # standing, a foot whose heel hangs off a stair nose (turned round about a ball on
        # the nose) is not there: it stood like that, 90 % of its sole over a 16 cm drop,
        # until the next key press (playtest 10)
        hanging = ~reversing[:, None] & self._heel_off_nose()
        return (there | aimed_there) & ~hanging

    def _heel_off_nose(self) -> BoolArray:
        """Planted feet (N, 2) whose heel hangs off a stair nose (:func:`heel_hangs`)."""
        feet, facing = self.feet, self.facing[:, None]
        return feet.planted & heel_hangs(self.terrain, feet.lock[..., 0], facing, self.rig.legs)

    def _above_spot_behind(self) -> BoolArray:
        """Planted feet (N, 2) whose standing spot (:meth:`_standing_spots`) is behind them
        with its heel more than ``MIN_RISER`` lower: a step there would go back down a
        stair (a spot on a nose lands on the tread below)."""
        lock_x, facing = self.feet.lock[..., 0], self.facing[:, None]
        spot = self._standing_spots(self.x, np.zeros(self.count, dtype=bool))
        behind = (spot - lock_x) * facing < 0.0
        heel = self.terrain.height_at(spot - facing * self.rig.legs.heel)
        down = heel < self.terrain.height_at(lock_x) - MIN_RISER
        return self.feet.planted & behind & down & ~self._heel_off_nose()

    def _standing_spots(self, x: FloatArray, pivot: BoolArray) -> FloatArray:
        """Flat-foot ankle x of the standing spots for pelvis x ``x`` (N,), shape (N, 2):
        spread fore and aft, or for a pivot with both balls under the pelvis."""
        spread = x[:, None] + FOOT_SIDE * self.rig.gait.stance_spread
        balls = x[:, None] - self.facing[:, None] * self.rig.legs.ball + 0.0 * FOOT_SIDE
        return np.where(pivot[:, None], balls, spread)

    def _squaring_up(self, v_target: FloatArray) -> BoolArray:
        """Characters stepping their feet to standing or pivot spots, not walking (N,)."""
        return self.reversing | (np.abs(v_target) < self.rig.tuning.still_speed)

    def _halflife(self, v_target: FloatArray) -> FloatArray:
        """The halflife the velocity chases ``v_target`` with: speeding up, longer, and in
        proportion to the speed beyond a walk, so every set-off starts at the same ~3 m/s²
        (at the gait's halflife a standing body ran in a quarter second, faster than its
        first steps could carry it: the hip outran the planted foot, was held back and the
        pelvis dipped 20 cm)."""
        gait = self.rig.gait
        up = self.rig.tuning.speed_up_halflife * np.maximum(np.abs(v_target) / gait.walk_speed, 1.0)
        return np.where(np.abs(v_target) > np.abs(self.vx), up, gait.accel_halflife)

    def _speed_soon(self, v_target: FloatArray) -> FloatArray:
        """The velocity ``step_lead`` seconds on (none pivoting): the pace a step is timed
        for, so the first steps of a set-off are quick enough for the body they carry (timed
        for the standing body's idle cadence, a 0.62 s swing let the hip run past the planted
        foot)."""
        decay = 2.0 ** (-self.rig.tuning.step_lead / self._halflife(v_target))
        return np.where(self.turning, 0.0, v_target + (self.vx - v_target) * decay)

    def _timed(self, speed: FloatArray) -> FloatArray:
        """The speed (N,) the gait's timing (:class:`Pace`) is read at for a body going at
        ``speed``: :func:`_timing_speed`, quick running on a flight (:attr:`stair_run`), at
        least ``jog_timing`` jogging (:attr:`jogging`)."""
        jog = np.copysign(np.maximum(np.abs(speed), self.rig.tuning.jog_timing), speed)
        return np.where(self.jogging, jog, _timing_speed(speed, self.stair_run, self.rig))

    def _advance_phase(self, v_target: FloatArray, grade: FloatArray, dt: float) -> None:
        """The gait phase advances at the stride rate for the speed a step is timed for (at
        least the starting cadence while the feet still have to step), and holds while
        standing; setting off, the front foot is put near mid-stance."""
        speed = np.maximum(np.abs(self._speed_soon(v_target)), np.abs(v_target) * 0.25)
        # squaring up (for a pivot, or standing) steps briskly, at a slow walk's cadence
        speed = np.where(
            self._squaring_up(v_target), np.maximum(speed, self.rig.tuning.square_up_speed), speed
        )
        speed = self._timed(speed)
        rate = stride_rate(speed, grade * np.sign(self.vx), self.rig.gait)
        hold = self._settled(v_target) | self.turning
        idle = hold | (np.abs(v_target) < self.rig.tuning.still_speed)
        starting = self.idle & ~idle
        if starting.any():
            # setting off (from standing, a stop or a pivot): the foot in front is near mid-
            # stance (the other's phase then inside its lift window: it steps at once), so it
            # lifts once the hip has passed over it (its stance was a whole one, or whatever
            # the stop left: the body outran it, the pelvis dipped 13 cm and the hip was held
            # back, the speed falling 40 % in a step)
            feet = self.feet
            at = np.where(feet.swinging, feet.land[..., 0], feet.lock[..., 0])  # a swing lands
            ahead = np.argmax(at * np.sign(v_target)[:, None], axis=1)
            into_stance = self.rig.tuning.set_off_stance * duty_factor(speed, self.rig.gait)
            self.phase = np.where(starting, (into_stance - PHASE_OFFSET[ahead]) % 1.0, self.phase)
        self.idle = idle
        self.phase = np.where(hold, self.phase, (self.phase + rate * dt) % 1.0)

    def _advance_swings(
        self, dt: float, x_new: FloatArray, pace: Pace, v_target: FloatArray
    ) -> None:
        """Swings progress; a foot at the end of its arc plants once its leg can hold it
        there (until then it hovers over the spot while the pelvis comes down). A late
        landing re-syncs the gait phase."""
        rig, feet = self.rig, self.feet
        swinging = feet.swinging
        feet.u = np.where(swinging, feet.u + dt / feet.duration, feet.u)
        feet.stance_age = feet.stance_age + dt
        landed = swinging & (feet.u >= 1.0)
        if not landed.any():  # (most steps: no swing at its end)
            return
        hip_x = x_new[:, None] + FOOT_SIDE * rig.body.hip_depth
        reach = rig.gait.lock_extension * rig.legs.limb.reach
        distance = np.hypot(hip_x - feet.land[..., 0], self.y[:, None] - feet.land[..., 1])
        # (at a steady pace: the first steps of a run from standing reach their spots in a
        # frame or two as the pelvis comes down; landed short, they shifted the run's phases)
        steady = np.abs(self.vx) >= np.abs(v_target) - self.rig.tuning.steady_margin
        short = landed & (distance > reach) & steady[:, None]
        if short.any():
            self._land_short(short, hip_x, reach)
            distance = np.hypot(hip_x - feet.land[..., 0], self.y[:, None] - feet.land[..., 1])
        landed &= distance <= reach  # holdable
        feet.lock = np.where(landed[..., None], feet.land_lock, feet.lock)
        feet.angle = np.where(landed, feet.land_ground, feet.angle)
        feet.pitch = np.where(landed, feet.land_pitch, feet.pitch)
        feet.planted |= landed
        feet.stance_age = np.where(landed, 0.0, feet.stance_age)
        feet.steps += landed.sum(axis=1)
        # a foot that lands late (its phase already in its stance) restarts its stance, so
        # the other foot's lift waits for it instead of leaving it a stance of nothing
        late = landed & (self._foot_phase() < pace.duty[:, None] * self.rig.tuning.late_landing)
        leg = np.argmax(late, axis=1)
        self.phase = np.where(late.any(axis=1), (-PHASE_OFFSET[leg]) % 1.0, self.phase)

    def _land_short(self, short: BoolArray, hip_x: FloatArray, reach: float) -> None:
        """Move the landings in ``short`` (N, 2), at the end of their swings but just out of
        the leg's ``reach`` from ``hip_x``, back toward the hip to the farthest spot it holds,
        where that is at most ``short_landing`` back and the sole fits there on ground at the
        same angle (the landing's roll stays as planned; the distance is checked again before
        it plants): the foot lands a little short instead of hovering over its spot while the
        other leg, at full stretch, held the hip (up to 0.8 m/s lost in a step at the top
        landing's edge, the pelvis a centimetre too high for a spot 0.2 m ahead)."""
        feet = self.feet
        n, f = np.nonzero(short)
        land = feet.land[n, f]
        dy = self.y[n] - land[:, 1]
        ahead = np.sign(land[:, 0] - hip_x[n, f])
        # Pythagoras: at dy below the hip, the leg holds a foot up to √(R² − dy²) away
        holds = hip_x[n, f] + ahead * np.sqrt(np.maximum(reach * reach - dy * dy, 0.0))
        back = (land[:, 0] - holds) * ahead  # > 0: how far short it must land
        x = feet.land_lock[n, f, 0] - ahead * (back + 1e-4)
        legs, facing = self.rig.legs, self.facing[n]
        fits, chord, _ = sole_fits(self.terrain, x, facing, self.rig)
        angle = clamp(chord, -legs.max_tilt, legs.max_tilt)
        # the same ground angle: the landing's roll (its pitch) stays as planned
        same = np.abs(angle - feet.land_ground[n, f]) < 1e-9
        ok = (back > 0.0) & (back <= self.rig.tuning.short_landing) & fits & same & (dy < reach)
        # asked to run (squaring up to stop or turn round, a step keeps its spot: the feet
        # pivot there; walking, the spots are reached in time)
        ok &= self.sprinting[n] & ~self.reversing[n] & ~self.turning[n]
        if not ok.any():
            return
        n, f, x, angle = n[ok], f[ok], x[ok], angle[ok]
        lock = np.stack([x, rest_on_ground(self.terrain, x, angle, self.facing[n], legs)], -1)
        pose = stance_pose(lock, angle, feet.land_pitch[n, f], self.facing[n], legs)
        feet.land_lock[n, f] = lock
        feet.land[n, f], feet.land_angle[n, f], feet.land_bend[n, f] = pose

    def _foot_phase(self) -> FloatArray:
        """Each foot's own phase in [0, 1), shape (N, 2)."""
        return (self.phase[:, None] + PHASE_OFFSET) % 1.0

    def _stance_progress(self, duty: FloatArray) -> FloatArray:
        """How far into its stance each planted foot is, in [0, 1], shape (N, 2): its phase
        over the duty factor, 1 once its lift is due (:attr:`Feet.due`), 0 if it landed
        early (its phase still in the swing window, about to wrap)."""
        phase = self._foot_phase()
        return np.where(self.feet.due, 1.0, np.where(phase >= duty, 0.0, phase / duty))

    def _latch_due(self, duty: FloatArray) -> None:
        """A planted foot whose phase enters the first half of its swing window is due to
        lift, and stays due until it does (the other foot may still be in the air)."""
        phase = self._foot_phase()
        entering = (phase >= duty) & (phase < 0.5 * (1.0 + duty))
        self.feet.due |= self.feet.planted & ~self.feet.pinned & entering

    def _lift_feet(
        self,
        x_new: FloatArray,
        v_target: FloatArray,
        pace: Pace,
        grade: FloatArray,
        support: _Support,
        sprinting: BoolArray,
    ) -> None:
        """Planted feet whose phase has passed the duty factor lift. Walking, a foot lifts
        only while the other is down; running, also while the other is swinging (a flight
        phase), but never while it hovers unable to land."""
        gait, feet = self.rig.gait, self.feet
        duty = pace.duty[:, None]
        stance_time = pace.stance_time[:, None]
        # a foot pinned on the ground bears weight; one dragged up in the air does not (the
        # other foot, the only one down, lifted off under it: both feet 11 cm up, the body
        # hovering)
        bearing = feet.planted.copy()
        if feet.pinned.any():  # (a foot dragged by the mouse: the hero only)
            pins = self.pin_target
            ground = self.terrain.height_at(pins[..., 0]) + self.rig.legs.ankle_height
            bearing |= feet.pinned & (pins[..., 1] <= ground + self.rig.tuning.pin_ground)
        other_down = bearing[:, ::-1]
        running = run_fraction(self._timed(self.vx), gait)[:, None] > 0.5
        # stopping from a run, a foot left behind the braking hip leaves the ground as in
        # the run (a flight) instead of holding the pelvis down to reach it (it sank 16 cm)
        hip_x = self._hips_x(x_new)
        behind = (hip_x - feet.lock[..., 0]) * np.sign(self.vx)[
            :, None
        ] > self.rig.tuning.left_behind
        stopping = (
            (np.abs(v_target) < self.rig.tuning.still_speed)[:, None]
            & behind
            & ~self.reversing[:, None]
        )
        running = running | (stopping & (run_fraction(self.vx, gait)[:, None] > 0.0))
        other_ok = other_down | (running & (feet.u[:, ::-1] < 1.0))
        self._latch_due(duty)
        due = feet.due & (feet.stance_age >= self.rig.tuning.min_stance * stance_time)
        # a foot rolled to its limit whose leg still cannot reach steps now (the walk kept
        # going where the phase did not foresee it: a slope, a stop, a shove), and the
        # phase follows it
        strained = feet.planted & (
            feet.pitch <= -self.rig.tuning.strained * self.rig.legs.max_heel_lift
        )
        # ... or whose leg, however rolled, cannot hold the hip where it goes this step (it
        # would be held there, :meth:`_hold_planted`: running up the bump, 2.2 m/s fell to
        # 1.7 in a frame as the trailing foot reached its roll's end a step before it lifted)
        lo, hi = self._hip_x_range(support, self.y[:, None], gait.lock_extension)
        strained |= feet.planted & ((hip_x < lo) | (hip_x > hi))
        # ... and speeding up into a run also while the other is in the air (a flight, as
        # in the run): held until that foot landed, the hip stopped from 1.5-2.4 to 0.4-0.7
        # m/s in a frame where a flight's or a slope's cap lifted (the playtest's split stall)
        into_run = (sprinting & ~self.reversing)[:, None] & (feet.u[:, ::-1] < 1.0)
        due |= strained & (other_down | into_run)
        due |= stopping & (feet.stance_age >= self.rig.tuning.min_stance * stance_time)
        # walking on both feet, the foot behind lifts, not one ahead of it: a run let go of
        # for an instant re-aimed its swing to stop, which landed beside the other foot, and
        # the phase still named the front one: it stepped 0.74 m while the hip ran 0.9 m past
        # the foot left behind (the pelvis sank 33 cm, that knee bent to 107°)
        walking = (
            (np.abs(v_target) >= self.rig.tuning.still_speed) & ~running[:, 0] & ~self.reversing
        )
        forward = np.sign(v_target)[:, None]
        ahead = (feet.lock[..., 0] - feet.lock[:, ::-1, 0]) * forward > self.rig.tuning.ahead
        both_down = (walking & feet.planted.all(axis=1))[:, None]
        trails = both_down & ahead[:, ::-1]  # (the other foot is ahead of it)
        swap = due & ahead & trails[:, ::-1] & ~due[:, ::-1]
        # ... and once the hip has passed both feet, the one behind steps now (both landed
        # together in the instant let go of, the walk then waited 12 frames for the phase)
        passed = both_down & ((hip_x - feet.lock[..., 0]) * forward > self.rig.tuning.ahead).all(
            axis=1, keepdims=True
        )
        rear = np.argmin(feet.lock[..., 0] * forward, axis=1)[:, None] == np.arange(2)
        late = passed & rear & ~due
        due = (due & ~swap) | swap[:, ::-1] | late
        strained |= swap[:, ::-1] | late  # (the phase follows the foot that lifts)
        if self.reversing.any():
            # squaring up for a pivot: a foot off its spot steps as soon as the other is
            # down (running, also while it is in the air: held on a foot left behind, a
            # reversal from a run stopped the hip dead and the pelvis sank 26 cm), whatever
            # the phase; one on its spot stays (stepping again lands it there)
            may = other_ok & (feet.stance_age >= self.rig.tuning.min_stance * stance_time)
            ready = ~self._on_spots(np.asarray(may.any(axis=1))) & may
            due = np.where(self.reversing[:, None], ready, due)

        can = feet.planted & ~feet.pinned & due & (other_ok | strained & into_run)
        can &= ~self.turning[:, None]
        # standing, the foot beside one held by the mouse stays down: squaring it up, it
        # lifted as the other was grabbed (still on the ground, so counted as bearing), and
        # both feet were in the air for 0.28 s once the grabbed one was dragged up
        standing = np.abs(v_target) < self.rig.tuning.still_speed
        can &= ~(feet.pinned[:, ::-1] & standing[:, None])
        if not can.any():  # (most steps)
            return
        # ... and stopping, a foot a riser above its standing spot behind it stays up: let go
        # of on a flight, a foot stepped back down a tread to stand (playtest 9)
        can &= ~((standing & ~self.reversing)[:, None] & self._above_spot_behind())
        can &= ~self._settled(v_target)[:, None]
        # at most one foot per character per step: one whose leg cannot hold the hip, then
        # walking the one behind, then the one further into its swing phase
        first = np.argmax(np.where(can, self._foot_phase() + strained + trails, -1.0), axis=1)
        lift = np.zeros_like(can)
        lift[np.arange(self.count), first] = True
        lift &= can
        if lift.any():
            resync = (lift & strained).any(axis=1)
            leg = np.argmax(lift, axis=1)
            self.phase = np.where(resync, (duty[:, 0] - PHASE_OFFSET[leg]) % 1.0, self.phase)
            ankles, angles, bends = self._stance_feet()
            self._start_swings(lift, ankles, angles, bends, x_new, v_target, grade, support)

    def _trailing_foot(self, direction: FloatArray, lifting: BoolArray | None = None) -> FloatArray:
        """The x (N,) of the rearmost foot along ``direction`` (N,), or the pelvis if both are
        ahead of it: a planted foot where it is, a swinging one where it will land; not those
        ``lifting`` (N, 2) (the other's, then)."""
        feet = self.feet
        x = np.where(feet.planted, feet.lock[..., 0], feet.land_lock[..., 0])
        if lifting is not None:
            x = np.where(lifting, x[:, ::-1], x)
        x = np.concatenate([x, self.x[:, None]], axis=1)
        return np.where(direction >= 0.0, x.min(axis=1), x.max(axis=1))

    def _flight_between(self, behind: FloatArray, ahead: FloatArray) -> BoolArray:
        """A stair's riser from ``behind`` to ``ahead`` (M,)."""
        low, high = np.minimum(behind, ahead)[:, None], np.maximum(behind, ahead)[:, None]
        risers = self.terrain.risers(MIN_RISER, RISER_WINDOW)[None, :]
        return np.asarray(((risers >= low) & (risers <= high)).any(axis=1))

    def _stance_feet(self) -> tuple[FloatArray, FloatArray, FloatArray]:
        """Planted feet's ankle (N, 2, 2), sole angle and toe bend (N, 2) at their pitch."""
        feet = self.feet
        return stance_pose(feet.lock, feet.angle, feet.pitch, self.facing[:, None], self.rig.legs)

    def _start_swings(
        self,
        mask: BoolArray,
        ankles: FloatArray,
        angles: FloatArray,
        bends: FloatArray,
        x_new: FloatArray,
        v_target: FloatArray,
        grade: FloatArray,
        support: _Support,
    ) -> None:
        """Lift the feet in ``mask`` (N, 2) from ``ankles`` (N, 2, 2), sole ``angles`` and
        toe ``bends`` (N, 2) toward spots predicted from the body's velocity on ground of
        ``grade`` (N,), within what the other foot's ``support`` allows."""
        rig, gait, legs = self.rig, self.rig.gait, self.rig.legs
        feet = self.feet
        n, f = np.nonzero(mask)
        start = ankles[n, f].copy()
        soon = self._speed_soon(v_target)
        pace = np.where(
            self._squaring_up(v_target),
            np.maximum(np.abs(soon), self.rig.tuning.square_up_speed),
            soon,
        )
        reversing = self.reversing[n]
        # a squaring step (toward a pivot, or stopping) is short: quick, whatever the cadence
        # (stopping from a run, a 0.5 s running swing let the hip carry on 0.85 m past the
        # planted foot and the pelvis sank 26 cm)
        duration = Pace.at(self._timed(pace), grade, gait).swing_time[n]
        squaring = self._squaring_up(v_target)[n]
        duration = np.where(
            squaring, np.minimum(duration, self.rig.tuning.squaring_swing), duration
        )
        # the last foot on a flight lifting off it, walking: the flight's pace lets go (see
        # _unblocked), so its spot is planned for the walk's pace (planned for the flight's,
        # it landed beside the hip and the next step was taken from behind)
        v_target = v_target.copy()
        direction = np.sign(self._v_goal)
        trailing = self._trailing_foot(direction, mask)[n]  # once this foot has lifted
        ahead = x_new[n] + direction[n] * gait.max_step_reach
        off = ~self._flight_between(trailing, ahead)
        off &= ~self.sprinting[n] & ~self._squaring_up(v_target)[n] & (v_target[n] != 0.0)
        v_target[n] = np.where(off, self._v_goal[n], v_target[n])
        # where the hip will be at touchdown, and how fast it will be going then
        halflife = self._halflife(v_target)[n]
        hip_land = x_new[n] + halflife_travel(self.vx[n], v_target[n], duration, halflife)
        # ... walking, slowing for a flight ahead as it gets there (timed for the pace here,
        # a step onto a flight's first tread landed from far back: the next could not reach
        # the second and came down beside it)
        terrain = self.terrain
        cap = self._approach(  # (read for the lifting feet only)
            terrain.risers(MIN_RISER, RISER_WINDOW),
            terrain.treads(MIN_RISER, RISER_WINDOW),
            np.sign(v_target[n]),
            self.sprinting[n],
            hip_land,
        )
        v_target = v_target.copy()
        # (running keeps its aim: capping a run's aim so bent its landing knee to 82°)
        walking = ~self.sprinting[n]
        v_target[n] = np.where(walking, np.clip(v_target[n], -cap, cap), v_target[n])
        # ... and, walking or running, held to the climb's pace on a steep slope there
        # (planned on the flat before one, a run's step landed 1.4 m ahead of the hip and
        # 0.3 m up the slope; the body, held to that pace once on it, lunged: the stance
        # knee at 94°, the pelvis 24 cm low)
        climb = self._climb_cap(hip_land, np.sign(v_target[n]))
        v_target[n] = np.clip(v_target[n], -climb, climb)
        halflife = self._halflife(v_target)[n]  # (braking now, where the cap binds)
        hip_land = x_new[n] + halflife_travel(self.vx[n], v_target[n], duration, halflife)
        # ... or, braking to turn round, where it will stop (step's brake law)
        if reversing.any():
            stop = braking_travel(
                self.vx[n], np.inf, gait.accel_halflife, self.rig.tuning.reversal_brake
            )
            hip_land = np.where(reversing, x_new[n] + stop, hip_land)
        # ... but never past where the other leg, if it stays down, can carry the hip
        hip_x = self._hips_x(self.x)
        offset = hip_x - self.x[:, None]
        lo, hi = self._hip_x_range(support, self.y[:, None], gait.lock_extension)
        other = feet.planted[n, 1 - f]
        lo_other, hi_other = lo[n, 1 - f] - offset[n, 1 - f], hi[n, 1 - f] - offset[n, 1 - f]
        # (not the stop a reversal brakes to: the other foot steps to its own spot too)
        hip_land = np.where(other & ~reversing, clamp(hip_land, lo_other, hi_other), hip_land)
        decay = 2.0 ** (-duration / halflife)
        v_land = v_target[n] + (self.vx[n] - v_target[n]) * decay
        stance = support.pace.stance_time[n]  # at the step's pace
        # each foot lands relative to its own hip; standing, the feet spread fore and aft
        still = 1.0 - clamp(np.abs(v_land) / (0.5 * gait.walk_speed), 0.0, 1.0)
        spread = FOOT_SIDE[f] * (rig.body.hip_depth + gait.stance_spread * still)
        predicted = hip_land + half_stride(v_land, stance, gait) + spread
        # about to pivot: the ball right under the pelvis where it stops
        pivot_spot = hip_land - self.facing[n] * legs.ball
        predicted = np.where(reversing, pivot_spot, predicted)
        facing = self.facing[n]
        from_lock = np.where(feet.planted[n, f][:, None], feet.lock[n, f], start)
        beside = np.where(feet.planted[n, 1 - f], feet.lock[n, 1 - f, 0], np.nan)
        # ... and, down or in the air (a run's flight), where it is or will be
        other_x = np.where(feet.planted, feet.lock[..., 0], feet.land_lock[..., 0])[n, 1 - f]
        lock, ground, ray_from, ray_hit = plan_landing(
            self.terrain,
            rig,
            from_lock,
            predicted,
            self.y[n],
            facing,
            reversing,
            beside,
            other_x,
            self.obstacles,
            squaring & ~reversing,
        )
        start_ground = self.terrain.height_at(from_lock[:, 0])
        land_ground_y = self.terrain.height_at(lock[:, 0])
        pitch = landing_pitch(start_ground, land_ground_y, lock[:, 0] - from_lock[:, 0], rig)
        # a squaring step lands flat: the pivot waits for flat feet, not for a heel strike
        # to roll out
        pitch = np.where(reversing, 0.0, pitch)
        # no heel strike where the heel overhangs a drop (a pivot spot may, or a last-resort
        # spot): the landing roll would turn the foot about a heel in the air
        heel = sole_points(lock, ground, np.zeros_like(ground), facing, legs)[:, 0]
        heel_down = self.terrain.height_at(heel[:, 0]) >= heel[:, 1] - self.rig.tuning.heel_support
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
        quick = self.rig.tuning.squaring_swing * clamp(
            length / self.rig.tuning.squaring_step, 0.75, 1.0
        )
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

    # -- pelvis ------------------------------------------------------------------------
    def _hips_x(self, x: FloatArray) -> FloatArray:
        """Hip x of each leg for pelvis x ``x`` (N,), shape (N, 2): the depth offsets
        shrink through the middle of a pivot."""
        return x[:, None] + FOOT_SIDE * self.rig.body.hip_depth * np.abs(self.spin)[:, None]

    def _support(self, pace: Pace) -> _Support:
        """What the planted feet allow the hips, as the feet are now, at ``pace`` (the
        landing rolls settle over its stance time)."""
        feet = self.feet
        # pivoting, or about to (stopped, squaring up): flat feet only (braking, a foot left
        # behind the stopping hip still rolls: held flat, the pelvis sank 12 cm to reach it)
        about_to = self.reversing & (np.abs(self.vx) < self.rig.tuning.pivot_speed)
        flat = (self.turning | about_to)[:, None]
        flat_ankles = (
            np.where(self.turning[:, None, None], self._pivot_ankles(), feet.lock)
            if flat.any()
            else feet.lock
        )
        landing = landing_roll(feet, self.rig.tuning.loading * pace.stance_time[:, None])
        facing, legs = self.facing[:, None], self.rig.legs
        rolled = self._rolled
        if rolled is None or not rolled.holds_for(feet.lock, feet.angle, facing, legs):
            rolled = self._rolled = RolledFeet.sample(feet.lock, feet.angle, facing, legs)
        return _Support(rolled, landing, flat, flat_ankles, pace)

    def _highest_hips(self, support: _Support, hip_x: FloatArray, extension: float) -> FloatArray:
        """The highest each hip at ``hip_x`` (N, 2) may be with its planted foot within
        ``extension`` of the leg, rolling the foot (:meth:`RolledFeet.highest_hip`); a
        pivoting character's feet are flat on their balls, and one about to pivot lowers
        onto flat feet, so for them only the flat pose counts. Shape (N, 2)."""
        legs = self.rig.legs
        reach = extension * legs.limb.reach
        high = support.rolled.highest_hip(hip_x, reach, support.landing, legs)
        if not support.flat.any():
            return high
        dx = hip_x - support.flat_ankles[..., 0]
        # Pythagoras, as in RolledFeet.highest_hip, for the one pose a flat foot has
        flat_high = support.flat_ankles[..., 1] + np.sqrt(np.maximum(reach * reach - dx * dx, 0.0))
        return np.where(support.flat, flat_high, high)

    def _hip_x_range(
        self, support: _Support, hip_y: FloatArray, extension: float
    ) -> tuple[FloatArray, FloatArray]:
        """The lowest and highest x each hip at height ``hip_y`` (N, 2) may take with its
        planted foot within ``extension`` of the leg (:meth:`RolledFeet.hip_x_range`; flat
        feet as in :meth:`_highest_hips`, but only pivoting: one about to pivot still brakes
        and steps over its rolled feet, or, held to the flat pose of a foot rolled onto its
        ball, its hip stopped dead from a walk or a run in one step). Shape (N, 2) each."""
        reach = extension * self.rig.legs.limb.reach
        lo, hi = support.rolled.hip_x_range(hip_y, reach)
        flat = support.flat & self.turning[:, None]
        if not flat.any():
            return lo, hi
        dy = hip_y - support.flat_ankles[..., 1]
        # Pythagoras, as in RolledFeet.hip_x_range, for the one pose a flat foot has
        half = np.sqrt(np.maximum(reach * reach - dy * dy, 0.0))
        lo = np.where(flat, support.flat_ankles[..., 0] - half, lo)
        hi = np.where(flat, support.flat_ankles[..., 0] + half, hi)
        return lo, hi

    def _pivot_ankles(self) -> FloatArray:
        """Ankles of pivoting feet (N, 2, 2): flat, turning about the ball by ``spin``."""
        legs = self.rig.legs
        along, normal = foot_axes(self.feet.angle, self.spin[:, None])
        return self._pivot_balls() - legs.ball * along + legs.ankle_height * normal

    def _pelvis_height(
        self, x_new: FloatArray, pace: Pace, support: _Support, dt: float
    ) -> FloatArray:
        """Pelvis y this step: a critically damped spring toward standing height plus the
        gait's bob (up at mid-stance walking, down running), lowered only where a foot
        could not be reached even with its heel lifted (or, pivoting, rising as far as the
        flat feet allow, so the knees pass the middle nearly straight)."""
        rig, gait = self.rig, self.rig.gait
        legs, feet = rig.legs, self.feet
        reach = legs.limb.reach
        comfort = gait.comfort_extension * reach
        # look ahead by twice the halflife (the spring lags its goal by about that), but a
        # planted foot only as far as it stays down
        duty = pace.duty
        until_lift = np.maximum(duty[:, None] - self._foot_phase(), 0.0) / pace.rate[:, None]
        lead = np.minimum(until_lift, 2.0 * gait.pelvis_halflife)
        hip_x = self._hips_x(x_new) + self.vx[:, None] * lead
        # standing still, only flat feet count: the pelvis settles until both rest flat (a
        # roll lets a walking leg reach, but is no pose to stand in: stopped on a stair, a
        # foot kept its toes up to 25°)
        standing = (
            feet.planted.all(axis=1)
            & (np.abs(self.vx) < self.rig.tuning.still_speed)
            & ~self.turning
        )
        if standing.any():
            flat_ankles = np.where(standing[:, None, None], feet.lock, support.flat_ankles)
            support = replace(
                support, flat=support.flat | standing[:, None], flat_ankles=flat_ankles
            )
        high = self._highest_hips(support, hip_x, gait.comfort_extension)
        swinging = feet.swinging
        hovering = swinging & (feet.u >= 1.0)
        dx = np.where(hovering, hip_x - feet.land[..., 0], feet.land_dx)
        # Pythagoras: a hip dx away from the foot is at most √(R² − dx²) above it; the floor
        # keeps a wildly far foot from sinking the pelvis below half a leg
        rise = np.sqrt(np.maximum(comfort * comfort - dx * dx, (0.5 * comfort) ** 2))
        # the pelvis need only be that low at touchdown: until then it may be as much higher
        # as it can come down in the time left, which running ends sooner by the spring's lag
        # (with the goal reached only at touchdown, the pelvis got there ~0.1 s late, the foot
        # hovered 2-3 cm short of its spot and the other leg, at full stretch, held the hip:
        # a run down the bump's far side lost 1.5 m/s in a step)
        landing_ground = self.terrain.height_at(feet.land_lock[..., 0])
        down = (
            landing_ground < self.terrain.height_at(x_new)[:, None] - self.rig.tuning.lower_landing
        )
        lag = 2.0 * gait.pelvis_halflife * run_fraction(self.vx, gait)[:, None] * down
        left = (
            np.maximum((1.0 - feet.u) * feet.duration - lag, 0.0) * self.rig.tuning.landing_descent
        )
        # (a swing re-aimed after hovering has no time left: it already waited)
        landing = feet.land[..., 1] + rise + np.where(feet.relaunched, 0.0, left)
        allowed = np.where(feet.planted, high, np.where(swinging, landing, np.inf))
        allowed = allowed.min(axis=1)
        # standing height over the ground here: a drop ahead is for the landing's reach
        # (``allowed``) to bring the pelvis down to (the lower of here and a swing ahead kept
        # it a rise low all down a flight: a crouch, the stance knee at 94°); a riser up that
        # the body reaches within stair_lead counts already (standing over the ground here,
        # the pelvis rose only once over a tread: at a flight's foot the front knee bent to
        # 75° with the rear foot in the air and went on bending, up to 45° further once
        # loaded: a squat; now a loaded stance knee on a tread only straightens)
        ground = self.terrain.height_at(x_new)
        soon = x_new + self.vx * self.rig.tuning.stair_lead
        risers = self.terrain.risers(MIN_RISER, RISER_WINDOW)
        lo, hi = np.minimum(x_new, soon)[:, None], np.maximum(x_new, soon)[:, None]
        riser_soon = ((risers > lo) & (risers < hi)).any(axis=1)
        ground = np.where(riser_soon, np.maximum(ground, self.terrain.height_at(soon)), ground)
        # standing, at least over the lower foot's ground (both feet on a tread, with the
        # pelvis still over the riser below it, stood with both knees bent 70°)
        feet_ground = self.terrain.height_at(feet.lock[..., 0]).min(axis=1)
        ground = np.where(standing, np.maximum(ground, feet_ground), ground)
        run = run_fraction(self.vx, gait)
        stand = ground + legs.ankle_height + gait.stand_extension * reach - gait.run_sink * run
        moving = clamp(np.abs(self.vx) / (0.5 * gait.walk_speed), 0.0, 1.0)
        amplitude = (gait.bob_walk * (1.0 - run) - gait.bob_run * run) * moving
        # highest (walking) or lowest (running) at mid-stance of either foot: phase duty / 2
        bob = amplitude * np.cos(2.0 * np.pi * (2.0 * self.phase - duty))
        goal = np.minimum(stand + bob, allowed) - self.rig.tuning.crouch_drop * smoothstep(
            self.crouch
        )
        if self.turning.any():
            # pivoting: straight legs, the knees pass the middle with the least sideways room
            here = self._hips_x(x_new)
            tall = self._highest_hips(support, here, gait.lock_extension)
            goal = np.where(
                self.turning, tall.min(axis=1) - self.rig.tuning.flatten_margin / 4.0, goal
            )
        # about to pivot, or pivoting while the last squaring foot lands: just low enough that
        # both feet come down flat (rising for the pivot first, the landing foot could not
        # reach its spot and hovered, holding the pivot for 0.3 s)
        still_landing = self.turning & feet.swinging.any(axis=1)
        goal = np.where(
            self.reversing | still_landing, allowed - self.rig.tuning.flatten_margin, goal
        )
        # pivoting, the pelvis rises briskly: the knees must be straight mid-pivot
        halflife = np.where(self.turning, self.rig.tuning.pivot_halflife, gait.pelvis_halflife)
        y, _ = spring_step(self.y, self.vy, goal, halflife, dt)
        limit = gait.max_pelvis_speed * dt
        # running (the run asked for) up a slope (not a flight, paced by its treads) with
        # the pelvis well below its goal, it rises back that much faster: running onto the
        # steep slope, climbing it took 0.42 of the 0.58 m/s, and a pelvis 20 cm low after
        # the step onto it stayed crouched 1.3 s
        near = (np.abs(risers[None, :] - x_new[:, None]) <= gait.max_step_reach).any(axis=1)
        low = self.sprinting & ~near & (goal - self.y > self.rig.tuning.rise_back)
        climb = np.where(low, self._grade() * (x_new - self.x), 0.0)
        return self.y + clamp(y - self.y, -limit, limit + np.maximum(climb, 0.0))

    def _cap_pelvis(
        self, x_new: FloatArray, y_new: FloatArray, support: _Support, dt: float
    ) -> FloatArray:
        """Lower the pelvis (within its speed limit) where a planted leg would over-stretch
        even with its foot rolled."""
        gait, feet = self.rig.gait, self.feet
        high = self._highest_hips(support, self._hips_x(x_new), gait.lock_extension)
        cap = np.where(feet.planted, high, np.inf).min(axis=1)
        return np.maximum(np.minimum(y_new, cap), self.y - gait.max_pelvis_speed * dt)

    def _hold_planted(
        self, x_old: FloatArray, x_new: FloatArray, y_new: FloatArray, support: _Support
    ) -> FloatArray:
        """Stop the hip where a planted leg would stretch past ``lock_extension`` whatever
        its foot's roll."""
        gait, feet = self.rig.gait, self.feet
        offset = self._hips_x(x_new) - x_new[:, None]
        lo, hi = self._hip_x_range(support, y_new[:, None], gait.lock_extension)
        lo = np.where(feet.planted, lo - offset, -np.inf).max(axis=1)
        hi = np.where(feet.planted, hi - offset, np.inf).min(axis=1)
        # only ever cancel motion, never push the hip somewhere it was not going
        return clamp(x_new, np.minimum(lo, x_old), np.maximum(hi, x_old))

    def _roll_stance(self, pace: Pace) -> None:
        """Each planted foot's pitch: the scheduled roll (heel strike rolling flat, heel
        lift toward toe-off), or more heel lift / toe up where the leg needs it to reach
        the hip within ``comfort_extension`` (the heel lifts before the pelvis drops)."""
        gait, legs, feet = self.rig.gait, self.rig.legs, self.feet
        progress = self._stance_progress(pace.duty[:, None])
        moving = clamp(np.abs(self.vx) / (0.4 * gait.walk_speed), 0.0, 1.0)[:, None]
        loading = self.rig.tuning.loading * pace.stance_time[:, None]
        landing = landing_roll(feet, loading)
        # the heel lift takes over from the landing roll only once it is done, gradually
        settled = smoothstep((feet.stance_age - loading) / loading)
        lift = heel_lift_schedule(progress, moving, legs) * settled
        hips = xy(self._hips_x(self.x), self.y[:, None])
        facing = self.facing[:, None]
        # rolled only as far as the leg needs to stay inside its lock extension (the pelvis
        # aims lower, at the comfort extension, so this is the margin, not the rule)
        reach = (gait.lock_extension - self.rig.tuning.roll_margin) * legs.limb.reach
        limits = roll_limits(hips[..., 0], feet.lock, facing, landing, legs)
        need_up, need_down = needed_pitch(feet.lock, feet.angle, facing, hips, reach, limits, legs)
        # the landing roll settles on its own, the heel lifts on schedule, and whatever the
        # schedule the leg gets at least the roll it needs to reach (within the limits)
        _, max_down = limits
        scheduled = np.where(landing != 0.0, landing, clamp(lift, -max_down, 0.0))
        pitch = np.minimum(scheduled, np.where(need_down < 0.0, need_down, np.inf))
        pitch = np.maximum(pitch, np.where(need_up > 0.0, need_up, -np.inf))
        feet.pitch = np.where(feet.planted & ~self.turning[:, None], pitch, 0.0)

    # -- pose --------------------------------------------------------------------------
    def _stoop_clear_of_walls(self, pelvis: FloatArray, spine: FloatArray) -> FloatArray:
        """``spine`` (N,, radians forward) tipped no further than keeps the head (a head's
        radius off) behind a wall ahead: ground rising above the pelvis within the torso's
        length (crouched to set the cup down at the loft's wall, his head and shoulders went
        15 cm into it: playtest 13)."""
        body = self.rig.body
        torso = body.spine + body.neck + 2.0 * body.head_radius
        ahead = np.linspace(0.0, torso, 16)
        xs = pelvis[:, :1] + self.facing[:, None] * ahead
        wall = self.terrain.height_at(xs) > pelvis[:, 1:]
        first = np.where(wall.any(axis=1), ahead[np.argmax(wall, axis=1)], np.inf)
        room = np.clip((first - body.head_radius) / torso, 0.0, 1.0)
        most = np.arcsin(room)  # the head's lean: sin(spine) · torso <= room to the wall
        return np.where(np.isfinite(first), np.clip(spine, -most, most), spine)

    def _pose_inputs(
        self, grade: FloatArray, previous: PoseInputs | None = None, dt: float = 0.0
    ) -> PoseInputs:
        """This step's pose, the body leaning into the ground's ``grade`` (N,); with the
        ``previous`` step's pose (``dt`` seconds ago) the hands move on from where they
        were at a hand's speed (:func:`follow_hands`)."""
        rig = self.rig
        body, legs = rig.body, rig.legs
        feet = self.feet
        facing = self.facing
        spin = self.spin
        pelvis = xy(self.x, self.y)
        # lean into the direction of travel, and into the slope (forward uphill, back down)
        lean = body.lean_per_speed * self.vx + body.lean_per_slope * np.arctan(grade)
        self.lean += (lean - self.lean) * halflife_blend(
            dt or 1.0 / 60.0, self.rig.tuning.lean_halflife
        )
        # a crouch stoops the spine forward on top of the lean (already eased: no lag; by
        # the spin, so a pivot would pass the middle upright)
        spine = self.lean + spin * self.rig.tuning.crouch_stoop_rad * smoothstep(self.crouch)
        if (self.crouch > 0.0).any():
            spine = self._stoop_clear_of_walls(pelvis, spine)
        spine_dir = xy(np.sin(spine), np.cos(spine))
        chest = pelvis + body.spine * spine_dir
        head = chest + (body.neck + body.head_radius) * spine_dir
        side = FOOT_SIDE[:, None] * np.abs(spin)[:, None, None]
        hips = pelvis[:, None, :] + side * np.array([body.hip_depth, 0.0])
        shoulders = chest[:, None, :] + side * np.array([body.shoulder_depth, 0.0])
        stance_at, stance_angle, stance_bend = self._stance_feet()
        turning = self.turning[:, None]
        pivot_at = self._pivot_ankles() if self.turning.any() else stance_at
        stance_at = np.where(turning[..., None], pivot_at, stance_at)
        swinging = feet.swinging
        if swinging.any():
            swing_at, swing_angle, swing_bend, floor, hold = swing_pose(
                feet, facing, self.swing_ground, legs, dt
            )
            feet.floor = np.where(swinging, floor, feet.floor)
            feet.hold = hold
            if self.turning.any():
                # a foot landing as the pivot starts turns about its ball as the planted one
                # does (:meth:`_pivot_ankles`): the ankle moves by ball · (from − spin) along
                # the sole
                shift = np.where(self.turning, legs.ball * (self.turn_from - spin), 0.0)
                sole = xy(np.cos(swing_angle), np.sin(swing_angle))
                swing_at = swing_at + shift[:, None, None] * sole
            reach = self.rig.gait.comfort_extension * legs.limb.reach
            swing_at = within_reach(swing_at, hips, reach)
        else:  # every foot down: nothing swings
            swing_at, swing_angle, swing_bend = stance_at, stance_angle, stance_bend
        ankles = np.where(
            feet.pinned[..., None],
            self.pin_target,
            np.where(swinging[..., None], swing_at, stance_at),
        )
        foot_angle = np.where(swinging, swing_angle, stance_angle)
        foot_bend = np.where(swinging, swing_bend, np.where(turning, 0.0, stance_bend))
        foot_bend = np.where(feet.pinned, 0.0, foot_bend)
        # the arms follow the turning facing (spin), so they too pass the middle smoothly
        swing = swing_hands(shoulders, hips, ankles, spin, self.vx, rig)
        reaching = self.hand_weight.any()
        hands = blend_hands(swing, self.hand_target, self.hand_weight) if reaching else swing
        if previous is not None:
            last = previous.targets[:, ARMS] - previous.roots[:, ARMS]
            hands = follow_hands(last, hands, shoulders, facing, dt, rig)
        if reaching or (self.crouch > 0.0).any():
            # a hand stays above the ground (crouched on a slope, the free hand hung 7 cm into it)
            floor = self.terrain.height_at(hands[..., 0]) + self.rig.tuning.hand_clear
            hands = xy(hands[..., 0], np.maximum(hands[..., 1], floor))
        knee_pole = knee_poles(hips, ankles, spin, legs)
        elbow_pole = elbow_poles(shoulders, hands, spin, rig)
        pole_on = np.ones((self.count, 4), dtype=bool)  # elbows always; knees as switched
        pole_on[:, LEGS] = self.knee_poles[:, None]
        return PoseInputs(
            pelvis=pelvis,
            chest=chest,
            head=head,
            facing=facing.copy(),
            spin=spin,
            roots=np.concatenate([shoulders, hips], axis=1),
            targets=np.concatenate([hands, ankles], axis=1),
            poles=np.concatenate([elbow_pole, knee_pole], axis=1),
            pole_on=pole_on,
            foot_angle=foot_angle,
            foot_bend=foot_bend,
        )

    def _count_knee_flips(self) -> None:
        """A knee flips when its side of the hip→ankle line, relative to facing, changes
        between steps while the leg is bent (straight legs have no side)."""
        hip = self.pose.roots[:, LEGS]
        along = self.solution.hand[:, LEGS] - hip
        to_knee = self.solution.elbow[:, LEGS] - hip
        # 2-D cross product: |a||k| sin(angle from hip→ankle to hip→knee)
        cross = along[..., 0] * to_knee[..., 1] - along[..., 1] * to_knee[..., 0]
        norm = np.hypot(along[..., 0], along[..., 1]) * np.hypot(to_knee[..., 0], to_knee[..., 1])
        bent = np.abs(cross) > self.rig.tuning.bent_sin * np.maximum(norm, 1e-12)
        side = np.sign(cross) * self.facing[:, None]
        flipped = bent & (self.knee_side != 0) & (side != self.knee_side)
        self.knee_flips += flipped.sum(axis=1)
        self.knee_side = np.where(bent, side, self.knee_side)
