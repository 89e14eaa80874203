"""Contact shadows: one soft shadow on the ground under each of the hero's feet and a faint
one under his pelvis. Each lies along the terrain under it (slopes, treads and the risers
between them), from the top of the ground's edge line down into the ground, never above
it into the air; it shrinks and fades as what casts it rises off the ground. Drawn after
the ground and before the props and the hero, so a cup on the ground stands over it."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from game.canvas import WorldPen
from game.palette import PALETTE
from game.view.scenery import EDGE_PX

if TYPE_CHECKING:
    from game.world.rig import Rig
    from game.world.terrain import Terrain

# Sizes are proportions of the leg (hip to ankle, ~0.9 m for the hero).
FOOT_SHADOW_MARGIN = 0.05  # the shadow reaches this far past the heel and the toe
FOOT_SHADOW_DEPTH = 0.07  # how far it reaches down into the ground at its middle
FOOT_SHADOW_FADE = 0.4  # a foot this high above the ground casts none
FOOT_SHADOW_ALPHA = 170  # opacity of its core, 0-255 (its edges are lighter)
PELVIS_SHADOW_HALF = 0.3  # half the pelvis's shadow's length
PELVIS_SHADOW_DEPTH = 0.035
PELVIS_SHADOW_FADE = 0.8  # a pelvis this much higher than the leg's length casts none
PELVIS_SHADOW_ALPHA = 60
SHRINK_AT_FADE = 0.4  # a shadow about to fade out is this much shorter than on the ground
LAYERS = 3  # nested layers, each inner one shorter, shallower and darker: a soft edge
SAMPLES = 13  # points along a shadow, besides the terrain's own vertices under it
SHADOW_COLOR = PALETTE["black"]


def draw_contact_shadows(
    pen: WorldPen,
    terrain: Terrain,
    rig: Rig,
    pelvis: NDArray[np.float64],
    soles: NDArray[np.float64],
) -> None:
    """The shadows of the hero's feet, from their drawn ``soles`` (world, heel, ball and
    toe tip of each foot, shape ``(2, 3, 2)``), and of his ``pelvis`` (world ``(2,)``)."""
    leg = rig.legs.limb.reach
    ground = terrain.height_at(soles[..., 0])
    heights = np.maximum(soles[..., 1] - ground, 0.0).min(axis=-1)  # (2,): each foot's lowest
    for foot, height in zip(soles.tolist(), heights.tolist(), strict=True):
        xs = [point[0] for point in foot]
        half = 0.5 * (max(xs) - min(xs)) + FOOT_SHADOW_MARGIN * leg
        fade = min(height / (FOOT_SHADOW_FADE * leg), 1.0)
        shadow = (0.5 * (max(xs) + min(xs)), half, FOOT_SHADOW_DEPTH * leg)
        draw_shadow(pen, terrain, shadow, fade, FOOT_SHADOW_ALPHA)
    x, y = float(pelvis[0]), float(pelvis[1])
    above = y - float(terrain.height_at(x)) - leg  # 0 about standing straight on the ground
    fade = min(max(above, 0.0) / (PELVIS_SHADOW_FADE * leg), 1.0)
    shadow = (x, PELVIS_SHADOW_HALF * leg, PELVIS_SHADOW_DEPTH * leg)
    draw_shadow(pen, terrain, shadow, fade, PELVIS_SHADOW_ALPHA)


def draw_shadow(
    pen: WorldPen,
    terrain: Terrain,
    shadow: tuple[float, float, float],
    fade: float,
    alpha: int,
) -> None:
    """One soft shadow ``(centre x, half length, depth)`` in metres along the ground,
    ``fade`` (0 on the ground, 1 gone) of the way to fading out, ``alpha`` its core's
    opacity: :data:`LAYERS` nested bands, each from the top of the ground's edge line
    down by an elliptic profile (``depth · sqrt(1 − u²)`` at ``u`` half lengths from the
    centre), measured straight down, so on a riser it hugs the riser's face."""
    if fade >= 1.0:
        return
    centre, half, depth = shadow
    half *= 1.0 - SHRINK_AT_FADE * fade
    layers, alphas = [], []
    for k in range(LAYERS):
        share = 1.0 - k / LAYERS  # the outer layer whole, each inner one shorter
        layers.append(_band(pen, terrain, centre, half * share, depth * share))
        alphas.append(round(alpha * (1.0 - fade) * (k + 1) / LAYERS))
    pen.canvas.shade(layers, SHADOW_COLOR, alphas)


def _band(
    pen: WorldPen, terrain: Terrain, centre: float, half: float, depth: float
) -> NDArray[np.float64]:
    """The outline in pixels of a band along the ground from ``centre − half`` to
    ``centre + half``: its top on the top of the edge line, its bottom ``depth · sqrt(1 −
    u²)`` metres under the surface. Sampled evenly and at every terrain vertex inside,
    so it bends where the ground does."""
    even = np.linspace(centre - half, centre + half, SAMPLES)
    vertices = terrain.xs
    inside = vertices[(vertices > even[0]) & (vertices < even[-1])]
    xs = np.sort(np.concatenate([even, inside]))
    surface = np.stack([xs, terrain.height_at(xs)], axis=-1)
    u = (xs - centre) / max(half, 1e-9)
    under = surface - np.stack(
        [np.zeros_like(xs), depth * np.sqrt(np.clip(1.0 - u * u, 0.0, 1.0))], -1
    )
    top = pen.camera.to_screen(surface) - (0.0, EDGE_PX / 2)  # screen rows grow downward
    bottom = pen.camera.to_screen(under)[::-1]
    return np.concatenate([top, bottom])
