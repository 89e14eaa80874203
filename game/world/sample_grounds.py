"""Small grounds built in code for tests, tools and benchmarks (the demo's own ground is
``assets/terrain.json``): each a :class:`~game.world.terrain.Terrain` with named dimensions.
"""

from __future__ import annotations

import numpy as np

from game.world.terrain import Terrain


def stairs_up_and_down(rise: float, tread: float, count: int, landing: float = 2.0) -> Terrain:
    """A small course for tests and tools: 6 m flat, ``count`` stairs up (risers 1 cm deep,
    ``rise`` high, treads ``tread`` deep), a landing ``landing`` treads long, ``count``
    stairs down, 6 m flat; the first riser at x = 0."""
    points = [[-6.0, 0.0], [0.0, 0.0]]
    x, y = 0.0, 0.0
    for step in (rise,) * count + (0.0,) + (-rise,) * count:
        if step:
            x, y = x + 0.01, y + step  # a riser, 1 cm deep
            points.append([x, y])
        x += tread if step else landing * tread
        points.append([x, y])
    points.append([x + 6.0, y])
    return Terrain(np.array(points))
