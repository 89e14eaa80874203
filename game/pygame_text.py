"""Text as the pygame canvas sets it: measured and rendered with the words at least
``MIN_SPACE_PX`` apart at small sizes."""

from __future__ import annotations

import itertools

import pygame

from game.palette import Color

# The default font's space is 2 px below size 14 (at 960x540 most HUD text is 11-13),
# about as wide as the gaps its hinting leaves inside words, so words ran together
# ("orhold", "Hhands"): there, words are set this many pixels apart.
MIN_SPACE_PX = 3


def _spaced(font: pygame.font.Font, text: str) -> bool:
    """Whether ``text`` is set word by word (see ``MIN_SPACE_PX``)."""
    return " " in text and font.size(" ")[0] < MIN_SPACE_PX


def measure_text(font: pygame.font.Font, text: str) -> tuple[int, int]:
    """The size of ``text`` as :func:`render_text` draws it."""
    width, height = font.size(text)
    if not _spaced(font, text):
        return width, height
    # each space widened to MIN_SPACE_PX: the whole line's width, not its words' summed
    # (kerning makes that up to 9 px narrower at 12 px, which would cut the last glyph off)
    return width + (MIN_SPACE_PX - font.size(" ")[0]) * text.count(" "), height


def render_text(font: pygame.font.Font, text: str, color: Color) -> pygame.Surface:
    """``text`` anti-aliased, its words at least ``MIN_SPACE_PX`` apart: rendered whole
    (rendered word by word, words whose glyphs overhang the font's height sat a pixel
    lower), then cut at each space and spread."""
    image = font.render(text, True, color)
    if not _spaced(font, text):
        return image
    extra = MIN_SPACE_PX - font.size(" ")[0]
    starts = [font.size(text[:i])[0] for i, char in enumerate(text) if char == " "]
    spread = pygame.Surface((measure_text(font, text)[0], image.get_height()), pygame.SRCALPHA)
    spread.fill((*color[:3], 0))  # clear in the text's colour: the glyphs' edges keep it
    edges = [0, *starts, image.get_width()]
    for shift, (left, right) in enumerate(itertools.pairwise(edges)):
        area = pygame.Rect(left, 0, right - left, image.get_height())
        spread.blit(image, (left + shift * extra, 0), area)
    return spread
