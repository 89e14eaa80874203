"""What every prop module shares: the array type, the flat-footprint rule, the ``[x, y]``
pair reader, and the :class:`Prop` protocol a prop that moves and drives the hero follows
(no pygame).

Props stand on the terrain: each loader puts its prop's base at the ground height under it
and rejects a prop whose footprint is not flat (a table on the stairs would float).
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import NDArray

from game.world.schema import Fields, Range
from game.world.terrain import Terrain

FloatArray = NDArray[np.float64]
FLAT_TOLERANCE_M = 0.01  # a footprint whose ground varies more than this is not flat
WORLD_X = Range(-10_000.0, 10_000.0, "m")  # as the terrain's x; inside it is checked too


def flat_base(fields: Fields, terrain: Terrain, name: str, x0: float, x1: float) -> float:
    """The ground height under ``[x0, x1]``; an error names ``name.x`` if it is not flat."""
    xs = np.linspace(x0, x1, 9)
    ground = terrain.height_at(xs)
    lo, hi = terrain.x_range
    if x0 < lo or x1 > hi:
        raise fields.error(f"{name}.x", f"expected the prop inside the terrain [{lo:g}, {hi:g}]")
    if float(ground.max() - ground.min()) > FLAT_TOLERANCE_M:
        raise fields.error(
            f"{name}.x",
            f"expected flat ground under [{x0:g}, {x1:g}], found heights "
            f"{float(ground.min()):.3f} … {float(ground.max()):.3f}",
        )
    return float(ground.max())


def pair(fields: Fields, name: str) -> FloatArray:
    """A ``[x, y]`` pair of finite numbers."""
    value = fields.raw(name)
    ok = (
        isinstance(value, list)
        and len(value) == 2
        and all(isinstance(v, int | float) and not isinstance(v, bool) for v in value)
        and all(math.isfinite(float(v)) for v in value)
    )
    if not ok:
        raise fields.error(name, "expected a point [x, y] of two finite numbers")
    return np.asarray(value, dtype=float)
