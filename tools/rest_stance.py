"""The stance at rest on stairs, measured: walkers walk or run up and down a flight, let go
at many points, rest ``REST`` seconds, and the pelvis's horizontal offset from the support
of its planted feet (the interval between their sole contact points; 0 inside) is read.

    python tools/rest_stance.py            # a built flight
    python tools/rest_stance.py --course   # the shipped course's flights (measuring only)
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from game.scene import ASSETS_DIR  # noqa: E402
from game.world.character import Crowd  # noqa: E402
from game.world.feet import sole_points  # noqa: E402
from game.world.rig import Rig, load_rig  # noqa: E402
from game.world.terrain import Terrain, load_terrain  # noqa: E402

DT = 1.0 / 60.0
REST = 1.5  # seconds of rest before the stance is read
WATCH = 60  # frames watched after the rest for a foot that steps again
CONTACT = 0.01  # m: a sole point this close to the ground touches it


def built_stairs(rise: float = 0.17, tread: float = 0.30, count: int = 6) -> Terrain:
    """Flat, ``count`` stairs up, a landing of three treads, ``count`` stairs down, flat."""
    points = [[-6.0, 0.0], [0.0, 0.0]]
    x, y = 0.0, 0.0
    for step in (rise,) * count + (0.0,) + (-rise,) * count:
        if step:
            x, y = x + 0.01, y + step  # a riser, 1 cm deep
            points.append([x, y])
        x += tread if step else 3.0 * tread
        points.append([x, y])
    points.append([x + 6.0, y])
    return Terrain(np.array(points))


def support_offset(crowd: Crowd, rig: Rig) -> tuple[np.ndarray, np.ndarray]:
    """The pelvis's horizontal distance (N,) outside the interval spanned by the planted
    feet's sole points on the ground (0 inside), and whether both feet are planted (N,)."""
    feet = crowd.feet
    facing = np.broadcast_to(crowd.facing[:, None], feet.angle.shape)
    soles = sole_points(feet.lock, feet.angle, np.zeros_like(feet.angle), facing, rig.legs)
    x, y = soles[..., 0], soles[..., 1]  # (N, 2, 3)
    touching = (y - crowd.terrain.height_at(x) <= CONTACT) & feet.planted[..., None]
    lo = np.where(touching, x, np.inf).min(axis=(1, 2))
    hi = np.where(touching, x, -np.inf).max(axis=(1, 2))
    px = crowd.pose.pelvis[:, 0]
    offset = np.maximum(np.maximum(lo - px, px - hi), 0.0)
    return offset, feet.planted.all(axis=1)


def stop_everywhere(
    rig: Rig, terrain: Terrain, starts: list[tuple[float, float]], frames: np.ndarray, run: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One walker per (start, let-go frame): moves from ``start`` (x, facing) for that many
    frames at ``run``, then rests ``REST``. Returns the offsets, the let-go x and whether
    a foot stepped after ``REST`` (watched ``WATCH`` more frames)."""
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
        rested = k == go + rest - 1
        steps = np.where(rested, crowd.feet.steps, steps)
        offset = np.where(rested, support_offset(crowd, rig)[0], offset)
    return offset, let_go, crowd.feet.steps != steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--course", action="store_true", help="the shipped course's flights")
    args = parser.parse_args()
    rig = load_rig(ASSETS_DIR / "rig.json")
    if args.course:
        terrain = load_terrain(ASSETS_DIR / "terrain.json")
        starts = [(9.5, 1.0), (19.0, -1.0)]  # before the two flights, either way
        frames = np.arange(30, 600, 7)
    else:
        terrain = built_stairs()
        starts = [(-2.0, 1.0), (10.0, -1.0)]
        frames = np.arange(30, 600, 5)
    print(f"{'gait':6} {'walkers':>8} {'worst m':>8} {'median m':>9} {'>2cm':>5} {'tapping':>8}")
    for run, name in ((0.0, "walk"), (1.0, "run")):
        offset, at, tapping = stop_everywhere(rig, terrain, starts, frames, run)
        worst = int(np.argmax(offset))
        print(
            f"{name:6} {len(offset):8d} {offset.max():8.3f} {np.median(offset):9.3f} "
            f"{(offset > 0.02).sum():5d} {tapping.sum():8d}   worst let go at x={at[worst]:.2f}"
        )


if __name__ == "__main__":
    main()
