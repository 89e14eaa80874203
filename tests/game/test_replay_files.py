"""A recording is input like an asset. Every malformed line is a clear error (exit 2)
naming the file, the line and what was expected; a replay refuses other assets than
recorded and flags that would be ignored."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pygame
import pytest

import game
from game.assets import assets_digest
from game.input_state import ACTIONS, POINTER_LIMIT_M, InputState
from game.options import RunOptions
from game.recording import read_recording
from game.scene import ASSETS_DIR, SceneConfig

DIGEST = assets_digest(ASSETS_DIR)
HEADER = {"record": 2, "scene": "lab", "seed": 0, "hz": 60, "assets": DIGEST}
STEP = {"pointer": [1.0, 0.5], "pointer_down": True, "move": 0.0, "run": False, "climb": 0.0}
V3 = {**HEADER, "record": 3}


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
        ([{**HEADER, "record": 99}], 1, '"record": expected format 4'),
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
        (
            [HEADER, {**STEP, "actions": ["teleport"]}],
            2,
            "\"actions[0]\": unknown action 'teleport'",
        ),
        ([HEADER, {**STEP, "pointer": [1.7e308, 0.0]}], 2, '"pointer": expected coordinates from'),
        ([HEADER, {**STEP, "pointer": [0.0, -1e7]}], 2, "-1,000,000 to 1,000,000 (metres)"),
        ([HEADER, '{"pointer": [NaN, 0]}'], 2, '"pointer": expected coordinates'),
        ([V3, STEP], 2, 'expected the end line {"end": 1} after it'),
        ([V3, STEP, {"end": 2}], 3, '"end": expected 1 (the steps before it), found 2'),
        ([V3, STEP, {"end": 1}, STEP], 4, "expected nothing after the end line (line 3)"),
        ([V3, STEP, {"end": 1, "x": 0}], 3, "unknown key 'x' in the end line"),
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


@pytest.mark.parametrize("lines", [[HEADER], [V3, {"end": 0}]])
def test_a_recording_without_steps_is_refused_not_played_as_nothing(
    tmp_path: Path, lines: list[object]
) -> None:
    path = _write(tmp_path, *lines)
    with pytest.raises(ValueError) as info:
        read_recording(path)
    assert str(info.value) == (
        f"{path}: expected at least one step after the header, found none: nothing to "
        "replay (a recording cut short, or quit before its first step)"
    )


def test_a_recording_the_app_writes_ends_with_its_step_count(run_main_here, tmp_path: Path) -> None:
    recording = tmp_path / "run.rec"
    args = ["--headless", "--scene", "lab", "--autopilot", "--frames", "7"]
    assert run_main_here([*args, "--record", str(recording)]).returncode == 0
    lines = recording.read_text().splitlines()
    assert json.loads(lines[-1])["end"] == 7 and len(lines) == 9
    cut = tmp_path / "cut.rec"
    cut.write_text("\n".join(lines[:-1]) + "\n")  # cut exactly at a line boundary
    result = run_main_here(["--headless", "--replay", str(cut)])
    assert result.returncode == 2
    assert result.stderr.strip() == (
        f'error: --replay: {cut}: line 8: expected the end line {{"end": 7}} after it '
        "(a format-4 recording ends with one: this one is cut short)"
    )


def test_a_wild_pointer_is_recorded_within_the_bound_and_replays(
    headless_app, tmp_path: Path
) -> None:
    """The app clamps a step's pointer to the bound the reader enforces, so what it
    records always replays (every scene clamps far tighter, so the run is unchanged)."""
    wild = InputState(pointer=(1e300, -(2.0**31)), actions=("pointer_moved",))
    assert wild.bounded().pointer == (POINTER_LIMIT_M, -POINTER_LIMIT_M)
    assert InputState(pointer=(1.0, 2.0)).bounded() == InputState(pointer=(1.0, 2.0))
    recording = tmp_path / "wild.rec"
    options = RunOptions(scene="lab", headless=True, size=(960, 540), record=recording)
    config = SceneConfig()
    with headless_app(options, config) as app:
        for x in (2**31 - 1, -(2**31), 100):
            pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(x, 0), rel=(0, 0)))
            pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(x, 0), button=1))
            app.run_frame(config.dt)
    steps = [item for item in read_recording(recording) if isinstance(item, InputState)]
    pointers = [step.pointer for step in steps]
    assert pointers[0] is not None and pointers[0][0] == POINTER_LIMIT_M, pointers
    assert pointers[1] is not None and pointers[1][0] == -POINTER_LIMIT_M, pointers


def test_every_action_a_scene_emits_or_acts_on_is_a_known_action() -> None:
    """The reader refuses unknown actions; every one the code uses must be known."""
    used: set[str] = set()
    for source in (Path(game.__file__).parent).rglob("*.py"):
        text = source.read_text()
        used |= set(re.findall(r'"(\w+)" in inp\.actions', text))
        used |= set(re.findall(r'inp\.toggles\("(\w+)"\)', text))
        used |= set(re.findall(r'\("\w", "(\w+)"\)', text))  # (key, action) pairs
        used |= set(re.findall(r'\["(\w+)"\] \* ', text))  # one action per press
        used |= set(re.findall(r'actions\.append\("(\w+)"\)', text))
        used |= set(re.findall(r'actions=\("(\w+)"', text))
        used |= set(re.findall(r'\("(\w+)", "\w+", [^)]*\)', text)) & {"reach_prop", "put_down"}
    assert len(used) >= 10
    assert used <= ACTIONS, used - ACTIONS


def test_a_good_recording_reads_back(tmp_path: Path) -> None:
    items = read_recording(_write(tmp_path, HEADER, STEP, STEP))
    assert len(items) == 3


def test_a_malformed_replay_exits_2_with_one_line(run_main_here, tmp_path: Path) -> None:
    path = _write(tmp_path, HEADER, {**STEP, "pointer": [1.0]})
    result = run_main_here(["--headless", "--replay", str(path)])
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    assert result.stderr.strip() == f'error: --replay: {path}: line 2: "pointer": ' + (
        "expected null or 2 or 3 numbers, found a list of 1"
    )


@pytest.mark.parametrize("flag", [["--scene", "walk"], ["--seed", "3"], ["--hz", "30"]])
def test_flags_a_replay_would_ignore_are_rejected(
    run_main_here, tmp_path: Path, flag: list[str]
) -> None:
    path = _write(tmp_path, HEADER, STEP)
    result = run_main_here(["--headless", "--replay", str(path), *flag])
    assert result.returncode == 2, result.stderr
    assert flag[0] in result.stderr and "--replay plays the scene, seed and hz" in result.stderr


def test_a_replay_with_other_assets_than_recorded_is_refused(run_main_here, tmp_path: Path) -> None:
    recording = tmp_path / "walk.rec"
    args = ["--headless", "--scene", "walk", "--autopilot", "--frames", "20"]
    assert run_main_here([*args, "--record", str(recording)]).returncode == 0
    assert read_recording(recording)[0].assets == DIGEST  # type: ignore[union-attr]
    same, other = tmp_path / "same", tmp_path / "other"
    shutil.copytree(ASSETS_DIR, same)
    shutil.copytree(ASSETS_DIR, other)
    rig = json.loads((other / "rig.json").read_text())
    rig["legs"]["upper"] = 0.5
    (other / "rig.json").write_text(json.dumps(rig))
    refused = run_main_here(["--headless", "--replay", str(recording), "--assets", str(other)])
    assert refused.returncode == 2, refused.stderr
    assert "recorded with other asset files" in refused.stderr and str(other) in refused.stderr
    same_run = run_main_here(["--headless", "--replay", str(recording), "--assets", str(same)])
    assert same_run.returncode == 0, same_run.stderr
