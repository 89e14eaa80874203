"""Frame strips of the walk in 3-D for the README: across the side slope seen from the
front and low (the soles roll flush across the slope, the knees over the feet), over the
terraces seen from the side (the feet on each tread, the knees bending down the risers),
and turning round from standing seen from in front of where he stood (the legs never
cross).

Run from the repository root: ``python tools/walk3d_strips.py [--out docs/img]``. Headless
and deterministic: the walk3d autopilot tour at 60 Hz through the scene's real view, the
overlay off. Each strip starts at the first frame the pelvis is over its feature (so it
follows the tour, not hard-coded frame numbers), then takes every ``every``-th frame, the
camera set each frame at a fixed angle to the hero's yaw and cropped around him. The turn
is scripted instead (:class:`TurnRound`): he stands 1 s, then a wish 150° to his left is
held; the camera stays where it stood, in front of his first heading.
"""

from __future__ import annotations

import argparse
import math
import os
from dataclasses import dataclass
from pathlib import Path

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import numpy as np  # noqa: E402
import pygame  # noqa: E402
from frame_strips import MAX_FRAMES, Tiles, montage  # noqa: E402

from game.app import App, build_scene  # noqa: E402
from game.input_state import InputState  # noqa: E402
from game.options import RunOptions  # noqa: E402
from game.projection import OrbitCamera  # noqa: E402
from game.scene import SceneConfig  # noqa: E402
from game.scenes.walk3d_view import Walk3DView  # noqa: E402

TILE = (300, 400)
COLUMNS = 6


@dataclass(frozen=True)
class Strip3D:
    """A strip: its file, title, the feature it crosses, frame spacing, tile count, and
    the camera: ``around`` (radians about the vertical from straight in front of the
    hero, positive to his left), ``pitch`` (radians down) and ``distance`` (m)."""

    name: str
    title: str
    feature: str
    every: int
    tiles: int
    around: float
    pitch: float
    distance: float


STRIPS = (
    Strip3D(
        "walk3d_side_slope.png",
        "across the side slope, from the front and low: soles flush across the slope,"
        " knees over the feet (every 6 frames)",
        "side slope",
        6,
        12,
        math.radians(20.0),
        math.radians(9.0),
        4.6,
    ),
    Strip3D(
        "walk3d_terraces.png",
        "over the terraces, from the side: a foot on each tread, knees bending down the"
        " risers (every 6 frames)",
        "terraces",
        6,
        12,
        math.radians(-80.0),
        math.radians(10.0),
        4.6,
    ),
)


TURN_STRIP = "walk3d_turn.png"
TURN_TITLE = "turning round from standing, 150° to his left, seen from the front (every 8 frames)"
TURN_DEG = 150.0
STAND_STEPS = 60
TURN_PITCH = math.radians(12.0)  # the turn's camera: this far down ...
TURN_DISTANCE = 5.5  # ... from this far (m)


class TurnRound:
    """An autopilot: standing :data:`STAND_STEPS` steps, then a wish :data:`TURN_DEG` to the
    hero's left of his first heading (yaw 0), held."""

    def __init__(self) -> None:
        self.steps = 0

    def next_input(self, sim: object) -> InputState:
        self.steps += 1
        if self.steps <= STAND_STEPS:
            return InputState(values={"wish": [0.0, 0.0]})
        yaw = math.radians(TURN_DEG)
        return InputState(values={"wish": [math.cos(yaw), -math.sin(yaw)]})


def take_turn(
    app: App, dt: float, every: int = 8, tiles: int = 18
) -> list[tuple[int, pygame.Surface]]:
    """Play :class:`TurnRound`, rendering every ``every``-th frame from the wish on through
    a camera fixed in front of his first heading."""
    view = app.scene.view
    assert isinstance(view, Walk3DView)
    app.scene.autopilot = TurnRound()
    shots = []
    try:
        for frame in range(1, STAND_STEPS + every * tiles + 1):
            due = frame > STAND_STEPS and (frame - STAND_STEPS - 1) % every == 0
            if due:
                cam = view.camera  # in front of yaw 0, as _aim puts it for a yaw of 0
                view.camera = OrbitCamera(
                    math.pi / 2, TURN_PITCH, TURN_DISTANCE, cam.look_at, cam.fov_y, cam.viewport
                )
            app.run_frame(dt)
            if due:
                shots.append((frame - STAND_STEPS - 1, _crop(app, view)))
    finally:
        app.close()
    return shots


def _over(view: Walk3DView, feature: str) -> bool:
    pelvis = view.sim.walker.pose.pelvis
    (x0, x1), (z0, z1) = next((f.x, f.z) for f in view.sim.field.features if f.name == feature)
    return x0 <= pelvis[0] <= x1 and z0 <= pelvis[2] <= z1


def _aim(view: Walk3DView, strip: Strip3D) -> None:
    """The camera at ``strip``'s angle to the hero's yaw (in front of him: yaw + π/2)."""
    cam = view.camera
    yaw = view.sim.walker.yaw + math.pi / 2 + strip.around
    view.camera = OrbitCamera(
        yaw, strip.pitch, strip.distance, cam.look_at, cam.fov_y, cam.viewport
    )


def _crop(app: App, view: Walk3DView) -> pygame.Surface:
    """A :data:`TILE` of the screen around the hero, his pelvis a third of the way down from its top."""
    pelvis = np.asarray(view.sim.walker.pose.pelvis, dtype=float)
    centre = view.camera.project(pelvis[None])[0][0]
    rect = pygame.Rect(int(centre[0] - TILE[0] / 2), int(centre[1] - TILE[1] / 3), *TILE)
    tile = pygame.Surface(TILE)
    tile.blit(app.screen, (0, 0), rect)
    return tile


def take(app: App, dt: float, strips: tuple[Strip3D, ...]) -> Tiles:
    """Play the tour, rendering each strip's frames through its own camera angle."""
    taken: Tiles = {s.name: [] for s in strips}
    started: dict[str, int] = {}
    view = app.scene.view
    assert isinstance(view, Walk3DView)
    try:
        for frame in range(1, MAX_FRAMES + 1):
            due = None
            for strip in strips:
                if strip.name not in started and _over(view, strip.feature):
                    started[strip.name] = frame
                first = started.get(strip.name)
                shots = taken[strip.name]
                if first is not None and (frame - first) % strip.every == 0:
                    if len(shots) < strip.tiles:
                        due = strip
            if due is not None:
                _aim(view, due)
            app.run_frame(dt)
            if due is not None:
                taken[due.name].append((frame, _crop(app, view)))
            if all(len(taken[s.name]) == s.tiles for s in strips):
                break
    finally:
        app.close()
    return taken


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("docs/img"))
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    pygame.display.init()
    pygame.font.init()
    options = RunOptions(scene="walk3d", headless=True, autopilot=True, size=(1280, 720))
    config = SceneConfig()
    app = App(options, build_scene("walk3d", config, options.size), config)
    app.show_overlay = False  # the figure alone
    taken = take(app, config.dt, STRIPS)
    for strip in STRIPS:
        path = args.out / strip.name
        tiles = [(f"#{frame}", tile) for frame, tile in taken[strip.name]]
        pygame.image.save(montage(tiles, strip.title, COLUMNS), path)
        print(f"{path}: frames {[f for f, _ in taken[strip.name]]}")
    app = App(options, build_scene("walk3d", config, options.size), config)
    app.show_overlay = False
    turn = take_turn(app, config.dt)
    path = args.out / TURN_STRIP
    pygame.image.save(montage([(f"#{f}", tile) for f, tile in turn], TURN_TITLE, COLUMNS), path)
    print(f"{path}: frames {[f for f, _ in turn]} after the wish")


if __name__ == "__main__":
    main()
