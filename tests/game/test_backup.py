"""The terrain save: the file and its backup are each written to a temporary file, synced,
then renamed, so a kill or a full disk leaves both complete; a backup path that is not a
regular file refuses the save; the file is one vertex per line and reloads bit for bit."""

from __future__ import annotations

import difflib
import errno
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import game.outputs
from game.outputs import OutputError
from game.scene import ASSETS_DIR
from game.scenes.ground_edit import GroundEditing, save_terrain, terrain_text
from game.world.rig import load_rig
from game.world.terrain import Landmark, Terrain, load_terrain

REPO = Path(__file__).resolve().parents[2]
FLAT = {"name": "mine", "points": [[0, 0], [10, 0]], "landmarks": []}


def _files(tmp_path: Path) -> tuple[Path, Path]:
    """A terrain file and a previous backup, different from each other."""
    path, bak = tmp_path / "terrain.json", tmp_path / "terrain.json.bak"
    path.write_text(json.dumps(FLAT))
    bak.write_text(json.dumps({**FLAT, "points": [[0, 0], [5, 1], [10, 0]]}))
    return path, bak


def _raised(path: Path) -> Terrain:
    return Terrain(load_terrain(path).points + [0.0, 0.25])


class _FullDisk:
    """A written file that raises ENOSPC once the disk's free bytes are used up."""

    free = 0

    def __init__(self, file: Any) -> None:
        self._file = file

    def write(self, data: bytes) -> int:
        if len(data) > _FullDisk.free:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        _FullDisk.free -= len(data)
        return int(self._file.write(data))

    def __getattr__(self, name: str) -> Any:
        return getattr(self._file, name)


def _disk_with(monkeypatch: pytest.MonkeyPatch, free: int) -> None:
    real_fdopen = os.fdopen
    _FullDisk.free = free
    monkeypatch.setattr(game.outputs.os, "fdopen", lambda *a: _FullDisk(real_fdopen(*a)))


@pytest.mark.parametrize("fits", ["nothing", "the new file only"])
def test_a_full_disk_keeps_the_file_and_the_previous_backup(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fits: str
) -> None:
    path, bak = _files(tmp_path)
    before, backup_before = path.read_bytes(), bak.read_bytes()
    terrain = _raised(path)
    new_size = 0 if fits == "nothing" else len(terrain_text(terrain, "mine").encode())
    _disk_with(monkeypatch, new_size)
    with pytest.raises(OutputError, match="No space left on device"):
        save_terrain(terrain, path)
    assert path.read_bytes() == before
    assert bak.read_bytes() == backup_before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["terrain.json", "terrain.json.bak"]


def _editing(path: Path) -> GroundEditing:
    return GroundEditing(path, load_rig(ASSETS_DIR / "rig.json"), load_terrain(path), None)


def test_the_save_message_says_the_disk_is_full_and_what_was_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path, _ = _files(tmp_path)
    editing = _editing(path)
    _disk_with(monkeypatch, 0)
    message = editing.save()
    assert message.startswith("not saved: terrain save: cannot write"), message
    assert "No space left on device" in message and "terrain.json unchanged" in message


@pytest.mark.parametrize("kind", ["folder", "symlink", "dangling symlink", "fifo"])
def test_a_backup_path_that_is_not_a_regular_file_refuses_the_save(
    tmp_path: Path, kind: str
) -> None:
    path, bak = _files(tmp_path)
    bak.unlink()
    elsewhere = tmp_path / "elsewhere.json"
    if kind == "folder":
        bak.mkdir()
    elif kind == "symlink":
        elsewhere.write_text("precious")
        bak.symlink_to(elsewhere)
    elif kind == "dangling symlink":
        bak.symlink_to(elsewhere)
    else:
        os.mkfifo(bak)
    before = path.read_bytes()
    editing = _editing(path)
    message = editing.save()
    assert message.startswith(f"not saved: terrain backup: cannot write {bak}"), message
    assert "expected a regular file or a new path" in message, message
    assert "terrain.json and its backup unchanged" in message, message
    assert path.read_bytes() == before
    if kind == "folder":
        assert list(bak.iterdir()) == []
    elif kind == "symlink":
        assert elsewhere.read_text() == "precious" and bak.is_symlink()
    elif kind == "dangling symlink":
        assert not elsewhere.exists() and bak.is_symlink()
    assert not [p for p in tmp_path.iterdir() if p.suffix == ".tmp"]


def test_a_save_keeps_the_previous_file_as_the_backup(tmp_path: Path) -> None:
    path, bak = _files(tmp_path)
    before = path.read_bytes()
    save_terrain(_raised(path), path)
    assert bak.read_bytes() == before
    assert load_terrain(path).height_at(5.0) == pytest.approx(0.25)


def test_a_save_over_an_unparseable_file_keeps_the_name_and_landmarks(tmp_path: Path) -> None:
    path = tmp_path / "terrain.json"
    marks = [{"name": "hill", "from": 1.0, "to": 2.5}]
    path.write_text(json.dumps({**FLAT, "landmarks": marks}))
    editing = _editing(path)
    path.write_text('{"name": "mine", "points": [[0, 0], [10')  # broken outside the game
    assert editing.save().startswith("saved ")
    saved = json.loads(path.read_text())
    assert saved["name"] == "mine" and saved["landmarks"] == marks
    assert load_terrain(path).landmarks == (Landmark("hill", 1.0, 2.5),)


def test_comment_keys_of_the_file_are_kept(tmp_path: Path) -> None:
    path = tmp_path / "terrain.json"
    path.write_text(json.dumps({**FLAT, "_note": {"by": "me", "n": [1, 2]}}))
    save_terrain(_raised(path), path)
    assert json.loads(path.read_text())["_note"] == {"by": "me", "n": [1, 2]}


def test_the_shipped_course_saves_byte_for_byte_as_shipped(tmp_path: Path) -> None:
    shipped = ASSETS_DIR / "terrain.json"
    path = tmp_path / "terrain.json"
    path.write_bytes(shipped.read_bytes())
    save_terrain(load_terrain(path), path)
    assert path.read_bytes() == shipped.read_bytes()


def test_one_stair_edit_changes_a_few_lines_of_the_file(tmp_path: Path) -> None:
    path = tmp_path / "terrain.json"
    points = [[x * 0.5, 0.0] for x in range(81)]  # flat, a vertex every 50 cm
    path.write_text(json.dumps({"name": "flat", "points": points}))
    editing = _editing(path)
    editing.save()
    before = path.read_text().splitlines()
    values = {"op": "stairs", "x": 10.3172, "rise": 0.16, "tread": 0.35, "count": 1}
    assert editing.apply(values), editing.message
    editing.save()
    after = path.read_text().splitlines()
    changed = [line for line in difflib.ndiff(before, after) if line[:1] in "+-"]
    assert 0 < len(changed) <= 12, changed
    assert all(line[2:].strip().startswith("[") for line in changed), changed


def test_a_saved_terrain_reloads_bit_for_bit(tmp_path: Path) -> None:
    rng = np.random.default_rng(7)
    xs = np.cumsum(rng.uniform(0.001, 3.0, 300)) - 200.0
    ys = rng.normal(0.0, 2.0, 300)
    ys[:3] = [0.0, -0.0, 1e-300]
    marks = (Landmark("a", 0.1 + 0.2, 1.0 / 3.0),)
    terrain = Terrain(np.stack([xs, ys], axis=-1), marks)
    path = tmp_path / "terrain.json"
    save_terrain(terrain, path)
    loaded = load_terrain(path)
    assert loaded.points.tobytes() == terrain.points.tobytes()
    assert loaded.landmarks == marks
    lines = path.read_text().splitlines()
    assert sum(line.startswith("    [") for line in lines) == len(xs)


def test_kill_9_during_saves_leaves_both_files_complete() -> None:
    tool = REPO / "tools" / "kill_save.py"
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    result = subprocess.run(
        [sys.executable, str(tool), "--kills", "4"],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
