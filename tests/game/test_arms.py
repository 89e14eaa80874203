"""The hands: a natural arm swing, the pointer as an intent (not a leash), props first.

Short headless runs of the walk simulation; figures come from the solved poses.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from game.input_state import InputState, RawInput
from game.profiling import PhaseTimer
from game.scene import SceneConfig
from game.scenes.side_view import seen_from_the_side
from game.scenes.walk import POINTER_LINGER_S, WalkSim
from game.scenes.walk_view import WalkView
from game.world.arms import SHOULDER_EXTENSION, follow_hands, within_shoulder_range
from game.world.character import ARMS, LEGS
from game.world.rig import load_rig

DT = 1.0 / 60.0


@pytest.fixture(scope="module")
def walking() -> dict[str, np.ndarray]:
    """4 s of walking from standing, no pointer; after each step: the hands' x relative to
    their shoulders (T, 2), the ankles' x relative to the pelvis (T, 2) and the elbows'
    bends (T, 2; 0: straight)."""
    sim = WalkSim(SceneConfig(dt=DT))
    timer = PhaseTimer()
    hands, feet, bends = [], [], []
    for _ in range(240):
        sim.step(InputState(move=1.0), DT, timer)
        crowd, sol = sim.crowd, sim.crowd.solution
        hands.append(sol.hand[0, ARMS, 0] - crowd.pose.roots[0, ARMS, 0])
        feet.append(sol.hand[0, LEGS, 0] - crowd.x[0])
        bends.append(np.pi - sol.elbow_angle[0, ARMS])
    return {"hands": np.array(hands), "feet": np.array(feet), "bends": np.array(bends)}


def test_with_no_pointer_walking_arms_swing_counter_to_the_same_side_foot(walking) -> None:
    hands, feet = walking["hands"][90:], walking["feet"][90:]  # steady walking
    amplitude = hands.max(axis=0) - hands.min(axis=0)
    assert (amplitude >= 0.10).all(), amplitude  # ≥ 5 cm either way of the shoulder
    for side in (0, 1):
        correlation = np.corrcoef(hands[:, side], feet[:, side])[0, 1]
        assert correlation < -0.8, (side, correlation)  # the hand swings against its foot


def test_the_elbow_bends_more_on_the_forward_swing(walking) -> None:
    forward_bend, backward_bend = [], []
    for ahead, bend in zip(walking["hands"], walking["bends"], strict=True):
        for side in (0, 1):
            if ahead[side] > 0.06:
                forward_bend.append(bend[side])
            elif ahead[side] < -0.06:
                backward_bend.append(bend[side])
    assert forward_bend and backward_bend
    assert np.mean(forward_bend) > np.mean(backward_bend) + np.radians(10)


def test_a_still_pointer_lets_the_hands_go_back_to_swinging() -> None:
    sim = WalkSim(SceneConfig(dt=DT))
    timer = PhaseTimer()
    chest = sim.crowd.pose.chest[0]
    target = (float(chest[0]) + 0.35, float(chest[1]) + 0.1)
    sim.step(InputState(pointer=target, actions=("pointer_moved",)), DT, timer)
    for _ in range(40):
        sim.step(InputState(pointer=target), DT, timer)
    assert sim.offered == target
    np.testing.assert_allclose(sim.crowd.solution.hand[0, ARMS], [target, target], atol=2e-3)
    linger = int(POINTER_LINGER_S / DT)
    for _ in range(linger + 30):
        sim.step(InputState(pointer=target), DT, timer)
    assert sim.offered is None
    assert (sim.crowd.intent.hand_weight[0] == 0.0).all()
    shoulders = sim.crowd.pose.roots[0, ARMS]
    assert (sim.crowd.solution.hand[0, ARMS, 1] < shoulders[:, 1] - 0.4).all()  # hanging


def test_the_reach_blends_in_without_a_jump() -> None:
    sim = WalkSim(SceneConfig(dt=DT))
    timer = PhaseTimer()
    chest = sim.crowd.pose.chest[0]
    target = (float(chest[0]) + 0.4, float(chest[1]) + 0.3)
    previous = sim.crowd.solution.hand[0, ARMS].copy()
    largest = 0.0
    for _ in range(60):
        sim.step(InputState(pointer=target, actions=("pointer_moved",)), DT, timer)
        hands = sim.crowd.solution.hand[0, ARMS]
        largest = max(largest, float(np.hypot(*(hands - previous).T).max()))
        previous = hands.copy()
    assert largest < 0.05  # metres per step at 60 Hz: eased in, never a snap


def test_h_switches_the_hands_off_the_pointer() -> None:
    sim = WalkSim(SceneConfig(dt=DT))
    timer = PhaseTimer()
    pointer = (0.5, 1.5)
    sim.step(InputState(pointer=pointer, pointer_down=True), DT, timer)
    assert sim.offered == pointer
    sim.step(
        InputState(pointer=pointer, pointer_down=True, actions=("toggle_hands_follow",)), DT, timer
    )
    assert sim.offered is None and not sim.hands_follow
    assert sim.trace_characters()[0]["pointer"] is None


def test_the_trace_records_the_pointer_the_hands_were_offered() -> None:
    sim = WalkSim(SceneConfig(dt=DT))
    timer = PhaseTimer()
    sim.step(InputState(pointer=(0.25, 1.5), pointer_down=True), DT, timer)
    assert sim.trace_characters()[0]["pointer"] == [0.25, 1.5]
    sim.step(InputState(), DT, timer)
    assert sim.trace_characters()[0]["pointer"] is None


def test_a_mouse_outside_the_window_is_no_pointer() -> None:
    view = WalkView(WalkSim(SceneConfig(dt=DT)))
    view.layout((1280, 720))
    inside = view.map_input(RawInput(pointer_px=(600.0, 300.0), pointer_inside=True))
    outside = view.map_input(RawInput(pointer_px=(600.0, 300.0), pointer_inside=False))
    assert inside.pointer is not None and outside.pointer is None
    moved = view.map_input(
        RawInput(pointer_px=(610.0, 300.0), pointer_inside=True, pointer_moved=True)
    )
    assert "pointer_moved" in moved.actions


@pytest.mark.parametrize(
    ("action", "key", "value", "done"),
    [
        ("reach_prop", "prop", "cup", lambda props: props.holding >= 0),
        ("reach_prop", "prop", "door", lambda props: props.phase == "hold"),
    ],
)
def test_a_prop_reach_completes_with_the_pointer_moving_elsewhere(action, key, value, done) -> None:
    sim = WalkSim(SceneConfig(dt=DT))
    timer = PhaseTimer()
    assert sim.props is not None
    # the mouse keeps moving (held, even) far from the prop, above the hero's head
    pointer = lambda i: (float(sim.crowd.x[0]) + 0.3 * np.sin(i / 9), 3.2)  # noqa: E731
    sim.step(InputState(pointer=pointer(0), actions=(action,), values={key: value}), DT, timer)
    for i in range(1, int(4.0 / DT)):
        if done(sim.props):
            break
        sim.step(
            InputState(pointer=pointer(i), pointer_down=True, actions=("pointer_moved",)), DT, timer
        )
    assert done(sim.props), (sim.props.goal, sim.props.phase)


def test_the_shared_lifted_cup_steps_on_as_one_lifted_afresh(cup_lifted, lift_the_cup) -> None:
    # what the ``cup_lifted`` fixture rests on: its copy of a sim is as good as a new one
    sim, timer = WalkSim(SceneConfig(dt=DT)), PhaseTimer()
    lift_the_cup(sim, timer)
    copied, copied_timer = cup_lifted
    for step in range(90):  # set down beside him, walking off once it is down
        inp = InputState(move=1.0) if step > 60 else InputState()
        if step == 0:
            inp = InputState(actions=("put_down",), values={"place_x": float(sim.crowd.x[0]) - 0.4})
        sim.step(inp, DT, timer)
        copied.step(inp, DT, copied_timer)
        assert copied.trace_characters() == sim.trace_characters()
        assert copied.prop("cup").bottom.tolist() == sim.prop("cup").bottom.tolist()


def test_setting_the_cup_down_completes_with_the_pointer_elsewhere(cup_lifted) -> None:
    sim, timer = cup_lifted
    assert sim.props is not None
    away = (float(sim.crowd.x[0]) - 2.0, 0.3)
    sim.step(
        InputState(pointer=away, actions=("put_down", "pointer_moved"), values={"place_x": 2.55}),
        DT,
        timer,
    )
    for _ in range(int(6.0 / DT)):
        if sim.props.holding < 0:
            break
        sim.step(InputState(pointer=away, actions=("pointer_moved",)), DT, timer)
    assert sim.props.holding < 0
    assert sim.prop("cup").bottom[0] == pytest.approx(2.55, abs=0.05)


def _set_the_cup_down(sim: WalkSim, timer: PhaseTimer, offset: float) -> None:
    assert sim.props is not None
    place = float(sim.crowd.x[0]) + offset
    sim.step(InputState(actions=("put_down",), values={"place_x": place}), DT, timer)
    for _ in range(int(5.0 / DT)):
        sim.step(InputState(), DT, timer)
        if sim.props.holding < 0 and sim.props.phase == "":
            break
    for _ in range(60):  # the cup falls, the feet settle
        sim.step(InputState(), DT, timer)
    assert sim.props.holding < 0 and sim.prop("cup").bottom[1] == pytest.approx(0.0, abs=1e-9)


@pytest.mark.parametrize("offset", [-0.1, -0.2, -0.4, -1.0, -2.0])
def test_a_cup_set_down_on_the_floor_lands_clear_of_the_feet(offset: float, cup_lifted) -> None:
    # a cup set down at a spot over the feet lands ahead of the toes instead: lying on the
    # feet it would hide behind the shoes, and a click on it would grab a foot
    sim, timer = cup_lifted
    _set_the_cup_down(sim, timer, offset)
    assert sim.props is not None
    crowd = sim.crowd
    soles = crowd.pose.soles(crowd.solution.hand[:1, LEGS], sim.rig)[0, ..., 0]
    radius = sim.props.props.cup.radius
    cup_x = float(sim.prop("cup").bottom[0])
    assert cup_x + radius < soles.min() or cup_x - radius > soles.max(), (cup_x, soles)


def test_a_click_on_a_cup_by_the_feet_reaches_for_it_rather_than_grabbing_a_foot() -> None:
    sim = WalkSim(SceneConfig(dt=DT))
    sim.step(InputState(), DT, PhaseTimer())
    assert sim.props is not None
    view = WalkView(sim)
    ankles = sim.crowd.solution.hand[0, LEGS]
    sim.prop("cup").bottom[:] = [ankles[1, 0] + 0.12, 0.0]  # on the floor by the toes
    cup = sim.prop("cup").bottom + np.array([0.0, sim.props.props.cup.height / 2])
    assert np.hypot(*(ankles - cup).T).min() < 0.25  # within a foot's grab radius
    at = tuple(float(v) for v in view.camera.to_screen(cup))
    inp = view.map_input(RawInput(pointer_px=at, pointer_inside=True, clicks=[(1, at)]))
    assert "reach_prop" in inp.actions and inp.values.get("prop") == "cup"
    assert "drag_foot" not in inp.values


def _largest_arm_jump(sim: WalkSim, inputs: list[InputState]) -> float:
    """The largest per-step displacement of an elbow or a hand relative to the pelvis's own
    displacement (the ``max_joint_jump_m`` measure) as the side view draws it, metres."""
    timer = PhaseTimer()
    largest = 0.0
    previous = None
    for inp in inputs:
        sim.step(inp, DT, timer)
        crowd = sim.crowd
        drawn = seen_from_the_side(crowd.pose, crowd.solution)
        joints = np.concatenate([drawn.elbow[0, ARMS], drawn.hand[0, ARMS]])
        joints = joints - crowd.pose.pelvis[0]
        if previous is not None:
            largest = max(largest, float(np.hypot(*(joints - previous).T).max()))
        previous = joints
    return largest


@pytest.mark.parametrize("side", [0, 1])
@pytest.mark.parametrize(
    ("start", "end"),
    [((0.3, 0.45), (-0.3, -0.45)), ((-0.45, -0.3), (0.45, 0.3))],
    ids=["down-back", "up-forward"],
)
def test_a_pointer_sweeping_through_the_shoulder_moves_no_arm_joint_more_than_10_cm(
    side, start, end
) -> None:
    sim = WalkSim(SceneConfig(dt=DT))
    sim.both_hands = False
    shoulder = sim.crowd.pose.roots[0, ARMS][side]
    a, b = shoulder + start, shoulder + end
    # the hand reaches the pointer held still, then the pointer sweeps straight through the
    # shoulder at 1.6 m/s
    path = [a] * 45 + [a + (b - a) * t for t in np.linspace(0.0, 1.0, 40)]
    inputs = [InputState(pointer=tuple(p), actions=("pointer_moved",)) for p in path]
    assert _largest_arm_jump(sim, inputs) <= 0.10


def test_reaching_above_the_head_from_the_swing_moves_no_arm_joint_more_than_10_cm() -> None:
    # the straight blend from the hanging hand to the pointer passes through the shoulder
    sim = WalkSim(SceneConfig(dt=DT))
    above = sim.crowd.pose.roots[0, ARMS].mean(axis=0) + [0.0, 0.75]
    inputs = [InputState(pointer=tuple(above), actions=("pointer_moved",))] * 60
    assert _largest_arm_jump(sim, inputs) <= 0.10


def test_a_pointer_jumping_across_the_body_moves_no_arm_joint_more_than_10_cm() -> None:
    sim = WalkSim(SceneConfig(dt=DT))
    chest = sim.crowd.pose.chest[0]
    ahead, behind = tuple(chest + [1.0, 0.0]), tuple(chest + [-1.0, -0.1])
    inputs = [InputState(pointer=ahead, actions=("pointer_moved",))] * 50
    inputs += [InputState(pointer=behind, actions=("pointer_moved",))] * 30
    assert _largest_arm_jump(sim, inputs) <= 0.10


@pytest.mark.parametrize("spot", [(0.3, 0.0), (0.15, -0.1)])
def test_turning_around_while_reaching_moves_no_arm_joint_more_than_10_cm(spot) -> None:
    # the elbow of a bent reaching arm changes sides with the facing (it bends backward
    # either way): it may only cross the shoulder→hand line with the arm straight
    sim = WalkSim(SceneConfig(dt=DT))

    def reach(move: float) -> InputState:
        chest = sim.crowd.pose.chest[0]
        return InputState(pointer=tuple(chest + spot), move=move, actions=("pointer_moved",))

    largest = _largest_arm_jump(sim, [reach(0.0) for _ in range(40)])
    largest = max(largest, _largest_arm_jump(sim, [reach(-1.0) for _ in range(105)]))
    assert sim.crowd.facing[0] < 0 and not sim.crowd.turning[0]
    assert largest <= 0.10


@pytest.mark.parametrize("facing", [1.0, -1.0])
def test_a_hand_wanted_opposite_swings_round_in_front_never_up_behind_the_back(facing) -> None:
    rig = load_rig(Path("assets/rig.json"))
    shoulders = np.zeros((1, 2, 2))
    # from up in front of the shoulder, 60° above the forward horizontal, to the opposite
    start = 0.3 * np.array([facing * np.cos(np.pi / 3), np.sin(np.pi / 3)])
    hands = np.broadcast_to(start, (1, 2, 2))
    behind_up = np.arctan2(1.0, -facing)
    for _ in range(40):
        hands = follow_hands(hands - shoulders, -start, shoulders, np.array([facing]), DT, rig)
        angle = np.arctan2(hands[0, :, 1], hands[0, :, 0])
        off = np.abs((angle - behind_up + np.pi) % (2.0 * np.pi) - np.pi)
        assert (off > np.radians(60)).all()  # it never went up past the head
    np.testing.assert_allclose(hands[0], [-start, -start], atol=1e-9)


@pytest.mark.parametrize("facing", [1.0, -1.0])
def test_a_target_behind_the_shoulder_turns_to_the_nearer_direction_a_shoulder_reaches(
    facing,
) -> None:
    shoulder = np.array([0.3, 1.4])
    # from straight down toward the back: 30° (reachable), 80° and 120° (not), 170° (overhead)
    behind = np.radians([30.0, 80.0, 120.0, 170.0])
    r = np.array([0.5, 0.4, 0.45, 0.3])
    targets = shoulder + r[:, None] * np.stack([-facing * np.sin(behind), -np.cos(behind)], -1)
    got = within_shoulder_range(targets, shoulder, np.full(4, facing))
    offset = got - shoulder
    np.testing.assert_allclose(np.hypot(*offset.T), r)  # each keeps its distance
    angle = np.degrees(np.arctan2(-offset[:, 0] * facing, -offset[:, 1]))
    np.testing.assert_allclose(angle, [30.0, np.degrees(SHOULDER_EXTENSION), 160.0, 170.0])
    np.testing.assert_array_equal(got[[0, 3]], targets[[0, 3]])  # reachable: untouched


def test_walking_away_from_the_pointer_the_hands_reach_back_only_as_far_as_a_shoulder_can() -> None:
    # walking away from a pointer held behind him, the hands reach back toward it only
    # about as far as a shoulder extends (50° behind straight down), never straight back at
    # shoulder height
    sim, timer = WalkSim(SceneConfig(dt=DT)), PhaseTimer()
    crowd, largest = sim.crowd, 0.0
    for step in range(150):
        pointer = (float(crowd.x[0]) - 1.5, float(crowd.y[0]) + 0.4)
        sim.step(InputState(pointer=pointer, pointer_down=True, move=1.0), DT, timer)
        hand = crowd.solution.hand[0, ARMS] - crowd.pose.roots[0, ARMS]
        behind = np.degrees(np.arctan2(-hand[:, 0] * crowd.facing[0], -hand[:, 1]))
        if step >= 60:  # the reach has blended in
            largest = max(largest, float(behind.max()))
    assert crowd.facing[0] == 1.0  # walking decides the facing
    assert 40.0 < largest <= 56.0


@pytest.mark.parametrize("side", [1.0, -1.0])
def test_a_pointer_held_behind_a_standing_body_turns_it_round_to_reach(side) -> None:
    sim, timer = WalkSim(SceneConfig(dt=DT)), PhaseTimer()
    crowd = sim.crowd
    for _ in range(20):
        sim.step(InputState(), DT, timer)
    # a pointer in front, beside the pelvis, does not turn it
    ahead = (float(crowd.x[0]) + 0.5 * crowd.facing[0], float(crowd.y[0]) + 0.2)
    for _ in range(60):
        sim.step(InputState(pointer=ahead, pointer_down=True), DT, timer)
    assert crowd.facing[0] == 1.0 and not crowd.turning[0]
    shoulders = crowd.pose.roots[0, ARMS].mean(axis=0)
    behind = (float(shoulders[0]) - 0.45, float(shoulders[1]) + 0.2 * side)  # within reach
    steps = 0
    while not (crowd.facing[0] < 0 and not crowd.turning[0]) and steps < 90:
        sim.step(InputState(pointer=behind, pointer_down=True), DT, timer)
        steps += 1
    assert steps * DT < 1.2, "a second and a fifth to face it"
    x = float(crowd.x[0])
    for _ in range(60):
        sim.step(InputState(pointer=behind, pointer_down=True), DT, timer)
    assert crowd.facing[0] == -1.0 and abs(float(crowd.x[0]) - x) < 0.05  # turned, stood
    hands = crowd.solution.hand[0, ARMS]
    assert np.hypot(*(hands - behind).T).min() < 0.05  # and reached it


def test_nearer_hand_mode_with_the_cup_in_the_nearer_hand_reaches_with_the_free_one(
    cup_lifted: tuple[WalkSim, PhaseTimer],
) -> None:
    # B (nearer hand) with the cup in the hand nearer the pointer: the cup's hand cannot
    # reach, so the nearer *free* hand reaches rather than none
    sim, timer = cup_lifted
    assert sim.props is not None and sim.props.holding >= 0
    holding = sim.props.holding
    sim.both_hands = False
    shoulders = sim.crowd.pose.roots[0, ARMS]
    pointer = shoulders[holding] + [0.35 * float(sim.crowd.facing[0]), 0.25]  # nearer it
    assert np.hypot(*(pointer - shoulders[holding])) < np.hypot(*(pointer - shoulders[1 - holding]))
    for _ in range(60):
        sim.step(InputState(pointer=tuple(pointer), actions=("pointer_moved",)), DT, timer)
    assert sim.reaching[1 - holding] and not sim.reaching[holding]
    hand = sim.crowd.solution.hand[0, ARMS.start + 1 - holding]
    assert np.hypot(*(hand - pointer)) < 0.15
    assert sim.props.holding == holding  # still carried
