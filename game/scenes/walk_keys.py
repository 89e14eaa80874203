"""The side-view scenes' walk keys (A / D or the arrows) as a walk intent, each tap held
at least :data:`~game.key_taps.TAP_HOLD_S` (:class:`~game.key_taps.KeyTaps`): a tap walks
a little or turns him round (the gait turns round only for a wish held
``tuning.pivot_wish``); no pygame."""

from __future__ import annotations

from collections.abc import Iterable

from game.key_taps import KeyTaps

RIGHT_KEYS = frozenset({"d", "right"})
LEFT_KEYS = frozenset({"a", "left"})


class WalkKeys:
    """The walk input from the held and pressed keys."""

    def __init__(self) -> None:
        self._taps = KeyTaps()

    def move(self, held: frozenset[str], pressed: Iterable[str], now_s: float) -> float:
        """+1 right, −1 left, 0 neither (or both) this frame: the keys ``held``, and those
        ``pressed`` this frame or within ``TAP_HOLD_S`` before ``now_s``."""
        keys = self._taps.held(held, pressed, now_s)
        return float(bool(keys & RIGHT_KEYS)) - float(bool(keys & LEFT_KEYS))
