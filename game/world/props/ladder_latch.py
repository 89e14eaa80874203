"""Turning a tap of W / S into a whole climbing cycle (no pygame: plain input logic)."""

from __future__ import annotations

from typing import Protocol

TAP_CYCLE_MOVES = 4  # a tap of W / S climbs one cycle: each limb moves once
TAP_TIMEOUT_S = 6.0  # a tap that has not got the hero onto the ladder by then lapses


class Climbing(Protocol):
    """What the latch reads of the climb: on the ladder, the limb moves made, the limb
    moving now (−1: none)."""

    @property
    def active(self) -> bool: ...

    @property
    def moves(self) -> int: ...

    @property
    def moving(self) -> int: ...


class ClimbLatch:
    """Turns a tap of W / S into a whole climbing cycle (no pygame: plain input logic).

    A press starts the latch; until each limb has moved once on the ladder (walking up to
    it and getting on first, if need be) the climb intent stays on, so a tap climbs one
    cycle and a held key climbs for as long as it is held. Walking keys, stepping off the
    ladder, or :data:`TAP_TIMEOUT_S` without getting on end it.
    """

    def __init__(self) -> None:
        self.direction = 0.0
        self.started_s = 0.0
        self.until_moves: int | None = None

    def climb(
        self, held: float, pressed: float, walking: bool, ladder: Climbing | None, now_s: float
    ) -> float:
        """The climb intent in [−1, 1] for this frame: ``held`` is the W/S key state,
        ``pressed`` a press this frame (±1, or 0), ``now_s`` the simulation time."""
        if pressed:
            self.direction, self.started_s, self.until_moves = pressed, now_s, None
        if walking or ladder is None:
            self.direction = 0.0
        elif self.direction:
            if ladder.active and self.until_moves is None:
                self.until_moves = ladder.moves + TAP_CYCLE_MOVES
            if self.until_moves is not None:
                # a move under way finishes by itself: count it as made
                made = ladder.moves + (1 if ladder.moving >= 0 else 0)
                if made >= self.until_moves or not ladder.active:
                    self.direction = 0.0
            elif now_s - self.started_s > TAP_TIMEOUT_S:
                self.direction = 0.0
        return held if held else self.direction
