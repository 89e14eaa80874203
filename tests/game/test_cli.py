"""Bad arguments exit 2 with a message saying what is wrong and what is valid, before any frame."""

from __future__ import annotations

from pathlib import Path

import pytest

from game import scenes


def _assert_rejected_before_running(result, *fragments: str) -> None:  # type: ignore[no-untyped-def]
    assert result.returncode == 2, result.stdout + result.stderr
    message = result.stderr
    for fragment in fragments:
        assert fragment in message, message
    assert "frames," not in result.stdout  # no run summary: nothing ran


def test_unknown_scene_exits_2_listing_the_valid_scenes(run_main, tmp_path: Path) -> None:
    trace = tmp_path / "t.jsonl"
    result = run_main(["--scene", "moon", "--headless", "--trace", str(trace)])
    _assert_rejected_before_running(result, "unknown scene 'moon'", *scenes.available())
    assert not trace.exists()


@pytest.mark.parametrize("value", ["0", "-3", "ten", "2.5"])
def test_frames_must_be_a_positive_whole_number(run_main, value: str) -> None:
    result = run_main(["--headless", "--frames", value])
    _assert_rejected_before_running(result, "--frames", "whole number > 0")


@pytest.mark.parametrize("value", ["0", "-60", "5000"])
def test_hz_out_of_range_is_rejected(run_main, value: str) -> None:
    result = run_main(["--headless", "--hz", value])
    _assert_rejected_before_running(result, "--hz")


def test_negative_seed_is_rejected(run_main) -> None:
    result = run_main(["--headless", "--seed", "-1"])
    _assert_rejected_before_running(result, "--seed", ">= 0")


@pytest.mark.parametrize(
    "flag", ["--screenshot", "--stats", "--trace", "--record", "--profile-trace"]
)
def test_unwritable_output_path_is_reported_before_the_run(
    run_main, tmp_path: Path, flag: str
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    result = run_main(["--headless", "--frames", "5", flag, str(blocker / "out.x")])
    _assert_rejected_before_running(result, flag, "cannot write")


def test_output_path_that_is_a_directory_is_rejected(run_main, tmp_path: Path) -> None:
    result = run_main(["--headless", "--frames", "5", "--stats", str(tmp_path)])
    _assert_rejected_before_running(result, "--stats", "is a directory")


def test_missing_replay_file_is_rejected(run_main, tmp_path: Path) -> None:
    result = run_main(["--headless", "--replay", str(tmp_path / "nope.rec")])
    _assert_rejected_before_running(result, "--replay", "no such file")


def test_help_lists_every_fixed_flag(run_main) -> None:
    result = run_main(["--help"])
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
def test_window_size_below_the_laid_out_minimum_is_rejected(run_main, value: str) -> None:
    result = run_main(["--headless", "--size", value])
    _assert_rejected_before_running(result, "--size", "960x540")


def test_headless_replay_has_no_default_frame_limit() -> None:
    from game.cli import parse

    recording = Path(__file__)  # any existing file: parse only checks that it exists
    assert parse(["--headless", "--replay", str(recording)]).frames is None
    assert parse(["--headless"]).frames == 600
    assert parse(["--headless", "--replay", str(recording), "--frames", "9"]).frames == 9


def test_an_empty_scene_name_is_rejected_not_the_default(run_main) -> None:
    result = run_main(["--headless", "--frames", "1", "--scene", ""])
    _assert_rejected_before_running(result, "unknown scene ''")


def test_characters_beyond_the_documented_maximum_are_rejected(run_main) -> None:
    from game.options import MAX_CHARACTERS

    result = run_main(["--headless", "--scene", "crowd", "--characters", "1000000"])
    _assert_rejected_before_running(result, "--characters", f"1 to {MAX_CHARACTERS}")


def test_a_replay_that_is_not_a_regular_file_is_named_as_such(run_main, tmp_path: Path) -> None:
    result = run_main(["--headless", "--replay", str(tmp_path)])
    _assert_rejected_before_running(result, "--replay", "is not a regular file")
