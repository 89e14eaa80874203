"""The renderer-neutral drawing interface (screen pixels) and a world-space pen on top of it.

Scenes draw through :class:`Canvas`; :mod:`game.pygame_canvas` is the one pygame adapter.
Angles passed to :meth:`Canvas.arc` are counter-clockwise as seen on screen, which is the
same sense as world angles (y-up), so world angles pass through unchanged.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Sequence
from typing import Protocol, cast

import numpy as np
from numpy.typing import ArrayLike

from game.camera import Camera2D
from game.layout import font_px, ui_scale
from game.palette import Color

Point = Sequence[float]


class Canvas(Protocol):
    """Immediate-mode drawing in screen pixels."""

    @property
    def size(self) -> tuple[int, int]: ...

    def fill(self, color: Color) -> None: ...

    def line(self, a: Point, b: Point, color: Color, width: int = 1) -> None: ...

    def lines(
        self, points: ArrayLike, color: Color, width: int = 1, closed: bool = False
    ) -> None: ...

    def segments(self, segments: ArrayLike, color: Color, width: int = 1) -> None:
        """Many separate segments, shape ``(N, 2, 2)``, drawn aliased (cheap, for crowds)."""
        ...

    def polylines(self, lines: ArrayLike, color: Color, width: int = 1) -> None:
        """Many separate open polylines of ``K`` points each, shape ``(M, K, 2)``, drawn
        aliased in order (cheap, for crowds): the pixels of their segments drawn one by
        one with :meth:`segments`, in a call per polyline instead of per segment."""
        ...

    def discs(self, centers: ArrayLike, radii: Sequence[float], colors: Sequence[Color]) -> None:
        """Many filled aliased discs in one batch: ``centers`` shape ``(N, K, 2)`` puts
        ``K`` discs per row, the ``k``-th of radius ``radii[k]`` and colour ``colors[k]``,
        drawn row by row (a crowd's heads: hair, then face). The pixels of :meth:`circle`
        called for each in that order."""
        ...

    def shade(self, layers: Sequence[ArrayLike], color: Color, alphas: Sequence[int]) -> None:
        """Translucent filled polygons (pixels, each shape ``(N, 2)``) blended over what
        is drawn: ``layers[k]`` at opacity ``alphas[k]`` (0-255), later layers replacing the
        earlier ones' opacity where they cover them (nested layers, darker inward, make a
        soft edge)."""
        ...

    def shades(
        self,
        outlines: ArrayLike,
        sizes: Sequence[int],
        alphas: Sequence[int],
        color: Color,
        per_shade: int,
    ) -> None:
        """Many :meth:`shade` calls in one batch, in order: ``outlines`` holds every
        polygon's points end to end (pixels, shape ``(N, 2)``), polygon ``i`` being the
        next ``sizes[i]`` of them (at least 3) at opacity ``alphas[i]``; each run of
        ``per_shade`` polygons is one shade's layers."""
        ...

    def circle(self, center: Point, radius: float, color: Color, width: int = 0) -> None: ...

    def arc(
        self, center: Point, radius: float, start: float, stop: float, color: Color, width: int = 1
    ) -> None: ...

    def polygon(self, points: ArrayLike, color: Color, width: int = 0) -> None: ...

    def rect(
        self, rect: Sequence[float], color: Color, width: int = 0, radius: int = 0
    ) -> None: ...

    def panel(self, rect: Sequence[float], color: Color, alpha: int) -> None:
        """A translucent filled rectangle (HUD backgrounds)."""
        ...

    def text(
        self,
        pos: Point,
        text: str,
        color: Color,
        size: int = 16,
        anchor: str = "topleft",
        bold: bool = False,
    ) -> tuple[int, int]:
        """Draw text anchored at ``pos`` (``topleft``, ``center``, ``midleft``, ...)."""
        ...

    def text_size(self, text: str, size: int = 16, bold: bool = False) -> tuple[int, int]: ...

    def layer(
        self,
        key: Hashable,
        backdrop: Color,
        draw: Callable[[Canvas], object],
        rect: Sequence[float] | None = None,
    ) -> None:
        """Draw what ``draw(canvas)`` draws, through a cache: the first call with ``key``
        (at this size) renders it onto a layer filled with ``backdrop``; later calls only
        put the layer down, its ``backdrop`` pixels transparent. For static scenery that
        changes with the camera alone; anti-aliased edges are blended with ``backdrop``, so
        it should be the colour the layer mostly lies on.

        ``rect`` is ``(left, top, width, height)`` in this canvas's pixels: the layer's size
        and where its top-left corner goes this time (rounded to whole pixels), so a sprite
        of static scenery follows a moving camera under the same key; ``draw`` draws in the
        layer's own pixels. The default is the whole canvas. A layer that would land wholly
        outside the canvas is neither drawn nor put down."""
        ...

    def sprite(
        self, key: Hashable, rect: Sequence[float], draw: Callable[[Canvas], object]
    ) -> None:
        """Draw what ``draw(canvas)`` draws inside ``rect`` (``(left, top, width, height)``
        in this canvas's pixels, which ``draw`` draws in too), through a cache: the first
        call with ``key`` and this rect renders it, translucency and all (panels,
        anti-aliased text and marks), later calls only put it down. For HUD boxes whose
        content changes rarely: ``key`` must name everything the drawing depends on but
        the rect. What ``draw`` draws outside ``rect`` is lost."""
        ...

    def ready_layer(
        self,
        key: Hashable,
        backdrop: Color,
        draw: Callable[[Canvas], object],
        size: tuple[int, int],
    ) -> None:
        """Render the layer of this ``size`` that :meth:`layer` would put down with the
        same arguments, if it is not cached, without putting it down: a scrolling view
        readies the tiles about to come into sight, so that no single frame renders many."""
        ...


def dash_segments(a: Point, b: Point, dash: float, gap: float) -> list[tuple[Point, Point]]:
    """Segments ``(start, end)`` of a dashed line from ``a`` to ``b`` (pixels): plain
    floats, as a line of a few dashes costs ~5 us so and ~20 us through numpy."""
    ax, ay = float(a[0]), float(a[1])
    bx, by = float(b[0]), float(b[1])
    length = math.hypot(bx - ax, by - ay)
    if length < 1e-9:
        return []
    dx, dy = (bx - ax) / length, (by - ay) / length
    period = dash + gap
    segments: list[tuple[Point, Point]] = []
    for k in range(math.ceil(length / period)):
        start = k * period
        end = min(start + dash, length)
        segments.append(((ax + start * dx, ay + start * dy), (ax + end * dx, ay + end * dy)))
    return segments


def fill_under(canvas: Canvas, outline: ArrayLike, color: Color) -> None:
    """Fill from a line (pixels, shape ``(N, 2)``, x increasing) down to the canvas's bottom.

    A polygon from the line down to its lowest point, a rectangle under that: pygame fills a
    polygon scanline by scanline, testing every edge on each, so a many-vertex outline
    closed far below costs ~10x the rectangle that covers the same rows.
    """
    line = np.asarray(outline, dtype=float)
    left, right = float(line[0, 0]), float(line[-1, 0])
    low = float(line[:, 1].max())
    canvas.polygon(np.concatenate([line, [[right, low], [left, low]]]), color)
    bottom = canvas.size[1]
    if low < bottom:
        top = math.floor(low)  # one row of overlap with the polygon: never a seam
        canvas.rect((left, top, right - left, bottom - top), color)


def dashed(
    canvas: Canvas,
    a: Point,
    b: Point,
    color: Color,
    width: int = 2,
    dash: float = 9.0,
    gap: float = 6.0,
) -> None:
    """A dashed line in pixels from ``a`` to ``b``."""
    segments = dash_segments(a, b, dash, gap)
    if segments:
        canvas.segments(segments, color, width)


def cross(canvas: Canvas, center: Point, size: float, color: Color, width: int = 3) -> None:
    """An ✕ marker in pixels of half-size ``size``."""
    x, y = center
    canvas.line((x - size, y - size), (x + size, y + size), color, width)
    canvas.line((x - size, y + size), (x + size, y - size), color, width)


def bone(
    canvas: Canvas,
    a: Point,
    b: Point,
    color: Color,
    width_a: float,
    width_b: float,
    outline: Color | None = None,
    cap_b: bool = True,
) -> None:
    """A tapered capsule in pixels from ``a`` (width ``width_a``) to ``b`` (``width_b``);
    ``outline`` edges its two long sides. ``cap_b=False`` leaves out the round cap at
    ``b``, for a bone whose next one starts there as wide and in the same colour: that
    one's cap, drawn later, covers the same pixels."""
    ax, ay = a
    bx, by = b
    length = math.hypot(bx - ax, by - ay)
    ra, rb = width_a / 2.0, width_b / 2.0
    if length > 1e-6:
        nx, ny = -(by - ay) / length, (bx - ax) / length  # unit normal of a -> b
        quad = (
            (ax + nx * ra, ay + ny * ra),
            (bx + nx * rb, by + ny * rb),
            (bx - nx * rb, by - ny * rb),
            (ax - nx * ra, ay - ny * ra),
        )
        canvas.polygon(quad, color)
        if outline is not None:
            canvas.line(quad[0], quad[1], outline, 1)
            canvas.line(quad[2], quad[3], outline, 1)
    canvas.circle((ax, ay), ra, color)
    if cap_b:
        canvas.circle((bx, by), rb, color)


class WorldPen:
    """Draws in world metres on a :class:`Canvas` through a :class:`Camera2D`."""

    def __init__(self, canvas: Canvas, camera: Camera2D) -> None:
        self.canvas = canvas
        self.camera = camera

    def px(self, p_w: ArrayLike) -> tuple[float, float]:
        """One world point in pixels (scalar maths: a numpy call per point costs ~5 µs)."""
        x, y = cast("Sequence[float]", p_w)
        return self.camera.point_to_screen(float(x), float(y))

    def line(self, a_w: ArrayLike, b_w: ArrayLike, color: Color, width: int = 1) -> None:
        self.canvas.line(self.px(a_w), self.px(b_w), color, width)

    def polyline(
        self, points_w: ArrayLike, color: Color, width: int = 1, closed: bool = False
    ) -> None:
        self.canvas.lines(self.camera.to_screen(points_w), color, width, closed)

    def polygon(self, points_w: ArrayLike, color: Color, width: int = 0) -> None:
        self.canvas.polygon(self.camera.to_screen(points_w), color, width)

    def dashed(
        self,
        a_w: ArrayLike,
        b_w: ArrayLike,
        color: Color,
        width: int = 2,
        dash_px: float = 9.0,
        gap_px: float = 6.0,
    ) -> None:
        dashed(self.canvas, self.px(a_w), self.px(b_w), color, width, dash_px, gap_px)

    def circle(self, center_w: ArrayLike, radius_w: float, color: Color, width: int = 1) -> None:
        self.canvas.circle(self.px(center_w), self.camera.length_px(radius_w), color, width)

    def disc(self, center_w: ArrayLike, radius_px: float, color: Color) -> None:
        self.canvas.circle(self.px(center_w), radius_px, color, 0)

    def ring_px(self, center_w: ArrayLike, radius_px: float, color: Color, width: int = 2) -> None:
        self.canvas.circle(self.px(center_w), radius_px, color, width)

    def arc(
        self,
        center_w: ArrayLike,
        radius_w: float,
        start: float,
        stop: float,
        color: Color,
        width: int = 1,
    ) -> None:
        """Arc counter-clockwise from world angle ``start`` to ``stop``."""
        if stop < start:
            start, stop = stop, start
        self.canvas.arc(
            self.px(center_w), self.camera.length_px(radius_w), start, stop, color, width
        )

    def cross(self, center_w: ArrayLike, size_px: float, color: Color, width: int = 3) -> None:
        """An ✕ marker of half-size ``size_px`` (see :func:`cross`)."""
        cross(self.canvas, self.px(center_w), size_px, color, width)

    def bone(
        self,
        a_w: ArrayLike,
        b_w: ArrayLike,
        color: Color,
        width_a_px: float,
        width_b_px: float,
        outline: Color | None = None,
    ) -> None:
        """A tapered capsule from ``a`` (width ``width_a_px``) to ``b`` (see :func:`bone`)."""
        bone(self.canvas, self.px(a_w), self.px(b_w), color, width_a_px, width_b_px, outline)

    def text(
        self,
        p_w: ArrayLike,
        text: str,
        color: Color,
        size: int = 15,
        anchor: str = "center",
        offset_px: tuple[float, float] = (0.0, 0.0),
    ) -> None:
        """A world label: font and offset are designed for 1280x720 and scale with the window."""
        x, y = self.px(p_w)
        scale = ui_scale(self.canvas.size)
        at = (x + offset_px[0] * scale, y + offset_px[1] * scale)
        self.canvas.text(at, text, color, font_px(size, scale), anchor)
