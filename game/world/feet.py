"""The feet's state and geometry: the :class:`Feet` of N characters, the sole's points and
axes, a flat foot resting on the ground, whether a sole fits a spot, and how far soles are
in the ground; what counts as a stair's riser and a flight.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from game.world.easing import clamp, max_last, xy
from game.world.rig import LegSpec, Rig
from game.world.terrain import Terrain
from game.world.types import BoolArray, FloatArray

FOOT_SIDE = np.array([-1.0, 1.0])
"""World-x sign of each foot's depth offset (left, right): the right side is nearer the
camera when facing +x, so it sits a little ahead; mirroring swaps which side is near."""


_SOLE_SAMPLES = np.linspace(0.0, 1.0, 7)


_CHORD_PASSES = 2  # sole_fits: the chord under a level sole, then twice under the tilted one


RISER_WINDOW = 0.03  # m: ground rising more than MIN_RISER over this is a stair's riser


# SOLE_FLATNESS: on a bump's curved flank a sole resting on heel and toes lifts its ball
# 2-12 mm, and a spot there must still count as flat enough to pivot on (else the squaring
# steps walk back to flat ground, leaving the pelvis hanging low over nothing)
SOLE_FLATNESS = 0.012  # metres: the ground under a sole may bend this much (a bump), not a riser
MIN_RISER = 0.06


MAX_TREAD = 0.8  # m: risers going one way closer than this make a flight (0.16 / 0.8: slope 0.2)


HEEL_HANG = 0.03  # m a standing heel may overhang a stair nose (see heel_hangs)


@dataclass(slots=True)
class Feet:
    """The feet of N characters (mutable state, updated in place each step).

    Attributes
    ----------
    planted, pinned, due, pivot_aim : ndarray of bool, shape (N, 2)
        Locked on the ground; held by the mouse; due to lift (latched until it does); the
        last swing aimed at a spot to pivot on (:func:`pivot_spots`).
    relaunches : ndarray of int8, shape (N, 2)
        How many times the swing in the air was re-aimed toward a new spot (hovering where
        it could not land, a stop, the walk resuming), counted up to 2; 0 as it was
        launched.
    lock : ndarray, shape (N, 2, 2)
        The flat-foot ankle position of planted feet (sole resting on the ground).
    angle : ndarray, shape (N, 2)
        The ground (flat sole) angle of planted feet, radians counter-clockwise from +x.
    pitch : ndarray, shape (N, 2)
        The stance roll this step (radians, + toe up about the heel, − heel up about the ball).
    land_pitch : ndarray, shape (N, 2)
        The pitch the foot touched down with (rolls to flat during loading).
    stance_age : ndarray, shape (N, 2)
        Seconds since the foot planted.
    u, duration : ndarray, shape (N, 2)
        Swing progress in [0, 1] (beyond 1: hovering) and swing length in seconds.
    start, land : ndarray, shape (N, 2, 2)
        The ankle at lift-off and at touchdown (the landing pose, rolled by ``land_pitch``).
    land_lock : ndarray, shape (N, 2, 2)
        The flat pose the landing will lock.
    start_angle, land_angle, start_bend, land_bend : ndarray, shape (N, 2)
        Sole angle and toe bend at lift-off and at touchdown.
    land_ground : ndarray, shape (N, 2)
        The ground angle under the landing (the lock's ``angle``).
    lift : ndarray, shape (N, 2)
        Sole clearance at mid-swing (metres).
    floor : ndarray, shape (N, 2)
        The swinging ankle's lowest height this step, before the lift (:func:`glide_floor`;
        −inf at lift-off: not yet measured).
    hold : ndarray, shape (N, 2)
        The fraction of the swing the foot only rises before it moves on (:func:`swing_hold`).
    land_dx : ndarray, shape (N, 2)
        Horizontal offset of the hip predicted at touchdown from the landing ankle.
    aim : ndarray, shape (N, 2)
        The ankle x the last swing was aimed at, before the landing was fitted to the
        ground (a stair nose under the spot moves the landing; aiming there again would
        land in the same place).
    ray_from, ray_hit : ndarray, shape (N, 2, 2)
        The ground ray that found the landing spot (origin and hit point).
    steps : ndarray of int, shape (N,)
        Steps taken (landings) per character.
    """

    planted: BoolArray
    pinned: BoolArray
    due: BoolArray
    relaunches: NDArray[np.int8]
    pivot_aim: BoolArray
    lock: FloatArray
    angle: FloatArray
    pitch: FloatArray
    land_pitch: FloatArray
    stance_age: FloatArray
    u: FloatArray
    duration: FloatArray
    start: FloatArray
    land: FloatArray
    land_lock: FloatArray
    start_angle: FloatArray
    land_angle: FloatArray
    start_bend: FloatArray
    land_bend: FloatArray
    land_ground: FloatArray
    lift: FloatArray
    floor: FloatArray
    hold: FloatArray
    land_dx: FloatArray
    aim: FloatArray
    ray_from: FloatArray
    ray_hit: FloatArray
    steps: NDArray[np.int64]

    @classmethod
    def standing(cls, ankles: FloatArray, angles: FloatArray, ray_from: FloatArray) -> Feet:
        """Both feet planted flat at ``ankles`` (N, 2, 2) with sole ``angles`` (N, 2)."""
        n = ankles.shape[0]
        zeros = np.zeros((n, 2))
        return cls(
            planted=np.ones((n, 2), dtype=bool),
            pinned=np.zeros((n, 2), dtype=bool),
            due=np.zeros((n, 2), dtype=bool),
            relaunches=np.zeros((n, 2), dtype=np.int8),
            pivot_aim=np.zeros((n, 2), dtype=bool),
            lock=ankles.copy(),
            angle=angles.copy(),
            pitch=zeros.copy(),
            land_pitch=zeros.copy(),
            stance_age=np.ones((n, 2)),
            u=zeros.copy(),
            duration=np.ones((n, 2)),
            start=ankles.copy(),
            land=ankles.copy(),
            land_lock=ankles.copy(),
            start_angle=angles.copy(),
            land_angle=angles.copy(),
            start_bend=zeros.copy(),
            land_bend=zeros.copy(),
            land_ground=angles.copy(),
            lift=zeros.copy(),
            floor=ankles[..., 1].copy(),
            hold=zeros.copy(),
            land_dx=zeros.copy(),
            aim=ankles[..., 0].copy(),
            ray_from=ray_from.copy(),
            ray_hit=ankles.copy(),
            steps=np.zeros(n, dtype=np.int64),
        )

    @property
    def swinging(self) -> BoolArray:
        """Feet in the air under gait control, shape (N, 2)."""
        return ~self.planted & ~self.pinned


# -- foot geometry ---------------------------------------------------------------------
def foot_axes(angle: FloatArray, facing: FloatArray) -> tuple[FloatArray, FloatArray]:
    """The sole's heel→toe direction and its up normal, each shape ``angle.shape + (2,)``.

    ``facing`` scales the heel→toe direction: ±1 normally, between while a character
    pivots (the foot then points partly at the camera and looks shorter).
    """
    cos, sin = np.cos(angle), np.sin(angle)
    facing = np.asarray(facing)
    return xy(cos * facing, sin * facing), xy(-sin, cos)


def sole_points(
    ankle: FloatArray, angle: FloatArray, bend: FloatArray, facing: FloatArray, legs: LegSpec
) -> FloatArray:
    """Heel contact point, ball contact point and toe tip, shape ``angle.shape + (3, 2)``.

    Parameters
    ----------
    ankle : ndarray, shape (..., 2)
    angle, bend, facing : ndarray, shape (...)
        Sole angle, toe bend (radians, toes up relative to the sole) and facing scale.
    """
    along, normal = foot_axes(angle, facing)
    base = ankle - legs.ankle_height * normal  # the sole under the ankle
    heel = base - legs.heel * along
    ball = base + legs.ball * along
    # the toe segment turns about the ball by ``bend`` toward the sole's normal
    cb, sb = np.cos(bend)[..., None], np.sin(bend)[..., None]
    toe = ball + (legs.toe - legs.ball) * (cb * along + sb * normal)
    points = np.empty(np.broadcast(heel, toe).shape[:-1] + (3, 2))
    points[..., 0, :], points[..., 1, :], points[..., 2, :] = heel, ball, toe
    return points


def stance_pose(
    lock: FloatArray, ground: FloatArray, pitch: FloatArray, facing: FloatArray, legs: LegSpec
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """The ankle (..., 2), sole angle and toe bend (...) of a planted foot rolled by ``pitch``.

    The flat pose is the ankle ``lock`` with the sole along ``ground``; a positive pitch
    rotates it about the heel contact point, a negative one about the ball contact point
    with the toes left flat, so the pivot is a fixed world point either way.
    """
    along0, normal0 = foot_axes(ground, facing)
    base = lock - legs.ankle_height * normal0
    heel = base - legs.heel * along0
    ball = base + legs.ball * along0
    angle = ground + np.sign(facing) * pitch
    along, normal = foot_axes(angle, facing)
    up = (pitch >= 0.0)[..., None]
    # rigid rear foot: the ankle sits (heel, ankle_height) from the heel contact point and
    # (−ball, ankle_height) from the ball contact point, in the rolled sole's frame
    ankle = np.where(
        up,
        heel + legs.heel * along + legs.ankle_height * normal,
        ball - legs.ball * along + legs.ankle_height * normal,
    )
    return ankle, angle, np.maximum(-pitch, 0.0)


def sole_depth(
    terrain: Terrain,
    ankle_x: FloatArray,
    angle: FloatArray,
    bend: FloatArray,
    facing: FloatArray,
    legs: LegSpec,
) -> tuple[FloatArray, FloatArray]:
    """The sole's depth below the ground with its ankle at (``ankle_x``, 0), shape (...),
    so the lowest ankle height at which it clears the ground; and its heel, ball and toe
    points there, shape (..., 3, 2) (:func:`sole_points`)."""
    zeros = np.zeros(angle.shape + (2,))
    offsets = sole_points(zeros, angle, bend, facing, legs)
    offsets = offsets + xy(ankle_x, 0.0)[..., None, :]
    return sole_penetration(terrain, offsets), offsets


def sole_penetration(terrain: Terrain, soles: FloatArray) -> FloatArray:
    """How deep each sole (heel, ball, toe points and the two segments between them) is
    below the terrain, metres (≤ 0 when clear), shape ``soles.shape[:-2]``.

    A segment is checked at every terrain vertex inside its x span (stair nosings) against
    the segment's height there.
    """
    xs, ys = soles[..., 0], soles[..., 1]
    points = max_last(terrain.height_at(xs) - ys)
    # both segments at once (heel→ball, ball→toe), each against the terrain vertices under
    # it: (segment, vertex) pairs, segment indexing the raveled (..., 2)
    px, py = xs[..., :2], ys[..., :2]
    qx, qy = xs[..., 1:], ys[..., 1:]
    segment, v = terrain.vertices_between(np.minimum(px, qx), np.maximum(px, qx))
    if not len(segment):  # no vertex under the sole (most of the ground): points decide
        return points
    # what a segment's pairs share, computed once a segment and gathered
    run = qx - px
    safe = np.where(np.abs(run) > 1e-12, run, 1.0)
    rise = qy - py
    px, py, safe, rise = (np.ravel(c).take(segment) for c in (px, py, safe, rise))
    # the segment's height at vertex x: linear interpolation p + (q − p)·(x − p.x)/run
    t = clamp((terrain.xs.take(v) - px) / safe, 0.0, 1.0)
    seg_y = py + rise * t
    depth = np.array(points)
    # a maximum is exact, so gathering it pair by pair gives the dense maximum's number
    np.maximum.at(depth.reshape(-1), segment >> 1, terrain.ys.take(v) - seg_y)
    return depth


def rest_on_ground(
    terrain: Terrain, x: FloatArray, angle: FloatArray, facing: FloatArray, legs: LegSpec
) -> FloatArray:
    """The ankle height (…) at which a flat sole at ``angle`` rests on the ground at ``x``."""
    return sole_depth(terrain, x, angle, np.zeros_like(angle), facing, legs)[0]


# -- landing ----------------------------------------------------------------------------
def sole_fits(
    terrain: Terrain, x: FloatArray, facing: FloatArray, rig: Rig
) -> tuple[BoolArray, FloatArray, FloatArray]:
    """Whether a sole with its ankle over ``x`` lies flat on the ground, the ground angle,
    and how much the ground bends under it.

    Parameters
    ----------
    x, facing : ndarray, shape (...)
        Ankle x and facing (+1/−1) of each candidate.

    Returns
    -------
    fits : ndarray of bool, shape (...)
        Heel to toe, the ground stays within ``SOLE_FLATNESS`` of the heel→toe line and its
        slope within the sole's tilt limit (a stair nosing under the sole fails).
    angle : ndarray, shape (...)
        The heel→toe ground angle (radians, counter-clockwise from +x).
    bend : ndarray, shape (...)
        The ground's largest distance from the heel→toe line, metres (0 on a straight
        stretch; where it bends, a rigid sole cannot touch at both its heel and its ball).
    """
    legs = rig.legs
    span = legs.heel + legs.toe
    along = -legs.heel + span * _SOLE_SAMPLES  # (S,) from heel to toe

    def chord(angle: FloatArray) -> tuple[FloatArray, FloatArray]:
        """The ground under the sole tilted to ``angle`` (S samples heel to toe), and the
        angle of its heel→toe chord. A tilted sole's points lie ankle_height·sin(angle)
        uphill of a level one's and closer together by cos(angle) (as in sole_points)."""
        lean = legs.ankle_height * np.sin(angle)[..., None]  # −ankle_height·normal_x
        hs = terrain.height_at(x[..., None] + lean + (facing * np.cos(angle))[..., None] * along)
        # slope of the heel→toe chord in world x: rise / run, run = facing·span·cos(angle)
        return hs, np.arctan2((hs[..., -1] - hs[..., 0]) * facing, span * np.cos(angle))

    hs, angle = chord(np.zeros(np.shape(x)))
    line = hs[..., :1] + (hs[..., -1:] - hs[..., :1]) * _SOLE_SAMPLES
    bend = max_last(np.abs(hs - line))
    fits = (bend <= SOLE_FLATNESS) & (np.abs(angle) <= legs.max_tilt)
    # where the sole fits, the chord under the sole as it will lie (tilted), not under a
    # level one: at a slope's foot the two differ and the heel would hover over the corner
    for _ in range(_CHORD_PASSES):
        angle = np.where(fits, chord(angle)[1], angle)
    return fits, angle, bend


def heel_hangs(terrain: Terrain, x: FloatArray, facing: FloatArray, legs: LegSpec) -> BoolArray:
    """Whether a flat foot with its ankle at ``x`` hangs its heel off a stair nose: the ground
    under the heel, read ``HEEL_HANG`` in from its back, more than ``MIN_RISER`` below the
    ground under the ball. The shape of ``x`` and ``facing`` broadcast. (A heel over the nose
    by up to ``HEEL_HANG`` stands: a foot turned round about its ball moves its heel ``heel +
    ball`` (0.18 m) past the ball either way, so on a 0.34 m tread only a spot that lets the
    heel overhang a little holds the sole before and after the turn.)"""
    ball = terrain.height_at(x + facing * legs.ball)
    heel = terrain.height_at(x - facing * (legs.heel - HEEL_HANG))
    return np.asarray(heel < ball - MIN_RISER)
