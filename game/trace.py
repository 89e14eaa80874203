"""The trace file (JSON Lines): a header line, then one line per fixed step.

Format (fixed; tests and external tools parse it)::

    {"scene": str, "dt": float, "terrain": [[x, y], ...] | null,
     "limbs": {name: {"upper": L1, "lower": L2}}}
    {"step": int, "t": float, "characters": [{"id": int, "pelvis": [x, y] | null,
     "facing": 1 | -1, "limbs": {name: {"root": [..], "mid": [..], "end": [..],
     "target": [..], "pole": [..] | null, "planted": bool | null,
     "foot": {"heel": [x, y], "ball": [x, y], "toe": [x, y]}  (legs only)}},
     "pointer": [x, y] | null}]}

A walk or crowd character has ``"spin"`` after ``facing``: the facing as it turns (±1;
through 0 mid-pivot, the cosine of the pivot angle). The limbs are the simulation's true
geometry (every bone its length); the side view draws a pivot's elbows and knees
foreshortened by |spin| (:func:`game.scenes.side_view.foreshortened_joints`).

A walk step line has ``"props": {"ball": [x, y], "cup": [x, y]}`` after ``characters``: the
centres of the props that move (a course without props: no key).

A step line gains ``"terrain": [[x, y], ...]`` when the ground changed that step (an edit
in the walk scene's edit mode, or a reload); the header's ``terrain`` is the ground at the
start.

``pointer`` (walk and crowd characters) is the pointer that character's hands were offered
that step: null when the pointer is idle, absent, switched off (H) or a prop goal has them.
``foot`` (walking legs) is the sole this step: the heel contact point, the ball contact
point and the toe tip, in world coordinates.

World coordinates in metres, y-up, rounded to the micrometre so files stay small and
byte-identical across runs of the same input.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import IO, Any, Protocol, runtime_checkable

from game.outputs import OutputError

DECIMALS = 6


def point(p: Iterable[float] | None) -> list[float] | None:
    """A point as a JSON list of rounded floats (None stays None)."""
    if p is None:
        return None
    return [round(float(v), DECIMALS) for v in p]


def limb_record(
    root: Sequence[float],
    mid: Sequence[float],
    end: Sequence[float],
    target: Sequence[float],
    pole: Sequence[float] | None = None,
    planted: bool | None = None,
    foot: Sequence[Sequence[float]] | None = None,
) -> dict[str, Any]:
    """One limb of one character at one step, in trace format; ``foot`` (heel, ball, toe
    points) only for legs."""
    record: dict[str, Any] = {
        "root": point(root),
        "mid": point(mid),
        "end": point(end),
        "target": point(target),
        "pole": point(pole),
        "planted": None if planted is None else bool(planted),
    }
    if foot is not None:
        heel, ball, toe = foot
        record["foot"] = {"heel": point(heel), "ball": point(ball), "toe": point(toe)}
    return record


def dumps(obj: Any) -> str:
    """Compact, key-order-preserving JSON (one trace line)."""
    return json.dumps(obj, separators=(",", ":"))


@runtime_checkable
class TracedProps(Protocol):
    """A simulation with props that move: the step line's ``props``."""

    def trace_props(self) -> dict[str, list[float] | None] | None:
        """Each moving prop's centre this step, by name (None: no props)."""
        ...


class TraceWriter:
    """Streams a trace to ``path``; a new header line starts each scene.

    A failing write raises :class:`game.outputs.OutputError` naming ``output`` (the flag).
    """

    def __init__(self, path: str | Path, output: str = "--trace") -> None:
        self.path = Path(path)
        self.output = output
        try:
            self._file: IO[str] = self.path.open("w", encoding="utf-8")
        except OSError as exc:
            raise OutputError.from_os(output, self.path, exc) from None

    def header(self, header: dict[str, Any]) -> None:
        """Write a header line (``scene``, ``dt``, ``terrain``, ``limbs``)."""
        self._write(dumps(header) + "\n")

    def step(
        self,
        step: int,
        t: float,
        characters: list[dict[str, Any]],
        terrain: list[list[float]] | None = None,
        props: dict[str, list[float] | None] | None = None,
    ) -> None:
        """Write one fixed step (with the moving ``props``' centres, and ``terrain`` when the
        ground changed that step)."""
        line: dict[str, Any] = {"step": step, "t": round(t, DECIMALS), "characters": characters}
        if props is not None:
            line["props"] = props
        if terrain is not None:
            line["terrain"] = terrain
        self._write(dumps(line) + "\n")

    def _write(self, text: str) -> None:
        try:
            self._file.write(text)
        except OSError as exc:
            raise OutputError.from_os(self.output, self.path, exc) from None

    def close(self) -> None:
        """Flush and close the file (idempotent; the file is closed even when the flush fails)."""
        if self._file.closed:
            return
        try:
            self._file.close()
        except OSError as exc:
            raise OutputError.from_os(self.output, self.path, exc) from None
