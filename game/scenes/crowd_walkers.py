"""The crowd scene's walkers, or a part of them: their seeded draws, the rule that turns
them around, and one fixed step of their :class:`~game.world.character.Crowd`.

Every stage of a step works row by row, so the crowd can be stepped in parts, each in its
own process, and each character steps exactly as it would in one crowd. A part is named by
the character ids it holds (:data:`EVERYONE`, :data:`HOME`, :data:`AWAY`): the first
:data:`HOME_ONLY` ids and one in :data:`HOME_SHARE` of the later ones are stepped at home,
in the app's process (the hero, id 0, among them), the rest away, in a worker
(:mod:`game.scenes.crowd_worker`). A small crowd is all at home; the ids fix the part, so
a crowd that grows or shrinks never moves a character from one process to the other.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from enum import Enum

import numpy as np
from numpy.typing import NDArray

from game.ik_counters import IkCounters
from game.profiling import PhaseTimer
from game.scenes.walk import START_X
from game.world.character import Crowd
from game.world.pose import PoseInputs
from game.world.rig import Rig
from game.world.terrain import Terrain
from game.world.walker_state import take_rows

EDGE_MARGIN_M = 1.6  # characters turn around this far from either end of the course
STUCK_SECONDS = 0.5  # a character held still this long (a wall, a tall step) turns around
STILL_SPEED = 0.05  # m/s below which a character counts as held still
PACE_RANGE = (0.45, 1.0)  # walk intent magnitude
RUNNER_SHARE = 0.12  # the share of characters that run
MAX_START_DELAY = 1.2  # seconds; staggers the first steps so the gait phases differ
ORDER_EVERY = 15  # steps between sortings of the rows into ground order
HOME_ONLY = 200  # ids below this are stepped at home (a crowd this small has no worker)
# one in this many of the later ids is stepped at home: the app's process also draws, so
# its share of the stepping is small (2,000 characters: 425 at home, 1,575 away)
HOME_SHARE = 8
_PARAMETERS = 5  # uniform draws per character (see Walkers.draws)


class Part(Enum):
    """Which of a crowd's character ids a :class:`Walkers` holds."""

    EVERYONE = "everyone"  # one process steps them all
    HOME = "home"  # the app's process: the hero and the ids a worker does not take
    AWAY = "away"  # a worker process

    def holds(self, ids: NDArray[np.intp]) -> NDArray[np.bool_]:
        """Whether each character id (M,) is of this part."""
        if self is Part.EVERYONE:
            return np.ones(ids.shape, dtype=bool)
        away = (ids >= HOME_ONLY) & (ids % HOME_SHARE != 0)
        return away if self is Part.AWAY else ~away

    def ids(self, count: int) -> NDArray[np.intp]:
        """The ids of this part among a crowd of ``count`` characters, in order."""
        every = np.arange(count)
        return every[self.holds(every)]


EVERYONE, HOME, AWAY = Part.EVERYONE, Part.HOME, Part.AWAY


def walkable_course(rig: Rig, terrain: Terrain) -> tuple[float, float]:
    """The stretch of terrain the crowd walks: around the start, between walls too tall to
    step up (the loft beyond the far wall is the ladder's)."""
    return terrain.walkable_range(START_X, rig.gait.max_step_height)


def draws(seed: int, count: int) -> NDArray[np.float64]:
    """Uniform draws, shape (count, 5): start x, facing, pace, runner, start delay.

    Row i is the same for any ``count`` > i (PCG64 draws doubles in sequence), so a grown
    crowd keeps its first characters and adds the same newcomers every time.
    """
    return np.random.default_rng(seed).random((count, _PARAMETERS))


def layout(
    walkable: tuple[float, float], drawn: NDArray[np.float64], ids: NDArray[np.intp]
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Start x and facing of the characters ``ids`` (M,) from their ``drawn`` rows (the
    hero's, id 0, are fixed: START_X, facing +x)."""
    lo, hi = walkable
    x = lo + EDGE_MARGIN_M + drawn[ids, 0] * (hi - lo - 2.0 * EDGE_MARGIN_M)
    facing = np.where(drawn[ids, 1] < 0.5, -1.0, 1.0)
    hero = ids == 0
    x[hero], facing[hero] = START_X, 1.0
    return x, facing


@dataclass(frozen=True, slots=True)
class Shown:
    """Characters as drawn at one step: their ids (M,), pose and solved joints, the elbows
    and hands (knees and ankles) ``(M, 4, 2)`` in limb order."""

    ids: NDArray[np.intp]
    pose: PoseInputs
    elbow: NDArray[np.float64]
    hand: NDArray[np.float64]

    def then(self, later: Shown) -> Shown:
        """These rows followed by ``later``'s."""
        return Shown(
            np.concatenate([self.ids, later.ids]),
            take_rows(self.pose, len(self.ids), later.pose),
            np.concatenate([self.elbow, later.elbow]),
            np.concatenate([self.hand, later.hand]),
        )


@dataclass(frozen=True, slots=True)
class Resized:
    """The crowd has ``count`` characters from this step on (``+``/``−``)."""

    count: int

    def apply(self, walkers: Walkers) -> None:
        walkers.resize(self.count)


@dataclass(frozen=True, slots=True)
class NewGround:
    """The ground was edited in another scene: the crowd stands afresh on ``terrain``."""

    terrain: Terrain

    def apply(self, walkers: Walkers) -> None:
        walkers.lay_out_on(self.terrain)


@dataclass(frozen=True, slots=True)
class NewAssets:
    """The rig and terrain files were read again (F5)."""

    rig: Rig
    terrain: Terrain

    def apply(self, walkers: Walkers) -> None:
        walkers.apply_assets(self.rig, self.terrain)


Event = Resized | NewGround | NewAssets
"""What changes a crowd between its steps, applied to each part before the step."""


class Walkers:
    """The characters of ``part`` among a crowd of ``count``, standing at their seeded
    spots on ``terrain``.

    Attributes
    ----------
    crowd : Crowd
        Their simulation, M rows.
    ids : ndarray of int, shape (M,)
        Each row's character (the hero, when held, stays in row 0).
    pace, runs, start_delay : ndarray, shape (M,)
        Each one's walk intent magnitude, run blend (0 or 1) and seconds before it sets off.
    direction, stuck : ndarray, shape (M,)
        The way each walks (±1) and for how long it has been held still (seconds).
    crowd_size : int
        Characters in the whole crowd, every part's.
    """

    def __init__(self, rig: Rig, terrain: Terrain, seed: int, count: int, part: Part) -> None:
        self.seed, self.part = seed, part
        self.crowd_size = count  # the whole crowd's, every part's characters
        self.ids = part.ids(count)
        self.crowd = Crowd(rig, terrain, *self._spots(rig, terrain, self.ids, count))
        self.hero_steered = False  # the hero's input moved it this step
        self.solves = IkCounters()  # every limb this part has solved
        self.direction = self.crowd.facing.copy()
        self.stuck = np.zeros(len(self.ids))
        self._set_behaviour(count)

    def _spots(
        self, rig: Rig, terrain: Terrain, ids: NDArray[np.intp], count: int
    ) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        return layout(walkable_course(rig, terrain), draws(self.seed, count), ids)

    def _set_behaviour(self, count: int) -> None:
        """Pace, runner and start delay of every row, from its character's draws."""
        drawn = draws(self.seed, count)[self.ids]
        self.pace = PACE_RANGE[0] + drawn[:, 2] * (PACE_RANGE[1] - PACE_RANGE[0])
        self.runs = (drawn[:, 3] < RUNNER_SHARE).astype(float)
        self.start_delay = drawn[:, 4] * MAX_START_DELAY
        hero = self.ids == 0
        self.pace[hero], self.runs[hero], self.start_delay[hero] = 1.0, 0.0, 0.0

    @property
    def count(self) -> int:
        """The number of characters held."""
        return self.crowd.count

    def shown(self) -> tuple[Shown, Shown]:
        """The rows as drawn at the last step and the one before."""
        crowd = self.crowd
        now, then = crowd.solution, crowd.prev_solution
        return (
            Shown(self.ids, crowd.prev_pose, then.elbow, then.hand),
            Shown(self.ids, crowd.pose, now.elbow, now.hand),
        )

    def copy(self) -> Walkers:
        """A copy to go back to: every array of the characters copied, their world (rig,
        ground and its caches, which are functions of what they are asked) shared."""
        world = self.crowd.world
        return copy.deepcopy(self, {id(world): world})

    # -- events ------------------------------------------------------------------------
    def resize(self, count: int) -> None:
        """The crowd has ``count`` characters now: the ones held below it carry on, the
        part's newcomers stand at their seeded spots."""
        if count == self.crowd_size:
            return
        self._put_in_order(np.argsort(self.ids))
        kept = int(np.count_nonzero(self.ids < count))
        self.crowd_size = count
        # (growing keeps every row, shrinking takes no newcomer)
        self._keep_and_add(kept, self.part.ids(count)[kept:])

    def take_in(self, part: Part) -> None:
        """Hold ``part``'s characters too from now on (the worker stepping them was lost):
        they join standing at their seeded spots, as newcomers do."""
        self._keep_and_add(self.count, part.ids(self.crowd_size))
        self.part = EVERYONE if {self.part, part} == {HOME, AWAY} else self.part

    def _keep_and_add(self, kept: int, newcomers: NDArray[np.intp]) -> None:
        """The first ``kept`` rows carry on; the characters ``newcomers`` (M,) join after
        them, standing at their seeded spots."""
        x, facing = self._spots(self.crowd.rig, self.crowd.terrain, newcomers, self.crowd_size)
        self.crowd.resize(kept + len(newcomers), x, facing)
        self.ids = np.concatenate([self.ids[:kept], newcomers])
        self.direction = np.concatenate([self.direction[:kept], self.crowd.facing[kept:]])
        self.stuck = np.concatenate([self.stuck[:kept], np.zeros(len(newcomers))])
        self._set_behaviour(self.crowd_size)

    def lay_out_on(self, terrain: Terrain) -> None:
        """Stand afresh on new ground (edited in another scene), as a new crowd would."""
        count, rig = self.crowd_size, self.crowd.rig
        self.ids = self.part.ids(count)
        self.crowd = Crowd(rig, terrain, *self._spots(rig, terrain, self.ids, count))
        self.direction = self.crowd.facing.copy()
        self.stuck = np.zeros(len(self.ids))
        self._set_behaviour(count)

    def apply_assets(self, rig: Rig, terrain: Terrain) -> None:
        """A new rig and terrain from the next step on; footsteps and knee flips counted
        afresh (:meth:`game.world.character.Crowd.apply_assets`)."""
        self.crowd.apply_assets(rig, terrain)
        self.crowd.reset_counts()

    # -- one step ----------------------------------------------------------------------
    def step(
        self,
        index: int,
        dt: float,
        steer: float = 0.0,
        run: bool = False,
        timer: PhaseTimer | None = None,
    ) -> None:
        """Step ``index`` (at time ``index · dt``) of every character held, and its solve:
        each walks its way at its pace, turning around near an end of the course or when
        held still too long; the input ``steer`` in [−1, 1] (0: none) and ``run`` move the
        hero instead, when it is held."""
        self._in_ground_order(index)
        time = index * dt
        self._turn_around(time, dt)
        walking = time >= self.start_delay
        move = np.where(walking, self.direction * self.pace, 0.0)
        runs = self.runs.copy()
        hero = self.count > 0 and int(self.ids[0]) == 0
        self.hero_steered = hero and abs(steer) > STILL_SPEED
        if self.hero_steered:
            move[0], runs[0] = steer, 1.0 if run else 0.0
            self.direction[0] = np.sign(steer)
            self.stuck[0] = 0.0
        self.crowd.step(move, runs, dt)
        self.solves.record(self.crowd.solve(timer))

    def _turn_around(self, time: float, dt: float) -> None:
        """Walkers near an end, or held still too long, turn back (the hero not while its
        input moves it)."""
        crowd = self.crowd
        lo, hi = walkable_course(crowd.rig, crowd.terrain)
        walking = time >= self.start_delay
        held = walking & (np.abs(crowd.vx) < STILL_SPEED)
        self.stuck = np.where(held, self.stuck + dt, 0.0)
        at_end = np.where(
            self.direction > 0, crowd.x > hi - EDGE_MARGIN_M, crowd.x < lo + EDGE_MARGIN_M
        )
        turn = at_end | (self.stuck > STUCK_SECONDS)
        if self.hero_steered:
            turn[0] = False
        self.direction = np.where(turn, -self.direction, self.direction)
        self.stuck = np.where(turn, 0.0, self.stuck)

    def _put_in_order(self, order: NDArray[np.intp]) -> None:
        """The character in row ``order[i]`` moved to row ``i``, with its own draws
        (:meth:`game.world.character.Crowd.reorder`)."""
        self.crowd.reorder(order)
        for name in ("ids", "pace", "runs", "start_delay", "direction", "stuck"):
            setattr(self, name, getattr(self, name)[order])

    def _in_ground_order(self, index: int) -> None:
        """Every :data:`ORDER_EVERY` steps, the rows sorted by their pelvis x, the hero's
        kept first: a step's terrain lookups then come in ground order, which the binary
        searches of ``np.interp`` and ``searchsorted`` go through several times faster
        (they start from the last answer and predict their branches)."""
        x = self.crowd.x
        if index % ORDER_EVERY or len(x) < 3:
            return
        first = 1 if self.ids[0] == 0 else 0
        rest = np.argsort(x[first:], kind="stable")
        if (rest[1:] > rest[:-1]).all():
            return
        self._put_in_order(np.concatenate([np.arange(first), rest + first]))
