"""Walk-scene props: the asset loader, and the prop tour checked from the trace and the sim.

Bone lengths and hand positions come from the trace records (``character_records``); the
cup is read from the simulation each step, next to the hand that holds it.
"""

from __future__ import annotations

import copy
import json
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from game.assets import AssetError
from game.input_state import InputState
from game.profiling import PhaseTimer
from game.scene import SceneConfig
from game.scenes.walk import WalkSim
from game.scenes.walk_autopilot import PropTour, WalkAutopilot
from game.scenes.walk_view import SCENE
from game.world.character import ARMS, LEGS
from game.world.feet import sole_penetration
from game.world.props import (
    DOOR_STAY_S,
    DOOR_SWING_S,
    DOORWAY_M,
    HOLD_KNOB_S,
    KNOB_TURN_S,
    CupProp,
    DoorProp,
    load_props,
)
from game.world.rig import LIMBS
from game.world.terrain import load_terrain

ASSETS = Path(__file__).resolve().parents[2] / "assets"
DT = 1.0 / 60.0
TOUR_STEPS = 4200  # the tour walks (and pivots) between the props, then climbs


def _cup_xy(sim: WalkSim) -> np.ndarray:
    """The cup's bottom centre (2,), world metres: its live array."""
    cup = sim.prop("cup")
    assert isinstance(cup, CupProp)
    return cup.bottom


@dataclass
class Tour:
    sim: WalkSim
    pilot: PropTour
    rows: list[dict]
    cup: np.ndarray  # (T, 2) cup bottom after each step
    holding: np.ndarray  # (T,) arm holding the cup or −1
    goal: list[str | None]
    phase: list[str]
    hand: np.ndarray  # (T,) arm engaged by the current goal or −1
    on_ladder: np.ndarray  # (T,) bool
    rung: np.ndarray  # (T, 4) each limb's rung (LIMBS order), −1 free / ground
    moving: np.ndarray  # (T,) the limb moving on the ladder or −1
    spin: np.ndarray  # (T,) the hero's facing as a pivot turns it
    opened: int  # grips taken before the hand-over (the shut door on the way home)
    reaches: int  # ... and by the tour


@pytest.fixture(scope="module")
def tour() -> Tour:
    """The default autopilot's prop tour, recorded step by step: the autopilot joins its
    course on the way home, hands over to the tour at the start, and once the tour is done
    (and has stood for a second) takes the course up again."""
    config = SceneConfig(dt=DT)
    sim = WalkSim(config)
    course = SCENE.autopilot(sim, config)
    assert isinstance(course, WalkAutopilot)
    course.direction = -1.0  # the round trip itself is the 60 s walk's (test_walk.py)
    timer = PhaseTimer()
    for _ in range(TOUR_STEPS):  # home and the pivot: the hand-over comes after a few steps
        sim.step(course.next_input(sim), DT, timer)
        if course.tour is not None:
            break
    pilot = course.tour
    assert pilot is not None, "the autopilot never handed over to the prop tour"
    assert sim.props is not None
    opened = sim.props.reaches
    rows, cup, holding, goal, phase, hand = [], [], [], [], [], []
    on_ladder, rung, moving, spin = [], [], [], []
    done_at = 0
    for step in range(TOUR_STEPS):
        # the course's input while the tour runs; a second of standing once it is done
        sim.step(course.next_input(sim) if not pilot.done else InputState(), DT, timer)
        rows.append(sim.trace_characters()[0])
        spin.append(float(sim.crowd.pose.spin[0]))
        assert sim.props is not None
        cup.append(_cup_xy(sim).copy())
        holding.append(sim.props.holding)
        goal.append(sim.props.goal)
        phase.append(sim.props.phase)
        hand.append(sim.props.hand)
        assert sim.ladder is not None
        on_ladder.append(sim.ladder.active)
        rung.append(sim.ladder.rung.copy())
        moving.append(sim.ladder.moving)
        done_at = step if not pilot.done else done_at
        if pilot.done and step - done_at >= 60:
            break
    plan = [*PropTour.PLAN, ("ladder", "", None)]
    at = plan[min(pilot.stage, len(plan) - 1)]
    assert pilot.done, (
        f"the prop tour did not finish in {TOUR_STEPS} steps: stage {pilot.stage} {at}, "
        f"the hero at x {float(sim.crowd.x[0]):.2f} m, the props' goal {sim.props.goal}"
    )
    # ... after which the walking course takes over again
    x = float(sim.crowd.x[0])
    for _ in range(120):
        sim.step(course.next_input(sim), DT, timer)
    assert course.toured and course.tour is None and float(sim.crowd.x[0]) != x
    return Tour(
        sim,
        pilot,
        rows,
        np.array(cup),
        np.array(holding),
        goal,
        phase,
        np.array(hand),
        np.array(on_ladder),
        np.array(rung),
        np.array(moving),
        np.array(spin),
        opened,
        sim.props.reaches - opened,
    )


def _limb(rows: list[dict], key: str) -> np.ndarray:
    """(T, 4, 2) of one trace limb field in LIMBS order."""
    return np.array([[row["limbs"][name][key] for name in LIMBS] for row in rows])


def test_the_props_load_standing_on_flat_ground() -> None:
    terrain = load_terrain(ASSETS / "terrain.json")
    props = load_props(ASSETS / "props.json", terrain)
    assert props.door.base == pytest.approx(float(terrain.height_at(props.door.x0)))
    assert props.cup.home[1] == pytest.approx(props.table.top)
    assert np.all(np.diff(props.ladder.rungs) > 0)
    assert props.surface_at(props.cup.home[0], terrain) == props.table.top


@pytest.mark.parametrize(
    ("edit", "key", "message"),
    [
        (("table", "x", 12.0), "table.x", "expected flat ground"),
        (("door", "knob", [2.0, 1.0]), "door.knob", "inside the door"),
        (("cup", "x", -5.0), "cup.x", "on the table top"),
        (("ladder", "rung_spacing", 0), "ladder.rung_spacing", r"in \[0.1, 1\] m, found 0"),
    ],
)
def test_a_bad_props_file_names_the_key(
    tmp_path: Path, edit: tuple, key: str, message: str
) -> None:
    data = json.loads((ASSETS / "props.json").read_text())
    section, name, value = edit
    data[section][name] = value
    path = tmp_path / "props.json"
    path.write_text(json.dumps(data))
    with pytest.raises(AssetError, match=message) as info:
        load_props(path, load_terrain(ASSETS / "terrain.json"))
    assert info.value.key == key


def test_a_bad_props_file_fails_the_walk_scene_at_startup(tmp_path: Path) -> None:
    folder = tmp_path / "assets"
    shutil.copytree(ASSETS, folder)
    (folder / "props.json").write_text('{"door": 1}')
    with pytest.raises(AssetError, match=r"props\.json"):
        WalkSim(SceneConfig(assets_dir=folder))


def test_the_default_autopilot_is_still_the_walking_course() -> None:
    config = SceneConfig(dt=DT)
    assert isinstance(SCENE.autopilot(WalkSim(config), config), WalkAutopilot)


def test_the_tour_lifts_the_cup_touches_the_knob_and_sets_the_cup_down(tour: Tour) -> None:
    assert tour.pilot.done
    assert tour.sim.props is not None
    assert tour.reaches == 3
    assert (tour.holding >= 0).any()
    assert tour.holding[-1] == -1
    table = tour.sim.props.props.table
    assert table.x0 <= tour.cup[-1, 0] <= table.x0 + table.width
    assert tour.cup[-1, 1] == pytest.approx(table.top)


def test_the_carried_cup_follows_its_hand(tour: Tour) -> None:
    assert tour.sim.props is not None
    grip = tour.sim.props.props.cup.grip
    hands = _limb(tour.rows, "end")[:, :2]
    held = tour.holding >= 0
    hand = hands[np.nonzero(held)[0], tour.holding[held]]
    # trace coordinates are rounded to 1e-6 m
    np.testing.assert_allclose(tour.cup[held], hand - [0.0, grip], atol=2e-6)
    # and it moved with the hero: carried over metres, not lifted in place
    assert np.ptp(tour.cup[held, 0]) > 1.0


def test_the_reaching_hand_eases_on_without_a_snap(tour: Tour) -> None:
    # hands relative to their shoulders, so the body's own walking speed does not count
    arm = (_limb(tour.rows, "end") - _limb(tour.rows, "root"))[:, :2]
    speed = np.hypot(*np.moveaxis(np.diff(arm, axis=0), -1, 0)) / DT
    reaching = np.nonzero([p == "reach" for p in tour.phase[1:]])[0]
    assert reaching.size > 3 * 10  # three reaches, each eased over many steps
    engaged = speed[reaching, tour.hand[1:][reaching]]
    # a snap would move a hand 0.3+ m in one step (18 m/s); the halflife keeps it gentle
    assert engaged.max() < 6.0


def test_no_limb_changes_its_bone_lengths_on_the_tour(
    tour: Tour, assert_bone_lengths: Callable[..., None]
) -> None:
    root, mid, end = (_limb(tour.rows, key) for key in ("root", "mid", "end"))
    rig = tour.sim.rig
    upper = np.array([rig.arms.limb.upper] * 2 + [rig.legs.limb.upper] * 2)
    lower = np.array([rig.arms.limb.lower] * 2 + [rig.legs.limb.lower] * 2)
    assert_bone_lengths(root, mid, end, upper, lower, atol=5e-6)


def test_walking_keys_cancel_a_goal_but_keep_the_cup() -> None:
    sim = WalkSim(SceneConfig(dt=DT))
    timer = PhaseTimer()
    sim.step(InputState(actions=("reach_prop",), values={"prop": "cup"}), DT, timer)
    for _ in range(10):
        sim.step(InputState(), DT, timer)
    assert sim.props is not None and sim.props.goal == "cup"
    sim.step(InputState(move=-1.0), DT, timer)
    assert sim.props.goal is None


def test_the_tour_climbs_to_the_top_and_steps_off_at_the_bottom(tour: Tour) -> None:
    assert tour.pilot.done
    assert tour.sim.ladder is not None
    top = tour.sim.ladder.top
    assert tour.on_ladder.any() and not tour.on_ladder[-1]
    assert tour.rung[tour.on_ladder, :2].max() == top
    # back in the gait, both feet planted on the ground next to the ladder
    last = tour.rows[-1]["limbs"]
    assert all(last[name]["planted"] for name in LIMBS[2:])


def test_the_ladder_leans_on_a_loft_level_with_a_rung() -> None:
    terrain = load_terrain(ASSETS / "terrain.json")
    ladder = load_props(ASSETS / "props.json", terrain).ladder
    assert ladder.loft is not None and ladder.loft_rung >= 0
    edge, level = ladder.loft
    assert ladder.x + ladder.width / 2 < edge < ladder.x + ladder.width / 2 + 0.4
    assert abs(ladder.rungs[ladder.loft_rung] - level) < 0.06
    assert float(terrain.height_at(edge + 0.5)) == pytest.approx(level)


def test_a_free_standing_ladder_has_no_loft(tmp_path: Path) -> None:
    data = json.loads((ASSETS / "props.json").read_text())
    data["ladder"]["x"] = 32.3  # on the flat run before the wall, nothing beside its top
    (tmp_path / "props.json").write_text(json.dumps(data))
    ladder = load_props(tmp_path / "props.json", load_terrain(ASSETS / "terrain.json")).ladder
    assert ladder.loft is None and ladder.loft_rung == -1


def test_the_tour_steps_off_onto_the_loft_at_the_top_and_climbs_back_down(tour: Tour) -> None:
    assert tour.sim.ladder is not None
    ladder = tour.sim.ladder.ladder
    assert ladder.loft is not None
    edge, level = ladder.loft
    ankle = tour.sim.rig.legs.ankle_height
    # feet never climb past the loft's rung
    assert tour.rung[tour.on_ladder, 2:].max() == ladder.loft_rung
    pelvis = np.array([row["pelvis"] for row in tour.rows])
    ends = _limb(tour.rows, "end")
    planted = np.array([[row["limbs"][n]["planted"] for n in LIMBS[2:]] for row in tour.rows])
    on_loft = ~tour.on_ladder & (pelvis[:, 0] > edge)
    standing = on_loft & planted.all(axis=1)
    assert standing.sum() > 30  # it stood there a while
    for t in np.nonzero(standing)[0]:
        # both ankles on the loft's surface, beyond its edge
        assert (ends[t, 2:, 0] > edge).all(), t
        assert np.abs(ends[t, 2:, 1] - (level + ankle)).max() < 1e-3, t
    # then back onto the ladder, down it, and off at its foot
    back_on = np.nonzero(tour.on_ladder & (np.arange(len(tour.rows)) > np.nonzero(on_loft)[0][-1]))[
        0
    ]
    assert back_on.size > 0
    assert not tour.on_ladder[-1] and pelvis[-1, 0] < ladder.x
    assert np.abs(ends[-1, 2:, 1] - (ladder.base + ankle)).max() < 1e-3


def test_gripping_hands_and_standing_feet_sit_on_their_rungs(tour: Tour) -> None:
    assert tour.sim.ladder is not None
    ladder = tour.sim.ladder.ladder
    ankle = tour.sim.rig.legs.ankle_height
    ends = _limb(tour.rows, "end")
    checked = 0
    for t in np.nonzero(tour.on_ladder)[0]:
        for limb in range(4):
            rung = tour.rung[t, limb]
            if rung < 0 or limb == tour.moving[t]:
                continue
            if limb < 2:
                want = np.array([ladder.x, ladder.rungs[rung]])
            else:
                want = np.array([ladder.x - 0.08, ladder.rungs[rung] + ankle])
            assert np.hypot(*(ends[t, limb] - want)) <= 0.005, (t, limb)
            checked += 1
    assert checked > 1000


def test_one_limb_moves_at_a_time_on_the_ladder(tour: Tour) -> None:
    ends = _limb(tour.rows, "end")
    steps = np.nonzero(tour.on_ladder[1:] & tour.on_ladder[:-1])[0] + 1
    moved_limbs = set()
    for t in steps:
        held = tour.rung[t] >= 0
        held[2:] = True  # feet on the ground beside the ladder stay put too
        still = held & (np.arange(4) != tour.moving[t]) & (np.arange(4) != tour.moving[t - 1])
        shift = np.hypot(*np.moveaxis(ends[t] - ends[t - 1], -1, 0))
        assert (shift[still] < 1e-5).all(), t
        if tour.moving[t] >= 0:
            moved_limbs.add(int(tour.moving[t]))
    assert moved_limbs == {0, 1, 2, 3}


def test_the_default_autopilot_tours_the_props_after_its_first_round_trip(tour: Tour) -> None:
    # (the fixture rides the default autopilot through its hand-over and back); on the way
    # home the shut door stops it and it opens the door by its knob, as its hint says
    assert tour.opened == 1 and tour.reaches == 3
    assert tour.sim.ladder is not None
    assert tour.sim.ladder.moves > 20 and not tour.sim.ladder.active
    feet = tour.sim.stats_sections()["feet"]
    assert feet["knee_flips"] == 0 and tour.sim.counters.nan == 0


def test_walked_along_the_loft_and_back_s_still_climbs_down() -> None:
    # the gait stops a step's reach short of a drop, 0.47 m from the loft's edge, but the
    # climbing spot is 0.2 m from it: S walks him right up to the spot and he climbs on,
    # so a player who has walked along the loft can always get down again
    sim = WalkSim(SceneConfig(dt=DT))
    timer = PhaseTimer()
    ladder = sim.ladder
    assert ladder is not None and ladder.loft_spot_x is not None
    spot = ladder.loft_spot_x
    level = float(sim.terrain.height_at(spot))
    legs, gait = sim.rig.legs, sim.rig.gait
    sim.crowd.x[0] = spot
    sim.crowd.y[0] = level + legs.ankle_height + gait.stand_extension * legs.limb.reach
    sim.crowd.stand_at(0, [[spot - 0.05, level + legs.ankle_height]] * 2)
    assert sim.on_loft()
    for move, steps in ((1.0, 60), (-1.0, 150), (0.0, 60)):
        for _ in range(steps):
            sim.step(InputState(move=move), DT, timer)
    assert sim.on_loft() and abs(float(sim.crowd.x[0]) - spot) > 0.2  # back, but short
    for _ in range(600):
        sim.step(InputState(climb=-1.0), DT, timer)
        if ladder.active:
            break
    assert ladder.active


def test_climbing_back_on_from_the_loft_the_hands_move_at_an_arms_pace(tour: Tour) -> None:
    # the hands go from the walking pose to their resting place beside the ladder over the
    # transfer's first part, never more than 10 cm in a step relative to the pelvis
    assert tour.sim.ladder is not None
    edge = tour.sim.ladder.ladder.loft[0]  # type: ignore[index]
    pelvis = np.array([row["pelvis"] for row in tour.rows])
    on_loft = ~tour.on_ladder & (pelvis[:, 0] > edge)
    after = np.arange(len(tour.rows)) > np.nonzero(on_loft)[0][-1]
    first = int(np.nonzero(tour.on_ladder & after)[0][0])
    hands = _limb(tour.rows, "end")[first - 5 : first + 90, :2]
    body = pelvis[first - 5 : first + 90]
    moved = hands[1:] - hands[:-1] - (body[1:] - body[:-1])[:, None]
    assert np.hypot(moved[..., 0], moved[..., 1]).max() <= 0.10


def test_letting_go_of_the_rungs_at_the_loft_the_elbows_do_not_fling_round(tour: Tour) -> None:
    # once the pelvis is over the rails the top grip is at shoulder height: the hands swing
    # about the shoulder to their resting place (drawn along the chord, a hand would fold
    # the arm through its dead zone and fling the elbow round), both ways
    pelvis = np.array([row["pelvis"] for row in tour.rows])
    elbows = _limb(tour.rows, "mid")[:, :2]
    near = tour.on_ladder[1:] | tour.on_ladder[:-1]
    moved = elbows[1:] - elbows[:-1] - (pelvis[1:] - pelvis[:-1])[:, None]
    assert np.hypot(moved[..., 0], moved[..., 1])[near].max() <= 0.09  # 8.3 cm measured


@pytest.mark.parametrize("turn_round", [False, True])
def test_standing_on_the_loft_the_body_is_upright(turn_round: bool) -> None:
    # the lean reads the ground's slope over 0.4 m either side of the pelvis, but a rise or
    # drop taller than a step, like the loft's 1.8 m edge, is no slope to lean into: standing
    # on the loft, facing either way, the body is upright (within 1°)
    sim = WalkSim(SceneConfig(dt=DT))
    timer = PhaseTimer()
    assert sim.ladder is not None and sim.ladder.loft_spot_x is not None
    spot = sim.ladder.loft_spot_x
    level = float(sim.terrain.height_at(spot))
    legs, gait = sim.rig.legs, sim.rig.gait
    sim.crowd.x[0] = spot
    sim.crowd.y[0] = level + legs.ankle_height + gait.stand_extension * legs.limb.reach
    sim.crowd.stand_at(0, [[spot - 0.05, level + legs.ankle_height]] * 2)
    for move, steps in ((-1.0 if turn_round else 0.0, 90), (0.0, 120)):
        for _ in range(steps):
            sim.step(InputState(move=move), DT, timer)
    assert sim.on_loft()
    assert sim.crowd.facing[0] == (-1.0 if turn_round else 1.0)
    assert abs(np.degrees(sim.crowd.lean[0])) < 1.0


def test_stepping_over_the_rails_the_hands_hold_on_below_the_shoulders(tour: Tour) -> None:
    # while the pelvis goes over the rails the hands move down to a rung at the waist first,
    # below the shoulders (kept on the top grip at shoulder height, they would end beside
    # the head, the arms folded over the face with the elbows up)
    assert tour.sim.ladder is not None
    ladder = tour.sim.ladder.ladder
    pelvis = np.array([row["pelvis"] for row in tour.rows])
    shoulders, hands = _limb(tour.rows, "root")[:, :2], _limb(tour.rows, "end")[:, :2]
    over = tour.on_ladder & (pelvis[:, 0] > ladder.x - 0.1)
    checked = 0
    for t in np.nonzero(over)[0]:
        for arm in (0, 1):
            if tour.rung[t, arm] >= 0:
                assert hands[t, arm, 1] < shoulders[t, arm, 1] - 0.2, (t, arm)
                checked += 1
    assert checked > 100


@pytest.fixture(scope="module")
def door_opened() -> tuple[WalkSim, list[tuple[str, float, float, float]]]:
    """The hero standing by the door is sent to its knob; per step after the click, until
    the door has opened and shut again: the phase, the door's swing, the knob's x and its
    hand's distance from the knob."""
    sim = WalkSim(SceneConfig(dt=DT))
    sim.crowd.stand_anew([-0.4], [-1.0])  # right of the door, facing it
    timer = PhaseTimer()
    for _ in range(30):
        sim.step(InputState(), DT, timer)
    sim.step(InputState(actions=("reach_prop",), values={"prop": "door"}), DT, timer)
    props = sim.props
    assert props is not None
    steps, open_s = [], 0.0
    for _ in range(int((HOLD_KNOB_S + DOOR_STAY_S + DOOR_SWING_S + 8.0) / DT)):
        # standing where he let go of the knob (in the doorway), then walking out of it
        leave = open_s > DOOR_STAY_S + 1.0
        sim.step(InputState(move=1.0 if leave else 0.0), DT, timer)
        open_s += DT if sim.prop("door").swing == 1.0 and props.phase == "" else 0.0
        hand = sim.crowd.solution.hand[0, max(props.hand, 0)]
        reach = float(np.hypot(*(hand - sim.prop("door").knob))) if props.hand >= 0 else np.inf
        steps.append((props.phase, sim.prop("door").swing, float(sim.prop("door").knob[0]), reach))
        if sim.prop("door").swing == 0.0 and any(step[1] == 1.0 for step in steps):
            break
    return sim, steps


def test_turning_the_knob_swings_the_door_open_and_it_shuts_after_the_hand_lets_go(
    door_opened: tuple[WalkSim, list[tuple[str, float, float, float]]],
) -> None:
    # clicking the knob, he walks over and turns it, and the door swings open while he
    # holds it; it shuts again after he lets go
    sim, steps = door_opened
    assert sim.props is not None
    door = sim.props.props.door
    phases = [phase for phase, *_ in steps]
    swing = np.array([s for _, s, _, _ in steps])
    knob_x = np.array([x for *_, x, _ in steps])
    held = np.flatnonzero(np.array(phases) == "hold")
    assert len(held) > 0
    # shut until the hand has turned the knob, then it opens while the hand holds it ...
    assert (swing[: held[0] + round(KNOB_TURN_S / DT) - 1] == 0.0).all()
    assert swing[held[-1]] > 0.3
    # ... the hand going with the knob (within 1 cm) as it moves toward the hinge (x0);
    # the reach takes under 0.8 s (KNOB_REACH_FRACTION: at 0.9 of the arm it stops short)
    assert max(steps[i][3] for i in held) < 0.015
    assert phases.count("reach") * DT < 0.8
    assert knob_x[held[-1]] < float(door.knob[0]) - 0.04
    # fully open after the hand lets go, then shut again, the knob back where it was; not
    # on him while he stands in the doorway, where he let go of the knob (shut DOOR_STAY_S
    # after he lets go, it would pass through him), but once he has walked out of it
    assert swing.max() == 1.0 and swing[-1] == 0.0
    opened = np.flatnonzero(swing == 1.0)
    assert (opened[-1] - opened[0] + 1) * DT > DOOR_STAY_S + 1.0
    assert sim.crowd.x[0] > door.x0 + door.width + DOORWAY_M  # out of the doorway
    assert knob_x[-1] == float(door.knob[0])


def test_he_holds_the_knob_and_steps_after_it_until_the_door_is_open(
    door_opened: tuple[WalkSim, list[tuple[str, float, float, float]]],
) -> None:
    # he holds the knob, his hand on it all along, until the door is fully open (let go
    # sooner, the door would swing on by itself, the knob sliding away from his hand)
    sim, steps = door_opened
    held = [i for i, (phase, *_) in enumerate(steps) if phase == "hold"]
    assert steps[held[-1]][1] == 1.0  # let go once the door is open
    assert max(steps[i][3] for i in held) < 0.015  # the hand on the knob all along
    assert steps[held[0]][2] - steps[held[-1]][2] > 0.4  # which went 0.4 m and more


@pytest.mark.parametrize("place_x", [-3.1, -4.5])
def test_a_spot_he_cannot_walk_to_is_refused_there_and_he_keeps_the_cup(
    place_x: float, cup_lifted: tuple[WalkSim, PhaseTimer]
) -> None:
    # holding the cup, a click on the high ledge beyond the course's start wall: stopped on
    # the way (the shut door, the wall), he keeps the cup, the goal dropped, and says why at
    # the place, rather than standing at the wall for good or setting the cup down on the
    # nearest spot in reach with no word
    sim, timer = cup_lifted
    props = sim.props
    cup = sim.prop("cup")
    assert props is not None and isinstance(cup, CupProp)
    sim.step(InputState(actions=("put_down",), values={"place_x": place_x}), DT, timer)
    said = None
    for _ in range(int(8.0 / DT)):
        sim.step(InputState(), DT, timer)
        said = said or cup.refused
        if props.goal is None:
            break
    assert props.goal is None and props.holding >= 0  # the goal given up, the cup kept
    assert said is not None and "out of his reach" in said[1]
    assert float(said[0][0]) == pytest.approx(place_x)  # said at the place


def _cup_in_table_top(sim: WalkSim) -> float:
    """How deep the cup (as drawn: the body 1.15 radii wide at the rim on the left, the
    handle's ring to 1.5 radii + 0.3 height on the right) is in the table top's slab,
    metres (0: clear)."""
    assert sim.props is not None
    props = sim.props
    spec, (x, y) = props.props.cup, _cup_xy(sim)
    cup = (x - 1.15 * spec.radius, y, x + 1.5 * spec.radius + 0.3 * spec.height, y + spec.height)
    table = props.props.table  # its top as drawn: 5 cm past each end, 5 cm thick
    left, right, top = table.x0 - 0.05, table.x0 + table.width + 0.05, table.top
    bottom = top - 0.05
    dx = min(cup[2], right) - max(cup[0], left)
    dy = min(cup[3], top) - max(cup[1], bottom)
    return max(min(dx, dy), 0.0)


def _hero_at(x: float, facing: float) -> tuple[WalkSim, PhaseTimer]:
    sim = WalkSim(SceneConfig(dt=DT))
    sim.crowd.stand_anew([x], [facing])
    return sim, PhaseTimer()


@pytest.mark.parametrize(
    ("end", "x", "facing"),
    [
        ("right", 1.2, 1.0),  # walks up under the table top
        ("right", 2.4, 1.0),  # standing at the table
        ("right", 3.6, -1.0),  # from beyond the end
        ("left", 2.5, -1.0),
        ("left", 2.2, -1.0),
        ("left", 1.0, 1.0),
    ],
)
def test_a_cup_lifted_from_the_floor_by_the_table_keeps_out_of_the_table_top(
    end: str, x: float, facing: float
) -> None:
    # picked up from the floor by either end of the table, hand and cup never go into the
    # table top, even where the carry point is over the table (straight up from the floor
    # to it would pass through the slab)
    sim, timer = _hero_at(x, facing)
    props = sim.props
    assert props is not None
    table, spec = props.props.table, props.props.cup
    cup_x = table.x0 + table.width + spec.radius + 0.03 if end == "right" else table.x0 - 0.07
    _cup_xy(sim)[:] = (cup_x, float(sim.terrain.height_at(cup_x)))  # on the floor by that end
    for _ in range(30):
        sim.step(InputState(), DT, timer)
    sim.step(InputState(actions=("reach_prop",), values={"prop": "cup"}), DT, timer)
    deepest = 0.0
    for _ in range(int(6.0 / DT)):
        sim.step(InputState(), DT, timer)
        deepest = max(deepest, _cup_in_table_top(sim))
    assert props.holding >= 0 and props.goal is None  # lifted
    assert deepest == 0.0, f"the cup went {deepest * 100:.1f} cm into the table top"
    # carried over the table, it is held above its top
    if table.x0 < float(_cup_xy(sim)[0]) < table.x0 + table.width:
        assert float(_cup_xy(sim)[1]) >= table.top + 0.02


@pytest.mark.parametrize(("x", "facing", "cup_x"), [(1.2, 1.0, 2.1), (3.4, -1.0, 2.6)])
def test_turning_round_at_the_table_with_the_cup_keeps_it_out_of_the_table_top(
    x: float, facing: float, cup_x: float, lift_the_cup: Callable[..., None]
) -> None:
    # holding the cup at the table while he turns round, it stays out of the top
    sim, timer = _hero_at(x, facing)
    _cup_xy(sim)[0] = cup_x  # on the table, in reach from the end he comes to
    for _ in range(30):
        sim.step(InputState(), DT, timer)
    lift_the_cup(sim, timer)
    props = sim.props
    assert props is not None
    for _ in range(60):
        sim.step(InputState(), DT, timer)
    deepest = 0.0
    back = -float(sim.crowd.facing[0])
    for step in range(150):  # a step back the other way turns him round
        sim.step(InputState(move=back) if step < 40 else InputState(), DT, timer)
        deepest = max(deepest, _cup_in_table_top(sim))
    assert float(sim.crowd.facing[0]) == back and props.holding >= 0
    assert deepest == 0.0, f"the cup went {deepest * 100:.1f} cm into the table top"


def test_carrying_the_cup_to_the_door_it_keeps_clear_of_the_hand_on_the_knob(
    lift_the_cup: Callable[..., None],
) -> None:
    # carried in front at the hip, the cup in the near hand keeps 10 cm from the far hand
    # on the knob (closer, he would seem to push the door with the mug)
    sim, timer = WalkSim(SceneConfig(dt=DT)), PhaseTimer()
    sim.crowd.stand_anew([4.5], [-1.0])  # right of the table, facing it and the door beyond
    _cup_xy(sim)[0] = 2.6  # on the table, in reach from its right end
    lift_the_cup(sim, timer)
    props = sim.props
    assert props is not None and props.holding >= 0
    sim.step(InputState(actions=("reach_prop",), values={"prop": "door"}), DT, timer)
    gaps = []
    for _ in range(320):
        sim.step(InputState(), DT, timer)
        if props.phase == "hold":
            middle = _cup_xy(sim) + np.array([0.0, props.props.cup.height / 2])
            gaps.append(float(np.hypot(*(middle - sim.prop("door").knob))))
    assert len(gaps) > 60 and min(gaps) >= 0.1


@pytest.mark.parametrize("run", [False, True])
def test_walking_over_a_cup_set_down_on_the_floor_the_feet_step_over_it(run: bool) -> None:
    # a cup set down on the floor: he lands short of it and past it, no sole goes into it
    # and the swing clears it, at a walk and at a run, without slowing for it
    sim, timer = _hero_at(-2.0, 1.0)  # up to speed by the cup ...
    door = sim.prop("door")
    assert isinstance(door, DoorProp)
    door.swing = 1.0  # ... through the door, open (it stays so with him on its wall side)
    props = sim.props
    assert props is not None
    spec, cup_x = props.props.cup, 1.5
    _cup_xy(sim)[:] = (cup_x, float(sim.terrain.height_at(cup_x)))
    top = float(_cup_xy(sim)[1]) + spec.height
    box = np.array([[cup_x - spec.half_width, cup_x + spec.half_width, top]])
    ground = sim.terrain.with_boxes(box)  # the floor with the cup on it
    deepest, slowest = 0.0, np.inf
    for _ in range(int(4.5 / DT)):
        sim.step(InputState(move=1.0, run=run), DT, timer)
        crowd = sim.crowd
        soles = crowd.pose.soles(crowd.solution.hand[:, LEGS], sim.rig)
        deepest = max(deepest, float(sole_penetration(ground, soles).max()))
        if abs(float(crowd.x[0]) - cup_x) < 0.6:
            slowest = min(slowest, abs(float(crowd.vx[0])))
    assert float(sim.crowd.x[0]) > cup_x + 1.0  # walked on past it
    assert deepest <= 1e-6, f"a sole went {deepest * 100:.1f} cm into the cup"
    assert slowest >= (2.0 if run else 1.2)  # no hesitation at it
    assert _cup_xy(sim)[0] == cup_x  # not kicked along
    # the cup is an obstacle (the door, shut behind him, another), until lifted off the
    # floor (in a hand, or on the table): nothing of it to keep off
    assert box.tolist()[0][:2] in sim.crowd.obstacles[:, :2].tolist()
    _cup_xy(sim)[1] += 0.5
    sim.step(InputState(), DT, timer)
    assert box.tolist()[0][:2] not in sim.crowd.obstacles[:, :2].tolist()


@pytest.fixture(scope="session")
def _under_the_ladder_once() -> tuple[WalkSim, PhaseTimer]:
    sim, timer = _hero_at(31.5, 1.0)
    assert sim.props is not None
    sim.props.holding, sim.props.carried = 1, sim.prop("cup")
    for _ in range(int(3.0 / DT)):
        sim.step(InputState(move=1.0), DT, timer)
    return sim, timer


@pytest.fixture
def under_the_ladder_with_the_cup(
    _under_the_ladder_once: tuple[WalkSim, PhaseTimer],
) -> tuple[WalkSim, PhaseTimer, Any]:
    """``sim, timer, props``: the hero holding the cup, walked right under the ladder and
    stopped by the loft's wall; a copy of one walked there once a session, which steps on
    exactly (bit for bit) as one walked there afresh (test_arms.py's shared lifted cup)."""
    sim, timer = copy.deepcopy(_under_the_ladder_once)
    return sim, timer, sim.props


def test_a_cup_set_down_at_a_walls_foot_stands_on_the_floor_not_on_the_wall_face(
    under_the_ladder_with_the_cup: tuple[WalkSim, PhaseTimer, Any],
) -> None:
    # under the ladder, a click by the loft's wall: the cup stands on the floor, clear of the
    # wall, never on the wall's face in mid-air (the ground's riser, 2 cm wide, has heights
    # between the floor and the loft); the loft's top itself is out of reach from the floor
    # and refused (tests/game/test_cup_places.py)
    sim, timer, props = under_the_ladder_with_the_cup
    sim.step(InputState(actions=("put_down",), values={"place_x": 34.22}), DT, timer)
    for _ in range(int(8.0 / DT)):
        sim.step(InputState(), DT, timer)
        if props.holding < 0 and props.phase == "":
            break
    assert props.holding < 0  # set down
    x, y = (float(v) for v in _cup_xy(sim))
    assert y == pytest.approx(0.0)  # on the floor (the wall's foot is at 34.27)
    spec = props.props.cup
    assert x + spec.half_width < 34.2712  # the handle too, clear of the wall


def test_crouching_to_set_the_cup_down_at_a_wall_keeps_his_head_out_of_it(
    under_the_ladder_with_the_cup: tuple[WalkSim, PhaseTimer, Any],
) -> None:
    # set down at the loft's wall, the crouch's stoop stops a head's radius short of a wall
    # ahead: his head and shoulders stay out of it
    sim, timer, props = under_the_ladder_with_the_cup
    sim.step(InputState(actions=("put_down",), values={"place_x": 34.22}), DT, timer)
    nearest = -1.0
    for _ in range(int(6.0 / DT)):
        sim.step(InputState(), DT, timer)
        nearest = max(nearest, float(sim.crowd.pose.roots[0, ARMS, 0].max()))
    assert props.holding < 0  # set down all the same
    assert nearest <= 34.2712 - 0.1  # the shoulders 10 cm or more short of the face


@pytest.mark.parametrize("x", [5.0, 25.0])  # the gentle and the long slopes
def test_a_cup_set_down_at_his_feet_on_a_slope_goes_clear_of_them(x: float) -> None:
    # a spot clear of the toes counts on a slope as on level ground: a click at his feet
    # sets the cup down ahead of his toes, not inside his shoe
    sim, timer = _hero_at(x, 1.0)
    props = sim.props
    assert props is not None
    props.holding, props.carried = 1, sim.prop("cup")
    for _ in range(60):
        sim.step(InputState(), DT, timer)
    soles = sim.crowd.pose.soles(sim.crowd.solve().hand[:, LEGS], sim.crowd.rig)[0, ..., 0]
    put = InputState(actions=("put_down",), values={"place_x": float(soles.mean())})
    sim.step(put, DT, timer)
    for _ in range(int(6.0 / DT)):
        sim.step(InputState(), DT, timer)
    assert props.holding < 0
    cup_x, rim = float(_cup_xy(sim)[0]), 1.15 * props.props.cup.radius  # its body's near side
    toes = sim.crowd.pose.soles(sim.crowd.solve().hand[:, LEGS], sim.crowd.rig)[0, ..., 0].max()
    assert cup_x - rim > toes  # ahead of the toes
    assert float(_cup_xy(sim)[1]) == pytest.approx(sim.terrain.height_at(cup_x))  # on the ground


def test_a_spot_the_hand_cannot_get_to_is_given_up_not_crouched_over_for_ever(
    under_the_ladder_with_the_cup: tuple[WalkSim, PhaseTimer, Any],
) -> None:
    # holding the cup under the ladder, the pointer held low in front (he crouches for
    # it), a click on the floor by the loft's wall that the hand cannot get to: he gives the
    # spot up and stands up with the cup, rather than staying crouched with it held out at
    # full stretch until a key is pressed
    sim, timer, props = under_the_ladder_with_the_cup
    pointer = (34.15, 0.05)  # low in front, between the rails' far side and the wall
    for _ in range(60):
        sim.step(InputState(pointer=pointer, actions=("pointer_moved",)), DT, timer)
    put = InputState(pointer=pointer, actions=("put_down",), values={"place_x": pointer[0]})
    sim.step(put, DT, timer)
    for _ in range(int(6.0 / DT)):
        sim.step(InputState(pointer=pointer), DT, timer)
    assert props.goal is None  # set down, or given up: not still reaching
    assert props.holding < 0 or float(sim.crowd.crouch[0]) < 0.1  # ... and standing with it


def test_a_cup_on_a_stair_blocking_the_way_is_named_as_what_stops_him() -> None:
    # with the walk stopped before a stair the cup leaves no room on, the hint names the
    # cup, not "the world ends here"
    sim, timer = _hero_at(14.3, 1.0)
    props = sim.props
    assert props is not None
    sim.prop("cup").bottom = np.array([15.33, float(sim.terrain.height_at(15.33))])
    for _ in range(int(2.5 / DT)):  # the key held: stopped before the stair within 2 s
        sim.step(InputState(move=1.0), DT, timer)
    assert abs(float(sim.crowd.vx[0])) < 0.01 and float(sim.crowd.x[0]) < 15.33
    hint = sim.blocked_hint()
    assert hint is not None and "cup" in hint
