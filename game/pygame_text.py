"""Text as the pygame canvas sets it: pygame's default font drawn by ``pygame.freetype``
without hinting or kerning, each line one height with its baseline at the same place, and
words at least ``MIN_SPACE_PX`` apart.

``pygame.font`` hints the default font to the pixel grid, and at HUD sizes (11-16 px) that
leaves gaps inside words as wide as the spaces between them ("pl anted", "h and s");
unhinted, the glyphs keep their designed advances. The font's kerning pairs open the same
gaps again, so kerning is off. Its space is 2 px below size 14, too narrow to read as one:
words are set one by one on a common baseline, at least ``MIN_SPACE_PX`` apart.
"""

from __future__ import annotations

import pygame
import pygame.freetype

from game.palette import Color

# pygame.font draws its default font at this share of the size asked for, in whole pixels;
# the same here, so a size means what it meant to the layout
DEFAULT_FONT_SCALE = 0.6875
MIN_SPACE_PX = 3


def load_font(size: int, bold: bool) -> pygame.freetype.Font:
    """The default font at ``size`` (as ``pygame.font.Font(None, size)`` would size it),
    emboldened if ``bold``."""
    if not pygame.freetype.get_init():
        pygame.freetype.init()
    font = pygame.freetype.Font(None, int(size * DEFAULT_FONT_SCALE))
    font.antialiased = True
    font.kerning = False
    font.pad = True  # (a line's width is its glyphs' advances, not their ink)
    font.strong = bold
    return font


def _line_height(font: pygame.freetype.Font) -> int:
    """Ascender to descender, in pixels: every line of a font is this tall."""
    return int(font.get_sized_ascender(0) - font.get_sized_descender(0))


def _space(font: pygame.freetype.Font) -> int:
    """The advance between words: the font's space, at least ``MIN_SPACE_PX``."""
    return max(font.get_rect(" ").width, MIN_SPACE_PX)


def measure_text(font: pygame.freetype.Font, text: str) -> tuple[int, int]:
    """The size of ``text`` as :func:`render_text` draws it."""
    words = text.split(" ")
    width = sum(font.get_rect(word).width for word in words if word)
    return width + _space(font) * (len(words) - 1), _line_height(font)


def render_text(font: pygame.freetype.Font, text: str, color: Color) -> pygame.Surface:
    """``text`` anti-aliased in ``color`` on a clear surface of :func:`measure_text`'s
    size, word by word on one baseline at the font's ascender."""
    width, height = measure_text(font, text)
    image = pygame.Surface((max(width, 1), height), pygame.SRCALPHA)
    image.fill((*color[:3], 0))  # clear in the text's colour: the glyphs' edges keep it
    font.origin = True
    baseline, space, x = font.get_sized_ascender(0), _space(font), 0
    for word in text.split(" "):
        if word:
            font.render_to(image, (x, baseline), word, color)
            x += font.get_rect(word).width
        x += space
    return image
