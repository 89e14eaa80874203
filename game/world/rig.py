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
    "feet.toe": Range(0.01, 0.5, "m"),
    "feet.max_tilt_deg": Range(0.0, 60.0, "degrees"),
    "gait.walk_speed": Range(0.1, 10.0, "m/s"),
    "gait.run_speed": Range(0.1, 15.0, "m/s"),
    "gait.accel_halflife": _SECONDS,
    "gait.swing_time_walk": Range(0.05, 3.0, "s"),
    "gait.swing_time_run": Range(0.05, 3.0, "s"),
    "gait.stance_time_walk": Range(0.05, 3.0, "s"),
    "gait.stance_time_run": Range(0.05, 3.0, "s"),
    "gait.max_step_reach": Range(0.05, 3.0, "m"),
    "gait.lift_height": Range(0.005, 1.0, "m"),
    "gait.stand_extension": _EXTENSION,
    "gait.comfort_extension": _EXTENSION,
    "gait.unplant_extension": _EXTENSION,
    "gait.lock_extension": _EXTENSION,
    "gait.pelvis_halflife": _SECONDS,
    "gait.max_pelvis_speed": Range(0.01, 10.0, "m/s"),
    "gait.climb_speed": Range(0.01, 5.0, "m/s"),
    "gait.bob": Range(0.0, 0.2, "m"),
    "gait.idle_tolerance": Range(0.001, 1.0, "m"),
    "gait.step_hysteresis": Range(0.0, 1.0, "m"),
    "gait.max_step_height": Range(0.01, 2.0, "m"),
    "gait.stance_spread": Range(0.0, 0.5, "m"),
    "gait.double_support": Range(0.0, 1.0, "s"),
    "colors.far_shade": Range(0.0, 1.0),
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
    toe: float  # sole length in front of the ankle
    max_tilt: float  # the sole follows the ground slope up to this angle (radians)


@dataclass(frozen=True, slots=True)
class GaitSpec:
    """Walking and foot placement tuning (see :mod:`game.world.gait`)."""

    walk_speed: float
    run_speed: float
    accel_halflife: float
    swing_time_walk: float
    swing_time_run: float
    stance_time_walk: float
    stance_time_run: float
    max_step_reach: float  # largest landing offset in front of the hip
    lift_height: float  # swing arc clearance above the highest ground on the way
    stand_extension: float  # pelvis height when standing, as a fraction of L1 + L2
    comfort_extension: float  # the pelvis lowers so each foot reaches within this fraction
    unplant_extension: float  # a planted leg this extended wants to step
    lock_extension: float  # a planted leg is never stretched past this fraction
    pelvis_halflife: float
    max_pelvis_speed: float  # vertical, m/s
    climb_speed: float  # walking slows on steep ground so the body rises at most this, m/s
    bob: float  # pelvis rise at mid-swing, metres at walking speed
    idle_tolerance: float  # standing still, a foot this far from its spot steps
    step_hysteresis: float  # a stepping wish clears only this far inside its trigger
    max_step_height: float  # taller rises or drops are not stepped onto
    stance_spread: float  # standing, the near foot sits this far ahead, the far one behind
    double_support: float  # a foot lifts only after the other has been down this long


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


def _limb(fields: Fields) -> LimbSpec:
    upper, lower = fields.length("upper"), fields.length("lower")
    softness = fields.number("softness", high=0.5 * (upper + lower))
    return LimbSpec(upper, lower, softness)


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
    gait_spec = GaitSpec(
        walk_speed=gait.length("walk_speed"),
        run_speed=gait.length("run_speed"),
        accel_halflife=gait.length("accel_halflife"),
        swing_time_walk=gait.length("swing_time_walk"),
        swing_time_run=gait.length("swing_time_run"),
        stance_time_walk=gait.length("stance_time_walk"),
        stance_time_run=gait.length("stance_time_run"),
        max_step_reach=gait.length("max_step_reach"),
        lift_height=gait.length("lift_height"),
        stand_extension=gait.fraction("stand_extension"),
        comfort_extension=gait.fraction("comfort_extension"),
        unplant_extension=gait.fraction("unplant_extension"),
        lock_extension=gait.fraction("lock_extension"),
        pelvis_halflife=gait.length("pelvis_halflife"),
        max_pelvis_speed=gait.length("max_pelvis_speed"),
        climb_speed=gait.length("climb_speed"),
        bob=gait.number("bob"),
        idle_tolerance=gait.length("idle_tolerance"),
        step_hysteresis=gait.number("step_hysteresis"),
        max_step_height=gait.length("max_step_height"),
        stance_spread=gait.number("stance_spread"),
        double_support=gait.number("double_support"),
    )
    if gait_spec.run_speed < gait_spec.walk_speed:
        raise gait.error(
            "run_speed",
            f"expected at least walk_speed ({gait_spec.walk_speed:g}), found {gait_spec.run_speed:g}",
        )
    # a planted leg must stay inside the solver's exact zone [0, L − s], or it would slide
    soft_start = 1.0 - leg_limb.softness / leg_limb.reach
    order = ("comfort_extension", "unplant_extension", "lock_extension")
    for lower, higher in zip(order, order[1:], strict=False):
        low_value, high_value = getattr(gait_spec, lower), getattr(gait_spec, higher)
        if high_value <= low_value:
            raise gait.error(
                higher, f"expected a fraction > {lower} ({low_value:g}), found {high_value:g}"
            )
    if gait_spec.lock_extension > soft_start:
        raise gait.error(
            "lock_extension",
            f"expected at most 1 − legs.softness / (L1 + L2) = {soft_start:.4f} so a planted "
            f"foot never reaches the soft band, found {gait_spec.lock_extension:g}",
        )
    return Rig(
        name=top.text("name"),
        body=BodySpec(
            spine=body.length("spine"),
            neck=body.length("neck"),
            head_radius=body.length("head_radius"),
            torso_width=body.length("torso_width"),
            hip_depth=body.number("hip_depth"),
            shoulder_depth=body.number("shoulder_depth"),
            lean_per_speed=body.number("lean_per_speed"),
        ),
        arms=ArmSpec(
            limb=_limb(arms),
            pole_back=arms.number("pole_back"),
            pole_down=arms.number("pole_down"),
            swing=arms.number("swing"),
            reach_halflife=arms.length("reach_halflife"),
        ),
        legs=LegSpec(
            limb=leg_limb,
            pole_forward=legs.length("pole_forward"),
            ankle_height=feet.length("ankle_height"),
            heel=feet.length("heel"),
            toe=feet.length("toe"),
            max_tilt=math.radians(tilt_deg),
        ),
        gait=gait_spec,
        colors=RigColors(
            skin=colors.color("skin"),
            hair=colors.color("hair"),
            shirt=colors.color("shirt"),
            trousers=colors.color("trousers"),
            shoes=colors.color("shoes"),
            far_shade=colors.fraction("far_shade"),
        ),
    )
