"""``cardgen rules GAME|all``: the rules of a game, or of all six, as a book of half-size
pages in reading order, or imposed as a saddle-stitched booklet."""

from __future__ import annotations

import stat
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
from cardgen.cli.progress import progress
from cardgen.cli.together import dpi_needs_png, only_with
from cardgen.datafile import look
from cardgen.errors import CardgenError, InputFileError, shorten
from cardgen.games.names import RULES_GAMES, GameName
from cardgen.schema import closest

ALL = "all"
GAMES = tuple(g.value for g in RULES_GAMES)


def parse_game(value: str) -> list[str]:
    """The games GAME names: one, or all six; an unknown name gets the closest one."""
    word = value.strip().lower()
    if word == ALL:
        return list(GAMES)
    if word in GAMES:
        return [word]
    hint = closest(word, [*GAMES, ALL], [*GAMES, ALL])
    raise UsageError(f"GAME: there are no rules for {shorten(value)}{hint}", field="GAME",
                     value=value)


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
    from cardgen.output import check_folder, check_stem, write_set
    from cardgen.prepress.impose import Flip
    from cardgen.prepress.paper import Paper
    from cardgen.render import render_files
    from cardgen.rules.book import book_document
    from cardgen.text.fonts import bundled_fonts

    games = [GameName(g) for g in parse_game(game)]
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
    check_stem(stem)
    check_folder(output)
    if source is not None:
        found = look(source, "rules folder", where="--source")
        if found is None or not stat.S_ISDIR(found.st_mode):
            raise CardgenError(f"--source: {shorten(str(source))} is not a folder of rules "
                               "texts.", value=source)
    fonts = bundled_fonts()
    try:
        document = book_document(games, sheet, fonts, folder=source)
    except InputFileError as exc:  # a rules text of the --source folder
        if source is None:
            raise
        raise CardgenError(f"--source: {exc}", value=exc.value) from None
    pages = len(document.pages)
    if booklet:
        from cardgen.prepress.booklet import impose_booklet
        from cardgen.rules.book import blank_page

        document = impose_booklet(document, sheet, flip=turn, creep=creep, offset=shift,
                                  blank=lambda n: blank_page(n, sheet, fonts))
    with progress("drawing files") as shown:
        files = render_files(document, output / stem, formats, cmyk=not rgb, dpi=dpi,
                             progress=shown.update)
    report(write_set(files))
    if booklet:
        sheets = len(document.pages) // 2
        typer.echo(f"{pages} pages on {sheets} sheet{'' if sheets == 1 else 's'}: print "
                   f"both sides, flipping on the {turn} edge, at 100 %; fold the stack in "
                   "half and staple on the fold.")
    else:
        typer.echo(f"{pages} page{'' if pages == 1 else 's'}, each half a sheet of "
                   f"{sheet.upper()}.")
