"""A window whose steps cannot keep up with real time says so and keeps real time, rather
than playing in slow motion for minutes."""

from __future__ import annotations

from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import pygame
import pytest

import game.app
from game.app import App, build_scene
from game.input_state import InputState
from game.options import RunOptions
from game.scene import SceneConfig
from game.step_pace import BEHIND_NOTE, SHED_AFTER_S, SHED_EVERY_S, StepPace

DT = 1 / 60


@pytest.fixture
def display() -> Iterator[None]:
    pygame.display.init()
    pygame.font.init()
    yield
    pygame.display.quit()


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


STEP_S_PER_CHARACTER = 0.0004  # a step's cost on the fake clock: 120 characters 48 ms
FRAME_S = 0.02  # a frame's cost besides its steps


def _slow_crowd(monkeypatch: pytest.MonkeyPatch, characters: int) -> tuple[App, list[float]]:
    """A windowed crowd whose steps cost :data:`STEP_S_PER_CHARACTER` of a fake clock per
    character (120 of them: 48 ms, well over the 16.7 ms a step simulates)."""
    now = [0.0]
    monkeypatch.setattr(game.app, "time", SimpleNamespace(perf_counter=lambda: now[0]))
    options = RunOptions(scene="crowd", headless=False, autopilot=False, size=(960, 540))
    config = SceneConfig(characters=characters)
    app = App(options, build_scene("crowd", config, options.size), config)
    sim = app.scene.sim
    real_step = sim.step

    def slow_step(inp: InputState, dt: float, timer: Any) -> None:
        now[0] += STEP_S_PER_CHARACTER * sim.character_count
        real_step(inp, dt, timer)

    monkeypatch.setattr(sim, "step", slow_step)
    return app, now


def _play(app: App, now: list[float], seconds: float) -> list[str]:
    """Frames as App.run times them (the frame time is the fake clock's), for ``seconds``
    of it; the HUD messages shown."""
    messages: list[str] = []
    end, previous = now[0] + seconds, now[0]
    while now[0] < end:
        frame_time, previous = now[0] - previous, now[0]
        app.run_frame(frame_time)
        now[0] += FRAME_S
        messages.append(app.message)
    return messages


def test_a_crowd_that_cannot_keep_up_says_so_and_sheds_characters_until_it_does(
    display: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    app, now = _slow_crowd(monkeypatch, 120)
    sim = app.scene.sim
    messages = _play(app, now, 8.0)
    assert any(m.startswith(BEHIND_NOTE) for m in messages)
    # fewer characters, so that a step costs less than it simulates
    assert 1 <= sim.character_count < 120
    assert sim.character_count * STEP_S_PER_CHARACTER < DT
    # and the world keeps real time again: the last three seconds simulated three seconds
    steps, start = app.steps, now[0]
    _play(app, now, 3.0)
    simulated = (app.steps - steps) * DT
    assert simulated == pytest.approx(now[0] - start, rel=0.05)
    assert not app.pace.behind


def test_behind_in_a_replay_it_only_says_so(
    display: None, monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    # a replay's input is the file's: a character shed would play another session
    app, now = _slow_crowd(monkeypatch, 120)
    app.options = RunOptions(scene="crowd", headless=False, replay=tmp_path / "run.rec")
    app.replay.items.extend(InputState() for _ in range(2000))
    messages = _play(app, now, SHED_AFTER_S + 3 * SHED_EVERY_S)
    assert app.scene.sim.character_count == 120
    assert any(m.startswith(BEHIND_NOTE) and "at most" in m for m in messages)
