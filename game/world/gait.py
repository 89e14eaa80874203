"""The gait cycle's timing (phase, cadence, duty factor, stride, the pelvis spring), and
an overview of foot placement, vectorised over N characters × 2 feet. The feet themselves
live in :mod:`game.world.feet` (state, geometry), :mod:`game.world.stance` (rolls),
:mod:`game.world.swing` (paths) and :mod:`game.world.landing` (spots).

**Feet with a roll.** A foot is a rigid rear part (heel contact → ball) and a toe segment
hinged at the ball. Its pose is the ankle, the sole angle and the toe bend. A planted foot
is *locked* by its flat pose on the ground (``Feet.lock``, the ankle with the sole resting
on the terrain); its stance *pitch* rolls it about a contact pivot that never moves::

    pitch > 0  heel strike, toe up:   rotation about the heel contact point
    pitch = 0  foot flat:             the whole sole down
    pitch < 0  heel lift, toe down:   rotation about the ball (the toes stay flat)

**Phase-driven cycle.** Each character has a gait phase φ ∈ [0, 1) advancing at the stride
rate cadence(speed) / 120; foot i's own phase is φ + i/2. A foot is in stance for the first
*duty factor* of its phase and lifts when its phase passes it (duty > 0.5 walking: double
support; < 0.5 running: a flight phase). A landing is an event: the swing lasts the swing
time predicted at lift-off, then plants where its landing spot was chosen (terrain-aware:
the whole sole must fit, rises and drops no taller than ``max_step_height``), or hovers over
the spot until the leg can hold it there. The phase re-syncs to each landing.

**Swing.** From the toe-off pose to the heel-strike pose (toe-first when stepping down), the
ankle follows an arc lifted above the *required height*: the lowest ankle height at which
heel, ball, toe and both sole segments clear the ground under them and a cone of the ground
ahead, so the foot rises before a stair nosing instead of through it.

Arrays are structure-of-arrays: ``(N, 2)`` per foot (index 0 left, 1 right), ``(N, 2, 2)``
for points, ``(..., 3, 2)`` for sole points (heel, ball, toe).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from game.world.easing import clamp
from game.world.rig import GaitSpec
from game.world.types import FloatArray

PHASE_OFFSET = np.array([0.0, 0.5])
"""Each foot's phase is the character's phase plus this (the feet alternate)."""
DOWNHILL_QUICKENING = 0.6
"""A grade downhill quickens the steps this fraction of what the same grade uphill does."""
ROLL_SPEED = 0.3
"""m/s: the heel-to-ball roll's advance fades in as ``tanh(speed / ROLL_SPEED)`` (none
standing, all of it at a walk)."""


# -- gait curves -----------------------------------------------------------------------
def run_fraction(speed: FloatArray, gait: GaitSpec) -> FloatArray:
    """0 at walking speed and below, 1 at running speed, linear between."""
    span = max(gait.run_speed - gait.walk_speed, 1e-6)
    return clamp((np.abs(speed) - gait.walk_speed) / span, 0.0, 1.0)


def cadence(speed: FloatArray, gait: GaitSpec) -> FloatArray:
    """Steps per minute at ``speed``: piecewise linear through (0, idle), (walk, walk),
    (run, run) from the rig, extrapolated past running speed at the run segment's slope
    (people run faster mostly by longer steps, a little by quicker ones)."""
    v = np.abs(speed)
    rise = (gait.cadence_run - gait.cadence_walk) / max(gait.run_speed - gait.walk_speed, 1e-6)
    walking = gait.cadence_idle + (gait.cadence_walk - gait.cadence_idle) * v / gait.walk_speed
    running = gait.cadence_walk + rise * (v - gait.walk_speed)
    return np.where(v <= gait.walk_speed, walking, running)


def duty_factor(speed: FloatArray, gait: GaitSpec) -> FloatArray:
    """The fraction of a stride a foot is down: ``duty_walk`` walking, ``duty_run`` running."""
    return gait.duty_walk + (gait.duty_run - gait.duty_walk) * run_fraction(speed, gait)


def slope_quickening(grade: FloatArray, gait: GaitSpec) -> FloatArray:
    """The factor (≥ 1) the steps quicken by on a slope or stairs of ``grade`` (rise per
    run along the walking direction), so at one speed they shorten; more uphill than down."""
    steep = clamp(grade, 0.0, 1.0) + DOWNHILL_QUICKENING * clamp(-grade, 0.0, 1.0)
    return 1.0 + gait.uphill_cadence * steep


def quickened_rate(speed: FloatArray, quickening: FloatArray, gait: GaitSpec) -> FloatArray:
    """Strides per second (two steps a stride) at ``speed``, the steps quickened by
    ``quickening`` (:func:`slope_quickening`)."""
    return cadence(speed, gait) / 120.0 * quickening


def stride_rate(speed: FloatArray, grade: FloatArray, gait: GaitSpec) -> FloatArray:
    """Strides per second at ``speed`` on ``grade`` (rise per run along the walking
    direction, :func:`slope_quickening`)."""
    return quickened_rate(speed, slope_quickening(grade, gait), gait)


@dataclass(frozen=True, slots=True)
class Pace:
    """The gait's timing at one speed on one grade (computed once a step), shape (N,) each.

    Attributes
    ----------
    duty : ndarray
        :func:`duty_factor`.
    rate : ndarray
        :func:`stride_rate`, strides per second.
    """

    duty: FloatArray
    rate: FloatArray

    @classmethod
    def at(cls, speed: FloatArray, grade: FloatArray, gait: GaitSpec) -> Pace:
        """At ``speed`` (signed) on ground of ``grade`` (rise per run in +x): the slope that
        counts is the one along the direction of travel."""
        return cls(duty_factor(speed, gait), stride_rate(speed, grade * np.sign(speed), gait))

    @property
    def stance_time(self) -> FloatArray:
        """Seconds a foot is down per stride (duty factor / stride rate)."""
        return self.duty / self.rate

    @property
    def swing_time(self) -> FloatArray:
        """Seconds a foot is in the air per stride."""
        return (1.0 - self.duty) / self.rate


def half_stride(speed: FloatArray, stance_time: FloatArray, gait: GaitSpec) -> FloatArray:
    """How far ahead of the hip a foot lands at ``speed`` (signed), for a stance this long.

    The hip passes over the foot during the stance: it travels v·T, centred on the foot,
    less the roll from heel to ball that carries the leg forward by itself.
    """
    half = 0.5 * speed * stance_time - 0.5 * gait.roll_advance * np.tanh(speed / ROLL_SPEED)
    return clamp(half, -gait.max_step_reach, gait.max_step_reach)


# -- pelvis ----------------------------------------------------------------------------
def spring_step(
    y: FloatArray, vy: FloatArray, goal: FloatArray, halflife: ArrayLike, dt: float
) -> tuple[FloatArray, FloatArray]:
    """One step of a critically damped spring toward ``goal`` (exact for constant goal).

    Holden, "Spring-It-On": with d = 2·ln 2 / halflife, j0 = y − goal, j1 = v + j0·d:
    y(t) = e^(−d·t)·(j0 + j1·t) + goal, v(t) = e^(−d·t)·(v − j1·d·t).
    """
    d = 2.0 * math.log(2.0) / np.maximum(halflife, 1e-6)
    j0 = y - goal
    j1 = vy + j0 * d
    decay = np.exp(-d * dt)
    return decay * (j0 + j1 * dt) + goal, decay * (vy - j1 * d * dt)
