"""Which limb moves next on the ladder, and to which rung (no pygame): one limb at a time,
in the contralateral climbing order, each hand kept about ``hands_above`` rungs over the
feet.

A grip is the rung of each limb in LIMBS order (arm L, R, leg L, R): a hand's −1 is off the
rungs (hanging at its resting place), a foot's −1 on the ground beside the ladder (or the
loft).
"""

from __future__ import annotations

from dataclasses import dataclass

from game.world.types import IntArray

# contralateral climbing: a hand, then the opposite foot; limbs in LIMBS order (arm L, R, leg L, R)
UP_ORDER = (1, 2, 0, 3)
DOWN_ORDER = (3, 0, 2, 1)


@dataclass(frozen=True, slots=True)
class RungLimits:
    """What the ladder and the body allow a grip.

    Attributes
    ----------
    top : int
        The highest rung a hand may hold.
    feet_top : int
        The highest rung a foot may stand on (the loft's, where the ladder has one).
    hands_above : int
        Rungs between the feet and the hands in the resting grip (one either way allowed).
    hands_apart : int
        The most rungs between the two hands (a short body's shoulders cannot span two).
    """

    top: int
    feet_top: int
    hands_above: int
    hands_apart: int


def allowed(grip: IntArray, limb: int, rung: int, limits: RungLimits) -> bool:
    """``limb`` may move to ``rung`` from ``grip`` (4,): hands stay about ``hands_above``
    rungs over the feet and feet that many under the hands, the hands at most
    ``hands_apart`` rungs apart; a free hand may only grab; gripping hands let go only at
    the bottom, the higher one last."""
    hands, feet = grip[:2], grip[2:]
    above = limits.hands_above
    if limb < 2:
        other = hands[1 - limb]
        low = max(int(feet.max()) + above - 1, 0)
        high = min(int(feet.min()) + above + 1, limits.top)
        if grip[limb] < 0:
            return rung >= 0 and low <= rung <= high
        if rung < 0:
            return bool(feet.max() < 0) and other <= grip[limb]
        return other >= 0 and low <= rung <= high and abs(rung - other) <= limits.hands_apart
    if (hands < 0).any():
        return False
    low = max(int(hands.max()) - above - 1, -1)
    high = min(int(hands.min()) - above + 1, limits.feet_top)
    return low <= rung <= high


def next_move(
    grip: IntArray, last: int, direction: int, limits: RungLimits
) -> tuple[int, int] | None:
    """The next move ``(limb, rung)`` climbing ``direction`` (+1 up, −1 down) from ``grip``
    (4,) after ``last`` moved (−1: none yet), or None where no limb may move so."""
    if direction > 0:
        for limb in (1, 0):  # free hands grab first, right then left
            if grip[limb] < 0:
                rung = int(grip[2:].min()) + limits.hands_above
                return (limb, rung) if allowed(grip, limb, rung, limits) else None
    order = UP_ORDER if direction > 0 else DOWN_ORDER
    # the limb that has waited longest in the climbing order goes next
    start = (order.index(last) + 1) % 4 if last in order else 0
    for k in range(4):
        limb = order[(start + k) % 4]
        rung = int(grip[limb]) + direction
        if limb < 2 and direction < 0 and grip[2:].max() < 0:
            rung = -1  # at the bottom the hands let go
        if rung != grip[limb] and allowed(grip, limb, rung, limits):
            return limb, rung
    return None
