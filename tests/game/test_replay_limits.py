"""A hostile recording is refused quickly and clearly: a 400-digit number in any numeric
field, a 60,000-character string in any string field, and edited or swapped lines each end
the replay with exit 2 and one error line naming the line and the key, no traceback.

A recording is read before any window or frame, so each field's case runs ``main.py``'s
entry point in this process (``run_main_here``); one case of each kind also runs it as
its own process, the exit code and stderr as a user sees them."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import game.replay_feed
from game.assets import AssetSnapshot, assets_digest
from game.input_state import InputState
from game.recording import Recorder, read_recording
from game.recording_lines import FORMAT_VERSION, MAX_NAME_CHARS, seal
from game.scene import ASSETS_DIR

REPO = Path(__file__).resolve().parents[2]
DIGEST = assets_digest(ASSETS_DIR)
HUGE = int("9" * 400)
LONG = "x" * 60_000
EDITS = {  # every terrain edit's numeric arguments (game.scenes.ground_edit)
    "move": {"vertex": 3, "x": 1.0, "y": 0.2, "drag": 1},
    "insert": {"x": 1.0},
    "delete": {"vertex": 3},
    "stairs": {"x": 1.0, "rise": 0.15, "tread": 0.3, "count": 3},
    "ramp": {"x": 1.0, "grade": 10.0, "length": 2.0},
    "bump": {"x": 1.0, "height": 0.1, "width": 1.0},
    "platform": {"x": 1.0, "height": 0.1, "width": 1.0},
}
SETTINGS = {  # the numeric settings each scene's steps carry
    "lab": {"target_x": 1.0, "target_y": 0.5, "softness": 0.1},
    "swivel": {"twist": 0.3, "target": [0.5, 0.5, 0.2], "pole": [0.0, 1.0, 0.0]},
}

Lines = list[dict[str, Any]]


def _recording(
    scene: str, actions: tuple[str, ...] = (), values: dict[str, Any] | None = None
) -> Lines:
    """A header, one step and the end line."""
    header = {"record": FORMAT_VERSION, "scene": scene, "seed": 0, "hz": 60, "assets": DIGEST}
    pointer = (0.5, 0.5, 0.0) if scene == "swivel" else (0.5, 0.5)
    step = InputState(pointer, actions=actions, values=values or {}).to_json()
    return [{**header, "characters": None}, step, {"end": 1}]


def _write(path: Path, lines: Lines) -> Path:
    """The lines as a format-4 file, each sealed with its checksum."""
    previous, texts = "", []
    for obj in lines:
        text, previous = seal(previous, json.dumps(obj, separators=(",", ":")))
        texts.append(text + "\n")
    path.write_text("".join(texts))
    return path


def _at(*keys: str | int) -> Callable[[Lines, Any], None]:
    """Set ``value`` at ``keys`` (the first is the line index)."""

    def put(lines: Lines, value: Any) -> None:
        node: Any = lines
        for key in keys[:-1]:
            node = node[key]
        node[keys[-1]] = value

    return put


# (id, base recording, where the bad value goes, line number, the key the error names)
Case = tuple[str, Lines, Callable[[Lines, Any], None], int, str]

NUMBER_CASES: list[Case] = [
    *[
        (f"header-{key}", _recording("lab"), _at(0, key), 1, f'"{key}"')
        for key in ("record", "seed", "hz", "characters")
    ],
    ("pointer-x", _recording("lab"), _at(1, "pointer", 0), 2, '"pointer"'),
    ("pointer-y", _recording("walk"), _at(1, "pointer", 1), 2, '"pointer"'),
    ("pointer-z", _recording("swivel"), _at(1, "pointer", 2), 2, '"pointer"'),
    ("move", _recording("walk"), _at(1, "move"), 2, '"move"'),
    ("climb", _recording("walk"), _at(1, "climb"), 2, '"climb"'),
    *[
        (
            f"{scene}-{key}",
            _recording(scene, values=values),
            _at(1, "values", key),
            2,
            f'"values.{key}"',
        )
        for scene, values in SETTINGS.items()
        for key in values
    ],
    *[
        (
            f"swivel-{key}[{i}]",
            _recording("swivel", values=SETTINGS["swivel"]),
            _at(1, "values", key, i),
            2,
            f'"values.{key}"',
        )
        for key in ("target", "pole")
        for i in range(3)
    ],
    (
        "walk-put_down-place_x",
        _recording("walk", ("put_down",), {"place_x": 2.5}),
        _at(1, "values", "place_x"),
        2,
        '"values.place_x"',
    ),
    *[
        (
            f"edit-{op}-{key}",
            _recording("walk", ("terrain_edit",), {"op": op, **arguments}),
            _at(1, "values", key),
            2,
            f'"values.{key}"',
        )
        for op, arguments in EDITS.items()
        for key in arguments
    ],
    ("end", _recording("lab"), _at(2, "end"), 3, '"end"'),
]


def _with_line(lines: Lines, index: int, line: dict[str, Any]) -> Lines:
    return [*lines[:index], line, *lines[index:]]


WALK = _recording("walk")
READS = _with_line(WALK, 1, {"reads": {"terrain.json": "0" * 64}})
RELOAD = _with_line(WALK, 1, {"reload": {"rig.json": "{}"}, "assets": ""})


def _reload_text(lines: Lines, value: Any) -> None:
    files = {name: (ASSETS_DIR / name).read_text() for name in ("terrain.json", "props.json")}
    files["rig.json"] = value
    lines[1] = {"reload": files, "assets": AssetSnapshot(files).digest}


def _setting_name(lines: Lines, value: Any) -> None:
    lines[1]["values"][value] = 1.0


def _unknown_key(index: int) -> Callable[[Lines, Any], None]:
    def put(lines: Lines, value: Any) -> None:
        lines[index][value] = 1

    return put


def _reads_name(lines: Lines, value: Any) -> None:
    lines[1] = {"reads": {value: "0" * 64}}


def _reload_name(lines: Lines, value: Any) -> None:
    files = {value: "{}"}
    lines[1] = {"reload": files, "assets": AssetSnapshot(files).digest}


STRING_CASES: list[Case] = [
    ("header-scene", _recording("lab"), _at(0, "scene"), 1, '"scene"'),
    ("header-assets", _recording("lab"), _at(0, "assets"), 1, '"assets"'),
    ("action", _recording("walk", ("toggle_edit",)), _at(1, "actions", 0), 2, '"actions[0]"'),
    *[
        (
            f"walk-{key}",
            _recording("walk", actions, {key: "cup"}),
            _at(1, "values", key),
            2,
            f'"values.{key}"',
        )
        for actions, key in (
            (("terrain_edit",), "op"),
            (("reach_prop",), "prop"),
            ((), "drag_foot"),
        )
    ],
    (
        "setting-name",
        _recording("lab"),
        _setting_name,
        2,
        '"values": expected setting names',
    ),
    ("step-key", _recording("lab"), _unknown_key(1), 2, "unknown key 'xxxx"),
    ("end-key", _recording("lab"), _unknown_key(2), 3, "unknown key 'xxxx"),
    ("reads-name", READS, _reads_name, 2, '"reads"'),
    ("reads-sha", READS, _at(1, "reads", "terrain.json"), 2, '"reads"'),
    ("reload-name", RELOAD, _reload_name, 2, '"reload"'),
    ("reload-key", RELOAD, _unknown_key(1), 2, "unknown key 'xxxx"),
    ("reload-text", RELOAD, _reload_text, 2, "rig.json: invalid JSON"),
]


def _check_refused(run: Callable[..., Any], path: Path, line: int, key: str) -> None:
    """``run`` (``run_main`` or ``run_main_here``) replays ``path``: exit 2 and one short
    error line naming ``path``, ``line`` and ``key``, no traceback."""
    start = time.perf_counter()
    result = run(["--headless", "--replay", str(path)])
    seconds = time.perf_counter() - start  # printed with -s, never asserted
    print(f"{path.name}: exit {result.returncode} in {seconds:.2f} s")
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr, result.stderr
    errors = [text for text in result.stderr.splitlines() if text.startswith("error:")]
    assert len(errors) == 1 and len(errors[0]) < 600, result.stderr[:2000]
    assert f"{path}: line {line}: " in errors[0], errors[0]
    assert key in errors[0], errors[0]


@pytest.mark.parametrize(
    ("name", "lines", "put", "line", "key"), NUMBER_CASES, ids=[c[0] for c in NUMBER_CASES]
)
def test_a_400_digit_number_in_any_field_is_refused_naming_line_and_key(
    run_main_here, tmp_path: Path, name: str, lines: Lines, put: Any, line: int, key: str
) -> None:
    lines = json.loads(json.dumps(lines))
    put(lines, HUGE)
    _check_refused(run_main_here, _write(tmp_path / f"{name}.rec", lines), line, key)


@pytest.mark.parametrize(
    ("name", "lines", "put", "line", "key"), STRING_CASES, ids=[c[0] for c in STRING_CASES]
)
def test_a_60000_character_string_in_any_field_is_refused_naming_line_and_key(
    run_main_here, tmp_path: Path, name: str, lines: Lines, put: Any, line: int, key: str
) -> None:
    lines = json.loads(json.dumps(lines))
    put(lines, LONG)
    _check_refused(run_main_here, _write(tmp_path / f"{name}.rec", lines), line, key)


@pytest.mark.parametrize(
    ("case", "value"), [(NUMBER_CASES[0], HUGE), (STRING_CASES[0], LONG)], ids=["number", "string"]
)
def test_a_hostile_recording_ends_the_process_with_exit_2_and_one_error_line(
    run_main, tmp_path: Path, case: Case, value: Any
) -> None:
    name, lines, put, line, key = case
    lines = json.loads(json.dumps(lines))
    put(lines, value)
    _check_refused(run_main, _write(tmp_path / f"{name}.rec", lines), line, key)


def test_the_cases_cover_every_numeric_setting_the_scenes_read() -> None:
    covered = {key for _, lines, *_ in NUMBER_CASES for key in lines[1].get("values", {})}
    assert covered >= {"target_x", "target_y", "softness", "twist", "target", "pole", "place_x"}
    assert covered >= {key for arguments in EDITS.values() for key in arguments}


# -- the checksum chain --------------------------------------------------------------------


def _steps(count: int) -> Lines:
    lines = _recording("walk")
    steps = [InputState(move=i / count).to_json() for i in range(count)]
    return [lines[0], *steps, {"end": count}]


def test_a_sealed_recording_reads_back(tmp_path: Path) -> None:
    items = read_recording(_write(tmp_path / "good.rec", _steps(4)))
    assert [item.move for item in items[1:]] == [0.0, 0.25, 0.5, 0.75]  # type: ignore[union-attr]


def _refused_at(path: Path) -> tuple[int, str]:
    with pytest.raises(ValueError) as info:
        read_recording(path)
    message = str(info.value)
    assert message.startswith(f"{path}: line "), message
    return int(message[len(f"{path}: line ") :].split(":")[0]), message


def test_swapped_step_lines_are_refused_naming_the_first(tmp_path: Path) -> None:
    path = _write(tmp_path / "run.rec", _steps(4))
    lines = path.read_text().splitlines()
    lines[2], lines[3] = lines[3], lines[2]
    path.write_text("\n".join(lines) + "\n")
    line, message = _refused_at(path)
    assert line == 3 and '"sum": the checksum does not match' in message, message


@pytest.mark.parametrize("change", ["edit", "remove", "insert", "header"])
def test_an_edited_removed_or_inserted_line_is_refused_naming_it(
    tmp_path: Path, change: str
) -> None:
    path = _write(tmp_path / "run.rec", _steps(4))
    lines = path.read_text().splitlines()
    if change == "edit":
        lines[2] = lines[2].replace('"move":0.25', '"move":0.75')
        expected = 3
    elif change == "remove":
        del lines[2]
        expected = 3
    elif change == "insert":
        lines.insert(2, lines[1])
        expected = 3
    else:
        lines[0] = lines[0].replace('"seed":0', '"seed":1')
        expected = 1
    path.write_text("\n".join(lines) + "\n")
    line, message = _refused_at(path)
    assert line == expected and "checksum" in message, message


def test_a_line_without_its_checksum_in_a_sealed_recording_is_refused(tmp_path: Path) -> None:
    path = _write(tmp_path / "run.rec", _steps(2))
    lines = path.read_text().splitlines()
    lines[1] = json.dumps(InputState().to_json(), separators=(",", ":"))
    path.write_text("\n".join(lines) + "\n")
    line, message = _refused_at(path)
    assert line == 2 and 'expected the line to end with its checksum ,"sum":"' in message


def test_a_format_3_recording_has_no_checksum_and_still_reads(tmp_path: Path) -> None:
    lines = _steps(2)
    lines[0]["record"] = 3
    path = tmp_path / "old.rec"
    path.write_text("".join(json.dumps(obj) + "\n" for obj in lines))
    assert len(read_recording(path)) == 3


def test_the_recorder_seals_every_line(run_main_here, tmp_path: Path) -> None:
    recording = tmp_path / "run.rec"
    args = ["--headless", "--scene", "walk", "--autopilot", "--frames", "5"]
    assert run_main_here([*args, "--record", str(recording)]).returncode == 0
    lines = recording.read_text().splitlines()
    assert len(lines) == 7 and all('"sum":"' in line[-26:] for line in lines)
    assert len(read_recording(recording)) == 6


# -- signals during a replay -----------------------------------------------------------------


def _replay_then_signal(path: Path, sig: signal.Signals, when: Callable[[], bool]) -> str:
    """Replay ``path`` in a child, send ``sig`` once ``when()`` holds; its stderr (the exit
    code checked to be 128 + ``sig``)."""
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    trace = path.with_suffix(".jsonl")
    proc = subprocess.Popen(
        [sys.executable, str(REPO / "main.py"), "--headless", "--replay", str(path)]
        + ["--trace", str(trace)],
        cwd=REPO,
        env=env,
        # as from a terminal: a suite started in the background runs with SIGINT ignored
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 60
        while not when() and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.01)
        assert proc.poll() is None, proc.communicate()
        sent = time.perf_counter()
        proc.send_signal(sig)
        _, err = proc.communicate(timeout=30)
        print(f"{sig.name}: stopped {time.perf_counter() - sent:.2f} s after the signal")
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 128 + sig, err
    assert "Traceback" not in err, err
    return err


def _edits(path: Path, steps: int) -> Path:
    """A walk recording whose every step edits the ground with the longest op name a
    recording may hold: refused edits, each with its message on the HUD."""
    step = InputState(actions=("terrain_edit",), values={"op": "z" * MAX_NAME_CHARS})
    recorder = Recorder(path)
    recorder.scene("walk", 0, 60)
    for _ in range(steps):
        recorder.step(step)
    recorder.close()
    return path


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_a_replay_stops_on_sigterm_and_ctrl_c_between_steps(
    tmp_path: Path, sig: signal.Signals
) -> None:
    path = _edits(tmp_path / "edits.rec", 20_000)
    trace = path.with_suffix(".jsonl")
    err = _replay_then_signal(path, sig, lambda: trace.exists() and trace.stat().st_size > 50_000)
    assert f"interrupted ({sig.name}): outputs were written" in err, err


def test_ctrl_c_while_a_recording_is_read_ends_without_a_traceback(
    run_main_here, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _edits(tmp_path / "edits.rec", 3)

    def interrupted(path: Path) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(game.replay_feed, "read_recording", interrupted)
    result = run_main_here(["--headless", "--replay", str(path)])
    assert result.returncode == 130
    assert result.stderr == f"interrupted (SIGINT) while reading {path}\n"
