"""Contact shadows lie on the ground under what casts them, in it and never over the air,
and fade as it rises."""

from __future__ import annotations

import numpy as np
import pygame
import pytest

from game.camera import Camera2D
from game.canvas import WorldPen
from game.pygame_canvas import PygameCanvas
from game.scene import ASSETS_DIR
from game.view.scenery import EDGE_PX
from game.view.shadows import FOOT_SHADOW_FADE, draw_contact_shadows
from game.world.rig import load_rig
from game.world.terrain import Terrain

RIG = load_rig(ASSETS_DIR / "rig.json")
# a flight of three 0.17 m steps 0.3 m deep, rising toward +x
STAIRS = Terrain(
    np.array(
        [
            [-3.0, 0.0],
            [0.0, 0.0],
            [0.01, 0.17],
            [0.3, 0.17],
            [0.31, 0.34],
            [0.6, 0.34],
            [0.61, 0.51],
            [3.0, 0.51],
        ]
    )
)
SLOPE = Terrain(np.array([[-3.0, -0.9], [3.0, 0.9]]))  # 17° up toward +x


def _shadow(terrain: Terrain, x: float, lift: float) -> tuple[np.ndarray, Camera2D]:
    """The shade the shadows put on a white canvas (0 none, up to 255) of a hero standing
    with his feet's soles ``lift`` metres over the ground at ``x`` and ``x + 0.25``."""
    camera = Camera2D(center_w=(x, 0.4), scale=200.0, viewport=(0, 0, 640, 360))
    canvas = PygameCanvas(pygame.Surface((640, 360)))
    canvas.surface.fill((255, 255, 255))
    soles = []
    for foot_x in (x, x + 0.25):
        xs = np.array([foot_x - 0.06, foot_x + 0.1, foot_x + 0.16])  # heel, ball, toe tip
        soles.append(np.stack([xs, terrain.height_at(xs) + lift], -1))
    pelvis = np.array([x + 0.12, float(terrain.height_at(x)) + 0.95 + lift])
    draw_contact_shadows(WorldPen(canvas, camera), terrain, RIG, pelvis, np.array(soles))
    return 255 - pygame.surfarray.array3d(canvas.surface)[..., 0].astype(int), camera


@pytest.mark.parametrize(
    ("terrain", "x"), [(STAIRS, -0.05), (STAIRS, 0.2), (STAIRS, 0.5), (SLOPE, 0.0)]
)
def test_a_shadow_lies_in_the_ground_under_the_feet_never_over_the_air(
    terrain: Terrain, x: float
) -> None:
    shade, camera = _shadow(terrain, x, 0.0)
    columns, rows = np.nonzero(shade)
    assert len(columns) > 200
    # each shaded pixel is at most the edge line's upper half above the surface in its
    # column (over a riser: the higher tread's surface across the riser's width)
    for column in np.unique(columns):
        xs = camera.to_world(np.array([[column - 1.0, 0.0], [column + 2.0, 0.0]]))[:, 0]
        highest = float(terrain.height_at(np.linspace(xs[0], xs[1], 8)).max())
        surface_row = camera.point_to_screen(0.0, highest)[1]
        assert rows[columns == column].min() >= surface_row - EDGE_PX / 2 - 1


def test_a_shadow_follows_a_slope_under_each_foot() -> None:
    shade, camera = _shadow(SLOPE, 0.0, 0.0)
    for foot_x in (0.05, 0.3):  # the middle of each sole
        column, surface = camera.point_to_screen(foot_x, float(SLOPE.height_at(foot_x)))
        under = shade[round(column), round(surface) : round(surface) + 6]
        assert under.min() > 60  # dark just under the surface where the sole rests


def test_a_rising_foot_casts_a_smaller_fainter_shadow_and_none_high_up() -> None:
    leg = RIG.legs.limb.reach
    totals = []
    for lift in (0.0, 0.1, 0.2):
        shade, _ = _shadow(STAIRS, -1.5, lift)
        totals.append(int(shade.sum()))
    assert totals[0] > totals[1] > totals[2] > 0
    shade, _ = _shadow(STAIRS, -1.5, FOOT_SHADOW_FADE * leg + 0.01)
    assert shade.sum() < totals[2]  # only the pelvis's faint one is left
