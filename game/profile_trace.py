"""``--profile-trace PATH``: every frame's phases as Chrome trace-event JSON.

The file opens in Perfetto (ui.perfetto.dev), ``chrome://tracing`` and speedscope. Each
frame is one complete event (``"ph": "X"``) named ``frame``; inside it, properly nested,
``input``, one ``step`` per fixed step (holding that step's ``sim``, which holds its
``ik``), ``render``, ``overlay`` and, with F3 on, ``profiler``. Times are microseconds
since the run started (``ts``) and durations (``dur``); every event has ``pid`` and ``tid``.

Format: "Trace Event Format", Google, https://docs.google.com/document/d/1CvAClvFfyA5R-PhYUmn5OOQtYMH4h6I0nSsKchNAySU
(complete events, the JSON Object Format with a ``traceEvents`` array).
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from game.outputs import AtomicFile
from game.profiling import PhaseTimer

PID, TID = 1, 1


class TracingPhaseTimer(PhaseTimer):
    """A :class:`PhaseTimer` that also keeps this frame's spans (name, start, duration).

    The per-phase sums are the base class's; the spans only add where each phase began.
    """

    def __init__(self) -> None:
        super().__init__()
        self.spans: list[tuple[str, float, float, int]] = []  # name, start s, length s, depth
        self._depth = 0

    @contextmanager
    def phase(self, name: str) -> Iterator[None]:
        start = time.perf_counter()
        depth = self._depth
        self._depth += 1
        try:
            with super().phase(name):
                yield
        finally:
            self._depth = depth
            self.spans.append((name, start, time.perf_counter() - start, depth))


class ProfileTraceWriter:
    """Streams frames to ``path`` (complete only after :meth:`close`; written to a
    temporary file beside it and renamed, so a crash never leaves half a JSON document:
    :class:`game.outputs.AtomicFile`, which also writes through symlinks and refuses
    devices)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.origin = time.perf_counter()
        self.frames = 0
        self.steps = 0
        self._out = AtomicFile("--profile-trace", path)
        self._out.write('{"displayTimeUnit": "ms", "traceEvents": [\n')
        self._first = True
        for key, value in (("process_name", "twobone demo"), ("thread_name", "main loop")):
            self._emit({"name": key, "ph": "M", "pid": PID, "tid": TID, "args": {"name": value}})

    def _emit(self, event: dict[str, Any]) -> None:
        self._out.write(("" if self._first else ",\n") + json.dumps(event))
        self._first = False

    def _complete(self, name: str, start: float, length: float, args: dict[str, Any]) -> None:
        # microseconds since the run began, to 0.001 µs; both ends are rounded (not the
        # length), so a span nested in another stays inside it in the file
        ts = round((start - self.origin) * 1e6, 3)
        end = round((start + length - self.origin) * 1e6, 3)
        event = {
            "name": name,
            "cat": "frame",
            "ph": "X",
            "ts": ts,
            "dur": round(end - ts, 3),
            "pid": PID,
            "tid": TID,
        }
        if args:
            event["args"] = args
        self._emit(event)

    def frame(self, start: float, length: float, timer: TracingPhaseTimer) -> None:
        """Write one frame that began at ``start`` (perf_counter s) and its spans; clears them."""
        self._complete("frame", start, length, {"frame": self.frames})
        # parents before children: sorted by start, the longer first when starts tie
        for name, span_start, span_length, depth in sorted(
            timer.spans, key=lambda s: (s[1], -s[2], s[3])
        ):
            if name == "sim" and depth == 0:
                # a fixed step is its top-level sim phase: give it its own event to nest in
                self._complete("step", span_start, span_length, {"step": self.steps})
                self.steps += 1
            self._complete(name, span_start, span_length, {})
        timer.spans.clear()
        self.frames += 1

    def close(self) -> None:
        """Finish the JSON document and move it into place (idempotent)."""
        if self._out.closed:
            return
        self._out.write("\n]}\n")
        self._out.commit()
