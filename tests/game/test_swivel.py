from __future__ import annotations

import json
import math
import subprocess
import sys
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from game.input_state import InputState, RawInput
from game.profiling import PhaseTimer
from game.scene import SceneConfig
from game.scenes.swivel import (
    DEFAULT_POSE,
    LOCATOR_RANGE,
    LOWER_LEN,
    UPPER_LEN,
    Pose,
    SwivelAutopilot,
    SwivelSim,
    autopilot_pose,
    solve,
    swivel_frame,
)
from game.scenes.swivel_view import SwivelView

REACH = UPPER_LEN + LOWER_LEN
FOLD = abs(UPPER_LEN - LOWER_LEN)
TOL = 1e-4  # trace coordinates are rounded to 1e-6 m; derived quantities carry a few of those
OFF_AXIS = math.radians(3.0)


def _step(sim: SwivelSim, inp: InputState) -> None:
    sim.step(inp, sim.dt, PhaseTimer())


def _unit(v: np.ndarray) -> np.ndarray:
    return v / np.linalg.norm(v)


@pytest.fixture(scope="module")
def headless_run(
    tmp_path_factory: pytest.TempPathFactory, run_main_here: Callable[..., Any]
) -> tuple[list[dict[str, Any]], Any]:
    """240 autopilot frames of ``python main.py`` (run in this process): (trace lines,
    stats)."""
    folder = tmp_path_factory.mktemp("swivel")
    trace, stats = folder / "trace.jsonl", folder / "stats.json"
    args = ["--scene", "swivel", "--headless", "--autopilot", "--frames", "240"]
    done = run_main_here([*args, "--trace", str(trace), "--stats", str(stats)])
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in trace.read_text().splitlines()]
    return lines, json.loads(stats.read_text())


def _arms(lines: list[dict[str, Any]]) -> list[dict[str, np.ndarray]]:
    arms = []
    for line in lines[1:]:
        (character,) = line["characters"]
        arm = character["limbs"]["arm"]
        arms.append(
            {k: np.array(arm[k], dtype=float) for k in ("root", "mid", "end", "target", "pole")}
        )
    return arms


def test_headless_run_writes_the_documented_trace_header_and_one_line_per_step(
    headless_run: tuple[list[dict[str, Any]], Any],
) -> None:
    lines, stats = headless_run
    assert lines[0] == {
        "scene": "swivel",
        "dt": pytest.approx(1 / 60),
        "terrain": None,
        "limbs": {"arm": {"upper": 2.0, "lower": 1.2}},
    }
    assert [line["step"] for line in lines[1:]] == list(range(1, 241))
    character = lines[1]["characters"][0]
    assert character["id"] == 0 and character["pelvis"] is None and character["facing"] == 1
    arm = character["limbs"]["arm"]
    assert arm["planted"] is None and all(
        len(arm[k]) == 3 for k in ("root", "mid", "end", "target", "pole")
    )
    assert stats["ik"]["nan"] == 0 and stats["ik"]["solves"] == 240


def test_every_step_is_finite_and_keeps_the_bone_lengths(
    headless_run: tuple[list[dict[str, Any]], Any],
) -> None:
    for arm in _arms(headless_run[0]):
        assert all(np.isfinite(v).all() for v in arm.values())
        assert np.linalg.norm(arm["mid"] - arm["root"]) == pytest.approx(UPPER_LEN, abs=TOL)
        assert np.linalg.norm(arm["end"] - arm["mid"]) == pytest.approx(LOWER_LEN, abs=TOL)


def test_the_elbow_is_always_on_the_swivel_circle_of_its_target(
    headless_run: tuple[list[dict[str, Any]], Any],
) -> None:
    for arm in _arms(headless_run[0]):
        d = float(np.linalg.norm(arm["target"] - arm["root"]))
        axis = _unit(arm["target"] - arm["root"])
        hand = arm["end"] - arm["root"]
        used = min(max(d, FOLD), REACH)  # docs/MATH.md §4's clamp into the annulus
        # the hand is on the root → target ray at the used reach
        np.testing.assert_allclose(hand, used * axis, atol=TOL)
        # law of cosines at the shoulder: the circle sits L1·cos α along the axis, radius L1·sin α
        cos_alpha = (UPPER_LEN**2 + used**2 - LOWER_LEN**2) / (2 * UPPER_LEN * used)
        cos_alpha = min(max(cos_alpha, -1.0), 1.0)
        elbow = arm["mid"] - arm["root"]
        along = float(elbow @ axis)
        radial = float(np.linalg.norm(elbow - along * axis))
        assert along == pytest.approx(UPPER_LEN * cos_alpha, abs=TOL)
        assert radial == pytest.approx(UPPER_LEN * math.sqrt(1 - cos_alpha**2), abs=5 * TOL)


def test_off_the_axis_the_elbow_is_in_the_pole_plane_on_the_pole_side(
    headless_run: tuple[list[dict[str, Any]], Any],
) -> None:
    # the autopilot keeps twist at 0 for its first 4.6 s, so the pole alone places the elbow
    assert all(autopilot_pose(step / 60).twist == 0.0 for step in range(1, 241))
    checked = 0
    for arm in _arms(headless_run[0]):
        axis = _unit(arm["target"] - arm["root"])
        to_pole = arm["pole"] - arm["root"]
        side = to_pole - (to_pole @ axis) * axis
        angle = math.atan2(np.linalg.norm(side), abs(float(to_pole @ axis)))
        elbow = arm["mid"] - arm["root"]
        radial = elbow - (elbow @ axis) * axis
        if angle < OFF_AXIS or np.linalg.norm(radial) < 1e-3:
            continue  # near the axis the plane is ill-defined; a straight arm has no side
        normal = _unit(np.cross(axis, side))
        assert abs(float(elbow @ normal)) < TOL  # in the plane through root, target and pole
        assert float(radial @ side) > 0  # on the pole's side of the axis
        checked += 1
    assert checked > 150


def test_out_of_reach_steps_leave_a_shortfall_and_reachable_steps_reach(
    headless_run: tuple[list[dict[str, Any]], Any],
) -> None:
    far = 0
    for arm in _arms(headless_run[0]):
        d = float(np.linalg.norm(arm["target"] - arm["root"]))
        gap = float(np.linalg.norm(arm["target"] - arm["end"]))
        if d > REACH + TOL:
            assert gap == pytest.approx(d - REACH, abs=TOL)  # the dashed shortfall line
            far += 1
        elif d > FOLD + TOL:
            assert gap < TOL
    assert far > 0


def test_the_autopilot_orbits_the_pole_through_the_axis_so_the_plane_flips(
    headless_run: tuple[list[dict[str, Any]], Any],
) -> None:
    _, stats = headless_run
    assert stats["swivel"]["fallback_steps"] > 0  # held exactly on the axis: solver fallback
    assert stats["swivel"]["plane_flips"] >= 1
    assert stats["swivel"]["danger_steps"] > stats["swivel"]["fallback_steps"]


@pytest.mark.parametrize("bad", [1e30, -1e30, float("nan"), float("inf"), "text", None, [1.0, 2.0]])
def test_wild_values_never_reach_the_solver(bad: object) -> None:
    sim = SwivelSim(SceneConfig())
    vector = bad if isinstance(bad, list) else [bad, 0.5, bad]
    _step(sim, InputState(values={"target": vector, "pole": [bad, bad, bad], "twist": bad}))
    pose = sim.pose
    coords = np.array([*pose.target, *pose.pole, pose.twist])
    assert np.isfinite(coords).all()
    assert np.abs(coords[:6]).max() <= LOCATOR_RANGE and abs(pose.twist) <= math.pi
    assert np.isfinite(sim.solution.elbow).all() and np.isfinite(sim.solution.hand).all()
    assert sim.counters.nan == 0


def test_twist_turns_the_elbow_about_the_axis_by_the_right_hand_rule() -> None:
    target, pole = (2.0, 0.0, 0.0), (1.0, 1.0, 0.0)
    straight = solve(Pose(target, pole, 0.0))
    quarter = solve(Pose(target, pole, math.pi / 2))
    # twist 0 bends toward the pole (+y); +90° about +x turns +y into +z
    assert float(straight.elbow[1]) > 0 and abs(float(straight.elbow[2])) < 1e-9
    assert float(quarter.elbow[2]) == pytest.approx(float(straight.elbow[1]))
    assert float(quarter.elbow[0]) == pytest.approx(float(straight.elbow[0]))


def test_the_drawn_swivel_circle_holds_the_solved_elbow_at_the_twist_angle() -> None:
    for t in np.linspace(0.0, 12.0, 37):
        pose = autopilot_pose(float(t))
        sol = solve(pose)
        frame = swivel_frame(pose, sol)
        np.testing.assert_allclose(frame.circle(pose.twist), sol.elbow, atol=1e-9)


def test_a_pole_on_the_axis_shows_the_documented_fallback_plane() -> None:
    pose = Pose(target=(2.0, 0.5, 0.3), pole=(1.0, 0.25, 0.15), twist=0.0)
    frame = swivel_frame(pose, solve(pose))
    assert frame.fallback and frame.pole_angle < 1e-9
    # solve_3d's documented rule: the world axis least aligned with the axis, made perpendicular
    least = np.eye(3)[int(np.argmin(np.abs(frame.axis)))]
    np.testing.assert_allclose(
        frame.side, _unit(least - (least @ frame.axis) * frame.axis), atol=1e-9
    )


def test_the_autopilot_is_deterministic_and_covers_the_story_in_one_loop() -> None:
    runs = []
    for _ in range(2):
        sim = SwivelSim(SceneConfig())
        pilot = SwivelAutopilot(sim, SceneConfig())
        poses = []
        for _ in range(720):
            _step(sim, pilot.next_input(sim))
            poses.append(sim.pose)
        runs.append(poses)
    assert runs[0] == runs[1]
    distances = [math.dist(p.target, (0.0, 0.0, 0.0)) for p in runs[0]]
    assert max(distances) > REACH and min(distances) < 1.5
    assert max(abs(p.twist) for p in runs[0]) > math.radians(20)


# -- the view, through a recording canvas -------------------------------------------------------
class RecordingCanvas:
    """A Canvas that checks every coordinate it is given is finite."""

    size = (1280, 720)

    def __init__(self) -> None:
        self.calls = 0

    def _check(self, *values: Any) -> None:
        self.calls += 1
        for value in values:
            assert np.isfinite(np.asarray(value, dtype=float)).all()

    def fill(self, color: Any) -> None: ...

    def line(self, a: Any, b: Any, color: Any, width: int = 1) -> None:
        self._check(a, b)

    def lines(self, points: Any, color: Any, width: int = 1, closed: bool = False) -> None:
        self._check(points)

    def segments(self, segments: Any, color: Any, width: int = 1) -> None:
        self._check(segments)

    def circle(self, center: Any, radius: float, color: Any, width: int = 0) -> None:
        self._check(center, radius)

    def arc(
        self, center: Any, radius: float, start: float, stop: float, color: Any, width: int = 1
    ) -> None:
        self._check(center, radius, start, stop)

    def polygon(self, points: Any, color: Any, width: int = 0) -> None:
        self._check(points)

    def rect(self, rect: Any, color: Any, width: int = 0, radius: int = 0) -> None:
        self._check(rect)

    def panel(self, rect: Any, color: Any, alpha: int) -> None:
        self._check(rect)

    def text(
        self,
        pos: Any,
        text: str,
        color: Any,
        size: int = 16,
        anchor: str = "topleft",
        bold: bool = False,
    ) -> tuple[int, int]:
        self._check(pos)
        return self.text_size(text, size)

    def text_size(self, text: str, size: int = 16, bold: bool = False) -> tuple[int, int]:
        return (len(text) * size // 2, size)

    def layer(self, key: Any, backdrop: Any, draw: Any, rect: Any = None) -> None:
        draw(self)


def _draw_everything(view: SwivelView) -> RecordingCanvas:
    canvas = RecordingCanvas()
    view.draw(canvas, 0.5, PhaseTimer())
    view.draw_overlay(canvas, 0.5)
    return canvas


@pytest.mark.parametrize("t", [0.5, 3.5, 5.6, 7.6, 10.0])
def test_the_view_draws_every_phase_of_the_autopilot_with_finite_coordinates(t: float) -> None:
    sim = SwivelSim(SceneConfig())
    pilot = SwivelAutopilot(sim, SceneConfig())
    while sim.step_index < round(t * 60):
        _step(sim, pilot.next_input(sim))
    assert _draw_everything(SwivelView(sim)).calls > 100


def _raw(**kwargs: Any) -> RawInput:
    return RawInput(**kwargs)


def test_dragging_a_locator_moves_it_in_the_view_plane() -> None:
    sim = SwivelSim(SceneConfig())
    view = SwivelView(sim)
    start = np.array(sim.pose.pole)
    at = tuple(float(v) for v in view.camera.project(start)[0])
    view.map_input(_raw(pointer_px=at, clicks=[(1, at)], buttons_down=frozenset({1})))
    to = (at[0] + 60.0, at[1] - 40.0)
    inp = view.map_input(_raw(pointer_px=to, buttons_down=frozenset({1})))
    moved = np.array(inp.values["pole"])
    forward = view.camera.basis[2]
    assert float((moved - start) @ forward) == pytest.approx(0.0, abs=1e-9)
    np.testing.assert_allclose(view.camera.project(moved)[0], to, atol=1e-6)
    _step(sim, inp)
    np.testing.assert_allclose(sim.pose.pole, moved)


def test_w_pushes_the_selected_locator_away_from_the_camera() -> None:
    sim = SwivelSim(SceneConfig())
    view = SwivelView(sim)
    view.map_input(_raw(keys_pressed=["tab"]))
    assert view.selected == "target"
    inp = view.map_input(_raw(keys_down=frozenset({"w"})))
    depth_before = float(view.camera.to_camera(sim.pose.target)[2])
    assert float(view.camera.to_camera(inp.values["target"])[2]) > depth_before


def test_right_drag_orbits_and_the_wheel_zooms_without_touching_the_simulation() -> None:
    sim = SwivelSim(SceneConfig())
    view = SwivelView(sim)
    before = view.camera
    view.map_input(_raw(pointer_px=(400.0, 300.0), buttons_down=frozenset({3})))
    inp = view.map_input(_raw(pointer_px=(480.0, 330.0), buttons_down=frozenset({3}), wheel=2.0))
    assert view.camera.yaw != before.yaw and view.camera.pitch != before.pitch
    assert view.camera.distance < before.distance
    assert inp.values == {} and inp.actions == ()


@pytest.mark.parametrize("wild", [1e300, -1e12, float("nan"), 2.0**31])
def test_wild_pointers_give_finite_sane_locator_positions(wild: float) -> None:
    sim = SwivelSim(SceneConfig())
    view = SwivelView(sim)
    at = tuple(float(v) for v in view.camera.project(sim.pose.target)[0])
    view.map_input(_raw(pointer_px=at, clicks=[(1, at)], buttons_down=frozenset({1})))
    inp = view.map_input(_raw(pointer_px=(wild, wild), buttons_down=frozenset({1, 3}), wheel=wild))
    for value in inp.values.values():
        assert np.isfinite(value).all() and np.abs(value).max() <= LOCATOR_RANGE
    _step(sim, inp)
    _draw_everything(view)
    assert np.isfinite(view.camera.eye).all()


def test_the_twist_slider_sends_radians() -> None:
    sim = SwivelSim(SceneConfig())
    view = SwivelView(sim)
    x, y, w, h = view.twist_slider.rect
    at = (x + 0.75 * w, y + h / 2)
    inp = view.map_input(_raw(pointer_px=at, clicks=[(1, at)], buttons_down=frozenset({1})))
    assert inp.values["twist"] == pytest.approx(math.radians(90.0))


def test_a_q_or_e_tap_turns_the_twist_a_visible_step_and_holding_goes_on() -> None:
    # ten instant Q/E taps (pressed and released within one frame) must turn the twist,
    # not leave it at 0.0° as if only held keys counted
    from game.scenes import swivel_view

    sim = SwivelSim(SceneConfig())
    view = SwivelView(sim)
    turns = []
    for _ in range(10):
        before = sim.pose.twist
        _step(sim, view.map_input(_raw(keys_pressed=["e"])))  # never seen held
        turns.append(math.degrees(sim.pose.twist - before))
    # each a visible step (the readout shows whole degrees), all alike
    assert min(turns) >= 3.0 and max(turns) == pytest.approx(min(turns)), turns
    TWIST_TAP, TWIST_SPEED = swivel_view.TWIST_TAP, swivel_view.TWIST_SPEED
    assert sim.pose.twist == pytest.approx(10 * TWIST_TAP)
    for _ in range(4):
        _step(sim, view.map_input(_raw(keys_pressed=["q"])))
    assert sim.pose.twist == pytest.approx(6 * TWIST_TAP)
    # a press held: the tap on its first frame, then TWIST_SPEED
    _step(sim, view.map_input(_raw(keys_pressed=["q"], keys_down=frozenset({"q"}))))
    _step(sim, view.map_input(_raw(keys_down=frozenset({"q"}))))
    assert sim.pose.twist == pytest.approx(5 * TWIST_TAP - TWIST_SPEED * sim.dt)


def test_reset_restores_the_default_pose() -> None:
    sim = SwivelSim(SceneConfig())
    start = sim.pose
    _step(sim, InputState(values={"target": [1.0, 1.0, 1.0], "twist": 1.0}))
    assert sim.pose != start
    inp = SwivelView(sim).map_input(_raw(keys_pressed=["r"]))
    _step(sim, inp)
    assert sim.pose == start


def test_the_view_never_imports_pygame() -> None:
    code = "import sys, game.scenes.swivel_view; print('pygame' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_r_resets_the_pose_without_counting_a_plane_flip() -> None:
    # with the pole moved to the far side, R resets the pose without the red "the plane
    # flipped" banner: the jump back to the start is no pole crossing the axis
    sim = SwivelSim(SceneConfig())
    timer = PhaseTimer()
    axis = np.array(DEFAULT_POSE.target) / np.linalg.norm(DEFAULT_POSE.target)
    pole = np.array(DEFAULT_POSE.pole)
    mirrored = 2.0 * (pole @ axis) * axis - pole  # the far side of the root-target axis
    sim.step(InputState(values={"pole": tuple(mirrored.tolist())}), sim.dt, timer)
    flips = sim.plane_flips
    assert flips == 1  # moved across: a flip
    sim.step(InputState(actions=("reset",)), sim.dt, timer)
    sim.step(InputState(), sim.dt, timer)
    assert sim.pose == DEFAULT_POSE and sim.plane_flips == flips
