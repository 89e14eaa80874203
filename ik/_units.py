"""The boundary (array_likes to checked float arrays, or an error naming the argument, what was
expected and what arrived) and the first stages at any magnitude: each limb in units of a power
of two near its size, directions as ``hypot`` finds them (scaling by a power of two is exact).
Inside ``SAFE`` every square, Heron's product of four lengths and ``eps²`` of them stays normal,
so a batch wholly inside is solved as given (the same bits as rescaled); otherwise each limb is
rescaled so its longest bone is in ``[0.5, 1)``."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any, TypeAlias

import numpy as np
import numpy.typing as npt
from numpy.typing import ArrayLike

FloatArray = npt.NDArray[np.floating]


def float_dtype(*values: object) -> np.dtype:
    """The dtype a solve computes in: the floating arrays decide (Python floats are weak, as in
    numpy): float32 stays float32, integers compute in float64, float16 widens to float32."""
    arrays = set()
    for value in values:
        if value is None or isinstance(value, bool | int | float):
            continue
        try:
            dtype = value.dtype if isinstance(value, np.ndarray | np.generic) else None
            dtype = np.asarray(value).dtype if dtype is None else dtype
        except (ValueError, OverflowError, TypeError):  # reported, with its name, by to_array
            continue
        if dtype.kind == "f":
            arrays.add(dtype)
    return np.promote_types(np.result_type(*arrays), np.float32) if arrays else np.dtype(float)


def to_array(name: str, value: ArrayLike | None, dtype: np.dtype) -> FloatArray:
    """``value`` as an array of ``dtype``; ``TypeError`` for None and bools, ``ValueError`` for
    non-numbers, ragged nesting and magnitudes beyond ``dtype``'s range."""
    if value is None or isinstance(value, bool | np.bool_):
        raise TypeError(f"{name}: expected real numbers, got {value!r}")
    try:
        raw = np.asarray(value)
    except ValueError:
        raise ValueError(f"{name}: expected a rectangular array_like, got ragged nesting") from None
    if raw.dtype.kind == "O":  # Python ints beyond int64, or objects that are not numbers
        try:
            raw = raw.astype(np.float64)
        except (OverflowError, TypeError, ValueError) as error:
            raise ValueError(f"{name}: expected real numbers in float range ({error})") from None
    if raw.dtype.kind == "b":
        raise TypeError(f"{name}: expected real numbers, got booleans")
    if raw.dtype.kind not in "iuf":
        raise ValueError(f"{name}: expected real numbers, got an array of dtype {raw.dtype}")
    cast = raw.astype(dtype, copy=False)
    if cast.dtype != raw.dtype and raw.size and np.isinf(cast).any() and np.isfinite(raw).all():
        raise ValueError(
            f"{name}: {raw.flat[np.argmax(np.isinf(cast))]!r} is beyond {dtype}'s range"
        )
    return cast


def to_points(
    name: str, value: ArrayLike | None, dim: int, dtype: np.dtype
) -> tuple[FloatArray, float]:
    """``value`` as finite points of shape ``(..., dim)`` (or a ``ValueError`` naming it), and
    the largest magnitude of a coordinate."""
    points = to_array(name, value, dtype)
    if points.ndim == 0 or points.shape[-1] != dim:
        raise ValueError(
            f"{name}: expected an array_like of shape (..., {dim}), got shape {points.shape}"
        )
    lowest, highest = extent(points)
    if not (-math.inf < lowest and highest < math.inf):
        require(name, points, np.isfinite(points), "finite coordinates")
    return points, max(-lowest, highest, 0.0)


def batch_shape(shapes: Mapping[str, tuple[int, ...]]) -> tuple[int, ...]:
    """The common broadcast shape of the arguments' batch shapes, or a ``ValueError``."""
    try:
        return np.broadcast_shapes(*shapes.values())
    except ValueError:
        listed = ", ".join(f"{name} {shape}" for name, shape in shapes.items())
        raise ValueError(
            f"{', '.join(shapes)}: expected batch shapes that broadcast together, got {listed}"
        ) from None


def extent(values: FloatArray) -> tuple[float, float]:
    """The lowest and highest value, ``(inf, -inf)`` for none (two reductions, no temporaries;
    NaN if any value is)."""
    lowest = np.minimum.reduce(values, axis=None, initial=math.inf)
    highest = np.maximum.reduce(values, axis=None, initial=-math.inf)
    return float(lowest), float(highest)


def finite(values: FloatArray) -> bool:
    """Every value finite (:func:`extent`)."""
    lowest, highest = extent(values)
    return -math.inf < lowest and highest < math.inf


def require(name: str, values: FloatArray, ok: npt.NDArray[np.bool_], expected: str) -> None:
    """Raise a ``ValueError`` quoting the first value (and its index) where ``ok`` is False."""
    if not ok.all():
        ok_b, values_b = np.broadcast_arrays(ok, values)
        index = tuple(int(i) for i in np.argwhere(~ok_b)[0])
        raise ValueError(
            f"{name}: expected {expected}, got {values_b[index].item()!r} at index {index}"
        )


def check_limbs(
    dim: int, points: Mapping[str, ArrayLike | None], values: Mapping[str, ArrayLike]
) -> tuple[np.dtype, tuple[int, ...], dict[str, FloatArray], dict[str, FloatArray], bool]:
    """The working dtype, the batch shape, the points and the values, converted and checked (an
    error names the first bad one: points ``(..., dim)``, finite; batch shapes that broadcast;
    lengths positive, finite; ``0 <= softness < L1 + L2``; ``1 <= max_stretch`` finite; ``bend``
    +-1; the rest finite), and whether every coordinate and length is inside ``SAFE``."""
    dtype = float_dtype(*points.values(), *values.values())
    low, high = SAFE.get(dtype, SAFE[np.dtype(np.float64)])
    arrays, largest = {}, 0.0
    for name, value in points.items():
        arrays[name], magnitude = to_points(name, value, dim, dtype)
        largest = max(largest, magnitude)
    safe = largest <= high
    scalars = {name: to_array(name, value, dtype) for name, value in values.items()}
    shape = batch_shape(
        {name: a.shape[:-1] for name, a in arrays.items()}
        | {name: a.shape for name, a in scalars.items()}
    )
    for name, v in scalars.items():
        lowest, highest = extent(v)
        if name in ("upper_len", "lower_len"):
            if not (0.0 < lowest and highest < math.inf):
                require(name, v, np.isfinite(v) & (v > 0.0), "positive finite lengths")
            safe = safe and low <= lowest and highest <= high
        elif name == "max_stretch" and not (1.0 <= lowest and highest < math.inf):
            require(name, v, np.isfinite(v) & (v >= 1.0), "finite values >= 1")
        elif name == "bend":
            require(name, v, np.abs(v) == 1.0, "+1 or -1")
        elif name != "softness" and not (-math.inf < lowest and highest < math.inf):
            require(name, v, np.isfinite(v), "finite values")
    softness = scalars["softness"]
    if softness.ndim or softness[()] != 0.0:
        # half of each length first: their sum stays finite at any magnitude
        span = scalars["upper_len"] * 0.5 + scalars["lower_len"] * 0.5
        ok = np.isfinite(softness) & (softness >= 0.0) & (softness * 0.5 < span)
        require("softness", softness, ok, "0 <= softness < upper_len + lower_len")
    return dtype, shape, arrays, scalars, safe


Values: TypeAlias = Any
"""Per-limb values: an ndarray of shape (n,) (or (D, n) for vectors), or one shared scalar."""

SAFE: dict[np.dtype, tuple[float, float]] = {
    np.dtype(np.float64): (2.0**-200, 2.0**200),
    np.dtype(np.float32): (2.0**-16, 2.0**16),
}
"""Magnitudes solved without rescaling, by dtype (any wider dtype uses float64's)."""


def to_units(x: Values, k: Values | None) -> Values:
    """``x / 2^k`` (exact unless it leaves the normal range: a distance far beyond the limb may
    become inf, which the stages handle as "beyond reach"), or ``x`` when ``k`` is None."""
    return x if k is None else from_units(x, -k)


def from_units(x: Values, k: Values | None) -> Values:
    """``x * 2^k`` (inf beyond the dtype's range: the caller reports it), or ``x``."""
    if k is None:
        return x
    with np.errstate(over="ignore"):
        return np.ldexp(x, k)


def dot(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``a . b`` of component-major vectors, (D, ...) to (...), summed left to right as the one-limb
    path sums (``einsum``'s order depends on the batch: near full extension a last-bit
    difference moves the elbow by ~sqrt(eps) L)."""
    total = a[0] * b[0]
    for k in range(1, len(a)):
        total += a[k] * b[k]
    return total


def aim(v: np.ndarray, unit: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """``|v|`` (inf beyond the dtype's range: the caller reports it) and ``v / |v|`` (0 for 0) of
    vectors ``(D, n)`` of any finite size; not ``unit``: ``|v|²`` and ``v`` if all are safe."""
    low, high = SAFE.get(v.dtype, SAFE[np.dtype(np.float64)])
    with np.errstate(over="ignore"):  # an overflow fails the range check below
        len2 = dot(v, v)  # |v|² = Σ v_i² (Pythagoras)
    lowest, highest = extent(len2)
    if low * low <= lowest and highest <= high * high:  # no square overflowed or lost digits
        if not unit:
            return len2, v
        length = np.sqrt(len2)
        return length, v * (1.0 / length)
    # hypot's trick: divide by the power of two of the largest component, so the squares are O(1)
    k = np.frexp(np.max(np.abs(v), axis=0))[1]
    v = np.ldexp(v, -k)
    length = np.sqrt(dot(v, v))  # in [0.5, sqrt(D)), or 0 for a zero vector
    v = v / np.where(length > 0.0, length, 1.0)
    return (from_units(length, k) if unit else dot(v, v)), v


def toward(point: np.ndarray, root: np.ndarray, safe: bool) -> tuple[np.ndarray, np.ndarray]:
    """:func:`aim`, not ``unit``, of the direction from ``root`` to ``point`` ``(D, n)``; where
    ``point - root`` overflows (never when ``safe``), of the halves' difference."""
    with np.errstate(over="ignore"):
        w = point - root
    if not (safe or finite(w)):
        w = np.where(np.isfinite(w).all(axis=0), w, point * 0.5 - root * 0.5)
    return aim(w, unit=False)


def enter(
    eps: float, safe: bool, root: Any, target: Any, upper: Values, lower: Values, softness: Any
) -> tuple[Any, ...]:
    """The first two stages (points ``(D, m)``): units, the power of two ``k`` with ``max(L1,
    L2) = f 2^k``, ``f`` in ``[0.5, 1)`` (None when ``safe``; docs/MATH.md §9); aim, φ as the unit ``u``
    of target − root, +x within eps·L of the root (its direction is rounding noise there).
    Returns ``units, upper, lower, softness, distance, u, d, degenerate`` (``d`` in units)."""
    units = None if safe else np.frexp(np.maximum(upper, lower))[1]
    upper, lower = to_units(upper, units), to_units(lower, units)
    softness = None if softness is None else to_units(softness, units)
    with np.errstate(over="ignore"):
        offset = target - root
    if not (safe or finite(offset)):
        raise ValueError(f"target: target - root is beyond {offset.dtype}'s range")
    distance, u = aim(offset)
    if not (safe or finite(distance)):
        raise ValueError(
            f"target: |target - root| is beyond {offset.dtype}'s range ({np.finfo(offset.dtype).max:.3g})"
        )
    d = to_units(distance, units)
    degenerate = d <= eps * (upper + lower)
    if np.any(degenerate):
        u = np.where(degenerate, np.eye(len(u), 1, dtype=u.dtype), u)  # +x
    return units, upper, lower, softness, distance, u, d, degenerate
