"""Regenerate the README's walk, props and crowd screenshots (headless, deterministic).

Run from the repository root: ``python tools/screenshots.py [--out docs/img]``. Each picture
is the first frame of the autopilot run (seed 0, 60 Hz, 1280x720, overlay on) where a
condition holds, so the pictures follow the code instead of hard-coded frame numbers.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # noqa: E402

from game.app import App, build_scene  # noqa: E402
from game.input_state import InputState  # noqa: E402
from game.options import RunOptions  # noqa: E402
from game.scene import SceneConfig  # noqa: E402

Condition = Callable[[Any, int], bool]  # (sim, frame) -> take the picture now


def _landmark(sim: Any, name: str) -> tuple[float, float]:
    mark = next(m for m in sim.terrain.landmarks if m.name == name)
    return mark.x_from, mark.x_to


def _at(name: str, fraction: float) -> Condition:
    """The hero ``fraction`` of the way along the landmark ``name`` (first time)."""

    def condition(sim: Any, frame: int) -> bool:
        x0, x1 = _landmark(sim, name)
        return abs(float(sim.crowd.x[0]) - (x0 + fraction * (x1 - x0))) < 0.02

    return condition


def _cup_reach(sim: Any, frame: int) -> bool:
    p = sim.props
    return p.goal == "cup" and p.phase == "reach" and p.phase_time > 0.12


def _knob_carry(sim: Any, frame: int) -> bool:
    p = sim.props
    return p.goal == "knob" and p.phase == "reach" and p.holding >= 0 and p.phase_time > 0.2


def _climb(sim: Any, frame: int) -> bool:
    ladder = sim.ladder
    return bool(ladder.active and ladder.rung[0] >= 5 and ladder.moving == 2 and ladder.u > 0.45)


def _step_off(sim: Any, frame: int) -> bool:
    ladder = sim.ladder
    return bool(ladder.active and ladder.transfer_dir > 0 and ladder.transfer > 0.42)


class _FloorTour:
    """Scripted input instead of the autopilot: lift the cup from the table, then set it down
    on the floor a metre behind the hero (he turns, walks, crouches and puts it there)."""

    def __init__(self) -> None:
        self.step = 0
        self.asked = False  # the put-down asked for (once the cup is in hand)

    def next_input(self, sim: Any) -> InputState:
        self.step += 1
        if self.step == 1:
            return InputState(actions=("reach_prop",), values={"prop": "cup"})
        if not self.asked and sim.props.holding >= 0:
            self.asked = True
            place = float(sim.crowd.x[0]) - 1.0
            return InputState(actions=("put_down",), values={"place_x": place})
        return InputState()


def _crouched_at_the_floor(sim: Any, frame: int) -> bool:
    """The cup just let go on the floor, the hero still crouched over it."""
    p = sim.props
    return p.phase == "release" and p.holding < 0 and float(sim.crowd.crouch[0]) >= 0.95


SHOTS: dict[str, list[tuple[str, Condition]]] = {
    "walk": [
        ("walk.png", _at("steep slope", 0.5)),
        ("walk_stairs.png", lambda sim, frame: frame == 600),  # what plain `python main.py` saves
        ("props_cup_reach.png", _cup_reach),
        ("props_knob_carry.png", _knob_carry),
        ("props_climb.png", _climb),
        ("props_loft.png", _step_off),
    ],
    "crowd": [("crowd.png", lambda sim, frame: frame == 600)],
    "floor": [("props_floor.png", _crouched_at_the_floor)],
}
SCENE_OF = {"floor": "walk"}  # a shot list played with scripted input instead of the autopilot
MAX_FRAMES = 12000


def shoot(shots: str, out: Path) -> None:
    scene = SCENE_OF.get(shots, shots)
    options = RunOptions(scene=scene, headless=True, autopilot=True, size=(1280, 720))
    config = SceneConfig()
    app = App(options, build_scene(scene, config, options.size), config)
    if shots == "floor":
        app.scene.autopilot = _FloorTour()
    pending = list(SHOTS[shots])
    try:
        for frame in range(1, MAX_FRAMES + 1):
            app.run_frame(config.dt)
            for shot in [s for s in pending if s[1](app.scene.sim, frame)]:
                pygame.image.save(app.screen, out / shot[0])
                print(f"{out / shot[0]}: frame {frame}")
                pending.remove(shot)
            if not pending:
                return
        raise SystemExit(f"{shots}: never saw {[name for name, _ in pending]}")
    finally:
        app.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("docs/img"))
    parser.add_argument("scenes", nargs="*", default=list(SHOTS))
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    pygame.display.init()
    pygame.font.init()
    for scene in args.scenes:
        shoot(scene, args.out)


if __name__ == "__main__":
    main()
