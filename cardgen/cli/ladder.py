"""``cardgen ladder ...``: the Corporate Ladder referee: check a deck, decide an attack.

A DECK is a CSV file of cards, an ATTACK a TOML file (see ``cardgen.ladder.deck`` and
``cardgen.ladder.attack``); without one, the example cardgen ships is used.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from cardgen.cli.common import plural

ladder = typer.Typer(
    name="ladder",
    help="Corporate Ladder, the card game played with business cards: check a deck, "
    "decide an attack.",
    no_args_is_help=True,
)

JsonOpt = Annotated[bool, typer.Option("--json", help="Machine-readable output on stdout.")]


@ladder.command()
def deck(
    path: Annotated[Path | None, typer.Argument(
        metavar="DECK", help="The deck (CSV: name, title, company, strength or text). "
        "Without it, the example deck cardgen ships.", show_default=False)] = None,
    json_out: JsonOpt = False,
) -> None:
    """Does the deck keep the deck rules? Every broken rule, and the cards of each type.
    Exit 0 when it does, 1 when it does not."""
    from cardgen.ladder.deck import check_deck, example_deck, read_deck

    result = check_deck(read_deck(path or example_deck()))
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


@ladder.command()
def attack(
    path: Annotated[Path | None, typer.Argument(
        metavar="ATTACK", help="The attack (TOML: [[attacker]] cards and a [defender]). "
        "Without it, the example attack cardgen ships.", show_default=False)] = None,
    json_out: JsonOpt = False,
) -> None:
    """Who wins the attack, by which rule, and whether the defender may defend."""
    from cardgen.ladder.attack import decide, example_attack, read_attack

    given = read_attack(path or example_attack())
    verdict = decide(given.attackers, given.defender)
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
