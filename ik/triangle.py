"""The law-of-cosines stage shared by the 2-D and 3-D solves.

Triangle vertices (the seed's names): shoulder/root ``s``, elbow ``e``, hand ``h``; sides
``L1 = |e - s|``, ``L2 = |h - e|`` and the base ``a = |h - s|`` (the clamped reach). The
elbow is returned in the frame of the base: a distance ``along`` the root-hand line and a
``height`` off it, so a caller places it with two basis vectors and never calls cos or sin.
The algebraic (Heron) form keeps full precision near full extension, where
``sqrt(1 - cos^2)`` would cancel catastrophically.
"""

from __future__ import annotations

from typing import NamedTuple

from ik._ops import Ops, Real


class Triangle(NamedTuple):
    """The elbow in the base frame, and the interior elbow angle."""

    along: Real
    """``L1 cos(alpha)``: elbow's distance along the root-hand line."""
    height: Real
    """``L1 sin(alpha) >= 0``: elbow's distance off that line."""
    elbow_angle: Real
    """Interior angle ``theta`` at the elbow, in ``[0, pi]``."""


def triangle(ops: Ops, base: Real, upper: Real, lower: Real) -> Triangle:
    """Solve the shoulder-elbow-hand triangle from its three sides.

    Parameters
    ----------
    ops : Ops
        The backend.
    base : float or ndarray, shape (n,)
        ``a``, already clamped into ``[max(|L1 - L2|, eps L), L1 + L2]`` (so ``a > 0`` and
        the triangle inequality holds exactly).
    upper, lower : float or ndarray, shape (n,)
        ``L1, L2 > 0``.

    Returns
    -------
    Triangle
    """
    span = upper + lower
    gap = upper - lower
    twice_base = base + base
    # law of cosines at the shoulder: L1 cos α = (L1² + a² − L2²) / (2a), with L1² − L2²
    # factored as (L1 − L2)(L1 + L2) so equal bones give an exact zero.
    along = (base * base + gap * span) / twice_base
    # Heron: 16·area² = (L + a)(L − a)(a − (L1 − L2))(a + (L1 − L2)). Each factor is >= 0
    # exactly because a was clamped into the annulus, so no guard is needed before sqrt, and
    # (L − a) is computed directly rather than as a difference of squares (precise when straight).
    heron = (span + base) * (span - base) * (base - gap) * (base + gap)
    height = ops.sqrt(heron) / twice_base  # height over the base: 2·area / a = L1 sin α
    # Interior angle from its cosine and sine scaled by 2·L1·L2 (law of cosines:
    # cos θ = (L1² + L2² − a²) / (2·L1·L2); sin θ = 2·area / (L1·L2) = a·h / (L1·L2)); atan2
    # of the pair stays accurate at θ ≈ 0 and θ ≈ π where acos loses half its digits.
    elbow_angle = ops.atan2(twice_base * height, upper * upper + lower * lower - base * base)
    return Triangle(along, height, elbow_angle)
