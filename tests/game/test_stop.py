"""Stopping: a walk or run let go at any moment comes to rest without a foot stepping back
behind where it stood or stepping in place. Walkers on the shipped course, one per moment,
all in one crowd (walkers do not interact: test_gait)."""

from __future__ import annotations

import numpy as np

from game.scene import ASSETS_DIR
from game.world.character import LEGS, Crowd
from game.world.rig import load_rig
from game.world.terrain import load_terrain

RIG = load_rig(ASSETS_DIR / "rig.json")
COURSE = load_terrain(ASSETS_DIR / "terrain.json")
DT = 1.0 / 60.0
MOMENTS = np.round(np.linspace(1.0, 3.99, 24) / DT).astype(int)  # steps held before letting go
REST = 240  # steps watched after the last let-go
BACK = 0.02  # m: a landing this far behind its lift-off is a step back
IN_PLACE = RIG.gait.stance_spread  # m: a landing this near its lift-off is a shuffle
PULLED_BACK = 0.06  # m: a swing re-aimed after the let-go lands at most this far behind
# where the foot was shown then (a late swing re-aimed short is pulled back in the air)


def test_a_walk_or_run_let_go_at_any_moment_never_steps_a_foot_back_or_in_place() -> None:
    # held from a standing start on the course for 1.0, 1.13, ... 3.99 s, walking and
    # running, then let go: every step after the let-go lands ahead of where the foot
    # lifted (the stop's steps come up beside the front foot; a swing too late to re-aim
    # lands ahead and the body carries on over it), and a swing re-aimed for the stop is
    # not pulled back in the air
    go = np.tile(MOMENTS, 2)
    run = np.repeat([0.0, 1.0], len(MOMENTS))
    n = len(go)
    crowd = Crowd(RIG, COURSE, np.zeros(n), np.ones(n))
    planted = crowd.feet.planted.copy()
    lock = crowd.feet.lock[..., 0].copy()
    lifted_at, re_aimed_at = lock.copy(), np.full_like(lock, np.nan)
    relaunches = crowd.feet.relaunches.copy()
    steps = []  # (walker, step past its lift-off along the facing) after its let-go
    pulled = []  # (walker, landing past where a re-aimed foot was shown) after its let-go
    crowd.solve()
    for k in range(int(go.max()) + REST):
        held = (k < go).astype(float)
        shown = crowd.solution.hand[:, LEGS, 0].copy()
        crowd.step(held, run * held, DT)
        crowd.solve()
        now, lock_now = crowd.feet.planted, crowd.feet.lock[..., 0]
        lifted_at = np.where(planted & ~now, lock, lifted_at)
        re_aimed = (crowd.feet.relaunches > relaunches) & (k >= go)[:, None]
        re_aimed_at = np.where(re_aimed, shown, re_aimed_at)
        for i, f in zip(*np.nonzero(~planted & now), strict=True):
            if k >= go[i]:
                steps.append((i, (lock_now[i, f] - lifted_at[i, f]) * crowd.facing[i]))
                if not np.isnan(re_aimed_at[i, f]):
                    pulled.append((i, (lock_now[i, f] - re_aimed_at[i, f]) * crowd.facing[i]))
            re_aimed_at[i, f] = np.nan
        planted, lock = now.copy(), lock_now.copy()
        relaunches = crowd.feet.relaunches.copy()
    assert crowd.feet.planted.all() and (np.abs(crowd.vx) < 0.05).all()  # all at rest
    back = [(float(go[i] * DT), run[i], d) for i, d in steps if d < -BACK]
    assert not back, back
    in_place = [(float(go[i] * DT), run[i], d) for i, d in steps if abs(d) < IN_PLACE]
    assert not in_place, in_place
    assert pulled  # (some swings were re-aimed for the stop)
    back_in_air = [(float(go[i] * DT), run[i], d) for i, d in pulled if d < -PULLED_BACK]
    assert not back_in_air, back_in_air
