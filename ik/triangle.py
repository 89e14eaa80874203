"""The law-of-cosines stage shared by the 2-D and 3-D solves.

Triangle vertices (the seed's names): shoulder/root ``s``, elbow ``e``, hand ``h``; sides
``L1 = |e - s|``, ``L2 = |h - e|`` and the base ``a = |h - s|`` (the clamped reach). The elbow is
returned in the base's frame, a distance ``along`` the root-hand line and a ``height`` off it, so
a caller places it with two basis vectors and never calls cos or sin.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ik._units import Values


class Triangle(NamedTuple):
    """The elbow in the base frame: ``L1 cos(alpha)`` along the root-hand line, ``L1 sin(alpha)
    >= 0`` off it."""

    along: Values
    height: Values


def triangle(base: Values, upper: Values, lower: Values) -> Triangle:
    """Solve the shoulder-elbow-hand triangle from its three sides, ``base`` already clamped into
    ``[max(|L1 - L2|, eps L), L1 + L2]`` (so ``a > 0`` and the triangle inequality holds)."""
    span, gap, twice_base = upper + lower, upper - lower, base + base
    # the seed's shoulder angle: L1 cos α = (L1² + a² − L2²) / (2a), with L1² − L2² factored as
    # (L1 − L2)(L1 + L2) so equal bones give an exact zero (updated in place: one temporary)
    along = base * base
    along += gap * span
    along /= twice_base
    # Heron: 16 area² = (L + a)(L − a)(a − (L1 − L2))(a + (L1 − L2)), each factor >= 0 because a
    # was clamped into the annulus; L − a is formed directly (precise when nearly straight)
    height = span + base
    height *= span - base
    height *= base - gap
    height *= base + gap
    np.sqrt(height, out=height)
    height /= twice_base  # height = 2 area / a = L1 sin α
    return Triangle(along, height)


def interior_angle(base: Values, along: Values, height: Values) -> Values:
    """The interior angle at the elbow, ``theta`` in ``[0, pi]`` (``pi``: straight): with the
    elbow ``e = along u + height n``, the hand ``a u`` (``u``, ``n`` orthonormal),
    ``|(s - e) x (h - e)| = a height`` and ``(s - e) . (h - e) = along² + height² - a along``;
    their ``atan2`` stays accurate at 0 and pi, where the seed's ``acos((L1² + L2² - a²) /
    (2 L1 L2))`` loses half its digits."""
    return np.arctan2(base * height, along * along + height * height - base * along)
