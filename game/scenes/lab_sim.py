"""The lab's simulation: one arm L1 = 2, L2 = 1.2, shoulder at 0, solved in 2-D each step
(docs/MATH.md), its autopilot, and the intermediates the panel shows (:func:`readout`).
No pygame; the view is :mod:`game.scenes.lab`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

import ik
from game.ik_counters import IkCounters
from game.input_state import InputState, finite_clamped
from game.profiling import PhaseTimer
from game.scene import SceneConfig
from game.trace import limb_record
from game.world.easing import lerp

UPPER_LEN = 2.0
LOWER_LEN = 1.2
ROOT = (0.0, 0.0)
MAX_SOFTNESS = 1.0
TARGET_RANGE = 4.5  # the sliders' and drag's half-range in metres


@dataclass(frozen=True, slots=True)
class Readout:
    """The intermediates of one 2-D solve, as docs/MATH.md §1-§4 name them (angles in radians)."""

    d: float  # |target − root| before any clamping
    d_used: float  # after softening and the annulus clamp
    cos_theta_raw: float  # (L1² + L2² − d²) / (2·L1·L2) with the raw d: may leave [−1, 1]
    theta: float  # interior elbow angle from the clamped cosine
    phi: float  # atan2 of root → target
    alpha: float  # shoulder offset from the clamped cosine
    clamped: bool  # the raw cosine had to be clamped


def readout(
    upper_len: float, lower_len: float, target: tuple[float, float], d_used: float
) -> Readout:
    """Recompute docs/MATH.md's intermediates for display (the solver itself needs none of them)."""
    dx, dy = target[0] - ROOT[0], target[1] - ROOT[1]
    d = math.hypot(dx, dy)
    # law of cosines at the elbow: cos θ = (L1² + L2² − d²) / (2·L1·L2)
    cos_theta_raw = (upper_len**2 + lower_len**2 - d * d) / (2 * upper_len * lower_len)
    cos_theta = (upper_len**2 + lower_len**2 - d_used**2) / (2 * upper_len * lower_len)
    # law of cosines at the shoulder: cos α = (L1² + d² − L2²) / (2·L1·d)
    cos_alpha = (upper_len**2 + d_used**2 - lower_len**2) / (2 * upper_len * max(d_used, 1e-12))
    return Readout(
        d=d,
        d_used=d_used,
        cos_theta_raw=cos_theta_raw,
        theta=math.acos(min(max(cos_theta, -1.0), 1.0)),  # clamp: rounding may leave [−1, 1]
        phi=math.atan2(dy, dx),
        alpha=math.acos(min(max(cos_alpha, -1.0), 1.0)),
        clamped=not -1.0 <= cos_theta_raw <= 1.0,
    )


class LabSim:
    """One arm whose target follows the pointer drag, the sliders or the autopilot."""

    def __init__(self, config: SceneConfig) -> None:
        self.dt = config.dt
        self.step_index = 0
        self.time = 0.0
        self.counters = IkCounters()
        self.target = (2.2, 1.4)
        self.prev_target = self.target
        self.bend = 1
        self.softness = 0.0
        self.solution = self._solve(self.target)

    def _solve(self, target: tuple[float, float]) -> Any:
        return ik.solve_2d(
            ROOT, target, UPPER_LEN, LOWER_LEN, bend=self.bend, softness=self.softness
        )

    def step(self, inp: InputState, dt: float, timer: PhaseTimer) -> None:
        self.prev_target = self.target
        if inp.toggles("flip_elbow"):
            self.bend = -self.bend
        x, y = self.target
        x = finite_clamped(inp.values.get("target_x"), x, TARGET_RANGE)
        y = finite_clamped(inp.values.get("target_y"), y, TARGET_RANGE)
        self.softness = finite_clamped(inp.values.get("softness"), self.softness, MAX_SOFTNESS)
        self.softness = max(self.softness, 0.0)
        if inp.pointer_down and inp.pointer is not None:
            x = finite_clamped(inp.pointer[0], x, TARGET_RANGE)
            y = finite_clamped(inp.pointer[1], y, TARGET_RANGE)
        self.target = (x, y)
        with timer.phase("ik"):
            self.solution = self._solve(self.target)
        self.counters.record(self.solution)
        self.step_index += 1
        self.time = self.step_index * dt

    def pose(self, alpha: float) -> tuple[tuple[float, float], Any]:
        """The target interpolated between the last two steps, solved for both elbow sides.

        Returns the target and one batched solution of shape ``(2,)``: index 0 is the chosen
        side, index 1 the ghost (the other solution for the same target).
        """
        (px, py), (cx, cy) = self.prev_target, self.target
        target = (lerp(px, cx, alpha), lerp(py, cy, alpha))
        both = ik.solve_2d(
            ROOT,
            target,
            UPPER_LEN,
            LOWER_LEN,
            bend=np.array([self.bend, -self.bend]),
            softness=self.softness,
        )
        return target, both

    def trace_header(self) -> dict[str, Any]:
        return {
            "scene": "lab",
            "dt": self.dt,
            "terrain": None,
            "limbs": {"arm": {"upper": UPPER_LEN, "lower": LOWER_LEN}},
        }

    def trace_characters(self) -> list[dict[str, Any]]:
        sol = self.solution
        arm = limb_record(ROOT, sol.elbow, sol.hand, self.target)
        return [{"id": 0, "pelvis": None, "facing": 1, "limbs": {"arm": arm}, "pointer": None}]

    def stats_sections(self) -> dict[str, Any]:
        return {}


class LabAutopilot:
    """Sweeps the target through the dead zone and past full reach, flipping the elbow."""

    def __init__(self, sim: LabSim, config: SceneConfig) -> None:
        self.dt = config.dt

    def next_input(self, sim: LabSim) -> InputState:
        t = sim.step_index * self.dt
        # radius sweeps 0.2 … 3.9 m (inside the dead zone to beyond reach) with a 7.8 s period,
        # ending the default 600-frame run on a clearly bent, reachable pose
        radius = 2.05 - 1.85 * math.cos(2 * math.pi * t / 7.8)
        angle = 1.5 + 2 * math.pi * t / 12.0
        pointer = (radius * math.cos(angle), radius * math.sin(angle))
        actions = ("flip_elbow",) if sim.step_index in (200, 400) else ()
        values = {"softness": 0.35} if sim.step_index == 300 else {}
        return InputState(pointer=pointer, pointer_down=True, actions=actions, values=values)
