from __future__ import annotations

import math

import numpy as np
import pytest

from game.projection import MAX_PITCH, OrbitCamera, clip_polygon, clip_segments

CAMERAS = [
    OrbitCamera(),
    OrbitCamera(yaw=0.7, pitch=0.4, distance=9.0, look_at=(1.0, -0.5, 0.3)),
    OrbitCamera(yaw=-2.5, pitch=-1.2, distance=4.0, viewport=(100, 50, 640, 480)),
]


@pytest.mark.parametrize("camera", CAMERAS)
def test_the_orbit_camera_looks_at_its_target_from_its_distance(camera: OrbitCamera) -> None:
    px, depth = camera.project(camera.look_at)
    np.testing.assert_allclose(px, camera.center_px, atol=1e-9)
    assert float(depth) == pytest.approx(camera.distance)
    assert np.linalg.norm(camera.eye - np.asarray(camera.look_at)) == pytest.approx(camera.distance)


@pytest.mark.parametrize("camera", CAMERAS)
def test_the_camera_basis_is_orthonormal_and_right_handed(camera: OrbitCamera) -> None:
    right, up, forward = camera.basis
    np.testing.assert_allclose(camera.basis @ camera.basis.T, np.eye(3), atol=1e-12)
    np.testing.assert_allclose(np.cross(right, up), -forward, atol=1e-12)  # looking down −z_cam
    assert up[1] > 0  # world up stays up on screen


def test_world_up_is_screen_up_and_world_right_is_screen_right_from_the_front() -> None:
    camera = OrbitCamera(yaw=0.0, pitch=0.0)
    (x0, y0), _ = camera.project((0.0, 0.0, 0.0))
    (x1, y1), _ = camera.project((0.0, 1.0, 0.0))
    (x2, y2), _ = camera.project((1.0, 0.0, 0.0))
    assert y1 < y0 and x1 == pytest.approx(x0)
    assert x2 > x0 and y2 == pytest.approx(y0)


def test_a_metre_spans_focal_over_depth_pixels() -> None:
    camera = OrbitCamera(yaw=0.0, pitch=0.0, distance=10.0)
    (xa, _), _ = camera.project((0.0, 0.0, 0.0))
    (xb, _), _ = camera.project((1.0, 0.0, 0.0))
    assert xb - xa == pytest.approx(float(camera.px_per_metre(10.0)))


@pytest.mark.parametrize("camera", CAMERAS)
def test_project_then_unproject_round_trips_batched_points(camera: OrbitCamera) -> None:
    rng = np.random.default_rng(3)
    points = rng.uniform(-3, 3, size=(4, 5, 3))
    px, depth = camera.project(points)
    assert px.shape == (4, 5, 2) and depth.shape == (4, 5)
    np.testing.assert_allclose(camera.unproject(px, depth), points, atol=1e-9)


@pytest.mark.parametrize("camera", CAMERAS)
def test_a_ray_through_a_projected_point_passes_through_the_point(camera: OrbitCamera) -> None:
    point = np.array([0.4, 1.1, -0.7])
    px, depth = camera.project(point)
    direction = camera.ray(px)
    to_point = point - camera.eye
    assert np.linalg.norm(direction) == pytest.approx(1.0)
    np.testing.assert_allclose(np.cross(direction, to_point), 0.0, atol=1e-9)
    assert float(direction @ to_point) > 0


def test_a_drag_stays_in_the_plane_through_the_anchor_facing_the_camera() -> None:
    camera = CAMERAS[1]
    anchor = np.array([1.5, 0.2, -0.4])
    moved = camera.drag_point((300.0, 200.0), anchor)
    forward = camera.basis[2]
    assert float((moved - anchor) @ forward) == pytest.approx(0.0, abs=1e-9)
    np.testing.assert_allclose(camera.project(moved)[0], (300.0, 200.0), atol=1e-9)
    # dragging to the anchor's own pixel leaves it where it is
    np.testing.assert_allclose(camera.drag_point(camera.project(anchor)[0], anchor), anchor)


def test_orbit_clamps_pitch_and_wraps_yaw_and_zoom_clamps_distance() -> None:
    camera = OrbitCamera().orbited(1e6, 1e6)
    assert camera.pitch == MAX_PITCH and -math.pi <= camera.yaw <= math.pi
    assert np.isfinite(camera.basis).all()
    assert OrbitCamera().zoomed(1e-9).distance >= 1.0
    assert math.isfinite(OrbitCamera().zoomed(1e30).distance)
    for bad in (math.nan, math.inf, -1.0, 0.0):
        assert OrbitCamera().zoomed(bad) == OrbitCamera()
    assert OrbitCamera().orbited(math.nan, 0.1) == OrbitCamera()


def test_pixels_stay_finite_for_points_behind_the_eye() -> None:
    camera = OrbitCamera()
    px, depth = camera.project(camera.eye + 5 * camera.basis[2] * -1)
    assert float(depth) < 0 and np.isfinite(px).all()


def test_clip_segments_moves_ends_behind_the_near_plane_onto_it() -> None:
    a = np.array([[0.0, 0.0, -1.0], [0.0, 0.0, 2.0], [1.0, 0.0, -3.0]])
    b = np.array([[0.0, 2.0, 1.0], [0.0, 1.0, 4.0], [1.0, 0.0, -1.0]])
    ca, cb, visible = clip_segments(a, b, 0.5)
    np.testing.assert_array_equal(visible, [True, True, False])
    np.testing.assert_allclose(ca[0], (0.0, 1.5, 0.5))  # 3/4 of the way along the segment
    np.testing.assert_allclose(cb[0], b[0])
    np.testing.assert_allclose(ca[1], a[1])


def test_clip_polygon_cuts_a_square_straddling_the_near_plane() -> None:
    square = np.array([[-1.0, 0.0, -1.0], [1.0, 0.0, -1.0], [1.0, 0.0, 1.0], [-1.0, 0.0, 1.0]])
    clipped = clip_polygon(square, 0.0)
    assert clipped.shape == (4, 3)
    assert (clipped[:, 2] >= 0.0).all()
    assert clip_polygon(square - (0.0, 0.0, 5.0), 0.0).shape == (0, 3)
