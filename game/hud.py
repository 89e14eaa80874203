"""Heads-up display drawn over every scene: scene tabs, status line, pause badge, F1 help."""

from __future__ import annotations

from collections.abc import Sequence

from game.canvas import Canvas
from game.palette import PALETTE, mix

GLOBAL_CONTROLS: tuple[tuple[str, str], ...] = (
    ("1 2 3 4", "switch scene"),
    ("O", "debug overlay on/off"),
    ("F3", "profiler panel"),
    ("P / .", "pause / single step"),
    ("F5", "reload assets"),
    ("F12", "save a screenshot"),
    ("F1", "this help"),
    ("Esc", "quit"),
)


def draw_tabs(canvas: Canvas, names: Sequence[str], current: str, fps: float, paused: bool) -> None:
    """The top-left strip: numbered scene tabs, FPS, and a PAUSED badge."""
    x = 12.0
    for index, name in enumerate(names, start=1):
        label = f"{index} {name}"
        w, h = canvas.text_size(label, 17)
        active = name == current
        fill = mix(PALETTE["panel"], PALETTE["accent"], 0.45 if active else 0.0)
        canvas.panel((x - 6, 8, w + 12, h + 8), fill, 230 if active else 170)
        canvas.text((x, 12), label, PALETTE["text"] if active else PALETTE["text_dim"], 17)
        x += w + 20
    canvas.text((x + 4, 12), f"{fps:5.1f} fps   F1 help", PALETTE["text_dim"], 17)
    if paused:
        width, _ = canvas.size
        canvas.panel((width / 2 - 70, 40, 140, 30), PALETTE["bad"], 200)
        canvas.text((width / 2, 55), "PAUSED  (P)", PALETTE["white"], 20, "center", bold=True)


def draw_help(canvas: Canvas, title: str, scene_controls: Sequence[tuple[str, str]]) -> None:
    """The F1 panel: the scene's own controls, then the global ones."""
    rows = [("", title), *scene_controls, ("", ""), *GLOBAL_CONTROLS]
    width, height = canvas.size
    panel_w, panel_h = 520.0, 40.0 + 24.0 * len(rows)
    left, top = (width - panel_w) / 2, max((height - panel_h) / 2, 10.0)
    canvas.panel((left, top, panel_w, panel_h), PALETTE["panel"], 235)
    canvas.rect((left, top, panel_w, panel_h), PALETTE["panel_edge"], 1, 8)
    y = top + 18
    for key, what in rows:
        if not key and what:
            canvas.text((left + 20, y), what, PALETTE["accent"], 22, bold=True)
        elif key:
            canvas.text((left + 20, y), key, PALETTE["accent"], 18)
            canvas.text((left + 170, y), what, PALETTE["text"], 18)
        y += 24


def draw_message(canvas: Canvas, message: str, color_name: str = "bad") -> None:
    """A banner at the bottom of the screen (asset reload errors and notices)."""
    width, height = canvas.size
    w, h = canvas.text_size(message, 18)
    box = ((width - w) / 2 - 12, height - h - 30, w + 24, h + 14)
    canvas.panel(box, PALETTE["panel"], 235)
    canvas.rect(box, PALETTE[color_name], 1, 6)
    canvas.text((width / 2, height - h / 2 - 23), message, PALETTE[color_name], 18, "center")
