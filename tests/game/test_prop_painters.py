"""The walk's prop painters leave out only what would not show."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import numpy as np
import pygame
import pytest

import game.scenes.prop_painters as painters
from game.camera import Camera2D
from game.canvas import WorldPen
from game.pygame_canvas import PygameCanvas
from game.world.terrain import Terrain

FLAT = Terrain(np.array([[-50.0, 0.0], [50.0, 0.0]]))


def _ball_pixels(x: float, y: float, culled: bool, monkeypatch: pytest.MonkeyPatch) -> Any:
    """The pixels of a 0.11 m ball at world (x, y) over flat ground, painted on a 320x180
    canvas centred on the origin at 100 px/m; ``culled`` False draws it wherever it is."""
    canvas = PygameCanvas(pygame.Surface((320, 180)))
    canvas.fill((40, 50, 60))
    camera = Camera2D(center_w=(0.0, 0.0), scale=100.0, viewport=(0, 0, 320, 180))
    ball = SimpleNamespace(
        drawn=lambda alpha: (np.array([x, y]), 0.7), spec=SimpleNamespace(radius=0.11)
    )
    with monkeypatch.context() as patch:
        if not culled:
            patch.setattr(painters, "_on_canvas", lambda *args: True)
        painters.paint_ball(WorldPen(canvas, camera), ball, SimpleNamespace(terrain=FLAT), 1.0)  # type: ignore[arg-type]
    return pygame.surfarray.array3d(canvas.surface)


@pytest.mark.parametrize("x", [-1.8, -1.7, -1.65, -1.55, 0.0, 1.55, 1.65, 1.7, 1.8])
@pytest.mark.parametrize("y", [-1.1, -1.0, -0.95, 0.11, 0.95, 1.0, 1.1])
def test_a_ball_is_left_out_only_where_none_of_it_would_show(
    x: float, y: float, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the canvas shows x in [-1.6, 1.6] and y in [-0.9, 0.9]: balls just inside, across and
    # just outside every edge, on the ground (y = 0.11) and in the air
    drawn = _ball_pixels(x, y, culled=False, monkeypatch=monkeypatch)
    assert (_ball_pixels(x, y, culled=True, monkeypatch=monkeypatch) == drawn).all()
