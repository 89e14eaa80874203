"""The reach stage shared by the 2-D and 3-D solves: soften, stretch, clamp into the annulus.

The seed's recipe clamps the shoulder-to-target distance ``d`` into ``[|L1 - L2|, L1 + L2]``
before the law of cosines; this module adds the two rig options in front of that clamp:

* soft reach (ozz-animation's ``soften``): with ``L`` the longest reach and ``d_s = L - s``,
  a distance ``d > d_s`` becomes ``d_s + s (1 - exp(-(d - d_s) / s))``, which meets the
  identity with equal value and slope at ``d_s`` and approaches ``L`` asymptotically, so the
  knee never snaps straight;
* stretch: both bones scale by one factor in ``[1, max_stretch]`` so targets up to
  ``max_stretch (L1 + L2)`` are reached.

With both on, the soft curve eases toward the *stretched* full extension
``max_stretch (L1 + L2)`` (with ``max_stretch = 1`` that is ``L1 + L2``, the contract's ``L``),
so the two options compose instead of softening cancelling stretch.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from ik._ops import VECTOR, Flag, Ops, Real
from ik._validate import batch_shape, float_dtype, require, to_array


def soften(ops: Ops, distance: Real, reach: Real, softness: Real) -> Real:
    """The soft-reach curve in a backend; identity where ``softness`` is 0 or ``d <= L - s``.

    Parameters
    ----------
    ops : Ops
        The backend.
    distance, reach, softness : float or ndarray, shape (n,)
        ``d >= 0``, ``L > 0`` and ``0 <= s < L``.

    Returns
    -------
    float or ndarray, shape (n,)
        The softened distance, at most ``L`` wherever ``s > 0`` (it only rounds to ``L``
        far out, where ``e^{-(d - d_s)/s}`` is below eps).
    """
    knee = reach - softness  # d_s = L − s, where the soft zone starts
    # s = 0 would divide 0 by 0; those limbs take the identity branch below, so any positive
    # stand-in works.
    scale = ops.where(softness > 0.0, softness, 1.0)
    # The excess over the knee, clamped into [0, 64 s]: at 0 the exponent below is never
    # positive (outside the soft zone the value is discarded, and expm1 must not overflow on
    # it), and capping at 64 s changes nothing (e^-64 is far below eps) but keeps the division
    # from overflowing when s is tiny.
    excess = ops.minimum(ops.maximum(distance - knee, 0.0), 64.0 * scale)
    # soft IK: d_s + s (1 − e^{−(d − d_s)/s}) = d_s − s·expm1(−(d − d_s)/s); expm1 keeps full
    # precision just past the knee where 1 − e^{−x} would cancel.
    eased = knee - softness * ops.expm1(-excess / scale)
    return ops.where(ops.both(distance > knee, softness > 0.0), eased, distance)


class Reach(NamedTuple):
    """The reach stage's per-limb results (a NamedTuple: cheap to build for one limb)."""

    used: Real
    """Distance the triangle is solved for, inside the (stretched) annulus."""
    upper: Real
    """Upper bone length after stretching."""
    lower: Real
    """Lower bone length after stretching."""
    stretch: Real
    """Stretch factor in ``[1, max_stretch]``."""
    softened: Flag
    """The soft curve moved the distance."""
    too_far: Flag
    """The raw distance is beyond the (stretched) full extension."""
    too_close: Flag
    """The raw distance is inside the (stretched) fold limit."""


def reach(
    ops: Ops,
    distance: Real,
    upper: Real,
    lower: Real,
    softness: Real | None,
    max_stretch: Real | None,
    eps: float,
) -> Reach:
    """Soften, stretch and clamp the root-target distance (``None`` turns an option off).

    Parameters
    ----------
    ops : Ops
        The backend.
    distance : float or ndarray, shape (n,)
        Raw ``|target - root|``.
    upper, lower : float or ndarray, shape (n,)
        Bone lengths ``L1, L2 > 0``.
    softness : float or ndarray, shape (n,), or None
        Soft zone width ``0 <= s < L1 + L2``.
    max_stretch : float or ndarray, shape (n,), or None
        Largest stretch factor ``k >= 1``.
    eps : float
        Machine epsilon of the working dtype.

    Returns
    -------
    Reach
    """
    span = upper + lower  # L = L1 + L2, full extension
    full = span if max_stretch is None else span * max_stretch  # longest reach, k·L
    eased = distance if softness is None else soften(ops, distance, full, softness)
    softened = False if softness is None else eased < distance
    if max_stretch is None:
        stretch: Real = 1.0
    else:
        # Bones scale together by the factor that makes the straight arm reach d: d / (L1 + L2),
        # but never shrink (>= 1) and never beyond the rig's limit k.
        stretch = ops.minimum(ops.maximum(eased / span, 1.0), max_stretch)
        upper, lower = upper * stretch, lower * stretch
        # Re-add rather than scale the sum: the triangle stage sums the same two lengths, and
        # the clamp below must not exceed that sum by a rounding (sqrt of a negative).
        span = upper + lower
    # Fold limit |L1 − L2|, floored at eps·L: with L1 = L2 the annulus reaches the root, and a
    # zero-length base would make the triangle stage divide 0 by 0; the floor moves the hand
    # by at most eps·L.
    inner = ops.maximum(ops.abs(upper - lower), eps * span)
    used = ops.minimum(ops.maximum(eased, inner), span)  # seed's clamp into [|L1 − L2|, L1 + L2]
    return Reach(used, upper, lower, stretch, softened, distance > span, distance < inner)


def soften_distance(
    distance: npt.ArrayLike, reach: npt.ArrayLike, softness: npt.ArrayLike
) -> npt.NDArray[np.floating]:
    """The soft-reach curve ``d -> d_soft`` on its own (for plots and tuning).

    With ``d_s = reach - softness``, distances up to ``d_s`` are unchanged and a distance
    ``d > d_s`` becomes ``d_s + s (1 - exp(-(d - d_s) / s))``: continuous with its first
    derivative at ``d_s``, increasing, and below ``reach`` (mathematically; it rounds to ``reach``
    far out). ``softness = 0`` is the
    identity. No clamping into the annulus happens here.

    Parameters
    ----------
    distance : array_like, shape (...)
        Distances ``d >= 0`` from the root to the target.
    reach : array_like, shape (...)
        The full extension ``L > 0`` (``L1 + L2`` for an unstretched limb).
    softness : array_like, shape (...)
        The soft zone's width ``s``, ``0 <= s < reach``.

    Returns
    -------
    ndarray, shape (...)
        The softened distances, in the broadcast shape and float dtype of the inputs.

    Raises
    ------
    ValueError
        For shapes that do not broadcast, non-finite or negative distances, a non-positive or
        non-finite reach, or a softness outside ``[0, reach)``.
    """
    dtype = float_dtype(distance, reach, softness)
    d = to_array("distance", distance, dtype)
    full = to_array("reach", reach, dtype)
    s = to_array("softness", softness, dtype)
    shape = batch_shape({"distance": d.shape, "reach": full.shape, "softness": s.shape})
    require("distance", d, np.isfinite(d) & (d >= 0.0), "finite distances >= 0")
    require("reach", full, np.isfinite(full) & (full > 0.0), "a positive finite reach")
    require("softness", s, (s >= 0.0) & (s < full), "0 <= softness < reach")
    return np.broadcast_to(soften(VECTOR, d, full, s), shape).astype(dtype)
