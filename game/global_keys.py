"""The keys every scene shares and what they do, mixed into :class:`game.app.App`: Esc and
the window's close (quitting, held back once for unsaved ground edits), F1 help, O overlay,
F3 profiler, P pause, ``.`` single step, F12 screenshot, F5 asset reload, the number keys'
scenes; and what the window reports (resized, focus lost). No pygame: keys arrive as names
in a :class:`~game.input_state.RawInput`."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from game import scenes
from game.assets import AssetError, load_snapshot, read_snapshot
from game.input_state import RawInput
from game.options import RunOptions
from game.outputs import OutputError
from game.replay_feed import ReplayFeed
from game.run_outputs import RunOutputs
from game.scene import ReloadableAssets, ReloadNotes, SceneConfig
from game.scenes.ground_edit import unsaved_edits

if TYPE_CHECKING:
    from game.app import ActiveScene
    from game.window import Window

# With ground edits not saved, Esc or the window's close quits only when repeated within
# this many seconds of the run's clock (the first asks, in the HUD).
QUIT_CONFIRM_S = 2.0
QUIT_PROMPT = (
    "unsaved ground edits: Esc (or close) again within 2 s quits without them; "
    "E, then Ctrl+S saves them"
)


@runtime_checkable
class TakesEscape(Protocol):
    """A view with a mode Esc leaves (the walk view's ground editor): while
    ``takes_escape()`` is True, Esc is the view's (its ``map_input`` leaves the mode)
    and does not quit."""

    def takes_escape(self) -> bool: ...


class GlobalKeys:
    """The global keys' actions on the app's state (the attributes below are the app's)."""

    options: RunOptions
    config: SceneConfig
    scene: ActiveScene
    window: Window
    replay: ReplayFeed
    outputs: RunOutputs
    running: bool
    paused: bool
    single_step: bool
    show_help: bool
    show_overlay: bool
    show_profiler: bool
    run_s: float
    message: str
    _quit_asked_s: float | None
    switch_scene: Callable[[str], None]
    save_screenshot: Callable[[Path | None, str], Path]
    _say: Callable[[str, str, int], None]

    def _handle_global_keys(self, raw: RawInput) -> None:
        """The keys every scene shares, and what the window itself reports."""
        for key in raw.keys_pressed:
            self._global_key(key, key in raw.ctrl_pressed)
        if raw.quit:
            self.request_quit()
        if raw.resized:
            self.scene.view.layout(self.window.screen.get_size())
        if raw.focus_lost and not self.options.headless and not self.options.autopilot:
            self.paused = True

    def _global_key(self, key: str, ctrl: bool) -> None:
        names = scenes.available()
        if key == "escape":
            self._escape()
        elif key == "f1":
            self.show_help = not self.show_help
        elif key == "o" and not ctrl:  # Ctrl+O is the scene's
            self.show_overlay = not self.show_overlay
        elif key == "f3":
            self.show_profiler = not self.show_profiler
        elif key == "p":
            self.paused = not self.paused
        elif key == "period":
            self.paused, self.single_step = True, True
        elif key == "f12":
            self._f12_screenshot()
        elif key == "f5":
            self.reload_assets()
        elif key.isdigit() and 1 <= int(key) <= len(names) and not self.replay.items:
            self.switch_scene(names[int(key) - 1])

    def _escape(self) -> None:
        """Esc closes the help first (it quits only from the game); in a mode the view
        leaves (the ground editor) it is the view's; otherwise it quits."""
        if self.show_help:
            self.show_help = False
        elif not self._view_takes_escape():
            self.request_quit()

    def _frames_drive_steps(self) -> bool:
        """The player's input drives the steps (not a replay nor the autopilot)."""
        return not self.options.replay and not self.options.autopilot

    def _view_takes_escape(self) -> bool:
        view = self.scene.view
        return self._frames_drive_steps() and isinstance(view, TakesEscape) and view.takes_escape()

    def request_quit(self) -> None:
        """Esc (outside a mode that takes it) or the window's close: quit; with ground
        edits the player made and did not save, only when asked again within
        ``QUIT_CONFIRM_S`` (the first time says so in the HUD)."""
        asked = self._quit_asked_s
        again = asked is not None and self.run_s - asked <= QUIT_CONFIRM_S
        if again or not self._frames_drive_steps():
            self.running = False
            return
        if not unsaved_edits(self.config.extra, self.config.assets_dir):
            self.running = False
            return
        self._quit_asked_s = self.run_s
        self._say(QUIT_PROMPT, "warn", -1)

    def _expire_quit_prompt(self) -> None:
        """The quit prompt goes once its time to answer has passed."""
        asked = self._quit_asked_s
        if asked is not None and self.run_s - asked > QUIT_CONFIRM_S:
            self._quit_asked_s = None
            if self.message == QUIT_PROMPT:
                self.message = ""

    def _f12_screenshot(self) -> None:
        try:
            saved = self.save_screenshot(None, "F12 screenshot").resolve()
            self._say(f"saved {saved}", "ok", 120)
        except OutputError as exc:
            self._say(str(exc), "bad", 120)

    def reload_assets(self) -> None:
        """F5: re-read the scene's asset files; a bad edit is shown and the last good kept.

        The files are read once into a snapshot, which the scene loads and the recording
        keeps (so a replay loads the same files at the same step). In a replay F5 is off:
        the recording's own reloads play where they happened."""
        sim = self.scene.sim
        if not isinstance(sim, ReloadableAssets):
            self._say("no assets to reload here", "warn", 120)
            return
        if self.options.replay:
            self._say(
                "F5 is off in a replay: the recorded reloads play at their steps", "warn", 120
            )
            return
        folder = self.config.assets_dir
        try:
            snapshot = read_snapshot(folder, sim.asset_files)
            load_snapshot(snapshot, folder, sim.reload_assets)
        except AssetError as exc:
            self._say(f"F5: {exc}  (still using the last good assets)", "bad", -1)
            return
        if self.outputs.recorder:
            self.outputs.recorder.reload(snapshot)
        note = sim.reload_note if isinstance(sim, ReloadNotes) else ""
        self._say(f"assets reloaded: {note}" if note else "assets reloaded", "ok", 120)
