"""The walk in 3-D: the path frame, the walker on a small heightfield each test builds, and
the scene's trace contract from a headless run."""

from __future__ import annotations

import copy
import json
import math
from pathlib import Path

import numpy as np
import pytest

from game.scenes.walk3d_trace import read_trace
from game.world.heightfield import Heightfield, load_heightfield
from game.world.rig import load_rig
from game.world.walk3d import Walker3D
from game.world.walk3d_body import knee_side
from game.world.walk3d_path import ROUND_M, PathFrame, path_ground, right_of
from game.world.walk3d_steer import AIM_TWIST

REPO = Path(__file__).resolve().parents[2]
RIG = load_rig(REPO / "assets" / "rig.json")
DT = 1.0 / 60.0


def sloped_field() -> Heightfield:
    """A 12 × 12 m field: flat, then a 10° slope rising along z (walked across along x),
    then a 0.12 m step up at x = 8."""
    s = 0.1
    xs, zs = np.arange(121) * s, np.arange(121) * s
    heights = np.clip(zs[:, None] - 4.0, 0.0, None) * math.tan(math.radians(10.0))
    heights = heights + np.where(xs[None, :] >= 8.0, 0.12, 0.0)
    return Heightfield((0.0, 0.0), s, heights)


def walk(walker: Walker3D, wishes: list[tuple[float, float]], steps: int) -> list:
    """Each wish held for ``steps`` steps; the 3-D poses."""
    poses = []
    for wish in wishes:
        for _ in range(steps):
            walker.step(wish, False, DT)
            poses.append(walker.pose)
    return poses


@pytest.fixture(scope="module")
def tour() -> tuple[Heightfield, Walker3D, list]:
    """Across the side slope along +x, a turn to −z, back along −x over the step."""
    field = sloped_field()
    walker = Walker3D(RIG, field, (1.5, 6.0), 0.0)
    poses = walk(walker, [(1.0, 0.0), (0.0, -1.0), (-1.0, 0.0)], 180)
    return field, walker, poses


def test_turning_the_path_keeps_every_point_behind_the_anchor_where_it_was() -> None:
    path = PathFrame.straight((1.0, 2.0), 0.0)
    anchor = 2.05
    s = np.linspace(-1.0, anchor - ROUND_M, 31)  # the corner is rounded over ROUND_M
    before = path.at(s, 0.09)
    turned = path.turned(anchor, 0.5, -3.0)
    np.testing.assert_allclose(turned.at(s, 0.09), before, atol=1e-12)
    assert not np.allclose(turned.at(4.0), path.at(4.0))


def test_walker_poses_are_finite_and_bones_keep_their_lengths(tour) -> None:
    _, _, poses = tour
    leg, arm = RIG.legs.limb, RIG.arms.limb
    uppers = np.array([arm.upper, arm.upper, leg.upper, leg.upper])
    lowers = np.array([arm.lower, arm.lower, leg.lower, leg.lower])
    for pose in poses:
        assert np.isfinite(pose.ends).all() and np.isfinite(pose.soles).all()
        upper = np.linalg.norm(pose.elbows - pose.roots, axis=-1)
        lower = np.linalg.norm(pose.ends - pose.elbows, axis=-1)
        np.testing.assert_allclose(upper, uppers, atol=1e-6)
        np.testing.assert_allclose(lower, lowers, atol=1e-6)


def test_no_sole_point_goes_under_the_heightfield(tour) -> None:
    field, _, poses = tour
    soles = np.array([pose.soles for pose in poses])
    clearance = soles[..., 1] - field.height_at(soles[..., 0], soles[..., 2])
    assert clearance.min() > -0.005


def test_a_planted_foot_lies_flush_across_a_slope_walked_across(tour) -> None:
    field, _, poses = tour
    pose = next(p for p in poses[60:180] if p.planted.all())
    edges = pose.soles[:, 3:7]  # heel and ball, inner and outer
    clearance = edges[..., 1] - field.height_at(edges[..., 0], edges[..., 2])
    # inner and outer edges at one height over the sloping ground (the heel or the toe
    # may be up: heel-toe roll), and the edge on the ground is on it
    np.testing.assert_allclose(clearance[:, [0, 2]], clearance[:, [1, 3]], atol=1e-6)
    assert np.abs(clearance).min(axis=1).max() < 1e-6
    across = pose.soles[:, 4] - pose.soles[:, 3]  # heel_in → heel_out
    assert np.abs(across[:, 1]).max() > 0.005  # the sole rolled with the slope


def test_planted_feet_do_not_slide(tour) -> None:
    _, _, poses = tour
    slides = [
        np.linalg.norm(b.soles[:, :2] - a.soles[:, :2], axis=-1).min(axis=-1)[a.planted & b.planted]
        for a, b in zip(poses, poses[1:], strict=False)
    ]
    assert max(float(s.max()) if s.size else 0.0 for s in slides) < 0.0005


def test_knees_stay_on_their_poles_side_with_poles_on(tour) -> None:
    _, walker, poses = tour
    assert walker.knee_flips == 0
    for pose in poses:
        side = knee_side(pose.roots[2:], pose.elbows[2:], pose.ends[2:], pose.poles[2:])
        assert (side > 0).all()


def test_knees_flip_and_are_counted_without_poles() -> None:
    walker = Walker3D(RIG, sloped_field(), (1.5, 2.0), 0.0)
    walker.use_knee_poles(False)
    walk(walker, [(1.0, 0.0)], 240)
    assert walker.knee_flips > 0


def test_the_walker_turns_toward_the_wish_and_walks_that_way() -> None:
    walker = Walker3D(RIG, sloped_field(), (3.0, 3.0), 0.0)
    walk(walker, [(0.0, 1.0)], 240)  # +z: a quarter turn to the right
    assert walker.yaw == pytest.approx(-math.pi / 2, abs=0.02)
    assert walker.pose.pelvis[2] > 5.0
    assert not walker.edge_held  # (in the open, nothing holds him)


def test_a_headless_run_writes_the_3d_trace_contract(run_main_here, tmp_path: Path) -> None:
    trace, stats = tmp_path / "t.jsonl", tmp_path / "s.json"
    args = ["--scene", "walk3d", "--headless", "--autopilot", "--frames", "90"]
    result = run_main_here([*args, "--trace", str(trace), "--stats", str(stats)])
    assert result.returncode == 0, result.stdout + result.stderr
    header, steps = read_trace(trace)
    assert len(steps) == 90
    assert len(header["heightfield"]["heights"]) > 1
    assert json.loads(stats.read_text())["walk3d"]["knee_flips"] == 0


def test_the_trace_reader_names_what_breaks_the_contract(tmp_path: Path) -> None:
    header = {"scene": "walk3d", "dt": DT, "terrain": None, "limbs": {}}
    path = tmp_path / "t.jsonl"
    path.write_text(json.dumps(header) + "\n")
    with pytest.raises(ValueError, match="header"):
        read_trace(path)


def test_a_rebuilt_ground_keeps_its_samples_below_the_cut() -> None:
    field = sloped_field()
    straight = PathFrame.straight((1.0, 6.0), 0.0)
    old = path_ground(straight, field, 1.0, 0.09)
    turned = straight.turned(1.5, math.radians(60.0), -3.0)
    rebuilt = path_ground(turned, field, 1.2, 0.09, kept=(old, 1.5))
    below = rebuilt.xs < 1.5
    np.testing.assert_array_equal(rebuilt.ys[below], old.height_at(rebuilt.xs[below]))
    assert not np.allclose(rebuilt.height_at(4.0), old.height_at(4.0))


def test_the_nearer_hand_reaches_a_point_in_reach_and_lets_go() -> None:
    walker = Walker3D(RIG, sloped_field(), (3.0, 3.0), 0.0)
    shoulder = walker.pose.roots[1]  # the right arm's
    point = shoulder + np.array([0.35, -0.2, 0.1])  # ahead, below and to his right
    walker.aim_hand(point)
    walk(walker, [(0.0, 0.0)], 60)
    assert np.linalg.norm(walker.pose.ends[1] - point) < 0.01
    assert np.linalg.norm(walker.pose.ends[0] - point) > 0.2  # the other hand swings
    walker.aim_hand(None)
    hands = [p.ends[1] for p in walk(walker, [(0.0, 0.0)], 60)]
    assert np.linalg.norm(hands[-1] - point) > 0.1
    # let go, the hand eases back to its swing, no jump (HAND_HALFLIFE)
    assert np.linalg.norm(hands[0] - point) < 0.05
    assert max(np.linalg.norm(np.diff(hands, axis=0), axis=-1)) < 0.05


def test_a_recorded_walk3d_run_replays_to_the_same_trace(run_main_here, tmp_path: Path) -> None:
    """Record and replay work for the 3-D walk as for the other scenes: the replay's trace
    is the recorded run's, byte for byte."""
    recording, first, second = tmp_path / "run.rec", tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    args = ["--scene", "walk3d", "--headless", "--autopilot", "--frames", "120", "--seed", "2"]
    result = run_main_here([*args, "--record", str(recording), "--trace", str(first)])
    assert result.returncode == 0, result.stderr
    result = run_main_here(["--headless", "--replay", str(recording), "--trace", str(second)])
    assert result.returncode == 0, result.stderr
    assert first.read_bytes() == second.read_bytes()


EDGE_WISHES = [(-1.0, 0.0), (0.0, 1.0)]


@pytest.fixture(scope="module")
def at_the_edge() -> dict[tuple[float, float], tuple[Walker3D, list, list]]:
    """Per wish of :data:`EDGE_WISHES`: the walker sent 7 s toward the heightfield's edge
    (3 m, 6 m away: there by 5.5 s), its poses and speeds."""
    walks = {}
    for wish in EDGE_WISHES:
        walker = Walker3D(RIG, sloped_field(), (3.0, 6.0), 0.0)
        poses, speeds = [], []
        for _ in range(420):
            walker.step(wish, False, DT)
            poses.append(walker.pose)
            speeds.append(walker.speed)
        walks[wish] = (walker, poses, speeds)
    return walks


@pytest.mark.parametrize("wish", EDGE_WISHES)
def test_the_walk_stops_at_the_heightfields_edge(
    wish: tuple[float, float], at_the_edge: dict[tuple[float, float], tuple[Walker3D, list, list]]
) -> None:
    """The world ends at the heightfield's edge as the 2-D course ends at its own: walking
    on toward it, the walker stops with every sole point on the field, and knows the edge
    holds him (the view says so)."""
    walker, poses, speeds = at_the_edge[wish]
    field = walker.field
    (x_lo, x_hi), (z_lo, z_hi) = field.extent
    for pose in poses:
        x, z = pose.soles[..., 0], pose.soles[..., 2]
        assert (x > x_lo).all() and (x < x_hi).all() and (z > z_lo).all() and (z < z_hi).all()
    assert max(speeds[-60:]) < 0.05  # stopped at the edge, its last second still there
    assert walker.edge_held


@pytest.mark.parametrize("away", [(1.0, 0.0), (0.0, 1.0), (0.6, -0.8)])
def test_stopped_at_the_edge_he_walks_off_it_the_way_he_is_sent(
    away: tuple[float, float], at_the_edge: dict[tuple[float, float], tuple[Walker3D, list, list]]
) -> None:
    """Stopped at the world's end, a wish away from it (back the way he came, or along
    the edge) turns him round and walks him off: the turn's corner on his path lies short
    of the edge's wall, not in it."""
    walker = copy.deepcopy(at_the_edge[(-1.0, 0.0)][0])  # at the edge x = 0, stopped
    field = walker.field
    stopped = walker.pose.pelvis[[0, 2]].copy()
    (x_lo, _), (z_lo, _) = field.extent
    for _ in range(300):
        walker.step(away, False, DT)
        assert walker.pose.soles[..., 0].min() > x_lo  # every sole on the field
    gone = walker.pose.pelvis[[0, 2]] - stopped
    assert float(gone @ np.asarray(away)) / float(np.hypot(*away)) > 1.0  # a metre and more


def test_every_step_of_a_frame_keeps_the_held_direction_and_only_the_first_the_click() -> None:
    """A slow window runs several fixed steps a frame: the W/A/S/D direction is held input
    (``HELD_VALUES``), on each of them; a click's goal and a key's action act once."""
    from game.input_state import InputState
    from game.profiling import PhaseTimer
    from game.scene import SceneConfig
    from game.scenes.walk3d import Walk3DSim

    frame = InputState(actions=("toggle_poles",), values={"wish": [0.8, -0.6], "goal": [3, 4]})
    later = frame.without_actions()
    assert later.actions == () and dict(later.values) == {"wish": [0.8, -0.6]}
    held, every = Walk3DSim(SceneConfig()), Walk3DSim(SceneConfig())
    timer, wish = PhaseTimer(), InputState(values={"wish": [0.8, -0.6]})
    for step in range(90):  # three steps a frame, against the wish given every step
        held.step(wish if step % 3 == 0 else wish.without_actions(), DT, timer)
        every.step(wish, DT, timer)
    np.testing.assert_array_equal(held.walker.pose.pelvis, every.walker.pose.pelvis)


def _sole_heading(pose, foot: int) -> np.ndarray:
    """The ground direction (x, z) a foot's sole points, heel to toe."""
    along = (pose.soles[foot, 2] - pose.soles[foot, 0])[[0, 2]]
    return along / np.linalg.norm(along)


@pytest.mark.parametrize(
    ("before", "turn", "run"),
    [
        ((1.0, 0.0), (-1.0, 0.0), False),  # a U-turn from a walk
        ((1.0, 0.0), (-0.7, -0.7), False),  # back over the left shoulder
        ((1.0, 0.0), (-1.0, 0.1), True),  # a U-turn from a run
        ((0.0, 0.0), (-1.0, -0.1), False),  # turning round from still
        ((0.0, 0.0), (0.0, 1.0), False),  # a quarter turn from still
    ],
)
def test_turning_round_the_body_stays_over_its_planted_feet_and_the_feet_never_cross(
    before: tuple[float, float], turn: tuple[float, float], run: bool
) -> None:
    """However sharp the turn, the body faces at most a hip's turn (``AIM_TWIST``) away
    from the heading of a foot it stands on, and across the feet's own heading each foot
    stays on its side (the soles may meet, not pass)."""
    field = Heightfield((0.0, 0.0), 0.5, np.zeros((41, 41)))  # 20 m square, flat
    walker = Walker3D(RIG, field, (10.0, 10.0), 0.0)
    for _ in range(90):
        walker.step(before, run, DT)
    twist, apart = 0.0, np.inf
    for _ in range(150):
        walker.step(turn, run, DT)
        pose = walker.pose
        soles = [_sole_heading(pose, foot) for foot in (0, 1)]
        for foot in np.flatnonzero(pose.planted):
            heading = math.atan2(-soles[foot][1], soles[foot][0])
            twist = max(twist, abs(math.remainder(heading - pose.yaw, 2 * math.pi)))
        middle = soles[0] + soles[1]
        across = right_of(middle / np.linalg.norm(middle))
        apart = min(apart, float((pose.ends[3] - pose.ends[2])[[0, 2]] @ across))
    assert math.degrees(twist) <= math.degrees(AIM_TWIST) + 5.0
    assert apart > -0.05  # the right foot right of the left, but for the soles' overlap


def _crossed_m(pose) -> float:
    """How far the left ankle is to the right of the right one along the hip line, m."""
    across = (pose.roots[3] - pose.roots[2])[[0, 2]]
    return float((pose.ends[2] - pose.ends[3])[[0, 2]] @ (across / np.linalg.norm(across)))


@pytest.mark.parametrize(
    ("walked_s", "angle"),
    [(0.0, 150.0), (0.0, -90.0), (1.0, 170.0), (1.0, -100.0)],  # from standing, mid-walk
)
def test_turning_from_standing_or_mid_walk_the_ankles_never_cross_the_hip_line(
    walked_s: float, angle: float
) -> None:
    """Seen from the front, a turn never puts one leg across the other: the left ankle
    stays left of the right one along the line between the hips (after standing 1 s, or
    walking ``walked_s`` straight on)."""
    field = Heightfield((0.0, 0.0), 0.5, np.zeros((41, 41)))  # 20 m square, flat
    walker = Walker3D(RIG, field, (10.0, 10.0), 0.0)
    walk(walker, [(1.0, 0.0)] if walked_s else [(0.0, 0.0)], int((walked_s or 1.0) / DT))
    yaw = math.radians(angle)
    crossed = max(_crossed_m(p) for p in walk(walker, [(math.cos(yaw), -math.sin(yaw))], 180))
    assert crossed <= 0.02


def _edge_walk(rng: np.random.Generator, field: Heightfield) -> tuple[Walker3D, list]:
    """A walker 2-4 m from a random side of ``field``, facing it, and 600 steps of wishes
    drawn anew each second: slantwise into the edge mostly, along it or away from it now
    and then; a run a fifth of the time. The walker and the wish of each step."""
    (x0, x1), (z0, z1) = field.extent
    side = int(rng.integers(4))
    inward = float(rng.uniform(2.0, 4.0))
    along = float(rng.uniform(3.0, 1.0 + min(x1 - x0, z1 - z0) - 4.0))
    start, normal = {
        0: ((x0 + inward, z0 + along), (-1.0, 0.0)),
        1: ((x1 - inward, z0 + along), (1.0, 0.0)),
        2: ((x0 + along, z0 + inward), (0.0, -1.0)),
        3: ((x0 + along, z1 - inward), (0.0, 1.0)),
    }[side]
    tangent = np.array([-normal[1], normal[0]]) * rng.choice([-1.0, 1.0])
    walker = Walker3D(RIG, field, start, math.atan2(-normal[1], normal[0]))
    wishes = []
    for _ in range(10):
        wish = np.asarray(normal) * rng.uniform(-0.3, 1.2) + tangent * rng.uniform(0.2, 1.0)
        wishes += [(tuple(wish / np.linalg.norm(wish)), bool(rng.random() < 0.2))] * 60
    return walker, wishes


def test_walking_slantwise_into_the_worlds_end_he_goes_along_it_feet_on_the_field() -> None:
    """A random walk at the heightfield's edge (slantwise into it, along it, away): a wish
    into the world's end slides along it, so no foot is put on its wall (an ankle jumping
    up a metre in a step) and every sole point stays on the field."""
    field = load_heightfield(REPO / "assets" / "heightfield.json")
    (x0, x1), (z0, z1) = field.extent
    walker, wishes = _edge_walk(np.random.default_rng(4), field)
    before = walker.pose
    for wish, run in wishes:
        walker.step(wish, run, DT)
        pose = walker.pose
        assert np.abs(pose.ends[2:, 1] - before.ends[2:, 1]).max() < 0.25
        x, z = pose.soles[..., 0], pose.soles[..., 2]
        assert (x > x0).all() and (x < x1).all() and (z > z0).all() and (z < z1).all()
        before = pose


def test_in_the_scene_the_hand_reaches_while_the_mouse_moves_and_lets_go_after_it_rests() -> None:
    # as in the walk: a mouse near him moved, the nearer hand reaches for it; left where it
    # is (the following camera keeps it near him as he walks), the hand lets go after
    # POINTER_LINGER_S instead of being held up for good
    from game.input_state import InputState
    from game.profiling import PhaseTimer
    from game.scene import SceneConfig
    from game.scenes.walk3d import Walk3DSim
    from game.scenes.walk_pointer import POINTER_LINGER_S

    sim, timer = Walk3DSim(SceneConfig(dt=DT)), PhaseTimer()
    point = sim.walker.pose.roots[1] + np.array([0.35, -0.2, 0.1])
    sim.step(InputState(pointer=tuple(point), actions=("pointer_moved",)), DT, timer)
    for _ in range(60):
        sim.step(InputState(pointer=tuple(point)), DT, timer)
    assert np.linalg.norm(sim.walker.pose.ends[1] - point) < 0.01  # within the linger
    for _ in range(int(POINTER_LINGER_S / DT) + 30):
        sim.step(InputState(pointer=tuple(point)), DT, timer)
    assert np.linalg.norm(sim.walker.pose.ends[1] - point) > 0.1  # let go, mouse at rest


@pytest.mark.parametrize("on", ["chest", "head"])
def test_a_pointer_on_his_body_is_not_reached_for(on: str) -> None:
    # the mouse over him gives a point on his chest or face: no hand folds across him to
    # it, both swing at his sides below the shoulders
    from game.input_state import InputState
    from game.profiling import PhaseTimer
    from game.scene import SceneConfig
    from game.scenes.walk3d import Walk3DSim

    sim, timer = Walk3DSim(SceneConfig(dt=DT)), PhaseTimer()
    pose = sim.walker.pose
    point = getattr(pose, on) + 0.1 * np.array([np.cos(pose.yaw), 0.0, np.sin(pose.yaw)])
    for _ in range(60):
        sim.step(InputState(pointer=tuple(point), actions=("pointer_moved",)), DT, timer)
    pose = sim.walker.pose
    assert (pose.ends[:2, 1] < pose.roots[:2, 1] - 0.3).all()
    assert np.linalg.norm(pose.ends[:2] - point, axis=1).min() > 0.3
