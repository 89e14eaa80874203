"""The swinging feet's paths computed on their rows alone are the whole batch's numbers."""

from __future__ import annotations

import copy

import numpy as np

from game.scene import ASSETS_DIR
from game.world.character import Crowd
from game.world.gait import run_fraction
from game.world.rig import load_rig
from game.world.swing import _FEW_PLANTED, swing_pose, swinging_poses
from game.world.terrain import Terrain


def test_the_swinging_feet_on_their_own_rows_move_as_in_the_whole_batch() -> None:
    rig = load_rig(ASSETS_DIR / "rig.json")
    # a crowd walking over stairs and a slope, some running, facing both ways
    ground = Terrain(
        np.array(
            [[-30.0, 0.0], [0.0, 0.0], [0.01, 0.16], [0.3, 0.16], [0.31, 0.32]]
            + [[0.6, 0.32], [4.0, 1.0], [30.0, 1.0]]
        )
    )
    count = 2 * _FEW_PLANTED
    rng = np.random.default_rng(3)
    facing = np.where(rng.random(count) < 0.5, -1.0, 1.0)
    crowd = Crowd(rig, ground, rng.uniform(-6.0, 6.0, count), facing)
    for _ in range(40):
        crowd.step(facing, (rng.random(count) < 0.3).astype(float), 1.0 / 60.0)
    feet, state = crowd.feet, crowd.state
    swinging = feet.swinging
    assert 0 < swinging.sum() and (~swinging).sum() > _FEW_PLANTED
    run = run_fraction(state.vx, rig.gait)
    whole = swing_pose(copy.deepcopy(feet), state.facing, ground, rig.legs, 1.0 / 60.0, run)
    rows = swinging_poses(feet, swinging, state.facing, ground, rig.legs, 1.0 / 60.0, run)
    for a, b in zip(whole[:4], rows[:4], strict=True):
        assert np.array_equal(a[swinging], b[swinging])
    assert np.array_equal(whole[4], rows[4])  # hold: every foot's
