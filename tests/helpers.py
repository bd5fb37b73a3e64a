"""Helpers shared by the tests: running the command line (in process, or as a real
process for the smoke tests), configs, and checks on failed runs."""

from __future__ import annotations

import ast
import contextlib
import functools
import io
import os
import subprocess
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DATA = Path(__file__).resolve().parent / "data"

BASE_CONFIG = """\
[card]
preset = "eu"
theme = "dark"

[person]
name = "Ada Example"
title = "Puzzle Designer"
company = "Example Games"
email = "ada@example.org"
phone = "+1 555 0100"
web = "example.org"
"""


@dataclass
class Result:
    """What a command-line run gave: like ``subprocess.CompletedProcess``."""

    returncode: int
    stdout: str
    stderr: str


def cli(*args: str | Path, cwd: Path | None = None) -> Result:
    """Run ``cardgen ARGS`` in this process through its error boundary,
    ``cardgen.cli.run``, capturing stdout and stderr. An exception that escapes the
    boundary (a bug) propagates and fails the test."""
    from cardgen.cli import run

    out, err = io.StringIO(), io.StringIO()
    before = Path.cwd()
    try:
        if cwd is not None:
            os.chdir(cwd)
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = run([str(a) for a in args])
    finally:
        os.chdir(before)
    return Result(code, out.getvalue(), err.getvalue())


def run_process(*args: str | Path, cwd: Path | None = None,
                timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """Run ``python -m cardgen ARGS`` as a real process (for the smoke tests)."""
    return subprocess.run([sys.executable, "-m", "cardgen", *map(str, args)],
                          capture_output=True, text=True, cwd=cwd, timeout=timeout)


def write_config(folder: Path, text: str = BASE_CONFIG, name: str = "card.toml") -> Path:
    """``text`` in a new file (an old one removed first: ext4 flushes a truncated file
    to disk before the write returns, milliseconds for the tests that rewrite one)."""
    path = folder / name
    path.unlink(missing_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


Run = Result | subprocess.CompletedProcess[str]


def ok(result: Run) -> Run:
    """A successful run: exit 0 and no traceback."""
    assert result.returncode == 0, (result.stdout, result.stderr)
    assert "Traceback" not in result.stderr, result.stderr
    return result


def error_line(result: Run, *needles: str, status: int = 1) -> str:
    """A failed run: exit ``status`` (1, an input error; 3, a fault of the run), no
    traceback, exactly one ``error: ...`` line on stderr holding every needle, and no
    file reported written. Returns the line."""
    assert result.returncode == status, (result.returncode, result.stdout, result.stderr)
    assert "Traceback" not in result.stderr, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, f"expected one line on stderr, got {result.stderr!r}"
    line = lines[0]
    assert line.startswith("error: "), line
    assert len(line) > len("error: ") + 10, line
    for needle in needles:
        assert needle in line, f"{needle!r} not in {line!r}"
    assert "wrote " not in result.stdout, result.stdout
    return line


# --- the quick loop --------------------------------------------------------------------------

def sampled(values: Iterable[Any], *quick: Any) -> list[Any]:
    """``values`` for ``parametrize`` (or a fixture's ``params``) with every value but
    those of ``quick`` marked ``slow``: a sweep whose sample ``quick`` runs in the quick
    loop (``-m "not slow"``) and whose whole runs in the full command. A tuple is the
    values of several argument names."""
    import pytest

    return [value if value in quick else
            pytest.param(*(value if isinstance(value, tuple) else (value,)),
                         marks=pytest.mark.slow)
            for value in values]


QUICK_LOOP = False  # set by conftest when the run leaves out the tests marked ``slow``


def examples(count: int) -> int:
    """How many examples a property test draws: ``count`` in the full command, a quarter
    of it (at least 10, and never more than ``count``) in the quick loop (``-m "not
    slow"``, see ``conftest``). The two runs' usual way, as Hypothesis's own guide sets
    apart a development profile and a CI profile: the quick loop still tries every
    property on fresh, varied input, each edit's first run finds what breaks a property
    outright, and the full command (what CI runs) keeps each test's stated count for
    what only many examples find. (A test's ``settings`` win over a loaded profile, so
    the counts are scaled here, where they are stated.)"""
    return count if not QUICK_LOOP else min(count, max(10, count // 4))


# --- cardgen's own source ------------------------------------------------------------------

@functools.cache
def syntax_tree(path: Path) -> ast.Module:
    """The syntax tree of a Python file, parsed once per test process: several test
    modules read all of cardgen's source (its imports, names, strings, calls), some of
    them while they are collected, and parsing it takes some 0.5 s a time. Callers only
    read the tree."""
    return ast.parse(path.read_text(encoding="utf-8"))


@functools.cache
def syntax_nodes(path: Path) -> tuple[ast.AST, ...]:
    """Every node of :func:`syntax_tree`, in ``ast.walk``'s order."""
    return tuple(ast.walk(syntax_tree(path)))


# --- fonts ----------------------------------------------------------------------------------

def cff_font(path: Path, letters: str, empty: str = "") -> Path:
    """A small PostScript-outline (CFF) OpenType font "Test Box": each letter a filled
    box, except those of ``empty``, whose CharStrings draw nothing. Returns ``path``."""
    from fontTools.fontBuilder import FontBuilder
    from fontTools.pens.t2CharStringPen import T2CharStringPen

    names = [".notdef", "space", *[f"g{ord(ch)}" for ch in letters]]
    fb = FontBuilder(1000, isTTF=False)
    fb.setupGlyphOrder(names)
    fb.setupCharacterMap({32: "space", **{ord(ch): f"g{ord(ch)}" for ch in letters}})
    charstrings = {}
    for name in names:
        pen = T2CharStringPen(500, None)
        if name not in (".notdef", "space") and name[1:] not in {str(ord(c)) for c in empty}:
            pen.moveTo((50, 0))
            pen.lineTo((450, 0))
            pen.lineTo((450, 700))
            pen.lineTo((50, 700))
            pen.closePath()
        charstrings[name] = pen.getCharString()
    fb.setupCFF("TestBox-Regular", {"FullName": "Test Box"}, charstrings, {})
    fb.setupHorizontalMetrics({n: (500, 50) for n in names})
    fb.setupHorizontalHeader(ascent=800, descent=-200)
    fb.setupNameTable({"familyName": "Test Box", "styleName": "Regular",
                       "fullName": "Test Box", "psName": "TestBox-Regular"})
    fb.setupOS2(sTypoAscender=800, sTypoDescender=-200, sCapHeight=700)
    fb.setupPost()
    fb.save(str(path))
    return path


# --- processes (Linux: read from /proc) ---------------------------------------------------

def proc_fields(pid: int) -> list[str] | None:
    """``/proc/PID/stat`` from its third field (the state) on, or None if it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return text[text.rindex(")") + 2:].split()  # after "pid (command) "


def proc_stat(pid: int) -> tuple[str, int, int] | None:
    """A process's state letter, parent pid and start time, or None if it is gone."""
    fields = proc_fields(pid)
    return None if fields is None else (fields[0], int(fields[1]), int(fields[19]))


Proc = tuple[int, int]  # a process: its pid and start time, so a reused pid is not it


def children(parent: int) -> list[Proc]:
    """The living (not zombie) children of ``parent``."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit() and (stat := proc_stat(int(entry))) is not None:
            state, ppid, started = stat
            if ppid == parent and state not in "ZX":
                found.append((int(entry), started))
    return found


# --- the command line's options -------------------------------------------------------------

def cli_parameters() -> Iterator[tuple[str, Any]]:
    """Every parameter of every command, with the command as typed ("rotator print"),
    found by walking the command line's tree, so that a new option is never missed."""
    from cardgen.cli import _command

    def walk(command: Any, prefix: str) -> Iterator[tuple[str, Any]]:
        if hasattr(command, "commands"):
            for name, sub in command.commands.items():
                yield from walk(sub, f"{prefix} {name}".strip())
        else:
            for param in command.params:
                yield prefix, param

    yield from walk(_command(), "")
