"""Tiny immediate-mode UI widgets (slider, button) in screen pixels, drawn through a Canvas."""

from __future__ import annotations

from dataclasses import dataclass

from game.canvas import Canvas
from game.layout import font_px
from game.palette import PALETTE, mix

Rect = tuple[float, float, float, float]


def grow(rect: Rect, by: float) -> Rect:
    """``rect`` with ``by`` pixels added on every side (a larger hit area)."""
    x, y, w, h = rect
    return (x - by, y - by, w + 2 * by, h + 2 * by)


def contains(rect: Rect, p: tuple[float, float]) -> bool:
    """``p`` lies inside ``rect`` = (left, top, width, height)."""
    x, y, w, h = rect
    return x <= p[0] <= x + w and y <= p[1] <= y + h


@dataclass(slots=True)
class Slider:
    """A horizontal slider for one named value in ``[low, high]``."""

    key: str
    label: str
    low: float
    high: float
    rect: Rect = (0.0, 0.0, 100.0, 18.0)
    unit: str = "m"
    scale: float = 1.0  # the UI scale (game.layout.ui_scale) its texts and knob are drawn at
    whole: bool = False  # a count: its value a whole number, shown as one ("4", not "+4.00")
    # the stretches of [low, high] on offer (None: all of it); the rest of the track is
    # drawn as refused
    taken: tuple[tuple[float, float], ...] | None = None

    def value_at(self, px: tuple[float, float]) -> float:
        """The value under pointer x (clamped to the slider's range; rounded if whole)."""
        x, _, w, _ = self.rect
        frac = min(max((px[0] - x) / w, 0.0), 1.0)
        value = self.low + frac * (self.high - self.low)
        return float(round(value)) if self.whole else value

    def draw(self, canvas: Canvas, value: float, active: bool) -> None:
        x, y, w, h = self.rect
        frac = min(max((value - self.low) / (self.high - self.low), 0.0), 1.0)
        mid, s = y + h / 2, self.scale
        size = font_px(17, s)
        canvas.text((x, y - 4 * s), self.label, PALETTE["text_dim"], size, "bottomleft")
        canvas.text(
            (x + w, y - 4 * s), self.value_text(value), PALETTE["text"], size, "bottomright"
        )
        canvas.rect((x, mid - 3 * s, w, 6 * s), PALETTE["grid_major"], 0, 3)
        fill = mix(PALETTE["accent"], PALETTE["panel"], 0.4)
        canvas.rect((x, mid - 3 * s, w * frac, 6 * s), fill, 0, 3)
        refused = mix(PALETTE["bad"], PALETTE["panel"], 0.45)
        for a, b in self._refused():  # (over the fill too: refused either side of the knob)
            canvas.rect((x + w * a, mid - 3 * s, w * (b - a), 6 * s), refused, 0, 0)
        knob = PALETTE["white"] if active else PALETTE["accent"]
        canvas.circle((x + w * frac, mid), 8 * s, knob)

    def value_text(self, value: float) -> str:
        """``value`` as the slider shows it: "+0.17 m", "4", "+15.00 °"."""
        return f"{value:.0f} {self.unit}".rstrip() if self.whole else f"{value:+.2f} {self.unit}"

    def _refused(self) -> list[tuple[float, float]]:
        """The stretches of the track not on offer, as fractions of its width."""
        if self.taken is None:
            return []
        span = self.high - self.low
        edges = [0.0]
        for a, b in self.taken:
            edges += [(a - self.low) / span, (b - self.low) / span]
        edges.append(1.0)
        gaps = zip(edges[::2], edges[1::2], strict=True)
        return [(a, b) for a, b in gaps if b - a > 1e-9]

    def label_height(self, canvas: Canvas) -> float:
        """How far above ``rect`` the label row reaches (pixels)."""
        return canvas.text_size(self.label, font_px(17, self.scale))[1] + 4 * self.scale


@dataclass(slots=True)
class Button:
    """A push button; ``action`` is the one-shot action it fires."""

    action: str
    label: str
    rect: Rect = (0.0, 0.0, 100.0, 30.0)
    scale: float = 1.0

    def draw(self, canvas: Canvas, lit: bool) -> None:
        fill = mix(PALETTE["panel"], PALETTE["accent"], 0.35 if lit else 0.15)
        canvas.rect(self.rect, fill, 0, 6)
        canvas.rect(self.rect, PALETTE["panel_edge"], 1, 6)
        x, y, w, h = self.rect
        canvas.text(
            (x + w / 2, y + h / 2), self.label, PALETTE["text"], font_px(18, self.scale), "center"
        )
