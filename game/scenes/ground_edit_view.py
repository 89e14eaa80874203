"""The walk scene's edit mode on screen: vertex handles, the preset palette, the messages.

Turns the window's mouse and keys into ``terrain_edit`` actions (see
:mod:`game.scenes.ground_edit`; Esc and E leave the mode) and draws the editing aids: the
chosen preset as a ghost under the pointer (green where it would be built, red where it
would be refused, with the reason at the place), and the last refused edit the same way.
Reads the simulation; the one thing it does besides is Ctrl+S, which writes the edited
ground to its file.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np
from numpy.typing import NDArray

from game.camera import Camera2D
from game.canvas import Canvas, WorldPen
from game.input_state import RawInput
from game.layout import font_px, ui_scale, wrap
from game.palette import PALETTE, mix
from game.scenes.ground_edit import GroundEditing, Proposal
from game.scenes.preset_palette import Preset, PresetSettings, make_presets
from game.widgets import Button, Slider, contains
from game.world.terrain import Terrain
from game.world.terrain_edit import EditLimits, EditRefused

HANDLE_PX = 10.0  # a vertex this close to the pointer is under it
DOUBLE_CLICK_S = 0.4
DOUBLE_CLICK_PX = 8.0
SNAP_M = 0.05  # Shift while dragging: vertices snap to this grid
PANEL_WIDTH = 300.0
GHOST_MARGIN_M = 0.3  # the ghost shows this much of the ground either side of what changes
REFUSAL_SHOWN_S = 3.0  # a refused edit is drawn where it failed this long once let go
_SLIDER_ROW = 44  # the sliders' spacing (pixels at scale 1), three rows at most
_HINT_TOP = 96 + 3 * _SLIDER_ROW + 6  # the panel's hint under three sliders
_HINT_LINE = 18  # its line height (up to three lines, at 15 px)


HELP = (
    "drag a vertex (Shift snaps)",
    "double-click the ground: new vertex",
    "right-click a vertex: delete it",
    "Ctrl+Z / Ctrl+Y undo / redo",
    "Ctrl+S save · Ctrl+O reload",
    "E or Esc: back to walking",
)


class GroundEditView:
    """Edit mode's input mapping and drawing, for the walk view."""

    def __init__(self) -> None:
        self.presets = make_presets()
        self.preset: Preset | None = None
        self.palette = PresetSettings()
        self.settings = self.palette.values  # each preset's, by name
        self.hover: int | None = None
        self._drag_vertex: int | None = None
        self._drag_serial = 0
        self._slider: Slider | None = None
        self._last_click: tuple[float, tuple[float, float]] | None = None
        self.scale = 1.0
        self.panel = (0.0, 0.0, PANEL_WIDTH, 10.0)
        self.buttons: list[Button] = []
        self.ghost_x: float | None = None  # where the chosen preset would be built (world x)
        self._proposal: tuple[tuple[Any, ...], Proposal] | None = None  # the ghost's, cached
        self._refusal: tuple[Proposal, float] | None = None  # the last refusal, when first drawn
        self._stopped: str | None = None  # why the last slider set stopped short of the pointer
        self._stopped_by: EditLimits | None = None  # ... under these limits

    @property
    def dragging_vertex(self) -> bool:
        """Whether the mouse is dragging a vertex (the view holds still meanwhile: the
        vertex stays under the mouse in the world)."""
        return self._drag_vertex is not None

    def layout(self, size: tuple[int, int]) -> None:
        """Place the palette at the top right of a ``size`` window (sized for 1280x720 and
        scaled like the rest of the HUD)."""
        s = self.scale = ui_scale(size)
        width = PANEL_WIDTH * s
        left, top = size[0] - width - 12 * s, 48.0 * s
        self.buttons = [
            Button(
                preset.op, preset.label, (left + (12 + i * 70) * s, top + 34 * s, 64 * s, 28 * s), s
            )
            for i, preset in enumerate(self.presets)
        ]
        for preset in self.presets:
            for row, slider in enumerate(preset.sliders):
                slider.rect = (
                    left + 16 * s,
                    top + (96 + row * _SLIDER_ROW) * s,
                    width - 32 * s,
                    18 * s,
                )
                slider.scale = s
        self.panel = (left, top, width, (_HINT_TOP + 3 * _HINT_LINE + 8) * s)

    # -- input -------------------------------------------------------------------------
    def map_input(
        self, raw: RawInput, camera: Camera2D, editing: GroundEditing
    ) -> tuple[list[str], dict[str, Any]]:
        """This frame's edit (at most one) as ``(actions, values)``."""
        keys, ctrl = raw.keys_pressed, raw.ctrl_pressed
        pointer = raw.pointer_px
        self.hover = self._vertex_near(pointer, camera, editing)
        over_ground = raw.pointer_inside and not contains(self.panel, pointer)
        ghost = self.preset is not None and over_ground and self.hover is None
        self.ghost_x = float(camera.to_world(pointer)[0]) if ghost else None
        # Esc leaves the editor like E (which the walk view maps); both at once: one toggle
        leave = ["toggle_edit"] if "escape" in keys and "e" not in keys else []
        if "s" in ctrl:
            editing.save()
        edit: dict[str, Any] | None = None
        if "z" in ctrl:
            edit = {"op": "undo"}
        elif "y" in ctrl:
            edit = {"op": "redo"}
        elif "o" in ctrl:
            edit = {"op": "reload"}
        for button, px in raw.clicks:
            edit = self._click(button, px, camera, editing) or edit
        held = 1 in raw.buttons_down
        if self._slider is not None and held:
            self._set_slider(self._slider, pointer, editing)
        if not held:
            self._drag_vertex = self._slider = None
        moved = editing.dragged
        if self._drag_vertex is not None and moved is not None and moved[0] == self._drag_serial:
            self._drag_vertex = moved[1]  # (pinned ground put vertices before it)
        if self._drag_vertex is not None and raw.pointer_moved and edit is None:
            x, y = camera.to_world(pointer)
            if "shift" in raw.keys_down:
                x, y = round(x / SNAP_M) * SNAP_M, round(y / SNAP_M) * SNAP_M
            edit = {"op": "move", "vertex": self._drag_vertex, "x": float(x), "y": float(y)}
            edit["drag"] = self._drag_serial
        return (["terrain_edit", *leave], edit) if edit is not None else (leave, {})

    def _click(
        self, button: int, px: tuple[float, float], camera: Camera2D, editing: GroundEditing
    ) -> dict[str, Any] | None:
        vertex = self._vertex_near(px, camera, editing)
        if button == 3:
            return None if vertex is None else {"op": "delete", "vertex": vertex}
        if button != 1:
            return None
        if contains(self.panel, px):
            self._press_panel(px, editing)
            return None
        if vertex is not None:
            self._drag_vertex = vertex
            last = editing.dragged[0] if editing.dragged is not None else 0
            known = int(last) if isinstance(last, int | float) else 0
            self._drag_serial = max(self._drag_serial, known) + 1  # a drag of its own
            return None
        x = float(camera.to_world(px)[0])
        if self.preset is not None:
            return {"op": self.preset.op, "x": x, **self.settings[self.preset.op]}
        now = time.monotonic()
        last, self._last_click = self._last_click, (now, px)
        if last is not None and now - last[0] <= DOUBLE_CLICK_S:
            if np.hypot(px[0] - last[1][0], px[1] - last[1][1]) <= DOUBLE_CLICK_PX:
                self._last_click = None
                return {"op": "insert", "x": x}
        return None

    def _press_panel(self, px: tuple[float, float], editing: GroundEditing) -> None:
        for button in self.buttons:
            if contains(button.rect, px):
                chosen = next(p for p in self.presets if p.op == button.action)
                self.preset = None if self.preset is chosen else chosen
                self._stopped = None  # (said of the last preset's slider)
                return
        if self.preset is not None:
            for slider in self.preset.sliders:
                x, y, w, h = slider.rect
                if contains((x - 8, y - 8, w + 16, h + 16), px):
                    self._slider = slider
                    self._set_slider(slider, px, editing)

    def _set_slider(self, slider: Slider, px: tuple[float, float], editing: GroundEditing) -> None:
        """The value under the pointer, or the nearest one level ground takes (no slider
        offers an edit refused wherever it is built); :attr:`_stopped` says why."""
        assert self.preset is not None
        limits = editing.editor.limits
        self._stopped = self.palette.set(self.preset, slider, slider.value_at(px), limits)
        self._stopped_by = limits

    @staticmethod
    def _vertex_near(
        px: tuple[float, float], camera: Camera2D, editing: GroundEditing
    ) -> int | None:
        screen = camera.to_screen(editing.terrain.points)
        distance = np.hypot(screen[:, 0] - px[0], screen[:, 1] - px[1])
        nearest = int(np.argmin(distance))
        return nearest if distance[nearest] <= HANDLE_PX else None

    # -- drawing -----------------------------------------------------------------------
    def draw(self, canvas: Canvas, pen: WorldPen, editing: GroundEditing, now: float) -> None:
        """Vertex handles (the hovered one lit), the preset's ghost or the last refused
        edit where it failed (while its vertex is dragged, then for ``REFUSAL_SHOWN_S`` of
        the simulation's time ``now``), the palette, the last message."""
        refused = editing.refused
        if refused is not None and (self._refusal is None or self._refusal[0] is not refused):
            self._refusal = (refused, now)
        if self.preset is not None and self.ghost_x is not None:
            self._draw_proposal(canvas, pen, editing, self._ghost(editing))
        elif self._refusal is not None and refused is self._refusal[0]:
            shown = now - self._refusal[1] <= REFUSAL_SHOWN_S or self._drag_vertex is not None
            if shown:
                self._draw_proposal(canvas, pen, editing, refused)
        for index, vertex in enumerate(editing.terrain.points):
            lit = index in (self.hover, self._drag_vertex)
            pen.disc(vertex, 6 if lit else 4, PALETTE["accent"] if lit else PALETTE["ground_edge"])
        self._draw_palette(canvas, editing)
        if editing.message:
            self._draw_message(canvas, editing.message)

    def _draw_palette(self, canvas: Canvas, editing: GroundEditing) -> None:
        """The panel: the preset buttons, then the help, or the open preset's sliders (the
        values level ground refuses marked on them) and a hint."""
        s = self.scale
        left, top, width, height = self.panel
        small = font_px(15, s)
        canvas.panel(self.panel, PALETTE["panel"], 225)
        title = font_px(18, s)
        canvas.text(
            (left + 12 * s, top + 8 * s), "EDIT GROUND (E)", PALETTE["accent"], title, bold=True
        )
        for button in self.buttons:
            button.draw(canvas, self.preset is not None and self.preset.op == button.action)
        if self.preset is None:
            for row, line in enumerate(HELP):
                canvas.text(
                    (left + 14 * s, top + (76 + row * 22) * s), line, PALETTE["text_dim"], small
                )
            return
        settings = self.settings[self.preset.op]
        self.palette.mark_ranges(self.preset, editing.editor.limits, self._slider)
        for slider in self.preset.sliders:
            slider.draw(canvas, float(settings[slider.key]), slider is self._slider)
        hint = f"click the ground: build the {self.preset.label} there"
        hint_color = PALETTE["text_dim"]
        if self._stopped_by != editing.editor.limits:  # (a rig read since: said of another)
            self._stopped = None
        if self._stopped is not None:  # (below the sliders, in up to three lines)
            hint, hint_color = self._stopped, mix(PALETTE["bad"], PALETTE["text"], 0.4)
        hint_top = _HINT_TOP - (3 - len(self.preset.sliders)) * _SLIDER_ROW  # under the last
        for row, line in enumerate(wrap(canvas, hint, width - 28 * s, small)[:3]):
            at = (left + 14 * s, top + (hint_top + row * _HINT_LINE) * s)
            canvas.text(at, line, hint_color, small)

    def _draw_message(self, canvas: Canvas, message: str) -> None:
        """The editor's last message (a refusal in red) in a box under the panel."""
        s = self.scale
        left, top, width, height = self.panel
        bad = message.startswith(("refused", "not saved", "cannot"))
        color = PALETTE["bad"] if bad else mix(PALETTE["ok"], PALETTE["text"], 0.3)
        size = font_px(17, s)
        lines = wrap(canvas, message, width - 16 * s, size)
        line_h = canvas.text_size("Ag", size)[1]
        box = (left, top + height + 8 * s, width, line_h * len(lines) + 10 * s)
        canvas.panel(box, PALETTE["panel"], 225)
        for row, line in enumerate(lines):
            canvas.text((left + 8 * s, box[1] + 5 * s + row * line_h), line, color, size)

    def _ghost(self, editing: GroundEditing) -> Proposal:
        """What the chosen preset would build at :attr:`ghost_x` (worked out again only
        when the ground, the preset, its settings or the spot change)."""
        assert self.preset is not None and self.ghost_x is not None
        settings = self.settings[self.preset.op]
        key = (editing.terrain, self.preset.op, self.ghost_x, tuple(sorted(settings.items())))
        if self._proposal is None or self._proposal[0] != key:
            values = {"x": self.ghost_x, **settings}
            self._proposal = (key, editing.preview(self.preset.op, values))
        return self._proposal[1]

    def _draw_proposal(
        self, canvas: Canvas, pen: WorldPen, editing: GroundEditing, proposal: Proposal
    ) -> None:
        """The ground ``proposal`` would make where it differs from the current ground
        (green, or a faint red if refused), then where it fails (red) with the reason."""
        old = editing.terrain
        points, refusal = proposal.points, proposal.refusal
        line = None if points is None else ghost_line(old, points)
        if line is not None:
            color = PALETTE["ok"] if refusal is None else mix(PALETTE["bad"], PALETTE["ghost"], 0.4)
            pen.polyline(line, color, 3)
        if refusal is not None:
            self._draw_refusal(canvas, pen, old.points if points is None else points, refusal)

    def _draw_refusal(
        self, canvas: Canvas, pen: WorldPen, ground: Any, refusal: EditRefused
    ) -> None:
        """The failing stretch of ``ground`` (M, 2) in red, the reason above it."""
        ground = np.asarray(ground, dtype=float)
        span = refusal.span
        if span is None:  # the edit as a whole: at the pointer, or not placed at all
            if self.ghost_x is None:
                return
            span = (self.ghost_x, self.ghost_x)
        lo, hi = span
        bad = PALETTE["bad"]
        stretch = _stretch(ground, lo, hi)
        if hi - lo > 1e-6:
            pen.polyline(stretch, bad, 6)
        top = stretch[np.argmax(stretch[:, 1])]
        pen.ring_px(top, 9, bad, 3)
        s = self.scale
        size = font_px(16, s)
        text = str(refusal)
        width = min(canvas.text_size(text, size)[0], 0.45 * canvas.size[0])
        lines = wrap(canvas, text, width, size)
        line_h = canvas.text_size("Ag", size)[1]
        box_w = max(canvas.text_size(line, size)[0] for line in lines) + 12 * s
        box_h = line_h * len(lines) + 8 * s
        x, y = pen.px(top)
        left = min(max(x - box_w / 2, 4 * s), canvas.size[0] - box_w - 4 * s)
        box_top = max(y - 22 * s - box_h, 4 * s)
        canvas.panel((left, box_top, box_w, box_h), PALETTE["panel"], 230)
        for row, line in enumerate(lines):
            canvas.text((left + 6 * s, box_top + 4 * s + row * line_h), line, bad, size)


def ghost_line(old: Terrain, points: NDArray[np.float64]) -> NDArray[np.float64] | None:
    """The stretch of the ground ``points`` (M, 2) an edit would make that differs from
    the ``old`` ground, from the vertex before the first changed one to the one after the
    last (where it leaves the old ground and comes back to it), with ``GHOST_MARGIN_M`` of
    ground either side, its ends interpolated; None if nothing changes."""
    changed = np.abs(old.height_at(points[:, 0]) - points[:, 1]) > 1e-9
    if not changed.any():
        return None
    first, last = np.flatnonzero(changed)[[0, -1]]
    lo = float(points[max(first - 1, 0), 0]) - GHOST_MARGIN_M
    hi = float(points[min(last + 1, len(points) - 1), 0]) + GHOST_MARGIN_M
    return _stretch(points, lo, hi)


def _stretch(points: Any, lo: float, hi: float) -> Any:
    """The polyline ``points`` (M, 2) over ``[lo, hi]`` in x, its ends interpolated."""
    xs, ys = points[:, 0], points[:, 1]
    inner = points[(xs > lo) & (xs < hi)]
    ends = np.array([[lo, np.interp(lo, xs, ys)], [hi, np.interp(hi, xs, ys)]])
    return np.concatenate([ends[:1], inner, ends[1:]])
