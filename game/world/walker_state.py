"""The walkers' state as data: what each of N characters is (body, feet, stored modes),
what it is asked for (:class:`Intent`), and the world it walks in (:class:`World`).

Every array is ``(N, ...)``. Growing or shrinking a crowd is derived from the dataclass
fields (:func:`take_rows`), so a new per-character array is one new field, nothing more.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field, fields
from typing import Any

import numpy as np
from numpy.typing import NDArray

from game.world.feet import Feet
from game.world.modes import (
    MOTION_BRAKE,
    MOTION_PIVOT,
    MOTION_STAND,
    PACING_JOG,
    PACING_STAIR_RUN,
    PACING_WALK,
    Modes,
    mode_of,
)
from game.world.rig import Rig
from game.world.stance import RolledFeet
from game.world.terrain import Terrain
from game.world.types import BoolArray, FloatArray

ARMS = slice(0, 2)
"""The arms' rows of every ``(N, 4, ...)`` limb array (:data:`game.world.rig.LIMBS`)."""
LEGS = slice(2, 4)
"""The legs' rows."""
Rows = slice | NDArray[np.intp]
"""The characters a query is asked about: all of them (:data:`EVERY_ROW`) or some rows."""
EVERY_ROW = slice(None)


@dataclass(slots=True)
class Intent:
    """What a scene, a prop or the autopilot asks of each character (written only through
    :class:`game.world.character.Crowd`'s command methods).

    Attributes
    ----------
    goal_x : ndarray, shape (N,)
        A spot to walk right up to by an edge (``walk_to``), or NaN.
    face_goal : ndarray, shape (N,)
        The facing wanted while standing (``turn_to``), 0: none.
    crouch_goal : ndarray, shape (N,)
        0 upright … 1 a full crouch (``crouch_to``).
    hand_target : ndarray, shape (N, 2, 2)
        Where each hand reaches (``aim_hands``) ...
    hand_weight : ndarray, shape (N, 2)
        ... blended over the arm swing by this weight in [0, 1].
    pin_target : ndarray, shape (N, 2, 2)
        Where a foot held by the mouse or a kick is (``pin_foot``).
    knee_poles : ndarray of bool, shape (N,)
        The knees follow their pole hints (``use_knee_poles``).
    lead_foot : ndarray of int8, shape (N,)
        The foot that steps first when the character sets off (``lead_with``): 0 left,
        1 right, −1 whichever the gait picks.
    """

    goal_x: FloatArray
    face_goal: FloatArray
    crouch_goal: FloatArray
    hand_target: FloatArray
    hand_weight: FloatArray
    pin_target: FloatArray
    knee_poles: BoolArray
    lead_foot: NDArray[np.int8]

    @classmethod
    def none(cls, n: int) -> Intent:
        """No wishes for ``n`` characters: knee poles on, hands swinging."""
        return cls(
            goal_x=np.full(n, np.nan),
            face_goal=np.zeros(n),
            crouch_goal=np.zeros(n),
            hand_target=np.zeros((n, 2, 2)),
            hand_weight=np.zeros((n, 2)),
            pin_target=np.zeros((n, 2, 2)),
            knee_poles=np.ones(n, dtype=bool),
            lead_foot=np.full(n, -1, dtype=np.int8),
        )


@dataclass(slots=True)
class WalkState:
    """Every per-character array of N walkers; the step's stages read and write it.

    Attributes
    ----------
    x, y, vx, vy : ndarray, shape (N,)
        Pelvis position and velocity (metres, m/s).
    facing : ndarray, shape (N,)
        +1 (facing +x) or −1.
    phase : ndarray, shape (N,)
        Gait phase in [0, 1): the left foot's.
    idle : ndarray of bool, shape (N,)
        The last step stood, pivoted or had nowhere to go.
    lean : ndarray, shape (N,)
        The spine's lean (radians forward), eased.
    crouch : ndarray, shape (N,)
        0 upright … 1 a full crouch, eased toward ``intent.crouch_goal``.
    motion : ndarray of int8, shape (N,)
        The turn machine's :class:`~game.world.modes.Motion` (STAND, GO, BRAKE, PIVOT),
        written only through :func:`~game.world.modes.next_motion`.
    turn, turn_from : ndarray, shape (N,)
        Pivot progress in [0, 1) (> 0 exactly while ``motion`` is PIVOT) and the facing it
        started from.
    reversing_s : ndarray, shape (N,)
        Seconds the brake has run (BRAKE; kept through the first step of the PIVOT it
        leads to, 0 otherwise).
    settling : ndarray of bool, shape (N, 2)
        Feet rising onto the ground after a pivot.
    pacing : ndarray of int8, shape (N,)
        How the feet are timed, :class:`~game.world.modes.Pacing` (WALK, RUN, JOG,
        STAIR_RUN), written only through :func:`~game.world.modes.next_pacing`.
    v_goal, wanted : ndarray, shape (N,)
        The walk's wanted velocity before any slope or flight; last step's walk direction
        (+1, −1; 0: none).
    blocked : ndarray of bool, shape (N,)
        Walking into ground a step cannot take.
    feet : Feet
        Both feet of every character.
    intent : Intent
        What the character is asked for.
    knee_side, knee_flips : ndarray, shape (N, 2) and (N,)
        Each bent knee's side of its hip→ankle line (relative to facing) and the flips
        counted.
    """

    x: FloatArray
    y: FloatArray
    vx: FloatArray
    vy: FloatArray
    facing: FloatArray
    phase: FloatArray
    idle: BoolArray
    lean: FloatArray
    crouch: FloatArray
    motion: Modes
    turn: FloatArray
    turn_from: FloatArray
    reversing_s: FloatArray
    settling: BoolArray
    pacing: Modes
    v_goal: FloatArray
    wanted: FloatArray
    blocked: BoolArray
    feet: Feet
    intent: Intent
    knee_side: FloatArray
    knee_flips: NDArray[np.int64]

    @classmethod
    def at(cls, x: FloatArray, facing: FloatArray, feet: Feet) -> WalkState:
        """Characters standing still at pelvis ``x`` facing ``facing`` (N,) on ``feet``."""
        n = x.shape[0]
        return cls(
            x=x,
            y=np.zeros(n),
            vx=np.zeros(n),
            vy=np.zeros(n),
            facing=facing,
            phase=np.zeros(n),
            idle=np.ones(n, dtype=bool),
            lean=np.zeros(n),
            crouch=np.zeros(n),
            motion=np.full(n, MOTION_STAND, dtype=np.int8),
            turn=np.zeros(n),
            turn_from=facing.copy(),
            reversing_s=np.zeros(n),
            settling=np.zeros((n, 2), dtype=bool),
            pacing=np.full(n, PACING_WALK, dtype=np.int8),
            v_goal=np.zeros(n),
            wanted=np.zeros(n),
            blocked=np.zeros(n, dtype=bool),
            feet=feet,
            intent=Intent.none(n),
            knee_side=np.zeros((n, 2)),
            knee_flips=np.zeros(n, dtype=np.int64),
        )

    @property
    def count(self) -> int:
        """N, the number of characters."""
        return int(self.x.shape[0])

    @property
    def turning(self) -> BoolArray:
        """Characters pivoting in place this step (``motion`` PIVOT), shape (N,)."""
        return np.asarray(self.motion == MOTION_PIVOT)

    @property
    def reversing(self) -> BoolArray:
        """Characters braking to turn round, shape (N,): ``motion`` BRAKE, and the first
        step of the PIVOT it led to (the stages after the pivot's start still see that
        step's brake; its timer ``reversing_s`` runs until the next step's transition and
        is 0 in every other motion)."""
        return np.asarray((self.motion == MOTION_BRAKE) | (self.reversing_s > 0.0))

    @property
    def sprinting(self) -> BoolArray:
        """The run input held while moving (``pacing`` not WALK), shape (N,)."""
        return np.asarray(self.pacing != PACING_WALK)

    @property
    def jogging(self) -> BoolArray:
        """A run held to a jog by a steep slope (``pacing`` JOG), shape (N,)."""
        return np.asarray(self.pacing == PACING_JOG)

    @property
    def stair_run(self) -> BoolArray:
        """Running on a flight, quick stair steps (``pacing`` STAIR_RUN), shape (N,)."""
        return np.asarray(self.pacing == PACING_STAIR_RUN)

    @property
    def spin(self) -> FloatArray:
        """The facing as it turns, shape (N,): ±1, through 0 mid-pivot (cosine of the
        pivot angle, so the foot's apparent length is its projection)."""
        spin = self.facing.copy()
        rows = np.flatnonzero(self.turning)  # (a few of a crowd: computed on those alone)
        if len(rows):
            # the turn eases in (t²): the middle comes at t = 1/√2, when the pelvis, rising
            # through the pivot, has straightened the legs
            spin[rows] = self.turn_from[rows] * np.cos(np.pi * self.turn[rows] ** 2)
        return spin

    def modes(self, still_speed: float) -> Modes:
        """Each character's :class:`~game.world.modes.Mode` this step, shape (N,): its
        stored axes named (:func:`~game.world.modes.mode_of`)."""
        coasting = np.abs(self.vx) >= still_speed
        return mode_of(self.motion, self.pacing, self.crouch > 0.0, coasting)


@functools.cache
def _field_names(kind: type) -> tuple[str, ...]:
    """The field names of the dataclass ``kind`` (``dataclasses.fields`` builds them anew
    on every call)."""
    return tuple(f.name for f in fields(kind))


def take_rows(mine: Any, kept: int, theirs: Any = None) -> Any:
    """The first ``kept`` rows of every array in the dataclass ``mine`` (nested dataclasses
    too), followed by ``theirs``'s rows where given (same type): how a crowd grows or
    shrinks without a list of its arrays."""
    if isinstance(mine, np.ndarray):
        part = mine[:kept]
        return part.copy() if theirs is None else np.concatenate([part, theirs])
    return type(mine)(
        **{
            name: take_rows(getattr(mine, name), kept, theirs and getattr(theirs, name))
            for name in _field_names(mine.__class__)
        }
    )


def rows_of(mine: Any, rows: NDArray[np.intp]) -> Any:
    """Every array of the dataclass ``mine`` (nested dataclasses too) at ``rows`` (M,),
    repeats allowed: the characters a rare stage reads, so that it computes on them alone.
    Each query of the stages works row by row, so it reads the same numbers on these rows
    as on the whole crowd."""
    if isinstance(mine, np.ndarray):
        # (take: a fancy index over the first axis of an (N, 2, ...) array costs several
        # times more for a few hundred rows)
        return mine.take(rows, axis=0)
    kind = mine.__class__
    return kind(**{name: rows_of(getattr(mine, name), rows) for name in _field_names(kind)})


def some_rows(mine: Any, rows: NDArray[np.intp], count: int) -> Any:
    """:func:`rows_of` for sorted, distinct ``rows`` (M,) of ``count`` characters (as
    ``np.flatnonzero`` gives them), or ``mine`` itself when they are all of them (no copy:
    a lone walker's rare stages read its state as it is)."""
    return mine if len(rows) == count else rows_of(mine, rows)


def put_rows(mine: Any, rows: NDArray[np.intp], part: Any) -> None:
    """Write ``part`` (the dataclass :func:`rows_of` took at ``rows``) back into ``mine``'s
    arrays at ``rows``, in place: the characters a step leaves as they were."""
    for name in _field_names(mine.__class__):
        into, back = getattr(mine, name), getattr(part, name)
        if isinstance(into, np.ndarray):
            into[rows] = back
        else:
            put_rows(into, rows, back)


@dataclass(slots=True)
class World:
    """What the characters walk in, fixed within a step: the rig, the ground, the things
    standing on it (rows ``(x0, x1, top)``), and caches derived from them."""

    rig: Rig
    terrain: Terrain
    obstacles: FloatArray = field(default_factory=lambda: np.zeros((0, 3)))
    rolled: RolledFeet | None = None  # the last support's samples (support.support)
    _swing_ground: tuple[Terrain, bytes, Terrain] | None = None  # (its key, then it)
    # the last few ground grades (timing.ground_grade): (terrain, rig, pelvis x bytes, grade)
    grades: list[tuple[Terrain, Rig, bytes, FloatArray]] = field(default_factory=list)

    @property
    def kept_off(self) -> FloatArray:
        """The obstacles widened by the gap a sole keeps from them (the rig's
        ``tuning.keep_off``): where no sole may come, rows ``(x0, x1, top)``."""
        if not len(self.obstacles):
            return self.obstacles
        gap = self.rig.tuning.keep_off
        return self.obstacles + np.array([-gap, gap, 0.0])

    @property
    def swing_ground(self) -> Terrain:
        """The ground a swinging foot clears: the terrain with the obstacles standing on it
        (rebuilt when either changes)."""
        if not len(self.obstacles):
            return self.terrain
        key = self.obstacles.tobytes()
        cached = self._swing_ground
        if cached is None or cached[0] is not self.terrain or cached[1] != key:
            cached = self._swing_ground = (
                self.terrain,
                key,
                self.terrain.with_boxes(self.obstacles),
            )
        return cached[2]
