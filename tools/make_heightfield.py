"""Writes assets/heightfield.json, the 3-D walk's ground: a loop of named features round a
20 × 14 m field, heights every 0.1 m (the surface between them bilinear).

    python tools/make_heightfield.py [--out assets/heightfield.json]

Walked anticlockwise from the start (x, z in metres, y up): east along z = 3 over flat
ground, up a gentle 6° slope and over a bump; north along x = 17 across a 10° side slope;
west along z = 11 down three terraces; south along x = 3 over a ramp and back to the start.
"""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path

import numpy as np

SPACING = 0.1
SIZE = (20.0, 14.0)  # x, z extent
PLATEAU = 4.0 * math.tan(math.radians(6.0))  # the gentle slope's rise over 4 m
FEATURES = [
    ("flat", (1.0, 5.0), (1.0, 5.0)),
    ("gentle slope", (5.0, 9.0), (1.0, 5.0)),
    ("bump", (11.0, 13.0), (2.0, 4.0)),
    ("side slope", (15.5, 19.0), (4.0, 10.0)),
    ("terraces", (12.0, 14.5), (9.0, 13.0)),
    ("ramp", (1.0, 5.0), (7.0, 10.5)),
]


def south(x: np.ndarray) -> np.ndarray:
    """The south half's profile along x: flat, the gentle slope up, the plateau."""
    return np.clip((x - 5.0) / 4.0, 0.0, 1.0) * PLATEAU


def north(x: np.ndarray) -> np.ndarray:
    """The north half's profile along x: three 0.14 m terraces 0.7 m deep down to the west."""
    risers = (14.0, 13.3, 12.6)
    return PLATEAU - sum(np.where(x < r, PLATEAU / 3, 0.0) for r in risers)


def ground(x: np.ndarray, z: np.ndarray) -> np.ndarray:
    """Heights at grid points ``(x, z)``."""
    blend = np.clip((z - 6.0) / 2.0, 0.0, 1.0)  # south to north across z = 6 … 8
    h = south(x) * (1 - blend) + north(x) * blend
    r = np.hypot(x - 12.0, z - 3.0)  # the bump: 0.2 m, a raised cosine 1 m in radius
    h += np.where(r < 1.0, 0.1 * (1 + np.cos(np.pi * np.minimum(r, 1.0))), 0.0)
    h += np.clip(x - 15.5, 0.0, None) * math.tan(math.radians(10.0))  # the side slope
    # the ramp, walked along z at x ≈ 3: 12° up over 1.4 m, 0.7 m level, 12° down
    up = math.tan(math.radians(12.0))
    hump = np.minimum(np.clip((z - 7.0) * up, 0, None), np.clip((10.5 - z) * up, 0, None))
    h += np.where((x > 1.0) & (x < 5.0), np.minimum(hump, 1.4 * up), 0.0)
    return h


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("assets/heightfield.json"))
    out = parser.parse_args().out
    xs = np.arange(round(SIZE[0] / SPACING) + 1) * SPACING
    zs = np.arange(round(SIZE[1] / SPACING) + 1) * SPACING
    heights = ground(xs[None, :], zs[:, None])
    data = {
        "name": "the 3-D walk's loop",
        "origin": [0.0, 0.0],
        "spacing": SPACING,
        "features": [{"name": n, "x": list(x), "z": list(z)} for n, x, z in FEATURES],
        "heights": [[round(float(h), 4) for h in row] for row in heights],
    }
    text = json.dumps(data, separators=(",", ":"))
    out.write_text(text.replace("],[", "],\n[") + "\n")
    print(f"{out}: {heights.shape[0]} rows × {heights.shape[1]} columns, {len(text):,} bytes")


if __name__ == "__main__":
    main()
