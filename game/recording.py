"""Record every fixed step's input to a file, and read it back for a bit-exact replay.

The file is JSON Lines, five kinds of line:

- a header ``{"record": 4, "scene": str, "seed": int, "hz": int, "assets": str,
  "characters": int | null}`` whenever a scene starts (``assets`` is
  :func:`game.assets.assets_digest` of the assets folder, so a replay can tell it reads
  other files; ``characters`` the run's ``--characters``, from format 3);
- one :meth:`InputState.to_json` line per fixed step: ``pointer`` null or 2 or 3
  coordinates within ±:data:`~game.input_state.POINTER_LIMIT_M`, ``move`` and ``climb`` in
  [-1, 1], ``actions`` known names, ``values`` at most :data:`~game.recording_lines.MAX_VALUES` settings, each
  null, true/false, a name of at most :data:`~game.recording_lines.MAX_NAME_CHARS` characters, a number within
  ±:data:`~game.input_state.VALUE_LIMIT` or a list of at most :data:`~game.recording_lines.MAX_LIST_ITEMS` such
  numbers (the app clamps what it records to these bounds);
- (format 3) a reload ``{"reload": {file name: text, ...}, "assets": str}`` where F5 read
  the asset files again, between the steps it came between: the text of every file the
  scene read and their SHA-256 (computed as the header's), so the replay loads the same
  files at the same step whatever the assets folder holds by then;
- (format 3) a read check ``{"reads": {file name: sha256, ...}}`` before a step that reads
  asset files itself (the walk's Ctrl+O terrain reload): the SHA-256 of each file's bytes
  then, so a replay reading a file that has changed since (saved with Ctrl+S, edited
  outside) stops naming the line instead of silently playing another run;
- (format 3) the end line ``{"end": steps}``, last, written when the recording is closed,
  so a file cut short at a line boundary is told from a complete one.

From format 4 every line ends with its checksum, ``,"sum":"<16 hex digits>"}``: the first
16 hex digits of the SHA-256 of the previous line's checksum (none for the first line)
followed by the line's text without its own (``…"}`` where the checksum was). The chain
makes a line that was edited, or lines removed, inserted or swapped, a refused line that
the error names, where each line alone would still be valid input playing another session.
It catches accidents and tampering by hand, not a forger: anyone can recompute it.
Formats 1 (no ``assets`` in the header), 2 (no reload lines, no end line) and 3 still
read, with no checksum to check (they never had one).

The checks of each kind of line, and the checksum, are :mod:`game.recording_lines`.

The file is written to a temporary file beside the target and renamed into place on close
(:class:`game.outputs.AtomicFile`), so a recording is either complete or absent, never
half-written.

A recording is input like an asset: :func:`read_recording` checks every line and raises
:class:`ValueError` naming the file, the line, the key and what was expected. Every
number is checked for its range and never converted unchecked (an integer of more than
:data:`game.assets.MAX_NUMBER_DIGITS` digits is not even parsed), every string for its
length before anything is done with it, and errors quote values cut short, so a hostile
file is refused in about the time it takes to read.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from game.assets import (
    MAX_ASSET_BYTES,
    AssetError,
    AssetSnapshot,
    assets_digest,
    parse_int,
    read_bytes,
)
from game.input_state import InputState
from game.outputs import AtomicFile
from game.recording_lines import (
    FORMAT_VERSION,
    MAX_RELOAD_FILES,
    SEALED_VERSIONS,
    BadLine,
    Item,
    SceneStart,
    checked_sum,
    describe,
    end_line,
    header_line,
    reads_line,
    reload_line,
    seal,
    step_line,
)
from game.scene import ASSETS_DIR

MAX_RECORDING_BYTES = 256 << 20  # ~2 million steps, 9 hours at 60 Hz
MAX_LINE_CHARS = 64 << 10
# A reload holds up to MAX_RELOAD_FILES files of at most MAX_ASSET_BYTES; written as JSON
# strings (not ASCII-escaped) a valid JSON file's text at most doubles (\" \\ \n \t \r).
MAX_RELOAD_LINE_CHARS = MAX_RELOAD_FILES * 2 * MAX_ASSET_BYTES + 4096
RELOAD_PREFIX = '{"reload":'


class Recorder:
    """Writes a recording atomically (temporary file, then rename on :meth:`close`)."""

    def __init__(self, path: str | Path, assets_dir: str | Path = ASSETS_DIR) -> None:
        self.path = Path(path)
        self.assets = assets_digest(assets_dir)  # the run's asset files, for the replay to check
        self.steps = 0
        self._file = AtomicFile("--record", self.path)
        self._sum = ""  # the last line's checksum

    def scene(self, name: str, seed: int, hz: int, characters: int | None = None) -> None:
        """Mark the start of a scene (``characters``: the run's --characters, or None)."""
        header = {"record": FORMAT_VERSION, "scene": name, "seed": seed, "hz": hz}
        self._write({**header, "assets": self.assets, "characters": characters})

    def step(self, inp: InputState) -> None:
        """Append one fixed step's input."""
        self._write(inp.to_json())
        self.steps += 1

    def reads(self, files: dict[str, str]) -> None:
        """Mark that the next step reads these asset files (name → SHA-256 of the bytes)."""
        self._write({"reads": files})

    def reload(self, snapshot: AssetSnapshot) -> None:
        """Mark a live reload of the asset files (F5) before the next step: the files the
        scene read, and their digest."""
        # not ASCII-escaped, so the text stays within MAX_RELOAD_LINE_CHARS
        self._write({"reload": dict(snapshot.files), "assets": snapshot.digest}, ascii=False)

    def _write(self, obj: dict[str, object], ascii: bool = True) -> None:
        assert not self._file.closed, "recorder already closed"
        assert obj, "a recording line is a JSON object with at least one key"
        body = json.dumps(obj, separators=(",", ":"), ensure_ascii=ascii)
        line, self._sum = seal(self._sum, body)
        self._file.write(line + "\n")

    def close(self) -> None:
        """Write the end line, finish the file and move it into place (idempotent)."""
        if not self._file.closed:
            self._write({"end": self.steps})
        self._file.commit()

    def abandon(self) -> None:
        """Delete the unfinished file (nothing is moved into place)."""
        self._file.abort()


def _checked_text(path: Path) -> str:
    try:
        data = read_bytes(path, MAX_RECORDING_BYTES)
    except AssetError as exc:
        raise ValueError(str(exc)) from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise ValueError(
            f"{path}: line {line}: expected UTF-8 text, found byte 0x{data[exc.start]:02x} "
            "(not a recording: binary?)"
        ) from None


def read_recording(path: str | Path) -> list[Item]:
    """Every header, step and reload of a recording, in order, each line validated.

    Raises
    ------
    ValueError
        Naming the file, the line and what was expected, when the recording is malformed.
    """
    from game import scenes  # the registry imports every scene's module; only a replay needs it

    path = Path(path)
    reader = _LineReader(scenes.available())
    items: list[Item] = []
    lines = _checked_text(path).splitlines()
    for number, line in enumerate(lines, start=1):
        try:
            item = reader.read(number, line)
        except BadLine as exc:
            raise ValueError(f"{path}: line {number}: {exc}") from None
        if item is not None:
            items.append(item)
    if not items:
        raise ValueError(f"{path}: line 1: expected a recording header, found an empty file")
    reader.check_complete(path, len(lines))
    return items


class _LineReader:
    """A recording read line by line, with what the lines so far set: the first header,
    the format, whether lines are sealed, the last checksum, the steps, the end line."""

    def __init__(self, scenes: list[str]) -> None:
        self.scenes = scenes
        self.first: SceneStart | None = None
        self.version = FORMAT_VERSION
        self.sealed = False  # the first header's format has checksums
        self.previous = ""  # the last line's checksum
        self.steps = 0
        self.end: int | None = None  # the line of the end line (format 3)

    def read(self, number: int, line: str) -> Item | None:
        """Line ``number``'s item (None for the end line); raises :class:`BadLine`."""
        if self.end is not None:
            raise BadLine(f"expected nothing after the end line (line {self.end})")
        limit = MAX_RELOAD_LINE_CHARS if line.startswith(RELOAD_PREFIX) else MAX_LINE_CHARS
        if len(line) > limit:
            raise BadLine(f"expected a line of at most {limit:,} characters")
        try:
            data = json.loads(line, parse_int=parse_int)
        except (ValueError, RecursionError) as exc:
            raise BadLine(f"expected a JSON object ({str(exc)[:80]})") from None
        if not isinstance(data, dict):
            raise BadLine(f"expected a JSON object, found {describe(data)}")
        if number == 1 and "record" not in data:
            raise BadLine("expected a recording header with record, scene, seed, hz")
        if number == 1:
            self.sealed = data["record"] in SEALED_VERSIONS
        if self.sealed:
            data.pop("sum", None)  # checked against the line's text below
        item = self._item(data, number)
        if self.sealed:
            self.previous = checked_sum(line, self.previous)
        return item

    def _item(self, data: dict[str, Any], number: int) -> Item | None:
        """What the line holds, told by its keys."""
        if "record" in data:
            header = header_line(data, self.scenes, self.first)
            self.first = self.first or header
            self.version = data["record"]
            return header
        if "reload" in data:
            return reload_line(data, self.version, number)
        if "reads" in data:
            return reads_line(data, self.version, number)
        if "end" in data and self.version >= 3:
            end_line(data, self.steps)
            self.end = number
            return None
        step = step_line(data)
        self.steps += 1
        return step

    def check_complete(self, path: Path, line_count: int) -> None:
        """After the last line: a format-3 recording ends with its end line, and every
        recording holds a step."""
        if self.end is None and self.version >= 3:
            raise ValueError(
                f'{path}: line {line_count}: expected the end line {{"end": {self.steps}}} '
                f"after it (a format-{self.version} recording ends with one: this one is cut "
                "short)"
            )
        if self.steps == 0:
            raise ValueError(
                f"{path}: expected at least one step after the header, found none: "
                "nothing to replay (a recording cut short, or quit before its first step)"
            )


def assets_mismatch(path: str | Path, head: SceneStart, folder: str | Path) -> str | None:
    """Why replaying ``head`` (the recording ``path``'s first header) with the assets in
    ``folder`` would diverge from the recorded run, or None when it reads the same files."""
    if head.assets is None:
        return None
    here = assets_digest(folder)
    if here == head.assets:
        return None
    return (
        f"{path} was recorded with other asset files (sha256 {head.assets[:12]}…) than "
        f"{folder} holds now (sha256 {here[:12]}…); pass --assets with the recorded files"
    )
