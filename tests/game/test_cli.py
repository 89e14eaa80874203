"""Bad arguments exit 2 with a message saying what is wrong and what is valid, before any frame
(checked in this process, ``run_main_here``; runs that play frames in a subprocess)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from game import scenes


def _assert_rejected_before_running(result, *fragments: str) -> None:  # type: ignore[no-untyped-def]
    assert result.returncode == 2, result.stdout + result.stderr
    message = result.stderr
    for fragment in fragments:
        assert fragment in message, message
    assert "frames," not in result.stdout  # no run summary: nothing ran


def test_unknown_scene_exits_2_listing_the_valid_scenes(run_main_here, tmp_path: Path) -> None:
    trace = tmp_path / "t.jsonl"
    result = run_main_here(["--scene", "moon", "--headless", "--trace", str(trace)])
    _assert_rejected_before_running(result, "unknown scene 'moon'", *scenes.available())
    assert not trace.exists()


@pytest.mark.parametrize("value", ["0", "-3", "ten", "2.5"])
def test_frames_must_be_a_positive_whole_number(run_main_here, value: str) -> None:
    result = run_main_here(["--headless", "--frames", value])
    _assert_rejected_before_running(result, "--frames", "whole number > 0")


@pytest.mark.parametrize("value", ["0", "-60", "5000"])
def test_hz_out_of_range_is_rejected(run_main_here, value: str) -> None:
    result = run_main_here(["--headless", "--hz", value])
    _assert_rejected_before_running(result, "--hz")


def test_negative_seed_is_rejected(run_main_here) -> None:
    result = run_main_here(["--headless", "--seed", "-1"])
    _assert_rejected_before_running(result, "--seed", ">= 0")


@pytest.mark.parametrize(
    "flag", ["--screenshot", "--stats", "--trace", "--record", "--profile-trace"]
)
def test_unwritable_output_path_is_reported_before_the_run(
    run_main_here, tmp_path: Path, flag: str
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    # (.png: a screenshot's format is checked first, and .x names none)
    result = run_main_here(["--headless", "--frames", "5", flag, str(blocker / "out.png")])
    _assert_rejected_before_running(result, flag, "cannot write")


def test_output_path_that_is_a_directory_is_rejected(run_main_here, tmp_path: Path) -> None:
    result = run_main_here(["--headless", "--frames", "5", "--stats", str(tmp_path)])
    _assert_rejected_before_running(result, "--stats", "is a directory")


def test_missing_replay_file_is_rejected(run_main_here, tmp_path: Path) -> None:
    result = run_main_here(["--headless", "--replay", str(tmp_path / "nope.rec")])
    _assert_rejected_before_running(result, "--replay", "no such file")


def test_help_lists_every_fixed_flag(run_main_here) -> None:
    result = run_main_here(["--help"])
    assert result.returncode == 0
    for flag in (
        "--scene",
        "--headless",
        "--frames",
        "--autopilot",
        "--screenshot",
        "--stats",
        "--trace",
        "--seed",
        "--hz",
    ):
        assert flag in result.stdout


@pytest.mark.parametrize("value", ["320x240", "959x540", "960x539"])
def test_window_size_below_the_laid_out_minimum_is_rejected(run_main_here, value: str) -> None:
    result = run_main_here(["--headless", "--size", value])
    _assert_rejected_before_running(result, "--size", "960x540")


def test_headless_replay_has_no_default_frame_limit() -> None:
    from game.cli import parse

    recording = Path(__file__)  # any existing file: parse only checks that it exists
    assert parse(["--headless", "--replay", str(recording)]).frames is None
    assert parse(["--headless"]).frames == 600
    assert parse(["--headless", "--replay", str(recording), "--frames", "9"]).frames == 9


def test_an_empty_scene_name_is_rejected_not_the_default(run_main_here) -> None:
    result = run_main_here(["--headless", "--frames", "1", "--scene", ""])
    _assert_rejected_before_running(result, "unknown scene ''")


def test_characters_beyond_the_documented_maximum_are_rejected(run_main_here) -> None:
    from game.options import MAX_CHARACTERS

    result = run_main_here(["--headless", "--scene", "crowd", "--characters", "1000000"])
    _assert_rejected_before_running(result, "--characters", f"1 to {MAX_CHARACTERS}")


def test_a_replay_that_is_not_a_regular_file_is_named_as_such(
    run_main_here, tmp_path: Path
) -> None:
    result = run_main_here(["--headless", "--replay", str(tmp_path)])
    _assert_rejected_before_running(result, "--replay", "is not a regular file")


@pytest.mark.parametrize(("flag", "value"), [("--hz", "0"), ("--hz", "9"), ("--hz", "ten")])
def test_hz_states_its_whole_range_whatever_is_wrong(run_main_here, flag: str, value: str) -> None:
    result = run_main_here(["--headless", flag, value])
    _assert_rejected_before_running(
        result, f"--hz: expected a whole number of steps per second from 10 to 1000, got '{value}'"
    )


@pytest.mark.parametrize("value", ["0", "-1", "2001", "x"])
def test_characters_states_its_whole_range_whatever_is_wrong(run_main_here, value: str) -> None:
    result = run_main_here(["--headless", "--scene", "crowd", "--characters", value])
    _assert_rejected_before_running(
        result, f"--characters: expected a whole number of characters from 1 to 2000, got '{value}'"
    )


def test_a_screenshot_path_naming_no_image_format_is_rejected(
    run_main_here, tmp_path: Path
) -> None:
    shot = tmp_path / "x.webp"
    result = run_main_here(["--headless", "--frames", "2", "--screenshot", str(shot)])
    _assert_rejected_before_running(
        result, "--screenshot: expected a path ending in .png, .jpg, .jpeg, .bmp (the image format)"
    )
    assert not shot.exists()


@pytest.mark.parametrize(("name", "magic"), [("x.jpg", b"\xff\xd8\xff"), ("x.BMP", b"BM")])
def test_a_screenshot_is_written_in_the_format_its_suffix_names(
    run_main_here, tmp_path: Path, name: str, magic: bytes
) -> None:
    shot = tmp_path / name
    result = run_main_here(
        ["--headless", "--scene", "lab", "--frames", "2", "--screenshot", str(shot)]
    )
    assert result.returncode == 0, result.stderr
    assert shot.read_bytes().startswith(magic)


def test_characters_outside_the_crowd_scene_is_warned_about(run_main_here) -> None:
    result = run_main_here(["--headless", "--scene", "lab", "--frames", "2", "--characters", "5"])
    assert result.returncode == 0, result.stderr
    assert result.stderr.strip() == (
        "warning: --characters 5 sizes the crowd scene; this run starts in the 'lab' scene "
        "(the crowd gets it when you switch to it)"
    )


def test_characters_beside_a_sweep_or_a_replay_is_rejected(run_main_here, tmp_path: Path) -> None:
    sweep = run_main_here(["--bench-sweep", "10,20", "--characters", "5"])
    _assert_rejected_before_running(sweep, "--bench-sweep sets the crowd sizes itself")
    recording = tmp_path / "r.rec"
    recording.write_text("{}\n")
    replay = run_main_here(["--headless", "--replay", str(recording), "--characters", "5"])
    _assert_rejected_before_running(replay, "--replay plays the scene", "drop --characters")


def test_a_crowd_replay_plays_with_the_recorded_crowd_size(run_main_here, tmp_path: Path) -> None:
    recording, stats = tmp_path / "crowd.rec", tmp_path / "stats.json"
    args = ["--headless", "--scene", "crowd", "--autopilot", "--frames", "5"]
    assert run_main_here([*args, "--characters", "7", "--record", str(recording)]).returncode == 0
    replay = run_main_here(["--headless", "--replay", str(recording), "--stats", str(stats)])
    assert replay.returncode == 0, replay.stderr
    assert json.loads(stats.read_text())["characters"] == 7


def test_a_screenshot_with_no_image_format_creates_no_folder(run_main_here, tmp_path: Path) -> None:
    # the format is checked before the path is made: a refused screenshot leaves no folder
    shot = tmp_path / "newdir" / "shot.gif"
    result = run_main_here(["--headless", "--frames", "2", "--screenshot", str(shot)])
    _assert_rejected_before_running(result, "--screenshot: expected a path ending in .png")
    assert not shot.parent.exists()


def test_bench_sweep_sizes_keep_to_the_crowds_range(run_main_here) -> None:
    # every size of a sweep is checked against the crowd's range, as a single size is
    result = run_main_here(["--bench-sweep", "50,100000000"])
    _assert_rejected_before_running(
        result, "--bench-sweep: expected comma-separated crowd sizes from 1 to 2000"
    )
