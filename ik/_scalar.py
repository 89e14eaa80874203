"""One limb, or a few, in plain Python floats: a transcription with ``math`` of the vector
stages (aim, soften, clamp, triangle, place the elbow, classify, and the angles, which cost less
computed here than deferred), for calls where numpy's per-call overhead would cost more than the
arithmetic.

It takes only plain float64 input (Python numbers, tuples or lists of them, float64 or integer
arrays) for at most ``SMALL`` limbs, every value valid, inside the safe magnitudes and away from
every fallback; anything else returns None and goes to the vector path, which validates, raises
and falls back. Tests check both agree to 1e-12 relative.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import partial

import numpy as np

from ik._units import Values, safe
from ik.solution import Solution, Solution2D
from ik.status import Status

SMALL = 8
"""Largest batch solved limb by limb here."""

_EPS = float(np.finfo(np.float64).eps)
_LOW, _HIGH = safe(np.dtype(np.float64))
_FLOAT64 = np.dtype(np.float64)


def solve(cls: type[Solution], args: Sequence[tuple[object, bool]]) -> Solution | None:
    """``cls``'s solve of plain input, or None for the vector path. ``args``: each argument
    with whether it is a point, in the order of ``_limb_2d`` / ``_limb_3d``'s parameters."""
    dim = 2 if cls is Solution2D else 3
    batch = _plain(dim, args)
    if batch is None:
        return None
    shape, limbs = batch
    rows = []
    for limb in limbs:
        row = (_limb_2d if dim == 2 else _limb_3d)(*limb)
        if row is None:
            return None
        rows.append(row)
    # one table, (*shape, m): each field a view (the batch axes first, then the row's values)
    table = np.array(rows).reshape(*shape, -1)
    tail = 2 * dim  # distance, reach, shortfall, stretch, reached, status, angles
    return cls(
        table[..., :dim],
        table[..., dim:tail],
        distance=table[..., tail],
        reach=table[..., tail + 1],
        shortfall=table[..., tail + 2],
        reached=table[..., tail + 4].astype(bool),
        stretch=table[..., tail + 3],
        status=table[..., tail + 5].astype(np.int8),
        _angle=partial(_column, table[..., tail + 6 :]),
    )


def _column(angles: np.ndarray, which: int) -> np.ndarray:
    return angles[..., which]


def _plain(dim: int, args: Sequence[tuple[object, bool]]) -> tuple | None:
    """The batch shape and each limb's arguments as floats (points as lists), if the input is
    plain float64 (not bool: the vector path rejects it) and small; else None."""
    if all(_point(v, dim) if point else type(v) in (float, int) for v, point in args):
        try:  # a Python int beyond float64 goes to the vector path, which names it
            limb = [[*map(float, v)] if point else float(v) for v, point in args]  # type: ignore
        except OverflowError:
            return None
        return (), [tuple(limb)]
    try:
        arrays = [(np.asarray(v), point) for v, point in args]
        shape = np.broadcast_shapes(*(a.shape[:-1] if point else a.shape for a, point in arrays))
    except (ValueError, TypeError, OverflowError):
        return None
    plain = all(a.dtype == _FLOAT64 or a.dtype.kind in "iu" for a, _ in arrays)
    if not (0 < math.prod(shape) <= SMALL and plain):
        return None
    if any(point and a.shape[-1:] != (dim,) for a, point in arrays):
        return None
    tails = [a.shape[-1:] if point else () for a, point in arrays]
    columns = [_per_limb(a, shape, t) for (a, _), t in zip(arrays, tails, strict=True)]
    return shape, list(zip(*columns, strict=True))


def _per_limb(values: np.ndarray, shape: tuple[int, ...], tail: tuple[int, ...]) -> list:
    """``values`` as one list entry per limb of the batch ``shape`` (a point: a list of its
    ``tail`` coordinates); only a shared value is broadcast (``broadcast_to`` costs more than
    the rest of a small batch's conversion)."""
    if values.shape != shape + tail:
        values = np.broadcast_to(values, shape + tail)
    return values.reshape(-1, *tail).tolist()


def _point(value: Values, dim: int) -> bool:
    if type(value) is np.ndarray:
        return value.shape == (dim,) and value.dtype == _FLOAT64
    return (
        type(value) in (tuple, list)
        and len(value) == dim
        and all(type(c) in (float, int) for c in value)
    )


def _valid(upper: float, lower: float, soft: float, k: float, *coords: float) -> bool:
    """Lengths, options and coordinates the vector path accepts, in the safe magnitudes (a sum
    is NaN or inf if any term is: ``x - x`` is 0 only for finite ``x``)."""
    lengths = _LOW <= upper <= _HIGH and _LOW <= lower <= _HIGH
    total = sum(coords)
    finite = total - total == 0.0 and max(map(abs, coords)) <= _HIGH
    return lengths and finite and 0.0 <= soft < upper + lower and 1.0 <= k < math.inf


def _aim(v: list[float]) -> tuple[float, list[float]] | None:
    """|v| and v / |v| where the squares are safe (else None: the vector path's units)."""
    len2 = sum(c * c for c in v)  # Pythagoras
    if not _LOW * _LOW <= len2 <= _HIGH * _HIGH:
        return None
    length = math.sqrt(len2)
    inverse = 1.0 / length  # as the vector path rounds it
    return length, [c * inverse for c in v]


def _cross(a: list[float], b: list[float]) -> list[float]:
    return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]


def _reach(d: float, upper: float, lower: float, soft: float, k: float) -> tuple[float, ...]:
    """Soften, stretch, clamp (``ik.reach``), the triangle (``ik.triangle``), and the status
    (``ik.status``; never degenerate here)."""
    span = upper + lower
    full = span * k
    eased, knee = d, full - soft
    if soft > 0.0 and d > knee:  # Nicholas' soft IK: d_s - s expm1(-(d - d_s)/s), <= L
        # numpy's expm1, so one limb rounds as in a batch (libm's may differ in the last bit,
        # which near full extension moves the elbow by sqrt(eps) L)
        eased = min(knee - soft * float(np.expm1(-min((d - knee) / soft, 64.0))), full)
    stretch = min(max(eased / span, 1.0), k)
    upper, lower = upper * stretch, lower * stretch
    span = upper + lower
    inner = max(abs(upper - lower), _EPS * span)
    used = min(max(eased, inner), span)  # the seed's clamp
    gap, twice = upper - lower, used + used
    along = (used * used + gap * span) / twice  # law of cosines
    height = math.sqrt((span + used) * (span - used) * (used - gap) * (used + gap)) / twice  # Heron
    status = Status.TOO_FAR if d > span else Status.TOO_CLOSE if d < inner else Status.REACHED
    status = Status.STRETCHED if stretch > 1.0 else Status.SOFTENED if eased < d else status
    shortfall = abs(d - used)
    reached = shortfall <= math.sqrt(_EPS) * span
    return used, along, height, shortfall, stretch, float(reached), float(status)


def _row(root: list[float], e: list[float], h: list[float], d: float, reach: tuple) -> list[float]:
    """The table row: elbow, hand, distance, reach, shortfall, stretch, reached, status, angles
    (as ``ik.solution.local_angle`` computes them)."""
    used, along, height, shortfall, stretch, reached, status = reach
    # ik.triangle.interior_angle: atan2(a h, along² + h² − a along)
    angles = [math.atan2(used * height, along * along + height * height - used * along)]
    if len(e) == 2:  # the bones' world angles
        angles += [math.atan2(e[1], e[0]), math.atan2(h[1] - e[1], h[0] - e[0])]
    joints = [r + c for r, c in zip(root * 2, e + h, strict=True)]
    return [*joints, d, used, shortfall, stretch, reached, status, *angles]


def _limb_2d(root, target, upper, lower, bend, soft, k, pole=None) -> list[float] | None:
    """:func:`ik.solve_2d`'s stages for one limb, or None."""
    if bend not in (1.0, -1.0) or not _valid(upper, lower, soft, k, *root, *target, *(pole or ())):
        return None
    aimed = _aim([t - r for t, r in zip(target, root, strict=True)])
    w = None if pole is None else _aim([p - r for p, r in zip(pole, root, strict=True)])
    if aimed is None or aimed[0] <= _EPS * (upper + lower) or (pole is not None and w is None):
        return None
    d, (ux, uy) = aimed
    side = bend
    if w is not None:
        sine = ux * w[1][1] - uy * w[1][0]  # u × ŵ (see solve2d._pole_side)
        side = side if abs(sine) <= 4.0 * _EPS else math.copysign(1.0, sine)
    reach = _reach(d, upper, lower, soft, k)
    used, along, lift = reach[0], reach[1], side * reach[2]
    e = [along * ux - lift * uy, along * uy + lift * ux]  # the seed's L1 (cos(φ ± α), sin(φ ± α))
    return _row(root, e, [used * ux, used * uy], d, reach)


def _limb_3d(root, target, pole, upper, lower, twist, soft, k) -> list[float] | None:
    """:func:`ik.solve_3d`'s stages for one limb, or None."""
    if not _valid(upper, lower, soft, k, *root, *target, *pole, twist):
        return None
    aimed = _aim([t - r for t, r in zip(target, root, strict=True)])
    w = _aim([p - r for p, r in zip(pole, root, strict=True)])
    if aimed is None or w is None or aimed[0] <= _EPS * (upper + lower):
        return None
    d, u = aimed
    b = _cross(_cross(u, w[1]), u)  # the pole plane (see solve3d._bend_direction)
    sine2 = sum(c * c for c in b)
    if sine2 <= (16.0 * _EPS) ** 2:
        return None  # pole on the axis: the fallback plane
    inverse = 1.0 / math.sqrt(sine2)
    b = [c * inverse for c in b]
    if twist:  # Rodrigues with b ⟂ u (see solve3d._twist)
        cos, sin = float(np.cos(twist)), float(np.sin(twist))
        b = [c * cos + s * sin for c, s in zip(b, _cross(u, b), strict=True)]
    reach = _reach(d, upper, lower, soft, k)
    used, along, height = reach[:3]
    e = [along * uk + height * bk for uk, bk in zip(u, b, strict=True)]  # L1 (cos α u + sin α b)
    return _row(root, e, [used * uk for uk in u], d, reach)
