"""The walk and crowd views' scenery: sky bands, the parallax hill, the one-metre grid and the
ground, each cached in tiles fixed to the world (see :meth:`game.canvas.Canvas.layer`)."""

from __future__ import annotations

import functools
import itertools
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from game.camera import Camera2D
from game.canvas import Canvas, fill_under
from game.palette import PALETTE, Color, mix

if TYPE_CHECKING:
    from game.world.terrain import Terrain

SKY_TOP: Color = (14, 18, 32)
SKY_HORIZON: Color = (54, 62, 92)
SKY_BANDS = 24
SKY_COLORS: tuple[Color, ...] = tuple(
    mix(SKY_TOP, SKY_HORIZON, t) for t in np.linspace(0.0, 1.0, SKY_BANDS).tolist()
)
# The hill: parallax factor, height of the ridge (fraction of the view), wave length (px),
# colour.
HILL: tuple[float, float, float, Color] = (0.35, 0.55, 330.0, (28, 34, 50))
HILL_SAMPLES = 64  # ridge points across one window width
GROUND_DEEP: Color = (34, 38, 32)
GRID_COLOR: Color = mix(SKY_HORIZON, PALETTE["grid_major"], 0.35)  # the one-metre grid
# Static props are cached as sprites (see game.view.props.PropPainter): their
# anti-aliased edges blend with this backdrop, the colour of the near hills they mostly
# stand in front of.
SCENERY_BACKDROP: Color = HILL[3]
# The sky with the hills and the ground are cached in tiles this many pixels wide (see
# Scenery.draw_sky and draw_ground); the ground's tiles are transparent where they are
# TILE_KEY, a colour no scenery has (their drawing is aliased: no edge blends with it).
SCENERY_TILE_PX = 512
TILE_KEY: Color = (255, 0, 255)
STRATUM_M = 0.35  # the darker stratum lies this far under the surface
EDGE_PX = 4  # the surface line's width

_GROUND_VERSIONS = itertools.count()  # a number per terrain drawn, unique in the process


class Scenery:
    """Draws the sky, the grid and the ground for a camera over a terrain; keeps the
    ground's bands by column for the terrain and scale last drawn."""

    def __init__(self) -> None:
        # the terrain and scale last drawn, their number in the ground tiles' cache keys,
        # and the ground's bands by column
        self._ground: tuple[Terrain | None, float, int, dict[int, GroundBand]] = (
            None,
            0.0,
            -1,
            {},
        )

    def draw_sky(self, canvas: Canvas, camera: Camera2D, terrain: Terrain) -> None:
        """The sky's level bands and the hill, which scrolls with the camera at its
        parallax. The rows the ridge crosses are cached in tiles (with the bands behind
        it, which being level scroll with it unseen), the tile beyond either edge readied
        ahead; the bands above them are filled (filling costs less than copying a cached
        sky in: no read), as is the hill's solid body under them, in each of the
        ground's columns down to where its opaque tile leaves no sky."""
        left, top, width, height = camera.viewport
        parallax, *_, color = HILL
        row0, rows = _ridge_rows(height)
        band = height / SKY_BANDS
        for i, sky in enumerate(SKY_COLORS):
            if i * band >= row0:
                break
            canvas.rect((left, top + i * band, width, band + 1), sky)
        shift = round(camera.center_w[0] * camera.scale * parallax)
        tile = SCENERY_TILE_PX
        first, last = (left + shift) // tile, (left + shift + width - 1) // tile
        for k in range(first - 1, last + 2):
            key = ("ridge", width, height, k)
            paint = functools.partial(paint_ridge_tile, u0=k * tile, width=width, height=height)
            if first <= k <= last:
                canvas.layer(
                    key, TILE_KEY, paint, (k * tile - shift, top + row0, tile, rows - row0)
                )
            else:
                canvas.ready_layer(key, TILE_KEY, paint, (tile, rows - row0))
        # the body column by column of the ground, each down to that column's surface
        _, ox, oy, columns = self.columns(camera, terrain)
        for shown, ground in columns:
            x0 = max(left, ox + ground.left)
            x1 = min(left + width, ox + ground.left + ground.width)
            floor = min(top + height, oy + ground.surface_low)
            if shown and x1 > x0 and floor > top + rows:
                canvas.rect((x0, top + rows, x1 - x0, floor - top - rows), color)

    def sky_floor(self, camera: Camera2D, terrain: Terrain) -> int:
        """The row under which the ground's tiles cover every column of the view: the
        lowest row its surface line reaches (the tiles are opaque from there down), or the
        view's bottom. The hill and the grid are not drawn under it."""
        top, height = camera.viewport[1], camera.viewport[3]
        _, _, oy, columns = self.columns(camera, terrain)
        return min(top + height, max(oy + band.surface_low for shown, band in columns if shown))

    def draw_grid(self, canvas: Canvas, camera: Camera2D, terrain: Terrain) -> None:
        """One-metre grid lines, axis-aligned and one pixel wide: each is a 1-px rectangle
        (a filled rectangle costs a fraction of a line drawn pixel by pixel), drawn only
        where the ground will not cover it (a column down to the surface line, a row
        above the sky's floor): a column of the whole window's height costs ~9 µs."""
        left, top, width, height = camera.viewport
        color = GRID_COLOR
        floor = self.sky_floor(camera, terrain)
        x0, x1 = camera.visible_x_range()
        xs = np.arange(math.floor(x0), math.ceil(x1) + 1, dtype=float)
        for x, ground in zip(xs.tolist(), terrain.height_at(xs).tolist(), strict=True):
            column, surface = camera.point_to_screen(x, ground)
            bottom = min(floor, surface + EDGE_PX)  # the surface line is EDGE_PX wide
            if bottom > top:
                canvas.rect((column, top, 1, bottom - top), color)
        cy, half = camera.center_w[1], 0.5 * height / camera.scale
        for y in range(math.floor(cy - half), math.ceil(cy + half) + 1):
            row = camera.point_to_screen(0.0, y)[1]
            if row < floor:
                canvas.rect((left, row, width, 1), color)

    def draw_ground(self, canvas: Canvas, camera: Camera2D, terrain: Terrain) -> None:
        """The ground, in columns ``SCENERY_TILE_PX`` wide fixed to the world: each is a
        cached tile of the rows its surface and stratum lines cross (see
        :func:`ground_band`), see-through above the surface, and a rectangle of the deep
        colour under it. A new terrain (an edit, a reload) or scale makes new tiles; the
        column beyond either edge is readied ahead."""
        top, height = camera.viewport[1], camera.viewport[3]
        version, ox, oy, columns = self.columns(camera, terrain)
        for shown, band in columns:
            paint = functools.partial(paint_ground_band, band=band)
            size = (band.width, band.bottom - band.top)
            if not shown:
                canvas.ready_layer(("ground", version, band.left), TILE_KEY, paint, size)
                continue
            x, y = ox + band.left, oy + band.top
            canvas.layer(("ground", version, band.left), TILE_KEY, paint, (x, y, *size))
            deep_from = oy + band.bottom
            if deep_from < top + height:
                canvas.rect((x, deep_from, band.width, top + height - deep_from), GROUND_DEEP)

    def columns(
        self, camera: Camera2D, terrain: Terrain
    ) -> tuple[int, int, int, list[tuple[bool, GroundBand]]]:
        """The ground's columns in and beside the view: the terrain's number in the tiles'
        keys, where the world's origin lands (whole pixels: the tiles move by pixels) and,
        from the column left of the view to the one right of it, (in view?, its band)."""
        left, _, width, _ = camera.viewport
        scale, side = camera.scale, SCENERY_TILE_PX
        if self._ground[0] is not terrain or self._ground[1] != scale:
            self._ground = (terrain, scale, next(_GROUND_VERSIONS), {})
        _, _, version, bands = self._ground
        ox, oy = (round(v) for v in camera.point_to_screen(0.0, 0.0))
        first, last = (left - ox) // side, (left + width - 1 - ox) // side
        columns = []
        for i in range(first - 1, last + 2):
            band = bands.get(i)
            if band is None:
                band = bands[i] = ground_band(terrain, scale, i * side, side)
            columns.append((first <= i <= last, band))
        return version, ox, oy, columns


def _ridge_rows(height: int) -> tuple[int, int]:
    """The rows ``[first, last)`` from the view's top that the hill's ridge crosses
    (its bumps reach ±1), with a row to spare either way."""
    _, ridge, *_ = HILL
    middle = height * (0.62 - (ridge - 0.35))
    return math.floor(middle - height * 0.05) - 1, math.ceil(middle + height * 0.05) + 1


def _ridge(us: NDArray[np.float64], height: int) -> NDArray[np.float64]:
    """The hill's ridge, rows from the view's top, at ``us`` (pixels along the hills'
    own scrolled axis), shape ``(N,)`` like ``us``."""
    _, ridge, wavelength, _ = HILL
    phase = us / wavelength
    # two incommensurate sines make a ridge that never visibly repeats
    bumps = 0.6 * np.sin(phase * 2 * math.pi) + 0.4 * np.sin(phase * 4.7 + 1.3)
    horizon = height * 0.62
    return horizon - height * (ridge - 0.35) - bumps * height * 0.05


def paint_ridge_tile(canvas: Canvas, u0: int, width: int, height: int) -> None:
    """One tile of the rows the hill's ridge crosses (see :func:`_ridge_rows`), its
    pixels ``u0`` onwards along the hills' scrolled axis, for a view ``width`` x
    ``height``: the sky's bands behind the ridge, the hill under it. Every coordinate is
    whole pixels of that axis and of the view before the tile's corner is taken off, so
    tiles meet without a seam and line up with the bands filled above them."""
    tile_w, tile_h = canvas.size
    row0 = _ridge_rows(height)[0]
    band = height / SKY_BANDS
    for i, sky in enumerate(SKY_COLORS):
        if row0 - band - 1 < i * band < row0 + tile_h:  # the bands reaching into the tile
            canvas.rect((0, i * band - row0, tile_w, band + 1), sky)
    step = width / (HILL_SAMPLES - 1)
    n = np.arange(math.floor(u0 / step) - 1, math.ceil((u0 + tile_w) / step) + 2, dtype=float)
    us = n * step
    outline = np.rint(np.stack([us, _ridge(us, height)], axis=-1)) - (u0, row0)
    fill_under(canvas, outline, HILL[3])


@dataclass(frozen=True, slots=True)
class GroundBand:
    """One column of the ground, ``width`` pixels from ``left``, in world pixels (x right,
    y down from the world's origin, whole pixels): the terrain's surface and the stratum
    under it as lines, shape ``(N, 2)``, from the last vertex left of the column to the
    first right of it, and the rows ``[top, bottom)`` they cross inside it (with room for
    the surface line's width). Under ``bottom`` all is the deep colour; under
    ``surface_low``, the lowest row the surface line reaches in the column, all is ground
    (the tile is opaque from its surface line down)."""

    left: int
    width: int
    surface: NDArray[np.float64]
    stratum: NDArray[np.float64]
    top: int
    bottom: int
    surface_low: int


def ground_band(terrain: Terrain, scale: float, left: int, width: int) -> GroundBand:
    """The column of the ground ``width`` pixels wide from world pixel ``left`` onwards,
    at ``scale`` px/m. Every point is rounded to a whole pixel of the world, so columns
    drawn side by side meet without a seam."""
    world = Camera2D(scale=scale, viewport=(0, 0, 0, 0))  # world metres to world pixels
    pad = EDGE_PX / scale
    x_lo, x_hi = left / scale - pad, (left + width) / scale + pad
    points = terrain.points
    ends = (min(points[0, 0], x_lo) - 1.0, max(points[-1, 0], x_hi) + 1.0)  # level beyond
    line = np.concatenate([[(ends[0], points[0, 1])], points, [(ends[1], points[-1, 1])]])
    first = int(np.searchsorted(line[:, 0], x_lo, "right")) - 1
    last = int(np.searchsorted(line[:, 0], x_hi, "left"))
    line = line[first : last + 1]
    # the heights inside the column: its vertices there and the ground at its two edges
    inside = line[(line[:, 0] > x_lo) & (line[:, 0] < x_hi), 1]
    heights = np.concatenate([inside, terrain.height_at(np.array([x_lo, x_hi]))])
    return GroundBand(
        left=left,
        width=width,
        surface=np.rint(world.to_screen(line)),
        stratum=np.rint(world.to_screen(line - (0.0, STRATUM_M))),
        top=math.floor(-heights.max() * scale) - EDGE_PX,
        bottom=math.ceil(-(heights.min() - STRATUM_M) * scale) + EDGE_PX,
        surface_low=math.ceil(-heights.min() * scale) + EDGE_PX,
    )


def paint_ground_band(canvas: Canvas, band: GroundBand) -> None:
    """The ground's fills and surface line in a tile of ``band``'s rows (whole pixels
    moved by whole pixels: the same edges as in any other tile)."""
    corner = (band.left, band.top)
    surface = band.surface - corner
    fill_under(canvas, surface, PALETTE["ground"])
    # a darker stratum a little below the surface gives the ground some depth
    fill_under(canvas, band.stratum - corner, GROUND_DEEP)
    canvas.lines(surface, PALETTE["ground_edge"], EDGE_PX)
