"""The hero's hands on the props (no pygame): one goal at a time, and one thing carried.

A prop that wants a hand (the door's knob, the cup, a spot to set the cup down) hands
:class:`PropHands` a :class:`~game.world.props.grip.Grip`: the hands walk him within reach
of its point (a point on the table top: to the stand at one of its ends,
:mod:`~game.world.props.table_reach`, and he leans over the top), ease the nearer hand on
(the props' ``reach_halflife``), and on the grip the grip says what happens (hold on, take
it, let go of what is carried). What the hands carry follows
:class:`~game.world.props.grip.Carried` (the cup). Nothing here knows a prop by name.

Phases (:class:`ReachPhase`), per goal::

    IDLE ──reach_for──▶ WALK ──within reach──▶ REACH ──hand on the point──▶ HOLD (a knob)
      ▲                   │                      │                            │
      │                   └─cancel──▶ IDLE       ├─▶ IDLE (taken / let go)    │
      └──── RELEASE ◀──cancel / given up─────────┴──── let go ◀───────────────┘
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING, cast

import numpy as np

from game.world.easing import halflife_blend
from game.world.props.grip import Carried, Grip, OnGrip, ReachPhase, arm_allowance
from game.world.props.table_reach import TableStand, lean_for, on_table_top, table_stand
from game.world.rig import Rig
from game.world.terrain import Terrain
from game.world.types import FloatArray

if TYPE_CHECKING:
    from game.world.props.scenery import Props

REACH_FRACTION = 0.9  # the hero stops walking once the goal is this fraction of arm reach away
RELEASE_S = 0.35  # a freed hand eases back this long before the gait's arm swing takes it
LOW_REACH_WAIT_S = 1.5  # a crouch takes 0.7 s: a goal still out of reach then is reached as near as
# the arm goes (the cup falls onto a spot down a step)
STUCK_S = 0.6  # walking to a goal stopped this long by ground (a wall), he reaches from there
FLOOR_CLEAR_M = 0.5  # the hero stops this close to a spot below the hand's reach
TABLE_CLEAR_M = 0.2  # ... and stands with his shoulders this far clear of the table's ends
STAND_TOLERANCE_M = 0.05  # at a stand beyond the spot, this near it will do
TABLE_APPROACH_M = 1.0  # walking to a stand at the table, he slows down from this far out
# (not 0.6 m as to other goals: a braking step at a brisk walk lands half a metre ahead,
# under the table top)


class PropHands:
    """The hero's hands on the props: one :class:`Grip` at a time, and what is carried.

    A goal first makes the hero walk until its point is within ``REACH_FRACTION`` of arm
    reach of the hand's shoulder, then that hand's target eases onto it. A low goal (the
    floor) stops him with it ahead of his toes, and he crouches for it (the walk scene);
    one no crouch brings within reach is reached as near as the arm goes after
    ``LOW_REACH_WAIT_S``.

    Attributes
    ----------
    props : Props
        The scene's props (the reach settings).
    grip : Grip or None
        The current goal; ``hand`` the arm engaged (−1 none), ``phase`` a
        :class:`ReachPhase`.
    holding : int
        The arm (0 left, 1 right) carrying :attr:`carried`, or −1.
    reaches : int
        Goals completed (a grip taken).
    """

    def __init__(self, props: Props) -> None:
        self.props = props
        self.grip: Grip | None = None
        self.carried: Carried | None = None
        self.holding = -1
        self.hand = -1
        self.phase = ReachPhase.IDLE
        self.phase_time = 0.0
        self.reaches = 0
        self._engaged: frozenset[int] = frozenset()  # arms this object drove last step
        self._stand: TableStand | None = None  # where he reaches the goal on the table from
        self._floor = False  # the goal reached for is on the floor (see walk_intent)

    @property
    def goal(self) -> str | None:
        """The current goal's name, or None."""
        return None if self.grip is None else self.grip.name

    @property
    def busy(self) -> bool:
        """A goal under way, or a hand still easing back from one."""
        return self.grip is not None or self.phase != ReachPhase.IDLE

    @property
    def engaged(self) -> frozenset[int]:
        """The arms (0 left, 1 right) the props drove this step: the pointer leaves them."""
        return self._engaged

    # -- commands ----------------------------------------------------------------------
    def reach_for(self, grip: Grip) -> None:
        """Go for ``grip``, dropping the goal before it."""
        if self.phase in (ReachPhase.REACH, ReachPhase.HOLD) and self.hand != self.holding:
            self.hand = -1
        self.grip = grip
        self.phase = ReachPhase.WALK
        self.phase_time = 0.0
        self._stand = None
        self._floor = False

    def put_down(self, x: object, terrain: Terrain) -> None:
        """Set what is carried down at the world ``x`` (a finite number), if anything is."""
        if self.carried is not None and self.holding >= 0 and isinstance(x, int | float):
            grip = self.carried.place_grip(float(x), terrain) if math.isfinite(x) else None
            if grip is not None:
                self.reach_for(grip)

    def cancel(self) -> None:
        """Drop the goal (the player took the controls); what is carried stays carried."""
        if self.grip is not None:
            if self.phase in (ReachPhase.REACH, ReachPhase.HOLD):
                self._release()
            else:
                self.grip = None
                self._idle()

    def _idle(self) -> None:
        self.phase, self.hand = ReachPhase.IDLE, -1

    def _release(self) -> None:
        self.grip = None
        free = self.hand >= 0 and self.hand != self.holding
        self.phase = ReachPhase.RELEASE if free else ReachPhase.IDLE
        self.phase_time = 0.0

    # -- per step ----------------------------------------------------------------------
    def goal_point(self) -> FloatArray | None:
        """Where the engaged hand is to go (the grip point), or None."""
        return None if self.grip is None else self.grip.point()

    def crouch_point(self) -> FloatArray | None:
        """A low goal the body crouches for while walking to it or reaching (None: none)."""
        low = self.grip is not None and self.grip.low
        walking = self.phase in (ReachPhase.WALK, ReachPhase.REACH)
        return self.goal_point() if low and walking else None

    def _on_the_floor(self, shoulder: FloatArray, reach: float) -> bool:
        """A low goal below the standing hand's reach (the floor): the hero stops with it
        ahead of his toes and crouches for it (the walk scene)."""
        goal = self.goal_point()
        low = goal is not None and goal[1] < shoulder[1] - reach
        return low and self.grip is not None and self.grip.low

    def walk_intent(
        self, shoulders: FloatArray, facing: float, rig: Rig, terrain: Terrain, blocked: float
    ) -> float | None:
        """The walk input while a goal is out of reach (None: the player's input stands).

        ``shoulders`` (2, 2) are this step's shoulder points; ``blocked`` the seconds the
        walk has been stopped by ground a step cannot take (a wall, a ledge): after
        ``STUCK_S`` the goal is reached for from there (:meth:`Grip.stuck`).
        """
        grip = self.grip
        if grip is not None and self.phase == ReachPhase.HOLD:
            return grip.follow(shoulders[self.hand], rig)
        if grip is None or self.phase != ReachPhase.WALK:
            return None
        goal = grip.point()
        arm = self._arm_for(goal, shoulders)
        if on_table_top(self.props.table, goal):
            return self._walk_to_table(goal, shoulders, facing, rig, terrain, arm, blocked)
        reach = REACH_FRACTION * rig.arms.limb.reach
        dx = walk_dx = float(goal[0] - shoulders[arm, 0])
        allowance = arm_allowance(shoulders[arm], goal, reach)
        if self._on_the_floor(shoulders[arm], reach):
            # stop with the spot ahead, moved clear of the feet once there (:meth:`aim`),
            # on its side away from the table if the side toward it is in the table
            allowance = FLOOR_CLEAR_M
            stand = self._floor_stand(float(goal[0]))
            if stand is not None:  # (the shoulders' middle: it stays put as he turns round)
                walk_dx, allowance = stand - float(shoulders[:, 0].mean()), STAND_TOLERANCE_M
        need = abs(walk_dx) - allowance
        if need > 0.02 and blocked < STUCK_S:
            # slow down on the approach: full speed from 0.6 m out, a creep at the end
            return math.copysign(min(max(need / 0.6, 0.15), 1.0), walk_dx)
        if need > 0.02:
            if not grip.stuck(shoulders[arm], reach, terrain):
                self.cancel()
                return 0.0
            dx = float(grip.point()[0] - shoulders[arm, 0])
        if dx * facing < -0.05:
            return math.copysign(0.1, dx)  # turn to face the goal
        self.hand = arm
        self.phase = ReachPhase.REACH
        self.phase_time = 0.0
        # a spot on the floor stays one while he crouches for it (the crouched shoulder
        # comes within reach of it): a foot that lands late is still kept clear of it
        self._floor = self._on_the_floor(shoulders[arm], reach)
        return 0.0

    def _floor_stand(self, goal_x: float) -> float | None:
        """Where the shoulder stands for a spot on the floor at ``goal_x`` by the table's end:
        ``FLOOR_CLEAR_M`` beyond it, away from the table, when ``FLOOR_CLEAR_M`` short of it
        on the table's side would be within ``TABLE_CLEAR_M`` of the table (he would stand
        in it); None elsewhere (he stops short of the spot, whichever way he comes)."""
        table = self.props.table
        x0, x1 = table.x0 - TABLE_CLEAR_M, table.x0 + table.width + TABLE_CLEAR_M
        away = 1.0 if goal_x > table.x0 + table.width / 2 else -1.0
        toward = goal_x - away * FLOOR_CLEAR_M
        return goal_x + away * FLOOR_CLEAR_M if x0 <= toward <= x1 else None

    def _walk_to_table(
        self,
        goal: FloatArray,
        shoulders: FloatArray,
        facing: float,
        rig: Rig,
        terrain: Terrain,
        arm: int,
        blocked: float,
    ) -> float:
        """The walk input to the stand at the table's end the ``goal`` on its top is reached
        from, then the turn to face the table, then the reach (the lean is
        :meth:`table_lean`'s). No stand reaches it: the goal is dropped and its prop says why
        (:meth:`Grip.stuck`); the walk there stopped (``blocked`` seconds, ``STUCK_S``): the
        goal is dropped (the hand never takes it from afar)."""
        pelvis_x = float(shoulders[:, 0].mean())  # the spine stands upright at a walk's end
        reach = self._reach(rig)
        if self._stand is None:
            self._stand = table_stand(self.props.table, rig, terrain, goal, reach, pelvis_x)
        if self._stand is None:
            assert self.grip is not None
            self.grip.stuck(shoulders[arm], reach, terrain)  # refused: it says why
            self.cancel()
            return 0.0
        if blocked >= STUCK_S:
            self.cancel()
            return 0.0
        dx = self._stand.x - pelvis_x
        if abs(dx) > 0.02:
            # full speed from TABLE_APPROACH_M out, a slow creep at the end: the last steps
            # land short of the table's legs
            return math.copysign(min(max(abs(dx) / TABLE_APPROACH_M, 0.1), 1.0), dx)
        if facing != self._stand.facing:
            return math.copysign(0.1, self._stand.facing)  # turn to face the table
        self.hand = arm
        self.phase = ReachPhase.REACH
        self.phase_time = 0.0
        return 0.0

    def table_lean(self, pelvis_x: float, rig: Rig, terrain: Terrain) -> float | None:
        """Reaching for a goal on the table top from its stand: how deep the body leans
        over the top (a crouch amount, :meth:`~game.world.character.Crowd.crouch_to`) from
        where the pelvis stands, ``pelvis_x``; None: no such goal."""
        stand = self._stand
        if self.grip is None or stand is None or self.phase != ReachPhase.REACH:
            return None
        goal, table = self.grip.point(), self.props.table
        lean = lean_for(table, rig, terrain, goal, self._reach(rig), pelvis_x, stand.facing)
        return stand.lean if lean is None else lean

    def _arm_for(self, goal: FloatArray, shoulders: FloatArray) -> int:
        if self.grip is not None and self.grip.by_carrying_hand:
            return self.holding
        if self.holding >= 0:
            return 1 - self.holding
        return int(np.argmin(np.hypot(*(shoulders - goal).T)))

    def aim(
        self,
        hand_weight: FloatArray,
        hand_target: FloatArray,
        hands: FloatArray,
        shoulders: FloatArray,
        facing: float,
        rig: Rig,
        dt: float,
        feet: Callable[[], tuple[float, float]],
        terrain: Terrain,
    ) -> tuple[FloatArray, FloatArray]:
        """The hands' goals (the hero's ``aim_hands`` command): the engaged and the carrying
        hand's eased target, at full reach weight, the other hand's as it was.

        ``hand_weight`` (2,) and ``hand_target`` (2, 2) are the hero's hand goals as they
        stand (read, not written); ``hands`` (2, 2) are the last solved hands; ``feet()`` the
        soles' span in x (asked only while reaching for a low goal). Returns the new
        ``(targets (2, 2), weights (2,))``. The hands set here are :attr:`engaged` until the
        next call.
        """
        hand_weight, hand_target = hand_weight.copy(), hand_target.copy()
        self.phase_time += dt
        grip = self.grip
        if grip is not None and self.phase == ReachPhase.REACH:
            if self.phase_time > grip.give_up_s:
                self.cancel()  # a point the hand cannot get to: he stands up with the cup
            elif self._floor:
                grip.settle(feet(), facing, terrain)  # every step: a foot may still settle
        goals = self._goals(shoulders, facing, rig)
        blend = halflife_blend(dt, self.props.reach_halflife)
        for arm, point in goals.items():
            if arm not in self._engaged:
                hand_target[arm] = hands[arm]  # a hand that starts reaching sets off from here
            if self.phase == ReachPhase.HOLD and arm == self.hand:
                hand_target[arm] = point  # on the knob: it goes with the door, not after it
            else:
                hand_target[arm] += (point - hand_target[arm]) * blend
            hand_weight[arm] = 1.0
        self._engaged = frozenset(goals)
        return hand_target, hand_weight

    def _goals(self, shoulders: FloatArray, facing: float, rig: Rig) -> dict[int, FloatArray]:
        """Each engaged arm's point this step: the carrying hand's, then the reaching or
        releasing hand's."""
        goals: dict[int, FloatArray] = {}
        if self.carried is not None and self.holding >= 0:
            other_busy = self.grip is not None and not self.grip.by_carrying_hand
            goals[self.holding] = self.carried.carry_point(
                shoulders[self.holding], facing, other_busy
            )
        goal = self.goal_point()
        if self.phase in (ReachPhase.REACH, ReachPhase.HOLD) and goal is not None:
            assert self.grip is not None
            goals[self.hand] = self.grip.hand_goal(shoulders[self.hand], self._reach(rig))
        elif self.phase == ReachPhase.RELEASE:
            goals[self.hand] = shoulders[self.hand] + np.array([0.0, -0.92 * rig.arms.limb.reach])
            if self.phase_time >= RELEASE_S:
                self._idle()
        return goals

    def after_solve(self, hands: FloatArray, shoulders: FloatArray, rig: Rig) -> None:
        """Grip checks on the solved ``hands`` (2, 2)."""
        grip = self.grip
        if grip is not None and self.phase == ReachPhase.REACH:
            reach = self._reach(rig)
            shoulder = shoulders[self.hand]
            goal = grip.point()
            aim = grip.hand_goal(shoulder, reach)
            # a goal the body is still crouching toward is gripped once the hand is on it
            # (a goal no crouch brings within reach: as near as it goes, after a wait)
            # (never one above the shoulder: let go up there, it would fall anywhere)
            # (nor one on the table top: its stand and lean bring it within reach)
            reached = float(np.hypot(*(goal - shoulder))) <= reach
            waited = self.phase_time >= LOW_REACH_WAIT_S and goal[1] < shoulder[1]
            waited &= self._stand is None
            there = reached or waited
            if there and float(np.hypot(*(hands[self.hand] - aim))) <= self.props.grip_tolerance:
                self._gripped(grip, hands)
        elif grip is not None and self.phase == ReachPhase.HOLD:
            if grip.let_go(shoulders[self.hand], rig):
                self._release()

    def _reach(self, rig: Rig) -> float:
        """How far from its shoulder the engaged hand goes for the goal (metres)."""
        fraction = REACH_FRACTION if self.grip is None else self.grip.reach_fraction
        return fraction * rig.arms.limb.reach

    def _gripped(self, grip: Grip, hands: FloatArray) -> None:
        self.reaches += 1
        if grip.on_grip is OnGrip.HOLD:
            self.phase, self.phase_time = ReachPhase.HOLD, 0.0
        elif grip.on_grip is OnGrip.TAKE:
            self.holding = self.hand
            self.carried = cast(Carried, grip.owner)
            self.grip = None
            self._idle()
        else:
            self.holding, self.carried = -1, None
            grip.gripped(hands[self.hand])
            self._release()
