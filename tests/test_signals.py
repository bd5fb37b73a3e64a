"""The exit contract around the commit, with real processes and real signals: every run
either exits 0 with all its files new, or exits 130 (SIGINT) / 143 (SIGTERM) with the
one line ``interrupted`` / ``terminated`` and all its files old; never a death by the
signal, never a failure reported after the files were committed.

The signals come at well-defined points, found by events rather than by the clock: a
small driver runs ``python -m cardgen`` in a process that sends itself the signal right
after its N-th file operation in the output writing, its N-th module lookup while the
command line is imported, its N-th line of output, at its exit or in its shutdown. Each
sweep goes on until N is past the last such point. No test bounds time; the timeouts
only stop a hung process."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.helpers import BASE_CONFIG, ROOT

pytestmark = pytest.mark.skipif(not hasattr(signal, "pthread_sigmask"),
                                reason="POSIX signals")

HANG_GUARD = 300  # seconds: only to stop a process that hangs, never a bound on speed
OUTCOME = {"SIGINT": (130, "interrupted"), "SIGTERM": (143, "terminated")}
FILES = ("card.pdf", "card-dieline.pdf")

_DRIVER = r"""
import os, runpy, signal, sys

point, nth, sig, marker = sys.argv[1], int(sys.argv[2]), getattr(signal, sys.argv[3]), sys.argv[4]
count = 0


def tick(where):
    global count
    count += 1
    if count == nth:
        with open(marker, "w") as handle:
            handle.write(where)
        os.kill(os.getpid(), sig)


if point == "import":  # the N-th lookup of a module of the command line (not of the
    class Finder:    # package itself or its entry point: Python's own start-up is before)
        def find_spec(self, name, path=None, target=None):
            if name == "cardgen.cli" or name.split(".")[0] in ("typer", "click", "rich"):
                tick(name)
            return None

    sys.meta_path.insert(0, Finder())
elif point == "write":  # just after the N-th file operation of the output writing
    import cardgen.output as output

    real_write, inside = output.write_files, []

    def write_files(files):
        inside.append(True)
        try:
            return real_write(files)
        finally:
            inside.pop()

    output.write_files = write_files

    def wrap(name):
        real = getattr(os, name)

        def wrapper(*args, **kwargs):
            result = real(*args, **kwargs)
            if inside:
                tick(name)
            return result

        setattr(os, name, wrapper)

    for name in ("open", "close", "fsync", "fchmod", "chmod", "stat", "lstat", "link",
                 "replace", "unlink", "mkdir", "scandir"):
        wrap(name)
elif point == "echo":  # just after the N-th line of output
    import typer

    real_echo = typer.echo

    def echo(*args, **kwargs):
        real_echo(*args, **kwargs)
        tick("echo")

    typer.echo = echo
elif point == "exit":  # as the process exits, and in the interpreter's shutdown
    import atexit

    real_exit = sys.exit

    def exit(status=None):
        tick("exit")
        real_exit(status)

    sys.exit = exit
    atexit.register(lambda: tick("shutdown"))
    atexit.register(lambda: tick("shutdown"))  # (atexit calls the last one first)

sys.argv = ["cardgen", *sys.argv[5:]]
runpy.run_module("cardgen", run_name="__main__", alter_sys=True)
"""


def _setup(tmp_path: Path) -> tuple[Path, Path]:
    config = tmp_path / "card.toml"
    config.write_text(BASE_CONFIG, encoding="utf-8")
    out = tmp_path / "out"
    out.mkdir(exist_ok=True)
    return config, out


def _old(out: Path) -> None:
    for name in os.listdir(out):
        os.unlink(out / name)
    for name in FILES:
        (out / name).write_bytes(b"old " + name.encode())


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


def _run(tmp_path: Path, point: str, nth: int, signame: str) -> tuple[str | None, str]:
    """One run of ``cardgen card`` that signals itself at ``point`` number ``nth``:
    where it fired (None: the run ended first) and how it ended."""
    config, out = _setup(tmp_path)
    _old(out)
    marker = tmp_path / "fired"
    marker.unlink(missing_ok=True)
    process = subprocess.run(
        [sys.executable, "-c", _DRIVER, point, str(nth), signame, str(marker), "card",
         str(config), "-o", str(out), "-f", "pdf", "--dieline", "file"],
        capture_output=True, text=True, timeout=HANG_GUARD, cwd=ROOT)
    fired = marker.read_text() if marker.exists() else None
    label = f"{signame} at {point} #{nth} ({fired})"
    return fired, _check(out, signame, process.returncode, process.stderr, label)


def _alternate(nth: int) -> str:
    """SIGINT at the odd steps of a sweep, SIGTERM at the even ones. Both go through the
    one handler (``interrupt.STOPPING_SIGNALS`` only picks the word and the status), so
    one sweep that alternates them checks every step once and each signal on both sides
    of the commit, at half the cost of a sweep per signal (every step is a whole run);
    the unswept tests below give both signals the same chosen steps."""
    return ("SIGINT", "SIGTERM")[1 - nth % 2]


def _sweep(tmp_path: Path, point: str, steps: range) -> dict[str, int]:
    """Signal at every step until one is past the last point; how the runs ended."""
    ends = {"new": 0, "old": 0}
    for nth in steps:
        fired, end = _run(tmp_path, point, nth, _alternate(nth))
        if fired is None:
            assert end == "new"
            return ends
        ends[end] += 1
    return ends


@pytest.mark.slow
def test_a_signal_after_any_file_operation_of_the_writing(tmp_path):
    """Before the commit the run is rolled back and says so; a signal held back during
    the renames, or one that comes after them, no longer stops it. (One sweep, SIGINT
    and SIGTERM by turns: see ``_alternate``.)"""
    ends = _sweep(tmp_path, "write", range(1, 200))
    assert ends["old"] >= 5 and ends["new"] >= 5, ends  # both sides of the commit point


@pytest.mark.parametrize("signame", sorted(OUTCOME))
@pytest.mark.parametrize("nth", [3, 12, 18, 24])
def test_a_signal_before_during_and_after_the_renames(tmp_path, signame, nth):
    """A few points of the sweep above: writing the temporary files, the renames (the
    signal is held back until the commit), the tidying after it."""
    _run(tmp_path, "write", nth, signame)


@pytest.mark.parametrize("nth", [1, 2, 10, 20])
def test_a_signal_while_the_command_line_is_imported(tmp_path, nth):
    """The handlers are installed before the command line is imported. (SIGINT and
    SIGTERM by turns, see ``_alternate``: the word each one says is checked either
    way, and the slow sweep below takes every lookup.)"""
    fired, end = _run(tmp_path, "import", nth, _alternate(nth))
    assert fired is not None and end == "old"


@pytest.mark.parametrize(("point", "nth", "signame"), [
    ("echo", 1, "SIGINT"), ("echo", 2, "SIGTERM"), ("exit", 1, "SIGTERM"), ("exit", 2, "SIGINT"),
    ("exit", 3, "SIGTERM"), ("exit", 3, "SIGINT")])
def test_a_signal_after_the_commit_leaves_a_finished_run(tmp_path, point, nth, signame):
    """While the files are reported, at the exit, in the interpreter's shutdown: the
    files are new, so the run exits 0. (After the commit the one handler returns before
    it looks at which signal came, so each point takes one of the two, and the last
    point, the interpreter's shutdown, both.)"""
    fired, end = _run(tmp_path, point, nth, signame)
    assert fired is not None and end == "new"


@pytest.mark.slow
def test_signals_from_outside_at_swept_moments(tmp_path):
    """A plain ``python -m cardgen`` signalled from outside: once the run has reached
    its writing (the event: a hidden temp file appears in the folder; a run that ends
    first is not signalled), after a swept number of further looks at the folder.
    Whatever the moment, the contract holds. (SIGINT and SIGTERM by turns, see
    ``_alternate``; the first moments, 0 to 2 polls, with both.)"""
    config, out = _setup(tmp_path)
    for nth, polls in enumerate((0, 0, 1, 1, 2, 2, 4, 8, 16, 32, 64, 128), start=1):
        signame = _alternate(nth)
        _old(out)
        process = subprocess.Popen(
            [sys.executable, "-m", "cardgen", "card", str(config), "-o", str(out), "-f",
             "pdf", "--dieline", "file"], stderr=subprocess.PIPE, stdout=subprocess.DEVNULL,
            text=True, cwd=ROOT)
        while process.poll() is None and not any(
                name.startswith(".") for name in os.listdir(out)):
            time.sleep(0.0005)  # (only not to starve the run of a CPU)
        for _ in range(polls):
            if process.poll() is not None:
                break
            os.listdir(out)
        if process.poll() is None:
            process.send_signal(getattr(signal, signame))
        _, err = process.communicate(timeout=HANG_GUARD)
        _check(out, signame, process.returncode, err, f"{signame} after {polls} polls")


@pytest.mark.slow
def test_a_signal_at_every_module_lookup_of_the_command_line(tmp_path):
    """(SIGINT and SIGTERM by turns: see ``_alternate``.)"""
    ends = _sweep(tmp_path, "import", range(1, 400))
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
