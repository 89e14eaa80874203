"""The stages shared by the 2-D and 3-D solves once the limb is aimed: soften, stretch, clamp,
the triangle, classify (docs/MATH.md §4, §7-§9).

* Soft reach (Andy Nicholas, "Soft IK", 2010; docs/MATH.md §7): with ``L`` the longest reach,
  ``d_s = L - s``, ``d > d_s`` becomes ``d_s + s (1 - exp(-(d - d_s) / s))``: equal value and
  slope at ``d_s``, ``L`` approached asymptotically, so a knee never snaps straight
  (ozz-animation's ``IKTwoBoneJob`` uses a different, polynomial curve). Stretch (§8): both
  bones scale by one factor in ``[1, max_stretch]``, and the soft curve eases toward that
  extension.
* Clamp (§4): ``d <- clamp(d, |L1 - L2|, L1 + L2)`` before the law of cosines.
* Triangle (§1's names): root ``s``, elbow ``e``, hand ``h``; ``L1 = |e - s|``, ``L2 =
  |h - e|``, base ``a = |h - s|`` (the clamped reach). The elbow is found ``along`` the
  root-hand line and ``height`` off it (§3): a caller places it with two basis vectors, no
  cos/sin.
"""

from __future__ import annotations

import enum
import math
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt
from numpy.typing import ArrayLike

from ik._units import Values, batch_shape, float_dtype, from_units, require, to_array, to_units


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


def soften(distance: Values, full: Values, softness: Values) -> Values:
    """Nicholas' soft-reach curve: identity where ``softness`` is 0 or ``d <= L - s``, else
    ``d_s + s (1 - e^{-(d - d_s)/s})``, never above ``L`` (``full``)."""
    knee = full - softness  # d_s = L - s, where the soft zone starts
    scale = np.where(softness > 0.0, softness, 1.0)  # s = 0 takes the identity below
    # the excess over the knee in units of s, clamped into [0, 64]: expm1 below never
    # overflows, and beyond 64 e^-x is far below eps (the cap only keeps x finite for tiny s)
    with np.errstate(over="ignore"):  # a huge excess over a tiny s: inf, capped at 64
        excess = np.minimum(np.maximum(distance - knee, 0.0) / scale, 64.0)
    # d_s + s (1 - e^{-x}) = d_s - s expm1(-x): expm1 keeps full precision just past the knee
    eased = np.minimum(knee - softness * np.expm1(-excess), full)  # rounding: <= L
    return np.where((distance > knee) & (softness > 0.0), eased, distance)


class Reach(NamedTuple):
    """The clamp stage's results in the limb's units: the distance the triangle is solved for,
    the stretched bones, full extension ``L1 + L2``, fold limit ``max(|L1 - L2|, eps L)``, the
    stretch factor (1: off) and where the distance is in the soft zone (False: off)."""

    used: Values
    upper: Values
    lower: Values
    span: Values
    inner: Values
    stretch: Values
    softened: Values


def clamp(
    d: Values, upper: Values, lower: Values, softness: Any, max_stretch: Any, eps: float
) -> Reach:
    """Soften, stretch and clamp the root-target distance ``d`` (an option None: off)."""
    span = upper + lower  # L = L1 + L2, full extension
    full = span if max_stretch is None else span * max_stretch  # longest reach k L
    eased = d if softness is None else soften(d, full, softness)
    stretch: Values = 1.0
    if max_stretch is not None:
        # the factor that makes the straight arm reach d: d / (L1 + L2), never below 1 nor above k
        with np.errstate(over="ignore"):  # a target far beyond the limb: inf, capped at k
            stretch = np.minimum(np.maximum(eased / span, 1.0), max_stretch)
        upper, lower = upper * stretch, lower * stretch
        span = upper + lower  # re-added, not scaled: the triangle sums the same two lengths
    # fold limit |L1 - L2|, floored at eps L: equal bones would give the triangle a zero base
    inner = np.maximum(np.abs(upper - lower), eps * span)
    used = np.minimum(np.maximum(eased, inner), span)  # clamp(d, |L1 - L2|, L1 + L2): MATH.md §4
    # the soft zone d > L - s ("eased < d" differed by precision: past the knee the curve
    # moves d by ~(d - d_s)² / 2s, below float32's rounding; within an ulp of d_s, as at L)
    softened = False if softness is None else (softness > 0.0) & (d > full - softness)
    return Reach(used, upper, lower, span, inner, stretch, softened)


def triangle(limb: Reach) -> tuple[Values, Values]:
    """The elbow in the base frame, ``(L1 cos α, L1 sin α >= 0)``, from the three sides, the
    base ``a`` already clamped into ``[max(|L1 - L2|, eps L), L1 + L2]`` (so ``a > 0`` and the
    triangle inequality holds)."""
    a, span, gap = limb.used, limb.span, limb.upper - limb.lower
    twice_base = a + a
    # law of cosines at the root (docs/MATH.md §3): L1 cos α = (L1² + a² − L2²) / (2a), with
    # L1² − L2² factored as (L1 − L2)(L1 + L2) so equal bones give an exact zero
    along = (a * a + gap * span) / twice_base
    # Heron: 16 area² = (L + a)(L − a)(a − (L1 − L2))(a + (L1 − L2)), each factor >= 0 because a
    # was clamped into the annulus; L − a is formed directly (precise when nearly straight)
    height = np.sqrt((span + a) * (span - a) * (a - gap) * (a + gap)) / twice_base  # 2 area / a
    return along, height


def interior_angle(base: Values, along: Values, height: Values) -> Values:
    """The interior angle at the elbow, ``theta`` in ``[0, pi]`` (``pi``: straight): with the
    elbow ``e = along u + height n`` and the hand ``a u`` (``u``, ``n`` orthonormal), ``L1 L2
    sin theta = |(s - e) x (h - e)| = a |height|`` and ``L1 L2 cos theta = (s - e) . (h - e) =
    along² + height² - a along``, so ``theta = atan2`` of the two: accurate at 0 and pi, where
    ``acos`` of the cosine (docs/MATH.md §2) loses half its digits."""
    return np.arctan2(np.abs(base * height), along * along + height * height - base * along)


def classify(
    out: dict[str, Any], d: Values, units: Any, limb: Reach, fallback: Any, eps: float
) -> None:
    """Write the reach, shortfall (world units), ``reached``, stretch and status into ``out``,
    from ``d`` and ``limb`` in units of ``2^units`` (None: world units), ``out["distance"]``
    and where a ``fallback`` direction or plane was used."""
    reach, shortfall = out["reach"], out["shortfall"]
    reach[...] = from_units(limb.used, units)
    np.abs(out["distance"] - reach, out=shortfall)  # |target − hand|: the hand is on the ray
    # within half the working digits of L: rounding in a softened or stretched reach never
    # flips a reached limb
    np.less_equal(to_units(shortfall, units), math.sqrt(eps) * limb.span, out=out["reached"])
    out["stretch"][...] = limb.stretch
    status = out["status"]
    np.greater(d, limb.span, out=status, casting="unsafe")  # TOO_FAR = 1
    flags = (np.less(d, limb.inner), limb.softened, np.greater(limb.stretch, 1.0), fallback)
    codes = (Status.TOO_CLOSE, Status.SOFTENED, Status.STRETCHED, Status.DEGENERATE)
    # codes rise with precedence: the largest earned wins (branch-free; masked copies: ~10x)
    for flag, code in zip(flags, codes, strict=True):
        if np.ndim(flag) or flag:  # a scalar False (an option off) would still cost a pass
            np.maximum(status, np.multiply(flag, code, dtype=np.int8), out=status)


def soften_distance(
    distance: ArrayLike, reach: ArrayLike, softness: ArrayLike
) -> npt.NDArray[np.floating]:
    """The soft-reach curve ``d -> d_soft`` on its own (for plots and tuning): ``d`` up to
    ``d_s = reach - softness`` unchanged, beyond it ``d_s + s (1 - exp(-(d - d_s) / s))``
    (Nicholas): continuous with its slope, increasing, never above ``reach``; ``softness = 0``
    is the identity; no clamping. ``distance >= 0``, ``reach > 0``, ``0 <= softness < reach``
    broadcast together; returns their broadcast shape and float dtype. ``ValueError`` (naming
    the argument) for shapes that do not broadcast or values out of range, ``TypeError`` for
    None or booleans."""
    dtype = float_dtype(distance, reach, softness)
    d = to_array("distance", distance, dtype)
    full = to_array("reach", reach, dtype)
    s = to_array("softness", softness, dtype)
    shape = batch_shape({"distance": d.shape, "reach": full.shape, "softness": s.shape})
    require("distance", d, np.isfinite(d) & (d >= 0.0), "finite distances >= 0")
    require("reach", full, np.isfinite(full) & (full > 0.0), "a positive finite reach")
    require("softness", s, (s >= 0.0) & (s < full), "0 <= softness < reach")
    return np.broadcast_to(soften(d, full, s), shape).astype(dtype)
