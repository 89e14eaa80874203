"""Reaching over the table top from one of its ends (no pygame).

A hand goes for a point on the table top (the cup standing there, a spot to set it down)
from a stand at one end of the table: the toes at rest clear of its legs, the body leaning
over the top (the walker's crouch: :meth:`~game.world.character.Crowd.crouch_to`) as deep
as brings the reaching shoulder within the hand's reach of the point, never so deep that
the torso or the head touches the top. A point no lean reaches from either end is out of
reach: the cup refuses it (:class:`~game.world.props.cup_prop.CupProp`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from game.world.easing import smoothstep
from game.world.props.table import Table
from game.world.rig import Rig
from game.world.terrain import Terrain
from game.world.types import FloatArray

TABLE_TOES_CLEAR_M = 0.07  # the toes of the foot at the stance's spread ahead stop this far
# short of the table's legs: the walk's last steps land a few cm either side of that spread
PLAN_MARGIN_M = 0.02  # a lean is chosen to bring the hand's point this far inside its
# reach: the settled pelvis and spine differ from the planned ones by about a centimetre
LEANS = np.linspace(0.0, 1.0, 51)  # the crouch amounts tried, upright … a full crouch
TORSO_SAMPLES = 9  # points along pelvis → head checked against the table top


@dataclass(frozen=True, slots=True)
class TableStand:
    """Where a body stands at an end of the table to reach a point on its top."""

    x: float  # the pelvis's x
    facing: float  # +1 at the left end (facing the table), −1 at the right
    lean: float  # the crouch amount in [0, 1] that brings the shoulder within reach


def on_table_top(table: Table, point: FloatArray) -> bool:
    """Whether ``point`` (2,), world metres, is on the table top (over its legs' span, at
    or above its top): a hand reaches it from an end, over the top."""
    x, y = float(point[0]), float(point[1])
    return table.x0 <= x <= table.x0 + table.width and y >= table.top


def stand_x(table: Table, rig: Rig, facing: float) -> float:
    """The pelvis's x standing at the end of ``table`` that a body ``facing`` it meets:
    the near foot rests the stance's spread ahead of the pelvis, its toe ``TABLE_TOES_CLEAR_M``
    short of the legs."""
    ahead = rig.legs.toe + rig.gait.stance_spread + TABLE_TOES_CLEAR_M
    return table.x0 - ahead if facing > 0 else table.x0 + table.width + ahead


def leaned_body(
    rig: Rig, pelvis_x: float, ground: float, facing: float, amounts: FloatArray
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """The pelvis, chest (the shoulders' point) and head centre, each (K, 2), of a body
    standing still with its pelvis at ``pelvis_x`` on ground at height ``ground``,
    ``facing`` ±1, crouched by each of ``amounts`` (K,) as the walker's pose does it: the
    pelvis sinks ``crouch_drop`` and the spine tips ``crouch_stoop`` forward, both by
    the crouch's smoothstep (``support.pelvis_goal`` and ``pose.upper_body``)."""
    body, tune = rig.body, rig.tuning
    bend = smoothstep(amounts)
    standing = rig.legs.ankle_height + rig.gait.stand_extension * rig.legs.limb.reach
    y = ground + standing - tune.crouch_drop * bend
    pelvis = np.stack([np.full_like(bend, pelvis_x), y], axis=-1)
    tilt = tune.crouch_stoop_rad * bend
    spine_dir = np.stack([facing * np.sin(tilt), np.cos(tilt)], axis=-1)
    chest = pelvis + body.spine * spine_dir
    return pelvis, chest, chest + (body.neck + body.head_radius) * spine_dir


def clear_of_top(table: Table, rig: Rig, pelvis: FloatArray, head: FloatArray) -> NDArray[np.bool_]:
    """Whether each torso from ``pelvis`` to ``head`` (K, 2), drawn ``torso_width`` wide,
    keeps out of the table top's slab (K,)."""
    left, bottom, right, top = table.top_box()
    t = np.linspace(0.0, 1.0, TORSO_SAMPLES)[:, None, None]
    points = pelvis + t * (head - pelvis)  # (S, K, 2)
    # a point's distance to a box: how far outside it along each axis, then Pythagoras
    dx = np.maximum(np.maximum(left - points[..., 0], points[..., 0] - right), 0.0)
    dy = np.maximum(np.maximum(bottom - points[..., 1], points[..., 1] - top), 0.0)
    return np.asarray((np.hypot(dx, dy) >= rig.body.torso_width / 2.0).all(axis=0))


def lean_for(
    table: Table,
    rig: Rig,
    terrain: Terrain,
    point: FloatArray,
    reach: float,
    pelvis_x: float,
    facing: float,
) -> float | None:
    """The least lean (crouch amount) from which a body standing at ``pelvis_x``,
    ``facing`` ±1, has ``point`` (2,) within ``reach`` less ``PLAN_MARGIN_M`` of its rear
    shoulder (either hand then gets there), the torso clear of the table top all the way
    down to it; None if no lean does."""
    ground = float(terrain.height_at(pelvis_x))
    pelvis, chest, head = leaned_body(rig, pelvis_x, ground, facing, LEANS)
    shoulder = chest - np.array([facing * rig.body.shoulder_depth, 0.0])
    within = np.hypot(*(point - shoulder).T) <= reach - PLAN_MARGIN_M
    clear = np.logical_and.accumulate(clear_of_top(table, rig, pelvis, head))
    ok = within & clear
    return float(LEANS[np.argmax(ok)]) if ok.any() else None


def table_stand(
    table: Table, rig: Rig, terrain: Terrain, point: FloatArray, reach: float, from_x: float
) -> TableStand | None:
    """Where a body reaches ``point`` (2,) on the top of ``table`` with a hand of ``reach``
    from: the stand at the end nearer ``from_x`` (the pelvis's x now) of those from which
    a lean brings it within reach; None if neither does."""
    stands = []
    for facing in (1.0, -1.0):
        x = stand_x(table, rig, facing)
        lean = lean_for(table, rig, terrain, point, reach, x, facing)
        if lean is not None:
            stands.append(TableStand(x, facing, lean))
    return min(stands, key=lambda stand: abs(stand.x - from_x), default=None)
