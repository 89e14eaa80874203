"""The walk keys as a walk intent: a tap of A / D (or an arrow) counts as held for at
least :data:`TAP_HOLD_S`, so a quick tap, even one pressed and let go within a frame,
walks a little or turns him round (the gait turns round only for a wish held
``tuning.pivot_wish``); no pygame."""

from __future__ import annotations

TAP_HOLD_S = 0.1  # a walk key pressed is held at least this long (simulation time)
RIGHT_KEYS = frozenset({"d", "right"})
LEFT_KEYS = frozenset({"a", "left"})


class WalkKeys:
    """The walk input from the held and pressed keys, each press held at least
    :data:`TAP_HOLD_S` of the simulation's time."""

    def __init__(self) -> None:
        self._pressed_s = {1.0: -float("inf"), -1.0: -float("inf")}

    def move(self, held: frozenset[str], pressed: list[str], now_s: float) -> float:
        """+1 right, −1 left, 0 neither (or both) this frame: the keys ``held``, and those
        ``pressed`` this frame or within ``TAP_HOLD_S`` before ``now_s``."""
        for key in pressed:
            if key in RIGHT_KEYS:
                self._pressed_s[1.0] = now_s
            elif key in LEFT_KEYS:
                self._pressed_s[-1.0] = now_s

        def on(way: float, keys: frozenset[str]) -> bool:
            return bool(keys & held) or now_s - self._pressed_s[way] < TAP_HOLD_S

        return float(on(1.0, RIGHT_KEYS)) - float(on(-1.0, LEFT_KEYS))
