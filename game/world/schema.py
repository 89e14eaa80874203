"""Typed reads out of a parsed JSON asset: every bad value names the file, the key and why.

A :class:`Fields` wraps one JSON object and the key path that leads to it (``legs``), so a
loader reads ``fields.section("legs").length("upper")`` and a bad value raises
:class:`game.assets.AssetError` with the key ``legs.upper`` and ``expected … found …``.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from game.assets import AssetError
from game.palette import PALETTE, Color


def describe(value: Any) -> str:
    """A short human description of a JSON value for error messages (``a string 'abc'``)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return f"a boolean {str(value).lower()}"
    if isinstance(value, int | float):
        return f"the number {value!r}"
    if isinstance(value, str):
        return f"a string {value!r}"
    if isinstance(value, list):
        return f"a list of {len(value)}"
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
    """

    def __init__(self, file: str | Path, data: Any, path: str = "") -> None:
        self.file = file
        self.path = path
        if not isinstance(data, dict):
            raise AssetError(
                file, path or "(top level)", f"expected an object, found {describe(data)}"
            )
        self.data: dict[str, Any] = data

    def key(self, name: str) -> str:
        """The full key path of ``name`` (``legs.upper``)."""
        return f"{self.path}.{name}" if self.path else name

    def error(self, name: str, message: str) -> AssetError:
        """An :class:`AssetError` about key ``name`` of this object."""
        return AssetError(self.file, self.key(name), message)

    def raw(self, name: str) -> Any:
        """The value of ``name``; a missing key is an error."""
        if name not in self.data:
            raise self.error(name, "missing (required key)")
        return self.data[name]

    def section(self, name: str) -> Fields:
        """The nested object ``name``."""
        return Fields(self.file, self.raw(name), self.key(name))

    def number(
        self,
        name: str,
        *,
        positive: bool = False,
        low: float | None = None,
        high: float | None = None,
    ) -> float:
        """A finite number, optionally > 0 and within ``[low, high]``."""
        value = self.raw(name)
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise self.error(name, f"expected a number, found {describe(value)}")
        v = float(value)
        if not math.isfinite(v):
            raise self.error(name, f"expected a finite number, found {value!r}")
        if positive and v <= 0:
            raise self.error(name, f"expected a length > 0, found {value!r}")
        if (low is not None and v < low) or (high is not None and v > high):
            raise self.error(name, f"expected a number in [{low}, {high}], found {value!r}")
        return v

    def length(self, name: str) -> float:
        """A length in metres (a number > 0)."""
        return self.number(name, positive=True)

    def fraction(self, name: str) -> float:
        """A number in [0, 1]."""
        return self.number(name, low=0.0, high=1.0)

    def text(self, name: str) -> str:
        """A string."""
        value = self.raw(name)
        if not isinstance(value, str):
            raise self.error(name, f"expected a string, found {describe(value)}")
        return value

    def color(self, name: str) -> Color:
        """A colour: a name from :data:`game.palette.PALETTE` or ``#rrggbb``."""
        value = self.text(name)
        if value in PALETTE:
            return PALETTE[value]
        digits = value[1:]
        if value.startswith("#") and len(digits) == 6:
            try:
                rgb = int(digits, 16)
            except ValueError:
                pass
            else:
                return (rgb >> 16) & 255, (rgb >> 8) & 255, rgb & 255
        raise self.error(
            name, f"expected a palette colour name or #rrggbb, found {describe(value)}"
        )

    def points(self, name: str, minimum: int = 2) -> NDArray[np.float64]:
        """A list of ``[x, y]`` number pairs, shape ``(M, 2)`` with ``M >= minimum``."""
        value = self.raw(name)
        if not isinstance(value, list) or len(value) < minimum:
            raise self.error(
                name,
                f"expected a list of at least {minimum} [x, y] points, found {describe(value)}",
            )
        for index, p in enumerate(value):
            ok = (
                isinstance(p, list)
                and len(p) == 2
                and all(isinstance(v, int | float) and not isinstance(v, bool) for v in p)
                and all(math.isfinite(float(v)) for v in p)
            )
            if not ok:
                raise AssetError(
                    self.file,
                    f"{self.key(name)}[{index}]",
                    f"expected a point [x, y] of two finite numbers, found {describe(p)}",
                )
        return np.asarray(value, dtype=float)
