"""Reading a walk-in-3-D trace back, checked against its contract (no pygame).

Header: ``{"scene": "walk3d", "dt", "terrain": null, "heightfield": {"origin": [x0, z0],
"spacing": s, "heights": [[...], ...]}, "limbs": {name: {"upper", "lower"}}}``. Each step:
``{"step", "t", "characters": [{"id", "pelvis": [x, y, z], "yaw", "pointer": [x, y, z] |
null, "limbs": {name: {"root", "mid", "end", "target", "pole" (or null), "planted"}}}]}``,
each leg's limb also ``"foot"`` with the seven sole points of
:data:`game.world.walk3d_body.SOLE_POINTS`, all ``[x, y, z]``.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np

from game.world.heightfield import Heightfield
from game.world.walk3d_body import SOLE_POINTS

HEADER_KEYS = {"scene", "dt", "terrain", "heightfield", "limbs"}
CHARACTER_KEYS = {"id", "pelvis", "yaw", "pointer", "limbs"}
LIMB_KEYS = {"root", "mid", "end", "target", "pole", "planted"}


def _point(value: Any, where: str) -> None:
    ok = isinstance(value, list) and len(value) == 3
    if not ok or not all(isinstance(v, int | float) and math.isfinite(v) for v in value):
        raise ValueError(f"{where}: expected [x, y, z] of finite numbers, found {value!r}")


def _check_header(header: dict[str, Any]) -> None:
    if set(header) != HEADER_KEYS or header["scene"] != "walk3d":
        raise ValueError(f"header: expected keys {sorted(HEADER_KEYS)} of scene walk3d")
    field = header["heightfield"]
    if set(field) != {"origin", "spacing", "heights"} or len(field["origin"]) != 2:
        raise ValueError("header.heightfield: expected origin [x0, z0], spacing, heights")
    for name, limb in header["limbs"].items():
        if set(limb) != {"upper", "lower"} or min(limb.values()) <= 0:
            raise ValueError(f"header.limbs.{name}: expected positive upper and lower")


def _check_limb(limb: dict[str, Any], where: str) -> None:
    leg = limb.get("planted") is not None
    if set(limb) != LIMB_KEYS | ({"foot"} if leg else set()):
        raise ValueError(f"{where}: expected keys {sorted(LIMB_KEYS)} (and foot on a leg)")
    for key in ("root", "mid", "end", "target"):
        _point(limb[key], f"{where}.{key}")
    if limb["pole"] is not None:
        _point(limb["pole"], f"{where}.pole")
    if leg:
        if set(limb["foot"]) != set(SOLE_POINTS):
            raise ValueError(f"{where}.foot: expected the points {', '.join(SOLE_POINTS)}")
        for name in SOLE_POINTS:
            _point(limb["foot"][name], f"{where}.foot.{name}")


def _check_step(rec: dict[str, Any], number: int, limbs: set[str]) -> None:
    where = f"step {number}"
    if set(rec) != {"step", "t", "characters"} or rec["step"] != number:
        raise ValueError(f"{where}: expected step, t and characters, numbered in order")
    for char in rec["characters"]:
        if set(char) != CHARACTER_KEYS or not math.isfinite(char["yaw"]):
            raise ValueError(f"{where}: expected a character's keys {sorted(CHARACTER_KEYS)}")
        _point(char["pelvis"], f"{where}.pelvis")
        if char["pointer"] is not None:
            _point(char["pointer"], f"{where}.pointer")
        if set(char["limbs"]) != limbs:
            raise ValueError(f"{where}: expected the limbs {sorted(limbs)}")
        for name, limb in char["limbs"].items():
            _check_limb(limb, f"{where}.{name}")


def read_trace(path: str | Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The header and the step records of a walk3d trace; ``ValueError`` naming the step
    and key where it breaks the contract."""
    lines = Path(path).read_text().splitlines()
    header = json.loads(lines[0])
    _check_header(header)
    steps = [json.loads(line) for line in lines[1:]]
    for number, rec in enumerate(steps, start=1):
        _check_step(rec, number, set(header["limbs"]))
    return header, steps


def heightfield_of(header: dict[str, Any]) -> Heightfield:
    """The trace header's ground."""
    field = header["heightfield"]
    origin = (float(field["origin"][0]), float(field["origin"][1]))
    return Heightfield(origin, float(field["spacing"]), np.asarray(field["heights"], dtype=float))
