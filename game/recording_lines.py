"""What each line of a recording may hold, checked: a header, a step, a reload, a read check,
the end line, and the checksum that seals each line (format in :mod:`game.recording`).

Each check takes the line's JSON object and returns the item it holds, or raises
:class:`BadLine` saying what the line should have held (the reader adds the file and the
line number). Every number is checked for its range and never converted unchecked, every
string for its length, and errors quote values cut short (no pygame).
"""

from __future__ import annotations

import dataclasses
import hashlib
import re
from dataclasses import dataclass
from typing import Any

from game.assets import MAX_ASSET_BYTES, AssetSnapshot, HugeNumber, is_asset_name
from game.input_state import ACTIONS, POINTER_LIMIT_M, VALUE_LIMIT, InputState
from game.options import HZ_RANGE, MAX_CHARACTERS
from game.wording import a_or_an

FORMAT_VERSION = 4
READABLE_VERSIONS = (1, 2, 3, 4)  # 1 has no assets digest, 1 and 2 no reload lines
SEALED_VERSIONS = (4,)  # every line carries its checksum
MAX_RELOAD_FILES = 4  # a scene reads at most 3 asset files
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


class BadLine(Exception):
    """What a line should have held (the reader adds the file and the line number)."""


def describe(value: Any) -> str:
    """A JSON value for an error message, cut short (a 60,000-character string or a
    400-digit number is named by its length, not quoted whole)."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, list):
        return f"a list of {len(value)}"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, HugeNumber):
        digits = str(len(value.digits))
        return f"{a_or_an(digits)} {digits}-digit number"
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
        raise BadLine(
            f'"{key}": expected a whole number from {low} to {high}, found {describe(value)}'
        )
    return value


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def header_line(data: dict[str, Any], scenes: list[str], first: SceneStart | None) -> SceneStart:
    version = data.get("record")
    if version not in READABLE_VERSIONS or isinstance(version, bool):
        raise BadLine(
            f'"record": expected format {FORMAT_VERSION} (or 1 to 3), found {describe(version)}'
        )
    scene = data.get("scene")
    if scene not in scenes:
        raise BadLine(f'"scene": expected one of {", ".join(scenes)}, found {describe(scene)}')
    seed = _whole(data, "seed", 0, MAX_SEED)
    hz = _whole(data, "hz", *HZ_RANGE)
    assets = data.get("assets")
    if version >= 2 and not (isinstance(assets, str) and len(assets) == 64):
        raise BadLine(f'"assets": expected a 64-digit SHA-256, found {describe(assets)}')
    characters = data.get("characters")
    if version >= 3 and characters is not None:
        characters = _whole(data, "characters", 1, MAX_CHARACTERS)
    start = SceneStart(
        scene, seed, hz, assets if version >= 2 else None, characters if version >= 3 else None
    )
    setting = (start.seed, start.hz, start.assets, start.characters)
    if first is not None and setting != (first.seed, first.hz, first.assets, first.characters):
        raise BadLine(
            "expected the first header's seed, hz and assets, and its characters "
            "(one run, one setting)"
        )
    return start


def step_line(data: dict[str, Any]) -> InputState:
    """A step's input: known keys only, each value of its type and within its range."""
    unknown = sorted(set(data) - STEP_KEYS)
    if unknown:
        raise BadLine(f"unknown key {_shown(unknown[0])}; expected {', '.join(sorted(STEP_KEYS))}")
    _check_pointer(data.get("pointer"))
    for key in ("pointer_down", "run"):
        if not isinstance(data.get(key, False), bool):
            raise BadLine(f'"{key}": expected true or false, found {describe(data[key])}')
    for key in ("move", "climb"):
        value = data.get(key, 0.0)
        if not (_number(value) and -1.0 <= value <= 1.0):
            raise BadLine(f'"{key}": expected a number in [-1, 1], found {describe(value)}')
    _check_actions(data.get("actions", []))
    _check_values(data.get("values", {}))
    return InputState.from_json(data)


def _check_pointer(pointer: Any) -> None:
    """null, or 2 or 3 coordinates within ±:data:`~game.input_state.POINTER_LIMIT_M`."""
    if pointer is not None and not (
        isinstance(pointer, list) and len(pointer) in (2, 3) and all(map(_number, pointer))
    ):
        raise BadLine(f'"pointer": expected null or 2 or 3 numbers, found {describe(pointer)}')
    wild = next((v for v in pointer or () if not -POINTER_LIMIT_M <= v <= POINTER_LIMIT_M), None)
    if wild is not None:
        raise BadLine(
            f'"pointer": expected coordinates from {-POINTER_LIMIT_M:,.0f} to '
            f"{POINTER_LIMIT_M:,.0f} (metres), found {wild!r}"
        )


def _check_actions(actions: Any) -> None:
    """At most :data:`MAX_ACTIONS` known action names."""
    if not (isinstance(actions, list) and len(actions) <= MAX_ACTIONS):
        raise BadLine(
            f'"actions": expected a list of at most {MAX_ACTIONS} names, found {describe(actions)}'
        )
    for index, action in enumerate(actions):
        if not (isinstance(action, str) and len(action) <= MAX_NAME_CHARS):
            raise BadLine(
                f'"actions[{index}]": expected a name of at most {MAX_NAME_CHARS} characters, '
                f"found {describe(action)}"
            )
        if action not in ACTIONS:
            raise BadLine(
                f'"actions[{index}]": unknown action {action!r}; '
                f"expected {', '.join(sorted(ACTIONS))}"
            )


def _check_values(values: Any) -> None:
    """At most :data:`MAX_VALUES` settings, each name short and each value a setting."""
    if not (isinstance(values, dict) and len(values) <= MAX_VALUES):
        raise BadLine(f'"values": expected an object of at most {MAX_VALUES} settings')
    for name, value in values.items():
        if len(name) > MAX_NAME_CHARS:
            raise BadLine(
                f'"values": expected setting names of at most {MAX_NAME_CHARS} characters, '
                f"found {describe(name)}"
            )
        if not _setting(value):
            raise BadLine(
                f'"values.{name}": expected null, true or false, a name of at most '
                f"{MAX_NAME_CHARS} characters, a number from {-VALUE_LIMIT:,.0f} to "
                f"{VALUE_LIMIT:,.0f} or a list of at most {MAX_LIST_ITEMS} such numbers, "
                f"found {describe(value)}"
            )


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


def reload_line(data: dict[str, Any], version: int, line: int) -> AssetReload:
    if version < 3:
        raise BadLine(f"a reload line needs format 3, the header says {version}")
    unknown = sorted(set(data) - {"reload", "assets"})
    if unknown:
        raise BadLine(f"unknown key {_shown(unknown[0])} in a reload; expected reload, assets")
    files = data["reload"]
    if not (
        isinstance(files, dict)
        and 0 < len(files) <= MAX_RELOAD_FILES
        and all(is_asset_name(name) for name in files)
        and all(isinstance(text, str) for text in files.values())
    ):
        raise BadLine(
            f'"reload": expected an object of 1 to {MAX_RELOAD_FILES} files '
            "(a file name such as rig.json: its text)"
        )
    for name, text in files.items():
        try:
            size = len(text.encode())
        except UnicodeEncodeError:  # a lone surrogate escaped as \ud800: not a file's text
            raise BadLine(f'"reload.{name}": expected UTF-8 text') from None
        if size > MAX_ASSET_BYTES:
            raise BadLine(
                f'"reload.{name}": expected at most {MAX_ASSET_BYTES:,} bytes, found {size:,}'
            )
    snapshot = AssetSnapshot(files)
    if data.get("assets") != snapshot.digest:
        raise BadLine(
            f'"assets": expected the SHA-256 of the reloaded files ({snapshot.digest[:12]}…), '
            f"found {describe(data.get('assets'))}"
        )
    return AssetReload(snapshot, line)


def reads_line(data: dict[str, Any], version: int, line: int) -> ReadCheck:
    if version < 3:
        raise BadLine(f"a reads line needs format 3, the header says {version}")
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
        raise BadLine(
            f'"reads": expected only an object of 1 to {MAX_RELOAD_FILES} files '
            "(a file name such as terrain.json: its 64-digit SHA-256)"
        )
    return ReadCheck(files, line)


def checked_sum(line: str, previous: str) -> str:
    """The checksum ``line`` ends with, when it is the one its text and ``previous`` give."""
    parts = _unseal(line)
    if parts is None:
        raise BadLine(
            f'expected the line to end with its checksum {CHECKSUM_HEAD}…"}} '
            f"({CHECKSUM_DIGITS} hex digits; a format-{SEALED_VERSIONS[0]} recording has one on "
            "every line)"
        )
    body, claimed = parts
    if claimed != checksum(previous, body):
        raise BadLine(
            '"sum": the checksum does not match the line: it was edited, or lines before it '
            "were removed, inserted or swapped"
        )
    return claimed


def end_line(data: dict[str, Any], steps: int) -> None:
    unknown = sorted(set(data) - {"end"})
    if unknown:
        raise BadLine(f"unknown key {_shown(unknown[0])} in the end line; expected end")
    if data["end"] != steps or isinstance(data["end"], bool):
        raise BadLine(
            f'"end": expected {steps} (the steps before it), found {describe(data["end"])}'
        )
