"""The stair queries by binary search give exactly the numbers a mask over every riser
gives: the riser within reach of a point, the shortest tread between two points."""

from __future__ import annotations

import numpy as np
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from game.world.speed import _next_riser
from game.world.terrain import Terrain

MIN_RISER, WINDOW = 0.06, 0.03


def _stairs(seed: int) -> Terrain:
    """A ground of random flights up and down, treads of 0.2 to 0.5 m and landings, with
    the vertices ``Terrain.risers`` reads as risers."""
    rng = np.random.default_rng(seed)
    x, y, points = -5.0, 0.0, [[-6.0, 0.0]]
    for _ in range(rng.integers(0, 30)):
        x += float(rng.uniform(0.2, 0.5)) if rng.random() < 0.8 else float(rng.uniform(1, 3))
        points.append([x, y])
        y += float(rng.choice([-1.0, 1.0]) * rng.uniform(0.1, 0.2))
        x += 0.01
        points.append([x, y])
    points.append([x + 2.0, y])
    return Terrain(np.array(points))


@settings(max_examples=60)
@given(
    seed=st.integers(0, 10_000),
    probes=st.lists(st.floats(-8.0, 20.0), min_size=1, max_size=40),
    reach=st.floats(0.0, 2.0),
)
def test_a_riser_within_reach_is_found_by_the_nearest_either_side(
    seed: int, probes: list[float], reach: float
) -> None:
    ground = _stairs(seed)
    risers = ground.risers(MIN_RISER, WINDOW)
    x = np.array(probes)
    dense = (np.abs(risers - x[:, None]) <= reach).any(axis=1)
    assert np.array_equal(ground.riser_within(x, reach, MIN_RISER, WINDOW), dense)


@settings(max_examples=60)
@given(
    seed=st.integers(0, 10_000),
    ends=st.lists(st.tuples(st.floats(-8.0, 20.0), st.floats(-8.0, 20.0)), max_size=40),
)
def test_the_shortest_tread_between_two_points_is_the_masked_minimum(
    seed: int, ends: list[tuple[float, float]]
) -> None:
    ground = _stairs(seed)
    risers, treads = ground.risers(MIN_RISER, WINDOW), ground.treads(MIN_RISER, WINDOW)
    lo, hi = np.array([e[0] for e in ends]), np.array([e[1] for e in ends])
    near = (risers >= lo[:, None]) & (risers <= hi[:, None])
    dense = np.where(near, treads, np.inf).min(axis=1, initial=np.inf)
    assert np.array_equal(ground.shortest_tread(lo, hi, MIN_RISER, WINDOW), dense)


@settings(max_examples=60)
@given(
    seed=st.integers(0, 10_000),
    ends=st.lists(st.tuples(st.floats(-8.0, 20.0), st.floats(-8.0, 20.0)), max_size=40),
    closed=st.booleans(),
)
def test_a_riser_between_two_points_is_the_one_a_mask_finds(
    seed: int, ends: list[tuple[float, float]], closed: bool
) -> None:
    ground = _stairs(seed)
    risers = ground.risers(MIN_RISER, WINDOW)[None, :]
    lo, hi = np.array([e[0] for e in ends]), np.array([e[1] for e in ends])
    # ends exactly on a riser too, where closed and open differ
    on = risers[0, : len(lo)] if risers.size else np.zeros(0)
    lo[: len(on)] = on
    low, high = lo[:, None], hi[:, None]
    inside = (risers >= low) & (risers <= high) if closed else (risers > low) & (risers < high)
    found = ground.riser_between(lo, hi, MIN_RISER, WINDOW, closed=closed)
    assert np.array_equal(found, inside.any(axis=1))


@settings(max_examples=80)
@given(
    seed=st.integers(0, 10_000),
    probes=st.lists(
        st.tuples(st.floats(-8.0, 20.0), st.sampled_from([-1.0, 0.0, 1.0])), max_size=40
    ),
    span=st.floats(0.0, 1.0),
)
def test_the_next_riser_ahead_is_the_dense_nearest_one(
    seed: int, probes: list[tuple[float, float]], span: float
) -> None:
    risers = _stairs(seed).risers(MIN_RISER, WINDOW)
    assume(len(risers) > 0)
    here, direction = np.array([p[0] for p in probes]), np.array([p[1] for p in probes])
    # probes a span before or after a riser, exactly and an ulp either side
    at = here[: len(risers)] + 0.0
    at[:] = risers[: len(at)] - direction[: len(at)] * span
    here[: len(at)] = np.nextafter(at, np.where(np.arange(len(at)) % 3 == 0, np.inf, -np.inf))
    beyond = (risers[None, :] - here[:, None]) * direction[:, None] - span
    beyond = np.where(beyond > 0.0, beyond, np.inf)
    gap, index = _next_riser(risers, here, direction, span)
    assert np.array_equal(gap, beyond.min(axis=1, initial=np.inf))
    ahead = np.isfinite(gap)
    assert np.array_equal(index[ahead], np.argmin(beyond, axis=1)[ahead])


def test_no_riser_is_within_reach_on_ground_without_stairs() -> None:
    ground = Terrain(np.array([[0.0, 0.0], [5.0, 0.3]]))
    assert not ground.riser_within(np.array([0.0, 2.5]), 10.0, MIN_RISER, WINDOW).any()
    assert np.isinf(ground.shortest_tread(0.0, 5.0, MIN_RISER, WINDOW))
