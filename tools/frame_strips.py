"""Frame strips of the walk for the README: one stride on flat ground, a stair descent, a
turn from a run (headless, deterministic: the walk autopilot, seed 0, 60 Hz); with
``--tour edit``, the scripted terrain-editing session: a screenshot of edit mode and the
hero crossing the staircase it has just built.

Run from the repository root: ``python tools/frame_strips.py [--out docs/img] [--tour edit]``. Each strip
starts at the first frame where a condition holds (so it follows the code, not hard-coded
frame numbers), then takes every ``every``-th frame, cropped around the hero.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import numpy as np  # noqa: E402
import pygame  # noqa: E402

from game.app import App, build_scene  # noqa: E402
from game.options import RunOptions  # noqa: E402
from game.scene import SceneConfig  # noqa: E402

TILE = (300, 400)  # pixels cropped around the hero
COLUMNS = 6
MAX_FRAMES = 4000


@dataclass(frozen=True)
class Strip:
    """A strip: its file, title, start condition, frame spacing and tile count."""

    name: str
    title: str
    start: Callable[[Any], bool]
    every: int
    tiles: int


def _walking_on_flat(sim: Any) -> bool:
    crowd = sim.crowd
    x = float(crowd.x[0])
    return -1.5 < x < 2.5 and abs(float(crowd.vx[0])) > 1.3 and bool(crowd.feet.planted[0, 0])


def _stairs_down(sim: Any) -> bool:
    mark = next(m for m in sim.terrain.landmarks if m.name == "stairs down")
    return float(sim.crowd.x[0]) > mark.x_from - 0.2 and float(sim.crowd.facing[0]) > 0


def _braking_from_a_run(sim: Any) -> bool:
    crowd = sim.crowd
    return bool(crowd.reversing[0]) and abs(float(crowd.vx[0])) > 2.0


STRIPS = (
    Strip(
        "strip_stride.png",
        "one stride on flat ground, walking 1.35 m/s (every 4 frames)",
        _walking_on_flat,
        4,
        18,
    ),
    Strip(
        "strip_stairs_down.png", "down the stairs, walking (every 6 frames)", _stairs_down, 6, 18
    ),
    Strip(
        "strip_turn_run.png",
        "turning from a 2.6 m/s run: brake, square up, pivot, go (every 7 frames)",
        _braking_from_a_run,
        7,
        30,
    ),
)


def _crossing_new_stairs(sim: Any) -> bool:
    from game.scenes.edit_tour import STAIRS

    return float(sim.crowd.x[0]) > float(STAIRS["x"]) - 0.6 and not sim.editing.active


EDIT_STRIPS = (
    Strip(
        "strip_edit_stairs.png",
        "over a staircase built a moment ago in edit mode (every 8 frames)",
        _crossing_new_stairs,
        8,
        18,
    ),
)


def crop(
    app: App, focus: np.ndarray, size: tuple[int, int] = TILE, above: float = 0.45
) -> pygame.Surface:
    """A ``size`` tile of the app's screen around the world point ``focus``, with
    ``above`` of its height over that point."""
    centre = app.scene.view.camera.to_screen(np.array([focus]))[0]
    left = int(centre[0] - size[0] / 2)
    top = int(centre[1] - size[1] * above)
    tile = pygame.Surface(size)
    tile.blit(app.screen, (0, 0), pygame.Rect(left, top, *size))
    return tile


def montage(
    tiles: list[tuple[str, pygame.Surface]], title: str, columns: int = COLUMNS
) -> pygame.Surface:
    """The ``tiles`` (label, tile) in rows of ``columns`` under ``title``."""
    font = pygame.font.Font(None, 30)
    small = pygame.font.Font(None, 22)
    width, height = tiles[0][1].get_size()
    rows = -(-len(tiles) // columns)
    sheet = pygame.Surface((columns * (width + 4) + 4, rows * (height + 4) + 44))
    sheet.fill((18, 18, 22))
    sheet.blit(font.render(title, True, (235, 235, 235)), (8, 10))
    for index, (label, tile) in enumerate(tiles):
        x = 4 + (index % columns) * (width + 4)
        y = 40 + (index // columns) * (height + 4)
        sheet.blit(tile, (x, y))
        sheet.blit(small.render(label, True, (255, 255, 255)), (x + 6, y + 6))
    return sheet


Tiles = dict[str, list[tuple[int, pygame.Surface]]]


def take_strips(
    app: App,
    dt: float,
    strips: tuple[Strip, ...],
    extra: Callable[[Any, Tiles], bool] | None = None,
) -> Tiles:
    """Play ``app`` frame by frame (closing it at the end), each strip's tiles from the
    first frame its start condition holds, every ``every`` frames; ``extra(sim, tiles)`` runs after
    each frame and must be true (its own shot taken) before the play may stop early."""
    started: dict[str, int] = {}
    taken: Tiles = {s.name: [] for s in strips}
    try:
        for frame in range(1, MAX_FRAMES + 1):
            app.run_frame(dt)
            sim = app.scene.sim
            done = extra(sim, taken) if extra is not None else True
            for strip in strips:
                if strip.name not in started and strip.start(sim):
                    started[strip.name] = frame
                first = started.get(strip.name)
                shots = taken[strip.name]
                if first is not None and (frame - first) % strip.every == 0:
                    if len(shots) < strip.tiles:
                        shots.append((frame, crop(app, sim.crowd.pose.pelvis[0])))
            if done and all(len(taken[s.name]) == s.tiles for s in strips):
                break
    finally:
        app.close()
    return taken


def save_strips(taken: Tiles, strips: tuple[Strip, ...], out: Path) -> None:
    """Each strip's tiles as one labelled montage in ``out``."""
    for strip in strips:
        path = out / strip.name
        labelled = [(f"#{frame}", tile) for frame, tile in taken[strip.name]]
        pygame.image.save(montage(labelled, strip.title), path)
        print(f"{path}: frames {[f for f, _ in taken[strip.name]][:1]}...")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("docs/img"))
    parser.add_argument("--tour", choices=("walk", "edit"), default="walk")
    args = parser.parse_args()
    edit = args.tour == "edit"
    strips = EDIT_STRIPS if edit else STRIPS
    args.out.mkdir(parents=True, exist_ok=True)
    pygame.display.init()
    pygame.font.init()
    options = RunOptions(scene="walk", headless=True, autopilot=True, size=(1280, 720))
    config = SceneConfig(extra={"tour": "edit"} if edit else {})
    app = App(options, build_scene("walk", config, options.size), config)
    app.show_overlay = False  # the figure alone (the overlay is a debugging view)
    shot_taken = not edit

    def edit_shot(sim: Any, _: Tiles) -> bool:  # edit mode once the ground is raised, taken once
        nonlocal shot_taken
        if not shot_taken and sim.editing.active and app.scene.autopilot.stage == 9:
            pygame.image.save(app.screen, args.out / "edit_mode.png")
            shot_taken = True
        return shot_taken

    taken = take_strips(app, config.dt, strips, edit_shot)
    save_strips(taken, strips, args.out)


if __name__ == "__main__":
    main()
