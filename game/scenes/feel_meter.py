"""The measured feel of a walker, from solved poses (not from the gait's own state).

One :class:`FeetMeter` folds in a step at a time and reports the ``--stats`` ``feet``
figures. The definitions (also in the README's feel table):

- ``max_planted_slide_m``: largest movement of a planted foot's contact pivot between two
  steps of one plant (the pivot is whichever of heel and ball contact moved less: heel at
  heel strike, both flat, ball while the heel lifts or the foot pivots).
- ``max_ground_error_m``: largest distance of that pivot from the ground.
- ``max_pelvis_step_m``: largest vertical pelvis change between consecutive steps.
- ``max_sole_penetration_m``: deepest heel / ball / toe point or sole segment below the
  terrain, any foot, any step (0 when never below).
- ``stance_knee_deg_p50``: median knee flexion of planted legs (0 = straight), walking on
  flat ground.
- ``pelvis_drop_walk_m``: median of standing height minus pelvis height, walking on flat
  ground.
- ``cadence_spm``: ``{"walk", "run"}``, 60 / the mean time between consecutive landings
  at walking / running speed.
- ``flight_fraction_run``: share of running steps with no foot down.
- ``double_support_walk``: share of walking steps with both feet down.
- ``max_joint_jump_m``: largest per-step displacement of any knee, elbow, ankle or hand
  relative to the pelvis's own displacement.

"Walking" is the walk gait near walking speed (0.85–1.1 × ``walk_speed``), "running" the run
gait at ≥ 0.85 × ``run_speed``, flat ground a mean slope under 2 % over ±0.4 m, and neither
counts while the character pivots.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from game.world.easing import all_true, any_true
from game.world.feet import sole_penetration
from game.world.rig import Rig
from game.world.terrain import Terrain
from game.world.types import BoolArray, FloatArray

if TYPE_CHECKING:
    from game.scenes.walk_solved import SolvedHero
    from game.world.character import Crowd

WALK_BAND = (0.85, 1.1)  # fractions of walk_speed that count as walking
RUN_FROM = 0.85  # fraction of run_speed from which running counts
FLAT_GRADE = 0.02
FLAT_SPAN = 0.4
PIVOT_TIE = 1e-4  # metres of slide a metre of height is worth when choosing the pivot
_FEET = np.arange(2)  # the feet's rows, to pick each foot's pivot


@dataclass(slots=True)
class GaitSample:
    """One step of one character, as the meter reads it.

    Attributes
    ----------
    time : float
    pelvis : ndarray, shape (2,)
    hips, knees, ankles : ndarray, shape (2, 2)
        Legs (left, right), solved.
    elbows, hands : ndarray, shape (2, 2)
        Arms (left, right), solved.
    soles : ndarray, shape (2, 3, 2)
        Heel, ball and toe of each foot.
    planted : ndarray of bool, shape (2,)
    landed : ndarray of bool, shape (2,)
        Feet that planted this step.
    speed : float
        |horizontal velocity|.
    running, turning : bool
    """

    time: float
    pelvis: FloatArray
    hips: FloatArray
    knees: FloatArray
    ankles: FloatArray
    elbows: FloatArray
    hands: FloatArray
    soles: FloatArray
    planted: BoolArray
    landed: BoolArray
    speed: float
    running: bool
    turning: bool

    @classmethod
    def of_hero(
        cls, hero: SolvedHero, crowd: Crowd, time: float, was_planted: BoolArray, running: bool
    ) -> GaitSample:
        """Character 0 of ``crowd`` after a step, its limbs as ``hero`` (solved that step);
        ``was_planted`` (2,) its feet's plant before the step."""
        planted = crowd.feet.planted[0].copy()
        return cls(
            time=time,
            pelvis=hero.pelvis,
            hips=hero.hips,
            knees=hero.knees,
            ankles=hero.ankles,
            elbows=hero.elbows,
            hands=hero.hands,
            soles=hero.soles,
            planted=planted,
            landed=planted & ~was_planted,
            speed=abs(float(crowd.vx[0])),
            running=bool(running),
            turning=bool(crowd.turning[0]),
        )


@dataclass(slots=True)
class FeetMeter:
    """Folds in one :class:`GaitSample` per step; :meth:`figures` reports the stats."""

    max_planted_slide_m: float = 0.0
    max_ground_error_m: float = 0.0
    max_pelvis_step_m: float = 0.0
    max_sole_penetration_m: float = 0.0
    max_joint_jump_m: float = 0.0
    knee_deg: list[float] = field(default_factory=list)
    pelvis_drop: list[float] = field(default_factory=list)
    walk_landings: list[float] = field(default_factory=list)
    run_landings: list[float] = field(default_factory=list)
    walk_steps: int = 0
    double_support: int = 0
    run_steps: int = 0
    flight: int = 0
    last: GaitSample | None = None
    last_landing: tuple[float, str] | None = None

    def record(self, sample: GaitSample, terrain: Terrain, rig: Rig) -> None:
        """Fold in one step."""
        last = self.last
        self._feet(sample, last, terrain)
        gait = rig.gait
        mode = ""
        if not sample.turning:
            low, high = WALK_BAND[0] * gait.walk_speed, WALK_BAND[1] * gait.walk_speed
            if not sample.running and low <= sample.speed <= high:
                mode = "walk"
            elif sample.running and sample.speed >= RUN_FROM * gait.run_speed:
                mode = "run"
        if mode == "walk":
            self.walk_steps += 1
            self.double_support += int(all_true(sample.planted))
            x = float(sample.pelvis[0])
            ends = terrain.height_at(np.array([x - FLAT_SPAN, x + FLAT_SPAN]))
            if abs(float(ends[1] - ends[0])) / (2.0 * FLAT_SPAN) < FLAT_GRADE:
                self._flat_walk(sample, terrain, rig)
        elif mode == "run":
            self.run_steps += 1
            self.flight += int(not any_true(sample.planted))
        if any_true(sample.landed):
            if self.last_landing is not None and self.last_landing[1] == mode and mode:
                interval = sample.time - self.last_landing[0]
                (self.walk_landings if mode == "walk" else self.run_landings).append(interval)
            self.last_landing = (sample.time, mode)
        if last is not None:
            self._jumps(sample, last)
        self.last = sample

    def _feet(self, sample: GaitSample, last: GaitSample | None, terrain: Terrain) -> None:
        depth = float(sole_penetration(terrain, sample.soles).max())
        self.max_sole_penetration_m = max(self.max_sole_penetration_m, depth)
        if last is None:
            return
        self.max_pelvis_step_m = max(
            self.max_pelvis_step_m, abs(float(sample.pelvis[1] - last.pelvis[1]))
        )
        still = sample.planted & last.planted & ~sample.landed
        if not any_true(still):
            return
        # the pivot: heel or ball contact, whichever stayed put (the one on the ground if
        # both did: a lifted heel does not move either)
        contacts = sample.soles[:, :2]
        shift = contacts - last.soles[:, :2]
        moved = np.hypot(shift[..., 0], shift[..., 1])
        height = np.abs(contacts[..., 1] - terrain.height_at(contacts[..., 0]))
        pivot = (_FEET, (moved + PIVOT_TIE * height).argmin(axis=1))
        slide = moved[pivot][still]
        self.max_planted_slide_m = max(self.max_planted_slide_m, float(slide.max()))
        error = height[pivot][still]
        self.max_ground_error_m = max(self.max_ground_error_m, float(error.max()))

    def _flat_walk(self, sample: GaitSample, terrain: Terrain, rig: Rig) -> None:
        thigh = sample.hips - sample.knees
        shin = sample.ankles - sample.knees
        # the knee's interior angle: cos θ = (thigh · shin) / (|thigh|·|shin|); flexion = π − θ
        cos = np.sum(thigh * shin, axis=-1) / (np.hypot(*thigh.T) * np.hypot(*shin.T) + 1e-12)
        flexion = 180.0 - np.degrees(np.arccos(np.clip(cos, -1.0, 1.0)))
        self.knee_deg.extend(float(v) for v in flexion[sample.planted])
        x = float(sample.pelvis[0])
        stand = (
            float(terrain.height_at(x))
            + rig.legs.ankle_height
            + rig.gait.stand_extension * rig.legs.limb.reach
        )
        self.pelvis_drop.append(stand - float(sample.pelvis[1]))

    def _jumps(self, sample: GaitSample, last: GaitSample) -> None:
        now = np.concatenate([sample.knees, sample.ankles, sample.elbows, sample.hands])
        then = np.concatenate([last.knees, last.ankles, last.elbows, last.hands])
        jump = now - then - (sample.pelvis - last.pelvis)
        distance = np.hypot(jump[:, 0], jump[:, 1])
        self.max_joint_jump_m = max(self.max_joint_jump_m, float(distance.max()))

    def figures(self) -> dict[str, object]:
        """The ``feet`` stats figures this meter measures (rounded)."""

        def median(values: list[float]) -> float | None:
            return round(float(np.median(values)), 6) if values else None

        def rate(intervals: list[float]) -> float | None:
            return round(60.0 / float(np.mean(intervals)), 2) if intervals else None

        def share(part: int, whole: int) -> float | None:
            return round(part / whole, 4) if whole else None

        return {
            "max_planted_slide_m": round(self.max_planted_slide_m, 9),
            "max_ground_error_m": round(self.max_ground_error_m, 9),
            "max_pelvis_step_m": round(self.max_pelvis_step_m, 9),
            "max_sole_penetration_m": round(max(self.max_sole_penetration_m, 0.0), 9),
            "stance_knee_deg_p50": median(self.knee_deg),
            "pelvis_drop_walk_m": median(self.pelvis_drop),
            "cadence_spm": {"walk": rate(self.walk_landings), "run": rate(self.run_landings)},
            "flight_fraction_run": share(self.flight, self.run_steps),
            "double_support_walk": share(self.double_support, self.walk_steps),
            "max_joint_jump_m": round(self.max_joint_jump_m, 6),
        }
