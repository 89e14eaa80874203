"""Per-limb outcome codes and the classification shared by the 2-D and 3-D solves."""

from __future__ import annotations

import enum
import math

from ik._ops import Flag, Ops, Real
from ik.reach import Reach


class Status(enum.IntEnum):
    """What happened to one limb, one code per limb (``sol.status``, an int8 array).

    When several apply, the first in this precedence wins:
    ``DEGENERATE > STRETCHED > SOFTENED > TOO_FAR / TOO_CLOSE > REACHED``.

    Attributes
    ----------
    REACHED
        The target lies inside the reachable annulus; the hand is on it.
    TOO_FAR
        The target is beyond ``L1 + L2`` (times the stretch): the straight arm aims at it.
    TOO_CLOSE
        The target is inside ``|L1 - L2|`` (times the stretch): the folded arm aims at it.
    SOFTENED
        The target is in the soft zone (``d > L - softness``): the reach was eased in.
    STRETCHED
        The bones were scaled by a stretch factor above 1 to reach the target.
    DEGENERATE
        A direction was undefined and a documented fallback was used (target at the root;
        in 3-D also a pole on the root-target axis).
    """

    REACHED = 0
    TOO_FAR = 1
    TOO_CLOSE = 2
    SOFTENED = 3
    STRETCHED = 4
    DEGENERATE = 5


_REACHED, _TOO_FAR, _TOO_CLOSE, _SOFTENED, _STRETCHED, _DEGENERATE = (int(code) for code in Status)


def classify(
    ops: Ops,
    *,
    degenerate: Flag,
    stretched: Flag,
    softened: Flag,
    too_far: Flag,
    too_close: Flag,
) -> Real:
    """Fold the per-limb flags into one status code, in the documented precedence.

    Parameters
    ----------
    ops : Ops
        The backend (``SCALAR`` for one limb, ``VECTOR`` for a chunk).
    degenerate, stretched, softened, too_far, too_close : bool or ndarray of bool, shape (n,)
        The conditions, evaluated per limb.

    Returns
    -------
    int or ndarray of int, shape (n,)
        A :class:`Status` value per limb.
    """
    # Innermost first, so each outer ``where`` overrides the ones it wraps (precedence). Plain
    # ints, not enum members: member lookup costs more than the whole scalar solve step.
    code = ops.where(too_far, _TOO_FAR, _REACHED)
    code = ops.where(too_close, _TOO_CLOSE, code)
    code = ops.where(softened, _SOFTENED, code)
    code = ops.where(stretched, _STRETCHED, code)
    return ops.where(degenerate, _DEGENERATE, code)


def outcome(
    ops: Ops, eps: float, distance: Real, limb: Reach, degenerate: Flag
) -> tuple[Real, Flag, Real]:
    """Shortfall, ``reached`` and status of solved limbs.

    Parameters
    ----------
    ops : Ops
        The backend.
    eps : float
        Machine epsilon of the working dtype.
    distance : float or ndarray, shape (n,)
        Raw ``|target - root|``.
    limb : Reach
        The reach stage's results.
    degenerate : bool or ndarray of bool, shape (n,)
        Where a fallback direction or plane was used.

    Returns
    -------
    shortfall : float or ndarray, shape (n,)
        ``|target - hand| = |d - reach|``: the hand lies on the root-target ray.
    reached : bool or ndarray of bool, shape (n,)
        ``shortfall <= sqrt(eps) * (L1 + L2) * stretch``.
    status : int or ndarray of int, shape (n,)
        :class:`Status` codes.
    """
    shortfall = ops.abs(distance - limb.used)
    # Relative to the (stretched) limb length: half the working digits, so rounding in the
    # softened or stretched reach never flips a reached limb to unreached.
    reached = shortfall <= math.sqrt(eps) * (limb.upper + limb.lower)
    status = classify(
        ops,
        degenerate=degenerate,
        stretched=limb.stretch > 1.0,
        softened=limb.softened,
        too_far=limb.too_far,
        too_close=limb.too_close,
    )
    return shortfall, reached, status
