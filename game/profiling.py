"""Per-phase frame timing: a nesting phase timer and percentile summaries (no pygame)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np

PHASES: tuple[str, ...] = ("input", "sim", "ik", "render", "overlay", "profiler", "frame")


class PhaseTimer:
    """Accumulates wall time per named phase for the current frame.

    Phases nest: time spent in an inner phase (``ik`` inside ``sim``) is charged to the
    inner phase only, so the phases of one frame add up to the frame.
    """

    def __init__(self, phases: tuple[str, ...] = PHASES) -> None:
        self.phases = phases
        self.current: dict[str, float] = dict.fromkeys(phases, 0.0)
        self._stack: list[str] = []
        self.history: list[dict[str, float]] = []

    @contextmanager
    def phase(self, name: str) -> Iterator[None]:
        """Charge the enclosed block's wall time to ``name`` (minus nested phases)."""
        start = time.perf_counter()
        parent = self._stack[-1] if self._stack else None
        self._stack.append(name)
        try:
            yield
        finally:
            self._stack.pop()
            elapsed = time.perf_counter() - start
            self.current[name] = self.current.get(name, 0.0) + elapsed
            if parent is not None:
                self.current[parent] -= elapsed

    def end_frame(self, frame_seconds: float) -> dict[str, float]:
        """Close the frame: record its phases (in seconds) and start a new one."""
        record = dict(self.current)
        record["frame"] = frame_seconds
        self.history.append(record)
        self.current = dict.fromkeys(self.phases, 0.0)
        return record

    def summary_ms(self, skip: int = 0) -> dict[str, dict[str, float]]:
        """p50/p95/p99/max in milliseconds per phase over the recorded frames.

        ``skip`` leaves out the first frames (window creation, first font load).
        """
        frames = self.history[skip:] or self.history
        out: dict[str, dict[str, float]] = {}
        for name in self.phases:
            values = np.array([f.get(name, 0.0) for f in frames], dtype=float) * 1e3
            if values.size == 0:
                values = np.zeros(1)
            p50, p95, p99 = np.percentile(values, [50, 95, 99])
            out[name] = {
                "p50": round(float(p50), 4),
                "p95": round(float(p95), 4),
                "p99": round(float(p99), 4),
                "max": round(float(values.max()), 4),
            }
        return out


def format_summary(summary: dict[str, dict[str, float]]) -> str:
    """A small fixed-width table of a :meth:`PhaseTimer.summary_ms` result."""
    lines = [f"{'phase':<9}{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}{'max ms':>9}"]
    for name, row in summary.items():
        lines.append(
            f"{name:<9}{row['p50']:>9.3f}{row['p95']:>9.3f}{row['p99']:>9.3f}{row['max']:>9.3f}"
        )
    return "\n".join(lines)
