"""Test-wide setup: pygame must never try to open a real display or audio device."""

from __future__ import annotations

import os

# Set before any test module imports pygame (SDL reads these at init time).
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "disk")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
