"""The one TOML reader (cardgen.datafile) and the reusable schema (cardgen.schema):
every way a data file can be wrong gets one sentence, and every problem is reported."""

from __future__ import annotations

import enum

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardgen.datafile import MAX_BYTES, read_toml
from cardgen.errors import CardgenError, ConfigError
from cardgen.schema import (
    Choice,
    Custom,
    Flag,
    ListOf,
    Number,
    Problem,
    Table,
    Text,
    check,
    closest,
    describe,
)
from tests.helpers import examples


class Size(enum.StrEnum):
    SMALL = "small"
    LARGE = "large"


def hex_number(value: object) -> int:
    if not isinstance(value, str):
        raise ValueError(f"not hex: {value!r}")
    return int(value, 16)


SCHEMA = Table({
    "card": Table({
        "size": Choice(Size, "the size", default=Size.SMALL),
        "width": Number("mm", default=None, low=10, high=100),
        "marks": Flag("marks", default=True),
        "count": Number("how many", default=1, low=1, high=9, integer=True),
    }),
    "person": Table({
        "name": Text("your name", nonempty=True, missing="is required (the name printed)."),
        "title": Text("title", default=""),
    }),
    "art": Table({
        "colours": ListOf(Custom(hex_number, "hex text"), "colours", default=[],
                          min_items=1),
    }),
})


# --- datafile -----------------------------------------------------------------------------

def test_read_toml_every_way_a_file_can_fail(tmp_path):
    with pytest.raises(ConfigError, match=r"^config file .*nope\.toml does not exist\.$"):
        read_toml(tmp_path / "nope.toml", "config file")
    with pytest.raises(ConfigError, match=r"is a folder, not a TOML file\.$"):
        read_toml(tmp_path, "config file")
    latin = tmp_path / "latin.toml"
    latin.write_bytes('name = "Zoë"'.encode("latin-1"))
    with pytest.raises(ConfigError, match=r"latin\.toml: not a text file \(expected UTF-8"):
        read_toml(latin, "config file")
    broken = tmp_path / "broken.toml"
    broken.write_text('a = 1\nb = "unterminated\n', encoding="utf-8")
    with pytest.raises(ConfigError, match=r"broken\.toml: invalid TOML: .*line 2"):
        read_toml(broken, "config file")
    huge = tmp_path / "huge.toml"
    huge.write_bytes(b"#" * (MAX_BYTES + 1))
    with pytest.raises(ConfigError, match="far larger than any config file"):
        read_toml(huge, "config file")
    good = tmp_path / "good.toml"
    good.write_text("[t]\na = 1\n", encoding="utf-8")
    assert read_toml(good, "config file") == {"t": {"a": 1}}


def test_read_toml_labels_the_content_sentences(tmp_path):
    broken = tmp_path / "t.toml"
    broken.write_text("x = ", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"^theme T: invalid TOML"):
        read_toml(broken, "theme file", "theme T")


@settings(max_examples=examples(150), deadline=None)
@given(st.binary(max_size=300))
def test_read_toml_fuzz_gives_data_or_one_config_error(tmp_path_factory, raw):
    path = tmp_path_factory.mktemp("fuzz") / "f.toml"
    path.write_bytes(raw)
    try:
        data = read_toml(path, "config file")
    except ConfigError as exc:
        assert "\n" not in str(exc) and str(exc).startswith(str(path))
    else:
        assert isinstance(data, dict)


# --- schema -------------------------------------------------------------------------------

def test_defaults_are_filled_in_and_values_converted():
    values = check(SCHEMA, {"person": {"name": "  Ada  "}, "card": {"size": "large",
                                                                    "count": 3}}, "f")
    assert values["card"] == {"size": Size.LARGE, "width": None, "marks": True, "count": 3}
    assert isinstance(values["card"]["count"], int)
    assert values["person"] == {"name": "Ada", "title": ""}
    assert values["art"] == {"colours": []}
    assert check(SCHEMA, {"person": {"name": "A"}, "card": {"width": 50}}, "f")[
        "card"]["width"] == 50.0


def test_every_problem_is_reported_in_order_then_the_missing_ones():
    data = {"card": {"size": "huge", "widht": 3, "marks": "yes", "count": 2.5},
            "persn": {}, "art": {"colours": ["ff", 3]}}
    with pytest.raises(ConfigError) as info:
        check(SCHEMA, data, "my.toml")
    assert info.value.problems == (
        "card.size must be one of small, large, not 'huge'.",
        "unknown key card.widht; did you mean card.width?",
        "card.marks must be true or false, not text ('yes').",
        "card.count must be a whole number, not a number (2.5).",
        "unknown section [persn]; did you mean [person]?",
        "art.colours item 2 not hex: 3.",
        "person.name is required (the name printed).",
    )
    message = str(info.value)
    assert message.startswith("my.toml: card.size must be one of small, large, not 'huge'. "
                              "Also: unknown key card.widht")
    assert "\n" not in message


def test_unknown_names_without_a_close_match_list_the_valid_ones():
    with pytest.raises(ConfigError, match=r"unknown section \[zzz\]; valid: \[card\], "
                                          r"\[person\], \[art\]\."):
        check(SCHEMA, {"zzz": {}, "person": {"name": "A"}}, "f")
    with pytest.raises(ConfigError, match=r"unknown key card\.qqq; valid: card\.size, "):
        check(SCHEMA, {"card": {"qqq": 1}, "person": {"name": "A"}}, "f")
    flat = Table({"nodes": ListOf(Text(), "cells")})
    with pytest.raises(ConfigError, match=r"unknown key node; did you mean nodes\?"):
        check(flat, {"node": [], "nodes": []}, "f")


def test_ranges_tables_lists_and_empty_text():
    with pytest.raises(ConfigError, match=r"card\.width must be a number from 10 to 100, "
                                          r"not 500\."):
        check(SCHEMA, {"card": {"width": 500}, "person": {"name": "A"}}, "f")
    with pytest.raises(ConfigError, match=r"card must be a \[card\] table of keys\."):
        check(SCHEMA, {"card": 3, "person": {"name": "A"}}, "f")
    with pytest.raises(ConfigError, match=r"art\.colours needs at least 1 item, not 0\."):
        check(SCHEMA, {"art": {"colours": []}, "person": {"name": "A"}}, "f")
    with pytest.raises(ConfigError, match=r"person\.name is required \(the name printed\)\."):
        check(SCHEMA, {"person": {"name": "   "}}, "f")
    required = Table({"inner": Table({"a": Flag()}, optional=False)})
    with pytest.raises(ConfigError, match=r"missing the \[inner\] table\.") as info:
        check(required, {}, "f")
    assert len(info.value.problems) == 1


def test_a_choice_suggests_the_closest_value_and_may_take_true_and_false():
    """Flags that stand for a member are old spellings and go unmentioned; one that
    stands for anything else (false for none) is listed with the choices."""
    size = Choice(Size, "the size")
    assert size.convert("small") is Size.SMALL
    with pytest.raises(Problem, match=r"^must be one of small, large, not 'smal'; did you "
                                      r"mean small\?$"):
        size.convert("smal")
    with pytest.raises(Problem, match=r"^must be one of small, large, not 'LARGE'; did you "
                                      r"mean large\?$"):
        size.convert("LARGE")
    with pytest.raises(Problem, match=r"^must be text in quotes, not a boolean \(true\)\.$"):
        size.convert(True)
    flagged = Choice(Size, "the size", flags={True: Size.LARGE, False: None})
    assert flagged.convert(True) is Size.LARGE and flagged.convert(False) is None
    assert flagged.convert("small") is Size.SMALL
    with pytest.raises(Problem, match=r"^must be one of small, large or false, not 'huge'\.$"):
        flagged.convert("huge")
    with pytest.raises(Problem, match=r'^must be "small", "large" or false, not a number '
                                      r"\(2\)\.$"):
        flagged.convert(2)
    with pytest.raises(Problem, match=r"not 'xxxxxxxx.*…' \(500 characters\)\.$"):  # no match
        flagged.convert("x" * 500)

def test_booleans_are_not_numbers_and_describe_says_what_was_given():
    with pytest.raises(ConfigError, match=r"card\.width must be a number, not a boolean "
                                          r"\(true\)\.$"):
        check(SCHEMA, {"card": {"width": True}, "person": {"name": "A"}}, "f")
    assert describe(True) == "a boolean (true)"
    assert describe(2) == "a number (2)"
    assert describe("x") == "text ('x')"
    assert describe([1]) == "a list" and describe({}) == "a table"
    assert closest("nmae", ["name", "title"], ["person.name", "person.title"]) == (
        "; did you mean person.name?")


def test_config_errors_are_value_errors_that_carry_every_problem():
    with pytest.raises(ValueError) as info:
        check(SCHEMA, {"card": {"size": 1}}, "f")
    assert isinstance(info.value, CardgenError)
    assert len(info.value.problems) == 2  # the wrong type, and the missing name
