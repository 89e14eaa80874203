"""The ground editor's presets: stairs, a ramp, a platform and a bump, built on the ground.

Stairs and a ramp rise from the ground at the click with level treads (or a level top) and a
landing that runs on to meet ground rising to its level, else come back down to the ground;
a platform is a level block; a bump is added to the ground's own shape. None of them moves
ground beyond where it ends on the old ground. A builder returns the terrain's vertices
with the preset built on it, unchecked: :func:`game.world.terrain_rules.check_edit` says
whether they may be taken.

No pygame.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from game.world.terrain import MIN_X_STEP_M, Terrain
from game.world.terrain_rules import HEIGHT_LIMIT, RISER_RUN, EditLimits, EditRefused
from game.world.types import FloatArray

RISER_WIDTH = 0.01  # metres of x a preset's riser (a stair's, a platform's side) takes
MAX_STAIRS = 20  # steps in one flight of the stairs preset
LANDING_M = 0.6  # the shortest landing at the top of stairs (room to stand and turn)
RAMP_TOP_M = 1.0  # the shortest level top of a ramp
LANDING_REACH_M = 3.0  # a landing runs on this far at most to meet ground rising to it;
# ground that does not rise to it within this gets a flight (or ramp) back down
_BUMP_SAMPLES = 17  # vertices of a bump preset at most (odd: the top is a vertex)


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
    # an even number of segments (the top a vertex), at least four, none narrower than a
    # riser where the width allows: the rules judge its sides as slopes, not as steps
    segments = min(_BUMP_SAMPLES - 1, 2 * max(int(width / RISER_RUN) // 2, 2))
    t = np.linspace(0.0, 1.0, segments + 1)
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
