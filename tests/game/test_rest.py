"""Standing at rest: once there is no intent to move, the feet settle and stay planted.
The test builds its own ground; motion is read from short headless runs."""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from game.scene import ASSETS_DIR
from game.world.character import Crowd
from game.world.rig import load_rig
from game.world.terrain import Terrain

RIG = load_rig(ASSETS_DIR / "rig.json")
DT = 1.0 / 60.0
REST = 90  # steps: 1.5 s with no intent, after which no foot lifts
WATCH = 60  # steps after the rest in which no foot may lift
RISE, TREAD = 0.17, 0.30


def _flight_and_slope() -> Terrain:
    """Flat, four stairs up, a landing, a 10° slope down, flat."""
    points = [[-4.0, 0.0], [0.0, 0.0]]
    x, y = 0.0, 0.0
    for _ in range(4):
        points += [[x + 0.01, y + RISE], [x + 0.01 + TREAD, y + RISE]]
        x, y = x + 0.01 + TREAD, y + RISE
    x += 0.9
    points.append([x, y])
    run = y / np.tan(np.radians(10.0))
    points += [[x + run, 0.0], [x + run + 4.0, 0.0]]
    return Terrain(np.array(points))


STARTS = [0.0, 1.4, 2.6, 4.5]  # x: flat, on the flight, on the landing, on the slope
WALKERS = 30  # random key sequences searched: one walker each, all in one crowd


@st.composite
def _key_sequences(draw: st.DrawFn) -> list[tuple[float, float, int]]:
    """A few (move, run, steps held) key states in turn, as a player presses them."""
    keys = st.tuples(
        st.sampled_from([-1.0, 0.0, 1.0]),
        st.sampled_from([0.0, 1.0]),
        st.integers(min_value=1, max_value=90),
    )
    return draw(st.lists(keys, min_size=1, max_size=8))


Walker = tuple[list[tuple[float, float, int]], float]  # its key states in turn, its start x


def _intents(walkers: list[Walker]) -> tuple[np.ndarray, np.ndarray]:
    """Each walker's (move, run) at every step (T, N), the keys played so that every walker
    lets go at the same step: a shorter sequence is preceded by standing still (no key)."""
    moves = [np.repeat([m for m, _, _ in keys], [n for _, _, n in keys]) for keys, _ in walkers]
    runs = [np.repeat([r for _, r, _ in keys], [n for _, _, n in keys]) for keys, _ in walkers]
    steps = max(len(move) for move in moves)
    move = np.stack([np.pad(m, (steps - len(m), 0)) for m in moves], axis=1)
    run = np.stack([np.pad(r, (steps - len(r), 0)) for r in runs], axis=1)
    return move, run


@settings(
    # Hypothesis tries the simplest batch first, then a random one: WALKERS random key
    # sequences in all, as many as examples of one walker each would search
    max_examples=2,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(
    st.lists(
        st.tuples(_key_sequences(), st.sampled_from(STARTS)),
        min_size=WALKERS,
        max_size=WALKERS,
    )
)
# a hard case for the search to keep: run up the flight, walk back down, a step up again,
# let go with a foot a tread above its spot; the other steps to and fro, 6 steps a second
@example([([(0.0, 1.0, 20), (1.0, 1.0, 49), (-1.0, 0.0, 61), (1.0, 0.0, 19)], 2.6)])
def test_feet_stay_planted_after_a_rest_whatever_the_keys_before(walkers: list[Walker]) -> None:
    """Each walker plays its own key sequence on a course with a flight (up from x = 0) and
    a slope down beyond its landing, then rests. The walkers of one crowd do not interact
    (test_gait checks a walker stepped with others moves as it would alone), so a batch of
    WALKERS walkers searches as many key sequences as WALKERS examples of one walker."""
    n = len(walkers)
    crowd = Crowd(RIG, _flight_and_slope(), np.array([x for _, x in walkers]), np.ones(n))
    for move, run in zip(*_intents(walkers), strict=True):
        crowd.step(move, run, DT)
    for _ in range(REST):
        crowd.step(np.zeros(n), np.zeros(n), DT)
    steps_at_rest = crowd.feet.steps.copy()
    for _ in range(WATCH):
        crowd.step(np.zeros(n), np.zeros(n), DT)
        lifted = ~crowd.feet.planted.all(axis=-1)  # (N,)
        assert not lifted.any(), [walkers[i] for i in np.flatnonzero(lifted)]
    stepped = crowd.feet.steps != steps_at_rest  # (N,)
    assert not stepped.any(), [walkers[i] for i in np.flatnonzero(stepped)]
