"""The app survives stalls, focus loss and every way of quitting, with complete recordings."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest

from game.app import MAX_STEPS_PER_FRAME, App, build_scene
from game.input_state import InputState
from game.options import RunOptions
from game.recording import SceneStart, read_recording
from game.scene import SceneConfig


def _options(**changes: object) -> RunOptions:
    base: dict[str, object] = dict(scene="lab", headless=True, autopilot=True, size=(800, 450))
    base.update(changes)
    return RunOptions(**base)  # type: ignore[arg-type]


@pytest.fixture
def display() -> Iterator[None]:
    pygame.display.init()
    pygame.font.init()
    yield
    pygame.display.quit()


def _app(options: RunOptions) -> App:
    config = SceneConfig()
    return App(options, build_scene(options.scene, config, options.size), config)


def test_a_two_second_stall_runs_at_most_the_step_cap_and_play_carries_on(display: None) -> None:
    app = _app(_options())
    app.run_frame(1 / 60)
    before = app.steps
    app.run_frame(2.0)
    assert app.steps - before == MAX_STEPS_PER_FRAME
    app.run_frame(1 / 60)
    assert app.steps - before in (MAX_STEPS_PER_FRAME + 1, MAX_STEPS_PER_FRAME + 2)
    app.close()


def test_losing_window_focus_pauses_an_interactive_game(display: None) -> None:
    app = _app(_options(headless=False, autopilot=False))
    pygame.event.post(pygame.event.Event(pygame.WINDOWFOCUSLOST))
    app.run_frame(1 / 60)
    assert app.paused
    steps = app.steps
    app.run_frame(1 / 30)
    assert app.steps == steps
    app.close()


@pytest.mark.parametrize(
    "quit_event",
    [
        pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode="", scancode=0),
        pygame.event.Event(pygame.QUIT),
    ],
    ids=["escape", "window-close"],
)
def test_quitting_leaves_a_complete_recording(
    display: None, tmp_path: Path, quit_event: pygame.event.Event
) -> None:
    recording = tmp_path / "run.rec"
    app = _app(_options(record=recording))
    for _ in range(30):
        app.run_frame(1 / 60)
    pygame.event.post(quit_event)
    app.run()  # returns once the quit event is read
    app.close()
    items = read_recording(recording)
    assert isinstance(items[0], SceneStart)
    assert sum(isinstance(i, InputState) for i in items) == 30
    assert not list(tmp_path.glob(".*.tmp"))


def test_an_exception_mid_run_still_leaves_a_complete_recording(
    display: None, tmp_path: Path
) -> None:
    recording = tmp_path / "run.rec"
    app = _app(_options(record=recording))
    real_step = app.scene.sim.step

    def failing_step(*args: object) -> None:
        if app.steps == 12:
            raise RuntimeError("boom")
        real_step(*args)

    app.scene.sim.step = failing_step
    with pytest.raises(RuntimeError, match="boom"):
        try:
            app.run()
        finally:
            app.close()
    assert sum(isinstance(i, InputState) for i in read_recording(recording)) == 13
