"""Input monkey: 2,500 random events per scene, headless; no exception and no NaN in the trace."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path
from typing import Any

import pygame
import pytest

from game import scenes
from game.app import App, build_scene
from game.options import RunOptions
from game.scene import SceneConfig

EVENTS_PER_SCENE = 1_500  # 150 frames; each of the 28 keys is pressed or released ~18 times
EVENTS_PER_FRAME = 10
KEYS = [
    pygame.K_a,
    pygame.K_d,
    pygame.K_LEFT,
    pygame.K_RIGHT,
    pygame.K_LSHIFT,
    pygame.K_k,
    pygame.K_f,
    pygame.K_o,
    pygame.K_p,
    pygame.K_PERIOD,
    pygame.K_1,
    pygame.K_2,
    pygame.K_3,
    pygame.K_4,
    pygame.K_F1,
    pygame.K_F3,
    pygame.K_F5,
    pygame.K_w,
    pygame.K_s,
    pygame.K_q,
    pygame.K_e,
    pygame.K_r,
    pygame.K_SPACE,
    pygame.K_PLUS,
    pygame.K_MINUS,
    pygame.K_ESCAPE,
    pygame.K_UP,
    pygame.K_DOWN,
]


def _wild_coordinate(rng: random.Random) -> float:
    roll = rng.random()
    if roll < 0.7:
        return rng.uniform(-50, 1400)
    if roll < 0.9:
        return rng.uniform(-1e5, 1e5)
    return rng.choice([-1e12, 1e12, -(2.0**31), 2.0**31 - 1, 1e300])


def _random_event(rng: random.Random) -> pygame.event.Event:
    kind = rng.random()
    pos = (_wild_coordinate(rng), _wild_coordinate(rng))
    if kind < 0.35:
        return pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0))
    if kind < 0.5:
        button = rng.choice([1, 1, 1, 2, 3])
        kind_id = rng.choice([pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP])
        return pygame.event.Event(kind_id, pos=pos, button=button)
    if kind < 0.55:
        y = rng.choice([-1, 1, 5, -30])
        return pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=y, precise_x=0.0, precise_y=float(y))
    if kind < 0.93:
        key = rng.choice(KEYS)
        kind_id = rng.choice([pygame.KEYDOWN, pygame.KEYUP])
        return pygame.event.Event(kind_id, key=key, mod=0, unicode="", scancode=0)
    if kind < 0.96:
        size = (rng.randint(1, 4000), rng.randint(1, 3000))
        return pygame.event.Event(pygame.VIDEORESIZE, w=size[0], h=size[1], size=size)
    return pygame.event.Event(rng.choice([pygame.WINDOWFOCUSLOST, pygame.WINDOWFOCUSGAINED]))


def _all_finite(value: Any) -> bool:
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, dict):
        return all(_all_finite(v) for v in value.values())
    if isinstance(value, list):
        return all(_all_finite(v) for v in value)
    return True


# every scene with 20 characters, and the crowd with 230: past 200, + and − start and end
# its worker process (game.scenes.crowd_worker)
RUNS = [(scene, 20) for scene in scenes.available()] + [("crowd", 230)]


@pytest.mark.parametrize(("scene", "characters"), RUNS, ids=[f"{s}-{n}" for s, n in RUNS])
def test_random_events_raise_nothing_and_trace_no_nan(
    scene: str, characters: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # F12-style outputs land in the temp folder
    trace = tmp_path / "monkey.jsonl"
    options = RunOptions(
        scene=scene, headless=True, trace=trace, seed=1, characters=characters, size=(960, 540)
    )
    config = SceneConfig(seed=1, characters=characters)
    pygame.display.init()
    pygame.font.init()
    rng = random.Random(f"monkey-{scene}")
    app = App(options, build_scene(scene, config, options.size), config)
    try:
        for _ in range(EVENTS_PER_SCENE // EVENTS_PER_FRAME):
            for _ in range(EVENTS_PER_FRAME):
                pygame.event.post(_random_event(rng))
            app.running = True  # Esc is mashed too; keep playing
            app.paused = app.paused and rng.random() < 0.9  # don't stay paused for ever
            app.run_frame(config.dt)
    finally:
        app.close()
        pygame.display.quit()
    lines = trace.read_text().splitlines()
    assert len(lines) > 100
    for number, line in enumerate(lines, start=1):
        assert _all_finite(json.loads(line)), f"non-finite value on trace line {number}"
