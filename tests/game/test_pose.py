"""The pose stage's batched helpers against the per-limb functions they stand for."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from game.world.arms import elbow_poles, limb_poles
from game.world.pose import knee_poles
from game.world.rig import load_rig

RIG = load_rig(Path(__file__).resolve().parents[2] / "assets" / "rig.json")


def test_every_limbs_pole_in_one_call_is_the_elbow_and_knee_poles() -> None:
    rng = np.random.default_rng(3)
    n = 7
    shoulders, hands, hips, ankles = (rng.uniform(-1.0, 1.0, (n, 2, 2)) for _ in range(4))
    hands[0, 1] = shoulders[0, 1]  # a hand on its shoulder: hanging
    spin = np.array([1.0, -1.0, 0.0, 0.5, -0.3, 1.0, -1.0])
    roots = np.concatenate([shoulders, hips], axis=1)
    targets = np.concatenate([hands, ankles], axis=1)
    poles = limb_poles(roots, targets, spin, RIG)
    np.testing.assert_array_equal(poles[:, :2], elbow_poles(shoulders, hands, spin, RIG))
    np.testing.assert_array_equal(poles[:, 2:], knee_poles(hips, ankles, spin, RIG.legs))
