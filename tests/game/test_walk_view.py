"""The walk view's cached scenery: the props' sprites stay where the world has them through
camera moves, window resizes and F5 reloads."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pygame
import pytest

from game.palette import PALETTE
from game.pygame_canvas import PygameCanvas
from game.scene import SceneConfig
from game.scenes.walk import WalkSim
from game.scenes.walk_view import WalkView

ASSETS = Path(__file__).resolve().parents[2] / "assets"


def _knob_pixel(view: WalkView, canvas: PygameCanvas) -> tuple[int, int]:
    """Draw the props on a cleared canvas; where the camera puts the door's knob."""
    canvas.surface.fill((0, 0, 0))
    view._draw_props(canvas)
    assert view.sim.props is not None
    x, y = view.camera.point_to_screen(*(float(v) for v in view.sim.props.props.door.knob))
    return round(x), round(y)


def _is_knob(canvas: PygameCanvas, at: tuple[int, int]) -> bool:
    return tuple(canvas.surface.get_at(at))[:3] == PALETTE["accent"]


@pytest.fixture
def view() -> WalkView:
    return WalkView(WalkSim(SceneConfig()))


@pytest.mark.parametrize("size", [(1280, 720), (960, 540), (1920, 1080)])
def test_the_door_sprite_follows_the_camera_at_every_window_size(
    view: WalkView, size: tuple[int, int]
) -> None:
    pygame.font.init()
    canvas = PygameCanvas(pygame.Surface(size))
    view.layout(size)
    for center in [(-1.0, 1.2), (-0.63, 1.37), (0.4, 0.9), (-2.2, 2.05)]:
        view.camera.center_w = center
        knob = _knob_pixel(view, canvas)
        assert _is_knob(canvas, knob), (size, center)


def test_an_f5_reload_draws_the_door_where_the_new_props_file_puts_it(
    view: WalkView, tmp_path: Path
) -> None:
    canvas = PygameCanvas(pygame.Surface((1280, 720)))
    view.camera.center_w = (-1.0, 1.2)
    before = _knob_pixel(view, canvas)
    assets = tmp_path / "assets"
    shutil.copytree(ASSETS, assets)
    props = json.loads((assets / "props.json").read_text())
    props["door"]["x"] += 0.5
    props["door"]["knob"][1] += 0.3  # the sprite's content changes, not only its place
    (assets / "props.json").write_text(json.dumps(props))
    view.sim.assets_dir = assets
    view.sim.reload_assets()
    after = _knob_pixel(view, canvas)
    assert after[0] - before[0] == pytest.approx(0.5 * view.camera.scale, abs=1)
    assert before[1] - after[1] == pytest.approx(0.3 * view.camera.scale, abs=1)
    assert _is_knob(canvas, after) and not _is_knob(canvas, before)
