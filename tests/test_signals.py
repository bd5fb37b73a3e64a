"""The exit contract around the commit, with real processes and real signals: every run
either exits 0 with all its files new, or exits 130 (SIGINT) / 143 (SIGTERM) with the
one line ``interrupted`` / ``terminated`` and all its files old; never a death by the
signal, never a failure reported after the files were committed.

The signals come at well-defined points, found by events rather than by the clock: a
small driver runs ``python -m cardgen`` in a process that sends itself the signal right
after its N-th file operation in the output writing, its N-th module lookup while the
command line is imported, its N-th line of output, at its exit or in its shutdown. Each
sweep goes on until N is past the last such point. The runs of a test are forked from
one such process at the last moment they have in common (the first lookup of the
command line, or the start of the writing), so each costs its own part only. No test
bounds time; the timeouts only stop a hung process."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import BASE_CONFIG, ROOT

pytestmark = pytest.mark.skipif(not hasattr(signal, "pthread_sigmask"),
                                reason="POSIX signals")

HANG_GUARD = 300  # seconds: only to stop a process that hangs, never a bound on speed
OUTCOME = {"SIGINT": (130, "interrupted"), "SIGTERM": (143, "terminated")}
FILES = ("card.pdf", "card-dieline.pdf")

_DRIVER = r"""
import gc, json, os, runpy, shutil, signal, sys, time

# The runs of one test, forked from one process at the last moment they all share:
# just before the first module lookup of the command line (point "import"), or as the
# output writing begins (the others). Up to there every run would be the same, so each
# is that process's copy, not a new interpreter that imports and builds it all again.
plan, results, out, files = json.loads(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4:6]
points = {step[0] for step in plan}
point, nth, sig, marker, count = None, 0, None, None, 0  # (set in each run)


def tick(where, kind):
    global count
    if kind != point:
        return
    count += 1
    if count == nth:
        with open(marker, "w") as handle:
            handle.write(where)
        os.kill(os.getpid(), sig)


def steps():
    # (point, nth or polls, signal name) of each run; a sweep goes on until a run ends
    # before its signal (SIGINT at the odd steps, SIGTERM at the even ones)
    for kind, arg, signame in plan:
        if arg != "sweep":
            yield kind, arg, signame
            continue
        for n in range(1, 400):
            yield kind, n, ("SIGINT", "SIGTERM")[1 - n % 2]
            if not os.path.exists(marker):
                break


def old():
    shutil.rmtree(out, ignore_errors=True)
    os.mkdir(out)
    for name in files:
        with open(os.path.join(out, name), "wb") as handle:
            handle.write(b"old " + name.encode())


def ended(pid):
    done, status = os.waitpid(pid, os.WNOHANG)  # (reaped with it)
    return status if done == pid else None


def serve():
    global point, nth, sig, marker
    gc.freeze()  # (what a run does not make it leaves alone: no copying for a collection)
    sys.stdout.flush()
    sys.stderr.flush()
    for i, (kind, arg, signame) in enumerate(steps()):
        marker = os.path.join(results, f"{i}.fired")
        old()
        pid = os.fork()
        if pid == 0:  # the run: on with it
            point, nth, sig = kind, arg, getattr(signal, signame)
            os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
            os.dup2(os.open(os.path.join(results, f"{i}.err"), os.O_WRONLY | os.O_CREAT), 2)
            return
        status = None  # the run's wait status, once it has ended
        if kind == "outside":  # signalled by this process, after ``arg`` looks at the
            while status is None and not any(  # folder once the writing has begun
                    name.startswith(".") for name in os.listdir(out)):
                time.sleep(0.0005)  # (only not to starve the run of a CPU)
                status = ended(pid)
            for _ in range(arg):
                if status is not None:
                    break
                os.listdir(out)
                status = ended(pid)
            if status is None:  # (not yet reaped: the pid is still the run's)
                os.kill(pid, getattr(signal, signame))
        if status is None:
            status = os.waitpid(pid, 0)[1]
        with open(os.path.join(results, f"{i}.json"), "w") as handle:
            json.dump([kind, arg, signame, os.waitstatus_to_exitcode(status)], handle)
        os.rename(out, os.path.join(results, str(i)))  # the folder as the run left it
    os._exit(0)


if "import" in points:  # the N-th lookup of a module of the command line (not of the
    class Finder:       # package itself or its entry point: Python's own start-up is before)
        def find_spec(self, name, path=None, target=None):
            if name == "cardgen.cli" or name.split(".")[0] in ("typer", "click", "rich"):
                if point is None:
                    serve()
                tick(name, "import")
            return None

    sys.meta_path.insert(0, Finder())
else:
    import cardgen.output as output

    real_write, inside = output.write_set, []

    def write_set(files):
        if point is None:
            serve()
        inside.append(True)
        try:
            return real_write(files)
        finally:
            inside.pop()

    output.write_set = write_set

if "write" in points:  # just after the N-th file operation of the output writing
    def wrap(name):
        real = getattr(os, name)

        def wrapper(*args, **kwargs):
            result = real(*args, **kwargs)
            if inside:
                tick(name, "write")
            return result

        setattr(os, name, wrapper)

    for name in ("open", "close", "fsync", "fchmod", "chmod", "stat", "lstat", "link",
                 "replace", "unlink", "mkdir", "scandir"):
        wrap(name)
if "echo" in points:  # just after the N-th line of output
    import typer

    real_echo = typer.echo

    def echo(*args, **kwargs):
        real_echo(*args, **kwargs)
        tick("echo", "echo")

    typer.echo = echo
if "exit" in points:  # as the process exits, and in the interpreter's shutdown
    import atexit

    real_exit = sys.exit

    def exit(status=None):
        tick("exit", "exit")
        real_exit(status)

    sys.exit = exit
    atexit.register(lambda: tick("shutdown", "exit"))
    atexit.register(lambda: tick("shutdown", "exit"))  # (atexit calls the last one first)

sys.argv = ["cardgen", *sys.argv[6:]]
runpy.run_module("cardgen", run_name="__main__", alter_sys=True)
"""


def _check(out: Path, signame: str, returncode: int, stderr: str, label: str) -> str:
    """The contract; returns which way the run ended ("new" or "old")."""
    status, word = OUTCOME[signame]
    found = {name: (out / name).read_bytes() for name in FILES}
    hidden = [name for name in os.listdir(out) if name.startswith(".")]
    assert not hidden, (label, hidden)
    assert sorted(os.listdir(out)) == sorted(FILES), label
    if returncode == 0:
        assert "Traceback" not in stderr and word not in stderr, (label, stderr)
        assert all(data.startswith(b"%PDF-") for data in found.values()), (label, found)
        return "new"
    assert returncode == status, (label, returncode, stderr)
    assert stderr == word + "\n", (label, stderr)
    assert all(data == b"old " + name.encode() for name, data in found.items()), label
    return "old"


def _runs(tmp_path: Path, *plan: tuple[str, int | str, str]
          ) -> list[tuple[str | None, str, str]]:
    """The runs of ``cardgen card`` that ``plan`` asks for, each signalled at its point
    (``point``, number or "sweep", signal name; see ``_DRIVER``), all forked from one
    process: where each one's signal fired (None: the run ended first), how it ended
    ("new" or "old", checked against the contract) and its label."""
    config = tmp_path / "card.toml"
    config.write_text(BASE_CONFIG, encoding="utf-8")
    results = tmp_path / "runs"
    results.mkdir()
    driver = subprocess.run(
        [sys.executable, "-c", _DRIVER, json.dumps(plan), str(results),
         str(tmp_path / "out"), *FILES, "card", str(config), "-o", str(tmp_path / "out"),
         "-f", "pdf", "--dieline", "file"],
        capture_output=True, text=True, timeout=HANG_GUARD, cwd=ROOT)
    assert driver.returncode == 0 and driver.stderr == "", driver
    ran = []
    for i in range(len(list(results.glob("*.json")))):
        point, nth, signame, returncode = json.loads((results / f"{i}.json").read_text())
        fired_at = results / f"{i}.fired"
        fired = fired_at.read_text() if fired_at.exists() else None
        label = f"{signame} at {point} #{nth} ({fired})"
        stderr = (results / f"{i}.err").read_text()
        ran.append((fired, _check(results / str(i), signame, returncode, stderr, label),
                    label))
    return ran


def _sweep(tmp_path: Path, point: str) -> dict[str, int]:
    """Signal at every step until one is past the last point, SIGINT at the odd steps,
    SIGTERM at the even ones; how the runs ended. Both go through the one handler
    (``interrupt.STOPPING_SIGNALS`` only picks the word and the status), so one sweep
    that alternates them checks every step once and each signal on both sides of the
    commit, at half the cost of a sweep per signal; the unswept tests below give both
    signals the same chosen steps."""
    runs = _runs(tmp_path, (point, "sweep", ""))
    *signalled, (fired, end, label) = runs
    assert fired is None and end == "new", label  # the last one ended before its signal
    assert all(fired is not None for fired, _, _ in signalled)
    return {"new": sum(end == "new" for _, end, _ in signalled),
            "old": sum(end == "old" for _, end, _ in signalled)}


@pytest.mark.slow
def test_a_signal_after_any_file_operation_of_the_writing(tmp_path):
    """Before the commit the run is rolled back and says so; a signal held back during
    the renames, or one that comes after them, no longer stops it. (One sweep, SIGINT
    and SIGTERM by turns: see ``_sweep``.)"""
    ends = _sweep(tmp_path, "write")
    assert ends["old"] >= 5 and ends["new"] >= 5, ends  # both sides of the commit point


@pytest.mark.slow
def test_a_signal_before_during_and_after_the_renames_and_after_the_commit(tmp_path):
    """A few points of the sweep above, each with both signals: writing the temporary
    files, the renames (the signal is held back until the commit), the tidying after
    it. Then while the files are reported, at the exit, in the interpreter's shutdown:
    the files are new, so the run exits 0. (After the commit the one handler returns
    before it looks at which signal came, so each of those points takes one of the two,
    and the last point, the interpreter's shutdown, both.)"""
    during = [("write", nth, signame) for nth in (3, 12, 18, 24) for signame in OUTCOME]
    after = [("echo", 1, "SIGINT"), ("echo", 2, "SIGTERM"), ("exit", 1, "SIGTERM"),
             ("exit", 2, "SIGINT"), ("exit", 3, "SIGTERM"), ("exit", 3, "SIGINT")]
    runs = _runs(tmp_path, *during, *after)
    assert len(runs) == len(during) + len(after)
    for fired, end, label in runs[len(during):]:
        assert fired is not None and end == "new", label


def test_a_signal_while_the_command_line_is_imported(tmp_path):
    """The handlers are installed before the command line is imported. (SIGINT and
    SIGTERM by turns: the word each one says is checked either way, and the slow sweep
    below takes every lookup.)"""
    runs = _runs(tmp_path, *(("import", nth, ("SIGINT", "SIGTERM")[1 - nth % 2])
                             for nth in (1, 2, 10, 20)))
    assert len(runs) == 4
    for fired, end, label in runs:
        assert fired is not None and end == "old", label


@pytest.mark.slow
def test_signals_from_outside_at_swept_moments(tmp_path):
    """A run signalled by another process: once the run has reached its writing (the
    event: a hidden temp file appears in the folder; a run that ends first is not
    signalled), after a swept number of further looks at the folder. Whatever the
    moment, the contract holds. (SIGINT and SIGTERM by turns; the first moments, 0 to 2
    polls, with both.)"""
    polls = (0, 0, 1, 1, 2, 2, 4, 8, 16, 32, 64, 128)
    runs = _runs(tmp_path, *(("outside", n, ("SIGINT", "SIGTERM")[1 - i % 2])
                             for i, n in enumerate(polls, start=1)))
    assert len(runs) == len(polls)


@pytest.mark.slow
def test_a_signal_at_every_module_lookup_of_the_command_line(tmp_path):
    """(SIGINT and SIGTERM by turns: see ``_sweep``.)"""
    ends = _sweep(tmp_path, "import")
    assert ends["old"] >= 10 and ends["new"] == 0, ends


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_a_stop_swallowed_on_its_way_rolls_the_commit_back(tmp_path):
    """A handler's exception raised inside a finaliser is only printed, and the run goes
    on; the commit point sees that a stop was asked for and rolls the files back."""
    from cardgen import interrupt
    from cardgen.output import write_files

    old = {tmp_path / f"f{i}.txt": b"old" for i in range(3)}
    write_files(old)

    class Finaliser:
        def __del__(self) -> None:
            os.kill(os.getpid(), signal.SIGINT)
            for _ in range(1000):  # the handler runs between these bytecodes
                pass

    with interrupt.handling():
        Finaliser()  # (its exception is printed as "ignored", and the run goes on)
        with pytest.raises(interrupt.Interrupted):
            write_files({path: b"new" for path in old})
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == {
        p.name: b"old" for p in old}
    write_files({path: b"new" for path in old})  # a later call is not stopped by it
    assert all(path.read_bytes() == b"new" for path in old)


def test_the_console_script_handles_signals_before_it_imports_the_command_line():
    import tomllib

    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    assert scripts["cardgen"] == "cardgen.__main__:main"
    loaded = subprocess.run(
        [sys.executable, "-c", "import sys, cardgen.__main__; print(sorted(m for m in "
         "sys.modules if m.split('.')[0] in ('typer', 'click', 'rich') or "
         "m.startswith('cardgen.cli')))"], capture_output=True, text=True, cwd=ROOT,
        timeout=HANG_GUARD)
    assert loaded.stdout.strip() == "[]", loaded
