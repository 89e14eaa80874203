"""Per-bone world rotations that carry a rig's current pose onto a solve, optionally part way
(``weight``), and the pose they give (``blend_pose``). Quaternions are ``(w, x, y, z)``."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numpy.typing import ArrayLike

from ik._units import FloatArray, aim, batch_shape, float_dtype, to_array, to_points
from ik.solution import Solution, Solution2D, Solution3D
from ik.solve3d import perpendicular


class BoneRotations(NamedTuple):
    """Unit quaternions ``(w, x, y, z)``, shape (..., 4) each; unpacks as ``upper, lower``:
    root-to-mid onto root-to-solved-elbow, mid-to-end onto solved elbow-to-hand."""

    upper: FloatArray
    lower: FloatArray


def bone_rotations(
    root: ArrayLike, mid: ArrayLike, end: ArrayLike, sol: Solution3D, *, weight: ArrayLike = 1.0
) -> BoneRotations:
    """Hinge-true world rotations from the current bones to the solved ones.

    Each rotation takes its bone's current direction to the solved one **and** the current
    limb-plane normal ``unit((mid - root) x (end - mid))`` to the solved plane's normal, so on a
    rig whose elbow hinges about that normal the hinge axis follows the new plane (the upper
    bone rolls, as in ozz-animation's ``IKTwoBoneJob``); where the current or solved limb is
    straight (no plane) it is the shortest arc. An engine applies ``upper`` to the upper bone's
    world orientation and ``lower`` to the lower bone's. Fallbacks (finite, deterministic): a
    zero-length current bone points along +x; opposite directions turn by pi about the world
    axis least aligned with the current direction, made perpendicular to it.

    ``root, mid, end``: the rig's current joints, array_likes of shape (..., 3); ``sol``: the
    solve for the same limbs (batch shapes broadcast); ``weight`` in ``[0, 1]``, shape (...):
    each rotation is slerped from the identity by it. Returns :class:`BoneRotations`. Raises
    ``ValueError`` naming the argument for joints not of shape (..., 3) or not finite, batch
    shapes that do not broadcast, a weight outside ``[0, 1]``.
    """
    return _rotations(*_joints(3, root, mid, end, sol, weight), sol)


def blend_pose(
    root: ArrayLike, mid: ArrayLike, end: ArrayLike, sol: Solution, weight: ArrayLike
) -> tuple[FloatArray, FloatArray]:
    """The elbow and hand part way from the current pose to the solve, by forward kinematics.

    The bones turn by ``weight`` times their rotations (:func:`bone_rotations` in 3-D, the
    planar turn in 2-D), so each keeps its current length exactly and the joints move along
    arcs, not chords: ``weight = 0`` gives ``(mid, end)``; ``weight = 1`` gives the solve's
    elbow and hand when the current bones have the solved lengths. Joints of shape (..., D),
    D = 2 or 3 as ``sol``; returns the elbow and hand, each (..., D); raises as
    :func:`bone_rotations`.
    """
    dim = 2 if isinstance(sol, Solution2D) else 3
    r, m, e, w = _joints(dim, root, mid, end, sol, weight)
    if dim == 2:
        elbow = r + _turn_2d(m - r, sol.elbow - r, w)
        return elbow, elbow + _turn_2d(e - m, sol.hand - sol.elbow, w)
    upper, lower = _rotations(r, m, e, w, sol)
    elbow = r + _rotate(upper, m - r)
    return elbow, elbow + _rotate(lower, e - m)


def _joints(
    dim: int, root: ArrayLike, mid: ArrayLike, end: ArrayLike, sol: Solution, weight: ArrayLike
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
    """The checked joints and weight (with a trailing axis, for broadcasting)."""
    dtype = float_dtype(root, mid, end, sol.elbow)
    r, m, e = (
        to_points(n, v, dim, dtype)[0] for n, v in (("root", root), ("mid", mid), ("end", end))
    )
    w = to_array("weight", weight, dtype)
    if not ((w >= 0.0) & (w <= 1.0)).all():
        raise ValueError(f"weight: expected values in [0, 1], got {w.min()!r} .. {w.max()!r}")
    shapes = {"root": r.shape[:-1], "mid": m.shape[:-1], "end": e.shape[:-1]}
    batch_shape(shapes | {"sol": sol.elbow.shape[:-1], "weight": w.shape})
    return r, m, e, w[..., None]


def _rotations(
    r: FloatArray, m: FloatArray, e: FloatArray, w: FloatArray, sol: Solution
) -> BoneRotations:
    """:func:`bone_rotations` of checked joints (``w`` with a trailing axis), both bones at once
    along a leading axis (upper, lower)."""
    current = np.stack(np.broadcast_arrays(m - r, e - m))
    solved = np.stack(np.broadcast_arrays(sol.elbow - r, sol.hand - sol.elbow))
    old_n, new_n = _normal(*current), _normal(*solved)
    planar = (np.sum(old_n**2, axis=-1) > 0) & (np.sum(new_n**2, axis=-1) > 0)
    b = _unit(solved)
    swing = _shortest_arc(_unit(current), b)
    # then a turn about the solved bone b taking the swung normal n' onto the new one n:
    # angle atan2((n' × n)·b, n'·n), both perpendicular to b
    swung = _rotate(swing, old_n)
    angle = np.arctan2(np.sum(np.cross(swung, new_n) * b, axis=-1), np.sum(swung * new_n, axis=-1))
    return BoneRotations(
        *_power(_multiply(_about(b, np.where(planar, angle, 0.0)[..., None]), swing), w)
    )


def _unit(v: FloatArray) -> FloatArray:
    """``v / |v|``, shape (..., 3), at any magnitude (:func:`ik._units.aim`); +x where ``v = 0``."""
    u = np.moveaxis(aim(np.moveaxis(v, -1, 0))[1], 0, -1)
    return np.where(np.any(u != 0.0, axis=-1, keepdims=True), u, np.eye(3, dtype=u.dtype)[0])


def _normal(upper: FloatArray, lower: FloatArray) -> FloatArray:
    """Unit limb-plane normal ``upper x lower`` (the elbow's hinge axis), or 0 where straight."""
    n = np.cross(_unit(upper), _unit(lower))
    length = np.linalg.norm(n, axis=-1, keepdims=True)
    bent = length > 16.0 * np.finfo(n.dtype).eps  # below: the plane is rounding noise
    return np.where(bent, n / np.where(bent, length, 1.0), 0.0)


def _about(axis: FloatArray, angle: FloatArray) -> FloatArray:
    """The unit quaternion turning by ``angle`` (..., 1) about the unit ``axis`` (..., 3)."""
    return np.concatenate([np.cos(angle * 0.5), np.sin(angle * 0.5) * axis], axis=-1)


def _shortest_arc(a: FloatArray, b: FloatArray) -> FloatArray:
    """Unit quaternion rotating the unit ``a`` onto the unit ``b``; more than a right angle apart,
    ``a`` first turns by pi about ``f`` ⟂ ``a``, so the half-angle formula only sees vectors at
    most 90 degrees apart, where it is well conditioned (opposites: a half turn about ``f``)."""
    f = np.moveaxis(perpendicular(np.moveaxis(a, -1, 0)), 0, -1)
    back = np.sum(a * b, axis=-1, keepdims=True) < 0.0
    start = np.where(back, -a, a)  # the half turn about f takes a to -a
    h = _unit(start + b)  # the bisector, |start + b| >= sqrt(2)
    # half-angle quaternion: cos(θ/2) = start·ĥ, sin(θ/2) axis = start × ĥ
    q = np.concatenate([np.sum(start * h, axis=-1, keepdims=True), np.cross(start, h)], axis=-1)
    flip = np.concatenate([np.zeros_like(f[..., :1]), f], axis=-1)
    return np.where(back, _multiply(q, flip), q)


def _multiply(p: FloatArray, q: FloatArray) -> FloatArray:
    """Hamilton product ``p q`` (apply ``q`` first), shape (..., 4)."""
    pw, pv, qw, qv = p[..., :1], p[..., 1:], q[..., :1], q[..., 1:]
    w = pw * qw - np.sum(pv * qv, axis=-1, keepdims=True)
    return np.concatenate([w, pw * qv + qw * pv + np.cross(pv, qv)], axis=-1)


def _rotate(q: FloatArray, v: FloatArray) -> FloatArray:
    """``v`` rotated by the unit quaternion ``q``: ``v + 2 u x (u x v + w v)``."""
    w, u = q[..., :1], q[..., 1:]
    return v + 2.0 * np.cross(u, np.cross(u, v) + w * v)


def _power(q: FloatArray, weight: FloatArray) -> FloatArray:
    """``slerp(identity, q, weight)``: the same axis, ``weight`` times the angle."""
    q = np.where(q[..., :1] < 0.0, -q, q)  # the shorter way round
    sine = np.linalg.norm(q[..., 1:], axis=-1, keepdims=True)  # sin(θ/2), cos(θ/2) = w
    axis = q[..., 1:] / np.where(sine > 0.0, sine, 1.0)
    return _about(axis, 2.0 * np.arctan2(sine, q[..., :1]) * weight)


def _turn_2d(current: FloatArray, solved: FloatArray, weight: FloatArray) -> FloatArray:
    """``current`` turned toward ``solved``'s direction by ``weight`` of the angle between them
    (the shorter way; in the plane every elbow is a hinge about z)."""
    (x, y), (sx, sy) = np.moveaxis(current, -1, 0), np.moveaxis(solved, -1, 0)
    angle = np.arctan2(x * sy - y * sx, x * sx + y * sy) * weight[..., 0]  # atan2(a × b, a · b)
    cos, sin = np.cos(angle), np.sin(angle)
    return np.stack([x * cos - y * sin, x * sin + y * cos], axis=-1)
