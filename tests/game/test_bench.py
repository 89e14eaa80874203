"""The profiling instruments run headless: F3 panel, --bench, --bench-sweep, --profile."""

from __future__ import annotations

import json
from pathlib import Path


def test_profiler_panel_draws_for_real_frames(run_main_here, tmp_path: Path) -> None:
    stats = tmp_path / "s.json"
    result = run_main_here(
        [
            "--scene",
            "crowd",
            "--headless",
            "--autopilot",
            "--frames",
            "20",
            "--characters",
            "50",
            "--show-profiler",
            "--stats",
            str(stats),
        ]
    )
    assert result.returncode == 0, result.stderr
    timing = json.loads(stats.read_text())["timing_ms"]
    assert timing["profiler"]["p50"] > 0.0  # the panel was drawn, and measured as its own phase


def test_bench_prints_the_phase_table_and_writes_stats(run_main_here, tmp_path: Path) -> None:
    stats = tmp_path / "bench.json"
    result = run_main_here(["--bench", "--scene", "lab", "--frames", "10", "--stats", str(stats)])
    assert result.returncode == 0, result.stderr
    for phase in ("input", "sim", "ik", "render", "overlay", "frame"):
        assert any(line.startswith(phase) for line in result.stdout.splitlines()), result.stdout
    assert json.loads(stats.read_text())["frames"] == 10


def test_bench_sweep_fits_cost_per_character_and_draws_a_chart(
    run_main_here, tmp_path: Path
) -> None:
    chart, out = tmp_path / "sweep.png", tmp_path / "sweep.json"
    result = run_main_here(
        [
            "--bench-sweep",
            "50,100",
            "--frames",
            "5",
            "--screenshot",
            str(chart),
            "--stats",
            str(out),
        ]
    )
    assert result.returncode == 0, result.stderr
    assert "µs/chr" in result.stdout
    assert chart.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    sweep = json.loads(out.read_text())
    assert [row["characters"] for row in sweep["rows"]] == [50, 100]
    assert set(sweep["us_per_character"]) >= {"sim", "ik", "render", "frame"}


def test_bench_sweep_rejects_a_single_size(run_main_here) -> None:
    result = run_main_here(["--bench-sweep", "50"])
    assert result.returncode == 2
    assert "at least two sizes" in result.stderr


def test_profile_prints_the_top_functions(run_main_here) -> None:
    result = run_main_here(["--profile", "--scene", "lab", "--frames", "10"])
    assert result.returncode == 0, result.stderr
    assert "cumulative" in result.stdout and "run_frame" in result.stdout
