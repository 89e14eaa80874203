"""The swivel scene's view: a perspective 3-D drawing through the :class:`Canvas` protocol.

Everything 3-D goes through one :class:`~game.projection.OrbitCamera` and one
:class:`~game.pen3d.Pen3D`, which clips at the near plane, projects, applies the depth
cues and sorts strokes far to near. No pygame here.

This module holds ``SCENE``, the layout, the controls (locator drags, camera orbit and
zoom, twist) and the draw order. What is drawn lives by job: the floor, shells and
pedestal in :mod:`~game.scenes.swivel_scenery`, the pole plane, danger cone and swivel
circle in :mod:`~game.scenes.swivel_overlay`, the arm and locators in
:mod:`~game.scenes.swivel_arm`, the world labels in :mod:`~game.scenes.swivel_labels`, the
side panel, legend and gizmo in :mod:`~game.scenes.swivel_hud`.
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

import numpy as np
from numpy.typing import NDArray

from game.canvas import Canvas
from game.input_state import InputState, RawInput
from game.label_placer import LabelPlacer
from game.layout import (
    Rect,
    clear_disc,
    font_px,
    intersects,
    ui_scale,
)
from game.orbit_drag import OrbitDrag
from game.palette import PALETTE
from game.pen3d import Pen3D
from game.profiling import PhaseTimer
from game.projection import OrbitCamera
from game.scene import SceneSpec
from game.scenes.swivel import (
    LOCATOR_RANGE,
    Pose,
    SwivelAutopilot,
    SwivelSim,
    solve,
    swivel_frame,
)
from game.scenes.swivel_arm import LOCATORS, block_arm, draw_arm, draw_locators
from game.scenes.swivel_hud import (
    draw_flip_banner,
    draw_gizmo,
    draw_legend,
    draw_panel,
    gizmo_rect,
    legend_rect,
)
from game.scenes.swivel_labels import WorldLabels
from game.scenes.swivel_overlay import draw_danger, draw_pole_plane, draw_swivel
from game.scenes.swivel_scenery import draw_ground, draw_static, label_shells
from game.widgets import Slider, contains, grow

PANEL_WIDTH = 400
# With the F3 panel over the view, the scene is framed beside it: the disc of this
# fraction of the view's height about the view's centre (the arm, the swivel circle, the
# pole and the target at the home camera) is kept clear of the panel, the legend and the
# axes gizmo.
FRAME_RADIUS = 0.4
PICK_PX = 26.0  # a click this close to a locator grabs it
DEPTH_SPEED = 2.0  # metres per second along the view direction (W / S)
TWIST_SPEED = math.radians(90.0)  # radians per second (Q / E held)
TWIST_TAP = math.radians(5.0)  # each Q / E press turns this much at once (then TWIST_SPEED)
POINTER_LIMIT_PX = 1e6  # wild pointer coordinates are clamped before any maths
HOME_CAMERA = OrbitCamera(
    yaw=math.radians(45.0),
    pitch=math.radians(18.0),
    distance=5.6,
    look_at=(1.1, 0.25, 0.0),
    fov_y=math.radians(50.0),
)


class SwivelView:
    """Draws the swivel scene and turns pointer/keys into locator moves and camera moves."""

    def __init__(self, sim: SwivelSim) -> None:
        self.sim = sim
        self.camera = HOME_CAMERA
        self.twist_slider = Slider("twist", "twist about the axis", -180.0, 180.0, unit="°")
        self.selected = "pole"
        self.hover: str | None = None
        self._dragging: str | None = None
        self._grab_offset = np.zeros(2)
        self._orbit = OrbitDrag()
        self._slider_active = False
        self.panel_rect = (0.0, 0.0, float(PANEL_WIDTH), 720.0)
        self.scale = 1.0
        # the world view left of the panel; the camera's viewport is this, or with the F3
        # panel over it (game.scene.ClearOfHud) a smaller one beside the panel
        self.view_rect: Rect = (0.0, 0.0, 880.0, 720.0)
        self.hud_cover: Rect | None = None
        self._framed_for: Rect | None = None
        self._legend_box: Rect | None = None
        self.labels = WorldLabels()  # the world labels, asked for while drawing
        self.layout((1280, 720))

    # -- layout and input -------------------------------------------------------------------
    def layout(self, size: tuple[int, int]) -> None:
        """The panel is designed at 1280x720 and scaled with the window (game.layout)."""
        width, height = max(size[0], 1), max(size[1], 1)
        s = self.scale = ui_scale((width, height))
        panel_w = min(round(PANEL_WIDTH * s), width // 2)
        world_w = max(width - panel_w, 1)
        self.view_rect = (0.0, 0.0, float(world_w), float(height))
        self._frame(None)
        self.panel_rect = (float(world_w), 0.0, float(panel_w), float(height))
        self.twist_slider.rect = (world_w + 24 * s, height - 86 * s, panel_w - 48 * s, 18 * s)
        self.twist_slider.scale = s

    def _frame(self, cover: Rect | None) -> None:
        """The camera's viewport: the world view, or with a ``cover`` over the scene (the
        F3 panel, which would hide the swivel circle's top and the upper arm) the view scaled
        down about the largest disc clear of it, the legend and the gizmo, so the
        ``FRAME_RADIUS`` disc that holds the arm fits there. The projection follows the
        viewport: its centre is where ``look_at`` appears, its height sets the focal length."""
        left, top, width, height = self.view_rect
        subject = FRAME_RADIUS * height
        middle = (left + width / 2, top + height / 2)
        square = (middle[0] - subject, middle[1] - subject, 2 * subject, 2 * subject)
        viewport = self.view_rect
        if cover is not None and intersects(square, cover):
            legend = [self._legend_box] if self._legend_box is not None else []
            gizmo = gizmo_rect(self.view_rect, self.scale)
            (cx, cy), radius = clear_disc(self.view_rect, [cover, gizmo, *legend])
            k = min(radius / subject, 1.0)
            viewport = (cx - k * width / 2, cy - k * height / 2, k * width, k * height)
        x, y, w, h = (round(v) for v in viewport)
        self.camera = replace(self.camera, viewport=(x, y, max(w, 1), max(h, 1)))
        self._framed_for = cover

    def _locator(self, name: str) -> NDArray[np.float64]:
        pose = self.sim.pose
        return np.asarray(pose.target if name == "target" else pose.pole, dtype=float)

    def _pick(self, pointer: NDArray[np.float64]) -> str | None:
        """The locator within ``PICK_PX`` of the pointer (the nearer one on screen), if any."""
        best, best_px = None, PICK_PX
        for name in LOCATORS:
            px, depth = self.camera.project(self._locator(name))
            gap = float(np.hypot(*(px - pointer)))
            if float(depth) > self.camera.near and gap < best_px:
                best, best_px = name, gap
        return best

    def map_input(self, raw: RawInput) -> InputState:
        pointer = _on_screen(raw.pointer_px)
        actions: list[str] = []
        values: dict[str, Any] = {}
        for key in raw.keys_pressed:
            if key == "tab":
                self.selected = "target" if self.selected == "pole" else "pole"
            elif key == "r":
                actions.append("reset")
                self.camera = replace(HOME_CAMERA, viewport=self.camera.viewport)
        self._camera_input(raw, pointer)
        for button, at in raw.clicks:
            if button == 1:
                self._press(_on_screen(at))
        if 1 not in raw.buttons_down:
            self._dragging, self._slider_active = None, False
        self.hover = self._dragging or self._pick(pointer)
        twist = self._twist_input(raw, pointer)
        if twist is not None:
            values["twist"] = twist
        moved = self._moved_locator(raw, pointer)
        if moved is not None:
            values[moved[0]] = moved[1]
        return InputState(actions=tuple(actions), values=values)

    def _press(self, at_px: NDArray[np.float64]) -> None:
        """A left press: on the twist slider it takes the slider; elsewhere in the view it
        grabs the locator under it (selecting it), if any."""
        if contains(grow(self.twist_slider.rect, 10), (float(at_px[0]), float(at_px[1]))):
            self._slider_active = True
        elif not contains(self.panel_rect, (float(at_px[0]), float(at_px[1]))):
            self._dragging = self._pick(at_px)
            if self._dragging is not None:
                self.selected = self._dragging
                locator_px = self.camera.project(self._locator(self._dragging))[0]
                self._grab_offset = locator_px - at_px

    def _twist_input(self, raw: RawInput, pointer: NDArray[np.float64]) -> float | None:
        """The twist (radians) the held slider or Q / E ask for, or None."""
        if self._slider_active:
            return math.radians(self.twist_slider.value_at((float(pointer[0]), float(pointer[1]))))
        # a press turns TWIST_TAP on its frame, a key still held after it TWIST_SPEED: a
        # press and release inside one frame never shows as held (without the tap step,
        # ten quick taps would leave the twist at 0.0°, a held key's step being 1.5°)
        turn = 0.0
        for key, sign in (("e", 1.0), ("q", -1.0)):
            presses = raw.keys_pressed.count(key)
            if presses:
                turn += sign * presses * TWIST_TAP
            elif key in raw.keys_down:
                turn += sign * TWIST_SPEED * self.sim.dt
        return self.sim.pose.twist + turn if turn else None

    def _camera_input(self, raw: RawInput, pointer: NDArray[np.float64]) -> None:
        """Right-drag orbits, the wheel zooms (view state only)."""
        self.camera = self._orbit.moved(self.camera, raw, pointer)

    def _moved_locator(
        self, raw: RawInput, pointer: NDArray[np.float64]
    ) -> tuple[str, list[float]] | None:
        """The dragged and/or depth-moved locator and its new world position, if any moved."""
        name = self._dragging or self.selected
        position = self._locator(name)
        moved = False
        if self._dragging is not None:
            position = self.camera.drag_point(pointer + self._grab_offset, position)
            moved = True
        push = ("w" in raw.keys_down) - ("s" in raw.keys_down)
        if push:
            # along the view direction: W pushes the locator away from the eye
            position = position + self.camera.basis[2] * push * DEPTH_SPEED * self.sim.dt
            moved = True
        if not moved:
            return None
        return name, np.clip(position, -LOCATOR_RANGE, LOCATOR_RANGE).tolist()

    # -- drawing ----------------------------------------------------------------------------
    def draw(self, canvas: Canvas, alpha: float, timer: PhaseTimer) -> None:
        if self.hud_cover != self._framed_for:
            self._frame(self.hud_cover)
        canvas.fill(PALETTE["background"])
        with timer.phase("ik"):
            pose = self.sim.pose_at(alpha)
            sol = solve(pose)
            frame = swivel_frame(pose, sol)
        pen = Pen3D(canvas, self.camera)
        # the plane's faint fill goes down first so the grid shows through it (translucency)
        draw_pole_plane(pen, self.labels, pose, sol, frame)
        pen.flush()
        # the floor grid and the reach shells depend on the camera alone: drawn once per
        # camera into a cached layer (~500 anti-aliased lines), unsorted against the arm
        camera = self.camera
        canvas.layer(
            ("swivel static", camera),
            PALETTE["background"],
            lambda layer: draw_static(Pen3D(layer, camera)),
        )
        draw_ground(pen, sol, pose)
        pen.flush()
        labels, s = self.labels, self.scale
        label_shells(labels, camera)
        draw_danger(pen, labels, pose, frame)
        draw_swivel(pen, labels, pose, sol, frame)
        draw_arm(pen, labels, camera, s, sol)
        draw_locators(pen, labels, camera, s, pose, sol, (self.hover, self.selected))
        pen.flush()
        self._legend_box = legend_rect(canvas, self.view_rect, s)
        labels.place(pen, canvas, camera, s, lambda placer: self._block_scene(placer, pose, sol))
        pen.flush_on_top()
        draw_gizmo(canvas, camera, self.view_rect, s)
        draw_legend(canvas, self.view_rect, s)
        draw_flip_banner(canvas, self.sim, self.view_rect, s)
        twist = (self.twist_slider, self._slider_active)
        draw_panel(canvas, self.panel_rect, s, twist, pose, sol, frame)

    def _block_scene(self, placer: LabelPlacer, pose: Pose, sol: Any) -> None:
        """What labels keep off: the arm and the locators with their rings
        (:func:`block_arm`), and the legend, the axes gizmo, the scene tabs with the
        camera readout, and the F3 panel."""
        s = self.scale
        rings = {name for name in (self.hover, self.selected) if name is not None}
        block_arm(placer, self.camera, pose, sol, rings)
        left, top, _, _ = self.view_rect
        placer.block(gizmo_rect(self.view_rect, s))
        placer.block((left, top, 400 * s, 58 * s))  # the tabs and the camera readout
        if self._legend_box is not None:
            placer.block(self._legend_box)
        if self.hud_cover is not None:
            placer.block(self.hud_cover)

    def draw_overlay(self, canvas: Canvas, alpha: float) -> None:
        """Camera readout in the view's corner (O toggles it)."""
        left, top, width, height = self.view_rect
        cam = self.camera
        text = f"camera yaw {math.degrees(cam.yaw):.0f}°  pitch {math.degrees(cam.pitch):.0f}°  distance {cam.distance:.1f} m"
        canvas.text(
            (left + 14 * self.scale, top + 44 * self.scale),
            text,
            PALETTE["text_dim"],
            font_px(15, self.scale),
        )


def _on_screen(px: tuple[float, float]) -> NDArray[np.float64]:
    """A pointer position as an array, NaN to 0 and within ±``POINTER_LIMIT_PX``."""
    return np.clip(np.nan_to_num(np.asarray(px, float)), -POINTER_LIMIT_PX, POINTER_LIMIT_PX)


SCENE = SceneSpec(
    name="swivel",
    title="Swivel: the pole vector picks the elbow",
    controls=(
        ("left-drag", "move the target (x) or the pole (diamond) in the view plane"),
        ("W / S", "move the selected locator away / toward you"),
        ("Tab", "select the other locator"),
        ("Q / E, slider", "twist the elbow about the axis"),
        ("right-drag, wheel", "orbit and zoom the camera"),
        ("R", "reset pose and camera"),
    ),
    create=SwivelSim,
    view=SwivelView,
    autopilot=SwivelAutopilot,
)
