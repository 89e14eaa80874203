"""The landing's cost terms, each alone, on small terrains the tests build."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from game.world.landing import fit_spots, kind_costs, landing_candidates, miss_cost, stair_costs
from game.world.rig import load_rig
from game.world.terrain import Terrain

RIG = load_rig(Path(__file__).resolve().parents[2] / "assets" / "rig.json")
FLAT = Terrain(np.array([[-10.0, 0.0], [10.0, 0.0]]))
# three 0.16 m risers 0.3 m apart from x = 1.0, then a landing
STAIRS = Terrain(
    np.array(
        [[-10.0, 0.0], [1.0, 0.0], [1.01, 0.16], [1.3, 0.16], [1.31, 0.32], [1.6, 0.32]]
        + [[1.61, 0.48], [10.0, 0.48]]
    )
)
FACING = np.array([[1.0]])


def _spots(terrain: Terrain, candidates: np.ndarray):
    start = np.array([[0.0, 0.07]])
    return fit_spots(terrain, RIG, start, candidates, FACING, None, np.zeros((0, 3)))


def test_the_miss_is_the_distance_from_the_predicted_spot() -> None:
    cost = miss_cost(np.array([[0.2, 0.5, 0.9]]), np.array([0.5]))
    np.testing.assert_allclose(cost, [[0.3, 0.0, 0.4]])


def test_a_spot_two_risers_past_the_other_foot_costs_a_skip_and_one_does_not() -> None:
    other = np.array([0.85])  # the other foot just before the first riser
    candidates = np.array([[1.15, 1.45]])  # the first tread, the second tread
    spots = _spots(STAIRS, candidates)
    skip, edge, _ = stair_costs(STAIRS, candidates, spots, other, FACING, None, None, other)
    assert skip[0, 0] == 0.0 and skip[0, 1] > 0.0
    assert not edge.any()  # going up, no drop


def test_farther_shifts_are_for_squaring_steps_only() -> None:
    start = np.array([[0.0, 0.07]])
    candidates, kinds = landing_candidates(
        FLAT, RIG.legs, start, np.array([0.5]), FACING, None, None, np.zeros((0, 3))
    )
    walking, _ = kind_costs(kinds, np.array([[False]]))
    squaring, _ = kind_costs(kinds, np.array([[True]]))
    far_only = kinds.far & ~kinds.shorter
    assert far_only.any() and (walking[0, far_only] >= 1e3).all()
    assert (squaring[0, far_only] == 0.0).all()
    assert candidates.shape[1] == len(kinds.far)


def test_a_spot_on_a_wall_too_tall_to_step_is_never_low_enough() -> None:
    wall = Terrain(np.array([[-10.0, 0.0], [1.0, 0.0], [1.01, 0.9], [10.0, 0.9]]))
    spots = _spots(wall, np.array([[0.5, 1.5]]))
    assert spots.low_enough[0, 0] and not spots.low_enough[0, 1]
