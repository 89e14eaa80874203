"""The walk in 3-D's view: the shaded heightfield through an orbit camera that follows the
hero, the hero drawn with depth, contact shadows, the overlay; and the scene's SCENE.

W/A/S/D walk relative to the camera (Shift runs), a left click on the ground walks there,
right-drag orbits, the wheel zooms, K switches the knee poles, O the overlay.
"""

from __future__ import annotations

import math
import re
from dataclasses import replace

import numpy as np
from numpy.typing import NDArray

from game.canvas import Canvas
from game.input_state import InputState, RawInput
from game.key_taps import KeyTaps
from game.layout import font_px, ui_scale
from game.orbit_drag import OrbitDrag
from game.palette import PALETTE
from game.pen3d import Pen3D
from game.profiling import PhaseTimer
from game.projection import MAX_PITCH, OrbitCamera
from game.scene import SceneSpec
from game.scenes.walk3d import Walk3DAutopilot, Walk3DSim
from game.scenes.walk3d_ground import GroundPainter
from game.scenes.walk3d_hero import draw_hero, draw_overlay, draw_shadows
from game.world.heightfield import Heightfield
from game.world.walk3d import Pose3D
from game.world.walk3d_path import right_of

POINTER_LIMIT_PX = 1e6
RAY_STEPS = 160  # samples along the pointer's ray looking for the ground ...
RAY_REACH_M = 60.0  # ... this far from the eye
NEAR_CHEST_M = 0.7  # the mouse ray passing this close to the chest points in his reach
FOLLOW_LIFT_M = 0.2  # the camera looks at a point this far above the pelvis
EDGE_HINT = "no way on: the world's edge"  # the HUD's last line while the edge holds him
EYE_CLEAR_M = 0.3  # orbited low, the eye stays this far above the ground under it
HOME_CAMERA = OrbitCamera(
    yaw=math.radians(-120.0),
    pitch=math.radians(28.0),
    distance=6.5,
    look_at=(3.0, 1.0, 3.0),
    fov_y=math.radians(50.0),
)


def ground_hit(
    field: Heightfield, eye: NDArray[np.float64], ray: NDArray[np.float64]
) -> NDArray[np.float64] | None:
    """Where the ray from ``eye`` along ``ray`` (unit) first meets the ground: sampled, then
    refined by bisection between the last sample above and the first below; None if it
    does not within :data:`RAY_REACH_M`."""
    t = np.linspace(0.0, RAY_REACH_M, RAY_STEPS)
    p = eye + t[:, None] * ray
    below = p[:, 1] < field.height_at(p[:, 0], p[:, 2])
    if not below.any():
        return None
    k = int(np.argmax(below))
    if k == 0:
        return None  # the eye under the ground
    lo, hi = t[k - 1], t[k]
    for _ in range(20):
        mid = (lo + hi) / 2
        q = eye + mid * ray
        if q[1] < field.height_at(q[0], q[2]):
            hi = mid
        else:
            lo = mid
    hit: NDArray[np.float64] = eye + lo * ray
    return hit


def above_ground(camera: OrbitCamera, field: Heightfield) -> OrbitCamera:
    """``camera`` tilted up as far as it takes to keep its eye :data:`EYE_CLEAR_M` over the
    ground under it (unchanged when it already is): the eye at ``look_at`` plus
    ``distance`` along the pitch is as high as ``sin(pitch)·distance`` above the look
    point; the ground under the tilted eye is read again, a few times, since tilting
    moves the eye in and so over other ground (each time aiming 1 mm higher, so a slope
    rising under the moving eye is overtaken). At most :data:`MAX_PITCH` (looking down
    from above): a look point deep in the ground can leave the eye under it there. A
    camera with a non-finite look point is left as it is."""
    if not np.all(np.isfinite(camera.look_at)):
        return camera
    tilted = camera  # (a camera derives its frame when made: made again only when tilted)
    for tries in range(8):
        eye = tilted.eye
        floor = float(field.height_at(eye[0], eye[2])) + EYE_CLEAR_M
        if eye[1] >= floor - 1e-9 or tilted.pitch >= MAX_PITCH:
            break
        rise = (floor + 0.001 * tries - camera.look_at[1]) / camera.distance
        pitch = min(max(tilted.pitch, math.asin(min(max(rise, -1.0), 1.0))), MAX_PITCH)
        tilted = tilted if pitch == tilted.pitch else replace(camera, pitch=pitch)
    return tilted


class Walk3DView:
    """Draws the walk in 3-D and maps keys and the mouse to the walker's input."""

    def __init__(self, sim: Walk3DSim) -> None:
        self.sim = sim
        self.camera = HOME_CAMERA  # as drawn: tilted up from the player's pitch over ground
        self.pitch = HOME_CAMERA.pitch  # the pitch the player orbited to
        self.ground = GroundPainter(sim.field)
        self._orbit = OrbitDrag()
        self._taps = KeyTaps()  # W/A/S/D, a tap held a moment
        self.size = (1280, 720)
        self.overlay_shown = False  # opens on the scene, not its debugging (as the walk)
        self.layout(self.size)

    def layout(self, size: tuple[int, int]) -> None:
        self.size = (max(size[0], 1), max(size[1], 1))
        self.camera = OrbitCamera(
            self.camera.yaw,
            self.camera.pitch,
            self.camera.distance,
            self.camera.look_at,
            self.camera.fov_y,
            (0, 0, self.size[0], self.size[1]),
        )

    # -- input -----------------------------------------------------------------------
    def map_input(self, raw: RawInput) -> InputState:
        pointer = np.clip(
            np.asarray(raw.pointer_px, dtype=float), -POINTER_LIMIT_PX, POINTER_LIMIT_PX
        )
        orbited = self._orbit.moved(replace(self.camera, pitch=self.pitch), raw, pointer)
        self.pitch = orbited.pitch
        self.camera = above_ground(orbited, self.sim.field)
        hit = self._pointer_3d(pointer) if raw.pointer_inside else None
        held = self._taps.held(raw.keys_down, raw.keys_pressed, self.sim.time)
        values: dict[str, list[float]] = {"wish": self._wish(held)}
        for button, at in raw.clicks:
            if button == 1:
                at_px = np.clip(np.asarray(at, dtype=float), -POINTER_LIMIT_PX, POINTER_LIMIT_PX)
                spot = ground_hit(self.sim.field, self.camera.eye, self.camera.ray(at_px))
                if spot is not None:
                    values["goal"] = [float(spot[0]), float(spot[2])]
        actions = tuple("toggle_poles" for key in raw.keys_pressed if key == "k")
        if raw.pointer_moved:
            actions += ("pointer_moved",)
        return InputState(
            pointer=None if hit is None else (float(hit[0]), float(hit[1]), float(hit[2])),
            run="shift" in raw.keys_down,
            actions=actions,
            values=values,
        )

    def _pointer_3d(self, pointer: NDArray[np.float64]) -> NDArray[np.float64] | None:
        """The 3-D pointer: the mouse ray's point nearest the hero's chest when it passes
        within :data:`NEAR_CHEST_M` of it (his reachable space), else its hit on the ground."""
        eye, ray = self.camera.eye, self.camera.ray(pointer)
        chest = self.sim.walker.pose.chest
        nearest = eye + max(float((chest - eye) @ ray), 0.0) * ray
        if float(np.linalg.norm(nearest - chest)) < NEAR_CHEST_M:
            return nearest
        return ground_hit(self.sim.field, eye, ray)

    def _wish(self, keys: frozenset[str]) -> list[float]:
        """W/A/S/D (or the arrows) as a ground direction relative to the camera."""
        ahead = float(("w" in keys) or ("up" in keys)) - float(("s" in keys) or ("down" in keys))
        side = float(("d" in keys) or ("right" in keys)) - float(("a" in keys) or ("left" in keys))
        if ahead == 0.0 and side == 0.0:
            return [0.0, 0.0]
        yaw = self.camera.yaw
        forward = np.array([-math.sin(yaw), -math.cos(yaw)])  # the eye looks along −offset
        wish = ahead * forward + side * right_of(forward)
        wish /= np.linalg.norm(wish)
        return [float(wish[0]), float(wish[1])]

    # -- drawing ---------------------------------------------------------------------
    def _pose(self, alpha: float) -> Pose3D:
        walker = self.sim.walker
        return walker.prev_pose.lerp(walker.pose, alpha)

    def draw(self, canvas: Canvas, alpha: float, timer: PhaseTimer) -> None:
        pose = self._pose(alpha)
        look = (float(pose.pelvis[0]), float(pose.pelvis[1]) + FOLLOW_LIFT_M, float(pose.pelvis[2]))
        cam = self.camera
        self.camera = above_ground(
            OrbitCamera(cam.yaw, self.pitch, cam.distance, look, cam.fov_y, cam.viewport),
            self.sim.field,
        )
        self.ground.draw(canvas, self.camera)  # the sky, then the ground
        draw_shadows(canvas, self.camera, self.sim.field, pose)
        pen = Pen3D(canvas, self.camera)
        draw_hero(pen, pose, self.sim.rig)
        pen.flush()
        pen.flush_on_top()
        self._hud(canvas)

    def _hud(self, canvas: Canvas) -> None:
        walker = self.sim.walker
        poles = "on" if walker.knee_poles else "OFF"
        lines = (
            f"knee poles {poles} (K)   knee flips {walker.knee_flips}",
            f"speed {walker.speed:.2f} m/s   steps {int(walker.crowd.feet.steps.sum())}",
            EDGE_HINT if walker.edge_held else f"ground: {self._feature_under()}",
        )
        scale = ui_scale(self.size)  # the HUD is designed at 1280x720, as the others
        size, pad = font_px(16, scale), 8 * scale
        # on a panel (it reads on the light sky too), as wide as the lines with every digit
        # an 8, so it does not twitch as the figures change
        wide = max(canvas.text_size(re.sub(r"\d", "8", text), size)[0] for text in lines)
        tall = 22 * scale * (len(lines) - 1) + canvas.text_size(lines[0], size)[1]
        canvas.panel(
            (16 * scale - pad, 48 * scale - pad, wide + 2 * pad, tall + 2 * pad),
            PALETTE["panel"],
            200,
        )
        for row, text in enumerate(lines):
            warn = (row == 0 and not walker.knee_poles) or (row == 2 and walker.edge_held)
            color = PALETTE["warn"] if warn else PALETTE["text"]
            at = (16 * scale, (48 + 22 * row) * scale)
            canvas.text(at, text, color, size)

    def _feature_under(self) -> str:
        pelvis = self.sim.walker.pose.pelvis
        for feature in self.sim.field.features:
            (x0, x1), (z0, z1) = feature.x, feature.z
            if x0 <= pelvis[0] <= x1 and z0 <= pelvis[2] <= z1:
                return feature.name
        return "open ground"

    def draw_overlay(self, canvas: Canvas, alpha: float) -> None:
        pen = Pen3D(canvas, self.camera)
        draw_overlay(pen, self._pose(alpha), self.sim.rig)
        pen.flush()
        pen.flush_on_top()


SCENE = SceneSpec(
    name="walk3d",
    title="Walk in 3-D: knee poles and feet on a heightfield",
    controls=(
        (
            "W / A / S / D, click",
            "walk relative to the camera, or to the spot clicked on the ground",
        ),
        ("Shift", "run"),
        ("mouse near him", "the nearer hand reaches for it (for 1.5 s after it moves)"),
        ("K", "knee pole hints on/off (off: knees flip, counted)"),
        ("right-drag, wheel", "orbit and zoom the camera"),
    ),
    create=Walk3DSim,
    view=Walk3DView,
    autopilot=Walk3DAutopilot,
)
