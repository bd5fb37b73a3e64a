"""Writing output files all-or-nothing.

Every file is first written to a temporary file in its target folder. Only when all of
them are complete are they moved into place; should a move fail, the files already
replaced are put back, so a failed run leaves older output exactly as it was.

Imports only ``cardgen.errors``.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from cardgen.errors import OutputError


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def prepare_folder(folder: Path) -> Path:
    """Create the output folder if needed, or explain why it cannot be used."""
    if folder.exists() and not folder.is_dir():
        raise OutputError(f"output folder {folder} is a file, not a folder.")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(f"output folder {folder} cannot be created ({exc.strerror}).") from None
    if not os.access(folder, os.W_OK | os.X_OK):
        raise OutputError(f"output folder {folder} is not writable.")
    return folder


def _temp_beside(path: Path, tag: str) -> str:
    fd, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=f".{tag}", dir=path.parent)
    os.close(fd)
    return name


def write_files(files: dict[Path, bytes]) -> list[Path]:
    """Write all files as one set; returns the paths written."""
    for path in files:
        if path.is_dir():
            raise OutputError(f"cannot write {path}: a folder of that name is in the way.")
    staged: list[tuple[str, Path]] = []
    moved: list[tuple[Path, str | None]] = []  # target, backup of the older file
    current = None
    try:
        for path, data in files.items():
            current = path
            prepare_folder(path.parent)
            tmp = _temp_beside(path, "tmp")
            staged.append((tmp, path))
            with open(tmp, "wb") as handle:
                handle.write(data)
            os.chmod(tmp, 0o666 & ~_umask())
        for tmp, path in staged:
            current = path
            backup = None
            if path.exists():
                backup = _temp_beside(path, "old")
                os.replace(path, backup)
            moved.append((path, backup))
            os.replace(tmp, path)
    except OSError as exc:
        for path, backup in reversed(moved):
            if backup is not None:
                os.replace(backup, path)
            elif path.exists():
                path.unlink()
        for tmp, _ in staged:
            if os.path.exists(tmp):
                os.unlink(tmp)
        raise OutputError(f"cannot write {current}: {exc.strerror}.") from None
    for _, backup in moved:
        if backup is not None:
            os.unlink(backup)
    return [path for _, path in staged]
