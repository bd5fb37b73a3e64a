"""What a cold command imports: each command line imports what its own work needs and no
more (a fresh process, its ``sys.modules`` read at the end), the root help screen lists
the commands without importing them, and the parameters' quick coercion gives what
Typer's own gives. benchmarks/bench_card.py measures the time these keep down.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import typer

from cardgen.cli import COMMANDS, app
from cardgen.cli.helptext import SUMMARIES, _QuickCoercion
from tests.helpers import ROOT

HANG_GUARD = 300  # seconds: only to stop a process that hangs, never a bound on speed
BOARD = "R1:B2B8E4I2I8-B4E2E8H4I9"
HEAVY = {"reportlab", "PIL", "fontTools", "svgwrite", "pydantic", "pydantic_core"}
COMMAND_MODULES = {f"cardgen.cli.{module}" for module, _, _ in COMMANDS.values()}
PRODUCTS = {"cardgen.card", "cardgen.rules", "cardgen.games", "cardgen.connector",
            "cardgen.ladder", "cardgen.render", "cardgen.prepress", "cardgen.text"}


def _imported(*args: str, cwd: Path = ROOT) -> set[str]:
    """The modules a fresh ``cardgen ARGS`` has imported when it ends (it must exit 0)."""
    code = ("import json, sys\nsys.argv = ['cardgen', *json.loads(sys.argv[1])]\n"
            "from cardgen.__main__ import main\ntry:\n    main()\nexcept SystemExit as exc:\n"
            "    assert exc.code == 0, exc.code\n"
            "sys.stderr.write('MODULES ' + json.dumps(sorted(sys.modules)) + '\\n')")
    done = subprocess.run([sys.executable, "-c", code, json.dumps(args)], capture_output=True,
                          text=True, cwd=cwd, timeout=HANG_GUARD)
    line = next((line for line in done.stderr.splitlines() if line.startswith("MODULES ")),
                None)
    assert done.returncode == 0 and line is not None, done.stderr
    return set(json.loads(line.removeprefix("MODULES ")))


def _shown(*args: str) -> set[str]:
    """The modules of ``cardgen ARGS`` that shows a help screen as a usage error (a group
    with no command; the root with no argument)."""
    code = ("import json, sys\nsys.argv = ['cardgen', *json.loads(sys.argv[1])]\n"
            "from cardgen.__main__ import main\ntry:\n    main()\nexcept SystemExit as exc:\n"
            "    assert exc.code in (0, 2), exc.code\n"
            "sys.stderr.write('MODULES ' + json.dumps(sorted(sys.modules)) + '\\n')")
    done = subprocess.run([sys.executable, "-c", code, json.dumps(args)], capture_output=True,
                          text=True, cwd=ROOT, timeout=HANG_GUARD)
    line = next((line for line in done.stderr.splitlines() if line.startswith("MODULES ")),
                None)
    assert done.returncode == 0 and line is not None and "Usage" in done.stdout, done.stderr
    return set(json.loads(line.removeprefix("MODULES ")))


def _tops(modules: set[str]) -> set[str]:
    return {name.split(".")[0] for name in modules}


def _under(modules: set[str], packages: set[str]) -> set[str]:
    return {m for m in modules if any(m == p or m.startswith(p + ".") for p in packages)}


# What Typer's own help screens import (cardgen draws them itself: cardgen.cli.helpscreen).
TYPERS_HELP = {"typer.rich_utils", "rich.markdown", "rich.traceback", "rich.syntax",
               "rich.pretty", "pygments", "markdown_it"}


def test_the_root_help_imports_no_command_and_no_heavy_library():
    modules = _imported("--help")
    assert not _tops(modules) & HEAVY
    assert not modules & COMMAND_MODULES  # the list comes from helptext.SUMMARIES
    assert not _under(modules, PRODUCTS)
    assert not _under(modules, TYPERS_HELP)


@pytest.mark.parametrize("args", [(), ("card", "--help"), ("rotator", "-h"), ("rotator",),
                                  ("ladder", "attack", "--help")])
def test_a_help_screen_imports_neither_typers_help_nor_markdown_nor_pygments(args):
    modules = _imported(*args) if args[-1:] in (("--help",), ("-h",)) else _shown(*args)
    assert "cardgen.cli.helpscreen" in modules  # (the check sees a screen drawn)
    assert not _under(modules, TYPERS_HELP)
    assert not _tops(modules) & HEAVY


@pytest.mark.parametrize("args", [("rotator", "solve", BOARD),
                                  ("connector", "validate",
                                   "templates/connector/reflector.toml")])
def test_a_light_command_imports_no_heavy_library_and_no_rich(args):
    modules = _imported(*args)
    assert not _tops(modules) & (HEAVY | {"rich", "markdown_it", "pygments"})
    assert modules & COMMAND_MODULES == {f"cardgen.cli.{args[0]}"}  # its own commands only


def test_a_pdf_card_imports_no_barcode_package_nor_what_other_formats_need(tmp_path):
    modules = _imported("card", "-f", "pdf", "-o", str(tmp_path / "out"), "-q")
    assert "reportlab.pdfgen.canvas" in modules  # (the check sees a card made)
    assert not _under(modules, {"reportlab.graphics"})  # the QR code is cardgen's own
    assert not _tops(modules) & {"svgwrite", "pydantic", "rich"}
    assert "cardgen.prepress.impose" not in modules  # (sheets only)
    assert modules & COMMAND_MODULES == {"cardgen.cli.card"}


def test_the_roots_summaries_are_the_commands_own_in_their_order():
    root = typer.main.get_command(app)
    assert list(SUMMARIES) == list(COMMANDS) == root.list_commands(None)
    made = dict(root.commands.items())
    assert {name: command.short_help for name, command in made.items()} == SUMMARIES


def _params() -> list[tuple[str, object, object]]:
    """Every parameter of every command: (path, command, parameter)."""
    found = []

    def walk(command: object, path: str) -> None:
        for param in getattr(command, "params", []):
            found.append((path, command, param))
        for name, sub in getattr(command, "commands", {}).items():
            walk(sub, f"{path} {name}".strip())

    walk(typer.main.get_command(app), "")
    return found


def _outcome(coerce, value, param, ctx):
    try:
        result = coerce(value, param=param, ctx=ctx)
    except Exception as exc:  # both sides must fail alike
        return ("raised", type(exc).__name__, str(exc))
    return ("value", type(result).__name__, repr(result))


def test_the_quick_coercion_gives_what_typers_own_gives(tmp_path, monkeypatch):
    """For every parameter of every command and values of every kind (none, the default,
    texts, numbers, paths of files that exist and do not, a NUL byte), the value or the
    error of :class:`_QuickCoercion` is Typer's."""
    coercion = pytest.importorskip("typer._coercion")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a-folder").mkdir()
    (tmp_path / "card.toml").write_text("")
    values = [None, "", "abc", "12", " 7 ", "1.5", "-3", "-", "out", "a-folder", "card.toml",
              "card.pdf", "nope/x.png", "\x00", 0, 7, 2.5, True, Path("out"), Path("card.pdf"),
              ("a", "b")]
    checked = 0
    for _, command, param in _params():
        quick = getattr(param, "_runtime_param", None)
        if not isinstance(quick, _QuickCoercion):
            continue
        full = coercion.build_runtime_param(param.type_descriptor)
        ctx = command.context_class(command)
        for value in [*values, param.default]:
            assert _outcome(quick.coerce, value, param, ctx) == _outcome(
                full.coerce, value, param, ctx), (param, value)
            checked += 1
    assert checked > 1000
