"""The ``cardgen`` command line: parses options, calls the library, reports.

Heavy libraries (reportlab, Pillow, fontTools) are imported inside the commands so that
``cardgen --help`` stays fast.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from cardgen import __version__
from cardgen.errors import CardgenError

app = typer.Typer(
    name="cardgen",
    help="Print-ready foldable game business cards, and the games played on them.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

FORMATS = ("pdf", "svg", "png")
DEFAULT_OUTPUT = Path("output")

ConfigArg = Annotated[Path | None, typer.Argument(
    help="Card config (TOML). Without it, the built-in example card.", show_default=False)]
OutputOpt = Annotated[Path, typer.Option("--output", "-o", help="Output folder.")]
RgbOpt = Annotated[bool, typer.Option("--rgb", help="RGB colours for screens instead of CMYK.")]
MarksOpt = Annotated[bool | None, typer.Option(
    "--marks/--no-marks", help="Crop and fold marks (default: the config's card.marks).",
    show_default=False)]
PresetOpt = Annotated[str | None, typer.Option(
    "--preset", help="Override the size: eu (85 × 55 mm) or us (3.5 × 2 in).", show_default=False)]
ThemeOpt = Annotated[str | None, typer.Option(
    "--theme", help="Override the theme: dark, light or a theme file.", show_default=False)]


def _version(value: bool) -> None:
    if value:
        typer.echo(f"cardgen {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True,
                                          help="Show the version and exit.")] = False,
) -> None:
    """Print-ready foldable game business cards, and the games played on them."""


def _warn(messages: list[str]) -> None:
    for message in messages:
        typer.echo(f"warning: {message}", err=True)


def _report(paths: list[Path]) -> None:
    for path in paths:
        typer.echo(f"wrote {path}")


def parse_formats(value: str) -> list[str]:
    wanted = [part.strip().lower() for part in value.split(",") if part.strip()]
    for fmt in wanted:
        if fmt not in FORMATS:
            raise CardgenError(f"--format: unknown format {fmt!r} (choose from pdf, svg, png).")
    if not wanted:
        raise CardgenError("--format: give at least one of pdf, svg, png.")
    return [fmt for fmt in FORMATS if fmt in wanted]


@app.command()
def card(
    config: ConfigArg = None,
    output: OutputOpt = DEFAULT_OUTPUT,
    fmt: Annotated[str, typer.Option("--format", "-f",
                                     help="Comma-separated: pdf, svg, png.")] = "pdf,svg,png",
    preset: PresetOpt = None,
    theme: ThemeOpt = None,
    marks: MarksOpt = None,
    rgb: RgbOpt = False,
    dpi: Annotated[float, typer.Option(help="PNG resolution.", min=36, max=1200)] = 300,
    name: Annotated[str, typer.Option(help="File name stem of the outputs.")] = "card",
) -> None:
    """Print the card: a PDF (outside, inside, dieline), SVGs and PNGs of each spread."""
    from cardgen.card import build_card
    from cardgen.config import load_config
    from cardgen.output import prepare_folder, write_files
    from cardgen.render import render_files

    formats = parse_formats(fmt)
    settings = load_config(config).with_overrides(preset=preset, theme=theme, marks=marks)
    prepare_folder(output)
    build = build_card(settings)
    files = render_files(build.document, output, name, formats, cmyk=not rgb, dpi=dpi)
    _warn(build.warnings)
    _report(write_files(files))


@app.command()
def init(
    path: Annotated[Path, typer.Argument(help="Where to write the example config.")] = Path(
        "my-card.toml"),
    force: Annotated[bool, typer.Option("--force", help="Overwrite an existing file.")] = False,
) -> None:
    """Write a commented example config to edit."""
    from cardgen.config import example_config_path
    from cardgen.output import write_files

    if path.exists() and not force:
        raise CardgenError(f"{path} already exists; use --force to overwrite it.")
    _report(write_files({path: example_config_path().read_bytes()}))
    typer.echo(f"edit it, then run: cardgen card {path}")


def _offset(value: str) -> tuple[float, float]:
    parts = value.split(",")
    try:
        if len(parts) != 2:
            raise ValueError
        dx, dy = (float(part) for part in parts)
    except ValueError:
        raise CardgenError(f"--offset must be two numbers in mm like 0.5,-0.3, not {value!r}."
                           ) from None
    if abs(dx) > 20 or abs(dy) > 20:
        raise CardgenError(f"--offset {value} is implausible: duplex errors are a few mm at most.")
    return dx, dy


@app.command()
def sheet(
    config: ConfigArg = None,
    paper: Annotated[str, typer.Option(help="Paper size: a4 or letter.")] = "a4",
    flip: Annotated[str, typer.Option(
        help="How the printer turns the paper for side 2: long or short edge.")] = "long",
    offset: Annotated[str, typer.Option(
        help="Shift side 2 by X,Y mm (right, down) to correct misregistration; "
        "write --offset=-0.5,0.2 for negative values.")] = "0,0",
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
) -> None:
    """Impose cards N-up on A4 or Letter for office duplex printing (PDF)."""
    from cardgen.card import build_card
    from cardgen.cardgeometry import CardGeometry
    from cardgen.config import load_config
    from cardgen.output import prepare_folder, write_files
    from cardgen.render.pdf import render_pdf
    from cardgen.sheet import build_registration, build_sheets, plan_sheet

    shift = _offset(offset)
    settings = load_config(config).with_overrides(preset=preset, theme=theme, marks=False)
    layout = plan_sheet(CardGeometry(settings.size, marks=False), paper.lower(), flip.lower(),
                        shift, margin)
    prepare_folder(output)
    if registration:
        document = build_registration(layout)
        target = output / f"{name}-registration.pdf"
    else:
        build = build_card(settings)
        outside, inside = build.document.pages
        document = build_sheets(outside, inside, build.geometry, layout, marks=marks,
                                title=f"{settings.person.name} – cards on {paper.upper()}")
        _warn(build.warnings)
        target = output / f"{name}.pdf"
    _report(write_files({target: render_pdf(document, cmyk=not rgb)}))
    if not registration:
        typer.echo(f"{layout.count} cards per sheet ({layout.columns} × {layout.rows}"
                   f"{', turned' if layout.rotated else ''}); print double-sided, flip on the "
                   f"{layout.flip} edge, at 100 %.")


def _register_subcommands() -> None:
    from cardgen.cli_rotator import rotator

    app.add_typer(rotator)


_register_subcommands()


def main() -> None:
    """Console entry point: user errors become one line on stderr and exit status 1."""
    try:
        app()
    except CardgenError as exc:
        typer.echo(f"error: {exc}", err=True)
        sys.exit(1)
    except KeyboardInterrupt:
        typer.echo("interrupted", err=True)
        sys.exit(130)
