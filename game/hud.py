"""Heads-up display drawn over every scene: scene tabs, status line, pause badge, F1 help."""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass

from game.canvas import Canvas
from game.layout import Rect, font_px, ui_scale, wrap
from game.palette import PALETTE, mix

GLOBAL_CONTROLS: tuple[tuple[str, str], ...] = (
    ("1 2 3 4", "switch scene"),
    ("O", "debug overlay on/off"),
    ("F3", "profiler panel"),
    ("P / .", "pause / single step"),
    ("F5", "reload assets"),
    ("F12", "save a screenshot"),
    ("F1", "this help"),
    ("Esc", "close this help; else quit"),
)


def draw_tabs(
    canvas: Canvas,
    names: Sequence[str],
    current: str,
    fps: float,
    paused: bool,
    recording: bool = False,
) -> None:
    """The top-left strip: numbered scene tabs, FPS, a REC dot, and a PAUSED badge.

    The tabs change only with the scene and the window, so they are put down from a
    cached sprite; the readout after them is drawn each frame."""
    scale = ui_scale(canvas.size)
    size = font_px(17, scale)
    x, top = 12.0 * scale, 8.0 * scale
    gap = 6.0 * scale  # between the key and the name (a space shrank to a pixel at 960x540)
    tabs = []  # per tab: its left, key width, name width, and whether it is the current one
    h = 0
    for index, name in enumerate(names, start=1):
        key_w, h = canvas.text_size(str(index), size, True)
        name_w, _ = canvas.text_size(name, size)
        tabs.append((x, key_w, name_w, name == current))
        x += key_w + gap + name_w + 20 * scale
    # the panels reach 6 px (scaled) either side of their text and 8 below; a pixel to spare
    strip = (0, 0, math.ceil(x - 14 * scale) + 1, math.ceil(top + h + 8 * scale) + 1)
    paint = functools.partial(_paint_tabs, names=names, tabs=tabs, top=top, size=size, h=h, gap=gap)
    canvas.sprite(("scene tabs", tuple(names), current, canvas.size), strip, paint)
    # the readout in pieces with their own gaps, for the same reason as the tabs
    cursor = x + 4 * scale
    for piece, after in ((f"{fps:.1f}", 5.0), ("fps", 16.0), ("F1 help", 0.0)):
        pw, h = canvas.text((cursor, top + 4 * scale), piece, PALETTE["text_dim"], size)
        cursor += pw + after * scale
    w = cursor - (x + 4 * scale)
    if recording:
        dot_x = x + 4 * scale + w + 18 * scale
        canvas.circle((dot_x, top + 4 * scale + h / 2), 6 * scale, PALETTE["bad"])
        canvas.text((dot_x + 10 * scale, top + 4 * scale), "REC", PALETTE["bad"], size, bold=True)
    if paused:
        width, _ = canvas.size
        badge = font_px(20, scale)
        bw, bh = canvas.text_size("PAUSED  (P)", badge, True)
        box = (width / 2 - bw / 2 - 14 * scale, 40 * scale, bw + 28 * scale, bh + 10 * scale)
        canvas.panel(box, PALETTE["bad"], 200)
        canvas.text(
            (width / 2, box[1] + box[3] / 2),
            "PAUSED  (P)",
            PALETTE["white"],
            badge,
            "center",
            bold=True,
        )


def _paint_tabs(
    canvas: Canvas,
    names: Sequence[str],
    tabs: list[tuple[float, int, int, bool]],
    top: float,
    size: int,
    h: int,
    gap: float,
) -> None:
    """The scene tabs measured by :func:`draw_tabs`: a panel each, its key and name."""
    scale = ui_scale(canvas.size)
    for index, (name, (x, key_w, name_w, active)) in enumerate(zip(names, tabs, strict=True), 1):
        w = key_w + gap + name_w
        fill = mix(PALETTE["panel"], PALETTE["accent"], 0.45 if active else 0.0)
        canvas.panel(
            (x - 6 * scale, top, w + 12 * scale, h + 8 * scale), fill, 230 if active else 170
        )
        color = PALETTE["text"] if active else PALETTE["text_dim"]
        canvas.text((x, top + 4 * scale), str(index), color, size, bold=True)
        canvas.text((x + key_w + gap, top + 4 * scale), name, color, size)


@dataclass(frozen=True, slots=True)
class HelpLayout:
    """The F1 panel laid out in one free area: its box, font sizes and wrapped rows."""

    box: Rect
    shrink: float  # the font's size as a fraction of the designed one
    fits: bool
    title_px: int
    row_px: int
    key_w: float
    title_h: float
    line_h: float
    rows: list[tuple[str, list[str]]]


HELP_SHRINKS = (1.0, 0.9, 0.8, 0.7, 0.6)


def help_layout(
    canvas: Canvas, title: str, scene_controls: Sequence[tuple[str, str]], area: Rect
) -> HelpLayout:
    """The F1 panel centred in ``area``, at most 760 px (scaled) wide; long descriptions
    wrap, and when the rows are too tall for the area the font shrinks."""
    rows = [*scene_controls, ("", ""), *GLOBAL_CONTROLS]
    scale = ui_scale(canvas.size)
    margin = 20.0 * scale
    panel_w = max(min(760.0 * scale, area[2] - 2 * margin), 1.0)
    layout = None
    for shrink in HELP_SHRINKS:
        title_px, row_px = font_px(22 * shrink, scale), font_px(18 * shrink, scale)
        key_w = max(canvas.text_size(key, row_px)[0] for key, _ in rows) + margin
        what_w = panel_w - 2 * margin - key_w
        wrapped = [(key, wrap(canvas, what, what_w, row_px) or [""]) for key, what in rows]
        line_h = canvas.text_size("Ag", row_px)[1] + 4 * scale
        title_h = canvas.text_size(title, title_px, True)[1] + 10 * scale
        panel_h = 2 * margin + title_h + line_h * sum(len(lines) for _, lines in wrapped)
        fits = panel_h <= area[3] - 2 * margin and what_w > 0
        left = area[0] + (area[2] - panel_w) / 2
        top = area[1] + max((area[3] - panel_h) / 2, margin / 2)
        layout = HelpLayout(
            (left, top, panel_w, panel_h),
            shrink,
            fits,
            title_px,
            row_px,
            key_w,
            title_h,
            line_h,
            wrapped,
        )
        if fits:
            break
    assert layout is not None
    return layout


def help_areas(size: tuple[int, int], keep_clear: Rect | None) -> list[Rect]:
    """Where the F1 panel may go: the window, or with a panel to keep clear of (the F3
    profiler, drawn over the help, hid its lines), the bands of the window left, right,
    above and below that panel."""
    width, height = float(size[0]), float(size[1])
    if keep_clear is None:
        return [(0.0, 0.0, width, height)]
    x, y, w, h = keep_clear
    bands = [
        (0.0, 0.0, x, height),
        (x + w, 0.0, width - x - w, height),
        (0.0, 0.0, width, y),
        (0.0, y + h, width, height - y - h),
    ]
    # a band narrower than half the designed panel, or lower than a quarter of it, cannot
    # hold the help legibly (and is not worth wrapping it for)
    scale = ui_scale(size)
    return [band for band in bands if band[2] >= 380.0 * scale and band[3] >= 100.0 * scale]


def draw_help(
    canvas: Canvas,
    title: str,
    scene_controls: Sequence[tuple[str, str]],
    keep_clear: Rect | None = None,
) -> None:
    """The F1 panel: the scene's own controls, then the global ones, sized to fit the window
    and, with ``keep_clear`` (the F3 panel's box), beside that box: in the band of the
    window around it where the text is largest (then where the panel is widest)."""
    candidates = [
        help_layout(canvas, title, scene_controls, area)
        for area in help_areas(canvas.size, keep_clear)
    ]
    chosen = max(candidates, key=lambda c: (c.fits, c.shrink, c.box[2]))
    left, top, panel_w, panel_h = box = chosen.box
    scale = ui_scale(canvas.size)
    margin = 20.0 * scale
    canvas.panel(box, PALETTE["panel"], 235)
    canvas.rect(box, PALETTE["panel_edge"], 1, 8)
    y = top + margin
    canvas.text((left + margin, y), title, PALETTE["accent"], chosen.title_px, bold=True)
    y += chosen.title_h
    for key, lines in chosen.rows:
        if key:
            canvas.text((left + margin, y), key, PALETTE["accent"], chosen.row_px)
        for line in lines:
            if line:
                canvas.text((left + margin + chosen.key_w, y), line, PALETTE["text"], chosen.row_px)
            y += chosen.line_h


def message_box(canvas: Canvas, message: str, area: Rect) -> tuple[Rect, list[str], int]:
    """Where a message banner goes: the bottom-right corner of ``area`` (the scene's view,
    whose HUD panels sit on the left), wrapped to at most 40 % of its width."""
    scale = ui_scale(canvas.size)
    size = font_px(17, scale)
    pad = 10.0 * scale
    lines = wrap(canvas, message, area[2] * 0.4 - 2 * pad, size)
    line_h = canvas.text_size("Ag", size)[1] + 2 * scale
    w = max(canvas.text_size(line, size)[0] for line in lines) + 2 * pad if lines else 0.0
    h = line_h * len(lines) + 2 * pad
    right, bottom = area[0] + area[2] - 12 * scale, area[1] + area[3] - 12 * scale
    return (right - w, bottom - h, w, h), lines, size


def draw_message(canvas: Canvas, message: str, color_name: str, area: Rect) -> None:
    """A banner for notices and asset errors in the bottom-right corner of ``area``."""
    box, lines, size = message_box(canvas, message, area)
    pad = 10.0 * ui_scale(canvas.size)
    canvas.panel(box, PALETTE["panel"], 235)
    canvas.rect(box, PALETTE[color_name], 1, 6)
    line_h = (box[3] - 2 * pad) / max(len(lines), 1)
    for i, line in enumerate(lines):
        canvas.text((box[0] + pad, box[1] + pad + i * line_h), line, PALETTE[color_name], size)
