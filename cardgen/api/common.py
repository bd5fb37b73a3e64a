"""What the API's functions share: reading a parameter's value (a choice, the formats, a
number in its range, an offset), checking where files will go, and rendering a document
into :class:`~cardgen.api.files.Files`.

Every reader takes what a Python caller passes (an enum member, its value as text, a
number) and what the command line passes (the option's text), and raises a
:class:`~cardgen.errors.ParameterError` that names the parameter as the API does
(``preset``, ``formats``): a value that is not one of the parameter's choices is a
:class:`~cardgen.errors.ChoiceError`. The command line puts its option's name in front
of the same sentence (``--preset must be one of eu, us, not 'jp'.``).

Nothing here imports a product or a renderer when the module is imported (each function
imports what it needs): the command line's option parsers and its error boundary use it,
and a command that needs no renderer must not load one through it.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from cardgen.errors import ChoiceError, ParameterError, number, quoted, shorten

if TYPE_CHECKING:
    # (named again here for the command line's annotations, which reach cardgen only
    # through the API)
    from cardgen.api.files import Files
    from cardgen.draw.page import Document as Document
    from cardgen.draw.page import OutputIntent as OutputIntent
    from cardgen.output import Written as Written
    from cardgen.render import Format as Format

E = TypeVar("E", bound=enum.Enum)

DPI_RANGE = (36, 1200)  # the resolutions of PNG files cardgen makes
PRINT_DPI = 300  # the resolution of a card's PNG files unless told otherwise

Progress = Callable[[str, int, int], None]
"""A progress hook: called with the stage's label (``"drawing the card"``), the steps
done and the steps of the stage, before the first step of a stage and after each."""


def choice(kind: Iterable[E], value: E | str, parameter: str) -> E:
    """The member of ``kind`` (an enum, or some of its members) that ``value`` is or whose
    value it is (any case).

    Args:
        kind: the enum (or the members allowed).
        value: a member, or its value as text (``"eu"`` or ``Preset.EU``).
        parameter: the parameter's name, for the error.

    Returns:
        The member.

    Raises:
        ChoiceError: ``value`` is not one of them; the message lists them.

    Example:
        >>> from cardgen.physical.card import Preset
        >>> choice(Preset, "US", "preset")
        <Preset.US: 'us'>
    """
    members = list(kind)
    for member in members:
        if value is member:
            return member
    if isinstance(value, str):
        for member in members:
            if str(member.value) == value.lower():
                return member
    names = [str(m.value) for m in members]
    raise ChoiceError(parameter, f"must be one of {', '.join(names)}, not "
                      f"{shorten(value) if isinstance(value, str) else quoted(value)}.",
                      choices=names, value=value)


def format_list(value: str | Iterable[Format | str],
                parameter: str = "formats") -> list[Format]:
    """The formats asked for, in cardgen's order (PDF, SVG, PNG), each once.

    Args:
        value: ``"pdf,svg"`` (comma-separated, as ``--format`` takes them), or an
            iterable of :class:`~cardgen.render.Format` members or their values.
        parameter: the parameter's name, for the error.

    Raises:
        ChoiceError: a format cardgen does not write, or none at all.

    Example:
        >>> format_list("PNG, pdf")
        [<Format.PDF: 'pdf'>, <Format.PNG: 'png'>]
    """
    from cardgen.render import Format  # (it imports the page model: not for --help)

    parts = value.split(",") if isinstance(value, str) else list(value)
    wanted: list[str] = []
    for part in parts:
        if isinstance(part, Format):
            wanted.append(part.value)
        elif isinstance(part, str):
            if part.strip():
                wanted.append(part.strip().lower())
        else:
            raise ChoiceError(parameter, f": unknown format {quoted(part)} (choose from pdf, "
                              "svg, png).", choices=[f.value for f in Format], value=value)
    for fmt in wanted:
        if fmt not in {f.value for f in Format}:
            raise ChoiceError(parameter, f": unknown format {shorten(fmt)} (choose from pdf, "
                              "svg, png).", choices=[f.value for f in Format], value=value)
    if not wanted:
        raise ChoiceError(parameter, ": give at least one of pdf, svg, png.",
                          choices=[f.value for f in Format], value=value)
    return [fmt for fmt in Format if fmt.value in wanted]


def in_range(value: float, parameter: str, low: float | None = None,
             high: float | None = None) -> float:
    """``value`` when it lies from ``low`` to ``high`` (either may be None: no bound).

    Raises:
        ParameterError: outside the range, or not a finite number; the message says the
            range (``dpi must be from 36 to 1200, not 0.``), and shows a whole number of
            hundreds of digits by its ends.
    """
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ParameterError(parameter, f"must be a number, not {quoted(value)}.", value=value)
    finite = not isinstance(value, float) or math.isfinite(value)
    fits = finite and (low is None or value >= low) and (high is None or value <= high)
    if not fits:
        if low is not None and high is not None:
            allowed = f"from {number(low)} to {number(high)}"
        elif low is not None:
            allowed = f"at least {number(low)}"
        else:
            allowed = f"at most {number(high or 0)}"
        raise ParameterError(parameter, f"must be {allowed}, not {number(value)}.",
                             value=value)
    return value


def offset_mm(value: str | tuple[float, float],
              parameter: str = "offset") -> tuple[float, float]:
    """A shift in mm, right and down: ``(0.5, -0.3)``, or ``"0.5,-0.3"`` as the command
    line takes it.

    Raises:
        ParameterError: not two finite numbers.
    """
    try:
        if isinstance(value, str):
            parts = value.split(",")
            if len(parts) != 2:
                raise ValueError
            dx, dy = (float(part) for part in parts)
        else:
            dx, dy = (float(v) for v in value)
        if not (math.isfinite(dx) and math.isfinite(dy)):
            raise ValueError
    except (ValueError, TypeError):
        shown = shorten(value) if isinstance(value, str) else quoted(value)
        raise ParameterError(parameter, f"must be two numbers in mm like 0.5,-0.3, not "
                             f"{shown}.", value=value) from None
    return dx, dy


def file_stem(name: str, parameter: str = "name") -> str:
    """A stem the files are named from (``card`` gives ``card.pdf``,
    ``card-inside.svg``): one plain name that stays in the folder it is written into.

    Raises:
        ParameterError: empty, a path, hidden, with control characters, or too long.
    """
    from cardgen.output import check_stem

    return check_stem(name, parameter)


def check_output_folder(folder: Path | str) -> Path:
    """Check, creating nothing, that ``folder`` is or can become a writable folder: what
    a caller does before long work whose files go there.

    Raises:
        OutputError: the folder, or its nearest existing ancestor, cannot take files.
    """
    from cardgen.output import check_folder

    return check_folder(Path(folder))


def check_output_file(path: Path | str) -> Path:
    """Check, creating nothing, that the file ``path`` can be written: its folder is or
    can become a writable folder, and nothing but a regular file has its name.

    Raises:
        OutputError: it cannot.
    """
    from cardgen.output import check_file

    return check_file(Path(path))


def path_text(path: Path | str) -> str:
    """A path as cardgen's messages show it: as given (relative stays relative), on one
    line."""
    from cardgen.datafile import path_text as shown

    return shown(path)


def document_files(document: Document, name: str, formats: Iterable[Format], *,
                   rgb: bool = False, dpi: float = PRINT_DPI, fast: bool = False,
                   progress: Callable[[int, int], None] | None = None) -> Files:
    """The files of a document, named from ``name``: ``name.pdf`` (every page), and a
    ``name.svg`` / ``name.png`` per view (``name-inside.svg`` when there are several).
    ``rgb`` makes screen previews (no print-only layers in the PDF either); ``fast``
    compresses PNG files at zlib's fastest level. ``progress(done, total)`` is told as
    the files are made."""
    from cardgen.api.files import Files
    from cardgen.render import render

    return Files((f"{name}{end}", data) for end, data in render(
        document, formats, cmyk=not rgb, dpi=dpi, fast=fast, progress=progress).items())
