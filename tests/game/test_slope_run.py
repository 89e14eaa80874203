"""A run reads as a run on slopes: both feet visibly off the ground for a share of the time,
up and down ramps of up to 10°, and the gait's timing and the running swing's rule that give
it. Each test builds its own ramp."""

from __future__ import annotations

import numpy as np
import pytest

from game.scene import ASSETS_DIR
from game.world.character import Crowd
from game.world.gait import Pace
from game.world.rig import load_rig
from game.world.swing import carried
from game.world.terrain import Terrain
from game.world.timing import timed

RIG = load_rig(ASSETS_DIR / "rig.json")
DT = 1.0 / 60.0
CLEAR = 0.02  # m: a sole this far above the ground is seen off it (4 px in the walk view)
FLIGHT = 0.15  # the least share of a run's time with both feet clear of the ground
RAMP = 14.0  # m along x


def _ramp(angle_deg: float) -> Terrain:
    """Flat, a ramp rising at ``angle_deg`` from x = 0 to ``RAMP``, flat."""
    top = RAMP * np.tan(np.radians(angle_deg))
    return Terrain(np.array([[-12.0, 0.0], [0.0, 0.0], [RAMP, top], [RAMP + 12.0, top]]))


def _clear_flight(angle_deg: float) -> tuple[float, float]:
    """The share of steps on the ramp's middle with every sole point of both feet at
    least ``CLEAR`` above the ground, for a walker running up it and one running down
    (stepped until both have run past the middle, at most 9 s)."""
    terrain = _ramp(angle_deg)
    crowd = Crowd(RIG, terrain, np.array([-6.0, RAMP + 6.0]), np.array([1.0, -1.0]))
    clear, counted = np.zeros(2), np.zeros(2)
    beyond = np.array([RAMP - 3.0, -3.0])  # the middle's far end, times the way run
    for _ in range(540):
        if (crowd.x * crowd.facing >= beyond).all():
            break
        crowd.step(crowd.facing.copy(), np.ones(2), DT)
        crowd.solve()
        soles = crowd.pose.soles(crowd.solution.hand[:, 2:], RIG)  # (2, 2, 3, 2)
        gap = (soles[..., 1] - terrain.height_at(soles[..., 0])).min(axis=-1)
        on = (crowd.x > 3.0) & (crowd.x < RAMP - 3.0)
        counted += on
        clear += on & (gap >= CLEAR).all(axis=1)
    assert (counted > 120).all()  # two seconds and more of each run measured
    up, down = clear / counted
    return float(up), float(down)


@pytest.mark.parametrize("angle", [0.0, 5.0, 10.0])
def test_a_run_up_or_down_a_slope_of_up_to_10_degrees_has_both_feet_clear_of_the_ground(
    angle: float,
) -> None:
    up, down = _clear_flight(angle)
    assert up >= FLIGHT, up
    assert down >= FLIGHT, down


def test_a_run_held_below_run_speed_by_a_slope_is_timed_as_a_run() -> None:
    # on a 10° ramp the climb speed caps a run below run_speed: the cadence and duty
    # factor stay a run's (the steps shorten), so a fifth of the time is still flight
    gait = RIG.gait
    crowd = Crowd(RIG, _ramp(10.0), np.array([2.0]), np.array([1.0]))
    for _ in range(180):
        crowd.step(np.ones(1), np.ones(1), DT)
    s, w = crowd.state, crowd.world
    assert s.sprinting.all() and abs(float(s.vx[0])) < 0.95 * gait.run_speed
    pace = Pace.at(timed(w, s, s.vx), np.zeros(1), gait)
    assert pace.duty[0] == pytest.approx(gait.duty_run, abs=0.01)
    # the same speed on the flat is timed as it is
    flat = Crowd(RIG, _ramp(0.0), np.array([-6.0]), np.array([1.0]))
    for _ in range(180):
        flat.step(np.ones(1), np.ones(1), DT)
    slow = np.full(1, float(s.vx[0]))
    assert timed(flat.world, flat.state, slow)[0] == pytest.approx(slow[0])


def test_a_running_swing_holds_the_foot_up_until_late_and_lands_at_rest() -> None:
    u = np.linspace(0.0, 1.0, 101)
    lift = carried(u)
    assert lift[0] == 0.0 and lift[-1] == 0.0
    # up within the first fifth, still up at four fifths of the swing
    assert (lift[(u >= 0.2) & (u <= 0.8)] > 0.95).all()
    # arriving without a jolt: the last hundredth of the swing moves it under 2 %
    assert lift[-2] < 0.02
