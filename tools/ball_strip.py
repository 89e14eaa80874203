"""A frame strip of the ball's kick: the hero walking up to the ball, the back-swing, the
swing through the ball, the follow-through, and the ball rolling off (headless,
deterministic: the ball clicked at the start, 60 Hz, the shipped assets).

Run from the repository root: ``python tools/ball_strip.py [--out docs/img/strip_ball_kick.png]``.
The frames are chosen relative to the kick's first frame (found from the simulation, so
the strip follows the code, not hard-coded frame numbers).
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import numpy as np  # noqa: E402
import pygame  # noqa: E402
from frame_strips import crop, montage  # noqa: E402  (a sibling script in tools/)

from game.app import App, build_scene  # noqa: E402
from game.input_state import InputState  # noqa: E402
from game.options import RunOptions  # noqa: E402
from game.scene import SceneConfig  # noqa: E402
from game.world.props.ball import BallPhase  # noqa: E402

TILE = (400, 440)  # pixels cropped around the hero and the ball
COLUMNS = 6
MAX_FRAMES = 1200
# frames relative to the kick's first: walking up, back-swing, swing through, follow-through,
# the ball rolling off
OFFSETS = (-60, -30, -10, 0, 10, 19, 24, 27, 29, 31, 34, 38, 42, 46, 50, 54, 58, 62)
ROLL_LEAD_M = 2.6  # the tiles follow the ball, this far beyond the hero at most (on screen)


class KickOnce:
    """Clicks the ball once, at the start, and leaves the hero be."""

    def next_input(self, sim: Any) -> InputState:
        kick = sim.step_index == 0
        return (
            InputState(actions=("reach_prop",), values={"prop": "ball"}) if kick else InputState()
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("docs/img/strip_ball_kick.png"))
    args = parser.parse_args()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    pygame.display.init()
    pygame.font.init()
    options = RunOptions(scene="walk", headless=True, autopilot=True, size=(1280, 720))
    config = SceneConfig()
    app = App(options, build_scene("walk", config, options.size), config)
    app.show_overlay = False
    app.scene.autopilot = KickOnce()
    frames: list[pygame.Surface] = []
    kick_at: int | None = None
    try:
        for frame in range(MAX_FRAMES):
            app.run_frame(config.dt)
            sim = app.scene.sim
            ball = sim.prop("ball")
            hero = sim.crowd.pose.pelvis[0]
            lead = min(max(float(ball.centre()[0] - hero[0]) - 0.6, 0.45), ROLL_LEAD_M)
            frames.append(crop(app, hero + np.array([lead, -0.2]), TILE, 0.5))
            if kick_at is None and ball.phase is BallPhase.BACK_SWING:
                kick_at = frame
            if kick_at is not None and frame >= kick_at + max(OFFSETS):
                break
    finally:
        app.close()
    assert kick_at is not None, "the tour never kicked the ball"
    tiles = [(offset, frames[kick_at + offset]) for offset in OFFSETS]
    title = "the kick: walk up, back-swing, through the ball, follow-through, the ball rolls off"
    labelled = [(f"{offset:+d}", tile) for offset, tile in tiles]
    heading = f"{title} (frames from the kick's start, 60 Hz)"
    pygame.image.save(montage(labelled, heading, COLUMNS), args.out)
    print(f"{args.out}: kick starts at frame {kick_at}")


if __name__ == "__main__":
    main()
