"""How the side camera sees a character turning round: its limbs foreshortened.

The simulation keeps true geometry (every bone its length). A limb bends in the
character's own sagittal plane, which turns with it: at ``spin`` s (the cosine of the pivot
angle) the bend's offset from the root→hand line shows at |s| of its length, and end-on
(s = 0) the joint lies on the line, as the feet foreshorten by s. Drawn without this, a
knee would cross from the front of the leg to the back in the one step its pole crosses
the leg mid-pivot.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np

from game.world.pose import PoseInputs
from game.world.types import FloatArray


def foreshortened_joints(
    elbow: FloatArray, hand: FloatArray, roots: FloatArray, spin: FloatArray
) -> FloatArray:
    """The elbows and knees (M, 4, 2) as the side view sees them, for characters whose
    facing turns by ``spin`` (M,), from the solved ``elbow`` and ``hand`` and the limbs'
    ``roots`` (M, 4, 2)."""
    along = hand - roots
    offset = elbow - roots
    # the joint's foot on the root→hand line: root + along·(offset·along)/|along|²
    t = (offset * along).sum(axis=-1) / np.maximum((along * along).sum(axis=-1), 1e-12)
    foot = roots + along * t[..., None]
    return foot + np.abs(spin)[:, None, None] * (elbow - foot)


def seen_from_the_side(pose: PoseInputs, solution: Any) -> Any:
    """``solution`` (the solve of ``pose``) with the elbows and knees of characters
    pivoting toward or away from the camera foreshortened (the others unchanged; the
    solver's angles stay the limbs' own)."""
    pivoting = np.flatnonzero(np.abs(pose.spin) != 1.0)
    if len(pivoting) == 0:
        return solution
    elbow = solution.elbow.copy()
    elbow[pivoting] = foreshortened_joints(
        solution.elbow[pivoting],
        solution.hand[pivoting],
        pose.roots[pivoting],
        pose.spin[pivoting],
    )
    return replace(solution, elbow=elbow)
