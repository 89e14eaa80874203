"""The hero's legs as what pushes the ball: each sole (heel → toe) and each shin (knee →
ankle) a capsule, moving at its velocity since the last step (no pygame)."""

from __future__ import annotations

import math

import numpy as np

from game.world.props.ball_physics import Pushers
from game.world.props.base import Body
from game.world.types import FloatArray

SOLE_RADIUS_M = 0.035  # a sole as a pusher: a capsule heel → toe this thick
SHIN_RADIUS_M = 0.05  # a shin: knee → ankle
PUSHER_MAX_SPEED = 8.0  # m/s: a foot's push no faster (a foot put down off the ladder jumps)
# the pushers' radii: the two soles', then the two shins' (FeetPushers.pushers' order)
CAPSULE_RADII = (SOLE_RADIUS_M, SOLE_RADIUS_M, SHIN_RADIUS_M, SHIN_RADIUS_M)


class FeetPushers:
    """The hero's soles and shins as the ball's pushers, step after step."""

    def __init__(self) -> None:
        # the pushers' ends (heel, heel, knee, knee; toe, toe, ankle, ankle) last step
        self._last: tuple[list[list[float]], list[list[float]]] | None = None

    def pushers(self, body: Body, centre: FloatArray, radius: float, dt: float) -> Pushers:
        """The hero's soles (heel → toe) and shins (knee → ankle) as capsules, with their
        velocities since the last step (none the first step); none at all while no capsule
        reaches the ball of ``radius`` at ``centre`` (:func:`_within_reach`), which no push
        can then move. The ends are read as plain floats: most steps no capsule is near
        the ball, and that test is a few comparisons (arrays only for a push)."""
        (heel_l, _, toe_l), (heel_r, _, toe_r) = body.soles.tolist()
        (heel_l, toe_l), (heel_r, toe_r) = _inset(heel_l, toe_l), _inset(heel_r, toe_r)
        a = [heel_l, heel_r, *body.knees.tolist()]
        b = [toe_l, toe_r, *body.ankles.tolist()]
        last = self._last
        self._last = (a, b)
        if not _within_reach(centre.tolist(), radius, a, b):
            return Pushers.none()
        a_w, b_w = np.array(a), np.array(b)
        if last is None:
            va = vb = np.zeros_like(a_w)
        else:
            va = _capped((a_w - np.array(last[0])) / dt)
            vb = _capped((b_w - np.array(last[1])) / dt)
        return Pushers(a_w, b_w, va, vb, np.array(CAPSULE_RADII))


def _inset(heel: list[float], toe: list[float]) -> tuple[list[float], list[float]]:
    """A sole's capsule axis: heel → toe drawn in by the capsule's radius at each end, so
    the capsule ends at the drawn heel and toe tip, not a radius past them."""
    (hx, hy), (tx, ty) = heel, toe
    length = math.hypot(tx - hx, ty - hy)
    inset = min(SOLE_RADIUS_M, 0.5 * length) / max(length, 1e-9)
    dx, dy = (tx - hx) * inset, (ty - hy) * inset
    return [hx + dx, hy + dy], [tx - dx, ty - dy]


def _within_reach(
    centre: list[float], radius: float, a: list[list[float]], b: list[list[float]]
) -> bool:
    """Whether any capsule ``a`` → ``b`` (K points (x, y), radii ``CAPSULE_RADII``) may
    come within reach of a ball of ``radius`` at ``centre`` (x, y): the centre inside some
    segment's bounding box grown by the two radii (a point of the segment within reach lies
    in that box). A cheap test before the exact one: pushes move the ball only from a
    capsule that touches it where it is."""
    cx, cy = centre
    for (ax, ay), (bx, by), thickness in zip(a, b, CAPSULE_RADII, strict=True):
        grown = radius + thickness + 1e-9  # slack for rounding in the box's bounds
        if (
            min(ax, bx) - grown <= cx <= max(ax, bx) + grown
            and min(ay, by) - grown <= cy <= max(ay, by) + grown
        ):
            return True
    return False


def _capped(velocity: FloatArray) -> FloatArray:
    """Velocities (K, 2) no faster than ``PUSHER_MAX_SPEED``."""
    speed = np.hypot(velocity[:, 0], velocity[:, 1])
    scale = np.minimum(1.0, PUSHER_MAX_SPEED / np.maximum(speed, 1e-12))
    return velocity * scale[:, None]
