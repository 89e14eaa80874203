"""The rig file: the shipped one loads; every bad value names the file, the key and why."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from game.assets import AssetError
from game.palette import PALETTE
from game.scene import ASSETS_DIR, SceneConfig
from game.scenes.walk import WalkSim
from game.world.rig import load_rig

RIG = ASSETS_DIR / "rig.json"


def _rig_data() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(RIG.read_text())
    return data


def test_the_shipped_rig_loads_with_colours_resolved() -> None:
    rig = load_rig(RIG)
    assert rig.legs.limb.upper > 0 and rig.arms.limb.reach > rig.arms.limb.dead_zone
    assert rig.colors.skin == PALETTE["skin"]
    assert all(0 <= c <= 255 for c in rig.colors.shoes)


@pytest.mark.parametrize(
    ("section", "name", "value", "key", "words"),
    [
        ("legs", "upper", None, "legs.upper", "missing"),
        ("legs", "upper", "long", "legs.upper", "expected a number, found a string 'long'"),
        ("legs", "lower", 0, "legs.lower", "expected a number in [0.05, 2] m, found 0"),
        ("arms", "upper", -0.3, "arms.upper", "in [0.05, 2] m, found -0.3"),
        ("colors", "shirt", "mauve-ish", "colors.shirt", "palette colour name or #rrggbb"),
        ("colors", "hair", "#12345g", "colors.hair", "#rrggbb"),
        ("gait", "lock_extension", 0.999, "gait.lock_extension", "soft band"),
        ("gait", "comfort_extension", 0.5, "gait.comfort_extension", "> stand_extension"),
        ("feet", "max_tilt_deg", 90, "feet.max_tilt_deg", "in [0, 60] degrees"),
    ],
)
def test_bad_rig_value_names_file_key_and_expectation(
    tmp_path: Path, section: str, name: str, value: Any, key: str, words: str
) -> None:
    data = _rig_data()
    if value is None:
        del data[section][name]
    else:
        data[section][name] = value
    path = tmp_path / "rig.json"
    path.write_text(json.dumps(data))
    with pytest.raises(AssetError) as info:
        load_rig(path)
    assert (info.value.file, info.value.key) == (str(path), key)
    assert words in str(info.value)


def test_a_missing_section_and_broken_json_are_named(tmp_path: Path) -> None:
    data = _rig_data()
    del data["gait"]
    path = tmp_path / "rig.json"
    path.write_text(json.dumps(data))
    with pytest.raises(AssetError, match="gait: missing"):
        load_rig(path)
    path.write_text("{not json")
    with pytest.raises(AssetError, match="invalid JSON at line 1"):
        load_rig(path)


def test_the_walk_scene_reads_its_assets_from_the_configured_folder(tmp_path: Path) -> None:
    (tmp_path / "terrain.json").write_text((ASSETS_DIR / "terrain.json").read_text())
    data = _rig_data()
    data["legs"]["upper"] = "x"
    (tmp_path / "rig.json").write_text(json.dumps(data))
    with pytest.raises(AssetError, match=r"rig\.json: legs\.upper"):
        WalkSim(SceneConfig(assets_dir=tmp_path))


def test_reload_keeps_the_last_good_assets_when_a_file_is_bad(tmp_path: Path) -> None:
    for name in ("rig.json", "terrain.json"):
        (tmp_path / name).write_text((ASSETS_DIR / name).read_text())
    sim = WalkSim(SceneConfig(assets_dir=tmp_path))
    before = sim.rig
    (tmp_path / "terrain.json").write_text('{"points": [[0, 0], [0, 1]]}')
    with pytest.raises(AssetError, match="not a function of x"):
        sim.reload_assets()
    assert sim.rig is before
