"""What the Connector, Corporate Ladder and Node-game parts of the API share: a choice
given as an enum member or its value, the formats of a maker, checking an output folder
before any work, and a document's files in memory.

Private to ``cardgen.api``: merge with api/common.py (the shared choice and format
parsers of the card's part of the API) when both are on main.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from cardgen.errors import ParameterError, shorten

if TYPE_CHECKING:
    from cardgen.api.files import Files
    from cardgen.draw.page import Document
    from cardgen.render import Format

E = TypeVar("E", bound=enum.Enum)
Progress = Callable[[int, int], None]  # told (steps done, steps) as the work goes on


def plural(n: int, word: str) -> str:
    """``1 card``, ``2 cards``."""
    return f"{n} {word}{'' if n == 1 else 's'}"


def choice(kind: Iterable[E], value: E | str, parameter: str) -> E:
    """The member of ``kind`` (an enum, or some of its members) that ``value`` is or
    names (its value, any case); else a :class:`ParameterError` naming ``parameter``."""
    members = list(kind)
    for member in members:
        if member is value or (isinstance(value, str) and not isinstance(value, enum.Enum)
                               and str(member.value) == value.lower()):
            return member
    names = ", ".join(str(m.value) for m in members)
    shown = shorten(value) if isinstance(value, str) else repr(value)
    raise ParameterError(parameter, f"must be one of {names}, not {shown}.", value=value)


def formats(values: Iterable[Format | str] | Format | str, parameter: str = "formats"
            ) -> list[Format]:
    """The formats asked for (members of :class:`cardgen.render.Format` or their values:
    ``"pdf"``, ``"svg"``, ``"png"``), in the order cardgen makes them; at least one."""
    from cardgen.render import Format  # (it imports the page model: not for a light command)

    given = [values] if isinstance(values, Format | str) else list(values)
    wanted = {choice(Format, value, parameter) for value in given}
    if not wanted:
        raise ParameterError(parameter, "must name at least one of pdf, svg, png.",
                             value=values)
    return [fmt for fmt in Format if fmt in wanted]


def check_name(stem: str, parameter: str = "name") -> str:
    """A file-name stem the files are named after, checked before any work.

    Args:
        stem: the name without its suffix (``ladder-mat``).
        parameter: the parameter errors name.

    Returns:
        ``stem``, unchanged.

    Raises:
        ParameterError: not one plain name (empty, a path, a hidden file, controls, too
            long; see :func:`cardgen.output.check_stem`).

    Example:
        >>> check_name("ladder-mat")
        'ladder-mat'
    """
    from cardgen.output import check_stem

    if not isinstance(stem, str):
        raise ParameterError(parameter, f"must be text, not {type(stem).__name__}.",
                             value=stem)
    return check_stem(stem, parameter)


def check_output(folder: Path | str, *names: str) -> Path:
    """Check, before any work and without creating anything, that ``folder`` is or can
    become a writable folder and that each of ``names`` can be written in it (what
    ``files.write(folder)`` will need).

    Args:
        folder: the folder the files are to be written into.
        names: file names to be written there.

    Returns:
        The folder, as a :class:`~pathlib.Path`.

    Raises:
        OutputError: the folder (or its nearest existing ancestor) is not a writable
            folder, or a name is taken by something else than a regular file.

    Example:
        >>> check_output("output", "ladder-mat.pdf")
        PosixPath('output')
    """
    from cardgen.output import check_file, check_folder

    path = Path(folder)
    check_folder(path)
    for name in names:
        check_file(path / name)
    return path


def document_files(document: Document, name: str, kinds: Iterable[Format], *, cmyk: bool,
                   dpi: float, progress: Progress | None = None) -> Files:
    """A document's files in memory, named after ``name`` (``name.pdf``, ``name-2.svg``
    …), as :func:`cardgen.render.render_files` makes them."""
    from cardgen.api.files import Files
    from cardgen.render import render_files

    here = Path(".")
    made = render_files(document, here / name, kinds, cmyk=cmyk, dpi=dpi, progress=progress)
    return Files.from_paths(made, here)


def check_dpi(dpi: float, parameter: str = "dpi") -> float:
    """A PNG resolution, 36 to 1200 dots per inch."""
    from cardgen.errors import number

    if (isinstance(dpi, bool) or not isinstance(dpi, int | float)
            or not 36 <= dpi <= 1200):
        shown = number(dpi) if isinstance(dpi, int | float) else repr(dpi)
        raise ParameterError(parameter, f"must be from 36 to 1200, not {shown}.", value=dpi)
    return dpi
