"""Plain input records: what the window saw this frame, and what one simulation step gets.

:class:`RawInput` is filled by :mod:`game.input_map` (the only place pygame events are read).
Scene views turn it into an :class:`InputState` in world coordinates; the autopilot and the
replay produce :class:`InputState` directly. Simulations only ever see :class:`InputState`,
which is JSON-serialisable so a run can be recorded and replayed bit-exactly.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

ACTIONS = frozenset(
    {
        "crowd_less",  # crowd: − removes characters
        "crowd_more",  # crowd: + adds characters
        "flip_elbow",  # lab: F or the button
        "pointer_moved",  # walk: the hands follow a pointer that moved
        "put_down",  # walk: set the cup down at values["place_x"]
        "reach_prop",  # walk: reach for values["prop"]
        "reset",  # swivel: R
        "terrain_edit",  # walk edit mode: values["op"] and its arguments
        "toggle_edit",  # walk: E
        "toggle_hands",  # walk
        "toggle_hands_follow",  # walk: H
        "toggle_poles",  # walk: K
    }
)
"""Every one-shot action a scene acts on: a recording naming another is refused."""

POINTER_LIMIT_M = 1e6
"""A step's pointer coordinates are clamped to ±this many metres: far beyond anything a
view shows or a scene uses (each clamps far tighter), far below float overflow. A recording
holding a larger one is refused."""


VALUE_LIMIT = 1e6
"""A step's values (each number, each item of a list of numbers) are clamped to ±this:
beyond any setting a scene uses (metres, radians, counts, vertex numbers), far below float
overflow. A recording holding a larger one is refused."""


def _within(value: Any, limit: float) -> Any:
    """A number clamped to ``[−limit, limit]`` (a list: each item); anything else (NaN
    included) as it is."""
    if isinstance(value, list):
        return [_within(v, limit) for v in value]
    if isinstance(value, bool) or not isinstance(value, int | float) or not abs(value) > limit:
        return value
    return limit if value > 0 else -limit


def finite_clamped(value: Any, fallback: float, limit: float) -> float:
    """An input value as a float clamped to ``[−limit, limit]``; ``fallback`` when it is
    absent, not a number or not finite (a replayed or widget value is never trusted)."""
    try:
        v = float(value)
    except (TypeError, ValueError):
        return fallback
    if not math.isfinite(v):
        return fallback
    return min(max(v, -limit), limit)


@dataclass(slots=True)
class RawInput:
    """One rendered frame's worth of window input, in screen pixels."""

    pointer_px: tuple[float, float] = (0.0, 0.0)
    pointer_inside: bool = False  # the pointer is over the window (a mouse outside is none)
    pointer_moved: bool = False  # the pointer moved (or a button was pressed) this frame
    buttons_down: frozenset[int] = frozenset()  # 1 left, 2 middle, 3 right
    clicks: list[tuple[int, tuple[float, float]]] = field(default_factory=list)
    releases: list[tuple[int, tuple[float, float]]] = field(default_factory=list)
    wheel: float = 0.0
    keys_down: frozenset[str] = frozenset()  # held keys by name ("a", "left", "shift", ...)
    keys_pressed: list[str] = field(default_factory=list)  # pressed this frame, in order
    # ... of those, the ones pressed while a Ctrl key was held: a quick Ctrl+Z whose Ctrl
    # is let go within the same frame is still Ctrl+Z
    ctrl_pressed: list[str] = field(default_factory=list)
    quit: bool = False
    resized: tuple[int, int] | None = None
    focus_lost: bool = False
    focus_gained: bool = False


HELD_VALUES = frozenset({"wish"})
"""Values that stand for held keys, not a one-shot setting: every fixed step of a frame
has them (the walk in 3-D's W/A/S/D direction)."""


@dataclass(frozen=True, slots=True)
class InputState:
    """The input of one fixed simulation step, in world units.

    Attributes
    ----------
    pointer : tuple of float or None
        The pointer in world coordinates (2 or 3 numbers), or None when off the world.
    pointer_down : bool
        The primary button is held (the simulation detects press/release edges itself).
    move : float
        Horizontal walk intent in [-1, 1].
    run : bool
        Run modifier.
    climb : float
        Climb intent in [-1, 1] (W/S).
    actions : tuple of str
        One-shot actions this step (``"flip_elbow"``, ``"toggle_poles"``, ...).
    values : mapping of str to number or list of numbers
        Absolute settings from widgets (``{"target_x": 1.5}``).
    """

    pointer: tuple[float, ...] | None = None
    pointer_down: bool = False
    move: float = 0.0
    run: bool = False
    climb: float = 0.0
    actions: tuple[str, ...] = ()
    values: Mapping[str, Any] = field(default_factory=dict)

    def toggles(self, action: str) -> bool:
        """Whether an on/off ``action`` pressed this step flips its setting: each press
        flips it, so two in one frame (a quick double tap at a low frame rate) leave it."""
        return self.actions.count(action) % 2 == 1

    def without_actions(self) -> InputState:
        """The same held input with the one-shot actions and settings removed (the
        :data:`HELD_VALUES` kept).

        Used for the second and later steps of one frame, so a key press acts once.
        """
        held = {name: value for name, value in self.values.items() if name in HELD_VALUES}
        return InputState(
            self.pointer, self.pointer_down, self.move, self.run, self.climb, (), held
        )

    def bounded(self) -> InputState:
        """The same input with the pointer clamped to ±:data:`POINTER_LIMIT_M` and the values
        to ±:data:`VALUE_LIMIT` (a wild mouse is recorded as input a replay accepts; every
        scene clamps tighter anyway)."""
        pointer = None if self.pointer is None else _within(list(self.pointer), POINTER_LIMIT_M)
        values = {name: _within(value, VALUE_LIMIT) for name, value in self.values.items()}
        if (self.pointer is None or pointer == list(self.pointer)) and values == self.values:
            return self
        return InputState(
            None if pointer is None else tuple(pointer),
            self.pointer_down,
            self.move,
            self.run,
            self.climb,
            self.actions,
            values,
        )

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict (round-trips through :meth:`from_json` exactly)."""
        return {
            "pointer": None if self.pointer is None else list(self.pointer),
            "pointer_down": self.pointer_down,
            "move": self.move,
            "run": self.run,
            "climb": self.climb,
            "actions": list(self.actions),
            "values": dict(self.values),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> InputState:
        """Rebuild an input from :meth:`to_json` output."""
        pointer = data.get("pointer")
        return cls(
            pointer=None if pointer is None else tuple(float(v) for v in pointer),
            pointer_down=bool(data.get("pointer_down", False)),
            move=float(data.get("move", 0.0)),
            run=bool(data.get("run", False)),
            climb=float(data.get("climb", 0.0)),
            actions=tuple(str(a) for a in data.get("actions", ())),
            values=dict(data.get("values", {})),
        )
