"""The timer's memory is bounded, whole-run percentiles come from a streaming summary,
and the summary table's columns never run together."""

from __future__ import annotations

import numpy as np
import pytest

from game.profiling import HISTORY_FRAMES, PhaseTimer, StreamingQuantiles, format_summary


def _run(timer: PhaseTimer, frame_seconds: list[float]) -> None:
    for seconds in frame_seconds:
        timer.current["sim"] = seconds / 2
        timer.end_frame(seconds)


def test_history_stays_bounded_over_a_long_run() -> None:
    timer = PhaseTimer()
    _run(timer, [0.01] * 20_000)
    assert HISTORY_FRAMES <= len(timer.history) < 2 * HISTORY_FRAMES
    assert timer.frames == 20_000


def test_whole_run_percentiles_include_frames_long_gone_from_the_window() -> None:
    rng = np.random.default_rng(3)
    early = rng.uniform(0.020, 0.040, 3_000).tolist()  # a slow start, then faster frames
    late = rng.uniform(0.001, 0.030, 7_000).tolist()
    timer = PhaseTimer()
    _run(timer, early + late)
    summary = timer.summary_ms()["frame"]
    exact = np.percentile(np.array(early + late) * 1e3, [50, 95, 99])
    assert [summary["p50"], summary["p95"], summary["p99"]] == pytest.approx(exact, rel=0.015)
    assert summary["max"] == pytest.approx(max(early) * 1e3, abs=1e-4)


def test_skip_leaves_out_the_warm_up_frames() -> None:
    timer = PhaseTimer()
    _run(timer, [5.0] + [0.001] * 99)
    assert timer.summary_ms(skip=1)["frame"]["max"] == pytest.approx(1.0)
    assert timer.summary_ms()["frame"]["max"] == pytest.approx(5000.0)


def test_a_constant_duration_comes_back_exactly() -> None:
    q = StreamingQuantiles()
    for _ in range(100):
        q.add(0.0123)
    assert [q.percentile(p) for p in (0, 50, 100)] == [0.0123] * 3


def test_summary_columns_stay_apart_for_values_of_ten_thousand_ms_and_more() -> None:
    row = {"p50": 12345.678, "p95": 99999.999, "p99": 123456.789, "max": 1234567.891}
    text = format_summary({"frame": row, "ik": row})
    header, *lines = text.splitlines()
    for line in lines:
        fields = line.split()
        assert fields[1:] == ["12345.678", "99999.999", "123456.789", "1234567.891"], line
    assert len(header.split()) == 9  # "phase" and four "pNN ms" headings
    assert all(len(line) == len(header) for line in lines)
