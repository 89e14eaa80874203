"""The worked numbers of docs/MATH.md §5, as plain tests."""

from __future__ import annotations

import math

import numpy as np

import ik


def test_equal_bones_at_root_two_give_right_angle_elbow_and_45_degree_shoulder() -> None:
    sol = ik.solve_2d((0.0, 0.0), (math.sqrt(2.0), 0.0), 1.0, 1.0)
    assert math.isclose(float(sol.elbow_angle), math.pi / 2, abs_tol=1e-12)
    # The root→target line is +x, so the upper bone's world angle is the offset α itself.
    assert math.isclose(float(sol.upper_angle), math.pi / 4, abs_tol=1e-12)
    np.testing.assert_allclose(sol.elbow, [math.sqrt(0.5), math.sqrt(0.5)], atol=1e-12)
    assert bool(sol.reached)
    assert int(sol.status) == ik.Status.REACHED


def test_worked_example_off_axis_leans_45_degrees_off_the_line() -> None:
    target = np.array([1.0, 1.0])  # |t| = √2 at φ = 45°
    for bend in (1, -1):
        sol = ik.solve_2d((0.0, 0.0), target, 1.0, 1.0, bend=bend)
        assert math.isclose(float(sol.upper_angle), math.pi / 4 + bend * math.pi / 4, abs_tol=1e-12)
        assert math.isclose(float(sol.elbow_angle), math.pi / 2, abs_tol=1e-12)


def test_widget_far_target_gives_straight_arm_at_outer_circle() -> None:
    sol = ik.solve_2d((0.0, 0.0), (5.0, 0.0), 2.0, 1.2)
    np.testing.assert_allclose(sol.hand, [3.2, 0.0], atol=1e-12)
    np.testing.assert_allclose(sol.elbow, [2.0, 0.0], atol=1e-12)
    assert math.isclose(float(sol.shortfall), 1.8, abs_tol=1e-12)
    assert math.isclose(float(sol.elbow_angle), math.pi, abs_tol=1e-12)
    assert not bool(sol.reached)
    assert int(sol.status) == ik.Status.TOO_FAR


def test_widget_close_target_gives_folded_arm_at_inner_circle() -> None:
    sol = ik.solve_2d((0.0, 0.0), (0.3, 0.0), 2.0, 1.2)
    np.testing.assert_allclose(sol.hand, [0.8, 0.0], atol=1e-12)
    np.testing.assert_allclose(sol.elbow, [2.0, 0.0], atol=1e-12)
    assert math.isclose(float(sol.shortfall), 0.5, abs_tol=1e-12)
    assert math.isclose(float(sol.elbow_angle), 0.0, abs_tol=1e-12)
    assert int(sol.status) == ik.Status.TOO_CLOSE


def test_widget_batch_matches_single_limbs_and_keeps_shape() -> None:
    targets = np.array([[5.0, 0.0], [0.3, 0.0], [2.2, 1.4]])
    sol = ik.solve_2d(np.zeros(2), targets, 2.0, 1.2)
    assert sol.hand.shape == (3, 2)
    assert sol.status.shape == (3,) and sol.status.dtype == np.int8
    np.testing.assert_allclose(sol.hand[:2], [[3.2, 0.0], [0.8, 0.0]], atol=1e-12)
    np.testing.assert_allclose(sol.shortfall[:2], [1.8, 0.5], atol=1e-12)
