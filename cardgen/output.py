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
  temporary files left by runs that were killed are removed while the lock is held:
  only names cardgen makes (``.NAME.cardgen-`` and 16 hexadecimal digits, then ``.tmp``
  or ``.old``), never another hidden file.
- **One folder, held.** Each output folder is opened once, when it is locked, and every
  later step (the checks under the lock, temporary files, renames, links, removals) is
  done relative to that open folder: a folder renamed or swapped for a symbolic link
  meanwhile makes no difference, nothing is written through the link.
- **Only regular files.** An existing folder, device, pipe, socket or symbolic link
  under an output name is refused, never replaced. No two files of a set may have one
  name, nor names that differ only in case (one file on macOS and Windows).
- **The commit ends the run.** The last rename is the commit point
  (:func:`cardgen.interrupt.commit`): a stop signal that comes later no longer stops
  the run.

Imports ``cardgen.datafile``, ``cardgen.errors`` and ``cardgen.interrupt``.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import signal
import stat
import threading
import time
import unicodedata
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from cardgen import interrupt
from cardgen.datafile import path_text
from cardgen.errors import OutputError, ParameterError, RuntimeFault, shorten

NAME_MAX = 255  # bytes in one file name, on every common file system
TEMP_OVERHEAD = len(".") + len(".cardgen-") + 16 + len(".tmp")
LONGEST_SUFFIX = len("-dieline.png")
MAX_STEM_BYTES = NAME_MAX - TEMP_OVERHEAD - LONGEST_SUFFIX
# Write errors that are the machine's, not the input's: a full disk, a quota, an I/O error.
FAULTS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EIO})


class WriteFault(RuntimeFault):
    """Output that could not be written for a reason of the machine's (a full disk, a
    quota, an I/O error), not of where it was asked for: a fault of the run, not an
    input error (see :data:`FAULTS`); every file is left as it was."""


LOCK_WAIT = 30.0  # seconds to wait for another run to finish writing into a folder
# The names of cardgen's own temporary files and backups (see _new_temp), matched whole:
# the clean-up of killed runs removes these and nothing else.
_STALE = re.compile(r"\..+\.cardgen-[0-9a-f]{16}\.(?:tmp|old)", re.DOTALL)


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
            raise OutputError(f"{start} is {_kind(info.st_mode)}, not a folder.", value=folder)
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
    _check_length(path)
    try:
        info = path.lstat()
    except FileNotFoundError:
        return
    except OSError as exc:
        raise OutputError(f"cannot write {path_text(path)}: {exc.strerror}.", value=path) from None
    _check_kind(path, info)


def _check_length(path: Path) -> None:
    """The name, and its temporary file's, must fit the file system."""
    name_bytes = len(path.name.encode("utf-8", "surrogateescape"))
    if name_bytes + TEMP_OVERHEAD > NAME_MAX:
        raise OutputError(f"cannot write {path_text(path)}: its name is too long for the "
                          f"file system ({name_bytes} bytes).", value=path)


def _check_kind(path: Path, info: os.stat_result | None) -> None:
    """What is under an output name must be nothing or a regular file."""
    if info is None or stat.S_ISREG(info.st_mode):
        return
    raise OutputError(f"cannot write {path_text(path)}: {_kind(info.st_mode)} of that name is "
                      "in the way; cardgen only replaces regular files.", value=path)


def _kind(mode: int) -> str:
    """What a file of ``mode`` is, in words: "a file", "a folder", "a device"…"""
    return ("a file" if stat.S_ISREG(mode) else "a folder" if stat.S_ISDIR(mode) else
            "a symbolic link" if stat.S_ISLNK(mode) else "a pipe" if stat.S_ISFIFO(mode) else
            "a socket" if stat.S_ISSOCK(mode) else "a device")


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


# Every step relative to the open folder where the system can (not on Windows).
_AT = {os.open, os.stat, os.unlink, os.rename, os.link, os.utime} <= os.supports_dir_fd


@dataclass
class _Folder:
    """An output folder, opened once: every step below goes through its descriptor
    (``fd``), whatever happens to its path meanwhile. Without descriptors for folders
    (Windows) the steps fall back on the path."""

    path: Path
    fd: int | None = None
    identity: tuple[int, int] | None = None  # (device, inode), once open

    def at(self, name: str) -> str:
        """``name`` for a call given ``dir_fd=self.fd``."""
        return name if self.fd is not None else str(self.path / name)

    def lstat(self, name: str) -> os.stat_result | None:
        try:
            return os.stat(self.at(name), dir_fd=self.fd, follow_symlinks=False)
        except FileNotFoundError:
            return None

    def unlink(self, name: str) -> None:
        os.unlink(self.at(name), dir_fd=self.fd)

    def replace(self, source: str, target: str) -> None:
        os.replace(self.at(source), self.at(target), src_dir_fd=self.fd, dst_dir_fd=self.fd)

    def sync(self) -> None:
        if self.fd is not None:
            os.fsync(self.fd)
            return
        with contextlib.suppress(OSError):
            fd = os.open(self.path, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
            try:
                os.fsync(fd)
            finally:
                os.close(fd)


def _open_folder(path: Path) -> _Folder:
    """The folder opened (a symbolic link that is the folder's own path is followed now,
    once, as the user set it up); a file in its place is refused."""
    folder = _Folder(path)
    if not _AT:
        return folder
    flags = os.O_RDONLY | os.O_DIRECTORY | getattr(os, "O_CLOEXEC", 0)
    try:
        folder.fd = os.open(path, flags)
    except NotADirectoryError:
        raise OutputError(f"output folder {path_text(path)} is not a folder.",
                          value=path) from None
    info = os.fstat(folder.fd)
    folder.identity = (info.st_dev, info.st_ino)
    return folder


def _lock(fd: int, path: Path) -> None:
    """An exclusive lock on the open folder ``fd``, waiting up to LOCK_WAIT seconds."""
    try:
        import fcntl
    except ImportError:  # no flock here: the atomic renames still protect each file
        return
    deadline = time.monotonic() + LOCK_WAIT
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            if time.monotonic() > deadline:
                raise OutputError(
                    f"output folder {path_text(path)} is being written by another cardgen "
                    f"run, which did not finish within {LOCK_WAIT:g} s; try again, or write "
                    "into another folder.", value=path) from None
            time.sleep(0.05)


@contextlib.contextmanager
def _locked(paths: Sequence[Path]) -> Iterator[dict[Path, _Folder]]:
    """Open each folder once and hold an exclusive lock on it (in a fixed order, so runs
    cannot deadlock); wait up to LOCK_WAIT seconds for another run to let go. Yields the
    open folders by path (two paths of one folder share one)."""
    opened: dict[Path, _Folder] = {}
    held: dict[tuple[int, int], _Folder] = {}
    try:
        for path in sorted(set(paths)):
            folder = _open_folder(path)
            if folder.identity is not None and folder.identity in held:
                if folder.fd is not None:  # the same folder by another path: locked already
                    os.close(folder.fd)
                opened[path] = held[folder.identity]
                continue
            opened[path] = folder
            if folder.identity is not None:
                held[folder.identity] = folder
            if folder.fd is not None:
                _lock(folder.fd, path)
        yield opened
    finally:
        for folder in {id(f): f for f in opened.values()}.values():
            if folder.fd is not None:
                os.close(folder.fd)  # closing the descriptor releases its lock


def _remove_stale(folder: _Folder) -> None:
    """Hidden temporary files and backups of earlier runs that were killed: only names
    cardgen makes (:data:`_STALE`). Called while the folder is locked, so none of them
    can belong to a run still going."""
    with contextlib.suppress(OSError):
        names = [entry.name for entry in os.scandir(
            folder.fd if folder.fd is not None else folder.path)
            if _STALE.fullmatch(entry.name) and entry.is_file(follow_symlinks=False)]
        for name in names:
            with contextlib.suppress(OSError):
                folder.unlink(name)


def _new_temp(name: str, tag: str) -> str:
    """A hidden name beside ``name`` that only cardgen makes (see :data:`_STALE`)."""
    return f".{name}.cardgen-{os.urandom(8).hex()}.{tag}"  # (secrets.token_hex(8))


def _write_temp(folder: _Folder, temp: str, data: bytes, mode: int) -> None:
    """Write ``data`` to the new file ``temp``, flushed to disk, then give it ``mode``."""
    fd = os.open(folder.at(temp), os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(
        os, "O_CLOEXEC", 0) | getattr(os, "O_NOFOLLOW", 0), 0o600, dir_fd=folder.fd)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
            if hasattr(os, "fchmod"):
                os.fchmod(handle.fileno(), mode)
        if not hasattr(os, "fchmod"):
            os.chmod(folder.at(temp), mode, dir_fd=folder.fd)
    except BaseException:
        with contextlib.suppress(OSError):
            folder.unlink(temp)
        raise


def _keep_old(folder: _Folder, name: str, info: os.stat_result) -> str:
    """The old version, kept under a hidden name for a rollback (its name stays): a hard
    link, or a copy where links are not possible."""
    backup = _new_temp(name, "old")
    try:
        os.link(folder.at(name), folder.at(backup), src_dir_fd=folder.fd,
                dst_dir_fd=folder.fd, follow_symlinks=False)
    except OSError:
        fd = os.open(folder.at(name), os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0),
                     dir_fd=folder.fd)
        with os.fdopen(fd, "rb") as handle:
            data = handle.read()
        _write_temp(folder, backup, data, stat.S_IMODE(info.st_mode))
        with contextlib.suppress(OSError):
            os.utime(folder.at(backup), ns=(info.st_atime_ns, info.st_mtime_ns),
                     dir_fd=folder.fd)
    return backup


def _key(name: str) -> str:
    """A name as a file system that ignores case (and Unicode normalisation) sees it."""
    return unicodedata.normalize("NFC", name).casefold()


def _check_distinct(files: dict[Path, bytes], folders: dict[Path, _Folder]) -> None:
    """No two files of one set may be one file: not by their path (a folder reached by
    two paths), nor by names that differ only in case (one file on macOS and Windows)."""
    seen: dict[tuple[object, str], Path] = {}
    for path in files:
        folder = folders[path.parent]
        where = folder.identity or str(folder.path)
        other = seen.setdefault((where, _key(path.name)), path)
        if other is not path:
            raise OutputError(f"cannot write both {path_text(other)} and {path_text(path)}: "
                              "they would be one file; give them different names.",
                              value=path)


@dataclass
class _Move:
    path: Path
    temp: str
    folder: _Folder
    backup: str | None = None
    inode: tuple[int, int] | None = None  # the new file's (device, inode), once renamed
    done: bool = False


@dataclass(frozen=True)
class Written:
    """A file a run wrote: its path, and whether a file of that name was there before
    (the run ``replaced`` it) or not (it ``wrote`` a new one). The writer knows which:
    it looks under the folder's lock, when it keeps the old version for a rollback."""

    path: Path
    replaced: bool


def write_files(files: dict[Path, bytes]) -> list[Path]:
    """Write all files as one set; returns the paths written."""
    return [written.path for written in write_set(files)]


def write_set(files: dict[Path, bytes]) -> list[Written]:
    """Write all files as one set (see :func:`write_files`); returns each file written,
    in order, saying whether it replaced an older one."""
    for path in files:
        _check_target(path)
    parents = sorted({path.parent for path in files})
    writing = _Writing()
    try:
        for parent in parents:
            writing.current = parent
            check_folder(parent)
            parent.mkdir(parents=True, exist_ok=True)
        with _locked(parents) as folders:
            try:
                _write_set(files, folders, writing)
            except BaseException:
                _remove_temps(writing.moves)  # while the folders are still open
                raise
    except OSError as exc:
        raise _write_error(exc, writing) from None
    return [Written(move.path, move.backup is not None) for move in writing.moves]


def _write_error(exc: OSError, writing: _Writing) -> OutputError | WriteFault:
    """An operating system's error while writing, as the error of the file it concerns:
    a fault of the machine's (:data:`FAULTS`) or a problem of where it was asked for."""
    reason = exc.strerror or str(exc)
    if exc.errno == errno.ENAMETOOLONG:
        reason = "its name is too long for the file system"
    fault = WriteFault if exc.errno in FAULTS else OutputError
    return fault(f"cannot write {path_text(writing.current or '')}: {reason}.",
                 value=writing.current)


@dataclass
class _Writing:
    """Where a write is: the path being written (for an error) and the files so far."""

    current: Path | None = None
    moves: list[_Move] = field(default_factory=list)


def _write_set(files: dict[Path, bytes], folders: dict[Path, _Folder],
               writing: _Writing) -> None:
    """The set's files written, with the folders open and locked: every step goes
    through them."""
    _check_distinct(files, folders)
    for folder in {id(f): f for f in folders.values()}.values():
        _remove_stale(folder)
    mask = _umask()
    for path, data in files.items():
        _stage(folders[path.parent], path, data, mask, writing)
    _commit(writing)


def _stage(folder: _Folder, path: Path, data: bytes, mask: int, writing: _Writing) -> None:
    """One file of a set written to its temporary file, with the folder open and locked;
    it is renamed into place by :func:`_commit`."""
    writing.current = path
    info = folder.lstat(path.name)  # again, now that no other run can change it
    _check_kind(path, info)
    mode = stat.S_IMODE(info.st_mode) if info is not None else 0o666 & ~mask
    # The temp file's name is on the list before the file exists, so that an
    # interrupt at any moment (even between creating it and noting it) leaves
    # nothing behind: the clean-up removes every name on the list.
    move = _Move(path, _new_temp(path.name, "tmp"), folder)
    writing.moves.append(move)
    _write_temp(folder, move.temp, data, mode)


def _commit(writing: _Writing) -> None:
    """Every staged file renamed into place, the old versions kept until the last rename
    and put back if any rename fails or the run is stopped; then the commit point."""
    moves = writing.moves
    with _signals_held():
        try:
            for move in moves:
                writing.current = move.path
                folder, name = move.folder, move.path.name
                old = folder.lstat(name)
                if old is not None:
                    _check_kind(move.path, old)
                    move.backup = _keep_old(folder, name, old)
                info = folder.lstat(move.temp)
                if info is None:
                    raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT))
                folder.replace(move.temp, name)
                move.inode, move.done = (info.st_dev, info.st_ino), True
            interrupt.commit()  # the commit point (a stop asked for before: roll back)
        except BaseException:
            _roll_back(moves)
            raise
        # Committed: every file is new, and the run is finished. The tidying below runs
        # to the end whatever happens.
        for folder in {id(m.folder): m.folder for m in moves}.values():
            with contextlib.suppress(OSError):
                folder.sync()
        for move in moves:
            if move.backup is not None:
                with contextlib.suppress(OSError):
                    move.folder.unlink(move.backup)


def _remove_temps(moves: list[_Move]) -> None:
    for move in moves:
        if not move.done:
            with contextlib.suppress(OSError):
                move.folder.unlink(move.temp)


def _roll_back(moves: list[_Move]) -> None:
    """Put every old version back and remove what this run created; never touch a file
    that is no longer the one this run wrote."""
    for move in reversed(moves):
        folder, name = move.folder, move.path.name
        if not move.done:
            for leftover in (move.temp, move.backup):
                if leftover is not None:
                    with contextlib.suppress(OSError):
                        folder.unlink(leftover)
            continue
        with contextlib.suppress(OSError):
            info = folder.lstat(name)
            if info is None or (info.st_dev, info.st_ino) != move.inode:
                continue
            if move.backup is not None:
                folder.replace(move.backup, name)
            else:
                folder.unlink(name)


# --- a set staged on disk as it is made --------------------------------------------------


class StagedSet:
    """A set of files written into one folder as they are made, committed at the end
    with :func:`write_set`'s guarantee: see :func:`staged_set`, which makes it."""

    def __init__(self, path: Path, folder: _Folder, writing: _Writing) -> None:
        self._path, self._folder, self._writing = path, folder, writing
        self._mask = _umask()
        self._names: dict[str, Path] = {}  # each name as a case-blind file system sees it
        self._committed = False

    @property
    def folder(self) -> Path:
        """The folder the files go into."""
        return self._path

    @property
    def committed(self) -> bool:
        """Whether :meth:`commit` has put every file in place."""
        return self._committed

    def add(self, name: str, data: bytes) -> Path:
        """Write ``data`` now to a hidden temporary file beside ``name`` (a plain file name
        in the folder), to be renamed into place by :meth:`commit`; the bytes need not be
        kept. Returns the path the file will have. Two files of a set may not be one file
        (one name, or names that differ only in case)."""
        if self._committed:
            raise RuntimeError("the set is committed: no file can be added to it")
        path = self._path / name
        if "/" in name or "\\" in name or name in ("", ".", ".."):
            raise OutputError(f"cannot write {path_text(path)}: a staged file goes "
                              "directly into the output folder.", value=path)
        other = self._names.setdefault(_key(name), path)
        if other is not path:
            raise OutputError(f"cannot write both {path_text(other)} and {path_text(path)}: "
                              "they would be one file; give them different names.",
                              value=path)
        _check_length(path)
        try:
            _stage(self._folder, path, data, self._mask, self._writing)
        except OSError as exc:
            raise _write_error(exc, self._writing) from None
        return path

    def commit(self) -> list[Written]:
        """Rename every file added into place, all of them or none (the older files are
        kept and put back if anything fails or the run is stopped); returns each file
        written, in the order added, saying whether it replaced an older one."""
        if self._committed:
            raise RuntimeError("the set is committed already")
        try:
            _commit(self._writing)
        except OSError as exc:
            raise _write_error(exc, self._writing) from None
        self._committed = True
        return [Written(move.path, move.backup is not None) for move in self._writing.moves]


@contextlib.contextmanager
def staged_set(folder: Path) -> Iterator[StagedSet]:
    """A set of files for ``folder`` whose files are written to disk as they are made
    (:meth:`StagedSet.add`), so that a run of many files never holds them all in
    memory, and renamed into place together by :meth:`StagedSet.commit`.

    The guarantee is :func:`write_set`'s. The folder is created (if missing) and locked
    on entry, and stays locked until the exit: the hidden temporary files of killed runs
    are removed then, and no other run can commit into the folder meanwhile. Until the
    commit every added file is a hidden temporary file (``.NAME.cardgen-….tmp``, the
    names the next run removes if this one is killed). Leaving the block without a
    commit, by an error, Ctrl-C or SIGTERM, removes them and the folders it created:
    nothing is written. ::

        with staged_set(Path("out")) as staged:
            for name, data in made():
                staged.add(name, data)
            written = staged.commit()
    """
    writing = _Writing(current=folder)
    created: list[Path] = []
    staged: StagedSet | None = None
    try:
        try:
            check_folder(folder)
            probe = folder
            while not probe.exists() and probe.parent != probe:
                created.append(probe)
                probe = probe.parent
            folder.mkdir(parents=True, exist_ok=True)
            with _locked([folder]) as folders:
                _remove_stale(folders[folder])
                writing.current = None
                staged = StagedSet(folder, folders[folder], writing)
                try:
                    yield staged
                finally:
                    _remove_temps(writing.moves)  # (every one, unless committed)
        except OSError as exc:
            if staged is not None:
                raise  # not the writer's: the caller's own error
            raise _write_error(exc, writing) from None
    finally:
        if staged is None or not staged.committed:
            for made in created:  # the deepest first; only if still empty
                with contextlib.suppress(OSError):
                    made.rmdir()
