"""The ground each prop moves on (game.scenes.prop_ground): a prop that rolls meets the
others lying on the floor as boxes; one that does not moves on the bare ground."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from game.scenes.prop_ground import PropGround
from game.world.props.base import Intent
from game.world.terrain import Terrain

FLOOR = Terrain(np.array([[-5.0, 0.0], [5.0, 0.0]]))


@dataclass
class Lying:
    """A stand-in prop: its footprint box and whether it rolls."""

    box: tuple[float, float, float]
    rolls: bool
    name: str = "stand-in"

    def footprint(self) -> np.ndarray:
        return np.array([self.box])


def test_a_rolling_prop_meets_the_others_lying_on_the_floor_and_a_resting_one_does_not() -> None:
    ball, cup = Lying((-0.11, 0.11, 0.22), rolls=True), Lying((1.0, 1.1, 0.1), rolls=False)
    props, down = [ball, cup], [Intent(keep_off=True), Intent(keep_off=True)]
    ground = PropGround()
    for_ball, for_cup = ground.grounds(FLOOR, props, down)
    assert float(for_ball.height_at(1.05)) == 0.1  # the cup stands in the ball's way
    assert float(for_ball.height_at(0.0)) == 0.0  # (not the ball itself)
    assert for_cup is FLOOR  # a cup let go over the ball falls to the floor, not onto a box
    # the same boxes again: the same ground object (a prop re-reads only a new one)
    assert ground.grounds(FLOOR, props, down)[0] is for_ball
    # the cup picked up (no longer kept off): the ball's way is clear
    (clear, _) = ground.grounds(FLOOR, props, [Intent(keep_off=True), Intent()])
    assert clear is FLOOR
