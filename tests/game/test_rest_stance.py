"""Standing at rest on stairs: the pelvis over the support of the planted feet (both on one
tread: over it; on two treads: between them), on every tread of a flight, stopped walking
or running, up or down. Each test builds its own ground; the stance is read from the pose."""

from __future__ import annotations

import numpy as np
import pytest

from game.scene import ASSETS_DIR
from game.world.character import Crowd
from game.world.feet import MIN_RISER, sole_points
from game.world.rest import support_span
from game.world.rig import load_rig
from game.world.sample_grounds import stairs_up_and_down
from game.world.terrain import Terrain

RIG = load_rig(ASSETS_DIR / "rig.json")
DT = 1.0 / 60.0
STANCE = 120  # steps: 2 s with no intent before the stance is read
CONTACT = 0.01  # m: a sole point this close to the ground touches it
MARGIN = 0.02  # m: how far outside its feet's support a resting pelvis may be


def _support_offset(crowd: Crowd) -> np.ndarray:
    """The posed pelvis's horizontal distance (N,) outside the interval spanned by the
    planted feet's sole points touching the ground (0 inside), from the solved ankles."""
    feet, pose = crowd.feet, crowd.pose
    ankles = crowd.solution.hand[:, 2:]
    soles = sole_points(ankles, pose.foot_angle, pose.foot_bend, pose.spin[:, None], RIG.legs)
    x, y = soles[..., 0], soles[..., 1]
    touching = (y - crowd.terrain.height_at(x) <= CONTACT) & feet.planted[..., None]
    lo = np.where(touching, x, np.inf).min(axis=(1, 2))
    hi = np.where(touching, x, -np.inf).max(axis=(1, 2))
    px = pose.pelvis[:, 0]
    return np.maximum(np.maximum(lo - px, px - hi), 0.0)


@pytest.mark.parametrize(("rise", "tread"), [(0.17, 0.30), (0.19, 0.26)])
def test_at_rest_on_every_tread_of_a_flight_the_pelvis_stands_over_its_feet(
    rise: float, tread: float
) -> None:
    # walkers walk and run up and down the flight from either side, each letting go at
    # its own moment, so that the stops fall on every tread
    terrain = stairs_up_and_down(rise, tread, 5, landing=3.0)
    end = float(terrain.xs[-1])
    frames = np.arange(30, 420, 6)
    starts = [(-2.0, 1.0), (end - 4.0, -1.0)]
    x = np.array([x for x, _ in starts for _ in frames for _ in (0, 1)], dtype=float)
    facing = np.array([f for _, f in starts for _ in frames for _ in (0, 1)], dtype=float)
    run = np.tile([0.0, 1.0], len(x) // 2)
    go = np.tile(np.repeat(frames, 2), len(starts))
    crowd = Crowd(RIG, terrain, x, facing)
    offset, planted = np.full(len(x), np.inf), np.zeros((len(x), 2), dtype=bool)
    stood_on = np.full((len(x), 2), np.nan)
    for k in range(int(go.max()) + STANCE):
        moving = k < go
        crowd.step(np.where(moving, facing, 0.0), np.where(moving, run, 0.0), DT)
        crowd.solve()
        rested = k == go + STANCE - 1
        offset = np.where(rested, _support_offset(crowd), offset)
        planted = np.where(rested[:, None], crowd.feet.planted, planted)
        stood_on = np.where(rested[:, None], crowd.feet.lock[..., 0], stood_on)
    assert planted.all()
    # every tread of the flight has had a walker's foot on it at rest
    risers = terrain.risers(MIN_RISER, 0.05)
    treads = np.searchsorted(risers, stood_on.ravel())
    assert set(range(1, len(risers))) <= set(treads.tolist())
    worst = int(np.argmax(offset))
    assert offset[worst] <= MARGIN, (offset[worst], x[worst], run[worst], go[worst])


def test_the_support_spans_the_soles_on_the_ground_and_not_a_heel_over_a_drop() -> None:
    # one foot flat on a tread, the other with its heel out over the nose of a 0.17 m drop
    # behind it: the support runs from that foot's ball to the first foot's toe
    terrain = Terrain(np.array([[-3.0, 0.0], [0.0, 0.0], [0.01, 0.17], [3.0, 0.17]]))
    crowd = Crowd(RIG, terrain, np.array([0.3]), np.array([1.0]))
    legs = RIG.legs
    ankle_y = 0.17 + legs.ankle_height
    crowd.stand_at(0, [[0.05, ankle_y], [0.4, ankle_y]])
    lo, hi = support_span(crowd.world, crowd.state)
    assert lo[0] == pytest.approx(0.05 + legs.ball)  # the ball, not the hanging heel
    assert hi[0] == pytest.approx(0.4 + legs.toe)  # the toe tip ahead
