"""Directions with documented fallbacks, shared by the solves and ``bone_rotations``."""

from __future__ import annotations

from ik._ops import Flag, Ops, Real


def aim(ops: Ops, delta: tuple[Real, ...], length: Real, degenerate: Flag) -> tuple[Real, ...]:
    """``delta / length``, or the world +x axis where ``degenerate`` (direction undefined).

    Parameters
    ----------
    ops : Ops
        The backend.
    delta : tuple of float or ndarray, each shape (n,)
        The vector's D components.
    length : float or ndarray, shape (n,)
        Its norm.
    degenerate : bool or ndarray of bool, shape (n,)
        Where the norm is too small for its direction to mean anything.

    Returns
    -------
    tuple of float or ndarray, each shape (n,)
        A unit vector's D components.
    """
    if not ops.any(degenerate):  # the common case: skip the fallback's passes entirely
        inverse = 1.0 / length
        return tuple(component * inverse for component in delta)
    # Dividing by the degenerate rows' tiny norm could overflow; they are replaced below, so
    # divide them by 1 instead.
    inverse = 1.0 / ops.where(degenerate, 1.0, length)
    first, *rest = (component * inverse for component in delta)
    return (ops.where(degenerate, 1.0, first), *(ops.where(degenerate, 0.0, c) for c in rest))


def perpendicular(ops: Ops, ux: Real, uy: Real, uz: Real) -> tuple[Real, Real, Real]:
    """A unit vector perpendicular to the unit vector ``u``, chosen deterministically.

    The world axis least aligned with ``u`` (the first of x, y, z on ties), with its ``u``
    component removed, normalised. That axis has ``|u_k|^2 <= 1/3``, so the result's norm
    before normalising is at least ``sqrt(2/3)``: well conditioned for every ``u``.

    Parameters
    ----------
    ops : Ops
        The backend.
    ux, uy, uz : float or ndarray, shape (n,)
        A unit vector.

    Returns
    -------
    tuple of float or ndarray, each shape (n,)
    """
    ax, ay, az = ops.abs(ux), ops.abs(uy), ops.abs(uz)
    pick_x = ops.both(ax <= ay, ax <= az)
    pick_y = ops.both(ay < ax, ay <= az)
    # +0 in u's dtype: where(pick, 1.0, 0.0) would be float64 for float32 limbs, and promote
    # every limb of a float32 chunk that holds one fallback limb (rounding by neighbours)
    zero = ax * 0.0
    ex = ops.where(pick_x, 1.0, zero)
    ey = ops.where(pick_y, 1.0, zero)
    ez = 1.0 - ex - ey
    along = ex * ux + ey * uy + ez * uz  # e·u, the component removed (Gram-Schmidt)
    px, py, pz = ex - along * ux, ey - along * uy, ez - along * uz
    inverse = 1.0 / ops.sqrt(px * px + py * py + pz * pz)  # >= sqrt(2/3) (see above): no guard
    return px * inverse, py * inverse, pz * inverse
