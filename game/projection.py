"""A small 3-D orbit camera: world points (y-up, right-handed) to screen pixels and back.

Pure numpy, no pygame. The camera orbits a ``look_at`` point at ``distance`` metres, ``yaw``
radians about the world y axis and ``pitch`` radians above the horizon. Camera coordinates
are ``(right, up, depth)``: depth is measured along the viewing direction, positive in front
of the eye. Pixels are y-down; the 3-D y-flip lives in :meth:`OrbitCamera.camera_to_px` only.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

import numpy as np
from numpy.typing import ArrayLike, NDArray

WORLD_UP = np.array([0.0, 1.0, 0.0])
MAX_PITCH = math.radians(85.0)  # short of ±90°: the view direction must never be parallel to up
MIN_DISTANCE = 3.0
MAX_DISTANCE = 40.0


@dataclass(frozen=True, slots=True)
class OrbitCamera:
    """A perspective camera orbiting ``look_at``.

    Parameters
    ----------
    yaw : float
        Radians about world +y; 0 puts the eye on the +z side looking toward −z.
    pitch : float
        Radians above the horizon (positive looks down on the scene), within ±85°.
    distance : float
        Metres from the eye to ``look_at``.
    look_at : tuple of float
        The world point at the viewport centre, shape ``(3,)``.
    fov_y : float
        Vertical field of view in radians.
    viewport : tuple of int
        ``(left, top, width, height)`` of the screen area in pixels.
    near : float
        Depth of the near clipping plane in metres.
    """

    yaw: float = 0.0
    pitch: float = 0.3
    distance: float = 10.0
    look_at: tuple[float, float, float] = (0.0, 0.0, 0.0)
    fov_y: float = math.radians(45.0)
    viewport: tuple[int, int, int, int] = (0, 0, 1280, 720)
    near: float = 0.1

    _eye: NDArray[np.float64] = field(init=False, repr=False, compare=False)
    _basis: NDArray[np.float64] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # The frame is derived once per camera (the camera is immutable): every projection
        # reuses it.
        cp = math.cos(self.pitch)
        # spherical coordinates about look_at: (cos p · sin yaw, sin p, cos p · cos yaw)
        offset = np.array([cp * math.sin(self.yaw), math.sin(self.pitch), cp * math.cos(self.yaw)])
        eye = np.asarray(self.look_at, dtype=float) + self.distance * offset
        forward = -offset  # unit: the eye looks back along its offset
        right = np.cross(forward, WORLD_UP)  # right-handed: forward × up points right
        right /= np.linalg.norm(right)  # nonzero: |pitch| < 90° keeps forward off the up axis
        up = np.cross(right, forward)
        object.__setattr__(self, "_eye", eye)
        object.__setattr__(self, "_basis", np.stack([right, up, forward]))

    # -- frame -----------------------------------------------------------------------------
    @property
    def eye(self) -> NDArray[np.float64]:
        """The eye position, shape ``(3,)``."""
        return self._eye.copy()

    @property
    def basis(self) -> NDArray[np.float64]:
        """Rows ``right``, ``up``, ``forward`` (unit world vectors), shape ``(3, 3)``."""
        return self._basis.copy()

    @property
    def focal_px(self) -> float:
        """Pixels per unit of ``x / depth``: half the viewport height over tan(fov / 2)."""
        return self.viewport[3] / 2.0 / math.tan(self.fov_y / 2.0)

    @property
    def center_px(self) -> tuple[float, float]:
        """The viewport centre in pixels (where ``look_at`` appears)."""
        left, top, width, height = self.viewport
        return left + width / 2.0, top + height / 2.0

    # -- world → screen --------------------------------------------------------------------
    def to_camera(self, points_w: ArrayLike) -> NDArray[np.float64]:
        """World points, shape ``(..., 3)``, to camera ``(right, up, depth)``, shape ``(..., 3)``."""
        p = np.asarray(points_w, dtype=float)
        # change of basis: c = B · (p − eye) with the rows of B the camera axes
        return (p - self._eye) @ self._basis.T

    def camera_to_px(self, points_c: ArrayLike) -> NDArray[np.float64]:
        """Camera points, shape ``(..., 3)``, to pixels, shape ``(..., 2)``.

        Depths below ``near`` are treated as ``near`` so the result is always finite; clip
        first (:func:`clip_segments`, :func:`clip_polygon`) where that matters.
        """
        c = np.asarray(points_c, dtype=float)
        depth = np.maximum(c[..., 2], self.near)
        cx, cy = self.center_px
        out = np.empty(c.shape[:-1] + (2,), dtype=float)
        out[..., 0] = cx + self.focal_px * c[..., 0] / depth  # pinhole: x = f · X / Z
        out[..., 1] = cy - self.focal_px * c[..., 1] / depth  # the one y-flip (pixels are y-down)
        return out

    def project(self, points_w: ArrayLike) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """World points, shape ``(..., 3)``, to pixels ``(..., 2)`` and depths ``(...)``."""
        c = self.to_camera(points_w)
        return self.camera_to_px(c), c[..., 2]

    def px_per_metre(self, depth: ArrayLike) -> NDArray[np.float64]:
        """How many pixels one metre spans at ``depth``, shape like ``depth``."""
        return self.focal_px / np.maximum(np.asarray(depth, dtype=float), self.near)

    # -- screen → world --------------------------------------------------------------------
    def unproject(self, points_px: ArrayLike, depth: ArrayLike) -> NDArray[np.float64]:
        """The world point under each pixel at camera ``depth``.

        Parameters
        ----------
        points_px : array_like, shape (..., 2)
        depth : array_like, shape (...)

        Returns
        -------
        ndarray, shape (..., 3)
        """
        px = np.asarray(points_px, dtype=float)
        z = np.asarray(depth, dtype=float)
        cx, cy = self.center_px
        c = np.empty(np.broadcast_shapes(px.shape[:-1], z.shape) + (3,), dtype=float)
        c[..., 0] = (px[..., 0] - cx) * z / self.focal_px  # inverse pinhole: X = x · Z / f
        c[..., 1] = -(px[..., 1] - cy) * z / self.focal_px
        c[..., 2] = z
        return self._eye + c @ self._basis

    def ray(self, points_px: ArrayLike) -> NDArray[np.float64]:
        """Unit world directions from the eye through each pixel, shape ``(..., 3)``."""
        d = self.unproject(points_px, 1.0) - self._eye
        return d / np.linalg.norm(d, axis=-1, keepdims=True)

    def drag_point(self, point_px: ArrayLike, anchor_w: ArrayLike) -> NDArray[np.float64]:
        """Where the pointer ray meets the plane through ``anchor_w`` facing the camera.

        The plane is perpendicular to the viewing direction, so a drag keeps the anchor's
        depth; an anchor behind the near plane is dragged at the near plane.

        Parameters
        ----------
        point_px : array_like, shape (2,)
        anchor_w : array_like, shape (3,)

        Returns
        -------
        ndarray, shape (3,)
        """
        depth = max(float(self.to_camera(anchor_w)[2]), self.near)
        return self.unproject(point_px, depth)

    # -- camera moves ----------------------------------------------------------------------
    def orbited(self, d_yaw: float, d_pitch: float) -> OrbitCamera:
        """The camera turned by ``d_yaw`` and tilted by ``d_pitch`` (pitch clamped, yaw wrapped).

        A non-finite turn leaves the camera as it is.
        """
        if not (math.isfinite(d_yaw) and math.isfinite(d_pitch)):
            return self
        yaw = math.remainder(self.yaw + d_yaw, 2 * math.pi)  # wrap so long drags keep precision
        pitch = min(max(self.pitch + d_pitch, -MAX_PITCH), MAX_PITCH)
        return replace(self, yaw=yaw, pitch=pitch)

    def zoomed(self, factor: float) -> OrbitCamera:
        """The camera with its distance multiplied by ``factor`` (clamped to a sane range).

        A non-finite or non-positive factor leaves the camera as it is.
        """
        if not (math.isfinite(factor) and factor > 0.0):
            return self
        distance = min(max(self.distance * factor, MIN_DISTANCE), MAX_DISTANCE)
        return replace(self, distance=distance)


def clip_segments(
    a_c: ArrayLike, b_c: ArrayLike, near: float
) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.bool_]]:
    """Clip camera-space segments against the near plane ``depth = near``.

    Parameters
    ----------
    a_c, b_c : array_like, shape (..., 3)
        Segment ends in camera coordinates.
    near : float

    Returns
    -------
    a, b : ndarray, shape (..., 3)
        The ends moved onto the near plane where they were behind it.
    visible : ndarray of bool, shape (...)
        False where the whole segment is behind the near plane.
    """
    a = np.array(a_c, dtype=float)
    b = np.array(b_c, dtype=float)
    za, zb = a[..., 2], b[..., 2]
    span = np.where(np.abs(zb - za) > 1e-12, zb - za, 1.0)  # only used where the ends straddle
    t = ((near - za) / span)[..., None]  # line parameter where depth = near
    crossing = a + t * (b - a)
    a_behind, b_behind = za < near, zb < near
    a = np.where(a_behind[..., None], crossing, a)
    b = np.where(b_behind[..., None], crossing, b)
    return a, b, ~(a_behind & b_behind)


def clip_polygon(points_c: ArrayLike, near: float) -> NDArray[np.float64]:
    """One convex or concave polygon in camera space clipped to ``depth ≥ near``.

    Sutherland–Hodgman against a single plane: keep inside vertices and add the crossing
    point of every edge that straddles the plane.

    Parameters
    ----------
    points_c : array_like, shape (N, 3)

    Returns
    -------
    ndarray, shape (M, 3)
        Possibly empty (``M = 0``) when the polygon is wholly behind the plane.
    """
    pts = np.asarray(points_c, dtype=float)
    if bool(np.all(pts[:, 2] >= near)):
        return pts  # nothing behind the plane: the clip keeps every vertex as it is
    out: list[NDArray[np.float64]] = []
    for current, following in zip(pts, np.roll(pts, -1, axis=0), strict=True):
        inside_now, inside_next = current[2] >= near, following[2] >= near
        if inside_now:
            out.append(current)
        if inside_now != inside_next:
            t = (near - current[2]) / (following[2] - current[2])  # nonzero: the ends straddle
            out.append(current + t * (following - current))
    return np.array(out).reshape(-1, 3)
