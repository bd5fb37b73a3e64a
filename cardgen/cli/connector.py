"""``cardgen connector ...``: validate, solve and show Connector assemblies, and check
the layout.

An ASSEMBLY is a TOML file (see ``cardgen.connector.assembly``); a GAME is rotator,
reflector, deflector or defector.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from cardgen.api.connector import DEFAULT_BUDGET, MAX_BUDGET, MAX_CARDS, MIN_BUDGET
from cardgen.cli.common import (
    DEFAULT_OUTPUT,
    JsonOpt,
    OutputOpt,
    QuietOpt,
    check_range,
    emit,
    name_option,
    output_folder,
    parse_choice,
    parse_formats,
    plural,
    report,
)
from cardgen.cli.helptext import CONTEXT
from cardgen.cli.progress import progress
from cardgen.errors import CHECK_STATUS, CardgenError

if TYPE_CHECKING:
    from cardgen.api.connector_tools import SearchGaveUp

connector = typer.Typer(
    name="connector",
    context_settings=CONTEXT,
    help="Connector, the puzzle on the card's back: validate, solve, show.",
    no_args_is_help=True,
)

PresetOpt = Annotated[str, typer.Option("--preset", help="The card size: eu or us.")]
LayoutOpt = Annotated[Path | None, typer.Option(
    "--layout", help="A Connector layout file (default: the one cardgen ships).",
    show_default=False)]


def _preset(value: str) -> str:
    """The card size named, or a usage error naming --preset."""
    from cardgen.api.connector import presets

    return parse_choice(presets(), value, "--preset").value


def _game(value: str) -> str:
    from cardgen.api.connector import connector_games

    return parse_choice(connector_games(), value, "GAME").value


@connector.command()
def validate(
    assembly: Annotated[Path, typer.Argument(help="The assembly file (TOML).",
                                             show_default=False)],
    json_out: JsonOpt = False,
    picture: Annotated[Path | None, typer.Option(
        "--picture", help="Also draw the assembly: a .svg, .png or .pdf file.",
        show_default=False)] = None,
    layout: LayoutOpt = None,
    reveal: Annotated[bool, typer.Option(
        "--reveal", help="When the assembly is not valid, also say what its cards read and "
        "quote the description (left out by default so as not to give the puzzle away).")
    ] = False,
    quiet: QuietOpt = False,
) -> None:
    """Check an assembly of cards: does it spell its game's description?

    Every problem, in words: which colour, how many of the pieces of text the
    description needs are visible, which connection is off and by how much, without
    quoting the text (see --reveal). Exit 0 when it does, 4 when it does not (1: a file
    that cannot be read)."""
    from cardgen.api.connector import check_output, picture_format, validate_assembly

    if picture is not None:
        picture_format(picture)
        check_output(picture.parent)
    verdict = validate_assembly(assembly, layout=layout, reveal=reveal,
                                picture=None if picture is None else picture.name)
    if picture is not None:
        report(verdict.files.write(picture.parent))
    if json_out:
        emit(verdict.as_json(reveal))
    else:
        for line in verdict.lines(reveal):
            typer.echo(line)
    if not verdict.valid:
        raise typer.Exit(CHECK_STATUS)


@connector.command()
def solve(
    game: Annotated[str, typer.Argument(help="rotator, reflector, deflector or defector.",
                                        show_default=False)],
    preset: PresetOpt = "eu",
    max_cards: Annotated[int, typer.Option(
        "--max-cards", help=f"Search assemblies of at most this many cards (1–{MAX_CARDS}).")
    ] = 6,
    json_out: JsonOpt = False,
    output: Annotated[Path | None, typer.Option(
        "--output", "-o", parser=output_folder, metavar="FOLDER",
        help="Write the assembly found into this folder, as NAME.toml (default: write "
        "no file unless --name is given; then the folder output).",
        show_default=False)] = None,
    name: Annotated[str | None, name_option(
        "File name stem of the assembly written (default: assembly-GAME-PRESET).",
        show_default=False)] = None,
    no_cut: Annotated[bool, typer.Option(
        "--no-cut", help="Judge every assembly instead of dropping branches that cannot "
        "show enough text (slower; the same answer).")] = False,
    budget: Annotated[int, typer.Option(
        help="The most assemblies the search may visit before it gives up ("
        f"{MIN_BUDGET:,} to {MAX_BUDGET:,}; each million takes about 150 MB).")] = DEFAULT_BUDGET,
    layout: LayoutOpt = None,
    quiet: QuietOpt = False,
) -> None:
    """Find the smallest assembly that spells a game's description.

    With proof: every smaller assembly built from connections was enumerated and fails.
    Exit 4 when none of up to --max-cards does, 1 when the search gives up at --budget."""
    from cardgen.api.connector import check_name, check_output
    from cardgen.api.connector_tools import SearchGaveUp, solve_assembly

    chosen = _game(game)
    check_range(max_cards, "--max-cards", 1, MAX_CARDS)
    check_range(budget, "--budget", MIN_BUDGET, MAX_BUDGET)
    size = _preset(preset)
    stem = check_name(name if name is not None else f"assembly-{chosen}-{size}")
    folder = None
    if output is not None or name is not None:
        folder = check_output(output if output is not None else DEFAULT_OUTPUT, f"{stem}.toml")
    with progress("assemblies", budget, json=json_out) as shown:
        try:
            result = solve_assembly(
                chosen, preset=size, max_cards=max_cards, cut=not no_cut, budget=budget,
                layout=layout, name=stem, comment=f"{chosen}: the smallest assembly, found by "
                f"`cardgen connector solve {chosen} --preset {size}`",
                progress=lambda cards, visited: shown.update(
                    visited, note=f"trying {plural(cards, 'card')}"))
        except SearchGaveUp as exc:
            raise CardgenError(_gave_up(exc)) from None
    if folder is not None and result.found:
        report(result.files.write(folder))
    if json_out:
        emit(result.as_json())
    else:
        for line in result.lines():
            typer.echo(line)
    if not result.found:
        raise typer.Exit(CHECK_STATUS)


def _gave_up(error: SearchGaveUp) -> str:
    """The search ran out of budget: what it did, and what to do (in options)."""
    instead = ("raise --budget" if error.cut else "drop --no-cut (the same answer from far "
               "fewer assemblies) or raise --budget")
    return (f"--budget: the search stopped after {error.visited:,} assemblies (its budget),"
            f" while trying {plural(error.cards, 'card')}, without finding one that "
            f"spells the {error.game} description or proving that none of up to "
            f"{plural(error.max_cards, 'card')} does; {instead} (each million assemblies "
            "takes about 150 MB and 15 s).")


@connector.command()
def check(
    layout: Annotated[Path | None, typer.Argument(
        help="A Connector layout file (default: the one cardgen ships).",
        show_default=False)] = None,
    preset: Annotated[str | None, typer.Option(
        "--preset", help="Check only this card size: eu or us (default: both).",
        show_default=False)] = None,
    json_out: JsonOpt = False,
    quiet: QuietOpt = False,
) -> None:
    """Check a Connector layout for problems.

    Fragments off their faces or near a cut or score, overlaps, text too long for its
    box, and games whose fewest cards differ from their players. Exit 0 when it is
    sound, 4 with every problem."""
    from cardgen.api.connector_tools import check_connector_layout

    size = None if preset is None else _preset(preset)
    with progress("card sizes checked", 2 if size is None else 1) as shown:
        result = check_connector_layout(layout, preset=size, progress=shown.update)
    if json_out:
        emit(result.as_json())
    else:
        for line in result.lines():
            typer.echo(line)
    if not result.sound:
        raise typer.Exit(CHECK_STATUS)


@connector.command()
def show(
    game: Annotated[str | None, typer.Argument(
        help="rotator, reflector, deflector or defector (default: all four).",
        show_default=False)] = None,
    preset: PresetOpt = "eu",
    output: OutputOpt = DEFAULT_OUTPUT,
    fmt: Annotated[str, typer.Option("--format", "-f", help="Comma-separated: svg, png, pdf.")
                   ] = "svg,png",
    name: Annotated[str, name_option(
        "File name stem: NAME-GAME-PRESET.svg and so on.")] = "connector",
    json_out: JsonOpt = False,
    quiet: QuietOpt = False,
) -> None:
    """Draw each game's shipped assembly and the text it reveals."""
    from cardgen.api.connector import check_name, check_output
    from cardgen.api.connector_tools import connector_pictures

    games = None if game is None else _game(game)
    size = _preset(preset)
    formats = parse_formats(fmt)
    check_name(name)
    check_output(output)
    # One set, written all or nothing: a run stopped before the end writes no picture.
    with progress("pictures drawn", (1 if games else 4) * len(formats)) as shown:
        result = connector_pictures(games, preset=size, formats=formats, name=name,
                                    progress=shown.update)
    report(result.files.write(output))
    if json_out:
        emit(result.as_json())
        return
    for line in result.lines():
        typer.echo(line)
