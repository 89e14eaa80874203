"""The body on the ladder (no pygame): where each limb's end goes on a rung, the paths a limb
takes between its places, and the climbing pose for the solve (N = 1, facing +x).

Hands grip rungs and feet stand on rungs, each limb's end a target for the analytic solver
with its pole hint (knees forward toward the ladder, elbows backward of the arm, as walking).
"""

from __future__ import annotations

import math

import numpy as np

from game.world.arms import HAND_SPEED, elbow_poles
from game.world.character import PoseInputs, knee_poles
from game.world.easing import smoothstep
from game.world.props.base import FloatArray
from game.world.props.ladder_asset import Ladder
from game.world.rig import BodySpec, Rig

FOOT_TOE_IN_M = 0.08  # ankles this far before the rails (the sole's ball on the rung)


def rung_point(ladder: Ladder, rig: Rig, limb: int, rung: int) -> FloatArray:
    """``limb``'s end on ``rung``: a hand on the rung, an ankle above it (LIMBS order)."""
    if limb < 2:
        return np.array([ladder.x, ladder.rungs[rung]])
    ankle = rig.legs.ankle_height
    return np.array([ladder.x - FOOT_TOE_IN_M, ladder.rungs[rung] + ankle])


def rest_point(pelvis: FloatArray, rig: Rig, limb: int) -> FloatArray:
    """Hand ``limb``'s resting place off the rungs, hanging beside the climbing ``pelvis``."""
    side = -1.0 if limb == 0 else 1.0
    return pelvis + np.array([0.02 * side, 0.5 - 0.92 * rig.arms.limb.reach])


def shoulders(pelvis: FloatArray, body: BodySpec) -> FloatArray:
    """The shoulders (2, 2) over the climbing ``pelvis`` (the chest ``body.spine`` above it)."""
    chest = pelvis + np.array([0.0, body.spine])
    return chest + np.array([[-1.0], [1.0]]) * np.array([body.shoulder_depth, 0.0])


def arc(move_from: FloatArray, move_to: FloatArray, u: float) -> FloatArray:
    """A limb ``u`` of the way from rung to rung: eased, swung out from the rails."""
    s = float(smoothstep(u))
    out = np.array([-0.1 * math.sin(math.pi * u), 0.04 * math.sin(math.pi * u)])
    return move_from + (move_to - move_from) * s + out


def swing(shoulder: FloatArray, on: FloatArray, off: FloatArray, u: float) -> FloatArray:
    """A hand ``u`` of the way between its rung ``on`` and its free place ``off``, swung
    about its ``shoulder`` (angle and distance eased, the short way round). Along the chord
    it would pass by the shoulder, folding the arm through its dead zone and swinging the
    elbow round in a step."""
    (ax, ay), (bx, by) = on - shoulder, off - shoulder
    start = math.atan2(ay, ax)
    turn = math.remainder(math.atan2(by, bx) - start, math.tau)  # in [-pi, pi]
    s = float(smoothstep(u))
    angle = start + turn * s
    radius = math.hypot(ax, ay) + (math.hypot(bx, by) - math.hypot(ax, ay)) * s
    return shoulder + radius * np.array([math.cos(angle), math.sin(angle)])


def swing_seconds(shoulder: FloatArray, move_from: FloatArray, move_to: FloatArray) -> float:
    """The least time a hand's :func:`swing` takes at ``HAND_SPEED``: its path about the
    shoulder, turn times the larger radius plus the change of radius, times smoothstep's
    peak speed (1.5 its mean)."""
    (ax, ay), (bx, by) = move_from - shoulder, move_to - shoulder
    turn = abs(math.remainder(math.atan2(by, bx) - math.atan2(ay, ax), math.tau))
    radii = math.hypot(ax, ay), math.hypot(bx, by)
    return 1.5 * (turn * max(radii) + abs(radii[1] - radii[0])) / HAND_SPEED


def climb_pose(rig: Rig, pelvis_at: FloatArray, ends: FloatArray) -> PoseInputs:
    """The climbing pose for the solve (N = 1, facing +x): the pelvis at ``pelvis_at`` (2,),
    the limbs' ends at ``ends`` (4, 2), knee poles forward of the legs toward the ladder,
    elbow poles backward of the arms."""
    body, legs = rig.body, rig.legs
    pelvis = pelvis_at[None]
    up = np.array([0.0, 1.0])
    chest = pelvis + body.spine * up
    head = chest + (body.neck + body.head_radius) * up
    side = np.array([[-1.0], [1.0]])
    hips = pelvis + side * np.array([body.hip_depth, 0.0])
    shoulders_at = shoulders(pelvis_at, body)
    roots = np.concatenate([shoulders_at, hips])
    elbows = elbow_poles(shoulders_at[None], ends[None, :2], np.ones(1), rig)[0]
    knees = knee_poles(hips[None], ends[None, 2:], np.ones(1), legs)[0]
    return PoseInputs(
        pelvis=pelvis,
        chest=chest,
        head=head,
        facing=np.ones(1),
        spin=np.ones(1),
        roots=roots[None],
        targets=ends[None].copy(),
        poles=np.concatenate([elbows, knees])[None],
        pole_on=np.ones((1, 4), dtype=bool),
        foot_angle=np.zeros((1, 2)),
        foot_bend=np.zeros((1, 2)),
    )
