"""Long runs keep memory flat: each scene headless with the autopilot for 2,000 and for
20,000 frames; the peak RSS of the long run must be within 5 MiB of the short one's.

Run from the repository root: ``python tools/long_run_memory.py [--short 2000] [--long
20000] [--scenes lab,walk,crowd,swivel] [--jobs 2]``. Prints a table; exits 1 if a scene
grows by more than the limit. (A measurement script, not a test: the long runs take
minutes.)
"""

from __future__ import annotations

import argparse
import sys
from concurrent.futures import ThreadPoolExecutor

from measured_run import RunResult, run_measured

LIMIT_MIB = 5.0
MIB = 1 << 20


def _run(scene: str, frames: int) -> RunResult:
    args = ["--headless", "--autopilot", "--scene", scene, "--frames", str(frames)]
    return run_measured([*args, "--trace", "/dev/null"], timeout=3600)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--short", type=int, default=2_000)
    parser.add_argument("--long", type=int, default=20_000)
    parser.add_argument("--scenes", default="lab,walk,crowd,swivel")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    scenes = args.scenes.split(",")
    jobs = [(scene, frames) for scene in scenes for frames in (args.short, args.long)]
    with ThreadPoolExecutor(args.jobs) as pool:
        results = dict(zip(jobs, pool.map(lambda job: _run(*job), jobs), strict=True))
    print(
        f"{'scene':<8}{f'{args.short} fr MiB':>14}{f'{args.long} fr MiB':>15}"
        f"{'growth MiB':>12}{'long run s':>12}  verdict"
    )
    failed = False
    for scene in scenes:
        short, long = results[(scene, args.short)], results[(scene, args.long)]
        growth = (long.max_rss_bytes - short.max_rss_bytes) / MIB
        ok = short.code == 0 and long.code == 0 and growth <= LIMIT_MIB
        failed |= not ok
        verdict = "flat" if ok else f"FAIL (exit {short.code}/{long.code})"
        print(
            f"{scene:<8}{short.max_rss_bytes / MIB:>14.1f}{long.max_rss_bytes / MIB:>15.1f}"
            f"{growth:>12.2f}{long.seconds:>12.1f}  {verdict}"
        )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
