"""Analytic two-bone inverse kinematics (law of cosines) with pole, soft reach and stretch:
``solve_2d`` / ``solve_3d`` for any batch of limbs in one call, ``bone_rotations`` and
``blend_pose`` for a rig, ``fabrik`` as the iterative contrast. numpy and the stdlib only."""

from __future__ import annotations

from ik.fabrik import FabrikResult, fabrik
from ik.reach import Status, soften_distance
from ik.rotations import BoneRotations, blend_pose, bone_rotations
from ik.solution import Solution2D, Solution3D
from ik.solve2d import solve_2d
from ik.solve3d import solve_3d

__all__ = [
    "BoneRotations",
    "FabrikResult",
    "Solution2D",
    "Solution3D",
    "Status",
    "blend_pose",
    "bone_rotations",
    "fabrik",
    "soften_distance",
    "solve_2d",
    "solve_3d",
]
