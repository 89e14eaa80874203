"""Frame strips of the hero on the course's flight, up it and down it (walking right from
the start with the walk key held, the pointer off the world, 60 Hz), taken in a real
window: the gaze and the torso's lean on stairs.

Run from the repository root with an X display (e.g. ``Xvfb :17 &``)::

    DISPLAY=:17 python tools/stair_strips.py --out shots/

It writes ``stairs_up.png`` and ``stairs_down.png`` (tiles cropped round the hero) and
``window.png``, the whole window as the X server shows it (``import -window root``) on the
flight down. Each strip starts at the first frame where a condition holds, so it follows
the code, not hard-coded frame numbers.
"""

from __future__ import annotations

import argparse
import os
import subprocess
from pathlib import Path
from typing import Any

import pygame
from frame_strips import Strip, Tiles, save_strips, take_strips  # (a sibling script in tools/)

from game.app import App, build_scene
from game.input_state import InputState
from game.options import RunOptions
from game.scene import SceneConfig

MAX_FRAMES = 3000


class WalkRight:
    """Holds the walk key toward +x, nothing else (no pointer for the hands to reach)."""

    def next_input(self, sim: Any) -> InputState:
        return InputState(move=1.0)


def _walking_onto(name: str) -> Any:
    """The start condition: the hero, facing +x, within 0.2 m of the landmark ``name``."""

    def start(sim: Any) -> bool:
        mark = next(m for m in sim.terrain.landmarks if m.name == name)
        crowd = sim.crowd
        return float(crowd.x[0]) > mark.x_from - 0.2 and float(crowd.facing[0]) > 0

    return start


STRIPS = (
    Strip(
        "stairs_up.png",
        "up the stairs, walking (every 6 frames)",
        _walking_onto("stairs up"),
        6,
        12,
    ),
    Strip(
        "stairs_down.png",
        "down the stairs, walking (every 6 frames)",
        _walking_onto("stairs down"),
        6,
        12,
    ),
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    if not os.environ.get("DISPLAY"):
        raise SystemExit("stair_strips.py: needs an X display (DISPLAY=:N)")
    # frame_strips chose the dummy driver on import: this strip is taken in a real window
    os.environ["SDL_VIDEODRIVER"] = "x11"
    args.out.mkdir(parents=True, exist_ok=True)
    pygame.display.init()
    pygame.font.init()
    options = RunOptions(scene="walk", headless=False, autopilot=True, size=(1280, 720))
    config = SceneConfig()
    app = App(options, build_scene("walk", config, options.size), config)
    app.show_overlay = False
    app.scene.autopilot = WalkRight()
    grabbed = False

    def window_shot(sim: Any, taken: Tiles) -> bool:  # the X window, at the 4th tile down
        nonlocal grabbed
        if not grabbed and len(taken["stairs_down.png"]) == 4:
            subprocess.run(["import", "-window", "root", str(args.out / "window.png")], check=True)
            grabbed = True
        return grabbed

    taken = take_strips(app, config.dt, STRIPS, window_shot)
    save_strips(taken, STRIPS, args.out)


if __name__ == "__main__":
    main()
