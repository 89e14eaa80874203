"""The lab: docs/MATH.md's 2-D solve, live, one arm L1 = 2, L2 = 1.2, shoulder at 0.

Drag the target (or use the sliders), flip the elbow side (F or the button), widen the soft
band, and read every intermediate of the closed-form solve in the panel. This module is the
view and the scene's ``SCENE``; the simulation is :mod:`game.scenes.lab_sim`, the overlay's
soft-curve plot :mod:`game.scenes.lab_plot`.
"""

from __future__ import annotations

import math
from typing import Any

import ik
from game.camera import Camera2D
from game.canvas import Canvas, WorldPen
from game.input_state import InputState, RawInput
from game.label_placer import LabelPlacer, Spot, around, label_key
from game.layout import (
    Rect,
    clear_disc,
    font_px,
    intersects,
    ui_scale,
)
from game.palette import PALETTE, faint
from game.profiling import PhaseTimer
from game.scene import SceneSpec
from game.scenes.lab_plot import draw_soft_curve, soft_curve_box
from game.scenes.lab_sim import (
    LOWER_LEN,
    MAX_SOFTNESS,
    ROOT,
    TARGET_RANGE,
    UPPER_LEN,
    LabAutopilot,
    LabSim,
    readout,
)
from game.scenes.panel_rows import draw_rows, draw_status_chip
from game.widgets import Button, Slider, contains, grow

PANEL_WIDTH = 400
VIEW_HALF_M = 4.4  # the view frames ±this many metres about the shoulder
# With the F3 panel over the view, the arm is framed beside it: this disc about the
# shoulder (the reach, 3.2 m, and a margin for the target's cross and the elbow's arc)
# is kept clear of the panel and of the soft-curve plot.
FRAME_RADIUS_M = UPPER_LEN + LOWER_LEN + 0.3


class LabView:
    """Draws the lab: the annulus, the arm and its ghost, the angles, and the readout panel."""

    def __init__(self, sim: LabSim) -> None:
        self.sim = sim
        self.camera = Camera2D()
        self.sliders = [
            Slider("target_x", "target x", -TARGET_RANGE, TARGET_RANGE),
            Slider("target_y", "target y", -TARGET_RANGE, TARGET_RANGE),
            Slider("softness", "softness s", 0.0, MAX_SOFTNESS),
        ]
        self.flip_button = Button("flip_elbow", "Flip elbow side  (F)")
        self._active_slider: Slider | None = None
        self._dragging_target = False
        self.panel_rect = (0.0, 0.0, float(PANEL_WIDTH), 720.0)
        self.scale = 1.0
        # the box the app draws over the view (F3), or None (game.scene.ClearOfHud), and
        # the one the camera was last framed for
        self.hud_cover: Rect | None = None
        self._label_spots: dict[str, int] = {}  # each world label's spot last frame
        self._framed_for: Rect | None = None
        self.layout((1280, 720))

    def layout(self, size: tuple[int, int]) -> None:
        """The panel is designed at 1280x720 and scaled with the window (game.layout)."""
        width, height = max(size[0], 1), max(size[1], 1)
        s = self.scale = ui_scale((width, height))
        panel_w = min(round(PANEL_WIDTH * s), width // 2)
        world_w = max(width - panel_w, 1)
        self.camera.viewport = (0, 0, world_w, height)
        self._frame(None)
        self.panel_rect = (float(world_w), 0.0, float(panel_w), float(height))
        x0 = world_w + 24 * s
        inner = panel_w - 48 * s
        base = height - 190 * s
        for i, slider in enumerate(self.sliders):
            slider.rect, slider.scale = (x0, base + i * 48 * s, inner, 18 * s), s
        self.flip_button.rect = (x0, base + (3 * 48 - 6) * s, inner, 32 * s)
        self.flip_button.scale = s

    def _frame(self, cover: Rect | None) -> None:
        """Frame ±``VIEW_HALF_M`` about the shoulder in the view; with a ``cover`` over
        it (the F3 panel hid the default target and the elbow), the largest disc clear
        of it and of the soft-curve plot holds the ``FRAME_RADIUS_M`` disc instead."""
        camera = self.camera
        left, top, width, height = (float(v) for v in camera.viewport)
        view = (left, top, width, height)
        scale = max(min(width, height) / (2 * VIEW_HALF_M), 1.0)
        centre = (left + width / 2, top + height / 2)
        subject = FRAME_RADIUS_M * scale
        square = (centre[0] - subject, centre[1] - subject, 2 * subject, 2 * subject)
        if cover is not None and intersects(square, cover):
            plot = soft_curve_box(camera.viewport, self.scale)
            centre, radius = clear_disc(view, [cover, plot])
            scale *= min(radius / subject, 1.0)
        camera.scale = scale
        # the shoulder at ``centre``: invert the camera's x ↦ left + w/2 + (x − cx)·scale
        # and y ↦ top + h/2 − (y − cy)·scale
        camera.center_w = (
            ROOT[0] - (centre[0] - left - width / 2) / scale,
            ROOT[1] + (centre[1] - top - height / 2) / scale,
        )
        self._framed_for = cover

    def _value(self, slider: Slider) -> float:
        if slider.key == "softness":
            return self.sim.softness
        return self.sim.target[0 if slider.key == "target_x" else 1]

    def map_input(self, raw: RawInput) -> InputState:
        actions: list[str] = []
        values: dict[str, float] = {}
        actions += ["flip_elbow"] * raw.keys_pressed.count("f")  # each press flips it
        for button, px in raw.clicks:
            if button != 1:
                continue
            if contains(self.flip_button.rect, px):
                actions.append("flip_elbow")
                continue
            hit = next((s for s in self.sliders if contains(grow(s.rect, 10), px)), None)
            if hit is not None:
                self._active_slider = hit
            elif not contains(self.panel_rect, px):
                self._dragging_target = True
        if 1 not in raw.buttons_down:
            self._active_slider = None
            self._dragging_target = False
        if self._active_slider is not None:
            values[self._active_slider.key] = self._active_slider.value_at(raw.pointer_px)
        pointer = tuple(float(v) for v in self.camera.to_world(raw.pointer_px))
        return InputState(
            pointer=pointer,
            pointer_down=self._dragging_target,
            actions=tuple(actions),
            values=values,
        )

    def draw(self, canvas: Canvas, alpha: float, timer: PhaseTimer) -> None:
        if self.hud_cover != self._framed_for:
            self._frame(self.hud_cover)
        canvas.fill(PALETTE["background"])
        pen = WorldPen(canvas, self.camera)
        with timer.phase("ik"):
            target, both = self.sim.pose(alpha)
        _draw_grid(pen, 5)
        self._draw_annulus(pen)
        elbow, hand = both.elbow[0], both.hand[0]
        ghost_elbow, ghost_hand = both.elbow[1], both.hand[1]
        # the root → target line (the base direction φ)
        pen.line(ROOT, target, faint(PALETTE["text_dim"], 0.5), 1)
        # the ghost: the other elbow side for the same target
        pen.bone(ROOT, ghost_elbow, PALETTE["ghost"], 8, 6)
        pen.bone(ghost_elbow, ghost_hand, PALETTE["ghost"], 6, 5)
        pen.ring_px(ghost_elbow, 6, PALETTE["ghost"], 2)
        self._draw_angles(pen, both, target)
        pen.bone(ROOT, elbow, PALETTE["bone_upper"], 20, 14)
        pen.bone(elbow, hand, PALETTE["bone_lower"], 14, 10)
        pen.disc(ROOT, 11, PALETTE["axis"])
        pen.disc(ROOT, 6, PALETTE["joint"])
        pen.disc(elbow, 8, PALETTE["joint"])
        pen.disc(hand, 7, PALETTE["white"])
        shortfall = float(both.shortfall[0])
        if shortfall > 1e-3:
            pen.dashed(hand, target, PALETTE["shortfall"], 2)
        pen.cross(target, 9, PALETTE["target"], 3)
        self._draw_labels(pen, both, target)
        self._draw_panel(canvas, both, target)

    def _placer(self, pen: WorldPen, both: Any, target: tuple[float, float]) -> LabelPlacer:
        """A :class:`LabelPlacer` over the view that keeps labels off both arms, their
        joints, the target's cross, the shortfall's dashes, the soft-curve plot and the F3
        panel (pixel sizes as :meth:`draw` draws them)."""
        left, top, width, height = (float(v) for v in self.camera.viewport)
        placer = LabelPlacer((left, top, width, height), ui_scale(pen.canvas.size))
        root, tip = pen.px(ROOT), pen.px(target)
        for k, (upper, lower) in enumerate(((10.0, 7.0), (4.0, 3.0))):  # the arm, the ghost
            elbow, hand = pen.px(both.elbow[k]), pen.px(both.hand[k])
            placer.block_stroke(root, elbow, upper)
            placer.block_stroke(elbow, hand, lower)
            placer.block_disc(elbow, 8.0)
            placer.block_disc(hand, 7.0)
        placer.block_disc(root, 11.0)
        for sx in (-1.0, 1.0):  # the target's ✕: half-size 9, 3 px bars
            placer.block_stroke((tip[0] - 9, tip[1] - 9 * sx), (tip[0] + 9, tip[1] + 9 * sx), 2.0)
        if float(both.shortfall[0]) > 1e-3:
            placer.block_stroke(pen.px(both.hand[0]), tip, 1.5)
        placer.block(soft_curve_box(self.camera.viewport, self.scale))
        if self.hud_cover is not None:
            placer.block(self.hud_cover)
        return placer

    def _draw_labels(self, pen: WorldPen, both: Any, target: tuple[float, float]) -> None:
        """The world labels, each at the first of its spots clear of the arm, the markers
        and the labels placed before it (so that in the dead zone "shortfall" does not
        sit on the arm and the target's cross): the shortfall, α, θ, then the two circles'."""
        placer = self._placer(pen, both, target)
        labels: list[tuple[list[tuple[float, float]], str, Any, int, list[Spot]]] = []
        shortfall = float(both.shortfall[0])
        if shortfall > 1e-3:
            spots = [("midtop", (0.0, 14.0)), *around((16.0, 30.0, 48.0))]
            labels.append(
                ([target], f"shortfall {shortfall:.2f} m", PALETTE["shortfall"], 18, spots)
            )
        for centre, radius, start, arc, name, color, first in self._angle_arcs(both, target):
            if abs(arc) <= 1e-3:
                continue
            mid = start + arc / 2
            # out along the arc's middle, then outside the bend, then on rings about
            # the joint (at the elbow of a folded arm the inside is all bone)
            points = [
                (centre[0] + r * math.cos(mid), centre[1] + r * math.sin(mid))
                for r in (first, first + 0.25, first + 0.5, 0.5 * radius, -0.4, -0.65)
            ]
            ring = around((24.0, 40.0, 60.0))
            spots = [("center", (0.0, 0.0))] * len(points) + ring
            labels.append((points + [centre] * len(ring), name, color, 22, spots))
        reach = UPPER_LEN + LOWER_LEN
        corners = [(1, -1), (-1, -1), (1, 1), (-1, 1)]  # lower right first, as designed
        points = [(sx * reach / math.sqrt(2), sy * reach / math.sqrt(2)) for sx, sy in corners]
        outward: list[Spot] = [  # the box outside the circle at each of its four diagonals
            (
                ("top" if sy < 0 else "bottom") + ("left" if sx > 0 else "right"),
                (6.0 * sx, -6.0 * sy),
            )
            for sx, sy in corners
        ]
        labels.append((points, "reach L1+L2 = 3.2", faint(PALETTE["reach"], 0.9), 17, outward))
        dead = abs(UPPER_LEN - LOWER_LEN)
        labels.append(
            (
                [(0.0, -dead), (0.0, dead)],
                "dead zone |L1−L2| = 0.8",
                faint(PALETTE["dead_zone"], 0.9),
                16,
                [("midtop", (0.0, 6.0)), ("midbottom", (0.0, -6.0))],
            )
        )
        s = placer.scale
        kept, self._label_spots = self._label_spots, {}
        for points, text, color, size, spots in labels:
            if len(points) == 1:
                points = points * len(spots)
            box = pen.canvas.text_size(text, font_px(size, s))
            key = label_key(text)
            best = placer.place([pen.px(p) for p in points], box, spots, keep=kept.get(key))
            self._label_spots[key] = best
            anchor, offset = spots[best]
            pen.text(points[best], text, color, size, anchor, offset)

    def _draw_annulus(self, pen: WorldPen) -> None:
        reach = UPPER_LEN + LOWER_LEN
        dead = abs(UPPER_LEN - LOWER_LEN)
        soft = self.sim.softness
        if soft > 0:
            # the soft band [L − s, L]: a thick ring whose width is s
            band_px = max(int(pen.camera.length_px(soft)), 1)
            pen.circle(ROOT, reach - soft / 2, faint(PALETTE["soft_band"], 0.12), band_px)
            pen.circle(ROOT, reach - soft, faint(PALETTE["soft_band"], 0.7), 1)
        pen.disc(ROOT, pen.camera.length_px(dead), faint(PALETTE["dead_zone"], 0.12))
        pen.circle(ROOT, reach, faint(PALETTE["reach"], 0.8), 2)
        pen.circle(ROOT, dead, faint(PALETTE["dead_zone"], 0.8), 2)

    def _angle_arcs(
        self, both: Any, target: tuple[float, float]
    ) -> list[tuple[tuple[float, float], float, float, float, str, Any, float]]:
        """α at the shoulder and θ at the elbow: per arc its centre, radius, start angle
        and signed sweep (radians), name, colour and where its label goes (metres from
        the centre)."""
        phi = math.atan2(target[1] - ROOT[1], target[0] - ROOT[0])
        upper = float(both.upper_angle[0])
        lower = float(both.lower_angle[0])
        elbow = (float(both.elbow[0][0]), float(both.elbow[0][1]))
        # interior angle θ at the elbow, between the elbow→root and elbow→hand directions
        back = upper + math.pi
        return [
            (ROOT, 0.7, phi, _signed_delta(phi, upper), "α", PALETTE["accent"], 0.95),
            (elbow, 0.45, back, _signed_delta(back, lower), "θ", PALETTE["soft_band"], 0.7),
        ]

    def _draw_angles(self, pen: WorldPen, both: Any, target: tuple[float, float]) -> None:
        """Arcs for α at the shoulder and θ at the elbow (labelled by :meth:`_draw_labels`)."""
        for centre, radius, start, arc, _, color, _ in self._angle_arcs(both, target):
            if abs(arc) > 1e-3:
                pen.arc(centre, radius, start, start + arc, color, 2)

    def _draw_panel(self, canvas: Canvas, both: Any, target: tuple[float, float]) -> None:
        x, y, w, h = self.panel_rect
        s = self.scale
        canvas.rect((x, y, w, h), PALETTE["panel"])
        canvas.line((x, y), (x, y + h), PALETTE["panel_edge"], 1)
        left = x + 24 * s
        row = y + 22 * s
        canvas.text((left, row), "Solve it live", PALETTE["text"], font_px(34, s), bold=True)
        row += 36 * s
        subtitle = "analytic two-bone IK · L1 = 2, L2 = 1.2"
        canvas.text((left, row), subtitle, PALETTE["text_dim"], font_px(18, s))
        row += 34 * s
        r = readout(UPPER_LEN, LOWER_LEN, target, float(both.reach[0]))
        code = ik.Status(int(both.status[0]))
        status = code.name.lower().replace("_", " ")
        if code == ik.Status.SOFTENED and r.d > UPPER_LEN + LOWER_LEN:
            status += " · too far"  # softened takes precedence; the target is out of reach too
        cos_color = PALETTE["bad"] if r.clamped else PALETTE["text"]
        rows: list[tuple[str, str, Any]] = [
            ("d = |t − s|", f"{r.d:.3f} m", PALETTE["text"]),
            ("d used (soft + clamp)", f"{r.d_used:.3f} m", PALETTE["text"]),
            (
                "cos θ raw",
                f"{r.cos_theta_raw:+.3f}" + ("  clamped" if r.clamped else ""),
                cos_color,
            ),
            ("θ elbow (interior)", f"{math.degrees(r.theta):7.2f}°", PALETTE["soft_band"]),
            ("φ aim = atan2(t − s)", f"{math.degrees(r.phi):7.2f}°", PALETTE["text"]),
            ("α shoulder offset", f"{math.degrees(r.alpha):7.2f}°", PALETTE["accent"]),
            (
                "upper bone φ ± α",
                f"{math.degrees(float(both.upper_angle[0])):7.2f}°",
                PALETTE["text"],
            ),
            ("elbow side", "+1 (ccw)" if self.sim.bend > 0 else "−1 (cw)", PALETTE["text"]),
            ("shortfall", f"{float(both.shortfall[0]):.3f} m", PALETTE["shortfall"]),
        ]
        row = draw_rows(canvas, rows, left, x + w - 24 * s, row, 25 * s, s)
        row += 6 * s
        ok = int(both.status[0]) == int(ik.Status.REACHED)
        draw_status_chip(canvas, f"status: {status}", ok, left, row, s)
        row += 40 * s
        formula = [
            "cos θ = (L1² + L2² − d²) / (2·L1·L2)",
            "cos α = (L1² + d² − L2²) / (2·L1·d)",
            "d := clamp(d, |L1 − L2|, L1 + L2)",
        ]
        for line in formula:
            canvas.text((left, row), line, faint(PALETTE["text"], 0.75), font_px(18, s))
            row += 22 * s
        for slider in self.sliders:
            slider.draw(canvas, self._value(slider), slider is self._active_slider)
        self.flip_button.draw(canvas, False)

    def draw_overlay(self, canvas: Canvas, alpha: float) -> None:
        """The lab's annulus and angles are the scene itself; the overlay adds the soft curve."""
        d_now = math.dist(ROOT, self.sim.target)
        draw_soft_curve(canvas, self.sim.softness, d_now, self.camera.viewport, self.scale)


def _signed_delta(start: float, stop: float) -> float:
    """The signed angle from ``start`` to ``stop`` wrapped into (−π, π]."""
    return (stop - start + math.pi) % (2 * math.pi) - math.pi


def _draw_grid(pen: WorldPen, half_extent: int) -> None:
    """A 1 m grid with heavier axes, spanning ±half_extent metres."""
    for i in range(-half_extent, half_extent + 1):
        color = PALETTE["axis"] if i == 0 else PALETTE["grid"]
        pen.line((i, -half_extent), (i, half_extent), color, 1)
        pen.line((-half_extent, i), (half_extent, i), color, 1)


SCENE = SceneSpec(
    name="lab",
    title="Lab: solve it live",
    controls=(
        ("drag", "move the target (x marker)"),
        ("sliders", "set target x / y and the softness s"),
        ("F / button", "flip the elbow side (the other solution)"),
    ),
    create=LabSim,
    view=LabView,
    autopilot=LabAutopilot,
)
