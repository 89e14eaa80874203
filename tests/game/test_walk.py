"""The walk scene's measured feel, checked on the simulation alone (no window).

The figures are computed here from the solved poses and the terrain (an oracle independent
of the gait's own counters), then compared with the stats the scene reports.
"""

from __future__ import annotations

import copy
import json
import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from game.input_state import InputState
from game.profiling import PhaseTimer
from game.scene import SceneConfig
from game.scenes.walk import WalkSim
from game.scenes.walk_autopilot import WalkAutopilot
from game.scenes.walk_view import SCENE
from game.world.character import LEGS
from game.world.feet import sole_penetration
from game.world.props import DoorProp
from game.world.rig import LIMBS

DT = 1.0 / 60.0
LEGS_ = LIMBS[LEGS]
SECONDS = 60
SLIDE_LIMIT_M = 0.0005
GROUND_LIMIT_M = 0.005
PELVIS_STEP_LIMIT_M = 0.01


@dataclass
class Walk:
    """Everything recorded on one autopilot walk, one row per fixed step."""

    sim: WalkSim
    pelvis: np.ndarray  # (T, 2)
    facing: np.ndarray  # (T,)
    spin: np.ndarray  # (T,) the facing as a pivot turns it
    root: np.ndarray  # (T, 4, 2)
    mid: np.ndarray
    end: np.ndarray
    planted: np.ndarray  # (T, 2) legs
    foot: np.ndarray  # (T, 2, 3, 2) heel, ball, toe of each foot
    running: np.ndarray  # (T,) the run input


def _walk(steps: int, poles: bool = True, seed: int = 0) -> Walk:
    config = SceneConfig(dt=DT, seed=seed)
    sim = WalkSim(config)
    pilot = WalkAutopilot(sim, config)
    timer = PhaseTimer()
    rows: list[dict[str, Any]] = []
    running, spin = [], []
    for index in range(steps):
        inp = pilot.next_input(sim)
        running.append(inp.run)
        if not poles and index == 0:
            inp = InputState(
                inp.pointer, inp.pointer_down, inp.move, inp.run, 0.0, ("toggle_poles",)
            )
        sim.step(inp, DT, timer)
        rows.append(sim.trace_characters()[0])
        spin.append(float(sim.crowd.pose.spin[0]))
    limbs = [
        [[row["limbs"][name][key] for name in LIMBS] for row in rows]
        for key in ("root", "mid", "end")
    ]
    return Walk(
        sim=sim,
        pelvis=np.array([row["pelvis"] for row in rows]),
        facing=np.array([row["facing"] for row in rows]),
        spin=np.array(spin),
        root=np.array(limbs[0]),
        mid=np.array(limbs[1]),
        end=np.array(limbs[2]),
        planted=np.array([[row["limbs"][name]["planted"] for name in LIMBS[LEGS]] for row in rows]),
        foot=np.array(
            [
                [[row["limbs"][name]["foot"][k] for k in ("heel", "ball", "toe")] for name in LEGS_]
                for row in rows
            ]
        ),
        running=np.array(running),
    )


def _knee_flips(walk: Walk) -> int:
    """Flips of the knee's side of the hip→ankle line (relative to facing) while bent."""
    hip, knee, ankle = walk.root[:, LEGS], walk.mid[:, LEGS], walk.end[:, LEGS]
    a, k = ankle - hip, knee - hip
    cross = a[..., 0] * k[..., 1] - a[..., 1] * k[..., 0]
    bent = np.abs(cross) > math.sin(math.radians(3)) * np.hypot(*a.T).T * np.hypot(*k.T).T
    side = np.sign(cross) * walk.facing[:, None]
    flips = 0
    for leg in range(2):
        last = 0.0
        for t in range(len(side)):
            if bent[t, leg]:
                flips += int(last != 0 and side[t, leg] != last)
                last = side[t, leg]
    return flips


@pytest.fixture(scope="module")
def walk() -> Walk:
    return _walk(SECONDS * 60)


def _pivots(walk: Walk) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For each foot planted on two consecutive steps: how far its contact pivot moved and
    how far it is from the ground. The pivot is the heel or ball contact point, whichever
    stayed put (the one on the ground if both did)."""
    held = walk.planted[1:] & walk.planted[:-1]
    contacts = walk.foot[1:, :, :2]  # heel, ball
    moved = np.hypot(*np.moveaxis(contacts - walk.foot[:-1, :, :2], -1, 0))
    height = np.abs(contacts[..., 1] - walk.sim.terrain.height_at(contacts[..., 0]))
    pick = np.argmin(moved + 1e-4 * height, axis=-1)[..., None]
    slide = np.take_along_axis(moved, pick, axis=-1)[..., 0]
    off = np.take_along_axis(height, pick, axis=-1)[..., 0]
    return held, slide, off


def test_planted_feet_do_not_slide(walk: Walk) -> None:
    held, slide, _ = _pivots(walk)
    assert held.sum() > 1000
    assert slide[held].max() <= SLIDE_LIMIT_M
    assert walk.sim.stats_sections()["feet"]["max_planted_slide_m"] <= SLIDE_LIMIT_M


def test_planted_feet_pivot_on_the_ground(walk: Walk) -> None:
    held, _, off = _pivots(walk)
    assert off[held].max() <= GROUND_LIMIT_M
    assert walk.sim.stats_sections()["feet"]["max_ground_error_m"] <= GROUND_LIMIT_M


def test_no_sole_goes_into_the_ground_anywhere_on_the_course(walk: Walk) -> None:
    depth = sole_penetration(walk.sim.terrain, walk.foot)
    assert depth.max() <= GROUND_LIMIT_M
    assert walk.sim.stats_sections()["feet"]["max_sole_penetration_m"] <= GROUND_LIMIT_M


def test_walking_one_foot_is_always_down_and_the_pelvis_never_jumps(walk: Walk) -> None:
    # walking: no run input for the last second (a run has flight phases)
    ran = np.convolve(walk.running.astype(float), np.ones(60))[: len(walk.running)] > 0
    assert (~ran).sum() > 1000
    assert walk.planted[~ran].any(axis=1).all()
    assert np.abs(np.diff(walk.pelvis[:, 1])).max() <= PELVIS_STEP_LIMIT_M


def test_the_autopilot_stats_report_a_human_walk_and_run(walk: Walk) -> None:
    feet = walk.sim.stats_sections()["feet"]
    assert feet["stance_knee_deg_p50"] <= 20.0
    assert feet["pelvis_drop_walk_m"] <= 0.03
    assert 95.0 <= feet["cadence_spm"]["walk"] <= 125.0
    assert feet["cadence_spm"]["run"] >= 1.15 * feet["cadence_spm"]["walk"]
    assert feet["flight_fraction_run"] >= 0.15
    assert feet["double_support_walk"] >= 0.05


def test_knees_never_flip_with_poles_and_nothing_is_nan(walk: Walk) -> None:
    assert _knee_flips(walk) == 0
    assert walk.sim.stats_sections()["feet"]["knee_flips"] == 0
    for array in (walk.pelvis, walk.root, walk.mid, walk.end):
        assert np.isfinite(array).all()
    assert walk.sim.counters.nan == 0


def test_the_walk_crosses_the_whole_course_and_comes_back(walk: Walk) -> None:
    # the course: from the start to the walls at either end (the loft is the ladder's)
    sim = walk.sim
    lo, hi = sim.terrain.walkable_range(0.0, sim.rig.gait.max_step_height)
    assert hi - lo > 30.0
    x = walk.pelvis[:, 0]
    far = int(np.argmax(x))
    assert x[far] > hi - 2.0
    assert x[far:].min() < lo + 2.0
    assert (walk.facing == -1).any() and (walk.facing == 1).any()


def test_steps_are_taken_on_the_stairs(walk: Walk) -> None:
    landed = walk.planted[1:] & ~walk.planted[:-1]
    x = walk.end[1:, LEGS, 0][landed]
    for name in ("stairs up", "stairs down"):
        mark = next(m for m in walk.sim.terrain.landmarks if m.name == name)
        on_stairs = ((x > mark.x_from) & (x < mark.x_to)).sum()
        assert on_stairs >= 6, name  # both ways, both feet
    assert walk.sim.stats_sections()["feet"]["steps_taken"] == int(landed.sum())


def test_every_bone_keeps_its_length_every_step(
    walk: Walk, assert_bone_lengths: Callable[..., None]
) -> None:
    rig = walk.sim.rig
    upper = np.array([rig.arms.limb.upper] * 2 + [rig.legs.limb.upper] * 2)
    lower = np.array([rig.arms.limb.lower] * 2 + [rig.legs.limb.lower] * 2)
    assert (np.abs(walk.spin) < 1.0).sum() > 20  # the autopilot pivots
    # the trace rounds to the micrometre
    assert_bone_lengths(walk.root, walk.mid, walk.end, upper, lower, atol=3e-6)


def test_without_pole_hints_knees_flip_and_are_counted() -> None:
    walk = _walk(6 * 60, poles=False)  # 22 flips in 6 s, 39 in 10 s
    counted = walk.sim.stats_sections()["feet"]["knee_flips"]
    assert counted > 10
    assert _knee_flips(walk) > 10


def _walk_straight(move: float, steps: int = 90) -> WalkSim:
    sim = WalkSim(SceneConfig(dt=DT))
    sim.crowd.facing[0] = np.sign(move)  # set off facing the way it walks: no turn first
    sim.crowd.apply_assets(sim.rig, sim.terrain)
    door = sim.prop("door")
    assert isinstance(door, DoorProp)
    door.swing = 1.0  # open: walking left he passes through its doorway
    for _ in range(steps):
        sim.step(InputState(move=move), DT, PhaseTimer())
    return sim


def test_facing_left_mirrors_the_pose_and_keeps_knees_in_front() -> None:
    right, left = _walk_straight(1.0), _walk_straight(-1.0)
    assert int(left.crowd.facing[0]) == -1
    mirror = np.array([-1.0, 1.0])
    a, b = right.crowd.pose, left.crowd.pose
    swap = [1, 0, 3, 2]  # mirroring swaps the near and far side
    np.testing.assert_allclose(b.pelvis * mirror, a.pelvis, atol=1e-9)
    np.testing.assert_allclose(
        left.crowd.solution.elbow[:, swap] * mirror, right.crowd.solution.elbow, atol=1e-9
    )
    for sim in (right, left):
        facing = float(sim.crowd.facing[0])
        hip = sim.crowd.pose.roots[0, LEGS]
        knee, ankle = sim.crowd.solution.elbow[0, LEGS], sim.crowd.solution.hand[0, LEGS]
        assert ((knee[:, 0] - 0.5 * (hip[:, 0] + ankle[:, 0])) * facing > 0).all()


def test_a_dragged_foot_follows_the_pointer_and_returns_to_the_gait() -> None:
    sim = WalkSim(SceneConfig(dt=DT))
    timer = PhaseTimer()
    ankle = sim.crowd.solution.hand[0, 3].copy()
    goal = (float(ankle[0]) + 0.3, float(ankle[1]) + 0.35)
    sim.step(
        InputState(pointer=goal, pointer_down=True, values={"drag_foot": "right_leg"}), DT, timer
    )
    for _ in range(20):
        sim.step(InputState(pointer=goal, pointer_down=True), DT, timer)
    assert sim.crowd.feet.pinned[0, 1] and not sim.crowd.feet.planted[0, 1]
    np.testing.assert_allclose(sim.crowd.solution.hand[0, 3], goal, atol=1e-9)
    assert sim.trace_characters()[0]["limbs"]["right_leg"]["planted"] is False
    for _ in range(60):
        sim.step(InputState(pointer=goal), DT, timer)
    assert sim.crowd.feet.planted[0].all()
    ground = sim.terrain.height_at(sim.crowd.solution.hand[0, 3, 0]) + sim.rig.legs.ankle_height
    assert sim.crowd.solution.hand[0, 3, 1] == pytest.approx(ground, abs=1e-9)


def _standing(steps: int) -> tuple[WalkSim, PhaseTimer, float]:
    """A new walk scene stepped ``steps`` with no input, its timer, and the pelvis height."""
    sim, timer = WalkSim(SceneConfig(dt=DT)), PhaseTimer()
    for _ in range(steps):
        sim.step(InputState(), DT, timer)
    return sim, timer, float(sim.crowd.y[0])


def test_letting_go_of_a_dragged_foot_does_not_turn_him_to_the_pointer() -> None:
    # a foot dragged low behind him and let go: the pointer left there was the drag's, not
    # a place to reach, so it is not offered to the hands (he neither turns round nor bends
    # to it) until the mouse moves again
    sim, timer, standing = _standing(30)
    ankle = sim.crowd.solution.hand[0, 3].copy()
    behind = (float(ankle[0]) - 0.45, float(ankle[1]) - 0.02)
    grab = {"drag_foot": "right_leg"}
    sim.step(InputState(pointer=tuple(ankle), pointer_down=True, values=grab), DT, timer)
    for i in range(1, 31):  # dragged behind and down, the mouse moving all the way
        at = tuple(ankle + (np.array(behind) - ankle) * i / 30)
        sim.step(InputState(pointer=at, pointer_down=True, actions=("pointer_moved",)), DT, timer)
    for _ in range(90):  # let go, the pointer left there
        sim.step(InputState(pointer=behind), DT, timer)
        assert sim.crowd.facing[0] == 1.0 and not sim.crowd.turning[0]
    assert float(sim.crowd.y[0]) >= standing - 0.02
    sim.step(InputState(pointer=behind, actions=("pointer_moved",)), DT, timer)
    for _ in range(90):  # moved again: he reaches for it
        sim.step(InputState(pointer=behind), DT, timer)
    assert sim.crowd.facing[0] == -1.0 or float(sim.crowd.y[0]) < standing - 0.1


def _front_leg(sim: WalkSim) -> int:
    """Which leg (0, 1) is in front of the hero."""
    ankles = sim.crowd.solution.hand[0, 2:]
    return int(np.argmax(ankles[:, 0] * sim.crowd.facing[0]))


def test_hovering_over_a_foot_does_not_stoop_him_to_reach_for_it() -> None:
    # a pointer over an ankle is where a press grabs that foot, not a place for the hands
    # to reach: hovering there, he does not stoop for it
    sim, timer, standing = _standing(60)
    ankle = sim.crowd.solution.hand[0, 2 + _front_leg(sim)]
    pointer = (float(ankle[0]), float(ankle[1]))
    for i in range(60):
        moved = ("pointer_moved",) if i % 10 == 0 else ()
        sim.step(InputState(pointer=pointer, actions=moved), DT, timer)
    assert float(sim.crowd.y[0]) >= standing - 0.01
    # ... while a point on the floor a step ahead is still reached for
    ahead = (pointer[0] + 0.6 * float(sim.crowd.facing[0]), pointer[1])
    for i in range(60):
        moved = ("pointer_moved",) if i % 10 == 0 else ()
        sim.step(InputState(pointer=ahead, actions=moved), DT, timer)
    assert float(sim.crowd.y[0]) < standing - 0.1


def test_grabbing_a_foot_after_a_short_walk_keeps_the_other_foot_down() -> None:
    # stopped after a few steps, with the feet off their standing spots: a foot grabbed and
    # dragged up leaves the other one down, bearing the weight; squaring the feet up to
    # stand waits, or both feet would be in the air
    sim = WalkSim(SceneConfig(dt=DT))
    timer = PhaseTimer()
    for _ in range(36):
        sim.step(InputState(move=1.0), DT, timer)
    for _ in range(60):
        sim.step(InputState(), DT, timer)
    front = _front_leg(sim)
    ankle = sim.crowd.solution.hand[0, 2 + front].copy()
    grab = InputState(
        pointer=(float(ankle[0]), float(ankle[1])),
        pointer_down=True,
        values={"drag_foot": LIMBS[LEGS][front]},
    )
    sim.step(grab, DT, timer)
    for i in range(90):
        to = ankle + np.array([0.5 * float(sim.crowd.facing[0]), 0.5]) * min(i / 30, 1.0)
        sim.step(InputState(pointer=(float(to[0]), float(to[1])), pointer_down=True), DT, timer)
        assert sim.crowd.feet.planted[0, 1 - front], i


@pytest.mark.parametrize(("walk_first", "tap"), [(0, 6), (0, 30), (60, 10)])
def test_a_tap_of_the_other_key_turns_him_round(walk_first: int, tap: int) -> None:
    # a tap of the other key (0.1-0.5 s, from standing or walking) turns him round: the
    # turn, once started, is carried through after the key is let go
    sim = WalkSim(SceneConfig(dt=DT))
    timer = PhaseTimer()
    for move, steps in ((0.0, 30), (1.0, walk_first), (-1.0, tap), (0.0, 150)):
        for _ in range(steps):
            sim.step(InputState(move=move), DT, timer)
    assert sim.crowd.facing[0] == -1.0 and not sim.crowd.turning[0]
    assert abs(float(sim.crowd.vx[0])) < 0.05  # turned round where he stopped, standing


Keys = tuple[tuple[float, int], ...]  # (move, steps) held in turn


def _keyed(keys: Keys, sim: WalkSim | None = None, timer: PhaseTimer | None = None) -> Any:
    """``sim`` and ``timer`` (a new walk scene's hero at 60 Hz by default) after ``keys``."""
    sim = sim or WalkSim(SceneConfig(dt=DT))
    timer = timer or PhaseTimer()
    for move, steps in keys:
        for _ in range(steps):
            sim.step(InputState(move=move), DT, timer)
    return sim, timer


WALKED_AND_STOPPED: Keys = ((1.0, 60), (0.0, 30))  # 1 s walking right, 0.5 s still
TAP_TURNED: Keys = ((-1.0, 60), (0.0, 90), (1.0, 6), (0.0, 90))  # ... then turned by a tap


@pytest.fixture(scope="module")
def _keyed_once() -> dict[Keys, tuple[WalkSim, PhaseTimer]]:
    return {keys: _keyed(keys) for keys in (WALKED_AND_STOPPED, TAP_TURNED)}


@pytest.fixture
def keyed(
    _keyed_once: dict[Keys, tuple[WalkSim, PhaseTimer]],
) -> Callable[[Keys], tuple[WalkSim, PhaseTimer]]:
    """``keyed(keys)``: ``sim, timer`` after :data:`WALKED_AND_STOPPED` or :data:`TAP_TURNED`
    (:func:`_keyed`): a copy of one keyed once a module, which steps on exactly (bit for
    bit) as one keyed afresh (a copied walk scene does: test_arms.py's shared lifted cup)."""
    return lambda keys: copy.deepcopy(_keyed_once[keys])


@pytest.mark.parametrize("blip", [1, 2, 3])
def test_keys_let_go_or_pressed_a_few_frames_apart_do_not_turn_him(
    blip: int, keyed: Callable[[Keys], tuple[WalkSim, PhaseTimer]]
) -> None:
    # the other key alone for one to three frames (both held, D let go 30 ms before A; or
    # A pressed 30 ms before D) is no tap: it does not turn him round
    sim, _ = _keyed(((-1.0, blip), (0.0, 90)), *keyed(WALKED_AND_STOPPED))
    assert sim.crowd.facing[0] == 1.0 and not sim.crowd.turning[0]


@pytest.mark.parametrize("blip", [1, 2, 3])
def test_a_blip_of_the_other_key_after_a_tap_turn_does_not_turn_him_back(
    blip: int, keyed: Callable[[Keys], tuple[WalkSim, PhaseTimer]]
) -> None:
    # after a tap has turned him his feet are squared for a pivot already, yet a blip of
    # the other key (one to three frames) is still no tap: it starts no pivot
    sim, _ = _keyed(((-1.0, blip), (0.0, 120)), *keyed(TAP_TURNED))
    assert sim.crowd.facing[0] == 1.0 and not sim.crowd.turning[0]


@pytest.mark.parametrize("leg", ["left_leg", "right_leg"])
def test_a_foot_dragged_up_in_the_air_leaves_the_other_foot_standing(leg: str) -> None:
    # a pinned foot held up at knee height bears no weight, so it counts as up: the other
    # foot, the only one bearing weight, stays down on the ground while it is held
    sim = WalkSim(SceneConfig(dt=DT))
    timer = PhaseTimer()
    dragged = 2 if leg == "left_leg" else 3
    other = 5 - dragged
    for _ in range(30):
        sim.step(InputState(), DT, timer)
    ankle = sim.crowd.solution.hand[0, dragged].copy()
    goal = (float(ankle[0]) + 0.25, float(ankle[1]) + 0.45)
    sim.step(InputState(pointer=goal, pointer_down=True, values={"drag_foot": leg}), DT, timer)
    lows = []
    for step in range(150):  # held 1.5 s, then let go
        held = step < 90
        sim.step(InputState(pointer=goal, pointer_down=held), DT, timer)
        foot = sim.crowd.solution.hand[0, other]
        ground = sim.terrain.height_at(foot[0]) + sim.rig.legs.ankle_height
        lows.append(float(foot[1] - ground))
        assert sim.crowd.feet.planted[0].any() or not held  # never both feet up
    assert max(lows) <= 0.005


@pytest.mark.parametrize("leg", ["left_leg", "right_leg"])
def test_a_foot_dragged_up_behind_the_hip_does_not_flip_its_knee(leg: str) -> None:
    # a foot dragged up behind the hip swings the hip→ankle line round: the knee pole turns
    # with the leg (a fixed point ahead of the line's midpoint would fall behind it), so
    # with poles on the knee never flips
    sim = WalkSim(SceneConfig(dt=DT))
    timer = PhaseTimer()
    hip = sim.crowd.pose.roots[0, 2 if leg == "left_leg" else 3]
    sim.step(
        InputState(pointer=tuple(hip), pointer_down=True, values={"drag_foot": leg}), DT, timer
    )
    path = [(-0.1, -0.7), (-0.5, -0.5), (-0.7, -0.1), (-0.6, 0.2), (-0.3, 0.1), (0.0, -0.8)]
    for (ax, ay), (bx, by) in zip(path[:-1], path[1:], strict=True):
        for u in np.linspace(0.0, 1.0, 30):
            goal = (float(hip[0] + ax + (bx - ax) * u), float(hip[1] + ay + (by - ay) * u))
            sim.step(InputState(pointer=goal, pointer_down=True), DT, timer)
    assert sim.poles_on and int(sim.crowd.knee_flips[0]) == 0


def test_hands_reach_the_held_pointer_or_point_straight_at_it() -> None:
    sim = WalkSim(SceneConfig(dt=DT))
    timer = PhaseTimer()
    chest = sim.crowd.pose.chest[0]
    near, far = (chest[0] + 0.3, chest[1] + 0.1), (chest[0] + 3.0, chest[1] + 1.0)
    for _ in range(60):
        sim.step(InputState(pointer=near, pointer_down=True), DT, timer)
    np.testing.assert_allclose(sim.crowd.solution.hand[0, :2], [near, near], atol=1e-3)
    for _ in range(90):
        sim.step(InputState(pointer=far, pointer_down=True), DT, timer)
    sol, root = sim.crowd.solution, sim.crowd.pose.roots[0, :2]
    assert (sol.shortfall[0, :2] > 1.0).all()
    aim = np.array(far) - root
    arm = sol.hand[0, :2] - root
    cross = aim[:, 0] * arm[:, 1] - aim[:, 1] * arm[:, 0]
    np.testing.assert_allclose(cross, 0.0, atol=1e-3)  # the straight arm points at it
    sim.step(InputState(pointer=far, pointer_down=True, actions=("toggle_hands",)), DT, timer)
    assert sim.reaching.sum() == 1


def test_the_scene_is_registered_with_its_controls() -> None:
    assert SCENE.name == "walk"
    keys = " ".join(key for key, _ in SCENE.controls)
    for word in ("A / D", "Shift", "K", "drag", "click"):
        assert word in keys


def test_headless_app_run_writes_trace_and_feet_stats(run_main_here, tmp_path: Path) -> None:
    trace, stats, shot = tmp_path / "t.jsonl", tmp_path / "s.json", tmp_path / "shot.png"
    result = run_main_here(
        [
            "--scene",
            "walk",
            "--headless",
            "--autopilot",
            "--frames",
            "120",
            "--trace",
            str(trace),
            "--stats",
            str(stats),
            "--screenshot",
            str(shot),
        ]
    )
    assert result.returncode == 0, result.stdout + result.stderr
    lines = trace.read_text().splitlines()
    header = json.loads(lines[0])
    assert header["scene"] == "walk" and header["dt"] == pytest.approx(DT)
    assert len(header["terrain"]) > 10 and set(header["limbs"]) == set(LIMBS)
    assert len(lines) == 121
    step = json.loads(lines[-1])
    (character,) = step["characters"]
    assert set(character) == {"id", "pelvis", "facing", "spin", "limbs", "pointer"}
    for name, limb in character["limbs"].items():
        leg = name.endswith("leg")
        assert set(limb) == {"root", "mid", "end", "target", "pole", "planted"} | (
            {"foot"} if leg else set()
        )
        assert (limb["planted"] is None) == (not leg)
        if leg:
            assert set(limb["foot"]) == {"heel", "ball", "toe"}
            assert all(len(limb["foot"][k]) == 2 for k in ("heel", "ball", "toe"))
    feet = json.loads(stats.read_text())["feet"]
    assert {
        "max_planted_slide_m",
        "max_ground_error_m",
        "steps_taken",
        "knee_flips",
        "max_sole_penetration_m",
        "stance_knee_deg_p50",
        "pelvis_drop_walk_m",
        "cadence_spm",
        "flight_fraction_run",
        "double_support_walk",
        "max_joint_jump_m",
    } <= set(feet)
    assert set(feet["cadence_spm"]) == {"walk", "run"}
    assert feet["knee_flips"] == 0 and feet["steps_taken"] > 0
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_lean_settles_at_a_rate_per_second_whatever_the_step_rate() -> None:
    # the lean eases toward its target with a halflife in seconds, so after one halflife
    # it has leaned as far at 20 Hz as at 60 Hz (within 10 %): the step rate does not
    # change the feel
    leans = []
    for hz in (60, 20):
        dt = 1.0 / hz
        sim = WalkSim(SceneConfig(dt=dt))
        timer = PhaseTimer()
        x = 6.0  # on the gentle slope
        level = float(sim.terrain.height_at(x))
        legs, gait = sim.rig.legs, sim.rig.gait
        sim.crowd.x[0] = x
        sim.crowd.y[0] = level + legs.ankle_height + gait.stand_extension * legs.limb.reach
        sim.crowd.stand_at(0, [[x - 0.05, level + legs.ankle_height]] * 2)
        sim.crowd.lean[0] = 0.0
        for _ in range(round(0.15 * hz)):  # one halflife
            sim.step(InputState(), dt, timer)
        leans.append(float(sim.crowd.lean[0]))
    assert abs(leans[0]) > 0.01
    assert leans[1] == pytest.approx(leans[0], rel=0.1)


def test_turned_round_in_place_to_the_pointer_he_stands_over_his_feet() -> None:
    # a pointer held up behind him turns him round in place, about the balls of his feet,
    # which leaves the pelvis past them: after the turn the feet settle under him, so he
    # stands over his feet, not on legs slanted back
    sim, timer = WalkSim(SceneConfig(dt=DT)), PhaseTimer()
    sim.crowd.stand_anew([0.4], [-1.0])
    for _ in range(60):
        sim.step(InputState(), DT, timer)
    behind = (1.0, 1.7)
    sim.step(InputState(pointer=behind, actions=("pointer_moved",)), DT, timer)
    for _ in range(int(4.0 / DT)):
        sim.step(InputState(pointer=behind), DT, timer)
    crowd = sim.crowd
    assert crowd.facing[0] == 1.0 and crowd.feet.planted[0].all()  # turned round, standing
    ankles = float(crowd.feet.lock[0, :, 0].mean())
    assert abs(float(crowd.x[0]) - ankles) <= 0.06, (float(crowd.x[0]), ankles)
