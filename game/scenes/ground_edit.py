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

Saving (Ctrl+S) is not an edit: the view writes :attr:`GroundEditing.terrain` to the file
(:func:`save_terrain`: one vertex per line, the previous file kept as ``.bak``). No pygame.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from game.assets import AssetError, decode_text, read_bytes
from game.outputs import AtomicFile, OutputError
from game.scenes.character_assets import EDITED_TERRAIN, TERRAIN_FILE
from game.world.props.base import Grounded
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


def prop_footprints(props: Sequence[object]) -> tuple[Footprint, ...]:
    """The ground every prop stands on (those that are :class:`Grounded`), left to right:
    an edit in the way of two names the leftmost."""
    grounds = [ground for p in props if isinstance(p, Grounded) for ground in p.grounds()]
    return tuple(sorted(grounds, key=lambda ground: ground.x0))


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
    props : sequence of props, or None
        The live props: those :class:`Grounded` keep their ground (their footprints), and
        are carried with the ground they rest on, or refuse an edit they would not stand
        on (the cup).
    """

    def __init__(
        self, terrain_file: Path, rig: Rig, terrain: Terrain, props: Sequence[object] | None
    ) -> None:
        self.terrain_file = terrain_file
        self.active = False
        self.message = ""
        self.grounded = [p for p in props or () if isinstance(p, Grounded)]
        limits = EditLimits.for_rig(rig, prop_footprints(self.grounded))
        self.editor = TerrainEditor(terrain, limits, self._props_stand)
        self.refused: Proposal | None = None  # the last edit refused, until the next edit
        self.name = terrain_name(terrain_file)  # the file's label, written back by a save
        self._drag: object = None  # the drag the last move taken belonged to
        # (the drag, the index its vertex has now): a move that pins a prop's ground puts
        # vertices before it, and the mouse goes on dragging it by its new index
        self.dragged: tuple[object, int] | None = None

    @property
    def terrain(self) -> Terrain:
        """The edited ground."""
        return self.editor.terrain

    def toggle(self) -> None:
        """Open or close the editor; opened, it starts with no message and no refusal
        shown (those of an earlier visit are stale: the ground may have been edited and
        saved since)."""
        self.active = not self.active
        if self.active:
            self.message, self.refused = "", None

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
            self._carry_props(before)
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

    def _props_stand(self, old: Terrain, new: Terrain) -> None:
        """The editor's guard: every prop may stay on the new ground."""
        for prop in self.grounded:
            prop.check_ground(old, new)

    def _carry_props(self, old: Terrain) -> None:
        """Props resting on the ground move with it."""
        for prop in self.grounded:
            prop.follow_ground(old, self.terrain)

    def _run(self, op: str, values: Mapping[str, Any]) -> None:
        editor = self.editor
        drag = values.get("drag") if op == "move" else None
        # a move continues its drag (one undo step) once a move of that drag was taken
        continuing = drag is not None and drag == self._drag
        self._drag = self._drag if continuing else None
        if op == "move":
            vertex = int(_number(values, "vertex"))
            x = _number(values, "x")
            if drag is not None:  # the mouse: the vertex slides along its neighbours
                x = editor.between_neighbours(vertex, x)
            editor.move_vertex(vertex, x, _number(values, "y"), continuing)
            self._drag = drag
            vertex = editor.moved if editor.moved is not None else vertex
            self.dragged = None if drag is None else (drag, vertex)
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
                self._props_stand(editor.terrain, loaded)
            except EditRefused as refused:
                name = self.terrain_file.name
                raise EditRefused(f"{name} not loaded: {refused}", refused.span) from None
            editor.reset(loaded)
            self.name = terrain_name(self.terrain_file)  # a save writes the loaded file's
            self.message = f"reloaded {self.terrain_file.name}"
        else:
            raise EditRefused(f"unknown edit {op!r}")

    def save(self) -> str:
        """Write the edited ground to the terrain file (the old one kept as ``.bak``);
        returns the message shown (the path written, or what failed and what was kept)."""
        try:
            path = save_terrain(self.terrain, self.terrain_file, self.name)
        except OutputError as exc:
            file = self.terrain_file.name
            kept = f"{file} and its backup" if exc.output == BACKUP_OUTPUT else file
            self.message = f"not saved: {exc}; {kept} unchanged"
        else:
            self.message = f"saved {path} (previous: {path.name}{BACKUP_SUFFIX})"
        return self.message


# -- the terrain file ------------------------------------------------------------------------
BACKUP_SUFFIX = ".bak"
BACKUP_OUTPUT = "terrain backup"  # the OutputError.output of a backup that failed
MAX_NAME_CHARS = 200  # a terrain's label; a longer one in the file is not carried over
COPY_CHUNK_BYTES = 1 << 20


def _file_object(path: str | Path) -> dict[str, Any]:
    """The JSON object in the file at ``path``, read with the asset size and kind checks;
    ``{}`` when it cannot be read or parsed."""
    try:
        data = json.loads(decode_text(path, read_bytes(path)))
    except (AssetError, ValueError, RecursionError):
        return {}
    return data if isinstance(data, dict) else {}


def terrain_name(path: str | Path) -> str:
    """The ``name`` label of the terrain file at ``path``; ``""`` when the file cannot be
    read or parsed, or holds no name of at most :data:`MAX_NAME_CHARS` characters."""
    name = _file_object(path).get("name")
    return name if isinstance(name, str) and len(name) <= MAX_NAME_CHARS else ""


def number_text(value: float) -> str:
    """The shortest decimal that reads back as exactly ``value`` (``3`` for 3.0; ``-0.0``
    keeps its sign), so a saved file reloads bit for bit."""
    text = repr(float(value))
    return text[:-2] if text.endswith(".0") and text != "-0.0" else text


def terrain_text(
    terrain: Terrain, name: str = "", comments: Mapping[str, Any] | None = None
) -> str:
    """The terrain file for ``terrain``: ``name`` (left out when empty), the ``_`` comment
    keys, then ``points`` one ``[x, y]`` vertex per line and ``landmarks`` one per line
    (every number the shortest text that reads back exactly), so an edit changes the lines
    of the vertices it moved and a diff stays readable."""
    head = [f'  "name": {json.dumps(name, ensure_ascii=False)}'] if name else []
    head += [
        f"  {json.dumps(key, ensure_ascii=False)}: {json.dumps(value, ensure_ascii=False)}"
        for key, value in (comments or {}).items()
    ]
    points = ",\n".join(
        f"    [{number_text(x)}, {number_text(y)}]" for x, y in terrain.points.tolist()
    )
    marks = ",\n".join(
        f'    {{"name": {json.dumps(mark.name, ensure_ascii=False)}, '
        f'"from": {float(mark.x_from)!r}, "to": {float(mark.x_to)!r}}}'
        for mark in terrain.landmarks
    )
    body = [
        *head,
        f'  "points": [\n{points}\n  ]',
        f'  "landmarks": [\n{marks}\n  ]' if marks else '  "landmarks": []',
    ]
    return "{\n" + ",\n".join(body) + "\n}\n"


def _copy_into(source: Path, backup: AtomicFile) -> None:
    """The bytes of ``source`` written into ``backup`` (not yet committed)."""
    try:
        with open(source, "rb") as old:
            while chunk := old.read(COPY_CHUNK_BYTES):
                backup.write_bytes(chunk)
    except OSError as exc:
        backup.abort()
        reason = f"cannot read {source} ({exc.strerror})"
        raise OutputError(BACKUP_OUTPUT, backup.path, reason) from None


def save_terrain(terrain: Terrain, path: str | Path, name: str | None = None) -> Path:
    """Write ``terrain`` to the terrain file at ``path`` (:func:`terrain_text`), keeping the
    previous file as ``<file>.bak``; returns the path written.

    ``name`` is the label written (None: the file's own, :func:`terrain_name`); the
    points and landmarks are the terrain's, so a file that no longer parses is replaced
    whole; its ``_`` comments are kept when it parses. Both files are written like every
    output (:class:`game.outputs.AtomicFile`): to a temporary file beside them, flushed
    and synced, then renamed, the new file's text first, so a full disk or a ``kill -9``
    at any moment leaves each one complete, old or new. The terrain file is written
    through a symlink; the backup is refused, with nothing saved, where its path is not a
    regular file (a folder, a FIFO, a symlink: never written through). Raises
    :class:`OutputError`, with ``output`` :data:`BACKUP_OUTPUT` for the backup's failures
    (the previous backup then kept).
    """
    out = AtomicFile("terrain save", path)
    backup: AtomicFile | None = None
    try:
        label = terrain_name(out.target) if name is None else name
        old = _file_object(out.target)
        comments = {key: value for key, value in old.items() if key.startswith("_")}
        out.write(terrain_text(terrain, label, comments))
        out.sync()
        if out.target.exists():
            bak = out.target.with_name(out.target.name + BACKUP_SUFFIX)
            backup = AtomicFile(BACKUP_OUTPUT, bak, follow_symlinks=False)
            _copy_into(out.target, backup)
            backup.commit()
        out.commit()
    finally:
        out.abort()  # nothing left behind if anything above failed (no-op once committed)
        if backup is not None:
            backup.abort()
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
