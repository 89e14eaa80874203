"""The hero's hands on the props (no pygame): walk within reach of the knob or the cup, ease
the nearer hand on (halflife), hold the knob as the door swings open, carry the cup and set
it down.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from game.world.easing import halflife_blend
from game.world.props.base import FLAT_TOLERANCE_M, FloatArray
from game.world.props.cup import CUP_MAX_TILT, FEET_CLEAR_M
from game.world.props.door import door_angle
from game.world.props.scenery import Props
from game.world.rig import Rig
from game.world.terrain import Terrain

REACH_FRACTION = 0.9  # the hero stops walking once the goal is this fraction of arm reach away
GRAVITY = 9.81  # m/s², for a cup let go above its surface
HOLD_KNOB_S = 0.6  # a hand rests on the knob at least this long (then until the door is open)
KNOB_TURN_S = 0.2  # ... turning it this long before the door moves
# A knob is reached for at this fraction of arm reach, not REACH_FRACTION: he stops for it
# with his shoulders dipped by the braking step (pelvis 0.83 m against 0.95 standing), and
# standing up the knob was 0.554 m from the shoulder, over 0.9 of the 0.58 m arm: the hand
# hung 3 cm short of it for the 1.5 s LOW_REACH_WAIT_S before it held on there
KNOB_REACH_FRACTION = 0.97
DOOR_SWING_S = 1.0  # the door swings fully open, or shut, in this long
DOOR_STAY_S = 2.5  # it stands open this long after the knob is let go, then swings shut
DOORWAY_M = 0.15  # ... nor while he stands within this of its shut panel's span ...
DOORWAY_STAY_S = 0.5  # ... and stays open this long after he leaves it
DOOR_PUSH_S = 1.6  # ... held by the knob, it opens as fast as he steps after it
KNOB_LEAD_S = 0.3  # he steps for where the knob will be this much later
KNOB_FOLLOW_M = 0.15  # ... at full walk when it is this far beyond his reach, slower nearer
RELEASE_S = 0.35  # a freed hand eases back this long before the gait's arm swing takes it
PLACE_GIVE_UP_S = 3.5  # reaching this long to set the cup down, he gives up and stands with it
LOW_REACH_WAIT_S = 1.5  # a crouch takes 0.7 s: a goal still out of reach then is reached as near as
# the arm goes (the cup falls onto a spot down a step)
STUCK_S = 0.6  # walking to a goal stopped this long by ground (a wall), he reaches from there
FLOOR_CLEAR_M = 0.5  # the hero stops this close to a spot below the hand's reach (see FEET_CLEAR_M)
CUP_CLEAR_M = 0.03  # a carried cup keeps this far off the table top
LIFT_OVER_M = 0.1  # ... and one rising beside it is wanted this much higher ...
LIFT_ASIDE_M = 0.05  # ... and this much further out (see _carried_clear_of_table)


def _arm_allowance(shoulder: FloatArray, goal: FloatArray, reach: float) -> float:
    """How far horizontally ``goal`` may be from ``shoulder`` for a hand to reach it."""
    dy = float(goal[1] - shoulder[1])
    # Pythagoras: within a circle of radius R, at height dy the reach is √(R² − dy²)
    return math.sqrt(max(reach * reach - dy * dy, 0.0))


def _within(shoulder: FloatArray, goal: FloatArray, reach: float) -> FloatArray:
    """``goal`` pulled onto the circle of radius ``reach`` round ``shoulder`` if beyond it."""
    offset = goal - shoulder
    distance = float(np.hypot(*offset))
    return goal if distance <= reach else shoulder + offset * (reach / distance)


class PropHands:
    """The hero's hands on the props: one goal at a time, and the cup.

    A goal (``"knob"``, ``"cup"``, or ``"place"`` with a surface point) first makes the hero
    walk until the goal is within ``REACH_FRACTION`` of arm reach of the hand's shoulder,
    then that hand's target eases onto it with the props' ``reach_halflife``. A goal below
    the standing arm's reach (the floor) stops him with it ahead of his toes, and he crouches
    for it (the walk scene); one no crouch brings within reach is reached as near as the arm
    goes after ``LOW_REACH_WAIT_S``, and a cup let go there falls onto its spot.

    Attributes
    ----------
    cup : ndarray, shape (2,)
        The cup's bottom centre (world).
    holding : int
        The arm (0 left, 1 right) holding the cup, or −1.
    goal : str or None
        The current goal; ``hand`` the arm engaged (−1 none), ``phase`` one of
        ``"walk"``, ``"reach"``, ``"hold"``, ``"release"``, ``""``.
    door_swing : float
        How far through its swing the door is, 0 shut to 1 open (:attr:`door_angle`):
        a hand that has turned the knob (``KNOB_TURN_S`` of its hold) opens it, and
        ``DOOR_STAY_S`` after the hand lets go it swings shut, each swing in
        ``DOOR_SWING_S`` (held by the knob, opening, in ``DOOR_PUSH_S``: his pace).
    """

    def __init__(self, props: Props) -> None:
        self.props = props
        self.cup = props.cup.home.copy()
        self.cup_vy = 0.0
        self.holding = -1
        self.goal: str | None = None
        self.place = np.zeros(2)
        self.hand = -1
        self.phase = ""
        self.phase_time = 0.0
        self.reaches = 0  # goals completed (knob touched, cup lifted, cup set down)
        self.door_swing = 0.0
        self._door_stay = 0.0  # seconds the door stays open before swinging shut
        self._engaged: frozenset[int] = frozenset()  # arms this object drove last step

    @property
    def engaged(self) -> frozenset[int]:
        """The arms (0 left, 1 right) the props drove this step: the pointer leaves them."""
        return self._engaged

    # -- commands ----------------------------------------------------------------------
    def command(self, action: str, value: object, terrain: Terrain) -> None:
        """``reach_prop`` with ``"knob"``/``"cup"``, or ``put_down`` with a world x."""
        if action == "reach_prop" and value in ("knob", "cup"):
            if value == "cup" and self.holding >= 0:
                return
            self._set_goal(str(value))
        elif action == "put_down" and self.holding >= 0 and isinstance(value, int | float):
            x = float(value)
            if math.isfinite(x):
                x = self.props.standing_spot(x, terrain)
                self.place = np.array([x, self.props.surface_at(x, terrain)])
                self._set_goal("place")

    def cancel(self) -> None:
        """Drop the goal (the player took the controls); a held cup stays held."""
        if self.goal is not None:
            if self.phase in ("reach", "hold"):
                self._release()
            else:
                self.goal = None
                self._idle()

    def _set_goal(self, goal: str) -> None:
        if self.phase in ("reach", "hold") and self.hand != self.holding:
            self.hand = -1
        self.goal = goal
        self.phase = "walk"
        self.phase_time = 0.0

    def _idle(self) -> None:
        self.phase, self.hand = "", -1

    def _release(self) -> None:
        self.goal = None
        self.phase = "release" if self.hand >= 0 and self.hand != self.holding else ""
        self.phase_time = 0.0

    # -- per step ----------------------------------------------------------------------
    @property
    def door_angle(self) -> float:
        """How far the door stands open about its hinge, radians (each swing eased in and
        out)."""
        return door_angle(self.door_swing)

    @property
    def door_hinge_x(self) -> float:
        """The door's hinge: the edge away from the knob."""
        door = self.props.door
        right = door.knob[0] - door.x0 < door.width / 2
        return door.x0 + door.width if right else door.x0

    @property
    def knob(self) -> FloatArray:
        """The knob's world point (2,) as the door stands."""
        return self._knob_at(self.door_swing)

    def _knob_at(self, swing: float) -> FloatArray:
        """The knob's world point (2,) with the door at ``swing``: seen from the side, a
        door open by an angle shows its cosine of the knob's distance from the hinge."""
        knob, hinge = self.props.door.knob, self.door_hinge_x
        if swing <= 0.0:
            return knob  # shut: where the door has it, to the bit
        return np.array([hinge + (knob[0] - hinge) * math.cos(door_angle(swing)), knob[1]])

    def goal_point(self) -> FloatArray | None:
        """Where the engaged hand is to go (the grip point), or None."""
        if self.goal == "knob":
            return self.knob  # the hand holding it goes with the opening door
        if self.goal == "cup":
            return self.cup + np.array([0.0, self.props.cup.grip])
        if self.goal == "place":
            return self.place + np.array([0.0, self.props.cup.grip])
        return None

    def _on_the_floor(self, shoulder: FloatArray, reach: float) -> bool:
        """The cup, or a spot to set it down, below the standing hand's reach (the floor):
        the hero stops with it ahead of his toes and crouches for it (the walk scene)."""
        goal = self.goal_point()
        low = goal is not None and goal[1] < shoulder[1] - reach
        return low and self.goal in ("cup", "place")

    def _clear_of(self, feet: tuple[float, float], facing: float, terrain: Terrain) -> None:
        """Move a spot on the floor ahead of the toes (``feet``: the soles' span in x): the
        cup fell onto the feet, hid behind the shoes, and a click there grabbed a foot. Where
        the ground ahead is not the spot's (a wall, a step), behind the heels instead
        (by the loft's wall under the ladder the spot would go into the wall and he would
        crouch, the cup held out, until a key was pressed)."""
        toe, heel = (feet[1], feet[0]) if facing > 0 else (feet[0], feet[1])
        clear = FEET_CLEAR_M + self.props.cup.radius
        ahead, behind = toe + facing * clear, heel - facing * clear
        if (ahead - self.place[0]) * facing <= 0.0 or (self.place[0] - behind) * facing <= 0.0:
            return  # clear of the feet already
        for x in (ahead, behind):
            # the same ground: no higher or lower than a slope the cup stands on rises over
            # the way (level only, on a slope the cup stayed in his shoe where it was put)
            y = self.props.surface_at(x, terrain)
            rise = abs(x - float(self.place[0])) * math.tan(CUP_MAX_TILT) + FLAT_TOLERANCE_M
            if (
                abs(y - float(self.place[1])) <= rise
                and self.props.stands_at(np.array([x]), terrain)[0]
            ):
                self.place = np.array([x, y])
                return

    def walk_intent(
        self, shoulders: FloatArray, facing: float, rig: Rig, terrain: Terrain, blocked: float
    ) -> float | None:
        """The walk input while a goal is out of reach (None: the player's input stands).

        ``shoulders`` (2, 2) are this step's shoulder points; ``blocked`` the seconds the
        walk has been stopped by ground a step cannot take (a wall, a ledge): after
        ``STUCK_S`` the goal is reached for from there, and a spot to set the cup down moves
        to the nearest one in reach.
        """
        goal = self.goal_point()
        if goal is not None and self.phase == "hold":
            # holding the knob as the door swings toward its hinge: he steps after it, the
            # arm at the reach it took the knob with (stood still, the knob slid out of the
            # hand: the door swung on by itself)
            shoulder = shoulders[self.hand]
            soon = self._knob_at(self.door_swing + KNOB_LEAD_S / DOOR_PUSH_S)
            hold = KNOB_REACH_FRACTION * rig.arms.limb.reach
            dx = float(soon[0] - shoulder[0])
            need = abs(dx) - _arm_allowance(shoulder, soon, hold)
            return math.copysign(min(need / KNOB_FOLLOW_M, 1.0), dx) if need > 0.0 else None
        if goal is None or self.phase != "walk":
            return None
        arm = self._arm_for(goal, shoulders)
        reach = REACH_FRACTION * rig.arms.limb.reach
        dx = float(goal[0] - shoulders[arm, 0])
        allowance = _arm_allowance(shoulders[arm], goal, reach)
        if self._on_the_floor(shoulders[arm], reach):
            # stop with the spot ahead, moved clear of the feet once there (:meth:`aim`)
            allowance = FLOOR_CLEAR_M
        need = abs(dx) - allowance
        if need > 0.02 and blocked < STUCK_S:
            # slow down on the approach: full speed from 0.6 m out, a creep at the end
            return math.copysign(min(max(need / 0.6, 0.15), 1.0), dx)
        if need > 0.02 and self.goal == "place":
            self.place = self._spot_in_reach(shoulders[arm], reach, terrain)
            dx = float(self.place[0] - shoulders[arm, 0])
        if dx * facing < -0.05:
            return math.copysign(0.1, dx)  # turn to face the goal
        self.hand = arm
        self.phase = "reach"
        self.phase_time = 0.0
        return 0.0

    def _spot_in_reach(self, shoulder: FloatArray, reach: float, terrain: Terrain) -> FloatArray:
        """The surface point nearest the wanted spot (in x) that the hand at ``shoulder`` can
        set the cup on: within ``reach``, or below the shoulder (crouching, or let fall)."""
        xs = float(shoulder[0]) + np.linspace(-reach, reach, 49)
        ys = self.props.surfaces(xs, terrain)
        grip = ys + self.props.cup.grip
        ok = (np.hypot(xs - shoulder[0], grip - shoulder[1]) <= reach) | (grip < shoulder[1])
        ok &= self.props.stands_at(xs, terrain)
        best = int(np.argmin(np.where(ok, np.abs(xs - self.place[0]), np.inf)))
        return np.array([xs[best], ys[best]])

    def _arm_for(self, goal: FloatArray, shoulders: FloatArray) -> int:
        if self.goal == "place":
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
        """The hands' goals (the hero's ``aim_hands`` command): the engaged and the holding
        hand's eased target, at full reach weight, the other hand's as it was.

        ``hand_weight`` (2,) and ``hand_target`` (2, 2) are the hero's hand goals as they
        stand (read, not written); ``hands`` (2, 2) are the last solved hands; ``feet()`` the
        soles' span in x (asked only while a cup is set down on the floor). Returns the new
        ``(targets (2, 2), weights (2,))``. The hands set here are :attr:`engaged` until the
        next call.
        """
        hand_weight, hand_target = hand_weight.copy(), hand_target.copy()
        self.phase_time += dt
        if self.goal == "place" and self.phase == "reach" and self.phase_time > PLACE_GIVE_UP_S:
            self.cancel()  # a spot the hand cannot get to: he stands up with the cup
        blend = halflife_blend(dt, self.props.reach_halflife)
        reach = self._reach(rig)
        if (
            self.phase == "reach"
            and self.goal == "place"
            and self._on_the_floor(shoulders[self.hand], reach)
        ):
            self._clear_of(feet(), facing, terrain)  # every step: a foot may still settle
        goals: dict[int, FloatArray] = {}
        if self.holding >= 0:
            carry = shoulders[self.holding] + np.array([0.2 * facing, -0.38])
            if self.goal == "knob":  # the other hand goes for the knob, about where the cup
                # is carried: the cup held down by the thigh, clear of it (carried in front,
                # the near hand's cup hid the far hand on the knob)
                carry = shoulders[self.holding] + np.array([0.05 * facing, -0.5])
            goals[self.holding] = self._carried_clear_of_table(carry)
        goal = self.goal_point()
        if self.phase in ("reach", "hold") and goal is not None:
            goals[self.hand] = self._hand_goal(shoulders[self.hand], goal, reach)
        elif self.phase == "release":
            rest = shoulders[self.hand] + np.array([0.0, -0.92 * rig.arms.limb.reach])
            goals[self.hand] = rest
            if self.phase_time >= RELEASE_S:
                self._idle()
        for arm, point in goals.items():
            if arm not in self._engaged:
                hand_target[arm] = hands[arm]  # a hand that starts reaching sets off from here
            if self.phase == "hold" and arm == self.hand:
                hand_target[arm] = point  # on the knob: it goes with the door, not after it
            else:
                hand_target[arm] += (point - hand_target[arm]) * blend
            hand_weight[arm] = 1.0
        self._engaged = frozenset(goals)
        return hand_target, hand_weight

    def _carried_clear_of_table(self, grip: FloatArray) -> FloatArray:
        """Where the hand carrying the cup goes instead of ``grip`` so the cup keeps out of
        the table top: over the table, at least ``CUP_CLEAR_M`` above it; and a cup still
        below the top (just lifted off the floor beside the table, the hero crouched by it)
        goes up beside the table's nearer end first, over the top only once above it.

        The cup, lifted from the floor by the table's end with the hero standing
        at the table, rose through the top (the carry point was over the table, and the hand
        went straight for it from the floor).
        """
        table, spec = self.props.table, self.props.cup
        left, _, right, top = table.top_box()
        reach = spec.half_width + CUP_CLEAR_M  # a cup centre nearer the slab than this touches it
        x, y = float(grip[0]), float(grip[1])
        if not left - reach < x < right + reach:
            return grip
        above = top + CUP_CLEAR_M  # the lowest a cup over the table is held
        if float(self.cup[1]) < above:  # below it: rise beside the nearer end first
            side = reach + LIFT_ASIDE_M
            x = left - side if float(self.cup[0]) < (left + right) / 2 else right + side
            above += LIFT_OVER_M
        return np.array([x, max(y, above + spec.grip)])

    def after_solve(
        self, hands: FloatArray, shoulders: FloatArray, rig: Rig, terrain: Terrain, dt: float
    ) -> None:
        """Grip checks on the solved ``hands`` (2, 2); the cup follows its hand or falls."""
        goal = self.goal_point()
        if self.phase == "reach" and goal is not None:
            reach = self._reach(rig)
            shoulder = shoulders[self.hand]
            aim = self._hand_goal(shoulder, goal, reach)
            # a goal the body is still crouching toward is gripped once the hand is on it
            # (a goal no crouch brings within reach: as near as it goes, after a wait)
            within = float(np.hypot(*(goal - shoulder))) <= reach
            there = within or self.phase_time >= LOW_REACH_WAIT_S
            if there and float(np.hypot(*(hands[self.hand] - aim))) <= self.props.grip_tolerance:
                self._grip(hands)
        elif self.phase == "hold" and self.phase_time >= HOLD_KNOB_S:
            # the hand goes with the knob (he steps after it, :meth:`walk_intent`) until the
            # door is open, or the knob has left its reach (let go at 0.6 s, the door swung on
            # by itself, the knob sliding 0.2 m away from a hand left in the air)
            shoulder = shoulders[self.hand]
            beyond = float(np.hypot(*(self.knob - shoulder))) > rig.arms.limb.reach
            if self.door_swing >= 1.0 or beyond:
                self._release()
        self._swing_door(dt, float(shoulders[:, 0].mean()))
        if self.holding >= 0:
            self.cup = hands[self.holding] - np.array([0.0, self.props.cup.grip])
            self.cup_vy = 0.0
            return
        surface = self.props.surface_at(float(self.cup[0]), terrain)
        if self.cup[1] > surface:
            self.cup_vy -= GRAVITY * dt
            self.cup[1] = max(self.cup[1] + self.cup_vy * dt, surface)
        if self.cup[1] <= surface:
            self.cup[1], self.cup_vy = surface, 0.0

    def cup_tilt(self, terrain: Terrain) -> float:
        """The angle the cup stands at: its surface's slope where it rests, else 0 (in a
        hand, or falling)."""
        x, y = float(self.cup[0]), float(self.cup[1])
        if self.holding >= 0 or y > self.props.surface_at(x, terrain) + 1e-6:
            return 0.0
        return self.props.tilt_at(x, terrain)

    def floor_spans(self, terrain: Terrain) -> FloatArray:
        """What the feet keep off (``Crowd.set_obstacles``): the cup where it rests on the
        ground, not in a hand nor on the table, as one row ``(x0, x1, top)`` (its width
        handle and all); else no rows."""
        x, y = float(self.cup[0]), float(self.cup[1])
        if self.holding >= 0 or y > float(terrain.height_at(x)) + 1e-6:
            return np.zeros((0, 3))
        spec = self.props.cup
        return np.array([[x - spec.half_width, x + spec.half_width, y + spec.height]])

    def _reach(self, rig: Rig) -> float:
        """How far from its shoulder the engaged hand goes for the goal (metres)."""
        fraction = KNOB_REACH_FRACTION if self.goal == "knob" else REACH_FRACTION
        return fraction * rig.arms.limb.reach

    def _swing_door(self, dt: float, body_x: float) -> None:
        """The door's own motion this step (see :attr:`door_swing`); an open door does not
        swing shut on the hero standing in its doorway (``body_x``: his shoulders' middle;
        it must not shut through him)."""
        door = self.props.door
        in_doorway = door.x0 - DOORWAY_M <= body_x <= door.x0 + door.width + DOORWAY_M
        if self.goal == "knob" and self.phase == "hold" and self.phase_time >= KNOB_TURN_S:
            self._door_stay = DOOR_STAY_S
        elif self.door_swing > 0.0 and in_doorway:
            self._door_stay = max(self._door_stay, DOORWAY_STAY_S)
        else:
            self._door_stay = max(self._door_stay - dt, 0.0)
        toward = 1.0 if self._door_stay > 0.0 else -1.0
        pushed = self.goal == "knob" and self.phase == "hold"  # at the pace he follows it
        swing_s = DOOR_PUSH_S if pushed else DOOR_SWING_S
        self.door_swing = min(max(self.door_swing + toward * dt / swing_s, 0.0), 1.0)

    def _hand_goal(self, shoulder: FloatArray, goal: FloatArray, reach: float) -> FloatArray:
        """Where the engaged hand goes for ``goal``: the goal itself within ``reach`` of the
        shoulder; a place to set the cup down beyond it straight above the spot, as low as
        the arm goes (the cup falls onto its spot); any other goal as near as the arm goes."""
        dx = float(goal[0] - shoulder[0])
        below = goal[1] < shoulder[1] and float(np.hypot(*(goal - shoulder))) > reach
        if self.goal == "place" and abs(dx) < reach and below:
            # Pythagoras: at dx from the shoulder the arm reaches down √(R² − dx²)
            lowest = float(shoulder[1]) - math.sqrt(reach * reach - dx * dx)
            return np.array([float(goal[0]), max(float(goal[1]), lowest)])
        return _within(shoulder, goal, reach)

    def _grip(self, hands: FloatArray) -> None:
        self.reaches += 1
        if self.goal == "knob":
            self.phase, self.phase_time = "hold", 0.0
        elif self.goal == "cup":
            self.holding = self.hand
            self.goal = None
            self._idle()
        else:
            self.holding = -1
            self.cup = hands[self.hand] - np.array([0.0, self.props.cup.grip])
            self._release()
