"""``tools/feel_report.py`` on traces a play session writes: several scenes, bad lines."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
REPORT = ROOT / "tools" / "feel_report.py"


def _report(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(REPORT), *args], capture_output=True, text=True, timeout=120
    )


@pytest.fixture(scope="module")
def walk_lines(
    tmp_path_factory: pytest.TempPathFactory, run_main_here: Callable[..., Any]
) -> list[str]:
    """A short autopilot walk's trace lines (header first)."""
    out = tmp_path_factory.mktemp("trace") / "walk.jsonl"
    args = ["--scene", "walk", "--headless", "--autopilot", "--frames", "90", "--trace", str(out)]
    assert run_main_here(args).returncode == 0
    return out.read_text().splitlines()


def test_a_trace_that_switched_scenes_is_measured_walk_segment_by_segment(
    walk_lines: list[str], tmp_path: Path
) -> None:
    # a session's trace holds one header per scene switch; --worst names the trace's own
    # step numbers, not the row within the segment
    header, steps = walk_lines[0], walk_lines[1:]
    resumed = []
    for line in steps:  # the walk scene resumes its step count after the lab
        step = json.loads(line)
        step["step"] += 5000
        resumed.append(json.dumps(step))
    lab = json.dumps({"scene": "lab", "dt": 1 / 60, "terrain": None, "limbs": []})
    trace = tmp_path / "session.jsonl"
    trace.write_text("\n".join([header, *steps, lab, '{"step": 1, "t": 0.0}', header, *resumed]))
    done = _report(str(trace), "--worst")
    assert done.returncode == 0, done.stderr
    assert "walk segment 1 (steps 1-90)" in done.stdout
    assert "walk segment 2 (steps 5001-5090)" in done.stdout
    second = done.stdout.split("walk segment 2")[1]
    worst = [line for line in second.splitlines() if "max_joint_jump_m" in line][0]
    assert int(worst.split("(step ")[1].rstrip(") |")) > 5000  # the trace's own numbering


def test_markdown_prints_every_figure_as_a_table_row_with_its_unit(
    walk_lines: list[str], tmp_path: Path
) -> None:
    trace = tmp_path / "walk.jsonl"
    trace.write_text("\n".join(walk_lines))
    plain, table = _report(str(trace)), _report(str(trace), "--markdown")
    assert plain.returncode == 0 and table.returncode == 0, plain.stderr + table.stderr
    rows = table.stdout.splitlines()
    assert rows[0] == "| figure | value | meaning |" and rows[1].startswith("|---")
    names = [line.split()[0] for line in plain.stdout.splitlines()]
    assert len(rows) == 2 + len(names)  # one row per figure of the plain report
    assert all(row.startswith("| ") and row.count(" | ") == 2 for row in rows[2:])
    assert any(row.startswith("| sole penetration, worst |") and " mm |" in row for row in rows)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", "no walk-scene steps"),
        ("not json\n", ":1: not a trace line"),
        ('{"step": 1}\n', ":1: a step before"),
    ],
)
def test_a_file_that_is_no_walk_trace_is_named_with_its_line(
    tmp_path: Path, text: str, expected: str
) -> None:
    trace = tmp_path / "bad.jsonl"
    trace.write_text(text)
    done = _report(str(trace))
    assert done.returncode != 0 and expected in done.stderr
    assert "Traceback" not in done.stderr
