"""The 3-D hero drawn through a :class:`~game.pen3d.Pen3D`: tapered capsules whose width
falls with distance, soft contact shadows on the heightfield, and the O overlay (each
leg's swivel circle and pole, the ground normal under each foot, the planted pivots)."""

from __future__ import annotations

import math

import numpy as np

from game.canvas import Canvas
from game.palette import PALETTE
from game.pen3d import Pen3D
from game.projection import OrbitCamera
from game.world.heightfield import Heightfield
from game.world.rig import Rig
from game.world.types import FloatArray
from game.world.walk3d import Pose3D
from game.world.walk3d_path import heading_vector

SHOE = (70, 52, 40)
EYE = PALETTE["black"]
SHADOW_ALPHA = 120  # a planted foot's shadow at full strength (0-255)
SHADOW_FADE_M = 0.35  # a foot this high over the ground casts no shadow
SHADOW_LIFT_M = 0.004  # shadows sit this far above the ground (drawn over the mesh)
SHADOW_SIZE = (0.15, 0.07)  # m: the shadow's half-length along the foot and half-width
NORMAL_LEN_M = 0.3
CIRCLE_POINTS = 40
UP = np.array([0.0, 1.0, 0.0])


def draw_hero(pen: Pen3D, pose: Pose3D, rig: Rig) -> None:
    """Legs, feet, pelvis, torso, arms and head as shaded capsules, depth-sorted."""
    roots, elbows, ends = pose.roots, pose.elbows, pose.ends
    trousers, shirt, skin = PALETTE["trousers"], PALETTE["shirt"], PALETTE["skin"]
    for leg in (2, 3):
        pen.bone(roots[leg], elbows[leg], (0.075, 0.06), trousers)
        pen.bone(elbows[leg], ends[leg], (0.06, 0.045), trousers)
        sole = pose.soles[leg - 2]
        pen.bone(sole[0] + 0.03 * UP, sole[2] + 0.02 * UP, (0.045, 0.035), SHOE)
    pen.bone(roots[2], roots[3], (0.09, 0.09), trousers)
    # the neck, then the torso, its round top at the shoulders' line, not up round the chin
    pen.bone(pose.chest, pose.head - 0.6 * rig.body.head_radius * UP, (0.05, 0.045), skin)
    pen.bone(pose.pelvis, pose.chest - 0.08 * UP, (0.13, 0.15), shirt)
    pen.bone(roots[0], roots[1], (0.06, 0.06), shirt)
    for arm in (0, 1):
        pen.bone(roots[arm], elbows[arm], (0.05, 0.042), shirt)
        pen.bone(elbows[arm], ends[arm], (0.04, 0.035), skin)
    _draw_head(pen, pose, rig)


def _draw_head(pen: Pen3D, pose: Pose3D, rig: Rig) -> None:
    """The head with its hair at the back and top, two eyes and a nose in front, in the
    rig's colours, so which way he faces reads from any side: seen from behind, the hair's
    sphere (nearer the eye than the head's) covers the head; from the front, the eyes and
    the nose are drawn over the face, from the side the near eye (the far one is behind
    the head's sphere)."""
    head, r = pose.head, rig.body.head_radius
    forward_xz = heading_vector(pose.yaw)
    forward = np.array([forward_xz[0], 0.0, forward_xz[1]])
    right = np.array([-forward_xz[1], 0.0, forward_xz[0]])
    pen.sphere(head + r * (0.2 * UP - 0.2 * forward), 0.95 * r, rig.colors.hair)
    pen.sphere(head, r, rig.colors.skin)
    for side in (-1.0, 1.0):  # on the face, within the head's sphere (no bulge past it)
        pen.sphere(head + r * (0.8 * forward + 0.12 * UP + 0.34 * side * right), 0.12 * r, EYE)
    nose = head + r * (0.8 * forward - 0.1 * UP), head + r * (1.12 * forward - 0.22 * UP)
    pen.bone(nose[0], nose[1], (0.016, 0.012), rig.colors.skin)


def _ellipse(centre: FloatArray, along: FloatArray, half: tuple[float, float]) -> FloatArray:
    """Ground-plane ellipse points (K, 2) (x, z) about ``centre`` with its long axis along
    ``along`` (unit, (2,))."""
    angle = np.linspace(0.0, 2.0 * math.pi, 20, endpoint=False)
    across = np.array([-along[1], along[0]])
    return (
        centre
        + np.cos(angle)[:, None] * half[0] * along
        + np.sin(angle)[:, None] * half[1] * across
    )


def draw_shadows(canvas: Canvas, camera: OrbitCamera, field: Heightfield, pose: Pose3D) -> None:
    """A soft shadow on the ground under each foot, fainter the higher the foot."""
    for sole in pose.soles:
        centre = (sole[0, [0, 2]] + sole[1, [0, 2]]) / 2.0
        along = sole[1, [0, 2]] - sole[0, [0, 2]]
        along = along / max(float(np.linalg.norm(along)), 1e-9)
        height = float(sole[:3, 1].min() - field.height_at(centre[0], centre[1]))
        strength = 1.0 - min(max(height / SHADOW_FADE_M, 0.0), 1.0)
        if strength <= 0.0:
            continue
        layers = []
        for grow in (1.35, 1.0):
            ring = _ellipse(centre, along, (SHADOW_SIZE[0] * grow, SHADOW_SIZE[1] * grow))
            y = field.height_at(ring[:, 0], ring[:, 1]) + SHADOW_LIFT_M
            points = np.stack([ring[:, 0], y, ring[:, 1]], axis=-1)
            px, depth = camera.project(points)
            if depth.min() <= camera.near:
                return
            layers.append(px)
        alpha = int(SHADOW_ALPHA * strength)
        canvas.shade(layers, PALETTE["black"], [alpha // 2, alpha])


def swivel_circle(hip: FloatArray, ankle: FloatArray, upper: float, lower: float) -> FloatArray:
    """The circle of every knee position the leg allows with its hip and ankle where they
    are, (K, 3): about the hip→ankle axis at ``upper·cos α`` from the hip, radius
    ``upper·sin α``, with the law of cosines ``cos α = (L1² + d² − L2²) / (2·L1·d)``."""
    axis = ankle - hip
    d = max(float(np.linalg.norm(axis)), 1e-9)
    axis = axis / d
    cos_a = min(max((upper**2 + d**2 - lower**2) / (2 * upper * d), -1.0), 1.0)
    centre = hip + axis * upper * cos_a
    radius = upper * math.sqrt(1.0 - cos_a**2)
    helper = np.array([1.0, 0.0, 0.0]) if abs(axis[0]) < 0.9 else np.array([0.0, 0.0, 1.0])
    e1 = np.cross(axis, helper)
    e1 /= np.linalg.norm(e1)
    e2 = np.cross(axis, e1)
    angle = np.linspace(0.0, 2.0 * math.pi, CIRCLE_POINTS, endpoint=False)
    ring: FloatArray = centre + radius * (np.cos(angle)[:, None] * e1 + np.sin(angle)[:, None] * e2)
    return ring


def draw_overlay(pen: Pen3D, pose: Pose3D, rig: Rig) -> None:
    """Each leg's swivel circle, its knee pole and the line to it, the ground normal under
    each foot, and a marker on each planted foot's pivot."""
    leg = rig.legs.limb
    for index in (2, 3):
        hip, knee, ankle, pole = (
            pose.roots[index],
            pose.elbows[index],
            pose.ends[index],
            pose.poles[index],
        )
        ring = swivel_circle(hip, ankle, leg.upper, leg.lower)
        pen.polyline(ring, PALETTE["reach"], 1.5, closed=True)
        pen.segments(knee[None], pole[None], PALETTE["pole"], 1.5, dashed=True)
        pen.diamond(pole, 0.04, PALETTE["pole"])
        sole = pose.soles[index - 2]
        foot = (sole[0] + sole[1]) / 2.0
        normal = pose.normals[index - 2]
        pen.segments(foot[None], (foot + NORMAL_LEN_M * normal)[None], PALETTE["ok"], 2.0)
        if pose.planted[index - 2]:
            low = sole[:2][int(np.argmin(sole[:2, 1]))]  # the heel or the ball it rolls on
            pen.sphere(low, 0.025, PALETTE["accent"])
