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


def _walk(run: float) -> dict[str, tuple[float, float]]:
    """Mean head pitch and torso lean (degrees, forward > 0) walking (or running) up the
    flight and down it, and on the flat before it: by where the pelvis is."""
    crowd = Crowd(RIG, _flight(), np.array([-5.0, END + 5.0]), np.array([1.0, -1.0]))
    samples: dict[str, list[tuple[float, float]]] = {"flat": [], "up": [], "down": []}
    for _ in range(480):
        crowd.step(crowd.facing.copy(), np.full(2, run), DT)
        crowd.solve()
        gaze, lean = np.degrees(crowd.pose.gaze), np.degrees(crowd.lean * crowd.facing)
        x = crowd.x
        if -4.0 < x[0] < -2.0:
            samples["flat"].append((gaze[0], lean[0]))
        on_flight = (x > 0.3) & (x < END - 0.3)
        if on_flight[0]:
            samples["up"].append((gaze[0], lean[0]))
        if on_flight[1]:
            samples["down"].append((gaze[1], lean[1]))
    assert all(len(v) > 20 for v in samples.values())
    means = {k: np.mean(np.array(v), axis=0) for k, v in samples.items()}
    return {k: (float(m[0]), float(m[1])) for k, m in means.items()}


@pytest.mark.parametrize("run", [0.0, 1.0])
def test_the_head_looks_down_at_the_treads_more_going_down_than_up_and_level_on_the_flat(
    run: float,
) -> None:
    figures = _walk(run)
    flat, up, down = figures["flat"][0], figures["up"][0], figures["down"][0]
    assert abs(flat) < 2.0, flat
    assert up < -10.0, up  # down at the next treads, climbing too
    assert down < up - 3.0, (down, up)
    assert down >= -np.degrees(HEAD_DOWN) - 1e-6


@pytest.mark.parametrize("run", [0.0, 1.0])
def test_the_torso_leans_into_a_climb_and_never_back_going_down(run: float) -> None:
    figures = _walk(run)
    flat, up, down = figures["flat"][1], figures["up"][1], figures["down"][1]
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
