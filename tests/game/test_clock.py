from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.clock import FixedStepClock

DT = 1.0 / 60.0


def test_one_virtual_frame_of_exactly_dt_runs_exactly_one_step_with_alpha_zero() -> None:
    clock = FixedStepClock(DT)
    for _ in range(1000):
        assert clock.advance(DT) == 1
        assert clock.alpha == 0.0


def test_short_frames_accumulate_until_a_step_is_due() -> None:
    clock = FixedStepClock(0.01)
    assert clock.advance(0.004) == 0
    assert clock.alpha == pytest.approx(0.4)
    assert clock.advance(0.004) == 0
    assert clock.advance(0.004) == 1
    assert clock.alpha == pytest.approx(0.2)


@pytest.mark.parametrize("cap", [1, 3, 5, 8])
def test_step_cap_is_exact_and_not_off_by_one(cap: int) -> None:
    dt = 0.01
    clock = FixedStepClock(dt, max_frame_time=1.0, max_steps=cap)
    assert clock.advance(cap * dt + dt / 2) == cap  # exactly the cap is allowed
    fresh = FixedStepClock(dt, max_frame_time=1.0, max_steps=cap)
    assert fresh.advance((cap + 1) * dt + dt / 2) == cap  # one more is cut
    assert fresh.alpha == pytest.approx(0.5)  # the backlog is dropped, the remainder kept
    assert fresh.advance(0.0) == 0


def test_two_second_stall_runs_no_more_than_the_cap_and_play_carries_on() -> None:
    clock = FixedStepClock(DT, max_frame_time=0.25, max_steps=5)
    assert clock.advance(2.0) == 5
    assert clock.advance(DT) <= 2
    assert sum(clock.advance(DT) for _ in range(60)) == 60


def test_frame_time_is_clamped_before_accumulating() -> None:
    clock = FixedStepClock(0.01, max_frame_time=0.25, max_steps=1000)
    assert clock.advance(10.0) == 25


def test_negative_frame_time_counts_as_zero() -> None:
    clock = FixedStepClock(DT)
    assert clock.advance(-1.0) == 0
    assert clock.alpha == 0.0


@pytest.mark.parametrize("bad", [0.0, -0.1, float("nan")])
def test_non_positive_dt_is_rejected_with_its_name(bad: float) -> None:
    with pytest.raises(ValueError, match="dt"):
        FixedStepClock(bad)


@settings(max_examples=300)
@given(st.lists(st.floats(min_value=0.0, max_value=5.0), min_size=1, max_size=50))
def test_alpha_stays_in_unit_interval_and_steps_never_exceed_cap(frames: list[float]) -> None:
    clock = FixedStepClock(DT, max_frame_time=0.25, max_steps=5)
    for frame in frames:
        steps = clock.advance(frame)
        assert 0 <= steps <= 5
        assert 0.0 <= clock.alpha < 1.0
        assert 0.0 <= clock.accumulator < DT + 1e-12
