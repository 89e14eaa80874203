"""Analytic two-bone inverse kinematics (law of cosines) with pole, soft reach and stretch.

``solve_2d`` and ``solve_3d`` place the elbow and hand of any batch of two-bone limbs in one
call; ``bone_rotations`` turns a 3-D solve into per-bone quaternions for a rig and
``blend_pose`` poses a limb part way to a solve; ``fabrik`` is the iterative contrast for chains
of any length. Only numpy and the standard library are used.
"""

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
