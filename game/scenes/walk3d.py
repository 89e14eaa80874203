"""The walk in 3-D: the hero on the heightfield (no pygame; the view is walk3d_view.py).

Input ``values``: ``"wish"`` a ground direction ``[x, z]`` (its length the share of a walk,
at most 1; from W/A/S/D relative to the camera, or the autopilot), ``"goal"`` ``[x, z]`` a
spot to walk to (a click on the ground; the keys cancel it). ``run`` runs. Action
``"toggle_poles"`` turns the knee poles off and on. ``pointer`` ``[x, y, z]`` (the trace's
``pointer``) is the 3-D pointer, or None: the nearer hand reaches for it when it is within
reach (the view gives the mouse ray's point nearest the chest when that is near, else the
ray's hit on the ground), while the mouse moves (action ``"pointer_moved"``) and 1.5 s
after, as in the walk.

The trace (``trace_header`` / ``trace_characters``) follows the 3-D contract: the header
has ``heightfield`` (origin, spacing, heights) and ``limbs``; each step's character has
``pelvis`` ``[x, y, z]``, ``yaw``, ``pointer``, and per limb ``root``, ``mid``, ``end``,
``target``, ``pole``, ``planted``, each leg's ``foot`` its seven sole points.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from game.ik_counters import IkCounters
from game.input_state import InputState, finite_clamped
from game.profiling import PhaseTimer
from game.scene import SceneConfig
from game.scenes.walk_pointer import POINTER_LINGER_S
from game.trace import limb_record, point
from game.world.heightfield import Heightfield, load_heightfield
from game.world.rig import LIMBS, Rig, load_rig
from game.world.walk3d import Walker3D
from game.world.walk3d_body import SOLE_POINTS

HEIGHTFIELD_FILE = "heightfield.json"
RIG_FILE = "rig.json"
START_XZ = (3.0, 3.0)  # the hero starts on the flat, facing +x along the loop
GOAL_REACHED_M = 0.25  # a walk to a clicked spot ends this close to it
GOAL_SLOW_M = 1.0  # ... slowing over the last metre
WORLD_LIMIT_M = 1e4  # wished directions, goals and pointers clamp to this


def _pair(value: Any, limit: float) -> tuple[float, float] | None:
    """Two finite numbers clamped to ±``limit``, or None."""
    if not isinstance(value, list | tuple) or len(value) != 2:
        return None
    a, b = (finite_clamped(v, math.nan, limit) for v in value)
    return None if math.isnan(a) or math.isnan(b) else (a, b)


class Walk3DSim:
    """The hero walking the heightfield, steered by a wished direction or a clicked goal."""

    def __init__(self, config: SceneConfig) -> None:
        self.dt = config.dt
        self.step_index = 0
        self.time = 0.0
        self.counters = IkCounters()
        self.assets_dir = Path(config.assets_dir)
        self.rig: Rig = load_rig(self.assets_dir / RIG_FILE)
        self.field: Heightfield = load_heightfield(self.assets_dir / HEIGHTFIELD_FILE)
        self.walker = Walker3D(self.rig, self.field, START_XZ, 0.0)
        self.goal: tuple[float, float] | None = None
        self.pointer: tuple[float, float, float] | None = None
        self.pointer_still_s = math.inf  # since the mouse last moved (or a button went down)
        self.wish = (0.0, 0.0)

    def step(self, inp: InputState, dt: float, timer: PhaseTimer) -> None:
        if inp.toggles("toggle_poles"):
            self.walker.use_knee_poles(not self.walker.knee_poles)
        self.pointer = self._pointer(inp.pointer)
        self.wish = self._wish(inp)
        # as in the walk, the hand reaches while the mouse moves and POINTER_LINGER_S on: a
        # mouse left where the following camera keeps it near him holds no arm up for good
        moved = "pointer_moved" in inp.actions or inp.pointer_down
        self.pointer_still_s = 0.0 if moved else self.pointer_still_s + dt
        lingering = self.pointer_still_s <= POINTER_LINGER_S
        self.walker.aim_hand(self.pointer if lingering else None)
        self.walker.step(self.wish, inp.run, dt, timer)
        self.counters.record(self.walker.solution)
        self.step_index += 1
        self.time = self.step_index * dt

    @staticmethod
    def _pointer(value: Any) -> tuple[float, float, float] | None:
        if value is None or len(value) != 3:
            return None
        xyz = [finite_clamped(v, math.nan, WORLD_LIMIT_M) for v in value]
        return None if any(math.isnan(v) for v in xyz) else (xyz[0], xyz[1], xyz[2])

    def _wish(self, inp: InputState) -> tuple[float, float]:
        """The direction walked this step: the keys', else toward the clicked goal."""
        goal = _pair(inp.values.get("goal"), WORLD_LIMIT_M)
        if goal is not None:
            self.goal = goal
        keys = _pair(inp.values.get("wish"), 1.0) or (0.0, 0.0)
        if math.hypot(*keys) > 0.0:
            self.goal = None
            return keys
        if self.goal is None:
            return (0.0, 0.0)
        pelvis = self.walker.pose.pelvis
        dx, dz = self.goal[0] - pelvis[0], self.goal[1] - pelvis[2]
        gap = math.hypot(dx, dz)
        if gap < GOAL_REACHED_M:
            self.goal = None
            return (0.0, 0.0)
        share = min(1.0, 0.4 + 0.6 * gap / GOAL_SLOW_M)
        return (dx / gap * share, dz / gap * share)

    # -- outputs -----------------------------------------------------------------------
    def trace_header(self) -> dict[str, Any]:
        arm, leg = self.rig.arms.limb, self.rig.legs.limb
        return {
            "scene": "walk3d",
            "dt": self.dt,
            "terrain": None,
            "heightfield": self.field.to_json(),
            "limbs": {
                name: {"upper": limb.upper, "lower": limb.lower}
                for name, limb in zip(LIMBS, [arm, arm, leg, leg], strict=True)
            },
        }

    def trace_characters(self) -> list[dict[str, Any]]:
        pose = self.walker.pose
        limbs = {}
        for index, name in enumerate(LIMBS):
            leg = index - 2
            record = limb_record(
                pose.roots[index],
                pose.elbows[index],
                pose.ends[index],
                pose.targets[index],
                pose.poles[index] if leg < 0 or self.walker.knee_poles else None,
                bool(pose.planted[leg]) if leg >= 0 else None,
            )
            if leg >= 0:
                soles = pose.soles[leg]
                record["foot"] = {n: point(p) for n, p in zip(SOLE_POINTS, soles, strict=True)}
            limbs[name] = record
        return [
            {
                "id": 0,
                "pelvis": point(pose.pelvis),
                "yaw": round(pose.yaw, 6),
                "pointer": None if self.pointer is None else point(self.pointer),
                "limbs": limbs,
            }
        ]

    def stats_sections(self) -> dict[str, Any]:
        walker = self.walker
        return {
            "walk3d": {
                "steps_taken": int(walker.crowd.feet.steps.sum()),
                "knee_flips": walker.knee_flips,
                "knee_poles": walker.knee_poles,
                "distance_m": round(walker.s, 3),
            }
        }


# The autopilot's tour round the heightfield's features: (x, z, run) waypoints walked in
# order, then again. East over the flat, up the gentle slope and over the bump; north across
# the side slope; west down the terraces; a run over the flat; south down the ramp; a
# reversal and back up it; east up the terraces.
TOUR: tuple[tuple[float, float, bool], ...] = (
    (9.0, 3.0, False),
    (13.5, 3.0, False),
    (17.0, 3.8, False),
    (17.0, 10.5, False),
    (12.0, 11.0, False),
    (4.0, 11.0, True),
    (3.0, 9.5, False),
    (3.0, 4.5, False),
    (3.0, 9.0, False),
    (12.5, 11.0, False),
)
WAYPOINT_REACHED_M = 0.6


class Walk3DAutopilot:
    """Walks :data:`TOUR` (deterministic): the wished direction toward the next waypoint."""

    def __init__(self, sim: Walk3DSim, config: SceneConfig) -> None:
        self.leg = 0

    def next_input(self, sim: Walk3DSim) -> InputState:
        pelvis = sim.walker.pose.pelvis
        x, z, run = TOUR[self.leg % len(TOUR)]
        dx, dz = x - pelvis[0], z - pelvis[2]
        if math.hypot(dx, dz) < WAYPOINT_REACHED_M:
            self.leg += 1
            x, z, run = TOUR[self.leg % len(TOUR)]
            dx, dz = x - pelvis[0], z - pelvis[2]
        gap = max(math.hypot(dx, dz), 1e-9)
        return InputState(run=run, values={"wish": [float(dx / gap), float(dz / gap)]})
