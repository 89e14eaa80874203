"""The ladder: its asset section, and the hero on it, every limb on a rung, one limb moving at
a time (no pygame).

Hands grip rungs and feet stand on rungs, each limb's end a target for the analytic
solver with its pole hint (knees forward toward the ladder, elbows down). At the bottom the
hero steps off onto the ground; where the terrain beside the ladder's top is a loft level
with a rung (:attr:`Ladder.loft`), the hero steps off onto it at the top and can climb back
down from it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from game.world.arms import HAND_SPEED, elbow_poles, follow_hands
from game.world.character import PoseInputs, knee_poles
from game.world.easing import halflife_blend, smoothstep
from game.world.props.base import FLAT_TOLERANCE_M, WORLD_X, FloatArray, flat_base
from game.world.rig import BodySpec, Rig
from game.world.schema import Fields, Range
from game.world.terrain import Terrain

LIMB_MOVE_S = 0.28  # one limb's move from rung to rung (a rung in 1.1 s, 0.27 m/s)
LIMB_MOVE_FAST_S = 0.16  # ... with Shift held: a rung in 0.64 s (0.47 m/s)
TAP_CYCLE_MOVES = 4  # a tap of W / S climbs one cycle: each limb moves once
TAP_TIMEOUT_S = 6.0  # a tap that has not got the hero onto the ladder by then lapses
CLIMB_OFFSET_M = 0.32  # the pelvis stays this far in front of the rails (facing +x)
HIP_ABOVE_FOOT_M = 0.72  # pelvis height above the lower ankle while on the ladder
PELVIS_CLIMB_HALFLIFE = 0.15
DESCENT_LEAD = 0.6  # a foot stepping down: the hips aim for its rung by 0.6 of its move
HANDS_ABOVE_FEET = 4  # rungs between the feet and the hands in the resting grip
FOOT_TOE_IN_M = 0.08  # ankles this far before the rails (the sole's ball on the rung)
# contralateral climbing: a hand, then the opposite foot; limbs in LIMBS order (arm L, R, leg L, R)
UP_ORDER = (1, 2, 0, 3)
DOWN_ORDER = (3, 0, 2, 1)

# Stepping between the top of the ladder and the loft: one timeline s in [0, 1], played
# forward to step off and backward to climb on. Each limb moves alone in its window (left
# foot onto the loft, left hand off its rung, right hand, right foot); the pelvis follows
# keyframes so that every limb still on the ladder stays within reach of its rung.
# First, the pelvis still at the top grip, each hand moves down from the top grip to the
# lowest rung it may hold, about the waist: held at shoulder height the hands ended beside
# the head once the pelvis was over the rails, the arms folded over the face, elbows up.
TRANSFER_S = 3.0
HANDS_DOWN_WINDOWS = ((0, 0.0, 0.1), (1, 0.1, 0.2))
TRANSFER_WINDOWS = ((0, 0.6, 0.696), (1, 0.696, 0.792), (2, 0.4, 0.6), (3, 0.792, 0.96))
# the transfer time by which, stepping off onto the loft, both hands have let go of the rails
_HANDS_OFF_BY = max(s1 for limb, _, s1 in TRANSFER_WINDOWS if limb < 2)
TRANSFER_KEYS = (0.0, 0.2, 0.4, 0.6, 0.792, 1.0)  # pelvis keyframe times (_transfer_pelvis)
LOFT_FEET_M = (0.1, 0.28)  # left and right ankle this far beyond the loft's edge
LOFT_PELVIS_M = 0.2  # the standing pelvis this far beyond the edge
# Climbing down from the loft standing farther right than LOFT_SPOT_M of its spot, his back
# to the ladder, he first steps back to it, one foot then the other, in strides of up to
# STRIDE_BACK_M, each STRIDE_BACK_S: from where he stood, the left foot waited on the loft
# while the hips went over the rails, and the leg over-reached (4.4 cm from 0.14 m right
# of the spot, 12.6 cm from 0.29 m); walking there instead took a turn away and one back.
LOFT_SPOT_M = 0.03
STRIDE_BACK_M = 0.3
STRIDE_BACK_S = 0.6
STEP_BACK_LIFT_M = 0.06  # a foot stepping back clears the floor by this much
LOFT_SEARCH_M = 0.4  # a loft's edge must begin this close beyond the ladder's far rail
LOFT_MIN_HEIGHT_M = 0.5  # ... this much above the ladder's base
LOFT_DEPTH_M = 0.8  # ... and stay flat this far, room to stand
LOFT_RUNG_TOLERANCE_M = 0.06  # ... level with a rung to within this

RANGES: dict[str, Range] = {
    "ladder.x": WORLD_X,
    "ladder.width": Range(0.1, 2.0, "m"),
    "ladder.height": Range(0.5, 30.0, "m"),
    "ladder.first_rung": Range(0.05, 30.0, "m"),
    "ladder.rung_spacing": Range(0.1, 1.0, "m"),
}


@dataclass(frozen=True, slots=True)
class Ladder:
    """A vertical ladder: rails at ``x ± width/2`` from ``base`` up ``height``.

    Attributes
    ----------
    rungs : ndarray, shape (K,)
        World y of each rung, bottom first.
    loft : ndarray, shape (2,), or None
        Where the ground the ladder leans on begins at its top: the wall's top edge
        ``(x, y)`` beyond the rails, level (within ``LOFT_RUNG_TOLERANCE_M``) with the rung
        ``loft_rung``; None for a free-standing ladder (no stepping off at the top).
    loft_rung : int
        The rung level with the loft, or −1.
    """

    x: float
    base: float
    width: float
    height: float
    rungs: FloatArray
    loft: FloatArray | None = None
    loft_rung: int = -1


def load_ladder(fields: Fields, terrain: Terrain) -> Ladder:
    """The ``ladder`` section of a props file: standing on flat ground, with the loft by its
    top where the terrain has one (:func:`_loft`)."""
    ladder_f = fields.section("ladder")
    lx = ladder_f.number("x")
    l_width, l_height = ladder_f.length("width"), ladder_f.length("height")
    l_base = flat_base(fields, terrain, "ladder", lx - l_width / 2, lx + l_width / 2)
    first, spacing = ladder_f.length("first_rung"), ladder_f.length("rung_spacing")
    if first >= l_height:
        raise ladder_f.error("first_rung", f"expected a height below the top ({l_height:g})")
    rungs = l_base + np.arange(first, l_height + 1e-9, spacing)
    loft, loft_rung = _loft(terrain, lx + l_width / 2, l_base, rungs)
    return Ladder(lx, l_base, l_width, l_height, rungs, loft, loft_rung)


def _loft(
    terrain: Terrain, rail_x: float, base: float, rungs: FloatArray
) -> tuple[FloatArray | None, int]:
    """The loft by the ladder's top: ground within ``LOFT_SEARCH_M`` beyond the far rail
    ``rail_x`` that is flat for ``LOFT_DEPTH_M``, well above the base and level with a rung.
    Returns its edge point and that rung, or ``(None, -1)``."""
    xs = rail_x + np.arange(0.0, LOFT_SEARCH_M, 0.01)
    ground = terrain.height_at(xs)
    risen = np.flatnonzero(ground > base + LOFT_MIN_HEIGHT_M)
    if risen.size == 0:
        return None, -1
    # the wall's face rises over a few centimetres: the edge is where it reaches its top
    level = float(terrain.height_at(xs[risen[0]] + 0.1))
    on_top = np.flatnonzero(ground >= level - FLAT_TOLERANCE_M / 2)
    edge = float(xs[on_top[0]]) if on_top.size else float(xs[risen[0]] + 0.1)
    top = terrain.height_at(np.linspace(edge, edge + LOFT_DEPTH_M, 12))
    level = float(top[0])
    if np.abs(top - level).max() > FLAT_TOLERANCE_M:
        return None, -1
    rung = int(np.argmin(np.abs(rungs - level)))
    if abs(float(rungs[rung]) - level) > LOFT_RUNG_TOLERANCE_M:
        return None, -1
    return np.array([edge, level]), rung


class LadderClimb:
    """The hero on the ladder: every limb on a rung, one limb moving at a time.

    Hands grip rungs (``rung`` −1: not gripping), feet stand on rungs (−1: the ground
    beside the ladder where they were when the climb began, or the loft). Holding W climbs
    in the order right hand, left foot, left hand, right foot; S reverses it; at the bottom
    the hands let go and the hero steps back into the gait. Where the ladder has a loft,
    the feet climb no higher than its rung, and W at the top steps off onto it (one limb
    at a time, :data:`TRANSFER_WINDOWS`); S from the loft's spot climbs back on.

    Attributes
    ----------
    active : bool
        On the ladder.
    rung : ndarray of int, shape (4,)
        Each limb's rung in LIMBS order.
    ends : ndarray, shape (4, 2)
        Each limb's end target this step (hand on the rung, ankle above it).
    moving : int
        The limb moving now, or −1.
    transfer : float
        Progress of a step between the ladder's top (0) and the loft (1).
    transfer_dir : int
        +1 stepping off onto the loft, −1 climbing on from it, 0 neither.
    """

    def __init__(self, ladder: Ladder, rig: Rig) -> None:
        self.ladder = ladder
        self.rig = rig
        self.active = False
        self.rung = np.full(4, -1)
        self.ends = np.zeros((4, 2))
        self.ground = np.zeros((2, 2))
        self.pelvis = np.zeros(2)
        self.moving = -1
        self.move_from = np.zeros(2)
        self.move_to = np.zeros(2)
        self.u = 0.0
        self.moves = 0
        self.top = len(ladder.rungs) - 1
        self.feet_top = ladder.loft_rung if ladder.loft is not None else self.top
        self._last = -1  # the limb that moved last
        self._swung = False  # the moving limb is a hand swinging to or from its resting place
        self._least_s = 0.0  # ... taking at least this long (at an arm's pace)
        self._descending = False  # the last move went down
        self.transfer = 0.0
        self.transfer_dir = 0
        self._top_ends = np.zeros((4, 2))  # the grip at the top of the ladder
        self._top_rungs = np.full(4, -1)
        self._top_pelvis = np.zeros(2)
        self._loft_ends = np.zeros((2, 2))  # the feet standing on the loft
        self._back = 0.0  # the step back to the loft's spot: timeline beyond 1 (0: none)
        self._strides = 0  # ... in this many strides
        self._stood = np.zeros((3, 2))  # ... from where he stood: ankles (2), pelvis
        self._free_hands = np.zeros((2, 2))  # the hands off the rungs at the transfer's loft end

    @property
    def loft_spot_x(self) -> float | None:
        """Where the pelvis stands on the loft to climb down, or None without a loft."""
        loft = self.ladder.loft
        return None if loft is None else float(loft[0]) + LOFT_PELVIS_M

    @property
    def spot_x(self) -> float:
        """Where the pelvis stands to climb."""
        return self.ladder.x - CLIMB_OFFSET_M

    def grip_point(self, limb: int, rung: int) -> FloatArray:
        """The end target of ``limb`` on ``rung`` (a hand's −1 is its resting place)."""
        if limb < 2:
            if rung < 0:
                side = -1.0 if limb == 0 else 1.0
                return self.pelvis + np.array([0.02 * side, 0.5 - 0.92 * self.rig.arms.limb.reach])
            return np.array([self.ladder.x, self.ladder.rungs[rung]])
        if rung < 0:
            return self.ground[limb - 2].copy()
        ankle = self.rig.legs.ankle_height
        return np.array([self.ladder.x - FOOT_TOE_IN_M, self.ladder.rungs[rung] + ankle])

    def mount(self, ankles: FloatArray, hands: FloatArray, pelvis: FloatArray) -> None:
        """Start climbing from standing: feet at ``ankles`` (2, 2), hands free at ``hands``."""
        self.active = True
        self.rung[:] = -1
        # the feet step back down under the climbing spot, where the hips climb (from past
        # it, under the ladder, they came down where he had stood, 16 cm ahead of the hips)
        self.ground = ankles + np.array([self.spot_x - float(pelvis[0]), 0.0])
        self.pelvis = pelvis.copy()
        self.ends = np.concatenate([hands, ankles])
        self.moving = -1
        self._descending = False

    def _allowed(self, limb: int, rung: int) -> bool:
        hands, feet = self.rung[:2], self.rung[2:]
        if limb < 2:
            other = hands[1 - limb]
            low = max(int(feet.max()) + HANDS_ABOVE_FEET - 1, 0)
            high = min(int(feet.min()) + HANDS_ABOVE_FEET + 1, self.top)
            # a free hand may only grab; gripping hands let go only at the bottom
            if self.rung[limb] < 0:
                return rung >= 0 and low <= rung <= high
            if rung < 0:
                return bool(feet.max() < 0) and other <= self.rung[limb]
            return other >= 0 and low <= rung <= high
        if (hands < 0).any():
            return False
        low = max(int(hands.max()) - HANDS_ABOVE_FEET - 1, -1)
        high = min(int(hands.min()) - HANDS_ABOVE_FEET + 1, self.feet_top)
        return low <= rung <= high

    def can_climb(self, direction: int) -> bool:
        """A limb can still move ``direction`` (+1 up, −1 down) from this grip."""
        return self._next_move(direction) is not None

    def _next_move(self, direction: int) -> tuple[int, int] | None:
        if direction > 0:
            for limb in (1, 0):  # free hands grab first, right then left
                if self.rung[limb] < 0:
                    rung = int(self.rung[2:].min()) + HANDS_ABOVE_FEET
                    return (limb, rung) if self._allowed(limb, rung) else None
        order = UP_ORDER if direction > 0 else DOWN_ORDER
        # the limb that has waited longest in the climbing order goes next
        start = (order.index(self._last) + 1) % 4 if self._last in order else 0
        for k in range(4):
            limb = order[(start + k) % 4]
            rung = int(self.rung[limb]) + direction
            if limb < 2 and direction < 0 and self.rung[2:].max() < 0:
                rung = -1  # at the bottom the hands let go
            if rung != self.rung[limb] and self._allowed(limb, rung):
                return limb, rung
        return None

    def step(self, climb: float, dt: float, fast: bool = False) -> bool:
        """Advance one step with climb intent ``climb`` (W +1 / S −1), ``fast`` with Shift.

        Returns True when the hero has stepped off, at the bottom or onto the loft (the gait
        takes over; the feet stand at ``ends[2:]``).
        """
        if self.transfer_dir != 0:
            return self._step_transfer(dt)
        if self.moving < 0 and climb > 0.5 and self._at_loft():
            self._begin_step_off()
            return self._step_transfer(dt)
        if self.moving >= 0:
            seconds = max(LIMB_MOVE_FAST_S if fast else LIMB_MOVE_S, self._least_s)
            self.u = min(self.u + dt / seconds, 1.0)
            if self._swung:
                self.ends[self.moving] = self._swing(
                    self.moving, self.move_from, self.move_to, self.u
                )
            else:
                self.ends[self.moving] = self._arc(self.u)
            if self.u >= 1.0:
                self._last = self.moving
                self.moving = -1
                self.moves += 1
        if self.moving < 0 and abs(climb) <= 0.5 and self._descending and self.rung[2:].max() < 0:
            climb = -1.0  # both feet down on the way down: the hands let go by themselves
        if self.moving < 0 and abs(climb) > 0.5:
            move = self._next_move(1 if climb > 0 else -1)
            if move is not None:
                limb, rung = move
                self.moving, self.u = limb, 0.0
                self._descending = climb < 0
                self.move_from = self.ends[limb].copy()
                # a hand to or from its resting place swings about the shoulder (the chord
                # passes by it: the elbow swung 17 cm a step), rung to rung it arcs off the rails
                self._swung = limb < 2 and min(rung, int(self.rung[limb])) < 0
                self.rung[limb] = rung
                self.move_to = self.grip_point(limb, rung)
                # (letting go with Shift, a hand swung 0.6 m to the hip in 0.16 s: 9 m/s)
                letting_go = self._swung and rung < 0
                self._least_s = self._swing_seconds(limb) if letting_go else 0.0
        feet_y = float(self.ends[2:, 1].min())
        fro, to = float(self.move_from[1]), float(self.move_to[1])
        if self.moving >= 2 and to < fro:
            # a foot on its way down lowers the hips ahead of it, so the leg never over-reaches,
            # eased in over the move's first part (the whole rung at once set the pelvis from
            # still to 1.33 m/s down in one step, a drop at every rung)
            lead = float(smoothstep(min(self.u / DESCENT_LEAD, 1.0)))
            feet_y = min(feet_y, fro + (to - fro) * lead)
        # the last foot on its way to the ground (or both there): the hips rise to standing
        # (held at the climbing height, he stepped off squatting 16 cm low, knees at 72°)
        down = self._descending and bool((self.rung[2:] < 0).all())
        standing = self.rig.gait.stand_extension * self.rig.legs.limb.reach
        rise = (float(smoothstep(self.u)) if self.moving >= 2 else 1.0) if down else 0.0
        above = HIP_ABOVE_FOOT_M + (standing - HIP_ABOVE_FOOT_M) * rise  # (over that foot's move)
        target = np.array([self.spot_x, feet_y + above])
        # with Shift a foot steps down 1.75 times as fast, and so do the hips: at their
        # walking pace they lagged the eased lead and the leg over-reached by 4.5 cm
        quick = fast and self._descending
        halflife = PELVIS_CLIMB_HALFLIFE * (LIMB_MOVE_FAST_S / LIMB_MOVE_S if quick else 1.0)
        self.pelvis += (target - self.pelvis) * halflife_blend(dt, halflife)
        # a hand off the rungs goes to its resting place at an arm's pace (reaching for the
        # pointer as he got on, it would snap there: 0.9 m in a step)
        free = [limb for limb in range(2) if self.rung[limb] < 0 and limb != self.moving]
        if free:
            shoulders = self._shoulders(self.rig.body)
            rest = np.array([self.grip_point(limb, -1) for limb in range(2)])
            moved = follow_hands(
                (self.ends[:2] - shoulders)[None],
                rest[None],
                shoulders[None],
                np.ones(1),
                dt,
                self.rig,
            )[0]
            self.ends[free] = moved[free]
        if self.moving >= 0:
            self.move_to = self.grip_point(self.moving, int(self.rung[self.moving]))
        done = self.moving < 0 and bool((self.rung < 0).all()) and climb < -0.5
        if done:
            self.active = False
        return done

    # -- the loft ----------------------------------------------------------------------
    def _at_loft(self) -> bool:
        """At the top with a loft beside it: feet on its rung, hands as high as they go."""
        return (
            self.ladder.loft is not None
            and bool((self.rung[2:] == self.ladder.loft_rung).all())
            and bool((self.rung[:2] >= 0).all())
            and self._next_move(1) is None
        )

    def mount_from_loft(self, ankles: FloatArray, hands: FloatArray, pelvis: FloatArray) -> None:
        """Start climbing down from standing on the loft (feet at ``ankles`` (2, 2), hands
        free at ``hands``, facing the ladder's side: +x): the step-off played backwards,
        ending in the top grip; each hand sets off from where it is."""
        loft_rung = self.ladder.loft_rung
        self.active = True
        self.pelvis = pelvis.copy()
        self.rung[:] = -1
        # where the feet will stand when the hero steps off at the foot of the ladder
        ankle_y = self.ladder.base + self.rig.legs.ankle_height
        stance = self.rig.gait.stance_spread
        self.ground = np.array([[self.spot_x - stance, ankle_y], [self.spot_x + stance, ankle_y]])
        hand_rungs = np.minimum(
            [loft_rung + HANDS_ABOVE_FEET, loft_rung + HANDS_ABOVE_FEET + 1], self.top
        )
        self._top_rungs = np.array([*hand_rungs.tolist(), loft_rung, loft_rung])
        self._top_ends = np.array(
            [self._rung_point(limb, int(r)) for limb, r in enumerate(self._top_rungs)]
        )
        feet_y = float(self._top_ends[2:, 1].min())
        self._top_pelvis = np.array([self.spot_x, feet_y + HIP_ABOVE_FOOT_M])
        self._loft_ends = ankles.copy()
        self._free_hands = hands.copy()
        self._back, self._strides = 0.0, 0
        back = float(pelvis[0] - self._loft_stand()[0])
        if back > LOFT_SPOT_M:  # right of the spot: he steps back to it first
            self._stood = np.concatenate([ankles, pelvis[None]])
            self._loft_ends = self._loft_feet()
            # the hands hang where they were, carried back with the pelvis
            self._free_hands = hands + (self._loft_stand() - pelvis)
            self._strides = math.ceil(back / STRIDE_BACK_M)
            self._back = self._strides * STRIDE_BACK_S / TRANSFER_S
        self.ends = np.concatenate([hands, ankles])
        self.transfer, self.transfer_dir, self.moving = 1.0 + self._back, -1, -1

    def _loft_feet(self) -> FloatArray:
        """The ankles standing on the loft by the top of the ladder (2, 2)."""
        loft = self.ladder.loft
        assert loft is not None
        ankle = self.rig.legs.ankle_height
        return np.array([[loft[0] + dx, loft[1] + ankle] for dx in LOFT_FEET_M])

    def _loft_stand(self) -> FloatArray:
        """The standing pelvis on the loft by the top of the ladder (its climbing spot)."""
        loft = self.ladder.loft
        assert loft is not None
        feet_y = float(loft[1]) + self.rig.legs.ankle_height
        standing = feet_y + self.rig.gait.stand_extension * self.rig.legs.limb.reach
        return np.array([float(loft[0]) + LOFT_PELVIS_M, standing])

    def _step_back(self, u: float) -> None:
        """The step back to the loft's spot ``u`` of the way (0 where he stood, 1 there): in
        each stride the left foot (the rear one, nearer the edge) steps in its first half
        and the right in its second, each an equal part of the way, lifted off the floor
        (the loft is level); the pelvis keeps between the feet, low enough for both legs
        to reach the floor (at standing height a foot 0.25 m out over-reached 1.8 cm)."""
        strides = u * self._strides
        stride = min(int(strides), self._strides - 1)
        self.moving, done = -1, np.zeros(2)
        for foot in range(2):
            w = min(max(2.0 * (strides - stride) - foot, 0.0), 1.0)
            if 0.0 < w < 1.0:
                self.moving = 2 + foot
            done[foot] = (stride + float(smoothstep(w))) / self._strides
            start, end = self._stood[foot], self._loft_ends[foot]
            lift = np.array([0.0, STEP_BACK_LIFT_M * math.sin(math.pi * w)])
            self.ends[2 + foot] = start + (end - start) * done[foot] + lift
        stood, stand = self._stood[2], self._loft_stand()
        self.pelvis = stood + (stand - stood) * float(done.mean())
        legs, hip = self.rig.legs, self.rig.body.hip_depth
        reach = legs.limb.reach - legs.limb.softness  # (the soft solve's straight leg)
        out = self.ends[2:, 0] - (self.pelvis[0] + np.array([-hip, hip]))
        feet_y = self._stood[:2, 1] + (self._loft_ends[:, 1] - self._stood[:2, 1]) * done
        self.pelvis[1] = min(self.pelvis[1], float((feet_y + np.sqrt(reach**2 - out**2)).min()))
        self.ends[:2] = self._free_hands + (self.pelvis - stand)

    def _begin_step_off(self) -> None:
        """Step off onto the loft from the top grip (this step's ends and pelvis)."""
        self._top_rungs = self.rung.copy()
        self._top_ends = self.ends.copy()
        self._top_pelvis = self.pelvis.copy()
        self._loft_ends = self._loft_feet()
        self.transfer, self.transfer_dir, self._back = 0.0, 1, 0.0

    def _rung_point(self, limb: int, rung: int) -> FloatArray:
        """``limb``'s end on ``rung`` (never a resting or ground point)."""
        if limb < 2:
            return np.array([self.ladder.x, self.ladder.rungs[rung]])
        ankle = self.rig.legs.ankle_height
        return np.array([self.ladder.x - FOOT_TOE_IN_M, self.ladder.rungs[rung] + ankle])

    def _transfer_pelvis(self, s: float) -> FloatArray:
        """The pelvis on the transfer timeline: still while the hands move down, then up and
        over the rails toward the loft, pausing while the hands let go."""
        loft = self.ladder.loft
        assert loft is not None
        top = self._top_pelvis
        feet_y = float(loft[1]) + self.rig.legs.ankle_height
        over = np.array([self.ladder.x + 0.15, feet_y + 0.8])
        keys = np.array(
            [top, top, [self.ladder.x - 0.05, top[1] + 0.1], over, over, self._loft_stand()]
        )
        k = min(int(np.searchsorted(TRANSFER_KEYS, s, side="right")) - 1, len(keys) - 2)
        k = max(k, 0)
        u = (s - TRANSFER_KEYS[k]) / (TRANSFER_KEYS[k + 1] - TRANSFER_KEYS[k])
        return keys[k] + (keys[k + 1] - keys[k]) * float(smoothstep(min(max(u, 0.0), 1.0)))

    def _step_transfer(self, dt: float) -> bool:
        step = self.transfer_dir * dt / TRANSFER_S
        self.transfer = min(max(self.transfer + step, 0.0), 1.0 + self._back)
        s = self.transfer
        if s > 1.0:  # (climbing on) stepping back to the loft's spot first
            self._step_back(1.0 - (s - 1.0) / self._back)
            return False
        self.pelvis = self._transfer_pelvis(s)
        self.moving = -1
        low = self.ladder.loft_rung + HANDS_ABOVE_FEET - 1
        for limb, s0, s1 in TRANSFER_WINDOWS:
            u = min(max((s - s0) / (s1 - s0), 0.0), 1.0)
            on, rung = self._top_ends[limb], self._top_rungs[limb]
            off = self._free_hand(limb, s) if limb < 2 else self._loft_ends[limb - 2]
            if limb < 2 and rung > low:  # first down the rails to the low rung
                _, d0, d1 = HANDS_DOWN_WINDOWS[limb]
                down = min(max((s - d0) / (d1 - d0), 0.0), 1.0)
                if 0.0 < down < 1.0:
                    self.moving, self.rung[limb] = limb, -1
                    self.move_from, self.move_to = on, self._rung_point(limb, low)
                    self.ends[limb] = self._arc(down)
                    continue
                if down >= 1.0:
                    on, rung = self._rung_point(limb, low), low
            if u <= 0.0:
                self.rung[limb] = rung
                self.ends[limb] = on
            elif u >= 1.0:
                self.rung[limb] = -1
                self.ends[limb] = off
            elif limb < 2:
                self.moving, self.rung[limb] = limb, -1
                self.ends[limb] = self._swing(limb, on, off, u)
            else:
                self.moving, self.rung[limb] = limb, -1
                lift = 0.12 * math.sin(math.pi * u)
                self.ends[limb] = on + (off - on) * float(smoothstep(u)) + np.array([0.0, lift])
        if s >= 1.0 and self.transfer_dir > 0:
            self.transfer_dir, self.active = 0, False
            return True  # standing on the loft
        if s <= 0.0 and self.transfer_dir < 0:
            self.transfer_dir, self._last = 0, 3  # on the ladder: the climb down begins
        return False

    def _swing_seconds(self, limb: int) -> float:
        """The least time the moving hand's swing (:meth:`_swing`) takes at ``HAND_SPEED``:
        its path about the shoulder, turn times the larger radius plus the change of radius,
        times smoothstep's peak speed (1.5 its mean)."""
        shoulder = self._shoulders(self.rig.body)[limb]
        (ax, ay), (bx, by) = self.move_from - shoulder, self.move_to - shoulder
        turn = abs(math.remainder(math.atan2(by, bx) - math.atan2(ay, ax), math.tau))
        radii = math.hypot(ax, ay), math.hypot(bx, by)
        return 1.5 * (turn * max(radii) + abs(radii[1] - radii[0])) / HAND_SPEED

    def _swing(self, limb: int, on: FloatArray, off: FloatArray, u: float) -> FloatArray:
        """A hand ``u`` of the way between its rung ``on`` and its free place ``off``, swung
        about the shoulder (angle and distance eased, the short way round). Along the chord
        it passed by the shoulder, letting go at the ladder's foot and at the loft, folding
        the arm through its dead zone: the elbow swung 17-18 cm a step."""
        shoulder = self._shoulders(self.rig.body)[limb]
        (ax, ay), (bx, by) = on - shoulder, off - shoulder
        start = math.atan2(ay, ax)
        turn = math.remainder(math.atan2(by, bx) - start, math.tau)  # in [-pi, pi]
        s = float(smoothstep(u))
        angle = start + turn * s
        radius = math.hypot(ax, ay) + (math.hypot(bx, by) - math.hypot(ax, ay)) * s
        return shoulder + radius * np.array([math.cos(angle), math.sin(angle)])

    def _free_hand(self, limb: int, s: float) -> FloatArray:
        """A hand off the rungs at transfer time ``s``: at its resting place beside the
        ladder, except climbing back on from the loft, when it comes there from where it was
        (over the transfer's first part, before any hand grips: it jumped there at once)."""
        rest = self.grip_point(limb, -1)
        if self.transfer_dir >= 0:
            return rest
        away = float(smoothstep((s - _HANDS_OFF_BY) / (1.0 - _HANDS_OFF_BY)))
        return rest + (self._free_hands[limb] - rest) * away

    def _arc(self, u: float) -> FloatArray:
        """The moving limb ``u`` of the way along: eased, swung out from the rails."""
        s = float(smoothstep(u))
        out = np.array([-0.1 * math.sin(math.pi * u), 0.04 * math.sin(math.pi * u)])
        return self.move_from + (self.move_to - self.move_from) * s + out

    def _shoulders(self, body: BodySpec) -> FloatArray:
        """The shoulders (2, 2) over the climbing pelvis (the chest ``body.spine`` above it)."""
        chest = self.pelvis + np.array([0.0, body.spine])
        return chest + np.array([[-1.0], [1.0]]) * np.array([body.shoulder_depth, 0.0])

    def pose(self, rig: Rig) -> PoseInputs:
        """The climbing pose for the solve (N = 1, facing +x): ends on their rungs, knee
        poles forward of the legs toward the ladder, elbow poles below the arms."""
        body, legs = rig.body, rig.legs
        pelvis = self.pelvis[None]
        up = np.array([0.0, 1.0])
        chest = pelvis + body.spine * up
        head = chest + (body.neck + body.head_radius) * up
        side = np.array([[-1.0], [1.0]])
        hips = pelvis + side * np.array([body.hip_depth, 0.0])
        shoulders = self._shoulders(body)
        roots = np.concatenate([shoulders, hips])
        elbows = elbow_poles(shoulders[None], self.ends[None, :2], np.ones(1), rig)[0]
        knees = knee_poles(hips[None], self.ends[None, 2:], np.ones(1), legs)[0]
        return PoseInputs(
            pelvis=pelvis,
            chest=chest,
            head=head,
            facing=np.ones(1),
            spin=np.ones(1),
            roots=roots[None],
            targets=self.ends[None].copy(),
            poles=np.concatenate([elbows, knees])[None],
            pole_on=np.ones((1, 4), dtype=bool),
            foot_angle=np.zeros((1, 2)),
            foot_bend=np.zeros((1, 2)),
            gaze=np.zeros(1),
        )


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
        self, held: float, pressed: float, walking: bool, ladder: LadderClimb | None, now_s: float
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
