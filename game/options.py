"""The validated run options (what the command line parsed) and their documented limits.

Kept apart from :mod:`game.cli` (which parses them and starts the app) so the app, the
benchmarks and the tests import the options without importing the command line.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

# The smallest window every scene is laid out for (panels, help, profiler all fit); --size
# rejects less and the window cannot be resized below it.
MIN_WINDOW_SIZE = (960, 540)
SCREENSHOT_FORMATS = {".png": "png", ".jpg": "jpeg", ".jpeg": "jpeg", ".bmp": "bmp"}
"""What ``--screenshot`` writes, by the path's suffix (any case): the format it names (PNG
for a path without a suffix; any other suffix is refused)."""
HZ_RANGE = (10, 1000)  # --hz and a recording's hz: simulation steps per second
MAX_CHARACTERS = 2000  # the crowd's documented maximum (~10x the default; ~2 KB and ~0.05 ms each)


@dataclass(frozen=True, slots=True)
class RunOptions:
    """Validated command-line options."""

    scene: str
    headless: bool = False
    frames: int | None = None
    autopilot: bool = False
    screenshot: Path | None = None
    stats: Path | None = None
    trace: Path | None = None
    seed: int = 0
    hz: int = 60
    record: Path | None = None
    replay: Path | None = None
    characters: int | None = None
    size: tuple[int, int] = (1280, 720)
    announce_summary: bool = False
    assets: Path | None = None
    show_profiler: bool = False
    bench: bool = False
    bench_sweep: tuple[int, ...] = ()
    profile: bool = False
    profile_trace: Path | None = None
