"""Taking a crowd's rows: the state itself when every row is asked for, a copy otherwise."""

from __future__ import annotations

import numpy as np

from game.world.feet import Feet
from game.world.walker_state import WalkState, rows_of, some_rows


def _state(n: int) -> WalkState:
    unset = np.zeros((n, 2, 2))
    state = WalkState.at(
        np.arange(n, dtype=float), np.ones(n), Feet.standing(unset, unset[..., 0], unset)
    )
    state.vx = np.arange(n, dtype=float) * 0.5
    return state


def test_some_rows_of_every_character_is_the_state_itself() -> None:
    state = _state(3)
    assert some_rows(state, np.arange(3), 3) is state


def test_some_rows_of_a_few_characters_copies_those_rows() -> None:
    state = _state(4)
    rows = np.array([1, 3])
    few = some_rows(state, rows, 4)
    assert few is not state and few.count == 2
    np.testing.assert_array_equal(few.vx, rows_of(state, rows).vx)
    few.vx[0] = 9.0
    assert state.vx[1] == 0.5
