"""The climb's lengths, proportions of the body (no pygame).

As the walk's :class:`~game.world.tuning.Tuning`, every length here is written for a leg
(thigh + shin) of ``reference_leg`` metres (0.89, the hero's) and :meth:`ClimbSizes.for_rig`
scales it by the rig's leg / ``reference_leg``: a body 0.6 the hero's climbs with its hips
0.6 as far from the rails, its hands 0.6 as high over its feet. The ladder's own geometry
(rung spacing, the loft's edge) stays as the props file gives it; times are not scaled.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace

from game.world.rig import Rig


@dataclass(frozen=True, slots=True)
class ClimbSizes:
    """The climb's lengths in metres (defaults: for the reference leg)."""

    # -- on the rungs ------------------------------------------------------------------------
    climb_offset: float = 0.32  # the pelvis stays this far in front of the rails (facing +x)
    hip_above_foot: float = 0.72  # pelvis height above the lower ankle while on the ladder
    foot_toe_in: float = 0.08  # ankles this far before the rails (the sole's ball on the rung)
    hands_above_feet: float = 1.2  # the hands' rung this far over the feet's in the resting grip
    hands_apart: float = 0.6  # the hands' rungs at most this far apart
    rest_side: float = 0.02  # a hand off the rungs hangs this far to its side of the pelvis
    arc_out: float = 0.1  # a limb moving rung to rung swings this far out from the rails ...
    arc_rise: float = 0.04  # ... and this far up, at its middle
    # -- stepping between the top and the loft -----------------------------------------------
    loft_left_foot: float = 0.1  # the left ankle standing this far beyond the loft's edge
    loft_right_foot: float = 0.28  # ... the right
    loft_pelvis: float = 0.2  # the standing pelvis this far beyond the edge (the loft's spot)
    loft_spot: float = 0.03  # standing farther than this right of the spot, he steps back to it
    stride_back: float = 0.3  # ... in strides of up to this
    step_back_lift: float = 0.06  # ... a foot clearing the floor by this much
    loft_foot_lift: float = 0.12  # a foot stepping between the top rung and the loft lifts this
    over_x: float = 0.15  # the pelvis over the rails: this far beyond their line ...
    over_y: float = 0.8  # ... this high over the loft's ankles
    rail_hold: float = 1.05  # stepping across, a hand holds the far rail this high over the loft
    loft_hands: float = 0.9  # by a loft the hands climb to the rung this far over it, no higher
    reference_leg: float = 0.89  # the leg length (L1 + L2) the lengths above are given for

    def scaled(self, leg: float) -> ClimbSizes:
        """These lengths for a leg ``leg`` metres long: each times ``leg / reference_leg``
        (exactly the values above for the reference leg)."""
        scale = leg / self.reference_leg
        lengths = {
            f.name: getattr(self, f.name) * scale for f in fields(self) if f.name != "reference_leg"
        }
        return replace(self, **lengths)

    @classmethod
    def for_rig(cls, rig: Rig) -> ClimbSizes:
        """The climb's lengths for ``rig``'s body, from the leg its tuning is written for."""
        return cls(reference_leg=rig.tuning.reference_leg).scaled(rig.legs.limb.reach)

    def hands_above(self, rung_spacing: float) -> int:
        """Rungs between the feet and the hands in the resting grip (at least one)."""
        return max(round(self.hands_above_feet / rung_spacing), 1)

    def hands_apart_rungs(self, rung_spacing: float) -> int:
        """The most rungs between the two hands (at least one)."""
        return max(round(self.hands_apart / rung_spacing), 1)

    def hands_over_loft(self, rung_spacing: float) -> int:
        """Rungs between the loft and the hands at the top, by a loft (at least one)."""
        return max(round(self.loft_hands / rung_spacing), 1)
