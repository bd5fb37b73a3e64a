"""Writing output files so that every file is always either its old or its new version.

- **Nothing happens before the end.** Output is rendered in memory first; folders are
  created only when the files are written, so a run that fails creates nothing.
- **One rename per file.** Each file is written in full to a hidden temporary file in
  its own folder and flushed to disk, given the old file's mode (new files: 0666 less
  the umask), then renamed over the old name in one atomic step. At no moment is a name
  missing, so a run killed at any point leaves each file old or new.
- **All or nothing.** Before a file is replaced, its old version is kept under a hidden
  name (a hard link, or a copy where links are not possible). If any later file cannot
  be written, or the run is interrupted, the old versions are put back, again by atomic
  renames, and files this run created are removed. Interrupt signals wait while files
  are being renamed.
- **One run per folder.** The commit holds a lock on each output folder (``flock`` on
  the folder itself), so two runs never mix their files or roll back each other's. A
  run waits a little for another to finish, then says which folder is busy. Hidden
  temporary files left by runs that were killed are removed while the lock is held.
- **Only regular files.** An existing folder, device, pipe, socket or symbolic link
  under an output name is refused, never replaced.

Imports ``cardgen.datafile`` and ``cardgen.errors``.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import secrets
import shutil
import signal
import stat
import threading
import time
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from cardgen.datafile import path_text
from cardgen.errors import OutputError, ParameterError, shorten

NAME_MAX = 255  # bytes in one file name, on every common file system
TEMP_OVERHEAD = len(".") + len(".cardgen-") + 16 + len(".tmp")
LONGEST_SUFFIX = len("-dieline.png")
MAX_STEM_BYTES = NAME_MAX - TEMP_OVERHEAD - LONGEST_SUFFIX
LOCK_WAIT = 30.0  # seconds to wait for another run to finish writing into a folder
_STALE = re.compile(r"^\..+\.(cardgen-[0-9a-f]{16}|[a-z0-9_]{8})\.(tmp|old)$")


def check_stem(stem: str, parameter: str = "name") -> str:
    """A file-name stem from user data (it gets suffixes such as ``-inside.png``): one
    plain name that stays in the folder asked for. Returns it unchanged."""
    problem = None
    if not stem:
        problem = "must not be empty."
    elif "/" in stem or "\\" in stem or stem in (".", ".."):
        problem = (f"must be a plain file name, not {shorten(stem)}: files are always written "
                   "into the output folder.")
    elif stem.startswith("."):
        problem = f"must not start with a dot ({shorten(stem)} would be a hidden file)."
    elif any(unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp") for ch in stem):
        # C0 and C1 controls, line and paragraph separators, bidirectional and other
        # format characters: a name that would split or reorder a line naming the file
        problem = f"must not contain control characters ({shorten(stem)})."
    elif len(stem.encode("utf-8", "surrogateescape")) > MAX_STEM_BYTES:
        problem = (f"is too long: at most {MAX_STEM_BYTES} bytes, so that the longest file "
                   "name cardgen makes from it still fits the file system.")
    if problem:
        raise ParameterError(parameter, problem, value=stem)
    return stem


def check_folder(folder: Path) -> Path:
    """Check, without creating anything, that ``folder`` is or can become a writable
    folder; the nearest existing ancestor must be a writable folder."""
    probe = folder
    while True:
        try:
            info = probe.stat()
        except (FileNotFoundError, NotADirectoryError):
            if probe.parent == probe:
                break
            probe = probe.parent
            continue
        except OSError as exc:
            raise OutputError(f"output folder {path_text(folder)} cannot be used "
                              f"({exc.strerror}).", value=folder) from None
        start = f"output folder {path_text(folder)}"
        if probe != folder:
            start += f" cannot be created: {path_text(probe)}"
        if not stat.S_ISDIR(info.st_mode):
            raise OutputError(f"{start} is a file, not a folder.", value=folder)
        if not os.access(probe, os.W_OK | os.X_OK):
            raise OutputError(f"{start} is not writable.", value=folder)
        return folder
    return folder


def check_file(path: Path) -> Path:
    """Check, without creating anything and before any work, that ``path`` can be
    written: its folder is or can become a writable folder, and nothing but a regular
    file has its name. Returns it unchanged."""
    check_folder(path.parent)
    _check_target(path)
    return path


def _check_target(path: Path) -> None:
    """The name must be new or a regular file, and short enough for the file system."""
    name_bytes = len(path.name.encode("utf-8", "surrogateescape"))
    if name_bytes + TEMP_OVERHEAD > NAME_MAX:
        raise OutputError(f"cannot write {path_text(path)}: its name is too long for the "
                          f"file system ({name_bytes} bytes).", value=path)
    try:
        info = path.lstat()
    except FileNotFoundError:
        return
    except OSError as exc:
        raise OutputError(f"cannot write {path_text(path)}: {exc.strerror}.", value=path) from None
    if stat.S_ISREG(info.st_mode):
        return
    kind = ("a folder" if stat.S_ISDIR(info.st_mode) else
            "a symbolic link" if stat.S_ISLNK(info.st_mode) else
            "a pipe" if stat.S_ISFIFO(info.st_mode) else
            "a socket" if stat.S_ISSOCK(info.st_mode) else "a device")
    raise OutputError(f"cannot write {path_text(path)}: {kind} of that name is in the way; "
                      "cardgen only replaces regular files.", value=path)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


@contextlib.contextmanager
def _signals_held() -> Iterator[None]:
    """Interrupt and terminate signals wait (are delivered afterwards) meanwhile."""
    if not hasattr(signal, "pthread_sigmask") or (
            threading.current_thread() is not threading.main_thread()):
        yield
        return
    held = {signal.SIGINT, signal.SIGTERM}
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, held)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


@contextlib.contextmanager
def _locked(folders: list[Path]) -> Iterator[None]:
    """Hold an exclusive lock on each folder (in a fixed order, so runs cannot
    deadlock); wait up to LOCK_WAIT seconds for another run to let go."""
    try:
        import fcntl
    except ImportError:  # no flock here: the atomic renames still protect each file
        yield
        return
    fds: list[int] = []
    try:
        for folder in sorted(set(folders)):
            fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
            fds.append(fd)
            deadline = time.monotonic() + LOCK_WAIT
            while True:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if time.monotonic() > deadline:
                        raise OutputError(
                            f"output folder {path_text(folder)} is being written by another "
                            f"cardgen run, which did not finish within {LOCK_WAIT:g} s; try "
                            "again, or write into another folder.", value=folder) from None
                    time.sleep(0.05)
        yield
    finally:
        for fd in fds:
            os.close(fd)  # closing the descriptor releases its lock


def _remove_stale(folder: Path) -> None:
    """Hidden temporary files and backups of earlier runs that were killed. Called while
    the folder is locked, so none of them can belong to a run still going."""
    with contextlib.suppress(OSError):
        for entry in os.scandir(folder):
            if _STALE.match(entry.name) and entry.is_file(follow_symlinks=False):
                with contextlib.suppress(OSError):
                    os.unlink(entry.path)


def _new_temp(path: Path, tag: str) -> Path:
    return path.with_name(f".{path.name}.cardgen-{secrets.token_hex(8)}.{tag}")


def _write_temp(temp: Path, data: bytes, mode: int) -> None:
    """Write ``data`` to the new file ``temp``, flushed to disk, then give it ``mode``."""
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0),
                 0o600)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temp, mode)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise


def _keep_old(path: Path) -> Path:
    """The old version, kept under a hidden name for a rollback (its name stays)."""
    backup = _new_temp(path, "old")
    try:
        os.link(path, backup)
    except OSError:
        shutil.copy2(path, backup)
    return backup


def _sync_folder(folder: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


@dataclass
class _Move:
    path: Path
    temp: Path
    backup: Path | None = None
    inode: tuple[int, int] | None = None  # the new file's (device, inode), once renamed
    done: bool = False


def write_files(files: dict[Path, bytes]) -> list[Path]:
    """Write all files as one set; returns the paths written."""
    for path in files:
        _check_target(path)
    folders = sorted({path.parent for path in files})
    current: Path | None = None
    moves: list[_Move] = []
    try:
        for folder in folders:
            current = folder
            check_folder(folder)
            folder.mkdir(parents=True, exist_ok=True)
        with _locked(folders):
            for folder in folders:
                _remove_stale(folder)
            mask = _umask()
            for path, data in files.items():
                current = path
                _check_target(path)  # again, now that no other run can change it
                try:
                    mode = stat.S_IMODE(path.stat().st_mode)
                except FileNotFoundError:
                    mode = 0o666 & ~mask
                # The temp file's name is on the list before the file exists, so that an
                # interrupt at any moment (even between creating it and noting it) leaves
                # nothing behind: the clean-up removes every name on the list.
                move = _Move(path, _new_temp(path, "tmp"))
                moves.append(move)
                _write_temp(move.temp, data, mode)
            with _signals_held():
                try:
                    for move in moves:
                        current = move.path
                        if move.path.exists():
                            move.backup = _keep_old(move.path)
                        info = move.temp.stat()
                        os.replace(move.temp, move.path)
                        move.inode, move.done = (info.st_dev, info.st_ino), True
                except BaseException:
                    _roll_back(moves)
                    raise
                # Committed: every file is new. The tidying below runs to the end even if
                # something interrupts it, and only then lets that through.
                pending: BaseException | None = None
                steps = [*(lambda f=folder: _sync_folder(f) for folder in folders),
                         *(lambda b=move.backup: os.unlink(b) for move in moves
                           if move.backup is not None)]
                for step in steps:
                    try:
                        step()
                    except OSError:
                        pass
                    except BaseException as exc:
                        pending = pending or exc
                if pending is not None:
                    raise pending
    except OSError as exc:
        for move in moves:
            with contextlib.suppress(OSError):
                os.unlink(move.temp)
        reason = exc.strerror or str(exc)
        if exc.errno == errno.ENAMETOOLONG:
            reason = "its name is too long for the file system"
        raise OutputError(f"cannot write {path_text(current or '')}: {reason}.",
                          value=current) from None
    except BaseException:
        for move in moves:
            with contextlib.suppress(OSError):
                os.unlink(move.temp)
        raise
    return list(files)


def _roll_back(moves: list[_Move]) -> None:
    """Put every old version back and remove what this run created; never touch a file
    that is no longer the one this run wrote."""
    for move in reversed(moves):
        if not move.done:
            for leftover in (move.temp, move.backup):
                if leftover is not None:
                    with contextlib.suppress(OSError):
                        os.unlink(leftover)
            continue
        with contextlib.suppress(OSError):
            info = move.path.lstat()
            if (info.st_dev, info.st_ino) != move.inode:
                continue
            if move.backup is not None:
                os.replace(move.backup, move.path)
            else:
                os.unlink(move.path)
