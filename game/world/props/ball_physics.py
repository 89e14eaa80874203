"""A ball rolling on the terrain's polyline, pushed by feet: a small 2-D rigid-body step
(no pygame).

One step (:func:`step_ball`), in stages:

1. pushers: each capsule (a sole, a shin) that overlaps the ball moves it out along the
   contact normal and, approaching, gives it the capsule's normal speed times
   ``1 + PUSH_BOUNCE`` (a foot is far heavier than the ball: only the ball's velocity
   changes);
2. ``SUBSTEPS`` equal substeps of: gravity, motion, then the contacts, each time the
   deepest of the touching ground segments and pushers, up to ``CONTACT_PASSES`` times (a
   stair's corner touches a tread and a riser; a ball squeezed between a sole and a riser
   goes out where both let it, up). The ground: out along the normal, the normal speed
   reflected with the ball's ``bounce`` (restitution) when it comes in faster than
   ``BOUNCE_MIN_SPEED`` and stopped otherwise, the rolling speed slowed by rolling
   resistance and, rolling, the slope's pull reduced to a rolling shell's ``ROLLING_PULL``
   of it; a pusher: out of it and hit as in stage 1;
3. rest: touching the ground, slower than ``REST_SPEED`` and on ground (its most level
   contact: against a riser, the floor) too gentle for the slope to overcome the rolling
   resistance, it stops and stays until pushed.

Coordinates are world metres, y-up; beyond either end of the polyline the ground stays
level (as :class:`game.world.terrain.Terrain`). One ball's step is a few dozen small
vector operations: they are done on plain floats (numpy's fixed cost per call is many times
the arithmetic of a 2-vector); only the arguments and the returned state are arrays.
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from dataclasses import dataclass

import numpy as np

from game.world.types import FloatArray

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
        """No pushers (one shared, read-only: asked for on most steps)."""
        return _NO_PUSHERS


def _no_pushers() -> Pushers:
    """The empty :class:`Pushers`, its arrays read-only."""
    empty, radius = np.zeros((0, 2)), np.zeros(0)
    empty.setflags(write=False)
    radius.setflags(write=False)
    return Pushers(empty, empty, empty, empty, radius)


_NO_PUSHERS = _no_pushers()


@dataclass(frozen=True, slots=True)
class Ground:
    """The ground polyline with level ground ``_FAR_M`` beyond each end (:func:`ground_polyline`).

    Attributes
    ----------
    points : ndarray, shape (M + 2, 2)
        Its vertices, x strictly increasing.
    xs, ys : tuple of float
        The same vertices' coordinates as plain floats, for the step.
    """

    points: FloatArray
    xs: tuple[float, ...]
    ys: tuple[float, ...]


def ground_polyline(points: FloatArray) -> Ground:
    """The terrain's polyline ``points`` (M, 2) with level ground ``_FAR_M`` beyond each end."""
    first, last = points[0], points[-1]
    ends = np.concatenate([[[first[0] - _FAR_M, first[1]]], points, [[last[0] + _FAR_M, last[1]]]])
    return Ground(ends, tuple(ends[:, 0].tolist()), tuple(ends[:, 1].tolist()))


def closest_on_segment(
    px: float, py: float, ax: float, ay: float, bx: float, by: float
) -> tuple[float, float, float]:
    """The point of the segment ``a`` → ``b`` nearest ``p``, and its parameter ``t`` in
    [0, 1] along the segment: ``(x, y, t)``."""
    abx, aby = bx - ax, by - ay
    len2 = abx * abx + aby * aby
    # projection: t = (p − a)·(b − a) / |b − a|², clamped to the segment (a point: t = 0)
    t = ((px - ax) * abx + (py - ay) * aby) / (len2 if len2 > 0.0 else 1.0)
    t = min(max(t, 0.0), 1.0)
    return ax + t * abx, ay + t * aby, t


def _length(x: float, y: float) -> float:
    """``sqrt(x² + y²)`` rounded as numpy's ``hypot`` (the C library's) rounds it;
    ``math.hypot`` may differ in the last bit."""
    return float(np.hypot(x, y))


def _dot(ax: float, ay: float, bx: float, by: float) -> float:
    """``a · b`` rounded as numpy's ``dot`` rounds it (BLAS fuses the second product into
    the sum); with :func:`_length`, the ball's path is the same to the bit as the same
    stages computed on arrays."""
    return float(np.dot((ax, ay), (bx, by)))


def _deepest_contact(
    cx: float, cy: float, radius: float, ground: Ground
) -> tuple[float, float, float]:
    """How deep the ball at ``(cx, cy)`` sinks into the ``ground`` at its deepest touching
    segment, and that contact's unit normal (pointing out of the ground): ``(depth, nx,
    ny)``, ``(0, 0, 1)`` when it touches nothing. A centre under a segment (pushed through it)
    is that far plus a radius deep, and goes back out upward: the polyline bounds the solid
    ground from above (x strictly increasing), so the side of a segment is the sign of the
    cross product (b − a) × (c − a), positive above, within the segment's x span only
    (beside a riser the centre is below the next tread's line, not in the ground)."""
    xs, ys = ground.xs, ground.ys
    # the segments whose x span meets [x − r, x + r]: a run found by binary search (x
    # strictly increasing), segment i from vertex i to i + 1
    first = max(bisect_left(xs, cx - radius) - 1, 0)
    stop = min(bisect_right(xs, cx + radius), len(xs) - 1)
    clear2 = radius * radius * (1.0 + 1e-9)  # farther above a segment: depth < 0 for sure
    deepest: tuple[float, float, float] = (0.0, 0.0, 1.0)
    for i in range(first, stop):
        ax, ay, bx, by = xs[i], ys[i], xs[i + 1], ys[i + 1]
        px, py, _ = closest_on_segment(cx, cy, ax, ay, bx, by)
        ox, oy = cx - px, cy - py
        dx, dy = bx - ax, by - ay
        above = dx * (cy - ay) - dy * (cx - ax) >= 0.0 or not ax <= cx <= bx
        if above and ox * ox + oy * oy > clear2:  # not touching: never the deepest contact
            continue
        distance = _length(ox, oy)
        depth = radius - distance if above else radius + distance
        if not depth > deepest[0]:  # the first of equally deep ones
            continue
        if distance < 1e-9 or not above:  # on or under the line: out along its normal
            length = max(_length(dx, dy), 1e-12)
            deepest = (depth, -dy / length, dx / length)
        else:
            deepest = (depth, ox / distance, oy / distance)
    return deepest


# a pusher as plain floats: its ends, their velocities, its radius
Capsule = tuple[float, float, float, float, float, float, float, float, float]


def _capsules(pushers: Pushers) -> list[Capsule]:
    """The pushers as :data:`Capsule` tuples (the step's contacts read plain floats)."""
    ends = zip(
        pushers.a.tolist(),
        pushers.b.tolist(),
        pushers.va.tolist(),
        pushers.vb.tolist(),
        pushers.radius.tolist(),
        strict=True,
    )
    return [(*a, *b, *va, *vb, r) for a, b, va, vb, r in ends]


def _capsule_contact(
    cx: float, cy: float, radius: float, capsule: Capsule
) -> tuple[float, float, float, float, float] | None:
    """How deep the ball at ``(cx, cy)`` is in ``capsule``, the unit normal out of it and
    the capsule's velocity at the contact: ``(depth, nx, ny, ux, uy)``; None if apart (or
    the centre on its axis, no direction out)."""
    ax, ay, bx, by, vax, vay, vbx, vby, thickness = capsule
    px, py, t = closest_on_segment(cx, cy, ax, ay, bx, by)
    ox, oy = cx - px, cy - py
    distance = _length(ox, oy)
    reach = radius + thickness
    if distance >= reach or distance < 1e-9:
        return None
    ux, uy = vax + (vbx - vax) * t, vay + (vby - vay) * t  # the pusher's velocity there
    return reach - distance, ox / distance, oy / distance, ux, uy


def _pushed_off(
    vx: float, vy: float, nx: float, ny: float, ux: float, uy: float
) -> tuple[float, float]:
    """The ball's velocity after meeting a pusher moving at ``(ux, uy)`` along the normal
    ``(nx, ny)``: an infinitely heavy pusher, v' = v − (1 + e)·((v − u)·n)·n where they
    approach, else unchanged."""
    approach = _dot(vx - ux, vy - uy, nx, ny)
    if approach >= 0.0:
        return vx, vy
    return vx - (1.0 + PUSH_BOUNCE) * approach * nx, vy - (1.0 + PUSH_BOUNCE) * approach * ny


def _push(state: BallState, radius: float, capsules: list[Capsule]) -> BallState:
    """Stage 1: the pushers move the ball out of them and hit it (see the module doc)."""
    if not capsules:
        return state
    (cx, cy), (vx, vy), resting = state.centre.tolist(), state.velocity.tolist(), state.resting
    for capsule in capsules:
        contact = _capsule_contact(cx, cy, radius, capsule)
        if contact is None:
            continue
        depth, nx, ny, ux, uy = contact
        cx, cy = cx + nx * depth, cy + ny * depth
        vx, vy = _pushed_off(vx, vy, nx, ny, ux, uy)
        resting = False
    return BallState(np.array([cx, cy]), np.array([vx, vy]), state.angle, state.spin, resting)


def _deepest_capsule(
    cx: float, cy: float, radius: float, capsules: list[Capsule]
) -> tuple[float, float, float, float, float] | None:
    """The deepest :func:`_capsule_contact` among ``capsules``; None if the ball is in none."""
    deepest = None
    for capsule in capsules:
        contact = _capsule_contact(cx, cy, radius, capsule)
        if contact is not None and (deepest is None or contact[0] > deepest[0]):
            deepest = contact
    return deepest


def step_ball(
    state: BallState,
    radius: float,
    bounce: float,
    rolling: float,
    ground: Ground,
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
    ground : Ground
        The ground polyline (:func:`ground_polyline`).
    pushers : Pushers
        What pushes it this step (the feet).
    dt : float
        The step (s).
    """
    capsules = _capsules(pushers) if len(pushers.radius) else []
    state = _push(state, radius, capsules)
    if state.resting:
        return state
    (cx, cy), (vx, vy) = state.centre.tolist(), state.velocity.tolist()
    angle, spin = state.angle, state.spin
    h = dt / SUBSTEPS
    touching, nx, ny = False, 0.0, 1.0
    for _ in range(SUBSTEPS):
        vy -= GRAVITY * h
        if touching:  # rolling: the part of the slope's pull that spins the ball up is lost
            tx, ty = ny, -nx
            lost = (1.0 - ROLLING_PULL) * _dot(0.0, -GRAVITY * h, tx, ty)
            vx, vy = vx - lost * tx, vy - lost * ty
        cx, cy = cx + vx * h, cy + vy * h
        touching = False
        for _ in range(CONTACT_PASSES):
            depth, contact_x, contact_y = _deepest_contact(cx, cy, radius, ground)
            held = _deepest_capsule(cx, cy, radius, capsules) if capsules else None
            if held is not None and held[0] > depth:  # deeper in a pusher (squeezed): out
                held_depth, hx, hy, ux, uy = held
                cx, cy = cx + hx * held_depth, cy + hy * held_depth
                vx, vy = _pushed_off(vx, vy, hx, hy, ux, uy)
                continue
            if depth <= 0.0:
                break
            cx, cy = cx + contact_x * depth, cy + contact_y * depth
            inward = _dot(vx, vy, contact_x, contact_y)
            if inward < 0.0:
                e = bounce if -inward > BOUNCE_MIN_SPEED else 0.0
                vx, vy = vx - (1.0 + e) * inward * contact_x, vy - (1.0 + e) * inward * contact_y
            if not touching or contact_y > ny:  # what it rolls and rests on: the most level
                nx, ny = contact_x, contact_y  # of its contacts (a floor, not the riser)
            touching = True
        if touching:
            vx, vy, spin = _roll(vx, vy, nx, ny, rolling, radius, h)
        angle += spin * h
    resting = touching and _can_rest(vx, vy, nx, ny, rolling)
    if resting:
        vx = vy = spin = 0.0
    centre, velocity = np.array([cx, cy]), np.array([vx, vy])
    return BallState(centre, velocity, math.remainder(angle, math.tau), spin, resting)


def _roll(
    vx: float, vy: float, nx: float, ny: float, rolling: float, radius: float, h: float
) -> tuple[float, float, float]:
    """Rolling resistance over ``h`` seconds on ground of normal ``(nx, ny)``: the speed
    along the ground drops by ``rolling·g·cos θ·h`` (not below 0). Returns the velocity and
    the spin of a ball rolling without slipping (ω = −v_t / r)."""
    tx, ty = ny, -nx  # along the ground, toward +x
    along = _dot(vx, vy, tx, ty)
    slowed = math.copysign(max(abs(along) - rolling * GRAVITY * max(ny, 0.0) * h, 0.0), along)
    return vx + (slowed - along) * tx, vy + (slowed - along) * ty, -slowed / radius


def _can_rest(vx: float, vy: float, nx: float, ny: float, rolling: float) -> bool:
    """Slow enough, on ground whose slope pulls less than rolling resistance holds:
    g·sin θ·ROLLING_PULL ≤ rolling·g·cos θ (sin θ = |n_x|, cos θ = n_y)."""
    return _length(vx, vy) < REST_SPEED and abs(nx) * ROLLING_PULL <= rolling * ny
