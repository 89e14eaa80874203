"""What the 2-D and 3-D vector solves share around their stages: per-limb arguments, chunks,
the results in world units."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from ik._checks import check_limbs, within
from ik._units import Values, from_units
from ik.reach import Reach
from ik.solution import Angles, Solution, local_angle
from ik.status import outcome

CHUNK = 8192
"""Limbs per chunk: a stage's temporaries (up to 192 KiB for a 3-D vector) stay few and small
enough that the allocator reuses their memory from call to call; at 16384 a batch of 10^4
page-faulted every call (~500 faults), and much smaller chunks pay numpy's per-call cost (a
solve is ~80 numpy calls a chunk)."""


class PerLimb(NamedTuple):
    """An argument with one value per limb, ``(n,)``, or one point per limb, ``(n, D)``."""

    values: np.ndarray


def per_limb(values: np.ndarray, shape: tuple[int, ...], *, point: bool = False) -> Values:
    """A :class:`PerLimb` argument, or a scalar for one value shared by every limb (its
    arithmetic then stays scalar)."""
    if not point:
        return values[()] if values.ndim == 0 else PerLimb(np.broadcast_to(values, shape).ravel())
    return PerLimb(np.broadcast_to(values, shape + values.shape[-1:]).reshape(-1, values.shape[-1]))


OFF = {"twist": 0.0, "softness": 0.0, "max_stretch": 1.0}
"""Option values that turn a stage off."""


def solve(
    cls: type[Solution],
    dim: int,
    rows: Callable[..., Sequence[np.ndarray]],
    points: Mapping[str, npt.ArrayLike | None],
    values: Mapping[str, npt.ArrayLike],
) -> Solution:
    """Check the arguments, then ``rows(eps, *points, *values)`` chunk by chunk: points
    ``(D, m)`` (a 2-D pole None where not given), values ``(m,)`` or shared scalars, an option
    at its neutral value (``OFF``) None, so its stage is skipped. Its results (see
    :func:`finish`) are copied into one block for the whole batch: separate arrays were
    trimmed and page-faulted afresh on every call (~5 ns a value here, more than the
    arithmetic), and a large block gets transparent huge pages."""
    given = {k: p for k, p in points.items() if p is not None or k != "pole" or dim == 3}
    dtype, shape, checked, scalars = check_limbs(dim, given, values)
    args: list[Values] = [float(np.finfo(dtype).eps)]
    args += [per_limb(checked[k], shape, point=True) if k in checked else None for k in points]
    for name, v in scalars.items():
        off = v.ndim == 0 and v[()] == OFF.get(name)
        args.append(None if off else per_limb(v, shape))
    n = math.prod(shape)
    fields: list[np.ndarray] = []
    for start in range(0, max(n, 1), CHUNK):
        part = slice(start, start + CHUNK)
        # each component of a point contiguous: numpy's fast loops then run along the limbs
        chunk = rows(
            *(np.ascontiguousarray(a.values[part].T) if isinstance(a, PerLimb) else a for a in args)
        )
        fields = fields or _block(chunk, n)
        for field, result in zip(fields, chunk, strict=True):
            field[..., part] = result
        del chunk  # before the next chunk is computed
    return solution(cls, fields, shape)


def _block(chunk: Sequence[np.ndarray], n: int) -> list[np.ndarray]:
    """Arrays with ``n`` entries along the last axis, shaped as ``chunk``'s: the float ones
    rows of one block."""
    dtype = chunk[0].dtype
    counts = [math.prod(f.shape[:-1]) for f in chunk]
    block = np.empty(
        (sum(c for c, f in zip(counts, chunk, strict=True) if f.dtype == dtype), n), dtype
    )
    arrays, row = [], 0
    for count, f in zip(counts, chunk, strict=True):
        if f.dtype != dtype:
            arrays.append(np.empty((*f.shape[:-1], n), f.dtype))
            continue
        arrays.append(block[row : row + count].reshape(*f.shape[:-1], n))
        row += count
    return arrays


def finish(
    root: np.ndarray,
    elbow: np.ndarray,
    hand: np.ndarray,
    units: np.ndarray | None,
    distance: np.ndarray,
    limb: Reach,
    degenerate: Values,
    eps: float,
    frame: tuple[np.ndarray, ...],
) -> tuple[np.ndarray, ...]:
    """The solution's fields for ``m`` limbs (points ``(D, m)``) from the elbow and hand
    offsets from the root in the limbs' units, then ``frame``, what the lazy angles read
    (:func:`ik.solution.local_angle`); or a ``ValueError`` where the answer is beyond the
    dtype's range (``|target - root|`` or a joint)."""
    dtype = elbow.dtype
    if not within(distance, -math.inf, strict=True):
        raise ValueError(
            f"target: |target - root| is beyond {dtype}'s range ({np.finfo(dtype).max:.3g})"
        )
    with np.errstate(over="ignore"):  # reported below
        world_elbow, world_hand = root + from_units(elbow, units), root + from_units(hand, units)
    if not (
        within(world_elbow, -math.inf, strict=True) and within(world_hand, -math.inf, strict=True)
    ):
        raise ValueError(
            f"root: a solved joint (root + up to upper_len + lower_len) is beyond {dtype}'s "
            f"range ({np.finfo(dtype).max:.3g})"
        )
    reach, shortfall, reached, status = outcome(distance, units, limb, degenerate, eps)
    stretch = np.full_like(distance, limb.stretch)
    return world_elbow, world_hand, distance, reach, shortfall, reached, stretch, status, *frame


def solution(cls: type[Solution], fields: Sequence[np.ndarray], shape: tuple[int, ...]) -> Solution:
    """A ``cls`` with each field reshaped from ``n`` entries to the batch shape (points from
    ``(D, n)`` to ``(..., D)``); the angles lazily from the frame."""
    elbow, hand, distance, reach, shortfall, reached, stretch, status = (
        f.reshape(shape) if f.ndim == 1 else f.T.reshape(*shape, len(f)) for f in fields[:8]
    )
    # the frame's vectors stay component-major, (D, ...): each component contiguous
    frame = tuple(f.reshape(f.shape[:-1] + shape) for f in fields[8:])
    angles = Angles(partial(local_angle, frame))
    return cls(elbow, hand, distance, reach, shortfall, reached, stretch, status, angles)
