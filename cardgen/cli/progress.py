"""One progress line on stderr for every long command: ``cards 37/100  elapsed 0:12
ETA 0:20  [#####....]``.

- **Only on a terminal.** Nothing at all unless stderr is a terminal, and nothing with
  ``--json`` or ``-q``: a pipe, a log file or a script sees exactly what it would see
  without it.
- **Soon, and kept fresh.** The line is drawn when the work starts, redrawn when a step
  is done (at most every :data:`MIN_GAP` seconds, and always when a stage starts or
  ends), and by a background thread once it is :data:`EVERY` seconds old (looked at
  every :data:`TICK` seconds, so about every second), so that the elapsed time moves on
  while one slow item runs.
- **Cleared at the end.** It is one line, rewritten in place with a carriage return and
  never wider than the terminal; when the work ends (done, an error, Ctrl-C) it is
  blanked, so that the ``wrote`` lines, warnings and errors that follow start on a clean
  line, as they would in a pipe.
- **Stages.** A command that works in stages (lay out the cards, then draw them) starts
  each with :meth:`Progress.stage`; ``k/N`` and the ETA are the stage's, the elapsed time
  the command's.

The clock is injectable (``clock=``) and the background thread optional, so that tests
drive it with a fake clock and count draws instead of waiting. Plain ASCII and no escape
sequences, so that any terminal shows it (rich's progress bar costs 20 ms of imports
and draws its own way; this needs none).
"""

from __future__ import annotations

import contextlib
import math
import os
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from typing import TextIO, TypeVar

FIRST = 0.0  # seconds from the start to the first draw (the contract: at most 2)
EVERY = 1.0  # seconds between two draws at most while the work goes on (contract: 5)
MIN_GAP = 0.2  # seconds between two draws at least, however fast the steps come
TICK = 0.25  # how often the background thread looks at the clock
BAR = 30  # the widest bar, in characters; the narrowest drawn is MIN_BAR
MIN_BAR = 10
DEFAULT_WIDTH = 80

Clock = Callable[[], float]
T = TypeVar("T")


def duration(seconds: float) -> str:
    """``0:07``, ``12:04``, ``1:02:03``: whole seconds (rounded down)."""
    whole = max(0, int(seconds))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def eta(elapsed: float, done: int, total: int) -> float | None:
    """Seconds left at the pace so far: ``elapsed`` for ``done`` of ``total`` steps;
    None before the first step (no pace yet). Rounded up to a second, so that it says
    0:00 only when nothing is left."""
    if done <= 0:
        return None
    left = max(0, total - done)
    return float(math.ceil(elapsed / done * left)) if left else 0.0


def terminal_width(stream: TextIO) -> int:
    """The terminal's columns: ``COLUMNS`` when set (as the shell and the help screens
    read it), else the terminal's own size, else 80."""
    with contextlib.suppress(ValueError):
        columns = int(os.environ.get("COLUMNS", ""))
        if columns > 0:
            return columns
    try:
        return os.get_terminal_size(stream.fileno()).columns or DEFAULT_WIDTH
    except (OSError, ValueError, AttributeError):  # (io.UnsupportedOperation too)
        return DEFAULT_WIDTH


class Progress:
    """The progress line of one command. Use it as a context manager (or call
    :meth:`start` and :meth:`close`); every method is safe to call from the command's
    thread while the background thread redraws. With ``stream=None`` it draws nothing
    (a pipe, ``--json``, ``-q``) and costs nothing."""

    def __init__(self, label: str, total: int | None = None, *, stream: TextIO | None,
                 clock: Clock = time.monotonic, background: bool = True,
                 width: int | None = None, since: Progress | None = None) -> None:
        self.stream = stream
        self.clock = clock
        self.background = background and stream is not None
        self.width = width
        self.label = label
        self.total = total
        self.done = 0
        self.note = ""
        self.draws = 0  # how many times the line was drawn (for tests)
        self._lock = threading.Lock()
        self._started = self._stage_started = self._drawn_at = 0.0
        self._since = since  # an earlier line of the same command: its start is this one's
        self._shown = 0  # the length of the line on screen, 0 when none is
        self._running = False
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    # --- the command's side -----------------------------------------------------------

    def start(self) -> Progress:
        with self._lock:
            self._started = self._stage_started = self.clock()
            if self._since is not None and self._since._started:
                self._started = self._since._started
            self._running = True
            self._draw_if(force=FIRST <= 0)
        if self.background:
            self._thread = threading.Thread(target=self._refresh, name="cardgen-progress",
                                            daemon=True)
            self._thread.start()
        return self

    def stage(self, label: str, total: int | None = None) -> None:
        """A new stage of the work: its own ``k/N`` and ETA, from 0."""
        with self._lock:
            self.label, self.total, self.done, self.note = label, total, 0, ""
            self._stage_started = self.clock()
            self._draw_if(force=True)

    def update(self, done: int, total: int | None = None, note: str | None = None) -> None:
        """``done`` steps of the stage's ``total`` (given here when the command learns
        it only now); ``note`` says more (``63 maps tried``)."""
        with self._lock:
            if total is not None:
                self.total = total
            if note is not None:
                self.note = note
            self.done = done
            finished = self.total is not None and done >= self.total
            self._draw_if(force=finished, gap=MIN_GAP)

    def advance(self, steps: int = 1, note: str | None = None) -> None:
        self.update(self.done + steps, note=note)

    def each(self, items: Iterable[T]) -> Iterator[T]:
        """``items``, one step each: a step is done when the next item is asked for."""
        for item in items:
            yield item
            self.advance()

    def poll(self) -> None:
        """Redraw if the line is older than :data:`EVERY` (what the background thread
        does every :data:`TICK`; tests call it themselves)."""
        with self._lock:
            self._draw_if(gap=EVERY)

    @contextlib.contextmanager
    def paused(self) -> Iterator[None]:
        """The line blanked meanwhile, so that the command can say something (its
        warnings) on lines of their own; drawn again after."""
        with self._lock:
            self._running = False
            self._blank()
        try:
            yield
        finally:
            with self._lock:
                self._running = not self._stop.is_set()
                self._draw_if(force=True)

    def close(self) -> None:
        """Stop redrawing and blank the line, leaving the cursor where it started."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
            self._thread = None
        with self._lock:
            self._running = False
            self._blank()

    def _blank(self) -> None:
        """The line on screen blanked (the lock held)."""
        if self._shown and self.stream is not None:
            with contextlib.suppress(OSError, ValueError):
                self.stream.write("\r" + " " * self._shown + "\r")
                self.stream.flush()
        self._shown = 0

    def __enter__(self) -> Progress:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- drawing ----------------------------------------------------------------------

    def line(self, now: float, width: int) -> str:
        """The text of the line at ``now``, at most ``width - 1`` characters (the last
        column stays free: a full line makes some terminals wrap)."""
        room = max(1, width - 1)
        elapsed = f"elapsed {duration(now - self._started)}"
        if self.total is None:
            label, figures = self.label + "  ", elapsed
        else:
            left = eta(now - self._stage_started, self.done, self.total)
            label = self.label + " "
            figures = (f"{self.done}/{self.total}  {elapsed}  "
                       f"ETA {duration(left) if left is not None else '-:--'}")
        if len(label) + len(figures) > room:  # narrow: the label gives way to the figures
            keep = room - len(figures) - len(" ")
            label = self.label[:keep - 3] + "... " if keep >= 4 else ""
        text = label + figures
        if self.note and len(text) + len(self.note) + 4 <= room:
            text += f"  ({self.note})"  # (the first thing left out on a narrow line)
        spare = room - len(text) - 4  # "  [" and "]"
        if self.total and spare >= MIN_BAR:
            size = min(BAR, spare)
            filled = min(size, size * self.done // self.total)
            text += f"  [{'#' * filled}{'.' * (size - filled)}]"
        if len(text) <= room:
            return text
        return text[:room - 3] + "..." if room > 3 else text[:room]

    def _draw_if(self, *, force: bool = False, gap: float = EVERY) -> None:
        """Draw the line now if it is due (the lock held)."""
        if self.stream is None or not self._running:
            return
        now = self.clock()
        if self.draws == 0:
            due = force or now - self._started >= FIRST
        else:
            due = force or now - self._drawn_at >= gap
        if not due:
            return
        width = self.width or terminal_width(self.stream)
        text = self.line(now, width)
        try:
            # Spaces blank what is left of a longer line before it.
            self.stream.write("\r" + text + " " * max(0, self._shown - len(text)))
            self.stream.flush()
        except (OSError, ValueError):  # the terminal went away: the work goes on
            self.stream = None
            return
        self._shown = len(text)
        self._drawn_at = now
        self.draws += 1

    def _refresh(self) -> None:
        while not self._stop.wait(TICK):
            self.poll()


_quiet_switch: list[Callable[[], bool]] = []  # how -q is read, once one is given


def read_quiet(switch: Callable[[], bool] | None) -> None:
    """How to read the ``-q`` switch: :mod:`cardgen.cli.common` gives its ``quiet()``
    here (this module imports nothing of the command line, which imports it). None
    forgets it: never quiet."""
    _quiet_switch[:] = [switch] if switch is not None else []


def shown(*, json: bool = False, quiet: bool | None = None, show: bool = True,
          stream: TextIO | None = None) -> TextIO | None:
    """Where the progress goes: stderr (or ``stream``) when it is a terminal and
    neither ``--json`` nor ``-q`` was given (and the command wants it ``show``n), else
    nowhere (None). ``quiet`` None reads the switch given to :func:`read_quiet`."""
    target = stream if stream is not None else sys.stderr
    if quiet is None:
        quiet = any(switch() for switch in _quiet_switch)
    if not show or json or quiet:
        return None
    try:
        return target if target is not None and target.isatty() else None
    except (OSError, ValueError, AttributeError):
        return None


@contextlib.contextmanager
def progress(label: str, total: int | None = None, *, json: bool = False,
             quiet: bool | None = None, show: bool = True,
             since: Progress | None = None) -> Iterator[Progress]:
    """The progress line of a command, shown only where it should be (see
    :func:`shown`), started now and cleared when the block ends, however it ends. A
    line ``since`` an earlier one (the command said something in between) counts the
    elapsed time from that one's start."""
    stream = shown(json=json, quiet=quiet, show=show)
    with Progress(label, total, stream=stream, since=since) as line:
        yield line
