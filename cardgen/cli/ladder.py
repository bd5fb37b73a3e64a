"""``cardgen ladder ...``: Corporate Ladder, the card game played with business cards:
check a deck, decide an attack, print the play mat and the rules sheet.

A DECK is a CSV file of cards, an ATTACK a TOML file (see ``cardgen.ladder.deck`` and
``cardgen.ladder.attack``); without one, the example cardgen ships is used.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from cardgen.cli import ladder_print
from cardgen.cli.common import JsonOpt, plural
from cardgen.cli.progress import progress

if TYPE_CHECKING:
    from cardgen.ladder.cards import Card

ladder = typer.Typer(
    name="ladder",
    help="Corporate Ladder, the card game played with business cards: check a deck, "
    "decide an attack, print the play mat and the rules sheet.",
    no_args_is_help=True,
)



@ladder.command()
def deck(
    path: Annotated[Path | None, typer.Argument(
        metavar="DECK", help="The deck (CSV: name, title, company, strength or text). "
        "Without it, the example deck cardgen ships.", show_default=False)] = None,
    json_out: JsonOpt = False,
    config: Annotated[Path | None, typer.Option(
        "--config", help="For a people file of cardgen card --batch: the config its cards "
        "share. Each row's card is then laid out as cardgen card --batch prints it, and "
        "its Strength read from the printed card.", show_default=False)] = None,
) -> None:
    """Does the deck keep the deck rules? Every broken rule, and the cards of each type.
    Exit 0 when it does, 1 when it does not."""
    from cardgen.ladder.deck import check_deck, example_deck, printed_cards_only, read_deck

    source = path or example_deck()
    if config is not None or printed_cards_only(source):
        with progress("laying out cards", json=json_out) as shown:
            cards = _team_deck(source, config, shown.update)
    else:
        cards = read_deck(source)
    result = check_deck(cards)
    if json_out:
        typer.echo(json.dumps(result.as_json(), indent=2, ensure_ascii=False))
    else:
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
        raise typer.Exit(1)


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
        metavar="ATTACK", help=r"The attack (TOML: \[\[attacker]] cards and a \[defender]; "
        r"for a counter-attack, the attacking team as \[\[defender]] cards). Without it, the "
        "example attack cardgen ships.", show_default=False)] = None,
    json_out: JsonOpt = False,
) -> None:
    """Who wins the attack, by which rule, and whether the defender may defend. Exit 0
    when it is decided; 1 for a bad file, a forbidden team, a Press card attacked, or a
    counter-attack on the Cooperative Trio (a Trio's attack allows no defence)."""
    from cardgen.ladder.attack import decide, example_attack, read_attack

    given = read_attack(path or example_attack())
    verdict = decide(given.attackers, given.defender, source=given.source)
    if json_out:
        typer.echo(json.dumps(verdict.as_json(), indent=2, ensure_ascii=False))
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
