"""A foot the mouse (or a kick) holds: where it is held, kept within the hip's range
(:func:`within_hip_range`: the thigh no further forward or back than a hip swings, the
knee bent forward) and out of the ground with the whole leg (:func:`clear_of_ground`).
"""

from __future__ import annotations

import numpy as np

from game.world.easing import any_last, xy
from game.world.feet import sole_depth, sole_penetration
from game.world.rig import LegSpec, LimbSpec, Rig
from game.world.terrain import Terrain
from game.world.types import BoolArray, FloatArray
from game.world.walker_state import World
from ik.reach import soften

_RAY_SAMPLES = np.linspace(1.0, 0.0, 25)  # fractions of the way out to the target tried
_RAY_HALVINGS = 5  # then halvings between the last spot in the ground and the first clear
_DOWN_TURNS = np.linspace(0.0, 1.0, 17)  # rays tried: shares of the turn to straight down
_AT_END = np.radians(2.0)  # a held foot this near an end of the hip's range is at it


def thigh_offset(d: FloatArray, limb: LimbSpec) -> FloatArray:
    """α, the thigh's angle off the hip→ankle line with the ankle ``d`` from the hip, as
    the solver bends the leg: law of cosines, cos α = (L1² + d² − L2²)/(2·L1·d), on ``d``
    softened near full stretch (the ankle stops short, the knee bends a little more), then
    clamped to the leg's span."""
    soft = soften(d, limb.upper + limb.lower, limb.softness)
    span = np.clip(soft, abs(limb.upper - limb.lower) + 1e-9, limb.upper + limb.lower)
    cos_a = (limb.upper**2 + span**2 - limb.lower**2) / (2.0 * limb.upper * span)
    return np.arccos(np.clip(cos_a, -1.0, 1.0))


def swung(offset: FloatArray, facing: FloatArray) -> FloatArray:
    """The direction of ``offset`` (..., 2) from a hip, radians from straight down, toward
    ``facing`` (...) positive."""
    return np.arctan2(facing * offset[..., 0], -offset[..., 1])


def clear_of_ground(
    ankle: FloatArray,
    hip: FloatArray,
    angle: FloatArray,
    facing: FloatArray,
    terrain: Terrain,
    legs: LegSpec,
) -> FloatArray:
    """Held ankles ``ankle`` (M, 2) placed where the whole leg is out of the ground: the
    sole (flat toes, at ``angle`` (M,), facing ``facing`` (M,)) and the thigh and shin
    from the ``hip`` (M, 2) to the knee, bent forward as the solver bends it, to the ankle.

    A held foot in the ground comes in toward the hip: on the line to where it is held and
    on lines turned from it down toward hanging straight (at the same distance from the
    hip), the furthest point where the leg clears is found, and of those the one nearest
    where the foot is held is taken. Into a wall, the foot is pressed against the face, or
    comes down it as far as the bent knee needs; below the floor, it stands on it. Where
    nothing clears, the foot stays where it is held. (The hip's range, which reads the
    held foot's direction from the hip, is left as it is.)"""
    m, f = len(ankle), facing[:, None, None]
    out = ankle - hip
    d = np.hypot(out[:, 0], out[:, 1])[:, None, None]
    turn = swung(out, facing)[:, None, None] * (1.0 - _DOWN_TURNS[None, :, None])  # (M, R, 1)
    ray = np.stack([f * np.sin(turn), -np.cos(turn)], axis=-1)  # (M, R, 1, 2)

    def clear(fraction: FloatArray, turn: FloatArray, ray: FloatArray) -> BoolArray:
        """Whether the leg clears the ground with its ankle ``fraction`` (M, R, K) of the
        way out along the rays at ``turn`` (M, R, 1) from down, directions ``ray``."""
        at = hip[:, None, None] + (fraction * d)[..., None] * ray
        shape = fraction.shape
        lowest, _ = sole_depth(
            terrain,
            at[..., 0],
            np.broadcast_to(angle[:, None, None], shape),
            np.zeros(shape),
            np.broadcast_to(f, shape),
            legs,
        )
        # the leg hip → knee → ankle, the knee ``thigh_offset`` forward of the line
        thigh = turn + thigh_offset(fraction * d, legs.limb)
        knee = hip[:, None, None] + legs.limb.upper * xy(f * np.sin(thigh), -np.cos(thigh))
        leg = np.stack([np.broadcast_to(hip[:, None, None], at.shape), knee, at], axis=-2)
        return np.asarray((lowest <= at[..., 1]) & (sole_penetration(terrain, leg) <= 0.0))

    fractions = np.broadcast_to(_RAY_SAMPLES, (m, len(_DOWN_TURNS), len(_RAY_SAMPLES)))
    clears = clear(fractions, turn, ray)
    # on each ray, the first clear fraction in from the target ...
    first = np.argmax(clears, axis=2)  # (M, R)
    reached = np.take_along_axis(fractions, first[..., None], axis=2)[..., 0]
    miss = reached[..., None] * d[:, 0, None] * ray[:, :, 0] - out[:, None]  # (M, R, 2)
    gap = np.where(any_last(clears), np.hypot(miss[..., 0], miss[..., 1]), np.inf)
    # ... on the ray whose clear point is nearest the held one (none: as it is held)
    best = np.argmin(gap, axis=1)  # (M,)
    rows = np.arange(m)
    found = np.isfinite(gap[rows, best])
    hi = np.where(found, reached[rows, best], 1.0)  # clear
    k = first[rows, best]
    lo = np.where(found & (k > 0), _RAY_SAMPLES[np.maximum(k - 1, 0)], hi)  # in the ground
    chosen = np.where(found, best, 0)
    turn, ray = turn[rows, chosen][:, None], ray[rows, chosen][:, None]  # (M, 1, 1 [, 2])
    for _ in range(_RAY_HALVINGS):  # ... narrowed between it and the one tried before
        mid = 0.5 * (lo + hi)
        ok = clear(mid[:, None, None], turn, ray)[:, 0, 0]
        hi, lo = np.where(ok, mid, hi), np.where(ok, lo, mid)
    return hip + (hi * d[:, 0, 0])[:, None] * ray[:, 0, 0]


def within_hip_range(
    target: FloatArray,
    hip: FloatArray,
    facing: FloatArray,
    rig: Rig,
    was: FloatArray | None = None,
    dt: float = 0.0,
) -> FloatArray:
    """``target`` (N, 2, 2) turned about ``hip`` (N, 2, 2), its distance kept, until the
    thigh of a leg reaching it with the knee bent forward swings at most
    ``tuning.hip_flexion`` forward of hanging straight down and ``tuning.hip_extension``
    back (``facing`` (N,)): a foot held up above the hip is reached with the leg as high as
    the hip lets it, not with the thigh swung round behind, the knee then pointing
    backward. Outside the range the target goes to the end on its side of straight up: in
    front of the hip, the front end (a high kick); behind it, the back end (but see
    ``was``). With ``was`` (the held ankles ``dt`` seconds ago), the leg swings round the
    hip from there at most ``tuning.held_foot_swing``, inside the range: from one end to
    the other it swings down under the body, never over the top; and a foot at one end
    stays there while the target is beyond the range, until the target comes into the
    range again."""
    tune, limb = rig.tuning, rig.legs.limb
    flexion, extension = np.radians(tune.hip_flexion), np.radians(tune.hip_extension)
    f = facing[:, None]
    offset = target - hip
    d = np.hypot(offset[..., 0], offset[..., 1])
    # the thigh is α off the hip→ankle line: the line's range is the thigh's less α
    low = -extension - thigh_offset(d, limb)
    high = low + flexion + extension
    # the gap over the top, (high, low + 2π), is split straight up (π from down); where
    # that is not in it (a foot held close in: the thigh far off the hip→ankle line), at
    # the gap's end nearest it
    split = np.clip(np.pi, high, low + 2.0 * np.pi)

    def unwrapped(angle: FloatArray) -> FloatArray:  # into (split − 2π, split]
        return split - 2.0 * np.pi + np.remainder(angle - split, 2.0 * np.pi)

    wanted = unwrapped(swung(offset, f))
    psi = np.clip(wanted, low, high)  # (beyond an end, the nearer end)
    if was is not None and dt > 0.0:
        start, most = np.clip(unwrapped(swung(was - hip, f)), low, high), tune.held_foot_swing * dt
        # beyond the range, a foot at one end stays there: it swings over to the other
        # only once the pointer comes into the range there, not as it passes straight up
        beyond = (wanted < low) | (wanted > high)
        at_low, at_high = start - low <= _AT_END, high - start <= _AT_END
        psi = np.where(beyond & at_low, low, np.where(beyond & at_high, high, psi))
        psi = start + np.clip(psi - start, -most, most)
    turned = hip + d[..., None] * np.stack([f * np.sin(psi), -np.cos(psi)], axis=-1)
    return np.where((psi == wanted)[..., None], target, turned)  # (in range: as it is)


def held_feet(
    target: FloatArray,
    pinned: BoolArray,
    hip: FloatArray,
    facing: FloatArray,
    angle: FloatArray,
    world: World,
    was: FloatArray | None = None,
    dt: float = 0.0,
) -> FloatArray:
    """Where the ``pinned`` (N, 2) feet are held, ankles (N, 2, 2) (the others' rows as
    ``target``): at their ``target`` within the hip's range (:func:`within_hip_range`,
    ``was`` and ``dt`` as there), out of the ground and of what stands on it
    (:func:`clear_of_ground`, soles at ``angle`` (N, 2))."""
    held = within_hip_range(target, hip, facing, world.rig, was, dt)
    n, f = np.nonzero(pinned)
    for last in (False, True):
        held[n, f] = clear_of_ground(
            held[n, f], hip[n, f], angle[n, f], facing[n], world.swing_ground, world.rig.legs
        )
        if not last:  # the hip's range again at the distance the ground left (the thigh's
            # offset from the line to the foot grows as the foot comes in), then the ground
            held = within_hip_range(held, hip, facing, world.rig)
    return held
