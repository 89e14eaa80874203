"""Per-bone world rotations that carry a rig's current pose onto a 3-D solve."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from ik._frame import aim, perpendicular
from ik._ops import VECTOR
from ik._validate import FloatArray, batch_shape, float_dtype, to_points
from ik.solution import Solution3D


class BoneRotations(NamedTuple):
    """Unit quaternions ``(w, x, y, z)``, one pair per limb; unpacks as ``upper, lower``."""

    upper: FloatArray
    """shape (..., 4): takes the current root-to-mid direction onto root-to-solved-elbow."""
    lower: FloatArray
    """shape (..., 4): takes the current mid-to-end direction onto solved elbow-to-hand."""


def bone_rotations(
    root: npt.ArrayLike, mid: npt.ArrayLike, end: npt.ArrayLike, sol: Solution3D
) -> BoneRotations:
    """Shortest-arc world rotations from the current bone directions to the solved ones.

    An engine applies ``upper`` to the upper bone's world orientation and ``lower`` to the
    lower bone's: rotating ``mid - root`` by ``upper`` points it at ``sol.elbow - root``, and
    rotating ``end - mid`` by ``lower`` points it at ``sol.hand - sol.elbow``.

    Fallbacks (finite, deterministic): a zero-length current bone is taken to point along +x;
    opposite directions (no unique shortest arc) rotate by pi about the world axis least
    aligned with the current direction, made perpendicular to it.

    Parameters
    ----------
    root, mid, end : array_like, shape (..., 3)
        Current shoulder, elbow and hand positions of the rig.
    sol : Solution3D
        The solve for the same limbs (batch shape broadcasting with the joints').

    Returns
    -------
    BoneRotations
        ``upper`` and ``lower``, each shape ``(..., 4)``, unit quaternions ``(w, x, y, z)``.

    Raises
    ------
    ValueError
        For joints whose last dimension is not 3, non-finite coordinates, or batch shapes that
        do not broadcast.
    """
    dtype = float_dtype(root, mid, end, sol.elbow)
    joints = {
        name: to_points(name, value, 3, dtype)
        for name, value in (("root", root), ("mid", mid), ("end", end))
    }
    batch_shape(
        {name: points.shape[:-1] for name, points in joints.items()} | {"sol": sol.elbow.shape[:-1]}
    )
    r, m, e = joints["root"], joints["mid"], joints["end"]
    return BoneRotations(
        _shortest_arc(m - r, sol.elbow - r),
        _shortest_arc(e - m, sol.hand - sol.elbow),
    )


def _shortest_arc(current: FloatArray, solved: FloatArray) -> FloatArray:
    """Unit quaternion ``(w, x, y, z)``, shape (..., 4), rotating ``current`` onto ``solved``."""
    eps = float(np.finfo(current.dtype).eps)
    a = _unit(current)
    b = _unit(solved)
    half = a + b  # bisector of a and b: rotating a onto b is a half-turn about a's mirror
    half_len = np.linalg.norm(half, axis=-1)
    # a ≈ −b: the bisector is rounding noise (relative error eps/|h|), and every axis ⟂ a is a
    # shortest arc; take a deterministic one and turn by π.
    opposite = half_len * half_len <= eps
    h = np.stack(aim(VECTOR, tuple(np.moveaxis(half, -1, 0)), half_len, opposite), axis=-1)
    # With ĥ the unit bisector: cos(θ/2) = a·ĥ and sin(θ/2) n = a × ĥ (half-angle quaternion).
    w = np.where(opposite, 0.0, np.sum(a * h, axis=-1))
    flip = np.stack(perpendicular(VECTOR, *np.moveaxis(a, -1, 0)), axis=-1)
    xyz = np.where(opposite[..., None], flip, np.cross(a, h))
    q = np.concatenate([w[..., None], xyz], axis=-1)
    return q / np.linalg.norm(q, axis=-1, keepdims=True)  # renormalise rounding; norm ≈ 1


def _unit(vectors: FloatArray) -> FloatArray:
    """``vectors / |vectors|``, shape (..., 3); +x where the length is zero (or underflows)."""
    length = np.linalg.norm(vectors, axis=-1)
    degenerate = length <= np.finfo(vectors.dtype).tiny
    return np.stack(aim(VECTOR, tuple(np.moveaxis(vectors, -1, 0)), length, degenerate), axis=-1)
