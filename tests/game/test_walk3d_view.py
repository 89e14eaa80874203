"""The walk in 3-D's drawn ground: the grid lies on the drawn quads, the mesh's faces turn
up, the camera's eye stays over the ground, and the scene opens on the walker rather than
its debugging overlay."""

from __future__ import annotations

import math

import numpy as np

from game.projection import MAX_PITCH, OrbitCamera
from game.scenes.walk3d_ground import GRID_M, GroundPainter, grid_lines
from game.scenes.walk3d_view import EYE_CLEAR_M, above_ground
from game.world.heightfield import Heightfield


def terraced_field() -> Heightfield:
    """8 × 6 m: flat, a 10° slope along x, then a 0.2 m step up at z = 4."""
    s = 0.1
    xs, zs = np.arange(81) * s, np.arange(61) * s
    heights = np.clip(xs[None, :] - 3.0, 0.0, None) * math.tan(math.radians(10.0))
    heights = heights + np.where(zs[:, None] >= 4.0, 0.2, 0.0)
    return Heightfield((0.0, 0.0), s, heights)


def test_grid_lines_lie_on_their_quad_at_whole_metres() -> None:
    mesh = GroundPainter(terraced_field()).near_mesh
    corners = mesh.verts[mesh.quads]
    for q in range(len(mesh.quads)):
        a, b, _, d = corners[q]
        for end in mesh.grid[mesh.first[q] : mesh.first[q + 1]].reshape(-1, 3):
            assert a[0] - 1e-9 <= end[0] <= b[0] + 1e-9
            assert a[2] - 1e-9 <= end[2] <= d[2] + 1e-9
        for start, stop in mesh.grid[mesh.first[q] : mesh.first[q + 1]]:
            along = np.flatnonzero(np.abs(start - stop)[[0, 2]] < 1e-9)
            assert along.size == 1  # a line of constant x or constant z ...
            fixed = start[[0, 2]][along[0]]
            assert abs(fixed / GRID_M - round(fixed / GRID_M)) < 1e-9  # ... on the grid


def test_grid_lines_on_a_plane_quad_keep_to_its_plane() -> None:
    corners = np.array([[[0.0, 0.0, 0.0], [3.0, 0.6, 0.0], [3.0, 0.6, 2.0], [0.0, 0.0, 2.0]]])
    ends, owners = grid_lines(corners)
    assert len(ends) == 4 + 3 and set(owners.tolist()) == {0}  # x = 0..3, z = 0..2
    np.testing.assert_allclose(ends[..., 1], 0.2 * ends[..., 0])


def test_every_ground_face_turns_up() -> None:
    mesh = GroundPainter(terraced_field()).near_mesh
    assert (mesh.normals[..., 1] > 0.0).all()
    np.testing.assert_allclose(np.linalg.norm(mesh.normals, axis=-1), 1.0)


def test_the_scene_opens_with_the_overlay_off() -> None:
    from game.scene import SceneConfig
    from game.scenes.walk3d import Walk3DSim
    from game.scenes.walk3d_view import Walk3DView

    assert Walk3DView(Walk3DSim(SceneConfig())).overlay_shown is False


def test_orbited_low_anywhere_the_eye_stays_over_the_ground() -> None:
    field, rng = terraced_field(), np.random.default_rng(7)
    for _ in range(300):
        x, z = rng.uniform(-2.0, 10.0), rng.uniform(-2.0, 8.0)
        look = (x, float(field.height_at(x, z)) + rng.uniform(-0.2, 1.5), z)
        camera = OrbitCamera(
            yaw=rng.uniform(-math.pi, math.pi),
            pitch=rng.uniform(-MAX_PITCH, MAX_PITCH),
            distance=rng.uniform(1.0, 20.0),
            look_at=look,
        )
        kept = above_ground(camera, field)
        eye = kept.eye
        assert eye[1] >= float(field.height_at(eye[0], eye[2])) + EYE_CLEAR_M - 1e-6
        assert kept.pitch >= camera.pitch  # only ever tilted up ...
        above = camera.eye[1] >= float(field.height_at(camera.eye[0], camera.eye[2])) + EYE_CLEAR_M
        if above:
            assert kept == camera  # ... and only when it must be


def test_the_view_tilts_up_over_the_ground_but_keeps_the_pitch_the_player_chose() -> None:
    # orbited below the horizon (the player's pitch): the camera drawn is tilted up to keep
    # its eye over the ground, the pitch the player chose is kept for when the ground
    # falls away; a camera with a non-finite look point is left as it is
    from game.input_state import RawInput
    from game.scene import SceneConfig
    from game.scenes.walk3d import Walk3DSim
    from game.scenes.walk3d_view import Walk3DView

    view = Walk3DView(Walk3DSim(SceneConfig()))
    view.pitch = -0.8
    for _ in range(3):
        view.map_input(RawInput())
    assert view.pitch == -0.8
    eye, field = view.camera.eye, view.sim.field
    assert view.camera.pitch > -0.8
    assert eye[1] >= float(field.height_at(eye[0], eye[2])) + EYE_CLEAR_M - 1e-6
    lost = OrbitCamera(yaw=0.0, pitch=0.2, distance=4.0, look_at=(math.nan, 1.0, 2.0))
    assert above_ground(lost, terraced_field()) is lost


class _PolygonCount:
    """A canvas that counts the polygons put down (the ground's quads) and ignores the rest."""

    size = (640, 360)

    def __init__(self) -> None:
        self.polygons = 0

    def polygon(self, *args: object, **kwargs: object) -> None:
        self.polygons += 1

    def __getattr__(self, name: str) -> object:
        return lambda *args, **kwargs: None


def test_a_quad_over_a_crest_is_drawn_while_either_half_faces_the_eye() -> None:
    # one quad folded along its diagonal into a ridge: seen low from either side, one half
    # faces the eye and the other away; the quad is drawn all the same (culled, it would
    # leave a hole where the sky shows through the ground)
    field = Heightfield((0.0, 0.0), 1.0, np.array([[0.0, 0.5], [0.5, 0.0]]))
    painter = GroundPainter(field)
    assert len(painter.near_mesh.quads) == 1
    for yaw in np.radians(np.arange(0.0, 360.0, 15.0)):
        camera = OrbitCamera(
            yaw=float(yaw), pitch=math.radians(3.0), distance=3.0, look_at=(0.5, 0.25, 0.5)
        )
        mesh = painter.near_mesh
        toward = np.einsum("ijk,ijk->ij", mesh.normals, camera.eye - mesh.centres) > 0.0
        canvas = _PolygonCount()
        painter._draw(canvas, camera)  # type: ignore[arg-type]
        assert canvas.polygons == int(toward.any())
