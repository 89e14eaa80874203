"""Drawing the walk scene through Canvas / WorldPen: sky, parallax hills, ground, the hero, HUD.

The camera follows the hero smoothly (view state: the simulation never sees it). Each frame
interpolates the last two steps with ``alpha`` and solves that pose in one batched call.
The scene's ``SCENE`` spec lives here, at the top of the import graph: it ties the
simulation (:mod:`game.scenes.walk`), this view and the autopilots together, so the
simulation never imports drawing code.
"""

from __future__ import annotations

import functools
import itertools
import math
import weakref
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from game.camera import Camera2D
from game.canvas import Canvas, WorldPen, bone, cross, dashed, fill_under
from game.input_state import InputState, RawInput
from game.layout import font_px, intersects, ui_scale, wrap_balanced
from game.palette import PALETTE, Color, faint, mix
from game.profiling import PhaseTimer
from game.scene import SceneSpec
from game.scenes.ground_edit_view import GroundEditView
from game.scenes.prop_painters import paint_plug_ins
from game.scenes.walk import LADDER_NEAR_M, WalkSim
from game.scenes.walk_autopilot import walk_autopilot
from game.world.character import ARMS, CROUCH_DROP, LEGS, PoseInputs
from game.world.easing import halflife_blend, smoothstep
from game.world.gait import sole_points
from game.world.props.ladder import ClimbLatch
from game.world.rig import LIMBS, LegSpec, RigColors

if TYPE_CHECKING:
    from game.scenes.ground_edit import GroundEditing
    from game.world.props import PropHands
    from game.world.props.ladder import LadderClimb
    from game.world.terrain import Terrain

VIEW_HEIGHT_M = 3.7  # world metres shown top to bottom
CAMERA_HALFLIFE = 0.35  # seconds
CAMERA_LEAD_M = 0.9  # the camera looks this far ahead of the hero, the way he last walked
LEAD_SPEED = 0.3  # m/s: walking at least this fast sets the way the camera leads (turning
# round on the spot to face the pointer panned the view: the cup slid away from the cursor)
PROP_CLICK_M = 0.12  # a click this close to the knob or the cup sends a hand to it
SKY_TOP: Color = (14, 18, 32)
SKY_HORIZON: Color = (54, 62, 92)
SKY_BANDS = 24
SKY_COLORS: tuple[Color, ...] = tuple(
    mix(SKY_TOP, SKY_HORIZON, t) for t in np.linspace(0.0, 1.0, SKY_BANDS).tolist()
)
# The hills: parallax factor, height of the ridge (fraction of the view), wave length (px),
# colour. (A farther ridge was drawn too until the hills were cached; it lay wholly under
# this one, 0.50-0.60 of the view's height down against 0.37-0.47, and was never seen.)
HILL: tuple[float, float, float, Color] = (0.35, 0.55, 330.0, (28, 34, 50))
HILL_SAMPLES = 64  # ridge points across one window width
GROUND_DEEP: Color = (34, 38, 32)
GRID_COLOR: Color = mix(SKY_HORIZON, PALETTE["grid_major"], 0.35)  # the one-metre grid
LEG_WIDTHS_M = (0.15, 0.11, 0.1)  # hip, knee, ankle
ARM_WIDTHS_M = (0.095, 0.075, 0.06)  # shoulder, elbow, wrist
HAND_RADIUS_M = 0.05  # wider than the wrist: the hand's disc covers the forearm's end
GRIP_HALF_M = 0.035  # the fingers round a held cup: half their span across it ...
FINGERS_M = 0.04  # ... and their height (the cup's rim and base show above and below)
DOORWAY: Color = (12, 12, 16)  # the dark room behind an open door
DOOR_NEAR_M = 0.05  # an open door's free edge, nearer the viewer, shows this much taller
SHOE_WIDTH_M = 0.095  # a shoe seen from the front: the least a drawn foot is long
LEG_SPREAD_M = 0.045  # each leg's offset from the middle, seen from the front
# The head in profile, in head radii from its centre, (forward, up) and a radius: a hair
# cap on top and a little behind, the face's disc forward and a little down, the eye level
# with the middle of the face's front. The line from the face's centre to the cap's leans
# 32 degrees back of straight up (it leaned 53: a cap over the back of the head and an eye
# under its edge read as a head tilted up, looking at the sky).
HEAD_HAIR = (-0.1, 0.45, 0.9)
HEAD_FACE = (0.25, -0.1, 0.85)
HEAD_EYE = (0.65, 0.0)
HEAD_TOP = max(1.0, HEAD_HAIR[1] + HEAD_HAIR[2])  # the drawn head's top, head radii up
HERO_PAD_M = 0.1  # the hero's box on screen reaches this far round his joints and shoes
HUD_CLEARANCE_PX = 8.0  # at 1280x720 (scaled): the head's top stays this far under the F3 panel
# Static props are cached as sprites (see WalkView._static_sprite): padded by this many
# pixels for line widths and the knob; their anti-aliased edges blend with the backdrop,
# the colour of the near hills they mostly stand in front of.
SPRITE_PAD_PX = 8
SCENERY_BACKDROP: Color = HILL[3]
# The sky with the hills and the ground are cached in tiles this many pixels wide (see
# WalkView._draw_sky and _draw_ground); the ground's tiles are transparent where they are
# TILE_KEY, a colour no scenery has (their drawing is aliased: no edge blends with it).
SCENERY_TILE_PX = 512
TILE_KEY: Color = (255, 0, 255)


def digits_as_8(text: str) -> str:
    """``text`` with every digit an 8 (the widest): a HUD line's longest width."""
    return "".join("8" if c.isdecimal() else c for c in text)


_GROUND_VERSIONS = itertools.count()  # a number per terrain drawn, unique in the process


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
        self._camera_time: float | None = None
        self._lead: float | None = None  # the way the camera leads (_lead_way)
        self._dragging: str | None = None
        self._climb_latch = ClimbLatch()
        # the status box as last drawn: ground labels that would fall under it go above
        self.hud_box: tuple[float, float, float, float] | None = None
        # the landmarks' names as drawn this frame: the feet's labels keep off them
        self._ground_labels: list[tuple[float, float, float, float]] = []
        self._label_spots: dict[str, tuple[float, bool]] = {}  # where each name went last
        # the hero's joints and shoes in pixels this frame (_hero_pixels), and for what
        self._pixels: tuple[PoseInputs, Any, tuple[Any, float], list[Any], list[Any]] | None = None
        self._hud_width: tuple[tuple[int, int], float] = ((0, 0), 0.0)  # the widest, per size
        # the box the app draws over the top of the view (F3): the camera keeps the head
        # under it (game.scene.ClearOfHud)
        self.hud_cover: tuple[float, float, float, float] | None = None
        # the hero's box on screen as last drawn (game.app.SubjectOnScreen): the F1 help
        # and the ground's labels keep off him
        self.subject_box: tuple[float, float, float, float] | None = None
        self._pointer_w: NDArray[np.float64] | None = None
        self.ground_edit = GroundEditView()
        self._frame: tuple[tuple[int, float], PoseInputs, Any] | None = None
        self._frame_soles: tuple[PoseInputs, Any, NDArray[np.float64]] | None = None
        # the terrain and scale last drawn, their number in the ground tiles' cache keys,
        # and the ground's bands by column
        self._ground: tuple[Terrain | None, float, int, dict[int, GroundBand]] = (
            None,
            0.0,
            -1,
            {},
        )
        self.layout((1280, 720))

    @property
    def _walk(self) -> WalkSim | None:
        """The walk simulation, for its props, ladder and edit mode; None when the crowd
        view reuses this class on a crowd simulation, which has none of them."""
        return self.sim if isinstance(self.sim, WalkSim) else None

    @property
    def _prop_hands(self) -> PropHands | None:
        """The hero's props, if any."""
        return self._walk.props if self._walk is not None else None

    @property
    def _ladder(self) -> LadderClimb | None:
        """The ladder, if the scene has one."""
        return self._walk.ladder if self._walk is not None else None

    @property
    def _editing(self) -> GroundEditing | None:
        """The edit mode, if the scene has one."""
        return self._walk.editing if self._walk is not None else None

    @property
    def _climbing(self) -> LadderClimb | None:
        """The hero's ladder state while on the ladder, else None."""
        ladder = self._ladder
        return ladder if ladder is not None and ladder.active else None

    def hud_boxes(self) -> list[tuple[float, float, float, float]]:
        """The ground editor's palette while it is open (game.scene.OwnHud): the F3 panel
        goes beside it."""
        editing = self._editing
        return [self.ground_edit.panel] if editing is not None and editing.active else []

    # -- layout and input --------------------------------------------------------------
    def layout(self, size: tuple[int, int]) -> None:
        width, height = max(size[0], 1), max(size[1], 1)
        self.camera.viewport = (0, 0, width, height)
        self.camera.scale = max(height / VIEW_HEIGHT_M, 1.0)
        self.ground_edit.layout((width, height))

    def map_input(self, raw: RawInput) -> InputState:
        keys = raw.keys_down
        right = ("d" in keys) or ("right" in keys)
        left = ("a" in keys) or ("left" in keys)
        actions: list[str] = []
        values: dict[str, Any] = {}
        for key, toggle in _TOGGLE_KEYS:
            actions += [toggle] * raw.keys_pressed.count(key)  # each press flips it
        if raw.pointer_moved:
            actions.append("pointer_moved")
        editing = self._editing
        if editing is not None and editing.active:
            edit_actions, values = self.ground_edit.map_input(raw, self.camera, editing)
            actions += edit_actions
        for button, px in raw.clicks if editing is None or not editing.active else ():
            if button != 1:
                continue
            point_w = self.camera.to_world(px)
            grabbed = self.sim.foot_near(point_w)
            props = self._prop_hands
            prop = (
                None
                if props is None
                else props.props.prop_at(point_w, props.cup, PROP_CLICK_M, props.knob)
            )
            plug_in = None if self._walk is None else self._walk.plug_in_at(point_w, PROP_CLICK_M)
            if plug_in is not None or prop in ("knob", "cup"):  # before a foot (a cup or a
                # ball by the feet stays clickable)
                actions.append("reach_prop")
                values["prop"] = plug_in or prop
            elif grabbed is not None:
                self._dragging = grabbed
                values["drag_foot"] = grabbed
            elif prop == "door":  # the shut door opens by its knob (playtest 10: a click on
                # the panel a little off the knob set the carried cup down on the floor)
                actions.append("reach_prop")
                values["prop"] = "knob"
            elif props is not None and props.holding >= 0:
                actions.append("put_down")
                values["place_x"] = props.props.place_for_click(point_w)
        if 1 not in raw.buttons_down:
            self._dragging = None
        pointer = self.camera.to_world(raw.pointer_px)
        self._pointer_w = pointer if raw.pointer_inside else None  # (no hover from outside)
        return InputState(
            pointer=(float(pointer[0]), float(pointer[1])) if raw.pointer_inside else None,
            pointer_down=1 in raw.buttons_down and raw.pointer_inside,
            move=float(right) - float(left),
            climb=self._climb_latch.climb(
                float("w" in keys) - float("s" in keys),
                float("w" in raw.keys_pressed) - float("s" in raw.keys_pressed),
                right or left,
                self._ladder,
                self.sim.time,
            ),
            run="shift" in keys,
            actions=tuple(actions),
            values=values,
        )

    # -- drawing -----------------------------------------------------------------------
    def _interpolated(self, alpha: float) -> tuple[PoseInputs, Any]:
        """This frame's interpolated pose and its solve, shared by draw and the overlay."""
        key = (self.sim.step_index, alpha)
        if self._frame is None or self._frame[0] != key:
            self._frame = (key, *self.sim.crowd.interpolated(alpha))
        return self._frame[1], self._frame[2]

    def _hero_soles(self, pose: PoseInputs, sol: Any) -> NDArray[np.float64]:
        """The hero's soles in this frame's pose (heel, ball, toe of each foot, shape
        ``(2, 3, 2)``), the simulation's: worked out once per frame for the camera and the
        overlay's pivot rings (the shoes are drawn over them but mid-turn, see
        :func:`turned_feet`)."""
        kept = self._frame_soles
        if kept is None or kept[0] is not pose or kept[1] is not sol:
            kept = self._frame_soles = (pose, sol, pose.soles(sol.hand[:, LEGS], self.sim.rig)[0])
        return kept[2]

    def draw(self, canvas: Canvas, alpha: float, timer: PhaseTimer) -> None:
        with timer.phase("ik"):
            pose, sol = self._interpolated(alpha)
            soles = self._hero_soles(pose, sol)
        self._follow(pose, alpha, soles)
        self._hero_pixels(pose, sol)  # his box, for the ground's names drawn before him
        pen = WorldPen(canvas, self.camera)
        self._draw_sky(canvas)
        self._draw_grid(canvas)
        self._draw_ground(pen)
        self._draw_props(canvas)
        paint_plug_ins(pen, self._walk, self._pointer_w)
        hands = self._prop_hands
        if hands is not None and hands.holding < 0:
            self._draw_cup(pen, sol)
        self._draw_character(pen, pose, sol)
        self._draw_hover(pen, sol)  # over the hero: a foot's ring and tip stay visible
        hint = self.sim.blocked_hint()
        if hint is not None:  # over his head, where the player is looking
            pen.text(pose.head[0], hint, PALETTE["white"], 15, "midbottom", (0, -40))
        if self.sim.offered is not None and self.sim.reaching.any():
            pen.cross(self.sim.offered, 7, PALETTE["accent"], 2)
        editing = self._editing
        if editing is not None and editing.active:
            self.ground_edit.draw(canvas, pen, editing)
        self._draw_hud(canvas)

    def _lead_way(self, pose: PoseInputs) -> float:
        """+1 or −1: the way the hero last walked (at first, his facing)."""
        vx = float(self.sim.crowd.vx[0])
        if abs(vx) >= LEAD_SPEED or self._lead is None:
            self._lead = math.copysign(1.0, vx) if abs(vx) >= LEAD_SPEED else float(pose.facing[0])
        return self._lead

    def _follow(
        self, pose: PoseInputs, alpha: float, soles: NDArray[np.float64] | None = None
    ) -> None:
        """Ease the camera toward the hero (halflife in simulation seconds). Then, given
        his ``soles`` (world, shape ``(..., 2)``), lower the camera as far as it takes to
        keep them ``HUD_CLEARANCE_PX`` above the status box where they are over its
        columns (at 960x540, standing at the ladder's foot, his heels were on its corner);
        and if the app draws a box over the top of the view (``hud_cover``), raise it as
        far as it takes to keep the top of his head ``HUD_CLEARANCE_PX`` under that (the
        F3 panel hid the head at 960x540, and the easing lags a climb): the head wins."""
        now = self.sim.time + alpha * self.sim.dt
        pelvis = pose.pelvis[0]
        # the standing pelvis's height: a crouch does not take the view down with it
        crouched = CROUCH_DROP * float(smoothstep(self.sim.crowd.crouch[0]))
        goal = (
            # ... plus how far an exponential ease lags a body moving at vx (v · halflife /
            # ln 2): moving, the lead is all there; stopped, the view is nearly settled (it
            # drifted 80 px in the 2.5 s after a run stopped, and clicks missed the knob)
            float(pelvis[0])
            + CAMERA_LEAD_M * self._lead_way(pose)
            + float(self.sim.crowd.vx[0]) * CAMERA_HALFLIFE / math.log(2.0),
            float(pelvis[1]) + 0.35 + crouched,
        )
        if self._camera_time is None or now < self._camera_time:
            self.camera.center_w = goal
        else:
            blend = halflife_blend(now - self._camera_time, CAMERA_HALFLIFE)
            cx, cy = self.camera.center_w
            self.camera.center_w = (cx + (goal[0] - cx) * blend, cy + (goal[1] - cy) * blend)
        self._camera_time = now
        clearance = HUD_CLEARANCE_PX * ui_scale(self.camera.viewport[2:])
        box = self.hud_box
        if soles is not None and box is not None:
            points = self.camera.to_screen(soles).reshape(-1, 2)
            over = points[points[:, 0] <= box[0] + box[2] + clearance]
            lowest = float(over[:, 1].max()) if len(over) else -math.inf
            if lowest > box[1] - clearance:  # lowering the camera raises the feet
                cx, cy = self.camera.center_w
                self.camera.center_w = (cx, cy - (lowest - box[1] + clearance) / self.camera.scale)
        cover = self.hud_cover
        if cover is not None:
            head_top = float(pose.head[0, 1]) + HEAD_TOP * self.sim.rig.body.head_radius
            row = self.camera.point_to_screen(0.0, head_top)[1]
            clear = cover[1] + cover[3] + clearance
            if row < clear:  # screen rows grow downward: raising the camera lowers the head
                cx, cy = self.camera.center_w
                self.camera.center_w = (cx, cy + (clear - row) / self.camera.scale)

    def _draw_sky(self, canvas: Canvas) -> None:
        """The sky's level bands and the hill, which scrolls with the camera at its
        parallax. The rows the ridge crosses are cached in tiles (with the bands behind
        it, which being level scroll with it unseen), the tile beyond either edge readied
        ahead; the bands above them are filled (filling costs less than copying a cached
        sky in: no read), as is the hill's solid body under them, in each of the
        ground's columns down to where its opaque tile leaves no sky."""
        left, top, width, height = self.camera.viewport
        parallax, *_, color = HILL
        row0, rows = _ridge_rows(height)
        band = height / SKY_BANDS
        for i, sky in enumerate(SKY_COLORS):
            if i * band >= row0:
                break
            canvas.rect((left, top + i * band, width, band + 1), sky)
        shift = round(self.camera.center_w[0] * self.camera.scale * parallax)
        tile = SCENERY_TILE_PX
        first, last = (left + shift) // tile, (left + shift + width - 1) // tile
        for k in range(first - 1, last + 2):
            key = ("ridge", width, height, k)
            paint = functools.partial(paint_ridge_tile, u0=k * tile, width=width, height=height)
            if first <= k <= last:
                canvas.layer(
                    key, TILE_KEY, paint, (k * tile - shift, top + row0, tile, rows - row0)
                )
            else:
                canvas.ready_layer(key, TILE_KEY, paint, (tile, rows - row0))
        # the body column by column of the ground, each down to that column's surface
        _, ox, oy, columns = self._ground_columns()
        for shown, ground in columns:
            x0 = max(left, ox + ground.left)
            x1 = min(left + width, ox + ground.left + ground.width)
            floor = min(top + height, oy + ground.surface_low)
            if shown and x1 > x0 and floor > top + rows:
                canvas.rect((x0, top + rows, x1 - x0, floor - top - rows), color)

    def _sky_floor(self) -> int:
        """The row under which the ground's tiles cover every column of the view: the
        lowest row its surface line reaches (the tiles are opaque from there down), or the
        view's bottom. The hill and the grid are not drawn under it."""
        top, height = self.camera.viewport[1], self.camera.viewport[3]
        _, _, oy, columns = self._ground_columns()
        return min(top + height, max(oy + band.surface_low for shown, band in columns if shown))

    def _draw_grid(self, canvas: Canvas) -> None:
        """One-metre grid lines, axis-aligned and one pixel wide: each is a 1-px rectangle
        (a filled rectangle costs a fraction of a line drawn pixel by pixel), drawn only
        where the ground will not cover it (a column down to the surface line, a row
        above the sky's floor): a column of the whole window's height costs ~9 µs."""
        camera = self.camera
        left, top, width, height = camera.viewport
        color = GRID_COLOR
        floor = self._sky_floor()
        x0, x1 = camera.visible_x_range()
        xs = np.arange(math.floor(x0), math.ceil(x1) + 1, dtype=float)
        for x, ground in zip(xs.tolist(), self.sim.terrain.height_at(xs).tolist(), strict=True):
            column, surface = camera.point_to_screen(x, ground)
            bottom = min(floor, surface + EDGE_PX)  # the surface line is EDGE_PX wide
            if bottom > top:
                canvas.rect((column, top, 1, bottom - top), color)
        cy, half = camera.center_w[1], 0.5 * height / camera.scale
        for y in range(math.floor(cy - half), math.ceil(cy + half) + 1):
            row = camera.point_to_screen(0.0, y)[1]
            if row < floor:
                canvas.rect((left, row, width, 1), color)

    def _draw_ground(self, pen: WorldPen) -> None:
        """The ground, in columns ``SCENERY_TILE_PX`` wide fixed to the world: each is a
        cached tile of the rows its surface and stratum lines cross (see
        :func:`ground_band`), see-through above the surface, and a rectangle of the deep
        colour under it. A new terrain (an edit, a reload) or scale makes new tiles; the
        column beyond either edge is readied ahead. The landmarks' names, which make room
        for the status box, are drawn each frame."""
        canvas, camera = pen.canvas, self.camera
        top, height = camera.viewport[1], camera.viewport[3]
        version, ox, oy, columns = self._ground_columns()
        for shown, band in columns:
            paint = functools.partial(paint_ground_band, band=band)
            size = (band.width, band.bottom - band.top)
            if not shown:
                canvas.ready_layer(("ground", version, band.left), TILE_KEY, paint, size)
                continue
            x, y = ox + band.left, oy + band.top
            canvas.layer(("ground", version, band.left), TILE_KEY, paint, (x, y, *size))
            deep_from = oy + band.bottom
            if deep_from < top + height:
                canvas.rect((x, deep_from, band.width, top + height - deep_from), GROUND_DEEP)
        x0, x1 = camera.visible_x_range()
        self._ground_labels.clear()
        # what the names keep off: the hero, the status box, the F3 panel, and the props
        # (drawn next, the door hid a name)
        avoid = [b for b in (self.subject_box, self.hud_box, self.hud_cover) if b is not None]
        for x_0, y_0, x_1, y_1 in self._prop_boxes():
            (left, upper), (right, lower) = pen.px((x_0, y_1)), pen.px((x_1, y_0))
            avoid.append((left, upper, right - left, lower - upper))
        for mark in self.sim.terrain.landmarks:
            if x0 - 2 < 0.5 * (mark.x_from + mark.x_to) < x1 + 2:
                self._label_landmark(pen, mark.name, mark.x_from, mark.x_to, avoid)

    def _ground_columns(self) -> tuple[int, int, int, list[tuple[bool, GroundBand]]]:
        """The ground's columns in and beside the view: the terrain's number in the tiles'
        keys, where the world's origin lands (whole pixels: the tiles move by pixels) and,
        from the column left of the view to the one right of it, (in view?, its band)."""
        camera = self.camera
        left, _, width, _ = camera.viewport
        terrain, scale, side = self.sim.terrain, camera.scale, SCENERY_TILE_PX
        if self._ground[0] is not terrain or self._ground[1] != scale:
            self._ground = (terrain, scale, next(_GROUND_VERSIONS), {})
        _, _, version, bands = self._ground
        ox, oy = (round(v) for v in camera.point_to_screen(0.0, 0.0))
        first, last = (left - ox) // side, (left + width - 1 - ox) // side
        columns = []
        for i in range(first - 1, last + 2):
            band = bands.get(i)
            if band is None:
                band = bands[i] = ground_band(terrain, scale, i * side, side)
            columns.append((first <= i <= last, band))
        return version, ox, oy, columns

    def _label_hidden(
        self,
        pen: WorldPen,
        at: NDArray[np.float64],
        text: str,
        offset: tuple[float, float],
        left: bool,
        size: int = 16,
    ) -> bool:
        """Whether a ``size`` px label at world ``at``, ``offset`` (1280x720 px) beside it,
        ending there (``left``) or starting there, would lie under the status box as last
        drawn or on a landmark's name drawn this frame (at the ladder's foot the feet's
        labels covered "ladder")."""
        s = ui_scale(pen.canvas.size)
        x, y = pen.px(at)
        w, h = pen.canvas.text_size(text, font_px(size, s))
        box = (x + offset[0] * s - (w if left else 0.0), y + offset[1] * s - h / 2, w, h)
        boxes = (
            self._ground_labels if self.hud_box is None else [self.hud_box, *self._ground_labels]
        )
        return any(intersects(box, other) for other in boxes)

    def _label_landmark(
        self,
        pen: WorldPen,
        name: str,
        x_from: float,
        x_to: float,
        avoid: list[tuple[float, float, float, float]],
    ) -> None:
        """A landmark's name by the ground line, just under it or just over it, at the
        landmark's middle or a quarter of the way in from either end: the first of those
        places (the one it had last frame first) that lies on the screen top to bottom and
        clear of the ``avoid`` boxes and the names put down already. None clear: the name
        is left out this frame (playtest 7: the names lay at his feet, under the status
        box, and off the bottom of the window)."""
        color = faint(PALETTE["ground_edge"], 0.8)
        canvas, terrain = pen.canvas, self.sim.terrain
        s = ui_scale(canvas.size)
        w, h = canvas.text_size(name, font_px(18, s))
        avoid = avoid + self._ground_labels
        span = x_to - x_from
        spots = [(x, under) for x in (0.5, 0.25, 0.75) for under in (True, False)]
        last = self._label_spots.get(name)
        for at, under in ([last] if last in spots else []) + spots:
            ground = (x_from + at * span, float(terrain.height_at(x_from + at * span)))
            x, y = pen.px(ground)
            box = (x - w / 2, y + 12 * s if under else y - 10 * s - h, w, h)
            if box[1] < 0 or box[1] + h > canvas.size[1]:
                continue
            if any(intersects(box, other) for other in avoid):
                continue
            if under:
                pen.text(ground, name, color, 18, "midtop", (0, 12))
            else:
                pen.text(ground, name, color, 18, "midbottom", (0, -10))
            self._ground_labels.append(box)
            self._label_spots[name] = (at, under)
            return

    def _draw_props(self, canvas: Canvas) -> None:
        """The door, the table and the ladder: static, so each is drawn once (per props and
        window scale) into a cached sprite that follows the camera."""
        if self._prop_hands is None:
            return
        props = self._prop_hands.props
        paints = (self._paint_door, self._paint_table, self._paint_ladder)
        for index, (box_w, paint) in enumerate(zip(self._prop_boxes(), paints, strict=True)):
            if index == 0 and self._prop_hands.door_swing > 0.0:
                paint(WorldPen(canvas, self.camera))  # swinging: drawn as it stands
            else:
                self._static_sprite(canvas, (props, index), box_w, paint)

    def _prop_boxes(self) -> list[tuple[float, float, float, float]]:
        """The door's, the table's and the ladder's boxes in the world (x0, y0, x1, y1);
        none in a scene without props."""
        if self._prop_hands is None:
            return []
        props = self._prop_hands.props
        door, table, ladder = props.door, props.table, props.ladder
        half = ladder.width / 2
        return [
            (door.x0, door.base, door.x0 + door.width, door.base + door.height),
            (table.top_box()[0], table.base, table.top_box()[2], table.top),
            (ladder.x - half, ladder.base, ladder.x + half, ladder.base + ladder.height),
        ]

    def _static_sprite(
        self,
        canvas: Canvas,
        key: Hashable,
        box_w: tuple[float, float, float, float],
        paint: Callable[[WorldPen], None],
    ) -> None:
        """What ``paint(pen)`` draws inside the world box ``(x0, y0, x1, y1)`` (plus
        ``SPRITE_PAD_PX``), as a cached layer: painted through a camera of the box's own at
        this camera's scale, put down where this camera shows the box (to the nearest pixel)."""
        x0, y0, x1, y1 = box_w
        scale = self.camera.scale
        pad = SPRITE_PAD_PX
        width = math.ceil((x1 - x0) * scale) + 2 * pad
        height = math.ceil((y1 - y0) * scale) + 2 * pad

        def paint_layer(layer: Canvas) -> None:
            # the sprite's own camera puts the box's top-left corner (x0, y1) at (pad, pad)
            own = Camera2D(
                center_w=(x0 + (width / 2 - pad) / scale, y1 - (height / 2 - pad) / scale),
                scale=scale,
                viewport=(0, 0, width, height),
            )
            paint(WorldPen(layer, own))

        left, top = self.camera.point_to_screen(x0, y1)
        canvas.layer(
            (key, scale), SCENERY_BACKDROP, paint_layer, (left - pad, top - pad, width, height)
        )

    def _paint_door(self, pen: WorldPen) -> None:
        """The door as it stands: frame, two panels, knob. Open, the dark doorway shows
        behind a leaf that narrows toward its hinge (a side view of a door open by an
        angle shows its cosine of the width) and darkens as it turns from the light, its
        free edge a little taller as it swings toward the viewer; the knob goes with it."""
        hands = self._prop_hands
        assert hands is not None
        door = hands.props.door
        wood, edge = PALETTE["wood"], mix(PALETTE["wood"], PALETTE["black"], 0.45)
        x0, x1, y0, y1 = door.x0, door.x0 + door.width, door.base, door.base + door.height
        outline = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]])
        angle = hands.door_angle
        if angle > 0.0:
            pen.polygon(outline, DOORWAY)
            pen.polygon(outline, edge, 3)
        leaf = door_leaf(hands.door_hinge_x, door.width, y0, door.height, angle)
        fill = mix(mix(wood, PALETTE["background"], 0.35), PALETTE["black"], 0.4 * math.sin(angle))
        pen.polygon(leaf(outline), fill)
        pen.polygon(leaf(outline), edge, 3)
        inset = np.array([[0.1, 0.2], [-0.1, 0.2], [-0.1, -0.15], [0.1, -0.15]])
        upper = np.array([[x0, y0 + 1.1], [x1, y0 + 1.1], [x1, y1], [x0, y1]]) + inset
        lower = np.array([[x0, y0], [x1, y0], [x1, y0 + 0.95], [x0, y0 + 0.95]]) + inset
        pen.polygon(leaf(upper), edge, 2)
        pen.polygon(leaf(lower), edge, 2)
        pen.disc(hands.knob, max(0.035 * pen.camera.scale, 3.0), PALETTE["accent"])

    def _paint_table(self, pen: WorldPen) -> None:
        """The table: two legs and the top, in the far tone of the hero's colours."""
        assert self._prop_hands is not None
        table = self._prop_hands.props.table
        wood = mix(PALETTE["wood"], PALETTE["background"], self.sim.rig.colors.far_shade)
        edge = mix(wood, PALETTE["black"], 0.45)
        tx0, tx1 = table.x0, table.x0 + table.width
        left, bottom, right, top = table.top_box()  # the slab a carried cup keeps out of
        for x in (tx0 + 0.06, tx1 - 0.06):
            pen.line(
                (x, table.base), (x, bottom + 0.01), edge, max(int(0.05 * pen.camera.scale), 2)
            )
        pen.polygon([(left, bottom), (right, bottom), (right, top), (left, top)], wood)

    def _paint_ladder(self, pen: WorldPen) -> None:
        """The ladder: two rails and the rungs."""
        assert self._prop_hands is not None
        ladder = self._prop_hands.props.ladder
        wood, edge = PALETTE["wood"], mix(PALETTE["wood"], PALETTE["black"], 0.45)
        lx0, lx1 = ladder.x - ladder.width / 2, ladder.x + ladder.width / 2
        rail = max(int(0.04 * pen.camera.scale), 2)
        for x in (lx0, lx1):
            pen.line((x, ladder.base), (x, ladder.base + ladder.height), edge, rail)
        for y in ladder.rungs:
            pen.line((lx0, y), (lx1, y), wood, max(rail - 2, 2))

    def _draw_hover(self, pen: WorldPen, sol: Any) -> None:
        """A highlight on what a click under the pointer takes (the knob, the cup, a foot;
        the ladder) and what the click does with it."""
        hands, pointer = self._prop_hands, self._pointer_w
        if pointer is None or self._dragging is not None:
            return
        if self._editing is not None and self._editing.active:  # clicks edit the ground
            return
        hover = (
            None
            if hands is None
            else hands.props.prop_at(pointer, hands.cup, PROP_CLICK_M, hands.knob)
        )
        if hands is not None and hover in ("knob", "cup", "door"):
            if {"door": "knob"}.get(hover, hover) == hands.goal or hands.phase == "release":
                return  # he is going for it: its ring and words lay on his hand and face
        foot = self.sim.foot_near(pointer)
        color = PALETTE["white"]
        if hands is not None and hover == "knob":
            pen.ring_px(hands.knob, 0.09 * self.camera.scale, color, 2)
            tip = "click: reach for the knob"
        elif hands is not None and hover == "door" and foot is None:
            pen.ring_px(hands.knob, 0.09 * self.camera.scale, color, 2)
            tip = "click: open the door"
        elif hands is not None and hover == "cup" and hands.holding < 0:
            centre = np.asarray(hands.cup) + np.array([0.0, hands.props.cup.height / 2])
            pen.ring_px(centre, 0.12 * self.camera.scale, color, 2)
            tip = "click: pick up the cup"
        elif foot is not None:
            ankle = sol.hand[0, LIMBS.index(foot)]  # as drawn this frame
            pen.ring_px(ankle, 0.08 * self.camera.scale, color, 2)
            tip = "drag: move the foot"
        elif hands is not None and hover == "ladder":
            ladder = hands.props.ladder
            x0, x1 = ladder.x - ladder.width / 2 - 0.06, ladder.x + ladder.width / 2 + 0.06
            y0, y1 = ladder.base, ladder.base + ladder.height
            pen.polyline(np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]]), color, 2, closed=True)
            if hands.holding >= 0:
                tip = "put the cup down to climb (click a surface)"
            elif self.sim.on_loft():
                tip = "S by the edge: climb down"
            else:
                tip = "W at its foot: climb"
        elif hands is not None and hands.holding >= 0 and hover is None:
            tip = "click: set the cup down there"  # (the table or the floor under the pointer)
        else:
            return
        # over the pointer, or under it, or beside it away from him: the first place that
        # keeps the words off him (over the knob they lay on his reaching hand and face)
        s = ui_scale(pen.canvas.size)
        x, y = pen.px(pointer)
        w, h = pen.canvas.text_size(tip, font_px(15, s))
        hero = self.subject_box
        away = -1.0 if hero is not None and hero[0] + hero[2] / 2 > x else 1.0
        beside = x + away * 20 * s - (w if away < 0 else 0.0)
        places = [  # (left, top) of the words
            (x - w / 2, y - 16 * s - h),
            (x - w / 2, y + 16 * s),
            (beside, y - h / 2),
        ]
        if foot is not None:  # a foot is at his box's bottom: under it, on the ground, first
            places = places[1:2] + places[2:] + places[:1]
        # ... kept inside the window (playtest 10: cut to "click: set the cu" at its edge)
        width, height = pen.canvas.size
        inside = [
            (min(max(left, 0.0), width - w), min(max(top, 0.0), height - h)) for left, top in places
        ]
        clear = [p for p in inside if hero is None or not intersects((*p, w, h), hero)]
        pen.canvas.text((clear or inside)[0], tip, color, font_px(15, s), "topleft")

    def _draw_cup(self, pen: WorldPen, sol: Any) -> None:
        """The cup at its bottom centre; a held cup sits under this frame's solved hand."""
        hands = self._prop_hands
        if hands is None:
            return
        spec = hands.props.cup
        if hands.holding >= 0:
            hand = sol.hand[0, ARMS.start + hands.holding]
            x, y = float(hand[0]), float(hand[1]) - spec.grip
        else:
            x, y = (float(v) for v in hands.cup)
        tilt = hands.cup_tilt(self.sim.terrain)  # (0 in a hand) standing flush on a slope
        canvas, h = pen.canvas, spec.height
        points = self.camera.to_screen(hands.props.cup_outline((x, y), tilt)).tolist()
        body, handle = points[:4], points[4]
        canvas.polygon(body, PALETTE["white"])
        canvas.polygon(body, PALETTE["metal"], 2)
        canvas.circle(handle, self.camera.length_px(0.3 * h), PALETTE["white"], 2)

    def _hero_pixels(self, pose: PoseInputs, sol: Any) -> tuple[list[Any], list[Any]]:
        """The hero's limbs' joints (per limb: root, mid and end) and shoe outlines in
        pixels, worked out once a frame (the legs spread apart as a turn shows them from
        the front); his box on screen (``subject_box``) with them, so that what is drawn
        before him (the ground's names) keeps off him."""
        camera = self.camera
        view = (camera.center_w, camera.scale)
        kept = self._pixels
        if kept is not None and kept[0] is pose and kept[1] is sol and kept[2] == view:
            return kept[3], kept[4]
        rig = self.sim.rig
        ankles, soles = sol.hand[0, LEGS], self._hero_soles(pose, sol)
        if abs(float(pose.spin[0])) < 1.0:  # mid-turn: seen partly from the front
            ankles, soles = turned_feet(pose, ankles, rig.legs)
        joints_w = np.stack([pose.roots[0], sol.elbow[0], sol.hand[0]], axis=1)
        joints_w[LEGS] += ankles[:, None] - sol.hand[0, LEGS, None]
        joints = camera.to_screen(joints_w)
        shoes_px = camera.to_screen(shoe_outlines(ankles, soles)).tolist()
        head_px = camera.point_to_screen(*pose.head[0].tolist())
        head_top = HEAD_TOP * rig.body.head_radius
        self.subject_box = _hero_box(joints, shoes_px, head_px, head_top, camera.scale)
        self._pixels = (pose, sol, view, joints.tolist(), shoes_px)
        return self._pixels[3], self._pixels[4]

    def _draw_character(self, pen: WorldPen, pose: PoseInputs, sol: Any) -> None:
        """The hero, far limbs first. The limbs' joints and the shoes are turned into
        pixels in one numpy call each; the body's eight points, each a short sum, in plain
        floats (~0.5 µs a point against ~1 µs a numpy operation)."""
        rig, canvas, camera = self.sim.rig, pen.canvas, self.camera
        body, scale = rig.body, camera.scale
        facing = float(pose.facing[0])
        near = 1 if facing > 0 else 0  # the right side faces the camera when facing +x
        far = 1 - near
        limbs_px, shoes_px = self._hero_pixels(pose, sol)
        (px, py), (cx, cy), (hx, hy) = (
            pose.pelvis[0].tolist(),
            pose.chest[0].tolist(),
            pose.head[0].tolist(),
        )
        length = max(math.hypot(cx - px, cy - py), 1e-9)
        sx, sy = (cx - px) / length, (cy - py) / length  # the spine's direction
        f = facing  # forward is (f, 0), up (0, 1)
        to_px = camera.point_to_screen
        pelvis_px, chest_px, head_px = to_px(px, py), to_px(cx, cy), to_px(hx, hy)
        waist_a, waist_b = (
            to_px(px + sx * 0.03, py + sy * 0.03),
            to_px(px + sx * 0.1, py + sy * 0.1),
        )
        radius = body.head_radius
        hair = to_px(hx + HEAD_HAIR[0] * radius * f, hy + HEAD_HAIR[1] * radius)
        face = to_px(hx + HEAD_FACE[0] * radius * f, hy + HEAD_FACE[1] * radius)
        eye = to_px(hx + HEAD_EYE[0] * radius * f, hy + HEAD_EYE[1] * radius)
        tones = _hero_tones(rig.colors)

        def limb(
            index: int, widths: tuple[float, float, float], color: str, side: int, end_cap: bool
        ) -> None:
            root, mid, end = limbs_px[index]
            c, edge = tones[color, side == near]
            # the far limbs, dark and mostly behind the body, go without their edges (eight
            # anti-aliased lines, ~5 us each in the frame); the near ones keep them
            outline = edge if side == near else None
            w0, w1, w2 = widths[0] * scale, widths[1] * scale, widths[2] * scale
            bone(canvas, root, mid, c, w0, w1, outline, cap_b=False)
            bone(canvas, mid, end, c, w1, w2, outline, cap_b=end_cap)

        def arm(side: int) -> None:
            # no wrist cap: the hand's disc, drawn next on the same centre, is wider
            limb(ARMS.start + side, ARM_WIDTHS_M, "shirt", side, end_cap=False)
            skin, edge = tones["skin", side == near]
            hand_px = limbs_px[ARMS.start + side][2]
            held = self._prop_hands
            if held is None or held.holding != side:
                canvas.circle(hand_px, HAND_RADIUS_M * scale, skin)
                return
            # the cup at its hand's depth (a far hand's behind the torso and the near
            # limbs: it floated beside the near forearm), over the wrist, and the fingers
            # wrapped round its middle, its rim and base showing. No hand's disc: it
            # poked out over the rim from behind the cup, a hand inside it (playtest 7)
            self._draw_cup(pen, sol)
            half, fingers = GRIP_HALF_M * scale, FINGERS_M * scale
            x, y = hand_px
            bone(canvas, (x - half, y), (x + half, y), skin, fingers, fingers, edge)

        def leg(side: int) -> None:
            limb(LEGS.start + side, LEG_WIDTHS_M, "trousers", side, end_cap=True)
            # the shoe over its sole; its sole's two parts edged (heel-ball, ball-toe tip)
            shoe = shoes_px[side]
            color, edge = tones["shoes", side == near]
            canvas.polygon(shoe, color)
            canvas.line(shoe[0], shoe[1], edge, 3)
            canvas.line(shoe[1], shoe[2], edge, 3)

        self._draw_shadow(pen, px, py)
        arm(far)
        leg(far)
        torso = body.torso_width * scale
        colors = rig.colors
        bone(canvas, pelvis_px, chest_px, colors.shirt, torso * 0.8, torso, tones["shirt_edge"][0])
        bone(canvas, waist_a, waist_b, colors.trousers, torso * 0.62, torso * 0.72)
        bone(canvas, chest_px, head_px, colors.skin, 0.07 * scale, 0.07 * scale)
        canvas.circle(head_px, radius * scale, colors.skin)
        canvas.circle(hair, HEAD_HAIR[2] * radius * scale, colors.hair)
        canvas.circle(face, HEAD_FACE[2] * radius * scale, colors.skin)
        canvas.circle(eye, max(0.012 * scale, 1.5), PALETTE["black"])
        leg(near)
        arm(near)

    def _draw_shadow(self, pen: WorldPen, x: float, y: float) -> None:
        """A soft ellipse on the ground under the hero's pelvis at ``(x, y)``, flatter the
        higher the pelvis: the ellipse's centre and radii in pixels, its 24 points in one
        numpy expression."""
        ground = float(self.sim.terrain.height_at(x))
        width = 0.32 / max(y - ground, 0.5)
        scale = self.camera.scale
        cx, cy = self.camera.point_to_screen(x, ground)
        ellipse = np.stack(
            [cx + (width * scale) * _SHADOW_COS, cy - (0.035 * scale) * _SHADOW_SIN], -1
        )
        pen.canvas.polygon(ellipse.tolist(), SHADOW_COLOR)  # plain numbers: checked in Python

    def _draw_hud(self, canvas: Canvas) -> None:
        sim = self.sim
        crowd = sim.crowd
        feet = crowd.feet
        states = []
        climbing = self._climbing
        pinned, planted = feet.pinned[0].tolist(), feet.planted[0].tolist()
        for side, label in ((0, "L"), (1, "R")):
            state = (
                _rung_label(climbing, LEGS.start + side)
                if climbing is not None
                else "pinned"
                if pinned[side]
                else "planted"
                if planted[side]
                else "swing"
            )
            states.append(f"{label} {state}")
        speed = abs(float(crowd.vx[0]))
        flips = int(crowd.knee_flips[0])
        poles = "ON" if sim.poles_on else "OFF"
        hands = (
            ("both hands" if sim.both_hands else "nearer hand") + " follow mouse"
            if sim.hands_follow
            else "hands swing (H)"
        )
        feet_item = "  ".join(states)
        items = [
            f"knee poles {poles}",
            f"knee flips {flips}",
            feet_item,
            f"{speed:4.2f} m/s",
            hands,
            f"footsteps {int(feet.steps[0])}",
        ]
        color = PALETTE["text"] if sim.poles_on else PALETTE["warn"]
        hint = "A/D walk · Shift run · move or hold the mouse: hands reach · H hands follow · B both/nearer · drag a foot · K poles · O overlay · F1 help"
        # every text each item can show, its figures at their widest (digits as 8s): the
        # status is laid out for the widest, so it keeps its size as they change
        alternatives = [
            (digits_as_8(items[0]), "knee poles OFF"),
            (digits_as_8(items[1]),),
            _FEET_TEXTS,
            (digits_as_8(items[3]),),
            ("both hands follow mouse", "nearer hand follow mouse", "hands swing (H)"),
            (digits_as_8(items[5]),),
        ]
        self._status_panel(canvas, items, color, [*self._ladder_hint(), hint], alternatives)

    def _status_panel(
        self,
        canvas: Canvas,
        items: list[str],
        color: Color,
        hints: list[str],
        alternatives: list[tuple[str, ...]],
    ) -> None:
        """Draw the status box (:func:`draw_status_panel`) no narrower than it has been at
        this window size: the hinted font's figures differ by a pixel (``1.35`` is wider
        than ``8.88``), which would still twitch its right edge."""
        size, widest = self._hud_width
        at_least = widest if size == canvas.size else 0.0
        box = draw_status_panel(canvas, items, color, hints, alternatives, at_least)
        self._hud_width, self.hud_box = (canvas.size, box[2]), box

    def _ladder_hint(self) -> list[str]:
        """How to get on and off the ladder, when that is what the player can do now."""
        climbing = self._climbing
        if climbing is not None:
            top = "W at the top steps onto the loft · " if climbing.ladder.loft is not None else ""
            return [
                f"ladder: tap W / S to climb one rung cycle, hold to keep going · {top}S to the bottom lets go"
            ]

        ladder = self._ladder
        near = (
            ladder is not None and abs(ladder.spot_x - float(self.sim.crowd.x[0])) < LADDER_NEAR_M
        )
        if not (near or self.sim.on_loft()):
            return []
        hands = self._prop_hands
        if hands is not None and hands.holding >= 0:  # the ladder takes both hands
            return ["holding the cup: put it down (click a surface) to climb"]
        if self.sim.on_loft():
            return ["on the loft: S climbs back down the ladder"]
        return ["at the ladder: W climbs on"]

    # -- overlay -----------------------------------------------------------------------
    def draw_overlay(self, canvas: Canvas, alpha: float) -> None:
        """Per limb: reach annulus, soft band, target, pole and its line, shortfall; per
        foot: plant state, lock radius around the planted spot, and the ground ray."""
        pose, sol = self._interpolated(alpha)
        camera = self.camera
        pen = WorldPen(canvas, camera)
        rig = self.sim.rig
        specs = (rig.arms.limb, rig.arms.limb, rig.legs.limb, rig.legs.limb)
        # per limb, in pixels (one conversion): root, target, mid and end joint, pole
        points = camera.to_screen(
            np.stack([pose.roots[0], pose.targets[0], sol.elbow[0], sol.hand[0], pose.poles[0]], 1)
        ).tolist()
        pole_on, shortfall = pose.pole_on[0].tolist(), sol.shortfall[0].tolist()
        for index, spec in enumerate(specs):
            root, target, mid, end, pole = points[index]
            soft = spec.softness
            canvas.circle(root, camera.length_px(spec.reach), OVERLAY_RING_COLORS[0], 1)
            canvas.circle(root, camera.length_px(spec.dead_zone), OVERLAY_RING_COLORS[1], 1)
            if soft > 0:
                # the soft band [L − s, L]: between this circle and the reach circle
                radius = camera.length_px(spec.reach - soft)
                canvas.circle(root, radius, OVERLAY_RING_COLORS[2], 1)
            if pole_on[index]:
                canvas.line(pole, mid, OVERLAY_POLE_LINE, 1)
                canvas.circle(pole, 5, PALETTE["pole"], 2)
            if shortfall[index] > 1e-3:
                dashed(canvas, end, target, PALETTE["shortfall"], 2)
            cross(canvas, target, 5, PALETTE["target"], 2)
        self._draw_feet_overlay(pen, pose, sol)
        draw_overlay_legend(canvas)
        hands = self._prop_hands
        goal = None if hands is None else hands.goal_point()
        if hands is not None and goal is not None:
            pen.ring_px(goal, 9, PALETTE["accent"], 2)
            pen.text(
                goal, f"{hands.goal}: {hands.phase}", PALETTE["accent"], 15, "midbottom", (0, -12)
            )

    def _draw_feet_overlay(self, pen: WorldPen, pose: PoseInputs, sol: Any) -> None:
        climbing = self._climbing
        if climbing is not None:
            # on the ladder every limb's state is its rung (the gait's plant states rest)
            for limb, name in enumerate(LIMBS):
                end = pose.targets[0, limb]
                color = PALETTE["warn"] if limb == climbing.moving else PALETTE["ok"]
                text = f"{_limb_label(name)}: {_rung_label(climbing, limb)}"
                # each label on the outer side of its pair (arms, legs), whichever limb is
                # further left on screen: by limb side, crossed feet's labels overprinted
                pair = pose.targets[0, limb - limb % 2 : limb - limb % 2 + 2]
                left = _outer_left(pair[:, 0], limb % 2)
                offset = (-14.0 if left else 14.0, -8.0 if limb < LEGS.start else 8.0)
                if limb < LEGS.start:
                    # the hands' labels ahead of them, the higher one above: on the outer
                    # side, the rear hand's was drawn across his face (playtest 15)
                    left = bool(pose.facing[0] < 0)
                    mine, other = pair[limb % 2, 1], pair[1 - limb % 2, 1]
                    higher = mine > other or (mine == other and limb % 2 == 0)
                    offset = (-14.0 if left else 14.0, -9.0 if higher else 9.0)
                if limb >= LEGS.start and self._label_hidden(pen, end, text, offset, left, 15):
                    offset = (offset[0], -24.0)  # above the foot, off the ground's name
                pen.text(end, text, color, 15, "midright" if left else "midleft", offset)
            return
        feet = self.sim.crowd.feet
        soles = self._hero_soles(pose, sol)  # the simulation's (the solve drawn this frame)
        ankles = pose.targets[0, LEGS]
        # each foot's flags and rays as plain values (an element of an array costs ~0.1 µs)
        pinned, planted, pitch = feet.pinned[0].tolist(), feet.planted[0].tolist(), feet.pitch[0]
        rays = np.stack([feet.ray_from[0], feet.ray_hit[0]], axis=1).tolist()
        for side, label in ((0, "L"), (1, "R")):
            ankle = ankles[side]
            if pinned[side]:
                state, color = "pinned", PALETTE["accent"]
            elif planted[side]:
                state, color = "planted", PALETTE["ok"]
                # the locked contact pivot: the heel rolling flat, the ball lifting the heel
                pivot = soles[side, 0 if pitch[side] > 0 else 1]
                pen.circle(pivot, 0.04, OVERLAY_PIVOT, 2)
            else:
                state, color = "swing", PALETTE["warn"]
            ray_from, ray_hit = rays[side]
            pen.dashed(ray_from, ray_hit, OVERLAY_RAY, 1, 5, 5)
            pen.disc(ray_hit, 4, PALETTE["metal"])
            # beside the foot, on the outer side of the pair (the HUD owns the bottom edge)
            outer_left = _outer_left(ankles[:, 0], side)
            text = f"{label}: {state}"
            offset = (-18.0 if outer_left else 18.0, 22.0)
            if self._label_hidden(pen, ankle, text, offset, outer_left):
                offset = (offset[0], -34.0)  # above the foot, off the status box and names
            anchor = "midright" if outer_left else "midleft"
            pen.text(ankle, text, color, 16, anchor, offset)
        x = float(pose.pelvis[0, 0])
        ground = float(self.sim.terrain.height_at(x))
        pen.line((x, ground - 0.05), (x, ground + 0.05), PALETTE["accent"], 2)


# the overlay's faint colours: the reach, dead-zone and soft-band rings; the pole's line
OVERLAY_RING_COLORS = (
    faint(PALETTE["reach"], 0.45),
    faint(PALETTE["dead_zone"], 0.5),
    faint(PALETTE["soft_band"], 0.45),
)
OVERLAY_POLE_LINE = faint(PALETTE["pole"], 0.7)
OVERLAY_PIVOT = faint(PALETTE["ok"], 0.6)  # the ring on a planted foot's pivot
OVERLAY_RAY = faint(PALETTE["metal"], 0.6)  # each foot's ground ray
_SHADOW_T = np.linspace(0.0, 2.0 * math.pi, 24)  # the shadow's ellipse: 24 points around
_SHADOW_COS, _SHADOW_SIN = np.cos(_SHADOW_T), np.sin(_SHADOW_T)
SHADOW_COLOR = mix(PALETTE["ground"], PALETTE["black"], 0.35)


@functools.lru_cache(maxsize=8)
def _hero_tones(colors: RigColors) -> dict[Any, tuple[Color, Color]]:
    """The hero's colours, worked out once per rig: ``(part, near side?)`` gives the fill
    and its edge (far limbs are shaded toward the background), ``"shirt_edge"`` the torso's
    edge (first of the pair)."""
    tones: dict[Any, tuple[Color, Color]] = {}
    for part in ("shirt", "trousers", "skin", "shoes"):
        for near in (True, False):
            color = getattr(colors, part)
            if not near:
                color = mix(color, PALETTE["background"], colors.far_shade)
            # the shoes are edged lighter (their soles), the limbs darker
            edge = (
                mix(color, PALETTE["white"], 0.25)
                if part == "shoes"
                else mix(color, PALETTE["black"], 0.35)
            )
            tones[part, near] = (color, edge)
    shirt_edge = mix(colors.shirt, PALETTE["black"], 0.3)
    tones["shirt_edge"] = (shirt_edge, shirt_edge)
    return tones


def door_leaf(
    hinge_x: float, width: float, base: float, height: float, angle: float
) -> Callable[[NDArray[np.float64]], NDArray[np.float64]]:
    """Where the points of a shut door (world, shape ``(..., 2)``) are seen with the door
    open by ``angle`` about its hinge at ``hinge_x``, for a door ``width`` wide and
    ``height`` tall standing at ``base``: each point's distance from the hinge shows at
    ``cos(angle)``, and the
    free edge, nearer the viewer, is ``DOOR_NEAR_M · sin(angle)`` taller above and below
    (a point's share of it grows with its distance from the hinge and from mid-height)."""
    cos, near = math.cos(angle), DOOR_NEAR_M * math.sin(angle)

    def seen(points: NDArray[np.float64]) -> NDArray[np.float64]:
        x, y = points[..., 0], points[..., 1]
        u = np.abs(x - hinge_x) / width  # 0 at the hinge, 1 at the free edge
        v = (y - base) / height  # 0 at the bottom, 1 at the top
        return np.stack([hinge_x + (x - hinge_x) * cos, y + u * near * (2.0 * v - 1.0)], -1)

    return seen


def turned_feet(
    pose: PoseInputs, ankles: NDArray[np.float64], legs: LegSpec
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """The hero's ankles ``(2, 2)`` and soles ``(2, 3, 2)`` (heel, ball, toe tip) as drawn,
    from his solved ``ankles`` and ``pose``: mid-turn the side view sees him partly from
    the front. The simulation foreshortens each foot by the turn's cosine ``spin``, to a
    point end-on (both shoes shrank to a needle for a frame or two, playtest); a shoe seen
    from the front still shows its width, so the drawn foot is never shorter than
    ``SHOE_WIDTH_M``. And the legs, whose hips meet end-on in the simulation (its depth
    offsets scale with ``|spin|``), are drawn apart by ``LEG_SPREAD_M`` times the turn's
    sine, his right leg on the left (he turns to face the camera), so the two stay
    readable. Drawing only: the simulation's feet and traces are its own."""
    spin = pose.spin[:1]
    least = SHOE_WIDTH_M / (legs.heel + legs.toe)
    # the apparent length is the projection |spin|·L, held at the shoe's width
    apparent = np.copysign(np.maximum(np.abs(spin), least), spin)
    # sine of the turn: 1 - spin² under the root (clamped: an interpolated spin is |s| <= 1)
    side = LEG_SPREAD_M * math.sqrt(max(1.0 - float(spin[0]) ** 2, 0.0))
    drawn = ankles + np.array([[side, 0.0], [-side, 0.0]])  # left leg, right leg
    soles = sole_points(drawn, pose.foot_angle[0], pose.foot_bend[0], apparent, legs)
    return drawn, soles


def shoe_outlines(ankles: NDArray[np.float64], soles: NDArray[np.float64]) -> NDArray[np.float64]:
    """Shoes over their soles, world metres: ``ankles`` shape ``(F, 2)`` and ``soles``
    ``(F, 3, 2)`` (heel, ball, toe tip) give outlines ``(F, 8, 2)`` whose first three
    points are the sole's. The rear part is rigid from the heel to the ball, the toe cap
    bends at the ball. Each outline point is a fixed sum of the sole's points, the ankle
    and the two parts' unit directions and normals (``_SHOE_POINTS``): one matrix product
    (a dozen numpy calls in all, ~1 µs each on arrays this small)."""
    parts = soles[:, 1:] - soles[:, :-1]  # heel -> ball, ball -> toe tip: (F, 2, 2)
    lengths = np.hypot(parts[..., 0], parts[..., 1])
    along = parts / np.maximum(lengths, 1e-9)[..., None]  # (F, 2, 2): along, toe_dir
    ups = along[..., ::-1] * (-1.0, 1.0)  # each direction turned +90 degrees
    # the upper is on the ankle's side of the sole; the toe cap's normal on the upper's side
    up = np.where(ups[:, :1, 1:] < 0, -ups[:, :1], ups[:, :1])
    toe_up = np.where((ups[:, 1:] * up).sum(axis=-1, keepdims=True) < 0, -ups[:, 1:], ups[:, 1:])
    basis = np.concatenate([soles, ankles[:, None], along[:, :1], up, along[:, 1:], toe_up], axis=1)
    return _SHOE_POINTS @ basis


# The shoe's outline points (rows) as sums of heel, ball, toe tip, ankle, the sole's
# heel -> ball direction and its upward normal, the toe cap's direction and its normal:
_SHOE_POINTS = np.array(
    [
        [1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],  # heel
        [0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],  # ball
        [0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0],  # toe tip
        [0.0, 0.0, 1.0, 0.0, 0.0, 0.0, -0.012, 0.035],  # the toe cap's top
        [0.0, 1.0, 0.0, 0.0, 0.0, 0.06, 0.0, 0.0],  # over the ball
        [0.0, 0.0, 0.0, 1.0, 0.03, 0.02, 0.0, 0.0],  # the instep, before the ankle
        [0.0, 0.0, 0.0, 1.0, -0.045, 0.015, 0.0, 0.0],  # behind the ankle
        [1.0, 0.0, 0.0, 0.0, 0.0, 0.07, 0.0, 0.0],  # the heel's top
    ]
)


def _ridge_rows(height: int) -> tuple[int, int]:
    """The rows ``[first, last)`` from the view's top that the hill's ridge crosses
    (its bumps reach ±1), with a row to spare either way."""
    _, ridge, *_ = HILL
    middle = height * (0.62 - (ridge - 0.35))
    return math.floor(middle - height * 0.05) - 1, math.ceil(middle + height * 0.05) + 1


def _ridge(us: NDArray[np.float64], height: int) -> NDArray[np.float64]:
    """The hill's ridge, rows from the view's top, at ``us`` (pixels along the hills'
    own scrolled axis), shape ``(N,)`` like ``us``."""
    _, ridge, wavelength, _ = HILL
    phase = us / wavelength
    # two incommensurate sines make a ridge that never visibly repeats
    bumps = 0.6 * np.sin(phase * 2 * math.pi) + 0.4 * np.sin(phase * 4.7 + 1.3)
    horizon = height * 0.62
    return horizon - height * (ridge - 0.35) - bumps * height * 0.05


def paint_ridge_tile(canvas: Canvas, u0: int, width: int, height: int) -> None:
    """One tile of the rows the hill's ridge crosses (see :func:`_ridge_rows`), its
    pixels ``u0`` onwards along the hills' scrolled axis, for a view ``width`` x
    ``height``: the sky's bands behind the ridge, the hill under it. Every coordinate is
    whole pixels of that axis and of the view before the tile's corner is taken off, so
    tiles meet without a seam and line up with the bands filled above them."""
    tile_w, tile_h = canvas.size
    row0 = _ridge_rows(height)[0]
    band = height / SKY_BANDS
    for i, sky in enumerate(SKY_COLORS):
        if row0 - band - 1 < i * band < row0 + tile_h:  # the bands reaching into the tile
            canvas.rect((0, i * band - row0, tile_w, band + 1), sky)
    step = width / (HILL_SAMPLES - 1)
    n = np.arange(math.floor(u0 / step) - 1, math.ceil((u0 + tile_w) / step) + 2, dtype=float)
    us = n * step
    outline = np.rint(np.stack([us, _ridge(us, height)], axis=-1)) - (u0, row0)
    fill_under(canvas, outline, HILL[3])


@dataclass(frozen=True, slots=True)
class GroundBand:
    """One column of the ground, ``width`` pixels from ``left``, in world pixels (x right,
    y down from the world's origin, whole pixels): the terrain's surface and the stratum
    under it as lines, shape ``(N, 2)``, from the last vertex left of the column to the
    first right of it, and the rows ``[top, bottom)`` they cross inside it (with room for
    the surface line's width). Under ``bottom`` all is the deep colour; under
    ``surface_low``, the lowest row the surface line reaches in the column, all is ground
    (the tile is opaque from its surface line down)."""

    left: int
    width: int
    surface: NDArray[np.float64]
    stratum: NDArray[np.float64]
    top: int
    bottom: int
    surface_low: int


STRATUM_M = 0.35  # the darker stratum lies this far under the surface
EDGE_PX = 4  # the surface line's width


def ground_band(terrain: Terrain, scale: float, left: int, width: int) -> GroundBand:
    """The column of the ground ``width`` pixels wide from world pixel ``left`` onwards,
    at ``scale`` px/m. Every point is rounded to a whole pixel of the world, so columns
    drawn side by side meet without a seam."""
    world = Camera2D(scale=scale, viewport=(0, 0, 0, 0))  # world metres to world pixels
    pad = EDGE_PX / scale
    x_lo, x_hi = left / scale - pad, (left + width) / scale + pad
    points = terrain.points
    ends = (min(points[0, 0], x_lo) - 1.0, max(points[-1, 0], x_hi) + 1.0)  # level beyond
    line = np.concatenate([[(ends[0], points[0, 1])], points, [(ends[1], points[-1, 1])]])
    first = int(np.searchsorted(line[:, 0], x_lo, "right")) - 1
    last = int(np.searchsorted(line[:, 0], x_hi, "left"))
    line = line[first : last + 1]
    # the heights inside the column: its vertices there and the ground at its two edges
    inside = line[(line[:, 0] > x_lo) & (line[:, 0] < x_hi), 1]
    heights = np.concatenate([inside, terrain.height_at(np.array([x_lo, x_hi]))])
    return GroundBand(
        left=left,
        width=width,
        surface=np.rint(world.to_screen(line)),
        stratum=np.rint(world.to_screen(line - (0.0, STRATUM_M))),
        top=math.floor(-heights.max() * scale) - EDGE_PX,
        bottom=math.ceil(-(heights.min() - STRATUM_M) * scale) + EDGE_PX,
        surface_low=math.ceil(-heights.min() * scale) + EDGE_PX,
    )


def paint_ground_band(canvas: Canvas, band: GroundBand) -> None:
    """The ground's fills and surface line in a tile of ``band``'s rows (whole pixels
    moved by whole pixels: the same edges as in any other tile)."""
    corner = (band.left, band.top)
    surface = band.surface - corner
    fill_under(canvas, surface, PALETTE["ground"])
    # a darker stratum a little below the surface gives the ground some depth
    fill_under(canvas, band.stratum - corner, GROUND_DEEP)
    canvas.lines(surface, PALETTE["ground_edge"], EDGE_PX)


OVERLAY_LEGEND: tuple[tuple[str, str, str], ...] = (
    # (glyph, palette colour, meaning)
    ("ring", "reach", "reach: the end of the limb can get this far"),
    ("ring", "dead_zone", "dead zone: closer than |L1 − L2|"),
    ("ring", "soft_band", "soft band: the limb eases out, never pops"),
    ("cross", "target", "target of each hand and ankle"),
    ("dot", "pole", "pole: where the knee or elbow points"),
    ("dot", "ok", "foot planted (a ring on its locked pivot: heel or ball)"),
    ("dot", "warn", "foot swinging"),
)


def draw_overlay_legend(canvas: Canvas) -> tuple[float, float, float, float]:
    """What the overlay's circles and marks are, in the top-left corner under the tabs
    (O hides the overlay and this with it). The same every frame at a window size, so
    put down from a cached sprite (panel, glyphs and texts in one blit). Returns the box."""
    s = ui_scale(canvas.size)
    size = font_px(14, s)
    row_h = canvas.text_size("Ag", size)[1] + 3 * s
    text_w = max(canvas.text_size(text, size)[0] for _, _, text in OVERLAY_LEGEND)
    box = (10 * s, 44 * s, text_w + 42 * s, row_h * len(OVERLAY_LEGEND) + 10 * s)
    paint = functools.partial(_paint_overlay_legend, box=box, size=size, row_h=row_h)
    canvas.sprite(("overlay legend", canvas.size), _whole_pixels(box), paint)
    return box


def _hero_box(
    joints: NDArray[np.float64],
    shoes: list[Any],
    head: tuple[float, float],
    head_top_m: float,
    scale: float,
) -> tuple[float, float, float, float]:
    """The hero's box on screen (left, top, width, height): his joints and shoes, his
    head's top, grown by the widest limb and a held cup (``HERO_PAD_M``)."""
    points = np.concatenate([joints.reshape(-1, 2), np.asarray(shoes).reshape(-1, 2)])
    (x0, y0), (x1, y1) = points.min(axis=0), points.max(axis=0)
    y0 = min(float(y0), head[1] - head_top_m * scale)
    x0, x1 = (
        min(float(x0), head[0] - head_top_m * scale),
        max(float(x1), head[0] + head_top_m * scale),
    )
    pad = HERO_PAD_M * scale
    return (x0 - pad, y0 - pad, x1 - x0 + 2 * pad, float(y1) - y0 + 2 * pad)


def _whole_pixels(box: tuple[float, float, float, float]) -> tuple[int, int, int, int]:
    """The whole pixels ``box`` touches (with one to spare for anti-aliased edges)."""
    left, top = math.floor(box[0]) - 1, math.floor(box[1]) - 1
    return left, top, math.ceil(box[0] + box[2]) + 1 - left, math.ceil(box[1] + box[3]) + 1 - top


def _paint_overlay_legend(
    canvas: Canvas, box: tuple[float, float, float, float], size: int, row_h: float
) -> None:
    """The legend's panel, glyphs and texts in ``box`` (see :func:`draw_overlay_legend`)."""
    s = ui_scale(canvas.size)
    canvas.panel(box, PALETTE["panel"], 190)
    for i, (glyph, color_name, text) in enumerate(OVERLAY_LEGEND):
        y = box[1] + 5 * s + row_h * (i + 0.5)
        glyph_at = (box[0] + 17 * s, y)
        color = PALETTE[color_name]
        if glyph == "ring":
            canvas.circle(glyph_at, 6 * s, color, 1)
        elif glyph == "cross":
            r = 4 * s
            canvas.line((glyph_at[0] - r, y - r), (glyph_at[0] + r, y + r), color, 2)
            canvas.line((glyph_at[0] - r, y + r), (glyph_at[0] + r, y - r), color, 2)
        else:
            canvas.circle(glyph_at, 4 * s, color, 2)
        canvas.text((box[0] + 32 * s, y), text, PALETTE["text"], size, "midleft")


def draw_status_panel(
    canvas: Canvas,
    items: list[str],
    color: Color,
    hints: list[str],
    alternatives: list[tuple[str, ...]] | None = None,
    at_least: float = 0.0,
) -> tuple[float, float, float, float]:
    """The bottom-left status box: ``items`` joined by dots and wrapped, then the hints.

    ``alternatives`` are, per item, the other texts it can show (digits as 8s, the
    widest figures); the status is laid out for the widest of each, so its line breaks
    and the box's width stay put while the texts change every step (a foot planted,
    then swinging; ``rung 4``, then ``moving``): see :func:`_steady_wrap`. The last hint
    is the scene's standing controls line: the box is as wide as the widest status or
    that hint wrapped evenly, whichever is wider, and every hint wraps to that width, so
    a hint that comes and goes (the ladder's) adds rows but never widens the box.

    At most 55 % of the window wide (the right of the bottom edge is left to messages)
    and ``STATUS_MAX_W``; sizes are designed for 1280x720 and scaled. The box is at least ``at_least`` wide.
    Returns the box.
    """
    width, height = canvas.size
    s = ui_scale(canvas.size)
    pad = 12 * s
    line_px, hint_px = font_px(19, s), font_px(15, s)
    inner = min(width * 0.55, STATUS_MAX_W * s) - 2 * pad
    widest = [
        _widest(canvas, (item, *other), line_px)
        for item, other in zip(items, alternatives or [()] * len(items), strict=True)
    ]
    status = _steady_wrap(canvas, items, widest, inner, line_px)
    rows = _item_rows(canvas, tuple(widest), inner, line_px)
    content_w = (
        rows[1]
        if rows is not None
        else max((canvas.text_size(line, line_px)[0] for line in status), default=0.0)
    )
    if hints:
        standing = wrap_balanced(canvas, hints[-1], inner, hint_px)
        content_w = max([content_w, *(canvas.text_size(line, hint_px)[0] for line in standing)])
    lines = [(line, line_px, color) for line in status]
    for hint in hints:
        hint_lines = wrap_balanced(canvas, hint, content_w, hint_px)
        for index in range(1, len(hint_lines)):
            if hint_lines[index].startswith("· "):  # a separator ends its line, not starts one
                hint_lines[index - 1] += " ·"
                hint_lines[index] = hint_lines[index][2:]
        lines += [(line, hint_px, PALETTE["text_dim"]) for line in hint_lines]
    heights = [canvas.text_size(text, px)[1] + 3 * s for text, px, _ in lines]
    text_w = max([content_w, *(canvas.text_size(text, px)[0] for text, px, _ in lines)])
    box_w = max(text_w + 2 * pad, at_least)
    box_h = sum(heights) + 2 * pad
    box = (10 * s, height - box_h - 10 * s, box_w, box_h)
    canvas.panel(box, PALETTE["panel"], 200)
    y = box[1] + pad
    for (text, px, text_color), h in zip(lines, heights, strict=True):
        canvas.text((box[0] + pad, y), text, text_color, px)
        y += h
    return box


# The status box's widest (at 1280x720, scaled): the walk's status takes two rows at every
# window size (at 960x540 it fitted one, 520 px wide, over the foot of the ladder the hero
# climbs at the middle of the view).
STATUS_MAX_W = 520.0
# what the status's feet item can read, walking or on the ladder (rungs counted to 88)
_FOOT_STATES = ("pinned", "planted", "swing", "moving", "ground", "rung 88")
_FEET_TEXTS = tuple(f"L {left}  R {right}" for left in _FOOT_STATES for right in _FOOT_STATES)


def _limb_label(name: str) -> str:
    """A limb as a player names it: ``left_arm`` is the left hand, ``right_leg`` the right foot."""
    return name.replace("_arm", " hand").replace("_leg", " foot")


def _steady_wrap(
    canvas: Canvas, items: list[str], widest: list[str] | None, width: float, size: int
) -> list[str]:
    """``items`` joined by dots and wrapped evenly. With ``widest`` (the same items at
    their widest) lines break between whole items, where they would for ``widest``: as
    few lines as fit ``width``, as even as they go. So a status that changes every step
    (a foot planted, then swinging; ``rung 4``, then ``moving``, a word fewer) keeps its
    line breaks instead of jumping between two wraps. Without ``widest``, or where an
    item alone is too wide, the plain even wrap (:func:`wrap_balanced`)."""
    text = "  ·  ".join(items)
    rows = None if widest is None else _item_rows(canvas, tuple(widest), width, size)
    if rows is None:
        return wrap_balanced(canvas, text, width, size)
    return _steady_lines(tuple(items), list(rows[0]))


_WIDEST: weakref.WeakKeyDictionary[Any, dict[tuple[tuple[str, ...], int], str]] = (
    weakref.WeakKeyDictionary()
)


def _widest(canvas: Canvas, texts: tuple[str, ...], size: int) -> str:
    """The widest of ``texts`` at font ``size``, kept per canvas (the feet's 36 texts
    measured every frame cost ~25 µs)."""
    kept = _WIDEST.setdefault(canvas, {})
    key = (texts, size)
    widest = kept.get(key)
    if widest is None:
        if len(kept) >= 256:
            kept.clear()
        widest = kept[key] = max(texts, key=lambda text: canvas.text_size(text, size)[0])
    return widest


_ItemRows = tuple[tuple[int, ...], float]
_ITEM_ROWS: weakref.WeakKeyDictionary[Any, dict[tuple[Any, ...], _ItemRows | None]] = (
    weakref.WeakKeyDictionary()
)


def _item_rows(
    canvas: Canvas, widest: tuple[str, ...], width: float, size: int
) -> _ItemRows | None:
    """How many of ``widest``'s items each line takes, and the widest line's width: the
    fewest lines no wider than ``width``, of those the one whose widest line is narrowest
    (every split of a handful of items is tried); None when an item alone is too wide.
    Kept per canvas (the status is drawn every frame)."""
    kept = _ITEM_ROWS.setdefault(canvas, {})
    key = (widest, float(width), size)
    if key in kept:
        return kept[key]
    if len(kept) >= 64:
        kept.clear()
    best: tuple[int, float, tuple[int, ...]] | None = None
    for cuts in itertools.product((False, True), repeat=max(len(widest) - 1, 0)):
        counts, run = [], 1
        for cut in cuts:
            if cut:
                counts.append(run)
                run = 0
            run += 1
        counts.append(run)
        lines = _steady_lines(widest, counts)
        widths = [canvas.text_size(line, size)[0] for line in lines]
        if max(widths) <= width:
            score = (len(counts), float(max(widths)), tuple(counts))
            best = score if best is None or score < best else best
    kept[key] = None if best is None else (best[2], best[1])
    return kept[key]


def _steady_lines(items: tuple[str, ...], counts: list[int]) -> list[str]:
    """``items`` in lines of ``counts`` items, dots between them (as :func:`_steady_wrap`)."""
    lines, first = [], 0
    for row, count in enumerate(counts):
        words = "  ·  ".join(items[first : first + count]).split()
        first += count
        if row < len(counts) - 1:
            words.append("·")  # a separator ends its line, not starts one
        lines.append(" ".join(words))
    return lines


def _outer_left(xs: np.ndarray, side: int) -> bool:
    """Whether limb ``side`` (0 left, 1 right) of a pair at world x ``xs`` (2,) is the one
    further left, so labelled on the left (a tie: the left limb)."""
    return bool(xs[side] < xs[1 - side] or (xs[side] == xs[1 - side] and side == 0))


def _rung_label(climbing: LadderClimb, limb: int) -> str:
    """``rung 3`` (counted from 1 at the bottom), ``moving``, or ``ground`` / ``free``."""
    if limb == climbing.moving:
        return "moving"
    rung = int(climbing.rung[limb])
    if rung >= 0:
        return f"rung {rung + 1}"
    return "free" if limb < LEGS.start else "ground"


SCENE = SceneSpec(
    name="walk",
    title="Walk: feet planted on uneven ground",
    controls=(
        ("A / D, arrows", "walk left / right"),
        ("Shift", "run"),
        ("move / hold the mouse", "the hands reach for the cursor (for 1.5 s after it moves)"),
        ("H", "hands follow the mouse on/off (off: they swing with the walk)"),
        ("B", "both hands / the nearer hand reach"),
        ("drag a foot", "pin its target anywhere; release gives it back"),
        ("K", "knee pole hints on/off (off: knees flip, counted)"),
        ("click the knob / cup", "walk there and reach with the nearer hand (lifts the cup)"),
        ("click while holding", "set the cup down there (table top or floor)"),
        (
            "W / S at the ladder",
            "climb up / down one limb at a time (Shift: faster); W at the top: onto the loft",
        ),
        ("E", "edit the ground: drag vertices, presets, Ctrl+Z/Y undo/redo, Ctrl+S save"),
    ),
    create=WalkSim,
    view=WalkView,
    autopilot=walk_autopilot,
)
