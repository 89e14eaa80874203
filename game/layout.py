"""Screen layout helpers shared by the HUD and the scene panels: UI scale and text wrapping.

Everything on screen is sized for a 1280x720 window and scaled by :func:`ui_scale`, so a
960x540 window (the smallest the command line allows) and a 1920x1080 one show the same
layout; text that still does not fit its box is wrapped with :func:`wrap`.
"""

from __future__ import annotations

import functools
import weakref
from collections.abc import Callable, Sequence
from typing import Any, Protocol

import numpy as np


class TextMeasure(Protocol):
    """What wrapping needs of a canvas: the size of a text (any :class:`game.canvas.Canvas`);
    named here so this module does not import game.canvas, which imports it."""

    def text_size(self, text: str, size: int = 16, bold: bool = False) -> tuple[int, int]: ...


DESIGN_SIZE = (1280, 720)
MIN_SCALE, MAX_SCALE = 0.75, 2.0
MIN_FONT_PX = 12  # at 11 pygame's default font is 7 px tall, its letters and words run together

Rect = tuple[float, float, float, float]


def characters_text(count: int) -> str:
    """``count`` and the noun, singular for one ("1 character", "200 characters")."""
    return f"{count} character" if count == 1 else f"{count} characters"


def ui_scale(size: tuple[int, int]) -> float:
    """How much larger than at 1280x720 the HUD is drawn in a window of ``size`` pixels."""
    fit = min(size[0] / DESIGN_SIZE[0], size[1] / DESIGN_SIZE[1])
    return min(max(fit, MIN_SCALE), MAX_SCALE)


def font_px(size: float, scale: float) -> int:
    """A font size designed for 1280x720, scaled (never below :data:`MIN_FONT_PX`)."""
    return max(round(size * scale), MIN_FONT_PX)


_WRAPPED: weakref.WeakKeyDictionary[Any, dict[tuple[str, float, int, bool], list[str]]] = (
    weakref.WeakKeyDictionary()
)
_BALANCED: weakref.WeakKeyDictionary[Any, dict[tuple[str, float, int, bool], list[str]]] = (
    weakref.WeakKeyDictionary()
)
_WRAP_CACHE_LIMIT = 256


def wrap(canvas: TextMeasure, text: str, width: float, size: int, bold: bool = False) -> list[str]:
    """``text`` broken at spaces into lines no wider than ``width`` pixels at font ``size``.

    A single word wider than ``width`` is cut to fit, so every line fits. Results are kept
    per canvas (panels re-wrap the same paragraphs every frame; measuring costs ~10 µs a
    word).
    """
    return _kept(_WRAPPED, _wrap, canvas, text, width, size, bold)


def wrap_balanced(
    canvas: TextMeasure, text: str, width: float, size: int, bold: bool = False
) -> list[str]:
    """As :func:`wrap`, in as few lines, but with the lines as even as they go (no last
    line of one short word): the narrowest width, to 1 px, that needs no more lines.
    Results are kept per canvas like :func:`wrap`'s (the search re-wraps ~10 times)."""
    return _kept(_BALANCED, _balanced, canvas, text, width, size, bold)


def _kept(
    kept: weakref.WeakKeyDictionary[Any, dict[tuple[str, float, int, bool], list[str]]],
    wrapper: Callable[[TextMeasure, str, float, int, bool], list[str]],
    canvas: TextMeasure,
    text: str,
    width: float,
    size: int,
    bold: bool,
) -> list[str]:
    """``wrapper``'s lines for these arguments, from ``kept`` (a per-canvas table, cleared
    when it holds ``_WRAP_CACHE_LIMIT`` paragraphs) or computed and kept there; a copy."""
    cache = kept.setdefault(canvas, {})
    key = (text, float(width), size, bold)
    lines = cache.get(key)
    if lines is None:
        if len(cache) >= _WRAP_CACHE_LIMIT:
            cache.clear()
        lines = cache[key] = wrapper(canvas, text, width, size, bold)
    return list(lines)


def _balanced(canvas: TextMeasure, text: str, width: float, size: int, bold: bool) -> list[str]:
    lines = wrap(canvas, text, width, size, bold)
    if len(lines) <= 1:
        return lines
    low, high = width / len(lines), width  # too narrow for the count at low; fine at high
    while high - low > 1.0:
        mid = (low + high) / 2
        if len(wrap(canvas, text, mid, size, bold)) <= len(lines):
            high = mid
        else:
            low = mid
    return wrap(canvas, text, high, size, bold)


def _wrap(canvas: TextMeasure, text: str, width: float, size: int, bold: bool) -> list[str]:
    lines: list[str] = []
    current = ""
    for word in text.split():
        trial = f"{current} {word}".strip()
        if current and canvas.text_size(trial, size, bold)[0] > width:
            lines.append(current)
            current = word
        else:
            current = trial
        while len(current) > 1 and canvas.text_size(current, size, bold)[0] > width:
            cut = len(current) - 1
            while cut > 1 and canvas.text_size(current[:cut], size, bold)[0] > width:
                cut -= 1
            lines.append(current[:cut])
            current = current[cut:]
    if current:
        lines.append(current)
    return lines


def intersects(a: Rect, b: Rect) -> bool:
    """Two (left, top, width, height) rectangles share interior area."""
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


def free_areas(area: Rect, obstacles: Sequence[Rect], gap: float = 0.0) -> list[Rect]:
    """The largest rectangles inside ``area`` that overlap none of ``obstacles`` (each grown
    by ``gap`` pixels): every one that no other free rectangle contains. Where a panel goes
    to cover no other (the F1 help: with the F3 panel, the status box, the editor's palette
    and a message up there is no single band left of, right of, above or below one box).

    Each such rectangle's edges lie on the area's or on an obstacle's, so all
    combinations of those are tried: (obstacles + 1)^4 boxes, ~4 ms for eight obstacles;
    results are kept (the same HUD boxes come back every frame).
    """
    grown = tuple(
        (float(x - gap), float(y - gap), float(w + 2 * gap), float(h + 2 * gap))
        for x, y, w, h in obstacles
    )
    return list(_free_areas(tuple(float(v) for v in area), grown))


@functools.lru_cache(maxsize=64)
def _free_areas(area: Rect, boxes: tuple[Rect, ...]) -> tuple[Rect, ...]:
    ax0, ay0, ax1, ay1 = area[0], area[1], area[0] + area[2], area[1] + area[3]
    inside = [(x, y, x + w, y + h) for x, y, w, h in boxes if intersects((x, y, w, h), area)]
    lefts = {ax0, *(x1 for _, _, x1, _ in inside if ax0 < x1 < ax1)}
    rights = {ax1, *(x0 for x0, _, _, _ in inside if ax0 < x0 < ax1)}
    tops = {ay0, *(y1 for _, _, _, y1 in inside if ay0 < y1 < ay1)}
    bottoms = {ay1, *(y0 for _, y0, _, _ in inside if ay0 < y0 < ay1)}
    free = [
        (x0, y0, x1, y1)
        for x0 in lefts
        for x1 in rights
        if x1 > x0
        for y0 in tops
        for y1 in bottoms
        if y1 > y0
        and not any(
            x0 < bx1 and bx0 < x1 and y0 < by1 and by0 < y1 for bx0, by0, bx1, by1 in inside
        )
    ]
    maximal = [
        r
        for r in free
        if not any(
            o != r and o[0] <= r[0] and o[1] <= r[1] and r[2] <= o[2] and r[3] <= o[3] for o in free
        )
    ]
    return tuple((x0, y0, x1 - x0, y1 - y0) for x0, y0, x1, y1 in sorted(maximal))


def clear_disc(
    area: Rect, obstacles: Sequence[Rect], steps: int = 24
) -> tuple[tuple[float, float], float]:
    """The largest disc inside ``area`` that no box of ``obstacles`` touches (to a pixel or
    so), as ``(centre, radius)`` in pixels: where a view frames its subject beside a panel
    drawn over it.

    The radius is found by bisection (``steps`` halvings); for each radius the centres
    are tried on a 49x49 grid over the places it fits in ``area``, the one nearest the
    area's centre kept.
    """
    left, top, width, height = area
    middle = np.array([left + width / 2.0, top + height / 2.0])
    boxes = np.asarray(obstacles, dtype=float).reshape(-1, 4)
    low, high = 0.0, min(width, height) / 2.0
    best = ((float(middle[0]), float(middle[1])), 0.0)
    u = np.linspace(0.0, 1.0, 49)
    for _ in range(steps):
        radius = (low + high) / 2.0
        xs = left + radius + u * (width - 2.0 * radius)
        ys = top + radius + u * (height - 2.0 * radius)
        centres = np.stack(np.meshgrid(xs, ys), axis=-1).reshape(-1, 1, 2)
        # distance from a point to a box: the length of how far it lies outside each slab
        dx = np.maximum(
            np.maximum(boxes[:, 0] - centres[..., 0], 0.0),
            centres[..., 0] - boxes[:, 0] - boxes[:, 2],
        )
        dy = np.maximum(
            np.maximum(boxes[:, 1] - centres[..., 1], 0.0),
            centres[..., 1] - boxes[:, 1] - boxes[:, 3],
        )
        clear = (np.hypot(dx, dy) >= radius).all(axis=1)
        if clear.any():
            fits = centres[clear, 0]
            pick = fits[np.argmin(np.hypot(*(fits - middle).T))]
            best, low = ((float(pick[0]), float(pick[1])), radius), radius
        else:
            high = radius
    return best
