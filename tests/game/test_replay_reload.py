"""A live asset reload (F5) is part of the recording: the replay loads the files F5 read
at the same step, whatever the assets folder holds by then, so the trace is the same."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from game.assets import AssetSnapshot, assets_digest
from game.input_state import InputState
from game.options import RunOptions
from game.recording import read_recording
from game.recording_lines import AssetReload, ReadCheck
from game.scene import ASSETS_DIR, SceneConfig

DIGEST = assets_digest(ASSETS_DIR)
HEADER = {"record": 3, "scene": "walk", "seed": 0, "hz": 60, "assets": DIGEST}
STEP = {"pointer": None, "pointer_down": False, "move": 0.5, "run": False, "climb": 0.0}
RIG_TEXT = (ASSETS_DIR / "rig.json").read_text()


def _reload_line(files: dict[str, str]) -> dict[str, object]:
    return {"reload": files, "assets": AssetSnapshot(files).digest}


def _record_with_f5(headless_app: Any, folder: Path, recording: Path, trace: Path) -> None:
    """30 autopilot frames, an edit of legs.upper, F5, 60 more frames; then the edit is
    undone on disk (the folder is as it was when the recording started)."""
    options = RunOptions(
        scene="walk",
        headless=True,
        autopilot=True,
        size=(800, 450),
        record=recording,
        trace=trace,
        assets=folder,
    )
    config = SceneConfig(assets_dir=folder)
    with headless_app(options, config) as app:
        for _ in range(30):
            app.run_frame(config.dt)
        rig = json.loads(RIG_TEXT)
        rig["legs"]["upper"] = 0.5
        (folder / "rig.json").write_text(json.dumps(rig))
        app.reload_assets()
        assert app.message == "assets reloaded: footsteps from 0"
        for _ in range(60):
            app.run_frame(config.dt)
    (folder / "rig.json").write_text(RIG_TEXT)


def test_a_replay_loads_the_assets_f5_read_at_the_same_step(
    run_main_here, headless_app, tmp_path: Path
) -> None:
    folder, recording = tmp_path / "assets", tmp_path / "run.rec"
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    shutil.copytree(ASSETS_DIR, folder)
    _record_with_f5(headless_app, folder, recording, first)
    items = read_recording(recording)
    reloads = [(i, item) for i, item in enumerate(items) if isinstance(item, AssetReload)]
    assert len(reloads) == 1
    index, reload = reloads[0]
    assert index == 31  # the header, 30 steps, then the reload
    assert json.loads(reload.snapshot.files["rig.json"])["legs"]["upper"] == 0.5
    assert set(reload.snapshot.files) == {"rig.json", "terrain.json", "props.json"}
    result = run_main_here(
        ["--headless", "--replay", str(recording), "--assets", str(folder), "--trace", str(second)]
    )
    assert result.returncode == 0, result.stderr
    assert first.read_bytes() == second.read_bytes()


def test_an_f5_error_names_the_file_in_the_assets_folder(headless_app, tmp_path: Path) -> None:
    folder = tmp_path / "assets"
    shutil.copytree(ASSETS_DIR, folder)
    options = RunOptions(scene="walk", headless=True, size=(800, 450), assets=folder)
    config = SceneConfig(assets_dir=folder)
    with headless_app(options, config) as app:
        (folder / "rig.json").write_text("{ not json")
        app.reload_assets()
        assert app.message.startswith(f"F5: {folder / 'rig.json'}: invalid JSON"), app.message
        (folder / "terrain.json").unlink()
        (folder / "rig.json").write_text(RIG_TEXT)
        app.reload_assets()
        assert app.message.startswith(f"F5: {folder / 'terrain.json'}: file not found")


def test_f5_is_off_during_a_replay(headless_app, tmp_path: Path) -> None:
    recording = tmp_path / "run.rec"
    end = json.dumps({"end": 5}) + "\n"
    recording.write_text(json.dumps(HEADER) + "\n" + (json.dumps(STEP) + "\n") * 5 + end)
    options = RunOptions(scene="walk", headless=True, size=(800, 450), replay=recording)
    config = SceneConfig()
    with headless_app(options, config) as app:
        rig = app.scene.sim.rig
        app.reload_assets()
        assert app.scene.sim.rig is rig
        assert "F5 is off in a replay" in app.message


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ({**_reload_line({"rig.json": RIG_TEXT}), "assets": "0" * 64}, '"assets": expected the'),
        (_reload_line({"../rig.json": RIG_TEXT}), '"reload": expected an object of 1 to 4'),
        (_reload_line({}), '"reload": expected an object of 1 to 4'),
        ({"reload": {"rig.json": 7}, "assets": DIGEST}, '"reload": expected an object'),
        ({**_reload_line({"rig.json": RIG_TEXT}), "step": 3}, "unknown key 'step' in a reload"),
        ({"reads": {"terrain.json": "abc"}}, '"reads": expected only an object of 1 to 4'),
        ({"reads": {"../x.json": "0" * 64}}, '"reads": expected only an object'),
        (_reload_line({"rig.json": "x" * (1 << 21)}), '"reload.rig.json": expected at most'),
    ],
)
def test_a_malformed_reload_line_names_file_line_and_expectation(
    tmp_path: Path, line: dict[str, object], words: str
) -> None:
    path = tmp_path / "bad.rec"
    path.write_text("\n".join(json.dumps(x) for x in (HEADER, STEP, line)) + "\n")
    with pytest.raises(ValueError) as info:
        read_recording(path)
    assert str(info.value).startswith(f"{path}: line 3: "), info.value
    assert words in str(info.value), info.value


def test_a_reload_line_in_a_format_2_recording_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "old.rec"
    lines = ({**HEADER, "record": 2}, STEP, _reload_line({"rig.json": RIG_TEXT}))
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    with pytest.raises(ValueError, match=r"line 3: a reload line needs format 3"):
        read_recording(path)


def test_a_reload_in_a_scene_without_assets_stops_the_replay_naming_the_line(
    run_main_here, tmp_path: Path
) -> None:
    path = tmp_path / "lab.rec"
    reload = _reload_line({"rig.json": RIG_TEXT})
    lines = ({**HEADER, "scene": "lab"}, STEP, reload, STEP, {"end": 2})
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    result = run_main_here(["--headless", "--replay", str(path)])
    assert result.returncode == 2, result.stderr
    assert result.stderr.strip() == (
        f"error: --replay: {path}: line 3: a reload in the 'lab' scene, which reads no asset files"
    )


def _record_with_ctrl_o(
    headless_app: Any, folder: Path, recording: Path, change_file: bool
) -> None:
    """5 frames, (the terrain file rewritten: same ground, other bytes), a Ctrl+O terrain
    reload, 5 frames; then the file is as at the start again."""
    original = (folder / "terrain.json").read_text()
    options = RunOptions(scene="walk", headless=True, size=(800, 450), record=recording)
    config = SceneConfig(assets_dir=folder)
    with headless_app(options, config) as app:
        for _ in range(5):
            app.run_frame(config.dt)
        if change_file:
            (folder / "terrain.json").write_text(json.dumps(json.loads(original), indent=1))
        app.pending = InputState(actions=("terrain_edit",), values={"op": "reload"})
        for _ in range(5):
            app.run_frame(config.dt)
    (folder / "terrain.json").write_text(original)


@pytest.mark.parametrize("change_file", [False, True])
def test_a_ctrl_o_reload_replays_only_with_the_file_it_read(
    run_main_here, headless_app, tmp_path: Path, change_file: bool
) -> None:
    folder, recording = tmp_path / "assets", tmp_path / "run.rec"
    shutil.copytree(ASSETS_DIR, folder)
    _record_with_ctrl_o(headless_app, folder, recording, change_file)
    checks = [item for item in read_recording(recording) if isinstance(item, ReadCheck)]
    assert [check.line for check in checks] == [7]  # the header, 5 steps, then the check
    result = run_main_here(["--headless", "--replay", str(recording), "--assets", str(folder)])
    if not change_file:
        assert result.returncode == 0, result.stderr
        return
    assert result.returncode == 2, result.stderr
    assert result.stderr.startswith(
        f"error: --replay: {recording}: line 7: step 6 reads {folder / 'terrain.json'} "
        "(a Ctrl+O reload), which differs from the file the recorded session read"
    ), result.stderr
