"""Many people's cards from one table: a CSV file with one row per person, whose columns
are config keys, over a config that gives everything the rows share.

The rules (docs/team.md):

- A column is named like a config key, ``section.key`` (``person.name``,
  ``images.portrait``, ``ladder.ability``, ``card.theme``…); the person's fields may also
  be named without their section (``name``, ``title``…). A ``person.name`` column is
  required. Any other column is refused with the closest key suggested.
- A cell that is empty takes the config's value: the config holds what the rows share
  (the theme, the logo, the company, the web site); a row overrides it.
- Cells are text. A flag (``card.marks``) is written true/false (yes/no, 1/0 too), a
  number as a number; ``card.qr`` takes ``false`` as in the config.
- Paths in a cell are relative to the CSV file, paths in the config to the config.
- Every row is checked before anything is drawn, and every card is laid out before
  anything is written: a problem names the row's line and the column, and every bad row
  is reported at once.
- Each card's files are named from the person's name (``Robin Vale`` →
  ``robin-vale``); two people whose names give the same stem are numbered
  (``robin-vale``, ``robin-vale-2``) in the order of the rows. The names of the files
  the run makes for all (the dielines) are reserved first, so a person whose name gives
  one of them is numbered too (:func:`assign_stems`).
"""

from __future__ import annotations

import copy
import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cardgen.card.build import CardBuild, build_card
from cardgen.card.config import (
    CONFIG,
    PATH_KEYS,
    CardConfig,
    config_from_values,
    read_config_values,
)
from cardgen.datafile import CsvTable, line_of, path_text, read_table, user_path
from cardgen.draw.page import OutputIntent
from cardgen.errors import (
    CardgenError,
    ConfigError,
    ConfigProblem,
    Problem,
    ProblemsError,
    shorten,
)
from cardgen.physical.card import Preset
from cardgen.prepress.dieline import DielineMode
from cardgen.prepress.varnish import VarnishMode
from cardgen.schema import (
    JSON,
    Choice,
    Field,
    Flag,
    Number,
    Table,
    Text,
    check,
    closest,
    words_pattern,
)

# A batch's PNGs are previews (its print files are the PDFs): 150 dpi puts an 85 mm card
# 502 px wide, within the 600 px column of an e-mail, with its smallest type (5 pt: 10 px
# to the em) legible and its QR code read from the file (docs/team.md, "Previews").
PREVIEW_DPI = 150
MAX_PEOPLE = 1000  # rows of one batch: a large studio, a convention's worth of cards
MAX_SHOWN = 12  # problems a batch error lists before it counts the rest
TRUE_WORDS = {"true", "yes", "1"}
FALSE_WORDS = {"false", "no", "0"}


@dataclass(frozen=True)
class Person:
    """One row of the table: its line, the card's config and the stem of its files."""

    line: int
    config: CardConfig
    stem: str


class BatchError(ProblemsError):
    """A table of people with one or more bad rows; every problem names its line (and
    keeps the code of the row's problem: :class:`~cardgen.errors.ConfigProblem`)."""

    default_code = ConfigProblem.INVALID


def columns(table: CsvTable, label: str) -> dict[str, tuple[str, str]]:
    """Each column's config key (section, key); an unknown column is an error."""
    sections: dict[str, Table] = {name: field for name, field in CONFIG.fields.items()
                                  if isinstance(field, Table)}
    keys = [f"{s}.{k}" for s, t in sections.items() for k in t.fields]
    person = sections["person"].fields
    found: dict[str, tuple[str, str]] = {}
    problems = []
    for column in table.columns:
        name = column.casefold() if column.casefold() in person else column
        section, _, key = name.rpartition(".")
        if not section and key in person:
            section = "person"
        if section in sections and key in sections[section].fields:
            found[column] = (section, key)
        else:
            problems.append(Problem(f"{table.heading(column)}: unknown column "
                                    f"{shorten(column)[1:-1]}"
                                    + closest(column, keys, keys), ConfigProblem.UNKNOWN_KEY))
    if ("person", "name") not in found.values() and not problems:
        problems.append(Problem(f"{table.heading()}: there is no person.name column; every "
                                "row needs the name printed on its card.", ConfigProblem.MISSING))
    if problems:  # with the records that cannot be read, so that none is hidden
        raise batch_error(label, sorted([*problems, *table.problems], key=line_of))
    return found


def _cell(field: Field, text: str) -> Any:
    """A cell's text as the value the config would hold (see the module's docstring)."""
    word = text.casefold()
    if isinstance(field, Flag) or (isinstance(field, Choice) and field.flags):
        if word in TRUE_WORDS | FALSE_WORDS:
            return word in TRUE_WORDS
        return text
    if isinstance(field, Number):
        try:
            return int(text) if re.fullmatch(r"[+-]?\d+", text) else float(text)
        except ValueError:
            return text  # the schema says what it expected
    return text


NUMBER_PATTERN = r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?"  # as _cell reads one


def cell_json_schema(field: Field, defs: dict[str, JSON]) -> JSON:
    """A cell of a column that sets ``field``, as JSON Schema (draft 2020-12): text, as
    :func:`_cell` reads it (trimmed; empty: the config's value)."""
    out: JSON = {"type": "string"}
    if isinstance(field, Flag) or (isinstance(field, Choice) and field.flags):
        words = [w for flag, spelt in ((True, TRUE_WORDS), (False, FALSE_WORDS))
                 if isinstance(field, Flag) or flag in field.flags for w in sorted(spelt)]
        names = field.names if isinstance(field, Choice) else []  # as written
        out["pattern"] = words_pattern(names, any_case=words, empty=True)
    elif isinstance(field, Choice):
        out["pattern"] = words_pattern(field.names, empty=True)
    elif isinstance(field, Number):
        out["pattern"] = f"^\\s*(?:{NUMBER_PATTERN})?\\s*$"
    elif isinstance(field, Text):
        out = field.json_value(defs)
    else:
        out["anyOf"] = [{"pattern": "^\\s*$"}, field.json_value(defs)]
    if field.help:
        out["description"] = field.help
    return out


def row_json_schema(defs: dict[str, JSON]) -> JSON:
    """A row of a people file as JSON Schema (draft 2020-12): an object whose keys are
    the header's columns (config keys, ``section.key``, or a person's field alone) and
    whose values are the cells' text (:func:`cell_json_schema`); a name is needed."""
    properties: JSON = {}
    for section, table in CONFIG.fields.items():
        assert isinstance(table, Table)
        for key, field in table.fields.items():
            properties[f"{section}.{key}"] = cell_json_schema(field, defs)
    person = CONFIG.fields["person"]
    assert isinstance(person, Table)
    for key in person.fields:
        properties[key] = properties[f"person.{key}"]
    names = ["person.name", "name"]
    blank = copy.copy(person.fields["name"])  # a name cell may be empty where the other
    assert isinstance(blank, Text)  # name column is not: the anyOf below needs one
    blank.nonempty = False
    for column in names:
        properties[column] = cell_json_schema(blank, defs)
    return {"type": "object", "properties": properties, "additionalProperties": False,
            "anyOf": [{"required": [column], "properties": {column: {"pattern": "\\S"}}}
                      for column in names]}


def _absolute(values: dict[str, Any], base: Path) -> None:
    """The paths in ``values`` (a config's raw tables) made absolute against ``base``."""
    for section, key in PATH_KEYS:
        table = values.get(section)
        value = table.get(key) if isinstance(table, dict) else None
        if not isinstance(value, str) or not value.strip():
            continue  # (the schema says what is wrong with a value that is not text)
        path = user_path(value.strip())
        if section == "card" and "/" not in value and "\\" not in value \
                and not value.endswith(".toml"):
            continue  # a built-in theme's name
        values[section][key] = str(path if path.is_absolute() else base / path)


def stem_of(name: str) -> str:
    """The stem of a person's files: the name in lower case, letters and digits kept
    (accents dropped where a plain letter remains), every other run a hyphen."""
    plain = unicodedata.normalize("NFKD", name)
    plain = "".join(c for c in plain if not unicodedata.combining(c))
    stem = re.sub(r"[^\w]+", "-", plain.casefold(), flags=re.ASCII if plain.isascii() else 0)
    stem = stem.replace("_", "-").strip("-")
    return stem[:60].rstrip("-") or "card"


def _folded(name: str) -> str:
    """A file name as a file system that ignores case (macOS, Windows) compares it."""
    return unicodedata.normalize("NFC", name).casefold()


def unique_stems(names: Sequence[str], reserved: Sequence[str] = ()) -> list[str]:
    """A stem per name, numbered from 2 where an earlier row (or ``reserved``) already
    took it, case-insensitively."""
    return assign_stems(names, [()] * len(names), reserved)


def assign_stems(names: Sequence[str], ends: Sequence[Sequence[str]],
                 generated: Iterable[str] = ()) -> list[str]:
    """A stem per name (:func:`stem_of`), numbered from 2 (``robin-vale-2``) where the
    stem, or a file named from it (the stem and each of its row's ``ends``, such as
    ``.pdf`` or ``-outside.png``), is already taken: by ``generated`` (the names of the
    files a run makes besides the people's, such as its dielines, and their stems),
    reserved before any person's, or by an earlier row. Names that differ only in case
    count as one, as they are one file on macOS and Windows."""
    given = Stems(generated)
    return [given.take(name, row_ends) for name, row_ends in zip(names, ends, strict=True)]


class Stems:
    """:func:`assign_stems` one row at a time, in the rows' order: what a batch that
    streams its cards uses (a row's stem depends only on the rows before it)."""

    def __init__(self, generated: Iterable[str] = ()) -> None:
        self._taken = {_folded(name) for name in generated}

    def take(self, name: str, ends: Sequence[str] = ()) -> str:
        """The next row's stem, for the person's ``name`` and the ends of its files."""
        base = stem_of(name)
        stem, n = base, 1
        while any(_folded(stem + end) in self._taken for end in ("", *ends)):
            n += 1
            stem = f"{base}-{n}"
        self._taken.update(_folded(stem + end) for end in ("", *ends))
        return stem


def load_people(table_path: Path, config_path: Path | None, *,
                reserved: Sequence[str] = ()) -> list[Person]:
    """Every row of the table as a checked card config over the shared config (see the
    module's docstring); a :class:`BatchError` lists every bad row."""
    people, problems = _people(table_path, config_path, reserved)
    if problems:
        raise batch_error(path_text(table_path), problems)
    return people


def _people(table_path: Path, config_path: Path | None,
            reserved: Sequence[str]) -> tuple[list[Person], list[str]]:
    """The rows that make a config, and the problems of the others."""
    label = path_text(table_path)
    table = read_table(table_path, "people file", label, max_rows=MAX_PEOPLE, partial=True)
    shared: dict[str, Any] = {}
    source: Path | None = None
    if config_path is not None:
        shared = read_config_values(config_path)
        source = config_path.resolve()
    return people_of(table, label, table_path.resolve().parent, shared, source,
                     None if config_path is None else path_text(config_path), reserved)


def people_of(table: CsvTable, label: str, base: Path, shared: dict[str, Any],
              source: Path | None, config_label: str | None,
              reserved: Sequence[str] = ()) -> tuple[list[Person], list[str]]:
    """The rows of ``table`` (named ``label`` in problems; paths in cells relative to
    ``base``) over the config values ``shared`` (as a config file holds them, read from
    ``source``, named ``config_label``, paths relative to its folder): the rows that make
    a config, and the problems of the others."""
    if not table.rows and not table.problems:
        raise BatchError(label, ["there are no rows under the header; add one row per "
                                 "person."], code=ConfigProblem.ITEM_COUNT)
    found = columns(table, label)
    shared = _shared(shared, source, config_label)
    problems: list[str] = list(table.problems)  # the records that cannot be read as CSV
    configs: list[tuple[int, CardConfig]] = []
    for row in table.rows:
        values = copy.deepcopy(shared)
        row_values: dict[str, Any] = {}
        for column, (section, key) in found.items():
            text = row.values[column].strip()
            if text:
                field = CONFIG.fields[section]
                assert isinstance(field, Table)
                row_values.setdefault(section, {})[key] = _cell(field.fields[key], text)
        _absolute(row_values, base)
        for section, entries in row_values.items():
            if not isinstance(values.get(section), dict):
                values[section] = {}
            values[section].update(entries)
        where = f"{label} line {row.line}"
        if not row_values.get("person", {}).get("name"):
            problems.append(Problem(f"{row.at}: person.name is empty; every card needs "
                                    "the name printed on it.", ConfigProblem.MISSING))
            continue
        try:
            configs.append((row.line, config_from_values(values, source, where)))
        except ConfigError as exc:
            problems += [p.reworded(f"{row.at}: {p}") for p in exc.problems]
        except CardgenError as exc:
            problems.append(f"{row.at}: {exc}")
    stems = unique_stems([c.person.name for _, c in configs], reserved)
    return [Person(line, config, stem) for (line, config), stem in zip(
        configs, stems, strict=True)], sorted(problems, key=line_of)


def _shared(values: dict[str, Any], source: Path | None,
            config_label: str | None) -> dict[str, Any]:
    """The shared config's values, its paths made absolute against its folder, checked
    on their own (with a stand-in name: the config's own problems are its own)."""
    shared = copy.deepcopy(values)
    if config_label is not None:
        if source is not None:
            _absolute(shared, source.parent)
        probe = copy.deepcopy(shared)
        probe.setdefault("person", {})
        if isinstance(probe["person"], dict):
            probe["person"].setdefault("name", "-")
        check(CONFIG, probe, config_label)
    return shared


def batch_error(label: str, problems: Sequence[str]) -> BatchError:
    """Every problem of a batch, the first :data:`MAX_SHOWN` in full."""
    shown = list(problems[:MAX_SHOWN])
    if len(problems) > MAX_SHOWN:
        shown.append(f"({len(problems) - MAX_SHOWN} more problems not shown.)")
    return BatchError(label, shown)


@dataclass(frozen=True)
class TeamCard:
    """A person's card, laid out."""

    person: Person
    build: CardBuild


def build_team(table_path: Path, config_path: Path | None, dieline: DielineMode, *,
               reserved: Sequence[str] = (), preset: Preset | None = None,
               theme: str | None = None, marks: bool | None = None,
               output_intent: OutputIntent | None = None,
               varnish: VarnishMode | None = None,
               progress: Callable[[int, int], None] | None = None) -> list[TeamCard]:
    """Every person's card laid out (with the settings given applied to all); a
    :class:`BatchError` names every row that breaks the config's rules or whose card
    cannot be made (a missing image, text too long for the card), all at once.
    ``progress(done, people)`` is told before the first card and after each."""
    people, problems = _people(table_path, config_path, reserved)
    cards: list[TeamCard] = []
    for done, person in enumerate(people):
        if progress is not None:
            progress(done, len(people))
        settings = person.config.with_overrides(preset=preset, theme=theme, marks=marks,
                                                output_intent=output_intent)
        try:
            cards.append(TeamCard(person, build_card(settings, dieline, varnish=varnish)))
        except CardgenError as exc:
            problems.append(f"line {person.line} ({shorten(person.config.person.name)}): "
                            f"{exc}")
    if progress is not None:
        progress(len(people), len(people))
    if problems:
        order = {p: line_of(p) for p in problems}
        raise batch_error(path_text(table_path), sorted(problems, key=order.__getitem__))
    return cards


