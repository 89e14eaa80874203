"""Counts of IK solves for the stats file: how many, how many non-finite, how many reached."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray


@dataclass(slots=True)
class IkCounters:
    """Running totals over every limb solved by a simulation's fixed steps."""

    solves: int = 0
    nan: int = 0
    reached: int = 0

    def record(self, sol: Any) -> None:
        """Add one (batched) solution: any object with ``elbow``, ``hand``, ``reached``."""
        reached = np.asarray(sol.reached)
        self.solves += int(reached.size)
        self.nan += non_finite_limbs(sol.elbow, sol.hand)
        self.reached += int(np.count_nonzero(reached))

    def plus(self, other: IkCounters) -> IkCounters:
        """The totals of both (a crowd stepped in parts)."""
        return IkCounters(
            self.solves + other.solves, self.nan + other.nan, self.reached + other.reached
        )

    def to_json(self) -> dict[str, Any]:
        """The ``ik`` section of the stats file."""
        fraction = self.reached / self.solves if self.solves else 0.0
        return {"solves": self.solves, "nan": self.nan, "reached_fraction": round(fraction, 6)}


def non_finite_limbs(elbow: NDArray[np.floating], hand: NDArray[np.floating]) -> int:
    """How many limbs have a non-finite elbow or hand coordinate (``elbow``, ``hand``:
    shape (..., D), one row a limb). Nearly every solve is finite throughout: a count of
    the finite coordinates settles that with two calls; otherwise they are counted limb by
    limb."""
    finite = np.count_nonzero(np.isfinite(elbow)) + np.count_nonzero(np.isfinite(hand))
    if finite == elbow.size + hand.size:
        return 0
    limbs_finite = np.isfinite(elbow).all(axis=-1) & np.isfinite(hand).all(axis=-1)
    return int(np.count_nonzero(~limbs_finite))
