"""Errors about the input, in the input's own terms.

Every problem with what a user gave cardgen (a config, a theme, an image, a board, a
parameter) is a :class:`CardgenError`, a ``ValueError`` that carries the offending input.
Its message is one sentence that names the field or file. Library code never names a
user-interface control: where the problem is a parameter that a UI sets (a paper size, a
margin), the error is a :class:`ParameterError` that carries the parameter's name apart
from the problem, so that the command line can say ``--margin`` where the library says
``margin``.

Imports only ``cardgen.chars``.
"""

from __future__ import annotations

import enum
import math
import re
import unicodedata
from collections.abc import Sequence
from typing import Any

from cardgen.chars import is_invisible

SHOWN_CHARACTERS = 40  # the longest piece of user input a message quotes whole
FAR_LONGER = 5  # input this many times longer than what a message shows has its length said
LONGEST_LINE = 1000  # the longest line an error or warning takes on stderr, "error: " too
LONGEST_MESSAGE = 900  # the longest message of an error (a ProblemsError lists no more)
# Characters a message never carries as they are: they would break its line (controls,
# U+0085, line and paragraph separators), reorder it on a terminal (bidirectional
# controls), hide in it (other format characters), or not be text (unpaired surrogates
# from undecodable file names; unassigned code points), and the other invisible
# characters of ``cardgen.chars.is_invisible`` (variation selectors, Hangul fillers…).
_UNSAFE = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs", "Cn"})


def _escape(ch: str) -> str:
    if ch in "\n\r\t":
        return repr(ch)[1:-1]
    code = ord(ch)
    return f"\\x{code:02x}" if code < 0x100 else (
        f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}")


def one_line(text: str, limit: int | None = None) -> str:
    """``text`` as one line of a message: every character that could break the line,
    reorder it or hide in it (see ``_UNSAFE``) written as Python writes it in a string
    (``\\n``, ``\\x85``, ``\\u2028``, ``\\u202e``); with ``limit``, cut to at most that
    many characters, ending with how long it was."""
    if not (text.isascii() and text.isprintable()):  # the quick test: most messages pass
        # Each distinct character judged once; most such texts (typographic quotes, an
        # ellipsis, a name) have none to escape and are kept as they are.
        unsafe = {ch for ch in set(text)
                  if unicodedata.category(ch) in _UNSAFE or is_invisible(ch)}
        if unsafe:
            text = "".join(_escape(ch) if ch in unsafe else ch for ch in text)
    if limit is not None and len(text) > limit:
        tail = f"… (cut: {len(text):,} characters in all)"
        text = text[:max(limit - len(tail), 0)] + tail
    return text


def shorten(text: str, limit: int = SHOWN_CHARACTERS) -> str:
    """A piece of user input as a message quotes it: ``repr`` (so every control and
    format character is escaped, and :func:`one_line` escapes the other invisible
    ones), cut down if long; when it is far longer than what is shown, followed by its
    length (``'xxxx…' (900,000 characters)``)."""
    shown = one_line(repr(text if len(text) <= limit else text[: limit - 1] + "…"))
    return f"{shown} ({len(text):,} characters)" if len(text) > FAR_LONGER * limit else shown


def quoted(value: object) -> str:
    """Any value of the user's as a message quotes it: text as :func:`shorten` does,
    anything else (a list, a table) by its ``repr``, cut down if long."""
    if isinstance(value, str):
        return shorten(value)
    text = one_line(repr(value))
    return text if len(text) <= 2 * SHOWN_CHARACTERS else text[:2 * SHOWN_CHARACTERS - 1] + "…"


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
    """A problem with the input, explained in one sentence; ``value`` is the input.
    The message is always one line of at most :data:`LONGEST_MESSAGE` characters
    (:func:`one_line`), whatever input it quotes."""

    def __init__(self, message: str, *, value: object = None) -> None:
        super().__init__(one_line(message, LONGEST_MESSAGE))
        self.value = value

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled as what it holds, not by calling its class with the message again
        # (a subclass's __init__ takes other arguments): so that an error raised in a
        # worker process reaches its caller whole, problems, codes and parameter too.
        return (_rebuilt, (type(self), self.args, self.__dict__))


def _rebuilt(kind: type[CardgenError], args: tuple[Any, ...],
             state: dict[str, Any]) -> CardgenError:
    """An error as :meth:`CardgenError.__reduce__` kept it."""
    error = kind.__new__(kind)
    error.args = args
    error.__dict__.update(state)
    return error


class Code(enum.StrEnum):
    """A kind of problem, beside its sentence (as python-chess has ``Status`` flags
    beside its messages): callers and tests tell problems apart by code, never by
    words. Each domain has its own enum of codes (:class:`ConfigProblem`,
    :class:`BoardProblem` …); a code's value is ``domain.kind``, as ``--json`` shows it."""


class GeneralProblem(Code):
    INVALID = "general.invalid"  # a problem no domain has a code for yet
    PAGE_SIZE = "general.page-size"  # a page of a document has the wrong size
    # The kinds of error the command line's --json names when the error has no code of
    # its own (one for each class of error below).
    PARAMETER = "general.parameter"  # an option's value outside its domain
    INPUT_FILE = "general.input-file"  # an input file that cannot be read
    OUTPUT = "general.output"  # output that cannot be written where it was asked for
    FONT = "general.font"
    IMAGE = "general.image"
    PROFILE = "general.profile"
    FIT = "general.fit"  # text that does not fit its place
    REFUSED = "general.refused"  # a check ran and refused (a forbidden Corporate Ladder team)
    FAULT = "general.fault"  # a fault of the run, not of its input (a dead worker, a full disk)
    INTERRUPTED = "general.interrupted"  # stopped by Ctrl-C or a terminate signal


class ConfigProblem(Code):
    """What is wrong in a data file (config, theme, layout, product text, board file,
    deck, CSV)."""

    INVALID = "config.invalid"  # a rule of the file's own (one field against another)
    UNREADABLE = "config.unreadable"  # cannot be read as TOML or CSV (syntax, encoding)
    UNKNOWN_KEY = "config.unknown-key"
    UNKNOWN_SECTION = "config.unknown-section"
    MISSING = "config.missing"  # a required key or table is absent
    WRONG_TYPE = "config.wrong-type"  # a value of the wrong kind (text for a number …)
    OUT_OF_RANGE = "config.out-of-range"  # a number outside its bounds
    NOT_A_CHOICE = "config.not-a-choice"  # not one of the values a key takes
    TOO_LONG = "config.too-long"
    BAD_CHARACTER = "config.bad-character"  # a control or invisible character
    ITEM_COUNT = "config.item-count"  # too few or too many items or entries
    CONFLICT = "config.conflict"  # two keys that contradict each other
    RETIRED = "config.retired"  # a key or name this version no longer reads
    COLOUR = "config.colour"  # a colour that would not print as drawn


class BoardProblem(Code):
    """A Rotator board (ID, map, cell) that breaks a rule of the game."""

    NOT_A_CELL = "board.not-a-cell"
    MALFORMED_ID = "board.malformed-id"
    ID_VERSION = "board.id-version"
    DUPLICATE_NODE = "board.duplicate-node"
    NODE_COUNT = "board.node-count"  # a grid without exactly five Nodes
    PLACEMENT = "board.placement"  # a Node whose territory leaves its grid
    OVERLAP = "board.overlap"  # two territories share a cell


class Problem(str):
    """One problem of a :class:`ProblemsError`: the sentence the user sees (the string
    itself, also :attr:`message`), its :attr:`code`, and where known the :attr:`field`
    it is about (a dotted key such as ``person.name``) and the :attr:`line` of the file
    it is on (None when the problem does not say one)."""

    code: Code
    field: str | None
    line: int | None

    def __new__(cls, message: str, code: Code = GeneralProblem.INVALID, *,
                field: str | None = None, line: int | None = None) -> Problem:
        self = super().__new__(cls, message)
        self.code = code
        self.field = field
        self.line = line
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        # so that it crosses a process's pipe, with where it is
        return (_problem, (str(self), self.code, self.field, self.line))

    @property
    def message(self) -> str:
        return str(self)

    def reworded(self, message: str) -> Problem:
        """Another sentence for the same problem (with a place in front, cut to a line)."""
        return Problem(message, self.code, field=self.field, line=self.line)


def _problem(message: str, code: Code, field: str | None, line: int | None) -> Problem:
    """A :class:`Problem` rebuilt from what pickling kept of it."""
    return Problem(message, code, field=field, line=line)


def coded(problem: str, code: Code) -> Problem:
    """``problem`` as a :class:`Problem`: its own code if it has one, else ``code``."""
    return problem if isinstance(problem, Problem) else Problem(problem, code)


class ProblemsError(CardgenError):
    """Input that breaks several rules at once: ``problems`` holds every one of them,
    in the order found (each on one line, see :func:`one_line`), each a
    :class:`Problem` with its code (``codes`` lists them, in the same order); a
    problem given as plain text gets ``code``, or else the class's
    :attr:`default_code`. The message is the first problem, followed by as many others
    as fit in :data:`LONGEST_MESSAGE` characters, then how many more there are."""

    default_code: Code = GeneralProblem.INVALID

    def __init__(self, source: str, problems: Sequence[str], *, value: object = None,
                 code: Code | None = None) -> None:
        if not problems:
            raise ValueError("a ProblemsError needs at least one problem")
        self.source = one_line(source)
        self.problems = tuple(
            coded(problem, code or self.default_code).reworded(one_line(problem))
            for problem in problems)
        prefix = f"{self.source}: " if self.source else ""
        message = prefix + self.problems[0]
        others = self.problems[1:]
        for shown, problem in enumerate(others):
            joint = " Also: " if shown == 0 else " "
            room = LONGEST_MESSAGE - len(message) - len(joint) - len(problem)
            if room < 0 or (shown + 1 < len(others) and room < _NOTE_ROOM):
                more = sum(_count(p) for p in others[shown:])
                message += f" ({more:,} more problem{'' if more == 1 else 's'} not shown.)"
                break
            message += joint + problem
        super().__init__(message, value=value)

    @property
    def codes(self) -> tuple[Code, ...]:
        """The code of each problem, in order (like python-chess's ``status()``, the
        kinds of problem without their sentences)."""
        return tuple(problem.code for problem in self.problems)


_NOTE_ROOM = len(" (999,999,999 more problems not shown.)")
_NOT_SHOWN = re.compile(r"^\(([\d,]+) more problems? not shown\.\)$")


def _count(problem: str) -> int:
    """How many problems a problem stands for: one, or as many as a note of problems
    already left out says ("(12 more problems not shown.)")."""
    match = _NOT_SHOWN.match(problem)
    return int(match.group(1).replace(",", "")) if match else 1


class ConfigError(ProblemsError):
    """A data file (card config, theme, layout, product text, board file) that breaks its
    schema, or that cannot be read as TOML; codes are :class:`ConfigProblem`."""

    default_code = ConfigProblem.INVALID


class BoardError(ProblemsError):
    """A game board that breaks a placement rule of its game; codes are
    :class:`BoardProblem`."""

    default_code = BoardProblem.PLACEMENT


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


FAULT_STATUS = 3  # the command line's exit status for a RuntimeFault (input errors: 1)
CHECK_STATUS = 4  # the command line's exit status when a check ran and found a problem


class RuntimeFault(Exception):
    """A fault of the run, not of its input: a worker process that died (killed, out of
    memory), a disk that is full. Deliberately *not* a ``ValueError``, so that a caller
    that handles bad input does not take it for one; the command line says it in one
    line, like an input error, and exits with :data:`FAULT_STATUS`. ``value`` is what
    was being done (the file being written, the map being analysed)."""

    def __init__(self, message: str, *, value: object = None) -> None:
        super().__init__(one_line(message, LONGEST_MESSAGE))
        self.value = value


class ParameterError(CardgenError):
    """A parameter outside its domain. ``parameter`` names it as the library does (for
    example ``margin``); ``problem`` is the rest of the sentence (``must be 0–30 mm, not
    40.``), so a user interface can put its own name for the control in front (a
    problem that starts with a colon follows the name directly: ``theme: no theme
    called 'neon' …``). ``code`` is the kind of problem: :attr:`GeneralProblem.PARAMETER`
    unless a more precise one is known (``config.not-a-choice`` for a theme that does
    not exist)."""

    def __init__(self, parameter: str, problem: str, *, value: object = None,
                 code: Code | None = None) -> None:
        super().__init__(f"{parameter}{joint(problem)}{problem}", value=value)
        self.parameter = parameter
        self.problem = one_line(problem, LONGEST_MESSAGE - len(parameter) - 1)
        self.code: Code = code or GeneralProblem.PARAMETER


def joint(problem: str) -> str:
    """What goes between a parameter's name and its problem: a space, or nothing
    before a colon."""
    return "" if problem.startswith(":") else " "


class ChoiceError(ParameterError):
    """A parameter's value that is not one of its choices (``preset="jp"``, a format
    cardgen does not write); ``choices`` lists the values it takes. The command line
    says it as a usage error (exit status 2), as it does any option value that is not
    one of the option's choices."""

    def __init__(self, parameter: str, problem: str, *, choices: Sequence[str] = (),
                 value: object = None) -> None:
        super().__init__(parameter, problem, value=value)
        self.choices = tuple(choices)
