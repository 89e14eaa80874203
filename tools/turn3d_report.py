"""How the walker in 3-D turns from standing: for a wish held at each angle off his facing,
the legs' crossing and the knees' tracking over the turn (headless, the shipped rig and
heightfield, 60 Hz).

    python tools/turn3d_report.py [--seconds 3]

He stands 1 s, then the wish is held. Per wish angle (degrees, left positive):

- ``crossed_cm``: the most one ankle is past the other across the hips (the left ankle to
  the right of the right one along the hip line; > 0: the legs cross, an X seen from the
  front).
- ``knee_off_foot_deg``: the most a planted knee's bend points away from its foot's heel →
  toe, on the ground plane (the knee over the toes: 0).
- ``knock_steps``: steps with both knees bent toward each other by more than 20°.
- ``turned_s``: the time until the body faces within 10° of the wish (None: not within
  the run).

Then turning while walking: ``--runs`` walks of 10 s from spots over the heightfield, each
wishing a new random direction (or, one time in four, to stand) every 1.5 s; per walk the
most ``crossed_cm``, and over the walks its median, 90th percentile and largest.
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from game.scene import ASSETS_DIR  # noqa: E402
from game.world.heightfield import Heightfield, load_heightfield  # noqa: E402
from game.world.rig import Rig, load_rig  # noqa: E402
from game.world.walk3d import Pose3D, Walker3D  # noqa: E402
from game.world.walk3d_path import heading_vector  # noqa: E402

DT = 1.0 / 60.0
START_XZ = (3.0, 3.0)  # open, level ground on the shipped heightfield
ANGLES = (180, 150, 120, 90, -90, -150)
KNOCK_COS = math.cos(math.radians(70.0))  # a knee bent > 20° toward the other leg
LEGS = (2, 3)
WISH_STEPS = 90  # walking, a new random wish every 1.5 s


def _ground(v: np.ndarray) -> np.ndarray:
    """The ground-plane part (x, z) of a 3-D vector."""
    return np.array([v[0], v[2]])


def crossed_m(pose: Pose3D) -> float:
    """How far the left ankle is to the right of the right one along the hip line, m."""
    across = _ground(pose.roots[3] - pose.roots[2])
    return float(_ground(pose.ends[2] - pose.ends[3]) @ (across / np.linalg.norm(across)))


def turn_figures(walker: Walker3D, angle_deg: float, seconds: float) -> dict[str, float | None]:
    """Stand ``walker`` 1 s, then hold a wish ``angle_deg`` off its facing for ``seconds``."""
    for _ in range(60):
        walker.step([0.0, 0.0], False, DT)
    goal = walker.yaw + math.radians(angle_deg)
    wish = heading_vector(goal)
    crossed, off_foot, knock, turned = 0.0, 0.0, 0, None
    for step in range(int(seconds / DT)):
        walker.step(wish, False, DT)
        pose = walker.pose
        across = _ground(pose.roots[3] - pose.roots[2])
        across /= np.linalg.norm(across)
        crossed = max(crossed, crossed_m(pose))
        bends = []
        for side, leg in enumerate(LEGS):
            hip, knee, ankle = pose.roots[leg], pose.elbows[leg], pose.ends[leg]
            along = (ankle - hip) / np.linalg.norm(ankle - hip)
            bend = _ground(knee - (hip + float((knee - hip) @ along) * along))
            if np.linalg.norm(bend) < 0.02:  # a straight leg points nowhere
                continue
            bend /= np.linalg.norm(bend)
            bends.append(bend * (1.0 if side == 0 else -1.0))  # toward the other leg: > 0
            if pose.planted[side]:
                toe = _ground(pose.soles[side][2] - pose.soles[side][0])
                cos = float(bend @ toe) / float(np.linalg.norm(toe))
                off_foot = max(off_foot, math.degrees(math.acos(min(max(cos, -1.0), 1.0))))
        if len(bends) == 2 and all(float(b @ across) > KNOCK_COS for b in bends):
            knock += 1
        if turned is None and abs(math.remainder(walker.yaw - goal, math.tau)) < math.radians(10):
            turned = (step + 1) * DT
    return {
        "crossed_cm": round(100.0 * crossed, 1),
        "knee_off_foot_deg": round(off_foot, 1),
        "knock_steps": knock,
        "turned_s": None if turned is None else round(turned, 2),
    }


def walking_crossed(rig: Rig, field: Heightfield, seed: int) -> float:
    """The most the legs cross (m) in one 10 s walk of random wishes (the module's doc)."""
    rng = np.random.default_rng(seed)
    start = (3.0 + 2.0 * (seed % 4), 3.0 + 2.0 * (seed // 4 % 4))
    walker = Walker3D(rig, field, start, rng.uniform(-math.pi, math.pi))
    wish, most = np.zeros(2), 0.0
    for step in range(int(10.0 / DT)):
        if step % WISH_STEPS == 0:
            keep = rng.choice([0.0, 1.0, 1.0, 1.0])
            wish = heading_vector(rng.uniform(-math.pi, math.pi)) * keep
        walker.step(wish, False, DT)
        most = max(most, crossed_m(walker.pose))
    return most


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="the wish held this long")
    parser.add_argument("--runs", type=int, default=36, help="walks of random wishes")
    args = parser.parse_args()
    rig = load_rig(ASSETS_DIR / "rig.json")
    field = load_heightfield(ASSETS_DIR / "heightfield.json")
    print("| wish | crossed cm | knee off foot ° | knock steps | turned s |")
    print("|---:|---:|---:|---:|---:|")
    for angle in ANGLES:
        row = turn_figures(Walker3D(rig, field, START_XZ, 0.0), angle, args.seconds)
        print(
            f"| {angle}° | {row['crossed_cm']} | {row['knee_off_foot_deg']} | "
            f"{row['knock_steps']} | {row['turned_s']} |"
        )
    if args.runs < 1:
        return
    crossed = [100.0 * walking_crossed(rig, field, seed) for seed in range(args.runs)]
    p50, p90, top = np.percentile(crossed, [50, 90, 100])
    print(f"\nturning while walking ({args.runs} walks): crossed cm median {p50:.1f}, ", end="")
    print(f"p90 {p90:.1f}, largest {top:.1f}")


if __name__ == "__main__":
    main()
