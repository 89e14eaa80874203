"""The walker's modes as stored state, each axis decided by one transition function.

``motion`` (:class:`Motion`), kept in :class:`~game.world.walker_state.WalkState`, is the
turn machine: standing, going, braking to turn round, pivoting. :func:`next_motion` decides
it from the intent (the walk and facing wanted) and the pivot's events; ``turn`` (the
pivot's progress) and ``reversing_s`` (how long the brake has run) stay continuous
quantities beside it. The stages read it (through ``WalkState``'s read-only flags
``reversing`` and ``turning``) and write it only through :func:`next_motion`.
"""

from __future__ import annotations

import enum

import numpy as np
from numpy.typing import NDArray

from game.world.types import BoolArray, FloatArray

Modes = NDArray[np.int8]
"""Per-character enum values, shape (N,)."""


class Motion(enum.IntEnum):
    """The turn machine's state, stored as ``WalkState.motion``.

    Decided by :func:`next_motion` (the table there).
    """

    STAND = 0  # nothing wanted (it may still be coasting to a stop)
    GO = 1  # a walk wanted the way it faces
    BRAKE = 2  # a reversal wanted: slowing, then squaring the feet up for the pivot
    PIVOT = 3  # turning round on the balls (``turn`` in (0, 1))


def next_motion(
    motion: Modes,
    wanted: FloatArray,
    reversal: BoolArray,
    pivot_ready: BoolArray | None = None,
    pivot_ended: BoolArray | None = None,
) -> Modes:
    """Each character's next :class:`Motion` (N,) from ``motion`` (N,).

    Parameters
    ----------
    motion : ndarray of int8, shape (N,)
        The stored motion.
    wanted : ndarray, shape (N,)
        The walk's direction this step (+1, −1; 0: none), ``WalkState.wanted``.
    reversal : ndarray of bool, shape (N,)
        A reversal wanted: the walk, or standing the facing asked for by ``turn_to``,
        against the facing (``Wish.reversing``; outside the step's first stage, the
        stored ``WalkState.reversing``, so the rows no event moves keep their motion).
    pivot_ready : ndarray of bool, shape (N,), optional
        A pivot starts: the reversal wanted for ``pivot_wish``, stopped, the feet square on
        their pivot spots (:func:`game.world.turning.advance_turn`).
    pivot_ended : ndarray of bool, shape (N,), optional
        A pivot ends: turned round (``turn`` reached 1), cut short by ground moved under a
        foot (:func:`game.world.turning.interrupt_pivot`), or the feet set down anew
        (``Crowd.apply_assets``).

    ====================== ========= ===========================================================
    from                   to        when
    ====================== ========= ===========================================================
    STAND, GO, BRAKE       BRAKE     ``reversal``
    STAND, GO, BRAKE       GO        no ``reversal``, ``wanted`` ≠ 0
    STAND, GO, BRAKE       STAND     no ``reversal``, ``wanted`` = 0
    BRAKE                  PIVOT     ``pivot_ready``
    PIVOT                  PIVOT     not ``pivot_ended`` (no wish is read while pivoting)
    PIVOT                  BRAKE,    ``pivot_ended``: by ``reversal`` and ``wanted`` as above
                           GO, STAND (``reversal`` there is the brake still running in the
                                     pivot's first step; a new reversal is read next step)
    ====================== ========= ===========================================================
    """
    wished = np.where(
        reversal, Motion.BRAKE, np.where(wanted != 0.0, Motion.GO, Motion.STAND)
    ).astype(np.int8)
    pivoting = motion == Motion.PIVOT
    out = np.where(pivoting, motion, wished)
    if pivot_ready is not None:
        out = np.where((motion == Motion.BRAKE) & pivot_ready, Motion.PIVOT, out)
    if pivot_ended is not None:
        out = np.where(pivoting & pivot_ended, wished, out)
    return out.astype(np.int8)
