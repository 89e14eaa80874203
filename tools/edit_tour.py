"""Run the scripted terrain-editing session through the real app and report the feet.

Plays :class:`game.scenes.edit_tour.EditTour` on a walk simulation to make a recording
(every edit is step input), then replays it with ``main.py --headless --replay``, which
writes the trace (its step lines carry ``terrain`` where an edit changed the ground) and
the stats file. Prints the stats' ``feet`` section as a table.

    python tools/edit_tour.py [--out DIR]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from game.profiling import PhaseTimer  # noqa: E402
from game.recording import Recorder  # noqa: E402
from game.scene import SceneConfig  # noqa: E402
from game.scenes.edit_tour import EditTour  # noqa: E402
from game.scenes.walk import WalkSim  # noqa: E402

MAX_STEPS = 6000


def record_tour(path: Path) -> int:
    """Play the tour on a fresh walk simulation into a recording; returns its step count."""
    config = SceneConfig()
    sim = WalkSim(config)
    pilot = EditTour(sim, config)
    recorder = Recorder(path)
    recorder.scene("walk", config.seed, round(1.0 / config.dt))
    timer = PhaseTimer()
    steps = 0
    try:
        while not pilot.done and steps < MAX_STEPS:
            inp = pilot.next_input(sim)
            recorder.step(inp)
            sim.step(inp, config.dt, timer)
            steps += 1
    finally:
        recorder.close()
    return steps


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "edit_tour")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    recording, trace, stats = (args.out / n for n in ("tour.rec", "trace.jsonl", "stats.json"))
    steps = record_tour(recording)
    command = [sys.executable, str(ROOT / "main.py"), "--headless", "--replay", str(recording)]
    command += ["--trace", str(trace), "--stats", str(stats)]
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    if result.returncode != 0:
        print(result.stdout + result.stderr, file=sys.stderr)
        return result.returncode
    edits = sum('"terrain":' in line for line in trace.read_text().splitlines()[1:])
    print(f"{steps} steps replayed, the ground changed on {edits} of them; trace: {trace}")
    feet = json.loads(stats.read_text())["feet"]
    width = max(len(key) for key in feet)
    for key, value in feet.items():
        print(f"{key:<{width}}  {value}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
