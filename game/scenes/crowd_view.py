"""Drawing the crowd scene with level of detail: the hero in full, everyone else as sticks.

The hero (character 0) is drawn exactly as in the walk scene (:mod:`game.view.hero_painter`),
its interpolated pose solved each frame. The rest of the crowd is culled to the visible x
range and drawn from the simulation's own solves (:meth:`~game.scenes.crowd.CrowdSim.shown`,
both parts): the last two steps' joints blended by the frame's ``alpha`` (the batched solves
of each step are all the crowd costs the solver), in batches
(:mod:`game.view.crowd_painter`). The camera follows the hero.
"""

from __future__ import annotations

import functools
from contextlib import nullcontext
from typing import Any

import numpy as np
from numpy.typing import NDArray

from game.camera import Camera2D
from game.canvas import Canvas, WorldPen
from game.input_state import InputState, RawInput
from game.layout import characters_text, font_px, ui_scale
from game.palette import PALETTE
from game.profiling import PhaseTimer
from game.scene import SceneSpec
from game.scenes.crowd import CrowdAutopilot, CrowdSim
from game.scenes.crowd_walkers import Shown
from game.scenes.side_view import foreshortened_joints, seen_from_the_side
from game.scenes.walk_keys import WalkKeys
from game.view.crowd_painter import draw_crowd
from game.view.follow import FollowCamera
from game.view.hero_painter import HeroPainter
from game.view.labels import GroundLabels
from game.view.overlay import (
    draw_feet_marks,
    draw_limb_marks,
    draw_overlay_legend,
)
from game.view.scenery import Scenery
from game.view.shadows import draw_contact_shadows
from game.view.status import OVERLAY_HINT, StatusBox, digits_as_8
from game.world.character import PoseInputs, solve_pose
from game.world.easing import lerp
from game.world.walker_state import rows_of

CROWD_VIEW_HEIGHT_M = 4.6  # a little wider than the walk scene, to see more of the crowd
CULL_MARGIN_M = 1.2  # characters this far outside the view may still reach into it
_HERO = np.zeros(1, dtype=np.intp)  # the hero's row

Box = tuple[float, float, float, float]


class CrowdView:
    """Presents a :class:`~game.scenes.crowd.CrowdSim`; reads it, never mutates it."""

    def __init__(self, sim: CrowdSim) -> None:
        self.sim = sim
        self.camera = Camera2D()
        self.follow = FollowCamera()
        self.scenery = Scenery()
        self.labels = GroundLabels()
        self.painter = HeroPainter()
        self.status = StatusBox()
        # the F3 panel over the top of the view (game.scene.ClearOfHud) and the hero's box
        # on screen (game.app.SubjectOnScreen), as in the walk view
        self.hud_cover: Box | None = None
        self.subject_box: Box | None = None
        self._frame: tuple[tuple[int, float], PoseInputs, Any] | None = None
        # the debug overlay: off when the app starts, then as the app says
        # (game.app.OverlayAware); off, the status box says how to show it
        self.overlay_shown = False
        self._walk_keys = WalkKeys()  # A / D steer the hero, a tap held a moment
        self._rows = np.zeros(1, dtype=np.intp)
        self._ids = np.zeros(1, dtype=np.intp)  # the character id of each row drawn
        self._ground = sim.terrain  # the ground the camera last followed the hero on
        self._joints = np.zeros((2, 1, 4, 2))
        self.layout((1280, 720))

    def layout(self, size: tuple[int, int]) -> None:
        width, height = max(size[0], 1), max(size[1], 1)
        self.camera.viewport = (0, 0, width, height)
        self.camera.scale = max(height / CROWD_VIEW_HEIGHT_M, 1.0)

    def map_input(self, raw: RawInput) -> InputState:
        keys = raw.keys_down
        move = self._walk_keys.move(keys, raw.keys_pressed, self.sim.time)
        actions = [
            "crowd_more" if key == "plus" else "crowd_less"
            for key in raw.keys_pressed
            if key in ("plus", "minus")
        ]
        return InputState(move=move, run="shift" in keys, actions=tuple(actions))

    # -- drawing -----------------------------------------------------------------------
    def _interpolated(
        self, alpha: float, timer: PhaseTimer | None = None
    ) -> tuple[PoseInputs, Any]:
        """The hero (row 0) and the visible characters, interpolated; the hero's pose
        solved (its solution has the hero only); the crowd's rows drawn are in
        ``self._rows`` and their joints in ``self._joints``. The camera follows the
        hero first, so the culling uses this frame's view."""
        key = (self.sim.step_index, alpha)
        if self._frame is None or self._frame[0] != key:
            rig = self.sim.rig
            before, now = self.sim.shown()
            then = before.pose  # (blended on the rows drawn only)
            hero = rows_of(then, _HERO).lerp(rows_of(now.pose, _HERO), alpha)
            if self.sim.terrain is not self._ground:  # laid out afresh: no slide across
                self.follow.cut()
                self._ground = self.sim.terrain
            self.follow.follow(
                self.camera, self.sim, hero, alpha, None, self.status.box, self.hud_cover
            )
            x = lerp(then.pelvis[:, 0], now.pose.pelvis[:, 0], alpha)  # (as the pose blends it)
            self._rows = np.concatenate([[0], self._visible(x)])
            self._ids = now.ids[self._rows]
            pose = rows_of(then, self._rows).lerp(rows_of(now.pose, self._rows), alpha)
            with timer.phase("ik") if timer is not None else nullcontext():
                hero_sol = seen_from_the_side(hero, solve_pose(rig, hero))
            self._joints = self._blended_joints(before, now, alpha)
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

    def _blended_joints(self, before: Shown, now: Shown, alpha: float) -> NDArray[np.float64]:
        """Elbows and hands (knees and ankles) of the drawn rows, shape ``(2, rows, 4, 2)``:
        the two last steps' solves blended by ``alpha`` (level of detail: the crowd is not
        re-solved per frame; at ``alpha = 0``, as in headless runs, this is the previous
        step's solve exactly, and the blend moves a joint by millimetres a frame)."""
        rows = self._rows
        joints = np.stack([now.elbow[rows], now.hand[rows]])
        if before.elbow.shape == now.elbow.shape and alpha < 1.0:
            then = np.stack([before.elbow[rows], before.hand[rows]])
            joints = lerp(then, joints, alpha)
        return joints

    def _visible(self, x: NDArray[np.float64]) -> NDArray[np.intp]:
        """The rows other than the hero's whose pelvis x (N,) is within the culled range."""
        x0, x1 = self.camera.visible_x_range()
        inside = (x > x0 - CULL_MARGIN_M) & (x < x1 + CULL_MARGIN_M)
        inside[0] = False
        return np.flatnonzero(inside)

    def draw(self, canvas: Canvas, alpha: float, timer: PhaseTimer) -> None:
        sim, camera = self.sim, self.camera
        pose, sol = self._interpolated(alpha, timer)
        self.painter.pixels(pose, sol, sim.rig, camera)  # his box, for the ground's names
        self.subject_box = self.painter.box
        pen = WorldPen(canvas, camera)
        self.scenery.draw_sky(canvas, camera, sim.terrain)
        self.scenery.draw_grid(canvas, camera, sim.terrain)
        self.scenery.draw_ground(canvas, camera, sim.terrain)
        draw_crowd(canvas, camera, pose, self._joints, self._ids, sim.rig)
        # the ground's names over the crowd's feet (they would hide them), under the hero
        avoid = [b for b in (self.subject_box, self.status.box, self.hud_cover) if b is not None]
        self.labels.draw(pen, sim.terrain, avoid)
        # the hero's shadows over the crowd's feet: he is nearer
        soles = self.painter.drawn_soles(pose, sol, sim.rig)
        draw_contact_shadows(pen, sim.terrain, sim.rig, pose.pelvis[0], soles)
        self.painter.draw(pen, pose, sol, sim.rig)
        self.status.right = self.follow.leading_left
        self._draw_hud(canvas)

    def _draw_hud(self, canvas: Canvas) -> None:
        sim = self.sim
        hero = "steered" if sim.hero_steered else "walking on its own"
        count = sim.character_count
        # the total is of the characters here now: it drops when − removes walkers (their
        # steps go with them) and says so; the walkers kept keep theirs (Crowd.resize)
        solves = ("one solve", "two solves (one in a worker)")
        solved = solves[1] if sim.away is not None else solves[0]
        items = [
            characters_text(count),
            f"{4 * count} limbs per step in {solved}",
            f"footsteps by the {characters_text(count)} here: {sim.steps_taken}",
            f"hero {hero}",
        ]
        hint = "+/− crowd ±50 · A/D steer the hero · Shift run · O overlay · F3 profiler · F1 help"
        # figures at their widest (digits as 8s), both solve counts and both hero states: the
        # box keeps its size
        alternatives: list[tuple[str, ...]] = [(digits_as_8(item),) for item in items[:3]]
        alternatives[1] = tuple(digits_as_8(f"{4 * count} limbs per step in {s}") for s in solves)
        alternatives.append(("hero steered", "hero walking on its own"))
        overlay = [] if self.overlay_shown else [OVERLAY_HINT]
        self.status.draw(canvas, items, PALETTE["text"], [*overlay, hint], alternatives)

    # -- overlay -----------------------------------------------------------------------
    def draw_overlay(self, canvas: Canvas, alpha: float) -> None:
        """The hero's annuli, targets and feet (as in the walk scene), and the crowd count."""
        pose, sol = self._interpolated(alpha)
        pen, sim = WorldPen(canvas, self.camera), self.sim
        draw_limb_marks(pen, pose, sol, sim.rig)
        soles = self.painter.soles(pose, sol, sim.rig)
        hidden = functools.partial(self.labels.hidden, hud_box=self.status.box)
        draw_feet_marks(pen, pose, soles, sim.crowd.feet, sim.terrain, hidden)
        draw_overlay_legend(canvas)
        shown = pose.pelvis.shape[0]
        count = sim.character_count
        line = f"{shown} of {characters_text(count)} in view"
        s = ui_scale(canvas.size)  # designed at 1280x720, as the rest of the HUD
        at = (canvas.size[0] - 16 * s, 48 * s)
        canvas.text(at, line, PALETTE["accent"], font_px(18, s), "topright")


SCENE = SceneSpec(
    name="crowd",
    title="Crowd: hundreds of walkers, every limb solved in batches",
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
