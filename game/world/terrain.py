"""The ground: a polyline height field y = h(x), its queries, and its loader (no pygame).

Every query is vectorised: ``x`` may be a scalar or any array, and the result has its
shape. The polyline's x must be strictly increasing, so a stair riser is a very steep
segment rather than a vertical one and a downward ray always hits exactly one point.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from numpy.typing import ArrayLike, NDArray

from game.assets import AssetError, read_json
from game.world.cell_search import PolylineHeights, SortedSearch
from game.world.easing import any_true, max_last, xy
from game.world.range_query import RangeMax, index_span
from game.world.schema import Fields, Range
from game.world.types import FloatArray, IntArray

MAX_TERRAIN_POINTS = 10_000
MIN_X_STEP_M = 0.001  # a steeper riser than 1 mm of run is a wall the slope maths can't take

TERRAIN_RANGES: dict[str, Range] = {
    # every numeric field of terrain.json and its documented physical range
    "points": Range(2, MAX_TERRAIN_POINTS, "points"),
    "points.x": Range(-10_000.0, 10_000.0, "m"),
    "points.y": Range(-1_000.0, 1_000.0, "m"),
    "landmarks.from": Range(-10_000.0, 10_000.0, "m"),
    "landmarks.to": Range(-10_000.0, 10_000.0, "m"),
}


_NO_PAIRS: IntArray = np.zeros(0, dtype=np.intp)
_NO_PAIRS.setflags(write=False)


@dataclass(frozen=True, slots=True)
class Landmark:
    """A named stretch of the course (``stairs up`` from x = 12 to 14.5)."""

    name: str
    x_from: float
    x_to: float


@dataclass(frozen=True, slots=True)
class RayHit:
    """Where downward rays met the ground.

    Attributes
    ----------
    point : ndarray, shape (..., 2)
        The hit point on the surface (directly below the ray origin).
    normal : ndarray, shape (..., 2)
        The unit surface normal there (y-up).
    hit : ndarray of bool, shape (...)
        The origin was on or above the ground (a ray starting underground misses).
    """

    point: FloatArray
    normal: FloatArray
    hit: NDArray[np.bool_]


@dataclass(frozen=True, slots=True, eq=False)
class Terrain:
    """A height field given by a polyline with strictly increasing x.

    Attributes
    ----------
    points : ndarray, shape (M, 2)
        The polyline vertices, world metres, y-up; beyond either end the ground stays level.
    landmarks : tuple of Landmark
        Named stretches for the HUD, the autopilot and the tests.
    """

    points: FloatArray
    landmarks: tuple[Landmark, ...] = ()
    # derived once (the polyline never changes; an edit makes a new Terrain)
    xs: FloatArray = field(init=False, repr=False)  # vertex x, (M,), contiguous for np.interp
    ys: FloatArray = field(init=False, repr=False)  # vertex y, (M,)
    slopes: FloatArray = field(init=False, repr=False)  # dy/dx of each segment, (M − 1,)
    _heights: RangeMax = field(init=False, repr=False)  # range maxima of the vertex y
    _search: SortedSearch = field(init=False, repr=False)  # searchsorted over xs
    _line: PolylineHeights | None = field(init=False, repr=False)  # np.interp, many vertices
    _window_rises: dict[float, tuple[SortedSearch, RangeMax]] = field(init=False, repr=False)
    _risers: dict[tuple[float, float], tuple[SortedSearch, FloatArray, RangeMax]] = field(
        init=False, repr=False
    )

    def __post_init__(self) -> None:
        pts = np.asarray(self.points, dtype=float)
        if pts.ndim != 2 or pts.shape[0] < 2 or pts.shape[1] != 2:
            raise ValueError(f"expected points of shape (M >= 2, 2), got {pts.shape}")
        if not np.all(np.diff(pts[:, 0]) > 0):
            raise ValueError("expected strictly increasing x (the ground must be a function of x)")
        pts.setflags(write=False)
        object.__setattr__(self, "points", pts)
        for name, column in (("xs", pts[:, 0]), ("ys", pts[:, 1])):
            # a contiguous copy: np.interp copies a strided column on every call otherwise
            values = np.ascontiguousarray(column)
            values.setflags(write=False)
            object.__setattr__(self, name, values)
        # slope of segment i: (y[i+1] − y[i]) / (x[i+1] − x[i])
        slopes = np.diff(pts[:, 1]) / np.diff(pts[:, 0])
        slopes.setflags(write=False)
        object.__setattr__(self, "slopes", slopes)
        object.__setattr__(self, "_heights", RangeMax.of(pts[:, 1]))
        search = SortedSearch.of(self.xs)
        object.__setattr__(self, "_search", search)
        object.__setattr__(self, "_line", PolylineHeights.of(search, self.ys, slopes))
        object.__setattr__(self, "_window_rises", {})
        object.__setattr__(self, "_risers", {})

    @property
    def x_range(self) -> tuple[float, float]:
        """The first and last vertex x."""
        return float(self.xs[0]), float(self.xs[-1])

    def walkable_range(
        self, x: float, max_step: float, wall_run: float = 0.1
    ) -> tuple[float, float]:
        """The stretch around ``x`` a walker can reach: bounded by the terrain's ends and by
        walls, segments that rise or drop more than ``max_step`` over less than ``wall_run``
        of x (a loft beyond a wall is not walkable from here, only by a ladder)."""
        rise = np.abs(np.diff(self.ys))
        run = np.diff(self.xs)
        walls = np.flatnonzero((rise > max_step) & (run < wall_run))
        left = [float(self.xs[i + 1]) for i in walls if self.xs[i + 1] <= x]
        right = [float(self.xs[i]) for i in walls if self.xs[i] >= x]
        lo, hi = self.x_range
        return max(left, default=lo), min(right, default=hi)

    def height_at(self, x: ArrayLike) -> FloatArray:
        """Ground height under ``x``, same shape as ``x`` (level beyond the ends)."""
        if self._line is None:
            return np.interp(np.asarray(x, dtype=float), self.xs, self.ys)
        return self._line.at(x)  # (the same numbers, from a cell table)

    def slope_at(self, x: ArrayLike) -> FloatArray:
        """dy/dx of the segment under ``x``, same shape (0 beyond the ends)."""
        xa = np.asarray(x, dtype=float)
        xs = self.xs
        seg = np.minimum(np.maximum(self._search.index(xa, side="right") - 1, 0), len(xs) - 2)
        inside = (xa >= xs[0]) & (xa <= xs[-1])
        return np.where(inside, self.slopes[seg], 0.0)

    def normal_at(self, x: ArrayLike) -> FloatArray:
        """Unit surface normal under ``x``, shape ``x.shape + (2,)``."""
        slope = self.slope_at(x)
        # the normal of the tangent (1, s) rotated +90°: (−s, 1) / √(1 + s²)
        inv = 1.0 / np.sqrt(1.0 + slope * slope)
        return xy(-slope * inv, inv)

    def ray_down(self, origin: ArrayLike) -> RayHit:
        """Cast rays straight down from ``origin``, shape ``(..., 2)``."""
        o = np.asarray(origin, dtype=float)
        ground = self.height_at(o[..., 0])
        point = xy(o[..., 0], ground)
        return RayHit(point, self.normal_at(o[..., 0]), o[..., 1] >= ground)

    def vertex_span(self, lo: ArrayLike, hi: ArrayLike) -> tuple[IntArray, IntArray]:
        """The vertices with ``lo ≤ x ≤ hi`` as index ranges ``[first, stop)``, broadcast
        shape of the inputs each (:func:`index_span`)."""
        return index_span(self._search, lo, hi)

    def vertices_between(self, lo: ArrayLike, hi: ArrayLike) -> tuple[IntArray, IntArray]:
        """Every vertex with ``lo ≤ x ≤ hi`` for a batch of intervals, as flat pairs
        ``(interval, vertex)``, shape ``(P,)`` each, ordered by interval: ``interval``
        indexes the raveled broadcast of ``lo`` and ``hi``. Costs O(n log M + P), what the
        intervals hold, rather than the O(n·M) of a mask over every vertex."""
        first, stop = self.vertex_span(lo, hi)
        count = (stop - first).ravel()
        if not any_true(count):  # (most spans a step asks about hold no vertex)
            return _NO_PAIRS, _NO_PAIRS
        interval = np.repeat(np.arange(len(count)), count)
        # a pair's vertex: its position past its interval's first pair, plus that first vertex
        start = np.cumsum(count) - count
        vertex = np.arange(len(interval)) + np.repeat(first.ravel() - start, count)
        return interval, vertex

    def max_height_between(self, x0: ArrayLike, x1: ArrayLike, samples: int = 24) -> FloatArray:
        """The highest ground on ``[min(x0, x1), max(x0, x1)]``, broadcast shape of the inputs.

        The interval's own vertices count too, so a narrow stair nosing is never missed.
        """
        a = np.minimum(x0, x1)
        b = np.maximum(x0, x1)
        t = np.linspace(0.0, 1.0, samples)
        sampled = max_last(self.height_at(a[..., None] + (b - a)[..., None] * t))
        # the highest vertex inside [a, b] (−inf where none is)
        vertex_max = self._heights.over(*self.vertex_span(a, b), empty=-np.inf)
        return np.maximum(sampled, vertex_max)

    def rise_over(self, x: ArrayLike, window: float) -> FloatArray:
        """``|h(x + window) − h(x)|``: how much the ground rises or drops over the next
        ``window`` metres from ``x``, same shape as ``x``."""
        xa = np.asarray(x, dtype=float)
        return np.abs(self.height_at(xa + window) - self.height_at(xa))

    def window_corners(self, window: float) -> FloatArray:
        """Where ``rise_over(·, window)`` may have a corner: each vertex x, and ``window``
        before it (``h(a + window) − h(a)`` is piecewise linear in ``a`` between these)."""
        return np.concatenate([self.xs, self.xs - window])

    def steepest_rise(self, x0: ArrayLike, x1: ArrayLike, window: float) -> FloatArray:
        """The largest :meth:`rise_over` of ``window`` anywhere on ``[min(x0, x1),
        max(x0, x1)]`` (from the start to ``window`` before the end; the whole interval when
        shorter), broadcast shape of the inputs. Exact: the extremes of a piecewise linear
        function are at its :meth:`window_corners` or the ends of the range."""
        a = np.minimum(x0, x1)
        b = np.maximum(a + window, np.maximum(x0, x1)) - window  # the last window's start
        corners, rises = self._corner_rises(window)
        # the corners inside [a, b], by binary search in the sorted corners; a rise is ≥ 0,
        # so 0 stands for "no corner inside"
        at_corners = rises.over(*index_span(corners, a, b), empty=0.0)
        at_ends = self.rise_over(xy(a, b), window)  # both ends' in one call
        return np.maximum(at_corners, np.maximum(at_ends[..., 0], at_ends[..., 1]))

    def _corner_rises(self, window: float) -> tuple[SortedSearch, RangeMax]:
        """:meth:`window_corners` sorted, and the range maxima of the :meth:`rise_over` at
        each, built once a window (the walk asks for the same one or two windows every
        step)."""
        cached = self._window_rises.get(window)
        if cached is None:
            corners = np.sort(self.window_corners(window))
            cached = (SortedSearch.of(corners), RangeMax.of(self.rise_over(corners, window)))
            self._window_rises[window] = cached
        return cached

    def risers(self, min_riser: float, window: float) -> FloatArray:
        """The x of each stair riser, shape ``(K,)``: the middle of a run of segments steeper
        than ``min_riser / window`` going one way (up or down) that rises or drops
        ``min_riser`` or more in all. Computed once per pair of arguments."""
        return self._stairs(min_riser, window)[0].values

    def treads(self, min_riser: float, window: float) -> FloatArray:
        """The tread each of :meth:`risers` starts or ends, shape ``(K,)``: the distance to
        the nearest riser going the same way (``inf`` where there is none: a lone kerb, or a
        landing between a flight up and one down)."""
        return self._stairs(min_riser, window)[1]

    def riser_within(
        self, x: ArrayLike, reach: ArrayLike, min_riser: float, window: float
    ) -> NDArray[np.bool_]:
        """Whether a riser (:meth:`risers`) lies within ``reach`` of ``x``, ``|riser − x| ≤
        reach``, broadcast shape of the inputs. Only the nearest riser either side of ``x``
        (a binary search) is measured: ``|riser − x|`` computed in floating point grows
        monotonically away from ``x`` either way, so no farther riser can be nearer."""
        xa = np.asarray(x, dtype=float)
        risers = self.risers(min_riser, window)
        if not len(risers):
            return np.zeros(np.broadcast(xa, np.asarray(reach)).shape, dtype=bool)
        after = risers.searchsorted(xa)  # the first riser at or past x
        right = risers[np.minimum(after, len(risers) - 1)]
        left = risers[np.maximum(after - 1, 0)]
        return np.asarray((np.abs(left - xa) <= reach) | (np.abs(right - xa) <= reach))

    def riser_between(
        self, lo: ArrayLike, hi: ArrayLike, min_riser: float, window: float, closed: bool = True
    ) -> NDArray[np.bool_]:
        """Whether a riser (:meth:`risers`) lies between ``lo`` and ``hi``, broadcast shape
        of the inputs (:meth:`riser_span`)."""
        first, stop = self.riser_span(lo, hi, min_riser, window, closed)
        return np.asarray(stop > first)

    def riser_span(
        self, lo: ArrayLike, hi: ArrayLike, min_riser: float, window: float, closed: bool = True
    ) -> tuple[IntArray, IntArray]:
        """The risers (:meth:`risers`) with ``lo ≤ x ≤ hi`` (``closed``) or ``lo < x < hi``
        as index ranges ``[first, stop)``, broadcast shape of the inputs each (``stop ≤
        first``: none, as where ``hi < lo`` or either is NaN). Two binary searches an
        interval, O(log K)."""
        risers = self.risers(min_riser, window)
        lo_a, hi_a = np.asarray(lo, dtype=float), np.asarray(hi, dtype=float)
        # the first riser at or past lo (past it, open), and the first past hi (at or past)
        first = risers.searchsorted(lo_a, side="left" if closed else "right")
        stop = risers.searchsorted(hi_a, side="right" if closed else "left")
        return first, stop

    def shortest_tread(
        self, lo: ArrayLike, hi: ArrayLike, min_riser: float, window: float
    ) -> FloatArray:
        """The shortest of :meth:`treads` among the risers with ``lo ≤ x ≤ hi``, broadcast
        shape of the inputs (``inf`` where none is): a binary search and a range minimum,
        O(log K) an interval."""
        risers, _, negated = self._stairs(min_riser, window)
        return -negated.over(*index_span(risers, lo, hi), empty=-np.inf)

    def _stairs(self, min_riser: float, window: float) -> tuple[SortedSearch, FloatArray, RangeMax]:
        cached = self._risers.get((min_riser, window))
        if cached is None:
            steep = np.abs(self.slopes) >= min_riser / window
            sign = np.where(steep, np.sign(self.slopes), 0.0)
            # runs of steep segments going the same way: where the sign changes a run starts
            edges = np.flatnonzero(np.diff(np.concatenate([[0.0], sign, [0.0]])))
            xs, ys = self.xs, self.ys
            runs = np.array(
                [
                    (0.5 * (xs[first] + xs[end]), sign[first])  # segments first .. end − 1
                    for first, end in zip(edges[:-1], edges[1:], strict=True)
                    if sign[first] != 0.0 and abs(ys[end] - ys[first]) >= min_riser
                ]
            ).reshape(-1, 2)
            x, way = runs[:, 0], runs[:, 1]
            gap = np.where(way[1:] == way[:-1], np.diff(x), np.inf)  # to the next riser
            tread = np.minimum(np.append(gap, np.inf), np.insert(gap, 0, np.inf))
            # the treads' range minima, as the maxima of their negatives
            stairs = (SortedSearch.of(x), tread, RangeMax.of(-tread))
            cached = self._risers[(min_riser, window)] = stairs
        return cached

    def with_boxes(self, boxes: ArrayLike, wall: float = 0.005) -> Terrain:
        """This ground with boxes standing on it, rows ``(x0, x1, top)``: over ``[x0, x1]``
        the height is ``top`` (never below the ground there), with sides ``wall`` metres
        wide (x stays strictly increasing). What a swinging foot clears: a cup set down."""
        points = self.points
        for x0, x1, top in np.asarray(boxes, dtype=float).reshape(-1, 3):
            xs = np.array([x0 - wall, x0, x1, x1 + wall])
            ys = self.height_at(xs)
            ys[1:3] = np.maximum(ys[1:3], top)  # the top, the sides' feet on the ground
            keep = (points[:, 0] < xs[0] - 1e-9) | (points[:, 0] > xs[-1] + 1e-9)
            points = np.concatenate([points[keep], np.stack([xs, ys], axis=-1)])
            points = points[np.argsort(points[:, 0], kind="stable")]
        return Terrain(points, self.landmarks)

    def to_json(self) -> list[list[float]]:
        """The polyline as ``[[x, y], ...]`` (the trace header's ``terrain``)."""
        return [[round(float(x), 6), round(float(y), 6)] for x, y in self.points]


def load_terrain(path: str | Path) -> Terrain:
    """Read and validate a terrain file.

    The file is ``{"points": [[x, y], ...], "landmarks": [{"name", "from", "to"}, ...]}``
    (``landmarks`` optional). Raises :class:`AssetError` naming the file and the key.
    """
    fields = Fields(path, read_json(path), ranges=TERRAIN_RANGES)
    points = fields.points("points")
    steps = np.diff(points[:, 0])
    if not np.all(steps >= MIN_X_STEP_M):
        i = int(np.argmax(steps < MIN_X_STEP_M)) + 1
        raise AssetError(
            path,
            f"points[{i}]",
            f"not a function of x: expected x strictly increasing by at least {MIN_X_STEP_M:g} m, "
            f"found x = {points[i, 0]:g} after x = {points[i - 1, 0]:g}",
        )
    landmarks: list[Landmark] = []
    raw = fields.optional("landmarks", [])
    if not isinstance(raw, list):
        raise fields.error("landmarks", "expected a list of {name, from, to} objects")
    for index, item in enumerate(raw):
        mark = Fields(path, item, f"landmarks[{index}]", TERRAIN_RANGES)
        x_from, x_to = mark.number("from"), mark.number("to")
        if x_to <= x_from:
            raise mark.error("to", f"expected a number > from ({x_from:g}), found {x_to:g}")
        landmarks.append(Landmark(mark.text("name"), x_from, x_to))
        mark.reject_unknown()
    fields.optional("name", "")  # a label for the reader
    fields.reject_unknown()  # a misspelt key is an error, not a silent default
    return Terrain(points, tuple(landmarks))
