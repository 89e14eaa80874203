"""The editor's sliders offer only settings level ground takes (game.world.preset_ranges)."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pygame
import pytest
from hypothesis import given
from hypothesis import strategies as st

from game.app import App, build_scene
from game.options import RunOptions
from game.scene import SceneConfig
from game.scenes.preset_palette import DEFAULTS, PresetSettings, make_presets
from game.widgets import Slider
from game.world.preset_ranges import (
    SAMPLES,
    nearest_taken,
    refusal_on_level,
    taken_spans,
)
from game.world.rig import load_rig
from game.world.terrain_rules import EditLimits

ASSETS = Path(__file__).resolve().parents[2] / "assets"
LIMITS = EditLimits.for_rig(load_rig(ASSETS / "rig.json"))
SLIDERS = [(preset.op, slider) for preset in make_presets() for slider in preset.sliders]
DT = 1.0 / 60.0


def test_the_ramps_grade_stops_at_the_steepest_slope_the_soles_take() -> None:
    ramp = next(p for p in make_presets() if p.op == "ramp")
    grade = ramp.sliders[0]
    spans = taken_spans("ramp", "grade", (grade.low, grade.high), DEFAULTS["ramp"], LIMITS)
    assert len(spans) == 1
    assert spans[0][0] == grade.low
    assert spans[0][1] == pytest.approx(math.degrees(LIMITS.max_grade), abs=0.002)


def test_a_bumps_height_stops_lower_the_narrower_it_is() -> None:
    tops = [
        taken_spans("bump", "height", (0.02, 0.3), {"width": width}, LIMITS)[-1][1]
        for width in (0.8, 1.2, 2.0)
    ]
    assert tops[0] < tops[1] < tops[2]
    # a raised cosine h(1 − cos 2πx/w)/2 is steepest at π h / w: near the rig's 24°
    assert tops[1] == pytest.approx(math.tan(LIMITS.max_grade) * 1.2 / math.pi, rel=0.05)


@pytest.mark.parametrize(("op", "slider"), SLIDERS, ids=[f"{op}-{s.key}" for op, s in SLIDERS])
def test_a_sliders_range_is_what_level_ground_takes_at_its_edges_and_samples(
    op: str, slider: Slider
) -> None:
    others, key = dict(DEFAULTS[op]), slider.key
    bounds = (slider.low, slider.high)
    spans = taken_spans(op, key, bounds, others, LIMITS, slider.whole)
    if slider.whole:
        samples = np.arange(bounds[0], bounds[1] + 1.0)
    else:
        samples = np.linspace(*bounds, SAMPLES)
    for value in samples:  # every sample tried is where the spans say it is
        inside = any(a <= value <= b for a, b in spans)
        assert inside == (refusal_on_level(op, {**others, key: value}, LIMITS) is None)
    step = (bounds[1] - bounds[0]) / (SAMPLES - 1) / 100.0
    for a, b in spans:
        for edge in (a, b):
            assert refusal_on_level(op, {**others, key: edge}, LIMITS) is None
        if not slider.whole and a > bounds[0]:  # an edge inside the range: refused past it
            assert refusal_on_level(op, {**others, key: a - step}, LIMITS) is not None
        if not slider.whole and b < bounds[1]:
            assert refusal_on_level(op, {**others, key: b + step}, LIMITS) is not None


@given(st.floats(-1.0, 2.0), st.lists(st.floats(0.0, 1.0), min_size=2, max_size=6))
def test_nearest_taken_moves_a_value_into_the_nearest_span_only(
    value: float, cuts: list[float]
) -> None:
    edges = sorted(cuts)
    spans = tuple(zip(edges[::2], edges[1::2], strict=False))
    moved = nearest_taken(spans, value)
    if not spans:
        assert moved == value
        return
    assert any(a <= moved <= b for a, b in spans)
    assert abs(moved - value) == pytest.approx(
        min(abs(min(max(value, a), b) - value) for a, b in spans)
    )


@pytest.mark.parametrize(
    ("op", "values", "rule"),
    [
        ("stairs", {"rise": 0.3, "tread": 0.3, "count": 4}, "within one step (50 cm): the legs"),
        ("stairs", {"rise": 0.1, "tread": 0.2, "count": 4}, "cm tread is shorter than a foot"),
        ("bump", {"height": 0.3, "width": 0.5}, "° slope is steeper than the feet take"),
    ],
)
def test_every_refusal_a_slider_meets_names_its_rule_without_a_place(
    op: str, values: dict[str, float], rule: str
) -> None:
    refused = refusal_on_level(op, values, LIMITS)
    assert refused is not None and " at x " in str(refused)
    assert rule in refused.rule and " at x" not in refused.rule


def test_a_refusals_reason_is_said_without_its_place_on_the_level_ground() -> None:
    refused = refusal_on_level("ramp", {"grade": 28.0, "length": 2.0}, LIMITS)
    assert refused is not None and " at x " in str(refused)
    assert refused.rule.startswith("a 28") and " at x" not in refused.rule
    assert refused.rule.endswith("is steeper than the feet take (24°)")


@pytest.fixture
def app() -> Iterator[App]:
    pygame.display.init()
    pygame.font.init()
    options = RunOptions(scene="walk", headless=True, size=(1280, 720))
    config = SceneConfig(assets_dir=ASSETS, extra={})
    yield App(options, build_scene("walk", config, options.size), config)
    pygame.display.quit()


def _mouse(kind: int, px: tuple[float, float]) -> None:
    if kind == pygame.MOUSEMOTION:
        event = pygame.event.Event(kind, pos=px, rel=(0, 0), buttons=(1, 0, 0))
    else:
        event = pygame.event.Event(kind, pos=px, button=1)
    pygame.event.post(event)


def test_dragging_a_bumps_height_past_what_its_width_takes_stops_there_and_says_why(
    app: App,
) -> None:
    key = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_e, mod=0, unicode="", scancode=0)
    pygame.event.post(key)
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=pygame.K_e, mod=0))
    app.run_frame(DT)
    view = app.scene.view.ground_edit
    bump = next(b for b in view.buttons if b.action == "bump")
    x, y, w, h = bump.rect
    for kind in (pygame.MOUSEMOTION, pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
        _mouse(kind, (x + w / 2, y + h / 2))
    app.run_frame(DT)
    height = next(s for s in view.preset.sliders if s.key == "height")
    x, y, w, h = height.rect
    _mouse(pygame.MOUSEBUTTONDOWN, (x + 0.3 * w, y + h / 2))
    app.run_frame(DT)
    for frac in (0.6, 0.9, 1.2):  # dragged on, past the slider's right end
        _mouse(pygame.MOUSEMOTION, (x + frac * w, y + h / 2))
        app.run_frame(DT)
    settings_now = view.settings["bump"]
    assert refusal_on_level("bump", settings_now, LIMITS) is None  # taken on level ground
    assert settings_now["height"] < 0.2  # far short of the slider's 0.3 m at a 1.2 m width
    shown = view._stopped
    assert shown is not None and "steeper than the feet take" in shown
    assert shown.startswith("height stops at +0.1") and "at +0.30 m, a " in shown
    _mouse(pygame.MOUSEBUTTONUP, (x + 1.2 * w, y + h / 2))
    app.run_frame(DT)
    for _ in range(3):  # every slider's range worked out, one a frame
        app.run_frame(DT)
    assert all(s.taken is not None for s in view.preset.sliders)
    assert view._stopped == shown  # (still said once let go)


def test_stricter_limits_move_the_settings_into_what_they_take_and_say_so() -> None:
    # a rig read again with a 10° sole tilt: the ramp's 15° grade moves in to 10° as its
    # range is worked out; a tread no sole fits on any more (a long sole) is said so
    palette = PresetSettings()
    ramp = next(p for p in make_presets() if p.op == "ramp")
    strict = dataclasses.replace(LIMITS, max_grade=math.radians(10.0))
    for _ in range(len(ramp.sliders)):  # (one range a call)
        palette.mark_ranges(ramp, strict, None)
    assert palette.values["ramp"]["grade"] == pytest.approx(10.0, abs=0.01)
    stairs = next(p for p in make_presets() if p.op == "stairs")
    tread = next(s for s in stairs.sliders if s.key == "tread")
    long_soles = dataclasses.replace(LIMITS, min_tread=0.9)
    said = palette.set(stairs, tread, 0.4, long_soles)
    assert said is not None and said.startswith("no tread is taken with the others as set")
    assert palette.values["stairs"]["tread"] == 0.4  # (left as asked: nothing is taken)
