"""How a run ends: played to its end whatever stops it (the frame limit, Esc, Ctrl-C,
SIGTERM / SIGHUP, a failing output), its last outputs written (screenshot, stats), the
summary printed and the exit code chosen (no pygame)."""

from __future__ import annotations

import json
import signal
import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from game.options import RunOptions
from game.outputs import EXIT_OUTPUT, EXIT_SIGNAL_BASE, OutputError, stop_on_signals, write_output
from game.profiling import format_summary
from game.replay_feed import EXIT_BAD_REPLAY

if TYPE_CHECKING:
    from game.app import App


@dataclass
class Session:
    """What a finished run leaves: its exit code and, when it ran, its stats."""

    code: int
    stats: dict[str, Any] | None = None


def run_to_the_end(app: App) -> tuple[int, list[OutputError]]:
    """Play until the run ends, Ctrl-C, SIGTERM / SIGHUP or a failing output; every output
    is finished whatever happened. Returns the stopping signal (0 for none) and the
    outputs that failed."""
    stop_signal = 0
    errors: list[OutputError] = []

    def stop(signum: int) -> None:
        nonlocal stop_signal
        stop_signal = stop_signal or signum
        app.running = False  # the frame under way finishes, then the loop ends

    try:
        with stop_on_signals(stop):
            app.run()
    except KeyboardInterrupt:
        stop_signal = signal.SIGINT
    except OutputError as exc:
        errors.append(exc)  # an output failed mid-run: stop, finish the others
    finally:
        errors += app.close()
    return stop_signal, errors


def finish(
    app: App, options: RunOptions, stop_signal: int, errors: list[OutputError], quiet: bool
) -> Session:
    """Write the last outputs, print the summary (unless ``quiet``) and what went wrong;
    the session's exit code and stats."""
    replay = app.replay
    if replay.items and replay.error is None:
        print(
            f"replay cut short by --frames {options.frames}: played "
            f"{replay.steps - replay.steps_left()} of {replay.steps} steps"
        )
    stats = app.stats()
    errors = errors + _write_final_outputs(app, options, stats, quiet)
    if (options.headless or options.announce_summary) and not quiet:
        print(
            f"{app.frames} frames, {app.steps} steps of {app.scene.spec.name!r}; "
            f"{stats['ik']['solves']} IK solves, {stats['ik']['nan']} NaN"
        )
        print(format_summary(stats["timing_ms"]))
    for error in errors:
        print(f"error: {error}", file=sys.stderr)
    if errors:
        return Session(EXIT_OUTPUT, stats)
    if replay.error is not None:
        print(f"error: --replay: {replay.error}", file=sys.stderr)
        return Session(EXIT_BAD_REPLAY, stats)
    if stop_signal:
        name = signal.Signals(stop_signal).name
        print(f"interrupted ({name}): outputs were written", file=sys.stderr)
        return Session(EXIT_SIGNAL_BASE + stop_signal, stats)
    return Session(0, stats)


def _write_final_outputs(
    app: App, options: RunOptions, stats: dict[str, Any], quiet: bool
) -> list[OutputError]:
    """The screenshot and the stats file, each tried whatever the other does."""
    errors: list[OutputError] = []
    if options.screenshot:
        try:
            path = app.save_screenshot(options.screenshot)
        except OutputError as exc:
            errors.append(exc)
        else:
            if not quiet:
                print(f"Screenshot written to {path}")
    if options.stats:
        text = json.dumps(stats, indent=2) + "\n"
        try:
            write_output("--stats", options.stats, text.encode("utf-8"))
        except OutputError as exc:
            errors.append(exc)
    return errors
