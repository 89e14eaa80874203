"""The walker's modes as stored state: two axes, each decided by one transition function.

A character's mode is two numbers kept in its :class:`~game.world.walker_state.WalkState`,
one per independent axis:

- ``motion`` (:class:`Motion`), the turn machine: standing, going, braking to turn round,
  pivoting, or held in a prop's pose (the ladder's climb). :func:`next_motion` decides it
  from the intent (the walk and facing wanted, a pose asked for) and the pivot's events; ``turn`` (the pivot's progress) and ``reversing_s`` (how long the
  brake has run) stay continuous quantities beside it.
- ``pacing`` (:class:`Pacing`), how the feet are timed while the run input is held: walk,
  run, jog up a steep slope, run on a flight. :func:`next_pacing` decides it from the run
  input and what the ground ahead allows.

The stages read these (through ``WalkState``'s read-only flags ``reversing``, ``turning``,
``sprinting``, ``jogging``, ``stair_run``) and write them only through the transition
functions. :class:`Mode` is the one name a character's axes show as, for the overlay, the
tools and tests (:func:`mode_of`).

The arrays hold the members' values, and the code compares them with the module's plain
ints (``MOTION_PIVOT``, ``PACING_WALK``, ...): an enum member's ``.value`` is a Python-level
property, slower than the array comparison it feeds, and the flags are read some thirty
times a step.
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
    POSED = 4  # a prop holds the pose (the ladder's climb): the gait's stages skip it


class Pacing(enum.IntEnum):
    """How the feet are timed, stored as ``WalkState.pacing``.

    Decided by :func:`next_pacing` (the table there).
    """

    WALK = 0  # the run input not held (or nowhere to go)
    RUN = 1  # the run input held while a walk is wanted
    JOG = 2  # ... on a slope too steep to run up (``jog_below``): quick steps with a flight
    STAIR_RUN = 3  # ... on a flight: a tread a step at the quick stair pace


# each member's value as a plain int, what the stored arrays are compared with and filled from
MOTION_STAND, MOTION_GO, MOTION_BRAKE, MOTION_PIVOT, MOTION_POSED = (m.value for m in Motion)
PACING_WALK, PACING_RUN, PACING_JOG, PACING_STAIR_RUN = (p.value for p in Pacing)


class Mode(enum.IntEnum):
    """What a character is doing, as one name: a view of its two stored axes
    (:func:`mode_of`), for the overlay, the tools and tests.

    ========== ============================================================================
    mode       shown when … (``motion`` / ``pacing``, later rows win)
    ========== ============================================================================
    STAND      ``motion`` STAND, not coasting faster than ``still_speed``, upright
    CROUCH     STAND with a crouch asked for (``crouch_to``) or still easing out of one
    WALK       ``motion`` GO, or STAND still coasting at ``still_speed`` or more
    RUN        ``pacing`` RUN
    JOG        ``pacing`` JOG
    STAIR_RUN  ``pacing`` STAIR_RUN
    BRAKE      ``motion`` BRAKE
    PIVOT      ``motion`` PIVOT
    POSED      ``motion`` POSED
    ========== ============================================================================

    What a prop does with a posed character (which rung, which limb moves) is the prop's
    own phase; a kick is a pinned foot inside the gait, not a mode.
    """

    STAND = 0
    CROUCH = 1
    WALK = 2
    RUN = 3
    JOG = 4
    STAIR_RUN = 5
    BRAKE = 6
    PIVOT = 7
    POSED = 8


def next_motion(
    motion: Modes,
    wanted: FloatArray,
    reversal: BoolArray,
    pivot_ready: BoolArray | None = None,
    pivot_ended: BoolArray | None = None,
    posed: BoolArray | None = None,
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
    posed : ndarray of bool, shape (N,), optional
        A prop holds the character's pose this step (``Crowd.pose_as``), asked anew each
        step; the step's transition for the rows a pose was not asked for.

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
    any                    POSED     ``posed``
    POSED                  BRAKE,    not ``posed`` (the next step the gait's stages run): by
                           GO, STAND ``reversal`` and ``wanted`` as from STAND
    ====================== ========= ===========================================================
    """
    wished = np.where(
        reversal, MOTION_BRAKE, np.where(wanted != 0.0, MOTION_GO, MOTION_STAND)
    ).astype(np.int8)
    pivoting = motion == MOTION_PIVOT
    out = np.where(pivoting, motion, wished)
    if pivot_ready is not None:
        out = np.where((motion == MOTION_BRAKE) & pivot_ready, MOTION_PIVOT, out)
    if pivot_ended is not None:
        out = np.where(pivoting & pivot_ended, wished, out)
    if posed is not None:
        out = np.where(posed, MOTION_POSED, out)
    return out.astype(np.int8)


def next_pacing(run_held: BoolArray, jogging: BoolArray, stair_run: BoolArray) -> Modes:
    """Each character's :class:`Pacing` (N,) this step, decided with the speed caps
    (:func:`game.world.speed.unblocked`) from the run input and the ground ahead.

    Parameters
    ----------
    run_held : ndarray of bool, shape (N,)
        The run input held (> 0.5) while a walk is wanted.
    jogging : ndarray of bool, shape (N,)
        Held to a jog (:func:`game.world.speed.jogging`): a steep slope holds the body well
        below a run, off stairs; once jogging, kept while slower than ``jog_timing``.
    stair_run : ndarray of bool, shape (N,)
        On a flight, up or down it (:func:`game.world.speed.stair_cap`).

    ==================== ========== ====================================================
    from                 to         when
    ==================== ========== ====================================================
    any                  WALK       not ``run_held``
    any                  STAIR_RUN  ``run_held`` and ``stair_run``
    any                  JOG        ``run_held`` and ``jogging`` (never with
                                    ``stair_run``: a jog is off stairs; JOG → JOG is the
                                    jog's hold, read by ``speed.jogging``)
    any                  RUN        ``run_held`` otherwise
    ==================== ========== ====================================================
    """
    pacing = np.where(run_held, PACING_RUN, PACING_WALK)
    pacing = np.where(run_held & stair_run, PACING_STAIR_RUN, pacing)
    pacing = np.where(run_held & jogging, PACING_JOG, pacing)
    return pacing.astype(np.int8)


def mode_of(motion: Modes, pacing: Modes, crouched: BoolArray, coasting: BoolArray) -> Modes:
    """Each character's :class:`Mode` (N,) from its stored ``motion`` and ``pacing`` (N,),
    whether it is ``crouched`` (crouch > 0) and ``coasting`` (its speed at least
    ``still_speed``); the table is :class:`Mode`'s."""
    mode = np.where(crouched, Mode.CROUCH.value, Mode.STAND.value)
    mode = np.where((motion == MOTION_GO) | coasting, Mode.WALK.value, mode)
    mode = np.where(pacing == PACING_RUN, Mode.RUN.value, mode)
    mode = np.where(pacing == PACING_JOG, Mode.JOG.value, mode)
    mode = np.where(pacing == PACING_STAIR_RUN, Mode.STAIR_RUN.value, mode)
    mode = np.where(motion == MOTION_BRAKE, Mode.BRAKE.value, mode)
    mode = np.where(motion == MOTION_PIVOT, Mode.PIVOT.value, mode)
    mode = np.where(motion == MOTION_POSED, Mode.POSED.value, mode)
    return mode.astype(np.int8)
