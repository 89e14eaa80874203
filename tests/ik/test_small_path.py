"""Small batches and single float32 limbs, solved limb by limb in Python, give the vector kernels'
results: exactly, except float64 bone and elbow angles (``math.atan2`` against numpy's
``arctan2``, which differ in the last bit), checked to 1e-15 as in ``test_fast_path.py``."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ik
from ik import _small


@pytest.fixture
def vector_only(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Turn the small-batch path off, so a call takes the vector kernels."""
    monkeypatch.setattr(_small, "LIMIT", {})
    yield


def _vector(solve: Callable[[], Any]) -> Any:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_small, "LIMIT", {})
        return solve()


def _limbs(dim: int, n: int, dtype: type, seed: int = 0) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    upper = rng.uniform(0.5, 2.0, n)
    lower = upper * rng.uniform(0.3, 1.5, n)
    root = rng.normal(size=(n, dim))
    direction = rng.normal(size=(n, dim))
    direction /= np.linalg.norm(direction, axis=-1, keepdims=True)
    # out of reach, too close, in the soft zone, reachable, and (below) at the root
    target = root + direction * ((upper + lower) * rng.uniform(0.0, 1.3, n))[:, None]
    target[n // 2] = root[n // 2]
    pole = root + rng.normal(size=(n, dim))
    pole[n // 3] = root[n // 3]  # pole at the root: the fallback side or plane
    soft = np.where(rng.random(n) < 0.5, 0.0, rng.uniform(0.0, 0.5, n) * (upper + lower))
    stretch = np.where(rng.random(n) < 0.5, 1.0, rng.uniform(1.0, 1.5, n))
    bend = np.where(rng.random(n) < 0.5, -1.0, 1.0)
    twist = np.where(rng.random(n) < 0.5, 0.0, rng.uniform(-3.0, 3.0, n))
    values = {"root": root, "target": target, "pole": pole, "upper": upper, "lower": lower}
    values |= {"softness": soft, "max_stretch": stretch, "bend": bend, "twist": twist}
    return {name: v.astype(dtype) for name, v in values.items()}


def _assert_same(small: Any, vector: Any, float64_angles: bool) -> None:
    for name in vector.__dataclass_fields__:
        got, want = getattr(small, name), getattr(vector, name)
        assert got.shape == want.shape and got.dtype == want.dtype, name
        assert got.flags.c_contiguous, name
        if float64_angles and "angle" in name:
            np.testing.assert_allclose(got, want, rtol=1e-15, atol=1e-15, err_msg=name)
        else:
            np.testing.assert_array_equal(got, want, err_msg=name)


def _calls(dim: int, p: dict[str, np.ndarray]) -> list[Callable[[], Any]]:
    """Plain, with a pole and bend, and with every option, per dimension."""
    r, t, u, lo = p["root"], p["target"], p["upper"], p["lower"]
    if dim == 2:
        return [
            lambda: ik.solve_2d(r, t, u, lo),
            lambda: ik.solve_2d(r, t, u, lo, pole=p["pole"], bend=p["bend"]),
            lambda: ik.solve_2d(r, t, u, lo, bend=p["bend"], softness=p["softness"]),
            lambda: ik.solve_2d(
                r, t, u, lo, pole=p["pole"], softness=p["softness"], max_stretch=p["max_stretch"]
            ),
        ]
    return [
        lambda: ik.solve_3d(r, t, u, lo, p["pole"]),
        lambda: ik.solve_3d(r, t, u, lo, p["pole"], softness=p["softness"]),
        lambda: ik.solve_3d(
            r,
            t,
            u,
            lo,
            p["pole"],
            twist=p["twist"],
            softness=p["softness"],
            max_stretch=p["max_stretch"],
        ),
    ]


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("n", [1, 4, 7, 32])
@pytest.mark.parametrize("dim", [2, 3])
def test_small_batch_matches_vector_kernel(dim: int, n: int, dtype: type) -> None:
    if n > _small.LIMIT[np.dtype(dtype)]:
        pytest.skip("beyond the small-batch limit for this dtype")
    for call in _calls(dim, _limbs(dim, n, dtype, seed=n)):
        _assert_same(call(), _vector(call), float64_angles=dtype is np.float64)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("dim", [2, 3])
def test_one_limb_of_each_dtype_matches_vector_kernel(dim: int, dtype: type) -> None:
    p = _limbs(dim, 60, dtype)
    for i in range(60):
        one = {name: v[i] for name, v in p.items()}
        for call in _calls(dim, one):
            _assert_same(call(), _vector(call), float64_angles=dtype is np.float64)


def test_game_like_call_matches_vector_kernel() -> None:
    """One character's four limbs: (1, 4) batch, per-limb poles and bends, soft legs."""
    p = _limbs(2, 4, np.float64)
    roots, targets, poles = (p[k][None] for k in ("root", "target", "pole"))
    upper, lower = np.array([0.6, 0.6, 0.9, 0.9]), np.array([0.55, 0.55, 0.85, 0.85])
    bend = np.array([[-1.0, -1.0, 1.0, 1.0]])
    softness = np.array([0.0, 0.0, 0.05, 0.05])

    def call() -> ik.Solution2D:
        return ik.solve_2d(roots, targets, upper, lower, bend=bend, pole=poles, softness=softness)

    small = call()
    assert small.elbow.shape == (1, 4, 2) and small.status.shape == (1, 4)
    _assert_same(small, _vector(call), float64_angles=True)


@pytest.mark.parametrize("dim", [2, 3])
def test_small_batch_broadcasts_like_the_vector_path(dim: int) -> None:
    rng = np.random.default_rng(3)
    roots = rng.normal(size=(3, 1, dim))  # (3, 1) against (1, 4) lengths: inner broadcasting
    targets = rng.normal(size=(4, dim))
    upper, lower = rng.uniform(1, 2, (1, 4)), 1.5
    pole = rng.normal(size=(dim,))

    def call() -> Any:
        if dim == 2:
            return ik.solve_2d(roots, targets, upper, lower, pole=pole, bend=-1)
        return ik.solve_3d(roots, targets, upper, lower, pole)

    small = call()
    assert small.elbow.shape == (3, 4, dim)
    _assert_same(small, _vector(call), float64_angles=True)


@pytest.mark.parametrize("dim", [2, 3])
def test_ints_and_bools_compute_in_float64(dim: int) -> None:
    root, target = [0] * dim, [2] + [1] * (dim - 1)
    args: tuple[Any, ...] = (np.array([root, root]), np.array([target, target]), 2, True)
    sol = ik.solve_2d(*args, bend=True) if dim == 2 else ik.solve_3d(*args, [0, 0, 1])
    assert sol.elbow.dtype == np.float64 and sol.reach.shape == (2,)
    np.testing.assert_allclose(np.linalg.norm(sol.elbow, axis=-1), 2.0, rtol=1e-15)


@pytest.mark.parametrize("dim", [2, 3])
def test_float32_in_gives_float32_out_on_the_small_path(dim: int) -> None:
    p = _limbs(dim, 1, np.float32)
    for call in _calls(dim, {name: v[0] for name, v in p.items()}):
        sol = call()
        assert sol.elbow.dtype == np.float32 and sol.elbow.shape == (dim,)
        assert sol.reach.dtype == np.float32 and sol.reach.shape == ()
        assert sol.status.dtype == np.int8 and sol.reached.dtype == np.bool_


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
@pytest.mark.parametrize("dim", [2, 3])
def test_non_finite_input_still_raises_naming_the_argument(
    dim: int, bad: float, dtype: type
) -> None:
    p = _limbs(dim, 4, dtype)
    for name in ("root", "target", "pole", "upper", "lower", "softness"):
        q = {k: v.copy() for k, v in p.items()}
        q[name][2] = bad
        public = {"upper": "upper_len", "lower": "lower_len"}.get(name, name)
        with pytest.raises(ValueError, match=public):
            _calls(dim, q)[-1]()


def test_bad_bend_in_a_small_batch_is_rejected() -> None:
    with pytest.raises(ValueError, match="bend"):
        ik.solve_2d(np.zeros((4, 2)), np.ones((4, 2)), 2.0, 1.2, bend=[1, -1, 0.5, 1])


def test_softness_at_the_float32_limb_length_is_rejected() -> None:
    # 2 + 2**-23 rounds to 2 in float32: a softness of 2 is then not below L1 + L2
    upper, lower = np.float32(1.0), np.float32(1.0 + 2**-23)
    with pytest.raises(ValueError, match="softness"):
        ik.solve_2d(np.zeros(2, np.float32), np.ones(2, np.float32), upper, lower, softness=2.0)


@pytest.mark.parametrize("dim", [2, 3])
def test_degenerate_limbs_in_a_small_batch(dim: int) -> None:
    root = np.zeros((3, dim))
    target = np.array([[0.0] * dim, [9.0] + [0.0] * (dim - 1), [0.1] + [0.0] * (dim - 1)])
    pole = np.zeros((3, dim))  # pole at the root: the 3-D fallback plane
    pole[:, 1] = 1.0 if dim == 2 else 0.0

    def call() -> Any:
        if dim == 2:
            return ik.solve_2d(root, target, 2.0, 1.2, pole=pole)
        return ik.solve_3d(root, target, 2.0, 1.2, pole)

    sol = call()
    expected = [ik.Status.DEGENERATE, ik.Status.TOO_FAR, ik.Status.TOO_CLOSE]
    if dim == 3:
        expected = [ik.Status.DEGENERATE] * 3
    assert sol.status.tolist() == [int(s) for s in expected]
    _assert_same(sol, _vector(call), float64_angles=True)


coordinate = st.floats(-10, 10)


@settings(max_examples=150, deadline=None)
@given(
    data=st.data(),
    dim=st.sampled_from([2, 3]),
    n=st.integers(1, 12),
    dtype=st.sampled_from([np.float64, np.float32]),
)
def test_small_batches_equal_the_vector_kernel_property(
    data: st.DataObject, dim: int, n: int, dtype: type
) -> None:
    n = min(n, _small.LIMIT[np.dtype(dtype)])

    def points() -> np.ndarray:
        flat = data.draw(st.lists(coordinate, min_size=n * dim, max_size=n * dim))
        return np.array(flat, dtype).reshape(n, dim)

    root, target, pole = points(), points(), points()
    lengths = st.lists(st.floats(0.05, 5), min_size=n, max_size=n)
    upper, lower = np.array(data.draw(lengths), dtype), np.array(data.draw(lengths), dtype)
    fraction = st.lists(st.sampled_from([0.0, 0.1, 0.5, 0.99]), min_size=n, max_size=n)
    softness = (np.array(data.draw(fraction)) * (upper + lower)).astype(dtype) * dtype(0.999)
    stretch = np.array(data.draw(st.lists(st.floats(1, 2), min_size=n, max_size=n)), dtype)
    signs = st.lists(st.sampled_from([-1.0, 1.0]), min_size=n, max_size=n)
    bend = np.array(data.draw(signs), dtype)
    twist = np.array(data.draw(st.lists(st.floats(-4, 4), min_size=n, max_size=n)), dtype)
    p = {"root": root, "target": target, "pole": pole, "upper": upper, "lower": lower}
    p |= {"softness": softness, "max_stretch": stretch, "bend": bend, "twist": twist}
    for call in _calls(dim, p):
        _assert_same(call(), _vector(call), float64_angles=dtype is np.float64)
