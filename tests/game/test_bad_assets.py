"""A bad asset names the file, the key and what was expected: exit 1 at startup, and F5
while running keeps the last good rig, terrain and props."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from game.options import RunOptions
from game.scene import ASSETS_DIR, SceneConfig


def _edit(path: Path, change: Callable[[Any], Any]) -> None:
    data = json.loads(path.read_text())
    result = change(data)
    path.write_text(json.dumps(data if result is None else result))


def _set(keys: str, value: Any) -> Callable[[Any], None]:
    def change(data: Any) -> None:
        *parents, last = keys.split(".")
        for key in parents:
            data = data[key]
        data[last] = value

    return change


def _drop(keys: str) -> Callable[[Any], None]:
    def change(data: Any) -> None:
        *parents, last = keys.split(".")
        for key in parents:
            data = data[key]
        del data[last]

    return change


def _swap_points(data: Any) -> None:
    points = data["points"]
    points[3], points[4] = points[4], points[3]


# (file, edit, fragments the message must contain)
BAD_EDITS: list[tuple[str, Callable[[Any], Any] | str, tuple[str, ...]]] = [
    ("rig.json", "{ not json", ("rig.json", "invalid JSON", "line 1")),
    ("rig.json", _drop("legs.upper"), ("rig.json", "legs.upper")),
    ("rig.json", _set("legs.upper", "long"), ("rig.json", "legs.upper", "long")),
    ("rig.json", _set("arms.lower", -0.3), ("rig.json", "arms.lower", "-0.3")),
    ("rig.json", _set("legs.lower", 0), ("rig.json", "legs.lower")),
    ("rig.json", _set("colors.shirt", "plaid"), ("rig.json", "colors.shirt", "plaid")),
    ("terrain.json", _swap_points, ("terrain.json", "points", "function of x")),
    ("terrain.json", _drop("points"), ("terrain.json", "points")),
    ("props.json", _drop("cup.x"), ("props.json", "cup.x", "missing")),
    ("props.json", _set("ladder.rung_spacing", -1), ("props.json", "ladder.rung_spacing", "-1")),
    ("props.json", _set("table.x", 9.0), ("props.json", "table.x", "flat ground")),
    # a misspelt key is an error, never ignored silently (legs.bogus, say)
    ("rig.json", _set("legs.uper", 0.5), ("rig.json", "legs.uper", "unknown key", "'upper'")),
    ("rig.json", _set("legs.bogus", 1), ("rig.json", "legs.bogus", "unknown key")),
    ("terrain.json", _set("landmark", []), ("terrain.json", "landmark", "'landmarks'")),
    ("props.json", _set("cup.radious", 0.05), ("props.json", "cup.radious", "'radius'")),
    # "a list of [2, 10000] points [x, y] points": the unit doubled
    (
        "terrain.json",
        _set("points", [[0, 0]]),
        ("terrain.json", "a list of 2 to 10000 [x, y] points"),
    ),
]


@pytest.fixture
def assets(tmp_path: Path) -> Path:
    folder = tmp_path / "assets"
    shutil.copytree(ASSETS_DIR, folder)
    return folder


def _break(folder: Path, name: str, edit: Callable[[Any], Any] | str) -> None:
    if isinstance(edit, str):
        (folder / name).write_text(edit)
    else:
        _edit(folder / name, edit)


@pytest.mark.parametrize(("name", "edit", "fragments"), BAD_EDITS)
def test_bad_asset_at_startup_exits_1_naming_file_and_key_before_any_window(
    run_main_here, assets: Path, tmp_path: Path, name: str, edit: Any, fragments: tuple[str, ...]
) -> None:
    _break(assets, name, edit)
    shot = tmp_path / "shot.png"
    args = ["--scene", "walk", "--headless", "--frames", "3", "--screenshot", str(shot)]
    result = run_main_here([*args, "--assets", str(assets)])
    assert result.returncode == 1, result.stdout + result.stderr
    for fragment in fragments:
        assert fragment in result.stderr, result.stderr
    assert "Traceback" not in result.stderr
    assert not shot.exists()  # nothing was rendered


def test_missing_assets_folder_is_a_bad_argument(run_main_here, tmp_path: Path) -> None:
    result = run_main_here(["--headless", "--assets", str(tmp_path / "nowhere")])
    assert result.returncode == 2
    assert "--assets" in result.stderr


@pytest.mark.parametrize(("name", "edit", "fragments"), BAD_EDITS)
def test_f5_with_a_bad_edit_shows_it_and_keeps_the_last_good_assets(
    headless_app, assets: Path, name: str, edit: Any, fragments: tuple[str, ...]
) -> None:
    options = RunOptions(scene="walk", headless=True, autopilot=True, size=(800, 450))
    config = SceneConfig(assets_dir=assets)
    with headless_app(options, config) as app:
        for _ in range(10):  # he sets off (4 cm): a game started again would show
            app.run_frame(config.dt)
        sim = app.scene.sim
        rig, terrain, props, x = sim.rig, sim.terrain, sim.props, sim.crowd.x.copy()
        _break(assets, name, edit)
        app.reload_assets()
        assert sim.rig is rig and sim.terrain is terrain and sim.props is props
        assert (app.scene.sim.crowd.x == x).all()  # the game state was not touched
        for fragment in fragments:
            assert fragment in app.message
        for _ in range(10):
            app.run_frame(config.dt)  # and the game carries on with the old assets
        shutil.copy(ASSETS_DIR / name, assets / name)
        _edit(assets / "rig.json", _set("legs.upper", 0.47))
        _edit(assets / "props.json", _set("cup.x", 2.3))
        app.reload_assets()
        assert app.message == "assets reloaded: footsteps from 0"
        assert sim.rig.legs.limb.upper == pytest.approx(0.47)
        assert sim.props is not None and sim.props.props.cup.home[0] == pytest.approx(2.3)
        # a cup set down elsewhere goes back on its table, and F5 says so (not
        # silently)
        sim.prop("cup").bottom = sim.prop("cup").bottom + np.array([3.0, 0.0])
        app.reload_assets()
        assert app.message == "assets reloaded: the cup back on its table, footsteps from 0"


def test_keys_starting_with_an_underscore_are_comments(tmp_path: Path) -> None:
    from game.scenes.character_assets import load_character_assets
    from game.world.props import load_props

    folder = tmp_path / "assets"
    shutil.copytree(ASSETS_DIR, folder)
    _edit(folder / "rig.json", _set("_comment", "tuned by hand"))
    _edit(folder / "rig.json", _set("legs._note", "thigh and shin"))
    _edit(folder / "terrain.json", _set("_comment", "the course"))
    _edit(folder / "props.json", _set("cup._note", "a mug"))
    rig, terrain = load_character_assets(folder)
    load_props(folder / "props.json", terrain)
    assert rig.legs.limb.upper > 0


def test_a_huge_unknown_key_is_quoted_short_and_f5_keeps_the_game_running(
    headless_app, assets: Path
) -> None:
    # a 200 KB key (with a terminal escape) is quoted short and escaped: after F5 the HUD
    # wraps the message every frame, so a key quoted whole would stall the game
    options = RunOptions(scene="walk", headless=True, autopilot=True, size=(800, 450))
    config = SceneConfig(assets_dir=assets)
    with headless_app(options, config) as app:
        app.run_frame(config.dt)
        _edit(assets / "rig.json", _set("legs." + "x" * 200_000 + "\x1b[31m", 1))
        app.reload_assets()
        assert "unknown key" in app.message and "xxxx…" in app.message
        assert len(app.message) < 600 and "\x1b" not in app.message
        for _ in range(5):
            app.run_frame(config.dt)


def test_an_hud_message_is_cut_to_a_readable_length(headless_app) -> None:
    options = RunOptions(scene="lab", headless=True, autopilot=True, size=(800, 450))
    with headless_app(options, SceneConfig()) as app:
        app._say("error: " + "y" * 100_000, "bad")
        assert len(app.message) <= 600 and app.message.endswith("…")
        app.run_frame(SceneConfig().dt)
