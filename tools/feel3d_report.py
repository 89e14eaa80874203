"""The walk in 3-D's feel figures from a trace (``--scene walk3d --trace t.jsonl``).

    python tools/feel3d_report.py t.jsonl [--json out.json]

Figures (each with the bound the walk must meet):

- ``sole_depth_mm``: the deepest any of the seven sole points goes under the heightfield
  (≤ 5 mm).
- ``planted_slide_mm``: the most a planted foot's pivot (its heel or its ball, whichever
  moved less) moves in one step while the foot stays planted (≤ 0.5 mm).
- ``knee_flips``: a knee crossing to the other side of its hip→ankle line from its pole
  (0 with poles on); ``wrong_side_steps`` the steps with a knee off its pole's side.
- ``stance_knee_median_deg``: the median bend of a planted leg's knee while walking on
  flat ground (≤ 20°).
- ``cadence_walk``, ``cadence_run``: footfalls a minute walking and running (95–125 walking,
  ≥ 15 % higher running); ``flight_run``: the share of running steps with no foot down (≥ 15 %).
- ``bone_error_mm``: the largest change of a bone's length from the rig's.
- ``joint_jump_cm``: the largest move of a knee, elbow, ankle or hand relative to the pelvis
  in one step (≤ 10 cm).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from game.scenes.walk3d_trace import heightfield_of, read_trace  # noqa: E402
from game.world.walk3d_body import SOLE_POINTS  # noqa: E402

LIMBS = ("left_arm", "right_arm", "left_leg", "right_leg")
RUN_SPEED = 2.0  # m/s: the pelvis faster than this is running
WALK_SPEED = (0.8, 2.0)  # m/s: walking between these
FLAT_GRADE = 0.01  # the ground under the pelvis flatter than this is flat


def arrays(steps: list[dict[str, Any]]) -> dict[str, np.ndarray]:
    """The hero's trace as arrays: joints (T, 4, 5, 3) root/mid/end/target/pole (NaN where a
    pole is off), soles (T, 2, 7, 3), planted (T, 2), pelvis (T, 3)."""
    chars = [rec["characters"][0] for rec in steps]
    nan3 = [np.nan] * 3
    joints = np.array(
        [
            [
                [c["limbs"][n][k] or nan3 for k in ("root", "mid", "end", "target", "pole")]
                for n in LIMBS
            ]
            for c in chars
        ]
    )
    soles = np.array(
        [[[c["limbs"][n]["foot"][p] for p in SOLE_POINTS] for n in LIMBS[2:]] for c in chars]
    )
    planted = np.array([[c["limbs"][n]["planted"] for n in LIMBS[2:]] for c in chars])
    pelvis = np.array([c["pelvis"] for c in chars])
    return {"joints": joints, "soles": soles, "planted": planted, "pelvis": pelvis}


def knee_sides(joints: np.ndarray) -> np.ndarray:
    """+1 / −1 (T, 2): each knee on / off its pole's side of the hip→ankle line (0: no pole)."""
    hip, knee, ankle, pole = (joints[:, 2:, k] for k in (0, 1, 2, 4))
    axis = ankle - hip
    axis /= np.linalg.norm(axis, axis=-1, keepdims=True)

    def off(p: np.ndarray) -> np.ndarray:
        v = p - hip
        return v - np.sum(v * axis, axis=-1, keepdims=True) * axis

    dot = np.sum(off(knee) * off(pole), axis=-1)
    return np.where(np.isnan(dot), 0.0, np.sign(dot))


def figures(header: dict[str, Any], steps: list[dict[str, Any]]) -> dict[str, Any]:
    """Every figure of the module's docstring."""
    field, dt = heightfield_of(header), float(header["dt"])
    a = arrays(steps)
    joints, soles, planted, pelvis = a["joints"], a["soles"], a["planted"], a["pelvis"]
    depth = soles[..., 1] - field.height_at(soles[..., 0], soles[..., 2])
    both = planted[1:] & planted[:-1]
    moved = np.linalg.norm(np.diff(soles[:, :, :2], axis=0), axis=-1).min(axis=-1)
    slide = float(moved[both].max()) if both.any() else 0.0
    sides = knee_sides(joints)
    flips = int(np.count_nonzero((sides[1:] * sides[:-1]) < 0))
    speed = np.r_[0.0, np.hypot(*np.diff(pelvis[:, [0, 2]], axis=0).T) / dt]
    walking = (speed > WALK_SPEED[0]) & (speed < WALK_SPEED[1])
    running = speed >= RUN_SPEED
    grade = np.linalg.norm(field.gradient_at(pelvis[:, 0], pelvis[:, 2]), axis=-1)
    thigh = joints[:, 2:, 1] - joints[:, 2:, 0]
    shin = joints[:, 2:, 2] - joints[:, 2:, 1]
    cos = (
        np.sum(thigh * shin, axis=-1)
        / np.linalg.norm(thigh, axis=-1)
        / np.linalg.norm(shin, axis=-1)
    )
    bend = np.degrees(np.arccos(np.clip(cos, -1.0, 1.0)))  # 0: a straight leg
    flat_stance = planted & (walking & (grade < FLAT_GRADE))[:, None]
    falls = np.r_[np.zeros((1, 2), bool), planted[1:] & ~planted[:-1]].sum(axis=1)

    def cadence(mask: np.ndarray) -> float:
        return float(falls[mask].sum() / max(mask.sum() * dt, 1e-9) * 60.0)

    limbs = header["limbs"]
    uppers = np.array([limbs[n]["upper"] for n in LIMBS])
    lowers = np.array([limbs[n]["lower"] for n in LIMBS])
    upper_err = np.abs(np.linalg.norm(joints[:, :, 1] - joints[:, :, 0], axis=-1) - uppers)
    lower_err = np.abs(np.linalg.norm(joints[:, :, 2] - joints[:, :, 1], axis=-1) - lowers)
    relative = joints[:, :, 1:3] - pelvis[:, None, None, :]
    jump = np.linalg.norm(np.diff(relative, axis=0), axis=-1)
    return {
        "steps": len(steps),
        "sole_depth_mm": round(max(float(-depth.min()), 0.0) * 1000, 3),
        "planted_slide_mm": round(slide * 1000, 3),
        "knee_flips": flips,
        "wrong_side_steps": int(np.count_nonzero((sides < 0).any(axis=1))),
        "stance_knee_median_deg": round(float(np.median(bend[flat_stance])), 2)
        if flat_stance.any()
        else None,
        "cadence_walk": round(cadence(walking), 1),
        "cadence_run": round(cadence(running), 1),
        "flight_run": round(float((~planted.any(axis=1))[running].mean()), 3)
        if running.any()
        else None,
        "walking_s": round(float(walking.sum() * dt), 1),
        "running_s": round(float(running.sum() * dt), 1),
        "bone_error_mm": round(float(max(upper_err.max(), lower_err.max())) * 1000, 4),
        "joint_jump_cm": round(float(jump.max()) * 100, 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("trace", type=Path)
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args()
    header, steps = read_trace(args.trace)
    result = figures(header, steps)
    for name, value in result.items():
        print(f"{name:24} {value}")
    if args.json:
        args.json.write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
