"""Asset loading errors and JSON reading shared by every asset loader.

Every problem with an asset file is reported as an :class:`AssetError` that names the file,
the key (a JSON path such as ``legs.upper``) and what was expected versus what was found.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


class AssetError(ValueError):
    """A malformed asset: ``file``, ``key`` and a message saying what was expected."""

    def __init__(self, file: str | Path, key: str, message: str) -> None:
        self.file = str(file)
        self.key = key
        self.detail = message
        where = f"{self.file}: {key}: " if key else f"{self.file}: "
        super().__init__(where + message)


def read_json(path: str | Path) -> Any:
    """Parse a JSON asset, turning I/O and syntax errors into :class:`AssetError`."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise AssetError(path, "", "file not found") from None
    except OSError as exc:
        raise AssetError(path, "", f"cannot be read ({exc.strerror})") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise AssetError(
            path, "", f"invalid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}"
        ) from None
