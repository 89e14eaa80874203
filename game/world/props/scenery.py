"""Every prop of the walk scene, loaded together from ``props.json`` (door, table, cup,
ladder, and an optional ball), and the rules of where the cup may be set down (no pygame).

Each prop's own module holds its dataclass, its asset section's loader and its range
table; this module reads the file in order and puts them together.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from game.assets import read_json
from game.world.props import cup as cup_prop
from game.world.props import door as door_prop
from game.world.props import ladder as ladder_prop
from game.world.props import table as table_prop
from game.world.props.ball import PLUG_IN as BALL
from game.world.props.base import FLAT_TOLERANCE_M, PlugIn, Prop
from game.world.props.cup import CUP_MAX_SLOPE, FEET_CLEAR_M, CupSpec
from game.world.props.cup_prop import CupProp
from game.world.props.door import Door, DoorProp
from game.world.props.ladder import Ladder
from game.world.props.ladder_prop import LadderProp
from game.world.props.reach import PropHands
from game.world.props.table import Table
from game.world.rig import Rig
from game.world.schema import Fields, Range
from game.world.terrain import Terrain
from game.world.types import FloatArray

# the prop plug-ins, each an optional section of props.json (adding one: its module, a line
# here, its section in the file and its painter in game.scenes.prop_painters)
PLUG_INS: tuple[PlugIn, ...] = (BALL,)
PLUG_IN_NAMES = frozenset(plug_in.name for plug_in in PLUG_INS)

PROPS_RANGES: dict[str, Range] = {
    # every numeric field of props.json and its documented physical range
    "reach_halflife": Range(0.001, 5.0, "s"),
    "grip_tolerance": Range(0.0001, 0.5, "m"),
    **door_prop.RANGES,
    **table_prop.RANGES,
    **cup_prop.RANGES,
    **ladder_prop.RANGES,
    **{key: span for plug_in in PLUG_INS for key, span in plug_in.ranges.items()},
}


@dataclass(frozen=True, slots=True, eq=False)
class Props:
    """Every prop of the scene and the reach settings."""

    door: Door
    table: Table
    cup: CupSpec
    ladder: Ladder
    reach_halflife: float
    grip_tolerance: float
    plug_ins: dict[str, Any] = field(default_factory=dict)  # name → what its loader read

    def place_for_click(self, point: ArrayLike) -> float:
        """The x a click at ``point`` (world) sets the cup down at: where it is, but a click
        under the table top (the floor beneath the table) puts it on the floor just clear of
        the table's nearer end, not on the table's edge above the click."""
        x, y = (float(v) for v in np.asarray(point, dtype=float)[:2])
        table = self.table
        x1 = table.x0 + table.width
        if not (table.x0 <= x <= x1 and y < table.top - self.cup.height):
            return x
        clear = self.cup.radius + FEET_CLEAR_M
        return table.x0 - clear if x - table.x0 < x1 - x else x1 + clear

    def surface_at(self, x: float, terrain: Terrain) -> float:
        """The height something set down at ``x`` rests on: the table top or the ground."""
        return float(self.surfaces(np.array([x]), terrain)[0])

    def surfaces(self, xs: FloatArray, terrain: Terrain) -> FloatArray:
        """:meth:`surface_at` of each of ``xs``."""
        table = self.table
        on_table = (xs >= table.x0) & (xs <= table.x0 + table.width)
        return np.where(on_table, table.top, terrain.height_at(xs))

    def stands_at(self, xs: FloatArray, terrain: Terrain) -> NDArray[np.bool_]:
        """Whether the cup set down upright at each of ``xs`` stands: the surface under it
        as drawn (1.15 radii left, the handle's ring to :attr:`CupSpec.half_width` right)
        within ``FLAT_TOLERANCE_M`` of one plane, not across a table's end or on a wall's
        face (a riser's 1-2 cm of width gives heights between floor and top: set down by
        the loft's wall, the cup would hang on its face in mid-air), and that plane no
        steeper than ``CUP_MAX_SLOPE``."""
        cup = self.cup
        across = np.linspace(-1.15 * cup.radius, cup.half_width, 5)
        heights = self.surfaces(np.asarray(xs)[None, :] + across[:, None], terrain)
        # flush on a plane: off the straight line through its ends by at most the tolerance
        ends = heights[0], heights[-1]
        slope = (ends[1] - ends[0]) / (across[-1] - across[0])
        line = ends[0] + slope * (across - across[0])[:, None]
        flush = np.abs(heights - line).max(axis=0) <= FLAT_TOLERANCE_M
        return flush & (np.abs(slope) <= math.tan(CUP_MAX_SLOPE))

    def slope_deg(self, x: float, terrain: Terrain) -> float:
        """The surface's slope under the cup's base at ``x``, degrees (unsigned)."""
        r = self.cup.radius
        left, right = self.surfaces(np.array([x - r, x + r]), terrain)
        return abs(math.degrees(math.atan2(float(right - left), 2.0 * r)))

    def cup_outline(self, bottom: ArrayLike) -> FloatArray:
        """The cup as drawn, upright, world points (5, 2): its body's four corners (base left
        and right, rim right and left) and its handle ring's centre, for its bottom centre
        at ``bottom`` (2,)."""
        r, h = self.cup.radius, self.cup.height
        local = np.array([[-r, 0.0], [r, 0.0], [1.15 * r, h], [-1.15 * r, h], [1.5 * r, 0.55 * h]])
        return np.asarray(bottom, dtype=float) + local

    def standing_spot(self, x: float, terrain: Terrain, within: float) -> float | None:
        """The x nearest ``x`` where the cup stands (:meth:`stands_at`), in 5 mm steps up to
        ``within`` either way; None if none does."""
        offsets = np.arange(1, int(round(within / 0.005)) + 1) * 0.005
        xs = x + np.concatenate([[0.0], np.ravel(np.column_stack([-offsets, offsets]))])
        ok = self.stands_at(xs, terrain)
        return float(xs[np.argmax(ok)]) if ok.any() else None


def load_props(path: str | Path, terrain: Terrain) -> Props:
    """Read and validate a props file against ``terrain`` (every base on flat ground).

    Raises :class:`game.assets.AssetError` naming the file and the key.
    """
    fields = Fields(path, read_json(path), ranges=PROPS_RANGES)
    door = door_prop.load_door(fields, terrain)
    table = table_prop.load_table(fields, terrain)
    cup = cup_prop.load_cup(fields, table)
    ladder = ladder_prop.load_ladder(fields, terrain)
    plug_ins = {
        plug_in.name: plug_in.load(fields, terrain)
        for plug_in in PLUG_INS
        if plug_in.name in fields.data
    }
    props = Props(
        door,
        table,
        cup,
        ladder,
        fields.length("reach_halflife"),
        fields.length("grip_tolerance"),
        plug_ins,
    )
    fields.optional("name", "")  # a label for the reader
    fields.reject_unknown()  # a misspelt key is an error, not a silent default
    return props


def create_plug_ins(props: Props) -> list[Prop]:
    """The live prop plug-ins of ``props`` (those its file has a section for), in
    :data:`PLUG_INS` order."""
    return [p.create(props.plug_ins[p.name]) for p in PLUG_INS if p.name in props.plug_ins]


def create_props(props: Props, rig: Rig) -> tuple[PropHands, list[Prop]]:
    """The hero's hands on the props and every live prop of ``props``, in the order the
    walk scene asks them (the first asking for a walk wins): the ladder (its climb takes
    the whole step), the door, the plug-ins, the cup."""
    hands = PropHands(props)
    fixed: list[Prop] = [LadderProp(props.ladder, rig), DoorProp(props.door, hands)]
    return hands, [*fixed, *create_plug_ins(props), CupProp(props, hands, rig)]
