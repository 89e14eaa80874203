"""The ladder as an asset: its section of the props file, its rungs, and the loft its top
leans on where the terrain has one (no pygame)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from game.world.props.base import FLAT_TOLERANCE_M, WORLD_X, flat_base
from game.world.schema import Fields, Range
from game.world.terrain import Terrain
from game.world.types import FloatArray

LOFT_SEARCH_M = 0.4  # a loft's edge must begin this close beyond the ladder's far rail
LOFT_MIN_HEIGHT_M = 0.5  # ... this much above the ladder's base
LOFT_DEPTH_M = 0.8  # ... and stay flat this far, room to stand
LOFT_RUNG_TOLERANCE_M = 0.06  # ... level with a rung to within this

RANGES: dict[str, Range] = {
    "ladder.x": WORLD_X,
    "ladder.width": Range(0.1, 2.0, "m"),
    "ladder.height": Range(0.5, 30.0, "m"),
    "ladder.first_rung": Range(0.05, 30.0, "m"),
    "ladder.rung_spacing": Range(0.1, 1.0, "m"),
}


@dataclass(frozen=True, slots=True)
class Ladder:
    """A vertical ladder: rails at ``x ± width/2`` from ``base`` up ``height``.

    Attributes
    ----------
    rungs : ndarray, shape (K,)
        World y of each rung, bottom first.
    loft : ndarray, shape (2,), or None
        Where the ground the ladder leans on begins at its top: the wall's top edge
        ``(x, y)`` beyond the rails, level (within ``LOFT_RUNG_TOLERANCE_M``) with the rung
        ``loft_rung``; None for a free-standing ladder (no stepping off at the top).
    loft_rung : int
        The rung level with the loft, or −1.
    """

    x: float
    base: float
    width: float
    height: float
    rungs: FloatArray
    loft: FloatArray | None = None
    loft_rung: int = -1


def load_ladder(fields: Fields, terrain: Terrain) -> Ladder:
    """The ``ladder`` section of a props file: standing on flat ground, with the loft by its
    top where the terrain has one (:func:`_loft`)."""
    ladder_f = fields.section("ladder")
    lx = ladder_f.number("x")
    l_width, l_height = ladder_f.length("width"), ladder_f.length("height")
    l_base = flat_base(fields, terrain, "ladder", lx - l_width / 2, lx + l_width / 2)
    first, spacing = ladder_f.length("first_rung"), ladder_f.length("rung_spacing")
    if first >= l_height:
        raise ladder_f.error("first_rung", f"expected a height below the top ({l_height:g})")
    rungs = l_base + np.arange(first, l_height + 1e-9, spacing)
    loft, loft_rung = _loft(terrain, lx + l_width / 2, l_base, rungs)
    return Ladder(lx, l_base, l_width, l_height, rungs, loft, loft_rung)


def _loft(
    terrain: Terrain, rail_x: float, base: float, rungs: FloatArray
) -> tuple[FloatArray | None, int]:
    """The loft by the ladder's top: ground within ``LOFT_SEARCH_M`` beyond the far rail
    ``rail_x`` that is flat for ``LOFT_DEPTH_M``, well above the base and level with a rung.
    Returns its edge point and that rung, or ``(None, -1)``."""
    xs = rail_x + np.arange(0.0, LOFT_SEARCH_M, 0.01)
    ground = terrain.height_at(xs)
    risen = np.flatnonzero(ground > base + LOFT_MIN_HEIGHT_M)
    if risen.size == 0:
        return None, -1
    # the wall's face rises over a few centimetres: the edge is where it reaches its top
    level = float(terrain.height_at(xs[risen[0]] + 0.1))
    on_top = np.flatnonzero(ground >= level - FLAT_TOLERANCE_M / 2)
    edge = float(xs[on_top[0]]) if on_top.size else float(xs[risen[0]] + 0.1)
    top = terrain.height_at(np.linspace(edge, edge + LOFT_DEPTH_M, 12))
    level = float(top[0])
    if np.abs(top - level).max() > FLAT_TOLERANCE_M:
        return None, -1
    rung = int(np.argmin(np.abs(rungs - level)))
    if abs(float(rungs[rung]) - level) > LOFT_RUNG_TOLERANCE_M:
        return None, -1
    return np.array([edge, level]), rung
