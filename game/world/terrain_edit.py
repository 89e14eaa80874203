"""Shaping the ground live: vertex edits and presets, with undo and redo.

Every edit builds a new :class:`~game.world.terrain.Terrain` (terrains are immutable, so
undo and redo are two stacks of them) and is taken only if it keeps the rules of
:mod:`game.world.terrain_rules` (else :class:`EditRefused`, the ground unchanged); the
presets' ground is built by :mod:`game.world.terrain_presets`. Their public names are
importable from here too.

No pygame; the walk scene applies edits between steps and the feet re-plant.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from game.world.terrain import MIN_X_STEP_M, Terrain
from game.world.terrain_presets import (
    LANDING_M,
    LANDING_REACH_M,
    MAX_STAIRS,
    PRESETS,
    RAMP_TOP_M,
    RISER_WIDTH,
    bump_points,
    platform_points,
    ramp_points,
    stairs_points,
)
from game.world.terrain_rules import (
    FOOTPRINT_TOLERANCE,
    HEIGHT_LIMIT,
    MAX_POINTS,
    RISER_RUN,
    EditLimits,
    EditRefused,
    Footprint,
    Span,
    check_edit,
    check_footprints,
)
from game.world.types import FloatArray

__all__ = [
    "FOOTPRINT_TOLERANCE",
    "HEIGHT_LIMIT",
    "LANDING_M",
    "LANDING_REACH_M",
    "MAX_POINTS",
    "MAX_STAIRS",
    "PRESETS",
    "RAMP_TOP_M",
    "RISER_RUN",
    "RISER_WIDTH",
    "EditLimits",
    "EditRefused",
    "FloatArray",
    "Footprint",
    "Span",
    "TerrainEditor",
    "bump_points",
    "check_edit",
    "check_footprints",
    "platform_points",
    "ramp_points",
    "stairs_points",
]


class TerrainEditor:
    """The ground being edited, with undo and redo.

    Parameters
    ----------
    terrain : Terrain
        The ground to start from.
    limits : EditLimits
        The rules an edit must keep.
    guard : callable, optional
        ``guard(old, new)`` raises :class:`EditRefused` for ground something standing on
        it cannot take (the walk scene's cup); called after the rules pass.
    """

    def __init__(
        self,
        terrain: Terrain,
        limits: EditLimits,
        guard: Callable[[Terrain, Terrain], None] | None = None,
    ) -> None:
        self.terrain = terrain
        self.limits = limits
        self.guard = guard
        self._undo: list[Terrain] = []
        self._redo: list[Terrain] = []
        self.moved: int | None = None  # the index the last vertex moved ended at

    def check(self, points: FloatArray) -> Terrain:
        """The terrain of ``points`` (M, 2) if the edit keeps every rule and the guard,
        else :class:`EditRefused`; the ground and the history stay as they are."""
        proposed = np.asarray(points, dtype=float)
        try:
            edited = check_edit(self.terrain, proposed, self.limits)
            if self.guard is not None:
                self.guard(self.terrain, edited)
        except EditRefused as refused:
            refused.points = proposed
            raise
        return edited

    def apply(self, points: FloatArray, continuing: bool = False) -> Terrain:
        """Check and take ``points``; a ``continuing`` edit (the rest of a drag) is undone
        together with the edit before it."""
        edited = self.check(points)
        if not (continuing and self._undo):
            self._undo.append(self.terrain)
        self._redo.clear()
        self.terrain = edited
        return edited

    def preset(self, op: str, x: float, *args: float) -> FloatArray:
        """The vertices preset ``op`` (a key of :data:`PRESETS`) builds at ``x`` on the
        current ground, unchecked (:meth:`check` says whether it may be taken)."""
        if op not in PRESETS:
            raise EditRefused(f"unknown preset {op!r}")
        build, _ = PRESETS[op]
        return build(self.terrain, self.limits, x, *args)

    def build(self, op: str, x: float, *args: float) -> Terrain:
        """Build preset ``op`` at ``x`` (:meth:`preset`) and take it if it keeps the rules."""
        return self.apply(self.preset(op, x, *args))

    def stairs(self, x0: float, rise: float, tread: float, count: float) -> Terrain:
        """:func:`stairs_points` built."""
        return self.build("stairs", x0, rise, tread, count)

    def ramp(self, x0: float, grade_deg: float, length: float) -> Terrain:
        """:func:`ramp_points` built."""
        return self.build("ramp", x0, grade_deg, length)

    def bump(self, x0: float, height: float, width: float) -> Terrain:
        """:func:`bump_points` built."""
        return self.build("bump", x0, height, width)

    def platform(self, x0: float, height: float, width: float) -> Terrain:
        """:func:`platform_points` built."""
        return self.build("platform", x0, height, width)

    # -- vertices ----------------------------------------------------------------------
    def nearest_vertex(self, point: tuple[float, float], radius: float) -> int | None:
        """The vertex within ``radius`` of ``point`` (nearest), or None."""
        distance = np.hypot(self.terrain.xs - point[0], self.terrain.ys - point[1])
        i = int(np.argmin(distance))
        return i if distance[i] <= radius else None

    def move_vertex(self, index: int, x: float, y: float, continuing: bool = False) -> Terrain:
        """Move vertex ``index`` to ``(x, y)`` (the two ends move only up and down); a
        ``continuing`` move is part of the same drag (one undo step). A prop's ground that
        a segment either side runs under is pinned first (:meth:`_pin_footprints`), so the
        vertex tilts the ground beside the prop, not under it; :attr:`moved` is then the
        vertex's index."""
        points = self.terrain.points.copy()
        if not 0 <= index < len(points):
            raise EditRefused(f"no vertex {index}")
        points, index = self._pin_footprints(points, index)
        if index in (0, len(points) - 1):
            x = float(points[index, 0])
        points[index] = (x, y)
        edited = self.apply(points, continuing)
        self.moved = index
        return edited

    def _pin_footprints(self, points: FloatArray, index: int) -> tuple[FloatArray, int]:
        """``points`` with a vertex (on the ground as it is) at the nearest end of a prop's
        footprint inside the segment on either side of vertex ``index`` (the ground beyond
        it keeps its line, and every prop there its ground), and that vertex's index."""
        xs, x = points[:, 0], float(points[index, 0])
        lo = float(xs[max(index - 1, 0)]) + MIN_X_STEP_M
        hi = float(xs[min(index + 1, len(xs) - 1)]) - MIN_X_STEP_M
        ends = [end for footprint in self.limits.footprints for end in (footprint.x0, footprint.x1)]
        left = [end for end in ends if lo < end <= x - MIN_X_STEP_M]
        right = [end for end in ends if x + MIN_X_STEP_M <= end < hi]
        pinned = ([max(left)] if left else []) + ([min(right)] if right else [])
        if not pinned:
            return points, index
        pins = np.array([[end, float(self.terrain.height_at(end))] for end in pinned])
        merged = np.concatenate([points, pins])
        order = np.argsort(merged[:, 0], kind="stable")
        return merged[order], int(np.flatnonzero(order == index)[0])

    def between_neighbours(self, index: int, x: float) -> float:
        """``x`` kept ``MIN_X_STEP_M`` inside vertex ``index``'s neighbours: a vertex dragged
        by the mouse stops at them (a riser's corners are 1 cm apart: dragging one straight
        up with a pixel of sideways jitter moves it, rather than being refused as out of
        order)."""
        xs = self.terrain.xs
        if not 0 < index < len(xs) - 1:
            return x
        return min(max(x, float(xs[index - 1]) + MIN_X_STEP_M), float(xs[index + 1]) - MIN_X_STEP_M)

    def insert_vertex(self, x: float) -> Terrain:
        """A new vertex on the ground at ``x`` (the ground keeps its shape)."""
        if np.min(np.abs(self.terrain.xs - x)) < MIN_X_STEP_M:
            raise EditRefused("a vertex is already there", (x, x))
        point = np.array([[x, float(self.terrain.height_at(x))]])
        points = np.concatenate([self.terrain.points, point])
        return self.apply(points[np.argsort(points[:, 0], kind="stable")])

    def delete_vertex(self, index: int) -> Terrain:
        """Remove vertex ``index`` (not one of the two ends)."""
        if not 0 < index < len(self.terrain.points) - 1:
            x = float(self.terrain.xs[min(max(index, 0), len(self.terrain.xs) - 1)])
            raise EditRefused("the course's two end vertices stay", (x, x))
        return self.apply(np.delete(self.terrain.points, index, axis=0))

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
