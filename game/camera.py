"""World ↔ screen transform for the 2-D scenes: scale, y-flip and pan live here only."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray


@dataclass(slots=True)
class Camera2D:
    """Maps world metres (y-up) to screen pixels (y-down).

    Parameters
    ----------
    center_w : tuple of float
        The world point shown at the viewport centre.
    scale : float
        Pixels per metre.
    viewport : tuple of int
        ``(left, top, width, height)`` of the screen area the world is drawn in.
    """

    center_w: tuple[float, float] = (0.0, 0.0)
    scale: float = 100.0
    viewport: tuple[int, int, int, int] = (0, 0, 1280, 720)

    def _origin_px(self) -> tuple[float, float]:
        left, top, width, height = self.viewport
        return left + width / 2.0, top + height / 2.0

    def to_screen(self, points_w: ArrayLike) -> NDArray[np.float64]:
        """World points, shape ``(..., 2)``, to pixels, shape ``(..., 2)``."""
        p = np.asarray(points_w, dtype=float)
        ox, oy = self._origin_px()
        out = np.empty(p.shape, dtype=float)
        out[..., 0] = ox + (p[..., 0] - self.center_w[0]) * self.scale
        out[..., 1] = oy - (p[..., 1] - self.center_w[1]) * self.scale  # the one y-flip
        return out

    def point_to_screen(self, x_w: float, y_w: float) -> tuple[float, float]:
        """One world point to pixels, in plain floats (no numpy call for a single point)."""
        left, top, width, height = self.viewport
        cx, cy = self.center_w
        return (
            left + width / 2.0 + (x_w - cx) * self.scale,
            top + height / 2.0 - (y_w - cy) * self.scale,  # the same y-flip as to_screen
        )

    def to_world(self, points_px: ArrayLike) -> NDArray[np.float64]:
        """Pixels, shape ``(..., 2)``, to world points, shape ``(..., 2)``."""
        p = np.asarray(points_px, dtype=float)
        ox, oy = self._origin_px()
        out = np.empty(p.shape, dtype=float)
        out[..., 0] = self.center_w[0] + (p[..., 0] - ox) / self.scale
        out[..., 1] = self.center_w[1] - (p[..., 1] - oy) / self.scale
        return out

    def length_px(self, length_w: float) -> float:
        """A world length in pixels."""
        return length_w * self.scale

    def visible_x_range(self) -> tuple[float, float]:
        """The world x interval the viewport shows."""
        left, _, width, _ = self.viewport
        x0 = self.center_w[0] + (left - (left + width / 2.0)) / self.scale  # as to_world's x
        return x0, x0 + width / self.scale
