"""The sorted terrain queries (binary search over the vertices, range maxima) give the very
numbers of the dense forms they replace, a mask of every span against every vertex, over
random terrains and spans: ends on a vertex, empty, reversed, infinite, NaN.

Each oracle here is that dense form, written out: the queries must stay byte-identical to
it, so equality is exact (sign of zero included), not to a tolerance.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from game.scene import ASSETS_DIR
from game.world.easing import clamp
from game.world.feet import sole_depth as _sole_depth
from game.world.feet import sole_penetration
from game.world.range_query import RangeMax
from game.world.rig import load_rig
from game.world.swing import _APPROACH_SLOPE, _PROBES, sole_clearance
from game.world.terrain import Terrain

# spans with infinite or NaN ends make the dense forms' arithmetic warn
pytestmark = pytest.mark.filterwarnings("ignore:invalid value:RuntimeWarning")

# no time limit on an example or on drawing it: the terrains are big by design, and a
# test's verdict must not depend on how busy the machine is
SLOW_DRAWS_OK = settings(suppress_health_check=[HealthCheck.too_slow])

LEGS = load_rig(ASSETS_DIR / "rig.json").legs
FloatArray = np.ndarray


def _same(a: object, b: object) -> None:
    """Equal as numbers, NaN where NaN, and with the same sign of every zero."""
    a_arr, b_arr = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    assert a_arr.shape == b_arr.shape
    np.testing.assert_array_equal(a_arr, b_arr)
    assert (np.signbit(a_arr) == np.signbit(b_arr)).all()


@st.composite
def terrains(draw: st.DrawFn, max_points: int = 40) -> Terrain:
    """A polyline with strictly increasing x: gaps from 1 µm to 2 m, heights with ties."""
    n = draw(st.integers(2, max_points))
    start = draw(st.floats(-100.0, 100.0))
    gaps = draw(st.lists(st.floats(1e-6, 2.0), min_size=n - 1, max_size=n - 1))
    xs = start + np.concatenate([[0.0], np.cumsum(gaps)])
    assume(bool(np.all(np.diff(xs) > 0)))
    level = st.sampled_from([0.0, 0.17, 1.0])  # repeated heights: ties for the maxima
    ys = draw(st.lists(level | st.floats(-5.0, 5.0), min_size=n, max_size=n))
    return Terrain(np.stack([xs, np.asarray(ys) + 0.0], axis=-1))  # + 0.0: no −0 heights


def positions(terrain: Terrain, finite: bool = False) -> st.SearchStrategy[float]:
    """An x on the terrain, past its ends, a vertex exactly or an ulp either side; and
    unless ``finite``, ±inf and NaN."""
    lo, hi = terrain.x_range
    vertex = st.sampled_from(terrain.xs.tolist())
    on_ground = st.one_of(
        st.floats(lo - 1.0, hi + 1.0),
        vertex,
        vertex.map(lambda x: float(np.nextafter(x, np.inf))),
        vertex.map(lambda x: float(np.nextafter(x, -np.inf))),
    )
    return on_ground if finite else on_ground | st.sampled_from([np.inf, -np.inf, np.nan])


@st.composite
def spans(draw: st.DrawFn, count: int = 12) -> tuple[Terrain, FloatArray, FloatArray]:
    terrain = draw(terrains())
    ends = st.lists(positions(terrain), min_size=count, max_size=count)
    return terrain, np.array(draw(ends)), np.array(draw(ends))


@SLOW_DRAWS_OK
@given(spans())
def test_vertices_between_are_the_vertices_a_mask_holds(
    case: tuple[Terrain, FloatArray, FloatArray],
) -> None:
    terrain, lo, hi = case
    mask = (terrain.xs >= lo[:, None]) & (terrain.xs <= hi[:, None])
    interval, vertex = terrain.vertices_between(lo, hi)
    expected_interval, expected_vertex = np.nonzero(mask)
    assert interval.tolist() == expected_interval.tolist()
    assert vertex.tolist() == expected_vertex.tolist()


@SLOW_DRAWS_OK
@given(
    st.lists(
        st.floats(allow_nan=False, allow_infinity=True) | st.sampled_from([0.0, 1.0]),
        min_size=1,
        max_size=70,
    ),
    st.data(),
)
def test_range_maxima_are_the_masked_maxima(values: list[float], data: st.DataObject) -> None:
    vals = np.asarray(values) + 0.0
    table = RangeMax.of(vals)
    index = st.integers(0, len(vals))
    first = np.array(data.draw(st.lists(index, min_size=8, max_size=8)))
    stop = np.array(data.draw(st.lists(index, min_size=8, max_size=8)))
    at = np.arange(len(vals))
    inside = (at >= first[:, None]) & (at < stop[:, None])
    _same(table.over(first, stop, -np.inf), np.where(inside, vals, -np.inf).max(axis=-1))


@SLOW_DRAWS_OK
@given(spans())
def test_highest_ground_between_is_the_dense_maximum(
    case: tuple[Terrain, FloatArray, FloatArray],
) -> None:
    terrain, x0, x1 = case
    a, b = np.minimum(x0, x1), np.maximum(x0, x1)
    t = np.linspace(0.0, 1.0, 24)
    sampled = terrain.height_at(a[..., None] + (b - a)[..., None] * t).max(axis=-1)
    inside = (terrain.xs >= a[..., None]) & (terrain.xs <= b[..., None])
    dense = np.maximum(sampled, np.where(inside, terrain.ys, -np.inf).max(axis=-1))
    _same(terrain.max_height_between(x0, x1), dense)


@SLOW_DRAWS_OK
@given(spans(), st.floats(0.0, 3.0))
def test_steepest_rise_is_the_dense_maximum_over_the_window_corners(
    case: tuple[Terrain, FloatArray, FloatArray], window: float
) -> None:
    terrain, x0, x1 = case
    a = np.minimum(x0, x1)
    b = np.maximum(a + window, np.maximum(x0, x1)) - window
    corners = terrain.window_corners(window)
    rises = terrain.rise_over(corners, window)
    inside = (corners >= a[..., None]) & (corners <= b[..., None])
    at_corners = np.where(inside, rises, 0.0).max(axis=-1)
    dense = np.maximum(
        at_corners, np.maximum(terrain.rise_over(a, window), terrain.rise_over(b, window))
    )
    _same(terrain.steepest_rise(x0, x1, window), dense)


def _dense_sole_penetration(terrain: Terrain, soles: FloatArray) -> FloatArray:
    xs, ys = soles[..., 0], soles[..., 1]
    points = (terrain.height_at(xs) - ys).max(axis=-1)
    px, py = xs[..., :2, None], ys[..., :2, None]
    qx, qy = xs[..., 1:, None], ys[..., 1:, None]
    vx = terrain.xs
    inside = (vx >= np.minimum(px, qx)) & (vx <= np.maximum(px, qx))
    run = qx - px
    safe = np.where(np.abs(run) > 1e-12, run, 1.0)
    t = clamp((vx - px) / safe, 0.0, 1.0)
    seg_y = py + (qy - py) * t
    segments = np.where(inside, terrain.ys - seg_y, -np.inf).max(axis=(-2, -1))
    return np.maximum(points, segments)


@st.composite
def soles(draw: st.DrawFn, count: int = 6) -> tuple[Terrain, FloatArray]:
    """Heel, ball and toe points (count, 3, 2) over a terrain: ends on vertices, vertical
    and zero-length segments, points above and below the ground."""
    terrain = draw(terrains())
    x = positions(terrain, finite=True) | st.just(0.0)
    y = st.floats(-6.0, 6.0) | st.sampled_from([0.0, 0.17, 1.0])
    points = draw(st.lists(st.tuples(x, y), min_size=3 * count, max_size=3 * count))
    return terrain, np.array(points).reshape(count, 3, 2)


@SLOW_DRAWS_OK
@given(soles())
def test_sole_penetration_is_the_dense_depth(case: tuple[Terrain, FloatArray]) -> None:
    terrain, feet = case
    _same(sole_penetration(terrain, feet), _dense_sole_penetration(terrain, feet))
    _same(sole_penetration(terrain, feet[0]), _dense_sole_penetration(terrain, feet[0]))


def _dense_sole_clearance(
    terrain: Terrain,
    ankle_x: FloatArray,
    angle: FloatArray,
    bend: FloatArray,
    facing: FloatArray,
    ahead: FloatArray,
) -> tuple[FloatArray, FloatArray]:
    exact, offsets = _sole_depth(terrain, ankle_x, angle, bend, facing, LEGS)
    xs = offsets[..., 0]
    reach = np.abs(ahead)
    lead = np.where(ahead >= 0, xs.argmax(axis=-1), xs.argmin(axis=-1)).ravel()
    points = offsets.reshape(-1, 3, 2)
    lead_point = points[np.arange(len(points)), lead].reshape(offsets.shape[:-2] + (2,))
    edge, lowest = lead_point[..., 0], lead_point[..., 1]
    probe = edge[..., None] + ahead[..., None] * _PROBES
    cone = (terrain.height_at(probe) - _APPROACH_SLOPE * reach[..., None] * _PROBES).max(axis=-1)
    gap = (terrain.xs - edge[..., None]) * np.sign(ahead)[..., None]
    inside = (gap >= 0) & (gap <= reach[..., None]) & (reach[..., None] > 0)
    vertex = np.where(inside, terrain.ys - _APPROACH_SLOPE * gap, -np.inf).max(axis=-1)
    return exact, np.maximum(exact, np.maximum(cone, vertex) - lowest)


@settings(SLOW_DRAWS_OK, max_examples=60)
@given(terrains(), st.data())
def test_sole_clearance_ahead_is_the_dense_look_ahead(
    terrain: Terrain, data: st.DataObject
) -> None:
    n = 5
    x = positions(terrain, finite=True)
    ankle_x = np.array(data.draw(st.lists(x, min_size=n, max_size=n))).reshape(n, 1)
    angle = np.array(data.draw(st.lists(st.floats(-1.0, 1.0), min_size=n, max_size=n)))
    bend = np.array(data.draw(st.lists(st.floats(0.0, 1.0), min_size=n, max_size=n)))
    ahead = np.array(
        data.draw(
            st.lists(
                st.floats(-3.0, 3.0) | st.sampled_from([0.0, 0.3, -0.3]), min_size=n, max_size=n
            )
        )
    )
    facing = np.where(np.arange(n) % 2 == 0, 1.0, -1.0)[:, None]
    args = (ankle_x, angle[:, None], bend[:, None], facing, ahead[:, None])
    got = sole_clearance(terrain, *args, LEGS)
    expected = _dense_sole_clearance(terrain, *args)
    _same(got[0], expected[0])
    _same(got[1], expected[1])


def _toe_x(ankle_x: float) -> float:
    """The toe tip's x of a flat foot facing +x with its ankle at ``ankle_x``."""
    at = np.full((1, 1), ankle_x)
    _, offsets = _sole_depth(
        Terrain(np.array([[-9.0, 0.0], [9.0, 0.0]])), at, 0 * at, 0 * at, 0 * at + 1.0, LEGS
    )
    return float(offsets[..., 0].max())


def test_a_nosing_an_ulp_past_the_look_ahead_counts_where_its_gap_rounds_into_it() -> None:
    # the window's far end is tested as gap = x − edge ≤ reach, in the gap's rounding: a
    # vertex an ulp past edge + reach (as rounded) is inside when the subtraction rounds
    # down, as it can where edge + reach cancels (the toe behind 0, the nosing ahead of it)
    grid = [
        (ankle_x, reach, _toe_x(ankle_x))
        for ankle_x in np.linspace(-0.6, -0.3, 40)
        for reach in np.linspace(0.3, 0.6, 40)
    ]
    rounding = [
        (ankle_x, reach, edge)
        for ankle_x, reach, edge in grid
        if float(np.nextafter(edge + reach, np.inf)) - edge <= reach
    ]
    assert rounding, "no rounding case in the grid"
    ankle_x, reach, edge = rounding[0]
    nosing = float(np.nextafter(edge + reach, np.inf))
    # a spike: low up to the window's rounded end, the nosing's top an ulp past it
    spike = [[-9.0, -1.0], [edge + reach, -1.0], [nosing, 0.3], [nosing + 0.5, 0.3], [9.0, -1.0]]
    terrain = Terrain(np.array(spike))
    at, flat = np.full((1, 1), ankle_x), np.zeros((1, 1))
    args = (at, flat, flat, flat + 1.0, np.full((1, 1), reach))
    _same(sole_clearance(terrain, *args, LEGS)[1], _dense_sole_clearance(terrain, *args)[1])
