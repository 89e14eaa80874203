"""What the app draws over every scene, through the :class:`~game.canvas.Canvas`: where HUD
boxes may go (the view area), the F3 panel's place and figures, and the F1 help placed
clear of every other box and of the scene's subject (no pygame)."""

from __future__ import annotations

from typing import Any

from game import hud
from game.canvas import Canvas
from game.layout import Rect
from game.profiler_panel import draw_profiler, profiler_rect
from game.profiling import PhaseTimer
from game.scene import ManyCharacters, OwnHud, SceneSpec, SceneView, SidePanel


def view_area(view: SceneView, size: tuple[int, int]) -> Rect:
    """The window of ``size`` minus the view's side panel (if it has one): where HUD boxes
    may go."""
    width, height = size
    panel = view.panel_rect if isinstance(view, SidePanel) else None
    if panel is not None and panel[0] > 0:
        return (0.0, 0.0, float(panel[0]), float(height))
    return (0.0, 0.0, float(width), float(height))


def profiler_place(view: SceneView, canvas_size: tuple[int, int], area: Rect) -> Rect:
    """Where the F3 panel goes: the top-right of ``area``, clear of the view's own HUD
    boxes there (:class:`game.scene.OwnHud`)."""
    avoid = view.hud_boxes() if isinstance(view, OwnHud) else []
    return profiler_rect(canvas_size, area, avoid)


class AppHud:
    """The HUD's state between frames: the band over the subject the help keeps clear of,
    and the solve count at the last frame (the F3 panel shows solves a frame)."""

    def __init__(self) -> None:
        self.help_band: Rect | None = None
        self._solves_at_last_frame = 0

    def draw_help(
        self,
        canvas: Canvas,
        spec: SceneSpec,
        subject: tuple[float, float, float, float] | None,
        keep_clear: list[Rect],
        area: Rect,
        overlay_boxes: list[Rect],
    ) -> None:
        """The F1 help, clear of ``keep_clear`` and of ``subject`` (the hero's box) where it
        fits; the overlay's colour key (``overlay_boxes``) is what it may cover when it
        fits nowhere else."""
        band = []
        if subject is not None:
            self.help_band = hud.subject_band(subject, area, self.help_band)
            band.append(self.help_band)
        chosen = hud.place_help(
            canvas, spec.title, spec.controls, keep_clear, area, overlay_boxes, band
        )
        hud.draw_help(canvas, spec.title, chosen)

    def draw_profiler(
        self,
        canvas: Canvas,
        sim: Any,
        timer: PhaseTimer,
        first_frame: bool,
        fps: float | None,
        rect: Rect,
    ) -> None:
        """The F3 panel in ``rect``: the phases' history, solves this frame, the crowd size."""
        solves = sim.counters.solves
        per_frame = 0 if first_frame else solves - self._solves_at_last_frame
        self._solves_at_last_frame = solves
        characters = sim.character_count if isinstance(sim, ManyCharacters) else 1
        draw_profiler(canvas, timer.history, per_frame, characters, fps, rect)
