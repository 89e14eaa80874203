"""How fast a numpy solve with fresh temporaries can be on this machine: the solver's speed
targets against a floor.

    PYTHONPATH=. python benchmarks/bench_floor.py --before OLD_TREE [--repeat 5]

Times, interleaved in one run (CPU time, medians), at N = 10^4, 10^5, 10^6 limbs (float64):
``ik.solve_2d`` / ``ik.solve_3d`` of this tree (positions only), of ``OLD_TREE``'s ``ik``
(e.g. a tree whose solve also computed the angles), and of two floor
kernels written here: the positions of the same limbs with the fewest numpy passes the
formulas allow, in chunks of 16,384 limbs, with none of the solver's checks or status flags
beyond too far / too close, no stretch or softness, no magnitude handling. The kernels are a
measurement, not a solver: nothing imports them. ``floor`` stores the points component-major
as ``ik`` does; ``complex`` (2-D only) treats each point as a complex number, so the elbow
is one complex product ``u (L1 cos a + i L1 sin a)`` and no transpose is needed.

The ratios print as ``before / x`` (how many times faster than ``before``): a kernel that
cannot reach 1.5x shows that a solver doing more work cannot either.
"""

from __future__ import annotations

import argparse
import functools
import statistics
import time
from collections.abc import Callable

import numpy as np

from benchmarks.bench_solver import load_ik, problems

CHUNK = 16384
EPS = float(np.finfo(np.float64).eps)


def _triangle(d: np.ndarray, upper: np.ndarray, lower: np.ndarray) -> tuple[np.ndarray, ...]:
    """Clamp into the annulus, then the elbow along and off the root-target line (the law of
    cosines and Heron, as ``ik.reach.triangle``)."""
    span, gap = upper + lower, upper - lower
    inner = np.maximum(np.abs(gap), EPS * span)
    a = np.minimum(np.maximum(d, inner), span)
    half_over_a = 0.5 / a
    along = (a * a + gap * span) * half_over_a
    height = (span + a) * (span - a)
    height *= a - gap
    height *= a + gap
    np.sqrt(height, out=height)
    height *= half_over_a
    return span, inner, a, along, height


def _results(n: int, dim: int) -> dict[str, np.ndarray]:
    fields = {"elbow": (n, dim), "hand": (n, dim), "distance": n, "reach": n, "shortfall": n}
    out = {name: np.empty(shape) for name, shape in fields.items()}
    return out | {"reached": np.empty(n, bool), "status": np.empty(n, np.int8)}


def _classify(out: dict, s: slice, d: np.ndarray, a: np.ndarray, span: np.ndarray, inner) -> None:
    out["distance"][s], out["reach"][s] = d, a
    np.abs(d - a, out=out["shortfall"][s])
    np.less_equal(out["shortfall"][s], np.sqrt(EPS) * span, out=out["reached"][s])
    np.maximum((d > span).view(np.int8), (d < inner) * np.int8(2), out=out["status"][s])


def _extents(*arrays: np.ndarray) -> None:
    for a in arrays:
        np.minimum.reduce(a, axis=None)
        np.maximum.reduce(a, axis=None)


def _cross(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    c = np.empty_like(a)
    np.subtract(a[1] * b[2], a[2] * b[1], out=c[0])
    np.subtract(a[2] * b[0], a[0] * b[2], out=c[1])
    np.subtract(a[0] * b[1], a[1] * b[0], out=c[2])
    return c


def floor_kernel(root, target, upper, lower, pole=None) -> dict[str, np.ndarray]:
    """Component-major positions: 2-D elbow ``along u + height u_perp``, 3-D ``along u +
    height b / |b|`` with ``b = (u x w) x u`` toward the pole."""
    _extents(root, target, upper, lower, *(() if pole is None else (pole,)))
    n, dim = root.shape
    out = _results(n, dim)
    for start in range(0, n, CHUNK):
        s = slice(start, start + CHUNK)
        r, t = np.ascontiguousarray(root[s].T), np.ascontiguousarray(target[s].T)
        offset = t - r
        d2 = offset[0] * offset[0]
        for k in range(1, dim):
            d2 += offset[k] * offset[k]
        d = np.sqrt(d2)
        u = offset * (1.0 / d)
        span, inner, a, along, height = _triangle(d, upper[s], lower[s])
        if dim == 2:
            side = np.stack([-u[1], u[0]])
        else:
            side = _cross(_cross(u, np.ascontiguousarray(pole[s].T) - r), u)
            height /= np.sqrt(side[0] * side[0] + side[1] * side[1] + side[2] * side[2])
        elbow = along * u
        elbow += height * side
        elbow += r
        out["elbow"][s], out["hand"][s] = elbow.T, (a * u + r).T
        _classify(out, s, d, a, span, inner)
    return out


def complex_kernel(root, target, upper, lower) -> dict[str, np.ndarray]:
    """2-D positions with each point a complex number (a view of the (N, 2) rows)."""
    _extents(root, target, upper, lower)
    n = len(root)
    out = _results(n, 2)
    elbows, hands = (out[k].view(np.complex128)[:, 0] for k in ("elbow", "hand"))
    roots, targets = (np.ascontiguousarray(p).view(np.complex128)[:, 0] for p in (root, target))
    for start in range(0, n, CHUNK):
        s = slice(start, start + CHUNK)
        r = roots[s]
        offset = targets[s] - r
        d = np.abs(offset)
        span, inner, a, along, height = _triangle(d, upper[s], lower[s])
        u = offset / d
        local = np.empty(len(a), np.complex128)
        local.real, local.imag = along, height
        np.multiply(local, u, out=elbows[s])
        elbows[s] += r
        np.multiply(u, a, out=hands[s])
        hands[s] += r
        _classify(out, s, d, a, span, inner)
    return out


def median_cpu(run: Callable[[], object], number: int, repeat: int) -> float:
    samples = []
    for _ in range(repeat):
        start = time.process_time()
        for _ in range(number):
            run()
        samples.append((time.process_time() - start) / number)
    return statistics.median(samples)


def main() -> None:
    import ik

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", required=True, help="a tree whose ik package to time too")
    parser.add_argument("--repeat", type=int, default=5)
    options = parser.parse_args()
    before = load_ik(options.before)
    rng = np.random.default_rng(1)
    print(f"{'case':18s} {'now':>8s} {'before':>8s} {'floor':>8s} {'complex':>8s}  ns a limb")
    for dim in (2, 3):
        for n in (10_000, 100_000, 1_000_000):
            p = problems(dim, n, np.float64, rng)
            limbs = (p["root"], p["target"], p["upper"], p["lower"])
            args = limbs if dim == 2 else (*limbs, p["pole"])
            solve = "solve_2d" if dim == 2 else "solve_3d"
            runs: dict[str, Callable[[], object]] = {
                "now": functools.partial(getattr(ik, solve), *args),
                "before": functools.partial(getattr(before, solve), *args),
                "floor": functools.partial(floor_kernel, *args),
            }
            if dim == 2:
                runs["complex"] = functools.partial(complex_kernel, *args)
            check = runs["now"]().elbow  # type: ignore[attr-defined]
            assert all(
                np.allclose(runs[k]()["elbow"], check) for k in runs if k not in ("now", "before")
            )  # type: ignore[index]
            number = max(2, 300_000 // n)
            times: dict[str, list[float]] = {name: [] for name in runs}
            for _ in range(3):  # interleaved rounds
                for name, run in runs.items():
                    times[name].append(median_cpu(run, number, options.repeat) / n * 1e9)
            med = {name: statistics.median(t) for name, t in times.items()}
            cells = [f"{med['now']:8.1f}", f"{med['before']:8.1f}", f"{med['floor']:8.1f}"]
            cells.append(f"{med['complex']:8.1f}" if "complex" in med else f"{'-':>8s}")
            ratios = "  ".join(
                f"{name} {med['before'] / med[name]:.2f}x" for name in med if name != "before"
            )
            print(f"{dim}-D N={n:<12,d} {' '.join(cells)}  before / x: {ratios}", flush=True)


if __name__ == "__main__":
    main()
