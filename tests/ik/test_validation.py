"""Bad arguments fail at the boundary with a message naming the argument, what was expected and
what arrived; degenerate geometry never fails."""

from __future__ import annotations

import math

import numpy as np
import pytest

import ik

OK2 = {"root": (0.0, 0.0), "target": (1.0, 1.0), "upper_len": 1.0, "lower_len": 1.0}
OK3 = {**OK2, "root": (0.0, 0.0, 0.0), "target": (1.0, 1.0, 0.0), "pole": (0.0, 0.0, 1.0)}


def _solve(dim: int, **changes: object) -> object:
    args = {**(OK2 if dim == 2 else OK3), **changes}
    return (ik.solve_2d if dim == 2 else ik.solve_3d)(**args)  # type: ignore[operator]


@pytest.mark.parametrize("dim", [2, 3])
@pytest.mark.parametrize(
    ("changes", "words"),
    [
        ({"root": (0.0, 0.0, 0.0, 0.0)}, ["root", "shape (..., {dim})", "(4,)"]),
        ({"target": 3.0}, ["target", "shape (..., {dim})", "()"]),
        ({"target": np.zeros((3, 0))}, ["target", "(3, 0)"]),
        ({"upper_len": 0.0}, ["upper_len", "positive", "0.0"]),
        ({"lower_len": [1.0, -2.0]}, ["lower_len", "positive", "-2.0", "(1,)"]),
        ({"lower_len": math.inf}, ["lower_len", "finite", "inf"]),
        ({"softness": -0.1}, ["softness", "0 <= softness < upper_len + lower_len", "-0.1"]),
        ({"softness": 2.0}, ["softness", "upper_len + lower_len", "2.0"]),
        ({"max_stretch": 0.5}, ["max_stretch", ">= 1", "0.5"]),
        ({"upper_len": "long"}, ["upper_len", "real numbers", "<U4"]),
    ],
)
def test_bad_argument_raises_value_error_naming_it(
    dim: int, changes: dict[str, object], words: list[str]
) -> None:
    with pytest.raises(ValueError) as caught:
        _solve(dim, **changes)
    for word in words:
        assert word.format(dim=dim) in str(caught.value)


@pytest.mark.parametrize("dim", [2, 3])
def test_non_finite_coordinate_names_the_first_bad_index(dim: int) -> None:
    target = np.ones((4, dim))
    target[2, 1] = np.nan
    target[3, 0] = np.inf
    with pytest.raises(
        ValueError, match=r"target: expected finite coordinates, got nan at index \(2, 1\)"
    ):
        _solve(dim, target=target)


@pytest.mark.parametrize("dim", [2, 3])
def test_shapes_that_do_not_broadcast_name_every_batch_shape(dim: int) -> None:
    with pytest.raises(ValueError) as caught:
        _solve(dim, root=np.zeros((4, dim)), target=np.ones((3, dim)))
    message = str(caught.value)
    assert "broadcast" in message and "root (4,)" in message and "target (3,)" in message


@pytest.mark.parametrize("bend", [0, 2, -1.5, 0.999])
def test_bend_other_than_plus_or_minus_one_is_rejected(bend: float) -> None:
    with pytest.raises(ValueError, match="bend: expected \\+1 or -1"):
        ik.solve_2d((0, 0), (1, 1), 1, 1, bend=bend)
    with pytest.raises(ValueError, match="bend: expected \\+1 or -1"):
        ik.solve_2d((0, 0), (1, 1), 1, 1, bend=np.array([1, bend]))


def test_non_finite_twist_is_rejected() -> None:
    with pytest.raises(ValueError, match="twist: expected finite values, got nan"):
        _solve(3, twist=math.nan)


def test_pole_must_have_the_right_dimension() -> None:
    with pytest.raises(ValueError, match=r"pole: expected an array_like of shape \(\.\.\., 2\)"):
        ik.solve_2d((0, 0), (1, 1), 1, 1, pole=(0, 0, 1))
    with pytest.raises(ValueError, match=r"pole: expected an array_like of shape \(\.\.\., 3\)"):
        ik.solve_3d((0, 0, 0), (1, 1, 0), 1, 1, (0, 1))


def test_soften_distance_validates_its_arguments() -> None:
    with pytest.raises(ValueError, match="softness: expected 0 <= softness < reach"):
        ik.soften_distance(1.0, 2.0, 2.0)
    with pytest.raises(ValueError, match="reach: expected a positive finite reach"):
        ik.soften_distance(1.0, 0.0, 0.0)
    with pytest.raises(ValueError, match="distance: expected finite distances >= 0"):
        ik.soften_distance([1.0, -1.0], 2.0, 0.5)


@pytest.mark.parametrize("dim", [2, 3])
def test_degenerate_geometry_is_a_pose_not_an_error(dim: int) -> None:
    zero = (0.0,) * dim
    sol = _solve(dim, root=zero, target=zero, **({"pole": zero} if dim == 3 else {}))
    assert int(sol.status) == ik.Status.DEGENERATE  # type: ignore[attr-defined]
    assert np.isfinite(sol.elbow).all()  # type: ignore[attr-defined]
