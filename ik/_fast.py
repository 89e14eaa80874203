"""Allocation-free batch kernels for the common case: no stretch, no twist (and in 3-D no softness).

The generic kernels (``solve2d._kernel``, ``solve3d._kernel``) are written once with operators
so one limb runs in Python floats; in numpy every operator allocates a temporary, and glibc
hands the freed chunk memory back to the OS so each chunk page-faults again. These kernels do
the same arithmetic, in the same order (so the results are the same bits), with ``out=`` ufunc
calls into one workspace of chunk-sized buffers that is kept between calls (per thread and
dtype), and write straight into the solution's output arrays.

A chunk containing any limb that needs a fallback (target at the root, or in 3-D a pole on the
root-target axis) is handed to the generic kernel instead, so those rows keep their documented
behaviour bit for bit.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ik._ops import VECTOR
from ik.status import Status

CHUNK = 16384
"""Limbs per chunk: ~20 float64 buffers of 128 KiB stay in L3 while a ufunc call's fixed
cost (~0.5 µs) is spread over enough limbs; 8192 and 32768 measured no better."""

_local = threading.local()


class _Workspace:
    """Chunk-sized float and bool buffers, handed out by name and reused across calls."""

    def __init__(self, dtype: np.dtype) -> None:
        self.dtype = dtype
        self.buffers: dict[tuple[str, np.dtype], np.ndarray] = {}
        self.views: dict[tuple[str, int], np.ndarray] = {}

    def _view(self, name: str, n: int, dtype: np.dtype) -> np.ndarray:
        buf = self.buffers.get((name, dtype))
        if buf is None or buf.shape[0] < n:
            buf = self.buffers[name, dtype] = np.empty(max(n, CHUNK), dtype)
        view = self.views[name, n] = buf[:n]
        return view

    def f(self, name: str, n: int) -> np.ndarray:
        """Float buffer ``name`` of length ``n`` (the same view on every call)."""
        view = self.views.get((name, n))
        return self._view(name, n, self.dtype) if view is None else view

    def b(self, name: str, n: int) -> np.ndarray:
        """Bool buffer ``name`` of length ``n``."""
        view = self.views.get((name, n))
        return self._view(name, n, _BOOL) if view is None else view


_BOOL = np.dtype(np.bool_)
_SOFTENED = np.int8(Status.SOFTENED)


def workspace(dtype: np.dtype) -> _Workspace:
    """This thread's workspace for ``dtype`` (created on first use)."""
    spaces: dict[np.dtype, _Workspace] | None = getattr(_local, "spaces", None)
    if spaces is None:
        spaces = _local.spaces = {}
    space = spaces.get(dtype)
    if space is None:
        space = spaces[dtype] = _Workspace(dtype)
    return space


def _cut(arg: Any, rows: slice) -> Any:
    return arg[rows] if isinstance(arg, np.ndarray) and arg.ndim == 1 else arg


def _generic_chunk(
    kernel: Callable[..., Sequence[Any]],
    args: Sequence[Any],
    rows: slice,
    outputs: Sequence[np.ndarray],
) -> None:
    """Evaluate one chunk with the generic (allocating) kernel, as ``run_chunks`` does."""
    results = iter(kernel(VECTOR, *(_cut(arg, rows) for arg in args)))
    for out in outputs:
        if out.ndim == 2:
            for k in range(out.shape[1]):
                out[rows, k] = next(results)
        else:
            out[rows] = next(results)


def _soften(
    ws: _Workspace, n: int, distance: np.ndarray, span: np.ndarray, softness: Any
) -> tuple[np.ndarray, np.ndarray]:
    """``reach.soften(distance, span, softness)`` with the same operations in the same order, and
    where it moved the distance (``reach``'s ``softened``). Returns ``eased, softened``."""
    f = ws.f
    knee = np.subtract(span, softness, out=f("knee", n))  # d_s = L − s
    positive = np.greater(softness, 0.0, out=ws.b("soft", n))
    scale = f("scale", n)  # where(s > 0, s, 1)
    scale.fill(1.0)
    np.copyto(scale, softness, where=positive)
    excess = np.subtract(distance, knee, out=f("excess", n))
    np.maximum(excess, 0.0, out=excess)
    limit = np.multiply(scale, 64.0, out=f("limit", n))
    np.minimum(excess, limit, out=excess)
    np.negative(excess, out=excess)
    np.divide(excess, scale, out=excess)
    np.expm1(excess, out=excess)
    np.multiply(softness, excess, out=excess)
    curve = np.subtract(knee, excess, out=excess)  # d_s − s·expm1(−(d − d_s)/s)
    zone = np.greater(distance, knee, out=ws.b("zone", n))
    np.logical_and(zone, positive, out=zone)
    eased = f("eased", n)
    np.copyto(eased, distance)
    np.copyto(eased, curve, where=zone)
    return eased, np.less(eased, distance, out=ws.b("softened", n))


def _reach_triangle(
    ws: _Workspace,
    n: int,
    distance: np.ndarray,
    upper: Any,
    lower: Any,
    softness: Any,
    eps: Any,
    out: Any,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``reach`` (stretch off; softness None for off) then ``triangle``; writes reach, elbow
    angle, shortfall, reached and status into ``out`` (a tuple of row views). Returns
    ``span, used, along, height``."""
    used_out, angle_out, shortfall_out, reached_out, status_out = out
    span = np.add(upper, lower, out=ws.f("span", n))
    softened = None
    if softness is not None:
        distance_used, softened = _soften(ws, n, distance, span, softness)
    else:
        distance_used = distance
    gap = np.subtract(upper, lower, out=ws.f("gap", n))
    inner = np.abs(gap, out=ws.f("inner", n))
    tmp = np.multiply(span, eps, out=ws.f("tmp", n))
    np.maximum(inner, tmp, out=inner)  # fold limit, floored at eps·L
    used = np.maximum(distance_used, inner, out=used_out)
    np.minimum(used, span, out=used)
    too_far = np.greater(distance, span, out=ws.b("far", n))
    too_close = np.less(distance, inner, out=ws.b("close", n))
    # triangle(used, upper, lower): the same operations as ik.triangle
    twice = np.add(used, used, out=ws.f("twice", n))
    along = np.multiply(used, used, out=ws.f("along", n))
    np.multiply(gap, span, out=tmp)
    np.add(along, tmp, out=along)
    np.divide(along, twice, out=along)
    heron = np.add(span, used, out=ws.f("heron", n))
    np.subtract(span, used, out=tmp)
    np.multiply(heron, tmp, out=heron)
    np.subtract(used, gap, out=tmp)
    np.multiply(heron, tmp, out=heron)
    np.add(used, gap, out=tmp)
    np.multiply(heron, tmp, out=heron)
    height = np.sqrt(heron, out=heron)
    np.divide(height, twice, out=height)
    np.multiply(twice, height, out=twice)  # sin θ · 2 L1 L2
    cosine = np.multiply(upper, upper, out=tmp)
    low2 = np.multiply(lower, lower, out=ws.f("low2", n))
    np.add(cosine, low2, out=cosine)
    np.multiply(used, used, out=low2)
    np.subtract(cosine, low2, out=cosine)
    np.arctan2(twice, cosine, out=angle_out)
    # outcome: shortfall, reached, status (no fallback, stretch or softening in this path)
    np.subtract(distance, used, out=shortfall_out)
    np.abs(shortfall_out, out=shortfall_out)
    np.multiply(span, math.sqrt(float(eps)), out=tmp)
    np.less_equal(shortfall_out, tmp, out=reached_out)
    status = status_out
    np.add(too_far.view(np.int8), too_close.view(np.int8), out=status)
    np.add(status, too_close.view(np.int8), out=status)  # TOO_FAR = 1, TOO_CLOSE = 2
    if softened is not None:
        np.copyto(status, _SOFTENED, where=softened)  # SOFTENED outranks both
    return span, used, along, height


def solve_2d(
    kernel: Callable[..., Sequence[Any]],
    args: Sequence[Any],
    outputs: Sequence[np.ndarray],
    pole_side: Callable[..., Any],
) -> None:
    """Fill the :class:`Solution2D` ``outputs`` (flat) for ``args`` of ``solve2d._kernel``
    with stretch off."""
    eps, rx, ry, tx, ty, upper, lower, bend, px, py, softness = args[:11]
    elbow, hand, angle, dist_out, used_out, short_out, reached, stretch, status, ua, la = outputs
    stretch.fill(1.0)
    dtype = angle.dtype
    ws = workspace(dtype)
    eps_t = dtype.type(eps)
    total = angle.shape[0]
    for start in range(0, total, CHUNK):
        stop = min(start + CHUNK, total)
        rows, n = slice(start, stop), stop - start
        c = [_cut(a, rows) for a in (rx, ry, tx, ty, upper, lower, bend, px, py, softness)]
        crx, cry, ctx, cty, cu, cl, cb, cpx, cpy, cs = c
        vx = np.subtract(ctx, crx, out=ws.f("vx", n))
        vy = np.subtract(cty, cry, out=ws.f("vy", n))
        distance = np.multiply(vx, vx, out=dist_out[rows])
        t = np.multiply(vy, vy, out=ws.f("t", n))
        np.add(distance, t, out=distance)
        np.sqrt(distance, out=distance)
        np.add(cu, cl, out=t)
        np.multiply(t, eps_t, out=t)
        if np.less_equal(distance, t, out=ws.b("deg", n)).any():
            _generic_chunk(kernel, args, rows, outputs)
            continue
        inv = np.divide(1.0, distance, out=t)
        ux = np.multiply(vx, inv, out=ws.f("ux", n))
        uy = np.multiply(vy, inv, out=ws.f("uy", n))
        side = cb if cpx is None else pole_side(VECTOR, eps, vx, vy, cpx - crx, cpy - cry, cb)
        _, used, along, height = _reach_triangle(
            ws,
            n,
            distance,
            cu,
            cl,
            cs,
            eps_t,
            (used_out[rows], angle[rows], short_out[rows], reached[rows], status[rows]),
        )
        if cpx is not None and dtype != np.float64:  # side is float64: the kernel's promotions
            _tail_2d_pole(side, height, along, ux, uy, used, crx, cry, rows, outputs)
            continue
        lift = np.multiply(side, height, out=height)
        ex = np.multiply(along, ux, out=ws.f("ex", n))
        np.multiply(lift, uy, out=t)
        np.subtract(ex, t, out=ex)
        ey = np.multiply(along, uy, out=along)
        np.multiply(lift, ux, out=t)
        np.add(ey, t, out=ey)
        hx = np.multiply(used, ux, out=ux)
        hy = np.multiply(used, uy, out=uy)
        np.add(crx, ex, out=elbow[rows, 0])
        np.add(cry, ey, out=elbow[rows, 1])
        np.add(crx, hx, out=hand[rows, 0])
        np.add(cry, hy, out=hand[rows, 1])
        np.arctan2(ey, ex, out=ua[rows])
        np.subtract(hy, ey, out=hy)
        np.subtract(hx, ex, out=hx)
        np.arctan2(hy, hx, out=la[rows])


def _tail_2d_pole(
    side: Any,
    height: np.ndarray,
    along: np.ndarray,
    ux: np.ndarray,
    uy: np.ndarray,
    used: np.ndarray,
    rx: Any,
    ry: Any,
    rows: slice,
    outputs: Sequence[np.ndarray],
) -> None:
    """Elbow, hand and bone angles with a pole, with ``solve2d._kernel``'s exact expressions
    (its pole side is float64, so float32 limbs promote there; kept for identical results)."""
    elbow, hand, ua, la = outputs[0], outputs[1], outputs[9], outputs[10]
    lift = side * height
    ex, ey = along * ux - lift * uy, along * uy + lift * ux
    hx, hy = used * ux, used * uy
    elbow[rows, 0], elbow[rows, 1] = rx + ex, ry + ey
    hand[rows, 0], hand[rows, 1] = rx + hx, ry + hy
    ua[rows] = np.arctan2(ey, ex)
    la[rows] = np.arctan2(hy - ey, hx - ex)


def solve_3d(
    kernel: Callable[..., Sequence[Any]],
    args: Sequence[Any],
    outputs: Sequence[np.ndarray],
    tiny_pole: float,
) -> None:
    """Fill the :class:`Solution3D` ``outputs`` (flat) for ``args`` of ``solve3d._kernel``
    with twist, softness and stretch off; a chunk with a squared pole offset below
    ``tiny_pole`` goes to the generic kernel, which rescales it."""
    eps, rx, ry, rz, tx, ty, tz, upper, lower, px, py, pz = args[:12]
    elbow, hand, angle, dist_out, used_out, short_out, reached, stretch, status = outputs
    stretch.fill(1.0)
    dtype = angle.dtype
    ws = workspace(dtype)
    eps_t = dtype.type(eps)
    axis_tol = dtype.type((16.0 * eps) ** 2)
    total = angle.shape[0]
    for start in range(0, total, CHUNK):
        stop = min(start + CHUNK, total)
        rows, n = slice(start, stop), stop - start
        c = [_cut(a, rows) for a in (rx, ry, rz, tx, ty, tz, upper, lower, px, py, pz)]
        crx, cry, crz, ctx, cty, ctz, cu, cl, cpx, cpy, cpz = c
        f = ws.f
        vx = np.subtract(ctx, crx, out=f("vx", n))
        vy = np.subtract(cty, cry, out=f("vy", n))
        vz = np.subtract(ctz, crz, out=f("vz", n))
        t = f("t", n)
        distance = np.multiply(vx, vx, out=dist_out[rows])
        np.multiply(vy, vy, out=t)
        np.add(distance, t, out=distance)
        np.multiply(vz, vz, out=t)
        np.add(distance, t, out=distance)
        np.sqrt(distance, out=distance)
        np.add(cu, cl, out=t)
        np.multiply(t, eps_t, out=t)
        if np.less_equal(distance, t, out=ws.b("deg", n)).any():
            _generic_chunk(kernel, args, rows, outputs)
            continue
        inv = np.divide(1.0, distance, out=t)
        ux = np.multiply(vx, inv, out=vx)
        uy = np.multiply(vy, inv, out=vy)
        uz = np.multiply(vz, inv, out=vz)
        # pole offset w, rejected from u twice (Gram-Schmidt twice, as solve3d._bend_direction)
        wx = np.subtract(cpx, crx, out=f("wx", n))
        wy = np.subtract(cpy, cry, out=f("wy", n))
        wz = np.subtract(cpz, crz, out=f("wz", n))
        qx, qy, qz = f("qx", n), f("qy", n), f("qz", n)
        dot, s = f("dot", n), f("s", n)
        for ax, ay, az in ((wx, wy, wz), (qx, qy, qz)):
            np.multiply(ax, ux, out=dot)
            np.multiply(ay, uy, out=s)
            np.add(dot, s, out=dot)
            np.multiply(az, uz, out=s)
            np.add(dot, s, out=dot)
            np.multiply(dot, ux, out=s)
            np.subtract(ax, s, out=qx)
            np.multiply(dot, uy, out=s)
            np.subtract(ay, s, out=qy)
            np.multiply(dot, uz, out=s)
            np.subtract(az, s, out=qz)
        q_len2 = np.multiply(qx, qx, out=dot)
        np.multiply(qy, qy, out=s)
        np.add(q_len2, s, out=q_len2)
        np.multiply(qz, qz, out=s)
        np.add(q_len2, s, out=q_len2)
        w_len2 = np.multiply(wx, wx, out=wx)
        np.multiply(wy, wy, out=wy)
        np.add(w_len2, wy, out=w_len2)
        np.multiply(wz, wz, out=wz)
        np.add(w_len2, wz, out=w_len2)
        if np.less(w_len2, tiny_pole, out=ws.b("tiny", n)).any():  # rescaled: see _bend_direction
            _generic_chunk(kernel, args, rows, outputs)
            continue
        np.multiply(w_len2, axis_tol, out=w_len2)
        if np.less_equal(q_len2, w_len2, out=ws.b("axis", n)).any():
            _generic_chunk(kernel, args, rows, outputs)
            continue
        np.sqrt(q_len2, out=q_len2)
        inv = np.divide(1.0, q_len2, out=q_len2)
        bx = np.multiply(qx, inv, out=qx)
        by = np.multiply(qy, inv, out=qy)
        bz = np.multiply(qz, inv, out=qz)
        _, used, along, height = _reach_triangle(
            ws,
            n,
            distance,
            cu,
            cl,
            None,
            eps_t,
            (used_out[rows], angle[rows], short_out[rows], reached[rows], status[rows]),
        )
        for k, (r, u, b) in enumerate(((crx, ux, bx), (cry, uy, by), (crz, uz, bz))):
            e = elbow[rows, k]
            np.multiply(along, u, out=t)
            np.add(r, t, out=e)
            np.multiply(height, b, out=t)
            np.add(e, t, out=e)
            np.multiply(used, u, out=t)
            np.add(r, t, out=hand[rows, k])
