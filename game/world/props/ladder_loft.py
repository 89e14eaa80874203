"""Stepping between the top of the ladder and the loft beside it (no pygame).

One timeline s in [0, 1], played forward to step off and backward to climb on. Each limb
moves alone in its window (left foot onto the loft, left hand off its rung, right hand,
right foot); the pelvis follows keyframes so that every limb still on the ladder stays
within reach of its rung. First, the pelvis still at the top grip, each hand moves down
from the top grip to the lowest rung it may hold, about the waist: held at shoulder height
the hands would end beside the head once the pelvis is over the rails, the arms folded over
the face.
"""

from __future__ import annotations

import math
from typing import Protocol

import numpy as np

from game.world.easing import smoothstep
from game.world.props.base import FloatArray
from game.world.props.ladder_pose import Holds, shoulders, swing
from game.world.terrain import IntArray

TRANSFER_S = 3.0
HANDS_DOWN_WINDOWS = ((0, 0.0, 0.1), (1, 0.1, 0.2))
TRANSFER_WINDOWS = ((0, 0.6, 0.696), (1, 0.696, 0.792), (2, 0.4, 0.6), (3, 0.792, 0.96))
# the transfer time by which, stepping off onto the loft, both hands have let go of the rails
_HANDS_OFF_BY = max(s1 for limb, _, s1 in TRANSFER_WINDOWS if limb < 2)
TRANSFER_KEYS = (0.0, 0.2, 0.4, 0.6, 0.792, 1.0)  # pelvis keyframe times (_pelvis)
# Climbing down from the loft standing farther right than ``loft_spot`` of its spot, his
# back to the ladder, he first steps back to it, one foot then the other, in strides of up
# to ``stride_back`` (:class:`~game.world.props.ladder_sizes.ClimbSizes`), each
# STRIDE_BACK_S: were the left foot to wait on the loft while the hips went over the rails,
# that leg would over-reach.
STRIDE_BACK_S = 0.6


class ClimbingBody(Protocol):
    """The limbs the loft step moves: each limb's rung (−1 off the rungs) and end target in
    LIMBS order, the pelvis, and the limb moving now (−1: none)."""

    rung: IntArray
    ends: FloatArray
    pelvis: FloatArray
    moving: int


def _unit(x: float) -> float:
    """``x`` clamped to [0, 1] (a window's progress)."""
    return min(max(x, 0.0), 1.0)


class LoftStep:
    """The step between the top grip and standing on the loft.

    Attributes
    ----------
    s : float
        Progress on the timeline: 0 the top grip, 1 standing on the loft; beyond 1 (climbing
        on from right of the loft's spot) the step back to it comes first.
    direction : int
        +1 stepping off onto the loft, −1 climbing on from it, 0 neither.
    """

    def __init__(self, holds: Holds, low_rung: int) -> None:
        self.holds = holds
        self.ladder, self.rig, self.sizes = holds.ladder, holds.rig, holds.sizes
        self.low_rung = low_rung  # the rung the hands come down to, about the waist
        self.s = 0.0
        self.direction = 0
        self.top_ends = np.zeros((4, 2))  # the grip at the top of the ladder
        self.top_rungs = np.full(4, -1)
        self.top_pelvis = np.zeros(2)
        self.loft_ends = np.zeros((2, 2))  # the feet standing on the loft
        self.back = 0.0  # the step back to the loft's spot: timeline beyond 1 (0: none)
        self.strides = 0  # ... in this many strides
        self.stood = np.zeros((3, 2))  # ... from where he stood: ankles (2), pelvis
        self.free_hands = np.zeros((2, 2))  # the hands off the rungs at the loft end

    @property
    def spot_x(self) -> float | None:
        """Where the pelvis stands on the loft to climb down, or None without a loft."""
        loft = self.ladder.loft
        return None if loft is None else float(loft[0]) + self.sizes.loft_pelvis

    def begin_step_off(self, rungs: IntArray, ends: FloatArray, pelvis: FloatArray) -> None:
        """Step off onto the loft from the top grip (``rungs`` (4,), ``ends`` (4, 2) and
        ``pelvis`` (2,) as they are this step)."""
        self.top_rungs = rungs.copy()
        self.top_ends = ends.copy()
        self.top_pelvis = pelvis.copy()
        self.loft_ends = self._loft_feet()
        self.s, self.direction, self.back = 0.0, 1, 0.0

    def begin_climb_on(
        self, stood: FloatArray, top: tuple[IntArray, FloatArray, FloatArray]
    ) -> None:
        """Climb on from standing on the loft, ending in the ``top`` grip (rungs (4,), ends
        (4, 2), pelvis (2,)); ``stood`` (5, 2) is where he stands: ankles, hands, pelvis.
        Standing right of the loft's spot, he first steps back to it."""
        ankles, hands, pelvis = stood[:2], stood[2:4], stood[4]
        self.top_rungs, self.top_ends, self.top_pelvis = top
        self.loft_ends = ankles.copy()
        self.free_hands = hands.copy()
        self.back, self.strides = 0.0, 0
        back = float(pelvis[0] - self._loft_stand()[0])
        if back > self.sizes.loft_spot:  # right of the spot: he steps back to it first
            self.stood = np.concatenate([ankles, pelvis[None]])
            self.loft_ends = self._loft_feet()
            # the hands hang where they were, carried back with the pelvis
            self.free_hands = hands + (self._loft_stand() - pelvis)
            self.strides = math.ceil(back / self.sizes.stride_back)
            self.back = self.strides * STRIDE_BACK_S / TRANSFER_S
        self.s, self.direction = 1.0 + self.back, -1

    def advance(self, body: ClimbingBody, dt: float) -> bool:
        """Move ``body`` ``dt`` along the timeline; True when the step has ended (on the
        loft stepping off, in the top grip climbing on)."""
        step = self.direction * dt / TRANSFER_S
        self.s = min(max(self.s + step, 0.0), 1.0 + self.back)
        s = self.s
        if s > 1.0:  # (climbing on) stepping back to the loft's spot first
            self._step_back(body, 1.0 - (s - 1.0) / self.back)
            return False
        body.pelvis = self._pelvis(s)
        body.moving = -1
        for limb, s0, s1 in TRANSFER_WINDOWS:
            self._place(body, limb, s, (s0, s1))
        if (s >= 1.0 and self.direction > 0) or (s <= 0.0 and self.direction < 0):
            self.direction = 0
            return True
        return False

    def _place(self, body: ClimbingBody, limb: int, s: float, window: tuple[float, float]) -> None:
        """``limb`` at time ``s``: on its top rung before its ``window``, at its loft end
        (a foot on the loft, a hand free) after it, moving between within it. A hand above
        the low rung first moves down the rails to it, in its HANDS_DOWN_WINDOWS."""
        s0, s1 = window
        u = _unit((s - s0) / (s1 - s0))
        on, rung, low = self.top_ends[limb], self.top_rungs[limb], self.low_rung
        off = self._free_hand(body, limb, s) if limb < 2 else self.loft_ends[limb - 2]
        if limb < 2 and rung > low:  # first down the rails to the low rung
            _, d0, d1 = HANDS_DOWN_WINDOWS[limb]
            down = _unit((s - d0) / (d1 - d0))
            if 0.0 < down < 1.0:
                body.moving, body.rung[limb] = limb, -1
                body.ends[limb] = self.holds.arc(on, self.holds.rung_point(limb, low), down)
                return
            if down >= 1.0:
                on, rung = self.holds.rung_point(limb, low), low
        if u <= 0.0:
            body.rung[limb] = rung
            body.ends[limb] = on
        elif u >= 1.0:
            body.rung[limb] = -1
            body.ends[limb] = off
        elif limb < 2:
            body.moving, body.rung[limb] = limb, -1
            body.ends[limb] = swing(shoulders(body.pelvis, self.rig.body)[limb], on, off, u)
        else:
            body.moving, body.rung[limb] = limb, -1
            lift = self.sizes.loft_foot_lift * math.sin(math.pi * u)
            body.ends[limb] = on + (off - on) * float(smoothstep(u)) + np.array([0.0, lift])

    def _loft_feet(self) -> FloatArray:
        """The ankles standing on the loft by the top of the ladder (2, 2)."""
        loft = self.ladder.loft
        assert loft is not None
        ankle = self.rig.legs.ankle_height
        out = (self.sizes.loft_left_foot, self.sizes.loft_right_foot)
        return np.array([[loft[0] + dx, loft[1] + ankle] for dx in out])

    def _loft_stand(self) -> FloatArray:
        """The standing pelvis on the loft by the top of the ladder (its climbing spot)."""
        loft = self.ladder.loft
        assert loft is not None
        feet_y = float(loft[1]) + self.rig.legs.ankle_height
        standing = feet_y + self.rig.gait.stand_extension * self.rig.legs.limb.reach
        return np.array([float(loft[0]) + self.sizes.loft_pelvis, standing])

    def _pelvis(self, s: float) -> FloatArray:
        """The pelvis on the timeline: still while the hands move down, then up and over the
        rails toward the loft, pausing while the hands let go."""
        loft = self.ladder.loft
        assert loft is not None
        top = self.top_pelvis
        feet_y = float(loft[1]) + self.rig.legs.ankle_height
        sizes = self.sizes
        over = np.array([self.ladder.x + sizes.over_x, feet_y + self._over_height()])
        lean_in = [self.ladder.x + sizes.lean_in_x, top[1] + sizes.lean_in_y]
        keys = np.array([top, top, lean_in, over, over, self._loft_stand()])
        k = min(int(np.searchsorted(TRANSFER_KEYS, s, side="right")) - 1, len(keys) - 2)
        k = max(k, 0)
        u = (s - TRANSFER_KEYS[k]) / (TRANSFER_KEYS[k + 1] - TRANSFER_KEYS[k])
        return keys[k] + (keys[k + 1] - keys[k]) * float(smoothstep(_unit(u)))

    def _over_height(self) -> float:
        """The pelvis over the rails, above the loft's ankles: ``over_y``, or lower where a
        leg, one foot on the top rung and one on the loft, would stretch past the standing
        extension (Pythagoras: the hip at most √(r² − dx²) above its ankle)."""
        legs, hip = self.rig.legs, self.rig.body.hip_depth
        reach = self.rig.gait.stand_extension * legs.limb.reach
        feet_x = np.array([self.loft_ends[0, 0], self.holds.rung_point(3, 0)[0]])
        hips_x = self.ladder.x + self.sizes.over_x + np.array([-hip, hip])
        above = np.sqrt(np.maximum(reach**2 - (feet_x - hips_x) ** 2, 0.0))
        return min(self.sizes.over_y, float(above.min()))

    def _step_back(self, body: ClimbingBody, u: float) -> None:
        """The step back to the loft's spot ``u`` of the way (0 where he stood, 1 there): in
        each stride the left foot (the rear one, nearer the edge) steps in its first half
        and the right in its second, each an equal part of the way, lifted off the floor
        (the loft is level); the pelvis keeps between the feet, low enough for both legs
        to reach the floor (at standing height a foot far out would over-reach)."""
        strides = u * self.strides
        stride = min(int(strides), self.strides - 1)
        body.moving, done = -1, np.zeros(2)
        for foot in range(2):
            w = _unit(2.0 * (strides - stride) - foot)
            if 0.0 < w < 1.0:
                body.moving = 2 + foot
            done[foot] = (stride + float(smoothstep(w))) / self.strides
            start, end = self.stood[foot], self.loft_ends[foot]
            lift = np.array([0.0, self.sizes.step_back_lift * math.sin(math.pi * w)])
            body.ends[2 + foot] = start + (end - start) * done[foot] + lift
        stood, stand = self.stood[2], self._loft_stand()
        body.pelvis = stood + (stand - stood) * float(done.mean())
        legs, hip = self.rig.legs, self.rig.body.hip_depth
        reach = legs.limb.reach - legs.limb.softness  # (the soft solve's straight leg)
        out = body.ends[2:, 0] - (body.pelvis[0] + np.array([-hip, hip]))
        feet_y = self.stood[:2, 1] + (self.loft_ends[:, 1] - self.stood[:2, 1]) * done
        body.pelvis[1] = min(body.pelvis[1], float((feet_y + np.sqrt(reach**2 - out**2)).min()))
        body.ends[:2] = self.free_hands + (body.pelvis - stand)

    def _free_hand(self, body: ClimbingBody, limb: int, s: float) -> FloatArray:
        """A hand off the rungs at time ``s``: at its resting place beside the ladder,
        except climbing back on from the loft, when it comes there from where it was (over
        the transfer's first part, before any hand grips)."""
        rest = self.holds.rest_point(body.pelvis, limb)
        if self.direction >= 0:
            return rest
        away = float(smoothstep((s - _HANDS_OFF_BY) / (1.0 - _HANDS_OFF_BY)))
        return rest + (self.free_hands[limb] - rest) * away
