"""Why the hero's walk is stopped, in words for the player (no pygame)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from game.world.character import Crowd
from game.world.types import FloatArray

# what clicking a prop lying on a stair does to clear the way (a kick from below cannot
# be lined up: the ball)
_CLICK_TO = {"cup": "pick it up"}


def ground_in_the_way(crowd: Crowd, lying: Sequence[tuple[str, FloatArray]] = ()) -> str:
    """What stops character 0's walk within a metre ahead (the gait's stop looks a step or
    two on): a stair a prop lying on the ground leaves no room on (``lying``: each such
    prop's name and footprint row ``(x0, x1, top)``), a wall or a drop higher than a step,
    or the world's end."""
    terrain = crowd.terrain
    x, facing = float(crowd.x[0]), float(crowd.facing[0])
    taken = crowd.taken_treads()  # (x0, x1) rows: the stairs a prop leaves no room on
    ahead = (np.where(facing > 0, taken[:, 0], taken[:, 1]) - x) * facing
    for x0, x1 in taken[(ahead > 0.0) & (ahead <= 1.0)]:
        name = next((n for n, box in lying if box[0] < x1 and box[1] > x0), "a prop")
        click = f" (click it to {_CLICK_TO[name]})" if name in _CLICK_TO else ""
        return f"no way on: the {name} leaves no room on that stair{click}"
    lo, hi = terrain.x_range
    probe = np.clip(x + facing * np.linspace(0.0, 1.0, 21), lo, hi)
    heights = terrain.height_at(probe)
    here, step = float(heights[0]), crowd.rig.gait.max_step_height
    if float(heights.max()) - here > step:
        return "no way on: a wall ahead, too high to step up"
    if here - float(heights.min()) > step:
        return "no way on: a drop ahead, too deep to step down"
    return "no way on: the world ends here"
