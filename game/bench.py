"""Profiling front-ends: ``--bench`` (phase table), ``--bench-sweep`` (cost vs crowd size,
with a chart drawn by pygame) and ``--profile`` (cProfile's top functions)."""

from __future__ import annotations

import cProfile
import io
import json
import pstats
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from game.app import play
from game.options import RunOptions
from game.outputs import EXIT_OUTPUT, OutputError, write_output
from game.profiling import format_summary

BENCH_PHASES = ("input", "sim", "ik", "render", "overlay", "frame")
BENCH_DIR = Path("bench")


def run_bench(options: RunOptions) -> int:
    """Dispatch on the profiling flags; returns the exit code (:data:`EXIT_OUTPUT` with a
    one-line message when a result file cannot be written)."""
    try:
        if options.profile:
            return _profile(options)
        if options.bench_sweep:
            return _sweep(options)
        return _bench(options)
    except OutputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_OUTPUT


def _bench(options: RunOptions) -> int:
    stats_path = options.stats or BENCH_DIR / f"{options.scene}-stats.json"
    try:
        stats_path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:  # before the run, not after it
        raise OutputError.from_os("--bench stats", stats_path, exc) from None
    session = play(replace(options, stats=stats_path), quiet=True)
    if session.stats is None:
        return session.code
    stats = session.stats
    timing = stats["timing_ms"]
    characters = stats.get("characters", 1)
    print(f"bench: scene {options.scene!r}, {stats['frames']} frames, {characters} characters")
    print(format_summary({phase: timing[phase] for phase in BENCH_PHASES}))
    fps = 1000.0 / max(timing["frame"]["p50"], 1e-9)
    print(f"median frame {timing['frame']['p50']:.3f} ms = {fps:.0f} fps uncapped")
    print(f"stats written to {stats_path}")
    return session.code


def _progress(done: int, total: int, label: str) -> None:
    width = 30
    filled = round(width * done / total)
    sys.stdout.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} {label:<24}")
    sys.stdout.flush()
    if done == total:
        sys.stdout.write("\n")


def _sweep(options: RunOptions) -> int:
    sizes = options.bench_sweep
    frames = options.frames or 300
    rows: list[dict[str, Any]] = []
    for index, size in enumerate(sizes):
        _progress(index, len(sizes), f"crowd of {size}")
        session = play(replace(options, characters=size, frames=frames, stats=None), quiet=True)
        if session.stats is None:
            return session.code
        timing = session.stats["timing_ms"]
        rows.append({"characters": size, **{p: timing[p]["p50"] for p in BENCH_PHASES}})
    _progress(len(sizes), len(sizes), "done")
    n = np.array([r["characters"] for r in rows], dtype=float)
    slopes = {p: float(np.polyfit(n, [r[p] for r in rows], 1)[0]) * 1e3 for p in BENCH_PHASES}
    header = f"{'chars':>6}" + "".join(f"{p:>10}" for p in BENCH_PHASES)
    print("median ms per frame by phase")
    print(header)
    for r in rows:
        print(f"{r['characters']:>6}" + "".join(f"{r[p]:>10.3f}" for p in BENCH_PHASES))
    print(f"{'µs/chr':>6}" + "".join(f"{slopes[p]:>10.2f}" for p in BENCH_PHASES))
    chart = options.screenshot or BENCH_DIR / "sweep.png"
    _draw_chart(rows, chart)
    print(f"chart written to {chart}")
    result = {"frames": frames, "rows": rows, "us_per_character": slopes}
    out = options.stats or BENCH_DIR / "sweep.json"
    write_output("--bench-sweep", out, (json.dumps(result, indent=2) + "\n").encode("utf-8"))
    print(f"sweep written to {out}")
    return 0


def _draw_chart(rows: list[dict[str, Any]], path: Path) -> None:
    """Frame cost per phase against crowd size, drawn with pygame itself."""
    import pygame

    from game.palette import PALETTE
    from game.profiler_panel import BUDGET_MS, STACKED_PHASES
    from game.pygame_canvas import PygameCanvas

    pygame.display.init()
    pygame.font.init()
    surface = pygame.Surface((960, 540))
    canvas = PygameCanvas(surface)
    canvas.fill(PALETTE["background"])
    left, top, width, height = 80.0, 60.0, 700.0, 420.0
    n = np.array([r["characters"] for r in rows], dtype=float)
    y_max = max(BUDGET_MS * 1.2, max(r["frame"] for r in rows) * 1.1)
    canvas.text((left, 18), "frame cost vs crowd size (median ms)", PALETTE["text"], 26, bold=True)
    canvas.rect((left, top, width, height), PALETTE["panel"])

    def to_px(x: np.ndarray, y: np.ndarray) -> np.ndarray:
        return np.stack([left + x / n.max() * width, top + height - y / y_max * height], axis=-1)

    for tick in np.linspace(0, y_max, 6):
        y = top + height - tick / y_max * height
        canvas.line((left, y), (left + width, y), PALETTE["grid_major"], 1)
        canvas.text((left - 8, y), f"{tick:.1f}", PALETTE["text_dim"], 16, "midright")
    for count in n:
        canvas.text(
            (left + count / n.max() * width, top + height + 8),
            f"{count:.0f}",
            PALETTE["text_dim"],
            16,
            "midtop",
        )
    budget = top + height - BUDGET_MS / y_max * height
    canvas.line((left, budget), (left + width, budget), PALETTE["bad"], 2)
    canvas.text(
        (left + width - 4, budget - 4), "16.7 ms (60 fps)", PALETTE["bad"], 16, "bottomright"
    )
    colors = dict(STACKED_PHASES)
    colors["frame"] = PALETTE["text"]
    legend_y = top
    for phase in BENCH_PHASES:
        points = to_px(n, np.array([r[phase] for r in rows]))
        canvas.lines(points, colors[phase], 3 if phase == "frame" else 2)
        for p in points:
            canvas.circle(tuple(p), 4, colors[phase])
        canvas.rect((left + width + 24, legend_y + 6, 14, 14), colors[phase])
        canvas.text((left + width + 46, legend_y + 4), phase, PALETTE["text"], 18)
        legend_y += 26
    canvas.text(
        (left + width / 2, top + height + 34), "characters", PALETTE["text_dim"], 18, "midtop"
    )
    png = io.BytesIO()
    pygame.image.save(surface, png, "png")
    write_output("--bench-sweep chart", path, png.getvalue())


def _profile(options: RunOptions) -> int:
    profiler = cProfile.Profile()
    session = profiler.runcall(play, replace(options, profile=False), True)
    stats = pstats.Stats(profiler, stream=sys.stdout)
    stats.sort_stats("cumulative").print_stats(25)
    return session.code
