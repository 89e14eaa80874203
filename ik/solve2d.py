"""Analytic two-bone IK in the plane (the seed's recipe, with pole, soft reach and stretch)."""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

from ik import _fast, _one_limb, _small
from ik._batch import batch_size, limb_column, new_outputs, point_columns, run_chunks
from ik._frame import aim
from ik._limbs import check_limbs, optional
from ik._ops import SCALAR, Ops, Real
from ik._validate import require
from ik.reach import reach, soften
from ik.solution import Solution2D, from_batch, from_rows, one_limb_builder, output_layout
from ik.status import Status, outcome
from ik.triangle import triangle

_EPS64 = float(np.finfo(np.float64).eps)
_sqrt, _atan2 = math.sqrt, math.atan2  # module globals: one lookup fewer per call
_SQRT_EPS64 = _sqrt(_EPS64)
_REACHED, _TOO_FAR, _TOO_CLOSE, _SOFTENED = (
    int(Status.REACHED),
    int(Status.TOO_FAR),
    int(Status.TOO_CLOSE),
    int(Status.SOFTENED),
)

_SIGN_TYPES = (int, float)
"""Plain types a one-limb ``bend`` may have (it only multiplies: an int +-1 equals the float)."""

_build_one = one_limb_builder(Solution2D, 2)
"""Builds a one-limb solution from ``_solve_limb``'s results."""


def solve_2d(
    root: npt.ArrayLike,
    target: npt.ArrayLike,
    upper_len: npt.ArrayLike,
    lower_len: npt.ArrayLike,
    *,
    bend: npt.ArrayLike = 1,
    pole: npt.ArrayLike | None = None,
    softness: npt.ArrayLike = 0.0,
    max_stretch: npt.ArrayLike = 1.0,
) -> Solution2D:
    """Place the elbow and hand of two-bone limbs in the plane (y-up, radians).

    The distance ``d = |target - root|`` is softened, clamped into the (stretched) annulus
    ``[|L1 - L2|, L1 + L2]`` and the triangle solved by the law of cosines; the hand is
    ``root + reach * unit(target - root)`` and the upper bone sits at ``phi + alpha`` for
    ``bend = +1`` (elbow counter-clockwise of the root-target line) or ``phi - alpha`` for
    ``bend = -1``. Every array argument broadcasts against the others.

    Parameters
    ----------
    root : array_like, shape (..., 2)
        Shoulder (hip) positions.
    target : array_like, shape (..., 2)
        Where the hands should go.
    upper_len, lower_len : array_like, shape (...)
        Bone lengths ``L1, L2 > 0``.
    bend : array_like of {+1, -1}, shape (...), default 1
        Elbow side when there is no pole, or when the pole lies on the root-target line.
    pole : array_like, shape (..., 2), optional
        A point the elbow should bend toward: the elbow goes on the pole's side of the
        root-target line (sign of ``cross(target - root, pole - root)``).
    softness : array_like, shape (...), default 0
        Width ``s`` of the soft zone before full extension, ``0 <= s < L1 + L2`` (0 = off):
        ``d > L - s`` becomes ``L - s + s (1 - exp(-(d - L + s) / s))`` before clamping, with
        ``L = (L1 + L2) * max_stretch``.
    max_stretch : array_like, shape (...), default 1
        Largest factor ``k >= 1`` both bones may scale by to reach the target (1 = off).

    Returns
    -------
    Solution2D
        Arrays in the broadcast batch shape ``(...)`` (0-d for one limb) and the inputs' float
        dtype (float32 stays float32; integers compute in float64). See :class:`Solution2D`
        for the fields, the ``reached`` tolerance and the status precedence.

    Raises
    ------
    ValueError
        Naming the argument, for a last dimension other than 2, batch shapes that do not
        broadcast, a non-finite coordinate (with its index), a non-positive or non-finite
        length, a ``bend`` other than +-1, ``softness`` outside ``[0, L1 + L2)`` or
        ``max_stretch < 1``. Degenerate geometry (target at the root) is never an error: the
        limb aims along +x and reports ``Status.DEGENERATE``.
    """
    one = _solve_one(root, target, upper_len, lower_len, bend, pole, softness, max_stretch)
    if one is not None:
        return one
    points = {"root": root, "target": target, "pole": pole}
    per_limb = {
        "upper_len": upper_len,
        "lower_len": lower_len,
        "bend": bend,
        "softness": softness,
        "max_stretch": max_stretch,
    }
    small = _small.columns(2, points, per_limb)
    if small is not None and set(small.values["bend"]) <= {1.0, -1.0}:
        return _solve_small(small)
    limbs = check_limbs(2, points, per_limb)
    values = limbs.values
    bend_values = values["bend"]
    if bend_values.ndim or abs(bend_values[()]) != 1.0:  # the default 1 needs no array passes
        require("bend", bend_values, np.abs(bend_values) == 1.0, "+1 or -1")
    shape, pole_points = limbs.shape, limbs.points.get("pole")
    soft, stretch = optional(values["softness"], 0.0), optional(values["max_stretch"], 1.0)
    args = [
        float(np.finfo(limbs.dtype).eps),
        *point_columns(limbs.points["root"], shape),
        *point_columns(limbs.points["target"], shape),
        *(limb_column(values[name], shape) for name in ("upper_len", "lower_len", "bend")),
        *(point_columns(pole_points, shape) if pole_points is not None else (None, None)),
        None if soft is None else limb_column(soft, shape),
        None if stretch is None else limb_column(stretch, shape),
    ]
    layout = output_layout(Solution2D, 2, limbs.dtype)
    if stretch is None:  # the common case: allocation-free kernel
        outputs = new_outputs(batch_size(shape), layout)
        _fast.solve_2d(_kernel, args, outputs, _pole_side)
    else:
        outputs = run_chunks(_kernel, args, batch_size(shape), layout)
    return from_batch(Solution2D, outputs, shape)


def _solve_one(
    root: object,
    target: object,
    upper_len: object,
    lower_len: object,
    bend: object,
    pole: object,
    softness: object,
    max_stretch: object,
) -> Solution2D | None:
    """One plain float64 limb in pure Python, or None to take the other paths."""
    floats = _one_limb.limb(2, root, target, upper_len, lower_len, softness, max_stretch)
    if floats is None or type(bend) not in _SIGN_TYPES or (bend != 1 and bend != -1):
        return None
    rx, ry, tx, ty, upper, lower, s, k = floats
    px = py = None
    if pole is not None:
        p = _one_limb.point(pole, 2)
        if p is None or (p[0] + p[1]) - (p[0] + p[1]) != 0.0:  # not finite: see limb()
            return None
        px, py = p
    if k == 1.0:  # _solve_limb's first choice, without its call
        row = _plain_one(rx, ry, tx, ty, upper, lower, bend, px, py, s)
        if row is not None:
            return _build_one(row)
    return _build_one(_solve_limb(SCALAR, _EPS64, rx, ry, tx, ty, upper, lower, bend, px, py, s, k))


def _solve_small(limbs: _small.Columns) -> Solution2D:
    """A small batch, limb by limb (see :mod:`ik._small`)."""
    eps = float(np.finfo(limbs.dtype).eps)
    (rx, ry), (tx, ty) = limbs.points["root"], limbs.points["target"]
    px, py = limbs.points.get("pole", ([None] * limbs.n, [None] * limbs.n))
    v = limbs.values
    rows = [
        _solve_limb(limbs.ops, eps, *args)
        for args in zip(
            rx,
            ry,
            tx,
            ty,
            v["upper_len"],
            v["lower_len"],
            v["bend"],
            px,
            py,
            v["softness"],
            v["max_stretch"],
            strict=True,
        )
    ]
    return from_rows(Solution2D, rows, 2, limbs.dtype, limbs.shape)


def _solve_limb(
    ops: Ops,
    eps: float,
    rx: Real,
    ry: Real,
    tx: Real,
    ty: Real,
    upper: Real,
    lower: Real,
    bend: Real,
    px: Real | None,
    py: Real | None,
    softness: Real,
    max_stretch: Real,
) -> tuple[Real, ...]:
    """One limb in a scalar backend: the inlined plain solve where it applies, else the kernel
    (a softness of 0 or a max_stretch of 1 turns that option off, as in the vector path)."""
    if ops is SCALAR and max_stretch == 1.0:
        plain = _plain_one(rx, ry, tx, ty, upper, lower, bend, px, py, softness)
        if plain is not None:
            return plain
    return _kernel(
        ops,
        eps,
        rx,
        ry,
        tx,
        ty,
        upper,
        lower,
        bend,
        px,
        py,
        softness or None,
        None if max_stretch == 1.0 else max_stretch,
    )


def _plain_one(
    rx: float,
    ry: float,
    tx: float,
    ty: float,
    upper: float,
    lower: float,
    bend: float,
    px: float | None,
    py: float | None,
    softness: float,
) -> tuple[Real, ...] | None:
    """``_kernel`` on one limb with stretch off, inlined (the same operations in the same order,
    so the same results), or None for a target at the root (the fallback)."""
    vx, vy = tx - rx, ty - ry
    distance = _sqrt(vx * vx + vy * vy)
    span = upper + lower
    if distance <= _EPS64 * span:
        return None
    inverse = 1.0 / distance
    ux, uy = vx * inverse, vy * inverse
    if px is None or py is None:
        side = bend
    else:
        side = _pole_side(SCALAR, _EPS64, vx, vy, px - rx, py - ry, bend)
    eased = soften(SCALAR, distance, span, softness) if softness else distance
    gap = upper - lower
    # reach()'s clamps with comparisons instead of max/min calls (the same values)
    inner = abs(gap)
    if inner < _EPS64 * span:
        inner = _EPS64 * span
    used = eased if eased > inner else inner
    if used > span:
        used = span
    twice = used + used
    along = (used * used + gap * span) / twice
    height = _sqrt((span + used) * (span - used) * (used - gap) * (used + gap)) / twice
    angle = _atan2(twice * height, upper * upper + lower * lower - used * used)
    lift = side * height
    ex, ey = along * ux - lift * uy, along * uy + lift * ux
    hx, hy = used * ux, used * uy
    shortfall = abs(distance - used)
    if eased < distance:
        status = _SOFTENED
    else:
        status = _TOO_CLOSE if distance < inner else _TOO_FAR if distance > span else _REACHED
    return (
        rx + ex,
        ry + ey,
        rx + hx,
        ry + hy,
        angle,
        distance,
        used,
        shortfall,
        shortfall <= _SQRT_EPS64 * span,
        1.0,
        status,
        _atan2(ey, ex),
        _atan2(hy - ey, hx - ex),
    )


def _kernel(
    ops: Ops,
    eps: float,
    rx: Real,
    ry: Real,
    tx: Real,
    ty: Real,
    upper: Real,
    lower: Real,
    bend: Real,
    px: Real | None,
    py: Real | None,
    softness: Real | None,
    max_stretch: Real | None,
) -> tuple[Real, ...]:
    """Solve limbs given as components; results flat, in :class:`Solution2D` field order."""
    vx, vy = tx - rx, ty - ry  # root → target
    distance = ops.sqrt(vx * vx + vy * vy)
    # Closer than eps·L the direction is rounding noise at the limb's own scale: fall back.
    degenerate = distance <= eps * (upper + lower)
    ux, uy = aim(ops, (vx, vy), distance, degenerate)
    side = bend if px is None else _pole_side(ops, eps, vx, vy, px - rx, py - ry, bend)
    limb = reach(ops, distance, upper, lower, softness, max_stretch, eps)
    tri = triangle(ops, limb.used, limb.upper, limb.lower)
    lift = side * tri.height  # signed height: + is counter-clockwise of root → target
    # Elbow in the (u, u rotated +90°) frame: L1 (cos α u ± sin α u⊥), i.e. the seed's
    # L1 (cos(φ ± α), sin(φ ± α)) by the angle-sum identities, with no trig calls.
    ex, ey = tri.along * ux - lift * uy, tri.along * uy + lift * ux
    hx, hy = limb.used * ux, limb.used * uy  # hand on the root → target ray at the reach
    shortfall, reached, status = outcome(ops, eps, distance, limb, degenerate)
    return (
        rx + ex,
        ry + ey,
        rx + hx,
        ry + hy,
        tri.elbow_angle,
        distance,
        limb.used,
        shortfall,
        reached,
        limb.stretch,
        status,
        ops.atan2(ey, ex),  # upper bone's world angle
        ops.atan2(hy - ey, hx - ex),  # lower bone's world angle
    )


def _pole_side(ops: Ops, eps: float, vx: Real, vy: Real, wx: Real, wy: Real, bend: Real) -> Real:
    """+1 where the pole ``w`` is counter-clockwise of ``v``, -1 clockwise, ``bend`` on the line."""
    cross = vx * wy - vy * wx  # z of v × w: |v||w| sin(angle from v to w)
    # Within a few eps of |v||w| the sign of the cross product is rounding: the pole is on the
    # line (or at the root, or the target is), so the choice falls back to bend. Squared to
    # avoid two square roots.
    on_line = cross * cross <= (4.0 * eps) ** 2 * (vx * vx + vy * vy) * (wx * wx + wy * wy)
    return ops.where(on_line, bend, ops.where(cross > 0.0, 1.0, -1.0))
