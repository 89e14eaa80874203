"""The ladder and the hero on it, every limb on a rung, one limb moving at a time (no pygame).

Hands grip rungs and feet stand on rungs, each limb's end a target for the analytic
solver with its pole hint (knees forward toward the ladder, elbows down). At the bottom the
hero steps off onto the ground; where the terrain beside the ladder's top is a loft level
with a rung (:attr:`Ladder.loft`), the hero steps off onto it at the top and can climb back
down from it.

The jobs, one module each: the asset and its loft (:mod:`~game.world.props.ladder_asset`),
which limb moves next (:mod:`~game.world.props.ladder_order`), where the limbs go and the
pose for the solve (:mod:`~game.world.props.ladder_pose`), the step between the top and
the loft (:mod:`~game.world.props.ladder_loft`), a tap of W / S as a climbing cycle
(:mod:`~game.world.props.ladder_latch`); here the climb itself, :class:`LadderClimb`.
"""

from __future__ import annotations

import math

import numpy as np

from game.world.arms import follow_hands
from game.world.character import PoseInputs
from game.world.easing import halflife_blend, smoothstep
from game.world.props.ladder_asset import (
    LOFT_DEPTH_M,
    RANGES,
    Ladder,
    load_ladder,
)
from game.world.props.ladder_latch import TAP_CYCLE_MOVES, TAP_TIMEOUT_S, ClimbLatch
from game.world.props.ladder_loft import LoftStep
from game.world.props.ladder_order import RungLimits, next_move
from game.world.props.ladder_pose import Holds, climb_pose, shoulders, swing, swing_seconds
from game.world.props.ladder_sizes import ClimbSizes
from game.world.rig import Rig
from game.world.types import FloatArray

__all__ = [
    "LOFT_DEPTH_M",
    "RANGES",
    "TAP_CYCLE_MOVES",
    "TAP_TIMEOUT_S",
    "ClimbLatch",
    "Ladder",
    "LadderClimb",
    "load_ladder",
]

LIMB_MOVE_S = 0.28  # one limb's move from rung to rung (a rung in 1.1 s, 0.27 m/s)
LIMB_MOVE_FAST_S = 0.16  # ... with Shift held: a rung in 0.64 s (0.47 m/s)
PELVIS_CLIMB_HALFLIFE = 0.15
DESCENT_LEAD = 0.6  # a foot stepping down: the hips aim for its rung by 0.6 of its move
HOLD_EXTENSION = 0.96  # a hand on a rung stays within this fraction of the arm's reach


class LadderClimb:
    """The hero on the ladder: every limb on a rung, one limb moving at a time.

    Hands grip rungs (``rung`` −1: not gripping), feet stand on rungs (−1: the ground
    beside the ladder where they were when the climb began, or the loft). Holding W climbs
    in the order right hand, left foot, left hand, right foot; S reverses it; at the bottom
    the hands let go and the hero steps back into the gait. Where the ladder has a loft,
    the feet climb no higher than its rung, and W at the top steps off onto it (one limb
    at a time, :class:`~game.world.props.ladder_loft.LoftStep`); S from the loft's spot
    climbs back on.

    Attributes
    ----------
    active : bool
        On the ladder.
    rung : ndarray of int, shape (4,)
        Each limb's rung in LIMBS order.
    rail : ndarray of bool, shape (2,)
        Each hand holding the far rail (stepping between the top and the loft; its
        ``rung`` is −1 then).
    ends : ndarray, shape (4, 2)
        Each limb's end target this step (hand on the rung, ankle above it).
    moving : int
        The limb moving now, or −1.
    """

    def __init__(self, ladder: Ladder, rig: Rig) -> None:
        self.ladder = ladder
        self.rig = rig
        self.active = False
        self.rung = np.full(4, -1)
        self.rail = np.zeros(2, dtype=bool)  # each hand holding the far rail (by the loft)
        self.ends = np.zeros((4, 2))
        self.ground = np.zeros((2, 2))
        self.pelvis = np.zeros(2)
        self.moving = -1
        self.move_from = np.zeros(2)
        self.move_to = np.zeros(2)
        self.u = 0.0
        self.moves = 0
        self.sizes = ClimbSizes.for_rig(rig)
        self._short_leg = min(rig.legs.limb.reach / rig.tuning.reference_leg, 1.0)
        self.holds = Holds(ladder, rig, self.sizes)
        rungs = ladder.rungs
        spacing = float(rungs[-1] - rungs[0]) / (len(rungs) - 1) if len(rungs) > 1 else 1.0
        # the highest rung a hand holds: the top one, or by a loft the one about the waist
        # standing at the loft's level (higher, the hands would have to come down again to
        # step off: over the rails they would fold beside the head)
        self.top = len(rungs) - 1
        if ladder.loft is not None:
            self.top = min(ladder.loft_rung + self.sizes.hands_over_loft(spacing), self.top)
        self.feet_top = ladder.loft_rung if ladder.loft is not None else self.top
        above = self.sizes.hands_above(spacing)
        apart = self.sizes.hands_apart_rungs(spacing)
        self.limits = RungLimits(self.top, self.feet_top, above, apart)
        self.loft_step = LoftStep(self.holds)
        self._last = -1  # the limb that moved last
        self._swung = False  # the moving limb is a hand swinging to or from its resting place
        self._least_s = 0.0  # ... taking at least this long (at an arm's pace)
        self._descending = False  # the last move went down

    @property
    def transfer(self) -> float:
        """Progress of a step between the ladder's top (0) and the loft (1)."""
        return self.loft_step.s

    @property
    def transfer_dir(self) -> int:
        """+1 stepping off onto the loft, −1 climbing on from it, 0 neither."""
        return self.loft_step.direction

    @property
    def loft_spot_x(self) -> float | None:
        """Where the pelvis stands on the loft to climb down, or None without a loft."""
        return self.loft_step.spot_x

    @property
    def spot_x(self) -> float:
        """Where the pelvis stands to climb."""
        return self.ladder.x - self.sizes.rails_offset

    def grip_point(self, limb: int, rung: int) -> FloatArray:
        """The end target of ``limb`` on ``rung`` (a hand's −1 is its resting place, a
        foot's the ground where it stands)."""
        if rung >= 0:
            return self.holds.rung_point(limb, rung)
        if limb < 2:
            return self.holds.rest_point(self.pelvis, limb)
        return self.ground[limb - 2].copy()

    def mount(self, ankles: FloatArray, hands: FloatArray, pelvis: FloatArray) -> None:
        """Start climbing from standing: feet at ``ankles`` (2, 2), hands free at ``hands``."""
        self.active = True
        self.rung[:] = -1
        self.rail[:] = False
        # the feet step back down under the climbing spot, where the hips climb (from past
        # it, under the ladder, they would come down ahead of the hips)
        self.ground = ankles + np.array([self.spot_x - float(pelvis[0]), 0.0])
        self.pelvis = pelvis.copy()
        self.ends = np.concatenate([hands, ankles])
        self.moving = -1
        self._descending = False

    def mount_from_loft(self, ankles: FloatArray, hands: FloatArray, pelvis: FloatArray) -> None:
        """Start climbing down from standing on the loft (feet at ``ankles`` (2, 2), hands
        free at ``hands``, facing the ladder's side: +x): the step-off played backwards,
        ending in the top grip; each hand sets off from where it is."""
        loft_rung = self.ladder.loft_rung
        self.active = True
        self.pelvis = pelvis.copy()
        self.rung[:] = -1
        self.rail[:] = False
        # where the feet will stand when the hero steps off at the foot of the ladder
        ankle_y = self.ladder.base + self.rig.legs.ankle_height
        stance = self.rig.gait.stance_spread
        self.ground = np.array([[self.spot_x - stance, ankle_y], [self.spot_x + stance, ankle_y]])
        top_rungs = np.array([self.top, self.top, loft_rung, loft_rung])
        top_ends = np.array(
            [self.holds.rung_point(limb, int(r)) for limb, r in enumerate(top_rungs)]
        )
        feet_y = float(top_ends[2:, 1].min())
        top_pelvis = np.array([self.spot_x, feet_y + self.sizes.hip_above_foot])
        stood = np.concatenate([ankles, hands, pelvis[None]])
        self.loft_step.begin_climb_on(stood, (top_rungs, top_ends, top_pelvis))
        self.ends = np.concatenate([hands, ankles])
        self.moving = -1

    def can_climb(self, direction: int) -> bool:
        """A limb can still move ``direction`` (+1 up, −1 down) from this grip."""
        return next_move(self.rung, self._last, direction, self.limits) is not None

    def step(self, climb: float, dt: float, fast: bool = False) -> bool:
        """Advance one step with climb intent ``climb`` (W +1 / S −1), ``fast`` with Shift.

        Returns True when the hero has stepped off, at the bottom or onto the loft (the gait
        takes over; the feet stand at ``ends[2:]``).
        """
        if self.transfer_dir != 0:
            return self._step_loft(dt)
        if self.moving < 0 and climb > 0.5 and self._at_loft():
            self.loft_step.begin_step_off(self.rung, self.ends, self.pelvis)
            return self._step_loft(dt)
        if self.moving >= 0:
            self._advance_move(dt, fast)
        if self.moving < 0 and abs(climb) <= 0.5 and self._descending and self.rung[2:].max() < 0:
            climb = -1.0  # both feet down on the way down: the hands let go by themselves
        if self.moving < 0 and abs(climb) > 0.5:
            self._start_move(climb)
        # with Shift a foot steps down 1.75 times as fast, and so do the hips (at their
        # walking pace they would lag the eased lead and the leg over-reach); a shorter
        # body's hips follow quicker too, a rung being a longer part of its leg
        quick = LIMB_MOVE_FAST_S / LIMB_MOVE_S if fast and self._descending else 1.0
        halflife = PELVIS_CLIMB_HALFLIFE * quick * self._short_leg
        self.pelvis += (self._pelvis_goal() - self.pelvis) * halflife_blend(dt, halflife)
        # where the hips lag their goal, held within the limbs' reach (a short body's
        # limbs move a rung, a longer part of their reach, in the same time)
        reach = min(self._held_height(ahead=False), self._stood_height())
        self.pelvis[1] = min(self.pelvis[1], reach)
        self._rest_free_hands(dt)
        if self.moving >= 0:
            self.move_to = self.grip_point(self.moving, int(self.rung[self.moving]))
        done = self.moving < 0 and bool((self.rung < 0).all()) and climb < -0.5
        if done:
            self.active = False
        return done

    def pose(self, rig: Rig) -> PoseInputs:
        """The climbing pose for the solve (N = 1, facing +x): ends on their rungs, knee
        poles forward of the legs toward the ladder, elbow poles backward of the arms."""
        return climb_pose(rig, self.pelvis, self.ends)

    # -- one limb's move -----------------------------------------------------------------
    def _advance_move(self, dt: float, fast: bool) -> None:
        """The moving limb's end ``dt`` further along its path; the move ends at its rung."""
        seconds = max(LIMB_MOVE_FAST_S if fast else LIMB_MOVE_S, self._least_s)
        self.u = min(self.u + dt / seconds, 1.0)
        if self._swung:
            shoulder = shoulders(self.pelvis, self.rig.body)[self.moving]
            self.ends[self.moving] = swing(shoulder, self.move_from, self.move_to, self.u)
        else:
            self.ends[self.moving] = self.holds.arc(self.move_from, self.move_to, self.u)
        if self.u >= 1.0:
            self._last = self.moving
            self.moving = -1
            self.moves += 1

    def _start_move(self, climb: float) -> None:
        """The next limb in the climbing order sets off toward its next rung, if one may."""
        move = next_move(self.rung, self._last, 1 if climb > 0 else -1, self.limits)
        if move is None:
            return
        limb, rung = move
        self.moving, self.u = limb, 0.0
        self._descending = climb < 0
        self.move_from = self.ends[limb].copy()
        # a hand to or from its resting place swings about the shoulder (along the chord it
        # would pass by it and swing the elbow round), rung to rung it arcs off the rails
        self._swung = limb < 2 and min(rung, int(self.rung[limb])) < 0
        self.rung[limb] = rung
        self.move_to = self.grip_point(limb, rung)
        # letting go, the hand swings no faster than an arm moves (with Shift the move's
        # time alone would swing it to the hip at twice that)
        self._least_s = 0.0
        if self._swung and rung < 0:  # letting go
            shoulder = shoulders(self.pelvis, self.rig.body)[limb]
            self._least_s = swing_seconds(shoulder, self.move_from, self.move_to)

    def _pelvis_goal(self) -> FloatArray:
        """Where the hips head this step: ``hip_above_foot`` over the lower ankle, in
        front of the rails; a foot on its way down lowers them ahead of it (eased in over
        the move's first part), so the leg never over-reaches; once the feet are on their
        way to the ground the hips rise to standing over the last foot's move."""
        feet_y = float(self.ends[2:, 1].min())
        fro, to = float(self.move_from[1]), float(self.move_to[1])
        if self.moving >= 2 and to < fro:
            lead = float(smoothstep(min(self.u / DESCENT_LEAD, 1.0)))
            feet_y = min(feet_y, fro + (to - fro) * lead)
        down = self._descending and bool((self.rung[2:] < 0).all())
        standing = self.rig.gait.stand_extension * self.rig.legs.limb.reach
        rise = (float(smoothstep(self.u)) if self.moving >= 2 else 1.0) if down else 0.0
        climbing = self.sizes.hip_above_foot
        above = climbing + (standing - climbing) * rise  # (over that foot's move)
        return np.array([self.spot_x, min(feet_y + above, self._held_height(ahead=True))])

    def _held_height(self, ahead: bool) -> float:
        """The highest the hips may be for every hand on a rung to keep within
        ``HOLD_EXTENSION`` of its arm's reach from the shoulder, ``ahead``: a moving hand
        at its rung too (the goal, so they lower ahead of it). A hand a rung below its
        usual place (after getting on, or setting off down) would otherwise pull a short
        arm straight. By Pythagoras the shoulder is at most √(r² − dx²) above the hand."""
        hands = [(limb, self.ends[limb]) for limb in range(2) if self.rung[limb] >= 0]
        if ahead and 0 <= self.moving < 2 and self.rung[self.moving] >= 0:
            hands.append((self.moving, self.move_to))
        if not hands:
            return math.inf
        body = self.rig.body
        reach = HOLD_EXTENSION * self.rig.arms.limb.reach
        side = np.array([-body.shoulder_depth, body.shoulder_depth])
        tops = [
            float(end[1])
            - body.spine
            + math.sqrt(max(reach**2 - (end[0] - self.spot_x - side[limb]) ** 2, 0.0))
            for limb, end in hands
        ]
        return min(tops)

    def _stood_height(self) -> float:
        """The highest the hips may be for every foot on a rung (or moving) to reach it at
        most at the standing extension of the leg. By Pythagoras the hip is at most
        √(r² − dx²) above the ankle."""
        feet = [foot for foot in range(2) if self.rung[2 + foot] >= 0 or self.moving == 2 + foot]
        if not feet:
            return math.inf
        legs, hip = self.rig.legs, self.rig.body.hip_depth
        reach = self.rig.gait.stand_extension * legs.limb.reach
        tops = []
        for foot in feet:
            ankle = self.ends[2 + foot]
            dx = float(ankle[0]) - (float(self.pelvis[0]) + (hip if foot else -hip))
            tops.append(float(ankle[1]) + math.sqrt(max(reach**2 - dx**2, 0.0)))
        return min(tops)

    def _rest_free_hands(self, dt: float) -> None:
        """A hand off the rungs (not moving) goes to its resting place at an arm's pace."""
        free = [limb for limb in range(2) if self.rung[limb] < 0 and limb != self.moving]
        if not free:
            return
        shoulders_at = shoulders(self.pelvis, self.rig.body)
        rest = np.array([self.grip_point(limb, -1) for limb in range(2)])
        moved = follow_hands(
            (self.ends[:2] - shoulders_at)[None],
            rest[None],
            shoulders_at[None],
            np.ones(1),
            dt,
            self.rig,
        )[0]
        self.ends[free] = moved[free]

    # -- the loft ------------------------------------------------------------------------
    def _at_loft(self) -> bool:
        """At the top with a loft beside it: feet on its rung, hands as high as they go."""
        return (
            self.ladder.loft is not None
            and bool((self.rung[2:] == self.ladder.loft_rung).all())
            and bool((self.rung[:2] >= 0).all())
            and not self.can_climb(1)
        )

    def _step_loft(self, dt: float) -> bool:
        """One step of the step between the top and the loft; True once on the loft."""
        stepping_off = self.transfer_dir > 0
        if not self.loft_step.advance(self, dt):
            return False
        if stepping_off:
            self.active = False
            return True  # standing on the loft
        self._last = 3  # on the ladder: the climb down begins
        return False
