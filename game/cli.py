"""The command line: parse and validate every option before any frame runs.

Exit codes: 0 success, 1 a bad asset (reported before a window opens), 2 bad arguments.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from game import scenes
from game.options import (
    HZ_RANGE,
    MAX_CHARACTERS,
    MIN_WINDOW_SIZE,
    SCREENSHOT_FORMATS,
    RunOptions,
)
from game.outputs import EXIT_OUTPUT, atomic_problem

HEADLESS_DEFAULT_FRAMES = 600
# the largest crowd a benchmark (--bench, --profile) may measure: beyond what plays at a
# frame rate (MAX_CHARACTERS), to show how the cost grows; ~2 KB of state a character
MAX_BENCH_CHARACTERS = 10_000


def _whole_in(text: str, low: int, high: int, what: str) -> int:
    """A whole number from ``low`` to ``high``; the error states the whole range whatever
    was wrong (not a number, too small, too large)."""
    try:
        value = int(text)
    except ValueError:
        value = None
    if value is None or not low <= value <= high:
        raise argparse.ArgumentTypeError(
            f"expected a whole number of {what} from {low} to {high}, got {text!r}"
        )
    return value


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number > 0, got {text!r}") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"expected a whole number > 0, got {value}")
    return value


def _seed(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number >= 0, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a whole number >= 0, got {value}")
    return value


def _characters(text: str, high: int = MAX_CHARACTERS) -> int:
    return _whole_in(text, 1, high, "characters")


def _hz(text: str) -> int:
    return _whole_in(text, *HZ_RANGE, "steps per second")


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected WIDTHxHEIGHT such as 1280x720, got {text!r}"
        ) from None
    min_w, min_h = MIN_WINDOW_SIZE
    if not (min_w <= w <= 8192 and min_h <= h <= 8192):
        raise argparse.ArgumentTypeError(
            f"expected a size from {min_w}x{min_h} to 8192x8192, got {text!r}"
        )
    return w, h


def _sizes(text: str) -> tuple[int, ...]:
    try:
        sizes = tuple(_characters(part) for part in text.split(","))
    except argparse.ArgumentTypeError:
        raise argparse.ArgumentTypeError(
            f"expected comma-separated crowd sizes from 1 to {MAX_CHARACTERS} such as "
            f"50,100,200, got {text!r}"
        ) from None
    if len(sizes) < 2:
        raise argparse.ArgumentTypeError(
            f"expected at least two sizes to fit a slope, got {text!r}"
        )
    return sizes


def check_writable(path: Path, atomic: bool = False) -> str | None:
    """Why ``path`` cannot be written as an output file, or None if it can.

    An existing file (or device: ``--trace /dev/null`` is fine) must be writable; an
    ``atomic`` output (replaced by a rename) must be a regular file or a new path, even
    behind a symlink. For a new path, creates missing parent folders and probes with a
    temporary file so nothing existing is touched.
    """
    if path.is_dir():
        return f"{path} is a directory, expected a file path"
    if atomic:
        problem = atomic_problem(path)
        if problem:
            return problem
    if path.exists():
        return None if os.access(path, os.W_OK) else f"cannot write to {path} (Permission denied)"
    parent = path.parent if str(path.parent) else Path(".")
    try:
        parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=parent, prefix=".probe-"):
            pass
    except OSError as exc:
        return f"cannot write to {path} ({exc.strerror or exc})"
    return None


def build_parser() -> argparse.ArgumentParser:
    names = scenes.available()
    parser = argparse.ArgumentParser(
        prog="main.py",
        description=f"Analytic two-bone IK: a pygame demo ({', '.join(names)} scenes).",
    )
    parser.add_argument("--scene", default=None, help=f"scene to play: {', '.join(names)}")
    parser.add_argument("--headless", action="store_true", help="no window (SDL dummy driver)")
    parser.add_argument("--frames", type=_positive_int, help="exit after N rendered frames")
    parser.add_argument(
        "--autopilot", action="store_true", help="scripted input that exercises the scene"
    )
    parser.add_argument(
        "--screenshot",
        type=Path,
        help="save the last frame as PNG, JPEG or BMP (by the path's suffix)",
    )
    parser.add_argument("--stats", type=Path, help="write the run's stats JSON here")
    parser.add_argument("--trace", type=Path, help="write a JSON Lines trace of every fixed step")
    parser.add_argument("--seed", type=_seed, help="random seed (default 0)")
    parser.add_argument(
        "--hz", type=_hz, help="simulation steps per second, 10 to 1000 (default 60)"
    )
    parser.add_argument("--record", type=Path, help="record every step's input to this file")
    parser.add_argument("--replay", type=Path, help="replay a recorded input file")
    parser.add_argument(
        "--characters",
        help=f"crowd size (crowd scene): 1 to {MAX_CHARACTERS} to play, "
        f"up to {MAX_BENCH_CHARACTERS} with --bench or --profile",
    )
    parser.add_argument("--size", type=_size, default=(1280, 720), help="window size WxH")
    parser.add_argument("--assets", type=Path, help="folder of rig/terrain files (default assets/)")
    parser.add_argument("--show-profiler", action="store_true", help="start with the F3 panel on")
    bench = parser.add_argument_group("profiling")
    bench.add_argument(
        "--profile-trace",
        type=Path,
        metavar="PATH",
        help="write every frame's phases as Chrome trace-event JSON (Perfetto, speedscope)",
    )
    bench.add_argument(
        "--bench", action="store_true", help="headless, uncapped: print per-phase p50/p99 ms"
    )
    bench.add_argument(
        "--bench-sweep",
        type=_sizes,
        metavar="N,N,...",
        help="run the crowd at each size; print cost per character and chart it",
    )
    bench.add_argument(
        "--profile", action="store_true", help="run under cProfile; print the top 25 functions"
    )
    return parser


def display_available() -> bool:
    """Whether a real display can be opened (an X or Wayland server on Linux)."""
    driver = os.environ.get("SDL_VIDEODRIVER", "")
    if driver in ("dummy", "offscreen"):
        return False
    if sys.platform.startswith("linux"):
        return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    return True


def parse(argv: Sequence[str] | None = None) -> RunOptions:
    """Parse and validate; exits 2 with a message on any bad argument."""
    parser = build_parser()
    args = parser.parse_args(argv)
    benchmarking = args.bench or args.bench_sweep is not None or args.profile
    scene = _chosen_scene(args.scene, benchmarking)
    if args.characters is not None:
        args.characters = _crowd_size(parser, args.characters, benchmarking)
    _check_combinations(parser, args, scene)
    _check_inputs(parser, args)
    _check_crowd_size(parser, args, scene)
    mode = _run_mode(args, scene, benchmarking)
    _check_outputs(parser, args, mode.screenshot)
    return RunOptions(
        scene=scene,
        headless=mode.headless,
        frames=mode.frames,
        autopilot=mode.autopilot,
        screenshot=mode.screenshot,
        stats=args.stats,
        trace=args.trace,
        seed=0 if args.seed is None else args.seed,
        hz=60 if args.hz is None else args.hz,
        record=args.record,
        replay=args.replay,
        characters=args.characters,
        size=args.size,
        announce_summary=mode.announce,
        assets=args.assets,
        show_profiler=args.show_profiler,
        bench=args.bench,
        bench_sweep=args.bench_sweep or (),
        profile=args.profile,
        profile_trace=args.profile_trace,
    )


def _chosen_scene(asked: str | None, benchmarking: bool) -> str:
    """The scene asked for, or the default: a benchmark measures the crowd if there is one."""
    if asked is not None:
        return asked
    if benchmarking and "crowd" in scenes.available():
        return "crowd"
    return scenes.default_scene()


def _crowd_size(parser: argparse.ArgumentParser, text: str, benchmarking: bool) -> int:
    """--characters, checked here, not by argparse: a benchmark may measure a bigger crowd
    than plays."""
    high = MAX_BENCH_CHARACTERS if benchmarking else MAX_CHARACTERS
    try:
        return _characters(text, high)
    except argparse.ArgumentTypeError as exc:
        more = f" (up to {MAX_BENCH_CHARACTERS} with --bench)" if not benchmarking else ""
        parser.error(f"argument --characters: {exc}{more}")


def _check_combinations(
    parser: argparse.ArgumentParser, args: argparse.Namespace, scene: str
) -> None:
    """The scene exists, and no two options ask for what cannot be done together."""
    names = scenes.available()
    if args.bench_sweep is not None and args.scene not in (None, "crowd"):
        parser.error("--bench-sweep runs the crowd scene; drop --scene or use --scene crowd")
    if scene not in names:
        parser.error(f"unknown scene {scene!r}; valid scenes: {', '.join(names)}")
    if args.record and args.replay:
        parser.error("--record and --replay cannot be used together")
    if args.replay and args.autopilot:
        parser.error("--replay and --autopilot cannot be used together (the replay is the input)")


def _check_inputs(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """The assets folder and the replay file exist; a replay sets its own scene, seed, hz
    and crowd size."""
    if args.assets is not None and not args.assets.is_dir():
        parser.error(f"--assets: expected a folder of asset files, {args.assets} is not one")
    if args.replay is None:
        return
    if not args.replay.exists():
        parser.error(f"--replay: no such file {args.replay}")
    if not args.replay.is_file():
        parser.error(f"--replay: {args.replay} is not a regular file (a folder, FIFO or device)")
    settings = (
        ("--scene", args.scene),
        ("--seed", args.seed),
        ("--hz", args.hz),
        ("--characters", args.characters),
    )
    given = [flag for flag, value in settings if value is not None]
    if given:
        parser.error(
            "--replay plays the scene, seed and hz it recorded (and the crowd size); "
            f"drop {', '.join(given)}"
        )


def _check_crowd_size(
    parser: argparse.ArgumentParser, args: argparse.Namespace, scene: str
) -> None:
    """--characters where it sizes nothing: an error with --bench-sweep, a warning when the
    run starts in another scene than the crowd."""
    if args.characters is not None and args.bench_sweep is not None:
        parser.error("--bench-sweep sets the crowd sizes itself; drop --characters")
    if args.characters is not None and scene != "crowd" and args.replay is None:
        print(
            f"warning: --characters {args.characters} sizes the crowd scene; this run starts "
            f"in the {scene!r} scene (the crowd gets it when you switch to it)",
            file=sys.stderr,
        )


@dataclass(frozen=True, slots=True)
class _RunMode:
    """How the run plays: in a window or headless, for how many frames, driven by whom."""

    headless: bool
    autopilot: bool
    frames: int | None
    screenshot: Path | None
    announce: bool  # say what ran at the end (the run fell back to headless)


def _run_mode(args: argparse.Namespace, scene: str, benchmarking: bool) -> _RunMode:
    """A benchmark runs headless on the autopilot; with no display a run falls back to
    headless (the autopilot unless replaying, a screenshot), saying so; headless runs
    stop after :data:`HEADLESS_DEFAULT_FRAMES` unless replaying."""
    headless, autopilot, frames, screenshot = (
        args.headless,
        args.autopilot,
        args.frames,
        args.screenshot,
    )
    announce = False
    if benchmarking:
        headless, autopilot = True, True
    if not headless and not display_available():
        if args.replay is not None:
            length = f"{frames} frames" if frames else "its end"
            plan = f"replaying {args.replay} headless to {length}"
        else:
            plan = (
                f"running the {scene!r} scene headless with the autopilot "
                f"for {frames or HEADLESS_DEFAULT_FRAMES} frames"
            )
        print(f"No display found: {plan}.")
        headless, announce = True, True
        autopilot = autopilot or args.replay is None
        screenshot = screenshot or Path("screenshots") / f"{scene}.png"
    if headless and frames is None and args.replay is None:
        frames = HEADLESS_DEFAULT_FRAMES  # a replay plays to its end unless --frames says less
    return _RunMode(headless, autopilot, frames, screenshot, announce)


def _check_outputs(
    parser: argparse.ArgumentParser, args: argparse.Namespace, screenshot: Path | None
) -> None:
    """The screenshot's format, then every output path can be written (``screenshot`` may
    be the no-display fallback's own, which exits 3 rather than 2 when it cannot)."""
    # the format first: checking a path creates its missing folders
    suffix = args.screenshot.suffix.lower() if args.screenshot is not None else ""
    if suffix and suffix not in SCREENSHOT_FORMATS:  # no suffix (/dev/null, "shot"): PNG
        parser.error(
            f"--screenshot: expected a path ending in {', '.join(SCREENSHOT_FORMATS)} "
            f"(the image format), got {str(args.screenshot)!r}"
        )
    for flag, path in (
        ("--screenshot", screenshot),
        ("--stats", args.stats),
        ("--trace", args.trace),
        ("--record", args.record),
        ("--profile-trace", args.profile_trace),
    ):
        if path is not None:
            problem = check_writable(path, atomic=flag in ("--record", "--profile-trace"))
            if problem and flag == "--screenshot" and args.screenshot is None:
                # the no-display fallback's own output: not a flag the user gave
                print(f"error: no-display screenshot: {problem}", file=sys.stderr)
                sys.exit(EXIT_OUTPUT)
            if problem:
                parser.error(f"{flag}: {problem}")


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``python main.py`` and the ``twobone`` console script."""
    options = parse(argv)
    # imported late: parsing and --help never load pygame
    if options.bench or options.bench_sweep or options.profile:
        from game.bench import run_bench

        return run_bench(options)
    from game.app import run

    return run(options)
