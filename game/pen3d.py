"""Drawing 3-D world geometry on a 2-D :class:`~game.canvas.Canvas` through an orbit camera.

:class:`Pen3D` clips at the near plane (:mod:`game.projection`), projects, applies the depth
cues (nearer is brighter and thicker, faces lit by one light) and sorts strokes far to near
(painter's algorithm); labels are drawn last, on top. No pygame.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from game.canvas import Canvas, Point, dashed
from game.layout import font_px, ui_scale
from game.palette import PALETTE, Color, mix
from game.projection import OrbitCamera, clip_polygon, clip_segments


@dataclass(frozen=True, slots=True)
class _SegmentBatch:
    """One :meth:`Pen3D.segments` call waiting for the flush: ends ``(N, 3)``, fades ``(N,)``."""

    a_w: NDArray[np.float64]
    b_w: NDArray[np.float64]
    color: Color
    width_px: float
    strength: NDArray[np.float64]
    dashed: bool
    order: int


@dataclass(frozen=True, slots=True)
class _Sphere:
    """One :meth:`Pen3D.sphere` call waiting for the flush."""

    center_w: NDArray[np.float64]
    radius_m: float
    color: Color
    order: int


@dataclass(frozen=True, slots=True)
class _Label:
    """One :meth:`Pen3D.label` call waiting for :meth:`Pen3D.flush_on_top`."""

    p_w: NDArray[np.float64]
    text: str
    color: Color
    size: int
    anchor: str
    offset_px: tuple[float, float]


LIGHT = np.array([-0.3, 1.0, 0.5]) / math.sqrt(0.09 + 1.0 + 0.25)  # unit, from upper left front
# The octahedron's eight faces, one per octant (sx, sy, sz): vertices sx·x̂, sy·ŷ, sz·ẑ,
# shape (8, 3, 3), and unit outward normals (sx, sy, sz)/√3, shape (8, 3).
_OCTANTS = np.array([(sx, sy, sz) for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)], float)
_OCTAHEDRON_FACES = _OCTANTS[:, None, :] * np.eye(3)
_OCTAHEDRON_NORMALS = _OCTANTS / math.sqrt(3.0)


class Pen3D:
    """Draws world geometry (metres) on a canvas through an :class:`OrbitCamera`.

    Strokes are queued with their camera depth and drawn far to near by :meth:`flush`;
    labels are queued separately and drawn last, on top of everything. Segments, spheres
    and labels wait unprojected: each kind is projected for all its calls in one numpy pass
    (a numpy call on a few points costs as much as on a few hundred).
    """

    def __init__(self, canvas: Canvas, camera: OrbitCamera) -> None:
        self.canvas = canvas
        self.camera = camera
        self._strokes: list[tuple[float, int, Callable[..., Any], tuple[Any, ...]]] = []
        self._batches: list[_SegmentBatch] = []  # segments waiting to be projected
        self._spheres: list[_Sphere] = []  # spheres waiting to be projected
        self._labels: list[_Label] = []  # labels waiting to be projected
        self._order = 0  # call order: breaks depth ties (the earlier call draws first)
        self._on_top: list[Callable[[], Any]] = []
        # depth-cue range: a band of ±4 m around the orbit centre
        self._near_cue = camera.distance - 4.0
        self._far_cue = camera.distance + 4.0

    # -- depth cues -------------------------------------------------------------------------
    def shades(
        self, color: ArrayLike, depth: ArrayLike, strength: ArrayLike = 1.0
    ) -> NDArray[np.int64]:
        """``color`` dimmed toward the background with distance (nearer is brighter).

        ``color`` is RGB, shape ``(3,)`` or one per depth ``(..., 3)``; ``depth`` and
        ``strength`` broadcast to shape ``(...)``; returns RGB, shape ``(..., 3)``.
        """
        span = self._far_cue - self._near_cue
        far = np.clip((np.asarray(depth, dtype=float) - self._near_cue) / span, 0.0, 1.0)
        t = np.asarray(strength, dtype=float) * (1.0 - 0.6 * far)  # 100 % near, 40 % far
        bg = np.asarray(PALETTE["background"], dtype=float)
        # linear blend background → colour by t, the vector form of palette.mix
        return np.rint(bg + (np.asarray(color, dtype=float) - bg) * t[..., None]).astype(np.int64)

    def shade(self, color: Color, depth: float, strength: float = 1.0) -> Color:
        """:meth:`shades` for one depth, as a colour tuple."""
        r, g, b = self.shades(color, depth, strength).tolist()
        return (r, g, b)

    def widths(self, width_px: ArrayLike, depth: ArrayLike) -> NDArray[np.int64]:
        """Stroke widths scaled by perspective (nearer is thicker), at least 1 px;
        ``width_px`` (at the orbit distance) and ``depth`` broadcast together."""
        z = np.maximum(np.asarray(depth, dtype=float), self.camera.near)
        return np.maximum(
            np.rint(np.asarray(width_px, dtype=float) * self.camera.distance / z), 1
        ).astype(np.int64)

    # -- queueing ---------------------------------------------------------------------------
    def _next_order(self) -> int:
        self._order += 1
        return self._order

    def _queue(self, depth: float, draw: Callable[..., Any], *args: Any) -> None:
        self._strokes.append((depth, self._next_order(), draw, args))

    def on_top(self, draw: Callable[[], Any]) -> None:
        """Run ``draw`` after every stroke (labels, screen-space markers)."""
        self._on_top.append(draw)

    def flush(self) -> None:
        """Draw the queued strokes far to near, then forget them."""
        self._queue_segments()
        self._queue_spheres()
        for _, _, draw, args in sorted(self._strokes, key=lambda s: (-s[0], s[1])):
            draw(*args)
        self._strokes.clear()

    def flush_on_top(self) -> None:
        """Draw what :meth:`on_top` queued, then the :meth:`label` texts (after every stroke)."""
        for draw in self._on_top:
            draw()
        self._on_top.clear()
        labels, self._labels = self._labels, []
        if not labels:
            return
        px, depth = self.camera.project(np.array([label.p_w for label in labels]))
        scale = ui_scale(self.canvas.size)  # labels are designed at 1280x720, as the HUD
        for label, (x, y), z in zip(labels, px.tolist(), depth.tolist(), strict=True):
            if z <= self.camera.near:
                continue  # behind the camera
            dx, dy = label.offset_px
            pos = (x + dx * scale, y + dy * scale)
            self.canvas.text(pos, label.text, label.color, font_px(label.size, scale), label.anchor)

    # -- strokes ----------------------------------------------------------------------------
    def segments(
        self,
        a_w: ArrayLike,
        b_w: ArrayLike,
        color: Color,
        width_px: float = 1.0,
        strength: ArrayLike = 1.0,
        dashed: bool = False,
    ) -> None:
        """Segments ``a → b``, shapes ``(N, 3)``, each shaded and sized by its own depth.

        ``strength``, shape ``()`` or ``(N,)``, fades segments further (1 is full colour).
        The segments of every call are projected together when the pen flushes (one numpy
        pass a frame instead of one per call) and sorted one by one among the other strokes.
        """
        a = np.asarray(a_w, dtype=float).reshape(-1, 3)
        b = np.asarray(b_w, dtype=float).reshape(-1, 3)
        fade = np.asarray(strength, dtype=float)
        if fade.ndim == 0:
            fade = fade.repeat(len(a))  # one strength for every segment
        if fade.shape != (len(a),):
            raise ValueError(f"strength: expected shape () or ({len(a)},), got {fade.shape}")
        self._batches.append(_SegmentBatch(a, b, color, width_px, fade, dashed, self._next_order()))

    def _queue_segments(self) -> None:
        """Clip, project, shade and queue every segment waiting since the last flush."""
        batches, self._batches = self._batches, []
        if not batches:
            return
        cam = self.camera
        ends_c = cam.to_camera(
            np.stack(
                [
                    np.concatenate([batch.a_w for batch in batches]),
                    np.concatenate([batch.b_w for batch in batches]),
                ]
            )
        )
        a_c, b_c, visible = clip_segments(ends_c[0], ends_c[1], cam.near)
        keep = np.flatnonzero(visible)
        depth = ((a_c[:, 2] + b_c[:, 2]) / 2.0)[keep]  # the midpoint's depth sorts the segment
        batch_of = np.repeat(np.arange(len(batches)), [len(batch.a_w) for batch in batches])[keep]
        colors = self.shades(
            np.array([batch.color for batch in batches], dtype=float)[batch_of],
            depth,
            np.concatenate([batch.strength for batch in batches])[keep],
        )
        widths = self.widths(np.array([batch.width_px for batch in batches])[batch_of], depth)
        a_px, b_px = cam.camera_to_px(np.stack([a_c[keep], b_c[keep]])).tolist()
        orders = [batch.order for batch in batches]
        draws = [self._dashed if batch.dashed else self.canvas.line for batch in batches]
        which = batch_of.tolist()
        self._strokes.extend(
            zip(
                depth.tolist(),
                [orders[k] for k in which],
                [draws[k] for k in which],
                zip(a_px, b_px, map(tuple, colors.tolist()), widths.tolist(), strict=True),
                strict=True,
            )
        )

    def _dashed(self, a: Point, b: Point, color: Color, width: int) -> None:
        dashed(self.canvas, a, b, color, width)

    def polyline(
        self,
        points_w: ArrayLike,
        color: Color,
        width_px: float = 1.0,
        closed: bool = False,
        dashed: bool = False,
    ) -> None:
        """A polyline through ``points_w``, shape ``(N, 3)``, split into depth-sorted segments."""
        p = np.reshape(points_w, (-1, 3))
        if closed:
            p = np.concatenate([p, p[:1]])
        self.segments(p[:-1], p[1:], color, width_px, dashed=dashed)

    def outline(self, points_w: ArrayLike, color: Color, closed: bool = False) -> None:
        """A thin polyline through ``points_w``, shape ``(N, 3)``, small enough in depth
        for one shade and one place in the depth order (a marker ring): one anti-aliased
        draw call instead of :meth:`polyline`'s stroke per segment. Where it crosses the
        near plane it is drawn as :meth:`polyline` (clipped segment by segment)."""
        points_c = self.camera.to_camera(np.asarray(points_w, dtype=float).reshape(-1, 3))
        if not bool(np.all(points_c[:, 2] > self.camera.near)):
            self.polyline(points_w, color, 1.0, closed)
            return
        depth = float(points_c[:, 2].mean())
        px = self.camera.camera_to_px(points_c)
        self._queue(depth, self.canvas.lines, px, self.shade(color, depth), 1, closed)

    def polygon(self, points_w: ArrayLike, color: Color, width: int = 0) -> None:
        """A filled (``width = 0``) or outlined polygon, shape ``(N, 3)``, at its mean depth."""
        clipped = clip_polygon(
            self.camera.to_camera(np.reshape(points_w, (-1, 3))), self.camera.near
        )
        if len(clipped) < 3:
            return
        px = self.camera.camera_to_px(clipped)
        self._queue(float(clipped[:, 2].mean()), self.canvas.polygon, px, color, width)

    def sphere(self, center_w: ArrayLike, radius_m: float, color: Color) -> None:
        """A shaded ball: a disc of the projected radius with a highlight toward the light
        (projected with the other spheres when the pen flushes)."""
        center = np.asarray(center_w, dtype=float).reshape(3)
        self._spheres.append(_Sphere(center, radius_m, color, self._next_order()))

    def _queue_spheres(self) -> None:
        """Project, shade and queue every sphere waiting since the last flush."""
        spheres, self._spheres = self._spheres, []
        if not spheres:
            return
        px, depth = self.camera.project(np.array([sphere.center_w for sphere in spheres]))
        radii = np.array([sphere.radius_m for sphere in spheres])
        radii_px = np.maximum(radii * self.camera.px_per_metre(depth), 2.0).tolist()
        colors = [sphere.color for sphere in spheres]
        bases = self.shades(np.array(colors, dtype=float), depth).tolist()
        lit = [mix(color, PALETTE["white"], 0.6) for color in colors]
        lights = self.shades(np.array(lit, dtype=float), depth).tolist()
        for sphere, (x, y), z, r, base, light in zip(
            spheres, px.tolist(), depth.tolist(), radii_px, bases, lights, strict=True
        ):
            if z > self.camera.near:  # (behind the camera otherwise)
                self._strokes.append(
                    (z, sphere.order, self._ball, (x, y, r, tuple(base), tuple(light)))
                )

    def _ball(self, x: float, y: float, r: float, base: Color, light: Color) -> None:
        self.canvas.circle((x, y), r, mix(base, PALETTE["black"], 0.35))
        self.canvas.circle((x, y), r * 0.86, base)
        self.canvas.circle((x - r * 0.3, y - r * 0.3), r * 0.32, light)

    def bone(
        self, a_w: ArrayLike, b_w: ArrayLike, radii_m: tuple[float, float], color: Color
    ) -> None:
        """A tapered capsule from ``a`` to ``b`` with perspective radii and a highlight edge."""
        ends_c = self.camera.to_camera(np.stack([np.asarray(a_w, float), np.asarray(b_w, float)]))
        a_c, b_c, visible = clip_segments(ends_c[0], ends_c[1], self.camera.near)
        if not bool(visible):
            return
        ends_px = self.camera.camera_to_px(np.stack([a_c, b_c]))
        depths = np.array([a_c[2], b_c[2]])
        r = np.asarray(radii_m) * self.camera.px_per_metre(depths)
        z = float(depths.mean())
        base = self.shade(color, z)
        edge = mix(base, PALETTE["black"], 0.45)
        light = self.shade(mix(color, PALETTE["white"], 0.7), z)
        along = ends_px[1] - ends_px[0]
        length = float(np.hypot(*along))
        normal = np.array([-along[1], along[0]]) / max(length, 1e-9)
        if normal[1] > 0:
            normal = -normal  # the highlight goes on the upper side (light from above)

        def draw() -> None:
            for grow, fill in ((1.0, edge), (0.82, base)):
                quad = np.array(
                    [
                        ends_px[0] + normal * r[0] * grow,
                        ends_px[1] + normal * r[1] * grow,
                        ends_px[1] - normal * r[1] * grow,
                        ends_px[0] - normal * r[0] * grow,
                    ]
                )
                if length > 1e-6:
                    self.canvas.polygon(quad, fill)
                self.canvas.circle(tuple(ends_px[0]), r[0] * grow, fill)
                self.canvas.circle(tuple(ends_px[1]), r[1] * grow, fill)
            if length > 1e-6:
                self.canvas.line(
                    tuple(ends_px[0] + normal * r[0] * 0.45),
                    tuple(ends_px[1] + normal * r[1] * 0.45),
                    light,
                    max(int(min(r) * 0.3), 1),
                )

        self._queue(z, draw)

    def diamond(self, center_w: ArrayLike, size_m: float, color: Color) -> None:
        """A lit octahedron of half-size ``size_m``: front faces only, Lambert-shaded."""
        faces = np.asarray(center_w, dtype=float) + size_m * _OCTAHEDRON_FACES
        # a face is seen from the front where its outward normal points toward the eye
        facing = np.einsum("ij,ij->i", _OCTAHEDRON_NORMALS, self.camera.eye - faces.mean(axis=1))
        # Lambert: ambient 0.45 plus 0.55·max(n·L, 0)
        lit = 0.45 + 0.55 * np.maximum(_OCTAHEDRON_NORMALS @ LIGHT, 0.0)
        for face, shade in zip(faces[facing > 0.0], lit[facing > 0.0].tolist(), strict=True):
            self.polygon(face, mix(PALETTE["black"], color, shade))

    def ring_px(self, center_w: ArrayLike, radius_px: float, color: Color) -> None:
        """A screen-space ring around a world point, drawn on top (selection, hover)."""
        px = self.screen(center_w)
        if px is not None:
            self.on_top(lambda: self.canvas.circle(px, radius_px, color, 2))

    def label(
        self,
        p_w: ArrayLike,
        text: str,
        color: Color,
        size: int = 17,
        anchor: str = "midleft",
        offset_px: tuple[float, float] = (10.0, 0.0),
    ) -> None:
        """Text at a world point, font and offset designed at 1280x720 (drawn by
        :meth:`flush_on_top` after all strokes; skipped behind the camera)."""
        p = np.asarray(p_w, dtype=float).reshape(3)
        self._labels.append(_Label(p, text, color, size, anchor, offset_px))

    def screen(self, p_w: ArrayLike) -> tuple[float, float] | None:
        """One world point in pixels, or None behind the near plane."""
        px, depth = self.camera.project(p_w)
        return None if float(depth) <= self.camera.near else (float(px[0]), float(px[1]))
