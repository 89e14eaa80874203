"""The small array helpers a step calls many times give numpy's own answers."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.world.easing import (
    all_last,
    all_true,
    any_last,
    any_true,
    by_column,
    max_last,
    min_last,
    wrap01,
)

MASKS = [
    np.zeros(0, dtype=bool),
    np.zeros(3, dtype=bool),
    np.array([False, True]),
    np.ones((2, 2), dtype=bool),
    np.array([[True, False], [True, True]]),
    np.array([0.0, np.nan]),
    np.array([0.0, -0.0]),
    np.int64(0),
    np.True_,
]


@pytest.mark.parametrize("mask", MASKS, ids=range(len(MASKS)))
def test_any_true_and_all_true_agree_with_numpy_any_and_all(mask: np.ndarray) -> None:
    assert any_true(mask) is bool(np.any(mask))
    assert all_true(mask) is bool(np.all(mask))


# shapes either side of where the helpers switch between numpy's reduction and a call per
# column: one row or thousands, two columns or forty, one or two leading axes
_SHAPES = st.tuples(st.integers(1, 2000), st.sampled_from([(), (2,)]), st.integers(1, 40)).map(
    lambda t: (t[0], *t[1], t[2])
)


@settings(max_examples=60, deadline=None)
@given(_SHAPES, st.integers(0, 2**32 - 1))
def test_reductions_over_the_last_axis_give_numpys_numbers(
    shape: tuple[int, ...], entropy: int
) -> None:
    rng = np.random.default_rng(entropy)
    values = rng.choice([-1.0, -0.0, 0.0, 0.5, 2.0, np.inf, -np.inf, np.nan], size=shape)
    values = np.where(rng.random(shape) < 0.5, rng.normal(size=shape), values)
    for mine, numpys in ((max_last, np.max), (min_last, np.min)):
        got, want = mine(values), numpys(values, axis=-1)
        assert got.shape == want.shape and got.dtype == want.dtype
        assert np.array_equal(got, want, equal_nan=True)
        assert np.array_equal(np.signbit(got), np.signbit(want))  # −0.0 stays −0.0
    for mask in (values > 0.0, values):
        assert np.array_equal(any_last(mask), np.any(mask, axis=-1))
        assert np.array_equal(all_last(mask), np.all(mask, axis=-1))


_ANY_FLOAT = st.floats(allow_nan=True, allow_infinity=True, allow_subnormal=True)


@settings(max_examples=300, deadline=None)
@given(st.lists(_ANY_FLOAT, min_size=1, max_size=50), st.sampled_from([1, 40, 600]))
def test_wrap01_gives_numpys_remainder_by_one(values: list[float], size: int) -> None:
    x = np.resize(np.array(values), size)  # (a few numbers and many take different ways)
    with np.errstate(invalid="ignore"):  # (±inf: NaN, as numpy's remainder gives)
        got, want = wrap01(x), x % 1.0
    assert np.array_equal(got, want, equal_nan=True)
    assert np.array_equal(np.signbit(got), np.signbit(want))  # +0.0 at the integers


@settings(max_examples=60, deadline=None)
@given(
    st.lists(_ANY_FLOAT, min_size=1, max_size=40),
    st.lists(_ANY_FLOAT, min_size=1, max_size=3),
    st.sampled_from([1, 40, 600]),
)
def test_by_column_gives_numpys_broadcast(x: list[float], column: list[float], size: int) -> None:
    xs, cs = np.resize(np.array(x), size), np.array(column)
    for ufunc in (np.add, np.multiply, np.subtract):
        with np.errstate(all="ignore"):
            got, want = by_column(ufunc, xs, cs), ufunc(xs[:, None], cs)
        assert np.array_equal(got, want, equal_nan=True)
