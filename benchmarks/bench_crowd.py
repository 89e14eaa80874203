"""The crowd's frame and simulation cost by crowd size, on the shipped course and on a
generated rough ground of many vertices, this tree beside an older one, interleaved.

    python benchmarks/bench_crowd.py [--before OLD_DIR] [--sizes 500,1000,2000,4000]
                                     [--vertices 1000] [--frames 200] [--repeats 3]

OLD_DIR is a checkout of an older commit (``git worktree add /tmp/old COMMIT``). Every repeat
runs the crowd headless (``--bench``: uncapped, autopilot) once per ground, size and tree,
in turn, so all trees share the machine's state. The table gives, per ground, size and
tree, the median over repeats of the run's frame and sim p50 / p99 (ms) with the spread
(lowest–highest) of the frame p50, the sim p50 per character (µs), the frame p50 against
this tree's in the same run, and the CPU time per frame of the process and its crowd's
worker (a mean over the run, ms), which waiting for a core on a busy host does not
inflate. A second table gives the crowd's targets from the same medians: the rough
ground's frame p50 over the course's, and the sim's cost per character at the largest
size over that at the smallest. The machine may be
shared and noisy: read the ratios of one run, not absolute numbers across runs.

The rough ground spans the shipped course's x range with ``--vertices`` evenly spaced
points: rolling hills, centimetre roughness at every vertex and a flight of stairs up and
down (risers one segment wide), no wall a walker can't step (it is written, with the
shipped rig, to a temporary assets folder). Each run is started through the tree's own
``game.cli.parse`` with the crowd size set afterwards, so an older tree's CLI cap on
``--characters`` does not limit the sizes.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent.parent

HILL_M = (0.4, 9.0)  # amplitude and wavelength of the long rolling hills (m)
SWELL_M = (0.15, 3.7)  # and of a shorter swell on them (m)
ROUGH_M = 0.015  # each vertex up or down at most this much (m): slopes well under a riser's
STAIR_RISE_M = 0.15  # the flight's risers (m): a stair, well under a wall
STAIR_TREAD_M = 0.3
STAIRS = 4  # risers up, then as many down after a landing
STAIRS_FROM_M = 12.0  # where the flight starts (m)

# one crowd run in a tree: its own CLI parses the options, then the crowd size is set. A
# tiny run first imports what the runs need; then a run of SHORT frames and the measured
# one, each timed by the CPU of the process and of the worker processes it has ended
# (os.times: children ended and waited for, as the app's crowd ends its worker when a run
# closes): their difference over the extra frames is the CPU a frame costs, building the
# crowd (in both) cancelled out, and a busy host's waits for a core (which inflate the
# wall-clock figures) left out
_RUN = """
import json, os, sys
from dataclasses import replace
from game.bench import run_bench
from game.cli import parse
SHORT = {short}
def cpu():
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system
options = replace(parse(sys.argv[3:]), characters=int(sys.argv[1]))
run_bench(replace(options, characters=1, frames=2, stats=None))
start = cpu()
run_bench(replace(options, frames=SHORT, stats=None))
short = cpu() - start
start = cpu()
code = run_bench(options)
full = cpu() - start
cpu_ms = 1000.0 * (full - short) / (options.frames - SHORT)
open(sys.argv[2], "w").write(json.dumps({{"cpu_ms": cpu_ms}}))
sys.exit(code)
"""
SHORT_FRAMES = 10  # the run whose CPU is taken off the measured one's


def rough_ground(x_from: float, x_to: float, vertices: int, seed: int = 0) -> list[list[float]]:
    """The rough ground's polyline ``[[x, y], ...]``, deterministic for a ``seed``."""
    x = np.linspace(x_from, x_to, vertices)
    rng = np.random.default_rng(seed)
    (hill, hill_len), (swell, swell_len) = HILL_M, SWELL_M
    y = hill * np.sin(2.0 * np.pi * x / hill_len) + swell * np.sin(2.0 * np.pi * x / swell_len)
    y += rng.uniform(-ROUGH_M, ROUGH_M, vertices)
    # a flight: STAIRS risers up, a landing of two treads, STAIRS risers down
    ups = STAIRS_FROM_M + STAIR_TREAD_M * np.arange(STAIRS)
    downs = ups[-1] + 3.0 * STAIR_TREAD_M + STAIR_TREAD_M * np.arange(STAIRS)
    y += STAIR_RISE_M * ((x[:, None] >= ups).sum(axis=1) - (x[:, None] >= downs).sum(axis=1))
    return [[round(float(a), 6), round(float(b), 6)] for a, b in zip(x, y, strict=True)]


def _rough_assets(folder: Path, vertices: int) -> Path:
    """A copy of this tree's assets with the rough ground as ``terrain.json``."""
    assets = folder / f"rough-{vertices}"
    shutil.copytree(HERE / "assets", assets)
    course = json.loads((HERE / "assets" / "terrain.json").read_text())["points"]
    points = rough_ground(course[0][0], course[-1][0], vertices)
    (assets / "terrain.json").write_text(json.dumps({"name": "rough", "points": points}))
    return assets


def _crowd(tree: Path, size: int, frames: int, assets: Path, stats: Path) -> dict[str, float]:
    """One run's frame and sim p50 / p99 (ms)."""
    options = ["--bench", "--scene", "crowd", "--frames", str(frames), "--seed", "1"]
    options += ["--assets", str(assets), "--stats", str(stats)]
    env = {**os.environ, "PYTHONPATH": str(tree)}
    cpu = stats.with_suffix(".cpu.json")
    subprocess.run(
        [sys.executable, "-c", _RUN.format(short=SHORT_FRAMES), str(size), str(cpu), *options],
        cwd=tree,
        env=env,
        check=True,
        capture_output=True,
    )
    timing = json.loads(stats.read_text())["timing_ms"]
    run = {f"{phase} {q}": timing[phase][q] for phase in ("frame", "sim") for q in ("p50", "p99")}
    return {**run, "cpu": json.loads(cpu.read_text())["cpu_ms"]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, help="an older tree to run beside this one")
    parser.add_argument("--sizes", default="500,1000,2000,4000")
    parser.add_argument("--vertices", type=int, default=1000, help="the rough ground's")
    parser.add_argument("--frames", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--json", type=Path, help="also write every run's figures here")
    args = parser.parse_args()
    if args.frames <= SHORT_FRAMES:
        parser.error(
            f"--frames must be more than {SHORT_FRAMES}: the CPU a frame costs is "
            f"taken over the frames past the first {SHORT_FRAMES}"
        )
    sizes = [int(s) for s in args.sizes.split(",")]
    trees = ([args.before] if args.before else []) + [HERE]
    names = (["before"] if args.before else []) + ["now"]
    results: dict[tuple[str, int, str], list[dict[str, float]]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        grounds = {
            "course": HERE / "assets",
            f"rough {args.vertices}": _rough_assets(Path(tmp), args.vertices),
        }
        for repeat in range(args.repeats):
            for ground, assets in grounds.items():
                for size in sizes:
                    for name, tree in zip(names, trees, strict=True):
                        stats = Path(tmp) / "stats.json"
                        run = _crowd(tree, size, args.frames, assets, stats)
                        results.setdefault((ground, size, name), []).append(run)
                        print(
                            f"repeat {repeat + 1}/{args.repeats}: {ground} {size} {name}: "
                            f"frame p50 {run['frame p50']:.1f} ms",
                            file=sys.stderr,
                        )
    print(f"crowd, {args.frames} frames a run, medians of {args.repeats} interleaved runs (ms)")
    print(
        "| ground | characters | tree | frame p50 (spread) | frame p99 | sim p50 | sim p99 "
        "| sim µs/char | frame / now | cpu / frame |"
    )
    print("|---|---:|---|---:|---:|---:|---:|---:|---:|---:|")
    for ground in grounds:
        for size in sizes:
            now = statistics.median(r["frame p50"] for r in results[(ground, size, "now")])
            for name in names:
                runs = results[(ground, size, name)]
                med = {key: statistics.median(r[key] for r in runs) for key in runs[0]}
                per_char = 1000.0 * med["sim p50"] / size
                p50s = [r["frame p50"] for r in runs]
                print(
                    f"| {ground} | {size} | {name} | {med['frame p50']:.1f} "
                    f"({min(p50s):.1f}–{max(p50s):.1f}) "
                    f"| {med['frame p99']:.1f} | {med['sim p50']:.1f} | {med['sim p99']:.1f} "
                    f"| {per_char:.2f} | {med['frame p50'] / now:.2f}× | {med['cpu']:.1f} |"
                )
    _print_targets(results, sizes, names, f"rough {args.vertices}")
    if args.json:
        rows = [
            {"ground": g, "characters": n, "tree": t, "runs": runs}
            for (g, n, t), runs in results.items()
        ]
        args.json.write_text(json.dumps(rows, indent=1))
    return 0


def _print_targets(
    results: dict[tuple[str, int, str], list[dict[str, float]]],
    sizes: list[int],
    names: list[str],
    rough: str,
) -> None:
    """The crowd's targets from the same medians: the rough ground's frame p50 over the
    course's at each size, and the sim's cost per character at the largest size over that
    at the smallest (on the course; 1.0 is linear)."""

    def median(ground: str, size: int, name: str, key: str) -> float:
        return statistics.median(r[key] for r in results[(ground, size, name)])

    print()
    heads = " | ".join(f"rough / course at {size}" for size in sizes)
    print(f"| tree | {heads} | sim per character at {sizes[-1]} / at {sizes[0]} |")
    print("|---|" + "---:|" * (len(sizes) + 1))
    for name in names:
        ratios = [
            median(rough, size, name, "frame p50") / median("course", size, name, "frame p50")
            for size in sizes
        ]
        per_char = [median("course", size, name, "sim p50") / size for size in sizes]
        cells = " | ".join(f"{ratio:.2f}×" for ratio in ratios)
        print(f"| {name} | {cells} | {per_char[-1] / per_char[0]:.2f}× |")


if __name__ == "__main__":
    raise SystemExit(main())
