"""The swivel scene's world labels: asked for while the frame is drawn, placed together at
its end, each at its first spot clear of the arm, the markers, the HUD and the labels
placed before it (lower rank first), kept from frame to frame where it stays clear."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from game.canvas import Canvas
from game.label_placer import ANCHORS, LabelPlacer, Spot, around, label_key
from game.layout import font_px
from game.palette import Color
from game.pen3d import Pen3D
from game.projection import OrbitCamera

OPTIONAL_RANK = 4  # labels of this rank and up are left out where no spot is clear
# an anchor's opposite: the same offset, turned half round, on the other side
MIRRORED = {
    name: next(other for other, f in ANCHORS.items() if f == (1.0 - fx, 1.0 - fy))
    for name, (fx, fy) in ANCHORS.items()
}


@dataclass(frozen=True, slots=True)
class _Wanted:
    """A world label asked for this frame (:meth:`WorldLabels.add`), not yet placed."""

    rank: int
    points: NDArray[np.float64]  # (K, 3): where each of the K spots is measured from
    text: str
    color: Color
    size: int
    spots: list[Spot]


class WorldLabels:
    """The labels a frame asks for (:meth:`add`, :meth:`beside`), placed by :meth:`place`."""

    def __init__(self) -> None:
        self._wanted: list[_Wanted] = []  # labels asked for this frame
        self._spots: dict[str, int] = {}  # each label's spot last frame

    def add(
        self,
        p_w: ArrayLike,
        text: str,
        color: Color,
        size: int = 17,
        anchor: str = "midleft",
        offset: tuple[float, float] = (10.0, 0.0),
        rank: int = 3,
        spots: list[Spot] | None = None,
        along: ArrayLike | None = None,
    ) -> None:
        """A label for world point ``p_w``, placed by :meth:`place` (lower ``rank``
        first) at the first clear spot of ``spots``: by default ``anchor`` and ``offset``
        (pixels at 1280x720) as designed; with ``along`` (more points on what it labels:
        a line, a circle) as designed and mirrored at ``p_w`` and at each of those; then
        rings about ``p_w``."""
        point = np.asarray(p_w, dtype=float).reshape(1, 3)
        if spots is None:
            ring = around()
            if along is None:
                spots = [(anchor, offset), *ring]
                points = np.repeat(point, len(spots), axis=0)
            else:
                more = np.concatenate([point, np.asarray(along, dtype=float).reshape(-1, 3)])
                mirror = (MIRRORED[anchor], (-offset[0], -offset[1]))
                spots = [(anchor, offset), mirror] * len(more) + ring
                points = np.concatenate(
                    [np.repeat(more, 2, axis=0), np.repeat(point, len(ring), 0)]
                )
        else:
            points = np.repeat(point, len(spots), axis=0)
        self._wanted.append(_Wanted(rank, points, text, color, size, spots))

    def beside(
        self,
        camera: OrbitCamera,
        scale: float,
        centre: ArrayLike,
        radius_m: float,
        text: str,
        color: Color,
        size: int,
        anchor: str,
        rank: int,
        lift: float = 0.0,
    ) -> None:
        """A label beside a marker (a ball, the cross, the diamond) of ``radius_m`` about
        ``centre``, as ``camera`` sees it (the HUD drawn ``scale`` times larger): on its
        ``anchor`` side just off its edge as seen (the edge moves out as the camera zooms
        in), else on rings about it."""
        px, depth = camera.project(centre)
        if float(depth) <= camera.near:
            return
        edge = radius_m * float(camera.px_per_metre(depth)) / scale
        gap = edge + 6.0
        preferred = {
            "midleft": (gap, lift),
            "midright": (-gap, lift),
            "midbottom": (0.0, -edge - 4.0),
            "midtop": (0.0, edge + 4.0),
        }[anchor]
        spots = [
            (anchor, preferred),
            *around((gap, gap + 14.0, gap + 30.0, gap + 50.0, gap + 80.0)),
        ]
        self.add(centre, text, color, size, rank=rank, spots=spots)

    def place(
        self,
        pen: Pen3D,
        canvas: Canvas,
        camera: OrbitCamera,
        scale: float,
        block: Callable[[LabelPlacer], None],
    ) -> None:
        """Hand the wanted labels to ``pen``, each at its first spot clear of what
        ``block`` blocks on a placer over ``camera``'s viewport (the arm, the markers, the
        HUD boxes over the view) and of the labels placed before it (otherwise the lever's
        "1.47 m" would sit on the upper arm, "target" under the pole after an orbit, the
        swivel circle's name on "α" and the pole angle's)."""
        wanted, self._wanted = sorted(self._wanted, key=lambda w: w.rank), []
        if not wanted:
            return
        s = scale
        x, y, w, h = (float(v) for v in camera.viewport)
        placer = LabelPlacer((x, y, w, h), s)
        block(placer)
        px, depth = camera.project(np.concatenate([w.points for w in wanted]))
        first = 0
        kept, self._spots = self._spots, {}
        for want in wanted:
            count = len(want.spots)
            at, front = px[first : first + count], depth[first : first + count] > camera.near
            first += count
            if not front[0]:
                continue  # behind the eye: Pen3D would skip it too
            box = canvas.text_size(want.text, font_px(want.size, s))
            key = label_key(want.text)
            keep = kept.get(key)
            # spots measured from points behind the eye are left out
            order = list(range(count)) if front.all() else np.flatnonzero(front).tolist()
            spots = want.spots if len(order) == count else [want.spots[i] for i in order]
            if keep is not None:
                keep = order.index(keep) if keep in order else None
            # names the legend also gives (rank 4 and up) are left out where nothing is clear
            optional = want.rank >= OPTIONAL_RANK
            found = placer.place(at[order], box, spots, optional, keep)
            if found is None:
                continue
            best = order[found]
            self._spots[key] = best
            anchor, offset = want.spots[best]
            pen.label(want.points[best], want.text, want.color, want.size, anchor, offset)
