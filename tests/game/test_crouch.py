"""Reaching below a standing arm's reach: the hero crouches (knees bend, the spine stoops)
for the cup on the floor, a spot there to set it down, or the pointer held low in front.

Headless runs of the walk simulation; figures come from the solved poses and the cup.
"""

from __future__ import annotations

import numpy as np
import pytest

from game.input_state import InputState, RawInput
from game.profiling import PhaseTimer
from game.scene import ASSETS_DIR, SceneConfig
from game.scenes.walk import WalkSim
from game.scenes.walk_view import WalkView
from game.world.character import ARMS, LEGS, Crowd
from game.world.rig import load_rig
from game.world.terrain import Terrain

DT = 1.0 / 60.0


def _standing(sim: WalkSim) -> float:
    rig = sim.rig
    ground = float(sim.crowd.feet.lock[0, :, 1].mean()) - rig.legs.ankle_height
    return ground + rig.legs.ankle_height + rig.gait.stand_extension * rig.legs.limb.reach


@pytest.mark.parametrize("offset", [-0.3, -1.0, 1.2])
def test_a_cup_set_down_on_the_floor_is_put_there_by_hand_not_dropped(
    offset: float, cup_lifted
) -> None:
    # a cup set down on the floor is put there by hand: the hero crouches until it is on
    # the floor, rather than letting it go at hip height to fall, then stands up again
    sim, timer = cup_lifted
    props, crowd = sim.props, sim.crowd
    assert props is not None
    place = float(crowd.x[0]) + offset
    if 1.8 < place < 2.9:  # not onto the table
        place += 1.2
    sim.step(InputState(actions=("put_down",), values={"place_x": place}), DT, timer)
    lowest_pelvis, released_at = np.inf, None
    for _ in range(int(6.0 / DT)):
        sim.step(InputState(), DT, timer)
        lowest_pelvis = min(lowest_pelvis, float(crowd.y[0]))
        if props.holding < 0 and released_at is None:
            released_at = float(sim.prop("cup").bottom[1]) - props.props.surface_at(
                float(sim.prop("cup").bottom[0]), sim.terrain
            )
            hand = crowd.solution.hand[0, ARMS]
        if released_at is not None and props.phase == "":
            break
    assert released_at is not None
    assert released_at <= 0.011  # let go on the floor (the grip tolerance is 1 cm)
    assert _standing(sim) - lowest_pelvis > 0.3  # a crouch, not a bent-over straight leg
    floor = props.props.surface_at(float(sim.prop("cup").bottom[0]), sim.terrain)
    assert hand[:, 1].min() - floor < 0.12
    for _ in range(int(1.5 / DT)):
        sim.step(InputState(), DT, timer)
    assert abs(float(crowd.y[0]) - _standing(sim)) < 0.03  # and up again


def test_the_cup_on_the_floor_is_picked_up_from_there_not_pulled_up_to_the_hand() -> None:
    # the cup on the floor is picked up where it lies, the hero crouching to it, and it
    # rises with the hand at the hand's pace, never jumping up to a standing hand
    sim, timer = WalkSim(SceneConfig(dt=DT)), PhaseTimer()
    props, crowd = sim.props, sim.crowd
    assert props is not None
    sim.step(InputState(), DT, timer)
    sim.prop("cup").bottom[:] = [float(crowd.x[0]) - 1.1, 0.0]
    sim.step(InputState(actions=("reach_prop",), values={"prop": "cup"}), DT, timer)
    previous, largest = sim.prop("cup").bottom.copy(), 0.0
    for _ in range(int(6.0 / DT)):
        sim.step(InputState(), DT, timer)
        largest = max(largest, float(np.hypot(*(sim.prop("cup").bottom - previous))))
        previous = sim.prop("cup").bottom.copy()
        if props.holding >= 0 and float(crowd.y[0]) > _standing(sim) - 0.03:
            break
    assert props.holding >= 0
    assert largest < 0.07  # the hand's pace (4 m/s at most), never a jump


def test_a_pointer_held_low_in_front_crouches_the_body_and_it_stands_up_after() -> None:
    sim, timer = WalkSim(SceneConfig(dt=DT)), PhaseTimer()
    crowd = sim.crowd
    for _ in range(20):
        sim.step(InputState(), DT, timer)
    standing_y = float(crowd.y[0])
    shoulders = crowd.pose.roots[0, ARMS].mean(axis=0)
    low = (float(shoulders[0]) + 0.4, 0.08)
    for _ in range(int(1.5 / DT)):
        sim.step(InputState(pointer=low, pointer_down=True), DT, timer)
    hands = crowd.solution.hand[0, ARMS]
    assert np.hypot(*(hands - low).T).max() < 0.03  # both hands on the point
    assert standing_y - float(crowd.y[0]) > 0.3
    knees = crowd.solution.elbow[0, LEGS]
    ankles = crowd.solution.hand[0, LEGS]
    assert ((knees[:, 0] - ankles[:, 0]) * crowd.facing[0] > 0.05).all()  # knees forward
    for _ in range(int(3.0 / DT)):  # the pointer is no longer offered: he stands up
        sim.step(InputState(pointer=low), DT, timer)
    assert abs(float(crowd.y[0]) - standing_y) < 0.02


@pytest.mark.parametrize("move", [1.0, -1.0], ids=["walk-off", "turn-round"])
def test_from_a_crouch_he_stands_up_before_walking_off_or_turning_round(move: float) -> None:
    # crouched, then a walk key: he has stood up (the crouch at most a fifth) before he
    # moves off or pivots, never walking bent double, and turning round his trunk never
    # tips back past upright
    sim, timer = WalkSim(SceneConfig(dt=DT)), PhaseTimer()
    crowd = sim.crowd
    crowd.stand_anew([2.5], [1.0])  # flat floor either way, the shut door 2.5 s behind him
    for _ in range(20):
        sim.step(InputState(), DT, timer)
    low = tuple(crowd.pose.roots[0, ARMS].mean(axis=0) + [0.4, -1.3])
    for _ in range(70):
        sim.step(InputState(pointer=low, pointer_down=True), DT, timer)
    assert crowd.crouch[0] > 0.8
    for _ in range(int(2.5 / DT)):
        sim.step(InputState(move=move), DT, timer)
        if abs(float(crowd.vx[0])) > 0.1 or crowd.turning[0]:
            assert crowd.crouch[0] <= 0.2
        trunk = (crowd.pose.chest[0, 0] - crowd.pose.pelvis[0, 0]) * crowd.pose.spin[0]
        assert trunk >= -0.02  # never leaning back
    assert crowd.facing[0] == move and abs(float(crowd.vx[0])) > 1.0


def test_walking_off_from_a_crouch_rises_first() -> None:
    sim, timer = WalkSim(SceneConfig(dt=DT)), PhaseTimer()
    crowd = sim.crowd
    for _ in range(20):
        sim.step(InputState(), DT, timer)
    low = tuple(crowd.pose.roots[0, ARMS].mean(axis=0) + [0.4, -2.0])
    for _ in range(int(1.0 / DT)):
        sim.step(InputState(pointer=low, pointer_down=True), DT, timer)
    assert crowd.crouch[0] == 1.0
    depth = []
    for _ in range(int(1.5 / DT)):
        sim.step(InputState(move=1.0), DT, timer)
        depth.append(float(crowd.crouch[0]))
    assert depth[-1] == 0.0
    assert np.diff(depth).min() >= -DT / 0.7 - 1e-12  # no snap: at the crouch's own pace


@pytest.mark.parametrize("facing", [1.0, -1.0])
def test_crouched_on_a_slope_no_hand_goes_into_the_ground(facing: float) -> None:
    # crouched on a 17° slope, facing up or down it: no hand goes into the ground, both
    # stay at least 3 cm above the ground under them
    rig = load_rig(ASSETS_DIR / "rig.json")
    slope = Terrain(np.array([[-10.0, 3.0], [10.0, -3.0]]))  # 17° down toward +x
    crowd = Crowd(rig, slope, np.zeros(1), np.array([facing]))
    crowd.crouch_to(0, 1.0)
    lowest = np.inf
    for _ in range(int(1.5 / DT)):
        crowd.step(np.zeros(1), np.zeros(1), DT)
        hands = crowd.solve().hand[0, ARMS]
        lowest = min(lowest, float((hands[:, 1] - slope.height_at(hands[:, 0])).min()))
    assert crowd.crouch[0] == 1.0
    assert lowest >= 0.03


def test_a_click_on_the_floor_under_the_table_top_sets_the_cup_on_the_floor_not_the_table(
    cup_lifted,
) -> None:
    # a click on the floor just past a table leg, under the top's overhang, sets the cup
    # down on the floor beside the table: where a click is on the table is read from its
    # height as well as its x
    sim, timer = cup_lifted
    props = sim.props
    assert props is not None
    table = props.props.table
    view = WalkView(sim)
    under = (table.x0 + table.width - 0.03, 0.2)  # the floor beneath the top's right end
    at = tuple(float(v) for v in view.camera.to_screen(np.array(under)))
    inp = view.map_input(RawInput(pointer_px=at, pointer_inside=True, clicks=[(1, at)]))
    assert "put_down" in inp.actions
    assert inp.values["place_x"] > table.x0 + table.width  # beside the table, on the floor
    on_top = (table.x0 + table.width - 0.03, table.top + 0.05)
    at = tuple(float(v) for v in view.camera.to_screen(np.array(on_top)))
    inp = view.map_input(RawInput(pointer_px=at, pointer_inside=True, clicks=[(1, at)]))
    assert inp.values["place_x"] == pytest.approx(on_top[0], abs=0.01)  # the table top itself


def test_after_a_click_on_the_ball_he_does_not_crouch_for_the_pointer_left_on_the_floor() -> None:
    # the click (pressed for a few frames, the mouse then left where the ball lay, low in
    # front) orders the kick; the pointer is not offered again until the mouse moves: no
    # crouch for the empty floor after the kick; moved, the pointer is offered again
    sim = WalkSim(SceneConfig(dt=DT))
    view, timer = WalkView(sim), PhaseTimer()
    view.layout((1280, 720))
    ball = sim.prop("ball")
    x = float(sim.crowd.x[0]) + 0.5  # he kicks from where he stands, within a second
    ball.state = type(ball.state)(np.array([x, ball.spec.radius]), np.zeros(2))
    for _ in range(20):
        sim.step(view.map_input(RawInput()), DT, timer)
    px = view.camera.point_to_screen(x, ball.spec.radius)
    press = RawInput(pointer_px=px, pointer_inside=True, buttons_down=frozenset({1}))
    frames = [RawInput(pointer_px=px, pointer_inside=True, pointer_moved=True, clicks=[(1, px)])]
    frames += [press] * 6 + [RawInput(pointer_px=px, pointer_inside=True)] * int(6.0 / DT)
    deepest_after = 0.0
    for raw in frames:
        sim.step(view.map_input(raw), DT, timer)
        if ball.kicks:
            deepest_after = max(deepest_after, float(sim.crowd.intent.crouch_goal[0]))
    assert ball.kicks == 1
    assert deepest_after == 0.0
    low = view.camera.point_to_screen(float(sim.crowd.x[0]) + 0.4 * sim.crowd.facing[0], 0.1)
    moved = RawInput(pointer_px=low, pointer_inside=True, pointer_moved=True)
    for raw in [moved] + [RawInput(pointer_px=low, pointer_inside=True)] * 30:
        sim.step(view.map_input(raw), DT, timer)
    assert float(sim.crowd.intent.crouch_goal[0]) > 0.3
