"""Foot placement pieces: landing spots, swing arcs, lift choice, halflife smoothing."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from game.scene import ASSETS_DIR
from game.world.character import Crowd
from game.world.easing import halflife_blend, halflife_travel
from game.world.gait import Feet, choose_lifts, plan_landing, sole_fits, swing_apex, swing_pose
from game.world.rig import load_rig
from game.world.terrain import Terrain

RIG = load_rig(ASSETS_DIR / "rig.json")
A = RIG.legs.ankle_height
# flat, one 0.17 m stair at x = 1, flat, then a 1 m wall at x = 3
STAIR = Terrain(
    np.array([[-5.0, 0.0], [1.0, 0.0], [1.01, 0.17], [3.0, 0.17], [3.01, 1.17], [8.0, 1.17]])
)
DT = 1.0 / 60.0


def test_a_sole_over_a_stair_nosing_does_not_fit_but_on_a_tread_it_does() -> None:
    x = np.array([0.5, 1.0, 1.05, 1.5])  # the heel reaches 6 cm back
    fits, _ = sole_fits(STAIR, x, np.ones(4), RIG)
    assert fits.tolist() == [True, False, False, True]


def test_landing_moves_off_a_stair_nosing_onto_a_tread() -> None:
    start = np.array([[0.4, A]])
    land, angle, ray_from, ray_hit = plan_landing(
        STAIR, RIG, start, np.array([1.02]), np.array([0.9]), np.array([1.0])
    )
    fits, _ = sole_fits(STAIR, land[:, 0], np.ones(1), RIG)
    assert fits.all() and abs(land[0, 0] - 1.02) <= 0.25
    assert land[0, 1] == pytest.approx(STAIR.height_at(land[0, 0]) + A)
    assert ray_hit[0, 0] == ray_from[0, 0] == land[0, 0] and angle[0] == pytest.approx(0.0)


def test_a_step_taller_than_the_maximum_is_not_taken() -> None:
    start = np.array([[2.8, 0.17 + A]])
    land, *_ = plan_landing(STAIR, RIG, start, np.array([3.3]), np.array([1.0]), np.array([1.0]))
    assert land[0, 1] - A < 0.17 + RIG.gait.max_step_height
    assert land[0, 0] < 3.0


def test_a_walker_stops_before_a_wall_taller_than_a_step() -> None:
    crowd = Crowd(RIG, STAIR, [0.0], [1.0])
    for _ in range(600):
        crowd.step([1.0], [0.0], DT)
        crowd.solve()
    assert crowd.x[0] < 3.0 and abs(crowd.vx[0]) < 0.05
    assert (crowd.feet.lock[0, :, 1] < 0.17 + A + 1e-9).all()  # never up the wall
    assert crowd.feet.steps[0] >= 4  # but it did climb the small stair


def test_swing_arc_starts_and_ends_at_its_spots_and_clears_the_stair() -> None:
    start = np.array([[0.7, A]])
    land = np.array([[1.3, 0.17 + A]])
    feet = Feet.standing(np.stack([start, start], axis=1), np.zeros((1, 2)), np.zeros((1, 2, 2)))
    feet.start[0, 0], feet.land[0, 0] = start[0], land[0]
    feet.apex[0, 0] = swing_apex(STAIR, RIG, start, land, np.ones(1))[0]
    heights = []
    for u in np.linspace(0.0, 1.0, 41):
        feet.u[0, 0] = u
        at, _ = swing_pose(feet, np.ones(1), RIG)
        heights.append((at[0, 0, 0], at[0, 0, 1]))
        toe = at[0, 0, 0] + RIG.legs.toe
        assert at[0, 0, 1] - A >= min(STAIR.height_at(at[0, 0, 0]), STAIR.height_at(toe)) - 1e-9
    np.testing.assert_allclose(heights[0], start[0])
    np.testing.assert_allclose(heights[-1], land[0])


def test_only_one_foot_lifts_and_never_while_the_other_is_in_the_air() -> None:
    ankles = np.zeros((3, 2, 2))
    feet = Feet.standing(ankles, np.zeros((3, 2)), ankles)
    feet.wants[:] = True
    feet.planted[2, 1] = False  # character 2's right foot is swinging
    lift = choose_lifts(feet, np.array([[1.0, 2.0], [3.0, 1.0], [5.0, 0.0]]), 0.04)
    assert lift.tolist() == [[False, True], [True, False], [False, False]]


@given(st.floats(0.001, 0.05), st.floats(0.01, 1.0), st.integers(1, 8))
def test_halflife_smoothing_is_frame_rate_independent(dt: float, halflife: float, k: int) -> None:
    one = 1.0 - halflife_blend(k * dt, halflife)
    many = (1.0 - halflife_blend(dt, halflife)) ** k
    assert one == pytest.approx(many, rel=1e-9)
    assert halflife_blend(halflife, halflife) == pytest.approx(0.5)


def test_halflife_travel_matches_stepping_the_velocity() -> None:
    v, target, h, total = 0.2, 1.4, 0.16, 0.36
    dt = 1e-5
    x = 0.0
    for _ in range(round(total / dt)):
        v += (target - v) * halflife_blend(dt, h)
        x += v * dt
    assert float(halflife_travel(0.2, 1.4, total, h)) == pytest.approx(x, rel=1e-3)
