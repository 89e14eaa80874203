"""Frame-rate independent smoothing (halflife), the easing curves the gait uses, and the
small array helpers every step calls many times.

Every function works elementwise on scalars or arrays of any shape.
"""

from __future__ import annotations

import math
from typing import Any, TypeVar

import numpy as np
from numpy.typing import ArrayLike, NDArray

from game.world.types import BoolArray, FloatArray

Halflife = TypeVar("Halflife", float, FloatArray)
Blended = TypeVar("Blended", float, FloatArray)


def lerp(a: Blended, b: Blended, t: float) -> Blended:
    """``t`` of the way from ``a`` to ``b``: ``a + (b − a)·t`` (``a`` exactly at 0)."""
    return a + (b - a) * t


def clamp(x: ArrayLike, lo: ArrayLike, hi: ArrayLike) -> FloatArray:
    """``x`` limited to ``[lo, hi]`` elementwise: ``np.clip``'s result (NaN stays NaN) at a
    fraction of its per-call cost on the small arrays a step works on."""
    return np.minimum(np.maximum(x, lo), hi)


def xy(x: ArrayLike, y: ArrayLike) -> FloatArray:
    """Points ``(..., 2)`` from their coordinates (broadcast): ``np.stack([x, y], -1)`` at a
    third of its per-call cost on the small arrays a step works on."""
    out = np.empty(np.broadcast(x, y).shape + (2,))
    out[..., 0] = x
    out[..., 1] = y
    return out


def any_true(mask: ArrayLike) -> bool:
    """Whether any element of ``mask`` is true (non-zero): ``mask.any()`` at a fifth of
    its per-call cost, for the guards that skip a stage no row needs."""
    return bool(np.count_nonzero(mask))


def all_true(mask: ArrayLike) -> bool:
    """Whether every element of ``mask`` is true (non-zero): ``mask.all()`` at a fraction
    of its per-call cost."""
    return bool(np.count_nonzero(mask) == np.size(mask))


# the most columns _over_last reduces by columns: numpy reduces a longer row in another
# order (unrolled), which can keep the other of a −0.0 and a 0.0
_MOST_COLUMNS = 8


def _over_last(ufunc: np.ufunc, a: ArrayLike) -> NDArray[Any]:
    """``ufunc.reduce(a, axis=-1)``, the same numbers. numpy reduces a short last axis row
    by row (~30 ns a row), so for many rows a call per column (~1 µs each) is cheaper: for
    a crowd's (1,575, 2) feet ~1 µs against ~54 µs, (1,575, 8) ~13 against ~70 µs. For a
    lone walker's few rows numpy's reduction is cheaper, but for two columns."""
    arr = np.asarray(a)
    columns = arr.shape[-1] if arr.ndim else 0
    few_rows = columns > 2 and arr.size < 32 * columns * (columns - 1)
    if not 2 <= columns <= _MOST_COLUMNS or few_rows:
        return np.asarray(ufunc.reduce(arr, axis=-1))
    out = ufunc(arr[..., 0], arr[..., 1])
    for column in range(2, columns):
        ufunc(out, arr[..., column], out=out)
    return np.asarray(out)


# sizes from which by_column and wrap01 take their cheaper way for many numbers (below,
# numpy's cost a call outweighs it: a lone walker's arrays)
_BY_COLUMN_FROM = 256
_FLOOR_FROM = 32


def by_column(ufunc: np.ufunc, x: ArrayLike, column: FloatArray) -> FloatArray:
    """``ufunc(x[..., None], column)`` for a short ``column`` (K,), shape ``x.shape + (K,)``:
    a call per column, the same numbers (numpy broadcasts an (N, 1) against a (K,) in
    small buffered chunks: for 1,575 rows of two, ~17 µs against ~4)."""
    values = np.asarray(x)
    if values.size < _BY_COLUMN_FROM:  # (a few numbers: one broadcast call is cheaper)
        return np.asarray(ufunc(values[..., None], column))
    out = np.empty(values.shape + (len(column),))
    for k, value in enumerate(column):
        ufunc(values, value, out=out[..., k])
    return out


def wrap01(x: ArrayLike) -> FloatArray:
    """``x % 1.0``, the same numbers (``x − ⌊x⌋`` is the nearest double to the exact fraction,
    as numpy's remainder gives it; +0.0 at integers, NaN at ±inf) at a tenth of its cost."""
    values = np.asarray(x, dtype=float)
    if values.size < _FLOOR_FROM:  # (a few numbers: one call is cheaper than two)
        return np.asarray(values % 1.0)
    return values - np.floor(values)


def max_last(a: ArrayLike) -> FloatArray:
    """``a.max(axis=-1)`` (NaN wins, as there), cheap for a short last axis."""
    return _over_last(np.maximum, a)


def min_last(a: ArrayLike) -> FloatArray:
    """``a.min(axis=-1)`` (NaN wins, as there), cheap for a short last axis."""
    return _over_last(np.minimum, a)


def any_last(a: ArrayLike) -> BoolArray:
    """``a.any(axis=-1)``, cheap for a short last axis."""
    return _over_last(np.logical_or, a)


def all_last(a: ArrayLike) -> BoolArray:
    """``a.all(axis=-1)``, cheap for a short last axis."""
    return _over_last(np.logical_and, a)


def finite_clamp(x: ArrayLike, lo: float, hi: float) -> FloatArray:
    """``x`` as floats limited to ``[lo, hi]``, NaN read as 0 (±inf clamps to the ends):
    outside input of any kind becomes a usable value."""
    values = np.asarray(x, dtype=float)
    return clamp(np.where(np.isnan(values), 0.0, values), lo, hi)


def halflife_blend(dt: float, halflife: Halflife) -> Halflife:
    """The fraction of the remaining gap closed in ``dt``: ``x += (target − x)·blend``.

    After one ``halflife`` half the gap is left whatever the step size, so smoothing is
    frame-rate independent.
    """
    # exponential decay with a halflife: gap(t) = gap(0)·2^(−t/h), so closed = 1 − 2^(−dt/h)
    return 1.0 - 2.0 ** (-dt / halflife)


def halflife_travel(
    v0: ArrayLike, v_target: ArrayLike, duration: ArrayLike, halflife: ArrayLike
) -> FloatArray:
    """Distance covered in ``duration`` by a velocity chasing ``v_target`` with ``halflife``.

    Returns the broadcast shape of the inputs.
    """
    v0, v_target, duration = (np.asarray(a, dtype=float) for a in (v0, v_target, duration))
    # ∫₀ᵀ v_t + (v0 − v_t)·2^(−t/h) dt = v_t·T + (v0 − v_t)·(1 − 2^(−T/h))·h / ln 2
    decay = 2.0 ** (-duration / halflife)
    return v_target * duration + (v0 - v_target) * (1.0 - decay) * halflife / math.log(2.0)


def braking_travel(v0: ArrayLike, duration: ArrayLike, halflife: float, brake: float) -> FloatArray:
    """Distance covered in ``duration`` (``np.inf``: until stopped) by a velocity braking to
    zero by ``halflife``, but at least ``brake`` m/s² (the tail a halflife would crawl through
    ends at a constant deceleration). Signed like ``v0``; broadcast shape of the inputs.
    """
    v0, duration = np.asarray(v0, dtype=float), np.asarray(duration, dtype=float)
    k = math.log(2.0) / halflife  # the halflife's deceleration is k·|v|
    speed = np.abs(v0)
    v_switch = brake / k  # below this speed the constant brake is the stronger
    # exponential phase (from |v0| down to v_switch): dv/dt = −k·v
    t1 = np.log(np.maximum(speed, v_switch) / v_switch) / k
    early = np.minimum(duration, t1)
    d1 = speed * (1.0 - np.exp(-k * early)) / k
    # constant phase: v(t) = v1 − brake·t until 0
    v1 = np.minimum(speed, v_switch)
    late = clamp(duration - t1, 0.0, v1 / brake)
    d2 = np.where(duration > t1, v1 * late - 0.5 * brake * late * late, 0.0)
    return np.sign(v0) * (d1 + d2)


def smoothstep(t: ArrayLike) -> FloatArray:
    """3t² − 2t³ on ``t`` clamped to [0, 1]: zero slope at both ends."""
    u = clamp(t, 0.0, 1.0)
    return u * u * (3.0 - 2.0 * u)


def smootherstep(t: ArrayLike) -> FloatArray:
    """6t⁵ − 15t⁴ + 10t³ on ``t`` clamped to [0, 1]: zero slope and curvature at both ends."""
    u = clamp(t, 0.0, 1.0)
    return u * u * u * (u * (6.0 * u - 15.0) + 10.0)
