"""A Corporate Ladder deck: read from a CSV file, and checked against the deck rules.

A deck file has a header row and one card per record. Its columns (any case):

- ``name``, ``title`` and ``company`` (the company may be empty);
- the Strength: ``strength`` (one digit, 0–9) or ``text``, the card's printed text with
  lines separated by line breaks or `` / ``, whose first digit is the Strength (0 when it
  has none); a row with an empty ``strength`` takes it from its ``text``;
- optionally ``ability``, the text after "CL:" (without the column, a ``CL:`` line of
  the text is the ability).

A studio's batch file (``people.csv``) spells them ``person.name``, ``person.title``,
``person.company`` and ``ladder.ability``; its other dotted columns are the cards'
other settings and are left alone. Such a file gives no Strength: the caller passes
``strength_of``, which prints the card of a row and reads its Strength.

The deck rules (:func:`check_deck`): at least 20 cards, no two the same card
(:attr:`Card.identity`), 1 to 4 Upper Management, at most 4 cards from one company
(compared like names; cards without a company count for none), at most 6 Press.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from cardgen.datafile import CsvRow, CsvTable, line_of, path_text, read_table
from cardgen.errors import CardgenError, Code, ConfigError, ConfigProblem, shorten
from cardgen.errors import Problem as Coded
from cardgen.ladder.cards import MAX_ABILITY, MAX_LINE, MAX_TEXT, Card, LadderType, same_text
from cardgen.resources import templates_dir
from cardgen.schema import JSON, Problem, Text, closest

MIN_CARDS = 20
UPPER_RANGE = (1, 4)
MAX_PER_COMPANY = 4
MAX_PRESS = 6

COLUMNS = ("name", "title", "company", "strength", "text", "ability")
BATCH_COLUMNS = {"person.name": "name", "person.title": "title",
                 "person.company": "company", "ladder.ability": "ability"}
REQUIRED = ("name", "title", "company")
LINE_BREAK = re.compile(r"\r\n|\r|\n| / ")
ABILITY = re.compile(r"^\s*CL:\s*(.*)$", re.IGNORECASE)

_FIELDS = {
    "name": Text("The name on the card.", nonempty=True, printed=True,
                 missing="is empty; every card needs a name.", max_length=MAX_LINE),
    "title": Text("The job title on the card, which gives its type.", printed=True,
                  max_length=MAX_LINE),
    "company": Text("The company on the card (may be empty).", printed=True,
                    max_length=MAX_LINE),
    "ability": Text('The text after "CL:" (without the column, a "CL:" line of the text).',
                    printed=True, multiline=True, max_length=MAX_ABILITY),
    "text": Text("The card's printed text, lines apart by line breaks or ' / '; its first "
                 "digit is the Strength when the strength cell is empty or missing.",
                 printed=True, multiline=True, max_length=MAX_TEXT),
}

StrengthOf = Callable[[CsvRow], int]
# A strength cell (trimmed): one digit, or empty for a Strength from the text or the card.
STRENGTH_PATTERN = r"^\s*[0-9]?\s*$"


def row_json_schema(defs: dict[str, JSON]) -> JSON:
    """A record of a deck file as JSON Schema (draft 2020-12): an object whose keys are
    the header's column names in lower case (cardgen reads them in any case) and whose
    values are the cells' text. The name, title and company columns are needed (or their
    batch spellings), not both spellings of one; other dotted columns (a card's other
    settings, in a batch's people file) are left alone. ``defs`` collects the shared
    definitions (see :meth:`cardgen.schema.Field.json_schema`)."""
    def cell(meaning: str) -> JSON:
        if meaning == "strength":
            return {"type": "string", "pattern": STRENGTH_PATTERN,
                    "description": "The Strength, one digit 0 to 9; empty: the first "
                                   "digit of the text column (0 without one), or read "
                                   "from the card printed from a config."}
        return _FIELDS[meaning].json_schema(defs)

    spellings = {meaning: [meaning, *(c for c, m in BATCH_COLUMNS.items() if m == meaning)]
                 for meaning in COLUMNS}
    properties = {column: cell(meaning) for meaning, columns in spellings.items()
                  for column in columns}
    rules: list[JSON] = [{"anyOf": [{"required": [c]} for c in spellings[m]]}
                         for m in REQUIRED]
    rules += [{"not": {"required": columns}} for columns in spellings.values()
              if len(columns) > 1]
    return {"type": "object", "properties": properties,
            "patternProperties": {"\\.": {
                "type": "string", "description": "Another setting of a card (a column of "
                "a batch's people file): left alone."}},
            "propertyNames": {"anyOf": [{"enum": list(properties)},
                                        {"not": {"pattern": "^ladder\\."}}]},
            "additionalProperties": False, "allOf": rules}



def example_deck() -> Path:
    """The example deck cardgen ships (a valid one)."""
    return templates_dir() / "ladder" / "example-deck.csv"


def read_deck(path: Path, *, strength_of: StrengthOf | None = None) -> list[Card]:
    """The cards of a deck file (see the module's docstring), or a :class:`ConfigError`
    naming the file with every bad column and every bad row (by line and column).
    ``strength_of`` gives the Strength of a row that has none of its own (no
    ``strength`` or ``text``); it may raise a :class:`CardgenError`, which becomes that
    row's problem."""
    label = path_text(path)
    return deck_from_table(read_table(path, "deck file", partial=True), label,
                           strength_of=strength_of)


def printed_cards_only(path: Path) -> bool:
    """Is this a people file of ``cardgen card --batch`` (a ``person.name`` column) that
    gives no Strength of its own (no ``strength`` or ``text``), so that only the printed
    cards can?"""
    columns = {c.casefold() for c in read_table(path, "deck file", partial=True).columns}
    return "person.name" in columns and not columns & {"strength", "text"}


def deck_from_table(table: CsvTable, label: str, *,
                    strength_of: StrengthOf | None = None) -> list[Card]:
    """The cards of a parsed deck file (see :func:`read_deck`): an error names every
    problem of the header, or else of every row, with the records that could not be read
    as CSV (``table.problems``) among them in the order of the file."""
    columns = _columns(table, label)
    if "strength" not in columns and "text" not in columns and strength_of is None:
        raise ConfigError(label, [Coded("no Strength for the cards: the file needs a strength "
                                        "column (a digit 0–9 for each card) or a text "
                                        "column, or a card config to print each card from "
                                        "and read its Strength.", ConfigProblem.MISSING),
                                  *table.problems])
    problems: list[str] = list(table.problems)
    cards = []
    for row in table.rows:
        card = _card(row, columns, strength_of, problems)
        if card is not None:
            cards.append(card)
    if problems:
        raise ConfigError(label, sorted(problems, key=_line_of))
    return cards


def _line_of(problem: str) -> int:
    """The line a row's problem starts with ("line 7, column name: …")."""
    return line_of(problem)


def _columns(table: CsvTable, label: str) -> dict[str, str]:
    """Each meaning (``name``, ``strength``…) -> the header's column that holds it; an
    error lists every problem of the header, then the records that cannot be read."""
    found: dict[str, str] = {}
    problems = []
    unknown = []
    for column in table.columns:
        key = column.lower()
        meaning = key if key in COLUMNS else BATCH_COLUMNS.get(key)
        if meaning is None:
            if "." not in key or key.startswith("ladder."):
                unknown.append(column)
            continue
        if meaning in found:
            problems.append(Coded(f"the columns {shorten(found[meaning])} and "
                                  f"{shorten(column)} both give the card's {meaning}; keep "
                                  "one.", ConfigProblem.CONFLICT))
            continue
        found[meaning] = column
    options = list(COLUMNS) + list(BATCH_COLUMNS)
    for column in unknown:
        problems.append(Coded(f"unknown column {shorten(column)}"
                              + closest(column.lower(), options, options),
                              ConfigProblem.UNKNOWN_KEY))
    for meaning in REQUIRED:
        if meaning not in found:
            problems.append(Coded(f"no {meaning} column; the header needs one (or "
                                  f"person.{meaning}).", ConfigProblem.MISSING))
    if problems:
        raise ConfigError(label, [*problems, *table.problems])
    return found


def _card(row: CsvRow, columns: dict[str, str], strength_of: StrengthOf | None,
          problems: list[str]) -> Card | None:
    before = len(problems)
    values: dict[str, str] = {}
    for meaning, field in _FIELDS.items():
        column = columns.get(meaning)
        if column is None:
            values[meaning] = ""
            continue
        try:
            values[meaning] = field.convert(row.values[column])
        except Problem as exc:
            problems.append(Coded(f"{row.cell(column)}: {exc}", exc.code))
    strength = _strength(row, columns, values.get("text", ""), strength_of, problems)
    if len(problems) > before or strength is None:
        return None
    ability = values["ability"]
    if "ability" not in columns:
        lines = [m.group(1) for m in map(ABILITY.match, LINE_BREAK.split(values["text"])) if m]
        ability = lines[0].strip() if lines else ""
    return Card(values["name"], values["title"], values["company"], strength, ability,
                line=row.line)


def _strength(row: CsvRow, columns: dict[str, str], text: str,
              strength_of: StrengthOf | None, problems: list[str]) -> int | None:
    column = columns.get("strength")
    given = row.values[column].strip() if column is not None else ""
    if given:
        if len(given) == 1 and given in "0123456789":
            return int(given)
        problems.append(Coded(f"{row.cell(column)}: must be one digit, 0 to 9, "
                              f"not {given[:20]!r}.", ConfigProblem.OUT_OF_RANGE))
        return None
    if "text" in columns:
        return first_digit(text)
    if strength_of is not None:
        try:
            value = strength_of(row)
        except CardgenError as exc:
            problems.append(f"{row.at}: {exc}")
            return None
        if not 0 <= value <= 9:
            raise ValueError(f"strength_of gave {value} for line {row.line}, not 0–9")
        return value
    problems.append(Coded(f"{row.cell(column)}: is empty; give the card's "
                          "Strength, a digit 0 to 9.", ConfigProblem.MISSING))
    return None


def first_digit(text: str) -> int:
    """The first ASCII digit of a card's text, read in order; 0 when there is none."""
    for ch in text:
        if "0" <= ch <= "9":
            return int(ch)
    return 0


class DeckProblem(Code):
    """A deck rule that a deck breaks (see :func:`check_deck`)."""

    TOO_FEW_CARDS = "deck.too-few-cards"
    SAME_CARD = "deck.same-card"  # a card twice
    UPPER_MANAGEMENT = "deck.upper-management"  # none, or too many
    COMPANY = "deck.company"  # too many cards from one company
    PRESS = "deck.press"  # too many Press cards


@dataclass(frozen=True)
class DeckReport:
    """What :func:`check_deck` found: every broken deck rule (in words, each with its
    :class:`DeckProblem` code), the number of cards, how many of each type (every
    type, in the order of :class:`LadderType`), and the cards themselves (``deck``, in
    the order given: each with the type and Strength it plays with)."""

    problems: tuple[Coded, ...]
    cards: int
    types: dict[LadderType, int]
    deck: tuple[Card, ...] = ()

    @property
    def valid(self) -> bool:
        return not self.problems

    def as_json(self) -> dict[str, object]:
        return {"valid": self.valid, "cards": self.cards,
                "types": {kind.value: n for kind, n in self.types.items()},
                "problems": list(self.problems), "codes": list(self.codes),
                "deck": [card_json(card) for card in self.deck]}

    @property
    def codes(self) -> tuple[DeckProblem, ...]:
        """The code of each problem, in order."""
        return tuple(DeckProblem(p.code) for p in self.problems)


def card_json(card: Card) -> dict[str, object]:
    """A card of a deck as ``--json`` gives it: where the file gives it (``line``, or
    null), who is on it, and what decides its play: its type, Strength, the Strength it
    fights with (a Freelancer's half) and its ability."""
    return {"line": card.line, **card.as_json(), "fighting_strength": card.fighting_strength}


def _where(cards: Sequence[Card], positions: Sequence[int]) -> str:
    """Where some cards are: "lines 3 and 9" (or "cards 2 and 8" without lines)."""
    lines = [cards[i].line for i in positions]
    if all(line is not None for line in lines):
        words = [str(line) for line in lines]
        noun = "line"
    else:
        words = [str(i + 1) for i in positions]
        noun = "card"
    if len(words) == 1:
        return f"{noun} {words[0]}"
    return f"{noun}s {', '.join(words[:-1])} and {words[-1]}"


def check_deck(cards: Sequence[Card]) -> DeckReport:
    """Every deck rule ``cards`` break (see the module's docstring)."""
    problems: list[Coded] = []
    if len(cards) < MIN_CARDS:
        problems.append(Coded(f"the deck has {_count(len(cards), 'card')}; it needs at least "
                              f"{MIN_CARDS}.", DeckProblem.TOO_FEW_CARDS))
    same: dict[tuple[str, str, str, int], list[int]] = {}
    for i, card in enumerate(cards):
        same.setdefault(card.identity, []).append(i)
    for positions in same.values():
        if len(positions) > 1:
            card = cards[positions[0]]
            problems.append(Coded(f"{_where(cards, positions)} are the same card ({card.label}"
                                  f"{', ' + card.company if card.company else ''}, Strength "
                                  f"{card.strength}); a deck holds each card once.",
                                  DeckProblem.SAME_CARD))
    types = {kind: 0 for kind in LadderType}
    for card in cards:
        types[card.type] += 1
    upper = types[LadderType.UPPER]
    low, high = UPPER_RANGE
    if upper < low:
        problems.append(Coded(f"the deck has no Upper Management card; it needs {low} to "
                              f"{high}, one to top the Corporate Ladder.",
                              DeckProblem.UPPER_MANAGEMENT))
    elif upper > high:
        problems.append(Coded(f"the deck has {upper} Upper Management cards; at most {high} "
                              "are allowed.", DeckProblem.UPPER_MANAGEMENT))
    companies: dict[str, list[int]] = {}
    for i, card in enumerate(cards):
        if same_text(card.company):
            companies.setdefault(same_text(card.company), []).append(i)
    for positions in companies.values():
        if len(positions) > MAX_PER_COMPANY:
            problems.append(Coded(f"{len(positions)} cards are from "
                                  f"{cards[positions[0]].company} ({_where(cards, positions)}); "
                                  f"at most {MAX_PER_COMPANY} may come from one company.",
                                  DeckProblem.COMPANY))
    if types[LadderType.PRESS] > MAX_PRESS:
        problems.append(Coded(f"the deck has {types[LadderType.PRESS]} Press cards; at most "
                              f"{MAX_PRESS} are allowed.", DeckProblem.PRESS))
    return DeckReport(tuple(problems), len(cards), types, tuple(cards))


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"
