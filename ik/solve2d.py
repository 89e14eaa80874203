"""Analytic two-bone IK in the plane (docs/MATH.md §1-§5), with pole, soft reach and stretch."""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from ik import _scalar
from ik._batch import solve
from ik._units import Values
from ik.solution import Solution2D


def solve_2d(
    root: ArrayLike,
    target: ArrayLike,
    upper_len: ArrayLike,
    lower_len: ArrayLike,
    *,
    bend: ArrayLike = 1,
    pole: ArrayLike | None = None,
    softness: ArrayLike = 0.0,
    max_stretch: ArrayLike = 1.0,
) -> Solution2D:
    """Place the elbow and hand of two-bone limbs in the plane (y-up, radians).

    The distance ``d = |target - root|`` is softened, clamped into the (stretched) annulus
    ``[|L1 - L2|, L1 + L2]`` and the triangle solved by the law of cosines; the hand is
    ``root + reach * unit(target - root)``, the upper bone at ``phi + alpha`` for ``bend = +1``
    (elbow counter-clockwise of the root-target line), ``phi - alpha`` for ``bend = -1``. The
    arguments broadcast together; any finite input is solved, at any magnitude.

    Parameters
    ----------
    root, target : array_like, shape (..., 2)
        Shoulder (hip) positions, and where the hands should go.
    upper_len, lower_len : array_like, shape (...)
        Bone lengths ``L1, L2 > 0``.
    bend : array_like of {+1, -1}, shape (...), default 1
        Elbow side without a pole, or where the pole lies on the root-target line.
    pole : array_like, shape (..., 2), optional
        The elbow goes on the pole's side of the root-target line.
    softness : array_like, shape (...), default 0
        Width ``s`` of the soft zone, ``0 <= s < L1 + L2`` (0 = off): ``d > L - s`` becomes
        ``L - s + s (1 - exp(-(d - L + s) / s))``, ``L = (L1 + L2) * max_stretch``.
    max_stretch : array_like, shape (...), default 1
        Largest factor ``k >= 1`` both bones may scale by to reach the target (1 = off).

    Returns
    -------
    Solution2D
        Arrays of the batch shape (0-d for one limb) and the inputs' float dtype (float32
        stays float32; integers compute in float64).

    Raises
    ------
    ValueError
        Naming the argument: a last dimension other than 2, batch shapes that do not
        broadcast, ragged nesting, a non-finite coordinate (with its index), a length not
        positive and finite, ``bend`` not +-1, ``softness`` outside ``[0, L1 + L2)``,
        ``max_stretch < 1``, an answer beyond the dtype's range. A target at the root is not
        an error: the limb aims along +x, ``Status.DEGENERATE``.
    TypeError
        Naming the argument, for None, booleans or non-numbers.
    """
    values = [upper_len, lower_len, bend, softness, max_stretch]
    small = _scalar.solve(Solution2D, [root, target, pole], values)
    if small is not None:
        return small  # type: ignore[return-value]
    points = {"root": root, "target": target, "pole": pole}
    per = {"upper_len": upper_len, "lower_len": lower_len, "bend": bend}
    options = {"softness": softness, "max_stretch": max_stretch}
    return solve(Solution2D, 2, _place, 5, points, per | options)  # type: ignore[return-value]


def _place(frame: np.ndarray, eps: float, u: np.ndarray, w: Any, bend: Values, *tri: Any) -> tuple:
    """The elbow and hand offsets ``(2, m)``, the elbow's in the lazy angles' ``frame`` rows 3-4
    (row 2: the height, signed): the elbow on the pole's side of the root-target line, else
    (or within a few eps of the line, where the sign is rounding) on ``bend``'s."""
    along, height, reach = tri
    if w is not None:
        len2, (wx, wy) = w
        sine = u[0] * wy - u[1] * wx  # u × w: |w| sin of the angle from u to w
        bend = np.where(sine * sine <= (4.0 * eps) ** 2 * len2, bend, np.sign(sine))
    elbow = frame[3:5]
    # the elbow L1 (cos α u ± sin α u⊥), u⊥ = (−u_y, u_x) (u turned +90°): L1 (cos(φ ± α),
    # sin(φ ± α)) by the angle-sum identities (docs/MATH.md §3), no trig calls; + is counter-clockwise
    np.multiply(along, u, out=elbow)
    lift = np.multiply(bend, height, out=frame[2])
    elbow[0] -= lift * u[1]
    elbow[1] += lift * u[0]
    return elbow, reach * u, False  # the hand on the root → target ray at the reach
