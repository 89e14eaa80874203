"""Boundary checks: turn array_likes into float arrays or fail with a message that names the
argument, what was expected and what arrived."""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.floating]


def float_dtype(*values: object) -> np.dtype:
    """The dtype a solve computes and returns in.

    The floating inputs decide (Python floats are weak, as in numpy's own promotion), so
    float32 in gives float32 out; integer-only input computes in float64; half precision is
    widened to float32, which the formulas need.

    Parameters
    ----------
    *values : object
        The raw arguments (array_likes or ``None``).

    Returns
    -------
    numpy.dtype
        float32 or float64 (or wider, if given).
    """
    floating: list[np.dtype | float] = []
    arrays: set[np.dtype] = set()
    for value in values:
        kind = type(value)
        if value is None or kind is bool or kind is int:
            continue
        if kind is float:
            floating.append(value)  # type: ignore[arg-type]
            continue
        if isinstance(value, bool | int):
            continue
        # arrays, numpy scalars (np.float64 too, a float subclass: strong, unlike a Python float)
        dtype = value.dtype if isinstance(value, np.ndarray) else np.asarray(value).dtype
        if dtype.kind == "f":
            floating.append(dtype)
            arrays.add(dtype)
    if not arrays:  # integers and Python floats only
        return np.dtype(np.float64)
    if len(arrays) == 1:  # one array dtype: Python floats are weak beside it, so it decides
        (dtype,) = arrays
        return dtype if dtype.itemsize >= 4 else np.promote_types(dtype, np.float32)
    return np.promote_types(np.result_type(*floating), np.float32)


def to_array(name: str, value: npt.ArrayLike, dtype: np.dtype) -> FloatArray:
    """``value`` as an array of ``dtype``, or a ``ValueError`` for non-numeric input.

    Parameters
    ----------
    name : str
        The argument's name, for the message.
    value : array_like, shape (...)
        The argument.
    dtype : numpy.dtype
        The float dtype to convert to.

    Returns
    -------
    ndarray, shape (...)
    """
    raw = np.asarray(value)
    if raw.dtype.kind not in "biuf":
        raise ValueError(f"{name}: expected real numbers, got an array of dtype {raw.dtype}")
    return raw.astype(dtype, copy=False)


def to_points(name: str, value: npt.ArrayLike, dim: int, dtype: np.dtype) -> FloatArray:
    """``value`` as an array of ``dim``-vectors, checked for shape and finiteness.

    Parameters
    ----------
    name : str
        The argument's name, for the message.
    value : array_like, shape (..., dim)
        The points.
    dim : int
        The required last dimension (2 or 3).
    dtype : numpy.dtype
        The float dtype to convert to.

    Returns
    -------
    ndarray, shape (..., dim)
    """
    points = to_array(name, value, dtype)
    if points.ndim == 0 or points.shape[-1] != dim:
        raise ValueError(
            f"{name}: expected an array_like of shape (..., {dim}), got shape {points.shape}"
        )
    if not within(points, -math.inf, strict=True):
        require(name, points, np.isfinite(points), "finite coordinates")
    return points


def batch_shape(shapes: Mapping[str, tuple[int, ...]]) -> tuple[int, ...]:
    """The common broadcast shape of the per-limb (batch) shapes, or a ``ValueError``.

    Parameters
    ----------
    shapes : mapping of str to tuple of int
        Each argument's batch shape (its shape without the trailing coordinate axis).

    Returns
    -------
    tuple of int
        The broadcast batch shape.
    """
    try:
        return np.broadcast_shapes(*shapes.values())
    except ValueError:
        listed = ", ".join(f"{name} {shape}" for name, shape in shapes.items())
        raise ValueError(
            f"{', '.join(shapes)}: expected batch shapes that broadcast together, got {listed}"
        ) from None


def within(values: FloatArray, low: float, *, strict: bool) -> bool:
    """Whether every value is finite and above ``low`` (``strict``) or at least ``low``.

    Two reductions and no temporaries (NaN propagates through both), or Python comparisons for
    a single value: the cheap test before :func:`require` builds its message.

    Parameters
    ----------
    values : ndarray, shape (...)
        The values.
    low : float
        The lower bound (``-inf`` for finiteness alone).
    strict : bool
        Whether ``low`` itself is excluded.

    Returns
    -------
    bool
    """
    if values.ndim == 0:
        lowest = highest = values.item()
    else:
        lowest = np.minimum.reduce(values, axis=None, initial=math.inf)
        highest = np.maximum.reduce(values, axis=None, initial=-math.inf)
    return bool((lowest > low if strict else lowest >= low) and highest < math.inf)


def require(name: str, values: FloatArray, ok: npt.NDArray[np.bool_], expected: str) -> None:
    """Raise a ``ValueError`` naming the first index where ``ok`` is False.

    Parameters
    ----------
    name : str
        The argument's name, for the message.
    values : ndarray, shape (...)
        The argument's values (for quoting the bad one).
    ok : ndarray of bool, shape (...)
        Which values pass.
    expected : str
        What was expected, in words.
    """
    if ok.all():
        return
    ok_b, values_b = np.broadcast_arrays(ok, values)
    index = tuple(int(i) for i in np.argwhere(~ok_b)[0])
    raise ValueError(
        f"{name}: expected {expected}, got {values_b[index].item()!r} at index {index}"
    )
