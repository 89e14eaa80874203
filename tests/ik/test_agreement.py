"""The solver's one promise, whatever the batch size: a batch equals the loop of single solves
(the one-limb path is a transcription of the vector stages), and every result agrees with the
forward-kinematics oracle (plain geometry on the outputs)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import ik
from ik._batch import CHUNK

DIMS = pytest.mark.parametrize("dim", [2, 3])
FIELDS = {
    dim: ("elbow", "hand", "distance", "reach", "shortfall", "reached", "stretch", "status")
    + ("elbow_angle",)
    + (("upper_angle", "lower_angle") if dim == 2 else ())
    for dim in (2, 3)
}

scales = st.floats(-4, 4).map(lambda e: 10.0**e)


@st.composite
def batches(draw: st.DrawFn, dim: int, n: int) -> dict[str, np.ndarray]:
    """``n`` limbs at one scale, targets from the root out to 1.5 reach, every option per limb."""
    scale = draw(scales)
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    upper = scale * rng.uniform(0.05, 1.0, n)
    lower = scale * rng.uniform(0.05, 1.0, n)
    span = upper + lower
    root = scale * rng.uniform(-3, 3, (n, dim))
    direction = rng.normal(size=(n, dim))
    direction /= np.linalg.norm(direction, axis=-1, keepdims=True)
    target = root + direction * (span * rng.uniform(0, 1.5, n))[:, None]
    options: dict[str, np.ndarray] = {
        "softness": span * rng.uniform(0, 0.5, n) * (rng.random(n) < 0.5),
        "max_stretch": 1.0 + rng.uniform(0, 0.5, n) * (rng.random(n) < 0.5),
    }
    if dim == 2:
        options["bend"] = rng.choice([-1.0, 1.0], n)
    else:
        options["twist"] = rng.uniform(-4, 4, n) * (rng.random(n) < 0.5)
    pole = root + scale * rng.normal(size=(n, dim))
    return {
        "root": root,
        "target": target,
        "upper_len": upper,
        "lower_len": lower,
        "pole": pole,
    } | options


def solve(dim: int, args: dict[str, object]) -> ik.Solution2D | ik.Solution3D:
    return (ik.solve_2d if dim == 2 else ik.solve_3d)(**args)  # type: ignore[arg-type]


def _size(batch: dict[str, np.ndarray]) -> np.ndarray:
    """Per limb, the magnitude that rounding in the positions scales with."""
    return batch["upper_len"] + batch["lower_len"] + np.abs(batch["root"]).max(axis=-1)


@DIMS
@settings(max_examples=40)
@given(data=st.data(), n=st.integers(2, 12), with_pole=st.booleans())
def test_a_batch_equals_the_loop_of_single_solves(
    dim: int, data: st.DataObject, n: int, with_pole: bool
) -> None:
    batch = data.draw(batches(dim, n))
    if dim == 2 and not with_pole:
        del batch["pole"]
    many = solve(dim, batch)
    size = _size(batch)
    for i in range(n):
        # the single limb as plain Python input: tuples and floats
        one = solve(dim, {k: tuple(v[i]) if v.ndim == 2 else float(v[i]) for k, v in batch.items()})
        for name in FIELDS[dim]:
            got, want = getattr(many, name)[i], getattr(one, name)
            assert np.shape(got) == np.shape(want), name
            np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12 * size[i], err_msg=name)


@DIMS
@settings(max_examples=20)
@given(data=st.data(), n=st.sampled_from([1, 4, 300, CHUNK + 3]))
def test_every_result_agrees_with_forward_kinematics(dim: int, data: st.DataObject, n: int) -> None:
    batch = data.draw(batches(dim, min(n, 300)))
    batch = {k: np.resize(v, (n, *v.shape[1:])) for k, v in batch.items()}  # tile to n limbs
    if n == 1:
        batch = {k: v[0] for k, v in batch.items()}
    sol = solve(dim, batch)
    b = {k: np.atleast_1d(v) for k, v in batch.items()}
    b["root"], b["target"] = b["root"].reshape(-1, dim), b["target"].reshape(-1, dim)
    elbow, hand = sol.elbow.reshape(-1, dim), sol.hand.reshape(-1, dim)
    stretch, reach = np.atleast_1d(sol.stretch), np.atleast_1d(sol.reach)
    tol = 1e-9 * _size(b)
    upper, lower = b["upper_len"] * stretch, b["lower_len"] * stretch
    assert (np.abs(np.linalg.norm(elbow - b["root"], axis=-1) - upper) <= tol).all()
    assert (np.abs(np.linalg.norm(hand - elbow, axis=-1) - lower) <= tol).all()
    offset = b["target"] - b["root"]
    distance = np.linalg.norm(offset, axis=-1)
    assume((distance > 1e-6 * (upper + lower)).all())  # else the +x fallback (its own test)
    on_ray = b["root"] + reach[:, None] * offset / distance[:, None]
    assert (np.abs(hand - on_ray).max(axis=-1) <= tol).all()
    shortfall = np.linalg.norm(b["target"] - hand, axis=-1)
    assert (np.abs(np.atleast_1d(sol.shortfall) - shortfall) <= tol).all()
    # the interior angle is π minus the turn between the bones
    turn = np.arccos(
        np.clip(np.sum((elbow - b["root"]) * (hand - elbow), -1) / (upper * lower), -1, 1)
    )
    assert np.allclose(np.atleast_1d(sol.elbow_angle), math.pi - turn, atol=1e-6)
    if dim == 2:  # the bones' world angles rebuild the joints
        up, lo = np.atleast_1d(sol.upper_angle), np.atleast_1d(sol.lower_angle)
        rebuilt = b["root"] + upper[:, None] * np.stack([np.cos(up), np.sin(up)], -1)
        assert (np.abs(rebuilt - elbow).max(axis=-1) <= tol).all()
        rebuilt = rebuilt + lower[:, None] * np.stack([np.cos(lo), np.sin(lo)], -1)
        assert (np.abs(rebuilt - hand).max(axis=-1) <= tol).all()


def test_lazy_angles_have_the_seeds_values() -> None:
    sol = ik.solve_2d(np.zeros((3, 2)), [[1.0, 1.0], [2.0, 0.0], [0.5, 0.0]], 1.0, 1.0)
    expected = [math.pi / 2, math.pi, 2 * math.asin(0.25)]
    for _ in range(2):  # computed on first access, the same values after
        np.testing.assert_allclose(sol.elbow_angle, expected, atol=1e-12)
    np.testing.assert_allclose(sol.upper_angle, [math.pi / 2, 0.0, math.acos(0.25)], atol=1e-12)


@DIMS
@settings(max_examples=20)
@given(data=st.data(), n=st.integers(9, 12))
def test_a_float32_batch_agrees_with_its_single_float32_solves(
    dim: int, data: st.DataObject, n: int
) -> None:
    # a batch of 9+ limbs computes in float32 arithmetic, one limb in Python floats rounded to
    # float32: they agree to float32 precision (sqrt(eps) at the limb's scale for the elbow,
    # whose height is that ill-conditioned near full extension)
    batch = {k: v.astype(np.float32) for k, v in data.draw(batches(dim, n)).items()}
    many = solve(dim, batch)
    eps = float(np.finfo(np.float32).eps)
    size = _size({k: v.astype(np.float64) for k, v in batch.items()})
    span = (batch["upper_len"] + batch["lower_len"]).astype(np.float64)
    for i in range(n):
        one = solve(dim, {k: v[i] if v.ndim == 2 else float(v[i]) for k, v in batch.items()})
        for name in FIELDS[dim]:
            got, want = getattr(many, name)[i], getattr(one, name)
            assert np.asarray(want).dtype == got.dtype, name
            if name in ("reached", "status"):
                assert got == want, name
                continue
            if name.endswith("angle"):
                tol = 8 * math.sqrt(
                    eps * span[i] ** 2 / (batch["upper_len"][i] * batch["lower_len"][i])
                )
            elif name == "stretch":  # a ratio: relative
                tol = 16 * eps * float(want)
            else:
                tol = 8 * math.sqrt(eps) * size[i] if name == "elbow" else 16 * eps * size[i]
            np.testing.assert_allclose(got, want, rtol=0, atol=tol, err_msg=name)


def test_just_past_the_soft_knee_float32_and_float64_agree_on_softened() -> None:
    # 4.5e-5 past the knee the curve moves d by ~2e-9: float32 rounds that away, float64
    # does not, so the softened d cannot decide the status of a float32 batch (float32
    # arithmetic) and its one-limb solve (Python floats) alike. The status is the zone
    # d > L - s, in any precision: both say SOFTENED (a case of the property above)
    root, target = np.zeros((9, 3), np.float32), np.zeros((9, 3), np.float32)
    target[:, 0] = np.float32(0.52721181)
    upper, lower = np.float32(0.26340654), np.float32(0.76593425)
    softness = np.float32(0.50217416)
    pole = np.tile(np.float32([0.0, 1.0, 0.0]), (9, 1))
    many = ik.solve_3d(root, target, upper, lower, pole, softness=softness)
    one = ik.solve_3d(
        root[0], target[0], float(upper), float(lower), pole[0], softness=float(softness)
    )
    assert float(target[0, 0]) > float(upper) + float(lower) - float(softness)  # in the zone
    assert (many.status == ik.Status.SOFTENED).all() and one.status == ik.Status.SOFTENED
