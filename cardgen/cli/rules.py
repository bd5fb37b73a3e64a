"""``cardgen rules GAME|all``: the rules of a game, or of all six, as a book of half-size
pages in reading order, or imposed as a saddle-stitched booklet."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from cardgen.cli.common import (
    DEFAULT_OUTPUT,
    DPI_RANGE,
    DpiOpt,
    JsonOpt,
    OutputOpt,
    PaperOpt,
    QuietOpt,
    RgbOpt,
    UsageError,
    check_range,
    name_option,
    parse_choice,
    parse_formats,
    parse_offset,
    report,
)
from cardgen.cli.params import as_options
from cardgen.cli.progress import progress
from cardgen.cli.together import dpi_needs_png, only_with
from cardgen.errors import ParameterError


def rules(
    game: Annotated[str, typer.Argument(
        metavar="GAME", help="rotator, reflector, deflector, defector, connector, ladder, "
        "or all (a book of all six with a title page and contents).", show_default=False)],
    paper: PaperOpt = "a4",
    booklet: Annotated[bool, typer.Option(
        "--booklet", help="Impose the pages for a saddle-stitched booklet: two pages a "
        "side, print duplex, fold, staple.")] = False,
    flip: Annotated[str, typer.Option(
        help="--booklet: the edge your printer turns the paper over.")]
    = "short",
    creep: Annotated[float, typer.Option(
        help="--booklet: mm the innermost sheet's pages move toward the fold (0–3).")]
    = 0.0,
    offset: Annotated[str, typer.Option(
        help="--booklet: mm to move the back of each sheet right,down, as measured with "
        "cardgen sheet --registration.")] = "0,0",
    output: OutputOpt = DEFAULT_OUTPUT,
    name: Annotated[str | None, name_option(
        "File name stem of the outputs (default rules-GAME, with -booklet).",
        show_default=False)] = None,
    fmt: Annotated[str, typer.Option("--format", "-f", help="Comma-separated: pdf, svg, "
                                     "png (svg and png: one file per page).")] = "pdf",
    rgb: RgbOpt = False,
    dpi: DpiOpt = 150,
    source: Annotated[Path | None, typer.Option(
        "--source", help="A folder of rules texts (GAME.md) to print instead of cardgen's "
        "own: an edited or translated set.", show_default=False)] = None,
    json_out: JsonOpt = False,
    quiet: QuietOpt = False,
) -> None:
    """Print the rules of a game, or of all six, as a book or a booklet.

    Half-size pages in reading order, with diagrams drawn by cardgen; with --booklet,
    imposed to print duplex, fold and staple."""
    from cardgen.api.rules import Flip, Paper, check_output, make_rules, rules_games

    try:
        games = rules_games(game)
    except ParameterError as exc:  # not one of GAME's choices: a usage error
        raise UsageError(f"GAME: {exc.problem}", field="GAME", value=game) from None
    sheet = parse_choice(Paper, paper, "--paper")
    turn = parse_choice(Flip, flip, "--flip")
    check_range(creep, "--creep", 0.0, 3.0)
    shift = parse_offset(offset)
    formats = parse_formats(fmt)
    check_range(dpi, "--dpi", *DPI_RANGE)
    only_with(["flip", "creep", "offset"], present=booklet, needs="to --booklet",
              fix="add --booklet")
    dpi_needs_png(formats)
    stem = name or f"rules-{game.strip().lower()}" + ("-booklet" if booklet else "")
    with as_options():
        check_output(output, stem)
    with progress("drawing files") as shown, as_options(formats="--format"):
        book = make_rules(games, paper=sheet, booklet=booklet, flip=turn, creep=creep,
                          offset=shift, formats=formats, rgb=rgb, dpi=dpi, source=source,
                          name=stem, progress=shown.update)
    report(book.files.write(output))
    if booklet:
        sheets = book.sheets
        typer.echo(f"{book.pages} pages on {sheets} sheet{'' if sheets == 1 else 's'}: print "
                   f"both sides, flipping on the {turn} edge, at 100 %; fold the stack in "
                   "half and staple on the fold.")
    else:
        pages = book.pages
        typer.echo(f"{pages} page{'' if pages == 1 else 's'}, each half a sheet of "
                   f"{sheet.upper()}.")
