"""The ball: its physics on a small terrain of the test's own (rolling, slopes, risers,
rest), its asset section, the kick in a headless walk, the trace's ``props`` and the prop
tour's kick. Every world here is built by the test (its own terrain and props files); only
the hero's rig is the shipped one."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pygame
import pytest

from game.assets import AssetError
from game.input_state import InputState, RawInput
from game.profiling import PhaseTimer
from game.pygame_canvas import PygameCanvas
from game.scene import SceneConfig
from game.scenes.walk import WalkSim
from game.scenes.walk_autopilot import PropTour
from game.scenes.walk_view import SCENE
from game.trace import TraceWriter
from game.world.character import LEGS
from game.world.props import CupProp, load_props
from game.world.props import ball as ball_module
from game.world.props.ball import BallPhase, KickBall
from game.world.props.ball_physics import (
    BallState,
    Ground,
    Pushers,
    closest_on_segment,
    ground_polyline,
    step_ball,
)
from game.world.props.ball_pushers import CAPSULE_RADII, SOLE_RADIUS_M
from game.world.terrain import Terrain, load_terrain

ASSETS = Path(__file__).resolve().parents[2] / "assets"
DT = 1.0 / 60.0
RADIUS = 0.11
BOUNCE = 0.45
ROLLING = 0.05
# a floor, a slope down (12°), a flat, two stair risers down, a long flat, a wall
COURSE = [
    [-3.0, 1.5],
    [-2.99, 0.0],
    [2.0, 0.0],
    [3.0, -0.2],
    [4.0, -0.2],
    [4.01, -0.36],
    [4.35, -0.36],
    [4.36, -0.52],
    [12.0, -0.52],
    [12.02, 1.0],
    [14.0, 1.0],
]


def _gap_to_ground(centre: np.ndarray, ground: Ground) -> float:
    """The distance from ``centre`` to the ground polyline, negative under it."""
    (x, y), xs, ys = centre.tolist(), ground.xs, ground.ys
    distance = min(
        float(np.hypot(x - px, y - py))
        for px, py, _ in (
            closest_on_segment(x, y, xs[i], ys[i], xs[i + 1], ys[i + 1]) for i in range(len(xs) - 1)
        )
    )
    below = y < float(np.interp(x, xs, ys))
    return -distance if below else distance


def _roll(state: BallState, terrain: Terrain, steps: int) -> list[BallState]:
    ground = ground_polyline(terrain.points)
    states = []
    for _ in range(steps):
        state = step_ball(state, RADIUS, BOUNCE, ROLLING, ground, Pushers.none(), DT)
        states.append(state)
    return states


def test_a_rolling_ball_goes_down_the_slope_drops_off_the_risers_and_comes_to_rest() -> None:
    terrain = Terrain(np.array(COURSE))
    start = BallState(np.array([0.0, RADIUS]), np.array([2.5, 0.0]), resting=False)
    states = _roll(start, terrain, 900)
    ground = ground_polyline(terrain.points)
    gaps = np.array([_gap_to_ground(s.centre, ground) for s in states])
    assert gaps.min() >= RADIUS - 0.005, "the ball sank into the ground"
    xs = np.array([s.centre[0] for s in states])
    assert xs.max() > 4.5, "it never got past the stairs"
    end = states[-1]
    assert end.resting and np.allclose(end.velocity, 0.0)
    assert abs(float(end.centre[1]) - (-0.52 + RADIUS)) < 0.005  # on the bottom floor
    # dropping off a riser it leaves the ground, then lands and bounces (up again)
    lowest_floor = np.array([s.centre[1] for s in states]) < -0.52 + RADIUS + 0.01
    assert lowest_floor.any()


def test_a_ball_on_a_steep_slope_rolls_down_and_on_a_gentle_one_stays() -> None:
    steep = Terrain(np.array([[-5.0, 2.0], [0.0, 0.0], [5.0, 0.0]]))  # 22°
    gentle = Terrain(np.array([[-5.0, 0.1], [0.0, 0.0], [5.0, 0.0]]))  # 1.1°
    for terrain, rolls in ((steep, True), (gentle, False)):
        x = -2.5
        top = float(terrain.height_at(x)) + RADIUS / float(np.cos(np.arctan(terrain.slope_at(x))))
        start = BallState(np.array([x, top]), np.zeros(2), resting=False)
        end = _roll(start, terrain, 600)[-1]
        assert end.resting
        assert (float(end.centre[0]) > 0.0) is rolls


@pytest.mark.parametrize("riser", [0.14, 0.16, 0.3, 1.0])
@pytest.mark.parametrize("speed", [0.3, 1.0, 2.0, 4.0])
@pytest.mark.parametrize("way", [1.0, -1.0])
def test_a_ball_rolled_into_a_riser_taller_than_its_radius_bounces_back_on_its_floor(
    riser: float, speed: float, way: float
) -> None:
    """Beside a riser taller than its radius the ball's centre is below the line of the
    tread above but not in the ground: rolled into the riser, it never rises over it (under
    a centimetre, off the riser's slant) and comes to rest on its own floor."""
    points = np.array([[-5.0, 0.0], [0.0, 0.0], [0.01, riser], [5.0, riser]])
    if way < 0:  # the mirror image: the floor at x > 0, the riser rising toward −x
        points = np.array([[-5.0, riser], [-0.01, riser], [0.0, 0.0], [5.0, 0.0]])
    start = BallState(np.array([-way, RADIUS]), np.array([way * speed, 0.0]), resting=False)
    states = _roll(start, Terrain(points), 600)
    heights = np.array([float(s.centre[1]) for s in states])
    assert heights.max() <= RADIUS + 0.01, "it jumped onto the riser"
    assert states[-1].resting
    assert float(states[-1].centre[0]) * way < 0.0  # on its own floor


@pytest.mark.parametrize("riser", [0.14, 0.3])
def test_a_ball_eased_against_a_riser_comes_to_rest_there(riser: float) -> None:
    """Touching the floor and the riser, slow, the ball rests on the floor (its most level
    contact), not kept rolling by the riser's upright one: a kick waits for it to rest."""
    points = np.array([[-5.0, 0.0], [0.0, 0.0], [0.01, riser], [5.0, riser]])
    start = BallState(np.array([-RADIUS - 0.002, RADIUS]), np.array([0.1, 0.0]), resting=False)
    states = _roll(start, Terrain(points), 120)
    assert states[-1].resting
    assert float(states[-1].centre[0]) == pytest.approx(-RADIUS, abs=0.01)


def test_a_ball_squeezed_between_a_sole_and_a_riser_goes_up_out_of_both() -> None:
    """A still sole pressing on the ball's lower side toward a riser: the ball goes where
    both let it, up the riser's face, out of the sole and the ground; not back over the
    sole."""
    ground = ground_polyline(np.array([[-5.0, 0.0], [0.0, 0.0], [0.01, 0.3], [5.0, 0.3]]))
    sole = (np.array([[-0.4, 0.05]]), np.array([[-0.16, 0.05]]))
    pushers = Pushers(*sole, np.zeros((1, 2)), np.zeros((1, 2)), np.array([0.035]))
    state = BallState(np.array([-RADIUS, RADIUS]), np.zeros(2), resting=False)
    for _ in range(60):
        state = step_ball(state, RADIUS, BOUNCE, ROLLING, ground, pushers, DT)
    (cx, cy), (ax, ay), (bx, by) = state.centre.tolist(), sole[0][0], sole[1][0]
    px, py, _ = closest_on_segment(cx, cy, ax, ay, bx, by)
    assert float(np.hypot(cx - px, cy - py)) >= RADIUS + 0.035 - 1e-6  # out of the sole
    assert _gap_to_ground(state.centre, ground) >= RADIUS - 1e-4  # out of the ground
    assert cx > bx and cy > RADIUS  # up against the riser, ahead of the toe


def test_a_foot_sweeping_into_the_ball_sends_it_off_faster_than_the_foot() -> None:
    terrain = Terrain(np.array([[-5.0, 0.0], [5.0, 0.0]]))
    ground = ground_polyline(terrain.points)
    sole = Pushers(
        a=np.array([[-0.25, RADIUS]]),
        b=np.array([[-0.08, RADIUS]]),  # level with its middle: a straight push
        va=np.array([[3.0, 0.0]]),
        vb=np.array([[3.0, 0.0]]),
        radius=np.array([0.035]),
    )
    state = BallState(np.array([0.0, RADIUS]), np.zeros(2))
    kicked = step_ball(state, RADIUS, BOUNCE, ROLLING, ground, sole, DT)
    assert not kicked.resting
    assert 3.0 < float(kicked.velocity[0]) < 4.0  # (1 + PUSH_BOUNCE) × 3 m/s at most


def _course_folder(tmp_path: Path, ball_x: float, points: list | None = None) -> Path:
    """An assets folder with the shipped rig, this test's course (or ``points``) and its
    props."""
    folder = tmp_path / "assets"
    folder.mkdir()
    shutil.copy(ASSETS / "rig.json", folder / "rig.json")
    if points is None:
        points = [[-3.0, 1.5], [-2.99, 0.0], [6.0, 0.0], [7.0, -0.2], [9.0, -0.2]]
        points += [[9.01, -0.36], [14.0, -0.36], [14.02, 2.0], [16.0, 2.0]]
    (folder / "terrain.json").write_text(json.dumps({"points": points}))
    props = {
        "reach_halflife": 0.12,
        "grip_tolerance": 0.01,
        "door": {"x": -1.6, "width": 0.9, "height": 2.05, "knob": [0.72, 1.0]},
        "table": {"x": 1.9, "width": 0.9, "height": 0.92},
        "cup": {"x": 2.1, "height": 0.1, "radius": 0.04, "grip": 0.06},
        "ladder": {
            "x": 13.0,
            "width": 0.42,
            "height": 3.0,
            "first_rung": 0.3,
            "rung_spacing": 0.3,
        },
        "ball": {"x": ball_x, "radius": RADIUS, "bounce": BOUNCE, "rolling": ROLLING},
    }
    (folder / "props.json").write_text(json.dumps(props))
    return folder


def _ball(sim: WalkSim) -> KickBall:
    ball = sim.prop("ball")
    assert isinstance(ball, KickBall)
    return ball


def test_the_ball_is_drawn_between_its_last_two_steps_as_the_hero_is(tmp_path: Path) -> None:
    """Drawn ``alpha`` of the way through a step, the ball is that far from where the step
    took it from to where it left it (the hero is drawn so: a ball drawn where the step
    left it flies off ahead of the drawn foot); set in place, it is drawn there."""
    sim = WalkSim(SceneConfig(dt=DT, assets_dir=_course_folder(tmp_path, 1.2)))
    ball, timer = _ball(sim), PhaseTimer()
    ball.state = BallState(np.array([1.2, 0.5]), np.array([2.0, 1.0]), resting=False)
    before = ball.state
    sim.step(InputState(), DT, timer)
    after = ball.state
    assert not np.allclose(before.centre, after.centre)
    for alpha in (0.0, 0.25, 1.0):
        centre, angle = ball.drawn(alpha)
        assert centre == pytest.approx(before.centre + alpha * (after.centre - before.centre))
    assert ball.drawn(1.0)[1] == pytest.approx(after.angle)
    ball.state = BallState(np.array([3.0, RADIUS]), np.zeros(2))
    assert ball.drawn(0.0)[0] == pytest.approx([3.0, RADIUS])


@pytest.mark.parametrize("ahead", [0.8, 1.5])
def test_a_ball_clicked_a_stride_or_two_ahead_is_walked_up_to_in_steps_and_kicked_soon(
    ahead: float,
) -> None:
    # he walks up at half a walk and lets the key go when braking covers the rest (a
    # step's slide, not a creep of tiny steps): the kick starts within 0.6 s + 1.2 s a
    # metre of the ball's distance
    sim = WalkSim(SceneConfig(dt=DT))
    for _ in range(20):
        sim.step(InputState(), DT, PhaseTimer())
    started = _clicked_until(sim, ahead, BallPhase.BACK_SWING, 4.0)
    assert started is not None and started <= 0.6 + 1.2 * ahead, started


def _clicked_until(sim: WalkSim, ahead: float, phase: BallPhase, within_s: float) -> float | None:
    """The ball laid ``ahead`` m in front of the hero's pelvis and clicked: how long until
    it reaches ``phase`` (None: not within ``within_s``)."""
    ball, timer = _ball(sim), PhaseTimer()
    x = float(sim.crowd.x[0]) + ahead
    ball.state = BallState(np.array([x, ball.spec.radius]), np.zeros(2))
    sim.step(InputState(actions=("reach_prop",), values={"prop": "ball"}), DT, timer)
    for k in range(int(within_s / DT)):
        sim.step(InputState(), DT, timer)
        if ball.phase is phase:
            return (k + 1) * DT
    return None


def test_he_gives_up_on_a_ball_only_after_getting_no_nearer_to_it_for_the_give_up_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # the give-up time counts from the last time he got nearer (a ball far down the
    # course is walked after however long it takes); one he cannot get nearer to (lying
    # in the shut door's span, its panel a wall to his feet) is given up that long after
    monkeypatch.setattr(ball_module, "GIVE_UP_S", 4.0)
    for ahead, kicked in ((8.0, True), (-1.0, False)):
        sim = WalkSim(SceneConfig(dt=DT))
        idle_at = _clicked_until(sim, ahead, BallPhase.IDLE, 12.0)
        assert idle_at is not None
        assert bool(_ball(sim).kicks) is kicked, (ahead, idle_at)


def test_clicked_the_ball_is_kicked_by_the_nearer_foot_and_rolls_to_rest_on_the_ground(
    tmp_path: Path,
) -> None:
    sim = WalkSim(SceneConfig(dt=DT, assets_dir=_course_folder(tmp_path, 1.2)))
    ball, timer = _ball(sim), PhaseTimer()
    ground = ground_polyline(sim.terrain.points)
    home = ball.centre().copy()
    sim.step(InputState(actions=("reach_prop",), values={"prop": "ball"}), DT, timer)
    kick_foot, strike_gap, gaps, phases = -1, np.inf, [], []
    for _ in range(900):
        phase_before = ball.phase
        ankles = sim.crowd.solution.hand[0, LEGS].copy()
        sim.step(InputState(), DT, timer)
        if phase_before is BallPhase.WALK and ball.phase is BallPhase.BACK_SWING:
            # the nearer foot, as it stood when the kick began
            assert ball._foot == int(np.argmin(np.abs(ankles[:, 0] - ball.centre()[0])))
            kick_foot = ball._foot
        if ball.phase is BallPhase.SWING_THROUGH:
            # the kicking leg's solved ankle follows its target on the kick's arc
            target = sim.crowd.pose.targets[0, LEGS.start + kick_foot]
            strike_gap = min(strike_gap, float(np.hypot(*(target - ball._keys[2]))))
        phases.append(ball.phase)
        gaps.append(_gap_to_ground(ball.centre(), ground))
        if ball.kicks and ball.state.resting:
            break
    assert kick_foot >= 0, "he never started the kick"
    assert BallPhase.FOLLOW_THROUGH in phases
    assert strike_gap < 0.05, "the foot's target never passed the strike point"
    assert ball.kicks == 1 and ball.state.resting
    assert float(ball.centre()[0]) - float(home[0]) > 1.5, "the ball hardly moved"
    assert min(gaps) >= RADIUS - 0.005, "the ball went into the ground"
    assert not sim.crowd.feet.pinned[0].any(), "the kicking foot was never let go"


def test_the_kick_moves_the_ball_only_once_the_drawn_shoe_touches_it(tmp_path: Path) -> None:
    """The step the kicked ball first moves, the kicking shoe as the trace draws it (its sole
    heel to toe tip, as thick as the sole's capsule, not reaching past its ends) touches
    the ball where it lay."""
    sim = WalkSim(SceneConfig(dt=DT, assets_dir=_course_folder(tmp_path, 1.2)))
    ball, timer = _ball(sim), PhaseTimer()
    lay = ball.centre().copy()
    sim.step(InputState(actions=("reach_prop",), values={"prop": "ball"}), DT, timer)
    for _ in range(900):
        sim.step(InputState(), DT, timer)
        if not np.allclose(ball.centre(), lay):
            break
    assert ball.phase is BallPhase.SWING_THROUGH  # moved by the kick
    leg = sim.trace_characters()[0]["limbs"][("left_leg", "right_leg")[ball._foot]]
    (hx, hy), (tx, ty) = leg["foot"]["heel"], leg["foot"]["toe"]
    length = float(np.hypot(tx - hx, ty - hy))
    ux, uy = (tx - hx) / length, (ty - hy) / length
    heel = (hx + SOLE_RADIUS_M * ux, hy + SOLE_RADIUS_M * uy)  # the shoe's rounded ends
    toe = (tx - SOLE_RADIUS_M * ux, ty - SOLE_RADIUS_M * uy)
    px, py, _ = closest_on_segment(*lay.tolist(), *heel, *toe)
    assert float(np.hypot(lay[0] - px, lay[1] - py)) <= RADIUS + SOLE_RADIUS_M + 1e-9


def test_a_kicked_ball_rolls_into_a_cup_on_the_floor_and_not_through_it(tmp_path: Path) -> None:
    # a cup set down on the floor ahead of the ball: kicked toward it, the ball hits the
    # cup's side and stays out of it (the ground it rolls on has the cup standing on it)
    sim = WalkSim(SceneConfig(dt=DT, assets_dir=_course_folder(tmp_path, 1.2)))
    cup = sim.prop("cup")
    assert isinstance(cup, CupProp)
    cup.bottom = np.array([3.4, 0.0])  # on the floor, past the table
    (x0, x1, top), ball, timer = cup.footprint()[0], _ball(sim), PhaseTimer()
    sim.step(InputState(actions=("reach_prop",), values={"prop": "ball"}), DT, timer)
    deepest, nearest = 0.0, np.inf
    for _ in range(900):
        sim.step(InputState(), DT, timer)
        (x, y), r = ball.centre(), RADIUS
        # the ball's overlap with the cup's box: its centre's distance to the box, < r
        gap = float(np.hypot(max(x0 - x, 0.0, x - x1), max(y - top, 0.0)))
        deepest, nearest = max(deepest, r - gap), min(nearest, gap - r)
        if ball.kicks and ball.state.resting:
            break
    assert ball.kicks == 1 and ball.state.resting
    assert nearest < 0.01, "the ball never reached the cup"
    assert deepest <= 0.005, f"the ball went {deepest * 100:.1f} cm into the cup"


def test_a_ball_at_the_foot_of_a_flight_is_kicked_from_the_floor_not_from_the_treads(
    tmp_path: Path,
) -> None:
    # a riser just beyond the ball leaves no room to stand there and kick it back the way
    # he came: he kicks it from the near side (into the riser, off which it comes back)
    stairs = [[-3.0, 1.5], [-2.99, 0.0], [5.0, 0.0], [5.01, 0.16], [5.3, 0.16], [5.31, 0.32]]
    stairs += [[5.6, 0.32], [5.61, 0.48], [8.0, 0.48], [8.02, 2.5], [9.0, 2.5]]
    folder = _course_folder(tmp_path, 4.85, stairs)
    props = json.loads((folder / "props.json").read_text())
    props["ladder"]["x"] = 7.0
    (folder / "props.json").write_text(json.dumps(props))
    sim = WalkSim(SceneConfig(dt=DT, assets_dir=folder))
    ball, timer = _ball(sim), PhaseTimer()
    sim.step(InputState(actions=("reach_prop",), values={"prop": "ball"}), DT, timer)
    furthest = 0.0
    for _ in range(900):
        sim.step(InputState(), DT, timer)
        furthest = max(furthest, float(sim.crowd.x[0]))
        if ball.kicks:
            break
    assert ball.kicks == 1
    assert furthest < 5.0 - 0.2, "he went up the stairs to kick it"
    for _ in range(120):
        sim.step(InputState(), DT, timer)
    assert abs(float(ball.centre()[0]) - 4.85) > 0.3, "the kick missed the ball"


def _flight(tmp_path: Path, tread: float, ball_x: float) -> tuple[WalkSim, KickBall]:
    """The walk on a floor, then a flight up of treads ``tread`` m deep and 0.16 m risers
    from x = 5 (the ladder beyond it), a ball lying at ``ball_x``."""
    stairs = [[-3.0, 1.5], [-2.99, 0.0], [5.0, 0.0], [5.01, 0.16], [5.0 + tread, 0.16]]
    stairs += [[5.01 + tread, 0.32], [5.0 + 2 * tread, 0.32], [5.01 + 2 * tread, 0.48]]
    stairs += [[8.0, 0.48], [8.02, 2.5], [9.0, 2.5]]
    folder = _course_folder(tmp_path, ball_x, stairs)
    props = json.loads((folder / "props.json").read_text())
    props["ladder"]["x"] = 7.0
    (folder / "props.json").write_text(json.dumps(props))
    sim = WalkSim(SceneConfig(dt=DT, assets_dir=folder))
    return sim, _ball(sim)


def _steps_into(sim: WalkSim, ball: KickBall, inp: InputState, steps: int) -> float:
    """Step ``sim`` ``steps`` times with ``inp``; the deepest the legs reached into the ball
    (:func:`_deepest_into`)."""
    timer, deepest = PhaseTimer(), -np.inf
    for _ in range(steps):
        sim.step(inp, DT, timer)
        deepest = max(deepest, _deepest_into(ball, sim))
    return deepest


def test_a_ball_resting_against_a_riser_is_stepped_over_not_walked_through(
    tmp_path: Path,
) -> None:
    """Walked into, a ball lying against a riser the way he walks cannot be pushed on:
    his feet keep off it and step over it onto the flight, no sole or shin inside it, and
    it stays where it lay."""
    sim, ball = _flight(tmp_path, 0.3, 5.0 - RADIUS - 0.01)
    lay = ball.centre().copy()
    # 8 s of the walk key held: onto the flight past the ball
    deepest = _steps_into(sim, ball, InputState(move=1.0), 480)
    assert float(sim.crowd.x[0]) > 5.6  # up the flight
    assert deepest <= 0.0, deepest
    assert ball.centre() == pytest.approx(lay, abs=0.01)


@pytest.mark.parametrize(
    ("tread", "ball_x"),
    [
        (0.35, 5.355 - RADIUS - 0.005),  # the first tread, against the second riser
        (0.3, 5.305 - RADIUS - 0.01),
        (0.35, 5.59),  # the second tread, against the third riser
    ],
)
def test_a_ball_on_a_tread_stops_the_walk_up_and_a_click_kicks_it_from_below_to_free_the_way(
    tmp_path: Path, tread: float, ball_x: float
) -> None:
    """Lying on a tread against the next riser, the ball (kept off by the feet, pushed
    nowhere) leaves no room on that tread, and the next is a step too far: walking up, he
    stops a step short of it and says the ball is in the way, no sole or shin inside it.
    Clicked, he walks on up to the kick's spot below it (the walk then goes right up to the
    spot, not a step short) and kicks it off its tread; walking on, he goes up the flight."""
    sim, ball = _flight(tmp_path, tread, ball_x)
    deepest = _steps_into(sim, ball, InputState(move=1.0), 480)  # 8 s of the walk key held
    feet = sim.crowd.feet
    assert feet.planted[0].all() and float(feet.lock[0, :, 0].max()) < ball_x - RADIUS
    assert "the ball leaves no room on that stair" in (sim.blocked_hint() or "")
    lay = ball.centre().copy()
    ball.use()
    timer = PhaseTimer()
    for _ in range(600):  # 10 s
        sim.step(InputState(), DT, timer)
        if ball.phase is BallPhase.WALK:
            deepest = max(deepest, _deepest_into(ball, sim))
        if ball.kicks:
            break
    assert ball.kicks == 1
    assert deepest <= 0.0, deepest
    assert float(np.hypot(*(ball.centre() - lay))) > 0.1, "the kick missed the ball"
    for _ in range(480):  # the walk key held again (up to 8 s): on up past the ball's tread
        sim.step(InputState(move=1.0), DT, timer)
        if float(sim.crowd.x[0]) > 5.0 + 2 * tread:
            break
    assert float(sim.crowd.x[0]) > 5.0 + 2 * tread, "the ball still stops him"


def _deepest_into(ball: KickBall, sim: WalkSim) -> float:
    """How far the hero's soles (heel → toe) and shins (knee → ankle), as the trace gives
    them and with the ball's pushers' thickness, reach into the ball."""
    legs = [sim.trace_characters()[0]["limbs"][name] for name in ("left_leg", "right_leg")]
    ends = [(leg["foot"]["heel"], leg["foot"]["toe"]) for leg in legs]
    ends += [(leg["mid"], leg["end"]) for leg in legs]
    (cx, cy), radius = ball.centre().tolist(), ball.spec.radius
    depth = -np.inf
    for ((ax, ay), (bx, by)), thick in zip(ends, CAPSULE_RADII, strict=True):
        px, py, _ = closest_on_segment(cx, cy, ax, ay, bx, by)
        depth = max(depth, radius + thick - float(np.hypot(cx - px, cy - py)))
    return depth


def test_the_trace_step_line_has_the_ball_and_the_cup_centres(tmp_path: Path) -> None:
    sim = WalkSim(SceneConfig(dt=DT, assets_dir=_course_folder(tmp_path, 1.2)))
    writer = TraceWriter(tmp_path / "t.jsonl")
    writer.step(1, DT, sim.trace_characters(), None, sim.trace_props())
    writer.close()
    line = json.loads((tmp_path / "t.jsonl").read_text())
    assert list(line["props"]) == ["ball", "cup"]
    assert line["props"]["ball"] == pytest.approx([1.2, RADIUS])
    cup = load_props(tmp_path / "assets" / "props.json", sim.terrain).cup
    assert line["props"]["cup"] == pytest.approx([2.1, cup.home[1] + cup.height / 2])


def test_the_prop_tour_kicks_the_ball_once(tmp_path: Path) -> None:
    config = SceneConfig(dt=DT, assets_dir=_course_folder(tmp_path, 4.0))
    sim = WalkSim(config)
    tour, timer, ball = PropTour(sim, config), PhaseTimer(), _ball(sim)
    for _ in range(5000):
        sim.step(tour.next_input(sim), DT, timer)
        if ball.kicks:
            break
    assert ball.kicks == 1
    assert tour.stage == [entry[2] for entry in PropTour.PLAN].index("ball")


@pytest.mark.parametrize(
    ("key", "value", "expected"),
    [
        ("radius", 2.0, "in [0.03, 0.5] m"),
        ("bounce", -0.1, "in [0, 0.9]"),
        ("x", 99.0, "inside the terrain"),
    ],
)
def test_a_bad_ball_entry_names_the_file_and_the_key(
    tmp_path: Path, key: str, value: float, expected: str
) -> None:
    folder = _course_folder(tmp_path, 1.2)
    props = json.loads((folder / "props.json").read_text())
    props["ball"][key] = value
    (folder / "props.json").write_text(json.dumps(props))
    with pytest.raises(AssetError) as error:
        load_props(folder / "props.json", load_terrain(folder / "terrain.json"))
    assert "props.json" in str(error.value) and f"ball.{key}" in str(error.value)
    assert expected in str(error.value)


def test_a_click_on_the_ball_asks_the_hero_to_kick_it(tmp_path: Path) -> None:
    sim = WalkSim(SceneConfig(dt=DT, assets_dir=_course_folder(tmp_path, 1.2)))
    view = SCENE.view(sim)
    view.layout((1280, 720))
    pygame.font.init()
    view.draw(PygameCanvas(pygame.Surface((1280, 720))), 0.0, PhaseTimer())  # camera on him
    at = tuple(float(v) for v in view.camera.to_screen(np.array([_ball(sim).centre()]))[0])
    inp = view.map_input(RawInput(pointer_px=at, pointer_inside=True, clicks=[(1, at)]))
    assert inp.actions.count("reach_prop") == 1 and inp.values["prop"] == "ball"
    sim.step(inp, DT, PhaseTimer())
    assert _ball(sim).phase is BallPhase.WALK
