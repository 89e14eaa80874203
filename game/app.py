"""The application: the scenes played, one loop of input → fixed steps → render, and
:func:`play`, a run from its options to its exit code.

The loop's jobs live beside it: the window (:mod:`game.window`), the global keys
(:mod:`game.global_keys`), a frame's fixed steps (:mod:`game.frame_steps`), the HUD over the
scene (:mod:`game.app_hud`), the replay (:mod:`game.replay_feed`), the output files
(:mod:`game.run_outputs`) and the run's end (:mod:`game.session`). pygame is reached only
through :mod:`game.window`, :mod:`game.input_map` and :mod:`game.pygame_canvas`.
"""

from __future__ import annotations

import gc
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from game import hud, scenes
from game.app_hud import AppHud, profiler_place, view_area
from game.assets import AssetError
from game.clock import FixedStepClock
from game.frame_steps import FrameSteps
from game.global_keys import GlobalKeys
from game.input_state import InputState
from game.layout import Rect
from game.options import RunOptions
from game.outputs import EXIT_OUTPUT, OutputError, write_output
from game.profile_trace import TracingPhaseTimer
from game.profiling import PhaseTimer
from game.recording_lines import Item
from game.replay_feed import ReplayFeed, ReplayRefused, open_replay
from game.run_outputs import RunOutputs
from game.scene import (
    ASSETS_DIR,
    Autopilot,
    ClearOfHud,
    Closable,
    SceneConfig,
    SceneSpec,
    SceneView,
)
from game.session import Session, finish, run_to_the_end
from game.step_pace import StepPace

MAX_STEPS_PER_FRAME = 5
MAX_MESSAGE_CHARS = 600  # the HUD message is cut to this (an error quoting a whole file)
MAX_FRAME_TIME = 0.25
# the collector's threshold of young objects during a run (Python's default: 700). A
# frame's drawing builds lists of points (a crowd of 2,000: ~2,400 at a time) that die
# with the call; at 700 they set off ~7 collections a frame (~0.25 ms of it), at this
# threshold what frames keep sets off one every ~100 frames
FRAME_GC_THRESHOLD = 5000


@runtime_checkable
class SubjectOnScreen(Protocol):
    """A view with a subject the F1 help must not hide: ``subject_box`` is its box on
    screen (left, top, width, height) as last drawn, or None (the walker's)."""

    subject_box: tuple[float, float, float, float] | None


@runtime_checkable
class OverlayAware(Protocol):
    """A view told whether the debug overlay is on (``overlay_shown``, set before each
    draw), whose value when the app starts is the overlay's first state: the walk and the
    crowd open with it off, their first screen the scene and not its debugging."""

    overlay_shown: bool


@dataclass
class ActiveScene:
    """The scene being played: its spec, simulation, view and autopilot."""

    spec: SceneSpec
    sim: Any
    view: SceneView
    autopilot: Autopilot


def build_scene(name: str, config: SceneConfig, size: tuple[int, int]) -> ActiveScene:
    """Create a scene's simulation (loading its assets), view and autopilot."""
    spec = scenes.load(name)
    sim = spec.create(config)
    view = spec.view(sim)
    view.layout(size)
    return ActiveScene(spec, sim, view, spec.autopilot(sim, config))


class App(GlobalKeys, FrameSteps):
    """Owns the window and the loop; everything scene-specific is behind :class:`ActiveScene`.

    The global keys (:class:`~game.global_keys.GlobalKeys`) and a frame's fixed steps
    (:class:`~game.frame_steps.FrameSteps`) are mixed in, acting on the state set here.
    """

    def __init__(self, options: RunOptions, first: ActiveScene, config: SceneConfig) -> None:
        from game.input_map import InputMapper
        from game.pygame_canvas import PygameCanvas
        from game.window import FrameRate, Window

        self.options = options
        self.config = config
        self.scene = first
        # every scene visited this session, as it was left (switching back resumes it)
        self.visited: dict[str, ActiveScene] = {first.spec.name: first}
        self.window = Window(options.size, options.headless)
        self.screen = self.window.screen
        self.canvas = PygameCanvas(self.screen)
        self.mapper = InputMapper()
        self.clock = FixedStepClock(config.dt, MAX_FRAME_TIME, MAX_STEPS_PER_FRAME)
        self.timer = TracingPhaseTimer() if options.profile_trace else PhaseTimer()
        self.hud = AppHud()
        self.frames = 0
        self.steps = 0
        self.paused = False
        self.single_step = False
        self.show_help = False
        self.show_overlay = (
            first.view.overlay_shown if isinstance(first.view, OverlayAware) else True
        )
        self.show_profiler = False
        self.running = True
        self.run_s = 0.0  # the run's clock: the sum of the frame times (virtual headless)
        self._quit_asked_s: float | None = None  # when a quit was held back for unsaved edits
        self.frame_rate = FrameRate()
        self.pace = StepPace()
        self.replay = ReplayFeed(options.replay)
        self.message = ""
        self.message_color = "bad"
        self.message_frames = -1  # frames left to show the message; -1 keeps it up
        self.pending: InputState | None = None
        self.outputs = RunOutputs(options, config)
        self.screenshots_taken = 0
        self.outputs.scene_started(first.spec.name, first.sim, config)

    # -- scene lifecycle -------------------------------------------------------------------
    def switch_scene(self, name: str) -> None:
        """Go to scene ``name``: where it was left if it ran before in this session, else
        started fresh (a bad asset keeps the current scene and says why)."""
        scene = self.visited.get(name)
        if scene is None:
            try:
                scene = build_scene(name, self.config, self.screen.get_size())
            except AssetError as exc:
                self.message, self.message_color, self.message_frames = (
                    f"cannot open {name}: {exc}",
                    "bad",
                    -1,
                )
                return
            self.visited[name] = scene
        else:
            scene.view.layout(self.screen.get_size())  # the window may have changed since
        self.scene = scene
        self.message = ""
        self.outputs.scene_started(name, scene.sim, self.config)

    def _say(self, message: str, color: str, frames: int = 120) -> None:
        """Show ``message`` in the HUD for ``frames`` frames (-1: until replaced), cut to
        ``MAX_MESSAGE_CHARS`` (the HUD wraps it every frame)."""
        if len(message) > MAX_MESSAGE_CHARS:
            message = message[: MAX_MESSAGE_CHARS - 1] + "…"
        self.message, self.message_color, self.message_frames = message, color, frames

    # -- one frame -------------------------------------------------------------------------
    def _render(self, alpha: float, fps: float | None) -> None:
        """Draw the frame; ``fps`` is None while paused (the HUD says "paused")."""
        view = self.scene.view
        profiler = self.profiler_rect() if self.show_profiler else None
        if isinstance(view, ClearOfHud):
            view.hud_cover = profiler
        if isinstance(view, OverlayAware):
            view.overlay_shown = self.show_overlay
        self.canvas.hud_boxes.clear()
        with self.timer.phase("render"):
            view.draw(self.canvas, alpha, self.timer)
        with self.timer.phase("overlay"):
            before_overlay = len(self.canvas.hud_boxes)
            if self.show_overlay:
                view.draw_overlay(self.canvas, alpha)
            overlay_boxes = self.canvas.hud_boxes[before_overlay:]  # its colour key
            names, name = scenes.available(), self.scene.spec.name
            recording = self.outputs.recorder is not None
            tabs = hud.draw_tabs(self.canvas, names, name, fps, self.paused, recording=recording)
            self._draw_message([b for b in self.canvas.hud_boxes if b not in overlay_boxes])
            if self.show_help:
                # clear of every other HUD box: the panels drawn so far this frame (the
                # status box, legends, the editor's palette, a message), the tabs and the F3
                # panel drawn next (so the help never hides the status box with F3 on); the
                # overlay's colour key is the one it may cover when it fits nowhere else
                keep_clear = [b for b in self.canvas.hud_boxes if b not in overlay_boxes]
                keep_clear.append(tabs)
                if profiler is not None:
                    keep_clear.append(profiler)
                # and clear of the hero where it fits
                subject = view.subject_box if isinstance(view, SubjectOnScreen) else None
                self.hud.draw_help(
                    self.canvas,
                    self.scene.spec,
                    subject,
                    keep_clear,
                    self.view_area(),
                    overlay_boxes,
                )
        if profiler is not None:
            with self.timer.phase("profiler"):
                first = self.frames == 0
                self.hud.draw_profiler(
                    self.canvas, self.scene.sim, self.timer, first, fps, profiler
                )
        with self.timer.phase("render"):
            self.window.flip()

    def _draw_message(self, avoid: list[tuple[float, float, float, float]]) -> None:
        """The message box clear of the HUD boxes ``avoid``, counting down the frames it
        has left."""
        if not self.message:
            return
        area = self.view_area()
        hud.draw_message(self.canvas, self.message, self.message_color, area, avoid)
        if self.message_frames > 0:
            self.message_frames -= 1
            if self.message_frames == 0:
                self.message = ""

    def profiler_rect(self) -> Rect:
        """Where the F3 panel goes: the top-right of the view, clear of the view's own HUD
        boxes there (:class:`game.scene.OwnHud`)."""
        return profiler_place(self.scene.view, self.canvas.size, self.view_area())

    def view_area(self) -> Rect:
        """The window minus the scene's side panel (if it has one): where HUD boxes may go."""
        return view_area(self.scene.view, self.screen.get_size())

    def run_frame(self, frame_time: float) -> None:
        """One frame: input, the fixed steps it pays for, render. Clears ``running`` to stop."""
        frame_start = time.perf_counter()
        self.run_s += frame_time
        self._expire_quit_prompt()
        frame_input = self._frame_input()
        self._run_steps(frame_input, frame_time)
        if not self.running and self.frames > 0:
            return
        window = self.window
        if window.redraw and not window.minimised:  # a minimised window is not drawn at all
            self._render(self.clock.alpha, None if self.paused else self.frame_rate.fps)
            if self.paused:
                # no frame rate while paused (neither the last one, nor 0.5 fps after a
                # single step): it is measured again from the first frame after the pause
                self.frame_rate.forget()
            else:
                self.frame_rate.count_flip(time.perf_counter())
        self.frames += 1
        seconds = time.perf_counter() - frame_start
        self.timer.end_frame(seconds)
        self.outputs.frame(frame_start, seconds, self.timer)
        if self.options.frames is not None and self.frames >= self.options.frames:
            self.running = False

    def run(self) -> None:
        """Play until Esc, window close, the frame limit or the end of a replay."""
        previous = time.perf_counter()
        while self.running:
            now = time.perf_counter()
            # headless runs use a virtual clock: exactly one fixed step per frame
            frame_time = self.config.dt if self.options.headless else now - previous
            previous = now
            self.run_frame(frame_time)
            if not self.options.headless and self.running:
                self.window.wait_for_next_frame(self.paused)

    # -- outputs ---------------------------------------------------------------------------
    def save_screenshot(self, path: Path | None, output: str = "--screenshot") -> Path:
        """Save the current frame in the format ``path``'s suffix names (PNG, JPEG or BMP,
        :data:`game.options.SCREENSHOT_FORMATS`; PNG otherwise); F12 picks a numbered PNG name
        in ``screenshots/``.

        Raises :class:`OutputError` naming ``output`` when it cannot be written.
        """
        if path is None:
            self.screenshots_taken += 1
            stamp = time.strftime("%Y%m%d-%H%M%S")
            path = Path("screenshots") / f"shot-{stamp}-{self.screenshots_taken}.png"
        write_output(output, path, self.window.picture(path.suffix))
        return path

    def stats(self) -> dict[str, Any]:
        """The stats file's object."""
        sim = self.scene.sim
        return {
            "frames": self.frames,
            "steps": self.steps,
            "scene": self.scene.spec.name,
            "ik": sim.counters.to_json(),
            "timing_ms": self.timer.summary_ms(skip=min(5, max(self.frames - 1, 0))),
            **sim.stats_sections(),
        }

    def close(self) -> list[OutputError]:
        """Finish every output file (also on Ctrl-C or an exception); a failing output never
        keeps another from being finished. Returns the outputs that failed. Then every
        scene's simulation that holds a worker lets it go (after the stats file, which
        counts the worker's characters too)."""
        try:
            return self.outputs.close()
        finally:
            for scene in self.visited.values():
                if isinstance(scene.sim, Closable):
                    scene.sim.close()


def play(options: RunOptions, quiet: bool = False) -> Session:
    """Run the demo with validated options; print the summary unless ``quiet``."""
    if options.headless:
        os.environ["SDL_VIDEODRIVER"] = "dummy"
        os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    replay: list[Item] = []
    if options.replay:
        try:
            options, replay = open_replay(options)
        except ReplayRefused as exc:
            print(exc.message, file=sys.stderr)
            return Session(exc.code)
    config = SceneConfig(
        dt=1.0 / options.hz,
        seed=options.seed,
        characters=options.characters,
        assets_dir=options.assets or ASSETS_DIR,
    )
    try:
        first = build_scene(options.scene, config, options.size)
    except AssetError as exc:
        print(f"error: bad asset: {exc}", file=sys.stderr)
        return Session(1)

    from game.window import close_display, open_display

    open_display()
    try:
        app = App(options, first, config)
    except OutputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        close_display()
        return Session(EXIT_OUTPUT)
    app.replay = ReplayFeed(options.replay, replay)
    app.show_profiler = options.show_profiler
    # What is alive now (modules, fonts, assets, the scene) lives for the whole run. A full
    # collection walks all of it (~10-40 ms here, one to two frame budgets: the swivel
    # scene's worst frames); frozen, it is left out and only what frames allocate is walked.
    gc.collect()
    gc.freeze()
    thresholds = gc.get_threshold()
    gc.set_threshold(FRAME_GC_THRESHOLD, *thresholds[1:])
    try:
        stop_signal, errors = run_to_the_end(app)
    finally:  # a caller that plays many sessions (the tests) gets it collected again
        gc.set_threshold(*thresholds)
        gc.unfreeze()
    session = finish(app, options, stop_signal, errors, quiet)
    close_display()
    return session


def run(options: RunOptions) -> int:
    """Run the demo; returns the process exit code."""
    return play(options).code
