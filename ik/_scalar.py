"""One limb, or a few, in Python floats: a ``math`` transcription of the vector stages (angles
included: here cheaper than deferred). Only plain input of at most ``SMALL`` valid limbs in the
safe magnitudes, away from every fallback; anything else takes the vector path, which checks,
raises and falls back. float32 is rounded to float32 and solved with float32's eps and safe
range. Tests check both paths agree (1e-12 relative in float64)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from ik._units import SAFE
from ik.reach import Status
from ik.solution import Solution, Solution2D

SMALL = 8  # the largest batch solved limb by limb here

_FLOAT64, _FLOAT32 = np.dtype(np.float64), np.dtype(np.float32)
_LIMITS = {t: (float(np.finfo(t).eps), SAFE[t][1]) for t in (_FLOAT64, _FLOAT32)}
"""Per dtype: eps and the largest safe magnitude, as the vector path uses them."""
_PLAIN = {_FLOAT64, _FLOAT32, *map(np.dtype, np.typecodes["AllInteger"])}  # array dtypes taken
_REACHED, _FAR, _CLOSE, _SOFT, _STRETCHED = (float(code) for code in list(Status)[:5])
_REACHED_0D = {flag: np.array(flag) for flag in (False, True)}
_STATUS_0D = {float(code): np.array(code, np.int8) for code in Status}


def solve(cls: type[Solution], points: Sequence[Any], values: Sequence[Any]) -> Solution | None:
    """``cls``'s solve of plain input, or None for the vector path: ``points`` then ``values``
    in the order of ``_limb_2d`` / ``_limb_3d``'s parameters (a 2-D pole may be None)."""
    dim = 2 if cls is Solution2D else 3
    found = _limbs(dim, points, values)
    if found is None:
        return None
    dtype, shape, limbs = found
    eps, high = _LIMITS[dtype]
    rows = []
    for limb in limbs:
        if dtype is _FLOAT32:  # rounded as the vector path converts (beyond range: inf, rejected)
            with np.errstate(over="ignore"):
                limb = [v if v is None else np.array(v).astype(dtype).tolist() for v in limb]
        row = _limb_2d(eps, high, *limb) if dim == 2 else _limb_3d(eps, high, *limb)
        if row is None:
            return None
        rows.append(row)
    # one table (..., row): each field a view of its values
    table = np.array(rows if shape else rows[0], dtype)
    if len(shape) > 1:
        table = table.reshape(*shape, -1)
    t = 2 * dim
    if shape:
        flags = table[..., t + 4 : t + 6].astype(np.int8)  # reached and status: small ints
        reached, status = flags[..., 0].view(bool), flags[..., 1]
    else:  # copies of 0-d arrays: a quarter of the calls
        reached, status = _REACHED_0D[rows[0][t + 4]].copy(), _STATUS_0D[rows[0][t + 5]].copy()
    angles = {0: table[..., t + 6]}
    if dim == 2:
        angles = {0: angles[0], 1: table[..., t + 7], 2: table[..., t + 8]}
    e, h = table[..., :dim], table[..., dim:t]
    d, a, short, stretch = table[..., t], table[..., t + 1], table[..., t + 2], table[..., t + 3]
    return cls(e, h, d, a, short, reached, stretch, status, angles)  # all given: a plain dict


def _limbs(
    dim: int, points: Sequence[Any], values: Sequence[Any]
) -> tuple[np.dtype, tuple[int, ...], list[list]] | None:
    """The dtype, the batch shape and each limb's arguments as floats (points as lists), if each
    argument is a Python number, a tuple or list of them, or a float64, float32 or integer array
    and there are 1 to ``SMALL`` limbs; else None. float32 arrays alone give float32."""
    shared: list[Any] = []  # per argument: its value, or None where it has one per limb
    batches: dict[int, np.ndarray] = {}  # the arguments with one value (or point) per limb
    dtypes = set()
    try:  # float() of a Python int beyond float64 raises: the vector path names it
        for k, value in enumerate(points):
            kind = type(value)
            if kind is np.ndarray and value.dtype in _PLAIN and value.shape[-1:] == (dim,):
                dtypes.add(value.dtype)
                if value.ndim > 1:  # batch axes: one point per limb
                    batches[k], value = value, None
                else:
                    value = value.tolist()
            elif (kind is tuple or kind is list) and len(value) == dim:
                if not all(type(c) is float or type(c) is int for c in value):
                    return None
                value = [float(c) for c in value]
            elif value is not None or k != 2 or dim != 2:  # else solve_2d without a pole
                return None
            shared.append(value)
        for k, value in enumerate(values, len(points)):
            kind = type(value)
            if kind is float or kind is int:
                value = float(value)
            elif kind is np.ndarray and value.dtype in _PLAIN:
                dtypes.add(value.dtype)
                if value.ndim:  # one value per limb
                    batches[k], value = value, None
                else:
                    value = value.tolist()
            else:
                return None
            shared.append(value)
        # the floating arrays decide, as in ik._units.float_dtype
        dtype = _FLOAT32 if _FLOAT32 in dtypes and _FLOAT64 not in dtypes else _FLOAT64
        if not batches:
            return dtype, (), [shared]
        # the batch axes' broadcast (np.broadcast: ~2x faster than np.broadcast_shapes here)
        shape = np.broadcast(*(a[..., 0] if k < len(points) else a for k, a in batches.items()))
    except (OverflowError, ValueError):
        return None
    size = shape.size
    if not 0 < size <= SMALL:
        return None
    for k, a in batches.items():
        tail = a.shape[-1:] if k < len(points) else ()
        if a.size != size * math.prod(tail):  # else broadcasting only adds 1s to the shape
            a = np.broadcast_to(a, shape.shape + tail)
        shared[k] = a.reshape(size, *tail).tolist()
    limbs = [[v if k not in batches else v[i] for k, v in enumerate(shared)] for i in range(size)]
    return dtype, shape.shape, limbs


def _aim(x: float, y: float, z: float, high: float) -> tuple[float, ...] | None:
    """|v| and v / |v|, then |v|², where the squares are safe, else None (the vector path's
    units; also for a coordinate or difference that is not finite)."""
    len2 = x * x + y * y + z * z  # Pythagoras
    if not 1.0 / (high * high) <= len2 <= high * high:
        return None
    length = math.sqrt(len2)
    inverse = 1.0 / length  # as the vector path rounds it
    return length, x * inverse, y * inverse, z * inverse, len2


def _reach(
    eps: float, high: float, d: float, upper: float, lower: float, soft: float, k: float
) -> Any:
    """``ik.reach``'s stages: the reach ``a``, the elbow along and off the root-target line, and
    the row's distance, reach, shortfall, stretch, reached, status and elbow angle; None for
    lengths outside ``[1 / high, high]``, invalid options or a target at the root."""
    span = upper + lower
    if not (1 / high <= upper <= high and 1 / high <= lower <= high and 0 <= soft < span):
        return None
    if not (1.0 <= k < math.inf and d > eps * span):
        return None
    eased = d
    softened = soft > 0.0 and d > span * k - soft  # in the soft zone (as ik.reach.clamp)
    if softened:  # Nicholas' soft IK: d_s - s expm1(-(d - d_s)/s)
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
    gap, floor = upper - lower, eps * span
    inner = abs(gap) if abs(gap) > floor else floor  # (if-else: ~4x cheaper than max())
    a = inner if eased < inner else span if eased > span else eased  # the clamp, docs/MATH.md §4
    along = (a * a + gap * span) / (a + a)  # law of cosines
    h = math.sqrt((span + a) * (span - a) * (a - gap) * (a + gap)) / (a + a)  # Heron
    status = _FAR if d > span else _CLOSE if d < inner else _REACHED
    status = _STRETCHED if stretch > 1.0 else _SOFT if softened else status
    shortfall = abs(d - a)
    reached = shortfall <= math.sqrt(eps) * span  # as ik.reach.classify
    angle = math.atan2(a * h, along * along + h * h - a * along)  # ik.reach.interior_angle
    return a, along, h, [d, a, shortfall, stretch, reached, status, angle]


def _row(joints: list[float], row: list[float]) -> list | None:
    """The joints, then the rest of the row; None where a joint is not finite (the vector path
    raises): a sum is NaN or inf if any term is, and ``x - x`` is 0 only for finite ``x``."""
    total = sum(joints)
    return joints + row if total - total == 0.0 else None


def _limb_2d(eps, high, root, target, pole, upper, lower, bend, soft, k) -> list | None:
    """:func:`ik.solve_2d`'s stages for one limb (eps and the safe range first), or None."""
    (rx, ry), (tx, ty) = root, target
    aimed = _aim(tx - rx, ty - ry, 0.0, high)
    reach = aimed and _reach(eps, high, aimed[0], upper, lower, soft, k)
    w = pole and _aim(pole[0] - rx, pole[1] - ry, 0.0, high)
    if aimed is None or not reach or bend not in (1.0, -1.0) or pole and not w:
        return None
    (_, ux, uy, _, _), (a, along, h, row) = aimed, reach
    if w:
        sine = ux * (pole[1] - ry) - uy * (pole[0] - rx)  # u × w (see solve2d._place)
        bend = bend if sine * sine <= (4.0 * eps) ** 2 * w[4] else math.copysign(1.0, sine)
    h *= bend
    ex, ey = along * ux - h * uy, along * uy + h * ux  # the elbow at φ ± α: docs/MATH.md §3
    up = math.atan2(ey, ex)  # as solution.local_angle
    lo = up + math.copysign(math.pi - row[-1], -h)
    row += [up, lo - math.tau * ((lo > math.pi) - (lo <= -math.pi))]
    return _row([rx + ex, ry + ey, rx + a * ux, ry + a * uy], row)


def _limb_3d(eps, high, root, target, pole, upper, lower, twist, soft, k) -> list | None:
    """:func:`ik.solve_3d`'s stages for one limb (eps and the safe range first), or None."""
    (rx, ry, rz), (tx, ty, tz), (px, py, pz) = root, target, pole
    wx, wy, wz = px - rx, py - ry, pz - rz
    aimed, w = _aim(tx - rx, ty - ry, tz - rz, high), _aim(wx, wy, wz, high)
    reach = aimed and _reach(eps, high, aimed[0], upper, lower, soft, k)
    if aimed is None or w is None or not reach or twist - twist != 0.0:
        return None
    (_, ux, uy, uz, _), (a, along, h, row) = aimed, reach
    # the pole plane b = (u × w) × u (see solve3d._bend_direction)
    nx, ny, nz = uy * wz - uz * wy, uz * wx - ux * wz, ux * wy - uy * wx
    bx, by, bz = ny * uz - nz * uy, nz * ux - nx * uz, nx * uy - ny * ux
    sine2 = bx * bx + by * by + bz * bz
    if sine2 <= (16.0 * eps) ** 2 * w[4]:
        return None  # pole on the axis: the fallback plane
    if twist:  # Rodrigues with b ⟂ u: b cos τ + (u × b) sin τ (see solve3d._place)
        cos, sin = float(np.cos(twist)), float(np.sin(twist))
        nx, ny, nz = uy * bz - uz * by, uz * bx - ux * bz, ux * by - uy * bx
        bx, by, bz = bx * cos + nx * sin, by * cos + ny * sin, bz * cos + nz * sin
    h *= 1.0 / math.sqrt(sine2)  # the elbow L1 (cos α u + sin α b / |b|), the hand a u
    elbow = [rx + (along * ux + h * bx), ry + (along * uy + h * by), rz + (along * uz + h * bz)]
    return _row([*elbow, rx + a * ux, ry + a * uy, rz + a * uz], row)
