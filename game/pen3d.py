"""Drawing 3-D world geometry on a 2-D :class:`~game.canvas.Canvas` through an orbit camera.

:class:`Pen3D` clips at the near plane (:mod:`game.projection`), projects, applies the depth
cues (nearer is brighter and thicker, faces lit by one light) and sorts strokes far to near
(painter's algorithm); labels are drawn last, on top. No pygame.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from game.canvas import Canvas, Point, dash_segments
from game.layout import font_px, ui_scale
from game.palette import PALETTE, Color, mix
from game.projection import OrbitCamera, clip_polygon, clip_segments

LIGHT = np.array([-0.3, 1.0, 0.5]) / math.sqrt(0.09 + 1.0 + 0.25)  # unit, from upper left front


class Pen3D:
    """Draws world geometry (metres) on a canvas through an :class:`OrbitCamera`.

    Strokes are queued with their camera depth and drawn far to near by :meth:`flush`;
    labels are queued separately and drawn last, on top of everything.
    """

    def __init__(self, canvas: Canvas, camera: OrbitCamera) -> None:
        self.canvas = canvas
        self.camera = camera
        self._strokes: list[tuple[float, int, Callable[..., Any], tuple[Any, ...]]] = []
        self._on_top: list[Callable[[], Any]] = []
        # depth-cue range: a band of ±4 m around the orbit centre
        self._near_cue = camera.distance - 4.0
        self._far_cue = camera.distance + 4.0

    # -- depth cues -------------------------------------------------------------------------
    def shades(
        self, color: Color, depth: ArrayLike, strength: ArrayLike = 1.0
    ) -> NDArray[np.int64]:
        """``color`` dimmed toward the background with distance (nearer is brighter).

        ``depth`` and ``strength`` broadcast to shape ``(...)``; returns RGB, shape ``(..., 3)``.
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

    def widths(self, width_px: float, depth: ArrayLike) -> NDArray[np.int64]:
        """Stroke widths scaled by perspective (nearer is thicker), at least 1 px."""
        z = np.maximum(np.asarray(depth, dtype=float), self.camera.near)
        return np.maximum(np.rint(width_px * self.camera.distance / z), 1).astype(np.int64)

    # -- queueing ---------------------------------------------------------------------------
    def _queue(self, depth: float, draw: Callable[..., Any], *args: Any) -> None:
        self._strokes.append((depth, len(self._strokes), draw, args))

    def on_top(self, draw: Callable[[], Any]) -> None:
        """Run ``draw`` after every stroke (labels, screen-space markers)."""
        self._on_top.append(draw)

    def flush(self) -> None:
        """Draw the queued strokes far to near, then forget them."""
        for _, _, draw, args in sorted(self._strokes, key=lambda s: (-s[0], s[1])):
            draw(*args)
        self._strokes.clear()

    def flush_on_top(self) -> None:
        """Draw what :meth:`on_top` and :meth:`label` queued (after every stroke)."""
        for draw in self._on_top:
            draw()
        self._on_top.clear()

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
        """
        cam = self.camera
        a_c = cam.to_camera(np.reshape(a_w, (-1, 3)))
        b_c = cam.to_camera(np.reshape(b_w, (-1, 3)))
        a_c, b_c, visible = clip_segments(a_c, b_c, cam.near)
        depth = (a_c[:, 2] + b_c[:, 2]) / 2.0  # the midpoint's depth sorts the segment
        colors = self.shades(color, depth, strength).tolist()
        widths = self.widths(width_px, depth).tolist()
        a_px, b_px = cam.camera_to_px(a_c).tolist(), cam.camera_to_px(b_c).tolist()
        draw = self._dashed if dashed else self.canvas.line
        for i in np.flatnonzero(visible).tolist():
            self._queue(float(depth[i]), draw, a_px[i], b_px[i], tuple(colors[i]), widths[i])

    def _dashed(self, a: Point, b: Point, color: Color, width: int) -> None:
        dashes = dash_segments(a, b, 9.0, 6.0)
        if len(dashes):
            self.canvas.segments(dashes, color, width)

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
        """A shaded ball: a disc of the projected radius with a highlight toward the light."""
        px, depth = self.camera.project(center_w)
        z = float(depth)
        if z <= self.camera.near:
            return
        r = max(radius_m * float(self.camera.px_per_metre(z)), 2.0)
        base, light = self.shade(color, z), self.shade(mix(color, PALETTE["white"], 0.6), z)
        x, y = float(px[0]), float(px[1])

        def draw() -> None:
            self.canvas.circle((x, y), r, mix(base, PALETTE["black"], 0.35))
            self.canvas.circle((x, y), r * 0.86, base)
            self.canvas.circle((x - r * 0.3, y - r * 0.3), r * 0.32, light)

        self._queue(z, draw)

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
        center = np.asarray(center_w, dtype=float)
        eye = self.camera.eye
        for sx in (-1.0, 1.0):
            for sy in (-1.0, 1.0):
                for sz in (-1.0, 1.0):
                    face = center + size_m * np.array([[sx, 0, 0], [0, sy, 0], [0, 0, sz]])
                    normal = np.array([sx, sy, sz]) / math.sqrt(3.0)  # octant face normal
                    if float(normal @ (eye - face.mean(axis=0))) <= 0.0:
                        continue  # back face
                    # Lambert: ambient 0.45 plus 0.55·max(n·L, 0)
                    lit = 0.45 + 0.55 * max(float(normal @ LIGHT), 0.0)
                    self.polygon(face, mix(PALETTE["black"], color, lit))

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
        """Text at a world point (drawn after all strokes; skipped behind the camera)."""
        px, depth = self.camera.project(p_w)
        if float(depth) <= self.camera.near:
            return
        scale = ui_scale(self.canvas.size)  # labels are designed at 1280x720, as the HUD
        pos = (float(px[0]) + offset_px[0] * scale, float(px[1]) + offset_px[1] * scale)
        font = font_px(size, scale)
        self.on_top(lambda: self.canvas.text(pos, text, color, font, anchor))

    def screen(self, p_w: ArrayLike) -> tuple[float, float] | None:
        """One world point in pixels, or None behind the near plane."""
        px, depth = self.camera.project(p_w)
        return None if float(depth) <= self.camera.near else (float(px[0]), float(px[1]))
