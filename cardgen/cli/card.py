"""``cardgen card``, ``cardgen init`` and ``cardgen sheet``: the business card and its
sheets for office printing."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from cardgen.cli.common import (
    DEFAULT_OUTPUT,
    DPI_RANGE,
    ConfigArg,
    DpiOpt,
    OutputOpt,
    PaperOpt,
    PresetOpt,
    RgbOpt,
    ThemeOpt,
    check_range,
    parse_choice,
    parse_formats,
    parse_offset,
    report,
    warn,
)
from cardgen.errors import CardgenError

IntentOpt = Annotated[str | None, typer.Option(
    "--output-intent", help="The printing condition the PDF is prepared for (its PDF/X "
    "output intent), e.g. FOGRA39 or CGATS21_CRPC6 (default: the config's "
    "card.output_intent, else by the size).", show_default=False)]
MarksOpt = Annotated[bool | None, typer.Option(
    "--marks/--no-marks", help="Crop and fold marks (default: the config's card.marks).",
    show_default=False)]
DielineOpt = Annotated[str, typer.Option(
    "--dieline", help="Where the cut and score lines go: file (NAME-dieline.pdf/.svg/.png) "
    "or layer (an overprinting CutContour/Score spot layer on both art pages).")]


def card(
    config: ConfigArg = None,
    output: OutputOpt = DEFAULT_OUTPUT,
    fmt: Annotated[str, typer.Option("--format", "-f",
                                     help="Comma-separated: pdf, svg, png.")] = "pdf,svg,png",
    preset: PresetOpt = None,
    theme: ThemeOpt = None,
    marks: MarksOpt = None,
    dieline: DielineOpt = "file",
    rgb: RgbOpt = False,
    dpi: DpiOpt = 300,
    name: Annotated[str, typer.Option(help="File name stem of the outputs.")] = "card",
    output_intent: IntentOpt = None,
    json_out: Annotated[bool, typer.Option(
        "--json", help="Report on stdout as JSON: the files written, the warnings and the "
        "Corporate Ladder card.")] = False,
) -> None:
    """Print the card: a PDF (outside, inside), SVGs and PNGs of each spread, and the
    dieline in files of its own (or as a layer of the spreads). Says which Corporate
    Ladder card it is."""
    from cardgen.card.build import build_card
    from cardgen.card.config import load_config
    from cardgen.card.physical import Preset
    from cardgen.output import check_folder, check_stem, write_files
    from cardgen.prepress.dieline import DielineMode
    from cardgen.prepress.intents import find_intent
    from cardgen.render import render_files

    formats = parse_formats(fmt)
    mode = parse_choice(DielineMode, dieline, "--dieline")
    check_range(dpi, "--dpi", *DPI_RANGE)
    check_stem(name)
    intent = find_intent(output_intent, "--output-intent") if output_intent else None
    loaded = load_config(config)
    settings = loaded.with_overrides(
        preset=parse_choice(Preset, preset, "--preset") if preset is not None else None,
        theme=theme, marks=marks, output_intent=intent)
    check_folder(output)
    build = build_card(settings, mode)
    files = render_files(build.document, output / name, formats, cmyk=not rgb, dpi=dpi)
    if build.dieline is not None:
        files |= render_files(build.dieline, output / f"{name}-dieline", formats,
                              cmyk=not rgb, dpi=dpi)
    warn(build.warnings)
    written = write_files(files)
    ladder = build.ladder
    if json_out:
        typer.echo(json.dumps({"files": [str(p) for p in written], "warnings": build.warnings,
                               "ladder": ladder.as_json() if ladder else None},
                              indent=2, ensure_ascii=False))
        return
    report(written)
    if ladder is not None:
        source = (f" (from the '{ladder.strength.value}' in '{ladder.strength.line}')"
                  if ladder.strength.line is not None else " (no digit on the front)")
        typer.echo(f"Corporate Ladder: {ladder.type.value}, Strength "
                   f"{ladder.strength.value}{source}")


def init(
    path: Annotated[Path, typer.Argument(help="Where to write the example config.")] = Path(
        "my-card.toml"),
    force: Annotated[bool, typer.Option("--force", help="Overwrite an existing file.")] = False,
) -> None:
    """Write a commented example config to edit."""
    from cardgen.card.config import example_config_path
    from cardgen.output import write_files

    if path.exists() and not force:
        raise CardgenError(f"{path} already exists; use --force to overwrite it.", value=path)
    report(write_files({path: example_config_path().read_bytes()}))
    typer.echo(f"edit it, then run: cardgen card {path}")


def sheet(
    config: ConfigArg = None,
    paper: PaperOpt = "a4",
    flip: Annotated[str, typer.Option(
        help="How the printer turns the paper for side 2: long or short edge.")] = "long",
    offset: Annotated[str, typer.Option(
        help="Shift side 2 by X,Y mm (right, down) to correct misregistration: at most "
        "±5 mm, and no further than side 2 can move before it reaches --margin; write "
        "--offset=-0.5,0.2 for negative values.")] = "0,0",
    registration: Annotated[bool, typer.Option(
        "--registration", help="Write the duplex registration test page instead.")] = False,
    margin: Annotated[float, typer.Option(help="Unprintable margin of the printer (mm).")] = 5.0,
    output: OutputOpt = DEFAULT_OUTPUT,
    preset: PresetOpt = None,
    theme: ThemeOpt = None,
    marks: Annotated[bool, typer.Option("--marks/--no-marks",
                                        help="Per-card crop and fold marks.")] = True,
    rgb: RgbOpt = False,
    name: Annotated[str, typer.Option(help="File name stem of the output.")] = "sheet",
    output_intent: IntentOpt = None,
) -> None:
    """Impose cards N-up on A4 or Letter for office duplex printing (PDF)."""
    from cardgen.card.build import build_card
    from cardgen.card.config import load_config
    from cardgen.card.physical import Preset
    from cardgen.card.spread import Spread
    from cardgen.output import check_folder, check_stem, write_files
    from cardgen.prepress.impose import Duplex, Flip, impose, plan_sheet
    from cardgen.prepress.intents import find_intent
    from cardgen.prepress.paper import Paper
    from cardgen.prepress.registration import build_registration
    from cardgen.render import Format, render
    from cardgen.text.fonts import bundled_fonts
    from cardgen.texts import say

    check_stem(name)
    shift = parse_offset(offset)
    intent = find_intent(output_intent, "--output-intent") if output_intent else None
    loaded = load_config(config)
    settings = loaded.with_overrides(
        preset=parse_choice(Preset, preset, "--preset") if preset is not None else None,
        theme=theme, marks=False, output_intent=intent)
    duplex = Duplex(parse_choice(Paper, paper, "--paper"), parse_choice(Flip, flip, "--flip"),
                    shift, margin)
    fonts = bundled_fonts()
    if registration:
        check_folder(output)
        document = build_registration(duplex, fonts)
        target = output / f"{name}-registration.pdf"
        report(write_files({target: render(document, [Format.PDF], cmyk=not rgb)[".pdf"]}))
        return
    layout = plan_sheet(Spread(settings.size, marks=False).piece(), duplex)
    check_folder(output)
    build = build_card(settings)
    outside, inside = build.document.pages
    document = impose(outside, inside, build.spread.piece(), layout, marks=marks, fonts=fonts,
                      names=(say("card", "sheet.outside"), say("card", "sheet.inside")),
                      pieces=say("card", "sheet.pieces"),
                      title=say("card", "sheet.title", name=settings.person.name,
                                paper=duplex.paper.upper()),
                      output_intent=settings.print_condition)
    warn(build.warnings)
    report(write_files({output / f"{name}.pdf": render(document, [Format.PDF],
                                                       cmyk=not rgb)[".pdf"]}))
    typer.echo(f"{layout.count} cards per sheet ({layout.columns} × {layout.rows}"
               f"{', turned' if layout.rotated else ''}); print double-sided, flip on the "
               f"{duplex.flip} edge, at 100 %.")
