"""The files a run writes as it plays: the trace (a line a step), the recording (each step's
input, the reloads and the files a step reads) and the profile trace (a frame's phases);
each opened before the first frame and finished by :meth:`RunOutputs.close` whatever
happened (no pygame)."""

from __future__ import annotations

from typing import Any

from game.assets import file_digest
from game.input_state import InputState
from game.options import RunOptions
from game.outputs import OutputError
from game.profile_trace import ProfileTraceWriter, TracingPhaseTimer
from game.profiling import PhaseTimer
from game.recording import Recorder
from game.scene import EditableGround, SceneConfig
from game.trace import TracedProps, TraceWriter


class RunOutputs:
    """The run's trace, recording and profile trace (each None when not asked for)."""

    def __init__(self, options: RunOptions, config: SceneConfig) -> None:
        self.options = options
        self.trace: TraceWriter | None = None
        self.recorder: Recorder | None = None
        self.profile_trace = (
            ProfileTraceWriter(options.profile_trace) if options.profile_trace else None
        )
        # if one cannot be opened, none stays open
        try:
            if options.trace:
                self.trace = TraceWriter(options.trace)
            if options.record:
                self.recorder = Recorder(options.record, config.assets_dir)
        except OutputError:
            self.close()
            raise

    def scene_started(self, name: str, sim: Any, config: SceneConfig) -> None:
        """A scene starts or is switched to: the trace's header, the recording's."""
        if self.trace:
            self.trace.header(sim.trace_header())
        if self.recorder:
            self.recorder.scene(name, config.seed, self.options.hz, config.characters)

    def before_step(self, sim: Any, inp: InputState) -> None:
        """Record the step's input, after the files it reads from disk (if any)."""
        if not self.recorder:
            return
        paths = sim.files_read_by(inp) if isinstance(sim, EditableGround) else ()
        files_read = {path.name: file_digest(path) for path in paths}
        if files_read:
            self.recorder.reads(files_read)
        self.recorder.step(inp)

    def after_step(self, sim: Any) -> None:
        """The step's trace line."""
        if self.trace:
            ground = sim.terrain_update() if isinstance(sim, EditableGround) else None
            props = sim.trace_props() if isinstance(sim, TracedProps) else None
            self.trace.step(sim.step_index, sim.time, sim.trace_characters(), ground, props)

    def frame(self, start: float, seconds: float, timer: PhaseTimer) -> None:
        """The frame's phases, into the profile trace."""
        if self.profile_trace and isinstance(timer, TracingPhaseTimer):
            self.profile_trace.frame(start, seconds, timer)

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
