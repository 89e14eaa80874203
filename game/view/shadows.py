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
_STEPS = np.arange(SAMPLES, dtype=float)  # 0, 1, ... SAMPLES − 1


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
    shadows = []
    for foot, height in zip(soles.tolist(), heights.tolist(), strict=True):
        xs = [point[0] for point in foot]
        half = 0.5 * (max(xs) - min(xs)) + FOOT_SHADOW_MARGIN * leg
        fade = min(height / (FOOT_SHADOW_FADE * leg), 1.0)
        shadow = (0.5 * (max(xs) + min(xs)), half, FOOT_SHADOW_DEPTH * leg)
        shadows.append((shadow, fade, FOOT_SHADOW_ALPHA))
    x, y = float(pelvis[0]), float(pelvis[1])
    above = y - float(terrain.height_at(x)) - leg  # 0 about standing straight on the ground
    fade = min(max(above, 0.0) / (PELVIS_SHADOW_FADE * leg), 1.0)
    shadow = (x, PELVIS_SHADOW_HALF * leg, PELVIS_SHADOW_DEPTH * leg)
    shadows.append((shadow, fade, PELVIS_SHADOW_ALPHA))
    draw_shadows(pen, terrain, shadows)


def draw_shadows(
    pen: WorldPen,
    terrain: Terrain,
    shadows: list[tuple[tuple[float, float, float], float, int]],
) -> None:
    """Soft shadows, each ``((centre x, half length, depth), fade, alpha)``: the shadow in
    metres along the ground, ``fade`` (0 on the ground, 1 gone) of the way to fading out,
    ``alpha`` its core's opacity. Each is :data:`LAYERS` nested bands, each from the top of
    the ground's edge line down by an elliptic profile (``depth · sqrt(1 − u²)`` at ``u``
    half lengths from the centre), measured straight down, so on a riser it hugs the
    riser's face. Every band of every shadow is laid out in one batch (:func:`_bands`)."""
    shown = [(shadow, fade, alpha) for shadow, fade, alpha in shadows if fade < 1.0]
    if not shown:
        return
    centres, halves, depths = [], [], []
    for (centre, half, depth), fade, _ in shown:
        half *= 1.0 - SHRINK_AT_FADE * fade
        for k in range(LAYERS):
            share = 1.0 - k / LAYERS  # the outer layer whole, each inner one shorter
            centres.append(centre)
            halves.append(half * share)
            depths.append(depth * share)
    outlines, sizes = _bands(pen, terrain, np.array(centres), np.array(halves), np.array(depths))
    alphas = [
        round(alpha * (1.0 - fade) * (k + 1) / LAYERS)
        for _, fade, alpha in shown
        for k in range(LAYERS)
    ]
    pen.canvas.shades(outlines, sizes, alphas, SHADOW_COLOR, LAYERS)


def _bands(
    pen: WorldPen,
    terrain: Terrain,
    centres: NDArray[np.float64],
    halves: NDArray[np.float64],
    depths: NDArray[np.float64],
) -> tuple[NDArray[np.float64], list[int]]:
    """The outlines in pixels of bands along the ground, one per row of ``centres``,
    ``halves``, ``depths`` (B,): band ``b`` from ``centre − half`` to ``centre + half``, its
    top on the top of the edge line, its bottom ``depth · sqrt(1 − u²)`` metres under the
    surface. Each is sampled evenly and at every terrain vertex inside it (found by binary
    search), so it bends where the ground does; all bands' points go through one height
    query and one camera transform. Returns the outlines end to end, shape ``(N, 2)``, and
    each one's number of points."""
    # SAMPLES points evenly from centre − half to centre + half (as np.linspace lays them)
    start, stop = centres - halves, centres + halves
    even = _STEPS * ((stop - start) / (SAMPLES - 1))[:, None] + start[:, None]  # (B, SAMPLES)
    even[:, -1] = stop
    vertices = terrain.xs
    first = np.searchsorted(vertices, start, side="right")  # the first past the left end
    counts = np.searchsorted(vertices, stop, side="left") - first  # and before the right
    band = np.repeat(np.arange(len(centres)), SAMPLES)
    xs = even.ravel()
    if counts.any():  # terrain vertices inside some bands: merged in along the ground
        inside_band = np.repeat(np.arange(len(centres)), counts)
        # vertex j of band b: index first[b] + j, j = its place in the run minus where b starts
        starts = np.cumsum(counts) - counts
        inside = vertices[first[inside_band] + np.arange(len(inside_band)) - starts[inside_band]]
        band = np.concatenate([band, inside_band])
        xs = np.concatenate([xs, inside])
        order = np.lexsort((xs, band))  # by band, then along the ground
        xs, band = xs[order], band[order]
    u = (xs - centres[band]) / np.maximum(halves, 1e-9)[band]
    # the surface (top) and the band's bottom under it, in one array for one camera transform
    world = np.empty((2, len(xs), 2))
    world[:, :, 0] = xs
    world[:, :, 1] = terrain.height_at(xs)
    world[1, :, 1] -= depths[band] * np.sqrt(np.clip(1.0 - u * u, 0.0, 1.0))
    screen = pen.camera.to_screen(world)
    screen[0, :, 1] -= EDGE_PX / 2  # the top of the edge line (screen rows grow downward)
    # each band's outline: its top left to right, then its bottom right to left; point i
    # of band b (its points [s, e)) is the outline's point s + i, the bottom's e + (e − 1 − i)
    runs = counts + SAMPLES
    ends = np.cumsum(runs)
    s, e, i = ends[band] - runs[band], ends[band], np.arange(len(xs))
    picks = np.empty(2 * len(xs), dtype=np.intp)
    picks[s + i] = i
    picks[e + i] = len(xs) + s + e - 1 - i
    return screen.reshape(-1, 2)[picks], (2 * runs).tolist()
