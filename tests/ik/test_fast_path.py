"""The allocation-free batch kernels (options off) give the generic kernels' results bit for bit."""

from __future__ import annotations

import numpy as np
import pytest

import ik
from ik import _fast, _small


@pytest.fixture(autouse=True)
def vector_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """Small batches would take the limb-by-limb path (tested in test_small_path.py): turn it
    off so every batch here runs the vector kernels."""
    monkeypatch.setattr(_small, "LIMIT", {})


def _limbs(dim: int, n: int, dtype: type) -> list[np.ndarray]:
    rng = np.random.default_rng(dim * 1000 + n)
    upper = rng.uniform(0.5, 2.0, n)
    lower = upper * rng.uniform(0.3, 1.5, n)
    root = rng.normal(size=(n, dim))
    direction = rng.normal(size=(n, dim))
    direction /= np.linalg.norm(direction, axis=-1, keepdims=True)
    target = root + direction * ((upper + lower) * rng.uniform(0.0, 1.3, n))[:, None]
    target[3:n:40000] = root[3:n:40000]  # target at the root: the first chunk falls back
    pole = root + rng.normal(size=(n, dim))
    pole[5:n:40000] = root[5:n:40000]  # pole at the root: fallback plane in 3-D
    return [x.astype(dtype) for x in (root, target, upper, lower, pole)]


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("n", [1, 7, _fast.CHUNK + 5, 3 * _fast.CHUNK])
@pytest.mark.parametrize("dim", [2, 3])
def test_fast_kernel_matches_generic_kernel_exactly(dim: int, n: int, dtype: type) -> None:
    root, target, upper, lower, pole = _limbs(dim, n, dtype)
    ones = np.ones(n, dtype)  # an array max_stretch of 1 takes the generic kernel
    rng = np.random.default_rng(n)
    # half the limbs soft (a quarter of their length, so many targets fall in the soft zone)
    soft = np.where(rng.random(n) < 0.5, 0.0, 0.25 * (upper + lower)).astype(dtype)
    bend = np.where(rng.random(n) < 0.5, -1.0, 1.0).astype(dtype)
    if dim == 2:
        pairs = [
            (
                ik.solve_2d(root, target, upper, lower),
                ik.solve_2d(root, target, upper, lower, max_stretch=ones),
            ),
            (
                ik.solve_2d(root, target, upper, lower, pole=pole, bend=-1),
                ik.solve_2d(root, target, upper, lower, pole=pole, bend=-1, max_stretch=ones),
            ),
            (
                ik.solve_2d(root, target, upper, lower, softness=soft),
                ik.solve_2d(root, target, upper, lower, softness=soft, max_stretch=ones),
            ),
            (
                ik.solve_2d(root, target, upper, lower, pole=pole, bend=bend, softness=soft),
                ik.solve_2d(
                    root,
                    target,
                    upper,
                    lower,
                    pole=pole,
                    bend=bend,
                    softness=soft,
                    max_stretch=ones,
                ),
            ),
            (  # one softness for every limb: a scalar column
                ik.solve_2d(root, target, upper, lower, softness=0.2),
                ik.solve_2d(root, target, upper, lower, softness=0.2, max_stretch=ones),
            ),
        ]
    else:
        pairs = [
            (
                ik.solve_3d(root, target, upper, lower, pole),
                ik.solve_3d(root, target, upper, lower, pole, max_stretch=ones),
            )
        ]
    for fast, generic in pairs:
        for name in fast.__dataclass_fields__:
            got, want = getattr(fast, name), getattr(generic, name)
            assert got.dtype == want.dtype, name
            np.testing.assert_array_equal(got, want, err_msg=name)


@pytest.mark.parametrize("dim", [2, 3])
def test_plain_one_limb_matches_generic_scalar_kernel_exactly(dim: int) -> None:
    root, target, upper, lower, pole = _limbs(dim, 400, np.float64)
    ones = np.ones(1)  # an array option takes the array path, the generic (vector) kernel
    soft = float(upper[0] + lower[0]) * 0.3  # in the soft zone for some limbs
    for i in range(400):
        r, t, p = tuple(root[i].tolist()), tuple(target[i].tolist()), tuple(pole[i].tolist())
        u, lo = float(upper[i]), float(lower[i])
        if dim == 2:
            for bend, with_pole, s in ((1, None, 0.0), (-1, None, 0.0), (1, p, 0.0), (-1, p, soft)):
                s = min(s, 0.9 * (u + lo))
                one = ik.solve_2d(r, t, u, lo, bend=bend, pole=with_pole, softness=s)
                many = ik.solve_2d(
                    r, t, u, lo, bend=bend, pole=with_pole, softness=s, max_stretch=ones
                )
                _same(one, many)
        else:
            _same(ik.solve_3d(r, t, u, lo, p), ik.solve_3d(r, t, u, lo, p, max_stretch=ones))


def _same(one: ik.Solution2D | ik.Solution3D, many: ik.Solution2D | ik.Solution3D) -> None:
    for name in one.__dataclass_fields__:
        got, want = getattr(one, name), getattr(many, name)[0]
        assert got.shape == want.shape and got.dtype == want.dtype, name
        # numpy's and libm's atan2 may differ in the last bit; everything else is exact
        if "angle" in name:
            np.testing.assert_allclose(got, want, rtol=1e-15, atol=1e-15, err_msg=name)
        else:
            np.testing.assert_array_equal(got, want, err_msg=name)
