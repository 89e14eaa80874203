"""The solve results: frozen dataclasses of numpy arrays, one entry per limb."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields
from typing import TypeVar

import numpy as np
import numpy.typing as npt

from ik.status import Status

_POSITIONS = ("elbow", "hand")
_FLOAT64 = np.dtype(np.float64)
_FLAGS = {"reached": np.dtype(np.bool_), "status": np.dtype(np.int8)}


@dataclass(frozen=True, slots=True)
class Solution:
    """Fields shared by 2-D and 3-D solves; ``(...)`` is the broadcast batch shape.

    Attributes
    ----------
    elbow : ndarray, shape (..., D)
        Solved elbow (mid joint) positions.
    hand : ndarray, shape (..., D)
        Solved hand (end joint) positions: ``root + reach * unit(target - root)``.
    elbow_angle : ndarray, shape (...)
        Interior angle at the elbow, radians in ``[0, pi]`` (``pi`` = straight).
    distance : ndarray, shape (...)
        Raw ``|target - root|``, before softening or clamping.
    reach : ndarray, shape (...)
        Root-to-hand distance actually used (softened, then clamped into the stretched annulus).
    shortfall : ndarray, shape (...)
        ``|target - hand|`` (computed as ``|distance - reach|``, equal up to rounding because
        the hand lies on the root-target ray).
    reached : ndarray of bool, shape (...)
        ``shortfall <= sqrt(eps) * (L1 + L2) * stretch``, with ``eps`` the working dtype's
        machine epsilon: about ``1.5e-8 L`` in float64 and ``3.5e-4 L`` in float32.
    stretch : ndarray, shape (...)
        Factor both bones were scaled by, in ``[1, max_stretch]`` (1 when stretch is off).
    status : ndarray of int8, shape (...)
        A :class:`ik.Status` code per limb; precedence
        ``DEGENERATE > STRETCHED > SOFTENED > TOO_FAR / TOO_CLOSE > REACHED``.
    """

    elbow: npt.NDArray[np.floating]
    hand: npt.NDArray[np.floating]
    elbow_angle: npt.NDArray[np.floating]
    distance: npt.NDArray[np.floating]
    reach: npt.NDArray[np.floating]
    shortfall: npt.NDArray[np.floating]
    reached: npt.NDArray[np.bool_]
    stretch: npt.NDArray[np.floating]
    status: npt.NDArray[np.int8]


@dataclass(frozen=True, slots=True)
class Solution2D(Solution):
    """A 2-D solve: the :class:`Solution` fields with ``D = 2``, plus the bones' world angles.

    Attributes
    ----------
    upper_angle : ndarray, shape (...)
        World angle of the upper bone (root to elbow), radians in ``(-pi, pi]``, counter-clockwise
        from +x: the seed's ``phi +- alpha``.
    lower_angle : ndarray, shape (...)
        World angle of the lower bone (elbow to hand), radians in ``(-pi, pi]``.
    """

    upper_angle: npt.NDArray[np.floating]
    lower_angle: npt.NDArray[np.floating]


@dataclass(frozen=True, slots=True)
class Solution3D(Solution):
    """A 3-D solve: the :class:`Solution` fields with ``D = 3``."""


S = TypeVar("S", bound=Solution)


def output_layout(cls: type[Solution], dim: int, dtype: np.dtype) -> list[tuple[np.dtype, int]]:
    """The ``(dtype, width)`` of each field of ``cls``, in field order (for ``run_chunks``).

    Parameters
    ----------
    cls : type
        ``Solution2D`` or ``Solution3D``.
    dim : int
        Coordinates per position.
    dtype : numpy.dtype
        The float dtype.

    Returns
    -------
    list of (numpy.dtype, int)
    """
    return [(flag or dtype, width) for _, width, flag in _row_plan(cls, dim)]


def from_batch(cls: type[S], outputs: Sequence[np.ndarray], shape: tuple[int, ...]) -> S:
    """Build a solution from flat ``run_chunks`` outputs reshaped to the batch shape.

    Parameters
    ----------
    cls : type
        ``Solution2D`` or ``Solution3D``.
    outputs : sequence of ndarray, shapes (n,) or (n, D)
        One per field, in field order.
    shape : tuple of int
        The batch shape.

    Returns
    -------
    Solution2D or Solution3D
    """
    return cls(*(out.reshape(shape + out.shape[1:]) for out in outputs))


def from_rows(
    cls: type[S],
    rows: Sequence[Sequence[object]],
    dim: int,
    dtype: np.dtype,
    shape: tuple[int, ...],
) -> S:
    """Build a solution from the scalar kernel's results for each limb of a small batch.

    Parameters
    ----------
    cls : type
        ``Solution2D`` or ``Solution3D``.
    rows : sequence of sequence, one per limb
        Each limb's flat kernel results, in field order (a position as ``D`` values).
    dim : int
        Coordinates per position.
    dtype : numpy.dtype
        The float dtype of the float fields (float64 results are rounded to it, as the vector
        path's stores into its outputs do).
    shape : tuple of int
        The batch shape (``()`` for one limb); ``len(rows) == prod(shape)``.

    Returns
    -------
    Solution2D or Solution3D
        C-contiguous arrays, as the vector path gives.
    """
    if not shape:  # one limb: the straight-line builder
        build = _ONE_LIMB_BUILDERS.get((cls, dim, dtype))
        if build is None:
            build = _ONE_LIMB_BUILDERS[cls, dim, dtype] = one_limb_builder(cls, dim, dtype)
        return build(rows[0])  # type: ignore[return-value]
    table = np.array(rows, dtype)  # (n, values per limb); flags go through dtype exactly
    columns = np.ascontiguousarray(table.T).reshape(-1, *shape)  # each scalar field contiguous
    arrays = []
    for at, width, flag in _row_plan(cls, dim):
        if width:
            arrays.append(table[:, at : at + width].copy().reshape(*shape, width))
        elif flag is not None:
            arrays.append(columns[at, ...].astype(flag))
        else:
            arrays.append(columns[at, ...])
    return cls(*arrays)


_Plan = tuple[tuple[int, int, np.dtype | None], ...]


def _row_plan(cls: type[Solution], dim: int) -> _Plan:
    """Per field of ``cls``: the index of its first value among the kernel's flat results, its
    width (``dim`` for positions, 0 for scalars) and its flag dtype (None for floats)."""
    plan = _PLANS.get((cls, dim))
    if plan is None:
        rows = []
        at = 0
        for f in fields(cls):
            width = dim if f.name in _POSITIONS else 0
            rows.append((at, width, _FLAGS.get(f.name)))
            at += width or 1
        plan = _PLANS[cls, dim] = tuple(rows)
    return plan


_PLANS: dict[tuple[type[Solution], int], _Plan] = {}
"""Row plans by (class, dim), made on first use (``fields()`` is slow per call)."""

_ONE_LIMB_BUILDERS: dict[tuple[type[Solution], int, np.dtype], Callable[..., Solution]] = {}
"""``from_rows``'s one-limb builders by (class, dim, dtype), generated on first use."""


def one_limb_builder(
    cls: type[S], dim: int, dtype: np.dtype = _FLOAT64
) -> Callable[[Sequence[object]], S]:
    """Generate a straight-line function that builds a one-limb ``cls`` (0-d and ``(D,)`` arrays
    of ``dtype``) from the scalar kernel's flat results, in field order (a position as ``D``
    values; float64 values are rounded to ``dtype`` as the vector path's stores round them).

    One float buffer holds every result, handed out as views (one numpy call instead of one
    per field; the flags' slots are left unused, which beats picking the floats out); the flags
    are copies of preallocated 0-d arrays, one per value; the fields are stored with the slots'
    own setters, which do what the frozen dataclass's ``__init__`` does (``object.__setattr__``
    per field) at a fraction of the cost. A loop over the plan costs about as much again as the
    stores, hence the generated code.
    """
    plan = _row_plan(cls, dim)
    at, width, _ = plan[-1]
    scope: dict[str, object] = {
        "_new": object.__new__,
        "_fromiter": np.fromiter,
        "_dtype": dtype,
        "_cls": cls,
    }
    body = [
        f"    b = _fromiter(v, _dtype, {at + (width or 1)})",
        "    o = _new(_cls)",
    ]
    for k, (name, (at, width, flag)) in enumerate(zip(fields(cls), plan, strict=True)):
        scope[f"_set{k}"] = getattr(cls, name.name).__set__
        if flag is not None:
            # a copy of the 0-d array holding this value: cheaper than np.array(value, dtype)
            scope[f"_flag{k}"] = {value: np.array(value, flag) for value in _FLAG_VALUES[flag]}
            part = f"_flag{k}[v[{at}]].copy()"
        else:
            part = f"b[{at}:{at + width}]" if width else f"b[{at}, ...]"
        body.append(f"    _set{k}(o, {part})")
    # every helper a closure variable: a cell load instead of a global dict lookup each
    helpers = list(scope.items())
    parameters = ", ".join(name for name, _ in helpers)
    source = "\n".join(
        [f"def make({parameters}):", "  def build(v):", *body, "    return o", "  return build"]
    )
    exec(source, scope)  # noqa: S102 - generated from the dataclass's own fields
    make: Callable[..., Callable[[Sequence[object]], S]] = scope["make"]  # type: ignore[assignment]
    return make(*(value for _, value in helpers))


_FLAG_VALUES = {np.dtype(np.bool_): (False, True), np.dtype(np.int8): tuple(map(int, Status))}
"""Every value a flag field takes (the :class:`ik.Status` codes for ``status``)."""
