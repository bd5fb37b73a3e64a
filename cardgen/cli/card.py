"""``cardgen card``, ``cardgen init`` and ``cardgen sheet``: the business card and its
sheets for office printing."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

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
from cardgen.errors import CardgenError

if TYPE_CHECKING:
    from cardgen.api import Format, Preset, VarnishMode
    from cardgen.api.targets import Target
    from cardgen.card.batch import TeamCard
    from cardgen.draw.page import Document, OutputIntent
    from cardgen.prepress.impose import Duplex

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
    quiet: QuietOpt = False,
) -> None:
    """Print the card: PDF, SVG and PNG files, ready for a print shop.

    A PDF (outside, inside), an SVG and a PNG of each spread, and the dieline in files
    of its own (or as a layer of the spreads); says which Corporate Ladder card it is.
    With --batch, a card for every row of a CSV file (its PNGs are previews, 150 dpi
    unless --dpi says otherwise)."""
    from cardgen.api import DielineMode, Preset, VarnishMode
    from cardgen.api.card import card_config, make_card, printing_condition
    from cardgen.api.common import check_output_folder, file_stem
    from cardgen.cli.together import dpi_needs_png

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
        from cardgen.card.batch import PREVIEW_DPI, build_team
        from cardgen.output import check_folder, write_set

        check_folder(output)
        check_theme(theme, config)
        with progress("laying out cards", json=json_out) as shown:
            cards = build_team(batch, config, mode, preset=chosen, theme=theme, marks=marks,
                               output_intent=intent, varnish=coat, progress=shown.update)
            shown.stage("drawing cards", len(cards))
            cards, files, per_card = _team_files(
                cards, output, formats, cmyk=not rgb, step=shown.advance,
                dpi=PREVIEW_DPI if dpi is None else dpi)
            warnings = team_warnings(cards)
            with shown.paused():
                warn(warnings)
            shown.stage(f"writing {plural(len(files), 'file')}")
            written = write_set(files)
        report(written)
        if json_out:
            emit({"cards": [{"line": c.person.line, "name": c.person.config.person.name,
                             "files": [shown_path(p) for p in per_card[c.person.stem]],
                             "ladder": c.build.ladder.as_json() if c.build.ladder else None,
                             "warnings": c.build.warnings} for c in cards],
                  "files": json_files(), "warnings": warnings})
            return
        typer.echo(_team_table(cards, per_card))
        typer.echo(f"{plural(len(cards), 'card')}: {plural(len(written), 'file')} in "
                   f"{shown_folder(output)}")
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


DIELINE_STEM = "dieline"  # a batch's dieline, shared by its cards


def team_warnings(cards: Sequence[TeamCard]) -> list[str]:
    """The cards' warnings, each said once with the rows it concerns ("line 4 (Sam
    Reed): …", or "lines 2-40, 42 (40 cards): …" when a shared logo is too soft)."""
    rows: dict[str, list[TeamCard]] = {}
    for card in cards:
        for message in card.build.warnings:
            rows.setdefault(message, []).append(card)
    said = []
    for message, concerned in rows.items():
        if len(concerned) == 1:
            person = concerned[0].person
            said.append(f"line {person.line} ({person.config.person.name}): {message}")
        else:
            said.append(f"lines {_ranges([c.person.line for c in concerned])} "
                        f"({len(concerned)} cards): {message}")
    return said


def _ranges(numbers: Sequence[int]) -> str:
    """2, 3, 4, 7 -> "2-4, 7"."""
    parts: list[str] = []
    start = prev = numbers[0]
    for n in [*numbers[1:], None]:
        if n is not None and n == prev + 1:
            prev = n
            continue
        parts.append(str(start) if start == prev else f"{start}-{prev}")
        if n is not None:
            start = prev = n
    return ", ".join(parts)


def _team_files(cards: Sequence[TeamCard], output: Path, formats: Sequence[Format], *,
                cmyk: bool, dpi: float, fast: bool = True,
                step: Callable[[], None] | None = None,
                ) -> tuple[list[TeamCard], dict[Path, bytes], dict[str, list[Path]]]:
    """Every card's files (with ``--varnish file``, its ``-varnish.pdf`` too), and one
    dieline for each size among them (``dieline``, or ``dieline-85x55`` and so on when
    the cards have several sizes). The dielines' names are reserved before the people's
    stems are given (:func:`cardgen.card.batch.assign_stems`), so no card's file can
    take a dieline's name. PNG files are previews: at ``dpi``, compressed at zlib's
    fastest level unless ``fast`` is false (``render(fast=...)``). Returns the cards
    with their final stems, the files, and each stem's files. ``step()`` is called after
    each card is drawn."""
    from dataclasses import replace

    from cardgen.card.batch import TeamCard, assign_stems
    from cardgen.render import Format, render, render_files

    files: dict[Path, bytes] = {}
    dielines: dict[tuple[float, float], Document] = {}
    for card in cards:
        size = card.build.geometry.size
        if card.build.dieline is not None:
            dielines.setdefault((size.width, size.height), card.build.dieline)
    generated = [DIELINE_STEM]
    for (width, height), document in dielines.items():
        stem = DIELINE_STEM if len(dielines) == 1 else f"{DIELINE_STEM}-{width:g}x{height:g}"
        made = render_files(document, output / stem, formats, cmyk=cmyk, dpi=dpi, fast=fast)
        generated += [stem, *(path.name for path in made)]
        _add_files(files, made)
    rendered = []
    for card in cards:
        ends = render(card.build.document, formats, cmyk=cmyk, dpi=dpi, fast=fast)
        if card.build.varnish is not None:
            ends[f"-{VARNISH_STEM}.pdf"] = render(card.build.varnish, [Format.PDF],
                                                  cmyk=True, dpi=dpi)[".pdf"]
        rendered.append(ends)
        if step is not None:
            step()
    stems = assign_stems([card.person.config.person.name for card in cards],
                         [list(ends) for ends in rendered], generated)
    named: list[TeamCard] = []
    per_card: dict[str, list[Path]] = {}
    for card, stem, ends in zip(cards, stems, rendered, strict=True):
        made = {output / f"{stem}{end}": data for end, data in ends.items()}
        _add_files(files, made)
        named.append(TeamCard(replace(card.person, stem=stem), card.build))
        per_card[stem] = list(made)
    return named, files, per_card


def _add_files(files: dict[Path, bytes], made: dict[Path, bytes]) -> None:
    """``made`` added to the set ``files``: no file of a set may take another's name
    (the stems are made so that none does; this holds it)."""
    from cardgen.datafile import path_text
    from cardgen.errors import OutputError

    for path in made:
        if path in files:
            raise OutputError(f"cannot write {path_text(path)}: two files of one set have "
                              "that name; nothing was written.", value=path)
    files |= made


def _team_table(cards: Sequence[TeamCard], per_card: dict[str, list[Path]]) -> str:
    """The summary: a line per card with its Corporate Ladder card and its files."""
    rows = [("line", "name", "type", "strength", "files")]
    for card in cards:
        ladder = card.build.ladder
        paths = per_card[card.person.stem]
        more = f" +{len(paths) - 1}" if len(paths) > 1 else ""
        rows.append((str(card.person.line), card.person.config.person.name,
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
    intent = (printing_condition(output_intent, "--output-intent") if output_intent
              else None)
    sheet_paper = parse_choice(Paper, paper, "--paper")
    turn = parse_choice(Flip, flip, "--flip")
    if batch is not None and not registration:
        from cardgen.prepress.impose import Duplex

        duplex = Duplex(sheet_paper, turn, shift, margin)
        check_theme(theme, config)
        _team_sheet(batch, config, duplex, output, name, marks=marks, rgb=rgb,
                    preset=parse_choice(Preset, preset, "--preset") if preset else None,
                    theme=theme, intent=intent)
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


def _team_sheet(batch: Path, config: Path | None, duplex: Duplex, output: Path, name: str, *,
                marks: bool, rgb: bool, preset: Preset | None, theme: str | None,
                intent: OutputIntent | None) -> None:
    """``cardgen sheet --batch``: every row's card once, in the table's order."""
    from cardgen.card.batch import build_team
    from cardgen.card.spread import Spread
    from cardgen.output import check_folder, write_set
    from cardgen.prepress.dieline import DielineMode
    from cardgen.prepress.impose import impose_many, plan_sheet
    from cardgen.render import Format, render
    from cardgen.text.fonts import bundled_fonts
    from cardgen.texts import say

    check_folder(output)
    with progress("laying out cards") as shown:
        cards = build_team(batch, config, DielineMode.FILE, preset=preset, theme=theme,
                           marks=False, output_intent=intent, progress=shown.update)
    first = cards[0]
    size = first.build.geometry.size
    for card in cards[1:]:
        if card.build.geometry.size != size:
            other = card.build.geometry.size
            raise CardgenError(
                f"{batch}: line {card.person.line}: a {other.width:g} × {other.height:g} mm "
                f"card cannot share sheets with line {first.person.line}'s "
                f"{size.width:g} × {size.height:g} mm one; give every row the same size, or "
                "make a sheet per size.", value=batch)
    piece = Spread(size, marks=False).piece()
    layout = plan_sheet(piece, duplex)
    conditions = {c.build.document.output_intent for c in cards}
    if len(conditions) > 1:
        raise CardgenError(f"{batch}: the rows are prepared for different printing "
                           "conditions (card.output_intent); one sheet needs one.",
                           value=batch)
    document = impose_many([(c.build.document.pages[0], c.build.document.pages[1])
                            for c in cards], piece, layout, marks=marks,
                           fonts=bundled_fonts(),
                           names=(say("card", "sheet.outside"), say("card", "sheet.inside")),
                           pieces=say("card", "sheet.pieces"),
                           title=say("card", "sheet.team_title", count=len(cards),
                                     paper=duplex.paper.upper()),
                           output_intent=first.build.document.output_intent)
    sheets = len(document.pages) // 2
    with progress(f"drawing {plural(sheets, 'sheet')}", since=shown):
        pdf = render(document, [Format.PDF], cmyk=not rgb)[".pdf"]
    warn(team_warnings(cards))
    report(write_set({output / f"{name}.pdf": pdf}))
    typer.echo(f"{plural(len(cards), 'card')} on {plural(sheets, 'sheet')}, "
               f"{layout.count} per sheet ({layout.columns} × {layout.rows}"
               f"{', turned' if layout.rotated else ''}); print double-sided, flip on the "
               f"{duplex.flip} edge, at 100 %.")
