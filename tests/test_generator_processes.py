"""The worker processes of the parallel Rotator generator: they die with their parent,
even a SIGKILLed one; Ctrl-C is the parent's alone (no worker tracebacks, a prompt exit);
leaving early (enough boards, a signal handler's exception) kills them at once; the
boards never depend on the job count; ``usable_jobs`` caps the jobs at the CPUs.

The real-process tests read ``/proc``, so they run on Linux only.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cardgen.errors import ParameterError
from cardgen.games.rotator.generator import Grade, generate
from tests.helpers import ROOT, children, proc_fields, proc_stat

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


def start_generation(tmp: Path, **streams: int) -> subprocess.Popen[str]:
    """``cardgen rotator generate --seed 32 --difficulty hard --count 3 --jobs 2``, in its
    own process group. It takes a few seconds: its hard boards are maps 2, 3 and 7, and the
    fourth map (not hard) takes some 2 s to analyse (measured: maps 1-3 take 0.7 s in
    all)."""
    return subprocess.Popen(
        [sys.executable, "-m", "cardgen", "rotator", "generate", "--seed", "32",
         "--difficulty", "hard", "--count", "3", "--jobs", "2", "-o", str(tmp / "r.pdf")],
        cwd=ROOT, text=True, start_new_session=True, **streams)


def wait_for_workers(process: subprocess.Popen[str], jobs: int = 2) -> list[Proc]:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        workers = children(process.pid)
        if len(workers) >= jobs:
            return workers
        assert process.poll() is None, "generation ended before its workers were seen"
        time.sleep(0.01)
    pytest.fail("no worker processes within 30 s")


def kill_group(process: subprocess.Popen[str], workers: list[Proc]) -> None:
    """Kill whatever a failed test left behind."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)
    for pid, _ in alive(workers):  # had they left the group
        os.kill(pid, signal.SIGKILL)
    process.wait()


@linux_only
def test_workers_die_with_a_sigkilled_parent(tmp_path):
    process = start_generation(tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    workers: list[Proc] = []
    try:
        workers = wait_for_workers(process)
        process.kill()
        process.wait()
        deadline = time.monotonic() + 1
        while alive(workers) and time.monotonic() < deadline:
            time.sleep(0.02)
        assert not alive(workers), "workers outlived their SIGKILLed parent"
    finally:
        kill_group(process, workers)


@linux_only
@pytest.mark.parametrize(("to", "work"), [("parent", 0.3), ("group", 0.3), ("group", 0)])
def test_ctrl_c_ends_the_run_promptly_and_quietly(tmp_path, to, work):
    """SIGINT to the parent alone, or to its whole process group as Ctrl-C in a terminal
    sends it, once the workers have done some work (the long fourth map is then being
    analysed or due) or as soon as they exist: a prompt exit, no worker left, no worker
    traceback."""
    process = start_generation(tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    workers: list[Proc] = []
    try:
        workers = wait_for_workers(process)
        deadline = time.monotonic() + 30
        while cpu_seconds(workers) < work and time.monotonic() < deadline:
            assert process.poll() is None, "generation ended before it was interrupted"
            time.sleep(0.01)
        (os.killpg if to == "group" else os.kill)(process.pid, signal.SIGINT)
        try:
            _, stderr = process.communicate(timeout=2)
        except subprocess.TimeoutExpired:
            pytest.fail("still running 2 s after Ctrl-C")
        assert process.returncode != 0
        assert not alive(workers), "workers outlived the interrupted run"
        assert "Traceback" not in stderr, stderr
    finally:
        kill_group(process, workers)


def test_parallel_boards_are_the_same_and_come_as_soon_as_found():
    """Seed 32 has its first two hard boards at maps 2 and 3 (0.7 s for maps 1-3); map 4,
    which takes some 2 s to analyse, is under way by then: the run must not wait for it."""
    started = time.monotonic()
    serial = generate(32, 2, Grade.HARD, jobs=1)
    serial_time = time.monotonic() - started
    started = time.monotonic()
    parallel = generate(32, 2, Grade.HARD, jobs=2)
    parallel_time = time.monotonic() - started
    assert [b.rmap.board_id for b in parallel.boards] == [
        b.rmap.board_id for b in serial.boards]
    assert parallel.candidates == serial.candidates
    assert parallel_time < 2 * serial_time + 1, (serial_time, parallel_time)
    if Path("/proc/self/stat").exists():
        assert not children(os.getpid())


class Stop(BaseException):
    """What a signal handler raises (the command line's SIGTERM and SIGINT do)."""


@pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="needs setitimer")
def test_a_signal_handlers_exception_propagates_unchanged_and_kills_the_workers():
    """Seed 32's fourth map takes some 2 s; once three maps are taken (two of the three
    hard boards asked for), it is under way (since the first map ended). A
    SIGALRM then raises an exception from its handler, which must come out of generate()
    as it is, at once, with no worker left."""
    raised: list[Stop] = []
    armed: list[float] = []

    def handler(signum: int, frame: object) -> None:
        raised.append(Stop())
        raise raised[-1]

    def progress(tried: int, found: int) -> None:
        if tried == 3 and not armed:
            armed.append(time.monotonic())
            signal.setitimer(signal.ITIMER_REAL, 0.1)

    before = signal.signal(signal.SIGALRM, handler)
    try:
        with pytest.raises(Stop) as caught:
            generate(32, 3, Grade.HARD, jobs=2, progress=progress)
        took = time.monotonic() - armed[0]
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, before)
    assert caught.value is raised[0]
    assert took < 1, took
    if Path("/proc/self/stat").exists():
        assert not children(os.getpid())


@linux_only
def test_a_worker_that_dies_is_an_error_not_a_hang():
    from cardgen.games.rotator.generator import WorkerError  # new: fails to import at HEAD

    def progress(tried: int, found: int) -> None:
        if tried == 3:  # the 2 s fourth map is under way
            os.kill(children(os.getpid())[0][0], signal.SIGKILL)

    started = time.monotonic()
    with pytest.raises(WorkerError, match="worker process stopped"):
        generate(32, 3, Grade.HARD, jobs=2, progress=progress)
    assert time.monotonic() - started < 3
    assert not children(os.getpid())


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
