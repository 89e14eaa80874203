"""The walk scene's hero and the pointer (no pygame): the pointer clamped round him, a foot
dragged by it, the hands reaching for it (both, or the nearer), turning round to face it,
and crouching for what a hand wants below its standing reach (a prop's low grip or the
pointer held low). A part of :class:`~game.scenes.walk.WalkSim`.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numpy.typing import NDArray

from game.input_state import InputState
from game.scenes.ground_edit import GroundEditing
from game.world.arms import within_shoulder_range
from game.world.character import ARMS, LEGS, Crowd
from game.world.easing import clamp, halflife_blend
from game.world.props.base import Prop
from game.world.props.grip import ReachPhase
from game.world.props.reach import REACH_FRACTION, PropHands
from game.world.rig import LIMBS
from game.world.types import FloatArray

LEG_NAMES = LIMBS[LEGS]
POINTER_RANGE = 6.0  # metres around the pelvis a hand or pinned foot may be sent
HAND_SWITCH_MARGIN = 0.05  # the reaching hand changes only when the other is this much nearer
POINTER_LINGER_S = 1.5  # the hands keep reaching this long after the mouse last moved
REACH_BLEND_S = 0.6  # the pointer reach blends fully in (or out) in this many seconds
GRAB_RADIUS_M = 0.25  # a press this close to an ankle grabs the foot; hovering there, the
# pointer is a drag handle, not a place for the hands (they would stoop to reach for it)
TAP_MIN_S = 0.08  # the other key held this long asks for the turn even once let go (a
# key's own blip, both keys released or pressed a few frames apart, is none)
TURN_BEHIND_M = 0.3  # a pointer offered this far behind the shoulders turns a standing body
FLOOR_HAND_M = 0.06  # a hand wanted this low over the ground under the feet: a full crouch


class PointerReach:
    """The pointer's part of the walk scene's step (its state is the scene's)."""

    crowd: Crowd
    pointer: tuple[float, float] | None  # the clamped pointer this step
    offered: tuple[float, float] | None  # ... when the hands were offered it
    pointer_still_s: float  # seconds since the pointer last moved
    ordered_by_click: bool  # the pointer's last use was a click on a prop
    against_s: float  # seconds the walk key has pointed against the facing
    reaching: Any  # (2,) bool: the hands reaching for the pointer
    drag_foot: int | None
    both_hands: bool
    hands_follow: bool
    editing: GroundEditing
    props: PropHands | None
    plug_ins: list[Prop]

    def _clamped_pointer(self, pointer: tuple[float, ...] | None) -> tuple[float, float] | None:
        """The pointer as a finite world point within ``POINTER_RANGE`` of the pelvis."""
        if pointer is None or len(pointer) < 2:
            return None
        x, y = float(pointer[0]), float(pointer[1])
        if not (math.isfinite(x) and math.isfinite(y)):
            return None
        px, py = float(self.crowd.x[0]), float(self.crowd.y[0])
        return (
            min(max(x, px - POINTER_RANGE), px + POINTER_RANGE),
            min(max(y, py - POINTER_RANGE), py + POINTER_RANGE),
        )

    def _track_pointer(self, inp: InputState, dt: float) -> None:
        """The pointer is offered for ``POINTER_LINGER_S`` after it moves or while its
        button is held. A click that orders a prop used or the cup set down is no pointing:
        the pointer (left on a ball kicked away, on the floor the cup was set down on) is
        not offered again until the mouse moves (he would crouch for the empty spot)."""
        if "pointer_moved" in inp.actions:
            self.ordered_by_click = False
        if "reach_prop" in inp.actions or "put_down" in inp.actions:
            self.ordered_by_click = True
        moved = "pointer_moved" in inp.actions or inp.pointer_down
        if self.ordered_by_click:
            self.pointer_still_s = math.inf
        else:
            self.pointer_still_s = 0.0 if moved else self.pointer_still_s + dt

    def _update_drag(self, inp: InputState) -> None:
        """A press naming a foot grabs it; releasing the button gives it back to the gait,
        and the pointer is not offered to the hands until the mouse moves again (let go low
        behind him, it would turn him round and bend him double to reach for it)."""
        if not inp.pointer_down or self.pointer is None:
            if self.drag_foot is not None:
                self.pointer_still_s = math.inf
            self.drag_foot = None
            return
        name = inp.values.get("drag_foot")
        if self.drag_foot is None and name in LEG_NAMES:
            self.drag_foot = LEG_NAMES.index(name)

    def foot_near(self, point: Any) -> str | None:
        """The leg whose ankle is within ``GRAB_RADIUS_M`` of the world ``point`` (the
        nearest), if any: a press there grabs that foot."""
        offset = self.crowd.solution.hand[0, LEGS] - np.asarray(point, dtype=float)
        distance = np.hypot(offset[:, 0], offset[:, 1])
        nearest = int(distance.argmin())
        return LEG_NAMES[nearest] if distance[nearest] <= GRAB_RADIUS_M else None

    def _offer_pointer(self) -> tuple[float, float] | None:
        """The pointer as an intent, not a leash: offered to the hands while the button is
        held or for ``POINTER_LINGER_S`` after the mouse moved, with H on, no foot being
        dragged or under the pointer, the ground not being edited and no prop goal under
        way (a prop goal wins over the pointer). The tests are pure reads, cheapest first."""
        if (
            self.pointer is None
            or not self.hands_follow
            or self.drag_foot is not None
            or self.pointer_still_s > POINTER_LINGER_S
            or self.editing.active
            or (self.props is not None and self.props.busy)
            or any(plug_in.busy for plug_in in self.plug_ins)
            or self.foot_near(self.pointer) is not None
        ):
            return None
        return self.pointer

    def _aim_hands(self, dt: float) -> None:
        """Hands not held by a prop reach for the offered pointer (both, or the one whose
        shoulder is nearer), blending in and out of the arm swing by their reach weight.
        Two hands' worth of arithmetic, done on plain floats (numpy's cost per call is many
        times that of the sums); the same operations in the same order as on arrays."""
        crowd = self.crowd
        self.offered = self._offer_pointer()
        engaged = frozenset() if self.props is None else self.props.engaged
        free = [hand not in engaged for hand in (0, 1)]
        targets = crowd.intent.hand_target[0].tolist()
        weights = crowd.intent.hand_weight[0].tolist()
        if self.offered is None:
            self.reaching[:] = False
        else:
            shoulders = crowd.pose.roots[0, ARMS]
            if self.both_hands:
                self.reaching[:] = True
            else:
                self._reach_with_one_hand(shoulders, np.array(free))
            self.reaching &= free
            chase = halflife_blend(dt, self.crowd.rig.arms.reach_halflife)
            # each hand chases the pointer as far round as its shoulder reaches
            wanted_at = within_shoulder_range(np.array(self.offered), shoulders, crowd.facing[0])
            solved = crowd.solution.hand[0, ARMS].tolist()
            for hand, goal in enumerate(wanted_at.tolist()):
                if self.reaching[hand]:
                    # a hand that starts reaching from the swing sets off from where it is
                    start = solved[hand] if weights[hand] < 1e-3 else targets[hand]
                    targets[hand] = [t + (g - t) * chase for t, g in zip(start, goal, strict=True)]
        # the weight moves at a constant rate so it arrives exactly (blend_hands eases it)
        rate = dt / REACH_BLEND_S
        for hand in (0, 1):
            if free[hand]:
                change = float(self.reaching[hand]) - weights[hand]
                weights[hand] += min(max(change, -rate), rate)
        crowd.aim_hands(0, targets, weights)

    def _reach_with_one_hand(self, shoulders: FloatArray, free: NDArray[np.bool_]) -> None:
        """``reaching`` one hand of those ``free`` (2,): the one whose shoulder (of
        ``shoulders`` (2, 2)) is nearer the offered pointer, changing only when the other
        is ``HAND_SWITCH_MARGIN`` nearer (with the cup in the nearer hand, the other
        reaches: it would hang idle)."""
        distance = np.where(free, np.hypot(*(np.array(self.offered) - shoulders).T), np.inf)
        one = self.reaching.sum() == 1
        current = int(np.argmax(self.reaching)) if one else int(np.argmin(distance))
        if distance[1 - current] < distance[current] - HAND_SWITCH_MARGIN:
            current = 1 - current
        self.reaching[:] = False
        self.reaching[current] = True

    def _face_pointer(self, move: float, dt: float) -> None:
        """Standing, a body whose hands are offered the pointer behind it turns round to
        face it (a shoulder cannot reach straight back); the turn, once asked for, goes on
        until it faces that way. Walking, the walk's direction decides, and a walk the other
        way asks for the turn too: a tap of the other key turns him round (the turn is not
        dropped with the key, which would leave him stopped facing the old way) once it is
        held ``TAP_MIN_S`` (so both keys let go or pressed 30 ms apart do not turn him
        round); the pointer is then not offered until the mouse moves again."""
        crowd = self.crowd
        goal, facing = float(crowd.intent.face_goal[0]), float(crowd.facing[0])
        against = abs(move) > 0.05 and math.copysign(1.0, move) != facing
        self.against_s = self.against_s + dt if against else 0.0
        if abs(move) > 0.05:
            goal = -facing if self.against_s >= TAP_MIN_S else 0.0
            if self.against_s >= TAP_MIN_S:  # the latest ask wins: the pointer, still since,
                self.pointer_still_s = math.inf  # does not turn him back (it moves: it does)
        if goal == facing:
            goal = 0.0
        ahead = self._pointer_ahead(move)
        if ahead is not None and ahead < -TURN_BEHIND_M:
            goal = -facing
        crowd.turn_to(0, goal)

    def _pointer_ahead(self, move: float) -> float | None:
        """How far the offered pointer is ahead of the shoulders (metres, negative behind)
        while the body is not asked to walk; None otherwise."""
        if self.offered is None or abs(move) > 0.05:
            return None
        crowd = self.crowd
        return (self.offered[0] - float(crowd.pose.roots[0, ARMS, 0].mean())) * crowd.facing[0]

    def _crouch(self, move: float) -> None:
        """Standing, the body crouches for what a hand wants below its standing reach: the
        cup on the floor or a spot there to set it down, or the pointer held low in front
        (as deep as that point needs); reaching from a table's end for its top, it leans
        over the top as deep as the hand needs; otherwise, and walking, it stands up."""
        crowd, hands = self.crowd, self.props
        pelvis_x = float(crowd.x[0])
        lean = None if hands is None else hands.table_lean(pelvis_x, crowd.rig, crowd.terrain)
        if lean is not None:
            crowd.crouch_to(0, lean)
            return
        low = None if hands is None else hands.crouch_point()
        point = None
        if hands is not None and low is not None:
            # (not while a step to it is wanted: he stands up to take it; crouched for a spot
            # he still has to step back for, he would never stand up to step)
            if hands.phase == ReachPhase.REACH or abs(move) <= 0.05:
                point = low
        elif (ahead := self._pointer_ahead(move)) is not None and -0.2 < ahead < 1.0:
            point = np.array(self.offered)
        crowd.crouch_to(0, 0.0 if point is None else self._crouch_depth(float(point[1])))

    def _crouch_depth(self, y: float) -> float:
        """How deep a crouch brings a hand down to height ``y``: none down to the standing
        arm's reach, full at ``FLOOR_HAND_M`` over the ground the feet stand on."""
        rig, feet = self.crowd.rig, self.crowd.feet
        ground = float(feet.lock[0, :, 1].mean()) - rig.legs.ankle_height
        standing = (
            rig.legs.ankle_height
            + rig.gait.stand_extension * rig.legs.limb.reach
            + rig.body.spine
            - REACH_FRACTION * rig.arms.limb.reach
        )  # the lowest a standing hand reaches easily, over the ground
        return float(clamp((standing - (y - ground)) / (standing - FLOOR_HAND_M), 0.0, 1.0))
