"""Where the hands go: the natural arm swing of a walking body, and a weighted reach.

A hand is either swinging (driven by the legs, counter to the same-side foot) or reaching
for a target (the pointer, a prop), and most of the time something in between: the reach
``weight`` in [0, 1] blends the swing's hand point toward the reach target, so a reach eases
in and out instead of snapping. Wherever they are wanted, the hands get there at the pace of
a real arm, going round the shoulder, never through it (:func:`follow_hands`). No pygame;
every array is ``(N, 2, ...)`` (left, right).
"""

from __future__ import annotations

import functools
import math

import numpy as np

from game.world.easing import all_true, clamp, smoothstep, xy
from game.world.rig import ArmSpec, LimbSpec, Rig
from game.world.types import FloatArray

MAX_SWING = 0.9  # radians: the swing angle of the upper arm never exceeds this either way
_FULL_BEND_SWING = 0.3  # radians: a forward swing this far bends the elbow fully
_WALK_EXTENSION = 0.975  # hand distance from the shoulder, as a fraction of reach, arm hanging
_FORWARD_BEND = 0.08  # ... this much less at the front of the swing (the elbow bends forward)
_RUN_EXTENSION = 0.72  # ... and this at a full run (elbow ~90°: √(0.3² + 0.28²) / 0.58)
HAND_SPEED = 4.0  # m/s: the fastest a hand moves about its shoulder (a running swing's ~3.4)
ELBOW_TURN_RATE = 10.0  # rad/s: the fastest an elbow swings about its shoulder (5 cm a step)
_ABOUT_OPPOSITE = math.radians(150.0)  # a turn this long may go either way round
NEAREST_HAND = 0.25  # of the arm's reach: a hand comes no nearer its shoulder (elbow ~150°)
SHOULDER_EXTENSION = math.radians(50.0)  # the furthest back an arm reaches behind straight down
OVERHEAD_BEHIND = math.radians(20.0)  # ... and behind straight up (a raised arm)


def swing_hands(
    shoulders: FloatArray,
    hips: FloatArray,
    ankles: FloatArray,
    facing: FloatArray,
    run: FloatArray,
    rig: Rig,
) -> FloatArray:
    """The hands of freely swinging arms.

    Parameters
    ----------
    shoulders, hips, ankles : ndarray, shape (N, 2, 2)
        Shoulder, hip and ankle target points (left, right), world metres.
    facing : ndarray, shape (N,)
        +1 facing +x, −1 facing −x.
    run : ndarray, shape (N,)
        How much the body runs (:func:`game.world.gait.run_fraction`, in [0, 1]): it
        bends the elbows toward a run.
    rig : Rig
        Arm lengths and the ``swing`` gain.

    Returns
    -------
    ndarray, shape (N, 2, 2)
        Each hand's point: each arm swings against its own leg (forward while the
        same-side foot is behind the hip), the elbow bending more on the forward swing and
        more the faster the body runs.
    """
    arms = rig.arms
    foot_ahead = ankles[..., 0] - hips[..., 0]  # (N, 2), world x
    # counter to the legs: half the same-side foot's lag plus half the other foot's lead
    # (zero with the feet together, the full gain when they straddle the hip)
    angle = clamp(0.5 * arms.swing * (foot_ahead[:, ::-1] - foot_ahead), -MAX_SWING, MAX_SWING)
    forward = clamp(angle * facing[:, None] / _FULL_BEND_SWING, 0.0, 1.0)
    extension = _WALK_EXTENSION - _FORWARD_BEND * forward
    extension = extension + (_RUN_EXTENSION - extension) * run[:, None]
    distance = extension * arms.limb.reach
    # the hand on a circle about the shoulder, ``angle`` from straight down toward +x
    return shoulders + distance[..., None] * xy(np.sin(angle), -np.cos(angle))


def blend_hands(swing: FloatArray, target: FloatArray, weight: FloatArray) -> FloatArray:
    """The hands ``weight`` (N, 2) of the way from the swing to the reach targets
    (N, 2, 2), eased (smoothstep) so a weight moving at a constant rate starts and
    arrives without a jerk."""
    return swing + smoothstep(weight)[..., None] * (target - swing)


def follow_hands(
    previous: FloatArray,
    wanted: FloatArray,
    shoulders: FloatArray,
    facing: FloatArray,
    dt: float,
    rig: Rig,
) -> FloatArray:
    """The hands this step: from where they were toward where they are wanted, going round
    the shoulder, never through it, at the pace of a real arm.

    A hand's place about its shoulder is an angle (the shoulder→hand direction) and a
    distance, which sets the arm's bend: the angle ``α`` between the upper arm and the
    shoulder→hand line. The hand steps toward the wanted angle the shorter way round (when
    that is about half a turn, the way that does not swing the arm up behind the back, as
    a shoulder cannot) and toward the wanted bend, both by the same fraction of the way, chosen so the elbow swings
    at most ``ELBOW_TURN_RATE`` about the shoulder (it turns by the hand's turn plus the change
    of ``α``: exact, as both change linearly) and the hand moves about ``HAND_SPEED`` at most.
    A hand wanted within those limits is exactly where it is wanted; one wanted nearer its
    shoulder than ``NEAREST_HAND`` of the reach stays at that distance (in the direction it
    had, when wanted on the shoulder itself). Without this, near the shoulder the elbow, a
    whole upper arm away, swings through the angle the hand turns: a pointer passing the
    shoulder, or a reach blending in across it, would swing it half a metre in a step.

    Parameters
    ----------
    previous : ndarray, shape (N, 2, 2)
        Last step's hand points relative to their shoulders.
    wanted, shoulders : ndarray, shape (N, 2, 2)
        Where the hands are wanted this step, and their shoulders (world).
    facing : ndarray, shape (N,)
        +1 facing +x, −1 facing −x.
    dt : float
        Step, seconds.
    rig : Rig
        The arm's bone lengths.

    Returns
    -------
    ndarray, shape (N, 2, 2)
        The hand points (world). A hand wanted beyond reach is there once its arm is straight
        (the solver's soft reach keeps the arm straight whatever the excess).
    """
    limb = rig.arms.limb
    # the bend is a function of the distance on the branch beyond the widest bend
    # (α is largest at d² = L1² − L2²), so a distance and a bend name the same hand
    nearest = max(NEAREST_HAND * limb.reach, math.sqrt(max(limb.upper**2 - limb.lower**2, 0.0)))
    # the hands' places about their shoulders, where they were (0) and where they are
    # wanted (1), each figure for both in one call: distances r and angles a
    places = np.array([previous, wanted - shoulders])  # (2, N, 2, 2)
    r0, r1 = np.hypot(places[..., 0], places[..., 1])
    a0, a1 = np.arctan2(places[..., 1], places[..., 0])
    # a hand wanted on its shoulder has no direction: it keeps the one it had
    a1 = np.where(r1 > 1e-9, a1, a0)
    r1 = np.maximum(r1, nearest)
    turn = (a1 - a0 + np.pi) % (2.0 * np.pi) - np.pi  # the shorter way round, in [−π, π)
    # about half a turn: not through up-behind-the-back (45° above the backward horizontal).
    # The way kept never passes it, so neither does what is left of it on the next step.
    behind_up = np.arctan2(1.0, -facing)[:, None]
    ahead = (behind_up - a0) % (2.0 * np.pi)  # from the hand's angle, counterclockwise
    through = np.where(turn >= 0.0, ahead < turn, ahead > 2.0 * np.pi + turn)
    other_way = turn - np.copysign(2.0 * np.pi, turn)
    turn = np.where((np.abs(turn) > _ABOUT_OPPOSITE) & through, other_way, turn)
    bend0, bend1 = _shoulder_angle(
        np.array([clamp(r0, nearest, limb.reach), np.minimum(r1, limb.reach)]), limb
    )
    elbow_turn = np.abs(turn) + np.abs(bend1 - bend0)
    scale = np.minimum(1.0, ELBOW_TURN_RATE * dt / np.maximum(elbow_turn, 1e-12))
    # the hand's step at that fraction (radially, and along the arc at the mean distance)
    d0, d = _hand_distance(np.array([bend0, bend0 + scale * (bend1 - bend0)]), limb)
    hand_step = np.hypot(d - d0, 0.5 * (d + d0) * scale * turn)
    scale = scale * np.minimum(1.0, HAND_SPEED * dt / np.maximum(hand_step, 1e-12))
    bend = bend0 + scale * (bend1 - bend0)
    # a straight arm's hand goes on to a target beyond reach (no visible motion)
    free = scale >= 1.0  # wanted within the limits: exactly there
    if all_true(free):
        r = r1
    else:
        excess = np.where(bend <= 0.0, np.maximum(r1 - limb.reach, 0.0), 0.0)
        r = np.where(free, r1, _hand_distance(bend, limb) + excess)
    angle = a0 + scale * turn
    return shoulders + r[..., None] * xy(np.cos(angle), np.sin(angle))


def within_shoulder_range(
    targets: FloatArray, shoulders: FloatArray, facing: FloatArray
) -> FloatArray:
    """``targets`` (..., 2) turned about their ``shoulders`` into the directions a shoulder
    can reach (``facing`` (...): +1 or −1): no further back than ``SHOULDER_EXTENSION``
    behind straight down or ``OVERHEAD_BEHIND`` behind straight up. A target in between
    (behind the body at about shoulder height) goes to the nearer of the two, at its own
    distance; a standing body turns round instead (the walk scene)."""
    offset = targets - shoulders
    back, down = -offset[..., 0] * facing, -offset[..., 1]
    behind = np.arctan2(back, down)  # from straight down, positive toward the back
    highest = np.pi - OVERHEAD_BEHIND
    middle = 0.5 * (SHOULDER_EXTENSION + highest)
    limit = np.where(behind < middle, SHOULDER_EXTENSION, highest)
    inside = (behind <= SHOULDER_EXTENSION) | (behind >= highest)
    r = np.hypot(offset[..., 0], offset[..., 1])
    # r (sin limit · back + cos limit · down), back = (−facing, 0), down = (0, −1)
    turned = shoulders + r[..., None] * xy(-np.sin(limit) * facing, -np.cos(limit))
    return np.where(inside[..., None], targets, turned)


def _shoulder_angle(distance: FloatArray, limb: LimbSpec) -> FloatArray:
    """α (radians): the angle at the shoulder between the upper arm and the shoulder→hand
    line, for a hand ``distance`` (within the arm's annulus) from the shoulder."""
    # law of cosines in the shoulder–elbow–hand triangle: cos α = (L1² + d² − L2²) / (2·L1·d)
    cos = (limb.upper**2 + distance**2 - limb.lower**2) / (2.0 * limb.upper * distance)
    return np.arccos(clamp(cos, -1.0, 1.0))  # clamped: rounding may leave ±1 by an ulp


def _hand_distance(bend: FloatArray, limb: LimbSpec) -> FloatArray:
    """The inverse of :func:`_shoulder_angle` on the branch beyond the widest bend."""
    # the same triangle solved for d, the far root: d = L1·cos α + √(L2² − L1²·sin² α)
    sin = np.sin(bend)
    # clamped at 0: at the widest bend the root is 0 up to rounding
    root = np.sqrt(np.maximum(limb.lower**2 - (limb.upper * sin) ** 2, 0.0))
    return limb.upper * np.cos(bend) + root


def elbow_poles(
    shoulders: FloatArray, hands: FloatArray, facing: FloatArray, rig: Rig
) -> FloatArray:
    """Elbow pole locators that keep each elbow a hinge bending the one way an elbow bends.

    The pole sits off the shoulder→hand midpoint along the line's normal on the body's back
    side: the hand direction ``u`` turned a right angle toward the back, ``facing·(u_y,
    −u_x)`` (a hanging arm's elbow points back, a forward-reaching arm's points down, a
    raised arm's forward). It turns with the arm, so the pole never crosses the shoulder→
    hand line as the arm swings and the elbow never flips sides; ``facing`` (N,) may pass
    through 0 during a turn, bringing the pole onto the line as the body squares up.

    ``shoulders``, ``hands`` have shape (N, 2, 2); returns the poles, shape (N, 2, 2).
    """
    return hinge_poles(shoulders, hands, facing[:, None], elbow_pole_distance(rig.arms))


def elbow_pole_distance(arms: ArmSpec) -> float:
    """How far an elbow pole sits off the shoulder→hand midpoint (metres): the rig's
    ``pole_back`` and ``pole_down`` taken as the two legs of a right triangle."""
    return float(np.hypot(arms.pole_back, arms.pole_down))


def hinge_poles(
    roots: FloatArray, ends: FloatArray, side: FloatArray, distance: float | FloatArray
) -> FloatArray:
    """Pole locators ``distance`` off each root→end midpoint along the line's normal: its
    direction ``u`` turned a right angle clockwise, times ``side``, ``side·(u_y, −u_x)``.
    Turning with the limb, a pole never crosses the root→end line: the hinge bends one way.
    An end on its root has no direction: it is taken as hanging straight down.
    ``roots``, ``ends`` (N, L, 2) for L limbs, ``side`` (N, 1) or per limb (N, L),
    ``distance`` one for all or per limb (L, 1); returns (N, L, 2)."""
    offset = ends - roots
    length = np.hypot(offset[..., 0], offset[..., 1])[..., None]
    hanging = np.array([0.0, -1.0])
    u = np.where(length > 1e-9, offset / np.maximum(length, 1e-9), hanging)
    turned = side[..., None] * xy(u[..., 1], -u[..., 0])
    return 0.5 * (roots + ends) + distance * turned


_POLE_SIDE = np.array([1.0, 1.0, -1.0, -1.0])  # per limb: elbows to the back, knees forward


def limb_poles(roots: FloatArray, targets: FloatArray, spin: FloatArray, rig: Rig) -> FloatArray:
    """Every limb's pole locator (N, 4, 2) in one :func:`hinge_poles` call: the arms' as
    :func:`elbow_poles` places them, the legs' as :func:`game.world.pose.knee_poles`. ``roots``,
    ``targets`` (N, 4, 2) in :data:`game.world.rig.LIMBS` order, ``spin`` (N,)."""
    distances = _pole_distances(rig.arms, rig.legs.pole_forward)
    return hinge_poles(roots, targets, spin[:, None] * _POLE_SIDE, distances)


@functools.lru_cache(maxsize=8)  # one rig's constants, asked for every step
def _pole_distances(arms: ArmSpec, leg: float) -> FloatArray:
    """Each limb's pole distance off its root→target midpoint (the knees' ``leg``),
    shape (4, 1), read-only."""
    arm = elbow_pole_distance(arms)
    distances = np.array([arm, arm, leg, leg])[:, None]
    distances.setflags(write=False)
    return distances
