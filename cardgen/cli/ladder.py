"""``cardgen ladder ...``: Corporate Ladder, the card game played with business cards:
check a deck, decide an attack, print the play mat and the rules sheet.

A DECK is a CSV file of cards, an ATTACK a TOML file (see ``cardgen.ladder.deck`` and
``cardgen.ladder.attack``); without one, the example cardgen ships is used.
"""

from __future__ import annotations

import textwrap
import unicodedata
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from cardgen.cli import ladder_print
from cardgen.cli.common import JsonOpt, QuietOpt, Refused, emit, plural
from cardgen.cli.helptext import CONTEXT
from cardgen.cli.progress import progress
from cardgen.errors import CHECK_STATUS, one_line

if TYPE_CHECKING:
    from cardgen.ladder.cards import Card

ladder = typer.Typer(
    name="ladder",
    context_settings=CONTEXT,
    help="Corporate Ladder: check a deck, decide an attack, print a mat.",
    no_args_is_help=True,
)



@ladder.command()
def deck(
    path: Annotated[Path | None, typer.Argument(
        metavar="DECK", help="The deck (CSV, .xlsx, .ods: name, title, company, strength or text). "
        "Without it, the example deck cardgen ships.", show_default=False)] = None,
    json_out: JsonOpt = False,
    config: Annotated[Path | None, typer.Option(
        "--config", help="For a people file of cardgen card --batch: the config its cards "
        "share. Each row's card is then laid out as cardgen card --batch prints it, and "
        "its Strength read from the printed card.", show_default=False)] = None,
    quiet: QuietOpt = False,
) -> None:
    """Check a deck against the deck rules.

    Each card with its type and Strength, every broken rule, and how many cards of each
    type. Exit 0 when the deck keeps the rules, 4 when it does not (1: a file that
    cannot be read)."""
    from cardgen.ladder.deck import check_deck, example_deck, printed_cards_only, read_deck

    source = path or example_deck()
    if config is not None or printed_cards_only(source):
        with progress("laying out cards", json=json_out) as shown:
            cards = _team_deck(source, config, shown.update)
    else:
        cards = read_deck(source)
    result = check_deck(cards)
    if json_out:
        emit(result.as_json())
    else:
        table = deck_table(result.deck)
        for line in table:
            typer.echo(line)
        if table:
            typer.echo()
        width = max(len(kind.value) for kind in result.types)
        for kind, count in result.types.items():
            typer.echo(f"{kind.value:<{width}}  {count:>4}")
        typer.echo(f"{'total':<{width}}  {result.cards:>4}")
        if result.valid:
            typer.echo("valid")
        else:
            typer.echo(f"not valid ({plural(len(result.problems), 'problem')}):")
            for problem in result.problems:
                typer.echo(f"- {problem}")
    if not result.valid:
        raise typer.Exit(CHECK_STATUS)


TABLE_WIDTH = 80  # the terminal columns the table of cards fits in
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
    wrapped. No cards, no table."""
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


def _team_deck(path: Path, config: Path | None,
               step: Callable[[int, int], None] | None = None) -> list[Card]:
    """The Corporate Ladder cards of a people file, as ``cardgen card --batch`` would
    print them over ``config``: type, Strength and ability of each printed card
    (``step(laid out, cards)`` told as they are laid out)."""
    from cardgen.card.batch import build_team
    from cardgen.ladder.cards import Card
    from cardgen.prepress.dieline import DielineMode

    cards = []
    for team_card in build_team(path, config, DielineMode.LAYER, progress=step):
        person = team_card.person.config.person
        ladder = team_card.build.ladder
        cards.append(Card(person.name, person.title, person.company,
                          ladder.strength.value if ladder else 0,
                          team_card.person.config.ability, line=team_card.person.line))
    return cards


@ladder.command()
def attack(
    path: Annotated[Path | None, typer.Argument(
        metavar="ATTACK", help="The attack (TOML: [[attacker]] cards and a [defender]; "
        "for a counter-attack, the attacking team as [[defender]] cards). Without it, the "
        "example attack cardgen ships.", show_default=False)] = None,
    json_out: JsonOpt = False,
    quiet: QuietOpt = False,
) -> None:
    """Decide an attack: who wins, and may the defender defend?

    Who wins by which rule. Exit 0 when it is decided; 4 when the rules refuse it (a
    forbidden team, a Press card attacked, or a counter-attack on the Cooperative Trio,
    whose attack allows no defence); 1 for a bad file."""
    from cardgen.ladder.attack import (
        ForbiddenTeam,
        NoDefence,
        NotAttackable,
        decide,
        example_attack,
        read_attack,
    )

    try:
        given = read_attack(path or example_attack())
        verdict = decide(given.attackers, given.defender, source=given.source)
    except (ForbiddenTeam, NotAttackable, NoDefence) as exc:  # the rules refuse it: exit 4
        raise Refused(str(exc), value=exc.value) from None
    if json_out:
        emit(verdict.as_json())
        return
    typer.echo(f"the {verdict.winner.value} wins")
    typer.echo(verdict.reason)
    if verdict.removed:
        typer.echo("taken out by Evil Twins: " + ", ".join(c.label for c in verdict.removed))
    if verdict.winner.value == "defender":
        typer.echo("the attack fails; nothing to defend")
    elif verdict.defence_allowed:
        typer.echo("the defender may defend (counter-attack the attackers)")
    else:
        typer.echo("the defender may not defend")


ladder.command("mat")(ladder_print.mat)
ladder.command("rules")(ladder_print.rules)
