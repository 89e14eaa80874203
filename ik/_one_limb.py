"""Recognising one plain limb, so it can skip numpy (per-call overhead dominates one limb).

These helpers only *recognise* simple valid input; anything else (arrays, batches, bad values)
returns ``None`` and goes through the array path, which validates and raises.
"""

from __future__ import annotations

import math

import numpy as np

_FLOAT64 = np.dtype(np.float64)


def point(value: object, dim: int) -> tuple[float, ...] | None:
    """``value`` as ``dim`` finite floats if it is a plain float64 point, else None.

    Parameters
    ----------
    value : object
        A tuple or list of Python numbers, or a float64 ndarray of shape ``(dim,)``.
    dim : int
        The required length.

    Returns
    -------
    tuple of float, or None
    """
    if isinstance(value, np.ndarray):
        kind = value.dtype
        if (kind is not _FLOAT64 and kind != _FLOAT64) or value.shape != (dim,):
            return None
        coords = tuple(value.tolist())
    elif isinstance(value, tuple | list) and len(value) == dim:
        if not all(type(c) is float or type(c) is int for c in value):
            return None
        coords = tuple(map(float, value))
    else:
        return None
    # One check for all: a sum is finite only if every term is (an overflowing sum of finite
    # terms is rejected too, and merely takes the array path).
    return coords if math.isfinite(sum(coords)) else None


def number(value: object) -> float | None:
    """``value`` as a finite float if it is a Python int or float (or a float64 scalar)."""
    kind = type(value)
    if kind is float:  # the common cases first: one type check instead of two isinstance
        return value if math.isfinite(value) else None  # type: ignore[arg-type,return-value]
    if kind is int:
        return float(value)  # type: ignore[arg-type]
    if isinstance(value, float | int) and not isinstance(value, bool) and math.isfinite(value):
        return float(value)
    return None


def reach_options_valid(upper: float, lower: float, softness: float, max_stretch: float) -> bool:
    """The lengths and reach options the array path would accept."""
    return upper > 0.0 and lower > 0.0 and 0.0 <= softness < upper + lower and max_stretch >= 1.0
