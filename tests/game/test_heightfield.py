"""The 3-D ground: bilinear heights between grid points, its gradient and normal, the
loader's errors, and the shipped asset's features."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from game.assets import AssetError
from game.scene import ASSETS_DIR
from game.world.heightfield import Heightfield, load_heightfield

RNG = np.random.default_rng(3)
FIELD = Heightfield((-1.0, 2.0), 0.5, RNG.uniform(-0.5, 0.5, (7, 9)))
inside_x = st.floats(-1.0, 3.0, allow_nan=False)
inside_z = st.floats(2.0, 5.0, allow_nan=False)


def test_the_surface_passes_through_every_grid_height() -> None:
    rows, cols = FIELD.heights.shape
    j, i = np.meshgrid(np.arange(cols), np.arange(rows))
    x, z = -1.0 + 0.5 * j, 2.0 + 0.5 * i
    np.testing.assert_allclose(FIELD.height_at(x, z), FIELD.heights, atol=1e-12)


@given(inside_x, inside_z)
def test_inside_a_cell_the_height_is_the_bilinear_blend_of_its_corners(x: float, z: float) -> None:
    gx, gz = (x + 1.0) / 0.5, (z - 2.0) / 0.5
    j, i = min(int(gx), 7), min(int(gz), 5)
    u, v = gx - j, gz - i
    h = FIELD.heights
    expected = (
        h[i, j] * (1 - u) * (1 - v)
        + h[i, j + 1] * u * (1 - v)
        + h[i + 1, j] * (1 - u) * v
        + h[i + 1, j + 1] * u * v
    )
    assert FIELD.height_at(x, z) == pytest.approx(expected, abs=1e-12)


@given(inside_x, inside_z)
def test_the_gradient_is_the_surfaces_slope_and_the_normal_is_perpendicular_to_it(
    x: float, z: float
) -> None:
    e = 1e-6
    gx, gz = (x + 1.0) / 0.5, (z - 2.0) / 0.5
    if min(abs(gx - round(gx)), abs(gz - round(gz))) < 1e-4:
        return  # on a cell edge the slope jumps: no one-sided difference to compare
    slope = FIELD.gradient_at(x, z)
    dx = (FIELD.height_at(x + e, z) - FIELD.height_at(x - e, z)) / (2 * e)
    dz = (FIELD.height_at(x, z + e) - FIELD.height_at(x, z - e)) / (2 * e)
    np.testing.assert_allclose(slope, [dx, dz], atol=1e-5)
    n = FIELD.normal_at(x, z)
    assert np.linalg.norm(n) == pytest.approx(1.0) and n[1] > 0
    for tangent in ([1.0, slope[0], 0.0], [0.0, slope[1], 1.0]):
        assert abs(np.dot(n, tangent)) <= 1e-9


def test_the_surface_is_continuous_across_cell_edges() -> None:
    xs = np.linspace(-1.0, 3.0, 4001)
    heights = FIELD.height_at(xs, np.full_like(xs, 3.3))
    steepest = np.abs(FIELD.heights).max() * 2 / 0.5  # no cell rises faster than this
    assert np.abs(np.diff(heights)).max() <= steepest * (xs[1] - xs[0]) + 1e-12


def test_beyond_the_grid_the_edge_heights_continue_level() -> None:
    far = np.array([-50.0, 40.0])
    np.testing.assert_allclose(FIELD.height_at(far, 2.0), FIELD.heights[0, [0, -1]])
    np.testing.assert_allclose(FIELD.height_at(-1.0, [-9.0, 99.0]), FIELD.heights[[0, -1], 0])
    np.testing.assert_allclose(FIELD.normal_at(far, 90.0), [[0.0, 1.0, 0.0]] * 2)


def test_the_shipped_ground_has_every_feature_of_the_walk_and_reads_back_as_written() -> None:
    field = load_heightfield(ASSETS_DIR / "heightfield.json")
    names = {f.name for f in field.features}
    assert {"flat", "gentle slope", "side slope", "bump", "terraces", "ramp"} <= names
    assert json.loads(json.dumps(field.to_json()))["heights"][3][5] == field.heights[3, 5]
    side = field.feature("side slope")
    slope = field.gradient_at(*side.centre)
    assert abs(slope[0]) > 0.1 and abs(slope[1]) < 1e-9  # it tilts across a walk along z


@pytest.mark.parametrize(
    ("change", "key", "words"),
    [
        ({"spacing": 0}, "spacing", "[0.02, 10] m"),
        ({"origin": [0, "a"]}, "origin", "[x0, z0]"),
        ({"heights": [[0, 0]]}, "heights", "rows"),
        ({"heights": [[0, 0], [0]]}, "heights[1]", "like row 0"),
        ({"heights": [[0, 0], [0, 1e9]]}, "heights[1][1]", "[-1000, 1000] m"),
        ({"heights": [[0, 0], [0, True]]}, "heights[1][1]", "found True"),
        ({"features": [{"name": "a", "x": [0, 9], "z": [0, 1]}]}, "features[0].x", "≤ 1"),
        ({"features": [{"name": "a", "x": [0, 1], "z": [0, 1], "y": 1}]}, "features[0].y", ""),
        ({"spacin": 1}, "spacin", ""),
    ],
)
def test_a_bad_heightfield_file_names_the_key_and_what_was_expected(
    tmp_path: Path, change: dict[str, object], key: str, words: str
) -> None:
    data = {"origin": [0, 0], "spacing": 1.0, "heights": [[0, 0], [0, 0]]} | change
    path = tmp_path / "heightfield.json"
    path.write_text(json.dumps(data))
    with pytest.raises(AssetError) as error:
        load_heightfield(path)
    assert error.value.key == key and words in str(error.value)
