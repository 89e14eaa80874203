"""bone_rotations, checked by forward kinematics: rotating the current bones lands on the solve."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import ik


def rotate(q: np.ndarray, v: np.ndarray) -> np.ndarray:
    """Rotate vectors ``v`` (..., 3) by unit quaternions ``q`` (..., 4) as ``q v q*``."""
    w, u = q[..., :1], q[..., 1:]
    return v + 2.0 * np.cross(u, np.cross(u, v) + w * v)


vectors = st.lists(st.floats(-2, 2), min_size=3, max_size=3).map(np.array)


@settings(max_examples=250, deadline=None)
@given(root=vectors, bend=vectors, aim=vectors, target=vectors, pole=vectors)
def test_rotations_carry_the_current_pose_onto_the_solve(
    root: np.ndarray, bend: np.ndarray, aim: np.ndarray, target: np.ndarray, pole: np.ndarray
) -> None:
    upper, lower = 1.1, 0.8
    mid = root + upper * _unit(bend)
    end = mid + lower * _unit(aim)
    sol = ik.solve_3d(root, root + target, upper, lower, root + pole)
    rotations = ik.bone_rotations(root, mid, end, sol)
    for q in rotations:
        assert q.shape == (4,)
        assert abs(np.linalg.norm(q) - 1.0) < 1e-12
    new_mid = root + rotate(rotations.upper, mid - root)
    new_end = new_mid + rotate(rotations.lower, end - mid)
    np.testing.assert_allclose(new_mid, sol.elbow, atol=1e-9)
    np.testing.assert_allclose(new_end, sol.hand, atol=1e-9)


def test_opposite_directions_turn_half_way_about_a_perpendicular_axis() -> None:
    sol = ik.solve_3d((0, 0, 0), (-2.0, 0, 0), 1.0, 1.0, (0, 1.0, 0))
    upper, lower = ik.bone_rotations((0, 0, 0), (1.0, 0, 0), (2.0, 0, 0), sol)
    np.testing.assert_allclose(rotate(upper, np.array([1.0, 0, 0])), [-1.0, 0, 0], atol=1e-12)
    np.testing.assert_allclose(rotate(lower, np.array([1.0, 0, 0])), [-1.0, 0, 0], atol=1e-12)


def test_batched_rotations_and_zero_length_current_bones_are_finite() -> None:
    rng = np.random.default_rng(3)
    root = rng.normal(size=(50, 3))
    mid = root.copy()  # zero-length current upper bone: +x fallback
    end = mid + rng.normal(size=(50, 3))
    sol = ik.solve_3d(root, rng.normal(size=(50, 3)), 1.0, 1.0, rng.normal(size=(50, 3)))
    upper, lower = ik.bone_rotations(root, mid, end, sol)
    assert upper.shape == (50, 4) and lower.shape == (50, 4)
    assert np.isfinite(upper).all() and np.isfinite(lower).all()
    np.testing.assert_allclose(
        rotate(upper, np.array([1.0, 0, 0])), (sol.elbow - root) / 1.0, atol=1e-9
    )


def _unit(v: np.ndarray) -> np.ndarray:
    n = float(np.linalg.norm(v))
    return v / n if n > 1e-3 else np.array([0.0, 1.0, 0.0])
