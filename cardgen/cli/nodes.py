"""``cardgen nodes``: the Node games at the terminal (``cardgen nodes play``)."""

from __future__ import annotations

from typing import Annotated

import typer

from cardgen.cli.common import PLAY_JSON, JsonOpt, QuietOpt, UsageError
from cardgen.cli.helptext import CONTEXT
from cardgen.errors import shorten

nodes = typer.Typer(
    name="nodes",
    context_settings=CONTEXT,
    help="The Node games: play Reflector or Deflector against the computer.",
    no_args_is_help=True,
)
SeedOpt = Annotated[int, typer.Option(help="Any 64-bit integer: the seed of the computer "
                                           "players and of r (random placement).")]


@nodes.command()
def play(
    game: Annotated[str, typer.Argument(help="The game to play.", show_default=False)],
    players: Annotated[int, typer.Option(help="Deflector: 3 to 5 players, you and the "
                                              "computer.")] = 3,
    seed: SeedOpt = 1,
    json_out: JsonOpt = False,
    quiet: QuietOpt = False,
) -> None:
    """Play a Node game in the terminal against the computer.

    You are P1; the computer plays the others."""
    from cardgen.cli.common import check_range
    from cardgen.cli.nodes_play import play_game
    from cardgen.cli.together import only_with

    name = game.strip().lower()
    if name == "reflector":
        only_with(["players"], present=False, needs="to deflector (reflector is always two "
                  "players)", fix="play deflector")
        count = 2
    elif name == "deflector":
        check_range(players, "--players", 3, 5)
        count = players
    else:
        raise UsageError(f"GAME must be reflector or deflector, not {shorten(game)}.",
                         field="GAME", value=game)
    check_range(seed, "--seed", -2 ** 63, 2 ** 63 - 1)
    if json_out:
        raise UsageError(PLAY_JSON.format(board="referee GAME --json"), field="--json")
    play_game(name, count, seed)
