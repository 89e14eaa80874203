"""Issue 14 items 8-9: a recording is input like an asset. Every malformed line is a clear
error (exit 2) naming the file, the line and what was expected; a replay refuses other
assets than recorded and flags that would be ignored."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from game.assets import assets_digest
from game.recording import read_recording
from game.scene import ASSETS_DIR

DIGEST = assets_digest(ASSETS_DIR)
HEADER = {"record": 2, "scene": "lab", "seed": 0, "hz": 60, "assets": DIGEST}
STEP = {"pointer": [1.0, 0.5], "pointer_down": True, "move": 0.0, "run": False, "climb": 0.0}


def _write(tmp_path: Path, *lines: object) -> Path:
    path = tmp_path / "bad.rec"
    path.write_text("".join((x if isinstance(x, str) else json.dumps(x)) + "\n" for x in lines))
    return path


@pytest.mark.parametrize(
    ("lines", "line", "words"),
    [
        ([{**HEADER, "scene": "moon"}], 1, '"scene": expected one of lab'),
        ([{**HEADER, "hz": 0}], 1, '"hz": expected a whole number from 10 to 1000, found 0'),
        ([{**HEADER, "hz": -60}], 1, '"hz": expected a whole number from 10 to 1000'),
        ([{**HEADER, "hz": 1000000}], 1, "found 1000000"),
        ([{**HEADER, "hz": 60.5}], 1, '"hz"'),
        ([{**HEADER, "seed": -5}], 1, '"seed": expected a whole number from 0'),
        ([{**HEADER, "seed": True}], 1, '"seed"'),
        ([{**HEADER, "record": 99}], 1, '"record": expected format 3'),
        ([{**HEADER, "assets": 7}], 1, '"assets": expected a 64-digit SHA-256'),
        ([HEADER, [1, 2, 3]], 2, "expected a JSON object, found a list of 3"),
        ([HEADER, {**STEP, "pointer": [1.0]}], 2, '"pointer": expected null or 2 or 3 numbers'),
        ([HEADER, {**STEP, "pointer": ["a", 1]}], 2, '"pointer"'),
        ([HEADER, {**STEP, "move": 1e300}], 2, '"move": expected a number in [-1, 1]'),
        ([HEADER, {**STEP, "run": "yes"}], 2, '"run": expected true or false'),
        ([HEADER, {**STEP, "actions": "flip"}], 2, '"actions"'),
        ([HEADER, {**STEP, "values": {"target_x": {"a": 1}}}], 2, '"values.target_x"'),
        ([HEADER, {**STEP, "teleport": 1}], 2, "unknown key 'teleport'"),
        ([HEADER, "{not json"], 2, "expected a JSON object"),
        ([HEADER, "[" * 100_000], 2, "expected a line of at most 65,536 characters"),
        ([HEADER, "[" * 30_000], 2, "expected a JSON object"),
        ([STEP], 1, "expected a recording header"),
        ([HEADER, STEP, {**HEADER, "hz": 30}], 3, "first header's seed, hz and assets"),
    ],
)
def test_a_malformed_recording_names_file_line_and_expectation(
    tmp_path: Path, lines: list[object], line: int, words: str
) -> None:
    path = _write(tmp_path, *lines)
    with pytest.raises(ValueError) as info:
        read_recording(path)
    message = str(info.value)
    assert message.startswith(f"{path}: line {line}: "), message
    assert words in message, message


def test_a_binary_file_is_named_with_its_line(tmp_path: Path) -> None:
    path = tmp_path / "noise.rec"
    path.write_bytes(json.dumps(HEADER).encode() + b"\n\x89PNG\xff\xfe\n")
    with pytest.raises(ValueError, match=rf"^{path}: line 2: expected UTF-8 text"):
        read_recording(path)


def test_an_empty_file_is_named(tmp_path: Path) -> None:
    path = _write(tmp_path)
    with pytest.raises(ValueError, match="empty file"):
        read_recording(path)


def test_a_good_recording_reads_back(tmp_path: Path) -> None:
    items = read_recording(_write(tmp_path, HEADER, STEP, STEP))
    assert len(items) == 3


def test_a_malformed_replay_exits_2_with_one_line(run_main, tmp_path: Path) -> None:
    path = _write(tmp_path, HEADER, {**STEP, "pointer": [1.0]})
    result = run_main(["--headless", "--replay", str(path)])
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    assert result.stderr.strip() == f'error: --replay: {path}: line 2: "pointer": ' + (
        "expected null or 2 or 3 numbers, found a list of 1"
    )


@pytest.mark.parametrize("flag", [["--scene", "walk"], ["--seed", "3"], ["--hz", "30"]])
def test_flags_a_replay_would_ignore_are_rejected(
    run_main, tmp_path: Path, flag: list[str]
) -> None:
    path = _write(tmp_path, HEADER, STEP)
    result = run_main(["--headless", "--replay", str(path), *flag])
    assert result.returncode == 2, result.stderr
    assert flag[0] in result.stderr and "--replay plays the scene, seed and hz" in result.stderr


def test_a_replay_with_other_assets_than_recorded_is_refused(run_main, tmp_path: Path) -> None:
    recording = tmp_path / "walk.rec"
    args = ["--headless", "--scene", "walk", "--autopilot", "--frames", "20"]
    assert run_main([*args, "--record", str(recording)]).returncode == 0
    assert read_recording(recording)[0].assets == DIGEST  # type: ignore[union-attr]
    same, other = tmp_path / "same", tmp_path / "other"
    shutil.copytree(ASSETS_DIR, same)
    shutil.copytree(ASSETS_DIR, other)
    rig = json.loads((other / "rig.json").read_text())
    rig["legs"]["upper"] = 0.5
    (other / "rig.json").write_text(json.dumps(rig))
    refused = run_main(["--headless", "--replay", str(recording), "--assets", str(other)])
    assert refused.returncode == 2, refused.stderr
    assert "recorded with other asset files" in refused.stderr and str(other) in refused.stderr
    same_run = run_main(["--headless", "--replay", str(recording), "--assets", str(same)])
    assert same_run.returncode == 0, same_run.stderr
