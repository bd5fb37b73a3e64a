"""Schemas of the files cardgen reads: a JSON Schema (draft 2020-12) for each kind of input
file, made from the very schemas cardgen checks the files against (``cardgen.schema``'s
fields, each of which says its own JSON Schema), never written by hand.

Six kinds (:class:`SchemaName`): ``card`` (a card config), ``theme``, ``assembly`` (a
Connector assembly), ``attack`` (a Corporate Ladder attack), ``deck`` (a Corporate Ladder
deck, CSV) and ``people`` (the people file of ``cardgen card --batch``, CSV). A CSV file's
schema describes an array of its rows, each an object from the header's column names to
the cells' text (:func:`csv_rows` reads a file so). What a schema cannot say (text that
must fit on the card, rules between fields, files that must exist, the game's rules) is
listed in its ``$comment``, and cardgen still checks it.

Each schema is versioned: its ``$id`` holds the version of the file's format
(:data:`SCHEMA_VERSIONS`, raised when a file that was valid no longer is), under the
reserved domain ``cardgen.invalid`` (RFC 2606: it names the schema and is never fetched),
and its ``$comment`` starts with the cardgen that made it (no keyword of its own: a strict
validator, such as Ajv's default mode, refuses keywords it does not know).

>>> from cardgen.api.schemas import json_schema
>>> json_schema("card")["$id"]
'https://cardgen.invalid/schema/card/1.json'
"""

from __future__ import annotations

import enum
import json
from pathlib import Path
from typing import Any

from cardgen.api.files import Files
from cardgen.errors import ParameterError, shorten
from cardgen.version import __version__

DIALECT = "https://json-schema.org/draft/2020-12/schema"
ID = "https://cardgen.invalid/schema/{name}/{version}.json"


class SchemaName(enum.StrEnum):
    """The kinds of input file that have a schema."""

    CARD = "card"  # a card config (TOML)
    THEME = "theme"  # a theme (TOML)
    ASSEMBLY = "assembly"  # a Connector assembly (TOML)
    ATTACK = "attack"  # a Corporate Ladder attack (TOML)
    DECK = "deck"  # a Corporate Ladder deck (CSV)
    PEOPLE = "people"  # the people file of card --batch (CSV)


# The version of each file's format: raised when a file that was valid is no longer (a
# key removed or renamed, a range narrowed), not when a key is added.
SCHEMA_VERSIONS: dict[SchemaName, int] = {name: 1 for name in SchemaName}

TITLES = {
    SchemaName.CARD: "cardgen card configuration",
    SchemaName.THEME: "cardgen theme",
    SchemaName.ASSEMBLY: "cardgen Connector assembly",
    SchemaName.ATTACK: "cardgen Corporate Ladder attack",
    SchemaName.DECK: "cardgen Corporate Ladder deck (CSV rows)",
    SchemaName.PEOPLE: "cardgen people file of a batch of cards (CSV rows)",
}
DESCRIPTIONS = {
    SchemaName.CARD: "A card config (TOML), as `cardgen card` and `cardgen sheet` read it.",
    SchemaName.THEME: "A theme file (TOML): the card's colours and art.",
    SchemaName.ASSEMBLY: "A Connector assembly (TOML), as `cardgen connector validate` "
                         "reads it.",
    SchemaName.ATTACK: "A Corporate Ladder attack (TOML), as `cardgen ladder attack` reads "
                       "it.",
    SchemaName.DECK: "A Corporate Ladder deck (CSV), as `cardgen ladder deck` reads it: the "
                     "array of its rows, each an object from the header's column names in "
                     "lower case to the cells' text.",
    SchemaName.PEOPLE: "The people file (CSV) of a batch of cards, a card per row, as "
                       "`cardgen card` and `cardgen sheet` read it: the array of its rows, "
                       "each an object from the header's "
                       "column names to the cells' text (a person's fields named without "
                       "their section in lower case); an empty cell takes the config's "
                       "value.",
}

_TEXT = ("text printed on the card must not hold invisible characters (U+200B and other "
         "format characters) nor right-to-left or shaped scripts; a length is counted by "
         "cardgen once the text is trimmed and its accents composed (the schema counts it "
         "as written)")
_FILES = "the files named (images, fonts, profiles, a theme's path) must exist and be read"
_NAN = ("nan, which TOML can write and JSON cannot, is no number to cardgen, nor is inf where a "
        "number has no range")
_DECIMALS = ("a number written in text (images.portrait_focus as \"0.5 0.4\", a CSV cell) is "
             "described in plain decimals: cardgen also reads 5e-1 or 1_000 there")
# What cardgen checks that a schema cannot say: its $comment, and the guide's list.
LIMITS: dict[SchemaName, tuple[str, ...]] = {
    SchemaName.CARD: (
        "card.width_mm and card.height_mm are given together, 50-150 mm by 40-120 mm, "
        "with room for the grids",
        'card.qr = "url" needs person.web',
        _FILES, "a theme given by its path is checked as a theme",
        "the text must fit on the card at the smallest legible size",
        "the shared config of a batch of cards may leave out person.name, which each row "
        "gives", _TEXT, _NAN, _DECIMALS),
    SchemaName.THEME: (
        "the ink rule and the contrast rule for each place a colour is used (and total "
        "ink at most the press's), on the colours as given",
        "front_portrait.min_size is at most front_portrait.size, and "
        "front_portrait.fade_start less than front_portrait.fade_end",
        "outside.muted and inside.pattern are refused with their own reason", _NAN),
    SchemaName.ASSEMBLY: (
        "whether the cards, so placed, spell the game's description (connector validate)",
        _NAN),
    SchemaName.ATTACK: (
        "the rules of teams and defence (T1-T5, D3, D4): decided by ladder attack, exit 4",
        _TEXT),
    SchemaName.DECK: (
        "the column names are compared in any case: give them to the schema in lower case "
        "(cardgen.api.csv_rows does)",
        "a Strength needs a strength or a text column, unless the cards are printed from a "
        "card config to read it",
        "records that cannot be read as CSV (a stray quote, more values than columns)",
        "the deck rules (at least 20 cards, each once, 1-4 Upper Management, at most 4 "
        "from one company and 6 Press): checked by ladder deck, exit 4", _TEXT),
    SchemaName.PEOPLE: (
        "a person's field without its section may be written in any case: give it to the "
        "schema in lower case (cardgen.api.csv_rows does)",
        "each row's card is checked as a card config over the shared config: every rule "
        "of the card schema (a number's range, card sizes, card.qr, the files named, text "
        "that must fit) applies to the row's values",
        "records that cannot be read as CSV (a stray quote, more values than columns)",
        _TEXT, _DECIMALS),
}


def schema_names() -> tuple[str, ...]:
    """The kinds of input file that have a schema: ``("card", "theme", "assembly",
    "attack", "deck", "people")``."""
    return tuple(name.value for name in SchemaName)


def _name(name: SchemaName | str) -> SchemaName:
    try:
        return SchemaName(name)
    except ValueError:
        raise ParameterError("name", f"must be one of {', '.join(schema_names())}, not "
                             f"{shorten(str(name))}.", value=name) from None


def schema_id(name: SchemaName | str) -> str:
    """The ``$id`` of a schema: ``https://cardgen.invalid/schema/card/1.json`` (a name,
    not an address: ``.invalid`` never resolves)."""
    kind = _name(name)
    return ID.format(name=kind.value, version=SCHEMA_VERSIONS[kind])


def json_schema(name: SchemaName | str) -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of an input file, made from the schema cardgen
    checks it against: a new dict at each call.

    Args:
        name: the kind of file (:class:`SchemaName` or its value: ``"card"``,
            ``"theme"``, ``"assembly"``, ``"attack"``, ``"deck"``, ``"people"``).

    Returns:
        The schema: ``$schema``, a versioned ``$id``, ``title``, ``description``, a
        ``$comment`` naming the cardgen that made it and listing what cardgen checks
        beyond it, and
        ``$defs`` for the definitions its parts share (a colour, a line of printed text).

    Raises:
        ParameterError: ``name`` is not one of them.

    >>> ", ".join(json_schema("assembly")["required"])
    'game, card'
    """
    kind = _name(name)
    defs: dict[str, Any] = {}
    body = _body(kind, defs)
    document: dict[str, Any] = {
        "$schema": DIALECT, "$id": schema_id(kind), "title": TITLES[kind],
        "description": DESCRIPTIONS[kind],
        "$comment": f"Made by cardgen {__version__}. cardgen checks more than this schema "
                    "says: " + "; ".join(LIMITS[kind]) + ".",
        **body,
    }
    if defs:
        document["$defs"] = defs
    return document


def _body(kind: SchemaName, defs: dict[str, Any]) -> dict[str, Any]:
    """The schema proper of ``kind``, from the module that reads the file."""
    from cardgen.schema import json_table

    if kind is SchemaName.CARD:
        from cardgen.card.config import CONFIG

        return CONFIG.json_schema(defs)
    if kind is SchemaName.THEME:
        from cardgen.card.themes import THEME, THEME_WITHOUT_PORTRAIT

        return json_table([THEME, THEME_WITHOUT_PORTRAIT], defs)
    if kind is SchemaName.ASSEMBLY:
        from cardgen.connector.assembly import ASSEMBLY

        return ASSEMBLY.json_schema(defs)
    if kind is SchemaName.ATTACK:
        from cardgen.ladder.attack import attack_schemas

        return json_table(attack_schemas(), defs)
    from cardgen.datafile import MAX_CSV_ROWS

    if kind is SchemaName.DECK:
        from cardgen.ladder.deck import row_json_schema

        return {"type": "array", "items": row_json_schema(defs), "maxItems": MAX_CSV_ROWS}
    from cardgen.card.batch import MAX_PEOPLE
    from cardgen.card.batch import row_json_schema as person_row

    return {"type": "array", "items": person_row(defs), "minItems": 1,
            "maxItems": MAX_PEOPLE}


def schema_text(name: SchemaName | str) -> str:
    """:func:`json_schema` as JSON text: keys sorted, indented by two spaces, UTF-8
    characters as they are, a line break at the end; the same text for the same cardgen.

    Raises:
        ParameterError: ``name`` is not a kind of file with a schema.
    """
    return json.dumps(json_schema(name), sort_keys=True, indent=2, ensure_ascii=False) + "\n"


def schema_files(name: SchemaName | str, *, stem: str | None = None) -> Files:
    """The schema as a file to write: ``NAME.schema.json`` (or ``STEM.json``), UTF-8.

    Args:
        name: the kind of file, as for :func:`json_schema`.
        stem: the file's name without ``.json`` (default ``NAME.schema``).

    Returns:
        One file, by name: ``schema_files("card").write("schemas")`` writes
        ``schemas/card.schema.json``.

    Raises:
        ParameterError: ``name`` is not a kind of file with a schema, or ``stem`` is no
            plain file name.
    """
    from cardgen.output import check_stem

    kind = _name(name)
    chosen = check_stem(stem if stem is not None else f"{kind.value}.schema", "stem")
    return Files({f"{chosen}.json": schema_text(kind).encode("utf-8")})


def csv_rows(source: Path | str, name: SchemaName | str) -> list[dict[str, str]]:
    """The rows of a deck or people file as their schema describes them: an object per
    record, from the header's column names to the cells' text, with the names cardgen
    reads in any case in lower case. Read by cardgen's CSV reader (UTF-8, a comma,
    semicolon or tab between values, RFC 4180 quoting).

    Args:
        source: the file (a ``Path``), or its text (a ``str``).
        name: ``"deck"`` or ``"people"``.

    Returns:
        The rows, in the order of the file: validate them with ``json_schema(name)``.

    Raises:
        ParameterError: ``name`` is not ``deck`` or ``people``.
        ConfigError: a record cannot be read as CSV (every one is named, by line).
        InputFileError: the file cannot be read.

    >>> csv_rows("Name,TITLE,company\\nAda,CEO,\\n", "deck")
    [{'name': 'Ada', 'title': 'CEO', 'company': ''}]
    """
    from cardgen.datafile import parse_csv, read_table

    kind = _name(name)
    if kind not in (SchemaName.DECK, SchemaName.PEOPLE):
        raise ParameterError("name", f"must be deck or people (the CSV files), not "
                             f"{shorten(kind.value)}.", value=name)
    if isinstance(source, Path):
        table = read_table(source, f"{kind.value} file")
    else:
        table = parse_csv(source, f"{kind.value} text")
    if kind is SchemaName.DECK:
        def folded(column: str) -> str:
            return column.lower()
    else:
        from cardgen.card.config import PERSON_FIELDS

        person = {"name", *PERSON_FIELDS}

        def folded(column: str) -> str:
            return column.casefold() if column.casefold() in person else column
    return [{folded(column): value for column, value in row.values.items()}
            for row in table.rows]
