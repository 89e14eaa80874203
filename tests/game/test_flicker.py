"""A walk wish that comes and goes faster than a step (a key tapped quickly, or held input
lost on some steps): the walker keeps its feet under it and its pelvis up, in 2-D and 3-D."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from game.world.character import Crowd
from game.world.heightfield import Heightfield
from game.world.rig import load_rig
from game.world.terrain import Terrain
from game.world.walk3d import Walker3D

RIG = load_rig(Path(__file__).resolve().parents[2] / "assets" / "rig.json")
DT = 1.0 / 60.0
STEPS = 300  # 5 s
# steps wished, not: quicker than a step, and a key tapped at 1.5-5 Hz
PATTERNS = [(on, off) for on in range(1, 9) for off in range(1, 9)]
TAPPED = [(on, off) for on in (6, 9, 12, 20) for off in (6, 9, 12, 20)]
PATTERNS += TAPPED
HELD = (1, 0)  # the walk key held: the reference stride
STANDING_PELVIS_M = 0.9  # about the rig's standing pelvis over the ground
LOWEST_PELVIS_M = 0.75  # a walking pelvis dips a few centimetres, a crouch is not asked for


def _wished(step: int, on: int, off: int) -> bool:
    return step % (on + off) < on


def test_a_flickering_walk_wish_steps_with_the_pelvis_up_and_the_knees_under_the_hips() -> None:
    """Tapped or flickering, the walk goes in steps: no further a footfall than a held
    walk's stride (not a glide on one foot while the other hovers ahead), and no swing
    longer in the air than two of a held walk's."""
    patterns = [*PATTERNS, HELD]
    ground = Terrain(np.array([[-5.0, 0.0], [30.0, 0.0]]))
    crowd = Crowd(RIG, ground, np.zeros(len(patterns)), np.ones(len(patterns)))
    lowest = np.full(len(patterns), np.inf)
    highest_knee = np.full(len(patterns), -np.inf)
    lifted, longest = np.full((len(patterns), 2), -1), np.zeros(len(patterns))
    for i in range(STEPS):
        move = np.array([1.0 if _wished(i, on, off) else 0.0 for on, off in patterns])
        crowd.step(move, np.zeros(len(patterns)), DT)
        solution = crowd.solve()
        lowest = np.minimum(lowest, crowd.y)
        knees = solution.elbow[:, 2:, 1] - crowd.pose.roots[:, 2:, 1]
        highest_knee = np.maximum(highest_knee, knees.max(axis=1))
        up = crowd.feet.swinging
        lifted = np.where(up & (lifted < 0), i, lifted)
        longest = np.maximum(longest, np.where(up, i - lifted, 0).max(axis=1) * DT)
        lifted = np.where(up, lifted, -1)
    assert lowest.min() > LOWEST_PELVIS_M, dict(zip(patterns, lowest.round(2), strict=True))
    assert highest_knee.max() < 0.0
    assert (crowd.x > 0.3).all()  # each got somewhere
    assert (crowd.feet.steps > 0).all()
    per_step = crowd.x / crowd.feet.steps
    assert per_step[:-1].max() <= per_step[-1], dict(zip(patterns, per_step.round(2), strict=True))
    assert longest[:-1].max() <= 2.0 * longest[-1], dict(
        zip(patterns, longest.round(2), strict=True)
    )


def test_a_flickering_wish_in_3d_keeps_the_pelvis_up_and_the_knees_under_the_hips() -> None:
    field = Heightfield((0.0, 0.0), 0.5, np.zeros((41, 41)))  # 20 m square, flat
    for on, off in [(1, 1), (4, 4)]:
        walker = Walker3D(RIG, field, (5.0, 10.0), 0.0)
        for i in range(STEPS):
            walker.step((1.0, 0.0) if _wished(i, on, off) else (0.0, 0.0), False, DT)
            pose = walker.pose
            assert pose.pelvis[1] > LOWEST_PELVIS_M, (on, off, i)
            assert (pose.elbows[2:, 1] < pose.roots[2:, 1]).all(), (on, off, i)
        assert walker.s > 0.5, (on, off)
