"""The F3 profiler panel: a stacked per-phase frame-time graph of the last frames.

Drawn through the Canvas (no pygame); the app charges its cost to the ``profiler`` phase.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from game.canvas import Canvas
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
PANEL_SIZE = (520.0, 300.0)


def draw_profiler(
    canvas: Canvas,
    history: Sequence[dict[str, float]],
    solves_per_frame: float,
    characters: int,
    fps: float,
) -> None:
    """Draw the panel in the top-right corner from the per-frame phase records (seconds)."""
    width, _ = canvas.size
    panel_w, panel_h = PANEL_SIZE
    left, top = width - panel_w - 12.0, 44.0
    canvas.panel((left, top, panel_w, panel_h), PALETTE["panel"], 225)
    canvas.rect((left, top, panel_w, panel_h), PALETTE["panel_edge"], 1, 6)
    recent = history[-GRAPH_FRAMES:]
    canvas.text((left + 12, top + 10), "profiler (F3)", PALETTE["text"], 20, bold=True)
    summary = f"{fps:5.1f} fps · {characters} characters · {solves_per_frame:.0f} IK solves/frame"
    canvas.text((left + panel_w - 12, top + 12), summary, PALETTE["text_dim"], 16, "topright")
    if not recent:
        return
    ms = np.array([[f.get(name, 0.0) for name, _ in STACKED_PHASES] for f in recent]) * 1e3
    graph = (left + 12, top + 36, panel_w - 24 - 150, panel_h - 48)
    _draw_stacked_graph(canvas, ms, graph)
    _draw_table(canvas, ms, np.array([f["frame"] for f in recent]) * 1e3, graph)


def _draw_stacked_graph(canvas: Canvas, ms: np.ndarray, box: tuple[float, ...]) -> None:
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
    canvas.text((gx + 4, budget_y - 2), "16.7 ms", PALETTE["bad"], 14, "bottomleft")
    canvas.text((gx + 4, gy + 2), f"{scale_ms:.1f} ms", PALETTE["text_dim"], 14)


def _draw_table(
    canvas: Canvas, ms: np.ndarray, frame_ms: np.ndarray, graph: tuple[float, ...]
) -> None:
    gx, gy, gw, _ = graph
    x = gx + gw + 14
    y = gy
    canvas.text((x + 60, y), "p50", PALETTE["text_dim"], 15, "topright")
    canvas.text((x + 120, y), "p99 ms", PALETTE["text_dim"], 15, "topright")
    y += 20
    rows = [(name, color, ms[:, i]) for i, (name, color) in enumerate(STACKED_PHASES)]
    rows.append(("frame", PALETTE["text"], frame_ms))
    for name, color, values in rows:
        p50, p99 = np.percentile(values, [50, 99])
        canvas.rect((x - 2, y + 4, 8, 8), color)
        canvas.text((x + 10, y), name[:6], PALETTE["text"], 15)
        canvas.text((x + 60, y), f"{p50:.2f}", PALETTE["text"], 15, "topright")
        canvas.text((x + 120, y), f"{p99:.2f}", PALETTE["text"], 15, "topright")
        y += 19
