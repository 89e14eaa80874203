"""The ground each prop moves on: the terrain with the other props lying on it (no pygame).

A prop the feet keep off this step (its :class:`~game.world.props.base.Intent` asks
``keep_off``: a cup set down on the floor) lies on the ground as a box, its
:meth:`~game.world.props.base.Prop.footprint`; every other prop moves on the terrain with
those boxes standing on it (:meth:`~game.world.terrain.Terrain.with_boxes`) if it rolls
(:attr:`~game.world.props.base.Prop.rolls`), so the ball rolls into a cup on the floor,
not through it.
"""

from __future__ import annotations

import numpy as np

from game.world.props.base import Intent, Prop
from game.world.terrain import Terrain

_KEPT = 8  # grounds remembered (one per set of boxes) before the memory starts anew


class PropGround:
    """The grounds with props lying on them, remembered by their boxes: the same object
    while the boxes and the terrain stay the same (a prop re-reads a new ground)."""

    def __init__(self) -> None:
        self._kept: dict[bytes, tuple[Terrain, Terrain]] = {}

    def grounds(self, terrain: Terrain, props: list[Prop], intents: list[Intent]) -> list[Terrain]:
        """The ground for each of ``props`` on ``terrain``, given their ``intents`` this
        step (a prop that took the hero's pose ended the round: those after it asked
        nothing, and lie nowhere): for one that rolls, with the others lying on it."""
        lying = [i.keep_off for i in intents] + [False] * (len(props) - len(intents))
        boxes = [p.footprint() if down else None for p, down in zip(props, lying, strict=True)]
        return [
            self._with(terrain, [b for j, b in enumerate(boxes) if b is not None and j != k])
            if prop.rolls
            else terrain
            for k, prop in enumerate(props)
        ]

    def _with(self, terrain: Terrain, boxes: list[np.ndarray]) -> Terrain:
        if not boxes:
            return terrain
        rows = np.concatenate(boxes)
        key = rows.tobytes()
        kept = self._kept.get(key)
        if kept is None or kept[0] is not terrain:
            if len(self._kept) >= _KEPT:
                self._kept.clear()
            kept = self._kept[key] = (terrain, terrain.with_boxes(rows))
        return kept[1]
