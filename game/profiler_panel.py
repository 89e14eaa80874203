"""The F3 profiler panel: a stacked per-phase frame-time graph of the last frames.

Drawn through the Canvas (no pygame); the app charges its cost to the ``profiler`` phase.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from game.canvas import Canvas
from game.layout import Rect, characters_text, font_px, intersects, ui_scale
from game.palette import PALETTE, Color

GRAPH_FRAMES = 240
BUDGET_MS = 1000.0 / 60.0
STACKED_PHASES: tuple[tuple[str, Color], ...] = (
    ("input", (120, 130, 150)),
    ("sim", (90, 170, 255)),
    ("ik", (255, 196, 70)),
    ("render", (110, 220, 140)),
    ("overlay", (190, 120, 255)),
    ("profiler", (255, 110, 110)),
)
PANEL_SIZE = (520.0, 200.0)  # at 1280x720; scaled with the window, at most half the view wide
# (200 px tall: a 300 px panel would hide the walking hero's head and chest)


def profiler_rect(size: tuple[int, int], area: Rect, avoid: Sequence[Rect] = ()) -> Rect:
    """Where the panel goes in a ``size`` window: the top-right corner of ``area`` (the
    scene's view), below the tab strip and one row of corner labels, all scaled with the
    window (a fixed minimum top would put the panel's bottom lower in the view of a small
    window than of a large one, over the walker's head).

    ``avoid`` are boxes of the scene's own HUD in that corner (the ground editor's
    palette): the panel moves left of them at the same height, so the walker's camera
    keeps his head under it as it always does, or, where that leaves the area, below them.
    """
    scale = ui_scale(size)
    pad = 12.0 * scale
    panel_w = min(PANEL_SIZE[0] * scale, area[2] * 0.5)
    panel_h = min(PANEL_SIZE[1] * scale, area[3] * 0.5)
    rect = (area[0] + area[2] - panel_w - pad, area[1] + 72.0 * scale, panel_w, panel_h)
    for box in sorted(avoid, key=lambda b: -b[0]):  # right to left
        if not intersects(rect, box):
            continue
        left = box[0] - pad - panel_w
        if left >= area[0] + pad:
            rect = (left, rect[1], panel_w, panel_h)
        else:
            rect = (rect[0], box[1] + box[3] + pad, panel_w, panel_h)
    return rect


def draw_profiler(
    canvas: Canvas,
    history: Sequence[dict[str, float]],
    solves_per_frame: float,
    characters: int,
    fps: float | None,
    rect: Rect,
) -> None:
    """Draw the panel in ``rect`` (:func:`profiler_rect`) from the per-frame phase records
    (seconds); ``fps`` is None while paused."""
    scale = ui_scale(canvas.size)
    pad = 12.0 * scale
    left, top, panel_w, panel_h = rect
    canvas.panel((left, top, panel_w, panel_h), PALETTE["panel"], 225)
    canvas.rect((left, top, panel_w, panel_h), PALETTE["panel_edge"], 1, 6)
    title_px, small_px = font_px(20, scale), font_px(15, scale)
    _, title_h = canvas.text(
        (left + pad, top + pad * 0.8), "profiler (F3)", PALETTE["text"], title_px, bold=True
    )
    rate = "paused" if fps is None else f"{fps:5.1f} fps"
    summary = f"{rate} · {characters_text(characters)} · {solves_per_frame:.0f} IK solves/frame"
    row = top + pad * 0.8 + title_h + 4 * scale
    canvas.text((left + pad, row), summary, PALETTE["text_dim"], small_px)
    row += canvas.text_size(summary, small_px)[1] + 6 * scale
    recent = history[-GRAPH_FRAMES:]
    if not recent:
        return
    ms = np.array([[f.get(name, 0.0) for name, _ in STACKED_PHASES] for f in recent]) * 1e3
    table_w = _table_width(canvas, small_px, scale)
    graph = (left + pad, row, panel_w - 3 * pad - table_w, top + panel_h - pad - row)
    _draw_stacked_graph(canvas, ms, graph, small_px)
    frame_ms = np.array([f["frame"] for f in recent]) * 1e3
    _draw_table(canvas, ms, frame_ms, (graph[0] + graph[2] + pad, row), small_px, scale)


def _table_width(canvas: Canvas, size: int, scale: float) -> float:
    """Swatch, the longest phase name, and two number columns wide enough for 888.88."""
    names = [name for name, _ in STACKED_PHASES] + ["frame"]
    name_w = max(canvas.text_size(name, size)[0] for name in names)
    number_w = canvas.text_size("888.88", size)[0] + 8 * scale
    return 14 * scale + name_w + 2 * number_w


def _draw_stacked_graph(canvas: Canvas, ms: np.ndarray, box: tuple[float, ...], size: int) -> None:
    gx, gy, gw, gh = box
    canvas.rect((gx, gy, gw, gh), PALETTE["background"])
    scale_ms = max(2.0 * BUDGET_MS, float(ms.sum(axis=1).max()) * 1.1)
    frames = ms.shape[0]
    xs = gx + gw - (frames - 1 - np.arange(frames)) * (gw / (GRAPH_FRAMES - 1))
    bottom = np.zeros(frames)
    for column, (_, color) in enumerate(STACKED_PHASES):
        top = bottom + ms[:, column]
        # one filled polygon per phase: the band between the stacked totals below and above
        upper = np.stack([xs, gy + gh - top / scale_ms * gh], axis=-1)
        lower = np.stack([xs[::-1], (gy + gh - bottom / scale_ms * gh)[::-1]], axis=-1)
        if frames >= 2:
            canvas.polygon(np.concatenate([upper, lower]), color)
        bottom = top
    budget_y = gy + gh - BUDGET_MS / scale_ms * gh
    canvas.line((gx, budget_y), (gx + gw, budget_y), PALETTE["bad"], 1)
    canvas.text((gx + 4, budget_y - 2), "16.7 ms", PALETTE["bad"], size, "bottomleft")
    canvas.text((gx + 4, gy + 2), f"{scale_ms:.1f} ms", PALETTE["text_dim"], size)


def _draw_table(
    canvas: Canvas,
    ms: np.ndarray,
    frame_ms: np.ndarray,
    at: tuple[float, float],
    size: int,
    scale: float,
) -> None:
    """p50 and p99 per phase, columns measured so names and numbers never touch."""
    x, y = at
    names = [name for name, _ in STACKED_PHASES] + ["frame"]
    name_x = x + 14 * scale
    number_w = canvas.text_size("888.88", size)[0] + 8 * scale
    p50_right = name_x + max(canvas.text_size(name, size)[0] for name in names) + number_w
    p99_right = p50_right + number_w
    canvas.text((p50_right, y), "p50", PALETTE["text_dim"], size, "topright")
    canvas.text((p99_right, y), "p99", PALETTE["text_dim"], size, "topright")
    row_h = canvas.text_size("Ag", size)[1] + 4 * scale
    y += row_h
    rows = [(name, color, ms[:, i]) for i, (name, color) in enumerate(STACKED_PHASES)]
    rows.append(("frame", PALETTE["text"], frame_ms))
    for name, color, values in rows:
        p50, p99 = np.percentile(values, [50, 99])
        canvas.rect((x, y + row_h / 2 - 5 * scale, 9 * scale, 9 * scale), color)
        canvas.text((name_x, y), name, PALETTE["text"], size)
        canvas.text((p50_right, y), f"{p50:.2f}", PALETTE["text"], size, "topright")
        canvas.text((p99_right, y), f"{p99:.2f}", PALETTE["text"], size, "topright")
        y += row_h
    canvas.text((p99_right, y), "ms", PALETTE["text_dim"], size, "topright")
