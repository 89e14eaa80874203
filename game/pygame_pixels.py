"""Pixel coordinates SDL can take: clamped to ±``PX_LIMIT``, NaN to 0 (the pygame canvas
puts every coordinate through these before it reaches SDL)."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pygame
from numpy.typing import ArrayLike

from game.canvas import Point

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
