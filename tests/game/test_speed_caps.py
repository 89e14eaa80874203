"""The speed caps' shortcuts give the numbers the full rules give: the approach to a flight
skipped where it cannot bind the speed asked for, and the gait's timing floors by pacing."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from game.scene import ASSETS_DIR
from game.world.character import Crowd
from game.world.easing import clamp
from game.world.feet import MIN_RISER, RISER_WINDOW
from game.world.modes import PACING_JOG, PACING_RUN, PACING_STAIR_RUN, PACING_WALK
from game.world.rig import load_rig
from game.world.speed import approach
from game.world.terrain import Terrain
from game.world.timing import timed, timing_speed

RIG = load_rig(ASSETS_DIR / "rig.json")


def _flight() -> Terrain:
    """Flat, five risers of 15 cm up with treads of 30 cm from x = 4, flat again."""
    points = [[-10.0, 0.0]]
    for step in range(5):
        x, y = 4.0 + 0.3 * step, 0.15 * step
        points += [[x, y], [x + 0.01, y + 0.15]]
    points.append([20.0, 0.75])
    return Terrain(np.array(points))


@settings(max_examples=40)
@given(
    x=st.lists(st.floats(-8.0, 12.0), min_size=1, max_size=6),
    speed=st.floats(-3.0, 3.0),
    sprinting=st.booleans(),
)
def test_the_approach_skipped_out_of_reach_clamps_every_speed_as_the_full_cap_does(
    x: list[float], speed: float, sprinting: bool
) -> None:
    crowd = Crowd(RIG, _flight(), np.array(x), np.ones(len(x)))
    w, s = crowd.world, crowd.state
    v = np.full(len(x), speed)
    quick = np.full(len(x), sprinting)
    risers = w.terrain.risers(MIN_RISER, RISER_WINDOW)
    treads = w.terrain.treads(MIN_RISER, RISER_WINDOW)
    full = approach(w, s, risers, treads, np.sign(v), quick)
    within = approach(w, s, risers, treads, np.sign(v), quick, within=v)
    np.testing.assert_array_equal(clamp(v, -within, within), clamp(v, -full, full))


def test_the_approach_is_worked_out_for_a_speed_that_reaches_the_flight() -> None:
    crowd = Crowd(RIG, _flight(), np.array([3.0]), np.ones(1))
    w, s = crowd.world, crowd.state
    risers = w.terrain.risers(MIN_RISER, RISER_WINDOW)
    treads = w.terrain.treads(MIN_RISER, RISER_WINDOW)
    v, walking = np.array([2.5]), np.zeros(1, dtype=bool)
    full = approach(w, s, risers, treads, np.sign(v), walking)
    assert full[0] < 2.5  # a run this near the flight slows for it
    np.testing.assert_array_equal(
        approach(w, s, risers, treads, np.sign(v), walking, within=v), full
    )


def test_a_timing_floor_of_zero_keeps_the_speed_and_a_floor_raises_it_keeping_its_sign() -> None:
    speed = np.array([-1.5, -0.0, 0.0, 0.4, 2.0, np.inf])
    np.testing.assert_array_equal(np.signbit(timing_speed(speed, 0.0)), np.signbit(speed))
    np.testing.assert_array_equal(timing_speed(speed, 0.0), speed)
    np.testing.assert_array_equal(timing_speed(speed, 1.0), [-1.5, -1.0, 1.0, 1.0, 2.0, np.inf])


def test_each_pacing_is_timed_at_least_at_its_floor_on_the_flat() -> None:
    crowd = Crowd(RIG, Terrain(np.array([[-10.0, 0.0], [10.0, 0.0]])), np.zeros(4), np.ones(4))
    s, tune = crowd.state, RIG.tuning
    s.pacing = np.array([PACING_WALK, PACING_RUN, PACING_JOG, PACING_STAIR_RUN], dtype=np.int8)
    speed = np.full(4, -0.5)
    expected = [-0.5, -0.5, -tune.jog_timing, -tune.stair_run_timing]
    np.testing.assert_array_equal(timed(crowd.world, s, speed), expected)
