"""Shadows on the ground under a character."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from game.canvas import WorldPen
from game.palette import PALETTE, mix

if TYPE_CHECKING:
    from game.world.terrain import Terrain

_SHADOW_T = np.linspace(0.0, 2.0 * math.pi, 24)  # the shadow's ellipse: 24 points around
_SHADOW_COS, _SHADOW_SIN = np.cos(_SHADOW_T), np.sin(_SHADOW_T)
SHADOW_COLOR = mix(PALETTE["ground"], PALETTE["black"], 0.35)


def draw_shadow(pen: WorldPen, terrain: Terrain, x: float, y: float) -> None:
    """A soft ellipse on the ground under the hero's pelvis at ``(x, y)``, flatter the
    higher the pelvis: the ellipse's centre and radii in pixels, its 24 points in one
    numpy expression."""
    ground = float(terrain.height_at(x))
    width = 0.32 / max(y - ground, 0.5)
    scale = pen.camera.scale
    cx, cy = pen.camera.point_to_screen(x, ground)
    ellipse = np.stack([cx + (width * scale) * _SHADOW_COS, cy - (0.035 * scale) * _SHADOW_SIN], -1)
    pen.canvas.polygon(ellipse.tolist(), SHADOW_COLOR)  # plain numbers: checked in Python
