"""``cardgen card``, ``cardgen init`` and ``cardgen sheet``: the business card and its
sheets for office printing."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from cardgen.api.common import PRINT_DPI  # one card's PNGs (a batch's: PREVIEW_DPI)
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
    UsageError,
    check_range,
    check_theme,
    emit,
    json_files,
    name_option,
    parse_choice,
    parse_formats,
    parse_offset,
    plural,
    report,
    shown_folder,
    shown_path,
    staged,
    warn,
)
from cardgen.cli.progress import progress
from cardgen.errors import CardgenError, number

if TYPE_CHECKING:
    from cardgen.api import Flip, Format, Paper, Preset, VarnishMode
    from cardgen.api.batch import CardItem
    from cardgen.api.common import OutputIntent
    from cardgen.api.targets import Target

IntentOpt = Annotated[str | None, typer.Option(
    "--output-intent", help="The PDF/X printing condition, e.g. FOGRA39 or CGATS21_CRPC6 "
    "(default: the config's card.output_intent, else by the size).", show_default=False)]
MarksOpt = Annotated[bool | None, typer.Option(
    "--marks/--no-marks", help="Crop and fold marks (default: the config's card.marks).",
    show_default=False)]
BatchOpt = Annotated[Path | None, typer.Option(
    "--batch", help="A CSV, .xlsx or .ods file, a row per person, columns named like config keys "
    "(person.name, images.portrait…); the config gives what they share. Every row is "
    "checked before anything is written.", show_default=False)]
DielineOpt = Annotated[str, typer.Option(
    "--dieline", help="Where the cut and score lines go: file (files NAME-dieline.*) or "
    "layer (an overprinting spot layer on both art pages).")]

CardDpiOpt = Annotated[float | None, typer.Option(
    "--dpi", help="PNG resolution (36–1200; default 300, and 150 for the previews of a "
    "--batch).", show_default=False)]
TargetOpt = Annotated[str | None, typer.Option(
    "--target", help="The print service the files are for: shop (default: a print shop's "
    "PDF/X-1a with marks), drivethrucards, thegamecrafter, or a profile .toml file.",
    show_default=False)]
BatchJobsOpt = Annotated[int | None, typer.Option(
    "--jobs", help="With --batch: parallel processes that make the cards (default 1; at "
    "most the CPU count). The files do not depend on it.", show_default=False)]
WatchOpt = Annotated[bool, typer.Option(
    "--watch", help="Make the files, then make them again on every save of the config, "
    "its theme or a file it names, until Ctrl-C; a save that breaks the config is said "
    "and the files are kept. With --json, a JSON object per build, one a line.")]
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
    target: TargetOpt = None,
    jobs: BatchJobsOpt = None,
    watch: WatchOpt = False,
    quiet: QuietOpt = False,
) -> None:
    """Print the card: PDF, SVG and PNG files, ready for a print shop.

    A PDF (outside, inside), an SVG and a PNG of each spread, and the dieline in files
    of its own (or as a layer of the spreads); says which Corporate Ladder card it is.
    With --batch, a card for every row of a CSV file (its PNGs are previews, 150 dpi
    unless --dpi says otherwise). With --watch, the files are made again on every save
    of the card's files."""
    from cardgen.api import DielineMode, Preset, VarnishMode
    from cardgen.api.card import card_config, make_card, printing_condition
    from cardgen.api.common import check_output_folder, file_stem
    from cardgen.cli.together import dpi_needs_png

    if watch:
        from cardgen.cli.card_watch import check_watch

        check_watch(config, batch=batch)
    formats = parse_formats(fmt)
    mode = parse_choice(DielineMode, dieline, "--dieline")
    service = _target(target, mode, formats, varnish=varnish, rgb=rgb, dpi=dpi, batch=batch,
                      marks=marks, intent=output_intent)
    coat = parse_choice(VarnishMode, varnish, "--varnish") if varnish is not None else None
    if coat is not None:
        _check_varnish(formats, coat, rgb=rgb)
    if dpi is not None:
        check_range(dpi, "--dpi", *DPI_RANGE)
    dpi_needs_png(formats)
    file_stem(name)
    intent = (printing_condition(output_intent, "--output-intent") if output_intent
              else None)
    chosen = parse_choice(Preset, preset, "--preset") if preset is not None else None
    if batch is not None:
        if name != "card":
            raise CardgenError("--name names one card's files; with --batch each card's "
                               "files are named from its person.name.", value=name)
        check_output_folder(output)
        _team_cards(batch, config, output, formats, json_out=json_out, dieline=mode,
                    preset=chosen, theme=theme, marks=marks, output_intent=intent,
                    varnish=coat, rgb=rgb, dpi=dpi, jobs=jobs)
        return
    if jobs is not None:
        _batch_jobs(jobs, batch=False)
    if watch and config is not None:
        from cardgen.cli.card_watch import watch_card

        check_output_folder(output)
        watch_card(config, output, lambda told: make_card(
            config, formats=formats, dieline=mode, rgb=rgb,
            dpi=PRINT_DPI if dpi is None else dpi, varnish=coat, preset=chosen, theme=theme,
            marks=marks, output_intent=intent, name=name, target=service, progress=told),
            theme=theme, json_out=json_out)
        return
    loaded = card_config(config)
    check_theme(theme, config, service.ink)
    check_output_folder(output)
    with progress("laying out the card", json=json_out) as shown:
        result = make_card(loaded, formats=formats, dieline=mode, rgb=rgb,
                           dpi=PRINT_DPI if dpi is None else dpi, varnish=coat, preset=chosen,
                           theme=theme, marks=marks, output_intent=intent, name=name,
                           target=service, progress=staged(shown))
    warn(result.warnings)
    report(result.files.write(output))
    if json_out:
        emit({"files": json_files(), "warnings": list(result.warnings),
              "ladder": result.ladder.as_json() if result.ladder else None})
        return
    if result.ladder_line is not None:
        typer.echo(result.ladder_line)


VARNISH_STEM = "varnish"  # NAME-varnish.pdf, with --varnish file (a batch's cards' too)


def _target(name: str | None, mode: object, formats: Sequence[Format], *,
            varnish: str | None, rgb: bool, dpi: float | None, batch: Path | None,
            marks: bool | None, intent: str | None) -> Target:
    """The print target ``--target`` names (``shop`` without it), and the options it
    cannot be used with refused as usage errors, in the options' words (the library's
    :func:`~cardgen.api.targets.target_conflict` says which and why)."""
    from cardgen.api.targets import load_target, target_conflict
    from cardgen.errors import ParameterError

    try:
        service = load_target(name if name is not None else "shop")
    except ParameterError as exc:
        raise UsageError(f"--target {exc.problem}", field="--target", value=name) from None
    clash = target_conflict(service, formats=formats, dieline=str(mode), varnish=varnish,
                            rgb=rgb, dpi=dpi, marks=marks, output_intent=intent,
                            batch=batch is not None)
    if clash is None:
        return service
    parameter, why = clash
    if parameter == "formats":
        raise UsageError(f"--format asks for {', '.join(f.value for f in formats)}, and "
                         f"--target {service.key} takes only "
                         f"{', '.join(service.formats)}; add {' or '.join(service.formats)} "
                         "to --format.", field="--format", value=name)
    shown = {"batch": "--batch", "dieline": "--dieline layer", "varnish": "--varnish",
             "rgb": "--rgb", "dpi": f"--dpi {dpi or 0:g}",
             "marks": f"--{'' if marks else 'no-'}marks",
             "output_intent": "--output-intent"}[parameter]
    raise UsageError(f"--target {service.key} cannot be used with {shown} ({why}); leave "
                     "one of them out.", field="--target", value=name)


def _check_varnish(formats: Sequence[Format], mode: VarnishMode, *, rgb: bool) -> None:
    """--varnish needs a print file: a CMYK PDF (its layer is a plate of the card's PDF;
    its own file is one). (The library refuses the same, in its parameters' words.)"""
    if rgb:
        raise CardgenError("--varnish adds a spot plate for the press, and --rgb writes a "
                           "screen preview, which has no plates; leave out one of them.")
    if mode == "layer" and "pdf" not in formats:
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
    from cardgen.api import Files
    from cardgen.api.card import example_config
    from cardgen.api.common import check_output_file

    check_output_file(path)  # (a name the file system cannot take is said here, in words)
    if os.path.lexists(path) and not force:
        raise CardgenError(f"{path} already exists; use --force to overwrite it.", value=path)
    report(Files({path.name: example_config().encode("utf-8")}).write(path.parent))
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
    from cardgen.api import Flip, Paper, Preset
    from cardgen.api.card import make_sheet, printing_condition
    from cardgen.api.common import check_output_folder, file_stem
    from cardgen.cli.together import not_with

    file_stem(name)
    shift = parse_offset(offset)
    not_with(["batch", "theme", "marks"], present=registration, other="--registration",
             why="the test page prints no card")
    if jobs is not None and (batch is None or registration):
        _batch_jobs(jobs, batch=False)
    intent = (printing_condition(output_intent, "--output-intent") if output_intent
              else None)
    sheet_paper = parse_choice(Paper, paper, "--paper")
    turn = parse_choice(Flip, flip, "--flip")
    if batch is not None and not registration:
        check_theme(theme, config)
        _team_sheet(batch, config, output, name, paper=sheet_paper, flip=turn, offset=shift,
                    margin=margin, marks=marks, rgb=rgb,
                    preset=parse_choice(Preset, preset, "--preset") if preset else None,
                    theme=theme, intent=intent, jobs=jobs)
        return
    check_output_folder(output)
    size = parse_choice(Preset, preset, "--preset") if preset is not None else None
    result = make_sheet(config, paper=sheet_paper, flip=turn, offset=shift, margin=margin,
                        preset=size,
                        theme=theme, marks=marks, rgb=rgb, output_intent=intent, name=name,
                        registration=registration)
    warn(result.warnings)
    report(result.files.write(output))
    layout = result.layout
    if layout is not None:
        typer.echo(f"{layout.per_sheet} cards per sheet ({layout.columns} × {layout.rows}"
                   f"{', turned' if layout.turned else ''}); print double-sided, flip on the "
                   f"{result.flip} edge, at 100 %.")


def _team_sheet(batch: Path, config: Path | None, output: Path, name: str, *,
                paper: Paper, flip: Flip, offset: tuple[float, float], margin: float,
                marks: bool, rgb: bool, preset: Preset | None, theme: str | None,
                intent: OutputIntent | None, jobs: int | None) -> None:
    """``cardgen sheet --batch``: every row's card once, in the table's order."""
    from cardgen.api.batch import make_sheets, read_people
    from cardgen.api.common import check_output_folder

    workers = _batch_jobs(jobs)
    check_output_folder(output)
    with progress("laying out cards"):
        people = read_people(batch, config, partial=True)
        made = make_sheets(people, paper=paper, flip=flip, offset=offset, margin=margin,
                           marks=marks,
                           preset=preset, theme=theme, output_intent=intent, rgb=rgb,
                           name=name, jobs=workers)
    warn(list(made.warnings))
    report(made.files.write(output))
    typer.echo(f"{plural(made.cards, 'card')} on {plural(made.sheets, 'sheet')}, "
               f"{made.per_sheet} per sheet ({made.columns} × {made.rows}"
               f"{', turned' if made.turned else ''}); print double-sided, flip on the "
               f"{flip} edge, at 100 %.")
