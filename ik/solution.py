"""The solve results: dataclasses (not frozen: cheaper to build) of numpy arrays, one entry a
limb; the angles are computed on first access (positions alone pay no ``atan2``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, fields, replace
from typing import TypeVar

import numpy as np
import numpy.typing as npt

from ik.reach import interior_angle

ELBOW, UPPER, LOWER = 0, 1, 2
"""Which angle :class:`Angles` holds."""


def local_angle(frame: np.ndarray, angles: Angles, which: int) -> np.ndarray:
    """One angle from the limb's triangle (in units: angles do not depend on the scale). ``frame``
    rows: base, ``along``, ``height`` (:func:`ik.reach.triangle`; 2-D: ``-`` for an elbow
    clockwise), in 2-D then the elbow's offset. ``ELBOW``: ``interior_angle``; ``UPPER``:
    ``atan2`` of root → elbow; ``LOWER``: the upper bone turned by ``π - θ`` off the elbow's side."""
    if which == ELBOW:
        return np.asarray(interior_angle(*frame[:3]))
    if which == UPPER:
        return np.asarray(np.arctan2(frame[4], frame[3]))
    lower = np.asarray(angles[UPPER] + np.copysign(np.pi - angles[ELBOW], -frame[2]))
    # into (-π, π]: ± 2π where outside, exact 0 elsewhere (a masked update costs ~6x as much)
    lower -= (2.0 * np.pi) * (lower > np.pi)  # (in place: float32 stays float32, 0-d too)
    lower += (2.0 * np.pi) * (lower <= -np.pi)
    return lower


class Angles(dict[int, np.ndarray]):
    """A solve's angles by ``ELBOW``, ``UPPER``, ``LOWER``: those not given (a dict of them)
    are computed by ``compute`` on first use, then kept."""

    compute: Callable[[Angles, int], np.ndarray]  # set by the vector solve

    def __missing__(self, which: int) -> np.ndarray:
        value = self[which] = self.compute(self, which)
        return value


_Solved = TypeVar("_Solved", bound="Solution")


@dataclass(slots=True)
class Solution:
    """Fields shared by 2-D and 3-D solves; ``(...)`` is the broadcast batch shape.

    Attributes
    ----------
    elbow : ndarray, shape (..., D)
        Solved elbow (mid joint) positions.
    hand : ndarray, shape (..., D)
        Solved hand (end joint) positions: ``root + reach * unit(target - root)``.
    distance : ndarray, shape (...)
        Raw ``|target - root|``, before softening or clamping.
    reach : ndarray, shape (...)
        Root-to-hand distance actually used (softened, then clamped into the stretched annulus).
    shortfall : ndarray, shape (...)
        ``|target - hand|`` (computed as ``|distance - reach|``: the hand is on the root-target ray).
    reached : ndarray of bool, shape (...)
        ``shortfall <= sqrt(eps) * (L1 + L2) * stretch``, with ``eps`` the working dtype's
        machine epsilon: about ``1.5e-8 L`` in float64 and ``3.5e-4 L`` in float32.
    stretch : ndarray, shape (...)
        Factor both bones were scaled by, in ``[1, max_stretch]`` (1 when stretch is off).
    status : ndarray of int8, shape (...)
        A :class:`ik.Status` code per limb; precedence
        ``DEGENERATE > STRETCHED > SOFTENED > TOO_FAR / TOO_CLOSE > REACHED``.
    elbow_angle : ndarray, shape (...)
        Interior angle at the elbow, radians in ``[0, pi]`` (``pi`` = straight): ``theta`` of
        docs/MATH.md §2, ``cos theta = (L1² + L2² - d²) / (2 L1 L2)``. Computed on first access.
    """

    elbow: npt.NDArray[np.floating]
    hand: npt.NDArray[np.floating]
    distance: npt.NDArray[np.floating]
    reach: npt.NDArray[np.floating]
    shortfall: npt.NDArray[np.floating]
    reached: npt.NDArray[np.bool_]
    stretch: npt.NDArray[np.floating]
    status: npt.NDArray[np.int8]
    _angles: dict[int, np.ndarray] = field(repr=False, compare=False)  # or Angles

    @property
    def elbow_angle(self) -> npt.NDArray[np.floating]:
        return self._angles[ELBOW]

    def rows(self: _Solved, index: npt.NDArray[np.intp]) -> _Solved:
        """This solve at ``index`` along the batch's first axis (a subset or a reordering):
        every result is the result ``[index]``, the angles still computed on first use."""
        angles, picked = self._angles, Angles()
        picked.update((which, angle[index]) for which, angle in angles.items())
        picked.compute = lambda _, which: angles[which][index]
        arrays = {f.name: getattr(self, f.name)[index] for f in fields(self) if f.name != "_angles"}
        return replace(self, **arrays, _angles=picked)


@dataclass(slots=True)
class Solution2D(Solution):
    """A 2-D solve: the :class:`Solution` fields with ``D = 2``, plus the bones' world angles
    (computed on first access).

    Attributes
    ----------
    upper_angle : ndarray, shape (...)
        World angle of the upper bone (root to elbow), radians in ``(-pi, pi]``,
        counter-clockwise from +x: ``phi +- alpha`` (docs/MATH.md §3).
    lower_angle : ndarray, shape (...)
        World angle of the lower bone (elbow to hand), radians in ``(-pi, pi]``.
    """

    @property
    def upper_angle(self) -> npt.NDArray[np.floating]:
        return self._angles[UPPER]

    @property
    def lower_angle(self) -> npt.NDArray[np.floating]:
        return self._angles[LOWER]


@dataclass(slots=True)
class Solution3D(Solution):
    """A 3-D solve: the :class:`Solution` fields with ``D = 3``."""
