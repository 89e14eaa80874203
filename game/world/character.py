"""N walking characters: their state, the commands a scene gives them, and one fixed step
as a pipeline of named stages.

The walk scene is N = 1 (the hero); the crowd scene runs hundreds on the same code. The
state is data (:class:`~game.world.walker_state.WalkState`); each stage is a function of
the world, the state and the stage inputs before it, in its own module
(``docs/ARCHITECTURE.md`` lists the stages in order with what each reads and writes).
"""

from __future__ import annotations

import math
from contextlib import nullcontext
from dataclasses import fields
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from game.profiling import PhaseTimer
from game.world.easing import clamp
from game.world.feet import Feet
from game.world.gait import Pace
from game.world.ground_moved import ground_moved
from game.world.locomotion import advance_velocity, begin_reversal, read_wish
from game.world.modes import Mode, next_motion
from game.world.pose import PoseInputs, count_knee_flips, knee_poles, pose_inputs, solve_pose
from game.world.rig import Rig
from game.world.speed import taken_treads
from game.world.stepping import (
    advance_phase,
    advance_swings,
    lift_feet,
    relaunch_swings,
    update_pins,
)
from game.world.support import move_pelvis, planted_support, roll_stance, stand_feet
from game.world.terrain import Terrain
from game.world.timing import ground_grade, timed
from game.world.turning import advance_turn, leave_pivot
from game.world.types import BoolArray, FloatArray
from game.world.walker_state import (
    ARMS,
    LEGS,
    Intent,
    WalkState,
    World,
    put_rows,
    rows_of,
    take_rows,
)

Posed = tuple[PoseInputs, FloatArray, FloatArray | None]
"""A pose asked for by :meth:`Crowd.pose_as`: the pose, the pelvis, the ankles to stand at."""

__all__ = ["ARMS", "LEGS", "Crowd", "Mode", "PoseInputs", "knee_poles", "solve_pose"]


class Crowd:
    """N characters walking one terrain; every array is ``(N, ...)``. They are of the type
    ``rig`` on the ground ``terrain`` (both swappable with :meth:`apply_assets`) and start
    standing at pelvis x ``x`` (N,), facing ``facing`` (N,, +1 or −1).

    Scenes read the state through :attr:`state` (or the read-only shortcuts below) and
    steer a character only through the command methods.
    """

    def __init__(self, rig: Rig, terrain: Terrain, x: ArrayLike, facing: ArrayLike) -> None:
        self.world = World(rig, terrain)
        start_x = np.array(x, dtype=float).reshape(-1)
        n = start_x.shape[0]
        start_facing = np.sign(np.broadcast_to(np.asarray(facing, dtype=float), (n,))).copy()
        start_facing[start_facing == 0] = 1.0
        unset = np.zeros((n, 2, 2))  # the feet are set down on the ground by stand_feet
        self.state = WalkState.at(start_x, start_facing, Feet.standing(unset, unset[..., 0], unset))
        self.state.feet = stand_feet(self.world, self.state, np.zeros((n, 2), dtype=bool))
        self.pose = pose_inputs(self.world, self.state, ground_grade(self.world, self.state))
        self.prev_pose = self.pose
        self.solution = solve_pose(self.rig, self.pose)
        self.prev_solution = self.solution  # the solve of prev_pose (for drawing LOD)
        self._posed: dict[int, Posed] = {}  # poses asked for the next step (pose_as)

    # -- read-only shortcuts into the world and the state ------------------------------
    @property
    def rig(self) -> Rig:
        """The character type."""
        return self.world.rig

    @property
    def terrain(self) -> Terrain:
        """The ground."""
        return self.world.terrain

    @property
    def obstacles(self) -> FloatArray:
        """Things on the ground the feet keep off, rows ``(x0, x1, top)``."""
        return self.world.obstacles

    @property
    def count(self) -> int:
        """N, the number of characters."""
        return self.state.count

    @property
    def turning(self) -> BoolArray:
        """Characters pivoting in place this step, shape (N,)."""
        return self.state.turning

    @property
    def modes(self) -> NDArray[np.int8]:
        """Each character's :class:`Mode` this step, shape (N,)."""
        return self.state.modes(self.rig.tuning.still_speed)

    @property
    def x(self) -> FloatArray:
        """Pelvis x (N,)."""
        return self.state.x

    @property
    def y(self) -> FloatArray:
        """Pelvis y (N,)."""
        return self.state.y

    @property
    def vx(self) -> FloatArray:
        """Pelvis x velocity (N,)."""
        return self.state.vx

    @property
    def facing(self) -> FloatArray:
        """+1 or −1 (N,)."""
        return self.state.facing

    @property
    def feet(self) -> Feet:
        """Both feet of every character."""
        return self.state.feet

    @property
    def lean(self) -> FloatArray:
        """The spine's lean (N,), radians forward."""
        return self.state.lean

    @property
    def crouch(self) -> FloatArray:
        """0 upright … 1 a full crouch (N,)."""
        return self.state.crouch

    @property
    def reversing(self) -> BoolArray:
        """Wants to turn round, not pivoting yet (N,)."""
        return self.state.reversing

    @property
    def sprinting(self) -> BoolArray:
        """The run input held while moving (N,)."""
        return self.state.sprinting

    @property
    def jogging(self) -> BoolArray:
        """A run held to a jog by a steep slope (N,)."""
        return self.state.jogging

    @property
    def blocked(self) -> BoolArray:
        """Walking into ground a step cannot take (N,)."""
        return self.state.blocked

    @property
    def knee_flips(self) -> NDArray[np.int64]:
        """Knee flips counted per character (N,)."""
        return self.state.knee_flips

    @property
    def intent(self) -> Intent:
        """What each character is asked for (written by the command methods)."""
        return self.state.intent

    def resize(self, count: int, x: ArrayLike, facing: ArrayLike) -> None:
        """Keep the first ``count`` characters exactly as they are; characters beyond the
        current N join standing at ``x``, ``facing`` (shape ``(count − N,)``, ignored when
        shrinking). The pose is re-solved so the solution has ``count`` rows."""
        kept = min(count, self.count)
        fresh = Crowd(self.rig, self.terrain, x, facing) if count > self.count else None
        self.state = take_rows(self.state, kept, fresh and fresh.state)
        self.pose = take_rows(self.pose, kept, fresh and fresh.pose)
        self.prev_pose = take_rows(self.prev_pose, kept, fresh and fresh.prev_pose)
        self.solution = solve_pose(self.rig, self.pose)
        self.prev_solution = solve_pose(self.rig, self.prev_pose)

    def reorder(self, order: NDArray[np.intp]) -> None:
        """Move the character in row ``order[i]`` to row ``i`` (a permutation of the rows)
        with its state, poses and solves: every stage works row by row, so each steps on as
        it would have (a crowd kept in ground order this way looks the ground up along it)."""
        order = np.asarray(order)
        if order.ndim != 1 or not np.array_equal(np.sort(order), np.arange(self.count)):
            raise ValueError(f"not a permutation of the {self.count} rows: {order}")
        self.state = rows_of(self.state, order)
        self.pose, self.prev_pose = rows_of(self.pose, order), rows_of(self.prev_pose, order)
        self.solution = self.solution.rows(order)
        self.prev_solution = self.prev_solution.rows(order)
        rolled = self.world.rolled  # (sampled anew when it is of another crowd size)
        same = rolled is not None and len(rolled.lock) == len(order)
        self.world.rolled = rolled.rows(order) if rolled is not None and same else None
        row_of = np.argsort(order)
        self._posed = {int(row_of[n]): posed for n, posed in self._posed.items()}

    def stand_anew(self, x: ArrayLike, facing: ArrayLike) -> None:
        """Every character replaced by new ones standing at ``x``, ``facing`` (shape (N,)):
        a scene's crowd started over in place, as :meth:`resize` makes joiners."""
        self.resize(0, np.zeros(0), np.zeros(0))
        self.resize(len(np.atleast_1d(x)), x, facing)

    # -- assets ------------------------------------------------------------------------
    def apply_assets(self, rig: Rig, terrain: Terrain) -> None:
        """Swap the rig and terrain (live reload): feet are set down on the new ground, a
        pivot under way ends."""
        self.world.rig, self.world.terrain = rig, terrain
        self.state.feet = stand_feet(self.world, self.state, self.feet.pinned)
        leave_pivot(self.state, self.state.turning)
        self.pose = pose_inputs(self.world, self.state, ground_grade(self.world, self.state))
        self.solution = solve_pose(self.rig, self.pose)
        self.prev_pose, self.prev_solution = self.pose, self.solution

    def set_obstacles(self, spans: ArrayLike) -> None:
        """Things resting on the ground that the feet keep off (a cup set down on the floor),
        rows ``(x0, x1, top)``, world metres: a swinging foot clears each as it would a box
        standing there, and no foot lands on one. Empty: none."""
        self.world.obstacles = np.array(spans, dtype=float).reshape(-1, 3)

    def set_terrain(self, terrain: Terrain) -> None:
        """Swap the ground under the walkers (a live edit), keeping their state: the
        ground-moved event (:func:`~game.world.ground_moved.ground_moved`) re-plants each
        foot whose ground moved, or steps it again, at any moment of the gait."""
        old, self.world.terrain = self.world.terrain, terrain
        ground_moved(self.world, self.state, old, self.pose)

    def taken_treads(self) -> FloatArray:
        """The stair treads ``(x0, x1)`` (K, 2) an obstacle leaves no room on for a sole
        (:func:`game.world.speed.taken_treads`)."""
        return taken_treads(self.world, self.state)

    # -- one fixed step ----------------------------------------------------------------
    def step(
        self, move: ArrayLike, run: ArrayLike, dt: float, pinned: BoolArray | None = None
    ) -> None:
        """Advance every character one fixed step of ``dt`` seconds (the solve is
        :meth:`solve`): ``move`` (N,) the walk intent in [−1, 1] (its sign the direction),
        ``run`` (N,) the run blend in [0, 1], ``pinned`` (N, 2) the feet held at
        ``intent.pin_target`` (by the mouse, or a kick; a released foot swings back into
        the gait).

        A character a prop holds in its pose this step (:meth:`pose_as`) skips the gait:
        when every character is posed its stages do not run; otherwise they run for the
        crowd and the posed characters' rows are put back as they were before the step.
        """
        posed, self._posed = self._posed, {}
        rows = np.array(sorted(posed), dtype=np.intp)
        if len(rows) == self.count:
            self.prev_pose = self.pose
        else:
            kept = rows_of(self.state, rows) if len(rows) else None
            self._walk(move, run, dt, pinned)
            if kept is not None:
                put_rows(self.state, rows, kept)
        if len(rows):
            self._hold_poses(posed, rows)

    def _walk(self, move: ArrayLike, run: ArrayLike, dt: float, pinned: BoolArray | None) -> None:
        """The gait's stages, in order, for every character (``docs/ARCHITECTURE.md``)."""
        w, s, gait = self.world, self.state, self.rig.gait
        self.prev_pose = self.pose
        grade = ground_grade(w, s)
        wish = read_wish(w, s, move, run)  # 1. the intent against the state
        begin_reversal(w, s, wish, dt)
        advance_turn(w, s, dt)  # 2. a pivot starts, turns or ends
        v_target = advance_velocity(w, s, wish, dt)  # 3. the ground's caps, the velocity
        pace = Pace.at(timed(w, s, s.vx), grade, gait)
        x_free = s.x + s.vx * dt
        hand = self.solution.hand[:, LEGS]  # the ankles as last solved (shown)
        update_pins(w, s, pinned, hand, x_free, v_target, grade)  # 4. held feet
        advance_phase(w, s, v_target, grade, dt)  # 5. the gait phase
        advance_swings(w, s, dt, x_free, pace, v_target)  # 6. swings progress and land
        support = planted_support(w, s, pace)  # 7. what the planted feet allow the hips
        # 8. swings re-aimed from where the foot was shown
        relaunch_swings(w, s, wish, self.prev_pose, x_free, v_target, grade, support)
        lift_feet(w, s, x_free, v_target, pace, grade, support)  # 9. the lift rules
        move_pelvis(w, s, x_free, pace, support, dt)  # 10. the pelvis, held by the feet
        grade = ground_grade(w, s)
        roll_stance(w, s, Pace.at(timed(w, s, s.vx), grade, gait))  # 11. stance rolls
        self.pose = pose_inputs(w, s, grade, self.prev_pose, dt)  # 12. the pose

    def solve(self, timer: PhaseTimer | None = None) -> Any:
        """The batched solve of this step's pose (timed as ``timer``'s ``ik`` phase); also
        counts knee flips. The solve it replaces stays as ``prev_solution`` (the solve of
        ``prev_pose``)."""
        self.prev_solution = self.solution
        with timer.phase("ik") if timer is not None else nullcontext():
            self.solution = solve_pose(self.rig, self.pose)
        count_knee_flips(self.world, self.state, self.pose, self.solution)
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
        self.state.intent.pin_target[n, foot] = target

    def aim_hands(self, n: int, targets: ArrayLike, weights: ArrayLike) -> None:
        """Character ``n``'s hands reach for ``targets`` (2, 2), each blended over its arm
        swing by its weight in [0, 1] (0: the hand swings with the gait)."""
        self.state.intent.hand_target[n] = targets
        self.state.intent.hand_weight[n] = clamp(weights, 0.0, 1.0)

    def pose_as(
        self, n: int, pose: PoseInputs, pelvis: ArrayLike, stand_at: ArrayLike | None = None
    ) -> None:
        """Hold character ``n`` in ``pose`` (a one-character pose, a ladder's) at the next
        :meth:`step` instead of the gait's: its pelvis at ``pelvis``, standing still, its
        hands off the pointer, its motion POSED. ``stand_at`` (ankles (2, 2)): its feet are
        then put down flat there (stepping off). Asked anew each step; a step without it
        returns the character to the gait."""
        at = None if stand_at is None else np.asarray(stand_at, dtype=float)
        self._posed[n] = (pose, np.asarray(pelvis, dtype=float), at)

    def _hold_poses(self, posed: dict[int, Posed], rows: NDArray[np.intp]) -> None:
        """The posed characters' rows of this step's pose and state (:meth:`pose_as`)."""
        s = self.state
        for n, (pose, pelvis, stand_at) in posed.items():
            self.pose = self.pose.with_character(n, pose)
            s.x[n], s.y[n] = pelvis
            s.vx[n] = 0.0
            s.intent.hand_weight[n] = 0.0
            if stand_at is not None:
                self.stand_at(n, stand_at)
        mask = np.zeros(s.count, dtype=bool)
        mask[rows] = True
        s.motion = next_motion(s.motion, s.wanted, s.reversing, posed=mask)

    def walk_to(self, n: int, x: float | None) -> None:
        """Let character ``n`` walk right up to ``x`` (None: no such spot): a drop or a wall
        just beyond it does not stop the gait a step's reach short (a ladder's spot by the
        loft's edge). Its feet still land only where a sole fits."""
        self.state.intent.goal_x[n] = np.nan if x is None else x

    def crouch_to(self, n: int, amount: float) -> None:
        """Character ``n`` bends its knees and stoops forward by ``amount`` in [0, 1] (1: its
        hands reach the ground just ahead of its toes) over ``crouch_time`` while it stands
        still; walking or turning round, it rises first."""
        self.state.intent.crouch_goal[n] = (
            float(clamp(amount, 0.0, 1.0)) if math.isfinite(amount) else 0.0
        )

    def turn_to(self, n: int, facing: float) -> None:
        """While character ``n`` is not asked to walk, turn it round to ``facing`` (+1 or
        −1) the way a reversal does (squaring the feet, then a pivot) and leave it standing;
        0: no wish. Walking overrides it."""
        self.state.intent.face_goal[n] = np.sign(facing)

    def stand_at(self, n: int, ankles: ArrayLike) -> None:
        """Put character ``n``'s feet down flat at ``ankles`` (2, 2) on level soles now: a
        placement, as :meth:`resize` places new characters (setting a scene up; a prop
        stepping a character off does it through :meth:`pose_as`); its step count carries
        on."""
        at = np.asarray(ankles, dtype=float)[None]
        ray_from = at + np.array([0.0, self.rig.legs.limb.reach])
        standing = Feet.standing(at, np.zeros((1, 2)), ray_from)
        for f in fields(Feet):
            if f.name != "steps":
                getattr(self.state.feet, f.name)[n] = getattr(standing, f.name)[0]

    def lead_with(self, n: int, foot: int | None) -> None:
        """Character ``n`` sets off with ``foot`` (0 left, 1 right; None: the foot behind)."""
        self.state.intent.lead_foot[n] = -1 if foot is None else int(foot)

    def use_knee_poles(self, n: int, on: bool) -> None:
        """Character ``n``'s knees follow their pole hints (off: the solver picks the bend
        side, and knees flip; counted in :attr:`knee_flips`)."""
        self.state.intent.knee_poles[n] = on

    def reset_counts(self) -> None:
        """Footsteps and knee flips start again from zero (new assets)."""
        self.state.feet.steps[:] = 0
        self.state.knee_flips[:] = 0
