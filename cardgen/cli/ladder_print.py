"""``cardgen ladder mat`` and ``cardgen ladder rules``: the Corporate Ladder play mat and
the one-page rules sheet."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated

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
    check_range,
    name_option,
    parse_choice,
    parse_formats,
    report,
)
from cardgen.cli.progress import progress
from cardgen.errors import CardgenError, number

if TYPE_CHECKING:
    from pathlib import Path

    from cardgen.api.ladder import LadderSheets


def _paper(value: str) -> str:
    from cardgen.api.ladder import papers

    return parse_choice(papers(), value, "--paper").value


def _formats(fmt: str, dpi: float, output: Path, name: str) -> list[str]:
    """The output options of a printed sheet, checked before any work."""
    from cardgen.api.ladder import check_name, check_output
    from cardgen.cli.together import dpi_needs_png

    formats = parse_formats(fmt)
    check_range(dpi, "--dpi", *DPI_RANGE)
    dpi_needs_png(formats)
    check_name(name)
    check_output(output)
    return [f.value for f in formats]


def _written(make: Callable[[Callable[[int, int], None]], LadderSheets], output: Path
             ) -> LadderSheets:
    with progress("drawing files") as shown:
        sheets = make(shown.update)
    report(sheets.files.write(output))
    return sheets


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
    from cardgen.api.ladder import MAT_ROWS, ladder_mat, presets

    if rows not in MAT_ROWS:
        raise CardgenError(f"--rows must be 3 or 4, not {number(rows)}.", value=rows)
    size = parse_choice(presets(), preset, "--preset").value
    sheet = _paper(paper)
    formats = _formats(fmt, dpi, output, name)
    sheets = _written(lambda step: ladder_mat(rows, preset=size, paper=sheet, formats=formats,
                                              rgb=rgb, dpi=dpi, name=name, progress=step),
                      output)
    for line in sheets.advice:
        typer.echo(line)


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
    from cardgen.api.ladder import ladder_rules

    sheet = _paper(paper)
    formats = _formats(fmt, dpi, output, name)
    _written(lambda step: ladder_rules(paper=sheet, formats=formats, rgb=rgb, dpi=dpi,
                                       name=name, progress=step), output)
