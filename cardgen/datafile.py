"""Reading input files safely, and TOML data files with one sentence for every way that
can fail.

Every file cardgen reads from the user (configs, themes, board files, images, fonts)
goes through :func:`read_input`: only a regular file is read (a FIFO, a socket or a
device such as ``/dev/zero`` is refused before anything is read, so nothing can hang or
fill the memory), and never more than a size cap. Data files then go through
:func:`read_toml` (or :func:`read_table` for tables of people and cards: CSV through
:func:`read_csv`, and the first visible sheet of an .xlsx or .ods workbook), so a
missing file, a folder, a file that is not UTF-8 text and broken TOML, CSV or workbooks
are worded the same everywhere. What the data means is checked afterwards against a
schema (``cardgen.schema``). A path that is only looked at (is there a theme file of
that name, is it a folder) goes through :func:`look`, so that a name too long for the
file system or a folder that cannot be entered is one sentence there too; ``~`` in a
path from a data file is expanded by :func:`user_path`.

May import: ``cardgen.errors``, and ``python_calamine`` (the spreadsheet reader), which
is imported only when a spreadsheet is read.
"""

from __future__ import annotations

import csv
import errno
import io
import os
import posixpath
import re
import stat
import tomllib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
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
                      lambda line, raw: "not a text file (expected UTF-8 TOML).")


def _read_text(path: Path, kind: str, label: str, expected: str,
               not_utf8: Callable[[int, bytes], str]) -> str:
    """A data file's text (UTF-8, a byte-order mark accepted). A file that cannot be
    read is a :class:`ConfigError` in :func:`read_input`'s words; one that is not UTF-8
    names ``label`` with ``not_utf8(line, raw)``, the line of the first bad byte and
    the file's bytes."""
    try:
        raw = read_input(path, kind, max_bytes=MAX_BYTES, expected=expected)
    except InputFileError as exc:
        raise ConfigError("", [str(exc)], value=path, code=_BAD) from None
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[:exc.start].count(b"\n") + 1
        raise ConfigError(label, [not_utf8(line, raw)], value=path, code=_BAD) from None


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
class SheetPlace:
    """Where the records of a spreadsheet are: the sheet's name, and each column's
    letter by the column's name (``{"strength": "C"}``)."""

    name: str
    letters: dict[str, str]


@dataclass(frozen=True)
class CsvRow:
    """One record of a CSV file: the line it starts on (1-based, as an editor counts)
    and its values by column name (columns missing at the row's end are empty). A
    record of a spreadsheet (:func:`read_table`) has its row number as ``line`` and
    its sheet as ``sheet``; :attr:`at` and :meth:`cell` say where it is in either."""

    line: int
    values: dict[str, str]
    sheet: SheetPlace | None = field(default=None, compare=False, repr=False)

    @property
    def at(self) -> str:
        """Where the record is, as its file's user counts: ``line 3`` in a CSV file,
        ``sheet 'People', row 3`` in a spreadsheet."""
        if self.sheet is None:
            return f"line {self.line}"
        return f"sheet {shorten(self.sheet.name)}, row {self.line}"

    def cell(self, column: str | None) -> str:
        """Where a value of the record is: ``line 3, column strength`` in a CSV file,
        ``sheet 'People', row 3, column C (strength)`` in a spreadsheet."""
        if self.sheet is None:
            return f"line {self.line}, column {column}"
        return f"{self.at}, column {self.sheet.letters.get(column or '', '?')} ({column})"


def line_of(problem: str) -> int:
    """The line (or spreadsheet row) a record's problem names first (see
    :attr:`CsvRow.at`), to sort problems in the order of the file; 0 for none."""
    match = re.match(r"(?:sheet .+?, )?(?:line|row) (\d+)", problem)
    return int(match.group(1)) if match else 0


@dataclass(frozen=True)
class CsvTable:
    """A CSV file: its header's column names (stripped, in order), its records, and the
    records that could not be read (``problems``: one sentence each, starting with the
    record's line, in the order of the file). Only :func:`read_csv` with ``partial``
    gives a table with problems; the caller then reports them with its own."""

    columns: tuple[str, ...]
    rows: tuple[CsvRow, ...]
    problems: tuple[Problem, ...] = ()
    header_line: int = 1  # the line (or spreadsheet row) of the header
    sheet: SheetPlace | None = field(default=None, compare=False, repr=False)

    def heading(self, column: str | None = None) -> str:
        """Where the header (or one of its columns) is: ``line 1`` in a CSV file,
        ``sheet 'People', row 1, column D`` in a spreadsheet."""
        if self.sheet is None:
            return f"line {self.header_line}"
        at = f"sheet {shorten(self.sheet.name)}, row {self.header_line}"
        return at if column is None else f"{at}, column {self.sheet.letters.get(column, '?')}"


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
                      _not_csv)
    return parse_csv(text, label, max_rows=max_rows, partial=partial)


def _not_csv(line: int, raw: bytes) -> str:
    """Why a CSV file is not UTF-8 text: a workbook given a CSV file's name, or else the
    line of its first byte that is not UTF-8."""
    if raw.startswith(b"PK\x03\x04"):
        return ("not CSV text but a zip archive, as a workbook is (.xlsx or .ods); give it "
                "its own extension, or save it as CSV UTF-8.")
    if raw.startswith(_OLE):
        return ("not CSV text but an older Office file (an Excel 97–2003 .xls workbook?); "
                "save it as .xlsx, .ods or CSV UTF-8.")
    return f"line {line}: not UTF-8 text; save the file as CSV UTF-8."


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
    header_line = 1
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
                header_line = start
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
    return CsvTable(columns, tuple(rows), tuple(problems), header_line)


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


# --- Spreadsheets -------------------------------------------------------------------------
#
# An .xlsx or .ods workbook is a zip archive of XML parts. It is read in four steps, so
# that no file can make cardgen hang or fill the memory (docs/team.md, "Spreadsheets"):
# (1) its bytes are read with read_input's cap; (2) the archive is unpacked here, each
# part checked against the size its directory declares (and its CRC) and all of them
# against MAX_UNPACKED, so a zip bomb is refused before it unpacks; (3) the parts that
# hold cells are scanned here with expat, with the reader's own rules for where a cell
# is, so that a tiny file spreading values over a million columns or rows is refused
# before the reader would allocate them, and the cells it cannot say (errors, formulas
# without a saved value) are found; (4) the checked parts, packed again without
# compression (their sizes exact), are read by python-calamine, which gives each cell's
# saved value (it evaluates no formula).

SHEET_FORMATS = {".xlsx": "xlsx", ".ods": "ods"}
MAX_SHEET_BYTES = 4_000_000  # a workbook: XML parts, zipped, and maybe a picture or two
MAX_UNPACKED = 32_000_000  # its parts unpacked: as much text as the largest CSV file
# (1 MB) takes about 10 MB of .ods XML, 4 MB of .xlsx
MAX_PARTS = 10_000
# Cells the reader holds for a sheet (from its first value to its last, rows times
# columns; for .ods, every sheet's, as all are read at once): the largest table cardgen
# reads (5,000 records of 100 columns) with room to spare.
MAX_SHEET_CELLS = 600_000
MAX_CELL_CHARS = 32_767  # a spreadsheet cell's own limit (Excel's, LibreOffice's)
MAX_COLUMN = 16_384  # the columns of a sheet (A to XFD), as the reader counts them
_FORMAT_NAMES = {"xlsx": "an Excel workbook (.xlsx)", "ods": "an OpenDocument spreadsheet (.ods)"}
_OLE = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"  # an Office file before 2007, or an encrypted one
# (zipfile, expat and datetime are imported where a workbook is read: the commands that
# read none start without them.)


def read_table(path: Path, kind: str, label: str | None = None, *,
               max_rows: int = MAX_CSV_ROWS, partial: bool = False) -> CsvTable:
    """A table of records with a header row, chosen by the file's extension: the first
    visible sheet of an Excel workbook (``.xlsx``) or an OpenDocument spreadsheet
    (``.ods``), any other file as CSV (:func:`read_csv`). A spreadsheet gives the same
    :class:`CsvTable`, each record's ``line`` its row number, and every problem names
    the sheet, the row and the column (letter and header) in :func:`read_csv`'s words.

    A cell's text is its saved value (formulas are never evaluated), converted as
    :func:`cell_text` says; a cell that shows an error, or a formula without a saved
    value, is a problem of its row. A merged area's value is read in each of its cells.
    Empty rows and columns around and inside the table are ignored; a column with values
    under an empty header cell is a problem, as a CSV record with more values than the
    header has columns. Hidden rows and columns are read like the others.
    """
    form = SHEET_FORMATS.get(path.suffix.lower())
    if form is None:
        return read_csv(path, kind, label, max_rows=max_rows, partial=partial)
    label = path_text(path) if label is None else label
    try:
        raw = read_input(path, kind, max_bytes=MAX_SHEET_BYTES, expected="spreadsheet")
    except InputFileError as exc:
        raise ConfigError("", [str(exc)], value=path, code=_BAD) from None
    return parse_sheet(raw, form, label, max_rows=max_rows, partial=partial)


def parse_sheet(data: bytes, form: str, label: str, *, max_rows: int = MAX_CSV_ROWS,
                partial: bool = False) -> CsvTable:
    """Read the bytes of a workbook (``form``: ``"xlsx"`` or ``"ods"``; see
    :func:`read_table`); errors name ``label``."""
    parts = _unpack(data, form, label)
    if form == "xlsx":
        places = _xlsx_sheet_parts(parts)
        marks = {}
        for name, part in parts.items():
            found = _scan_xlsx(part, label, places.get(name.casefold(), name))
            if found is not None and name.casefold() in places:
                marks[places[name.casefold()]] = found
    else:
        marks = _scan_ods(parts.get("content.xml", b""), label)
    grid, start, merged, name = _calamine(_repack(parts), form, label)
    sheet = marks.get(name) or _Marks(name)
    return _sheet_table(grid, start, [*merged, *sheet.merged], sheet, label,
                        max_rows=max_rows, partial=partial)


def _refused(label: str, text: str) -> ConfigError:
    return ConfigError(label, [text], code=_BAD)


def _unpack(data: bytes, form: str, label: str) -> dict[str, bytes]:
    """The parts of a workbook by name, or a :class:`ConfigError` in one sentence: not a
    zip archive (what it seems to be instead), a damaged one, an encrypted one, one
    that unpacks to more than :data:`MAX_UNPACKED` bytes, or the other format."""
    what = _FORMAT_NAMES[form]
    if data.startswith(_OLE):
        if "EncryptedPackage".encode("utf-16-le") in data:
            raise _refused(label, "the workbook is protected by a password (encrypted), and "
                           "cardgen cannot open it; save a copy without a password.")
        raise _refused(label, f"not {what}: it is an older Office file (an Excel 97–2003 "
                       ".xls workbook?); save it as .xlsx or .ods.")
    if not data.startswith(b"PK\x03\x04"):
        text = data[:2000]
        hint = ("; it looks like text (a CSV file? give it the .csv extension)"
                if text and all(32 <= b < 127 or b in b"\t\r\n" or b >= 128 for b in text)
                else "")
        raise _refused(label, f"not {what}: it is not a zip archive, as every .xlsx and "
                       f".ods file is{hint}.")
    import lzma
    import struct
    import zipfile
    import zlib

    damaged = _refused(label, f"not a complete {what}: its zip archive is damaged or cut "
                       "short; save the file again from the spreadsheet program.")
    errors = (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, OSError, EOFError,
              RuntimeError, NotImplementedError, zlib.error, lzma.LZMAError, KeyError,
              IndexError, OverflowError, struct.error)
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            infos = [info for info in archive.infolist() if not info.is_dir()]
            if len(infos) > MAX_PARTS:
                raise _refused(label, f"the archive holds {len(infos):,} files; a workbook "
                               f"holds a few dozen (at most {MAX_PARTS:,} are read).")
            if any(info.flag_bits & 1 for info in infos):
                raise _refused(label, "the workbook is protected by a password (encrypted), "
                               "and cardgen cannot open it; save a copy without a password.")
            total = sum(info.file_size for info in infos)
            if total > MAX_UNPACKED:
                raise _refused(label, f"its parts unpack to {total:,} bytes, far more than "
                               f"any table cardgen reads (at most {MAX_UNPACKED:,}; is it a "
                               "zip bomb?).")
            parts: dict[str, bytes] = {}
            for info in infos:
                with archive.open(info) as member:  # stops at the declared size; checks the CRC
                    part = member.read(info.file_size + 1)
                if len(part) != info.file_size:
                    raise damaged
                parts[info.filename] = part
    except ConfigError:
        raise
    except errors:
        raise damaged from None
    _check_format(parts, form, label)
    return parts


def _check_format(parts: dict[str, bytes], form: str, label: str) -> None:
    """Is this workbook of the format its extension says (and not encrypted)?"""
    mime = parts.get("mimetype", b"").strip()
    found = ("ods" if mime == b"application/vnd.oasis.opendocument.spreadsheet"
             else "odf" if mime.startswith(b"application/vnd.oasis.opendocument")
             else "xlsx" if b"spreadsheetml" in parts.get("[Content_Types].xml", b"")
             else "ooxml" if "[Content_Types].xml" in parts else "zip")
    if found == form:
        if form == "ods" and b"encryption-data" in parts.get("META-INF/manifest.xml", b""):
            raise _refused(label, "the spreadsheet is protected by a password (encrypted), "
                           "and cardgen cannot open it; save a copy without a password.")
        return
    if found in SHEET_FORMATS.values():
        other = next(suffix for suffix, name in SHEET_FORMATS.items() if name == found)
        raise _refused(label, f"not {_FORMAT_NAMES[form]}: it is {_FORMAT_NAMES[found]}; "
                       f"give it the {other} extension.")
    kind = {"odf": "another OpenDocument file (a text or a drawing?)",
            "ooxml": "another Office file (a Word document or a presentation?)",
            "zip": "a zip archive with no workbook in it"}[found]
    raise _refused(label, f"not {_FORMAT_NAMES[form]}: it is {kind}.")


def _repack(parts: dict[str, bytes]) -> bytes:
    """The checked parts as a zip archive without compression: the reader then finds
    each part exactly as checked, at its exact size."""
    import zipfile

    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as archive:
        for name, part in parts.items():
            archive.writestr(zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0)), part)
    return out.getvalue()


Rect = tuple[int, int, int, int]  # first row, first column, last row, last column (0-based)


@dataclass
class _Marks:
    """What the scan of a sheet found: the rows and columns its values span (0-based,
    as the reader counts them), the cells the reader holds for it, and the cells whose
    saved value cannot be read (``errors``, ``unsaved``: areas and what each shows) and
    the merged areas that the reader does not report itself (.ods)."""

    name: str
    first: tuple[int, int] | None = None
    last: tuple[int, int] = (0, 0)
    held: int = 0  # cells the reader holds while it reads (.ods)
    errors: list[tuple[Rect, str]] = field(default_factory=list)
    unsaved: list[Rect] = field(default_factory=list)
    merged: list[Rect] = field(default_factory=list)

    def add(self, rows: tuple[int, int], columns: tuple[int, int]) -> None:
        """Values in rows[0]..rows[1] and columns[0]..columns[1]."""
        if self.first is None:
            self.first = (rows[0], columns[0])
            self.last = (rows[1], columns[1])
            return
        self.first = (min(self.first[0], rows[0]), min(self.first[1], columns[0]))
        self.last = (max(self.last[0], rows[1]), max(self.last[1], columns[1]))

    @property
    def cells(self) -> int:
        if self.first is None:
            return 0
        return (self.last[0] - self.first[0] + 1) * (self.last[1] - self.first[1] + 1)

    def check(self, label: str) -> None:
        """A :class:`ConfigError` when the sheet spreads over more cells than are read."""
        if self.cells <= MAX_SHEET_CELLS and self.held <= MAX_SHEET_CELLS:
            return
        assert self.first is not None
        raise _refused(label, f"sheet {shorten(self.name)}: its values spread over rows "
                       f"{self.first[0] + 1:,} to {self.last[0] + 1:,} and columns "
                       f"{column_letter(self.first[1])} to {column_letter(self.last[1])}, "
                       f"{max(self.cells, self.held):,} cells; cardgen reads at most "
                       f"{MAX_SHEET_CELLS:,}: delete the cells outside the table.")


def column_letter(index: int) -> str:
    """A column's letters from its 0-based index (0 -> A, 26 -> AA)."""
    text = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        text = chr(65 + rest) + text
    return text


class _Damaged(Exception):
    """A part that is not XML as a workbook's parts are."""


def _parser(label: str) -> Any:
    """An expat parser that refuses a document type declaration (no workbook has one:
    it is how entities that expand to gigabytes are declared)."""
    from xml.parsers import expat

    parser = expat.ParserCreate()

    def refuse(*_: object) -> None:
        raise _Damaged("a document type declaration")

    parser.StartDoctypeDeclHandler = refuse
    parser.EntityDeclHandler = refuse
    parser.buffer_text = True
    return parser


def _parse(parser: Any, data: bytes, label: str, part: str) -> None:
    from xml.parsers import expat

    try:
        parser.Parse(data, True)
    except ConfigError:  # (a ValueError) a sheet spread too far, found while scanning
        raise
    except (expat.ExpatError, _Damaged, ValueError, LookupError, RecursionError) as exc:
        raise _refused(label, f"the part {shorten(part)} of the workbook is not well-formed "
                       f"XML ({one_line(str(exc), 80)}); save the file again from the "
                       "spreadsheet program.") from None


_SHEET_DATA = tuple(b"sheetData".decode().encode(code) for code in ("utf-8", "utf-16-le",
                                                                     "utf-16-be"))
_CELL_REF = re.compile(r"([A-Z]{1,3})([0-9]{1,7})")


def _looks_like_xml(data: bytes) -> bool:
    head = data[:8].lstrip(b"\xef\xbb\xbf\xff\xfe \t\r\n")
    return head.startswith((b"<", b"\x00<")) or data.startswith((b"\xff\xfe", b"\xfe\xff"))


def _scan_xlsx(data: bytes, label: str, name: str) -> _Marks | None:
    """The marks of an .xlsx part that holds cells (``<sheetData>``), or None for a part
    that holds none. Cells are placed as the reader places them: by their ``r``
    reference, or else after the previous cell of the row (the row by its ``r``, or
    after the previous row)."""
    if not any(marker in data for marker in _SHEET_DATA):
        return None
    if not _looks_like_xml(data):
        raise _refused(label, f"the part {shorten(name)} of the workbook is not XML; save "
                       "the file again from the spreadsheet program.")
    marks = _Marks(name)
    state: dict[str, Any] = {"in": False, "row": 0, "col": 0, "cell": None, "inner": []}

    def start(tag: str, attrs: dict[str, str]) -> None:
        local = tag.rpartition(":")[2]
        cell = state["cell"]
        if cell is not None:
            state["inner"].append(local)
            cell["child"] = True
            if local == "f":
                cell["formula"] = True
            elif local == "v":
                cell["value"] = True
            return
        if local == "sheetData":
            state["in"] = True
        elif state["in"] and local == "row" and "r" in attrs:
            state["row"] = _whole(attrs["r"]) - 1
        elif state["in"] and local == "c":
            where = (state["row"], state["col"])
            if "r" in attrs:
                match = _CELL_REF.fullmatch(attrs["r"])
                if match is None:
                    raise _Damaged(f"a cell reference {attrs['r']!r}")
                where = (int(match.group(2)) - 1, _column_index(match.group(1)))
            state["col"] = where[1]
            state["cell"] = {"at": where, "t": attrs.get("t"), "child": False,
                             "formula": False, "value": False, "text": []}

    def end(tag: str) -> None:
        local = tag.rpartition(":")[2]
        cell = state["cell"]
        if cell is not None and state["inner"]:
            state["inner"].pop()
            return
        if cell is not None and local == "c":
            state["cell"] = None
            state["col"] += 1
            row, col = cell["at"]
            if cell["child"]:
                marks.add((row, row), (col, col))
            if cell["t"] == "e":
                marks.errors.append(((row, col, row, col), "".join(cell["text"])[:40]))
            elif cell["formula"] and not cell["value"]:
                marks.unsaved.append((row, col, row, col))
        elif state["in"] and local == "row":
            state["row"] += 1
            state["col"] = 0
        elif local == "sheetData":
            state["in"] = False

    def text(chars: str) -> None:
        if state["cell"] is not None and state["inner"][-1:] == ["v"]:
            state["cell"]["text"].append(chars[:40])

    parser = _parser(label)
    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = text
    _parse(parser, data, label, name)
    marks.check(label)
    return marks


def _whole(text: str) -> int:
    if not re.fullmatch(r"[0-9]{1,9}", text.strip()):
        raise _Damaged(f"a number {text[:20]!r}")
    return int(text)


def _column_index(letters: str) -> int:
    index = 0
    for ch in letters:
        index = index * 26 + ord(ch) - 64
    return index - 1


_ODS_VALUES = ("office:value", "office:string-value", "office:date-value", "office:time-value",
               "office:boolean-value", "office:value-type", "table:formula")
_ODS_CELLS = ("table:table-cell", "table:covered-table-cell")


def _scan_ods(data: bytes, label: str) -> dict[str, _Marks]:
    """The marks of every sheet of an .ods ``content.xml`` (the reader reads them all
    at once), by name. Rows and cells are placed as the reader places them: each after
    the previous ones, repeated as ``number-rows-repeated`` and
    ``number-columns-repeated`` say."""
    if not _looks_like_xml(data):
        raise _refused(label, "the workbook has no content.xml part that is XML; save the "
                       "file again from the spreadsheet program.")
    sheets: dict[str, _Marks] = {}
    state: dict[str, Any] = {"sheet": None, "row": 0, "rows": 1, "col": 0, "end": 0,
                             "cell": None, "depth": 0, "held": 0, "area": 0}

    def start(tag: str, attrs: dict[str, str]) -> None:
        cell = state["cell"]
        if cell is not None:
            state["depth"] += 1
            cell["content"] = True
            return
        marks = state["sheet"]
        if tag == "table:table" and marks is None:
            name = attrs.get("table:name", "")
            state["sheet"] = sheets.setdefault(name, _Marks(name))
            state["row"] = 0
        elif marks is not None and tag == "table:table-row":
            state["rows"] = _whole(attrs.get("table:number-rows-repeated", "1"))
            state["col"] = state["end"] = 0
        elif marks is not None and tag in _ODS_CELLS:
            repeats = _whole(attrs.get("table:number-columns-repeated", "1"))
            first = state["col"]
            state["col"] += repeats
            state["cell"] = {"col": first, "repeats": repeats, "attrs": attrs,
                             "content": any(key in attrs for key in _ODS_VALUES), "text": []}
            state["depth"] = 1

    def end(tag: str) -> None:
        cell = state["cell"]
        if cell is not None:
            state["depth"] -= 1
            if state["depth"] == 0:
                state["cell"] = None
                _ods_cell(state, cell)
            return
        marks = state["sheet"]
        if marks is not None and tag == "table:table-row":
            if state["end"]:
                marks.add((state["row"], state["row"] + state["rows"] - 1),
                          (state["first"], state["end"] - 1))
                marks.held += min(state["end"], MAX_COLUMN)
                state["held"] += min(state["end"], MAX_COLUMN)
            state["row"] += state["rows"]
        elif marks is not None and tag == "table:table":
            state["sheet"] = None
            state["area"] += marks.cells
            marks.check(label)
            if state["area"] > MAX_SHEET_CELLS or state["held"] > MAX_SHEET_CELLS:
                marks.held = max(state["area"], state["held"])
                marks.check(label)

    def text(chars: str) -> None:
        if state["cell"] is not None and len(state["cell"]["text"]) < 40:
            state["cell"]["text"].append(chars[:40])

    parser = _parser(label)
    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = text
    _parse(parser, data, label, "content.xml")
    return sheets


def _ods_cell(state: dict[str, Any], cell: dict[str, Any]) -> None:
    """A cell of an .ods row read to its end: its values, errors, formulas without a
    saved value and merged areas marked."""
    marks: _Marks = state["sheet"]
    first, last = cell["col"], cell["col"] + cell["repeats"] - 1
    rows = (state["row"], state["row"] + state["rows"] - 1)
    attrs = cell["attrs"]
    if not cell["content"]:
        return
    if not state["end"]:
        state["first"] = first
    state["end"] = last + 1
    if attrs.get("calcext:value-type") == "error":
        marks.errors.append(((rows[0], first, rows[1], last), "".join(cell["text"])[:40]))
    elif "table:formula" in attrs and "office:value-type" not in attrs:
        marks.unsaved.append((rows[0], first, rows[1], last))
    across = _whole(attrs.get("table:number-columns-spanned", "1"))
    down = _whole(attrs.get("table:number-rows-spanned", "1"))
    if across > 1 or down > 1:
        marks.merged.append((rows[0], first, rows[0] + down - 1, first + across - 1))


def _elements(data: bytes, label: str, part: str) -> list[tuple[str, dict[str, str]]]:
    """The elements of a small XML part (a workbook's list of sheets, its relations):
    local name and attributes, in order."""
    found: list[tuple[str, dict[str, str]]] = []
    parser = _parser(label)
    parser.StartElementHandler = lambda tag, attrs: found.append(
        (tag.rpartition(":")[2], attrs))
    _parse(parser, data, label, part)
    return found


def _xlsx_sheet_parts(parts: dict[str, bytes]) -> dict[str, str]:
    """Each sheet's part (its name in lower case, as the reader finds parts) -> the
    sheet's name, as the workbook's relations say; parts not found are left out (the
    scan still checks every part that holds cells)."""
    folded = {name.casefold(): part for name, part in parts.items()}

    def relations(part: str) -> dict[str, tuple[str, str]]:
        folder, _, base = part.rpartition("/")
        rels = folded.get(posixpath.join(folder, "_rels", base + ".rels").casefold(), b"")
        found = {}
        for local, attrs in _elements(rels, "", part) if rels else ():
            if local == "Relationship" and "Target" in attrs:
                target = attrs["Target"]
                path = (target.lstrip("/") if target.startswith("/")
                        else posixpath.normpath(posixpath.join(folder, target)))
                found[attrs.get("Id", "")] = (attrs.get("Type", ""), path)
        return found

    try:
        book = next((path for kind, path in relations("").values()
                     if kind.endswith("/officeDocument")), "xl/workbook.xml")
        targets = relations(book)
        places = {}
        for local, attrs in _elements(folded.get(book.casefold(), b""), "", book):
            rid = next((value for key, value in attrs.items() if key.endswith(":id")), "")
            if local == "sheet" and rid in targets:
                places[targets[rid][1].casefold()] = attrs.get("name", "")
        return places
    except ConfigError:
        return {}


def _calamine(data: bytes, form: str, label: str
              ) -> tuple[list[list[Any]], tuple[int, int], list[Rect], str]:
    """The first visible sheet of a checked workbook, read by python-calamine: its
    cells' values (from ``start``, 0-based), its merged areas and its name."""
    import python_calamine  # only when a spreadsheet is read

    try:
        book = python_calamine.CalamineWorkbook.from_filelike(io.BytesIO(data))
        names = [sheet.name for sheet in book.sheets_metadata
                 if sheet.visible == python_calamine.SheetVisibleEnum.Visible
                 and sheet.typ == python_calamine.SheetTypeEnum.WorkSheet]
        if not names:
            raise _refused(label, "the workbook has no visible sheet; show the sheet that "
                           "holds the table.")
        sheet = book.get_sheet_by_name(names[0])
        grid = sheet.to_python()
        start = sheet.start or (0, 0)
        merged = [(a, b, c, d) for (a, b), (c, d) in sheet.merged_cell_ranges or ()]
    except ConfigError:
        raise
    except Exception as exc:  # the reader's own errors (CalamineError and others)
        raise _refused(label, f"cannot be read as {_FORMAT_NAMES[form]} "
                       f"({one_line(str(exc), 120) or type(exc).__name__}); save the file "
                       "again from the spreadsheet program.") from None
    except BaseException as exc:  # a panic of the reader (pyo3_runtime.PanicException)
        if type(exc).__name__ != "PanicException":
            raise
        raise _refused(label, f"cannot be read as {_FORMAT_NAMES[form]} (the reader "
                       "failed on it); save the file again from the spreadsheet "
                       "program.") from None
    return grid, start, merged, names[0]


def cell_text(value: object) -> str:
    """A spreadsheet cell's saved value as the text of a CSV cell: text as it is; a
    number as the spreadsheet shows it at most (a whole number without ``.0``, others
    to 15 significant digits: ``4915112345678``, ``2.5``, ``0.333333333333333``,
    ``1e+20``); true and false as ``true`` and ``false``; a date as ``2026-11-27``, a
    date with a time as ``2026-11-27 09:30:00``, a time as ``09:30:00`` and a duration
    as hours, minutes and seconds (``36:00:00``); an empty cell as the empty text."""
    import datetime

    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if value.is_integer() and abs(value) < 1e15:
            return str(int(value))
        return format(value, ".15g")
    if isinstance(value, datetime.datetime):
        return value.isoformat(sep=" ")
    if isinstance(value, datetime.date | datetime.time):
        return value.isoformat()
    if isinstance(value, datetime.timedelta):
        seconds = int(value.total_seconds())
        sign, seconds = ("-", -seconds) if seconds < 0 else ("", seconds)
        return f"{sign}{seconds // 3600}:{seconds // 60 % 60:02}:{seconds % 60:02}"
    return "" if value is None else str(value)


def _sheet_table(grid: list[list[Any]], start: tuple[int, int], merged: Sequence[Rect],
                 marks: _Marks, label: str, *, max_rows: int,
                 partial: bool) -> CsvTable:
    """The table of a sheet's cells (see :func:`read_table`)."""
    top, left = start
    texts = [[cell_text(value) for value in row] for row in grid]
    width = max((len(row) for row in texts), default=0)
    for row in texts:
        row += [""] * (width - len(row))
    inside = (top, left, top + len(texts) - 1, left + width - 1)
    for area in merged:
        first = (area[0] - top, area[1] - left)
        value = texts[first[0]][first[1]] if _within(area[:2], inside) else ""
        for r, c in _cells(area, inside):
            texts[r - top][c - left] = value
    bad: dict[tuple[int, int], str] = {}
    for area, shown in marks.errors:
        for at in _cells(area, inside):
            bad[at] = (f"the cell shows the error {shorten(shown) if shown else 'value'}; "
                       "correct its formula or type the value.")
    for area in marks.unsaved:
        for at in _cells(area, inside):
            bad[at] = ("its formula has no saved value (the program that wrote the file "
                       "did not calculate it); open the file in a spreadsheet program and "
                       "save it again.")
    filled = [i for i, row in enumerate(texts)
              if any(t.strip() for t in row) or any((top + i, left + j) in bad
                                                    for j in range(width))]
    where = f"sheet {shorten(marks.name)}"
    if not filled:
        raise _refused(label, f"{where} is empty; it needs a header row naming the columns, "
                       "then one record per row.")
    head = filled[0]
    letters = _sheet_header(texts, filled, head, (top, left), bad, where, label)
    place = SheetPlace(marks.name, letters)
    index = {texts[head][j].strip(): j for j in range(width) if texts[head][j].strip()}
    rows: list[CsvRow] = []
    problems: list[Problem] = []
    for records, i in enumerate(filled[1:]):
        line = top + i + 1
        if records == max_rows:
            raise _refused(label, f"{where}, row {line}: more than {max_rows:,} records; "
                           "split the file.")
        values = {name: texts[i][j] for name, j in index.items()}
        record = CsvRow(line, values, place)
        found = [f"{record.cell(name)}: {bad[(top + i, left + j)]}"
                 for name, j in index.items() if (top + i, left + j) in bad]
        found += [f"{record.cell(name)}: the cell holds {len(values[name]):,} characters; at "
                  f"most {MAX_CELL_CHARS:,} are read." for name in values
                  if len(values[name]) > MAX_CELL_CHARS]
        if found:
            problems += [Problem(text, _BAD) for text in found]
        else:
            rows.append(record)
    if problems and not partial:
        raise ConfigError(label, problems, code=_BAD)
    return CsvTable(tuple(index), tuple(rows), tuple(problems), top + head + 1, place)


def _within(at: tuple[int, int], area: Rect) -> bool:
    return area[0] <= at[0] <= area[2] and area[1] <= at[1] <= area[3]


def _cells(area: Rect, inside: Rect) -> Iterator[tuple[int, int]]:
    """The cells of ``area`` that are also ``inside`` (absolute, 0-based)."""
    for r in range(max(area[0], inside[0]), min(area[2], inside[2]) + 1):
        for c in range(max(area[1], inside[1]), min(area[3], inside[3]) + 1):
            yield r, c


def _sheet_header(texts: list[list[str]], filled: list[int], head: int,
                  start: tuple[int, int], bad: dict[tuple[int, int], str], where: str,
                  label: str) -> dict[str, str]:
    """Each column name of the header row -> its letter, or a :class:`ConfigError`
    with every problem of the header."""
    top, left = start
    line = top + head + 1
    problems: list[str] = []
    letters: dict[str, str] = {}
    twice: set[str] = set()
    for j, text in enumerate(texts[head]):
        name, letter = text.strip(), column_letter(left + j)
        if (top + head, left + j) in bad:
            problems.append(f"{where}, row {line}, column {letter}: a header cell "
                            f"{bad[(top + head, left + j)]}")
        elif not name:
            used = next((top + i + 1 for i in filled[1:]
                         if texts[i][j].strip() or (top + i, left + j) in bad), None)
            if used is not None:
                problems.append(f"{where}, row {line}: column {letter} of the header has no "
                                f"name, but row {used} has a value in it; name every column "
                                "that holds values.")
        elif name in letters:
            if name not in twice:
                problems.append(f"{where}, row {line}: the header names column "
                                f"{shorten(name)} twice.")
            twice.add(name)
        else:
            letters[name] = letter
    if len(letters) > MAX_CSV_COLUMNS:
        problems.append(f"{where}, row {line}: the header has {len(letters)} columns; at "
                        f"most {MAX_CSV_COLUMNS} are read.")
    if problems:
        raise ConfigError(label, problems, code=_BAD)
    return letters
