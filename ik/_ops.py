"""The two arithmetic backends the solver kernels are written against.

Every kernel in this package (reach, triangle, 2-D and 3-D solves) is written once, with
``+ - * /`` and the handful of functions below, so that the same lines evaluate either one limb
in plain Python floats (``SCALAR``, no per-call numpy overhead) or a chunk of limbs as numpy
arrays (``VECTOR``). Tests check that the two agree.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeAlias

import numpy as np

Real: TypeAlias = Any
"""A Python ``float`` (one limb, ``SCALAR``) or a float ndarray of shape ``(n,)`` (``VECTOR``)."""

Flag: TypeAlias = Any
"""A Python ``bool`` (``SCALAR``) or a bool ndarray of shape ``(n,)`` (``VECTOR``)."""


def _select(condition: Flag, if_true: Real, if_false: Real) -> Real:
    """Scalar ``where``: pick one value by a Python bool."""
    return if_true if condition else if_false


def _both(a: Flag, b: Flag) -> Flag:
    """Scalar logical and."""
    return a and b


def _either(a: Flag, b: Flag) -> Flag:
    """Scalar logical or."""
    return a or b


def _expm1(x: Real) -> Real:
    """numpy's ``expm1`` as a Python float: libm's differs from it in the last bit for about
    1 % of arguments, and near full extension that bit moves the elbow far more than one ulp,
    so one limb would not match the same limb in a batch."""
    return float(np.expm1(x))


def _where_like_numpy(condition: Flag, if_true: Real, if_false: Real) -> Real:
    """Scalar ``where`` with ``np.where``'s result dtype, for numpy scalars.

    Two Python floats give float64 (as ``np.where`` does: Python scalars are weak only beside
    an array or numpy scalar), so a float32 limb promotes exactly where the vector kernel does.
    """
    value = if_true if condition else if_false
    kind = type(if_true)
    if kind is type(if_false):
        if kind is float:  # two Python floats
            return np.float64(value)
        return value  # one numpy type, or status codes (ints, cast to int8 at the end)
    return np.result_type(if_true, if_false).type(value)


def _sqrt_like_numpy(x: Real) -> Real:
    """``np.sqrt`` of a numpy scalar, without a ufunc call: the double square root is correctly
    rounded, and rounding it to float32 gives float32's correctly rounded root (53 >= 2·24 + 2
    bits, so the double rounding is innocuous)."""
    return type(x)(math.sqrt(x))


def _any_vector(flags: Flag) -> bool:
    """Any flag set; the method is several times cheaper per call than ``np.any``."""
    return bool(flags.any())


@dataclass(frozen=True, slots=True)
class Ops:
    """Elementwise functions a kernel may call besides arithmetic operators and comparisons."""

    sqrt: Callable[[Real], Real]
    atan2: Callable[[Real, Real], Real]
    expm1: Callable[[Real], Real]
    cos: Callable[[Real], Real]
    sin: Callable[[Real], Real]
    abs: Callable[[Real], Real]
    minimum: Callable[[Real, Real], Real]
    maximum: Callable[[Real, Real], Real]
    where: Callable[[Flag, Real, Real], Real]
    both: Callable[[Flag, Flag], Flag]
    either: Callable[[Flag, Flag], Flag]
    any: Callable[[Flag], bool]


SCALAR = Ops(
    sqrt=math.sqrt,
    atan2=math.atan2,
    expm1=_expm1,
    cos=math.cos,
    sin=math.sin,
    abs=abs,
    minimum=min,
    maximum=max,
    where=_select,
    both=_both,
    either=_either,
    any=bool,
)

VECTOR = Ops(
    sqrt=np.sqrt,
    atan2=np.arctan2,
    expm1=np.expm1,
    cos=np.cos,
    sin=np.sin,
    abs=np.abs,
    minimum=np.minimum,
    maximum=np.maximum,
    where=np.where,
    both=np.logical_and,
    either=np.logical_or,
    any=_any_vector,
)

NUMPY_SCALAR = Ops(
    sqrt=_sqrt_like_numpy,
    atan2=np.arctan2,
    expm1=np.expm1,
    cos=np.cos,
    sin=np.sin,
    abs=abs,
    minimum=min,
    maximum=max,
    where=_where_like_numpy,
    both=_both,
    either=_either,
    any=bool,
)
"""One limb as numpy scalars (float32): every operation and promotion as ``VECTOR`` does it on a
one-element chunk, so the results are the same bits, without a ufunc call per operator."""
