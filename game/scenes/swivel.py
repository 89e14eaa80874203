"""The swivel scene: docs/MATH.md §6 (the pole plane in 3-D) made visible.

For a reachable target the elbow can sit anywhere on a circle around the shoulder → target
axis (the *swivel circle*); the solver puts it in the plane through shoulder, target and pole,
on the pole's side, then turns it by ``twist`` about the axis. Move the target and the pole
(two locators), twist the elbow, and watch the plane flip when the pole crosses the axis.

This module is the simulation (no pygame) and the autopilot; :mod:`game.scenes.swivel_view`
draws it.
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

import ik
from game.ik_counters import IkCounters
from game.input_state import InputState, finite_clamped
from game.profiling import PhaseTimer
from game.scene import SceneConfig
from game.trace import limb_record
from game.world.easing import lerp

UPPER_LEN = 2.0
LOWER_LEN = 1.2
ROOT = (0.0, 0.0, 0.0)
LOCATOR_RANGE = 6.0  # metres: locators stay inside this box, whatever the input says
DANGER_ANGLE = math.radians(15.0)  # pole this close to the axis line: the plane is unstable
# A distance inside the reachable annulus [|L1 − L2|, L1 + L2] = [0.8, 3.2]: solving a probe
# target this far along the axis always bends the elbow, so it reveals the solver's plane
# (the pole's, or its documented fallback) even when the real target is out of reach.
PROBE_REACH = 2.4

Vec3 = tuple[float, float, float]


@dataclass(frozen=True, slots=True)
class Pose:
    """What the user controls: the two locators and the twist (world metres, radians)."""

    target: Vec3
    pole: Vec3
    twist: float

    def lerp(self, other: Pose, alpha: float) -> Pose:
        """The pose ``alpha`` of the way from ``self`` to ``other`` (for rendering)."""
        a, b = (
            np.array([*self.target, *self.pole, self.twist]),
            np.array([*other.target, *other.pole, other.twist]),
        )
        m = lerp(a, b, alpha)  # per component
        return Pose(_vec3(m[0:3]), _vec3(m[3:6]), float(m[6]))


DEFAULT_POSE = Pose(target=(2.1, 0.5, 0.6), pole=(1.0, 1.5, 1.2), twist=0.0)


def solve(pose: Pose) -> Any:
    """The arm for ``pose``: one :func:`ik.solve_3d` call (shapes ``(3,)``)."""
    return ik.solve_3d(ROOT, pose.target, UPPER_LEN, LOWER_LEN, pose.pole, twist=pose.twist)


def pole_axis_angle(target: ArrayLike, pole: ArrayLike) -> float:
    """Angle in ``[0, π/2]`` between the root → pole direction and the root → target line.

    This is how close the pole is to the axis: the pole plane's normal is
    ``axis × (pole − root)`` with length ``|pole − root|·sin(angle)``, so as the angle goes
    to 0 the plane — and the elbow with it — is decided by ever smaller pole movements.
    0 when the target or the pole sits on the root (no direction to measure).
    """
    axis = np.asarray(target, dtype=float) - ROOT
    arm = np.asarray(pole, dtype=float) - ROOT
    na, nb = float(np.linalg.norm(axis)), float(np.linalg.norm(arm))
    if na < 1e-12 or nb < 1e-12:
        return 0.0
    # angle to the line, not the ray: |cos| folds a pole behind the shoulder onto the same axis
    sin_angle = float(np.linalg.norm(np.cross(axis, arm))) / (na * nb)
    cos_angle = abs(float(axis @ arm)) / (na * nb)
    return math.atan2(sin_angle, cos_angle)


@dataclass(frozen=True, slots=True)
class SwivelFrame:
    """The swivel circle of one solve and the plane the solver picked (world metres).

    Attributes
    ----------
    axis : ndarray, shape (3,)
        Unit shoulder → hand direction (the root → target axis, or the solver's fallback).
    side : ndarray, shape (3,)
        Unit vector perpendicular to ``axis`` toward the pole: the twist-0 elbow direction.
    binormal : ndarray, shape (3,)
        ``axis × side``: positive twist turns the elbow from ``side`` toward it.
    alpha : float
        Shoulder offset from the law of cosines on the used reach.
    centre : ndarray, shape (3,)
        Centre of the swivel circle, ``root + L1·cos α·axis``.
    radius : float
        Radius of the swivel circle, ``L1·sin α``.
    pole_angle : float
        :func:`pole_axis_angle` of the pose.
    fallback : bool
        The solver reported ``DEGENERATE``: it used its documented fallback plane.
    """

    axis: NDArray[np.float64]
    side: NDArray[np.float64]
    binormal: NDArray[np.float64]
    alpha: float
    centre: NDArray[np.float64]
    radius: float
    pole_angle: float
    fallback: bool

    def circle(self, angles: ArrayLike) -> NDArray[np.float64]:
        """Points on the swivel circle at swivel ``angles`` from ``side``, shape ``(..., 3)``."""
        a = np.asarray(angles, dtype=float)[..., None]
        # circle in the plane ⊥ axis: c + r·(cos a·side + sin a·binormal)
        return self.centre + self.radius * (np.cos(a) * self.side + np.sin(a) * self.binormal)


def swivel_frame(pose: Pose, sol: Any) -> SwivelFrame:
    """The circle every elbow could sit on for ``pose.target``, and the pole's choice on it.

    The axis comes from the solution's hand (always at least ``|L1 − L2|`` from the root,
    so defined even for a target on the root). The pole side comes from a probe solve at
    twist 0 with a reachable target along the same axis: whatever plane the solver used —
    the pole's, or its fallback — the probe's elbow lies in it.
    """
    hand = np.asarray(sol.hand, dtype=float) - ROOT
    axis = hand / np.linalg.norm(hand)
    probe = ik.solve_3d(
        ROOT, np.asarray(ROOT) + PROBE_REACH * axis, UPPER_LEN, LOWER_LEN, pose.pole
    )
    arm = np.asarray(probe.elbow, dtype=float) - ROOT
    side = arm - (arm @ axis) * axis  # remove the axial part: what is left points to the pole
    side /= np.linalg.norm(side)
    reach = float(sol.reach)
    # law of cosines at the shoulder: cos α = (L1² + d² − L2²) / (2·L1·d), d the used reach
    cos_alpha = (UPPER_LEN**2 + reach**2 - LOWER_LEN**2) / (2 * UPPER_LEN * reach)
    alpha = math.acos(min(max(cos_alpha, -1.0), 1.0))  # clamp: rounding at the annulus edges
    return SwivelFrame(
        axis=axis,
        side=side,
        binormal=np.cross(axis, side),
        alpha=alpha,
        centre=np.asarray(ROOT) + UPPER_LEN * math.cos(alpha) * axis,
        radius=UPPER_LEN * math.sin(alpha),
        pole_angle=pole_axis_angle(pose.target, pose.pole),
        fallback=int(sol.status) == int(ik.Status.DEGENERATE),
    )


class SwivelSim:
    """One 3-D arm whose target, pole and twist come from the view, the widgets or the autopilot.

    Input ``values``: ``"target"`` and ``"pole"`` as three numbers (clamped into a
    ±``LOCATOR_RANGE`` box; anything not three finite numbers is ignored), ``"twist"`` in
    radians (clamped to ±π). Action ``"reset"`` restores the default pose.
    """

    def __init__(self, config: SceneConfig) -> None:
        self.dt = config.dt
        self.step_index = 0
        self.time = 0.0
        self.counters = IkCounters()
        self.pose = DEFAULT_POSE
        self.prev_pose = DEFAULT_POSE
        self.solution = solve(self.pose)
        self.danger_steps = 0
        self.fallback_steps = 0
        self.plane_flips = 0
        self.last_flip_step: int | None = None
        self._pole_side = _pole_side(self.pose)

    def step(self, inp: InputState, dt: float, timer: PhaseTimer) -> None:
        self.prev_pose = self.pose
        pose = DEFAULT_POSE if "reset" in inp.actions else self.pose
        if "reset" in inp.actions:  # a jump back to the start, not the pole crossing the axis
            self._pole_side = _pole_side(DEFAULT_POSE)
        self.pose = Pose(
            target=_finite_point(inp.values.get("target"), pose.target),
            pole=_finite_point(inp.values.get("pole"), pose.pole),
            twist=finite_clamped(inp.values.get("twist"), pose.twist, math.pi),
        )
        with timer.phase("ik"):
            self.solution = solve(self.pose)
        self.counters.record(self.solution)
        self.step_index += 1
        self.time = self.step_index * dt
        self._watch_the_plane()

    def _watch_the_plane(self) -> None:
        """Count steps near or on the axis, and plane flips (the pole side reversing)."""
        if pole_axis_angle(self.pose.target, self.pose.pole) < DANGER_ANGLE:
            self.danger_steps += 1
        if int(self.solution.status) == int(ik.Status.DEGENERATE):
            self.fallback_steps += 1
        side = _pole_side(self.pose)
        if side is None:
            return  # on the axis: keep the last defined side to compare with the next one
        if self._pole_side is not None and float(side @ self._pole_side) < 0.0:
            self.plane_flips += 1
            self.last_flip_step = self.step_index
        self._pole_side = side

    def pose_at(self, alpha: float) -> Pose:
        """The pose interpolated ``alpha`` of the way from the previous step to this one."""
        return self.prev_pose.lerp(self.pose, alpha)

    def trace_header(self) -> dict[str, Any]:
        return {
            "scene": "swivel",
            "dt": self.dt,
            "terrain": None,
            "limbs": {"arm": {"upper": UPPER_LEN, "lower": LOWER_LEN}},
        }

    def trace_characters(self) -> list[dict[str, Any]]:
        sol = self.solution
        arm = limb_record(ROOT, sol.elbow, sol.hand, self.pose.target, self.pose.pole)
        return [{"id": 0, "pelvis": None, "facing": 1, "limbs": {"arm": arm}, "pointer": None}]

    def stats_sections(self) -> dict[str, Any]:
        return {
            "swivel": {
                "danger_steps": self.danger_steps,
                "fallback_steps": self.fallback_steps,
                "plane_flips": self.plane_flips,
            }
        }


def _pole_side(pose: Pose) -> NDArray[np.float64] | None:
    """Unit part of root → pole perpendicular to the root → target axis (None on the axis)."""
    axis = np.asarray(pose.target, dtype=float) - ROOT
    arm = np.asarray(pose.pole, dtype=float) - ROOT
    length = float(np.linalg.norm(axis))
    if length < 1e-9:
        return None
    axis /= length
    side = arm - (arm @ axis) * axis  # reject the axial component
    norm = float(np.linalg.norm(side))
    # relative epsilon: below it the side's direction is rounding noise
    return side / norm if norm > 1e-9 * max(float(np.linalg.norm(arm)), 1.0) else None


def _vec3(values: Sequence[float] | NDArray[np.float64]) -> Vec3:
    return (float(values[0]), float(values[1]), float(values[2]))


def _finite_point(value: Any, fallback: Vec3) -> Vec3:
    """Three finite numbers clamped into the locator box; ``fallback`` for anything else."""
    if not isinstance(value, Sequence) or isinstance(value, str) or len(value) != 3:
        return fallback
    coords = [finite_clamped(v, math.nan, LOCATOR_RANGE) for v in value]
    return fallback if any(math.isnan(c) for c in coords) else _vec3(coords)


# -- autopilot --------------------------------------------------------------------------------
Keys = tuple[tuple[float, float], ...]

LOOP_SECONDS = 12.0
# (time s, value) keyframes; the script loops every LOOP_SECONDS. Its first 4.4 s tell the
# whole story twist-free (so a short headless run can check the elbow against the pole plane):
# one pole orbit (0–2 s), out of reach and back (2–3.3 s), the pole through the axis (3–4.4 s).
DISTANCE_KEYS: Keys = (
    (0.0, 2.35),
    (1.0, 2.6),
    (2.0, 2.3),
    (2.5, 3.7),  # beyond L1 + L2 = 3.2: the straight arm and the shortfall
    (2.9, 3.7),
    (3.3, 2.3),
    (4.4, 2.3),
    (5.4, 3.4),
    (6.2, 2.4),
    (7.6, 1.35),  # close in: the widest swivel circle
    (8.4, 1.6),
    (9.2, 2.35),
    (LOOP_SECONDS, 2.35),
)
AZIMUTH_KEYS: Keys = (
    (0.0, 0.2),
    (2.7, -0.3),
    (4.4, 0.3),
    (6.0, 0.0),
    (8.0, 0.1),
    (10.0, 0.17),
    (LOOP_SECONDS, 0.2),
)
ELEVATION_KEYS: Keys = (
    (0.0, 0.2),
    (2.0, 0.45),
    (2.7, 0.3),
    (6.0, 0.3),
    (8.0, 0.5),
    (10.0, 0.25),
    (LOOP_SECONDS, 0.2),
)
# The pole sits over the middle of the arm at signed distance R from the axis, at orbit angle β.
# R passes through 0 (held on the axis 3.5–3.9 s: the fallback), so the plane flips.
POLE_RADIUS_KEYS: Keys = ((0.0, 1.5), (3.0, 1.5), (3.5, 0.0), (3.9, 0.0), (4.4, -1.5), (12.0, -1.5))
POLE_ORBIT_KEYS: Keys = (
    (0.0, 3.0),
    (2.0, 3.0 + 2 * math.pi),  # one full orbit: the elbow sweeps the whole circle
    (4.4, 3.0 + 2 * math.pi),
    (LOOP_SECONDS, 3.0 + 5 * math.pi),  # with R < 0 this meets the start again
)
TWIST_KEYS: Keys = (
    (0.0, 0.0),
    (4.6, 0.0),
    (5.6, 0.7),
    (6.8, -0.5),
    (7.8, 0.0),
    (9.2, 0.45),
    (10.6, 0.45),
    (11.6, 0.0),
    (LOOP_SECONDS, 0.0),
)
POLE_ALONG = 0.55  # the pole's position along the axis, as a fraction of the target distance


def _track(t: float, keys: Keys, eased: bool = True) -> float:
    """The keyframed value at time ``t`` (smoothstep between keys, or linear)."""
    times = [k[0] for k in keys]
    i = min(max(bisect.bisect_right(times, t) - 1, 0), len(keys) - 2)
    (t0, v0), (t1, v1) = keys[i], keys[i + 1]
    f = min(max((t - t0) / (t1 - t0), 0.0), 1.0)
    if eased:
        f = f * f * (3.0 - 2.0 * f)  # smoothstep: zero velocity at each key
    return v0 + (v1 - v0) * f


def _perpendicular_basis(axis: NDArray[np.float64]) -> tuple[NDArray[np.float64], ...]:
    """Two unit vectors perpendicular to unit ``axis``: the "up-most" one and ``axis × it``."""
    ref = np.array([0.0, 1.0, 0.0]) if abs(axis[1]) < 0.95 else np.array([1.0, 0.0, 0.0])
    e1 = ref - (ref @ axis) * axis  # Gram–Schmidt
    e1 /= np.linalg.norm(e1)
    return e1, np.cross(axis, e1)


def autopilot_pose(t: float) -> Pose:
    """The scripted pose at time ``t`` seconds (loops every ``LOOP_SECONDS``)."""
    t = t % LOOP_SECONDS
    d = _track(t, DISTANCE_KEYS)
    az, el = _track(t, AZIMUTH_KEYS), _track(t, ELEVATION_KEYS)
    # spherical direction: azimuth about +y (right-hand, so +x turns toward −z), elevation up
    axis = np.array([math.cos(el) * math.cos(az), math.sin(el), -math.cos(el) * math.sin(az)])
    e1, e2 = _perpendicular_basis(axis)
    radius, beta = _track(t, POLE_RADIUS_KEYS), _track(t, POLE_ORBIT_KEYS, eased=False)
    pole = POLE_ALONG * d * axis + radius * (math.cos(beta) * e1 + math.sin(beta) * e2)
    return Pose(
        _vec3(np.asarray(ROOT) + d * axis), _vec3(np.asarray(ROOT) + pole), _track(t, TWIST_KEYS)
    )


class SwivelAutopilot:
    """Orbits the pole around the axis (and once through it), moves the target through and
    out of reach, and twists the elbow a little; deterministic."""

    def __init__(self, sim: SwivelSim, config: SceneConfig) -> None:
        self.dt = config.dt

    def next_input(self, sim: SwivelSim) -> InputState:
        pose = autopilot_pose((sim.step_index + 1) * self.dt)
        values = {"target": list(pose.target), "pole": list(pose.pole), "twist": pose.twist}
        return InputState(values=values)
