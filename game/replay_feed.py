"""A replay as the app plays it: the recording read and checked before any window opens,
then its items handed out step by step, with the recorded reloads and read checks applied
where they happened (no pygame)."""

from __future__ import annotations

import signal
import sys
from collections import deque
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path
from typing import Any

from game.assets import AssetError, file_digest, load_snapshot
from game.input_state import InputState
from game.options import RunOptions
from game.outputs import EXIT_SIGNAL_BASE
from game.recording import assets_mismatch, read_recording
from game.recording_lines import AssetReload, Item, ReadCheck, SceneStart
from game.scene import ASSETS_DIR, ReloadableAssets

EXIT_BAD_REPLAY = 2  # a recording that cannot be replayed is a bad argument


class ReplayRefused(Exception):
    """The recording cannot be replayed: ``message`` says why, ``code`` is the exit code."""

    def __init__(self, message: str, code: int = EXIT_BAD_REPLAY) -> None:
        super().__init__(message)
        self.message, self.code = message, code


def open_replay(options: RunOptions) -> tuple[RunOptions, list[Item]]:
    """Read ``options.replay``; return the options its first header sets (scene, seed, hz,
    crowd size) and the items after that header.

    Raises
    ------
    ReplayRefused
        When the file is malformed, was recorded with other asset files than the run reads,
        or reading it was interrupted (Ctrl-C).
    """
    assert options.replay is not None
    try:
        items = read_recording(options.replay)
    except (OSError, ValueError) as exc:
        raise ReplayRefused(f"error: --replay: {exc}") from None
    except KeyboardInterrupt:  # a long recording takes a while to check
        raise ReplayRefused(
            f"interrupted (SIGINT) while reading {options.replay}", EXIT_SIGNAL_BASE + signal.SIGINT
        ) from None
    head = items.pop(0)
    assert isinstance(head, SceneStart)  # read_recording guarantees a leading header
    mismatch = assets_mismatch(options.replay, head, options.assets or ASSETS_DIR)
    if mismatch:
        raise ReplayRefused(f"error: --replay: {mismatch}")
    if head.assets is None:
        print(
            f"warning: --replay: {options.replay} does not record its assets (format 1); "
            "with other asset files than when recorded the replay diverges",
            file=sys.stderr,
        )
    played = replace(
        options, scene=head.scene, seed=head.seed, hz=head.hz, characters=head.characters
    )
    return played, items


class ReplayFeed:
    """The items of a replay still to play (none without one), and how the replay stands.

    ``steps`` is the number of input steps it held when it started, ``error`` why it
    stopped early (the run exits 2), ``finished`` that a windowed replay played to its end
    and waits (paused) for Esc.
    """

    def __init__(self, path: Path | None, items: Iterable[Item] = ()) -> None:
        self.path = path
        self.items: deque[Item] = deque(items)  # popped from the left, step by step
        self.steps = self.steps_left()
        self.error: str | None = None
        self.finished = False

    def steps_left(self) -> int:
        """Input steps not played yet."""
        return sum(isinstance(item, InputState) for item in self.items)

    def reload(self, reload: AssetReload, sim: Any, scene: str, folder: Path) -> str | None:
        """A recorded F5: load the files it read into ``sim``; returns the HUD's note, or
        None when the scene cannot (``error`` then says why)."""
        where = f"{self.path}: line {reload.line}"
        if not isinstance(sim, ReloadableAssets):
            self.error = f"{where}: a reload in the {scene!r} scene, which reads no asset files"
            return None
        try:
            load_snapshot(reload.snapshot, folder, sim.reload_assets)
        except AssetError as exc:
            self.error = f"{where}: the recorded reload is not a valid asset: {exc}"
            return None
        return f"assets reloaded as recorded ({where})"

    def check_reads(self, check: ReadCheck, folder: Path, step: int) -> None:
        """Step ``step`` reads asset files itself (Ctrl+O): they must be what the recorded
        session read, or ``error`` names the line and the step."""
        for name, recorded in check.files.items():
            if file_digest(folder / name) != recorded:
                self.error = (
                    f"{self.path}: line {check.line}: step {step} reads "
                    f"{folder / name} (a Ctrl+O reload), which differs from the file the "
                    f"recorded session read (sha256 {recorded[:12]}…); replay with that file"
                )
                return
