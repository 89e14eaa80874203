"""The shut door is a wall to the walk, opened by its knob from the knob side; driven
through the walk view's input layer (keys and clicks as the window sends them)."""

from __future__ import annotations

import copy

import numpy as np
import pytest

from game.input_state import InputState, RawInput
from game.profiling import PhaseTimer
from game.scene import SceneConfig
from game.scenes.walk import WalkSim
from game.scenes.walk_view import WalkView
from game.world.character import LEGS
from game.world.props import DoorProp
from game.world.props.ball import KickBall
from game.world.props.ball_physics import BallState
from game.world.props.door import FAR_SIDE_HINT, SHUT_BEHIND_HINT, SHUT_HINT
from game.world.props.grip import ReachPhase

DT = 1.0 / 60.0


def _view_at(x: float, facing: float) -> tuple[WalkView, DoorProp]:
    """The walk view with the hero standing at ``x`` facing ``facing``, and the door."""
    sim = WalkSim(SceneConfig(dt=DT))
    sim.crowd.stand_anew([x], [facing])
    view = WalkView(sim)
    view.layout((1280, 720))
    door = sim.prop("door")
    assert isinstance(door, DoorProp)
    return view, door


def _play(view: WalkView, raws: list[RawInput]) -> list[float]:
    """Each frame's input mapped by the view and stepped; the soles' x span per step."""
    timer, spans = PhaseTimer(), []
    sim = view.sim
    for raw in raws:
        sim.step(view.map_input(raw), DT, timer)
        soles = sim.crowd.pose.soles(sim.crowd.solution.hand[:1, LEGS], sim.rig)[0, ..., 0]
        spans.append((float(soles.min()), float(soles.max())))
    return spans


def _click(view: WalkView, point: np.ndarray) -> RawInput:
    px = view.camera.point_to_screen(float(point[0]), float(point[1]))
    return RawInput(pointer_px=px, pointer_inside=True, clicks=[(1, px)])


def test_a_walk_into_the_shut_door_stops_short_of_it_and_says_the_knob_opens_it() -> None:
    view, door = _view_at(1.0, -1.0)
    x1 = door.door.x0 + door.door.width
    spans = _play(view, [RawInput(keys_down=frozenset({"a"}))] * int(4.0 / DT))
    assert min(lo for lo, _ in spans) > x1  # the toes never in the panel's span
    assert view.sim.blocked_hint() == SHUT_HINT
    # the knob opens it, and then the same key walks him through
    _play(view, [_click(view, door.knob)] + [RawInput()] * int(4.0 / DT))
    assert door.swing > 0.0
    _play(view, [RawInput(keys_down=frozenset({"a"}))] * int(2.5 / DT))
    assert float(view.sim.crowd.x[0]) < door.door.x0


@pytest.fixture(scope="session")
def _at_the_shut_door_once() -> tuple[WalkView, DoorProp]:
    view, door = _view_at(1.0, -1.0)
    _play(view, [RawInput(keys_down=frozenset({"a"}))] * int(3.0 / DT))
    return view, door


@pytest.fixture
def at_the_shut_door(
    _at_the_shut_door_once: tuple[WalkView, DoorProp],
) -> tuple[WalkView, DoorProp]:
    """``view, door``: the hero walked left (A held 3 s) from x 1 to the shut door and
    stopped there; a copy of one walked there once per test process (a session-scoped
    fixture), which steps on exactly as one walked there afresh (a copied walk scene does:
    test_arms.py's shared lifted cup)."""
    return copy.deepcopy(_at_the_shut_door_once)


@pytest.mark.parametrize(("dx", "dy"), [(-0.7, -0.5), (-0.7, 0.0), (-0.5, 0.3), (-0.3, -0.5)])
def test_a_foot_held_into_the_shut_door_keeps_out_of_it_leg_and_all(
    dx: float, dy: float, at_the_shut_door: tuple[WalkView, DoorProp]
) -> None:
    # stopped at the shut door, a foot dragged into its panel is held short of it (the
    # panel is as solid to a held foot as a wall), the knee too
    view, door = at_the_shut_door
    sim, timer = view.sim, PhaseTimer()
    x1 = door.door.x0 + door.door.width
    hip = sim.crowd.pose.roots[0, LEGS.start + 1]
    goal = (float(hip[0] + dx), float(hip[1] + dy))
    grab = InputState(pointer=goal, pointer_down=True, values={"drag_foot": "right_leg"})
    for _ in range(40):
        sim.step(grab, DT, timer)
        soles = sim.crowd.pose.soles(sim.crowd.pose.targets[:1, LEGS], sim.rig)[0, 1, :, 0]
        assert float(soles.min()) >= x1  # the held sole never in the panel's span
        assert float(sim.crowd.solution.elbow[0, LEGS.start + 1, 0]) >= x1  # nor the knee
    assert door.swing == 0.0


@pytest.mark.parametrize("ball_x", [-1.15, -0.62])
def test_the_shut_door_solid_to_his_feet_is_no_ground_for_the_ball(ball_x: float) -> None:
    # a ball lying in the shut door's span or beside it stays where it lies as he walks
    # up to the door (its panel is solid to his feet near it, not a box on the ground)
    view, door = _view_at(1.0, -1.0)
    ball = view.sim.prop("ball")
    assert isinstance(ball, KickBall)
    radius = ball.spec.radius
    ball.state = BallState(np.array([ball_x, radius]), np.zeros(2))
    _play(view, [RawInput(keys_down=frozenset({"a"}))] * int(3.0 / DT))
    np.testing.assert_allclose(ball.state.centre, [ball_x, radius], atol=1e-9)
    assert door.swing == 0.0


@pytest.mark.parametrize("speed", [1.5, 4.0])
def test_a_ball_rolled_at_the_shut_door_bounces_off_it_and_through_it_open(speed: float) -> None:
    # the shut panel is a wall to the ball as to his feet, from wherever he stands: it
    # comes back off it, never into its span, and is not lifted onto it; open, the ball
    # rolls on through the doorway
    for swing in (0.0, 1.0):
        view, door = _view_at(2.5, -1.0)
        door.swing = swing
        ball = view.sim.prop("ball")
        assert isinstance(ball, KickBall)
        radius, x1 = ball.spec.radius, door.door.x0 + door.door.width
        ball.state = BallState(np.array([x1 + 0.6, radius]), np.array([-speed, 0.0]))
        timer, nearest, highest = PhaseTimer(), np.inf, -np.inf
        for _ in range(int(2.0 / DT)):
            view.sim.step(InputState(), DT, timer)
            nearest = min(nearest, float(ball.state.centre[0]) - radius - x1)
            highest = max(highest, float(ball.state.centre[1]))
        if swing == 0.0:
            assert nearest > -0.005, f"the ball went {-nearest * 100:.1f} cm into the door"
            assert highest < radius + 0.01
            assert float(ball.state.velocity[0]) >= 0.0 or ball.state.resting
        else:
            assert float(ball.state.centre[0]) < door.door.x0, "the open doorway stopped it"


@pytest.mark.parametrize("gap", [0.0, 0.08, 0.25, 0.45])
def test_a_ball_kicked_into_the_shut_door_close_by_is_tapped_low_not_squeezed_up(
    gap: float,
) -> None:
    # clicked with the shut door a short way beyond it (or lying against it), the ball is
    # kicked into the door no further than the toe can push it before it touches the panel,
    # the foot slowing into it, and the follow-through low: it is neither squeezed out
    # between foot and door nor scooped up coming back, and never goes into the door
    view, door = _view_at(0.0, 1.0)
    ball = view.sim.prop("ball")
    assert isinstance(ball, KickBall)
    radius, x1 = ball.spec.radius, door.door.x0 + door.door.width
    ball.state = BallState(np.array([x1 + gap + radius, radius]), np.zeros(2))
    sim, timer, highest, nearest = view.sim, PhaseTimer(), 0.0, np.inf
    for _ in range(20):
        sim.step(InputState(), DT, timer)
    sim.step(InputState(actions=("reach_prop",), values={"prop": "ball"}), DT, timer)
    for _ in range(int(4.0 / DT)):
        sim.step(InputState(), DT, timer)
        highest = max(highest, float(ball.state.centre[1]) - radius)
        nearest = min(nearest, float(ball.state.centre[0]) - radius - x1)
    assert ball.kicks == 1
    assert highest < 0.3, f"the ball went {highest:.2f} m up"
    assert nearest > -0.01, f"the ball went {-nearest * 100:.1f} cm into the door"


def test_clicked_from_the_wall_side_he_says_the_knob_is_out_of_reach() -> None:
    view, door = _view_at(-2.3, 1.0)
    spans = _play(view, [RawInput(keys_down=frozenset({"d"}))] * int(3.0 / DT))
    assert max(hi for _, hi in spans) < door.door.x0  # stopped on the wall side
    assert view.sim.blocked_hint() == SHUT_BEHIND_HINT  # not "click its knob": no way to it
    panel = np.array([door.door.x0 + 0.2, door.door.base + 1.0])
    _play(view, [_click(view, panel)] + [RawInput()] * 30)
    hands = view.sim.props
    assert hands is not None and hands.grip is None  # no hand goes for it
    assert view.sim.blocked_hint() == FAR_SIDE_HINT
    assert door.swing == 0.0


@pytest.mark.parametrize("stay_s", [6.0])
def test_the_open_door_does_not_shut_on_him_behind_it(stay_s: float) -> None:
    view, door = _view_at(0.3, -1.0)
    _play(view, [_click(view, door.knob)] + [RawInput()] * int(3.0 / DT))
    _play(view, [RawInput(keys_down=frozenset({"a"}))] * int(2.0 / DT))
    assert float(view.sim.crowd.x[0]) < door.door.x0  # through, on the wall side
    _play(view, [RawInput()] * int(stay_s / DT))
    assert door.swing > 0.0  # still open: shut, the knob would be out of his reach
    _play(view, [RawInput(keys_down=frozenset({"d"}))] * int(3.0 / DT))
    assert float(view.sim.crowd.x[0]) > door.door.x0 + door.door.width
    _play(view, [RawInput()] * int(4.0 / DT))
    assert door.swing == 0.0  # out of the doorway, it swings shut behind him


def test_clicked_open_from_the_wall_side_he_walks_round_to_the_knob_and_takes_it() -> None:
    # from the hinge side the open door's knob is on its far face: he goes round through
    # the doorway to the knob side first, the door staying open for him, then takes it
    view, door = _view_at(-2.3, 1.0)
    door.swing = 1.0  # open: it stays so while he is on the wall side
    sim, passed, held = view.sim, False, False
    hands = sim.props
    assert hands is not None
    _play(view, [_click(view, door.knob)])
    for _ in range(int(8.0 / DT)):
        _play(view, [RawInput()])
        passed = passed or float(sim.crowd.x[0]) > door.door.x0 + door.door.width
        held = hands.grip is door.grip and hands.phase == ReachPhase.HOLD
        if held:
            break
        assert door.swing > 0.0  # never shut on him on the way
    assert passed and held  # round to the knob side first, then the hand on the knob


@pytest.mark.parametrize("gap", [0.0, 0.03])
def test_a_ball_lying_against_the_shut_door_is_stepped_over_on_the_way_to_the_knob(
    gap: float,
) -> None:
    # the shut door is a wall to the ball: walking up to the knob his feet keep off a
    # ball lying against it and step over it, and it stays on the floor where it lay
    view, door = _view_at(2.3, -1.0)  # 3 m from the door
    ball = view.sim.prop("ball")
    assert isinstance(ball, KickBall)
    radius, x1 = ball.spec.radius, door.door.x0 + door.door.width
    ball.state = BallState(np.array([x1 + gap + radius, radius]), np.zeros(2))
    _play(view, [RawInput()] * 20)
    lay, highest = ball.state.centre.copy(), 0.0
    for raw in [_click(view, door.knob)] + [RawInput()] * int(5.0 / DT):
        _play(view, [raw])
        highest = max(highest, float(ball.state.centre[1]) - radius)
    assert door.swing > 0.0  # he got to the knob and opened it
    assert highest < 0.05, f"the ball went {highest:.2f} m up"
    assert float(ball.state.centre[0]) == pytest.approx(float(lay[0]), abs=0.05)
