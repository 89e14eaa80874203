"""Any magnitude: every finite input from subnormal to the largest float,
in float64 and float32, gets a finite answer, the right one, or a ValueError naming the argument
when the answer itself is not representable; bad types fail naming the argument."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import ik

FIELDS = {
    dim: ("elbow", "hand", "distance", "reach", "shortfall", "stretch", "elbow_angle")
    + (("upper_angle", "lower_angle") if dim == 2 else ())
    for dim in (2, 3)
}


def _finite(sol: ik.Solution2D | ik.Solution3D, dim: int) -> None:
    for name in FIELDS[dim]:
        assert np.isfinite(np.asarray(getattr(sol, name), np.float64)).all(), name


def _scaled_distance(a: np.ndarray, b: np.ndarray, *sizes: float) -> tuple[float, int]:
    """``|a - b| / 2^k`` and ``k``, with ``2^k`` about the largest of ``a``, ``b`` and
    ``sizes``: no overflow, no underflow."""
    a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
    k = math.frexp(max(float(np.abs(a).max()), float(np.abs(b).max()), *sizes, 1e-300))[1]
    return float(np.linalg.norm(np.ldexp(a, -k) - np.ldexp(b, -k))), k


def _distance(a: np.ndarray, b: np.ndarray) -> float:
    scaled, k = _scaled_distance(a, b)
    return math.ldexp(scaled, k)


# worked cases at the edges of the float range, each a plain test


def test_lengths_whose_squares_overflow_solve_the_triangle() -> None:
    sol = ik.solve_2d((0, 0), (1e77, 0), 1e77, 1e77)  # an elbow with no NaN or inf
    _finite(sol, 2)
    np.testing.assert_allclose(sol.elbow, [0.5e77, math.sqrt(0.75) * 1e77], rtol=1e-12)
    np.testing.assert_allclose(sol.hand, [1e77, 0.0], rtol=1e-12)
    assert int(sol.status) == ik.Status.REACHED
    f32 = np.float32
    sol32 = ik.solve_2d(np.zeros(2, f32), np.array([1e10, 0], f32), f32(1e10), f32(1e10))
    _finite(sol32, 2)
    assert sol32.elbow.dtype == np.float32
    np.testing.assert_allclose(sol32.elbow, [0.5e10, math.sqrt(0.75) * 1e10], rtol=1e-6)


def test_a_distance_beyond_the_float_range_is_a_value_error_naming_target() -> None:
    with pytest.raises(ValueError, match="target"):  # |target - root| = 2e308
        ik.solve_3d((-1e308, 0, 0), (1e308, 0, 0), 1, 1, (0, 0, 1))


def test_lengths_whose_sum_overflows_are_solved() -> None:
    sol = ik.solve_2d((0, 0), (1, 1), 1e308, 1e308)  # L1 + L2 = inf in float64
    _finite(sol, 2)
    assert abs(_distance(sol.elbow, np.zeros(2)) / 1e308 - 1.0) < 1e-12
    assert abs(_distance(sol.hand, sol.elbow) / 1e308 - 1.0) < 1e-12


def test_bones_300_orders_of_magnitude_apart_fold_the_arm() -> None:
    sol = ik.solve_2d((0, 0), (1, 0), 1e-300, 1e300)
    _finite(sol, 2)
    # d = 1 <= eps (L1 + L2): the target is at the root at the limb's resolution (documented)
    assert int(sol.status) == ik.Status.DEGENERATE
    np.testing.assert_allclose(sol.hand, [1e300, 0.0], rtol=1e-12)
    assert abs(float(sol.elbow[0])) <= 2e-300


def test_subnormal_lengths_at_the_root_are_a_degenerate_pose_not_an_error() -> None:
    sol = ik.solve_2d((0, 0), (0, 0), 5e-324, 5e-324)  # L1·L2 underflows to 0
    _finite(sol, 2)
    assert int(sol.status) == ik.Status.DEGENERATE
    batch = ik.solve_2d(np.zeros((64, 2)), np.zeros((64, 2)), 5e-324, 5e-324)  # the batch too
    _finite(batch, 2)


def test_a_far_target_gets_a_straight_arm_not_zero_length_bones() -> None:
    sol = ik.solve_2d((0, 0), (1e155, 0), 1, 1)  # d² overflows float64, d does not
    np.testing.assert_allclose(sol.elbow, [1.0, 0.0], rtol=1e-12)
    np.testing.assert_allclose(sol.hand, [2.0, 0.0], rtol=1e-12)
    assert float(sol.distance) == 1e155 and int(sol.status) == ik.Status.TOO_FAR


@pytest.mark.parametrize("name", ["root", "target", "pole"])
def test_none_is_a_type_error_naming_the_argument(name: str) -> None:
    args = {"root": (0, 0, 0), "target": (1, 1, 0), "pole": (0, 0, 1)} | {name: None}
    with pytest.raises(TypeError, match=name):
        ik.solve_3d(upper_len=1.0, lower_len=1.0, **args)  # type: ignore[arg-type]
    if name != "pole":  # in 2-D a pole of None means no pole
        with pytest.raises(TypeError, match=name):
            ik.solve_2d(**{"root": (0, 0), "target": (1, 1), name: None}, upper_len=1, lower_len=1)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("changes", "error", "name"),
    [
        ({"target": [[1.0, 2.0], [3.0]]}, ValueError, "target"),  # ragged
        ({"root": [[0.0, 0.0], [1.0]]}, ValueError, "root"),
        ({"target": (10**400, 0)}, ValueError, "target"),  # beyond float64
        ({"upper_len": 10**400}, ValueError, "upper_len"),
        ({"lower_len": True}, TypeError, "lower_len"),  # booleans are not lengths
        ({"target": np.array([True, False])}, TypeError, "target"),
        ({"softness": False}, TypeError, "softness"),
    ],
)
def test_bad_values_fail_naming_the_argument(
    changes: dict[str, object], error: type[Exception], name: str
) -> None:
    args = {"root": (0.0, 0.0), "target": (1.0, 1.0), "upper_len": 1.0, "lower_len": 1.0}
    with pytest.raises(error, match=name):
        ik.solve_2d(**(args | changes))  # type: ignore[arg-type]


@settings(max_examples=200)
@given(
    reach=st.floats(5e-324, 1.7e308),
    fraction=st.floats(0.0, 1.0, exclude_min=True, exclude_max=True),  # 0: the identity
    distance=st.floats(0.0, 1.7e308),
)
def test_soften_distance_never_exceeds_the_reach(
    reach: float, fraction: float, distance: float
) -> None:
    softness = fraction * reach
    assume(0.0 < softness < reach)  # softness 0 is the identity; rounding may reach the reach
    assert float(ik.soften_distance(distance, reach, softness)) <= reach


# the whole float range, float64 and float32


def _floats(dtype: type, positive: bool = False) -> st.SearchStrategy[float]:
    info = np.finfo(dtype)
    width = 32 if dtype is np.float32 else 64
    smallest = float(info.smallest_subnormal)
    if positive:
        return st.floats(smallest, float(info.max), width=width)
    return st.floats(-float(info.max), float(info.max), width=width)


@st.composite
def any_limb(draw: st.DrawFn, dim: int, dtype: type) -> dict[str, object]:
    """Coordinates and lengths anywhere in the dtype's finite range, sometimes near each other
    (a target or pole close to the root, equal bones)."""
    coords = st.lists(_floats(dtype), min_size=dim, max_size=dim).map(lambda c: np.array(c, dtype))
    root = draw(coords)
    near = draw(st.sampled_from(["far", "near", "same"]))
    target = {"far": draw(coords), "near": root + draw(coords) * dtype(2.0**-60), "same": root}[
        near
    ]
    target = np.where(np.isfinite(target), target, root).astype(dtype)
    upper = dtype(draw(_floats(dtype, positive=True)))
    lower = upper if draw(st.booleans()) else dtype(draw(_floats(dtype, positive=True)))
    pole = draw(coords)
    return {"root": root, "target": target, "upper_len": upper, "lower_len": lower, "pole": pole}


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("dim", [2, 3])
@settings(max_examples=300)
@given(data=st.data())
def test_every_finite_input_gets_a_finite_right_answer_or_a_value_error(
    dim: int, dtype: type, data: st.DataObject
) -> None:
    limb = data.draw(any_limb(dim, dtype))
    options = {"max_stretch": data.draw(st.sampled_from([1.0, 2.0]))}
    if dim == 2 and data.draw(st.booleans()):
        del limb["pole"]
    try:
        with np.errstate(invalid="raise", divide="raise"):  # no NaN made, no division by 0
            sol = (ik.solve_2d if dim == 2 else ik.solve_3d)(**limb, **options)  # type: ignore[arg-type]
            _finite(sol, dim)
    except ValueError as error:  # only where the answer is not representable
        assert "range" in str(error)
        return
    assert sol.elbow.dtype == dtype
    # the right answer: bones of the (stretched) lengths, within rounding at their magnitudes
    eps = float(np.finfo(dtype).eps)
    stretch = float(sol.stretch)
    root = np.asarray(limb["root"], np.float64)
    for a, b, length in (
        (root, sol.elbow, limb["upper_len"]),
        (sol.elbow, sol.hand, limb["lower_len"]),
    ):
        scale = max(float(limb["upper_len"]), float(limb["lower_len"]))
        tol = min(128 * eps * (scale * stretch + float(np.abs(root).max())), 1e308)
        tol += 8 * float(np.finfo(dtype).smallest_subnormal)  # the positions' own grid
        scaled, k = _scaled_distance(a, b, tol, min(float(length) * stretch, 1e308))
        assert abs(scaled - math.ldexp(float(length) * stretch, -k)) <= math.ldexp(tol, -k)
