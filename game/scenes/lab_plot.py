"""The lab's soft-curve plot: d → d used (identity, soft knee, clamp at the reach) in the
world view's corner, drawn by the overlay (O)."""

from __future__ import annotations

from typing import Any

import numpy as np

import ik
from game.canvas import Canvas
from game.layout import Rect, font_px
from game.palette import PALETTE
from game.scenes.lab_sim import LOWER_LEN, UPPER_LEN


def draw_soft_curve(
    canvas: Canvas,
    softness: float,
    d_now: float,
    viewport: tuple[int, int, int, int],
    scale: float,
) -> None:
    """A small plot of d → d used (identity, soft knee, clamp at L) in the world view's corner,
    with ticks at the dead zone and the reach and a marker at the target's d."""
    s = scale
    box = soft_curve_box(viewport, scale)
    bx, by, bw, bh = box
    canvas.panel(box, PALETTE["panel"], 215)
    canvas.rect(box, PALETTE["panel_edge"], 1, 4)
    reach = UPPER_LEN + LOWER_LEN
    dead = abs(UPPER_LEN - LOWER_LEN)
    d_max = reach + 1.2

    def d_used(d: Any) -> Any:
        # soft knee below the reach, then the clamp into [|L1 − L2|, L1 + L2]
        return np.maximum(np.minimum(ik.soften_distance(d, reach, softness), reach), dead)

    def x_px(d: Any) -> Any:
        return bx + 10 * s + d / d_max * (bw - 20 * s)

    def y_px(value: Any) -> Any:
        return by + bh - 24 * s - value / d_max * (bh - 44 * s)

    d = np.linspace(0.0, d_max, 120)
    canvas.lines(np.stack([x_px(d), y_px(d)], axis=-1), PALETTE["ghost"], 1)
    canvas.lines(np.stack([x_px(d), y_px(d_used(d))], axis=-1), PALETTE["soft_band"], 2)
    small = font_px(14, s)
    axis_y = y_px(0.0)
    for tick in (dead, reach):
        canvas.line((x_px(tick), axis_y), (x_px(tick), axis_y + 4 * s), PALETTE["text_dim"], 1)
        canvas.text(
            (x_px(tick), axis_y + 4 * s), f"{tick:.1f}", PALETTE["text_dim"], small, "midtop"
        )
    now = min(max(d_now, 0.0), d_max)
    now_at = (float(x_px(now)), float(y_px(d_used(np.array(now)))))
    canvas.line((now_at[0], axis_y), now_at, PALETTE["target"], 1)
    canvas.circle(now_at, 4 * s, PALETTE["target"])
    label = f"d = {d_now:.2f}"
    label_w, label_h = canvas.text_size(label, small)
    # up and left of the marker: the curve only rises to its right (centred above it, the
    # curve would cross the label); on the panel's colour, so the dim d = d line beyond the
    # reach passes behind it
    label_x = min(max(now_at[0] - 6 * s, bx + label_w + 4 * s), bx + bw - 4 * s)
    label_y = now_at[1] - 6 * s
    backing = (label_x - label_w - 2 * s, label_y - label_h, label_w + 4 * s, label_h)
    canvas.panel(backing, PALETTE["panel"], 255)
    canvas.text((label_x, label_y), label, PALETTE["target"], small, "bottomright")
    title = "d used vs d  (soft knee, clamp)"
    canvas.text((bx + 10 * s, by + 6 * s), title, PALETTE["text_dim"], font_px(15, s))
    canvas.text((bx + bw - 8 * s, by + bh - 6 * s), "d", PALETTE["text_dim"], small, "bottomright")


def soft_curve_box(viewport: tuple[int, int, int, int], scale: float) -> Rect:
    """Where the soft-curve plot goes: the bottom-left corner of the world view."""
    left, top, _, height = viewport
    return (left + 16.0 * scale, top + height - 176.0 * scale, 220.0 * scale, 160.0 * scale)
