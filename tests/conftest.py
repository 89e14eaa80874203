"""Test-wide setup: pygame must never try to open a real display or audio device."""

from __future__ import annotations

import os

# Set before any test module imports pygame (SDL reads these at init time).
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


def _run_main(
    args: Sequence[str], timeout: float = 180.0, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    env.pop("DISPLAY", None)
    env.pop("WAYLAND_DISPLAY", None)
    return subprocess.run(
        [sys.executable, str(REPO / "main.py"), *args],
        cwd=cwd or REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


@pytest.fixture
def run_main() -> Callable[..., subprocess.CompletedProcess[str]]:
    """Run ``python main.py ARGS`` headless in a subprocess; returns the completed process."""
    return _run_main
