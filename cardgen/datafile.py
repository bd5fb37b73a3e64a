"""Reading input files safely, and TOML data files with one sentence for every way that
can fail.

Every file cardgen reads from the user (configs, themes, board files, images, fonts)
goes through :func:`read_input`: only a regular file is read (a FIFO, a socket or a
device such as ``/dev/zero`` is refused before anything is read, so nothing can hang or
fill the memory), and never more than a size cap. Data files then go through
:func:`read_toml` (or :func:`read_csv` for tables of people and cards), so a missing
file, a folder, a file that is not UTF-8 text and broken TOML or CSV are worded the same
everywhere. What the data means is checked afterwards against a
schema (``cardgen.schema``). A path that is only looked at (is there a theme file of
that name, is it a folder) goes through :func:`look`, so that a name too long for the
file system or a folder that cannot be entered is one sentence there too; ``~`` in a
path from a data file is expanded by :func:`user_path`.

Imports only ``cardgen.errors``.
"""

from __future__ import annotations

import csv
import errno
import io
import os
import stat
import tomllib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cardgen.errors import (
    ConfigError,
    ConfigProblem,
    InputFileError,
    Problem,
    number,
    one_line,
    shorten,
)

MAX_BYTES = 1_000_000  # no data file cardgen reads is anywhere near this large
SHOWN_PATH = 160  # the longest path a message shows whole
_BAD = ConfigProblem.UNREADABLE  # every problem of this module: a file that cannot be read
_OPEN_FLAGS = (os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
               | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0))


def path_text(path: Path | str) -> str:
    """A path as a message shows it: as the user would give it, on one line (a line
    break or another control character in a file name is escaped, see
    :func:`~cardgen.errors.one_line`), the middle of a very long one left out. An
    absolute path inside the current folder (one cardgen made absolute, such as a font
    named relative to its config) is shown relative to it: ``fonts/x.ttf``, not
    ``/home/ada/cards/fonts/x.ttf``."""
    text = one_line(_relative(str(path)))
    if len(text) <= SHOWN_PATH:
        return text
    return f"{text[:SHOWN_PATH // 2]}…{text[-SHOWN_PATH // 2:]}"


def _relative(text: str) -> str:
    """``text`` relative to the current folder when it is an absolute path inside it
    (never ``..``: a path outside stays absolute, and so does every path when the
    current folder is the root or cannot be found)."""
    if not os.path.isabs(text):
        return text
    try:
        here = os.getcwd()
    except OSError:  # the current folder was removed
        return text
    if os.path.dirname(here) == here:  # the root: every path is inside it
        return text
    prefix = here.rstrip(os.sep) + os.sep
    return text[len(prefix):] if text.startswith(prefix) and len(text) > len(prefix) else text


_REASONS = {errno.ENAMETOOLONG: "its name is too long",
            errno.ELOOP: "it is a loop of symbolic links",
            errno.ENOTDIR: "a folder in its path is a file",
            errno.EACCES: "permission denied", errno.EPERM: "permission denied"}


def _reason(exc: OSError) -> str:
    """Why a path cannot be opened, in a few plain words."""
    return _REASONS.get(exc.errno or 0, exc.strerror or type(exc).__name__)


def _nul(prefix: str, what: str, path: Path | str) -> InputFileError:
    return InputFileError(f"{prefix}{what} {shorten(str(path))} cannot be opened (its name "
                          "contains a NUL byte).", value=path)


def user_path(text: str) -> Path:
    """A path as a user wrote it, ``~`` and ``~user`` expanded where there is such a home
    (otherwise the name is kept as written, as a shell keeps it)."""
    path = Path(text)
    try:
        return path.expanduser()
    except (RuntimeError, KeyError, OSError):  # no home for that user
        return path


def look(path: Path, what: str, *, where: str = "") -> os.stat_result | None:
    """What is at a path a user gave (symbolic links followed): its status, or None when
    nothing has that name. Every other way a look can fail (a folder on the way that
    cannot be entered, a name or path too long for the file system, a file where a
    folder belongs, a loop of symbolic links, a NUL byte) is an
    :class:`InputFileError` in one sentence naming ``where`` (a field or an option),
    ``what`` (the kind of file) and the path, worded as :func:`read_input` words it."""
    prefix = f"{where}: " if where else ""
    try:
        return os.stat(path)
    except FileNotFoundError:
        return None
    except ValueError:  # a NUL byte in the name
        raise _nul(prefix, what, path) from None
    except OSError as exc:
        raise InputFileError(f"{prefix}{what} {path_text(path)} cannot be opened "
                             f"({_reason(exc)}).", value=path) from None


def read_input(path: Path, what: str, *, max_bytes: int, where: str = "",
               expected: str = "") -> bytes:
    """The bytes of an input file, or an :class:`InputFileError` in one sentence.

    ``what`` names the kind of file ("image file"), ``where`` (a config field such as
    ``images.logo``) starts the sentence, ``expected`` is what a folder is said not to
    be (default: ``what``). Only regular files of at most ``max_bytes`` are read.
    """
    prefix = f"{where}: " if where else ""
    shown = path_text(path)
    expected = expected or what
    try:
        fd = os.open(path, _OPEN_FLAGS)
    except FileNotFoundError:
        raise InputFileError(f"{prefix}{what} {shown} does not exist.", value=path) from None
    except PermissionError:
        raise InputFileError(f"{prefix}{what} {shown} cannot be read (permission denied).",
                             value=path) from None
    except ValueError:  # a NUL byte in the name
        raise _nul(prefix, what, path) from None
    except OSError as exc:
        raise InputFileError(f"{prefix}{what} {shown} cannot be opened ({_reason(exc)}).",
                             value=path) from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise InputFileError(f"{prefix}{what} {shown} is a folder, not a {expected}.",
                                 value=path)
        if not stat.S_ISREG(info.st_mode):
            raise InputFileError(f"{prefix}{what} {shown} is not a regular file (a pipe, "
                                 "socket or device); cardgen reads only regular files.",
                                 value=path)
        too_large = InputFileError(
            f"{prefix}{what} {shown} is larger than {max_bytes:,} bytes, far larger than "
            f"any {what} cardgen needs (is it the right file?).", value=path)
        if info.st_size > max_bytes:
            raise too_large
        chunks, total = [], 0
        while total <= max_bytes:
            chunk = os.read(fd, min(1 << 20, max_bytes + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
        if total > max_bytes:
            raise too_large
        return b"".join(chunks)
    except OSError as exc:
        raise InputFileError(f"{prefix}{what} {shown} cannot be read ({exc.strerror}).",
                             value=path) from None
    finally:
        os.close(fd)


def read_toml(path: Path, kind: str, label: str | None = None) -> dict[str, Any]:
    """The parsed contents of a TOML file.

    ``kind`` names what the file is for ("config file", "theme file", "board file") in
    the sentences about a file that cannot be opened; ``label`` (default: the path) starts
    the sentences about its contents. A UTF-8 byte-order mark is accepted.
    """
    label = path_text(path) if label is None else label
    return parse_toml(read_toml_text(path, kind, label), label)


def read_toml_text(path: Path, kind: str, label: str) -> str:
    """A TOML file's text, read once with :func:`read_toml`'s guards and words, for a
    reader that parses it with :func:`parse_toml` and also looks at its lines."""
    return _read_text(path, kind, label, "TOML file",
                      lambda line: "not a text file (expected UTF-8 TOML).")


def _read_text(path: Path, kind: str, label: str, expected: str,
               not_utf8: Callable[[int], str]) -> str:
    """A data file's text (UTF-8, a byte-order mark accepted). A file that cannot be
    read is a :class:`ConfigError` in :func:`read_input`'s words; one that is not UTF-8
    names ``label`` with ``not_utf8(line)``, the line of the first bad byte."""
    try:
        raw = read_input(path, kind, max_bytes=MAX_BYTES, expected=expected)
    except InputFileError as exc:
        raise ConfigError("", [str(exc)], value=path, code=_BAD) from None
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[:exc.start].count(b"\n") + 1
        raise ConfigError(label, [not_utf8(line)], value=path, code=_BAD) from None


TOML_INTEGERS = (-2 ** 63, 2 ** 63 - 1)  # TOML's integers are 64-bit


def parse_toml(text: str, label: str) -> dict[str, Any]:
    """Parse TOML text; a syntax error names ``label`` and the line. An integer beyond
    the 64 bits TOML allows (Python would read it) is refused naming its key."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(label, [f"invalid TOML: {exc}."], code=_BAD) from None
    except RecursionError:
        raise ConfigError(label, ["invalid TOML: its tables or arrays are nested hundreds "
                                  "of levels deep, far deeper than any cardgen file."],
                          code=_BAD) from None
    except ValueError:  # an integer of more digits than Python converts
        raise ConfigError(label, [f"invalid TOML: an integer has more than 4,300 digits; "
                                  f"TOML's integers are 64-bit ({TOML_INTEGERS[0]} to "
                                  f"{TOML_INTEGERS[1]})."], code=_BAD) from None
    found = _huge_integer(data, "")
    if found is not None:
        key, value = found
        raise ConfigError(label, [f"invalid TOML: {key} is {number(value)}, beyond TOML's "
                                  f"64-bit integers ({TOML_INTEGERS[0]} to "
                                  f"{TOML_INTEGERS[1]})."], value=value, code=_BAD)
    return data


def _huge_integer(value: Any, key: str) -> tuple[str, int] | None:
    """The first integer in ``value`` beyond TOML's 64 bits, with its key (``a.b``,
    ``a.b item 2``, ``a[3].b``), or None. Nesting is bounded by the parser."""
    if isinstance(value, dict):
        for name, item in value.items():
            shown = name if len(name) <= 40 and name.isprintable() else shorten(name)[1:-1]
            found = _huge_integer(item, f"{key}.{shown}" if key else shown)
            if found is not None:
                return found
    elif isinstance(value, list):
        tables = all(isinstance(item, dict) for item in value)
        for i, item in enumerate(value, 1):
            found = _huge_integer(item, f"{key}[{i}]" if tables else f"{key} item {i}")
            if found is not None:
                return found
    elif isinstance(value, int) and not isinstance(value, bool) and not (
            TOML_INTEGERS[0] <= value <= TOML_INTEGERS[1]):
        return key, value
    return None


MAX_CSV_ROWS = 5_000  # a studio, a prototype deck, a convention's worth of cards
MAX_CSV_COLUMNS = 100
CSV_DELIMITERS = ",;\t"


@dataclass(frozen=True)
class CsvRow:
    """One record of a CSV file: the line it starts on (1-based, as an editor counts)
    and its values by column name (columns missing at the row's end are empty)."""

    line: int
    values: dict[str, str]


@dataclass(frozen=True)
class CsvTable:
    """A CSV file: its header's column names (stripped, in order), its records, and the
    records that could not be read (``problems``: one sentence each, starting with the
    record's line, in the order of the file). Only :func:`read_csv` with ``partial``
    gives a table with problems; the caller then reports them with its own."""

    columns: tuple[str, ...]
    rows: tuple[CsvRow, ...]
    problems: tuple[Problem, ...] = ()


def read_csv(path: Path, kind: str, label: str | None = None, *,
             max_rows: int = MAX_CSV_ROWS, partial: bool = False) -> CsvTable:
    """The records of a CSV file with a header row, or a :class:`ConfigError` that names
    the file and the line of every record that cannot be read.

    The file is UTF-8 (a byte-order mark, as spreadsheets write, is accepted). The
    delimiter is the one of comma, semicolon and tab that the header line holds most of
    (a spreadsheet set to a European locale writes semicolons); quoting is as RFC 4180
    (a quoted value may hold the delimiter, doubled quotes and line breaks). Blank lines
    are skipped. A record with more values than the header has columns is refused;
    one with fewer has the missing ones empty. A bad record does not stop the reading:
    every one is found, and the error lists them all. With ``partial``, the bad records
    are not an error but the table's :attr:`~CsvTable.problems`, for a caller that
    checks the good records and reports every problem of the file at once.
    """
    label = path_text(path) if label is None else label
    text = _read_text(path, kind, label, "CSV file",
                      lambda line: f"line {line}: not UTF-8 text; save the file as CSV UTF-8.")
    return parse_csv(text, label, max_rows=max_rows, partial=partial)


def parse_csv(text: str, label: str, *, max_rows: int = MAX_CSV_ROWS,
              partial: bool = False) -> CsvTable:
    """Parse CSV text (see :func:`read_csv`); errors name ``label`` and the line."""
    first = text.split("\n", 1)[0]
    delimiter = max(CSV_DELIMITERS, key=lambda d: (first.count(d), d == ","))
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    columns: tuple[str, ...] | None = None
    rows: list[CsvRow] = []
    problems: list[Problem] = []
    records = 0  # under the header, good and bad
    while True:
        start = reader.line_num + 1
        try:
            record = next(reader)
        except StopIteration:
            break
        except csv.Error as exc:
            # The reader goes on at the next line: the records after a broken one are
            # still read, so that every broken one is named at once.
            bad: str | None = f"not valid CSV ({exc})."
            record = []
        else:
            if not any(value.strip() for value in record):
                continue  # a blank line, or one of delimiters only
            if columns is None:
                columns = _header(record, start, label, problems)
                continue
            bad = None
        if columns is None:  # a broken record before the header
            problems.append(Problem(f"line {start}: {bad}", _BAD))
            continue
        if records == max_rows:
            raise ConfigError(label, [f"line {start}: more than {max_rows:,} records; "
                                      "split the file."], code=_BAD)
        records += 1
        if bad is None and len(record) > len(columns):
            bad = (f"{len(record)} values, but the header has {len(columns)} columns; "
                   f"quote a value that holds a {_DELIMITER_NAMES[delimiter]}.")
        if bad is not None:
            problems.append(Problem(f"line {start}: {bad}", _BAD))
            continue
        record += [""] * (len(columns) - len(record))
        rows.append(CsvRow(start, dict(zip(columns, record, strict=True))))
    if columns is None:
        raise ConfigError(label, problems or ["the file is empty; it needs a header row "
                                              "naming the columns, then one record per "
                                              "line."], code=_BAD)
    if problems and not partial:
        raise ConfigError(label, problems, code=_BAD)
    return CsvTable(columns, tuple(rows), tuple(problems))


def _header(record: list[str], line: int, label: str,
            problems: Sequence[str]) -> tuple[str, ...]:
    """The column names of a header record, or a :class:`ConfigError` with every
    problem of the header (after those of the lines before it)."""
    names = [value.strip() for value in record]
    if len(names) > MAX_CSV_COLUMNS:
        raise ConfigError(label, [*problems, f"line {line}: the header has {len(names)} "
                                  f"columns; at most {MAX_CSV_COLUMNS} are read."], code=_BAD)
    found = list(problems)
    seen: set[str] = set()
    twice: set[str] = set()
    for i, name in enumerate(names, 1):
        if not name:
            found.append(f"line {line}: column {i} of the header has no name; name every "
                         "column.")
        elif name in seen and name not in twice:
            twice.add(name)
            found.append(f"line {line}: the header names column {shorten(name)} twice.")
        seen.add(name)
    if found:
        raise ConfigError(label, found, code=_BAD)
    return tuple(names)


_DELIMITER_NAMES = {",": "comma", ";": "semicolon", "\t": "tab"}
