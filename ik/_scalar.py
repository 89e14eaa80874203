"""One limb, or a few, in plain Python floats: a ``math`` transcription of the vector stages
(the angles included: here they cost less than deferred), where numpy's per-call cost would
exceed the arithmetic. Only plain input of at most ``SMALL`` valid limbs in the safe magnitudes,
away from every fallback; anything else goes to the vector path, which validates, raises and
falls back. float32 input is rounded to float32, solved with float32's eps and safe range, and
returned as float32. Tests check both paths agree (1e-12 relative in float64)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from ik._units import SAFE
from ik.reach import Status
from ik.solution import Angles, Solution, Solution2D

SMALL = 8
"""Largest batch solved limb by limb here."""

_FLOAT64, _FLOAT32 = np.dtype(np.float64), np.dtype(np.float32)
_LIMITS = {t: (float(np.finfo(t).eps), SAFE[t][1]) for t in (_FLOAT64, _FLOAT32)}
"""Per dtype: eps and the largest safe magnitude, as the vector path uses them."""
_PLAIN = {_FLOAT64, _FLOAT32, *map(np.dtype, np.typecodes["AllInteger"])}
"""The array dtypes taken here."""
_REACHED, _FAR, _CLOSE, _SOFT, _STRETCHED = (float(code) for code in list(Status)[:5])


def solve(cls: type[Solution], args: Sequence[tuple[Any, bool]]) -> Solution | None:
    """``cls``'s solve of plain input, or None for the vector path. ``args``: each argument
    with whether it is a point, in the order of ``_limb_2d`` / ``_limb_3d``'s parameters."""
    dim = 2 if cls is Solution2D else 3
    found = _limbs(dim, args)
    if found is None:
        return None
    dtype, shape, limbs = found
    solve_limb, limits = _limb_2d if dim == 2 else _limb_3d, _LIMITS[dtype]
    rows = []
    for limb in limbs:
        row = solve_limb(limits, *(limb if dtype == _FLOAT64 else _rounded(limb)))
        if row is None:
            return None
        rows.append(row)
    # one table (*shape, row): each field a view of the rows' values (see _reach)
    table = np.array(rows, dtype).reshape(*shape, -1)
    t = 2 * dim
    flags = table[..., t + 4 : t + 6].astype(np.int8)  # reached and status, exact small ints
    return cls(
        *(table[..., :dim], table[..., dim:t], table[..., t], table[..., t + 1]),
        *(table[..., t + 2], flags[..., 0].view(bool), table[..., t + 3], flags[..., 1]),
        Angles(enumerate([table[..., a] for a in range(t + 6, table.shape[-1])])),
    )


def _limbs(
    dim: int, args: Sequence[tuple[Any, bool]]
) -> tuple[np.dtype, tuple[int, ...], list[list]] | None:
    """The dtype, the batch shape and each limb's arguments as floats (points as lists), if each
    argument is a Python number, a tuple or list of them, or a float64, float32 or integer array
    and there are 1 to ``SMALL`` limbs; else None. float32 arrays alone give float32."""
    shared: list[Any] = []  # per argument: its value, or None where it has one per limb
    batches: dict[int, np.ndarray] = {}  # the arguments with one value (or point) per limb
    floats = set()
    try:  # float() of a Python int beyond float64 raises: the vector path names it
        for value, point in args:
            kind = type(value)
            if kind is np.ndarray:
                if value.dtype not in _PLAIN or point and value.shape[-1:] != (dim,):
                    return None
                if value.dtype.kind == "f":
                    floats.add(value.dtype)
                if value.ndim > point:  # batch axes: one value (or point) per limb
                    batches[len(shared)] = value
                    value = None
                else:
                    value = value.tolist()
            elif not point and (kind is float or kind is int):
                value = float(value)
            elif point and (kind is tuple or kind is list) and len(value) == dim:
                if not all(type(c) is float or type(c) is int for c in value):
                    return None
                value = [float(c) for c in value]
            else:
                return None
            shared.append(value)
        dtype = _FLOAT32 if floats == {_FLOAT32} else _FLOAT64
        if not batches:
            return dtype, (), [shared]
        # the batch axes' broadcast (np.broadcast: ~2x faster than np.broadcast_shapes here)
        shape = np.broadcast(*(a[..., 0] if args[k][1] else a for k, a in batches.items())).shape
    except (OverflowError, ValueError):
        return None
    size = math.prod(shape)
    if not 0 < size <= SMALL:
        return None
    columns = {}
    for k, a in batches.items():
        tail = a.shape[-1:] if args[k][1] else ()
        if a.size != size * math.prod(tail):  # else broadcasting only adds 1s to the shape
            a = np.broadcast_to(a, shape + tail)
        columns[k] = a.reshape(size, *tail).tolist()
    limbs = [[columns[k][i] if v is None else v for k, v in enumerate(shared)] for i in range(size)]
    return dtype, shape, limbs


def _rounded(limb: list) -> list:
    """A limb's arguments rounded to float32 as the vector path converts them (beyond float32's
    range: inf, which :func:`_valid` sends to the vector path)."""
    flat = [x for v in limb for x in (v if type(v) is list else (v,))]
    with np.errstate(over="ignore"):
        values = iter(np.array(flat).astype(np.float32).tolist())
    return [[next(values) for _ in v] if type(v) is list else next(values) for v in limb]


def _valid(high: float, upper: float, lower: float, soft: float, k: float, coords: list) -> bool:
    """Lengths, options and coordinates valid and in the safe magnitudes ``[1 / high, high]``
    (a sum is NaN or inf if any term is: ``x - x`` is 0 only for finite ``x``)."""
    total = sum(coords)
    return (
        total - total == 0.0
        and -high <= min(coords)
        and max(coords) <= high
        and 1.0 / high <= upper <= high
        and 1.0 / high <= lower <= high
        and 0.0 <= soft < upper + lower
        and 1.0 <= k < math.inf
    )


def _aim(v: list[float], high: float) -> tuple[float, list[float]] | None:
    """|v| and v / |v| where the squares are safe (else None: the vector path's units)."""
    len2 = sum([c * c for c in v])  # Pythagoras
    if not 1.0 / (high * high) <= len2 <= high * high:
        return None
    length = math.sqrt(len2)
    inverse = 1.0 / length  # as the vector path rounds it
    return length, [c * inverse for c in v]


def _reach(eps: float, d: float, upper: float, lower: float, soft: float, k: float) -> list:
    """``ik.reach``'s stages (never degenerate here): the reach ``a``, the elbow along and off
    the root-target line, then the row's distance, reach, shortfall, stretch, reached, status
    and elbow angle."""
    span = upper + lower
    eased = d
    if soft > 0.0 and d > span * k - soft:  # Nicholas' soft IK: d_s - s expm1(-(d - d_s)/s)
        full = span * k
        knee = full - soft
        # numpy's expm1, so one limb rounds as in a batch (libm's may differ in the last bit,
        # which near full extension moves the elbow by sqrt(eps) L)
        eased = min(knee - soft * float(np.expm1(-min((d - knee) / soft, 64.0))), full)
    stretch = 1.0
    if k > 1.0:
        stretch = min(max(eased / span, 1.0), k)
        upper, lower = upper * stretch, lower * stretch
        span = upper + lower
    inner = max(abs(upper - lower), eps * span)
    a = min(max(eased, inner), span)  # the seed's clamp
    gap, twice = upper - lower, a + a
    along = (a * a + gap * span) / twice  # law of cosines
    h = math.sqrt((span + a) * (span - a) * (a - gap) * (a + gap)) / twice  # Heron
    status = _FAR if d > span else _CLOSE if d < inner else _REACHED
    status = _STRETCHED if stretch > 1.0 else _SOFT if eased < d else status
    shortfall = abs(d - a)
    reached = shortfall <= math.sqrt(eps) * span
    angle = math.atan2(a * h, along * along + h * h - a * along)  # ik.reach.interior_angle
    return [a, along, h, d, a, shortfall, stretch, reached, status, angle]


def _limb_2d(limits, root, target, upper, lower, bend, soft, k, pole=None) -> list | None:
    """:func:`ik.solve_2d`'s stages for one limb (``limits``: eps and the safe range), or None."""
    (eps, high), (rx, ry), (tx, ty) = limits, root, target
    if not _valid(high, upper, lower, soft, k, [rx, ry, tx, ty, *(pole or ())]):
        return None
    aimed = _aim([tx - rx, ty - ry], high)
    if aimed is None or aimed[0] <= eps * (upper + lower) or bend not in (1.0, -1.0):
        return None
    d, (ux, uy) = aimed
    side = bend
    if pole is not None:
        w = _aim([pole[0] - rx, pole[1] - ry], high)
        if w is None:
            return None
        sine = ux * w[1][1] - uy * w[1][0]  # u × ŵ (see solve2d._pole_side)
        side = side if abs(sine) <= 4.0 * eps else math.copysign(1.0, sine)
    a, along, h, *row = _reach(eps, d, upper, lower, soft, k)
    h *= side
    ex, ey = along * ux - h * uy, along * uy + h * ux  # the seed's L1 (cos(φ ± α), sin(φ ± α))
    hx, hy = a * ux, a * uy
    row += [math.atan2(ey, ex), math.atan2(hy - ey, hx - ex)]  # as solution.local_angle
    return [rx + ex, ry + ey, rx + hx, ry + hy, *row]


def _limb_3d(limits, root, target, pole, upper, lower, twist, soft, k) -> list | None:
    """:func:`ik.solve_3d`'s stages for one limb (``limits``: eps and the safe range), or None."""
    eps, high = limits
    if not _valid(high, upper, lower, soft, k, [*root, *target, *pole, twist]):
        return None
    aimed = _aim([t - r for t, r in zip(target, root, strict=True)], high)
    w = _aim([p - r for p, r in zip(pole, root, strict=True)], high)
    if aimed is None or w is None or aimed[0] <= eps * (upper + lower):
        return None
    d, u = aimed
    b = _cross(_cross(u, w[1]), u)  # the pole plane (see solve3d._bend_direction)
    sine2 = b[0] * b[0] + b[1] * b[1] + b[2] * b[2]
    if sine2 <= (16.0 * eps) ** 2:
        return None  # pole on the axis: the fallback plane
    inverse = 1.0 / math.sqrt(sine2)
    b = [c * inverse for c in b]
    if twist:  # Rodrigues with b ⟂ u (see solve3d._twist)
        cos, sin = float(np.cos(twist)), float(np.sin(twist))
        b = [c * cos + s * sin for c, s in zip(b, _cross(u, b), strict=True)]
    a, along, h, *row = _reach(eps, d, upper, lower, soft, k)
    # the elbow L1 (cos α u + sin α b), the hand a u, from the root
    elbow = [r + (along * uk + h * bk) for r, uk, bk in zip(root, u, b, strict=True)]
    return [*elbow, *[r + a * uk for r, uk in zip(root, u, strict=True)], *row]


def _cross(a: list[float], b: list[float]) -> list[float]:
    return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
