"""Screen layout helpers shared by the HUD and the scene panels: UI scale and text wrapping.

Everything on screen is sized for a 1280x720 window and scaled by :func:`ui_scale`, so a
960x540 window (the smallest the command line allows) and a 1920x1080 one show the same
layout; text that still does not fit its box is wrapped with :func:`wrap`.
"""

from __future__ import annotations

import functools
import weakref
from collections.abc import Callable, Sequence
from typing import Any, Literal, Protocol, overload

import numpy as np
from numpy.typing import NDArray


class TextMeasure(Protocol):
    """What wrapping needs of a canvas: the size of a text (any :class:`game.canvas.Canvas`);
    named here so this module does not import game.canvas, which imports it."""

    def text_size(self, text: str, size: int = 16, bold: bool = False) -> tuple[int, int]: ...


DESIGN_SIZE = (1280, 720)
MIN_SCALE, MAX_SCALE = 0.75, 2.0
MIN_FONT_PX = 12  # at 11 pygame's default font is 7 px tall, its letters and words run together

Rect = tuple[float, float, float, float]


def characters_text(count: int) -> str:
    """``count`` and the noun, singular for one ("1 character", "200 characters")."""
    return f"{count} character" if count == 1 else f"{count} characters"


def ui_scale(size: tuple[int, int]) -> float:
    """How much larger than at 1280x720 the HUD is drawn in a window of ``size`` pixels."""
    fit = min(size[0] / DESIGN_SIZE[0], size[1] / DESIGN_SIZE[1])
    return min(max(fit, MIN_SCALE), MAX_SCALE)


def font_px(size: float, scale: float) -> int:
    """A font size designed for 1280x720, scaled (never below :data:`MIN_FONT_PX`)."""
    return max(round(size * scale), MIN_FONT_PX)


_WRAPPED: weakref.WeakKeyDictionary[Any, dict[tuple[str, float, int, bool], list[str]]] = (
    weakref.WeakKeyDictionary()
)
_BALANCED: weakref.WeakKeyDictionary[Any, dict[tuple[str, float, int, bool], list[str]]] = (
    weakref.WeakKeyDictionary()
)
_WRAP_CACHE_LIMIT = 256


def wrap(canvas: TextMeasure, text: str, width: float, size: int, bold: bool = False) -> list[str]:
    """``text`` broken at spaces into lines no wider than ``width`` pixels at font ``size``.

    A single word wider than ``width`` is cut to fit, so every line fits. Results are kept
    per canvas (panels re-wrap the same paragraphs every frame; measuring costs ~10 µs a
    word).
    """
    return _kept(_WRAPPED, _wrap, canvas, text, width, size, bold)


def wrap_balanced(
    canvas: TextMeasure, text: str, width: float, size: int, bold: bool = False
) -> list[str]:
    """As :func:`wrap`, in as few lines, but with the lines as even as they go (no last
    line of one short word): the narrowest width, to 1 px, that needs no more lines.
    Results are kept per canvas like :func:`wrap`'s (the search re-wraps ~10 times)."""
    return _kept(_BALANCED, _balanced, canvas, text, width, size, bold)


def _kept(
    kept: weakref.WeakKeyDictionary[Any, dict[tuple[str, float, int, bool], list[str]]],
    wrapper: Callable[[TextMeasure, str, float, int, bool], list[str]],
    canvas: TextMeasure,
    text: str,
    width: float,
    size: int,
    bold: bool,
) -> list[str]:
    """``wrapper``'s lines for these arguments, from ``kept`` (a per-canvas table, cleared
    when it holds ``_WRAP_CACHE_LIMIT`` paragraphs) or computed and kept there; a copy."""
    cache = kept.setdefault(canvas, {})
    key = (text, float(width), size, bold)
    lines = cache.get(key)
    if lines is None:
        if len(cache) >= _WRAP_CACHE_LIMIT:
            cache.clear()
        lines = cache[key] = wrapper(canvas, text, width, size, bold)
    return list(lines)


def _balanced(canvas: TextMeasure, text: str, width: float, size: int, bold: bool) -> list[str]:
    lines = wrap(canvas, text, width, size, bold)
    if len(lines) <= 1:
        return lines
    low, high = width / len(lines), width  # too narrow for the count at low; fine at high
    while high - low > 1.0:
        mid = (low + high) / 2
        if len(wrap(canvas, text, mid, size, bold)) <= len(lines):
            high = mid
        else:
            low = mid
    return wrap(canvas, text, high, size, bold)


def _wrap(canvas: TextMeasure, text: str, width: float, size: int, bold: bool) -> list[str]:
    lines: list[str] = []
    current = ""
    for word in text.split():
        trial = f"{current} {word}".strip()
        if current and canvas.text_size(trial, size, bold)[0] > width:
            lines.append(current)
            current = word
        else:
            current = trial
        while len(current) > 1 and canvas.text_size(current, size, bold)[0] > width:
            cut = len(current) - 1
            while cut > 1 and canvas.text_size(current[:cut], size, bold)[0] > width:
                cut -= 1
            lines.append(current[:cut])
            current = current[cut:]
    if current:
        lines.append(current)
    return lines


def intersects(a: Rect, b: Rect) -> bool:
    """Two (left, top, width, height) rectangles share interior area."""
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


def free_areas(area: Rect, obstacles: Sequence[Rect], gap: float = 0.0) -> list[Rect]:
    """The largest rectangles inside ``area`` that overlap none of ``obstacles`` (each grown
    by ``gap`` pixels): every one that no other free rectangle contains. Where a panel goes
    to cover no other (the F1 help: with the F3 panel, the status box, the editor's palette
    and a message up there is no single band left of, right of, above or below one box).

    Each such rectangle's edges lie on the area's or on an obstacle's, so all
    combinations of those are tried: (obstacles + 1)^4 boxes, ~4 ms for eight obstacles;
    results are kept (the same HUD boxes come back every frame).
    """
    grown = tuple(
        (float(x - gap), float(y - gap), float(w + 2 * gap), float(h + 2 * gap))
        for x, y, w, h in obstacles
    )
    return list(_free_areas(tuple(float(v) for v in area), grown))


@functools.lru_cache(maxsize=64)
def _free_areas(area: Rect, boxes: tuple[Rect, ...]) -> tuple[Rect, ...]:
    ax0, ay0, ax1, ay1 = area[0], area[1], area[0] + area[2], area[1] + area[3]
    inside = [(x, y, x + w, y + h) for x, y, w, h in boxes if intersects((x, y, w, h), area)]
    lefts = {ax0, *(x1 for _, _, x1, _ in inside if ax0 < x1 < ax1)}
    rights = {ax1, *(x0 for x0, _, _, _ in inside if ax0 < x0 < ax1)}
    tops = {ay0, *(y1 for _, _, _, y1 in inside if ay0 < y1 < ay1)}
    bottoms = {ay1, *(y0 for _, y0, _, _ in inside if ay0 < y0 < ay1)}
    free = [
        (x0, y0, x1, y1)
        for x0 in lefts
        for x1 in rights
        if x1 > x0
        for y0 in tops
        for y1 in bottoms
        if y1 > y0
        and not any(
            x0 < bx1 and bx0 < x1 and y0 < by1 and by0 < y1 for bx0, by0, bx1, by1 in inside
        )
    ]
    maximal = [
        r
        for r in free
        if not any(
            o != r and o[0] <= r[0] and o[1] <= r[1] and r[2] <= o[2] and r[3] <= o[3] for o in free
        )
    ]
    return tuple((x0, y0, x1 - x0, y1 - y0) for x0, y0, x1, y1 in sorted(maximal))


def clear_disc(
    area: Rect, obstacles: Sequence[Rect], steps: int = 24
) -> tuple[tuple[float, float], float]:
    """The largest disc inside ``area`` that no box of ``obstacles`` touches (to a pixel or
    so), as ``(centre, radius)`` in pixels: where a view frames its subject beside a panel
    drawn over it.

    The radius is found by bisection (``steps`` halvings); for each radius the centres
    are tried on a 49x49 grid over the places it fits in ``area``, the one nearest the
    area's centre kept.
    """
    left, top, width, height = area
    middle = np.array([left + width / 2.0, top + height / 2.0])
    boxes = np.asarray(obstacles, dtype=float).reshape(-1, 4)
    low, high = 0.0, min(width, height) / 2.0
    best = ((float(middle[0]), float(middle[1])), 0.0)
    u = np.linspace(0.0, 1.0, 49)
    for _ in range(steps):
        radius = (low + high) / 2.0
        xs = left + radius + u * (width - 2.0 * radius)
        ys = top + radius + u * (height - 2.0 * radius)
        centres = np.stack(np.meshgrid(xs, ys), axis=-1).reshape(-1, 1, 2)
        # distance from a point to a box: the length of how far it lies outside each slab
        dx = np.maximum(
            np.maximum(boxes[:, 0] - centres[..., 0], 0.0),
            centres[..., 0] - boxes[:, 0] - boxes[:, 2],
        )
        dy = np.maximum(
            np.maximum(boxes[:, 1] - centres[..., 1], 0.0),
            centres[..., 1] - boxes[:, 1] - boxes[:, 3],
        )
        clear = (np.hypot(dx, dy) >= radius).all(axis=1)
        if clear.any():
            fits = centres[clear, 0]
            pick = fits[np.argmin(np.hypot(*(fits - middle).T))]
            best, low = ((float(pick[0]), float(pick[1])), radius), radius
        else:
            high = radius
    return best


# -- world labels ---------------------------------------------------------------------------
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
