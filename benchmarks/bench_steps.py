"""Instructions a scene's simulation step executes, this tree beside older ones, counted by
callgrind: a figure a busy host does not move.

    python benchmarks/bench_steps.py [--before OLD_DIR ...] [--scene walk] [--characters N]
                                     [--warmup 60] [--steps 60]

Each tree's scene is created as ``--bench`` creates it (its autopilot, seed 0) and stepped
``--warmup`` times, then ``--steps`` more under callgrind's count (its counters are zeroed
as the measured steps begin, by a call of ``os.getppid``, and dumped as they end, by
``os.getpgrp``: the interpreter's start, the imports and the warm-up are left out). Only
the simulation is counted (``sim.step``, the solve included), no drawing. The table gives
the instructions a step (millions) and each tree's ratio to this one. On a shared host
where wall-clock and CPU time vary by tens of per cent from run to run, this tells a
change of a few per cent apart from the noise; it counts work, not time (a cache miss or
a wide vector instruction counts as one), so read it beside ``bench_frames.py``.

Needs ``valgrind`` on the PATH; it runs the step about fifty times slower than natively.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent

# the scene stepped in a tree: the markers bracket the measured steps (see the docstring)
_RUN = """
import os, sys
from game.profiling import PhaseTimer
from game.scene import SceneConfig
from game.scenes import load
scene, warmup, steps = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
characters = int(sys.argv[4]) or None
spec = load(scene)
config = SceneConfig(characters=characters)
sim = spec.create(config)
autopilot = spec.autopilot(sim, config)
timer = PhaseTimer()
for _ in range(warmup):
    sim.step(autopilot.next_input(sim), config.dt, timer)
os.getppid()
for _ in range(steps):
    sim.step(autopilot.next_input(sim), config.dt, timer)
os.getpgrp()
"""


def _count(tree: Path, args: argparse.Namespace, out: Path) -> int:
    """Instructions of the measured steps in ``tree``."""
    subprocess.run(
        ["valgrind", "--tool=callgrind", "--zero-before=getppid", "--dump-before=getpgrp"]
        + [f"--callgrind-out-file={out}", sys.executable, "-c", _RUN, args.scene]
        + [str(args.warmup), str(args.steps), str(args.characters or 0)],
        cwd=tree,
        env={**os.environ, "PYTHONPATH": str(tree)},
        check=True,
        capture_output=True,
    )
    # the dump taken at os.getpgrp (callgrind numbers the dumps .1, .2, ...)
    dump = out.with_name(out.name + ".1").read_text()
    match = re.search(r"^summary: (\d+)", dump, re.MULTILINE)
    if match is None:
        raise SystemExit(f"no instruction count in callgrind's dump for {tree}")
    return int(match.group(1))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, action="append", default=[], help="older tree")
    parser.add_argument("--scene", default="walk")
    parser.add_argument("--characters", type=int, help="crowd size (crowd scene)")
    parser.add_argument("--warmup", type=int, default=60)
    parser.add_argument("--steps", type=int, default=60)
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        print("bench_steps: valgrind is not on the PATH", file=sys.stderr)
        return 2
    trees = [(f"before {i + 1} ({p})", p.resolve()) for i, p in enumerate(args.before)]
    trees.append(("now", HERE))
    counts: dict[str, int] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for index, (label, tree) in enumerate(trees):
            print(f"counting {label}", file=sys.stderr)
            counts[label] = _count(tree, args, Path(tmp) / f"tree{index}.out")
    who = f"{args.scene}" + (f" ({args.characters})" if args.characters else "")
    print(f"{args.steps} steps of {who} after {args.warmup}, callgrind instructions")
    print("| tree | M instructions a step | / now |")
    print("|---|---:|---:|")
    for label, _ in trees:
        per_step = counts[label] / args.steps / 1e6
        print(f"| {label} | {per_step:.2f} | {counts[label] / counts['now']:.3f}× |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
