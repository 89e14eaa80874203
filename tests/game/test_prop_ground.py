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
    """A stand-in prop: its footprint box, whether it rolls, its name (each prop's own),
    and (a round one) its centre and radius."""

    box: tuple[float, float, float]
    rolls: bool
    name: str = "stand-in"
    at: tuple[float, float] | None = None
    radius: float = 0.11

    def footprint(self) -> np.ndarray:
        return np.array([self.box])

    def centre(self) -> np.ndarray | None:
        return None if self.at is None else np.array(self.at)

    def under(self, point: np.ndarray, radius: float) -> bool:
        return self.at is not None and np.hypot(*(point - self.at)) <= self.radius + radius


def test_a_rolling_prop_meets_the_others_lying_on_the_floor_and_a_resting_one_does_not() -> None:
    ball = Lying((-0.11, 0.11, 0.22), rolls=True, name="ball")
    cup = Lying((1.0, 1.1, 0.1), rolls=False, name="cup")
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


def test_a_box_come_into_the_way_where_a_rolling_prop_lies_is_no_ground_to_it_until_clear() -> None:
    # the door shut over the ball (or a cup set down on it) would lift it onto its top:
    # that box is no ground to the ball until the ball is clear of it; a box that was in
    # the way before the ball rolled against it stays ground (a contact's millimetres in)
    ball = Lying((-0.11, 0.11, 0.22), rolls=True, name="ball", at=(0.0, 0.11))
    door = Lying((-0.3, 0.6, 2.0), rolls=False, name="door")
    props, ground = [ball, door], PropGround()
    shut, opened = [Intent(), Intent(solid=True)], [Intent(), Intent()]
    assert ground.grounds(FLOOR, props, opened)[0] is FLOOR
    assert ground.grounds(FLOOR, props, shut)[0] is FLOOR  # shut over the ball
    ball.at = (0.5, 0.11)  # rolled part of the way out: still in the panel's span
    assert ground.grounds(FLOOR, props, shut)[0] is FLOOR
    ball.at = (0.75, 0.11)  # clear of it: now the panel is in its way
    clear = ground.grounds(FLOOR, props, shut)[0]
    assert float(clear.height_at(0.0)) == 2.0
    ball.at = (0.705, 0.11)  # rolled back against it, 5 mm in: it stays in the way
    assert ground.grounds(FLOOR, props, shut)[0] is clear


def test_a_box_that_only_touches_a_rolling_prop_is_ground_to_it_from_the_first_step() -> None:
    # the ball lying against the shut door as the scene opens: the door is new this step,
    # but it does not reach into the ball, so it is a wall to it at once
    ball = Lying((0.0, 0.22, 0.22), rolls=True, name="ball", at=(0.11, 0.11))
    door = Lying((-0.9, 0.0, 2.0), rolls=False, name="door")
    props, down = [ball, door], [Intent(), Intent(solid=True)]
    (for_ball, _) = PropGround().grounds(FLOOR, props, down)
    assert float(for_ball.height_at(-0.45)) == 2.0
