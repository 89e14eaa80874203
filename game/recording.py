"""Record every fixed step's input to a file, and read it back for a bit-exact replay.

The file is JSON Lines, five kinds of line:

- a header ``{"record": 4, "scene": str, "seed": int, "hz": int, "assets": str,
  "characters": int | null}`` whenever a scene starts (``assets`` is
  :func:`game.assets.assets_digest` of the assets folder, so a replay can tell it reads
  other files; ``characters`` the run's ``--characters``, from format 3);
- one :meth:`InputState.to_json` line per fixed step: ``pointer`` null or 2 or 3
  coordinates within ±:data:`~game.input_state.POINTER_LIMIT_M`, ``move`` and ``climb`` in
  [-1, 1], ``actions`` known names, ``values`` at most :data:`MAX_VALUES` settings, each
  null, true/false, a name of at most :data:`MAX_NAME_CHARS` characters, a number within
  ±:data:`~game.input_state.VALUE_LIMIT` or a list of at most :data:`MAX_LIST_ITEMS` such
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

import dataclasses
import hashlib
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from game.assets import (
    MAX_ASSET_BYTES,
    AssetError,
    AssetSnapshot,
    HugeNumber,
    assets_digest,
    is_asset_name,
    parse_int,
    read_bytes,
)
from game.input_state import ACTIONS, POINTER_LIMIT_M, VALUE_LIMIT, InputState
from game.options import HZ_RANGE, MAX_CHARACTERS
from game.outputs import AtomicFile
from game.scene import ASSETS_DIR

FORMAT_VERSION = 4
READABLE_VERSIONS = (1, 2, 3, 4)  # 1 has no assets digest, 1 and 2 no reload lines
SEALED_VERSIONS = (4,)  # every line carries its checksum
MAX_RECORDING_BYTES = 256 << 20  # ~2 million steps, 9 hours at 60 Hz
MAX_LINE_CHARS = 64 << 10
MAX_RELOAD_FILES = 4  # a scene reads at most 3 asset files
# A reload holds up to MAX_RELOAD_FILES files of at most MAX_ASSET_BYTES; written as JSON
# strings (not ASCII-escaped) a valid JSON file's text at most doubles (\" \\ \n \t \r).
MAX_RELOAD_LINE_CHARS = MAX_RELOAD_FILES * 2 * MAX_ASSET_BYTES + 4096
RELOAD_PREFIX = '{"reload":'
MAX_SEED = 2**63 - 1
MAX_ACTIONS = 64
MAX_VALUES = 64
MAX_NAME_CHARS = 64
MAX_LIST_ITEMS = 8
STEP_KEYS = frozenset(f.name for f in dataclasses.fields(InputState))
MAX_SHOWN_CHARS = 40  # characters of a string an error message quotes
CHECKSUM_DIGITS = 16  # hex digits of a line's checksum: 64 bits, against accidents
CHECKSUM_HEAD = ',"sum":"'
CHECKSUM_TAIL_CHARS = len(CHECKSUM_HEAD) + CHECKSUM_DIGITS + len('"}')


def checksum(previous: str, body: str) -> str:
    """A line's checksum: the first :data:`CHECKSUM_DIGITS` hex digits of the SHA-256 of the
    previous line's checksum (``""`` for the first line) followed by ``body``, the line's
    text without its own checksum."""
    text = (previous + body).encode("utf-8", "surrogatepass")
    return hashlib.sha256(text).hexdigest()[:CHECKSUM_DIGITS]


def seal(previous: str, body: str) -> tuple[str, str]:
    """``body`` (a JSON object's text) with its checksum added as the last key ``sum``, and
    that checksum (the next line's ``previous``)."""
    sum_ = checksum(previous, body)
    return f'{body[:-1]}{CHECKSUM_HEAD}{sum_}"}}', sum_


def _unseal(line: str) -> tuple[str, str] | None:
    """``(body, checksum)`` of a line ending with its checksum, or None."""
    tail = line[-CHECKSUM_TAIL_CHARS:]
    if not (tail.startswith(CHECKSUM_HEAD) and tail.endswith('"}')):
        return None
    return line[:-CHECKSUM_TAIL_CHARS] + "}", tail[len(CHECKSUM_HEAD) : -2]


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


@dataclass(frozen=True, slots=True)
class SceneStart:
    """A header line of a recording (``assets`` is None in a version-1 file,
    ``characters`` None where the run had no --characters, or before version 3)."""

    scene: str
    seed: int
    hz: int
    assets: str | None = None
    characters: int | None = None


@dataclass(frozen=True, slots=True)
class AssetReload:
    """A reload line: the asset files F5 read (``snapshot``) at this point of the run,
    on line ``line`` of the recording."""

    snapshot: AssetSnapshot
    line: int


@dataclass(frozen=True, slots=True)
class ReadCheck:
    """A read check line: the next step reads these asset files (name → SHA-256), on line
    ``line`` of the recording."""

    files: dict[str, str]
    line: int


Item = SceneStart | InputState | AssetReload | ReadCheck


class _BadLine(Exception):
    """What a line should have held (the reader adds the file and the line number)."""


def _describe(value: Any) -> str:
    """A JSON value for an error message, cut short (a 60,000-character string or a
    400-digit number is named by its length, not quoted whole)."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, list):
        return f"a list of {len(value)}"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, HugeNumber):
        return f"a {len(value.digits)}-digit number"
    if isinstance(value, str) and len(value) > MAX_SHOWN_CHARS:
        return f"{_shown(value)} ({len(value):,} characters)"
    return "null" if value is None else repr(value)


def _shown(name: str) -> str:
    """A string quoted for a message: at most :data:`MAX_SHOWN_CHARS` characters, escaped."""
    cut = name[:MAX_SHOWN_CHARS]
    return ascii(cut)[:-1] + ("…'" if len(name) > MAX_SHOWN_CHARS else "'")


def _whole(data: dict[str, Any], key: str, low: int, high: int) -> int:
    value = data.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise _BadLine(
            f'"{key}": expected a whole number from {low} to {high}, found {_describe(value)}'
        )
    return value


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _header(data: dict[str, Any], scenes: list[str], first: SceneStart | None) -> SceneStart:
    version = data.get("record")
    if version not in READABLE_VERSIONS or isinstance(version, bool):
        raise _BadLine(
            f'"record": expected format {FORMAT_VERSION} (or 1 to 3), found {_describe(version)}'
        )
    scene = data.get("scene")
    if scene not in scenes:
        raise _BadLine(f'"scene": expected one of {", ".join(scenes)}, found {_describe(scene)}')
    seed = _whole(data, "seed", 0, MAX_SEED)
    hz = _whole(data, "hz", *HZ_RANGE)
    assets = data.get("assets")
    if version >= 2 and not (isinstance(assets, str) and len(assets) == 64):
        raise _BadLine(f'"assets": expected a 64-digit SHA-256, found {_describe(assets)}')
    characters = data.get("characters")
    if version >= 3 and characters is not None:
        characters = _whole(data, "characters", 1, MAX_CHARACTERS)
    start = SceneStart(
        scene, seed, hz, assets if version >= 2 else None, characters if version >= 3 else None
    )
    setting = (start.seed, start.hz, start.assets, start.characters)
    if first is not None and setting != (first.seed, first.hz, first.assets, first.characters):
        raise _BadLine(
            "expected the first header's seed, hz and assets, and its characters "
            "(one run, one setting)"
        )
    return start


def _step(data: dict[str, Any]) -> InputState:
    unknown = sorted(set(data) - STEP_KEYS)
    if unknown:
        raise _BadLine(f"unknown key {_shown(unknown[0])}; expected {', '.join(sorted(STEP_KEYS))}")
    pointer = data.get("pointer")
    if pointer is not None and not (
        isinstance(pointer, list) and len(pointer) in (2, 3) and all(map(_number, pointer))
    ):
        raise _BadLine(f'"pointer": expected null or 2 or 3 numbers, found {_describe(pointer)}')
    wild = next((v for v in pointer or () if not -POINTER_LIMIT_M <= v <= POINTER_LIMIT_M), None)
    if wild is not None:
        raise _BadLine(
            f'"pointer": expected coordinates from {-POINTER_LIMIT_M:,.0f} to '
            f"{POINTER_LIMIT_M:,.0f} (metres), found {wild!r}"
        )
    for key in ("pointer_down", "run"):
        if not isinstance(data.get(key, False), bool):
            raise _BadLine(f'"{key}": expected true or false, found {_describe(data[key])}')
    for key in ("move", "climb"):
        value = data.get(key, 0.0)
        if not (_number(value) and -1.0 <= value <= 1.0):
            raise _BadLine(f'"{key}": expected a number in [-1, 1], found {_describe(value)}')
    actions = data.get("actions", [])
    if not (isinstance(actions, list) and len(actions) <= MAX_ACTIONS):
        raise _BadLine(
            f'"actions": expected a list of at most {MAX_ACTIONS} names, found {_describe(actions)}'
        )
    for index, action in enumerate(actions):
        if not (isinstance(action, str) and len(action) <= MAX_NAME_CHARS):
            raise _BadLine(
                f'"actions[{index}]": expected a name of at most {MAX_NAME_CHARS} characters, '
                f"found {_describe(action)}"
            )
        if action not in ACTIONS:
            raise _BadLine(
                f'"actions[{index}]": unknown action {action!r}; '
                f"expected {', '.join(sorted(ACTIONS))}"
            )
    values = data.get("values", {})
    if not (isinstance(values, dict) and len(values) <= MAX_VALUES):
        raise _BadLine(f'"values": expected an object of at most {MAX_VALUES} settings')
    for name, value in values.items():
        if len(name) > MAX_NAME_CHARS:
            raise _BadLine(
                f'"values": expected setting names of at most {MAX_NAME_CHARS} characters, '
                f"found {_describe(name)}"
            )
        if not _setting(value):
            raise _BadLine(
                f'"values.{name}": expected null, true or false, a name of at most '
                f"{MAX_NAME_CHARS} characters, a number from {-VALUE_LIMIT:,.0f} to "
                f"{VALUE_LIMIT:,.0f} or a list of at most {MAX_LIST_ITEMS} such numbers, "
                f"found {_describe(value)}"
            )
    return InputState.from_json(data)


def _setting(value: Any) -> bool:
    """Whether ``value`` is a setting a step may carry (see the module docstring)."""
    if isinstance(value, str):
        return len(value) <= MAX_NAME_CHARS
    if isinstance(value, list):
        return len(value) <= MAX_LIST_ITEMS and all(map(_in_range, value))
    return value is None or isinstance(value, bool) or _in_range(value)


def _in_range(value: Any) -> bool:
    """A number within ±:data:`VALUE_LIMIT` (NaN is not)."""
    return _number(value) and -VALUE_LIMIT <= value <= VALUE_LIMIT


def _reload(data: dict[str, Any], version: int, line: int) -> AssetReload:
    if version < 3:
        raise _BadLine(f"a reload line needs format 3, the header says {version}")
    unknown = sorted(set(data) - {"reload", "assets"})
    if unknown:
        raise _BadLine(f"unknown key {_shown(unknown[0])} in a reload; expected reload, assets")
    files = data["reload"]
    if not (
        isinstance(files, dict)
        and 0 < len(files) <= MAX_RELOAD_FILES
        and all(is_asset_name(name) for name in files)
        and all(isinstance(text, str) for text in files.values())
    ):
        raise _BadLine(
            f'"reload": expected an object of 1 to {MAX_RELOAD_FILES} files '
            "(a file name such as rig.json: its text)"
        )
    for name, text in files.items():
        try:
            size = len(text.encode())
        except UnicodeEncodeError:  # a lone surrogate escaped as \ud800: not a file's text
            raise _BadLine(f'"reload.{name}": expected UTF-8 text') from None
        if size > MAX_ASSET_BYTES:
            raise _BadLine(
                f'"reload.{name}": expected at most {MAX_ASSET_BYTES:,} bytes, found {size:,}'
            )
    snapshot = AssetSnapshot(files)
    if data.get("assets") != snapshot.digest:
        raise _BadLine(
            f'"assets": expected the SHA-256 of the reloaded files ({snapshot.digest[:12]}…), '
            f"found {_describe(data.get('assets'))}"
        )
    return AssetReload(snapshot, line)


def _reads(data: dict[str, Any], version: int, line: int) -> ReadCheck:
    if version < 3:
        raise _BadLine(f"a reads line needs format 3, the header says {version}")
    files = data["reads"]
    if not (
        set(data) == {"reads"}
        and isinstance(files, dict)
        and 0 < len(files) <= MAX_RELOAD_FILES
        and all(is_asset_name(name) for name in files)
        and all(
            isinstance(sha, str) and re.fullmatch("[0-9a-f]{64}", sha) for sha in files.values()
        )
    ):
        raise _BadLine(
            f'"reads": expected only an object of 1 to {MAX_RELOAD_FILES} files '
            "(a file name such as terrain.json: its 64-digit SHA-256)"
        )
    return ReadCheck(files, line)


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
    names = scenes.available()
    items: list[Item] = []
    first: SceneStart | None = None
    version = FORMAT_VERSION
    sealed = False  # the first header's format has checksums
    previous = ""  # the last line's checksum
    steps = 0
    end: int | None = None  # the line of the end line (format 3)
    lines = _checked_text(path).splitlines()
    for number, line in enumerate(lines, start=1):
        try:
            if end is not None:
                raise _BadLine(f"expected nothing after the end line (line {end})")
            limit = MAX_RELOAD_LINE_CHARS if line.startswith(RELOAD_PREFIX) else MAX_LINE_CHARS
            if len(line) > limit:
                raise _BadLine(f"expected a line of at most {limit:,} characters")
            try:
                data = json.loads(line, parse_int=parse_int)
            except (ValueError, RecursionError) as exc:
                raise _BadLine(f"expected a JSON object ({str(exc)[:80]})") from None
            if not isinstance(data, dict):
                raise _BadLine(f"expected a JSON object, found {_describe(data)}")
            if number == 1 and "record" not in data:
                raise _BadLine("expected a recording header with record, scene, seed, hz")
            if number == 1:
                sealed = data["record"] in SEALED_VERSIONS
            if sealed:
                data.pop("sum", None)  # checked against the line's text below
            item: Item | None
            if "record" in data:
                item = _header(data, names, first)
                first = first or item
                version = data["record"]
            elif "reload" in data:
                item = _reload(data, version, number)
            elif "reads" in data:
                item = _reads(data, version, number)
            elif "end" in data and version >= 3:
                _end(data, steps)
                end, item = number, None
            else:
                item = _step(data)
                steps += 1
            if sealed:
                previous = _checked_sum(line, previous)
        except _BadLine as exc:
            raise ValueError(f"{path}: line {number}: {exc}") from None
        if item is not None:
            items.append(item)
    if not items:
        raise ValueError(f"{path}: line 1: expected a recording header, found an empty file")
    if end is None and version >= 3:
        raise ValueError(
            f'{path}: line {len(lines)}: expected the end line {{"end": {steps}}} after it '
            f"(a format-{version} recording ends with one: this one is cut short)"
        )
    if steps == 0:
        raise ValueError(
            f"{path}: expected at least one step after the header, found none: "
            "nothing to replay (a recording cut short, or quit before its first step)"
        )
    return items


def _checked_sum(line: str, previous: str) -> str:
    """The checksum ``line`` ends with, when it is the one its text and ``previous`` give."""
    parts = _unseal(line)
    if parts is None:
        raise _BadLine(
            f'expected the line to end with its checksum {CHECKSUM_HEAD}…"}} '
            f"({CHECKSUM_DIGITS} hex digits; a format-{SEALED_VERSIONS[0]} recording has one on "
            "every line)"
        )
    body, claimed = parts
    if claimed != checksum(previous, body):
        raise _BadLine(
            '"sum": the checksum does not match the line: it was edited, or lines before it '
            "were removed, inserted or swapped"
        )
    return claimed


def _end(data: dict[str, Any], steps: int) -> None:
    unknown = sorted(set(data) - {"end"})
    if unknown:
        raise _BadLine(f"unknown key {_shown(unknown[0])} in the end line; expected end")
    if data["end"] != steps or isinstance(data["end"], bool):
        raise _BadLine(
            f'"end": expected {steps} (the steps before it), found {_describe(data["end"])}'
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
