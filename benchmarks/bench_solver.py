"""Benchmark the analytic two-bone solver against a memory floor, and FABRIK beside it.

Run from the repository root: ``PYTHONPATH=. python benchmarks/bench_solver.py [--repeat 5]
[--json out.json] [--before DIR]`` (or without ``PYTHONPATH`` after ``pip install -e .``);
``--before`` times an older ``ik`` package beside this one in the same run.

For 2-D and 3-D, float64 and float32, at N = 1 .. 10^6 limbs it prints the median time per
limb of one public ``solve_2d`` / ``solve_3d`` call, once reading only the positions and once
also reading the angles (``elbow_angle``, and ``upper_angle`` / ``lower_angle`` in 2-D: they are
computed on first access), and in the same run a memory floor: one
``np.add`` (into a preallocated output) over as many bytes as the solve must read and write,
11 values per 2-D limb and 17 per 3-D limb, with the ratio of the two. Then FABRIK on the same
two-bone problems (time per solve, iterations, residual) beside the analytic solve, and one
game-like call (one character's four limbs with pole, bend and softness arrays).
Timings are medians of ``--repeat`` runs; nothing here is asserted.
"""

from __future__ import annotations

import argparse
import functools
import importlib
import json
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any

import numpy as np

import ik

SIZES = (1, 4, 64, 1_000, 10_000, 100_000, 1_000_000)
CLOCK = time.perf_counter
"""The clock every measurement reads: wall time, or with ``--cpu-time`` this process's CPU time
(on a machine shared with other busy processes, the time this process was descheduled drops
out; cache and memory-bandwidth contention does not)."""
VALUES_PER_LIMB = {2: 11, 3: 17}
"""Values a solve must at least read and write per limb (the floor's byte count)."""


def median_seconds(run: Callable[[], object], repeat: int, min_time: float = 0.1) -> float:
    """Median over ``repeat`` measurements of one call, each averaged over enough calls to
    last about ``min_time`` seconds."""
    return medians_seconds([run], repeat, min_time)[0]


def medians_seconds(
    runs: Sequence[Callable[[], object]], repeat: int, min_time: float = 0.1
) -> list[float]:
    """``median_seconds`` of each run, their measurements interleaved (run 1, run 2, run 1, ...)
    so that a shared machine's drift hits every run alike."""
    numbers = []
    for run in runs:
        start = CLOCK()
        run()
        once = max(CLOCK() - start, 1e-7)
        numbers.append(max(1, int(min_time / once)))
    samples: list[list[float]] = [[] for _ in runs]
    for _ in range(repeat):
        for run, number, out in zip(runs, numbers, samples, strict=True):
            start = CLOCK()
            for _ in range(number):
                run()
            out.append((CLOCK() - start) / number)
    return [statistics.median(out) for out in samples]


def load_ik(path: str) -> ModuleType:
    """The ``ik`` package found under ``path`` (e.g. an older commit's ``git archive``), imported
    beside the current one so before and after are measured in the same run."""
    ours = {name: sys.modules.pop(name) for name in list(sys.modules) if name.split(".")[0] == "ik"}
    sys.path.insert(0, path)
    try:
        return importlib.import_module("ik")
    finally:
        sys.path.remove(path)
        for name in [name for name in sys.modules if name.split(".")[0] == "ik"]:
            del sys.modules[name]  # its modules keep their own references to each other
        sys.modules.update(ours)


def problems(dim: int, n: int, dtype: type, rng: np.random.Generator) -> dict[str, Any]:
    """``n`` random limbs (L1 = 2, L2 = 1.2 scaled per limb), targets inside and outside reach."""
    upper = rng.uniform(0.5, 2.0, n)
    lower = upper * 0.6
    root = rng.normal(size=(n, dim))
    direction = rng.normal(size=(n, dim))
    direction /= np.linalg.norm(direction, axis=-1, keepdims=True)
    target = root + direction * ((upper + lower) * rng.uniform(0.1, 1.3, n))[:, None]
    pole = root + rng.normal(size=(n, dim))
    cast = {"root": root, "target": target, "upper": upper, "lower": lower, "pole": pole}
    return {k: v.astype(dtype) for k, v in cast.items()}


ANGLES = {2: ("elbow_angle", "upper_angle", "lower_angle"), 3: ("elbow_angle",)}


def solver(
    module: ModuleType, dim: int, p: dict[str, Any], n: int, angles: bool = False
) -> Callable[[], object]:
    """The public call of ``module`` (an ``ik``) for a batch; for n = 1 one limb as ``(D,)``
    arrays and scalars. With ``angles``, the call also reads the solution's angles."""
    if n == 1:
        p = {k: v[0] for k, v in p.items()}
        p["upper"], p["lower"] = p["upper"].item(), p["lower"].item()
    if dim == 2:
        solve = functools.partial(module.solve_2d, p["root"], p["target"], p["upper"], p["lower"])
    else:
        solve = functools.partial(
            module.solve_3d, p["root"], p["target"], p["upper"], p["lower"], p["pole"]
        )
    if not angles:
        return solve
    names = ANGLES[dim]
    return lambda: [getattr(sol, name) for sol in (solve(),) for name in names]


def game_like(repeat: int, rng: np.random.Generator, before: ModuleType | None) -> dict[str, Any]:
    """One character's four limbs as the game solves them: ``(4, 2)`` roots, targets and poles,
    ``(4,)`` bends, and softness on the legs only (two zeros, two 0.05), float64."""
    root = rng.normal(size=(4, 2))
    target = root + rng.normal(size=(4, 2))
    pole = root + rng.normal(size=(4, 2))
    upper, lower = np.array([0.6, 0.6, 0.9, 0.9]), np.array([0.55, 0.55, 0.85, 0.85])
    bend = np.array([-1.0, -1.0, 1.0, 1.0])
    softness = np.array([0.0, 0.0, 0.05, 0.05])
    runs = [
        functools.partial(
            module.solve_2d, root, target, upper, lower, bend=bend, pole=pole, softness=softness
        )
        for module in ([ik] if before is None else [ik, before])
    ]
    seconds = medians_seconds(runs, repeat)
    row = {
        "case": "2-D float64 N=4, pole + bend + softness arrays",
        "us_per_call": seconds[0] * 1e6,
    }
    if before is not None:
        row["before_us_per_call"] = seconds[1] * 1e6
    print(
        f"game-like: {row['case']}  {row['us_per_call']:9.1f} us/call"
        + (f"  (before {row['before_us_per_call']:9.1f} us/call)" if before is not None else ""),
        flush=True,
    )
    return row


def floor_seconds(dim: int, n: int, dtype: type, repeat: int) -> float:
    """One ``np.add`` over ``VALUES_PER_LIMB[dim] * n`` values in total (two inputs, one output)."""
    size = max(1, VALUES_PER_LIMB[dim] * n // 3)
    a, b, out = np.ones(size, dtype), np.ones(size, dtype), np.empty(size, dtype)
    return median_seconds(lambda: np.add(a, b, out=out), repeat)


def solver_table(
    repeat: int,
    rng: np.random.Generator,
    before: ModuleType | None,
    sizes: Sequence[int] = SIZES,
    dtypes: Sequence[type] = (np.float64, np.float32),
    dims: Sequence[int] = (2, 3),
) -> list[dict[str, Any]]:
    rows = []
    for dim in dims:
        for dtype in dtypes:
            for n in sizes:
                p = problems(dim, n, dtype, rng)
                modules = [ik] if before is None else [ik, before]
                runs = [solver(m, dim, p, n, angles) for angles in (False, True) for m in modules]
                solves = medians_seconds(runs, repeat)
                floor = floor_seconds(dim, n, dtype, repeat)
                row = {
                    "dim": dim,
                    "dtype": np.dtype(dtype).name,
                    "n": n,
                    "ns_per_limb": solves[0] / n * 1e9,
                    "angles_ns_per_limb": solves[len(modules)] / n * 1e9,
                    "floor_ns_per_limb": floor / n * 1e9,
                    "ratio": solves[0] / floor,
                }
                earlier = ""
                if before is not None:
                    row["before_ns_per_limb"] = solves[1] / n * 1e9
                    row["before_angles_ns_per_limb"] = solves[3] / n * 1e9
                    earlier = (
                        f"  before {row['before_ns_per_limb']:10.1f}"
                        f" ({row['before_ns_per_limb'] / row['ns_per_limb']:4.2f}x faster)"
                        f" | angles {row['angles_ns_per_limb']:10.1f}"
                        f" before {row['before_angles_ns_per_limb']:10.1f}"
                        f" ({row['angles_ns_per_limb'] / row['before_angles_ns_per_limb']:4.2f}x)"
                    )
                rows.append(row)
                print(
                    f"{dim}-D {row['dtype']:7s} N={n:>9,d} {row['ns_per_limb']:10.1f} ns/limb"
                    f"{earlier}  floor {row['floor_ns_per_limb']:7.2f}  ratio {row['ratio']:7.1f}x",
                    flush=True,
                )
    return rows


def fabrik_table(rng: np.random.Generator, count: int = 200) -> list[dict[str, Any]]:
    """FABRIK and the analytic solve on the same reachable two-bone problems (float64)."""
    rows = []
    for dim in (2, 3):
        p = problems(dim, count, np.float64, rng)
        span = p["upper"] + p["lower"]
        reach = np.linalg.norm(p["target"] - p["root"], axis=-1)
        keep = (reach < 0.95 * span) & (reach > 1.2 * (p["upper"] - p["lower"]))
        stats = [
            one_problem(dim, {k: v[i] for k, v in p.items()}) for i in np.flatnonzero(keep)[:50]
        ]
        columns = {key: [s[key] for s in stats] for key in stats[0]}
        rows.append(
            {
                "dim": dim,
                "problems": len(stats),
                "fabrik_us": statistics.median(columns["fabrik_s"]) * 1e6,
                "fabrik_iterations_median": statistics.median(columns["iterations"]),
                "fabrik_iterations_max": max(columns["iterations"]),
                "fabrik_residual_max_rel": max(columns["residual"]),
                "analytic_us": statistics.median(columns["analytic_s"]) * 1e6,
                "analytic_shortfall_max_rel": max(columns["shortfall"]),
            }
        )
        r = rows[-1]
        print(
            f"{dim}-D  FABRIK {r['fabrik_us']:8.1f} us/solve, iterations median "
            f"{r['fabrik_iterations_median']:.0f} max {r['fabrik_iterations_max']}, residual max "
            f"{r['fabrik_residual_max_rel']:.1e} L | analytic {r['analytic_us']:6.1f} us/solve, "
            f"shortfall max {r['analytic_shortfall_max_rel']:.1e} L  ({r['problems']} problems)",
            flush=True,
        )
    return rows


def one_problem(dim: int, p: dict[str, Any]) -> dict[str, float]:
    """Time FABRIK (from a bent start pose, elbow toward the pole side) and the analytic solve
    on one limb; residuals relative to L1 + L2."""
    root, target, pole = p["root"], p["target"], p["pole"]
    upper, lower = float(p["upper"]), float(p["lower"])
    span = upper + lower
    offset = target - root
    side = (
        np.array([-offset[1], offset[0]])
        if dim == 2
        else np.cross(np.cross(offset, pole - root), offset)
    )
    elbow = root + upper * side / np.linalg.norm(side)
    hand = elbow + lower * (target - elbow) / np.linalg.norm(target - elbow)
    start = np.stack([root, elbow, hand])
    iterative = functools.partial(
        ik.fabrik, start, target, tolerance=1e-9 * span, max_iterations=1000
    )
    if dim == 2:
        analytic = functools.partial(ik.solve_2d, root, target, upper, lower)
    else:
        analytic = functools.partial(ik.solve_3d, root, target, upper, lower, pole)
    result = iterative()
    return {
        "fabrik_s": median_seconds(iterative, 3, 0.002),
        "iterations": result.iterations,
        "residual": result.residual / span,
        "analytic_s": median_seconds(analytic, 3, 0.002),
        "shortfall": float(analytic().shortfall) / span,
    }


def machine() -> dict[str, Any]:
    model = "unknown"
    try:
        with open("/proc/cpuinfo") as info:
            model = next(
                line.split(":", 1)[1].strip() for line in info if line.startswith("model name")
            )
    except (OSError, StopIteration):
        pass
    return {
        "nproc": os.cpu_count(),
        "cpu": model,
        "python": platform.python_version(),
        "numpy": np.__version__,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7, help="measurements per median")
    parser.add_argument(
        "--sizes", default=",".join(map(str, SIZES)), help="comma-separated batch sizes"
    )
    parser.add_argument("--quick", action="store_true", help="float64 only, no FABRIK table")
    parser.add_argument("--dims", default="2,3", help="comma-separated dimensions (2, 3)")
    parser.add_argument("--json", help="also write the results to this JSON file")
    parser.add_argument(
        "--before",
        help="a directory holding an older ik package (e.g. `git archive <commit> ik | tar -x -C "
        "DIR`) to time beside this one, interleaved, in the same run",
    )
    parser.add_argument(
        "--cpu-time", action="store_true", help="time with this process's CPU time, not wall time"
    )
    args = parser.parse_args()
    global CLOCK
    CLOCK = time.process_time if args.cpu_time else time.perf_counter
    before = None if args.before is None else load_ik(args.before)
    info = machine()
    load = os.getloadavg()[0]
    print(
        f"machine: nproc={info['nproc']} cpu={info['cpu']} python={info['python']} numpy={info['numpy']}"
        f" load={load:.2f} clock={'cpu' if args.cpu_time else 'wall'}"
    )
    rng = np.random.default_rng(20240601)
    sizes = tuple(int(size) for size in args.sizes.split(","))
    dtypes = (np.float64,) if args.quick else (np.float64, np.float32)
    dims = tuple(int(dim) for dim in args.dims.split(","))
    rows = solver_table(args.repeat, rng, before, sizes, dtypes, dims)
    game = game_like(args.repeat, rng, before)
    fabrik_rows = [] if args.quick else fabrik_table(rng)
    info["load_average_start_end"] = [load, os.getloadavg()[0]]
    print(f"load average: {load:.2f} at the start, {os.getloadavg()[0]:.2f} at the end")
    if args.json:
        with open(args.json, "w") as out:
            report = {"machine": info, "solver": rows, "game_like": game, "fabrik": fabrik_rows}
            json.dump(report, out, indent=2)


if __name__ == "__main__":
    main()
