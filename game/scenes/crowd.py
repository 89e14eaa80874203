"""The crowd scene: N characters walking the terrain, every limb solved in one batched call.

The simulation is a :class:`game.world.character.Crowd` of N (default 200, ``--characters``
overrides; ``+``/``−`` change it by 50 while running, within the 1 to
:data:`~game.options.MAX_CHARACTERS` that ``--characters`` accepts). Each character has its own pace, start
delay (so the gait phases differ from the first step) and walking direction, drawn from the
seed; a character turns around near either end of the terrain, or when it has stood blocked
(a too-tall rise) for half a second. All of it is vectorised: one step is a handful of
``(N,)`` array operations, ``Crowd.step``, then one ``ik.solve_2d`` for all 4·N limbs.

Character 0 is the hero: A/D (arrows) steer it, Shift runs; left alone it walks like the rest.
The hero stays in row 0; the other rows are sorted by x every :data:`ORDER_EVERY` steps (the
ground's lookups are cheaper in ground order), and ``CrowdSim.ids`` names each row's character.

The trace carries a fixed sample, the first :data:`TRACE_SAMPLE` characters (ids 0…7), so its
cost stays bounded whatever N is; the stats file has ``characters`` (N) and ``feet`` totals.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, cast

import numpy as np
from numpy.typing import NDArray

from game.ik_counters import IkCounters
from game.input_state import InputState
from game.options import MAX_CHARACTERS
from game.profiling import PhaseTimer
from game.scene import SceneConfig
from game.scenes.character_assets import (
    EDITED_TERRAIN,
    CharacterAssets,
    load_character_assets,
)
from game.scenes.walk import START_X, character_records, trace_header
from game.world.character import Crowd
from game.world.rig import Rig
from game.world.terrain import Terrain
from game.world.walker_state import rows_of

DEFAULT_CHARACTERS = 200
CHARACTERS_STEP = 50  # + / − go to the next or last multiple of this (within 1 … MAX_CHARACTERS)
TRACE_SAMPLE = 8  # characters written to the trace each step
EDGE_MARGIN_M = 1.6  # characters turn around this far from either end of the course
STUCK_SECONDS = 0.5  # a character held still this long (a wall, a tall step) turns around
STILL_SPEED = 0.05  # m/s below which a character counts as held still
PACE_RANGE = (0.45, 1.0)  # walk intent magnitude
RUNNER_SHARE = 0.12  # the share of characters that run
MAX_START_DELAY = 1.2  # seconds; staggers the first steps so the gait phases differ
ORDER_EVERY = 15  # steps between sortings of the crowd's rows into ground order
_PARAMETERS = 5  # uniform draws per character (see CrowdSim._parameters)


def walkable_course(rig: Rig, terrain: Terrain) -> tuple[float, float]:
    """The stretch of terrain the crowd walks: around the start, between walls too tall to
    step up (the loft beyond the far wall is the ladder's)."""
    return terrain.walkable_range(START_X, rig.gait.max_step_height)


class CrowdSim(CharacterAssets):
    """N characters walking the terrain; the hero is character 0."""

    def __init__(self, config: SceneConfig) -> None:
        self.dt = config.dt
        self.seed = config.seed
        self.step_index = 0
        self.time = 0.0
        self.counters = IkCounters()
        self.assets_dir = Path(config.assets_dir)
        self.session = config.extra
        rig, terrain = load_character_assets(self.assets_dir, self.session)
        count = max(int(config.characters or DEFAULT_CHARACTERS), 1)
        x, facing = self._layout(walkable_course(rig, terrain), self._parameters(count))
        self.crowd = Crowd(rig, terrain, x, facing)
        self.ids = np.arange(count)  # the character (its seeded draws, its tint) in each row
        self.terrain_changed = False  # the ground changed this step (rebuilt on an edit)
        self.hero_steered = False
        self._set_behaviour(count)

    # -- per-character parameters ------------------------------------------------------
    def _parameters(self, count: int) -> NDArray[np.float64]:
        """Uniform draws, shape (count, 5): start x, facing, pace, runner, start delay.

        Row i is the same for any ``count`` > i (PCG64 draws doubles in sequence), so a
        grown crowd keeps its first characters and adds the same newcomers every time.
        """
        return np.random.default_rng(self.seed).random((count, _PARAMETERS))

    @staticmethod
    def _layout(
        walkable: tuple[float, float], draws: NDArray[np.float64]
    ) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """Start x and facing from ``draws`` (the hero's row is fixed: START_X, facing +x)."""
        lo, hi = walkable
        x = lo + EDGE_MARGIN_M + draws[:, 0] * (hi - lo - 2.0 * EDGE_MARGIN_M)
        facing = np.where(draws[:, 1] < 0.5, -1.0, 1.0)
        x[0], facing[0] = START_X, 1.0
        return x, facing

    def _set_behaviour(self, count: int) -> None:
        draws = self._parameters(count)
        self.pace = PACE_RANGE[0] + draws[:, 2] * (PACE_RANGE[1] - PACE_RANGE[0])
        self.runs = (draws[:, 3] < RUNNER_SHARE).astype(float)
        self.start_delay = draws[:, 4] * MAX_START_DELAY
        self.pace[0], self.runs[0], self.start_delay[0] = 1.0, 0.0, 0.0
        old = getattr(self, "direction", np.zeros(0))
        self.direction = np.concatenate([old[:count], self.crowd.facing[old.shape[0] :]])
        stuck = getattr(self, "stuck", np.zeros(0))
        self.stuck = np.concatenate([stuck[:count], np.zeros(max(count - stuck.shape[0], 0))])

    @property
    def character_count(self) -> int:
        """N, the number of characters."""
        return self.crowd.count

    def resize(self, count: int) -> None:
        """Change N: the first characters carry on, newcomers stand at their seeded spots."""
        count = max(count, 1)
        if count == self.crowd.count:
            return
        self._put_in_order(self.rows_by_id)
        x, facing = self._layout(walkable_course(self.rig, self.terrain), self._parameters(count))
        kept = self.crowd.count
        self.crowd.resize(count, x[kept:], facing[kept:])
        self.ids = np.arange(count)
        self._set_behaviour(count)

    @property
    def rows_by_id(self) -> NDArray[np.intp]:
        """The crowd's rows in character order: the row of character 0, 1, …"""
        return np.argsort(self.ids)

    def by_id(self, rows: NDArray[Any]) -> NDArray[Any]:
        """A per-row array ``(N, ...)`` of the crowd (or of this scene) in character order."""
        return rows[self.rows_by_id]

    def _put_in_order(self, order: NDArray[np.intp]) -> None:
        """The character in row ``order[i]`` moved to row ``i``, with its own draws
        (:meth:`game.world.character.Crowd.reorder`)."""
        self.crowd.reorder(order)
        self.ids = self.ids[order]
        for name in ("pace", "runs", "start_delay", "direction", "stuck"):
            setattr(self, name, getattr(self, name)[order])

    def _in_ground_order(self) -> None:
        """Every :data:`ORDER_EVERY` steps, the characters' rows sorted by their pelvis x,
        the hero's kept first: a step's terrain lookups then come in ground order, which
        the binary searches of ``np.interp`` and ``searchsorted`` go through several times
        faster (they start from the last answer and predict their branches)."""
        x = self.crowd.x
        if self.step_index % ORDER_EVERY or len(x) < 3:
            return
        rest = np.argsort(x[1:], kind="stable")
        if (rest[1:] > rest[:-1]).all():
            return
        self._put_in_order(np.concatenate([[0], rest + 1]))

    # -- one step ----------------------------------------------------------------------
    def _on_current_ground(self) -> None:
        """Stand on the ground edited in the walk scene since this crowd was built (it is
        resumed, not built again, when the scene is opened again): the crowd is laid out
        afresh on it, as a new scene would be."""
        edited = self.session.get(EDITED_TERRAIN)
        self.terrain_changed = isinstance(edited, Terrain) and edited is not self.terrain
        if isinstance(edited, Terrain) and self.terrain_changed:
            self._put_in_order(self.rows_by_id)
            count = self.crowd.count
            x, facing = self._layout(walkable_course(self.rig, edited), self._parameters(count))
            self.crowd = Crowd(self.rig, edited, x, facing)
            self.direction = facing
            self.stuck = np.zeros(count)

    def terrain_update(self) -> list[list[float]] | None:
        """The ground polyline when it changed this step (the trace's ``terrain`` key)."""
        return self.terrain.to_json() if self.terrain_changed else None

    def files_read_by(self, inp: InputState) -> tuple[Path, ...]:
        """No step of the crowd reads a file (``game.scene.EditableGround``)."""
        return ()

    def step(self, inp: InputState, dt: float, timer: PhaseTimer) -> None:
        self._on_current_ground()
        # every press counts, in order: several in one frame arrive in one step's actions
        count = self.crowd.count
        for action in inp.actions:
            if action == "crowd_more":  # to the next multiple of the step (1 -> 50 -> 100)
                count = min(
                    (count // CHARACTERS_STEP + 1) * CHARACTERS_STEP, max(count, MAX_CHARACTERS)
                )
            elif action == "crowd_less":  # to the multiple below (120 -> 100), at least one
                count = max((count - 1) // CHARACTERS_STEP * CHARACTERS_STEP, 1)
        self.resize(count)
        self._in_ground_order()
        crowd = self.crowd
        self._turn_around(dt)
        walking = self.time >= self.start_delay
        move = np.where(walking, self.direction * self.pace, 0.0)
        run = self.runs.copy()
        steer = float(np.clip(np.nan_to_num(inp.move), -1.0, 1.0))
        self.hero_steered = abs(steer) > STILL_SPEED
        if self.hero_steered:
            move[0], run[0] = steer, 1.0 if inp.run else 0.0
            self.direction[0] = np.sign(steer)
            self.stuck[0] = 0.0
        crowd.step(move, run, dt)
        solution = crowd.solve(timer)
        self.counters.record(solution)
        self.step_index += 1
        self.time = self.step_index * dt

    def _turn_around(self, dt: float) -> None:
        """Walkers near an end, or held still too long, turn back (vectorised)."""
        crowd = self.crowd
        lo, hi = walkable_course(self.rig, self.terrain)
        walking = self.time >= self.start_delay
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

    # -- outputs -----------------------------------------------------------------------
    def trace_header(self) -> dict[str, Any]:
        return trace_header("crowd", self.dt, self.terrain, self.rig)

    def trace_characters(self) -> list[dict[str, Any]]:
        """The first :data:`TRACE_SAMPLE` characters in trace format."""
        rows = self.rows_by_id[:TRACE_SAMPLE]
        return character_records(cast(Crowd, _Sample(self.crowd, rows)))

    def stats_sections(self) -> dict[str, Any]:
        crowd = self.crowd
        return {
            "characters": crowd.count,
            "feet": {
                "steps_taken": int(crowd.feet.steps.sum()),
                "knee_flips": int(crowd.knee_flips.sum()),
            },
        }


class _Sample:
    """The characters in a crowd's ``rows``, as :func:`character_records` reads it."""

    def __init__(self, crowd: Crowd, rows: NDArray[np.intp]) -> None:
        self.rig = crowd.rig
        self.pose = rows_of(crowd.pose, rows)
        self.solution = crowd.solution.rows(rows)
        self.feet = rows_of(crowd.feet, rows)
        self.count = len(rows)


class CrowdAutopilot:
    """Leaves the crowd to itself (the characters walk and turn on their own): no input."""

    def __init__(self, sim: CrowdSim, config: SceneConfig) -> None:
        self.dt = config.dt

    def next_input(self, sim: CrowdSim) -> InputState:
        return InputState()
