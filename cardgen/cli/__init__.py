"""The ``cardgen`` command line: parses options, calls the library, reports.

:func:`run` is the error boundary: any input error becomes one line on stderr and exit
status 1, never a traceback. Library errors name fields in the input's own terms; the
command line words parameter errors with its option names (``cli.common.OPTIONS``).
Heavy libraries (reportlab, Pillow, fontTools, svgwrite) are imported inside the
commands so that ``cardgen --help`` stays fast.

It sits on top: it puts the products (``cardgen.card``, ``cardgen.rules``) and the games
together, and nothing imports it but ``cardgen.__main__``.

May import: ``cardgen`` (the version), ``cardgen.card``, ``cardgen.rules``,
``cardgen.connector``, ``cardgen.ladder``, ``cardgen.games``, ``cardgen.games.registry``,
``cardgen.games.nodes``, ``cardgen.physical``, ``cardgen.board``, ``cardgen.draw``,
``cardgen.text``, ``cardgen.texts``, ``cardgen.prepress``, ``cardgen.render``,
``cardgen.output``, ``cardgen.datafile``, ``cardgen.schema``, ``cardgen.errors``,
``cardgen.interrupt``; ``typer`` and ``rich``.
"""

from __future__ import annotations

import functools
import importlib
import warnings
from collections.abc import Sequence
from types import ModuleType
from typing import Annotated, Any

import typer

from cardgen import __version__
from cardgen.cli import card as card_commands
from cardgen.cli import connector as connector_commands
from cardgen.cli import ladder as ladder_commands
from cardgen.cli import nodes as nodes_commands
from cardgen.cli import playsheet as playsheet_commands
from cardgen.cli import referee as referee_commands
from cardgen.cli import rotator as rotator_commands
from cardgen.cli import rules as rules_commands
from cardgen.cli.common import option_message
from cardgen.cli.helptext import CONTEXT, CardgenGroup
from cardgen.errors import (
    FAULT_STATUS,
    LONGEST_LINE,
    LONGEST_MESSAGE,
    CardgenError,
    ParameterError,
    RuntimeFault,
    one_line,
)
from cardgen.interrupt import STOPPING_SIGNALS, Interrupted, handling, settle

__all__ = ["STOPPING_SIGNALS", "Interrupted", "app", "main", "run"]

app = typer.Typer(
    name="cardgen",
    help="Print-ready foldable game business cards, and the games played on them.",
    cls=CardgenGroup,
    context_settings=CONTEXT,
    rich_markup_mode="rich",
    no_args_is_help=True,
    add_completion=True,
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
app.add_typer(connector_commands.connector)
app.add_typer(ladder_commands.ladder)
app.add_typer(nodes_commands.nodes)
app.command()(rules_commands.rules)
app.command()(playsheet_commands.playsheet)
app.command()(referee_commands.referee)


def _click_errors() -> ModuleType:
    """Click's exceptions: Typer 0.2x vendors its own Click, older Typer uses Click's."""
    for name in ("typer._click.exceptions", "click.exceptions"):
        try:
            return importlib.import_module(name)
        except ImportError:
            continue
    raise ImportError("neither Typer's nor Click's exceptions can be imported")


@functools.cache
def _command() -> Any:
    """The Click command that Typer makes of ``app``, made once per process. (Calling
    ``app`` itself makes it anew on every call, a few milliseconds that add up when the
    tests run the command line in process hundreds of times. Its only other work, setting
    Typer's exception hook, does nothing with pretty exceptions turned off.)"""
    return typer.main.get_command(app)


def _usage_error(error: Any) -> None:
    """A usage error shown as Typer shows it (with the command's usage)."""
    try:
        from typer import rich_utils

        rich_utils.rich_format_error(error)
    except ImportError:  # Typer without rich
        error.show()


def run(argv: Sequence[str] | None = None) -> int:
    """Run the command line on ``argv`` (default: the process's arguments) and return
    the exit status: 0 on success; 1 for an input error, bad option values included (one
    line on stderr); 2 for a usage error (an unknown option, a missing argument); 3 for a
    fault of the run rather than its input (:class:`~cardgen.errors.RuntimeFault`: a
    worker process killed, a full disk; one line on stderr) or a broken pipe; 130
    when interrupted and 143 when terminated (one line, and every file old; see
    :mod:`cardgen.interrupt`). Once the outcome is decided (an error to say, the end of
    the command, or files committed), later signals no longer change it."""
    click = _click_errors()
    try:
        # Libraries' own warnings never reach the user raw: cardgen turns what matters
        # into its own warnings where it happens (images, fonts), and ignores the rest.
        with handling(), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = _command().main(args=None if argv is None else list(argv),
                                     prog_name="cardgen", standalone_mode=False)
            settle()
    except Interrupted as exc:
        typer.echo(exc.word, err=True)
        return exc.status
    except SystemExit as exc:
        settle()
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except click.BadParameter as exc:
        settle()
        if isinstance(exc, click.MissingParameter):
            _usage_error(exc)
            return int(exc.exit_code)
        names = exc.param.opts if exc.param is not None else []
        where = (names[0] if names else exc.param_hint or "an option")
        _error(f"{where}: {exc.message.rstrip('.')}.")
        return 1
    except click.ClickException as exc:
        settle()
        exc.message = one_line(exc.message, LONGEST_MESSAGE)  # it may quote what was typed
        _usage_error(exc)
        return int(exc.exit_code)
    except typer.Abort:
        settle()
        typer.echo("aborted", err=True)
        return 1
    except BrokenPipeError:  # the reader of our output went away (| head): nothing to say
        settle()
        return FAULT_STATUS
    except RuntimeFault as exc:  # not the input's fault: a dead worker, a full disk
        settle()
        _error(str(exc))
        return FAULT_STATUS
    except ParameterError as exc:
        settle()
        _error(option_message(exc))
        return 1
    except CardgenError as exc:
        settle()
        _error(str(exc))
        return 1
    return result if isinstance(result, int) else 0


def _error(message: str) -> None:
    """The one line of an input error on stderr: never split, reordered or overlong,
    whatever it quotes (see :func:`cardgen.errors.one_line`)."""
    typer.echo(one_line(f"error: {message}", LONGEST_LINE), err=True)


def main() -> None:
    """The command line with the process's arguments; the ``cardgen`` command itself is
    ``cardgen.__main__.main``, which handles signals before this package is imported."""
    import sys

    sys.exit(run())
