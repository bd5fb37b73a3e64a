"""``cardgen card --watch``: the card's files made, then made again on every save.

What it watches is what the card reads: the config file and every file it names (a
theme file, the portrait, the logo, fonts, an ICC profile), and the theme file of
``--theme`` (see :func:`cardgen.api.watch.card_sources`); the folders they are in are
watched, so that a file an editor saves by writing a new one and renaming it over the
old, one that vanishes and comes back, and one the config names only after an edit are
all seen. Several saves close together make one build (the library's debounce, and the
saves that come while a build runs joined into the next).

- **The first build** says what ``cardgen card`` says (a ``wrote``/``replaced`` line
  per file, the warnings, the Corporate Ladder line), then ``watching ...`` on stderr.
- **Each rebuild** is one line on stdout: the time, the file that changed, how many
  files were replaced and where, the Corporate Ladder line (its warnings before it on
  stderr, as ``warning:`` lines).
- **A broken save** (bad TOML, a missing portrait, a name too long) is its one
  ``error:`` line on stderr; nothing is written, so the files of the last good build
  stay as they were, and the watch goes on until a save mends it.
- **Ctrl-C** ends it: exit 130, ``interrupted``, and a build it cuts short writes
  nothing (the files are written all or none, as ever); one that comes while a set is
  renamed into place waits for the set to be whole. A build's commit does not end the
  run (:func:`cardgen.interrupt.serving`).
- **--json** prints JSON lines: an object per build, on one line each, as soon as the
  build ends: ``{"changed": [...], "files": [...], "warnings": [...], "ladder": ...}``,
  or ``{"changed": [...], "error": {"code", "field", "message"}}``; the run's own
  object (``{"error": {"code": "general.interrupted", ...}}`` at Ctrl-C) is the last
  line.

The options are read once, when it starts (an option's error ends it, as for
``cardgen card``); the files are read again for every build.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from cardgen.cli.common import (
    UsageError,
    emit_now,
    fresh_report,
    json_lines,
    plural,
    quiet,
    report,
    shown_folder,
    shown_path,
    staged,
    warn,
)
from cardgen.cli.progress import progress
from cardgen.errors import CardgenError, RuntimeFault, one_line
from cardgen.interrupt import serving

if TYPE_CHECKING:
    import threading

    from cardgen.api.card import CardResult
    from cardgen.api.common import Progress, Written

Make = Callable[["Progress | None"], "CardResult"]  # a build: the card, told how it goes


def check_watch(config: Path | None, *, batch: Path | None) -> None:
    """``--watch`` as typed: a usage error (exit 2) when there is no config file to
    watch (none given: the built-in example never changes; ``-``, standard input, is
    read once) or with ``--batch`` (a card per row of a table, not one card)."""
    if batch is not None:
        raise UsageError("--watch makes one card's files again when its files change, and "
                         "--batch makes a card for every row of a table; leave out one of "
                         "them.", field="--watch")
    if config is None or str(config) == "-":
        given = ("no CONFIG is given (the built-in example never changes)" if config is None
                 else "CONFIG - would be standard input, which is read once")
        raise UsageError(f"--watch makes the files again when the config file changes, and "
                         f"{given}; name a config file (cardgen init my-card.toml writes "
                         "one).", field="--watch", value=config)


def watch_card(config: Path, output: Path, make: Make, *, theme: str | None,
               json_out: bool, stop: threading.Event | None = None) -> None:
    """Build, then build again after each change of the card's files, until Ctrl-C (or
    ``stop`` is set). The config must be there when it starts (one that does not exist
    or is not a file is said as ``cardgen card`` says it, and nothing is watched); what
    is wrong in it is said and waited out, as for every later save."""
    from cardgen.api.card import card_config

    if not config.is_file():
        card_config(config)  # says why it cannot be read, in cardgen card's words
    watch = CardWatch(config, output, make, theme=theme, json_out=json_out)
    if json_out:
        json_lines()
    with serving():  # each build's commit ends nothing; Ctrl-C does
        for changed in _changes(watch.sources, stop):
            watch.build(changed)
            if watch.builds == 1 and not quiet():
                others = len(set(watch.sources()) - {_absolute(config)})
                typer.echo(one_line(f"watching {config}" + (
                    f" and {plural(others, 'file')} it names" if others else "")
                    + " for changes; Ctrl-C stops."), err=True)


class CardWatch:
    """One watch: its sources and its builds (see the module's docstring)."""

    def __init__(self, config: Path, output: Path, make: Make, *, theme: str | None,
                 json_out: bool) -> None:
        self.config, self.output, self.make = config, output, make
        self.json = json_out
        self.builds = 0
        self.theme_file = _theme_file(theme, config)

    def sources(self) -> tuple[Path, ...]:
        """The files a build reads: the config's (:func:`card_sources`; the config alone
        while it cannot be read) and the ``--theme`` file."""
        from cardgen.api.watch import card_sources

        named = card_sources(self.config)  # (never raises: the config alone, unread)
        return named + tuple(path for path in self.theme_file if path not in named)

    def build(self, changed: set[Path]) -> bool:
        """Make the card and write its files, all or none, and say so (the first build
        as ``cardgen card`` does, every later one in one line); an error of the input,
        or of the disk, is said in its line and nothing is written. Returns whether the
        files were written."""
        from cardgen.cli import said

        first, self.builds = self.builds == 0, self.builds + 1
        fresh_report()
        names = [_shown_source(path) for path in sorted(changed)]
        try:
            with progress("laying out the card", json=self.json) as shown:
                result = self.make(staged(shown))
            written = result.files.write(self.output)
        except (CardgenError, RuntimeFault) as exc:
            line, error = said(exc)
            typer.echo(line, err=True)
            if self.json:
                emit_now({"changed": names, **error})
            return False
        warn(result.warnings)
        if self.json:
            emit_now({"changed": names, "files": [
                {"path": shown_path(item.path), "replaced": item.replaced}
                for item in written], "warnings": list(result.warnings),
                "ladder": result.ladder.as_json() if result.ladder else None})
        elif first:
            report(written)
            if result.ladder_line is not None:
                typer.echo(result.ladder_line)
        else:
            typer.echo(self._rebuilt(names, written, result.ladder_line))
        return True

    def _rebuilt(self, names: list[str], written: list[Written], ladder: str | None) -> str:
        """The line of a rebuild: ``14:02:07 card.toml changed: replaced 6 files in
        output; Corporate Ladder: ...``."""
        what = ("files" if not names else names[0] if len(names) == 1 else
                f"{names[0]} and {names[1]}" if len(names) == 2 else
                f"{names[0]} and {len(names) - 1} other files")
        replaced = sum(item.replaced for item in written)
        made = [f"wrote {plural(len(written) - replaced, 'file')}"] if replaced < len(
            written) else []
        if replaced:
            made.append(f"replaced {plural(replaced, 'file')}")
        done = ("made again" if quiet() else
                f"{' and '.join(made)} in {shown_folder(self.output)}")
        tail = f"; {ladder}" if ladder is not None else ""
        return one_line(f"{time.strftime('%H:%M:%S')} {what} changed: {done}{tail}")


def _theme_file(theme: str | None, config: Path) -> tuple[Path, ...]:
    """The file ``--theme`` names, as the card reads it (relative to the config's
    folder), to watch; none for a built-in theme's name."""
    if theme is None or not theme.strip():
        return ()
    candidate = Path(theme)
    with contextlib.suppress(RuntimeError, KeyError, OSError):  # no such home: as written
        candidate = candidate.expanduser()
    if not candidate.is_absolute():
        candidate = _absolute(config).parent / candidate
    try:
        named = bool(candidate.suffix) or candidate.exists()
    except (OSError, ValueError):
        return ()
    return (candidate,) if named else ()


def _absolute(path: Path) -> Path:
    """``path`` made absolute as :func:`card_sources` makes its paths (links kept)."""
    return Path(os.path.abspath(path))


def _shown_source(path: Path) -> str:
    """A changed file as the user knows it: relative to the working folder when it is
    in it, else as it is; on one line."""
    try:
        shown = path.relative_to(os.getcwd())
    except ValueError:
        shown = path
    return one_line(str(shown))


def _changes(sources: Callable[[], Iterable[Path]],
             stop: threading.Event | None = None) -> Iterator[set[Path]]:
    """The builds to make: first an empty set (the first build), then each set of
    changed files, until ``stop`` is set.

    The watching is :func:`cardgen.api.watch.watch_files`', in a thread of its own,
    started before the first build so that a save during it is seen: the main thread
    waits on a queue, where Ctrl-C reaches it at once (the watching library would catch
    the signal and stop on its own terms), and what came while a build ran is joined
    into one set. The files' states before the first build are the watching's start
    (``since``), so a save between the two is a change too."""
    import queue
    import threading

    from cardgen.api.watch import file_states, watch_files

    ending = threading.Event()
    waiting: queue.SimpleQueue[set[Path] | BaseException | None] = queue.SimpleQueue()

    since = file_states(sources())

    def watch() -> None:
        _signals_to_the_main_thread()
        try:
            for changed in watch_files(sources, ending, since=since):
                waiting.put(set(changed))
        except BaseException as exc:  # said in the main thread
            waiting.put(exc)
        else:
            waiting.put(None)

    thread = threading.Thread(target=watch, name="cardgen-watch", daemon=True)
    thread.start()
    try:
        changed: set[Path] = set()
        while True:
            yield changed
            changed = set()
            while not changed:
                if stop is not None and stop.is_set():
                    return
                try:
                    item = waiting.get(timeout=_LOOK)
                except queue.Empty:
                    continue
                while True:
                    if item is None:
                        if changed:
                            yield changed
                        return
                    if isinstance(item, BaseException):
                        raise item
                    changed |= item
                    try:
                        item = waiting.get_nowait()
                    except queue.Empty:
                        break
    finally:
        ending.set()
        thread.join(timeout=_JOIN)


def _signals_to_the_main_thread() -> None:
    """Ctrl-C and SIGTERM blocked in this thread, and in the threads it starts (the
    watching library's): the system gives a process's signal to a thread that does not
    block it, and the main thread holds them back while a build's files are renamed
    into place (see :mod:`cardgen.output`), which a signal taken by another thread
    would not wait for."""
    import signal

    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})


_LOOK = 0.2  # seconds between two looks at ``stop`` while nothing comes
_JOIN = 5.0  # seconds the watching thread is given to end (it looks every 20 ms)
