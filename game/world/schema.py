"""Typed reads out of a parsed JSON asset: every bad value names the file, the key and why.

A :class:`Fields` wraps one JSON object and the key path that leads to it (``legs``), so a
loader reads ``fields.section("legs").length("upper")`` and a bad value raises
:class:`game.assets.AssetError` with the key ``legs.upper`` and ``expected … found …``.
"""

from __future__ import annotations

import difflib
import math
import re
import string
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from game.assets import AssetError, HugeNumber
from game.palette import PALETTE, Color
from game.wording import a_or_an

MAX_KEY_SHOWN = 40  # characters of an unknown key or a string value an error message quotes
MAX_TEXT_CHARS = 200  # a name or label in an asset file (the shipped ones are < 120)


@dataclass(frozen=True, slots=True)
class Range:
    """The documented physical range of one numeric field: ``low <= value <= high``."""

    low: float
    high: float
    unit: str = ""

    def __str__(self) -> str:
        unit = f" {self.unit}" if self.unit else ""
        return f"[{self.low:g}, {self.high:g}]{unit}"


Ranges = Mapping[str, Range]
"""A file's range table: key path with list indices dropped (``landmarks.from``) → range."""

_INDEX = r"\[\d+\]"  # a list index in a key path


def describe(value: Any) -> str:
    """A short human description of a JSON value for error messages (``a string 'abc'``)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return f"a boolean {str(value).lower()}"
    if isinstance(value, int | float):
        return f"the number {value!r}"
    if isinstance(value, str):
        if len(value) > MAX_KEY_SHOWN:  # quoted short: the message is shown on the HUD
            return f"a string {value[:MAX_KEY_SHOWN]!r}… ({len(value):,} characters)"
        return f"a string {value!r}"
    if isinstance(value, list):
        return f"a list of {len(value)}"
    if isinstance(value, HugeNumber):
        digits = str(len(value.digits))
        return f"{a_or_an(digits)} {digits}-digit number"
    return "an object"


class Fields:
    """One JSON object of an asset file, read with validation.

    Parameters
    ----------
    file : str or Path
        The asset file (named in every error).
    data : object
        The parsed JSON value expected to be an object.
    path : str
        The key path of ``data`` inside the file (``""`` for the top level).
    ranges : mapping of str to Range
        The file's range table: every numeric field read through :meth:`number` must have
        an entry (a field without one is a programming error, raised as ``LookupError``).
    """

    def __init__(
        self, file: str | Path, data: Any, path: str = "", ranges: Ranges | None = None
    ) -> None:
        self.file = file
        self.path = path
        self.ranges: Ranges = ranges or {}
        if not isinstance(data, dict):
            raise AssetError(
                file, path or "(top level)", f"expected an object, found {describe(data)}"
            )
        self.data: dict[str, Any] = data
        self.read: set[str] = set()  # the keys the loader asked for (see reject_unknown)
        self._sections: list[Fields] = []

    def key(self, name: str) -> str:
        """The full key path of ``name`` (``legs.upper``)."""
        return f"{self.path}.{name}" if self.path else name

    def error(self, name: str, message: str) -> AssetError:
        """An :class:`AssetError` about key ``name`` of this object."""
        return AssetError(self.file, self.key(name), message)

    def raw(self, name: str) -> Any:
        """The value of ``name``; a missing key is an error."""
        self.read.add(name)
        if name not in self.data:
            raise self.error(name, "missing (required key)")
        return self.data[name]

    def optional(self, name: str, default: Any) -> Any:
        """The value of ``name``, or ``default`` where the file leaves it out; a string longer
        than :data:`MAX_TEXT_CHARS` is an error (a label no one reads is still bounded)."""
        self.read.add(name)
        value = self.data.get(name, default)
        if isinstance(value, str) and len(value) > MAX_TEXT_CHARS:
            raise self._text_error(name, value)
        return value

    def section(self, name: str) -> Fields:
        """The nested object ``name``."""
        child = Fields(self.file, self.raw(name), self.key(name), self.ranges)
        self._sections.append(child)
        return child

    def reject_unknown(self) -> None:
        """An error for a key of this object (or of a section read from it) that the loader
        never asked for: a misspelt key (``legs.uper``) must not be ignored silently, its
        default or its twin used instead. Keys starting with ``_`` are comments."""
        for name in self.data:
            if name in self.read or name.startswith("_"):
                continue
            # a key is quoted short and escaped (the HUD wraps the message every frame after
            # F5: a 200 KB key quoted whole would make a 200 KB message and stall the game)
            shown = ascii(name[:MAX_KEY_SHOWN])[1:-1] + ("…" if len(name) > MAX_KEY_SHOWN else "")
            near = difflib.get_close_matches(name[:MAX_KEY_SHOWN], sorted(self.read), n=1)
            hint = f"did you mean {near[0]!r}? " if near else ""
            known = ", ".join(sorted(self.read))
            message = f"unknown key ({hint}expected one of: {known}; _ for a comment)"
            raise self.error(shown, message)
        for child in self._sections:
            child.reject_unknown()

    def range_of(self, name: str) -> Range:
        """The documented range of field ``name`` from the file's range table."""
        key = re.sub(_INDEX, "", self.key(name))
        if key not in self.ranges:
            raise LookupError(f"{key} has no documented range in the loader's range table")
        return self.ranges[key]

    def number(self, name: str, *, low: float | None = None, high: float | None = None) -> float:
        """A finite number within the field's documented range (:meth:`range_of`).

        ``low`` / ``high`` narrow it further where the bound depends on another field.
        """
        value = self.raw(name)
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise self.error(name, f"expected a number, found {describe(value)}")
        v = float(value)
        if not math.isfinite(v):
            raise self.error(name, f"expected a finite number, found {value!r}")
        bounds = self.range_of(name)
        if low is not None or high is not None:
            bounds = Range(
                max(bounds.low, bounds.low if low is None else low),
                min(bounds.high, bounds.high if high is None else high),
                bounds.unit,
            )
        if not bounds.low <= v <= bounds.high:
            raise self.error(name, f"expected a number in {bounds}, found {value!r}")
        return v

    def length(self, name: str) -> float:
        """A length in metres (its range in the table is > 0)."""
        return self.number(name)

    def fraction(self, name: str) -> float:
        """A number in [0, 1] (and within its documented range)."""
        return self.number(name, low=0.0, high=1.0)

    def text(self, name: str) -> str:
        """A string of at most :data:`MAX_TEXT_CHARS` characters."""
        value = self.raw(name)
        if not isinstance(value, str) or len(value) > MAX_TEXT_CHARS:
            raise self._text_error(name, value)
        return value

    def _text_error(self, name: str, value: Any) -> AssetError:
        return self.error(
            name,
            f"expected a string of at most {MAX_TEXT_CHARS} characters, found {describe(value)}",
        )

    def color(self, name: str) -> Color:
        """A colour: a name from :data:`game.palette.PALETTE` or ``#rrggbb``."""
        value = self.text(name)
        if value in PALETTE:
            return PALETTE[value]
        digits = value[1:]
        if value.startswith("#") and len(digits) == 6 and set(digits) <= set(string.hexdigits):
            rgb = int(digits, 16)  # six hex digits: 0 … 0xFFFFFF, no sign, no underscores
            return (rgb >> 16) & 255, (rgb >> 8) & 255, rgb & 255
        raise self.error(
            name, f"expected a palette colour name or #rrggbb, found {describe(value)}"
        )

    def points(self, name: str) -> NDArray[np.float64]:
        """A list of ``[x, y]`` number pairs, shape ``(M, 2)``.

        The table gives the count's range under ``name`` and each coordinate's under
        ``name.x`` and ``name.y``.
        """
        value = self.raw(name)
        count = self.range_of(name)
        if not isinstance(value, list) or not count.low <= len(value) <= count.high:
            raise self.error(
                name,
                f"expected a list of {count.low:g} to {count.high:g} [x, y] points, "
                f"found {describe(value)}",
            )
        x_range, y_range = self.range_of(f"{name}.x"), self.range_of(f"{name}.y")
        for index, p in enumerate(value):
            ok = (
                isinstance(p, list)
                and len(p) == 2
                and all(isinstance(v, int | float) and not isinstance(v, bool) for v in p)
                and x_range.low <= p[0] <= x_range.high
                and y_range.low <= p[1] <= y_range.high
            )
            if not ok:
                raise AssetError(
                    self.file,
                    f"{self.key(name)}[{index}]",
                    f"expected a point [x, y] with x in {x_range} and y in {y_range}, "
                    f"found {_describe_point(p)}",
                )
        return np.asarray(value, dtype=float)


def _describe_point(p: Any) -> str:
    if isinstance(p, list) and len(p) <= 3:
        return "[" + ", ".join(describe(v) for v in p) + "]"
    return describe(p)
