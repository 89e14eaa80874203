"""Run ``python main.py ARGS`` as a child process and measure it: exit code, wall time, peak
memory (the child's own max RSS from ``wait4``), stdout and stderr. Shared by the fuzz and
long-run scripts in this folder (Linux / macOS: needs ``os.wait4``)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
RSS_UNIT = 1 if sys.platform == "darwin" else 1024  # ru_maxrss: bytes on macOS, KiB on Linux


@dataclass(frozen=True, slots=True)
class RunResult:
    """What one child run did."""

    code: int  # exit code, or -N when killed by signal N
    seconds: float
    max_rss_bytes: int
    stdout: str
    stderr: str
    timed_out: bool


def run_measured(args: list[str], cwd: Path | None = None, timeout: float = 60.0) -> RunResult:
    """Run ``main.py`` headless (no display) with ``args``; kill it after ``timeout`` s."""
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    env.pop("DISPLAY", None)
    env.pop("WAYLAND_DISPLAY", None)
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        child = subprocess.Popen(
            [sys.executable, str(REPO / "main.py"), *args],
            cwd=cwd or REPO,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=err,
        )
        timed_out = False
        while True:
            pid, status, usage = os.wait4(child.pid, os.WNOHANG)
            if pid:
                break
            if time.perf_counter() - start > timeout:
                timed_out = True
                os.kill(child.pid, signal.SIGKILL)
                _, status, usage = os.wait4(child.pid, 0)
                break
            time.sleep(0.01)
        seconds = time.perf_counter() - start
        child.returncode = os.waitstatus_to_exitcode(status)  # reaped here, not by Popen
        out.seek(0)
        err.seek(0)
        return RunResult(
            child.returncode,
            seconds,
            usage.ru_maxrss * RSS_UNIT,
            out.read().decode("utf-8", "replace"),
            err.read().decode("utf-8", "replace"),
            timed_out,
        )
