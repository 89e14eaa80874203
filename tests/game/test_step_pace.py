"""StepPace: simulated against real time, behind below 0.9, characters shed only after a
while and then spaced (the app loop's side is in test_window_loop.py)."""

from __future__ import annotations

import pytest

from game.step_pace import BEHIND_NOTE, SHED_AFTER_S, SHED_EVERY_S, StepPace

DT = 1 / 60


def test_steps_that_keep_up_are_never_behind() -> None:
    pace = StepPace()
    for _ in range(600):
        pace.frame(DT, DT)
    assert pace.speed == pytest.approx(1.0) and not pace.behind and not pace.shed_now()


def test_a_slow_frame_or_two_is_not_falling_behind() -> None:
    pace = StepPace()
    for _ in range(60):
        pace.frame(DT, DT)
    pace.frame(0.1, 5 * DT)  # a window drag: a tenth of a second for five steps
    assert not pace.behind


def test_steady_slow_motion_is_behind_and_sheds_only_after_a_while_and_then_spaced() -> None:
    pace = StepPace()
    frame_s = 0.2  # five steps (the cap) every 0.2 s: 42 % speed
    sheds: list[float] = []
    clock = 0.0
    while clock < SHED_AFTER_S + 4 * SHED_EVERY_S:
        pace.frame(frame_s, 5 * DT)
        clock += frame_s
        if pace.shed_now():
            sheds.append(clock)
    assert pace.behind and pace.speed == pytest.approx(5 * DT / frame_s, rel=0.01)
    assert sheds and sheds[0] >= SHED_AFTER_S
    assert all(
        later - earlier >= SHED_EVERY_S for earlier, later in zip(sheds, sheds[1:], strict=False)
    )


def test_the_note_says_how_slow_and_what_is_done() -> None:
    pace = StepPace()
    pace.speed = 0.4
    assert pace.note(None, 5).startswith(f"{BEHIND_NOTE}: the world moves at 40% speed")
    assert "at most 5 steps a frame" in pace.note(None, 5)
    assert "fewer characters to keep up (200 now)" in pace.note(200, 5)
