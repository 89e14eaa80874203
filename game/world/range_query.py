"""Range queries over sorted data (no pygame): the index range of the values inside an
interval by binary search, and range maxima from a sparse table. The ground's queries
(:mod:`game.world.terrain`) answer "the vertices under this span" and "the highest point
or steepest rise in this range" for a batch in O(N log V) with them.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.intp]


def index_span(sorted_x: FloatArray, lo: ArrayLike, hi: ArrayLike) -> tuple[IntArray, IntArray]:
    """The entries of ``sorted_x`` (M,) with ``lo ≤ x ≤ hi`` as index ranges ``[first,
    stop)``, broadcast shape of ``lo`` and ``hi`` each (empty where ``hi < lo`` or either is
    NaN, as a mask's comparisons would be); a binary search, O(log M) an interval."""
    lo_a, hi_a = np.asarray(lo, dtype=float), np.asarray(hi, dtype=float)
    # (the array's own method: np.searchsorted's wrapper costs more than a short search)
    first = sorted_x.searchsorted(lo_a, side="left")  # the first x ≥ lo
    stop = sorted_x.searchsorted(hi_a, side="right")  # the first x > hi
    return first, np.where(hi_a >= lo_a, stop, first)


@dataclass(frozen=True, slots=True, eq=False)
class RangeMax:
    """Range maxima over a fixed sequence in O(1) a query: a sparse table, built once in
    O(M log M).

    Row ``k`` of the table holds the maximum of every run of ``2**k`` values starting at
    each index; a range ``[first, stop)`` is covered by the two (possibly overlapping) runs
    of the largest such length that fits, and a maximum is exact in floating point, so the
    answer is the same number a dense masked maximum gives. The values must not be NaN (a
    terrain's heights are checked finite when it is loaded or edited).

    Attributes
    ----------
    table : ndarray, shape (K·M,)
        Row after row, ``table[k·M + i] = max(values[i : i + 2**k])``, −inf where the run
        would pass the end (flat: one gather an index, cheaper than a 2-D fancy index).
    size : int
        M, the number of values.
    floor_log2 : ndarray of int, shape (M + 1,)
        ``floor_log2[n]`` the largest k with 2**k ≤ n (0 for n = 0): the run length a
        range of n values is covered by, looked up rather than computed every query.
    """

    table: FloatArray
    size: int
    floor_log2: IntArray

    @classmethod
    def of(cls, values: ArrayLike) -> RangeMax:
        """The table of ``values``, shape ``(M,)``."""
        row = np.asarray(values, dtype=float)
        rows = [row]
        width = 1
        while 2 * width <= len(rows[0]):
            # a run of 2w: the max of the run of w starting here and the one w further on
            row = np.maximum(row[:-width], row[width:])
            rows.append(row)
            width *= 2
        size = len(rows[0])
        table = np.full((len(rows), size), -np.inf)
        for k, r in enumerate(rows):
            table[k, : len(r)] = r
        # frexp gives n = m·2**e with m in [0.5, 1), so 2**(e − 1) ≤ n < 2**e
        floor_log2 = np.maximum(np.frexp(np.arange(size + 1))[1] - 1, 0)
        for array in (table, floor_log2):
            array.setflags(write=False)
        return cls(table.ravel(), size, floor_log2)

    def over(self, first: IntArray, stop: IntArray, empty: float) -> FloatArray:
        """The maximum of ``values[first:stop]`` for each pair of indices (broadcast shape),
        ``empty`` where the range is empty."""
        length = np.maximum(stop - first, 1)
        k = self.floor_log2[length]  # the two runs of 2**k that cover the range
        last = np.maximum(stop - (1 << k), 0)  # the second run ends at stop
        row = k * self.size
        both = np.maximum(
            self.table[row + np.minimum(first, self.size - 1)], self.table[row + last]
        )
        return np.where(stop > first, both, empty)
