"""The worker processes of the parallel Rotator generator: they die with their parent,
even a SIGKILLed one; Ctrl-C is the parent's alone (no worker tracebacks, a prompt exit);
leaving early (enough boards, a signal handler's exception) kills them at once; the
boards never depend on the job count; ``usable_jobs`` caps the jobs at the CPUs.

The real-process tests read ``/proc``, so they run on Linux only.

No test here bounds the wall-clock time: a loaded machine takes seconds for what an idle
one does at once. "At once" is shown by events instead: a map whose analysis never ends
(the workers block on it, see ``never_ending``) must not keep a run that has its boards,
an interrupt or a dead worker from ending; a worker of a killed parent must die by the
kernel's signal, not by itself. A run that truly hangs fails at ``HANG_GUARD``.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import cardgen.games.rotator.generator as generator
from cardgen.errors import FAULT_STATUS, ParameterError, RuntimeFault
from cardgen.games.rng import SplitMix64
from cardgen.games.rotator.board import RotatorMap
from cardgen.games.rotator.generator import Grade, generate, random_map
from tests.helpers import ROOT, children, cli, error_line, proc_fields, proc_stat, sampled

linux_only = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")

Proc = tuple[int, int]  # a process: its pid and start time, so a reused pid is not it


def cpu_seconds(processes: list[Proc]) -> float:
    """The processor time ``processes`` have used so far, in all."""
    ticks = 0
    for pid, _ in processes:
        if (fields := proc_fields(pid)) is not None:
            ticks += int(fields[11]) + int(fields[12])  # utime, stime
    return ticks / os.sysconf("SC_CLK_TCK")


def alive(processes: list[Proc]) -> list[Proc]:
    """Those of ``processes`` that still run (a zombie is dead)."""
    living = []
    for pid, started in processes:
        stat = proc_stat(pid)
        if stat is not None and stat[2] == started and stat[0] not in "ZX":
            living.append((pid, started))
    return living


HANG_GUARD = 120.0  # seconds: only a run that hangs takes this long, however loaded
PR_SET_CHILD_SUBREAPER = 36  # from <linux/prctl.h>


def wait_until(condition: Callable[[], bool], what: str) -> None:
    """Poll until ``condition()`` holds; fail only if it never does (a hang)."""
    deadline = time.monotonic() + HANG_GUARD
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"{what}: still waiting after {HANG_GUARD:g} s, a hang")
        time.sleep(0.01)


class Hang(BaseException):
    """Raised in the test's main thread when what it awaits never comes."""


@contextlib.contextmanager
def hang_guard() -> Iterator[None]:
    """Raise :class:`Hang` in this (main) thread if the block still runs after
    ``HANG_GUARD`` seconds, by SIGUSR1 from a timer thread (SIGALRM is the tests' own)."""
    def expire(signum: int, frame: object) -> None:
        raise Hang(f"still running after {HANG_GUARD:g} s: a hang")

    before = signal.signal(signal.SIGUSR1, expire)
    timer = threading.Timer(HANG_GUARD, os.kill, (os.getpid(), signal.SIGUSR1))
    timer.start()
    try:
        yield
    finally:
        timer.cancel()
        signal.signal(signal.SIGUSR1, before)


SEED = 32  # hard boards at maps 2, 3 and 7; map 4 (not hard) takes some 2 s to analyse


def first_maps(n: int) -> list[str]:
    """The board IDs of seed 32's first ``n`` maps (all different), as generate draws
    them."""
    rng = SplitMix64(SEED)
    return [random_map(rng).board_id for _ in range(n)]


QUICK_MAPS = first_maps(3)  # analysed in 0.25 s in all; every later one: see never_ending


def never_ending(real: Callable[..., object], done: int | None = None
                 ) -> Callable[..., object]:
    """``analyse`` for the tests: seed 32's first three maps as ``real`` does it, any
    other map never ends (as if it took for ever). Each analysis that ends writes the
    pid of the process that made it to file descriptor ``done``, if given."""
    def analyse(rmap: RotatorMap, *args: object) -> object:
        if rmap.board_id not in QUICK_MAPS:
            threading.Event().wait()
        result = real(rmap, *args)
        if done is not None:
            os.write(done, f"{os.getpid()}\n".encode())
        return result
    return analyse


# ``cardgen`` (as ``python -m cardgen``) whose analysis of any map after the third never
# ends: a run must stop at Ctrl-C without waiting for its workers' work.
DRIVER = f"""\
import os, threading, sys
import cardgen.games.rotator.generator as generator
from cardgen.cli import main
real = generator.analyse
def analyse(rmap, *args):
    if rmap.board_id not in {QUICK_MAPS!r}:
        with open(os.environ["CARDGEN_TEST_STUCK"], "a") as stuck:  # this worker is stuck
            stuck.write(f"{{os.getpid()}}\\n")
        threading.Event().wait()
    return real(rmap, *args)
generator.analyse = analyse
sys.argv[0] = "cardgen"
main()
"""


def start_generation(tmp: Path, *, endless: bool = False, **streams: Any
                     ) -> subprocess.Popen[str]:
    """``cardgen rotator generate --seed 32 --difficulty hard --count 3 --jobs 2``, in its
    own process group. It takes a few seconds: its hard boards are maps 2, 3 and 7, and the
    fourth map (not hard) takes some 2 s to analyse (measured: maps 1-3 take 0.25 s in
    all). ``endless``: every map after the third never ends (see ``DRIVER``)."""
    args = ["rotator", "generate", "--seed", str(SEED), "--difficulty", "hard", "--count",
            "3", "--jobs", "2", "-o", str(tmp), "--name", "r"]
    if endless:
        (tmp / "driver.py").write_text(DRIVER)
        command = [sys.executable, str(tmp / "driver.py"), *args]
        streams["env"] = {**os.environ, "CARDGEN_TEST_STUCK": str(tmp / "stuck")}
    else:
        command = [sys.executable, "-m", "cardgen", *args]
    return subprocess.Popen(command, cwd=ROOT, text=True, start_new_session=True, **streams)


def wait_for_workers(process: subprocess.Popen[str], jobs: int = 2) -> list[Proc]:
    found: list[Proc] = []

    def seen() -> bool:
        found[:] = children(process.pid)
        assert process.poll() is None, "generation ended before its workers were seen"
        return len(found) >= jobs

    wait_until(seen, "worker processes")
    return found


@contextlib.contextmanager
def adopting_orphans() -> Iterator[None]:
    """Make this process the subreaper of its descendants meanwhile: a worker orphaned
    by its parent's death becomes its child, so its exit status can be read."""
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_CHILD_SUBREAPER, ctypes.c_ulong(1), ctypes.c_ulong(0),
                  ctypes.c_ulong(0), ctypes.c_ulong(0)) != 0:
        pytest.skip("this process cannot become a child subreaper")
    try:
        yield
    finally:
        libc.prctl(PR_SET_CHILD_SUBREAPER, ctypes.c_ulong(0), ctypes.c_ulong(0),
                   ctypes.c_ulong(0), ctypes.c_ulong(0))


def reap(pid: int) -> int:
    """The wait status of ``pid``, a child of this process, once it has ended."""
    status: list[int] = []

    def ended() -> bool:
        done, code = os.waitpid(pid, os.WNOHANG)
        if done:
            status.append(code)
        return bool(done)

    wait_until(ended, f"worker {pid} to end")
    return status[0]


def kill_group(process: subprocess.Popen[str], workers: list[Proc]) -> None:
    """Kill whatever a failed test left behind (and reap what it adopted)."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)
    for pid, _ in alive(workers):  # had they left the group
        os.kill(pid, signal.SIGKILL)
    process.wait()
    for pid, _ in workers:
        with contextlib.suppress(ChildProcessError):
            os.waitpid(pid, os.WNOHANG)


@linux_only
@pytest.mark.slow
def test_workers_die_with_a_sigkilled_parent(tmp_path):
    """The kernel kills the workers when their parent dies (PR_SET_PDEATHSIG): adopted
    by this process, each ends killed by SIGKILL. Without that they would end by
    themselves (exit status 0) once their map is done and their pipe found closed."""
    with adopting_orphans():
        process = start_generation(tmp_path, stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL)
        workers: list[Proc] = []
        try:
            workers = wait_for_workers(process)
            # Once each has used processor time it is analysing a map: past its set-up.
            wait_until(lambda: all(cpu_seconds([w]) >= 0.05 for w in workers),
                       "the workers to start analysing")
            process.kill()
            process.wait()
            for pid, _ in workers:
                status = reap(pid)
                assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL, (
                    f"worker {pid} ended by itself (wait status {status:#x}), not killed "
                    "with its parent")
        finally:
            kill_group(process, workers)


@linux_only
# Each case starts a command line with two workers (a second or two of processor time):
# the quick loop keeps Ctrl-C as a terminal sends it, to the group, after some work; the
# full command also runs the signal to the parent alone, and to the group at once.
@pytest.mark.parametrize(("to", "after_work"), sampled(
    [("parent", True), ("group", True), ("group", False)], ("group", True)))
def test_ctrl_c_ends_the_run_promptly_and_quietly(tmp_path, to, after_work):
    """SIGINT to the parent alone, or to its whole process group as Ctrl-C in a terminal
    sends it, once the workers have done some work (a worker has finished its first maps
    and is analysing the fourth, which here never ends) or as soon as they exist: an exit
    that does not wait for the workers' work, no worker left when the run has ended, no
    worker traceback. (Waiting for the event, not for some processor time: the first
    maps may take less than any figure, as the grading gets faster.)"""
    process = start_generation(tmp_path, endless=True, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE)
    workers: list[Proc] = []
    try:
        workers = wait_for_workers(process)

        def worked() -> bool:
            assert process.poll() is None, "generation ended before it was interrupted"
            return not after_work or (tmp_path / "stuck").exists()

        wait_until(worked, "a worker analysing the fourth map")
        (os.killpg if to == "group" else os.kill)(process.pid, signal.SIGINT)
        # Every map after the third never ends: waiting for the workers would hang.
        try:
            _, stderr = process.communicate(timeout=HANG_GUARD)
        except subprocess.TimeoutExpired:
            pytest.fail("still running after Ctrl-C: the run waits for its workers")
        assert process.returncode != 0
        assert not alive(workers), "workers outlived the interrupted run"
        assert "Traceback" not in stderr, stderr
    finally:
        kill_group(process, workers)


@linux_only  # the workers must be forked to share the test's never-ending analysis
@pytest.mark.slow
def test_parallel_boards_are_the_same_and_come_as_soon_as_found(monkeypatch):
    """Seed 32 has its first two hard boards at maps 2 and 3; map 4 is under way by then
    (here it never ends): the run must not wait for it. Both workers did the work."""
    read, write = os.pipe()
    try:
        monkeypatch.setattr(generator, "analyse", never_ending(generator.analyse, write))
        serial = generate(SEED, 2, Grade.HARD, jobs=1)
        with hang_guard():
            parallel = generate(SEED, 2, Grade.HARD, jobs=2)
        os.close(write)
        write = -1
        with os.fdopen(read) as done:
            read = -1
            pids = [int(line) for line in done]
    finally:
        for fd in (read, write):
            if fd >= 0:
                os.close(fd)
    assert [b.rmap.board_id for b in parallel.boards] == [
        b.rmap.board_id for b in serial.boards]
    assert parallel.candidates == serial.candidates == 3
    # Maps 1-3 each analysed once in the serial run, once in a worker: two workers.
    assert pids.count(os.getpid()) == 3 and len(set(pids) - {os.getpid()}) == 2, pids
    assert len(pids) == 6
    assert not children(os.getpid())


class Stop(BaseException):
    """What a signal handler raises (the command line's SIGTERM and SIGINT do)."""


@linux_only  # the workers must be forked to share the test's never-ending analysis
@pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="needs setitimer")
@pytest.mark.slow
def test_a_signal_handlers_exception_propagates_unchanged_and_kills_the_workers(monkeypatch):
    """Once three maps are taken (two of the three hard boards asked for), the fourth
    is under way and here never ends. A SIGALRM then raises an exception from its
    handler, which must come out of generate() as it is, without waiting for the
    workers' work, with no worker left."""
    raised: list[Stop] = []
    armed: list[int] = []

    def handler(signum: int, frame: object) -> None:
        raised.append(Stop())
        raise raised[-1]

    def progress(tried: int, found: int) -> None:
        if tried == 3 and not armed:
            armed.append(tried)
            signal.setitimer(signal.ITIMER_REAL, 0.1)

    monkeypatch.setattr(generator, "analyse", never_ending(generator.analyse))
    before = signal.signal(signal.SIGALRM, handler)
    try:
        with hang_guard(), pytest.raises(Stop) as caught:
            generate(SEED, 3, Grade.HARD, jobs=2, progress=progress)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, before)
    assert caught.value is raised[0] and armed == [3]
    if Path("/proc/self/stat").exists():
        assert not children(os.getpid())


@linux_only
def test_a_worker_that_dies_is_an_error_not_a_hang(monkeypatch):
    """A worker killed while the other is on the fourth map, which here never ends: the
    run must notice the dead one (WorkerError) rather than wait for the other."""
    from cardgen.games.rotator.generator import WorkerError  # new: fails to import at HEAD

    def progress(tried: int, found: int) -> None:
        if tried == 3:  # the fourth map is under way
            os.kill(children(os.getpid())[0][0], signal.SIGKILL)

    monkeypatch.setattr(generator, "analyse", never_ending(generator.analyse))
    with hang_guard(), pytest.raises(WorkerError, match="worker process stopped") as caught:
        generate(SEED, 3, Grade.HARD, jobs=2, progress=progress)
    assert not children(os.getpid())
    # A fault of the run, not of its input: no handler of bad input takes it for one.
    assert isinstance(caught.value, RuntimeFault)
    assert not isinstance(caught.value, ValueError)


@linux_only
def test_a_killed_worker_is_a_runtime_fault_at_the_command_line(monkeypatch, tmp_path):
    """``rotator generate --jobs 2`` whose worker is killed (SIGKILL, by itself, when it
    gets its first map: an event, not a time): one line naming the dead worker and exit
    status 3 (FAULT_STATUS), not 1 as for bad input; nothing written."""
    parent = os.getpid()
    real = generator.analyse

    def analyse(rmap: RotatorMap, *args: object) -> object:
        if os.getpid() != parent:  # in a worker, never in the test's own process
            os.kill(os.getpid(), signal.SIGKILL)
        return real(rmap, *args)

    monkeypatch.setattr(generator, "analyse", analyse)
    with hang_guard():
        result = cli("rotator", "generate", "--seed", str(SEED), "--count", "3",
                     "--jobs", "2", "-o", tmp_path, "--name", "r")
    line = error_line(result, "worker process stopped", "exit code -9", status=FAULT_STATUS)
    assert FAULT_STATUS == 3
    assert line.startswith("error: a worker process stopped while analysing map ")
    assert not children(os.getpid()) and not list(tmp_path.iterdir())


def test_usable_jobs_caps_at_the_cpus_this_process_may_use():
    from cardgen.games.rotator.generator import usable_jobs  # new: fails to import at HEAD

    counter = getattr(os, "process_cpu_count", None)
    if counter is not None:
        cpus = counter() or 1
    elif hasattr(os, "sched_getaffinity"):
        cpus = len(os.sched_getaffinity(0))
    else:
        cpus = os.cpu_count() or 1
    assert usable_jobs(5000) == (cpus, True) or cpus >= 5000
    assert usable_jobs(None) == (cpus, False)
    assert usable_jobs(cpus) == (cpus, False)
    assert usable_jobs(1) == (1, False)
    for bad in (0, -3):
        with pytest.raises(ParameterError) as caught:
            usable_jobs(bad)
        assert caught.value.parameter == "jobs" and caught.value.problem == "must be at least 1."
