"""What every command shares: option types, turning option text into the library's
values (with errors that name the option), reporting files and warnings, progress."""

from __future__ import annotations

import enum
import math
import os
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, TypeVar

import typer

from cardgen.errors import (
    LONGEST_LINE,
    CardgenError,
    ParameterError,
    number,
    one_line,
    shorten,
)
from cardgen.render import Format

if TYPE_CHECKING:
    from rich.progress import Progress

    from cardgen.draw.page import Document

E = TypeVar("E", bound=enum.Enum)

DEFAULT_OUTPUT = Path("output")
# The library's parameter names -> the options that set them.
OPTIONS = {"margin": "--margin", "offset": "--offset", "count": "--count", "jobs": "--jobs",
           "name": "--name", "picture": "--picture", "players": "--players",
           "example": "--example"}

ConfigArg = Annotated[Path | None, typer.Argument(
    help="Card config (TOML). Without it, the built-in example card.", show_default=False)]
OutputOpt = Annotated[Path, typer.Option("--output", "-o", help="Output folder.")]
RgbOpt = Annotated[bool, typer.Option("--rgb", help="RGB colours for screens instead of CMYK.")]
PresetOpt = Annotated[str | None, typer.Option(
    "--preset", help="Override the size: eu (85 × 55 mm) or us (3.5 × 2 in).", show_default=False)]
ThemeOpt = Annotated[str | None, typer.Option(
    "--theme", help="Override the theme: dark, light or a theme file.", show_default=False)]
JsonOpt = Annotated[bool, typer.Option("--json", help="Machine-readable output on stdout.")]
PaperOpt = Annotated[str, typer.Option(help="Paper size: a4 or letter.")]
DpiOpt = Annotated[float, typer.Option(help="PNG resolution (36–1200).")]
PagesFormatOpt = Annotated[str, typer.Option(
    "--format", "-f", help="Comma-separated: pdf, svg, png (svg and png: one file per page).")]
DPI_RANGE = (36, 1200)


def option_message(error: ParameterError) -> str:
    """A library parameter error worded with the option the user typed."""
    return f"{OPTIONS.get(error.parameter, error.parameter)} {error.problem}"


def parse_choice(kind: Iterable[E], value: str, option: str) -> E:
    """The member of ``kind`` (an enum, or some of its members) whose value is ``value``
    (any case)."""
    for member in kind:
        if str(member.value) == value.lower():
            return member
    names = ", ".join(str(m.value) for m in kind)
    raise CardgenError(f"{option} must be one of {names}, not {shorten(value)}.", value=value)


def parse_formats(value: str) -> list[Format]:
    wanted = [part.strip().lower() for part in value.split(",") if part.strip()]
    for fmt in wanted:
        if fmt not in {f.value for f in Format}:
            raise CardgenError(f"--format: unknown format {shorten(fmt)} (choose from pdf, svg, "
                               "png).", value=value)
    if not wanted:
        raise CardgenError("--format: give at least one of pdf, svg, png.", value=value)
    return [fmt for fmt in Format if fmt.value in wanted]


def parse_offset(value: str) -> tuple[float, float]:
    parts = value.split(",")
    try:
        if len(parts) != 2:
            raise ValueError
        dx, dy = (float(part) for part in parts)
        if not (math.isfinite(dx) and math.isfinite(dy)):
            raise ValueError
    except ValueError:
        raise CardgenError(f"--offset must be two numbers in mm like 0.5,-0.3, not "
                           f"{shorten(value)}.", value=value) from None
    return dx, dy


def check_range(value: float, option: str, low: float | None = None,
                high: float | None = None) -> float:
    """An option's number, or an error naming the option and its range (NaN, infinities
    and whole numbers of hundreds of digits too)."""
    finite = not isinstance(value, float) or math.isfinite(value)
    fits = finite and (low is None or value >= low) and (high is None or value <= high)
    if not fits:
        if low is not None and high is not None:
            allowed = f"from {number(low)} to {number(high)}"
        elif low is not None:
            allowed = f"at least {number(low)}"
        else:
            allowed = f"at most {number(high or 0)}"
        raise CardgenError(f"{option} must be {allowed}, not {number(value)}.", value=value)
    return value


def check_theme(theme: str | None, config: Path | None) -> None:
    """``--theme`` read as the cards will read it (a built-in name, or a file relative to
    the config's folder), so that a theme that cannot be found or read is said naming
    ``--theme`` rather than the config key it overrides."""
    if theme is None:
        return
    from cardgen.card.themes import load_theme

    load_theme(theme, config.resolve().parent if config is not None else Path.cwd(),
               where="--theme")


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def warn(messages: Iterable[str]) -> None:
    """Each message as one line on stderr (see :func:`cardgen.errors.one_line`)."""
    for message in messages:
        typer.echo(one_line(f"warning: {message}", LONGEST_LINE), err=True)


def file_or_folder(name: str) -> Callable[[str | Path], Path]:
    """A parser for the ``-o`` of a command that writes one file (or one file per
    format): an existing folder, or a name that ends with a slash, means ``name`` inside
    that folder, as the commands that write several files take folders; anything else
    is the file itself."""

    def parse(value: str | Path) -> Path:
        text = str(value) if isinstance(value, Path) else value
        path = Path(text)
        try:
            folder = text.endswith(("/", os.sep)) or path.is_dir()
        except (OSError, ValueError):  # a name too long for a path, or with a NUL byte
            folder = False
        return path / name if folder else path

    return parse


def check_stem_path(path: Path, option: str = "--output") -> Path:
    """For a command that gives ``-o`` its suffix per format (``board`` -> ``board.pdf``):
    a name already taken by anything but a regular file or a folder (a device such as
    ``/dev/null``, a pipe, a socket) is refused, since the files would be written beside
    it under other names (``/dev/null.pdf``). Returns ``path`` unchanged."""
    import stat

    from cardgen.datafile import path_text

    try:
        mode = path.stat().st_mode
    except (OSError, ValueError):  # nothing of that name (or no name the system takes)
        return path
    if stat.S_ISREG(mode) or stat.S_ISDIR(mode):
        return path
    kind = ("a pipe" if stat.S_ISFIFO(mode) else "a socket" if stat.S_ISSOCK(mode)
            else "a device")
    raise CardgenError(f"{option} {path_text(path)} is {kind}, not a file or a folder; give "
                       "a file name (its suffix is set per format) or a folder.", value=path)


def report(paths: Iterable[Path], *, err: bool = False, note: str = "") -> None:
    for path in paths:
        typer.echo(f"wrote {one_line(str(path))}{note}", err=err)


def progress() -> Progress:
    """A progress bar on stderr, shown only on a terminal."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    console = Console(stderr=True)
    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                    TextColumn("{task.fields[note]}"), console=console, transient=True,
                    disable=not console.is_terminal)


def write_document(make: Callable[[], Document], output: Path, name: str, fmt: str, *,
                   rgb: bool, dpi: float) -> Document:
    """For the commands that print pages of paper (play mats, rules, play sheets): check
    the output options, make the document, write its files all or nothing, report them;
    returns the document."""
    from cardgen.cli.progress import progress
    from cardgen.output import check_folder, check_stem, write_files
    from cardgen.render import render_files

    formats = parse_formats(fmt)
    check_range(dpi, "--dpi", *DPI_RANGE)
    check_stem(name)
    check_folder(output)
    document = make()
    with progress("drawing files") as shown:
        files = render_files(document, output / name, formats, cmyk=not rgb, dpi=dpi,
                             progress=shown.update)
    report(write_files(files))
    return document
