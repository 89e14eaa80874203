"""The table: a top on two legs standing on flat ground; a cup stands on its top and a
carried cup keeps out of its slab (no pygame)."""

from __future__ import annotations

from dataclasses import dataclass

from game.world.props.base import WORLD_X, flat_base
from game.world.schema import Fields, Range
from game.world.terrain import Terrain

TABLE_OVERHANG_M = 0.05  # the table top reaches this far past its ends ...
TABLE_TOP_THICK_M = 0.05  # ... and is this thick (as drawn; solid to a carried cup)

RANGES: dict[str, Range] = {
    "table.x": WORLD_X,
    "table.width": Range(0.2, 10.0, "m"),
    "table.height": Range(0.2, 3.0, "m"),
}


@dataclass(frozen=True, slots=True)
class Table:
    """A table: ``x0``…``x0 + width`` on the ground at ``base``, top at ``top``."""

    x0: float
    base: float
    width: float
    top: float

    def top_box(self) -> tuple[float, float, float, float]:
        """The table top's slab (left, bottom, right, top), metres: what a cup keeps out of."""
        return (
            self.x0 - TABLE_OVERHANG_M,
            self.top - TABLE_TOP_THICK_M,
            self.x0 + self.width + TABLE_OVERHANG_M,
            self.top,
        )


def load_table(fields: Fields, terrain: Terrain) -> Table:
    """The ``table`` section of a props file, standing on flat ground."""
    table_f = fields.section("table")
    tx = table_f.number("x")
    t_width, t_height = table_f.length("width"), table_f.length("height")
    t_base = flat_base(fields, terrain, "table", tx, tx + t_width)
    return Table(tx, t_base, t_width, t_base + t_height)
