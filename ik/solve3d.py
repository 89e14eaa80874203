"""Analytic two-bone IK in space: the planar triangle laid in the root-target-pole plane
(docs/MATH.md §6)."""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from ik import _scalar
from ik._batch import solve
from ik._units import Values, dot
from ik.solution import Solution3D


def solve_3d(
    root: ArrayLike,
    target: ArrayLike,
    upper_len: ArrayLike,
    lower_len: ArrayLike,
    pole: ArrayLike,
    *,
    twist: ArrayLike = 0.0,
    softness: ArrayLike = 0.0,
    max_stretch: ArrayLike = 1.0,
) -> Solution3D:
    """Place the elbow and hand of two-bone limbs in space (y-up, right-handed, radians).

    The reach is found as in :func:`ik.solve_2d`; the hand is ``root + reach * unit(target -
    root)``, the elbow in the root-target-pole plane on the pole's side at angle ``alpha`` from
    the root-target axis, then turned about that axis by ``twist`` (right-hand rule).
    Fallbacks (finite, deterministic, ``Status.DEGENERATE``): a target at the root
    (``d <= eps (L1 + L2)``) takes the axis as +x; a pole on the axis (sine of its angle from
    the axis ``<= 16 eps``, a pole at the root too) bends toward the world axis least aligned
    with the root-target direction (x, then y, then z on ties) made perpendicular to it.

    Parameters
    ----------
    root, target, pole : array_like, shape (..., 3)
        Shoulder (hip) positions, where the hands should go, points the elbows bend toward.
    upper_len, lower_len : array_like, shape (...)
        Bone lengths ``L1, L2 > 0``.
    twist : array_like, shape (...), default 0
        Extra turn of the elbow about the root-target axis, radians, right-hand rule.
    softness, max_stretch : array_like, shape (...)
        As in :func:`ik.solve_2d`.

    Returns
    -------
    Solution3D
        As :func:`ik.solve_2d`.

    Raises
    ------
    ValueError, TypeError
        As :func:`ik.solve_2d` (a last dimension other than 3), and for a non-finite twist.
    """
    values = [upper_len, lower_len, twist, softness, max_stretch]
    small = _scalar.solve(Solution3D, [root, target, pole], values)
    if small is not None:
        return small  # type: ignore[return-value]
    points = {"root": root, "target": target, "pole": pole}
    per = {"upper_len": upper_len, "lower_len": lower_len, "twist": twist}
    options = {"softness": softness, "max_stretch": max_stretch}
    return solve(Solution3D, 3, _place, 3, points, per | options)  # type: ignore[return-value]


def _place(frame: Any, eps: float, u: np.ndarray, w: tuple, twist: Values, *tri: Any) -> tuple:
    """The elbow and hand offsets ``(3, m)``, and where the pole is on the axis."""
    along, height, reach = tri
    b, scale, on_axis = _bend_direction(eps, u, *w)  # the pole plane, b / |b| = b * scale
    if twist is not None:  # Rodrigues with b ⟂ u: b cos τ + (u × b) sin τ (no (u·b) term)
        b = b * np.cos(twist) + _cross(u, b) * np.sin(twist)
    # elbow = L1 (cos α u + sin α b / |b|) in the (u, b) plane; the hand on the root → target ray
    return along * u + height * scale * b, reach * u, on_axis


def _bend_direction(eps: float, u: np.ndarray, len2: np.ndarray, w: np.ndarray) -> tuple:
    """``b`` perpendicular to the axis ``u`` toward the pole's direction ``w`` (``|w|² = len2``,
    0: at the root), ``1 / |b|``, and where the pole is on the axis (``b``: then the fallback)."""
    # the pole plane's normal n = u × w, then b = n × u = w − (w·u) u: perpendicular to u to
    # working precision however close w is to the axis (n × u drops n's rounding along u)
    b = _cross(_cross(u, w), u)
    sine2 = dot(b, b)  # |b|² = |w|² sin² of the angle between u and w
    on_axis = sine2 <= (16.0 * eps) ** 2 * len2  # the plane is rounding noise: use the fallback
    if np.any(on_axis):
        b, sine2 = np.where(on_axis, perpendicular(u), b), np.where(on_axis, 1.0, sine2)
    return b, 1.0 / np.sqrt(sine2), on_axis


def _cross(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``a x b`` of component-major vectors ``(3, n)``."""
    c = np.empty(np.broadcast_shapes(a.shape, b.shape), np.result_type(a, b))
    np.subtract(a[1] * b[2], a[2] * b[1], out=c[0])
    np.subtract(a[2] * b[0], a[0] * b[2], out=c[1])
    np.subtract(a[0] * b[1], a[1] * b[0], out=c[2])
    return c


def perpendicular(u: np.ndarray) -> np.ndarray:
    """A unit vector perpendicular to the unit ``u`` ``(3, ...)``: the world axis least aligned
    with it (x, then y, then z on ties; ``u_k² <= 1/3``, so the norm below is ``>= sqrt(2/3)``),
    its ``u`` part removed (Gram-Schmidt). Also :func:`ik.bone_rotations`' half-turn axis."""
    axis = np.eye(3, dtype=u.dtype)[:, np.argmin(np.abs(u), axis=0)]  # argmin: first on ties
    p = axis - dot(axis, u) * u
    return p / np.sqrt(dot(p, p))
