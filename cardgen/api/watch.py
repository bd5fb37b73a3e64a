"""Watching a card's files: what to watch, and the changes as they are saved.

What ``cardgen card --watch`` and ``cardgen studio`` rebuild on::

    from cardgen.api.watch import card_sources, watch_files

    for changed in watch_files(lambda: card_sources(Path("card.toml"))):
        ...  # rebuild: one of the card's files was saved, created, replaced or deleted

The watching is the ``watchfiles`` library's (the operating system's notifications,
through Rust's ``notify``). It watches the *folders* that hold the files, not the files,
so that an editor's save by writing a new file and renaming it over the old one is seen,
as is a file that appears after it was named. Quick saves within :data:`DEBOUNCE_MS`
come as one change.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

__all__ = ["DEBOUNCE_MS", "card_sources", "file_states", "watch_files"]

DEBOUNCE_MS = 60  # saves closer than this are one change (an editor's save is 2–4 events)
STEP_MS = 20  # how often the watcher looks at its events and at the stop event
RECHECK_MS = 200  # the longest the watcher waits without an event before it looks up


def card_sources(config: Path | str | None) -> tuple[Path, ...]:
    """The files a card is built from: its config file, the theme file it names (a
    built-in theme is not a user's file), its portrait and logo, its fonts and its
    colour profile; absolute, in that order, each once.

    Never raises: a config that cannot be read gives the config file alone, so that a
    watcher keeps watching it and sees it fixed. None (the built-in example) gives no
    file.

    Example:
        >>> card_sources(None)
        ()
    """
    if config is None:
        return ()
    path = Path(os.path.abspath(config))
    found: list[Path] = [path]
    try:
        from cardgen.api.card import card_config
        from cardgen.card.themes import builtin_themes, theme_path

        value = card_config(path)
        if value.theme not in builtin_themes():
            found.append(theme_path(value.theme, value.base_dir))
        found.extend(p for p in (value.portrait, value.logo) if p is not None)
        found.extend(value.fonts[style] for style in sorted(value.fonts))
        if value.cmyk_profile is not None:
            found.append(value.cmyk_profile)
    except (ValueError, OSError):  # the config's error is the builder's to report
        pass
    return tuple(dict.fromkeys(Path(os.path.abspath(p)) for p in found))


def _key(path: Path | str) -> str:
    return os.path.normcase(os.path.realpath(path))


def _stamp(key: str) -> tuple[int, int, int, int] | None:
    """What a save changes of a file (None: there is none)."""
    try:
        st = os.stat(key)
    except OSError:
        return None
    return st.st_mtime_ns, st.st_size, st.st_ino, st.st_dev


def file_states(paths: Iterable[Path]) -> dict[str, tuple[int, int, int, int] | None]:
    """What each file is now (its modification time, size, inode and device; None for
    a file that is not there), to give :func:`watch_files` as ``since``: taken before
    the files are read, it makes a save between the reading and the watching count."""
    return {_key(p): _stamp(_key(p)) for p in paths}


def watch_files(sources: Callable[[], Iterable[Path]], stop: threading.Event | None = None,
                *, since: dict[str, tuple[int, int, int, int] | None] | None = None,
                debounce_ms: int = DEBOUNCE_MS) -> Iterator[set[Path]]:
    """The files of ``sources()`` that changed, a set at a time, as they are saved.

    Args:
        sources: what to watch, asked again after every change (a config that names a
            new portrait has it watched from then on).
        stop: ends the watching when set (checked every few milliseconds); None to
            watch until the caller stops iterating, or until Ctrl-C, which raises
            ``KeyboardInterrupt`` in the main thread.
        since: the files' states (:func:`file_states`) when the caller read them: a
            file that differs once the watching runs is the first change. None: as
            they are when the watching starts.
        debounce_ms: changes closer than this come as one set.

    Yields:
        The changed files (created, written, replaced or deleted), as ``sources()``
        names them.

    When the files named come to lie in other folders, the watching starts again on
    those; a file saved meanwhile is found by comparing each file's time, size and
    inode with what they were before, once the new watching runs, so no save is lost.
    """
    import watchfiles

    stopped = stop if stop is not None else threading.Event()
    # What the files were when the caller last read them: ``since`` at first, then the
    # states just before each change is handed over (the caller reads after that).
    known = dict(since) if since is not None else None
    while not stopped.is_set():
        named = {_key(p): Path(p) for p in sources()}
        folders = sorted({os.path.dirname(k) for k in named if os.path.isdir(os.path.dirname(k))})
        if not folders:
            stopped.wait(0.25)  # nothing to watch yet: look again for the folders
            continue
        # A file named since the last change is new to the caller: it counts as changed
        # if it is there once the watching runs (at worst one build too many).
        stamps = ({key: _stamp(key) for key in named} if known is None
                  else {key: known.get(key) for key in named})

        def wanted(change: Any, path: str, named: dict[str, Path] = named) -> bool:
            return _key(path) in named

        started = False
        for changes in watchfiles.watch(*folders, watch_filter=wanted, debounce=debounce_ms,
                                        step=STEP_MS, stop_event=stopped, recursive=False,
                                        rust_timeout=RECHECK_MS, yield_on_timeout=True,
                                        raise_interrupt=True):
            changed = {named[_key(p)] for _, p in changes if _key(p) in named}
            if not started:  # the watcher runs: what changed before it did is missed
                started = True
                changed |= {named[key] for key in named if _stamp(key) != stamps[key]}
            if changed:
                known = file_states(named.values())
                yield changed
            now = {_key(p): Path(p) for p in sources()}
            if {os.path.dirname(k) for k in now} != {os.path.dirname(k) for k in named}:
                break  # files in other folders: watch those
            if now.keys() != named.keys():  # other files in the same folders
                known = file_states(named.values()) if known is None else known
                new = {key: path for key, path in now.items() if key not in named}
                named.clear()
                named.update(now)
                if new and any(_stamp(key) is not None for key in new):
                    yield {path for key, path in new.items() if _stamp(key) is not None}
