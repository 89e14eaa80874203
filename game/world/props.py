"""Props of the walk scene (a door with a knob, a table with a cup, a ladder) and the hero's
hands using them: walk within reach, ease the nearer hand on (halflife), carry and set down
the cup. No pygame.

Props stand on the terrain: the loader puts each one's base at the ground height under it
and rejects a prop whose footprint is not flat (a table on the stairs would float).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numpy.typing import ArrayLike, NDArray

from game.assets import read_json
from game.world.easing import halflife_blend, smoothstep
from game.world.rig import Rig
from game.world.schema import Fields, Range
from game.world.terrain import Terrain

FloatArray = NDArray[np.float64]
ARMS = slice(0, 2)  # arm rows of the (4, ...) limb arrays (as in game.world.character)
CUP_MAX_TILT = math.radians(25.0)  # a cup stands on ground no steeper than this
FLAT_TOLERANCE_M = 0.01  # a footprint whose ground varies more than this is not flat
REACH_FRACTION = 0.9  # the hero stops walking once the goal is this fraction of arm reach away
GRAVITY = 9.81  # m/s², for a cup let go above its surface
HOLD_KNOB_S = 0.6  # a hand rests on the knob at least this long (then until the door is open)
KNOB_TURN_S = 0.2  # ... turning it this long before the door moves
# A knob is reached for at this fraction of arm reach, not REACH_FRACTION: he stops for it
# with his shoulders dipped by the braking step (pelvis 0.83 m against 0.95 standing), and
# standing up the knob was 0.554 m from the shoulder, over 0.9 of the 0.58 m arm: the hand
# hung 3 cm short of it for the 1.5 s LOW_REACH_WAIT_S before it held on there
KNOB_REACH_FRACTION = 0.97
DOOR_SWING_RAD = math.radians(75.0)  # the door's widest opening about its hinge
DOOR_SWING_S = 1.0  # the door swings fully open, or shut, in this long
DOOR_STAY_S = 2.5  # it stands open this long after the knob is let go, then swings shut
DOORWAY_M = 0.15  # ... nor while he stands within this of its shut panel's span ...
DOORWAY_STAY_S = 0.5  # ... and stays open this long after he leaves it
DOOR_PUSH_S = 1.6  # ... held by the knob, it opens as fast as he steps after it
KNOB_LEAD_S = 0.3  # he steps for where the knob will be this much later
KNOB_FOLLOW_M = 0.15  # ... at full walk when it is this far beyond his reach, slower nearer
RELEASE_S = 0.35  # a freed hand eases back this long before the gait's arm swing takes it
PLACE_GIVE_UP_S = 3.5  # reaching this long to set the cup down, he gives up and stands with it
LOW_REACH_WAIT_S = 1.5  # a crouch takes 0.7 s: a goal still out of reach then is reached as near as
# the arm goes (the cup falls onto a spot down a step)
STUCK_S = 0.6  # walking to a goal stopped this long by ground (a wall), he reaches from there
FLOOR_CLEAR_M = 0.5  # the hero stops this close to a spot below the hand's reach ...
FEET_CLEAR_M = 0.03  # ... and the cup drops at least this far ahead of the toes
LOFT_SEARCH_M = 0.4  # a loft's edge must begin this close beyond the ladder's far rail
LOFT_MIN_HEIGHT_M = 0.5  # ... this much above the ladder's base
LOFT_DEPTH_M = 0.8  # ... and stay flat this far, room to stand
LOFT_RUNG_TOLERANCE_M = 0.06  # ... level with a rung to within this
TABLE_OVERHANG_M = 0.05  # the table top reaches this far past its ends ...
TABLE_TOP_THICK_M = 0.05  # ... and is this thick (as drawn; solid to a carried cup)
CUP_CLEAR_M = 0.03  # a carried cup keeps this far off the table top
LIFT_OVER_M = 0.1  # ... and one rising beside it is wanted this much higher ...
LIFT_ASIDE_M = 0.05  # ... and this much further out (see _carried_clear_of_table)

_WORLD_X = Range(-10_000.0, 10_000.0, "m")  # as the terrain's x; inside it is checked too
PROPS_RANGES: dict[str, Range] = {
    # every numeric field of props.json and its documented physical range
    "reach_halflife": Range(0.001, 5.0, "s"),
    "grip_tolerance": Range(0.0001, 0.5, "m"),
    "door.x": _WORLD_X,
    "door.width": Range(0.3, 5.0, "m"),
    "door.height": Range(0.5, 10.0, "m"),
    "table.x": _WORLD_X,
    "table.width": Range(0.2, 10.0, "m"),
    "table.height": Range(0.2, 3.0, "m"),
    "cup.x": _WORLD_X,
    "cup.height": Range(0.01, 1.0, "m"),
    "cup.radius": Range(0.005, 0.5, "m"),
    "cup.grip": Range(0.0, 1.0, "m"),
    "ladder.x": _WORLD_X,
    "ladder.width": Range(0.1, 2.0, "m"),
    "ladder.height": Range(0.5, 30.0, "m"),
    "ladder.first_rung": Range(0.05, 30.0, "m"),
    "ladder.rung_spacing": Range(0.1, 1.0, "m"),
}


@dataclass(frozen=True, slots=True)
class Door:
    """A door standing on the ground: its left edge ``x0``, ``width``, ``height``, and the
    knob's world point."""

    x0: float
    base: float
    width: float
    height: float
    knob: FloatArray  # (2,)


@dataclass(frozen=True, slots=True)
class Table:
    """A table: ``x0``…``x0 + width`` on the ground at ``base``, top at ``top``."""

    x0: float
    base: float
    width: float
    top: float

    def top_box(self) -> tuple[float, float, float, float]:
        """The table top's slab (left, bottom, right, top), metres: what a cup keeps out of."""
        return (
            self.x0 - TABLE_OVERHANG_M,
            self.top - TABLE_TOP_THICK_M,
            self.x0 + self.width + TABLE_OVERHANG_M,
            self.top,
        )


@dataclass(frozen=True, slots=True)
class CupSpec:
    """The cup's size, where its bottom starts, and the grip point's height above it."""

    home: FloatArray  # (2,) bottom centre at start
    height: float
    radius: float
    grip: float

    @property
    def half_width(self) -> float:
        """How far the cup reaches either side of its centre line, handle and all (the
        handle's ring, drawn 1.5 radii out, is 0.3 of the height across)."""
        return 1.5 * self.radius + 0.3 * self.height


@dataclass(frozen=True, slots=True)
class Ladder:
    """A vertical ladder: rails at ``x ± width/2`` from ``base`` up ``height``.

    Attributes
    ----------
    rungs : ndarray, shape (K,)
        World y of each rung, bottom first.
    loft : ndarray, shape (2,), or None
        Where the ground the ladder leans on begins at its top: the wall's top edge
        ``(x, y)`` beyond the rails, level (within ``LOFT_RUNG_TOLERANCE_M``) with the rung
        ``loft_rung``; None for a free-standing ladder (no stepping off at the top).
    loft_rung : int
        The rung level with the loft, or −1.
    """

    x: float
    base: float
    width: float
    height: float
    rungs: FloatArray
    loft: FloatArray | None = None
    loft_rung: int = -1


@dataclass(frozen=True, slots=True, eq=False)
class Props:
    """Every prop of the scene and the reach settings."""

    door: Door
    table: Table
    cup: CupSpec
    ladder: Ladder
    reach_halflife: float
    grip_tolerance: float

    def place_for_click(self, point: ArrayLike) -> float:
        """The x a click at ``point`` (world) sets the cup down at: where it is, but a click
        under the table top (the floor beneath the table) puts it on the floor just clear of
        the table's nearer end, not on the table's edge above the click."""
        x, y = (float(v) for v in np.asarray(point, dtype=float)[:2])
        table = self.table
        x1 = table.x0 + table.width
        if not (table.x0 <= x <= x1 and y < table.top - self.cup.height):
            return x
        clear = self.cup.radius + FEET_CLEAR_M
        return table.x0 - clear if x - table.x0 < x1 - x else x1 + clear

    def surface_at(self, x: float, terrain: Terrain) -> float:
        """The height something set down at ``x`` rests on: the table top or the ground."""
        return float(self.surfaces(np.array([x]), terrain)[0])

    def surfaces(self, xs: FloatArray, terrain: Terrain) -> FloatArray:
        """:meth:`surface_at` of each of ``xs``."""
        table = self.table
        on_table = (xs >= table.x0) & (xs <= table.x0 + table.width)
        return np.where(on_table, table.top, terrain.height_at(xs))

    def stands_at(self, xs: FloatArray, terrain: Terrain) -> NDArray[np.bool_]:
        """Whether the cup set down at each of ``xs`` stands: the surface under it as drawn
        (1.15 radii left, the handle's ring to :attr:`CupSpec.half_width` right) within
        ``FLAT_TOLERANCE_M`` of one plane, not across a table's end or on a wall's face (a
        riser's 1-2 cm of width gives heights between floor and top: set down by the loft's
        wall, the cup hung on its face in mid-air, playtest 12)."""
        cup = self.cup
        across = np.linspace(-1.15 * cup.radius, cup.half_width, 5)
        heights = self.surfaces(np.asarray(xs)[None, :] + across[:, None], terrain)
        # flush on a plane: off the straight line through its ends by at most the tolerance
        # (on a slope it stands tilted with it: held level, a corner sank 2.5 cm into the
        # steep slope, playtest 13), and no steeper than CUP_MAX_TILT
        ends = heights[0], heights[-1]
        slope = (ends[1] - ends[0]) / (across[-1] - across[0])
        line = ends[0] + slope * (across - across[0])[:, None]
        flush = np.abs(heights - line).max(axis=0) <= FLAT_TOLERANCE_M
        return flush & (np.abs(slope) <= math.tan(CUP_MAX_TILT))

    def cup_outline(self, bottom: ArrayLike, tilt: float = 0.0) -> FloatArray:
        """The cup as drawn, world points (5, 2): its body's four corners (base left and
        right, rim right and left) and its handle ring's centre, for its bottom centre at
        ``bottom`` (2,), tilted ``tilt`` radians with its base."""
        r, h = self.cup.radius, self.cup.height
        local = np.array([[-r, 0.0], [r, 0.0], [1.15 * r, h], [-1.15 * r, h], [1.5 * r, 0.55 * h]])
        cos, sin = math.cos(tilt), math.sin(tilt)
        turned = local @ np.array([[cos, sin], [-sin, cos]])
        return np.asarray(bottom, dtype=float) + turned

    def tilt_at(self, x: float, terrain: Terrain) -> float:
        """The angle (radians, counter-clockwise) a cup resting at ``x`` stands at: the
        surface's slope under its base."""
        r = self.cup.radius
        left, right = self.surfaces(np.array([x - r, x + r]), terrain)
        return math.atan2(float(right - left), 2.0 * r)

    def standing_spot(self, x: float, terrain: Terrain) -> float:
        """The x nearest ``x`` where the cup stands (:meth:`stands_at`), in 5 mm steps up to
        a metre either way; ``x`` itself if none does."""
        offsets = np.arange(1, 201) * 0.005
        xs = x + np.concatenate([[0.0], np.ravel(np.column_stack([-offsets, offsets]))])
        ok = self.stands_at(xs, terrain)
        return float(xs[np.argmax(ok)]) if ok.any() else x

    def prop_at(
        self, point: ArrayLike, cup: ArrayLike, radius: float, knob: ArrayLike | None = None
    ) -> str | None:
        """``"knob"``, ``"cup"``, ``"door"`` or ``"ladder"`` when ``point`` (2,) is on that
        prop (the knob, at ``knob`` (2,) if the door stands open, else the door's, and the
        cup, whose bottom is at ``cup`` (2,), within ``radius``; the door: its shut panel,
        which a click opens by the knob), else None."""
        p = np.asarray(point, dtype=float)
        knob_at = self.door.knob if knob is None else np.asarray(knob, dtype=float)
        if float(np.hypot(*(p - knob_at))) <= radius:
            return "knob"
        cup_centre = np.asarray(cup, dtype=float) + np.array([0.0, self.cup.height / 2])
        if float(np.hypot(*(p - cup_centre))) <= radius + self.cup.height / 2:
            return "cup"
        door = self.door
        shut = knob is None or bool(np.allclose(knob_at, door.knob))
        on_door = door.x0 <= p[0] <= door.x0 + door.width and door.base <= p[1]
        if shut and on_door and p[1] <= door.base + door.height:
            return "door"
        ladder = self.ladder
        on_ladder = abs(p[0] - ladder.x) <= ladder.width / 2 + radius
        if on_ladder and ladder.base <= p[1] <= ladder.base + ladder.height:
            return "ladder"
        return None


def _flat_base(fields: Fields, terrain: Terrain, name: str, x0: float, x1: float) -> float:
    """The ground height under ``[x0, x1]``; an error names ``name.x`` if it is not flat."""
    xs = np.linspace(x0, x1, 9)
    ground = terrain.height_at(xs)
    lo, hi = terrain.x_range
    if x0 < lo or x1 > hi:
        raise fields.error(f"{name}.x", f"expected the prop inside the terrain [{lo:g}, {hi:g}]")
    if float(ground.max() - ground.min()) > FLAT_TOLERANCE_M:
        raise fields.error(
            f"{name}.x",
            f"expected flat ground under [{x0:g}, {x1:g}], found heights "
            f"{float(ground.min()):.3f} … {float(ground.max()):.3f}",
        )
    return float(ground.max())


def load_props(path: str | Path, terrain: Terrain) -> Props:
    """Read and validate a props file against ``terrain`` (every base on flat ground).

    Raises :class:`game.assets.AssetError` naming the file and the key.
    """
    fields = Fields(path, read_json(path), ranges=PROPS_RANGES)
    door_f = fields.section("door")
    x0 = door_f.number("x")
    width, height = door_f.length("width"), door_f.length("height")
    base = _flat_base(fields, terrain, "door", x0, x0 + width)
    knob = _pair(door_f, "knob")
    if not (0.0 <= knob[0] <= width and 0.0 <= knob[1] <= height):
        raise door_f.error("knob", f"expected a point inside the door (0…{width:g}, 0…{height:g})")
    door = Door(x0, base, width, height, np.array([x0 + knob[0], base + knob[1]]))

    table_f = fields.section("table")
    tx = table_f.number("x")
    t_width, t_height = table_f.length("width"), table_f.length("height")
    t_base = _flat_base(fields, terrain, "table", tx, tx + t_width)
    table = Table(tx, t_base, t_width, t_base + t_height)

    cup_f = fields.section("cup")
    cx = cup_f.number("x")
    if not tx <= cx <= tx + t_width:
        raise cup_f.error("x", f"expected the cup on the table top [{tx:g}, {tx + t_width:g}]")
    cup = CupSpec(
        np.array([cx, table.top]),
        cup_f.length("height"),
        cup_f.length("radius"),
        cup_f.length("grip"),
    )

    ladder_f = fields.section("ladder")
    lx = ladder_f.number("x")
    l_width, l_height = ladder_f.length("width"), ladder_f.length("height")
    l_base = _flat_base(fields, terrain, "ladder", lx - l_width / 2, lx + l_width / 2)
    first, spacing = ladder_f.length("first_rung"), ladder_f.length("rung_spacing")
    if first >= l_height:
        raise ladder_f.error("first_rung", f"expected a height below the top ({l_height:g})")
    rungs = l_base + np.arange(first, l_height + 1e-9, spacing)
    loft, loft_rung = _loft(terrain, lx + l_width / 2, l_base, rungs)
    ladder = Ladder(lx, l_base, l_width, l_height, rungs, loft, loft_rung)
    props = Props(
        door,
        table,
        cup,
        ladder,
        fields.length("reach_halflife"),
        fields.length("grip_tolerance"),
    )
    fields.optional("name", "")  # a label for the reader
    fields.reject_unknown()  # a misspelt key is an error, not a silent default
    return props


def _loft(
    terrain: Terrain, rail_x: float, base: float, rungs: FloatArray
) -> tuple[FloatArray | None, int]:
    """The loft by the ladder's top: ground within ``LOFT_SEARCH_M`` beyond the far rail
    ``rail_x`` that is flat for ``LOFT_DEPTH_M``, well above the base and level with a rung.
    Returns its edge point and that rung, or ``(None, -1)``."""
    xs = rail_x + np.arange(0.0, LOFT_SEARCH_M, 0.01)
    ground = terrain.height_at(xs)
    risen = np.flatnonzero(ground > base + LOFT_MIN_HEIGHT_M)
    if risen.size == 0:
        return None, -1
    # the wall's face rises over a few centimetres: the edge is where it reaches its top
    level = float(terrain.height_at(xs[risen[0]] + 0.1))
    on_top = np.flatnonzero(ground >= level - FLAT_TOLERANCE_M / 2)
    edge = float(xs[on_top[0]]) if on_top.size else float(xs[risen[0]] + 0.1)
    top = terrain.height_at(np.linspace(edge, edge + LOFT_DEPTH_M, 12))
    level = float(top[0])
    if np.abs(top - level).max() > FLAT_TOLERANCE_M:
        return None, -1
    rung = int(np.argmin(np.abs(rungs - level)))
    if abs(float(rungs[rung]) - level) > LOFT_RUNG_TOLERANCE_M:
        return None, -1
    return np.array([edge, level]), rung


def _pair(fields: Fields, name: str) -> FloatArray:
    """A ``[x, y]`` pair of finite numbers."""
    value = fields.raw(name)
    ok = (
        isinstance(value, list)
        and len(value) == 2
        and all(isinstance(v, int | float) and not isinstance(v, bool) for v in value)
        and all(math.isfinite(float(v)) for v in value)
    )
    if not ok:
        raise fields.error(name, "expected a point [x, y] of two finite numbers")
    return np.asarray(value, dtype=float)


def _door_angle(swing: float) -> float:
    """How far a door ``swing`` (0 shut … 1 open) through its swing stands open about its
    hinge, radians (each swing eased in and out)."""
    return DOOR_SWING_RAD * float(smoothstep(min(max(swing, 0.0), 1.0)))


def _arm_allowance(shoulder: FloatArray, goal: FloatArray, reach: float) -> float:
    """How far horizontally ``goal`` may be from ``shoulder`` for a hand to reach it."""
    dy = float(goal[1] - shoulder[1])
    # Pythagoras: within a circle of radius R, at height dy the reach is √(R² − dy²)
    return math.sqrt(max(reach * reach - dy * dy, 0.0))


def _within(shoulder: FloatArray, goal: FloatArray, reach: float) -> FloatArray:
    """``goal`` pulled onto the circle of radius ``reach`` round ``shoulder`` if beyond it."""
    offset = goal - shoulder
    distance = float(np.hypot(*offset))
    return goal if distance <= reach else shoulder + offset * (reach / distance)


class PropHands:
    """The hero's hands on the props: one goal at a time, and the cup.

    A goal (``"knob"``, ``"cup"``, or ``"place"`` with a surface point) first makes the hero
    walk until the goal is within ``REACH_FRACTION`` of arm reach of the hand's shoulder,
    then that hand's target eases onto it with the props' ``reach_halflife``. A goal below
    the standing arm's reach (the floor) stops him with it ahead of his toes, and he crouches
    for it (the walk scene); one no crouch brings within reach is reached as near as the arm
    goes after ``LOW_REACH_WAIT_S``, and a cup let go there falls onto its spot.

    Attributes
    ----------
    cup : ndarray, shape (2,)
        The cup's bottom centre (world).
    holding : int
        The arm (0 left, 1 right) holding the cup, or −1.
    goal : str or None
        The current goal; ``hand`` the arm engaged (−1 none), ``phase`` one of
        ``"walk"``, ``"reach"``, ``"hold"``, ``"release"``, ``""``.
    door_swing : float
        How far through its swing the door is, 0 shut to 1 open (:attr:`door_angle`):
        a hand that has turned the knob (``KNOB_TURN_S`` of its hold) opens it, and
        ``DOOR_STAY_S`` after the hand lets go it swings shut, each swing in
        ``DOOR_SWING_S`` (held by the knob, opening, in ``DOOR_PUSH_S``: his pace).
    """

    def __init__(self, props: Props) -> None:
        self.props = props
        self.cup = props.cup.home.copy()
        self.cup_vy = 0.0
        self.holding = -1
        self.goal: str | None = None
        self.place = np.zeros(2)
        self.hand = -1
        self.phase = ""
        self.phase_time = 0.0
        self.reaches = 0  # goals completed (knob touched, cup lifted, cup set down)
        self.door_swing = 0.0
        self._door_stay = 0.0  # seconds the door stays open before swinging shut
        self._engaged: frozenset[int] = frozenset()  # arms this object drove last step

    @property
    def engaged(self) -> frozenset[int]:
        """The arms (0 left, 1 right) the props drove this step: the pointer leaves them."""
        return self._engaged

    # -- commands ----------------------------------------------------------------------
    def command(self, action: str, value: object, terrain: Terrain) -> None:
        """``reach_prop`` with ``"knob"``/``"cup"``, or ``put_down`` with a world x."""
        if action == "reach_prop" and value in ("knob", "cup"):
            if value == "cup" and self.holding >= 0:
                return
            self._set_goal(str(value))
        elif action == "put_down" and self.holding >= 0 and isinstance(value, int | float):
            x = float(value)
            if math.isfinite(x):
                x = self.props.standing_spot(x, terrain)
                self.place = np.array([x, self.props.surface_at(x, terrain)])
                self._set_goal("place")

    def cancel(self) -> None:
        """Drop the goal (the player took the controls); a held cup stays held."""
        if self.goal is not None:
            if self.phase in ("reach", "hold"):
                self._release()
            else:
                self.goal = None
                self._idle()

    def _set_goal(self, goal: str) -> None:
        if self.phase in ("reach", "hold") and self.hand != self.holding:
            self.hand = -1
        self.goal = goal
        self.phase = "walk"
        self.phase_time = 0.0

    def _idle(self) -> None:
        self.phase, self.hand = "", -1

    def _release(self) -> None:
        self.goal = None
        self.phase = "release" if self.hand >= 0 and self.hand != self.holding else ""
        self.phase_time = 0.0

    # -- per step ----------------------------------------------------------------------
    @property
    def door_angle(self) -> float:
        """How far the door stands open about its hinge, radians (each swing eased in and
        out)."""
        return _door_angle(self.door_swing)

    @property
    def door_hinge_x(self) -> float:
        """The door's hinge: the edge away from the knob."""
        door = self.props.door
        right = door.knob[0] - door.x0 < door.width / 2
        return door.x0 + door.width if right else door.x0

    @property
    def knob(self) -> FloatArray:
        """The knob's world point (2,) as the door stands."""
        return self._knob_at(self.door_swing)

    def _knob_at(self, swing: float) -> FloatArray:
        """The knob's world point (2,) with the door at ``swing``: seen from the side, a
        door open by an angle shows its cosine of the knob's distance from the hinge."""
        knob, hinge = self.props.door.knob, self.door_hinge_x
        if swing <= 0.0:
            return knob  # shut: where the door has it, to the bit
        return np.array([hinge + (knob[0] - hinge) * math.cos(_door_angle(swing)), knob[1]])

    def goal_point(self) -> FloatArray | None:
        """Where the engaged hand is to go (the grip point), or None."""
        if self.goal == "knob":
            return self.knob  # the hand holding it goes with the opening door
        if self.goal == "cup":
            return self.cup + np.array([0.0, self.props.cup.grip])
        if self.goal == "place":
            return self.place + np.array([0.0, self.props.cup.grip])
        return None

    def _on_the_floor(self, shoulder: FloatArray, reach: float) -> bool:
        """The cup, or a spot to set it down, below the standing hand's reach (the floor):
        the hero stops with it ahead of his toes and crouches for it (the walk scene)."""
        goal = self.goal_point()
        low = goal is not None and goal[1] < shoulder[1] - reach
        return low and self.goal in ("cup", "place")

    def _clear_of(self, feet: tuple[float, float], facing: float, terrain: Terrain) -> None:
        """Move a spot on the floor ahead of the toes (``feet``: the soles' span in x): the
        cup fell onto the feet, hid behind the shoes, and a click there grabbed a foot. Where
        the ground ahead is not the spot's (a wall, a step), behind the heels instead
        (playtest 11: by the loft's wall under the ladder the spot went into the wall and he
        crouched, the cup held out, until a key was pressed)."""
        toe, heel = (feet[1], feet[0]) if facing > 0 else (feet[0], feet[1])
        clear = FEET_CLEAR_M + self.props.cup.radius
        ahead, behind = toe + facing * clear, heel - facing * clear
        if (ahead - self.place[0]) * facing <= 0.0 or (self.place[0] - behind) * facing <= 0.0:
            return  # clear of the feet already
        for x in (ahead, behind):
            # the same ground: no higher or lower than a slope the cup stands on rises over
            # the way (level only, on a slope the cup stayed in his shoe where it was put)
            y = self.props.surface_at(x, terrain)
            rise = abs(x - float(self.place[0])) * math.tan(CUP_MAX_TILT) + FLAT_TOLERANCE_M
            if (
                abs(y - float(self.place[1])) <= rise
                and self.props.stands_at(np.array([x]), terrain)[0]
            ):
                self.place = np.array([x, y])
                return

    def walk_intent(
        self, shoulders: FloatArray, facing: float, rig: Rig, terrain: Terrain, blocked: float
    ) -> float | None:
        """The walk input while a goal is out of reach (None: the player's input stands).

        ``shoulders`` (2, 2) are this step's shoulder points; ``blocked`` the seconds the
        walk has been stopped by ground a step cannot take (a wall, a ledge): after
        ``STUCK_S`` the goal is reached for from there, and a spot to set the cup down moves
        to the nearest one in reach.
        """
        goal = self.goal_point()
        if goal is not None and self.phase == "hold":
            # holding the knob as the door swings toward its hinge: he steps after it, the
            # arm at the reach it took the knob with (stood still, the knob slid out of the
            # hand: the door swung on by itself)
            shoulder = shoulders[self.hand]
            soon = self._knob_at(self.door_swing + KNOB_LEAD_S / DOOR_PUSH_S)
            hold = KNOB_REACH_FRACTION * rig.arms.limb.reach
            dx = float(soon[0] - shoulder[0])
            need = abs(dx) - _arm_allowance(shoulder, soon, hold)
            return math.copysign(min(need / KNOB_FOLLOW_M, 1.0), dx) if need > 0.0 else None
        if goal is None or self.phase != "walk":
            return None
        arm = self._arm_for(goal, shoulders)
        reach = REACH_FRACTION * rig.arms.limb.reach
        dx = float(goal[0] - shoulders[arm, 0])
        allowance = _arm_allowance(shoulders[arm], goal, reach)
        if self._on_the_floor(shoulders[arm], reach):
            # stop with the spot ahead, moved clear of the feet once there (:meth:`aim`)
            allowance = FLOOR_CLEAR_M
        need = abs(dx) - allowance
        if need > 0.02 and blocked < STUCK_S:
            # slow down on the approach: full speed from 0.6 m out, a creep at the end
            return math.copysign(min(max(need / 0.6, 0.15), 1.0), dx)
        if need > 0.02 and self.goal == "place":
            self.place = self._spot_in_reach(shoulders[arm], reach, terrain)
            dx = float(self.place[0] - shoulders[arm, 0])
        if dx * facing < -0.05:
            return math.copysign(0.1, dx)  # turn to face the goal
        self.hand = arm
        self.phase = "reach"
        self.phase_time = 0.0
        return 0.0

    def _spot_in_reach(self, shoulder: FloatArray, reach: float, terrain: Terrain) -> FloatArray:
        """The surface point nearest the wanted spot (in x) that the hand at ``shoulder`` can
        set the cup on: within ``reach``, or below the shoulder (crouching, or let fall)."""
        xs = float(shoulder[0]) + np.linspace(-reach, reach, 49)
        ys = self.props.surfaces(xs, terrain)
        grip = ys + self.props.cup.grip
        ok = (np.hypot(xs - shoulder[0], grip - shoulder[1]) <= reach) | (grip < shoulder[1])
        ok &= self.props.stands_at(xs, terrain)
        best = int(np.argmin(np.where(ok, np.abs(xs - self.place[0]), np.inf)))
        return np.array([xs[best], ys[best]])

    def _arm_for(self, goal: FloatArray, shoulders: FloatArray) -> int:
        if self.goal == "place":
            return self.holding
        if self.holding >= 0:
            return 1 - self.holding
        return int(np.argmin(np.hypot(*(shoulders - goal).T)))

    def aim(
        self,
        hand_weight: FloatArray,
        hand_target: FloatArray,
        hands: FloatArray,
        shoulders: FloatArray,
        facing: float,
        rig: Rig,
        dt: float,
        feet: Callable[[], tuple[float, float]],
        terrain: Terrain,
    ) -> None:
        """Set the engaged and the holding hand's eased target, at full reach weight.

        ``hand_weight`` (2,) and ``hand_target`` (2, 2) are the hero's rows of the crowd
        arrays (written in place); ``hands`` (2, 2) are the last solved hands; ``feet()`` the
        soles' span in x (asked only while a cup is set down on the floor). The hands set
        here are :attr:`engaged` until the next call.
        """
        self.phase_time += dt
        if self.goal == "place" and self.phase == "reach" and self.phase_time > PLACE_GIVE_UP_S:
            self.cancel()  # a spot the hand cannot get to: he stands up with the cup
        blend = halflife_blend(dt, self.props.reach_halflife)
        reach = self._reach(rig)
        if (
            self.phase == "reach"
            and self.goal == "place"
            and self._on_the_floor(shoulders[self.hand], reach)
        ):
            self._clear_of(feet(), facing, terrain)  # every step: a foot may still settle
        goals: dict[int, FloatArray] = {}
        if self.holding >= 0:
            carry = shoulders[self.holding] + np.array([0.2 * facing, -0.38])
            if self.goal == "knob":  # the other hand goes for the knob, about where the cup
                # is carried: the cup held down by the thigh, clear of it (carried in front,
                # the near hand's cup hid the far hand on the knob)
                carry = shoulders[self.holding] + np.array([0.05 * facing, -0.5])
            goals[self.holding] = self._carried_clear_of_table(carry)
        goal = self.goal_point()
        if self.phase in ("reach", "hold") and goal is not None:
            goals[self.hand] = self._hand_goal(shoulders[self.hand], goal, reach)
        elif self.phase == "release":
            rest = shoulders[self.hand] + np.array([0.0, -0.92 * rig.arms.limb.reach])
            goals[self.hand] = rest
            if self.phase_time >= RELEASE_S:
                self._idle()
        for arm, point in goals.items():
            if arm not in self._engaged:
                hand_target[arm] = hands[arm]  # a hand that starts reaching sets off from here
            if self.phase == "hold" and arm == self.hand:
                hand_target[arm] = point  # on the knob: it goes with the door, not after it
            else:
                hand_target[arm] += (point - hand_target[arm]) * blend
            hand_weight[arm] = 1.0
        self._engaged = frozenset(goals)

    def _carried_clear_of_table(self, grip: FloatArray) -> FloatArray:
        """Where the hand carrying the cup goes instead of ``grip`` so the cup keeps out of
        the table top: over the table, at least ``CUP_CLEAR_M`` above it; and a cup still
        below the top (just lifted off the floor beside the table, the hero crouched by it)
        goes up beside the table's nearer end first, over the top only once above it.

        Playtest: the cup, lifted from the floor by the table's end with the hero standing
        at the table, rose through the top (the carry point was over the table, and the hand
        went straight for it from the floor).
        """
        table, spec = self.props.table, self.props.cup
        left, _, right, top = table.top_box()
        reach = spec.half_width + CUP_CLEAR_M  # a cup centre nearer the slab than this touches it
        x, y = float(grip[0]), float(grip[1])
        if not left - reach < x < right + reach:
            return grip
        above = top + CUP_CLEAR_M  # the lowest a cup over the table is held
        if float(self.cup[1]) < above:  # below it: rise beside the nearer end first
            side = reach + LIFT_ASIDE_M
            x = left - side if float(self.cup[0]) < (left + right) / 2 else right + side
            above += LIFT_OVER_M
        return np.array([x, max(y, above + spec.grip)])

    def after_solve(
        self, hands: FloatArray, shoulders: FloatArray, rig: Rig, terrain: Terrain, dt: float
    ) -> None:
        """Grip checks on the solved ``hands`` (2, 2); the cup follows its hand or falls."""
        goal = self.goal_point()
        if self.phase == "reach" and goal is not None:
            reach = self._reach(rig)
            shoulder = shoulders[self.hand]
            aim = self._hand_goal(shoulder, goal, reach)
            # a goal the body is still crouching toward is gripped once the hand is on it
            # (a goal no crouch brings within reach: as near as it goes, after a wait)
            within = float(np.hypot(*(goal - shoulder))) <= reach
            there = within or self.phase_time >= LOW_REACH_WAIT_S
            if there and float(np.hypot(*(hands[self.hand] - aim))) <= self.props.grip_tolerance:
                self._grip(hands)
        elif self.phase == "hold" and self.phase_time >= HOLD_KNOB_S:
            # the hand goes with the knob (he steps after it, :meth:`walk_intent`) until the
            # door is open, or the knob has left its reach (let go at 0.6 s, the door swung on
            # by itself, the knob sliding 0.2 m away from a hand left in the air: playtest 7)
            shoulder = shoulders[self.hand]
            beyond = float(np.hypot(*(self.knob - shoulder))) > rig.arms.limb.reach
            if self.door_swing >= 1.0 or beyond:
                self._release()
        self._swing_door(dt, float(shoulders[:, 0].mean()))
        if self.holding >= 0:
            self.cup = hands[self.holding] - np.array([0.0, self.props.cup.grip])
            self.cup_vy = 0.0
            return
        surface = self.props.surface_at(float(self.cup[0]), terrain)
        if self.cup[1] > surface:
            self.cup_vy -= GRAVITY * dt
            self.cup[1] = max(self.cup[1] + self.cup_vy * dt, surface)
        if self.cup[1] <= surface:
            self.cup[1], self.cup_vy = surface, 0.0

    def cup_tilt(self, terrain: Terrain) -> float:
        """The angle the cup stands at: its surface's slope where it rests, else 0 (in a
        hand, or falling)."""
        x, y = float(self.cup[0]), float(self.cup[1])
        if self.holding >= 0 or y > self.props.surface_at(x, terrain) + 1e-6:
            return 0.0
        return self.props.tilt_at(x, terrain)

    def floor_spans(self, terrain: Terrain) -> FloatArray:
        """What the feet keep off (``Crowd.set_obstacles``): the cup where it rests on the
        ground, not in a hand nor on the table, as one row ``(x0, x1, top)`` (its width
        handle and all); else no rows."""
        x, y = float(self.cup[0]), float(self.cup[1])
        if self.holding >= 0 or y > float(terrain.height_at(x)) + 1e-6:
            return np.zeros((0, 3))
        spec = self.props.cup
        return np.array([[x - spec.half_width, x + spec.half_width, y + spec.height]])

    def _reach(self, rig: Rig) -> float:
        """How far from its shoulder the engaged hand goes for the goal (metres)."""
        fraction = KNOB_REACH_FRACTION if self.goal == "knob" else REACH_FRACTION
        return fraction * rig.arms.limb.reach

    def _swing_door(self, dt: float, body_x: float) -> None:
        """The door's own motion this step (see :attr:`door_swing`); an open door does not
        swing shut on the hero standing in its doorway (``body_x``: his shoulders' middle;
        it shut through him: playtest 13)."""
        door = self.props.door
        in_doorway = door.x0 - DOORWAY_M <= body_x <= door.x0 + door.width + DOORWAY_M
        if self.goal == "knob" and self.phase == "hold" and self.phase_time >= KNOB_TURN_S:
            self._door_stay = DOOR_STAY_S
        elif self.door_swing > 0.0 and in_doorway:
            self._door_stay = max(self._door_stay, DOORWAY_STAY_S)
        else:
            self._door_stay = max(self._door_stay - dt, 0.0)
        toward = 1.0 if self._door_stay > 0.0 else -1.0
        pushed = self.goal == "knob" and self.phase == "hold"  # at the pace he follows it
        swing_s = DOOR_PUSH_S if pushed else DOOR_SWING_S
        self.door_swing = min(max(self.door_swing + toward * dt / swing_s, 0.0), 1.0)

    def _hand_goal(self, shoulder: FloatArray, goal: FloatArray, reach: float) -> FloatArray:
        """Where the engaged hand goes for ``goal``: the goal itself within ``reach`` of the
        shoulder; a place to set the cup down beyond it straight above the spot, as low as
        the arm goes (the cup falls onto its spot); any other goal as near as the arm goes."""
        dx = float(goal[0] - shoulder[0])
        below = goal[1] < shoulder[1] and float(np.hypot(*(goal - shoulder))) > reach
        if self.goal == "place" and abs(dx) < reach and below:
            # Pythagoras: at dx from the shoulder the arm reaches down √(R² − dx²)
            lowest = float(shoulder[1]) - math.sqrt(reach * reach - dx * dx)
            return np.array([float(goal[0]), max(float(goal[1]), lowest)])
        return _within(shoulder, goal, reach)

    def _grip(self, hands: FloatArray) -> None:
        self.reaches += 1
        if self.goal == "knob":
            self.phase, self.phase_time = "hold", 0.0
        elif self.goal == "cup":
            self.holding = self.hand
            self.goal = None
            self._idle()
        else:
            self.holding = -1
            self.cup = hands[self.hand] - np.array([0.0, self.props.cup.grip])
            self._release()
