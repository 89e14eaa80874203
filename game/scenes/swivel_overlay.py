"""The swivel scene's geometry of the solve, drawn over the arm: the pole plane, the danger
cone round the shoulder-to-target axis with the pole's lever and angle, and the swivel
circle (every elbow that reaches) with ghost arms, the twist arc and the α arc."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numpy.typing import NDArray

from game.palette import PALETTE, faint, mix
from game.pen3d import Pen3D
from game.scenes.swivel import DANGER_ANGLE, ROOT, UPPER_LEN, Pose, SwivelFrame
from game.scenes.swivel_labels import WorldLabels
from game.scenes.swivel_shapes import arc, circle_points


def draw_pole_plane(
    pen: Pen3D, labels: WorldLabels, pose: Pose, sol: Any, frame: SwivelFrame
) -> None:
    """The plane through shoulder, target and pole: a faint sheet, brighter on the pole side."""
    root = np.asarray(ROOT, dtype=float)
    pole_rel = np.asarray(pose.pole) - root
    length = max(float(sol.distance), float(sol.reach), float(pole_rel @ frame.axis)) + 0.5
    front = max(float(pole_rel @ frame.side), frame.radius, 0.6) + 0.4
    color = PALETTE["warn"] if frame.fallback else PALETTE["pole"]
    u, v = frame.axis, frame.side

    def quad(lo: float, hi: float) -> NDArray[np.float64]:
        return root + np.array(
            [-0.4 * u + lo * v, length * u + lo * v, length * u + hi * v, -0.4 * u + hi * v]
        )

    pen.polygon(quad(-1.0, 0.0), faint(color, 0.06))
    pen.polygon(quad(0.0, front), faint(color, 0.14))
    pen.polyline(quad(-1.0, front), faint(color, 0.55), 1.0, closed=True)
    name = "fallback plane (pole on the axis)" if frame.fallback else "pole plane"
    labels.add(
        root + length * u + 0.5 * front * v,
        name,
        faint(color, 0.95),
        17,
        "midleft",
        (8, 0),
        rank=5,
    )
    if frame.fallback:
        # the solver's documented rule: the world axis least aligned with the axis (first on ties)
        k = int(np.argmin(np.abs(frame.axis)))
        tip = root + 1.3 * v
        pen.segments(root[None], tip[None], PALETTE["warn"], 3.0)
        note = f"fallback: world +{'xyz'[k]}, made perpendicular"
        labels.add(tip, note, PALETTE["warn"], 16, "center", (0, 0), rank=2)


def draw_danger(pen: Pen3D, labels: WorldLabels, pose: Pose, frame: SwivelFrame) -> None:
    """The danger cone around the axis, the pole's lever to the axis and its angle."""
    root = np.asarray(ROOT, dtype=float)
    pole = np.asarray(pose.pole, dtype=float)
    along = float((pole - root) @ frame.axis)
    foot = root + along * frame.axis  # the pole's perpendicular foot on the axis line
    closeness = min(max(1.0 - frame.pole_angle / (2 * DANGER_ANGLE), 0.0), 1.0)
    cone_color = mix(PALETTE["warn"], PALETTE["bad"], closeness)
    strength = 0.25 + 0.75 * closeness
    station = abs(along) if abs(along) > 0.3 else 1.2
    sign = 1.0 if along >= 0 else -1.0
    rim_centre = root + sign * station * frame.axis
    rim = circle_points(
        rim_centre, frame.side, frame.binormal, station * math.tan(DANGER_ANGLE), 48
    )
    pen.segments(rim, np.roll(rim, -1, axis=0), cone_color, 1.0 + closeness, strength=strength)
    # four spokes, 45° off the pole plane so none lies on the pole's lever
    spokes = rim[6::12]
    pen.segments(
        np.broadcast_to(root, spokes.shape), spokes, cone_color, 1.0, strength=strength * 0.6
    )
    lever = float(np.linalg.norm(pole - foot))
    lever_color = PALETTE["bad"] if frame.pole_angle < DANGER_ANGLE else PALETTE["pole"]
    pen.segments(pole[None], foot[None], lever_color, 1.5, dashed=True)
    pen.sphere(foot, 0.035, lever_color)
    labels.add(
        (pole + foot) / 2,
        f"lever {lever:.2f} m",
        faint(lever_color, 0.9),
        15,
        "midright",
        (-8, 0),
        rank=3,
        along=pole + np.array([[0.35], [0.65], [0.2], [0.8]]) * (foot - pole),
    )
    arm = pole - root
    if float(np.linalg.norm(arm)) > 1e-6 and frame.pole_angle > 1e-4:
        axis_dir = sign * frame.axis
        toward = arm - (arm @ axis_dir) * axis_dir
        toward /= np.linalg.norm(toward)
        points = arc(root, axis_dir, toward, 0.9, frame.pole_angle)
        pen.polyline(points, cone_color, 2.0)
        labels.add(
            points[len(points) // 2],
            f"{math.degrees(frame.pole_angle):.1f}°",
            cone_color,
            16,
            "center",
            (0, 0),
            rank=3,
            along=points[[8, 16, 4, 20]],  # elsewhere on its arc (24 points)
        )


def draw_swivel(pen: Pen3D, labels: WorldLabels, pose: Pose, sol: Any, frame: SwivelFrame) -> None:
    """The shoulder-to-target axis, then the swivel circle with ghost arms around it, the
    twist arc and the α arc (or, where the circle shrinks to a point, a note saying so)."""
    root = np.asarray(ROOT, dtype=float)
    hand = np.asarray(sol.hand, dtype=float)
    axis_end = root + max(float(sol.distance), float(sol.reach)) * frame.axis
    pen.segments(root[None], axis_end[None], PALETTE["text_dim"], 1.0, strength=0.8, dashed=True)
    if frame.radius < 1e-3:
        labels.add(
            hand,
            "swivel circle shrinks to a point",
            faint(PALETTE["accent"], 0.9),
            15,
            "midtop",
            (0, 16),
            rank=3,
        )
        return
    _draw_circle(pen, labels, sol, frame)
    _draw_twist(pen, labels, pose, sol, frame)
    _draw_alpha(pen, labels, sol, frame)


def _draw_circle(pen: Pen3D, labels: WorldLabels, sol: Any, frame: SwivelFrame) -> None:
    """The swivel circle, 16 ghost arms through it, its centre and radius to where the
    pole alone puts the elbow (twist 0, marked by a small ring), and its name."""
    root = np.asarray(ROOT, dtype=float)
    hand = np.asarray(sol.hand, dtype=float)
    angles = np.linspace(0.0, 2 * math.pi, 97)
    pen.polyline(frame.circle(angles), PALETTE["accent"], 2.0)
    ghosts = frame.circle(np.linspace(0.0, 2 * math.pi, 16, endpoint=False))
    ghost = PALETTE["ghost"]
    pen.segments(np.broadcast_to(root, ghosts.shape), ghosts, ghost, 1.0, strength=1.0)
    pen.segments(ghosts, np.broadcast_to(hand, ghosts.shape), ghost, 1.0, strength=0.8)
    pen.segments(frame.centre[None], frame.circle(0.0)[None], faint(PALETTE["accent"], 0.6), 1.0)
    pen.sphere(frame.centre, 0.03, PALETTE["accent"])
    top = frame.circle(math.pi)
    labels.add(
        top,
        f"swivel circle  r = L1·sin α = {frame.radius:.2f} m",
        faint(PALETTE["accent"], 0.95),
        16,
        "midright",
        (-10, 0),
        rank=4,
        along=frame.circle(math.pi + np.array([-0.4, 0.4, -0.8, 0.8, 1.6, -1.6, 3.14])),
    )
    pen.polyline(
        circle_points(frame.circle(0.0), frame.side, frame.binormal, 0.07, 20),
        PALETTE["pole"],
        2.0,
        closed=True,
    )


def _draw_twist(pen: Pen3D, labels: WorldLabels, pose: Pose, sol: Any, frame: SwivelFrame) -> None:
    """With a twist: the arm where the pole alone (twist 0) puts it, dashed, and the twist's
    arc along the circle with its angle."""
    if abs(pose.twist) > 1e-3:
        root = np.asarray(ROOT, dtype=float)
        hand = np.asarray(sol.hand, dtype=float)
        zero = frame.circle(0.0)
        pen.polyline(np.stack([root, zero, hand]), faint(PALETTE["pole"], 0.7), 2.0, dashed=True)
        twist_arc = frame.circle(np.linspace(0.0, pose.twist, 32))
        pen.polyline(twist_arc, PALETTE["soft_band"], 4.0)
        mid = frame.circle(pose.twist / 2)
        labels.add(
            mid,
            f"twist {math.degrees(pose.twist):+.0f}°",
            PALETTE["soft_band"],
            17,
            "midleft",
            (12, 0),
            rank=3,
        )


def _draw_alpha(pen: Pen3D, labels: WorldLabels, sol: Any, frame: SwivelFrame) -> None:
    """The α arc at the shoulder, from the axis to the upper arm, and its name."""
    root = np.asarray(ROOT, dtype=float)
    elbow_dir = (np.asarray(sol.elbow) - root) / UPPER_LEN
    toward = elbow_dir - (elbow_dir @ frame.axis) * frame.axis
    norm = float(np.linalg.norm(toward))
    if norm > 1e-6:
        points = arc(root, frame.axis, toward / norm, 0.6, frame.alpha)
        pen.polyline(points, PALETTE["accent"], 2.0)
        at = points[len(points) // 2]
        others = points[[8, 16, 4, 20]]  # elsewhere on its arc (24 points)
        labels.add(at, "α", PALETTE["accent"], 22, "center", (0, -12), rank=3, along=others)
