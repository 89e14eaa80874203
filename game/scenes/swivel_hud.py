"""The swivel scene's 2-D HUD: the side panel (the solve's figures, the status, the
pole–axis angle's meter, the explanation, the twist slider), and over the view the legend,
the axes gizmo and the notice that the pole plane flipped."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

import ik
from game.canvas import Canvas
from game.layout import Rect, font_px, wrap
from game.palette import PALETTE, Color, faint, mix
from game.projection import OrbitCamera
from game.scenes.panel_rows import draw_rows, draw_status_chip
from game.scenes.swivel import DANGER_ANGLE, Pose, SwivelFrame, SwivelSim
from game.scenes.swivel_scenery import AXIS_COLORS
from game.widgets import Slider

LEGEND = (
    ("accent", "swivel circle: every elbow that reaches"),
    ("ghost", "a few of those arms"),
    ("pole", "pole plane, pole and its lever"),
    ("soft_band", "twist about the axis"),
    ("bad", "danger cone around the axis"),
    ("shortfall", "shortfall when out of reach"),
)
EXPLANATION = (
    "Reach fixes d, and d fixes the triangle (θ and α). In 3-D the triangle can still "
    "turn about the shoulder-to-target axis: every elbow on the gold circle puts the hand "
    "on the target.",
    "The pole vector picks one: the elbow goes in the plane through shoulder, target and "
    "pole, on the pole's side. Twist turns it further about the axis.",
    "Near the axis that plane is ill-defined: a tiny pole move swings the elbow across. "
    "Keep poles well off the axis.",
)
FALLBACK_NOTE = (
    "Pole exactly on the axis: no plane. solve_3d falls back to the world axis least "
    "aligned with the shoulder-to-target direction, made perpendicular to it (orange), "
    "and reports DEGENERATE."
)


def gizmo_rect(view_rect: Rect, scale: float) -> Rect:
    """The axes gizmo's box (:func:`draw_gizmo`), in the bottom-left corner of ``view_rect``."""
    left, top, _, height = view_rect
    s = scale
    return (left + 4 * s, top + height - 110 * s, 96 * s, 96 * s)


def draw_gizmo(canvas: Canvas, camera: OrbitCamera, view_rect: Rect, scale: float) -> None:
    """World axes as ``camera`` sees them, in the bottom-left corner of ``view_rect``."""
    left, top, _, height = view_rect
    s = scale
    origin = np.array([left + 52.0 * s, top + height - 62.0 * s])
    basis = camera.basis
    canvas.circle(tuple(origin), 40 * s, mix(PALETTE["background"], PALETTE["panel"], 0.8))
    # far axes first: an axis pointing away from the eye has a positive forward component
    for k in sorted(range(3), key=lambda k: -basis[2][k]):
        # the world axis e_k on screen: (right·e_k, −up·e_k), pixels are y-down
        axis = np.array([basis[0][k], -basis[1][k]])
        tip = origin + 32.0 * s * axis
        color = AXIS_COLORS[k] if basis[2][k] <= 0 else faint(AXIS_COLORS[k], 0.55)
        canvas.line(tuple(origin), tuple(tip), color, 3)
        label_at = origin + 42.0 * s * axis
        canvas.text(tuple(label_at), "xyz"[k], color, font_px(17, s), "center", True)


def legend_rect(canvas: Canvas, view_rect: Rect, scale: float) -> Rect:
    """Where the legend goes: the view's top-left corner (under the scene tabs)."""
    left, top, _, _ = view_rect
    s = scale
    size = font_px(15, s)
    row_h = canvas.text_size("Ag", size)[1] + 4 * s
    text_w = max(canvas.text_size(text, size)[0] for _, text in LEGEND)
    return (left + 12.0 * s, top + 66.0 * s, text_w + 46 * s, row_h * len(LEGEND) + 12 * s)


def draw_legend(canvas: Canvas, view_rect: Rect, scale: float) -> Rect:
    """What each colour means, in the view's top-left corner (under the scene tabs)."""
    s = scale
    size = font_px(15, s)
    row_h = canvas.text_size("Ag", size)[1] + 4 * s
    box = legend_rect(canvas, view_rect, scale)
    canvas.panel(box, PALETTE["panel"], 200)
    for i, (color_name, text) in enumerate(LEGEND):
        y = box[1] + 6 * s + row_h * i + row_h / 2
        canvas.rect((box[0] + 10 * s, y - 3 * s, 18 * s, 6 * s), PALETTE[color_name], 0, 3)
        canvas.text((box[0] + 36 * s, y), text, PALETTE["text"], size, "midleft")
    return box


def draw_flip_banner(canvas: Canvas, sim: SwivelSim, view_rect: Rect, scale: float) -> None:
    """A notice for one and a half seconds after the pole plane flipped, at the bottom of
    the view right of the axes gizmo (the legend owns the top-left, messages the
    bottom-right)."""
    flip = sim.last_flip_step
    if flip is None or sim.step_index - flip > round(1.5 / sim.dt):
        return
    left, top, width, height = view_rect
    s = scale
    size = font_px(20, s)
    text = "the plane flipped: the pole crossed the shoulder-to-target axis"
    box_left = left + 104 * s
    lines = wrap(canvas, text, left + width * 0.58 - box_left - 28 * s, size, True)
    line_h = canvas.text_size("Ag", size, True)[1] + 2 * s
    w = max(canvas.text_size(line, size, True)[0] for line in lines)
    box_h = line_h * len(lines) + 14 * s
    box = (box_left, top + height - box_h - 16 * s, w + 28 * s, box_h)
    canvas.panel(box, PALETTE["panel"], 230)
    canvas.rect(box, PALETTE["bad"], 1, 6)
    for i, line in enumerate(lines):
        at = (box_left + 14 * s, box[1] + 7 * s + line_h * (i + 0.5))
        canvas.text(at, line, PALETTE["bad"], size, "midleft", True)


def draw_panel(
    canvas: Canvas,
    panel_rect: Rect,
    scale: float,
    twist: tuple[Slider, bool],
    pose: Pose,
    sol: Any,
    frame: SwivelFrame,
) -> None:
    """The side panel: the title, the solve's figures, the status, the pole–axis angle's
    meter, the explanation, the twist slider (``twist``: the slider and whether it is
    held) and the controls."""
    slider, held = twist
    x, y, w, h = panel_rect
    s = scale
    canvas.rect((x, y, w, h), PALETTE["panel"])
    canvas.line((x, y), (x, y + h), PALETTE["panel_edge"], 1)
    left, right = x + 24 * s, x + w - 24 * s
    row = y + 20 * s
    canvas.text((left, row), "The pole vector", PALETTE["text"], font_px(34, s), bold=True)
    row += 34 * s
    subtitle = "ik.solve_3d · L1 = 2, L2 = 1.2"
    canvas.text((left, row), subtitle, PALETTE["text_dim"], font_px(18, s))
    row += 30 * s
    status = ik.Status(int(sol.status))
    angle_deg = math.degrees(frame.pole_angle)
    danger = frame.pole_angle < DANGER_ANGLE
    rows: list[tuple[str, str, Color]] = [
        ("d = |t − s|", f"{float(sol.distance):.3f} m", PALETTE["text"]),
        ("reach used", f"{float(sol.reach):.3f} m", PALETTE["text"]),
        ("α shoulder offset", f"{math.degrees(frame.alpha):6.1f}°", PALETTE["accent"]),
        (
            "θ elbow (interior)",
            f"{math.degrees(float(sol.elbow_angle)):6.1f}°",
            PALETTE["text"],
        ),
        ("swivel radius L1·sin α", f"{frame.radius:.3f} m", PALETTE["accent"]),
        ("twist", f"{math.degrees(pose.twist):+6.1f}°", PALETTE["soft_band"]),
        ("shortfall", f"{float(sol.shortfall):.3f} m", PALETTE["shortfall"]),
    ]
    row = draw_rows(canvas, rows, left, right, row, 23 * s, s)
    row += 6 * s
    chip_text = f"status: {status.name.lower().replace('_', ' ')}"
    draw_status_chip(canvas, chip_text, status == ik.Status.REACHED, left, row, s)
    row += 36 * s
    row = _draw_danger_meter(canvas, left, right, row, angle_deg, danger, frame.fallback, s)
    row += 12 * s
    _draw_explanation(canvas, slider, left, right, row, s)
    slider.draw(canvas, math.degrees(pose.twist), held)
    hint = "left-drag a locator · W/S depth · Tab select · Q/E twist · right-drag orbit · wheel zoom · R reset"
    hint_px = font_px(15, s)
    for i, line in enumerate(wrap(canvas, hint, right - left, hint_px)):
        canvas.text((left, y + h - 52 * s + 17 * s * i), line, PALETTE["text_dim"], hint_px)


def _draw_explanation(
    canvas: Canvas, slider: Slider, left: float, right: float, row: float, scale: float
) -> None:
    """The paragraphs that fit between ``row`` and the twist slider's label (whole
    paragraphs only: a tall danger note pushes the last ones out)."""
    s = scale
    size = font_px(17, s)
    line_h = 19 * s
    bottom = slider.rect[1] - slider.label_height(canvas) - 8 * s
    for paragraph in EXPLANATION:
        lines = wrap(canvas, paragraph, right - left, size)
        if row + line_h * len(lines) > bottom:
            return
        for line in lines:
            canvas.text((left, row), line, faint(PALETTE["text"], 0.8), size)
            row += line_h
        row += 6 * s


def _draw_danger_meter(
    canvas: Canvas,
    left: float,
    right: float,
    row: float,
    angle_deg: float,
    danger: bool,
    fallback: bool,
    scale: float,
) -> float:
    """A 0–90° bar of the pole–axis angle with the danger zone marked; returns the next row."""
    s = scale
    if fallback:
        verdict, color = "on axis: fallback", PALETTE["bad"]
    elif danger:
        verdict, color = "plane unstable", PALETTE["bad"]
    else:
        verdict, color = "plane stable", PALETTE["ok"]
    heading_px = font_px(19, s)
    for line in wrap(
        canvas, f"pole–axis angle: {angle_deg:.1f}° — {verdict}", right - left, heading_px, True
    ):
        canvas.text((left, row), line, color, heading_px, bold=True)
        row += 22 * s
    row += 4 * s
    width = right - left
    danger_w = width * math.degrees(DANGER_ANGLE) / 90.0
    canvas.rect((left, row, width, 10 * s), PALETTE["grid_major"], 0, 4)
    canvas.rect((left, row, danger_w, 10 * s), mix(PALETTE["panel"], PALETTE["bad"], 0.55), 0, 4)
    marker = left + width * min(angle_deg, 90.0) / 90.0
    canvas.rect((marker - 2 * s, row - 4 * s, 4 * s, 18 * s), color, 0, 2)
    tick_px = font_px(14, s)
    canvas.text((left, row + 14 * s), "0° axis", PALETTE["text_dim"], tick_px)
    canvas.text((right, row + 14 * s), "90°", PALETTE["text_dim"], tick_px, "topright")
    row += 32 * s
    if fallback:
        note_px = font_px(16, s)
        for line in wrap(canvas, FALLBACK_NOTE, right - left, note_px):
            canvas.text((left, row), line, PALETTE["warn"], note_px)
            row += 18 * s
    return row
