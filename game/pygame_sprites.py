"""How the pygame canvas's cached sprites are made: filled discs, anti-aliased rings and
premultiplied HUD sprites (the canvas keeps them and decides when to make one)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pygame

from game.palette import Color

# Outlined circles of these radii are blitted from cached ring sprites (RingSprites): a
# 1-px ring of radius 173 costs ~7 µs blitted, ~48 µs drawn; one of radius 5, 0.6 against
# 3.6 µs. A sprite of the largest radius takes ~1.5 MB; the cache is emptied when it holds
# RING_CACHE_LIMIT sprites or RING_CACHE_BYTES of pixels, so a long run whose radii keep
# changing (a zooming camera) stays within a few MB instead of creeping towards ~100 MB.
RING_SPRITE_MIN_PX = 1.0
RING_SPRITE_MAX_PX = 600.0
RING_SPRITE_AFTER = 8
RING_CACHE_LIMIT = 64
RING_CACHE_BYTES = 4 << 20
RING_REQUESTS_LIMIT = 512  # ring sizes counted at most; the count starts over beyond

RingKey = tuple[int, tuple[int, ...], int]


class RingSprites:
    """The anti-aliased rings a canvas blits instead of drawing, made on demand.

    The overlay's reach annuli, pole markers and pivot rings are the same circles every
    frame; blitting the mostly empty sprite costs a fifth to a seventh of drawing the ring
    again, but making one costs ~20 draws, so a sprite is made only for a ring asked for
    ``RING_SPRITE_AFTER`` times (a radius that keeps changing is drawn directly)."""

    def __init__(self) -> None:
        self.sprites: dict[RingKey, pygame.Surface] = {}
        self._requests: dict[RingKey, int] = {}
        self._bytes = 0  # pixel bytes of the sprites kept

    def get(self, radius: float, color: Color, width: int) -> pygame.Surface | None:
        """The ring of ``radius``, ``color`` and ``width`` as a transparent, RLE-encoded
        sprite (see :func:`ring_sprite`), or None: draw it."""
        if not RING_SPRITE_MIN_PX <= radius <= RING_SPRITE_MAX_PX:
            return None
        key = (int(radius), tuple(color), width)  # aacircle truncates the radius too
        ring = self.sprites.get(key)
        if ring is None:
            asked = self._requests.get(key, 0) + 1
            if len(self._requests) >= RING_REQUESTS_LIMIT:
                self._requests.clear()
            self._requests[key] = asked
            if asked < RING_SPRITE_AFTER:
                return None
            ring = ring_sprite(key[0], color, width)
            pixel_bytes = 4 * ring.get_width() * ring.get_height()
            if len(self.sprites) >= RING_CACHE_LIMIT or (
                self.sprites and self._bytes + pixel_bytes > RING_CACHE_BYTES
            ):  # (one sprite bigger than the budget is still kept, alone)
                self.sprites.clear()
                self._bytes = 0
            self.sprites[key] = ring
            self._bytes += pixel_bytes
        return ring


def disc_sprite(radius: float, color: Color) -> tuple[pygame.Surface, int]:
    """A filled aliased disc of ``radius`` as a colour-keyed sprite, and the offset of its
    centre from the sprite's corner."""
    half = int(radius) + 1
    sprite = pygame.Surface((2 * half + 1, 2 * half + 1))
    backdrop = (255, 255, 255) if tuple(color) == (0, 0, 0) else (0, 0, 0)
    sprite.fill(backdrop)
    pygame.draw.circle(sprite, color, (half, half), radius)
    sprite.set_colorkey(backdrop, pygame.RLEACCEL)
    return sprite, half


def ring_sprite(radius: int, color: Color, width: int) -> pygame.Surface:
    """An anti-aliased ring of ``radius`` and ``width`` pixels as a transparent,
    RLE-encoded sprite ``2·radius + 4`` pixels square, the ring's centre at its middle."""
    size = 2 * radius + 4
    # the ring's coverage, drawn white on black, becomes the alpha of a solid sprite
    coverage = pygame.Surface((size, size))
    pygame.draw.aacircle(coverage, (255, 255, 255), (size // 2, size // 2), radius, width)
    ring = pygame.Surface((size, size), pygame.SRCALPHA)
    ring.fill((*color, 255))
    alpha = pygame.surfarray.pixels_alpha(ring)
    alpha[...] = pygame.surfarray.pixels_red(coverage)
    del alpha  # unlock the sprite before it is RLE-encoded
    ring.set_alpha(255, pygame.RLEACCEL)
    return ring


def premultiplied_sprite(
    size: tuple[int, int], place: pygame.Rect, draw_on: Callable[[pygame.Surface], object]
) -> pygame.Surface:
    """What ``draw_on`` draws on a surface of ``size`` inside ``place``, as a sprite of
    premultiplied colour and alpha (rendered once: two canvases of ``size``, ~1 ms at
    1280x720, so ``draw_on`` sees the same size as on screen).

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
        draw_on(surface)
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
