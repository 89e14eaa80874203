"""Standing at rest: which characters stand at rest, the stretch of ground their planted
feet bear weight over, and where a pelvis at rest stands over them.
"""

from __future__ import annotations

import numpy as np

from game.world.easing import all_last, any_last, clamp, max_last, min_last
from game.world.feet import sole_points
from game.world.timing import stance_feet, standing_sides
from game.world.types import BoolArray, FloatArray
from game.world.walker_state import WalkState, World

CONTACT = 0.01  # m: a sole point this close above the ground bears weight
REST_INSET = 0.005  # m: a pelvis at rest outside its feet's support moves this far into it


def standing(s: WalkState) -> BoolArray:
    """Characters standing (N,): both feet planted, none held, no walk wished, not turning
    round (the body may still be coming to a stop)."""
    feet = s.feet
    down = all_last(feet.planted) & ~any_last(feet.pinned) & (s.wanted == 0.0)
    return down & ~s.turning & ~s.reversing


def at_rest(w: World, s: WalkState) -> BoolArray:
    """Characters standing at rest (N,): :func:`standing`, and stopped."""
    return standing(s) & (np.abs(s.vx) < w.rig.tuning.still_speed)


def support_span(w: World, s: WalkState) -> tuple[FloatArray, FloatArray]:
    """The x interval (N,) each character's planted feet bear weight over: the lowest and
    highest x of their sole points (heel, ball, toe at the stance roll) within ``CONTACT``
    of the ground (a heel hanging off a stair nose bears none). Both feet on one tread, it
    is that tread's part under them; on two treads, from the lower foot to the upper.
    ``(inf, −inf)`` where no point touches."""
    ankles, angles, bends = stance_feet(w, s)
    facing = np.broadcast_to(s.facing[:, None], angles.shape)
    soles = sole_points(ankles, angles, bends, facing, w.rig.legs)  # (N, 2, 3, 2)
    x = soles[..., 0]
    touching = (soles[..., 1] - w.terrain.height_at(x) <= CONTACT) & s.feet.planted[..., None]
    lo = np.where(touching, x, np.inf).min(axis=(1, 2))
    hi = np.where(touching, x, -np.inf).max(axis=(1, 2))
    return lo, hi


def rest_goal(w: World, s: WalkState, at: FloatArray) -> FloatArray:
    """Where each pelvis at rest (every character of ``s``), now at ``at`` (N,), stands:
    within its feet's support (:func:`support_span`, ``REST_INSET`` inside its ends) and,
    where there is such a place, where both feet are on their standing spots
    (:func:`~game.world.timing.standing_spots`, within ``idle_tolerance``, less
    ``REST_INSET``) if that is onward along the facing: the body carries on over its
    feet rather than a foot step to it (a stop that lands the front foot a little far ends
    with the body over it, not with that foot stepping back). Otherwise, and already
    there, where it is (a reach places the body: a hand on a door's knob, the other
    carrying a cup clear of it). No point touching: where it is."""
    lo, hi = support_span(w, s)
    touching = lo <= hi
    lo, hi = np.where(touching, lo, at), np.where(touching, hi, at)  # none touching: stays
    inset = np.minimum(REST_INSET, 0.25 * (hi - lo))
    lo, hi = lo + inset, hi - inset
    # each foot is on its spot for a pelvis within idle_tolerance of lock − side·spread
    gait = w.rig.gait
    centre = s.feet.lock[..., 0] - standing_sides(s) * gait.stance_spread  # (N, 2)
    reach = gait.idle_tolerance - REST_INSET
    lo_both = np.maximum(lo, max_last(centre) - reach)
    hi_both = np.minimum(hi, min_last(centre) + reach)
    over = clamp(at, lo_both, hi_both)
    # (onward only: a body carries on over a front foot landed a little far, finishing its
    # step; it does not draw back onto feet left behind it, which step up under it)
    onward = (lo_both <= hi_both) & ((over - at) * s.facing >= 0.0)
    return np.where(onward, over, clamp(at, lo, hi))
