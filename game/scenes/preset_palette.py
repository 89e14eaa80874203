"""The ground editor's preset palette: each preset's sliders, their settings, and the
stretch of each slider level ground takes (:mod:`game.world.preset_ranges`), so that no
slider offers an edit that is refused wherever it is built."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from game.widgets import Slider
from game.world.preset_ranges import (
    Span,
    nearest_taken,
    refusal_on_level,
    taken_spans,
    without_props,
)
from game.world.terrain_rules import EditLimits

RANGES_KEPT = 64  # sliders' ranges remembered (for settings met before)


@dataclass(frozen=True, slots=True)
class Preset:
    """A shape from the palette and the sliders that set it."""

    op: str
    label: str
    sliders: tuple[Slider, ...]


def make_presets() -> tuple[Preset, ...]:
    """The palette: each preset with its own sliders (laid out by the view that owns them)."""
    return (
        Preset(
            "stairs",
            "stairs",
            (
                Slider("rise", "rise", 0.05, 0.4),
                Slider("tread", "tread", 0.2, 0.6),
                Slider("count", "steps", 1, 8, unit="", whole=True),
            ),
        ),
        Preset(
            "ramp",
            "ramp",
            (Slider("grade", "grade", 5.0, 30.0, unit="°"), Slider("length", "length", 0.5, 4.0)),
        ),
        Preset(
            "bump",
            "bump",
            (Slider("height", "height", 0.02, 0.3), Slider("width", "width", 0.5, 3.0)),
        ),
        Preset(
            "platform",
            "platform",
            (Slider("height", "height", -0.4, 0.4), Slider("width", "width", 0.5, 3.0)),
        ),
    )


DEFAULTS = {
    "stairs": {"rise": 0.17, "tread": 0.3, "count": 4},
    "ramp": {"grade": 15.0, "length": 2.0},
    "bump": {"height": 0.1, "width": 1.2},
    "platform": {"height": 0.25, "width": 1.5},
}


class PresetSettings:
    """Each preset's settings, as its sliders set them within what level ground takes."""

    def __init__(self) -> None:
        self.values = {op: dict(values) for op, values in DEFAULTS.items()}
        self._ranges: dict[tuple[Any, ...], tuple[Span, ...]] = {}

    def set(self, preset: Preset, slider: Slider, wanted: float, limits: EditLimits) -> str | None:
        """Set ``slider`` of ``preset`` to ``wanted``, or to the nearest value level ground
        takes with the other settings as they are; returns why, when it is not
        ``wanted``."""
        settings = self.values[preset.op]
        spans = self._taken(preset, slider, limits)
        value = nearest_taken(spans, wanted)
        settings[slider.key] = value
        if value == wanted and spans:
            return None
        refused = refusal_on_level(preset.op, {**settings, slider.key: wanted}, limits)
        if refused is None:
            return None
        reason, past = refused.rule, slider.value_text(wanted)
        if not spans:  # (the others leave it none: new limits since they were set)
            return f"no {slider.label} is taken with the others as set: at {past}, {reason}"
        return f"{slider.label} stops at {slider.value_text(value)}: at {past}, {reason}"

    def mark_ranges(self, preset: Preset, limits: EditLimits, dragged: Slider | None) -> None:
        """Give ``preset``'s sliders the ranges known for their settings (``Slider.taken``);
        work out at most one unknown range a call (each takes a few milliseconds), none
        while a slider is ``dragged`` (the others' change with every move of it)."""
        work = dragged is None
        settings = self.values[preset.op]
        for slider in preset.sliders:
            key = self._key(preset, slider, limits)
            if key not in self._ranges and work:
                self._taken(preset, slider, limits)
                work = False
            slider.taken = self._ranges.get(key)
            if slider.taken and slider is not dragged:  # (new limits: a value moved in)
                settings[slider.key] = nearest_taken(slider.taken, settings[slider.key])

    def _key(self, preset: Preset, slider: Slider, limits: EditLimits) -> tuple[Any, ...]:
        settings = self.values[preset.op]
        others = tuple(sorted((k, v) for k, v in settings.items() if k != slider.key))
        return (preset.op, slider.key, others, without_props(limits))

    def _taken(self, preset: Preset, slider: Slider, limits: EditLimits) -> tuple[Span, ...]:
        """The stretches of ``slider``'s range level ground takes, the other settings as
        they are (worked out once for each such setting)."""
        key = self._key(preset, slider, limits)
        spans = self._ranges.get(key)
        if spans is None:
            if len(self._ranges) >= RANGES_KEPT:
                self._ranges.clear()
            bounds = (slider.low, slider.high)
            settings = self.values[preset.op]
            spans = taken_spans(preset.op, slider.key, bounds, settings, limits, slider.whole)
            self._ranges[key] = spans
        return spans
