"""The crowd scene: batched solves per step, resizing, determinism, and a real headless run."""

from __future__ import annotations

import json
import math
from dataclasses import fields
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ik
from game.input_state import InputState
from game.options import MAX_CHARACTERS
from game.profiling import PhaseTimer
from game.scene import ASSETS_DIR, SceneConfig
from game.scenes.character_assets import EDITED_TERRAIN
from game.scenes.crowd import TRACE_SAMPLE, CrowdAutopilot, CrowdSim
from game.scenes.crowd_view import CrowdView
from game.scenes.crowd_walkers import ORDER_EVERY, Walkers
from game.world.character import Crowd, solve_pose
from game.world.modes import Mode, Motion
from game.world.rig import load_rig
from game.world.terrain import Terrain
from game.world.walker_state import rows_of

DT = 1.0 / 60.0


def _run(sim: CrowdSim, steps: int, inp: InputState | None = None) -> None:
    timer = PhaseTimer()
    pilot = CrowdAutopilot(sim, SceneConfig())
    for _ in range(steps):
        sim.step(inp or pilot.next_input(sim), DT, timer)


def _by_id(sim: CrowdSim, rows: np.ndarray) -> np.ndarray:
    """A per-row array of the crowd stepped here, in character order."""
    return rows[np.argsort(sim.home.ids)]


def _all_finite(value: Any) -> bool:
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, dict):
        return all(_all_finite(v) for v in value.values())
    if isinstance(value, list):
        return all(_all_finite(v) for v in value)
    return True


def test_headless_run_with_fifty_characters_reports_them_and_traces_no_nan(
    run_main_here, tmp_path: Path
) -> None:
    stats_path, trace_path = tmp_path / "s.json", tmp_path / "t.jsonl"
    args = ["--scene", "crowd", "--headless", "--autopilot", "--frames", "60"]
    result = run_main_here(
        [*args, "--characters", "50", "--stats", str(stats_path), "--trace", str(trace_path)]
    )
    assert result.returncode == 0, result.stdout + result.stderr
    stats = json.loads(stats_path.read_text())
    assert stats["characters"] == 50
    assert stats["ik"]["nan"] == 0 and stats["ik"]["solves"] == 60 * 4 * 50
    lines = trace_path.read_text().splitlines()
    assert len(lines) == 61
    for line in lines[1:]:
        record = json.loads(line)
        assert _all_finite(record)
        assert [c["id"] for c in record["characters"]] == list(range(TRACE_SAMPLE))


def test_one_step_makes_one_batched_solve_of_four_limbs_per_character(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    sim = CrowdSim(SceneConfig(characters=60))
    _run(sim, 30)
    calls: list[tuple[int, ...]] = []
    real = ik.solve_2d

    def counting(root: Any, *args: Any, **kwargs: Any) -> Any:
        calls.append(np.shape(root))
        return real(root, *args, **kwargs)

    monkeypatch.setattr(ik, "solve_2d", counting)
    _run(sim, 1)
    assert calls == [(60, 4, 2)]


def test_every_bone_of_every_character_keeps_its_length() -> None:
    sim = CrowdSim(SceneConfig(characters=80, seed=3))
    _run(sim, 240)
    rig, pose, sol = sim.rig, sim.crowd.pose, sim.crowd.solution
    upper = np.array([rig.arms.limb.upper] * 2 + [rig.legs.limb.upper] * 2)
    lower = np.array([rig.arms.limb.lower] * 2 + [rig.legs.limb.lower] * 2)
    upper_len = np.hypot(*np.moveaxis(sol.elbow - pose.roots, -1, 0))
    lower_len = np.hypot(*np.moveaxis(sol.hand - sol.elbow, -1, 0))
    np.testing.assert_allclose(upper_len, np.broadcast_to(upper, upper_len.shape), atol=1e-9)
    np.testing.assert_allclose(lower_len, np.broadcast_to(lower, lower_len.shape), atol=1e-9)


def test_crowd_more_and_less_go_to_round_fifties_within_what_characters_accepts() -> None:
    """+ and − go to the next or last multiple of fifty within 1 … MAX_CHARACTERS, the
    range --characters accepts: − from 50 or fewer goes to one character, + from one to
    50, from 120 to 150, and near the top stops at MAX_CHARACTERS."""
    sim = CrowdSim(SceneConfig(characters=100))
    counts = []
    actions = ("crowd_more", "crowd_less", "crowd_less", "crowd_less", "crowd_less")
    for action in (*actions, "crowd_more"):
        _run(sim, 1, InputState(actions=(action,)))
        counts.append(sim.character_count)
        assert sim.crowd.solution.hand.shape == (sim.character_count, 4, 2)
        assert sim.home.pace.shape == sim.home.direction.shape == (sim.character_count,)
    assert counts == [150, 100, 50, 1, 1, 50]
    sim.resize(120)
    _run(sim, 1, InputState(actions=("crowd_less",)))
    assert sim.character_count == 100
    sim.resize(120)
    _run(sim, 1, InputState(actions=("crowd_more",)))
    assert sim.character_count == 150
    sim.resize(MAX_CHARACTERS - 20)
    _run(sim, 1, InputState(actions=("crowd_more",)))
    _run(sim, 1, InputState(actions=("crowd_more",)))
    assert sim.character_count == MAX_CHARACTERS


def test_growing_keeps_the_walkers_and_adds_the_seeded_newcomers() -> None:
    grown = CrowdSim(SceneConfig(characters=50, seed=5))
    _run(grown, 20)
    before = _by_id(grown, grown.crowd.x)  # (the rows are in ground order, not by character)
    grown.resize(100)
    np.testing.assert_array_equal(grown.crowd.x[:50], before)
    fresh = CrowdSim(SceneConfig(characters=100, seed=5))
    np.testing.assert_array_equal(grown.home.pace, fresh.home.pace)
    np.testing.assert_array_equal(grown.crowd.x[50:], fresh.crowd.x[50:])


def test_rows_kept_in_ground_order_step_every_character_as_in_character_order(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The crowd's rows are sorted by pelvis x every ORDER_EVERY steps (the hero's kept
    first), with each character's state and draws: every character steps exactly as in a
    crowd never reordered, and the trace still samples the characters 0…7."""
    ordered = CrowdSim(SceneConfig(characters=120, seed=7))
    _run(ordered, 4 * ORDER_EVERY)
    monkeypatch.setattr(Walkers, "_in_ground_order", lambda self, index: None)
    unordered = CrowdSim(SceneConfig(characters=120, seed=7))
    _run(unordered, 4 * ORDER_EVERY)
    ids = ordered.home.ids
    assert ids[0] == 0 and not np.array_equal(ids, unordered.home.ids)
    x = ordered.crowd.x[1:]
    assert (np.diff(x) < 0).sum() < len(x) / 4  # in ground order but for the last steps
    for a, b in (
        (ordered.crowd.state, unordered.crowd.state),
        (ordered.crowd.feet, unordered.crowd.feet),
        (ordered.crowd.pose, unordered.crowd.pose),
    ):
        for name in (f.name for f in fields(a)):
            one, other = getattr(a, name), getattr(b, name)
            if isinstance(one, np.ndarray) and one.ndim:
                np.testing.assert_array_equal(_by_id(ordered, one), other, err_msg=name)
    hands = _by_id(ordered, ordered.crowd.solution.hand)
    np.testing.assert_array_equal(hands, unordered.crowd.solution.hand)
    assert ordered.trace_characters() == unordered.trace_characters()


def test_a_pose_asked_for_before_a_reorder_holds_the_character_it_named() -> None:
    crowd = CrowdSim(SceneConfig(characters=5)).crowd
    lone = CrowdSim(SceneConfig(characters=1)).crowd
    crowd.pose_as(2, lone.pose, (4.0, 1.2))
    crowd.reorder(np.array([0, 3, 4, 2, 1]))
    crowd.step(np.ones(5), np.zeros(5), DT)
    assert (crowd.x[3], crowd.y[3], crowd.state.motion[3]) == (4.0, 1.2, Motion.POSED.value)
    assert (crowd.state.motion != Motion.POSED.value).sum() == 4


@pytest.mark.parametrize(
    "order", [[0, 1, 1, 3, 4], [0, 1, 2, 3], [0, 1, 2, 3, 5], [[0, 1, 2, 3, 4]]]
)
def test_a_reorder_that_is_not_a_permutation_of_the_rows_is_refused(order: list[int]) -> None:
    crowd = CrowdSim(SceneConfig(characters=5)).crowd
    x = crowd.x.copy()
    with pytest.raises(ValueError, match="not a permutation of the 5 rows"):
        crowd.reorder(np.array(order))
    np.testing.assert_array_equal(crowd.x, x)


def test_same_seed_gives_the_same_crowd_and_another_seed_does_not() -> None:
    runs = []
    for seed in (4, 4, 5):
        sim = CrowdSim(SceneConfig(characters=50, seed=seed))
        _run(sim, 90)
        runs.append(np.concatenate([sim.crowd.x, sim.crowd.y, sim.crowd.solution.hand.ravel()]))
    np.testing.assert_array_equal(runs[0], runs[1])
    assert not np.array_equal(runs[0], runs[2])


def test_walkers_stay_on_the_terrain_and_turn_around() -> None:
    # stepped (at most 15 s) until a walker has turned back at each end of the course and
    # every walker has taken a step; every walker is on the terrain at every step
    sim = CrowdSim(SceneConfig(characters=50, seed=2))
    timer, pilot = PhaseTimer(), CrowdAutopilot(sim, SceneConfig())
    lo, hi = sim.terrain.x_range
    turned = set()  # the ends where a walker turned back: -1 the left, 1 the right
    for _ in range(900):
        direction = sim.home.direction.copy()
        sim.step(pilot.next_input(sim), DT, timer)
        assert ((sim.crowd.x >= lo) & (sim.crowd.x <= hi)).all()
        back = sim.crowd.x[sim.home.direction != direction]
        turned |= {1 if x > (lo + hi) / 2 else -1 for x in back.tolist()}
        if turned == {-1, 1} and sim.crowd.feet.steps.min() > 0:
            break
    assert turned == {-1, 1}
    assert sim.crowd.feet.steps.min() > 0


def test_the_crowd_is_drawn_from_the_steps_solves_blended_by_alpha() -> None:
    """Level of detail: only the hero is solved per frame; the others' joints are the last
    two steps' solves blended (exactly the previous solve at alpha 0)."""
    config = SceneConfig(characters=60)
    sim = CrowdSim(config)
    view = CrowdView(sim)
    view.layout((1280, 720))
    timer = PhaseTimer()
    for _ in range(40):
        sim.step(InputState(), config.dt, timer)
    crowd = sim.crowd
    for alpha in (0.0, 0.5):
        view._frame = None
        pose, hero = view._interpolated(alpha)
        rows = view._rows
        assert hero.elbow.shape == (1, 4, 2)  # one solve, of the hero only
        then, now = crowd.prev_solution, crowd.solution
        want = then.hand[rows[1:]] + (now.hand[rows[1:]] - then.hand[rows[1:]]) * alpha
        np.testing.assert_allclose(view._joints[1, 1:], want, atol=1e-12)
        np.testing.assert_allclose(view._joints[1, 0], hero.hand[0])
    # bones of blended joints stay within 3 mm of their lengths (half a pixel in this
    # view; the fastest swing foot at alpha 0.5 measured 1.2 mm)
    legs = view._joints[:, 1:, 2:]
    roots = pose.roots[1:, 2:]
    thigh = np.hypot(*np.moveaxis(legs[0] - roots, -1, 0))
    assert np.abs(thigh - sim.rig.legs.limb.upper).max() < 3e-3


def test_a_crowd_laid_out_afresh_on_edited_ground_is_seen_round_the_hero_at_once() -> None:
    """Back from editing the ground, the hero stands at his start again: the camera is
    there on the first frame, not sliding across the world from where he was."""
    config = SceneConfig(characters=20)
    sim = CrowdSim(config)
    view = CrowdView(sim)
    timer = PhaseTimer()
    for _ in range(240):  # 4 s walking right
        sim.step(InputState(move=1.0), config.dt, timer)
        view._interpolated(0.0)
    far = view.camera.center_w[0]
    x, y = sim.terrain.points.T
    config.extra[EDITED_TERRAIN] = Terrain(np.column_stack([x, y + 0.02]))
    sim.step(InputState(), config.dt, timer)
    view._interpolated(0.0)
    hero_x = float(sim.crowd.pose.pelvis[0, 0])
    assert abs(far - hero_x) > 2.0  # (he had walked on)
    assert abs(view.camera.center_w[0] - hero_x) < 1.5  # (the lead ahead of him)


def test_f5_starts_the_footstep_and_knee_flip_counters_again_together() -> None:
    sim = CrowdSim(SceneConfig(characters=50))
    _run(sim, 90)
    sim.crowd.knee_flips[:] = 3  # (flips are rare on the default rig)
    assert int(sim.crowd.feet.steps.sum()) > 0
    sim.reload_assets()
    assert int(sim.crowd.feet.steps.sum()) == 0
    assert int(sim.crowd.knee_flips.sum()) == 0
    assert sim.stats_sections()["feet"]["knee_flips"] == 0


def _rows_equal(a: Any, b: Any, rows: Any) -> None:
    """Every array of the dataclasses ``a`` and ``b`` (nested too) equal at ``rows``."""
    for f in fields(a):
        x, y = getattr(a, f.name), getattr(b, f.name)
        if isinstance(x, np.ndarray):
            np.testing.assert_array_equal(x[rows], y[rows], err_msg=f.name)
        else:
            _rows_equal(x, y, rows)


def test_a_posed_character_holds_its_pose_while_the_others_walk_on_as_without_it() -> None:
    """A prop's pose (``pose_as``) holds its character, its motion POSED, its feet as they
    were (or put down at the ankles asked for); every other character steps exactly as in a
    crowd where nobody is posed; the next step without a pose returns it to the gait."""
    posed_sim, twin = CrowdSim(SceneConfig(characters=50)), CrowdSim(SceneConfig(characters=50))
    _run(posed_sim, 30)
    _run(twin, 30)
    crowd = posed_sim.crowd
    others = np.arange(crowd.count) != 1
    feet_before = rows_of(crowd.feet, np.array([1]))
    lone = CrowdSim(SceneConfig(characters=1)).crowd  # a one-character pose, as a ladder's
    crowd.pose_as(1, lone.pose, (4.0, 1.2))
    _run(posed_sim, 1)
    _run(twin, 1)
    _rows_equal(crowd.state, twin.crowd.state, others)
    _rows_equal(crowd.pose, twin.crowd.pose, others)
    assert (crowd.x[1], crowd.y[1], crowd.vx[1]) == (4.0, 1.2, 0.0)
    assert crowd.state.motion[1] == Motion.POSED.value and crowd.modes[1] == Mode.POSED.value
    np.testing.assert_array_equal(crowd.pose.pelvis[1], lone.pose.pelvis[0])
    _rows_equal(rows_of(crowd.feet, np.array([1])), feet_before, np.array([0]))
    steps = crowd.feet.steps.copy()
    crowd.pose_as(1, lone.pose, (4.0, 1.2), stand_at=[[3.9, 0.07], [4.1, 0.07]])
    _run(posed_sim, 1)
    np.testing.assert_array_equal(crowd.feet.lock[1], [[3.9, 0.07], [4.1, 0.07]])
    assert crowd.feet.planted[1].all()
    np.testing.assert_array_equal(crowd.feet.steps[1], steps[1])  # the count carries on
    _run(posed_sim, 1)
    assert crowd.state.motion[1] != Motion.POSED.value


def test_a_whole_posed_crowd_skips_the_gait() -> None:
    """Every character posed: the gait's stages do not run, the state keeps its rows but
    for the pelvis and speed the pose sets."""
    crowd = CrowdSim(SceneConfig(characters=1)).crowd
    feet_before = rows_of(crowd.feet, np.array([0]))
    crowd.pose_as(0, crowd.pose, (crowd.x[0] + 0.3, crowd.y[0]))
    crowd.step([1.0], [1.0], DT)
    _rows_equal(crowd.feet, feet_before, np.array([0]))
    assert crowd.state.phase[0] == 0.0 and crowd.state.motion[0] == Motion.POSED.value


def test_commands_change_only_the_character_they_name() -> None:
    """A scene drives one character through Crowd's commands (feet set down, hands aimed,
    a foot pinned); the others are untouched."""
    sim = CrowdSim(SceneConfig(characters=50))
    crowd = sim.crowd
    _run(sim, 30)
    steps = crowd.feet.steps.copy()
    crowd.stand_at(1, [[3.9, 0.07], [4.1, 0.07]])
    np.testing.assert_array_equal(crowd.feet.lock[1], [[3.9, 0.07], [4.1, 0.07]])
    assert crowd.feet.planted[1].all()
    np.testing.assert_array_equal(crowd.feet.steps, steps)  # the count carries on
    crowd.aim_hands(2, [[1.0, 1.0], [2.0, 1.0]], [0.5, 7.0])
    np.testing.assert_array_equal(crowd.intent.hand_weight[2], [0.5, 1.0])  # weights kept in [0, 1]
    crowd.pin_foot(3, 1, (5.0, 0.5))
    np.testing.assert_array_equal(crowd.intent.pin_target[3, 1], [5.0, 0.5])
    crowd.reset_counts()
    assert crowd.feet.steps.sum() == 0 and crowd.knee_flips.sum() == 0


def _same_solve(a: object, b: object) -> None:
    for field in ("elbow", "hand"):
        np.testing.assert_allclose(getattr(a, field), getattr(b, field), atol=1e-12)


def test_drawing_at_alpha_zero_reuses_the_previous_steps_solve_and_it_is_that_poses() -> None:
    rig, flat = load_rig(ASSETS_DIR / "rig.json"), Terrain(np.array([[-30.0, 0.0], [30.0, 0.0]]))
    crowd = Crowd(rig, flat, [0.0, 2.0, 4.0], [1.0, 1.0, -1.0])
    for step in range(90):
        move = np.where(np.arange(crowd.count) % 2 == 0, 1.0, 0.5)
        crowd.step(move, np.zeros(crowd.count), 1.0 / 60.0)
        crowd.solve()
        if step == 40:  # a crowd resized keeps the rule: the kept solve is prev_pose's
            crowd.resize(5, [6.0, 8.0], [1.0, -1.0])
        if step in (40, 89):
            pose, sol = crowd.interpolated(0.0)
            fresh = solve_pose(crowd.rig, crowd.prev_pose.lerp(crowd.pose, 0.0))
            _same_solve(sol, fresh)
            np.testing.assert_array_equal(pose.targets, crowd.prev_pose.targets)
    # between steps a fresh solve of the blended pose
    pose, sol = crowd.interpolated(0.5)
    _same_solve(sol, solve_pose(crowd.rig, crowd.prev_pose.lerp(crowd.pose, 0.5)))


@settings(max_examples=10)
@given(
    height=st.floats(0.3, 2.5),
    way=st.sampled_from([-1.0, 1.0]),
    steps_before=st.integers(0, 20),
)
def test_stepping_off_a_pose_the_feet_cannot_hold_plans_finite_steps(
    height: float, way: float, steps_before: int
) -> None:
    """A prop may set a character's pelvis where its legs, stood at ``stand_at``, do not
    reach (higher than a leg, or lower than a crouch); walking off from there, every
    number of its state stays finite and no invalid arithmetic (∞ − ∞) happens."""
    sim = CrowdSim(SceneConfig(characters=3, seed=11))
    _run(sim, steps_before)
    crowd, lone = sim.crowd, CrowdSim(SceneConfig(characters=1)).crowd
    crowd.pose_as(1, lone.pose, (4.0, 0.07 + height), stand_at=[[3.9, 0.07], [4.1, 0.07]])
    _run(sim, 1)
    with np.errstate(invalid="raise"):
        for _ in range(30):
            crowd.step(np.array([0.0, way, 0.0]), np.zeros(3), DT)
            crowd.solve()
    for name in (f.name for f in fields(crowd.state)):
        value = getattr(crowd.state, name)
        if isinstance(value, np.ndarray) and value.dtype.kind == "f":
            assert np.isfinite(value).all(), name
    assert np.isfinite(crowd.feet.lock).all() and np.isfinite(crowd.solution.hand).all()
