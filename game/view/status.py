"""The status box at the bottom left of the walk and crowd views: items joined by dots,
wrapped so their line breaks stay put while the texts change every step, then the hints."""

from __future__ import annotations

import itertools
import re
import weakref
from typing import Any

from game.canvas import Canvas
from game.layout import font_px, ui_scale, wrap_balanced
from game.palette import PALETTE, Color

Box = tuple[float, float, float, float]
# While the debug overlay is off, the status box's first hint says how to show it.
OVERLAY_HINT = "O shows the IK: reach circles, targets, knee poles"
# The status box's widest (at 1280x720, scaled): the walk's status takes two rows at every
# window size, so that at 960x540 it stays clear of the foot of the ladder the hero climbs
# at the middle of the view.
STATUS_MAX_W = 520.0


def digits_as_8(text: str) -> str:
    """``text`` with every digit an 8 (the widest): a HUD line's longest width. (In a str
    pattern ``\\d`` is what ``str.isdecimal()`` accepts; ``re`` keeps the parsed pattern.)"""
    return re.sub(r"\d", "8", text)


class StatusBox:
    """The status box as last drawn (``box``), never narrower than it has been at a
    window size. It sits in the bottom corner behind the hero, the way he came from
    (``right``, set by the view): the ground he walks onto is never under it."""

    def __init__(self) -> None:
        # the status box as last drawn: ground labels that would fall under it go above
        self.box: Box | None = None
        self._width: tuple[tuple[int, int], float] = ((0, 0), 0.0)  # the widest, per size
        self.right = False  # in the bottom-right corner (else the bottom-left)

    def draw(
        self,
        canvas: Canvas,
        items: list[str],
        color: Color,
        hints: list[str],
        alternatives: list[tuple[str, ...]],
    ) -> None:
        """Draw the status box (:func:`draw_status_panel`) no narrower than it has been at
        this window size: the hinted font's figures differ by a pixel (``1.35`` is wider
        than ``8.88``), which would still twitch its right edge."""
        size, widest = self._width
        at_least = widest if size == canvas.size else 0.0
        box = draw_status_panel(canvas, items, color, hints, alternatives, at_least, self.right)
        self._width, self.box = (canvas.size, box[2]), box


def draw_status_panel(
    canvas: Canvas,
    items: list[str],
    color: Color,
    hints: list[str],
    alternatives: list[tuple[str, ...]] | None = None,
    at_least: float = 0.0,
    right: bool = False,
) -> tuple[float, float, float, float]:
    """The status box in the bottom-left corner (bottom-right if ``right``): ``items``
    joined by dots and wrapped, then the hints (laid out by :func:`_layout`). Returns the
    box."""
    key = (
        canvas.size,
        tuple(items),
        color,
        tuple(hints),
        None if alternatives is None else tuple(alternatives),
        at_least,
        right,
    )
    kept = _LAYOUTS.setdefault(canvas, {})
    layout = kept.get(key)
    if layout is None:
        if len(kept) >= 64:
            kept.clear()
        layout = kept[key] = _layout(canvas, items, color, hints, alternatives, at_least, right)
    box, pad, lines = layout
    canvas.panel(box, PALETTE["panel"], 200)
    x, y = box[0] + pad, box[1] + pad
    for text, px, text_color, h in lines:
        canvas.text((x, y), text, text_color, px)
        y += h
    return box


_Layout = tuple[Box, float, list[tuple[str, int, Color, float]]]
# the status boxes laid out, per canvas: the status is drawn every frame, its texts mostly
# as they were (laying one out measures ~25 texts, ~25 µs)
_LAYOUTS: weakref.WeakKeyDictionary[Any, dict[tuple[Any, ...], _Layout]] = (
    weakref.WeakKeyDictionary()
)


def _layout(
    canvas: Canvas,
    items: list[str],
    color: Color,
    hints: list[str],
    alternatives: list[tuple[str, ...]] | None,
    at_least: float,
    right: bool,
) -> _Layout:
    """The status box (see :func:`draw_status_panel`), its padding, and each line's text,
    font size, colour and height.

    ``alternatives`` are, per item, the other texts it can show (digits as 8s, the
    widest figures); the status is laid out for the widest of each, so its line breaks
    and the box's width stay put while the texts change every step (a foot planted,
    then swinging; ``rung 4``, then ``moving``): see :func:`_steady_wrap`. The last hint
    is the scene's standing controls line: the box is as wide as the widest status or
    that hint wrapped evenly, whichever is wider, and every hint wraps to that width, so
    a hint that comes and goes (the ladder's) adds rows but never widens the box.

    At most 55 % of the window wide (the right of the bottom edge is left to messages)
    and ``STATUS_MAX_W``; sizes are designed for 1280x720 and scaled. The box is at least
    ``at_least`` wide.
    """
    width, height = canvas.size
    s = ui_scale(canvas.size)
    pad = 12 * s
    line_px, hint_px = font_px(19, s), font_px(15, s)
    inner = min(width * 0.55, STATUS_MAX_W * s) - 2 * pad
    # (the alternatives first: of texts as wide, the widest is an alternative, which stays
    # put while the item's figures change, so the line breaks found for it are kept)
    widest = [
        _widest(canvas, (*other, item), line_px)
        for item, other in zip(items, alternatives or [()] * len(items), strict=True)
    ]
    status = _steady_wrap(canvas, items, widest, inner, line_px)
    rows = _item_rows(canvas, tuple(widest), inner, line_px)
    content_w = (
        rows[1]
        if rows is not None
        else max((canvas.text_size(line, line_px)[0] for line in status), default=0.0)
    )
    if hints:
        standing = wrap_balanced(canvas, hints[-1], inner, hint_px)
        content_w = max([content_w, *(canvas.text_size(line, hint_px)[0] for line in standing)])
    lines = [(line, line_px, color) for line in status]
    for hint in hints:
        hint_lines = wrap_balanced(canvas, hint, content_w, hint_px)
        for index in range(1, len(hint_lines)):
            if hint_lines[index].startswith("· "):  # a separator ends its line, not starts one
                hint_lines[index - 1] += " ·"
                hint_lines[index] = hint_lines[index][2:]
        lines += [(line, hint_px, PALETTE["text_dim"]) for line in hint_lines]
    heights = [canvas.text_size(text, px)[1] + 3 * s for text, px, _ in lines]
    text_w = max([content_w, *(canvas.text_size(text, px)[0] for text, px, _ in lines)])
    box_w = max(text_w + 2 * pad, at_least)
    box_h = sum(heights) + 2 * pad
    left = width - box_w - 10 * s if right else 10 * s
    box = (left, height - box_h - 10 * s, box_w, box_h)
    drawn = [(text, px, c, h) for (text, px, c), h in zip(lines, heights, strict=True)]
    return box, pad, drawn


def _steady_wrap(
    canvas: Canvas, items: list[str], widest: list[str] | None, width: float, size: int
) -> list[str]:
    """``items`` joined by dots and wrapped evenly. With ``widest`` (the same items at
    their widest) lines break between whole items, where they would for ``widest``: as
    few lines as fit ``width``, as even as they go. So a status that changes every step
    (a foot planted, then swinging; ``rung 4``, then ``moving``, a word fewer) keeps its
    line breaks instead of jumping between two wraps. Without ``widest``, or where an
    item alone is too wide, the plain even wrap (:func:`wrap_balanced`)."""
    text = "  ·  ".join(items)
    rows = None if widest is None else _item_rows(canvas, tuple(widest), width, size)
    if rows is None:
        return wrap_balanced(canvas, text, width, size)
    return _steady_lines(tuple(items), list(rows[0]))


_WIDEST: weakref.WeakKeyDictionary[Any, dict[tuple[tuple[str, ...], int], str]] = (
    weakref.WeakKeyDictionary()
)


def _widest(canvas: Canvas, texts: tuple[str, ...], size: int) -> str:
    """The widest of ``texts`` at font ``size``, kept per canvas (the feet's 36 texts
    measured every frame cost ~25 µs)."""
    kept = _WIDEST.setdefault(canvas, {})
    key = (texts, size)
    widest = kept.get(key)
    if widest is None:
        if len(kept) >= 256:
            kept.clear()
        widest = kept[key] = max(texts, key=lambda text: canvas.text_size(text, size)[0])
    return widest


_ItemRows = tuple[tuple[int, ...], float]
_ITEM_ROWS: weakref.WeakKeyDictionary[Any, dict[tuple[Any, ...], _ItemRows | None]] = (
    weakref.WeakKeyDictionary()
)


def _item_rows(
    canvas: Canvas, widest: tuple[str, ...], width: float, size: int
) -> _ItemRows | None:
    """How many of ``widest``'s items each line takes, and the widest line's width: the
    fewest lines no wider than ``width``, of those the one whose widest line is narrowest
    (every split of a handful of items is tried); None when an item alone is too wide.
    Kept per canvas (the status is drawn every frame)."""
    kept = _ITEM_ROWS.setdefault(canvas, {})
    key = (widest, float(width), size)
    if key in kept:
        return kept[key]
    if len(kept) >= 64:
        kept.clear()
    best: tuple[int, float, tuple[int, ...]] | None = None
    for cuts in itertools.product((False, True), repeat=max(len(widest) - 1, 0)):
        counts, run = [], 1
        for cut in cuts:
            if cut:
                counts.append(run)
                run = 0
            run += 1
        counts.append(run)
        lines = _steady_lines(widest, counts)
        widths = [canvas.text_size(line, size)[0] for line in lines]
        if max(widths) <= width:
            score = (len(counts), float(max(widths)), tuple(counts))
            best = score if best is None or score < best else best
    kept[key] = None if best is None else (best[2], best[1])
    return kept[key]


def _steady_lines(items: tuple[str, ...], counts: list[int]) -> list[str]:
    """``items`` in lines of ``counts`` items, dots between them (as :func:`_steady_wrap`)."""
    lines, first = [], 0
    for row, count in enumerate(counts):
        words = "  ·  ".join(items[first : first + count]).split()
        first += count
        if row < len(counts) - 1:
            words.append("·")  # a separator ends its line, not starts one
        lines.append(" ".join(words))
    return lines
