"""The landing's cost terms: what each candidate spot (M, K) of M lifting feet costs beside
its miss (the ground's bend, an unfit sole, a step too tall, a pivot heel over a nose,
stairs, the candidate's kind, the other foot), each a small function added to the cost by
:func:`game.world.landing.score_spots`; and the two records they read: how each candidate
sits on the ground (:class:`Spots`) and which kind it is (:class:`Kinds`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from game.world.feet import MAX_TREAD, MIN_RISER, RISER_WINDOW
from game.world.terrain import Terrain
from game.world.types import BoolArray, FloatArray, IntArray

_PIVOT_SHORTER_COST = 0.5  # m: a squaring step takes a shorter step only if it is this much nearer


_BESIDE_COST = 0.2  # ... and each metre from the other foot costs it 0.2 m of miss


_SKIP_COST = 1.0  # plan_landing: landing two risers or more past the other foot costs 1 m each


_STEP_TO_COST = 0.4  # ... and on the other foot's tread of a flight costs 0.4 m


_EDGE_M = 0.3  # ... and one down a riser from a foot farther behind it than this


_HANG_COST = 0.3  # plan_landing: a pivot spot whose turned-round heel hangs off a nose costs 0.3 m


_BEND_COST = 30.0  # plan_landing: each millimetre of ground bend under a sole costs 3 cm of step


@dataclass(frozen=True, slots=True)
class Kinds:
    """Which candidates (K,) are farther shifts (tried by pivots only) and which shorter
    steps (a squaring step's last resort)."""

    far: BoolArray
    shorter: BoolArray

    def column(self, k: int) -> Kinds:
        """The kinds of candidate ``k`` alone (shape (1,))."""
        return Kinds(self.far[k : k + 1], self.shorter[k : k + 1])

    def of_columns(self, columns: IntArray) -> Kinds:
        """The kinds of the candidates in ``columns`` (P,), one a row (shape (P, 1))."""
        return Kinds(self.far[columns][:, None], self.shorter[columns][:, None])


def flight_gaps(terrain: Terrain, other: FloatArray, facing_k: FloatArray) -> FloatArray:
    """Each flight riser's distance (M, R) ahead of the other foot at ``other`` (M,) along
    the facing (> 0 ahead; NaN for a riser not of a flight: each within ``MAX_TREAD`` of
    the next going the same way)."""
    risers = terrain.risers(MIN_RISER, RISER_WINDOW)
    flight = terrain.treads(MIN_RISER, RISER_WINDOW) <= MAX_TREAD
    return np.where(flight, (risers - other[:, None]) * facing_k, np.nan)


@dataclass(frozen=True, slots=True)
class Lie:
    """How each candidate's sole (M, K) lies on the ground before it is rested there: it
    ``fits`` (whole and flat enough), its ``chord`` angle, the ground's ``bend`` under it,
    and ``hang`` (turned to face the other way there, a pivot's heel would hang off a nose)."""

    fits: BoolArray
    chord: FloatArray
    bend: FloatArray
    hang: BoolArray

    def rows(self, rows: IntArray) -> Lie:
        """These candidates at ``rows`` only."""
        return Lie(self.fits[rows], self.chord[rows], self.bend[rows], self.hang[rows])


@dataclass(frozen=True, slots=True)
class Spots:
    """How each candidate (M, K) sits on the ground: the sole ``fits`` (whole, flat enough,
    not hovering), its ``chord`` angle and the ground's ``bend`` under it, the ankle height
    ``rested`` there, the ground ``ground_y`` under the ankle, ``low_enough`` (a step the
    legs take, in the world, clear of things on the ground) and ``hang`` (turned round
    there, a pivot's heel would hang off a nose)."""

    fits: BoolArray
    chord: FloatArray
    bend: FloatArray
    rested: FloatArray
    ground_y: FloatArray
    low_enough: BoolArray
    hang: BoolArray


def miss_cost(candidates: FloatArray, predicted_x: FloatArray) -> FloatArray:
    """Metres off the predicted spot (the base of every cost)."""
    return np.abs(candidates - predicted_x[:, None])


def bend_cost(bend: FloatArray) -> FloatArray:
    """Each millimetre of ground bend under the sole costs ``_BEND_COST`` mm of step: rather
    off a slope's corner than across it (the heel or ball hovers by about the bend)."""
    return _BEND_COST * bend


def unfit_cost(fits: BoolArray) -> FloatArray:
    """A sole that does not fit is a last resort (10 m)."""
    return np.where(fits, 0.0, 10.0)


def too_tall_cost(low_enough: BoolArray) -> FloatArray:
    """A step the legs cannot take, out of the world or onto a thing: never (1 km)."""
    return np.where(low_enough, 0.0, 1e3)


def heel_hang_cost(hang: BoolArray) -> FloatArray:
    """A pivot spot whose turned-round heel would hang off a nose (standing so, the foot
    would step again) costs ``_HANG_COST``."""
    return np.where(hang, _HANG_COST, 0.0)


def summed_cost(
    candidates: FloatArray,
    predicted_x: FloatArray,
    ground: Iterable[FloatArray],
    kinds: Kinds,
    squaring: BoolArray,
    beside: FloatArray | None,
) -> FloatArray:
    """A candidate's cost (M, K): its miss, then each of the ``ground`` terms (how the spot
    sits), then its kind's and, where ``beside`` is given, the other foot's, added in this
    order. Every term is ≥ 0, and a floating-point sum of such terms never drops when one
    of them grows: the sum of some of the ground terms, in order, is a lower bound of the
    sum of them all, to the bit."""
    cost = miss_cost(candidates, predicted_x)
    for term in (*ground, *kind_costs(kinds, squaring)):
        cost = cost + term
    if beside is not None:
        cost = cost + beside_cost(candidates, beside, squaring)
    return cost


def stair_costs(
    terrain: Terrain,
    candidates: FloatArray,
    spots: Spots,
    other: FloatArray,
    facing_k: FloatArray,
    pivot: BoolArray | None,
    settling: BoolArray | None,
    predicted_x: FloatArray,
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """On stairs, against the other foot at ``other`` (M,): one tread beyond it, never two
    (``_SKIP_COST`` a riser past the first); down over a riser only from a foot near its
    edge (within ``_EDGE_M``); and on a flight a tread each: the other foot's tread, or one
    behind it, costs ``_STEP_TO_COST`` (not for feet squaring up to pivot, together; a step
    to stand lands on the other foot's tread or its own spot's where it can). Three
    terms, added to the cost in turn."""
    risers = terrain.risers(MIN_RISER, RISER_WINDOW)
    gap = flight_gaps(terrain, other, facing_k)
    there = other[:, None]  # NaN: no risers counted
    # the risers strictly between each candidate and the other foot, by binary search
    lo, hi = np.minimum(candidates, there), np.maximum(candidates, there)
    first, stop = terrain.riser_span(lo, hi, MIN_RISER, RISER_WINDOW, closed=False)
    crossed = np.maximum(stop - first, 0)
    skip = np.asarray(_SKIP_COST * np.maximum(crossed - 1, 0), dtype=float)
    # the farthest of them from the other foot: the one at the far end of the interval
    # (|riser − there| grows away from there, which is one end)
    far = np.where(candidates > there, stop - 1, first).clip(0, max(len(risers) - 1, 0))
    back = np.where(crossed > 0, np.abs(risers[far] - there) if len(risers) else 0.0, 0.0)
    down = spots.ground_y < terrain.height_at(other)[:, None] - MIN_RISER  # (NaN: False)
    edge = _SKIP_COST * (down & (back > _EDGE_M))
    riser_ahead = ((gap > 0.0) & (gap < MAX_TREAD)).any(axis=1, keepdims=True)
    riser_behind = ((gap < 0.0) & (gap > -MAX_TREAD)).any(axis=1, keepdims=True)
    step_to = riser_ahead & riser_behind & (crossed == 0)
    step_to |= riser_ahead & riser_behind & ((candidates - other[:, None]) * facing_k < 0.0)
    if pivot is not None:
        step_to &= ~pivot[:, None]  # (squaring up for a pivot: feet together)
    if settling is not None:  # (... or to stand)
        step_to &= ~settling[:, None]
        spot = predicted_x[:, None]
        lo, hi = np.minimum(candidates, spot), np.maximum(candidates, spot)
        off_spot = terrain.riser_between(lo, hi, MIN_RISER, RISER_WINDOW, closed=False)
        step_to |= settling[:, None] & (crossed > 0) & off_spot
    return skip, np.asarray(edge, dtype=float), _STEP_TO_COST * step_to


def kind_costs(kinds: Kinds, squaring: BoolArray) -> tuple[FloatArray, FloatArray]:
    """The farther shifts are for squaring steps only (1 km otherwise); a squaring step
    takes a shorter step only if it is ``_PIVOT_SHORTER_COST`` nearer. Two terms."""
    return np.where(kinds.far & ~kinds.shorter & ~squaring, 1e3, 0.0), np.where(
        kinds.shorter & squaring, _PIVOT_SHORTER_COST, 0.0
    )


def beside_cost(candidates: FloatArray, beside: FloatArray, squaring: BoolArray) -> FloatArray:
    """A squaring step pays ``_BESIDE_COST`` a metre from the other foot where it is down
    (of two spots about as near, feet together, not astride)."""
    apart = np.abs(candidates - beside[:, None])  # NaN where the other foot is up
    return np.where(squaring & np.isfinite(apart), _BESIDE_COST * apart, 0.0)
