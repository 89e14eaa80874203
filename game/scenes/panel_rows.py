"""What the lab's and the swivel scene's side panels share: rows of a name and its value,
and the solver's status as a coloured chip."""

from __future__ import annotations

from collections.abc import Sequence

from game.canvas import Canvas
from game.layout import font_px
from game.palette import PALETTE, Color, mix


def draw_rows(
    canvas: Canvas,
    rows: Sequence[tuple[str, str, Color]],
    left: float,
    right: float,
    row: float,
    step: float,
    scale: float,
) -> float:
    """Each row's name (dim, from ``left``) and value (in its colour, ending at ``right``),
    ``step`` pixels apart from ``row`` down; returns the row after the last."""
    for label, value, color in rows:
        canvas.text((left, row), label, PALETTE["text_dim"], font_px(19, scale))
        canvas.text((right, row), value, color, font_px(20, scale), "topright")
        row += step
    return row


def draw_status_chip(
    canvas: Canvas, text: str, ok: bool, left: float, row: float, scale: float
) -> None:
    """``text`` in bold on a rounded chip at ``(left, row)``: green when ``ok`` (the target
    reached), else amber."""
    s = scale
    chip = PALETTE["ok"] if ok else PALETTE["warn"]
    chip_px = font_px(20, s)
    tw, th = canvas.text_size(text, chip_px, True)
    chip_box = (left - 8 * s, row - 4 * s, tw + 16 * s, th + 8 * s)
    canvas.rect(chip_box, mix(PALETTE["panel"], chip, 0.25), 0, 8)
    canvas.text((left, row), text, chip, chip_px, bold=True)
