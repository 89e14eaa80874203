"""Stepping between the top of the ladder and the loft beside it (no pygame).

One timeline s in [0, 1], played forward to step off and backward to climb on. At the top
the hands hold the rung about the waist (the highest a hand climbs by a loft, so that no
hand has to come down first). Stepping off, each limb moves alone in its window
(:data:`STEP_OFF`): the left foot onto the loft at once, the hips going over the rails
with it, both hands holding; the left hand lets go; the right hand moves along its rung to
the far rail and holds it while the right foot steps across; then it lets go. The pelvis
follows keyframes (:data:`PELVIS_KEYS`) so that every limb still on the ladder stays
within reach of its hold.
"""

from __future__ import annotations

import math
from typing import Protocol

import numpy as np

from game.world.easing import smoothstep
from game.world.props.ladder_pose import Holds, shoulders, swing
from game.world.types import BoolArray, FloatArray, IntArray

TRANSFER_S = 2.2
# (limb, s0, s1, where it goes): each limb's moves in order, from its top-grip rung;
# "loft": a foot onto the loft, "free": a hand off to its resting place, "rail": a hand
# along its rung to the far rail
STEP_OFF = (
    (2, 0.0, 0.27, "loft"),
    (0, 0.27, 0.39, "free"),
    (1, 0.39, 0.51, "rail"),
    (3, 0.51, 0.76, "loft"),
    (1, 0.76, 1.0, "free"),
)
# pelvis keyframe times: the top grip, over the rails (the left foot down), held there
# while the hands change holds, halfway to standing (the right foot down), standing
PELVIS_KEYS = (0.0, 0.27, 0.51, 0.76, 1.0)
# Climbing down from the loft standing farther right than ``loft_spot`` of its spot, his
# back to the ladder, he first steps back to it, one foot then the other, in strides of up
# to ``stride_back`` (:class:`~game.world.props.ladder_sizes.ClimbSizes`), each
# STRIDE_BACK_S: were the left foot to wait on the loft while the hips went over the rails,
# that leg would over-reach.
STRIDE_BACK_S = 0.6


class ClimbingBody(Protocol):
    """The limbs the loft step moves: each limb's rung (−1 off the rungs) and end target in
    LIMBS order, the hands holding the far rail, the pelvis, and the limb moving now (−1:
    none)."""

    rung: IntArray
    rail: BoolArray
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

    def __init__(self, holds: Holds) -> None:
        self.holds = holds
        self.ladder, self.rig, self.sizes = holds.ladder, holds.rig, holds.sizes
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
        for limb in range(4):
            self._place(body, limb, s)
        if (s >= 1.0 and self.direction > 0) or (s <= 0.0 and self.direction < 0):
            self.direction = 0
            return True
        return False

    def _place(self, body: ClimbingBody, limb: int, s: float) -> None:
        """``limb`` at time ``s``: at the place its last window before ``s`` took it to
        (its top-grip rung before any), or on its way within a window."""
        place, rung, held = self.top_ends[limb], int(self.top_rungs[limb]), "rung"
        for moved, s0, s1, where in STEP_OFF:
            if moved != limb or s <= s0:
                continue
            to = self._station(body, limb, where, s)
            if s >= s1:
                place, rung, held = to, -1, where
                continue
            body.moving = limb
            body.ends[limb] = self._path(body, limb, (place, to), where, (s - s0) / (s1 - s0))
            body.rung[limb] = -1
            if limb < 2:
                body.rail[limb] = False
            return
        body.ends[limb] = place
        body.rung[limb] = rung
        if limb < 2:
            body.rail[limb] = held == "rail"

    def _station(self, body: ClimbingBody, limb: int, where: str, s: float) -> FloatArray:
        """Where ``limb`` goes in a window: ``where`` is "loft", "free" or "rail"."""
        if where == "loft":
            return self.loft_ends[limb - 2]
        if where == "free":
            return self._free_hand(body, limb, s)
        loft = self.ladder.loft
        assert loft is not None
        return self.holds.rail_point(float(loft[1]) + self.sizes.rail_hold)

    def _path(
        self,
        body: ClimbingBody,
        limb: int,
        ends: tuple[FloatArray, FloatArray],
        where: str,
        u: float,
    ) -> FloatArray:
        """``limb`` ``u`` of the way between ``ends`` (from, to) in a window going to
        ``where``: a hand to or from its resting place swung about the shoulder; a foot
        to the loft, or a hand along its rung, eased and lifted clear."""
        start, end = ends
        if where == "free":
            return swing(shoulders(body.pelvis, self.rig.body)[limb], start, end, u)
        lift = self.sizes.loft_foot_lift if where == "loft" else self.sizes.arc_rise
        bulge = np.array([0.0, lift * math.sin(math.pi * u)])
        return start + (end - start) * float(smoothstep(u)) + bulge

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
        """The pelvis on the timeline: from the top grip over the rails as the left foot
        steps onto the loft, held there while the hands change holds, then halfway to
        standing as the right foot steps across, then standing."""
        loft = self.ladder.loft
        assert loft is not None
        feet_y = float(loft[1]) + self.rig.legs.ankle_height
        over = np.array([self.ladder.x + self.sizes.over_x, feet_y + self._over_height()])
        stand = self._loft_stand()
        keys = np.array([self.top_pelvis, over, over, (over + stand) / 2, stand])
        k = min(int(np.searchsorted(PELVIS_KEYS, s, side="right")) - 1, len(keys) - 2)
        k = max(k, 0)
        u = (s - PELVIS_KEYS[k]) / (PELVIS_KEYS[k + 1] - PELVIS_KEYS[k])
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
        except climbing back on from the loft, when it comes there from where it was
        (over the part of the timeline after it let go; a hand letting go last reaches
        for the rail from where it was)."""
        rest = self.holds.rest_point(body.pelvis, limb)
        if self.direction >= 0:
            return rest
        off_by = max(s1 for moved, _, s1, where in STEP_OFF if moved == limb and where == "free")
        if off_by >= 1.0:
            return self.free_hands[limb]
        away = float(smoothstep((s - off_by) / (1.0 - off_by)))
        return rest + (self.free_hands[limb] - rest) * away
