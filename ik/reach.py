"""The reach stages shared by the 2-D and 3-D solves: soften the distance, stretch, and clamp it
into the annulus the triangle closes in.

* Soft reach (Andy Nicholas, "Soft IK", 2010): with ``L`` the longest reach, ``d_s = L - s``,
  ``d > d_s`` becomes ``d_s + s (1 - exp(-(d - d_s) / s))``: equal value and slope at ``d_s``,
  ``L`` approached asymptotically, so a knee never snaps straight. (ozz-animation's
  ``IKTwoBoneJob`` softens with a different, polynomial curve.)
* Stretch: both bones scale by one factor in ``[1, max_stretch]``; the soft curve eases toward
  that stretched extension, so the two options compose.
* Clamp (the seed): ``d <- clamp(d, |L1 - L2|, L1 + L2)`` before the law of cosines.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from ik._checks import batch_shape, float_dtype, require, to_array
from ik._units import Values


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
    stretch factor (1: off) and where the soft curve moved the distance (False: off)."""

    used: Values
    upper: Values
    lower: Values
    span: Values
    inner: Values
    stretch: Values
    softened: Values


def clamp(
    distance: Values,
    upper: Values,
    lower: Values,
    softness: Values | None,
    max_stretch: Values | None,
    eps: float,
) -> Reach:
    """Soften, stretch and clamp the root-target distance (None turns an option off)."""
    span = upper + lower  # L = L1 + L2, full extension
    full = span if max_stretch is None else span * max_stretch  # longest reach k L
    eased = distance if softness is None else soften(distance, full, softness)
    stretch: object = 1.0
    if max_stretch is not None:
        # the factor that makes the straight arm reach d: d / (L1 + L2), never below 1 nor above k
        with np.errstate(over="ignore"):  # a target far beyond the limb: inf, capped at k
            stretch = np.minimum(np.maximum(eased / span, 1.0), max_stretch)
        upper, lower = upper * stretch, lower * stretch
        span = upper + lower  # re-added, not scaled: the triangle sums the same two lengths
    # fold limit |L1 - L2|, floored at eps L: equal bones would give the triangle a zero base
    inner = np.maximum(np.abs(upper - lower), eps * span)
    used = np.minimum(np.maximum(eased, inner), span)  # the seed: clamp(d, |L1 - L2|, L1 + L2)
    softened = False if softness is None else eased < distance
    return Reach(used, upper, lower, span, inner, stretch, softened)


def soften_distance(
    distance: npt.ArrayLike, reach: npt.ArrayLike, softness: npt.ArrayLike
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
