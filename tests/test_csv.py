"""The CSV reader every table of people and cards goes through (cardgen.datafile)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardgen.datafile import MAX_BYTES, CsvRow, parse_csv, read_csv
from cardgen.errors import ConfigError
from tests.helpers import examples


def test_header_records_and_lines_as_an_editor_counts():
    table = parse_csv('a,b\n\n1,"two\nlines"\n3\n , \n4,5\n', "t.csv")
    assert table.columns == ("a", "b")
    assert table.rows == (CsvRow(3, {"a": "1", "b": "two\nlines"}),
                          CsvRow(5, {"a": "3", "b": ""}),  # a short record is padded
                          CsvRow(7, {"a": "4", "b": "5"}))  # blank records are skipped


@pytest.mark.parametrize("text", ["a;b\n1;2,5\n", "a\tb\n1\t2,5\n", "a,b\n1,\"2,5\"\n"])
def test_the_delimiter_is_the_one_the_header_holds_most_of(text):
    assert parse_csv(text, "t").rows[0].values == {"a": "1", "b": "2,5"}


def test_header_names_are_stripped_and_a_bom_is_accepted(tmp_path):
    path = tmp_path / "p.csv"
    path.write_bytes("\ufeff name , title\nAda,Writer\r\n".encode())
    assert read_csv(path, "people file").rows[0].values == {"name": "Ada", "title": "Writer"}


@pytest.mark.parametrize("text, message", [
    ("", r"^t\.csv: the file is empty; it needs a header row"),
    ("\n,,\n", "the file is empty"),
    ("a,,b\n", r"line 1: column 2 of the header has no name"),
    ("a,b,a\n", r"line 1: the header names column 'a' twice\."),
    ("a,b\n1,2\n1,2,3\n", r"line 3: 3 values, but the header has 2 columns; quote a value "
                          r"that holds a comma\.$"),
    ("a;b\n1;2;3\n", "holds a semicolon"),
    ('a,b\n"1,2\n', r"line 2: not valid CSV \(unexpected end of data\)\.$"),
    ('a,b\n"1"x,2\n', r"line 2: not valid CSV"),
    ("," * 20 + "x\n", r"line 1: column 1 of the header has no name"),
    (",".join(f"c{i}" for i in range(101)) + "\n", "the header has 101 columns; at most 100"),
])
def test_every_way_the_text_can_be_wrong_is_one_sentence_naming_the_line(text, message):
    with pytest.raises(ConfigError, match=message):
        parse_csv(text, "t.csv")


def test_too_many_records():
    with pytest.raises(ConfigError, match=r"line 4: more than 2 records; split the file\."):
        parse_csv("a\n1\n2\n3\n", "t", max_rows=2)


def test_files_that_cannot_be_read(tmp_path):
    with pytest.raises(ConfigError, match=r"^people file .*nope\.csv does not exist\.$"):
        read_csv(tmp_path / "nope.csv", "people file")
    with pytest.raises(ConfigError, match=r"is a folder, not a CSV file\.$"):
        read_csv(tmp_path, "people file")
    latin = tmp_path / "latin.csv"
    latin.write_bytes("name\nAda\nZoë\n".encode("latin-1"))
    with pytest.raises(ConfigError, match=r"latin\.csv: line 3: not UTF-8 text; save the "
                                          r"file as CSV UTF-8\.$"):
        read_csv(latin, "people file")
    huge = tmp_path / "huge.csv"
    huge.write_bytes(b"a\n" + b"x\n" * (MAX_BYTES // 2))
    with pytest.raises(ConfigError, match="far larger than any people file"):
        read_csv(huge, "people file")


@settings(max_examples=examples(200), deadline=None)
@given(st.text(alphabet=st.sampled_from('ab,;\t"\n\r \x00é'), max_size=80))
def test_fuzz_gives_a_table_or_one_sentence(text):
    try:
        table = parse_csv(text, "f.csv")
    except ConfigError as exc:
        assert "\n" not in str(exc) and str(exc).startswith("f.csv: ")
    else:
        assert all(set(row.values) == set(table.columns) for row in table.rows)
        assert [r.line for r in table.rows] == sorted(r.line for r in table.rows)
