"""Validation of the arguments every two-bone solve shares (points, lengths, reach options)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from ik._validate import (
    FloatArray,
    batch_shape,
    float_dtype,
    require,
    to_array,
    to_points,
    within,
)


class Limbs(NamedTuple):
    """Validated solve arguments, converted to the working dtype (not yet broadcast)."""

    dtype: np.dtype
    """Working float dtype."""
    shape: tuple[int, ...]
    """Broadcast batch shape."""
    points: dict[str, FloatArray]
    """Point arguments, shape ``(..., D)`` (an optional point left as None is absent)."""
    values: dict[str, FloatArray]
    """Per-limb arguments, shape ``(...)``."""


def check_limbs(
    dim: int,
    points: Mapping[str, npt.ArrayLike | None],
    values: Mapping[str, npt.ArrayLike],
) -> Limbs:
    """Convert and validate a solve's arguments, or raise a ``ValueError`` naming the first bad one.

    Checks: point shapes ``(..., dim)`` and finite coordinates; batch shapes that broadcast;
    ``upper_len`` and ``lower_len`` positive and finite; ``softness`` finite in
    ``[0, upper_len + lower_len)``; ``max_stretch`` finite and ``>= 1``; every other value finite.

    Parameters
    ----------
    dim : int
        Coordinates per point (2 or 3).
    points : mapping of str to array_like, shape (..., dim), or None
        The point arguments by name.
    values : mapping of str to array_like, shape (...)
        The per-limb arguments by name; must include ``upper_len``, ``lower_len``,
        ``softness`` and ``max_stretch``.

    Returns
    -------
    Limbs
    """
    dtype = float_dtype(*points.values(), *values.values())
    arrays = {
        name: to_points(name, value, dim, dtype)
        for name, value in points.items()
        if value is not None
    }
    scalars = {name: to_array(name, value, dtype) for name, value in values.items()}
    shape = batch_shape(
        {name: a.shape[:-1] for name, a in arrays.items()}
        | {name: a.shape for name, a in scalars.items()}
    )
    for name in ("upper_len", "lower_len"):
        length = scalars[name]
        if not within(length, 0.0, strict=True):
            require(name, length, np.isfinite(length) & (length > 0.0), "positive finite lengths")
    softness = scalars["softness"]
    if softness.ndim or softness[()] != 0.0:  # 0 (the default) is valid for any lengths
        span = scalars["upper_len"] + scalars["lower_len"]
        require(
            "softness",
            softness,
            np.isfinite(softness) & (softness >= 0.0) & (softness < span),
            "0 <= softness < upper_len + lower_len",
        )
    stretch = scalars["max_stretch"]
    if not within(stretch, 1.0, strict=False):
        require(
            "max_stretch", stretch, np.isfinite(stretch) & (stretch >= 1.0), "finite values >= 1"
        )
    for name, value in scalars.items():
        if name not in _RANGE_CHECKED and not within(value, -math.inf, strict=True):
            require(name, value, np.isfinite(value), "finite values")
    return Limbs(dtype, shape, arrays, scalars)


_RANGE_CHECKED = frozenset({"upper_len", "lower_len", "softness", "max_stretch"})
"""Arguments whose range checks above already reject non-finite values."""


def optional(values: FloatArray, off: float) -> FloatArray | None:
    """None when an option is a single value that turns it off (so the kernel skips it)."""
    return None if values.ndim == 0 and values[()] == off else values
