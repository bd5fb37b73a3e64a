"""``cardgen ladder mat`` and ``cardgen ladder rules``: the Corporate Ladder play mat and
the one-page rules sheet."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from cardgen.cli.common import (
    DEFAULT_OUTPUT,
    DPI_RANGE,
    DpiOpt,
    OutputOpt,
    PaperOpt,
    RgbOpt,
    check_range,
    parse_choice,
    parse_formats,
    report,
)
from cardgen.errors import CardgenError

if TYPE_CHECKING:
    from cardgen.draw.page import Document

FormatOpt = Annotated[str, typer.Option("--format", "-f", help="Comma-separated: pdf, svg, "
                                        "png (svg and png: one file per page).")]


def mat(
    rows: Annotated[int, typer.Option(help="3 (6 cards) or 4 (10 cards, on two sheets "
                                      "to glue together).")] = 3,
    preset: Annotated[str, typer.Option(help="The cards' size: eu (85 × 55 mm) or us "
                                        "(3.5 × 2 in).")] = "eu",
    paper: PaperOpt = "a4",
    output: OutputOpt = DEFAULT_OUTPUT,
    name: Annotated[str, typer.Option(help="File name stem of the outputs.")] = "ladder-mat",
    fmt: FormatOpt = "pdf",
    rgb: RgbOpt = False,
    dpi: DpiOpt = 150,
) -> None:
    """Print a Corporate Ladder play mat: the pyramid's places at the cards' size."""
    from cardgen.card.physical import Preset
    from cardgen.prepress.paper import Paper
    from cardgen.rules.mat import MAT_ROWS, mat_document
    from cardgen.text.fonts import bundled_fonts

    if rows not in MAT_ROWS:
        raise CardgenError(f"--rows must be 3 or 4, not {rows}.", value=rows)
    size = parse_choice(Preset, preset, "--preset")
    sheet = parse_choice(Paper, paper, "--paper")
    document = _write(lambda: mat_document(rows, size, sheet, bundled_fonts()), output, name,
                      fmt, rgb=rgb, dpi=dpi)
    if len(document.pages) > 1:
        typer.echo(f"{len(document.pages)} sheets: print at 100 %, then cut sheet 2 along "
                   "its solid line and glue it onto sheet 1's strip.")
    else:
        typer.echo("1 sheet, landscape: print at 100 %.")


def rules(
    paper: PaperOpt = "a4",
    output: OutputOpt = DEFAULT_OUTPUT,
    name: Annotated[str, typer.Option(help="File name stem of the outputs.")] = "ladder-rules",
    fmt: FormatOpt = "pdf",
    rgb: RgbOpt = False,
    dpi: DpiOpt = 150,
) -> None:
    """Print the Corporate Ladder rules on one page."""
    from cardgen.prepress.paper import Paper
    from cardgen.rules.ladder import rules_document
    from cardgen.text.fonts import bundled_fonts

    sheet = parse_choice(Paper, paper, "--paper")
    _write(lambda: rules_document(sheet, bundled_fonts()), output, name, fmt, rgb=rgb, dpi=dpi)


def _write(make: Callable[[], Document], output: Path, name: str, fmt: str, *, rgb: bool,
           dpi: float) -> Document:
    """Check the output options, make the document, write its files; returns it."""
    from cardgen.output import check_folder, check_stem, write_files
    from cardgen.render import render_files

    formats = parse_formats(fmt)
    check_range(dpi, "--dpi", *DPI_RANGE)
    check_stem(name)
    check_folder(output)
    document = make()
    report(write_files(render_files(document, output / name, formats, cmyk=not rgb,
                                    dpi=dpi)))
    return document
