"""The walk scene's hero as last solved, for whoever reads the solve in a step (the props,
the hands, the feel meter), and the player's walk keys as a step takes them (no pygame)."""

from __future__ import annotations

import math
from dataclasses import dataclass

from game.world.character import ARMS, LEGS, Crowd
from game.world.types import FloatArray


@dataclass(frozen=True, slots=True)
class SolvedHero:
    """The hero's joints as last solved (world metres), read-only: each pair ``(2, 2)``
    (left, right), made once a solve for the props, the hands and the feel meter alike.

    Attributes
    ----------
    shoulders, elbows, hands : ndarray, shape (2, 2)
        The arms' roots and solved joints.
    hips, knees, ankles : ndarray, shape (2, 2)
        The legs' roots and solved joints.
    feet_targets : ndarray, shape (2, 2)
        The legs' ankle targets as posed.
    pelvis : ndarray, shape (2,)
    soles : ndarray, shape (2, 3, 2)
        Each foot's heel, ball and toe points.
    """

    shoulders: FloatArray
    elbows: FloatArray
    hands: FloatArray
    hips: FloatArray
    knees: FloatArray
    ankles: FloatArray
    feet_targets: FloatArray
    pelvis: FloatArray
    soles: FloatArray


def solved_hero(crowd: Crowd) -> SolvedHero:
    """Character 0 of ``crowd`` as last solved (its ``solution`` of its ``pose``)."""
    sol, pose = crowd.solution, crowd.pose
    roots, elbows, hands = (
        _read_only(pose.roots[0]),
        _read_only(sol.elbow[0]),
        _read_only(sol.hand[0]),
    )
    return SolvedHero(
        shoulders=roots[ARMS],
        elbows=elbows[ARMS],
        hands=hands[ARMS],
        hips=roots[LEGS],
        knees=elbows[LEGS],
        ankles=hands[LEGS],
        feet_targets=_read_only(pose.targets[0, LEGS]),
        pelvis=_read_only(pose.pelvis[0]),
        soles=_read_only(pose.soles(sol.hand[:1, LEGS], crowd.rig)[0]),
    )


def walk_keys(move: float) -> float:
    """The player's walk keys ``move`` as a step takes them: in [−1, 1], NaN read as 0 and
    ±inf as the ends. :func:`~game.world.easing.finite_clamp` of one float, on the float
    (its arrays cost many times the comparisons, every step)."""
    value = float(move)
    return 0.0 if math.isnan(value) else min(max(value, -1.0), 1.0)


def _read_only(values: FloatArray) -> FloatArray:
    """A read-only copy of ``values``: shared by whoever reads the solve, written by none."""
    copy = values.copy()
    copy.setflags(write=False)
    return copy
