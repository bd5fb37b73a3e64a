"""``cardgen playsheet GAME``: play sheets for Reflector, Deflector and Defector when a
table has fewer cards than players (see ``cardgen.games.nodes.playsheet``)."""

from __future__ import annotations

from typing import Annotated

import typer

from cardgen.cli.common import (
    DEFAULT_OUTPUT,
    DPI_RANGE,
    DpiOpt,
    JsonOpt,
    OutputOpt,
    PagesFormatOpt,
    PaperOpt,
    QuietOpt,
    RgbOpt,
    UsageError,
    check_range,
    name_option,
    parse_choice,
    parse_formats,
    plural,
    report,
    warn,
)
from cardgen.cli.params import as_options
from cardgen.cli.progress import progress
from cardgen.cli.together import dpi_needs_png
from cardgen.errors import ParameterError


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
    from cardgen.api.rules import Paper, Preset, check_output, make_playsheet

    size = parse_choice(Preset, preset, "--preset")
    sheet = parse_choice(Paper, paper, "--paper")
    formats = parse_formats(fmt)
    check_range(dpi, "--dpi", *DPI_RANGE)
    dpi_needs_png(formats)
    check_output(output)
    try:
        with progress("drawing files") as shown, as_options(formats="--format"):
            made = make_playsheet(game, players, paper=sheet, preset=size, formats=formats,
                                  rgb=rgb, dpi=dpi, name=name, progress=shown.update)
    except ParameterError as exc:
        if exc.parameter != "--game":
            raise
        # not one of GAME's choices: a usage error
        raise UsageError(f"GAME: the game {exc.problem}", field="GAME", value=game) from None
    report(made.files.write(output))
    count, tables = made.players, made.table_pages
    typer.echo(f"{plural(count, 'player')}: a page each"
               + (f", and {plural(tables, 'table page')}" if tables else "")
               + "; print at 100 %.")
    warn(made.warnings)
