"""The ``cardgen`` command line: parses options, calls the library, reports.

:func:`run` is the error boundary: any error becomes one line on stderr and the exit
status of its kind (:data:`STATUS`: 1 bad input, 2 usage, 3 a fault of the run, 4 a
check that found a problem), never a traceback; with ``--json``, a JSON object too.
Library errors name fields in the input's own terms; the command line words
parameter errors with its option names (``cli.common.OPTIONS``).
Heavy libraries (reportlab, Pillow, fontTools, svgwrite) are imported inside the
commands, and each command's module when the command is first asked for (:data:`COMMANDS`),
so that ``cardgen --help`` and the light commands stay fast.

It sits on top: it puts the products (``cardgen.card``, ``cardgen.rules``) and the games
together, and nothing imports it but ``cardgen.__main__``.

May import: ``cardgen.version``, ``cardgen.api``, ``cardgen.studio``, ``cardgen.errors``,
``cardgen.interrupt``;
``typer`` and ``rich``.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import importlib
import io
import os
import re
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Annotated, Any

import typer

from cardgen.cli.common import (
    USAGE,
    OutputIsFile,
    Refused,
    RunState,
    UsageError,
    begin,
    json_files,
    option_message,
    option_of,
)
from cardgen.cli.helptext import CONTEXT, CardgenGroup
from cardgen.errors import (
    CHECK_STATUS,
    FAULT_STATUS,
    LONGEST_LINE,
    LONGEST_MESSAGE,
    CardgenError,
    ChoiceError,
    Code,
    FitError,
    FontError,
    GeneralProblem,
    ImageError,
    InputFileError,
    OutputError,
    ParameterError,
    ProblemsError,
    ProfileError,
    RuntimeFault,
    one_line,
)
from cardgen.interrupt import STOPPING_SIGNALS, Interrupted, handling, settle
from cardgen.version import __version__

__all__ = ["STATUS", "STOPPING_SIGNALS", "Interrupted", "app", "main", "run"]

USAGE_STATUS = 2
BROKEN_PIPE_STATUS = 141  # 128 + SIGPIPE, as a shell reports a command a pipe stopped

# Where each command of the root is: its module in cardgen.cli, the name there, and whether
# it is a group (a Typer of its own) or a function. Each module is imported when its command
# is first asked for (see CardgenGroup): ``cardgen rotator solve`` imports the Rotator
# commands only, ``cardgen --help`` none.
COMMANDS: dict[str, tuple[str, str, bool]] = {
    "card": ("card", "card", False),
    "init": ("card", "init", False),
    "sheet": ("card", "sheet", False),
    "rules": ("rules", "rules", False),
    "playsheet": ("playsheet", "playsheet", False),
    "referee": ("referee", "referee", False),
    "rotator": ("rotator", "rotator", True),
    "connector": ("connector", "connector", True),
    "ladder": ("ladder", "ladder", True),
    "nodes": ("nodes", "nodes", True),
    "schema": ("schema", "schema", False),
    "studio": ("studio", "studio", False),
}


class _Root(CardgenGroup):
    """The root group, whose commands are made from :data:`COMMANDS` when first asked for,
    as Typer would have made them all at once."""

    def load(self, name: str) -> Any:
        module_name, attribute, group = COMMANDS[name]
        made = getattr(importlib.import_module(f"cardgen.cli.{module_name}"), attribute)
        # A Typer of this one command, with the root's settings, made into Click's group:
        # the command is what Typer makes of the root with all its commands.
        holder = typer.Typer(rich_markup_mode=app.rich_markup_mode,
                             pretty_exceptions_short=app.pretty_exceptions_short)
        if group:
            holder.add_typer(made)
        else:
            holder.command()(made)
        return typer.main.get_group(holder).commands[name]


app = typer.Typer(
    name="cardgen",
    help="Print-ready foldable game business cards, and the games played on them.",
    cls=_Root,
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


# How the parser words a whole number of more digits than Python reads as a number.
_TOO_LONG_A_NUMBER = "exceeded maximum size"
STATUS = {"done": 0, "input": 1, "usage": USAGE_STATUS, "fault": FAULT_STATUS,
          "check": CHECK_STATUS, "interrupted": 130, "terminated": 143,
          "broken pipe": BROKEN_PIPE_STATUS}


@dataclass
class _Failure:
    """An error to say: its one line on stderr, and its JSON object with ``--json``."""

    status: int
    message: str
    code: str
    field: str | None = None
    prefix: str = "error: "  # "" for the word of an interrupt ("interrupted")
    problems: list[dict[str, object]] | None = None  # each problem of a ProblemsError


def run(argv: Sequence[str] | None = None) -> int:
    """Run the command line on ``argv`` (default: the process's arguments) and return
    the exit status, the same for every command (see :data:`STATUS`):

    - 0 done;
    - 1 bad input (a file or value that cannot be used; one line on stderr);
    - 2 usage: the command line cannot be used as typed (an unknown command or option,
      a missing argument, a value not of the option's type such as ``--dpi abc`` or not
      one of its choices, ``-o`` naming a file; one line on stderr);
    - 3 a fault of the run rather than its input (:class:`~cardgen.errors.RuntimeFault`:
      a worker process killed, a full disk; one line on stderr);
    - 4 a check ran and found a problem (an invalid assembly, a refused deck or attack,
      a board with no win, an illegal move);
    - 130 interrupted and 143 terminated (one line, and every file old; see
      :mod:`cardgen.interrupt`);
    - 141 the reader of stdout went away (``cardgen ... | head -1``): nothing said.

    With ``--json`` stdout holds exactly one JSON object: the command's (see
    :func:`cardgen.cli.common.emit`), or ``{"error": {"code", "field", "message"}}``;
    a command that runs until stopped (``studio``, ``card --watch``) prints JSON lines,
    its own object the last of them (see :func:`cardgen.cli.common.emit_now`). Once
    the outcome is decided (an error to say, the end of the command, or files
    committed), later signals no longer change it."""
    import sys

    args = list(sys.argv[1:] if argv is None else argv)
    current = begin(args)
    captured = io.StringIO()
    try:
        with contextlib.ExitStack() as stack:
            if current.json:  # whatever the command prints goes into the JSON object
                stack.enter_context(contextlib.redirect_stdout(captured))
            status, failure = _outcome(args)
        if failure is not None:
            typer.echo(one_line(f"{failure.prefix}{failure.message}", LONGEST_LINE), err=True)
        if current.json:
            import json  # (not for a help screen)

            # (one line after JSON lines: a command that ran until it was stopped)
            typer.echo(json.dumps(_json_object(current, captured.getvalue(), failure),
                                  indent=None if current.lines else 2, ensure_ascii=False))
        sys.stdout.flush()
    except BrokenPipeError:  # the reader of our output went away (| head): nothing to say
        settle()
        _stdout_gone()
        return BROKEN_PIPE_STATUS
    return status


def _outcome(args: list[str]) -> tuple[int, _Failure | None]:
    """Run the command; its exit status and the error to say, if any."""
    click = _click_errors()
    try:
        # Libraries' own warnings never reach the user raw: cardgen turns what matters
        # into its own warnings where it happens (images, fonts), and ignores the rest.
        with handling(), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = _command().main(args=args, prog_name="cardgen", standalone_mode=False)
            settle()
    except Interrupted as exc:
        return exc.status, _Failure(exc.status, exc.word, GeneralProblem.INTERRUPTED,
                                    prefix="")
    except SystemExit as exc:
        settle()
        if _broken_pipe(exc.__context__):  # Click's own exit (status 1) for a closed stdout
            raise BrokenPipeError(errno.EPIPE, os.strerror(errno.EPIPE)) from None
        return (exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)), None
    except BrokenPipeError:
        raise
    except OutputIsFile as exc:
        settle()
        return _usage(str(exc), exc.field)
    except click.BadParameter as exc:
        settle()
        names = exc.param.opts if exc.param is not None else []
        where = (names[0] if names else exc.param_hint or "an option")
        field = where if isinstance(where, str) else None
        if isinstance(exc, click.MissingParameter):
            return _usage(_usage_text(exc), field)
        message = f"{where}: {exc.message.rstrip('.')}."
        if _TOO_LONG_A_NUMBER in exc.message:  # a whole number, but more digits than
            # Python reads (4300): a value that cannot be used, not a misuse of the option
            return 1, _Failure(1, message, GeneralProblem.PARAMETER, field)
        return _usage(message, field)
    except click.NoSuchOption as exc:
        settle()
        return _usage(_usage_text(exc), exc.option_name)
    except click.ClickException as exc:
        settle()
        if not exc.format_message():  # no command given: the help was shown instead
            return int(exc.exit_code), None
        return _usage(_usage_text(exc), None)
    except typer.Abort:
        settle()
        return 1, _Failure(1, "aborted", GeneralProblem.INTERRUPTED, prefix="")
    except (RuntimeFault, CardgenError) as exc:
        settle()
        return _failure(exc)
    return (result if isinstance(result, int) else 0), None


def _failure(exc: RuntimeFault | CardgenError) -> tuple[int, _Failure]:
    """A fault or an error of the input: its exit status and what to say."""
    if isinstance(exc, RuntimeFault):  # not the input's fault: a dead worker, a full disk
        return FAULT_STATUS, _Failure(FAULT_STATUS, str(exc), GeneralProblem.FAULT)
    if isinstance(exc, UsageError):
        return _usage(str(exc), exc.field)
    if isinstance(exc, ChoiceError):  # not one of the option's choices: as the parser says it
        return _usage(option_message(exc), option_of(exc.parameter))
    if isinstance(exc, ParameterError):
        return 1, _Failure(1, option_message(exc), str(exc.code), option_of(exc.parameter))
    status = CHECK_STATUS if isinstance(exc, Refused) else 1
    return status, _Failure(status, str(exc), _code(exc), _field(exc), problems=(
        _problems(exc) if isinstance(exc, ProblemsError) else None))


def said(exc: RuntimeFault | CardgenError) -> tuple[str, dict[str, object]]:
    """An error as a run says it, for a command that goes on after one (``card
    --watch``): its one line for stderr (``error: ...``) and its ``--json`` object
    (``{"error": {"code", "field", "message"}}``)."""
    failure = _failure(exc)[1]
    return (one_line(f"{failure.prefix}{failure.message}", LONGEST_LINE),
            _json_object(RunState(), "", failure))


def _problems(error: ProblemsError) -> list[dict[str, object]]:
    """Every problem of ``error`` as ``--json`` lists them: its code, its sentence, and
    the field and line it is about (null where the problem does not say)."""
    return [{"code": str(problem.code), "message": problem.message, "field": problem.field,
             "line": problem.line} for problem in error.problems]


def _broken_pipe(error: BaseException | None) -> bool:
    """Whether ``error`` is a write to a pipe whose reader went away."""
    return isinstance(error, BrokenPipeError) or (
        isinstance(error, OSError) and error.errno == errno.EPIPE)


def _usage(message: str, field: str | None) -> tuple[int, _Failure]:
    return USAGE_STATUS, _Failure(USAGE_STATUS, message, USAGE, field)


def _usage_text(error: Any) -> str:
    """A usage error of the parser's in one sentence, with where to read more:
    ``No such option: --bogus; see cardgen card --help.``"""
    message = one_line(error.format_message(), LONGEST_MESSAGE).rstrip(".")
    context = getattr(error, "ctx", None)
    where = context.command_path if context is not None else "cardgen"
    return f"{message}; see {where} --help."


def _code(error: CardgenError) -> str:
    """The problem code of an error, as ``--json`` gives it."""
    if isinstance(error, ProblemsError):
        return str(error.codes[0])
    own = getattr(error, "code", None)
    if isinstance(own, Code):
        return str(own)
    for kind, code in _CODES:
        if isinstance(error, kind):
            return str(code)
    if type(error) is CardgenError and (_field(error) or "").startswith("-"):
        return str(GeneralProblem.PARAMETER)  # an option's value the command refused
    return str(GeneralProblem.INVALID)


_CODES: tuple[tuple[type[CardgenError], GeneralProblem], ...] = (
    (InputFileError, GeneralProblem.INPUT_FILE), (OutputError, GeneralProblem.OUTPUT),
    (FontError, GeneralProblem.FONT), (ImageError, GeneralProblem.IMAGE),
    (ProfileError, GeneralProblem.PROFILE), (FitError, GeneralProblem.FIT),
    (Refused, GeneralProblem.REFUSED))


def _field(error: CardgenError) -> str | None:
    """The field, option or file an error is about, when it says one: a text's field,
    the file of a data file's problems, an option the sentence starts with, or the
    path of an input or output file."""
    if isinstance(error, FitError) and error.field:
        return error.field
    if isinstance(error, ProblemsError) and error.source:
        return error.source
    option = re.match(r"--?[a-z][a-z-]*(?=[: ])|[A-Z]+(?=: | must )", str(error))
    if option:
        return option.group(0)
    if isinstance(error, InputFileError | OutputError) and isinstance(error.value, Path | str):
        from cardgen.api.common import path_text  # (not for a help screen)

        return path_text(error.value)
    return None


def _json_object(current: RunState, printed: str, failure: _Failure | None
                 ) -> dict[str, object]:
    """The one JSON object of a run with ``--json``."""
    if failure is not None:
        error: dict[str, object] = {"code": failure.code, "field": failure.field,
                                    "message": one_line(failure.message)}
        if failure.problems is not None:
            error["problems"] = failure.problems
        data: dict[str, object] = {"error": error}
        if current.files:  # written before the error (a book of the boards found)
            data["files"] = json_files()
        return data
    data = dict(current.emitted) if current.emitted is not None else {}
    if "files" not in data and (current.files or current.emitted is None):
        data["files"] = json_files()
    if current.emitted is None:
        data["warnings"] = current.warnings
        data["text"] = printed.splitlines()
    return data


def _stdout_gone() -> None:
    """stdout's reader is gone: point stdout at the null device, so that the
    interpreter's last flush at exit says nothing either."""
    import sys

    with contextlib.suppress(OSError, ValueError, AttributeError, io.UnsupportedOperation):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)


def main() -> None:
    """The command line with the process's arguments; the ``cardgen`` command itself is
    ``cardgen.__main__.main``, which handles signals before this package is imported."""
    import sys

    sys.exit(run())
