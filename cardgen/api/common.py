"""What the API's functions share: reading a parameter's value (a choice, the formats, a
number in its range, an offset, a file-name stem, the worker processes), checking where
files will go, and rendering a document into :class:`~cardgen.api.files.Files`. Every
area of the API reads its parameters with these, so the same value is refused in the
same words whichever maker it is given to.

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
import os
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

Steps = Callable[[int, int], None]
"""A progress hook of a maker with one stage: called with the steps done and the steps
(``(files made, files)``), before the first step and after each."""


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


def format_list(value: str | Format | Iterable[Format | str],
                parameter: str = "formats") -> list[Format]:
    """The formats asked for, in cardgen's order (PDF, SVG, PNG), each once.

    Args:
        value: ``"pdf,svg"`` (comma-separated, as ``--format`` takes them), one
            :class:`~cardgen.render.Format` member, or an iterable of members or their
            values.
        parameter: the parameter's name, for the error.

    Returns:
        The formats, each once, in the order cardgen makes them.

    Raises:
        ChoiceError: a format cardgen does not write, or none at all.

    Example:
        >>> format_list("PNG, pdf")
        [<Format.PDF: 'pdf'>, <Format.PNG: 'png'>]
    """
    from cardgen.render import Format  # (it imports the page model: not for --help)

    parts: list[object]
    if isinstance(value, str):  # (a Format member is text too: "pdf")
        parts = list(value.split(","))
    elif isinstance(value, Iterable):
        parts = list(value)
    else:
        parts = [value]
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
    """``value`` when it is a number (whole or not) from ``low`` to ``high`` (either may
    be None: no bound).

    Args:
        value: the number given.
        parameter: the parameter's name, for the error.
        low: the lowest value allowed (None: no lower bound), included.
        high: the highest value allowed (None: no upper bound), included.

    Returns:
        ``value``, unchanged.

    Raises:
        ParameterError: not a number, outside the range, or not finite; the message says
            the range (``dpi must be from 36 to 1200, not 0.``), and shows a whole number
            of hundreds of digits by its ends.

    Example:
        >>> in_range(2.5, "creep", 0, 3)
        2.5
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


def whole_in_range(value: int, parameter: str, low: int | None = None,
                   high: int | None = None) -> int:
    """``value`` when it is a whole number from ``low`` to ``high`` (either may be None:
    no bound): a count, a budget, a seed.

    Args:
        value: the number given (an ``int``; not a ``bool``, not ``2.0``).
        parameter: the parameter's name, for the error.
        low: the lowest value allowed (None: no lower bound), included.
        high: the highest value allowed (None: no upper bound), included.

    Returns:
        ``value``, unchanged.

    Raises:
        ParameterError: not a whole number (``count must be a whole number, not 2.5.``),
            or outside the range, said as :func:`in_range` says it.

    Example:
        >>> whole_in_range(12, "count", 1, 500)
        12
    """
    if isinstance(value, bool) or not isinstance(value, int):
        raise ParameterError(parameter, f"must be a whole number, not {quoted(value)}.",
                             value=value)
    in_range(value, parameter, low, high)
    return value


def offset_mm(value: str | tuple[float, float],
              parameter: str = "offset") -> tuple[float, float]:
    """A shift in mm, right and down: ``(0.5, -0.3)``, or ``"0.5,-0.3"`` as the command
    line takes it.

    Args:
        value: the pair, or the text.
        parameter: the parameter's name, for the error.

    Returns:
        ``(right, down)`` as floats.

    Raises:
        ParameterError: not two finite numbers.

    Example:
        >>> offset_mm("0.5,-0.3")
        (0.5, -0.3)
    """
    try:
        if isinstance(value, str):
            parts = value.split(",")
            if len(parts) != 2:
                raise ValueError
            dx, dy = (float(part) for part in parts)
        else:
            if any(isinstance(v, bool) for v in value):
                raise TypeError
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
    ``card-inside.svg``): one plain name that stays in the folder it is written into,
    checked before any work.

    Args:
        name: the name without its suffix.
        parameter: the parameter's name, for the error.

    Returns:
        ``name``, unchanged.

    Raises:
        ParameterError: not text, empty, a path, hidden, with control characters, or too
            long (see :func:`cardgen.output.check_stem`).

    Example:
        >>> file_stem("ladder-mat")
        'ladder-mat'
    """
    from cardgen.output import check_stem

    if not isinstance(name, str):
        raise ParameterError(parameter, f"must be text, not {type(name).__name__}.",
                             value=name)
    return check_stem(name, parameter)


def check_output_folder(folder: Path | str, *names: str) -> Path:
    """Check, creating nothing, that ``folder`` is or can become a writable folder, and
    that each file of ``names`` can be written in it (nothing but a regular file has its
    name): what a caller does before long work whose files go there, and what
    ``files.write(folder)`` will need.

    Args:
        folder: the folder the files are to be written into.
        names: file names to be written there (``"ladder-mat.pdf"``).

    Returns:
        The folder, as a :class:`~pathlib.Path`.

    Raises:
        OutputError: the folder, or its nearest existing ancestor, cannot take files, or
            a name is taken by something other than a regular file.

    Example:
        >>> check_output_folder("output", "ladder-mat.pdf")
        PosixPath('output')
    """
    from cardgen.output import check_file, check_folder

    path = Path(folder)
    check_folder(path)
    for name in names:
        check_file(path / name)
    return path


def check_output_file(path: Path | str) -> Path:
    """Check, creating nothing, that the file ``path`` can be written: its folder is or
    can become a writable folder, and nothing but a regular file has its name.

    Raises:
        OutputError: it cannot.
    """
    from cardgen.output import check_file

    return check_file(Path(path))


def usable_jobs(asked: int | None, default: int | None = None) -> tuple[int, bool]:
    """The worker processes to use when ``asked`` for: never more than the CPUs this
    process may use, and whether ``asked`` was cut down to them.

    Args:
        asked: the processes asked for; None: ``default``.
        default: the processes when none are asked for (None: as many as there are CPUs
            this process may use).

    Returns:
        ``(processes, cut down)``.

    Raises:
        ParameterError: ``asked`` is not a whole number, or less than 1 (``jobs must be
            at least 1.``).

    Example:
        >>> usable_jobs(1)
        (1, False)
    """
    if asked is not None:
        whole_in_range(asked, "jobs")
        if asked < 1:
            raise ParameterError("jobs", "must be at least 1.", value=asked)
    counted = getattr(os, "process_cpu_count", None)  # Python 3.13 and later
    if counted is not None:
        cpus = int(counted() or 1)
    elif hasattr(os, "sched_getaffinity"):
        cpus = len(os.sched_getaffinity(0)) or 1
    else:
        cpus = os.cpu_count() or 1
    wanted = asked if asked is not None else default
    if wanted is None:
        return cpus, False
    return min(wanted, cpus), wanted > cpus


def plural(n: int, word: str) -> str:
    """``n`` and ``word``, with an s unless ``n`` is 1: ``1 card``, ``2 cards``."""
    return f"{n} {word}{'' if n == 1 else 's'}"


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
