"""The 3-D ground: a regular grid of heights, the surface between grid points bilinear.

Row ``i`` of the grid lies at ``z = z0 + i·s`` and column ``j`` at ``x = x0 + j·s`` (y up,
metres). Inside a cell with corner heights ``h00`` (at ``x_j, z_i``), ``h10`` (``x_j+1``),
``h01`` (``z_i+1``) and ``h11``, and fractions ``u = (x − x_j)/s``, ``v = (z − z_i)/s``,

    h(u, v) = h00 (1−u)(1−v) + h10 u (1−v) + h01 (1−u) v + h11 u v

and that is the surface the feet stand on (continuous across cell edges; its slope jumps
there). Beyond the grid the edge heights continue level. The gradient inside a cell is

    ∂h/∂x = ((h10 − h00)(1−v) + (h11 − h01) v) / s
    ∂h/∂z = ((h01 − h00)(1−u) + (h11 − h10) u) / s

and the unit normal is ``(−∂h/∂x, 1, −∂h/∂z) / √(1 + ∂h/∂x² + ∂h/∂z²)``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numpy.typing import ArrayLike, NDArray

from game.assets import read_json
from game.world.schema import Fields, Range
from game.world.types import FloatArray

MAX_GRID = 512  # rows and columns at most (a 1 MiB file holds about 150,000 heights)
HEIGHTFIELD_RANGES = {
    "origin": Range(-10_000.0, 10_000.0, "m"),
    "spacing": Range(0.02, 10.0, "m"),
    "heights": Range(-1_000.0, 1_000.0, "m"),
    "rows": Range(2, MAX_GRID),
}


@dataclass(frozen=True, slots=True)
class Feature:
    """A named stretch of ground for the HUD, the autopilot and the tests: the rectangle
    ``x0 ≤ x ≤ x1``, ``z0 ≤ z ≤ z1``."""

    name: str
    x: tuple[float, float]
    z: tuple[float, float]

    @property
    def centre(self) -> tuple[float, float]:
        """The rectangle's centre ``(x, z)``."""
        return (self.x[0] + self.x[1]) / 2, (self.z[0] + self.z[1]) / 2


@dataclass(frozen=True)
class Heightfield:
    """Heights on a regular grid (see the module's docstring for the surface).

    Attributes
    ----------
    origin : tuple of float
        ``(x0, z0)``, the position of ``heights[0, 0]`` (metres).
    spacing : float
        The grid step ``s`` along x and z (metres).
    heights : ndarray, shape (R, C)
        ``heights[i, j]`` is the ground's y at ``(x0 + j·s, z0 + i·s)``.
    features : tuple of Feature
        Named stretches of the ground.
    """

    origin: tuple[float, float]
    spacing: float
    heights: FloatArray
    features: tuple[Feature, ...] = ()

    @property
    def extent(self) -> tuple[tuple[float, float], tuple[float, float]]:
        """``((x_min, x_max), (z_min, z_max))`` covered by the grid."""
        rows, cols = self.heights.shape
        x0, z0 = self.origin
        return (x0, x0 + (cols - 1) * self.spacing), (z0, z0 + (rows - 1) * self.spacing)

    def feature(self, name: str) -> Feature:
        """The feature called ``name`` (``KeyError`` if there is none)."""
        for feature in self.features:
            if feature.name == name:
                return feature
        raise KeyError(name)

    def _cell(
        self, x: ArrayLike, z: ArrayLike
    ) -> tuple[NDArray[np.intp], NDArray[np.intp], FloatArray, FloatArray]:
        """Each point's cell ``(i, j)`` and its fractions ``(u, v)`` in it, the point first
        clamped onto the grid (level beyond the edges)."""
        rows, cols = self.heights.shape
        gx = np.clip((np.asarray(x, dtype=float) - self.origin[0]) / self.spacing, 0, cols - 1)
        gz = np.clip((np.asarray(z, dtype=float) - self.origin[1]) / self.spacing, 0, rows - 1)
        j = np.minimum(gx.astype(np.intp), cols - 2)
        i = np.minimum(gz.astype(np.intp), rows - 2)
        return i, j, gx - j, gz - i

    def _corners(
        self, i: NDArray[np.intp], j: NDArray[np.intp]
    ) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
        h = self.heights
        return h[i, j], h[i, j + 1], h[i + 1, j], h[i + 1, j + 1]

    def height_at(self, x: ArrayLike, z: ArrayLike) -> FloatArray:
        """The ground's y under each ``(x, z)`` (broadcast), bilinear inside a cell."""
        i, j, u, v = self._cell(*np.broadcast_arrays(np.asarray(x), np.asarray(z)))
        h00, h10, h01, h11 = self._corners(i, j)
        return (h00 * (1 - u) + h10 * u) * (1 - v) + (h01 * (1 - u) + h11 * u) * v

    def gradient_at(self, x: ArrayLike, z: ArrayLike) -> FloatArray:
        """``(∂h/∂x, ∂h/∂z)`` under each point, shape ``(..., 2)``; zero along an axis
        beyond the grid's edge (the ground there is level)."""
        xs, zs = np.broadcast_arrays(np.asarray(x, dtype=float), np.asarray(z, dtype=float))
        i, j, u, v = self._cell(xs, zs)
        h00, h10, h01, h11 = self._corners(i, j)
        dx = ((h10 - h00) * (1 - v) + (h11 - h01) * v) / self.spacing
        dz = ((h01 - h00) * (1 - u) + (h11 - h10) * u) / self.spacing
        (x_lo, x_hi), (z_lo, z_hi) = self.extent
        dx = np.where((xs < x_lo) | (xs > x_hi), 0.0, dx)
        dz = np.where((zs < z_lo) | (zs > z_hi), 0.0, dz)
        return np.stack([dx, dz], axis=-1)

    def normal_at(self, x: ArrayLike, z: ArrayLike) -> FloatArray:
        """The ground's unit normal ``(nx, ny, nz)`` under each point, shape ``(..., 3)``."""
        g = self.gradient_at(x, z)
        n = np.stack([-g[..., 0], np.ones(g.shape[:-1]), -g[..., 1]], axis=-1)
        return n / np.linalg.norm(n, axis=-1, keepdims=True)

    def to_json(self) -> dict[str, object]:
        """The trace header's ``heightfield``: origin, spacing and the rows of heights."""
        return {
            "origin": [round(float(self.origin[0]), 6), round(float(self.origin[1]), 6)],
            "spacing": round(float(self.spacing), 6),
            "heights": [[round(float(h), 6) for h in row] for row in self.heights],
        }


def _heights(fields: Fields) -> FloatArray:
    """The ``heights`` grid: 2 to :data:`MAX_GRID` rows of as many finite numbers each."""
    rows = fields.raw("heights")
    count = HEIGHTFIELD_RANGES["rows"]
    if not isinstance(rows, list) or not count.low <= len(rows) <= count.high:
        raise fields.error("heights", f"expected a list of {count} rows of heights")
    width = len(rows[0]) if isinstance(rows[0], list) else -1
    bounds = HEIGHTFIELD_RANGES["heights"]
    for index, row in enumerate(rows):
        key = f"heights[{index}]"
        if not isinstance(row, list) or len(row) != width or not count.low <= width <= count.high:
            raise fields.error(
                key, f"expected a row of {width if width >= 2 else count} heights like row 0"
            )
        for column, value in enumerate(row):
            number = isinstance(value, int | float) and not isinstance(value, bool)
            if not number or not bounds.low <= value <= bounds.high:
                raise fields.error(
                    f"{key}[{column}]", f"expected a height in {bounds}, found {value!r}"
                )
    return np.asarray(rows, dtype=float)


def _pair(fields: Fields, name: str, low: float, high: float) -> tuple[float, float]:
    """A ``[a, b]`` pair with ``low ≤ a < b ≤ high``."""
    value = fields.raw(name)
    ok = (
        isinstance(value, list)
        and len(value) == 2
        and all(isinstance(v, int | float) and not isinstance(v, bool) for v in value)
        and low <= value[0] < value[1] <= high
    )
    if not ok:
        raise fields.error(name, f"expected [from, to] with {low:g} ≤ from < to ≤ {high:g}")
    return float(value[0]), float(value[1])


def load_heightfield(path: str | Path) -> Heightfield:
    """Read and validate a heightfield file.

    The file is ``{"origin": [x0, z0], "spacing": s, "heights": [[...], ...],
    "features": [{"name", "x": [x0, x1], "z": [z0, z1]}, ...]}`` (``features`` optional,
    each inside the grid). Raises :class:`~game.assets.AssetError` naming the file and key.
    """
    fields = Fields(path, read_json(path), ranges=HEIGHTFIELD_RANGES)
    origin_range = HEIGHTFIELD_RANGES["origin"]
    raw_origin = fields.raw("origin")
    ok = (
        isinstance(raw_origin, list)
        and len(raw_origin) == 2
        and all(isinstance(v, int | float) and not isinstance(v, bool) for v in raw_origin)
        and all(origin_range.low <= v <= origin_range.high for v in raw_origin)
    )
    if not ok:
        raise fields.error("origin", f"expected [x0, z0], each in {origin_range}")
    spacing = fields.number("spacing")
    field = Heightfield((float(raw_origin[0]), float(raw_origin[1])), spacing, _heights(fields))
    (x_lo, x_hi), (z_lo, z_hi) = field.extent
    features = []
    raw = fields.optional("features", [])
    if not isinstance(raw, list) or len(raw) > 100:
        raise fields.error("features", "expected a list of at most 100 {name, x, z} objects")
    for index, item in enumerate(raw):
        entry = Fields(path, item, f"features[{index}]", HEIGHTFIELD_RANGES)
        features.append(
            Feature(
                entry.text("name"), _pair(entry, "x", x_lo, x_hi), _pair(entry, "z", z_lo, z_hi)
            )
        )
        entry.reject_unknown()
    fields.optional("name", "")  # a label for the reader
    fields.reject_unknown()
    return Heightfield(field.origin, spacing, field.heights, tuple(features))
