"""What a hand does on a prop (no pygame): the reach's phases, what happens on a grip, the
:class:`Grip` a prop hands :class:`~game.world.props.reach.PropHands`, the :class:`Carried`
thing a hand holds, and how far an arm is from a goal."""

from __future__ import annotations

import math
from enum import Enum
from typing import Protocol

import numpy as np

from game.world.rig import Rig
from game.world.terrain import Terrain
from game.world.types import FloatArray


class ReachPhase(str, Enum):
    """What the hands are doing with their goal (see the module's table)."""

    IDLE = ""
    WALK = "walk"
    REACH = "reach"
    HOLD = "hold"
    RELEASE = "release"

    def __str__(self) -> str:
        return str(self.value)


class OnGrip(Enum):
    """What a grip does once the hand is on its point."""

    HOLD = "hold"  # the hand stays on it (a knob) until the grip lets go
    TAKE = "take"  # the hand carries it away (the cup)
    LEAVE = "leave"  # the hand lets go of what it carries there (a cup set down)


class Grip(Protocol):
    """A goal for a hand: a point a prop wants a hand on, and how it is reached."""

    name: str  # what the overlay shows
    reach_fraction: float  # of the arm's reach the hand goes for it from its shoulder
    low: bool  # below the standing reach he crouches for it (on the floor)
    by_carrying_hand: bool  # the hand that carries something goes (setting it down)
    on_grip: OnGrip
    give_up_s: float  # reaching this long without a grip, the hands give it up

    @property
    def owner(self) -> object:
        """The prop it belongs to."""
        ...

    def point(self) -> FloatArray:
        """Where the hand goes (2,), world metres."""
        ...

    def hand_goal(self, shoulder: FloatArray, reach: float) -> FloatArray:
        """Where the engaged hand goes for the point from ``shoulder`` (2,) within
        ``reach``."""
        ...

    def follow(self, shoulder: FloatArray, rig: Rig) -> float | None:
        """Holding on: the walk input that keeps the point within reach, or None."""
        ...

    def let_go(self, shoulder: FloatArray, rig: Rig) -> bool:
        """Holding on: whether the hand lets go now."""
        ...

    def stuck(self, shoulder: FloatArray, reach: float, terrain: Terrain) -> bool:
        """The walk toward the point is stopped by ground: move it within reach if it may;
        False: it is given up (the prop says why)."""
        ...

    def settle(self, feet: tuple[float, float], facing: float, terrain: Terrain) -> None:
        """Reaching down for it: keep it clear of the feet (``feet``: the soles' x span)."""
        ...

    def gripped(self, hand: FloatArray) -> None:
        """The hand, at ``hand`` (2,), is on the point."""
        ...


class Carried(Protocol):
    """What a hand carries (the cup)."""

    def carry_point(self, shoulder: FloatArray, facing: float, other_busy: bool) -> FloatArray:
        """Where the carrying hand goes from ``shoulder`` (2,); ``other_busy``: the other
        hand is going for something."""
        ...

    def place_grip(self, x: float, terrain: Terrain) -> Grip | None:
        """The goal of setting it down at ``x``; None: it cannot be set there (it says
        why)."""
        ...


def arm_allowance(shoulder: FloatArray, goal: FloatArray, reach: float) -> float:
    """How far horizontally ``goal`` may be from ``shoulder`` for a hand to reach it."""
    dy = float(goal[1] - shoulder[1])
    # Pythagoras: within a circle of radius R, at height dy the reach is √(R² − dy²)
    return math.sqrt(max(reach * reach - dy * dy, 0.0))


def within(shoulder: FloatArray, goal: FloatArray, reach: float) -> FloatArray:
    """``goal`` pulled onto the circle of radius ``reach`` round ``shoulder`` if beyond it."""
    offset = goal - shoulder
    distance = float(np.hypot(*offset))
    return goal if distance <= reach else shoulder + offset * (reach / distance)
