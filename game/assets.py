"""Asset loading errors and JSON reading shared by every asset loader.

Every problem with an asset file is reported as an :class:`AssetError` that names the file,
the key (a JSON path such as ``legs.upper``) and what was expected versus what was found.

Reading is bounded before any parsing: only a regular file (never a FIFO or a device, which
could block or never end) of at most :data:`MAX_ASSET_BYTES`, UTF-8, nested at most
:data:`MAX_NESTING` deep; a number written with more than :data:`MAX_NUMBER_DIGITS` digits is
kept as a :class:`HugeNumber` for the loader to reject by key (never converted).
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
import string
import tempfile
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

MAX_ASSET_BYTES = 1 << 20  # 1 MiB: the shipped files are ~5 KB
MAX_NESTING = 32  # the shipped files nest 3 deep
MAX_NUMBER_DIGITS = 40  # beyond any physical value; far below int()'s 4,300-digit limit


class AssetError(ValueError):
    """A malformed asset: ``file``, ``key`` and a message saying what was expected."""

    def __init__(self, file: str | Path, key: str, message: str) -> None:
        self.file = str(file)
        self.key = key
        self.detail = message
        where = f"{self.file}: {key}: " if key else f"{self.file}: "
        super().__init__(where + message)


@dataclass(frozen=True, slots=True)
class HugeNumber:
    """A JSON number with more than :data:`MAX_NUMBER_DIGITS` digits, left unconverted."""

    digits: str


def parse_int(text: str) -> int | HugeNumber:
    """A JSON integer literal as an int, or a :class:`HugeNumber` beyond
    :data:`MAX_NUMBER_DIGITS` characters (``json.loads``'s ``parse_int``)."""
    return HugeNumber(text) if len(text) > MAX_NUMBER_DIGITS else int(text)


def _parse_float(text: str) -> float | HugeNumber:
    return HugeNumber(text) if len(text) > MAX_NUMBER_DIGITS + 8 else float(text)


def read_bytes(path: str | Path, max_bytes: int = MAX_ASSET_BYTES) -> bytes:
    """The bytes of a regular file of at most ``max_bytes``, as :class:`AssetError` otherwise.

    The file is opened without blocking and checked with ``fstat`` before a byte is read, so
    a FIFO, a device or a folder is refused instead of hanging or reading for ever.
    """
    path = Path(path)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        raise AssetError(path, "", "file not found") from None
    except OSError as exc:
        raise AssetError(path, "", f"cannot be read ({exc.strerror})") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise AssetError(path, "", "expected a regular file (not a folder, FIFO or device)")
        if info.st_size > max_bytes:
            raise AssetError(
                path, "", f"expected at most {max_bytes:,} bytes, found {info.st_size:,}"
            )
        chunks: list[bytes] = []
        size = 0
        while size <= max_bytes and (chunk := os.read(fd, max_bytes + 1 - size)):
            chunks.append(chunk)
            size += len(chunk)
    except OSError as exc:
        raise AssetError(path, "", f"cannot be read ({exc.strerror})") from None
    finally:
        os.close(fd)
    data = b"".join(chunks)
    if len(data) > max_bytes:
        raise AssetError(path, "", f"expected at most {max_bytes:,} bytes (it grew while read)")
    return data


def nesting_depth(text: str) -> int:
    """The deepest ``[``/``{`` nesting of a JSON text (brackets inside strings skipped)."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def decode_text(path: str | Path, data: bytes) -> str:
    """UTF-8 text of an asset, or :class:`AssetError` naming the first bad byte."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise AssetError(
            path,
            "",
            f"expected UTF-8 text, found byte 0x{data[exc.start]:02x} at offset {exc.start}",
        ) from None


def parse_json(path: str | Path, text: str) -> Any:
    """Parse JSON text with bounded nesting and unconverted huge numbers."""
    depth = nesting_depth(text)
    if depth > MAX_NESTING:
        raise AssetError(
            path, "", f"expected at most {MAX_NESTING} levels of nesting, found {depth}"
        )
    try:
        return json.loads(text, parse_int=parse_int, parse_float=_parse_float)
    except json.JSONDecodeError as exc:
        raise AssetError(
            path, "", f"invalid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}"
        ) from None


def read_json(path: str | Path) -> Any:
    """Read and parse a JSON asset; every I/O, size, encoding and syntax problem is an
    :class:`AssetError` naming the file."""
    return parse_json(path, decode_text(path, read_bytes(path)))


def _files_digest(files: Iterable[tuple[str, bytes]]) -> str:
    """SHA-256 over ``(name, content)`` pairs, in name order."""
    digest = hashlib.sha256()
    for name, content in sorted(files):
        digest.update(name.encode() + b"\0" + content + b"\0")
    return digest.hexdigest()


def _content_or_error(file: Path) -> bytes:
    try:
        return read_bytes(file)
    except AssetError as exc:
        return str(exc).encode()


def assets_digest(folder: str | Path) -> str:
    """SHA-256 over the names and contents of the ``*.json`` files in ``folder`` (sorted),
    so a recording can tell whether a replay reads the same assets."""
    files = sorted(Path(folder).glob("*.json"))
    return _files_digest((file.name, _content_or_error(file)) for file in files)


def file_digest(path: str | Path) -> str:
    """SHA-256 of one asset file's bytes (of its read error when it cannot be read)."""
    return hashlib.sha256(_content_or_error(Path(path))).hexdigest()


_NAME_FIRST = frozenset(string.ascii_letters + string.digits + "_-")
_NAME_REST = _NAME_FIRST | {"."}


def is_asset_name(name: str) -> bool:
    """A plain asset file name (no folder, not hidden): what a snapshot may hold. A stem of
    1 to 59 ASCII letters, digits, ``_``, ``-`` and ``.`` (not first), then ``.json``."""
    stem = name[: -len(".json")] if name.endswith(".json") else ""
    return 1 <= len(stem) <= 59 and stem[0] in _NAME_FIRST and set(stem[1:]) <= _NAME_REST


T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class AssetSnapshot:
    """The text of some asset files as read at one moment (file name → text), so a live
    reload can be recorded and replayed with exactly the files it read.

    ``digest`` is :func:`assets_digest`'s hash of these files: equal to the folder's when
    they are all of its ``*.json`` files.
    """

    files: Mapping[str, str]

    @property
    def digest(self) -> str:
        return _files_digest((name, text.encode()) for name, text in self.files.items())


def read_snapshot(folder: str | Path, names: Iterable[str]) -> AssetSnapshot:
    """The files ``names`` of ``folder`` that exist, each read and checked as
    :func:`read_json` does (size, kind of file, UTF-8); :class:`AssetError` naming the
    file otherwise. A missing file is left out (its loader names it, or it is optional)."""
    files: dict[str, str] = {}
    for name in names:
        path = Path(folder) / name
        if path.exists():
            files[name] = decode_text(path, read_bytes(path))
    return AssetSnapshot(files)


def load_snapshot(snapshot: AssetSnapshot, folder: str | Path, load: Callable[[Path], T]) -> T:
    """``load(dir)`` on a private folder holding exactly ``snapshot``'s files (so what is
    loaded is what was read, whatever happens to ``folder`` meanwhile); an
    :class:`AssetError` names the file in ``folder`` it came from."""
    with tempfile.TemporaryDirectory(prefix="twobone-assets-") as tmp:
        private = Path(tmp)
        for name, text in snapshot.files.items():
            (private / name).write_bytes(text.encode())
        try:
            return load(private)
        except AssetError as exc:
            source = Path(exc.file)
            if source.parent != private:
                raise
            raise AssetError(Path(folder) / source.name, exc.key, exc.detail) from None
