"""Corporate Ladder, the card game played with business cards, as values: check a deck,
decide an attack, make the play mat and the rules sheet.

What ``cardgen ladder deck|attack|mat|rules`` print and write, in memory. A deck is a
CSV file (a :class:`~pathlib.Path`), the CSV text of one, a list of rows (each a mapping
from column to value: ``name``, ``title``, ``company``, ``strength`` or ``text``,
``ability``) or a list of :class:`~cardgen.ladder.cards.Card`; an attack a TOML file,
its text, or that TOML read into a mapping::

    from cardgen.api.ladder import check_deck, decide_attack

    deck = check_deck(Path("deck.csv"))
    print(deck.valid, deck.types, deck.codes)
    print(decide_attack(Path("attack.toml")).winner)

Bad input raises :class:`~cardgen.errors.ConfigError` (each problem with its line,
column and code); an attack the rules refuse raises one of :data:`REFUSALS`.
"""

from __future__ import annotations

import textwrap
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cardgen.api.common import DPI_RANGE, Steps, choice, format_list, in_range
from cardgen.api.common import check_output_folder as check_output
from cardgen.api.common import file_stem as check_name
from cardgen.errors import CardgenError, ParameterError, Problem, number, one_line
from cardgen.ladder.attack import ForbiddenTeam, NoDefence, NotAttackable
from cardgen.ladder.cards import Card

if TYPE_CHECKING:
    from cardgen.api.files import Files
    from cardgen.datafile import CsvTable
    from cardgen.ladder.attack import Verdict
    from cardgen.ladder.deck import DeckProblem, DeckReport
    from cardgen.physical.card import Preset
    from cardgen.prepress.paper import Paper
    from cardgen.render import Format

    DeckInput = Path | str | Sequence[Mapping[str, object]] | Sequence[Card]
    AttackInput = Path | str | Mapping[str, Any]
    Formats = Sequence[Format | str] | Format | str

__all__ = [
    "MAT_ROWS",
    "REFUSALS",
    "TABLE_WIDTH",
    "AttackVerdict",
    "Card",
    "DeckCheck",
    "ForbiddenTeam",
    "LadderSheets",
    "NoDefence",
    "NotAttackable",
    "check_deck",
    "check_name",
    "check_output",
    "decide_attack",
    "deck_table",
    "ladder_mat",
    "ladder_rules",
    "papers",
    "presets",
]

# The errors of an attack the rules refuse (a forbidden team, a Press card attacked, a
# counter-attack on the Cooperative Trio): the command line's exit status 4.
REFUSALS: tuple[type[CardgenError], ...] = (ForbiddenTeam, NotAttackable, NoDefence)
MAT_ROWS = (3, 4)  # 6 cards on one sheet, or 10 on two sheets glued together
TABLE_WIDTH = 80  # the terminal columns the table of a deck's cards fits in


def presets() -> tuple[Preset, ...]:
    """The card sizes the mat is drawn for: eu (85 × 55 mm) and us (3.5 × 2 in).

    Example:
        >>> [preset.value for preset in presets()]
        ['eu', 'us']
    """
    from cardgen.physical.card import Preset

    return tuple(Preset)


def papers() -> tuple[Paper, ...]:
    """The paper sizes the mat and the rules sheet are printed on.

    Example:
        >>> "a4" in [paper.value for paper in papers()]
        True
    """
    from cardgen.prepress.paper import Paper

    return tuple(Paper)


# --- the deck -----------------------------------------------------------------------------


def _deck_table(path: Path) -> CsvTable:
    """The one place a deck file is read (a spreadsheet reader goes here)."""
    from cardgen.datafile import read_table

    return read_table(path, "deck file", partial=True)


def _rows_table(items: Sequence[object]) -> CsvTable:
    """Rows given as mappings, as the table a CSV file of them would be (a header on
    line 1, a row a line)."""
    from cardgen.datafile import CsvRow, CsvTable

    columns: dict[str, None] = {}
    rows: list[Mapping[object, object]] = []
    for i, row in enumerate(items, 1):
        if not isinstance(row, Mapping):
            raise ParameterError("deck", f"row {i} must be a mapping of column to value, "
                                 f"or a Card, not {type(row).__name__}.", value=row)
        rows.append(row)
        columns.update(dict.fromkeys(str(key).strip() for key in row))
    return CsvTable(tuple(columns), tuple(
        CsvRow(i, {str(k).strip(): "" if v is None else str(v) for k, v in row.items()})
        for i, row in enumerate(rows, 2)))


def _team_cards(path: Path, config: Path | None, progress: Steps | None) -> list[Card]:
    """The Corporate Ladder cards of a people file, as ``cardgen card --batch`` prints
    them over ``config``: type, Strength and ability of each printed card."""
    from cardgen.card.batch import build_team
    from cardgen.prepress.dieline import DielineMode

    cards = []
    for team_card in build_team(path, config, DielineMode.LAYER, progress=progress):
        person = team_card.person.config.person
        ladder = team_card.build.ladder
        cards.append(Card(person.name, person.title, person.company,
                          ladder.strength.value if ladder else 0,
                          team_card.person.config.ability, line=team_card.person.line))
    return cards


def _cards(deck: DeckInput | None, config: Path | str | None, label: str,
           progress: Steps | None) -> list[Card]:
    from cardgen.datafile import parse_csv, path_text
    from cardgen.ladder.deck import deck_from_table, example_deck

    if deck is None:
        deck = example_deck()
    if config is not None and not isinstance(config, Path | str):
        raise ParameterError("config", f"must be a card config's path, not "
                             f"{type(config).__name__}.", value=config)
    if isinstance(deck, Path):
        if config is not None:
            return _team_cards(deck, Path(config), progress)
        table = _deck_table(deck)
        columns = {c.casefold() for c in table.columns}
        if "person.name" in columns and not columns & {"strength", "text"}:
            return _team_cards(deck, None, progress)  # a people file: the printed cards
        return deck_from_table(table, path_text(deck))
    if config is not None:
        raise ParameterError("config", "goes with a people file given as a Path (its cards "
                             "are printed to read their Strength).", value=config)
    if isinstance(deck, str):
        return deck_from_table(parse_csv(deck, label, partial=True), label)
    if isinstance(deck, Sequence):
        items: list[object] = list(deck)
        cards = [card for card in items if isinstance(card, Card)]
        if items and len(cards) == len(items):
            return cards
        return deck_from_table(_rows_table(items), label)
    raise ParameterError("deck", "must be a Path, CSV text, a list of rows or a list of "
                         f"cards, not {type(deck).__name__}.", value=deck)


@dataclass(frozen=True)
class DeckCheck:
    """A deck checked against the deck rules (see :func:`check_deck`): ``valid`` when it
    keeps them; ``problems`` every rule broken, each a :class:`~cardgen.errors.Problem`
    with its :class:`~cardgen.ladder.deck.DeckProblem` code (``codes``); ``cards`` how
    many; ``types`` how many of each type (every type, by name); ``deck`` the cards in
    the order given, each with the type and Strength it plays with."""

    valid: bool
    cards: int
    types: Mapping[str, int]
    problems: tuple[Problem, ...]
    codes: tuple[DeckProblem, ...]
    deck: tuple[Card, ...]
    report: DeckReport = field(repr=False, compare=False)  # the checker's own

    def as_json(self) -> dict[str, object]:
        """The check as ``cardgen ladder deck --json`` gives it."""
        return self.report.as_json()

    def table(self, width: int = TABLE_WIDTH) -> list[str]:
        """The cards, a line each (see :func:`deck_table`)."""
        return deck_table(self.deck, width)

    def lines(self, width: int = TABLE_WIDTH) -> list[str]:
        """The check as ``cardgen ladder deck`` prints it: the table of cards, how many
        of each type, and valid or every broken rule."""
        table = self.table(width)
        out = [*table, *([""] if table else [])]
        widest = max(len(kind) for kind in self.types)
        out += [f"{kind:<{widest}}  {count:>4}" for kind, count in self.types.items()]
        out.append(f"{'total':<{widest}}  {self.cards:>4}")
        if self.valid:
            out.append("valid")
        else:
            out.append(f"not valid ({len(self.problems)} problem"
                       f"{'' if len(self.problems) == 1 else 's'}):")
            out += [f"- {problem}" for problem in self.problems]
        return out


def check_deck(deck: DeckInput | None = None, *, config: Path | str | None = None,
               label: str = "deck", progress: Steps | None = None) -> DeckCheck:
    """Check a deck against the deck rules.

    Args:
        deck: a CSV file (:class:`~pathlib.Path`), CSV text, a list of rows (mappings
            from column to value), or a list of cards; None for the example deck
            cardgen ships. A people file of ``cardgen card --batch`` (a ``person.name``
            column and no Strength) is read from its printed cards.
        config: with a people file, the card config its cards share: each row's card is
            laid out as ``cardgen card --batch`` prints it, and its Strength read from
            the printed card.
        label: what errors call text or rows (a file is named by its path).
        progress: told ``(cards laid out, cards)`` while a people file's cards are laid
            out.

    Returns:
        A :class:`DeckCheck`.

    Raises:
        ConfigError: a deck that cannot be read, naming every bad column and row (by
            line and column), each with its code.
        InputFileError: a file that cannot be read.
        ParameterError: a ``deck`` or ``config`` of another type.

    Example:
        >>> check_deck().valid
        True
    """
    from cardgen.ladder.deck import check_deck as judge

    report = judge(_cards(deck, config, label, progress))
    return DeckCheck(valid=report.valid, cards=report.cards,
                     types={kind.value: n for kind, n in report.types.items()},
                     problems=tuple(report.problems), codes=report.codes,
                     deck=tuple(report.deck), report=report)


_HEADERS = ("line", "name", "title", "company", "type", "strength")
_SHRINK = (1, 2, 3)  # the columns cut short (name, title, company) to fit
FIGHTS_NOTE = "(n): a Freelancer fights with half its Strength, rounded down."


def deck_table(cards: Sequence[Card], width: int = TABLE_WIDTH) -> list[str]:
    """The cards of a deck, a line each, as ``cardgen ladder deck`` prints them before
    the count by type: where the file gives the card (its line), who is on it, and what
    decides its play: type, Strength (for a Freelancer, then the half it fights with in
    brackets, explained in a note under the table) and, after the table, the abilities
    in full. Every line is at most ``width`` terminal columns (a wide character counts
    two): the widest of name, title and company is cut short with "…" until the table
    fits (the company column is left out when no card has one); an ability's words are
    wrapped. No cards, no table.

    Example:
        >>> deck_table([Card("Ada", "CEO", strength=7)])[1]
        '   1  Ada   CEO    Upper Management  7'
    """
    if not cards:
        return []
    rows = [_HEADERS] + [(
        str(card.line if card.line is not None else n), _cell(card.name),
        _cell(card.title), _cell(card.company), card.type.value,
        str(card.strength) + (f" ({card.fighting_strength})"
                              if card.fighting_strength != card.strength else ""))
        for n, card in enumerate(cards, 1)]
    shown = [i for i in range(len(_HEADERS)) if i != 3 or any(row[3] for row in rows[1:])]
    widths = {i: max(_columns(row[i]) for row in rows) for i in shown}
    room = width - 2 * (len(shown) - 1)
    while sum(widths.values()) > room:
        cut = [i for i in _SHRINK if i in widths and widths[i] > len(_HEADERS[i])]
        if not cut:
            break
        widest = max(cut, key=lambda i: (widths[i], i))
        widths[widest] -= 1
    lines = ["  ".join(_fit(row[i], widths[i], right=i == 0) for i in shown).rstrip()
             for row in rows]
    if any(card.fighting_strength != card.strength for card in cards):
        lines.append(FIGHTS_NOTE)
    for n, card in enumerate(cards, 1):
        if card.ability:
            where = f"line {card.line}" if card.line is not None else f"card {n}"
            lines += textwrap.wrap(f"{where}, {_cell(card.name)}: CL: {_cell(card.ability)}",
                                   width, subsequent_indent="    ", break_on_hyphens=False)
    return lines


def _cell(text: str) -> str:
    """A card's text on one line of the table: white space (line breaks of an ability
    too) as single spaces, anything else that could break the line escaped."""
    return one_line(" ".join(text.split()))


def _char_columns(ch: str) -> int:
    if unicodedata.combining(ch) or unicodedata.category(ch) in ("Mn", "Me", "Cf"):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def _columns(text: str) -> int:
    """How many terminal columns ``text`` takes."""
    return sum(map(_char_columns, text))


def _fit(text: str, width: int, *, right: bool = False) -> str:
    """``text`` in exactly ``width`` terminal columns: padded, or cut short with "…"."""
    if _columns(text) > width:
        kept, used = [], 0
        for ch in text:
            used += _char_columns(ch)
            if used > width - 1:
                break
            kept.append(ch)
        text = "".join(kept) + "…"
    pad = " " * (width - _columns(text))
    return pad + text if right else text + pad


# --- an attack ----------------------------------------------------------------------------


@dataclass(frozen=True)
class AttackVerdict:
    """Who won an attack (see :func:`decide_attack`): ``winner`` ("attacker" or
    "defender"), whether the defender may now defend (counter-attack the attackers),
    the ``rule`` that decided with its ``code`` (``D1``…), the ``reason`` in one
    sentence, the Strengths compared when Strength decided, and the cards of a defending
    team that Evil Twins took out (``removed``)."""

    winner: str
    defence_allowed: bool
    reason: str
    rule: str
    code: str
    attack_strength: int | None
    defence_strength: int | None
    removed: tuple[Card, ...]
    verdict: Verdict = field(repr=False, compare=False)  # the rules' own

    def as_json(self) -> dict[str, object]:
        """The verdict as ``cardgen ladder attack --json`` gives it."""
        return self.verdict.as_json()

    def lines(self) -> list[str]:
        """The verdict as ``cardgen ladder attack`` prints it."""
        out = [f"the {self.winner} wins", self.reason]
        if self.removed:
            out.append("taken out by Evil Twins: " + ", ".join(c.label for c in self.removed))
        if self.winner == "defender":
            out.append("the attack fails; nothing to defend")
        elif self.defence_allowed:
            out.append("the defender may defend (counter-attack the attackers)")
        else:
            out.append("the defender may not defend")
        return out


def decide_attack(attack: AttackInput | None = None, *, label: str = "attack"
                  ) -> AttackVerdict:
    """Decide an attack: who wins, and may the defender defend?

    Args:
        attack: an attack file (:class:`~pathlib.Path`; TOML: ``[[attacker]]`` cards and
            a ``[defender]``, or for a counter-attack the attacking team as
            ``[[defender]]`` cards), its TOML text, or that TOML read into a mapping;
            None for the example attack cardgen ships.
        label: what errors call text or a mapping (a file is named by its path).

    Returns:
        An :class:`AttackVerdict`.

    Raises:
        ForbiddenTeam, NotAttackable, NoDefence: the rules refuse the attack (a
            forbidden team, a Press card attacked, a counter-attack on the Cooperative
            Trio); all in :data:`REFUSALS`, all :class:`~cardgen.errors.CardgenError`.
        ConfigError: an attack that breaks its schema, naming every bad field.
        InputFileError: a file that cannot be read.

    Example:
        >>> decide_attack().winner
        'attacker'
    """
    from cardgen.ladder.attack import attack_from_data, decide, example_attack, read_attack

    if attack is None or isinstance(attack, Path):
        given = read_attack(attack or example_attack())
    elif isinstance(attack, str):
        from cardgen.datafile import parse_toml

        given = attack_from_data(parse_toml(attack, label), label)
    elif isinstance(attack, Mapping):
        given = attack_from_data(dict(attack), label)
    else:
        raise ParameterError("attack", "must be a Path, TOML text or a mapping, not "
                             f"{type(attack).__name__}.", value=attack)
    verdict = decide(given.attackers, given.defender, source=given.source)
    return AttackVerdict(winner=verdict.winner.value, defence_allowed=verdict.defence_allowed,
                         reason=verdict.reason, rule=verdict.rule.value,
                         code=verdict.rule.code, attack_strength=verdict.attack_strength,
                         defence_strength=verdict.defence_strength,
                         removed=tuple(verdict.removed), verdict=verdict)


# --- the play mat and the rules sheet -----------------------------------------------------


@dataclass(frozen=True)
class LadderSheets:
    """The print files of the play mat or the rules sheet (``files``: ``NAME.pdf``, and
    ``NAME-N.svg``/``.png`` a page each), and how many ``sheets`` of paper they are."""

    files: Files
    sheets: int
    advice: tuple[str, ...] = ()  # how to print them, as ``cardgen ladder mat`` says it


def _print_files(make: Any, name: str, formats: Formats, rgb: bool, dpi: float,
                 progress: Steps | None) -> tuple[Files, int]:
    from cardgen.api.common import document_files

    kinds = format_list(formats)
    in_range(dpi, "dpi", *DPI_RANGE)
    check_name(name)
    document = make()
    return (document_files(document, name, kinds, rgb=rgb, dpi=dpi, progress=progress),
            len(document.pages))


def ladder_mat(rows: int = 3, *, preset: Preset | str = "eu", paper: Paper | str = "a4",
               formats: Formats = "pdf", rgb: bool = False, dpi: float = 150,
               name: str = "ladder-mat", progress: Steps | None = None) -> LadderSheets:
    """A Corporate Ladder play mat at the cards' size: the pyramid's places, each the
    size of a card.

    Args:
        rows: 3 (6 cards, one landscape sheet) or 4 (10 cards, on two sheets to glue
            together).
        preset: the cards' size, eu (85 × 55 mm) or us (3.5 × 2 in).
        paper: the paper size (a4, letter …).
        formats: pdf, svg and/or png (svg and png: a file per page).
        rgb: RGB colours for screens instead of CMYK.
        dpi: the PNG resolution (36–1200).
        name: the files' name stem.
        progress: told ``(files made, files)`` as the files are made.

    Returns:
        :class:`LadderSheets`: the files, the sheets and how to print them.

    Raises:
        ParameterError: a parameter outside its domain.

    Example:
        >>> list(ladder_mat().files)
        ['ladder-mat.pdf']
    """
    from cardgen.ladder.mat import mat_document
    from cardgen.text.fonts import bundled_fonts

    if isinstance(rows, bool) or rows not in MAT_ROWS:
        raise ParameterError("rows", f"must be 3 or 4, not "
                             f"{number(rows) if isinstance(rows, int) else repr(rows)}.",
                             value=rows)
    size = choice(presets(), preset, "preset")
    sheet = choice(papers(), paper, "paper")
    files, sheets = _print_files(lambda: mat_document(rows, size, sheet, bundled_fonts()),
                                 name, formats, rgb, dpi, progress)
    advice = (f"{sheets} sheets: print at 100 %, then cut sheet 2 along its solid line and "
              "glue it onto sheet 1's strip." if sheets > 1
              else "1 sheet, landscape: print at 100 %.")
    return LadderSheets(files, sheets, (advice,))


def ladder_rules(*, paper: Paper | str = "a4", formats: Formats = "pdf", rgb: bool = False,
                 dpi: float = 150, name: str = "ladder-rules",
                 progress: Steps | None = None) -> LadderSheets:
    """The Corporate Ladder rules on one page.

    Args:
        paper: the paper size (a4, letter …).
        formats: pdf, svg and/or png (svg and png: a file per page).
        rgb: RGB colours for screens instead of CMYK.
        dpi: the PNG resolution (36–1200).
        name: the files' name stem.
        progress: told ``(files made, files)`` as the files are made.

    Returns:
        :class:`LadderSheets` with the files.

    Raises:
        ParameterError: a parameter outside its domain.

    Example:
        >>> list(ladder_rules(formats=["pdf", "svg"]).files)
        ['ladder-rules.pdf', 'ladder-rules.svg']
    """
    from cardgen.rules.ladder import rules_document
    from cardgen.text.fonts import bundled_fonts

    sheet = choice(papers(), paper, "paper")
    files, sheets = _print_files(lambda: rules_document(sheet, bundled_fonts()), name,
                                 formats, rgb, dpi, progress)
    return LadderSheets(files, sheets)
