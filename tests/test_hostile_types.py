"""Every field of every data file, given a value of every TOML type, is read or refused in
one line that names the field: no traceback. The schemas are walked, not listed, so a
field added later is fuzzed too. Batch CSV cells get the same, as text."""

from __future__ import annotations

import copy
import datetime as dt
import functools
import itertools
import math
import shutil
import tomllib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from cardgen.card.config import CONFIG
from cardgen.card.themes import THEME
from cardgen.connector.assembly import ASSEMBLY
from cardgen.connector.layout import LAYOUT
from cardgen.errors import ConfigError
from cardgen.games.rotator.board import BOARD_FILE
from cardgen.ladder.attack import _schema as attack_schema
from cardgen.resources import templates_dir
from cardgen.schema import Custom, Field, ListOf, Records, Table, check
from tests import tomlwrite
from tests.helpers import BASE_CONFIG, cli, error_line

# A value of every type TOML has, and the edges of its numbers.
TOML_VALUES: dict[str, Any] = {
    "string": "x",
    "empty string": "",
    "integer": 3,
    "largest integer": 2 ** 63 - 1,
    "smallest integer": -(2 ** 63),
    "huge integer": 10 ** 400,
    "huge negative integer": -(10 ** 400),
    "float": 0.5,
    "nan": math.nan,
    "inf": math.inf,
    "-inf": -math.inf,
    "boolean": True,
    "offset date-time": dt.datetime(1979, 5, 27, 7, 32, tzinfo=dt.UTC),
    "local date-time": dt.datetime(1979, 5, 27, 7, 32),
    "local date": dt.date(1979, 5, 27),
    "local time": dt.time(7, 32),
    "array": [1],
    "empty array": [],
    "array of tables": [{"a": 1}],
    "inline table": {"a": 1},
    "empty table": {},
}
# Fields that take arrays (a list of items, a point, a colour) also get arrays of each.
ARRAY_VALUES = {f"array of {name}": [v, v] for name, v in TOML_VALUES.items()
                if not isinstance(v, list | dict)}

Key = tuple[str | int, ...]  # a field's place: table keys, and 0 for an array's entry


def leaves(table: Table, at: Key = ()) -> Iterator[tuple[Key, Field]]:
    """Every field of a schema (tables and arrays of tables too), with its place."""
    for name, field in table.fields.items():
        key = (*at, name)
        yield key, field
        if isinstance(field, Table):
            yield from leaves(field, key)
        elif isinstance(field, Records):
            yield from leaves(field.table, (*key, 0))


def dotted(key: Key) -> str:
    """A place as messages name it: ``card[1].rotation``."""
    out = ""
    for part in key:
        out += f"[{part + 1}]" if isinstance(part, int) else (f".{part}" if out else part)
    return out


def with_value(base: dict[str, Any], key: Key, value: Any) -> dict[str, Any]:
    """``base`` with ``value`` at ``key`` (tables and a first entry made as needed)."""
    data = copy.deepcopy(base)
    node: Any = data
    for part, following in itertools.pairwise(key):
        if isinstance(part, int):
            while len(node) <= part:
                node.append({})
            node = node[part]
        else:
            if not isinstance(node.get(part), dict | list):
                node[part] = [] if isinstance(following, int) else {}
            node = node[part]
    node[key[-1]] = value
    return data


@dataclass(frozen=True)
class Kind:
    """A kind of data file a user gives: its schema, a valid file to start from, and
    the command line that reads it (``{}`` stands for its path)."""

    schema: Table
    base: Callable[[], dict[str, Any]]  # read once a process: with_value changes a copy
    command: tuple[str, ...]
    verdict: bool = False  # exit 4 with a verdict on stdout (and nothing on stderr) is fine
    files: tuple[tuple[str, str], ...] = ()  # other files the command reads (name, text)


def _toml(path: Path) -> Callable[[], dict[str, Any]]:
    return functools.cache(lambda: tomllib.loads(path.read_text(encoding="utf-8")))


TEMPLATES = templates_dir()
ATTACK, TEAM_ATTACK = attack_schema(False), attack_schema(True)
KINDS = {
    "config": Kind(CONFIG, functools.cache(lambda: tomllib.loads(BASE_CONFIG)),
                   ("card", "{}", "-o", "out", "-f", "pdf")),
    "batch config": Kind(CONFIG, functools.cache(lambda: tomllib.loads(BASE_CONFIG)),
                         ("card", "{}", "--batch", "people.csv", "-o", "out", "-f", "pdf"),
                         files=(("people.csv", "person.name\nAda Example\n"),)),
    "theme": Kind(THEME, _toml(TEMPLATES / "themes" / "dark.toml"),
                  ("card", "--theme", "{}", "-o", "out", "-f", "pdf")),
    "board file": Kind(BOARD_FILE, lambda: {"nodes": ["A:B2", "A:B8", "A:E4", "A:I2", "A:I8",
                                                      "B:B4", "B:E2", "B:E8", "B:H4", "B:I9"]},
                       ("rotator", "show", "{}")),
    "assembly": Kind(ASSEMBLY, _toml(TEMPLATES / "connector" / "reflector.toml"),
                     ("connector", "validate", "{}"), verdict=True),
    "Connector layout": Kind(LAYOUT, _toml(TEMPLATES / "connector" / "layout.toml"),
                             ("connector", "validate",
                              str(TEMPLATES / "connector" / "reflector.toml"), "--layout", "{}"),
                             verdict=True),
    "attack": Kind(ATTACK, _toml(TEMPLATES / "ladder" / "example-attack.toml"),
                   ("ladder", "attack", "{}")),
}
CASES = [(kind, key) for kind, spec in KINDS.items() for key, _ in leaves(spec.schema)]


def _values(field: Field) -> dict[str, Any]:
    return TOML_VALUES | ARRAY_VALUES if isinstance(field, ListOf | Custom) else TOML_VALUES


def _field(schema: Table, key: Key) -> Field:
    return dict(leaves(schema))[key]


@pytest.mark.slow  # some 5,000 whole runs (the checks in words alone are the next test's)
@pytest.mark.parametrize(("kind", "key"), CASES, ids=[f"{k}:{dotted(p)}" for k, p in CASES])
def test_every_field_takes_every_toml_type_without_a_traceback(tmp_path, kind, key):
    spec = KINDS[kind]
    failures = []
    for name, text in spec.files:
        (tmp_path / name).write_text(text, encoding="utf-8")
    for name, value in _values(_field(spec.schema, key)).items():
        path = tmp_path / "data.toml"
        _rewrite(path, tomlwrite.dumps(with_value(spec.base(), key, value)))
        command = [str(path) if a == "{}" else a for a in spec.command]
        failures += _judge(tmp_path, name, command, dotted(key), verdict=spec.verdict)
    assert not failures, "\n".join(failures)


def _rewrite(path: Path, text: str) -> None:
    """Write ``path`` anew. (Removed first: truncating a file that was just written makes
    ext4 flush it to disk before the write returns, some 2 ms each of the sweeps' 5,000
    writes, while a new file stays in memory.)"""
    path.unlink(missing_ok=True)
    path.write_text(text, encoding="utf-8")


def _judge(folder: Path, name: str, command: list[str], *needles: str,
           verdict: bool = False) -> list[str]:
    """Run ``command`` in ``folder`` (writing into ``out``): what is wrong with how it
    ended. A success must write PDFs that read back; a failure must be one error line
    naming ``needles`` and leave no output folder (a verdict may instead be said on
    stdout with exit 4, a check that found a problem); a traceback is always wrong."""
    shutil.rmtree(folder / "out", ignore_errors=True)
    try:
        result = cli(*command, cwd=folder)
    except Exception as exc:  # a traceback is what this test looks for
        return [f"{name}: {type(exc).__name__}: {exc}"[:300]]
    if result.returncode == 0:
        return [f"{name}: {problem}" for problem in _unreadable_pdfs(folder / "out")]
    if verdict and result.returncode == 4 and not result.stderr and result.stdout:
        return []
    try:
        error_line(result, *needles)
        assert not (folder / "out").exists(), "a failed run wrote its output folder"
    except AssertionError as exc:
        return [f"{name}: {exc}"[:300]]
    return []


def _unreadable_pdfs(folder: Path) -> list[str]:
    """What is wrong with the PDFs a run wrote into ``folder``: each must read back with
    pages."""
    from pypdf import PdfReader

    problems = []
    for pdf in sorted(folder.glob("*.pdf")):
        try:
            if not PdfReader(pdf).pages:
                problems.append(f"{pdf.name} has no pages")
        except Exception as exc:  # any failure to read it back is the finding
            problems.append(f"{pdf.name} does not read back: {exc}")
    return problems


# --- every schema in cardgen, found by importing its modules -----------------------------

def _schemas() -> dict[str, Table]:
    """Every module-level schema (a Table) in cardgen, and the attack file's two."""
    import importlib
    import pkgutil

    import cardgen

    found: dict[str, Table] = {}
    for module in pkgutil.walk_packages(cardgen.__path__, "cardgen."):
        if module.name.endswith("__main__"):
            continue
        loaded = importlib.import_module(module.name)
        for name, value in vars(loaded).items():
            if isinstance(value, Table) and all(value is not t for t in found.values()):
                found[f"{module.name}.{name}"] = value
    found["cardgen.ladder.attack._schema(False)"] = ATTACK
    found["cardgen.ladder.attack._schema(True)"] = TEAM_ATTACK
    return found


SCHEMAS = _schemas()
SCHEMA_CASES = [(name, key) for name, table in SCHEMAS.items() for key, _ in leaves(table)]


def test_the_walk_finds_the_schemas_of_every_kind_of_data_file():
    for kind in KINDS.values():
        assert any(table is kind.schema for table in SCHEMAS.values())
    assert len(SCHEMAS) >= 15


@pytest.mark.parametrize(("schema", "key"), SCHEMA_CASES,
                         ids=[f"{s}:{dotted(k)}" for s, k in SCHEMA_CASES])
def test_every_schema_field_checks_every_toml_type_in_words(schema, key):
    table = SCHEMAS[schema]
    field = _field(table, key)
    for name, value in _values(field).items():
        data = with_value({}, key, value)
        try:
            check(table, data, "data.toml")
        except ConfigError as exc:
            assert "\n" not in str(exc), name
            assert str(exc).startswith("data.toml: "), name
            continue


# --- batch CSV cells -------------------------------------------------------------------

# What a spreadsheet cell may hold: text for every TOML type, and numbers past any range.
CELLS = {
    "text": "x", "integer": "3", "negative integer": "-3", "float": "0.5", "nan": "nan",
    "inf": "inf", "-inf": "-inf", "1e400": "1e400", "huge integer": "9" * 400,
    "huge negative integer": "-" + "9" * 400, "5000 digits": "9" * 5000, "boolean": "true",
    "no": "no", "date": "1979-05-27", "time": "07:32:00", "date-time": "1979-05-27T07:32:00Z",
    "array": "[1]", "pair": "0.5 0.3", "table": "{a = 1}", "empty table": "{}",
    "someone else's home": "~nobody-cardgen/x",
}
COLUMNS = [f"{section}.{key}" for section, table in CONFIG.fields.items()
           if isinstance(table, Table) for key in table.fields if key != "name"]


@pytest.mark.slow
@pytest.mark.parametrize("column", COLUMNS)
def test_every_batch_column_takes_any_cell_without_a_traceback(tmp_path, column):
    import csv
    import io

    failures = []
    for name, cell in CELLS.items():
        table = io.StringIO()
        csv.writer(table).writerows([["person.name", column], ["Ada Example", cell]])
        _rewrite(tmp_path / "people.csv", table.getvalue())
        failures += _judge(tmp_path, name,
                           ["card", "--batch", "people.csv", "-o", "out", "-f", "pdf"],
                           "line 2", column)
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize(("toml", "said"), [
    ("1979-05-27T07:32:00Z", "a date-time (1979-05-27T07:32:00+00:00)"),
    ("1979-05-27T07:32:00", "a local date-time (1979-05-27T07:32:00)"),
    ("1979-05-27", "a date (1979-05-27)"),
    ("07:32:00", "a time (07:32:00)"),
])
def test_a_date_or_time_where_text_belongs_is_called_what_toml_calls_it(tmp_path, toml, said):
    (tmp_path / "c.toml").write_text(f"{BASE_CONFIG}\n[print]\ncmyk_profile = {toml}\n", "utf-8")
    line = error_line(cli("card", "c.toml", "-o", "out", cwd=tmp_path))
    assert line.endswith(f"c.toml: print.cmyk_profile must be text in quotes, not {said}.")
