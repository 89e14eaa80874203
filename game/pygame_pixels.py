"""Pixel coordinates SDL can take: clamped to ±``PX_LIMIT``, NaN to 0 (the pygame canvas
puts every coordinate through these before it reaches SDL)."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pygame
from numpy.typing import ArrayLike

from game.canvas import Point
from game.palette import Color

# Coordinates beyond this many pixels are clamped before they reach SDL: a pointer flung to
# 1e30 must draw a long line, not overflow SDL's integer maths.
PX_LIMIT = 1e5


def clamp_px(value: float) -> float:
    """One coordinate SDL can take: within ±``PX_LIMIT``, NaN to 0."""
    v = float(value)
    if -PX_LIMIT <= v <= PX_LIMIT:
        return v
    return 0.0 if math.isnan(v) else math.copysign(PX_LIMIT, v)


def clamp_point(p: Point) -> tuple[float, float]:
    return clamp_px(p[0]), clamp_px(p[1])


def clamp_rect(rect: Sequence[float]) -> pygame.Rect:
    """A rectangle SDL can take: every component clamped like a coordinate."""
    x, y, w, h = rect
    # one chained test for the common case (NaN fails it too)
    if not (
        -PX_LIMIT <= x <= PX_LIMIT
        and -PX_LIMIT <= y <= PX_LIMIT
        and -PX_LIMIT <= w <= PX_LIMIT
        and -PX_LIMIT <= h <= PX_LIMIT
    ):
        x, y, w, h = (clamp_px(v) for v in rect)
    return pygame.Rect(round(x), round(y), round(w), round(h))


def finite_px(points: ArrayLike) -> np.ndarray:
    """Pixel coordinates SDL can take: NaN to 0, everything within ±``PX_LIMIT``."""
    pts = np.asarray(points, dtype=float)
    if pts.size and abs(pts).max() <= PX_LIMIT:  # the common case: one check, no copies
        return pts  # (NaN fails the comparison, so it takes the slow path below)
    return np.clip(np.nan_to_num(pts), -PX_LIMIT, PX_LIMIT)


def point_list(points: ArrayLike) -> Sequence[Sequence[float]]:
    """Points ``(N, 2)`` as plain numbers SDL can take (see :func:`finite_px`). A few points
    given as plain numbers (a bone's quad, the shadow's 24-gon) are checked in Python,
    ~1-2 µs against ~5 µs through numpy; arrays go through :func:`finite_px`."""
    if isinstance(points, (list, tuple)) and len(points) <= 32:
        try:
            if all(-PX_LIMIT <= x <= PX_LIMIT and -PX_LIMIT <= y <= PX_LIMIT for x, y in points):
                return points  # (NaN fails the comparison, so it takes the path below)
        except (TypeError, ValueError):  # not pairs of numbers: numpy says what is wrong
            pass
    result: Sequence[Sequence[float]] = finite_px(points).tolist()
    return result


def fill_by_cache_lines(surface: pygame.Surface, box: pygame.Rect, color: Color) -> None:
    """Fill ``box`` on ``surface``, split at cache lines where that is faster. SDL fills
    each row of 16 or more pixels with 64-byte streaming stores from a 16-byte boundary
    and the rest of the row with plain stores; where both land in one cache line the line
    is flushed half-written, ~0.4 µs a row (1280x720 surface: a 20x80 fill from x = 100
    ~33 µs, 16x80 ~2 µs; 512x300 from x = 443 ~125 µs, from x = 448 ~40 µs). So a fill
    is done as its middle of whole cache lines and the strips either side, narrower than
    16 pixels (plain stores only): the same pixels."""
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
