"""Text as the pygame canvas sets it: pygame's default font drawn by ``pygame.freetype``
without hinting or kerning, each line one height with its baseline at the same place, and
words at least ``MIN_SPACE_PX`` apart.

``pygame.font`` hints the default font to the pixel grid, and at HUD sizes (11-16 px) that
leaves gaps inside words as wide as the spaces between them ("pl anted", "h and s");
unhinted, the glyphs keep their designed advances. The font's kerning pairs open the same
gaps again, so kerning is off. Its space is 2 px below size 14, too narrow to read as one,
and the font has no other space: there the line is drawn whole, then cut at each space and
spread to ``MIN_SPACE_PX``.
"""

from __future__ import annotations

import itertools

import pygame
import pygame.freetype

from game.palette import Color

# pygame.font draws its default font at this share of the size asked for, in whole pixels;
# the same here, so a size means what it meant to the layout
DEFAULT_FONT_SCALE = 0.6875
MIN_SPACE_PX = 3


class TextFont:
    """The default font at one size (as ``pygame.font.Font(None, size)`` would size it),
    emboldened if ``bold``; ``extra``: the pixels each space is widened by (below size 14
    its space is 2 px)."""

    def __init__(self, size: int, bold: bool) -> None:
        if not pygame.freetype.get_init():
            pygame.freetype.init()
        font = pygame.freetype.Font(None, int(size * DEFAULT_FONT_SCALE))
        font.antialiased = True
        font.kerning = False
        font.pad = True  # (a line's width is its glyphs' advances, not their ink)
        font.origin = True  # (drawn at its baseline)
        font.strong = bold
        self.font = font
        self.ascender = int(font.get_sized_ascender(0))
        self.height = int(font.get_sized_ascender(0) - font.get_sized_descender(0))
        self.extra = max(MIN_SPACE_PX - font.get_rect(" ").width, 0)

    def advance(self, text: str) -> int:
        """The width of ``text`` as the font sets it, spaces unwidened."""
        return self.font.get_rect(text).width


def measure_text(font: TextFont, text: str) -> tuple[int, int]:
    """The size of ``text`` as :func:`render_text` draws it."""
    return font.advance(text) + font.extra * text.count(" "), font.height


def render_text(font: TextFont, text: str, color: Color) -> pygame.Surface:
    """``text`` anti-aliased in ``color`` on a clear surface of :func:`measure_text`'s
    size, its baseline at the font's ascender: drawn whole, then, where the spaces are
    widened, cut at each space and spread."""
    image = pygame.Surface((max(font.advance(text), 1), font.height), pygame.SRCALPHA)
    image.fill((*color[:3], 0))  # clear in the text's colour: the glyphs' edges keep it
    font.font.render_to(image, (0, font.ascender), text, color)
    if not font.extra or " " not in text:
        return image
    spread = pygame.Surface((measure_text(font, text)[0], font.height), pygame.SRCALPHA)
    spread.fill((*color[:3], 0))
    edges = [0, *(font.advance(text[:i]) for i, c in enumerate(text) if c == " ")]
    edges.append(image.get_width())
    for shift, (left, right) in enumerate(itertools.pairwise(edges)):
        area = pygame.Rect(left, 0, right - left, font.height)
        spread.blit(image, (left + shift * font.extra, 0), area)
    return spread
