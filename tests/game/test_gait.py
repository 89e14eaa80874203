"""Foot placement and the gait cycle: rolling feet, landing spots, swings, speed curves,
runs, turns. Motion is checked on short headless runs from solved poses; the runs on one
terrain are stepped together in one crowd (:func:`_play_together`: a test's loop is a
play that yields each step's inputs), a character's run exactly what it would be alone."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Generator
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.typing import ArrayLike

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
from game.world.sample_grounds import stairs_up_and_down
from game.world.swing import swing_pose, within_reach
from game.world.terrain import Terrain

RIG = load_rig(ASSETS_DIR / "rig.json")
A = RIG.legs.ankle_height
# flat, one 0.17 m stair at x = 1, flat, then a 1 m wall at x = 3
STAIR = Terrain(
    np.array([[-5.0, 0.0], [1.0, 0.0], [1.01, 0.17], [3.0, 0.17], [3.01, 1.17], [8.0, 1.17]])
)
FLAT = Terrain(np.array([[-30.0, 0.0], [30.0, 0.0]]))


STAIRS = stairs_up_and_down(0.16, 0.34, 4)
DT = 1.0 / 60.0


def _row(crowd: Crowd) -> dict[str, np.ndarray]:
    """What the tests read of every character after a step and its solve; the joints as
    the side view draws them (a pivot's limbs foreshortened)."""
    sol = seen_from_the_side(crowd.pose, crowd.solution)
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
        "y": crowd.y.copy(),
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
        crowd.solve()
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


Moves = tuple[ArrayLike, ArrayLike]  # the move and run inputs of a play's characters
Play = Generator[Moves, None, Any]


@dataclass(frozen=True)
class Cast:
    """A play's characters, their starts (pelvis ``x``, ``facing``, each (n,)) and the play:
    ``play(crowd, rows)`` gets the crowd and its characters' rows in it, yields their
    inputs for each step (the crowd then steps and solves: the solve moves nothing but the
    knee-flip counts, no foot being pinned) and returns its figures."""

    x: ArrayLike
    facing: ArrayLike
    play: Callable[[Crowd, slice], Play]


def _play_together(
    terrain: Terrain, casts: dict[Any, Cast], obstacles: ArrayLike = ()
) -> dict[Any, Any]:
    """Each cast's play on ``terrain`` (``obstacles`` set down on it:
    :meth:`Crowd.set_obstacles`), all in one crowd, and by name the figures each returned;
    the characters of a play that is done stand still.

    Characters do not interact: stepped together each moves exactly as it would alone (bit
    for bit), so one run serves many tests at the cost of little more than one (a crowd's
    step costs nearly the same for 1 character as for 200).
    """
    starts = {name: np.atleast_1d(np.asarray(cast.x, dtype=float)) for name, cast in casts.items()}
    rows, first = {}, 0
    for name, x in starts.items():
        rows[name], first = slice(first, first + x.size), first + x.size
    facing = [
        np.broadcast_to(np.asarray(c.facing, dtype=float), starts[n].shape)
        for n, c in casts.items()
    ]
    crowd = Crowd(RIG, terrain, np.concatenate(list(starts.values())), np.concatenate(facing))
    crowd.set_obstacles(obstacles)
    plays = {name: cast.play(crowd, rows[name]) for name, cast in casts.items()}
    figures: dict[str, Any] = {}
    while True:
        move, run = np.zeros(crowd.count), np.zeros(crowd.count)
        for name, play in list(plays.items()):
            try:
                move[rows[name]], run[rows[name]] = next(play)
            except StopIteration as done:
                figures[name] = done.value
                del plays[name]
        if not plays:
            return figures
        crowd.step(move, run, DT)
        crowd.solve()


def _scripted(walkers: dict[Any, Walker]) -> Callable[[Crowd, slice], Play]:
    """The play of ``walkers``' scripts; its figures are each walker's record: every
    :func:`_row` key for that character and ``phase`` (the phase it was in) after each of
    its steps; a walker whose script is done stands still and records no more."""
    scripts = list(walkers.values())

    def play(crowd: Crowd, rows: slice) -> Play:
        phase = [0] * len(scripts)  # each walker's phase, and the steps it has taken in it
        taken = [0] * len(scripts)
        records, going = [], []
        while True:
            for n, walker in enumerate(scripts):
                while phase[n] < len(walker.phases) and walker.phases[phase[n]].over(
                    crowd, rows.start + n, taken[n]
                ):
                    phase[n], taken[n] = phase[n] + 1, 0
            now = [p < len(w.phases) for p, w in zip(phase, scripts, strict=True)]
            if not any(now):
                break
            held = [
                w.phases[p] if on else STAND for p, w, on in zip(phase, scripts, now, strict=True)
            ]
            yield np.array([h.move for h in held]), np.array([h.run for h in held])
            row = {key: value[rows] for key, value in _row(crowd).items()}
            records.append(row | {"phase": np.array(phase)})
            going.append(now)
            taken = [t + 1 for t in taken]
        mask = np.array(going)
        columns = {key: np.stack([row[key] for row in records]) for key in records[0]}
        return {
            name: {key: column[mask[:, n], n] for key, column in columns.items()}
            for n, name in enumerate(walkers)
        }

    return play


def _cast(walkers: dict[Any, Walker]) -> Cast:
    """``walkers`` cast in their :func:`_scripted` play."""
    scripts = walkers.values()
    return Cast([w.x for w in scripts], [w.facing for w in scripts], _scripted(walkers))


def _walk_together(terrain: Terrain, walkers: dict[Any, Walker]) -> dict[Any, Record]:
    """Each walker's script stepped in one crowd on ``terrain``, and its record
    (:func:`_scripted`)."""
    return _play_together(terrain, {"walkers": _cast(walkers)})["walkers"]


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
OFF_THE_FLIGHT = np.linspace(13.5, 15.1, 9)  # start x: walking left down a flight, on up the bump
ROLLING = np.linspace(-5.0, 5.0, 6)  # start x: walking 2 s on flat ground


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
    for x in ROLLING:
        walkers["rolling", x] = Walker(x, 1.0, (Phase(1.0, 0.0, 120),))
    return walkers


ON_FLAT: dict[str, Cast] = {"walkers": _cast(_flat_walkers())}  # and the plays below


@pytest.fixture(scope="module")
def on_flat() -> dict[str, Any]:
    """The figures of every play of :data:`ON_FLAT`, stepped together on :data:`FLAT`."""
    return _play_together(FLAT, ON_FLAT)


@pytest.fixture(scope="module")
def flat(on_flat: dict[str, Any]) -> dict[Any, Record]:
    """The record of each of :func:`_flat_walkers`."""
    return on_flat["walkers"]


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
        # tread a step, ~0.65 m/s)
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
    for start in OFF_THE_FLIGHT:
        walkers["off the flight", start] = Walker(start, -1.0, (Phase(-1.0, 0.0, 420),))
    return walkers


@pytest.fixture(scope="module")
def open_end() -> dict[Any, Record]:
    """Walking and running (by run) to the open end of the world at x = 3."""
    ground = Terrain(np.array([[-30.0, 0.0], [3.0, 0.0]]))
    return _walk_together(
        ground, {run: Walker(0.0, 1.0, (Phase(1.0, run, 240),)) for run in (0.0, 1.0)}
    )


# (start x, facing) of the runs across the course, held with the walk key and Shift: over
# the flights (from before them, from the landing), onto and over the top landing, over
# the bump, on the steep slope, off the stairs onto it (twelve starts), onto it
RUNS_QUICKER = [(8.8, 1.0), (19.5, -1.0), (14.3, 1.0), (14.3, -1.0)]  # up and down a flight
RUNS_ONTO_LANDING = [(11.54, 1.0), (17.02, -1.0)]
RUNS_OVER_BUMP = [(x, 1.0 if x < 8.0 else -1.0) for x in np.linspace(3.0, 7.0, 21)]
RUNS_OVER_BUMP += [(x, -1.0) for x in np.linspace(11.6, 13.0, 8)]
RUNS_HOLDING_BACK = [(4.9872, 1.0), (6.7821, 1.0), (7.2308, 1.0)]  # the roll ends a step early
RUNS_ON_STEEP = [(16.8, 1.0), (17.4, 1.0), (22.5, -1.0), (23.5, -1.0)]
RUNS_OFF_STAIRS = [(x, 1.0) for x in np.linspace(6.0, 11.5, 12)]
RUNS_UP_FLIGHTS = [(6.0, 1.0), (10.0, 1.0), (22.0, -1.0), (21.0, -1.0)]
RUNS_ONTO_STEEP = [(16.9, 1.0), (14.6, 1.0)]
# name: (starts, steps); the runs off the stairs end sooner, once past the steep slope's top
COURSE_RUNS = {
    "quicker": (RUNS_QUICKER, 420),
    "onto landing": (RUNS_ONTO_LANDING, 300),
    "over bump": (RUNS_OVER_BUMP, 300),
    "holding back": (RUNS_HOLDING_BACK, 300),
    "on steep": (RUNS_ON_STEEP, 300),
    "off stairs": (RUNS_OFF_STAIRS, 900),
    "up flights": (RUNS_UP_FLIGHTS, 420),
    "onto steep": (RUNS_ONTO_STEEP, 420),
}
COURSE_RUNS_UNTIL = {"off stairs": STEEP[1]}  # name: the x that ends its runs


def _course_run_walkers() -> dict[Any, Walker]:
    """The runs of :data:`COURSE_RUNS`, by ``("run", name, n)``: ``n`` the start's index."""
    walkers = {}
    for name, (starts, steps) in COURSE_RUNS.items():
        end = COURSE_RUNS_UNTIL.get(name)
        for n, (x, facing) in enumerate(starts):
            until = None if end is None else _reached(end, facing)
            walkers["run", name, n] = Walker(x, facing, (Phase(facing, 1.0, steps, until),))
    return walkers


ON_COURSE = {"walkers": _cast(_course_walkers() | _course_run_walkers())}  # and plays below


@pytest.fixture(scope="module")
def on_course() -> dict[str, Any]:
    """The figures of every play of :data:`ON_COURSE`, stepped together on :data:`COURSE`."""
    return _play_together(COURSE, ON_COURSE)


@pytest.fixture(scope="module")
def course(on_course: dict[str, Any]) -> dict[Any, Record]:
    """The record of each of :func:`_course_walkers`."""
    return {name: on_course["walkers"][name] for name in _course_walkers()}


@pytest.fixture(scope="module")
def course_runs(on_course: dict[str, Any]) -> dict[str, list[Record]]:
    """By name in :data:`COURSE_RUNS`, the record of each run from its starts (in order),
    each for its own number of steps (or until past its :data:`COURSE_RUNS_UNTIL`)."""
    records = on_course["walkers"]
    return {
        name: [records["run", name, n] for n in range(len(starts))]
        for name, (starts, _) in COURSE_RUNS.items()
    }


def _columns(records: list[Record], key: str) -> np.ndarray:
    """``key`` of runs of as many steps, side by side: (T, runs, ...)."""
    return np.stack([record[key] for record in records], axis=1)


def _landed_locks(record: Record) -> list[np.ndarray]:
    """The lock (x, y) of each foot landing in ``record``, in order (both feet are down at
    the start)."""
    planted = record["planted"]
    before = np.concatenate([np.ones((1, 2), dtype=bool), planted[:-1]])
    return [record["lock"][t, f] for t, f in np.argwhere(planted & ~before)]


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
    # taken instead must still fit a tread, level, the whole sole on it (a sole laid across
    # a stair nose tilts onto the nose, its ball hovering over the tread below)
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
    # every step from the landing's end down the flight, 0.3-1.3 m long, locks the foot on
    # the ground, never in the air over a tread. The risers are 1 cm deep (as on the demo's
    # course), so a heel a millimetre past a nose lies on a riser's steep slope: a sole is
    # judged as it will rest, tilted to its heel→toe chord, and there it rests on the nose
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
    # set off running on top of the 1 m wall (a loft's edge), its drop a stride behind: the
    # speed cap reads the slope from a stride behind (the trailing foot pushes off there),
    # but a drop taller than a step is no ramp to climb, so the run reaches full speed
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


RIGHT_LEG = 3  # the right leg's limb index (game.world.rig.LIMBS)


HELD_FEET = 20  # held feet searched per example: one character each, all in one crowd


def _held_feet(crowd: Crowd, targets: np.ndarray, steps: int) -> None:
    """Step ``crowd`` ``steps`` times standing, each character's right foot held at its
    row of ``targets`` (N, 2) as the mouse holds a dragged foot."""
    n = crowd.count
    pinned = np.tile([False, True], (n, 1))
    for _ in range(steps):
        for k in range(n):
            crowd.pin_foot(k, 1, targets[k])
        crowd.step(np.zeros(n), np.zeros(n), DT, pinned=pinned)


# Hypothesis tries the simplest batch first, then random ones: the characters of a crowd do
# not interact (test_a_walker_stepped_with_others_moves_exactly_as_it_would_alone), so a
# batch of HELD_FEET searches as many held feet as HELD_FEET examples of one character
@settings(max_examples=3)
@given(
    st.lists(
        st.tuples(
            st.floats(-math.pi, math.pi),  # the angle round the hip from straight down
            st.floats(0.05, 1.2),  # the distance from the hip
            st.sampled_from([1.0, -1.0]),  # the facing
        ),
        min_size=HELD_FEET,
        max_size=HELD_FEET,
    )
)
def test_a_foot_held_anywhere_round_the_hip_keeps_the_thigh_in_the_hips_range_knee_in_front(
    held: list[tuple[float, float, float]],
) -> None:
    # the mouse holds the foot anywhere round the hip (above it too), for 0.5 s (time for
    # the leg to swing there from standing): the held ankle keeps the pointer's distance
    # from the hip, or comes in toward it as far as its sole clears the floor; the leg,
    # solved with its hinge pole, swings its thigh at most hip_flexion forward and
    # hip_extension back of hanging straight down, the knee bent forward (the shin swung
    # back from it)
    angle, distance, facing = (np.array(column) for column in zip(*held, strict=True))
    crowd = Crowd(RIG, FLAT, np.zeros(len(held)), facing)
    hip = crowd.pose.roots[:, RIGHT_LEG].copy()
    _held_feet(crowd, hip + distance[:, None] * np.stack([np.sin(angle), -np.cos(angle)], -1), 30)
    solution = crowd.solve()
    for n, case in enumerate(held):
        _assert_held_round_the_hip(crowd, solution, n, case)


def _assert_held_round_the_hip(
    crowd: Crowd, solution: Any, n: int, case: tuple[float, float, float]
) -> None:
    """The rules of the test above for character ``n``, whose foot was held as ``case``."""
    distance, facing = case[1], case[2]
    held = crowd.pose.targets[n, RIGHT_LEG] - crowd.pose.roots[n, RIGHT_LEG]
    sole = sole_points(crowd.pose.targets[n, RIGHT_LEG], 0.0, 0.0, facing, RIG.legs)
    if not math.isclose(float(np.hypot(*held)), distance, rel_tol=1e-9):  # come in ...
        assert float(np.hypot(*held)) < distance, case
        assert 0.0 <= sole[:, 1].min() + 1e-9 <= 3e-3, case  # ... onto the floor
    assert sole[:, 1].min() >= -1e-9, case
    hip, knee = crowd.pose.roots[n, RIGHT_LEG], solution.elbow[n, RIGHT_LEG]
    ankle = solution.hand[n, RIGHT_LEG]

    def swing(v: np.ndarray) -> float:  # radians from straight down, toward the facing
        return math.atan2(facing * v[0], -v[1])

    thigh, shin = swing(knee - hip), swing(ankle - knee)
    # (the solver's soft reach shortens a leg near full stretch a little: the thigh may
    # pass its bound by thousandths of a degree)
    tune, tol = RIG.tuning, 1e-3
    assert -math.radians(tune.hip_extension) - tol <= thigh, case
    assert thigh <= math.radians(tune.hip_flexion) + tol, case
    assert math.remainder(thigh - shin, math.tau) >= -tol, case  # the knee bends forward


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
    # walking, and running (Shift: held to the flight's pace on it), up, over and down the
    # stairs: no sole point goes more than 5 mm into them and a planted foot's contact
    # stays put (0.5 mm a step)
    record = stairs["over", run]
    assert record["x"][-1] > 6.0  # up, over and down
    soles = record["soles"]  # (T, 2, 3, 2)
    assert sole_penetration(STAIRS, soles).max() <= 0.005
    planted = record["planted"]
    still = planted[1:] & planted[:-1]
    moved = np.linalg.norm(soles[1:, :, :2] - soles[:-1, :, :2], axis=-1).min(axis=-1)
    assert moved[still].max() <= 0.0005
    # no knee or ankle moves more than 10 cm in a step relative to the pelvis, where stairs
    # make a jump likeliest: a toe lifting off against a riser going up, a heel passing a
    # stair nose going down, and off the flight's top, where the body speeds up and the
    # trailing foot must lift in time rather than catch up in one long swing
    pelvis = record["pelvis"]
    legs = record["joints"][:, [2, 3, 6, 7]]  # knees, ankles
    jump = np.linalg.norm(legs[1:] - legs[:-1] - (pelvis[1:] - pelvis[:-1])[:, None], axis=-1)
    assert jump.max() <= 0.10


def test_walking_the_course_stairs_the_knees_bend_as_a_persons_one_tread_a_step_down(
    course: dict[Any, Record],
) -> None:
    # walking up the course's flight, over the landing and down the other: the stance knee
    # bends no more than 85° and the pelvis stays within 18 cm of standing over the lower
    # foot (a person walks down stairs upright, not in a crouch a rise low); and down the
    # flight the feet take one tread a step (a drop of at most 17 cm), never two at a
    # time: the pace on a flight is a tread a step, not a ramp's speed
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
    # walking off the landing, from 1.2 m before its edge, and down the flight: the body
    # slows to the flight's pace before the edge, so the first step down is taken from a
    # foot near the edge, not from one far back on the landing (a long step down lowers the
    # pelvis and bends the knee left behind); no crouch at the edge: the stance knee bends
    # at most 72° and the pelvis stays within 8 cm of standing
    record = course["landing"]
    assert record["x"][-1] > 16.6  # down the flight
    assert _knee_bends(record)[record["planted"]].max() <= 72.0
    assert _below_standing(record, COURSE).min() >= -0.08


def test_walking_off_the_foot_of_a_flight_onto_a_rise_the_steps_keep_up_with_the_body(
    course: dict[Any, Record],
) -> None:
    # walking left down the course's left flight and on up the bump, from nine starts: off
    # the flight's foot the body speeds up from the flight's pace, and the steps keep up
    # with it, each landing ahead of the hip (a step landing beside the hip leaves the next
    # to be taken from behind, the pelvis sinking on a bent stance knee). On the bump's
    # flank the stance knee bends at most 75° and the pelvis stays within 7 cm of standing
    for start in OFF_THE_FLIGHT:
        record = course["off the flight", start]
        on_rise = (record["x"] > 9.3) & (record["x"] < 11.3)  # the bump's flank
        assert on_rise.any()
        stance = np.where(record["planted"], _knee_bends(record), 0.0).max(axis=1)
        assert stance[on_rise].max() <= 75.0
        assert _below_standing(record, COURSE)[on_rise].min() >= -0.07


@pytest.mark.parametrize("pause", LANDING_PAUSES)
def test_turning_round_on_the_course_landing_then_down_takes_one_tread_a_step(
    pause: int, course: dict[Any, Record]
) -> None:
    # up the flight onto the landing, stopped there or not, turned round and walked back
    # down: no crouch at the top of the stairs. The first step down is a tread's, taken
    # from a foot near the landing's edge (one from the landing's back lands two risers
    # down), so at each landing the feet are at most one rise apart and no stance knee on
    # the flight bends past 85°
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
    # a spot squared up on a 0.34 m tread fits the sole facing either way, or the heel goes
    # into the riser behind; no sole point goes more than 5 mm into the stairs and no joint
    # moves more than 10 cm in a step through the turn
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
    # feet on two treads, each foot comes to rest flat on its tread (within 1°)
    record = stairs["stop", facing, start, stop]
    assert record["planted"][-1].all() and abs(float(record["vx"][-1])) < 0.05
    assert np.abs(record["pitch"][-1]).max() <= np.radians(1.0)
    assert sole_penetration(STAIRS, record["soles"][-1]).max() <= 0.005


@pytest.mark.parametrize(("run", "steps"), REVERSALS)
def test_reversing_brakes_over_its_rolled_feet_instead_of_stopping_dead(
    run: float, steps: int, flat: dict[Any, Record]
) -> None:
    # the other key pressed walking (1.35 m/s) or running (2.6 m/s): the hip brakes over
    # feet still rolled onto their balls, carried over them as a person's is, rather than
    # stopping dead where a flat foot's reach would hold it
    record = flat["reverse", run, steps]
    before = float(record["vx"][record["phase"] == 0][-1])
    vx = np.concatenate([[before], _from(record, 1)["vx"]])
    # a halflife brake loses at most v·(1 − 2^(−dt/h)) a step: 0.18 m/s from a run (and
    # setting off the other way after the pivot gains less)
    assert np.max(-np.diff(vx)) <= 0.2
    # ... and it comes to rest within the second: a halflife alone approaches zero without
    # reaching it, and the body would crawl on over its rolled feet
    assert before > 1.3 and np.abs(vx).min() < 0.05


@pytest.mark.parametrize(("run", "steps"), TURNS)
def test_turning_round_takes_at_most_1_3_seconds(
    run: float, steps: int, flat: dict[Any, Record]
) -> None:
    # walking or running, then the other key at five moments of the stride: braking,
    # squaring up and the pivot take at most 1.3 s until he moves off the other way at
    # 0.5 m/s. Each stage ends promptly for that: the brake comes to rest rather than crawl,
    # a foot already on its pivot spot does not step again, squaring steps are quick and
    # land flat, and the pivot waits neither for the roll to settle nor for a foot a few
    # centimetres off its spot
    vx = _from(flat["timed turn", run, steps], 1)["vx"]
    back = int(np.argmax(vx < -0.5))  # moving the other way: braked, squared, pivoted
    assert vx[back] < -0.5 and back * DT <= 1.3


@pytest.mark.parametrize(("steps", "limit"), SQUARING)
def test_a_short_squaring_step_is_quick(steps: int, limit: float, flat: dict[Any, Record]) -> None:
    # the key to go the other way, from standing facing away or after walking 2-2.7 s: a
    # foot a short way off its pivot spot squares up in a short swing, and the pivot starts
    # as that foot comes down, so he moves off within the limit (0.45-0.95 s) instead of
    # standing still facing the old way, then turning
    way = -1.0 if steps else 1.0  # back the way he came, or away from where he faces
    vx = _from(flat["square", steps], 1)["vx"]
    moving = vx * way > 0.1
    assert moving.any() and np.argmax(moving) * DT <= limit


def test_running_up_a_flight_is_quicker_than_walking_it_one_tread_a_step(
    course_runs: dict[str, list[Record]],
) -> None:
    # Shift on a flight runs it quicker than the walk's stair pace (~0.7 m/s), still a
    # tread a step: up the left flight, up the right one, and down each
    runs = course_runs["quicker"]
    flights = np.array([[12.0, 13.4], [15.16, 16.56], [15.16, 16.56], [12.0, 13.4]])
    x, speed = _columns(runs, "x"), np.abs(_columns(runs, "vx"))
    assert (speed[:-1] - speed[1:]).max() <= 0.3  # never held back on the way
    for n, (lo, hi) in enumerate(flights):
        on = (x[:, n] > lo) & (x[:, n] < hi)
        assert on.sum() > 30
        assert np.median(speed[on, n]) >= (0.95 if n < 2 else 0.9)  # up, down
        # (the steps onto and off the flight too: quicker, they fall further out)
        heights = np.array([y for x, y in _landed_locks(runs[n]) if lo - 0.4 < x < hi + 0.4])
        assert len(heights) >= 5  # over the whole flight, a riser a step at most
        assert np.abs(np.diff(heights)).max() <= 0.16 + 1e-6


def test_running_off_the_stairs_onto_the_slope_keeps_the_pelvis_up(
    course_runs: dict[str, list[Record]],
) -> None:
    # running from twelve starts over both flights and onto the steep slope 2 m past the
    # right flight's foot: the quick stair steps down the flight leave the feet where the
    # run meets the slope in stride, not in a lunge and then a crouch; in the median the
    # pelvis's lowest on the slope is within 12 cm of standing
    stand = A + RIG.gait.stand_extension * RIG.legs.limb.reach
    lowest = []
    for record in course_runs["off stairs"]:  # each played until past the slope's top
        x, y = record["x"], record["y"]
        assert x[-1] >= STEEP[1]
        on = (x > 18.0) & (x < STEEP[1])
        lowest.append(np.where(on, y - COURSE.height_at(x) - stand, np.inf).min())
    assert np.isfinite(lowest).all()  # every one ran onto the slope
    assert np.median(lowest) >= -0.12


def test_speeding_up_into_a_run_on_the_course_never_stops_the_hip_dead(
    course: dict[Any, Record],
) -> None:
    # running over each flight, up the steep slope and down the descent: where a flight's
    # or a slope's speed cap lifts, the body speeds up under a step timed for the slower
    # pace, and the trailing foot, rolled to its limit, lifts rather than wait for the
    # other to land and hold the hip (a split-leg stall); the speed never falls more than
    # 0.35 m/s in a step
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
    # running at a flight from the bump or the descent: the run sees the flight's pace from
    # far enough to slow gently (at most 2.5 m/s² over a quarter second) to the quicker
    # pace it runs up a flight at, not braking hard within the stopping distance, which
    # leaves the feet wide apart
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
    # walking up a flight from 2.6-5 m before it: the pelvis reads the ground a riser ahead
    # as it comes, so it rises with the climb, not only once over a tread; stepping onto
    # the flight the planted knee bends at most 70°, and each stance knee on the flight,
    # once loaded (after the landing's first 0.1 s), only straightens as the body rises
    # over it (at most 5° more bend): a person pushes up a flight, never squats at its foot
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
    # walking up a flight from eight approaches, the feet take a tread each, never two
    # landings in a row on one tread: a step onto the first tread from far back leaves the
    # other foot too far behind to reach the second. So a step onto the other foot's tread
    # of a flight costs as much as landing 0.2 m off its spot, and a step is aimed for where
    # the hip will be as it slows for the flight, not for the pace where it set off
    together = 0
    for start, facing in CLIMB_FROM:
        riser = FIRST_RISER_UP[facing]
        flight = sorted((riser, riser + facing * 1.41))
        xs = [x for x in _landings(course["climb", start, facing]) if flight[0] < x < flight[1]]
        treads = [round(float(COURSE.height_at(x)), 3) for x in xs]
        assert len(treads) >= 4 and treads[0] < treads[-1]  # up the flight
        together += sum(a == b for a, b in zip(treads, treads[1:], strict=False))
    assert together == 0


def test_running_onto_the_top_landing_does_not_hold_the_hip(
    course_runs: dict[str, list[Record]],
) -> None:
    # running up onto the landing between the flights, from either side: a foot at the end
    # of its swing a centimetre or so out of reach of its spot (the pelvis a little high)
    # lands that little short of it, rather than hover while the other leg, at full
    # stretch, holds the hip; the speed never falls more than 0.3 m/s in a step
    runs = course_runs["onto landing"]
    ways = np.array([facing for _, facing in RUNS_ONTO_LANDING])
    speed = np.abs(_columns(runs, "vx"))
    assert ((_columns(runs, "x")[-1] - 14.3) * ways > 0.5).all()  # over the landing
    assert (speed[:-1] - speed[1:]).max() <= 0.3


def test_running_over_the_bump_rarely_holds_the_hip(
    course_runs: dict[str, list[Record]],
) -> None:
    # running over the bump from 29 starts, either way: down its far side the pelvis
    # reaches its landing height ~0.1 s late (the spring's lag), and a foot a few
    # centimetres short of its spot must not hover while the other leg, at full stretch,
    # holds the hip; at most two runs lose over 0.3 m/s in a step, none over 0.7 m/s
    runs = course_runs["over bump"]
    speed, x = np.abs(_columns(runs, "vx")), _columns(runs, "x")
    on_bump = (x[1:] > 8.0) & (x[1:] < 11.0)
    assert on_bump.any(axis=0).all()  # every one ran over it
    lost = np.where(on_bump, speed[:-1] - speed[1:], 0.0).max(axis=0)  # the most in a step
    assert (lost > 0.3).sum() <= 2 and lost.max() <= 0.7


@pytest.mark.parametrize("run", [0.0, 1.0])
def test_a_walker_stops_at_the_open_end_of_the_world_without_a_jump(
    run: float, open_end: dict[Any, Record]
) -> None:
    # beyond its ends the ground is level but no place to step: walking or running to the
    # end, the body stops before it, every sole point inside, and no swing is aimed past it
    # (it would hang from a straight leg); no joint moves more than 10 cm in a step
    # relative to the pelvis
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
    # the knee poles cross the legs mid-pivot: seen from the side the knees pass through
    # the legs (foreshortened), never jumping from front to back at full bend
    record = flat["turn", run]
    facing = record["facing"]
    flip = int(np.argmax(facing < 0))
    pelvis = record["pelvis"][flip - 20 : flip + 20]
    knees = record["knees"][flip - 20 : flip + 20]
    moved = knees[1:] - knees[:-1] - (pelvis[1:] - pelvis[:-1])[:, None]
    assert np.linalg.norm(moved, axis=-1).max() <= 0.05


def test_the_crowd_rolls_its_feet_too(flat: dict[Any, Record]) -> None:
    for x in ROLLING:
        record = flat["rolling", x]
        heel_up = record["soles"][..., 0, 1] > 0.03  # (T, 2): a lifted heel on a planted foot
        assert (heel_up & record["planted"]).any(), x
        assert record["joints"][:, ARMS].shape[1:] == (2, 2)


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
    # where the ground under the stopping pelvis curves, no spot there can be turned on:
    # the feet square up together on a turnable spot, not each on its own spot on its own
    # side, which makes the pivot a lunge; mid-pivot their locks are at most 15 cm apart
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


def _walking_and_running(count: int) -> np.ndarray:
    """The run inputs of ``count`` walkers and as many runners (0 for the first half, 1 for
    the second); each play casts them from x = 0, facing right."""
    return np.repeat([0.0, 1.0], count)


Columns = tuple[np.ndarray, np.ndarray, np.ndarray]


def _by_run(run: np.ndarray, *columns: np.ndarray) -> dict[float, Columns]:
    """The columns (characters on the last axis) split by the characters' ``run`` input."""
    return {r: tuple(column[..., run == r] for column in columns) for r in (0.0, 1.0)}


def _set_offs(crowd: Crowd, rows: slice) -> Play:
    """By run input, the walkers of :data:`SET_OFF_BEFORE` and :data:`SET_OFF_THEN` (5 s):
    their pelvis heights, speeds and turning, each (T, 24)."""
    run = _walking_and_running(SET_OFF_BEFORE.size)
    before, then = np.tile(SET_OFF_BEFORE, 2), np.tile(SET_OFF_THEN, 2)
    figures = []
    for step in range(int(5.0 / DT)):
        t = step * DT
        later = np.where(then == 0.0, 1.0, then)  # the stop ends after a second
        yield np.where(t < before, 1.0, np.where(t < before + 1.0, then, later)), run
        figures.append((crowd.y[rows].copy(), np.abs(crowd.vx[rows]), crowd.turning[rows].copy()))
    return _by_run(run, *(np.array(column) for column in zip(*figures, strict=True)))


ON_FLAT["set offs"] = Cast(np.zeros(2 * SET_OFF_BEFORE.size), 1.0, _set_offs)


@pytest.mark.parametrize("run", [0.0, 1.0], ids=["walk", "run"])
def test_setting_off_the_hip_is_never_held_back_and_the_pelvis_does_not_dip(
    run: float, on_flat: dict[str, Any]
) -> None:
    # setting off after a stop and after turning round (on flat ground, the stop or turn at
    # 8 phases of the gait): the body speeds up in a quarter second, so the first steps are
    # timed for the speed it is reaching, not for a standing body, or the hip outruns the
    # planted foot and is held back; for 1.5 s the speed never falls more than 0.05 m/s in
    # a step and the pelvis stays within 2 cm of its steady gait's lowest point
    before, then = SET_OFF_BEFORE, SET_OFF_THEN
    height, speed, turning = on_flat["set offs"][run]
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


def _brakes(crowd: Crowd, rows: slice) -> Play:
    """By run input, the walkers of :data:`BRAKE_BEFORE` turning round (4.5 s): their
    pelvis heights, speeds and turning round (reversing or pivoting), each (T, 24)."""
    run = _walking_and_running(BRAKE_BEFORE.size)
    before = np.tile(BRAKE_BEFORE, 2)
    figures = []
    for step in range(int(4.5 / DT)):
        yield np.where(step * DT < before, 1.0, -1.0), run
        turning_round = crowd.reversing[rows] | crowd.turning[rows]
        figures.append((crowd.y[rows].copy(), crowd.vx[rows].copy(), turning_round))
    return _by_run(run, *(np.array(column) for column in zip(*figures, strict=True)))


ON_FLAT["brakes"] = Cast(np.zeros(2 * BRAKE_BEFORE.size), 1.0, _brakes)


@pytest.mark.parametrize(("run", "sink"), [(0.0, 0.05), (1.0, 0.08)], ids=["walk", "run"])
def test_turning_round_brakes_without_a_hold_or_a_sink(
    run: float, sink: float, on_flat: dict[str, Any]
) -> None:
    # walking or running 2-3 s, then the other key: braking to square up for the pivot, no
    # foot is left behind to hold the hip. The pivot spots are read where the hip will
    # stop, not where it is (a foot beside the running hip is not yet on its spot), and a
    # swing about to land is not re-aimed while the braking hip leaves the other foot
    # behind; the speed changes at most by the brake law's 0.25 m/s a step and the pelvis
    # stays within 5 cm (walking) or 8 cm (running) of the gait's lowest point
    before = BRAKE_BEFORE
    height, vx, turning_round = on_flat["brakes"][run]
    steady = height[int(1.5 / DT) : int(2.0 / DT)].min()  # the gait's own lowest point
    for n in range(before.size):
        brake = slice(int(before[n] / DT), int(before[n] / DT) + int(1.0 / DT))
        assert turning_round[brake, n].any()
        assert np.diff(vx[brake, n]).min() >= -0.25, n  # the brake law's, never a hold
        assert height[brake, n].min() >= steady - sink, n


def _stops(crowd: Crowd, rows: slice) -> Play:
    """By run input, the walkers of :data:`STOP_AFTER` stopping (1.5 s past the last stop):
    their speeds at the end, and their pelvis heights as each stop began and the lowest
    since, each (10,)."""
    run = _walking_and_running(STOP_AFTER.size)
    walks = np.tile(STOP_AFTER, 2)
    at_stop, lowest = np.full(walks.size, np.nan), np.full(walks.size, np.inf)
    for step in range(int((walks.max() + 1.5) / DT)):
        walking = step * DT < walks
        yield walking.astype(float), run
        y = crowd.y[rows]
        at_stop = np.where(np.isnan(at_stop) & ~walking, y, at_stop)
        lowest = np.where(walking, lowest, np.minimum(lowest, y))
    return _by_run(run, crowd.vx[rows].copy(), at_stop, lowest)


ON_FLAT["stops"] = Cast(np.zeros(2 * STOP_AFTER.size), 1.0, _stops)

KEY_PHASES = np.linspace(0.0, 0.6, 12, endpoint=False)  # s into the D-and-A rhythm at start


def _keys_in_turn(crowd: Crowd, rows: slice) -> Play:
    """D and A in turn every 0.6 s for 4 s, at :data:`KEY_PHASES`: the longest time each
    walker had a foot in the air (s, (12,))."""
    airborne = np.zeros((KEY_PHASES.size, 2))
    longest = np.zeros(KEY_PHASES.size)
    for step in range(int(4.0 / DT)):
        yield np.where(((step * DT + KEY_PHASES) // 0.6) % 2 == 0, 1.0, -1.0), 0.0
        airborne = np.where(crowd.feet.planted[rows], 0.0, airborne + DT)
        longest = np.maximum(longest, airborne.max(axis=1))
    return longest


ON_FLAT["keys in turn"] = Cast(np.zeros(KEY_PHASES.size), 1.0, _keys_in_turn)


def test_keys_pressed_in_turn_never_keep_a_foot_in_the_air_long(on_flat: dict[str, Any]) -> None:
    # D and A in turn every 0.6 s, at 12 phases: a swing re-aimed in the air as the walk
    # stops is not re-timed for the stop's slow pace, so no foot stays up more than 0.8 s
    # (a cancelled step must not leave a foot in the air)
    assert on_flat["keys in turn"].max() <= 0.8


SPEEDING_BEFORE = np.tile(np.linspace(0.8, 2.0, 25), 2)  # s walking (25), running (25) first


def _still_speeding_up(crowd: Crowd, rows: slice) -> Play:
    """Walking or running :data:`SPEEDING_BEFORE`, then the other key: how far each
    pelvis fell below standing over 1.2 s of braking (50,)."""
    before, run = SPEEDING_BEFORE, np.repeat([0.0, 1.0], 25)
    stand = A + RIG.gait.stand_extension * RIG.legs.limb.reach
    lowest = np.full(before.size, np.inf)
    for step in range(int(3.2 / DT)):
        t = step * DT
        yield np.where(t < before, 1.0, -1.0), run
        braking = (t >= before) & (t < before + 1.2)
        lowest = np.where(braking, np.minimum(lowest, crowd.y[rows] - stand), lowest)
    return -lowest


ON_FLAT["still speeding up"] = Cast(np.zeros(SPEEDING_BEFORE.size), 1.0, _still_speeding_up)


def test_turning_round_while_still_speeding_up_the_pelvis_stays_up(
    on_flat: dict[str, Any],
) -> None:
    # walking or running 0.8-2 s, then the other key: braking, the pelvis is not yet
    # lowered to where flat feet reach, as for the pivot (a foot left behind the stopping
    # hip, held flat, would pull it down: a sag), and a swing re-aimed in the air is no
    # step up, swung at the slow pace; over 1.2 s of braking the pelvis stays within 8 cm
    # of standing walking (3 cm in the median) and 9.5 cm running
    sunk = on_flat["still speeding up"]
    walk, running = sunk[:25], sunk[25:]
    assert walk.max() <= 0.08 and np.median(walk) <= 0.03
    assert running.max() <= 0.095


@pytest.mark.parametrize("run", [0.0, 1.0], ids=["walk", "run"])
def test_stopping_the_pelvis_sinks_no_further_the_feet_step_under_it(
    run: float, on_flat: dict[str, Any]
) -> None:
    # stopping after 1 to 3.25 s of walking or running on flat ground: walking, a foot in
    # flight as the stop begins lands under the stopping hip, not on its walking-pace spot
    # beyond it; running, the trailing foot steps up rather than stay down while the braking
    # body carries on past it. Either foot left out would let the pelvis sink until the leg
    # reached it; it sinks at most 3 cm below its height as the stop began
    vx, at_stop, lowest = on_flat["stops"][run]
    assert (np.abs(vx) < 0.05).all()
    assert (at_stop - lowest).max() <= 0.03


CUP_ON_THE_FLOOR = np.array([[1.41, 1.59, 0.1]])  # (x0, x1, top): a cup set down at x = 1.5


BESIDE_THE_CUP = [(0.25, 0.0, 60, 0), (0.69, 1.0, 30, 40)]  # (x, run, steps, steps stood)


def _turned_beside_the_cup(
    x: float, run: float, steps: int, stand: int
) -> Callable[[Crowd, slice], Play]:
    """The play: from ``x`` and mirrored from ``3 − x``, ``steps`` toward the cup (running
    or not), ``stand`` still, then the other key for 2.5 s: the facings at the end, and
    the deepest any sole went into the cup (m)."""

    def play(crowd: Crowd, rows: slice) -> Play:
        ground = COURSE.with_boxes(CUP_ON_THE_FLOOR)
        way, deepest = np.array([1.0, -1.0]), 0.0
        for i in range(steps + stand + 150):
            yield way if i < steps else 0.0 * way if i < steps + stand else -way, run
            soles = crowd.pose.soles(crowd.solution.hand[:, LEGS], RIG)[rows]
            deepest = max(deepest, float(sole_penetration(ground, soles).max()))
        return crowd.facing[rows].copy(), deepest

    return play


WITH_A_CUP = {  # the plays on :data:`COURSE` with :data:`CUP_ON_THE_FLOOR` set down
    ("beside the cup", *start): Cast(
        [start[0], 3.0 - start[0]], [1.0, -1.0], _turned_beside_the_cup(*start)
    )
    for start in BESIDE_THE_CUP
}


@pytest.fixture(scope="module")
def with_a_cup() -> dict[Any, Any]:
    """The figures of every play of :data:`WITH_A_CUP`, stepped together."""
    return _play_together(COURSE, WITH_A_CUP, CUP_ON_THE_FLOOR)


@pytest.mark.parametrize(("x", "run", "steps", "stand"), BESIDE_THE_CUP)
def test_turning_round_beside_a_cup_on_the_floor_no_sole_swings_into_it(
    x: float, run: float, steps: int, stand: int, with_a_cup: dict[Any, Any]
) -> None:
    # turning round with the toes just short of a cup set down, mirrored from either side:
    # a foot turns about its ball, so its heel sweeps where its toes were; neither the
    # squaring step nor a foot that stays down to pivot where it stands swings a sole into
    # the cup
    facing, deepest = with_a_cup["beside the cup", x, run, steps, stand]
    assert (facing == [-1.0, 1.0]).all()  # turned round
    assert deepest <= 1e-6, f"a sole went {deepest * 100:.1f} cm into the cup"


OVER_THE_CUP_WAY = np.array([1.0, 1.0, -1.0, -1.0])
OVER_THE_CUP_WALK = np.array([80, 60, 80, 60])  # steps walking toward the cup, then 1 s still


def _stopped_over_the_cup(crowd: Crowd, rows: slice) -> Play:
    """From x = 0, 0.4 walking right and 3, 2.6 left, :data:`OVER_THE_CUP_WALK` steps,
    stopped a second, the first and third then the other key for 0.5 s, 350 steps in all:
    the facings at the end, each step's ankles' distance from the pelvis once stopped
    (T, 4), and the pelvis's lowest under standing then (m)."""
    way, walk = OVER_THE_CUP_WAY, OVER_THE_CUP_WALK
    stand = A + RIG.gait.stand_extension * RIG.legs.limb.reach
    off, lowest = np.zeros((0, 4)), np.inf
    for i in range(350):
        t = i - walk
        yield np.where(t < 0, way, np.where((t >= 60) & (t < 90), -way, 0.0)), 0.0
        ankles_x = crowd.solution.hand[rows, LEGS, 0]
        x, y = crowd.x[rows], crowd.y[rows]
        off = np.vstack([off, np.where(t >= 60, np.abs(x - ankles_x.mean(axis=1)), 0.0)])
        ground = COURSE.height_at(ankles_x).min(axis=1)
        lowest = min(lowest, float(np.where(t >= 60, y - ground - stand, 0.0).min()))
    return crowd.facing[rows].copy(), off, lowest


WITH_A_CUP["stopped over the cup"] = Cast(
    [0.0, 0.4, 3.0, 2.6], OVER_THE_CUP_WAY, _stopped_over_the_cup
)


def test_stopped_over_a_cup_on_the_floor_the_pelvis_stays_over_the_feet_turning_or_not(
    with_a_cup: dict[Any, Any],
) -> None:
    # stopped with the hips over a cup set down (mirrored from either side), the feet
    # stand beside it and the pelvis over them: turning round (the other key for 0.5 s),
    # the ankles swing about the balls but stay within a stride's reach of the pelvis,
    # which does not hang low; and where the pivot never starts, he stands over his feet
    way = OVER_THE_CUP_WAY
    facing, off, lowest = with_a_cup["stopped over the cup"]
    assert (facing[::2] == -way[::2]).all()  # turned round
    assert off.max() <= 0.3  # a stride's feet are 0.2-0.25 m off the pelvis
    assert lowest >= -0.06
    # standing: each foot within idle_tolerance of its spot, the spots spread evenly about
    # the pelvis, so the pelvis within that of the ankles' middle
    assert off[-1].max() <= RIG.gait.idle_tolerance


FLANK_WALKS = np.array([180, 294])  # steps walking right from x = 4.33: x = 8.10, 8.55


def _turned_on_the_flank(crowd: Crowd, rows: slice) -> Play:
    """Walked :data:`FLANK_WALKS` steps up the bump, stopped a second, then the other key
    for 1.5 s: the facing at the end, and while turning the ankles' furthest from the
    pelvis and the pelvis's lowest under standing (m)."""
    walks = FLANK_WALKS
    stand = A + RIG.gait.stand_extension * RIG.legs.limb.reach
    off, lowest = 0.0, 0.0
    for i in range(walks.max() + 60 + 90):
        t = i - walks
        yield np.where(t < 0, 1.0, np.where(t < 60, 0.0, -1.0)), 0.0
        ankles_x = crowd.solution.hand[rows, LEGS, 0]
        x, y = crowd.x[rows], crowd.y[rows]
        turning = t >= 60
        gap = np.abs(x - ankles_x.mean(axis=1))
        sink = y - COURSE.height_at(ankles_x).min(axis=1) - stand
        off = max(off, float(np.where(turning, gap, 0.0).max()))
        lowest = min(lowest, float(np.where(turning, sink, 0.0).min()))
    return crowd.facing[rows].copy(), off, lowest


ON_COURSE["turned on the flank"] = Cast(np.full(2, 4.33), 1.0, _turned_on_the_flank)


def test_turning_round_standing_on_the_bumps_curved_flank_is_no_lunge(
    on_course: dict[str, Any],
) -> None:
    # stopped facing up the bump's flank, the other key: a sole resting on heel and toes on
    # the curved ground lifts its ball 2-12 mm there, and such a spot still passes as a
    # pivot spot; the squaring steps do not go back to flat ground leaving the pelvis
    # hanging over nothing: the ankles stay within 0.3 m of it, and it within 7 cm of
    # standing
    facing, off, lowest = on_course["turned on the flank"]
    assert (facing == -1.0).all()
    assert off <= 0.3
    assert lowest >= -0.07


SET_OFF_LETS = np.array([35, 47, 59, 71, 83, 95])  # steps walking from x = 11.3 to the stop


def _set_off_at_a_flights_foot(crowd: Crowd, rows: slice) -> Play:
    """Walked :data:`SET_OFF_LETS` steps toward the flight, stopped a second, then walking
    on: early in each swing the foot's largest rise in a step, and any knee's largest move
    in a step (m), both relative to the pelvis."""
    lets = SET_OFF_LETS
    last, first_rise, knee_jump = None, 0.0, 0.0
    for i in range(lets.max() + 60 + 60):
        t = i - lets
        yield np.where((t >= 0) & (t < 60), 0.0, 1.0), 0.0
        sol, feet = crowd.solution, crowd.feet
        pelvis = crowd.pose.pelvis[rows, None, :]
        now = (sol.hand[rows, LEGS] - pelvis, sol.elbow[rows, LEGS] - pelvis)
        if last is not None:
            going = (t >= 60)[:, None]
            rise = now[0][..., 1] - last[0][..., 1]
            early = going & ~feet.planted[rows] & (feet.u[rows] < 0.13)
            first_rise = max(first_rise, float(np.where(early, rise, 0.0).max()))
            moved = np.hypot(*np.moveaxis(now[1] - last[1], -1, 0))
            knee_jump = max(knee_jump, float(np.where(going, moved, 0.0).max()))
        last = now
    return first_rise, knee_jump


ON_COURSE["set off at a flight's foot"] = Cast(
    np.full(SET_OFF_LETS.size, 11.3), 1.0, _set_off_at_a_flights_foot
)


def test_setting_off_from_a_stop_at_a_flights_foot_the_lifting_foot_rises_without_a_snap(
    on_course: dict[str, Any],
) -> None:
    # set off from standing with a foot on the flight: the lifting foot's clearance floor
    # rises with the swing, not at full speed at once with the heel's rise on top, so early
    # in the swing the foot rises at most 4 cm a step, and no knee moves more than 10 cm a
    # step relative to the pelvis
    first_rise, knee_jump = on_course["set off at a flight's foot"]
    assert first_rise <= 0.04
    assert knee_jump <= 0.10


def test_shift_on_the_steep_slope_jogs_with_a_flight_both_ways(
    course_runs: dict[str, list[Record]],
) -> None:
    # Shift up or down the steep slope (18.5-21 m): the speed is held to the climb's pace,
    # about a walk's, but the gait is a jog, quick steps with a flight phase, not a walk
    # with double support and, going up, a deeply bent stance knee
    airborne, double, on_slope, knee = 0, 0, 0, 0.0
    for record in course_runs["on steep"]:
        on = (record["x"] > 18.7) & (record["x"] < 20.8)
        planted = record["planted"]
        airborne += int((on & ~planted.any(axis=1)).sum())
        double += int((on & planted.all(axis=1)).sum())
        on_slope += int(on.sum())
        bends = np.where(planted, _knee_bends(record), 0.0).max(axis=1)
        knee = max(knee, float(np.where(on, bends, 0.0).max()))
    assert airborne >= 0.15 * on_slope  # a flight phase
    assert double <= 0.03 * on_slope  # next to no double support
    assert knee <= 75.0


def test_running_over_the_bump_no_planted_foot_holds_the_hip_back(
    course_runs: dict[str, list[Record]],
) -> None:
    # running right up the bump, from starts where the trailing foot reaches the end of
    # its roll a step before its lift is due: a foot whose leg cannot hold the hip where it
    # goes lifts that step, rather than hold the hip back; the speed falls at most
    # 0.25 m/s in a step (from a standing start: the first step only speeds up)
    runs = course_runs["holding back"]
    speed, x = np.abs(_columns(runs, "vx")), _columns(runs, "x")
    on = (x[1:] > 6.0) & (x[1:] < 12.0)
    assert np.where(on, speed[:-1] - speed[1:], 0.0).max() <= 0.25


def test_a_cup_on_a_stair_tread_stops_the_walk_before_it_not_over_it() -> None:
    # a cup on the right flight's top tread leaves no room there for a foot: walking down
    # from the landing, or up the flight toward it, no step is left, and he stops short of
    # the cup standing over his feet, never walking on with the body out over the flight
    # ahead of feet that cannot follow
    cup = np.array([[15.27, 15.39, 1.16]])  # on the right flight's top tread (1.06 high)
    crowd = Crowd(RIG, COURSE, [14.3, 16.2], [1.0, -1.0])
    crowd.set_obstacles(cup)
    way = np.array([1.0, -1.0])
    stand = A + RIG.gait.stand_extension * RIG.legs.limb.reach
    for _ in range(int(6.0 / DT)):
        crowd.step(way, np.zeros(2), DT)
    ankles_x = crowd.solve().hand[:, LEGS, 0]
    assert (np.abs(crowd.vx) < 0.05).all() and crowd.feet.planted.all()  # stopped, standing
    assert np.abs(crowd.x - ankles_x.mean(axis=1)).max() <= 0.15  # over his feet
    ground = COURSE.height_at(ankles_x).min(axis=1)
    assert (crowd.y - ground - stand).min() >= -0.1  # not sunk
    assert crowd.x[0] < 15.27 and crowd.x[1] > 15.39  # short of the cup, either way
    assert crowd.blocked.all()  # ... and says why (the walk scene's hint)


def test_a_jog_ends_before_stairs_ahead_either_way_along_the_walk() -> None:
    # the jog's stairs check reads its window the way the walk goes: running left from the
    # foot of a steep slope (a jog) toward stairs 1.25 m ahead, within two strides and the
    # stopping distance, is no jog; mirrored, running right, the same
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


LET_GO_DELAYS = np.array([45, 48, 51, 27, 30])  # steps after the first foot is on the flight
LET_GO_RUN = np.array([0.0, 0.0, 0.0, 1.0, 1.0])


def _let_go_of_on_a_flight(crowd: Crowd, rows: slice) -> Play:
    """Walking or running up the flight from x = 10.6 (:data:`LET_GO_RUN`), the key let
    go of :data:`LET_GO_DELAYS` steps after a foot is first on it, 7 s in all: whether each
    ends standing, and each foot's steps back down once let go of (5, 2)."""
    delays, run = LET_GO_DELAYS, LET_GO_RUN
    first_riser = FIRST_RISER_UP[1.0]
    on_flight_at = np.full(5, -1)
    last_lock = crowd.feet.lock[rows, :, 0].copy()  # where each foot was last planted
    stepped_down_back = np.zeros((5, 2), dtype=bool)
    for i in range(420):
        feet = crowd.feet
        on = feet.planted[rows] & (feet.lock[rows, :, 0] > first_riser + 0.05)
        on_flight_at = np.where((on_flight_at < 0) & on.any(axis=1), i, on_flight_at)
        let_go = (on_flight_at >= 0) & (i >= on_flight_at + delays)
        was_up = ~feet.planted[rows]
        yield np.where(let_go, 0.0, 1.0), run
        feet = crowd.feet
        landed = was_up & feet.planted[rows]
        lock = feet.lock[rows, :, 0]
        lower = COURSE.height_at(lock) < COURSE.height_at(last_lock) - MIN_RISER
        stepped_down_back |= landed & (lock < last_lock - 0.05) & lower & let_go[:, None]
        last_lock = np.where(feet.planted[rows], lock, last_lock)
    standing = (np.abs(crowd.vx[rows]) < 0.02) & crowd.feet.planted[rows].all(axis=1)
    return standing, stepped_down_back


ON_COURSE["let go of on a flight"] = Cast(np.full(5, 10.6), 1.0, _let_go_of_on_a_flight)


def test_let_go_of_on_a_flight_no_foot_steps_back_down_to_stand(
    on_course: dict[str, Any],
) -> None:
    # the walk key let go of as the feet reach a flight's first treads (walking and
    # running, at five moments): a foot a riser above its standing spot behind it stays up,
    # and no foot steps back down a tread (or to the floor) to make the standing stance
    standing, stepped_down_back = on_course["let go of on a flight"]
    assert standing.all()
    assert not stepped_down_back.any(), np.flatnonzero(stepped_down_back.any(axis=1))


def test_running_up_a_flight_the_first_two_feet_land_on_two_treads(
    course_runs: dict[str, list[Record]],
) -> None:
    # running onto either flight: the second foot on the flight lands a tread above the
    # first, not beside it. Its step, planned as the body slows to the flight's pace, can
    # fall short of the next tread, so the middle of the tread beyond the other foot is
    # among the spots tried, and the other foot's tread (or one below it) costs 0.4 m of
    # miss
    for (start, way), record in zip(RUNS_UP_FLIGHTS, course_runs["up flights"], strict=True):
        xs = [float(x) for x, _ in _landed_locks(record)]
        on_flight = [
            float(COURSE.height_at(x)) for x in xs if (x - FIRST_RISER_UP[way]) * way > 0.0
        ]
        assert on_flight[1] > on_flight[0] + MIN_RISER, (start, on_flight[:3])


TURNED_BACK_AT = [12.5, 12.6]  # x stopped at on the flight, walking up it from x = 10.8


def _turned_round_and_back(stop_x: float) -> Callable[[Crowd, slice], Play]:
    """The play: walked up the flight to ``stop_x``, turned round and back (39 steps
    each), then 3 s still: whether he ends facing up it, both feet down and no pivot under
    way, and his feet's locks (2,)."""

    def play(crowd: Crowd, rows: slice) -> Play:
        k = rows.start
        while float(crowd.x[k]) < stop_x:
            yield 1.0, 0.0
        for facing in (-1.0, 1.0):
            crowd.turn_to(k, facing)
            for _ in range(39):
                yield 0.0, 0.0
        for _ in range(int(3.0 / DT)):
            yield 0.0, 0.0
        settled = crowd.facing[k] == 1.0 and crowd.feet.planted[k].all() and not crowd.turning[k]
        return settled, crowd.feet.lock[k, :, 0].copy()

    return play


for stop_x in TURNED_BACK_AT:
    ON_COURSE[f"turned round and back at {stop_x}"] = Cast(
        10.8, 1.0, _turned_round_and_back(stop_x)
    )


@pytest.mark.parametrize("stop_x", TURNED_BACK_AT)
def test_turned_round_and_back_on_a_flight_no_heel_hangs_off_a_nose(
    stop_x: float, on_course: dict[str, Any]
) -> None:
    # stopped on a flight, turned round and back: a foot that pivoted about its ball on a
    # stair nose, its heel out over the drop, re-squares onto its tread without another key
    # press. (The heel may overhang by HEEL_HANG, 3 cm: turned round about its ball on a
    # 0.35 m tread no spot keeps the whole sole on it both ways, and holding the heel's last
    # centimetre on would cost every turn on a flight a fourth step, up a riser and back
    # down)
    settled, lock = on_course[f"turned round and back at {stop_x}"]
    assert settled
    heel = COURSE.height_at(lock - (RIG.legs.heel - HEEL_HANG))
    ball = COURSE.height_at(lock + RIG.legs.ball)
    assert (heel >= ball - MIN_RISER).all(), (lock, heel, ball)


TAP_LETS = np.array([88, 120, 148, 88, 116, 120, 148])  # steps walked down before letting go
TAP_WAYS = np.array([-1.0, -1.0, -1.0, 1.0, 1.0, 1.0, 1.0])  # down the right flight, the left


def _tapped_to_turn(crowd: Crowd, rows: slice) -> Play:
    """Walked down a flight from the landing (:data:`TAP_LETS`, :data:`TAP_WAYS`), stopped
    a second, then a 0.33 s tap of the other key and 3 s still: whether each ended turned
    round standing, and the height of the ground under each landing after the tap."""
    lets, ways = TAP_LETS, TAP_WAYS
    heights: list[list[float]] = [[] for _ in lets]
    for i in range(int(lets.max()) + 60 + 40 + 180):
        t = i - lets
        was = crowd.feet.planted[rows].copy()
        yield np.where(t < 0, ways, np.where((t >= 60) & (t < 100), -ways, 0.0)), 0.0
        feet = crowd.feet
        for k, f in np.argwhere(feet.planted[rows] & ~was & (t >= 60)[:, None]):
            heights[k].append(float(COURSE.height_at(feet.lock[rows.start + k, f, 0])))
    turned = (crowd.facing[rows] == -ways) & crowd.feet.planted[rows].all(axis=1)
    return turned, heights


ON_COURSE["tapped to turn"] = Cast(np.where(TAP_WAYS < 0, 14.6, 14.0), TAP_WAYS, _tapped_to_turn)


def test_a_tap_to_turn_on_a_flight_turns_on_one_tread_not_up_a_riser_and_back(
    on_course: dict[str, Any],
) -> None:
    # walking down either flight and stopped on it (at seven spots), a 0.33 s tap of the
    # other key turns him on one tread: a few landings, all on that tread, never a foot up
    # the riser ahead to pivot and back down, which leaves him split across the riser
    lets, ways = TAP_LETS, TAP_WAYS
    turned, heights = on_course["tapped to turn"]
    assert turned.all()
    for k, landed in enumerate(heights):
        assert len(landed) <= 4, (lets[k], ways[k], landed)  # square, pivot, settle
        assert max(landed) - min(landed) < MIN_RISER, (lets[k], ways[k], landed)  # one tread


STAND_DELAYS = np.array([30, 42, 93])  # steps after the first foot is on the flight


def _stood_on_a_flight(crowd: Crowd, rows: slice) -> Play:
    """Walking up the flight from x = 10.6, the key let go of :data:`STAND_DELAYS` steps
    after a foot is first on it, 8 s in all: whether each ends standing, each knee's bend
    (degrees, (3, 2)) and the ground under each foot's lock (3, 2)."""
    delays = STAND_DELAYS
    on_flight_at = np.full(3, -1)
    for i in range(480):
        feet = crowd.feet
        on = feet.planted[rows] & (feet.lock[rows, :, 0] > FIRST_RISER_UP[1.0] + 0.05)
        on_flight_at = np.where((on_flight_at < 0) & on.any(axis=1), i, on_flight_at)
        let_go = (on_flight_at >= 0) & (i >= on_flight_at + delays)
        yield np.where(let_go, 0.0, 1.0), 0.0
    sol, feet = crowd.solution, crowd.feet
    standing = (np.abs(crowd.vx[rows]) < 0.02) & feet.planted[rows].all(axis=1)
    hips, knees = crowd.pose.roots[rows, LEGS], sol.elbow[rows, LEGS]
    ankles = sol.hand[rows, LEGS]
    bend = _knee_bends({"hips": hips[None], "knees": knees[None], "ankles": ankles[None]})[0]
    return standing, bend, COURSE.height_at(feet.lock[rows, :, 0])


ON_COURSE["stood on a flight"] = Cast(np.full(3, 10.6), 1.0, _stood_on_a_flight)


def test_let_go_of_on_a_flight_he_stands_straight_on_one_tread_or_one_foot_up(
    on_course: dict[str, Any],
) -> None:
    # the walk key let go of on a flight (at three moments): a step to stand lands on the
    # other foot's tread or its own spot's where it can, not a tread further on, so he
    # stands straight, never with both feet on one tread, the pelvis still over the riser
    # below and both knees bent
    standing, bend, grounds = on_course["stood on a flight"]
    assert standing.all()
    together = np.abs(grounds[:, 0] - grounds[:, 1]) < 0.01
    # on one tread both legs straight; astride a riser, one foot up on the step above
    assert (bend[together] <= 30.0).all(), (grounds, bend)
    assert (bend.min(axis=1) <= 30.0).all(), (grounds, bend)


def test_running_onto_the_steep_slope_no_lunge_then_crouch(
    course_runs: dict[str, list[Record]],
) -> None:
    # running onto the steep slope, where the body is held to the climb's pace: a step
    # planned on the flat is aimed for that pace where it lands, not for the run's (which
    # lands far ahead and up: a lunge), and a running pelvis left low rises back faster
    # than the slope climbs (~0.42 m/s at a run's pace); on the slope the stance knee is
    # bent past 70° for at most 0.35 s and the pelvis stays within 15 cm of standing
    for (x, _), record in zip(RUNS_ONTO_STEEP, course_runs["onto steep"], strict=True):
        on = (record["x"] > 18.3) & (record["x"] < 20.0)
        stance = np.where(record["planted"], _knee_bends(record), 0.0).max(axis=1)
        assert (stance[on] > 70.0).sum() * DT <= 0.35, x
        assert _below_standing(record, COURSE)[on].min() >= -0.15, x


RUN_RELEASE = np.array([1.8, 1.85, 1.9, 2.9, 3.95, 4.55])  # x where the keys let go of


def _run_let_go_of(crowd: Crowd, rows: slice) -> Play:
    """Running right from x = −1.5, 3 steps without intent once past :data:`RUN_RELEASE`,
    then walking, 4 s in all: by step (T, 6), the first 1.5 s of each walk (``live``),
    the planted feet (T, 6, 2), and hips, knees, ankles and pelvis."""
    n = len(RUN_RELEASE)
    switched = np.full(n, -1)
    rows_seen = []
    for i in range(int(4.0 / DT)):
        gap = (switched >= 0) & (i - switched < 3)
        yield np.where(gap, 0.0, 1.0), np.where(switched >= 0, 0.0, 1.0)
        switched = np.where((switched < 0) & (crowd.x[rows] >= RUN_RELEASE), i, switched)
        sol, pose = crowd.solution, crowd.pose
        row = {"hips": pose.roots[rows, LEGS], "knees": sol.elbow[rows, LEGS]}
        rows_seen.append(row | {"ankles": sol.hand[rows, LEGS], "pelvis": pose.pelvis[rows]})
        rows_seen[-1]["live"] = (switched >= 0) & (i - switched < int(1.5 / DT))
        rows_seen[-1]["planted"] = crowd.feet.planted[rows].copy()
    return {key: _stack(rows_seen, key) for key in rows_seen[0]}


ON_COURSE["run let go of"] = Cast(np.full(RUN_RELEASE.size, -1.5), 1.0, _run_let_go_of)


def test_a_run_let_go_of_for_an_instant_walks_on_without_a_lunge(
    on_course: dict[str, Any],
) -> None:
    # running, Shift and the key let go of and the key pressed again at once (3 frames
    # without intent, at six points of the run): after a swing the stop re-aims beside the
    # other foot, the walk that follows does not lift the front foot while the hip runs on
    # past the one left behind (a lunge); for 1.5 s the planted knee bends under 95° and
    # the pelvis stays within 22 cm of standing
    release = RUN_RELEASE
    columns = on_course["run let go of"]
    live, planted = columns["live"], columns["planted"]
    assert live.any(axis=0).all()  # every one switched to the walk
    for k in range(len(release)):
        record = {key: columns[key][:, k] for key in ("hips", "knees", "ankles", "pelvis")}
        bend = np.where(planted[:, k], _knee_bends(record), 0.0).max(axis=1)
        low = _below_standing(record, COURSE)
        assert bend[live[:, k]].max() < 95.0, (release[k], bend[live[:, k]].max())
        assert low[live[:, k]].min() > -0.22, (release[k], low[live[:, k]].min())


BLIP_AT = np.arange(0.8, 3.0, 0.1)  # x where the other key is pressed, running right


def _blipped(crowd: Crowd, rows: slice) -> Play:
    """Running right from x = −1.5, a 0.07 s press of the other key once past
    :data:`BLIP_AT`, 3.5 s in all: whether each ended facing right blipped, and each one's
    longest time with both feet up in the 1.5 s after the blip (steps)."""
    n = len(BLIP_AT)
    blip = np.full(n, -1)
    air, longest = np.zeros(n, int), np.zeros(n, int)
    for i in range(int(3.5 / DT)):
        pressed = (blip >= 0) & (i - blip < 4)
        yield np.where(pressed, -1.0, 1.0), np.where(pressed, 0.0, 1.0)
        after = (blip >= 0) & (i - blip < int(1.5 / DT))
        blip = np.where((blip < 0) & (crowd.x[rows] >= BLIP_AT), i, blip)
        air = np.where(crowd.feet.planted[rows].any(axis=1), 0, air + 1)
        longest = np.where(after, np.maximum(longest, air), longest)
    return (crowd.facing[rows] == 1.0) & (blip >= 0), longest


ON_COURSE["blipped"] = Cast(np.full(BLIP_AT.size, -1.5), 1.0, _blipped)


def test_a_blip_of_the_other_key_in_a_run_leaves_no_glide(on_course: dict[str, Any]) -> None:
    # running, a 0.07 s press of the other key (too short for the walk scene to take it
    # for a turn), at 22 points of the run: swings re-aimed in the air for the reversal's
    # stop, behind the running hip, do not hover there once it is dropped, so a foot soon
    # touches down: no glide with both feet up (a plain run's flight is 9 frames)
    on_and_blipped, longest = on_course["blipped"]
    assert on_and_blipped.all()
    assert np.median(longest) <= 20, longest
    assert longest.max() <= 40, longest


SLOPE_LETS = np.array([84, 86, 88, 90])  # steps walked from x 1.2 before letting go


def _turned_at_the_slopes_foot(crowd: Crowd, rows: slice) -> Play:
    """Walked :data:`SLOPE_LETS` steps toward the gentle slope, stopped, turned round a
    second later, then 2.5 s still: the facings at the end, each one's deepest flat-sole
    point in the ground then (m), and its planted feet's largest rise in a step once
    turned (m)."""
    lets = SLOPE_LETS
    n = len(lets)
    depth, rise = np.zeros(n), np.zeros(n)
    for i in range(int(lets.max()) + 60 + 150):
        t = i - lets
        for k in np.flatnonzero(t == 60):
            crowd.turn_to(rows.start + int(k), -1.0)
        before = crowd.feet.lock[rows, :, 1].copy()
        yield np.where(t < 0, 1.0, 0.0), 0.0
        feet, facing = crowd.feet, crowd.facing[rows]
        planted, lock = feet.planted[rows], feet.lock[rows]
        done = (t > 60) & (facing < 0) & ~crowd.turning[rows] & planted.all(axis=1)
        flat = np.zeros_like(feet.angle[rows])
        soles = sole_points(lock, feet.angle[rows], flat, facing[:, None], RIG.legs)
        depth = (COURSE.height_at(soles[..., 0]) - soles[..., 1]).max(axis=(1, 2))
        rise = np.where(done, np.maximum(rise, (lock[..., 1] - before).max(axis=1)), rise)
    return crowd.facing[rows].copy(), depth, rise


ON_COURSE["turned at the slope's foot"] = Cast(
    np.full(SLOPE_LETS.size, 1.2), 1.0, _turned_at_the_slopes_foot
)


def test_turned_round_at_a_slopes_foot_the_heel_rises_out_of_the_rise(
    on_course: dict[str, Any],
) -> None:
    # stopped just before the gentle slope and turned round: the foot pivots about its ball
    # on the flat and its heel swings onto the rise (a pivot spot lets the ball hover
    # 12 mm); the planted foot then rises onto the ground, no sole point left a millimetre
    # inside the slope, at most 0.5 mm a step (a planted foot's contact may move, not jump)
    facing, depth, rise = on_course["turned at the slope's foot"]
    assert (facing < 0).all()
    assert depth.max() < 1e-3, depth
    assert rise.max() <= 0.0005, rise


def _bones(crowd: Crowd, rows: slice) -> Play:
    """Walking, running, turning round and standing: the largest change of any bone's
    length (m)."""
    upper = np.array([RIG.arms.limb.upper] * 2 + [RIG.legs.limb.upper] * 2)
    lower = np.array([RIG.arms.limb.lower] * 2 + [RIG.legs.limb.lower] * 2)
    worst = 0.0
    for move, run, steps in ((1.0, 0.0, 90), (1.0, 1.0, 90), (-1.0, 0.0, 120), (0.0, 0.0, 60)):
        for _ in range(steps):
            yield move, run
            sol, roots = crowd.solution, crowd.pose.roots[rows]
            first = np.linalg.norm(sol.elbow[rows] - roots, axis=-1) - upper
            second = np.linalg.norm(sol.hand[rows] - sol.elbow[rows], axis=-1) - lower
            worst = max(worst, float(np.abs(first).max()), float(np.abs(second).max()))
    return worst


ON_FLAT["bones"] = Cast([0.0, 3.0], [1.0, -1.0], _bones)


def test_every_bone_keeps_its_length_through_walks_runs_and_pivots(
    on_flat: dict[str, Any],
) -> None:
    assert on_flat["bones"] <= 1e-9


@pytest.mark.parametrize("gap", [0.02, 0.08])
def test_every_landing_keeps_the_rigs_keep_off_gap_from_a_thing_on_the_ground(
    gap: float,
) -> None:
    """``tuning.keep_off`` is the gap every landing sole keeps from a thing standing on the
    ground (walkers from several distances stepping over a low box, both ways)."""
    rig = dataclasses.replace(RIG, tuning=dataclasses.replace(RIG.tuning, keep_off=gap))
    box = np.array([[1.0, 1.12, 0.08]])
    starts = np.array([-1.5, -1.2, -0.9, -0.6, 3.6, 3.3, 3.0, 2.7])
    facing = np.where(starts < 1.0, 1.0, -1.0)
    crowd = Crowd(rig, FLAT, starts, facing)
    crowd.set_obstacles(box)
    legs, closest, landed = rig.legs, np.inf, 0
    for _ in range(240):
        was = crowd.feet.planted.copy()
        crowd.step(0.6 * facing, np.zeros(len(starts)), 1.0 / 60.0)
        new = crowd.feet.planted & ~was
        ankle = crowd.feet.lock[..., 0][new]
        way = np.broadcast_to(facing[:, None], new.shape)[new]
        heel, toe = ankle - way * legs.heel, ankle + way * legs.toe
        lo, hi = np.minimum(heel, toe), np.maximum(heel, toe)
        apart = np.maximum(box[0, 0] - hi, lo - box[0, 1])  # < 0: over the box
        closest = min(closest, float(apart.min(initial=np.inf)))
        landed += int(new.sum())
    assert landed > 30
    assert closest >= gap - 1e-9, closest


@pytest.mark.parametrize("lead", [0, 1])
def test_a_character_asked_to_lead_with_a_foot_sets_off_on_it(lead: int) -> None:
    # facing either way, with the side view's stance (one foot ahead): the asked foot
    # steps first, whether it stands ahead or behind
    crowd = Crowd(RIG, FLAT, [0.0, 0.0], [1.0, -1.0])
    for n in range(crowd.count):
        crowd.lead_with(n, lead)
    for _ in range(30):
        crowd.step([0.0, 0.0], [0.0, 0.0], DT)
    first = [None, None]
    for _ in range(60):
        crowd.step([1.0, -1.0], [0.0, 0.0], DT)
        for n in range(crowd.count):
            if first[n] is None and not crowd.feet.planted[n].all():
                first[n] = int(np.argmin(crowd.feet.planted[n]))
    assert first == [lead, lead]


@pytest.mark.parametrize("wall_x", [0.3, 0.45])
def test_a_foot_let_go_of_up_against_a_ledge_steps_down_beside_the_other(wall_x: float) -> None:
    # standing at the foot of a ledge too tall to step (1.8 m), a foot held up above the
    # hip (turned to the front of the hip's range, against the ledge) and let go: its step
    # is planned from the floor he stands on, not from the ledge's top over which it was
    # held (out of the leg's reach), and it comes down there
    ledge = Terrain(np.array([[-5.0, 0.0], [wall_x, 0.0], [wall_x + 0.02, 1.8], [5.0, 1.8]]))
    crowd = Crowd(RIG, ledge, [0.0], [1.0])
    target = crowd.pose.roots[0, RIGHT_LEG] + np.array([0.0, 0.65])
    pinned = np.array([[False, True]])
    for _ in range(60):
        crowd.pin_foot(0, 1, target)
        crowd.step([0.0], [0.0], DT, pinned=pinned)
        crowd.solve()
    for _ in range(60):
        crowd.step([0.0], [0.0], DT)
        crowd.solve()
    assert crowd.feet.planted[0].all()
    np.testing.assert_allclose(crowd.feet.lock[0, :, 1], crowd.feet.lock[0, 0, 1], atol=0.01)
    assert float(crowd.feet.lock[0, 1, 0]) < wall_x  # on the floor, short of the ledge


def test_a_foot_dragged_over_the_top_waits_at_the_front_until_the_pointer_comes_down_behind() -> (
    None
):
    # the pointer swept round from in front, up over the hip and down behind (0.8 m out):
    # the foot follows it up to the front end of the hip's range and stays there while the
    # pointer passes over the top (no swing as it crosses straight up), then swings under
    # the body to the pointer once it is back in the range behind
    crowd = Crowd(RIG, FLAT, [0.0], [1.0])
    hip = crowd.pose.roots[0, RIGHT_LEG].copy()
    feet = []
    for degrees in np.linspace(60.0, 330.0, 181):
        a = math.radians(degrees)
        crowd.pin_foot(0, 1, hip + 0.8 * np.array([math.sin(a), -math.cos(a)]))
        crowd.step([0.0], [0.0], DT, pinned=np.array([[False, True]]))
        crowd.solve()
        feet.append((degrees, crowd.solution.hand[0, RIGHT_LEG].copy()))
    over = np.array([foot for degrees, foot in feet if 120.0 <= degrees <= 290.0])
    assert np.hypot(*(over - over[0]).T).max() < 1e-3  # waiting at the front end
    assert over[0][0] > hip[0] and over[0][1] > hip[1] - 0.2  # (up in front)
    for _ in range(30):  # the pointer still, behind: the foot gets there, behind the hip
        crowd.step([0.0], [0.0], DT, pinned=np.array([[False, True]]))
    assert crowd.pose.targets[0, RIGHT_LEG][0] < hip[0]


FLICKS = [(-20.0, 160.0), (10.0, 140.0), (-25.0, 170.0)]  # (held at, flicked to) degrees


def test_a_standing_foot_flicked_up_over_the_front_goes_to_a_high_kick() -> None:
    # a foot held low (in the range, at neither end) and flicked up above the hip in
    # front (degrees from hanging, toward the facing) goes to the front end of the
    # hip's range, the high kick, not round to the back end; each flick facing either
    # way, one character each in one crowd
    cases = [(start, end, facing) for start, end in FLICKS for facing in (1.0, -1.0)]
    facing = np.array([f for *_, f in cases])
    crowd = Crowd(RIG, FLAT, np.zeros(len(cases)), facing)
    hip = crowd.pose.roots[:, RIGHT_LEG].copy()

    def at(degrees: np.ndarray) -> np.ndarray:
        a = np.radians(degrees)
        return hip + 0.8 * np.stack([facing * np.sin(a), -np.cos(a)], axis=-1)

    starts, ends = np.array([s for s, _, _ in cases]), np.array([e for _, e, _ in cases])
    for degrees, steps in ((starts, 40), (ends, 60)):
        _held_feet(crowd, at(degrees), steps)
    foot = crowd.pose.targets[:, RIGHT_LEG] - hip
    up_in_front = (facing * foot[:, 0] > 0.3) & (foot[:, 1] > -0.2)
    assert up_in_front.all(), [case for case, up in zip(cases, up_in_front, strict=True) if not up]


@pytest.mark.parametrize("behind_up", [10.0, 30.0, 45.0])
def test_a_foot_held_up_behind_the_hip_stays_behind_it(behind_up: float) -> None:
    # held out of the hip's range behind the vertical through the hip (degrees past
    # straight up, toward his back), at full stretch: the foot goes to the range's back
    # end (the thigh hip_extension back), not round over the top into a kick in front
    crowd = Crowd(RIG, FLAT, [0.0], [1.0])
    hip = crowd.pose.roots[0, RIGHT_LEG]
    angle = math.radians(180.0 + behind_up)
    target = hip + np.array([math.sin(angle), -math.cos(angle)])
    for _ in range(30):
        crowd.pin_foot(0, 1, target)
        crowd.step([0.0], [0.0], DT, pinned=np.array([[False, True]]))
        crowd.solve()
    knee, ankle = crowd.solution.elbow[0, RIGHT_LEG], crowd.solution.hand[0, RIGHT_LEG]
    assert ankle[0] < hip[0]
    thigh = math.atan2(knee[0] - hip[0], -(knee[1] - hip[1]))
    assert thigh == pytest.approx(-math.radians(RIG.tuning.hip_extension), abs=2e-3)


def _held_leg(crowd: Crowd, n: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Character ``n``'s right leg as solved, hip → knee → ankle (3, 2), and its sole at
    the held ankle, heel → ball → toe (3, 2)."""
    solution = crowd.solve()
    hip, knee = crowd.pose.roots[n, RIGHT_LEG], solution.elbow[n, RIGHT_LEG]
    ankle, held = solution.hand[n, RIGHT_LEG], crowd.pose.targets[n, RIGHT_LEG]
    facing = crowd.pose.facing[n]
    sole = sole_points(held, crowd.pose.foot_angle[n, 1], np.zeros(()), facing, RIG.legs)
    return np.stack([hip, knee, ankle]), sole


@pytest.mark.parametrize(
    ("offset", "wall"),
    [((0.35, -0.1), True), ((0.45, -0.5), True), ((0.2, -0.95), False), ((-0.3, -0.95), False)],
    ids=["into the wall", "into the wall low", "into the floor ahead", "into the floor behind"],
)
def test_a_held_foot_and_its_leg_stay_out_of_the_ground(
    offset: tuple[float, float], wall: bool
) -> None:
    # held into a wall (0.3 m ahead of him) or below the floor, the foot comes in toward
    # the hip as far as the whole leg clears the ground: pressed against the wall's face
    # (or as near it as the bent knee lets it), or standing on the floor
    ground = Terrain(np.array([[-5.0, 0.0], [0.3, 0.0], [0.32, 1.8], [5.0, 1.8]]))
    crowd = Crowd(RIG, ground, [0.0], [1.0])
    hip = crowd.pose.roots[0, RIGHT_LEG]
    target = hip + np.array(offset)
    for _ in range(30):
        crowd.pin_foot(0, 1, target)
        crowd.step([0.0], [0.0], DT, pinned=np.array([[False, True]]))
    leg, sole = _held_leg(crowd)
    assert sole_penetration(ground, sole) <= 1e-9  # no point of the sole in the ground
    assert sole_penetration(ground, leg) <= 1e-9  # nor of the thigh or the shin
    ankle = crowd.pose.targets[0, RIGHT_LEG]
    assert np.hypot(*(ankle - hip)) < np.hypot(*(target - hip))  # come in toward the hip
    if wall:  # at the face: the sole's toe, or the knee
        assert max(float(sole[:, 0].max()), float(leg[1, 0])) == pytest.approx(0.3, abs=0.01)
    else:  # on the floor
        assert sole_penetration(ground, sole) == pytest.approx(0.0, abs=0.01)


WALL_SPACING_M = 12.0  # between the characters of the wall test, each before its own wall


@settings(max_examples=3)  # (a batch of HELD_FEET: see the test of a foot held round the hip)
@given(
    st.lists(
        st.tuples(
            st.floats(-math.pi, math.pi),  # the angle round the hip from straight down
            st.floats(0.3, 1.2),  # the distance from the hip
            st.floats(0.3, 0.8),  # the wall's foot ahead of the pelvis
        ),
        min_size=HELD_FEET,
        max_size=HELD_FEET,
    )
)
def test_a_foot_held_anywhere_by_a_wall_keeps_the_whole_leg_out_of_it(
    held: list[tuple[float, float, float]],
) -> None:
    # however the foot is held round the hip with a wall too tall to step in front, the
    # thigh, the shin and the sole stay out of the wall and the floor (each character has
    # its own wall, the ground 5 m either side of it as it would be alone)
    angle, distance, wall_x = (np.array(column) for column in zip(*held, strict=True))
    x = WALL_SPACING_M * np.arange(len(held))
    ground = Terrain(
        np.array(
            [
                [at + dx, y]
                for at, wall in zip(x, wall_x, strict=True)
                for dx, y in ((-5.0, 0.0), (wall, 0.0), (wall + 0.02, 1.8), (5.0, 1.8))
            ]
        )
    )
    crowd = Crowd(RIG, ground, x, np.ones(len(held)))
    hip = crowd.pose.roots[:, RIGHT_LEG].copy()
    _held_feet(crowd, hip + distance[:, None] * np.stack([np.sin(angle), -np.cos(angle)], -1), 20)
    for n, case in enumerate(held):
        leg, sole = _held_leg(crowd, n)
        assert sole_penetration(ground, sole) <= 1e-9, case
        assert sole_penetration(ground, leg) <= 1e-9, case
