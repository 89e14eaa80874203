"""The walk's feel, measured from a trace: sole contact, gait timing and smoothness figures.

    python main.py --scene walk --headless --autopilot --frames 3600 --trace t.jsonl
    python tools/feel_report.py t.jsonl [--worst] [--markdown]
    python tools/feel_report.py --markdown       # plays that 60 s autopilot walk itself first

Everything is computed from the trace file alone (plus the rig for standing height), an
oracle independent of the simulation's own meter: walking and running are told apart by the
pelvis speed (walking: steady, at 0.85–1.1 × walk_speed; running ≥ 0.85 × run_speed), a pivot
by the feet's apparent length. ``--worst`` prints the step and place of each worst figure;
``--markdown`` prints a table with readable names, units and what each figure means (the
table in docs/WALK.md).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from game.scenes.side_view import foreshortened_joints  # noqa: E402
from game.world.feet import sole_penetration  # noqa: E402
from game.world.rig import load_rig  # noqa: E402
from game.world.terrain import Terrain  # noqa: E402

LEGS = ("left_leg", "right_leg")
ARMS = ("left_arm", "right_arm")
STEADY_ACCEL = 2.0  # m/s²: faster changes of the pelvis speed are starts and stops, not a gait
AUTOPILOT_FRAMES = 3600  # the standard measured run: 60 s of the walk's autopilot at 60 Hz

# figure -> (readable name, factor to the shown unit, unit, what it means), for --markdown
MARKDOWN: dict[str, tuple[str, float, str, str]] = {
    "max_sole_penetration_m": (
        "sole penetration, worst",
        1e3,
        "mm",
        "heel, ball, toe or a sole segment below the ground",
    ),
    "max_planted_slide_m": (
        "planted pivot slide, worst",
        1e3,
        "mm",
        "a planted heel or ball moving along the ground",
    ),
    "max_ground_error_m": (
        "planted pivot off the ground, worst",
        1e3,
        "mm",
        "gap or overlap under a planted foot",
    ),
    "stance_knee_deg_p50": (
        "stance knee bend, median",
        1.0,
        "°",
        "walking on flat ground (0: straight)",
    ),
    "pelvis_drop_walk_m": (
        "pelvis drop walking, median",
        1e2,
        "cm",
        "below standing height, flat ground",
    ),
    "cadence_spm.walk": ("cadence walking", 1.0, "steps/min", "steady walk"),
    "cadence_spm.run": ("cadence running", 1.0, "steps/min", "steady run"),
    "flight_fraction_run": ("flight running", 1e2, "%", "of run time with both feet off"),
    "double_support_run": ("double support running", 1e2, "%", "of run time with both feet down"),
    "double_support_walk": ("double support walking", 1e2, "%", "of walk time with both feet down"),
    "one_foot_down_walking": (
        "a foot always down walking",
        1.0,
        "",
        "a walk never leaves the ground",
    ),
    "max_joint_jump_m": (
        "largest joint jump in a step",
        1e2,
        "cm",
        "elbow, hand, knee or ankle as drawn, relative to pelvis",
    ),
    "max_pelvis_step_m": ("largest pelvis height step", 1e2, "cm", "in one fixed step"),
}


def segments(path: Path) -> list[tuple[dict[str, Any], list[dict[str, Any]]]]:
    """The trace's scene segments: each header line (a scene switch writes a new one) and
    the steps after it. ``SystemExit`` naming the file and line for text that is not a
    trace."""
    out: list[tuple[dict[str, Any], list[dict[str, Any]]]] = []
    with path.open(encoding="utf-8") as lines:
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as error:
                raise SystemExit(f"{path}:{number}: not a trace line ({error.msg})") from None
            if not isinstance(record, dict):
                raise SystemExit(f"{path}:{number}: expected a JSON object")
            if "scene" in record and "characters" not in record:
                out.append((record, []))
            elif not out:
                raise SystemExit(f"{path}:{number}: a step before the trace's header")
            else:
                out[-1][1].append(record)
    return out


def load(
    header: dict[str, Any], steps: list[dict[str, Any]]
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The header and the hero's arrays of one walk segment, one row per step (``step``:
    the trace's own step numbers)."""
    rows = [step["characters"][0] for step in steps]
    limbs = [[row["limbs"][name] for name in ARMS + LEGS] for row in rows]

    def stack(key: str) -> np.ndarray:
        return np.array([[limb[key] for limb in row] for row in limbs], dtype=float)

    feet = np.array(
        [[[limb["foot"][k] for k in ("heel", "ball", "toe")] for limb in row[2:]] for row in limbs]
    )
    return header, {
        "step": np.array([step.get("step", i + 1) for i, step in enumerate(steps)]),
        "pelvis": np.array([row["pelvis"] for row in rows]),
        "spin": np.array([row.get("spin", row["facing"]) for row in rows], dtype=float),
        "root": stack("root"),
        "mid": stack("mid"),
        "end": stack("end"),
        "planted": np.array([[limb["planted"] for limb in row[2:]] for row in limbs]),
        "foot": feet,
        # the ground in force from each step on: the header's, then each edit's
        "terrain_from": np.array([0] + [i for i, step in enumerate(steps) if "terrain" in step]),
        "terrains": [header["terrain"]] + [step["terrain"] for step in steps if "terrain" in step],
    }


def per_ground(a: dict[str, Any], fn: Any, values: np.ndarray) -> np.ndarray:
    """``fn(terrain, rows)`` over ``values`` (one row per step), each stretch of steps
    measured against the ground in force then (edits change it mid-trace)."""
    starts = list(a["terrain_from"]) + [len(values)]
    parts = [
        fn(Terrain(np.array(points)), values[lo:hi])
        for points, lo, hi in zip(a["terrains"], starts, starts[1:], strict=False)
    ]
    return np.concatenate(parts)


def measure(header: dict[str, Any], steps: list[dict[str, Any]], rig_path: Path) -> dict[str, Any]:
    """Every figure of one walk segment, with the row where the worst one happened."""
    header, a = load(header, steps)
    rig = load_rig(rig_path)
    gait, legs = rig.gait, rig.legs

    def ground(x: np.ndarray) -> np.ndarray:  # the ground height under x (T, ...)
        return per_ground(a, lambda terrain, rows: terrain.height_at(rows), x)

    dt = float(header["dt"])
    pelvis, planted, foot = a["pelvis"], a["planted"], a["foot"]
    speed = np.abs(np.gradient(pelvis[:, 0], dt))
    length = np.hypot(*np.moveaxis(foot[:, :, 2] - foot[:, :, 0], -1, 0))
    pivoting = (length < 0.95 * (legs.heel + legs.toe) - 0.02).any(axis=1)
    # steady: a run braking to turn round passes walking speed in a flight (a stop, not a walk)
    steady = np.abs(np.gradient(speed, dt)) < STEADY_ACCEL
    walking = (speed >= 0.85 * gait.walk_speed) & (speed <= 1.1 * gait.walk_speed) & ~pivoting
    walking &= steady
    running = (speed >= 0.85 * gait.run_speed) & ~pivoting
    x = pelvis[:, 0]
    grade = (ground(x + 0.4) - ground(x - 0.4)) / 0.8
    flat_walk = walking & (np.abs(grade) < 0.02)
    out: dict[str, Any] = {}
    depth = per_ground(a, sole_penetration, foot).max(axis=1)
    out["max_sole_penetration_m"] = (float(max(depth.max(), 0.0)), int(depth.argmax()))
    still = planted[1:] & planted[:-1]
    moved = np.hypot(*np.moveaxis(foot[1:, :, :2] - foot[:-1, :, :2], -1, 0))
    contacts = foot[1:, :, :2]
    height = np.abs(contacts[..., 1] - ground(foot[:, :, :2, 0])[1:])
    pick = (moved + 1e-4 * height).argmin(axis=-1)
    moved = np.take_along_axis(moved, pick[..., None], axis=-1)[..., 0]
    pivot_slide = np.where(still, moved, 0.0)
    out["max_planted_slide_m"] = (float(pivot_slide.max()), int(pivot_slide.max(axis=1).argmax()))
    off = np.where(still, np.take_along_axis(height, pick[..., None], axis=-1)[..., 0], 0.0)
    out["max_ground_error_m"] = (float(off.max()), int(off.max(axis=1).argmax()) + 1)
    thigh = a["root"][:, 2:] - a["mid"][:, 2:]
    shin = a["end"][:, 2:] - a["mid"][:, 2:]
    cos = np.sum(thigh * shin, -1) / (
        np.linalg.norm(thigh, axis=-1) * np.linalg.norm(shin, axis=-1)
    )
    flexion = 180.0 - np.degrees(np.arccos(np.clip(cos, -1.0, 1.0)))
    knee = flexion[flat_walk][planted[flat_walk]]
    out["stance_knee_deg_p50"] = (float(np.median(knee)) if knee.size else None, None)
    stand = ground(x) + legs.ankle_height + gait.stand_extension * legs.limb.reach
    drop = (stand - pelvis[:, 1])[flat_walk]
    out["pelvis_drop_walk_m"] = (float(np.median(drop)) if drop.size else None, None)
    landed = np.flatnonzero((planted[1:] & ~planted[:-1]).any(axis=1)) + 1
    for name, mask in (("walk", walking), ("run", running)):
        times = [t for t in landed if mask[t]]
        gaps = [b - a_ for a_, b in zip(times, times[1:], strict=False) if mask[a_:b].all()]
        out[f"cadence_spm.{name}"] = (60.0 / (np.mean(gaps) * dt) if gaps else None, None)

    def share(mask: np.ndarray, of: np.ndarray) -> float | None:
        return float(mask[of].mean()) if of.any() else None

    out["flight_fraction_run"] = (share((~planted).all(axis=1), running), None)
    out["double_support_run"] = (share(planted.all(axis=1), running), None)
    out["double_support_walk"] = (share(planted.all(axis=1), walking), None)
    walk_both = walking[1:] & walking[:-1]
    out["one_foot_down_walking"] = (bool(planted[1:][walk_both].any(axis=1).all()), None)
    # elbows, knees, hands, ankles as the side view draws them (a pivot foreshortened)
    drawn = foreshortened_joints(a["mid"], a["end"], a["root"], a["spin"])
    joints = np.concatenate([drawn, a["end"]], axis=1)
    rel = joints[1:] - joints[:-1] - (pelvis[1:] - pelvis[:-1])[:, None]
    jump = np.hypot(rel[..., 0], rel[..., 1]).max(axis=1)
    out["max_joint_jump_m"] = (float(jump.max()), int(jump.argmax()) + 1)
    step = np.abs(np.diff(pelvis[:, 1]))
    out["max_pelvis_step_m"] = (float(step.max()), int(step.argmax()) + 1)
    return out


def record_autopilot_walk(folder: Path) -> Path:
    """Play the walk's autopilot headless for :data:`AUTOPILOT_FRAMES` frames; its trace."""
    trace = folder / "walk.jsonl"
    args = ["--scene", "walk", "--headless", "--autopilot", "--frames", str(AUTOPILOT_FRAMES)]
    subprocess.run(
        [sys.executable, str(ROOT / "main.py"), *args, "--trace", str(trace)], check=True
    )
    return trace


def shown(name: str, value: Any, markdown: bool) -> str:
    """A figure's value as printed: 4 significant digits (``--markdown``: in its unit)."""
    if value is None:
        return "—"
    if isinstance(value, bool):
        return ("yes" if value else "no") if markdown else str(value)
    if not markdown:
        return f"{value:.4g}"
    _, factor, unit, _ = MARKDOWN[name]
    return f"{value * factor:.3g}{'' if unit in ('', '°') else ' '}{unit}"


def report(path: Path, rig: Path, worst: bool, markdown: bool) -> None:
    """Print each walk segment's figures (a markdown table with ``markdown``)."""
    walks = [(h, steps) for h, steps in segments(path) if h.get("scene") == "walk"]
    walks = [(h, steps) for h, steps in walks if len(steps) >= 3]
    if not walks:
        raise SystemExit(f"{path}: no walk-scene steps to measure")
    for k, (header, steps) in enumerate(walks):
        numbers = [step.get("step", i + 1) for i, step in enumerate(steps)]
        if len(walks) > 1:  # a scene switch starts a new segment: each is measured alone
            print(
                f"{'' if k == 0 else chr(10)}walk segment {k + 1} (steps {numbers[0]}-{numbers[-1]})"
            )
        figures = measure(header, steps, rig)
        if markdown:
            print("| figure | value | meaning |")
            print("|---|---:|---|")
        for name, (value, where) in figures.items():
            at = f" (step {numbers[where]})" if worst and where is not None else ""
            if markdown:
                label, _, _, meaning = MARKDOWN[name]
                print(f"| {label} | {shown(name, value, True)}{at} | {meaning} |")
            else:
                print(f"{name:24} {shown(name, value, False)}{at}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "trace",
        type=Path,
        nargs="?",
        help=f"a --trace file (default: play the walk's autopilot for {AUTOPILOT_FRAMES} frames)",
    )
    parser.add_argument("--rig", type=Path, default=ROOT / "assets" / "rig.json")
    parser.add_argument("--worst", action="store_true", help="print where each worst figure is")
    parser.add_argument(
        "--markdown", action="store_true", help="a markdown table with units and meanings"
    )
    args = parser.parse_args()
    if args.trace is not None:
        report(args.trace, args.rig, args.worst, args.markdown)
        return
    with tempfile.TemporaryDirectory() as folder:
        report(record_autopilot_walk(Path(folder)), args.rig, args.worst, args.markdown)


if __name__ == "__main__":
    main()
