"""Per-frame timing: a nesting phase timer, a bounded window of recent frames and whole-run
percentiles from a streaming histogram (no pygame; memory does not grow with the run)."""

from __future__ import annotations

import math
import time
from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np

PHASES: tuple[str, ...] = ("input", "sim", "ik", "render", "overlay", "profiler", "frame")
HISTORY_FRAMES = 600  # the recent window (at least; the F3 panel draws the last 240 frames)
HEAD_FRAMES = 8  # the first frames are kept exactly so a summary can skip the warm-up


class StreamingQuantiles:
    """Counts of non-negative durations in log-spaced bins: percentiles of any number of
    values in fixed memory, each within half a bin (``RATIO`` − 1 ≈ 1 %) of the exact one.

    Bin 0 holds values below ``FLOOR_S``; bin ``i >= 1`` holds
    ``FLOOR_S · RATIO^(i−1) <= v < FLOOR_S · RATIO^i``; the last bin takes anything longer.
    """

    FLOOR_S = 1e-7  # 0.1 µs
    RATIO = 1.02
    BINS = 2 + math.ceil(math.log(1e4 / FLOOR_S) / math.log(RATIO))  # up to 10,000 s

    def __init__(self) -> None:
        self.counts = np.zeros(self.BINS, dtype=np.int64)
        self.count = 0
        self.low = math.inf
        self.high = 0.0

    def _bin(self, value: float) -> int:
        if not value >= self.FLOOR_S:
            return 0
        # bin i >= 1 covers [FLOOR · RATIO^(i−1), FLOOR · RATIO^i)
        return min(1 + int(math.log(value / self.FLOOR_S) / math.log(self.RATIO)), self.BINS - 1)

    def add(self, value: float) -> None:
        """Count one duration (seconds)."""
        self.counts[self._bin(value)] += 1
        self.count += 1
        self.low = min(self.low, value)
        self.high = max(self.high, value)

    def merged(self, values: list[float]) -> StreamingQuantiles:
        """A copy that also counts ``values``."""
        out = StreamingQuantiles()
        out.counts, out.count, out.low, out.high = (
            self.counts.copy(),
            self.count,
            self.low,
            self.high,
        )
        for value in values:
            out.add(value)
        return out

    def percentile(self, q: float) -> float:
        """The ``q``-th percentile (0–100): the geometric centre of its bin, within the
        observed minimum and maximum (so a constant duration comes back exactly)."""
        if self.count == 0:
            return 0.0
        rank = q / 100.0 * (self.count - 1)  # the nearest-rank position among sorted values
        index = int(np.searchsorted(np.cumsum(self.counts), rank, side="right"))
        centre = 0.0 if index == 0 else self.FLOOR_S * self.RATIO ** (index - 0.5)
        return min(max(centre, self.low), self.high)


class PhaseTimer:
    """Accumulates wall time per named phase for the current frame.

    Phases nest: time spent in an inner phase (``ik`` inside ``sim``) is charged to the
    inner phase only, so the phases of one frame add up to the frame. ``history`` is a list of
    the last :data:`HISTORY_FRAMES` to twice that many frames (trimmed in blocks, so a frame
    costs O(1)); :meth:`summary_ms` covers the whole run.
    """

    def __init__(self, phases: tuple[str, ...] = PHASES) -> None:
        self.phases = phases
        self.current: dict[str, float] = dict.fromkeys(phases, 0.0)
        self._stack: list[str] = []
        self.history: list[dict[str, float]] = []
        self.frames = 0
        self._head: list[dict[str, float]] = []  # the first HEAD_FRAMES frames, exactly
        self._rest = {name: StreamingQuantiles() for name in phases}  # every later frame

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
        if len(self.history) >= 2 * HISTORY_FRAMES:
            del self.history[:HISTORY_FRAMES]
        if self.frames < HEAD_FRAMES:
            self._head.append(record)
        else:
            for name in self.phases:
                self._rest[name].add(record.get(name, 0.0))
        self.frames += 1
        self.current = dict.fromkeys(self.phases, 0.0)
        return record

    def summary_ms(self, skip: int = 0) -> dict[str, dict[str, float]]:
        """p50/p95/p99/max in milliseconds per phase over every frame of the run.

        ``skip`` (at most :data:`HEAD_FRAMES`) leaves out the first frames (window creation,
        first font load); the maximum is exact, the percentiles within ~1 %.
        """
        if skip > HEAD_FRAMES:
            raise ValueError(
                f"expected skip <= {HEAD_FRAMES} (the frames kept exactly), got {skip}"
            )
        head = self._head[skip:] if self.frames > skip else self._head
        out: dict[str, dict[str, float]] = {}
        for name in self.phases:
            values = self._rest[name].merged([f.get(name, 0.0) for f in head])
            p50, p95, p99 = (values.percentile(q) * 1e3 for q in (50, 95, 99))
            out[name] = {
                "p50": round(p50, 4),
                "p95": round(p95, 4),
                "p99": round(p99, 4),
                "max": round(values.high * 1e3, 4),
            }
        return out


def format_summary(summary: dict[str, dict[str, float]]) -> str:
    """A fixed-width table of a :meth:`PhaseTimer.summary_ms` result; every column is as wide
    as its widest value, so figures never run together."""
    columns = ("p50", "p95", "p99", "max")
    cells = {name: [f"{row[c]:.3f}" for c in columns] for name, row in summary.items()}
    label = max([len("phase"), *(len(name) for name in summary)]) + 1
    widths = [
        1 + max([len(f"{c} ms"), *(len(cells[name][i]) for name in summary)])
        for i, c in enumerate(columns)
    ]
    lines = [
        "phase".ljust(label)
        + "".join(f"{c} ms".rjust(w) for c, w in zip(columns, widths, strict=True))
    ]
    for name, row in cells.items():
        lines.append(
            name.ljust(label) + "".join(v.rjust(w) for v, w in zip(row, widths, strict=True))
        )
    return "\n".join(lines)
