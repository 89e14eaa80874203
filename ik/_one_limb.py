"""Recognising one plain float64 limb, so it can skip numpy (per-call overhead dominates one limb).

These helpers only *recognise* simple valid input; anything else (arrays of other dtypes,
batches, bad values) returns ``None`` and goes through the other paths, which validate and raise.
"""

from __future__ import annotations

import numpy as np

_FLOAT64 = np.dtype(np.float64)
_NDARRAY = np.ndarray
_SHAPES = {2: (2,), 3: (3,)}


def point(value: object, dim: int) -> list[float] | None:
    """``value`` as ``dim`` floats if it is a plain float64 point, else None.

    Finiteness is not checked here (see :func:`limb`).

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


def limb(
    dim: int,
    root: object,
    target: object,
    upper_len: object,
    lower_len: object,
    softness: object,
    max_stretch: object,
) -> list[float] | None:
    """Root and target coordinates, then the lengths and reach options, as one list of finite
    floats, if they are plain float64 input the array path would accept, else None.

    Parameters
    ----------
    dim : int
        Coordinates per point.
    root, target : object
        See :func:`point`.
    upper_len, lower_len, softness, max_stretch : object
        Python numbers.

    Returns
    -------
    list of float, or None
        ``dim`` root coordinates, ``dim`` target coordinates, then
        ``upper_len, lower_len, softness, max_stretch``.
    """
    if (  # the common case first, in one expression: two float64 (dim,) arrays
        type(root) is _NDARRAY
        and type(target) is _NDARRAY
        and root.dtype is _FLOAT64
        and target.dtype is _FLOAT64
        and root.shape == target.shape == _SHAPES[dim]
    ):
        floats = root.tolist() + target.tolist()
    else:
        r, t = point(root, dim), point(target, dim)
        if r is None or t is None:
            return None
        floats = r + t
    if (
        type(upper_len) is float
        and type(lower_len) is float
        and type(softness) is float
        and type(max_stretch) is float
    ):
        upper, lower, s, k = upper_len, lower_len, softness, max_stretch
    else:
        plain = numbers(upper_len, lower_len, softness, max_stretch)
        if plain is None:
            return None
        upper, lower, s, k = plain
    total = sum(floats) + upper + lower + s + k
    # a sum is finite only if every term is (an overflowing sum of finite terms is rejected too,
    # and merely takes the other paths); x - x is 0 for finite x and NaN for NaN or inf
    if total - total != 0.0 or not (upper > 0.0 and lower > 0.0 and 0.0 <= s < upper + lower):
        return None
    if not k >= 1.0:
        return None
    floats += (upper, lower, s, k)
    return floats


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
