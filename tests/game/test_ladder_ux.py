"""The ladder as a player drives it: a tap of W / S climbs one cycle, and at the bottom the
hero lets go by itself so walking works again."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

from game.input_state import InputState
from game.profiling import PhaseTimer
from game.scene import SceneConfig
from game.scenes.character_assets import load_character_assets
from game.scenes.side_view import seen_from_the_side
from game.scenes.walk import WalkSim
from game.world.character import solve_pose
from game.world.props import load_props
from game.world.props.ladder import TAP_CYCLE_MOVES, TAP_TIMEOUT_S, ClimbLatch, LadderClimb
from game.world.rig import LIMBS

ASSETS = Path(__file__).resolve().parents[2] / "assets"
DT = 1.0 / 60.0


def _mounted() -> LadderClimb:
    rig, terrain = load_character_assets(ASSETS)
    climb = LadderClimb(load_props(ASSETS / "props.json", terrain).ladder, rig)
    x = climb.spot_x
    ground = float(terrain.height_at(x))
    ankles = np.array([[x - 0.05, ground + 0.1], [x + 0.05, ground + 0.1]])
    climb.mount(ankles, ankles + np.array([0.0, 0.8]), np.array([x, ground + 0.95]))
    return climb


def test_a_tap_climbs_one_cycle_then_stops() -> None:
    ladder, latch = _mounted(), ClimbLatch()
    intents = [latch.climb(1.0, 1.0, False, ladder, 0.0)]  # W down for one frame only
    for k in range(1, 600):
        climb = latch.climb(0.0, 0.0, False, ladder, k * DT)
        intents.append(climb)
        ladder.step(climb, DT)
    assert ladder.active and ladder.moves == TAP_CYCLE_MOVES
    assert intents[-1] == 0.0 and ladder.moving < 0


def test_held_keys_win_and_walking_cancels_the_tap() -> None:
    ladder, latch = _mounted(), ClimbLatch()
    assert latch.climb(-1.0, 0.0, False, ladder, 0.0) == -1.0  # holding S is S
    latch.climb(1.0, 1.0, False, ladder, 0.0)
    assert latch.climb(0.0, 0.0, True, ladder, DT) == 0.0  # A/D: the tap is dropped


def test_a_tap_that_never_reaches_the_ladder_lapses() -> None:
    latch = ClimbLatch()
    far = SimpleNamespace(active=False, moves=0)
    assert latch.climb(0.0, 1.0, False, far, 0.0) == 1.0  # type: ignore[arg-type]
    assert latch.climb(0.0, 0.0, False, far, TAP_TIMEOUT_S / 2) == 1.0  # type: ignore[arg-type]
    assert latch.climb(0.0, 0.0, False, far, TAP_TIMEOUT_S + 0.1) == 0.0  # type: ignore[arg-type]


def test_at_the_bottom_the_hero_lets_go_without_another_key() -> None:
    ladder = _mounted()
    for _ in range(round(8 * 0.4 / DT)):  # eight limb moves up
        ladder.step(1.0, DT)
    assert ladder.rung[2:].min() >= 0, "the feet should be on rungs"
    while ladder.rung[2:].max() >= 0:  # S held until the last foot is on its way down
        assert not ladder.step(-1.0, DT)
    stepped_off = False
    for _ in range(round(4 * 0.4 / DT)):  # S released: no key at all
        stepped_off = ladder.step(0.0, DT)
        if stepped_off:
            break
    assert stepped_off and not ladder.active
    assert (ladder.rung < 0).all()


def test_climbing_on_and_stopping_at_once_keeps_the_grip() -> None:
    ladder = _mounted()
    for _ in range(round(0.4 / DT) + 2):  # one move up (a hand grabs), then nothing
        ladder.step(1.0 if ladder.moves == 0 else 0.0, DT)
    for _ in range(120):
        assert not ladder.step(0.0, DT)
    assert ladder.active and (ladder.rung[:2] >= 0).any()


def test_climbing_up_and_down_moves_no_elbow_more_than_10_cm_a_step() -> None:
    # the elbows bend backward of the arm, as walking (a pole fixed below the arm would lie
    # on the shoulder->hand line as a hand rises past its shoulder, and the elbow flip)
    # (up to the top grip, not onto the loft: then down)
    rig, _ = load_character_assets(ASSETS)
    ladder = _mounted()
    previous, up = None, True
    for step in range(900):
        up = up and step < 600 and (ladder.moving >= 0 or ladder.can_climb(1))
        ladder.step(1.0 if up else -1.0, DT)
        pose = ladder.pose(rig)
        elbows = solve_pose(rig, pose).elbow[0, :2] - pose.pelvis[0]
        if previous is not None:
            assert np.hypot(*(elbows - previous).T).max() <= 0.10, step
        previous = elbows


def test_climbing_takes_a_rung_in_1_1_s_shift_in_0_64_s_and_keeps_the_elbows_smooth() -> None:
    # a rung cycle (four limb moves) takes about 1.1 s with W, 0.64 s with Shift: a climb
    # at 1.6 s a rung (~16 s up the 3.35 m ladder) reads as too slow
    rig, _ = load_character_assets(ASSETS)
    timed = {}
    for fast in (False, True):
        ladder, steps, previous = _mounted(), 0, None
        while ladder.moves < 4 * TAP_CYCLE_MOVES:  # four rung cycles
            ladder.step(1.0, DT, fast)
            steps += 1
            if fast:
                pose = ladder.pose(rig)
                elbows = solve_pose(rig, pose).elbow[0, :2] - pose.pelvis[0]
                if previous is not None:
                    assert np.hypot(*(elbows - previous).T).max() <= 0.10, steps
                previous = elbows
        timed[fast] = steps * DT / 4
    assert timed[False] == pytest.approx(1.12, abs=0.04)  # whole steps: 17 of 1/60 s a move
    assert timed[True] == pytest.approx(0.64, abs=0.04)  # 10 steps a move


def test_climbing_down_the_hips_ease_into_every_rung_as_climbing_up() -> None:
    # a foot stepping down moves the hips' target a rung lower, and the pelvis eases
    # toward it as climbing up, never from still to full speed in one step; every foot
    # reaches its rung (within 1 mm)
    rig, _ = load_character_assets(ASSETS)
    for fast, most in ((False, 0.25), (True, 0.8)):
        ladder = _mounted()
        pelvis, going, miss = [], [], 0.0
        for step in range(1500):
            climb = 1.0 if step < (180 if fast else 300) else -1.0
            ladder.step(climb, DT, fast)
            if not ladder.active:
                break
            pose = ladder.pose(rig)
            ankles = solve_pose(rig, pose).hand[0, 2:]
            miss = max(miss, float(np.hypot(*(ankles - pose.targets[0, 2:]).T).max()))
            pelvis.append(ladder.pelvis.copy())
            going.append(climb)
        velocity = np.diff(pelvis, axis=0) / DT
        jump = np.hypot(*np.diff(velocity, axis=0).T)
        down = np.array(going[2:]) < 0
        assert down.sum() > 100 and not ladder.active, fast  # down to the ground
        assert jump[~down].max() <= (0.2 if fast else 0.1), fast  # up
        assert jump[down].max() <= most, (fast, jump[down].max())  # 0.17 and 0.57 measured
        assert miss < 1e-3, (fast, miss)  # every foot reaches its rung


def _walk_rows(sim: WalkSim, inputs: list[InputState]) -> list[dict]:
    """The hero's trace record after each step of ``inputs``, with his knees as the side
    view draws them (``drawn_knees``)."""
    timer, rows = PhaseTimer(), []
    for inp in inputs:
        sim.step(inp, DT, timer)
        drawn = seen_from_the_side(sim.crowd.pose, sim.crowd.solution)
        rows.append({**sim.trace_characters()[0], "drawn_knees": drawn.elbow[0, 2:].copy()})
    return rows


def test_w_at_the_ladders_foot_climbs_on_facing_it_without_turning_away() -> None:
    # W from 1 m or 0.5 m before the climbing spot: the walk there stops on the spot, not
    # past it (walking back a few centimetres would be a reversal, a turn away from the
    # ladder and back), and he never turns; a hand is on a rung within 2.5 s
    for start in (1.0, 0.5):
        sim = WalkSim(SceneConfig(dt=DT))
        ladder = sim.ladder
        assert ladder is not None
        sim.crowd.stand_anew([ladder.spot_x - start], [1.0])
        _walk_rows(sim, [InputState()] * 60)
        timer, facing = PhaseTimer(), []
        for _ in range(round(2.5 / DT)):
            sim.step(InputState(climb=1.0), DT, timer)
            facing.append(float(sim.crowd.pose.spin[0]))
            if ladder.moves > 0:
                break
        assert ladder.moves > 0, start  # on the ladder, a hand on a rung, within 2.5 s (1.9)
        assert min(facing) == 1.0, start  # never turned at all


def _on_the_loft(facing: float) -> WalkSim:
    """The hero standing at the loft's climbing spot, facing ``facing`` (the ladder pose
    faces +1: stepping off onto the loft leaves him so)."""
    sim = WalkSim(SceneConfig(dt=DT))
    assert sim.ladder is not None and sim.ladder.loft_spot_x is not None
    spot = sim.ladder.loft_spot_x
    level = float(sim.terrain.height_at(spot))
    legs, gait = sim.rig.legs, sim.rig.gait
    sim.crowd.stand_anew([spot], [facing])
    sim.crowd.y[0] = level + legs.ankle_height + gait.stand_extension * legs.limb.reach
    sim.crowd.stand_at(0, [[spot - 0.05, level + legs.ankle_height]] * 2)
    _walk_rows(sim, [InputState()] * 60)
    assert sim.on_loft()
    return sim


def test_w_held_on_after_stepping_off_onto_the_loft_does_not_turn_him_round() -> None:
    # W held after stepping off onto the loft does not send him to the ladder's foot
    # spot, below the loft's edge: he never turns round to face the drop, nor climbs
    sim = _on_the_loft(1.0)
    rows = _walk_rows(sim, [InputState(climb=1.0)] * 120)
    assert {row["facing"] for row in rows} == {1}
    assert sim.ladder is not None and not sim.ladder.active


def test_s_on_the_loft_facing_the_ladder_turns_round_before_climbing_on_smoothly() -> None:
    # facing the ladder (-1) on the loft, S turns him round on his feet before he climbs
    # on, not by flipping the facing at once: no knee moves more than 8 cm in a step
    # relative to the pelvis, and no planted foot slides more than 5 cm
    sim = _on_the_loft(-1.0)
    ladder = sim.ladder
    assert ladder is not None
    rows = _walk_rows(sim, [InputState()] + [InputState(climb=-1.0)] * 180)  # (from standing)
    assert rows[0]["facing"] == -1
    assert ladder.active and rows[-1]["facing"] == 1  # on the ladder, facing it
    pelvis = np.array([row["pelvis"] for row in rows])
    knees = np.array([row["drawn_knees"] for row in rows])
    moved = np.diff(knees, axis=0) - np.diff(pelvis, axis=0)[:, None]
    assert np.hypot(*np.moveaxis(moved, -1, 0)).max() <= 0.08  # 5.5 cm (the pivot's)
    soles = np.array(
        [
            [[row["limbs"][name]["foot"][k] for k in ("heel", "ball", "toe")] for name in LIMBS[2:]]
            for row in rows
        ]
    )
    planted = np.array([[row["limbs"][name]["planted"] for name in LIMBS[2:]] for row in rows])
    still = planted[1:] & planted[:-1]
    slide = np.hypot(*np.moveaxis(np.diff(soles, axis=0), -1, 0)).min(axis=-1)  # (T-1, 2)
    assert slide[still].max() <= 0.05  # 0 measured


def _key_to_grip(sim: WalkSim, climb: float, limit_s: float) -> tuple[float, int, list[float]]:
    """Hold W (``climb`` 1) or S (−1) from standing: the seconds until a hand holds a rung
    (inf: not within ``limit_s``), the facing changes on the way and the pelvis x each step
    before he climbs on."""
    ladder = sim.ladder
    assert ladder is not None
    timer, facing, changes, xs = PhaseTimer(), float(sim.crowd.facing[0]), 0, []
    for k in range(round(limit_s / DT)):
        sim.step(InputState(climb=climb), DT, timer)
        if ladder.active:
            if any(ladder.rung[h] >= 0 and ladder.moving != h for h in range(2)):
                return (k + 1) * DT, changes, xs
            continue
        xs.append(float(sim.crowd.x[0]))
        if float(sim.crowd.facing[0]) != facing:
            facing, changes = float(sim.crowd.facing[0]), changes + 1
    return float("inf"), changes, xs


def _standing_at(x: float, facing: float) -> WalkSim:
    sim = WalkSim(SceneConfig(dt=DT))
    sim.crowd.stand_anew([x], [facing])
    _walk_rows(sim, [InputState()] * 60)
    return sim


def test_w_under_the_ladder_at_the_wall_climbs_on_at_once_facing_it() -> None:
    # run into the wall under the ladder, he stands past the climbing spot (feet between
    # the rails): W climbs on from there, facing the ladder, without walking back to the
    # spot (which would be a turn away from the ladder, steps and a turn back), a hand on
    # a rung within 0.5 s
    sim = _standing_at(32.0, 1.0)
    ladder = sim.ladder
    assert ladder is not None
    _walk_rows(sim, [InputState(move=1.0, run=True)] * 150 + [InputState()] * 60)
    assert float(sim.crowd.x[0]) - ladder.spot_x > 0.12  # at the wall, past the spot
    seconds, changes, _ = _key_to_grip(sim, 1.0, 3.0)
    assert changes == 0 and seconds <= 0.5, (changes, seconds)  # 0, 0.30 s measured
    # ... and climbed back down, he steps off under the hips (where they climb: the spot)
    _walk_rows(sim, [InputState(climb=1.0)] * 240)
    rows = _walk_rows(sim, [InputState(climb=-1.0)] * 480)  # off it by 4.7 s, S still held
    assert not ladder.active
    assert np.ptp([row["pelvis"][0] for row in rows[-60:]]) < 1e-3  # stood a second since
    pelvis_x = rows[-1]["pelvis"][0]
    ankles_x = [rows[-1]["limbs"][name]["target"][0] for name in LIMBS[2:]]
    assert abs(pelvis_x - ladder.spot_x) < 0.01
    assert max(abs(x - pelvis_x) for x in ankles_x) < 0.1


def test_w_under_the_ladder_facing_away_turns_once_where_he_stands() -> None:
    # facing away under the ladder, W turns him round where he stands, once, without
    # walking away to the spot first; a hand on a rung within 1.2 s
    sim = _standing_at(33.75, -1.0)
    assert sim.ladder is not None
    seconds, changes, xs = _key_to_grip(sim, 1.0, 3.0)
    assert changes == 1 and seconds <= 1.2, (changes, seconds)  # 1, 0.95 s measured
    assert min(xs) >= 33.75 - 0.01  # no walk away (his hips ease back once he climbs)


@pytest.mark.parametrize("steps, most_s", [(6, 1.7), (40, 3.0)])
def test_s_on_the_loft_right_of_the_spot_backs_to_the_ladder_without_turning(
    steps: int, most_s: float
) -> None:
    # his back to the ladder right of the loft's spot (D after stepping off), S steps him
    # back to the spot (0.6 s a 0.3 m stride) without turning, then he climbs on as from
    # it, the right hand taking the far rail 0.53 s in: a hand holds the ladder 1.13 s
    # (0.08 m right) and 2.33 s (0.69 m) after the key
    sim = _on_the_loft(1.0)
    ladder = sim.ladder
    assert ladder is not None and ladder.loft_spot_x is not None
    _walk_rows(sim, [InputState(move=1.0)] * steps + [InputState()] * 90)
    assert sim.on_loft() and float(sim.crowd.x[0]) - ladder.loft_spot_x > 0.05
    rows, held_s = [], None
    for k in range(round(most_s / DT)):
        rows += _walk_rows(sim, [InputState(climb=-1.0)])
        held = [(ladder.rung[h] >= 0 or ladder.rail[h]) and ladder.moving != h for h in range(2)]
        held_s = (k + 1) * DT if held_s is None and any(held) else held_s
    assert held_s is not None and {row["facing"] for row in rows} == {1}
    # smoothly: every limb reaches its end, no knee or pelvis jumps (as from the spot)
    pelvis = np.array([row["pelvis"] for row in rows])
    ends = np.array([[row["limbs"][name]["target"] for name in LIMBS] for row in rows])
    reached = np.array([[row["limbs"][name]["end"] for name in LIMBS] for row in rows])
    assert np.hypot(*np.moveaxis(reached - ends, -1, 0)).max() < 0.005  # 2.1 mm
    knees = np.array([[row["limbs"][name]["mid"] for name in LIMBS[2:]] for row in rows])
    moved = np.diff(knees, axis=0) - np.diff(pelvis, axis=0)[:, None]
    assert np.hypot(*np.moveaxis(moved, -1, 0)).max() <= 0.06  # 4 cm
    velocity = np.diff(pelvis, axis=0) / DT
    assert np.hypot(*np.diff(velocity, axis=0).T).max() <= 0.2  # 0.164 m/s, as from the spot


@pytest.mark.parametrize(("facing", "says"), [(1.0, "a wall ahead"), (-1.0, "the loft's edge")])
def test_held_on_the_loft_he_names_what_stops_him(facing: float, says: str) -> None:
    # held on the loft, the hint names what is ahead: at the far wall "a wall ahead", at
    # the ladder's side "the loft's edge", never the one for the other side
    sim = _on_the_loft(facing)
    _walk_rows(sim, [InputState(move=facing)] * int(5.0 / DT))
    hint = sim.blocked_hint()
    assert hint is not None and says in hint


def test_held_against_the_wall_under_the_ladder_he_says_w_climbs_it() -> None:
    # walking into the wall under the loft, the hint names the way on, the ladder, rather
    # than "a wall ahead, too high to step up"
    probe = WalkSim(SceneConfig(dt=DT))
    assert probe.ladder is not None
    sim = _standing_at(probe.ladder.spot_x - 1.0, 1.0)
    _walk_rows(sim, [InputState(move=1.0)] * int(3.0 / DT))
    assert sim.blocked_hint() == "W climbs the ladder"


def test_w_at_the_ladder_with_the_cup_in_hand_says_the_hands_are_full(cup_lifted: Any) -> None:
    # holding the cup, W at the ladder does not climb (it takes both hands), and the hint
    # says why, so the key never seems to do nothing
    sim, _ = cup_lifted
    ladder = sim.ladder
    assert ladder is not None and sim.props is not None
    sim.crowd.stand_anew([ladder.spot_x - 0.4], [1.0])
    _walk_rows(sim, [InputState()] * 30)
    assert sim.props.holding >= 0 and sim.blocked_hint() is None
    _walk_rows(sim, [InputState(climb=1.0)] * int(1.0 / DT))
    assert not ladder.active and sim.blocked_hint() == "hands full: set the cup down to climb"


def test_getting_on_the_ladder_a_hand_reaching_for_the_pointer_eases_to_its_rest() -> None:
    # W held at the ladder's foot with the hands reaching for the pointer up to his
    # right: as he gets on, the hand not yet on a rung goes to its resting place at an
    # arm's pace, never more than 10 cm in a step
    sim, timer = WalkSim(SceneConfig(dt=DT)), PhaseTimer()
    sim.crowd.stand_anew([32.8], [1.0])
    pointer = (34.2, 1.7)
    previous, largest = None, 0.0
    for _ in range(int(2.5 / DT)):
        sim.step(InputState(pointer=pointer, actions=("pointer_moved",), climb=1.0), DT, timer)
        hands = sim.crowd.solution.hand[0, :2].copy()
        if previous is not None:
            largest = max(largest, float(np.hypot(*(hands - previous).T).max()))
        previous = hands
    assert sim.ladder is not None and sim.ladder.active  # climbing
    assert largest <= 0.10, f"a hand moved {largest:.2f} m in a step"


@pytest.mark.parametrize("fast", [False, True])
def test_stepping_off_at_the_bottom_the_hands_let_go_at_an_arms_pace_and_he_stands(
    fast: bool,
) -> None:
    # letting go of the rungs at the bottom, the hands go down to the hips no faster than
    # the arms' 4 m/s (with or without Shift), and he steps off standing, the pelvis
    # within 2 cm of its standing height, not squatting at the climbing height
    rig, _ = load_character_assets(ASSETS)
    ladder = _mounted()
    for _ in range(round(8 * 0.4 / DT)):  # two rung cycles up
        ladder.step(1.0, DT, fast)
    hands, shoulders = [], []
    while ladder.active:
        ladder.step(-1.0, DT, fast)
        hands.append(ladder.ends[:2].copy())
        shoulders.append(ladder.pelvis + np.array([0.0, rig.body.spine]))
    about = np.diff(np.array(hands) - np.array(shoulders)[:, None], axis=0) / DT
    assert np.hypot(*about.T).max() <= 4.0 * 1.05, np.hypot(*about.T).max()
    ground = float(ladder.ends[2:, 1].min())  # the ankles, standing
    standing = ground + rig.gait.stand_extension * rig.legs.limb.reach
    assert ladder.pelvis[1] >= standing - 0.02, (ladder.pelvis[1], standing)


@pytest.mark.parametrize("folder", [ASSETS, ASSETS / "child"])
def test_w_at_the_top_steps_onto_the_loft_at_once_a_hand_holding_on(folder: Path) -> None:
    # the hands stop at the rung about the waist by the loft, so the first foot steps
    # across the step after the last rung move (not waiting for both hands to come down
    # to that rung and then the hips to rise); a hand holds a rung or the far rail while
    # each foot steps across, the right hand the rail for the second foot
    rig, terrain = load_character_assets(folder)
    ladder = LadderClimb(load_props(folder / "props.json", terrain).ladder, rig)
    x, ground = ladder.spot_x, float(terrain.height_at(ladder.spot_x))
    ankles = np.array([[x - 0.05, ground + 0.1], [x + 0.05, ground + 0.1]])
    ladder.mount(ankles, ankles + np.array([0.0, 0.8]), np.array([x, ground + 0.95]))
    steps, last_rung_move, first_loft_step = 0, 0, None
    held_for = {2: [], 3: []}  # a foot stepping across: the hands holding on each step
    while ladder.active and steps < 60 * 30:
        ladder.step(1.0, DT)
        steps += 1
        if ladder.transfer_dir == 0 and ladder.moving >= 0:
            last_rung_move = steps
        if ladder.transfer_dir > 0 and ladder.moving >= 2:
            first_loft_step = first_loft_step or steps
            rail_x = ladder.ladder.x + ladder.ladder.width / 2
            held = []
            for hand in range(2):
                if ladder.rung[hand] >= 0:
                    want = np.array([ladder.ladder.x, ladder.ladder.rungs[ladder.rung[hand]]])
                    held.append(np.allclose(ladder.ends[hand], want))
                elif ladder.rail[hand]:
                    held.append(np.isclose(ladder.ends[hand, 0], rail_x))
            held_for[ladder.moving].append(any(held))
    assert not ladder.active and first_loft_step is not None  # standing on the loft
    assert (first_loft_step - last_rung_move) * DT <= 0.05
    assert all(held_for[2]) and all(held_for[3]) and len(held_for[2]) > 20
