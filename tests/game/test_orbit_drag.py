"""OrbitDrag: right-drag orbits the camera, the wheel zooms it."""

from __future__ import annotations

import numpy as np
import pytest

from game.input_state import RawInput
from game.orbit_drag import ORBIT_RAD_PER_PX, ZOOM_PER_WHEEL, OrbitDrag
from game.projection import OrbitCamera


def test_a_right_drag_orbits_by_its_pixels_from_the_second_frame() -> None:
    drag, camera = OrbitDrag(), OrbitCamera(yaw=0.0, pitch=0.3)
    held = RawInput(buttons_down=frozenset({3}))
    camera = drag.moved(camera, held, np.array([100.0, 100.0]))  # the press: no turn yet
    assert camera.yaw == 0.0
    camera = drag.moved(camera, held, np.array([110.0, 95.0]))
    assert camera.yaw == pytest.approx(-10 * ORBIT_RAD_PER_PX)
    assert camera.pitch == pytest.approx(0.3 - 5 * ORBIT_RAD_PER_PX)
    drag.moved(camera, RawInput(), np.array([0.0, 0.0]))
    assert drag.start is None


def test_the_wheel_zooms_by_a_factor_a_notch() -> None:
    camera = OrbitCamera(distance=10.0)
    zoomed = OrbitDrag().moved(camera, RawInput(wheel=2.0), np.zeros(2))
    assert zoomed.distance == pytest.approx(10.0 * ZOOM_PER_WHEEL**2)
