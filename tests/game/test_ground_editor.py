"""The ground editor as a player meets it: Esc leaves it, quitting with unsaved edits asks
first, a preset's ghost and a refusal drawn where it fails, presets accepted where they
make sense, loads and edits checked against the props and the cup.

Every test builds its own small course (a folder with its own terrain and props files),
never the shipped one.
"""

from __future__ import annotations

import json
import math
import shutil
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pygame
import pytest

from game.app import App, build_scene
from game.global_keys import QUIT_CONFIRM_S, QUIT_PROMPT
from game.input_state import InputState
from game.options import RunOptions
from game.palette import PALETTE
from game.profiling import PhaseTimer
from game.scene import SceneConfig
from game.scenes import ground_edit_view
from game.scenes.crowd import CrowdSim
from game.scenes.ground_edit import CLIMBING_REFUSAL
from game.scenes.preset_palette import DEFAULTS, make_presets
from game.scenes.walk import WalkSim
from game.world.terrain import Terrain, load_terrain
from game.world.terrain_edit import EditLimits, EditRefused, TerrainEditor

ASSETS = Path(__file__).resolve().parents[2] / "assets"
DT = 1.0 / 60.0
LIMITS = EditLimits(max_step_height=0.4, max_grade=math.radians(24), min_tread=0.23, step_reach=0.5)
# a small course: flat start, a 6° slope, a level stretch, an 18° slope to a plateau
COURSE = [[-6.0, 0.0], [3.0, 0.0], [7.0, 0.42], [10.0, 0.42], [12.5, 1.232], [20.0, 1.232]]
PROPS = {
    "reach_halflife": 0.12,
    "grip_tolerance": 0.01,
    "door": {"x": -5.5, "width": 0.9, "height": 2.05, "knob": [0.72, 1.0]},
    "table": {"x": 1.8, "width": 0.9, "height": 0.92},
    "cup": {"x": 2.0, "height": 0.1, "radius": 0.04, "grip": 0.06},
    "ladder": {"x": 16.0, "width": 0.42, "height": 3.35, "first_rung": 0.3, "rung_spacing": 0.3},
}


def _course(folder: Path, points: list[list[float]] = COURSE, props: bool = True) -> Path:
    """An assets folder with the shipped rig, ``points`` as its terrain and (if ``props``)
    the props above."""
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copy(ASSETS / "rig.json", folder / "rig.json")
    (folder / "terrain.json").write_text(json.dumps({"points": points}))
    if props:
        (folder / "props.json").write_text(json.dumps(PROPS))
    return folder


def _walk(folder: Path) -> WalkSim:
    return WalkSim(SceneConfig(assets_dir=folder, extra={}))


def _edit(sim: WalkSim, **values: object) -> None:
    sim.step(InputState(actions=("terrain_edit",), values=values), DT, PhaseTimer())


@pytest.fixture
def display() -> Iterator[None]:
    pygame.display.init()
    pygame.font.init()
    yield
    pygame.display.quit()


def _app(folder: Path) -> App:
    options = RunOptions(scene="walk", headless=True, size=(1280, 720))
    config = SceneConfig(assets_dir=folder, extra={})
    return App(options, build_scene("walk", config, options.size), config)


def _key(key: int, up: bool = False) -> None:
    kind = pygame.KEYUP if up else pygame.KEYDOWN
    pygame.event.post(pygame.event.Event(kind, key=key, mod=0, unicode="", scancode=0))


def _press(app: App, *keys: int, frames: int = 1) -> None:
    """Press (and release) ``keys`` through the event queue, then run ``frames`` frames."""
    for key in keys:
        _key(key)
        _key(key, up=True)
    for _ in range(frames):
        app.run_frame(DT)


def _click(app: App, px: tuple[float, float]) -> None:
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=px, rel=(0, 0), buttons=()))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=px, button=1))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=px, button=1))
    app.run_frame(DT)


def _ground_px(app: App, x: float) -> tuple[float, float]:
    """Where the ground at world ``x`` is in the window."""
    sim = app.scene.sim
    return tuple(app.scene.view.camera.to_screen(np.array([x, sim.terrain.height_at(x)])))


def _build_stairs_by_mouse(app: App) -> None:
    """Open the editor (E), choose stairs in the palette and click the flat ahead."""
    sim = app.scene.sim
    _press(app, pygame.K_e)
    assert sim.editing.active
    stairs = app.scene.view.ground_edit.buttons[0]
    x, y, w, h = stairs.rect
    _click(app, (x + w / 2, y + h / 2))
    before = sim.terrain
    _click(app, _ground_px(app, -1.5))
    assert sim.terrain is not before, sim.editing.message


# -- Esc and quitting ---------------------------------------------------------------------
def test_esc_and_e_leave_the_ground_editor_instead_of_quitting(
    display: None, tmp_path: Path
) -> None:
    app = _app(_course(tmp_path / "course"))
    editing = app.scene.sim.editing
    _press(app, pygame.K_e)
    assert editing.active
    _press(app, pygame.K_ESCAPE)
    assert not editing.active and app.running  # Esc left the editor, the game goes on
    _press(app, pygame.K_e)
    _press(app, pygame.K_e)
    assert not editing.active and app.running
    _press(app, pygame.K_ESCAPE)  # outside the editor, no edits: Esc quits at once
    assert not app.running


def test_quitting_with_unsaved_edits_asks_for_a_second_esc_within_two_seconds(
    display: None, tmp_path: Path
) -> None:
    app = _app(_course(tmp_path / "course"))
    _build_stairs_by_mouse(app)
    _press(app, pygame.K_ESCAPE)  # leaves the editor
    assert app.running and not app.scene.sim.editing.active
    _press(app, pygame.K_ESCAPE)
    assert app.running and app.message == QUIT_PROMPT
    # too late: the prompt goes, and the next Esc asks again
    _press(app, frames=round(1.5 * QUIT_CONFIRM_S / DT))
    assert app.message == ""
    _press(app, pygame.K_ESCAPE)
    assert app.running and app.message == QUIT_PROMPT
    _press(app, frames=round(0.5 * QUIT_CONFIRM_S / DT))
    _press(app, pygame.K_ESCAPE)  # again within the time: quits without them
    assert not app.running


def test_closing_the_window_with_unsaved_edits_asks_first_and_not_once_saved(
    display: None, tmp_path: Path
) -> None:
    app = _app(_course(tmp_path / "course"))
    _build_stairs_by_mouse(app)
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    app.run_frame(DT)
    assert app.running and app.message == QUIT_PROMPT
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    app.run_frame(DT)
    assert not app.running

    saved = _app(_course(tmp_path / "saved"))
    _build_stairs_by_mouse(saved)
    assert "saved" in saved.scene.sim.editing.save()
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    saved.run_frame(DT)
    assert not saved.running  # nothing to lose: no question


def test_esc_in_a_headless_run_of_the_app_leaves_the_editor_then_quits(
    display: None, tmp_path: Path
) -> None:
    app = _app(_course(tmp_path / "course"))
    _press(app, pygame.K_e, frames=5)
    _key(pygame.K_ESCAPE)  # queued before the loop runs: its first frame reads it
    app.options = RunOptions(scene="walk", headless=True, size=(1280, 720), frames=35)
    app.run()  # the real loop, to its frame limit
    assert app.frames == 35 and not app.scene.sim.editing.active and app.steps == 35


# -- the ghost and the refusal on screen ----------------------------------------------------
def _pixels(app: App, color: tuple[int, int, int]) -> np.ndarray:
    """Window pixels (x, y) of exactly ``color``."""
    rgb = pygame.surfarray.array3d(app.screen)
    return np.argwhere((rgb == np.array(color)).all(axis=-1))


def _stairs_preset_picked(tmp_path: Path) -> App:
    """The walk scene on this file's course, the editor open and its first preset (the
    stairs) picked."""
    app = _app(_course(tmp_path / "course"))
    _press(app, pygame.K_e)
    x, y, w, h = app.scene.view.ground_edit.buttons[0].rect
    _click(app, (x + w / 2, y + h / 2))
    return app


def test_a_preset_shows_a_ghost_under_the_pointer_before_the_click(
    display: None, tmp_path: Path
) -> None:
    app = _stairs_preset_picked(tmp_path)
    sim = app.scene.sim
    before = sim.terrain
    pointer = _ground_px(app, -1.5)
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pointer, rel=(0, 0), buttons=()))
    app.run_frame(DT)
    view = app.scene.view.ground_edit
    assert view.ghost_x == pytest.approx(-1.5, abs=0.02)
    ghost = view._ghost(sim.editing)
    assert ghost.refusal is None and sim.terrain is before  # shown, not built
    green = _pixels(app, PALETTE["ok"])
    top = app.scene.view.camera.to_screen(np.array([-0.3, 0.68]))  # the landing
    assert len(green) and np.hypot(*(green - top).T).min() < 12


def test_a_refused_edit_is_drawn_in_red_where_it_fails_with_the_reason_for_a_while(
    display: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = _stairs_preset_picked(tmp_path)
    sim = app.scene.sim
    _click(app, _ground_px(app, 0.0))  # the stairs, just before the table
    message = sim.editing.message
    assert message.startswith("refused: the table stands on x 1.80 to 2.70")
    assert sim.editing.refused is not None
    assert sim.editing.refused.refusal.span == pytest.approx((1.8, 2.7))
    # the pointer moved off to the palette: the refusal itself is drawn, in red at the table
    x, y, w, h = app.scene.view.ground_edit.panel
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(x + 5, y + h - 5), rel=(0, 0)))
    app.run_frame(DT)
    red = _pixels(app, PALETTE["bad"])
    camera = app.scene.view.camera
    table = camera.to_screen(np.array([[1.8, 0.0], [2.7, 0.0]]))
    on_table = (red[:, 0] >= table[0, 0]) & (red[:, 0] <= table[1, 0])
    assert on_table.sum() > 50  # the footprint's ground and the reason's text above it
    # ... for REFUSAL_SHOWN_S of the game's time (a few frames here), then it goes; the
    # message in the palette stays
    monkeypatch.setattr(ground_edit_view, "REFUSAL_SHOWN_S", 2.5 * DT)
    for _ in range(4):
        app.run_frame(DT)
    red = _pixels(app, PALETTE["bad"])
    on_table = (red[:, 0] >= table[0, 0]) & (red[:, 0] <= table[1, 0]) & (red[:, 0] < x)
    assert on_table.sum() < 5  # (x: the palette's left, its message is red too)
    assert sim.editing.message == message


def test_a_click_in_the_frame_that_opens_the_editor_is_the_editors(
    display: None, tmp_path: Path
) -> None:
    # E and a click on a palette button arriving in one frame (a slow frame, or a quick
    # hand): the button is pressed, the click does not go to the walk underneath
    app = _app(_course(tmp_path / "course"))
    view = app.scene.view.ground_edit
    x, y, w, h = view.buttons[2].rect
    _key(pygame.K_e)
    _key(pygame.K_e, up=True)
    _click(app, (x + w / 2, y + h / 2))
    assert app.scene.sim.editing.active
    assert view.preset is not None and view.preset.op == view.buttons[2].action
    # ... and in the frame after it, when no step has run between (a frame quicker than
    # a step): out, then E in a frame of no time, then a click on the ramp
    _press(app, pygame.K_e)
    assert not app.scene.sim.editing.active
    _key(pygame.K_e)
    _key(pygame.K_e, up=True)
    app.run_frame(0.0)
    x, y, w, h = view.buttons[1].rect
    _click(app, (x + w / 2, y + h / 2))
    assert app.scene.sim.editing.active
    assert view.preset is not None and view.preset.op == view.buttons[1].action


def test_esc_in_a_frame_before_its_step_sends_the_next_click_to_the_walk(
    display: None, tmp_path: Path
) -> None:
    # Esc leaves the editor at the next step: a click in the frame after it, before that
    # step, builds nothing (the editor is closing), whatever shape was chosen
    app = _stairs_preset_picked(tmp_path)
    sim = app.scene.sim
    before = sim.terrain
    _key(pygame.K_ESCAPE)
    _key(pygame.K_ESCAPE, up=True)
    app.run_frame(0.0)
    _click(app, _ground_px(app, -1.5))
    assert not sim.editing.active
    assert sim.terrain is before


def test_the_editor_opened_again_shows_no_refusal_of_its_last_visit(
    display: None, tmp_path: Path
) -> None:
    app = _stairs_preset_picked(tmp_path)
    sim = app.scene.sim
    _click(app, _ground_px(app, 0.0))  # refused: the table stands there
    assert sim.editing.message.startswith("refused") and sim.editing.refused is not None
    _press(app, pygame.K_e)  # out ...
    _press(app, pygame.K_e)  # ... and in again
    assert sim.editing.active
    assert sim.editing.message == "" and sim.editing.refused is None
    assert app.scene.view.ground_edit.preset is None  # no shape chosen: a click picks one


def test_a_vertex_dragged_beside_a_prop_tilts_the_ground_beyond_the_prop_not_under_it(
    display: None, tmp_path: Path
) -> None:
    # the flat start (x -6 to 3) is one segment under the door and the table: dragging its
    # right vertex up pins the ground at the table's end first, so the drag tilts only the
    # ground from there (tilted whole, it would take the table's and the door's ground)
    app = _app(_course(tmp_path / "course"))
    sim = app.scene.sim
    _press(app, pygame.K_e)
    before = sim.terrain.points.copy()
    start = _ground_px(app, 3.0)
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=start, rel=(0, 0), buttons=()))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=start, button=1))
    app.run_frame(DT)
    for lift in (0.05, 0.1):  # two moves of one drag: the second moves the same vertex
        px = tuple(app.scene.view.camera.to_screen(np.array([3.0, lift])))
        pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=px, rel=(0, -1), buttons=(1,)))
        app.run_frame(DT)
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=px, button=1))
    app.run_frame(DT)
    assert sim.editing.refused is None, sim.editing.message
    points = sim.terrain.points
    assert len(points) == len(before) + 1  # a vertex pinning the table's end (x 2.7)
    assert points[2] == pytest.approx((3.0, 0.1), abs=0.01)
    assert points[1] == pytest.approx((2.7, 0.0))
    assert np.allclose(sim.terrain.height_at(np.linspace(-6.0, 2.7, 50)), 0.0)
    _key(pygame.K_LCTRL)
    _press(app, pygame.K_z)  # one undo takes the whole drag back, pin and all
    _key(pygame.K_LCTRL, up=True)
    np.testing.assert_array_equal(sim.terrain.points, before)


def test_integer_controls_show_integers() -> None:
    steps = next(p for p in make_presets() if p.op == "stairs").sliders[2]
    assert steps.whole
    steps.rect = (0.0, 0.0, 70.0, 18.0)
    assert steps.value_at((36.0, 9.0)) == 5.0  # 4.6 of 1…8: a whole number

    class Texts:
        def __init__(self) -> None:
            self.shown: list[str] = []

        def text(self, pos: object, text: str, *args: object, **kwargs: object) -> None:
            self.shown.append(text)

        def rect(self, *args: object, **kwargs: object) -> None: ...

        def circle(self, *args: object, **kwargs: object) -> None: ...

    canvas = Texts()
    steps.draw(canvas, 4.0, False)  # type: ignore[arg-type]
    assert "4" in canvas.shown and not any("4.00" in t for t in canvas.shown)


# -- presets in sensible places -------------------------------------------------------------
@pytest.mark.parametrize("op", sorted(DEFAULTS))
@pytest.mark.parametrize(
    ("where", "x"),
    [("flat", -1.0), ("gentle slope", 4.0), ("level stretch", 7.5), ("plateau", 13.5)],
)
def test_the_default_presets_are_accepted_in_sensible_places(op: str, where: str, x: float) -> None:
    editor = TerrainEditor(Terrain(np.array(COURSE)), LIMITS)
    editor.build(op, x, *DEFAULTS[op].values())


def test_stairs_at_the_foot_of_a_steep_slope_land_on_it_and_leave_it_be() -> None:
    course = Terrain(np.array(COURSE))
    editor = TerrainEditor(course, LIMITS)
    editor.stairs(8.5, 0.17, 0.3, 4)
    top = 0.42 + 0.68  # the slope (18°, 0.3248 m/m) reaches it at x = 12.094
    assert editor.terrain.height_at(12.0) == pytest.approx(top)
    beyond = np.linspace(12.094, 20.0, 40)
    np.testing.assert_allclose(editor.terrain.height_at(beyond), course.height_at(beyond))


def test_a_refusal_names_the_rule_and_carries_where_it_fails() -> None:
    editor = TerrainEditor(Terrain(np.array([[0.0, 0.0], [10.0, 0.0]])), LIMITS)
    with pytest.raises(
        EditRefused, match=r"a 40.4 cm step at x 3.00 is taller .* \(40.0 cm\)"
    ) as e:
        editor.platform(3.0, 0.404, 1.0)
    assert e.value.span == pytest.approx((3.0, 3.01))
    assert e.value.points is not None  # the ground it would have made, to draw
    with pytest.raises(EditRefused, match=r"a 26° slope at x 2.00 to 4.00") as e:
        editor.ramp(2.0, 26.0, 2.0)
    assert e.value.span == pytest.approx((2.0, 4.0))
    kerb = TerrainEditor(
        Terrain(np.array([[0.0, 0.2], [5.0, 0.2], [5.01, 0.0], [9.0, 0.0]])), LIMITS
    )
    # the platform's side right by the kerb: no foot between them, one 45 cm step down
    with pytest.raises(EditRefused, match=r"a 45 cm step at x 4.99 to 5.01 \(two risers"):
        kerb.platform(4.0, 0.25, 1.0)


# -- the props and the cup -------------------------------------------------------------------
def test_ctrl_o_of_a_terrain_that_buries_a_prop_is_refused_with_the_reason(tmp_path: Path) -> None:
    folder = _course(tmp_path / "course")
    sim = _walk(folder)
    before = sim.terrain
    buried = [[-6.0, 0.0], [2.0, 0.0], [2.3, 0.3], [20.0, 0.3]]  # a slope under the table
    (folder / "terrain.json").write_text(json.dumps({"points": buried}))
    _edit(sim, op="reload")
    assert sim.terrain is before
    assert sim.editing.message.startswith("refused: terrain.json not loaded: the table stands")
    _edit(sim, op="bump", x=5.0, height=0.05, width=1.0)  # and edits elsewhere still work
    assert sim.terrain is not before
    from game.assets import AssetError

    with pytest.raises(AssetError, match="table"):  # F5 reads the props against it too
        sim.reload_assets()


def test_an_edit_under_a_standing_cup_moves_it_with_the_ground_or_is_refused(
    tmp_path: Path,
) -> None:
    sim = _walk(_course(tmp_path / "course"))
    assert sim.props is not None
    sim.prop("cup").bottom[:] = (-1.0, 0.0)  # set down on the floor
    before = sim.terrain
    _edit(sim, op="platform", x=-1.0, height=0.2, width=0.4)  # a riser under it
    assert sim.terrain is before
    assert sim.editing.message.startswith("refused: the cup stands at x -1.00")
    _edit(sim, op="bump", x=-2.0, height=0.08, width=2.0)  # smooth: it rides up with it
    assert sim.terrain is not before
    assert sim.prop("cup").bottom[1] == pytest.approx(0.08)
    sim.step(InputState(), DT, PhaseTimer())
    assert sim.prop("cup").bottom[1] == pytest.approx(0.08)  # still on top of it


# -- the smaller rules -------------------------------------------------------------------------
def test_a_loadable_file_with_vertices_under_a_centimetre_apart_is_editable_elsewhere(
    tmp_path: Path,
) -> None:
    close = [[0.0, 0.0], [3.0, 0.0], [3.005, 0.002], [10.0, 0.002]]
    (tmp_path / "t.json").write_text(json.dumps({"points": close}))
    editor = TerrainEditor(load_terrain(tmp_path / "t.json"), LIMITS)
    editor.bump(6.0, 0.1, 1.0)
    editor.insert_vertex(8.0)


def test_a_tiny_dip_by_an_old_wall_is_not_refused_for_the_wall() -> None:
    walled = Terrain(np.array([[-3.0, 1.1], [-2.98, 0.0], [5.0, 0.0]]))
    editor = TerrainEditor(walled, LIMITS)
    editor.bump(-2.9, -0.0009, 0.5)  # a wall before and after, 0.9 mm taller
    with pytest.raises(EditRefused, match="drops 50 cm within one step"):
        editor.stairs(1.0, -0.25, 0.3, 2)  # two 25 cm risers within one step's reach


def test_an_edit_while_climbing_says_why_it_is_not_made(tmp_path: Path) -> None:
    sim = _walk(_course(tmp_path / "course"))
    assert sim.ladder is not None
    before = sim.terrain
    sim.ladder.active = True
    _edit(sim, op="bump", x=5.0, height=0.05, width=1.0)
    assert sim.terrain is before and sim.editing.message == CLIMBING_REFUSAL
    _edit(sim, op="reload")
    assert sim.editing.message == CLIMBING_REFUSAL


def test_the_crowd_scene_is_rebuilt_on_the_ground_edited_since_it_was_built(
    tmp_path: Path,
) -> None:
    config = SceneConfig(assets_dir=_course(tmp_path / "course"), characters=3, extra={})
    crowd = CrowdSim(config)
    crowd.step(InputState(), DT, PhaseTimer())
    walk = WalkSim(config)
    _edit(walk, op="bump", x=5.0, height=0.1, width=1.0)
    crowd.step(InputState(), DT, PhaseTimer())  # opened again: on the edited ground
    assert crowd.terrain is walk.terrain
    assert crowd.terrain_update() is not None  # the trace gets it on that step
    crowd.step(InputState(), DT, PhaseTimer())
    assert crowd.terrain_update() is None


@pytest.mark.parametrize(
    ("number", "article"),
    [("8", "an"), ("18", "an"), ("11", "an"), ("80", "an"), ("83.5", "an"), ("800", "an")]
    + [("1", "a"), ("27", "a"), ("110", "a"), ("180", "a"), ("0.8", "a"), ("-8", "a")],
)
def test_a_message_reads_an_before_a_number_said_with_a_vowel(number: str, article: str) -> None:
    from game.wording import a_or_an

    assert a_or_an(number) == article


@pytest.mark.parametrize(
    ("op", "values"),
    [
        ("ramp", {"grade": 24.0, "length": 0.5}),
        ("ramp", {"grade": 10.0, "length": 1.0}),
        ("stairs", {"rise": 0.17, "tread": 0.3, "count": 2}),
        ("bump", {"height": 0.1, "width": 1.2}),
        ("platform", {"height": -0.3, "width": 1.0}),
    ],
)
def test_a_ghost_starts_and_ends_on_the_ground_it_leaves(op: str, values: dict[str, float]) -> None:
    # the ghost of a shape is drawn from the old ground, up (or down) the shape and back to
    # the old ground: its ends lie on the ground, never in the air part way up a slope
    old = Terrain(np.array(COURSE, dtype=float))
    editor = TerrainEditor(old, LIMITS)
    line = ground_edit_view.ghost_line(old, editor.preset(op, -2.0, *values.values()))
    assert line is not None
    for end in (line[0], line[-1]):
        assert end[1] == pytest.approx(float(old.height_at(end[0])), abs=1e-9)
    assert np.abs(line[:, 1] - old.height_at(line[:, 0])).max() > 0.01  # the shape itself


def test_a_drag_whose_first_move_is_refused_is_one_undo_step_of_its_own(tmp_path: Path) -> None:
    # the drag's first move breaks a rule (refused, the ground unchanged), the next ones
    # are taken (one in the middle refused too): one undo takes back the whole drag, and
    # only the drag, not the edit before it too
    points = [[-6.0, 0.0], [-4.0, 0.0], [0.0, 0.0], *COURSE[1:]]  # (no prop by x -2)
    sim = WalkSim(SceneConfig(assets_dir=_course(tmp_path / "assets", points)))
    _edit(sim, op="insert", x=-2.0)
    inserted = sim.terrain.points.copy()
    vertex = int(np.argmin(np.abs(inserted[:, 0] + 2.0)))
    _edit(sim, op="move", vertex=vertex, x=-2.0, y=5.0, drag=1)  # a 5 m cliff: refused
    assert np.array_equal(sim.terrain.points, inserted)
    for lift in (0.05, 5.0, 0.1):  # (refused in the middle: the drag goes on)
        _edit(sim, op="move", vertex=vertex, x=-2.0, y=lift, drag=1)
    assert sim.terrain.points[vertex, 1] == 0.1
    _edit(sim, op="undo")
    assert np.array_equal(sim.terrain.points, inserted)


def test_a_vertex_dragged_while_he_walks_stays_under_the_mouse(
    display: None, tmp_path: Path
) -> None:
    # the view holds still while a vertex is dragged (the mouse still, he walks on): the
    # vertex stays where it was grabbed; let go, the view eases back after him
    app = _app(_course(tmp_path / "course"))
    sim, view = app.scene.sim, app.scene.view
    _press(app, pygame.K_e)
    grabbed = _ground_px(app, 3.0)
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=grabbed, rel=(0, 0), buttons=()))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=grabbed, button=1))
    app.run_frame(DT)
    _key(pygame.K_d)  # he walks on while the mouse holds the vertex
    held = view.camera.center_w
    for frame in range(90):
        up = (grabbed[0], grabbed[1] - frame // 10)  # a pixel up every 10 frames
        pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=up, rel=(0, -1), buttons=(1,)))
        app.run_frame(DT)
        assert view.camera.center_w == held
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=up, button=1))
    app.run_frame(DT)
    _key(pygame.K_d, up=True)
    vertex = int(np.argmin(np.abs(sim.terrain.points[:, 0] - 3.0)))
    assert sim.terrain.points[vertex, 0] == pytest.approx(3.0, abs=0.01)
    assert float(sim.crowd.x[0]) > 0.5  # (he did walk on)
    for _ in range(30):
        app.run_frame(DT)
    assert view.camera.center_w != held
