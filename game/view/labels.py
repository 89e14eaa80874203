"""The ground's landmark names, placed each frame clear of the HUD, the hero and the props;
and the test other labels use to keep off them."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from game.canvas import WorldPen
from game.layout import font_px, intersects, ui_scale
from game.palette import PALETTE, faint

if TYPE_CHECKING:
    from game.world.terrain import Terrain

Box = tuple[float, float, float, float]


class GroundLabels:
    """The landmarks' names as drawn this frame, and the place each name took last."""

    def __init__(self) -> None:
        self.boxes: list[Box] = []  # the names' boxes drawn this frame
        self._spots: dict[str, tuple[float, bool]] = {}  # where each name went last

    def draw(self, pen: WorldPen, terrain: Terrain, avoid: list[Box]) -> None:
        """Every landmark near the view, its name clear of the ``avoid`` boxes (pixels)."""
        x0, x1 = pen.camera.visible_x_range()
        self.boxes.clear()
        for mark in terrain.landmarks:
            if x0 - 2 < 0.5 * (mark.x_from + mark.x_to) < x1 + 2:
                self._label(pen, terrain, mark.name, mark.x_from, mark.x_to, avoid)

    def hidden(
        self,
        pen: WorldPen,
        at: NDArray[np.float64],
        text: str,
        offset: tuple[float, float],
        left: bool,
        size: int,
        hud_box: Box | None,
    ) -> bool:
        """Whether a ``size`` px label at world ``at``, ``offset`` (1280x720 px) beside it,
        ending there (``left``) or starting there, would lie under ``hud_box`` (the status
        box as last drawn) or on a landmark's name drawn this frame (at the ladder's foot
        the feet's labels covered "ladder")."""
        s = ui_scale(pen.canvas.size)
        x, y = pen.px(at)
        w, h = pen.canvas.text_size(text, font_px(size, s))
        box = (x + offset[0] * s - (w if left else 0.0), y + offset[1] * s - h / 2, w, h)
        boxes = self.boxes if hud_box is None else [hud_box, *self.boxes]
        return any(intersects(box, other) for other in boxes)

    def _label(
        self,
        pen: WorldPen,
        terrain: Terrain,
        name: str,
        x_from: float,
        x_to: float,
        avoid: list[Box],
    ) -> None:
        """A landmark's name by the ground line, just under it or just over it, at the
        landmark's middle or a quarter of the way in from either end: the first of those
        places (the one it had last frame first) that lies on the screen top to bottom and
        clear of the ``avoid`` boxes and the names put down already. None clear: the name
        is left out this frame (names at his feet, under the status box or off the bottom
        of the window read as clutter)."""
        color = faint(PALETTE["ground_edge"], 0.8)
        canvas = pen.canvas
        s = ui_scale(canvas.size)
        w, h = canvas.text_size(name, font_px(18, s))
        avoid = avoid + self.boxes
        span = x_to - x_from
        spots = [(x, under) for x in (0.5, 0.25, 0.75) for under in (True, False)]
        last = self._spots.get(name)
        for at, under in ([last] if last in spots else []) + spots:
            ground = (x_from + at * span, float(terrain.height_at(x_from + at * span)))
            x, y = pen.px(ground)
            box = (x - w / 2, y + 12 * s if under else y - 10 * s - h, w, h)
            if box[1] < 0 or box[1] + h > canvas.size[1]:
                continue
            if any(intersects(box, other) for other in avoid):
                continue
            if under:
                pen.text(ground, name, color, 18, "midtop", (0, 12))
            else:
                pen.text(ground, name, color, 18, "midbottom", (0, -10))
            self.boxes.append(box)
            self._spots[name] = (at, under)
            return
