"""What the 2-D and 3-D vector solves share around their stages: per-limb arguments, chunks,
one block the stages write their results into, the results in world units."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from functools import partial
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from ik._checks import check_limbs, finite
from ik._units import SAFE, Values, from_units
from ik.reach import Reach, classify
from ik.solution import Angles, Solution, local_angle

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
    rows: Callable[..., None],
    frame: int,
    points: Mapping[str, npt.ArrayLike | None],
    values: Mapping[str, npt.ArrayLike],
) -> Solution:
    """Check the arguments, then ``rows(out, eps, safe, *points, *values)`` chunk by chunk:
    ``out`` the chunk's rows of the results (see :func:`finish`) and ``frame`` rows of what
    the lazy angles read; points ``(D, m)`` (a 2-D pole None where not given), values ``(m,)``
    or shared scalars, an option at its neutral value (``OFF``) None, so its stage is skipped;
    ``safe``: every coordinate and length within the safe magnitudes (``ik._units``). The
    float results are rows of one block for the whole batch: separate arrays were page-faulted
    afresh on every call (~5 ns a value here, more than the arithmetic), and a large block
    gets transparent huge pages."""
    given = {k: p for k, p in points.items() if p is not None or k != "pole" or dim == 3}
    dtype, shape, checked, scalars, safe = check_limbs(dim, given, values, SAFE)
    args: list[Values] = [float(np.finfo(dtype).eps), safe]
    args += [per_limb(checked[k], shape, point=True) if k in checked else None for k in points]
    for name, v in scalars.items():
        off = v.ndim == 0 and v[()] == OFF.get(name)
        args.append(None if off else per_limb(v, shape))
    n = math.prod(shape)
    block = np.empty((2 * dim + 4 + frame, n), dtype)
    rows_of = {"elbow": dim, "hand": dim, "distance": 1, "reach": 1, "shortfall": 1, "stretch": 1}
    fields, row = {}, 0
    for name, count in rows_of.items():
        fields[name] = block[row] if count == 1 else block[row : row + count]
        row += count
    fields |= {"frame": block[row:], "reached": np.empty(n, bool), "status": np.empty(n, np.int8)}
    size = math.ceil(n / max(1, math.ceil(n / CHUNK))) or 1  # equal chunks, <= CHUNK limbs
    for start in range(0, n, size):
        part = slice(start, start + size)
        # each component of a point contiguous: numpy's fast loops then run along the limbs
        rows(
            {name: field[..., part] for name, field in fields.items()},
            *(
                np.ascontiguousarray(a.values[part].T) if isinstance(a, PerLimb) else a
                for a in args
            ),
        )
    return _solution(cls, fields, shape)


def finish(
    out: dict[str, np.ndarray],
    root: np.ndarray,
    elbow: np.ndarray,
    hand: np.ndarray,
    units: np.ndarray | None,
    distance: np.ndarray,
    d: np.ndarray,
    limb: Reach,
    degenerate: Values,
    eps: float,
    safe: bool,
) -> None:
    """Write the solution's fields for ``m`` limbs into ``out``'s rows from the elbow and hand
    offsets from the root in the limbs' units (points ``(D, m)``), the world ``distance`` and
    the clamp stage's results; or a ``ValueError`` where the answer is beyond the dtype's range
    (``|target - root|`` or a joint; never when ``safe``)."""
    dtype = elbow.dtype
    if not (safe or finite(distance)):
        raise ValueError(
            f"target: |target - root| is beyond {dtype}'s range ({np.finfo(dtype).max:.3g})"
        )
    out["distance"][...] = distance
    with np.errstate(over="ignore"):  # reported below
        np.add(root, from_units(elbow, units), out=out["elbow"])
        np.add(root, from_units(hand, units), out=out["hand"])
    if not (safe or (finite(out["elbow"]) and finite(out["hand"]))):
        raise ValueError(
            f"root: a solved joint (root + up to upper_len + lower_len) is beyond {dtype}'s "
            f"range ({np.finfo(dtype).max:.3g})"
        )
    classify(out, d, units, limb, degenerate, eps)


FIELDS = ("elbow", "hand", "distance", "reach", "shortfall", "reached", "stretch", "status")


def _solution(
    cls: type[Solution], fields: dict[str, np.ndarray], shape: tuple[int, ...]
) -> Solution:
    """A ``cls`` with each field reshaped from ``n`` entries to the batch shape (points from
    ``(D, n)`` to ``(..., D)``); the angles lazily from the frame."""
    elbow, hand, distance, reach, shortfall, reached, stretch, status = (
        f.reshape(shape) if f.ndim == 1 else f.T.reshape(*shape, len(f))
        for f in (fields[name] for name in FIELDS)
    )
    # the frame's rows stay component-major, (F, ...): each contiguous
    frame = fields["frame"].reshape(len(fields["frame"]), *shape)
    angles = Angles()
    angles.compute = partial(local_angle, frame)
    return cls(elbow, hand, distance, reach, shortfall, reached, stretch, status, angles)
