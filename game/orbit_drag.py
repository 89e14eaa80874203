"""Mouse control of an :class:`~game.projection.OrbitCamera`: right-drag orbits, the wheel
zooms (view state only; the scenes with an orbit camera share it)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from game.input_state import RawInput
from game.projection import OrbitCamera

ORBIT_RAD_PER_PX = 0.008
ZOOM_PER_WHEEL = 0.9  # distance factor per wheel notch
MAX_DRAG_PX = 2000.0  # a frame's drag is clamped to this (a wild pointer)
MAX_NOTCHES = 10.0  # a frame's wheel is clamped to this many notches


@dataclass(slots=True)
class OrbitDrag:
    """Where the right-drag was last frame (None: not dragging)."""

    start: tuple[float, float] | None = None

    def moved(
        self, camera: OrbitCamera, raw: RawInput, pointer: NDArray[np.float64]
    ) -> OrbitCamera:
        """``camera`` orbited by this frame's right-drag to ``pointer`` (px) and zoomed by
        its wheel."""
        if 3 in raw.buttons_down:
            if self.start is not None:
                dx, dy = np.clip(pointer - self.start, -MAX_DRAG_PX, MAX_DRAG_PX)
                camera = camera.orbited(-dx * ORBIT_RAD_PER_PX, dy * ORBIT_RAD_PER_PX)
            self.start = (float(pointer[0]), float(pointer[1]))
        else:
            self.start = None
        if raw.wheel:
            notches = min(max(raw.wheel, -MAX_NOTCHES), MAX_NOTCHES)
            camera = camera.zoomed(ZOOM_PER_WHEEL**notches)
        return camera
