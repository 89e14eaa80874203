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
from pathlib import Path
from typing import Any

from game.assets import AssetError
from game.outputs import AtomicFile, OutputError
from game.world.props import LOFT_DEPTH_M, Props
from game.world.rig import Rig
from game.world.terrain import Terrain, load_terrain
from game.world.terrain_edit import EditLimits, EditRefused, TerrainEditor

Footprint = tuple[float, float, float]


def prop_footprints(props: Props | None) -> tuple[Footprint, ...]:
    """The ground every prop stands on (door, table, ladder, the loft it leans on)."""
    if props is None:
        return ()
    door, table, ladder = props.door, props.table, props.ladder
    half = ladder.width / 2
    prints = [
        (door.x0, door.x0 + door.width, door.base),
        (table.x0, table.x0 + table.width, table.base),
        (ladder.x - half, ladder.x + half, ladder.base),
    ]
    if ladder.loft is not None:
        edge, level = float(ladder.loft[0]), float(ladder.loft[1])
        prints.append((edge, edge + LOFT_DEPTH_M, level))
    return tuple(prints)


def _number(values: Mapping[str, Any], key: str) -> float:
    value = values.get(key)
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise EditRefused(f"{key}: expected a finite number")
    return float(value)


class GroundEditing:
    """Edit mode state: on or off, the editor with its history, the last message.

    Parameters
    ----------
    terrain_file : Path
        The terrain file in use (saved to and reloaded from).
    rig, terrain, props :
        What the limits come from and the ground to start with.
    """

    def __init__(self, terrain_file: Path, rig: Rig, terrain: Terrain, props: Props | None) -> None:
        self.terrain_file = terrain_file
        self.active = False
        self.message = ""
        self.editor = TerrainEditor(terrain, EditLimits.for_rig(rig, prop_footprints(props)))
        self._drag: object = None  # the drag the last move belonged to

    @property
    def terrain(self) -> Terrain:
        """The edited ground."""
        return self.editor.terrain

    def apply(self, values: Mapping[str, Any]) -> bool:
        """Carry out one edit; True when the ground changed. A refused edit leaves it and
        says why in :attr:`message`."""
        before = self.editor.terrain
        op = values.get("op")
        try:
            self._run(str(op), values)
        except EditRefused as refused:
            self.message = f"refused: {refused}"
        except AssetError as bad:
            self.message = f"cannot reload: {bad}"
        return self.editor.terrain is not before

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
        elif op == "stairs":
            count = int(_number(values, "count"))
            editor.stairs(
                _number(values, "x"), _number(values, "rise"), _number(values, "tread"), count
            )
            self.message = f"stairs: {count} steps"
        elif op in ("ramp", "bump", "platform"):
            x = _number(values, "x")
            if op == "ramp":
                editor.ramp(x, _number(values, "grade"), _number(values, "length"))
            elif op == "bump":
                editor.bump(x, _number(values, "height"), _number(values, "width"))
            else:
                editor.platform(x, _number(values, "height"), _number(values, "width"))
            self.message = f"{op} built"
        elif op == "undo":
            self.message = "undone" if editor.undo() else "nothing to undo"
        elif op == "redo":
            self.message = "redone" if editor.redo() else "nothing to redo"
        elif op == "reload":
            editor.reset(load_terrain(self.terrain_file))
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
