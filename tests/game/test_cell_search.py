"""The cell tables give the very numbers of ``searchsorted`` and ``np.interp``, which they
stand in for over grounds of many vertices: exact equality (sign of zero included) over
random sorted values, evenly spread or bunched, and batches of queries that hit the values
exactly, an ulp either side, fall past either end, or are ±inf, NaN or huge.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.world.cell_search import (
    CELLS_FROM_QUERIES,
    CELLS_FROM_VALUES,
    HEIGHTS_FROM_QUERIES,
    PolylineHeights,
    SortedSearch,
)
from game.world.terrain import Terrain

SLOW_DRAWS_OK = settings(suppress_health_check=[HealthCheck.too_slow], max_examples=60)

BATCH = max(CELLS_FROM_QUERIES, HEIGHTS_FROM_QUERIES)


def _same(a: np.ndarray, b: np.ndarray) -> None:
    """Equal as numbers, NaN where NaN, and with the same sign of every zero."""
    assert a.shape == b.shape and a.dtype == b.dtype
    np.testing.assert_array_equal(a, b)
    assert (np.signbit(a) == np.signbit(b)).all()


@st.composite
def polylines(draw: st.DrawFn) -> tuple[np.ndarray, np.ndarray]:
    """Strictly increasing x, from CELLS_FROM_VALUES to 3,000 of them: an even spacing with
    jitter, random gaps, or clusters; heights with ties and signed zeros."""
    n = draw(st.integers(CELLS_FROM_VALUES, 3000))
    entropy = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    shape = draw(st.sampled_from(["even", "gaps", "clusters"]))
    start = draw(st.floats(-1000.0, 1000.0))
    if shape == "even":
        gaps = np.full(n - 1, draw(st.floats(0.001, 1.0))) * entropy.uniform(0.5, 1.5, n - 1)
    elif shape == "gaps":
        gaps = entropy.exponential(draw(st.floats(0.001, 1.0)), n - 1) + 1e-6
    else:  # runs of close vertices between long gaps: too bunched for cells, some draws
        gaps = np.where(entropy.random(n - 1) < 0.1, 1.0, 1e-4)
    xs = start + np.concatenate([[0.0], np.cumsum(gaps)])
    xs = xs[np.concatenate([[True], np.diff(xs) > 0])]
    ys = entropy.choice([0.0, -0.0, 0.17, 1.0, -2.5], len(xs))
    ys = np.where(entropy.random(len(xs)) < 0.5, entropy.uniform(-5.0, 5.0, len(xs)), ys)
    return xs, ys


def _queries(xs: np.ndarray, entropy: np.random.Generator) -> np.ndarray:
    """A batch of queries big enough for the cell tables: uniform over the range and past
    its ends, every value exactly and an ulp either side, and the extremes."""
    lo, hi = xs[0], xs[-1]
    span = hi - lo
    uniform = entropy.uniform(lo - 0.2 * span, hi + 0.2 * span, BATCH)
    exact = np.concatenate([xs, np.nextafter(xs, -np.inf), np.nextafter(xs, np.inf)])
    extreme = [np.inf, -np.inf, np.nan, 1e300, -1e300, 0.0, -0.0, lo - 1e-9, hi + 1e-9]
    queries = np.concatenate([uniform, exact, extreme])
    entropy.shuffle(queries)
    return queries


@SLOW_DRAWS_OK
@given(polylines(), st.integers(0, 2**32 - 1))
def test_sorted_search_gives_searchsorted_index(
    line: tuple[np.ndarray, np.ndarray], entropy: int
) -> None:
    xs, _ = line
    search = SortedSearch.of(xs)
    queries = _queries(xs, np.random.default_rng(entropy))
    finite = queries[np.abs(queries) < 1e12]  # (all answered by the cells where they exist)
    for batch in (queries, finite, finite[:7], np.resize(finite, (2 * BATCH, 1))):
        for side in ("left", "right"):
            _same(search.index(batch, side), xs.searchsorted(batch, side))


@SLOW_DRAWS_OK
@given(polylines(), st.integers(0, 2**32 - 1))
def test_polyline_heights_give_np_interp(line: tuple[np.ndarray, np.ndarray], entropy: int) -> None:
    xs, ys = line
    heights = PolylineHeights.of(SortedSearch.of(xs), ys, np.diff(ys) / np.diff(xs))
    if heights is None:
        return  # (bunched: the terrain keeps np.interp)
    queries = _queries(xs, np.random.default_rng(entropy))
    finite = queries[np.abs(queries) < 1e12]
    for batch in (queries, finite, finite[:7], np.resize(finite, (2, BATCH))):
        _same(heights.at(batch), np.interp(batch, xs, ys))


def test_evenly_spread_values_get_cells_and_bunched_ones_keep_the_binary_search() -> None:
    # (so the properties above exercise the cell tables, not only the fallbacks)
    even = np.linspace(-3.0, 37.0, 1000)
    assert SortedSearch.of(even).cells is not None
    assert PolylineHeights.of(
        SortedSearch.of(even), np.sin(even), np.diff(np.sin(even)) / np.diff(even)
    )
    bunched = np.concatenate([np.linspace(0.0, 1e-3, 500), [10.0]])
    assert SortedSearch.of(bunched).cells is None
    assert SortedSearch.of(even[: CELLS_FROM_VALUES - 1]).cells is None


@pytest.mark.parametrize("vertices", [64, 1000])
def test_terrain_queries_are_the_same_with_or_without_cells(vertices: int) -> None:
    entropy = np.random.default_rng(vertices)
    xs = np.linspace(-3.0, 37.0, vertices)
    ys = entropy.uniform(-0.5, 0.5, vertices)
    terrain = Terrain(np.stack([xs, ys], axis=-1))
    x = entropy.uniform(-5.0, 40.0, 4 * BATCH)
    _same(terrain.height_at(x), np.interp(x, xs, ys))
    slope = np.where(
        (x >= xs[0]) & (x <= xs[-1]),
        terrain.slopes[np.clip(xs.searchsorted(x, side="right") - 1, 0, vertices - 2)],
        0.0,
    )
    _same(terrain.slope_at(x), slope)
