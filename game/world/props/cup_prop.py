"""The live cup (no pygame): lifted from where it stands by a hand
(:class:`LiftGrip`), carried clear of the table top, set down where a click says
(:class:`PlaceGrip`: upright on a spot where it stands, clear of the feet, or the nearest
one on the same surface in reach), and falling onto its surface when let go above it. Where
it may stand is :class:`~game.world.props.scenery.Props`'s (the table top or level enough
ground). A place it cannot be set (a slope too steep, a surface out of reach) is refused,
and why is said at the place (:attr:`CupProp.refused`).

Phases (:class:`CupPhase`)::

    STANDING ──lifted──▶ CARRIED ──set down──▶ STANDING
                            └──let go above its spot──▶ FALLING ──lands──▶ STANDING
"""

from __future__ import annotations

import math
from enum import Enum
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from game.wording import a_or_an
from game.world.props.base import FLAT_TOLERANCE_M, Body, Intent
from game.world.props.cup import CUP_MAX_SLOPE, FEET_CLEAR_M, REFUSED_S, SNAP_M
from game.world.props.grip import OnGrip, within
from game.world.props.reach import PropHands
from game.world.props.table_reach import on_table_top, table_stand
from game.world.rig import Rig
from game.world.terrain import Terrain
from game.world.terrain_edit import EditRefused, Footprint
from game.world.types import FloatArray

if TYPE_CHECKING:
    from game.world.props.scenery import Props

GRAVITY = 9.81  # m/s², for a cup let go above its surface
PLACE_GIVE_UP_S = 3.5  # reaching this long to set the cup down, he gives up and stands with it
CUP_CLEAR_M = 0.03  # a carried cup keeps this far off the table top
LIFT_OVER_M = 0.1  # ... and one rising beside it is wanted this much higher ...
LIFT_ASIDE_M = 0.05  # ... and this much further out (see CupProp.carry_point)
TABLE_OUT_OF_REACH = "out of his reach from either end of the table"


class CupPhase(Enum):
    """The cup's state (see the module's table)."""

    STANDING = "standing"
    CARRIED = "carried"
    FALLING = "falling"


class LiftGrip:
    """The cup where it stands, as a hand's goal: taken into the hand."""

    name = "cup"
    reach_fraction = 0.9
    low = True
    by_carrying_hand = False
    on_grip = OnGrip.TAKE
    give_up_s = math.inf

    def __init__(self, cup: CupProp) -> None:
        self.owner = cup

    def point(self) -> FloatArray:
        return self.owner.bottom + np.array([0.0, self.owner.props.cup.grip])

    def hand_goal(self, shoulder: FloatArray, reach: float) -> FloatArray:
        return within(shoulder, self.point(), reach)

    def follow(self, shoulder: FloatArray, rig: Rig) -> float | None:
        return None  # never held on to

    def let_go(self, shoulder: FloatArray, rig: Rig) -> bool:
        return True

    def stuck(self, shoulder: FloatArray, reach: float, terrain: Terrain) -> bool:
        """The cup stays where it stands: the hand goes as near as it reaches; on the table
        top out of reach from either end, it is refused there (False)."""
        if self.owner.within_reach(self.point(), self.reach_fraction, terrain):
            return True
        self.owner.refuse(self.owner.bottom, TABLE_OUT_OF_REACH)
        return False

    def settle(self, feet: tuple[float, float], facing: float, terrain: Terrain) -> None:
        """The cup stays where it stands."""

    def gripped(self, hand: FloatArray) -> None:
        """Taken: the hands carry it."""


class PlaceGrip:
    """A spot to set the carried cup down (its bottom centre ``place`` (2,)), as the
    carrying hand's goal."""

    name = "place"
    reach_fraction = 0.9
    low = True
    by_carrying_hand = True
    on_grip = OnGrip.LEAVE
    give_up_s = PLACE_GIVE_UP_S

    def __init__(self, cup: CupProp, place: FloatArray) -> None:
        self.owner = cup
        self.place = place

    def point(self) -> FloatArray:
        return self.place + np.array([0.0, self.owner.props.cup.grip])

    def hand_goal(self, shoulder: FloatArray, reach: float) -> FloatArray:
        """The spot itself within ``reach`` of the shoulder; beyond it and below the
        shoulder, straight above the spot as low as the arm goes (the cup falls onto it)."""
        goal = self.point()
        dx = float(goal[0] - shoulder[0])
        below = goal[1] < shoulder[1] and float(np.hypot(*(goal - shoulder))) > reach
        if abs(dx) < reach and below:
            # Pythagoras: at dx from the shoulder the arm reaches down √(R² − dx²)
            lowest = float(shoulder[1]) - math.sqrt(reach * reach - dx * dx)
            return np.array([float(goal[0]), max(float(goal[1]), lowest)])
        return within(shoulder, goal, reach)

    def follow(self, shoulder: FloatArray, rig: Rig) -> float | None:
        return None  # never held on to

    def let_go(self, shoulder: FloatArray, rig: Rig) -> bool:
        return True

    def stuck(self, shoulder: FloatArray, reach: float, terrain: Terrain) -> bool:
        """The spot nearest the wanted one (in x) on the same surface that the hand at
        ``shoulder`` can set the cup on: within ``reach``, or below the shoulder (crouching,
        or let fall). None there (the loft's top from the floor below): refused, and said
        at the wanted spot; False."""
        props = self.owner.props
        if not self.owner.within_reach(self.point(), self.reach_fraction, terrain):
            self.owner.refuse(self.place, TABLE_OUT_OF_REACH)
            return False
        xs = float(shoulder[0]) + np.linspace(-reach, reach, 49)
        ys = props.surfaces(xs, terrain)
        grip = ys + props.cup.grip
        ok = (np.hypot(xs - shoulder[0], grip - shoulder[1]) <= reach) | (grip < shoulder[1])
        ok &= props.stands_at(xs, terrain) & self._same_surface(xs, ys)
        if not ok.any():
            self.owner.refuse(self.place, "out of his reach from here: not set down there")
            return False
        best = int(np.argmin(np.where(ok, np.abs(xs - self.place[0]), np.inf)))
        self.place = np.array([xs[best], ys[best]])
        return True

    def _same_surface(self, xs: FloatArray, ys: FloatArray) -> NDArray[np.bool_]:
        """Points (``xs``, ``ys``) on the wanted spot's surface: no higher or lower than a
        slope the cup stands on rises over the way."""
        rise = np.abs(xs - float(self.place[0])) * math.tan(CUP_MAX_SLOPE) + FLAT_TOLERANCE_M
        return np.abs(ys - float(self.place[1])) <= rise

    def settle(self, feet: tuple[float, float], facing: float, terrain: Terrain) -> None:
        """Move a spot on the floor ahead of the toes (``feet``: the soles' span in x), or,
        where the ground ahead is not the spot's (a wall, a step), behind the heels: a cup
        set down on the feet hid behind the shoes."""
        props = self.owner.props
        toe, heel = (feet[1], feet[0]) if facing > 0 else (feet[0], feet[1])
        clear = FEET_CLEAR_M + props.cup.radius
        ahead, behind = toe + facing * clear, heel - facing * clear
        if (ahead - self.place[0]) * facing <= 0.0 or (self.place[0] - behind) * facing <= 0.0:
            return  # clear of the feet already
        for x in (ahead, behind):
            xs = np.array([x])
            ys = props.surfaces(xs, terrain)
            if self._same_surface(xs, ys)[0] and props.stands_at(xs, terrain)[0]:
                self.place = np.array([x, float(ys[0])])
                return

    def gripped(self, hand: FloatArray) -> None:
        """Let go: the cup's bottom under the hand (it falls onto its spot from there)."""
        self.owner.bottom = hand - np.array([0.0, self.owner.props.cup.grip])


class CupProp:
    """The live cup: its bottom centre ``bottom`` (2,), world metres, and its fall; ``rig``
    the hero's, whose hands reach for it."""

    name = "cup"
    rolls = False

    def __init__(self, props: Props, hands: PropHands, rig: Rig) -> None:
        self.props = props
        self.hands = hands
        self.rig = rig
        self.bottom = props.cup.home.copy()
        self.vy = 0.0
        self.lift = LiftGrip(self)
        self.refused: tuple[FloatArray, str] | None = None  # a place refused and why
        self._refused_s = 0.0  # ... said there this long more
        self._under: tuple[Terrain, float, float, float] | None = None  # see _heights_under

    def refuse(self, place: FloatArray, why: str) -> None:
        """Setting it down at ``place`` (2,) is refused: ``why`` is said there for
        ``REFUSED_S``."""
        self.refused = (np.array(place, dtype=float), why)
        self._refused_s = REFUSED_S

    @property
    def held(self) -> bool:
        """A hand carries it."""
        return self.hands.carried is self and self.hands.holding >= 0

    @property
    def phase(self) -> CupPhase:
        if self.held:
            return CupPhase.CARRIED
        return CupPhase.FALLING if self.vy != 0.0 else CupPhase.STANDING

    def under(self, point: FloatArray, radius: float) -> bool:
        height = self.props.cup.height
        centre = self.bottom + np.array([0.0, height / 2])
        return float(np.hypot(*(point - centre))) <= radius + height / 2

    def use(self) -> None:
        if not self.held:
            self.hands.reach_for(self.lift)

    def within_reach(self, point: FloatArray, fraction: float, terrain: Terrain) -> bool:
        """Whether a hand reaching ``fraction`` of the arm gets to ``point`` (2,): anywhere
        but on the table top out of reach from either end (leaning over it as far as the
        torso clears its top, :mod:`~game.world.props.table_reach`)."""
        table = self.props.table
        if not on_table_top(table, point):
            return True
        reach = fraction * self.rig.arms.limb.reach
        return table_stand(table, self.rig, terrain, point, reach, float(point[0])) is not None

    def cancel(self) -> None:
        if self.busy:
            self.hands.cancel()

    @property
    def busy(self) -> bool:
        grip = self.hands.grip
        return grip is not None and grip.owner is self

    def intent(self, body: Body, terrain: Terrain, dt: float) -> Intent:
        """Resting on the ground, the feet step over it (not on it)."""
        return Intent(keep_off=self._on_the_ground(terrain))

    def _on_the_ground(self, terrain: Terrain) -> bool:
        return not self.held and float(self.bottom[1]) <= self._heights_under(terrain)[0] + 1e-6

    def _heights_under(self, terrain: Terrain) -> tuple[float, float]:
        """The ground's height under the cup's x on ``terrain``, and the surface's it rests
        on there (:meth:`Props.surface_at`: the table top or the ground). Asked every step
        of a cup standing still: kept while its x and the terrain (never changed in place:
        an edit makes a new one) stay the same."""
        x = float(self.bottom[0])
        kept = self._under
        if kept is None or kept[0] is not terrain or kept[1] != x:
            ground = float(terrain.height_at(x))
            kept = self._under = (terrain, x, ground, self.props.surface_at(x, terrain))
        return kept[2], kept[3]

    def advance(self, body: Body, terrain: Terrain, dt: float) -> None:
        """In a hand it goes with the hand; let go above its surface it falls onto it. A
        refusal is said for its time."""
        self._refused_s = max(self._refused_s - dt, 0.0)
        if self._refused_s <= 0.0:
            self.refused = None
        if self.held:
            self.bottom = body.hands[self.hands.holding] - np.array([0.0, self.props.cup.grip])
            self.vy = 0.0
            return
        surface = self._heights_under(terrain)[1]
        if self.bottom[1] > surface:
            self.vy -= GRAVITY * dt
            self.bottom[1] = max(self.bottom[1] + self.vy * dt, surface)
        if self.bottom[1] <= surface:
            self.bottom[1], self.vy = surface, 0.0

    def centre(self) -> FloatArray:
        return self.bottom + np.array([0.0, self.props.cup.height / 2])

    def footprint(self) -> FloatArray:
        """Its width, handle and all, and its rim's height: one row ``(x0, x1, top)``."""
        x, y = float(self.bottom[0]), float(self.bottom[1])
        spec = self.props.cup
        return np.array([[x - spec.half_width, x + spec.half_width, y + spec.height]])

    def grounds(self) -> tuple[Footprint, ...]:
        """The table's legs' stretch of ground."""
        table = self.props.table
        return (Footprint("table", table.x0, table.x0 + table.width, table.base),)

    def check_ground(self, old: Terrain, new: Terrain) -> None:
        """Resting on the ground, it must stand on the new ground (flush and no steeper than
        it takes, :meth:`Props.stands_at`), never on a face."""
        if not self._on_the_ground(old):
            return
        x = float(self.bottom[0])
        if not bool(self.props.stands_at(np.array([x]), new)[0]):
            spec = self.props.cup
            raise EditRefused(
                f"the cup stands at x {x:.2f}: it would not stand on this ground (move it first)",
                (x - 1.15 * spec.radius, x + spec.half_width),
            )

    def follow_ground(self, old: Terrain, new: Terrain) -> None:
        """Resting on the ground, it moves with it (up or down, at once)."""
        if self._on_the_ground(old):
            self.bottom[1] = float(new.height_at(float(self.bottom[0])))

    # -- carried (reach.Carried) -------------------------------------------------------
    def carry_point(self, shoulder: FloatArray, facing: float, other_busy: bool) -> FloatArray:
        """Where the carrying hand goes: in front of the hip, or, while the other hand goes
        for something, down by the thigh (carried in front, the near hand's cup hid the far
        hand on the knob); kept out of the table top (:meth:`_clear_of_table`)."""
        carry = shoulder + np.array([0.2 * facing, -0.38])
        if other_busy:
            carry = shoulder + np.array([0.05 * facing, -0.5])
        return self._clear_of_table(carry)

    def _clear_of_table(self, grip: FloatArray) -> FloatArray:
        """Where the hand carrying the cup goes instead of ``grip`` so the cup keeps out of
        the table top: over the table, at least ``CUP_CLEAR_M`` above it; and a cup still
        below the top (just lifted off the floor beside the table) goes up beside the
        table's nearer end first, over the top only once above it."""
        table, spec = self.props.table, self.props.cup
        left, _, right, top = table.top_box()
        reach = spec.half_width + CUP_CLEAR_M  # a cup centre nearer the slab than this touches it
        x, y = float(grip[0]), float(grip[1])
        if not left - reach < x < right + reach:
            return grip
        above = top + CUP_CLEAR_M  # the lowest a cup over the table is held
        if float(self.bottom[1]) < above:  # below it: rise beside the nearer end first
            side = reach + LIFT_ASIDE_M
            x = left - side if float(self.bottom[0]) < (left + right) / 2 else right + side
            above += LIFT_OVER_M
        return np.array([x, max(y, above + spec.grip)])

    def place_grip(self, x: float, terrain: Terrain) -> PlaceGrip | None:
        """Setting it down at ``x``: at the nearest spot within ``SNAP_M`` where it stands
        upright; None, and why said at the place, if there is none (a slope too steep) or a
        hand does not reach it (the table top's middle, from either end)."""
        grip, refusal = self._placing(x, terrain)
        if refusal is not None:
            self.refuse(*refusal)
        return grip

    def refusal_at(self, x: float, terrain: Terrain) -> str | None:
        """Why a click at ``x`` would not set it down there (what :meth:`place_grip` says),
        or None where it would: the pointer's tip says so before the click."""
        refusal = self._placing(x, terrain)[1]
        return None if refusal is None else refusal[1]

    def _placing(
        self, x: float, terrain: Terrain
    ) -> tuple[PlaceGrip | None, tuple[FloatArray, str] | None]:
        """:meth:`place_grip`'s grip, or None with the place and the reason to say there."""
        props = self.props
        spot = props.standing_spot(x, terrain, SNAP_M)
        if spot is None:
            place = np.array([x, props.surface_at(x, terrain)])
            slope = props.slope_deg(x, terrain)
            limit = math.degrees(CUP_MAX_SLOPE)
            degrees = f"{slope:.0f}"
            why = f"{a_or_an(degrees)} {degrees}° slope: the cup stands on {limit:.0f}° at most"
            return None, (place, why if slope > limit else "no level spot here for the cup")
        grip = PlaceGrip(self, np.array([spot, props.surface_at(spot, terrain)]))
        if not self.within_reach(grip.point(), grip.reach_fraction, terrain):
            return None, (grip.place, TABLE_OUT_OF_REACH)
        return grip, None
