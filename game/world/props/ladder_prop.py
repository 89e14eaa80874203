"""The ladder as a prop of the walk scene (no pygame): an adapter over
:class:`~game.world.props.ladder.LadderClimb` through its public names.

W near the ladder's foot (or S near its top, on the loft) walks the hero to where he climbs
on and turns him there; standing settled there, the climb takes him over: each step its
pose replaces the gait's (:attr:`~game.world.props.base.Intent.pose`) until he steps off at
the foot or onto the loft. He does not climb with the cup in hand, and says so.

Phases (:class:`LadderPhase`)::

    OFF ──W at the foot / S at the loft's top, settled──▶ CLIMBING ──stepped off──▶ OFF
"""

from __future__ import annotations

import math
from enum import Enum

import numpy as np

from game.world.easing import finite_clamp
from game.world.props.base import Body, Intent
from game.world.props.ladder import LOFT_DEPTH_M, Ladder, LadderClimb
from game.world.rig import Rig
from game.world.terrain import Terrain
from game.world.terrain_edit import Footprint
from game.world.types import FloatArray

LADDER_NEAR_M = 1.5  # W this close to the ladder's climbing spot walks there and climbs
LADDER_SPOT_M = 0.03  # within this of a climbing spot the hero has arrived there
LOFT_LEVEL_M = 0.05  # ground this close to the loft's height beyond its edge is the loft
REFUSED_HINT_S = 0.4  # W held at the foot with the cup in hand this long, he says why
HANDS_FULL_HINT = "hands full: set the cup down to climb"


class LadderPhase(Enum):
    """Whether the climb has the hero (see the module's table)."""

    OFF = "off"
    CLIMBING = "climbing"


class LadderProp:
    """The live ladder: ``climb`` (:class:`LadderClimb`) is the hero on it."""

    name = "ladder"
    rolls = False

    def __init__(self, ladder: Ladder, rig: Rig) -> None:
        self.ladder = ladder
        self.climb = LadderClimb(ladder, rig)
        self._refused_s = 0.0  # seconds W has been held at the foot with the cup in hand

    @property
    def phase(self) -> LadderPhase:
        return LadderPhase.CLIMBING if self.climb.active else LadderPhase.OFF

    def on_it(self, point: FloatArray, radius: float) -> bool:
        """``point`` (2,) is on the ladder's rails or rungs (within ``radius`` aside)."""
        ladder = self.ladder
        beside = abs(point[0] - ladder.x) <= ladder.width / 2 + radius
        return beside and ladder.base <= point[1] <= ladder.base + ladder.height

    def under(self, point: FloatArray, radius: float) -> bool:
        return False  # climbed with W and S, not clicked

    def use(self) -> None:
        """Not clicked."""

    def cancel(self) -> None:
        """The walking keys do not take him off the ladder: W and S do."""

    @property
    def busy(self) -> bool:
        return self.climb.active

    def on_loft(self, x: float, terrain: Terrain) -> bool:
        """The hero at ``x`` stands on the loft by the ladder's top."""
        loft = self.ladder.loft
        if loft is None:
            return False
        return x > float(loft[0]) and bool(
            abs(float(terrain.height_at(x)) - float(loft[1])) < LOFT_LEVEL_M
        )

    def near_foot(self, x: float, terrain: Terrain) -> bool:
        """Within ``LADDER_NEAR_M`` of the foot's climbing spot, off the loft (W walks
        there)."""
        near = abs(self.climb.spot_x - x) <= LADDER_NEAR_M
        return near and not self.on_loft(x, terrain)

    def _by_foot(self, x: float) -> bool:
        """At the foot's climbing spot or anywhere past it up to the rungs' line, under the
        ladder: the gait stops him 16 cm past the spot at the wall beneath the ladder."""
        return self.climb.spot_x - LADDER_SPOT_M <= x <= self.ladder.x

    def _at_loft_top(self, body: Body, terrain: Terrain) -> bool:
        """On the loft with his back to the ladder (facing +x), at its top's climbing spot
        or right of it within ``LADDER_NEAR_M``: he climbs down from there, stepping back
        to the spot first."""
        spot = self.climb.loft_spot_x
        if spot is None or body.facing < 0 or not self.on_loft(body.x, terrain):
            return False
        return -LADDER_SPOT_M <= body.x - spot <= LADDER_NEAR_M

    def intent(self, body: Body, terrain: Terrain, dt: float) -> Intent:
        """On the ladder (or getting on now): the climb's pose this step; off it, the walk
        to where he climbs on while W (S on the loft) is held."""
        climb = self.climb
        if not climb.active and not self._mount(body, terrain):
            return self._approach(body, terrain, dt)
        stepped_off = climb.step(float(finite_clamp(body.climb, -1.0, 1.0)), dt, body.run)
        pose = climb.pose(body.rig)
        # stepped off: he stands beside the foot, or on the loft
        return Intent(
            pose=pose, pelvis=climb.pelvis, stand_at=climb.ends[2:] if stepped_off else None
        )

    def _mount(self, body: Body, terrain: Terrain) -> bool:
        """Get on when W is held settled at the foot facing it, or S settled at the loft's
        top; never with the cup in hand."""
        if not body.settled or body.hands_full:
            return False
        if body.climb > 0.5 and body.facing > 0 and self._by_foot(body.x):
            self.climb.mount(body.feet_targets, body.hands, body.pelvis)
        elif body.climb < -0.5 and self._at_loft_top(body, terrain):
            self.climb.mount_from_loft(body.feet_targets, body.hands, body.pelvis)
        else:
            return False
        return True

    def _approach(self, body: Body, terrain: Terrain, dt: float) -> Intent:
        """Walk to the climbing spot and turn to face +x there (the ladder at its foot; on
        the loft, his back to it: he backs over the rails); the climb begins once he has
        settled (a facing flipped at once on the loft would slide the planted feet)."""
        refused = body.climb > 0.5 and body.hands_full and self.near_foot(body.x, terrain)
        self._refused_s = self._refused_s + dt if refused else 0.0
        says = HANDS_FULL_HINT if self._refused_s >= REFUSED_HINT_S else None
        blocked = self._blocked_why(body, terrain)
        if body.hands_full:
            return Intent(says=says, blocked_why=blocked)
        on_loft = self.on_loft(body.x, terrain)
        if body.climb > 0.5 and not on_loft:
            spot: float | None = self.climb.spot_x
            there = self._by_foot(body.x)
        elif body.climb < -0.5 and on_loft:
            spot, there = self.climb.loft_spot_x, self._at_loft_top(body, terrain)
        else:
            return Intent(blocked_why=blocked)
        assert spot is not None
        dx = spot - body.x
        if abs(dx) > LADDER_NEAR_M:
            return Intent(blocked_why=blocked)
        if there or abs(dx) <= LADDER_SPOT_M:
            walk = 0.1 if body.facing < 0 else 0.0  # facing away: a pivot where he stands
        else:
            walk = math.copysign(min(max(abs(dx) / 0.6, 0.12), 1.0), dx)
        return Intent(walk=walk, walk_to=spot, blocked_why=blocked)

    def _blocked_why(self, body: Body, terrain: Terrain) -> str | None:
        """What stops a walk by the ladder: the loft's edge (on the ladder's side), or the
        wall under the loft (the ladder: W climbs it)."""
        if body.facing < 0 and self.on_loft(body.x, terrain):
            return "the loft's edge: S by the ladder climbs down"
        if body.facing > 0 and self.near_foot(body.x, terrain):
            return HANDS_FULL_HINT if body.hands_full else "W climbs the ladder"
        return None

    def advance(self, body: Body, terrain: Terrain, dt: float) -> None:
        """The climb moves in :meth:`intent`."""

    def centre(self) -> FloatArray | None:
        return None  # it stands still: no trace entry

    def footprint(self) -> FloatArray:
        ladder = self.ladder
        half = ladder.width / 2
        return np.array([[ladder.x - half, ladder.x + half, ladder.base + ladder.height]])

    def grounds(self) -> tuple[Footprint, ...]:
        """Its foot, and the loft it leans on (room to stand beyond its edge)."""
        ladder = self.ladder
        half = ladder.width / 2
        prints = [Footprint("ladder", ladder.x - half, ladder.x + half, ladder.base)]
        if ladder.loft is not None:
            edge, level = float(ladder.loft[0]), float(ladder.loft[1])
            prints.append(Footprint("loft by the ladder", edge, edge + LOFT_DEPTH_M, level))
        return tuple(prints)

    def check_ground(self, old: Terrain, new: Terrain) -> None:
        """Its ground is kept by :meth:`grounds`."""

    def follow_ground(self, old: Terrain, new: Terrain) -> None:
        """Its ground does not move."""
