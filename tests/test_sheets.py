"""Spreadsheets as tables (issue 27, point 3): `card --batch`, `sheet --batch` and `ladder
deck` read the first visible sheet of an .xlsx or .ods workbook as they read a CSV file
(cardgen.datafile.read_table). The workbooks are written here from code
(tests/sheetfiles.py), the odd ones by hand: a formula whose saved value is not what it
computes, a formula with no saved value, error cells, merged cells, hidden sheets, and
hostile files (zip bombs, encrypted and truncated files, a sheet spread over a million
columns)."""

from __future__ import annotations

import csv
import io
import json
import os
import resource
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from cardgen.datafile import (
    MAX_SHEET_CELLS,
    MAX_UNPACKED,
    CsvRow,
    cell_text,
    line_of,
    parse_sheet,
    read_table,
)
from cardgen.errors import ConfigError
from cardgen.ladder.deck import example_deck, first_digit
from tests.helpers import ROOT, cli, error_line, examples, ok
from tests.sheetfiles import (
    Cell,
    Sheet,
    bomb,
    encrypted_ooxml,
    ods,
    ods_content,
    ods_parts,
    wide_ods,
    workbook,
    xlsx,
    xlsx_parts,
    zip_parts,
)
from tests.test_team import PEOPLE, _studio

FORMS = [".xlsx", ".ods"]
FUZZ = settings(max_examples=examples(60), deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.function_scoped_fixture,
                                       HealthCheck.too_slow])
HANG_GUARD = 300  # seconds: only to stop a process that hangs, never a bound on speed
MEMORY_CAP = 1 << 30  # bytes of address space for a run on a hostile file


def _table(suffix: str, *sheets: Sheet, partial: bool = True, max_rows: int = 5000):
    return parse_sheet(workbook(suffix, *sheets), suffix[1:], f"t{suffix}", partial=partial,
                       max_rows=max_rows)


def _csv_rows(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


# --- values ------------------------------------------------------------------------------

@pytest.mark.parametrize(("value", "text"), [
    ("Ada", "Ada"), (3.0, "3"), (4915112345678.0, "4915112345678"), (-2.0, "-2"),
    (2.5, "2.5"), (0.1 + 0.2, "0.3"), (1 / 3, "0.333333333333333"), (1e20, "1e+20"),
    (7, "7"), (True, "true"), (False, "false"), (None, ""),
])
def test_cell_values_become_the_text_a_csv_cell_would_hold(value, text):
    assert cell_text(value) == text


def test_dates_and_times_are_written_the_iso_way():
    import datetime as dt

    assert cell_text(dt.date(2026, 11, 27)) == "2026-11-27"
    assert cell_text(dt.datetime(2026, 11, 27, 9, 30)) == "2026-11-27 09:30:00"
    assert cell_text(dt.time(9, 30)) == "09:30:00"
    assert cell_text(dt.timedelta(hours=36, minutes=5)) == "36:05:00"


@pytest.mark.parametrize("suffix", FORMS)
def test_a_sheet_reads_as_its_csv_would(suffix):
    rows = [["name", "strength", "phone", "note"],
            ["Ada", 3, 4915112345678, "two\nlines"],
            ["Bo", 7.0, "+44 20 7946 0958", None],
            [None, None, None, None],  # an empty row inside the table: skipped
            ["Cy", 2.5, True, ""]]
    table = _table(suffix, Sheet("People", rows))
    assert table.columns == ("name", "strength", "phone", "note")
    assert [row.values for row in table.rows] == [
        {"name": "Ada", "strength": "3", "phone": "4915112345678", "note": "two\nlines"},
        {"name": "Bo", "strength": "7", "phone": "+44 20 7946 0958", "note": ""},
        {"name": "Cy", "strength": "2.5", "phone": "true", "note": ""}]
    assert [row.line for row in table.rows] == [2, 3, 5]  # rows as the spreadsheet counts
    assert table.problems == ()


@pytest.mark.parametrize("suffix", FORMS)
def test_a_formula_is_read_as_its_saved_value_never_evaluated(suffix):
    # The saved values disagree with the formulas on purpose: cardgen reads what the
    # spreadsheet saved, and computes nothing.
    rows = [["name", "strength", "title"],
            ["Ada", Cell(5, formula="2+2"), Cell("Boss", formula='"Pro"&"ducer"')]]
    table = _table(suffix, Sheet("Deck", rows))
    assert table.rows[0].values == {"name": "Ada", "strength": "5", "title": "Boss"}


@pytest.mark.parametrize("suffix", FORMS)
def test_a_formula_without_a_saved_value_and_an_error_are_problems_of_their_row(suffix):
    rows = [["name", "strength", "x"],
            ["Ada", Cell(None, formula="1+1"), 1],
            ["Bo", 4, 2],
            ["Cy", Cell("#DIV/0!", formula="1/0", kind="error"), 3]]
    table = _table(suffix, Sheet("Deck", rows))
    assert [row.values["name"] for row in table.rows] == ["Bo"]
    assert table.problems == (
        "sheet 'Deck', row 2, column B (strength): its formula has no saved value (the "
        "program that wrote the file did not calculate it); open the file in a spreadsheet "
        "program and save it again.",
        "sheet 'Deck', row 4, column B (strength): the cell shows the error '#DIV/0!'; "
        "correct its formula or type the value.")
    with pytest.raises(ConfigError, match=r"^t.*: sheet 'Deck', row 2, column B \(strength\)"):
        _table(suffix, Sheet("Deck", rows), partial=False)


@pytest.mark.parametrize("suffix", FORMS)
def test_the_first_visible_sheet_is_read_where_its_table_starts(suffix):
    hidden = Sheet("Old", [["nope"], ["x"]], hidden=True)
    sheet = Sheet("Team 2026", [["name", "title"], ["Ada", "CEO"]], first_row=3,
                  first_column=3)
    table = _table(suffix, hidden, sheet, Sheet("Later", [["other"]]))
    assert table.columns == ("name", "title")
    row = table.rows[0]
    assert (row.line, table.header_line) == (4, 3)
    assert row.at == "sheet 'Team 2026', row 4"
    assert row.cell("title") == "sheet 'Team 2026', row 4, column D (title)"
    assert table.heading("title") == "sheet 'Team 2026', row 3, column D"
    assert line_of(f"{row.cell('title')}: too long") == 4


def test_a_csv_row_says_where_it_is_as_before():
    row = CsvRow(3, {"a": "1"})
    assert (row.at, row.cell("a"), line_of("line 3, column a: x")) == (
        "line 3", "line 3, column a", 3)


def test_hidden_rows_are_read_like_the_others():
    parts = xlsx_parts([Sheet("S", [["name"], ["Ada"], ["Bo"]])])
    parts["xl/worksheets/sheet1.xml"] = parts["xl/worksheets/sheet1.xml"].replace(
        b'<row r="3">', b'<row r="3" hidden="1">')
    table = parse_sheet(zip_parts(parts), "xlsx", "t.xlsx")
    assert [row.values["name"] for row in table.rows] == ["Ada", "Bo"]


@pytest.mark.parametrize("suffix", FORMS)
def test_a_merged_area_gives_its_value_to_each_of_its_cells(suffix):
    rows = [["name", "company", "title"],
            ["Ada", Cell("Quillmoor", down=2), "CEO"],
            ["Bo", None, "Producer"],
            [Cell("Cy Ode", across=2), None, "Artist"]]
    table = _table(suffix, Sheet("P", rows))
    assert [(r.values["name"], r.values["company"]) for r in table.rows] == [
        ("Ada", "Quillmoor"), ("Bo", "Quillmoor"), ("Cy Ode", "Cy Ode")]


@pytest.mark.parametrize("suffix", FORMS)
@pytest.mark.parametrize(("rows", "message"), [
    ([["name", None, "title"], ["Ada", "x", "CEO"]],
     r"^t\.\w+: sheet 'S', row 1: column B of the header has no name, but row 2 has a "
     r"value in it; name every column that holds values\.$"),
    ([["name", "title"], ["Ada", "CEO", "extra"]], "column C of the header has no name"),
    ([["name", "name"], ["Ada", "Bo"]], r"row 1: the header names column 'name' twice\.$"),
    ([[None], [None]], r"^t\.\w+: sheet 'S' is empty; it needs a header row"),
    ([[f"c{i}" for i in range(101)]], r"row 1: the header has 101 columns; at most 100"),
    ([["name", Cell("#REF!", kind="error")]], r"row 1, column B: a header cell the cell "
                                                r"shows the error"),
])
def test_every_problem_of_a_header_names_the_sheet_and_the_row(suffix, rows, message):
    with pytest.raises(ConfigError, match=message):
        _table(suffix, Sheet("S", rows))


@pytest.mark.parametrize("suffix", FORMS)
def test_too_many_records_and_too_long_cells(suffix):
    with pytest.raises(ConfigError, match=r"sheet 'S', row 4: more than 2 records; split"):
        _table(suffix, Sheet("S", [["a"], [1], [2], [3]]), max_rows=2)
    table = _table(suffix, Sheet("S", [["a"], ["x" * 40_000], ["y"]]))
    assert [r.values["a"] for r in table.rows] == ["y"]
    assert table.problems == ("sheet 'S', row 2, column A (a): the cell holds 40,000 "
                              "characters; at most 32,767 are read.",)


# --- the commands: the same cards and decks as from CSV ------------------------------------

def _write_book(path: Path, rows: list[list[object]], name: str = "People") -> Path:
    path.write_bytes(workbook(path.suffix, Sheet(name, rows)))
    return path


@pytest.mark.parametrize("suffix", FORMS)
def test_a_batch_from_a_workbook_gives_the_cards_of_its_csv(tmp_path, suffix):
    table, config = _studio(tmp_path)
    book = _write_book(table.with_suffix(suffix), _csv_rows(PEOPLE))
    ok(cli("card", config, "--batch", table, "-o", tmp_path / "csv", "-f", "pdf,svg"))
    ok(cli("card", config, "--batch", book, "-o", tmp_path / "book", "-f", "pdf,svg"))
    ok(cli("sheet", config, "--batch", table, "-o", tmp_path / "csv", "--name", "sheets"))
    ok(cli("sheet", config, "--batch", book, "-o", tmp_path / "book", "--name", "sheets"))
    made = sorted(p.name for p in (tmp_path / "csv").iterdir())
    assert made == sorted(p.name for p in (tmp_path / "book").iterdir())
    assert "sheets.pdf" in made and "robin-vale-2-inside.svg" in made
    for name in made:
        assert (tmp_path / "csv" / name).read_bytes() == (tmp_path / "book" / name
                                                           ).read_bytes(), name


def _deck_rows() -> list[list[object]]:
    """The example deck with its Strengths as a column of numbers, as a spreadsheet user
    types them."""
    rows = _csv_rows(example_deck().read_text(encoding="utf-8"))
    return [[*rows[0], "strength"]] + [[*row, first_digit(row[3])] for row in rows[1:]]


@pytest.mark.parametrize("suffix", FORMS)
def test_a_deck_from_a_workbook_is_the_deck_of_its_csv(tmp_path, suffix):
    rows = _deck_rows()
    text = io.StringIO()
    csv.writer(text, lineterminator="\n").writerows(rows)
    (tmp_path / "deck.csv").write_text(text.getvalue(), encoding="utf-8")
    book = _write_book(tmp_path / f"deck{suffix}", rows, "Deck")
    from_csv = ok(cli("ladder", "deck", tmp_path / "deck.csv", "--json"))
    from_book = ok(cli("ladder", "deck", book, "--json"))
    assert json.loads(from_csv.stdout) == json.loads(from_book.stdout)
    assert ok(cli("ladder", "deck", tmp_path / "deck.csv")).stdout == ok(
        cli("ladder", "deck", book)).stdout


@pytest.mark.parametrize("suffix", FORMS)
def test_a_bad_deck_names_the_sheet_row_and_column(tmp_path, suffix):
    rows = _deck_rows()
    rows[3][-1] = 12  # row 4 of the sheet
    rows[6][0] = ""  # row 7: no name
    book = _write_book(tmp_path / f"deck{suffix}", rows, "Deck")
    error_line(cli("ladder", "deck", book), f"deck{suffix}: sheet 'Deck', row 4, column F "
               "(strength): must be one digit, 0 to 9, not '12'. Also: sheet 'Deck', row 7, "
               "column A (name): is empty")


@pytest.mark.parametrize("suffix", FORMS)
def test_a_bad_batch_row_names_the_sheet_and_row(tmp_path, suffix):
    table, config = _studio(tmp_path)
    rows = [["name", "card.marks", "bogus"], ["Ada", "maybe", ""]]
    book = _write_book(table.with_suffix(suffix), rows)
    error_line(cli("card", config, "--batch", book, "-o", tmp_path / "out"),
               f"people{suffix}: sheet 'People', row 1, column C: unknown column bogus")
    book = _write_book(table.with_suffix(suffix), [row[:2] for row in rows])
    error_line(cli("card", config, "--batch", book, "-o", tmp_path / "out"),
               f"people{suffix}: sheet 'People', row 2: card.marks must be true or false")
    assert not (tmp_path / "out").exists()


def test_a_spreadsheet_is_read_only_when_one_is_given():
    """The reader is imported when a spreadsheet is read, not for a CSV file (cold start,
    tests/test_cold_start.py)."""
    from tests.test_cold_start import _imported

    assert "python_calamine" not in _imported("ladder", "deck", str(example_deck()))


# --- hostile files -----------------------------------------------------------------------

def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))


def _run_capped(*args: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``cardgen ARGS`` in a process that may use at most MEMORY_CAP bytes: a reader that
    tried to allocate a sheet of a million columns would fail there, not fill the
    machine."""
    return subprocess.run([sys.executable, "-m", "cardgen", *map(str, args)],
                          capture_output=True, text=True, cwd=cwd, timeout=HANG_GUARD,
                          preexec_fn=_limited, env={**os.environ, "RUST_BACKTRACE": "0"})


def _lying_sizes() -> bytes:
    """A sheet whose directory entries claim 100 bytes while it unpacks to more: a reader
    that believed them could be fed more than it checked."""
    data = bytearray(xlsx(Sheet("S", [["name"], ["Ada"]])))
    name = b"xl/worksheets/sheet1.xml"
    with zipfile.ZipFile(io.BytesIO(bytes(data))) as archive:
        local = archive.getinfo(name.decode()).header_offset
    data[local + 22:local + 26] = (100).to_bytes(4, "little")
    at = data.index(b"PK\x01\x02")
    while at >= 0:
        size = int.from_bytes(data[at + 28:at + 30], "little")
        if data[at + 46:at + 46 + size] == name:
            data[at + 24:at + 28] = (100).to_bytes(4, "little")
        at = data.find(b"PK\x01\x02", at + 4)
    return bytes(data)


def _sparse_xlsx() -> bytes:
    """Two values, in A1 and XFD1048576: a reader that keeps the rectangle between them
    would ask for 17 billion cells."""
    parts = xlsx_parts([Sheet("S", [["name"]])])
    parts["xl/worksheets/sheet1.xml"] = parts["xl/worksheets/sheet1.xml"].replace(
        b"</sheetData>", b'<row r="1048576"><c r="XFD1048576"><v>1</v></c></row></sheetData>')
    return zip_parts(parts)


def _encrypted_ods() -> bytes:
    parts = ods_parts([Sheet("S", [["a"]])])
    parts["META-INF/manifest.xml"] = parts["META-INF/manifest.xml"].replace(
        b'manifest:media-type="text/xml"/>',
        b'manifest:media-type="text/xml"><manifest:encryption-data manifest:checksum-type='
        b'"SHA1/1K" manifest:checksum="x"/></manifest:file-entry>')
    return zip_parts(parts)


def _entities() -> bytes:
    parts = xlsx_parts([Sheet("S", [["a"]])])
    parts["xl/worksheets/sheet1.xml"] = parts["xl/worksheets/sheet1.xml"].replace(
        b"<worksheet", b'<!DOCTYPE w [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]>'
                       b"<worksheet", 1)
    return zip_parts(parts)


HOSTILE = {
    "a zip bomb": (".xlsx", bomb, "its parts unpack to 64,0"),
    "a CSV file named .xlsx": (".xlsx", lambda: b"name,title\nAda,CEO\n",
                               "not an Excel workbook (.xlsx): it is not a zip archive, as "
                               "every .xlsx and .ods file is; it looks like text (a CSV "
                               "file? give it the .csv extension)."),
    "an encrypted workbook": (".xlsx", encrypted_ooxml, "protected by a password"),
    "an encrypted .ods": (".ods", _encrypted_ods, "protected by a password"),
    "a truncated workbook": (".xlsx", lambda: xlsx(Sheet("S", [["a"], ["b"]]))[:-200],
                             "its zip archive is damaged or cut short"),
    "an .ods named .xlsx": (".xlsx", lambda: ods(Sheet("S", [["a"]])),
                            "it is an OpenDocument spreadsheet (.ods); give it the .ods "
                            "extension."),
    "an .ods of 10^6 columns": (".ods", wide_ods, "sheet 'S': its values spread over rows "
                                "1 to 1,000 and columns A to"),
    "an .xlsx spread to XFD1048576": (".xlsx", _sparse_xlsx, "columns A to XFD"),
    "entities in a sheet": (".xlsx", _entities, "not well-formed XML"),
    "an old .xls": (".xlsx", lambda: b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(2000),
                    "an older Office file"),
    "sizes that lie": (".xlsx", _lying_sizes, "its zip archive is damaged"),
    "a zip with no workbook": (".ods", lambda: zip_parts({"a.txt": b"hello"}),
                               "a zip archive with no workbook in it"),
}


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_a_hostile_workbook_is_one_line_and_exit_1(tmp_path, case):
    suffix, make, needle = HOSTILE[case]
    (tmp_path / f"deck{suffix}").write_bytes(make())
    done = _run_capped("ladder", "deck", f"deck{suffix}", cwd=tmp_path)
    error_line(done, f"error: deck{suffix}: ", needle)


@pytest.mark.parametrize(("data", "message"), [
    (xlsx(Sheet("S", [["a"]])), r"^p\.csv: not CSV text but a zip archive, as a workbook is"),
    (encrypted_ooxml(), r"^p\.csv: not CSV text but an older Office file"),
    ("name\nZoë\n".encode("latin-1"), r"^p\.csv: line 2: not UTF-8 text"),
])
def test_a_workbook_named_csv_is_said_to_be_one(tmp_path, data, message):
    (tmp_path / "p.csv").write_bytes(data)
    with pytest.raises(ConfigError, match=message):
        read_table(tmp_path / "p.csv", "people file", "p.csv")


def test_a_zip_bomb_is_refused_by_its_declared_sizes_before_it_is_unpacked(tmp_path):
    data = bomb()
    assert len(data) < MAX_UNPACKED // 100
    with pytest.raises(ConfigError, match=r"far more than any table cardgen reads"):
        parse_sheet(data, "xlsx", "b.xlsx")


def test_a_pipe_named_like_a_workbook_is_refused_unread(tmp_path):
    os.mkfifo(tmp_path / "p.xlsx")
    with pytest.raises(ConfigError, match="is not a regular file"):
        read_table(tmp_path / "p.xlsx", "people file")


def test_the_limits_leave_room_for_the_largest_table():
    assert MAX_SHEET_CELLS >= 5001 * 100  # 5,000 records of 100 columns, and the header


def _mutations(seed: bytes) -> st.SearchStrategy[bytes]:
    """``seed`` with a few bytes changed, cut short or with bytes inserted."""
    def mutate(data: bytes, edits: list[tuple[int, int, int]]) -> bytes:
        out = bytearray(data)
        for kind, at, value in edits:
            at %= max(len(out), 1)
            if kind == 0 and out:
                out[at] = value
            elif kind == 1:
                del out[at:]
            else:
                out[at:at] = bytes([value])
        return bytes(out)

    return st.lists(st.tuples(st.integers(0, 2), st.integers(0, 1 << 20), st.integers(0, 255)),
                    min_size=1, max_size=4).map(lambda edits: mutate(seed, edits))


_SEED_ROWS = [["name", "strength", "title"], ["Ada", 3, Cell(5, formula="2+2")],
              [Cell("Bo", across=2), None, Cell("#N/A", kind="error")]]
_XLSX = xlsx_parts([Sheet("S", _SEED_ROWS)])
_ODS = ods_content([Sheet("S", _SEED_ROWS)])


def _one_sentence_or_a_table(data: bytes, form: str) -> None:
    try:
        table = parse_sheet(data, form, f"f.{form}", partial=True)
    except ConfigError as exc:
        assert "\n" not in str(exc) and str(exc).startswith(f"f.{form}: "), str(exc)
    else:
        assert all(set(row.values) == set(table.columns) for row in table.rows)


@FUZZ
@given(_mutations(zip_parts(_XLSX)))
@example(zip_parts(_XLSX))
def test_fuzzed_xlsx_bytes_give_a_table_or_one_sentence(data):
    _one_sentence_or_a_table(data, "xlsx")


@FUZZ
@given(_mutations(_XLSX["xl/worksheets/sheet1.xml"]))
def test_fuzzed_xlsx_sheets_give_a_table_or_one_sentence(sheet):
    _one_sentence_or_a_table(zip_parts({**_XLSX, "xl/worksheets/sheet1.xml": sheet}), "xlsx")


@FUZZ
@given(_mutations(_ODS))
@example(_ODS)
def test_fuzzed_ods_content_gives_a_table_or_one_sentence(content):
    _one_sentence_or_a_table(zip_parts(ods_parts([], content)), "ods")


@FUZZ
@given(_mutations(zip_parts(ods_parts([], _ODS))))
def test_fuzzed_ods_bytes_give_a_table_or_one_sentence(data):
    _one_sentence_or_a_table(data, "ods")


def test_the_test_workbooks_are_what_a_spreadsheet_program_reads():
    """The fixtures' XML is well-formed and their archives complete (they are written
    here, never kept as binary files)."""
    for data in (xlsx(Sheet("S", _SEED_ROWS)), ods(Sheet("S", _SEED_ROWS))):
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            assert archive.testzip() is None
    assert not list((ROOT / "tests").rglob("*.xlsx")) and not list(
        (ROOT / "tests").rglob("*.ods"))
