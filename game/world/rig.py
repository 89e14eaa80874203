"""The character rig: proportions, gait tuning and colours, loaded from ``assets/rig.json``.

Lengths are metres, times seconds, speeds m/s, angles degrees in the file and radians here.
A bad value raises :class:`game.assets.AssetError` naming the file and the key path.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

from game.assets import read_json
from game.palette import Color
from game.world.schema import Fields, Range
from game.world.tuning import TUNING_RANGES, Tuning, load_tuning

_BONE = Range(0.05, 2.0, "m")
_SECONDS = Range(0.001, 5.0, "s")
_EXTENSION = Range(0.3, 1.0, "of L1 + L2")

RIG_RANGES: dict[str, Range] = {
    # every numeric field of rig.json and its documented physical range: a new field is a
    # new line here (the loader refuses to read a field without one)
    "body.spine": Range(0.1, 2.0, "m"),
    "body.neck": Range(0.01, 0.5, "m"),
    "body.head_radius": Range(0.03, 0.5, "m"),
    "body.torso_width": Range(0.05, 1.0, "m"),
    "body.hip_depth": Range(0.0, 0.3, "m"),
    "body.shoulder_depth": Range(0.0, 0.3, "m"),
    "body.lean_per_speed": Range(0.0, 0.5, "rad per m/s"),
    "body.lean_per_slope": Range(0.0, 1.0, "rad per rad"),
    "arms.upper": _BONE,
    "arms.lower": _BONE,
    "arms.softness": Range(0.0, 1.0, "m"),
    "arms.pole_back": Range(-2.0, 2.0, "m"),
    "arms.pole_down": Range(-2.0, 2.0, "m"),
    "arms.swing": Range(0.0, 3.0, "rad per m"),
    "arms.reach_halflife": _SECONDS,
    "legs.upper": _BONE,
    "legs.lower": _BONE,
    "legs.softness": Range(0.0, 1.0, "m"),
    "legs.pole_forward": Range(0.01, 5.0, "m"),
    "feet.ankle_height": Range(0.01, 0.5, "m"),
    "feet.heel": Range(0.01, 0.5, "m"),
    "feet.ball": Range(0.0, 0.5, "m"),
    "feet.toe": Range(0.01, 0.5, "m"),
    "feet.max_tilt_deg": Range(0.0, 60.0, "degrees"),
    "feet.heel_strike_deg": Range(0.0, 45.0, "degrees"),
    "feet.toe_off_deg": Range(0.0, 70.0, "degrees"),
    "feet.toe_first_deg": Range(0.0, 45.0, "degrees"),
    "feet.max_heel_lift_deg": Range(0.0, 80.0, "degrees"),
    "feet.max_toe_up_deg": Range(0.0, 45.0, "degrees"),
    "feet.heel_rise": Range(0.0, 0.4, "m"),
    "gait.walk_speed": Range(0.1, 10.0, "m/s"),
    "gait.run_speed": Range(0.1, 15.0, "m/s"),
    "gait.accel_halflife": _SECONDS,
    "gait.cadence_idle_spm": Range(20.0, 240.0, "steps/min"),
    "gait.cadence_walk_spm": Range(20.0, 240.0, "steps/min"),
    "gait.cadence_run_spm": Range(20.0, 300.0, "steps/min"),
    "gait.duty_walk": Range(0.5, 0.9),
    "gait.duty_run": Range(0.2, 0.5),
    "gait.uphill_cadence": Range(0.0, 3.0, "per unit grade"),
    "gait.roll_advance": Range(0.0, 0.3, "m"),
    "gait.max_step_reach": Range(0.05, 3.0, "m"),
    "gait.lift_height": Range(0.0, 0.3, "m"),
    "gait.stand_extension": _EXTENSION,
    "gait.comfort_extension": _EXTENSION,
    "gait.lock_extension": _EXTENSION,
    "gait.pelvis_halflife": _SECONDS,
    "gait.max_pelvis_speed": Range(0.01, 10.0, "m/s"),
    "gait.climb_speed": Range(0.01, 5.0, "m/s"),
    "gait.bob_walk": Range(0.0, 0.2, "m"),
    "gait.bob_run": Range(0.0, 0.2, "m"),
    "gait.run_sink": Range(0.0, 0.3, "m"),
    "gait.idle_tolerance": Range(0.001, 1.0, "m"),
    "gait.max_step_height": Range(0.01, 2.0, "m"),
    "gait.stance_spread": Range(0.0, 0.5, "m"),
    "gait.turn_time": Range(0.05, 2.0, "s"),
    "colors.far_shade": Range(0.0, 1.0),
    **TUNING_RANGES,
}

LIMBS: tuple[str, ...] = ("left_arm", "right_arm", "left_leg", "right_leg")
"""Limb order of every ``(N, 4, ...)`` array: arms first, then legs; left before right."""


@dataclass(frozen=True, slots=True)
class LimbSpec:
    """A two-bone limb: bone lengths and the soft-reach width the solver is given."""

    upper: float
    lower: float
    softness: float

    @property
    def reach(self) -> float:
        """Full extension L1 + L2."""
        return self.upper + self.lower

    @property
    def dead_zone(self) -> float:
        """The innermost reachable distance |L1 − L2|."""
        return abs(self.upper - self.lower)


@dataclass(frozen=True, slots=True)
class BodySpec:
    """Torso and head; depth offsets put the near limbs a little in front of the far ones."""

    spine: float  # pelvis → shoulders
    neck: float  # shoulders → base of the head
    head_radius: float
    torso_width: float  # drawn width of the torso
    hip_depth: float  # facing-relative x offset of the near hip (the far hip gets −)
    shoulder_depth: float
    lean_per_speed: float  # forward lean of the spine, radians per m/s
    lean_per_slope: float  # lean into the slope, radians per radian of ground slope


@dataclass(frozen=True, slots=True)
class ArmSpec:
    """Arm poles (down and back from the shoulder→hand midpoint) and the resting swing."""

    limb: LimbSpec
    pole_back: float
    pole_down: float
    swing: float  # resting arm angle per metre of the opposite foot's offset from the hip
    reach_halflife: float  # hands chase the pointer with this halflife


@dataclass(frozen=True, slots=True)
class LegSpec:
    """Legs and feet: the knee pole sits ``pole_forward`` in front of the hip→ankle midpoint."""

    limb: LimbSpec
    pole_forward: float
    ankle_height: float  # ankle above the ground contact under it, when planted
    heel: float  # sole length behind the ankle
    ball: float  # ankle to the ball of the foot (where the toes bend), along the sole
    toe: float  # ankle to the toe tip, along the sole
    max_tilt: float  # the sole follows the ground slope up to this angle (radians)
    heel_strike: float  # toe-up roll at heel strike on a full-length step (radians)
    toe_off: float  # heel-lift roll about the ball at toe-off (radians)
    toe_first: float  # toe-down roll of a toe-first landing, stepping down (radians)
    max_heel_lift: float  # the most the heel lifts about the ball in stance (radians)
    max_toe_up: float  # the most the toe stays up about the heel in stance (radians)
    heel_rise: float  # how high the ankle rises behind early in a swing (metres)


@dataclass(frozen=True, slots=True)
class GaitSpec:
    """Walking and foot placement tuning (see :mod:`game.world.gait`)."""

    walk_speed: float
    run_speed: float
    accel_halflife: float
    cadence_idle: float  # steps per minute as the walk starts (speed → 0)
    cadence_walk: float  # steps per minute at walk_speed
    cadence_run: float  # steps per minute at run_speed
    duty_walk: float  # fraction of a stride a foot is down walking (> 0.5: double support)
    duty_run: float  # ... running (< 0.5: a flight phase)
    uphill_cadence: float  # steps quicken by this fraction per unit of uphill grade
    roll_advance: float  # how far the heel-to-ball roll carries the leg forward, metres
    max_step_reach: float  # largest landing offset in front of the hip
    lift_height: float  # sole clearance at mid-swing above the ground it passes over
    stand_extension: float  # pelvis height when standing, as a fraction of L1 + L2
    comfort_extension: float  # the heel lifts (then the pelvis lowers) beyond this fraction
    lock_extension: float  # a planted leg is never stretched past this fraction
    pelvis_halflife: float  # the pelvis is a critically damped spring with this halflife
    max_pelvis_speed: float  # vertical, m/s
    climb_speed: float  # walking slows on steep ground so the body rises at most this, m/s
    bob_walk: float  # pelvis rise at mid-stance walking, metres
    bob_run: float  # pelvis dip at mid-stance running, metres
    run_sink: float  # the running pelvis rides this much lower, metres
    idle_tolerance: float  # standing still, a foot this far from its spot steps
    max_step_height: float  # taller rises or drops are not stepped onto
    stance_spread: float  # standing, the near foot sits this far ahead, the far one behind
    turn_time: float  # seconds a standing pivot (turning around) takes


@dataclass(frozen=True, slots=True)
class RigColors:
    """Colours of the figure; far limbs are the near colour mixed toward the background."""

    skin: Color
    hair: Color
    shirt: Color
    trousers: Color
    shoes: Color
    far_shade: float  # 0 = far limbs like near ones, 1 = background


@dataclass(frozen=True, slots=True)
class Rig:
    """Everything about one character type."""

    name: str
    body: BodySpec
    arms: ArmSpec
    legs: LegSpec
    gait: GaitSpec
    colors: RigColors
    tuning: Tuning  # the walker's behaviour settings (:mod:`game.world.tuning`)


def _limb(fields: Fields) -> LimbSpec:
    upper, lower = fields.length("upper"), fields.length("lower")
    softness = fields.number("softness", high=0.5 * (upper + lower))
    return LimbSpec(upper, lower, softness)


def _degrees(fields: Fields, key: str) -> float:
    """An angle from the file (degrees, range in :data:`RIG_RANGES`), in radians."""
    return math.radians(fields.number(key))


def load_rig(path: str | Path) -> Rig:
    """Read and validate a rig file (see ``assets/rig.json`` for the layout)."""
    top = Fields(path, read_json(path), ranges=RIG_RANGES)
    body = top.section("body")
    arms = top.section("arms")
    legs = top.section("legs")
    feet = top.section("feet")
    gait = top.section("gait")
    colors = top.section("colors")
    leg_limb = _limb(legs)
    tilt_deg = feet.number("max_tilt_deg")
    toe = feet.length("toe")
    ball = feet.number("ball", high=toe)
    gait_spec = _gait(gait, leg_limb)
    rig = Rig(
        name=top.text("name"),
        body=_body(body),
        arms=ArmSpec(
            limb=_limb(arms),
            pole_back=arms.number("pole_back"),
            pole_down=arms.number("pole_down"),
            swing=arms.number("swing"),
            reach_halflife=arms.length("reach_halflife"),
        ),
        legs=_legs(legs, feet, leg_limb, math.radians(tilt_deg), toe, ball),
        gait=gait_spec,
        colors=RigColors(
            skin=colors.color("skin"),
            hair=colors.color("hair"),
            shirt=colors.color("shirt"),
            trousers=colors.color("trousers"),
            shoes=colors.color("shoes"),
            far_shade=colors.fraction("far_shade"),
        ),
        tuning=load_tuning(top.section("tuning") if "tuning" in top.data else None, leg_limb.reach),
    )
    top.reject_unknown()  # a misspelt key is an error, not a silent default
    return rig


def _body(body: Fields) -> BodySpec:
    return BodySpec(
        spine=body.length("spine"),
        neck=body.length("neck"),
        head_radius=body.length("head_radius"),
        torso_width=body.length("torso_width"),
        hip_depth=body.number("hip_depth"),
        shoulder_depth=body.number("shoulder_depth"),
        lean_per_speed=body.number("lean_per_speed"),
        lean_per_slope=body.number("lean_per_slope"),
    )


def _legs(
    legs: Fields, feet: Fields, limb: LimbSpec, max_tilt: float, toe: float, ball: float
) -> LegSpec:
    """The legs and feet (``max_tilt``, ``toe`` and ``ball``: read before the gait)."""
    return LegSpec(
        limb=limb,
        pole_forward=legs.length("pole_forward"),
        ankle_height=feet.length("ankle_height"),
        heel=feet.length("heel"),
        ball=ball,
        toe=toe,
        max_tilt=max_tilt,
        heel_strike=_degrees(feet, "heel_strike_deg"),
        toe_off=_degrees(feet, "toe_off_deg"),
        toe_first=_degrees(feet, "toe_first_deg"),
        max_heel_lift=_degrees(feet, "max_heel_lift_deg"),
        max_toe_up=_degrees(feet, "max_toe_up_deg"),
        heel_rise=feet.number("heel_rise"),
    )


def _gait(gait: Fields, leg: LimbSpec) -> GaitSpec:
    """The gait section, its speeds in order and its leg extensions rising, the highest
    short of the ``leg``'s soft band."""
    spec = GaitSpec(
        walk_speed=gait.length("walk_speed"),
        run_speed=gait.length("run_speed"),
        accel_halflife=gait.length("accel_halflife"),
        cadence_idle=gait.number("cadence_idle_spm"),
        cadence_walk=gait.number("cadence_walk_spm"),
        cadence_run=gait.number("cadence_run_spm"),
        duty_walk=gait.number("duty_walk"),
        duty_run=gait.number("duty_run"),
        uphill_cadence=gait.number("uphill_cadence"),
        roll_advance=gait.number("roll_advance"),
        max_step_reach=gait.length("max_step_reach"),
        lift_height=gait.number("lift_height"),
        stand_extension=gait.fraction("stand_extension"),
        comfort_extension=gait.fraction("comfort_extension"),
        lock_extension=gait.fraction("lock_extension"),
        pelvis_halflife=gait.length("pelvis_halflife"),
        max_pelvis_speed=gait.length("max_pelvis_speed"),
        climb_speed=gait.length("climb_speed"),
        bob_walk=gait.number("bob_walk"),
        bob_run=gait.number("bob_run"),
        run_sink=gait.number("run_sink"),
        idle_tolerance=gait.length("idle_tolerance"),
        max_step_height=gait.length("max_step_height"),
        stance_spread=gait.number("stance_spread"),
        turn_time=gait.length("turn_time"),
    )
    if spec.run_speed < spec.walk_speed:
        raise gait.error(
            "run_speed",
            f"expected at least walk_speed ({spec.walk_speed:g}), found {spec.run_speed:g}",
        )
    # a planted leg must stay inside the solver's exact zone [0, L − s], or it would slide
    soft_start = 1.0 - leg.softness / leg.reach
    order = ("stand_extension", "comfort_extension", "lock_extension")
    for lower, higher in zip(order, order[1:], strict=False):
        low_value, high_value = getattr(spec, lower), getattr(spec, higher)
        if high_value <= low_value:
            raise gait.error(
                higher, f"expected a fraction > {lower} ({low_value:g}), found {high_value:g}"
            )
    if spec.lock_extension > soft_start:
        raise gait.error(
            "lock_extension",
            f"expected at most 1 − legs.softness / (L1 + L2) = {soft_start:.4f} so a planted "
            f"foot never reaches the soft band, found {spec.lock_extension:g}",
        )
    return spec
