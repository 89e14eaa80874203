"""The stance at rest on stairs, measured from a trace: walkers walk or run up and down
flights, let go at many points, rest ``REST`` seconds; each walker's step line at that
moment is written to a trace (the walk scene's format), and the pelvis's horizontal offset
from the support of its planted feet (the interval between their sole points touching the
ground; 0 inside) is read back from it.

    python tools/rest_stance.py                  # built flights (three rises and treads)
    python tools/rest_stance.py --course         # the shipped course's flights
    python tools/rest_stance.py --keep rest.jsonl
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
from game.world.sample_grounds import stairs_up_and_down  # noqa: E402
from game.world.terrain import Terrain, load_terrain  # noqa: E402

DT = 1.0 / 60.0
REST = 1.5  # seconds of rest before the stance is read
WATCH = 60  # frames watched after the rest for a foot that steps again
CONTACT = 0.01  # m: a sole point this close to the ground touches it
FLIGHTS = ((0.17, 0.30), (0.15, 0.36), (0.19, 0.26))  # built flights' (rise, tread), m


def support_offset(terrain: Terrain, characters: list[dict]) -> np.ndarray:
    """The pelvis's horizontal distance outside the interval spanned by the planted feet's
    sole points touching the ground (0 inside), per trace ``characters`` record."""
    out = []
    for character in characters:
        legs = [character["limbs"][name] for name in ("left_leg", "right_leg")]
        soles = np.array([[leg["foot"][k] for k in ("heel", "ball", "toe")] for leg in legs])
        planted = np.array([bool(leg["planted"]) for leg in legs])
        x, y = soles[..., 0], soles[..., 1]  # (2, 3)
        touching = (y - terrain.height_at(x) <= CONTACT) & planted[:, None]
        px = character["pelvis"][0]
        lo, hi = x[touching].min(initial=np.inf), x[touching].max(initial=-np.inf)
        out.append(max(lo - px, px - hi, 0.0))
    return np.array(out)


def stop_everywhere(
    rig: Rig,
    terrain: Terrain,
    starts: list[tuple[float, float]],
    frames: np.ndarray,
    run: float,
    trace: TraceWriter,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One walker per (start, let-go frame): moves from ``start`` (x, facing) for that many
    frames at ``run``, then rests ``REST``; its step line then goes to ``trace``. Returns
    the offsets read from those lines, the let-go x and whether a foot stepped after
    ``REST`` (watched ``WATCH`` more frames)."""
    xs = np.array([x for x, _ in starts for _ in frames])
    facing = np.array([f for _, f in starts for _ in frames])
    go = np.tile(frames, len(starts))
    crowd = Crowd(rig, terrain, xs, facing)
    let_go, offset, steps = np.zeros_like(xs), np.zeros_like(xs), np.zeros(len(xs), dtype=int)
    rest = int(REST / DT)
    for k in range(int(go.max()) + rest + WATCH):
        moving = k < go
        crowd.step(np.where(moving, facing, 0.0), np.where(moving, run, 0.0), DT)
        crowd.solve()
        let_go = np.where(k == go - 1, crowd.x, let_go)
        rested = np.flatnonzero(k == go + rest - 1)
        if len(rested):
            steps[rested] = crowd.feet.steps[rested]
            records = [character_records(crowd)[i] for i in rested]
            trace.step(k + 1, (k + 1) * DT, records)
            offset[rested] = support_offset(terrain, records)
    return offset, let_go, crowd.feet.steps != steps


def read_offsets(path: Path) -> np.ndarray:
    """Every offset (:func:`support_offset`) in the trace at ``path``, in order."""
    lines = path.read_text(encoding="utf-8").splitlines()
    terrain, offsets = None, []
    for line in lines:
        record = json.loads(line)
        if "characters" not in record:
            terrain = Terrain(np.array(record["terrain"]))
            continue
        assert terrain is not None
        offsets.append(support_offset(terrain, record["characters"]))
    return np.concatenate(offsets)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--course", action="store_true", help="the shipped course's flights")
    parser.add_argument("--keep", type=Path, help="keep the trace of the rests here")
    args = parser.parse_args()
    rig = load_rig(ASSETS_DIR / "rig.json")
    if args.course:
        grounds = [("course", load_terrain(ASSETS_DIR / "terrain.json"))]
        starts = [(9.5, 1.0), (19.0, -1.0)]  # before the two flights, either way
        frames = np.arange(30, 600, 7)
    else:
        grounds = [
            (f"{r:.2f}x{t:.2f}", stairs_up_and_down(r, t, 6, landing=3.0)) for r, t in FLIGHTS
        ]
        frames = np.arange(30, 600, 5)
    with tempfile.TemporaryDirectory() as scratch:
        path = args.keep or Path(scratch) / "rest.jsonl"
        trace = TraceWriter(path)
        print(
            f"{'flight':10} {'gait':5} {'walkers':>8} {'worst m':>8} {'median m':>9} "
            f"{'>2cm':>5} {'tapping':>8}"
        )
        for name, terrain in grounds:
            if not args.course:
                top = float(terrain.xs[-1])
                starts = [(-2.0, 1.0), (top - 4.0, -1.0)]
            trace.header({"scene": "walk", "dt": DT, "terrain": terrain.points.tolist()})
            for run, gait in ((0.0, "walk"), (1.0, "run")):
                offset, at, tapping = stop_everywhere(rig, terrain, starts, frames, run, trace)
                worst = int(np.argmax(offset))
                print(
                    f"{name:10} {gait:5} {len(offset):8d} {offset.max():8.3f} "
                    f"{np.median(offset):9.3f} {(offset > 0.02).sum():5d} {tapping.sum():8d}"
                    f"   worst let go at x={at[worst]:.2f}"
                )
        trace.close()
        print(f"worst offset in the trace: {read_offsets(path).max():.3f} m")


if __name__ == "__main__":
    main()
