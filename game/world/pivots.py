"""Where a foot can turn round: pivot spots (the ball on the ground, the turned heel clear
of risers), and the spots beside the nearest stair risers tried for a pivot.
"""

from __future__ import annotations

import numpy as np

from game.world.easing import any_last, xy
from game.world.feet import (
    MIN_RISER,
    RISER_WINDOW,
    rest_on_ground,
    sole_points,
)
from game.world.rig import LegSpec
from game.world.terrain import Terrain
from game.world.types import BoolArray, FloatArray

_PIVOT_BALL_GAP = 0.005  # metres a pivoting foot's ball may rest above the ground under it


def tread_pivots(terrain: Terrain, x: FloatArray, facing: FloatArray, legs: LegSpec) -> FloatArray:
    """Pivot spots (ankle x, shape (M, 4), facing ``facing`` (M, 1)) beside the two stair
    risers nearest ``x`` (M,), either side of each: the ball ``heel + ball`` (plus 5 mm) from
    the riser, so the heel pointing at it is just clear of it before or after the turn. On a
    0.34-0.35 m tread the heel pointing the other way then overhangs the nose by 1-2.5 cm,
    within ``HEEL_HANG``: the only spots that hold the sole both ways are 2 cm wide there,
    and fixed shifts from the predicted spot, 4-6 cm apart, would miss them (the turn would
    take a fourth step, up a riser and back down)."""
    risers = terrain.risers(MIN_RISER, RISER_WINDOW)
    if len(risers) < 2:
        return np.repeat(x[:, None], 4, axis=1)  # (no stairs: the predicted spot again)
    nearest = np.sort(np.argsort(np.abs(risers[None, :] - x[:, None]), axis=1)[:, :2], axis=1)
    reach = legs.heel + legs.ball + 0.005
    balls = (risers[nearest][..., None] + np.array([-reach, reach])).reshape(len(x), 4)
    return balls - facing * legs.ball


def pivot_spots(
    terrain: Terrain,
    x: FloatArray,
    facing: FloatArray,
    legs: LegSpec,
    keep_off: FloatArray | None = None,
) -> tuple[BoolArray, FloatArray]:
    """Whether a foot with its ankle at ``x`` can pivot there, and the ground angle it then
    lies at (the slope under its ball), shape (...) each. Facing either way, the sole keeps
    off ``keep_off`` (rows ``(x0, x1, top)``, widened by the gap kept: ``World.kept_off``).

    It turns about its ball, so turned round its sole reaches up to ``heel + ball`` beyond
    the ball where its toes reached ``toe − ball``: on a 0.34 m stair tread no spot holds the
    whole sole both ways, and a sole that fits before the pivot can put its heel 16 cm
    into the riser after it. So a pivot spot needs only the ball on the ground, the sole lying
    along the ground under the ball, with nothing higher under it facing either way (the
    heel or the toes may overhang a stair nose, in the air).
    """
    ball_x = x + facing * legs.ball
    angle = np.arctan(terrain.slope_at(ball_x))
    # both ways at once, along a new first axis: as it faces, and turned about the ball
    # (the ankle then at ball + (−facing)·(−ball) = x + 2·facing·ball)
    shape = np.broadcast(x, facing).shape
    ankle_x = np.stack([np.broadcast_to(x, shape), x + 2.0 * facing * legs.ball])
    way = np.stack([np.broadcast_to(facing, shape), np.broadcast_to(-facing, shape)])
    tilt = np.broadcast_to(angle, ankle_x.shape)
    rest = rest_on_ground(terrain, ankle_x, tilt, way, legs)
    ball = sole_points(xy(ankle_x, rest), tilt, np.zeros(ankle_x.shape), way, legs)[..., 1, :]
    # on the ground where it is (a tilted sole's ball is not quite over ball_x: on a curved
    # slope, read there, it would hover by the slope times that offset)
    on_ground = ball[..., 1] <= terrain.height_at(ball[..., 0]) + _PIVOT_BALL_GAP
    # (turned about the ball, a heel would sweep into a cup)
    if keep_off is not None and len(keep_off):
        on_ground &= ~touches(keep_off, ankle_x, way, legs)
    return on_ground[0] & on_ground[1], angle


def touches(spans: FloatArray, x: FloatArray, facing: FloatArray, legs: LegSpec) -> BoolArray:
    """Whether a flat sole with its ankle at ``x`` meets any span (:func:`ankles_touching`),
    the shape of ``x`` and ``facing`` broadcast."""
    lo_x, hi_x = ankles_touching(spans, facing[..., None], legs)
    return any_last((x[..., None] > lo_x) & (x[..., None] < hi_x))


def ankles_touching(
    spans: FloatArray, facing: FloatArray, legs: LegSpec
) -> tuple[FloatArray, FloatArray]:
    """The open range of ankle x, per span ``(x0, x1, top)`` (along the last axis; widened
    by the gap a sole keeps from it, ``World.kept_off``), over which a flat sole
    ``[x − heel, x + toe]`` (facing +1; mirrored for −1) meets the span: ``facing``'s
    shape plus the spans'."""
    x0, x1 = spans[:, 0], spans[:, 1]
    ahead = np.where(facing > 0, legs.toe, legs.heel)  # the sole's reach toward +x
    behind = np.where(facing > 0, legs.heel, legs.toe)
    return x0 - ahead, x1 + behind
