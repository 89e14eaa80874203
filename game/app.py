"""The pygame application: window, one loop of input → fixed steps → render, and run outputs.

This module, :mod:`game.input_map` and :mod:`game.pygame_canvas` are the only ones that
import pygame.
"""

from __future__ import annotations

import gc
import io
import json
import os
import signal
import sys
import time
import warnings
from collections import deque
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from game import hud, scenes
from game.assets import AssetError, file_digest, load_snapshot, read_snapshot
from game.clock import FixedStepClock
from game.input_state import InputState, RawInput
from game.layout import Rect
from game.options import MIN_WINDOW_SIZE, SCREENSHOT_FORMATS, RunOptions
from game.outputs import EXIT_OUTPUT, EXIT_SIGNAL_BASE, OutputError, stop_on_signals, write_output
from game.profile_trace import ProfileTraceWriter, TracingPhaseTimer
from game.profiler_panel import draw_profiler, profiler_rect
from game.profiling import PhaseTimer, format_summary
from game.recording import (
    AssetReload,
    Item,
    ReadCheck,
    Recorder,
    SceneStart,
    assets_mismatch,
    read_recording,
)
from game.scene import (
    ASSETS_DIR,
    Autopilot,
    ClearOfHud,
    EditableGround,
    ManyCharacters,
    OwnHud,
    ReloadableAssets,
    ReloadNotes,
    SceneConfig,
    SceneSpec,
    SceneView,
    SidePanel,
)
from game.scenes.ground_edit import unsaved_edits
from game.trace import TracedProps, TraceWriter

MAX_STEPS_PER_FRAME = 5
MAX_MESSAGE_CHARS = 600  # the HUD message is cut to this (an error quoting a whole file)
MAX_FRAME_TIME = 0.25
WINDOWED_FPS_CAP = 144
# Paused or minimised, a window redraws at most this often and sleeps (waiting on the event
# queue) in between, so any input resumes it at once.
IDLE_FPS = 10
# Halflife of the smoothing of the delivered frame interval shown as fps (seconds).
FPS_HALFLIFE = 0.25
# With ground edits not saved, Esc or the window's close quits only when repeated within
# this many seconds of the run's clock (the first asks, in the HUD).
QUIT_CONFIRM_S = 2.0
QUIT_PROMPT = (
    "unsaved ground edits: Esc (or close) again within 2 s quits without them; "
    "E, then Ctrl+S saves them"
)


@runtime_checkable
class SubjectOnScreen(Protocol):
    """A view with a subject the F1 help must not hide: ``subject_box`` is its box on
    screen (left, top, width, height) as last drawn, or None (the walker's)."""

    subject_box: tuple[float, float, float, float] | None


@runtime_checkable
class TakesEscape(Protocol):
    """A view with a mode Esc leaves (the walk view's ground editor): while
    ``takes_escape()`` is True, Esc is the view's (its ``map_input`` leaves the mode)
    and does not quit."""

    def takes_escape(self) -> bool: ...


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


class App:
    """Owns the window and the loop; everything scene-specific is behind :class:`ActiveScene`."""

    def __init__(self, options: RunOptions, first: ActiveScene, config: SceneConfig) -> None:
        import pygame

        from game.input_map import InputMapper
        from game.pygame_canvas import PygameCanvas

        self.pygame = pygame
        self.options = options
        self.config = config
        self.scene = first
        # every scene visited this session, as it was left (switching back resumes it)
        self.visited: dict[str, ActiveScene] = {first.spec.name: first}
        flags = 0 if options.headless else pygame.RESIZABLE
        self.screen = pygame.display.set_mode(options.size, flags)
        pygame.display.set_caption("Analytic two-bone IK")
        if not options.headless:
            # The layout is designed down to this size; the window manager keeps it there.
            # pygame-ce 2.5 reaches the display's window only through this deprecated call.
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", DeprecationWarning)
                pygame.Window.from_display_module().minimum_size = MIN_WINDOW_SIZE
        self.canvas = PygameCanvas(self.screen)
        self.mapper = InputMapper()
        self.clock = FixedStepClock(config.dt, MAX_FRAME_TIME, MAX_STEPS_PER_FRAME)
        self.timer = TracingPhaseTimer() if options.profile_trace else PhaseTimer()
        self.profile_trace = (
            ProfileTraceWriter(options.profile_trace) if options.profile_trace else None
        )
        self.frames = 0
        self.steps = 0
        self.paused = False
        self.single_step = False
        self.show_help = False
        self.help_band: Rect | None = None  # the band over the hero the help keeps clear of
        self.show_overlay = (
            first.view.overlay_shown if isinstance(first.view, OverlayAware) else True
        )
        self.show_profiler = False
        self.running = True
        self.run_s = 0.0  # the run's clock: the sum of the frame times (virtual headless)
        self._quit_asked_s: float | None = None  # when a quit was held back for unsaved edits
        self.fps = 0.0
        self._last_flip: float | None = None
        self.minimised = False
        self._redraw = True  # cleared while idle with no input: the picture cannot change
        self.replay_steps = 0  # input steps in the replay when it started
        self.replay_finished = False
        self.replay_error: str | None = None  # why the replay stopped early (exit 2)
        self._solves_at_last_frame = 0
        self.message = ""
        self.message_color = "bad"
        self.message_frames = -1  # frames left to show the message; -1 keeps it up
        self.pending: InputState | None = None
        self.trace: TraceWriter | None = None
        self.recorder: Recorder | None = None
        self._open_outputs()
        self.replay: deque[Item] = deque()  # popped from the left, step by step
        self.screenshots_taken = 0
        self._start_scene_outputs()

    def _open_outputs(self) -> None:
        """Open the trace and the recording; if one cannot be opened, none stays open."""
        try:
            if self.options.trace:
                self.trace = TraceWriter(self.options.trace)
            if self.options.record:
                self.recorder = Recorder(self.options.record, self.config.assets_dir)
        except OutputError:
            self.close()
            raise

    # -- scene lifecycle -------------------------------------------------------------------
    def _start_scene_outputs(self) -> None:
        if self.trace:
            self.trace.header(self.scene.sim.trace_header())
        if self.recorder:
            name, config = self.scene.spec.name, self.config
            self.recorder.scene(name, config.seed, self.options.hz, config.characters)

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
        self._start_scene_outputs()

    def reload_assets(self) -> None:
        """F5: re-read the scene's asset files; a bad edit is shown and the last good kept.

        The files are read once into a snapshot, which the scene loads and the recording
        keeps (so a replay loads the same files at the same step). In a replay F5 is off:
        the recording's own reloads play where they happened."""
        sim = self.scene.sim
        if not isinstance(sim, ReloadableAssets):
            self._say("no assets to reload here", "warn", 120)
            return
        if self.options.replay:
            self._say("F5 is off in a replay: the recorded reloads play at their steps", "warn")
            return
        folder = self.config.assets_dir
        try:
            snapshot = read_snapshot(folder, sim.asset_files)
            load_snapshot(snapshot, folder, sim.reload_assets)
        except AssetError as exc:
            self._say(f"F5: {exc}  (still using the last good assets)", "bad", -1)
            return
        if self.recorder:
            self.recorder.reload(snapshot)
        note = sim.reload_note if isinstance(sim, ReloadNotes) else ""
        self._say(f"assets reloaded: {note}" if note else "assets reloaded", "ok", 120)

    def _replay_reload(self, reload: AssetReload) -> None:
        """A recorded F5: load the files it read; a scene that cannot stops the replay."""
        sim, where = self.scene.sim, f"{self.options.replay}: line {reload.line}"
        if not isinstance(sim, ReloadableAssets):
            self.replay_error = (
                f"{where}: a reload in the {self.scene.spec.name!r} scene, "
                "which reads no asset files"
            )
            return
        try:
            load_snapshot(reload.snapshot, self.config.assets_dir, sim.reload_assets)
        except AssetError as exc:
            self.replay_error = f"{where}: the recorded reload is not a valid asset: {exc}"
            return
        self._say(f"assets reloaded as recorded ({where})", "ok", 120)

    def _check_reads(self, check: ReadCheck) -> None:
        """The next recorded step reads asset files itself (Ctrl+O): they must be what the
        recorded session read, or the replay stops naming the line and the step."""
        folder = self.config.assets_dir
        for name, recorded in check.files.items():
            if file_digest(folder / name) != recorded:
                self.replay_error = (
                    f"{self.options.replay}: line {check.line}: step {self.steps + 1} reads "
                    f"{folder / name} (a Ctrl+O reload), which differs from the file the "
                    f"recorded session read (sha256 {recorded[:12]}…); replay with that file"
                )
                return

    def _files_read(self, inp: InputState) -> dict[str, str]:
        """Name → SHA-256 of the asset files the coming step reads from disk."""
        sim = self.scene.sim
        paths = sim.files_read_by(inp) if isinstance(sim, EditableGround) else ()
        return {path.name: file_digest(path) for path in paths}

    def _say(self, message: str, color: str, frames: int = 120) -> None:
        """Show ``message`` in the HUD for ``frames`` frames (-1: until replaced), cut to
        ``MAX_MESSAGE_CHARS`` (the HUD wraps it every frame)."""
        if len(message) > MAX_MESSAGE_CHARS:
            message = message[: MAX_MESSAGE_CHARS - 1] + "…"
        self.message, self.message_color, self.message_frames = message, color, frames

    # -- one frame -------------------------------------------------------------------------
    def _handle_global_keys(self, raw: RawInput) -> None:
        names = scenes.available()
        for key in raw.keys_pressed:
            if key == "escape" and self.show_help:
                self.show_help = False  # Esc closes the help first, quits only from the game
            elif key == "escape" and self._view_takes_escape():
                pass  # the view leaves its mode (the ground editor)
            elif key == "escape":
                self.request_quit()
            elif key == "f1":
                self.show_help = not self.show_help
            elif key == "o" and "ctrl" not in raw.keys_down:  # Ctrl+O is the scene's
                self.show_overlay = not self.show_overlay
            elif key == "f3":
                self.show_profiler = not self.show_profiler
            elif key == "p":
                self.paused = not self.paused
            elif key == "period":
                self.paused, self.single_step = True, True
            elif key == "f12":
                self._f12_screenshot()
            elif key == "f5":
                self.reload_assets()
            elif key.isdigit() and 1 <= int(key) <= len(names) and not self.replay:
                self.switch_scene(names[int(key) - 1])
        if raw.quit:
            self.request_quit()
        if raw.resized:
            self.scene.view.layout(self.screen.get_size())
        if raw.focus_lost and not self.options.headless and not self.options.autopilot:
            self.paused = True

    def _frames_drive_steps(self) -> bool:
        """The player's input drives the steps (not a replay nor the autopilot)."""
        return not self.options.replay and not self.options.autopilot

    def _view_takes_escape(self) -> bool:
        view = self.scene.view
        return self._frames_drive_steps() and isinstance(view, TakesEscape) and view.takes_escape()

    def request_quit(self) -> None:
        """Esc (outside a mode that takes it) or the window's close: quit; with ground
        edits the player made and did not save, only when asked again within
        ``QUIT_CONFIRM_S`` (the first time says so in the HUD)."""
        asked = self._quit_asked_s
        again = asked is not None and self.run_s - asked <= QUIT_CONFIRM_S
        if again or not self._frames_drive_steps():
            self.running = False
            return
        if not unsaved_edits(self.config.extra, self.config.assets_dir):
            self.running = False
            return
        self._quit_asked_s = self.run_s
        self._say(QUIT_PROMPT, "warn", -1)

    def _expire_quit_prompt(self) -> None:
        """The quit prompt goes once its time to answer has passed."""
        asked = self._quit_asked_s
        if asked is not None and self.run_s - asked > QUIT_CONFIRM_S:
            self._quit_asked_s = None
            if self.message == QUIT_PROMPT:
                self.message = ""

    def _frame_input(self) -> InputState:
        with self.timer.phase("input"):
            raw = self.mapper.poll()
            self._handle_global_keys(raw)
            inp = self.scene.view.map_input(raw)
            if self.pending is not None:
                # one-shot actions from frames that ran no step are delivered now
                inp = InputState(
                    inp.pointer,
                    inp.pointer_down,
                    inp.move,
                    inp.run,
                    inp.climb,
                    self.pending.actions + inp.actions,
                    {**self.pending.values, **inp.values},
                )
                self.pending = None
        return inp

    def _next_step_input(self, frame_input: InputState, first: bool) -> InputState | None:
        """The input of the next fixed step, or None when a replay has run out."""
        while self.replay and self.replay_error is None:
            item = self.replay.popleft()  # (a list's pop(0) shifted 2 M items a step)
            if isinstance(item, InputState):
                return item
            if isinstance(item, AssetReload):
                self._replay_reload(item)
            elif isinstance(item, ReadCheck):
                self._check_reads(item)
            else:
                self.switch_scene(item.scene)
        if self.replay_error is not None:
            return None
        if self.options.replay:
            self._replay_ended()
            return None
        if self.options.autopilot:
            return self.scene.autopilot.next_input(self.scene.sim)
        return frame_input if first else frame_input.without_actions()

    def _replay_ended(self) -> None:
        """Headless, the run ends; a window stays up (paused) until Esc."""
        if self.options.headless:
            return
        self.replay_finished, self.paused = True, True
        self.message = f"replay finished: all {self.replay_steps} steps played · Esc quits"
        self.message_color, self.message_frames = "ok", -1

    def _run_steps(self, frame_input: InputState, frame_time: float) -> None:
        if not self.running:
            return  # Esc or window close this frame: simulate nothing more
        if self.paused:
            count = 1 if self.single_step else 0
            self.single_step = False
        else:
            count = self.clock.advance(frame_time)
        if count == 0 and (frame_input.actions or frame_input.values):
            self.pending = frame_input
        for index in range(count):
            inp = self._next_step_input(frame_input, index == 0)
            if inp is None:
                self.running = self.replay_finished  # a windowed replay waits for Esc
                return
            inp = inp.bounded()  # what the recording holds is what its replay accepts
            if self.recorder:
                files_read = self._files_read(inp)
                if files_read:
                    self.recorder.reads(files_read)
                self.recorder.step(inp)
            with self.timer.phase("sim"):
                self.scene.sim.step(inp, self.config.dt, self.timer)
            self.steps += 1
            if self.trace:
                sim = self.scene.sim
                ground = sim.terrain_update() if isinstance(sim, EditableGround) else None
                props = sim.trace_props() if isinstance(sim, TracedProps) else None
                self.trace.step(sim.step_index, sim.time, sim.trace_characters(), ground, props)

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
                self.scene.view.draw_overlay(self.canvas, alpha)
            overlay_boxes = self.canvas.hud_boxes[before_overlay:]  # its colour key
            tabs = hud.draw_tabs(
                self.canvas,
                scenes.available(),
                self.scene.spec.name,
                fps,
                self.paused,
                recording=self.recorder is not None,
            )
            if self.message:
                hud.draw_message(self.canvas, self.message, self.message_color, self.view_area())
                if self.message_frames > 0:
                    self.message_frames -= 1
                    if self.message_frames == 0:
                        self.message = ""
            if self.show_help:
                # clear of every other HUD box: the panels drawn so far this frame (the
                # status box, legends, the editor's palette, a message), the tabs and the F3
                # panel drawn next (so the help never hides the status box with F3 on); the
                # overlay's colour key is the one it may cover when it fits nowhere else
                spec = self.scene.spec
                keep_clear = [b for b in self.canvas.hud_boxes if b not in overlay_boxes]
                keep_clear.append(tabs)
                if profiler is not None:
                    keep_clear.append(profiler)
                area = self.view_area()
                # and clear of the hero where it fits
                subject = view.subject_box if isinstance(view, SubjectOnScreen) else None
                band = []
                if subject is not None:
                    self.help_band = hud.subject_band(subject, area, self.help_band)
                    band.append(self.help_band)
                chosen = hud.place_help(
                    self.canvas, spec.title, spec.controls, keep_clear, area, overlay_boxes, band
                )
                hud.draw_help(self.canvas, spec.title, chosen)
        if profiler is not None:
            with self.timer.phase("profiler"):
                self._draw_profiler(fps, profiler)
        with self.timer.phase("render"):
            self.pygame.display.flip()

    def _draw_profiler(self, fps: float | None, rect: Rect) -> None:
        sim = self.scene.sim
        solves = sim.counters.solves
        per_frame = (solves - self._solves_at_last_frame) if self.frames else 0
        self._solves_at_last_frame = solves
        characters = sim.character_count if isinstance(sim, ManyCharacters) else 1
        draw_profiler(self.canvas, self.timer.history, per_frame, characters, fps, rect)

    def profiler_rect(self) -> Rect:
        """Where the F3 panel goes: the top-right of the view, clear of the view's own HUD
        boxes there (:class:`game.scene.OwnHud`)."""
        view = self.scene.view
        avoid = view.hud_boxes() if isinstance(view, OwnHud) else []
        return profiler_rect(self.canvas.size, self.view_area(), avoid)

    def view_area(self) -> Rect:
        """The window minus the scene's side panel (if it has one): where HUD boxes may go."""
        width, height = self.screen.get_size()
        view = self.scene.view
        panel = view.panel_rect if isinstance(view, SidePanel) else None
        if panel is not None and panel[0] > 0:
            return (0.0, 0.0, float(panel[0]), float(height))
        return (0.0, 0.0, float(width), float(height))

    def run_frame(self, frame_time: float) -> None:
        """One frame: input, the fixed steps it pays for, render. Clears ``running`` to stop."""
        frame_start = time.perf_counter()
        self.run_s += frame_time
        self._expire_quit_prompt()
        frame_input = self._frame_input()
        self._run_steps(frame_input, frame_time)
        if not self.running and self.frames > 0:
            return
        if self._redraw and not self.minimised:  # a minimised window is not drawn at all
            self._render(self.clock.alpha, None if self.paused else self.fps)
            if self.paused:
                # no frame rate while paused (it showed the last one, then 0.5 fps after a
                # single step): it is measured again from the first frame after the pause
                self.fps, self._last_flip = 0.0, None
            else:
                self._count_flip(time.perf_counter())
        self.frames += 1
        seconds = time.perf_counter() - frame_start
        self.timer.end_frame(seconds)
        if self.profile_trace and isinstance(self.timer, TracingPhaseTimer):
            self.profile_trace.frame(frame_start, seconds, self.timer)
        if self.options.frames is not None and self.frames >= self.options.frames:
            self.running = False

    def _count_flip(self, now: float) -> None:
        """fps is frames delivered per second: the smoothed interval between flips.

        The work time of a frame stays in the profiler; this includes the limiter's wait.
        """
        if self._last_flip is not None:
            interval = max(now - self._last_flip, 1e-6)
            if self.fps == 0.0:
                self.fps = 1.0 / interval
            else:
                # exponential smoothing by halflife: keep 2^(−interval / halflife) of the old
                keep = 0.5 ** (interval / FPS_HALFLIFE)
                self.fps = 1.0 / (keep / self.fps + (1.0 - keep) * interval)
        self._last_flip = now

    @property
    def idle(self) -> bool:
        """Paused or minimised: nothing moves, so redraw rarely."""
        return self.paused or self.minimised

    def _wait_for_next_frame(self, wall: Any) -> None:
        """Cap the frame rate; when idle, sleep on the event queue for up to 1/IDLE_FPS s."""
        self.minimised = not self.pygame.display.get_active()
        self._redraw = True
        if not self.idle:
            wall.tick(WINDOWED_FPS_CAP)
            return
        event = self.pygame.event.wait(round(1000 / IDLE_FPS))
        if event.type != self.pygame.NOEVENT:
            self.pygame.event.post(event)  # any input wakes the loop; the next frame reads it
        elif self.paused:
            self._redraw = False  # paused and nothing happened: the last frame still stands
        wall.tick()  # keep the clock's own frame timing continuous

    def run(self) -> None:
        """Play until Esc, window close, the frame limit or the end of a replay."""
        wall = self.pygame.time.Clock()
        previous = time.perf_counter()
        while self.running:
            now = time.perf_counter()
            # headless runs use a virtual clock: exactly one fixed step per frame
            frame_time = self.config.dt if self.options.headless else now - previous
            previous = now
            self.run_frame(frame_time)
            if not self.options.headless and self.running:
                self._wait_for_next_frame(wall)

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
        image = io.BytesIO()
        self.pygame.image.save(
            self.screen, image, SCREENSHOT_FORMATS.get(path.suffix.lower(), "png")
        )
        write_output(output, path, image.getvalue())
        return path

    def _f12_screenshot(self) -> None:
        try:
            saved = self.save_screenshot(None, "F12 screenshot").resolve()
            self.message = f"saved {saved}"
            self.message_color = "ok"
        except OutputError as exc:
            self.message, self.message_color = str(exc), "bad"
        self.message_frames = 120

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
        keeps another from being finished. Returns the outputs that failed."""
        errors: list[OutputError] = []
        outputs = (
            ("--trace", self.trace),
            ("--record", self.recorder),
            ("--profile-trace", self.profile_trace),
        )
        for flag, output in outputs:
            if output is None:
                continue
            try:
                output.close()
            except OutputError as exc:
                errors.append(exc)
            except OSError as exc:
                errors.append(OutputError.from_os(flag, output.path, exc))
        self.trace = self.recorder = self.profile_trace = None
        return errors


@dataclass
class Session:
    """What a finished run leaves: its exit code and, when it ran, its stats."""

    code: int
    stats: dict[str, Any] | None = None


def play(options: RunOptions, quiet: bool = False) -> Session:
    """Run the demo with validated options; print the summary unless ``quiet``."""
    if options.headless:
        os.environ["SDL_VIDEODRIVER"] = "dummy"
        os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    replay: list[Item] = []
    if options.replay:
        try:
            replay = read_recording(options.replay)
        except (OSError, ValueError) as exc:
            print(f"error: --replay: {exc}", file=sys.stderr)
            return Session(2)
        except KeyboardInterrupt:  # a long recording takes a while to check
            print(f"interrupted (SIGINT) while reading {options.replay}", file=sys.stderr)
            return Session(EXIT_SIGNAL_BASE + signal.SIGINT)
        head = replay.pop(0)
        assert isinstance(head, SceneStart)  # read_recording guarantees a leading header
        mismatch = assets_mismatch(options.replay, head, options.assets or ASSETS_DIR)
        if mismatch:
            print(f"error: --replay: {mismatch}", file=sys.stderr)
            return Session(2)
        if head.assets is None:
            print(
                f"warning: --replay: {options.replay} does not record its assets (format 1); "
                "with other asset files than when recorded the replay diverges",
                file=sys.stderr,
            )
        options = replace(
            options, scene=head.scene, seed=head.seed, hz=head.hz, characters=head.characters
        )
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

    import pygame

    pygame.display.init()
    pygame.font.init()
    try:
        app = App(options, first, config)
    except OutputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        pygame.quit()
        return Session(EXIT_OUTPUT)
    app.replay = deque(replay)
    app.replay_steps = sum(isinstance(item, InputState) for item in replay)
    app.show_profiler = options.show_profiler
    # What is alive now (modules, fonts, assets, the scene) lives for the whole run. A full
    # collection walks all of it (~10-40 ms here, one to two frame budgets: the swivel
    # scene's worst frames); frozen, it is left out and only what frames allocate is walked.
    gc.collect()
    gc.freeze()
    stop_signal, errors = _run_to_the_end(app)
    gc.unfreeze()  # a caller that plays many sessions (the tests) gets it collected again
    if app.replay and app.replay_error is None:
        left = sum(isinstance(item, InputState) for item in app.replay)
        print(
            f"replay cut short by --frames {options.frames}: played "
            f"{app.replay_steps - left} of {app.replay_steps} steps"
        )
    stats = app.stats()
    errors += _write_final_outputs(app, options, stats, quiet)
    if (options.headless or options.announce_summary) and not quiet:
        print(
            f"{app.frames} frames, {app.steps} steps of {app.scene.spec.name!r}; "
            f"{stats['ik']['solves']} IK solves, {stats['ik']['nan']} NaN"
        )
        print(format_summary(stats["timing_ms"]))
    pygame.quit()
    for error in errors:
        print(f"error: {error}", file=sys.stderr)
    if errors:
        return Session(EXIT_OUTPUT, stats)
    if app.replay_error is not None:
        print(f"error: --replay: {app.replay_error}", file=sys.stderr)
        return Session(2, stats)
    if stop_signal:
        name = signal.Signals(stop_signal).name
        print(f"interrupted ({name}): outputs were written", file=sys.stderr)
        return Session(EXIT_SIGNAL_BASE + stop_signal, stats)
    return Session(0, stats)


def _run_to_the_end(app: App) -> tuple[int, list[OutputError]]:
    """Play until the run ends, Ctrl-C, SIGTERM / SIGHUP or a failing output; every output
    is finished whatever happened. Returns the stopping signal (0 for none) and the
    outputs that failed."""
    stop_signal = 0
    errors: list[OutputError] = []

    def stop(signum: int) -> None:
        nonlocal stop_signal
        stop_signal = stop_signal or signum
        app.running = False  # the frame under way finishes, then the loop ends

    try:
        with stop_on_signals(stop):
            app.run()
    except KeyboardInterrupt:
        stop_signal = signal.SIGINT
    except OutputError as exc:
        errors.append(exc)  # an output failed mid-run: stop, finish the others
    finally:
        errors += app.close()
    return stop_signal, errors


def _write_final_outputs(
    app: App, options: RunOptions, stats: dict[str, Any], quiet: bool
) -> list[OutputError]:
    """The screenshot and the stats file, each tried whatever the other does."""
    errors: list[OutputError] = []
    if options.screenshot:
        try:
            path = app.save_screenshot(options.screenshot)
        except OutputError as exc:
            errors.append(exc)
        else:
            if not quiet:
                print(f"Screenshot written to {path}")
    if options.stats:
        text = json.dumps(stats, indent=2) + "\n"
        try:
            write_output("--stats", options.stats, text.encode("utf-8"))
        except OutputError as exc:
            errors.append(exc)
    return errors


def run(options: RunOptions) -> int:
    """Run the demo; returns the process exit code."""
    return play(options).code
