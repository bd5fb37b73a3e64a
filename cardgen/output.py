"""Writing output files all-or-nothing.

Every file is first written to a temporary file in the target folder; only when all of
them are complete are they renamed into place. A failed run leaves older files intact.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from cardgen.errors import CardgenError


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def prepare_folder(folder: Path) -> Path:
    """Create the output folder if needed, or explain why it cannot be used."""
    if folder.exists() and not folder.is_dir():
        raise CardgenError(f"output folder {folder} is a file, not a folder.")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise CardgenError(f"output folder {folder} cannot be created ({exc.strerror}).") from None
    if not os.access(folder, os.W_OK | os.X_OK):
        raise CardgenError(f"output folder {folder} is not writable.")
    return folder


def write_files(files: dict[Path, bytes]) -> list[Path]:
    """Write all files atomically as a set; returns the paths written."""
    staged: list[tuple[str, Path]] = []
    try:
        for path, data in files.items():
            prepare_folder(path.parent)
            fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
            staged.append((tmp, path))
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
            os.chmod(tmp, 0o666 & ~_umask())
        for tmp, path in staged:
            os.replace(tmp, path)
    except OSError as exc:
        for tmp, _ in staged:
            if os.path.exists(tmp):
                os.unlink(tmp)
        target = exc.filename or (staged[-1][1] if staged else "output")
        raise CardgenError(f"cannot write {target}: {exc.strerror}.") from None
    return [path for _, path in staged]
