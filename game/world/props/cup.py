"""The cup: its size and where it starts on the table top (no pygame). Where it may be set
down is :class:`game.world.props.scenery.Props`'s; the live cup, carried by the hero's
:class:`game.world.props.reach.PropHands`, is :class:`game.world.props.cup_prop.CupProp`."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from game.world.props.base import WORLD_X
from game.world.props.table import Table
from game.world.schema import Fields, Range
from game.world.types import FloatArray

CUP_MAX_SLOPE = math.radians(10.0)  # a cup is set down upright on ground no steeper than
# this: the edge of its base then stands at most r·tan 10° (7 mm for a 4 cm cup) off the
# ground, under a pixel at the view's scale; steeper, it would read as spilling
FEET_CLEAR_M = 0.03  # a cup set down on the floor drops at least this far ahead of the toes
SNAP_M = 0.15  # a click this near a spot where the cup stands sets it there (by a slope's
# foot, a table's end, a wall's face: the click's slip); farther, the place is refused
REFUSED_S = 3.0  # why a place was refused is shown there this long

RANGES: dict[str, Range] = {
    "cup.x": WORLD_X,
    "cup.height": Range(0.01, 1.0, "m"),
    "cup.radius": Range(0.005, 0.5, "m"),
    "cup.grip": Range(0.0, 1.0, "m"),
}


@dataclass(frozen=True, slots=True)
class CupSpec:
    """The cup's size, where its bottom starts, and the grip point's height above it."""

    home: FloatArray  # (2,) bottom centre at start
    height: float
    radius: float
    grip: float

    @property
    def half_width(self) -> float:
        """How far the cup reaches either side of its centre line, handle and all (the
        handle's ring, drawn 1.5 radii out, is 0.3 of the height across)."""
        return 1.5 * self.radius + 0.3 * self.height


def load_cup(fields: Fields, table: Table) -> CupSpec:
    """The ``cup`` section of a props file: a cup standing on ``table``'s top."""
    cup_f = fields.section("cup")
    cx = cup_f.number("x")
    tx, t_width = table.x0, table.width
    if not tx <= cx <= tx + t_width:
        raise cup_f.error("x", f"expected the cup on the table top [{tx:g}, {tx + t_width:g}]")
    return CupSpec(
        np.array([cx, table.top]),
        cup_f.length("height"),
        cup_f.length("radius"),
        cup_f.length("grip"),
    )
