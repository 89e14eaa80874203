"""The heightfield drawn shaded through the orbit camera: a coarse mesh, depth-sorted.

The mesh is built once: grid lines every :data:`MESH_CELL_M`, plus the heightfield's own
lines wherever the ground bends sharply across them (a terrace's riser, the ramp's edges),
so the drawn ground has the features' edges where the feet find them. Each quad is lit
once (Lambert, light from a fixed direction, with a floor of ambient light). Each frame the
visible quads turned toward the eye are projected in one numpy pass and drawn far to near
(painter's order), each followed by its share of a 1 m grid that fades out with distance
(the grid lines lie on the quad, so the painter's order hides them as it hides the quad);
far quads fade into the horizon's haze under a sky gradient. A camera that did not move
puts down the cached picture instead (``Canvas.layer``).
"""

from __future__ import annotations

from functools import cached_property
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

from game.canvas import Canvas
from game.palette import PALETTE, mix
from game.projection import OrbitCamera, clip_polygon, clip_segments
from game.world.heightfield import Heightfield
from game.world.types import FloatArray

MESH_CELL_M = 0.5  # the mesh's regular grid
FAR_CELL_M = 1.0  # ... zoomed out beyond FAR_DISTANCE_M (fewer, larger quads)
FAR_DISTANCE_M = 12.0
BEND = 0.05  # a change of slope (rise over run) across a grid line that keeps the line
LIGHT = np.array([-0.45, 0.8, 0.4]) / np.linalg.norm([-0.45, 0.8, 0.4])  # toward the light
AMBIENT = 0.35  # the share of light a face turned away from the light still gets
GRASS = (112, 150, 96)
ROCK = (150, 140, 120)
GRID_M = 1.0  # the grid drawn on the ground
GRID_DARKEN = 0.22  # a grid line's colour: its quad's, this much darker up close ...
GRID_FADE_M = 7.0  # ... fading into the quad's over this depth beyond the orbit centre
GRID_MIN = 0.01  # fainter than this: not drawn
SKY_TOP = (16, 22, 38)
HAZE = (92, 110, 128)  # the sky at the horizon, where far ground fades
HAZE_M = 25.0  # far quads fade toward the haze over this depth beyond the orbit centre
HAZE_MAX = 0.7
SKY_BANDS = 24


class Mesh(NamedTuple):
    """The drawn ground: vertices (V, 3), quads (Q, 4) of vertex indices, each quad's lit
    colour (Q, 3), the normals (Q, 2, 3) and centres (Q, 2, 3) of its two triangles (a quad
    of a heightfield need not be flat: over a crest one half may face the eye while the
    other faces away), and the grid lines on the quads: their ends (S, 2, 3), sorted by
    quad, quad ``q``'s lines ``grid[first[q]:first[q + 1]]``."""

    verts: FloatArray
    quads: NDArray[np.intp]
    colors: FloatArray
    normals: FloatArray
    centres: FloatArray
    grid: FloatArray
    first: NDArray[np.intp]


def grid_lines(corners: FloatArray) -> tuple[FloatArray, NDArray[np.intp]]:
    """The :data:`GRID_M` lines on each quad (Q, 4, 3) whose corners are (x0, z0), (x1, z0),
    (x1, z1), (x0, z1) in order: their ends (S, 2, 3) on the quad's edges, and the quad
    each belongs to (S,). A line on an edge two quads share belongs to both, so the nearer
    one, drawn later, draws it again over its own fill."""
    ends, owners = [], []
    for q, (a, b, c, d) in enumerate(corners):
        for g in np.arange(np.ceil(a[0] / GRID_M), np.floor(b[0] / GRID_M) + 1) * GRID_M:
            t = (g - a[0]) / max(b[0] - a[0], 1e-12)  # x = g: from edge a-b to edge d-c
            ends.append((a + (b - a) * t, d + (c - d) * t))
            owners.append(q)
        for g in np.arange(np.ceil(a[2] / GRID_M), np.floor(d[2] / GRID_M) + 1) * GRID_M:
            t = (g - a[2]) / max(d[2] - a[2], 1e-12)  # z = g: from edge a-d to edge b-c
            ends.append((a + (d - a) * t, b + (c - b) * t))
            owners.append(q)
    return np.array(ends, dtype=float).reshape(-1, 2, 3), np.array(owners, dtype=np.intp)


def mesh_lines(heights: FloatArray, every: int, axis: int) -> NDArray[np.intp]:
    """Grid indices along ``axis`` (1: columns, x; 0: rows, z) kept for the mesh: every
    ``every``-th, both ends, and both sides of each line where the slope across it
    changes by more than :data:`BEND` somewhere."""
    h = np.moveaxis(heights, axis, 0)
    count = h.shape[0]
    bend = np.abs(np.diff(h, n=2, axis=0)).max(axis=1)  # second difference at lines 1..n−2
    sharp = np.flatnonzero(bend > BEND) + 1
    keep = set(range(0, count, every)) | {count - 1} | set(sharp) | set(sharp - 1) | set(sharp + 1)
    return np.array(sorted(i for i in keep if 0 <= i < count), dtype=np.intp)


def merged_quads(grid: FloatArray) -> NDArray[np.intp]:
    """The mesh's quads (Q, 4) of vertex indices into ``grid`` (R, C, 3) flattened, cells
    of one row merged where they lie in one plane (flat ground, an even slope): the same
    picture from far fewer polygons."""
    rows, cols = grid.shape[:2]
    ij = np.arange(rows * cols).reshape(rows, cols)
    # a cell's plane: its x-slope along both edges and its z-slope along both edges
    dx = np.diff(grid[..., 1], axis=1) / np.diff(grid[..., 0], axis=1)  # (R, C−1)
    dz = np.diff(grid[..., 1], axis=0) / np.diff(grid[..., 2], axis=0)  # (R−1, C)
    planes = np.stack([dx[:-1], dx[1:], dz[:, :-1], dz[:, 1:]], axis=-1)  # (R−1, C−1, 4)
    # the next cell continues this one's plane (same slopes, and so the same heights)
    same = np.all(np.abs(planes[:, 1:] - planes[:, :-1]) < 1e-6, axis=-1)  # (R−1, C−2)
    # each row's strips (first cell, last cell), then strips merged down the rows where the
    # one below spans the same cells in the same plane
    open_strips: dict[tuple[int, int], tuple[int, tuple[float, ...]]] = {}
    quads = []
    for i in range(rows):
        strips: dict[tuple[int, int], tuple[int, tuple[float, ...]]] = {}
        start = 0
        for j in range(cols - 1 if i < rows - 1 else 0):
            if j == cols - 2 or not same[i, j]:
                plane = tuple(np.round(planes[i, start], 6).tolist())
                top, above = open_strips.pop((start, j), (i, plane))
                strips[(start, j)] = (top if above == plane else i, plane)
                if above != plane:
                    open_strips[(start, j)] = (top, above)
                start = j + 1
        for (first, last), (top, _) in open_strips.items():  # strips that end above row i
            quads.append((ij[top, first], ij[top, last + 1], ij[i, last + 1], ij[i, first]))
        open_strips = strips
    return np.array(quads, dtype=np.intp)


class GroundPainter:
    """Draws a :class:`Heightfield` as a lit, depth-sorted mesh."""

    def __init__(self, field: Heightfield) -> None:
        self.field = field
        self._last_key: tuple[object, ...] | None = None

    def _mesh(self, cell: float) -> Mesh:
        """The mesh with grid lines every :data:`MESH_CELL_M` or ``cell``."""
        heights, s = self.field.heights, self.field.spacing
        every = max(int(round(cell / s)), 1)
        cols, rows = mesh_lines(heights, every, 1), mesh_lines(heights, every, 0)
        x0, z0 = self.field.origin
        xs, zs = x0 + cols * s, z0 + rows * s
        grid = np.stack(np.meshgrid(xs, zs), axis=-1)  # (R, C, 2)
        y = heights[np.ix_(rows, cols)]
        verts = np.stack([grid[..., 0], y, grid[..., 1]], axis=-1).reshape(-1, 3)
        quads = merged_quads(verts.reshape(len(rows), len(cols), 3))
        p = verts[quads]
        # the triangles (0, 1, 3) and (2, 3, 1): z-edge × x-edge, up
        normals = np.stack(
            [
                np.cross(p[:, 3] - p[:, 0], p[:, 1] - p[:, 0]),
                np.cross(p[:, 1] - p[:, 2], p[:, 3] - p[:, 2]),
            ],
            axis=1,
        )
        normals /= np.linalg.norm(normals, axis=-1, keepdims=True)
        centres = np.stack([p[:, [0, 1, 3]].mean(axis=1), p[:, [2, 3, 1]].mean(axis=1)], axis=1)
        normal = normals.sum(axis=1)
        normal /= np.linalg.norm(normal, axis=-1, keepdims=True)  # the quad's, for its light
        lit = AMBIENT + (1 - AMBIENT) * np.clip(normal @ LIGHT, 0.0, 1.0)
        steep = np.clip((1.0 - normal[:, 1]) * 12.0, 0.0, 1.0)  # risers and walls look rocky
        base = np.asarray(GRASS) + (np.asarray(ROCK) - np.asarray(GRASS)) * steep[:, None]
        grid, owners = grid_lines(p)
        first = np.searchsorted(owners, np.arange(len(quads) + 1)).astype(np.intp)
        return Mesh(verts, quads, base * lit[:, None], normals, centres, grid, first)

    @cached_property
    def near_mesh(self) -> Mesh:
        return self._mesh(MESH_CELL_M)

    @cached_property
    def far_mesh(self) -> Mesh:
        return self._mesh(FAR_CELL_M)

    def draw(self, canvas: Canvas, camera: OrbitCamera) -> None:
        """The ground through ``camera``: a camera that stood still since the last frame
        puts down its cached picture (a moving one draws the mesh: caching every frame's
        picture would only churn the canvas's layer cache)."""
        key = (
            "walk3d-ground",
            camera.yaw,
            camera.pitch,
            camera.distance,
            camera.look_at,
            camera.viewport,
        )
        still, self._last_key = key == self._last_key, key
        if still:
            canvas.layer(key, PALETTE["background"], lambda layer: self._draw(layer, camera))
        else:
            self._draw(canvas, camera)

    def _draw(self, canvas: Canvas, camera: OrbitCamera) -> None:
        _sky(canvas, camera)
        mesh = self.far_mesh if camera.distance > FAR_DISTANCE_M else self.near_mesh
        verts_c = camera.to_camera(mesh.verts)
        px = camera.camera_to_px(verts_c)
        qd = verts_c[mesh.quads, 2]
        qpx = px[mesh.quads]
        _, _, width, height = camera.viewport
        # a quad is drawn where either of its triangles faces the eye
        facing = (np.einsum("ijk,ijk->ij", mesh.normals, camera.eye - mesh.centres) > 0.0).any(1)
        inside = (
            facing
            & (qd.max(axis=1) > camera.near)
            & (qpx[..., 0].max(axis=1) >= 0)
            & (qpx[..., 0].min(axis=1) <= width)
            & (qpx[..., 1].max(axis=1) >= 0)
            & (qpx[..., 1].min(axis=1) <= height)
        )
        order = np.flatnonzero(inside)
        depth = qd[order].mean(axis=1)
        order, depth = order[np.argsort(-depth, kind="stable")], np.sort(depth)[::-1]
        colors = mesh.colors[order]
        haze = np.clip((depth - camera.distance) / HAZE_M, 0.0, HAZE_MAX)[:, None]
        shaded = colors + (np.asarray(HAZE, dtype=float) - colors) * haze
        grid_k = GRID_DARKEN * (1.0 - np.clip((depth - camera.distance) / GRID_FADE_M, 0.0, 1.0))
        lined = np.rint(shaded * (1.0 - grid_k[:, None])).astype(int).tolist()
        fills = np.rint(shaded).astype(int).tolist()
        near = qd[order].min(axis=1) > camera.near
        segments, upto = self._grid_px(mesh, camera, order, grid_k > GRID_MIN)
        quads_px = qpx[order].tolist()  # plain numbers: no numpy per polygon
        for n, (index, fill, line, whole) in enumerate(
            zip(order.tolist(), fills, lined, near.tolist(), strict=True)
        ):
            if whole:
                canvas.polygon(quads_px[n], fill)
            else:
                clipped = clip_polygon(verts_c[mesh.quads[index]], camera.near)  # by the eye
                if len(clipped) >= 3:
                    canvas.polygon(camera.camera_to_px(clipped), fill)
            if upto[n] < upto[n + 1]:
                canvas.segments(segments[upto[n] : upto[n + 1]], line)

    @staticmethod
    def _grid_px(
        mesh: Mesh, camera: OrbitCamera, order: NDArray[np.intp], lined: NDArray[np.bool_]
    ) -> tuple[list[list[list[float]]], list[int]]:
        """The grid lines of the quads ``order`` where ``lined``, in pixels (clipped by the
        near plane; one wholly behind it is a point off the screen), and where each quad's
        lines start in that list (``upto[n]:upto[n + 1]`` for ``order[n]``)."""
        counts = np.where(lined, mesh.first[order + 1] - mesh.first[order], 0)
        upto = np.concatenate([[0], np.cumsum(counts)])
        picked = np.repeat(mesh.first[order] - upto[:-1], counts) + np.arange(upto[-1])
        ends_c = camera.to_camera(mesh.grid[picked].reshape(-1, 3)).reshape(-1, 2, 3)
        a_c, b_c, seen = clip_segments(ends_c[:, 0], ends_c[:, 1], camera.near)
        grid_c = np.stack([a_c, b_c], axis=1)
        grid_c[~seen] = (0.0, 0.0, 1.0)  # wholly behind the eye: a safe stand-in ...
        grid_px = camera.camera_to_px(grid_c.reshape(-1, 3)).reshape(-1, 2, 2)
        grid_px[~seen] = -1.0  # ... drawn as a point off the screen: nothing
        segments: list[list[list[float]]] = grid_px.tolist()
        return segments, upto.tolist()


def _sky(canvas: Canvas, camera: OrbitCamera) -> None:
    """A vertical gradient from :data:`SKY_TOP` to :data:`HAZE` at the horizon (where
    the camera's level gaze meets the screen), haze below it."""
    _, _, width, height = camera.viewport
    level = camera.eye + np.array([-np.sin(camera.yaw), 0.0, -np.cos(camera.yaw)]) * 1e4
    horizon = float(np.clip(camera.project(level[None])[0][0, 1], 1.0, height))
    top = 0.0
    for band in range(SKY_BANDS):
        bottom = horizon * (band + 1) / SKY_BANDS
        t = (band + 0.5) / SKY_BANDS
        canvas.rect((0, top, width, bottom - top + 1), mix(SKY_TOP, HAZE, t * t))
        top = bottom
    canvas.rect((0, horizon, width, height - horizon + 1), HAZE)
