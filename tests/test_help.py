"""The help screens, as a user meets them at 80 columns: every screen (found by walking
the command tree) shows values as Click users expect (no Typer ``<bool>``/``<str>``),
fits 80 columns, names every option and its choices, lists one line per command, ends
with 1–3 examples that run, and answers ``-h`` as ``--help``; and through a real
pseudo-terminal, ``cardgen --help`` and ``cardgen ladder attack --help`` keep their
square brackets."""

from __future__ import annotations

import io
import os
import re
import select
import shlex
import shutil
import sys
from pathlib import Path

import pytest
import typer

from cardgen import __version__
from cardgen.cli import app, helptext
from tests.helpers import ROOT, cli, ok

WIDTH = 80
TYPER_TYPES = ("<bool>", "<str>", "<list", "<int>", "<float>", "<path>", "<datetime")
BOARD = "R1:B2B8E4I2I8-B4E2E8H4I9"


def command_tree() -> dict[tuple[str, ...], object]:
    """Every command and group of the Click tree, by its path (the root is ``()``)."""
    found: dict[tuple[str, ...], object] = {}

    def walk(command: object, path: tuple[str, ...]) -> None:
        found[path] = command
        for name, sub in getattr(command, "commands", {}).items():
            walk(sub, (*path, name))

    walk(typer.main.get_command(app), ())
    return found


TREE = command_tree()
PATHS = sorted(TREE)


def shown(*args: str) -> str:
    """The help screen of ``cardgen ARGS`` as printed at 80 columns (in process)."""
    before = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = str(WIDTH)
    try:
        return ok(cli(*args)).stdout
    finally:
        if before is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = before


@pytest.fixture(scope="module")
def screens() -> dict[tuple[str, ...], str]:
    return {path: shown(*path, "--help") for path in PATHS}


def visible_params(path: tuple[str, ...]) -> list[object]:
    return [p for p in getattr(TREE[path], "params", []) if not getattr(p, "hidden", False)]


def panel(text: str, title: str) -> list[str]:
    """The inner lines of the panel ``title`` of a help screen."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"╭─ {title} "))
    end = next(i for i in range(start + 1, len(lines)) if lines[i].startswith("╰"))
    return [line.strip("│ ").rstrip() for line in lines[start + 1:end]]


def examples_of(text: str) -> list[str]:
    """The command lines of a screen's Examples section."""
    lines = [line.strip() for line in text.splitlines()]
    start = lines.index("Examples:")
    out = []
    for line in lines[start + 1:]:
        if not line.startswith("cardgen"):
            break
        out.append(line.split("  #")[0].strip())
    return out


def test_the_walk_finds_every_command():
    names = {" ".join(path) for path in PATHS}
    assert {"", "card", "rotator", "rotator generate", "ladder attack", "nodes play"} <= names
    assert len(PATHS) >= 25
    assert set(helptext.EXAMPLES) == names  # examples for every screen, and no stale ones


@pytest.mark.parametrize("path", PATHS, ids=lambda p: " ".join(p) or "cardgen")
def test_a_help_screen(screens, path):
    text = screens[path]
    assert "Usage: cardgen" in text
    for typed in TYPER_TYPES:
        assert typed not in text, f"{typed} in the help of {path}"
    long = [line for line in text.splitlines() if len(line) > WIDTH]
    assert not long, long
    # Every option and argument is named, with its choices when it has some.
    for param in visible_params(path):
        for name in [*param.opts, *param.secondary_opts]:
            if param.param_type_name == "option":
                assert re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text), name
        if param.param_type_name == "argument":
            assert param.metavar in text
        value = helptext.shown_value(param, " ".join(path))
        assert value in text, (param, value)
        choices = helptext.ARGUMENT_CHOICES.get(" ".join(path))
        if param.param_type_name == "argument" and choices:
            prose = text.replace("│", " ")
            assert all(re.search(rf"\b{c}\b", prose) for c in choices), choices
        if getattr(param, "is_flag", False):
            assert value == ""
    # Examples close the screen: one to three of them.
    assert 1 <= len(examples_of(text)) <= 3
    # A group lists its commands one line each.
    if hasattr(TREE[path], "commands"):
        rows = panel(text, "Commands")
        assert [row.split()[0] for row in rows] == list(TREE[path].commands), rows


def test_choices_are_shown_as_choices(screens):
    assert re.search(r"--preset\s+\[eu\|us\]", screens[("card",)])
    assert re.search(r"--paper\s+\[a4\|letter\]", screens[("sheet",)])
    assert re.search(r"GAME\s+\[reflector\|deflector\]", screens[("nodes", "play")])
    assert re.search(r"--output\s+-o\s+FOLDER", screens[("card",)])
    assert re.search(r"--name\s+STEM", screens[("card",)])
    assert re.search(r"--seed\s+INTEGER", screens[("rotator", "generate")])
    assert re.search(r"--rgb\s+RGB", screens[("card",)])  # a flag: the help text follows


def test_square_brackets_in_help_texts_are_printed(screens):
    """Help texts are written plainly; Rich's markup does not take ``[defender]`` for a
    style (the walk escapes every text once)."""
    attack = " ".join(screens[("ladder", "attack")].replace("│", " ").split())
    assert "[[attacker]] cards and a [defender];" in attack and "\\" not in attack
    assert "nodes = [...]" in screens[("rotator", "show")]
    # ...while the texts stay as written for whatever else reads them.
    attack = TREE[("ladder", "attack")].params[0]
    assert attack.help.startswith("The attack (TOML: [[attacker]] cards and a [defender];")


def test_the_choices_are_those_the_commands_take():
    """The choices written in cardgen.cli.helptext are the enums' values..."""
    from cardgen.games.names import CONNECTOR_GAMES, RULES_GAMES
    from cardgen.games.registry import Grade
    from cardgen.physical.card import Preset
    from cardgen.prepress.dieline import DielineMode
    from cardgen.prepress.impose import Flip
    from cardgen.prepress.paper import Paper
    from cardgen.prepress.puzzlebook import PuzzleSize
    from cardgen.prepress.varnish import VarnishMode

    def values(kind):
        return tuple(m.value for m in kind)

    assert helptext.CHOICES["--preset"] == values(Preset)
    assert helptext.CHOICES["--paper"] == values(Paper)
    assert helptext.CHOICES["--flip"] == values(Flip)
    assert helptext.CHOICES["--dieline"] == values(DielineMode)
    assert helptext.CHOICES["--varnish"] == values(VarnishMode)
    assert helptext.CHOICES["--size"] == values(PuzzleSize)
    assert set(values(Grade)) <= set(helptext.CHOICES["--difficulty"])
    assert values(RULES_GAMES) == helptext.RULES_GAMES
    assert values(CONNECTOR_GAMES) == helptext.CONNECTOR_GAMES


# ...and a value outside them is refused, naming the option (arguments a command needs
# besides the one tried).
NEEDS = {("rotator", "print"): [BOARD], ("rotator", "play"): [BOARD],
         ("connector", "solve"): ["reflector"], ("rules",): ["reflector"],
         ("playsheet",): ["reflector"], ("nodes", "play"): ["reflector"]}
CHOICE_OPTIONS = [(path, name) for path in PATHS for param in visible_params(path)
                  for name in getattr(param, "opts", [])[:1]
                  if helptext.shown_value(param, " ".join(path)).startswith("[")
                  and param.param_type_name == "option"]


@pytest.mark.parametrize(("path", "option"), CHOICE_OPTIONS,
                         ids=[" ".join((*p, o)) for p, o in CHOICE_OPTIONS])
def test_a_value_outside_the_choices_is_refused(tmp_path, monkeypatch, path, option):
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    result = cli(*path, *NEEDS.get(path, []), option, "9", cwd=tmp_path)
    assert result.returncode != 0, result
    assert option in result.stderr, result.stderr
    assert not any(tmp_path.iterdir())


GAME_ARGUMENTS = [path for path in PATHS if " ".join(path) in helptext.ARGUMENT_CHOICES]


@pytest.mark.parametrize("path", GAME_ARGUMENTS, ids=lambda p: " ".join(p))
def test_a_game_outside_the_choices_is_refused(tmp_path, path):
    result = cli(*path, "chess", cwd=tmp_path)
    assert result.returncode != 0 and "chess" in result.stderr, result


def test_dash_h_is_dash_dash_help(screens):
    for path in PATHS:
        assert shown(*path, "-h") == screens[path], path


def test_version_and_completion(screens):
    result = ok(cli("--version"))
    assert result.stdout.strip() == f"cardgen {__version__}"
    for option in ("--version", "--install-completion", "--show-completion"):
        assert option in screens[()]


def test_completion_script(monkeypatch):
    """Typer's own completion: the script for a shell names the program. (The shell is
    found by walking up the process tree, which a run started from no shell lacks; the
    test says which shell it is.)"""
    monkeypatch.setattr("shellingham.detect_shell", lambda *_, **__: ("bash", "/bin/bash"))
    result = cli("--show-completion")
    assert result.returncode == 0, result
    assert "_CARDGEN_COMPLETE" in result.stdout


@pytest.mark.parametrize(("typed", "offered"), [
    ("cardgen ro", ["rotator"]),
    ("cardgen card --pre", ["--preset"]),
    ("cardgen card --preset ", ["eu", "us"]),
    ("cardgen rules de", ["deflector", "defector"]),
    ("cardgen ladder mat --rows ", ["3", "4"]),
])
def test_completion_completes(monkeypatch, typed, offered):
    """What the shell gets on Tab, as the installed script asks for it (bash's way):
    commands, options, and the choices of the options that take one of a few."""
    words = typed.split(" ")
    monkeypatch.setenv("_CARDGEN_COMPLETE", "complete_bash")
    monkeypatch.setenv("COMP_WORDS", typed)
    monkeypatch.setenv("COMP_CWORD", str(len(words) - 1))
    result = cli(*words[1:])
    assert result.returncode == 0, result
    assert result.stdout.split() == offered


# --- the examples run as written ----------------------------------------------------------

# The studio's examples serve until stopped: tests/test_studio_server.py runs them, in a
# process of their own, and stops them with Ctrl-C.
EXAMPLES = sorted({line for path in helptext.EXAMPLES.values() for line, _ in path
                   if not line.startswith("cardgen studio")})
# The slower ones (a whole card, a book, a search) run in the full command only.
QUICK = [line for line in EXAMPLES
         if not re.search(r"cardgen (card|sheet|rules|connector (solve|check)|"
                          r"rotator print)\b", line)]


def inputs(folder: Path, line: str) -> None:
    """The files the examples name, from the templates cardgen ships."""
    if not line.startswith("cardgen init"):
        ok(cli("init", "me.toml", cwd=folder))
    templates = ROOT / "templates"
    shutil.copy(templates / "connector" / "reflector.toml", folder / "my-assembly.toml")
    shutil.copy(templates / "ladder" / "example-deck.csv", folder / "my-deck.csv")
    shutil.copy(templates / "ladder" / "example-attack.toml", folder / "my-attack.toml")


@pytest.mark.parametrize("line", [line if line in QUICK else
                                  pytest.param(line, marks=pytest.mark.slow)
                                  for line in EXAMPLES])
def test_an_example_runs(tmp_path, monkeypatch, line):
    inputs(tmp_path, line)
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))  # the games: the input ends at once
    words = shlex.split(line)
    assert words[0] == "cardgen"
    result = cli(*words[1:], cwd=tmp_path)
    assert result.returncode == 0, (line, result)
    assert "Traceback" not in result.stderr


def test_the_examples_shown_are_the_examples_written(screens):
    for path in PATHS:
        assert examples_of(screens[path]) == [line for line, _ in
                                               helptext.EXAMPLES[" ".join(path)]]


# --- a real terminal ----------------------------------------------------------------------

def through_a_terminal(*args: str) -> str:
    """``cardgen ARGS`` in a real 80 × 24 pseudo-terminal: all it printed, until it
    ended (no clock)."""
    import fcntl
    import pty
    import struct
    import termios

    pid, fd = pty.fork()
    if pid == 0:  # pragma: no cover (the child)
        env = dict(os.environ, NO_COLOR="1", COLUMNS=str(WIDTH), LINES="24")
        env.pop("TERMINAL_WIDTH", None)
        os.execvpe(sys.executable, [sys.executable, "-m", "cardgen", *args], env)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, WIDTH, 0, 0))
    seen = b""
    while True:
        ready, _, _ = select.select([fd], [], [])
        assert ready
        try:
            chunk = os.read(fd, 65536)
        except OSError:  # the child ended and closed the terminal
            chunk = b""
        if not chunk:
            break
        seen += chunk
    _, status = os.waitpid(pid, 0)
    os.close(fd)
    assert os.waitstatus_to_exitcode(status) == 0
    text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", seen.decode())  # styles, if any
    return text.replace("\r\n", "\n")


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_help_in_a_terminal():
    top = through_a_terminal("--help")
    assert all(len(line) <= WIDTH for line in top.splitlines())
    rows = panel(top, "Commands")
    assert [row.split()[0] for row in rows] == list(TREE[()].commands)
    assert "<bool>" not in top and "-h" in top
    attack = " ".join(through_a_terminal("ladder", "attack", "--help")
                      .replace("│", " ").split())
    assert "[[attacker]] cards and a [defender]" in attack
    assert "as [[defender]] cards" in attack
    assert "\\[" not in attack
