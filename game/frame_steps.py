"""The fixed steps a frame pays for, mixed into :class:`game.app.App`: the frame's input
(with the one-shot actions of frames that ran no step), each step's input from the replay,
the autopilot or the player, the step itself, its recording and its trace line; and
whether the steps keep up with real time (:mod:`game.step_pace`). No pygame."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import TYPE_CHECKING

from game.clock import FixedStepClock
from game.input_state import InputState, RawInput
from game.options import RunOptions
from game.profiling import PhaseTimer
from game.recording_lines import AssetReload, ReadCheck
from game.replay_feed import ReplayFeed
from game.run_outputs import RunOutputs
from game.scene import ManyCharacters, SceneConfig
from game.step_pace import BEHIND_NOTE, SHED_ACTION, StepPace

if TYPE_CHECKING:
    from game.app import ActiveScene
    from game.input_map import InputMapper
    from game.window import Window

# Frames the "steps behind" note stays up after the last frame that was behind.
PACE_NOTE_FRAMES = 60


class FrameSteps:
    """Running a frame's steps on the app's state (the attributes below are the app's)."""

    options: RunOptions
    config: SceneConfig
    scene: ActiveScene
    mapper: InputMapper
    clock: FixedStepClock
    timer: PhaseTimer
    replay: ReplayFeed
    outputs: RunOutputs
    window: Window
    pace: StepPace
    running: bool
    paused: bool
    single_step: bool
    steps: int
    pending: InputState | None
    message: str
    message_color: str
    message_frames: int
    _handle_global_keys: Callable[[RawInput], None]
    switch_scene: Callable[[str], None]
    _say: Callable[[str, str, int], None]

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
        replay, folder = self.replay, self.config.assets_dir
        while replay.items and replay.error is None:
            item = replay.items.popleft()  # (a list's pop(0) shifted 2 M items a step)
            if isinstance(item, InputState):
                return item
            if isinstance(item, AssetReload):
                note = replay.reload(item, self.scene.sim, self.scene.spec.name, folder)
                if note:
                    self._say(note, "ok", 120)
            elif isinstance(item, ReadCheck):
                replay.check_reads(item, folder, self.steps + 1)
            else:
                self.switch_scene(item.scene)
        if replay.error is not None:
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
        self.replay.finished, self.paused = True, True
        self.message = f"replay finished: all {self.replay.steps} steps played · Esc quits"
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
        shed = self._keep_pace(frame_time, count)
        for index in range(count):
            inp = self._next_step_input(frame_input, index == 0)
            if inp is None:
                self.running = self.replay.finished  # a windowed replay waits for Esc
                return
            if shed and index == 0:
                inp = dataclasses.replace(inp, actions=(*inp.actions, SHED_ACTION))
            inp = inp.bounded()  # what the recording holds is what its replay accepts
            self.outputs.before_step(self.scene.sim, inp)
            with self.timer.phase("sim"):
                self.scene.sim.step(inp, self.config.dt, self.timer)
            self.steps += 1
            self.outputs.after_step(self.scene.sim)
        self._say_pace()

    def _keep_pace(self, frame_time: float, count: int) -> bool:
        """Measure the steps against real time (a window's frames that run on their own).
        Returns whether this frame's first step asks a crowd for fewer characters (never in
        a replay: its input is the file's)."""
        if not self._on_its_own():
            return False
        self.pace.frame(frame_time, count * self.config.dt)
        if not self.pace.behind:
            return False
        return count > 0 and self._sheddable() > 1 and self.pace.shed_now()

    def _on_its_own(self) -> bool:
        """A window's frame that runs on its own: not headless, paused or minimised."""
        return not (self.options.headless or self.paused or self.window.minimised)

    def _sheddable(self) -> int:
        """The scene's characters when it may be asked for fewer (0: it may not)."""
        sim = self.scene.sim
        characters = sim.character_count if isinstance(sim, ManyCharacters) else 1
        return 0 if self.options.replay or characters <= 1 else characters

    def _say_pace(self) -> None:
        """While the steps fall behind, the HUD says so, with the crowd's size after this
        frame's steps (a shed included)."""
        if not (self._on_its_own() and self.pace.behind):
            return
        note = self.pace.note(self._sheddable() or None, self.clock.max_steps)
        if not self.message or self.message.startswith(BEHIND_NOTE):
            self._say(note, "warn", PACE_NOTE_FRAMES)
