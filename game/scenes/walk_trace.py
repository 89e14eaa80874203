"""The walking scenes' trace lines (no pygame): the header (the scene, the step, the ground
and each limb's bones) and each character's record per step, shared by the walk and the
crowd."""

from __future__ import annotations

from typing import Any

from game.trace import limb_record, point
from game.world.character import LEGS, Crowd
from game.world.rig import LIMBS, Rig
from game.world.terrain import Terrain


def trace_header(scene: str, dt: float, terrain: Terrain, rig: Rig) -> dict[str, Any]:
    """A walking scene's trace header: its name, the step, the ground and each limb's bones."""
    arm, leg = rig.arms.limb, rig.legs.limb
    return {
        "scene": scene,
        "dt": dt,
        "terrain": terrain.to_json(),
        "limbs": {
            name: {"upper": limb.upper, "lower": limb.lower}
            for name, limb in zip(LIMBS, [arm, arm, leg, leg], strict=True)
        },
    }


def character_records(
    crowd: Crowd, pointers: list[tuple[float, float] | None] | None = None
) -> list[dict[str, Any]]:
    """Every character of ``crowd`` this step in trace format (``planted`` and the sole's
    ``foot`` points for legs).

    ``pointers`` are the pointers each character's hands were offered this step (None:
    idle or absent; no list: none for anyone)."""
    pose, sol, feet = crowd.pose, crowd.solution, crowd.feet
    count = crowd.count
    soles = pose.soles(sol.hand[:, LEGS], crowd.rig)
    records = []
    for index in range(count):
        limbs = {}
        for limb, name in enumerate(LIMBS):
            is_leg = limb >= LEGS.start
            limbs[name] = limb_record(
                pose.roots[index, limb],
                sol.elbow[index, limb],
                sol.hand[index, limb],
                pose.targets[index, limb],
                pose.poles[index, limb] if pose.pole_on[index, limb] else None,
                bool(feet.planted[index, limb - LEGS.start]) if is_leg else None,
                soles[index, limb - LEGS.start] if is_leg else None,
            )
        records.append(
            {
                "id": index,
                "pelvis": [round(float(v), 6) for v in pose.pelvis[index]],
                "facing": int(pose.facing[index]),
                "spin": round(float(pose.spin[index]), 6),
                "limbs": limbs,
                "pointer": point(pointers[index]) if pointers else None,
            }
        )
    return records
