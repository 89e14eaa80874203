"""The ground moved under the walkers (a live edit): an event their state handles at any
moment, walking, running, braking, pivoting or crouching.

:func:`ground_moved` runs its stages in order:

1. :func:`moved_feet`: which feet stood, or were to land, on ground that moved.
2. :func:`replant`: each planted foot whose ground moved rests on the new ground where it
   stands (the sole along it, as a landing lies), and stays planted where its sole fits
   there, its leg reaches it and, pivoting, it can still turn there; the others lift.
3. :func:`game.world.turning.interrupt_pivot`: a pivot with a foot that lifts, or whose
   soles would dip into the new ground as it turns on (:func:`pivot_clear`), ends from
   where the feet are (completed past its halfway flip, else undone to start again), and
   its feet re-plant facing the way it left them.
4. The lifting feet and the swings whose landing moved step again
   (:func:`game.world.stepping.start_swings`), each from a pose clear of the new ground.

The pelvis is left where it is: its height spring and speed limit carry it to what the new
ground allows, so no speed or position jumps.
"""

from __future__ import annotations

import numpy as np

from game.world.easing import clamp, xy
from game.world.feet import sole_depth, sole_fits, stance_pose
from game.world.gait import Pace
from game.world.pivots import pivot_spots
from game.world.pose import PoseInputs
from game.world.stance import RolledFeet
from game.world.stepping import start_swings
from game.world.support import planted_support
from game.world.terrain import Terrain
from game.world.timing import ground_grade, hips_x, timed
from game.world.turning import interrupt_pivot, pivot_clear
from game.world.types import BoolArray, FloatArray
from game.world.walker_state import LEGS, WalkState, World

_MOVED_M = 1e-4  # metres the ground under a sole may change and count as unmoved
_SOLE_READS = 8  # points from heel to toe the ground is compared at
_FLUSH_M = 0.004  # m the new ground under a re-planted sole may bend (more: it steps, as
# resting on a crest its heel and ball hover over the ground either side)


def ground_moved(w: World, s: WalkState, old: Terrain, shown: PoseInputs) -> None:
    """The ground changed from ``old`` to ``w.terrain``: every foot on moved ground re-plants
    or steps again; ``shown`` is the pose the feet were last shown in (a swing re-aims from
    it). Writes ``s.feet`` (lock, angle, pitch, swings), ``s.settling`` and, where a pivot
    is interrupted, ``s.turn``, ``s.facing`` and ``s.motion`` (out of PIVOT)."""
    planted, swinging = moved_feet(w, s, old, shown)
    if not (planted.any() or swinging.any()):
        return
    lift = replant(w, s, planted)
    # a pivot goes on where every foot stays and can still turn cleanly on the new ground;
    # else it ends from where the feet are, and those on moved ground re-plant facing the
    # way it left them (the others stand as at any pivot's end)
    broken = s.turning & (lift.any(axis=1) | ~pivot_clear(w, s))
    if broken.any():
        interrupt_pivot(w, s, broken)
        lift = np.where(broken[:, None], replant(w, s, broken[:, None] & planted), lift)
    again = lift | swinging
    if not again.any():
        return
    feet, legs = s.feet, w.rig.legs
    # the lifting feet from where they now stand (flat: the roll was on the old ground) ...
    feet.pitch = np.where(lift, 0.0, feet.pitch)
    stood, stood_angle, stood_bend = stance_pose(
        feet.lock, feet.angle, feet.pitch, s.facing[:, None], legs
    )
    # ... the swinging ones from where they were shown, lifted clear of the new ground
    ankles = np.where(lift[..., None], stood, shown.targets[:, LEGS])
    angles = np.where(lift, stood_angle, shown.foot_angle)
    bends = np.where(lift, stood_bend, shown.foot_bend)
    clear, _ = sole_depth(w.terrain, ankles[..., 0], angles, bends, s.facing[:, None], legs)
    ankles = xy(ankles[..., 0], np.maximum(ankles[..., 1], clear))
    grade = ground_grade(w, s)
    support = planted_support(w, s, Pace.at(timed(w, s, s.vx), grade, w.rig.gait))
    # lifting, a foot no longer holds the hip (the other's plan must not count on it): it
    # is in the air where it stands until its own swing is planned, one foot at a time
    feet.land_lock = np.where(lift[..., None], feet.lock, feet.land_lock)
    feet.planted &= ~lift
    for foot in (0, 1):
        side = again & (np.arange(2) == foot)
        if side.any():
            start_swings(w, s, side, ankles, angles, bends, s.x, s.vx, grade, support)


def moved_feet(
    w: World, s: WalkState, old: Terrain, shown: PoseInputs
) -> tuple[BoolArray, BoolArray]:
    """Planted feet (N, 2) whose ground moved under their sole, and swinging ones whose
    landing's ground or whose ground under where they were ``shown`` moved (not pinned)."""
    feet, legs = s.feet, w.rig.legs
    along = np.linspace(-legs.heel, legs.toe, _SOLE_READS) * s.facing[:, None, None]

    def moved_under(x: FloatArray) -> BoolArray:
        xs = x[..., None] + along
        change = np.abs(w.terrain.height_at(xs) - old.height_at(xs)).max(axis=-1)
        return np.asarray(change > _MOVED_M)

    planted = feet.planted & ~feet.pinned & moved_under(feet.lock[..., 0])
    if not feet.swinging.any():
        return planted, np.zeros_like(planted)
    here = moved_under(shown.targets[:, LEGS, 0]) | moved_under(feet.land[..., 0])
    return planted, feet.swinging & here


def replant(w: World, s: WalkState, moved: BoolArray) -> BoolArray:
    """Rest each ``moved`` planted foot (N, 2) on the new ground at its x, its sole along
    the ground there (clamped to the sole's tilt limit), as a landing lies; returns the
    feet that cannot stay (N, 2): the sole does not lie flush on the ground there (a
    riser or a crest under it, ``_FLUSH_M``), the leg would not reach it from the pelvis
    where it is, or, pivoting, the foot could not turn there (:func:`pivot_spots`)."""
    feet, legs, rig = s.feet, w.rig.legs, w.rig
    if not moved.any():
        return moved
    # a pivoting foot's lock and angle are the pivot's start, facing the old way
    frame = np.broadcast_to(np.where(s.turning, s.turn_from, s.facing)[:, None], moved.shape)
    x = feet.lock[..., 0]
    fits, chord, bend = sole_fits(w.terrain, x, frame, rig)
    fits &= bend <= _FLUSH_M
    angle = clamp(chord, -legs.max_tilt, legs.max_tilt)
    rest, _ = sole_depth(w.terrain, x, angle, np.zeros_like(angle), frame, legs)
    # the highest hip the leg holds the foot from, rolled as a planted foot may (flat
    # pivoting); the pelvis above it would leave the sole hovering as it came down
    lock = xy(x, rest)
    hip_x = hips_x(w, s, s.x)
    reach = rig.gait.lock_extension * legs.limb.reach
    rolled = RolledFeet.sample(lock, angle, frame, legs)
    high = rolled.highest_hip(hip_x, reach, np.zeros_like(angle), legs)
    dx = hip_x - x
    # Pythagoras: a hip dx from the ankle is at most √(R² − dx²) above it
    flat = rest + np.sqrt(np.maximum(reach * reach - dx * dx, 0.0))
    reaches = s.y[:, None] <= np.where(s.turning[:, None], flat, high)
    turnable, _ = pivot_spots(w.terrain, x, frame, legs, w.kept_off)
    stays = fits & reaches & (turnable | ~s.turning[:, None])
    feet.lock = np.where(moved[..., None], lock, feet.lock)
    feet.angle = np.where(moved, angle, feet.angle)
    s.settling &= ~moved
    return moved & ~stays
