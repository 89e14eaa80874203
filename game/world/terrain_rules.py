"""The rules a ground edit must keep, checked against what the gait can take.

An edit that would break one is refused with :class:`EditRefused`, the ground unchanged. A
refusal names the rule and where it fails (its ``span``, an x range), so the editor can draw
the place:

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
  (and whatever :attr:`game.world.terrain_edit.TerrainEditor.guard` checks: the walk
  scene's cup).

No pygame.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from game.wording import a_or_an
from game.world.rig import Rig
from game.world.terrain import MIN_X_STEP_M, Terrain
from game.world.types import FloatArray

Span = tuple[float, float]

RISER_RUN = 0.05  # a segment narrower than this in x is a riser, not a slope
HEIGHT_LIMIT = 50.0  # metres: no vertex higher or lower than this
MAX_POINTS = 2000  # vertices in an edited terrain
FOOTPRINT_TOLERANCE = 1e-3  # metres a prop's ground may move before the edit is refused


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
    rule : str
        The rule broken, without where ("a 26° slope is steeper than the feet take
        (24°)"); the message, where that names no place.
    """

    def __init__(self, message: str, span: Span | None = None, rule: str | None = None) -> None:
        super().__init__(message)
        self.span = span
        self.rule = message if rule is None else rule
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
        step, taller = (
            f"{a_or_an(shown)} {shown} cm step",
            f"is taller than the legs take ({bound} cm)",
        )
        raise EditRefused(f"{step} at x {points[i, 0]:.2f} {taller}", span(i), f"{step} {taller}")
    too_steep = fresh & steep & ~riser
    if too_steep.any():
        i = int(np.argmax(too_steep))
        grade = math.atan2(rise[i], run[i])  # tan(grade) = rise / run
        shown, bound = _over(grade, limits.max_grade, 180.0 / math.pi)
        slope, steeper = (
            f"{a_or_an(shown)} {shown}° slope",
            f"is steeper than the feet take ({bound}°)",
        )
        raise EditRefused(
            f"{slope} at {_between(*span(i))} {steeper}", span(i), f"{slope} {steeper}"
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
        ground = f"the ground {way} {shown} cm within one step ({window * 100:.0f} cm)"
        take = f"the legs take {bound} cm"
        raise EditRefused(
            f"{ground} at {_between(x, x + window)}: {take}", (x, x + window), f"{ground}: {take}"
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
        step = f"{a_or_an(shown)} {shown} cm step"
        taller = (
            f"(two risers {gaps[k] * 100:.0f} cm apart) is taller than the legs take ({bound} cm)"
        )
        raise EditRefused(
            f"{step} at {_between(starts[k], stops[k])} {taller}",
            (float(starts[k]), float(stops[k])),
            f"{step} {taller}",
        )
    close = new & ~one_step & (gaps < limits.min_tread - 1e-9)
    if close.any():
        k = int(np.argmax(close))
        start, stop = float(starts[k]), float(stops[k])
        shown, bound = _over(float(gaps[k]), limits.min_tread, 100.0)
        tread, shorter = (
            f"{a_or_an(shown)} {shown} cm tread",
            f"is shorter than a foot ({bound} cm)",
        )
        raise EditRefused(
            f"{tread} at {_between(start, stop)} {shorter}", (start, stop), f"{tread} {shorter}"
        )
