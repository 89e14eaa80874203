"""Foot placement and the gait cycle: rolling feet, landing spots, swings, speed curves,
runs, turns. Motion is checked on short headless runs from solved poses; the runs on one
terrain are stepped together in one crowd (:func:`_walk_together`), a character's run
exactly what it would be alone."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from game.scene import ASSETS_DIR
from game.scenes.side_view import seen_from_the_side
from game.world.character import ARMS, LEGS, Crowd
from game.world.easing import halflife_blend, halflife_travel
from game.world.feet import (
    HEEL_HANG,
    MIN_RISER,
    Feet,
    sole_fits,
    sole_penetration,
    sole_points,
    stance_pose,
)
from game.world.gait import cadence, duty_factor
from game.world.landing import plan_landing
from game.world.rig import load_rig
from game.world.swing import swing_pose, within_reach
from game.world.terrain import Terrain

RIG = load_rig(ASSETS_DIR / "rig.json")
A = RIG.legs.ankle_height
# flat, one 0.17 m stair at x = 1, flat, then a 1 m wall at x = 3
STAIR = Terrain(
    np.array([[-5.0, 0.0], [1.0, 0.0], [1.01, 0.17], [3.0, 0.17], [3.01, 1.17], [8.0, 1.17]])
)
FLAT = Terrain(np.array([[-30.0, 0.0], [30.0, 0.0]]))


def _stairs(rise: float, tread: float, count: int) -> Terrain:
    """Flat, ``count`` stairs up, a landing of two treads, ``count`` stairs down, flat."""
    points = [[-6.0, 0.0], [0.0, 0.0]]
    x, y = 0.0, 0.0
    for step in (rise,) * count + (0.0,) + (-rise,) * count:
        if step:
            x, y = x + 0.01, y + step  # a riser, 1 cm deep
            points.append([x, y])
        x += tread if step else 2.0 * tread
        points.append([x, y])
    points.append([x + 6.0, y])
    return Terrain(np.array(points))


STAIRS = _stairs(0.16, 0.34, 4)
DT = 1.0 / 60.0


def _row(crowd: Crowd) -> dict[str, np.ndarray]:
    """What the tests read of every character after a step (the pose solved); the joints
    as the side view draws them (a pivot's limbs foreshortened)."""
    sol = seen_from_the_side(crowd.pose, crowd.solve())
    return {
        "pelvis": crowd.pose.pelvis.copy(),
        "planted": crowd.feet.planted.copy(),
        "soles": crowd.pose.soles(sol.hand[:, LEGS], RIG),
        "joints": np.concatenate([sol.elbow, sol.hand], axis=1).copy(),
        "hips": crowd.pose.roots[:, LEGS].copy(),
        "knees": sol.elbow[:, LEGS].copy(),
        "ankles": sol.hand[:, LEGS].copy(),
        "facing": crowd.facing.copy(),
        "vx": crowd.vx.copy(),
        "x": crowd.x.copy(),
        "turning": crowd.turning.copy(),
        "knee_flips": crowd.knee_flips.copy(),
        "lock": crowd.feet.lock.copy(),
        "pitch": crowd.feet.pitch.copy(),
    }


def _run(crowd: Crowd, move: float, run: float, steps: int) -> list[dict[str, np.ndarray]]:
    """Step ``crowd`` with one intent for every character; one record per step."""
    rows = []
    for _ in range(steps):
        crowd.step(np.full(crowd.count, move), np.full(crowd.count, run), DT)
        rows.append(_row(crowd))
    return rows


@dataclass(frozen=True)
class Phase:
    """``move`` and ``run`` held for ``steps`` steps, ending sooner (checked before each
    step) once ``until(crowd, n)`` holds for the character ``n``; without ``steps``, only
    then."""

    move: float
    run: float
    steps: int | None = None
    until: Callable[[Crowd, int], bool] | None = None

    def over(self, crowd: Crowd, n: int, taken: int) -> bool:
        if self.steps is not None and taken >= self.steps:
            return True
        return self.until is not None and self.until(crowd, n)


@dataclass(frozen=True)
class Walker:
    """A character's start (pelvis ``x``, ``facing``) and script (its phases in turn)."""

    x: float
    facing: float
    phases: tuple[Phase, ...]


STAND = Phase(0.0, 0.0)  # a walker whose script is done
Record = dict[str, np.ndarray]  # one character's :func:`_row` values after each step (T, ...)


def _walk_together(terrain: Terrain, walkers: dict[Any, Walker]) -> dict[Any, Record]:
    """Each walker's script stepped in one crowd on ``terrain``, and its record: every
    :func:`_row` key for that character and ``phase`` (the phase it was in) after each of
    its steps; a walker whose script is done stands still and records no more.

    Characters do not interact: stepped together each moves exactly as it would alone (bit
    for bit), so one run serves many tests at the cost of little more than one.
    """
    scripts = list(walkers.values())
    crowd = Crowd(RIG, terrain, [w.x for w in scripts], [w.facing for w in scripts])
    phase = [0] * len(scripts)  # each walker's phase, and the steps it has taken in it
    taken = [0] * len(scripts)
    rows, going = [], []
    while True:
        for n, walker in enumerate(scripts):
            while phase[n] < len(walker.phases) and walker.phases[phase[n]].over(
                crowd, n, taken[n]
            ):
                phase[n], taken[n] = phase[n] + 1, 0
        now = [p < len(w.phases) for p, w in zip(phase, scripts, strict=True)]
        if not any(now):
            break
        held = [w.phases[p] if on else STAND for p, w, on in zip(phase, scripts, now, strict=True)]
        crowd.step(np.array([h.move for h in held]), np.array([h.run for h in held]), DT)
        rows.append(_row(crowd) | {"phase": np.array(phase)})
        going.append(now)
        taken = [t + 1 for t in taken]
    mask = np.array(going)
    columns = {key: np.stack([row[key] for row in rows]) for key in rows[0]}
    return {
        name: {key: column[mask[:, n], n] for key, column in columns.items()}
        for n, name in enumerate(walkers)
    }


def _from(record: Record, phase: int) -> Record:
    """``record``'s steps from its ``phase`` on."""
    keep = record["phase"] >= phase
    return {key: column[keep] for key, column in record.items()}


def _knee_bends(record: Record) -> np.ndarray:
    """Each leg's knee bend (degrees, 0: straight), shape (T, 2)."""
    thigh, shin = record["knees"] - record["hips"], record["ankles"] - record["knees"]
    cosine = (thigh * shin).sum(-1) / np.linalg.norm(thigh, axis=-1) / np.linalg.norm(shin, axis=-1)
    return np.degrees(np.arccos(np.clip(cosine, -1.0, 1.0)))


def _below_standing(record: Record, ground: Terrain) -> np.ndarray:
    """How far the pelvis is above standing over the lower of its feet (T,)."""
    lower = ground.height_at(record["ankles"][:, :, 0]).min(axis=1)
    standing = lower + A + RIG.gait.stand_extension * RIG.legs.limb.reach
    return record["pelvis"][:, 1] - standing


def _stack(rows: list[dict[str, np.ndarray]], key: str) -> np.ndarray:
    return np.stack([row[key] for row in rows])


def _tail(record: Record, start: int) -> Record:
    """``record``'s steps from step ``start`` (0-based) on."""
    return {key: column[start:] for key, column in record.items()}


def _reached(x: float, facing: float = 1.0) -> Callable[[Crowd, int], bool]:
    """``until`` for a :class:`Phase`: the pelvis is at ``x`` or past it, walking ``facing``."""
    return lambda crowd, n: bool((crowd.x[n] - x) * facing >= 0.0)


def _turning(crowd: Crowd, n: int) -> bool:
    """``until`` for a :class:`Phase`: the character is pivoting."""
    return bool(crowd.turning[n])


def _both_down(crowd: Crowd, n: int) -> bool:
    """``until`` for a :class:`Phase`: both the character's feet are planted."""
    return bool(crowd.feet.planted[n].all())


# -- the tests' own course: a copy in shape of the demo's, built from named pieces so that a
# test says where it stands ("0.8 m before the flight") and editing assets/terrain.json
# leaves the gait's rules tested as they are
SLOPE = (3.0, 7.0)  # a gentle 6° slope up
BUMP = (8.0, 11.0)  # a bump 0.25 m high, its heights every 0.1 m (a raised cosine, to 0.1 mm)
BUMP_RISE = (27, 108, 239, 414, 625, 864, 1120, 1381, 1636, 1875, 2087, 2261, 2392, 2473, 2500)
FLIGHT_UP = 12.0  # the foot of five 0.16 m risers up (+x), 1 cm deep, treads 0.34 m
RISE, TREAD, RISER_DEPTH, FLIGHT = 0.16, 0.34, 0.01, 5
LANDING = (FLIGHT_UP + FLIGHT * RISER_DEPTH + (FLIGHT - 1) * TREAD, 15.15)  # between them
FLIGHT_DOWN = LANDING[1] + FLIGHT * RISER_DEPTH + (FLIGHT - 1) * TREAD  # its foot (walking −x,
# the flight up)
STEEP = (18.5, 21.0)  # an 18° slope up
DESCENT = (22.5, 31.2712)  # an 8° slope down to the loft's wall
FIRST_RISER_UP = {  # the middle of the first riser walked up, by the way walked
    1.0: FLIGHT_UP + RISER_DEPTH / 2,
    -1.0: FLIGHT_DOWN - RISER_DEPTH / 2,
}


def _course() -> Terrain:
    """A wall, flat ground, :data:`SLOPE`, :data:`BUMP`, the flights with :data:`LANDING`
    between, :data:`STEEP`, :data:`DESCENT`, and a 1.8 m wall up to a loft."""
    base = 0.4204  # the slope's top: tan 6° × 4 m
    points = [(-3.0, 1.1), (-2.98, 0.0), (SLOPE[0], 0.0), (SLOPE[1], base), (BUMP[0], base)]
    rise = BUMP_RISE + BUMP_RISE[-2::-1]
    points += [(BUMP[0] + 0.1 * (i + 1), base + r / 1e4) for i, r in enumerate(rise)]
    points += [(BUMP[1], base), (FLIGHT_UP, base)]
    x, y = FLIGHT_UP, base
    for n, step in enumerate((RISE,) * FLIGHT + (-RISE,) * FLIGHT):
        x, y = x + RISER_DEPTH, y + step
        x_end = LANDING[1] if n == FLIGHT - 1 else x + TREAD  # the top tread is the landing
        points += [(x, y), (x_end, y)]
        x = x_end
    top = base + np.tan(np.radians(18.0)) * (STEEP[1] - STEEP[0])
    points += [(STEEP[0], base), (STEEP[1], top), (DESCENT[0], top)]
    points += [(DESCENT[1], 0.0), (34.2712, 0.0), (34.2912, 1.8), (37.3, 1.8), (37.32, 2.9)]
    return Terrain(np.round(np.array(points, dtype=float), 4))


COURSE = _course()
REVERSALS = [(0.0, 174), (0.0, 177), (1.0, 189)]  # (run, steps walked or run before the key)
TURNS = [(0.0, 143), (0.0, 164), (1.0, 140), (1.0, 150), (1.0, 171)]  # (run, steps before)
# (steps back first, limit s); at 164 the landing of a swing kept through the brake may hover
# 0.1 s, the pelvis lowering onto flat feet only once stopped
SQUARING = [(0, 0.45), (120, 0.75), (143, 0.75), (164, 0.95)]
CLIMBS = [(0.0, 150), (0.0, 180), (1.0, 120)]  # (run, steps up before turning round)
STOPS = [(1.0, -1.5, 0.5), (1.0, -1.5, 1.7), (-1.0, 4.8, 0.3)]  # (facing, start x, stop x)
LANDING_PAUSES = [0, 60]  # steps stood on the course's landing before turning round
# (run, x turned round): just past the bump's top and on its far flank walking, before it
# and just past its top running
BUMP_TURNS = [(0.0, 9.82), (0.0, 10.48), (1.0, 7.84), (1.0, 9.82)]
# (start x, facing): a run over each flight, up the steep slope and down the descent
RUNS_OVER = [(11.2, 1.0), (20.0, 1.0), (14.3, -1.0), (28.0, -1.0)]
# (start x, facing, first riser up): running into a flight from the bump and the descent
RUNS_INTO = [(BUMP[0], 1.0, FIRST_RISER_UP[1.0]), (24.0, -1.0, FIRST_RISER_UP[-1.0])]
# (start x, facing): walking up a flight from 2.6-5 m before it, 0.6 m apart
CLIMB_FROM = [(7.0, 1.0), (7.6, 1.0), (8.2, 1.0), (8.8, 1.0), (9.4, 1.0)]
CLIMB_FROM += [(21.0, -1.0), (21.6, -1.0), (22.2, -1.0)]


def _flat_walkers() -> dict[Any, Walker]:
    """The runs on flat ground (from x = 0)."""
    walkers = {
        "walk": Walker(0.0, 1.0, (Phase(1.0, 0.0, 360),)),
        "run": Walker(0.0, 1.0, (Phase(1.0, 1.0, 300),)),
    }
    for run in (0.0, 1.0):  # 2.5 s on, then back the other way
        walkers["turn", run] = Walker(0.0, 1.0, (Phase(1.0, run, 150), Phase(-1.0, run, 220)))
    for run, steps in REVERSALS:
        reverse = (Phase(1.0, run, steps), Phase(-1.0, run, 60))
        walkers["reverse", run, steps] = Walker(0.0, 1.0, reverse)
    for run, steps in TURNS:
        turn = (Phase(1.0, run, steps), Phase(-1.0, run, 240))
        walkers["timed turn", run, steps] = Walker(0.0, 1.0, turn)
    for steps, _ in SQUARING:
        way = -1.0 if steps else 1.0  # back the way he came, or away from where he faces
        square = (Phase(-way if steps else 0.0, 0.0, steps or 60), Phase(way, 0.0, 120))
        walkers["square", steps] = Walker(0.0, -way, square)
    return walkers


@pytest.fixture(scope="module")
def flat() -> dict[Any, Record]:
    """:func:`_flat_walkers` stepped together (:func:`_walk_together`)."""
    return _walk_together(FLAT, _flat_walkers())


def _stairs_walkers() -> dict[Any, Walker]:
    """The runs on :data:`STAIRS`."""
    walkers = {("over", run): Walker(-1.0, 1.0, (Phase(1.0, run, 540),)) for run in (0.0, 1.0)}
    for run, steps_up in CLIMBS:
        back = (Phase(1.0, run, steps_up), Phase(-1.0, run, 300))
        walkers["back", run, steps_up] = Walker(-3.0, 1.0, back)
    for facing, start, stop in STOPS:
        halt = (Phase(facing, 0.0, until=_reached(stop, facing)), Phase(0.0, 0.0, 120))
        walkers["stop", facing, start, stop] = Walker(start, facing, halt)
    return walkers


@pytest.fixture(scope="module")
def stairs() -> dict[Any, Record]:
    """:func:`_stairs_walkers` stepped together (:func:`_walk_together`)."""
    return _walk_together(STAIRS, _stairs_walkers())


def _course_walkers() -> dict[Any, Walker]:
    """The runs on the course's terrain."""
    walkers = {
        # before the flight up, then over and down (8 s: on a flight the pace is a measured
        # tread a step, ~0.65 m/s; 7 s was enough while the tread was read off the mean
        # slope as 0.44 m, a pace of ~0.8)
        "stairs": Walker(11.2, 1.0, (Phase(1.0, 0.0, 480),)),
        "landing": Walker(14.0, 1.0, (Phase(1.0, 0.0, 300),)),  # 1.2 m from its edge
    }
    for pause in LANDING_PAUSES:  # up the flight, 0.55 m onto the landing, and back down
        up = Phase(1.0, 0.0, until=_reached(14.0))
        walkers["turn on the landing", pause] = Walker(
            11.2, 1.0, (up, Phase(0.0, 0.0, pause), Phase(-1.0, 0.0, 300))
        )
    for run, target in BUMP_TURNS:
        # on to the turn, back until the pivot starts, and on until both feet are down
        there = Phase(1.0, run, until=_reached(target))
        back = (Phase(-1.0, run, 150, until=_turning), Phase(-1.0, run, 30, until=_both_down))
        walkers["bump", run, target] = Walker(6.5, 1.0, (there, *back))
    for start, facing in RUNS_OVER:
        walkers["run over", start, facing] = Walker(start, facing, (Phase(facing, 1.0, 540),))
    for start, facing in CLIMB_FROM:
        walkers["climb", start, facing] = Walker(start, facing, (Phase(facing, 0.0, 480),))
    for start, facing, _ in RUNS_INTO:
        walkers["run into", start, facing] = Walker(start, facing, (Phase(facing, 1.0, 420),))
    return walkers


@pytest.fixture(scope="module")
def course() -> dict[Any, Record]:
    """:func:`_course_walkers` stepped together (:func:`_walk_together`)."""
    return _walk_together(COURSE, _course_walkers())


@pytest.fixture(scope="module")
def open_end() -> dict[Any, Record]:
    """Walking and running (by run) to the open end of the world at x = 3."""
    ground = Terrain(np.array([[-30.0, 0.0], [3.0, 0.0]]))
    return _walk_together(
        ground, {run: Walker(0.0, 1.0, (Phase(1.0, run, 240),)) for run in (0.0, 1.0)}
    )


def test_a_walker_stepped_with_others_moves_exactly_as_it_would_alone(
    flat: dict[Any, Record], course: dict[Any, Record]
) -> None:
    # what the fixtures above rest on: characters in one crowd do not interact (here one
    # that stands, then sets off; and one that turns round where its x says)
    for records, terrain, walkers, name in (
        (flat, FLAT, _flat_walkers(), ("square", 0)),
        (course, COURSE, _course_walkers(), ("bump", 1.0, 7.84)),
    ):
        alone = _walk_together(terrain, {name: walkers[name]})[name]
        assert alone.keys() == records[name].keys()
        for key, column in alone.items():
            np.testing.assert_array_equal(column, records[name][key], err_msg=key)


def test_the_stance_roll_pivots_about_a_fixed_heel_then_a_fixed_ball() -> None:
    lock = np.array([[0.3, A], [0.3, A]])
    ground = np.zeros(2)
    facing = np.array([1.0, -1.0])
    flat = sole_points(lock, ground, ground, facing, RIG.legs)
    for pitch, pivot in ((0.3, 0), (-0.6, 1)):
        ankle, angle, bend = stance_pose(lock, ground, np.full(2, pitch), facing, RIG.legs)
        rolled = sole_points(ankle, angle, bend, facing, RIG.legs)
        np.testing.assert_allclose(rolled[:, pivot], flat[:, pivot], atol=1e-12)
        if pitch < 0:  # the toes stay flat on the ground while the heel lifts
            np.testing.assert_allclose(rolled[:, 2], flat[:, 2], atol=1e-12)
            assert (rolled[:, 0, 1] > 0.1).all()


def test_a_sole_over_a_stair_nosing_does_not_fit_but_on_a_tread_it_does() -> None:
    x = np.array([0.5, 1.0, 1.05, 1.5])  # the heel reaches 6 cm back
    fits, _, _ = sole_fits(STAIR, x, np.ones(4), RIG)
    assert fits.tolist() == [True, False, False, True]


def test_landing_moves_off_a_stair_nosing_onto_a_tread_with_the_sole_resting_on_it() -> None:
    start = np.array([[0.4, A]])
    lock, angle, ray_from, ray_hit = plan_landing(
        STAIR, RIG, start, np.array([1.02]), np.array([0.9]), np.array([1.0])
    )
    fits, _, _ = sole_fits(STAIR, lock[:, 0], np.ones(1), RIG)
    assert fits.all() and abs(lock[0, 0] - 1.02) <= 0.25
    assert lock[0, 1] == pytest.approx(STAIR.height_at(lock[0, 0]) + A)
    assert ray_hit[0, 0] == ray_from[0, 0] == lock[0, 0] and angle[0] == pytest.approx(0.0)


def test_a_long_step_down_a_flight_lands_the_whole_sole_on_a_tread() -> None:
    # from every spot on the top landing and the first tread down, every step up to 1.3 m:
    # a spot too far down (more than max_step_height) is refused, and the shorter step
    # taken instead must still fit a tread (with four shorter steps 0.15-0.3 m apart, 52 of
    # these landed across a stair nose, tilted 24°, the ball hovering over the tread)
    starts = np.repeat(np.arange(1.45, 2.45, 0.03), 21)
    predicted = starts + np.tile(np.linspace(0.3, 1.3, 21), len(starts) // 21)
    start = np.stack([starts, STAIRS.height_at(starts) + A], axis=-1)
    facing = np.ones(len(starts))
    lock, angle, _, _ = plan_landing(STAIRS, RIG, start, predicted, start[:, 1] + 0.8, facing)
    fits, _, _ = sole_fits(STAIRS, lock[:, 0], facing, RIG)
    assert fits.all()
    np.testing.assert_allclose(angle, 0.0, atol=1e-9)
    rise = np.abs(lock[:, 1] - start[:, 1])
    assert rise.max() <= RIG.gait.max_step_height + 1e-9


def test_a_step_down_the_course_stairs_never_locks_a_foot_over_a_tread() -> None:
    # a sole whose heel sat a millimetre onto a riser's slope fitted level, then rested on
    # the nose once tilted to its chord: at --hz 20 the autopilot locked a foot 11 cm over
    # a tread (the course's risers are 1 cm deep, as here)
    course = COURSE
    starts = np.repeat(np.arange(14.9, 16.6, 0.013), 41)
    predicted = starts + np.tile(np.linspace(0.3, 1.3, 41), len(starts) // 41)
    start = np.stack([starts, course.height_at(starts) + A], axis=-1)
    facing = np.ones(len(starts))
    lock, _, _, _ = plan_landing(course, RIG, start, predicted, start[:, 1] + 0.8, facing)
    hover = lock[:, 1] - A - course.height_at(lock[:, 0])
    assert hover.max() <= 0.012, (start[hover.argmax()], predicted[hover.argmax()])


def test_a_step_taller_than_the_maximum_is_not_taken() -> None:
    start = np.array([[2.8, 0.17 + A]])
    land, *_ = plan_landing(STAIR, RIG, start, np.array([3.3]), np.array([1.0]), np.array([1.0]))
    assert land[0, 1] - A < 0.17 + RIG.gait.max_step_height
    assert land[0, 0] < 3.0


def test_a_sprint_from_a_drop_behind_is_not_held_to_a_climb() -> None:
    # the speed cap read the 1 m drop a stride behind (the edge of a loft) as a slope to
    # climb, and held the run to 0.23 m/s for a second or more
    crowd = Crowd(RIG, STAIR, [3.3], [1.0])
    vx = _stack(_run(crowd, 1.0, 1.0, 90), "vx")[:, 0]
    assert vx[-1] >= 2.0


def test_a_walker_stops_before_a_wall_taller_than_a_step() -> None:
    crowd = Crowd(RIG, STAIR, [0.0], [1.0])
    _run(crowd, 1.0, 0.0, 600)
    assert crowd.x[0] < 3.0 and abs(crowd.vx[0]) < 0.05
    assert (crowd.feet.lock[0, :, 1] < 0.17 + A + 1e-9).all()  # never up the wall
    assert crowd.feet.steps[0] >= 4  # but it did climb the small stair


def test_a_swing_up_a_stair_clears_the_nosing_with_heel_ball_and_toe() -> None:
    start = np.array([0.7, A])
    lock = np.array([1.3, 0.17 + A])
    feet = Feet.standing(np.stack([[start, start]]), np.zeros((1, 2)), np.zeros((1, 2, 2)))
    one = np.ones(1)
    land, land_angle, land_bend = (
        v[0] for v in stance_pose(lock[None], 0 * one, 0.25 * one, one, RIG.legs)
    )
    feet.start[0, 0], feet.land[0, 0] = start, land
    feet.start_angle[0, 0], feet.land_angle[0, 0] = -0.5, land_angle
    feet.start_bend[0, 0], feet.land_bend[0, 0] = 0.5, land_bend
    feet.lift[0, 0] = RIG.gait.lift_height
    previous = None
    for u in np.linspace(0.0, 1.0, 61):
        feet.u[0, 0] = u
        at, angle, bend, _, _ = swing_pose(feet, np.ones(1), STAIR, RIG.legs)
        sole = sole_points(at[0, :1], angle[0, :1], bend[0, :1], one, RIG.legs)
        assert sole_penetration(STAIR, sole) <= 1e-9
        if previous is not None:  # no jumps: a 61-sample swing moves < 3 cm a sample
            assert np.hypot(*(at[0, 0] - previous)) < 0.03
        previous = at[0, 0].copy()
    np.testing.assert_allclose(at[0, 0], land, atol=1e-9)


def test_a_swinging_foot_left_behind_is_dragged_along_below_the_hip_without_a_jump() -> None:
    reach = RIG.gait.comfort_extension * RIG.legs.limb.reach
    foot = np.array([0.0, 0.1])
    hips = np.stack([np.linspace(0.0, 1.5, 301), np.full(301, 0.95)], axis=-1)  # 5 mm apart
    held = within_reach(np.broadcast_to(foot, hips.shape), hips, reach)
    assert (np.hypot(*(held - hips).T) <= reach + 1e-12).all()
    # it follows the hip on a bent leg: never up at hip height on a leg pointing straight back
    assert (held[:, 1] <= hips[:, 1] - 0.3 * reach).all()
    assert np.hypot(*np.diff(held, axis=0).T).max() <= 4 * 0.005


def test_cadence_and_step_length_grow_with_speed_and_the_duty_factor_crosses_a_half() -> None:
    gait = RIG.gait
    speeds = np.array([0.5, 1.0, gait.walk_speed, 2.0, gait.run_speed])
    rate = cadence(speeds, gait)
    step_length = speeds / (rate / 60.0)
    assert (np.diff(rate) > 0).all() and (np.diff(step_length) > 0).all()
    assert 95.0 <= float(cadence(gait.walk_speed, gait)) <= 125.0
    assert float(cadence(gait.run_speed, gait)) >= 1.15 * float(cadence(gait.walk_speed, gait))
    assert duty_factor(gait.walk_speed, gait) > 0.5 > duty_factor(gait.run_speed, gait)


def test_walking_on_flat_ground_is_tall_with_double_support_and_a_human_cadence(
    flat: dict[Any, Record],
) -> None:
    walk = _tail(flat["walk"], 120)  # 2 s to get going, then 4 s at walking speed
    planted = walk["planted"]
    assert planted.any(axis=1).all()  # one foot always down
    assert planted.all(axis=1).mean() >= 0.05  # double support
    landings = (planted[1:] & ~planted[:-1]).sum()
    spm = landings / (len(planted) * DT) * 60.0
    assert 95.0 <= spm <= 125.0
    thigh = walk["hips"] - walk["knees"]
    shin = walk["ankles"] - walk["knees"]
    cos = (thigh * shin).sum(-1) / np.linalg.norm(thigh, axis=-1) / np.linalg.norm(shin, axis=-1)
    flexion = 180.0 - np.degrees(np.arccos(np.clip(cos, -1.0, 1.0)))
    assert np.median(flexion[planted]) <= 20.0
    stand = A + RIG.gait.stand_extension * RIG.legs.limb.reach
    assert np.median(stand - walk["pelvis"][:, 1]) <= 0.03


def test_a_run_has_a_flight_phase_and_no_double_support(flat: dict[Any, Record]) -> None:
    run = _tail(flat["run"], 150)
    assert float(np.mean(run["vx"])) > 0.95 * RIG.gait.run_speed
    planted = run["planted"]
    assert (~planted).all(axis=1).mean() >= 0.15
    assert not planted.all(axis=1).any()


@pytest.mark.parametrize("run", [0.0, 1.0])
def test_the_sole_stays_above_the_stairs_both_ways_and_planted_pivots_stay_put(
    run: float, stairs: dict[Any, Record]
) -> None:
    # running (Shift), the speed is held to a climb on the flight; off its top the trailing
    # foot was left on the stairs while the body sped up, and the long swing that followed
    # moved a knee 16 cm in a step
    record = stairs["over", run]
    assert record["x"][-1] > 6.0  # up, over and down
    soles = record["soles"]  # (T, 2, 3, 2)
    assert sole_penetration(STAIRS, soles).max() <= 0.005
    planted = record["planted"]
    still = planted[1:] & planted[:-1]
    moved = np.linalg.norm(soles[1:, :, :2] - soles[:-1, :, :2], axis=-1).min(axis=-1)
    assert moved[still].max() <= 0.0005
    # no knee or ankle moves more than 10 cm in a step relative to the pelvis: going up, a
    # toe lifting off against a riser used to rise ~15 cm in one step; going down, the heel
    # passing a stair nose dropped the swinging foot 12 cm
    pelvis = record["pelvis"]
    legs = record["joints"][:, [2, 3, 6, 7]]  # knees, ankles
    jump = np.linalg.norm(legs[1:] - legs[:-1] - (pelvis[1:] - pelvis[:-1])[:, None], axis=-1)
    assert jump.max() <= 0.10


def test_walking_the_course_stairs_the_knees_bend_as_a_persons_one_tread_a_step_down(
    course: dict[Any, Record],
) -> None:
    # the pelvis aimed at standing over the lower of the ground here and a swing ahead: all
    # down a flight that kept it a rise low (a crouch: the stance knee at 94-98°, the pelvis
    # 30 cm below standing over the lower foot); and at a walk's speed the feet took the
    # stairs two at a time (the speed cap read the flight as a ramp)
    record = course["stairs"]
    assert record["x"][-1] > 16.5
    planted, ankles = record["planted"], record["ankles"]
    bend = _knee_bends(record)
    assert bend[planted].max() <= 85.0
    assert _below_standing(record, COURSE).min() >= -0.18
    landed = planted[1:] & ~planted[:-1]
    heights = COURSE.height_at(ankles[1:][landed][:, 0])
    down = np.flatnonzero(np.diff(heights) < 0.0)
    assert len(down) >= 5 and (np.diff(heights)[down] >= -0.17).all()  # one rise a step


def test_off_the_landing_down_the_flight_the_body_slows_first_and_steps_from_the_edge(
    course: dict[Any, Record],
) -> None:
    # no crouch at the landing's edge: the flight's pace took hold only
    # once the slope probes straddled it, so the body reached the edge at 1 m/s and stepped
    # down from a foot 0.6 m back on the landing: the pelvis 18 cm below standing over the
    # lower foot, that knee bent to 76°
    record = course["landing"]
    assert record["x"][-1] > 16.6  # down the flight
    assert _knee_bends(record)[record["planted"]].max() <= 72.0
    assert _below_standing(record, COURSE).min() >= -0.08


def test_walking_off_the_foot_of_a_flight_onto_a_rise_the_steps_keep_up_with_the_body() -> None:
    # walking left down the course's left flight and on up the bump: the
    # last foot off the flight was planned for the flight's pace while the body, let go a
    # stride later, sped up under it; that foot landed beside the hip, the next step was
    # taken from behind, and the pelvis sank 11 cm with the stance knee bent to 84°
    starts = np.linspace(13.5, 15.1, 9)
    walkers = {i: Walker(x, -1.0, (Phase(-1.0, 0.0, 420),)) for i, x in enumerate(starts)}
    for record in _walk_together(COURSE, walkers).values():
        on_rise = (record["x"] > 9.3) & (record["x"] < 11.3)  # the bump's flank
        assert on_rise.any()
        stance = np.where(record["planted"], _knee_bends(record), 0.0).max(axis=1)
        assert stance[on_rise].max() <= 75.0
        assert _below_standing(record, COURSE)[on_rise].min() >= -0.07


@pytest.mark.parametrize("pause", LANDING_PAUSES)
def test_turning_round_on_the_course_landing_then_down_takes_one_tread_a_step(
    pause: int, course: dict[Any, Record]
) -> None:
    # no crouch at the top of the stairs: stopped on the landing, turned
    # round and walking down, a step timed for a tread but taken from the landing's back
    # landed two risers below the foot on the landing (32 cm); that knee bent to 95°
    record = _from(course["turn on the landing", pause], 2)  # the walk back down
    assert record["x"][-1] < 11.9  # turned and went down the flight
    planted, ankles = record["planted"], record["ankles"]
    bend = _knee_bends(record)
    on_flight = (ankles[..., 0] > 11.9) & (ankles[..., 0] < 14.2)
    assert bend[planted & on_flight].max() <= 85.0
    # at each landing, the feet are at most one rise apart
    ground = COURSE.height_at(ankles[..., 0])
    both = planted.all(axis=1)
    assert np.abs(ground[both, 0] - ground[both, 1]).max() <= 0.17


@pytest.mark.parametrize(("run", "steps_up"), CLIMBS)
def test_turning_round_on_a_flight_keeps_the_soles_out_of_the_risers(
    run: float, steps_up: int, stairs: dict[Any, Record]
) -> None:
    # a foot turns about its ball, so turned round its heel reaches where its toes did not:
    # squared up to fit a 0.34 m tread one way, it put its heel 16 cm into the riser
    record = stairs["back", run, steps_up]
    assert record["facing"][-1] == -1 and record["x"][-1] < -1.0  # turned and went down
    assert sole_penetration(STAIRS, record["soles"]).max() <= 0.005
    pelvis = record["pelvis"]
    legs = record["joints"][:, [2, 3, 6, 7]]  # knees, ankles
    jump = np.linalg.norm(legs[1:] - legs[:-1] - (pelvis[1:] - pelvis[:-1])[:, None], axis=-1)
    assert jump.max() <= 0.10


@pytest.mark.parametrize(("facing", "start", "stop"), STOPS)
def test_stopped_on_a_flight_both_feet_come_to_rest_flat(
    facing: float, start: float, stop: float, stairs: dict[Any, Record]
) -> None:
    # a rolled foot lets a walking leg reach, but is no pose to stand in: stopped with its
    # feet on two treads, a foot kept its toes up 12-52° (these stops) while the pelvis stayed high
    record = stairs["stop", facing, start, stop]
    assert record["planted"][-1].all() and abs(float(record["vx"][-1])) < 0.05
    assert np.abs(record["pitch"][-1]).max() <= np.radians(1.0)
    assert sole_penetration(STAIRS, record["soles"][-1]).max() <= 0.005


@pytest.mark.parametrize(("run", "steps"), REVERSALS)
def test_reversing_brakes_over_its_rolled_feet_instead_of_stopping_dead(
    run: float, steps: int, flat: dict[Any, Record]
) -> None:
    # held to the flat pose of a foot still rolled onto its ball, the hip stopped dead from
    # 1.35 m/s (walking) or 2.6 m/s (running) in one step when the reversal was pressed
    record = flat["reverse", run, steps]
    before = float(record["vx"][record["phase"] == 0][-1])
    vx = np.concatenate([[before], _from(record, 1)["vx"]])
    # a halflife brake loses at most v·(1 − 2^(−dt/h)) a step: 0.18 m/s from a run (and
    # setting off the other way after the pivot gains less)
    assert np.max(-np.diff(vx)) <= 0.2
    # ... and it does come to rest within the second (a halflife alone crawled on at
    # 0.1-0.2 m/s, its feet rolled, for half a second more)
    assert before > 1.3 and np.abs(vx).min() < 0.05


@pytest.mark.parametrize(("run", "steps"), TURNS)
def test_turning_round_takes_at_most_1_3_seconds(
    run: float, steps: int, flat: dict[Any, Record]
) -> None:
    # 1.5-2.1 s it was: the brake's halflife crawled for half a second at the end, a foot
    # already on its pivot spot stepped again when its phase said so, squaring steps
    # swung at walking pace and landed on their heels, and the pivot waited for the roll
    # to settle; the wait for a foot 7 cm off its spot was another 0.5 s
    vx = _from(flat["timed turn", run, steps], 1)["vx"]
    back = int(np.argmax(vx < -0.5))  # moving the other way: braked, squared, pivoted
    assert vx[back] < -0.5 and back * DT <= 1.3


@pytest.mark.parametrize(("steps", "limit"), SQUARING)
def test_a_short_squaring_step_is_quick(steps: int, limit: float, flat: dict[Any, Record]) -> None:
    # a foot 19 cm off its pivot spot took the whole 0.3 s of a squaring swing while the
    # body stood still facing the old way ("stands, then turns"): from
    # standing facing away it moved off 0.65 s after the key, from a walk back 0.90-0.93 s;
    # then the pivot still waited for that foot to land (0.58 s, and 0.83-1.0 s): now it
    # starts as the foot comes down
    way = -1.0 if steps else 1.0  # back the way he came, or away from where he faces
    vx = _from(flat["square", steps], 1)["vx"]
    moving = vx * way > 0.1
    assert moving.any() and np.argmax(moving) * DT <= limit


def test_running_up_a_flight_is_quicker_than_walking_it_one_tread_a_step() -> None:
    # held to the walk's stair pace and climb, Shift on a flight walked it: 0.70-0.80 m/s,
    # a step every 0.45 s with both feet down 14 % of the time. Up the left flight, up the
    # right one; and down them (once 0.70 m/s, the walking stair pace), a tread a
    # step all the same
    course = COURSE
    starts, ways = np.array([8.8, 19.5, 14.3, 14.3]), np.array([1.0, -1.0, 1.0, -1.0])
    flights = np.array([[12.0, 13.4], [15.16, 16.56], [15.16, 16.56], [12.0, 13.4]])
    crowd = Crowd(RIG, course, starts, ways)
    xs, speeds, landings = [], [], [[] for _ in starts]
    for _ in range(420):
        was = crowd.feet.planted.copy()
        crowd.step(ways, np.ones(4), DT)
        xs.append(crowd.x.copy())
        speeds.append(np.abs(crowd.vx))
        for n, f in np.argwhere(crowd.feet.planted & ~was):
            landings[n].append(crowd.feet.lock[n, f].copy())
    x, speed = np.array(xs), np.array(speeds)
    assert (speed[:-1] - speed[1:]).max() <= 0.3  # never held back on the way
    for n, (lo, hi) in enumerate(flights):
        on = (x[:, n] > lo) & (x[:, n] < hi)
        assert on.sum() > 30
        assert np.median(speed[on, n]) >= (0.95 if n < 2 else 0.9)  # up, down
        # (the steps onto and off the flight too: quicker, they fall further out)
        heights = np.array([y for x, y in landings[n] if lo - 0.4 < x < hi + 0.4])
        assert len(heights) >= 5  # over the whole flight, a riser a step at most
        assert np.abs(np.diff(heights)).max() <= 0.16 + 1e-6


def test_running_off_the_stairs_onto_the_slope_keeps_the_pelvis_up() -> None:
    # quick stair steps running down the right flight too (timed for 1.85 m/s) left the
    # feet so that the run met the slope 2 m on in a lunge and then a crouch: the pelvis
    # 0.16-0.25 m below standing in 20 of 28 runs (3 before), the stance knee at 83° (66°)
    course = COURSE
    starts = np.linspace(6.0, 11.5, 12)
    crowd = Crowd(RIG, course, starts, np.ones(12))
    stand = A + RIG.gait.stand_extension * RIG.legs.limb.reach
    lowest = np.full(12, np.inf)
    for _ in range(900):
        crowd.step(np.ones(12), np.ones(12), DT)
        on = (crowd.x > 18.0) & (crowd.x < 21.0)
        below = crowd.y - course.height_at(crowd.x) - stand
        lowest = np.where(on, np.minimum(lowest, below), lowest)
    assert np.isfinite(lowest).all()  # every one ran onto the slope
    assert np.median(lowest) >= -0.12


def test_speeding_up_into_a_run_on_the_course_never_stops_the_hip_dead(
    course: dict[Any, Record],
) -> None:
    # where a flight's or a slope's speed cap lifted, the body sped up under a step timed for
    # the slower pace; the trailing foot, rolled to its limit, waited for the other to land
    # and held the hip: 0.6-1.7 m/s lost in one step (a split-leg stall), in
    # 10 of 20 runs over the course
    records = [course["run over", start, facing] for start, facing in RUNS_OVER]
    starts = np.array([start for start, _ in RUNS_OVER])
    x = np.array([record["x"][-1] for record in records])
    speed = np.abs(np.stack([record["vx"] for record in records], axis=1))
    assert (np.abs(x - starts) > 5.0).all()  # over the stairs and the slopes
    assert (speed[:-1] - speed[1:]).max() <= 0.35


@pytest.mark.parametrize(("start", "facing", "riser"), RUNS_INTO)
def test_running_into_a_flight_slows_gently_to_meet_it_at_its_pace(
    start: float, facing: float, riser: float, course: dict[Any, Record]
) -> None:
    # the flight's pace came into view only within the stopping distance: the run braked at
    # 3.5-3.8 m/s² to 0.8 m/s a step before the first riser (0.7 m/s on it), the feet left
    # wide apart; now it slows at ~1.5 m/s² from far enough, to the quicker pace it runs up at
    record = course["run into", start, facing]
    x, speed = record["x"], np.abs(record["vx"])
    ahead = (riser - x) * facing  # distance to the flight's first riser
    k = 15  # the deceleration over a quarter second
    slowing = (speed[:-k] - speed[k:]) / (k * DT)
    approach = (ahead[:-k] >= 0.0) & (ahead[:-k] <= 2.5)
    assert speed.max() > 1.8 and approach.sum() > 60  # a run, then over 2.5 m to the flight
    assert slowing[approach].max() <= 2.5
    a_step_before = int(np.argmax(ahead <= 0.5))
    assert speed[a_step_before] >= 1.2
    on = (ahead < 0.0) & (ahead > -1.0)
    assert on.any() and speed[on].min() >= 0.9  # and up the flight without a stall


@pytest.mark.parametrize(("start", "facing"), CLIMB_FROM)
def test_walking_up_a_flight_the_stance_knee_straightens_as_he_climbs(
    start: float, facing: float, course: dict[Any, Record]
) -> None:
    # the pelvis stood over the ground under it, so it rose only once over a tread: walking
    # onto the flight the front knee bent to 68-75° with the rear foot in the air, and kept
    # bending, 24-45° further after the landing's first 0.1 s (a squat at its
    # foot); now the pelvis reads the ground a riser ahead as it comes, and each stance knee
    # on the flight, once loaded, only straightens as the body rises over it
    record = course["climb", start, facing]
    bend = _knee_bends(record)
    ahead = (record["x"] - FIRST_RISER_UP[facing]) * facing
    onto = (ahead > -0.5) & (ahead < 0.6)
    assert onto.sum() > 30
    assert np.where(record["planted"], bend, 0.0)[onto].max() <= 70.0
    stances = 0
    for leg in range(2):
        down = record["planted"][:, leg]
        for first in np.flatnonzero(down & ~np.concatenate([[False], down[:-1]])):
            last = first + int(np.argmin(down[first:])) if not down[first:].all() else len(down)
            loaded = first + 6  # the landing's first 0.1 s
            foot = (record["lock"][first, leg, 0] - FIRST_RISER_UP[facing]) * facing
            if 0.0 < foot < 1.4 and last - loaded > 6:  # a stance on the flight's treads
                stances += 1
                assert bend[loaded:last, leg].max() - bend[loaded, leg] <= 5.0, first
    assert stances >= 3


def _landings(record: Record) -> list[float]:
    """The x of each landing in ``record``, in order (either foot)."""
    planted = record["planted"]
    landed = planted & ~np.concatenate([np.zeros((1, 2), dtype=bool), planted[:-1]])
    return [float(record["lock"][t, f, 0]) for t, f in np.argwhere(landed)]


def test_walking_up_a_flight_the_feet_take_a_tread_each(course: dict[Any, Record]) -> None:
    # a step onto the first tread from far back left the other foot too far behind to
    # reach the second: it landed beside the first, both feet on one tread (feet
    # together at a flight's foot), in 6 of these 8 approaches; now a step to the
    # other foot's tread of a flight costs as much as landing 0.2 m off its spot, and a
    # step is aimed for where the hip will be as it slows for the flight (aimed for the pace
    # where it set off, one approach in 8 still landed a step on the first tread from far back)
    together = 0
    for start, facing in CLIMB_FROM:
        riser = FIRST_RISER_UP[facing]
        flight = sorted((riser, riser + facing * 1.41))
        xs = [x for x in _landings(course["climb", start, facing]) if flight[0] < x < flight[1]]
        treads = [round(float(COURSE.height_at(x)), 3) for x in xs]
        assert len(treads) >= 4 and treads[0] < treads[-1]  # up the flight
        together += sum(a == b for a, b in zip(treads, treads[1:], strict=False))
    assert together == 0


def test_running_onto_the_top_landing_does_not_hold_the_hip() -> None:
    # running up onto the landing between the flights, a foot at the end of its swing was
    # 1-3 cm out of reach of its spot (the pelvis a centimetre too high) and hovered while
    # the other leg, at full stretch, held the hip: 0.5 m/s lost in a step; now it lands
    # that little short of the spot instead (running, at a steady pace, on level ground)
    starts, ways = np.array([11.54, 17.02]), np.array([1.0, -1.0])
    crowd = Crowd(RIG, COURSE, starts, ways)
    speeds = []
    for _ in range(300):
        crowd.step(ways, np.ones(2), DT)
        speeds.append(np.abs(crowd.vx))
    speed = np.array(speeds)
    assert ((crowd.x - 14.3) * ways > 0.5).all()  # over the landing
    assert (speed[:-1] - speed[1:]).max() <= 0.3


def test_running_over_the_bump_rarely_holds_the_hip() -> None:
    # running down the bump's far side, the pelvis reached its landing height ~0.1 s late
    # (the spring's lag): the foot hovered 2-3 cm short of its spot while the other leg, at
    # full stretch, held the hip: 7 of these 29 runs lost 0.34-1.17 m/s in one step
    starts = np.concatenate([np.linspace(3.0, 7.0, 21), np.linspace(11.6, 13.0, 8)])
    ways = np.where(starts < 8.0, 1.0, -1.0)
    crowd = Crowd(RIG, COURSE, starts, ways)
    speeds, xs = [], []
    for _ in range(300):
        crowd.step(ways, np.ones(len(starts)), DT)
        speeds.append(np.abs(crowd.vx))
        xs.append(crowd.x.copy())
    speed, x = np.array(speeds), np.array(xs)
    on_bump = (x[1:] > 8.0) & (x[1:] < 11.0)
    assert on_bump.any(axis=0).all()  # every one ran over it
    lost = np.where(on_bump, speed[:-1] - speed[1:], 0.0).max(axis=0)  # the most in a step
    assert (lost > 0.3).sum() <= 2 and lost.max() <= 0.7


@pytest.mark.parametrize("run", [0.0, 1.0])
def test_a_walker_stops_at_the_open_end_of_the_world_without_a_jump(
    run: float, open_end: dict[Any, Record]
) -> None:
    # beyond its ends the ground is level but no place to step: a swing aimed past the end
    # as the body stopped before it hung from a straight leg, its ankle rising 16 cm a step
    record = open_end[run]
    assert abs(float(record["vx"][-1])) < 0.05 and record["x"][-1] < 3.0
    assert (record["soles"][..., 0] <= 3.0).all()  # every sole point in the world
    pelvis = record["pelvis"]
    joints = record["joints"]
    moved = joints[1:] - joints[:-1] - (pelvis[1:] - pelvis[:-1])[:, None]
    assert np.linalg.norm(moved, axis=-1).max() <= 0.10


def test_turning_from_a_run_stops_plants_and_pivots_without_jumps_or_sliding_back(
    flat: dict[Any, Record],
) -> None:
    record = flat["turn", 1.0]  # 2.5 s of running, then 220 steps back the other way
    facing = record["facing"]
    assert facing[0] == 1 and facing[-1] == -1
    flip = int(np.argmax(facing < 0))
    pelvis = record["pelvis"]
    assert pelvis[flip:, 0].max() <= pelvis[flip, 0] + 0.01  # no slide the old way
    # from the reversal on: braking, squaring up, the pivot and setting off again
    joints = record["joints"][149:]  # (T, 8, 2): elbows, knees, hands, ankles
    moved = joints[1:] - joints[:-1] - (pelvis[150:] - pelvis[149:-1])[:, None]
    assert np.linalg.norm(moved, axis=-1).max() <= 0.10
    assert record["knee_flips"][-1] == 0
    assert float(record["vx"][-1]) < -1.0  # and off again the other way


@pytest.mark.parametrize("run", [0.0, 1.0])
def test_mid_pivot_the_knees_pass_the_legs_without_a_jump(
    run: float, flat: dict[Any, Record]
) -> None:
    # the knee poles cross the legs mid-pivot; drawn at full bend the knees jumped from
    # front to back (about 10 cm) in that step, seen from the side they pass through
    record = flat["turn", run]
    facing = record["facing"]
    flip = int(np.argmax(facing < 0))
    pelvis = record["pelvis"][flip - 20 : flip + 20]
    knees = record["knees"][flip - 20 : flip + 20]
    moved = knees[1:] - knees[:-1] - (pelvis[1:] - pelvis[:-1])[:, None]
    assert np.linalg.norm(moved, axis=-1).max() <= 0.05


def test_the_crowd_rolls_its_feet_too() -> None:
    crowd = Crowd(RIG, FLAT, np.linspace(-5.0, 5.0, 6), np.ones(6))
    rows = _run(crowd, 1.0, 0.0, 120)
    soles = _stack(rows, "soles")  # (T, N, 2, 3, 2)
    heel_up = soles[..., 0, 1] > 0.03  # a lifted heel on a planted foot
    assert (heel_up & _stack(rows, "planted")).any(axis=(0, 2)).all()
    assert _stack(rows, "joints")[:, :, ARMS].shape[1:] == (6, 2, 2)


@given(st.floats(0.001, 0.05), st.floats(0.01, 1.0), st.integers(1, 8))
def test_halflife_smoothing_is_frame_rate_independent(dt: float, halflife: float, k: int) -> None:
    one = 1.0 - halflife_blend(k * dt, halflife)
    many = (1.0 - halflife_blend(dt, halflife)) ** k
    assert one == pytest.approx(many, rel=1e-9)
    assert halflife_blend(halflife, halflife) == pytest.approx(0.5)


def test_halflife_travel_matches_stepping_the_velocity() -> None:
    v, target, h, total = 0.2, 1.4, 0.16, 0.36
    dt = 1e-5
    x = 0.0
    for _ in range(round(total / dt)):
        v += (target - v) * halflife_blend(dt, h)
        x += v * dt
    assert float(halflife_travel(0.2, 1.4, total, h)) == pytest.approx(x, rel=1e-3)


@pytest.mark.parametrize(("run", "target"), BUMP_TURNS)
def test_turning_round_on_the_bumps_slopes_squares_the_feet_first(
    run: float, target: float, course: dict[Any, Record]
) -> None:
    # where the ground under the stopping pelvis curves up, no spot there can be turned
    # on; each foot found its own turnable spot on its own side and the body pivoted in a
    # 0.26-0.54 m lunge (12 of 70 reversals on the bump; and a convex slope read the ball's
    # height at the wrong x, so it too counted as not turnable)
    record = course["bump", run, target]
    assert record["turning"][record["phase"] == 1][-1]
    # the last squaring foot may still be landing as the pivot starts: the feet are
    # compared once both are down, still mid-pivot
    assert record["turning"][-1] and record["planted"][-1].all()
    locks = record["lock"][-1, :, 0]
    assert abs(float(locks[0] - locks[1])) <= 0.15


SET_OFF_BEFORE = np.repeat(np.linspace(0.8, 1.5, 8), 3)  # seconds of walking or running first
SET_OFF_THEN = np.tile([0.0, 1.0, -1.0], 8)  # ... then stand a second, or turn round (1: go on)
BRAKE_BEFORE = np.linspace(2.0, 3.0, 24)  # seconds of walking or running before the key
STOP_AFTER = np.arange(1.0, 3.3, 0.25)  # seconds of walking or running before the stop


def _walking_and_running(count: int) -> tuple[Crowd, np.ndarray]:
    """A crowd of ``count`` walkers from x = 0 (facing right) and as many runners, all on
    flat ground, and the run input of each (0 for the first half, 1 for the second)."""
    run = np.repeat([0.0, 1.0], count)
    return Crowd(RIG, FLAT, np.zeros(run.size), np.ones(run.size)), run


Columns = tuple[np.ndarray, np.ndarray, np.ndarray]


def _by_run(run: np.ndarray, *columns: np.ndarray) -> dict[float, Columns]:
    """The columns (characters on the last axis) split by the characters' ``run`` input."""
    return {r: tuple(column[..., run == r] for column in columns) for r in (0.0, 1.0)}


@pytest.fixture(scope="module")
def set_offs() -> dict[float, Columns]:
    """By run input, the walkers of :data:`SET_OFF_BEFORE` and :data:`SET_OFF_THEN` (all
    in one crowd, 5 s): their pelvis heights, speeds and turning, each (T, 24)."""
    crowd, run = _walking_and_running(SET_OFF_BEFORE.size)
    before, then = np.tile(SET_OFF_BEFORE, 2), np.tile(SET_OFF_THEN, 2)
    rows = []
    for step in range(int(5.0 / DT)):
        t = step * DT
        later = np.where(then == 0.0, 1.0, then)  # the stop ends after a second
        move = np.where(t < before, 1.0, np.where(t < before + 1.0, then, later))
        crowd.step(move, run, DT)
        rows.append((crowd.y.copy(), np.abs(crowd.vx), crowd.turning.copy()))
    return _by_run(run, *(np.array(column) for column in zip(*rows, strict=True)))


@pytest.mark.parametrize("run", [0.0, 1.0], ids=["walk", "run"])
def test_setting_off_the_hip_is_never_held_back_and_the_pelvis_does_not_dip(
    run: float, set_offs: dict[float, Columns]
) -> None:
    # from standing, after a stop and after turning round, the first steps were timed for a
    # standing body (a 0.62 s swing) and the front foot's stance was a whole one while the
    # body sped up in a quarter second: the hip outran the planted foot, was held back (the
    # speed fell 0.4-1.8 m/s in a few steps) and the pelvis dipped 7-16 cm below the lowest
    # of its steady gait (on flat ground, the stop or turn at 8 phases)
    before, then = SET_OFF_BEFORE, SET_OFF_THEN
    height, speed, turning = set_offs[run]
    steady = height[int(3.0 / DT) :, then == 1.0].min()  # the gait's own lowest point
    window = int(1.5 / DT)
    set_offs_seen = 0
    for n in np.flatnonzero(then != 1.0):
        # the walk resumes after the stop, or the pivot ends
        pivot_end = np.flatnonzero(turning[:-1, n] & ~turning[1:, n]) + 1
        start = int((before[n] + 1.0) / DT) if then[n] == 0.0 else int(pivot_end[0])
        set_offs_seen += 1
        ahead = slice(start, start + window)
        assert height[ahead, n].min() >= steady - 0.02, (n, start)
        assert np.diff(speed[ahead, n]).min() >= -0.05, (n, start)  # never held back
    assert set_offs_seen == 16  # after every stop and every turn


@pytest.fixture(scope="module")
def brakes() -> dict[float, Columns]:
    """By run input, the walkers of :data:`BRAKE_BEFORE` turning round (all in one crowd,
    4.5 s): their pelvis heights, speeds and turning round (reversing or pivoting), each
    (T, 24)."""
    crowd, run = _walking_and_running(BRAKE_BEFORE.size)
    before = np.tile(BRAKE_BEFORE, 2)
    rows = []
    for step in range(int(4.5 / DT)):
        move = np.where(step * DT < before, 1.0, -1.0)
        crowd.step(move, run, DT)
        rows.append((crowd.y.copy(), crowd.vx.copy(), crowd.reversing | crowd.turning))
    return _by_run(run, *(np.array(column) for column in zip(*rows, strict=True)))


@pytest.mark.parametrize(("run", "sink"), [(0.0, 0.05), (1.0, 0.08)], ids=["walk", "run"])
def test_turning_round_brakes_without_a_hold_or_a_sink(
    run: float, sink: float, brakes: dict[float, Columns]
) -> None:
    # squaring up for the pivot, a foot could step only once the other was down, and a foot
    # beside the running hip counted as on its pivot spot (the spots were read where the hip
    # was, not where it would stop): the hip was held on a foot left 0.6-0.7 m behind,
    # stopped from 2.6 to 0.8 m/s in a step, and the pelvis sank up to 20 cm below the run's
    # low (26 cm on the course by the ladder); walking, a swing about to land was re-aimed
    # for 0.3 s more while the braking hip left the other foot behind: 11.5 cm
    before = BRAKE_BEFORE
    height, vx, turning_round = brakes[run]
    steady = height[int(1.5 / DT) : int(2.0 / DT)].min()  # the gait's own lowest point
    for n in range(before.size):
        brake = slice(int(before[n] / DT), int(before[n] / DT) + int(1.0 / DT))
        assert turning_round[brake, n].any()
        assert np.diff(vx[brake, n]).min() >= -0.25, n  # the brake law's, never a hold
        assert height[brake, n].min() >= steady - sink, n


@pytest.fixture(scope="module")
def stops() -> dict[float, Columns]:
    """By run input, the walkers of :data:`STOP_AFTER` stopping (all in one crowd, 1.5 s
    past the last stop): their speeds at the end, and their pelvis heights as each stop
    began and the lowest since, each (10,)."""
    crowd, run = _walking_and_running(STOP_AFTER.size)
    walks = np.tile(STOP_AFTER, 2)
    at_stop, lowest = np.full(walks.size, np.nan), np.full(walks.size, np.inf)
    for step in range(int((walks.max() + 1.5) / DT)):
        walking = step * DT < walks
        crowd.step(walking.astype(float), run, DT)
        at_stop = np.where(np.isnan(at_stop) & ~walking, crowd.y, at_stop)
        lowest = np.where(walking, lowest, np.minimum(lowest, crowd.y))
    return _by_run(run, crowd.vx, at_stop, lowest)


def test_keys_pressed_in_turn_never_keep_a_foot_in_the_air_long() -> None:
    # D and A in turn every 0.6 s: a swing re-aimed in the air as the walk stopped was
    # re-timed for the stop's slow pace, and a foot stayed up for 0.93 s (a
    # cancelled step leaving a foot in the air)
    phases = np.linspace(0.0, 0.6, 12, endpoint=False)
    crowd = Crowd(RIG, FLAT, np.zeros(phases.size), np.ones(phases.size))
    airborne = np.zeros((phases.size, 2))
    longest = np.zeros(phases.size)
    for step in range(int(4.0 / DT)):
        keys = np.where(((step * DT + phases) // 0.6) % 2 == 0, 1.0, -1.0)
        crowd.step(keys, np.zeros(phases.size), DT)
        airborne = np.where(crowd.feet.planted, 0.0, airborne + DT)
        longest = np.maximum(longest, airborne.max(axis=1))
    assert longest.max() <= 0.8


def test_turning_round_while_still_speeding_up_the_pelvis_stays_up() -> None:
    # braking to turn round, the pelvis was lowered at once to where the feet reach flat,
    # as for the pivot: a foot left behind the stopping hip, held flat, pulled it down 11-12
    # cm below standing (walking 0.8-2 s, then the other key: a sag); and a
    # swing re-aimed in the air counted as a step up and swung the slow 0.3 s
    before = np.tile(np.linspace(0.8, 2.0, 25), 2)  # seconds of walking or running first
    run = np.repeat([0.0, 1.0], 25)
    crowd = Crowd(RIG, FLAT, np.zeros(before.size), np.ones(before.size))
    stand = A + RIG.gait.stand_extension * RIG.legs.limb.reach
    lowest = np.full(before.size, np.inf)
    for step in range(int(3.2 / DT)):
        t = step * DT
        crowd.step(np.where(t < before, 1.0, -1.0), run, DT)
        braking = (t >= before) & (t < before + 1.2)
        lowest = np.where(braking, np.minimum(lowest, crowd.y - stand), lowest)
    walk, running = -lowest[:25], -lowest[25:]
    assert walk.max() <= 0.08 and np.median(walk) <= 0.03
    assert running.max() <= 0.095


@pytest.mark.parametrize("run", [0.0, 1.0], ids=["walk", "run"])
def test_stopping_the_pelvis_sinks_no_further_the_feet_step_under_it(
    run: float, stops: dict[float, Columns]
) -> None:
    # walking: a foot in flight when the walk stopped kept its walking-pace spot, hovered
    # beyond the stopping hip, and the pelvis sank until the leg could reach it: up to 10 cm
    # below where it was when the stop began; running: the trailing foot stayed down while
    # the braking body carried on 0.85 m past it, and the pelvis sank up to 16 cm (after 1 to
    # 3.25 s of walking or running on flat ground)
    vx, at_stop, lowest = stops[run]
    assert (np.abs(vx) < 0.05).all()
    assert (at_stop - lowest).max() <= 0.03  # 9.8 cm before


CUP_ON_THE_FLOOR = np.array([[1.41, 1.59, 0.1]])  # (x0, x1, top): a cup set down at x = 1.5


@pytest.mark.parametrize(
    ("x", "run", "steps", "stand"),
    [(0.25, 0.0, 60, 0), (0.69, 1.0, 30, 40)],
)
def test_turning_round_beside_a_cup_on_the_floor_no_sole_swings_into_it(
    x: float, run: float, steps: int, stand: int
) -> None:
    # turning round with the toes just short of a cup set down: a foot turned about its
    # ball swung its heel 10 cm deep into the cup (the squaring step, and a foot that
    # stayed down to pivot where it stood); mirrored, from either side
    crowd = Crowd(RIG, COURSE, [x, 3.0 - x], [1.0, -1.0])
    crowd.set_obstacles(CUP_ON_THE_FLOOR)
    ground = COURSE.with_boxes(CUP_ON_THE_FLOOR)
    way, deepest = np.array([1.0, -1.0]), 0.0
    for i in range(steps + stand + 150):
        move = way if i < steps else 0.0 * way if i < steps + stand else -way
        crowd.step(move, np.full(2, run), DT)
        soles = crowd.pose.soles(crowd.solve().hand[:, LEGS], RIG)
        deepest = max(deepest, float(sole_penetration(ground, soles).max()))
    assert (crowd.facing == -way).all()  # turned round
    assert deepest <= 1e-6, f"a sole went {deepest * 100:.1f} cm into the cup"


def test_stopped_over_a_cup_on_the_floor_the_pelvis_stays_over_the_feet_turning_or_not() -> None:
    # stopped with the hips over a cup set down, the feet's spots were kept
    # past it; turning round (the other key for 0.5 s), the ankles swung about the balls to
    # 0.42 m from the pelvis, which hung 9-17 cm low until the feet stepped back under it;
    # and where the pivot never started, he stood with the pelvis 18 cm behind the ankles
    # for as long as he stood (mirrored from either side)
    way = np.array([1.0, 1.0, -1.0, -1.0])
    walk = np.array([80, 60, 80, 60])  # steps of walking toward the cup, then 1 s still
    crowd = Crowd(RIG, COURSE, [0.0, 0.4, 3.0, 2.6], way)
    crowd.set_obstacles(CUP_ON_THE_FLOOR)
    stand = A + RIG.gait.stand_extension * RIG.legs.limb.reach
    off, lowest = np.zeros((0, 4)), np.inf
    for i in range(350):
        t = i - walk
        crowd.step(np.where(t < 0, way, np.where((t >= 60) & (t < 90), -way, 0.0)), 0.0, DT)
        ankles_x = crowd.solve().hand[:, LEGS, 0]
        off = np.vstack([off, np.where(t >= 60, np.abs(crowd.x - ankles_x.mean(axis=1)), 0.0)])
        ground = COURSE.height_at(ankles_x).min(axis=1)
        lowest = min(lowest, float(np.where(t >= 60, crowd.y - ground - stand, 0.0).min()))
    assert (crowd.facing[::2] == -way[::2]).all()  # turned round
    assert off.max() <= 0.3  # 0.42 m before (a stride's feet are 0.2-0.25 m off the pelvis)
    assert lowest >= -0.06  # 8.8 cm before
    assert off[-1].max() <= 0.05  # standing: 0.18 m before


def test_turning_round_standing_on_the_bumps_curved_flank_is_no_lunge() -> None:
    # stopped facing up the bump's flank, the other key: no spot on the curved
    # ground passed as a pivot spot (a sole resting on heel and toes lifts its ball 2-12 mm
    # there), so the squaring steps went back 0.4 m to flat ground and the pelvis hung over
    # nothing, 12-22 cm low, until the pivot
    walks = np.array([180, 294])  # steps walking right from x = 4.33: x = 8.10, 8.55
    crowd = Crowd(RIG, COURSE, np.full(2, 4.33), np.ones(2))
    stand = A + RIG.gait.stand_extension * RIG.legs.limb.reach
    off, lowest = 0.0, 0.0
    for i in range(walks.max() + 60 + 90):
        t = i - walks
        crowd.step(np.where(t < 0, 1.0, np.where(t < 60, 0.0, -1.0)), 0.0, DT)
        ankles_x = crowd.solve().hand[:, LEGS, 0]
        turning = t >= 60
        gap = np.abs(crowd.x - ankles_x.mean(axis=1))
        sink = crowd.y - COURSE.height_at(ankles_x).min(axis=1) - stand
        off = max(off, float(np.where(turning, gap, 0.0).max()))
        lowest = min(lowest, float(np.where(turning, sink, 0.0).min()))
    assert (crowd.facing == -1.0).all()
    assert off <= 0.3  # 0.44 m before
    assert lowest >= -0.07  # 21.6 cm before


def test_setting_off_from_a_stop_at_a_flights_foot_the_lifting_foot_rises_without_a_snap() -> None:
    # set off from standing with a foot on the flight, the other lifted straight
    # up 6-8 cm in its first 1/60 s step (its clearance floor rose at full speed at once, the
    # heel's rise on top) and a knee jumped 10-12.6 cm in a step
    lets = np.array([35, 47, 59, 71, 83, 95])  # steps walking from x = 11.3 before the stop
    crowd = Crowd(RIG, COURSE, np.full(lets.size, 11.3), np.ones(lets.size))
    last, first_rise, knee_jump = None, 0.0, 0.0
    for i in range(lets.max() + 60 + 60):
        t = i - lets
        crowd.step(np.where((t >= 0) & (t < 60), 0.0, 1.0), 0.0, DT)
        sol = crowd.solve()
        pelvis = crowd.pose.pelvis[:, None, :]
        now = (sol.hand[:, LEGS] - pelvis, sol.elbow[:, LEGS] - pelvis)
        if last is not None:
            going = (t >= 60)[:, None]
            rise = now[0][..., 1] - last[0][..., 1]
            early = going & ~crowd.feet.planted & (crowd.feet.u < 0.13)
            first_rise = max(first_rise, float(np.where(early, rise, 0.0).max()))
            moved = np.hypot(*np.moveaxis(now[1] - last[1], -1, 0))
            knee_jump = max(knee_jump, float(np.where(going, moved, 0.0).max()))
        last = now
    assert first_rise <= 0.04  # 7.6 cm before
    assert knee_jump <= 0.10  # 12.1 cm before


def test_shift_on_the_steep_slope_jogs_with_a_flight_both_ways() -> None:
    # held to the climb's pace (about a walk's), Shift up or down the steep
    # slope (18.5-21) was a walk: one foot always down (17 % double support, no flight),
    # and going up the stance knee bent to 94°; it now jogs, quick steps with a flight
    starts = np.array([16.8, 17.4, 22.5, 23.5])
    ways = np.where(starts < 20.0, 1.0, -1.0)
    crowd = Crowd(RIG, COURSE, starts, ways)
    airborne, double, on_slope, knee = 0, 0, 0, 0.0
    for _ in range(300):
        crowd.step(ways, np.ones(starts.size), DT)
        record = {k: v[None] for k, v in _row(crowd).items()}
        on = (crowd.x > 18.7) & (crowd.x < 20.8)
        planted = crowd.feet.planted
        airborne += int((on & ~planted.any(axis=1)).sum())
        double += int((on & planted.all(axis=1)).sum())
        on_slope += int(on.sum())
        bends = np.where(planted, _knee_bends(record)[0], 0.0).max(axis=1)
        knee = max(knee, float(np.where(on, bends, 0.0).max()))
    assert airborne >= 0.15 * on_slope  # 23-24 % (0 before)
    assert double <= 0.03 * on_slope  # 0-1 % (15-18 % before)
    assert knee <= 75.0  # 63° (94° before)


def test_running_over_the_bump_no_planted_foot_holds_the_hip_back() -> None:
    # running right up the bump (80 runs: 3), the trailing foot reached the end of its roll
    # a step before its lift was due and held the hip: 2.2 m/s fell to 1.7 in one frame; a
    # foot whose leg cannot hold the hip where it goes now lifts that step
    starts = np.array([4.9872, 6.7821, 7.2308])
    crowd = Crowd(RIG, COURSE, starts, np.ones(starts.size))
    speed, worst = np.abs(crowd.vx), 0.0
    for _ in range(300):
        crowd.step(np.ones(starts.size), np.ones(starts.size), DT)
        drop = np.where((crowd.x > 6.0) & (crowd.x < 12.0), speed - np.abs(crowd.vx), 0.0)
        worst, speed = max(worst, float(drop.max())), np.abs(crowd.vx)
    assert worst <= 0.25  # 0.66 m/s before


def test_a_cup_on_a_stair_tread_stops_the_walk_before_it_not_over_it() -> None:
    # the cup set on the tread below the top landing (no room beside it for a
    # foot), then down from the landing: no step down was left, yet the body walked on out
    # over the flight, sinking until the legs stuck straight out behind it, 0.85 m past the
    # feet, for good (only F5 freed him). From either side he now stops before that tread
    cup = np.array([[15.27, 15.39, 1.16]])  # on the right flight's top tread (1.06 high)
    crowd = Crowd(RIG, COURSE, [14.3, 16.2], [1.0, -1.0])
    crowd.set_obstacles(cup)
    way = np.array([1.0, -1.0])
    stand = A + RIG.gait.stand_extension * RIG.legs.limb.reach
    for _ in range(int(6.0 / DT)):
        crowd.step(way, np.zeros(2), DT)
    ankles_x = crowd.solve().hand[:, LEGS, 0]
    assert (np.abs(crowd.vx) < 0.05).all() and crowd.feet.planted.all()  # stopped, standing
    assert np.abs(crowd.x - ankles_x.mean(axis=1)).max() <= 0.15  # over his feet (0.85 m)
    ground = COURSE.height_at(ankles_x).min(axis=1)
    assert (crowd.y - ground - stand).min() >= -0.1  # not sunk (0.3 m above the feet)
    assert crowd.x[0] < 15.27 and crowd.x[1] > 15.39  # short of the cup, either way
    assert crowd.blocked.all()  # ... and says why (the walk scene's hint)


def test_a_jog_ends_before_stairs_ahead_either_way_along_the_walk() -> None:
    # the jog's stairs check read its window along +x whatever the walk's direction: running
    # left, stairs 1.25 m ahead (within two strides and the stopping distance) went unseen
    ground = Terrain(
        np.array(
            [
                [-4.0, -0.48],
                [-3.15, -0.48],
                [-3.14, -0.32],
                [-2.15, -0.32],
                [-2.14, -0.16],
                [-1.16, -0.16],
                [-1.15, 0.0],
                [0.0, 0.0],
                [3.0, 1.0],
                [6.0, 1.0],
            ]
        )
    )  # a flight down to the left, flat, then a steep slope up to the right
    mirrored = Terrain((ground.points * np.array([-1.0, 1.0]))[::-1])
    for terrain, x, way in ((ground, 0.1, -1.0), (mirrored, -0.1, 1.0)):
        crowd = Crowd(RIG, terrain, [x], [way])
        crowd.vx[:] = 1.35 * way
        crowd.step([way], [1.0], DT)
        assert crowd.sprinting[0] and not crowd.jogging[0]


def test_let_go_of_on_a_flight_no_foot_steps_back_down_to_stand() -> None:
    # let go of the walk key as the feet reached a flight's first treads, a foot
    # stepped back down a tread (or to the floor) to make the standing stance: 5 of 40
    # walking and 2 of 40 running let-go moments did; a foot a riser above its standing
    # spot behind it now stays up
    delays = np.array([45, 48, 51, 27, 30])  # steps after the first foot is on the flight
    run = np.array([0.0, 0.0, 0.0, 1.0, 1.0])
    crowd = Crowd(RIG, COURSE, np.full(5, 10.6), np.ones(5))
    first_riser = FIRST_RISER_UP[1.0]
    on_flight_at = np.full(5, -1)
    last_lock = crowd.feet.lock[..., 0].copy()  # where each foot was last planted
    stepped_down_back = np.zeros((5, 2), dtype=bool)
    for i in range(420):
        on = crowd.feet.planted & (crowd.feet.lock[..., 0] > first_riser + 0.05)
        on_flight_at = np.where((on_flight_at < 0) & on.any(axis=1), i, on_flight_at)
        let_go = (on_flight_at >= 0) & (i >= on_flight_at + delays)
        was_up = ~crowd.feet.planted
        crowd.step(np.where(let_go, 0.0, 1.0), run, DT)
        landed = was_up & crowd.feet.planted
        lock = crowd.feet.lock[..., 0]
        lower = COURSE.height_at(lock) < COURSE.height_at(last_lock) - MIN_RISER
        stepped_down_back |= landed & (lock < last_lock - 0.05) & lower & let_go[:, None]
        last_lock = np.where(crowd.feet.planted, lock, last_lock)
    assert (np.abs(crowd.vx) < 0.02).all() and crowd.feet.planted.all()  # standing
    assert not stepped_down_back.any(), np.flatnonzero(stepped_down_back.any(axis=1))


def test_running_up_a_flight_the_first_two_feet_land_on_two_treads() -> None:
    # running onto a flight, the second foot came down beside the first on
    # the first tread (5 of 36 approaches; 8 on any tread): its step, planned as the body
    # slowed to the flight's pace, fell short of the next tread and no candidate lay there.
    # The middle of the tread beyond the other foot is now tried, and the other foot's
    # tread (or one below it) costs 0.4 m of miss
    starts = np.array([6.0, 10.0, 22.0, 21.0])
    ways = np.where(starts < 14.0, 1.0, -1.0)
    crowd = Crowd(RIG, COURSE, starts, ways)
    first = np.array([FIRST_RISER_UP[w] for w in ways])
    grounds: list[list[float]] = [[] for _ in starts]
    for _ in range(int(7.0 / DT)):
        was = crowd.feet.planted.copy()
        crowd.step(ways, np.ones(len(starts)), DT)
        for i, f in np.argwhere(crowd.feet.planted & ~was):
            x = float(crowd.feet.lock[i, f, 0])
            if (x - first[i]) * ways[i] > 0.0:
                grounds[i].append(float(COURSE.height_at(x)))
    for i, on_flight in enumerate(grounds):
        assert on_flight[1] > on_flight[0] + MIN_RISER, (starts[i], on_flight[:3])


@pytest.mark.parametrize("stop_x", [12.5, 12.6])
def test_turned_round_and_back_on_a_flight_no_heel_hangs_off_a_nose(stop_x: float) -> None:
    # stopped on a flight, turned round and back, a foot that pivoted about its
    # ball on a stair nose kept its heel out over the drop (up to 90 % of heel to ball 16 cm
    # over the tread below) until the next key press; it now re-squares onto its tread. (The
    # heel may overhang by HEEL_HANG, 3 cm: turned round about its ball on a 0.35 m tread no
    # spot keeps the whole sole on it both ways, and holding the heel's last centimetre on
    # cost every turn on a flight a fourth step, up a riser and back down)
    crowd = Crowd(RIG, COURSE, [10.8], [1.0])
    while float(crowd.x[0]) < stop_x:
        crowd.step([1.0], [0.0], DT)
    for facing in (-1.0, 1.0):
        crowd.turn_to(0, facing)
        for _ in range(39):
            crowd.step([0.0], [0.0], DT)
    for _ in range(int(3.0 / DT)):
        crowd.step([0.0], [0.0], DT)
    assert crowd.facing[0] == 1.0 and crowd.feet.planted.all() and not crowd.turning[0]
    lock = crowd.feet.lock[0, :, 0]
    heel = COURSE.height_at(lock - (RIG.legs.heel - HEEL_HANG))
    ball = COURSE.height_at(lock + RIG.legs.ball)
    assert (heel >= ball - MIN_RISER).all(), (lock, heel, ball)


def test_a_tap_to_turn_on_a_flight_turns_on_one_tread_not_up_a_riser_and_back() -> None:
    # stopped on a flight, a short tap of the other key took four steps: a foot
    # up the riser ahead to pivot, the pivot, then back down (the heel hung off the nose),
    # leaving him split across the riser. Walking down either flight, stopped where that
    # happened (before: 7 of 35 stops), a 0.33 s tap now turns him on one tread
    lets = np.array([88, 120, 148, 88, 116, 120, 148])  # steps walked down before letting go
    ways = np.array([-1.0, -1.0, -1.0, 1.0, 1.0, 1.0, 1.0])
    crowd = Crowd(RIG, COURSE, np.where(ways < 0, 14.6, 14.0), ways)
    heights: list[list[float]] = [[] for _ in lets]
    for i in range(int(lets.max()) + 60 + 40 + 180):
        t = i - lets
        crowd_move = np.where(t < 0, ways, np.where((t >= 60) & (t < 100), -ways, 0.0))
        was = crowd.feet.planted.copy()
        crowd.step(crowd_move, np.zeros(len(lets)), DT)
        for k, f in np.argwhere(crowd.feet.planted & ~was & (t >= 60)[:, None]):
            heights[k].append(float(COURSE.height_at(crowd.feet.lock[k, f, 0])))
    assert (crowd.facing == -ways).all() and crowd.feet.planted.all()
    for k, landed in enumerate(heights):
        assert len(landed) <= 4, (lets[k], ways[k], landed)  # square, pivot, settle
        assert max(landed) - min(landed) < MIN_RISER, (lets[k], ways[k], landed)  # one tread


def test_let_go_of_on_a_flight_he_stands_straight_on_one_tread_or_one_foot_up() -> None:
    # stopping on a flight, a step to stand went a tread further on (the other foot's
    # tread cost it 0.4 m of miss, as when walking on), and with both feet on one tread and
    # the pelvis still over the riser below it he stood with both knees bent 70°
    delays = np.array([30, 42, 93])  # steps after the first foot is on the flight
    crowd = Crowd(RIG, COURSE, np.full(3, 10.6), np.ones(3))
    on_flight_at = np.full(3, -1)
    for i in range(480):
        on = crowd.feet.planted & (crowd.feet.lock[..., 0] > FIRST_RISER_UP[1.0] + 0.05)
        on_flight_at = np.where((on_flight_at < 0) & on.any(axis=1), i, on_flight_at)
        let_go = (on_flight_at >= 0) & (i >= on_flight_at + delays)
        crowd.step(np.where(let_go, 0.0, 1.0), np.zeros(3), DT)
    sol = crowd.solve()
    assert (np.abs(crowd.vx) < 0.02).all() and crowd.feet.planted.all()  # standing
    hips, knees, ankles = crowd.pose.roots[:, LEGS], sol.elbow[:, LEGS], sol.hand[:, LEGS]
    bend = _knee_bends({"hips": hips[None], "knees": knees[None], "ankles": ankles[None]})[0]
    grounds = COURSE.height_at(crowd.feet.lock[..., 0])
    together = np.abs(grounds[:, 0] - grounds[:, 1]) < 0.01
    # on one tread both legs straight; astride a riser, one foot up on the step above
    assert (bend[together] <= 30.0).all(), (grounds, bend)
    assert (bend.min(axis=1) <= 30.0).all(), (grounds, bend)


def test_running_onto_the_steep_slope_no_lunge_then_crouch() -> None:
    # running onto the steep slope, a step planned on the flat for the run's pace landed
    # 1.4 m ahead and 0.3 m up, the body, held to the climb's pace there, lunged, and the
    # pelvis (rising at most 0.58 m/s while the slope itself climbs 0.42) stayed crouched:
    # 23-24 cm low, the stance knee over 70° for 0.6 s. A step is now aimed for the climb's
    # pace where it lands, and a running pelvis left low rises back at the slope's pace more
    walkers = {x: Walker(x, 1.0, (Phase(1.0, 1.0, 420),)) for x in (16.9, 14.6)}
    for x, record in _walk_together(COURSE, walkers).items():
        on = (record["x"] > 18.3) & (record["x"] < 20.0)
        stance = np.where(record["planted"], _knee_bends(record), 0.0).max(axis=1)
        assert (stance[on] > 70.0).sum() * DT <= 0.35, x
        assert _below_standing(record, COURSE)[on].min() >= -0.15, x


def test_a_run_let_go_of_for_an_instant_walks_on_without_a_lunge() -> None:
    # running, Shift and the key let go of and the key pressed again at once
    # (3 frames without intent): the stop re-aimed a swing beside the other foot, the walk
    # then lifted the front foot and the hip ran 0.9 m past the one left behind: the pelvis
    # sank 33 cm and the knee bent to 107-115° (35 of 90 such switches)
    release = np.array([1.8, 1.85, 1.9, 2.9, 3.95, 4.55])
    n = len(release)
    crowd = Crowd(RIG, COURSE, np.full(n, -1.5), np.ones(n))
    switched = np.full(n, -1)
    rows = []
    for i in range(int(4.0 / DT)):
        gap = (switched >= 0) & (i - switched < 3)
        crowd.step(np.where(gap, 0.0, 1.0), np.where(switched >= 0, 0.0, 1.0), DT)
        switched = np.where((switched < 0) & (crowd.x >= release), i, switched)
        sol = crowd.solve()
        row = {"hips": crowd.pose.roots[:, LEGS], "knees": sol.elbow[:, LEGS]}
        rows.append(row | {"ankles": sol.hand[:, LEGS], "pelvis": crowd.pose.pelvis})
        rows[-1]["live"] = (switched >= 0) & (i - switched < int(1.5 / DT))
        rows[-1]["planted"] = crowd.feet.planted.copy()
    live, planted = _stack(rows, "live"), _stack(rows, "planted")
    assert live.any(axis=0).all()  # every one switched to the walk
    for k in range(n):
        record = {key: _stack(rows, key)[:, k] for key in ("hips", "knees", "ankles", "pelvis")}
        bend = np.where(planted[:, k], _knee_bends(record), 0.0).max(axis=1)
        low = _below_standing(record, COURSE)
        assert bend[live[:, k]].max() < 95.0, (release[k], bend[live[:, k]].max())  # 107-115
        assert low[live[:, k]].min() > -0.22, (release[k], low[live[:, k]].min())  # 33 cm


def test_a_blip_of_the_other_key_in_a_run_leaves_no_glide() -> None:
    # running, a 0.07 s press of the other key (too short for the walk scene to
    # take it for a turn) re-aimed the swings in the air for the reversal's stop, behind the
    # running hip; dropped, they hovered there, and no foot touched the ground for up to
    # 0.8 s (a glide; median over these starts 27 frames, a plain run's flight is 9)
    release = np.arange(0.8, 3.0, 0.1)
    n = len(release)
    crowd = Crowd(RIG, COURSE, np.full(n, -1.5), np.ones(n))
    blip = np.full(n, -1)
    air, longest = np.zeros(n, int), np.zeros(n, int)
    for i in range(int(3.5 / DT)):
        pressed = (blip >= 0) & (i - blip < 4)
        crowd.step(np.where(pressed, -1.0, 1.0), np.where(pressed, 0.0, 1.0), DT)
        after = (blip >= 0) & (i - blip < int(1.5 / DT))
        blip = np.where((blip < 0) & (crowd.x >= release), i, blip)
        air = np.where(crowd.feet.planted.any(axis=1), 0, air + 1)
        longest = np.where(after, np.maximum(longest, air), longest)
    assert (crowd.facing == 1.0).all() and (blip >= 0).all()
    assert np.median(longest) <= 20, longest  # 27 before
    assert longest.max() <= 40, longest  # 49 before


def test_turned_round_at_a_slopes_foot_the_heel_rises_out_of_the_rise() -> None:
    # stopped just before the gentle slope and turned round, the foot pivoted
    # about its ball on the flat and its heel swung onto the rise: he stood with it 10 mm
    # inside the slope for as long as he stood (a pivot spot lets the ball hover 12 mm). It
    # now rises onto the ground, at most 0.5 mm a step (a planted foot's contact may move)
    lets = np.array([84, 86, 88, 90])  # steps walked from x 1.2 before letting go
    n = len(lets)
    crowd = Crowd(RIG, COURSE, np.full(n, 1.2), np.ones(n))
    depth, rise = np.zeros(n), np.zeros(n)
    for i in range(int(lets.max()) + 60 + 150):
        t = i - lets
        for k in np.flatnonzero(t == 60):
            crowd.turn_to(int(k), -1.0)
        before = crowd.feet.lock[..., 1].copy()
        crowd.step(np.where(t < 0, 1.0, 0.0), np.zeros(n), DT)
        feet = crowd.feet
        done = (t > 60) & (crowd.facing < 0) & ~crowd.turning & feet.planted.all(axis=1)
        flat = np.zeros_like(feet.angle)
        soles = sole_points(feet.lock, feet.angle, flat, crowd.facing[:, None], RIG.legs)
        depth = (COURSE.height_at(soles[..., 0]) - soles[..., 1]).max(axis=(1, 2))
        rise = np.where(done, np.maximum(rise, (feet.lock[..., 1] - before).max(axis=1)), rise)
    assert (crowd.facing < 0).all()
    assert depth.max() < 1e-3, depth  # 10 mm for good before
    assert rise.max() <= 0.0005, rise


def test_every_bone_keeps_its_length_through_walks_runs_and_pivots() -> None:
    crowd = Crowd(RIG, FLAT, np.array([0.0, 3.0]), np.array([1.0, -1.0]))
    upper = np.array([RIG.arms.limb.upper] * 2 + [RIG.legs.limb.upper] * 2)
    lower = np.array([RIG.arms.limb.lower] * 2 + [RIG.legs.limb.lower] * 2)
    worst = 0.0
    for move, run, steps in ((1.0, 0.0, 90), (1.0, 1.0, 90), (-1.0, 0.0, 120), (0.0, 0.0, 60)):
        for _ in range(steps):
            crowd.step(np.full(2, move), np.full(2, run), DT)
            sol = crowd.solve()
            roots = crowd.pose.roots
            first = np.linalg.norm(sol.elbow - roots, axis=-1) - upper
            second = np.linalg.norm(sol.hand - sol.elbow, axis=-1) - lower
            worst = max(worst, float(np.abs(first).max()), float(np.abs(second).max()))
    assert worst <= 1e-9
