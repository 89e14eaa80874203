"""How each prop plug-in is drawn: one painter per prop name, through the renderer-neutral
:class:`~game.canvas.WorldPen` (no pygame), plus the hint over a plug-in under the pointer.

Adding a prop plug-in adds its painter to :data:`PAINTERS`.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import ArrayLike

from game.canvas import WorldPen
from game.palette import PALETTE, mix
from game.world.props.ball import KickBall

if TYPE_CHECKING:
    from game.scenes.walk import WalkSim
    from game.world.terrain import Terrain

HOVER_M = 0.1  # the pointer this close to a plug-in shows what a click does
BALL_PATCH_RADII = 0.42  # the ball's middle patch reaches this fraction of its radius
SHADOW_FADE_M = 1.0  # a ball this high over the ground casts no shadow
_SHADOW_TURNS = np.linspace(0.0, math.tau, 20, endpoint=False)  # the shadow's 20 corners
_SHADOW_COS, _SHADOW_SIN = np.cos(_SHADOW_TURNS), np.sin(_SHADOW_TURNS)
_PATCH_TURNS = np.arange(5) * math.tau / 5  # the patch's corners, from its first


def paint_ball(pen: WorldPen, ball: KickBall, terrain: Terrain) -> None:
    """The ball: its shadow on the ground (narrower as it rises), a white ball with a dark
    rim, and a football's patch and seams turned by how far it has rolled."""
    centre, r = ball.state.centre, ball.spec.radius
    ground = float(terrain.height_at(centre[0]))
    lift = max(float(centre[1]) - r - ground, 0.0)
    shade = max(1.0 - lift / SHADOW_FADE_M, 0.0)
    if shade > 0.0:
        half = r * (0.6 + 0.4 * shade)
        shadow = np.stack([centre[0] + half * _SHADOW_COS, ground + 0.02 * _SHADOW_SIN], -1)
        pen.polygon(shadow, mix(PALETTE["ground"], PALETTE["black"], 0.45 * shade))
    ink = mix(PALETTE["black"], PALETTE["background"], 0.2)
    pen.circle(centre, r, mix(PALETTE["white"], PALETTE["metal"], 0.15), 0)
    # the middle patch: a pentagon, and a seam from each corner to the rim
    corners = ball.state.angle + math.pi / 2 + _PATCH_TURNS
    ring = np.stack([np.cos(corners), np.sin(corners)], -1)
    patch = centre + BALL_PATCH_RADII * r * ring
    pen.polygon(patch, ink)
    width = max(int(pen.camera.length_px(0.012)), 1)
    (x, y), rim = centre.tolist(), 0.97 * r
    for corner, (way_x, way_y) in zip(patch.tolist(), ring.tolist(), strict=True):
        pen.line(corner, (x + rim * way_x, y + rim * way_y), ink, width)
    pen.circle(centre, r, ink, max(width, 2))


PAINTERS: dict[str, Callable[[WorldPen, Any, Terrain], None]] = {"ball": paint_ball}

HINTS: dict[str, str] = {"ball": "click: kick the ball"}


def paint_plug_ins(pen: WorldPen, walk: WalkSim | None, pointer: ArrayLike | None) -> None:
    """Every prop plug-in of ``walk`` (None: a scene without them), and over one under the
    world ``pointer`` (None: none) that the hero is not already using, a ring and what a
    click does."""
    if walk is None:
        return
    for plug_in in walk.plug_ins:
        PAINTERS[plug_in.name](pen, plug_in, walk.terrain)
    if pointer is None:
        return
    at = np.asarray(pointer, dtype=float)
    for plug_in in walk.plug_ins:
        if plug_in.under(at, HOVER_M) and not plug_in.busy:
            centre = plug_in.centre()
            pen.ring_px(centre, 0.18 * pen.camera.scale, PALETTE["white"], 2)
            pen.text(centre, HINTS[plug_in.name], PALETTE["white"], 15, "midbottom", (0, -40))
