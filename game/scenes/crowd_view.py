"""Drawing the crowd scene with level of detail: the hero in full, everyone else as sticks.

The hero (character 0) is drawn exactly as in the walk scene, its interpolated pose solved
each frame. The rest of the crowd is culled to the visible x range and drawn from the
simulation's own solves: the last two steps' joints blended by the frame's ``alpha`` (one
batched solve of every limb per step is all the crowd costs the solver). They are drawn
as aliased ``Canvas.segments`` batches built with numpy, one call per colour (far limbs,
legs, arms and torso per tint), plus two discs per head (hair, face): about a tenth of the
hero's cost per character. The camera follows the hero.
"""

from __future__ import annotations

from contextlib import nullcontext
from dataclasses import fields
from typing import TYPE_CHECKING, Any, cast

import numpy as np
from numpy.typing import NDArray

from game.canvas import Canvas, WorldPen
from game.input_state import InputState, RawInput
from game.layout import characters_text, font_px, ui_scale
from game.palette import PALETTE, Color, mix
from game.profiling import PhaseTimer
from game.scene import SceneSpec
from game.scenes.crowd import CrowdAutopilot, CrowdSim
from game.scenes.side_view import foreshortened_joints, seen_from_the_side
from game.scenes.walk_view import HEAD_FACE, HEAD_HAIR, WalkView, digits_as_8
from game.world.character import ARMS, LEGS, PoseInputs, solve_pose
from game.world.feet import sole_points

if TYPE_CHECKING:
    from game.scenes.walk import WalkSim

CROWD_VIEW_HEIGHT_M = 4.6  # a little wider than the walk scene, to see more of the crowd
SKY: Color = (54, 62, 92)  # the horizon colour the crowd fades toward
CULL_MARGIN_M = 1.2  # characters this far outside the view may still reach into it
TINTS = 4  # colour variants in the crowd (character id mod TINTS)
TINT_TARGETS: tuple[Color, ...] = ((200, 90, 80), (90, 170, 120), (190, 160, 80), (150, 110, 200))
CROWD_DEPTH = 0.3  # the crowd is blended this much toward the sky, to sit behind the hero
LIMB_PX = 3
TORSO_PX = 6


class CrowdView(WalkView):
    """Presents a :class:`~game.scenes.crowd.CrowdSim`; reads it, never mutates it."""

    def __init__(self, sim: CrowdSim) -> None:
        # the hero drawing reads crowd, rig, terrain, time, dt and step_index: CrowdSim has them
        super().__init__(cast("WalkSim", sim))
        self.crowd_sim = sim
        self._palettes = self._tint_palettes()
        self._rows = np.zeros(1, dtype=np.intp)
        self._joints = np.zeros((2, 1, 4, 2))
        self._hair = mix(sim.rig.colors.hair, SKY, CROWD_DEPTH)

    def layout(self, size: tuple[int, int]) -> None:
        width, height = max(size[0], 1), max(size[1], 1)
        self.camera.viewport = (0, 0, width, height)
        self.camera.scale = max(height / CROWD_VIEW_HEIGHT_M, 1.0)

    def map_input(self, raw: RawInput) -> InputState:
        keys = raw.keys_down
        right = ("d" in keys) or ("right" in keys)
        left = ("a" in keys) or ("left" in keys)
        actions = [
            "crowd_more" if key == "plus" else "crowd_less"
            for key in raw.keys_pressed
            if key in ("plus", "minus")
        ]
        return InputState(
            move=float(right) - float(left), run="shift" in keys, actions=tuple(actions)
        )

    # -- drawing -----------------------------------------------------------------------
    def _interpolated(
        self, alpha: float, timer: PhaseTimer | None = None
    ) -> tuple[PoseInputs, Any]:
        """The hero (row 0) and the visible characters, interpolated; the hero's pose
        solved (its solution has the hero only); the rows' character ids are in
        ``self._rows`` and every row's joints in ``self._joints``. The camera follows the
        hero first, so the culling uses this frame's view."""
        key = (self.sim.step_index, alpha)
        if self._frame is None or self._frame[0] != key:
            crowd = self.sim.crowd
            full = crowd.prev_pose.lerp(crowd.pose, alpha)
            self._follow(full, alpha)
            self._rows = np.concatenate([[0], self._visible(full)])
            pose = PoseInputs(**{f.name: getattr(full, f.name)[self._rows] for f in fields(full)})
            hero = PoseInputs(**{f.name: getattr(pose, f.name)[:1] for f in fields(pose)})
            with timer.phase("ik") if timer is not None else nullcontext():
                hero_sol = seen_from_the_side(hero, solve_pose(crowd.rig, hero))
            self._joints = self._blended_joints(alpha)
            turning = np.flatnonzero(np.abs(pose.spin) != 1.0)
            self._joints[0, turning] = foreshortened_joints(
                self._joints[0, turning],
                self._joints[1, turning],
                pose.roots[turning],
                pose.spin[turning],
            )
            self._joints[:, 0] = hero_sol.elbow[0], hero_sol.hand[0]
            self._frame = (key, pose, hero_sol)
        return self._frame[1], self._frame[2]

    def _blended_joints(self, alpha: float) -> NDArray[np.float64]:
        """Elbows and hands (knees and ankles) of the drawn rows, shape ``(2, rows, 4, 2)``:
        the two last steps' solves blended by ``alpha`` (level of detail: the crowd is not
        re-solved per frame; at ``alpha = 0``, as in headless runs, this is the previous
        step's solve exactly, and the blend moves a joint by millimetres a frame)."""
        crowd, rows = self.sim.crowd, self._rows
        now, then = crowd.solution, crowd.prev_solution
        joints = np.stack([now.elbow[rows], now.hand[rows]])
        if then.elbow.shape == now.elbow.shape and alpha < 1.0:
            before = np.stack([then.elbow[rows], then.hand[rows]])
            joints = before + (joints - before) * alpha
        return joints

    def draw(self, canvas: Canvas, alpha: float, timer: PhaseTimer) -> None:
        pose, sol = self._interpolated(alpha, timer)
        self._hero_pixels(pose, sol)  # his box, for the ground's names drawn before him
        pen = WorldPen(canvas, self.camera)
        self._draw_sky(canvas)
        self._draw_grid(canvas)
        self._draw_ground(pen)
        self._draw_crowd(canvas, pose)
        self._draw_character(pen, pose, sol)
        self._draw_hud(canvas)

    def _tint_palettes(self) -> list[tuple[Color, Color, Color, Color, Color]]:
        """Per tint: far limbs, trousers, shirt, skin, shoes (blended toward the sky for
        depth; the legs a little less, so the crowd reads as standing on the ground)."""
        colors = self.sim.rig.colors
        palettes = []
        for target in TINT_TARGETS[:TINTS]:
            shirt = mix(mix(colors.shirt, target, 0.7), SKY, CROWD_DEPTH)
            trousers = mix(mix(colors.trousers, target, 0.4), SKY, 0.5 * CROWD_DEPTH)
            far = mix(trousers, PALETTE["background"], colors.far_shade)
            skin = mix(colors.skin, SKY, CROWD_DEPTH)
            shoes = mix(colors.shoes, SKY, 0.5 * CROWD_DEPTH)
            palettes.append((far, trousers, shirt, skin, shoes))
        return palettes

    def _soles(
        self, pose: PoseInputs, hands: NDArray[np.float64], index: NDArray[np.intp]
    ) -> NDArray[np.float64]:
        """Each drawn character's two feet as two sticks each in pixels, shape ``(n, 2 feet,
        2 sticks, 2 ends, 2)``: ankle → ball (so the leg stick meets the sole) and ball →
        toe tip (the toes bend there)."""
        ankle = hands[index][:, LEGS]  # (n, 2, 2)
        spin = np.broadcast_to(pose.spin[index, None], (index.size, 2))
        angle, bend = pose.foot_angle[index], pose.foot_bend[index]
        heel_ball_toe = sole_points(ankle, angle, bend, spin, self.sim.rig.legs)  # (n, 2, 3, 2)
        ball, toe = heel_ball_toe[:, :, 1], heel_ball_toe[:, :, 2]
        sticks = np.stack([np.stack([ankle, ball], 2), np.stack([ball, toe], 2)], 2)
        return self.camera.to_screen(sticks)

    def _visible(self, pose: PoseInputs) -> NDArray[np.intp]:
        """Indices of the non-hero characters whose pelvis is within the culled x range."""
        x0, x1 = self.camera.visible_x_range()
        x = pose.pelvis[:, 0]
        inside = (x > x0 - CULL_MARGIN_M) & (x < x1 + CULL_MARGIN_M)
        inside[0] = False
        return np.flatnonzero(inside)

    def _draw_crowd(self, canvas: Canvas, pose: PoseInputs) -> None:
        """Stick figures for every row but the hero's (the culled pose), batched per colour."""
        index = np.arange(1, pose.pelvis.shape[0])
        if index.size == 0:
            return
        to_px = self.camera.to_screen
        roots = to_px(pose.roots[index])
        elbows = to_px(self._joints[0, index])
        hands = to_px(self._joints[1, index])
        # (n, 4 limbs, 2 bones, 2 ends, 2)
        bones = np.stack(
            [np.stack([roots, elbows], axis=2), np.stack([elbows, hands], axis=2)], axis=2
        )
        chest = to_px(pose.chest[index])
        torso = np.stack([to_px(pose.pelvis[index]), chest], axis=1)
        facing = pose.facing[index, None]
        heads = to_px(pose.head[index])
        neck = np.stack([chest, heads], axis=1)
        # the hero's hair cap and face disc (no skull disc under them), 0.9 times the size
        head_px = 0.9 * self.sim.rig.body.head_radius * self.camera.scale
        hair = heads + head_px * np.hstack(
            [HEAD_HAIR[0] * facing, np.full_like(facing, -HEAD_HAIR[1])]
        )
        face = heads + head_px * np.hstack(
            [HEAD_FACE[0] * facing, np.full_like(facing, -HEAD_FACE[1])]
        )
        near = (pose.facing[index] > 0).astype(np.intp)  # the right side faces +x viewers
        rows = np.arange(index.size)
        far_arm, far_leg = bones[rows, ARMS.start + 1 - near], bones[rows, LEGS.start + 1 - near]
        near_arm, near_leg = bones[rows, ARMS.start + near], bones[rows, LEGS.start + near]
        tint = self._rows[index] % TINTS
        soles = self._soles(pose, self._joints[1], index)
        for t, (far, trousers, shirt, skin, shoes) in enumerate(self._palettes):
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
                canvas.circle(cap, HEAD_HAIR[2] * head_px, self._hair)
                canvas.circle(head, HEAD_FACE[2] * head_px, skin)

    def _draw_hud(self, canvas: Canvas) -> None:
        sim = self.crowd_sim
        crowd = sim.crowd
        hero = "steered" if sim.hero_steered else "walking on its own"
        count = crowd.count
        # the total is of the characters here now: it drops when − removes walkers (their
        # steps go with them) and says so; the walkers kept keep theirs (Crowd.resize)
        items = [
            characters_text(count),
            f"{4 * count} limbs in one solve per step",
            f"footsteps by the {characters_text(count)} here: {int(crowd.feet.steps.sum())}",
            f"hero {hero}",
        ]
        hint = "+/− crowd ±50 · A/D steer the hero · Shift run · O overlay · F3 profiler · F1 help"
        # figures at their widest (digits as 8s) and both hero states: the box keeps its size
        alternatives: list[tuple[str, ...]] = [(digits_as_8(item),) for item in items[:3]]
        alternatives.append(("hero steered", "hero walking on its own"))
        self._status_panel(canvas, items, PALETTE["text"], [hint], alternatives)

    # -- overlay -----------------------------------------------------------------------
    def draw_overlay(self, canvas: Canvas, alpha: float) -> None:
        """The hero's annuli, targets and feet (as in the walk scene), and the crowd count."""
        super().draw_overlay(canvas, alpha)
        shown = self._interpolated(alpha)[0].pelvis.shape[0]
        count = self.crowd_sim.crowd.count
        line = f"{shown} of {characters_text(count)} in view"
        s = ui_scale(canvas.size)  # designed at 1280x720, as the rest of the HUD
        at = (canvas.size[0] - 16 * s, 48 * s)
        canvas.text(at, line, PALETTE["accent"], font_px(18, s), "topright")


SCENE = SceneSpec(
    name="crowd",
    title="Crowd: hundreds of walkers, one batched solve per step",
    controls=(
        ("+ / −", "add / remove 50 characters"),
        ("A / D, arrows", "steer the hero (left alone it walks on its own)"),
        ("Shift", "the hero runs"),
        ("O", "overlay: the hero's annuli and the crowd count"),
        ("F3", "profiler: cost per phase and per character"),
    ),
    create=CrowdSim,
    view=CrowdView,
    autopilot=CrowdAutopilot,
)
