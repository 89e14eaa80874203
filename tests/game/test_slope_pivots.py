"""Planted feet hold on every slope the ground editor accepts: turning round (the pivot on
the balls) and the stance roll, walking and running, up and down."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from game.world.character import Crowd
from game.world.rig import load_rig
from game.world.terrain import Terrain
from game.world.terrain_edit import EditLimits, TerrainEditor

RIG = load_rig(Path(__file__).resolve().parents[2] / "assets" / "rig.json")
DT = 1.0 / 60.0
PLANTED_SLIDE_M = 0.0005  # the rule for a planted pivot
STEEPEST = math.degrees(EditLimits.for_rig(RIG).max_grade)


def _ramp(grade_deg: float) -> Terrain:
    """Level ground with a ramp the editor builds: up from x −4 for 6 m at ``grade_deg``, a
    level top, and back down."""
    editor = TerrainEditor(Terrain(np.array([[-12.0, 0.0], [12.0, 0.0]])), EditLimits.for_rig(RIG))
    return editor.ramp(-4.0, grade_deg, 6.0)


def _turns(grade_deg: float, footing) -> tuple[np.ndarray, np.ndarray]:
    """Walkers and runners on the ramp, each going up or down it and turning round at its
    own step; the worst planted slide of each walker, and of each runner."""
    # (start x, first way, steps before the turn): down from near the top, up from the foot
    cast = [(1.0, -1.0, 70), (1.0, -1.0, 83), (0.6, -1.0, 97), (-3.2, 1.0, 70), (-3.2, 1.0, 91)]
    x, way, turn_at = (np.tile(column, 2) for column in zip(*cast, strict=True))
    run = np.repeat([0.0, 1.0], len(cast))
    crowd = Crowd(RIG, _ramp(grade_deg), x, way)
    meter = footing(crowd, DT)
    for step in range(int(turn_at.max()) + 110):
        crowd.step(np.where(step < turn_at, way, -way), run, DT)
        crowd.solve()
        meter.record()
    assert (crowd.facing == -way).all()  # every one turned round
    return meter.slide[run == 0.0], meter.slide[run == 1.0]


@pytest.mark.parametrize("grade_deg", [18.0, STEEPEST])
def test_planted_feet_hold_turning_round_on_a_slope(grade_deg: float, footing) -> None:
    """Turned round on a slope the feet pivot on their balls: facing up it at the end each
    ankle is 2·ball·sin(slope) lower than facing down it, and the pelvis comes down ahead
    of it so the legs reach the balls all the way round. Running, a landing's toe-up roll
    meets the heel lift the leg needs soon after: the foot rolls about its heel to flat,
    then about its ball, never both in one step. Braking uphill, a foot above its pivot
    spot steps down to it (the pivot waits for both)."""
    walking, running = _turns(grade_deg, footing)
    assert walking.max() <= PLANTED_SLIDE_M
    assert running.max() <= PLANTED_SLIDE_M
