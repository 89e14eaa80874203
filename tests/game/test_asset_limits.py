"""Every bad asset file is a clear error naming the file, the key, the value and the
documented range; files are bounded before they are parsed."""

from __future__ import annotations

import json
import os
import shutil
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from game.assets import MAX_ASSET_BYTES, MAX_NESTING, AssetError
from game.scene import ASSETS_DIR
from game.world.props import PROPS_RANGES, load_props
from game.world.rig import RIG_RANGES, load_rig
from game.world.terrain import MAX_TERRAIN_POINTS, load_terrain


def _copy(tmp_path: Path) -> Path:
    folder = tmp_path / "assets"
    shutil.copytree(ASSETS_DIR, folder)
    return folder


def _set_raw(path: Path, keys: str, raw_json: str) -> None:
    """Put ``raw_json`` text (which json.dumps could not write, e.g. a 400-digit int) at keys."""
    data = json.loads(path.read_text())
    *parents, last = keys.split(".")
    node = data
    for key in parents:
        node = node[key]
    node[last] = "@@RAW@@"
    path.write_text(json.dumps(data).replace('"@@RAW@@"', raw_json))


def _load(folder: Path, name: str) -> Any:
    terrain = load_terrain(folder / "terrain.json") if name == "props.json" else None
    loaders: dict[str, Callable[[], Any]] = {
        "rig.json": lambda: load_rig(folder / "rig.json"),
        "terrain.json": lambda: load_terrain(folder / "terrain.json"),
        "props.json": lambda: load_props(folder / "props.json", terrain),  # type: ignore[arg-type]
    }
    return loaders[name]()


@pytest.mark.parametrize(
    ("name", "key", "raw", "words"),
    [
        ("rig.json", "legs.upper", "1" * 400, "a 400-digit number"),
        ("rig.json", "legs.upper", "9" * 5000, "a 5000-digit number"),
        ("rig.json", "legs.upper", "1e80", "in [0.05, 2] m, found 1e+80"),
        ("rig.json", "body.spine", "1e300", "found 1e+300"),
        ("rig.json", "gait.lift_height", "1e300", "found 1e+300"),
        ("rig.json", "feet.ankle_height", "1e300", "found 1e+300"),
        ("rig.json", "legs.upper", "1e400", "expected a finite number"),
        ("props.json", "ladder.height", "1e300", "in [0.5, 30] m, found 1e+300"),
        ("props.json", "ladder.rung_spacing", "1e-9", "in [0.1, 1] m, found 1e-09"),
        ("props.json", "ladder.rung_spacing", "1e-6", "in [0.1, 1] m"),
    ],
)
def test_an_out_of_range_number_names_file_key_value_and_range(
    tmp_path: Path, name: str, key: str, raw: str, words: str
) -> None:
    folder = _copy(tmp_path)
    _set_raw(folder / name, key, raw)
    with pytest.raises(AssetError) as info:
        _load(folder, name)
    assert (info.value.file, info.value.key) == (str(folder / name), key)
    assert words in str(info.value)


def test_terrain_heights_scaled_by_1e300_are_refused_naming_the_point(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    path = folder / "terrain.json"
    data = json.loads(path.read_text())
    data["points"] = [[x, y * 1e300] for x, y in data["points"]]
    path.write_text(json.dumps(data))
    with pytest.raises(AssetError) as info:
        load_terrain(path)
    assert info.value.key == "points[0]"
    assert "y in [-1000, 1000] m" in str(info.value)


def test_a_terrain_of_more_points_than_the_maximum_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "terrain.json"
    points = [[i * 0.01, 0] for i in range(MAX_TERRAIN_POINTS + 1)]
    path.write_text(json.dumps({"points": points}))
    with pytest.raises(AssetError) as info:
        load_terrain(path)
    assert info.value.key == "points"
    assert f"a list of 2 to {MAX_TERRAIN_POINTS} [x, y] points," in str(info.value)


def test_an_oversize_file_is_refused_before_parsing(tmp_path: Path) -> None:
    path = tmp_path / "terrain.json"
    path.write_text("[" * (MAX_ASSET_BYTES + 1))  # would be a RecursionError if parsed
    with pytest.raises(AssetError, match=f"at most {MAX_ASSET_BYTES:,} bytes"):
        load_terrain(path)


def test_invalid_utf8_names_the_file_and_the_byte(tmp_path: Path) -> None:
    path = tmp_path / "rig.json"
    path.write_bytes(b'{"name": "h\xffro"}')
    with pytest.raises(AssetError) as info:
        load_rig(path)
    assert info.value.file == str(path)
    assert "expected UTF-8 text, found byte 0xff at offset 11" in str(info.value)


def test_deep_nesting_is_named_not_a_recursion_error(tmp_path: Path) -> None:
    path = tmp_path / "rig.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(AssetError, match=f"at most {MAX_NESTING} levels of nesting, found 100000"):
        load_rig(path)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_as_rig_json_is_refused_without_hanging(tmp_path: Path) -> None:
    path = tmp_path / "rig.json"
    os.mkfifo(path)
    outcome: list[BaseException] = []

    def load() -> None:
        try:
            load_rig(path)
        except AssetError as exc:
            outcome.append(exc)

    thread = threading.Thread(target=load, daemon=True)
    thread.start()
    thread.join(timeout=10)
    if thread.is_alive():  # unblock the reader so the test process can end
        with open(path, "w"):
            pass
        pytest.fail("reading a FIFO asset blocked")
    assert outcome and "expected a regular file" in str(outcome[0])


def test_a_folder_as_rig_json_is_refused(tmp_path: Path) -> None:
    (tmp_path / "rig.json").mkdir()
    with pytest.raises(AssetError, match="expected a regular file"):
        load_rig(tmp_path / "rig.json")


@pytest.mark.parametrize("colour", ["#-12345", "#+12345", "#1_2345", "# 12345"])
def test_a_colour_must_be_six_hex_digits(tmp_path: Path, colour: str) -> None:
    data = json.loads((ASSETS_DIR / "rig.json").read_text())
    data["colors"]["hair"] = colour
    path = tmp_path / "rig.json"
    path.write_text(json.dumps(data))
    with pytest.raises(AssetError) as info:
        load_rig(path)
    assert info.value.key == "colors.hair"


def test_every_shipped_numeric_field_has_a_documented_range() -> None:
    """The shipped files load, and each range table covers exactly the numbers they hold."""
    load_props(ASSETS_DIR / "props.json", load_terrain(ASSETS_DIR / "terrain.json"))

    def numeric_keys(node: Any, prefix: str = "") -> set[str]:
        if isinstance(node, dict):
            keys: set[str] = set()
            for name, value in node.items():
                keys |= numeric_keys(value, f"{prefix}.{name}" if prefix else name)
            return keys
        is_number = isinstance(node, int | float) and not isinstance(node, bool)
        return {prefix} if is_number else set()

    rig = json.loads((ASSETS_DIR / "rig.json").read_text())
    assert numeric_keys(rig) <= set(RIG_RANGES)
    props = json.loads((ASSETS_DIR / "props.json").read_text())
    assert numeric_keys(props) <= set(PROPS_RANGES)


def test_a_bad_asset_run_exits_1_with_one_line_and_no_traceback(
    run_main_here, tmp_path: Path
) -> None:
    folder = _copy(tmp_path)
    _set_raw(folder / "props.json", "ladder.rung_spacing", "1e-9")
    result = run_main_here(
        ["--headless", "--frames", "2", "--scene", "walk", "--assets", str(folder)]
    )
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr
    assert result.stderr.strip().count("\n") == 0, result.stderr
    assert "ladder.rung_spacing" in result.stderr and "1e-09" in result.stderr


Leaf = tuple[str | int, ...]


def _leaves(node: Any, path: Leaf = ()) -> list[tuple[Leaf, Any]]:
    """(key path, value) of every scalar in a parsed JSON value."""
    items = node.items() if isinstance(node, dict) else enumerate(node)
    found: list[tuple[Leaf, Any]] = []
    for key, value in items:
        if isinstance(value, dict | list):
            found += _leaves(value, (*path, key))
        else:
            found.append(((*path, key), value))
    return found


def _key_text(path: Leaf) -> str:
    """``legs.upper``, ``points[3][1]``, ``landmarks[0].name``."""
    text = ""
    for key in path:
        text += f"[{key}]" if isinstance(key, int) else (f".{key}" if text else key)
    return text


def _fields(kind: type) -> list[tuple[str, Leaf]]:
    """(file, key path) of every leaf of type ``kind`` in the shipped files; of the terrain's
    hundred-odd point coordinates, the first and last point's."""
    found = []
    for name in ("rig.json", "terrain.json", "props.json"):
        data = json.loads((ASSETS_DIR / name).read_text())
        for path, value in _leaves(data):
            is_kind = isinstance(value, kind) and not isinstance(value, bool)
            last = len(data["points"]) - 1 if name == "terrain.json" else -1
            if is_kind and not (path[0] == "points" and path[1] not in (0, last)):
                found.append((name, path))
    return found


def _put_raw(path: Path, at: Leaf, raw_json: str) -> None:
    """Put ``raw_json`` text at key path ``at`` of the file."""
    data = json.loads(path.read_text())
    node = data
    for key in at[:-1]:
        node = node[key]
    node[at[-1]] = "@@RAW@@"
    path.write_text(json.dumps(data).replace('"@@RAW@@"', raw_json))


NUMBER_FIELDS = _fields(int | float)
STRING_FIELDS = _fields(str)


@pytest.mark.parametrize(
    ("name", "at"), NUMBER_FIELDS, ids=[f"{n}:{_key_text(a)}" for n, a in NUMBER_FIELDS]
)
def test_a_400_digit_number_in_any_numeric_field_names_file_and_key(
    tmp_path: Path, name: str, at: Leaf
) -> None:
    folder = _copy(tmp_path)
    _put_raw(folder / name, at, "9" * 400)
    with pytest.raises(AssetError) as info:
        _load(folder, name)
    assert info.value.file == str(folder / name)
    assert info.value.key and _key_text(at).startswith(info.value.key), info.value
    assert len(str(info.value)) < 600


@pytest.mark.parametrize(
    ("name", "at"), STRING_FIELDS, ids=[f"{n}:{_key_text(a)}" for n, a in STRING_FIELDS]
)
def test_a_60000_character_string_in_any_string_field_names_file_and_key(
    tmp_path: Path, name: str, at: Leaf
) -> None:
    folder = _copy(tmp_path)
    _put_raw(folder / name, at, json.dumps("x" * 60_000))
    with pytest.raises(AssetError) as info:
        _load(folder, name)
    assert (info.value.file, info.value.key) == (str(folder / name), _key_text(at))
    assert "expected a string of at most 200 characters" in str(info.value), info.value
    assert "(60,000 characters)" in str(info.value) and len(str(info.value)) < 600


def test_the_fields_cover_every_kind_of_value_the_loaders_read() -> None:
    numbers = {_key_text(at) for _, at in NUMBER_FIELDS}
    assert {"legs.upper", "points[0][1]", "landmarks[0].from", "door.knob[0]"} <= numbers
    strings = {_key_text(at) for _, at in STRING_FIELDS}
    assert {"name", "colors.shirt", "landmarks[0].name"} <= strings


@pytest.mark.parametrize(
    "change",
    ["points", "landmark name", "name", "unknown key"],
)
def test_ctrl_o_of_a_terrain_holding_a_long_string_is_refused_with_a_short_message(
    headless_app, tmp_path: Path, change: str
) -> None:
    from game.input_state import InputState
    from game.options import RunOptions
    from game.scene import SceneConfig

    folder = _copy(tmp_path)
    path = folder / "terrain.json"
    options = RunOptions(scene="walk", headless=True, size=(800, 450))
    config = SceneConfig(assets_dir=folder)
    with headless_app(options, config) as app:
        app.run_frame(config.dt)
        data = json.loads(path.read_text())
        long = "x" * 60_000
        if change == "points":
            data["points"] = long
        elif change == "landmark name":
            data["landmarks"][0]["name"] = long
        elif change == "name":
            data["name"] = long
        else:
            data[long] = 1
        path.write_text(json.dumps(data))
        editing = app.scene.sim.editing
        editing.active = True
        terrain = app.scene.sim.terrain
        app.pending = InputState(actions=("terrain_edit",), values={"op": "reload"})
        for _ in range(3):
            app.run_frame(config.dt)  # the message is drawn: short, so quick
        assert editing.message.startswith("cannot reload: "), editing.message
        assert len(editing.message) < 600, editing.message[:300]
        assert app.scene.sim.terrain is terrain
