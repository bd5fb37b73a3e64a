"""A task over a few items in worker processes, the answers in the items' order: what
``Solver.solve`` uses to search a board's ten starts side by side (``rotator solve
--jobs``). Its safety is the generator's workers' (generator.py takes the helpers below
from here): the stop signals blocked while a worker starts, SIGINT left to this process,
a worker that dies with this process on Linux and one that dies on its own reported as
:class:`WorkerError`; every worker is killed as soon as the call returns or raises.

On Linux the workers are forked, so the task (a bound method of a solver) is theirs
without pickling; elsewhere they are spawned and the task is pickled.

:func:`ordered_stream` is the same over many items, its answers yielded in order as they
come, with a bounded number waiting: how ``cardgen card --batch --jobs`` makes its cards
(``cardgen.api.batch``).
"""

from __future__ import annotations

import contextlib
import ctypes
import gc
import os
import signal
import sys
from collections import deque
from collections.abc import Callable, Generator, Iterator, Sequence
from multiprocessing import get_context
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from typing import Any, NoReturn, TypeVar

from cardgen.errors import RuntimeFault

T = TypeVar("T")
R = TypeVar("R")
PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>
# Blocked while workers start (SIGHUP: the terminal was closed).
STOP_SIGNALS = {signal.SIGINT, signal.SIGTERM} | (
    {signal.SIGHUP} if hasattr(signal, "SIGHUP") else set())


class WorkerError(RuntimeFault):
    """A worker process stopped without answering (killed, out of memory, …): a fault
    of the run, not of its input, reported in one sentence, never as a traceback."""


@contextlib.contextmanager
def _stop_signals_blocked() -> Iterator[None]:
    """Block the stop signals in this thread meanwhile, so that a process forked or
    spawned from it starts with them blocked until it has set up its own handlers."""
    if not hasattr(signal, "pthread_sigmask"):  # Windows
        yield
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def _die_with_parent(parent: int) -> None:
    """Have the kernel kill this process when its parent dies (Linux), and exit now if
    the parent is already gone. Elsewhere a worker notices a dead parent when its pipe
    closes."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, ctypes.c_ulong(signal.SIGKILL), ctypes.c_ulong(0),
                       ctypes.c_ulong(0), ctypes.c_ulong(0))
    if os.getppid() != parent:
        os._exit(1)


def ordered_map(task: Callable[[T], R], items: Sequence[T], jobs: int,
                done: Callable[[int], None] | None = None,
                what: Callable[[T], str] = str) -> list[R]:
    """``[task(item) for item in items]``, computed by ``jobs`` worker processes, one item
    at a time each, handed out in order; ``done(i)`` is told as item i's answer comes
    (in the order they finish). An exception ``task`` raises is raised here; a worker
    that dies is reported as dying while working on ``what(item)``."""
    context = get_context("fork") if sys.platform.startswith("linux") else get_context(
        "spawn")
    owner: dict[Connection, BaseProcess] = {}
    answers: list[Any] = [None] * len(items)
    try:
        # The collector leaves what exists now alone (in the workers too): a collection
        # there would otherwise touch, and so copy, every page they share with this one.
        gc.freeze()
        try:
            with _stop_signals_blocked():
                for _ in range(min(jobs, len(items))):
                    ours, theirs = context.Pipe()
                    process = context.Process(target=_work, args=(theirs, os.getpid(), task),
                                              name="cardgen-rotator-solver", daemon=True)
                    owner[ours] = process
                    process.start()
                    theirs.close()
        finally:
            gc.unfreeze()
        queue = deque(enumerate(items))
        idle = list(owner)
        busy: dict[Connection, int] = {}
        while queue or busy:
            while queue and idle:
                pipe = idle.pop()
                index, item = queue.popleft()
                busy[pipe] = index
                try:
                    pipe.send(item)
                except OSError:
                    _lost(owner[pipe], what(item))
            for ready in wait(list(busy)):
                assert isinstance(ready, Connection)
                index, value = _receive(ready, busy, owner, lambda i: what(items[i]))
                answers[index] = value
                idle.append(ready)
                if done:
                    done(index)
    finally:
        _stop(owner)
    return answers


def _lost(process: BaseProcess, doing: str) -> NoReturn:
    process.join(1)
    raise WorkerError(f"a worker process stopped while {doing} (exit code "
                      f"{process.exitcode}).")


def _work(pipe: Connection, parent: int, task: Callable[[Any], Any]) -> None:
    """A worker: answer each item the parent sends with ``(True, task(item))``, or
    ``(False, exception)``, until the pipe closes. Ctrl-C is the parent's business; any
    other signal the parent handles (SIGTERM …) simply ends a worker, as by default."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for number in signal.valid_signals():
        if number != signal.SIGINT and callable(signal.getsignal(number)):
            signal.signal(number, signal.SIG_DFL)  # a handler inherited through fork
    _die_with_parent(parent)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)
    with contextlib.suppress(EOFError, OSError):  # the parent is gone or done
        while True:
            item = pipe.recv()
            try:
                answer: tuple[bool, object] = (True, task(item))
            except Exception as exc:
                answer = (False, exc)
            pipe.send(answer)


def ordered_stream(task: Callable[[T], R], items: Sequence[T], jobs: int,
                   what: Callable[[T], str] = str, window: int | None = None,
                   name: str = "cardgen-worker") -> Generator[R, None, None]:
    """``task(item)`` for each item, yielded in the items' order as soon as each answer
    and those before it are in: a batch of many items streams through ``jobs`` worker
    processes (``cardgen card --batch --jobs``). Memory stays bounded: at most
    ``window`` items (default twice ``jobs``) are handed out or waiting for their turn.
    With one job, or one item, ``task`` runs here, in this process. The workers are
    :func:`ordered_map`'s: they die with this process, leave Ctrl-C to it, and are
    killed as soon as the generator is closed, finishes or raises."""
    if jobs <= 1 or len(items) <= 1:
        for item in items:
            yield task(item)
        return
    window = max(jobs, window if window is not None else 2 * jobs)
    context = get_context("fork") if sys.platform.startswith("linux") else get_context(
        "spawn")
    owner: dict[Connection, BaseProcess] = {}
    try:
        gc.freeze()  # (see ordered_map)
        try:
            with _stop_signals_blocked():
                for _ in range(min(jobs, len(items))):
                    ours, theirs = context.Pipe()
                    process = context.Process(target=_work, args=(theirs, os.getpid(), task),
                                              name=name, daemon=True)
                    owner[ours] = process
                    process.start()
                    theirs.close()
        finally:
            gc.unfreeze()
        idle = list(owner)
        busy: dict[Connection, int] = {}
        answers: dict[int, Any] = {}  # answers waiting for those before them
        sent = given = 0
        while given < len(items):
            while idle and sent < len(items) and sent < given + window:
                pipe = idle.pop()
                busy[pipe] = sent
                try:
                    pipe.send(items[sent])
                except OSError:
                    _lost(owner[pipe], what(items[sent]))
                sent += 1
            if given in answers:
                yield answers.pop(given)
                given += 1
                continue
            for ready in wait(list(busy)):
                assert isinstance(ready, Connection)
                index, value = _receive(ready, busy, owner, lambda i: what(items[i]))
                answers[index] = value
                idle.append(ready)
    finally:
        _stop(owner)


def _stop(owner: dict[Connection, BaseProcess]) -> None:
    """Kill every worker of a pool, wait for it, and close its pipe (a pool's end, on
    success, failure or interruption alike)."""
    for worker in owner.values():
        if worker.pid is not None:
            worker.kill()
    for pipe, worker in owner.items():
        if worker.pid is not None:
            worker.join()
            worker.close()
        pipe.close()


def _receive(ready: Connection, busy: dict[Connection, int],
             owner: dict[Connection, BaseProcess], what: Callable[[int], str]
             ) -> tuple[int, Any]:
    """A worker's answer: the index of the item it worked on (no longer busy) and what
    it sent back; a worker that died is a fault naming ``what(index)``, and an error
    it raised is raised here."""
    try:
        ok, value = ready.recv()
    except (EOFError, OSError):
        _lost(owner[ready], what(busy[ready]))
    if not ok:
        raise value
    return busy.pop(ready), value
