"""Heads-up display drawn over every scene: scene tabs, status line, pause badge, F1 help."""

from __future__ import annotations

import dataclasses
import functools
import math
import weakref
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from game.canvas import Canvas
from game.layout import Rect, font_px, free_areas, intersects, ui_scale, wrap
from game.palette import PALETTE, mix

GLOBAL_CONTROLS: tuple[tuple[str, str], ...] = (
    ("1 - 5", "switch scene"),
    ("O", "debug overlay on/off"),
    ("F3", "profiler panel"),
    ("P / .", "pause / single step"),
    ("F5", "reload assets"),
    ("F12", "save a screenshot"),
    ("F1", "this help"),
    ("Esc", "close help or editor; else quit"),
)


def draw_tabs(
    canvas: Canvas,
    names: Sequence[str],
    current: str,
    fps: float | None,
    paused: bool,
    recording: bool = False,
) -> Rect:
    """The top-left strip: numbered scene tabs, FPS, a REC dot, and a PAUSED badge.

    ``fps`` is None while paused: the readout says "paused" (a frame rate held from before
    the pause, or one measured over single steps, means nothing).

    The tabs change only with the scene and the window, so they are put down from a
    cached sprite; the readout after them is drawn each frame. Returns the box of the tabs
    and the readout (the F1 help keeps clear of it; the badge is a panel of its own)."""
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
    # the box returned reaches as far as the widest readout would (the help is laid out
    # around it once, not again at every change of the fps or at a pause)

    def readout_w(pieces: Sequence[tuple[str, float]]) -> float:
        return sum(canvas.text_size(piece, size)[0] + after * scale for piece, after in pieces)

    help_w = canvas.text_size("F1 help", size)[0]
    widest = max(readout_w(_readout(8888.8)), readout_w(_readout(None))) + help_w
    # on a panel like an idle tab's, as wide as the widest readout: it reads on any sky
    start = x + 4 * scale
    canvas.panel(
        (start - 6 * scale, top, widest + 12 * scale, h + 8 * scale), PALETTE["panel"], 170
    )
    # the readout in pieces with their own gaps, for the same reason as the tabs
    cursor = start
    readout = _readout(fps)
    for piece, after in (*readout, ("F1 help", 0.0)):
        pw, h = canvas.text((cursor, top + 4 * scale), piece, PALETTE["text_dim"], size)
        cursor += pw + after * scale
    w = cursor - start
    right = start + widest
    if recording:
        dot_x = x + 4 * scale + w + 18 * scale
        canvas.circle((dot_x, top + 4 * scale + h / 2), 6 * scale, PALETTE["bad"])
        rec_w, _ = canvas.text(
            (dot_x + 10 * scale, top + 4 * scale), "REC", PALETTE["bad"], size, bold=True
        )
        right = dot_x + 10 * scale + rec_w
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
    return (0.0, 0.0, float(max(right, strip[2])), float(strip[3]))


def _readout(fps: float | None) -> tuple[tuple[str, float], ...]:
    """The frame-rate readout after the tabs, as pieces and the gap after each (scaled)."""
    return (("paused", 16.0),) if fps is None else ((f"{fps:.1f}", 5.0), ("fps", 16.0))


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
    # set where it lies over the overlay's colour key: the box painted opaque behind the
    # text, grown over all of the key where that stays clear of the other panels
    cover: Rect | None = None


HELP_SHRINKS = (1.0, 0.9, 0.8, 0.7, 0.6)


def help_layout(
    canvas: Canvas, title: str, scene_controls: Sequence[tuple[str, str]], area: Rect
) -> HelpLayout:
    """The F1 panel centred in ``area``, at most 760 px (scaled) wide; long descriptions
    wrap, and when the rows are too tall for the area the font shrinks. A key the scene's
    rows explain (what O shows here) is not listed again among the global ones."""
    explained = {key for key, _ in scene_controls}
    rows = [*scene_controls, ("", ""), *(row for row in GLOBAL_CONTROLS if row[0] not in explained)]
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


def help_areas(
    size: tuple[int, int], keep_clear: Sequence[Rect], area: Rect | None = None
) -> list[Rect]:
    """Where the F1 panel may go: the largest rectangles of ``area`` (default: the window)
    that cover none of the ``keep_clear`` boxes (the other HUD panels: the F3 profiler,
    drawn over the help, hid its lines; the help hid the status box and the editor's
    palette). The help centres itself in one of them, a margin in from its edges."""
    width, height = float(size[0]), float(size[1])
    areas = free_areas(area or (0.0, 0.0, width, height), keep_clear)
    # a band narrower than half the designed panel, or lower than a quarter of it, cannot
    # hold the help legibly (and is not worth wrapping it for)
    scale = ui_scale(size)
    return [band for band in areas if band[2] >= 380.0 * scale and band[3] >= 100.0 * scale]


HELP_GRID = 16  # the band over the hero the help keeps clear of moves in 1/16ths of the view


def subject_band(box: Rect, area: Rect, kept: Rect | None = None) -> Rect:
    """The band of ``area``, top to bottom, that the F1 help keeps clear of so as not to
    hide the subject (the walker, his box ``box`` on screen, whom the help must not hide).

    Its sides lie on a grid of 1/:data:`HELP_GRID` of the area's width, and the band
    ``kept`` (the last one) stays while the box is inside it and it is at most a cell
    wider on either side: the help moves only when he leaves it, not at every step."""
    cell = area[2] / HELP_GRID
    left = area[0] + math.floor((box[0] - area[0]) / cell) * cell
    right = area[0] + math.ceil((box[0] + box[2] - area[0]) / cell) * cell
    if kept is not None:
        inside = kept[0] <= box[0] and box[0] + box[2] <= kept[0] + kept[2]
        snug = kept[0] >= left - cell and kept[0] + kept[2] <= right + cell
        if inside and snug and kept[1] == area[1] and kept[3] == area[3]:
            return kept
    return (left, area[1], right - left, area[3])


def place_help(
    canvas: Canvas,
    title: str,
    scene_controls: Sequence[tuple[str, str]],
    keep_clear: Sequence[Rect] = (),
    area: Rect | None = None,
    rather_clear: Sequence[Rect] = (),
    subject: Sequence[Rect] = (),
) -> HelpLayout:
    """Where :func:`draw_help` puts the F1 panel: clear of the ``keep_clear`` boxes (the
    other HUD panels, the F3 panel's among them), in the free part of ``area`` (default:
    the window; the app's is the scene's view left of its side panel) where the text is
    largest (then where the panel is widest).

    It keeps clear of the ``rather_clear`` boxes too (the overlay's colour key) unless it
    fits nowhere else: at the smallest windows with the ground editor and the F3 panel
    open there is no room left for it (960x540: 291 px high at most, it needs 346).

    Before that it keeps clear of the ``subject`` boxes (the band over the walker,
    :func:`subject_band`), covering the colour key rather than him; only where it fits
    nowhere clear of him either (960x540 with the F3 panel and a message up) does it hide
    him."""

    key = (
        canvas.size,
        title,
        tuple(scene_controls),
        tuple(keep_clear),
        area,
        tuple(rather_clear),
        tuple(subject),
    )
    kept = _PLACED.get(canvas)
    if kept is not None and kept[0] == key:
        return kept[1]  # the same HUD as last frame (laying it out again costs ~2 ms)

    def layouts(boxes: Sequence[Rect]) -> list[HelpLayout]:
        return [
            help_layout(canvas, title, scene_controls, free)
            for free in help_areas(canvas.size, boxes, area)
        ]

    candidates: list[HelpLayout] = []
    tried: list[list[Rect]] = []
    for boxes in (
        [*keep_clear, *subject, *rather_clear],
        [*keep_clear, *subject],
        [*keep_clear, *rather_clear],
        list(keep_clear),
    ):
        if boxes not in tried:  # the same list again when there is no subject or no key
            tried.append(boxes)
            candidates += layouts(boxes)
            if any(c.fits for c in candidates):
                break
    if not candidates:
        candidates = [help_layout(canvas, title, scene_controls, area or (0.0, 0.0, *canvas.size))]
    chosen = max(candidates, key=lambda c: (c.fits, c.shrink, c.box[2]))
    covered = [box for box in rather_clear if intersects(chosen.box, box)]
    if covered:
        # over all of the key and opaque, not with its lines showing round the edges and
        # through the panel
        boxes = [chosen.box, *covered]
        left, top = min(b[0] for b in boxes), min(b[1] for b in boxes)
        right, bottom = max(b[0] + b[2] for b in boxes), max(b[1] + b[3] for b in boxes)
        grown = (left, top, right - left, bottom - top)
        clear = not any(intersects(grown, box) for box in keep_clear)
        chosen = dataclasses.replace(chosen, cover=grown if clear else chosen.box)
    _PLACED[canvas] = (key, chosen)
    return chosen


# per canvas, the arguments of the last help placed and where it went
_PLACED: weakref.WeakKeyDictionary[Any, tuple[tuple[Any, ...], HelpLayout]] = (
    weakref.WeakKeyDictionary()
)


def draw_help(canvas: Canvas, title: str, chosen: HelpLayout) -> None:
    """The F1 panel headed ``title`` as :func:`place_help` laid it out (the scene's own
    controls, then the global ones, sized to fit and clear of the other HUD boxes)."""
    left, top, _, _ = chosen.box
    scale = ui_scale(canvas.size)
    margin = 20.0 * scale
    backdrop = chosen.cover or chosen.box
    canvas.panel(backdrop, PALETTE["panel"], 255 if chosen.cover else 235)
    canvas.rect(backdrop, PALETTE["panel_edge"], 1, 8)
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


def message_box(
    canvas: Canvas, message: str, area: Rect, avoid: Sequence[Rect] = ()
) -> tuple[Rect, list[str], int]:
    """Where a message banner goes: a bottom corner of ``area`` (the scene's view), the
    right one unless it would cover a box of ``avoid`` (the HUD panels drawn this frame: a
    walker's status box sits in the corner behind him), then the left one, else above the
    boxes in the right one; wrapped to at most 40 % of the view's width."""
    scale = ui_scale(canvas.size)
    size = font_px(17, scale)
    pad, margin = 10.0 * scale, 12.0 * scale
    lines = wrap(canvas, message, area[2] * 0.4 - 2 * pad, size)
    line_h = canvas.text_size("Ag", size)[1] + 2 * scale
    w = max(canvas.text_size(line, size)[0] for line in lines) + 2 * pad if lines else 0.0
    h = line_h * len(lines) + 2 * pad
    bottom = area[1] + area[3] - margin
    right = (area[0] + area[2] - margin - w, bottom - h, w, h)
    left = (area[0] + margin, bottom - h, w, h)
    for box in (right, left):
        if not any(intersects(box, other) for other in avoid):
            return box, lines, size
    top = min(other[1] for other in avoid if intersects(right, other))
    return (right[0], top - margin - h, w, h), lines, size


def draw_message(
    canvas: Canvas, message: str, color_name: str, area: Rect, avoid: Sequence[Rect] = ()
) -> None:
    """A banner for notices and asset errors in a bottom corner of ``area`` clear of the
    boxes ``avoid`` (:func:`message_box`)."""
    box, lines, size = message_box(canvas, message, area, avoid)
    pad = 10.0 * ui_scale(canvas.size)
    canvas.panel(box, PALETTE["panel"], 235)
    canvas.rect(box, PALETTE[color_name], 1, 6)
    line_h = (box[3] - 2 * pad) / max(len(lines), 1)
    for i, line in enumerate(lines):
        canvas.text((box[0] + pad, box[1] + pad + i * line_h), line, PALETTE[color_name], size)
