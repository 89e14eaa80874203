"""Outputs never clobber and are never lost. Symlinks are written through, anything but a
regular file is refused for an atomic output, files get the umask's mode, every output is
finished whatever another one does, write errors are one line naming the output and the OS
reason (exit 3), SIGTERM and SIGHUP finish like Ctrl-C."""

from __future__ import annotations

import json
import os
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from game.input_state import InputState
from game.outputs import EXIT_OUTPUT, AtomicFile, OutputError, remove_stale_temporaries
from game.recording import SceneStart, read_recording

REPO = Path(__file__).resolve().parents[2]
LAB = ["--headless", "--scene", "lab"]


def _steps(recording: Path) -> int:
    return sum(isinstance(i, InputState) for i in read_recording(recording))


def _one_error_line(stderr: str, *fragments: str) -> None:
    assert "Traceback" not in stderr, stderr
    lines = [line for line in stderr.splitlines() if line.startswith("error:")]
    assert len(lines) == 1, stderr
    for fragment in fragments:
        assert fragment in lines[0], stderr


def test_recording_through_a_symlink_writes_its_target_with_the_umask_mode(
    run_main_here, tmp_path: Path
) -> None:
    target, link = tmp_path / "real.rec", tmp_path / "link.rec"
    link.symlink_to(target)
    result = run_main_here([*LAB, "--frames", "5", "--record", str(link)])
    assert result.returncode == 0, result.stderr
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert _steps(target) == 5
    umask = os.umask(0)
    os.umask(umask)
    assert target.stat().st_mode & 0o777 == 0o666 & ~umask
    assert not list(tmp_path.glob(".*.tmp"))


def test_the_profile_trace_is_written_through_a_symlink(run_main_here, tmp_path: Path) -> None:
    target, link = tmp_path / "real.json", tmp_path / "link.json"
    link.symlink_to(target)
    result = run_main_here([*LAB, "--frames", "3", "--profile-trace", str(link)])
    assert result.returncode == 0, result.stderr
    assert link.is_symlink()
    assert json.loads(target.read_text())["traceEvents"]


def _private_null_device(folder: Path) -> Path:
    """A character device like /dev/null (1, 3) of the test's own: a buggy run that replaces
    the device it was given must not take the machine's /dev/null with it."""
    device = folder / "null-device"
    try:
        os.mknod(device, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    except (PermissionError, AttributeError):
        pytest.skip("making a device node needs root")
    return device


@pytest.mark.parametrize("flag", ["--record", "--profile-trace"])
@pytest.mark.parametrize("kind", ["device", "symlink-to-device", "fifo"])
def test_an_atomic_output_that_is_not_a_regular_file_is_refused(
    run_main_here, tmp_path: Path, kind: str, flag: str
) -> None:
    path = tmp_path / "out.rec"
    if kind == "device":
        path = _private_null_device(tmp_path)
    elif kind == "symlink-to-device":
        path.symlink_to(_private_null_device(tmp_path))
    else:
        os.mkfifo(path)
    result = run_main_here([*LAB, "--frames", "2", flag, str(path)])  # refused before a frame
    assert result.returncode == 2, result.stderr
    assert flag in result.stderr and str(path) in result.stderr
    assert "expected a regular file or a new path" in result.stderr
    assert (tmp_path / "null-device").is_char_device() or kind == "fifo"


def test_a_failing_trace_loses_neither_the_recording_nor_the_stats(
    run_main, tmp_path: Path
) -> None:
    recording, stats = tmp_path / "lost.rec", tmp_path / "stats.json"
    args = ["--frames", "30", "--trace", "/dev/full", "--record", str(recording)]
    result = run_main([*LAB, *args, "--stats", str(stats)], cwd=tmp_path)
    assert result.returncode == EXIT_OUTPUT, result.stderr
    _one_error_line(result.stderr, "--trace", "/dev/full", "No space left on device")
    assert _steps(recording) == 30
    assert json.loads(stats.read_text())["frames"] == 30
    assert not list(tmp_path.glob(".*.tmp"))


@pytest.mark.parametrize("flag", ["--stats", "--screenshot"])
def test_a_full_device_is_a_one_line_write_error_with_its_own_exit_code(
    run_main, flag: str
) -> None:
    result = run_main([*LAB, "--frames", "3", flag, "/dev/full"])
    assert result.returncode == EXIT_OUTPUT, result.stderr
    _one_error_line(result.stderr, flag, "/dev/full", "No space left on device")


def test_bench_that_cannot_write_its_folder_names_it(run_main_here, tmp_path: Path) -> None:
    (tmp_path / "bench").write_text("a file where the bench folder would go")
    result = run_main_here(["--bench", "--scene", "lab", "--frames", "3"], cwd=tmp_path)
    assert result.returncode == EXIT_OUTPUT, result.stderr
    _one_error_line(result.stderr, "--bench", "bench/lab-stats.json")


def test_the_no_display_fallback_names_its_own_screenshot_not_a_flag(
    run_main_here, tmp_path: Path
) -> None:
    (tmp_path / "screenshots").write_text("a file where the folder would go")
    result = run_main_here(["--scene", "lab", "--frames", "3"], cwd=tmp_path)
    assert result.returncode == EXIT_OUTPUT, result.stderr
    _one_error_line(result.stderr, "no-display screenshot", "screenshots/lab.png")
    assert "--screenshot" not in result.stderr


def _dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_a_run_removes_temporary_files_left_by_a_killed_run(tmp_path: Path) -> None:
    target = tmp_path / "run.rec"
    stale = tmp_path / f".run.rec.{_dead_pid()}.tmp"
    stale.write_text("left by SIGKILL")
    alive = tmp_path / f".run.rec.{os.getppid()}.tmp"  # a running process's: kept
    alive.write_text("in use")
    other = tmp_path / ".other.rec.1.tmp"
    other.write_text("another output's")
    out = AtomicFile("--record", target)
    assert not stale.exists() and alive.exists() and other.exists()
    out.write("x\n")
    out.commit()
    assert target.read_text() == "x\n"
    assert remove_stale_temporaries(target) == []


def test_an_atomic_file_that_cannot_be_committed_leaves_the_target_untouched(
    tmp_path: Path,
) -> None:
    target = tmp_path / "run.rec"
    target.write_text("the previous recording\n")
    out = AtomicFile("--record", target)
    out.write("new\n")
    out.tmp.unlink()  # the rename will fail
    with pytest.raises(OutputError, match="--record: cannot write"):
        out.commit()
    assert target.read_text() == "the previous recording\n"


def _wait_until_bigger_than(path: Path, size: int, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if path.exists() and path.stat().st_size > size:
            return
        time.sleep(0.05)


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP])
def test_sigterm_and_sighup_finish_every_output_like_ctrl_c(
    tmp_path: Path, sig: signal.Signals
) -> None:
    recording, stats, trace = tmp_path / "run.rec", tmp_path / "stats.json", tmp_path / "t.jsonl"
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    args = ["--frames", "100000", "--record", str(recording), "--stats", str(stats)]
    child = subprocess.Popen(
        [sys.executable, str(REPO / "main.py"), *LAB, *args, "--trace", str(trace)],
        cwd=REPO,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        _wait_until_bigger_than(trace, 20_000)  # running for a few dozen frames
        child.send_signal(sig)
        _, stderr = child.communicate(timeout=60)
    finally:
        child.kill()
    assert child.returncode == 128 + sig, stderr
    assert "Traceback" not in stderr
    steps = _steps(recording)
    assert steps > 0
    assert isinstance(read_recording(recording)[0], SceneStart)
    assert json.loads(stats.read_text())["steps"] == steps
    assert not list(tmp_path.glob(".*.tmp"))
