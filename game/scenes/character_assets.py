"""The rig and terrain files a character scene reads, and their F5 reload.

Shared by the walk and crowd scenes: both hold a :class:`~game.world.character.Crowd` and
read ``rig.json`` and ``terrain.json`` from the scene's assets folder. A reload reads and
validates every file first and applies them only then, so a bad edit raises
:class:`~game.assets.AssetError` with the simulation untouched (the last good state stays).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from game.world.character import Crowd
from game.world.rig import Rig, load_rig
from game.world.terrain import Terrain, load_terrain

RIG_FILE = "rig.json"
TERRAIN_FILE = "terrain.json"
EDITED_TERRAIN = "edited_terrain"
"""Key of ``SceneConfig.extra`` (shared by every scene of a run): the ground as edited in
the walk scene's edit mode. Walk and crowd scenes built later in the run stand on it,
unsaved edits included, until F5 reads the files again."""


def load_character_assets(
    assets_dir: Path, session: dict[str, Any] | None = None
) -> tuple[Rig, Terrain]:
    """Read and validate ``rig.json`` and ``terrain.json`` from ``assets_dir``; the ground
    edited earlier in the run (``session``'s :data:`EDITED_TERRAIN`) replaces the file's."""
    terrain = load_terrain(assets_dir / TERRAIN_FILE)
    if session is not None:
        terrain = session.get(EDITED_TERRAIN, terrain)
    return load_rig(assets_dir / RIG_FILE), terrain


class CharacterAssets:
    """Mixin: ``rig``/``terrain`` of ``self.crowd``, and reloading them from ``assets_dir``."""

    assets_dir: Path
    asset_files: tuple[str, ...] = (RIG_FILE, TERRAIN_FILE)
    crowd: Crowd
    session: dict[str, Any]  # SceneConfig.extra: what the scenes of one run share

    @property
    def rig(self) -> Rig:
        return self.crowd.rig

    @property
    def terrain(self) -> Terrain:
        return self.crowd.terrain

    def apply_assets(self, rig: Rig, terrain: Terrain) -> None:
        """Use a new rig and terrain from the next step on (feet are set down afresh, and
        their counters start again: footsteps and knee flips alike)."""
        self.crowd.apply_assets(rig, terrain)
        self.crowd.reset_counts()

    def reload_assets(self, folder: Path | None = None) -> None:
        """Re-read both files from ``folder`` (default ``assets_dir``; edits not saved are
        dropped); a bad file raises before anything changes."""
        self.apply_assets(*load_character_assets(folder or self.assets_dir))
        self.session.pop(EDITED_TERRAIN, None)
