"""Why the hero's walk is stopped, in words for the player (no pygame)."""

from __future__ import annotations

import numpy as np

from game.world.character import Crowd


def ground_in_the_way(crowd: Crowd) -> str:
    """What stops character 0's walk within a metre ahead (the gait's stop looks a step or
    two on): a stair an obstacle (the cup) leaves no room on, a wall or a drop higher than
    a step, or the world's end."""
    terrain = crowd.terrain
    x, facing = float(crowd.x[0]), float(crowd.facing[0])
    taken = crowd.taken_treads()  # (x0, x1) rows: the stairs a cup leaves no room on
    ahead = (np.where(facing > 0, taken[:, 0], taken[:, 1]) - x) * facing
    if ((ahead > 0.0) & (ahead <= 1.0)).any():
        return "no way on: the cup leaves no room on that stair (click it to pick it up)"
    lo, hi = terrain.x_range
    probe = np.clip(x + facing * np.linspace(0.0, 1.0, 21), lo, hi)
    heights = terrain.height_at(probe)
    here, step = float(heights[0]), crowd.rig.gait.max_step_height
    if float(heights.max()) - here > step:
        return "no way on: a wall ahead, too high to step up"
    if here - float(heights.min()) > step:
        return "no way on: a drop ahead, too deep to step down"
    return "no way on: the world ends here"
