"""The swivel scene's world around the arm: the floor grid, the reach shells, the pedestal
under the shoulder and the drop lines and shadows on the floor."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from game.palette import PALETTE, Color, faint, mix
from game.pen3d import Pen3D
from game.projection import OrbitCamera
from game.scenes.swivel import LOWER_LEN, ROOT, UPPER_LEN, Pose
from game.scenes.swivel_labels import WorldLabels
from game.scenes.swivel_shapes import ring

GROUND_Y = -1.8  # metres: the grid floor under the shoulder
GRID_HALF = 5  # the grid spans ±5 m in x and z
AXIS_COLORS: tuple[Color, Color, Color] = (PALETTE["bad"], PALETTE["ok"], PALETTE["reach"])


def draw_static(pen: Pen3D) -> None:
    """What only the camera changes: the floor grid and the reach shells (drawn far to near
    among themselves)."""
    _draw_grid(pen)
    _draw_shells(pen)
    pen.flush()


def _draw_grid(pen: Pen3D) -> None:
    """The floor grid, fading at its rim; its centre lines are the world x and z axes."""
    ticks = np.arange(-GRID_HALF, GRID_HALF + 1, dtype=float)
    pieces = np.linspace(-GRID_HALF, GRID_HALF, 2 * GRID_HALF + 1)
    start, stop = pieces[:-1], pieces[1:]
    for along_x in (True, False):
        for tick in ticks:
            a = np.zeros((len(start), 3))
            b = np.zeros((len(start), 3))
            a[:, 1] = b[:, 1] = GROUND_Y
            a[:, 0 if along_x else 2], b[:, 0 if along_x else 2] = start, stop
            a[:, 2 if along_x else 0] = b[:, 2 if along_x else 0] = tick
            rim = np.hypot((start + stop) / 2, tick) / (GRID_HALF * 1.25)
            # the grid's centre lines are the world x (red) and z (blue) axes
            color = AXIS_COLORS[2 if along_x else 0] if tick == 0 else PALETTE["axis"]
            fade = np.clip(1.0 - rim**2, 0.0, 1.0) * (0.55 if tick == 0 else 0.7)
            pen.segments(a, b, color, 1.0, strength=fade)


SHELLS = (
    (UPPER_LEN + LOWER_LEN, "reach", "reach L1+L2 = 3.2"),
    (abs(UPPER_LEN - LOWER_LEN), "dead_zone", "fold |L1−L2| = 0.8"),
)


def _draw_shells(pen: Pen3D) -> None:
    """The reach sphere shells |L1 − L2| and L1 + L2 as faint silhouette and equator rings."""
    root = np.asarray(ROOT, dtype=float)
    to_eye = pen.camera.eye - root
    dist = float(np.linalg.norm(to_eye))
    for (radius, color_name, _), equator in zip(SHELLS, EQUATORS, strict=True):
        color = PALETTE[color_name]
        pen.segments(equator, np.roll(equator, -1, axis=0), color, 1.0, strength=0.3)
        if dist <= radius * 1.02:
            continue  # the eye is inside the shell: no silhouette
        # silhouette of a sphere seen from the eye: the circle of tangency, centred
        # r²/D toward the eye with radius r·√(1 − r²/D²)
        centre = root + to_eye / dist * radius**2 / dist
        outline = ring(centre, to_eye, radius * math.sqrt(1 - (radius / dist) ** 2), 72)
        pen.segments(outline, np.roll(outline, -1, axis=0), color, 1.0, strength=0.45)


def label_shells(labels: WorldLabels, camera: OrbitCamera) -> None:
    """Each shell's name at the front of its equator as ``camera`` sees it (labels stay out
    of the static layer)."""
    for (_, color_name, name), equator in zip(SHELLS, EQUATORS, strict=True):
        front = equator[np.argmin(camera.to_camera(equator)[:, 2])]
        labels.add(front, name, faint(PALETTE[color_name], 0.75), 15, "midtop", (0, 4), rank=5)


# Rings that never move, made once: the shells' equators, the pedestal, a drop ring at the origin
FOOT = np.array([ROOT[0], GROUND_Y, ROOT[2]])  # where the post under the shoulder meets the floor
EQUATORS = tuple(ring(ROOT, (0, 1, 0), radius, 64) for radius, _, _ in SHELLS)
PEDESTAL = ring(FOOT, (0, 1, 0), 0.35, 32)
DROP_RING = ring((0.0, 0.0, 0.0), (0, 1, 0), 0.14, 24)


def draw_ground(pen: Pen3D, sol: Any, pose: Pose) -> None:
    """A pedestal and drop shadows (the grid is in the static layer)."""
    shadow = mix(PALETTE["background"], PALETTE["black"], 0.5)
    flat = np.array([1.0, 0.0, 1.0])
    joints = np.stack([np.asarray(ROOT, float), np.asarray(sol.elbow), np.asarray(sol.hand)]) * flat
    joints[:, 1] = GROUND_Y
    pen.polyline(joints, shadow, 7.0)
    pen.polygon(PEDESTAL, mix(PALETTE["background"], PALETTE["panel_edge"], 0.5))
    pen.segments(FOOT[None], np.asarray(ROOT, float)[None], PALETTE["panel_edge"], 5.0)
    for point, color in ((pose.target, PALETTE["target"]), (pose.pole, PALETTE["pole"])):
        p = np.asarray(point, dtype=float)
        drop = np.array([p[0], GROUND_Y, p[2]])
        pen.segments(p[None], drop[None], color, 1.0, strength=0.45, dashed=True)
        pen.outline(drop + DROP_RING, faint(color, 0.6), closed=True)
