"""FABRIK, the iterative contrast: bone lengths kept, root fixed, converges where reachable."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import ik


def _lengths(joints: np.ndarray) -> np.ndarray:
    return np.linalg.norm(np.diff(joints, axis=0), axis=-1)


@settings(max_examples=150)
@given(
    bones=st.lists(st.floats(0.2, 2.0), min_size=2, max_size=5),
    angle=st.floats(-math.pi, math.pi),
    fraction=st.floats(0.0, 0.95),
)
def test_fabrik_reaches_reachable_targets_keeping_lengths(
    bones: list[float], angle: float, fraction: float
) -> None:
    joints = np.cumsum(
        [[0.0, 0.0]] + [[b * math.cos(i), b * math.sin(i)] for i, b in enumerate(bones)], axis=0
    )
    longest, rest = max(bones), sum(bones) - max(bones)
    inner = max(longest - rest, 0.0)
    d = inner + (0.25 + 0.5 * fraction) * (sum(bones) - inner)  # mid-annulus: FABRIK's home
    target = d * np.array([math.cos(angle), math.sin(angle)])
    # FABRIK never leaves a line it starts on: root, first joint and target collinear is a
    # known fixed point (documented), so keep the target off the first bone's line (angle 0).
    assume(abs(math.sin(angle)) > 0.05)
    # Convergence is linear and slows where the chain must fold hard (bones 1.5, 1, 1.5 to
    # d = 1 takes ~8,200 iterations, as fabrik's docstring warns): a cap that still fails
    # a solver that stalls, not one that is merely slow.
    result = ik.fabrik(joints, target, tolerance=1e-7, max_iterations=30_000)
    np.testing.assert_allclose(_lengths(result.joints), bones, rtol=1e-9)
    np.testing.assert_array_equal(result.joints[0], [0.0, 0.0])
    assert result.residual <= 1e-7
    assert result.residual == pytest.approx(np.linalg.norm(result.joints[-1] - target))


def test_fabrik_converges_on_the_hard_fold_hypothesis_found() -> None:
    bones, angle = [1.5, 1.0, 1.5], 0.3125
    joints = np.cumsum(
        [[0.0, 0.0]] + [[b * math.cos(i), b * math.sin(i)] for i, b in enumerate(bones)], axis=0
    )
    target = np.array([math.cos(angle), math.sin(angle)])  # d = 1: a tight fold
    result = ik.fabrik(joints, target, tolerance=1e-7, max_iterations=30_000)
    assert result.residual <= 1e-7 and 2_000 < result.iterations < 30_000
    np.testing.assert_allclose(_lengths(result.joints), bones, rtol=1e-9)


def test_fabrik_points_a_straight_chain_at_an_unreachable_target() -> None:
    result = ik.fabrik([[0, 0, 0], [1, 0, 0], [1, 1, 0], [1, 1, 1]], (0, 0, 10.0))
    np.testing.assert_allclose(
        result.joints, [[0, 0, 0], [0, 0, 1], [0, 0, 2], [0, 0, 3]], atol=1e-12
    )
    assert result.iterations == 0 and result.residual == pytest.approx(7.0)


def test_fabrik_two_bones_agrees_with_the_analytic_hand() -> None:
    result = ik.fabrik([[0.0, 0.0], [2.0, 0.0], [3.2, 0.0]], (1.0, 2.0), tolerance=1e-10)
    sol = ik.solve_2d((0.0, 0.0), (1.0, 2.0), 2.0, 1.2)
    np.testing.assert_allclose(result.joints[-1], sol.hand, atol=1e-9)
    assert result.iterations > 1  # a search, where the analytic solve is one step


def test_fabrik_coincident_joints_stay_finite() -> None:
    result = ik.fabrik([[0.0, 0.0], [0.0, 0.0], [1.0, 0.0]], (0.0, 0.5))
    assert np.isfinite(result.joints).all()


@pytest.mark.parametrize(
    ("joints", "target", "kwargs", "match"),
    [
        ([[0.0, 0.0]], (1.0, 0.0), {}, r"joints: expected shape \(J >= 2, 2 or 3\)"),
        ([[0, 0, 0, 0], [1, 0, 0, 0]], (1, 0, 0, 0), {}, "joints: expected shape"),
        (
            [[0.0, 0.0], [1.0, 0.0]],
            (1.0, 0.0, 0.0),
            {},
            r"target: expected an array_like of shape \(\.\.\., 2\)",
        ),
        (
            [[0.0, 0.0], [np.nan, 0.0]],
            (1.0, 0.0),
            {},
            r"joints: expected finite coordinates, got nan at index \(1, 0\)",
        ),
        ([[0.0, 0.0], [1.0, 0.0]], (1.0, 0.0), {"tolerance": -1.0}, "tolerance"),
        ([[0.0, 0.0], [1.0, 0.0]], (1.0, 0.0), {"max_iterations": -1}, "max_iterations"),
    ],
)
def test_fabrik_rejects_bad_arguments(
    joints: object, target: object, kwargs: dict[str, object], match: str
) -> None:
    with pytest.raises(ValueError, match=match):
        ik.fabrik(joints, target, **kwargs)  # type: ignore[arg-type]
