"""``cardgen card``, ``cardgen init`` and ``cardgen sheet``: the business card and its
sheets for office printing."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from cardgen.cli.common import (
    DEFAULT_OUTPUT,
    DPI_RANGE,
    ConfigArg,
    JsonOpt,
    OutputOpt,
    PaperOpt,
    PresetOpt,
    QuietOpt,
    RgbOpt,
    ThemeOpt,
    check_range,
    check_theme,
    emit,
    json_files,
    name_option,
    number,
    parse_choice,
    parse_formats,
    parse_offset,
    plural,
    report,
    shown_folder,
    shown_path,
    warn,
)
from cardgen.cli.progress import progress
from cardgen.errors import CardgenError

if TYPE_CHECKING:
    from cardgen.api.batch import CardItem
    from cardgen.card.build import CardBuild
    from cardgen.draw.page import OutputIntent
    from cardgen.physical.card import Preset
    from cardgen.prepress.impose import Duplex
    from cardgen.prepress.varnish import VarnishMode
    from cardgen.render import Format

IntentOpt = Annotated[str | None, typer.Option(
    "--output-intent", help="The PDF/X printing condition, e.g. FOGRA39 or CGATS21_CRPC6 "
    "(default: the config's card.output_intent, else by the size).", show_default=False)]
MarksOpt = Annotated[bool | None, typer.Option(
    "--marks/--no-marks", help="Crop and fold marks (default: the config's card.marks).",
    show_default=False)]
BatchOpt = Annotated[Path | None, typer.Option(
    "--batch", help="A CSV file, a row per person, columns named like config keys "
    "(person.name, images.portrait…); the config gives what they share. Every row is "
    "checked before anything is written.", show_default=False)]
DielineOpt = Annotated[str, typer.Option(
    "--dieline", help="Where the cut and score lines go: file (files NAME-dieline.*) or "
    "layer (an overprinting spot layer on both art pages).")]

CardDpiOpt = Annotated[float | None, typer.Option(
    "--dpi", help="PNG resolution (36–1200; default 300, and 150 for the previews of a "
    "--batch).", show_default=False)]
BatchJobsOpt = Annotated[int | None, typer.Option(
    "--jobs", help="With --batch: parallel processes that make the cards (default 1; at "
    "most the CPU count). The files do not depend on it.", show_default=False)]
VarnishOpt = Annotated[str | None, typer.Option(
    "--varnish", help="A spot varnish (spot UV) over the business side's art: layer (a "
    "plate on the PDF's outside page) or file (alone in NAME-varnish.pdf).",
    show_default=False)]


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
    dpi: CardDpiOpt = None,
    name: Annotated[str, name_option("File name stem of the outputs.")] = "card",
    output_intent: IntentOpt = None,
    json_out: JsonOpt = False,
    batch: BatchOpt = None,
    varnish: VarnishOpt = None,
    jobs: BatchJobsOpt = None,
    quiet: QuietOpt = False,
) -> None:
    """Print the card: PDF, SVG and PNG files, ready for a print shop.

    A PDF (outside, inside), an SVG and a PNG of each spread, and the dieline in files
    of its own (or as a layer of the spreads); says which Corporate Ladder card it is.
    With --batch, a card for every row of a CSV file (its PNGs are previews, 150 dpi
    unless --dpi says otherwise)."""
    from cardgen.card.build import build_card
    from cardgen.card.config import load_config
    from cardgen.cli.together import dpi_needs_png
    from cardgen.output import check_folder, check_stem, write_set
    from cardgen.physical.card import Preset
    from cardgen.prepress.dieline import DielineMode
    from cardgen.prepress.intents import find_intent
    from cardgen.prepress.varnish import VarnishMode
    from cardgen.render import render_files

    formats = parse_formats(fmt)
    mode = parse_choice(DielineMode, dieline, "--dieline")
    coat = parse_choice(VarnishMode, varnish, "--varnish") if varnish is not None else None
    if coat is not None:
        _check_varnish(formats, coat, rgb=rgb)
    if dpi is not None:
        check_range(dpi, "--dpi", *DPI_RANGE)
    dpi_needs_png(formats)
    check_stem(name)
    intent = find_intent(output_intent, "--output-intent") if output_intent else None
    chosen = parse_choice(Preset, preset, "--preset") if preset is not None else None
    if batch is not None:
        if name != "card":
            raise CardgenError("--name names one card's files; with --batch each card's "
                               "files are named from its person.name.", value=name)
        check_folder(output)
        _team_cards(batch, config, output, formats, json_out=json_out, dieline=mode,
                    preset=chosen, theme=theme, marks=marks, output_intent=intent,
                    varnish=coat, rgb=rgb, dpi=dpi, jobs=jobs)
        return
    if jobs is not None:
        _batch_jobs(jobs, batch=False)
    if dpi is None:
        dpi = PRINT_DPI
    loaded = load_config(config)
    check_theme(theme, config)
    settings = loaded.with_overrides(preset=chosen, theme=theme, marks=marks,
                                     output_intent=intent)
    check_folder(output)
    with progress("laying out the card", json=json_out) as shown:
        build = build_card(settings, mode, varnish=coat)
        shown.stage("drawing the card")
        files = render_files(build.document, output / name, formats, cmyk=not rgb, dpi=dpi,
                             progress=shown.update)
        if build.dieline is not None:
            shown.stage("drawing the dieline")
            files |= render_files(build.dieline, output / f"{name}-dieline", formats,
                                  cmyk=not rgb, dpi=dpi, progress=shown.update)
        files |= _varnish_file(build, output / f"{name}-{VARNISH_STEM}", dpi)
    warn(build.warnings)
    report(write_set(files))
    ladder = build.ladder
    if json_out:
        emit({"files": json_files(), "warnings": build.warnings,
              "ladder": ladder.as_json() if ladder else None})
        return
    if ladder is not None:
        source = (f" (from the '{ladder.strength.value}' in '{ladder.strength.line}')"
                  if ladder.strength.line is not None else " (no digit on the front)")
        typer.echo(f"Corporate Ladder: {ladder.type.value}, Strength "
                   f"{ladder.strength.value}{source}")


VARNISH_STEM = "varnish"  # NAME-varnish.pdf, with --varnish file
PRINT_DPI = 300  # one card's PNGs: at print resolution (a batch's are previews: PREVIEW_DPI)


def _varnish_file(build: CardBuild, stem: Path, dpi: float) -> dict[Path, bytes]:
    """The varnish's own file (``--varnish file``): always a CMYK PDF, whatever the art's
    formats, since a spot plate has no preview."""
    from cardgen.render import Format, render_files

    if build.varnish is None:
        return {}
    return render_files(build.varnish, stem, [Format.PDF], cmyk=True, dpi=dpi)


def _check_varnish(formats: Sequence[Format], mode: VarnishMode, *, rgb: bool) -> None:
    """--varnish needs a print file: a CMYK PDF (its layer is a plate of the card's PDF;
    its own file is one)."""
    from cardgen.prepress.varnish import VarnishMode
    from cardgen.render import Format

    if rgb:
        raise CardgenError("--varnish adds a spot plate for the press, and --rgb writes a "
                           "screen preview, which has no plates; leave out one of them.")
    if mode is VarnishMode.LAYER and Format.PDF not in formats:
        raise CardgenError("--varnish layer adds a spot plate to the PDF, and --format asks "
                           "for no PDF; add pdf to --format, or use --varnish file.")


def _batch_jobs(jobs: int | None, *, batch: bool = True) -> int:
    """``--jobs`` of a batch: at least 1 (default 1), at most the CPUs this run may use
    (more is said, and cut down). Without ``batch`` it is refused (after its range)."""
    from cardgen.api.batch import usable_jobs

    workers, capped = usable_jobs(jobs)
    if not batch:
        raise CardgenError("--jobs makes the cards of a --batch side by side; one card "
                           "is made by one process.", value=jobs)
    if capped:
        warn([f"--jobs {number(jobs or 0)} is more than the {workers} CPUs this run may "
              f"use; using {workers}."])
    return workers


def _team_cards(batch: Path, config: Path | None, output: Path,
                formats: Sequence[Format], *, json_out: bool, jobs: int | None,
                **settings: Any) -> None:
    """``cardgen card --batch``: every row's card, made one at a time (by ``--jobs``
    processes) and staged on disk in the output folder as it comes, then committed as
    one set: memory holds a few cards, never the batch."""
    from dataclasses import replace

    from cardgen.api import Files
    from cardgen.api.batch import (
        batch_warnings,
        make_cards,
        make_dielines,
        read_people,
        staged_set,
    )

    workers = _batch_jobs(jobs)
    check_theme(settings["theme"], config)
    cards: list[CardItem] = []
    per_card: dict[str, list[Path]] = {}
    with progress("laying out cards", json=json_out) as shown:
        shown.update(0)
        people = read_people(batch, config, partial=True)
        shown.update(len(people), len(people))
        shown.stage("drawing cards", len(people))
        with staged_set(output) as staged:
            shared = {key: value for key, value in settings.items() if key != "varnish"}
            count = 0
            for file_name, data in make_dielines(people, formats=formats, **shared).items():
                staged.add(file_name, data)
                count += 1
            for item in make_cards(people, formats=formats, jobs=workers, **settings):
                per_card[item.stem] = [staged.add(file_name, data)
                                       for file_name, data in item.files.items()]
                count += len(item.files)
                cards.append(replace(item, files=Files()))  # (the bytes are on disk)
                shown.advance()
            warnings = batch_warnings(cards)
            with shown.paused():
                warn(warnings)
            shown.stage(f"writing {plural(count, 'file')}")
            written = staged.commit()
    report(written)
    if json_out:
        emit({"cards": [{"line": c.line, "name": c.name,
                         "files": [shown_path(p) for p in per_card[c.stem]],
                         "ladder": c.ladder.as_json() if c.ladder else None,
                         "warnings": list(c.warnings)} for c in cards],
              "files": json_files(), "warnings": warnings})
        return
    typer.echo(_team_table(cards, per_card))
    typer.echo(f"{plural(len(cards), 'card')}: {plural(len(written), 'file')} in "
               f"{shown_folder(output)}")


def _team_table(cards: Sequence[CardItem], per_card: dict[str, list[Path]]) -> str:
    """The summary: a line per card with its Corporate Ladder card and its files."""
    rows = [("line", "name", "type", "strength", "files")]
    for card in cards:
        ladder = card.ladder
        paths = per_card[card.stem]
        more = f" +{len(paths) - 1}" if len(paths) > 1 else ""
        rows.append((str(card.line), card.name,
                     ladder.type.value if ladder else "", str(ladder.strength.value)
                     if ladder else "", f"{paths[0].name}{more}" if paths else ""))
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return "\n".join("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True))
                     .rstrip() for row in rows)


def init(
    path: Annotated[Path, typer.Argument(help="Where to write the example config.")] = Path(
        "my-card.toml"),
    force: Annotated[bool, typer.Option("--force", help="Overwrite an existing file.")] = False,
    json_out: JsonOpt = False,
    quiet: QuietOpt = False,
) -> None:
    """Write a commented example config to edit."""
    from cardgen.card.config import example_config_path
    from cardgen.output import check_file, write_set

    check_file(path)  # (a name the file system cannot take is said here, in words)
    if os.path.lexists(path) and not force:
        raise CardgenError(f"{path} already exists; use --force to overwrite it.", value=path)
    report(write_set({path: example_config_path().read_bytes()}))
    typer.echo(f"edit it, then run: cardgen card {path}")


def sheet(
    config: ConfigArg = None,
    paper: PaperOpt = "a4",
    flip: Annotated[str, typer.Option(
        help="The edge the printer turns the paper over for side 2.")] = "long",
    offset: Annotated[str, typer.Option(
        help="Move side 2 by X mm right and Y mm down (at most ±5 mm, within --margin) to "
        "correct misregistration; write --offset=-0.5,0.2 for negative values.")] = "0,0",
    registration: Annotated[bool, typer.Option(
        "--registration", help="Write the duplex registration test page instead.")] = False,
    margin: Annotated[float, typer.Option(help="Unprintable margin of the printer (mm).")] = 5.0,
    output: OutputOpt = DEFAULT_OUTPUT,
    preset: PresetOpt = None,
    theme: ThemeOpt = None,
    marks: Annotated[bool, typer.Option("--marks/--no-marks",
                                        help="Per-card crop and fold marks.")] = True,
    rgb: RgbOpt = False,
    name: Annotated[str, name_option("File name stem of the output.")] = "sheet",
    output_intent: IntentOpt = None,
    batch: BatchOpt = None,
    jobs: BatchJobsOpt = None,
    json_out: JsonOpt = False,
    quiet: QuietOpt = False,
) -> None:
    """Impose cards N-up on A4 or Letter, for a home or office printer.

    One PDF to print duplex. With --batch, every row's card once, each inside behind
    its own outside, on as many sheets as they need."""
    from cardgen.card.build import build_card
    from cardgen.card.config import load_config
    from cardgen.card.spread import Spread
    from cardgen.cli.together import not_with
    from cardgen.output import check_folder, check_stem, write_set
    from cardgen.physical.card import Preset
    from cardgen.prepress.impose import Duplex, Flip, impose, plan_sheet
    from cardgen.prepress.intents import find_intent
    from cardgen.prepress.paper import Paper
    from cardgen.prepress.registration import build_registration
    from cardgen.render import Format, render
    from cardgen.text.fonts import bundled_fonts
    from cardgen.texts import say

    check_stem(name)
    shift = parse_offset(offset)
    not_with(["batch", "theme", "marks"], present=registration, other="--registration",
             why="the test page prints no card")
    if jobs is not None and (batch is None or registration):
        _batch_jobs(jobs, batch=False)
    intent = find_intent(output_intent, "--output-intent") if output_intent else None
    duplex = Duplex(parse_choice(Paper, paper, "--paper"), parse_choice(Flip, flip, "--flip"),
                    shift, margin)
    fonts = bundled_fonts()
    if batch is None or registration:
        loaded = load_config(config)
        check_theme(theme, config)
        settings = loaded.with_overrides(
            preset=parse_choice(Preset, preset, "--preset") if preset is not None else None,
            theme=theme, marks=False, output_intent=intent)
    if registration:
        check_folder(output)
        document = build_registration(duplex, fonts, settings.print_condition)
        target = output / f"{name}-registration.pdf"
        report(write_set({target: render(document, [Format.PDF], cmyk=not rgb)[".pdf"]}))
        return
    if batch is not None:
        check_theme(theme, config)
        _team_sheet(batch, config, duplex, output, name, marks=marks, rgb=rgb,
                    preset=parse_choice(Preset, preset, "--preset") if preset else None,
                    theme=theme, intent=intent, jobs=jobs)
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
    report(write_set({output / f"{name}.pdf": render(document, [Format.PDF],
                                                     cmyk=not rgb)[".pdf"]}))
    typer.echo(f"{layout.count} cards per sheet ({layout.columns} × {layout.rows}"
               f"{', turned' if layout.rotated else ''}); print double-sided, flip on the "
               f"{duplex.flip} edge, at 100 %.")


def _team_sheet(batch: Path, config: Path | None, duplex: Duplex, output: Path, name: str, *,
                marks: bool, rgb: bool, preset: Preset | None, theme: str | None,
                intent: OutputIntent | None, jobs: int | None) -> None:
    """``cardgen sheet --batch``: every row's card once, in the table's order."""
    from cardgen.api.batch import make_sheets, read_people
    from cardgen.output import check_folder

    workers = _batch_jobs(jobs)
    check_folder(output)
    with progress("laying out cards"):
        people = read_people(batch, config, partial=True)
        made = make_sheets(people, paper=duplex.paper, flip=duplex.flip,
                           offset=duplex.offset, margin=duplex.margin, marks=marks,
                           preset=preset, theme=theme, output_intent=intent, rgb=rgb,
                           name=name, jobs=workers)
    warn(list(made.warnings))
    report(made.files.write(output))
    typer.echo(f"{plural(made.cards, 'card')} on {plural(made.sheets, 'sheet')}, "
               f"{made.per_sheet} per sheet ({made.columns} × {made.rows}"
               f"{', turned' if made.turned else ''}); print double-sided, flip on the "
               f"{duplex.flip} edge, at 100 %.")
