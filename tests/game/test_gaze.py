"""Gaze and torso: the head looks along the path (level on the flat), down at the treads on
stairs (further down going down), at what the hands reach for; the torso leans into a
climb and stays upright or a little forward going down. Each test builds its own ground."""

from __future__ import annotations

import numpy as np
import pytest

from game.scene import ASSETS_DIR
from game.world.character import Crowd
from game.world.pose import HEAD_DOWN
from game.world.rig import load_rig
from game.world.terrain import Terrain

RIG = load_rig(ASSETS_DIR / "rig.json")
DT = 1.0 / 60.0
RISE, TREAD, COUNT = 0.17, 0.30, 6
TOP = RISE * COUNT  # the flight's top
END = COUNT * (TREAD + 0.01)  # its last riser's x


def _flight() -> Terrain:
    """Flat, ``COUNT`` stairs up from x = 0 (1 cm risers), flat on top."""
    points = [[-8.0, 0.0], [0.0, 0.0]]
    for k in range(COUNT):
        x0 = k * (TREAD + 0.01)
        points += [[x0 + 0.01, (k + 1) * RISE], [x0 + 0.01 + TREAD, (k + 1) * RISE]]
    points.append([END + 8.0, TOP])
    return Terrain(np.array(points))


RUNS = (0.0, 1.0)  # walking, running


@pytest.fixture(scope="module")
def figures() -> dict[float, dict[str, tuple[float, float]]]:
    """By run input: mean head pitch and torso lean (degrees, forward > 0) walking (or
    running) up the flight and down it, and on the flat before it: by where the pelvis is.
    The four walkers (up and down, walking and running) step together in one crowd."""
    run = np.repeat(RUNS, 2)
    facing = np.tile([1.0, -1.0], len(RUNS))
    crowd = Crowd(RIG, _flight(), np.where(facing > 0, -5.0, END + 5.0), facing)
    samples: list[dict[str, list[tuple[float, float]]]] = [
        {"flat": [], "up": [], "down": []} for _ in RUNS
    ]
    for _ in range(480):
        crowd.step(crowd.facing.copy(), run, DT)
        crowd.solve()
        gaze, lean = np.degrees(crowd.pose.gaze), np.degrees(crowd.lean * crowd.facing)
        x = crowd.x
        on_flight = (x > 0.3) & (x < END - 0.3)
        for k, kept in enumerate(samples):
            climber, descender = 2 * k, 2 * k + 1
            if -4.0 < x[climber] < -2.0:
                kept["flat"].append((gaze[climber], lean[climber]))
            if on_flight[climber]:
                kept["up"].append((gaze[climber], lean[climber]))
            if on_flight[descender]:
                kept["down"].append((gaze[descender], lean[descender]))
    result = {}
    for r, kept in zip(RUNS, samples, strict=True):
        assert all(len(v) > 20 for v in kept.values())
        means = {k: np.mean(np.array(v), axis=0) for k, v in kept.items()}
        result[r] = {k: (float(m[0]), float(m[1])) for k, m in means.items()}
    return result


@pytest.mark.parametrize("run", RUNS)
def test_the_head_looks_down_at_the_treads_more_going_down_than_up_and_level_on_the_flat(
    run: float, figures: dict[float, dict[str, tuple[float, float]]]
) -> None:
    walked = figures[run]
    flat, up, down = walked["flat"][0], walked["up"][0], walked["down"][0]
    assert abs(flat) < 2.0, flat
    assert up < -10.0, up  # down at the next treads, climbing too
    assert down < up - 3.0, (down, up)
    assert down >= -np.degrees(HEAD_DOWN) - 1e-6


@pytest.mark.parametrize("run", RUNS)
def test_the_torso_leans_into_a_climb_and_never_back_going_down(
    run: float, figures: dict[float, dict[str, tuple[float, float]]]
) -> None:
    walked = figures[run]
    flat, up, down = walked["flat"][1], walked["up"][1], walked["down"][1]
    assert up > flat + 3.0, (up, flat)  # into the climb
    assert 0.0 <= down <= flat + 1.0, (down, flat)  # upright or a little forward


def test_reaching_the_head_turns_toward_the_hands_target() -> None:
    crowd = Crowd(RIG, _flight(), np.array([-5.0, -5.0]), np.array([1.0, 1.0]))
    for _ in range(30):
        crowd.step(np.zeros(2), np.zeros(2), DT)
    head = crowd.pose.head[0]
    crowd.aim_hands(0, [head + [0.5, 0.8]] * 2, [1.0, 1.0])  # up ahead
    crowd.aim_hands(1, [head + [0.5, -1.2]] * 2, [1.0, 1.0])  # down ahead, on the ground
    for _ in range(60):
        crowd.step(np.zeros(2), np.zeros(2), DT)
    up, down = np.degrees(crowd.pose.gaze)
    assert up > 15.0, up
    assert down < -20.0, down
