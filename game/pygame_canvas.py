"""The pygame adapter of :class:`game.canvas.Canvas`: the canvas and its caches.

With the helpers it draws with (:mod:`game.pygame_pixels`, :mod:`game.pygame_text`,
:mod:`game.pygame_sprites`), the only drawing modules that import pygame.
"""

from __future__ import annotations

import collections
import itertools
import math
from collections.abc import Callable, Hashable, Sequence

import numpy as np
import pygame
from numpy.typing import ArrayLike

from game.canvas import Canvas, Point
from game.palette import Color
from game.pygame_pixels import (
    PX_LIMIT,
    clamp_point,
    clamp_rect,
    fill_by_cache_lines,
    finite_px,
    point_list,
)
from game.pygame_sprites import RingSprites, disc_sprite, premultiplied_sprite
from game.pygame_text import TextFont, measure_text, render_text

# Rendered texts, text sizes and translucent panels are kept (most HUD strings repeat every
# frame; a render costs ~10 µs, a measure ~3 µs, a new alpha surface ~30 µs); the caches are
# emptied when this full.
_CACHE_LIMIT = 512
# text measures, (text, size, bold) -> (width, height) px: a function of the default font
# alone, so every canvas shares them (the HUD measures the same texts every frame, and the
# F1 help tries each of its rows at several font sizes)
_TEXT_SIZES: dict[tuple[str, int, bool], tuple[int, int]] = {}
_TEXT_SIZES_LIMIT = 8192  # (a few hundred kB; a full cache starts again)
# Filled discs of radii in this range are put down from cached sprites by discs() (a
# crowd's heads: ~0.15 µs a blit against ~0.8 µs a draw.circle call); larger ones are drawn.
_DISC_SPRITE_MIN_PX = 0.5
_DISC_SPRITE_MAX_PX = 64.0
# Filled rectangles of at least this many rows are split at cache-line boundaries
# (fill_by_cache_lines).
_SPLIT_FILL_ROWS = 8
# HUD sprites (see sprite): a few per scene and window size; emptied when this full.
_SPRITE_CACHE_LIMIT = 32
# Cached static layers (see layer): a window-sized layer takes ~3.7 MB at 1280x720; a
# camera that keeps moving makes a new one each frame, so the least recently used are
# dropped beyond this many bytes of pixels.
_LAYER_CACHE_BYTES = 32 << 20


class PygameCanvas:
    """Draws on a pygame surface; fonts, rendered texts and panel surfaces are cached."""

    def __init__(self, surface: pygame.Surface) -> None:
        self.surface = surface
        self._fonts: dict[tuple[int, bool], TextFont] = {}
        self._texts: dict[tuple[str, tuple[int, ...], int, bool], pygame.Surface] = {}
        self._panels: dict[tuple[tuple[int, ...], int], pygame.Surface] = {}
        self._rings = RingSprites()
        self._layers: dict[Hashable, pygame.Surface] = {}
        self._discs: dict[tuple[float, tuple[int, ...]], tuple[pygame.Surface, int]] = {}
        self._pixels: dict[tuple[int, ...], int] = {}  # colours as the surface's pixel values
        self._sprites: dict[Hashable, pygame.Surface] = {}
        # the boxes of the HUD panels and sprites put down since the app last cleared this
        # (each frame): the F1 help, drawn after them, goes where it covers none
        self.hud_boxes: list[tuple[float, float, float, float]] = []

    @property
    def size(self) -> tuple[int, int]:
        return self.surface.get_size()

    def _font(self, size: int, bold: bool) -> TextFont:
        key = (size, bold)
        font = self._fonts.get(key)
        if font is None:
            font = self._fonts[key] = TextFont(size, bold)
        return font

    def fill(self, color: Color) -> None:
        self.surface.fill(color)

    def line(self, a: Point, b: Point, color: Color, width: int = 1) -> None:
        ax, ay, bx, by = a[0], a[1], b[0], b[1]
        # one chained test for the common case (the swivel scene draws ~760 lines a frame)
        if not (
            -PX_LIMIT <= ax <= PX_LIMIT
            and -PX_LIMIT <= ay <= PX_LIMIT
            and -PX_LIMIT <= bx <= PX_LIMIT
            and -PX_LIMIT <= by <= PX_LIMIT
        ):
            a, b = clamp_point(a), clamp_point(b)
        pygame.draw.aaline(self.surface, color, a, b, width)

    def lines(self, points: ArrayLike, color: Color, width: int = 1, closed: bool = False) -> None:
        pts = point_list(points)
        if len(pts) < 2:
            return
        if width <= 1:
            pygame.draw.aalines(self.surface, color, closed, pts)
        else:
            pygame.draw.lines(self.surface, color, closed, pts, width)

    def segments(self, segments: ArrayLike, color: Color, width: int = 1) -> None:
        draw_line = pygame.draw.line
        surface = self.surface
        pairs = segments if isinstance(segments, (list, tuple)) else finite_px(segments).tolist()
        for a, b in pairs:
            if not (
                -PX_LIMIT <= a[0] <= PX_LIMIT
                and -PX_LIMIT <= a[1] <= PX_LIMIT
                and -PX_LIMIT <= b[0] <= PX_LIMIT
                and -PX_LIMIT <= b[1] <= PX_LIMIT
            ):
                a, b = clamp_point(a), clamp_point(b)
            draw_line(surface, color, a, b, width)

    def polylines(self, lines: ArrayLike, color: Color, width: int = 1) -> None:
        pts = finite_px(lines)
        if pts.ndim != 3 or pts.shape[1] < 2:
            return
        # a crowd makes thousands of these calls a frame, each mostly overhead: the colour
        # is passed as the surface's pixel value (no tuple to parse, the same pixels) and
        # the calls are made by map(), not a Python loop (~0.13 µs of ~0.9 µs a call)
        count, repeat = len(pts), itertools.repeat
        draws = map(
            pygame.draw.lines,
            repeat(self.surface, count),
            repeat(self._pixel(color), count),
            repeat(False, count),
            pts.tolist(),
            repeat(width, count),
        )
        collections.deque(draws, maxlen=0)  # (runs the calls)

    def _pixel(self, color: Color) -> int:
        """``color`` as the surface's pixel value (what pygame maps a colour tuple to)."""
        key = tuple(color)
        pixel = self._pixels.get(key)
        if pixel is None:
            if len(self._pixels) >= _CACHE_LIMIT:
                self._pixels.clear()
            pixel = self._pixels[key] = self.surface.map_rgb(key)
        return pixel

    def discs(self, centers: ArrayLike, radii: Sequence[float], colors: Sequence[Color]) -> None:
        pts = finite_px(centers)
        if pts.size == 0:
            return
        if not all(_DISC_SPRITE_MIN_PX <= float(r) <= _DISC_SPRITE_MAX_PX for r in radii):
            for row in pts.tolist():  # (NaN radii too: circle leaves them out)
                for center, radius, color in zip(row, radii, colors, strict=True):
                    self.circle(center, radius, color)
            return
        stamps = [self._disc(float(r), color) for r, color in zip(radii, colors, strict=True)]
        # draw.circle truncates a centre towards zero (int()); so is each sprite put down,
        # its disc drawn at the sprite's middle with the same radius: the same pixels
        sprites = [sprite for sprite, _ in stamps]
        halves = np.array([half for _, half in stamps])[:, None]  # (K, 1)
        corners = (pts.astype(np.intp) - halves).reshape(-1, 2).tolist()  # (astype truncates)
        self.surface.fblits(list(zip(itertools.cycle(sprites), corners)))

    def _disc(self, radius: float, color: Color) -> tuple[pygame.Surface, int]:
        """A filled aliased disc of ``radius`` as a colour-keyed sprite, and the offset of
        its centre from the sprite's corner; cached."""
        key = (radius, tuple(color))
        kept = self._discs.get(key)
        if kept is None:
            if len(self._discs) >= _CACHE_LIMIT:
                self._discs.clear()
            kept = self._discs[key] = disc_sprite(radius, color)
        return kept

    def shade(self, layers: Sequence[ArrayLike], color: Color, alphas: Sequence[int]) -> None:
        polygons = [np.asarray(layer, dtype=float) for layer in layers]
        drawn = [
            (p, a) for p, a in zip(polygons, alphas, strict=True) if p.ndim == 2 and len(p) >= 3
        ]
        if drawn:
            outlines = np.concatenate([p for p, _ in drawn])
            self.shades(
                outlines, [len(p) for p, _ in drawn], [a for _, a in drawn], color, len(drawn)
            )

    def shades(
        self,
        outlines: ArrayLike,
        sizes: Sequence[int],
        alphas: Sequence[int],
        color: Color,
        per_shade: int,
    ) -> None:
        # every point checked and each shade's pixel box found in one numpy call each
        points = finite_px(outlines)
        counts = np.asarray(sizes, dtype=np.intp)
        ends = np.cumsum(counts)
        firsts = (ends - counts)[::per_shade]  # each shade's first point
        lows = np.floor(np.minimum.reduceat(points, firsts)).astype(int).tolist()
        highs = (np.ceil(np.maximum.reduceat(points, firsts)) + 1).astype(int).tolist()
        visible = self.surface.get_rect()
        boxes = [
            pygame.Rect(x0, y0, x1 - x0, y1 - y0).clip(visible)
            for (x0, y0), (x1, y1) in zip(lows, highs, strict=True)
        ]
        # each shade's polygons on a sheet just as big as its box (clipped to the surface)
        per_box = np.diff([*firsts.tolist(), len(points)])
        corners = np.repeat([box.topleft for box in boxes], per_box, axis=0)
        on_sheets = (points - corners).tolist()
        bounds = [0, *ends.tolist()]
        for index, box in enumerate(boxes):
            if box.width <= 0 or box.height <= 0:
                continue
            sheet = pygame.Surface(box.size, pygame.SRCALPHA)
            sheet.fill((*color, 0))
            for k in range(index * per_shade, min((index + 1) * per_shade, len(sizes))):
                polygon = on_sheets[bounds[k] : bounds[k + 1]]
                pygame.draw.polygon(sheet, (*color, alphas[k]), polygon)
            self.surface.blit(sheet, box.topleft)

    def circle(self, center: Point, radius: float, color: Color, width: int = 0) -> None:
        radius = min(float(radius), PX_LIMIT)
        if not radius >= 0.5:  # (NaN too)
            return
        cx, cy = center[0], center[1]
        if not (-PX_LIMIT <= cx <= PX_LIMIT and -PX_LIMIT <= cy <= PX_LIMIT):
            cx, cy = clamp_point(center)
        if width == 0 or radius > 2000:
            pygame.draw.circle(self.surface, color, (cx, cy), radius, width)
            return
        ring = self._rings.get(radius, color, width)
        if ring is None:
            pygame.draw.aacircle(self.surface, color, (cx, cy), radius, width)
        else:
            # aacircle truncates its centre to whole pixels (towards zero); so does the sprite
            half = ring.get_width() // 2
            self.surface.blit(ring, (int(cx) - half, int(cy) - half))

    def arc(
        self, center: Point, radius: float, start: float, stop: float, color: Color, width: int = 1
    ) -> None:
        if not (1.0 <= radius <= PX_LIMIT and math.isfinite(start) and math.isfinite(stop)):
            return
        cx, cy = clamp_point(center)
        box = pygame.Rect(0, 0, 2 * radius, 2 * radius)
        box.center = (round(cx), round(cy))
        pygame.draw.arc(self.surface, color, box, start, stop, width)

    def polygon(self, points: ArrayLike, color: Color, width: int = 0) -> None:
        pts = point_list(points)
        if len(pts) >= 3:
            pygame.draw.polygon(self.surface, color, pts, width)

    def rect(self, rect: Sequence[float], color: Color, width: int = 0, radius: int = 0) -> None:
        box = clamp_rect(rect)
        if width == 0 and radius == 0 and box.height >= _SPLIT_FILL_ROWS:
            fill_by_cache_lines(self.surface, box, color)
        else:
            pygame.draw.rect(self.surface, color, box, width, border_radius=radius)

    def panel(self, rect: Sequence[float], color: Color, alpha: int) -> None:
        # the translucent surface is only as big as its visible part
        r = clamp_rect(rect).clip(self.surface.get_rect())
        if r.width <= 0 or r.height <= 0:
            return
        self.hud_boxes.append((float(rect[0]), float(rect[1]), float(rect[2]), float(rect[3])))
        # one translucent sheet per colour, grown to the largest panel asked for and blitted
        # in part: panels whose size changes every frame (a status line's width follows its
        # text) reuse it instead of filling a cache with a surface per size
        key = (tuple(color), alpha)
        overlay = self._panels.get(key)
        if overlay is None or overlay.get_width() < r.width or overlay.get_height() < r.height:
            if len(self._panels) >= _CACHE_LIMIT:
                self._panels.clear()
            old = (0, 0) if overlay is None else overlay.get_size()
            # round up to 64 px so a panel growing a pixel at a time re-allocates rarely
            size = (max(old[0], -(-r.width // 64) * 64), max(old[1], -(-r.height // 64) * 64))
            overlay = pygame.Surface(size, pygame.SRCALPHA)
            overlay.fill((*color, alpha))
            self._panels[key] = overlay
        self.surface.blit(overlay, r.topleft, pygame.Rect(0, 0, r.width, r.height))

    def text(
        self,
        pos: Point,
        text: str,
        color: Color,
        size: int = 16,
        anchor: str = "topleft",
        bold: bool = False,
    ) -> tuple[int, int]:
        key = (text, tuple(color), size, bold)
        image = self._texts.get(key)
        if image is None:
            if len(self._texts) >= _CACHE_LIMIT:
                self._texts.clear()
            image = self._texts[key] = render_text(self._font(size, bold), text, color)
        rect = image.get_rect()
        x, y = clamp_point(pos)
        setattr(rect, anchor, (round(x), round(y)))
        self.surface.blit(image, rect)
        return rect.size

    def text_size(self, text: str, size: int = 16, bold: bool = False) -> tuple[int, int]:
        key = (text, size, bold)
        measured = _TEXT_SIZES.get(key)
        if measured is None:
            if len(_TEXT_SIZES) >= _TEXT_SIZES_LIMIT:
                _TEXT_SIZES.clear()
            measured = _TEXT_SIZES[key] = measure_text(self._font(size, bold), text)
        return measured

    def layer(
        self,
        key: Hashable,
        backdrop: Color,
        draw: Callable[[Canvas], object],
        rect: Sequence[float] | None = None,
    ) -> None:
        place = self.surface.get_rect() if rect is None else clamp_rect(rect)
        if place.width <= 0 or place.height <= 0 or not place.colliderect(self.surface.get_rect()):
            return
        self.surface.blit(self._layer(key, backdrop, draw, place.size), place.topleft)

    def sprite(
        self, key: Hashable, rect: Sequence[float], draw: Callable[[Canvas], object]
    ) -> None:
        place = clamp_rect(rect).clip(self.surface.get_rect())
        if place.width <= 0 or place.height <= 0:
            return
        self.hud_boxes.append((float(rect[0]), float(rect[1]), float(rect[2]), float(rect[3])))
        full_key = (key, tuple(place))
        image = self._sprites.get(full_key)
        if image is None:
            if len(self._sprites) >= _SPRITE_CACHE_LIMIT:
                self._sprites.clear()
            image = self._sprites[full_key] = premultiplied_sprite(
                self.size, place, lambda surface: draw(PygameCanvas(surface))
            )
        self.surface.blit(image, place.topleft, special_flags=pygame.BLEND_PREMULTIPLIED)

    def ready_layer(
        self,
        key: Hashable,
        backdrop: Color,
        draw: Callable[[Canvas], object],
        size: tuple[int, int],
    ) -> None:
        if size[0] > 0 and size[1] > 0:
            self._layer(key, backdrop, draw, size)

    def _layer(
        self,
        key: Hashable,
        backdrop: Color,
        draw: Callable[[Canvas], object],
        size: tuple[int, int],
    ) -> pygame.Surface:
        """The cached layer, rendered first if need be; now the most recently used."""
        full_key = (key, tuple(backdrop), size)
        image = self._layers.pop(full_key, None)  # put back below: the most recent last
        if image is None:
            while self._layers and self._layer_bytes() + 4 * size[0] * size[1] > _LAYER_CACHE_BYTES:
                del self._layers[next(iter(self._layers))]  # the least recently used
            image = pygame.Surface(size)
            image.fill(backdrop)
            draw(PygameCanvas(image))
            # a colour key, not per-pixel alpha: anti-aliased lines drawn on a transparent
            # surface lose half their coverage; run-length encoded (~4 ns a pixel, once),
            # the layer is put down faster than a plain copy even where it is opaque
            image.set_colorkey(backdrop, pygame.RLEACCEL)
        self._layers[full_key] = image
        return image

    def _layer_bytes(self) -> int:
        """Pixel bytes of the cached layers."""
        return sum(4 * image.get_width() * image.get_height() for image in self._layers.values())
