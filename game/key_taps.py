"""Keys as a scene reads them held: a key pressed counts as held for at least
:data:`TAP_HOLD_S` of the simulation's time, so a quick tap, even one pressed and let go
between two frames (never seen held), still moves the character a little or turns it
round (a gait needs a wish held a few steps to act on it); no pygame."""

from __future__ import annotations

from collections.abc import Iterable

TAP_HOLD_S = 0.2  # a key pressed is held at least this long (simulation time): a step and close


class KeyTaps:
    """The keys held this frame, each press held at least :data:`TAP_HOLD_S`."""

    def __init__(self) -> None:
        self._pressed_s: dict[str, float] = {}  # each key's last press (simulation time)

    def held(self, down: frozenset[str], pressed: Iterable[str], now_s: float) -> frozenset[str]:
        """The keys ``down`` now, and those ``pressed`` this frame or within
        ``TAP_HOLD_S`` before ``now_s`` (a press stamped later than ``now_s``, from a run
        whose clock started again, does not count)."""
        for key in pressed:
            self._pressed_s[key] = now_s
        recent = {key for key, at in self._pressed_s.items() if 0.0 <= now_s - at < TAP_HOLD_S}
        self._pressed_s = {key: self._pressed_s[key] for key in recent}
        return down | recent
