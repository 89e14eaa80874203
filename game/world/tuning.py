"""The walker's behaviour settings: every number the walking logic decides with, named, with
its unit and meaning, loaded with the rig (the ``tuning`` section of ``rig.json``).

A setting left out of the file takes the default written here. Lengths (unit ``m``) are
given for a body whose leg (thigh + shin) is ``reference_leg`` metres long and are scaled by
this rig's leg length / ``reference_leg``, so a smaller body (a child) keeps the same
proportions without a second table. Speeds, times and fractions are not scaled: a rig that
walks slower sets its own.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, fields, replace
from typing import Any

from game.world.schema import Fields, Range


def _setting(default: float, unit: str, low: float, high: float, meaning: str) -> Any:
    """A tuning field: its default, unit, accepted range and meaning (the loader reads them)."""
    return field(default=default, metadata={"range": Range(low, high, unit), "meaning": meaning})


@dataclass(frozen=True, slots=True)
class Tuning:
    """The walker's behaviour settings (see the module docstring for units and scaling)."""

    reference_leg: float = _setting(
        0.89, "m", 0.1, 5.0, "the leg length (L1 + L2) the lengths below are given for"
    )
    # -- intent and speed ------------------------------------------------------------------
    move_deadband: float = _setting(
        0.05, "", 0.0, 0.5, "|move| below this is no wish to walk (keeps the facing)"
    )
    still_speed: float = _setting(
        0.05, "m/s", 0.0, 1.0, "below this, with no intent, a body with settled feet stands"
    )
    speed_up_halflife: float = _setting(
        0.3, "s", 0.01, 5.0, "the velocity's halflife speeding up to a walk (per walk_speed)"
    )
    step_lead: float = _setting(
        0.33, "s", 0.0, 2.0, "steps are timed for the speed the body will have this much later"
    )
    reversal_brake: float = _setting(
        3.0, "m/s²", 0.1, 50.0, "a reversal's brake slows at least this fast (no slow tail)"
    )
    slope_span: float = _setting(
        0.4, "m", 0.01, 5.0, "the lean and grade read the ground this far either side"
    )
    goal_margin: float = _setting(
        0.05, "m", 0.0, 1.0, "beyond a walk_to spot the ground must let the body on this far"
    )
    # -- stairs, slopes and running ----------------------------------------------------------
    run_climb: float = _setting(
        1.5, "", 1.0, 5.0, "running up a flight, the body climbs this many times climb_speed"
    )
    jog_below: float = _setting(
        0.6, "", 0.0, 1.0, "a slope holding a run below this fraction of run_speed is jogged"
    )
    jog_timing: float = _setting(
        2.3, "m/s", 0.1, 15.0, "a jog's steps are timed for at least this speed (a flight each)"
    )
    stair_run_timing: float = _setting(
        1.85, "m/s", 0.1, 15.0, "running on a flight, steps are timed for at least this speed"
    )
    flat_grade: float = _setting(
        0.05, "rise/run", 0.0, 1.0, "ground falling less than this is no way down"
    )
    approach_brake: float = _setting(
        1.5, "m/s²", 0.1, 50.0, "the body slows toward a flight ahead at most this hard"
    )
    stair_lead: float = _setting(
        0.3, "s", 0.0, 2.0, "the pelvis rises for a riser up this far ahead at its speed"
    )
    rise_back: float = _setting(
        0.05, "m", 0.0, 1.0, "running uphill, a pelvis this far below its goal rises faster"
    )
    lower_landing: float = _setting(
        0.01, "m", 0.0, 1.0, "a landing this far below the ground under the body is downhill"
    )
    # -- turning round -------------------------------------------------------------------------
    pivot_speed: float = _setting(
        0.15, "m/s", 0.0, 2.0, "a reversal may pivot once the body is this slow"
    )
    pivot_wish: float = _setting(
        0.07, "s", 0.0, 2.0, "a pivot starts only for a wish to turn round held this long"
    )
    pivot_tolerance: float = _setting(
        0.08, "m", 0.0, 1.0, "a foot may be this far off its pivot spot for the pivot to start"
    )
    flat_pitch: float = _setting(
        0.005, "rad", 0.0, 0.5, "a pivot starts once both feet are this close to flat"
    )
    pivot_overlap: float = _setting(
        0.15, "s", 0.0, 1.0, "a pivot may start while the last squaring foot lands this soon"
    )
    turn_while_landing: float = _setting(
        0.69, "", 0.0, 1.0, "... and turns at most this far (of the pivot) until it is down"
    )
    pivot_halflife: float = _setting(
        0.02, "s", 0.001, 1.0, "the pelvis spring's halflife while pivoting"
    )
    flatten_margin: float = _setting(
        0.004, "m", 0.0, 0.1, "the pelvis settles this far below flat-foot reach for a pivot"
    )
    settle_speed: float = _setting(
        0.024, "m/s", 0.0, 1.0, "a planted foot found in the ground rises onto it this fast"
    )
    squaring_swing: float = _setting(
        0.3, "s", 0.05, 2.0, "the longest swing of a step squaring up to stand or pivot"
    )
    squaring_step: float = _setting(
        0.35,
        "m",
        0.01,
        2.0,
        "... taken by a step this long (a shorter one on the level is quicker)",
    )
    square_up_speed: float = _setting(
        1.2, "m/s", 0.1, 10.0, "squaring up steps at this walking speed's cadence"
    )
    # -- stepping ------------------------------------------------------------------------------
    min_stance: float = _setting(
        0.3, "", 0.0, 1.0, "a foot stays down at least this fraction of its stance time"
    )
    set_off_stance: float = _setting(
        0.45, "", 0.0, 1.0, "how far into its stance the front foot is as the body sets off"
    )
    hover_limit: float = _setting(
        1.4, "", 1.0, 5.0, "swing progress after which a foot that could not plant re-aims"
    )
    late_swing: float = _setting(
        0.5, "", 0.0, 1.0, "a swing this far along keeps its landing when the walk stops ..."
    )
    lands_near: float = _setting(0.3, "m", 0.0, 2.0, "... if the hip will stop within this of it")
    late_landing: float = _setting(
        0.5, "", 0.0, 1.0, "a landing this far (of the duty) into its stance re-syncs the phase"
    )
    short_landing: float = _setting(
        0.04, "m", 0.0, 0.5, "a swing at its end lands up to this short of a spot out of reach"
    )
    steady_margin: float = _setting(
        0.1, "m/s", 0.0, 2.0, "... at a steady pace: within this of the speed it aims for"
    )
    left_behind: float = _setting(
        0.45, "m", 0.0, 3.0, "stopping, a planted foot this far behind its hip steps at once"
    )
    ahead: float = _setting(
        0.1, "m", 0.0, 1.0, "walking, a foot due to lift this far ahead of the other stays"
    )
    strained: float = _setting(
        0.9, "", 0.0, 1.0, "a foot whose heel lift reaches this fraction of the most steps"
    )
    heel_support: float = _setting(
        0.002, "m", 0.0, 0.1, "a landing heel may rest this far above the ground and strike"
    )
    keep_off: float = _setting(
        0.02, "m", 0.0, 0.5, "a sole lands at least this far off a thing on the ground"
    )
    shift_time: float = _setting(
        0.25, "s", 0.01, 5.0, "on feet kept off their spots, the pelvis shifts over them in"
    )
    shift_speed: float = _setting(0.2, "m/s", 0.0, 2.0, "... at most this fast")
    pin_ground: float = _setting(
        0.03, "m", 0.0, 0.5, "a pinned ankle this close to its flat-foot height bears weight"
    )
    hip_flexion: float = _setting(
        125.0, "degrees", 30.0, 180.0, "a held foot's thigh swings at most this far forward"
    )
    hip_extension: float = _setting(
        30.0, "degrees", 0.0, 90.0, "... and this far back, from hanging straight down"
    )
    held_foot_swing: float = _setting(
        8.0, "rad/s", 1.0, 200.0, "a held foot swings round the hip at most this fast"
    )
    # -- pelvis and stance roll ----------------------------------------------------------------
    landing_descent: float = _setting(
        0.45, "m/s", 0.0, 10.0, "the pelvis is planned to come down toward a landing this fast"
    )
    roll_margin: float = _setting(
        0.001, "", 0.0, 0.1, "a stance roll keeps the leg this fraction inside its lock"
    )
    loading: float = _setting(
        0.18, "", 0.01, 1.0, "fraction of the stance over which the landing roll settles flat"
    )
    # -- upper body ----------------------------------------------------------------------------
    lean_halflife: float = _setting(
        0.15, "s", 0.001, 5.0, "the spine's lean follows speed and slope with this halflife"
    )
    crouch_drop: float = _setting(
        0.45, "m", 0.0, 2.0, "the pelvis sinks this far at a full crouch (a squat)"
    )
    crouch_stoop: float = _setting(
        83.0, "degrees", 0.0, 120.0, "... while the spine tips forward this far"
    )
    crouch_time: float = _setting(
        0.7, "s", 0.05, 5.0, "seconds from standing to a full crouch, or back"
    )
    rise_first: float = _setting(
        0.2, "", 0.0, 1.0, "a crouch deeper than this stands up before a walk or a turn"
    )
    hand_clear: float = _setting(
        0.04, "m", 0.0, 0.5, "a hand's centre stays this far above the ground"
    )
    bent: float = _setting(
        2.0, "degrees", 0.0, 45.0, "a knee counts as bent (for flips) past this hip angle"
    )
    # -- the ladder's climb (game/world/props/ladder_sizes.py) ----------------------------------
    climb_rails_offset: float = _setting(
        0.32, "m", 0.05, 2.0, "the pelvis stays this far in front of the rails (facing +x)"
    )
    climb_hip_above_foot: float = _setting(
        0.72, "m", 0.1, 3.0, "pelvis height above the lower ankle while on the ladder"
    )
    climb_foot_toe_in: float = _setting(
        0.08, "m", 0.0, 2.0, "ankles this far before the rails (the sole's ball on the rung)"
    )
    climb_hands_above_feet: float = _setting(
        1.2, "m", 0.05, 3.0, "the hands' rung this far over the feet's in the resting grip"
    )
    climb_hands_apart: float = _setting(
        0.6, "m", 0.05, 3.0, "the hands' rungs at most this far apart"
    )
    climb_rest_side: float = _setting(
        0.02, "m", 0.0, 2.0, "a hand off the rungs hangs this far to its side of the pelvis"
    )
    climb_arc_out: float = _setting(
        0.1, "m", 0.0, 2.0, "a limb moving rung to rung swings this far out from the rails ..."
    )
    climb_arc_rise: float = _setting(0.04, "m", 0.0, 2.0, "... and this far up, at its middle")
    climb_loft_left_foot: float = _setting(
        0.1, "m", 0.0, 2.0, "the left ankle standing this far beyond the loft's edge"
    )
    climb_loft_right_foot: float = _setting(0.28, "m", 0.0, 2.0, "... the right")
    climb_loft_pelvis: float = _setting(
        0.2, "m", 0.0, 2.0, "the standing pelvis this far beyond the edge (the loft's spot)"
    )
    climb_loft_spot: float = _setting(
        0.03, "m", 0.0, 2.0, "standing farther than this right of the spot, he steps back to it"
    )
    climb_stride_back: float = _setting(0.3, "m", 0.0, 2.0, "... in strides of up to this")
    climb_step_back_lift: float = _setting(
        0.06, "m", 0.0, 2.0, "... a foot clearing the floor by this much"
    )
    climb_loft_foot_lift: float = _setting(
        0.12, "m", 0.0, 2.0, "a foot stepping between the top rung and the loft lifts this"
    )
    climb_over_x: float = _setting(
        0.15, "m", 0.0, 2.0, "the pelvis over the rails: this far beyond their line ..."
    )
    climb_over_y: float = _setting(0.8, "m", 0.0, 2.0, "... this high over the loft's ankles")
    climb_rail_hold: float = _setting(
        1.05, "m", 0.0, 2.0, "stepping across, a hand holds the far rail this high over the loft"
    )
    climb_loft_hands: float = _setting(
        0.9, "m", 0.05, 3.0, "by a loft the hands climb to the rung this far over it, no higher"
    )

    def scaled(self, leg: float) -> Tuning:
        """These settings for a leg ``leg`` metres long: every length times
        ``leg / reference_leg`` (exactly the file's values for the reference leg)."""
        scale = leg / self.reference_leg
        lengths = {
            f.name: getattr(self, f.name) * scale
            for f in fields(self)
            if f.metadata["range"].unit == "m" and f.name != "reference_leg"
        }
        return replace(self, **lengths)

    @property
    def crouch_stoop_rad(self) -> float:
        """:attr:`crouch_stoop` in radians."""
        return math.radians(self.crouch_stoop)

    @property
    def bent_sin(self) -> float:
        """sin(:attr:`bent`): a knee is bent where |hip→ankle × hip→knee| exceeds this times
        the product of their lengths."""
        return math.sin(math.radians(self.bent))


TUNING_RANGES: dict[str, Range] = {f"tuning.{f.name}": f.metadata["range"] for f in fields(Tuning)}
"""The ``tuning`` section's range table (merged into the rig file's)."""


def load_tuning(section: Fields | None, leg: float) -> Tuning:
    """The ``tuning`` section read and validated (each value in its range; a key this table
    does not know is an error), defaults for what it leaves out, lengths scaled to ``leg``."""
    if section is None:
        return Tuning().scaled(leg)
    values = {f.name: section.number(f.name) for f in fields(Tuning) if f.name in section.data}
    return Tuning(**values).scaled(leg)
