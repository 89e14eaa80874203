"""The body on the ladder (no pygame): where each limb's end goes on a rung, the paths a limb
takes between its places, and the climbing pose for the solve (N = 1, facing +x).

Hands grip rungs and feet stand on rungs, each limb's end a target for the analytic solver
with its pole hint (knees forward toward the ladder, elbows backward of the arm, as walking).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from game.world.arms import HAND_SPEED, elbow_poles
from game.world.character import PoseInputs, knee_poles
from game.world.easing import smoothstep
from game.world.props.ladder_asset import Ladder
from game.world.props.ladder_sizes import ClimbSizes
from game.world.rig import BodySpec, Rig
from game.world.types import FloatArray


@dataclass(frozen=True, slots=True)
class Holds:
    """Where a body's limbs go on a ladder: ``sizes`` are its climbing lengths
    (:meth:`ClimbSizes.for_rig`)."""

    ladder: Ladder
    rig: Rig
    sizes: ClimbSizes

    def rung_point(self, limb: int, rung: int) -> FloatArray:
        """``limb``'s end on ``rung``: a hand on the rung, an ankle above it, the sole's
        ball on the rung (LIMBS order)."""
        if limb < 2:
            return np.array([self.ladder.x, self.ladder.rungs[rung]])
        ankle = self.rig.legs.ankle_height
        return np.array([self.ladder.x - self.sizes.foot_toe_in, self.ladder.rungs[rung] + ankle])

    def rail_point(self, height: float) -> FloatArray:
        """A hand on the far rail (the loft's side) at ``height`` (world y)."""
        return np.array([self.ladder.x + self.ladder.width / 2, height])

    def rest_point(self, pelvis: FloatArray, limb: int) -> FloatArray:
        """Hand ``limb``'s resting place off the rungs, hanging beside the climbing
        ``pelvis``: most of an arm's reach below the shoulder."""
        side = -1.0 if limb == 0 else 1.0
        drop = self.rig.body.spine - 0.92 * self.rig.arms.limb.reach
        return pelvis + np.array([self.sizes.rest_side * side, drop])

    def arc(self, move_from: FloatArray, move_to: FloatArray, u: float) -> FloatArray:
        """A limb ``u`` of the way from rung to rung: eased, swung out from the rails."""
        s = float(smoothstep(u))
        bulge = math.sin(math.pi * u)
        out = np.array([-self.sizes.arc_out * bulge, self.sizes.arc_rise * bulge])
        return move_from + (move_to - move_from) * s + out


def shoulders(pelvis: FloatArray, body: BodySpec) -> FloatArray:
    """The shoulders (2, 2) over the climbing ``pelvis`` (the chest ``body.spine`` above it)."""
    chest = pelvis + np.array([0.0, body.spine])
    return chest + np.array([[-1.0], [1.0]]) * np.array([body.shoulder_depth, 0.0])


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
        gaze=np.zeros(1),
    )
