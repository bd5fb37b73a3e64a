"""Stopping a run by a signal, and the exit contract around the commit.

Every run either exits 0 with all its files new, or is stopped by Ctrl-C (SIGINT) or
SIGTERM with one line, ``interrupted`` (exit status 130) or ``terminated`` (143), and
all its files old:

- **From the first moment.** The console entry point (``cardgen.__main__.main``)
  installs the handlers (:func:`install`) before it imports anything else, so a signal
  that comes while the command line is still being imported stops the run in the same
  way.
- **Once.** The first signal raises :class:`Interrupted`, which unwinds the run (the
  output writing rolls back, worker processes stop). Later signals are ignored, so that
  nothing interrupts the clean-up or the line that says why the run stopped.
- **The commit ends it.** Once a set of files is committed (every file renamed into
  place, see :mod:`cardgen.output`), the run is finished: a signal that comes later
  (one held back during the renames included) is ignored, and the run exits 0. A stop
  that was asked for before the commit but swallowed on its way (a handler's exception
  raised inside a finaliser is only printed) rolls the commit back instead.
- **Unless it serves.** A command that runs until it is stopped (:func:`serving`)
  commits many sets: for it a commit ends nothing, and the signal does.
- **Until the exit.** When the outcome is settled, the handlers stay in place, and the
  entry point ignores the signals (:func:`ignore`) for the interpreter's shutdown, when
  Python would put the default handlers back.

Imports only the standard library: it is loaded before anything heavy.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

STOPPING_SIGNALS = {signal.SIGINT: ("interrupted", 130), signal.SIGTERM: ("terminated", 143)}


class Interrupted(BaseException):
    """A signal asked the run to stop: raised by the handler this module installs, so
    that output writing and worker processes clean up on the way out."""

    def __init__(self, word: str, status: int) -> None:
        super().__init__(word)
        self.word, self.status = word, status


class _State:
    stop: Interrupted | None = None  # the first signal's stop, once one came
    settled = False  # the outcome is decided: signals are ignored from now on
    serving = 0  # inside serving(): a commit does not end the run


_state = _State()


def _handler(signum: int, frame: FrameType | None) -> None:
    if _state.settled:
        return
    word, status = STOPPING_SIGNALS[signal.Signals(signum)]
    _state.stop, _state.settled = Interrupted(word, status), True
    raise Interrupted(word, status)


def begin() -> None:
    """A new run: nothing settled yet."""
    _state.stop, _state.settled = None, False


def settle() -> None:
    """The run's outcome is decided (its error is about to be said, or it ended):
    signals that come from now on are ignored."""
    _state.settled = True


def commit() -> None:
    """Called at the commit point, with the stopping signals held back: from here the
    run is finished. A stop asked for earlier (and swallowed) raises instead, so that the
    caller rolls back."""
    if _state.stop is not None and _installed():
        raise Interrupted(_state.stop.word, _state.stop.status)
    if not _state.serving:
        _state.settled = True


@contextmanager
def serving() -> Iterator[None]:
    """A command that runs until it is stopped (``cardgen studio``, ``cardgen card
    --watch``) and commits sets of files meanwhile: a commit does not end the run, so the
    next Ctrl-C still stops it (130). Each set is still all or nothing: the command waits
    for a commit in progress before it exits."""
    _state.serving += 1
    try:
        yield
    finally:
        _state.serving -= 1


def _installed() -> bool:
    return all(signal.getsignal(signum) is _handler for signum in STOPPING_SIGNALS)


@contextmanager
def handling() -> Iterator[None]:
    """Ctrl-C and SIGTERM raise :class:`Interrupted` meanwhile (main thread only); the
    handlers a caller had are put back afterwards, unless :func:`install` put these."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    begin()
    previous = {} if _installed() else {
        signum: signal.signal(signum, _handler) for signum in STOPPING_SIGNALS}
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        if previous:
            begin()  # the next run in this process (or a library call) starts afresh


def install() -> None:
    """The handlers, for the whole process (the console entry point's first step)."""
    begin()
    for signum in STOPPING_SIGNALS:
        signal.signal(signum, _handler)


def ignore() -> None:
    """Stop signals ignored from now on: the run's outcome is settled and it exits
    (Python would put the default handlers back for its shutdown)."""
    for signum in STOPPING_SIGNALS:
        signal.signal(signum, signal.SIG_IGN)
