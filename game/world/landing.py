"""Where a swinging foot lands: candidate spots around the one predicted, each scored by
its cost terms (miss, skipped risers, the other foot's tread, a heel off a nose, the
ground's bend), the best that fits chosen; and the spots a pivot can turn on.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from game.world.easing import clamp, xy
from game.world.feet import (
    MAX_TREAD,
    SOLE_FLATNESS,
    heel_hangs,
    rest_on_ground,
    sole_fits,
)
from game.world.landing_costs import (
    Kinds,
    Lie,
    Spots,
    bend_cost,
    flight_gaps,
    heel_hang_cost,
    stair_costs,
    summed_cost,
    too_tall_cost,
    unfit_cost,
)
from game.world.pivots import ankles_touching, pivot_spots, touches, tread_pivots
from game.world.rig import LegSpec, Rig
from game.world.terrain import Terrain
from game.world.types import BoolArray, FloatArray

# Landing candidates: shifts from the predicted spot, metres, tried nearest first.
_CANDIDATE_SHIFTS = np.array([0.0, -0.04, 0.04, -0.08, 0.08, -0.12, 0.12, -0.17, 0.17, -0.23, 0.23])


# Shorter steps, as fractions of the way from lift-off, 5 % apart: even a 1.3 m step then
# tries a spot every 6.5 cm, so at least one lands a sole (0.23 m) wholly on any tread of
# 0.3 m or more (sparser, a long step down stairs could find none that fits, and land
# across a stair nose)
_SHORTER_STEPS = np.linspace(0.9, 0.1, 17)


# A squaring step for a pivot may also go this much farther from its spot, and takes a
# shorter step only if that is 0.5 m nearer: both feet then find the same turnable spot
# (where the ground under the pelvis curves up, each foot would otherwise find its own on
# its own side, and the body pivot in a lunge)
_PIVOT_SHIFTS = np.array([-0.3, 0.3, -0.38, 0.38, -0.46, 0.46])


_KEEP_OFF_EDGE = 0.005  # m: the spots tried beside such a thing are this much farther out


def plan_landing(
    terrain: Terrain,
    rig: Rig,
    start: FloatArray,
    predicted_x: FloatArray,
    hip_y: FloatArray,
    facing: FloatArray,
    pivot: BoolArray | None = None,
    beside: FloatArray | None = None,
    other: FloatArray | None = None,
    keep_off: FloatArray | None = None,
    settling: BoolArray | None = None,
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
    """Landing spots for M lifting feet.

    Parameters
    ----------
    start : ndarray, shape (M, 2)
        The flat-foot ankle the swing leaves from (its lock).
    predicted_x : ndarray, shape (M,)
        The ideal landing x (from the body's velocity).
    hip_y : ndarray, shape (M,)
        Height the ground ray is cast from.
    facing : ndarray, shape (M,)
        +1 or −1.
    pivot : ndarray of bool, shape (M,), optional
        Feet squaring up to pivot there (turning about the ball): see :func:`pivot_spots`.
    beside : ndarray, shape (M,), optional
        The other foot's flat ankle x where it is down (NaN where not): of two spots about
        as near, a squaring step takes the one nearer it (feet together, not astride).
    other : ndarray, shape (M,), optional
        The other foot's flat ankle x, down or where it will land (NaN: none): the spot is
        at most one stair riser past it.
    keep_off : ndarray, shape (K, 3), optional
        Things on the ground no sole lands on, rows ``(x0, x1, top)`` (a cup set down),
        widened by the gap a sole keeps (``World.kept_off``): a spot whose sole meets one
        is a last resort, and the spots just short of and just past each are tried too.
    settling : ndarray of bool, shape (M,), optional
        Steps to stand still (squaring up, not walking on): they may come down on the other
        foot's tread of a flight (standing, feet together on one tread).

    Returns
    -------
    lock : ndarray, shape (M, 2)
        The flat-foot ankle at the landing, its sole resting on the ground.
    angle : ndarray, shape (M,)
        The landing ground angle (the heel→toe chord, clamped to ``max_tilt``).
    ray_from, ray_hit : ndarray, shape (M, 2)
        The ground ray's origin and hit point.
    """
    facing_k = facing[:, None]  # each candidate's facing (broadcast along the candidates)
    spans = np.zeros((0, 3)) if keep_off is None else np.asarray(keep_off, float).reshape(-1, 3)
    candidates, kinds = landing_candidates(
        terrain, rig.legs, start, predicted_x, facing_k, pivot, other, spans
    )
    feet = Lifting(start, predicted_x, facing_k, pivot, beside, other, settling)
    # the predicted spot first: most feet land on it. Another candidate can win only where
    # even its least cost is not above the predicted spot's whole cost (NaN: unknown, it
    # can) and it is not that same spot again (a copy of it costs as much or more and comes
    # later: argmin keeps the first); those alone are scored, each on its foot's row
    spots, cost = score_spots(terrain, rig, candidates[:, :1], kinds.column(0), feet, spans)
    x, chord, rested, taken = (
        candidates[:, 0],
        spots.chord[:, 0],
        spots.rested[:, 0],
        spots.low_enough[:, 0],
    )
    rivals = ~(least_cost(candidates, kinds, feet) > cost) & (candidates != candidates[:, :1])
    row, column = np.nonzero(rivals)
    if len(row):  # (a few feet: stairs, an unfit or bent spot)
        # how each rival's sole lies tells its bend and fit: a tighter bound, and only those
        # still under it are rested on the ground
        pair = candidates[row, column][:, None]
        lie = sole_lie(terrain, rig, pair, feet.facing_k[row], _at(feet.pivot, row))
        bound = least_cost(pair, kinds.of_columns(column), feet.rows(row), lie)
        near = np.flatnonzero(~(bound[:, 0] > cost[row, 0]))
        row, column, pair = row[near], column[near], pair[near]
        found, found_cost = score_spots(
            terrain, rig, pair, kinds.of_columns(column), feet.rows(row), spans, lie.rows(near)
        )
        won = _cheaper_rivals(row, column, found_cost[:, 0], cost[:, 0], candidates.shape[1])
        at = row[won]
        x, chord, rested, taken = x.copy(), chord.copy(), rested.copy(), taken.copy()
        x[at], chord[at] = pair[won, 0], found.chord[won, 0]
        rested[at], taken[at] = found.rested[won, 0], found.low_enough[won, 0]
    return choose_spot(terrain, rig, start, hip_y, facing, x, chord, rested, taken)


def least_cost(
    candidates: FloatArray, kinds: Kinds, feet: Lifting, lie: Lie | None = None
) -> FloatArray:
    """A lower bound of each candidate's :func:`score_spots` cost (M, K), to the bit
    (:func:`summed_cost`): the terms known before the sole is rested there (the miss, the
    kind, the other foot beside) and, given how it ``lie``s, its bend, its fit (resting
    it can only unfit it) and a pivot heel's hang."""
    ground = []
    if lie is not None:
        ground = [bend_cost(lie.bend), unfit_cost(lie.fits), heel_hang_cost(lie.hang)]
    return summed_cost(candidates, feet.predicted_x, ground, kinds, _squaring(feet), feet.beside)


def _squaring(feet: Lifting) -> BoolArray:
    """Which feet (M, 1) square up to pivot."""
    if feet.pivot is None:
        return np.zeros((len(feet.start), 1), dtype=bool)
    return feet.pivot[:, None]


def _at(a: NDArray[Any] | None, rows: NDArray[np.intp]) -> NDArray[Any] | None:
    """``a`` at ``rows`` (an optional input: None stays None)."""
    return None if a is None else a[rows]


def _cheaper_rivals(
    row: NDArray[np.intp],
    column: NDArray[np.intp],
    rival_cost: FloatArray,
    first_cost: FloatArray,
    width: int,
) -> NDArray[np.intp]:
    """The rivals (indices into ``row`` and ``column``, (P,)) that win their foot's spot:
    each foot's first cheapest of its predicted spot (``first_cost`` (M,)) and its rivals,
    in column order, as argmin over every candidate picks (one not scored costs more than
    the predicted spot, or is a later copy of it)."""
    costs = np.full((len(first_cost), width), np.inf)
    costs[:, 0] = first_cost
    costs[row, column] = rival_cost
    index = np.full((len(first_cost), width), -1)
    index[row, column] = np.arange(len(row))
    best = index[np.arange(len(first_cost)), np.argmin(costs, axis=1)]
    return best[best >= 0]


@dataclass(frozen=True, slots=True)
class Lifting:
    """The lifting feet (M,) :func:`plan_landing` scores candidates for (its arguments of
    the same names; ``facing_k`` (M, 1))."""

    start: FloatArray
    predicted_x: FloatArray
    facing_k: FloatArray
    pivot: BoolArray | None
    beside: FloatArray | None
    other: FloatArray | None
    settling: BoolArray | None

    def rows(self, rows: NDArray[np.intp]) -> Lifting:
        """These feet at ``rows`` (M',) only."""
        return Lifting(
            self.start[rows],
            self.predicted_x[rows],
            self.facing_k[rows],
            _at(self.pivot, rows),
            _at(self.beside, rows),
            _at(self.other, rows),
            _at(self.settling, rows),
        )


def score_spots(
    terrain: Terrain,
    rig: Rig,
    candidates: FloatArray,
    kinds: Kinds,
    feet: Lifting,
    spans: FloatArray,
    lie: Lie | None = None,
) -> tuple[Spots, FloatArray]:
    """How each candidate (M, K) of ``feet`` sits on the ground (:func:`fit_spots`, from
    how its sole ``lie``s where that is known) and what it costs: the nearest fitting
    candidate, rather off a slope's corner than across it; a sole that does not fit is a
    last resort; a step taller than max_step_height never."""
    start, predicted_x, facing_k, pivot = feet.start, feet.predicted_x, feet.facing_k, feet.pivot
    spots = fit_spots(terrain, rig, start, candidates, facing_k, pivot, spans, lie)
    ground = [
        bend_cost(spots.bend),
        unfit_cost(spots.fits),
        too_tall_cost(spots.low_enough),
        heel_hang_cost(spots.hang),
    ]
    if feet.other is not None:
        ground += stair_costs(
            terrain, candidates, spots, feet.other, facing_k, pivot, feet.settling, predicted_x
        )
    return spots, summed_cost(candidates, predicted_x, ground, kinds, _squaring(feet), feet.beside)


def landing_candidates(
    terrain: Terrain,
    legs: LegSpec,
    start: FloatArray,
    predicted_x: FloatArray,
    facing_k: FloatArray,
    pivot: BoolArray | None,
    other: FloatArray | None,
    spans: FloatArray,
) -> tuple[FloatArray, Kinds]:
    """The candidate ankle x (M, K) for each lifting foot: shifts around the predicted spot
    (nearest first, then farther ones for pivots, and pivot spots by the nearest risers for
    squaring steps), shorter steps (a stair too many up: land a tread lower), the middle of
    the next tread up or down a flight from the other foot, and the spots just clear of
    each thing on the ground (facing as it lands, or turned round about its ball)."""
    shortened = start[:, :1] + (predicted_x - start[:, 0])[:, None] * _SHORTER_STEPS
    near = predicted_x[:, None] + np.concatenate([_CANDIDATE_SHIFTS, _PIVOT_SHIFTS])
    if pivot is not None and pivot.any():  # (pivot spots by the risers: for squaring steps)
        near = np.concatenate([near, tread_pivots(terrain, predicted_x, facing_k, legs)], axis=1)
    candidates = np.concatenate([near, shortened], axis=1)
    if other is not None:
        tread = _next_tread(flight_gaps(terrain, other, facing_k), other, facing_k[:, 0], legs)
        candidates = np.concatenate(
            [candidates, np.where(np.isnan(tread), predicted_x[:, None], tread)], axis=1
        )
    if len(spans):
        turned = 2.0 * legs.ball * facing_k  # a foot pivoted about its ball: its ankle's shift
        lo_x, hi_x = ankles_touching(spans, facing_k, legs)
        lo_t, hi_t = ankles_touching(spans, -facing_k, legs)
        out = _KEEP_OFF_EDGE
        edges = [lo_x - out, hi_x + out, lo_t - turned - out, hi_t - turned + out]
        candidates = np.concatenate([candidates, *edges], axis=1)
    column = np.arange(candidates.shape[1])
    kinds = Kinds(far=column >= len(_CANDIDATE_SHIFTS), shorter=column >= near.shape[1])
    return candidates, kinds


def sole_lie(
    terrain: Terrain,
    rig: Rig,
    candidates: FloatArray,
    facing_k: FloatArray,
    pivot: BoolArray | None,
) -> Lie:
    """How each candidate's sole lies on the ground (:class:`Lie`, :func:`sole_fits`); for
    feet squaring up to ``pivot``, whether the foot can turn there (:func:`pivot_spots`)."""
    legs = rig.legs
    fits, chords, bend = sole_fits(terrain, candidates, facing_k, rig)
    hang = np.zeros_like(candidates, dtype=bool)
    if pivot is not None and pivot.any():  # (read on the squaring feet's rows only)
        p = np.flatnonzero(pivot)
        at, way = candidates[p], facing_k[p]
        fits[p], chords[p] = pivot_spots(terrain, at, way, legs)
        bend[p] = 0.0
        turned = 2.0 * legs.ball * way  # a foot pivoted about its ball: its ankle's shift
        hang[p] = heel_hangs(terrain, at + turned, -way, legs)
    return Lie(fits, chords, bend, hang)


def fit_spots(
    terrain: Terrain,
    rig: Rig,
    start: FloatArray,
    candidates: FloatArray,
    facing_k: FloatArray,
    pivot: BoolArray | None,
    spans: FloatArray,
    lie: Lie | None = None,
) -> Spots:
    """How each candidate sits on the ground (:class:`Spots`): how its sole lies there
    (:func:`sole_lie`; ``lie``, where known), then the sole rested on the ground."""
    legs, gait = rig.legs, rig.gait
    if lie is None:
        lie = sole_lie(terrain, rig, candidates, facing_k, pivot)
    chords, bend, hang = lie.chord, lie.bend, lie.hang
    turned = 2.0 * legs.ball * facing_k  # a foot pivoted about its ball: its ankle's shift
    start_ground = terrain.height_at(start[:, :1])
    tilt = clamp(chords, -legs.max_tilt, legs.max_tilt)
    # how high the sole would rest there (a toe over a wall's top counts)
    rested = rest_on_ground(terrain, candidates, tilt, facing_k, legs)
    rest = rested - legs.ankle_height
    ground_y = terrain.height_at(candidates)
    # a sole that fits level can still rest on a stair's nose once tilted to its chord:
    # resting that far over the ground under the ankle it does not fit (a pivot spot may
    # overhang a nose)
    hovers = rest - ground_y > SOLE_FLATNESS
    fits = lie.fits & (~hovers if pivot is None else pivot[:, None] | ~hovers)
    rise = np.abs(np.maximum(rest, ground_y) - start_ground)
    # beyond either end the world is level, but no place to step: the whole sole lands in it
    lo, hi = terrain.x_range
    toe_x, heel_x = candidates + facing_k * legs.toe, candidates - facing_k * legs.heel
    in_world = (np.minimum(toe_x, heel_x) >= lo) & (np.maximum(toe_x, heel_x) <= hi)
    low_enough = (rise <= gait.max_step_height) & in_world
    if len(spans):  # a foot never comes down on the cup, nor turns round onto it
        touching = touches(spans, candidates, facing_k, legs)
        if pivot is not None:
            touching |= pivot[:, None] & touches(spans, candidates + turned, -facing_k, legs)
        low_enough &= ~touching
    return Spots(fits, chords, bend, rested, ground_y, low_enough, hang)


def choose_spot(
    terrain: Terrain,
    rig: Rig,
    start: FloatArray,
    hip_y: FloatArray,
    facing: FloatArray,
    x: FloatArray,
    chord: FloatArray,
    rested: FloatArray,
    taken: BoolArray,
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
    """Each foot's cheapest candidate ``x`` (M,), with its ``chord``, ``rested`` ankle height
    and whether it was low enough (``taken``; nowhere to step: the foot back down where it
    was): its flat-foot ankle and ground angle there, and the ground ray that found it."""
    legs = rig.legs
    x = np.where(taken, x, start[:, 0])
    if not taken.all():  # the chord under the spot it stays on instead
        chord = np.where(taken, chord, sole_fits(terrain, x, facing, rig)[1])
    angle = clamp(chord, -legs.max_tilt, legs.max_tilt)
    # the sole resting there: as measured for the candidate (the same x and angle)
    y = rested if taken.all() else rest_on_ground(terrain, x, angle, facing, legs)
    ray_from = xy(x, np.maximum(hip_y, start[:, 1]))
    ray_hit = xy(x, terrain.height_at(x))  # where the ray from straight above meets the ground
    return xy(x, y), angle, ray_from, ray_hit


def _next_tread(
    gap: FloatArray, other: FloatArray, facing: FloatArray, legs: LegSpec
) -> FloatArray:
    """The ankle x (M, 1) of a sole in the middle of the tread beyond the first riser ahead of
    ``other`` (M,), from each flight riser's distance ``gap`` (M, R) ahead of it (NaN: not a
    flight's; the result NaN where there is no such tread, or ``other`` is NaN)."""
    ahead = np.where(gap > 0.0, gap, np.inf)
    first = ahead.min(axis=1, initial=np.inf)
    second = np.where(ahead > first[:, None] + 0.02, ahead, np.inf).min(axis=1, initial=np.inf)
    with np.errstate(invalid="ignore"):  # inf - inf: no tread
        ok = (first < MAX_TREAD) & (second - first <= MAX_TREAD)
    middle = other + facing * 0.5 * (first + second) - facing * 0.5 * (legs.toe - legs.heel)
    return np.where(ok, middle, np.nan)[:, None]
