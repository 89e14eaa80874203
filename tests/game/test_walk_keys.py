"""The walk scene's walk keys: finite_clamp of one float, on the float."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from game.scenes.walk_solved import walk_keys
from game.world.easing import finite_clamp


def _same(a: float, b: float) -> bool:
    """Equal to the bit (the sign of a zero too)."""
    return math.copysign(1.0, a) == math.copysign(1.0, b) and (a == b)


@given(st.floats(allow_nan=True, allow_infinity=True, allow_subnormal=True))
def test_walk_keys_equal_finite_clamp_of_the_float(move: float) -> None:
    assert _same(walk_keys(move), float(finite_clamp(move, -1.0, 1.0)))


def test_walk_keys_read_nan_as_standing_and_infinities_as_the_ends() -> None:
    assert walk_keys(math.nan) == 0.0
    assert walk_keys(math.inf) == 1.0
    assert walk_keys(-math.inf) == -1.0
    assert walk_keys(0.5) == 0.5
    assert walk_keys(-3) == -1.0
    assert _same(walk_keys(-0.0), -0.0)
    assert _same(walk_keys(np.float32(0.25)), 0.25)
