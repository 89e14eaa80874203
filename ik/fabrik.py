"""FABRIK (Aristidou & Lasenby 2011), for contrast: two bones close a triangle, so the law of
cosines answers in one step; with more bones a continuum of shapes spans the shoulder-to-target
distance and a solver must search. This is the classic search, for chains of any length."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from numpy.typing import ArrayLike

from ik._units import float_dtype, require, to_array, to_points


@dataclass(frozen=True, slots=True)
class FabrikResult:
    """A FABRIK solve: the joints (J, D), ``joints[0]`` the fixed root, bone lengths kept; the
    backward-forward passes used (0 when the target was out of reach or already met); the final
    ``|joints[-1] - target|``."""

    joints: npt.NDArray[np.floating]
    iterations: int
    residual: float


def fabrik(
    joints: ArrayLike, target: ArrayLike, *, tolerance: float = 1e-6, max_iterations: int = 100
) -> FabrikResult:
    """Reach ``target`` with the end of a chain by forward-and-backward reaching.

    Each iteration drags the chain end-first onto the target, then root-first back onto the
    root, keeping every bone's length. A target beyond the chain's total length gets the
    straight chain aimed at it (no iteration). Like every FABRIK, a chain that starts on the
    root-target line (root, first joint and target collinear) stays on that line and may stall
    short of a target inside its reach: start from a bent pose. Convergence is linear and slows
    near the fold limit, where ``max_iterations`` may run out before ``tolerance`` is met.

    ``joints``: current positions, shape (J >= 2, D = 2 or 3), the bone lengths taken from
    them; ``target``: shape (D,); stop when ``|end - target| <= tolerance`` (absolute, in the
    joints' units) or after ``max_iterations`` passes. Raises ``ValueError`` for other shapes,
    non-finite coordinates, a negative or non-finite tolerance or negative ``max_iterations``.
    """
    dtype = float_dtype(joints, target)
    chain = to_array("joints", joints, dtype)
    if chain.ndim != 2 or chain.shape[0] < 2 or chain.shape[1] not in (2, 3):
        raise ValueError(f"joints: expected shape (J >= 2, 2 or 3), got shape {chain.shape}")
    require("joints", chain, np.isfinite(chain), "finite coordinates")
    goal = to_points("target", target, chain.shape[1], dtype)[0]
    if goal.shape != (chain.shape[1],):
        raise ValueError(f"target: expected shape ({chain.shape[1]},), got shape {goal.shape}")
    tol = to_array("tolerance", tolerance, np.dtype(np.float64))
    require("tolerance", tol, np.isfinite(tol) & (tol >= 0.0), "a finite tolerance >= 0")
    if not isinstance(max_iterations, int) or max_iterations < 0:
        raise ValueError(f"max_iterations: expected an int >= 0, got {max_iterations!r}")

    # plain Python floats: a chain is a handful of short vectors
    points = [tuple(p) for p in chain.tolist()]
    end_goal = tuple(goal.tolist())
    lengths = [math.dist(a, b) for a, b in zip(points, points[1:], strict=False)]
    root, iterations = points[0], 0
    if math.dist(root, end_goal) >= sum(lengths):
        points = _reach_forward([root, *[end_goal] * (len(points) - 1)], lengths)
    else:
        while math.dist(points[-1], end_goal) > float(tol) and iterations < max_iterations:
            backward = _reach_forward([end_goal, *points[-2::-1]], lengths[::-1])
            points = _reach_forward([root, *backward[-2::-1]], lengths)
            iterations += 1
    solved = np.array(points, dtype=dtype)
    return FabrikResult(solved, iterations, math.dist(points[-1], end_goal))


def _reach_forward(
    points: list[tuple[float, ...]], lengths: list[float]
) -> list[tuple[float, ...]]:
    """FABRIK's half-pass: keep ``points[0]``, put each next point at its bone length from the
    previous, toward where it was (along +x from a coincident one: any fixed direction)."""
    out = [points[0]]
    for point, length in zip(points[1:], lengths, strict=True):
        prev = out[-1]
        gap = math.dist(prev, point)
        scaled = (p + (q - p) * (length / gap) for p, q in zip(prev, point, strict=True))
        out.append(tuple(scaled) if gap > 0.0 else (prev[0] + length, *prev[1:]))
    return out
