"""The vector solve, 2-D and 3-D: per-limb arguments, chunks, the stages in order, one block
they write into."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from functools import partial

import numpy as np
from numpy.typing import ArrayLike

from ik._units import Values, check_limbs, enter, finite, from_units, toward
from ik.reach import clamp, classify, triangle
from ik.solution import Angles, Solution, local_angle

CHUNK = 16384
"""Limbs per chunk: enough to spread numpy's per-call cost (10-25 % faster than 8192 where it
applies), few enough that the allocator reuses the temporaries' memory from chunk to chunk."""
OFF = {"twist": 0.0, "softness": 0.0, "max_stretch": 1.0}  # option values that turn a stage off
FIELDS = ("elbow", "hand", "distance", "reach", "shortfall", "reached", "stretch", "status")


def solve(
    cls: type[Solution],
    dim: int,
    place: Callable[..., tuple],
    frame: int,
    points: Mapping[str, ArrayLike | None],
    values: Mapping[str, ArrayLike],
) -> Solution:
    """Check the arguments, then the stages chunk by chunk on points ``(D, m)`` and values
    ``(m,)`` or one shared scalar (an option at its neutral value, ``OFF``: None, skipped):
    units and aim, soften/stretch/clamp, the triangle, ``place(frame, eps, u, (|w|², w), turn,
    along, height, reach)`` (``w``: toward the pole; ``turn``: 2-D bend, 3-D twist) -> elbow and
    hand offsets in units, where a fallback plane was used; the world joints, classify.
    ``frame``: the lazy angles' rows. One block for all results (separate arrays: more faults)."""
    given = {k: p for k, p in points.items() if p is not None or k != "pole" or dim == 3}
    dtype, shape, checked, scalars, safe = check_limbs(dim, given, values)
    n = math.prod(shape)
    # per limb: points (n, D), values (n,); a value shared by every limb stays a scalar
    eps, args = float(np.finfo(dtype).eps), []
    for a in (checked.get(k) for k in points):
        args.append(None if a is None else np.broadcast_to(a, (*shape, dim)).reshape(n, dim))
    for name, v in scalars.items():
        off = v.ndim == 0 and v[()] == OFF.get(name)
        args.append(None if off else v[()] if v.ndim == 0 else np.broadcast_to(v, shape).ravel())
    block = np.empty((2 * dim + 4 + frame, n), dtype)
    out = dict(zip(("distance", "reach", "shortfall", "stretch"), block[2 * dim :], strict=False))
    out |= {"elbow": block[:dim], "hand": block[dim : 2 * dim], "frame": block[2 * dim + 4 :]}
    out |= {"reached": np.empty(n, bool), "status": np.empty(n, np.int8)}
    size = math.ceil(n / max(1, math.ceil(n / CHUNK))) or 1  # equal chunks of at most CHUNK
    for start in range(0, n, size):
        cols = {name: field[..., start : start + size] for name, field in out.items()}
        # each component of a point contiguous: numpy's fast loops then run along the limbs
        chunk: list[Values] = [
            np.ascontiguousarray(a[start : start + size].T) if isinstance(a, np.ndarray) else a
            for a in args
        ]
        root, target, pole, upper, lower, turn, softness, max_stretch = chunk
        units, upper, lower, softness, distance, u, d, degenerate = enter(
            eps, safe, root, target, upper, lower, softness
        )
        limb = clamp(d, upper, lower, softness, max_stretch, eps)  # soften, stretch, clamp
        kept = cols["frame"]
        kept[0] = limb.used
        kept[1], kept[2] = along, height = triangle(limb)  # law of cosines
        w = None if pole is None else toward(pole, root, safe)  # the pole's direction
        elbow, hand, fallback = place(kept, eps, u, w, turn, along, height, limb.used)
        cols["distance"][...] = distance
        with np.errstate(over="ignore"):  # the world joints root + offset; overflow reported below
            np.add(root, from_units(elbow, units), out=cols["elbow"])
            np.add(root, from_units(hand, units), out=cols["hand"])
        if not (safe or (finite(cols["elbow"]) and finite(cols["hand"]))):
            raise ValueError(
                f"root: a solved joint (root + up to upper_len + lower_len) is beyond {dtype}'s "
                f"range ({np.finfo(dtype).max:.3g})"
            )
        classify(cols, d, units, limb, degenerate | fallback, eps)
    elbow, hand, distance, reach, shortfall, reached, stretch, status = (
        out[f].reshape(shape) if out[f].ndim == 1 else out[f].T.reshape(*shape, dim) for f in FIELDS
    )
    angles = Angles()  # read from the frame's rows, component-major (F, ...)
    angles.compute = partial(local_angle, out["frame"].reshape(frame, *shape))
    return cls(elbow, hand, distance, reach, shortfall, reached, stretch, status, angles)
