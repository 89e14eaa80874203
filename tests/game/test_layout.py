"""The HUD layout at every supported window size: no two texts overlap, no text sits on a
widget, every text lies inside its panel and the window, and HUD panels do not overlap.

Each scene is drawn headless through a canvas that records every text box, panel and widget
(the real pygame canvas underneath measures the text). Labels pinned to world points (drawn
by ``WorldPen.text`` or on the 3-D pen's top layer) move with the world, so they are held to
one rule only: on the second frame none is hidden under a HUD panel.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pygame
import pytest

from game import hud, scenes
from game.app import ActiveScene, App, build_scene
from game.canvas import WorldPen
from game.input_state import InputState
from game.layout import Rect, intersects, ui_scale
from game.options import RunOptions
from game.pen3d import Pen3D
from game.profiling import PhaseTimer
from game.pygame_canvas import PygameCanvas
from game.scene import SceneConfig
from game.scenes.walk_view import WalkView
from game.widgets import Button, Slider

SIZES = [(960, 540), (1280, 720), (1920, 1080)]
LONG_MESSAGE = (
    "F5: terrain.json: key 'points[3][1]': expected a finite number in metres, got 'high'"
    "  (still using the last good assets)"
)


@dataclass
class Text:
    rect: Rect
    text: str
    world: bool
    widget: bool


@dataclass
class Drawn:
    """What one frame put on screen."""

    texts: list[Text] = field(default_factory=list)
    panels: list[Rect] = field(default_factory=list)
    widgets: list[Rect] = field(default_factory=list)


class RecordingCanvas:
    """A :class:`PygameCanvas` that also records text boxes and panels."""

    def __init__(self, inner: PygameCanvas) -> None:
        self.inner = inner
        self.drawn = Drawn()
        self.world = False  # drawing world labels
        self.widget = False  # drawing a widget's own texts

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    @property
    def size(self) -> tuple[int, int]:
        return self.inner.size

    def panel(self, rect: Sequence[float], color: Any, alpha: int) -> None:
        self.drawn.panels.append(tuple(float(v) for v in rect))  # type: ignore[arg-type]
        self.inner.panel(rect, color, alpha)

    def text(
        self,
        pos: Sequence[float],
        text: str,
        color: Any,
        size: int = 16,
        anchor: str = "topleft",
        bold: bool = False,
    ) -> tuple[int, int]:
        w, h = self.inner.text_size(text, size, bold)
        box = pygame.Rect(0, 0, w, h)
        setattr(box, anchor, (round(pos[0]), round(pos[1])))
        rect = (float(box.x), float(box.y), float(box.w), float(box.h))
        self.drawn.texts.append(Text(rect, text, self.world, self.widget))
        return self.inner.text(pos, text, color, size, anchor, bold)

    def sprite(self, key: Any, rect: Sequence[float], draw: Any) -> None:
        """Drawn directly through this canvas, so that its texts and panels are recorded."""
        draw(self)


@contextmanager
def _flag(canvas: Any, name: str) -> Iterator[None]:
    recording = isinstance(canvas, RecordingCanvas)
    if recording:
        setattr(canvas, name, True)
    try:
        yield
    finally:
        if recording:
            setattr(canvas, name, False)


@pytest.fixture
def marked(monkeypatch: pytest.MonkeyPatch) -> None:
    """Mark world labels and widgets while they draw."""
    world_text, flush_on_top = WorldPen.text, Pen3D.flush_on_top
    slider_draw, button_draw = Slider.draw, Button.draw

    def pen_text(self: WorldPen, *args: Any, **kwargs: Any) -> None:
        with _flag(self.canvas, "world"):
            world_text(self, *args, **kwargs)

    def top_layer(self: Pen3D) -> None:
        with _flag(self.canvas, "world"):
            flush_on_top(self)

    def widget(draw: Any) -> Any:
        def wrapped(self: Any, canvas: Any, *args: Any) -> None:
            if isinstance(canvas, RecordingCanvas):
                x, y, w, h = self.rect
                reach = 8 * self.scale if isinstance(self, Slider) else 0.0  # the knob
                canvas.drawn.widgets.append((x - reach, y - reach, w + 2 * reach, h + 2 * reach))
            with _flag(canvas, "widget"):
                draw(self, canvas, *args)

        return wrapped

    monkeypatch.setattr(WorldPen, "text", pen_text)
    monkeypatch.setattr(Pen3D, "flush_on_top", top_layer)
    monkeypatch.setattr(Slider, "draw", widget(slider_draw))
    monkeypatch.setattr(Button, "draw", widget(button_draw))


@dataclass
class _Keys:
    """An autopilot that holds the same input every step."""

    held: InputState

    def next_input(self, sim: Any) -> InputState:
        return self.held


def _app(scene: str, size: tuple[int, int]) -> App:
    pygame.display.init()
    pygame.font.init()
    options = RunOptions(scene=scene, headless=True, autopilot=True, size=size, frames=10_000)
    config = SceneConfig()
    return App(options, build_scene(scene, config, size), config)


def _draw(app: App) -> Drawn:
    """What the next frame draws, recorded by the app's canvas (made a recording one the
    first time: wrapping it again each call would pass every text through all of them)."""
    recorder = app.canvas
    if not isinstance(recorder, RecordingCanvas):
        recorder = RecordingCanvas(app.canvas)  # type: ignore[arg-type]
        app.canvas = recorder  # type: ignore[assignment]
    recorder.drawn = Drawn()
    app.scene.view.layout(app.screen.get_size())
    app.run_frame(app.config.dt)
    return recorder.drawn


def _inside(inner: Rect, outer: Rect, slack: float = 1.0) -> bool:
    return (
        inner[0] >= outer[0] - slack
        and inner[1] >= outer[1] - slack
        and inner[0] + inner[2] <= outer[0] + outer[2] + slack
        and inner[1] + inner[3] <= outer[1] + outer[3] + slack
    )


def _check_hud(app: App, drawn: Drawn) -> list[str]:
    """Every broken layout rule, in words (empty when the layout is clean)."""
    width, height = app.screen.get_size()
    window = (0.0, 0.0, float(width), float(height))
    side = getattr(app.scene.view, "panel_rect", None)
    panels = drawn.panels + ([tuple(map(float, side))] if side is not None else [])
    texts = [t for t in drawn.texts if not t.world and t.text.strip()]
    problems = []
    for t in texts:
        if not _inside(t.rect, window):
            problems.append(f"{t.text!r} {t.rect} leaves the {width}x{height} window")
        for panel in panels:
            if intersects(t.rect, panel) and not _inside(t.rect, panel):
                problems.append(f"{t.text!r} {t.rect} runs out of its panel {panel}")
        if not t.widget:
            for box in drawn.widgets:
                if intersects(t.rect, box):
                    problems.append(f"{t.text!r} {t.rect} lies on a widget {box}")
    for a, b in itertools.combinations(texts, 2):
        if intersects(a.rect, b.rect):
            problems.append(f"{a.text!r} {a.rect} overlaps {b.text!r} {b.rect}")
    for a, b in itertools.combinations(panels, 2):
        if intersects(a, b) and not (_inside(a, b) or _inside(b, a)):
            problems.append(f"panels {a} and {b} overlap")
    return problems


@pytest.mark.usefixtures("marked")
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("scene", scenes.available())
def test_hud_text_fits_and_nothing_overlaps(scene: str, size: tuple[int, int]) -> None:
    app = _app(scene, size)
    app.run_frame(app.config.dt)  # the HUD is up (ground labels keep clear of its box)
    first = _draw(app)
    problems = _check_hud(app, first)
    hud_panels = first.panels
    for label in (t for t in first.texts if t.world):
        for panel in hud_panels:
            if intersects(label.rect, panel):
                problems.append(f"world label {label.text!r} {label.rect} is under panel {panel}")
    for _ in range(40):
        app.run_frame(app.config.dt)
    app.show_profiler, app.message, app.message_frames = True, LONG_MESSAGE, -1
    problems += _check_hud(app, _draw(app))
    assert not problems, "\n".join(problems)


@pytest.mark.usefixtures("marked")
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("scene", scenes.available())
def test_help_fits_its_panel(scene: str, size: tuple[int, int]) -> None:
    pygame.display.init()
    pygame.font.init()
    recorder = RecordingCanvas(PygameCanvas(pygame.Surface(size)))
    spec = scenes.load(scene)
    chosen = hud.place_help(recorder, spec.title, spec.controls)  # type: ignore[arg-type]
    hud.draw_help(recorder, spec.title, chosen)  # type: ignore[arg-type]
    drawn = recorder.drawn
    assert len(drawn.panels) == 1
    panel = drawn.panels[0]
    assert _inside(panel, (0.0, 0.0, float(size[0]), float(size[1])))
    problems = [
        f"{t.text!r} {t.rect} leaves {panel}" for t in drawn.texts if not _inside(t.rect, panel)
    ]
    problems += [
        f"{a.text!r} overlaps {b.text!r}"
        for a, b in itertools.combinations(drawn.texts, 2)
        if intersects(a.rect, b.rect)
    ]
    assert not problems, "\n".join(problems)


class _Monospace:
    """8 px per character, 10 px tall: widths are easy to reason about."""

    def text_size(self, text: str, size: int = 16, bold: bool = False) -> tuple[int, int]:
        return (8 * len(text), 10)


def test_balanced_wrap_keeps_the_line_count_and_evens_the_lines() -> None:
    from game.layout import wrap, wrap_balanced

    canvas = _Monospace()
    text = "knee poles ON · knee flips 0 · L planted R planted · 0.00 m/s · footsteps 0"
    greedy = wrap(canvas, text, 500.0, 16)
    balanced = wrap_balanced(canvas, text, 500.0, 16)
    assert len(greedy) == len(balanced) == 2
    assert " ".join(balanced) == " ".join(greedy) == text
    assert all(canvas.text_size(line)[0] <= 500.0 for line in balanced)
    widths = [len(line) for line in balanced]
    assert max(widths) - min(widths) < max(len(line) for line in greedy) - min(
        len(line) for line in greedy
    )
    assert wrap_balanced(canvas, "one line", 600.0, 16) == ["one line"]


def test_the_walk_status_keeps_its_line_breaks_as_the_feet_change() -> None:
    from game.layout import wrap_balanced
    from game.view.status import _steady_wrap

    canvas = _Monospace()
    hands = "both hands follow mouse"
    widest = [
        "knee poles ON",
        "knee flips 8",
        "L planted  R planted",
        "8.88 m/s",
        hands,
        "footsteps 88",
    ]
    splits, plain = set(), set()
    for left, right in (("planted", "swing"), ("swing", "planted"), ("planted", "planted")):
        items = [
            "knee poles ON",
            "knee flips 0",
            f"L {left}  R {right}",
            "1.35 m/s",
            hands,
            "footsteps 12",
        ]
        lines = _steady_wrap(canvas, items, widest, 500.0, 16)  # type: ignore[arg-type]
        assert " ".join(lines) == " ".join("  ·  ".join(items).split())
        assert all(canvas.text_size(line)[0] <= 500.0 for line in lines)
        splits.add(tuple(len(line.split()) for line in lines))
        balanced = wrap_balanced(canvas, "  ·  ".join(items), 500.0, 16)
        plain.add(tuple(len(line.split()) for line in balanced))
    # the plain balanced wrap moves its break as "swing" and "planted" alternate (the
    # status line would jump at every step); at the widest's breaks it stays
    assert len(plain) > 1 and len(splits) == 1


def _hud_heights(scene: str, size: tuple[int, int]) -> dict[str, float]:
    """Height of each HUD text on the second frame, by its text with digits blanked (so a
    counter is the same text at any size)."""
    app = _app(scene, size)
    app.run_frame(app.config.dt)
    return {
        re.sub(r"\d", "#", t.text): t.rect[3]
        for t in _draw(app).texts
        if not t.world and t.text.strip()
    }


@pytest.mark.usefixtures("marked")
@pytest.mark.parametrize("scene", scenes.available())
def test_hud_text_grows_with_the_window(scene: str) -> None:
    small, large = _hud_heights(scene, (1280, 720)), _hud_heights(scene, (1920, 1080))
    both = small.keys() & large.keys()
    assert len(both) >= 3
    # the layout is drawn 1.5 times larger at 1920x1080 (game.layout.ui_scale)
    fixed = [
        f"{text!r}: {small[text]:.0f} -> {large[text]:.0f} px"
        for text in both
        if large[text] < 1.3 * small[text]
    ]
    assert not fixed, "\n".join(fixed)


def _panels_on_the_profiler(app: App, drawn: Drawn) -> list[str]:
    """Every panel or HUD text drawn over the F3 panel's box (other than its own)."""
    title = next(t.rect for t in drawn.texts if t.text == "profiler (F3)")
    profiler = next(panel for panel in drawn.panels if _inside(title, panel))
    assert profiler == pytest.approx(app.profiler_rect())
    problems = [
        f"panel {panel} lies under the profiler {profiler}"
        for panel in drawn.panels
        if intersects(panel, profiler) and not _inside(panel, profiler)
    ]
    problems += [
        f"{t.text!r} {t.rect} lies under the profiler {profiler}"
        for t in drawn.texts
        if not t.world and intersects(t.rect, profiler) and not _inside(t.rect, profiler)
    ]
    return problems


# every scene, and the walk's ground editor
SCENES_AND_EDITOR = [(name, False) for name in scenes.available()] + [("walk", True)]


def _scene_ids(value: object) -> str:
    """A test id part: the scene's name, "editing" for the editor (nothing otherwise)."""
    return (
        {True: "editing", False: ""}.get(value, str(value))
        if isinstance(value, bool)
        else str(value)
    )


@pytest.mark.usefixtures("marked")
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize(("scene", "edit"), SCENES_AND_EDITOR, ids=_scene_ids)
@pytest.mark.parametrize("help_on", [False, True], ids=["", "help"])
def test_the_profiler_panel_covers_no_other_panel(
    scene: str, edit: bool, help_on: bool, size: tuple[int, int]
) -> None:
    # the F3 panel lies clear of the F1 help (it must not cut its lines off) and of the
    # ground editor's buttons and their instructions
    app = _app(scene, size)
    app.run_frame(app.config.dt)
    if edit:
        app.scene.sim.editing.active = True
    app.show_profiler, app.show_help = True, help_on
    app.run_frame(app.config.dt)
    drawn = _draw(app)
    problems = _panels_on_the_profiler(app, drawn)
    if help_on:
        assert any(t.text == app.scene.spec.title for t in drawn.texts)  # the help is up
    if edit:
        assert any(t.text == "EDIT GROUND (E)" for t in drawn.texts)
    assert not problems, "\n".join(problems)
    app.close()


def _outside(points: Any, box: Rect) -> list[tuple[float, float]]:
    """The points (pixels) that lie inside ``box``."""
    x, y, w, h = box
    return [(px, py) for px, py in points if x <= px <= x + w and y <= py <= y + h]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("scene", ["lab", "swivel"])
def test_the_f3_panel_leaves_the_arm_in_view(scene: str, size: tuple[int, int]) -> None:
    # the F3 panel hides none of the arm: in the lab the default target (2.2, 1.4), the
    # elbow and the reach circle; in the swivel scene the swivel circle and the upper arm
    import numpy as np

    from game.profiler_panel import profiler_rect
    from game.scenes import swivel

    pygame.display.init()
    pygame.font.init()
    options = RunOptions(scene=scene, headless=True, size=size, frames=10_000)
    config = SceneConfig()
    app = App(options, build_scene(scene, config, size), config)
    app.show_profiler = True
    app.run_frame(app.config.dt)
    profiler = profiler_rect(app.canvas.size, app.view_area())
    view: Any = app.scene.view
    if scene == "lab":
        target, both = app.scene.sim.pose(1.0)
        turn = np.linspace(0.0, 2 * np.pi, 90)
        reach = 3.2 * np.stack([np.cos(turn), np.sin(turn)], -1)  # the reach circle
        world = np.concatenate([[(0.0, 0.0), target, both.elbow[0], both.hand[0]], reach])
        points = view.camera.to_screen(world)
    else:
        pose = app.scene.sim.pose
        sol = swivel.solve(pose)
        circle = swivel.swivel_frame(pose, sol).circle(np.linspace(0.0, 2 * np.pi, 90))
        world = np.concatenate([[swivel.ROOT, sol.elbow, sol.hand, pose.target, pose.pole], circle])
        points = view.camera.project(world)[0]
    hidden = _outside(points.tolist(), profiler)
    assert not hidden, f"{len(hidden)} points under the panel {profiler}: {hidden[:4]}"
    width = view.panel_rect[0]  # and all of it in the view, left of the side panel
    assert all(0 <= x <= width and 0 <= y <= size[1] for x, y in points.tolist())
    app.show_profiler = False
    app.run_frame(app.config.dt)  # F3 off: the default framing again
    assert view.camera.viewport[:2] == (0, 0)
    app.close()


@pytest.mark.usefixtures("marked")
# (the two smaller sizes: at 1920x1080 the box has room to spare, so the test cannot fail)
@pytest.mark.parametrize("size", SIZES[:2], ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_status_box_keeps_its_size_and_clear_of_the_climber(size: tuple[int, int]) -> None:
    # on the ladder the status box keeps its height and width through every limb move
    # ("R rung 4", then "R moving"), does not widen over the ladder's foot, and the
    # feet's labels leave the ground's "ladder" clear
    app = _app("walk", size)
    sim, view = app.scene.sim, app.scene.view
    assert isinstance(view, WalkView) and sim.ladder is not None
    # standing a metre from the ladder's foot (the autopilot takes 5,000 steps to get there),
    # a second drawn for the camera to arrive, then W held: he walks there and climbs
    spot = sim.ladder.spot_x - 1.0
    ground = float(sim.terrain.height_at(spot))
    legs, gait = sim.rig.legs, sim.rig.gait
    sim.crowd.x[0] = spot
    sim.crowd.y[0] = ground + legs.ankle_height + gait.stand_extension * legs.limb.reach
    sim.crowd.stand_at(0, [[spot - 0.05, ground + legs.ankle_height]] * 2)
    app.scene.autopilot = _Keys(InputState())
    for _ in range(60):
        app.run_frame(app.config.dt)
    app.scene.autopilot = _Keys(InputState(climb=1.0))
    while not sim.ladder.active:
        app.run_frame(app.config.dt)
    recorder = RecordingCanvas(app.canvas)  # type: ignore[arg-type]
    app.canvas = recorder  # type: ignore[assignment]
    boxes, moving = set(), set()
    for _ in range(360):
        recorder.drawn = Drawn()
        app.run_frame(app.config.dt)
        if not sim.ladder.active:
            break
        assert view.hud_box is not None and view._frame is not None
        boxes.add(tuple(round(v) for v in view.hud_box))
        moving.add(sim.ladder.moving)
        _, pose, sol = view._frame
        soles = view.camera.to_screen(view.painter.soles(pose, sol, view.sim.rig)).reshape(-1, 2)
        assert not _outside(soles.tolist(), view.hud_box)
        world = [t for t in recorder.drawn.texts if t.world]
        names = [t for t in world if t.text == "ladder"]
        problems = [
            f"{a.text!r} {a.rect} overlaps {b.text!r} {b.rect}"
            for a in names
            for b in world
            if b is not a and intersects(a.rect, b.rect)
        ]
        assert not problems, "\n".join(problems)
        # ... nor a hand's label his face (the rear hand's lies nearest it)
        radius = sim.rig.body.head_radius
        corners = pose.head[0] + np.array([[-radius, -radius], [radius, radius]])
        (x0, y0), (x1, y1) = np.sort(view.camera.to_screen(corners), axis=0).tolist()
        face = (x0, y0, x1 - x0, y1 - y0)
        over = [t.text for t in world if "hand:" in t.text and intersects(t.rect, face)]
        assert not over, over
    assert len(moving) >= 3  # a few limbs moved
    assert len(boxes) == 1, sorted(boxes)
    app.close()


@pytest.mark.usefixtures("marked")
def test_the_crowd_hud_counts_one_character_in_the_singular_and_says_whose_steps() -> None:
    # with one character the HUD says "1 character", not "1 characters" or "1 of 1
    # characters in view", and the footstep total says whose steps it counts: those of the
    # walkers still here (theirs are kept, the removed ones' go with them), or it would
    # seem to reset as walkers are removed
    pygame.display.init()
    pygame.font.init()
    options = RunOptions(scene="crowd", headless=True, autopilot=True, size=(1280, 720))
    config = SceneConfig(characters=50)
    app = App(options, build_scene("crowd", config, (1280, 720)), config)
    app.show_overlay = True  # the count in view is the overlay's
    for _ in range(120):
        app.run_frame(app.config.dt)
    sim = app.scene.sim
    hero_steps = int(sim.crowd.feet.steps[0])
    assert hero_steps > 0
    sim.step(InputState(actions=("crowd_less",)), app.config.dt, app.timer)  # 50 -> 1
    assert sim.character_count == 1
    assert int(sim.crowd.feet.steps[0]) == hero_steps  # the hero's steps are kept
    words = " ".join(t.text for t in _draw(app).texts if not t.world)
    assert "1 characters" not in words
    assert "1 character " in words or "1 character ·" in words
    assert "1 of 1 character in view" in words
    now = int(sim.crowd.feet.steps[0])  # (the frame drawn steps once more)
    assert now >= hero_steps and f"footsteps by the 1 character here: {now}" in words
    app.close()


def _near_segment(box: Rect, a: Any, b: Any, radius: float) -> bool:
    """Whether ``box`` comes within ``radius`` pixels of segment ``a``–``b`` (sampled a
    pixel apart: independent of the placer's own test)."""
    import numpy as np

    count = max(int(math.hypot(b[0] - a[0], b[1] - a[1])), 1)
    t = np.linspace(0.0, 1.0, count + 1)
    x, y = a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])
    dx = np.maximum(np.maximum(box[0] - x, 0.0), x - box[0] - box[2])
    dy = np.maximum(np.maximum(box[1] - y, 0.0), y - box[1] - box[3])
    return bool((np.hypot(dx, dy) < radius).any())


def _label_problems(
    labels: list[Text], strokes: list[tuple[str, Any, Any, float]], boxes: list[tuple[str, Rect]]
) -> list[str]:
    """Every world label on another, on a stroke (a bone, a bar, a ball) or a box (a marker)."""
    problems = [
        f"{a.text!r} {a.rect} overlaps {b.text!r} {b.rect}"
        for a, b in itertools.combinations(labels, 2)
        if intersects(a.rect, b.rect)
    ]
    for label in labels:
        problems += [
            f"{label.text!r} {label.rect} lies on the {name}"
            for name, a, b, radius in strokes
            if _near_segment(label.rect, a, b, radius)
        ]
        problems += [
            f"{label.text!r} {label.rect} lies on the {name} {box}"
            for name, box in boxes
            if intersects(label.rect, box)
        ]
    return problems


# camera yaw and pitch (degrees), distance (m), twist (degrees), how far the target is
# pushed away from the eye (W, metres)
SWIVEL_SHOTS = [
    (45.0, 18.0, 5.6, 0.0, 0.0),  # the start: "1.47 m" near the upper arm
    (-24.0, 18.0, 4.1, 7.5, 0.0),  # right-drag orbit, wheel zoom: "target" under the pole
    (-24.0, 18.0, 4.1, 7.5, 1.93),  # then W: the swivel circle's name on "α" and "77.6°"
    *[
        (yaw, pitch, distance, 20.0, 0.0)
        for yaw in (100.0, 170.0, 250.0, 320.0)
        for pitch in (10.0, 50.0)
        for distance in (4.1, 7.0)
    ],
]


@pytest.mark.usefixtures("marked")
@pytest.mark.parametrize("size", [(960, 540), (1600, 1000)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_swivel_labels_keep_off_each_other_the_arm_and_the_markers(size: tuple[int, int]) -> None:
    # no label on another or on the arm and markers: not "1.47 m" (the pole's lever) on
    # the upper arm; after an orbit and a zoom not "target" under the pole's diamond, nor
    # the swivel circle's name on "α" and the angle's
    import numpy as np

    from game.scenes import swivel, swivel_arm

    app = _app("swivel", size)
    app.scene.autopilot = _Keys(InputState())
    sim, view = app.scene.sim, app.scene.view
    problems = []
    for yaw, pitch, distance, twist, push in SWIVEL_SHOTS:
        view.camera = dataclasses.replace(
            view.camera, yaw=math.radians(yaw), pitch=math.radians(pitch), distance=distance
        )
        pose = swivel.DEFAULT_POSE
        target = np.asarray(pose.target) + push * view.camera.basis[2]
        sim.pose = sim.prev_pose = dataclasses.replace(
            pose, target=tuple(target.tolist()), twist=math.radians(twist)
        )
        drawn = _draw(app)
        camera, sol = view.camera, swivel.solve(sim.pose)
        ends = np.vstack(
            [swivel.ROOT, sol.elbow, sol.hand, target + swivel_arm.CROSS_ARM * np.eye(3)]
        )
        cross = target - swivel_arm.CROSS_ARM * np.eye(3)
        tips = np.asarray(sim.pose.pole) + swivel_arm.POLE_SIZE * np.vstack([np.eye(3), -np.eye(3)])
        px, depth = camera.project(np.vstack([ends, cross, tips]))
        ppm = camera.px_per_metre(depth)
        (root, elbow, hand), bars = px[:3], zip(px[3:6], px[6:9], strict=True)
        strokes = [
            ("upper arm", root, elbow, swivel_arm.UPPER_RADII[0] * ppm[0]),
            ("forearm", elbow, hand, swivel_arm.LOWER_RADII[0] * ppm[1]),
            ("shoulder", root, root, swivel_arm.SHOULDER_R * ppm[0]),
            ("elbow", elbow, elbow, swivel_arm.ELBOW_R * ppm[1]),
            ("hand", hand, hand, 0.08 * ppm[2]),
            *[("target's cross", a, b, 1.5) for a, b in bars],
        ]
        (x0, y0), (x1, y1) = px[9:].min(axis=0), px[9:].max(axis=0)
        boxes = [("pole's diamond", (float(x0), float(y0), float(x1 - x0), float(y1 - y0)))]
        labels = [t for t in drawn.texts if t.world]
        assert len(labels) >= 8
        found = _label_problems(labels, strokes, boxes)
        problems += [f"yaw {yaw} pitch {pitch} distance {distance} push {push}: {p}" for p in found]
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems)
    app.close()


@pytest.mark.usefixtures("marked")
@pytest.mark.parametrize("size", [(960, 540), (1600, 1000)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_lab_labels_keep_off_each_other_the_arms_and_the_target(size: tuple[int, int]) -> None:
    # the target dragged into the dead zone: the "shortfall" label keeps off the arm and
    # the target's cross
    app = _app("lab", size)
    app.scene.autopilot = _Keys(InputState())
    sim, view = app.scene.sim, app.scene.view
    targets = [(0.06, 0.02)] + [
        (r * math.cos(a), r * math.sin(a))
        for r in (0.3, 1.5, 2.6, 3.6)
        for a in (0.4, 1.9, 3.3, 4.6, 5.8)
    ]
    problems = []
    for bend in (1, -1):
        sim.bend = bend
        for target in targets:
            sim.target = sim.prev_target = target
            drawn = _draw(app)
            _, both = sim.pose(1.0)
            to_px = view.camera.to_screen
            root, tip = (tuple(v) for v in to_px([(0.0, 0.0), target]).tolist())
            strokes: list[tuple[str, Any, Any, float]] = [("shoulder", root, root, 11.0)]
            for k, (name, upper, lower) in enumerate((("arm", 10, 7), ("ghost arm", 4, 3))):
                elbow, hand = to_px([both.elbow[k], both.hand[k]]).tolist()
                strokes += [
                    (f"{name}'s upper bone", root, elbow, upper),
                    (f"{name}'s lower bone", elbow, hand, lower),
                    (f"{name}'s elbow", elbow, elbow, 8.0),
                    (f"{name}'s hand", hand, hand, 7.0),
                ]
            cross = ("target's cross", (tip[0] - 10, tip[1] - 10, 20.0, 20.0))
            labels = [t for t in drawn.texts if t.world]
            found = _label_problems(labels, strokes, [cross])
            problems += [f"target {target} bend {bend}: {p}" for p in found]
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems)
    app.close()


# window sizes the app accepts (960x540 up): the designed aspect and odd ones, tall and wide
HELP_SIZES = [
    (960, 540),
    (1100, 620),
    (1280, 720),
    (1439, 839),
    (1600, 1000),
    (1920, 1080),
    (960, 1000),
    (1000, 760),
    (2400, 600),
]
# The walk's help shares the view with his status box, the ground editor's palette and the
# F3 panel, and with them open goes somewhere else, or smaller, from one size to the next:
# it is checked at every size. In the other scenes it goes to the same place, at full size, at every size
# (the crowd's to the left at 2400x600 only): the smallest, largest, tallest and widest
# windows cover them.
HELP_CASES = [
    (scene, edit, size)
    for scene, edit in SCENES_AND_EDITOR
    for size in (
        HELP_SIZES if scene == "walk" else [(960, 540), (1920, 1080), (960, 1000), (2400, 600)]
    )
]


@pytest.mark.usefixtures("marked")
@pytest.mark.parametrize(
    ("scene", "edit", "size"),
    HELP_CASES,
    ids=[f"{scene}-{_scene_ids(edit)}-{w}x{h}" for scene, edit, (w, h) in HELP_CASES],
)
@pytest.mark.parametrize("profiler", [False, True], ids=["", "F3"])
def test_the_help_covers_no_other_panel(
    monkeypatch: pytest.MonkeyPatch,
    scene: str,
    edit: bool,
    profiler: bool,
    size: tuple[int, int],
) -> None:
    # the F1 help, with F3 on or off, covers no status box, side panel or palette at any
    # size, the ground editor's included
    placed: list[tuple[Any, hud.HelpLayout]] = []
    place_help = hud.place_help

    def spy(canvas: Any, *args: Any) -> hud.HelpLayout:
        chosen = place_help(canvas, *args)
        if isinstance(canvas, RecordingCanvas):
            placed.append((args, chosen))
        return chosen

    monkeypatch.setattr(hud, "place_help", spy)
    app = _app(scene, size)
    app.show_overlay = True  # its legend is the one box the help may cover
    app.run_frame(app.config.dt)
    if edit:
        app.scene.sim.editing.active = True
    app.show_profiler, app.show_help = profiler, True
    app.message, app.message_frames = LONG_MESSAGE, -1
    app.run_frame(app.config.dt)
    drawn = _draw(app)
    (title, controls, keep_clear, area, key_boxes, subject), chosen = placed[-1]
    help_box = chosen.cover or chosen.box
    assert chosen.fits and help_box in drawn.panels
    # the overlay's colour key is the one box it may cover, and only where it fits nowhere
    # clear of it and the hero too (the editor and F3 open at 960x540)
    covered = [box for box in key_boxes if intersects(help_box, box)]
    if covered:
        everything = [*keep_clear, *subject, *key_boxes]
        assert not place_help(app.canvas, title, controls, everything, area).fits
        drawn.panels = [p for p in drawn.panels if p not in covered]
        drawn.texts = [t for t in drawn.texts if not any(_inside(t.rect, b) for b in covered)]
    side = getattr(app.scene.view, "panel_rect", None)
    others = [p for p in drawn.panels if p != help_box]
    others += [tuple(map(float, side))] if side is not None else []
    problems = [
        f"the help {help_box} lies on the panel {p}" for p in others if intersects(help_box, p)
    ]
    problems += _check_hud(app, drawn)
    assert not problems, "\n".join(problems)
    app.close()


def test_free_areas_are_the_largest_rectangles_clear_of_every_box() -> None:
    from game.layout import free_areas

    window = (0.0, 0.0, 100.0, 60.0)
    boxes = [(0.0, 0.0, 40.0, 10.0), (70.0, 40.0, 30.0, 20.0)]  # a tab strip, a corner panel
    areas = free_areas(window, boxes)
    assert sorted(areas) == [
        (0.0, 10.0, 70.0, 50.0),
        (0.0, 10.0, 100.0, 30.0),
        (40.0, 0.0, 30.0, 60.0),
        (40.0, 0.0, 60.0, 40.0),
    ]
    assert not any(intersects(a, b) for a in areas for b in boxes)
    assert free_areas(window, []) == [window]
    assert free_areas(window, boxes, gap=5.0)[0][1] == 15.0  # kept 5 px off each box


def _hero_drawn(app: App) -> Rect:
    """The box of the walker's own pixels, drawn alone where the last frame drew him."""
    view = app.scene.view
    assert isinstance(view, WalkView)
    canvas = PygameCanvas(pygame.Surface(app.screen.get_size()))
    pose, sol = view._interpolated(0.0)
    pen = WorldPen(canvas, view.camera)
    view.painter.draw(pen, pose, sol, view.sim.rig, view.held(pen, sol))
    pixels = pygame.surfarray.array3d(canvas.surface)
    hero = (pixels != 0).any(axis=-1)
    (x0, y0), (x1, y1) = np.argwhere(hero).min(axis=0), np.argwhere(hero).max(axis=0)
    return (float(x0), float(y0), float(x1 - x0 + 1), float(y1 - y0 + 1))


@pytest.mark.parametrize("size", [(960, 600), (1280, 720), (1580, 860)], ids=lambda s: f"{s}")
def test_the_help_does_not_hide_the_hero_with_the_f3_panel_open(
    monkeypatch: pytest.MonkeyPatch, size: tuple[int, int]
) -> None:
    # the F1 help leaves him in view, with F3 on too: standing, and having walked either
    # way (the camera leads him: he stands left or right of the middle)
    placed: list[hud.HelpLayout] = []
    place_help = hud.place_help

    def spy(*args: Any) -> hud.HelpLayout:
        placed.append(place_help(*args))
        return placed[-1]

    monkeypatch.setattr(hud, "place_help", spy)
    for move in (0.0, 1.0, -1.0):
        app = _app("walk", size)
        sim, view = app.scene.sim, app.scene.view
        app.scene.autopilot = _Keys(InputState(move=move))
        for _ in range(80):
            sim.step(InputState(move=move), sim.dt, app.timer)
        app.show_profiler = app.show_help = True
        app.run_frame(sim.dt)
        app.run_frame(sim.dt)
        help_box = placed[-1].cover or placed[-1].box
        assert placed[-1].fits
        drawn = _hero_drawn(app)
        assert not intersects(help_box, drawn), f"moving {move}: help {help_box}, hero {drawn}"
        assert _inside(drawn, view.subject_box, slack=0.0)  # the box the help keeps off
        app.close()


@pytest.fixture(scope="module")
def walked_on() -> dict[int, Any]:
    """The walk scene's simulation after walking right for 0, 350 (by the gentle slope's
    top, x 7.3) and 700 steps (the stairs' top landing, x 13.6), by step count."""
    import copy

    sim = build_scene("walk", SceneConfig(), (1280, 720)).sim
    kept = {0: copy.deepcopy(sim)}
    for step in range(1, 701):
        sim.step(InputState(move=1.0), sim.dt, PhaseTimer())
        if step in (350, 700):
            kept[step] = copy.deepcopy(sim)
    return kept


@pytest.mark.usefixtures("marked")
@pytest.mark.parametrize(
    ("size", "profiler", "steps"),
    [
        ((1280, 720), False, 0),
        ((960, 600), False, 0),
        ((1580, 860), True, 0),
        ((1280, 720), False, 350),
        ((1580, 860), True, 350),
        ((1280, 720), False, 700),
        ((1580, 860), True, 700),
    ],
    ids=str,
)
def test_the_grounds_names_keep_off_the_hero_the_panels_and_the_windows_edge(
    walked_on: dict[int, Any], size: tuple[int, int], profiler: bool, steps: int
) -> None:
    # "start", "stairs up", ... keep off his feet as he passes, out from under the status
    # box, and inside the window's bottom edge with the camera raised for the F3 panel
    import copy

    pygame.display.init()
    pygame.font.init()
    options = RunOptions(scene="walk", headless=True, size=size)
    spec, sim = scenes.load("walk"), copy.deepcopy(walked_on[steps])
    view = spec.view(sim)
    view.layout(size)
    app = App(options, ActiveScene(spec, sim, view, _Keys(InputState())), SceneConfig())
    app.show_profiler = profiler
    app.run_frame(sim.dt)
    drawn = _draw(app)
    hero = _hero_drawn(app)
    near = 16 * ui_scale(size)  # closer than this (at 1280x720) a name reads as at his feet
    hero = (hero[0] - near, hero[1] - near, hero[2] + 2 * near, hero[3] + 2 * near)
    names = {mark.name for mark in sim.terrain.landmarks}
    labels = [t for t in drawn.texts if t.world and t.text in names]
    assert labels
    panels = [*drawn.panels, *([app.profiler_rect()] if profiler else [])]
    for label in labels:
        assert not intersects(label.rect, hero), f"{label.text!r} {label.rect} by him {hero}"
        for panel in panels:
            assert not intersects(label.rect, panel), f"{label.text!r} {label.rect} on {panel}"
        top, bottom = label.rect[1], label.rect[1] + label.rect[3]
        assert 0 <= top and bottom <= size[1], f"{label.text!r} {label.rect} off the window"
    app.close()


def test_a_message_takes_the_bottom_corner_the_status_box_leaves_free() -> None:
    """The walker's status box sits in the bottom corner behind him, either one: the
    banner goes to the right one, else the left, else above the boxes on the right."""
    canvas = PygameCanvas(pygame.Surface((1280, 720)))
    area = (0.0, 0.0, 1280.0, 720.0)
    free, _, _ = hud.message_box(canvas, LONG_MESSAGE, area)
    assert free[0] + free[2] > 1200 and free[1] + free[3] > 680  # bottom right
    status_right = (780.0, 600.0, 480.0, 100.0)
    moved, _, _ = hud.message_box(canvas, LONG_MESSAGE, area, [status_right])
    assert moved[0] < 80 and not intersects(moved, status_right)  # bottom left
    status_left = (20.0, 600.0, 480.0, 100.0)
    above, _, _ = hud.message_box(canvas, LONG_MESSAGE, area, [status_left, status_right])
    assert above[1] + above[3] < 600 and above[0] + above[2] > 1200


def test_the_help_lists_a_key_once_with_the_scenes_own_words_for_it() -> None:
    canvas = PygameCanvas(pygame.Surface((1280, 720)))
    for name in scenes.available():
        controls = scenes.load(name).controls
        layout = hud.help_layout(canvas, name, controls, (0.0, 0.0, 1280.0, 720.0))
        keys = [key for key, _ in layout.rows if key]
        assert len(keys) == len(set(keys)), name
    crowd = dict(scenes.load("crowd").controls)
    layout = hud.help_layout(canvas, "crowd", tuple(crowd.items()), (0.0, 0.0, 1280.0, 720.0))
    assert " ".join(dict(layout.rows)["O"]) == crowd["O"]


class _StatusCanvas(_Monospace):
    """What the status box draws on: a monospace 1280x720 canvas that draws nothing."""

    size = (1280, 720)

    def panel(self, rect: Sequence[float], color: Any, alpha: int) -> None:
        pass

    def text(self, pos: Sequence[float], text: str, color: Any, size: int = 16) -> None:
        pass


def test_a_status_whose_figures_change_every_frame_keeps_its_line_breaks_unsearched(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from game.view import status

    canvas = _StatusCanvas()
    # figures as wide as the 8s their alternatives have (the widths a HUD font gives digits)
    alternatives = [("888 characters",), ("footsteps 88888",), ("hero steered", "hero walking")]

    def items(steps: int) -> list[str]:
        return ["200 characters", f"footsteps {steps:05d}", "hero walking"]

    first = status.draw_status_panel(canvas, items(1), (255, 255, 255), ["hint"], alternatives)
    searched: list[int] = []
    steady_lines = status._steady_lines
    monkeypatch.setattr(status, "_steady_lines", lambda *a: searched.append(1) or steady_lines(*a))
    for steps in range(2, 6):
        box = status.draw_status_panel(
            canvas, items(steps), (255, 255, 255), ["hint"], alternatives
        )
        assert box == first
    assert len(searched) == 4  # one wrap of the frame's own texts a frame, no search
