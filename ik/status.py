"""Per-limb outcome codes, and the classification shared by the 2-D and 3-D solves."""

from __future__ import annotations

import enum
import math

import numpy as np

from ik._units import Values, from_units, to_units
from ik.reach import Reach


class Status(enum.IntEnum):
    """What happened to each limb (``sol.status``, int8); precedence
    ``DEGENERATE > STRETCHED > SOFTENED > TOO_FAR / TOO_CLOSE > REACHED``."""

    REACHED = 0
    """The target lies inside the reachable annulus; the hand is on it."""
    TOO_FAR = 1
    """The target is beyond ``L1 + L2`` (times the stretch): the straight arm aims at it."""
    TOO_CLOSE = 2
    """The target is inside ``|L1 - L2|`` (times the stretch): the folded arm aims at it."""
    SOFTENED = 3
    """The target is in the soft zone (``d > L - softness``): the reach was eased in."""
    STRETCHED = 4
    """The bones were scaled by a stretch factor above 1 to reach the target."""
    DEGENERATE = 5
    """A direction was undefined and a documented fallback used (target at the root; in 3-D
    also a pole on the root-target axis)."""


def outcome(
    distance: np.ndarray, units: Values | None, limb: Reach, degenerate: Values, eps: float
) -> tuple[Values, Values, Values, Values]:
    """Reach, shortfall (world units), ``reached`` and status from the raw ``distance`` (world
    units), the clamp stage's ``limb`` (units of ``2^units``; None: world units) and where a
    fallback direction or plane was used."""
    reach = from_units(limb.used, units)
    shortfall = np.abs(distance - reach)  # |target − hand|: the hand is on the root-target ray
    # within half the working digits of L: rounding in a softened or stretched reach never
    # flips a reached limb
    reached = to_units(shortfall, units) <= math.sqrt(eps) * limb.span
    d = to_units(distance, units)
    far, close = np.int8(Status.TOO_FAR), np.int8(Status.TOO_CLOSE)
    status = far * (d > limb.span) + close * (d < limb.inner)  # never both
    flags = (limb.softened, np.greater(limb.stretch, 1.0), degenerate)
    for flag, code in zip(
        flags, (Status.SOFTENED, Status.STRETCHED, Status.DEGENERATE), strict=True
    ):
        if np.any(flag):  # in rising precedence: each overrides the ones before
            status = np.where(flag, np.int8(code), status)
    return reach, shortfall, reached, status
