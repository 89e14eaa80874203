"""Stretch, softness, status precedence, dtypes and shapes: the contract's plain cases."""

from __future__ import annotations

import math

import numpy as np
import pytest

import ik


def test_stretch_reaches_targets_up_to_k_times_the_length_and_reports_the_factor() -> None:
    sol = ik.solve_2d((0.0, 0.0), (4.0, 0.0), 2.0, 1.2, max_stretch=1.5)
    assert math.isclose(float(sol.stretch), 4.0 / 3.2, rel_tol=1e-12)
    np.testing.assert_allclose(sol.hand, [4.0, 0.0], atol=1e-12)
    np.testing.assert_allclose(sol.elbow, [2.0 * 4.0 / 3.2, 0.0], atol=1e-12)
    assert bool(sol.reached) and int(sol.status) == ik.Status.STRETCHED


def test_stretch_stops_at_max_stretch_and_aims_the_straight_arm() -> None:
    sol = ik.solve_3d((0.0, 0.0, 0.0), (0.0, 0.0, 10.0), 2.0, 1.2, (0.0, 1.0, 0.0), max_stretch=2.0)
    assert float(sol.stretch) == 2.0
    np.testing.assert_allclose(sol.hand, [0.0, 0.0, 6.4], atol=1e-12)
    assert math.isclose(float(sol.shortfall), 3.6, rel_tol=1e-12)
    assert not bool(sol.reached) and int(sol.status) == ik.Status.STRETCHED


def test_reachable_target_does_not_stretch() -> None:
    sol = ik.solve_2d((0.0, 0.0), (1.0, 1.0), 1.0, 1.0, max_stretch=3.0)
    assert float(sol.stretch) == 1.0 and int(sol.status) == ik.Status.REACHED


def test_softness_eases_the_reach_below_full_extension() -> None:
    span, s = 3.2, 0.5
    d = np.array([2.0, 2.7, 3.0, 3.2, 5.0])
    sol = ik.solve_2d(np.zeros(2), np.stack([d, np.zeros(5)], axis=-1), 2.0, 1.2, softness=s)
    expected = np.where(d > span - s, span - s + s * (1 - np.exp(-(d - span + s) / s)), d)
    np.testing.assert_allclose(sol.reach, expected, rtol=1e-14)
    np.testing.assert_array_equal(
        sol.status,
        [
            ik.Status.REACHED,
            ik.Status.REACHED,
            ik.Status.SOFTENED,
            ik.Status.SOFTENED,
            ik.Status.SOFTENED,
        ],
    )
    assert (sol.elbow_angle[2:] < math.pi).all()  # the knee never snaps fully straight


def test_soften_distance_is_the_identity_when_softness_is_zero() -> None:
    d = np.linspace(0.0, 10.0, 11)
    np.testing.assert_array_equal(ik.soften_distance(d, 3.2, 0.0), d)


def test_status_precedence_degenerate_over_stretched_over_softened_over_too_far() -> None:
    far = ik.solve_2d((0.0, 0.0), (9.0, 0.0), 1.0, 1.0, softness=0.5)
    assert int(far.status) == ik.Status.SOFTENED  # softened and too far
    stretched = ik.solve_2d((0.0, 0.0), (9.0, 0.0), 1.0, 1.0, softness=0.5, max_stretch=2.0)
    assert int(stretched.status) == ik.Status.STRETCHED  # stretched, softened and too far
    at_root = ik.solve_2d((0.0, 0.0), (0.0, 0.0), 1.0, 0.5)
    assert int(at_root.status) == ik.Status.DEGENERATE  # degenerate and too close
    np.testing.assert_allclose(at_root.hand, [0.5, 0.0])  # the documented +x fallback


def test_float32_in_gives_float32_out_and_integers_give_float64() -> None:
    sol32 = ik.solve_2d(np.zeros((3, 2), np.float32), np.ones((3, 2), np.float32), 1.0, 1.0)
    for name in ("elbow", "hand", "elbow_angle", "reach", "shortfall", "stretch", "upper_angle"):
        assert getattr(sol32, name).dtype == np.float32, name
    assert sol32.reached.dtype == np.bool_ and sol32.status.dtype == np.int8
    sol_int = ik.solve_3d(np.zeros(3, int), np.ones(3, int), 1, 1, np.array([0, 1, 0]))
    assert sol_int.elbow.dtype == np.float64
    # one float32 limb the vector path solves (lengths below float32's safe range): its
    # 0-d angles stay float32 (the lower angle's wrap into (-pi, pi] must not use a float64
    # product, which would promote it)
    tiny = ik.solve_2d(np.float32([0, 0]), np.float32([-8e-5, -2e-5]), 3e-5, np.float32(2e-5))
    for name in ("elbow_angle", "upper_angle", "lower_angle"):
        assert getattr(tiny, name).dtype == np.float32 and getattr(tiny, name).shape == (), name


@pytest.mark.parametrize("dim", [2, 3])
def test_outputs_follow_the_broadcast_shape(dim: int) -> None:
    root = np.zeros((4, 1, dim))
    target = np.ones((5, dim))
    upper = np.full((4, 5), 1.0)
    args = (root, target, upper, 1.0) if dim == 2 else (root, target, upper, 1.0, np.eye(3)[2])
    sol = (ik.solve_2d if dim == 2 else ik.solve_3d)(*args)  # type: ignore[operator]
    assert sol.elbow.shape == (4, 5, dim) and sol.hand.shape == (4, 5, dim)
    assert sol.reach.shape == (4, 5) and sol.status.shape == (4, 5)


def test_one_limb_gives_0d_and_vector_arrays() -> None:
    sol = ik.solve_2d([0, 0], np.array([1.0, 1.0]), 1, 1)
    assert sol.elbow.shape == (2,) and sol.reach.shape == () and isinstance(sol.reach, np.ndarray)
    assert float(sol.reach) == pytest.approx(math.sqrt(2.0))
    assert sol.status.shape == () and sol.status.dtype == np.int8


def test_empty_batch_gives_empty_results() -> None:
    sol = ik.solve_3d(np.zeros((0, 3)), np.zeros((0, 3)), 1.0, 1.0, np.ones(3))
    assert sol.elbow.shape == (0, 3) and sol.status.shape == (0,)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("offset", [5.75e-159, 1e-300, 5e-324, 1e-15, 1e-30])
def test_a_pole_any_tiny_distance_from_the_root_still_sets_the_plane_and_keeps_bone_lengths(
    dtype: type, offset: float
) -> None:
    # |pole - root|² underflows into subnormals (float64 from ~1e-154, float32 from ~1e-19):
    # the bend direction must still be a unit vector, as for a pole at a normal distance.
    if dtype(offset) == 0:
        pytest.skip("the offset rounds to 0 in this dtype: a pole at the root")
    root, target = np.zeros(3, dtype), np.array([0.0, 1.0, 0.0], dtype)
    pole, far_pole = np.array([0.0, 0.0, offset], dtype), np.array([0.0, 0.0, 1.0], dtype)
    for n in (None, 3, 70):  # one limb and batches
        shape = () if n is None else (n,)
        args = [np.broadcast_to(x, (*shape, 3)) for x in (root, target)]
        near = ik.solve_3d(*args, dtype(1.1), dtype(0.8), np.broadcast_to(pole, (*shape, 3)))
        far = ik.solve_3d(*args, dtype(1.1), dtype(0.8), np.broadcast_to(far_pole, (*shape, 3)))
        # as for any pole: the same plane, to rounding (|b| = 1 within an ulp or two)
        close = 4 * float(np.finfo(dtype).eps)
        np.testing.assert_allclose(near.elbow, far.elbow, rtol=0, atol=close)
        assert (np.asarray(near.status) == int(ik.Status.REACHED)).all()
