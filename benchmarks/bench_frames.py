"""Frame times of scenes, this tree beside older ones, interleaved in one run.

    python benchmarks/bench_frames.py --before OLD_DIR [--before ...] [--scenes swivel,walk]

Each OLD_DIR is a checkout of an older commit (``git worktree add /tmp/old COMMIT``). Every
repeat runs ``python main.py --bench --scene S --frames N`` once in each tree, in turn, so
all trees share the machine's state; the table gives, per scene and tree, the median over
repeats of the run's frame p50 and p99 (ms) and each tree's ratio to this one, with the
spread (lowest–highest) of the p50 over the repeats and the median p50 of the simulation and
the drawing (``sim``, ``render``), which tell where a difference lies; and the process's CPU
time per frame over the run (``cpu``, a mean; the median over repeats and its spread), which
waiting for a core on a busy host does not inflate. The machine is shared
and noisy: read the ratios of one run, not absolute numbers across runs.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent


# one run in a tree, through its own CLI, after a short run that imports and warms up
# what the run needs, timing the process's CPU over the run: the CPU a frame costs, which a
# busy host's waits for a core do not inflate
_RUN = """
import json, sys, time
from dataclasses import replace
from game.bench import run_bench
from game.cli import parse
options = parse(sys.argv[2:])
run_bench(replace(options, frames=10, stats=None))
start = time.process_time()
code = run_bench(options)
cpu = time.process_time() - start
open(sys.argv[1], "w").write(json.dumps({"cpu_ms": 1000.0 * cpu / options.frames}))
sys.exit(code)
"""


def _bench(tree: Path, scene: str, frames: int, stats: Path) -> dict[str, dict[str, float]]:
    cpu = stats.with_suffix(".cpu.json")
    subprocess.run(
        [sys.executable, "-c", _RUN, str(cpu), "--bench", "--scene", scene]
        + ["--frames", str(frames), "--stats", str(stats)],
        cwd=tree,
        env={**os.environ, "PYTHONPATH": str(tree)},
        check=True,
        capture_output=True,
    )
    timing: dict[str, dict[str, float]] = json.loads(stats.read_text())["timing_ms"]
    timing["cpu"] = {"mean": json.loads(cpu.read_text())["cpu_ms"]}
    return timing


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, action="append", default=[], help="older tree")
    parser.add_argument("--scenes", default="swivel,walk")
    parser.add_argument("--frames", type=int, default=600)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    trees = [*args.before, HERE]
    names = [f"before {i + 1} ({tree})" for i, tree in enumerate(args.before)] + ["now"]
    results: dict[tuple[str, int], list[dict[str, dict[str, float]]]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for repeat in range(args.repeats):
            for scene in args.scenes.split(","):
                for index, tree in enumerate(trees):
                    stats = Path(tmp) / f"{scene}-{index}-{repeat}.json"
                    results.setdefault((scene, index), []).append(
                        _bench(tree, scene, args.frames, stats)
                    )
                    print(
                        f"repeat {repeat + 1}/{args.repeats}: {scene} {names[index]}",
                        file=sys.stderr,
                    )
    print(f"{args.frames} frames per run, median of {args.repeats} interleaved runs (ms)")
    print(
        "| scene | tree | frame p50 (spread) | frame p99 | p99 / now | sim p50 | render p50 "
        "| cpu / frame (spread) |"
    )
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for scene in args.scenes.split(","):
        now = results[(scene, len(trees) - 1)]
        now_p99 = statistics.median(r["frame"]["p99"] for r in now)
        for index, name in enumerate(names):
            runs = results[(scene, index)]
            p50s = [r["frame"]["p50"] for r in runs]
            p99 = statistics.median(r["frame"]["p99"] for r in runs)
            sim, render = (
                statistics.median(r[phase]["p50"] for r in runs) for phase in ("sim", "render")
            )
            cpus = [r["cpu"]["mean"] for r in runs]
            print(
                f"| {scene} | {name} | {statistics.median(p50s):.2f} "
                f"({min(p50s):.2f}–{max(p50s):.2f}) | {p99:.2f} | {p99 / now_p99:.2f}× "
                f"| {sim:.2f} | {render:.2f} "
                f"| {statistics.median(cpus):.2f} ({min(cpus):.2f}–{max(cpus):.2f}) |"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
