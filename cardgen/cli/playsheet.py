"""``cardgen playsheet GAME``: play sheets for Reflector, Deflector and Defector when a
table has fewer cards than players (see ``cardgen.games.nodes.playsheet``)."""

from __future__ import annotations

from typing import Annotated

import typer

from cardgen.cli.common import (
    DEFAULT_OUTPUT,
    DpiOpt,
    JsonOpt,
    OutputOpt,
    PagesFormatOpt,
    PaperOpt,
    QuietOpt,
    RgbOpt,
    UsageError,
    name_option,
    parse_choice,
    plural,
    warn,
    write_document,
)
from cardgen.errors import CardgenError


def playsheet(
    game: Annotated[str, typer.Argument(
        metavar="GAME", help="reflector (2 players), deflector (3–5) or defector (6–12).",
        show_default=False)],
    players: Annotated[int | None, typer.Option(
        help="How many players (default: the fewest the game takes).",
        show_default=False)] = None,
    paper: PaperOpt = "a4",
    preset: Annotated[str, typer.Option(help="The cards' size, which sets the grid squares: "
                                        "eu (85 × 55 mm) or us (3.5 × 2 in).")] = "eu",
    output: OutputOpt = DEFAULT_OUTPUT,
    name: Annotated[str | None, name_option(
        "File name stem of the outputs (default: playsheet-GAME).",
        show_default=False)] = None,
    fmt: PagesFormatOpt = "pdf",
    rgb: RgbOpt = False,
    dpi: DpiOpt = 150,
    json_out: JsonOpt = False,
    quiet: QuietOpt = False,
) -> None:
    """Print grids and tallies per player, for a table short of cards.

    A Private and a Public grid per player at the card's grid size, the tallies of the
    Node games, and for Deflector and Defector the table arrangements for that many
    players."""
    from cardgen.games.nodes.model import deflectors
    from cardgen.games.nodes.playsheet import (
        check_players,
        parse_game,
        playsheet_document,
        printed,
        table_arrangements,
    )
    from cardgen.physical.card import Preset
    from cardgen.prepress.paper import Paper
    from cardgen.text.fonts import bundled_fonts

    try:
        chosen = parse_game(game)
    except CardgenError as exc:  # not one of GAME's choices: a usage error
        raise UsageError(f"GAME: {exc}", field="GAME", value=game) from None
    count = check_players(chosen, players)
    size = parse_choice(Preset, preset, "--preset")
    sheet = parse_choice(Paper, paper, "--paper")
    document = write_document(
        lambda: playsheet_document(chosen, count, size, sheet, bundled_fonts()), output,
        name if name is not None else f"playsheet-{chosen}", fmt, rgb=rgb, dpi=dpi)
    tables = len(document.pages) - count
    typer.echo(f"{plural(count, 'player')}: a page each"
               + (f", and {plural(tables, 'table page')}" if tables else "")
               + "; print at 100 %.")
    if deflectors(chosen) and not table_arrangements(chosen, count):
        warn([f"cardgen has no table arrangement of {printed(chosen)} for {count} players "
              "(templates/tables/arrangements.toml); lay the Public grids with Row 1 "
              "towards the middle of the table."])
