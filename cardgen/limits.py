"""A time limit for work on untrusted input (parsing a user's font, say) that might
never end.

:func:`time_limit` uses a real-time interval timer (``SIGALRM``), so it can interrupt
pure-Python loops and most library code. It only works in the main thread of a process
on a system that has the timer; anywhere else it lets the work run without a limit.

Imports nothing from cardgen.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType


class TimeLimitExceeded(Exception):
    """The work did not finish within its time limit."""


def _can_limit() -> bool:
    return (hasattr(signal, "setitimer") and hasattr(signal, "SIGALRM")
            and threading.current_thread() is threading.main_thread())


@contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Raise :class:`TimeLimitExceeded` inside the ``with`` block after ``seconds``.
    Nested limits are not supported: an outer timer is suspended meanwhile and restored
    (without the time spent inside) afterwards."""
    if not _can_limit():
        yield
        return

    def expire(signum: int, frame: FrameType | None) -> None:
        raise TimeLimitExceeded(f"took longer than {seconds:g} s")

    previous = signal.signal(signal.SIGALRM, expire)
    outer = signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        if outer[0] > 0:
            signal.setitimer(signal.ITIMER_REAL, *outer)
