"""N walking characters as structure-of-arrays: body, feet, pose inputs and one batched solve.

The walk scene is N = 1 (the hero); the crowd scene runs hundreds on the same code. One
fixed step is: intent → velocity (halflife) → feet (swings advance, landings lock, stepping
wishes, lifts with predicted landing spots) → pelvis height (lowered so every foot reaches,
halflife + speed limit, a small bob) → the hard lock that keeps planted legs in the solver's
exact zone → pose inputs (roots, targets, poles) → one ``ik.solve_2d`` call for all 4·N limbs.
"""

from __future__ import annotations

import math
from contextlib import nullcontext
from dataclasses import dataclass, fields
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

import ik
from game.profiling import PhaseTimer
from game.world.arms import blend_hands, swing_hands
from game.world.easing import clamp, halflife_blend, halflife_travel
from game.world.gait import (
    FOOT_SIDE,
    Feet,
    choose_lifts,
    plan_landing,
    swing_apex,
    swing_pose,
    update_wants,
)
from game.world.rig import Rig
from game.world.terrain import Terrain

FloatArray = NDArray[np.float64]
BoolArray = NDArray[np.bool_]

ARMS = slice(0, 2)
LEGS = slice(2, 4)
_BENT = math.sin(math.radians(2.0))  # a knee counts as bent when sin(hip angle) exceeds this
_MOVE_DEADBAND = 0.05  # |move| below this keeps the current facing
_HOVER_LIMIT = 1.4  # swing progress after which a foot that could not plant re-aims
_SLOPE_PROBES = np.array([0.0, 0.5, 1.0])  # fractions of the stopping distance ahead
# the (N, ...) array attributes of a Crowd besides feet and poses (what resize carries over)
_PER_CHARACTER = (
    "x",
    "y",
    "facing",
    "vx",
    "knee_poles",
    "hand_weight",
    "hand_target",
    "pin_target",
    "knee_side",
    "knee_flips",
    "step_trigger",
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
    roots, targets, poles : ndarray, shape (N, 4, 2)
        Per limb in :data:`game.world.rig.LIMBS` order: shoulder/hip, hand/ankle target,
        pole locator.
    pole_on : ndarray of bool, shape (N, 4)
        The pole hint is used; where it is off the solver gets a fixed world-up locator,
        the default a pole-less rig falls back to.
    foot_angle : ndarray, shape (N, 2)
        Sole angles (radians).
    """

    pelvis: FloatArray
    chest: FloatArray
    head: FloatArray
    facing: FloatArray
    roots: FloatArray
    targets: FloatArray
    poles: FloatArray
    pole_on: BoolArray
    foot_angle: FloatArray

    def lerp(self, later: PoseInputs, alpha: float) -> PoseInputs:
        """``alpha`` of the way from this pose to ``later``; a character that turned around
        between the two takes ``later`` whole (mirrored poses do not blend)."""
        same = (self.facing == later.facing)[:, None]

        def mix(a: FloatArray, b: FloatArray) -> FloatArray:
            keep = same.reshape(same.shape + (1,) * (a.ndim - 2))
            return np.where(keep, a + (b - a) * alpha, b)

        return PoseInputs(
            pelvis=mix(self.pelvis, later.pelvis),
            chest=mix(self.chest, later.chest),
            head=mix(self.head, later.head),
            facing=later.facing,
            roots=mix(self.roots, later.roots),
            targets=mix(self.targets, later.targets),
            poles=mix(self.poles, later.poles),
            pole_on=later.pole_on,
            foot_angle=mix(self.foot_angle, later.foot_angle),
        )


def solve_pose(rig: Rig, pose: PoseInputs) -> Any:
    """One batched ``ik.solve_2d`` for every limb of every character.

    Returns the solver's ``Solution2D`` with arrays of shape ``(N, 4, ...)``.
    """
    arm, leg = rig.arms.limb, rig.legs.limb
    upper = np.array([arm.upper, arm.upper, leg.upper, leg.upper])
    lower = np.array([arm.lower, arm.lower, leg.lower, leg.lower])
    softness = np.array([arm.softness, arm.softness, leg.softness, leg.softness])
    world_up = pose.roots + np.array([0.0, 1.0])
    poles = np.where(pose.pole_on[..., None], pose.poles, world_up)
    # fallback side where a pole lies on the root→target line: knees forward, elbows back
    bend = pose.facing[:, None] * np.array([-1.0, -1.0, 1.0, 1.0])
    return ik.solve_2d(
        pose.roots, pose.targets, upper, lower, bend=bend, pole=poles, softness=softness
    )


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
        self.x = np.array(x, dtype=float).reshape(-1)
        n = self.x.shape[0]
        self.facing = np.sign(np.broadcast_to(np.asarray(facing, dtype=float), (n,))).copy()
        self.facing[self.facing == 0] = 1.0
        self.vx = np.zeros(n)
        self.knee_poles = np.ones(n, dtype=bool)
        self.hand_weight = np.zeros((n, 2))  # 0: the hand swings, 1: it is at hand_target
        self.hand_target = np.zeros((n, 2, 2))
        self.pin_target = np.zeros((n, 2, 2))
        self.knee_side = np.zeros((n, 2))
        self.knee_flips = np.zeros(n, dtype=np.int64)
        self.step_trigger = np.full(n, rig.gait.idle_tolerance)  # how far behind a foot may fall
        self.y = np.zeros(n)
        self.feet = self._stand(np.zeros((n, 2), dtype=bool))
        self.pose = self._pose_inputs()
        self.prev_pose = self.pose
        self.solution = solve_pose(self.rig, self.pose)
        self.prev_solution = self.solution  # the solve of prev_pose (for drawing LOD)

    @property
    def count(self) -> int:
        """N, the number of characters."""
        return int(self.x.shape[0])

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
        self.prev_solution = self.solution

    # -- assets ------------------------------------------------------------------------
    def apply_assets(self, rig: Rig, terrain: Terrain) -> None:
        """Swap the rig and terrain (live reload): feet are set down on the new ground."""
        self.rig = rig
        self.terrain = terrain
        self.feet = self._stand(self.feet.pinned)
        self.pose = self._pose_inputs()
        self.prev_pose = self.pose
        self.solution = solve_pose(self.rig, self.pose)
        self.prev_solution = self.solution

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
            ankles = self.solution.hand[:, LEGS]
            self._start_swings(again, ankles, self.pose.foot_angle, self.x, self.vx)

    def _stand(self, pinned: BoolArray) -> Feet:
        """Both feet planted at their standing spots and the pelvis at standing height."""
        legs, gait = self.rig.legs, self.rig.gait
        lo, hi = self.terrain.x_range
        self.x = clamp(self.x, lo, hi)
        foot_x = self.x[:, None] + FOOT_SIDE * gait.stance_spread
        ground = self.terrain.height_at(foot_x)
        ankles = np.stack([foot_x, ground + legs.ankle_height], axis=-1)
        slope = np.arctan(self.terrain.slope_at(foot_x))
        angles = clamp(slope, -legs.max_tilt, legs.max_tilt)
        ray_from = ankles + np.array([0.0, legs.limb.reach])
        feet = Feet.standing(ankles, angles, ray_from)
        feet.pinned = pinned.copy()
        self.y = ground.min(axis=1) + legs.ankle_height + gait.stand_extension * legs.limb.reach
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
        move_a = clamp(np.nan_to_num(np.asarray(move, dtype=float)), -1.0, 1.0)
        run_a = clamp(np.nan_to_num(np.asarray(run, dtype=float)), 0.0, 1.0)
        turned = (
            np.where(
                move_a > _MOVE_DEADBAND, 1.0, np.where(move_a < -_MOVE_DEADBAND, -1.0, self.facing)
            )
            != self.facing
        )
        self.facing = np.where(turned, -self.facing, self.facing)
        top_speed = gait.walk_speed + (gait.run_speed - gait.walk_speed) * run_a
        v_target = self._unblocked(move_a * top_speed)
        self.vx += (v_target - self.vx) * halflife_blend(dt, gait.accel_halflife)
        x_old = self.x
        x_free = x_old + self.vx * dt
        self._update_pins(pinned, x_free, v_target)
        self._advance_swings(dt, x_free)
        # a swing aimed the old way, or hovering at a spot it still cannot reach, re-aims
        # from where the foot is now
        relaunch = self.feet.swinging & (turned[:, None] | (self.feet.u > _HOVER_LIMIT))
        if relaunch.any():
            swing_at, swing_angle = swing_pose(self.feet, self.facing, self.rig)
            self._start_swings(relaunch, swing_at, swing_angle, x_free, v_target)
        self._trigger_steps(x_free, v_target)
        y_new = self._pelvis_height(x_free, dt)
        x_new = self._hold_planted(x_old, x_free, y_new)
        y_new = self._cap_pelvis(x_new, y_new, dt)
        self.vx = np.where(x_new != x_free, (x_new - x_old) / dt, self.vx)
        self.x, self.y = x_new, y_new
        self.pose = self._pose_inputs()

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
        """The pose ``alpha`` of the way from the previous step, and its batched solve."""
        pose = self.prev_pose.lerp(self.pose, alpha)
        return pose, solve_pose(self.rig, pose)

    # -- body --------------------------------------------------------------------------
    def _run_fraction(self, speed: FloatArray) -> FloatArray:
        gait = self.rig.gait
        span = max(gait.run_speed - gait.walk_speed, 1e-6)
        return clamp((np.abs(speed) - gait.walk_speed) / span, 0.0, 1.0)

    def _swing_time(self, speed: FloatArray) -> FloatArray:
        gait = self.rig.gait
        run = self._run_fraction(speed)
        return gait.swing_time_walk + (gait.swing_time_run - gait.swing_time_walk) * run

    def _half_stride(self, speed: FloatArray) -> FloatArray:
        """How far ahead of the hip a foot lands (and behind it lifts) at ``speed``."""
        gait = self.rig.gait
        run = self._run_fraction(speed)
        stance = gait.stance_time_walk + (gait.stance_time_run - gait.stance_time_walk) * run
        # the foot sweeps from +v·T/2 to −v·T/2 under the hip during a stance of T seconds
        return clamp(speed * stance / 2.0, -gait.max_step_reach, gait.max_step_reach)

    def _unblocked(self, v_target: FloatArray) -> FloatArray:
        """``v_target`` slowed on steep ground (the body climbs at most ``climb_speed``) and
        stopped before a too-tall rise or drop, or the end of the world."""
        gait, legs = self.rig.gait, self.rig.legs
        span = gait.max_step_reach
        direction = np.sign(v_target)
        # look as far ahead as it takes to slow down: a halflife deceleration covers v·h / ln 2
        stopping = np.abs(self.vx) * gait.accel_halflife / math.log(2.0)
        # steepest mean slope over a stride, here and up to the stopping distance ahead
        # (stairs count as the ramp they make)
        centres = self.x[:, None] + direction[:, None] * stopping[:, None] * _SLOPE_PROBES
        heights = self.terrain.height_at(centres[..., None] + np.array([-span, span]))
        mean_slope = np.abs(heights[..., 1] - heights[..., 0]).max(axis=1) / (2.0 * span)
        cap = gait.climb_speed / np.maximum(mean_slope, 1e-6)
        v_target = clamp(v_target, -cap, cap)
        probe_x = self.x + direction * (span + stopping)
        feet = self.feet
        support = np.where(feet.planted, feet.lock[..., 1] - legs.ankle_height, -np.inf).max(1)
        support = np.where(np.isfinite(support), support, self.terrain.height_at(self.x))
        rise = np.abs(self.terrain.height_at(probe_x) - support)
        lo, hi = self.terrain.x_range
        blocked = (rise > gait.max_step_height) | (probe_x < lo) | (probe_x > hi)
        return np.where(blocked, 0.0, v_target)

    # -- feet --------------------------------------------------------------------------
    def _update_pins(
        self, pinned: BoolArray | None, x_new: FloatArray, v_target: FloatArray
    ) -> None:
        feet = self.feet
        if pinned is None:
            pinned = np.zeros_like(feet.pinned)
        grabbed = pinned & ~feet.pinned
        released = feet.pinned & ~pinned
        feet.planted &= ~grabbed
        feet.wants &= ~grabbed
        feet.pinned = pinned.copy()
        if released.any():
            ankles = self.solution.hand[:, LEGS]
            self._start_swings(released, ankles, feet.angle, x_new, v_target)

    def _advance_swings(self, dt: float, x_new: FloatArray) -> None:
        """Swings progress; a foot at the end of its arc plants once its leg can hold it
        there (until then it hovers over the spot while the pelvis comes down)."""
        rig, feet = self.rig, self.feet
        swinging = feet.swinging
        feet.u = np.where(swinging, feet.u + dt / feet.duration, feet.u)
        hip_x = x_new[:, None] + FOOT_SIDE * rig.body.hip_depth
        distance = np.hypot(hip_x - feet.land[..., 0], self.y[:, None] - feet.land[..., 1])
        holdable = distance <= rig.gait.lock_extension * rig.legs.limb.reach
        landed = swinging & (feet.u >= 1.0) & holdable
        feet.lock = np.where(landed[..., None], feet.land, feet.lock)
        feet.angle = np.where(landed, feet.land_angle, feet.angle)
        feet.planted |= landed
        feet.stance_age = np.where(landed, 0.0, feet.stance_age + dt)
        feet.steps += landed.sum(axis=1)

    def _trigger_steps(self, x_new: FloatArray, v_target: FloatArray) -> None:
        rig, gait = self.rig, self.rig.gait
        feet = self.feet
        reach = rig.legs.limb.reach
        hip_x = x_new[:, None] + FOOT_SIDE * rig.body.hip_depth
        ideal_x = x_new[:, None] + FOOT_SIDE * gait.stance_spread
        facing = self.facing[:, None]
        lag = (ideal_x - feet.lock[..., 0]) * facing
        behind = np.maximum(gait.idle_tolerance, np.abs(self._half_stride(self.vx)))[:, None]
        ahead = (gait.idle_tolerance + np.abs(self._half_stride(v_target)))[:, None]
        dx = hip_x - feet.lock[..., 0]
        dy = self.y[:, None] - feet.lock[..., 1]
        extension = np.hypot(dx, dy)
        unplant = gait.unplant_extension * reach
        # how long each planted leg can still carry the hip before it over-extends
        # (Pythagoras: at height dy the hip may be √(U² − dy²) past the ankle)
        slack = np.sqrt(np.maximum(unplant * unplant - dy * dy, 0.0)) - dx * facing
        slack = np.where(feet.planted, slack, np.inf)
        swing = self._swing_time(self.vx) + gait.double_support
        travel = halflife_travel(self.vx, v_target, swing, gait.accel_halflife)[:, None] * facing
        relieve = (slack[:, ::-1] < travel) & (lag >= lag[:, ::-1])
        update_wants(feet, lag, behind, ahead, extension, unplant, gait.step_hysteresis, relieve)
        self.step_trigger = behind[:, 0]
        urgency = np.maximum(np.maximum(lag - behind, -lag - ahead), extension - unplant)
        # ties go to the far foot, so a mirrored state steps the mirrored foot
        urgency -= 1e-9 * FOOT_SIDE * facing
        lift = choose_lifts(feet, urgency, gait.double_support)
        if lift.any():
            self._start_swings(lift, feet.lock, feet.angle, x_new, v_target)

    def _start_swings(
        self,
        mask: BoolArray,
        ankles: FloatArray,
        angles: FloatArray,
        x_new: FloatArray,
        v_target: FloatArray,
    ) -> None:
        """Lift the feet in ``mask`` (N, 2) from ``ankles`` (N, 2, 2) with sole ``angles``
        (N, 2) toward spots predicted from the body's velocity."""
        rig, gait = self.rig, self.rig.gait
        feet = self.feet
        n, f = np.nonzero(mask)
        start = ankles[n, f].copy()
        duration = self._swing_time(self.vx[n])
        # where the hip will be at touchdown, and how fast it will be going then
        hip_land = x_new[n] + halflife_travel(
            self.vx[n], v_target[n], duration, gait.accel_halflife
        )
        decay = 2.0 ** (-duration / gait.accel_halflife)
        v_land = v_target[n] + (self.vx[n] - v_target[n]) * decay
        predicted = hip_land + self._half_stride(v_land) + FOOT_SIDE[f] * gait.stance_spread
        land, angle, ray_from, ray_hit = plan_landing(
            self.terrain, rig, start, predicted, self.y[n], self.facing[n]
        )
        feet.start[n, f] = start
        feet.land[n, f] = land
        feet.apex[n, f] = swing_apex(self.terrain, rig, start, land, self.facing[n])
        feet.start_angle[n, f] = angles[n, f]
        feet.land_angle[n, f] = angle
        feet.land_dx[n, f] = hip_land + FOOT_SIDE[f] * rig.body.hip_depth - land[:, 0]
        feet.ray_from[n, f] = ray_from
        feet.ray_hit[n, f] = ray_hit
        feet.u[n, f] = 0.0
        feet.duration[n, f] = duration
        feet.planted[n, f] = False
        feet.wants[n, f] = False

    # -- pelvis ------------------------------------------------------------------------
    def _pelvis_height(self, x_new: FloatArray, dt: float) -> FloatArray:
        """Pelvis y this step: low enough that each foot reaches comfortably, smoothed."""
        rig, gait = self.rig, self.rig.gait
        legs, feet = rig.legs, self.feet
        reach = legs.limb.reach
        comfort = gait.comfort_extension * reach
        # look ahead by twice the halflife: the smoothed pelvis lags its target by about that
        ahead_x = x_new + self.vx * (2.0 * gait.pelvis_halflife)
        hip_x = ahead_x[:, None] + FOOT_SIDE * rig.body.hip_depth
        swinging = feet.swinging
        hovering = swinging & (feet.u >= 1.0)
        dx = np.where(feet.planted, hip_x - feet.lock[..., 0], feet.land_dx)
        dx = np.where(hovering, hip_x - feet.land[..., 0], dx)
        foot_y = np.where(feet.planted, feet.lock[..., 1], feet.land[..., 1])
        # Pythagoras: a hip dx away from the foot is at most √(R² − dx²) above it; the floor
        # keeps a wildly far foot from sinking the pelvis below half a leg
        rise = np.sqrt(np.maximum(comfort * comfort - dx * dx, (0.5 * comfort) ** 2))
        allowed = np.where(feet.planted | swinging, foot_y + rise, np.inf).min(axis=1)
        # the pelvis starts down before a drop: the lower of the ground here and a swing ahead
        ahead = x_new + self.vx * (gait.swing_time_walk + 2.0 * gait.pelvis_halflife)
        ground = np.minimum(self.terrain.height_at(x_new), self.terrain.height_at(ahead))
        stand = ground + legs.ankle_height + gait.stand_extension * reach
        walking = clamp(np.abs(self.vx) / gait.walk_speed, 0.0, 1.0)
        bob = gait.bob * walking * np.where(swinging, np.sin(np.pi * feet.u), 0.0).max(axis=1)
        target = np.minimum(stand, allowed) + bob
        limit = gait.max_pelvis_speed * dt
        step = clamp((target - self.y) * halflife_blend(dt, gait.pelvis_halflife), -limit, limit)
        return self.y + step

    def _cap_pelvis(self, x_new: FloatArray, y_new: FloatArray, dt: float) -> FloatArray:
        """Lower the pelvis (within its speed limit) where a planted leg would over-stretch."""
        rig, feet = self.rig, self.feet
        lock_len = rig.gait.lock_extension * rig.legs.limb.reach
        dx = x_new[:, None] + FOOT_SIDE * rig.body.hip_depth - feet.lock[..., 0]
        # Pythagoras: a hip dx from the ankle may be at most √(R² − dx²) above it
        above = np.sqrt(np.maximum(lock_len * lock_len - dx * dx, 0.0))
        cap = np.where(feet.planted, feet.lock[..., 1] + above, np.inf).min(axis=1)
        return np.maximum(np.minimum(y_new, cap), self.y - rig.gait.max_pelvis_speed * dt)

    def _hold_planted(self, x_old: FloatArray, x_new: FloatArray, y_new: FloatArray) -> FloatArray:
        """Stop the hip where a planted leg would stretch past ``lock_extension``."""
        rig, feet = self.rig, self.feet
        lock_len = rig.gait.lock_extension * rig.legs.limb.reach
        held = feet.planted
        dy = y_new[:, None] - feet.lock[..., 1]
        # Pythagoras: at height dy the hip may be ±√(R² − dy²) from the ankle horizontally
        half = np.sqrt(np.maximum(lock_len * lock_len - dy * dy, 0.0))
        centre = feet.lock[..., 0] - FOOT_SIDE * rig.body.hip_depth
        lo = np.where(held, centre - half, -np.inf).max(axis=1)
        hi = np.where(held, centre + half, np.inf).min(axis=1)
        # only ever cancel motion, never push the hip somewhere it was not going
        return clamp(x_new, np.minimum(lo, x_old), np.maximum(hi, x_old))

    # -- pose --------------------------------------------------------------------------
    def _pose_inputs(self) -> PoseInputs:
        rig = self.rig
        body, arms, legs = rig.body, rig.arms, rig.legs
        feet = self.feet
        facing = self.facing
        pelvis = np.stack([self.x, self.y], axis=-1)
        lean = body.lean_per_speed * self.vx  # signed: leans into the direction of travel
        spine_dir = np.stack([np.sin(lean), np.cos(lean)], axis=-1)
        chest = pelvis + body.spine * spine_dir
        head = chest + (body.neck + body.head_radius) * spine_dir
        side = FOOT_SIDE[:, None]
        hips = pelvis[:, None, :] + side * np.array([body.hip_depth, 0.0])
        shoulders = chest[:, None, :] + side * np.array([body.shoulder_depth, 0.0])
        swing_at, swing_angle = swing_pose(feet, facing, rig)
        swinging = feet.swinging
        ankles = np.where(
            feet.pinned[..., None],
            self.pin_target,
            np.where(swinging[..., None], swing_at, feet.lock),
        )
        foot_angle = np.where(swinging, swing_angle, feet.angle)
        swing = swing_hands(shoulders, hips, ankles, facing, self.vx, rig)
        hands = blend_hands(swing, self.hand_target, self.hand_weight)
        forward = facing[:, None, None] * np.array([1.0, 0.0])
        knee_poles = 0.5 * (hips + ankles) + legs.pole_forward * forward
        elbow_offset = np.stack(
            [-facing * arms.pole_back, np.full_like(facing, -arms.pole_down)], axis=-1
        )
        elbow_poles = 0.5 * (shoulders + hands) + elbow_offset[:, None, :]
        pole_on = np.concatenate(
            [np.ones((self.count, 2), dtype=bool), np.repeat(self.knee_poles[:, None], 2, 1)],
            axis=1,
        )
        return PoseInputs(
            pelvis=pelvis,
            chest=chest,
            head=head,
            facing=facing.copy(),
            roots=np.concatenate([shoulders, hips], axis=1),
            targets=np.concatenate([hands, ankles], axis=1),
            poles=np.concatenate([elbow_poles, knee_poles], axis=1),
            pole_on=pole_on,
            foot_angle=foot_angle,
        )

    def _count_knee_flips(self) -> None:
        """A knee flips when its side of the hip→ankle line, relative to facing, changes
        between steps while the leg is bent (straight legs have no side)."""
        hip = self.pose.roots[:, LEGS]
        along = self.solution.hand[:, LEGS] - hip
        to_knee = self.solution.elbow[:, LEGS] - hip
        # 2-D cross product: |a||k| sin(angle from hip→ankle to hip→knee)
        cross = along[..., 0] * to_knee[..., 1] - along[..., 1] * to_knee[..., 0]
        norm = np.hypot(*np.moveaxis(along, -1, 0)) * np.hypot(*np.moveaxis(to_knee, -1, 0))
        bent = np.abs(cross) > _BENT * np.maximum(norm, 1e-12)
        side = np.sign(cross) * self.facing[:, None]
        flipped = bent & (self.knee_side != 0) & (side != self.knee_side)
        self.knee_flips += flipped.sum(axis=1)
        self.knee_side = np.where(bent, side, self.knee_side)
