"""What a scene is: a simulation (no pygame), a view (draws through a Canvas), an autopilot.

Every scene module in :mod:`game.scenes` exposes ``SCENE``, a :class:`SceneSpec`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from game.canvas import Canvas
from game.ik_counters import IkCounters
from game.input_state import InputState, RawInput
from game.profiling import PhaseTimer

ASSETS_DIR = Path(__file__).resolve().parent.parent / "assets"


@dataclass(frozen=True, slots=True)
class SceneConfig:
    """Run-wide settings a scene is created with.

    Attributes
    ----------
    dt : float
        Fixed step in seconds.
    seed : int
        Seed for everything random (crowd variety, autopilot variation).
    assets_dir : Path
        Where the rig, terrain and scene files are read from.
    characters : int or None
        Crowd size (crowd scene only; None means the scene's default).
    """

    dt: float = 1.0 / 60.0
    seed: int = 0
    assets_dir: Path = ASSETS_DIR
    characters: int | None = None
    extra: dict[str, Any] = field(default_factory=dict)


class Simulation(Protocol):
    """A scene's state and rules; steps at a fixed dt; never imports pygame."""

    step_index: int
    time: float
    counters: IkCounters

    def step(self, inp: InputState, dt: float, timer: PhaseTimer) -> None:
        """Advance one fixed step; the IK solve inside is charged to ``timer``'s ``ik``."""
        ...

    def trace_header(self) -> dict[str, Any]:
        """The trace header (``scene``, ``dt``, ``terrain``, ``limbs``)."""
        ...

    def trace_characters(self) -> list[dict[str, Any]]:
        """This step's ``characters`` list in trace format."""
        ...

    def stats_sections(self) -> dict[str, Any]:
        """Scene-specific sections for the stats file (may be empty)."""
        ...


# Optional parts of a simulation or a view: the app checks for them with isinstance.


@runtime_checkable
class Closable(Protocol):
    """A simulation that holds more than its objects (a worker process): the app closes it
    when the run ends."""

    def close(self) -> None:
        """Let go of what it holds (waits for it)."""


@runtime_checkable
class ReloadableAssets(Protocol):
    """A simulation that reads asset files and re-reads them on F5.

    ``asset_files`` names the files of the assets folder it reads (an optional one may be
    absent): the app reads them once, records them, and has the simulation load exactly
    those (see :func:`game.assets.load_snapshot`).
    """

    asset_files: tuple[str, ...]

    def reload_assets(self, folder: Path | None = None) -> None:
        """Re-read the files from ``folder`` (default: the scene's assets folder); a bad
        one raises ``AssetError`` with nothing changed."""
        ...


@runtime_checkable
class ReloadNotes(Protocol):
    """A :class:`ReloadableAssets` simulation that says what its last reload reset."""

    reload_note: str


@runtime_checkable
class ManyCharacters(Protocol):
    """A simulation of more than one character (the profiler shows how many)."""

    @property
    def character_count(self) -> int: ...


@runtime_checkable
class SidePanel(Protocol):
    """A view with a side panel: (left, top, width, height) in pixels; the HUD keeps out."""

    panel_rect: tuple[float, float, float, float]


@runtime_checkable
class ClearOfHud(Protocol):
    """A view whose camera keeps its subject out from under the box the app draws over
    the view (the F3 profiler panel): ``hud_cover`` is that box (left, top, width, height)
    in pixels, or None; the app sets it before each draw. The walker's camera keeps his
    head under it; the lab and the swivel scene frame their arm beside it."""

    hud_cover: tuple[float, float, float, float] | None


@runtime_checkable
class OwnHud(Protocol):
    """A view with boxes of its own HUD in the view's top-right corner, where the F3
    profiler goes: the panel keeps clear of them (the walk view's ground editor palette,
    while it is open, whose buttons the panel hid)."""

    def hud_boxes(self) -> list[tuple[float, float, float, float]]:
        """The boxes (left, top, width, height) in pixels, as they will be drawn next."""
        ...


@runtime_checkable
class EditableGround(Protocol):
    """A simulation whose ground can change while it runs (the walk scene's edit mode)."""

    def terrain_update(self) -> list[list[float]] | None:
        """The terrain polyline if it changed this step, else None."""
        ...

    def files_read_by(self, inp: InputState) -> tuple[Path, ...]:
        """The asset files a step with input ``inp`` reads from disk (an edit that reloads
        the terrain file): a recording notes their digests so a replay can tell whether it
        reads the same."""
        ...


class SceneView(Protocol):
    """Presentation of one simulation: reads it, never mutates it."""

    def layout(self, size: tuple[int, int]) -> None:
        """The window is ``size`` pixels; place the camera and widgets."""
        ...

    def map_input(self, raw: RawInput) -> InputState:
        """Turn this frame's window input into a step input (world units)."""
        ...

    def draw(self, canvas: Canvas, alpha: float, timer: PhaseTimer) -> None:
        """Draw the scene interpolated ``alpha`` of the way from the previous step."""
        ...

    def draw_overlay(self, canvas: Canvas, alpha: float) -> None:
        """Draw the debug overlay (annuli, targets, poles, plant states)."""
        ...


class Autopilot(Protocol):
    """Scripted input that exercises a scene; deterministic for a given seed."""

    def next_input(self, sim: Any) -> InputState: ...


@dataclass(frozen=True, slots=True)
class SceneSpec:
    """How to build a scene and what its controls are (for F1 help and the README)."""

    name: str
    title: str
    controls: tuple[tuple[str, str], ...]
    create: Callable[[SceneConfig], Any]
    view: Callable[[Any], SceneView]
    autopilot: Callable[[Any, SceneConfig], Autopilot]
