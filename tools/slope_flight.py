"""Flight on slopes, measured from a trace: a walker runs up and one runs down a long ramp
of each angle, every step written to a trace (the walk scene's format); the share of the
steps on the ramp with both feet off the ground is read back from the trace: neither leg
``planted``, and (what a player sees) every sole point of both feet ``CLEAR`` above the
ground under it.

    python tools/slope_flight.py                     # 0°, 5°, 10°, 15°
    python tools/slope_flight.py --angles 0,10 --keep traces/
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from game.scene import ASSETS_DIR  # noqa: E402
from game.scenes.walk import character_records  # noqa: E402
from game.trace import TraceWriter  # noqa: E402
from game.world.character import Crowd  # noqa: E402
from game.world.rig import Rig, load_rig  # noqa: E402
from game.world.terrain import Terrain  # noqa: E402

DT = 1.0 / 60.0
RAMP = 20.0  # m: the ramp's length along x
RUN_UP = 8.0  # m of flat ground either side of it
MEASURED = (4.0, 16.0)  # the stretch of the ramp (x) measured: run-up and run-out left out
LEGS = ("left_leg", "right_leg")
SOLE = ("heel", "ball", "toe")
FRAMES = 720  # 12 s: each walker crosses the whole ramp
CLEAR = 0.02  # m: a sole this far above the ground is seen off it (4 px in the walk view)


def ramp(angle_deg: float) -> Terrain:
    """Flat ground, a ramp of ``angle_deg`` rising from x = 0 to x = ``RAMP``, flat ground."""
    top = RAMP * np.tan(np.radians(angle_deg))
    points = [[-RUN_UP - 4.0, 0.0], [0.0, 0.0], [RAMP, top], [RAMP + RUN_UP + 4.0, top]]
    return Terrain(np.array(points))


def record(rig: Rig, angle_deg: float, path: Path) -> None:
    """Two walkers run the ramp of ``angle_deg``, one up from its foot, one down from its
    top, for ``FRAMES`` steps; the trace goes to ``path``."""
    terrain = ramp(angle_deg)
    crowd = Crowd(rig, terrain, np.array([-RUN_UP, RAMP + RUN_UP]), np.array([1.0, -1.0]))
    trace = TraceWriter(path)
    trace.header({"scene": "walk", "dt": DT, "terrain": terrain.points.tolist(), "limbs": {}})
    for step in range(1, FRAMES + 1):
        crowd.step(crowd.facing * 1.0, np.ones(2), DT)
        crowd.solve()
        trace.step(step, step * DT, character_records(crowd))
    trace.close()


def flight(path: Path) -> tuple[list[float], list[float]]:
    """Per walker in the trace at ``path``: the share of its steps on the measured stretch
    with neither leg ``planted``, and with both feet's soles ``CLEAR`` of the ground."""
    lines = path.read_text(encoding="utf-8").splitlines()
    terrain = Terrain(np.array(json.loads(lines[0])["terrain"]))
    pelvis, planted, soles = [], [], []
    for line in lines[1:]:
        characters = json.loads(line)["characters"]
        legs = [[c["limbs"][name] for name in LEGS] for c in characters]
        pelvis.append([c["pelvis"][0] for c in characters])
        planted.append([[leg["planted"] for leg in pair] for pair in legs])
        soles.append([[[leg["foot"][k] for k in SOLE] for leg in pair] for pair in legs])
    x, down, sole = np.array(pelvis), np.array(planted), np.array(soles)  # sole (T, N, 2, 3, 2)
    gap = (sole[..., 1] - terrain.height_at(sole[..., 0])).min(axis=-1)  # (T, N, 2)
    airborne, clear = ~down.any(axis=-1), (gap >= CLEAR).all(axis=-1)
    on = (x >= MEASURED[0]) & (x <= MEASURED[1])
    walkers = range(x.shape[1])
    return (
        [float(airborne[on[:, k], k].mean()) for k in walkers],
        [float(clear[on[:, k], k].mean()) for k in walkers],
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--angles", default="0,5,10,15", help="ramp angles in degrees")
    parser.add_argument("--keep", type=Path, help="a folder to keep the traces in")
    args = parser.parse_args()
    rig = load_rig(ASSETS_DIR / "rig.json")
    angles = [float(a) for a in args.angles.split(",")]
    with tempfile.TemporaryDirectory() as scratch:
        folder = args.keep or Path(scratch)
        folder.mkdir(parents=True, exist_ok=True)
        print(f"{'slope':>6} {'':>4} {'unplanted':>10} {'clear':>6}")
        for angle in angles:
            path = folder / f"ramp_{angle:g}.jsonl"
            record(rig, angle, path)
            airborne, clear = flight(path)
            for k, way in enumerate(("up", "down")):
                print(f"{angle:5g}° {way:>4} {100 * airborne[k]:9.1f}% {100 * clear[k]:5.1f}%")


if __name__ == "__main__":
    main()
