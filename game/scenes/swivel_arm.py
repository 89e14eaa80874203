"""The swivel scene's arm and its two locators in 3-D: the bones and joint balls, the
target's cross, the pole's diamond with the selection rings and the shortfall, their
names, and where they lie on screen for the labels to keep off."""

from __future__ import annotations

from typing import Any

import numpy as np

from game.label_placer import LabelPlacer
from game.palette import PALETTE
from game.pen3d import Pen3D
from game.projection import OrbitCamera
from game.scenes.swivel import ROOT, Pose
from game.scenes.swivel_labels import WorldLabels

LOCATORS = ("target", "pole")
SHOULDER_R, ELBOW_R = 0.17, 0.11  # joint ball radii in metres
HAND_R = 0.08  # the hand's ball radius in metres
POLE_SIZE = 0.17  # half-size of the pole's diamond in metres
CROSS_ARM = 0.22  # half-length of each bar of the target's cross in metres
UPPER_RADII = (0.12, 0.085)  # bone capsule radii in metres at the root and elbow ends
LOWER_RADII = (0.085, 0.06)


def draw_arm(pen: Pen3D, labels: WorldLabels, camera: OrbitCamera, scale: float, sol: Any) -> None:
    """The upper arm and forearm as tapered capsules, the shoulder, elbow and hand balls,
    and the shoulder's and elbow's names."""
    root = np.asarray(ROOT, dtype=float)
    elbow, hand = np.asarray(sol.elbow, dtype=float), np.asarray(sol.hand, dtype=float)
    pen.bone(root, elbow, UPPER_RADII, PALETTE["bone_upper"])
    pen.bone(elbow, hand, LOWER_RADII, PALETTE["bone_lower"])
    pen.sphere(root, SHOULDER_R, PALETTE["axis"])
    pen.sphere(elbow, ELBOW_R, PALETTE["joint"])
    pen.sphere(hand, HAND_R, PALETTE["white"])
    # labels start at the ball's edge as seen (it grows as the camera zooms in)
    labels.beside(
        camera, scale, root, SHOULDER_R, "shoulder", PALETTE["text_dim"], 16, "midright", 1
    )
    labels.beside(camera, scale, elbow, ELBOW_R, "elbow", PALETTE["joint"], 17, "midbottom", 1)


def draw_locators(
    pen: Pen3D,
    labels: WorldLabels,
    camera: OrbitCamera,
    scale: float,
    pose: Pose,
    sol: Any,
    picked: tuple[str | None, str],
) -> None:
    """The target (a 3-D cross), the pole (a diamond), the shortfall, and a ring round the
    locator under the pointer (white) or else the selected one: ``picked`` is (hovered,
    selected)."""
    hover, selected = picked
    target = np.asarray(pose.target, dtype=float)
    pole = np.asarray(pose.pole, dtype=float)
    shortfall = float(sol.shortfall)
    if shortfall > 1e-3:
        pen.segments(
            np.asarray(sol.hand)[None], target[None], PALETTE["shortfall"], 2.0, dashed=True
        )
        # under the target's own name: at the gap's middle it would sit on that name
        # whenever the gap is short
        right = camera.basis[0]
        labels.add(
            target + CROSS_ARM * right,
            f"shortfall {shortfall:.2f} m",
            PALETTE["shortfall"],
            17,
            "midleft",
            (6, 8),
            rank=2,
        )
    arms = CROSS_ARM * np.eye(3)  # a 3-D cross: one bar along each world axis
    pen.segments(target - arms, target + arms, PALETTE["target"], 3.0)
    pen.diamond(pole, POLE_SIZE, PALETTE["pole"])
    for name, point, color, size in (
        ("target", target, PALETTE["target"], CROSS_ARM),
        ("pole", pole, PALETTE["pole"], POLE_SIZE),
    ):
        if name == hover:
            pen.ring_px(point, 17.0, PALETTE["white"])
        elif name == selected:
            pen.ring_px(point, 17.0, color)
        # right of the marker as seen, whatever the zoom
        labels.beside(camera, scale, point, size, name, color, 18, "midleft", 0, lift=-12)


def block_arm(
    placer: LabelPlacer, camera: OrbitCamera, pose: Pose, sol: Any, rings: set[str]
) -> None:
    """Keep labels off the arm and the locators as ``camera`` sees them: the bones and
    balls, the target's cross, the pole's diamond and the ring round each locator named
    in ``rings``, and the foot of the pole's lever on the axis."""
    root = np.asarray(ROOT, dtype=float)
    elbow, hand = np.asarray(sol.elbow, dtype=float), np.asarray(sol.hand, dtype=float)
    target, pole = np.asarray(pose.target, float), np.asarray(pose.pole, float)
    arms = CROSS_ARM * np.eye(3)
    tips = POLE_SIZE * np.concatenate([np.eye(3), -np.eye(3)])
    norm = float(np.linalg.norm(target - root))
    axis = (target - root) / norm if norm > 1e-9 else np.array([1.0, 0.0, 0.0])
    foot = root + float((pole - root) @ axis) * axis
    points = np.vstack([root, elbow, hand, target - arms, target + arms, pole + tips, foot])
    px, depth = camera.project(points)
    seen = (depth > camera.near).tolist()
    ppm = camera.px_per_metre(np.maximum(depth, camera.near)).tolist()
    xy = [(float(x), float(y)) for x, y in px.tolist()]

    def stroke(i: int, j: int, half_width: float) -> None:
        if seen[i] and seen[j]:
            placer.block_stroke(xy[i], xy[j], half_width)

    for i, j, (ra, rb) in ((0, 1, UPPER_RADII), (1, 2, LOWER_RADII)):
        stroke(i, j, max(ra * ppm[i], rb * ppm[j]))
    for i, radius in ((0, SHOULDER_R), (1, ELBOW_R), (2, HAND_R)):
        stroke(i, i, radius * ppm[i])
    for k in range(3):  # the cross's bars, 3 px wide
        stroke(3 + k, 6 + k, 2.5)
    if all(seen[9:15]):
        diamond = px[9:15]
        (x0, y0), (x1, y1) = diamond.min(axis=0).tolist(), diamond.max(axis=0).tolist()
        placer.block((x0, y0, x1 - x0, y1 - y0))
    stroke(15, 15, 0.035 * ppm[15])  # the lever's foot on the axis
    for name in rings:
        ring_px, ring_depth = camera.project(target if name == "target" else pole)
        if float(ring_depth) > camera.near:
            placer.block_disc(ring_px.tolist(), 18.0)
