"""The walker in 3-D: the 2-D gait run in the frame of the character's own path, carried
onto the heightfield (no pygame).

Everything that does not depend on the dimension is the 2-D walker's, unchanged: gait phase
and duty factor, lift rules, landing costs, support, pelvis, intent and modes run in one
:class:`~game.world.character.Crowd` of one, whose x is the distance walked along the path
(:mod:`game.world.walk3d_path`) and whose ground is the heightfield's profile along it. This
module keeps what only 3-D has: the world position and the yaw, the steering, the path,
and the 3-D pose (:mod:`game.world.walk3d_body`). One step:

1. :meth:`Walker3D._steer`: the wish, slid along the world's end where it leads into it;
   the aim (where the path ahead heads) turns toward it at a limited rate, a hip's turn
   past a planted foot at most (:mod:`game.world.walk3d_steer`), so a reversal turns in
   steps, led by the inner foot; the 2-D walk slows a little while the aim is off the wish.
2. :meth:`Walker3D._follow_path`: beyond the anchor (the pelvis, or the front of the
   furthest planted sole) the path heads along the aim; the 2-D ground is rebuilt
   from it when no swing is far along, or when the pelvis nears its window's end
   (``Crowd.set_terrain``: the 2-D walker's ground-moved event re-plans a swing whose
   landing moved).
3. ``Crowd.step`` and ``Crowd.solve``: the 2-D gait; then the body's yaw
   (:meth:`Walker3D._face`): the path's direction under the pelvis. The feet are laid
   along the path, so a body that faced the aim while the path still ran on to the
   anchor would stand across its own feet.
4. :meth:`Walker3D._pose3d`: the 2-D pose carried into 3-D (soles, ankles, hips, pelvis
   drop, poles) and one ``ik.solve_3d`` for the four limbs; knee flips counted.
"""

from __future__ import annotations

import math
from contextlib import nullcontext
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

import ik
from game.profiling import PhaseTimer
from game.world.character import Crowd
from game.world.easing import halflife_blend, lerp
from game.world.feet import FOOT_SIDE
from game.world.heightfield import Heightfield
from game.world.rig import Rig
from game.world.terrain import Terrain
from game.world.types import BoolArray, FloatArray
from game.world.walk3d_body import (
    BodyFrame,
    Proportions,
    ankles_of,
    hinge_pole,
    knee_side,
    lift_soles,
    on_body,
    pelvis_drop,
    side_by_side,
    solve_limbs,
)
from game.world.walk3d_path import (
    KEEP_BEHIND_M,
    PROFILE_STEP_M,
    ROUND_M,
    PathFrame,
    along_the_edge,
    before_the_edge,
    ground_window_stale,
    heading_vector,
    path_ground,
    right_of,
    yaw_of,
)
from game.world.walk3d_steer import Steering
from game.world.walker_state import ARMS, LEGS

ANCHOR_AHEAD_M = ROUND_M + PROFILE_STEP_M + 0.01  # the path turns this far beyond the
# planted soles: its rounding and a ground sample clear of them, so the 2-D ground under
# them stays the same
LIFT_CHANGE_M_PER_S = 1.2  # m/s: the most a swinging sole point's lift changes (lift_soles)
REACH_SHARE = 1.6  # a hand reaches for a point within this many arm's lengths of it
HAND_HALFLIFE = 0.12  # s: a hand eases onto (and off) the point with this halflife
DROP_HALFLIFE = 0.12  # s: a lowered pelvis rises back with this halflife


@dataclass(frozen=True, slots=True)
class Pose3D:
    """One step's 3-D pose of the walker.

    Attributes
    ----------
    pelvis, chest, head : ndarray, shape (3,)
    yaw : float
        The body's heading, radians (0 faces +x, turning left positive).
    roots, targets, poles : ndarray, shape (4, 3)
        Shoulders and hips, hand and ankle targets, elbow and knee poles (limb order of
        :data:`game.world.rig.LIMBS`).
    elbows, ends : ndarray, shape (4, 3)
        The solve: elbows and knees, hands and ankles.
    soles : ndarray, shape (2, 7, 3)
        Each foot's sole points (:data:`~game.world.walk3d_body.SOLE_POINTS`) at the
        solved ankle.
    normals : ndarray, shape (2, 3)
        The ground's normal under each ankle.
    planted : ndarray of bool, shape (2,)
    """

    pelvis: FloatArray
    chest: FloatArray
    head: FloatArray
    yaw: float
    roots: FloatArray
    targets: FloatArray
    poles: FloatArray
    elbows: FloatArray
    ends: FloatArray
    soles: FloatArray
    normals: FloatArray
    planted: np.ndarray

    def lerp(self, later: Pose3D, alpha: float) -> Pose3D:
        """``alpha`` of the way to ``later`` (for drawing between steps)."""

        def mix(a: FloatArray, b: FloatArray) -> FloatArray:
            return lerp(a, b, alpha)

        turn = math.remainder(later.yaw - self.yaw, 2 * math.pi)
        return Pose3D(
            mix(self.pelvis, later.pelvis),
            mix(self.chest, later.chest),
            mix(self.head, later.head),
            self.yaw + turn * alpha,
            mix(self.roots, later.roots),
            mix(self.targets, later.targets),
            mix(self.poles, later.poles),
            mix(self.elbows, later.elbows),
            mix(self.ends, later.ends),
            mix(self.soles, later.soles),
            mix(self.normals, later.normals),
            later.planted,
        )


class Walker3D:
    """One walker on a heightfield, steered by a wished ground direction.

    Parameters
    ----------
    rig, field :
        The character type and the ground.
    start_xz : array_like, shape (2,)
        Where the pelvis starts on the ground plane.
    yaw : float
        The starting heading (radians, 0 faces +x).
    """

    def __init__(self, rig: Rig, field: Heightfield, start_xz: ArrayLike, yaw: float) -> None:
        self.field = field
        self.body = Proportions.of(rig)
        self.yaw = float(yaw)  # the body's heading
        self.steering = Steering(float(yaw))
        self.path = PathFrame.straight(start_xz, self.yaw)
        self.crowd = Crowd(side_by_side(rig), self._ground(0.0), [0.0], [1.0])
        self.knee_poles = True
        self.knee_flips = 0
        self.edge_held = False  # the last step's wish led mostly off the world's end
        self.drop = 0.0
        self._knee_side = np.ones(2)
        self._lift: FloatArray | None = None  # each sole point's lift last step (2, 7)
        self._shift = np.zeros((2, 2))  # each swinging foot shown off its path place (x, z)
        self._old_path = self.path  # the path the feet were last placed on
        self._ground_path = self.path  # the path the 2-D ground was built along
        self._ground_stale = False  # the path turned since the 2-D ground was built
        self._was_planted = np.ones(2, dtype=bool)  # the feet planted the step before
        self._aim: FloatArray | None = None  # what the nearer hand reaches for
        self._hand_weight = np.zeros(2)  # each hand's share of the way to it
        self._reached = np.zeros((2, 3))  # each hand's point last reached for, off its shoulder
        self.pose = self._pose3d(0.0)
        self.prev_pose = self.pose

    @property
    def rig(self) -> Rig:
        return self.crowd.rig

    @property
    def s(self) -> float:
        """The pelvis's distance along the path."""
        return float(self.crowd.x[0])

    @property
    def aim(self) -> float:
        """The heading of the path beyond the anchor (radians)."""
        return self.steering.aim

    @property
    def speed(self) -> float:
        """The pelvis's speed along the path, m/s."""
        return float(self.crowd.vx[0])

    def _ground(self, s: float) -> Terrain:
        return path_ground(self.path, self.field, s, self.body.hip_half)

    # -- one step --------------------------------------------------------------------
    def step(self, wish: ArrayLike, run: bool, dt: float, timer: PhaseTimer | None = None) -> None:
        """Advance one fixed step toward the ground direction ``wish`` (x, z; its length in
        [0, 1] the share of a walk wished), running if ``run``; both solves are charged to
        ``timer``'s ``ik`` phase."""
        wished = np.asarray(wish, dtype=float)
        wish = along_the_edge(self.field, self.pose.pelvis[[0, 2]], wished)
        # (most of the wish led off the world: the edge holds him)
        self.edge_held = bool(np.hypot(*wish) < 0.5 * np.hypot(*wished))
        move = self._steer(wish, dt)
        self.crowd.lead_with(0, self._inner_foot(wish))
        self._follow_path()
        self.crowd.step([move], [1.0 if run else 0.0], dt)
        self._face()
        with timer.phase("ik") if timer is not None else nullcontext():
            self.crowd.solve()
            self.prev_pose = self.pose
            self.pose = self._pose3d(dt)

    def _steer(self, wish: FloatArray, dt: float) -> float:
        """Turn the aim toward ``wish`` (:class:`~game.world.walk3d_steer.Steering`), held
        by the feet down (each lies along the path at its lock); the 2-D walk intent."""
        planted = self.crowd.feet.planted[0]
        headings = yaw_of(self.path.direction(self.crowd.feet.lock[0, :, 0]))
        headings = np.where(planted, headings, np.nan)
        behind = self.s - self.crowd.feet.lock[0, :, 0]
        walk, standing = self.rig.gait.walk_speed, bool(planted.all())
        return self.steering.steer(wish, self.speed, walk, headings, behind, standing, dt)

    def _inner_foot(self, wish: FloatArray) -> int | None:
        """The foot on the inside of a turn toward ``wish`` (None: no wish, or straight
        ahead). Setting off into a turn it steps first, opening toward the new heading
        (an open step turn), and the body comes round over it, not over the outer foot."""
        if not np.any(wish):
            return None
        turn = math.remainder(float(yaw_of(wish)) - self.yaw, math.tau)  # left positive
        return None if turn == 0.0 else int(turn < 0.0)  # a left turn: the left foot (0)

    def _face(self) -> None:
        """The body's yaw: the path's direction under the pelvis."""
        self.yaw = float(yaw_of(self.path.direction(self.s)))

    def _anchor(self) -> float:
        """Where the path may turn: past the pelvis and every planted sole point, but
        short of the world's end (stopped before its wall, he turns away from it there)."""
        planted = self.crowd.feet.planted[0]
        pose = self.crowd.pose
        soles = pose.soles(pose.targets[:, LEGS], self.rig)[0, ..., 0]  # (2, 3) s
        front = float(soles[planted].max()) if planted.any() else -math.inf
        anchor = max(self.s, front) + ANCHOR_AHEAD_M
        return before_the_edge(self.path, self.field, self.s, anchor)

    def _follow_path(self) -> None:
        """The path ahead along the aim; the 2-D ground rebuilt from it when it changed,
        at a moment no foot is in the air or one has just lifted (a rebuilt ground
        re-plans a swing whose landing moved, from where it is: a swing re-planned every
        step of a turn never lands), or at once when the pelvis is about to leave the
        ground's window."""
        turned = self.path.turned(self._anchor(), self.aim, self.s - KEEP_BEHIND_M)
        self.path = turned.extended(self.s)
        self._ground_stale |= self.path is not turned or turned is not self._ground_path
        planted = self.crowd.feet.planted[0].copy()
        # no foot in the air, or one that lifted since the last step (its swing just begun)
        early = bool(planted.all() or (self._was_planted & ~planted).any())
        self._was_planted = planted
        window = ground_window_stale(self.crowd.terrain, self.s)
        if (self._ground_stale and early) or window:
            # the old ground is kept up to the anchor, but not its wall at the world's end
            # along the old path (the new one may turn away from it)
            cut = before_the_edge(self._ground_path, self.field, self.s, self._anchor())
            kept = (self.crowd.terrain, cut)
            self.crowd.set_terrain(
                path_ground(self.path, self.field, self.s, self.body.hip_half, kept)
            )
            self._ground_path, self._ground_stale = self.path, False

    def aim_hand(self, point: ArrayLike | None) -> None:
        """The nearer hand reaches for ``point`` (x, y, z) while it is within
        :data:`REACH_SHARE` of an arm's length of a shoulder (None: the hands swing)."""
        self._aim = None if point is None else np.asarray(point, dtype=float)

    def _reach(self, shoulders: FloatArray, swing: FloatArray, dt: float) -> FloatArray:
        """The hand targets (2, 3): the swing, eased toward the aimed point for the nearer
        hand (the point pulled within the arm's reach); a hand let go eases back from the
        point it last reached for (kept beside its shoulder as the body moves on)."""
        arm, wanted = self.rig.arms.limb.reach, np.zeros(2)
        if self._aim is not None and not on_body(self._aim, self.pose.pelvis, self.pose.head):
            offset = self._aim - shoulders
            gap = np.linalg.norm(offset, axis=-1)
            near = int(np.argmin(gap))
            if gap[near] < REACH_SHARE * arm:
                wanted[near] = 1.0
                self._reached[near] = offset[near] * min(1.0, 0.98 * arm / gap[near])
        blend = halflife_blend(dt, HAND_HALFLIFE) if dt else 1.0
        self._hand_weight = self._hand_weight + (wanted - self._hand_weight) * blend
        goal = shoulders + self._reached
        result: FloatArray = swing + (goal - swing) * self._hand_weight[:, None]
        return result

    def use_knee_poles(self, on: bool) -> None:
        """Knees follow their poles (off: they bend where the leg leans them, and flip)."""
        self.knee_poles = bool(on)

    # -- the 3-D pose ----------------------------------------------------------------
    def _frame(self, dt: float, hips: FloatArray, ankles: FloatArray) -> BodyFrame:
        """The body's frame this step with the pelvis lowered so each leg reaches."""
        forward = heading_vector(self.yaw)
        centre = self.path.at(self.s)
        frame = BodyFrame(centre, self.s, forward, right_of(forward), 0.0)
        raised = frame.place(hips, FOOT_SIDE * self.body.hip_half)
        reach = self.rig.legs.limb.reach * (1.0 - self.body.reach_margin)
        need = pelvis_drop(raised, ankles, reach)
        eased = self.drop + (0.0 - self.drop) * halflife_blend(dt, DROP_HALFLIFE) if dt else 0.0
        self.drop = max(need, float(eased))
        return BodyFrame(centre, self.s, forward, right_of(forward), self.drop)

    def _pose3d(self, dt: float) -> Pose3D:
        pose, rig, body = self.crowd.pose, self.rig, self.body
        soles_2d = pose.soles(pose.targets[:, LEGS], rig)[0]  # (2, 3, 2)
        ground_2d = self.crowd.terrain.height_at(soles_2d[..., 0])
        swinging = ~self.crowd.feet.planted[0]
        most = LIFT_CHANGE_M_PER_S * dt
        swing = None if self._lift is None else (swinging, self._lift, most)
        shift = self._swing_shift(soles_2d[:, 0, 0], swinging, dt)
        feet = self.crowd.feet
        ankle_s = pose.targets[0, LEGS, 0]
        ref_s = np.where(feet.planted[0], feet.lock[0, :, 0], ankle_s)
        soles, self._lift = lift_soles(
            soles_2d, ground_2d, ref_s, self.path, self.field, body, swing, shift
        )
        ankles = ankles_of(soles, rig)
        frame = self._frame(dt, pose.roots[0, LEGS], ankles)
        sides = np.concatenate([FOOT_SIDE * body.shoulder_half, FOOT_SIDE * body.hip_half])
        roots = frame.place(pose.roots[0], sides)
        hands = frame.place(pose.targets[0, ARMS], FOOT_SIDE * (body.shoulder_half + 0.02))
        targets = np.concatenate([self._reach(roots[ARMS], hands, dt), ankles])
        poles = self._poles(frame, roots, targets, soles)
        solution = solve_limbs(rig, roots, targets, poles, self.knee_poles)
        self.solution = solution
        self._count_flips(roots, solution, poles)
        shift = solution.hand[LEGS] - ankles  # the soles go with the solved ankles
        return Pose3D(
            pelvis=frame.place(pose.pelvis[0], 0.0),
            chest=frame.place(pose.chest[0], 0.0),
            head=frame.place(pose.head[0], 0.0),
            yaw=self.yaw,
            roots=roots,
            targets=targets,
            poles=poles,
            elbows=solution.elbow.copy(),
            ends=solution.hand.copy(),
            soles=soles + shift[:, None, :],
            normals=self.field.normal_at(ankles[:, 0], ankles[:, 2]),
            planted=self.crowd.feet.planted[0].copy(),
        )

    def _swing_shift(self, heel_s: FloatArray, swinging: BoolArray, dt: float) -> FloatArray:
        """How far (2, 2) each swinging foot is shown from its place on the path: a turn
        of the path ahead moves the place of a foot in the air at once; the foot is shown
        where it was and eased onto it by its touchdown (the shift shrinks in proportion
        to the swing time left), so it lands where the 2-D gait put it."""
        lateral = FOOT_SIDE * self.body.hip_half
        moved = np.zeros((2, 2))
        if self.path is not self._old_path and swinging.any():
            moved = self.path.at(heel_s, lateral) - self._old_path.at(heel_s, lateral)
        feet = self.crowd.feet
        left = (1.0 - feet.u[0]) * feet.duration[0]  # s of swing to go
        fade = np.clip(1.0 - dt / np.maximum(left, 1e-9), 0.0, 1.0)
        shift = (self._shift - moved) * fade[:, None]
        self._shift = np.where(swinging[:, None], shift, 0.0)
        self._old_path = self.path
        return self._shift

    def _poles(
        self, frame: BodyFrame, roots: FloatArray, targets: FloatArray, soles: FloatArray
    ) -> FloatArray:
        """Knee poles in front of the knee, between the body's yaw and the foot's
        direction; elbow poles behind and below the shoulder."""
        forward3 = np.array([frame.forward[0], 0.0, frame.forward[1]])
        toes = soles[:, 1] - soles[:, 0]
        toes[:, 1] = 0.0
        toes /= np.maximum(np.linalg.norm(toes, axis=-1, keepdims=True), 1e-9)
        # the foot's direction counts as much as it agrees with the body's (a foot still
        # pointing the old way through a sharp turn must not swing the knee round)
        agree = np.clip(toes @ forward3, 0.0, 1.0)
        toward = forward3 + agree[:, None] * toes
        toward /= np.maximum(np.linalg.norm(toward, axis=-1, keepdims=True), 1e-9)
        knees = hinge_pole(roots[LEGS], targets[LEGS], toward, self.rig.legs.pole_forward)
        right3 = np.array([frame.right[0], 0.0, frame.right[1]])
        behind = -self.body.elbow_back * forward3 - self.body.elbow_down * np.array([0, 1.0, 0])
        elbows = roots[ARMS] + behind + (FOOT_SIDE * 0.1)[:, None] * right3
        return np.concatenate([elbows, knees])

    def _count_flips(self, roots: FloatArray, solution: ik.Solution3D, poles: FloatArray) -> None:
        """A knee crossing to the other side of its hip→ankle line from where it was
        counts as a flip (with the poles on, every knee stays on its pole's side)."""
        knees = np.asarray(solution.elbow[LEGS], dtype=float)
        ankles = np.asarray(solution.hand[LEGS], dtype=float)
        side = knee_side(roots[LEGS], knees, ankles, poles[LEGS])
        self.knee_flips += int(np.count_nonzero(side != self._knee_side))
        self._knee_side = side
