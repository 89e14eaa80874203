"""The crowd's away part (:data:`~game.scenes.crowd_walkers.AWAY`) stepped in a worker
process, a step ahead of the app.

The app's process asks for step k with the events of that step (:data:`Event`: a new crowd
size, new ground, new assets), steps its own part and then reads the answer. The worker
has usually taken step k already: it steps on as soon as it has answered step k − 1, so its
stepping overlaps the app's own step and drawing. A step asked for with events is taken
again from a copy kept from before it, after the events: every character steps exactly as
it would in one process.

The worker is a fork of the app's process (it starts in milliseconds, with the simulation
already imported; it touches nothing of the window it inherits, and leaves without running
the app's exit handlers). It ignores Ctrl+C (the app ends it), and ends when asked, when
its :class:`AwayWorker` is collected, or when the app's end of the pipe closes (the app
exited, however it ended). A worker that ends unasked raises :class:`WorkerLost` in the
app, whose crowd then goes on in one process.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import sys
import time
import traceback
import warnings
import weakref
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from pathlib import Path

import numpy as np

from game.ik_counters import IkCounters
from game.scenes.crowd_walkers import AWAY, Event, Shown, Walkers
from game.world.rig import Rig
from game.world.terrain import Terrain

CGROUP = Path("/sys/fs/cgroup")  # where Linux says how much CPU this process's group may use
CLOSE_WAIT_S = 2.0  # how long a worker asked to end may take before it is killed
_POLL_S = 0.05  # while closing, how often to look for an answer left unread


class WorkerLost(RuntimeError):
    """The worker process ended without being asked to (killed, out of memory)."""


@dataclass(frozen=True, slots=True)
class AwayFrame:
    """The away part after step ``index``: its rows as drawn then (``now``) and at the step
    before (``before``, sent only when the rows changed in the step: reordered, resized or
    laid out afresh; otherwise it is the last frame's ``now``), and its totals: footsteps,
    knee flips and every limb solved."""

    index: int
    now: Shown
    before: Shown | None
    steps_taken: int
    knee_flips: int
    solves: IkCounters


def _frame(walkers: Walkers, index: int, changed: bool) -> AwayFrame:
    """``walkers`` as the app reads them after step ``index`` (``changed``: their rows
    changed in it, so the frame carries their rows before it too)."""
    before, now = walkers.shown()
    crowd = walkers.crowd
    return AwayFrame(
        index,
        now,
        before if changed else None,
        int(crowd.feet.steps.sum()),
        int(crowd.knee_flips.sum()),
        walkers.solves,
    )


def _take(walkers: Walkers, index: int, dt: float, events: tuple[Event, ...]) -> AwayFrame:
    """Step ``index`` of ``walkers`` after ``events``, as the app reads it."""
    ids = walkers.ids
    for event in events:
        event.apply(walkers)
    walkers.step(index, dt)
    return _frame(walkers, index, bool(events) or not np.array_equal(ids, walkers.ids))


def serve(
    conn: Connection,
    app_end: Connection,
    rig: Rig,
    terrain: Terrain,
    seed: int,
    count: int,
    index: int,
    dt: float,
) -> None:
    """The worker's loop: the away part of a crowd of ``count`` standing at its seeded
    spots (sent as they stand, the answer to step ``index − 1``), stepped from step
    ``index`` on, one step ahead of what ``conn`` asks for.
    ``app_end``, the app's end of the pipe, which the fork inherited, is closed first (the
    pipe then closes when the app exits), and the app's signal handlers are dropped (a
    signal ends the worker; Ctrl+C, sent to the whole terminal's group, is the app's to
    handle). Answers ``("frame", AwayFrame)`` or ``("error", traceback)``; ``None`` asks
    it to end."""
    app_end.close()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for name in ("SIGTERM", "SIGHUP"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), signal.SIG_DFL)
    try:
        walkers = Walkers(rig, terrain, seed, count, AWAY)
        conn.send(("frame", _frame(walkers, index - 1, changed=True)))
        while True:
            before = walkers.copy()
            ahead = _take(walkers, index, dt, ())
            message = conn.recv()
            if message is None:
                return
            asked, events = message
            if asked != index:
                raise RuntimeError(f"asked for step {asked}, the next step is {index}")
            if events:
                walkers = before
                ahead = _take(walkers, index, dt, events)
            conn.send(("frame", ahead))
            index += 1
    except (EOFError, OSError):  # the app's end closed: it has exited
        return
    except Exception:  # noqa: BLE001 - every failure goes back to the app, which raises it
        with contextlib.suppress(OSError):
            conn.send(("error", traceback.format_exc()))


def _failure(worker_traceback: str) -> RuntimeError:
    """The error the app raises for a failure in the worker, with the worker's traceback."""
    return RuntimeError(f"the crowd's worker process failed:\n{worker_traceback}")


def cores(cgroup: Path = CGROUP) -> int:
    """The CPU cores this process may use: those it may run on, or fewer where its
    cgroup's CPU quota (a container's ``--cpus``) allows fewer whole ones (cgroup v2's
    ``cpu.max``, v1's ``cpu/cpu.cfs_quota_us`` over ``cfs_period_us``)."""
    count = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    count = count or 1
    for quota_file, period_file in (
        (cgroup / "cpu.max", None),
        (cgroup / "cpu" / "cpu.cfs_quota_us", cgroup / "cpu" / "cpu.cfs_period_us"),
    ):
        try:
            words = quota_file.read_text().split()
            if period_file is not None:
                words.append(period_file.read_text().strip())
            quota, period = words[0], int(words[1])
            if quota not in ("max", "-1") and period > 0:
                count = min(count, max(int(quota) // period, 1))
        except (OSError, ValueError, IndexError):
            continue
    return count


def can_fork() -> bool:
    """Whether a worker can be started here: by forking, on Linux (macOS forbids forking
    once its window system has started)."""
    return sys.platform.startswith("linux") and "fork" in multiprocessing.get_all_start_methods()


def _stop(process: BaseProcess, conn: Connection) -> None:
    """Ask the worker to end and wait for it (reading any answer left unread, which it may
    be busy sending); kill it if it does not end in time."""
    with contextlib.suppress(OSError):
        conn.send(None)
    deadline = time.monotonic() + CLOSE_WAIT_S
    while process.is_alive() and time.monotonic() < deadline:
        try:
            if conn.poll(_POLL_S):
                conn.recv()
        except (EOFError, OSError):
            break
    process.join(max(deadline - time.monotonic(), 0.0))
    if process.is_alive():
        process.kill()
        process.join()
    conn.close()


class AwayWorker:
    """The away part of a crowd of ``count`` characters (standing at their seeded spots on
    ``terrain``, read before this returns), stepped in a worker process from step
    ``index`` on. After :meth:`close` its last answer stays readable."""

    def __init__(
        self, rig: Rig, terrain: Terrain, seed: int, count: int, index: int, dt: float
    ) -> None:
        context = multiprocessing.get_context("fork")
        self._conn, theirs = context.Pipe()
        process = context.Process(
            target=serve,
            args=(theirs, self._conn, rig, terrain, seed, count, index, dt),
            name="crowd-away",
            daemon=True,
        )
        with warnings.catch_warnings():
            # (Python 3.12+ warns of forking a process that runs threads, which may hold a
            # lock the child then waits for: the worker uses none of the app's, only its
            # pipe and numpy)
            warnings.filterwarnings(
                "ignore", "This process .* is multi-threaded", DeprecationWarning
            )
            process.start()
        theirs.close()
        self.pid = process.pid
        self._stop = weakref.finalize(self, _stop, process, self._conn)
        self.last: AwayFrame | None = None  # the last step's answer
        self.shown_before: Shown | None = None  # the rows as drawn at the step before it
        self.answer(index - 1)  # (the rows as they stand)

    def ask(self, index: int, events: tuple[Event, ...]) -> None:
        """Ask for step ``index``, after ``events``."""
        if not self._stop.alive:
            raise RuntimeError("the crowd's worker process was closed")
        try:
            self._conn.send((index, events))
        except OSError as exc:
            self._raise_its_failure()
            raise WorkerLost(f"the crowd's worker process ended: {exc}") from exc

    def _raise_its_failure(self) -> None:
        """Raise the failure the worker sent before it ended, if one waits unread (a step it
        took ahead failed, and it ended before it was asked for that step)."""
        try:
            waiting = self._conn.recv() if self._conn.poll() else None
        except (EOFError, OSError):
            return
        if waiting is not None and waiting[0] == "error":
            raise _failure(waiting[1])

    def answer(self, index: int) -> None:
        """Read the answer to :meth:`ask` for step ``index`` (waits for it) into
        :attr:`last` and :attr:`shown_before`."""
        try:
            kind, body = self._conn.recv()
        except (EOFError, OSError):
            raise WorkerLost("the crowd's worker process ended without answering") from None
        if kind == "error":
            raise _failure(body)
        if body.index != index:
            raise RuntimeError(f"the crowd's worker answered step {body.index} for {index}")
        if self.last is not None:
            self.shown_before = self.last.now
        self.last = body
        if body.before is not None:
            self.shown_before = body.before

    def close(self) -> None:
        """End the worker (waits for it)."""
        self._stop()
