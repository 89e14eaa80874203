"""The crowd's characters other than the hero, drawn with level of detail: stick figures
batched per colour, built with numpy (about a tenth of the hero's cost per character)."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from game.camera import Camera2D
from game.canvas import Canvas
from game.palette import PALETTE, Color, mix
from game.view.hero_painter import HEAD_FACE, HEAD_HAIR
from game.world.character import ARMS, LEGS, PoseInputs
from game.world.gait import sole_points

if TYPE_CHECKING:
    from game.world.rig import Rig, RigColors

SKY: Color = (54, 62, 92)  # the horizon colour the crowd fades toward
TINTS = 4  # colour variants in the crowd (character id mod TINTS)
TINT_TARGETS: tuple[Color, ...] = ((200, 90, 80), (90, 170, 120), (190, 160, 80), (150, 110, 200))
CROWD_DEPTH = 0.3  # the crowd is blended this much toward the sky, to sit behind the hero
LIMB_PX = 3
TORSO_PX = 6

Tones = tuple[Color, Color, Color, Color, Color]


@functools.lru_cache(maxsize=8)
def tint_palettes(colors: RigColors) -> tuple[Color, list[Tones]]:
    """The hair, and per tint: far limbs, trousers, shirt, skin, shoes (blended toward the
    sky for depth; the legs a little less, so the crowd reads as standing on the ground)."""
    palettes = []
    for target in TINT_TARGETS[:TINTS]:
        shirt = mix(mix(colors.shirt, target, 0.7), SKY, CROWD_DEPTH)
        trousers = mix(mix(colors.trousers, target, 0.4), SKY, 0.5 * CROWD_DEPTH)
        far = mix(trousers, PALETTE["background"], colors.far_shade)
        skin = mix(colors.skin, SKY, CROWD_DEPTH)
        shoes = mix(colors.shoes, SKY, 0.5 * CROWD_DEPTH)
        palettes.append((far, trousers, shirt, skin, shoes))
    return mix(colors.hair, SKY, CROWD_DEPTH), palettes


def draw_crowd(
    canvas: Canvas,
    camera: Camera2D,
    pose: PoseInputs,
    joints: NDArray[np.float64],
    ids: NDArray[np.intp],
    rig: Rig,
) -> None:
    """Stick figures for every row of ``pose`` but the first (the hero's), batched per
    colour: ``joints`` are the rows' elbows and hands (knees and ankles), shape ``(2,
    rows, 4, 2)``, and ``ids`` the rows' character ids (their tint)."""
    index = np.arange(1, pose.pelvis.shape[0])
    if index.size == 0:
        return
    to_px = camera.to_screen
    roots = to_px(pose.roots[index])
    elbows = to_px(joints[0, index])
    hands = to_px(joints[1, index])
    # (n, 4 limbs, 2 bones, 2 ends, 2)
    bones = np.stack([np.stack([roots, elbows], axis=2), np.stack([elbows, hands], axis=2)], axis=2)
    chest = to_px(pose.chest[index])
    torso = np.stack([to_px(pose.pelvis[index]), chest], axis=1)
    facing = pose.facing[index, None]
    heads = to_px(pose.head[index])
    neck = np.stack([chest, heads], axis=1)
    # the hero's hair cap and face disc (no skull disc under them), 0.9 times the size
    head_px = 0.9 * rig.body.head_radius * camera.scale
    hair = heads + head_px * np.hstack([HEAD_HAIR[0] * facing, np.full_like(facing, -HEAD_HAIR[1])])
    face = heads + head_px * np.hstack([HEAD_FACE[0] * facing, np.full_like(facing, -HEAD_FACE[1])])
    near = (pose.facing[index] > 0).astype(np.intp)  # the right side faces +x viewers
    rows = np.arange(index.size)
    far_arm, far_leg = bones[rows, ARMS.start + 1 - near], bones[rows, LEGS.start + 1 - near]
    near_arm, near_leg = bones[rows, ARMS.start + near], bones[rows, LEGS.start + near]
    tint = ids[index] % TINTS
    soles = camera.to_screen(_sole_sticks(pose, joints[1], index, rig))
    hair_color, palettes = tint_palettes(rig.colors)
    for t, (far, trousers, shirt, skin, shoes) in enumerate(palettes):
        mine = tint == t
        if not mine.any():
            continue
        canvas.segments(
            np.concatenate([far_arm[mine], far_leg[mine]], axis=1).reshape(-1, 2, 2),
            far,
            LIMB_PX,
        )
        canvas.segments(near_leg[mine].reshape(-1, 2, 2), trousers, LIMB_PX)
        canvas.segments(soles[mine].reshape(-1, 2, 2), shoes, LIMB_PX)
        canvas.segments(neck[mine], skin, LIMB_PX)
        canvas.segments(torso[mine], shirt, TORSO_PX)
        canvas.segments(near_arm[mine].reshape(-1, 2, 2), shirt, LIMB_PX)
        for cap, head in zip(hair[mine].tolist(), face[mine].tolist(), strict=True):
            canvas.circle(cap, HEAD_HAIR[2] * head_px, hair_color)
            canvas.circle(head, HEAD_FACE[2] * head_px, skin)


def _sole_sticks(
    pose: PoseInputs, hands: NDArray[np.float64], index: NDArray[np.intp], rig: Rig
) -> NDArray[np.float64]:
    """Each drawn character's two feet as two sticks each, world metres, shape ``(n, 2
    feet, 2 sticks, 2 ends, 2)``: ankle → ball (so the leg stick meets the sole) and
    ball → toe tip (the toes bend there)."""
    ankle = hands[index][:, LEGS]  # (n, 2, 2)
    spin = np.broadcast_to(pose.spin[index, None], (index.size, 2))
    angle, bend = pose.foot_angle[index], pose.foot_bend[index]
    heel_ball_toe = sole_points(ankle, angle, bend, spin, rig.legs)  # (n, 2, 3, 2)
    ball, toe = heel_ball_toe[:, :, 1], heel_ball_toe[:, :, 2]
    return np.stack([np.stack([ankle, ball], 2), np.stack([ball, toe], 2)], 2)
