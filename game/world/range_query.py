"""Range queries over sorted data (no pygame): the index range of the values inside an
interval by binary search, and range maxima from a sparse table. The ground's queries
(:mod:`game.world.terrain`) answer "the vertices under this span" and "the highest point
or steepest rise in this range" for a batch in O(N log V) with them.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from game.world.cell_search import SortedSearch
from game.world.types import FloatArray, IntArray


def index_span(sorted_x: SortedSearch, lo: ArrayLike, hi: ArrayLike) -> tuple[IntArray, IntArray]:
    """The entries of ``sorted_x`` (M,) with ``lo ≤ x ≤ hi`` as index ranges ``[first,
    stop)``, broadcast shape of ``lo`` and ``hi`` each (empty where ``hi < lo`` or either is
    NaN, as a mask's comparisons would be); a binary search, O(log M) an interval, or a cell
    table's O(1) (:class:`game.world.cell_search.SortedSearch`)."""
    lo_a, hi_a = np.asarray(lo, dtype=float), np.asarray(hi, dtype=float)
    first = sorted_x.index(lo_a, side="left")  # the first x ≥ lo
    stop = sorted_x.index(hi_a, side="right")  # the first x > hi
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
    table : ndarray, shape (K·(M + 1),)
        Row after row, ``table[k·(M + 1) + i] = max(values[i : i + 2**k])``, −inf where the
        run would pass the end (flat: one gather an index, cheaper than a 2-D fancy index).
        A row's last entry, ``i = M``, is −inf for all: an empty range's ``first`` may be M
        (:meth:`over` reads an entry there that it then discards).
    row_of : ndarray of int, shape (M + 1,)
        ``row_of[n]`` the start ``k·(M + 1)`` of the row of runs a range of n values is
        covered by, k the largest with 2**k ≤ n (0 for n = 0): looked up rather than
        computed every query.
    run_of : ndarray of int, shape (M + 1,)
        ``run_of[n]`` that run's length, 2**k.
    """

    table: FloatArray
    row_of: IntArray
    run_of: IntArray

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
        table = np.full((len(rows), size + 1), -np.inf)
        for k, r in enumerate(rows):
            table[k, : len(r)] = r
        # frexp gives n = m·2**e with m in [0.5, 1), so 2**(e − 1) ≤ n < 2**e
        floor_log2 = np.maximum(np.frexp(np.arange(size + 1))[1] - 1, 0)
        row_of, run_of = floor_log2 * (size + 1), 1 << floor_log2
        for array in (table, row_of, run_of):
            array.setflags(write=False)
        return cls(table.ravel(), row_of, run_of)

    def over(self, first: IntArray, stop: IntArray, empty: float) -> FloatArray:
        """The maximum of ``values[first:stop]`` for each pair of indices in ``[0, M]``
        (broadcast shape), ``empty`` where the range is empty."""
        length = np.maximum(stop - first, 1)
        row = self.row_of[length]  # the row of the two runs of 2**k that cover the range
        last = np.maximum(stop - self.run_of[length], 0)  # the second run ends at stop
        both = np.maximum(self.table[row + first], self.table[row + last])
        return np.where(stop > first, both, empty)
