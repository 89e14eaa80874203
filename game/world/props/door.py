"""The door: a panel standing on flat ground with a knob, swinging about the hinge on the
edge away from the knob (no pygame). The hands that open it are
:class:`game.world.props.hands.PropHands`."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from game.world.easing import smoothstep
from game.world.props.base import WORLD_X, FloatArray, flat_base, pair
from game.world.schema import Fields, Range
from game.world.terrain import Terrain

DOOR_SWING_RAD = math.radians(75.0)  # the door's widest opening about its hinge

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
