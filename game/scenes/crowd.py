"""The crowd scene: N characters walking the terrain, every limb solved in batched calls.

The simulation is N characters (default 200, ``--characters`` overrides; ``+``/``−``
change it by 50 while running, within the 1 to :data:`~game.options.MAX_CHARACTERS` that
``--characters`` accepts). Each character has its own pace, start delay (so the gait phases
differ from the first step) and walking direction, drawn from the run's random seed
(``--seed``); a character turns around near either end of the terrain, or when it has
stood blocked (a too-tall rise) for half a second (:mod:`game.scenes.crowd_walkers`). All of it is vectorised: a step is one
``Crowd.step`` of ``(N,)`` arrays, then one ``ik.solve_2d`` for all 4·N limbs (one of
each per part, below).

A crowd of more than :data:`~game.scenes.crowd_walkers.HOME_ONLY` on a host of two cores or
more is stepped in two parts at once: the home part here, the away part in a worker process
(:mod:`game.scenes.crowd_worker`), each with its own batched solve; every character steps
exactly as in one process (the parts are fixed by character id).

Character 0 is the hero: A/D (arrows) steer it, Shift runs; left alone it walks like the rest.
The hero stays in row 0; the other rows are sorted by x every few steps (the ground's
lookups are cheaper in ground order), and ``Walkers.ids`` names each row's character.

The trace carries a fixed sample, the first :data:`TRACE_SAMPLE` characters (ids 0…7, all
at home), so its cost stays bounded whatever N is; the stats file has ``characters`` (N)
and ``feet`` totals.
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
from game.scenes.crowd_walkers import (
    AWAY,
    EVERYONE,
    HOME,
    Event,
    NewAssets,
    NewGround,
    Resized,
    Shown,
    Walkers,
)
from game.scenes.crowd_worker import AwayFrame, AwayWorker, WorkerLost, can_fork, cores
from game.scenes.walk import character_records, trace_header
from game.world.character import Crowd
from game.world.rig import Rig
from game.world.terrain import Terrain
from game.world.walker_state import rows_of

DEFAULT_CHARACTERS = 200
CHARACTERS_STEP = 50  # + / − go to the next or last multiple of this (within 1 … MAX_CHARACTERS)
TRACE_SAMPLE = 8  # characters written to the trace each step (all stepped at home)


class CrowdSim(CharacterAssets):
    """N characters walking the terrain; the hero is character 0.

    With more than one core and more than :data:`~game.scenes.crowd_walkers.HOME_ONLY`
    characters, the crowd is stepped in two parts: :attr:`home` here, the rest in a worker
    process (:mod:`game.scenes.crowd_worker`), the two at once; otherwise all here.
    ``workers`` overrides the host's say: True splits the crowd, False keeps it all here
    (the tests compare the two).
    """

    def __init__(self, config: SceneConfig, workers: bool | None = None) -> None:
        self.dt = config.dt
        self.seed = config.seed
        self.step_index = 0
        self.time = 0.0
        self._solved_away = IkCounters()  # by workers that have ended
        self.assets_dir = Path(config.assets_dir)
        self.session = config.extra
        rig, terrain = load_character_assets(self.assets_dir, self.session)
        count = max(int(config.characters or DEFAULT_CHARACTERS), 1)
        split = cores() > 1 and can_fork() if workers is None else workers
        self.home = Walkers(rig, terrain, self.seed, count, HOME if split else EVERYONE)
        self.crowd = self.home.crowd  # stepped here (everyone, or home), the hero in row 0
        self.away: AwayWorker | None = None
        self._events: list[Event] = []  # for the away part's next step
        self.terrain_changed = False  # the ground changed this step (rebuilt on an edit)
        self._keep_worker()

    @property
    def character_count(self) -> int:
        """N, the number of characters."""
        return self.home.crowd_size

    @property
    def hero_steered(self) -> bool:
        """The hero's input moved it this step."""
        return self.home.hero_steered

    def _answered(self) -> AwayFrame | None:
        """The away part's last answer (kept when the worker is closed at the end of a run),
        or None when there is none."""
        return None if self.away is None else self.away.last

    def _away_counts(self) -> tuple[int, int]:
        """The away part's footsteps and knee flips: its last answer's, or none while new
        assets wait for its next step (they start its counts again)."""
        last = self._answered()
        if last is None or any(isinstance(event, NewAssets) for event in self._events):
            return 0, 0
        return last.steps_taken, last.knee_flips

    @property
    def steps_taken(self) -> int:
        """Footsteps of every character."""
        return int(self.crowd.feet.steps.sum()) + self._away_counts()[0]

    @property
    def knee_flips(self) -> int:
        """Knee flips of every character."""
        return int(self.crowd.knee_flips.sum()) + self._away_counts()[1]

    @property
    def counters(self) -> IkCounters:
        """Every limb solved, here and away."""
        solved = self.home.solves.plus(self._solved_away)
        last = self._answered()
        return solved if last is None else solved.plus(last.solves)

    def shown(self) -> tuple[Shown, Shown]:
        """Every character as drawn at the step before the last and at the last, the home
        rows first (the hero in row 0). An event between steps (F5 while paused) shows in
        the home rows at once and in the away rows from the next step."""
        before, now = self.home.shown()
        away = self.away
        if away is None or away.last is None or away.shown_before is None:
            return before, now
        return before.then(away.shown_before), now.then(away.last.now)

    def _apply(self, event: Event) -> None:
        """An event here now, and to the away part at its next step."""
        event.apply(self.home)
        self.crowd = self.home.crowd  # (new ground brings a new crowd)
        self._events.append(event)

    def resize(self, count: int) -> None:
        """Change N: the first characters carry on, newcomers stand at their seeded spots."""
        count = max(count, 1)
        if count != self.character_count:
            self._apply(Resized(count))

    def apply_assets(self, rig: Rig, terrain: Terrain) -> None:
        """:meth:`game.scenes.character_assets.CharacterAssets.apply_assets`, for every part."""
        self._apply(NewAssets(rig, terrain))

    def close(self) -> None:
        """End the worker process, if one runs (the run is over: the away part's last
        figures stay readable for the stats)."""
        if self.away is not None:
            self.away.close()

    def _retire_worker(self) -> None:
        """End the worker: its characters are gone (its solves stay counted)."""
        if self.away is not None:
            if self.away.last is not None:
                self._solved_away = self._solved_away.plus(self.away.last.solves)
            self.away.close()
            self.away = None

    # -- one step ----------------------------------------------------------------------
    def _on_current_ground(self) -> None:
        """Stand on the ground edited in the walk scene since this crowd was built (it is
        resumed, not built again, when the scene is opened again): the crowd is laid out
        afresh on it, as a new scene would be."""
        edited = self.session.get(EDITED_TERRAIN)
        self.terrain_changed = isinstance(edited, Terrain) and edited is not self.terrain
        if isinstance(edited, Terrain) and self.terrain_changed:
            self._apply(NewGround(edited))

    def terrain_update(self) -> list[list[float]] | None:
        """The ground polyline when it changed this step (the trace's ``terrain`` key)."""
        return self.terrain.to_json() if self.terrain_changed else None

    def files_read_by(self, inp: InputState) -> tuple[Path, ...]:
        """No step of the crowd reads a file (``game.scene.EditableGround``)."""
        return ()

    def _keep_worker(self) -> None:
        """A worker while the crowd has characters away (started with them standing at
        their seeded spots, as newcomers would), none otherwise."""
        wanted = self.home.part is HOME and len(AWAY.ids(self.character_count)) > 0
        if wanted and self.away is None:
            self.away = AwayWorker(
                self.rig, self.terrain, self.seed, self.character_count, self.step_index, self.dt
            )
            self._events.clear()
        elif not wanted:
            self._retire_worker()
            self._events.clear()

    def step(self, inp: InputState, dt: float, timer: PhaseTimer) -> None:
        self._on_current_ground()
        # every press counts, in order: several in one frame arrive in one step's actions
        count = self.character_count
        for action in inp.actions:
            if action == "crowd_more":  # to the next multiple of the step (1 -> 50 -> 100)
                count = min(
                    (count // CHARACTERS_STEP + 1) * CHARACTERS_STEP, max(count, MAX_CHARACTERS)
                )
            elif action == "crowd_less":  # to the multiple below (120 -> 100), at least one
                count = max((count - 1) // CHARACTERS_STEP * CHARACTERS_STEP, 1)
        self.resize(count)
        self._keep_worker()
        self._ask()
        steer = float(np.clip(np.nan_to_num(inp.move), -1.0, 1.0))
        try:
            self.home.step(self.step_index, dt, steer, inp.run, timer)
        finally:  # (whatever happened here, the away part took the step: it is read)
            self._answer()
            self.step_index += 1
            self.time = self.step_index * dt

    def _ask(self) -> None:
        """Ask the worker for this step, with the events since the last."""
        if self.away is not None:
            try:
                self.away.ask(self.step_index, tuple(self._events))
            except WorkerLost:
                self._take_everyone_home()
            self._events.clear()

    def _answer(self) -> None:
        """Read the worker's answer to this step."""
        if self.away is not None:
            try:
                self.away.answer(self.step_index)
            except WorkerLost:
                self._take_everyone_home()

    def _take_everyone_home(self) -> None:
        """The worker was lost: the crowd goes on in this process, the away characters
        standing afresh at their seeded spots (their state went with the worker), and no
        worker is started again."""
        self._retire_worker()
        self.home.take_in(AWAY)

    # -- outputs -----------------------------------------------------------------------
    def trace_header(self) -> dict[str, Any]:
        return trace_header("crowd", self.dt, self.terrain, self.rig)

    def trace_characters(self) -> list[dict[str, Any]]:
        """The first :data:`TRACE_SAMPLE` characters in trace format."""
        rows = np.argsort(self.home.ids)[:TRACE_SAMPLE]
        return character_records(cast(Crowd, _Sample(self.crowd, rows)))

    def stats_sections(self) -> dict[str, Any]:
        return {
            "characters": self.character_count,
            "feet": {"steps_taken": self.steps_taken, "knee_flips": self.knee_flips},
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
