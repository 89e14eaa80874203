"""The swivel scene's view: a perspective 3-D drawing through the :class:`Canvas` protocol.

Everything 3-D goes through one :class:`~game.projection.OrbitCamera` and one
:class:`~game.pen3d.Pen3D`, which clips at the near plane, projects, applies the depth
cues and sorts strokes far to near. No pygame here.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

import ik
from game.canvas import Canvas
from game.input_state import InputState, RawInput
from game.label_placer import ANCHORS, LabelPlacer, Spot, around, label_key
from game.layout import (
    Rect,
    clear_disc,
    font_px,
    intersects,
    ui_scale,
    wrap,
)
from game.palette import PALETTE, Color, faint, mix
from game.pen3d import Pen3D
from game.profiling import PhaseTimer
from game.projection import OrbitCamera
from game.scene import SceneSpec
from game.scenes.panel_rows import draw_rows, draw_status_chip
from game.scenes.swivel import (
    DANGER_ANGLE,
    LOCATOR_RANGE,
    LOWER_LEN,
    ROOT,
    UPPER_LEN,
    Pose,
    SwivelAutopilot,
    SwivelFrame,
    SwivelSim,
    solve,
    swivel_frame,
)
from game.widgets import Slider, contains, grow

PANEL_WIDTH = 400
# With the F3 panel over the view, the scene is framed beside it: the disc of this
# fraction of the view's height about the view's centre (the arm, the swivel circle, the
# pole and the target at the home camera) is kept clear of the panel, the legend and the
# axes gizmo.
FRAME_RADIUS = 0.4
GROUND_Y = -1.8  # metres: the grid floor under the shoulder
GRID_HALF = 5  # the grid spans ±5 m in x and z
PICK_PX = 26.0  # a click this close to a locator grabs it
ORBIT_RAD_PER_PX = 0.008
ZOOM_PER_WHEEL = 0.9  # distance factor per wheel notch
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
AXIS_COLORS: tuple[Color, Color, Color] = (PALETTE["bad"], PALETTE["ok"], PALETTE["reach"])
LOCATORS = ("target", "pole")
SHOULDER_R, ELBOW_R = 0.17, 0.11  # joint ball radii in metres
POLE_SIZE = 0.17  # half-size of the pole's diamond in metres
CROSS_ARM = 0.22  # half-length of each bar of the target's cross in metres
UPPER_RADII = (0.12, 0.085)  # bone capsule radii in metres at the root and elbow ends
LOWER_RADII = (0.085, 0.06)
LEGEND = (
    ("accent", "swivel circle: every elbow that reaches"),
    ("ghost", "a few of those arms"),
    ("pole", "pole plane, pole and its lever"),
    ("soft_band", "twist about the axis"),
    ("bad", "danger cone around the axis"),
    ("shortfall", "shortfall when out of reach"),
)
EXPLANATION = (
    "Reach fixes d, and d fixes the triangle (θ and α). In 3-D the triangle can still "
    "turn about the shoulder-to-target axis: every elbow on the gold circle puts the hand "
    "on the target.",
    "The pole vector picks one: the elbow goes in the plane through shoulder, target and "
    "pole, on the pole's side. Twist turns it further about the axis.",
    "Near the axis that plane is ill-defined: a tiny pole move swings the elbow across. "
    "Keep poles well off the axis.",
)


OPTIONAL_RANK = 4  # labels of this rank and up are left out where no spot is clear
# an anchor's opposite: the same offset, turned half round, on the other side
MIRRORED = {
    name: next(other for other, f in ANCHORS.items() if f == (1.0 - fx, 1.0 - fy))
    for name, (fx, fy) in ANCHORS.items()
}


@dataclass(frozen=True, slots=True)
class _Wanted:
    """A world label asked for this frame (:meth:`SwivelView.label`), not yet placed."""

    rank: int
    points: NDArray[np.float64]  # (K, 3): where each of the K spots is measured from
    text: str
    color: Color
    size: int
    spots: list[Spot]


def _draw_static(pen: Pen3D) -> None:
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


def _label_shells(view: SwivelView) -> None:
    """Each shell's name at the front of its equator (labels stay out of the static layer)."""
    for (_, color_name, name), equator in zip(SHELLS, EQUATORS, strict=True):
        front = equator[np.argmin(view.camera.to_camera(equator)[:, 2])]
        view.label(front, name, faint(PALETTE[color_name], 0.75), 15, "midtop", (0, 4), rank=5)


def ring(
    center: ArrayLike, normal: ArrayLike, radius: float, count: int = 72
) -> NDArray[np.float64]:
    """Points of the circle of ``radius`` about ``center`` perpendicular to ``normal``, (count, 3)."""
    n = np.asarray(normal, dtype=float)
    n = n / np.linalg.norm(n)
    ref = np.array([0.0, 1.0, 0.0]) if abs(n[1]) < 0.9 else np.array([1.0, 0.0, 0.0])
    e1 = np.cross(n, ref)
    e1 /= np.linalg.norm(e1)
    return circle_points(center, e1, np.cross(n, e1), radius, count)


def circle_points(
    center: ArrayLike, e1: ArrayLike, e2: ArrayLike, radius: float, count: int
) -> NDArray[np.float64]:
    """Points ``center + radius·(cos a·e1 + sin a·e2)`` for ``count`` angles ``a`` evenly
    round from 0, shape ``(count, 3)``; ``e1``, ``e2`` orthonormal, shape ``(3,)`` (a frame
    the caller already has: np.cross costs ~10 µs a call)."""
    cos_a, sin_a = _unit_circle(count)
    return np.asarray(center, dtype=float) + radius * (
        cos_a * np.asarray(e1, dtype=float) + sin_a * np.asarray(e2, dtype=float)
    )


@functools.cache
def _unit_circle(count: int) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """cos and sin of ``count`` angles evenly round the circle, each shape ``(count, 1)``
    (a handful of counts is used, each every frame)."""
    a = np.linspace(0.0, 2 * math.pi, count, endpoint=False)[:, None]
    return np.cos(a), np.sin(a)


# Rings that never move, made once: the shells' equators, the pedestal, a drop ring at the origin
FOOT = np.array([ROOT[0], GROUND_Y, ROOT[2]])  # where the post under the shoulder meets the floor
EQUATORS = tuple(ring(ROOT, (0, 1, 0), radius, 64) for radius, _, _ in SHELLS)
PEDESTAL = ring(FOOT, (0, 1, 0), 0.35, 32)
DROP_RING = ring((0.0, 0.0, 0.0), (0, 1, 0), 0.14, 24)


def arc(
    center: ArrayLike,
    start: ArrayLike,
    toward: ArrayLike,
    radius: float,
    angle: float,
    count: int = 24,
) -> NDArray[np.float64]:
    """Points of an arc of ``angle`` radians about ``center``, from unit ``start`` toward
    ``toward`` (a unit vector perpendicular to ``start``), shape ``(count, 3)``."""
    a = np.linspace(0.0, angle, count)[:, None]
    return np.asarray(center, dtype=float) + radius * (
        np.cos(a) * np.asarray(start) + np.sin(a) * np.asarray(toward)
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
        self._orbit_from: tuple[float, float] | None = None
        self._slider_active = False
        self.panel_rect = (0.0, 0.0, float(PANEL_WIDTH), 720.0)
        self.scale = 1.0
        # the world view left of the panel; the camera's viewport is this, or with the F3
        # panel over it (game.scene.ClearOfHud) a smaller one beside the panel
        self.view_rect: Rect = (0.0, 0.0, 880.0, 720.0)
        self.hud_cover: Rect | None = None
        self._framed_for: Rect | None = None
        self._legend_box: Rect | None = None
        self._wanted: list[_Wanted] = []  # labels asked for this frame (see label)
        self._label_spots: dict[str, int] = {}  # each label's spot last frame
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
        F3 panel hid the swivel circle's top and the upper arm) the view scaled down about
        the largest disc clear of it, the legend and the gizmo, so the ``FRAME_RADIUS``
        disc that holds the arm fits there. The projection follows the viewport: its
        centre is where ``look_at`` appears, its height sets the focal length."""
        left, top, width, height = self.view_rect
        subject = FRAME_RADIUS * height
        middle = (left + width / 2, top + height / 2)
        square = (middle[0] - subject, middle[1] - subject, 2 * subject, 2 * subject)
        viewport = self.view_rect
        if cover is not None and intersects(square, cover):
            legend = [self._legend_box] if self._legend_box is not None else []
            (cx, cy), radius = clear_disc(self.view_rect, [cover, self._gizmo_rect(), *legend])
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
        pointer = np.clip(
            np.nan_to_num(np.asarray(raw.pointer_px, float)), -POINTER_LIMIT_PX, POINTER_LIMIT_PX
        )
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
            if button != 1:
                continue
            at_px = np.clip(
                np.nan_to_num(np.asarray(at, float)), -POINTER_LIMIT_PX, POINTER_LIMIT_PX
            )
            if contains(grow(self.twist_slider.rect, 10), (float(at_px[0]), float(at_px[1]))):
                self._slider_active = True
            elif not contains(self.panel_rect, (float(at_px[0]), float(at_px[1]))):
                self._dragging = self._pick(at_px)
                if self._dragging is not None:
                    self.selected = self._dragging
                    locator_px = self.camera.project(self._locator(self._dragging))[0]
                    self._grab_offset = locator_px - at_px
        if 1 not in raw.buttons_down:
            self._dragging, self._slider_active = None, False
        self.hover = self._dragging or self._pick(pointer)
        if self._slider_active:
            values["twist"] = math.radians(
                self.twist_slider.value_at((float(pointer[0]), float(pointer[1])))
            )
        else:
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
            if turn:
                values["twist"] = self.sim.pose.twist + turn
        moved = self._moved_locator(raw, pointer)
        if moved is not None:
            values[moved[0]] = moved[1]
        return InputState(actions=tuple(actions), values=values)

    def _camera_input(self, raw: RawInput, pointer: NDArray[np.float64]) -> None:
        """Right-drag orbits, the wheel zooms (view state only)."""
        if 3 in raw.buttons_down:
            if self._orbit_from is not None:
                dx, dy = np.clip(pointer - self._orbit_from, -2000.0, 2000.0)
                self.camera = self.camera.orbited(-dx * ORBIT_RAD_PER_PX, dy * ORBIT_RAD_PER_PX)
            self._orbit_from = (float(pointer[0]), float(pointer[1]))
        else:
            self._orbit_from = None
        if raw.wheel:
            notches = min(max(raw.wheel, -10.0), 10.0)
            self.camera = self.camera.zoomed(ZOOM_PER_WHEEL**notches)

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
        self._draw_pole_plane(pen, pose, sol, frame)
        pen.flush()
        # the floor grid and the reach shells depend on the camera alone: drawn once per
        # camera into a cached layer (~500 anti-aliased lines), unsorted against the arm
        camera = self.camera
        canvas.layer(
            ("swivel static", camera),
            PALETTE["background"],
            lambda layer: _draw_static(Pen3D(layer, camera)),
        )
        self._draw_ground(pen, sol, pose)
        pen.flush()
        _label_shells(self)
        self._draw_danger(pen, pose, frame)
        self._draw_swivel(pen, pose, sol, frame)
        self._draw_arm(pen, sol)
        self._draw_locators(pen, pose, sol)
        pen.flush()
        self._legend_box = self._legend_rect(canvas)
        self._place_labels(pen, canvas, pose, sol)
        pen.flush_on_top()
        self._draw_gizmo(canvas)
        self._draw_legend(canvas)
        self._draw_flip_banner(canvas)
        self._draw_panel(canvas, pose, sol, frame)

    def _draw_ground(self, pen: Pen3D, sol: Any, pose: Pose) -> None:
        """A pedestal and drop shadows (the grid is in the static layer)."""
        shadow = mix(PALETTE["background"], PALETTE["black"], 0.5)
        flat = np.array([1.0, 0.0, 1.0])
        joints = (
            np.stack([np.asarray(ROOT, float), np.asarray(sol.elbow), np.asarray(sol.hand)]) * flat
        )
        joints[:, 1] = GROUND_Y
        pen.polyline(joints, shadow, 7.0)
        pen.polygon(PEDESTAL, mix(PALETTE["background"], PALETTE["panel_edge"], 0.5))
        pen.segments(FOOT[None], np.asarray(ROOT, float)[None], PALETTE["panel_edge"], 5.0)
        for point, color in ((pose.target, PALETTE["target"]), (pose.pole, PALETTE["pole"])):
            p = np.asarray(point, dtype=float)
            drop = np.array([p[0], GROUND_Y, p[2]])
            pen.segments(p[None], drop[None], color, 1.0, strength=0.45, dashed=True)
            pen.outline(drop + DROP_RING, faint(color, 0.6), closed=True)

    def _draw_pole_plane(self, pen: Pen3D, pose: Pose, sol: Any, frame: SwivelFrame) -> None:
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
        self.label(
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
            self.label(tip, note, PALETTE["warn"], 16, "center", (0, 0), rank=2)

    def _draw_danger(self, pen: Pen3D, pose: Pose, frame: SwivelFrame) -> None:
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
        self.label(
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
            self.label(
                points[len(points) // 2],
                f"{math.degrees(frame.pole_angle):.1f}°",
                cone_color,
                16,
                "center",
                (0, 0),
                rank=3,
                along=points[[8, 16, 4, 20]],  # elsewhere on its arc (24 points)
            )

    def _draw_swivel(self, pen: Pen3D, pose: Pose, sol: Any, frame: SwivelFrame) -> None:
        """The swivel circle, ghost arms around it, the twist arc and the α arc."""
        root = np.asarray(ROOT, dtype=float)
        hand = np.asarray(sol.hand, dtype=float)
        axis_end = root + max(float(sol.distance), float(sol.reach)) * frame.axis
        pen.segments(
            root[None], axis_end[None], PALETTE["text_dim"], 1.0, strength=0.8, dashed=True
        )
        if frame.radius < 1e-3:
            self.label(
                hand,
                "swivel circle shrinks to a point",
                faint(PALETTE["accent"], 0.9),
                15,
                "midtop",
                (0, 16),
                rank=3,
            )
            return
        angles = np.linspace(0.0, 2 * math.pi, 97)
        pen.polyline(frame.circle(angles), PALETTE["accent"], 2.0)
        ghosts = frame.circle(np.linspace(0.0, 2 * math.pi, 16, endpoint=False))
        ghost = PALETTE["ghost"]
        pen.segments(np.broadcast_to(root, ghosts.shape), ghosts, ghost, 1.0, strength=1.0)
        pen.segments(ghosts, np.broadcast_to(hand, ghosts.shape), ghost, 1.0, strength=0.8)
        pen.segments(
            frame.centre[None], frame.circle(0.0)[None], faint(PALETTE["accent"], 0.6), 1.0
        )
        pen.sphere(frame.centre, 0.03, PALETTE["accent"])
        top = frame.circle(math.pi)
        self.label(
            top,
            f"swivel circle  r = L1·sin α = {frame.radius:.2f} m",
            faint(PALETTE["accent"], 0.95),
            16,
            "midright",
            (-10, 0),
            rank=4,
            along=frame.circle(math.pi + np.array([-0.4, 0.4, -0.8, 0.8, 1.6, -1.6, 3.14])),
        )
        zero = frame.circle(0.0)
        pen.polyline(
            circle_points(zero, frame.side, frame.binormal, 0.07, 20),
            PALETTE["pole"],
            2.0,
            closed=True,
        )
        if abs(pose.twist) > 1e-3:
            # where the pole alone (twist 0) puts the arm
            pen.polyline(
                np.stack([root, zero, hand]), faint(PALETTE["pole"], 0.7), 2.0, dashed=True
            )
        if abs(pose.twist) > 1e-3:
            twist_arc = frame.circle(np.linspace(0.0, pose.twist, 32))
            pen.polyline(twist_arc, PALETTE["soft_band"], 4.0)
            mid = frame.circle(pose.twist / 2)
            self.label(
                mid,
                f"twist {math.degrees(pose.twist):+.0f}°",
                PALETTE["soft_band"],
                17,
                "midleft",
                (12, 0),
                rank=3,
            )
        elbow_dir = (np.asarray(sol.elbow) - root) / UPPER_LEN
        toward = elbow_dir - (elbow_dir @ frame.axis) * frame.axis
        norm = float(np.linalg.norm(toward))
        if norm > 1e-6:
            points = arc(root, frame.axis, toward / norm, 0.6, frame.alpha)
            pen.polyline(points, PALETTE["accent"], 2.0)
            at = points[len(points) // 2]
            others = points[[8, 16, 4, 20]]  # elsewhere on its arc (24 points)
            self.label(at, "α", PALETTE["accent"], 22, "center", (0, -12), rank=3, along=others)

    def _draw_arm(self, pen: Pen3D, sol: Any) -> None:
        root = np.asarray(ROOT, dtype=float)
        elbow, hand = np.asarray(sol.elbow, dtype=float), np.asarray(sol.hand, dtype=float)
        pen.bone(root, elbow, UPPER_RADII, PALETTE["bone_upper"])
        pen.bone(elbow, hand, LOWER_RADII, PALETTE["bone_lower"])
        pen.sphere(root, SHOULDER_R, PALETTE["axis"])
        pen.sphere(elbow, ELBOW_R, PALETTE["joint"])
        pen.sphere(hand, 0.08, PALETTE["white"])
        # labels start at the ball's edge as seen (it grows as the camera zooms in)
        self._label_marker(root, SHOULDER_R, "shoulder", PALETTE["text_dim"], 16, "midright", 1)
        self._label_marker(elbow, ELBOW_R, "elbow", PALETTE["joint"], 17, "midbottom", 1)

    def _draw_locators(self, pen: Pen3D, pose: Pose, sol: Any) -> None:
        """The target (a 3-D cross), the pole (a diamond), selection and the shortfall."""
        target = np.asarray(pose.target, dtype=float)
        pole = np.asarray(pose.pole, dtype=float)
        shortfall = float(sol.shortfall)
        if shortfall > 1e-3:
            pen.segments(
                np.asarray(sol.hand)[None], target[None], PALETTE["shortfall"], 2.0, dashed=True
            )
            # under the target's own name: at the gap's middle it sat on that name
            # whenever the gap was short
            right = self.camera.basis[0]
            self.label(
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
            if name == self.hover:
                pen.ring_px(point, 17.0, PALETTE["white"])
            elif name == self.selected:
                pen.ring_px(point, 17.0, color)
            # right of the marker as seen, whatever the zoom
            self._label_marker(point, size, name, color, 18, "midleft", 0, lift=-12)

    # -- world labels -----------------------------------------------------------------------
    def label(
        self,
        p_w: ArrayLike,
        text: str,
        color: Color,
        size: int = 17,
        anchor: str = "midleft",
        offset: tuple[float, float] = (10.0, 0.0),
        rank: int = 3,
        spots: list[Spot] | None = None,
        along: ArrayLike | None = None,
    ) -> None:
        """A label for world point ``p_w``, placed by :meth:`_place_labels` (lower ``rank``
        first) at the first clear spot of ``spots``: by default ``anchor`` and ``offset``
        (pixels at 1280x720) as designed; with ``along`` (more points on what it labels:
        a line, a circle) as designed and mirrored at ``p_w`` and at each of those; then
        rings about ``p_w``."""
        point = np.asarray(p_w, dtype=float).reshape(1, 3)
        if spots is None:
            ring = around()
            if along is None:
                spots = [(anchor, offset), *ring]
                points = np.repeat(point, len(spots), axis=0)
            else:
                more = np.concatenate([point, np.asarray(along, dtype=float).reshape(-1, 3)])
                mirror = (MIRRORED[anchor], (-offset[0], -offset[1]))
                spots = [(anchor, offset), mirror] * len(more) + ring
                points = np.concatenate(
                    [np.repeat(more, 2, axis=0), np.repeat(point, len(ring), 0)]
                )
        else:
            points = np.repeat(point, len(spots), axis=0)
        self._wanted.append(_Wanted(rank, points, text, color, size, spots))

    def _label_marker(
        self,
        centre: ArrayLike,
        radius_m: float,
        text: str,
        color: Color,
        size: int,
        anchor: str,
        rank: int,
        lift: float = 0.0,
    ) -> None:
        """A label beside a marker (a ball, the cross, the diamond) of ``radius_m`` about
        ``centre``: on its ``anchor`` side just off its edge as seen (the edge moves out as
        the camera zooms in), else on rings about it."""
        px, depth = self.camera.project(centre)
        if float(depth) <= self.camera.near:
            return
        edge = radius_m * float(self.camera.px_per_metre(depth)) / self.scale
        gap = edge + 6.0
        preferred = {
            "midleft": (gap, lift),
            "midright": (-gap, lift),
            "midbottom": (0.0, -edge - 4.0),
            "midtop": (0.0, edge + 4.0),
        }[anchor]
        spots = [
            (anchor, preferred),
            *around((gap, gap + 14.0, gap + 30.0, gap + 50.0, gap + 80.0)),
        ]
        self.label(centre, text, color, size, rank=rank, spots=spots)

    def _place_labels(self, pen: Pen3D, canvas: Canvas, pose: Pose, sol: Any) -> None:
        """Hand the wanted labels to ``pen``, each at its first spot clear of the arm, the
        markers, the HUD boxes over the view and the labels placed before it (otherwise the
        lever's "1.47 m" would sit on the upper arm, "target" under the pole after an orbit, the
        swivel circle's name on "α" and the pole angle's)."""
        wanted, self._wanted = sorted(self._wanted, key=lambda w: w.rank), []
        if not wanted:
            return
        camera, s = self.camera, self.scale
        x, y, w, h = (float(v) for v in camera.viewport)
        placer = LabelPlacer((x, y, w, h), s)
        self._block_scene(placer, pose, sol)
        px, depth = camera.project(np.concatenate([w.points for w in wanted]))
        first = 0
        kept, self._label_spots = self._label_spots, {}
        for want in wanted:
            count = len(want.spots)
            at, front = px[first : first + count], depth[first : first + count] > camera.near
            first += count
            if not front[0]:
                continue  # behind the eye: Pen3D would skip it too
            box = canvas.text_size(want.text, font_px(want.size, s))
            key = label_key(want.text)
            keep = kept.get(key)
            # spots measured from points behind the eye are left out
            order = list(range(count)) if front.all() else np.flatnonzero(front).tolist()
            spots = want.spots if len(order) == count else [want.spots[i] for i in order]
            if keep is not None:
                keep = order.index(keep) if keep in order else None
            # names the legend also gives (rank 4 and up) are left out where nothing is clear
            optional = want.rank >= OPTIONAL_RANK
            found = placer.place(at[order], box, spots, optional, keep)
            if found is None:
                continue
            best = order[found]
            self._label_spots[key] = best
            anchor, offset = want.spots[best]
            pen.label(want.points[best], want.text, want.color, want.size, anchor, offset)

    def _block_scene(self, placer: LabelPlacer, pose: Pose, sol: Any) -> None:
        """What labels keep off: the bones and balls, the target's cross, the pole's
        diamond and its selection ring, the lever's foot, and the legend,
        the axes gizmo, the scene tabs with the camera readout, and the F3 panel."""
        camera, s = self.camera, self.scale
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
        for i, radius in ((0, SHOULDER_R), (1, ELBOW_R), (2, 0.08)):
            stroke(i, i, radius * ppm[i])
        for k in range(3):  # the cross's bars, 3 px wide
            stroke(3 + k, 6 + k, 2.5)
        if all(seen[9:15]):
            diamond = px[9:15]
            (x0, y0), (x1, y1) = diamond.min(axis=0).tolist(), diamond.max(axis=0).tolist()
            placer.block((x0, y0, x1 - x0, y1 - y0))
        stroke(15, 15, 0.035 * ppm[15])  # the lever's foot on the axis
        for name in {self.hover, self.selected} - {None}:
            ring_px, ring_depth = camera.project(target if name == "target" else pole)
            if float(ring_depth) > camera.near:
                placer.block_disc(ring_px.tolist(), 18.0)
        left, top, _, _ = self.view_rect
        placer.block(self._gizmo_rect())
        placer.block((left, top, 400 * s, 58 * s))  # the tabs and the camera readout
        if self._legend_box is not None:
            placer.block(self._legend_box)
        if self.hud_cover is not None:
            placer.block(self.hud_cover)

    def _gizmo_rect(self) -> Rect:
        """The axes gizmo's box (:meth:`_draw_gizmo`), in the view's bottom-left corner."""
        left, top, _, height = self.view_rect
        s = self.scale
        return (left + 4 * s, top + height - 110 * s, 96 * s, 96 * s)

    def _draw_gizmo(self, canvas: Canvas) -> None:
        """World axes as seen by the camera, in the view's bottom-left corner."""
        left, top, _, height = self.view_rect
        s = self.scale
        origin = np.array([left + 52.0 * s, top + height - 62.0 * s])
        basis = self.camera.basis
        canvas.circle(tuple(origin), 40 * s, mix(PALETTE["background"], PALETTE["panel"], 0.8))
        # far axes first: an axis pointing away from the eye has a positive forward component
        for k in sorted(range(3), key=lambda k: -basis[2][k]):
            # the world axis e_k on screen: (right·e_k, −up·e_k), pixels are y-down
            axis = np.array([basis[0][k], -basis[1][k]])
            tip = origin + 32.0 * s * axis
            color = AXIS_COLORS[k] if basis[2][k] <= 0 else faint(AXIS_COLORS[k], 0.55)
            canvas.line(tuple(origin), tuple(tip), color, 3)
            label_at = origin + 42.0 * s * axis
            canvas.text(tuple(label_at), "xyz"[k], color, font_px(17, s), "center", True)

    def _legend_rect(self, canvas: Canvas) -> Rect:
        """Where the legend goes: the view's top-left corner (under the scene tabs)."""
        left, top, _, _ = self.view_rect
        s = self.scale
        size = font_px(15, s)
        row_h = canvas.text_size("Ag", size)[1] + 4 * s
        text_w = max(canvas.text_size(text, size)[0] for _, text in LEGEND)
        return (left + 12.0 * s, top + 66.0 * s, text_w + 46 * s, row_h * len(LEGEND) + 12 * s)

    def _draw_legend(self, canvas: Canvas) -> Rect:
        """What each colour means, in the view's top-left corner (under the scene tabs)."""
        s = self.scale
        size = font_px(15, s)
        row_h = canvas.text_size("Ag", size)[1] + 4 * s
        box = self._legend_rect(canvas)
        canvas.panel(box, PALETTE["panel"], 200)
        for i, (color_name, text) in enumerate(LEGEND):
            y = box[1] + 6 * s + row_h * i + row_h / 2
            canvas.rect((box[0] + 10 * s, y - 3 * s, 18 * s, 6 * s), PALETTE[color_name], 0, 3)
            canvas.text((box[0] + 36 * s, y), text, PALETTE["text"], size, "midleft")
        return box

    def _draw_flip_banner(self, canvas: Canvas) -> None:
        """A notice for one and a half seconds after the pole plane flipped, at the bottom of
        the view right of the axes gizmo (the legend owns the top-left, messages the
        bottom-right)."""
        flip = self.sim.last_flip_step
        if flip is None or self.sim.step_index - flip > round(1.5 / self.sim.dt):
            return
        left, top, width, height = self.view_rect
        s = self.scale
        size = font_px(20, s)
        text = "the plane flipped: the pole crossed the shoulder-to-target axis"
        box_left = left + 104 * s
        lines = wrap(canvas, text, left + width * 0.58 - box_left - 28 * s, size, True)
        line_h = canvas.text_size("Ag", size, True)[1] + 2 * s
        w = max(canvas.text_size(line, size, True)[0] for line in lines)
        box_h = line_h * len(lines) + 14 * s
        box = (box_left, top + height - box_h - 16 * s, w + 28 * s, box_h)
        canvas.panel(box, PALETTE["panel"], 230)
        canvas.rect(box, PALETTE["bad"], 1, 6)
        for i, line in enumerate(lines):
            at = (box_left + 14 * s, box[1] + 7 * s + line_h * (i + 0.5))
            canvas.text(at, line, PALETTE["bad"], size, "midleft", True)

    def _draw_panel(self, canvas: Canvas, pose: Pose, sol: Any, frame: SwivelFrame) -> None:
        x, y, w, h = self.panel_rect
        s = self.scale
        canvas.rect((x, y, w, h), PALETTE["panel"])
        canvas.line((x, y), (x, y + h), PALETTE["panel_edge"], 1)
        left, right = x + 24 * s, x + w - 24 * s
        row = y + 20 * s
        canvas.text((left, row), "The pole vector", PALETTE["text"], font_px(34, s), bold=True)
        row += 34 * s
        subtitle = "ik.solve_3d · L1 = 2, L2 = 1.2"
        canvas.text((left, row), subtitle, PALETTE["text_dim"], font_px(18, s))
        row += 30 * s
        status = ik.Status(int(sol.status))
        angle_deg = math.degrees(frame.pole_angle)
        danger = frame.pole_angle < DANGER_ANGLE
        rows: list[tuple[str, str, Color]] = [
            ("d = |t − s|", f"{float(sol.distance):.3f} m", PALETTE["text"]),
            ("reach used", f"{float(sol.reach):.3f} m", PALETTE["text"]),
            ("α shoulder offset", f"{math.degrees(frame.alpha):6.1f}°", PALETTE["accent"]),
            (
                "θ elbow (interior)",
                f"{math.degrees(float(sol.elbow_angle)):6.1f}°",
                PALETTE["text"],
            ),
            ("swivel radius L1·sin α", f"{frame.radius:.3f} m", PALETTE["accent"]),
            ("twist", f"{math.degrees(pose.twist):+6.1f}°", PALETTE["soft_band"]),
            ("shortfall", f"{float(sol.shortfall):.3f} m", PALETTE["shortfall"]),
        ]
        row = draw_rows(canvas, rows, left, right, row, 23 * s, s)
        row += 6 * s
        chip_text = f"status: {status.name.lower().replace('_', ' ')}"
        draw_status_chip(canvas, chip_text, status == ik.Status.REACHED, left, row, s)
        row += 36 * s
        row = self._draw_danger_meter(canvas, left, right, row, angle_deg, danger, frame.fallback)
        row += 12 * s
        self._draw_explanation(canvas, left, right, row)
        self.twist_slider.draw(canvas, math.degrees(pose.twist), self._slider_active)
        hint = "left-drag a locator · W/S depth · Tab select · Q/E twist · right-drag orbit · wheel zoom · R reset"
        hint_px = font_px(15, s)
        for i, line in enumerate(wrap(canvas, hint, right - left, hint_px)):
            canvas.text((left, y + h - 52 * s + 17 * s * i), line, PALETTE["text_dim"], hint_px)

    def _draw_explanation(self, canvas: Canvas, left: float, right: float, row: float) -> None:
        """The paragraphs that fit between ``row`` and the twist slider's label (whole
        paragraphs only: a tall danger note pushes the last ones out)."""
        s = self.scale
        size = font_px(17, s)
        line_h = 19 * s
        bottom = self.twist_slider.rect[1] - self.twist_slider.label_height(canvas) - 8 * s
        for paragraph in EXPLANATION:
            lines = wrap(canvas, paragraph, right - left, size)
            if row + line_h * len(lines) > bottom:
                return
            for line in lines:
                canvas.text((left, row), line, faint(PALETTE["text"], 0.8), size)
                row += line_h
            row += 6 * s

    def _draw_danger_meter(
        self,
        canvas: Canvas,
        left: float,
        right: float,
        row: float,
        angle_deg: float,
        danger: bool,
        fallback: bool,
    ) -> float:
        """A 0–90° bar of the pole–axis angle with the danger zone marked; returns the next row."""
        s = self.scale
        if fallback:
            verdict, color = "on axis: fallback", PALETTE["bad"]
        elif danger:
            verdict, color = "plane unstable", PALETTE["bad"]
        else:
            verdict, color = "plane stable", PALETTE["ok"]
        heading_px = font_px(19, s)
        for line in wrap(
            canvas, f"pole–axis angle: {angle_deg:.1f}° — {verdict}", right - left, heading_px, True
        ):
            canvas.text((left, row), line, color, heading_px, bold=True)
            row += 22 * s
        row += 4 * s
        width = right - left
        danger_w = width * math.degrees(DANGER_ANGLE) / 90.0
        canvas.rect((left, row, width, 10 * s), PALETTE["grid_major"], 0, 4)
        canvas.rect(
            (left, row, danger_w, 10 * s), mix(PALETTE["panel"], PALETTE["bad"], 0.55), 0, 4
        )
        marker = left + width * min(angle_deg, 90.0) / 90.0
        canvas.rect((marker - 2 * s, row - 4 * s, 4 * s, 18 * s), color, 0, 2)
        tick_px = font_px(14, s)
        canvas.text((left, row + 14 * s), "0° axis", PALETTE["text_dim"], tick_px)
        canvas.text((right, row + 14 * s), "90°", PALETTE["text_dim"], tick_px, "topright")
        row += 32 * s
        if fallback:
            note_px = font_px(16, s)
            for line in wrap(canvas, FALLBACK_NOTE, right - left, note_px):
                canvas.text((left, row), line, PALETTE["warn"], note_px)
                row += 18 * s
        return row

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


FALLBACK_NOTE = (
    "Pole exactly on the axis: no plane. solve_3d falls back to the world axis least "
    "aligned with the shoulder-to-target direction, made perpendicular to it (orange), "
    "and reports DEGENERATE."
)


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
