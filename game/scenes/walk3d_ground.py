"""The heightfield drawn shaded through the orbit camera: a coarse mesh, depth-sorted.

The mesh is built once: grid lines every :data:`MESH_CELL_M`, plus the heightfield's own
lines wherever the ground bends sharply across them (a terrace's riser, the ramp's edges),
so the drawn ground has the features' edges where the feet find them. Each quad is lit
once (Lambert, light from a fixed direction, with a floor of ambient light). Each frame the
visible quads are projected in one numpy pass and drawn far to near (painter's order); a
camera that did not move puts down the cached picture instead (``Canvas.layer``).
"""

from __future__ import annotations

from functools import cached_property

import numpy as np
from numpy.typing import NDArray

from game.canvas import Canvas
from game.palette import PALETTE
from game.projection import OrbitCamera, clip_polygon
from game.world.heightfield import Heightfield

FloatArray = NDArray[np.float64]

MESH_CELL_M = 0.5  # the mesh's regular grid
FAR_CELL_M = 1.0  # ... zoomed out beyond FAR_DISTANCE_M (fewer, larger quads)
FAR_DISTANCE_M = 12.0
BEND = 0.05  # a change of slope (rise over run) across a grid line that keeps the line
LIGHT = np.array([-0.45, 0.8, 0.4]) / np.linalg.norm([-0.45, 0.8, 0.4])  # toward the light
AMBIENT = 0.35  # the share of light a face turned away from the light still gets
GRASS = (112, 150, 96)
ROCK = (150, 140, 120)


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

    def _mesh(self, cell: float) -> tuple[FloatArray, NDArray[np.intp], FloatArray]:
        """Vertices (V, 3), quads (Q, 4) of vertex indices and each quad's lit colour (Q, 3)."""
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
        normal = np.cross(p[:, 3] - p[:, 0], p[:, 1] - p[:, 0])  # z-edge × x-edge: up
        normal /= np.linalg.norm(normal, axis=-1, keepdims=True)
        lit = AMBIENT + (1 - AMBIENT) * np.clip(normal @ LIGHT, 0.0, 1.0)
        steep = np.clip((1.0 - normal[:, 1]) * 12.0, 0.0, 1.0)  # risers and walls look rocky
        base = np.asarray(GRASS) + (np.asarray(ROCK) - np.asarray(GRASS)) * steep[:, None]
        return verts, quads, base * lit[:, None]

    @cached_property
    def near_mesh(self) -> tuple[FloatArray, NDArray[np.intp], FloatArray]:
        return self._mesh(MESH_CELL_M)

    @cached_property
    def far_mesh(self) -> tuple[FloatArray, NDArray[np.intp], FloatArray]:
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
        verts, quads, colors = self.far_mesh if camera.distance > FAR_DISTANCE_M else self.near_mesh
        verts_c = camera.to_camera(verts)
        px = camera.camera_to_px(verts_c)
        qd = verts_c[quads, 2]
        qpx = px[quads]
        _, _, width, height = camera.viewport
        inside = (
            (qd.max(axis=1) > camera.near)
            & (qpx[..., 0].max(axis=1) >= 0)
            & (qpx[..., 0].min(axis=1) <= width)
            & (qpx[..., 1].max(axis=1) >= 0)
            & (qpx[..., 1].min(axis=1) <= height)
        )
        order = np.flatnonzero(inside)
        depth = qd[order].mean(axis=1)
        order, depth = order[np.argsort(-depth, kind="stable")], np.sort(depth)[::-1]
        # distance haze: far quads toward the sky colour
        far = np.clip((depth - camera.distance) / 25.0, 0.0, 0.6)
        sky = np.asarray(PALETTE["background"], dtype=float)
        shaded = np.rint(colors[order] + (sky - colors[order]) * far[:, None]).astype(int)
        for index, (r, g, b) in zip(order.tolist(), shaded.tolist(), strict=True):
            if qd[index].min() > camera.near:
                canvas.polygon(qpx[index], (r, g, b))
                continue
            clipped = clip_polygon(verts_c[quads[index]], camera.near)  # a quad by the eye
            if len(clipped) >= 3:
                canvas.polygon(camera.camera_to_px(clipped), (r, g, b))
