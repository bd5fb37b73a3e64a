"""``cardgen ladder ...``: Corporate Ladder, the card game played with business cards."""

from __future__ import annotations

import typer

from cardgen.cli import ladder_print

ladder = typer.Typer(
    name="ladder",
    help="Corporate Ladder, the card game played with business cards: the play mat and "
    "the rules sheet.",
    no_args_is_help=True,
)

ladder.command("mat")(ladder_print.mat)
ladder.command("rules")(ladder_print.rules)
