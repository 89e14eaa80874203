"""Analytic two-bone IK in space: the planar triangle placed in the root-target-pole plane."""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

from ik import _fast, _one_limb, _small
from ik._batch import batch_size, limb_column, new_outputs, point_columns, run_chunks
from ik._frame import aim, perpendicular
from ik._limbs import check_limbs, optional
from ik._ops import SCALAR, Ops, Real
from ik.reach import reach
from ik.solution import Solution3D, from_batch, from_rows, one_limb_builder, output_layout
from ik.status import Status, outcome
from ik.triangle import triangle

_EPS64 = float(np.finfo(np.float64).eps)
_sqrt, _atan2 = math.sqrt, math.atan2  # module globals: one lookup fewer per call
_SQRT_EPS64 = _sqrt(_EPS64)
_AXIS_TOL64 = (16.0 * _EPS64) ** 2
_RESCALE = {
    _EPS64: (2.0**-600, 2.0**700),
    float(np.finfo(np.float32).eps): (2.0**-80, 2.0**100),
}
"""By eps: below which ``|pole - root|²`` is scaled up, and by what power of two (the scaled
length stays far from overflow, and even a subnormal offset's square becomes normal)."""
_REACHED, _TOO_FAR, _TOO_CLOSE = int(Status.REACHED), int(Status.TOO_FAR), int(Status.TOO_CLOSE)

_build_one = one_limb_builder(Solution3D, 3)
"""Builds a one-limb solution from ``_solve_limb``'s results."""


def solve_3d(
    root: npt.ArrayLike,
    target: npt.ArrayLike,
    upper_len: npt.ArrayLike,
    lower_len: npt.ArrayLike,
    pole: npt.ArrayLike,
    *,
    twist: npt.ArrayLike = 0.0,
    softness: npt.ArrayLike = 0.0,
    max_stretch: npt.ArrayLike = 1.0,
) -> Solution3D:
    """Place the elbow and hand of two-bone limbs in space (y-up, right-handed, radians).

    The reach is found exactly as in :func:`ik.solve_2d` (soften, clamp into the stretched
    annulus, law of cosines). The hand is ``root + reach * unit(target - root)``; the elbow lies
    in the plane through root, target and pole, on the pole's side, at angle ``alpha`` from the
    root-target axis, and ``twist`` then rotates it about that axis (right-hand rule).

    Fallbacks (deterministic, finite, reported as ``Status.DEGENERATE``):

    * target at the root (``d <= eps (L1 + L2)``): the axis is taken as world +x;
    * pole on the axis (its distance from the axis ``<= 16 eps |pole - root|``, including a
      pole at the root): the elbow bends toward the world axis least aligned with the
      root-target direction (x, then y, then z on ties) made perpendicular to it; with the
      +x fallback axis that is +y.

    Parameters
    ----------
    root : array_like, shape (..., 3)
        Shoulder (hip) positions.
    target : array_like, shape (..., 3)
        Where the hands should go.
    upper_len, lower_len : array_like, shape (...)
        Bone lengths ``L1, L2 > 0``.
    pole : array_like, shape (..., 3)
        Pole (swivel, hint) points the elbows bend toward.
    twist : array_like, shape (...), default 0
        Extra rotation of the elbow about the root-target axis, radians, right-hand rule.
    softness : array_like, shape (...), default 0
        Soft zone width ``0 <= s < L1 + L2`` (0 = off); see :func:`ik.solve_2d`.
    max_stretch : array_like, shape (...), default 1
        Largest factor ``k >= 1`` both bones may scale by (1 = off).

    Returns
    -------
    Solution3D
        Arrays in the broadcast batch shape ``(...)`` (0-d for one limb) and the inputs' float
        dtype. See :class:`Solution3D` for the fields, the ``reached`` tolerance and the status
        precedence.

    Raises
    ------
    ValueError
        Naming the argument, for a last dimension other than 3, batch shapes that do not
        broadcast, a non-finite coordinate (with its index), a non-positive or non-finite
        length, a non-finite twist, ``softness`` outside ``[0, L1 + L2)`` or
        ``max_stretch < 1``. Degenerate geometry is never an error.
    """
    one = _solve_one(root, target, upper_len, lower_len, pole, twist, softness, max_stretch)
    if one is not None:
        return one
    points = {"root": root, "target": target, "pole": pole}
    per_limb = {
        "upper_len": upper_len,
        "lower_len": lower_len,
        "twist": twist,
        "softness": softness,
        "max_stretch": max_stretch,
    }
    small = _small.columns(3, points, per_limb)
    if small is not None:
        return _solve_small(small)
    limbs = check_limbs(3, points, per_limb)
    values, shape = limbs.values, limbs.shape
    options = (
        optional(values["twist"], 0.0),
        optional(values["softness"], 0.0),
        optional(values["max_stretch"], 1.0),
    )
    eps = float(np.finfo(limbs.dtype).eps)
    args = [
        eps,
        *point_columns(limbs.points["root"], shape),
        *point_columns(limbs.points["target"], shape),
        limb_column(values["upper_len"], shape),
        limb_column(values["lower_len"], shape),
        *point_columns(limbs.points["pole"], shape),
        *(None if option is None else limb_column(option, shape) for option in options),
    ]
    layout = output_layout(Solution3D, 3, limbs.dtype)
    if all(option is None for option in options):  # the common case: allocation-free kernel
        outputs = new_outputs(batch_size(shape), layout)
        _fast.solve_3d(_kernel, args, outputs, _RESCALE[eps][0] if eps in _RESCALE else 0.0)
    else:
        outputs = run_chunks(_kernel, args, batch_size(shape), layout)
    return from_batch(Solution3D, outputs, shape)


def _solve_one(
    root: object,
    target: object,
    upper_len: object,
    lower_len: object,
    pole: object,
    twist: object,
    softness: object,
    max_stretch: object,
) -> Solution3D | None:
    """One plain float64 limb in pure Python, or None to take the other paths."""
    floats = _one_limb.limb(3, root, target, upper_len, lower_len, softness, max_stretch)
    p, numbers = _one_limb.point(pole, 3), _one_limb.numbers(twist)
    if floats is None or p is None or numbers is None:
        return None
    (tau,) = numbers
    px, py, pz = p
    if px + py + pz + tau - (px + py + pz + tau) != 0.0:  # not finite: see limb()
        return None
    rx, ry, rz, tx, ty, tz, upper, lower, s, k = floats
    return _build_one(
        _solve_limb(SCALAR, _EPS64, rx, ry, rz, tx, ty, tz, upper, lower, px, py, pz, tau, s, k)
    )


def _solve_small(limbs: _small.Columns) -> Solution3D:
    """A small batch, limb by limb (see :mod:`ik._small`)."""
    eps = float(np.finfo(limbs.dtype).eps)
    v = limbs.values
    rows = [
        _solve_limb(limbs.ops, eps, *args)
        for args in zip(
            *limbs.points["root"],
            *limbs.points["target"],
            v["upper_len"],
            v["lower_len"],
            *limbs.points["pole"],
            v["twist"],
            v["softness"],
            v["max_stretch"],
            strict=True,
        )
    ]
    return from_rows(Solution3D, rows, 3, limbs.dtype, limbs.shape)


def _solve_limb(
    ops: Ops,
    eps: float,
    rx: Real,
    ry: Real,
    rz: Real,
    tx: Real,
    ty: Real,
    tz: Real,
    upper: Real,
    lower: Real,
    px: Real,
    py: Real,
    pz: Real,
    twist: Real,
    softness: Real,
    max_stretch: Real,
) -> tuple[Real, ...]:
    """One limb in a scalar backend: the inlined plain solve where it applies, else the kernel
    (a twist or softness of 0 or a max_stretch of 1 turns that option off, as in the vector
    path)."""
    if ops is SCALAR and not twist and not softness and max_stretch == 1.0:
        plain = _plain_one(rx, ry, rz, tx, ty, tz, upper, lower, px, py, pz)
        if plain is not None:
            return plain
    return _kernel(
        ops,
        eps,
        rx,
        ry,
        rz,
        tx,
        ty,
        tz,
        upper,
        lower,
        px,
        py,
        pz,
        twist or None,
        softness or None,
        None if max_stretch == 1.0 else max_stretch,
    )


def _plain_one(
    rx: float,
    ry: float,
    rz: float,
    tx: float,
    ty: float,
    tz: float,
    upper: float,
    lower: float,
    px: float,
    py: float,
    pz: float,
) -> tuple[Real, ...] | None:
    """``_kernel`` on one limb with twist, softness and stretch off, inlined (the same
    operations in the same order, so the same results), or None where a fallback applies."""
    vx, vy, vz = tx - rx, ty - ry, tz - rz
    distance = _sqrt(vx * vx + vy * vy + vz * vz)
    span = upper + lower
    if distance <= _EPS64 * span:
        return None
    inverse = 1.0 / distance
    ux, uy, uz = vx * inverse, vy * inverse, vz * inverse
    wx, wy, wz = px - rx, py - ry, pz - rz
    qx, qy, qz = _reject(ux, uy, uz, wx, wy, wz)
    qx, qy, qz = _reject(ux, uy, uz, qx, qy, qz)
    q_len2 = qx * qx + qy * qy + qz * qz
    w_len2 = wx * wx + wy * wy + wz * wz
    if q_len2 <= _AXIS_TOL64 * w_len2 or w_len2 < _RESCALE[_EPS64][0]:
        return None
    inverse = 1.0 / _sqrt(q_len2)
    bx, by, bz = qx * inverse, qy * inverse, qz * inverse
    gap = upper - lower
    # reach()'s clamps with comparisons instead of max/min calls (the same values)
    inner = abs(gap)
    if inner < _EPS64 * span:
        inner = _EPS64 * span
    used = distance if distance > inner else inner
    if used > span:
        used = span
    twice = used + used
    along = (used * used + gap * span) / twice
    height = _sqrt((span + used) * (span - used) * (used - gap) * (used + gap)) / twice
    shortfall = abs(distance - used)
    return (
        rx + along * ux + height * bx,
        ry + along * uy + height * by,
        rz + along * uz + height * bz,
        rx + used * ux,
        ry + used * uy,
        rz + used * uz,
        _atan2(twice * height, upper * upper + lower * lower - used * used),
        distance,
        used,
        shortfall,
        shortfall <= _SQRT_EPS64 * span,
        1.0,
        _TOO_CLOSE if distance < inner else _TOO_FAR if distance > span else _REACHED,
    )


def _kernel(
    ops: Ops,
    eps: float,
    rx: Real,
    ry: Real,
    rz: Real,
    tx: Real,
    ty: Real,
    tz: Real,
    upper: Real,
    lower: Real,
    px: Real,
    py: Real,
    pz: Real,
    twist: Real | None,
    softness: Real | None,
    max_stretch: Real | None,
) -> tuple[Real, ...]:
    """Solve limbs given as components; results flat, in :class:`Solution3D` field order."""
    vx, vy, vz = tx - rx, ty - ry, tz - rz  # root → target
    distance = ops.sqrt(vx * vx + vy * vy + vz * vz)
    # Closer than eps·L the direction is rounding noise at the limb's own scale: fall back.
    aim_degenerate = distance <= eps * (upper + lower)
    ux, uy, uz = aim(ops, (vx, vy, vz), distance, aim_degenerate)
    bx, by, bz, pole_degenerate = _bend_direction(ops, eps, ux, uy, uz, px - rx, py - ry, pz - rz)
    if twist is not None:
        bx, by, bz = _twist(ops, ux, uy, uz, bx, by, bz, twist)
    limb = reach(ops, distance, upper, lower, softness, max_stretch, eps)
    tri = triangle(ops, limb.used, limb.upper, limb.lower)
    degenerate = ops.either(aim_degenerate, pole_degenerate)
    shortfall, reached, status = outcome(ops, eps, distance, limb, degenerate)
    return (
        # elbow = root + L1 (cos α u + sin α b): the triangle laid in the (u, b) plane
        rx + tri.along * ux + tri.height * bx,
        ry + tri.along * uy + tri.height * by,
        rz + tri.along * uz + tri.height * bz,
        rx + limb.used * ux,  # hand on the root → target ray at the reach
        ry + limb.used * uy,
        rz + limb.used * uz,
        tri.elbow_angle,
        distance,
        limb.used,
        shortfall,
        reached,
        limb.stretch,
        status,
    )


def _bend_direction(
    ops: Ops, eps: float, ux: Real, uy: Real, uz: Real, wx: Real, wy: Real, wz: Real
) -> tuple[Real, Real, Real, Real]:
    """Unit vector from the axis ``u`` toward the pole offset ``w``, perpendicular to ``u``.

    Returns the direction's three components and where the fallback plane was used.
    """
    w_len2 = wx * wx + wy * wy + wz * wz
    rescale = _RESCALE.get(eps)
    if rescale is not None and ops.any(small := w_len2 < rescale[0]):
        # A pole this close to the root makes |q|² below underflow into subnormals, whose square
        # root has lost digits: the bend direction would not be a unit vector and the bones would
        # change length. Scaling w by a power of two is exact and changes no direction.
        wx, wy, wz = (ops.where(small, c * rescale[1], c) for c in (wx, wy, wz))
        w_len2 = wx * wx + wy * wy + wz * wz
    qx, qy, qz = _reject(ux, uy, uz, wx, wy, wz)
    # Gram-Schmidt twice ("twice is enough"): with the pole near the axis the first pass leaves
    # a rounding residue along u comparable to q itself; the second pass removes it, so the bend
    # direction is perpendicular to u to working precision and the bone lengths stay exact.
    qx, qy, qz = _reject(ux, uy, uz, qx, qy, qz)
    q_len2 = qx * qx + qy * qy + qz * qz
    # Below a few eps of |w| the perpendicular part is rounding noise (pole on the axis, or at
    # the root): its direction means nothing, so use the fallback plane. Squared, no sqrt.
    on_axis = q_len2 <= (16.0 * eps) ** 2 * w_len2
    if not ops.any(on_axis):  # the common case: skip the fallback's passes entirely
        inverse = 1.0 / ops.sqrt(q_len2)
        return qx * inverse, qy * inverse, qz * inverse, on_axis
    fx, fy, fz = perpendicular(ops, ux, uy, uz)
    inverse = 1.0 / ops.sqrt(ops.where(on_axis, 1.0, q_len2))  # on-axis rows replaced below
    return (
        ops.where(on_axis, fx, qx * inverse),
        ops.where(on_axis, fy, qy * inverse),
        ops.where(on_axis, fz, qz * inverse),
        on_axis,
    )


def _reject(ux: Real, uy: Real, uz: Real, wx: Real, wy: Real, wz: Real) -> tuple[Real, Real, Real]:
    """``w`` without its component along the unit vector ``u``: ``w - (w·u) u`` (Gram-Schmidt)."""
    along = wx * ux + wy * uy + wz * uz  # w·u
    return wx - along * ux, wy - along * uy, wz - along * uz


def _twist(
    ops: Ops, ux: Real, uy: Real, uz: Real, bx: Real, by: Real, bz: Real, angle: Real
) -> tuple[Real, Real, Real]:
    """Rotate ``b`` (perpendicular to the unit axis ``u``) about ``u`` by ``angle``."""
    cos, sin = ops.cos(angle), ops.sin(angle)
    # Rodrigues with b ⟂ u: b cos τ + (u × b) sin τ (the (u·b) term vanishes)
    return (
        bx * cos + (uy * bz - uz * by) * sin,
        by * cos + (uz * bx - ux * bz) * sin,
        bz * cos + (ux * by - uy * bx) * sin,
    )
