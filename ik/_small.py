"""Small batches (and single float32 limbs): arguments as per-limb Python lists, solved limb by limb.

A batch solve in numpy costs ~150 ufunc calls and ~30 more for validation whatever the batch
size, about 100 µs; the scalar kernel solves one limb in 1 to 10 µs. Below a few dozen limbs the
arguments are therefore converted once (``tolist``), checked in Python, and handed to the scalar
kernel limb by limb: on Python floats (``SCALAR``) for float64, on numpy scalars
(``NUMPY_SCALAR``) for float32, so that float32 limbs round exactly as the vector kernel rounds
them.

Like :mod:`ik._one_limb`, this only *recognises* input it can take: other dtypes, a batch too
large, shapes that do not broadcast, or any value the validation would reject return ``None``,
and the caller takes the array path, which validates and raises.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any, NamedTuple

import numpy as np

from ik._ops import NUMPY_SCALAR, SCALAR, Ops
from ik._validate import float_dtype, to_array

_FLOAT64 = np.dtype(np.float64)

LIMIT = {_FLOAT64: 32, np.dtype(np.float32): 4}
"""Largest batch solved limb by limb, per dtype: where it stops beating the vector kernel
(measured with ``benchmarks/bench_solver.py``; a float32 limb costs ~8 µs in numpy scalars)."""

_LARGEST = max(LIMIT.values())
_FLOAT32_MAX = float(np.finfo(np.float32).max)
_FLOAT64_MAX = float(np.finfo(np.float64).max)


class Columns(NamedTuple):
    """Checked solve arguments as per-limb sequences (a shared value is repeated)."""

    ops: Ops
    """The scalar backend for the dtype."""
    dtype: np.dtype
    """Working float dtype."""
    shape: tuple[int, ...]
    """Broadcast batch shape."""
    n: int
    """Number of limbs."""
    points: dict[str, list[list[Any]]]
    """Point arguments: ``D`` coordinate sequences each (an absent optional point is absent)."""
    values: dict[str, list[Any]]
    """Per-limb arguments."""


def columns(dim: int, points: Mapping[str, Any], values: Mapping[str, Any]) -> Columns | None:
    """The arguments of a small valid batch as per-limb sequences, or None for the array path.

    Checks what :func:`ik._limbs.check_limbs` checks, on the values converted to the working
    dtype: point shapes and finite coordinates, broadcasting batch shapes, positive finite
    lengths, ``0 <= softness < upper_len + lower_len`` (the sum rounded to the dtype),
    ``max_stretch >= 1`` and every value finite.

    Parameters
    ----------
    dim : int
        Coordinates per point.
    points : mapping of str to array_like, shape (..., dim), or None
        The point arguments by name.
    values : mapping of str to array_like, shape (...)
        The per-limb arguments by name; must include ``upper_len``, ``lower_len``,
        ``softness`` and ``max_stretch``.

    Returns
    -------
    Columns or None
    """
    if any(isinstance(v, np.ndarray) and v.size > dim * _LARGEST for v in points.values()):
        return None  # too many limbs, seen without converting anything
    dtype = float_dtype(*points.values(), *values.values())
    limit = LIMIT.get(dtype)
    if limit is None:
        return None
    arrays = {}
    for name, value in points.items():
        if value is not None:
            a = arrays[name] = to_array(name, value, dtype)
            if a.ndim == 0 or a.shape[-1] != dim:
                return None
    shared = {}
    for name, value in values.items():
        if type(value) in _PYTHON_NUMBERS:  # one value for every limb: no array needed
            shared[name] = value
        else:
            arrays[name] = to_array(name, value, dtype)
    shape = _batch_shape(
        [a.shape[:-1] if name in points else a.shape for name, a in arrays.items()]
    )
    if shape is None:
        return None
    n = math.prod(shape)
    if not 0 < n <= limit:
        return None
    flat = {
        name: _flat(a, (*shape, dim) if name in points else shape) for name, a in arrays.items()
    }
    for name, value in shared.items():
        converted = _convert(value, dtype)
        if converted is None:
            return None
        flat[name] = [converted] * n
    if not all(_finite(column) for column in flat.values()):
        return None
    if not _reach_options_valid(flat, dtype):
        return None
    ops = SCALAR
    if dtype is not _FLOAT64:  # the same values as numpy scalars of the dtype
        ops, scalar = NUMPY_SCALAR, dtype.type
        flat = {name: list(map(scalar, column)) for name, column in flat.items()}
    return Columns(
        ops,
        dtype,
        shape,
        n,
        {name: [flat[name][k::dim] for k in range(dim)] for name in points if name in flat},
        {name: flat[name] for name in values},
    )


_PYTHON_NUMBERS = frozenset({float, int, bool})


def _convert(value: float, dtype: np.dtype) -> float | None:
    """A Python number as the Python float of its value in ``dtype`` (what ``to_array`` and
    ``tolist`` would give), or None where that conversion would overflow or warn."""
    if dtype is _FLOAT64:
        return float(value) if abs(value) <= _FLOAT64_MAX else None
    return float(dtype.type(value)) if abs(value) <= _FLOAT32_MAX else None


def _batch_shape(shapes: list[tuple[int, ...]]) -> tuple[int, ...] | None:
    """The broadcast shape, or None; quick when each shape is the tail of the longest."""
    if not shapes:
        return ()
    longest = max(shapes, key=len)
    if all(shape == longest[len(longest) - len(shape) :] for shape in shapes):
        return longest
    try:
        return np.broadcast_shapes(*shapes)
    except ValueError:
        return None


def _flat(a: np.ndarray, full: tuple[int, ...]) -> list[Any]:
    """``a`` broadcast to the shape ``full``, flattened (row-major) to Python floats."""
    if a.shape != full[len(full) - a.ndim :]:  # broadcast along an inner axis: rare
        a = np.broadcast_to(a, full)
    # a's shape is now a trailing part of full: repeat it over the leading axes it lacks
    return a.ravel().tolist() * (math.prod(full) // a.size)


def _finite(column: list[Any]) -> bool:
    """Every value finite, from one sum (see :func:`ik._one_limb.finite`)."""
    total = sum(column)
    return bool(total - total == 0.0)


def _reach_options_valid(checked: Mapping[str, list[Any]], dtype: np.dtype) -> bool:
    """Positive lengths, ``0 <= softness < L1 + L2`` (the sum in ``dtype``), ``max_stretch >= 1``."""
    upper, lower = checked["upper_len"], checked["lower_len"]
    softness, stretch = checked["softness"], checked["max_stretch"]
    if min(upper) <= 0.0 or min(lower) <= 0.0 or min(stretch) < 1.0 or min(softness) < 0.0:
        return False
    if not any(softness):  # softness off everywhere: 0 < L1 + L2 holds
        return True
    for u, lo, s in zip(upper, lower, softness, strict=True):
        span = u + lo
        if dtype is not _FLOAT64:
            if span > _FLOAT32_MAX:
                return False
            span = float(np.float32(span))  # the float32 sum, correctly rounded (span is exact)
        if not s < span:
            return False
    return True
