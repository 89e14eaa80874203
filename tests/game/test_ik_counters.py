"""The IK counters of the stats file: solves, non-finite limbs and the reached fraction."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from game.ik_counters import IkCounters, non_finite_limbs


def _solution(elbow: np.ndarray, hand: np.ndarray, reached: list[bool]) -> SimpleNamespace:
    return SimpleNamespace(elbow=elbow, hand=hand, reached=np.array(reached))


def test_a_limb_with_any_non_finite_coordinate_counts_once() -> None:
    elbow = np.zeros((2, 4, 2))
    hand = np.ones((2, 4, 2))
    elbow[0, 1, 0] = np.nan
    hand[0, 1, 1] = np.inf  # the same limb: counted once
    hand[1, 3, 0] = -np.inf
    assert non_finite_limbs(elbow, hand) == 2


def test_limbs_at_the_largest_finite_floats_count_none() -> None:
    big = np.full((4, 2), np.finfo(np.float64).max)
    assert non_finite_limbs(big, -big) == 0


def test_counts_match_a_limb_by_limb_count() -> None:
    rng = np.random.default_rng(3)
    for _ in range(50):
        elbow, hand = rng.normal(size=(2, 3, 4, 2))
        for values in (elbow, hand):
            values[rng.random(values.shape) < 0.05] = rng.choice([np.nan, np.inf, -np.inf])
        bad = sum(
            not (np.isfinite(e).all() and np.isfinite(h).all())
            for e, h in zip(elbow.reshape(-1, 2), hand.reshape(-1, 2), strict=True)
        )
        assert non_finite_limbs(elbow, hand) == bad


def test_record_adds_solves_non_finite_limbs_and_reached() -> None:
    counters = IkCounters()
    elbow, hand = np.zeros((1, 4, 2)), np.zeros((1, 4, 2))
    hand[0, 2] = np.nan
    counters.record(_solution(elbow, hand, [[True, False, True, True]]))
    counters.record(_solution(elbow + 1.0, np.zeros((1, 4, 2)), [[True, True, True, True]]))
    assert (counters.solves, counters.nan, counters.reached) == (8, 1, 7)
    assert counters.to_json() == {"solves": 8, "nan": 1, "reached_fraction": 0.875}
