"""bone_rotations, checked by forward kinematics: rotating the current bones lands on the solve."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import ik


def rotate(q: np.ndarray, v: np.ndarray) -> np.ndarray:
    """Rotate vectors ``v`` (..., 3) by unit quaternions ``q`` (..., 4) as ``q v q*``."""
    w, u = q[..., :1], q[..., 1:]
    return v + 2.0 * np.cross(u, np.cross(u, v) + w * v)


vectors = st.lists(st.floats(-2, 2), min_size=3, max_size=3).map(np.array)


@settings(max_examples=250)
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


def _quaternion(axis: tuple[float, float, float], angle: float) -> np.ndarray:
    return np.array([np.cos(angle / 2), *(np.sin(angle / 2) * np.array(axis))])


def _same_rotation(q: np.ndarray, expected: np.ndarray) -> bool:
    return bool(np.allclose(q, expected, atol=1e-12) or np.allclose(q, -expected, atol=1e-12))


def test_ozz_start_joint_correction_90_rolls_the_upper_bone() -> None:
    # ozz-animation's IKTwoBoneJob test "StartJointCorrection", case "90": start at the origin,
    # mid at +y, end at (1, 1, 0), pole +y, target (0, 1, 1). ozz turns the start joint by -90°
    # about y and leaves the mid joint's local rotation alone: in world terms both bones turn by
    # -90° about y (a hinge elbow keeps its axis in the limb's plane).
    root, mid, end = np.zeros(3), np.array([0.0, 1.0, 0.0]), np.array([1.0, 1.0, 0.0])
    sol = ik.solve_3d(root, (0.0, 1.0, 1.0), 1.0, 1.0, (0.0, 1.0, 0.0))
    upper, lower = ik.bone_rotations(root, mid, end, sol)
    expected = _quaternion((0.0, 1.0, 0.0), -np.pi / 2)
    assert _same_rotation(upper, expected) and _same_rotation(lower, expected)


@settings(max_examples=100)
@given(root=vectors, bend=vectors, aim=vectors, target=vectors, pole=vectors)
def test_on_a_hinge_rig_the_elbow_axis_follows_the_new_limb_plane(
    root: np.ndarray, bend: np.ndarray, aim: np.ndarray, target: np.ndarray, pole: np.ndarray
) -> None:
    upper_len, lower_len = 1.1, 0.8
    mid = root + upper_len * _unit(bend)
    end = mid + lower_len * _unit(aim)
    hinge = np.cross(mid - root, end - mid)  # the elbow's axis: the current plane's normal
    assume(np.linalg.norm(hinge) > 1e-3)
    sol = ik.solve_3d(root, root + target, upper_len, lower_len, root + pole)
    normal = np.cross(sol.elbow - root, sol.hand - sol.elbow)
    assume(np.linalg.norm(normal) > 1e-3)  # else no new plane: the shortest arc (documented)
    upper, lower = ik.bone_rotations(root, mid, end, sol)
    # forward kinematics reproduces the solve, and the hinge turns with the upper bone onto the
    # new normal (the lower bone's rotation agrees: the elbow only bends about its axis)
    new_mid = root + rotate(upper, mid - root)
    np.testing.assert_allclose(new_mid, sol.elbow, atol=1e-9)
    np.testing.assert_allclose(new_mid + rotate(lower, end - mid), sol.hand, atol=1e-9)
    for q in (upper, lower):
        np.testing.assert_allclose(
            rotate(q, hinge / np.linalg.norm(hinge)), normal / np.linalg.norm(normal), atol=1e-9
        )


def test_weight_slerps_each_rotation_from_the_identity() -> None:
    root, mid, end = np.zeros(3), np.array([0.0, 1.0, 0.0]), np.array([1.0, 1.0, 0.0])
    sol = ik.solve_3d(root, (0.0, 1.0, 1.0), 1.0, 1.0, (0.0, 1.0, 0.0))
    none = ik.bone_rotations(root, mid, end, sol, weight=0.0)
    half = ik.bone_rotations(root, mid, end, sol, weight=0.5)
    assert _same_rotation(none.upper, np.array([1.0, 0.0, 0.0, 0.0]))
    assert _same_rotation(half.upper, _quaternion((0.0, 1.0, 0.0), -np.pi / 4))


@pytest.mark.parametrize("weight", [-0.1, 1.5, np.nan])
def test_weight_outside_zero_to_one_is_rejected(weight: float) -> None:
    sol = ik.solve_3d((0, 0, 0), (1.0, 1.0, 0), 1.0, 1.0, (0, 0, 1.0))
    with pytest.raises(ValueError, match=r"weight: expected values in \[0, 1\]"):
        ik.bone_rotations((0, 0, 0), (1.0, 0, 0), (2.0, 0, 0), sol, weight=weight)
    with pytest.raises(ValueError, match=r"weight: expected values in \[0, 1\]"):
        ik.blend_pose((0, 0, 0), (1.0, 0, 0), (2.0, 0, 0), sol, weight)


@pytest.mark.parametrize("dim", [2, 3])
@settings(max_examples=60)
@given(data=st.data(), weight=st.floats(0.0, 1.0))
def test_blend_pose_keeps_bone_lengths_and_moves_along_arcs(
    dim: int, data: st.DataObject, weight: float
) -> None:
    points = st.lists(st.floats(-2, 2), min_size=dim, max_size=dim).map(np.array)
    root, bend, aim, target = (data.draw(points) for _ in range(4))
    upper_len, lower_len = 1.1, 0.8
    mid = root + upper_len * _unit_nd(bend)
    end = mid + lower_len * _unit_nd(aim)
    sol = (
        ik.solve_2d(root, root + target, upper_len, lower_len)
        if dim == 2
        else ik.solve_3d(root, root + target, upper_len, lower_len, root + data.draw(points))
    )
    elbow, hand = ik.blend_pose(root, mid, end, sol, weight)
    assert abs(np.linalg.norm(elbow - root) - upper_len) < 1e-9  # on the arc, not the chord
    assert abs(np.linalg.norm(hand - elbow) - lower_len) < 1e-9
    start = ik.blend_pose(root, mid, end, sol, 0.0)
    np.testing.assert_allclose(start[0], mid, atol=1e-9)
    np.testing.assert_allclose(start[1], end, atol=1e-9)
    full = ik.blend_pose(root, mid, end, sol, 1.0)
    np.testing.assert_allclose(full[0], sol.elbow, atol=1e-9)
    np.testing.assert_allclose(full[1], sol.hand, atol=1e-9)


def test_blend_pose_half_way_in_the_plane_turns_each_bone_half_way() -> None:
    sol = ik.solve_2d((0.0, 0.0), (0.0, 2.0), 1.0, 1.0)  # straight up
    elbow, hand = ik.blend_pose((0.0, 0.0), (1.0, 0.0), (2.0, 0.0), sol, 0.5)
    s = np.sqrt(0.5)
    np.testing.assert_allclose(elbow, [s, s], atol=1e-12)
    np.testing.assert_allclose(hand, [2 * s, 2 * s], atol=1e-12)


def _unit_nd(v: np.ndarray) -> np.ndarray:
    n = float(np.linalg.norm(v))
    return v / n if n > 1e-3 else np.eye(len(v))[1]
