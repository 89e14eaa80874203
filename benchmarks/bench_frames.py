"""Frame times of scenes, this tree beside older ones, interleaved in one run.

    python benchmarks/bench_frames.py --before OLD_DIR [--before ...] [--scenes swivel,walk]

Each OLD_DIR is a checkout of an older commit (``git worktree add /tmp/old COMMIT``). Every
repeat runs ``python main.py --bench --scene S --frames N`` once in each tree, in turn, so
all trees share the machine's state; the table gives, per scene and tree, the median over
repeats of the run's frame p50 and p99 (ms) and each tree's ratio to this one, with the
spread (lowest–highest) of the p50 over the repeats and the median p50 of the simulation and
the drawing (``sim``, ``render``), which tell where a difference lies. The machine is shared
and noisy: read the ratios of one run, not absolute numbers across runs.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent


def _bench(tree: Path, scene: str, frames: int, stats: Path) -> dict[str, dict[str, float]]:
    subprocess.run(
        [sys.executable, "main.py", "--bench", "--scene", scene, "--frames", str(frames)]
        + ["--stats", str(stats)],
        cwd=tree,
        check=True,
        capture_output=True,
    )
    timing: dict[str, dict[str, float]] = json.loads(stats.read_text())["timing_ms"]
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
    print("| scene | tree | frame p50 (spread) | frame p99 | p99 / now | sim p50 | render p50 |")
    print("|---|---|---:|---:|---:|---:|---:|")
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
            print(
                f"| {scene} | {name} | {statistics.median(p50s):.2f} "
                f"({min(p50s):.2f}–{max(p50s):.2f}) | {p99:.2f} | {p99 / now_p99:.2f}× "
                f"| {sim:.2f} | {render:.2f} |"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
