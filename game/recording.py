"""Record every fixed step's input to a file, and read it back for a bit-exact replay.

The file is JSON Lines: a header line ``{"record": 1, "scene": str, "seed": int, "hz": int}``
whenever a scene starts, then one :meth:`InputState.to_json` line per fixed step. It is
written to a temporary file beside the target and renamed into place on close, so a
recording is either complete or absent, never half-written.
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from game.input_state import InputState

FORMAT_VERSION = 1


class Recorder:
    """Writes a recording atomically (temporary file, then rename on :meth:`close`)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        fd, tmp = tempfile.mkstemp(
            dir=self.path.parent, prefix=f".{self.path.name}.", suffix=".tmp"
        )
        self._tmp = Path(tmp)
        self._file: IO[str] | None = os.fdopen(fd, "w", encoding="utf-8")

    def scene(self, name: str, seed: int, hz: int) -> None:
        """Mark the start of a scene."""
        self._write({"record": FORMAT_VERSION, "scene": name, "seed": seed, "hz": hz})

    def step(self, inp: InputState) -> None:
        """Append one fixed step's input."""
        self._write(inp.to_json())

    def _write(self, obj: dict[str, object]) -> None:
        assert self._file is not None, "recorder already closed"
        self._file.write(json.dumps(obj, separators=(",", ":")) + "\n")

    def close(self) -> None:
        """Finish the file and move it into place (idempotent)."""
        if self._file is None:
            return
        self._file.flush()
        os.fsync(self._file.fileno())
        self._file.close()
        self._file = None
        os.replace(self._tmp, self.path)


@dataclass(frozen=True, slots=True)
class SceneStart:
    """A header line of a recording."""

    scene: str
    seed: int
    hz: int


def read_recording(path: str | Path) -> list[SceneStart | InputState]:
    """Every header and step of a recording, in order.

    Raises
    ------
    ValueError
        Naming the file and line when the recording is malformed.
    """
    path = Path(path)
    items: list[SceneStart | InputState] = []
    with path.open(encoding="utf-8") as f:
        for number, line in enumerate(f, start=1):
            try:
                data = json.loads(line)
                if "record" in data:
                    items.append(SceneStart(str(data["scene"]), int(data["seed"]), int(data["hz"])))
                else:
                    items.append(InputState.from_json(data))
            except (ValueError, KeyError, TypeError) as exc:
                raise ValueError(f"{path}: line {number}: not a recording line ({exc})") from None
    if not items or not isinstance(items[0], SceneStart):
        raise ValueError(f"{path}: line 1: expected a recording header with scene, seed and hz")
    return items
