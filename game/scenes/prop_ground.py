"""The ground each prop moves on: the terrain with the other props lying in the way on it
(no pygame).

A prop in the way this step lies on the ground as a box, its
:meth:`~game.world.props.base.Prop.footprint`: one the feet keep off (its
:class:`~game.world.props.base.Intent` asks ``keep_off``: a cup set down on the floor) or
one as solid as a wall (``solid``: the shut door). Every other prop moves on the terrain
with those boxes standing on it (:meth:`~game.world.terrain.Terrain.with_boxes`) if it
rolls (:attr:`~game.world.props.base.Prop.rolls`), so the ball rolls into a cup on the
floor or against the shut door, not through them.

A box that comes into the way where a rolling prop already lies (the door shut over the
ball, the cup set down on it) would lift the prop onto its top: it is no ground to that
prop until the prop is clear of it (rolled out, or the box gone).
"""

from __future__ import annotations

import numpy as np

from game.world.props.base import Intent, Prop
from game.world.terrain import Terrain
from game.world.types import FloatArray

_KEPT = 8  # grounds remembered (one per set of boxes) before the memory starts anew
_INTO_M = 1e-3  # a box reaching this far into a prop lies in it (one touching it does not)


class PropGround:
    """The grounds with props lying in the way on them, remembered by their boxes: the
    same object while the boxes and the terrain stay the same (a prop re-reads a new
    ground)."""

    def __init__(self) -> None:
        self._kept: dict[bytes, tuple[Terrain, Terrain]] = {}
        self._in_way: dict[str, Prop] = {}  # the props lying in the way last step, by name
        self._passed: set[tuple[str, str]] = set()  # (rolling prop, box it lay in), by name

    def grounds(self, terrain: Terrain, props: list[Prop], intents: list[Intent]) -> list[Terrain]:
        """The ground for each of ``props`` on ``terrain``, given their ``intents`` this
        step (a prop that took the hero's pose ended the round: those after it asked
        nothing, and lie nowhere): for one that rolls, with the others in the way on it."""
        asked = [i.keep_off or i.solid for i in intents] + [False] * (len(props) - len(intents))
        in_way = {p.name: p for p, down in zip(props, asked, strict=True) if down}
        grounds = []
        for prop in props:
            if not prop.rolls:
                grounds.append(terrain)
                continue
            boxes = []
            for other in in_way.values():
                if other is prop:
                    continue
                pair, box = (prop.name, other.name), other.footprint()
                new = self._in_way.get(other.name) is not other
                if (new or pair in self._passed) and _lies_in(prop, box):
                    self._passed.add(pair)
                else:
                    self._passed.discard(pair)
                    boxes.append(box)
            grounds.append(self._with(terrain, boxes))
        self._passed = {pair for pair in self._passed if pair[1] in in_way}
        self._in_way = in_way
        return grounds

    def _with(self, terrain: Terrain, boxes: list[FloatArray]) -> Terrain:
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


def _lies_in(prop: Prop, box: FloatArray) -> bool:
    """Whether any row ``(x0, x1, top)`` of ``box`` reaches into ``prop``: the point of
    the row's box (from its top down) nearest the prop's centre is :data:`_INTO_M` or more
    inside the prop."""
    centre = prop.centre()
    if centre is None:
        return False
    cx, cy = (float(v) for v in centre)
    for x0, x1, top in np.asarray(box, dtype=float).reshape(-1, 3).tolist():
        nearest = np.array([min(max(cx, x0), x1), min(cy, top)])
        if prop.under(nearest, -_INTO_M):
            return True
    return False
