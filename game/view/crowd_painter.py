"""The crowd's characters other than the hero, drawn with level of detail: stick figures
built with numpy and drawn in batches per colour, one polyline per limb and foot, the
heads put down from cached sprites in one call (see :meth:`game.canvas.Canvas.polylines`
and :meth:`~game.canvas.Canvas.discs`)."""

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
from game.world.feet import sole_points

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
    if pose.pelvis.shape[0] < 2:
        return
    # the rows in tint order (stable: each tint's rows in their own order), so that each
    # tint's batch below is a slice of every array, not a masked copy
    tint = ids[1:] % TINTS
    index = 1 + np.argsort(tint, kind="stable")
    tint_end = np.cumsum(np.bincount(tint, minlength=TINTS)).tolist()
    to_px = camera.to_screen
    # every limb as a polyline root -> mid -> end: (n, 4 limbs, 3 joints, 2)
    limbs = to_px(np.stack([pose.roots[index], joints[0, index], joints[1, index]], axis=2))
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
    far_arm, far_leg = limbs[rows, ARMS.start + 1 - near], limbs[rows, LEGS.start + 1 - near]
    near_arm, near_leg = limbs[rows, ARMS.start + near], limbs[rows, LEGS.start + near]
    far = np.stack([far_arm, far_leg], axis=1)  # per character: far arm, then far leg
    feet = to_px(_feet(pose, joints[1], index, rig))
    hair_color, palettes = tint_palettes(rig.colors)
    radii = (HEAD_HAIR[2] * head_px, HEAD_FACE[2] * head_px)
    for t, (far_color, trousers, shirt, skin, shoes) in enumerate(palettes):
        mine = slice(tint_end[t - 1] if t else 0, tint_end[t])
        if mine.start == mine.stop:
            continue
        canvas.polylines(far[mine].reshape(-1, 3, 2), far_color, LIMB_PX)
        canvas.polylines(near_leg[mine], trousers, LIMB_PX)
        canvas.polylines(feet[mine].reshape(-1, 3, 2), shoes, LIMB_PX)
        canvas.polylines(neck[mine], skin, LIMB_PX)
        canvas.polylines(torso[mine], shirt, TORSO_PX)
        canvas.polylines(near_arm[mine], shirt, LIMB_PX)
        heads_px = np.stack([hair[mine], face[mine]], axis=1)  # per head: hair, then face
        canvas.discs(heads_px, radii, (hair_color, skin))


def _feet(
    pose: PoseInputs, hands: NDArray[np.float64], index: NDArray[np.intp], rig: Rig
) -> NDArray[np.float64]:
    """Each drawn character's two feet as polylines, world metres, shape ``(n, 2 feet, 3,
    2)``: ankle -> ball (so the leg meets the sole) -> toe tip (the toes bend there)."""
    ankle = hands[index][:, LEGS]  # (n, 2, 2)
    spin = np.broadcast_to(pose.spin[index, None], (index.size, 2))
    angle, bend = pose.foot_angle[index], pose.foot_bend[index]
    heel_ball_toe = sole_points(ankle, angle, bend, spin, rig.legs)  # (n, 2, 3, 2)
    return np.concatenate([ankle[:, :, None], heel_ball_toe[:, :, 1:]], axis=2)
