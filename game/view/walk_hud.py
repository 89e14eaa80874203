"""The walk's status box: the hero's knee poles, plant states, speed, hands and footsteps,
the ladder's hint when it applies, and the standing controls line."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from game.canvas import Canvas
from game.palette import PALETTE
from game.view.status import OVERLAY_HINT, StatusBox, digits_as_8
from game.world.character import LEGS
from game.world.props.ladder_prop import LADDER_NEAR_M

if TYPE_CHECKING:
    from game.scenes.walk import WalkSim
    from game.world.props.ladder import LadderClimb

WALK_HINT = (
    "A/D walk · Shift run · move or hold the mouse: hands reach · H hands follow · "
    "B both/nearer · drag a foot · K poles · O overlay · F1 help"
)
# what the status's feet item can read, walking or on the ladder (rungs counted to 88)
_FOOT_STATES = ("held", "kick", "planted", "swing", "moving", "ground", "rung 88")
_FEET_TEXTS = tuple(f"L {left}  R {right}" for left in _FOOT_STATES for right in _FOOT_STATES)


def climbing(sim: WalkSim) -> LadderClimb | None:
    """The hero's ladder state while on the ladder, else None."""
    ladder = sim.ladder
    return ladder if ladder is not None and ladder.active else None


def draw_walk_hud(canvas: Canvas, status: StatusBox, sim: WalkSim, overlay_shown: bool) -> None:
    """The walk's status box (see :class:`~game.view.status.StatusBox`); while the overlay
    is off, a hint says how to show it."""
    crowd = sim.crowd
    feet = crowd.feet
    speed = abs(float(crowd.vx[0]))
    flips = int(crowd.knee_flips[0])
    poles = "ON" if sim.poles_on else "OFF"
    hands = (
        ("both hands" if sim.both_hands else "nearer hand") + " follow mouse"
        if sim.hands_follow
        else "hands swing (H)"
    )
    items = [
        f"knee poles {poles}",
        f"knee flips {flips}",
        _feet_item(sim),
        f"{speed:4.2f} m/s",
        hands,
        f"footsteps {int(feet.steps[0])}",
    ]
    color = PALETTE["text"] if sim.poles_on else PALETTE["warn"]
    # every text each item can show, its figures at their widest (digits as 8s): the
    # status is laid out for the widest, so it keeps its size as they change
    alternatives = [
        (digits_as_8(items[0]), "knee poles OFF"),
        (digits_as_8(items[1]),),
        _FEET_TEXTS,
        (digits_as_8(items[3]),),
        ("both hands follow mouse", "nearer hand follow mouse", "hands swing (H)"),
        (digits_as_8(items[5]),),
    ]
    overlay = [] if overlay_shown else [OVERLAY_HINT]
    status.draw(canvas, items, color, [*ladder_hint(sim), *overlay, WALK_HINT], alternatives)


def _feet_item(sim: WalkSim) -> str:
    """``L planted  R swing``: each foot's plant state, or its rung on the ladder."""
    feet = sim.crowd.feet
    on_ladder = climbing(sim)
    pinned, planted = feet.pinned[0].tolist(), feet.planted[0].tolist()
    states = []
    for side, label in ((0, "L"), (1, "R")):
        state = (
            rung_label(on_ladder, LEGS.start + side)
            if on_ladder is not None
            else "kick"
            if sim.kicking == side
            else "held"
            if pinned[side]
            else "planted"
            if planted[side]
            else "swing"
        )
        states.append(f"{label} {state}")
    return "  ".join(states)


def ladder_hint(sim: WalkSim) -> list[str]:
    """How to get on and off the ladder, when that is what the player can do now."""
    on_ladder = climbing(sim)
    if on_ladder is not None:
        top = "W at the top steps onto the loft · " if on_ladder.ladder.loft is not None else ""
        return [
            f"ladder: tap W / S to climb one rung cycle, hold to keep going · {top}S to the bottom lets go"
        ]
    ladder = sim.ladder
    near = ladder is not None and abs(ladder.spot_x - float(sim.crowd.x[0])) < LADDER_NEAR_M
    if not (near or sim.on_loft()):
        return []
    if sim.props is not None and sim.props.holding >= 0:  # the ladder takes both hands
        return ["holding the cup: put it down (click a surface) to climb"]
    if sim.on_loft():
        return ["on the loft: S climbs back down the ladder"]
    return ["at the ladder: W climbs on"]


def limb_label(name: str) -> str:
    """A limb as a player names it: ``left_arm`` is the left hand, ``right_leg`` the right foot."""
    return name.replace("_arm", " hand").replace("_leg", " foot")


def outer_left(xs: np.ndarray, side: int) -> bool:
    """Whether limb ``side`` (0 left, 1 right) of a pair at world x ``xs`` (2,) is the one
    further left, so labelled on the left (a tie: the left limb)."""
    return bool(xs[side] < xs[1 - side] or (xs[side] == xs[1 - side] and side == 0))


def rung_label(on_ladder: LadderClimb, limb: int) -> str:
    """``rung 3`` (counted from 1 at the bottom), ``moving``, or ``ground`` / ``free``."""
    if limb == on_ladder.moving:
        return "moving"
    rung = int(on_ladder.rung[limb])
    if rung >= 0:
        return f"rung {rung + 1}"
    return "free" if limb < LEGS.start else "ground"
