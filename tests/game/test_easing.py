"""The small array helpers a step calls many times give numpy's own answers."""

from __future__ import annotations

import numpy as np
import pytest

from game.world.easing import all_true, any_true

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
