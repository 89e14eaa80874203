"""Points on circles and arcs in 3-D, shape ``(count, 3)``: what the swivel scene draws its
rings, cones and angle arcs from."""

from __future__ import annotations

import functools
import math

import numpy as np
from numpy.typing import ArrayLike, NDArray


def ring(
    center: ArrayLike, normal: ArrayLike, radius: float, count: int = 72
) -> NDArray[np.float64]:
    """Points of the circle of ``radius`` about ``center`` perpendicular to ``normal``, (count, 3)."""
    n = np.asarray(normal, dtype=float)
    n = n / np.linalg.norm(n)
    ref = np.array([0.0, 1.0, 0.0]) if abs(n[1]) < 0.9 else np.array([1.0, 0.0, 0.0])
    e1 = np.cross(n, ref)
    e1 /= np.linalg.norm(e1)
    return circle_points(center, e1, np.cross(n, e1), radius, count)


def circle_points(
    center: ArrayLike, e1: ArrayLike, e2: ArrayLike, radius: float, count: int
) -> NDArray[np.float64]:
    """Points ``center + radius·(cos a·e1 + sin a·e2)`` for ``count`` angles ``a`` evenly
    round from 0, shape ``(count, 3)``; ``e1``, ``e2`` orthonormal, shape ``(3,)`` (a frame
    the caller already has: np.cross costs ~10 µs a call)."""
    cos_a, sin_a = _unit_circle(count)
    return np.asarray(center, dtype=float) + radius * (
        cos_a * np.asarray(e1, dtype=float) + sin_a * np.asarray(e2, dtype=float)
    )


@functools.cache
def _unit_circle(count: int) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """cos and sin of ``count`` angles evenly round the circle, each shape ``(count, 1)``
    (a handful of counts is used, each every frame)."""
    a = np.linspace(0.0, 2 * math.pi, count, endpoint=False)[:, None]
    return np.cos(a), np.sin(a)


def arc(
    center: ArrayLike,
    start: ArrayLike,
    toward: ArrayLike,
    radius: float,
    angle: float,
    count: int = 24,
) -> NDArray[np.float64]:
    """Points of an arc of ``angle`` radians about ``center``, from unit ``start`` toward
    ``toward`` (a unit vector perpendicular to ``start``), shape ``(count, 3)``."""
    a = np.linspace(0.0, angle, count)[:, None]
    return np.asarray(center, dtype=float) + radius * (
        np.cos(a) * np.asarray(start) + np.sin(a) * np.asarray(toward)
    )
