"""What every prop module shares: the array type, the flat-footprint rule, the ``[x, y]``
pair reader, and the :class:`Prop` protocol of a prop plug-in: a prop that the player
clicks, that drives the hero only through an :class:`Intent` (the walk scene turns it into
the crowd's commands), and that moves by itself (no pygame).

Props stand on the terrain: each loader puts its prop's base at the ground height under it
and rejects a prop whose footprint is not flat (a table on the stairs would float).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

import numpy as np

from game.world.rig import Rig
from game.world.schema import Fields, Range
from game.world.terrain import Terrain
from game.world.terrain_edit import Footprint
from game.world.types import FloatArray

if TYPE_CHECKING:
    from game.world.character import PoseInputs

FLAT_TOLERANCE_M = 0.01  # a footprint whose ground varies more than this is not flat
WORLD_X = Range(-10_000.0, 10_000.0, "m")  # as the terrain's x; inside it is checked too


def flat_base(fields: Fields, terrain: Terrain, name: str, x0: float, x1: float) -> float:
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


def pair(fields: Fields, name: str) -> FloatArray:
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


@dataclass(frozen=True, slots=True)
class Body:
    """The hero as a prop sees him this step (read only; world metres, y-up).

    Attributes
    ----------
    x, speed : float
        The pelvis's x and its horizontal speed (m/s, signed).
    facing : float
        +1 facing +x, −1 facing −x.
    settled : bool
        Standing still with both feet planted and no turn under way.
    blocked : bool
        His walk is stopped by ground a step cannot take (a wall, a drop).
    ankles, knees : ndarray, shape (2, 2)
        The solved legs (left, right).
    soles : ndarray, shape (2, 3, 2)
        Each foot's heel, ball and toe points.
    rig : Rig
        His proportions.
    shoulders, hands : ndarray, shape (2, 2)
        The arms' roots and solved hands (left, right).
    feet_targets : ndarray, shape (2, 2)
        The legs' ankle targets as posed.
    pelvis : ndarray, shape (2,)
    walk, climb : float
        The player's walk keys (−1 … 1) and climb keys (W +1, S −1); ``run`` Shift.
    hands_full : bool
        A hand carries something.
    """

    x: float
    speed: float
    facing: float
    settled: bool
    blocked: bool
    ankles: FloatArray
    knees: FloatArray
    soles: FloatArray
    rig: Rig
    shoulders: FloatArray
    hands: FloatArray
    feet_targets: FloatArray
    pelvis: FloatArray
    walk: float = 0.0
    climb: float = 0.0
    run: bool = False
    hands_full: bool = False


@dataclass(frozen=True, slots=True)
class Intent:
    """What a prop asks of the hero this step; the walk scene passes it on through the
    crowd's commands (``walk``: the walk input instead of the player's; ``face``: +1 or −1,
    :meth:`~game.world.character.Crowd.turn_to`, 0 none; ``foot`` and ``foot_target``:
    :meth:`~game.world.character.Crowd.pin_foot` and the step's pinned mask;
    ``keep_off``: the prop lies on the ground (the feet step over it, :meth:`Prop.footprint`,
    through :meth:`~game.world.character.Crowd.set_obstacles`; a rolling prop meets it);
    ``solid``: the feet keep off its footprint as off a wall and a rolling prop meets it
    (a shut door); ``walk_to``: the x the walk stops
    at, :meth:`~game.world.character.Crowd.walk_to`; ``pose`` and ``pelvis``: the prop's
    pose replaces the gait's this step, and ``stand_at`` (ankles (2, 2)) stands him
    there in it, :meth:`~game.world.character.Crowd.pose_as`; ``says``: words for the player now;
    ``blocked_why``: what to say if his walk is stopped by ground; ``halt``: +1 or −1, a
    walk that way stops, whoever asks for it: a wall the prop makes). The default asks
    nothing. Of two props asking for a walk, the first in the scene's order wins."""

    walk: float | None = None
    face: float = 0.0
    foot: int = -1
    foot_target: FloatArray | None = None
    keep_off: bool = False
    solid: bool = False
    walk_to: float | None = None
    pose: PoseInputs | None = None
    pelvis: FloatArray | None = None
    stand_at: FloatArray | None = None
    says: str | None = None
    blocked_why: str | None = None
    halt: float = 0.0


class Prop(Protocol):
    """A prop plug-in of the walk scene.

    Its module holds its asset section (a dataclass, a ``RANGES`` table and a loader, read
    by :func:`game.world.props.scenery.load_props`), its phases (an :class:`~enum.Enum`),
    the intents it gives the hero, and its own motion; its drawing is a painter in
    :mod:`game.scenes.prop_painters`, keyed by :attr:`name`.
    """

    name: str  # its key in props.json, in clicks and in the trace's "props"
    # it moves along the ground and meets the props lying on it, as boxes (a ball rolling
    # into a cup on the floor); one that does not (a cup let go onto its surface) moves on
    # the bare ground: a box is no place to rest on a round ball
    rolls: bool

    @property
    def phase(self) -> Enum:
        """What the hero is doing with it (its module's phase enum)."""
        ...

    def under(self, point: FloatArray, radius: float) -> bool:
        """A click at ``point`` (2,) within ``radius`` is on the prop."""
        ...

    def use(self) -> None:
        """Clicked: the hero goes to use it."""
        ...

    def cancel(self) -> None:
        """The player took the controls: drop what the hero was doing with it."""
        ...

    @property
    def busy(self) -> bool:
        """The hero is using it (its intents have him)."""
        ...

    def intent(self, body: Body, terrain: Terrain, dt: float) -> Intent:
        """What it asks of the hero this step."""
        ...

    def advance(self, body: Body, terrain: Terrain, dt: float) -> None:
        """Its own motion over the step, after the hero's solve."""
        ...

    def centre(self) -> FloatArray | None:
        """Its centre (2,), world metres: the trace's ``props`` entry (None: it does not
        move, no entry)."""
        ...

    def footprint(self) -> FloatArray:
        """What the feet keep off when an intent asks them to: a row ``(x0, x1, top)``,
        world metres, shape (1, 3)."""
        ...


@dataclass(frozen=True, slots=True)
class PlugIn:
    """How the props file and the walk scene know a prop plug-in: its section's ``name``
    in props.json (optional there), the section's range table, its loader, and what makes
    the live prop from what the loader read."""

    name: str
    ranges: dict[str, Range]
    load: Callable[[Fields, Terrain], Any]
    create: Callable[[Any], Prop]


@runtime_checkable
class Grounded(Protocol):
    """A prop whose ground the ground editor keeps or checks (a prop may follow this as
    well as :class:`Prop`)."""

    def grounds(self) -> tuple[Footprint, ...]:
        """The stretches of ground it stands on, which an edit must keep level."""
        ...

    def check_ground(self, old: Terrain, new: Terrain) -> None:
        """Raise :class:`~game.world.terrain_edit.EditRefused` (why, and where) if it could
        not stay on ``new`` ground as it stands on ``old``."""
        ...

    def follow_ground(self, old: Terrain, new: Terrain) -> None:
        """The ground it rests on changed from ``old`` to ``new``: it moves with it."""
        ...
