"""Shaping the ground live: vertex edits and presets, checked against what the gait can take.

Every edit builds a new :class:`~game.world.terrain.Terrain` (terrains are immutable, so
undo and redo are two stacks of them) and is refused with :class:`EditRefused`, the ground
unchanged, when it would break a rule. A refusal names the rule and where it fails (its
``span``, an x range), so the editor can draw the place:

- x increasing by at least ``MIN_X_STEP_M`` (the one spacing rule, the terrain loader's),
  the course's two ends staying where they are in x, heights within ``HEIGHT_LIMIT``;
- no *new* segment the gait cannot take: a riser (a segment shorter than ``RISER_RUN`` in
  x) taller than the rig's ``max_step_height``, a slope steeper than its ``max_grade``, or
  two risers closer than a sole (``min_tread``). Segments the file already had are left
  alone, so the course's walls (which only the ladder climbs) stay legal;
- no ground the legs took within one step that they no longer take (more than
  ``max_step_height`` of rise or drop within ``step_reach``); where the old ground was
  already a wall, it stays one whatever its height;
- no prop left floating or buried: the ground under each prop's footprint keeps its height
  (and whatever :attr:`TerrainEditor.guard` checks: the walk scene's cup).

The presets build on the ground: stairs and a ramp rise from the ground at the click with
level treads (or a level top) and a landing that runs on to meet ground rising to its level,
else come back down to the ground; a platform is a level block; a bump is added to the
ground's own shape. None of them moves ground beyond where it ends on the old ground.

No pygame; the walk scene applies edits between steps and the feet re-plant.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from game.world.rig import Rig
from game.world.terrain import MIN_X_STEP_M, Terrain

FloatArray = NDArray[np.float64]
Span = tuple[float, float]

RISER_WIDTH = 0.01  # metres of x a preset's riser (a stair's, a platform's side) takes
RISER_RUN = 0.05  # a segment narrower than this in x is a riser, not a slope
HEIGHT_LIMIT = 50.0  # metres: no vertex higher or lower than this
MAX_POINTS = 2000  # vertices in an edited terrain
MAX_STAIRS = 20  # steps in one flight of the stairs preset
FOOTPRINT_TOLERANCE = 1e-3  # metres a prop's ground may move before the edit is refused
LANDING_M = 0.6  # the shortest landing at the top of stairs (room to stand and turn)
RAMP_TOP_M = 1.0  # the shortest level top of a ramp
LANDING_REACH_M = 3.0  # a landing runs on this far at most to meet ground rising to it;
# ground that does not rise to it within this gets a flight (or ramp) back down
_BUMP_SAMPLES = 17  # vertices of a bump preset (odd: the top is a vertex)


class EditRefused(ValueError):
    """An edit that would break a terrain rule; the message says which and why.

    Attributes
    ----------
    span : (float, float) or None
        Where it fails: the x range of the offending segment, window or prop (None when
        the edit as a whole is wrong, an unknown preset or a bad argument).
    points : ndarray, shape (M, 2), or None
        The ground the edit would have made, when it got as far as that
        (:meth:`TerrainEditor.check` sets it).
    """

    def __init__(self, message: str, span: Span | None = None) -> None:
        super().__init__(message)
        self.span = span
        self.points: FloatArray | None = None


@dataclass(frozen=True, slots=True)
class Footprint:
    """A prop's stretch of ground ``[x0, x1]``, which must stay at height ``base``."""

    name: str
    x0: float
    x1: float
    base: float


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
    footprints : tuple of Footprint
        Props whose ground must stay where it is.
    """

    max_step_height: float
    max_grade: float
    min_tread: float
    step_reach: float
    footprints: tuple[Footprint, ...] = ()

    @classmethod
    def for_rig(cls, rig: Rig, footprints: tuple[Footprint, ...] = ()) -> EditLimits:
        """The limits of ``rig``: its gait's ``max_step_height`` and ``max_step_reach``, its
        soles' ``max_tilt`` as the steepest grade, and a tread that fits the sole heel to
        toe."""
        legs, gait = rig.legs, rig.gait
        tread = legs.heel + legs.toe
        return cls(gait.max_step_height, legs.max_tilt, tread, gait.max_step_reach, footprints)


def _over(value: float, limit: float, scale: float = 1.0) -> tuple[str, str]:
    """``value`` and ``limit`` (times ``scale``) printed with as few decimals as show the
    value past the limit (a 40.4 cm step against 40 cm reads "40.4" and "40.0", not "40")."""
    for digits in range(4):
        shown, bound = f"{value * scale:.{digits}f}", f"{limit * scale:.{digits}f}"
        if shown != bound:
            return shown, bound
    return shown, bound


def _between(a: float, b: float) -> str:
    return f"x {a:.2f} to {b:.2f}"


def _new_segments(old: Terrain, new: FloatArray) -> NDArray[np.bool_]:
    """Which segments of ``new`` (M − 1,) are not part of one segment of the ``old`` ground
    (both ends on it, no old vertex between them): a wall the course had, cut short by an
    edit that meets it part way up, is still the old wall."""
    xs, ys = new[:, 0], new[:, 1]
    on_old = np.abs(old.height_at(xs) - ys) <= 1e-9
    # old vertices strictly between each segment's ends
    between = np.searchsorted(old.xs, xs[1:], side="left") - np.searchsorted(
        old.xs, xs[:-1], side="right"
    )
    return ~(on_old[:-1] & on_old[1:] & (between == 0))


def check_edit(old: Terrain, points: FloatArray, limits: EditLimits) -> Terrain:
    """The terrain of ``points`` (M, 2) if it keeps every rule, else :class:`EditRefused`
    naming the rule and, as its ``span``, where it fails."""
    if len(points) < 2:
        raise EditRefused("the ground needs at least two vertices")
    if len(points) > MAX_POINTS:
        raise EditRefused(f"at most {MAX_POINTS} vertices")
    bad = ~np.isfinite(points).all(axis=1) | (np.abs(points[:, 1]) > HEIGHT_LIMIT)
    if bad.any():
        x = float(points[int(np.argmax(bad)), 0])
        x = x if math.isfinite(x) else float(old.xs[0])
        raise EditRefused(f"heights must stay within ±{HEIGHT_LIMIT:g} m", (x, x))
    for end in (0, -1):
        if points[end, 0] != old.xs[end]:
            x = float(old.xs[end])
            raise EditRefused("the course's ends stay where they are in x", (x, x))
    run = np.diff(points[:, 0])
    if run.min() < MIN_X_STEP_M - 1e-12:
        i = int(np.argmin(run))
        raise EditRefused(
            f"vertices must stay in order, at least {MIN_X_STEP_M * 1000:g} mm apart in x",
            (
                float(min(points[i, 0], points[i + 1, 0])),
                float(max(points[i, 0], points[i + 1, 0])),
            ),
        )
    terrain = Terrain(points, old.landmarks)
    check_footprints(terrain, limits.footprints)  # a prop in the way is the first thing to say
    rise = np.abs(np.diff(points[:, 1]))
    fresh = _new_segments(old, points)
    # steeper than the feet take (rise > run·tan(max grade)): a riser if it is narrow,
    # else a slope too steep to walk
    steep = rise > math.tan(limits.max_grade) * run + 1e-9
    riser = steep & (run < RISER_RUN)

    def span(i: int) -> Span:
        return float(points[i, 0]), float(points[i + 1, 0])

    too_tall = fresh & riser & (rise > limits.max_step_height + 1e-9)
    if too_tall.any():
        i = int(np.argmax(too_tall))
        shown, bound = _over(float(rise[i]), limits.max_step_height, 100.0)
        raise EditRefused(
            f"a {shown} cm step at x {points[i, 0]:.2f} is taller than the legs take ({bound} cm)",
            span(i),
        )
    too_steep = fresh & steep & ~riser
    if too_steep.any():
        i = int(np.argmax(too_steep))
        grade = math.atan2(rise[i], run[i])  # tan(grade) = rise / run
        shown, bound = _over(grade, limits.max_grade, 180.0 / math.pi)
        raise EditRefused(
            f"a {shown}° slope at {_between(*span(i))} is steeper than the feet take ({bound}°)",
            span(i),
        )
    _check_treads(points, riser, fresh, limits)
    _check_step_reach(old, terrain, limits)
    return terrain


def check_footprints(terrain: Terrain, footprints: tuple[Footprint, ...]) -> None:
    """Refuse ``terrain`` if the ground under a prop's footprint is not at its base (the
    prop would float or be buried); the span is the prop's."""
    for prop in footprints:
        inside = terrain.xs[(terrain.xs > prop.x0) & (terrain.xs < prop.x1)]
        xs = np.concatenate([np.linspace(prop.x0, prop.x1, 9), inside])
        if np.abs(terrain.height_at(xs) - prop.base).max() > FOOTPRINT_TOLERANCE:
            raise EditRefused(
                f"the {prop.name} stands on {_between(prop.x0, prop.x1)}: its ground must stay",
                (prop.x0, prop.x1),
            )


def _check_step_reach(old: Terrain, new: Terrain, limits: EditLimits) -> None:
    """Refuse ground that rises or drops more than ``max_step_height`` within one
    ``step_reach`` where the old ground did not (a wall the course had stays a wall,
    however its height changes)."""
    window, limit = limits.step_reach, limits.max_step_height
    # both rise functions are piecewise linear with corners at either terrain's corners
    at = np.unique(np.concatenate([old.window_corners(window), new.window_corners(window)]))
    old_rise = old.rise_over(at, window)
    # where the old rise crosses the limit between two corners: both rises are linear there,
    # so the places the old ground took and the new one does not begin at these points
    a, b = old_rise[:-1] - limit, old_rise[1:] - limit
    cross = np.flatnonzero(a * b < 0)
    at = np.sort(
        np.concatenate([at, at[cross] + a[cross] / (a[cross] - b[cross]) * np.diff(at)[cross]])
    )
    rise = new.rise_over(at, window)
    # a window that starts or ends on the face of a wall no foot stands on is no step
    on_face = _on_wall_face(old, at, limit) | _on_wall_face(old, at + window, limit)
    on_face |= _on_wall_face(new, at, limit) | _on_wall_face(new, at + window, limit)
    worse = (rise > limit + 1e-9) & (old.rise_over(at, window) <= limit + 1e-6) & ~on_face
    if worse.any():
        i = int(np.argmax(np.where(worse, rise, 0.0)))
        x = float(at[i])
        way = "rises" if new.height_at(x + window) > new.height_at(x) else "drops"
        shown, bound = _over(float(rise[i]), limit, 100.0)
        raise EditRefused(
            f"the ground {way} {shown} cm within one step ({window * 100:.0f} cm) at "
            f"{_between(x, x + window)}: the legs take {bound} cm",
            (x, x + window),
        )


def _on_wall_face(terrain: Terrain, x: FloatArray, limit: float) -> NDArray[np.bool_]:
    """Whether each of ``x`` lies strictly inside a wall of ``terrain``: a segment
    narrower than ``RISER_RUN`` that rises or drops more than ``limit``."""
    run, rise = np.diff(terrain.xs), np.abs(np.diff(terrain.ys))
    walls = np.flatnonzero((run < RISER_RUN) & (rise > limit))
    x0, x1 = terrain.xs[walls], terrain.xs[walls + 1]
    inside = (x[:, None] > x0) & (x[:, None] < x1)
    return np.asarray(inside.any(axis=-1), dtype=bool)


def _check_treads(
    points: FloatArray, riser: NDArray[np.bool_], fresh: NDArray[np.bool_], limits: EditLimits
) -> None:
    """Refuse a new riser closer than ``min_tread`` (in x) to its neighbouring riser. Two
    risers the same way closer than ``RISER_RUN`` (no foot between them) are one step:
    refused only if together they are taller than the legs take."""
    index = np.flatnonzero(riser)
    if index.size < 2:
        return
    gaps = points[index[1:], 0] - points[index[:-1] + 1, 0]  # from one riser's top to the next
    starts, stops = points[index[:-1], 0], points[index[1:] + 1, 0]
    both = points[index[1:] + 1, 1] - points[index[:-1], 1]  # the two risers' rise together
    first = points[index[:-1] + 1, 1] - points[index[:-1], 1]
    same_way = np.sign(first) == np.sign(both - first)
    one_step = same_way & (gaps < RISER_RUN)
    new = fresh[index[1:]] | fresh[index[:-1]]
    limit = limits.max_step_height
    stacked = new & one_step & (np.abs(both) > limit + 1e-9)
    if stacked.any():
        k = int(np.argmax(stacked))
        shown, bound = _over(float(abs(both[k])), limit, 100.0)
        raise EditRefused(
            f"a {shown} cm step at {_between(starts[k], stops[k])} (two risers "
            f"{gaps[k] * 100:.0f} cm apart) is taller than the legs take ({bound} cm)",
            (float(starts[k]), float(stops[k])),
        )
    close = new & ~one_step & (gaps < limits.min_tread - 1e-9)
    if close.any():
        k = int(np.argmax(close))
        start, stop = float(starts[k]), float(stops[k])
        shown, bound = _over(float(gaps[k]), limits.min_tread, 100.0)
        raise EditRefused(
            f"a {shown} cm tread at {_between(start, stop)} is shorter than a foot ({bound} cm)",
            (start, stop),
        )


# -- presets: the ground they build ------------------------------------------------------
def _first_meeting(
    terrain: Terrain, a: float, b: float, y_a: float, slope: float, way: float
) -> float | None:
    """The first x in ``[a, b]`` where the ground reaches the line ``y_a + slope·(x − a)``
    from below (``way`` +1) or above (−1), or None. Exact: the gap between the line and the
    polyline is linear between the ground's vertices."""
    inner = terrain.xs[(terrain.xs > a) & (terrain.xs < b)]
    xs = np.concatenate([[a], inner, [b]])
    gap = way * (terrain.height_at(xs) - (y_a + slope * (xs - a)))
    met = np.flatnonzero(gap >= 0.0)
    if met.size == 0:
        return None
    i = int(met[0])
    if i == 0:
        return a
    # linear between xs[i − 1] (gap < 0) and xs[i] (gap ≥ 0): zero at the ratio of the gaps
    t = gap[i - 1] / (gap[i - 1] - gap[i])
    return float(xs[i - 1] + t * (xs[i] - xs[i - 1]))


def _increasing(corners: list[tuple[float, float]]) -> FloatArray:
    """The corners as an array (K, 2), dropping any not right of the one before."""
    kept = [corners[0]]
    for x, y in corners[1:]:
        if x > kept[-1][0] + 1e-12:
            kept.append((x, y))
    return np.array(kept, dtype=float)


def _built_on(terrain: Terrain, profile: FloatArray, way: float) -> FloatArray:
    """The terrain's vertices with ``profile`` (K, 2, world x and y, ending on the old
    ground at both ends) built on the span it covers: above the ground for ``way`` +1 (the
    higher of the two polylines), dug into it for −1 (the lower); their crossings added,
    so the result is exact. Vertices closer than ``MIN_X_STEP_M`` merge."""
    px, py = profile[:, 0], profile[:, 1]
    a, b = float(px[0]), float(px[-1])
    xs = np.unique(np.concatenate([px, terrain.xs[(terrain.xs > a) & (terrain.xs < b)]]))
    gap = way * (np.interp(xs, px, py) - terrain.height_at(xs))
    i = np.flatnonzero(gap[:-1] * gap[1:] < 0)
    # the gap is linear on each interval: it is zero at the ratio of its end values
    crossings = xs[i] + gap[i] / (gap[i] - gap[i + 1]) * (xs[i + 1] - xs[i])
    xs = np.sort(np.concatenate([xs, crossings]))
    ys = way * np.maximum(way * np.interp(xs, px, py), way * terrain.height_at(xs))
    shape = np.stack([xs, ys], axis=-1)
    return _splice(terrain, _straightened(_merged(shape)))


def _straightened(points: FloatArray) -> FloatArray:
    """``points`` without the inner vertices on the line through their neighbours."""
    if len(points) < 3:
        return points
    a, m, b = points[:-2], points[1:-1], points[2:]
    # m's distance from the line a–b: the cross product of (m − a) and (b − a) over |b − a|
    cross = (m[:, 0] - a[:, 0]) * (b[:, 1] - a[:, 1]) - (m[:, 1] - a[:, 1]) * (b[:, 0] - a[:, 0])
    off_line = np.abs(cross) > 1e-9 * np.hypot(b[:, 0] - a[:, 0], b[:, 1] - a[:, 1])
    keep = np.concatenate([[True], off_line, [True]])
    return points[keep]


def _merged(points: FloatArray) -> FloatArray:
    """``points`` with any vertex closer than ``MIN_X_STEP_M`` in x to the one kept before
    it dropped (the last one, the join with the old ground, is kept in its stead)."""
    kept = [points[0]]
    for point in points[1:-1]:
        if point[0] - kept[-1][0] >= MIN_X_STEP_M:
            kept.append(point)
    if len(kept) > 1 and points[-1][0] - kept[-1][0] < MIN_X_STEP_M:
        kept.pop()
    kept.append(points[-1])
    return np.array(kept)


def _splice(terrain: Terrain, shape: FloatArray) -> FloatArray:
    """The terrain's vertices with those over ``shape``'s span (and within
    ``MIN_X_STEP_M`` of its ends, which are on the old ground) replaced by ``shape``."""
    a, b = shape[0, 0], shape[-1, 0]
    xs = terrain.xs
    keep = (xs <= a - MIN_X_STEP_M) | (xs >= b + MIN_X_STEP_M)
    keep[0] |= xs[0] < a  # the course's ends stay
    keep[-1] |= xs[-1] > b
    points = np.concatenate([terrain.points[keep], shape])
    return points[np.argsort(points[:, 0], kind="stable")]


def _back_to_ground(
    terrain: Terrain,
    corners: list[tuple[float, float]],
    x: float,
    level: float,
    rise: float,
    tread: float,
) -> float:
    """Add to ``corners`` a flight from ``level`` at ``x`` back down (``rise`` > 0) or up
    to the ground, one ``rise`` per ``tread``, ending where it meets the ground; returns
    that x."""
    way = math.copysign(1.0, rise)
    end = float(terrain.xs[-1])
    while x + RISER_WIDTH < end:
        foot = float(terrain.height_at(x + RISER_WIDTH))
        below = level - rise
        if way * (below - foot) <= 0.0:  # this riser reaches the ground
            corners += [(x, level), (x + RISER_WIDTH, foot)]
            return x + RISER_WIDTH
        corners += [(x, level), (x + RISER_WIDTH, below)]
        level = below
        met = _first_meeting(terrain, x + RISER_WIDTH, x + tread, level, 0.0, way)
        if met is not None:
            corners.append((met, level))
            return met
        x += tread
    raise EditRefused("they would run past the course's end before reaching the ground", (x, end))


def _landing_end(
    terrain: Terrain, limits: EditLimits, start: float, level: float, way: float
) -> float | None:
    """Where a landing at ``level`` from ``start`` meets ground that rises (``way`` +1) or
    drops to it within ``LANDING_REACH_M`` and goes on from there as ground the legs take
    (no more than ``max_step_height`` within the next ``step_reach``: not a wall's face),
    or None."""
    met = _first_meeting(terrain, start, start + LANDING_REACH_M, level, 0.0, way)
    if met is None:
        return None
    onward = float(terrain.steepest_rise(met, met + limits.step_reach, limits.step_reach))
    return met if onward <= limits.max_step_height else None


def stairs_points(
    terrain: Terrain, limits: EditLimits, x0: float, rise: float, tread: float, count: float
) -> FloatArray:
    """Stairs from ``x0``: ``count`` steps of ``rise`` (negative: down into a pit) with
    level treads of ``tread``, then a landing at the level they reach; it runs on to meet
    ground that rises (or drops) to that level within ``LANDING_REACH_M``, else after
    ``max(tread, LANDING_M)`` as many steps as it takes go back to the ground. The
    terrain's vertices with the stairs built on it (not checked: see :func:`check_edit`)."""
    if not 1 <= count < MAX_STAIRS + 1:
        raise EditRefused(f"stairs take 1 to {MAX_STAIRS} steps", (x0, x0))
    count = int(count)  # a whole number of steps (a fraction of one is dropped)
    if tread < 2 * RISER_WIDTH or rise == 0.0 or abs(rise) > HEIGHT_LIMIT:
        raise EditRefused("stairs need a tread of 2 cm or more and a rise", (x0, x0))
    way = math.copysign(1.0, rise)
    base = float(terrain.height_at(x0))
    corners: list[tuple[float, float]] = []
    for step in range(count):
        x = x0 + step * tread
        corners += [(x, base + step * rise), (x + RISER_WIDTH, base + (step + 1) * rise)]
    top, start = base + count * rise, x0 + (count - 1) * tread + RISER_WIDTH
    met = _landing_end(terrain, limits, start, top, way)
    if met is not None:
        corners.append((met, top))
    else:
        landing_end = start - RISER_WIDTH + max(tread, LANDING_M)
        _back_to_ground(terrain, corners, landing_end, top, rise, tread)
    return _built_on(terrain, _increasing(corners), way)


def ramp_points(
    terrain: Terrain, limits: EditLimits, x0: float, grade_deg: float, length: float
) -> FloatArray:
    """A ramp from ``x0``: ``length`` metres of x at ``grade_deg`` (negative: down), then a
    level top that runs on to meet ground rising to it within ``LANDING_REACH_M``, else
    after ``RAMP_TOP_M`` back to the ground at the same grade."""
    if length <= 0.0 or not 0.0 < abs(grade_deg) < 90.0:
        raise EditRefused("a ramp needs a positive length and a grade", (x0, x0))
    way = math.copysign(1.0, grade_deg)
    slope = math.tan(math.radians(grade_deg))  # rise = run · tan(grade)
    base = float(terrain.height_at(x0))
    top, start = base + length * slope, x0 + length
    corners = [(x0, base), (start, top)]
    met = _landing_end(terrain, limits, start, top, way)
    if met is not None:
        corners.append((met, top))
    else:
        down = start + RAMP_TOP_M
        end = float(terrain.xs[-1])
        foot = _first_meeting(terrain, down, end, top, -slope, way)
        if foot is None:
            raise EditRefused("the ramp would run past the course's end", (x0, end))
        corners += [(down, top), (foot, top - slope * (foot - down))]
    return _built_on(terrain, _increasing(corners), way)


def platform_points(
    terrain: Terrain, limits: EditLimits, x0: float, height: float, width: float
) -> FloatArray:
    """A slab ``height`` thick (negative: a pit that deep) over ``width`` from ``x0``: the
    ground there raised with its own shape, a riser of ``height`` at each end."""
    if width <= 2 * RISER_WIDTH or abs(height) > HEIGHT_LIMIT:
        raise EditRefused("a platform needs a width over 2 cm", (x0, x0))
    xs = x0 + np.array([0.0, RISER_WIDTH, width - RISER_WIDTH, width])
    return _raised(terrain, xs, np.array([0.0, height, height, 0.0]))


def bump_points(
    terrain: Terrain, limits: EditLimits, x0: float, height: float, width: float
) -> FloatArray:
    """A smooth (raised-cosine) bump of ``height`` over ``width`` from ``x0``, added to the
    ground's own shape."""
    if width <= 0.0 or abs(height) > HEIGHT_LIMIT:
        raise EditRefused("a bump needs a positive width", (x0, x0))
    t = np.linspace(0.0, 1.0, _BUMP_SAMPLES)
    # raised cosine: h·(1 − cos 2πt)/2, level at both ends
    return _raised(terrain, x0 + width * t, height * (1.0 - np.cos(2.0 * np.pi * t)) / 2)


def _raised(terrain: Terrain, xs: FloatArray, lift: FloatArray) -> FloatArray:
    """The terrain's vertices with the ground over ``xs[0]``…``xs[-1]`` raised by the
    polyline ``lift`` (K,) at ``xs`` (K,), zero at both ends; the ground's own vertices
    there keep their place, raised by the lift under them."""
    inner = terrain.xs[(terrain.xs > xs[0]) & (terrain.xs < xs[-1])]
    x = np.unique(np.concatenate([xs, inner]))
    shape = np.stack([x, terrain.height_at(x) + np.interp(x, xs, lift)], axis=-1)
    return _splice(terrain, _merged(shape))


PRESETS: dict[str, tuple[Callable[..., FloatArray], tuple[str, ...]]] = {
    "stairs": (stairs_points, ("rise", "tread", "count")),
    "ramp": (ramp_points, ("grade", "length")),
    "bump": (bump_points, ("height", "width")),
    "platform": (platform_points, ("height", "width")),
}
"""Each preset's builder and the names of its arguments after the terrain, the limits
(where a landing may end) and x."""


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
        ``continuing`` move is part of the same drag (one undo step)."""
        points = self.terrain.points.copy()
        if not 0 <= index < len(points):
            raise EditRefused(f"no vertex {index}")
        if index in (0, len(points) - 1):
            x = float(points[index, 0])
        points[index] = (x, y)
        return self.apply(points, continuing)

    def between_neighbours(self, index: int, x: float) -> float:
        """``x`` kept ``MIN_X_STEP_M`` inside vertex ``index``'s neighbours: a vertex dragged
        by the mouse stops at them (a riser's corners are 1 cm apart, so dragging one
        straight up with a pixel of sideways jitter was refused as out of order)."""
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
