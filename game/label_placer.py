"""Where world labels go: spots around a point (:func:`around`) and a greedy placer
(:class:`LabelPlacer`) that puts each label at its first spot clear of what it labels, the
HUD boxes over the view and the labels placed before it (the lab and swivel scenes)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, overload

import numpy as np
from numpy.typing import NDArray

from game.layout import Rect

# Where a label's box sits relative to the point it is drawn at: the fraction of its width
# and height left of and above that point, per pygame Rect anchor name.
ANCHORS = {
    "topleft": (0.0, 0.0),
    "midtop": (0.5, 0.0),
    "topright": (1.0, 0.0),
    "midleft": (0.0, 0.5),
    "center": (0.5, 0.5),
    "midright": (1.0, 0.5),
    "bottomleft": (0.0, 1.0),
    "midbottom": (0.5, 1.0),
    "bottomright": (1.0, 1.0),
}
Spot = tuple[str, tuple[float, float]]  # an anchor name and an offset, pixels at 1280x720


def around(gaps: Sequence[float] = (8.0, 20.0, 36.0, 56.0, 80.0, 110.0, 150.0)) -> list[Spot]:
    """Spots on rings about a point, nearest ring first, each ring right, left, above,
    below, then the four corners: the fall-backs :class:`LabelPlacer` tries in turn."""
    spots: list[Spot] = []
    for g in gaps:
        d = g * 0.75
        spots += [
            ("midleft", (g, 0.0)),
            ("midright", (-g, 0.0)),
            ("midbottom", (0.0, -g)),
            ("midtop", (0.0, g)),
            ("bottomleft", (d, -d)),
            ("bottomright", (-d, -d)),
            ("topleft", (d, d)),
            ("topright", (-d, d)),
        ]
    return spots


def anchored(at: tuple[float, float], size: tuple[float, float], anchor: str) -> Rect:
    """The (left, top, width, height) box of a ``size`` text drawn with ``anchor`` at ``at``
    (whole pixels, as the canvas puts it)."""
    fx, fy = ANCHORS[anchor]
    w, h = size
    return (float(round(at[0] - fx * w)), float(round(at[1] - fy * h)), float(w), float(h))


_FIGURE_SIGNS = frozenset("-+−.,°")


def label_key(text: str) -> str:
    """What names a label from frame to frame: its text without figures ("lever 1.47 m"
    and "lever 1.52 m" are one label)."""
    return "".join(c for c in text if not (c.isdecimal() or c in _FIGURE_SIGNS))


class LabelPlacer:
    """Places world labels clear of each other and of what they label, greedily: each
    label gets the first of its candidate spots whose box stays inside ``bounds`` and
    touches no blocked box, no blocked stroke (a segment with a half-width: a bone, a
    marker's bar, a joint's disc) and no label placed before it (to ``pad`` pixels). Where
    none is clear, the spot touching the fewest wins (ties: the earlier). Spots are designed
    at 1280x720 and drawn ``scale`` times larger. Numpy over all spots at once: ~50 µs a
    label."""

    def __init__(self, bounds: Rect, scale: float = 1.0, pad: float = 3.0) -> None:
        self.bounds = bounds
        self.scale = scale
        self.pad = pad
        self._boxes: list[Rect] = []
        self._strokes: list[tuple[float, float, float, float, float]] = []
        self._stroke_array: NDArray[np.float64] | None = None  # the strokes, as one array

    def block(self, box: Rect) -> None:
        """Keep labels off ``box`` (pixels)."""
        self._boxes.append(tuple(float(v) for v in box))  # type: ignore[arg-type]

    def block_stroke(self, a: Sequence[float], b: Sequence[float], half_width: float) -> None:
        """Keep labels off the segment ``a``–``b`` widened by ``half_width`` (pixels); a
        disc is a stroke whose ends meet."""
        self._strokes.append(
            (float(a[0]), float(a[1]), float(b[0]), float(b[1]), float(half_width))
        )

    def block_disc(self, centre: Sequence[float], radius: float) -> None:
        self.block_stroke(centre, centre, radius)

    @overload
    def place(
        self,
        at: Sequence[tuple[float, float]] | NDArray[np.float64],
        size: tuple[float, float],
        spots: Sequence[Spot],
        optional: Literal[False] = False,
        keep: int | None = None,
    ) -> int: ...

    @overload
    def place(
        self,
        at: Sequence[tuple[float, float]] | NDArray[np.float64],
        size: tuple[float, float],
        spots: Sequence[Spot],
        optional: bool,
        keep: int | None = None,
    ) -> int | None: ...

    def place(
        self,
        at: Sequence[tuple[float, float]] | NDArray[np.float64],
        size: tuple[float, float],
        spots: Sequence[Spot],
        optional: bool = False,
        keep: int | None = None,
    ) -> int | None:
        """The index of the spot chosen for a ``size`` label; spot ``i`` is at pixel
        ``at[i]`` (one point for all, or one per spot; pairs or an ``(n, 2)`` array). Its box is blocked for the labels
        placed after it. An ``optional`` label (a name the legend also gives) with no
        clear spot gets None: better left out than drawn over the arm. ``keep`` (the spot
        it had last frame) is tried right after the first, so that a label pushed off its
        first spot stays where it went while that is clear instead of hopping between
        spots as the scene moves."""
        s = self.scale
        # most labels keep their first spot, or last frame's: those are tested alone, in
        # plain Python (a numpy pass over every spot costs ~10 times as much)
        for index in (0, keep):
            if index is None or not 0 <= index < len(spots):
                continue
            x, y = at[index] if len(at) > 1 else at[0]
            anchor, (dx, dy) = spots[index]
            box = anchored((x + dx * s, y + dy * s), size, anchor)
            if not self.touches(box):
                self._boxes.append(box)
                return index
        xy = np.asarray(at, dtype=float).reshape(-1, 2)
        fractions = np.array([ANCHORS[anchor] for anchor, _ in spots])
        offsets = np.array([offset for _, offset in spots], dtype=float)
        w, h = size
        # as :func:`anchored`, for every spot at once
        corner = np.rint(xy + offsets * s - fractions * (w, h))
        boxes = np.column_stack([corner, np.full(len(spots), w), np.full(len(spots), h)])
        hits = self.hits(boxes)
        best = int(np.argmin(hits))  # the first clear one, else the least crowded
        if optional and hits[best]:
            return None
        left, top, width, height = boxes[best].tolist()
        self._boxes.append((left, top, width, height))
        return best

    def touches(self, box: Rect) -> bool:
        """Whether ``box`` leaves ``bounds`` or touches a blocked box or stroke (to
        ``pad``): :meth:`hits` for one box, in plain Python."""
        left, top, width, height = box
        bx, by, bw, bh = self.bounds
        if left < bx or top < by or left + width > bx + bw or top + height > by + bh:
            return True
        pad = self.pad
        x0, y0, x1, y1 = left - pad, top - pad, left + width + pad, top + height + pad
        for ox, oy, ow, oh in self._boxes:
            if x0 < ox + ow and ox < x1 and y0 < oy + oh and oy < y1:
                return True
        return any(
            _segment_meets(x0 - r, y0 - r, x1 + r, y1 + r, ax, ay, ex, ey)
            for ax, ay, ex, ey, r in self._strokes
        )

    def hits(self, boxes: NDArray[np.float64]) -> NDArray[np.int64]:
        """How many blocked boxes and strokes each of ``boxes`` (shape ``(K, 4)``) touches,
        plus 100 for leaving ``bounds``; shape ``(K,)``."""
        pad = self.pad
        left, top = boxes[:, 0:1] - pad, boxes[:, 1:2] - pad
        right, bottom = left + boxes[:, 2:3] + 2 * pad, top + boxes[:, 3:4] + 2 * pad
        bx, by, bw, bh = self.bounds
        outside = (
            (boxes[:, 0] < bx)
            | (boxes[:, 1] < by)
            | (boxes[:, 0] + boxes[:, 2] > bx + bw)
            | (boxes[:, 1] + boxes[:, 3] > by + bh)
        )
        count = 100 * outside.astype(np.int64)
        if self._boxes:
            o = np.array(self._boxes).T  # (4, M)
            count += (
                (left < o[0] + o[2]) & (o[0] < right) & (top < o[1] + o[3]) & (o[1] < bottom)
            ).sum(axis=1)
        if self._strokes:
            if self._stroke_array is None or len(self._stroke_array) != len(self._strokes):
                self._stroke_array = np.array(self._strokes)
            strokes = self._stroke_array
            # only the strokes whose widened bounds meet the boxes' (most are far away)
            sx0 = np.minimum(strokes[:, 0], strokes[:, 2]) - strokes[:, 4]
            sx1 = np.maximum(strokes[:, 0], strokes[:, 2]) + strokes[:, 4]
            sy0 = np.minimum(strokes[:, 1], strokes[:, 3]) - strokes[:, 4]
            sy1 = np.maximum(strokes[:, 1], strokes[:, 3]) + strokes[:, 4]
            near = (
                (sx0 < right.max()) & (left.min() < sx1) & (sy0 < bottom.max()) & (top.min() < sy1)
            )
            if near.any():
                ax, ay, ex, ey, r = strokes[near].T  # each (C,)
                touch = _segments_touch(left - r, top - r, right + r, bottom + r, ax, ay, ex, ey)
                count += touch.sum(axis=1)
        return count


def _segment_meets(
    x0: float, y0: float, x1: float, y1: float, ax: float, ay: float, bx: float, by: float
) -> bool:
    """Whether segment ``a``–``b`` crosses box ``[x0, x1]×[y0, y1]``: :func:`_segments_touch`
    for one box and one segment."""
    t_in, t_out = 0.0, 1.0
    for lo, hi, a, d in ((x0, x1, ax, bx - ax), (y0, y1, ay, by - ay)):
        if abs(d) < 1e-12:
            if not lo <= a <= hi:
                return False
            continue
        enter, leave = (lo - a) / d, (hi - a) / d
        if enter > leave:
            enter, leave = leave, enter
        t_in, t_out = max(t_in, enter), min(t_out, leave)
    return t_in <= t_out


def _segments_touch(
    x0: NDArray[np.float64],
    y0: NDArray[np.float64],
    x1: NDArray[np.float64],
    y1: NDArray[np.float64],
    ax: NDArray[np.float64],
    ay: NDArray[np.float64],
    bx: NDArray[np.float64],
    by: NDArray[np.float64],
) -> NDArray[np.bool_]:
    """Whether segment ``a``–``b`` (each ``(C,)``) crosses box ``[x0, x1]×[y0, y1]`` (each
    ``(K, C)``), shape ``(K, C)``: the part of the segment inside each slab, intersected
    (Liang–Barsky)."""
    t_in = np.zeros(x0.shape)
    t_out = np.ones(x0.shape)
    for lo, hi, a, d in ((x0, x1, ax, bx - ax), (y0, y1, ay, by - ay)):
        flat = np.abs(d) < 1e-12
        safe = np.where(flat, 1.0, d)
        t0, t1 = (lo - a) / safe, (hi - a) / safe
        enter, leave = np.minimum(t0, t1), np.maximum(t0, t1)
        inside = (lo <= a) & (a <= hi)
        enter = np.where(flat, np.where(inside, -np.inf, np.inf), enter)
        leave = np.where(flat, np.where(inside, np.inf, -np.inf), leave)
        t_in, t_out = np.maximum(t_in, enter), np.minimum(t_out, leave)
    return t_in <= t_out
