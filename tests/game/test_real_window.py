"""The demo in a real X window (Xvfb, no dummy driver): every scene with the autopilot, the
window resized from outside mid-run, then Esc: a clean exit, the stats and a screenshot.

Skips, saying why, only where Xvfb (or xdotool, which resizes the window) cannot be had;
``.ci/run`` installs both and sets ``TWOBONE_REAL_WINDOW=required``, so on CI it runs.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from game import scenes

REPO = Path(__file__).resolve().parents[2]
START_SIZE, RESIZED = (960, 540), (1280, 720)
WINDOW_WAIT_S = 90.0  # seconds a window may take to appear, or to take its new size


def _missing_tools() -> str | None:
    missing = [tool for tool in ("Xvfb", "xdotool") if shutil.which(tool) is None]
    if not missing:
        return None
    return f"{' and '.join(missing)} not installed (apt-get install -y xvfb xdotool)"


@pytest.fixture(scope="module")
def x_display() -> Iterator[str]:
    """A private Xvfb server; its display name (``:N``, picked free by Xvfb itself)."""
    problem = _missing_tools()
    if problem is not None:
        if os.environ.get("TWOBONE_REAL_WINDOW") == "required":
            pytest.fail(f"the real-window test must run here, but {problem}")
        pytest.skip(problem)
    read, write = os.pipe()
    server = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write), "-screen", "0", "1920x1080x24", "-nolisten", "tcp"],
        pass_fds=(write,),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    os.close(write)
    with os.fdopen(read) as pipe:
        number = pipe.readline().strip()  # Xvfb writes the display number once it is ready
    if not number:
        server.kill()
        pytest.fail("Xvfb started but reported no display number")
    try:
        yield f":{number}"
    finally:
        server.terminate()
        server.wait(timeout=10)


def _window_of(pid: int, env: dict[str, str], deadline: float) -> str:
    while time.monotonic() < deadline:
        found = subprocess.run(
            ["xdotool", "search", "--sync", "--onlyvisible", "--pid", str(pid)],
            env=env,
            capture_output=True,
            text=True,
            timeout=30,
        ).stdout.split()
        if found:
            return found[0]
        time.sleep(0.1)
    raise AssertionError(f"no window of process {pid} appeared")


def _resize(windows: list[str], env: dict[str, str], deadline: float) -> None:
    """Resize every one of ``windows`` to RESIZED from outside, as a window manager would,
    until each size holds (a resize sent while SDL is still setting the window up can be
    undone); the windows are resized side by side, so that the apps wait no longer than
    the slowest of them."""
    held = dict.fromkeys(windows, 0)
    while min(held.values()) < 2:
        assert time.monotonic() < deadline, "a window never kept its new size"
        for window in (w for w, times in held.items() if times < 2):
            geometry = subprocess.run(
                ["xdotool", "getwindowgeometry", window], env=env, capture_output=True, text=True
            ).stdout
            if f"Geometry: {RESIZED[0]}x{RESIZED[1]}" in geometry:
                held[window] += 1
            else:
                held[window] = 0
                size = [str(v) for v in RESIZED]
                subprocess.run(["xdotool", "windowsize", window, *size], env=env, timeout=30)
        time.sleep(0.3)


def test_every_scene_plays_in_a_real_window_and_survives_a_resize(
    x_display: str, tmp_path: Path
) -> None:
    env = {**os.environ, "DISPLAY": x_display, "SDL_AUDIODRIVER": "dummy"}
    env.pop("SDL_VIDEODRIVER", None)  # the real X11 driver, not the dummy one
    env.pop("WAYLAND_DISPLAY", None)
    runs = {}
    for scene in scenes.available():
        args = [
            *("--scene", scene, "--autopilot"),
            *("--size", f"{START_SIZE[0]}x{START_SIZE[1]}"),
            *("--stats", str(tmp_path / f"{scene}.json")),
            *("--screenshot", str(tmp_path / f"{scene}.png")),
        ]
        runs[scene] = subprocess.Popen(
            [sys.executable, str(REPO / "main.py"), *args],
            cwd=REPO,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
    try:
        # liveness limits, not timings: generous, and each window gets its own to appear,
        # so windows starting at once on a busy machine do not share one budget
        windows = {
            scene: _window_of(proc.pid, env, time.monotonic() + WINDOW_WAIT_S)
            for scene, proc in runs.items()
        }
        _resize(list(windows.values()), env, time.monotonic() + WINDOW_WAIT_S)
        time.sleep(0.5)  # a few frames at the new size
        for window in windows.values():
            subprocess.run(["xdotool", "key", "--window", window, "Escape"], env=env, timeout=30)
        outputs = {scene: proc.communicate(timeout=60) for scene, proc in runs.items()}
    finally:
        for proc in runs.values():
            if proc.poll() is None:
                proc.kill()
    import pygame

    for scene, proc in runs.items():
        out, err = outputs[scene]
        assert proc.returncode == 0, f"{scene}: {out}\n{err}"
        stats = json.loads((tmp_path / f"{scene}.json").read_text())
        assert stats["scene"] == scene and stats["frames"] > 0 and stats["steps"] > 0
        assert stats["ik"]["nan"] == 0
        shot = pygame.image.load(str(tmp_path / f"{scene}.png"))
        assert shot.get_size() == RESIZED, f"{scene}: the resize did not reach the window"
        pixels = pygame.surfarray.array3d(shot)
        assert pixels.std() > 10.0, f"{scene}: the screenshot is blank"
