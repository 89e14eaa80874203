"""The crowd stepped in parts: the ids each part holds, a worker process stepping the away
part a step ahead, every character stepping exactly as in one process, and the worker's
life (started and ended with the characters away, ended with the app however it ends)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from dataclasses import fields
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from game.input_state import InputState
from game.profiling import PhaseTimer
from game.scene import ASSETS_DIR, SceneConfig
from game.scenes.character_assets import EDITED_TERRAIN, load_character_assets
from game.scenes.crowd import CrowdSim
from game.scenes.crowd_walkers import AWAY, EVERYONE, HOME, HOME_ONLY, Shown, Walkers
from game.scenes.crowd_worker import can_fork, cores
from game.world.terrain import Terrain

DT = 1.0 / 60.0
needs_fork = pytest.mark.skipif(not can_fork(), reason="workers are forked")


def _alive(pid: int) -> bool:
    """Whether process ``pid`` still runs (an ended child not yet joined is a zombie, "Z")."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")


def _same_rows(one: Shown, other: Shown) -> None:
    """Both hold the same characters, each drawn exactly alike (rows in any order)."""
    a, b = np.argsort(one.ids), np.argsort(other.ids)
    np.testing.assert_array_equal(one.ids[a], other.ids[b])
    for name in (f.name for f in fields(one.pose)):
        np.testing.assert_array_equal(
            getattr(one.pose, name)[a], getattr(other.pose, name)[b], err_msg=name
        )
    np.testing.assert_array_equal(one.elbow[a], other.elbow[b])
    np.testing.assert_array_equal(one.hand[a], other.hand[b])


@given(st.integers(0, 5_000))
def test_home_and_away_hold_every_character_once_and_home_the_first(count: int) -> None:
    ids = np.arange(count)
    home, away = HOME.holds(ids), AWAY.holds(ids)
    assert not (home & away).any() and (home | away).all()
    assert home[:HOME_ONLY].all() and EVERYONE.holds(ids).all()
    np.testing.assert_array_equal(HOME.ids(count), ids[home])


@pytest.mark.parametrize(
    ("files", "most"),
    [
        ({}, None),  # no cgroup files: the cores it may run on
        ({"cpu.max": "max 100000"}, None),
        ({"cpu.max": "150000 100000"}, 1),  # --cpus 1.5: one whole core
        ({"cpu.max": "400000 100000"}, 4),
        ({"cpu/cpu.cfs_quota_us": "-1", "cpu/cpu.cfs_period_us": "100000"}, None),
        ({"cpu/cpu.cfs_quota_us": "100000", "cpu/cpu.cfs_period_us": "100000"}, 1),
        ({"cpu.max": "garbage"}, None),
    ],
)
def test_a_containers_cpu_quota_limits_the_cores_counted(
    tmp_path: Path, files: dict[str, str], most: int | None
) -> None:
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text + "\n")
    every = cores(tmp_path / "none")
    assert cores(tmp_path) == (every if most is None else min(every, most))


def test_a_copy_of_walkers_steps_on_as_they_would_have() -> None:
    """The worker's copy from before a step (kept to take the step again after an event)
    shares nothing that the step changes."""
    rig, terrain = load_character_assets(ASSETS_DIR)
    walkers = Walkers(rig, terrain, 3, 400, AWAY)
    for index in range(20):
        walkers.step(index, DT)
    twin = walkers.copy()
    for index in range(20, 40):
        walkers.step(index, DT)
    for index in range(20, 40):
        twin.step(index, DT)
    _same_rows(walkers.shown()[1], twin.shown()[1])
    assert walkers.solves == twin.solves


@needs_fork
def test_a_crowd_stepped_in_two_processes_steps_every_character_as_one_process() -> None:
    """Random input: steering, running, + and − across the size that starts and ends the
    worker, new ground and new assets at random steps. After every step, both crowds draw
    every character alike and count the same footsteps, knee flips and solves."""
    rng = np.random.default_rng(4)
    config = SceneConfig(characters=HOME_ONLY + 50)
    one, two = CrowdSim(config, workers=False), CrowdSim(config, workers=True)
    rig, course = load_character_assets(ASSETS_DIR)
    timer = PhaseTimer()
    started = 0
    for step in range(160):
        actions = rng.choice(["", "", "", "", "", "", "crowd_more", "crowd_less"], 1).tolist()
        inp = InputState(
            move=float(rng.choice([0.0, 0.0, 1.0, -1.0])),
            run=bool(rng.random() < 0.3),
            actions=tuple(a for a in actions if a),
        )
        if step in (40, 120):  # the ground edited in another scene
            x, y = course.points.T
            config.extra[EDITED_TERRAIN] = Terrain(np.column_stack([x, y + step / 4000]))
        if step == 80:  # F5
            one.apply_assets(rig, course)
            two.apply_assets(rig, course)
        one.step(inp, DT, timer)
        two.step(inp, DT, timer)
        started += two.away is not None
        for mine, theirs in zip(one.shown(), two.shown(), strict=True):
            _same_rows(mine, theirs)
        assert (one.steps_taken, one.knee_flips) == (two.steps_taken, two.knee_flips)
        assert one.counters == two.counters
    assert 0 < started < 160  # the worker ran, and ended as the crowd shrank
    two.close()


@needs_fork
def test_an_event_before_the_first_step_reaches_the_away_part() -> None:
    config = SceneConfig(characters=HOME_ONLY + 100)
    one, two = CrowdSim(config, workers=False), CrowdSim(config, workers=True)
    rig, course = load_character_assets(ASSETS_DIR)
    x, y = course.points.T
    lower = Terrain(np.column_stack([x, y - 0.01]))
    assert len(two.shown()[1].ids) == HOME_ONLY + 100  # (every character, from the start)
    for sim in (one, two):
        sim.apply_assets(rig, lower)
    for sim in (one, two):
        sim.step(InputState(), DT, PhaseTimer())
    for mine, theirs in zip(one.shown(), two.shown(), strict=True):
        _same_rows(mine, theirs)
    two.close()


@needs_fork
def test_a_failed_home_step_leaves_the_worker_in_step_and_quick_to_close(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Ctrl+C lands mostly in the home part's step: the worker's answer to that step is
    read all the same, so the next step is answered for itself and closing takes no wait."""
    sim = CrowdSim(SceneConfig(characters=HOME_ONLY + 100), workers=True)
    stepped = Walkers.step

    def interrupted(self: Walkers, *args: Any, **kwargs: Any) -> None:
        monkeypatch.setattr(Walkers, "step", stepped)
        raise KeyboardInterrupt

    monkeypatch.setattr(Walkers, "step", interrupted)
    with pytest.raises(KeyboardInterrupt):
        sim.step(InputState(), DT, PhaseTimer())
    sim.step(InputState(), DT, PhaseTimer())
    assert sim.away is not None and sim.away.last is not None and sim.away.last.index == 1
    start = time.monotonic()
    sim.close()
    assert time.monotonic() - start < 1.0
    assert sim.steps_taken >= 0  # (its last figures stay readable)


@needs_fork
def test_a_lost_worker_leaves_the_crowd_whole_in_one_process() -> None:
    """The worker killed (out of memory, say): the app steps on, every character here, the
    lost ones standing afresh at their seeded spots; no worker is started again."""
    count = HOME_ONLY + 100
    sim = CrowdSim(SceneConfig(characters=count), workers=True)
    timer = PhaseTimer()
    for _ in range(5):
        sim.step(InputState(), DT, timer)
    assert sim.away is not None
    os.kill(sim.away.pid, signal.SIGKILL)
    for _ in range(5):
        sim.step(InputState(actions=("crowd_more",)), DT, timer)
    assert sim.away is None and sim.home.part is EVERYONE
    assert sim.character_count == count + 250
    np.testing.assert_array_equal(np.sort(sim.shown()[1].ids), np.arange(count + 250))
    assert sim.counters.solves > 5 * 4 * count


@needs_fork
def test_the_worker_runs_only_while_characters_are_away() -> None:
    sim = CrowdSim(SceneConfig(characters=HOME_ONLY + 2), workers=True)  # (id 201 is away)
    timer = PhaseTimer()
    sim.step(InputState(), DT, timer)
    assert sim.away is not None and sim.character_count == HOME_ONLY + 2
    sim.step(InputState(actions=("crowd_less",)), DT, timer)
    assert sim.away is None and sim.character_count == HOME_ONLY
    sim.close()


@needs_fork
@pytest.mark.parametrize("worker_gone_first", [False, True])
def test_a_failing_worker_is_raised_in_the_app_with_its_traceback(
    monkeypatch: pytest.MonkeyPatch, worker_gone_first: bool
) -> None:
    """Also when the worker has failed its step ahead and ended before the app asks."""
    stepped = Walkers.step

    def fails_away(self: Walkers, *args: Any, **kwargs: Any) -> None:
        if self.part is AWAY:
            raise ValueError("a stage failed")
        stepped(self, *args, **kwargs)

    monkeypatch.setattr(Walkers, "step", fails_away)  # (the worker is a fork: it has it too)
    sim = CrowdSim(SceneConfig(characters=HOME_ONLY + 100), workers=True)
    assert sim.away is not None
    deadline = time.monotonic() + 10.0
    while worker_gone_first and _alive(sim.away.pid) and time.monotonic() < deadline:
        time.sleep(0.01)
    with pytest.raises(RuntimeError, match="a stage failed"):
        sim.step(InputState(), DT, PhaseTimer())
    sim.close()


@needs_fork
def test_a_runs_stats_count_the_characters_the_worker_stepped(
    run_main_here: Any, tmp_path: Path
) -> None:
    """The app closes the worker when the run ends, and writes the stats after: they count
    every character's footsteps and solves, as one process would."""
    stats_path, count, frames = tmp_path / "s.json", HOME_ONLY + 100, 90
    args = ["--scene", "crowd", "--headless", "--autopilot", "--frames", str(frames)]
    result = run_main_here([*args, "--characters", str(count), "--stats", str(stats_path)])
    assert result.returncode == 0, result.stdout + result.stderr
    stats = json.loads(stats_path.read_text())
    one = CrowdSim(SceneConfig(characters=count), workers=False)
    for _ in range(stats["steps"]):
        one.step(InputState(), DT, PhaseTimer())
    assert stats["feet"] == {"steps_taken": one.steps_taken, "knee_flips": one.knee_flips}
    assert stats["ik"]["solves"] == one.counters.solves == stats["steps"] * 4 * count


_KILLED_APP = """
import sys
from game.input_state import InputState
from game.profiling import PhaseTimer
from game.scene import SceneConfig
from game.scenes.crowd import CrowdSim
sim = CrowdSim(SceneConfig(characters=300), workers=True)
sim.step(InputState(), 1 / 60, PhaseTimer())
print(sim.away.pid, flush=True)
sys.stdin.read()
"""


@needs_fork
def test_the_worker_ends_when_the_app_is_killed() -> None:
    """kill -9 runs no handler in the app: the worker sees its pipe close and ends."""
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": str(root)}
    app = subprocess.Popen(
        [sys.executable, "-c", _KILLED_APP],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=root,
    )
    assert app.stdout is not None and app.stderr is not None
    worker = int(app.stdout.readline())
    app.kill()
    app.wait()
    deadline = time.monotonic() + 10.0
    while time.monotonic() < deadline and _running(worker):
        time.sleep(0.05)
    assert not _running(worker)
    assert "Traceback" not in app.stderr.read()  # (the worker, which shares it, left quietly)


def _running(pid: int) -> bool:
    """Whether process ``pid`` exists and is not a zombie (an orphan is reaped by init)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0]
    except OSError:
        return False
    return state != "Z"
