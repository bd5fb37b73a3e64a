"""A cache, between runs, of what cardgen works out from its bundled fonts.

Reading the bundled fonts' tables and the extents of their glyphs took some 0.15 s of a
cold ``cardgen card`` and imported fontTools. What comes out of it depends only on the
font file and on the code that reads it, so it is worked out once and kept in a file per
font in the user's cache folder, as matplotlib keeps its font list:

* the folder is ``$CARDGEN_CACHE_DIR`` when that is set (empty: no cache at all), else
  the platform's cache folder: ``$XDG_CACHE_HOME/cardgen`` or ``~/.cache/cardgen``
  (Linux and other Unixes), ``~/Library/Caches/cardgen`` (macOS),
  ``%LOCALAPPDATA%\\cardgen\\Cache`` (Windows); the entries are in its ``fonts``
  folder, one file per font, named by the font's SHA-256;
* an entry is used only when its header names the same key (the font file's SHA-256,
  the cache format and the identity of the code that computed it, see
  :func:`cardgen.text.fonts.load_metrics`) and the SHA-256 of its body matches the one
  in its header; anything else (a stale entry, a damaged or truncated one, another
  program's file, one too large, anything but a regular file, such as a pipe that would
  never end) is ignored, computed afresh and written over;
* it is written atomically (a temporary file in the same folder, then renamed), so a
  reader never sees half a file, and two processes writing at once leave one whole file;
* a folder that cannot be made or written to is no error: cardgen then works as it did
  without the cache, reading the fonts every run.

An entry's body is JSON (never unpickled or executed), checked field by field by its
reader. The cache guards against damage, not against someone who can write to the
user's files: they could equally change cardgen itself.

Imports nothing from cardgen but the guarded reader of input files
(:func:`cardgen.datafile.read_input`: regular files only, opened without blocking, size
capped).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sys
from pathlib import Path
from typing import Any

from cardgen.datafile import read_input

ENV = "CARDGEN_CACHE_DIR"
FORMAT = 1  # the layout of an entry; bump it when that changes
MAX_ENTRY_BYTES = 8_000_000  # an entry larger than this is not read
_FOLDER = "fonts"


def cache_dir() -> Path | None:
    """The folder of cardgen's cache, or None when there is none (``CARDGEN_CACHE_DIR``
    set empty, or no home folder to put it in)."""
    chosen = os.environ.get(ENV)
    if chosen is not None:
        return Path(chosen).expanduser() if chosen.strip() else None
    try:
        if sys.platform == "win32":
            local = os.environ.get("LOCALAPPDATA")
            base = Path(local) if local else Path.home() / "AppData" / "Local"
            return base / "cardgen" / "Cache"
        if sys.platform == "darwin":
            return Path.home() / "Library" / "Caches" / "cardgen"
        xdg = os.environ.get("XDG_CACHE_HOME", "")
        base = Path(xdg) if os.path.isabs(xdg) else Path.home() / ".cache"
        return base / "cardgen"
    except (RuntimeError, KeyError, OSError):  # no home folder
        return None


def entry_path(name: str) -> Path | None:
    """Where the entry ``name`` (a font's SHA-256 in hex) is kept, or None without a
    cache."""
    folder = cache_dir()
    return None if folder is None else folder / _FOLDER / f"{name}.json"


def writable(name: str) -> bool:
    """Whether the entry ``name`` can be written (its folder made if need be)."""
    path = entry_path(name)
    if path is None:
        return False
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError:
        return False
    return os.access(path.parent, os.W_OK | os.X_OK)


def load(name: str, key: dict[str, Any]) -> Any:
    """The body of entry ``name`` when its header holds ``key`` and the body is whole,
    as parsed JSON; None otherwise (no cache, no entry, stale, damaged)."""
    path = entry_path(name)
    if path is None:
        return None
    try:
        raw = read_input(path, "font cache entry", max_bytes=MAX_ENTRY_BYTES)
        head, newline, body = raw.partition(b"\n")
        if not newline:
            return None
        header = json.loads(head.decode("utf-8"), parse_constant=_refuse)
        if (not isinstance(header, dict) or header.get("format") != FORMAT
                or header.get("key") != key
                or header.get("sha256") != hashlib.sha256(body).hexdigest()):
            return None
        return json.loads(body.decode("utf-8"), parse_constant=_refuse)
    except (OSError, ValueError, RecursionError, MemoryError):  # ValueError: InputFileError too
        return None


def store(name: str, key: dict[str, Any], body: Any) -> None:
    """Write entry ``name`` (atomically); nothing happens when it cannot be written."""
    import tempfile  # (only to write: a run that reads the cache does without it)

    path = entry_path(name)
    if path is None:
        return
    temporary = None
    try:
        data = json.dumps(body, separators=(",", ":"), allow_nan=False).encode("utf-8")
        header = json.dumps({"format": FORMAT, "key": key,
                             "sha256": hashlib.sha256(data).hexdigest()},
                            separators=(",", ":"), allow_nan=False).encode("utf-8")
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(prefix=f".{name[:16]}-", suffix=".tmp",
                                             dir=path.parent)
        with os.fdopen(handle, "wb") as file:
            file.write(header + b"\n" + data)
        os.replace(temporary, path)
        temporary = None
    except (OSError, ValueError):  # a folder that cannot be written; no number JSON holds
        pass
    finally:
        if temporary is not None:
            with contextlib.suppress(OSError):
                os.unlink(temporary)


def _refuse(constant: str) -> Any:
    """JSON's NaN and infinities are no numbers an entry holds."""
    raise ValueError(f"{constant} in a cache entry")
