"""Where the hands go: the natural arm swing of a walking body, and a weighted reach.

A hand is either swinging (driven by the legs, counter to the same-side foot) or reaching
for a target (the pointer, a prop), and most of the time something in between: the reach
``weight`` in [0, 1] blends the swing's hand point toward the reach target, so a reach eases
in and out instead of snapping. No pygame; every array is ``(N, 2, ...)`` (left, right).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from game.world.easing import clamp, smoothstep
from game.world.rig import Rig

FloatArray = NDArray[np.float64]

MAX_SWING = 0.9  # radians: the swing angle of the upper arm never exceeds this either way
_FULL_BEND_SWING = 0.3  # radians: a forward swing this far bends the elbow fully
_WALK_EXTENSION = 0.975  # hand distance from the shoulder, as a fraction of reach, arm hanging
_FORWARD_BEND = 0.08  # ... this much less at the front of the swing (the elbow bends forward)
_RUN_EXTENSION = 0.72  # ... and this at a full run (elbow ~90°: √(0.3² + 0.28²) / 0.58)


def swing_hands(
    shoulders: FloatArray,
    hips: FloatArray,
    ankles: FloatArray,
    facing: FloatArray,
    speed: FloatArray,
    rig: Rig,
) -> FloatArray:
    """The hands of freely swinging arms.

    Parameters
    ----------
    shoulders, hips, ankles : ndarray, shape (N, 2, 2)
        Shoulder, hip and ankle target points (left, right), world metres.
    facing : ndarray, shape (N,)
        +1 facing +x, −1 facing −x.
    speed : ndarray, shape (N,)
        Horizontal body speed, m/s (its size bends the elbows toward a run).
    rig : Rig
        Arm lengths and the ``swing`` gain.

    Returns
    -------
    ndarray, shape (N, 2, 2)
        Each hand's point: each arm swings against its own leg (forward while the
        same-side foot is behind the hip), the elbow bending more on the forward swing and
        more the faster the body runs.
    """
    arms, gait = rig.arms, rig.gait
    foot_ahead = ankles[..., 0] - hips[..., 0]  # (N, 2), world x
    # counter to the legs: half the same-side foot's lag plus half the other foot's lead
    # (zero with the feet together, the full gain when they straddle the hip)
    angle = clamp(0.5 * arms.swing * (foot_ahead[:, ::-1] - foot_ahead), -MAX_SWING, MAX_SWING)
    forward = clamp(angle * facing[:, None] / _FULL_BEND_SWING, 0.0, 1.0)
    span = max(gait.run_speed - gait.walk_speed, 1e-6)
    run = clamp((np.abs(speed) - gait.walk_speed) / span, 0.0, 1.0)[:, None]
    extension = _WALK_EXTENSION - _FORWARD_BEND * forward
    extension = extension + (_RUN_EXTENSION - extension) * run
    distance = extension * arms.limb.reach
    # the hand on a circle about the shoulder, ``angle`` from straight down toward +x
    return shoulders + distance[..., None] * np.stack([np.sin(angle), -np.cos(angle)], axis=-1)


def blend_hands(swing: FloatArray, target: FloatArray, weight: FloatArray) -> FloatArray:
    """The hands ``weight`` (N, 2) of the way from the swing to the reach targets
    (N, 2, 2), eased (smoothstep) so a weight moving at a constant rate starts and
    arrives without a jerk."""
    return swing + smoothstep(weight)[..., None] * (target - swing)


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
    arms = rig.arms
    offset = hands - shoulders
    length = np.hypot(offset[..., 0], offset[..., 1])[..., None]
    hanging = np.array([0.0, -1.0])  # a hand on the shoulder has no direction: hang it
    u = np.where(length > 1e-9, offset / np.maximum(length, 1e-9), hanging)
    back = facing[:, None, None] * np.stack([u[..., 1], -u[..., 0]], axis=-1)
    distance = float(np.hypot(arms.pole_back, arms.pole_down))
    return 0.5 * (shoulders + hands) + distance * back
