"""The path frame: how the 2-D walker's x becomes a place on the 3-D ground.

The 3-D walker runs the 2-D gait (:class:`game.world.character.Crowd`) in the frame of its
own path: the 2-D x is the distance ``s`` walked along the path, the 2-D ground is the
heightfield's profile along it, the facing is always +1. The path is a polyline on the
ground, nodes ``(s, x, z)`` with ``s`` increasing; beyond its last node it goes on straight.

The path is fixed up to an *anchor*: the pelvis, or the front of the furthest planted sole
if that is further on (with room for the rounding of its corners, :data:`ROUND_M`). Turning replaces everything beyond the anchor by a straight line
along the new heading (:meth:`PathFrame.turned`), so a planted foot's place in the world
never moves (its ``s`` maps to the same point) while the ground ahead, where the swinging
foot will land, follows the body round. A curve is walked as many short straight pieces.

Points off the centre line are ``lateral`` metres to its right (the right of the direction
of increasing ``s``): a foot's line is half the hip width to its side.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from game.world.heightfield import Heightfield
from game.world.terrain import Terrain
from game.world.types import BoolArray, FloatArray

PROFILE_STEP_M = 0.05  # the 2-D ground's samples along the path: half the heightfield's grid
PROFILE_BEHIND_M = 3.0  # the 2-D ground reaches this far behind the pelvis ...
PROFILE_AHEAD_M = 6.0  # ... and this far ahead (a landing search, a flight ahead, a run)
REFRESH_MARGIN_M = 2.0  # the window moves on once the pelvis is this close to its end
STRAIGHT_M = 50.0  # the straight line beyond the anchor ends this far on (then level)
KEEP_BEHIND_M = 8.0  # nodes further behind the pelvis than this are dropped
ROUND_M = 0.25  # the path's direction is the chord over this much either side of a point
SAME_HEADING = math.radians(0.05)  # a turn smaller than this leaves the path as it is
EDGE_INSET_M = 0.4  # the world ends this far inside the heightfield's edge (a sole's reach)
EDGE_WALL_M = 2.0  # ... as a wall this high on the path's ground: the gait stops at it
EDGE_NEAR_M = 1.0  # within this of the world's end, a wish into it slides along it


def heading_vector(yaw: float) -> FloatArray:
    """The unit ground direction ``(x, z)`` of a yaw: 0 faces +x, π/2 faces −z (a turn to
    the left about +y, right-handed)."""
    return np.array([math.cos(yaw), -math.sin(yaw)])


def yaw_of(direction: ArrayLike) -> FloatArray:
    """The yaw of each ground direction ``(..., 2)`` (x, z): the inverse of
    :func:`heading_vector`."""
    d = np.asarray(direction, dtype=float)
    return np.arctan2(-d[..., 1], d[..., 0])


def right_of(direction: ArrayLike) -> FloatArray:
    """The ground direction to the right of ``direction`` ``(..., 2)`` (x, z): forward ×
    up with y up is ``(−dz, dx)``."""
    d = np.asarray(direction, dtype=float)
    return np.stack([-d[..., 1], d[..., 0]], axis=-1)


@dataclass(frozen=True, slots=True)
class PathFrame:
    """A path on the ground: nodes ``s`` (K,) increasing and ``xz`` (K, 2), K ≥ 2."""

    s: FloatArray
    xz: FloatArray

    @classmethod
    def straight(cls, start_xz: ArrayLike, yaw: float) -> PathFrame:
        """A path starting at ``start_xz`` (``s`` = 0) heading along ``yaw``."""
        start = np.asarray(start_xz, dtype=float)
        return cls(
            np.array([0.0, STRAIGHT_M]), np.stack([start, start + STRAIGHT_M * heading_vector(yaw)])
        )

    def _segment(self, s: ArrayLike) -> tuple[NDArray[np.intp], FloatArray]:
        """Each ``s``'s segment index and its fraction along it (outside: extrapolated)."""
        sa = np.asarray(s, dtype=float)
        k = np.clip(np.searchsorted(self.s, sa, side="right") - 1, 0, len(self.s) - 2)
        t = (sa - self.s[k]) / (self.s[k + 1] - self.s[k])
        return k, t

    def _centre(self, s: ArrayLike) -> FloatArray:
        """The polyline's point at each ``s``, shape ``(..., 2)``."""
        k, t = self._segment(s)
        return self.xz[k] + (self.xz[k + 1] - self.xz[k]) * t[..., None]

    def _heading(self, s: float) -> FloatArray:
        """The direction of the piece of polyline ``s`` lies on, shape ``(2,)``."""
        k, _ = self._segment(s)
        d = self.xz[k + 1] - self.xz[k]
        return d / np.linalg.norm(d)

    def direction(self, s: ArrayLike) -> FloatArray:
        """The unit direction of increasing ``s`` at each ``s``, shape ``(..., 2)``: the
        chord from :data:`ROUND_M` behind to as far ahead, so it turns smoothly through the
        polyline's corners (a foot's line to the side of it does not jump there)."""
        sa = np.asarray(s, dtype=float)
        d = self._centre(sa + ROUND_M) - self._centre(sa - ROUND_M)
        return d / np.maximum(np.linalg.norm(d, axis=-1, keepdims=True), 1e-12)

    def at(self, s: ArrayLike, lateral: ArrayLike = 0.0) -> FloatArray:
        """The ground point ``(x, z)`` at distance ``s`` along the path and ``lateral`` metres
        to its right (across :meth:`direction`), shape ``broadcast(s, lateral) + (2,)``."""
        side = right_of(self.direction(s))
        return self._centre(s) + side * np.asarray(lateral, dtype=float)[..., None]

    def turned(self, anchor: float, yaw: float, behind: float) -> PathFrame:
        """This path kept up to ``anchor``, then straight along ``yaw``; nodes before
        ``behind`` dropped (one is kept before it so ``behind`` still maps). Unchanged if
        the path beyond ``anchor`` already heads along ``yaw``."""
        ahead = heading_vector(yaw)
        if float(self._heading(anchor + 1e-9) @ ahead) >= math.cos(SAME_HEADING):
            return self
        start = self._centre(anchor)
        keep = self.s < anchor
        first = max(int(np.searchsorted(self.s, behind, side="right")) - 1, 0)
        keep[:first] = False
        s = np.concatenate([self.s[keep], [anchor, anchor + STRAIGHT_M]])
        xz = np.concatenate([self.xz[keep], [start, start + STRAIGHT_M * ahead]])
        return PathFrame(s, xz)

    def extended(self, beyond: float) -> PathFrame:
        """The path with its straight end reaching past ``beyond`` (walked far along it)."""
        if self.s[-1] > beyond + PROFILE_AHEAD_M:
            return self
        end = self.xz[-1] + STRAIGHT_M * self._heading(self.s[-1])
        return PathFrame(np.append(self.s, self.s[-1] + STRAIGHT_M), np.vstack([self.xz, end]))


def path_ground(
    path: PathFrame,
    field: Heightfield,
    centre_s: float,
    half_width: float,
    kept: tuple[Terrain, float] | None = None,
) -> Terrain:
    """The 2-D ground along ``path`` around ``centre_s``: at each sample (a fixed grid of
    :data:`PROFILE_STEP_M` in ``s``, so a piece of path that did not move gives the same
    heights) the lower of the heightfield under the two foot lines ``half_width`` either
    side. The 2-D gait plants its feet on that, so its pelvis is low enough for the lower
    foot on a slope walked across; each 3-D foot then stands on its own ground.

    ``kept`` is ``(old ground, cut)``: below ``cut`` the old ground's samples are kept
    where it has them, so the ground under a planted foot never changes under it (the
    path there may have turned since the old ground was built; the 3-D feet stand on
    the heightfield anyway)."""
    lo = math.floor((centre_s - PROFILE_BEHIND_M) / PROFILE_STEP_M)
    hi = math.ceil((centre_s + PROFILE_AHEAD_M) / PROFILE_STEP_M)
    s = np.arange(lo, hi + 1) * PROFILE_STEP_M
    lines = path.at(s[:, None], np.array([-half_width, half_width]))  # (M, 2, 2)
    heights = field.height_at(lines[..., 0], lines[..., 1]).min(axis=1)
    # the world ends where the path leaves the heightfield: a wall, as at the 2-D course's ends
    heights = np.where(_off_the_field(path.at(s, 0.0), field), heights + EDGE_WALL_M, heights)
    if kept is not None:
        old, cut = kept
        index = np.rint(old.xs / PROFILE_STEP_M).astype(np.intp) - lo  # the same grid
        mine = (index >= 0) & (index < len(s)) & (old.xs < cut)
        heights[index[mine]] = old.ys[mine]
    return Terrain(np.stack([s, heights], axis=1))


def before_the_edge(path: PathFrame, field: Heightfield, start: float, end: float) -> float:
    """``end``, or the last profile sample before it where the path from ``start`` on is
    still clear of the world's end (:func:`_off_the_field`, where :func:`path_ground` puts
    its wall): a turn of the path there leaves that wall off the new ground."""
    grid = np.arange(math.ceil(start / PROFILE_STEP_M), math.ceil(end / PROFILE_STEP_M) + 1)
    off = _off_the_field(path.at(grid * PROFILE_STEP_M, 0.0), field)
    if not off.any():
        return end
    return max(start, float(grid[int(np.argmax(off))] - 1) * PROFILE_STEP_M)


def along_the_edge(field: Heightfield, at: ArrayLike, wish: ArrayLike) -> FloatArray:
    """``wish`` (x, z) without its part into the world's end wherever ``at`` (x, z) is
    within :data:`EDGE_NEAR_M` of it: a walk slantwise into the edge goes along it (into
    a corner, or straight at the edge, it stops there as before)."""
    (x_lo, x_hi), (z_lo, z_hi) = field.extent
    along = np.array(wish, dtype=float)
    p = np.asarray(at, dtype=float)
    for axis, lo, hi in ((0, x_lo, x_hi), (1, z_lo, z_hi)):
        near_low = p[axis] - (lo + EDGE_INSET_M) < EDGE_NEAR_M
        near_high = (hi - EDGE_INSET_M) - p[axis] < EDGE_NEAR_M
        if (near_low and along[axis] < 0.0) or (near_high and along[axis] > 0.0):
            along[axis] = 0.0
    return along


def _off_the_field(points: FloatArray, field: Heightfield) -> BoolArray:
    """Which ground points ``(M, 2)`` (x, z) lie within :data:`EDGE_INSET_M` of the
    heightfield's edge or beyond it."""
    (x_lo, x_hi), (z_lo, z_hi) = field.extent
    x, z = points[..., 0], points[..., 1]
    inside = (x >= x_lo + EDGE_INSET_M) & (x <= x_hi - EDGE_INSET_M)
    return ~(inside & (z >= z_lo + EDGE_INSET_M) & (z <= z_hi - EDGE_INSET_M))


def ground_window_stale(terrain: Terrain, s: float) -> bool:
    """Whether the pelvis at ``s`` is within :data:`REFRESH_MARGIN_M` of either end of the
    2-D ground built around an earlier place."""
    x0, x1 = terrain.x_range
    return (
        s - x0 < PROFILE_BEHIND_M - REFRESH_MARGIN_M or x1 - s < PROFILE_AHEAD_M - REFRESH_MARGIN_M
    )
