"""How the pygame canvas's cached sprites are made: filled discs, anti-aliased rings and
premultiplied HUD sprites (the canvas keeps them and decides when to make one)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pygame

from game.palette import Color


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
