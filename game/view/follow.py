"""The camera that follows the hero: eased toward a point ahead of him, the way he last
walked, kept so that his feet clear the status box and his head the F3 panel. View state:
the simulation never sees it."""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import NDArray

from game.camera import Camera2D
from game.layout import ui_scale
from game.view.hero_painter import HEAD_TOP
from game.view.hero_sim import HeroSim
from game.world.character import PoseInputs
from game.world.easing import halflife_blend, smoothstep
from game.world.modes import MOTION_POSED

CAMERA_HALFLIFE = 0.35  # seconds
CAMERA_LEAD_M = 0.9  # the camera looks this far ahead of the hero, the way he last walked
# m/s: walking at least this fast sets the way the camera leads (turning round on the spot
# to face the pointer does not pan the view: what he reaches for stays under the cursor)
LEAD_SPEED = 0.3
# s: standing turned away from the way the camera leads this long, his hands not reaching
# for the pointer (turned round by a tap of the walk keys), the camera leads the way he
# faces: the ground he will walk onto comes into view and the status box goes behind him
FACING_LEADS_S = 0.5
PELVIS_TO_CENTER_M = 0.35  # the view's centre is this far over the standing pelvis
HUD_CLEARANCE_PX = 8.0  # at 1280x720 (scaled): the head's top stays this far under the F3 panel
LOOK_AHEAD_M = 2.5  # the ground this far ahead, the way the camera leads, is kept in view ...
GROUND_MARGIN_M = 0.3  # ... this far above the view's bottom (stairs down from a landing),
HEAD_MARGIN_M = 0.3  # as long as his head stays this far under the view's top

Box = tuple[float, float, float, float]


class FollowCamera:
    """Moves a :class:`~game.camera.Camera2D` after the hero, frame by frame."""

    def __init__(self) -> None:
        self.time: float | None = None  # the simulation time of the last frame followed
        self._lead: float | None = None  # the way the camera leads (lead_way)
        self._turned_since: float | None = None  # standing turned away from it since (s)

    def cut(self) -> None:
        """The next frame puts the camera where it follows the hero at once, with no ease
        from where it was (his world was laid out afresh)."""
        self.time = None

    @property
    def leading_left(self) -> bool:
        """Whether the camera leads to the left of the hero (he last walked that way)."""
        return self._lead is not None and self._lead < 0

    def lead_way(self, sim: HeroSim, pose: PoseInputs, facing_leads: bool = False) -> float:
        """+1 or −1: the way the hero last walked (at first, his facing); or, where
        ``facing_leads`` (his hands are not reaching for the pointer), the way he has stood
        facing for ``FACING_LEADS_S``."""
        crowd = sim.crowd
        vx, facing = float(crowd.vx[0]), float(crowd.facing[0])
        if abs(vx) >= LEAD_SPEED or self._lead is None:
            self._lead = math.copysign(1.0, vx) if abs(vx) >= LEAD_SPEED else float(pose.facing[0])
            self._turned_since = None
        elif facing_leads and facing != self._lead and not bool(crowd.turning[0]):
            if self._turned_since is None or sim.time < self._turned_since:
                self._turned_since = sim.time
            elif sim.time - self._turned_since >= FACING_LEADS_S:
                self._lead, self._turned_since = facing, None
        else:
            self._turned_since = None
        return self._lead

    def follow(
        self,
        camera: Camera2D,
        sim: HeroSim,
        pose: PoseInputs,
        alpha: float,
        soles: NDArray[np.float64] | None,
        status_box: Box | None,
        hud_cover: Box | None,
        facing_leads: bool = False,
        props_w: NDArray[np.float64] | None = None,
        held: bool = False,
    ) -> None:
        """Ease the camera toward the hero (halflife in simulation seconds). Then, given
        his ``soles`` (world, shape ``(..., 2)``), lower the camera as far as it takes to
        keep them ``HUD_CLEARANCE_PX`` above the ``status_box`` where they are over its
        columns; and if the app draws a box over the top of the view (``hud_cover``),
        raise it as far as it takes to keep the top of his head ``HUD_CLEARANCE_PX``
        under that (the easing lags a climb): the head wins. The props that move,
        ``props_w`` (world, shape ``(K, 2)``), are kept above the box as his soles are, as
        far as that keeps his head in view. ``facing_leads``: see :meth:`lead_way`.
        ``held``: the camera stays where it is (and eases on from there after)."""
        now = sim.time + alpha * sim.dt
        if held:
            self.time = now
            return
        pelvis = pose.pelvis[0]
        # the standing pelvis's height: a crouch does not take the view down with it
        crouched = sim.rig.tuning.crouch_drop * float(smoothstep(sim.crowd.crouch[0]))
        lead = self.lead_way(sim, pose, facing_leads)
        goal = (
            # ... plus how far an exponential ease lags a body moving at vx (v · halflife /
            # ln 2): moving, the lead is all there; stopped, the view is nearly settled
            float(pelvis[0])
            + CAMERA_LEAD_M * lead
            + float(sim.crowd.vx[0]) * CAMERA_HALFLIFE / math.log(2.0),
            _look_down(camera, sim, pose, lead, float(pelvis[1]) + PELVIS_TO_CENTER_M + crouched),
        )
        if self.time is None or now < self.time:
            camera.center_w = goal
        else:
            blend = halflife_blend(now - self.time, CAMERA_HALFLIFE)
            cx, cy = camera.center_w
            camera.center_w = (cx + (goal[0] - cx) * blend, cy + (goal[1] - cy) * blend)
        self.time = now
        clearance = HUD_CLEARANCE_PX * ui_scale(camera.viewport[2:])
        head_top = float(pose.head[0, 1]) + HEAD_TOP * sim.rig.body.head_radius
        if soles is not None and status_box is not None:
            _over_the_box(camera, soles, status_box, clearance)
        if props_w is not None and status_box is not None:
            top = camera.viewport[1] if hud_cover is None else hud_cover[1] + hud_cover[3]
            room = camera.point_to_screen(0.0, head_top)[1] - top - clearance
            _over_the_box(camera, props_w, status_box, clearance, max(room, 0.0))
        if hud_cover is not None:
            row = camera.point_to_screen(0.0, head_top)[1]
            clear = hud_cover[1] + hud_cover[3] + clearance
            if row < clear:  # screen rows grow downward: raising the camera lowers the head
                cx, cy = camera.center_w
                camera.center_w = (cx, cy + (clear - row) / camera.scale)


def _look_down(camera: Camera2D, sim: HeroSim, pose: PoseInputs, lead: float, y: float) -> float:
    """The view's centre height ``y``, lowered as far as it takes to show the ground up to
    ``LOOK_AHEAD_M`` ahead (the way ``lead``) ``GROUND_MARGIN_M`` above the view's bottom,
    but never so far that the top of his head comes within ``HEAD_MARGIN_M`` of its top;
    not while a prop holds his pose (on the ladder he looks up it, not at the floor)."""
    if int(sim.crowd.state.motion[0]) == MOTION_POSED:
        return y
    half = camera.viewport[3] / 2.0 / camera.scale  # the view's half height, metres
    x = float(pose.pelvis[0, 0])
    lowest = float(sim.crowd.terrain.height_at(x + lead * np.linspace(0.0, LOOK_AHEAD_M, 26)).min())
    head_top = float(pose.head[0, 1]) + HEAD_TOP * sim.rig.body.head_radius
    return max(min(y, lowest - GROUND_MARGIN_M + half), min(y, head_top + HEAD_MARGIN_M - half))


def _over_the_box(
    camera: Camera2D,
    points_w: NDArray[np.float64],
    box: Box,
    clearance: float,
    most_px: float = math.inf,
) -> None:
    """Lower ``camera`` until the ``points_w`` over ``box``'s columns are ``clearance`` px
    above its top, by ``most_px`` at most."""
    points = camera.to_screen(points_w).reshape(-1, 2)
    columns = (points[:, 0] >= box[0] - clearance) & (points[:, 0] <= box[0] + box[2] + clearance)
    over = points[columns]
    lowest = float(over[:, 1].max()) if len(over) else -math.inf
    if lowest > box[1] - clearance:  # lowering the camera raises them
        cx, cy = camera.center_w
        camera.center_w = (cx, cy - min(lowest - box[1] + clearance, most_px) / camera.scale)
