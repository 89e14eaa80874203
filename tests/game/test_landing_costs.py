"""The landing's cost terms, each alone, on small terrains the tests build."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from game.world.feet import MIN_RISER, RISER_WINDOW
from game.world.landing import (
    Lifting,
    choose_spot,
    fit_spots,
    landing_candidates,
    least_cost,
    plan_landing,
    score_spots,
    sole_lie,
)
from game.world.landing_costs import (
    _EDGE_M,
    _SKIP_COST,
    Kinds,
    Spots,
    kind_costs,
    miss_cost,
    stair_costs,
)
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


def test_stair_costs_count_the_risers_a_mask_over_every_riser_counts() -> None:
    # random flights, candidates on and an ulp beside each riser, the other foot anywhere
    rng = np.random.default_rng(7)
    ground = _random_steps(rng, 25, (0.2, 0.5), [-1.0, 1.0], (0.1, 0.2), [0.01])
    x = float(ground.xs[-1]) - 2.0
    risers = ground.risers(MIN_RISER, RISER_WINDOW)
    assert len(risers) > 10
    near = np.concatenate([risers, np.nextafter(risers, np.inf), np.nextafter(risers, -np.inf)])
    candidates = np.concatenate([near, rng.uniform(-6.0, x + 2.0, 40)])
    candidates = np.tile(candidates, (8, 1))
    other = np.concatenate([rng.uniform(-6.0, x + 2.0, 6), risers[3:4], [np.nan]])
    facing = np.where(rng.random((8, 1)) < 0.5, -1.0, 1.0)
    settling = np.array([True, False] * 4)
    spots = fit_spots(ground, RIG, np.zeros((8, 2)), candidates, facing, None, np.zeros((0, 3)))
    skip, edge, _ = stair_costs(
        ground, candidates, spots, other, facing, None, settling, other + 0.3
    )
    # the dense form: every candidate against every riser
    there = other[:, None, None]
    lo, hi = np.minimum(candidates[..., None], there), np.maximum(candidates[..., None], there)
    between = (risers > lo) & (risers < hi)
    dense_skip = _SKIP_COST * np.maximum(between.sum(axis=-1) - 1, 0)
    back = np.where(between, np.abs(risers - there), 0.0).max(axis=-1, initial=0.0)
    down = spots.ground_y < ground.height_at(other)[:, None] - MIN_RISER
    assert np.array_equal(skip, dense_skip)
    assert np.array_equal(edge, _SKIP_COST * (down & (back > _EDGE_M)))


def _random_feet(entropy: int) -> tuple[Terrain, Lifting, np.ndarray, np.ndarray]:
    """200 lifting feet on random stairs and bumps, walking and squaring up: the ground,
    the feet, the spans kept off and each foot's hip height."""
    rng = np.random.default_rng(entropy)
    ground = _random_steps(rng, 30, (0.2, 0.6), [-1.0, 1.0, 0.0], (0.02, 0.2), [0.01, 0.2])
    x = float(ground.xs[-1]) - 2.0
    m = 200
    start_x = rng.uniform(-5.0, x, m)
    start = np.stack([start_x, ground.height_at(start_x) + RIG.legs.ankle_height], -1)
    predicted = start_x + rng.uniform(-1.0, 1.0, m)
    facing = np.where(rng.random(m) < 0.5, -1.0, 1.0)
    pivot, settling = rng.random(m) < 0.3, rng.random(m) < 0.3
    other = np.where(rng.random(m) < 0.8, start_x + rng.uniform(-0.5, 0.5, m), np.nan)
    beside = np.where(rng.random(m) < 0.5, other, np.nan)
    feet = Lifting(start, predicted, facing[:, None], pivot, beside, other, settling)
    return ground, feet, np.array([[1.0, 1.1, 0.1]]), start[:, 1] + 0.8


def _every_candidate(
    ground: Terrain, feet: Lifting, spans: np.ndarray
) -> tuple[np.ndarray, Kinds, Spots, np.ndarray]:
    """The feet's candidates, their kinds, and each one scored."""
    candidates, kinds = landing_candidates(
        ground, RIG.legs, feet.start, feet.predicted_x, feet.facing_k, feet.pivot, feet.other, spans
    )
    return candidates, kinds, *score_spots(ground, RIG, candidates, kinds, feet, spans)


def test_plan_landing_picks_the_cheapest_of_all_candidates() -> None:
    # the candidates scored only where one could beat the predicted spot give the choice
    # of scoring every one
    ground, feet, spans, hip_y = _random_feet(3)
    start, facing = feet.start, feet.facing_k[:, 0]
    args = (feet.pivot, feet.beside, feet.other, spans, feet.settling)
    chosen = plan_landing(ground, RIG, start, feet.predicted_x, hip_y, facing, *args)
    candidates, _, spots, cost = _every_candidate(ground, feet, spans)
    best, rows = np.argmin(cost, axis=1), np.arange(len(start))
    pick = (spots.chord[rows, best], spots.rested[rows, best], spots.low_enough[rows, best])
    every = choose_spot(ground, RIG, start, hip_y, facing, candidates[rows, best], *pick)
    for a, b in zip(chosen, every, strict=True):
        assert np.array_equal(a, b)


def test_least_cost_is_never_above_a_candidates_cost() -> None:
    # before the sole is laid on the ground, and once it lies there (bend, fit, hang known)
    for entropy in range(4):
        ground, feet, spans, _ = _random_feet(entropy)
        candidates, kinds, _, cost = _every_candidate(ground, feet, spans)
        lie = sole_lie(ground, RIG, candidates, feet.facing_k, feet.pivot)
        before, lying = (
            least_cost(candidates, kinds, feet),
            least_cost(candidates, kinds, feet, lie),
        )
        assert (before <= lying).all() and (lying <= cost).all()
        assert (lying > before).any()  # (it does tell more)


def _random_steps(
    rng: np.random.Generator,
    count: int,
    treads: tuple[float, float],
    directions: list[float],
    rises: tuple[float, float],
    widths: list[float],
) -> Terrain:
    """Ground from x = −6 of ``count`` random steps: a tread of a length drawn from
    ``treads``, then a rise (a direction of ``directions`` times a height drawn from
    ``rises``) over a riser of a width of ``widths``; 2 m level beyond the last."""
    x, y, points = -5.0, 0.0, [[-6.0, 0.0]]
    for _ in range(count):
        x += float(rng.uniform(*treads))
        points.append([x, y])
        y += float(rng.choice(directions) * rng.uniform(*rises))
        x += float(rng.choice(widths))
        points.append([x, y])
    return Terrain(np.array([*points, [x + 2.0, y]]))
