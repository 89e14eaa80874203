"""Which values of a ground preset's settings level ground takes: what the editor's sliders
offer.

A preset whose settings the rules refuse on level ground (:func:`check_edit`: a slope
steeper than the feet take, a tread a sole does not fit on, more rise within one step's
reach than the legs take) is refused wherever it is built, so a slider stops short of
those values. They are found by the rules themselves: the preset is built on level ground
and checked at samples across the slider's range, and each change between taken and
refused is narrowed down by bisection.

No pygame.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Mapping

import numpy as np

from game.world.terrain import Terrain
from game.world.terrain_presets import PRESETS
from game.world.terrain_rules import EditLimits, EditRefused, check_edit

LEVEL_HALF_M = 10.0  # the level ground the settings are tried on runs from x −10 to 10 m
SAMPLES = 24  # settings tried across a slider's range
BISECTIONS = 10  # halvings that place each change between taken and refused (1/1024 sample)

Span = tuple[float, float]


@functools.cache
def _level() -> Terrain:
    return Terrain(np.array([[-LEVEL_HALF_M, 0.0], [LEVEL_HALF_M, 0.0]]))


def without_props(limits: EditLimits) -> EditLimits:
    """``limits`` without the props' footprints (which hold their own ground only)."""
    return dataclasses.replace(limits, footprints=())


def refusal_on_level(
    op: str, values: Mapping[str, float], limits: EditLimits
) -> EditRefused | None:
    """Why preset ``op`` with ``values`` (its settings by name) is refused on level
    ground, or None if it is taken there. Props are left out (``limits``' footprints)."""
    build, names = PRESETS[op]
    level = _level()
    bare = without_props(limits)
    try:
        points = build(level, bare, 0.0, *[float(values[name]) for name in names])
        check_edit(level, points, bare)
    except EditRefused as refused:
        return refused
    return None


def taken_spans(
    op: str,
    key: str,
    bounds: Span,
    values: Mapping[str, float],
    limits: EditLimits,
    whole: bool = False,
) -> tuple[Span, ...]:
    """The stretches of ``bounds`` = (low, high) where setting ``key`` of preset ``op``,
    the others at ``values``, is taken on level ground, in order (none: no value is).
    ``whole``: the setting is a count, tried at each whole number, with no bisection."""
    low, high = bounds

    def taken(value: float) -> bool:
        return refusal_on_level(op, {**values, key: value}, limits) is None

    if whole:
        samples = [float(v) for v in np.arange(np.ceil(low), np.floor(high) + 1.0)]
    else:
        samples = [float(v) for v in np.linspace(low, high, SAMPLES)]
    flags = [taken(value) for value in samples]
    spans: list[Span] = []
    i, last = 0, len(samples) - 1
    while i <= last:
        if not flags[i]:
            i += 1
            continue
        j = i  # samples i … j are a run of taken ones
        while j < last and flags[j + 1]:
            j += 1
        start, end = samples[i], samples[j]
        if not whole:  # each end moved out to the last value taken before a refused one
            start = _edge(taken, samples[i - 1], start) if i > 0 else start
            end = _edge(taken, samples[j + 1], end) if j < last else end
        spans.append((start, end))
        i = j + 1
    return tuple(spans)


def _edge(taken: Callable[[float], bool], refused_at: float, taken_at: float) -> float:
    """The value taken nearest the change between ``refused_at`` and ``taken_at``, by
    bisection."""
    for _ in range(BISECTIONS):
        middle = 0.5 * (refused_at + taken_at)
        if taken(middle):
            taken_at = middle
        else:
            refused_at = middle
    return taken_at


def nearest_taken(spans: tuple[Span, ...], value: float) -> float:
    """``value`` moved into the nearest of ``spans`` (unchanged if inside one, or if there
    are none)."""
    if not spans:
        return value
    best = value
    distance = np.inf
    for start, end in spans:
        inside = min(max(value, start), end)
        if abs(inside - value) < distance:
            best, distance = inside, abs(inside - value)
    return best
