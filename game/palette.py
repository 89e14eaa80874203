"""Named colours shared by every scene (a dark theme that reads well in screenshots)."""

from __future__ import annotations

Color = tuple[int, int, int]

PALETTE: dict[str, Color] = {
    "background": (18, 21, 28),
    "grid": (30, 35, 45),
    "grid_major": (40, 47, 60),
    "axis": (70, 80, 100),
    "text": (225, 230, 240),
    "text_dim": (140, 150, 170),
    "panel": (28, 32, 42),
    "panel_edge": (62, 70, 90),
    "accent": (255, 196, 70),
    "reach": (90, 170, 255),
    "dead_zone": (255, 110, 110),
    "soft_band": (120, 220, 170),
    "target": (255, 90, 120),
    "pole": (190, 120, 255),
    "shortfall": (255, 140, 60),
    "bone_upper": (235, 240, 250),
    "bone_lower": (200, 210, 230),
    "ghost": (75, 85, 105),
    "joint": (255, 196, 70),
    "ok": (110, 220, 140),
    "warn": (255, 170, 60),
    "bad": (255, 90, 90),
    "skin": (240, 200, 170),
    "shirt": (70, 140, 230),
    "shirt_far": (40, 85, 150),
    "trousers": (60, 66, 90),
    "trousers_far": (38, 42, 60),
    "ground": (58, 64, 52),
    "ground_edge": (150, 175, 110),
    "wood": (150, 105, 65),
    "metal": (170, 180, 190),
    "white": (255, 255, 255),
    "black": (0, 0, 0),
}


def mix(a: Color, b: Color, t: float) -> Color:
    """Linear blend ``a + (b − a)·t`` (t = 0 gives a), for faint and near/far tints."""
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


def faint(color: Color, strength: float = 0.35) -> Color:
    """``color`` blended toward the background: a cheap stand-in for alpha blending."""
    return mix(PALETTE["background"], color, strength)
