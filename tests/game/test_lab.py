from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from game.input_state import InputState
from game.profiling import PhaseTimer
from game.scene import SceneConfig
from game.scenes.lab_sim import LOWER_LEN, UPPER_LEN, LabAutopilot, LabSim, readout


def _step(sim: LabSim, inp: InputState) -> None:
    sim.step(inp, sim.dt, PhaseTimer())


def test_readout_reproduces_the_seeds_worked_example() -> None:
    r = readout(1.0, 1.0, (1.0, 1.0), math.sqrt(2.0))
    assert math.degrees(r.theta) == pytest.approx(90.0)
    assert math.degrees(r.alpha) == pytest.approx(45.0)
    assert math.degrees(r.phi) == pytest.approx(45.0)
    assert r.cos_theta_raw == pytest.approx(0.0, abs=1e-12) and not r.clamped


def test_readout_marks_the_raw_cosine_out_of_range_when_the_target_is_too_far() -> None:
    r = readout(UPPER_LEN, LOWER_LEN, (5.0, 0.0), UPPER_LEN + LOWER_LEN)
    assert r.cos_theta_raw == pytest.approx((4 + 1.44 - 25) / 4.8)
    assert r.cos_theta_raw < -1 and r.clamped
    assert r.theta == pytest.approx(math.pi)


def test_dragging_moves_the_target_and_an_out_of_reach_target_gets_the_straight_arm() -> None:
    sim = LabSim(SceneConfig())
    _step(sim, InputState(pointer=(4.0, 0.0), pointer_down=True))
    assert sim.target == (4.0, 0.0)
    np.testing.assert_allclose(sim.solution.hand, (3.2, 0.0), atol=1e-9)
    assert float(sim.solution.shortfall) == pytest.approx(0.8)


def test_pointer_without_the_button_held_does_not_move_the_target() -> None:
    sim = LabSim(SceneConfig())
    before = sim.target
    _step(sim, InputState(pointer=(-1.0, -1.0), pointer_down=False))
    assert sim.target == before


def test_flip_sends_the_elbow_to_the_mirror_solution_for_the_same_target() -> None:
    sim = LabSim(SceneConfig())
    _step(sim, InputState(values={"target_x": 2.0, "target_y": 1.0}))
    first = np.array(sim.solution.elbow)
    _step(sim, InputState(actions=("flip_elbow",)))
    second = np.array(sim.solution.elbow)
    # mirror image across the root→target line through the origin
    axis = np.array([2.0, 1.0]) / math.sqrt(5.0)
    mirrored = 2 * np.dot(first, axis) * axis - first
    np.testing.assert_allclose(second, mirrored, atol=1e-9)


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), "text", None, 1e300])
def test_wild_widget_values_never_reach_the_solver(bad: object) -> None:
    sim = LabSim(SceneConfig())
    _step(sim, InputState(values={"target_x": bad, "softness": bad}))
    assert all(math.isfinite(v) for v in sim.target)
    assert 0.0 <= sim.softness <= 1.0
    assert np.isfinite(sim.solution.elbow).all()


def test_autopilot_crosses_both_circles_and_flips_the_elbow() -> None:
    sim = LabSim(SceneConfig())
    pilot = LabAutopilot(sim, SceneConfig())
    distances, bends = [], set()
    for _ in range(600):
        _step(sim, pilot.next_input(sim))
        distances.append(math.hypot(*sim.target))
        bends.add(sim.bend)
    assert min(distances) < abs(UPPER_LEN - LOWER_LEN)
    assert max(distances) > UPPER_LEN + LOWER_LEN
    assert bends == {1, -1}
    assert sim.counters.solves == 600 and sim.counters.nan == 0


def test_a_target_out_of_reach_in_the_soft_band_reads_softened_and_too_far(
    record_texts: Callable[[Any], list[str]],
) -> None:
    # a target 5 m away with softness on is both softened and too far, and the status shows
    # both (the library's status is softened, which takes precedence; a player expects
    # "too far")
    import pygame

    from game.pygame_canvas import PygameCanvas
    from game.scenes.lab import LabView

    sim = LabSim(SceneConfig())
    _step(sim, InputState(pointer=(5.0, 0.0), pointer_down=True, values={"softness": 0.4}))
    pygame.font.init()
    canvas = PygameCanvas(pygame.Surface((1280, 720)))
    texts = record_texts(canvas)
    view = LabView(sim)
    view.layout((1280, 720))
    view.draw(canvas, 1.0, PhaseTimer())  # (the pose drawn at the step's end)
    assert "status: softened · too far" in texts
