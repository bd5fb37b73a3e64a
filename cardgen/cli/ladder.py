"""``cardgen ladder ...``: Corporate Ladder, the card game played with business cards:
check a deck, decide an attack, print the play mat and the rules sheet.

A DECK is a CSV file of cards, an ATTACK a TOML file (see ``cardgen.ladder.deck`` and
``cardgen.ladder.attack``); without one, the example cardgen ships is used.
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from cardgen.cli import ladder_print
from cardgen.cli.common import JsonOpt, QuietOpt, Refused, emit
from cardgen.cli.helptext import CONTEXT
from cardgen.cli.progress import progress
from cardgen.errors import CHECK_STATUS

if TYPE_CHECKING:
    from cardgen.cli.progress import Progress

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
    from cardgen.api.ladder import check_deck

    with contextlib.ExitStack() as stack:
        shown: list[Progress] = []

        def step(done: int, total: int) -> None:
            """A people file's cards laid out: the progress line, from the first card."""
            if not shown:
                shown.append(stack.enter_context(progress("laying out cards", json=json_out)))
            shown[0].update(done, total)

        result = check_deck(path, config=config, progress=step)
    if json_out:
        emit(result.as_json())
    else:
        for line in result.lines():
            typer.echo(line)
    if not result.valid:
        raise typer.Exit(CHECK_STATUS)


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
    from cardgen.api.ladder import REFUSALS, decide_attack

    try:
        verdict = decide_attack(path)
    except REFUSALS as exc:  # the rules refuse it: exit 4
        raise Refused(str(exc), value=exc.value) from None
    if json_out:
        emit(verdict.as_json())
        return
    for line in verdict.lines():
        typer.echo(line)


ladder.command("mat")(ladder_print.mat)
ladder.command("rules")(ladder_print.rules)
