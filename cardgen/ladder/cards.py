"""A Corporate Ladder card's type and Strength.

The **type** comes from the job title through the table in
``templates/ladder/types.toml`` (its comments state how words match and which type wins
when several do). The **Strength** is the first digit read on the card's contact side
like a page: lines from the top, each left to right (:func:`in_lines`), 0 when there is
no digit.
"""

from __future__ import annotations

import enum
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from cardgen.datafile import read_toml
from cardgen.draw.geometry import Box, in_lines
from cardgen.errors import CardgenError, shorten
from cardgen.resources import templates_dir
from cardgen.schema import Flag, ListOf, Records, Table, Text, check

# The longest text a card's fields take in a deck or attack file, in characters: far
# more than a card prints (its config's limits and the layout decide that), but a bound
# on what the referee's sentences and errors quote.
MAX_LINE = 200  # a name, title or company
MAX_ABILITY = 500  # the text after "CL:"
MAX_TEXT = 2000  # a card's whole printed text (a deck's text column)


class LadderType(enum.StrEnum):
    UPPER = "Upper Management"
    MIDDLE = "Middle Management"
    WORDSMITH = "Wordsmith"
    ARTIST = "Artist"
    PRESS = "Press"
    FREELANCER = "Freelancer"
    OTHER = "Other"


def _type_name(value: Any) -> LadderType:
    try:
        return LadderType(value)
    except ValueError:
        names = ", ".join(t.value for t in LadderType if t is not LadderType.OTHER)
        raise ValueError(f"must be one of {names}, not {value!r}") from None


TYPES = Table({
    "type": Records(Table({
        "name": Text("the type", nonempty=True),
        "always": Flag("wins whenever it matches", default=False),
        "words": ListOf(Text(nonempty=True), "words and phrases, any case", default=[]),
        "acronyms": ListOf(Text(nonempty=True), "capitals, ? for any", default=[]),
    }), "the types, in order", min_items=1, max_items=20),
})


@dataclass(frozen=True)
class TypeRule:
    kind: LadderType
    always: bool
    patterns: tuple[tuple[re.Pattern[str], int], ...]  # pattern, its length in words


@cache
def type_rules(path: Path | None = None) -> tuple[TypeRule, ...]:
    """The type table (the bundled one unless ``path`` is given), checked."""
    path = path or templates_dir() / "ladder" / "types.toml"
    values = check(TYPES, read_toml(path, "type table"), str(path))
    rules = []
    for entry in values["type"]:
        kind = _type_name(entry["name"])
        patterns = [(re.compile(r"(?<![\w-])" + r"[\s-]+".join(
            re.escape(w) for w in re.split(r"[\s-]+", word)) + r"(?![\w-])", re.IGNORECASE),
            len(re.split(r"[\s-]+", word))) for word in entry["words"]]
        patterns += [(_acronym(a), 1) for a in entry["acronyms"]]
        rules.append(TypeRule(kind, entry["always"], tuple(patterns)))
    return tuple(rules)


def _acronym(acronym: str) -> re.Pattern[str]:
    """An acronym of the type table as a whole word in capitals ("?": any capital), its
    letters optionally dotted ("C.E.O."); a word is a run of letters and digits, so a
    hyphen or a slash ends it ("Co-CEO") but a letter does not ("CEOS", "VFX")."""
    letters = [r"[A-Z]" if ch == "?" else re.escape(ch) for ch in acronym]
    return re.compile(r"(?<![^\W_])" + r"\.?".join(letters) + r"\.?(?![^\W_])")


def card_type(title: str, rules: Sequence[TypeRule] | None = None) -> LadderType:
    """The type a job title gives a card (see the module's docstring)."""
    best: tuple[int, int] | None = None  # (-length, order)
    chosen = LadderType.OTHER
    for order, rule in enumerate(rules if rules is not None else type_rules()):
        lengths = [n for pattern, n in rule.patterns if pattern.search(title)]
        if not lengths:
            continue
        if rule.always:
            return rule.kind
        key = (-max(lengths), order)
        if best is None or key < best:
            best, chosen = key, rule.kind
    return chosen


@dataclass(frozen=True)
class Strength:
    """The first digit read on the card, and the line it was read in (None: no digit,
    Strength 0)."""

    value: int
    line: str | None = None


def strength(lines: Sequence[tuple[Box, str]]) -> Strength:
    """The Strength of a card whose contact side shows ``lines`` (each a box where its
    text is, in any frame with y down, and the text): the first digit in reading order."""
    for _, text in in_lines(lines, lambda item: item[0]):
        for ch in text:
            if ch.isdigit() and ch.isascii():
                return Strength(int(ch), text)
    return Strength(0)


def clip(text: str, limit: int = 30) -> str:
    """A name or title as an error quotes it: whole, or its start and an ellipsis."""
    return text if len(text) <= limit else text[:limit - 1] + "…"


def same_text(text: str) -> str:
    """Text as two cards are compared: Unicode NFKC, case folded, white space collapsed
    (so "Robin  Vale" and "robin vale" are the same name)."""
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


@dataclass(frozen=True)
class Card:
    """A Corporate Ladder card as the rules see it: who is on it, their title and company,
    its Strength (0–9) and its ability (the text after "CL:", or ""). Its ``type`` follows
    from the title (:func:`card_type`). ``line`` is where a deck file gives it (None when
    it comes from elsewhere), ``where`` the table of an attack file that gives it
    (``attacker[2]``, ``defender``; "" when it comes from elsewhere); neither takes part
    in comparisons."""

    name: str
    title: str
    company: str = ""
    strength: int = 0
    ability: str = ""
    line: int | None = field(default=None, compare=False)
    where: str = field(default="", compare=False)
    type: LadderType = field(init=False, compare=False)

    def __post_init__(self) -> None:
        if isinstance(self.strength, bool) or not isinstance(self.strength, int) \
                or not 0 <= self.strength <= 9:
            raise CardgenError(f"{self.where or shorten(self.name)}: a card's Strength is one "
                               f"digit, 0 to 9, not {repr(self.strength)[:40]}.",
                               value=self.strength)
        object.__setattr__(self, "type", card_type(self.title))

    @property
    def identity(self) -> tuple[str, str, str, int]:
        """What makes two cards the same card (an Evil Twin, a duplicate in a deck): name,
        title and company compared by :func:`same_text`, and the Strength."""
        return (same_text(self.name), same_text(self.title), same_text(self.company),
                self.strength)

    def is_twin(self, other: Card) -> bool:
        return self.identity == other.identity

    @property
    def label(self) -> str:
        """The card as a sentence names it: "Sam Reed (Producer)"."""
        return f"{self.name} ({self.title})" if self.title else self.name

    @property
    def cited(self) -> str:
        """The card as an error names it: where its file gives it, if known, and who it
        is, cut short if long: "attacker[2] (Pat Press)", "Pat Press (Journalist)"."""
        if self.where:
            return f"{self.where} ({clip(self.name)})"
        return f"{clip(self.name)} ({clip(self.title)})" if self.title else clip(self.name)

    @property
    def fighting_strength(self) -> int:
        """The Strength it fights with: a Freelancer's counts half, rounded down."""
        return self.strength // 2 if self.type is LadderType.FREELANCER else self.strength

    def as_json(self) -> dict[str, object]:
        return {"name": self.name, "title": self.title, "company": self.company,
                "strength": self.strength, "type": self.type.value, "ability": self.ability}
