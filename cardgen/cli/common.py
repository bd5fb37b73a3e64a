"""What every command shares: option types, turning option text into the library's
values (with errors that name the option), reporting files and warnings, progress.

The run's switches, for every command (set by the options' callbacks while the command
line is parsed, and reset by ``cardgen.cli.run`` before each run):

- :func:`quiet` is true with ``-q/--quiet``: no ``wrote``/``replaced`` lines, no
  warnings (:func:`warn` reads it), no progress (the progress code reads it too).
  Errors, ``--json`` output and exit codes are unchanged.
- :func:`json_output` is true with ``--json``: stdout holds exactly one JSON object.
  A command gives its object to :func:`emit`; the files reported by :func:`report` go
  in it as ``"files": [{"path": ..., "replaced": false}]``; anything else the command
  prints to stdout is kept as ``"text"`` lines; an error is ``{"error": {"code",
  "field", "message"}}`` (``cardgen.cli.run`` prints it).

:func:`report` is the one way a command says which files it wrote: ``wrote PATH`` for
a new file, ``replaced PATH`` for one that was there before, PATH as the user gave it
(the ``-o`` value as typed joined with the file name, never made absolute).

The output rule (:data:`OutputOpt`): ``-o/--output`` is always the folder to write into
and ``--name`` the file name without suffix; ``-o`` naming a file is refused as a usage
error (exit 2) that says how to name the file.
"""

from __future__ import annotations

import enum
import os
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer

from cardgen.cli.progress import Progress, read_quiet
from cardgen.errors import (
    LONGEST_LINE,
    CardgenError,
    ChoiceError,
    Code,
    ParameterError,
    joint,
    one_line,
)

if TYPE_CHECKING:
    from cardgen.api.common import Document, Format, Written
    from cardgen.api.targets import InkRule

E = TypeVar("E", bound=enum.Enum)

DEFAULT_OUTPUT = Path("output")
USAGE = "usage"  # the code of a usage error in --json (the problem enums' codes otherwise)
# Suffixes of the files cardgen writes: an -o value ending in one names a file, not a folder.
# --json on a game played at the prompt: its input is checked (errors as JSON), then this.
PLAY_JSON = ("--json: the game is played at the terminal, not as JSON; leave out --json "
             "(for the answer as JSON: cardgen {board}).")
FILE_SUFFIXES = frozenset({".pdf", ".svg", ".png", ".toml", ".json", ".csv", ".txt"})


class UsageError(CardgenError):
    """A command line that cannot be used as typed (a value that is not one of an
    option's choices, ``-o`` naming a file): one line on stderr, exit status 2.
    ``field`` names the option or argument."""

    def __init__(self, message: str, *, field: str | None = None, value: object = None
                 ) -> None:
        super().__init__(message, value=value)
        self.field = field


class Refused(CardgenError):
    """A check ran and refused what it was given (a Corporate Ladder attack the rules
    forbid): one line on stderr, exit status 4, as for every check that finds a
    problem. ``code`` is the problem's code."""

    def __init__(self, message: str, *, code: Code | None = None, value: object = None
                 ) -> None:
        super().__init__(message, value=value)
        if code is not None:
            self.code = code


@dataclass
class RunState:
    """The switches and the report of one run (see the module's docstring)."""

    quiet: bool = False
    json: bool = False
    output: str | None = None  # the -o value as typed (a folder)
    files: list[Written] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    emitted: dict[str, object] | None = None
    stdout: Any = None  # the run's stdout before --json captured it (for emit_now)


_STATE = RunState()


def begin(argv: Sequence[str]) -> RunState:
    """A fresh state for a run of the command line ``argv``; ``--json`` and ``-q`` are
    seen in ``argv`` too, so that an error the parser finds before their callbacks run
    (an unknown option) is already said as they ask."""
    global _STATE
    words = list(argv[:argv.index("--")] if "--" in argv else argv)
    _STATE = RunState(quiet=any(w in ("-q", "--quiet") for w in words),
                      json="--json" in words, stdout=sys.stdout)
    return _STATE


def state() -> RunState:
    """This run's state (for ``cardgen.cli.run``)."""
    return _STATE


def quiet() -> bool:
    """True with ``-q/--quiet``: no ``wrote``/``replaced`` lines (:func:`report`), no
    warnings (:func:`warn`) and no progress display; what the command reports and its
    errors are said as ever."""
    return _STATE.quiet


def json_output() -> bool:
    """True with ``--json``: stdout is one JSON object (no progress on the terminal)."""
    return _STATE.json


def _progress_hidden() -> bool:
    """The progress line hides itself with ``-q`` and with ``--json`` (see
    :func:`cardgen.cli.progress.read_quiet`)."""
    return _STATE.quiet or _STATE.json


read_quiet(_progress_hidden)


def _set_quiet(value: bool) -> bool:
    if value:
        _STATE.quiet = True
    return value


def _set_json(value: bool) -> bool:
    if value:
        _STATE.json = True
    return value


def emit(data: dict[str, object]) -> None:
    """The command's JSON object (with ``--json``): printed once, at the end of the
    run, with the files written added as ``"files"`` unless it has them already."""
    _STATE.emitted = data


def emit_now(data: dict[str, object]) -> None:
    """One JSON object on one line of stdout, now: what a command that runs until it
    is stopped (``cardgen studio``, ``cardgen card --watch``) says with ``--json`` while
    it runs, a line per event (JSON Lines); the run's own object (its interruption)
    follows when it ends."""
    import json

    stream = _STATE.stdout if _STATE.stdout is not None else sys.stdout
    stream.write(json.dumps(data, ensure_ascii=False) + "\n")
    stream.flush()


def json_files() -> list[dict[str, object]]:
    """The files written so far, as ``--json`` lists them."""
    return [{"path": shown_path(w.path), "replaced": w.replaced} for w in _STATE.files]


def output_folder(value: str | Path) -> Path:
    """The ``-o/--output`` of every command that writes files: the folder to write into
    (remembered as typed, for :func:`report`). A value that is an existing regular file,
    or that is not an existing folder and ends in a suffix cardgen writes (``.pdf``,
    ``.toml``...), is refused as a usage error that shows how to name the file."""
    text = str(value)
    path = Path(text)
    try:
        is_file = path.is_file()
        is_folder = path.is_dir()
    except (OSError, ValueError):  # a name too long for a path, or with a NUL byte
        is_file = is_folder = False
    if is_file or (not is_folder and path.suffix.lower() in FILE_SUFFIXES):
        parent = os.path.dirname(text.rstrip("/" + os.sep)) or "."
        raise OutputIsFile(
            f"-o {one_line(text)}: -o is the folder to write into; to name the file, use "
            f"-o {one_line(parent)} --name {one_line(path.stem)}", field="-o", value=text)
    _STATE.output = text
    return path


class OutputIsFile(Exception):
    """``-o`` naming a file, found while the command line is parsed: a usage error.
    (Not a ``ValueError``, which the parser would reword.)"""

    def __init__(self, message: str, *, field: str, value: object) -> None:
        super().__init__(message)
        self.field, self.value = field, value


def shown_folder(folder: Path) -> str:
    """The output folder as the user gave it (``-o`` as typed), on one line."""
    typed = _STATE.output
    return one_line(typed if typed is not None and Path(typed) == folder else str(folder))


def shown_path(path: Path) -> str:
    """``path`` as the user gave it: under the ``-o`` folder, that folder as typed
    (``./out/card.pdf`` stays so, never made absolute), joined with the file name;
    escaped onto one line."""
    typed = _STATE.output
    text = str(path)
    if typed is not None and path.parent == Path(typed):
        text = typed + path.name if typed.endswith(("/", os.sep)) else os.path.join(
            typed, path.name)
    return one_line(text)

# The library's parameter names -> the options that set them.
OPTIONS = {"margin": "--margin", "offset": "--offset", "count": "--count", "jobs": "--jobs",
           "name": "--name", "picture": "--picture", "players": "--players",
           "example": "--example", "stem": "--name",
           # cardgen.api.card's
           "formats": "--format", "dieline": "--dieline", "varnish": "--varnish",
           "dpi": "--dpi", "preset": "--preset", "theme": "--theme", "marks": "--marks",
           "output_intent": "--output-intent", "paper": "--paper", "flip": "--flip",
           "rgb": "--rgb", "config": "CONFIG"}

ConfigArg = Annotated[Path | None, typer.Argument(
    help="Card config (TOML). Without it, the built-in example card.", show_default=False)]
OutputOpt = Annotated[Path, typer.Option(
    "--output", "-o", parser=output_folder, metavar="FOLDER",
    help="The folder to write into (created if missing); name the files with --name.")]


def name_option(help: str, **settings: Any) -> Any:
    """The ``--name STEM`` option of a command that writes files: the file name without
    its suffix (the suffix comes from the format)."""
    return typer.Option(metavar="STEM", help=help, **settings)


QuietOpt = Annotated[bool, typer.Option(
    "--quiet", "-q", callback=_set_quiet, is_eager=True,
    help="No wrote/replaced lines, no warnings, no progress: only what the command "
    "reports, and errors.")]
JsonOpt = Annotated[bool, typer.Option(
    "--json", callback=_set_json, is_eager=True,
    help="Print one JSON object on stdout, errors included.")]
RgbOpt = Annotated[bool, typer.Option("--rgb", help="RGB colours for screens instead of CMYK.")]
PresetOpt = Annotated[str | None, typer.Option(
    "--preset", help="Override the size: eu (85 × 55 mm) or us (3.5 × 2 in).", show_default=False)]
ThemeOpt = Annotated[str | None, typer.Option(
    "--theme", help="Override the theme: dark, light or a theme file.", show_default=False)]
PaperOpt = Annotated[str, typer.Option(help="Paper size.")]
DpiOpt = Annotated[float, typer.Option(help="PNG resolution (36–1200).")]
PagesFormatOpt = Annotated[str, typer.Option(
    "--format", "-f", help="Comma-separated: pdf, svg, png (svg and png: one file per page).")]
DPI_RANGE = (36, 1200)  # (cardgen.api.common.DPI_RANGE: the same, for --help without it)


def option_message(error: ParameterError) -> str:
    """A library parameter error worded with the option the user typed."""
    return f"{option_of(error.parameter)}{joint(error.problem)}{error.problem}"


def option_of(parameter: str) -> str:
    """The option that sets the library's parameter ``parameter`` (``output_intent`` ->
    ``--output-intent``); a name the table does not hold is said as it is (the
    command-line helpers below pass the option itself)."""
    return OPTIONS.get(parameter, parameter)


def parse_choice(kind: Iterable[E], value: str, option: str) -> E:
    """The member of ``kind`` (an enum, or some of its members) whose value is ``value``
    (any case); a usage error naming ``option`` otherwise."""
    from cardgen.api.common import choice

    try:
        return choice(kind, value, option)
    except ChoiceError as exc:
        raise UsageError(str(exc), field=option, value=value) from None


def parse_formats(value: str) -> list[Format]:
    """``--format``'s comma-separated formats (a usage error for one cardgen does not
    write)."""
    from cardgen.api.common import format_list

    try:
        return format_list(value)
    except ChoiceError as exc:
        raise UsageError(option_message(exc), field="--format", value=value) from None


def parse_offset(value: str) -> tuple[float, float]:
    """``--offset X,Y``: two numbers in mm."""
    from cardgen.api.common import offset_mm

    return offset_mm(value, "--offset")


def check_range(value: float, option: str, low: float | None = None,
                high: float | None = None) -> float:
    """An option's number, or an error naming the option and its range (NaN, infinities
    and whole numbers of hundreds of digits too)."""
    from cardgen.api.common import in_range

    return in_range(value, option, low, high)


def check_theme(theme: str | None, config: Path | None, ink: InkRule | None = None) -> None:
    """``--theme`` read as the cards will read it (a built-in name, or a file relative to
    the config's folder; its colours held to ``ink``, a print target's rule, when given),
    so that a theme that cannot be found or read is said naming ``--theme`` rather than
    the config key it overrides."""
    if theme is None:
        return
    from cardgen.api.card import check_theme as check

    check(theme, config.resolve().parent if config is not None else Path.cwd(), ink=ink)


def staged(shown: Progress) -> Callable[[str, int, int], None]:
    """The library's progress hook (``progress(stage, done, total)``, see
    :data:`cardgen.api.common.Progress`) drawn on the progress line: a stage of its own
    for each label."""
    current: list[str] = []

    def told(label: str, done: int, total: int) -> None:
        if current != [label]:
            current[:] = [label]
            shown.stage(label)
        shown.update(done, total)

    return told


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def warn(messages: Iterable[str]) -> None:
    """Each message as one line on stderr (see :func:`cardgen.errors.one_line`); none
    with ``-q`` (:func:`quiet`). With ``--json`` they are kept for the JSON object too."""
    for message in messages:
        _STATE.warnings.append(message)
        if not _STATE.quiet:
            typer.echo(one_line(f"warning: {message}", LONGEST_LINE), err=True)


def report(written: Iterable[Written]) -> None:
    """The files a run wrote (:func:`cardgen.output.write_set`), one line each on
    stdout: ``wrote PATH`` for a new file, ``replaced PATH`` for one that was there
    before, PATH as the user gave it (:func:`shown_path`).
    Nothing with ``-q``; with ``--json`` they go in the JSON object instead."""
    for item in written:
        _STATE.files.append(item)
        if _STATE.quiet or _STATE.json:
            continue
        typer.echo(f"{'replaced' if item.replaced else 'wrote'} {shown_path(item.path)}")


def write_document(make: Callable[[], Document], output: Path, name: str, fmt: str, *,
                   rgb: bool, dpi: float) -> Document:
    """For the commands that print pages of paper (play mats, rules, play sheets): check
    the output options, make the document, write its files all or nothing, report them;
    returns the document."""
    from cardgen.api.common import check_output_folder, document_files, file_stem
    from cardgen.cli.progress import progress
    from cardgen.cli.together import dpi_needs_png

    formats = parse_formats(fmt)
    check_range(dpi, "--dpi", *DPI_RANGE)
    dpi_needs_png(formats)
    file_stem(name)
    check_output_folder(output)
    document = make()
    with progress("drawing files") as shown:
        files = document_files(document, name, formats, rgb=rgb, dpi=dpi,
                               progress=shown.update)
    report(files.write(output))
    return document
