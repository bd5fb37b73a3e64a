"""The ``cardgen`` command line: parses options, calls the library, reports.

:func:`run` is the error boundary: any input error becomes one line on stderr and exit
status 1, never a traceback. Library errors name fields in the input's own terms; the
command line words parameter errors with its option names (``cli.common.OPTIONS``).
Heavy libraries (reportlab, Pillow, fontTools, svgwrite) are imported inside the
commands so that ``cardgen --help`` stays fast.

May import every cardgen package, typer and rich; nothing imports it.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Annotated

import typer

from cardgen import __version__
from cardgen.cli import card as card_commands
from cardgen.cli import rotator as rotator_commands
from cardgen.cli.common import option_message
from cardgen.errors import CardgenError, ParameterError

app = typer.Typer(
    name="cardgen",
    help="Print-ready foldable game business cards, and the games played on them.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"cardgen {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True,
                                          help="Show the version and exit.")] = False,
) -> None:
    """Print-ready foldable game business cards, and the games played on them."""


app.command()(card_commands.card)
app.command()(card_commands.init)
app.command()(card_commands.sheet)
app.add_typer(rotator_commands.rotator)


def run(argv: Sequence[str] | None = None) -> int:
    """Run the command line on ``argv`` (default: the process's arguments) and return
    the exit status: 0 on success, 1 for an input error (one line on stderr), 2 for a
    usage error, 130 when interrupted."""
    try:
        app(args=None if argv is None else list(argv), prog_name="cardgen")
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except ParameterError as exc:
        typer.echo(f"error: {option_message(exc)}", err=True)
        return 1
    except CardgenError as exc:
        typer.echo(f"error: {exc}", err=True)
        return 1
    except KeyboardInterrupt:
        typer.echo("interrupted", err=True)
        return 130
    return 0


def main() -> None:
    """Console entry point."""
    sys.exit(run())
