"""``cardgen ladder mat`` and ``cardgen ladder rules``: the Corporate Ladder play mat and
the one-page rules sheet."""

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
    name_option,
    parse_choice,
    write_document,
)
from cardgen.errors import CardgenError, number


def mat(
    rows: Annotated[int, typer.Option(help="3 (6 cards) or 4 (10 cards, on two sheets "
                                      "to glue together).")] = 3,
    preset: Annotated[str, typer.Option(help="The cards' size: eu (85 × 55 mm) or us "
                                        "(3.5 × 2 in).")] = "eu",
    paper: PaperOpt = "a4",
    output: OutputOpt = DEFAULT_OUTPUT,
    name: Annotated[str, name_option("File name stem of the outputs.")] = "ladder-mat",
    fmt: PagesFormatOpt = "pdf",
    rgb: RgbOpt = False,
    dpi: DpiOpt = 150,
    json_out: JsonOpt = False,
    quiet: QuietOpt = False,
) -> None:
    """Print a Corporate Ladder play mat at the cards' size.

    The pyramid's places, each the size of a card."""
    from cardgen.ladder.mat import MAT_ROWS, mat_document
    from cardgen.physical.card import Preset
    from cardgen.prepress.paper import Paper
    from cardgen.text.fonts import bundled_fonts

    if rows not in MAT_ROWS:
        raise CardgenError(f"--rows must be 3 or 4, not {number(rows)}.", value=rows)
    size = parse_choice(Preset, preset, "--preset")
    sheet = parse_choice(Paper, paper, "--paper")
    document = write_document(lambda: mat_document(rows, size, sheet, bundled_fonts()), output,
                              name, fmt, rgb=rgb, dpi=dpi)
    if len(document.pages) > 1:
        typer.echo(f"{len(document.pages)} sheets: print at 100 %, then cut sheet 2 along "
                   "its solid line and glue it onto sheet 1's strip.")
    else:
        typer.echo("1 sheet, landscape: print at 100 %.")


def rules(
    paper: PaperOpt = "a4",
    output: OutputOpt = DEFAULT_OUTPUT,
    name: Annotated[str, name_option("File name stem of the outputs.")] = "ladder-rules",
    fmt: PagesFormatOpt = "pdf",
    rgb: RgbOpt = False,
    dpi: DpiOpt = 150,
    json_out: JsonOpt = False,
    quiet: QuietOpt = False,
) -> None:
    """Print the Corporate Ladder rules on one page."""
    from cardgen.prepress.paper import Paper
    from cardgen.rules.ladder import rules_document
    from cardgen.text.fonts import bundled_fonts

    sheet = parse_choice(Paper, paper, "--paper")
    write_document(lambda: rules_document(sheet, bundled_fonts()), output, name, fmt, rgb=rgb,
                   dpi=dpi)
