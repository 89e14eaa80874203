"""The ball: a prop plug-in (:class:`~game.world.props.base.Prop`) lying on the floor.
Clicked, the hero walks up to it and kicks it with the nearer foot; it rolls off along the
ground (:mod:`game.world.props.ball_physics`) and comes to rest. Any foot that walks into
it pushes it too (no pygame).

The kick is the foot's pin (:class:`~game.world.props.base.Intent`) moved along an arc
from where the foot stands: a back-swing behind the hip, eased to a stop; the swing through
the ball, a quadratic Bézier from the back-swing's top through the strike point (low,
behind the ball) to the follow-through's (ahead of the ball, high), fastest at the strike;
a moment held, then the pin is let go and the foot swings back into the gait. The ball
flies off the foot's push, not a scripted velocity.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import Enum

import numpy as np

from game.world.easing import lerp, smoothstep
from game.world.props.ball_physics import (
    BallState,
    Ground,
    Pushers,
    ground_polyline,
    step_ball,
)
from game.world.props.ball_pushers import SHIN_RADIUS_M, SOLE_RADIUS_M, FeetPushers
from game.world.props.base import WORLD_X, Body, Intent, PlugIn
from game.world.schema import Fields, Range
from game.world.terrain import Terrain
from game.world.types import FloatArray

RANGES: dict[str, Range] = {
    "ball.x": WORLD_X,
    "ball.radius": Range(0.03, 0.5, "m"),
    "ball.bounce": Range(0.0, 0.9),  # restitution off the ground
    "ball.rolling": Range(0.0, 1.0),  # rolling-resistance coefficient
}

# where the hero stops for a kick: the ball's centre this far ahead of the pelvis, in
# radii plus a leg's share (the foot's back-swing needs the room, and walking up his toes
# stop short of it)
STAND_OFF_LEG = 0.45  # ... of the leg's length
ARRIVED_M = 0.04  # within this of the stand-off spot he stops
SHORT_OK_M = 0.1  # standing this much short of it, he kicks from there (the strike's ankle
# then at ~95 % of the leg's reach from the hip, at ~90 % from the spot)
WALK_SLOWDOWN_M = 1.5  # walking to it: full speed until this far from the spot (a walk
# stops in about a stride: slowing down later, his last step would land on the ball)
APPROACH_PACE = 0.5  # ... then at this fraction of the walk
GIVE_UP_S = 10.0  # walking after a ball this long without getting nearer to it, he gives up
NEARER_M = 0.05  # ... nearer by this much (his feet push it, it rolls on: he keeps after it)
STALL_SPEED = 0.02  # m/s: slower than this near the spot, walking up to it ...
STALL_S = 0.5  # ... for this long, he has got as near as he can (a wall behind stops him)
KEEP_OFF_NEAR_M = 1.2  # walking up to it, within this of it his feet keep off it
WALL_GAP_M = 0.05  # a ball this close to a wall cannot be pushed on toward it
OPEN_RUN_M = 2.0  # a kick wants this much open ground ahead (else, see KickBall._aim)
RUN_STEP_M = 0.01  # the open ground ahead is measured to this
SHORT_RUN_M = 0.6  # with a wall nearer than this ahead, the follow-through stays low
STAND_ROOM_M = 0.3  # ... and the far side this much room behind the pelvis to stand on
# the kick's keys, as fractions of the leg's length (0.89 m for the hero) ...
BACK_SWING_LEG = 0.35  # the back-swing's top: this far behind the hip ...
BACK_LIFT_LEG = 0.28  # ... and the ankle this high over its standing height
STRIKE_LIFT_RADII = 0.7  # the strike: the ankle this many radii over its standing height (the
# toe meets the ball below its middle: a low drive, not a chip)
FOLLOW_LEG = 0.25  # the follow-through: this far beyond the ball ...
FOLLOW_LIFT_LEG = 0.42  # ... and this high
# ... and its timing (seconds from the kick's start)
BACK_SWING_S = 0.32  # the back-swing's top
FOLLOW_S = 0.7  # the follow-through's top (the strike half-way between)
RELEASE_S = 0.8  # the pin let go: the foot swings back into the gait


class BallPhase(Enum):
    """What the hero is doing with the ball.

    ======================  ====================================  ======================
    from                    when                                  to
    ======================  ====================================  ======================
    IDLE                    clicked                               WALK
    WALK                    at the spot, settled                  BACK_SWING
    BACK_SWING              ``BACK_SWING_S``                      SWING_THROUGH
    SWING_THROUGH           ``FOLLOW_S``                          FOLLOW_THROUGH
    FOLLOW_THROUGH          ``RELEASE_S``                         IDLE
    WALK                    the player walks                      IDLE
    WALK                    ``GIVE_UP_S`` getting no nearer      IDLE
    WALK                    held short of it ``STALL_S``          IDLE
    ======================  ====================================  ======================
    """

    IDLE = "idle"
    WALK = "walk"
    BACK_SWING = "back_swing"
    SWING_THROUGH = "swing_through"
    FOLLOW_THROUGH = "follow_through"


@dataclass(frozen=True, slots=True)
class BallSpec:
    """The ball's size and feel, and where its centre starts (resting on the ground)."""

    home: FloatArray  # (2,)
    radius: float
    bounce: float
    rolling: float


def load_ball(fields: Fields, terrain: Terrain) -> BallSpec:
    """The ``ball`` section of a props file: a ball resting on the ground at ``x``."""
    ball_f = fields.section("ball")
    x = ball_f.number("x")
    radius = ball_f.length("radius")
    lo, hi = terrain.x_range
    if not lo + radius <= x <= hi - radius:
        raise ball_f.error("x", f"expected the ball inside the terrain [{lo:g}, {hi:g}]")
    # resting on the highest ground under its width (on a slope it touches a little higher)
    under = terrain.height_at(np.linspace(x - radius, x + radius, 9))
    home = np.array([x, float(under.max()) + radius])
    return BallSpec(home, radius, ball_f.number("bounce"), ball_f.number("rolling"))


class KickBall:
    """The ball and the hero's kick (:class:`~game.world.props.base.Prop`).

    Attributes
    ----------
    state : BallState
        The ball now.
    phase : BallPhase
        What the hero is doing with it.
    kicks : int
        Kicks made.
    """

    name = "ball"
    rolls = True

    def __init__(self, spec: BallSpec) -> None:
        self.spec = spec
        self.state = BallState(spec.home.copy(), np.zeros(2))
        self._stepped = (self.state, self.state)  # the state before and after the last step
        self.phase = BallPhase.IDLE
        self.kicks = 0
        self._time = 0.0  # seconds into the kick (walking after it: since he last got nearer)
        self._foot = -1  # the kicking foot
        self._way = 0.0  # which way the kick sends the ball (+1 or −1), 0 until lined up
        self._run = OPEN_RUN_M  # the open ground beyond it that way (m, OPEN_RUN_M at most)
        self._walled_in = math.inf  # ... up to a wall higher than the ball (m; inf: none)
        self._stalled_s = 0.0  # seconds stopped short of the spot, walking up to it
        self._held_s = 0.0  # seconds his walk to the spot has been stopped by the ground
        self._up_to_spot = False  # his walk goes right up to the spot (see _walk_up)
        self._nearest = math.inf  # the nearest he has got to it walking after it (m)
        self._over = np.zeros((0, 3))  # what the feet step over (x0, x1, top), or no rows
        self._keys = np.zeros((4, 2))  # the kick's start, back-swing, strike, follow-through
        self._furthest = (1.0, math.inf)  # the way it goes, and the ankle's x at most that way
        self._feet = FeetPushers()  # his soles and shins, as they push it
        self._ground: tuple[Terrain, Ground] | None = None

    # -- the Prop protocol ---------------------------------------------------------------
    def under(self, point: FloatArray, radius: float) -> bool:
        gap = float(np.hypot(*(np.asarray(point, dtype=float) - self.state.centre)))
        return gap <= self.spec.radius + radius

    def use(self) -> None:
        if self.phase is BallPhase.IDLE:
            self.phase, self._time, self._way, self._held_s = BallPhase.WALK, 0.0, 0.0, 0.0
            self._up_to_spot, self._nearest = False, math.inf

    def cancel(self) -> None:
        if self.phase is BallPhase.WALK:
            self.phase = BallPhase.IDLE

    @property
    def busy(self) -> bool:
        return self.phase is not BallPhase.IDLE

    def centre(self) -> FloatArray:
        return self.state.centre

    def footprint(self) -> FloatArray:
        return self._over

    def intent(self, body: Body, terrain: Terrain, dt: float) -> Intent:
        if self.phase is BallPhase.IDLE:
            return Intent(keep_off=self._held_by_a_wall(body, terrain))
        self._time += dt
        if self.phase is BallPhase.WALK:
            away = abs(float(self.state.centre[0]) - body.x)
            if away < self._nearest - NEARER_M:  # (walking after it: the time of no progress)
                self._nearest, self._time = away, 0.0
            if self._time > GIVE_UP_S:
                self.phase = BallPhase.IDLE
                return Intent()
            return self._walk_up(body, terrain, dt)
        if self._time >= RELEASE_S:
            self.phase = BallPhase.IDLE
            self.kicks += 1
            return Intent(walk=0.0)
        self.phase = (
            BallPhase.BACK_SWING
            if self._time < BACK_SWING_S
            else BallPhase.SWING_THROUGH
            if self._time < FOLLOW_S
            else BallPhase.FOLLOW_THROUGH
        )
        return Intent(walk=0.0, foot=self._foot, foot_target=self.kick_point(self._time))

    def advance(self, body: Body, terrain: Terrain, dt: float) -> None:
        if self._ground is None or self._ground[0] is not terrain:
            self._ground = (terrain, ground_polyline(terrain.points))
            self.state = BallState(self.state.centre, self.state.velocity, resting=False)
        spec = self.spec
        pushers = self._feet.pushers(body, self.state.centre, spec.radius, dt)
        if self._over.size:  # keeping off it (stepping over it): no pushes
            pushers = Pushers.none()
        before = self.state
        self.state = step_ball(
            self.state, spec.radius, spec.bounce, spec.rolling, self._ground[1], pushers, dt
        )
        self._stepped = (before, self.state)

    def drawn(self, alpha: float) -> tuple[FloatArray, float]:
        """Its centre (2,) and turn ``alpha`` of the way through the last step, as the hero
        is drawn between his last two steps (a kicked ball drawn where the step left it
        would leave the drawn foot behind, by up to a step of its travel); where it was
        not moved by a step (set in place), where it is."""
        before, after = self._stepped
        if after is not self.state:
            return self.state.centre, self.state.angle
        turn = math.remainder(after.angle - before.angle, math.tau)
        return lerp(before.centre, after.centre, alpha), before.angle + alpha * turn

    def _held_by_a_wall(self, body: Body, terrain: Terrain) -> bool:
        """Walked into, the ball is pushed along; one lying against a wall the way he
        faces (its own ground, the shut door too, rising over its middle within
        :data:`WALL_GAP_M` beyond it) cannot be, so near it his feet keep off it and step
        over it, as on the way to a kick."""
        (ball_x, middle), r = self.state.centre, self.spec.radius
        near = abs(ball_x - body.x) < KEEP_OFF_NEAR_M and self.state.resting
        if near and not self._over.size:
            ahead = (ball_x - body.x) * body.facing > 0.0
            ground = terrain if self._ground is None else self._ground[0]
            wall = ground.height_at(ball_x + body.facing * (r + WALL_GAP_M)) > middle
            if ahead and wall:
                self._over = self._box_over()
        elif not near:
            self._over = np.zeros((0, 3))
        return bool(self._over.size)

    def _box_over(self) -> FloatArray:
        """What the feet step over to keep off the ball as it lies now: its box a shin's
        capsule wider and a sole's higher, one row ``(x0, x1, top)``."""
        (x, y), r = self.state.centre, self.spec.radius
        reach = r + SHIN_RADIUS_M
        return np.array([[x - reach, x + reach, y + r + SOLE_RADIUS_M]])

    # -- the kick ------------------------------------------------------------------------
    def _walk_up(self, body: Body, terrain: Terrain, dt: float) -> Intent:
        """Line up the kick: walk to the spot ``stand-off`` short of the ball on the side
        away from where it is to go (:meth:`_aim`; following it while it rolls), stepping
        over it if it lies between, face it, and, settled there, start the kick."""
        if self._way == 0.0:  # (aimed on its own ground: the shut door is a wall to it)
            self._way = self._aim(body, terrain if self._ground is None else self._ground[0])
        way, ball_x = self._way, float(self.state.centre[0])
        stand_off = self.spec.radius + STAND_OFF_LEG * body.rig.legs.limb.reach
        spot = ball_x - way * stand_off
        gap = spot - body.x
        # near it, his feet keep off it (and step over it to the far side): its box as it
        # lay when he came near, a foot's capsule wider and higher (kept still: a box that
        # moves under a swing re-aims the swing, and the foot jumps)
        keep_off = abs(ball_x - body.x) < KEEP_OFF_NEAR_M and self.state.resting
        if keep_off and not self._over.size:
            self._over = self._box_over()
        elif not keep_off:
            self._over = np.zeros((0, 3))
        # near enough: up to SHORT_OK_M short of the spot (the strike stretches the leg a
        # little further), or nearer the ball by up to half the stand-off (stopped there by
        # a wall behind, or walking up a little past it)
        near = -stand_off / 2 <= gap * way <= SHORT_OK_M
        stalled = near and abs(body.speed) < STALL_SPEED
        self._stalled_s = self._stalled_s + dt if stalled else 0.0
        # held short of the spot by ground he cannot step on, even walking right up to it
        # (below): no kick can be lined up from here
        held = body.blocked and not near and abs(body.speed) < STALL_SPEED
        self._held_s = self._held_s + dt if held else 0.0
        if self._held_s >= STALL_S:
            self.phase = BallPhase.IDLE
            return Intent(keep_off=keep_off)
        # his walk stops a step's reach short of ground it cannot step on (the stair tread
        # the ball lies on); the spot may be nearer than that: from then on the walk goes
        # right up to the spot, its feet still landing only where a sole fits
        self._up_to_spot = self._up_to_spot or (body.blocked and not near)
        walk_to = spot if self._up_to_spot else None
        stuck = body.blocked or self._stalled_s >= STALL_S
        on_the_way = body.facing != way and abs(gap) > ARRIVED_M and not stuck
        if not near or on_the_way:
            # a walk of normal steps, let go once the rest of the way is what braking covers
            # (a halflife's deceleration covers v·h / ln 2): he stops in a step at the spot
            stopping = abs(body.speed) * body.rig.gait.accel_halflife / math.log(2.0)
            if body.facing == way and 0.0 < gap * way <= stopping + ARRIVED_M:
                return Intent(walk=0.0, keep_off=keep_off, walk_to=walk_to)
            pace = 1.0 if abs(gap) > WALK_SLOWDOWN_M else APPROACH_PACE
            return Intent(walk=pace * np.sign(gap), keep_off=keep_off, walk_to=walk_to)
        if body.facing != way:  # stopped and standing first, then the turn to face it
            return Intent(walk=0.0, face=way if body.settled else 0.0, keep_off=keep_off)
        if not (body.settled and self.state.resting):
            return Intent(walk=0.0, keep_off=keep_off)
        self._over = np.zeros((0, 3))
        self._start_kick(body, terrain)
        return Intent(walk=0.0, foot=self._foot, foot_target=self.kick_point(0.0))

    def _aim(self, body: Body, terrain: Terrain) -> float:
        """Which way to kick (+1 or −1): away from the hero, unless a wall (ground rising
        over the ball's middle) stands within ``OPEN_RUN_M`` that way, the other side has the
        longer run, and there is room for him to stand between the ball and that wall: then
        he steps over the ball to kick it back the way he came."""
        ball_x, r = float(self.state.centre[0]), self.spec.radius
        middle = float(self.state.centre[1])
        away = float(np.sign(ball_x - body.x) or body.facing)
        steps = np.arange(1, round(OPEN_RUN_M / RUN_STEP_M) + 1) * RUN_STEP_M
        runs, tops = [], []
        for way in (away, -away):
            heights = terrain.height_at(ball_x + way * (r + steps))
            walled = heights > middle
            first = int(np.argmax(walled))
            runs.append(float(steps[first]) if walled.any() else OPEN_RUN_M)
            tops.append(float(heights[first]) if walled.any() else -math.inf)
        room = r + STAND_OFF_LEG * body.rig.legs.limb.reach + STAND_ROOM_M
        behind = runs[0] >= room  # room to stand between the ball and the wall, facing back
        back = runs[0] < OPEN_RUN_M and runs[1] > runs[0] and behind
        self._run, top = (runs[1], tops[1]) if back else (runs[0], tops[0])
        # the run up to a wall taller than the ball (a riser no higher than its top, it can
        # be driven up over)
        self._walled_in = self._run if top > middle + r else math.inf
        return -away if back else away

    def _start_kick(self, body: Body, terrain: Terrain) -> None:
        """Choose the foot nearer the ball and lay out the arc's keys."""
        legs, r = body.rig.legs, self.spec.radius
        leg, facing = legs.limb.reach, body.facing
        ball = self.state.centre
        self._foot = int(np.argmin(np.abs(body.ankles[:, 0] - ball[0])))
        start = body.ankles[self._foot].copy()
        stand = float(terrain.height_at(ball[0])) + legs.ankle_height  # standing ankle height
        back = np.array([body.x - facing * BACK_SWING_LEG * leg, stand + BACK_LIFT_LEG * leg])
        # the strike: the ankle with its toe at the ball's centre line, just off the ground;
        # the follow-through beyond the ball. Neither goes further than where the toe has
        # pushed the ball against a wall ahead (a foot driven on would squeeze the ball out
        # between them, up over his head). The whole swing is then drawn in: the foot is
        # fastest as far before the follow-through as in a full kick and slows into the
        # ball, a tap, and the ball comes back off the wall. (Below, ``*_a`` and
        # ``furthest`` are the ankle's x along the kick from the ball's centre.)
        furthest = self._walled_in - r - legs.toe
        self._furthest = (facing, float(ball[0]) + facing * furthest)
        follow_a = min(FOLLOW_LEG * leg, furthest)
        strike_a = -legs.toe - (FOLLOW_LEG * leg - follow_a)
        strike = np.array([float(ball[0]) + facing * strike_a, stand + STRIKE_LIFT_RADII * r])
        # the follow-through rises after the ball; with a wall close ahead it stays low (a
        # rising foot would meet the ball coming back off the wall and scoop it up high)
        lift = FOLLOW_LIFT_LEG * leg if self._run >= SHORT_RUN_M else STRIKE_LIFT_RADII * r
        follow = np.array([float(ball[0]) + facing * follow_a, stand + lift])
        self._keys = np.array([start, back, strike, follow])
        self._time = 0.0
        self.phase = BallPhase.BACK_SWING

    def kick_point(self, t: float) -> FloatArray:
        """The kicking ankle's target ``t`` seconds into the kick (2,)."""
        start, back, strike, follow = self._keys
        if t < BACK_SWING_S:
            return start + (back - start) * float(smoothstep(t / BACK_SWING_S))
        # a quadratic Bézier B(u) = (1−u)²·P0 + 2u(1−u)·C + u²·P2 through the strike at
        # u = ½ (C = 2·strike − (P0 + P2)/2), u eased so the foot is fastest there
        u = float(smoothstep((t - BACK_SWING_S) / (FOLLOW_S - BACK_SWING_S)))
        control = 2.0 * strike - (back + follow) / 2.0
        point = (1 - u) ** 2 * back + 2 * u * (1 - u) * control + u**2 * follow
        # held short of the wall ahead all along (the curve overshoots its end when the
        # follow-through is drawn in near the strike)
        facing, furthest = self._furthest
        if facing * (point[0] - furthest) > 0.0:
            point[0] = furthest
        return point


PLUG_IN = PlugIn("ball", RANGES, load_ball, KickBall)
