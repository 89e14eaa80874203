"""The walk scene's view: the scenery, the props, the hero and his HUD, through Canvas /
WorldPen.

The camera follows the hero smoothly (view state: the simulation never sees it). Each frame
interpolates the last two steps with ``alpha`` and solves that pose in one batched call.
The scene's ``SCENE`` spec lives here, at the top of the import graph: it ties the
simulation (:mod:`game.scenes.walk`), this view and the autopilots together, so the
simulation never imports drawing code. The drawing itself is in :mod:`game.view`.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
from numpy.typing import NDArray

from game.camera import Camera2D
from game.canvas import Canvas, WorldPen
from game.input_state import InputState, RawInput
from game.palette import PALETTE
from game.profiling import PhaseTimer
from game.scene import SceneSpec
from game.scenes.ground_edit_view import GroundEditView
from game.scenes.prop_painters import LOOKS, paint_props, prop_boxes
from game.scenes.side_view import seen_from_the_side
from game.scenes.walk import WalkSim
from game.scenes.walk_autopilot import walk_autopilot
from game.scenes.walk_keys import LEFT_KEYS, RIGHT_KEYS, WalkKeys
from game.view.follow import FollowCamera
from game.view.hero_painter import HeldDrawing, HeroPainter
from game.view.hover import PROP_CLICK_M, draw_hover, prop_under
from game.view.labels import GroundLabels
from game.view.overlay import (
    draw_feet_marks,
    draw_goal,
    draw_limb_marks,
    draw_overlay_legend,
    draw_rung_labels,
)
from game.view.scenery import Scenery
from game.view.shadows import draw_contact_shadows
from game.view.status import StatusBox
from game.view.walk_hud import climbing, draw_walk_hud
from game.world.character import ARMS, PoseInputs
from game.world.props.ladder import ClimbLatch

VIEW_HEIGHT_M = 3.7  # world metres shown top to bottom

Box = tuple[float, float, float, float]

_TOGGLE_KEYS = (
    ("k", "toggle_poles"),
    ("h", "toggle_hands_follow"),
    ("b", "toggle_hands"),
    ("e", "toggle_edit"),
)
"""The walk's on/off keys and the actions they send (K knee poles, H hands follow the
mouse, B both hands, E edit the ground)."""


class WalkView:
    """Presents a :class:`~game.scenes.walk.WalkSim`; reads it, never mutates it."""

    def __init__(self, sim: WalkSim) -> None:
        self.sim = sim
        self.camera = Camera2D()
        self.follow = FollowCamera()
        self.scenery = Scenery()
        self.labels = GroundLabels()
        self.painter = HeroPainter()
        self.status = StatusBox()
        self.ground_edit = GroundEditView()
        self._dragging: str | None = None
        self._climb_latch = ClimbLatch()
        self._walk_keys = WalkKeys()
        # (the walk's step count when the view last mapped input, and whether the ground
        # editor was open after that frame's E presses: an E waits for the next step)
        self._edit_open: tuple[int, bool] | None = None
        # the box the app draws over the top of the view (F3): the camera keeps the head
        # under it (game.scene.ClearOfHud)
        self.hud_cover: Box | None = None
        # the hero's box on screen as last drawn (game.app.SubjectOnScreen): the F1 help
        # and the ground's labels keep off him
        self.subject_box: Box | None = None
        self._pointer_w: NDArray[np.float64] | None = None
        self._frame: tuple[tuple[int, float], PoseInputs, Any] | None = None
        # the debug overlay: off when the app starts, then as the app says
        # (game.app.OverlayAware); off, the status box says how to show it
        self.overlay_shown = False
        self.layout((1280, 720))

    @property
    def hud_box(self) -> Box | None:
        """The status box as last drawn."""
        return self.status.box

    def takes_escape(self) -> bool:
        """Esc leaves the ground editor while it is open (game.global_keys.TakesEscape)."""
        editing = self.sim.editing
        return editing is not None and editing.active

    def hud_boxes(self) -> list[Box]:
        """The ground editor's palette while it is open (game.scene.OwnHud): the F3 panel
        goes beside it."""
        editing = self.sim.editing
        return [self.ground_edit.panel] if editing is not None and editing.active else []

    # -- layout and input --------------------------------------------------------------
    def layout(self, size: tuple[int, int]) -> None:
        width, height = max(size[0], 1), max(size[1], 1)
        self._edit_open = None  # (resumed, or resized: the walk's own state is the truth)
        self.camera.viewport = (0, 0, width, height)
        self.camera.scale = max(height / VIEW_HEIGHT_M, 1.0)
        self.ground_edit.layout((width, height))

    def map_input(self, raw: RawInput) -> InputState:
        keys = raw.keys_down
        move = self._walk_keys.move(keys, raw.keys_pressed, self.sim.time)
        actions: list[str] = []
        values: dict[str, Any] = {}
        for key, toggle in _TOGGLE_KEYS:
            actions += [toggle] * raw.keys_pressed.count(key)  # each press flips it
        if raw.pointer_moved:
            actions.append("pointer_moved")
        # the frame's clicks go to the editor when it is open after this frame's E presses
        # (the step toggles it before it edits): a click just after E is the editor's
        editing = self.sim.editing
        was_open = self._editor_open()
        edit_now = editing is not None and was_open != bool(actions.count("toggle_edit") % 2)
        if edit_now and not was_open:  # opened: no shape chosen yet (its sliders are kept)
            self.ground_edit.preset = None
        if editing is not None and edit_now:
            edit_actions, values = self.ground_edit.map_input(raw, self.camera, editing)
            actions += edit_actions  # (Esc in the editor leaves it: one more toggle)
        open_after = editing is not None and was_open != bool(actions.count("toggle_edit") % 2)
        self._edit_open = (self.sim.step_index, open_after)
        for button, px in raw.clicks if not edit_now else ():
            if button == 1:
                self._click(self.camera.to_world(px), actions, values)
        if 1 not in raw.buttons_down:
            self._dragging = None
        pointer = self.camera.to_world(raw.pointer_px)
        self._pointer_w = pointer if raw.pointer_inside else None  # (no hover from outside)
        return InputState(
            pointer=(float(pointer[0]), float(pointer[1])) if raw.pointer_inside else None,
            pointer_down=1 in raw.buttons_down and raw.pointer_inside,
            move=move,
            climb=self._climb_latch.climb(
                float("w" in keys) - float("s" in keys),
                float("w" in raw.keys_pressed) - float("s" in raw.keys_pressed),
                move != 0.0 or bool(keys & (RIGHT_KEYS | LEFT_KEYS)),
                self.sim.ladder,
                self.sim.time,
            ),
            run="shift" in keys,
            actions=tuple(actions),
            values=values,
        )

    def _editor_open(self) -> bool:
        """Whether the ground editor is open before this frame's keys: as the walk has it,
        or, when no step has run since the last frame (its E still waits for one), as
        that frame left it."""
        editing, seen = self.sim.editing, self._edit_open
        if seen is not None and seen[0] == self.sim.step_index:
            return seen[1]
        return editing is not None and editing.active

    def _click(
        self, point_w: NDArray[np.float64], actions: list[str], values: dict[str, Any]
    ) -> None:
        """A left click at ``point_w`` (world): use a prop there (walk up to it and reach
        for it), grab a foot, or set a held cup down there. A prop under the point comes
        before a foot (a cup or a ball by the feet stays clickable), a foot before a part
        that takes a click behind it (the shut door's panel opens it by the knob)."""
        sim = self.sim
        grabbed = sim.foot_near(point_w)
        prop = prop_under(sim, LOOKS, point_w, grabbed is not None)
        if prop is not None and (
            prop.under(point_w, PROP_CLICK_M) or LOOKS[prop.name].clicks_behind
        ):
            actions.append("reach_prop")
            values["prop"] = prop.name
        elif grabbed is not None:
            self._dragging = grabbed
            values["drag_foot"] = grabbed
        elif sim.props is not None and sim.props.holding >= 0:
            actions.append("put_down")
            values["place_x"] = sim.props.props.place_for_click(point_w)

    # -- drawing -----------------------------------------------------------------------
    def _interpolated(self, alpha: float) -> tuple[PoseInputs, Any]:
        """This frame's interpolated pose and its solve, shared by draw and the overlay."""
        key = (self.sim.step_index, alpha)
        if self._frame is None or self._frame[0] != key:
            pose, solution = self.sim.crowd.interpolated(alpha)
            self._frame = (key, pose, seen_from_the_side(pose, solution))
        return self._frame[1], self._frame[2]

    def draw(self, canvas: Canvas, alpha: float, timer: PhaseTimer) -> None:
        sim, camera = self.sim, self.camera
        with timer.phase("ik"):
            pose, sol = self._interpolated(alpha)
            soles = self.painter.soles(pose, sol, sim.rig)
        # (turned round by the keys, not to reach for the pointer: the view leads his facing)
        facing_leads = sim.offered is None
        box, cover = self.status.box, self.hud_cover
        # the status box keeps clear of his soles, and of the props that move (the ball)
        moving = [c for c in (p.centre() for p in sim.plug_ins) if c is not None]
        props = np.reshape(moving, (-1, 2)).astype(float)
        held = self.ground_edit.dragging_vertex
        self.follow.follow(camera, sim, pose, alpha, soles, box, cover, facing_leads, props, held)
        self.painter.pixels(pose, sol, sim.rig, camera)  # his box, for the ground's names
        self.subject_box = self.painter.box
        pen = WorldPen(canvas, camera)
        self.scenery.draw_sky(canvas, camera, sim.terrain)
        self.scenery.draw_grid(canvas, camera, sim.terrain)
        self.scenery.draw_ground(canvas, camera, sim.terrain)
        soles = self.painter.drawn_soles(pose, sol, sim.rig)
        draw_contact_shadows(pen, sim.terrain, sim.rig, pose.pelvis[0], soles)
        self.labels.draw(pen, sim.terrain, self._label_avoid(pen))
        self._draw_hero(pen, pose, sol, alpha)
        hint = sim.blocked_hint()
        if hint is not None:  # over his head, where the player is looking
            pen.text(pose.head[0], hint, PALETTE["white"], 15, "midbottom", (0, -40))
        if sim.offered is not None and sim.reaching.any():
            pen.cross(sim.offered, 7, PALETTE["accent"], 2)
        editing = sim.editing
        if editing is not None and editing.active:
            self.ground_edit.draw(canvas, pen, editing, sim.time)
        self.status.right = self.follow.leading_left
        draw_walk_hud(canvas, self.status, sim, self.overlay_shown)

    def _label_avoid(self, pen: WorldPen) -> list[Box]:
        """What the ground's names keep off: the hero, the status box, the F3 panel, and
        the props (drawn after them)."""
        boxes = (self.subject_box, self.status.box, self.hud_cover)
        avoid = [b for b in boxes if b is not None]
        for x_0, y_0, x_1, y_1 in prop_boxes(self.sim):
            (left, upper), (right, lower) = pen.px((x_0, y_1)), pen.px((x_1, y_0))
            avoid.append((left, upper, right - left, lower - upper))
        return avoid

    def _draw_hero(self, pen: WorldPen, pose: PoseInputs, sol: Any, alpha: float) -> None:
        """The props and the hero holding what he holds, ``alpha`` of the way through the
        last step, and the hover highlight over him (a foot's ring and tip stay visible)."""
        sim = self.sim
        paint_props(pen, sim, alpha)
        self.painter.draw(pen, pose, sol, sim.rig, self.held(pen, sol))
        editing = sim.editing
        if self._pointer_w is None or self._dragging is not None:
            return
        if editing is not None and editing.active:  # clicks edit the ground
            return
        draw_hover(pen, sim, sol, self._pointer_w, self.subject_box, LOOKS)

    def held(self, pen: WorldPen, sol: Any) -> HeldDrawing | None:
        """The hand that holds a prop and what draws it in that hand (this frame's solved
        hand), if he holds one."""
        hands = self.sim.props
        if hands is None or hands.holding < 0:
            return None
        held = next((p for p in self.sim.plug_ins if p is hands.carried), None)
        in_hand = None if held is None else LOOKS[held.name].in_hand
        if held is None or in_hand is None:
            return None
        hand = sol.hand[0, ARMS.start + hands.holding]
        return hands.holding, functools.partial(in_hand, pen, held, self.sim, hand)

    # -- overlay -----------------------------------------------------------------------
    def draw_overlay(self, canvas: Canvas, alpha: float) -> None:
        """Per limb: reach annulus, soft band, target, pole and its line, shortfall; per
        foot: plant state, lock radius around the planted spot, and the ground ray (on
        the ladder, each limb's rung); the legend; the prop the hands go for."""
        pose, sol = self._interpolated(alpha)
        pen = WorldPen(canvas, self.camera)
        sim = self.sim
        draw_limb_marks(pen, pose, sol, sim.rig)
        hidden = functools.partial(self.labels.hidden, hud_box=self.status.box)
        on_ladder = climbing(sim)
        if on_ladder is not None:
            draw_rung_labels(pen, pose, on_ladder, hidden)
        else:
            soles = self.painter.soles(pose, sol, sim.rig)
            draw_feet_marks(pen, pose, soles, sim.crowd.feet, sim.terrain, hidden)
        draw_overlay_legend(canvas)
        draw_goal(pen, sim.props)


SCENE = SceneSpec(
    name="walk",
    title="Walk: feet planted on uneven ground",
    controls=(
        ("A / D, arrows", "walk left / right"),
        ("Shift", "run"),
        ("move / hold the mouse", "the hands reach for the cursor (for 1.5 s after it moves)"),
        ("H", "hands follow the mouse on/off (off: they swing with the walk)"),
        ("B", "both hands / the nearer hand reach"),
        ("drag a foot", "hold it where the hip lets it go; release gives it back"),
        ("K", "knee pole hints on/off (off: knees flip, counted)"),
        ("click knob / cup / ball", "walk there, reach with the nearer hand; kick the ball"),
        ("click while holding", "set the cup down there (table top or floor)"),
        (
            "W / S at the ladder",
            "climb up / down one limb at a time (Shift: faster); W at the top: onto the loft",
        ),
        (
            "E",
            "edit the ground: drag vertices, presets, Ctrl+Z/Y undo/redo, Ctrl+S save; "
            "E or Esc leaves",
        ),
    ),
    create=WalkSim,
    view=WalkView,
    autopilot=walk_autopilot,
)
