"""Output files: one error type for every output that cannot be written, atomic replacement
that never clobbers what a path points at, and stopping cleanly on SIGTERM / SIGHUP.

Exit codes (documented in the README): an output that fails while it is written (a full
disk, a device error) or a default output path that cannot be written ends the run with
:data:`EXIT_OUTPUT` after every other output has been finished.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import stat
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from types import FrameType

EXIT_OUTPUT = 3
EXIT_SIGNAL_BASE = 128  # a run stopped by signal N exits 128 + N (Ctrl-C: 130)
STOP_SIGNALS: tuple[signal.Signals, ...] = tuple(
    getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name)
)


class OutputError(Exception):
    """An output that could not be written: which one (its flag), where, and the OS reason."""

    def __init__(self, output: str, path: str | Path, reason: str) -> None:
        self.output, self.path, self.reason = output, Path(path), reason
        super().__init__(f"{output}: cannot write {path} ({reason})")

    @classmethod
    def from_os(cls, output: str, path: str | Path, exc: OSError) -> OutputError:
        """From an ``OSError`` (its ``strerror``, such as "No space left on device")."""
        return cls(output, path, exc.strerror or str(exc))


def atomic_target(path: str | Path) -> Path:
    """Where an atomically replaced output really goes: a symlink's resolved target (so the
    link is written through, not replaced), or ``path`` itself."""
    return Path(os.path.realpath(path))


def atomic_problem(path: str | Path, follow_symlinks: bool = True) -> str | None:
    """Why ``path`` cannot be replaced atomically (anything but a regular file or a new
    path, such as a device, FIFO or folder, even behind a symlink; with ``follow_symlinks``
    false, a symlink itself), or None."""
    target = atomic_target(path) if follow_symlinks else Path(os.path.abspath(path))
    try:
        mode = os.stat(target, follow_symlinks=follow_symlinks).st_mode
    except FileNotFoundError:
        return None
    except OSError as exc:
        return f"cannot write to {path} ({exc.strerror})"
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISLNK(mode):
        return f"{path} is a symlink, never written through; expected a regular file or a new path"
    kind = "a directory" if stat.S_ISDIR(mode) else "not a regular file (a device, FIFO or socket)"
    shown = f"{path} (→ {target})" if str(target) != os.path.abspath(path) else str(path)
    return f"{shown} is {kind}; expected a regular file or a new path"


def _temporary_name(target: Path, pid: int) -> Path:
    # hidden, beside the target (same file system, so the rename is atomic), owned by a pid
    return target.with_name(f".{target.name}.{pid}.tmp")


def remove_stale_temporaries(target: Path) -> list[Path]:
    """Delete temporary files of ``target`` left by runs that no longer exist (killed with
    SIGKILL, or the machine went down); returns what was removed."""
    pattern = rf"\.{re.escape(target.name)}\.(\d+)\.tmp"
    removed: list[Path] = []
    with contextlib.suppress(OSError):
        for entry in target.parent.iterdir():
            match = re.fullmatch(pattern, entry.name)
            if match and not _process_alive(int(match.group(1))):
                with contextlib.suppress(OSError):
                    entry.unlink()
                    removed.append(entry)
    return removed


def _process_alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # it exists but belongs to someone else
    return True


class AtomicFile:
    """A file written beside its target and renamed into place by :meth:`commit`, so the
    target is either complete or untouched.

    A symlink is written through (its target is replaced, the link stays), or with
    ``follow_symlinks`` false refused (a backup is never written where a link points); the
    new file gets the usual mode (``0o666`` less the umask). The temporary file is named
    ``.NAME.PID.tmp``; :func:`remove_stale_temporaries` deletes those of dead runs.
    """

    def __init__(self, output: str, path: str | Path, follow_symlinks: bool = True) -> None:
        self.output, self.path = output, Path(path)
        problem = atomic_problem(self.path, follow_symlinks)
        if problem:
            raise OutputError(output, self.path, problem)
        self.target = atomic_target(self.path) if follow_symlinks else Path(os.path.abspath(path))
        remove_stale_temporaries(self.target)
        self.tmp = _temporary_name(self.target, os.getpid())
        try:
            flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0)
            fd = os.open(self.tmp, flags, 0o666)
        except OSError as exc:
            raise OutputError.from_os(output, self.path, exc) from None
        self._file = os.fdopen(fd, "wb")
        self._synced = False

    @property
    def closed(self) -> bool:
        return self._file.closed

    def write(self, text: str) -> None:
        """Append text as UTF-8 (see :meth:`write_bytes`)."""
        self.write_bytes(text.encode("utf-8"))

    def write_bytes(self, data: bytes) -> None:
        """Append bytes (an ``OSError`` becomes :class:`OutputError`; the file is abandoned)."""
        try:
            self._file.write(data)
        except OSError as exc:
            self.abort()
            raise OutputError.from_os(self.output, self.path, exc) from None
        self._synced = False

    def sync(self) -> None:
        """Flush and ``fsync`` what is written (the target is not touched yet), so a full
        disk or a device error shows here, before anything is renamed."""
        try:
            self._file.flush()
            os.fsync(self._file.fileno())
        except OSError as exc:
            self.abort()
            raise OutputError.from_os(self.output, self.path, exc) from None
        self._synced = True

    def commit(self) -> None:
        """Flush, sync and rename into place (idempotent once done)."""
        if self._file.closed:
            return
        if not self._synced:
            self.sync()
        try:
            self._file.close()
            os.replace(self.tmp, self.target)
        except OSError as exc:
            self.abort()
            raise OutputError.from_os(self.output, self.path, exc) from None

    def abort(self) -> None:
        """Close and delete the temporary file; the target is left as it was."""
        with contextlib.suppress(OSError):
            self._file.close()
        with contextlib.suppress(OSError):
            self.tmp.unlink()


def write_output(output: str, path: str | Path, data: bytes) -> None:
    """Write a whole output file in place (through symlinks, to devices too), creating its
    folder; an ``OSError`` becomes :class:`OutputError`."""
    try:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)
    except OSError as exc:
        raise OutputError.from_os(output, path, exc) from None


@contextlib.contextmanager
def stop_on_signals(stop: Callable[[int], None]) -> Iterator[None]:
    """While inside, SIGTERM and SIGHUP call ``stop(signum)`` (the run then finishes its frame
    and every output, like Ctrl-C) instead of killing the process; the previous handlers
    are restored afterwards."""

    def handler(signum: int, frame: FrameType | None) -> None:
        stop(signum)

    if threading.current_thread() is not threading.main_thread():
        yield  # only the main thread may set handlers; elsewhere the defaults stay
        return
    previous = {sig: signal.signal(sig, handler) for sig in STOP_SIGNALS}
    try:
        yield
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old)
