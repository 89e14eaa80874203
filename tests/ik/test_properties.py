"""Solver invariants as hypothesis properties, checked by forward kinematics (plain geometry on
the outputs), in 2-D and 3-D, at limb scales from 1e-6 to 1e6."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import ik

SETTINGS = settings(max_examples=150)
FIELDS = {
    dim: ("elbow", "hand", "distance", "reach", "shortfall", "reached", "stretch", "status")
    + ("elbow_angle",)
    + (("upper_angle", "lower_angle") if dim == 2 else ())
    for dim in (2, 3)
}
"""Every public result, the lazy angles included."""
DIMS = pytest.mark.parametrize("dim", [2, 3])


@dataclass(frozen=True)
class Limb:
    """One random limb: joints as float64 arrays, lengths as floats."""

    root: np.ndarray
    target: np.ndarray
    pole: np.ndarray
    upper: float
    lower: float

    @property
    def size(self) -> float:
        """Magnitude that rounding in the positions scales with."""
        return self.upper + self.lower + float(np.abs(self.root).max() + np.abs(self.target).max())


def _unit(draw: st.DrawFn, dim: int) -> np.ndarray:
    v = np.array(draw(st.lists(st.floats(-1, 1), min_size=dim, max_size=dim)))
    n = float(np.linalg.norm(v))
    return v / n if n > 0.1 else np.eye(dim)[0]


@st.composite
def limbs(draw: st.DrawFn, dim: int, reach: tuple[float, float] = (0.0, 2.0)) -> Limb:
    """A limb at scale 10^[-6, 6]; the target at ``reach`` (fractions of L1 + L2) from the root."""
    scale = 10.0 ** draw(st.floats(-6, 6))
    upper = scale * draw(st.floats(0.05, 1.0))
    lower = scale * draw(st.floats(0.05, 1.0))
    root = scale * np.array(draw(st.lists(st.floats(-3, 3), min_size=dim, max_size=dim)))
    target = root + draw(st.floats(*reach)) * (upper + lower) * _unit(draw, dim)
    pole = root + scale * draw(st.floats(0.1, 3.0)) * _unit(draw, dim)
    return Limb(root, target, pole, upper, lower)


def solve(dim: int, limb: Limb, **options: object) -> ik.Solution2D | ik.Solution3D:
    if dim == 2:
        return ik.solve_2d(limb.root, limb.target, limb.upper, limb.lower, **options)  # type: ignore[arg-type]
    return ik.solve_3d(limb.root, limb.target, limb.upper, limb.lower, limb.pole, **options)  # type: ignore[arg-type]


def _expected_status(dim: int, limb: Limb, status: ik.Status, eps: float = 0.0) -> set[int]:
    """``status``, or also DEGENERATE where the solver may rightly use a fallback: the target
    within rounding of the root, or a 3-D pole within rounding of the axis. ``eps``: the machine
    epsilon the solve rounds with, when coarser than float64 (its rounding of ``target - root``
    and ``pole - root`` at the coordinates' magnitude can put the pole on the axis)."""
    w, v = limb.pole - limb.root, limb.target - limb.root
    near = np.linalg.norm(v) <= 1e-12 * (limb.upper + limb.lower) or (
        dim == 3
        # |w × v|: |w| times the pole's distance from the axis (3-D only)
        and np.linalg.norm(np.cross(w, v))
        <= max(1e-6 * np.linalg.norm(w), 64 * eps * limb.size) * np.linalg.norm(v)
    )
    return {status, ik.Status.DEGENERATE} if near else {status}


def _cross2(a: np.ndarray, b: np.ndarray) -> float:
    return float(a[0] * b[1] - a[1] * b[0])


@DIMS
@SETTINGS
@given(data=st.data(), softness=st.floats(0.0, 0.9))
def test_bone_lengths_are_preserved_without_stretch(
    dim: int, data: st.DataObject, softness: float
) -> None:
    limb = data.draw(limbs(dim))
    sol = solve(dim, limb, softness=softness * (limb.upper + limb.lower))
    tol = 1e-9 * limb.size
    assert abs(np.linalg.norm(sol.elbow - limb.root) - limb.upper) <= tol
    assert abs(np.linalg.norm(sol.hand - sol.elbow) - limb.lower) <= tol


@DIMS
@SETTINGS
@given(data=st.data())
def test_reachable_target_puts_the_hand_on_it(dim: int, data: st.DataObject) -> None:
    limb = data.draw(limbs(dim, reach=(0.0, 1.0)))
    gap, span = abs(limb.upper - limb.lower), limb.upper + limb.lower
    distance = float(np.linalg.norm(limb.target - limb.root))
    assume(gap * (1 + 1e-9) < distance < span * (1 - 1e-9))  # else: the unreachable test
    sol = solve(dim, limb)
    assert np.linalg.norm(sol.hand - limb.target) <= 1e-9 * limb.size
    assert bool(sol.reached)
    # A 3-D pole on the axis uses the fallback plane: still on target, reported as degenerate.
    assert int(sol.status) in _expected_status(dim, limb, ik.Status.REACHED)


@DIMS
@SETTINGS
@given(data=st.data())
def test_unreachable_target_gets_the_chain_aimed_at_it_from_the_annulus_edge(
    dim: int, data: st.DataObject
) -> None:
    limb = data.draw(limbs(dim, reach=(0.0, 3.0)))
    gap, span = abs(limb.upper - limb.lower), limb.upper + limb.lower
    offset = limb.target - limb.root
    distance = float(np.linalg.norm(offset))
    # reachable (or too near the edge / the root to tell the cases apart)
    assume(not (gap * (1 - 1e-6) <= distance <= span * (1 + 1e-6) or distance < 1e-3 * span))
    sol = solve(dim, limb)
    edge = span if distance > span else gap
    expected_hand = limb.root + edge * offset / distance
    np.testing.assert_allclose(sol.hand, expected_hand, rtol=0, atol=1e-9 * limb.size)
    assert math.isclose(float(sol.shortfall), abs(distance - edge), abs_tol=1e-9 * limb.size)
    assert not bool(sol.reached)
    edge_status = ik.Status.TOO_FAR if distance > span else ik.Status.TOO_CLOSE
    assert int(sol.status) in _expected_status(dim, limb, edge_status)


@SETTINGS
@given(data=st.data(), bend=st.sampled_from([1, -1]))
def test_2d_elbow_goes_on_the_bend_side(data: st.DataObject, bend: int) -> None:
    limb = data.draw(limbs(2, reach=(0.05, 0.95)))
    sol = ik.solve_2d(limb.root, limb.target, limb.upper, limb.lower, bend=bend)
    assume(float(np.sin(sol.elbow_angle)) >= 1e-3)  # else straight or folded: on the line
    side = _cross2(limb.target - limb.root, sol.elbow - limb.root)
    assert np.sign(side) == bend


@SETTINGS
@given(data=st.data(), bend=st.sampled_from([1, -1]))
def test_2d_elbow_goes_on_the_pole_side_and_bend_decides_on_the_line(
    data: st.DataObject, bend: int
) -> None:
    limb = data.draw(limbs(2, reach=(0.05, 0.95)))
    sol = ik.solve_2d(limb.root, limb.target, limb.upper, limb.lower, bend=bend, pole=limb.pole)
    offset = limb.target - limb.root
    assume(float(np.sin(sol.elbow_angle)) >= 1e-3)
    pole_side = _cross2(offset, limb.pole - limb.root)
    assume(abs(pole_side) >= 1e-6 * np.linalg.norm(offset) * np.linalg.norm(limb.pole - limb.root))
    assert np.sign(_cross2(offset, sol.elbow - limb.root)) == np.sign(pole_side)
    line_pole = limb.root + 2.0 * offset
    # on the line in floating point too (rounding at the root's magnitude can put it a side)
    assume(_cross2(offset, line_pole - limb.root) == 0.0)
    on_line = ik.solve_2d(limb.root, limb.target, limb.upper, limb.lower, bend=bend, pole=line_pole)
    assert np.sign(_cross2(offset, on_line.elbow - limb.root)) == bend


@SETTINGS
@given(data=st.data())
def test_2d_bone_angles_rebuild_the_joints_by_forward_kinematics(data: st.DataObject) -> None:
    limb = data.draw(limbs(2))
    sol = ik.solve_2d(limb.root, limb.target, limb.upper, limb.lower)
    up, lo = float(sol.upper_angle), float(sol.lower_angle)
    elbow = limb.root + limb.upper * np.array([math.cos(up), math.sin(up)])
    hand = elbow + limb.lower * np.array([math.cos(lo), math.sin(lo)])
    np.testing.assert_allclose(sol.elbow, elbow, rtol=0, atol=1e-9 * limb.size)
    np.testing.assert_allclose(sol.hand, hand, rtol=0, atol=1e-9 * limb.size)
    # interior angle = π − the turn from the upper bone to the lower one
    turn = math.remainder(lo - up, math.tau)
    assert math.isclose(float(sol.elbow_angle), math.pi - abs(turn), abs_tol=1e-7)


@SETTINGS
@given(data=st.data())
def test_3d_elbow_lies_in_the_pole_plane_on_the_pole_side(data: st.DataObject) -> None:
    limb = data.draw(limbs(3, reach=(0.05, 0.95)))
    sol = ik.solve_3d(limb.root, limb.target, limb.upper, limb.lower, limb.pole)
    axis = (limb.target - limb.root) / np.linalg.norm(limb.target - limb.root)
    toward_pole = limb.pole - limb.root
    toward_pole = toward_pole - (toward_pole @ axis) * axis  # pole's offset ⟂ the axis
    # else the pole is (nearly) on the axis: the fallback plane applies
    assume(np.linalg.norm(toward_pole) >= 1e-3 * np.linalg.norm(limb.pole - limb.root))
    normal = np.cross(axis, toward_pole)
    normal /= np.linalg.norm(normal)
    elbow = sol.elbow - limb.root
    assert abs(elbow @ normal) <= 1e-9 * limb.size
    assert elbow @ toward_pole >= -1e-9 * limb.size * np.linalg.norm(toward_pole)


@SETTINGS
@given(data=st.data(), twist=st.floats(-10.0, 10.0))
def test_twist_keeps_every_length_and_the_hand(data: st.DataObject, twist: float) -> None:
    limb = data.draw(limbs(3))
    plain = ik.solve_3d(limb.root, limb.target, limb.upper, limb.lower, limb.pole)
    twisted = ik.solve_3d(limb.root, limb.target, limb.upper, limb.lower, limb.pole, twist=twist)
    tol = 1e-9 * limb.size
    np.testing.assert_allclose(twisted.hand, plain.hand, rtol=0, atol=tol)
    assert abs(np.linalg.norm(twisted.elbow - limb.root) - limb.upper) <= tol
    assert abs(np.linalg.norm(twisted.hand - twisted.elbow) - limb.lower) <= tol
    # the elbow only swings about the root→hand axis: same distance from the axis
    axis = plain.hand - limb.root
    axis /= max(float(np.linalg.norm(axis)), 1e-300)
    radius = [np.linalg.norm(np.cross(s.elbow - limb.root, axis)) for s in (plain, twisted)]
    assert abs(radius[0] - radius[1]) <= tol


@SETTINGS
@given(
    reach=st.floats(1e-6, 1e6),
    fraction=st.floats(0.0, 1.0, exclude_max=True),
    d=st.lists(st.floats(0.0, 5.0), min_size=2, max_size=2),
)
def test_soft_curve_is_monotonic_continuous_and_smooth_at_the_knee(
    reach: float, fraction: float, d: list[float]
) -> None:
    softness = fraction * reach
    a, b = sorted(x * reach for x in d)
    fa, fb = ik.soften_distance(np.array([a, b]), reach, softness)
    assert fa <= fb
    assert fb <= reach or fb <= b
    knee = reach - softness
    assume(softness > 1e-6 * reach and knee > 1e-6 * reach)
    h = 1e-4 * min(softness, knee)
    left, at, right = ik.soften_distance(np.array([knee - h, knee, knee + h]), reach, softness)
    assert math.isclose(at, knee, rel_tol=1e-12)
    assert math.isclose((at - left) / h, 1.0, rel_tol=1e-6)  # slope 1 below the knee
    assert math.isclose((right - at) / h, 1.0, rel_tol=1e-3)  # and (C¹) just above it


@SETTINGS
@given(reach=st.floats(0.01, 100.0), fraction=st.floats(0.01, 0.99))
def test_soft_curve_stays_below_full_extension_and_approaches_it(
    reach: float, fraction: float
) -> None:
    softness = fraction * reach
    far = ik.soften_distance(np.array([reach, reach + 50.0 * softness]), reach, softness)
    assert far[0] < reach
    assert math.isclose(far[1], reach, rel_tol=1e-12)


@DIMS
@SETTINGS
@given(data=st.data())
def test_float32_agrees_with_float64_to_float32_precision(dim: int, data: st.DataObject) -> None:
    limb = data.draw(limbs(dim, reach=(0.0, 1.5)))
    as32 = Limb(
        *(
            np.float32(x) if np.isscalar(x) else x.astype(np.float32)
            for x in (limb.root, limb.target, limb.pole, limb.upper, limb.lower)
        )
    )  # type: ignore[arg-type]
    as64 = Limb(
        *(
            np.float64(x) if np.isscalar(x) else x.astype(np.float64)
            for x in (as32.root, as32.target, as32.pole, as32.upper, as32.lower)
        )
    )  # type: ignore[arg-type]
    eps32 = float(np.finfo(np.float32).eps)
    # a pole within rounding of the axis: the two precisions may pick different planes
    assume(_expected_status(dim, as64, ik.Status.REACHED, eps32) == {ik.Status.REACHED})
    # a target at the root at float32 resolution: float32 rightly uses the fallback
    assume(np.linalg.norm(as64.target - as64.root) > 8 * np.finfo(np.float32).eps * limb.size)
    single, double = solve(dim, as32), solve(dim, as64)
    assert single.elbow.dtype == np.float32 and single.reach.dtype == np.float32
    # Near full extension the elbow's height has condition sqrt(L / (L - d)): float32 agrees
    # with float64 to sqrt(eps32) there, far tighter elsewhere.
    tol = 4 * math.sqrt(np.finfo(np.float32).eps) * limb.size
    np.testing.assert_allclose(single.elbow, double.elbow, rtol=0, atol=tol)
    close = 8 * np.finfo(np.float32).eps * limb.size  # a few float32 roundings at the limb's scale
    np.testing.assert_allclose(single.hand, double.hand, rtol=0, atol=close)
    np.testing.assert_allclose(single.reach, double.reach, rtol=0, atol=close)
    # θ ≈ π − sqrt(2 (L − d) L / (L1 L2)) near full extension: an eps·L change in d moves it
    # by sqrt(2 eps L² / (L1 L2)), the angle's conditioning there.
    angle_tol = 4 * math.sqrt(
        2 * np.finfo(np.float32).eps * (limb.upper + limb.lower) ** 2 / (limb.upper * limb.lower)
    )
    np.testing.assert_allclose(single.elbow_angle, double.elbow_angle, rtol=0, atol=angle_tol)


magnitudes = st.floats(-6, 6).map(lambda e: 10.0**e)
coords = st.floats(-1, 1)


@st.composite
def wild_limbs(draw: st.DrawFn, dim: int) -> tuple[Limb, dict[str, float]]:
    """Independent magnitudes for root, offsets and lengths, plus the special cases."""
    root = draw(magnitudes) * np.array(draw(st.lists(coords, min_size=dim, max_size=dim)))
    upper = draw(magnitudes)
    lower = draw(st.one_of(st.just(upper), magnitudes))
    case = draw(st.sampled_from(["random", "at_root", "pole_on_axis", "pole_at_root"]))
    offset = draw(magnitudes) * np.array(draw(st.lists(coords, min_size=dim, max_size=dim)))
    target = root.copy() if case == "at_root" else root + offset
    pole_offset = draw(magnitudes) * np.array(draw(st.lists(coords, min_size=dim, max_size=dim)))
    pole = {
        "pole_on_axis": root + draw(st.floats(-3, 3)) * offset,
        "pole_at_root": root.copy(),
    }.get(case, root + pole_offset)
    span = upper + lower
    options = {
        "softness": draw(st.one_of(st.just(0.0), st.floats(0.0, 0.999))) * span,
        "max_stretch": draw(st.one_of(st.just(1.0), st.floats(1.0, 3.0))),
    }
    return Limb(root, target, pole, upper, lower), options


@DIMS
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@settings(max_examples=150)
@given(data=st.data())
def test_every_output_is_finite_for_every_finite_input(
    dim: int, dtype: type, data: st.DataObject
) -> None:
    limb, options = data.draw(wild_limbs(dim))
    cast = Limb(
        limb.root.astype(dtype),
        limb.target.astype(dtype),
        limb.pole.astype(dtype),
        dtype(limb.upper),
        dtype(limb.lower),
    )
    extra = {"pole": cast.pole} if dim == 2 and data.draw(st.booleans()) else {}
    if dim == 3:
        extra = {"twist": data.draw(st.floats(-7, 7))}
    options = {
        **options,
        "softness": float(
            np.nextafter(dtype(options["softness"]), 0) if options["softness"] else 0.0
        ),
    }
    if options["softness"] >= float(cast.upper) + float(cast.lower):
        options["softness"] = 0.0
    with np.errstate(over="raise", divide="raise", invalid="raise", under="ignore"):
        sol = solve(dim, cast, **options, **extra)
    for name in FIELDS[dim]:
        value = np.asarray(getattr(sol, name))
        assert np.isfinite(value.astype(np.float64)).all(), name
    assert sol.elbow.dtype == dtype


@DIMS
@settings(max_examples=40)  # (indexing: a few batches show it)
@given(data=st.data(), read_first=st.booleans())
def test_rows_of_a_batch_solve_are_its_results_at_those_rows(
    dim: int, data: st.DataObject, read_first: bool
) -> None:
    batch = data.draw(st.lists(limbs(dim), min_size=1, max_size=8))
    index = np.array(data.draw(st.lists(st.integers(0, len(batch) - 1), max_size=12)), np.intp)
    stacked = Limb(*(np.stack([getattr(limb, f) for limb in batch]) for f in Limb.__annotations__))
    whole = solve(dim, stacked)
    if read_first:  # angles computed before the rows are taken, or only after
        [getattr(whole, name) for name in FIELDS[dim]]
    picked = whole.rows(index)
    assert type(picked) is type(whole)
    for name in FIELDS[dim]:
        expected = np.asarray(getattr(whole, name))[index]
        np.testing.assert_array_equal(getattr(picked, name), expected, err_msg=name)
