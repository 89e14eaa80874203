"""Recognising one plain float64 limb, so it can skip numpy (per-call overhead dominates one limb).

These helpers only *recognise* simple valid input; anything else (arrays of other dtypes,
batches, bad values) returns ``None`` and goes through the other paths, which validate and raise.
"""

from __future__ import annotations

import numpy as np

_FLOAT64 = np.dtype(np.float64)


def point(value: object, dim: int) -> list[float] | None:
    """``value`` as ``dim`` floats if it is a plain float64 point, else None.

    Finiteness is not checked here: the caller sums every float once (a sum is finite only if
    every term is; an overflowing sum of finite terms merely takes the other paths).

    Parameters
    ----------
    value : object
        A tuple or list of Python numbers, or a float64 ndarray of shape ``(dim,)``.
    dim : int
        The required length.

    Returns
    -------
    list of float, or None
    """
    if type(value) is np.ndarray:  # exact types: one check each, subclasses take the array path
        kind = value.dtype
        if value.shape != (dim,) or (kind is not _FLOAT64 and kind != _FLOAT64):
            return None
        return value.tolist()
    if isinstance(value, tuple | list) and len(value) == dim:
        coords = numbers(*value)
        return None if coords is None else list(coords)
    return None


def numbers(*values: object) -> tuple[float, ...] | None:
    """``values`` as floats if each is a Python float or int (or a float64 scalar), else None."""
    for value in values:
        if type(value) is not float:
            break
    else:  # the common case: one type check per value
        return values  # type: ignore[return-value]
    if all(isinstance(v, float | int) and not isinstance(v, bool) for v in values):
        return tuple(map(float, values))  # type: ignore[arg-type]
    return None


def reach_options_valid(upper: float, lower: float, softness: float, max_stretch: float) -> bool:
    """The lengths and reach options the array path would accept (all four finite)."""
    return upper > 0.0 and lower > 0.0 and 0.0 <= softness < upper + lower and max_stretch >= 1.0
