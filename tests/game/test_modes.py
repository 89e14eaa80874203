"""The walker's modes, named each step from its state, through the transitions a player
drives: stand -> walk -> run -> brake -> pivot -> walk the other way; stand -> crouch."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from game.world.character import Crowd, Mode
from game.world.rig import load_rig
from game.world.terrain import Terrain

RIG = load_rig(Path(__file__).resolve().parents[2] / "assets" / "rig.json")
FLAT = Terrain(np.array([[-30.0, 0.0], [30.0, 0.0]]))
DT = 1.0 / 60.0


def _modes(crowd: Crowd, move: float, run: float, steps: int) -> list[Mode]:
    seen = []
    for _ in range(steps):
        crowd.step(np.array([move]), np.array([run]), DT)
        crowd.solve()
        seen.append(Mode(int(crowd.modes[0])))
    return seen


def _order(modes: list[Mode]) -> list[Mode]:
    """The modes in the order they were entered (repeats dropped)."""
    return [m for i, m in enumerate(modes) if i == 0 or m != modes[i - 1]]


def test_a_standing_walker_is_in_stand() -> None:
    crowd = Crowd(RIG, FLAT, [0.0], [1.0])
    assert _modes(crowd, 0.0, 0.0, 5) == [Mode.STAND] * 5


def test_walk_run_brake_pivot_walk_in_that_order() -> None:
    crowd = Crowd(RIG, FLAT, [0.0], [1.0])
    seen = _modes(crowd, 1.0, 0.0, 60)  # walk
    seen += _modes(crowd, 1.0, 1.0, 90)  # run
    seen += _modes(crowd, -1.0, 0.0, 150)  # turn round and walk back
    order = _order(seen)
    assert order[0] == Mode.WALK
    assert order.index(Mode.RUN) < order.index(Mode.BRAKE) < order.index(Mode.PIVOT)
    assert order[-1] == Mode.WALK and crowd.facing[0] == -1.0


def test_stopping_comes_back_to_stand() -> None:
    crowd = Crowd(RIG, FLAT, [0.0], [1.0])
    _modes(crowd, 1.0, 0.0, 60)
    assert _modes(crowd, 0.0, 0.0, 120)[-1] == Mode.STAND


def test_a_crouch_asked_for_while_standing_is_crouch_and_walking_rises_out_of_it() -> None:
    crowd = Crowd(RIG, FLAT, [0.0], [1.0])
    crowd.crouch_to(0, 1.0)
    assert _modes(crowd, 0.0, 0.0, 60)[-1] == Mode.CROUCH
    crowd.crouch_to(0, 0.0)
    seen = _modes(crowd, 1.0, 0.0, 90)
    assert seen[-1] == Mode.WALK and crowd.crouch[0] == 0.0
