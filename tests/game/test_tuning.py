"""The walker's tuning: read with the rig, validated like the rest, lengths scaled to the leg."""

from __future__ import annotations

import json
from dataclasses import fields
from pathlib import Path

import pytest

from game.assets import AssetError
from game.world.props.ladder_sizes import ClimbSizes
from game.world.rig import load_rig
from game.world.tuning import Tuning

ASSETS = Path(__file__).resolve().parents[2] / "assets"


def _rig_with(tmp_path: Path, **changes: object) -> Path:
    data = json.loads((ASSETS / "rig.json").read_text())
    for key, value in changes.items():
        section, name = key.split("__")
        data[section][name] = value
    path = tmp_path / "rig.json"
    path.write_text(json.dumps(data))
    return path


def test_every_setting_has_a_unit_range_and_meaning_that_holds_its_default() -> None:
    for f in fields(Tuning):
        limits, meaning = f.metadata["range"], f.metadata["meaning"]
        assert limits.low <= f.default <= limits.high, f.name
        assert meaning, f.name


def test_shipped_rig_reads_its_tuning_section_unscaled_at_the_reference_leg() -> None:
    rig = load_rig(ASSETS / "rig.json")
    assert rig.legs.limb.reach == rig.tuning.reference_leg
    assert rig.tuning == Tuning()


def test_lengths_scale_with_the_leg_and_other_units_do_not() -> None:
    base = Tuning()
    small = base.scaled(0.6 * base.reference_leg)
    assert small.left_behind == pytest.approx(0.6 * base.left_behind)
    assert small.crouch_drop == pytest.approx(0.6 * base.crouch_drop)
    assert small.pivot_speed == base.pivot_speed  # m/s: not a length
    assert small.squaring_swing == base.squaring_swing  # seconds


def test_out_of_range_setting_names_the_key_and_range(tmp_path: Path) -> None:
    with pytest.raises(AssetError, match=r"tuning\.pivot_speed"):
        load_rig(_rig_with(tmp_path, tuning__pivot_speed=-1.0))


def test_unknown_setting_is_refused(tmp_path: Path) -> None:
    with pytest.raises(AssetError, match=r"tuning\.pivot_sped"):
        load_rig(_rig_with(tmp_path, tuning__pivot_sped=0.1))


def test_a_rig_without_the_section_walks_on_the_defaults(tmp_path: Path) -> None:
    data = json.loads((ASSETS / "rig.json").read_text())
    del data["tuning"]
    path = tmp_path / "rig.json"
    path.write_text(json.dumps(data))
    assert load_rig(path).tuning == Tuning()


def test_the_rig_file_sets_the_ladder_climbs_lengths_scaled_to_the_leg(tmp_path: Path) -> None:
    hero = ClimbSizes.for_rig(load_rig(_rig_with(tmp_path, tuning__climb_hip_above_foot=0.7)))
    assert hero.hip_above_foot == pytest.approx(0.7)
    child = ClimbSizes.for_rig(load_rig(ASSETS / "child" / "rig.json"))
    leg_ratio = load_rig(ASSETS / "child" / "rig.json").legs.limb.reach / Tuning().reference_leg
    assert child.rails_offset == pytest.approx(Tuning().climb_rails_offset * leg_ratio)
    with pytest.raises(AssetError, match=r"tuning\.climb_hands_apart"):
        load_rig(_rig_with(tmp_path, tuning__climb_hands_apart=9.0))
