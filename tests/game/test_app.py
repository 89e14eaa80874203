"""The real app, headless, for real frames: every scene, the output formats, determinism."""

from __future__ import annotations

import gc
import json
import math
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from game import app as app_module
from game import cli, scenes
from game.recording import read_recording
from game.scenes.walk3d_trace import read_trace

REPO = Path(__file__).resolve().parents[2]

PHASES = ("input", "sim", "ik", "render", "overlay", "frame")


def _numbers(value: Any) -> list[float]:
    return [float(v) for v in value]


def check_trace(path: Path, scene: str) -> list[dict[str, Any]]:
    """Assert the fixed trace format; return the step records."""
    if scene == "walk3d":  # the 3-D trace contract, checked by its reader
        return read_trace(path)[1]
    lines = path.read_text().splitlines()
    header = json.loads(lines[0])
    assert set(header) == {"scene", "dt", "terrain", "limbs"}
    assert header["scene"] == scene
    assert isinstance(header["dt"], float) and header["dt"] > 0
    if header["terrain"] is not None:
        assert all(len(p) == 2 for p in header["terrain"])
    for limb in header["limbs"].values():
        assert set(limb) == {"upper", "lower"} and limb["upper"] > 0 and limb["lower"] > 0
    steps = [json.loads(line) for line in lines[1:]]
    assert steps, "no steps traced"
    for number, rec in enumerate(steps, start=1):
        assert set(rec) - {"props"} == {"step", "t", "characters"}
        if "props" in rec:  # the walk's moving props: name → centre [x, y]
            assert all(len(_numbers(c)) == 2 for c in rec["props"].values())
        assert rec["step"] == number
        assert rec["t"] == pytest.approx(number * header["dt"], abs=1e-6)
        for char in rec["characters"]:
            assert set(char) - {"spin"} == {"id", "pelvis", "facing", "limbs", "pointer"}
            assert -1.0 <= char.get("spin", 1.0) <= 1.0  # walking characters: facing as it turns
            assert char["pointer"] is None or len(_numbers(char["pointer"])) == 2
            assert isinstance(char["id"], int)
            assert char["facing"] in (1, -1)
            assert char["pelvis"] is None or len(char["pelvis"]) == 2
            for name, limb in char["limbs"].items():
                assert name in header["limbs"]
                # a walking leg (one with a plant state) also has its sole's points
                leg = limb.get("planted") is not None
                base = {"root", "mid", "end", "target", "pole", "planted"}
                assert set(limb) == base | ({"foot"} if leg else set())
                if leg:
                    for point in (limb["foot"][k] for k in ("heel", "ball", "toe")):
                        assert len(point) == 2 and all(math.isfinite(v) for v in point)
                dims = len(limb["root"])
                assert dims in (2, 3)
                for key in ("root", "mid", "end", "target"):
                    values = _numbers(limb[key])
                    assert len(values) == dims and all(math.isfinite(v) for v in values)
                assert limb["pole"] is None or len(limb["pole"]) == dims
                assert limb["planted"] in (None, True, False)
    return steps


def check_stats(path: Path, scene: str, frames: int) -> dict[str, Any]:
    stats = json.loads(path.read_text())
    assert stats["frames"] == frames
    assert stats["steps"] == frames  # headless: one fixed step per rendered frame
    assert stats["scene"] == scene
    assert set(stats["ik"]) >= {"solves", "nan", "reached_fraction"}
    assert stats["ik"]["solves"] > 0 and stats["ik"]["nan"] == 0
    assert 0.0 <= stats["ik"]["reached_fraction"] <= 1.0
    for phase in PHASES:
        row = stats["timing_ms"][phase]
        assert set(row) >= {"p50", "p95", "p99", "max"}
        assert 0.0 <= row["p50"] <= row["p95"] <= row["p99"] <= row["max"]
    return stats


@pytest.mark.parametrize("scene", scenes.available())
def test_each_scene_runs_120_frames_with_valid_outputs_and_a_rerun_traces_the_same_steps(
    run_main, run_main_here, tmp_path: Path, scene: str
) -> None:
    # a run is deterministic: the rerun, in this process (other modules imported, other
    # runs before it) and stopped at 60 frames, traces the first run's first 60 steps
    trace, stats, shot = (tmp_path / name for name in ("t.jsonl", "s.json", "s.png"))
    args = ["--scene", scene, "--headless", "--autopilot", "--seed", "7"]
    result = run_main(
        [*args, "--frames", "120", "--trace", str(trace), "--stats", str(stats)]
        + ["--screenshot", str(shot)]
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert len(check_trace(trace, scene)) == 120
    check_stats(stats, scene, 120)
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    rerun = tmp_path / "rerun.jsonl"
    result = run_main_here([*args, "--frames", "60", "--trace", str(rerun)])
    assert result.returncode == 0, result.stdout + result.stderr
    assert rerun.read_text().splitlines() == trace.read_text().splitlines()[:61]


def test_plain_main_without_a_display_plays_the_default_scene_and_writes_a_screenshot(
    run_main_here, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the documented 600 frames are what the options say; the run itself plays 60 of them
    # (every frame past the first takes the same path)
    monkeypatch.chdir(tmp_path)  # where the fallback's screenshot folder is made
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    assert cli.parse([]).frames == cli.HEADLESS_DEFAULT_FRAMES == 600
    monkeypatch.setattr(cli, "HEADLESS_DEFAULT_FRAMES", 60)
    result = run_main_here([], cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("No display found")
    default = scenes.default_scene()
    shot = tmp_path / "screenshots" / f"{default}.png"
    assert shot.is_file()
    assert f"Screenshot written to {Path('screenshots') / f'{default}.png'}" in result.stdout
    assert "60 frames" in result.stdout
    assert "p50 ms" in result.stdout and "frame" in result.stdout


def test_a_session_plays_with_fewer_collections_and_leaves_the_collector_as_it_was(
    run_main_here, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[tuple[int, ...]] = []
    monkeypatch.setattr(app_module, "run_to_the_end", _watching_threshold(seen))
    before = gc.get_threshold()
    result = run_main_here(["--scene", "lab", "--headless", "--frames", "3"])
    assert result.returncode == 0, result.stderr
    assert seen == [(app_module.FRAME_GC_THRESHOLD, *before[1:])]
    assert gc.get_threshold() == before


def _watching_threshold(seen: list[tuple[int, ...]]) -> Any:
    """``game.app.run_to_the_end`` noting the collector's thresholds it plays under."""
    run = app_module.run_to_the_end

    def watched(app: Any) -> Any:
        seen.append(gc.get_threshold())
        return run(app)

    return watched


def test_record_then_replay_gives_a_byte_identical_trace(run_main_here, tmp_path: Path) -> None:
    recording, first, second = tmp_path / "run.rec", tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    scene = scenes.default_scene()
    result = run_main_here(
        [
            "--scene",
            scene,
            "--headless",
            "--autopilot",
            "--frames",
            "150",
            "--seed",
            "3",
            "--record",
            str(recording),
            "--trace",
            str(first),
        ]
    )
    assert result.returncode == 0, result.stderr
    assert not list(tmp_path.glob(".*.tmp")), "temporary recording left behind"
    result = run_main_here(["--headless", "--replay", str(recording), "--trace", str(second)])
    assert result.returncode == 0, result.stderr
    assert first.read_bytes() == second.read_bytes()


def test_malformed_recording_is_rejected_with_file_and_line(run_main_here, tmp_path: Path) -> None:
    bad = tmp_path / "bad.rec"
    bad.write_text('{"record": 1, "scene": "lab", "seed": 0, "hz": 60}\n{not json\n')
    result = run_main_here(["--headless", "--replay", str(bad)])
    assert result.returncode == 2
    assert "bad.rec: line 2" in result.stdout + result.stderr


def test_ctrl_c_still_leaves_a_complete_recording(tmp_path: Path) -> None:
    recording = tmp_path / "run.rec"
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    args = ["--scene", "lab", "--headless", "--autopilot", "--frames", "1000000"]
    proc = subprocess.Popen(
        [sys.executable, str(REPO / "main.py"), *args, "--record", str(recording)],
        cwd=REPO,
        env=env,
        # as from a terminal: a suite started in the background (`pytest &` from a script)
        # runs with SIGINT ignored, which the child inherits: it would never see the Ctrl-C
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 60
        while not list(tmp_path.glob(".run.rec.*.tmp")) and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(1.5)  # let it record some steps
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:  # a failed check leaves no app running a million frames
            proc.kill()
            proc.communicate()
    assert proc.returncode == 130, err
    items = read_recording(recording)
    assert len(items) > 10
    assert not list(tmp_path.glob(".*.tmp"))
