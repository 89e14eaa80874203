"""Exact ``searchsorted`` and ``np.interp`` over a fixed sorted array, in O(1) a query
(no pygame).

A binary search costs O(log M) a query, and numpy's mispredicts a branch at most of its
levels: over a 1,000-vertex ground a lookup costs ~25 ns against ~8 over 64 vertices. Where
the values are many and about evenly spread, :class:`SortedSearch` instead cuts their range
into equal cells and tables, for each cell, how many values lie in the cells before it; a
query's count is then that table entry plus a comparison with each of the few values in its
own cell: a fixed number of whole-array numpy passes, whatever M is.

Exact, not approximate: a query's cell is ``⌊(x − origin)·scale⌋`` clamped into the table,
a monotone function of x in floating point (a subtraction of a constant, a product by a
positive one, a clamp and a truncation each keep the order), and every value's cell comes
from the same function. So a value in an earlier cell than ``x``'s is below ``x``, one in a
later cell is above it, and only the values sharing ``x``'s cell need comparing; the answer
is the very index ``searchsorted`` gives, for any input (±inf and NaN included).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike

from game.world.types import FloatArray, IntArray

# Cells are used from this many values up, for batches of this many queries or more (below
# either, numpy's binary search or np.interp is as quick: benchmarks/bench_lookups.py)
CELLS_FROM_VALUES = 512
CELLS_FROM_QUERIES = 512
HEIGHTS_FROM_QUERIES = 1024
_CELLS_PER_VALUE = 4
_MOST_IN_A_CELL = 3  # more values than this in one cell (bunched): no table, numpy's search

Side = Literal["left", "right"]


@dataclass(frozen=True, slots=True, eq=False)
class _Cells:
    """The cell table of sorted ``values`` (M,), in C cells from the first value to the last:
    ``before[k]`` how many values lie in cells before cell k, for k in 0 … C + 1 (a query's
    cell is clamped into that range as it is read: all values lie past one before the
    first, none in cell C + 1 past the last); ``padded`` the values then ``depth`` NaN, so
    the comparisons past the last value are false on either side."""

    origin: float
    scale: float  # cells a unit of x
    band: tuple[float, float]  # the queries answered here: within 2**52 cells of the origin
    before: IntArray
    padded: FloatArray
    depth: int  # the most values in one cell

    @classmethod
    def of(cls, values: FloatArray) -> _Cells | None:
        """The table of ``values`` (sorted, finite), or None where they bunch in a cell."""
        count = _CELLS_PER_VALUE * len(values)
        span = float(values[-1] - values[0])
        if not span > 0.0 or not np.isfinite(span):
            return None
        origin, scale = float(values[0]), count / span
        band = (origin - 2.0**52 / scale, origin + 2.0**52 / scale)
        cells = _Cells(origin, scale, band, np.empty(0, dtype=np.intp), values, 0)
        owner = np.clip(cells.cell(values), 0, count + 1)
        depth = int(np.bincount(owner).max())
        if depth > _MOST_IN_A_CELL:
            return None
        before = np.searchsorted(owner, np.arange(count + 2), side="left")
        padded = np.concatenate([values, np.full(depth, np.nan)])
        for array in (before, padded):
            array.setflags(write=False)
        return cls(origin, scale, band, before, padded, depth)

    def answers(self, x: FloatArray) -> bool:
        """Whether every query is in :attr:`band` (none NaN: a NaN fails both comparisons).
        Outside it a cell number could overflow; a binary search answers those."""
        lo, hi = self.band
        return bool(lo <= np.minimum.reduce(x, axis=None) and np.maximum.reduce(x, axis=None) <= hi)

    def cell(self, x: FloatArray) -> IntArray:
        """Each query's cell, ``⌊(x − origin)·scale⌋`` truncated toward 0 (x in the band:
        below 0 before the first value, above C + 1 past the last)."""
        u = np.subtract(x, self.origin)
        np.multiply(u, self.scale, out=u)
        return u.astype(np.intp)

    def count(self, x: FloatArray, side: Side) -> IntArray:
        """How many values are ≤ x (``right``) or < x (``left``): ``searchsorted``'s index,
        for queries the table :meth:`answers`."""
        first = self.before.take(self.cell(x), mode="clip")
        compare = np.less_equal if side == "right" else np.less
        found = first + compare(self.padded.take(first), x)
        for m in range(1, self.depth):
            found += compare(self.padded.take(first + m), x)
        return found


@dataclass(frozen=True, slots=True, eq=False)
class SortedSearch:
    """``values.searchsorted`` for a fixed sorted array of finite values (M,), from its cell
    table where that is quicker (:data:`CELLS_FROM_VALUES`, :data:`CELLS_FROM_QUERIES`)."""

    values: FloatArray
    cells: _Cells | None

    @classmethod
    def of(cls, values: ArrayLike) -> SortedSearch:
        """The search over ``values`` (sorted ascending, finite)."""
        v = np.ascontiguousarray(values, dtype=float)
        return cls(v, _Cells.of(v) if len(v) >= CELLS_FROM_VALUES else None)

    def index(self, x: ArrayLike, side: Side = "left") -> IntArray:
        """``values.searchsorted(x, side)``, shape of ``x``."""
        xa = np.asarray(x, dtype=float)
        cells = self.cells
        if cells is None or xa.size < CELLS_FROM_QUERIES or not cells.answers(xa):
            # (the array's own method: np.searchsorted's wrapper costs more than a short search)
            return self.values.searchsorted(xa, side=side)
        return cells.count(xa, side)


@dataclass(frozen=True, slots=True, eq=False)
class PolylineHeights:
    """``np.interp(x, xs, ys)`` for a fixed polyline, the same numbers.

    Between vertices j − 1 and j np.interp gives ``slope·(x − xs[j−1]) + ys[j−1]`` (at a
    vertex exactly, its own y; beyond either end the end's y). Tabling, for each count j of
    vertices ≤ x, that segment's start and slope gives the same expression on the same
    doubles, so the same result; before the first vertex and past the last the slope is a zero (signed so the
    product adds nothing to the end's y: −0.0 past the last, where x − xs[M−1] ≥ 0). At an
    inner vertex it gives ``slope·0 + y``: y itself, but for a height of −0.0 (the sum is
    +0.0 where the slope is ≥ 0), which is put back where the polyline has one.
    """

    search: SortedSearch
    cells: _Cells
    start_x: FloatArray  # (M + 1,): entry j, the segment x lies on when j vertices are ≤ x
    start_y: FloatArray
    slope: FloatArray
    negative_zero: bool

    @classmethod
    def of(cls, search: SortedSearch, ys: FloatArray, slopes: FloatArray) -> PolylineHeights | None:
        """The tables of the polyline with vertex x ``search.values`` (strictly increasing,
        all finite) and heights ``ys``, ``slopes`` computed as np.interp does, ``diff(ys) /
        diff(xs)``; or None where a binary search is quicker or a slope is not finite
        (np.interp's own fallbacks then apply)."""
        xs = search.values
        if search.cells is None or not np.isfinite(slopes).all():
            return None
        start_x = np.concatenate([xs[:1], xs])
        start_y = np.concatenate([ys[:1], ys])
        slope = np.concatenate([[0.0], slopes, [-0.0]])
        negative_zero = bool(np.any((ys == 0.0) & np.signbit(ys)))
        for array in (start_x, start_y, slope):
            array.setflags(write=False)
        return cls(search, search.cells, start_x, start_y, slope, negative_zero)

    def at(self, x: ArrayLike) -> FloatArray:
        """The heights under ``x``, shape of ``x``."""
        xa = np.asarray(x, dtype=float)
        if xa.size < HEIGHTS_FROM_QUERIES or not self.cells.answers(xa):
            return np.interp(xa, self.search.values, self.start_y[1:])
        return self.by_cells(xa)

    def by_cells(self, xa: FloatArray) -> FloatArray:
        """:meth:`at` from the tables, whatever the batch's size (queries the cells
        :meth:`~_Cells.answers`)."""
        j = self.cells.count(xa, "right")
        start = self.start_x.take(j)
        y = self.start_y.take(j)
        heights = self.slope.take(j) * (xa - start) + y
        if self.negative_zero:
            np.copyto(heights, y, where=xa == start)
        return heights
