"""The first screen of the walk and the crowd: the scene, not its debugging (the overlay
off, a hint saying how to show it), and the status box never over the ground the hero
walks onto."""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pygame
import pytest

from game.app import App, build_scene
from game.input_state import InputState
from game.options import RunOptions
from game.scene import ASSETS_DIR, SceneConfig
from game.scenes.crowd_view import CrowdView
from game.scenes.walk_view import WalkView
from game.view.status import OVERLAY_HINT


@dataclass
class _Keys:
    """An autopilot that holds the same input every step."""

    held: InputState

    def next_input(self, sim: Any) -> InputState:
        return self.held


def _app(scene: str, size: tuple[int, int] = (1280, 720), characters: int | None = None) -> App:
    pygame.display.init()
    pygame.font.init()
    options = RunOptions(scene=scene, headless=True, autopilot=True, size=size, frames=10_000)
    config = SceneConfig(characters=characters)
    return App(options, build_scene(scene, config, size), config)


def _texts(app: App, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The texts the next frame draws."""
    drawn: list[str] = []
    text = app.canvas.text

    def record(pos: Any, value: str, *args: Any, **kwargs: Any) -> tuple[int, int]:
        drawn.append(value)
        return text(pos, value, *args, **kwargs)

    monkeypatch.setattr(app.canvas, "text", record)
    app.run_frame(app.config.dt)
    monkeypatch.undo()
    return drawn


@pytest.mark.parametrize("scene", ["walk", "crowd"])
def test_the_walk_and_crowd_open_with_the_overlay_off_and_a_hint_to_show_it(
    scene: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = _app(scene)
    assert not app.show_overlay
    texts = _texts(app, monkeypatch)
    assert OVERLAY_HINT.split(":")[0] in " ".join(texts)  # in the status box
    assert not any(text.startswith(("reach:", "L: ")) for text in texts)  # legend, feet
    app.show_overlay = True  # O
    texts = _texts(app, monkeypatch)
    assert OVERLAY_HINT.split(":")[0] not in " ".join(texts)
    assert any(text.startswith(("L: ", "R: ")) for text in texts)  # the feet's states
    app.close()


def test_the_lab_still_opens_with_its_overlay_on() -> None:
    app = _app("lab")
    assert app.show_overlay
    app.close()


@pytest.mark.parametrize("scene", ["walk", "crowd"])
@pytest.mark.parametrize("move", [1.0, -1.0])
@pytest.mark.parametrize("size", [(1280, 720), (960, 540)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_status_box_sits_behind_the_hero_clear_of_him_and_the_ground_ahead(
    scene: str, move: float, size: tuple[int, int]
) -> None:
    app = _app(scene, size, characters=20)  # (the box is the hero's: a small crowd will do)
    app.scene.autopilot = _Keys(InputState(move=move))
    view = app.scene.view
    assert isinstance(view, (WalkView, CrowdView))
    start = float(view.sim.crowd.x[0])
    sim = view.sim
    for _ in range(84):  # he turns, sets off and walks the way he was sent ...
        sim.step(InputState(move=move), sim.dt, app.timer)
    for _ in range(6):  # (drawn from here: the camera's first frame is at its goal)
        app.run_frame(app.config.dt)
    crowd = view.sim.crowd
    assert crowd.facing[0] == move and not crowd.turning[0]  # ... as these 1.5 s cover
    assert (float(crowd.x[0]) - start) * move > 0.25  # (walking left, the shut door stops him)
    box = view.status.box
    assert box is not None
    assert (box[0] > size[0] / 2) == (move < 0)  # the corner he came from
    # his soles and the ground from under him to two metres ahead, as drawn, are not
    # under the box
    x = float(sim.crowd.x[0])
    xs = x + move * np.linspace(0.0, 2.0, 41)
    points = np.concatenate(
        [
            np.stack([xs, sim.terrain.height_at(xs)], -1),
            view.painter.soles(*view._interpolated(0.0), sim.rig).reshape(-1, 2),
        ]
    )
    px = view.camera.to_screen(points)
    inside = (
        (px[:, 0] >= box[0])
        & (px[:, 0] <= box[0] + box[2])
        & (px[:, 1] >= box[1])
        & (px[:, 1] <= box[1] + box[3])
    )
    assert not inside.any()
    app.close()


def _flight_course(folder: Path, rise: float) -> Path:
    """An assets folder: the shipped rig, a floor, then a flight of three treads 0.4 m
    deep and ``rise`` high up from x = 4 to a long top, the props out of the way."""
    folder.mkdir()
    shutil.copy(ASSETS_DIR / "rig.json", folder / "rig.json")
    points = [[-3.0, 2.5], [-2.99, 0.0], [4.0, 0.0]]
    for step in range(1, 4):
        x = 4.0 + 0.4 * (step - 1)
        points += [[x + 0.01, step * rise], [x + 0.4, step * rise]]
    points += [[14.0, 3 * rise], [14.02, 3 * rise + 2.5], [15.0, 3 * rise + 2.5]]
    (folder / "terrain.json").write_text(json.dumps({"points": points}))
    props = json.loads((ASSETS_DIR / "props.json").read_text())
    props["table"]["x"], props["cup"]["x"], props["ladder"]["x"] = 10.0, 10.2, 12.5
    props["ball"]["x"] = 3.3
    (folder / "props.json").write_text(json.dumps(props))
    return folder


def test_the_ball_lying_low_behind_him_is_not_hidden_under_the_status_box(
    tmp_path: Path,
) -> None:
    # he walks up a flight, the ball lying on the floor behind him, low in the status
    # box's corner: the view keeps it above the box; a prop far below would not take his
    # head out of the view's top
    pygame.display.init()
    pygame.font.init()
    config = SceneConfig(assets_dir=_flight_course(tmp_path / "assets", 0.17))
    options = RunOptions(scene="walk", headless=True, autopilot=True, size=(1280, 720))
    app = App(options, build_scene("walk", config, options.size), config)
    view = app.scene.view
    assert isinstance(view, WalkView)
    sim = view.sim
    sim.crowd.stand_anew([3.7], [1.0])
    app.scene.autopilot = _Keys(InputState(move=1.0))
    for _ in range(int(8.0 / sim.dt)):
        app.run_frame(app.config.dt)
        if float(sim.crowd.x[0]) > 4.9:  # on the top
            break
    app.scene.autopilot = _Keys(InputState())
    for _ in range(int(1.5 / sim.dt)):
        app.run_frame(app.config.dt)
    box = view.status.box
    assert box is not None and box[0] < 640  # behind him, on the left
    ball = view.camera.point_to_screen(*sim.prop("ball").centre())
    assert box[0] <= ball[0] <= box[0] + box[2]  # (over the box's columns)
    assert ball[1] < box[1], "the ball is under the status box"
    pose, _ = view._interpolated(1.0)
    deep = np.array([[sim.prop("ball").centre()[0], -20.0]])
    view.follow.follow(view.camera, sim, pose, 1.0, None, box, None, False, deep)
    head = float(pose.head[0, 1]) + sim.rig.body.head_radius
    assert view.camera.point_to_screen(0.0, head)[1] > 0  # his head in view
    app.close()
