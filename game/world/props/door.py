"""The door: a panel standing on flat ground with a knob, swinging about the hinge on the
edge away from the knob (no pygame). :class:`DoorProp` is the live door: a click sends a
hand to its knob (:class:`KnobGrip`, through the hero's
:class:`~game.world.props.reach.PropHands`), a turned knob opens it, and it swings shut
by itself.

Shut, it stops a walk as a wall does; from its hinge side (the wall side) the knob is out
of reach, so shut it is not opened from there (he says why); open or swinging, a click from
there walks him round through the doorway to the knob side, and then the hand goes for the
knob. Open, it does not swing shut on him on the wall side.

Phases (:class:`DoorPhase`)::

    SHUT ──knob turned──▶ OPENING ──fully open──▶ OPEN ──stay over──▶ CLOSING ──▶ SHUT
                             ▲                                          │
                             └────────────── knob turned ───────────────┘
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import Enum

import numpy as np

from game.world.easing import smoothstep
from game.world.props.base import WORLD_X, Body, Intent, flat_base, pair
from game.world.props.grip import OnGrip, ReachPhase, arm_allowance, within
from game.world.props.reach import PropHands
from game.world.rig import Rig
from game.world.schema import Fields, Range
from game.world.terrain import Terrain
from game.world.terrain_edit import Footprint
from game.world.types import FloatArray

DOOR_SWING_RAD = math.radians(75.0)  # the door's widest opening about its hinge
HOLD_KNOB_S = 0.6  # a hand rests on the knob at least this long (then until the door is open)
KNOB_TURN_S = 0.2  # ... turning it this long before the door moves
# A knob is reached for at this fraction of arm reach, not REACH_FRACTION: he stops for it
# with his shoulders dipped by the braking step (pelvis 0.83 m against 0.95 standing), and
# standing up the knob is then 0.554 m from the shoulder, over 0.9 of the 0.58 m arm
KNOB_REACH_FRACTION = 0.97
DOOR_SWING_S = 1.0  # the door swings fully open, or shut, in this long
DOOR_STAY_S = 2.5  # it stands open this long after the knob is let go, then swings shut
DOORWAY_M = 0.15  # ... nor while he stands within this of its shut panel's span ...
DOORWAY_STAY_S = 0.5  # ... and stays open this long after he leaves it
DOOR_PUSH_S = 1.6  # ... held by the knob, it opens as fast as he steps after it
KNOB_LEAD_S = 0.3  # he steps for where the knob will be this much later
KNOB_FOLLOW_M = 0.15  # ... at full walk when it is this far beyond his reach, slower nearer
DOOR_STOP_M = 0.4  # a walk into the shut door brakes this much before its stopping distance
# takes the pelvis to the panel's edge (the toes stop short of it: a braking stride lands
# ahead of the pelvis)
SAY_S = 2.5  # why a click on the door is refused is said this long
ROUND_CLEAR_M = 0.3  # going round, he walks this far past the panel's knob-side edge
SHUT_HINT = "no way on: the door is shut (click its knob to open it)"
FAR_SIDE_HINT = "the knob is on the door's far side: he cannot get to it from here"
SHUT_BEHIND_HINT = "no way on: the door is shut, and its knob is on the far side"

RANGES: dict[str, Range] = {
    "door.x": WORLD_X,
    "door.width": Range(0.3, 5.0, "m"),
    "door.height": Range(0.5, 10.0, "m"),
}


@dataclass(frozen=True, slots=True)
class Door:
    """A door standing on the ground: its left edge ``x0``, ``width``, ``height``, and the
    knob's world point."""

    x0: float
    base: float
    width: float
    height: float
    knob: FloatArray  # (2,)

    @property
    def hinge_x(self) -> float:
        """The door's hinge: the edge away from the knob."""
        right = self.knob[0] - self.x0 < self.width / 2
        return self.x0 + self.width if right else self.x0


def load_door(fields: Fields, terrain: Terrain) -> Door:
    """The ``door`` section of a props file, standing on flat ground."""
    door_f = fields.section("door")
    x0 = door_f.number("x")
    width, height = door_f.length("width"), door_f.length("height")
    base = flat_base(fields, terrain, "door", x0, x0 + width)
    knob = pair(door_f, "knob")
    if not (0.0 <= knob[0] <= width and 0.0 <= knob[1] <= height):
        raise door_f.error("knob", f"expected a point inside the door (0…{width:g}, 0…{height:g})")
    return Door(x0, base, width, height, np.array([x0 + knob[0], base + knob[1]]))


def door_angle(swing: float) -> float:
    """How far a door ``swing`` (0 shut … 1 open) through its swing stands open about its
    hinge, radians (each swing eased in and out)."""
    return DOOR_SWING_RAD * float(smoothstep(min(max(swing, 0.0), 1.0)))


class DoorPhase(Enum):
    """The door's state (see the module's table)."""

    SHUT = "shut"
    OPENING = "opening"
    OPEN = "open"
    CLOSING = "closing"


class KnobGrip:
    """The knob as a hand's goal: held on (at ``KNOB_REACH_FRACTION`` of the arm) while the
    door swings open, the hero stepping after it."""

    name = "knob"
    reach_fraction = KNOB_REACH_FRACTION
    low = False
    by_carrying_hand = False
    on_grip = OnGrip.HOLD
    give_up_s = math.inf

    def __init__(self, door: DoorProp) -> None:
        self.owner = door

    def point(self) -> FloatArray:
        return self.owner.knob  # the hand holding it goes with the opening door

    def hand_goal(self, shoulder: FloatArray, reach: float) -> FloatArray:
        return within(shoulder, self.point(), reach)

    def follow(self, shoulder: FloatArray, rig: Rig) -> float | None:
        """Holding the knob as the door swings toward its hinge: he steps after it, the arm
        at the reach it took the knob with (standing still, he would let the knob slide out of
        the hand)."""
        door = self.owner
        soon = door.knob_at(door.swing + KNOB_LEAD_S / DOOR_PUSH_S)
        hold = KNOB_REACH_FRACTION * rig.arms.limb.reach
        dx = float(soon[0] - shoulder[0])
        need = abs(dx) - arm_allowance(shoulder, soon, hold)
        return math.copysign(min(need / KNOB_FOLLOW_M, 1.0), dx) if need > 0.0 else None

    def let_go(self, shoulder: FloatArray, rig: Rig) -> bool:
        """After ``HOLD_KNOB_S``, once the door is open or the knob has left the arm's
        reach (the door swung on by itself)."""
        door = self.owner
        if door.hands.phase_time < HOLD_KNOB_S:
            return False
        beyond = float(np.hypot(*(door.knob - shoulder))) > rig.arms.limb.reach
        return door.swing >= 1.0 or beyond

    def stuck(self, shoulder: FloatArray, reach: float, terrain: Terrain) -> bool:
        """The knob stays where it is."""
        return True

    def settle(self, feet: tuple[float, float], facing: float, terrain: Terrain) -> None:
        """The knob is never low."""

    def gripped(self, hand: FloatArray) -> None:
        """Held: the door swings as :meth:`DoorProp.advance` says."""


class DoorProp:
    """The live door. ``swing`` is how far through its swing it is, 0 shut to 1 open
    (:func:`door_angle`): a hand that has turned the knob (``KNOB_TURN_S`` of its hold)
    opens it, and ``DOOR_STAY_S`` after the hand lets go it swings shut, each swing in
    ``DOOR_SWING_S`` (held by the knob, opening, in ``DOOR_PUSH_S``: his pace)."""

    name = "door"
    rolls = False

    def __init__(self, door: Door, hands: PropHands) -> None:
        self.door = door
        self.hands = hands
        self.grip = KnobGrip(self)
        self.swing = 0.0
        self._stay = 0.0  # seconds the door stays open before swinging shut
        self._toward = -1.0
        self._clicked = False  # used: the hand goes for the knob (or he says why not)
        self._refused_s = 0.0  # seconds left of saying why a click was refused
        self._round = False  # clicked from the wall side, open: walking round to the knob

    @property
    def phase(self) -> DoorPhase:
        if self.swing <= 0.0:
            return DoorPhase.SHUT
        if self.swing >= 1.0:
            return DoorPhase.OPEN
        return DoorPhase.OPENING if self._toward > 0.0 else DoorPhase.CLOSING

    @property
    def angle(self) -> float:
        """How far the door stands open about its hinge, radians."""
        return door_angle(self.swing)

    @property
    def knob(self) -> FloatArray:
        """The knob's world point (2,) as the door stands."""
        return self.knob_at(self.swing)

    def knob_at(self, swing: float) -> FloatArray:
        """The knob's world point (2,) with the door at ``swing``: seen from the side, a
        door open by an angle shows its cosine of the knob's distance from the hinge."""
        knob, hinge = self.door.knob, self.door.hinge_x
        if swing <= 0.0:
            return knob  # shut: where the door has it, to the bit
        return np.array([hinge + (knob[0] - hinge) * math.cos(door_angle(swing)), knob[1]])

    def on_panel(self, point: FloatArray) -> bool:
        """``point`` (2,) is on the shut door's panel (a click there opens it by the knob)."""
        door = self.door
        on_door = door.x0 <= point[0] <= door.x0 + door.width and door.base <= point[1]
        return self.swing <= 0.0 and on_door and point[1] <= door.base + door.height

    def under(self, point: FloatArray, radius: float) -> bool:
        return float(np.hypot(*(point - self.knob))) <= radius

    def use(self) -> None:
        self._clicked = True

    def behind(self, x: float) -> bool:
        """``x`` is on the door's hinge side (the wall side): the knob, on its far edge,
        is not in reach from there without passing the panel."""
        door = self.door
        knob_side = math.copysign(1.0, float(door.knob[0]) - door.hinge_x)
        return (x - (door.x0 + door.width / 2)) * knob_side < 0.0

    def cancel(self) -> None:
        self._round = False
        if self.busy:
            self.hands.cancel()

    @property
    def busy(self) -> bool:
        return self.hands.grip is self.grip

    def intent(self, body: Body, terrain: Terrain, dt: float) -> Intent:
        """A click sends a hand to the knob; from the wall side he first walks round through
        the doorway to the knob side, or, the door shut, says why he cannot. A walk into
        the shut panel stops short of it as at a wall."""
        if self._clicked:
            self._clicked = False
            if not self.behind(body.x):
                self.hands.reach_for(self.grip)
            elif self.swing > 0.0:
                self._round = True
            else:
                self._refused_s = SAY_S
        self._refused_s = max(self._refused_s - dt, 0.0)
        says = FAR_SIDE_HINT if self._refused_s > 0.0 else None
        if self._round:
            walk = self._walk_round(body)
            if walk is not None:
                return Intent(walk=walk, says=says)
        # shut, its panel is a wall: the feet keep off it (a foot held into it too) and a
        # rolling ball meets it
        solid = self.swing <= 0.0
        if self._stops(body):
            why = SHUT_BEHIND_HINT if self.behind(body.x) else SHUT_HINT
            return Intent(halt=body.facing, says=says, blocked_why=why, solid=solid)
        return Intent(says=says, solid=solid)

    def _walk_round(self, body: Body) -> float | None:
        """Walking round to the knob side: the walk input there (None: there, the hand goes
        for the knob; or the door shut on the way, he stops and says why)."""
        door = self.door
        knob_side = math.copysign(1.0, float(door.knob[0]) - door.hinge_x)
        edge = door.x0 + door.width if knob_side > 0 else door.x0
        if self.swing <= 0.0:
            self._round = False
            self._refused_s = SAY_S
            return None
        if (edge + knob_side * ROUND_CLEAR_M - body.x) * knob_side > 0.0:
            return knob_side
        self._round = False
        self.hands.reach_for(self.grip)
        return None

    def _stops(self, body: Body) -> bool:
        """The shut door is ahead of him within his stopping distance (a walk halving its
        speed every ``accel_halflife`` covers v·h / ln 2) and ``DOOR_STOP_M``: a walk on
        toward it stops there."""
        if self.swing > 0.0 or self.busy or self._round:
            return False
        door = self.door
        edge = door.x0 if body.facing > 0 else door.x0 + door.width
        gap = (edge - body.x) * body.facing  # the pelvis to the panel ahead (< 0: in it)
        stopping = abs(body.speed) * body.rig.gait.accel_halflife / math.log(2.0)
        return -door.width < gap <= stopping + DOOR_STOP_M

    def advance(self, body: Body, terrain: Terrain, dt: float) -> None:
        """The door's swing this step; an open door does not swing shut on the hero standing
        in its doorway (his shoulders' middle; it must not shut through him)."""
        door, hands = self.door, self.hands
        left, right = body.shoulders[:, 0].tolist()
        body_x = (left + right) / 2.0  # (the mean of two, as numpy's rounds it)
        in_doorway = door.x0 - DOORWAY_M <= body_x <= door.x0 + door.width + DOORWAY_M
        held = self.busy and hands.phase == ReachPhase.HOLD
        if held and hands.phase_time >= KNOB_TURN_S:
            self._stay = DOOR_STAY_S
        elif self.swing > 0.0 and (in_doorway or self.behind(body_x) or self._round):
            # not shut through him, nor on him behind it (the knob on its far side, he
            # would have no way back), nor while he walks round to its knob
            self._stay = max(self._stay, DOORWAY_STAY_S)
        else:
            self._stay = max(self._stay - dt, 0.0)
        self._toward = 1.0 if self._stay > 0.0 else -1.0
        swing_s = DOOR_PUSH_S if held else DOOR_SWING_S  # pushed at the pace he follows it
        self.swing = min(max(self.swing + self._toward * dt / swing_s, 0.0), 1.0)

    def centre(self) -> FloatArray | None:
        return None  # it swings where it stands: no trace entry

    def footprint(self) -> FloatArray:
        door = self.door
        return np.array([[door.x0, door.x0 + door.width, door.base + door.height]])

    def grounds(self) -> tuple[Footprint, ...]:
        door = self.door
        return (Footprint("door", door.x0, door.x0 + door.width, door.base),)

    def check_ground(self, old: Terrain, new: Terrain) -> None:
        """Its ground is kept by :meth:`grounds`."""

    def follow_ground(self, old: Terrain, new: Terrain) -> None:
        """Its ground does not move."""
