"""The window loop as a player meets it: fps, Esc and help, replays to their end, idling,
steps falling behind real time."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pygame
import pytest

import game.app
import game.cli
from game import scenes
from game.app import App, build_scene
from game.input_state import InputState
from game.options import RunOptions
from game.recording import Recorder
from game.replay_feed import ReplayFeed
from game.scene import SceneConfig
from game.step_pace import BEHIND_NOTE, SHED_AFTER_S, SHED_EVERY_S
from game.window import IDLE_FPS


@pytest.fixture
def display() -> Iterator[None]:
    pygame.display.init()
    pygame.font.init()
    yield
    pygame.display.quit()


def _app(**changes: object) -> App:
    base: dict[str, object] = dict(scene="lab", headless=True, autopilot=True, size=(960, 540))
    base.update(changes)
    options = RunOptions(**base)  # type: ignore[arg-type]
    config = SceneConfig()
    return App(options, build_scene(options.scene, config, options.size), config)


def _press(key: int) -> None:
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode="", scancode=0))


def test_fps_counts_delivered_frames_not_work_time(display: None) -> None:
    app = _app()
    # frames flipped every 1/90 s: fps is 90 whatever each frame's own work time was
    for k in range(200):
        app.frame_rate.count_flip(k / 90.0)
    assert app.frame_rate.fps == pytest.approx(90.0, rel=1e-6)
    # a limiter holding the rate to 30: after a second (four halflives) fps is within 5 %
    for k in range(1, 31):
        app.frame_rate.count_flip(199 / 90.0 + k / 30.0)
    assert app.frame_rate.fps == pytest.approx(30.0, rel=0.05)


def test_switching_back_to_a_scene_resumes_it_where_it_was_left(display: None) -> None:
    # a player who looks at the lab for a moment expects the walker where they left it,
    # not back at the start of the course
    app = _app(scene="walk")
    for _ in range(90):
        app.run_frame(1 / 60)
    walk = app.scene.sim
    x, step = float(walk.crowd.x[0]), walk.step_index
    assert step >= 90 and x > 0.5  # it walked
    order = list(scenes.available())  # the number keys' order
    _press(pygame.K_1 + next(i for i, name in enumerate(order) if name != "walk"))
    app.run_frame(1 / 60)
    assert app.scene.sim is not walk
    _press(pygame.K_1 + order.index("walk"))
    app.run_frame(1 / 60)
    assert app.scene.sim is walk and walk.step_index >= step
    assert float(walk.crowd.x[0]) >= x  # and walks on from there


def test_esc_closes_the_help_first_then_quits(display: None) -> None:
    app = _app()
    app.show_help = True
    _press(pygame.K_ESCAPE)
    app.run_frame(1 / 60)
    assert app.running and not app.show_help
    _press(pygame.K_ESCAPE)
    app.run_frame(1 / 60)
    assert not app.running


def test_a_windowed_replay_waits_for_esc_at_its_end(display: None, tmp_path: Path) -> None:
    app = _app(headless=False, autopilot=False, replay=tmp_path / "run.rec")
    app.replay = ReplayFeed(tmp_path / "run.rec", [InputState() for _ in range(3)])
    for _ in range(10):
        app.run_frame(1 / 60)
    assert app.running and app.paused and app.steps == 3
    assert "replay finished" in app.message and "Esc" in app.message
    _press(pygame.K_ESCAPE)
    app.run_frame(1 / 60)
    assert not app.running


def test_a_paused_window_sleeps_and_redraws_only_on_input(
    display: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = _app(headless=False, autopilot=False)
    waits: list[int] = []
    monkeypatch.setattr(
        pygame.event, "wait", lambda timeout: waits.append(timeout) or pygame.event.Event(0)
    )
    app.paused = True
    app.run_frame(1 / 60)
    flipped = app.frame_rate.last_flip
    app.window.wait_for_next_frame(app.paused)
    assert waits == [round(1000 / IDLE_FPS)]
    app.run_frame(1 / 60)  # nothing happened while it slept: no redraw
    assert app.frame_rate.last_flip == flipped
    app.paused = False
    app.window.wait_for_next_frame(app.paused)
    assert waits == [round(1000 / IDLE_FPS)]  # playing: the frame cap, no idle sleep


def test_a_headless_replay_plays_the_whole_recording(
    run_main_here: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a headless run stops at HEADLESS_DEFAULT_FRAMES (600), a replay only at its end; with
    # that default set to 60 here, a recording of 70 steps is the longer one
    monkeypatch.setattr(game.cli, "HEADLESS_DEFAULT_FRAMES", 60)
    recording, stats = tmp_path / "run.rec", tmp_path / "stats.json"
    recorder = Recorder(recording)  # 70 steps: longer than a headless run's 60 frames
    recorder.scene("lab", 0, 60)
    for _ in range(70):
        recorder.step(InputState())
    recorder.close()
    result = run_main_here(["--headless", "--replay", str(recording), "--stats", str(stats)])
    assert result.returncode == 0, result.stderr
    assert json.loads(stats.read_text())["steps"] == 70
    assert "cut short" not in result.stdout
    result = run_main_here(["--headless", "--replay", str(recording), "--frames", "10"])
    assert "replay cut short by --frames 10: played 10 of 70 steps" in result.stdout


def test_every_plus_and_minus_pressed_within_one_frame_counts(display: None) -> None:
    # four quick + presses arriving in one frame go up four round fifties (1 -> 200), not one
    options = RunOptions(scene="crowd", headless=True, size=(960, 540))
    config = SceneConfig(characters=1)
    app = App(options, build_scene("crowd", config, options.size), config)
    for key in (pygame.K_PLUS, pygame.K_EQUALS, pygame.K_KP_PLUS, pygame.K_PLUS):
        _press(key)
    app.run_frame(1 / 60)
    assert app.scene.sim.character_count == 200
    for key in (pygame.K_MINUS, pygame.K_KP_MINUS, pygame.K_MINUS):
        _press(key)
    app.run_frame(1 / 60)
    assert app.scene.sim.character_count == 50


def test_every_press_of_an_on_off_key_within_one_frame_flips_it(display: None) -> None:
    # K, H, B, E in the walk scene and F in the lab count every press: two presses in one
    # frame (a quick double tap at a low frame rate) flip the setting back, three flip it
    options = RunOptions(scene="walk", headless=True, size=(960, 540))
    config = SceneConfig()
    app = App(options, build_scene("walk", config, options.size), config)
    sim = app.scene.sim
    poles, follow = sim.poles_on, sim.hands_follow
    for key in (pygame.K_k, pygame.K_k, pygame.K_h, pygame.K_h, pygame.K_h):
        _press(key)
    app.run_frame(1 / 60)
    assert sim.poles_on == poles and sim.hands_follow != follow
    lab_options = RunOptions(scene="lab", headless=True, size=(960, 540))
    lab = App(lab_options, build_scene("lab", config, lab_options.size), config)
    bend = lab.scene.sim.bend
    for _ in range(2):
        _press(pygame.K_f)
    lab.run_frame(1 / 60)
    assert lab.scene.sim.bend == bend


def test_paused_the_readout_says_paused_and_single_steps_are_not_counted_as_fps(
    display: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    # paused, the readout says so, neither the last rate ("110.3 fps") nor, after a single
    # step, a rate from the pause ("0.5 fps")
    now = [0.0]
    monkeypatch.setattr(game.app, "time", SimpleNamespace(perf_counter=lambda: now[0]))
    app = _app(autopilot=False)
    texts: list[str] = []
    draw_text = app.canvas.text

    def text(pos: Any, words: str, *args: Any, **kwargs: Any) -> Any:
        texts.append(words)
        return draw_text(pos, words, *args, **kwargs)

    app.canvas.text = text  # type: ignore[method-assign]

    def frame(seconds: float = 1 / 60) -> list[str]:
        texts.clear()
        now[0] += seconds
        app.run_frame(seconds)
        return texts

    for _ in range(30):
        frame()
    assert "60.0" in frame()
    _press(pygame.K_p)
    assert "paused" in frame() and "60.0" not in texts
    steps = app.steps
    _press(pygame.K_PERIOD)
    shown = frame(2.0)  # a single step two seconds into the pause
    assert app.steps == steps + 1 and app.paused
    assert "paused" in shown and "fps" not in shown
    _press(pygame.K_p)
    frame(), frame()
    assert "60.0" in frame()  # measured again from the first frames after the pause


def test_a_pointer_dragged_out_of_the_window_counts_as_outside(display: None) -> None:
    # a pointer taken out of the window is outside, and the hover label ("click: set the
    # cup down there") goes: dragged out with a button held, the motion is still
    # reported, from outside the window, and no leave event comes
    from game.input_map import InputMapper

    pygame.display.set_mode((640, 360))
    mapper = InputMapper()
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(320, 180), rel=(0, 0)))
    assert mapper.poll().pointer_inside
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(700, 180), rel=(380, 0)))
    assert not mapper.poll().pointer_inside
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(600, 350), rel=(0, 0)))
    assert mapper.poll().pointer_inside  # back in


def test_a_key_pressed_with_ctrl_held_is_a_ctrl_chord_even_if_ctrl_is_let_go_that_frame(
    display: None,
) -> None:
    from game.input_map import InputMapper

    pygame.display.set_mode((640, 360))
    mapper = InputMapper()
    for kind, key in (
        (pygame.KEYDOWN, pygame.K_LCTRL),
        (pygame.KEYDOWN, pygame.K_z),
        (pygame.KEYUP, pygame.K_z),
        (pygame.KEYUP, pygame.K_LCTRL),  # all four within one frame (a quick Ctrl+Z)
        (pygame.KEYDOWN, pygame.K_y),  # Ctrl already let go: a plain Y
    ):
        pygame.event.post(pygame.event.Event(kind, key=key, mod=0))
    raw = mapper.poll()
    assert raw.keys_pressed == ["ctrl", "z", "y"] and raw.ctrl_pressed == ["z"]
    assert "ctrl" not in raw.keys_down
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RCTRL, mod=0))
    assert mapper.poll().ctrl_pressed == []  # Ctrl alone is no chord
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_s, mod=0))
    assert mapper.poll().ctrl_pressed == ["s"]  # held from an earlier frame


DT = 1 / 60  # a step at the default 60 Hz
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


def _play(
    app: App, now: list[float], seconds: float, after_frame: Callable[[], object] = list
) -> list[str]:
    """Frames as App.run times them (the frame time is the fake clock's), for ``seconds``
    of it, calling ``after_frame`` after each; the HUD messages shown."""
    messages: list[str] = []
    end, previous = now[0] + seconds, now[0]
    while now[0] < end:
        frame_time, previous = now[0] - previous, now[0]
        app.run_frame(frame_time)
        after_frame()
        now[0] += FRAME_S
        messages.append(app.message)
    return messages


def test_a_crowd_that_cannot_keep_up_says_so_and_sheds_characters_until_it_does(
    display: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    app, now = _slow_crowd(monkeypatch, 120)
    sim = app.scene.sim
    counts: list[int] = []
    messages = _play(app, now, 8.0, lambda: counts.append(sim.character_count))
    assert any(m.startswith(BEHIND_NOTE) for m in messages)
    for message, count in zip(messages, counts, strict=True):
        if "now)" in message:  # the note names the crowd's size after the frame's steps
            assert message.endswith(f"({count} now)")
    assert any("fewer characters" in m for m in messages)
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
