"""The first stages, at any magnitude: each limb in units of a power of two near its size,
directions of vectors of any size as ``hypot`` finds them (scaling by a power of two is exact).
Inside ``SAFE`` every square, Heron's product of four lengths and ``eps²`` of them stays a
normal number, so a batch whose coordinates and lengths all lie there is solved as given (the
same bits as rescaled); otherwise each limb is rescaled so its longest bone is in ``[0.5, 1)``."""

from __future__ import annotations

from typing import Any, TypeAlias

import numpy as np

from ik._checks import extent, finite

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
    if k is None:
        return x
    with np.errstate(over="ignore"):
        return np.ldexp(x, -k)


def from_units(x: Values, k: Values | None) -> Values:
    """``x * 2^k`` (inf beyond the dtype's range: the caller reports it), or ``x``."""
    if k is None:
        return x
    with np.errstate(over="ignore"):
        return np.ldexp(x, k)


def dot(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``a . b`` of component-major vectors, (D, ...) to (...), summed left to right as the
    one-limb path sums (``einsum``'s order depends on the batch: a limb alone and in a batch
    differed in the last bit, which near full extension moves the elbow by ~sqrt(eps) L)."""
    total = a[0] * b[0]
    for k in range(1, len(a)):
        total += a[k] * b[k]
    return total


def aim(v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``|v|`` and ``v / |v|`` for component-major vectors ``(D, n)`` of any finite size (``|v|``
    is inf where it exceeds the dtype's range: the caller reports it); a zero vector gets the
    direction 0."""
    low, high = SAFE.get(v.dtype, SAFE[np.dtype(np.float64)])
    with np.errstate(over="ignore"):  # an overflow fails the range check below
        len2 = dot(v, v)  # |v|² = Σ v_i² (Pythagoras)
    lowest, highest = extent(len2)
    if low * low <= lowest and highest <= high * high:  # no square overflowed or lost digits
        length = np.sqrt(len2)
        return length, v * (1.0 / length)
    # hypot's trick: divide by the power of two of the largest component, so the squares are O(1)
    k = np.frexp(np.max(np.abs(v), axis=0))[1]
    v = np.ldexp(v, -k)
    length = np.sqrt(dot(v, v))  # in [0.5, sqrt(D)), or 0 for a zero vector
    return from_units(length, k), v / np.where(length > 0.0, length, 1.0)


def toward(point: np.ndarray, root: np.ndarray, safe: bool) -> np.ndarray:
    """The unit direction from ``root`` to ``point`` (component-major ``(D, n)``), 0 where they
    coincide; where ``point - root`` overflows (never when ``safe``: every coordinate within
    the safe magnitudes), the halves' difference gives the direction."""
    with np.errstate(over="ignore"):
        w = point - root
    if not (safe or finite(w)):
        w = np.where(np.isfinite(w).all(axis=0), w, point * 0.5 - root * 0.5)
    return aim(w)[1]


def enter(
    eps: float, safe: bool, root: Any, target: Any, upper: Values, lower: Values, softness: Any
) -> tuple[Any, ...]:
    """The first two stages (points ``(D, m)``): units, per limb the power of two ``k`` with
    ``max(L1, L2) = f 2^k``, ``f`` in ``[0.5, 1)`` (none when ``safe``); aim, the seed's φ as
    the unit vector ``u`` of target − root, +x where the target is at the root (closer than
    eps·L its direction is rounding noise). Returns ``units, upper, lower, softness, distance,
    u, d, degenerate`` (lengths, softness and ``d`` in units)."""
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
        plus_x = np.zeros((u.shape[0], 1), u.dtype)
        plus_x[0] = 1.0
        u = np.where(degenerate, plus_x, u)
    return units, upper, lower, softness, distance, u, d, degenerate
