"""Run a per-limb kernel over any batch shape: broadcast, flatten, and evaluate in chunks.

Large batches are evaluated in cache-sized chunks that each kernel step's temporaries fit in,
so the dozens of elementwise passes a solve makes read and write L2 cache instead of memory;
each chunk's results are written once into the preallocated outputs.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from ik._ops import VECTOR, Real

CHUNK = 16384
"""Limbs per chunk: a chunk's float64 temporary is 128 KiB, a few dozen of them fit in L2."""

Column = np.ndarray | np.floating | None
"""One kernel input: a length-n array (one value per limb), a shared scalar, or None (off)."""


def point_columns(points: npt.NDArray[np.floating], shape: tuple[int, ...]) -> list[Column]:
    """Split ``(..., D)`` points into D per-limb columns over the flattened batch.

    Parameters
    ----------
    points : ndarray, shape (..., D)
        Points whose batch shape broadcasts to ``shape``.
    shape : tuple of int
        The batch shape.

    Returns
    -------
    list of ndarray, each shape (n,), or of scalars when ``points`` has shape ``(D,)``
    """
    if points.ndim == 1:
        return [value for value in points]
    if points.shape[:-1] != shape:  # already per limb: no broadcast view needed
        points = np.broadcast_to(points, (*shape, points.shape[-1]))
    flat = points.reshape(-1, points.shape[-1])
    return [flat[:, k] for k in range(points.shape[-1])]


def limb_column(values: npt.NDArray[np.floating], shape: tuple[int, ...]) -> Column:
    """A per-limb value over the flattened batch (a shared scalar when it is 0-d).

    Parameters
    ----------
    values : ndarray, shape (...)
        Values whose shape broadcasts to ``shape``.
    shape : tuple of int
        The batch shape.

    Returns
    -------
    ndarray, shape (n,), or a numpy scalar
    """
    if values.ndim == 0:
        return values[()]
    if values.shape != shape:  # already per limb: no broadcast view needed
        values = np.broadcast_to(values, shape)
    return values.reshape(-1)


def run_chunks(
    kernel: Callable[..., Sequence[Real]],
    args: Sequence[Any],
    n: int,
    layout: Sequence[tuple[npt.DTypeLike, int]],
) -> list[np.ndarray]:
    """Evaluate ``kernel(VECTOR, *args)`` chunk by chunk into preallocated outputs.

    Parameters
    ----------
    kernel : callable
        Returns a flat sequence of per-limb results (scalars broadcast).
    args : sequence
        Kernel arguments after the backend; length-n 1-D arrays are sliced per chunk, anything
        else is passed through whole.
    n : int
        Number of limbs.
    layout : sequence of (dtype, width)
        One entry per output: width 0 for a per-limb scalar (shape ``(n,)``), otherwise the
        number of consecutive kernel results that form a ``(n, width)`` vector.

    Returns
    -------
    list of ndarray
        The outputs, shapes ``(n,)`` or ``(n, width)``.
    """
    outputs = new_outputs(n, layout)
    sliced = [isinstance(arg, np.ndarray) and arg.ndim == 1 for arg in args]
    for start in range(0, n, CHUNK):
        rows = slice(start, min(start + CHUNK, n))
        chunk_args = [arg[rows] if cut else arg for arg, cut in zip(args, sliced, strict=True)]
        results = iter(kernel(VECTOR, *chunk_args))
        for out, (_, width) in zip(outputs, layout, strict=True):
            if width:
                for k in range(width):
                    out[rows, k] = next(results)
            else:
                out[rows] = next(results)
    return outputs


def new_outputs(n: int, layout: Sequence[tuple[npt.DTypeLike, int]]) -> list[np.ndarray]:
    """Uninitialised outputs for ``n`` limbs, shapes ``(n,)`` or ``(n, width)`` (see ``run_chunks``)."""
    return [np.empty((n, width) if width else (n,), dtype) for dtype, width in layout]


def batch_size(shape: tuple[int, ...]) -> int:
    """Number of limbs in a batch shape."""
    return math.prod(shape)
