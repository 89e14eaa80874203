"""The walk scene's edit mode (E): terrain edits arriving as step input, applied between steps.

An edit is the one-shot action ``"terrain_edit"`` with ``values["op"]`` and its arguments,
so edits are recorded and replayed like any other input:

====================  =====================================================
``op``                arguments (``values``)
====================  =====================================================
``move``              ``vertex`` (int), ``x``, ``y``; ``drag`` (int): the
                      drag's number; moves of one drag are one undo step
``insert``            ``x``
``delete``            ``vertex``
``stairs``            ``x``, ``rise``, ``tread``, ``count``
``ramp``              ``x``, ``grade`` (degrees), ``length``
``bump``              ``x``, ``height``, ``width``
``platform``          ``x``, ``height``, ``width``
``undo`` / ``redo``   —
``reload``            — (read the terrain file again, history cleared)
====================  =====================================================

Saving (Ctrl+S) is not an edit: the view writes :attr:`GroundEditing.terrain` to the file.
No pygame.
"""

from __future__ import annotations

import json
import math
import shutil
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from game.assets import AssetError
from game.outputs import AtomicFile, OutputError
from game.scenes.character_assets import EDITED_TERRAIN, TERRAIN_FILE
from game.world.props import LOFT_DEPTH_M, PropHands
from game.world.rig import Rig
from game.world.terrain import Terrain, load_terrain
from game.world.terrain_edit import (
    PRESETS,
    EditLimits,
    EditRefused,
    Footprint,
    TerrainEditor,
    check_footprints,
)

CLIMBING_REFUSAL = "refused: not while he is on the ladder (its ground stays until he is off)"


def prop_footprints(hands: PropHands | None) -> tuple[Footprint, ...]:
    """The ground every prop stands on (door, table, ladder, the loft it leans on)."""
    if hands is None:
        return ()
    props = hands.props
    door, table, ladder = props.door, props.table, props.ladder
    half = ladder.width / 2
    prints = [
        Footprint("door", door.x0, door.x0 + door.width, door.base),
        Footprint("table", table.x0, table.x0 + table.width, table.base),
        Footprint("ladder", ladder.x - half, ladder.x + half, ladder.base),
    ]
    if ladder.loft is not None:
        edge, level = float(ladder.loft[0]), float(ladder.loft[1])
        prints.append(Footprint("loft by the ladder", edge, edge + LOFT_DEPTH_M, level))
    return tuple(prints)


def _number(values: Mapping[str, Any], key: str) -> float:
    value = values.get(key)
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise EditRefused(f"{key}: expected a finite number")
    return float(value)


@dataclass(frozen=True, slots=True)
class Proposal:
    """An edit as it would come out: the vertices it gives (None when it cannot be built
    at all) and, when it is refused, why and where (``refusal.span``)."""

    points: NDArray[np.float64] | None
    refusal: EditRefused | None


class GroundEditing:
    """Edit mode state: on or off, the editor with its history, the last message.

    Parameters
    ----------
    terrain_file : Path
        The terrain file in use (saved to and reloaded from).
    rig, terrain :
        What the limits come from and the ground to start with.
    hands : PropHands or None
        The props (their footprints must keep their ground) and the cup, which an edit
        carries with the ground it rests on, or is refused when it would not stand there.
    """

    def __init__(
        self, terrain_file: Path, rig: Rig, terrain: Terrain, hands: PropHands | None
    ) -> None:
        self.terrain_file = terrain_file
        self.active = False
        self.message = ""
        self.hands = hands
        limits = EditLimits.for_rig(rig, prop_footprints(hands))
        self.editor = TerrainEditor(terrain, limits, self._cup_stands)
        self.refused: Proposal | None = None  # the last edit refused, until the next edit
        self._drag: object = None  # the drag the last move belonged to

    @property
    def terrain(self) -> Terrain:
        """The edited ground."""
        return self.editor.terrain

    def apply(self, values: Mapping[str, Any], climbing: bool = False) -> bool:
        """Carry out one edit; True when the ground changed. A refused edit leaves it and
        says why in :attr:`message` (and where, in :attr:`refused`); while ``climbing``
        (the ladder's ground stays) every edit is refused so."""
        before = self.editor.terrain
        self.refused = None
        if climbing:
            self.message = CLIMBING_REFUSAL
            return False
        op = values.get("op")
        try:
            self._run(str(op), values)
        except EditRefused as refused:
            self.message = f"refused: {refused}"
            self.refused = Proposal(refused.points, refused)
        except AssetError as bad:
            self.message = f"cannot reload: {bad}"
        changed = self.editor.terrain is not before
        if changed:
            self._carry_cup(before)
        return changed

    def preview(self, op: str, values: Mapping[str, Any]) -> Proposal:
        """What preset ``op`` with ``values`` (``x`` and its arguments) would build on the
        current ground, and whether it would be refused; nothing changes."""
        try:
            points = self._preset(op, values)
        except EditRefused as refused:
            return Proposal(None, refused)
        try:
            self.editor.check(points)
        except EditRefused as refused:
            return Proposal(points, refused)
        return Proposal(points, None)

    def _preset(self, op: str, values: Mapping[str, Any]) -> NDArray[np.float64]:
        if op not in PRESETS:
            raise EditRefused(f"unknown edit {op!r}")
        args = [_number(values, key) for key in PRESETS[op][1]]
        return self.editor.preset(op, _number(values, "x"), *args)

    def _cup_stands(self, old: Terrain, new: Terrain) -> None:
        """The editor's guard: a cup resting on the ground must stand on the new ground
        (flush and no steeper than it takes, :meth:`Props.stands_at`), never on a face."""
        hands = self.hands
        if hands is None or not len(hands.floor_spans(old)):
            return
        x = float(hands.cup[0])
        if not bool(hands.props.stands_at(np.array([x]), new)[0]):
            spec = hands.props.cup
            raise EditRefused(
                f"the cup stands at x {x:.2f}: it would not stand on this ground (move it first)",
                (x - 1.15 * spec.radius, x + spec.half_width),
            )

    def _carry_cup(self, old: Terrain) -> None:
        """A cup resting on the ground moves with it (up or down, at once)."""
        hands = self.hands
        if hands is not None and len(hands.floor_spans(old)):
            hands.cup[1] = float(self.terrain.height_at(float(hands.cup[0])))

    def _run(self, op: str, values: Mapping[str, Any]) -> None:
        editor = self.editor
        drag = values.get("drag") if op == "move" else None
        continuing, self._drag = drag is not None and drag == self._drag, drag
        if op == "move":
            vertex = int(_number(values, "vertex"))
            x = _number(values, "x")
            if drag is not None:  # the mouse: the vertex slides along its neighbours
                x = editor.between_neighbours(vertex, x)
            editor.move_vertex(vertex, x, _number(values, "y"), continuing)
            self.message = f"vertex {vertex} moved"
        elif op == "insert":
            editor.insert_vertex(_number(values, "x"))
            self.message = "vertex inserted"
        elif op == "delete":
            editor.delete_vertex(int(_number(values, "vertex")))
            self.message = "vertex deleted"
        elif op in PRESETS:
            editor.apply(self._preset(op, values))
            count = int(_number(values, "count")) if op == "stairs" else 0
            self.message = f"stairs: {count} steps" if op == "stairs" else f"{op} built"
        elif op == "undo":
            self.message = "undone" if editor.undo() else "nothing to undo"
        elif op == "redo":
            self.message = "redone" if editor.redo() else "nothing to redo"
        elif op == "reload":
            loaded = load_terrain(self.terrain_file)
            try:  # the props and the cup must stand on it, as on an edit
                check_footprints(loaded, editor.limits.footprints)
                self._cup_stands(editor.terrain, loaded)
            except EditRefused as refused:
                name = self.terrain_file.name
                raise EditRefused(f"{name} not loaded: {refused}", refused.span) from None
            editor.reset(loaded)
            self.message = f"reloaded {self.terrain_file.name}"
        else:
            raise EditRefused(f"unknown edit {op!r}")

    def save(self) -> str:
        """Write the edited ground to the terrain file (the old one kept as ``.bak``);
        returns the message shown (the path written, or why it failed)."""
        try:
            path = save_terrain(self.terrain, self.terrain_file)
        except OutputError as exc:
            self.message = f"not saved: {exc.path} ({exc.reason})"
        else:
            self.message = f"saved {path} (previous: {path.name}.bak)"
        return self.message


def save_terrain(terrain: Terrain, path: str | Path) -> Path:
    """Write ``terrain``'s points into the terrain file at ``path`` atomically.

    The file's other keys (name, landmarks) are kept and the previous file is copied to
    ``<name>.bak`` first. Written like every output (:class:`game.outputs.AtomicFile`):
    through a symlink, never over a device, and a failure before the final rename leaves
    the old file as it was. Returns the path written; raises :class:`OutputError`.
    """
    out = AtomicFile("terrain save", path)
    try:
        try:
            data = json.loads(out.target.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            data = {}
        data = data if isinstance(data, dict) else {}
        data["points"] = terrain.to_json()
        if out.target.exists():
            shutil.copy2(out.target, out.target.with_name(out.target.name + ".bak"))
        out.write(json.dumps(data, indent=2) + "\n")
        out.commit()
    except OSError as exc:  # reading the old file or copying it to .bak
        raise OutputError.from_os("terrain save", path, exc) from None
    finally:
        out.abort()  # nothing left behind if anything above failed (no-op once committed)
    return out.target


def unsaved_edits(session: Mapping[str, Any], assets_dir: Path) -> bool:
    """Whether the ground edited in this run (``session``'s
    :data:`~game.scenes.character_assets.EDITED_TERRAIN`) differs from what the terrain
    file in ``assets_dir`` holds: quitting now would lose it. A file that cannot be read
    holds nothing of it."""
    edited = session.get(EDITED_TERRAIN)
    if not isinstance(edited, Terrain):
        return False
    try:
        saved = load_terrain(assets_dir / TERRAIN_FILE)
    except AssetError:
        return True
    return saved.to_json() != edited.to_json()
