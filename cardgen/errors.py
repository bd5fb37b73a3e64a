"""Errors about the input, in the input's own terms.

Every problem with what a user gave cardgen (a config, a theme, an image, a board, a
parameter) is a :class:`CardgenError`, a ``ValueError`` that carries the offending input.
Its message is one sentence that names the field or file. Library code never names a
user-interface control: where the problem is a parameter that a UI sets (a paper size, a
margin), the error is a :class:`ParameterError` that carries the parameter's name apart
from the problem, so that the command line can say ``--margin`` where the library says
``margin``.

Imports nothing from cardgen.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

SHOWN_CHARACTERS = 40  # the longest piece of user input a message quotes whole


def shorten(text: str, limit: int = SHOWN_CHARACTERS) -> str:
    """A piece of user input as a message quotes it: ``repr``, cut down if long."""
    return repr(text if len(text) <= limit else text[: limit - 1] + "…")


SHOWN_DIGITS = 20  # the longest whole number a message shows whole


def number(value: float) -> str:
    """A number as a message shows it: short, but never rounded into a different number
    (``150.0000001`` stays that, not ``150``). A whole number is shown in full
    (``1000000``, not ``1e+06``) up to :data:`SHOWN_DIGITS` digits; a longer one shows
    its first and last digits and how many it has."""
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    if isinstance(value, int) and not isinstance(value, bool):
        return _whole(value)
    short = f"{value:g}"
    return short if float(short) == value else repr(float(value))


def _whole(value: int) -> str:
    sign = "-" if value < 0 else ""
    try:
        digits = str(abs(value))
    except ValueError:  # more digits than Python converts to text (4300)
        about = int(abs(value).bit_length() * math.log10(2)) + 1
        return f"{sign}a number of about {about:,} digits"
    if len(digits) <= SHOWN_DIGITS:
        return sign + digits
    return f"{sign}{digits[:6]}…{digits[-3:]} ({len(digits)} digits)"


class CardgenError(ValueError):
    """A problem with the input, explained in one sentence; ``value`` is the input."""

    def __init__(self, message: str, *, value: object = None) -> None:
        super().__init__(message)
        self.value = value


class ProblemsError(CardgenError):
    """Input that breaks several rules at once: ``problems`` holds every one of them,
    in the order found. The message is the first problem, followed by the others."""

    def __init__(self, source: str, problems: Sequence[str], *, value: object = None) -> None:
        if not problems:
            raise ValueError("a ProblemsError needs at least one problem")
        self.source = source
        self.problems = tuple(problems)
        prefix = f"{source}: " if source else ""
        message = prefix + self.problems[0]
        if len(self.problems) > 1:
            message += " Also: " + " ".join(self.problems[1:])
        super().__init__(message, value=value)


class ConfigError(ProblemsError):
    """A data file (card config, theme, layout, product text, board file) that breaks its
    schema, or that cannot be read as TOML."""


class BoardError(ProblemsError):
    """A game board that breaks a placement rule of its game."""


class FitError(CardgenError):
    """Text that does not fit its place even at the smallest legible size; ``field``
    names the place (a config field such as ``person.title``) when it is known."""

    def __init__(self, message: str, *, value: object = None, field: str = "") -> None:
        super().__init__(message, value=value)
        self.field = field


class FontError(CardgenError):
    """A font file that cannot be used, or a character a font has no glyph for."""


class ImageError(CardgenError):
    """An image file that cannot be used."""


class ProfileError(CardgenError):
    """An ICC colour profile that cannot be used."""


class OutputError(CardgenError):
    """Output that cannot be written where it was asked for."""


class InputFileError(CardgenError):
    """An input file that cannot be read: missing, not a regular file, too large,
    unreadable."""


class ParameterError(CardgenError):
    """A parameter outside its domain. ``parameter`` names it as the library does (for
    example ``margin``); ``problem`` is the rest of the sentence (``must be 0–30 mm, not
    40.``), so a user interface can put its own name for the control in front."""

    def __init__(self, parameter: str, problem: str, *, value: object = None) -> None:
        super().__init__(f"{parameter} {problem}", value=value)
        self.parameter = parameter
        self.problem = problem
