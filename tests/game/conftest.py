"""Shared by the walker tests: the feet's figures measured as the trace shows them."""

from __future__ import annotations

import numpy as np
import pytest

from game.world.character import LEGS, Crowd
from game.world.feet import sole_penetration
from game.world.terrain import Terrain

REGROUND_M = 1e-4  # metres the ground under a sole may change and count as unmoved


class Footing:
    """A crowd's feet and pelvises step by step as the trace shows them (the solved soles'
    heel, ball and toe; the pose's pelvis), worst figures per character (N,):

    - ``depth``: the deepest sole point or segment under the ground in force;
    - ``slide``: the largest planted pivot slide, the contact point that moved least of a
      foot planted at both steps; an edit that moved the ground within a foot's length of
      its ball ends its planted interval (the foot re-plants: its contact moves with the
      ground);
    - ``speed``: the fastest pelvis, m/s along x.

    Call :meth:`record` after each ``Crowd.solve``; ``old`` is the ground before an edit
    made this step.
    """

    def __init__(self, crowd: Crowd, dt: float) -> None:
        self.crowd, self.dt = crowd, dt
        n = crowd.count
        self.depth, self.slide, self.speed = np.zeros(n), np.zeros(n), np.zeros(n)
        self._last: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None

    def record(self, old: Terrain | None = None) -> None:
        crowd = self.crowd
        soles = crowd.pose.soles(crowd.solution.hand[:, LEGS], crowd.rig)  # (N, 2, 3, 2)
        planted = crowd.feet.planted.copy()
        pelvis = crowd.pose.pelvis[:, 0].copy()
        depth = sole_penetration(crowd.terrain, soles).max(axis=1)
        self.depth = np.maximum(self.depth, depth)
        if self._last is not None:
            last_soles, last_planted, last_pelvis = self._last
            moved = np.hypot(*np.moveaxis(soles - last_soles, -1, 0)).min(axis=-1)
            held = planted & last_planted
            if old is not None:  # the ground within a foot's length of its ball
                length = crowd.rig.legs.heel + crowd.rig.legs.toe
                xs = last_soles[..., 1, 0, None] + np.linspace(-length, length, 9)
                change = np.abs(crowd.terrain.height_at(xs) - old.height_at(xs)).max(axis=-1)
                held &= change <= REGROUND_M
            self.slide = np.maximum(self.slide, np.where(held, moved, 0.0).max(axis=1))
            speed = np.abs(pelvis - last_pelvis) / self.dt
            self.speed = np.maximum(self.speed, speed)
        self._last = (soles, planted, pelvis)


@pytest.fixture(scope="session")
def footing() -> type[Footing]:
    """The :class:`Footing` meter."""
    return Footing
