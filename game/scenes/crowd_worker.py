"""The crowd's away part (:data:`~game.scenes.crowd_walkers.AWAY`) stepped in a worker
process, a step ahead of the app.

The app's process asks for step k with the events of that step (:data:`Event`: a new crowd
size, new ground, new assets), steps its own part and then reads the answer. The worker
has usually taken step k already: it steps on as soon as it has answered step k − 1, so its
stepping overlaps the app's own step and drawing. A step asked for with events is taken
again from a copy kept from before it, after the events: every character steps exactly as
it would in one process. The simulation is numpy only; the worker never imports pygame.

The worker is a fork of the app's process (it starts in milliseconds, with the simulation
already imported; it touches nothing of the window it inherits, and leaves without running
the app's exit handlers). It ignores Ctrl+C (the app ends it), and ends when asked, when
its :class:`AwayWorker` is collected, or when the app's end of the pipe closes (the app
exited, however it ended).
"""

from __future__ import annotations

import multiprocessing
import signal
import time
import traceback
import weakref
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any

import numpy as np

from game.ik_counters import IkCounters
from game.scenes.crowd_walkers import AWAY, Event, Shown, Walkers
from game.world.rig import Rig
from game.world.terrain import Terrain

CLOSE_WAIT_S = 2.0  # how long a worker asked to end may take before it is killed


@dataclass(frozen=True, slots=True)
class AwayFrame:
    """The away part after a step: its rows as drawn (``before``: as at the step before,
    given when the rows changed in the step, reordered, resized or laid out afresh, and
    otherwise the last frame's ``now``), its footstep and knee flip totals, its solves so
    far, and the worker's CPU time so far (seconds)."""

    now: Shown
    before: Shown | None
    steps_taken: int
    knee_flips: int
    solves: IkCounters
    cpu_seconds: float


def _take(
    walkers: Walkers, index: int, dt: float, events: tuple[Event, ...], fresh: bool
) -> AwayFrame:
    """Step ``index`` of ``walkers`` after ``events``, as the app reads it."""
    ids = walkers.ids
    for event in events:
        event.apply(walkers)
    walkers.step(index, dt)
    before, now = walkers.shown()
    changed = fresh or bool(events) or not np.array_equal(ids, walkers.ids)
    crowd = walkers.crowd
    return AwayFrame(
        now,
        before if changed else None,
        int(crowd.feet.steps.sum()),
        int(crowd.knee_flips.sum()),
        walkers.solves,
        time.process_time(),
    )


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
    spots, stepped from step ``index`` on, one step ahead of what ``conn`` asks for
    (``app_end``, the app's end of the pipe, which the fork inherited, is closed first: the
    pipe then closes when the app exits). Answers ``("frame", AwayFrame)`` or ``("error",
    traceback)``; ``None`` asks it to end."""
    app_end.close()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        walkers = Walkers(rig, terrain, seed, count, AWAY)
        fresh = True  # the app has not seen these rows yet
        while True:
            before = walkers.copy()
            ahead = _take(walkers, index, dt, (), fresh)
            message = conn.recv()
            if message is None:
                return
            asked, events = message
            if asked != index:
                raise RuntimeError(f"asked for step {asked}, the next step is {index}")
            if events:
                walkers = before
                ahead = _take(walkers, index, dt, events, fresh)
            conn.send(("frame", ahead))
            index, fresh = index + 1, False
    except EOFError:  # the app's end closed: it has exited
        return
    except Exception:  # noqa: BLE001 - every failure goes back to the app, which raises it
        conn.send(("error", traceback.format_exc()))


def can_fork() -> bool:
    """Whether this platform starts a worker by forking (Linux, macOS)."""
    return "fork" in multiprocessing.get_all_start_methods()


def _stop(process: Any, conn: Connection) -> None:
    """Ask the worker to end, and kill it if it does not."""
    try:
        conn.send(None)
    except (BrokenPipeError, OSError):
        pass
    process.join(CLOSE_WAIT_S)
    if process.is_alive():
        process.kill()
        process.join()
    conn.close()


class AwayWorker:
    """The away part of a crowd of ``count`` characters (standing at their seeded spots on
    ``terrain``), stepped in a worker process from step ``index`` on."""

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
        process.start()
        theirs.close()
        self.pid = process.pid
        self._stop = weakref.finalize(self, _stop, process, self._conn)
        self.last: AwayFrame | None = None  # the last step's answer
        self.shown_before: Shown | None = None  # the rows as drawn at the step before it

    def ask(self, index: int, events: tuple[Event, ...]) -> None:
        """Ask for step ``index``, after ``events``."""
        self._conn.send((index, events))

    def answer(self) -> AwayFrame:
        """The answer to the last :meth:`ask` (waits for it)."""
        try:
            kind, body = self._conn.recv()
        except EOFError:
            raise RuntimeError("the crowd's worker process ended without answering") from None
        if kind == "error":
            raise RuntimeError(f"the crowd's worker process failed:\n{body}")
        if self.last is not None:
            self.shown_before = self.last.now
        self.last = body
        if body.before is not None:
            self.shown_before = body.before
        return body

    def close(self) -> None:
        """End the worker (waits for it)."""
        self._stop()
