"""Shaping the ground live: vertex edits and presets, checked against what the gait can take.

Every edit builds a new :class:`~game.world.terrain.Terrain` (terrains are immutable, so
undo and redo are two stacks of them) and is refused with :class:`EditRefused`, the ground
unchanged, when it would break a rule:

- x strictly increasing, vertices at least ``MIN_SPACING`` apart, the course's two ends
  staying where they are in x, heights within ``HEIGHT_LIMIT``;
- no *new* segment the gait cannot take: a riser (a segment shorter than ``RISER_RUN`` in
  x) taller than the rig's ``max_step_height``, a slope steeper than its ``max_grade``, or
  two risers closer than a sole (``min_tread``). Segments the file already had are left
  alone, so the course's walls (which only the ladder climbs) stay legal;
- no prop left floating or buried: the ground under each prop's footprint keeps its height.

No pygame; the walk scene applies edits between steps and the feet re-plant.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from game.world.rig import Rig
from game.world.terrain import Terrain

FloatArray = NDArray[np.float64]

MIN_SPACING = 0.01  # metres between vertices in x (a stair riser is this wide)
RISER_RUN = 0.05  # a segment narrower than this in x is a riser, not a slope
HEIGHT_LIMIT = 50.0  # metres: no vertex higher or lower than this
MAX_POINTS = 2000  # vertices in an edited terrain
FOOTPRINT_TOLERANCE = 1e-3  # metres a prop's ground may move before the edit is refused
_BUMP_SAMPLES = 17  # vertices of a bump preset (odd: the top is a vertex)


class EditRefused(ValueError):
    """An edit that would break a terrain rule; the message says which and why."""


@dataclass(frozen=True, slots=True)
class EditLimits:
    """What the gait can take (from the rig) and the props that must stay grounded.

    Attributes
    ----------
    max_step_height : float
        The tallest riser, metres.
    max_grade : float
        The steepest slope, radians.
    min_tread : float
        The least x distance between two risers, metres: a whole sole fits between them.
    step_reach : float
        One step's reach, metres: no more than ``max_step_height`` of rise or drop within
        it (the gait stops before such ground: ``Crowd._unblocked``, the same test).
    footprints : tuple of (x0, x1, base)
        Prop footprints whose ground must stay at ``base``.
    """

    max_step_height: float
    max_grade: float
    min_tread: float
    step_reach: float
    footprints: tuple[tuple[float, float, float], ...] = ()

    @classmethod
    def for_rig(
        cls, rig: Rig, footprints: tuple[tuple[float, float, float], ...] = ()
    ) -> EditLimits:
        """The limits of ``rig``: its gait's ``max_step_height`` and ``max_step_reach``, its
        soles' ``max_tilt`` as the steepest grade, and a tread that fits the sole heel to
        toe."""
        legs, gait = rig.legs, rig.gait
        tread = legs.heel + legs.toe
        return cls(gait.max_step_height, legs.max_tilt, tread, gait.max_step_reach, footprints)


def _new_segments(old: FloatArray, new: FloatArray) -> NDArray[np.bool_]:
    """Which segments of ``new`` (M − 1,) the ``old`` polyline did not already have."""
    old_pairs = {tuple(p) for p in np.concatenate([old[:-1], old[1:]], axis=1).tolist()}
    pairs = np.concatenate([new[:-1], new[1:]], axis=1).tolist()
    return np.array([tuple(p) not in old_pairs for p in pairs], dtype=bool)


def check_edit(old: Terrain, points: FloatArray, limits: EditLimits) -> Terrain:
    """The terrain of ``points`` (M, 2) if it keeps every rule, else :class:`EditRefused`."""
    if len(points) < 2:
        raise EditRefused("the ground needs at least two vertices")
    if len(points) > MAX_POINTS:
        raise EditRefused(f"at most {MAX_POINTS} vertices")
    if not np.isfinite(points).all() or np.abs(points[:, 1]).max() > HEIGHT_LIMIT:
        raise EditRefused(f"heights must stay within ±{HEIGHT_LIMIT:g} m")
    if points[0, 0] != old.xs[0] or points[-1, 0] != old.xs[-1]:
        raise EditRefused("the course's ends stay where they are in x")
    run = np.diff(points[:, 0])
    if run.min() < MIN_SPACING - 1e-12:
        raise EditRefused(f"vertices must stay in order, at least {MIN_SPACING * 100:g} cm apart")
    rise = np.abs(np.diff(points[:, 1]))
    fresh = _new_segments(old.points, points)
    # steeper than the feet take (rise > run·tan(max grade)): a riser if it is narrow,
    # else a slope too steep to walk
    steep = rise > math.tan(limits.max_grade) * run + 1e-9
    riser = steep & (run < RISER_RUN)
    too_tall = fresh & riser & (rise > limits.max_step_height + 1e-9)
    if too_tall.any():
        i = int(np.argmax(too_tall))
        raise EditRefused(
            f"a {rise[i] * 100:.0f} cm step is taller than the legs take "
            f"({limits.max_step_height * 100:.0f} cm)"
        )
    too_steep = fresh & steep & ~riser
    if too_steep.any():
        i = int(np.argmax(too_steep))
        grade = math.degrees(math.atan2(rise[i], run[i]))  # tan(grade) = rise / run
        raise EditRefused(
            f"a {grade:.0f}° slope is steeper than the feet take "
            f"({math.degrees(limits.max_grade):.0f}°)"
        )
    _check_treads(points, riser, fresh, limits.min_tread)
    terrain = Terrain(points, old.landmarks)
    _check_step_reach(old, terrain, limits)
    for x0, x1, base in limits.footprints:
        xs = np.concatenate(
            [np.linspace(x0, x1, 9), terrain.xs[(terrain.xs > x0) & (terrain.xs < x1)]]
        )
        if np.abs(terrain.height_at(xs) - base).max() > FOOTPRINT_TOLERANCE:
            raise EditRefused(f"a prop stands on [{x0:.2f}, {x1:.2f}]: its ground must stay")
    return terrain


def _check_step_reach(old: Terrain, new: Terrain, limits: EditLimits) -> None:
    """Refuse ground that rises or drops more than ``max_step_height`` within one
    ``step_reach`` where the old ground did not (walls the course already had stay)."""
    window = limits.step_reach
    # both rise functions are piecewise linear with corners at either terrain's corners
    at = np.concatenate([old.window_corners(window), new.window_corners(window)])
    rise = new.rise_over(at, window)
    worse = (rise > limits.max_step_height + 1e-9) & (rise > old.rise_over(at, window) + 1e-9)
    if worse.any():
        i = int(np.argmax(np.where(worse, rise, 0.0)))
        raise EditRefused(
            f"the ground changes {rise[i] * 100:.1f} cm within one step ({window * 100:.0f} cm "
            f"of x) near x = {at[i]:.2f}: the legs take {limits.max_step_height * 100:.0f} cm"
        )


def _check_treads(
    points: FloatArray, riser: NDArray[np.bool_], fresh: NDArray[np.bool_], min_tread: float
) -> None:
    """Refuse a new riser closer than ``min_tread`` (in x) to its neighbouring riser."""
    index = np.flatnonzero(riser)
    if index.size < 2:
        return
    gaps = points[index[1:], 0] - points[index[:-1] + 1, 0]  # from one riser's top to the next
    close = (gaps < min_tread - 1e-9) & (fresh[index[1:]] | fresh[index[:-1]])
    if close.any():
        gap = float(gaps[int(np.argmax(close))])
        raise EditRefused(
            f"a {gap * 100:.0f} cm tread is shorter than a foot ({min_tread * 100:.0f} cm)"
        )


def _splice(terrain: Terrain, x0: float, x1: float, profile: FloatArray) -> FloatArray:
    """The terrain's vertices with those in [x0, x1] replaced by ``profile`` (K, 2): x
    absolute, y an offset above the ground the span had."""
    keep = (terrain.xs < x0 - 1e-9) | (terrain.xs > x1 + 1e-9)
    shape = np.stack([profile[:, 0], terrain.height_at(profile[:, 0]) + profile[:, 1]], axis=-1)
    points = np.concatenate([terrain.points[keep], shape])
    return points[np.argsort(points[:, 0], kind="stable")]


class TerrainEditor:
    """The ground being edited, with undo and redo.

    Parameters
    ----------
    terrain : Terrain
        The ground to start from.
    limits : EditLimits
        The rules an edit must keep.
    """

    def __init__(self, terrain: Terrain, limits: EditLimits) -> None:
        self.terrain = terrain
        self.limits = limits
        self._undo: list[Terrain] = []
        self._redo: list[Terrain] = []

    def _apply(self, points: FloatArray, continuing: bool = False) -> Terrain:
        """Check and take ``points``; a ``continuing`` edit (the rest of a drag) is undone
        together with the edit before it."""
        edited = check_edit(self.terrain, np.asarray(points, dtype=float), self.limits)
        if not (continuing and self._undo):
            self._undo.append(self.terrain)
        self._redo.clear()
        self.terrain = edited
        return edited

    # -- vertices ----------------------------------------------------------------------
    def nearest_vertex(self, point: tuple[float, float], radius: float) -> int | None:
        """The vertex within ``radius`` of ``point`` (nearest), or None."""
        distance = np.hypot(self.terrain.xs - point[0], self.terrain.ys - point[1])
        i = int(np.argmin(distance))
        return i if distance[i] <= radius else None

    def move_vertex(self, index: int, x: float, y: float, continuing: bool = False) -> Terrain:
        """Move vertex ``index`` to ``(x, y)`` (the two ends move only up and down); a
        ``continuing`` move is part of the same drag (one undo step)."""
        points = self.terrain.points.copy()
        if not 0 <= index < len(points):
            raise EditRefused(f"no vertex {index}")
        if index in (0, len(points) - 1):
            x = float(points[index, 0])
        points[index] = (x, y)
        return self._apply(points, continuing)

    def between_neighbours(self, index: int, x: float) -> float:
        """``x`` kept ``MIN_SPACING`` inside vertex ``index``'s neighbours: a vertex dragged
        by the mouse stops at them (a riser's corners are 1 cm apart, so dragging one
        straight up with a pixel of sideways jitter was refused as out of order)."""
        xs = self.terrain.xs
        if not 0 < index < len(xs) - 1:
            return x
        return min(max(x, float(xs[index - 1]) + MIN_SPACING), float(xs[index + 1]) - MIN_SPACING)

    def insert_vertex(self, x: float) -> Terrain:
        """A new vertex on the ground at ``x`` (the ground keeps its shape)."""
        if np.min(np.abs(self.terrain.xs - x)) < MIN_SPACING:
            raise EditRefused("a vertex is already there")
        profile = np.array([[x, 0.0]])
        return self._apply(_splice(self.terrain, x, x, profile))

    def delete_vertex(self, index: int) -> Terrain:
        """Remove vertex ``index`` (not one of the two ends)."""
        if not 0 < index < len(self.terrain.points) - 1:
            raise EditRefused("the course's two end vertices stay")
        return self._apply(np.delete(self.terrain.points, index, axis=0))

    # -- presets -----------------------------------------------------------------------
    def stairs(self, x0: float, rise: float, tread: float, count: int) -> Terrain:
        """``count`` steps of ``rise`` (negative: down into a pit) and ``tread`` from
        ``x0``, a landing as long as a tread (at least 0.6 m), and as many steps back down
        to the ground."""
        if not 1 <= count <= 20 or tread <= 0:
            raise EditRefused("stairs take 1 to 20 steps of a positive tread")
        landing = max(tread, 0.6)
        levels = np.concatenate([np.arange(1, count + 1), np.arange(count - 1, -1, -1)]) * rise
        starts = x0 + np.concatenate(
            [np.arange(count) * tread, count * tread - tread + landing + np.arange(count) * tread]
        )
        corners: list[tuple[float, float]] = [(x0 - MIN_SPACING, 0.0)]
        previous = 0.0
        for x, level in zip(starts, levels, strict=True):
            corners += [(x, previous), (x + MIN_SPACING, level)]
            previous = level
        end = float(starts[-1]) + MIN_SPACING
        return self._apply(_splice(self.terrain, x0 - MIN_SPACING, end, np.array(corners)))

    def ramp(self, x0: float, grade_deg: float, length: float) -> Terrain:
        """Up ``length`` metres of x at ``grade_deg`` from ``x0``, a 1 m top, and down."""
        if length <= 0:
            raise EditRefused("a ramp needs a positive length")
        top = length * math.tan(math.radians(grade_deg))  # rise = run · tan(grade)
        xs = x0 + np.array([0.0, length, length + 1.0, 2.0 * length + 1.0])
        profile = np.stack([xs, [0.0, top, top, 0.0]], axis=-1)
        return self._apply(_splice(self.terrain, xs[0], xs[-1], profile))

    def bump(self, x0: float, height: float, width: float) -> Terrain:
        """A smooth (raised-cosine) bump of ``height`` over ``width`` from ``x0``."""
        if width <= 0:
            raise EditRefused("a bump needs a positive width")
        t = np.linspace(0.0, 1.0, _BUMP_SAMPLES)
        # raised cosine: h·(1 − cos 2πt)/2, level at both ends
        profile = np.stack([x0 + width * t, height * (1.0 - np.cos(2.0 * np.pi * t)) / 2], axis=-1)
        return self._apply(_splice(self.terrain, x0, x0 + width, profile))

    def platform(self, x0: float, height: float, width: float) -> Terrain:
        """A block ``height`` tall and ``width`` long from ``x0`` (one step up, one down);
        a negative height digs a pit."""
        if width <= 2 * MIN_SPACING:
            raise EditRefused("a platform needs a positive width")
        xs = x0 + np.array([0.0, MIN_SPACING, width - MIN_SPACING, width])
        profile = np.stack([xs, [0.0, height, height, 0.0]], axis=-1)
        return self._apply(_splice(self.terrain, x0, x0 + width, profile))

    # -- history -----------------------------------------------------------------------
    def undo(self) -> bool:
        """Go back one edit (False when there is none)."""
        if not self._undo:
            return False
        self._redo.append(self.terrain)
        self.terrain = self._undo.pop()
        return True

    def redo(self) -> bool:
        """Redo the last undone edit (False when there is none)."""
        if not self._redo:
            return False
        self._undo.append(self.terrain)
        self.terrain = self._redo.pop()
        return True

    def reset(self, terrain: Terrain) -> None:
        """Start over from ``terrain`` (a reload from disk), history cleared."""
        self.terrain = terrain
        self._undo.clear()
        self._redo.clear()
