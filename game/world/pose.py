"""The pose of every character from its state: pelvis, spine, hips and shoulders, the feet
(planted, swinging or pinned), hands, knee and elbow poles, and one batched
``ik.solve_2d`` for all 4·N limbs.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, fields
from typing import Any

import numpy as np

import ik
from game.world.arms import blend_hands, follow_hands, hinge_poles, limb_poles, swing_hands
from game.world.easing import (
    all_true,
    any_true,
    clamp,
    halflife_blend,
    lerp,
    max_last,
    smoothstep,
    xy,
)
from game.world.feet import FOOT_SIDE, MIN_RISER, RISER_WINDOW, sole_points
from game.world.gait import run_fraction
from game.world.held_foot import held_feet
from game.world.rig import LegSpec, LimbSpec, Rig
from game.world.swing import swinging_poses, within_reach
from game.world.timing import pivot_ankles, stance_feet
from game.world.types import BoolArray, FloatArray
from game.world.walker_state import ARMS, LEGS, WalkState, World

GAZE_AHEAD = 1.0  # m: on stairs the eyes are on the treads this far ahead of the pelvis
HEAD_SHARE = 0.5  # the head pitches this share of the way to what the eyes look at
HEAD_DOWN = np.radians(40.0)  # the head pitches at most this far down ...
HEAD_UP = np.radians(30.0)  # ... and this far up
GAZE_HALFLIFE = 0.15  # s: the head eases to a new pitch with this halflife


@dataclass(frozen=True, slots=True)
class PoseInputs:
    """What the solve needs for N characters at one instant, plus what is drawn around it.

    Attributes
    ----------
    pelvis, chest, head : ndarray, shape (N, 2)
        Pelvis centre, the shoulder point at the top of the spine, the head centre.
    facing : ndarray, shape (N,)
        +1 (facing +x) or −1.
    spin : ndarray, shape (N,)
        The facing as it turns: ±1 normally, passing through 0 during a pivot (the body
        faces the camera; depth offsets, knee poles and feet shrink through the middle).
    roots, targets, poles : ndarray, shape (N, 4, 2)
        Per limb in :data:`game.world.rig.LIMBS` order: shoulder/hip, hand/ankle target,
        pole locator.
    pole_on : ndarray of bool, shape (N, 4)
        The pole hint is used; where it is off the solver gets a fixed world-up locator,
        the default a pole-less rig falls back to.
    foot_angle, foot_bend : ndarray, shape (N, 2)
        Sole angles and toe bends (radians).
    gaze : ndarray, shape (N,)
        The head's pitch (radians, up > 0, 0 level): where the face is turned, forward
        along the facing (:func:`head_pitch`).
    """

    pelvis: FloatArray
    chest: FloatArray
    head: FloatArray
    facing: FloatArray
    spin: FloatArray
    roots: FloatArray
    targets: FloatArray
    poles: FloatArray
    pole_on: BoolArray
    foot_angle: FloatArray
    foot_bend: FloatArray
    gaze: FloatArray

    def lerp(self, later: PoseInputs, alpha: float) -> PoseInputs:
        """``alpha`` of the way from this pose to ``later`` (turns are continuous, so every
        input blends; the discrete facing and pole switches are ``later``'s)."""

        def mix(a: FloatArray, b: FloatArray) -> FloatArray:
            return lerp(a, b, alpha)

        return PoseInputs(
            pelvis=mix(self.pelvis, later.pelvis),
            chest=mix(self.chest, later.chest),
            head=mix(self.head, later.head),
            facing=later.facing,
            spin=mix(self.spin, later.spin),
            roots=mix(self.roots, later.roots),
            targets=mix(self.targets, later.targets),
            poles=mix(self.poles, later.poles),
            pole_on=later.pole_on,
            foot_angle=mix(self.foot_angle, later.foot_angle),
            foot_bend=mix(self.foot_bend, later.foot_bend),
            gaze=mix(self.gaze, later.gaze),
        )

    def with_character(self, n: int, one: PoseInputs) -> PoseInputs:
        """A copy of this pose whose character ``n`` is the one-character pose ``one``."""
        rows = {}
        for f in fields(PoseInputs):
            array = getattr(self, f.name).copy()
            array[n] = getattr(one, f.name)[0]
            rows[f.name] = array
        return PoseInputs(**rows)

    def soles(self, ankles: FloatArray, rig: Rig) -> FloatArray:
        """Heel, ball and toe of each foot with its ankle at ``ankles`` (N, 2, 2) (the
        solved ones): shape (N, 2, 3, 2)."""
        return sole_points(ankles, self.foot_angle, self.foot_bend, self.spin[:, None], rig.legs)


def knee_poles(
    hips: FloatArray, ankles: FloatArray, facing: FloatArray, legs: LegSpec
) -> FloatArray:
    """Knee pole locators ``pole_forward`` off the hip→ankle midpoint, on the front of the
    leg (:func:`hinge_poles` with ``−facing``: straight ahead for an upright leg). Turning
    with the leg, a knee keeps bending the one way a knee bends, even with a foot dragged
    up behind the hip (a fixed point ahead of the midpoint would fall behind the hip→ankle
    line there and flip the knee). ``hips``, ``ankles`` (N, 2, 2), ``facing`` (N,); returns (N, 2, 2)."""
    return hinge_poles(hips, ankles, -facing[:, None], legs.pole_forward)


def solve_pose(rig: Rig, pose: PoseInputs) -> Any:
    """One batched ``ik.solve_2d`` for every limb of every character.

    Returns the solver's ``Solution2D`` with arrays of shape ``(N, 4, ...)``: true
    geometry, every bone its length (the side view foreshortens a pivot's limbs when it
    draws them, :func:`game.scenes.side_view.seen_from_the_side`).
    """
    upper, lower, softness = _limb_constants(rig.arms.limb, rig.legs.limb)
    poles = pose.poles
    if not all_true(pose.pole_on):  # a limb without its pole bends toward world up
        poles = np.where(pose.pole_on[..., None], poles, pose.roots + np.array([0.0, 1.0]))
    # fallback side where a pole lies on the root→target line: knees forward, elbows back
    bend = pose.facing[:, None] * np.array([-1.0, -1.0, 1.0, 1.0])
    return ik.solve_2d(
        pose.roots, pose.targets, upper, lower, bend=bend, pole=poles, softness=softness
    )


@functools.lru_cache(maxsize=8)  # one rig's constants, asked for every step
def _limb_constants(arm: LimbSpec, leg: LimbSpec) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Bone lengths and softness of the four limbs (arms, legs), read-only, shape (4,) each."""
    constants = (
        np.array([arm.upper, arm.upper, leg.upper, leg.upper]),
        np.array([arm.lower, arm.lower, leg.lower, leg.lower]),
        np.array([arm.softness, arm.softness, leg.softness, leg.softness]),
    )
    for array in constants:
        array.setflags(write=False)
    return constants


def stoop_clear_of_walls(
    w: World, s: WalkState, pelvis: FloatArray, spine: FloatArray
) -> FloatArray:
    """``spine`` (N,, radians forward) tipped no further than keeps the head (a head's
    radius off) behind a wall ahead: ground rising above the pelvis within the torso's
    length (crouching to set the cup down by a wall, the stoop would put his head into
    it)."""
    body = w.rig.body
    torso = body.spine + body.neck + 2.0 * body.head_radius
    ahead = np.linspace(0.0, torso, 16)
    xs = pelvis[:, :1] + s.facing[:, None] * ahead
    wall = w.terrain.height_at(xs) > pelvis[:, 1:]
    first = np.where(wall.any(axis=1), ahead[np.argmax(wall, axis=1)], np.inf)
    room = np.clip((first - body.head_radius) / torso, 0.0, 1.0)
    most = np.arcsin(room)  # the head's lean: sin(spine) · torso <= room to the wall
    return np.where(np.isfinite(first), np.clip(spine, -most, most), spine)


def pose_inputs(
    w: World, s: WalkState, grade: FloatArray, previous: PoseInputs | None = None, dt: float = 0.0
) -> PoseInputs:
    """This step's pose: the spine leaning into the ground's ``grade`` (N,), hips and
    shoulders off it, the feet (planted, pivoting, swinging or pinned), the hands (with the
    ``previous`` step's pose, ``dt`` seconds ago, they move on from where they were at a
    hand's speed), and the knee and elbow poles. Writes ``s.lean`` and the swinging feet's
    ``floor`` and ``hold``."""
    spin = s.spin  # (a property: read once, passed on)
    pelvis, chest, head = upper_body(w, s, grade, spin, dt)
    side = FOOT_SIDE[:, None] * np.abs(spin)[:, None, None]
    hips = pelvis[:, None, :] + side * np.array([w.rig.body.hip_depth, 0.0])
    shoulders = chest[:, None, :] + side * np.array([w.rig.body.shoulder_depth, 0.0])
    run = run_fraction(s.vx, w.rig.gait)
    ankles, foot_angle, foot_bend = foot_targets(w, s, hips, spin, run, previous, dt)
    hands = hand_targets(w, s, shoulders, hips, ankles, spin, run, previous, dt)
    gaze = head_pitch(w, s, head, grade, previous, dt)
    roots = np.concatenate([shoulders, hips], axis=1)
    targets = np.concatenate([hands, ankles], axis=1)
    pole_on = np.ones((s.count, 4), dtype=bool)  # elbows always; knees as switched
    pole_on[:, LEGS] = s.intent.knee_poles[:, None]
    return PoseInputs(
        pelvis=pelvis,
        chest=chest,
        head=head,
        facing=s.facing.copy(),
        spin=spin,
        roots=roots,
        targets=targets,
        poles=limb_poles(roots, targets, spin, w.rig),
        pole_on=pole_on,
        foot_angle=foot_angle,
        foot_bend=foot_bend,
        gaze=gaze,
    )


def upper_body(
    w: World, s: WalkState, grade: FloatArray, spin: FloatArray, dt: float
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Pelvis, chest (the shoulder point) and head centre (N, 2): the spine leans into the
    direction of travel and into a climb ahead (the ground's ``grade`` rising along the
    facing; facing down a slope or a flight it leans only with the speed: upright or a
    little forward, never back), eased (writes ``s.lean``), and a crouch stoops it forward
    on top (by the spin, so a pivot would pass the middle upright), no further than keeps
    the head out of a wall ahead; ``spin`` is :attr:`WalkState.spin`."""
    body, tune = w.rig.body, w.rig.tuning
    pelvis = xy(s.x, s.y)
    climb = np.maximum(grade * s.facing, 0.0)  # rise per run along the facing, uphill only
    lean = body.lean_per_speed * s.vx + s.facing * body.lean_per_slope * np.arctan(climb)
    s.lean += (lean - s.lean) * halflife_blend(dt or 1.0 / 60.0, tune.lean_halflife)
    spine = s.lean
    if any_true(s.crouch > 0.0):
        spine = spine + spin * tune.crouch_stoop_rad * smoothstep(s.crouch)
        spine = stoop_clear_of_walls(w, s, pelvis, spine)
    spine_dir = xy(np.sin(spine), np.cos(spine))
    chest = pelvis + body.spine * spine_dir
    return pelvis, chest, chest + (body.neck + body.head_radius) * spine_dir


def head_pitch(
    w: World,
    s: WalkState,
    head: FloatArray,
    grade: FloatArray,
    previous: PoseInputs | None,
    dt: float,
) -> FloatArray:
    """The head's pitch (N,, radians, up > 0) from where the eyes look: along the path
    (level on the flat, up or down a slope with it); on stairs, at the treads
    ``GAZE_AHEAD`` ahead (down at the next treads: further down going down, the treads
    lower than the feet); at what the hands reach for (a prop, the pointer), by the
    hands' weight. The head turns ``HEAD_SHARE`` of that pitch (the eyes the rest), within
    ``HEAD_DOWN`` and ``HEAD_UP``, eased from the ``previous`` pose's over ``dt``."""
    facing, intent = s.facing, s.intent
    path = np.arctan(grade * facing)
    ahead_x = s.x + facing * GAZE_AHEAD
    low, high = np.minimum(s.x, ahead_x), np.maximum(s.x, ahead_x)
    on_stairs = w.terrain.riser_between(low, high, MIN_RISER, RISER_WINDOW, closed=False)
    look = path
    if any_true(on_stairs):  # (the treads are read only then)
        tread = np.arctan2(w.terrain.height_at(ahead_x) - head[:, 1], GAZE_AHEAD)
        look = np.where(on_stairs, tread, path)
    weight = max_last(intent.hand_weight)
    if any_true(weight):  # (the reach is read only then)
        share = intent.hand_weight / np.maximum(intent.hand_weight.sum(axis=1), 1e-9)[:, None]
        target = (intent.hand_target * share[..., None]).sum(axis=1)
        # a target overhead or behind is looked at no steeper than straight up or down
        forward = np.maximum((target[:, 0] - head[:, 0]) * facing, 1e-3)
        reach = np.arctan2(target[:, 1] - head[:, 1], forward)
        look = look + (reach - look) * weight
    pitch = clamp(HEAD_SHARE * look, -HEAD_DOWN, HEAD_UP)
    if previous is None or dt <= 0.0:
        return pitch
    return previous.gaze + (pitch - previous.gaze) * halflife_blend(dt, GAZE_HALFLIFE)


def foot_targets(
    w: World,
    s: WalkState,
    hips: FloatArray,
    spin: FloatArray,
    run: FloatArray,
    previous: PoseInputs | None,
    dt: float,
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Each foot's ankle (N, 2, 2), sole angle and toe bend (N, 2): a planted foot at its
    stance roll (pivoting, turning about its ball), a swinging one on its path (within its
    leg's comfort reach of ``hips``; one landing as a pivot starts turns about its ball
    too), a pinned one at its pin within the hip's range, swung there from the
    ``previous`` pose's (``spin``: :attr:`WalkState.spin`; ``run`` (N,): the run fraction,
    :func:`run_fraction`). Writes the swinging feet's ``floor`` and ``hold``."""
    legs, feet = w.rig.legs, s.feet
    stance_at, stance_angle, stance_bend = stance_feet(w, s)
    pivoting = s.turning
    any_pivoting = any_true(pivoting)
    if any_pivoting:  # a pivoting character's planted feet turn about their balls, toes flat
        rows = np.flatnonzero(pivoting)
        stance_at[rows] = pivot_ankles(w, s, rows)  # (on their rows alone: a few of a crowd)
        stance_bend = np.where(pivoting[:, None], 0.0, stance_bend)
    swinging = feet.swinging
    if any_true(swinging):
        swing_at, swing_angle, swing_bend, floor, hold = swinging_poses(
            feet, swinging, s.facing, w.swing_ground, legs, dt, run
        )
        feet.floor = np.where(swinging, floor, feet.floor)
        feet.hold = hold
        if any_pivoting:
            # the ankle moves by ball · (from − spin) along the sole, as a pivoting one does
            shift = np.where(pivoting, legs.ball * (s.turn_from - spin), 0.0)
            sole = xy(np.cos(swing_angle), np.sin(swing_angle))
            swing_at = swing_at + shift[:, None, None] * sole
        reach = w.rig.gait.comfort_extension * legs.limb.reach
        swing_at = within_reach(swing_at, hips, reach)
    else:  # every foot down: nothing swings
        swing_at, swing_angle, swing_bend = stance_at, stance_angle, stance_bend
    ankles = np.where(swinging[..., None], swing_at, stance_at)
    foot_angle = np.where(swinging, swing_angle, stance_angle)
    foot_bend = np.where(swinging, swing_bend, stance_bend)
    if any_true(feet.pinned):  # at its pin, within the hip's range, out of the ground
        was = None if previous is None else previous.targets[:, LEGS]
        held = held_feet(s.intent.pin_target, feet.pinned, hips, s.facing, foot_angle, w, was, dt)
        ankles = np.where(feet.pinned[..., None], held, ankles)
        foot_bend = np.where(feet.pinned, 0.0, foot_bend)
    return ankles, foot_angle, foot_bend


def hand_targets(
    w: World,
    s: WalkState,
    shoulders: FloatArray,
    hips: FloatArray,
    ankles: FloatArray,
    spin: FloatArray,
    run: FloatArray,
    previous: PoseInputs | None,
    dt: float,
) -> FloatArray:
    """Each hand's target (N, 2, 2): the arm swing against the legs (following the turning
    facing, so the arms too pass a pivot's middle smoothly), blended toward the hands'
    intent by its weight, moving on from last step's at a hand's speed, and kept above the
    ground (``spin``: :attr:`WalkState.spin`; ``run`` (N,): the run fraction)."""
    rig, intent = w.rig, s.intent
    swing = swing_hands(shoulders, hips, ankles, spin, run, rig)
    reaching = any_true(intent.hand_weight)
    hands = blend_hands(swing, intent.hand_target, intent.hand_weight) if reaching else swing
    if previous is not None:
        last = previous.targets[:, ARMS] - previous.roots[:, ARMS]
        hands = follow_hands(last, hands, shoulders, s.facing, dt, rig)
    if reaching or any_true(s.crouch > 0.0):
        floor = w.terrain.height_at(hands[..., 0]) + rig.tuning.hand_clear
        hands = xy(hands[..., 0], np.maximum(hands[..., 1], floor))
    return hands


def count_knee_flips(w: World, s: WalkState, pose: PoseInputs, solution: Any) -> None:
    """A knee flips when its side of the hip→ankle line, relative to facing, changes
    between steps while the leg is bent (straight legs have no side); ``solution`` is the
    solve of ``pose``."""
    hip = pose.roots[:, LEGS]
    along = solution.hand[:, LEGS] - hip
    to_knee = solution.elbow[:, LEGS] - hip
    # 2-D cross product: |a||k| sin(angle from hip→ankle to hip→knee)
    cross = along[..., 0] * to_knee[..., 1] - along[..., 1] * to_knee[..., 0]
    norm = np.hypot(along[..., 0], along[..., 1]) * np.hypot(to_knee[..., 0], to_knee[..., 1])
    bent = np.abs(cross) > w.rig.tuning.bent_sin * np.maximum(norm, 1e-12)
    side = np.sign(cross) * s.facing[:, None]
    flipped = bent & (s.knee_side != 0) & (side != s.knee_side)
    s.knee_flips += flipped.sum(axis=1)
    s.knee_side = np.where(bent, side, s.knee_side)
