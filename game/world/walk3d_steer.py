"""The walker in 3-D's steering (no pygame): the *aim*, the heading the path takes beyond
its anchor, turned toward the wished ground direction, and the share of a walk the 2-D
gait is asked for.

The aim turns at a limited rate (faster from still), and at most :data:`AIM_TWIST` (a
hip's turn) past the heading of a foot the walker stands on, and only
:data:`AIM_TWIST_ACROSS` away from one that trails the pelvis (a body turning away from a
foot behind it swings that foot across behind the other: the legs cross): a sharper turn
takes steps, each foot landing along the turned path, and the body, which faces along the
path, never turns far away from a foot it stands on. A walker the ground holds still
(wishing on at the world's edge, both feet planted) turns on the spot after
:data:`HELD_STILL_S`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from game.world.types import FloatArray
from game.world.walk3d_path import yaw_of

TURN_RATE_WALKING = 2.2  # rad/s the aim turns at walking speed ...
TURN_RATE_STILL = 3.5  # ... and setting off from still
AIM_TWIST = math.radians(70.0)  # the aim turns at most this far past a planted foot's heading ...
AIM_TWIST_ACROSS = math.radians(40.0)  # ... and this far away from a foot trailing the pelvis
TRAILING_M = 0.1  # a planted foot further than this behind the pelvis trails it
TURN_CRAWL = 0.85  # the least share of the wished speed kept while turned away from it
STILL_WISH = 0.05  # a wished speed below this share of a walk is standing still
STILL_SPEED = 0.05  # m/s: slower than this, a walker with both feet planted stands
HELD_STILL_S = 0.4  # wished on this long, standing still: the ground holds him


@dataclass
class Steering:
    """The aim (radians, 0 faces +x, left positive) and how long the walker has wished
    on while standing still (s)."""

    aim: float
    held_still: float = 0.0

    def steer(
        self,
        wish: FloatArray,
        speed: float,
        walk_speed: float,
        planted_headings: FloatArray,
        behind: FloatArray,
        standing: bool,
        dt: float,
    ) -> float:
        """Turn the aim toward the ground direction ``wish`` (x, z); the 2-D walk intent
        (≥ 0: the path frame always faces ahead). ``planted_headings`` (2,): the left
        and right foot's headings, NaN for a foot in the air; ``behind`` (2,): how far
        each foot is behind the pelvis, m; ``standing``: both down."""
        amount = float(min(np.hypot(*wish), 1.0)) if np.all(np.isfinite(wish)) else 0.0
        if amount < STILL_WISH:
            self.held_still = 0.0
            return 0.0
        goal = float(yaw_of(wish))
        error = math.remainder(goal - self.aim, 2 * math.pi)
        still = max(0.0, 1.0 - abs(speed) / walk_speed)
        rate = TURN_RATE_WALKING + (TURN_RATE_STILL - TURN_RATE_WALKING) * still
        held = standing and abs(speed) < STILL_SPEED
        self.held_still = self.held_still + dt if held else 0.0
        low, high = -math.inf, math.inf
        if self.held_still < HELD_STILL_S:
            low, high = self._twist_room(planted_headings, behind)
        turn = min(max(error, -rate * dt, low), rate * dt, high)
        self.aim = math.remainder(self.aim + turn, 2 * math.pi)
        return amount * max(math.cos(error), TURN_CRAWL)

    def _twist_room(self, planted_headings: FloatArray, behind: FloatArray) -> tuple[float, float]:
        """How far the aim may turn, right (≤ 0) and left (≥ 0): past each planted foot's
        heading, :data:`AIM_TWIST` toward that foot's side and away from it, but only
        :data:`AIM_TWIST_ACROSS` away from a foot trailing the pelvis (further behind it
        than :data:`TRAILING_M`); a foot in the air (NaN) holds nothing, and an aim
        already past may only come back."""
        down = ~np.isnan(planted_headings)
        if not down.any():
            return -math.inf, math.inf
        offsets = np.remainder(planted_headings - self.aim + math.pi, 2 * math.pi) - math.pi
        away = np.where(behind > TRAILING_M, AIM_TWIST_ACROSS, AIM_TWIST)
        left_room = np.array([AIM_TWIST, away[1]])  # the left foot's, the right foot's
        right_room = np.array([away[0], AIM_TWIST])
        low = min(float((offsets - right_room)[down].max()), 0.0)
        return low, max(float((offsets + left_room)[down].min()), 0.0)
