"""The walk view's cached scenery: the props' sprites, the sky's tiles and the ground's
columns stay where the world has them through camera moves, window resizes, terrain edits and
F5 reloads, and tiles drawn side by side meet without a seam."""

from __future__ import annotations

import dataclasses
import functools
import json
import math
import shutil
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
import pygame
import pytest

from game.app import App, build_scene
from game.canvas import WorldPen
from game.input_state import InputState, RawInput
from game.options import RunOptions
from game.palette import PALETTE, mix
from game.profiler_panel import profiler_rect
from game.profiling import PhaseTimer
from game.pygame_canvas import PygameCanvas
from game.scene import SceneConfig
from game.scenes import walk_view
from game.scenes.prop_painters import paint_props
from game.scenes.walk import WalkSim
from game.scenes.walk_view import VIEW_HEIGHT_M, WalkView
from game.view.hero_painter import ARM_WIDTHS_M, HAND_RADIUS_M, HEAD_TOP, _hero_tones
from game.view.prop_painter import DOORWAY
from game.view.scenery import (
    GROUND_DEEP,
    SCENERY_TILE_PX,
    TILE_KEY,
    GroundBand,
    _ridge_rows,
    ground_band,
    paint_ground_band,
    paint_ridge_tile,
)
from game.view.walk_hud import ladder_hint
from game.world.character import ARMS, PoseInputs
from game.world.props.cup_prop import TABLE_OUT_OF_REACH
from game.world.terrain import load_terrain

ASSETS = Path(__file__).resolve().parents[2] / "assets"


def _draw_props(view: WalkView, canvas: PygameCanvas) -> None:
    """The door, the table and the ladder as the walk view draws them."""
    assert view.sim.props is not None
    paint_props(WorldPen(canvas, view.camera), view.sim, 1.0)


def _knob_pixel(view: WalkView, canvas: PygameCanvas) -> tuple[int, int]:
    """Draw the props on a cleared canvas; where the camera puts the door's knob."""
    canvas.surface.fill((0, 0, 0))
    _draw_props(view, canvas)
    assert view.sim.props is not None
    x, y = view.camera.point_to_screen(*(float(v) for v in view.sim.props.props.door.knob))
    return round(x), round(y)


def _is_knob(canvas: PygameCanvas, at: tuple[int, int]) -> bool:
    return tuple(canvas.surface.get_at(at))[:3] == PALETTE["accent"]


@pytest.fixture
def view() -> WalkView:
    return WalkView(WalkSim(SceneConfig()))


@pytest.mark.parametrize("size", [(1280, 720), (960, 540), (1920, 1080)])
def test_the_door_sprite_follows_the_camera_at_every_window_size(
    view: WalkView, size: tuple[int, int]
) -> None:
    pygame.font.init()
    canvas = PygameCanvas(pygame.Surface(size))
    view.layout(size)
    for center in [(-1.0, 1.2), (-0.63, 1.37), (0.4, 0.9), (-2.2, 2.05)]:
        view.camera.center_w = center
        knob = _knob_pixel(view, canvas)
        assert _is_knob(canvas, knob), (size, center)


def test_an_f5_reload_draws_the_door_where_the_new_props_file_puts_it(
    view: WalkView, tmp_path: Path
) -> None:
    canvas = PygameCanvas(pygame.Surface((1280, 720)))
    view.camera.center_w = (-1.0, 1.2)
    before = _knob_pixel(view, canvas)
    assets = tmp_path / "assets"
    shutil.copytree(ASSETS, assets)
    props = json.loads((assets / "props.json").read_text())
    props["door"]["x"] += 0.5
    props["door"]["knob"][1] += 0.3  # the sprite's content changes, not only its place
    (assets / "props.json").write_text(json.dumps(props))
    view.sim.assets_dir = assets
    view.sim.reload_assets()
    after = _knob_pixel(view, canvas)
    assert after[0] - before[0] == pytest.approx(0.5 * view.camera.scale, abs=1)
    assert before[1] - after[1] == pytest.approx(0.3 * view.camera.scale, abs=1)
    assert _is_knob(canvas, after) and not _is_knob(canvas, before)


# -- the cached sky and ground -------------------------------------------------------------


def _draw_scenery(view: WalkView, canvas: PygameCanvas) -> None:
    pygame.font.init()  # the landmarks' names
    terrain = view.sim.terrain
    view.scenery.draw_sky(canvas, view.camera, terrain)
    view.scenery.draw_grid(canvas, view.camera, terrain)
    view.scenery.draw_ground(canvas, view.camera, terrain)
    view.labels.draw(WorldPen(canvas, view.camera), terrain, [])


def _color_at(view: WalkView, canvas: PygameCanvas, x_w: float, y_w: float) -> tuple[int, ...]:
    x, y = view.camera.point_to_screen(x_w, y_w)
    return tuple(canvas.surface.get_at((round(x), round(y))))[:3]


def _ground_at(view: WalkView, x_w: float) -> float:
    return float(view.sim.terrain.height_at(x_w))


@pytest.mark.parametrize("size", [(1280, 720), (960, 540), (1920, 1080)])
def test_the_ground_is_drawn_where_the_terrain_is_through_camera_moves_and_resizes(
    view: WalkView, size: tuple[int, int]
) -> None:
    canvas = PygameCanvas(pygame.Surface(size))
    view.layout((1280, 720))
    view.camera.center_w = (3.0, 1.2)
    _draw_scenery(view, canvas)  # tiles at another scale are cached: they must not be used
    view.layout(size)
    # fractional centres, on the stairs, past the terrain's either end
    for x_center in (3.0, 3.37, 13.21, 41.6, -5.3):
        view.camera.center_w = (x_center, _ground_at(view, x_center) + 0.53)
        center = view.camera.center_w
        _draw_scenery(view, canvas)
        for dx in (-1.5, -0.4, 0.0, 1.1):
            x = center[0] + dx
            ground = _ground_at(view, x)
            assert _color_at(view, canvas, x, ground - 0.15) == PALETTE["ground"], (center, x)
            assert _color_at(view, canvas, x, ground - 0.5) == GROUND_DEEP, (center, x)
            above = _color_at(view, canvas, x, ground + 0.15)
            assert above not in (PALETTE["ground"], GROUND_DEEP), (center, x)


def test_an_edited_ground_is_drawn_at_once(view: WalkView) -> None:
    canvas = PygameCanvas(pygame.Surface((1280, 720)))
    x = 0.4
    view.camera.center_w = (x, 1.2)
    _draw_scenery(view, canvas)
    assert _color_at(view, canvas, x, 0.15) != PALETTE["ground"]
    for at in (x - 0.6, x + 0.6, x):  # a local hill 0.25 m high
        _edit(view.sim, op="insert", x=at)
    vertex = int(np.argmin(np.abs(view.sim.terrain.xs - x)))
    _edit(view.sim, op="move", vertex=vertex, x=x, y=0.25, drag=1)
    assert _ground_at(view, x) == pytest.approx(0.25)
    _draw_scenery(view, canvas)
    assert _color_at(view, canvas, x, 0.15) == PALETTE["ground"]


def test_an_f5_reload_draws_the_ground_of_the_new_terrain_file(
    view: WalkView, tmp_path: Path
) -> None:
    canvas = PygameCanvas(pygame.Surface((1280, 720)))
    x = 6.0
    view.camera.center_w = (x, 1.2)
    _draw_scenery(view, canvas)
    before = _ground_at(view, x)
    assert _color_at(view, canvas, x, before + 0.2) != PALETTE["ground"]
    assets = tmp_path / "assets"
    shutil.copytree(ASSETS, assets)
    terrain = json.loads((assets / "terrain.json").read_text())
    terrain["points"] = [[px, py + 0.3] for px, py in terrain["points"]]
    (assets / "terrain.json").write_text(json.dumps(terrain))
    view.sim.assets_dir = assets
    view.sim.reload_assets()
    assert _ground_at(view, x) == pytest.approx(before + 0.3)
    _draw_scenery(view, canvas)
    assert _color_at(view, canvas, x, before + 0.2) == PALETTE["ground"]


def _edit(sim: WalkSim, **values: object) -> None:
    sim.step(InputState(actions=("terrain_edit",), values=values), 1.0 / 60.0, PhaseTimer())


def _put_down(bands: list[GroundBand], top: int, size: tuple[int, int]) -> np.ndarray:
    """The ground's columns put down as the view puts them (a tile, deep colour below)."""
    canvas = PygameCanvas(pygame.Surface(size))
    canvas.surface.fill(TILE_KEY)
    left = bands[0].left
    for band in bands:
        rect = (band.left - left, band.top - top, band.width, band.bottom - band.top)
        canvas.layer(band.left, TILE_KEY, functools.partial(paint_ground_band, band=band), rect)
        canvas.rect((rect[0], rect[1] + rect[3], band.width, size[1]), GROUND_DEEP)
    return pygame.surfarray.array3d(canvas.surface)


@pytest.mark.parametrize("height", [540, 720, 1080])
def test_ground_columns_side_by_side_draw_what_one_wide_column_draws(height: int) -> None:
    terrain = load_terrain(ASSETS / "terrain.json")
    scale, side = height / VIEW_HEIGHT_M, SCENERY_TILE_PX
    count = math.ceil((terrain.xs[-1] - terrain.xs[0] + 4.0) * scale / side)  # all of it
    left = math.floor((terrain.xs[0] - 2.0) * scale / side) * side
    wide = ground_band(terrain, scale, left, count * side)
    size = (count * side, wide.bottom - wide.top + 20)
    columns = [ground_band(terrain, scale, left + i * side, side) for i in range(count)]
    assert min(band.top for band in columns) >= wide.top
    np.testing.assert_array_equal(
        _put_down(columns, wide.top, size), _put_down([wide], wide.top, size)
    )


@pytest.mark.parametrize("size", [(960, 540), (1280, 720), (1920, 1080)])
def test_ridge_tiles_side_by_side_draw_what_one_wide_tile_draws(size: tuple[int, int]) -> None:
    width, height = size
    row0, rows = _ridge_rows(height)
    side, count = SCENERY_TILE_PX, 5
    tiles = PygameCanvas(pygame.Surface((count * side, rows - row0)))
    for k in range(count):
        paint = functools.partial(paint_ridge_tile, u0=(k - 2) * side, width=width, height=height)
        tiles.layer(k, TILE_KEY, paint, ((k * side), 0, side, rows - row0))
    wide = PygameCanvas(pygame.Surface((count * side, rows - row0)))
    wide.surface.fill(TILE_KEY)
    paint_ridge_tile(wide, -2 * side, width, height)
    np.testing.assert_array_equal(
        pygame.surfarray.array3d(tiles.surface), pygame.surfarray.array3d(wide.surface)
    )


@pytest.mark.parametrize("scale", [60.0, 120.0, 194.6, 400.0])
def test_the_hand_disc_covers_the_wrist_cap_it_replaces(scale: float) -> None:
    """The forearm is drawn without its end cap because the hand's disc, drawn next on the
    same centre, covers every pixel the cap would have set."""
    canvas = PygameCanvas(pygame.Surface((64, 64)))
    for cx, cy in [(32.0, 32.0), (31.5, 32.25), (32.7, 31.3), (31.99, 32.51)]:
        canvas.surface.fill((0, 0, 0))
        canvas.circle((cx, cy), ARM_WIDTHS_M[2] / 2 * scale, (255, 0, 0))
        canvas.circle((cx, cy), HAND_RADIUS_M * scale, (0, 255, 0))
        assert not (pygame.surfarray.array3d(canvas.surface)[..., 0] > 0).any()


def test_at_the_ladder_holding_the_cup_the_hint_says_to_put_it_down(view: WalkView) -> None:
    # W does not climb while the cup is held (the ladder takes both hands), so the hint
    # says to put the cup down rather than "W climbs on", which would promise a key that
    # does nothing
    sim = view.sim
    assert sim.ladder is not None and sim.props is not None
    sim.crowd.x[0] = sim.ladder.spot_x
    assert ladder_hint(view.sim) == ["at the ladder: W climbs on"]
    sim.props.holding, sim.props.carried = 1, sim.prop("cup")
    assert "put it down" in ladder_hint(view.sim)[0]


# -- the hero as drawn ----------------------------------------------------------------------


def _draw_hero(view: WalkView, canvas: PygameCanvas, pose: PoseInputs | None = None) -> None:
    """The hero alone, standing as the sim has him (or in ``pose``), on a black canvas."""
    canvas.surface.fill((0, 0, 0))
    drawn, sol = view._interpolated(0.0)
    pen = WorldPen(canvas, view.camera)
    view.painter.draw(pen, drawn if pose is None else pose, sol, view.sim.rig, view.held(pen, sol))


@pytest.mark.parametrize("facing", [1.0, -1.0])
def test_the_standing_heros_hair_sits_on_top_of_his_head_so_he_looks_ahead(
    view: WalkView, facing: float
) -> None:
    # the hair cap sits on top of the head (its pixels' centre less than 32 degrees back of
    # straight up from the head's centre): over the back of the head, with the eye under
    # its front edge, it reads as a head tilted back, looking at the sky
    canvas = PygameCanvas(pygame.Surface((1280, 720)))
    pose = view._interpolated(0.0)[0]
    pose = dataclasses.replace(pose, facing=np.full_like(pose.facing, facing))
    view.camera.center_w = (float(pose.head[0, 0]), float(pose.head[0, 1]))
    _draw_hero(view, canvas, pose)
    pixels = pygame.surfarray.array3d(canvas.surface)  # (x, y, rgb)
    hair = np.argwhere((pixels == view.sim.rig.colors.hair).all(axis=-1))
    assert len(hair) > 100
    cx, cy = view.camera.point_to_screen(*pose.head[0].tolist())
    back, up = (cx - hair[:, 0].mean()) * facing, cy - hair[:, 1].mean()
    assert up > 0
    assert math.degrees(math.atan2(back, up)) < 32.0  # the hair sits on top (17-23° measured)


def _walk_app(size: tuple[int, int]) -> App:
    pygame.display.init()
    pygame.font.init()
    options = RunOptions(scene="walk", headless=True, size=size, frames=10_000)
    config = SceneConfig()
    return App(options, build_scene("walk", config, size), config)


@pytest.mark.parametrize("size", [(960, 540), (1280, 720), (1920, 1080)])
def test_the_f3_panel_leaves_the_heros_head_in_view(size: tuple[int, int]) -> None:
    # the F3 panel leaves the head in view, also of a hero who has walked left at 960x540
    # (the camera leads him, so he stands right of the middle, under the panel's columns)
    app = _walk_app(size)
    sim, view = app.scene.sim, app.scene.view
    assert isinstance(view, WalkView)
    timer = PhaseTimer()
    for _ in range(90):
        sim.step(InputState(move=-1.0), app.config.dt, timer)
    app.run_frame(app.config.dt)
    assert view.hud_cover is None  # F3 off: the camera frames him as it always has
    app.show_profiler = True
    radius = sim.rig.body.head_radius
    for _ in range(60):  # he stops, facing left
        app.run_frame(app.config.dt)
        assert view._frame is not None
        head = view._frame[1].head[0]
        x, top = view.camera.point_to_screen(float(head[0]), float(head[1]) + HEAD_TOP * radius)
        left, panel_top, width, height = profiler_rect(app.canvas.size, app.view_area())
        assert left < x < left + width  # the head is in the panel's columns
        assert top >= panel_top + height  # and under the panel, not behind it
    assert float(sim.crowd.facing[0]) < 0 and abs(float(sim.crowd.vx[0])) < 0.05
    app.close()


@pytest.mark.parametrize("prop", ["door", "table", "ladder"])
def test_the_hero_is_drawn_in_front_of_the_door_the_table_and_the_ladder(
    view: WalkView, prop: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the table must not be drawn over the hero standing at it: the props are
    # cached sprites put down before the hero, so every one of them is behind him (a
    # climber is on the near side of the ladder, his hands over its rungs)
    sim = view.sim
    assert sim.props is not None
    props = sim.props.props
    door, table, ladder = props.door, props.table, props.ladder
    x = {
        "door": door.x0 + door.width / 2,
        "table": table.x0 + table.width / 2,
        "ladder": ladder.x,
    }[prop]
    sim.crowd.x[0] = x
    timer = PhaseTimer()
    for _ in range(120):  # he steps under himself and stands
        sim.step(InputState(), sim.dt, timer)
    pygame.font.init()
    canvas = PygameCanvas(pygame.Surface((1280, 720)))

    def frame() -> np.ndarray:
        view.follow.time = None  # the camera on its goal: the same view each time
        view.draw(canvas, 0.0, timer)
        return pygame.surfarray.array3d(canvas.surface).copy()

    full = frame()
    monkeypatch.setattr(view.painter, "draw", lambda *args: None)
    bare = frame()
    monkeypatch.setattr(walk_view, "paint_props", lambda *args: None)
    empty = frame()
    on_prop = (bare != empty).any(axis=-1)  # where the prop is drawn
    hero_over_prop = on_prop & (full != bare).any(axis=-1)
    assert on_prop.sum() > 1000
    # 766 (the table's thin top) to 17,000 (the door) pixels; 0 were the props drawn last
    assert hero_over_prop.sum() > 300


def _carrying(view: WalkView, hand: int, move: float) -> None:
    """The hero by the table holding the cup in ``hand``, having walked a little with
    ``move`` and stood: the carry pose, facing that way."""
    sim = view.sim
    assert sim.props is not None
    sim.crowd.x[0] = 1.3
    sim.props.holding, sim.props.carried = hand, sim.prop("cup")
    timer = PhaseTimer()
    for inp in [InputState(move=move)] * 60 + [InputState()] * 120:
        sim.step(inp, sim.dt, timer)


def test_a_cup_in_the_far_hand_is_held_by_that_hand_behind_the_torso(view: WalkView) -> None:
    # facing left with the cup in the far (right) hand, the cup is drawn at its hand's depth
    # (behind the torso and the near limbs) and the hand's fingers show across it: it
    # neither hides the hand that holds it nor floats beside the near forearm
    _carrying(view, hand=1, move=-1.0)
    sim = view.sim
    assert sim.props is not None and float(sim.crowd.facing[0]) < 0
    pygame.font.init()
    canvas = PygameCanvas(pygame.Surface((1280, 720)))
    view.camera.center_w = tuple(float(v) for v in sim.crowd.x[:1]) + (1.2,)
    _draw_hero(view, canvas)
    held = pygame.surfarray.array3d(canvas.surface).copy()
    sim.props.holding = -1  # the same pose without the cup
    _draw_hero(view, canvas)
    bare = pygame.surfarray.array3d(canvas.surface).copy()
    cup = (held != bare).any(axis=-1)
    assert cup.sum() > 100
    # nothing of the cup over the torso or the near limbs
    tones = _hero_tones(sim.rig.colors)
    near_or_torso = np.zeros(cup.shape, dtype=bool)
    for color in (sim.rig.colors.shirt, tones["trousers", True][0], tones["shirt", True][0]):
        near_or_torso |= (bare == color).all(axis=-1)
    assert near_or_torso.sum() > 1000
    assert not (cup & near_or_torso).any()
    # the far hand's skin shows on the cup: its fingers round it (76 pixels measured)
    (x0, y0), (x1, y1) = np.argwhere(cup).min(axis=0), np.argwhere(cup).max(axis=0)
    on_cup = held[x0 : x1 + 1, y0 : y1 + 1]
    fingers = (on_cup == tones["skin", False][0]).all(axis=-1)
    assert fingers.sum() > 40


@pytest.mark.parametrize(("hand", "move"), [(1, 1.0), (0, 1.0), (0, -1.0), (1, -1.0)])
def test_the_hand_holding_the_cup_grips_its_middle_and_nothing_of_it_shows_over_the_rim(
    view: WalkView, hand: int, move: float
) -> None:
    # the fingers wrap the cup's middle and the hand's disc, drawn behind the cup, does not
    # poke out over its rim (a hand showing over the rim looks inside the cup)
    _carrying(view, hand, move)
    sim = view.sim
    assert sim.props is not None
    pygame.font.init()
    canvas = PygameCanvas(pygame.Surface((1280, 720)))
    view.camera.center_w = tuple(float(v) for v in sim.crowd.x[:1]) + (1.2,)
    _draw_hero(view, canvas)
    pixels = pygame.surfarray.array3d(canvas.surface)  # (x, y, rgb)
    near = float(sim.crowd.facing[0]) > 0
    skin = _hero_tones(sim.rig.colors)["skin", hand == near][0]
    is_skin = (pixels == skin).all(axis=-1)
    cup = sim.props.props.cup
    hx, hy = view._interpolated(0.0)[1].hand[0, ARMS.start + hand].tolist()
    left, rim = view.camera.point_to_screen(hx - cup.radius * 1.15, hy - cup.grip + cup.height)
    right, base = view.camera.point_to_screen(hx + cup.radius * 1.15, hy - cup.grip)
    columns = slice(round(left), round(right) + 1)
    assert not is_skin[columns, round(rim) - 6 : round(rim)].any()  # 4 pixels before
    assert is_skin[columns, round(rim) : round(base)].sum() > 30  # the fingers round it


def test_the_knobs_hover_ring_and_words_go_once_he_goes_for_it(view: WalkView) -> None:
    # "click: reach for the knob" and its ring go once he goes for the knob, so they never
    # lie on his hand and face as he reaches; the pointer here stays on the knob as the
    # door opens
    sim, timer = view.sim, PhaseTimer()
    props, door = sim.props, sim.prop("door")
    assert props is not None
    pygame.font.init()
    canvas = PygameCanvas(pygame.Surface((1280, 720)))
    texts: list[str] = []
    rings: list[Any] = []
    drawn_text, drawn_circle = canvas.text, canvas.circle

    boxes: dict[str, pygame.Rect] = {}

    def text(pos: Any, words: str, color: Any, size: int = 16, anchor: str = "topleft") -> Any:
        texts.append(words)
        boxes[words] = pygame.Rect((0, 0), canvas.text_size(words, size))
        setattr(boxes[words], anchor, (round(pos[0]), round(pos[1])))
        return drawn_text(pos, words, color, size, anchor)

    def circle(at: Any, radius: float, color: Any, *args: Any, **kwargs: Any) -> Any:
        rings.append((at, radius, color))
        return drawn_circle(at, radius, color, *args, **kwargs)

    canvas.text, canvas.circle = text, circle  # type: ignore[method-assign]

    def hover() -> tuple[list[str], int]:
        texts.clear()
        rings.clear()
        view._pointer_w = door.knob.copy()
        view.draw(canvas, 0.0, timer)
        knob = view.camera.point_to_screen(*door.knob.tolist())
        ring = 0.09 * view.camera.scale  # the hover's white ring round the knob
        ringed = [
            at
            for at, radius, color in rings
            if color == PALETTE["white"] and radius == ring and math.dist(at, knob) < 1.0
        ]
        return [t for t in texts if t.startswith("click")], len(ringed)

    pointer = tuple(door.knob.tolist())
    for _ in range(60):  # the hands reach for the pointer, on the knob
        sim.step(InputState(pointer, actions=("pointer_moved",)), sim.dt, timer)
    assert hover() == (["click: reach for the knob"], 1)  # before the click ...
    words = boxes["click: reach for the knob"]
    _draw_hero(view, canvas)
    hero = pygame.surfarray.array3d(canvas.surface).any(axis=-1)
    assert hero.sum() > 1000
    assert not hero[words.left : words.right, words.top : words.bottom].any()  # ... off him
    sim.step(InputState(pointer, actions=("reach_prop",), values={"prop": "door"}), sim.dt, timer)
    phases = []
    for step in range(int(3.0 / sim.dt)):
        sim.step(InputState(tuple(door.knob.tolist())), sim.dt, timer)
        if step % 10 == 0:
            phases.append(props.phase)
            assert hover() == ([], 0), props.phase
    assert {"walk", "reach", "hold"} <= set(phases)


def test_mid_turn_the_feet_show_their_width_and_the_two_legs_stay_apart(view: WalkView) -> None:
    # turning round, the shoes never shrink to a point nor the legs merge into one (like
    # standing on a needle). The simulation foreshortens a foot by the turn's cosine;
    # end-on, a shoe seen from the front still shows its width
    sim = view.sim
    timer = PhaseTimer()
    for _ in range(90):  # he turns round from standing, facing right
        sim.step(InputState(move=-1.0), sim.dt, timer)
        pose, sol = view._interpolated(0.0)
        if abs(float(pose.spin[0])) < 0.3:
            break
    assert abs(float(pose.spin[0])) < 0.3
    end_on = dataclasses.replace(pose, spin=np.zeros(1))  # the middle of the turn
    soles_w = end_on.soles(sol.hand[:, 2:], sim.rig)
    assert np.ptp(soles_w[0, :, :, 0], axis=-1).max() < 1e-9  # the simulation's: a point
    pygame.font.init()
    canvas = PygameCanvas(pygame.Surface((1280, 720)))
    view.camera.center_w = (float(pose.pelvis[0, 0]), float(pose.pelvis[0, 1]))
    view.painter.draw(WorldPen(canvas, view.camera), end_on, sol, sim.rig)
    pixels = pygame.surfarray.array3d(canvas.surface)  # (x, y, rgb)
    tones = _hero_tones(sim.rig.colors)
    scale = view.camera.scale
    for near in (True, False):
        shoe = np.argwhere((pixels == tones["shoes", near][0]).all(axis=-1))
        assert len(shoe) > 0
        # 0.09-0.1 m across (a few pixels would read as a needle)
        assert np.ptp(shoe[:, 0]) >= 0.085 * scale, near
    # both legs show: the far one's trousers beside the near one's, not all behind it
    near_leg = (pixels == tones["trousers", True][0]).all(axis=-1).sum()
    far_leg = (pixels == tones["trousers", False][0]).all(axis=-1).sum()
    assert far_leg > 0.5 * near_leg


def test_the_table_behind_the_hero_is_drawn_in_his_far_tone(view: WalkView) -> None:
    # picking the cup up or setting it down, the table top must not seem to cut through
    # his hips, nor a table leg show between his legs. The table stands behind him (it is
    # drawn before him: see the test above), and he cannot stand clear of it: the cup,
    # 0.2 m in from the table's edge, is 0.23 m from the shoulder at most (90 % of arm
    # reach at its height), the body's front 0.12 m ahead of the shoulder. So the table is
    # shaded toward the background as his far limbs are, which reads as behind
    sim = view.sim
    assert sim.props is not None
    table = sim.props.props.table
    pygame.font.init()
    canvas = PygameCanvas(pygame.Surface((1280, 720)))
    view.camera.center_w = (table.x0 + table.width / 2, table.top)
    canvas.surface.fill((0, 0, 0))
    _draw_props(view, canvas)
    x, y = view.camera.point_to_screen(table.x0 + table.width / 2, table.top - 0.025)
    far_wood = mix(PALETTE["wood"], PALETTE["background"], sim.rig.colors.far_shade)
    assert tuple(canvas.surface.get_at((round(x), round(y))))[:3] == far_wood


def test_an_open_door_is_drawn_narrowed_to_its_hinge_with_the_knob_on_it(
    view: WalkView,
) -> None:
    # the door is drawn as the simulation has it: open, narrowed to its hinge, the doorway
    # showing where it stood and the knob where the simulation has it
    props = view.sim.props
    assert props is not None
    door = props.props.door
    pygame.font.init()
    canvas = PygameCanvas(pygame.Surface((1280, 720)))
    view.camera.center_w = (door.x0 + door.width / 2, door.base + door.height / 2)
    shut_knob = _knob_pixel(view, canvas)
    assert _is_knob(canvas, shut_knob)
    sim_door = view.sim.prop("door")
    sim_door.swing = 1.0  # wide open
    knob = view.camera.point_to_screen(*(float(v) for v in sim_door.knob))
    assert knob[0] < shut_knob[0] - 0.5 * door.width * view.camera.scale  # toward the hinge
    canvas.surface.fill((0, 0, 0))
    _draw_props(view, canvas)
    assert _is_knob(canvas, (round(knob[0]), round(knob[1])))
    assert tuple(canvas.surface.get_at(shut_knob))[:3] == DOORWAY
    sim_door.swing = 0.0  # shut again: the cached sprite, knob where it was
    assert _is_knob(canvas, _knob_pixel(view, canvas))


def _played_walk(inputs: Callable[[int], InputState]) -> tuple[App, WalkView]:
    """The walk app at 1280x720, headless, each step's input ``inputs(step)`` (from 0)."""
    pygame.display.init()
    pygame.font.init()
    options = RunOptions(scene="walk", headless=True, autopilot=True, size=(1280, 720))
    config = SceneConfig()
    app = App(options, build_scene("walk", config, options.size), config)
    steps = iter(range(10_000))
    app.scene.autopilot = SimpleNamespace(next_input=lambda _sim: inputs(next(steps)))
    view = app.scene.view
    assert isinstance(view, WalkView)
    return app, view


def test_turning_on_the_spot_to_face_the_pointer_does_not_pan_the_view() -> None:
    # with the pointer held behind him he turns to face it; the camera's lead does not
    # flip with his facing while his hands reach for it, so the view stays put (within
    # 5 cm) and nothing slides away from a cursor about to click it
    behind = (-0.8, 1.35)  # 0.8 m behind him (he starts at x 0 facing +x), chest high
    held = InputState(pointer=behind, pointer_down=True)
    app, view = _played_walk(lambda step: InputState() if step < 30 else held)
    for _ in range(30):
        app.run_frame(app.config.dt)
    before = view.camera.center_w[0]
    for _ in range(90):  # held behind him: he turns round to face it
        app.run_frame(app.config.dt)
    sim = app.scene.sim
    assert float(sim.crowd.facing[0]) < 0
    assert abs(view.camera.center_w[0] - before) < 0.05
    app.close()


def test_turned_round_by_a_tap_the_view_leads_the_way_he_faces() -> None:
    # a tap of the other key turns him round; standing so (his hands reaching for no
    # pointer) the camera leads the way he now faces: the status box goes behind him
    app, view = _played_walk(lambda step: InputState(move=-1.0 if 30 <= step < 36 else 0.0))
    for _ in range(30):
        app.run_frame(app.config.dt)
    assert not view.follow.leading_left
    for _ in range(150):
        app.run_frame(app.config.dt)
    sim = app.scene.sim
    assert float(sim.crowd.facing[0]) < 0 and abs(float(sim.crowd.vx[0])) < 0.05
    assert view.follow.leading_left
    assert view.camera.center_w[0] < float(sim.crowd.x[0])  # the view leads him left
    app.close()


def test_the_view_settles_within_half_a_second_of_a_run_stopping() -> None:
    # after a run stops the view settles within half a second (under 15 px of drift after
    # that at 1280x720), so a click aimed at the knob a second later lands on it
    running = 132  # 2.2 s, left, running
    app, view = _played_walk(
        lambda step: InputState(move=-1.0, run=True) if step < running else InputState()
    )
    xs = []
    for _ in range(running + 180):
        app.run_frame(app.config.dt)
        xs.append(view.camera.center_w[0])
    drift_px = abs(xs[running + 30] - xs[-1]) * view.camera.scale
    assert drift_px < 15.0
    app.close()


def test_held_against_the_end_wall_he_says_why_the_walk_key_does_nothing(
    view: WalkView, record_texts: Callable[[Any], list[str]]
) -> None:
    # holding A at the loft's edge (or against a wall) the player gets a cue for a walk
    # key that does nothing: once the walk has been stopped 0.4 s, the reason shows over
    # his head, and goes once the key is let go
    sim, timer = view.sim, PhaseTimer()
    sim.crowd.stand_anew([-2.2], [-1.0])  # left of the door (shut, a wall of its own)
    for _ in range(int(4.0 / sim.dt)):  # left: the wall at x -2.99
        sim.step(InputState(move=-1.0), sim.dt, timer)
    hint = sim.blocked_hint()
    assert hint is not None and "no way on" in hint
    pygame.font.init()
    canvas = PygameCanvas(pygame.Surface((1280, 720)))
    texts = record_texts(canvas)
    view.layout((1280, 720))
    view.draw(canvas, 0.0, timer)
    assert hint in texts
    for _ in range(5):
        sim.step(InputState(), sim.dt, timer)
    assert sim.blocked_hint() is None


def test_the_foots_hover_words_lie_under_it_not_over_his_shins(view: WalkView) -> None:
    # "drag: move the foot" lies under the foot, off both lower legs (every place round
    # the pointer touches his box at a foot, so the first place, over it, must not win)
    sim, timer = view.sim, PhaseTimer()
    for _ in range(30):
        sim.step(InputState(), sim.dt, timer)
    pygame.font.init()
    canvas = PygameCanvas(pygame.Surface((1280, 720)))
    boxes: dict[str, pygame.Rect] = {}
    drawn_text = canvas.text

    def text(pos: Any, words: str, color: Any, size: int = 16, anchor: str = "topleft") -> Any:
        boxes[words] = pygame.Rect((0, 0), canvas.text_size(words, size))
        setattr(boxes[words], anchor, (round(pos[0]), round(pos[1])))
        return drawn_text(pos, words, color, size, anchor)

    canvas.text = text  # type: ignore[method-assign]
    view.layout((1280, 720))
    ankle = sim.crowd.solution.hand[0, 3]
    view._pointer_w = ankle.copy()
    view.draw(canvas, 0.0, timer)
    words = boxes["drag: move the foot"]
    ankle_px = view.camera.point_to_screen(*ankle.tolist())
    assert words.top > ankle_px[1]  # under the ankle: on the ground, not across the shins


def test_holding_the_cup_the_pointer_says_whether_a_click_sets_it_down_there(
    cup_lifted: Any, record_texts: Callable[[Any], list[str]]
) -> None:
    # pointing at the table or the floor with the cup in hand, the hover says what a click
    # does, as the knob and the cup do, not only a small cross; where the cup would be
    # refused it says why, as the click would
    sim, timer = cup_lifted
    view = WalkView(sim)
    pygame.font.init()
    canvas = PygameCanvas(pygame.Surface((1280, 720)))
    texts = record_texts(canvas)
    view.layout((1280, 720))
    assert sim.props is not None and sim.props.holding >= 0
    table = sim.props.props.table
    view._pointer_w = np.array([table.x0 + table.width - 0.1, table.top + 0.05])  # far end
    view.draw(canvas, 0.0, timer)
    assert "click: set the cup down there" in texts
    texts.clear()
    view._pointer_w = np.array([table.x0 + table.width / 2, table.top + 0.05])
    view.draw(canvas, 0.0, timer)
    assert TABLE_OUT_OF_REACH in texts and "click: set the cup down there" not in texts


def test_a_click_on_the_shut_door_off_its_knob_opens_it_and_keeps_the_cup(
    view: WalkView,
) -> None:
    # holding the cup, a click on the shut door's panel off its knob (70 px left of it: the
    # knob moves as the camera follows him) goes for the knob, and the hover says so; it is
    # not read as "set the cup down there" on the floor at the door
    sim = view.sim
    assert sim.props is not None
    sim.crowd.x[0] = 0.4
    sim.props.holding, sim.props.carried = 1, sim.prop("cup")
    view.layout((1280, 720))
    view.camera.center_w = (-0.4, 1.2)
    door = sim.props.props.door
    panel = view.camera.point_to_screen(door.x0 + 0.2, door.base + 1.0)  # off the knob
    raw = RawInput(pointer_px=panel, pointer_inside=True, clicks=[(1, panel)])
    inp = view.map_input(raw)
    assert "put_down" not in inp.actions
    assert "reach_prop" in inp.actions and inp.values["prop"] == "door"
    timer = PhaseTimer()
    for _ in range(int(6.0 / sim.dt)):
        sim.step(inp, sim.dt, timer)
        inp = InputState()
        if sim.prop("door").swing >= 1.0:
            break
    assert sim.prop("door").swing >= 1.0  # opened
    assert sim.props.holding == 1  # the cup still in his hand


def test_hover_words_stay_inside_the_window_and_go_with_the_pointer(view: WalkView) -> None:
    # holding the cup, the words at the window's right edge stay whole inside the window
    # (not cut to "click: set the cu"), and with the pointer outside the window no label
    # stays behind in the corner
    sim, timer = view.sim, PhaseTimer()
    assert sim.props is not None
    sim.props.holding, sim.props.carried = 1, sim.prop("cup")
    pygame.font.init()
    canvas = PygameCanvas(pygame.Surface((1280, 720)))
    boxes: dict[str, pygame.Rect] = {}
    drawn_text = canvas.text

    def text(
        pos: Any, words: str, color: Any, size: int = 16, anchor: str = "topleft", **kw: Any
    ) -> Any:
        boxes[words] = pygame.Rect((0, 0), canvas.text_size(words, size))
        setattr(boxes[words], anchor, (round(pos[0]), round(pos[1])))
        return drawn_text(pos, words, color, size, anchor, **kw)

    canvas.text = text  # type: ignore[method-assign]
    view.layout((1280, 720))
    view.camera.center_w = (float(sim.crowd.x[0]), 1.2)
    tip = "click: set the cup down there"
    for corner in [(1276.0, 360.0), (4.0, 360.0), (640.0, 3.0), (1276.0, 716.0)]:
        boxes.clear()
        view.map_input(RawInput(pointer_px=corner, pointer_inside=True, pointer_moved=True))
        view.draw(canvas, 0.0, timer)
        assert tip in boxes, corner
        assert pygame.Rect(0, 0, 1280, 720).contains(boxes[tip]), (corner, boxes[tip])
    boxes.clear()
    view.map_input(RawInput(pointer_px=(1300.0, 740.0), pointer_inside=False))
    view.draw(canvas, 0.0, timer)
    assert tip not in boxes  # no hover for a pointer outside the window
    editing = view.sim.editing  # ... nor while E edits the ground (it would lie under the palette)
    assert editing is not None
    editing.active = True
    boxes.clear()
    view.map_input(RawInput(pointer_px=(640.0, 360.0), pointer_inside=True, pointer_moved=True))
    view.draw(canvas, 0.0, timer)
    assert tip not in boxes


@pytest.mark.parametrize("size", [(1280, 720), (960, 540)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_at_the_top_of_a_flight_down_the_view_shows_the_treads_ahead_and_his_head(
    view: WalkView, size: tuple[int, int]
) -> None:
    # standing on the landing above the stairs down, facing them: the ground up to
    # LOOK_AHEAD_M ahead (the flight and its foot) is above the view's bottom, and his
    # head under its top
    from game.view.follow import GROUND_MARGIN_M, HEAD_MARGIN_M, LOOK_AHEAD_M

    sim, timer = view.sim, PhaseTimer()
    sim.crowd.stand_anew([14.6], [1.0])  # the top landing, 0.35 m before the first riser
    for _ in range(30):
        sim.step(InputState(), sim.dt, timer)
    pygame.font.init()
    canvas = PygameCanvas(pygame.Surface(size))
    view.layout(size)
    for _ in range(3):  # the first frame puts the camera at its goal
        view.draw(canvas, 0.0, timer)
    x = float(sim.crowd.x[0])
    ahead = x + np.linspace(0.0, LOOK_AHEAD_M, 26)
    ground = view.camera.to_screen(np.stack([ahead, sim.terrain.height_at(ahead)], -1))
    assert float(sim.terrain.height_at(x + LOOK_AHEAD_M)) < float(sim.crowd.y[0]) - 1.2  # below
    margin = GROUND_MARGIN_M * view.camera.scale
    assert ground[:, 1].max() <= size[1] - margin + 1.0
    pose = sim.crowd.pose
    head = view.camera.point_to_screen(float(pose.head[0, 0]), float(pose.head[0, 1]))
    assert head[1] >= HEAD_MARGIN_M * view.camera.scale - 1.0


def test_on_the_ladder_the_view_is_not_lowered_to_the_floor_ahead(view: WalkView) -> None:
    # the floor at the ladder's foot lies ahead of a climber too: the camera does not look
    # down at it (the rungs above his head stay in view)
    from game.view.follow import PELVIS_TO_CENTER_M
    from game.world.modes import MOTION_POSED

    sim, timer = view.sim, PhaseTimer()
    ladder = sim.ladder
    assert ladder is not None
    sim.crowd.stand_anew([ladder.spot_x - 0.3], [1.0])
    for _ in range(400):  # halfway up: the floor lies well below his feet
        sim.step(InputState(climb=1.0), sim.dt, timer)
    assert int(sim.crowd.state.motion[0]) == MOTION_POSED  # on the ladder
    pygame.font.init()
    canvas = PygameCanvas(pygame.Surface((1280, 720)))
    view.layout((1280, 720))
    view.draw(canvas, 0.0, timer)  # (the first frame puts the camera at its goal)
    assert view.camera.center_w[1] >= float(sim.crowd.pose.pelvis[0, 1]) + PELVIS_TO_CENTER_M - 0.01
