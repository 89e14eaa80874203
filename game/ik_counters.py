"""Counts of IK solves for the stats file: how many, how many non-finite, how many reached."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np


@dataclass(slots=True)
class IkCounters:
    """Running totals over every limb solved by a simulation's fixed steps."""

    solves: int = 0
    nan: int = 0
    reached: int = 0

    def record(self, sol: Any) -> None:
        """Add one (batched) solution: any object with ``elbow``, ``hand``, ``reached``."""
        reached = np.asarray(sol.reached)
        finite = np.isfinite(sol.elbow).all(axis=-1) & np.isfinite(sol.hand).all(axis=-1)
        self.solves += int(reached.size)
        self.nan += int(np.count_nonzero(~finite))
        self.reached += int(np.count_nonzero(reached))

    def to_json(self) -> dict[str, Any]:
        """The ``ik`` section of the stats file."""
        fraction = self.reached / self.solves if self.solves else 0.0
        return {"solves": self.solves, "nan": self.nan, "reached_fraction": round(fraction, 6)}
