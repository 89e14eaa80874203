"""Terrain queries on known polylines, and the loader's errors naming file and key."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from game.assets import AssetError
from game.scene import ASSETS_DIR
from game.world.terrain import Terrain, load_terrain

# flat, then a 45° ramp up 1 m, then flat
RAMP = Terrain(np.array([[0.0, 0.0], [1.0, 0.0], [2.0, 1.0], [4.0, 1.0]]))


def test_height_interpolates_the_polyline_and_stays_level_beyond_the_ends() -> None:
    x = np.array([-5.0, 0.5, 1.5, 1.75, 3.0, 9.0])
    np.testing.assert_allclose(RAMP.height_at(x), [0.0, 0.0, 0.5, 0.75, 1.0, 1.0])
    assert RAMP.height_at(np.zeros((3, 2))).shape == (3, 2)


def test_normal_is_unit_and_perpendicular_to_the_segment() -> None:
    normal = RAMP.normal_at(np.array([0.5, 1.5, 3.0]))
    np.testing.assert_allclose(normal[0], [0.0, 1.0])
    np.testing.assert_allclose(normal[1], [-math.sqrt(0.5), math.sqrt(0.5)])
    np.testing.assert_allclose(np.hypot(normal[:, 0], normal[:, 1]), 1.0)
    assert RAMP.slope_at(1.5) == pytest.approx(1.0)


def test_downward_ray_hits_the_surface_directly_below() -> None:
    hit = RAMP.ray_down(np.array([[1.5, 3.0], [3.0, 0.5]]))
    np.testing.assert_allclose(hit.point, [[1.5, 0.5], [3.0, 1.0]])
    assert hit.hit.tolist() == [True, False]  # the second ray starts underground
    np.testing.assert_allclose(hit.normal[0], [-math.sqrt(0.5), math.sqrt(0.5)])


def test_highest_ground_between_sees_a_narrow_peak() -> None:
    spike = Terrain(np.array([[0.0, 0.0], [1.0, 0.0], [1.001, 2.0], [1.002, 0.0], [3.0, 0.0]]))
    assert float(spike.max_height_between(np.array(0.0), np.array(3.0))) == pytest.approx(2.0)
    assert float(spike.max_height_between(np.array(1.5), np.array(3.0))) == pytest.approx(0.0)


def test_the_shipped_course_has_every_feature() -> None:
    terrain = load_terrain(ASSETS_DIR / "terrain.json")
    names = {mark.name for mark in terrain.landmarks}
    assert {"gentle slope", "bump", "stairs up", "stairs down", "steep slope"} <= names
    slopes = np.degrees(np.arctan(np.abs(np.diff(terrain.ys) / np.diff(terrain.xs))))
    assert slopes.max() > 80  # stair risers
    assert ((slopes > 15) & (slopes < 25)).any()  # the steep slope
    assert ((slopes > 3) & (slopes < 10)).any()  # the gentle ones


def _write(tmp_path: Path, data: object) -> Path:
    path = tmp_path / "terrain.json"
    path.write_text(json.dumps(data))
    return path


@pytest.mark.parametrize(
    ("data", "key", "words"),
    [
        ({}, "points", "missing"),
        ({"points": "flat"}, "points", "expected a list"),
        ({"points": [[0, 0], [1, "x"]]}, "points[1]", "a string 'x'"),
        ({"points": [[0, 0], [2, 0], [2, 1], [3, 1]]}, "points[2]", "not a function of x"),
        (
            {"points": [[0, 0], [1, 0]], "landmarks": [{"name": "a", "from": 2, "to": 1}]},
            "landmarks[0].to",
            "expected a number > from",
        ),
    ],
)
def test_bad_terrain_names_file_key_and_expectation(
    tmp_path: Path, data: object, key: str, words: str
) -> None:
    path = _write(tmp_path, data)
    with pytest.raises(AssetError) as info:
        load_terrain(path)
    assert info.value.file == str(path)
    assert info.value.key == key
    assert words in str(info.value)


def test_the_walkable_range_stops_at_walls_not_at_gentle_rises() -> None:
    terrain = Terrain(
        np.array([[0, 2.0], [0.02, 0], [5, 0.3], [6, 0.3], [6.02, 1.5], [9, 1.5]]), ()
    )
    assert terrain.walkable_range(3.0, 0.4) == (0.02, 6.0)  # the 0.3 m over 5 m is a slope
    assert terrain.walkable_range(7.0, 0.4) == (6.02, 9.0)  # on the loft
    assert terrain.walkable_range(3.0, 2.5) == (0.0, 9.0)  # nothing too tall for a giant


def test_risers_are_the_steep_runs_that_rise_or_drop_a_step() -> None:
    # two risers up (one of them two steep segments), a ramp, a 3 cm kerb, one riser down
    ground = Terrain(
        np.array(
            [
                [0.0, 0.0], [0.01, 0.16], [0.35, 0.16], [0.355, 0.24], [0.36, 0.32],
                [1.0, 0.52], [1.01, 0.55], [1.5, 0.55], [1.51, 0.39], [3.0, 0.39],
            ]
        )
    )  # fmt: skip
    assert np.allclose(ground.risers(0.06, 0.03), [0.005, 0.355, 1.505])
    # the tread of a riser: to its neighbour going the same way (none for the lone drop)
    assert np.allclose(ground.treads(0.06, 0.03), [0.35, 0.35, np.inf])
    assert ground.risers(0.06, 0.03) is ground.risers(0.06, 0.03)  # computed once
    assert len(Terrain(np.array([[0.0, 0.0], [1.0, 0.5]])).risers(0.06, 0.03)) == 0


def test_a_box_on_the_ground_raises_it_only_under_the_box() -> None:
    # (what a swinging foot clears over a cup set down; a corner exactly at a box's side,
    # and a box on a slope, keep x strictly increasing)
    ground = Terrain(np.array([[0.0, 0.0], [1.0, 0.0], [2.0, 0.5]]))
    boxed = ground.with_boxes([[0.5, 0.7, 0.1], [1.4, 1.6, 0.3], [0.995 - 0.005, 0.999, 0.05]])
    probe = np.array([0.2, 0.6, 1.5, 1.8, 0.497, 0.703])
    expected = [0.0, 0.1, max(0.3, float(ground.height_at(1.6))), 0.4]
    assert boxed.height_at(probe[:4]) == pytest.approx(expected)
    assert (boxed.height_at(probe[4:]) > ground.height_at(probe[4:])).all()  # the sides rise
    assert boxed.height_at(2.5) == ground.height_at(2.5)


def test_a_changed_ground_answers_by_its_own_vertices_and_the_old_one_by_its() -> None:
    # the range maxima are built per Terrain; an edit (here a box set down) makes a new one
    flat = Terrain(np.array([[0.0, 0.0], [0.5, 0.0], [1.0, 0.0]]))
    assert float(flat.steepest_rise(np.array(0.0), np.array(1.0), 0.03)) == 0.0
    boxed = flat.with_boxes([[0.2, 0.3, 0.4]])
    assert float(boxed.max_height_between(np.array(0.0), np.array(1.0), samples=2)) == 0.4
    assert float(boxed.steepest_rise(np.array(0.0), np.array(1.0), 0.03)) == pytest.approx(0.4)
    assert float(flat.max_height_between(np.array(0.0), np.array(1.0), samples=2)) == 0.0
    assert float(flat.steepest_rise(np.array(0.0), np.array(1.0), 0.03)) == 0.0
