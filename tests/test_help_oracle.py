"""cardgen draws its help screens itself (cardgen.cli.helpscreen, without importing
Typer's ``rich_utils``): every screen is, byte for byte, the one Typer's
``rich_utils.rich_format_help`` draws, kept here as the oracle. Each screen of the command
tree (``--help`` of the root, of every group and command, and the screens a group shows
when called with no command) is drawn both ways at three widths, in fresh processes
whose environment decides the colours as a user's would (no terminal; FORCE_COLOR with
standard, 256 and true colours; NO_COLOR; a dumb terminal; Typer's TERMINAL_WIDTH)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.helpers import ROOT

HANG_GUARD = 300  # seconds: only to stop a process that hangs, never a bound on speed
WIDTHS = (80, 60, 120)
ENVIRONMENTS = {
    "no terminal": {},
    "FORCE_COLOR, standard": {"FORCE_COLOR": "1", "TERM": "xterm"},
    "FORCE_COLOR, 256": {"FORCE_COLOR": "1", "TERM": "xterm-256color"},
    "FORCE_COLOR, truecolor": {"FORCE_COLOR": "1", "COLORTERM": "truecolor"},
    "FORCE_COLOR and NO_COLOR": {"FORCE_COLOR": "1", "NO_COLOR": "1",
                                 "TERM": "xterm-256color"},
    "dumb terminal": {"FORCE_COLOR": "1", "TERM": "dumb"},
    "TERMINAL_WIDTH": {"TERMINAL_WIDTH": "100", "PY_COLORS": "1"},
}
COLOUR_VARIABLES = ("FORCE_COLOR", "NO_COLOR", "TERM", "COLORTERM", "TERMINAL_WIDTH",
                    "PY_COLORS", "GITHUB_ACTIONS", "_TYPER_FORCE_DISABLE_TERMINAL",
                    "TTY_COMPATIBLE", "TTY_INTERACTIVE", "COLUMNS", "JUPYTER_COLUMNS")

# Run in the fresh process: every screen drawn by cardgen, then by Typer's rich_utils
# (cardgen's drawing replaced by Typer's for the second pass), at each width.
DRAW_BOTH = r"""
import contextlib, io, json, os, sys
import typer
from typer import rich_utils
from cardgen.cli import _command, helpscreen, run

def tree():
    found = []
    def walk(command, path):
        found.append(path)
        for name, sub in getattr(command, "commands", {}).items():
            walk(sub, (*path, name))
    walk(_command(), ())
    return found

def lines():
    for path in tree():
        yield [*path, "--help"]
        yield [*path, "-h"]
        if hasattr(_get(path), "commands"):
            yield list(path)  # a group with no command: its help, as a usage error

def _get(path):
    command = _command()
    for name in path:
        command = command.commands[name]
    return command

def draw(args):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = run(args)
    return status, out.getvalue(), err.getvalue()

def typers(obj, ctx):
    rich_utils.rich_format_help(obj=obj, ctx=ctx, markup_mode="rich")

ours = helpscreen.format_help
result = {"screens": 0, "different": [], "modules": []}
for width in json.loads(sys.argv[1]):
    os.environ["COLUMNS"] = str(width)
    for args in lines():
        helpscreen.format_help = ours
        mine = draw(args)
        helpscreen.format_help = typers
        oracle = draw(args)
        result["screens"] += 1
        if mine != oracle or not mine[1].strip():
            result["different"].append([width, args, mine, oracle])
helpscreen.format_help = ours
print(json.dumps(result))
"""


@pytest.mark.parametrize("name", list(ENVIRONMENTS))
def test_every_screen_is_typers(name):
    env = {key: value for key, value in os.environ.items() if key not in COLOUR_VARIABLES}
    env.update(ENVIRONMENTS[name])
    done = subprocess.run([sys.executable, "-c", DRAW_BOTH, json.dumps(WIDTHS)],
                          capture_output=True, text=True, cwd=ROOT, env=env,
                          timeout=HANG_GUARD)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["screens"] >= 3 * (2 * 25 + 5)  # each command, its -h, the groups bare
    assert not result["different"], result["different"][:2]


def test_colour_is_drawn_when_asked_for():
    """(The oracle compares colours too: with FORCE_COLOR the screens have styles.)"""
    env = {key: value for key, value in os.environ.items() if key not in COLOUR_VARIABLES}
    env.update(FORCE_COLOR="1", TERM="xterm-256color", COLUMNS="80")
    done = subprocess.run([sys.executable, "-m", "cardgen", "card", "--help"],
                          capture_output=True, text=True, cwd=ROOT, env=env,
                          timeout=HANG_GUARD)
    assert done.returncode == 0, done.stderr
    assert "\x1b[1;36m-output\x1b[0m" in done.stdout  # (Rich styles "-" apart)


def test_another_typer_gets_typers_own_screens(monkeypatch):
    """Where the installed Typer lacks what the screens read, Typer draws them (the same
    screen here); with Rich turned off (TYPER_USE_RICH=0), Click's plain help shows the
    texts as written, without markup escapes."""
    from cardgen.cli import helpscreen
    from tests.helpers import cli

    monkeypatch.setenv("COLUMNS", "80")
    ours = cli("ladder", "attack", "--help")
    monkeypatch.setattr(helpscreen, "supported", lambda: False)
    assert cli("ladder", "attack", "--help") == ours
    monkeypatch.setattr("typer.core.HAS_RICH", False)
    plain = cli("ladder", "attack", "--help")
    assert plain.returncode == 0 and "Usage: cardgen ladder attack" in plain.stdout
    assert "[[attacker]] cards and a [defender]" in " ".join(plain.stdout.split())
    assert "\\[" not in plain.stdout
