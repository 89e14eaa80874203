"""A tap of a walk key walks a little or turns him round, however short, in every scene
that walks (key_taps.py, walk_keys.py)."""

from __future__ import annotations

import numpy as np
import pytest

from game.input_state import RawInput
from game.key_taps import TAP_HOLD_S, KeyTaps
from game.profiling import PhaseTimer
from game.scene import SceneConfig
from game.scenes import load
from game.scenes.walk import WalkSim
from game.scenes.walk_keys import WalkKeys
from game.scenes.walk_view import WalkView

DT = 1.0 / 60.0


def test_a_press_counts_as_held_for_the_tap_time_and_a_held_key_for_as_long_as_it_is() -> None:
    keys = WalkKeys()
    assert keys.move(frozenset(), ["a"], 1.0) == -1.0  # pressed and let go within the frame
    assert keys.move(frozenset(), [], 1.0 + TAP_HOLD_S - 0.01) == -1.0
    assert keys.move(frozenset(), [], 1.0 + TAP_HOLD_S + 0.01) == 0.0
    assert keys.move(frozenset({"right"}), [], 5.0) == 1.0  # held: walks
    assert keys.move(frozenset({"d", "a"}), [], 5.0) == 0.0  # both: neither way


@pytest.mark.parametrize("steps_a_frame", [1, 2])  # 60 and 30 frames a second
@pytest.mark.parametrize("walk_first", [0, 60])
def test_a_tap_shorter_than_a_frame_turns_him_round(steps_a_frame: int, walk_first: int) -> None:
    # the other key pressed and let go between two frames (never seen held) turns him
    # round, from standing or from a walk, at 60 or 30 frames a second
    sim = WalkSim(SceneConfig(dt=DT))
    view, timer = WalkView(sim), PhaseTimer()
    view.layout((1280, 720))
    frames = [RawInput()] * (30 // steps_a_frame)  # 0.5 s standing
    frames += [RawInput(keys_down=frozenset({"d"}))] * (walk_first // steps_a_frame)
    frames += [RawInput(keys_pressed=["a"])] + [RawInput()] * (150 // steps_a_frame)
    for raw in frames:
        inp = view.map_input(raw)
        for _ in range(steps_a_frame):
            sim.step(inp, DT, timer)
    assert sim.crowd.facing[0] == -1.0 and not sim.crowd.turning[0]


def test_a_tap_turns_him_round_with_the_hands_reaching_for_the_pointer_in_front() -> None:
    # the mouse moved just before, in front of him (his hands reach for it): the tap of
    # the other key turns him round, and the pointer, now behind him and still since, does
    # not turn him back (the latest ask wins); moved again, it does
    sim = WalkSim(SceneConfig(dt=DT))
    view, timer = WalkView(sim), PhaseTimer()
    view.layout((1280, 720))
    ahead = view.camera.point_to_screen(float(sim.crowd.x[0]) + 0.6, 1.3)
    moved = RawInput(pointer_px=ahead, pointer_inside=True, pointer_moved=True)
    still = RawInput(pointer_px=ahead, pointer_inside=True)
    frames = (
        [moved]
        + [still] * 30
        + [RawInput(pointer_px=ahead, pointer_inside=True, keys_pressed=["a"])]
    )
    frames += [still] * 150
    for raw in frames:
        sim.step(view.map_input(raw), DT, timer)
    assert sim.crowd.facing[0] == -1.0 and not sim.crowd.turning[0]
    for raw in [moved] + [still] * 150:  # the mouse moves (behind him now): he faces it
        sim.step(view.map_input(raw), DT, timer)
    assert sim.crowd.facing[0] == 1.0


def test_key_taps_hold_each_key_pressed_for_the_tap_time_and_forget_a_later_clock() -> None:
    taps = KeyTaps()
    assert taps.held(frozenset({"w"}), ["d"], 2.0) == {"w", "d"}
    assert taps.held(frozenset(), [], 2.0 + TAP_HOLD_S - 0.01) == {"d"}
    assert taps.held(frozenset(), [], 2.0 + TAP_HOLD_S + 0.01) == frozenset()
    taps.held(frozenset(), ["a"], 9.0)
    assert taps.held(frozenset(), [], 0.0) == frozenset()  # a run started again at 0


def test_a_tap_shorter_than_a_frame_turns_the_crowds_hero_round() -> None:
    spec = load("crowd")
    sim = spec.create(SceneConfig(dt=DT, characters=1))
    view, timer = spec.view(sim), PhaseTimer()
    view.layout((1280, 720))
    assert sim.crowd.facing[0] == 1.0
    frames = [RawInput()] * 30 + [RawInput(keys_pressed=["a"])] + [RawInput()] * 150
    for raw in frames:  # 0.5 s standing, then the tap
        sim.step(view.map_input(raw), DT, timer)
    assert sim.crowd.facing[0] == -1.0


@pytest.mark.parametrize("key", ["w", "a"])  # ahead and sideways of the camera
def test_a_tap_shorter_than_a_frame_moves_the_walker_in_3d(key: str) -> None:
    spec = load("walk3d")
    sim = spec.create(SceneConfig(dt=DT))
    view, timer = spec.view(sim), PhaseTimer()
    view.layout((1280, 720))
    start = np.asarray(sim.walker.pose.pelvis).copy()
    for raw in [RawInput(keys_pressed=[key])] + [RawInput()] * 120:
        sim.step(view.map_input(raw), DT, timer)
    assert float(np.linalg.norm(np.asarray(sim.walker.pose.pelvis) - start)) > 0.03


def test_a_tap_the_way_he_faces_is_a_step_and_the_other_foot_closing() -> None:
    # a tap (pressed and let go between two frames) from standing: one foot steps, the
    # other closes beside it; a step's worth of way, not a stumble of a few centimetres
    sim = WalkSim(SceneConfig(dt=DT))
    view, timer = WalkView(sim), PhaseTimer()
    view.layout((1280, 720))
    for _ in range(30):
        sim.step(view.map_input(RawInput()), DT, timer)
    x, locks = float(sim.crowd.x[0]), sim.crowd.feet.lock[0, :, 0].copy()
    for raw in [RawInput(keys_pressed=["d"])] + [RawInput()] * 120:
        sim.step(view.map_input(raw), DT, timer)
    assert 0.12 <= float(sim.crowd.x[0]) - x <= 0.35
    assert (sim.crowd.feet.lock[0, :, 0] - locks > 0.1).all()  # both feet moved on
