"""The pygame adapter of :class:`game.canvas.Canvas`: the only drawing module that imports pygame."""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Hashable, Sequence

import numpy as np
import pygame
from numpy.typing import ArrayLike

from game.canvas import Canvas, Point
from game.palette import Color

# Coordinates beyond this many pixels are clamped before they reach SDL: a pointer flung to
# 1e30 must draw a long line, not overflow SDL's integer maths.
_PX_LIMIT = 1e5


def _px(value: float) -> float:
    """One coordinate SDL can take: within ±``_PX_LIMIT``, NaN to 0."""
    v = float(value)
    if -_PX_LIMIT <= v <= _PX_LIMIT:
        return v
    return 0.0 if math.isnan(v) else math.copysign(_PX_LIMIT, v)


def _clamp(p: Point) -> tuple[float, float]:
    return _px(p[0]), _px(p[1])


def _rect(rect: Sequence[float]) -> pygame.Rect:
    """A rectangle SDL can take: every component clamped like a coordinate."""
    x, y, w, h = rect
    # one chained test for the common case (NaN fails it too)
    if not (
        -_PX_LIMIT <= x <= _PX_LIMIT
        and -_PX_LIMIT <= y <= _PX_LIMIT
        and -_PX_LIMIT <= w <= _PX_LIMIT
        and -_PX_LIMIT <= h <= _PX_LIMIT
    ):
        x, y, w, h = (_px(v) for v in rect)
    return pygame.Rect(round(x), round(y), round(w), round(h))


def _finite(points: ArrayLike) -> np.ndarray:
    """Pixel coordinates SDL can take: NaN to 0, everything within ±``_PX_LIMIT``."""
    pts = np.asarray(points, dtype=float)
    if pts.size and abs(pts).max() <= _PX_LIMIT:  # the common case: one check, no copies
        return pts  # (NaN fails the comparison, so it takes the slow path below)
    return np.clip(np.nan_to_num(pts), -_PX_LIMIT, _PX_LIMIT)


def _point_list(points: ArrayLike) -> Sequence[Sequence[float]]:
    """Points ``(N, 2)`` as plain numbers SDL can take (see :func:`_finite`). A few points
    given as plain numbers (a bone's quad, the shadow's 24-gon) are checked in Python,
    ~1-2 µs against ~5 µs through numpy; arrays go through :func:`_finite`."""
    if isinstance(points, (list, tuple)) and len(points) <= 32:
        try:
            if all(
                -_PX_LIMIT <= x <= _PX_LIMIT and -_PX_LIMIT <= y <= _PX_LIMIT for x, y in points
            ):
                return points  # (NaN fails the comparison, so it takes the path below)
        except (TypeError, ValueError):  # not pairs of numbers: numpy says what is wrong
            pass
    result: Sequence[Sequence[float]] = _finite(points).tolist()
    return result


# Rendered texts, text sizes and translucent panels are kept (most HUD strings repeat every
# frame; a render costs ~10 µs, a measure ~3 µs, a new alpha surface ~30 µs); the caches are
# emptied when this full.
_CACHE_LIMIT = 512
# Outlined circles of these radii are blitted from cached ring sprites (see _ring): a
# 1-px ring of radius 173 costs ~7 µs blitted, ~48 µs drawn; one of radius 5, 0.6 against
# 3.6 µs. A sprite of the largest radius takes ~1.5 MB; the cache is emptied when it holds
# _RING_CACHE_LIMIT sprites or _RING_CACHE_BYTES of pixels, so a long run whose radii keep
# changing (a zooming camera) stays within a few MB instead of creeping towards ~100 MB.
_RING_SPRITE_MIN_PX = 1.0
_RING_SPRITE_MAX_PX = 600.0
_RING_SPRITE_AFTER = 8
_RING_CACHE_LIMIT = 64
_RING_CACHE_BYTES = 4 << 20
# Filled discs of radii in this range are put down from cached sprites by discs() (a
# crowd's heads: ~0.15 µs a blit against ~0.8 µs a draw.circle call); larger ones are drawn.
_DISC_SPRITE_MIN_PX = 0.5
_DISC_SPRITE_MAX_PX = 64.0
# Filled rectangles of at least this many rows are split at cache-line boundaries (_fill).
_SPLIT_FILL_ROWS = 8
# HUD sprites (see sprite): a few per scene and window size; emptied when this full.
_SPRITE_CACHE_LIMIT = 32
# Cached static layers (see layer): a window-sized layer takes ~3.7 MB at 1280x720; a
# camera that keeps moving makes a new one each frame, so the least recently used are
# dropped beyond this many bytes of pixels.
_LAYER_CACHE_BYTES = 32 << 20


# The default font's space is 2 px below size 14 (at 960x540 most HUD text is 11-13),
# about as wide as the gaps its hinting leaves inside words, so words ran together
# ("orhold", "Hhands"): there, words are set this many pixels apart.
_MIN_SPACE_PX = 3


def _spaced(font: pygame.font.Font, text: str) -> bool:
    """Whether ``text`` is set word by word (see ``_MIN_SPACE_PX``)."""
    return " " in text and font.size(" ")[0] < _MIN_SPACE_PX


def _measure(font: pygame.font.Font, text: str) -> tuple[int, int]:
    """The size of ``text`` as :func:`_render` draws it."""
    width, height = font.size(text)
    if not _spaced(font, text):
        return width, height
    # each space widened to _MIN_SPACE_PX: the whole line's width, not its words' summed
    # (kerning made that up to 9 px narrower at 12 px, and the last glyph was cut off)
    return width + (_MIN_SPACE_PX - font.size(" ")[0]) * text.count(" "), height


def _render(font: pygame.font.Font, text: str, color: Color) -> pygame.Surface:
    """``text`` anti-aliased, its words at least ``_MIN_SPACE_PX`` apart: rendered whole
    (rendered word by word, words whose glyphs overhang the font's height sat a pixel
    lower), then cut at each space and spread."""
    image = font.render(text, True, color)
    if not _spaced(font, text):
        return image
    extra = _MIN_SPACE_PX - font.size(" ")[0]
    starts = [font.size(text[:i])[0] for i, char in enumerate(text) if char == " "]
    spread = pygame.Surface((_measure(font, text)[0], image.get_height()), pygame.SRCALPHA)
    spread.fill((*color[:3], 0))  # clear in the text's colour: the glyphs' edges keep it
    edges = [0, *starts, image.get_width()]
    for shift, (left, right) in enumerate(itertools.pairwise(edges)):
        area = pygame.Rect(left, 0, right - left, image.get_height())
        spread.blit(image, (left + shift * extra, 0), area)
    return spread


class PygameCanvas:
    """Draws on a pygame surface; fonts, rendered texts and panel surfaces are cached."""

    def __init__(self, surface: pygame.Surface) -> None:
        self.surface = surface
        self._fonts: dict[tuple[int, bool], pygame.font.Font] = {}
        self._texts: dict[tuple[str, tuple[int, ...], int, bool], pygame.Surface] = {}
        self._panels: dict[tuple[tuple[int, ...], int], pygame.Surface] = {}
        self._rings: dict[tuple[int, tuple[int, ...], int], pygame.Surface] = {}
        self._ring_requests: dict[tuple[int, tuple[int, ...], int], int] = {}
        self._ring_bytes = 0  # pixel bytes of the sprites in _rings
        self._layers: dict[Hashable, pygame.Surface] = {}
        self._discs: dict[tuple[float, tuple[int, ...]], tuple[pygame.Surface, int]] = {}
        self._sprites: dict[Hashable, pygame.Surface] = {}
        self._sizes: dict[tuple[str, int, bool], tuple[int, int]] = {}  # HUD layout measures
        # the boxes of the HUD panels and sprites put down since the app last cleared this
        # (each frame): the F1 help, drawn after them, goes where it covers none
        self.hud_boxes: list[tuple[float, float, float, float]] = []

    @property
    def size(self) -> tuple[int, int]:
        return self.surface.get_size()

    def _font(self, size: int, bold: bool) -> pygame.font.Font:
        key = (size, bold)
        font = self._fonts.get(key)
        if font is None:
            font = pygame.font.Font(None, size)
            font.set_bold(bold)
            self._fonts[key] = font
        return font

    def fill(self, color: Color) -> None:
        self.surface.fill(color)

    def line(self, a: Point, b: Point, color: Color, width: int = 1) -> None:
        ax, ay, bx, by = a[0], a[1], b[0], b[1]
        # one chained test for the common case (the swivel scene draws ~760 lines a frame)
        if not (
            -_PX_LIMIT <= ax <= _PX_LIMIT
            and -_PX_LIMIT <= ay <= _PX_LIMIT
            and -_PX_LIMIT <= bx <= _PX_LIMIT
            and -_PX_LIMIT <= by <= _PX_LIMIT
        ):
            a, b = _clamp(a), _clamp(b)
        pygame.draw.aaline(self.surface, color, a, b, width)

    def lines(self, points: ArrayLike, color: Color, width: int = 1, closed: bool = False) -> None:
        pts = _point_list(points)
        if len(pts) < 2:
            return
        if width <= 1:
            pygame.draw.aalines(self.surface, color, closed, pts)
        else:
            pygame.draw.lines(self.surface, color, closed, pts, width)

    def segments(self, segments: ArrayLike, color: Color, width: int = 1) -> None:
        draw_line = pygame.draw.line
        surface = self.surface
        pairs = segments if isinstance(segments, (list, tuple)) else _finite(segments).tolist()
        for a, b in pairs:
            if not (
                -_PX_LIMIT <= a[0] <= _PX_LIMIT
                and -_PX_LIMIT <= a[1] <= _PX_LIMIT
                and -_PX_LIMIT <= b[0] <= _PX_LIMIT
                and -_PX_LIMIT <= b[1] <= _PX_LIMIT
            ):
                a, b = _clamp(a), _clamp(b)
            draw_line(surface, color, a, b, width)

    def polylines(self, lines: ArrayLike, color: Color, width: int = 1) -> None:
        pts = _finite(lines)
        if pts.ndim != 3 or pts.shape[1] < 2:
            return
        draw_lines, surface = pygame.draw.lines, self.surface
        for line in pts.tolist():
            draw_lines(surface, color, False, line, width)

    def discs(self, centers: ArrayLike, radii: Sequence[float], colors: Sequence[Color]) -> None:
        pts = _finite(centers)
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
        self.surface.fblits(
            [
                (sprite, (int(x) - half, int(y) - half))
                for row in pts.tolist()
                for (sprite, half), (x, y) in zip(stamps, row, strict=True)
            ]
        )

    def _disc(self, radius: float, color: Color) -> tuple[pygame.Surface, int]:
        """A filled aliased disc of ``radius`` as a colour-keyed sprite, and the offset of
        its centre from the sprite's corner; cached."""
        key = (radius, tuple(color))
        kept = self._discs.get(key)
        if kept is None:
            if len(self._discs) >= _CACHE_LIMIT:
                self._discs.clear()
            half = int(radius) + 1
            sprite = pygame.Surface((2 * half + 1, 2 * half + 1))
            backdrop = (255, 255, 255) if tuple(color) == (0, 0, 0) else (0, 0, 0)
            sprite.fill(backdrop)
            pygame.draw.circle(sprite, color, (half, half), radius)
            sprite.set_colorkey(backdrop, pygame.RLEACCEL)
            kept = self._discs[key] = (sprite, half)
        return kept

    def shade(self, layers: Sequence[ArrayLike], color: Color, alphas: Sequence[int]) -> None:
        drawn = [(_finite(layer), alpha) for layer, alpha in zip(layers, alphas, strict=True)]
        drawn = [(p, alpha) for p, alpha in drawn if p.ndim == 2 and len(p) >= 3]
        if not drawn:
            return
        points = np.concatenate([p for p, _ in drawn])
        # the polygons' pixels, clipped to the surface: a sheet just that big is drawn on
        x0, y0 = (math.floor(v) for v in points.min(axis=0))
        x1, y1 = (math.ceil(v) + 1 for v in points.max(axis=0))
        box = pygame.Rect(x0, y0, x1 - x0, y1 - y0).clip(self.surface.get_rect())
        if box.width <= 0 or box.height <= 0:
            return
        sheet = pygame.Surface(box.size, pygame.SRCALPHA)
        sheet.fill((*color, 0))
        for polygon, alpha in drawn:
            pygame.draw.polygon(sheet, (*color, alpha), (polygon - box.topleft).tolist())
        self.surface.blit(sheet, box.topleft)

    def circle(self, center: Point, radius: float, color: Color, width: int = 0) -> None:
        radius = min(float(radius), _PX_LIMIT)
        if not radius >= 0.5:  # (NaN too)
            return
        cx, cy = center[0], center[1]
        if not (-_PX_LIMIT <= cx <= _PX_LIMIT and -_PX_LIMIT <= cy <= _PX_LIMIT):
            cx, cy = _clamp(center)
        if width == 0 or radius > 2000:
            pygame.draw.circle(self.surface, color, (cx, cy), radius, width)
            return
        sprite = _RING_SPRITE_MIN_PX <= radius <= _RING_SPRITE_MAX_PX
        ring = self._ring(radius, color, width) if sprite else None
        if ring is None:
            pygame.draw.aacircle(self.surface, color, (cx, cy), radius, width)
        else:
            # aacircle truncates its centre to whole pixels (towards zero); so does the sprite
            half = ring.get_width() // 2
            self.surface.blit(ring, (int(cx) - half, int(cy) - half))

    def _ring(self, radius: float, color: Color, width: int) -> pygame.Surface | None:
        """An anti-aliased ring as a transparent, RLE-encoded sprite, or None.

        The overlay's reach annuli, pole markers and pivot rings are the same circles every
        frame; blitting the mostly empty sprite costs a fifth to a seventh of drawing the
        ring again, but making one costs ~20 draws, so a sprite is made only for a ring
        asked for ``_RING_SPRITE_AFTER`` times (a radius that keeps changing is drawn
        directly)."""
        key = (int(radius), tuple(color), width)  # aacircle truncates the radius too
        ring = self._rings.get(key)
        if ring is None:
            asked = self._ring_requests.get(key, 0) + 1
            if len(self._ring_requests) >= _CACHE_LIMIT:
                self._ring_requests.clear()
            self._ring_requests[key] = asked
            if asked < _RING_SPRITE_AFTER:
                return None
            size = 2 * key[0] + 4
            if len(self._rings) >= _RING_CACHE_LIMIT or (
                self._rings and self._ring_bytes + 4 * size * size > _RING_CACHE_BYTES
            ):  # (one sprite bigger than the budget is still kept, alone)
                self._rings.clear()
                self._ring_bytes = 0
            # the ring's coverage, drawn white on black, becomes the alpha of a solid sprite
            coverage = pygame.Surface((size, size))
            pygame.draw.aacircle(coverage, (255, 255, 255), (size // 2, size // 2), key[0], width)
            ring = pygame.Surface((size, size), pygame.SRCALPHA)
            ring.fill((*color, 255))
            alpha = pygame.surfarray.pixels_alpha(ring)
            alpha[...] = pygame.surfarray.pixels_red(coverage)
            del alpha  # unlock the sprite before it is RLE-encoded
            ring.set_alpha(255, pygame.RLEACCEL)
            self._rings[key] = ring
            self._ring_bytes += 4 * size * size
        return ring

    def arc(
        self, center: Point, radius: float, start: float, stop: float, color: Color, width: int = 1
    ) -> None:
        if not (1.0 <= radius <= _PX_LIMIT and math.isfinite(start) and math.isfinite(stop)):
            return
        cx, cy = _clamp(center)
        box = pygame.Rect(0, 0, 2 * radius, 2 * radius)
        box.center = (round(cx), round(cy))
        pygame.draw.arc(self.surface, color, box, start, stop, width)

    def polygon(self, points: ArrayLike, color: Color, width: int = 0) -> None:
        pts = _point_list(points)
        if len(pts) >= 3:
            pygame.draw.polygon(self.surface, color, pts, width)

    def rect(self, rect: Sequence[float], color: Color, width: int = 0, radius: int = 0) -> None:
        box = _rect(rect)
        if width == 0 and radius == 0 and box.height >= _SPLIT_FILL_ROWS:
            self._fill(box, color)
        else:
            pygame.draw.rect(self.surface, color, box, width, border_radius=radius)

    def _fill(self, box: pygame.Rect, color: Color) -> None:
        """Fill ``box``, split at cache lines where that is faster. SDL fills each row of
        16 or more pixels with 64-byte streaming stores from a 16-byte boundary and the
        rest of the row with plain stores; where both land in one cache line the line is
        flushed half-written, ~0.4 µs a row (1280x720 surface: a 20x80 fill from x = 100
        ~33 µs, 16x80 ~2 µs; 512x300 from x = 443 ~125 µs, from x = 448 ~40 µs). So a
        fill is done as its middle of whole cache lines and the strips either side,
        narrower than 16 pixels (plain stores only): the same pixels."""
        surface = self.surface
        box = box.clip(surface.get_clip())
        # 16 pixels of 4 bytes are one cache line if the rows start on one (pitch % 64 == 0);
        # a row of whole 64-byte runs from a 16-byte boundary needs no plain stores
        plain = box.width < 16 or (box.left % 4 == 0 and box.width % 16 == 0)
        if plain or surface.get_bytesize() != 4 or surface.get_pitch() % 64:
            surface.fill(color, box)
            return
        left, right = box.left, box.right
        middle_left, middle_right = -(-left // 16) * 16, right // 16 * 16
        for x0, x1 in ((left, middle_left), (middle_left, middle_right), (middle_right, right)):
            if x1 > x0:
                surface.fill(color, (x0, box.top, x1 - x0, box.height))

    def panel(self, rect: Sequence[float], color: Color, alpha: int) -> None:
        # the translucent surface is only as big as its visible part
        r = _rect(rect).clip(self.surface.get_rect())
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
            image = self._texts[key] = _render(self._font(size, bold), text, color)
        rect = image.get_rect()
        x, y = _clamp(pos)
        setattr(rect, anchor, (round(x), round(y)))
        self.surface.blit(image, rect)
        return rect.size

    def text_size(self, text: str, size: int = 16, bold: bool = False) -> tuple[int, int]:
        key = (text, size, bold)
        measured = self._sizes.get(key)
        if measured is None:
            if len(self._sizes) >= _CACHE_LIMIT:
                self._sizes.clear()
            measured = self._sizes[key] = _measure(self._font(size, bold), text)
        return measured

    def layer(
        self,
        key: Hashable,
        backdrop: Color,
        draw: Callable[[Canvas], object],
        rect: Sequence[float] | None = None,
    ) -> None:
        place = self.surface.get_rect() if rect is None else _rect(rect)
        if place.width <= 0 or place.height <= 0 or not place.colliderect(self.surface.get_rect()):
            return
        self.surface.blit(self._layer(key, backdrop, draw, place.size), place.topleft)

    def sprite(
        self, key: Hashable, rect: Sequence[float], draw: Callable[[Canvas], object]
    ) -> None:
        place = _rect(rect).clip(self.surface.get_rect())
        if place.width <= 0 or place.height <= 0:
            return
        self.hud_boxes.append((float(rect[0]), float(rect[1]), float(rect[2]), float(rect[3])))
        full_key = (key, tuple(place))
        image = self._sprites.get(full_key)
        if image is None:
            if len(self._sprites) >= _SPRITE_CACHE_LIMIT:
                self._sprites.clear()
            image = self._sprites[full_key] = _premultiplied(self.size, place, draw)
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


def _premultiplied(
    size: tuple[int, int], place: pygame.Rect, draw: Callable[[Canvas], object]
) -> pygame.Surface:
    """What ``draw`` draws on a canvas of ``size`` inside ``place``, as a sprite of
    premultiplied colour and alpha (rendered once: two canvases of ``size``, ~1 ms at
    1280x720, so ``draw`` sees the same size as on screen).

    Every drawing step blends linearly with what lies under it (a translucent panel, a
    text's anti-aliased edge, an anti-aliased line: ``out = c·a + under·(1 − a)``), so a
    picture drawn over a plain backdrop ``b`` is ``p + b·(1 − a)`` at each pixel, with
    ``p`` its premultiplied colour and ``a`` its opacity. Drawn once over black and once
    over white it gives both: ``p`` is the black one, ``255·(1 − a)`` white minus black.
    Blitted with ``BLEND_PREMULTIPLIED`` (``out = p + under·(1 − a)``) it puts down what
    drawing it there would, to within 1 in a channel (8-bit rounding, twice).
    """
    over = []
    for backdrop in ((0, 0, 0), (255, 255, 255)):
        surface = pygame.Surface(size)
        surface.fill(backdrop)
        draw(PygameCanvas(surface))
        over.append(pygame.surfarray.array3d(surface.subsurface(place)).astype(np.int16))
    on_black, on_white = over
    # 255·(1 − a) in each channel; their mean, as the rounding differs a little between them
    see_through = np.rint((on_white - on_black).mean(axis=-1))
    alpha = np.clip(255 - see_through, 0, 255).astype(np.uint8)
    sprite = pygame.Surface(place.size, pygame.SRCALPHA)
    # a premultiplied colour is never above its alpha (rounding can put it 1 over)
    pygame.surfarray.pixels3d(sprite)[...] = np.minimum(on_black, alpha[..., None])
    pygame.surfarray.pixels_alpha(sprite)[...] = alpha
    return sprite
