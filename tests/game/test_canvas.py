"""The drawing layer's fast paths agree with the straightforward ones."""

from __future__ import annotations

import math

import numpy as np
import pygame
import pytest
from hypothesis import given
from hypothesis import strategies as st

from game.camera import Camera2D
from game.canvas import Canvas, WorldPen, fill_under
from game.layout import MIN_FONT_PX
from game.pygame_canvas import _CACHE_LIMIT, PygameCanvas
from game.pygame_pixels import PX_LIMIT, finite_px
from game.pygame_sprites import RING_CACHE_BYTES, RING_SPRITE_AFTER
from game.pygame_text import TextFont

coord = st.floats(-1e4, 1e4, allow_nan=False)


@given(coord, coord, coord, coord, st.floats(1.0, 500.0))
def test_scalar_point_to_screen_matches_the_array_transform(
    x: float, y: float, cx: float, cy: float, scale: float
) -> None:
    camera = Camera2D(center_w=(cx, cy), scale=scale, viewport=(10, 20, 800, 450))
    fast = camera.point_to_screen(x, y)
    slow = camera.to_screen(np.array([x, y]))
    assert fast == pytest.approx(tuple(slow), rel=1e-12, abs=1e-6)
    back = camera.to_world(np.array(fast))
    assert back == pytest.approx([x, y], rel=1e-9, abs=1e-6)


def test_world_pen_px_takes_tuples_lists_and_arrays() -> None:
    pen = WorldPen(None, Camera2D(center_w=(1.0, 2.0), scale=100.0))  # type: ignore[arg-type]
    expected = (640.0 + 100.0, 360.0 - 100.0)
    assert pen.px((2.0, 3.0)) == expected
    assert pen.px([2, 3]) == expected
    assert pen.px(np.array([2.0, 3.0])) == expected


def test_finite_passes_ordinary_pixels_through_and_sanitises_the_rest() -> None:
    ordinary = np.array([[0.0, 5.0], [-300.0, 1e4]])
    assert finite_px(ordinary) is ordinary  # no copy in the common case
    wild = finite_px([[math.nan, math.inf], [-math.inf, 1e30]])
    assert np.isfinite(wild).all()
    assert wild.tolist() == [[0.0, PX_LIMIT], [-PX_LIMIT, PX_LIMIT]]
    assert finite_px(np.empty((0, 2))).shape == (0, 2)


@pytest.fixture
def canvas() -> PygameCanvas:
    pygame.font.init()
    return PygameCanvas(pygame.Surface((200, 100)))


def test_cached_text_is_drawn_in_its_own_colour(canvas: PygameCanvas) -> None:
    canvas.text((10, 10), "Hi", (255, 0, 0), 30)
    canvas.text((100, 10), "Hi", (0, 255, 0), 30)  # same text, another colour: not the red one
    red = [canvas.surface.get_at((x, y))[:3] for x in range(10, 40) for y in range(10, 40)]
    green = [canvas.surface.get_at((x, y))[:3] for x in range(100, 130) for y in range(10, 40)]
    assert (255, 0, 0) in red and (0, 255, 0) in green
    assert (0, 255, 0) not in red and (255, 0, 0) not in green


def test_text_and_panel_caches_stay_bounded(canvas: PygameCanvas) -> None:
    for i in range(_CACHE_LIMIT + 50):
        canvas.text((0, 0), f"{i} fps", (200, 200, 200), 14)
        canvas.panel((0, 0, 10 + i % 90, 10), (20, 20, 20), 100 + i % 100)
    assert len(canvas._texts) <= _CACHE_LIMIT
    assert len(canvas._panels) <= _CACHE_LIMIT


def test_a_ring_asked_for_often_is_blitted_and_looks_like_the_drawn_one() -> None:
    """The sprite path puts the same ring on screen as pygame's own aacircle."""
    pygame.font.init()
    color, radius = (90, 170, 210), 120.0
    drawn = pygame.Surface((400, 300))
    drawn.fill((20, 24, 40))
    pygame.draw.aacircle(drawn, color, (200, 150), radius, 1)
    canvas = PygameCanvas(pygame.Surface((400, 300)))
    for _ in range(RING_SPRITE_AFTER + 2):
        canvas.surface.fill((20, 24, 40))
        canvas.circle((200, 150), radius, color, 1)
    assert len(canvas._rings.sprites) == 1  # the sprite exists and was used for the last frames
    a = pygame.surfarray.array3d(drawn).astype(int)
    b = pygame.surfarray.array3d(canvas.surface).astype(int)
    lit_a, lit_b = (a != (20, 24, 40)).any(-1), (b != (20, 24, 40)).any(-1)
    assert abs(int(lit_a.sum()) - int(lit_b.sum())) < 0.1 * lit_a.sum()
    assert (lit_a & lit_b).sum() > 0.8 * lit_a.sum()  # the same pixels, give or take a half-pixel
    background = np.array([20, 24, 40])
    ink_a, ink_b = np.abs(a - background).sum(), np.abs(b - background).sum()
    assert abs(ink_a - ink_b) < 0.15 * ink_a  # as bright: the anti-aliasing survived


def _hud_box(canvas: Canvas) -> None:
    """A translucent panel with text, an anti-aliased ring and line, and an opaque mark."""
    canvas.panel((12, 8, 150, 60), (30, 34, 48), 190)
    canvas.text((20, 14), "reach: soft band", (235, 235, 240), 18)
    canvas.circle((40, 50), 6, (90, 170, 210), 1)
    canvas.line((60, 44), (70, 56), (230, 80, 80), 2)
    canvas.circle((100, 50), 4, (250, 200, 60))


def test_a_sprite_puts_down_what_drawing_directly_would() -> None:
    """Rendered over black and over white, blitted premultiplied: the same picture as
    drawing the box on the scene (within 8-bit rounding), on any background."""
    pygame.font.init()
    rng = np.random.default_rng(3)
    scene = rng.integers(0, 256, (200, 100, 3), dtype=np.uint8)
    direct = PygameCanvas(pygame.Surface((200, 100)))
    pygame.surfarray.blit_array(direct.surface, scene)
    _hud_box(direct)
    cached = PygameCanvas(pygame.Surface((200, 100)))
    calls = []

    def draw(canvas: Canvas) -> None:
        calls.append(canvas.size)
        _hud_box(canvas)

    for _ in range(3):
        pygame.surfarray.blit_array(cached.surface, scene)
        cached.sprite("box", (10, 6, 160, 66), draw)
    assert calls == [(200, 100), (200, 100)]  # rendered once (over black and white), then kept
    a = pygame.surfarray.array3d(direct.surface).astype(int)
    b = pygame.surfarray.array3d(cached.surface).astype(int)
    assert np.abs(a - b).max() <= 2
    assert (
        np.abs(a - scene).max(axis=-1) > 30
    ).sum() > 2000  # the box is there, not just the scene


def test_a_sprite_is_rendered_again_for_another_key_or_place(canvas: PygameCanvas) -> None:
    drawn: list[str] = []
    for key, rect in [("a", (0, 0, 50, 20)), ("a", (0, 0, 50, 20)), ("b", (0, 0, 50, 20))]:
        canvas.sprite(key, rect, lambda c, key=key: drawn.append(key))
    canvas.sprite("b", (5, 0, 50, 20), lambda c: drawn.append("b moved"))
    assert drawn == ["a", "a", "b", "b", "b moved", "b moved"]


def test_a_large_fill_split_at_cache_lines_paints_the_same_pixels_as_one_fill() -> None:
    canvas = PygameCanvas(pygame.Surface((1280, 300)))
    reference = pygame.Surface((1280, 300))
    rng = np.random.default_rng(5)
    for _ in range(200):
        rect = tuple(float(v) for v in rng.uniform([-80, -80, 0, 0], [1300, 320, 1400, 400]))
        color = tuple(int(v) for v in rng.integers(0, 256, 3))
        canvas.surface.fill((1, 2, 3))
        reference.fill((1, 2, 3))
        canvas.rect(rect, color)
        x, y, w, h = (round(v) for v in rect)
        pygame.draw.rect(reference, color, pygame.Rect(x, y, w, h))
        same = pygame.surfarray.array3d(canvas.surface) == pygame.surfarray.array3d(reference)
        assert same.all(), rect


def test_a_ring_whose_radius_keeps_changing_gets_no_sprites() -> None:
    canvas = PygameCanvas(pygame.Surface((400, 300)))
    for step in range(200):
        canvas.circle((200, 150), 60.0 + 0.7 * step, (200, 200, 200), 1)
    assert canvas._rings.sprites == {}


def test_a_line_to_a_point_far_off_screen_draws_its_visible_part(canvas: PygameCanvas) -> None:
    canvas.line((10.0, 10.0), (1e30, 1e30), (255, 255, 255), 1)
    assert all(canvas.surface.get_at((i, i))[:3] == (255, 255, 255) for i in range(10, 100))
    canvas.line([5, 60], [50, 60], (255, 0, 0), 2)  # plain ints in lists pass through
    assert canvas.surface.get_at((30, 60))[:3] == (255, 0, 0)


BIG = [1e300, -1e300, 1e80, 2.0**31, float("nan"), float("inf"), -float("inf")]


@pytest.mark.parametrize("big", BIG)
def test_no_world_value_crashes_a_draw_primitive(canvas: PygameCanvas, big: float) -> None:
    """A rig or terrain scaled by 1e300 asks for rects, texts and circles that SDL refuses
    ("invalid rect assignment"); every primitive clamps what it is given."""
    p = (big, big)
    canvas.line((0, 0), p, (255, 0, 0), 2)
    canvas.lines([(0, 0), p, (big, 0)], (255, 0, 0), 3)
    canvas.segments([[(0, 0), p]], (255, 0, 0), 2)
    canvas.circle(p, big, (255, 0, 0))
    canvas.circle((10, 10), big, (255, 0, 0), 2)
    canvas.circle(p, 50, (255, 0, 0), 2)
    canvas.arc(p, big, 0.0, 1.0, (255, 0, 0), 2)
    canvas.arc((10, 10), 50, big, big, (255, 0, 0), 2)
    canvas.polygon([(0, 0), p, (big, 0)], (255, 0, 0))
    canvas.rect((big, big, big, big), (255, 0, 0))
    canvas.rect((0, 0, big, 10), (255, 0, 0), 2, 4)
    canvas.panel((big, 0, big, big), (0, 0, 0), 128)
    canvas.text(p, "far away", (255, 255, 255), 16, "center")


def test_ring_sprites_stay_within_their_byte_budget() -> None:
    """A camera that zooms slowly asks for many radii, each often enough for a sprite; the
    cache is emptied by bytes, so a long run's memory stays flat (20,000 frames)."""

    canvas = PygameCanvas(pygame.Surface((400, 300)))
    for radius in range(300, 600, 5):
        for _ in range(RING_SPRITE_AFTER):
            canvas.circle((200, 150), float(radius), (200, 200, 200), 1)
        sizes = [4 * s.get_width() * s.get_height() for s in canvas._rings.sprites.values()]
        assert sum(sizes) <= RING_CACHE_BYTES or len(sizes) == 1
    assert canvas._rings.sprites  # sprites are still made and used


@pytest.mark.parametrize("wave", [0.0, 40.0])
def test_fill_under_covers_what_the_polygon_closed_at_the_bottom_covers(wave: float) -> None:
    """The polygon-plus-rectangle fill puts down the pixels of the one tall polygon."""
    xs = np.linspace(-20.0, 420.0, 37)
    line = np.stack([xs, 150.0 + wave * np.sin(xs / 35.0)], axis=-1)
    whole = pygame.Surface((400, 300))
    pygame.draw.polygon(whole, (200, 90, 30), [*line.tolist(), [420.0, 300.0], [-20.0, 300.0]])
    canvas = PygameCanvas(pygame.Surface((400, 300)))
    fill_under(canvas, line, (200, 90, 30))
    a = pygame.surfarray.array3d(whole).astype(int)
    b = pygame.surfarray.array3d(canvas.surface).astype(int)
    assert (a != b).any(-1).sum() <= 2 * len(line)  # a vertex's pixel at most


def test_fill_under_a_line_below_the_canvas_draws_nothing(canvas: PygameCanvas) -> None:
    fill_under(canvas, [[0.0, 150.0], [200.0, 180.0]], (255, 0, 0))
    assert pygame.surfarray.array3d(canvas.surface).max() == 0


def _square(layer: Canvas) -> None:
    layer.rect((2, 2, 6, 6), (255, 0, 0))


def test_a_placed_layer_is_drawn_once_and_put_down_where_asked(canvas: PygameCanvas) -> None:
    calls = []

    def draw(layer: Canvas) -> None:
        calls.append(layer.size)
        _square(layer)

    for x in (20.4, 60.0, 130.0):
        canvas.layer("square", (0, 0, 0), draw, (x, 30.0, 10, 10))
    assert calls == [(10, 10)]  # drawn once, at its own size
    for x in (20, 60, 130):
        assert canvas.surface.get_at((x + 4, 34))[:3] == (255, 0, 0)
        assert canvas.surface.get_at((x + 1, 31))[:3] == (0, 0, 0)  # the backdrop is see-through
    canvas.layer("square", (0, 0, 0), draw, (20.0, 30.0, 12, 10))  # another size: drawn again
    assert calls == [(10, 10), (12, 10)]


def test_a_layer_wholly_off_the_canvas_is_not_drawn(canvas: PygameCanvas) -> None:
    calls = []
    for rect in [(-30, 10, 20, 20), (200, 10, 20, 20), (10, -40, 20, 30), (10, 100, 5, 5)]:
        canvas.layer(rect, (0, 0, 0), calls.append, rect)
    assert calls == []
    assert canvas._layers == {}


def test_layers_beyond_the_byte_budget_drop_the_least_recently_used() -> None:
    from game.pygame_canvas import _LAYER_CACHE_BYTES

    canvas = PygameCanvas(pygame.Surface((1000, 1000)))  # 4 MB a window-sized layer
    per_layer = 4 * 1000 * 1000
    for key in range(_LAYER_CACHE_BYTES // per_layer + 3):
        canvas.layer(key, (0, 0, 0), _square)
        canvas.layer(0, (0, 0, 0), _square)  # the first stays in use
    assert canvas._layer_bytes() <= _LAYER_CACHE_BYTES
    assert (0, (0, 0, 0), (1000, 1000)) in canvas._layers
    assert (1, (0, 0, 0), (1000, 1000)) not in canvas._layers


def test_a_readied_layer_is_drawn_once_and_only_put_down_when_asked(
    canvas: PygameCanvas,
) -> None:
    calls = []

    def draw(layer: Canvas) -> None:
        calls.append(layer.size)
        _square(layer)

    canvas.surface.fill((0, 0, 0))
    canvas.ready_layer("square", (0, 0, 0), draw, (10, 10))
    assert calls == [(10, 10)]
    assert canvas.surface.get_at((24, 34))[:3] == (0, 0, 0)  # not put down
    canvas.layer("square", (0, 0, 0), draw, (20, 30, 10, 10))
    assert calls == [(10, 10)]  # the readied layer, not a second drawing
    assert canvas.surface.get_at((24, 34))[:3] == (255, 0, 0)


def test_words_of_small_text_stay_apart() -> None:
    # at 960x540 words must not run together as "orhold", "Hhands", "ringon" (the default
    # font's space is 2 px below size 14, as wide as the gaps its hinting leaves inside words)
    pygame.display.init()
    pygame.font.init()
    canvas = PygameCanvas(pygame.Surface((200, 40)))
    for size in range(MIN_FONT_PX, 20):
        gap = canvas.text_size("or hold", size)[0] - canvas.text_size("orhold", size)[0]
        assert gap >= 3, size
        # drawn as measured, with at least 3 blank columns between the words
        canvas.fill((0, 0, 0))
        width, _ = canvas.text((0, 0), "or hold", (255, 255, 255), size)
        assert width == canvas.text_size("or hold", size)[0]
        lit = pygame.surfarray.array3d(canvas.surface)[:width].max(axis=(1, 2)) > 40
        columns = "".join("#" if v else "." for v in lit.tolist())
        assert "..." in columns.strip("."), (size, columns)


@pytest.mark.parametrize(
    "text",
    ["target of each hand and ankle", "foot planted (a ring on its locked pivot: heel or ball)"],
)
def test_small_text_set_word_by_word_keeps_every_glyph_whole(text: str) -> None:
    # a line set word by word is measured wide enough for its last glyph (the ")" of the
    # overlay legend's "heel or ball)", "ankle"'s e): the ink drawn is every word's ink
    pygame.display.init()
    canvas = PygameCanvas(pygame.Surface((400, 40)))
    for size in range(MIN_FONT_PX, 20):
        font = TextFont(size, False).font
        font.origin = False
        words = sum(
            pygame.surfarray.array_alpha(font.render(word, (255, 255, 255))[0]).sum()
            for word in text.split(" ")
        )
        canvas.fill((0, 0, 0))
        width, _ = canvas.text((0, 0), text, (255, 255, 255), size)
        assert width == canvas.text_size(text, size)[0]
        drawn = pygame.surfarray.array3d(canvas.surface)[..., 0].sum()
        assert drawn == pytest.approx(words, rel=0.002), size


def _pair() -> tuple[PygameCanvas, PygameCanvas]:
    return PygameCanvas(pygame.Surface((160, 120))), PygameCanvas(pygame.Surface((160, 120)))


def _same(a: PygameCanvas, b: PygameCanvas) -> bool:
    return bool((pygame.surfarray.array3d(a.surface) == pygame.surfarray.array3d(b.surface)).all())


@pytest.mark.parametrize("width", [1, 3, 6])
def test_polylines_put_down_the_pixels_of_their_segments_drawn_one_by_one(width: int) -> None:
    rng = np.random.default_rng(width)
    lines = rng.uniform(-40.0, 200.0, (30, 3, 2))
    batched, single = _pair()
    batched.polylines(lines, (200, 90, 80), width)
    single.segments(
        np.stack([lines[:, :-1], lines[:, 1:]], axis=2).reshape(-1, 2, 2), (200, 90, 80), width
    )
    assert _same(batched, single)


@given(
    st.lists(st.tuples(st.floats(-30, 190), st.floats(-30, 150)), min_size=2, max_size=8),
    st.floats(0.0, 80.0),
    st.sampled_from([(0, 0, 0), (240, 200, 170), (255, 255, 255)]),
)
def test_discs_put_down_the_pixels_of_circles_drawn_in_the_same_order(
    points: list[tuple[float, float]], radius: float, color: tuple[int, int, int]
) -> None:
    # fractional and negative centres (draw.circle truncates towards zero), two discs a
    # row overlapping the next row's, radii past the sprites' range, a black disc
    centers = np.array(points[: len(points) // 2 * 2]).reshape(-1, 2, 2)
    radii, colors = (radius, 0.7 * radius), (color, (60, 70, 200))
    batched, single = _pair()
    batched.discs(centers, radii, colors)
    for row in centers.tolist():
        for center, r, c in zip(row, radii, colors, strict=True):
            single.circle(center, r, c)
    assert _same(batched, single)


@given(st.integers(0, 2**32 - 1))
def test_shades_put_down_what_each_shade_drawn_on_a_whole_canvas_sheet_would(seed: int) -> None:
    # three shades of three nested polygons each, overlapping one another, inside the canvas
    rng = np.random.default_rng(seed)
    polygons = [
        rng.uniform(0.0, 150.0, 2) + rng.uniform(0.0, 60.0 - 15.0 * k, (int(n), 2))
        for k, n in zip([0, 1, 2] * 3, rng.integers(3, 12, 9), strict=True)
    ]
    alphas = rng.integers(0, 256, 9).tolist()
    batched, single = _pair()
    for canvas in (batched, single):
        canvas.fill((200, 180, 160))
    sizes = [len(p) for p in polygons]
    batched.shades(np.concatenate(polygons), sizes, alphas, (10, 20, 30), 3)
    for first in (0, 3, 6):
        sheet = pygame.Surface(single.size, pygame.SRCALPHA)
        sheet.fill((10, 20, 30, 0))
        for polygon, alpha in zip(
            polygons[first : first + 3], alphas[first : first + 3], strict=True
        ):
            pygame.draw.polygon(sheet, (10, 20, 30, alpha), polygon.tolist())
        single.surface.blit(sheet, (0, 0))
    assert _same(batched, single)
