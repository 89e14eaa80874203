"""Pen3D: strokes of every kind are drawn far to near, labels last, nothing behind the eye."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

from game.palette import PALETTE
from game.pen3d import Pen3D
from game.projection import OrbitCamera

# Looking along −z from z = 10 at the origin: a world point's depth is 10 − z.
CAMERA = OrbitCamera(yaw=0.0, pitch=0.0, distance=10.0, viewport=(0, 0, 1280, 720))
RED, GREEN, BLUE = (255, 0, 0), (0, 255, 0), (0, 0, 255)


class Recorder:
    """A canvas that only records what was drawn, in order."""

    size = (1280, 720)

    def __init__(self) -> None:
        self.calls: list[tuple[str, tuple[Any, ...]]] = []

    def __getattr__(self, name: str) -> Any:
        def record(*args: Any) -> None:
            self.calls.append((name, args))

        return record


def _pen() -> tuple[Pen3D, Recorder]:
    recorder = Recorder()
    return Pen3D(recorder, CAMERA), recorder  # type: ignore[arg-type]


def test_segments_of_separate_calls_interleave_far_to_near_one_by_one() -> None:
    pen, recorder = _pen()
    depths_a = np.array([2.0, 8.0, 5.0])
    depths_b = np.array([3.0, 7.0])

    def horizontal(depths: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        z = 10.0 - depths
        a = np.stack([-0.1 * np.ones_like(z), np.zeros_like(z), z], axis=1)
        return a, a + np.array([0.2, 0.0, 0.0])

    pen.segments(*horizontal(depths_a), RED)
    pen.segments(*horizontal(depths_b), BLUE)
    pen.flush()
    lines = [args for name, args in recorder.calls if name == "line"]
    # a horizontal 0.2 m segment spans f·0.2/depth pixels: the span gives back the depth
    drawn = [CAMERA.focal_px * 0.2 / (b[0] - a[0]) for a, b, *_ in lines]
    assert drawn == pytest.approx([8.0, 7.0, 5.0, 3.0, 2.0])
    colors = [args[2] for args in lines]
    assert [c[0] > c[2] for c in colors] == [True, False, True, False, True]  # red, blue, ...


def test_nearer_segments_are_brighter_and_thicker() -> None:
    pen, recorder = _pen()
    near = np.array([[0.0, 0.0, 7.0], [0.0, 0.0, 2.0]])  # depths 3 and 8
    pen.segments(near, near + [0.1, 0.0, 0.0], RED, 3.0)
    pen.flush()
    (far_args, near_args) = [args for name, args in recorder.calls if name == "line"]
    assert near_args[2][0] > far_args[2][0]
    assert near_args[3] > far_args[3]


def test_spheres_polygons_and_segments_share_one_far_to_near_order() -> None:
    pen, recorder = _pen()
    pen.sphere((0.0, 0.0, 4.0), 0.2, GREEN)  # depth 6
    pen.segments([[0.0, 0.0, 1.0]], [[0.1, 0.0, 1.0]], RED)  # depth 9
    pen.polygon([[0, 0, 7.0], [1, 0, 7.0], [0, 1, 7.0]], BLUE)  # depth 3
    pen.segments([[0.0, 0.0, 5.0]], [[0.1, 0.0, 5.0]], RED)  # depth 5
    pen.flush()
    kinds = [name for name, _ in recorder.calls]
    # the sphere is three circles (rim, body, highlight)
    assert kinds == ["line", "circle", "circle", "circle", "line", "polygon"]


def test_equal_depths_keep_call_order() -> None:
    pen, recorder = _pen()
    pen.polygon([[0, 0, 5.0], [1, 0, 5.0], [0, 1, 5.0]], BLUE)
    pen.segments([[0.0, 0.0, 5.0]], [[0.1, 0.0, 5.0]], RED)
    pen.sphere((0.0, 0.0, 5.0), 0.2, GREEN)
    pen.flush()
    assert [name for name, _ in recorder.calls][:2] == ["polygon", "line"]


def test_what_lies_behind_the_eye_is_not_drawn_and_a_straddling_segment_is_clipped() -> None:
    pen, recorder = _pen()
    behind = (0.0, 0.0, 12.0)  # depth −2
    pen.sphere(behind, 0.2, GREEN)
    pen.segments([behind], [(0.0, 1.0, 12.0)], RED)
    pen.segments([behind], [(0.0, 0.0, 5.0)], BLUE)  # straddles the near plane
    pen.label(behind, "hidden", PALETTE["text"])
    pen.flush()
    pen.flush_on_top()
    lines = [args for name, args in recorder.calls if name == "line"]
    assert [name for name, _ in recorder.calls] == ["line"]
    assert all(math.isfinite(v) for v in (*lines[0][0], *lines[0][1]))


def test_labels_are_drawn_after_every_stroke_scaled_with_the_window() -> None:
    pen, recorder = _pen()
    pen.label((0.0, 0.0, 0.0), "origin", PALETTE["text"], 17, "midleft", (10.0, 0.0))
    pen.segments([[0.0, 0.0, 5.0]], [[0.1, 0.0, 5.0]], RED)
    pen.flush()
    pen.flush_on_top()
    assert [name for name, _ in recorder.calls] == ["line", "text"]
    pos, text = recorder.calls[1][1][:2]
    assert text == "origin"
    assert pos == pytest.approx((640 + 10.0, 360))  # the origin is the viewport centre


def test_a_strength_of_the_wrong_shape_is_refused() -> None:
    pen, _ = _pen()
    with pytest.raises(ValueError, match="strength"):
        pen.segments(np.zeros((3, 3)), np.ones((3, 3)), RED, strength=np.ones(2))


def test_an_outline_is_one_stroke_at_its_mean_depth_and_clipped_per_segment_at_the_eye() -> None:
    pen, recorder = _pen()
    square = np.array([[0, 0, 5.0], [1, 0, 5.0], [1, 1, 5.0], [0, 1, 5.0]])  # depth 5
    pen.segments([[0.0, 0.0, 4.0]], [[0.1, 0.0, 4.0]], RED)  # depth 6: drawn first
    pen.outline(square, BLUE, closed=True)
    pen.segments([[0.0, 0.0, 6.0]], [[0.1, 0.0, 6.0]], RED)  # depth 4: drawn last
    pen.flush()
    assert [name for name, _ in recorder.calls] == ["line", "lines", "line"]
    points, _, width, closed = recorder.calls[1][1]
    assert np.shape(points) == (4, 2) and width == 1 and closed

    pen, recorder = _pen()
    straddling = np.array([[0, 0, 5.0], [1, 0, 5.0], [1, 0, 12.0], [0, 0, 12.0]])
    pen.outline(straddling, BLUE, closed=True)  # two corners behind the eye
    pen.flush()
    # the front edge, and the two side edges cut at the near plane; the back edge is gone
    assert [name for name, _ in recorder.calls] == ["line"] * 3
