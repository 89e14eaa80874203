"""A ball rolling on the terrain's polyline, pushed by feet: a small 2-D rigid-body step
(no pygame).

One step (:func:`step_ball`), in stages:

1. pushers: each capsule (a sole, a shin) that overlaps the ball moves it out along the
   contact normal and, approaching, gives it the capsule's normal speed times
   ``1 + PUSH_BOUNCE`` (a foot is far heavier than the ball: only the ball's velocity
   changes);
2. ``SUBSTEPS`` equal substeps of: gravity, motion, then the ground contact, resolved
   against the deepest touching segment up to ``CONTACT_PASSES`` times (a stair's corner
   touches a tread and a riser): out along the normal, the normal speed reflected with the
   ball's ``bounce`` (restitution) when it comes in faster than ``BOUNCE_MIN_SPEED`` and
   stopped otherwise, the rolling speed slowed by rolling resistance and, rolling, the
   slope's pull reduced to a rolling shell's ``ROLLING_PULL`` of it;
3. rest: touching the ground, slower than ``REST_SPEED`` and on ground too gentle for the
   slope to overcome the rolling resistance, it stops and stays until pushed.

Coordinates are world metres, y-up; beyond either end of the polyline the ground stays
level (as :class:`game.world.terrain.Terrain`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

FloatArray = NDArray[np.float64]

GRAVITY = 9.81  # m/s²
SUBSTEPS = 4  # ground contacts per step: at 60 Hz and 8 m/s a substep moves 3.3 cm
CONTACT_PASSES = 3  # contact resolutions per substep (a corner touches two segments)
BOUNCE_MIN_SPEED = 0.4  # m/s: slower into the ground, the ball stops there (no endless hops)
REST_SPEED = 0.04  # m/s: slower than this on ground it can rest on, it stops
PUSH_BOUNCE = 0.15  # the restitution of a foot's push (a kick leaves the ball this much faster)
# a rolling thin shell (I = 2/3·m·r²) feels g·sinθ/(1 + I/(m·r²)) = 3/5 of the slope's pull
ROLLING_PULL = 1.0 / (1.0 + 2.0 / 3.0)
_FAR_M = 1_000.0  # the level ground beyond the polyline's ends reaches this far


@dataclass(frozen=True, slots=True)
class BallState:
    """The ball at one instant.

    Attributes
    ----------
    centre, velocity : ndarray, shape (2,)
        World metres and metres per second.
    angle : float
        How far it has turned (radians, counter-clockwise), for drawing its pattern.
    spin : float
        Its turning rate (rad/s): rolling, −(rolling speed)/radius.
    resting : bool
        At rest on the ground: it stays put until something pushes it.
    """

    centre: FloatArray
    velocity: FloatArray
    angle: float = 0.0
    spin: float = 0.0
    resting: bool = True


@dataclass(frozen=True, slots=True)
class Pushers:
    """Capsules that push the ball (the feet): segments ``a`` → ``b`` with a radius, and
    their ends' velocities.

    Attributes
    ----------
    a, b, va, vb : ndarray, shape (K, 2)
        Segment ends (m) and their velocities (m/s).
    radius : ndarray, shape (K,)
        Each capsule's radius (m).
    """

    a: FloatArray
    b: FloatArray
    va: FloatArray
    vb: FloatArray
    radius: FloatArray

    @classmethod
    def none(cls) -> Pushers:
        """No pushers."""
        empty = np.zeros((0, 2))
        return cls(empty, empty, empty, empty, np.zeros(0))


def closest_on_segments(
    p: FloatArray, a: FloatArray, b: FloatArray
) -> tuple[FloatArray, FloatArray]:
    """The point of each segment ``a`` → ``b`` (K, 2) nearest ``p`` (2,), and its
    parameter ``t`` in [0, 1] along the segment: ``(points (K, 2), t (K,))``."""
    ab = b - a
    len2 = np.einsum("kj,kj->k", ab, ab)
    # projection: t = (p − a)·(b − a) / |b − a|², clamped to the segment (a point: t = 0)
    t = np.clip(np.einsum("kj,kj->k", p - a, ab) / np.where(len2 > 0.0, len2, 1.0), 0.0, 1.0)
    return a + t[:, None] * ab, t


def ground_polyline(points: FloatArray) -> FloatArray:
    """The terrain's polyline with level ground ``_FAR_M`` beyond each end, shape (M + 2, 2)."""
    first, last = points[0], points[-1]
    return np.concatenate([[[first[0] - _FAR_M, first[1]]], points, [[last[0] + _FAR_M, last[1]]]])


def _deepest_contact(
    centre: FloatArray, radius: float, ground: FloatArray
) -> tuple[float, FloatArray]:
    """How deep the ball at ``centre`` sinks into the ``ground`` polyline (M, 2) at its
    deepest touching segment, and that contact's unit normal (pointing out of the ground);
    depth ≤ 0 when it touches nothing. A centre under a segment (pushed through it) is
    that far plus a radius deep, and goes back out upward: the polyline bounds the solid
    ground from above (x strictly increasing), so the side of a segment is the sign of
    the cross product (b − a) × (c − a), positive above."""
    # the segments whose x span meets [x − r, x + r]: a run found by binary search (x
    # strictly increasing), segment i from vertex i to i + 1
    xs = ground[:, 0]
    first = max(int(np.searchsorted(xs, centre[0] - radius, side="left")) - 1, 0)
    stop = min(int(np.searchsorted(xs, centre[0] + radius, side="right")), len(xs) - 1)
    a, b = ground[first:stop], ground[first + 1 : stop + 1]
    if not len(a):
        return 0.0, np.array([0.0, 1.0])
    points, _ = closest_on_segments(centre, a, b)
    offset = centre - points
    distance = np.hypot(offset[:, 0], offset[:, 1])
    d = b - a
    above = d[:, 0] * (centre[1] - a[:, 1]) - d[:, 1] * (centre[0] - a[:, 0]) >= 0.0
    depth = np.where(above, radius - distance, radius + distance)
    k = int(np.argmax(depth))
    if distance[k] < 1e-9 or not above[k]:  # on or under the line: out along its normal
        normal = np.array([-d[k, 1], d[k, 0]]) / max(float(np.hypot(*d[k])), 1e-12)
        return float(depth[k]), normal
    return float(depth[k]), offset[k] / distance[k]


def _push(state: BallState, radius: float, pushers: Pushers) -> BallState:
    """Stage 1: the pushers move the ball out of them and hit it (see the module doc)."""
    centre, velocity, resting = state.centre.copy(), state.velocity.copy(), state.resting
    for k in range(len(pushers.radius)):
        a, b = pushers.a[k : k + 1], pushers.b[k : k + 1]
        points, t = closest_on_segments(centre, a, b)
        offset = centre - points[0]
        distance = float(np.hypot(*offset))
        reach = radius + float(pushers.radius[k])
        if distance >= reach or distance < 1e-9:
            continue
        normal = offset / distance
        centre = points[0] + normal * reach
        pusher_v = pushers.va[k] + (pushers.vb[k] - pushers.va[k]) * float(t[0])
        approach = float(np.dot(velocity - pusher_v, normal))
        if approach < 0.0:
            # an infinitely heavy pusher: v' = v − (1 + e)·((v − u)·n)·n
            velocity = velocity - (1.0 + PUSH_BOUNCE) * approach * normal
        resting = False
    return BallState(centre, velocity, state.angle, state.spin, resting)


def step_ball(
    state: BallState,
    radius: float,
    bounce: float,
    rolling: float,
    ground: FloatArray,
    pushers: Pushers,
    dt: float,
) -> BallState:
    """The ball ``dt`` seconds on: pushed, moved, kept on the ground, perhaps come to rest.

    Parameters
    ----------
    state : BallState
        The ball now.
    radius : float
        Its radius (m).
    bounce : float
        Its restitution off the ground, in [0, 1).
    rolling : float
        Its rolling-resistance coefficient: rolling, it slows by ``rolling·g·cos θ``.
    ground : ndarray, shape (M, 2)
        The ground polyline (:func:`ground_polyline`).
    pushers : Pushers
        What pushes it this step (the feet).
    dt : float
        The step (s).
    """
    state = _push(state, radius, pushers)
    if state.resting:
        return state
    centre, velocity = state.centre.copy(), state.velocity.copy()
    angle, spin = state.angle, state.spin
    h = dt / SUBSTEPS
    touching, normal = False, np.array([0.0, 1.0])
    for _ in range(SUBSTEPS):
        velocity[1] -= GRAVITY * h
        if touching:  # rolling: the part of the slope's pull that spins the ball up is lost
            tangent = np.array([normal[1], -normal[0]])
            velocity -= (1.0 - ROLLING_PULL) * float(np.dot([0.0, -GRAVITY * h], tangent)) * tangent
        centre += velocity * h
        touching = False
        for _ in range(CONTACT_PASSES):
            depth, n = _deepest_contact(centre, radius, ground)
            if depth <= 0.0:
                break
            touching, normal = True, n
            centre += n * depth
            inward = float(np.dot(velocity, n))
            if inward < 0.0:
                e = bounce if -inward > BOUNCE_MIN_SPEED else 0.0
                velocity -= (1.0 + e) * inward * n
        if touching:
            velocity, spin = _roll(velocity, normal, rolling, radius, h)
        angle += spin * h
    resting = touching and _can_rest(velocity, normal, rolling)
    if resting:
        velocity = np.zeros(2)
        spin = 0.0
    return BallState(centre, velocity, math.remainder(angle, math.tau), spin, resting)


def _roll(
    velocity: FloatArray, normal: FloatArray, rolling: float, radius: float, h: float
) -> tuple[FloatArray, float]:
    """Rolling resistance over ``h`` seconds on ground of ``normal``: the speed along the
    ground drops by ``rolling·g·cos θ·h`` (not below 0). Returns the velocity and the spin
    of a ball rolling without slipping (ω = −v_t / r)."""
    tangent = np.array([normal[1], -normal[0]])  # along the ground, toward +x
    along = float(np.dot(velocity, tangent))
    slowed = math.copysign(
        max(abs(along) - rolling * GRAVITY * max(normal[1], 0.0) * h, 0.0), along
    )
    return velocity + (slowed - along) * tangent, -slowed / radius


def _can_rest(velocity: FloatArray, normal: FloatArray, rolling: float) -> bool:
    """Slow enough, on ground whose slope pulls less than rolling resistance holds:
    g·sin θ·ROLLING_PULL ≤ rolling·g·cos θ (sin θ = |n_x|, cos θ = n_y)."""
    slow = float(np.hypot(*velocity)) < REST_SPEED
    return slow and abs(float(normal[0])) * ROLLING_PULL <= rolling * float(normal[1])
