"""Test-wide setup: pygame must never try to open a real display or audio device, and no
test asserts a timing (hypothesis's per-example deadline is off)."""

from __future__ import annotations

import os

# Set before any test module imports pygame (SDL reads these at init time).
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import copy
import gc
import io
import subprocess
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import settings

REPO = Path(__file__).resolve().parent.parent

# an example's wall time says how busy the shared host is, not whether the code is right
settings.register_profile("untimed", deadline=None)
settings.load_profile("untimed")


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist reads the groups off the items
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Keep the tests of a file that share a module-scoped fixture (a long headless run
    recorded once) in one xdist group: with ``--dist loadgroup`` (pyproject's addopts) they
    run on one worker, where the fixture runs once, and every other test goes to whichever
    worker is free, so that no long file holds the suite up at the end."""
    for item in items:
        info = getattr(item, "_fixtureinfo", None)
        if info is None:
            continue
        if any(defs[-1].scope == "module" for defs in info.name2fixturedefs.values()):
            item.add_marker(pytest.mark.xdist_group(item.path.stem))


def _run_main(
    args: Sequence[str], timeout: float = 180.0, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    env.pop("DISPLAY", None)
    env.pop("WAYLAND_DISPLAY", None)
    return subprocess.run(
        [sys.executable, str(REPO / "main.py"), *args],
        cwd=cwd or REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


@pytest.fixture(scope="session")
def run_main() -> Callable[..., subprocess.CompletedProcess[str]]:
    """Run ``python main.py ARGS`` headless in a subprocess; returns the completed process."""
    return _run_main


@contextmanager
def _headless_process(cwd: Path | None) -> Iterator[None]:
    """This process as :func:`_run_main` starts ``main.py``: in ``cwd`` (the repository
    by default), SDL's dummy drivers, no display; all put back on leaving."""
    names = ("SDL_VIDEODRIVER", "SDL_AUDIODRIVER", "DISPLAY", "WAYLAND_DISPLAY")
    kept, here = {name: os.environ.get(name) for name in names}, os.getcwd()
    os.environ.update(SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    os.environ.pop("DISPLAY", None)
    os.environ.pop("WAYLAND_DISPLAY", None)
    os.chdir(cwd or REPO)
    try:
        yield
    finally:
        os.chdir(here)
        for name, value in kept.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def _run_main_here(
    args: Sequence[str], cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """``main.py``'s entry point (``game.cli.main``) called in this process as
    :func:`_run_main` would start it (:func:`_headless_process`), its output and exit code
    captured as a subprocess's would be (``SystemExit`` included): the same run without
    the ~0.7 s of CPU a new interpreter spends importing numpy, pygame and the game."""
    from game.cli import main

    out, err = io.StringIO(), io.StringIO()
    # This process's own objects (every collected test, the module fixtures' recorded runs)
    # are set aside from the collector while the run plays: the full collection the app
    # makes before its first frame then walks what the run made, as in a process of its
    # own, not the whole test process as well (~70 ms a run).
    gc.freeze()
    with _headless_process(cwd), redirect_stdout(out), redirect_stderr(err):
        try:
            code = main(list(args))
        except SystemExit as stop:  # as the interpreter ends on it
            code = 0 if stop.code is None else stop.code if isinstance(stop.code, int) else 1
            if isinstance(stop.code, str):
                print(stop.code, file=sys.stderr)
        finally:
            gc.unfreeze()
    return subprocess.CompletedProcess(list(args), code, out.getvalue(), err.getvalue())


@pytest.fixture(scope="session")
def run_main_here() -> Callable[..., subprocess.CompletedProcess[str]]:
    """:func:`_run_main_here`: ``main.py ARGS`` in this process."""
    return _run_main_here


def _assert_bone_lengths(
    root: np.ndarray,
    mid: np.ndarray,
    end: np.ndarray,
    upper: np.ndarray,
    lower: np.ndarray,
    atol: float,
) -> None:
    """Assert walk-scene limbs (T, L, 2) from a trace keep their bone lengths ``upper`` and
    ``lower`` (L,) within ``atol`` (the trace's rounding) at every step, pivots included
    (the simulation keeps true geometry; only the view foreshortens)."""
    for got, want in ((mid - root, upper), (end - mid, lower)):
        length = np.linalg.norm(got, axis=-1)
        assert (np.abs(length - want) <= atol).all()


@pytest.fixture
def assert_bone_lengths() -> Callable[..., None]:
    """:func:`_assert_bone_lengths`: a walk trace's limbs keep their lengths."""
    return _assert_bone_lengths


@contextmanager
def _headless_app(options: Any, config: Any) -> Iterator[Any]:
    """A headless ``App`` playing ``options.scene`` (pygame's display and fonts set up
    first); on leaving, it is closed with every output finished (no problem reported) and
    the display shut."""
    import pygame

    from game.app import App, build_scene

    pygame.display.init()
    pygame.font.init()
    app = App(options, build_scene(options.scene, config, options.size), config)
    try:
        yield app
    finally:
        assert app.close() == []
        pygame.display.quit()


@pytest.fixture
def headless_app() -> Callable[..., Any]:
    """``with headless_app(options, config) as app:`` (:func:`_headless_app`)."""
    return _headless_app


def _lift_the_cup(sim: Any, timer: Any, dt: float = 1.0 / 60.0) -> None:
    """The walk scene's hero walks to the cup on the table and lifts it (within 4 s)."""
    from game.input_state import InputState

    assert sim.props is not None
    sim.step(InputState(actions=("reach_prop",), values={"prop": "cup"}), dt, timer)
    for _ in range(int(4.0 / dt)):
        sim.step(InputState(), dt, timer)
    assert sim.props.holding >= 0


@pytest.fixture
def lift_the_cup() -> Callable[..., None]:
    """``lift_the_cup(sim, timer)`` (:func:`_lift_the_cup`)."""
    return _lift_the_cup


@pytest.fixture(scope="session")
def _the_cup_lifted_once() -> tuple[Any, Any]:
    from game.profiling import PhaseTimer
    from game.scene import SceneConfig
    from game.scenes.walk import WalkSim

    sim, timer = WalkSim(SceneConfig(dt=1.0 / 60.0)), PhaseTimer()
    _lift_the_cup(sim, timer)
    return sim, timer


@pytest.fixture
def cup_lifted(_the_cup_lifted_once: tuple[Any, Any]) -> tuple[Any, Any]:
    """``sim, timer``: a new walk scene's sim (60 Hz) whose hero has just lifted the cup
    (:func:`_lift_the_cup`), and its timer: a copy of one lifted once a session, which
    steps on exactly (bit for bit) as one lifted afresh."""
    return copy.deepcopy(_the_cup_lifted_once)


def _record_texts(canvas: Any) -> list[str]:
    """Wrap ``canvas.text`` so that every string it draws is appended to the list returned."""
    texts: list[str] = []
    drawn = canvas.text

    def text(pos: Any, words: str, *args: Any, **kwargs: Any) -> Any:
        texts.append(words)
        return drawn(pos, words, *args, **kwargs)

    canvas.text = text
    return texts


@pytest.fixture
def record_texts() -> Callable[[Any], list[str]]:
    """``record_texts(canvas)``: the list every string the canvas draws from then on joins."""
    return _record_texts
