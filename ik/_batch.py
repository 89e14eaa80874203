"""What the 2-D and 3-D vector solves share around their stages: per-limb arguments, chunks,
one block the stages write their results into, the results in world units."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from functools import partial

import numpy as np
from numpy.typing import ArrayLike

from ik._checks import check_limbs, finite
from ik._units import SAFE, Values, from_units
from ik.reach import Reach, classify
from ik.solution import Angles, Solution, local_angle

CHUNK = 16384
"""Limbs per chunk in 2-D (3-D takes half): large enough to spread numpy's per-call cost (~100
calls a chunk; 2-D at N = 10^4 and 10^5 ran ~15 % faster than at 8192), small enough that the
allocator reuses the temporaries' memory from call to call (3-D's (3, m) vectors at 16384
page-faulted every call at N = 10^4)."""
OFF = {"twist": 0.0, "softness": 0.0, "max_stretch": 1.0}
"""Option values that turn a stage off."""
FIELDS = ("elbow", "hand", "distance", "reach", "shortfall", "reached", "stretch", "status")


def solve(
    cls: type[Solution],
    dim: int,
    rows: Callable[..., None],
    frame: int,
    points: Mapping[str, ArrayLike | None],
    values: Mapping[str, ArrayLike],
) -> Solution:
    """Check the arguments, then ``rows(out, eps, safe, *points, *values)`` chunk by chunk:
    ``out`` the chunk's columns of the results (:func:`finish`) and of ``frame`` rows the lazy
    angles read; points ``(D, m)`` (a 2-D pole None where not given), values ``(m,)`` or one
    scalar shared by every limb, an option at its neutral value (``OFF``) None, so its stage is
    skipped; ``safe``: every coordinate and length within the safe magnitudes (``ik._units``).
    The float results are rows of one block: separate arrays were page-faulted afresh on every
    call (~5 ns a value here, more than the arithmetic)."""
    given = {k: p for k, p in points.items() if p is not None or k != "pole" or dim == 3}
    dtype, shape, checked, scalars, safe = check_limbs(dim, given, values, SAFE)
    n = math.prod(shape)
    # per limb: points (n, D), values (n,); a value shared by every limb stays a scalar
    args: list[Values] = [float(np.finfo(dtype).eps), safe]
    for a in (checked.get(k) for k in points):
        args.append(None if a is None else np.broadcast_to(a, (*shape, dim)).reshape(n, dim))
    for name, v in scalars.items():
        off = v.ndim == 0 and v[()] == OFF.get(name)
        args.append(None if off else v[()] if v.ndim == 0 else np.broadcast_to(v, shape).ravel())
    block = np.empty((2 * dim + 4 + frame, n), dtype)
    out = {"elbow": block[:dim], "hand": block[dim : 2 * dim], "frame": block[2 * dim + 4 :]}
    rows_of = zip(("distance", "reach", "shortfall", "stretch"), block[2 * dim :], strict=False)
    out |= dict(rows_of)
    out |= {"reached": np.empty(n, bool), "status": np.empty(n, np.int8)}
    most = CHUNK if dim == 2 else CHUNK // 2
    size = math.ceil(n / max(1, math.ceil(n / most))) or 1  # equal chunks of at most that
    for start in range(0, n, size):
        part = slice(start, start + size)
        # each component of a point contiguous: numpy's fast loops then run along the limbs
        chunk = (np.ascontiguousarray(a[part].T) if isinstance(a, np.ndarray) else a for a in args)
        rows({name: field[..., part] for name, field in out.items()}, *chunk)
    elbow, hand, distance, reach, shortfall, reached, stretch, status = (
        out[f].reshape(shape) if out[f].ndim == 1 else out[f].T.reshape(*shape, dim) for f in FIELDS
    )
    angles = Angles()  # read from the frame's rows, component-major (F, ...)
    angles.compute = partial(local_angle, out["frame"].reshape(frame, *shape))
    return cls(elbow, hand, distance, reach, shortfall, reached, stretch, status, angles)


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
    """Write the solution's fields for ``m`` limbs into ``out`` from the elbow and hand offsets
    from the root in the limbs' units (points ``(D, m)``), the world ``distance`` and the clamp
    stage's ``limb``; or a ``ValueError`` where a joint is beyond the dtype's range."""
    dtype = elbow.dtype
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
