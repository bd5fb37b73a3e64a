"""The JSON Schemas of the input files (``cardgen schema``, ``cardgen.api.schemas``): each is
a valid draft 2020-12 schema, the same bytes in any process; every file cardgen ships (and
the guide's examples) passes its schema; broken files, made from the schema code itself,
are refused by the schema and by cardgen alike; and each field's JSON Schema accepts what
the field's own converter accepts, on values drawn by Hypothesis."""

from __future__ import annotations

import json
import math
import os
import re
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from jsonschema import Draft7Validator, Draft202012Validator

import cardgen
from cardgen.api.schemas import LIMITS, SchemaName, csv_rows, json_schema, schema_files
from cardgen.cli import helptext
from cardgen.errors import CardgenError, ParameterError, ProblemsError
from cardgen.schema import (
    Custom,
    Field,
    ListOf,
    Number,
    Problem,
    Records,
    Table,
    Text,
    needed,
)
from tests import tomlwrite
from tests.helpers import ROOT, cli, error_line, examples, ok

TEMPLATES = ROOT / "templates"
FUZZ = settings(max_examples=examples(200), deadline=None, derandomize=True)


def validator(name: str) -> Draft202012Validator:
    return Draft202012Validator(json_schema(name))


def schema_problems(name: str, data: Any) -> list[str]:
    """What the schema says of ``data`` (nothing: valid). A validator of draft 7, as
    Taplo's is (it does not know draft 2020-12), says the same."""
    problems = [error.message for error in validator(name).iter_errors(data)]
    assert Draft7Validator(json_schema(name)).is_valid(data) == (not problems)
    return problems


# --- the schemas themselves --------------------------------------------------------------

@pytest.mark.parametrize("name", [n.value for n in SchemaName])
def test_each_schema_is_a_valid_draft_2020_12_schema_with_a_versioned_id(name):
    schema = json_schema(name)
    Draft202012Validator.check_schema(schema)
    Draft7Validator.check_schema(schema)  # (what Taplo's validator reads)
    assert not list(_beside_ref(schema))  # (draft 7 ignores a keyword beside a $ref)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["$id"] == f"https://cardgen.invalid/schema/{name}/1.json"
    assert schema["$comment"].startswith(f"Made by cardgen {cardgen.__version__}. ")
    for limit in LIMITS[SchemaName(name)]:  # what cardgen checks beyond it, said
        assert limit in schema["$comment"]


def test_the_names_are_the_commands_choices():
    assert cardgen.schema_names() == ("card", "theme", "assembly", "attack", "deck", "people")
    assert helptext.ARGUMENT_CHOICES["schema"] == cardgen.schema_names()


def test_the_same_bytes_in_process_in_another_process_and_on_stdout(tmp_path):
    """Printed as UTF-8 whatever the terminal's encoding (here ASCII), keys sorted."""
    for name in cardgen.schema_names():
        text = cardgen.schema_text(name)
        assert text == cardgen.schema_text(name)
        assert text == json.dumps(json.loads(text), sort_keys=True, indent=2,
                                  ensure_ascii=False) + "\n"
    code = ("import cardgen, sys; sys.stdout.buffer.write(''.join(cardgen.schema_text(n) "
            "for n in cardgen.schema_names()).encode())")
    other = subprocess.run([sys.executable, "-c", code], capture_output=True, check=True,
                           cwd=tmp_path).stdout
    assert other == "".join(cardgen.schema_text(n) for n in cardgen.schema_names()).encode()
    env = dict(os.environ, PYTHONIOENCODING="ascii", LC_ALL="C")
    printed = subprocess.run([sys.executable, "-m", "cardgen", "schema", "card"],
                             capture_output=True, check=True, cwd=tmp_path, env=env).stdout
    assert printed == cardgen.schema_text("card").encode("utf-8")
    assert "×".encode() in printed  # (its descriptions are not ASCII)


def test_the_guide_lists_what_each_schema_cannot_say():
    """docs/schemas.md names every rule of each schema's $comment (backticks aside)."""
    page = (ROOT / "docs" / "schemas.md").read_text(encoding="utf-8")
    prose = " ".join(page.replace("`", "").split())
    for name, limits in LIMITS.items():
        for limit in limits:
            assert limit in prose, (name, limit)


def _beside_ref(schema: Any) -> Iterator[Any]:
    """Every part of a schema that has keywords beside its ``$ref``."""
    if isinstance(schema, dict):
        if "$ref" in schema and len(schema) > 1:
            yield schema
        for value in schema.values():
            yield from _beside_ref(value)
    elif isinstance(schema, list):
        for item in schema:
            yield from _beside_ref(item)


# --- the command -------------------------------------------------------------------------

def test_schema_prints_writes_and_answers_json(tmp_path):
    assert ok(cli("schema", "theme", cwd=tmp_path)).stdout == cardgen.schema_text("theme")
    assert ok(cli("schema", " ATTACK ", cwd=tmp_path)).stdout == cardgen.schema_text("attack")
    assert not any(tmp_path.iterdir())  # printing writes nothing
    result = ok(cli("schema", "card", "-o", "s", cwd=tmp_path))
    assert result.stdout == "wrote s/card.schema.json\n"
    written = (tmp_path / "s" / "card.schema.json").read_bytes()
    assert written == cardgen.schema_text("card").encode() == schema_files("card")[
        "card.schema.json"]
    ok(cli("schema", "deck", "--name", "my-deck", cwd=tmp_path))
    assert (tmp_path / "output" / "my-deck.json").read_text() == cardgen.schema_text("deck")
    data = json.loads(ok(cli("schema", "people", "--json", cwd=tmp_path)).stdout)
    assert data == {"name": "people", "id": "https://cardgen.invalid/schema/people/1.json",
                    "schema": json_schema("people")}
    data = json.loads(ok(cli("schema", "card", "-o", "s", "--json", cwd=tmp_path)).stdout)
    assert data["files"] == [{"path": "s/card.schema.json", "replaced": True}]


def test_an_unknown_kind_is_a_usage_error_naming_the_choices(tmp_path):
    line = error_line(cli("schema", "crad", cwd=tmp_path), status=2)
    assert line == ("error: KIND must be one of card, theme, assembly, attack, deck or "
                    "people, not 'crad'.")
    data = json.loads(cli("schema", "crad", "--json").stdout)
    assert data["error"]["code"] == "usage" and data["error"]["field"] == "KIND"
    error_line(cli("schema", "card", "--name", "../x", cwd=tmp_path), "--name", status=1)
    assert not any(tmp_path.iterdir())


def test_the_library_refuses_an_unknown_kind_naming_its_parameter():
    for call in (lambda: json_schema("crad"), lambda: schema_files("crad"),
                 lambda: csv_rows("a\n1\n", "card")):
        with pytest.raises(ParameterError) as caught:
            call()
        assert caught.value.parameter == "name"
    with pytest.raises(ParameterError, match="stem"):
        schema_files("card", stem="a/b")
    assert list(schema_files(SchemaName.THEME, stem="t")) == ["t.json"]
    assert json_schema("card") is not json_schema("card")  # a new dict each call


def test_schema_imports_no_heavy_library():
    from tests.test_cold_start import HEAVY, _imported, _tops

    modules = _imported("schema", "people")
    assert not _tops(modules) & (HEAVY | {"rich"})


# --- every shipped file and example passes ---------------------------------------------

def _toml(path: Path) -> dict[str, Any]:
    return tomllib.loads(path.read_text(encoding="utf-8"))


def _docs_csv() -> list[str]:
    """The CSV examples of the guide."""
    blocks = []
    for page in sorted((ROOT / "docs").glob("*.md")):
        blocks += re.findall(r"```csv\n(.*?)```", page.read_text(encoding="utf-8"), re.S)
    assert blocks
    return blocks


SHIPPED = [
    ("card", TEMPLATES / "example.toml"),
    *(("theme", p) for p in sorted((TEMPLATES / "themes").glob("*.toml"))),
    *(("assembly", p) for p in sorted((TEMPLATES / "connector").glob("*.toml"))
      if p.name != "layout.toml"),
    ("attack", TEMPLATES / "ladder" / "example-attack.toml"),
    ("deck", TEMPLATES / "ladder" / "example-deck.csv"),
]


@pytest.mark.parametrize(("name", "path"), SHIPPED,
                         ids=[p.relative_to(ROOT).as_posix() for _, p in SHIPPED])
def test_every_shipped_file_passes_its_schema(name, path):
    data = csv_rows(path, name) if path.suffix == ".csv" else _toml(path)
    assert schema_problems(name, data) == []


def test_the_guides_people_files_pass_their_schema_and_cardgen(tmp_path):
    """The guide's examples, and the people file and shared config of the benchmark."""
    from benchmarks.bench_team import write_studio
    from cardgen.card.batch import load_people

    people, studio = write_studio(tmp_path, 12)
    assert schema_problems("people", csv_rows(people, "people")) == []
    assert len(load_people(people, studio)) == 12
    # The shared config leaves the name to the rows: the one thing the card schema says.
    problems = schema_problems("card", _toml(studio))
    assert len(problems) == 1 and "'name' is a required property" in problems[0]
    for i, text in enumerate(_docs_csv()):
        assert schema_problems("people", csv_rows(text, "people")) == [], text
        path = tmp_path / f"people-{i}.csv"
        path.write_text(text, encoding="utf-8")
        assert load_people(path, None)


def test_a_schema_directive_at_the_top_of_a_config_is_a_comment_to_cardgen(tmp_path):
    """The line Taplo reads (docs/schemas.md) changes nothing for cardgen."""
    from cardgen.card.config import load_config

    text = (TEMPLATES / "example.toml").read_text(encoding="utf-8")
    path = tmp_path / "me.toml"
    path.write_text("#:schema ./card.schema.json\n" + text, encoding="utf-8")
    assert load_config(path).person == load_config(TEMPLATES / "example.toml").person


def test_csv_rows_fold_the_names_cardgen_reads_in_any_case():
    assert csv_rows("Name;TITLE;Company;Person.Name\nAda;CEO;;x\n", "deck") == [
        {"name": "Ada", "title": "CEO", "company": "", "person.name": "x"}]
    assert csv_rows("NAME,Person.Title\nAda,CEO\n", "people") == [
        {"name": "Ada", "Person.Title": "CEO"}]  # a dotted column is read as written
    assert schema_problems("people", [{"name": "Ada", "Person.Title": "CEO"}])


# --- broken files: refused by both -------------------------------------------------------

def _read_by_cardgen(name: str, path: Path) -> None:
    """cardgen reads the file as its command does (raises what it says)."""
    if name == "card":
        from cardgen.card.config import load_config

        load_config(path)
    elif name == "theme":
        from cardgen.card.themes import load_theme

        load_theme(str(path))
    elif name == "assembly":
        from cardgen.connector.assembly import read_assembly

        read_assembly(path)
    elif name == "attack":
        from cardgen.ladder.attack import read_attack

        read_attack(path)
    elif name == "deck":
        from cardgen.ladder.deck import read_deck

        read_deck(path)
    else:
        from cardgen.card.batch import load_people

        load_people(path, None)


def _refused_by_both(tmp_path: Path, name: str, data: Any, needle: str) -> None:
    """``data`` written as the file cardgen reads: the schema refuses it, and so does
    cardgen, with a problem of the file's (naming ``needle``)."""
    if name in ("deck", "people"):
        columns = list(dict.fromkeys(k for row in data for k in row))
        path = tmp_path / f"{name}.csv"
        lines = [",".join(columns)] + [",".join(_cell(row.get(c, "")) for c in columns)
                                        for row in data]
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        read_back = csv_rows(path, name)
    else:
        path = tmp_path / f"{name}.toml"
        path.write_text(tomlwrite.dumps(data), encoding="utf-8")
        read_back = tomllib.loads(path.read_text(encoding="utf-8"))
    assert schema_problems(name, read_back), (name, data)
    with pytest.raises(CardgenError) as caught:
        _read_by_cardgen(name, path)
    assert isinstance(caught.value, ProblemsError), caught.value
    assert needle in str(caught.value), (needle, str(caught.value))


def _cell(text: str) -> str:
    return '"' + text.replace('"', '""') + '"' if set(text) & set(',"\n\r') else text


def _valid(name: str) -> Any:
    """A valid file of each kind, as data."""
    if name == "deck":
        return csv_rows(TEMPLATES / "ladder" / "example-deck.csv", "deck")
    if name == "people":
        return csv_rows(_docs_csv()[0], "people")
    return _toml(dict(SHIPPED)[name] if name != "theme" else TEMPLATES / "themes" / "dark.toml")


def _bad_values(field: Field) -> Iterator[tuple[Any, str]]:
    """Values ``field`` refuses, from what the schema code says of it: a wrong type, a
    number out of range, a choice not among the choices, text too long or with a control
    character, too few items."""
    if isinstance(field, Number):
        yield "12", "must be"
        if field.low is not None:
            yield field.low - 1, "must be"
        if field.high is not None:
            yield field.high + 1, "must be"
        if field.integer:
            yield (field.low or 0) + 0.5, "must be"
    elif isinstance(field, Text):
        yield 7, "must be"
        if field.printed:
            yield "Ada\x07Lee", "control character"
        if field.nonempty:
            yield "  ", ""
        if field.max_length is not None:
            yield "x" * (field.max_length + 1), "characters long"
    elif isinstance(field, ListOf):
        yield "text", "must be"
        if field.min_items:
            yield [], "at least"
    elif isinstance(field, Custom):
        yield {"zz": 1}, ""
    elif getattr(field, "choices", None) is not None:
        yield "not-a-choice", "must be one of"
        yield 3, "must be"
    else:  # a flag
        yield "true", "must be"


def _mutations(table: Table, data: dict[str, Any], path: tuple[Any, ...] = ()
               ) -> Iterator[tuple[tuple[Any, ...], Any, str]]:
    """Every broken version of ``data`` the schema code ``table`` gives: (where, the
    new value or ``DELETE``, what cardgen's message holds), for each key the data has and
    each key it must have."""
    yield (*path, "zz_unknown"), 1, "unknown"
    for key, field in table.fields.items():
        where = (*path, key)
        if key not in data:
            continue
        if needed(field) and where != ("front_portrait",):  # (a theme may have none)
            yield where, DELETE, key
        if isinstance(field, Table):
            yield where, 5, key
            yield from _mutations(field, data[key], where)
        elif isinstance(field, Records):
            if isinstance(data[key], list):
                yield where, [], key
                yield where, [data[key][0]] * (field.max_items + 1), key
                yield from _mutations(field.table, data[key][0], (*where, 0))
            else:  # the attack's one [defender]
                yield from _mutations(field.table, data[key], where)
        else:
            for value, needle in _bad_values(field):
                yield where, value, needle or key


DELETE = object()


def _applied(data: Any, where: tuple[Any, ...], value: Any) -> Any:
    data = json.loads(json.dumps(data))
    target = data
    for step in where[:-1]:
        target = target[step]
    if value is DELETE:
        del target[where[-1]]
    else:
        target[where[-1]] = value
    return data


def _toml_cases() -> list[tuple[str, tuple[Any, ...], Any, str]]:
    from cardgen.card.config import CONFIG
    from cardgen.card.themes import THEME
    from cardgen.connector.assembly import ASSEMBLY
    from cardgen.ladder.attack import attack_schemas

    tables = {"card": CONFIG, "theme": THEME, "assembly": ASSEMBLY,
              "attack": attack_schemas()[0]}
    return [(name, where, value, needle) for name, table in tables.items()
            for where, value, needle in _mutations(table, _valid(name))]


TOML_CASES = _toml_cases()


def test_the_broken_files_cover_every_kind_of_problem():
    assert len(TOML_CASES) > 150
    needles = {needle for *_, needle in TOML_CASES}
    assert {"unknown", "must be", "must be one of", "control character", "characters long",
            "at least"} <= needles


@pytest.mark.parametrize(("name", "where", "value", "needle"), TOML_CASES,
                         ids=[f"{n}:{'.'.join(map(str, w))}={str(v)[:12]!r}"
                              for n, w, v, _ in TOML_CASES])
def test_a_broken_toml_file_is_refused_by_its_schema_and_by_cardgen(tmp_path, name, where,
                                                                    value, needle):
    _refused_by_both(tmp_path, name, _applied(_valid(name), where, value), needle)


def _csv_cases() -> list[tuple[str, str, list[dict[str, str]], str]]:
    deck, people = _valid("deck"), _valid("people")

    def edit(rows: list[dict[str, str]], row: int, **cells: str) -> list[dict[str, str]]:
        rows = json.loads(json.dumps(rows))
        rows[row].update({k.replace("__", "."): v for k, v in cells.items()})
        return rows

    def drop(rows: list[dict[str, str]], column: str) -> list[dict[str, str]]:
        return [{k: v for k, v in row.items() if k != column} for row in rows]

    return [
        ("deck", "an unknown column", edit(deck, 0, strenght="4"), "unknown column"),
        ("deck", "an unknown ladder column", edit(deck, 0, ladder__power="4"),
         "unknown column"),
        ("deck", "no title column", drop(deck, "title"), "no title column"),
        ("deck", "both spellings of the name", edit(deck, 0, person__name="Ada"),
         "both give"),
        ("deck", "a strength of two digits", edit(deck, 2, strength="12"),
         "must be one digit"),
        ("deck", "an empty name", edit(deck, 3, name=" "), "is empty"),
        ("deck", "a tab in a title", edit(deck, 1, title="Pro\tducer"), "control"),
        ("deck", "a name too long", edit(deck, 1, name="x" * 201), "characters long"),
        ("people", "an unknown column", edit(people, 0, person__nmae="Ada"),
         "unknown column"),
        ("people", "no name column", drop(people, "person.name"), "no person.name"),
        ("people", "an empty name", edit(people, 1, person__name=""), "person.name is empty"),
        ("people", "a line break in a name", edit(people, 1, person__name="Sam\nReed"),
         "control characters"),
        ("people", "a flag that is no flag", edit(people, 0, card__marks="maybe"),
         "card.marks"),
        ("people", "a preset not among the choices", edit(people, 0, card__preset="a4"),
         "card.preset"),
        ("people", "a width that is no number", edit(people, 0, card__width_mm="wide",
                                                     card__height_mm="55"), "card.width_mm"),
        ("people", "a qr not among the choices", edit(people, 1, card__qr="phone"),
         "card.qr"),
        ("people", "a focus point of three numbers",
         edit(people, 0, images__portrait_focus="0.5 0.5 0.5"), "portrait_focus"),
        ("people", "an unknown printing condition",
         edit(people, 0, card__output_intent="FOGRA93"), "output_intent"),
        ("people", "an ability too long", edit(people, 1, ladder__ability="x" * 121),
         "characters long"),
        ("people", "no rows", [], "no rows"),
    ]


CSV_CASES = _csv_cases()


@pytest.mark.parametrize(("name", "what", "rows", "needle"), CSV_CASES,
                         ids=[f"{n}: {w}" for n, w, _, _ in CSV_CASES])
def test_a_broken_csv_file_is_refused_by_its_schema_and_by_cardgen(tmp_path, name, what,
                                                                  rows, needle):
    if not rows:  # (a header alone)
        path = tmp_path / "people.csv"
        path.write_text("person.name,person.title\n", encoding="utf-8")
        assert schema_problems(name, csv_rows(path, name))
        with pytest.raises(CardgenError, match=needle):
            _read_by_cardgen(name, path)
        return
    _refused_by_both(tmp_path, name, rows, needle)


@FUZZ
@given(st.lists(st.sampled_from(TOML_CASES), min_size=1, max_size=4))
def test_broken_files_with_several_problems_are_refused_by_both(cases):
    """Hypothesis combines the broken versions the schema code gives, several in one
    file: the schema and cardgen both refuse it."""
    import tempfile

    name = cases[0][0]
    data = _valid(name)
    for other, where, value, _ in cases:
        if other != name:
            continue
        try:
            data = _applied(data, where, value)
        except (KeyError, IndexError, TypeError):
            continue  # an earlier change took the place away
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"{name}.toml"
        path.write_text(tomlwrite.dumps(data), encoding="utf-8")
        assert schema_problems(name, tomllib.loads(path.read_text(encoding="utf-8")))
        with pytest.raises(ProblemsError):
            _read_by_cardgen(name, path)


# --- each field's schema says what its converter accepts ---------------------------------

def _leaves(table: Table, prefix: str) -> Iterator[tuple[str, Field]]:
    for key, field in table.fields.items():
        if isinstance(field, Table):
            yield from _leaves(field, f"{prefix}{key}.")
        elif isinstance(field, Records):
            yield from _leaves(field.table, f"{prefix}{key}[].")
        else:
            yield f"{prefix}{key}", field


def _fields() -> list[tuple[str, Field]]:
    from cardgen.card.config import CONFIG
    from cardgen.card.themes import THEME
    from cardgen.connector.assembly import ASSEMBLY
    from cardgen.ladder.attack import attack_schemas

    found = {}
    for name, table in (("card", CONFIG), ("theme", THEME), ("assembly", ASSEMBLY),
                        ("attack", attack_schemas()[1])):
        for where, field in _leaves(table, f"{name}:"):
            found.setdefault(where, field)
    return list(found.items())


FIELDS = _fields()
ALPHABET = [*"aZeE09 .,#+-_", "\t", "\n", "\r", "\x00", "\x1f", "\x7f", "\x85",
                                   "\u00a0", "\u2028", "é", "ı"]
SCALARS = st.one_of(st.booleans(), st.integers(-300, 300),
                    st.floats(-300, 300, allow_nan=False), st.text(ALPHABET, max_size=10),
                    st.dates())


def _probes(schema: Any, defs: dict[str, Any], seen: frozenset[str] = frozenset()
            ) -> list[Any]:
    """Values a schema names (choices, defaults, bounds and either side of them), and
    strategies for its patterns, to draw values it accepts as well as values it does
    not."""
    found: list[Any] = []
    if isinstance(schema, dict):
        ref = schema.get("$ref", "").rsplit("/", 1)[-1]
        if ref and ref not in seen:
            seen = seen | {ref}
            found += _probes(defs[ref], defs, seen)
        found += list(schema.get("enum", ()))
        if "default" in schema:
            found.append(schema["default"])
        for bound in ("minimum", "maximum"):
            if bound in schema:
                found += [schema[bound], schema[bound] - 1e-9, schema[bound] + 1e-9]
        if "minimum" in schema and "maximum" in schema:
            low, high = schema["minimum"], schema["maximum"]
            found.append(st.integers(math.ceil(low), math.floor(high))
                         if schema.get("type") == "integer" else st.floats(low, high))
        if "pattern" in schema:
            found.append(st.from_regex(schema["pattern"], fullmatch=False))
        for value in schema.values():
            if isinstance(value, dict | list):
                found += _probes(value, defs, seen)
    elif isinstance(schema, list):
        for item in schema:
            found += _probes(item, defs, seen)
    return found


def _values(field: Field) -> st.SearchStrategy[Any]:
    defs: dict[str, Any] = {}
    probes = _probes(field.json_schema(defs), defs)
    named = [p for p in probes if not isinstance(p, st.SearchStrategy)]
    drawn = [p for p in probes if isinstance(p, st.SearchStrategy)]
    hexes = st.from_regex(r"#[0-9a-fA-F]{6}", fullmatch=True)
    numbers = st.one_of(st.integers(-10, 200), st.floats(-1, 150, allow_nan=False))
    return st.one_of(
        SCALARS, st.sampled_from(named or [0]), *drawn, hexes,
        st.lists(numbers, max_size=5),
        st.lists(SCALARS, max_size=3),
        st.lists(st.one_of(hexes, st.lists(numbers, min_size=4, max_size=4)), max_size=3),
        st.dictionaries(st.sampled_from(["cmyk", "rgb", "zz"]),
                        st.one_of(hexes, st.lists(numbers, min_size=3, max_size=5),
                                  SCALARS), max_size=3))


def _accepted(field: Field, value: Any) -> bool:
    try:
        field.convert(value)
    except Problem:
        return False
    return True


def _stricter(value: Any) -> bool:
    """Where a schema may refuse what cardgen takes, as the guide says: a number written
    with an exponent or an underscore in text (a focus point)."""
    return isinstance(value, str) and bool(re.search(r"[eE_]", value))


@pytest.mark.parametrize(("where", "field"), FIELDS, ids=[w for w, _ in FIELDS])
def test_each_fields_schema_accepts_what_cardgen_accepts(where, field):
    defs: dict[str, Any] = {}
    schema = field.json_schema(defs)
    check = Draft202012Validator({**schema, "$defs": defs})

    @settings(max_examples=examples(120), deadline=None, derandomize=True, database=None)
    @given(_values(field))
    @example(float("inf"))
    @example(float("nan"))
    def agree(value: Any) -> None:
        if isinstance(value, float) and not math.isfinite(value):
            assert not _accepted(field, value)  # (what a JSON value cannot be: $comment)
            return
        by_schema = check.is_valid(value)
        by_cardgen = _accepted(field, value)
        if by_schema:
            assert by_cardgen, f"{where}: the schema takes {value!r}, cardgen does not"
        elif by_cardgen:
            assert _stricter(value), f"{where}: cardgen takes {value!r}, the schema does not"

    agree()


@FUZZ
@given(st.text(ALPHABET + list("0123456789"), max_size=6), st.booleans())
def test_a_deck_strength_cell_is_what_the_deck_reads(cell, with_text):
    from cardgen.datafile import parse_csv
    from cardgen.ladder.deck import deck_from_table

    header = "name,title,company,strength" + (",text" if with_text else "")
    line = f'Ada,CEO,Acme,"{cell.replace(chr(34), chr(34) * 2)}"' + (",x 5" if with_text
                                                                      else "")
    table = parse_csv(f"{header}\n{line}\n", "deck")
    rows = [{k.lower(): v for k, v in row.values.items()} for row in table.rows]
    if len(rows) != 1:
        return  # (a cell that ends the record: not a strength)
    by_schema = validator("deck").is_valid(rows)
    try:
        deck_from_table(table, "deck")
        by_cardgen = True
    except CardgenError:
        by_cardgen = False
    stripped = rows[0]["strength"].strip()
    if by_schema and not with_text and not stripped:
        assert not by_cardgen  # an empty Strength needs a text column (its $comment)
        return
    assert by_schema == by_cardgen, (cell, with_text)


@FUZZ
@given(st.sampled_from(["card.marks", "card.qr", "card.preset", "card.width_mm",
                        "images.portrait_focus", "card.output_intent",
                        "print.rendering_intent"]),
       st.one_of(st.text(ALPHABET + list("0123456789"), max_size=8),
                 st.sampled_from(["true", " YES ", "0", "No", "vcard", "url", "eu", " us",
                                  "EU", "12.5", "-3", "1e3", ".5", "0.5 0.3", "1, 0",
                                  "fogra39", " CGATS21_CRPC6 ", "perceptual", ""])))
def test_a_people_cell_is_what_the_batch_reads(column, cell):
    """A cell of a people file against its column's schema, and read by the batch as
    its own rows are (trimmed; empty takes the config's value)."""
    from cardgen.card.batch import _cell
    from cardgen.card.config import CONFIG

    section, key = column.split(".")
    table = CONFIG.fields[section]
    assert isinstance(table, Table)
    field = table.fields[key]
    row = {"person.name": "Ada", column: cell}
    by_schema = validator("people").is_valid([row])
    text = cell.strip()
    by_cardgen = not text or _accepted(field, _cell(field, text))
    if by_schema:
        assert by_cardgen, cell
    else:
        assert not by_cardgen or _stricter(cell), cell
