"""The studio's shared state, as every page's handlers see it.

Each page is a module with ``routes(studio) -> list[Route]`` (:mod:`cardgen.studio.card`,
:mod:`cardgen.studio.connector`, :mod:`cardgen.studio.rotator`); the server reaches a page
only through its routes. Static files are served by the server itself from
``cardgen/studio/static/`` at ``/static/NAME`` (a page's HTML links them relatively,
``static/connector.js``, since every URL sits under the token's prefix).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cardgen.api import CardConfig, Files
    from cardgen.api.common import Written


def _no_log(line: str) -> None:
    pass


def asset(name: str) -> bytes:
    """A file of the package's static folder (a page's HTML), by name."""
    return (resources.files("cardgen.studio") / "static" / name).read_bytes()


@dataclass
class Studio:
    """What the pages share.

    Attributes:
        config: the card config file, or None for the built-in example.
        output: the output folder: the only folder the studio writes into.
        name: the stem of the files written (``card`` → ``card.pdf``).
        log: writes one line to the server's log (stderr).
        stopping: set when the server stops: watchers and event streams end.
    """

    config: Path | None
    output: Path
    name: str = "card"
    log: Callable[[str], None] = _no_log
    stopping: threading.Event = field(default_factory=threading.Event, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    _good: CardConfig | None = field(default=None, repr=False)

    _writing: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def write(self, files: Files) -> list[Written]:
        """Write ``files`` into the output folder, all or none, one set at a time; a
        stopping studio waits for a set being written (:meth:`finish_writing`), so that
        it never leaves half of one, and writes no more."""
        from cardgen.studio.http import HttpError

        with self._writing:
            if self.stopping.is_set():
                raise HttpError(503, "the studio is stopping; nothing was written")
            return files.write(self.output)

    def finish_writing(self) -> None:
        """Wait for a set of files being written (the studio is stopping)."""
        with self._writing:
            pass

    wakers: list[Callable[[], None]] = field(default_factory=list, repr=False)

    def wake(self) -> None:
        """Wake every waiting stream and watcher (the studio is stopping)."""
        for waker in self.wakers:
            waker()

    def remember(self, config: CardConfig) -> None:
        """Keep ``config`` as the last config that read without a problem."""
        with self._lock:
            self._good = config

    def last_good_config(self) -> CardConfig:
        """The last config that read without a problem (the card page keeps it current
        as files are saved); read now if none was yet. Raises the config's error."""
        with self._lock:
            good = self._good
        if good is None:
            from cardgen.api import card_config

            good = card_config(self.config)
            self.remember(good)
        return good
