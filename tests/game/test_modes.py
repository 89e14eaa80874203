"""The walker's stored modes: every row of the transition tables of
:func:`game.world.modes.next_motion` and :func:`game.world.modes.next_pacing`, first on the
functions alone, then on small walkers of the test's own ground driven into each; a
property that random walk/run input only ever moves the stored modes along the tables; and
the one-name :class:`Mode` a player sees: stand -> walk -> run -> brake -> pivot -> walk
the other way; stand -> crouch."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from game.world.character import Crowd
from game.world.modes import Mode, Motion, Pacing, mode_of, next_motion, next_pacing
from game.world.rig import load_rig
from game.world.sample_grounds import stairs_up_and_down
from game.world.terrain import Terrain
from game.world.turning import interrupt_pivot

RIG = load_rig(Path(__file__).resolve().parents[2] / "assets" / "rig.json")
FLAT = Terrain(np.array([[-30.0, 0.0], [30.0, 0.0]]))
DT = 1.0 / 60.0
STAND, GO, BRAKE, PIVOT = Motion.STAND, Motion.GO, Motion.BRAKE, Motion.PIVOT
ALL = [STAND, GO, BRAKE, PIVOT]


def _motion(*values: Motion) -> np.ndarray:
    return np.array(values, dtype=np.int8)


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


def _step_until(crowd: Crowd, move: float, motion: Motion, limit: int = 240) -> int:
    """Steps walking ``move`` until the first character's motion is ``motion``."""
    for steps in range(1, limit + 1):
        crowd.step(np.array([move]), np.array([0.0]), DT)
        crowd.solve()
        if crowd.state.motion[0] == motion:
            return steps
    raise AssertionError(f"never reached {motion!r}")


# -- next_motion's table, on the function alone ------------------------------------------
def test_a_reversal_wanted_brakes_from_stand_go_or_brake() -> None:
    out = next_motion(_motion(STAND, GO, BRAKE), np.ones(3), np.ones(3, dtype=bool))
    assert list(out) == [BRAKE] * 3


def test_a_walk_wanted_without_a_reversal_goes() -> None:
    out = next_motion(_motion(STAND, GO, BRAKE), -np.ones(3), np.zeros(3, dtype=bool))
    assert list(out) == [GO] * 3


def test_nothing_wanted_stands() -> None:
    out = next_motion(_motion(STAND, GO, BRAKE), np.zeros(3), np.zeros(3, dtype=bool))
    assert list(out) == [STAND] * 3


def test_only_a_brake_starts_a_pivot_when_ready() -> None:
    ready = np.ones(3, dtype=bool)
    out = next_motion(_motion(STAND, GO, BRAKE), np.ones(3), np.ones(3, dtype=bool), ready)
    assert list(out) == [BRAKE, BRAKE, PIVOT]
    not_ready = next_motion(_motion(BRAKE), np.ones(1), np.ones(1, dtype=bool), ~ready[:1])
    assert list(not_ready) == [BRAKE]


def test_a_pivot_reads_no_wish_until_it_ends() -> None:
    wanted = np.array([0.0, 1.0, 1.0])
    reversal = np.array([False, False, True])
    out = next_motion(_motion(PIVOT, PIVOT, PIVOT), wanted, reversal)
    assert list(out) == [PIVOT] * 3
    held = next_motion(_motion(PIVOT), np.ones(1), np.zeros(1, dtype=bool), None, [False])
    assert list(held) == [PIVOT]


def test_an_ended_pivot_stands_goes_or_brakes_as_wanted() -> None:
    wanted = np.array([0.0, 1.0, 1.0])
    reversal = np.array([False, False, True])  # the brake still running in the first step
    ended = np.ones(3, dtype=bool)
    out = next_motion(_motion(PIVOT, PIVOT, PIVOT), wanted, reversal, pivot_ended=ended)
    assert list(out) == [STAND, GO, BRAKE]


def test_a_pose_asked_for_is_posed_from_any_motion() -> None:
    posed = np.ones(4, dtype=bool)
    out = next_motion(_motion(*ALL), np.ones(4), np.zeros(4, dtype=bool), posed=posed)
    assert list(out) == [Motion.POSED] * 4


def test_a_pose_no_longer_asked_for_stands_goes_or_brakes_as_wanted() -> None:
    wanted = np.array([0.0, 1.0, 1.0])
    reversal = np.array([False, False, True])
    out = next_motion(_motion(*[Motion.POSED] * 3), wanted, reversal, posed=np.zeros(3, bool))
    assert list(out) == [STAND, GO, BRAKE]


@given(
    st.lists(
        st.tuples(
            st.sampled_from(ALL),
            st.sampled_from([-1.0, 0.0, 1.0]),
            st.booleans(),
            st.booleans(),
            st.booleans(),
        ),
        min_size=1,
        max_size=20,
    )
)
def test_next_motion_makes_only_the_tables_transitions(rows: list) -> None:
    motion, wanted, reversal, ready, ended = (np.array(c) for c in zip(*rows, strict=True))
    out = next_motion(motion.astype(np.int8), wanted, reversal, ready, ended)
    for before, after, r, e in zip(motion, out, ready, ended, strict=True):
        if before == PIVOT:
            assert after == PIVOT or e
        assert after != PIVOT or before == PIVOT or (before == BRAKE and r)
    # a row no event moves keeps its motion when asked again with the same wishes
    again = next_motion(out, wanted, reversal)
    held = ~((motion == BRAKE) & ready) & ~((motion == PIVOT) & ended)
    assert np.array_equal(again[held & (out != PIVOT)], out[held & (out != PIVOT)])


# -- next_pacing's table --------------------------------------------------------------
def test_pacing_walks_without_the_run_input_whatever_the_ground() -> None:
    out = next_pacing(np.zeros(3, dtype=bool), np.array([False, True, False]), [False, False, True])
    assert list(out) == [Pacing.WALK] * 3


def test_pacing_runs_jogs_or_runs_the_stairs_as_the_ground_allows() -> None:
    out = next_pacing(np.ones(3, dtype=bool), np.array([False, True, False]), [False, False, True])
    assert list(out) == [Pacing.RUN, Pacing.JOG, Pacing.STAIR_RUN]


def test_mode_names_the_stored_axes() -> None:
    motion = _motion(STAND, STAND, STAND, GO, GO, GO, GO, BRAKE, PIVOT)
    pacing = np.array([0, 0, 0, 0, 1, 2, 3, 1, 1], dtype=np.int8)
    crouched = np.array([False, True, False, False, False, False, False, False, False])
    coasting = np.array([False, False, True, False, True, True, True, True, False])
    assert [Mode(m) for m in mode_of(motion, pacing, crouched, coasting)] == [
        Mode.STAND,
        Mode.CROUCH,
        Mode.WALK,
        Mode.WALK,
        Mode.RUN,
        Mode.JOG,
        Mode.STAIR_RUN,
        Mode.BRAKE,
        Mode.PIVOT,
    ]


# -- each transition on a walker of the test's own ----------------------------------------
def test_a_standing_walker_is_in_stand() -> None:
    crowd = Crowd(RIG, FLAT, [0.0], [1.0])
    assert _modes(crowd, 0.0, 0.0, 5) == [Mode.STAND] * 5
    assert crowd.state.motion[0] == STAND and crowd.state.pacing[0] == Pacing.WALK


def test_stand_goes_the_step_a_walk_is_asked_for_and_stands_the_step_it_ends() -> None:
    crowd = Crowd(RIG, FLAT, [0.0], [1.0])
    assert _step_until(crowd, 1.0, GO) == 1
    _modes(crowd, 1.0, 0.0, 30)
    assert _step_until(crowd, 0.0, STAND) == 1
    assert crowd.modes[0] == Mode.WALK  # ... still coasting: the name follows the speed


def test_going_the_other_way_brakes_then_pivots_then_goes() -> None:
    crowd = Crowd(RIG, FLAT, [0.0], [1.0])
    _modes(crowd, 1.0, 0.0, 40)
    assert _step_until(crowd, -1.0, BRAKE) == 1
    _step_until(crowd, -1.0, PIVOT)
    s = crowd.state
    # the pivot's first step: turning, the brake that led to it still seen by later stages
    assert s.turning[0] and s.reversing[0] and s.turn[0] > 0.0
    assert s.reversing_s[0] >= RIG.tuning.pivot_wish
    _modes(crowd, -1.0, 0.0, 1)
    assert s.turning[0] and not s.reversing[0]
    _step_until(crowd, -1.0, GO)
    assert crowd.facing[0] == -1.0 and crowd.state.turn[0] == 0.0


def test_a_turn_asked_for_while_standing_pivots_and_stands() -> None:
    crowd = Crowd(RIG, FLAT, [0.0], [1.0])
    crowd.turn_to(0, -1.0)
    assert _step_until(crowd, 0.0, BRAKE) == 1
    _step_until(crowd, 0.0, PIVOT)
    _step_until(crowd, 0.0, STAND)
    assert crowd.facing[0] == -1.0


def test_a_dropped_reversal_goes_on_or_stands() -> None:
    for move, motion in ((1.0, GO), (0.0, STAND)):
        crowd = Crowd(RIG, FLAT, [0.0], [1.0])
        _modes(crowd, 1.0, 0.0, 40)
        _step_until(crowd, -1.0, BRAKE)
        assert _step_until(crowd, move, motion) == 1


def test_a_pivot_cut_short_returns_to_what_is_wanted() -> None:
    crowd = Crowd(RIG, FLAT, [0.0], [1.0])
    crowd.turn_to(0, -1.0)
    _step_until(crowd, 0.0, PIVOT)
    s = crowd.state
    interrupt_pivot(crowd.world, s, np.array([True]))  # the pivot's first step: braking
    assert s.motion[0] == BRAKE and s.turn[0] == 0.0 and s.facing[0] == 1.0
    _step_until(crowd, 0.0, PIVOT)
    _modes(crowd, 0.0, 0.0, 3)
    interrupt_pivot(crowd.world, s, np.array([True]))  # later on: nothing walks
    assert s.motion[0] == STAND and not s.reversing[0]


def test_new_assets_end_a_pivot() -> None:
    crowd = Crowd(RIG, FLAT, [0.0], [1.0])
    _modes(crowd, 1.0, 0.0, 40)
    _step_until(crowd, -1.0, PIVOT)
    _modes(crowd, -1.0, 0.0, 3)
    crowd.apply_assets(RIG, FLAT)
    assert crowd.state.motion[0] == GO and crowd.state.turn[0] == 0.0


def test_the_run_input_runs_and_letting_go_walks() -> None:
    crowd = Crowd(RIG, FLAT, [0.0], [1.0])
    _modes(crowd, 1.0, 1.0, 1)
    assert crowd.state.pacing[0] == Pacing.RUN
    _modes(crowd, 1.0, 0.0, 1)
    assert crowd.state.pacing[0] == Pacing.WALK


def test_a_run_up_a_steep_ramp_jogs() -> None:
    # 20°: climb_speed over its slope holds the body below jog_below of a run
    ramp = Terrain(np.array([[-12.0, 0.0], [0.0, 0.0], [10.0, 10.0 * np.tan(0.35)], [22.0, 3.64]]))
    crowd = Crowd(RIG, ramp, [-3.0], [1.0])
    seen = _order(_modes(crowd, 1.0, 1.0, 240))
    assert Mode.RUN in seen and Mode.JOG in seen
    assert seen.index(Mode.RUN) < seen.index(Mode.JOG)


def test_a_run_up_a_flight_runs_the_stairs() -> None:
    crowd = Crowd(RIG, stairs_up_and_down(0.15, 0.3, 6), [-3.0], [1.0])
    seen = _order(_modes(crowd, 1.0, 1.0, 300))
    assert Mode.STAIR_RUN in seen and seen.index(Mode.RUN) < seen.index(Mode.STAIR_RUN)


# -- random input only moves the stored modes along the tables ----------------------------
segment = st.tuples(
    st.sampled_from([-1.0, 0.0, 1.0]), st.sampled_from([0.0, 1.0]), st.integers(1, 50)
)
LEGAL = {(a, b) for a in (STAND, GO, BRAKE) for b in (STAND, GO, BRAKE)}
LEGAL |= {(BRAKE, PIVOT), (PIVOT, PIVOT), (PIVOT, STAND), (PIVOT, GO), (PIVOT, BRAKE)}


@settings(max_examples=6, derandomize=True)
@given(st.lists(st.lists(segment, min_size=1, max_size=6), min_size=3, max_size=3))
def test_random_walk_and_run_input_follows_the_tables(plans: list) -> None:
    assert RIG.tuning.pivot_wish > DT  # (a brake runs a step or more before a pivot)
    crowd = Crowd(RIG, FLAT, [-6.0, 0.0, 6.0], [1.0, -1.0, 1.0])
    inputs = [[(m, r) for m, r, k in plan for _ in range(k)] for plan in plans]
    s, deadband = crowd.state, RIG.tuning.move_deadband
    for t in range(max(len(i) for i in inputs)):
        move, run = (np.array([i[min(t, len(i) - 1)][c] for i in inputs]) for c in (0, 1))
        before, facing = s.motion.copy(), s.facing.copy()
        crowd.step(move, run, DT)
        walks = np.abs(move) > deadband
        wished = np.where(walks & (np.sign(move) != facing), BRAKE, np.where(walks, GO, STAND))
        for n in range(3):
            assert (before[n], s.motion[n]) in LEGAL
            if before[n] != PIVOT and s.motion[n] != PIVOT:
                assert s.motion[n] == wished[n]
            if before[n] == PIVOT and s.motion[n] != PIVOT:
                assert s.motion[n] == (GO if walks[n] else STAND)  # (wanted: not turning)
        assert np.array_equal(s.motion == PIVOT, s.turn > 0.0)
        assert not s.reversing_s[(s.motion == STAND) | (s.motion == GO)].any()
        assert np.array_equal(s.pacing != Pacing.WALK, walks & (run > 0.5))


# -- the one name, through a player's moves ---------------------------------------------
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
