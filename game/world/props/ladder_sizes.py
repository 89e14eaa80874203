"""The climb's lengths, proportions of the body (no pygame).

They are the rig's ``climb_*`` tuning settings (``rig.json``'s ``tuning`` section may set
each; left out, the default in :class:`~game.world.tuning.Tuning`), written as every tuning
length is for a leg (thigh + shin) of ``reference_leg`` metres and scaled to the rig's leg:
a body 0.6 the hero's climbs with its hips 0.6 as far from the rails, its hands 0.6 as high
over its feet. The ladder's own geometry (rung spacing, the loft's edge) stays as the props
file gives it; times are not scaled.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from game.world.rig import Rig


@dataclass(frozen=True, slots=True)
class ClimbSizes:
    """The climb's lengths in metres for one body: the rig's ``climb_*`` tuning settings
    (:class:`~game.world.tuning.Tuning`, each with its meaning, unit and range), scaled to
    its leg as every tuning length is."""

    rails_offset: float
    hip_above_foot: float
    foot_toe_in: float
    hands_above_feet: float
    hands_apart: float
    rest_side: float
    arc_out: float
    arc_rise: float
    loft_left_foot: float
    loft_right_foot: float
    loft_pelvis: float
    loft_spot: float
    stride_back: float
    step_back_lift: float
    loft_foot_lift: float
    over_x: float
    over_y: float
    rail_hold: float
    loft_hands: float

    @classmethod
    def for_rig(cls, rig: Rig) -> ClimbSizes:
        """The climb's lengths for ``rig``'s body (its tuning, already scaled to its leg)."""
        return cls(**{f.name: getattr(rig.tuning, "climb_" + f.name) for f in fields(cls)})

    def hands_above(self, rung_spacing: float) -> int:
        """Rungs between the feet and the hands in the resting grip (at least one)."""
        return max(round(self.hands_above_feet / rung_spacing), 1)

    def hands_apart_rungs(self, rung_spacing: float) -> int:
        """The most rungs between the two hands (at least one)."""
        return max(round(self.hands_apart / rung_spacing), 1)

    def hands_over_loft(self, rung_spacing: float) -> int:
        """Rungs between the loft and the hands at the top, by a loft (at least one)."""
        return max(round(self.loft_hands / rung_spacing), 1)
