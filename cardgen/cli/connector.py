"""``cardgen connector ...``: validate, solve and show Connector assemblies, and check
the layout.

An ASSEMBLY is a TOML file (see ``cardgen.connector.assembly``); a GAME is rotator,
reflector, deflector or defector.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

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
from cardgen.games.names import CONNECTOR_GAMES

if TYPE_CHECKING:
    from cardgen.connector.model import CardLayout
    from cardgen.connector.solve import SolveResult
    from cardgen.connector.validate import Report
    from cardgen.physical.card import Preset

connector = typer.Typer(
    name="connector",
    context_settings=CONTEXT,
    help="Connector, the puzzle on the card's back: validate, solve, show.",
    no_args_is_help=True,
)

GAMES = tuple(g.value for g in CONNECTOR_GAMES)
MAX_CARDS = 8
MIN_BUDGET = 100
MAX_BUDGET = 5_000_000  # about 750 MB of seen assemblies: the peak stays under 1 GB
DEFAULT_BUDGET = 2_000_000  # the solver's own default, kept here so --help needs no import
PresetOpt = Annotated[str, typer.Option("--preset", help="The card size: eu or us.")]
LayoutOpt = Annotated[Path | None, typer.Option(
    "--layout", help="A Connector layout file (default: the one cardgen ships).",
    show_default=False)]


def _preset(value: str) -> Preset:
    from cardgen.physical.card import Preset

    return parse_choice(Preset, value, "--preset")


def _layout(path: Path | None, preset: Preset) -> CardLayout:
    from cardgen.connector.layout import bundled_layout, load_layout

    return bundled_layout(preset) if path is None else load_layout(path, preset)


def _picture(result: Report, path: Path, reveal: bool) -> None:
    from cardgen.connector.picture import picture_bytes, picture_format
    from cardgen.output import write_set

    report(write_set({path: picture_bytes(result, picture_format(path), reveal=reveal)}))


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
    from cardgen.connector.assembly import read_assembly
    from cardgen.connector.validate import validate as judge
    from cardgen.physical.card import Preset

    if picture is not None:
        _picture_path(picture)
    spec = read_assembly(assembly)
    result = judge(_layout(layout, Preset(spec.preset)), spec)
    if picture is not None:
        _picture(result, picture, reveal)
    if json_out:
        emit(result.as_json(reveal))
    elif result.valid:
        typer.echo(f"valid: {plural(result.cards, 'card')} of {spec.game} spell "
                   f"{_q(result.text)}")
    else:
        typer.echo(f"not valid ({plural(len(result.problems), 'problem')}):")
        for problem in result.problems if reveal else result.hints:
            typer.echo(f"- {problem}")
    if not result.valid:
        raise typer.Exit(CHECK_STATUS)


def _q(text: str) -> str:
    return "'" + text + "'"


def _picture_path(path: Path) -> None:
    from cardgen.connector.picture import picture_format
    from cardgen.output import check_folder

    picture_format(path)
    check_folder(path.parent)


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
    from cardgen.connector.assembly import assembly_toml
    from cardgen.connector.solve import solve as search
    from cardgen.output import check_file, check_stem, write_set

    chosen = parse_choice(CONNECTOR_GAMES, game, "GAME")
    check_range(max_cards, "--max-cards", 1, MAX_CARDS)
    check_range(budget, "--budget", MIN_BUDGET, MAX_BUDGET)
    size = _preset(preset)
    target = None
    if output is not None or name is not None:
        stem = check_stem(name if name is not None else f"assembly-{chosen.value}-{size.value}")
        target = check_file((output if output is not None else DEFAULT_OUTPUT) / f"{stem}.toml")
    lay = _layout(layout, size)
    with progress("assemblies", budget, json=json_out) as shown:
        result = search(lay, chosen, size.value, max_cards, cut=not no_cut, budget=budget,
                        progress=lambda cards, visited: shown.update(
                            visited, note=f"trying {plural(cards, 'card')}"))
    if result.exhausted is not None:
        raise CardgenError(_gave_up(result, max_cards, no_cut))
    if target is not None and result.assembly is not None:
        note = (f"{chosen.value}: the smallest assembly, found by `cardgen connector solve "
                f"{chosen.value} --preset {size.value}`\n{_proof(result)}")
        report(write_set({target: assembly_toml(result.assembly, note).encode()}))
    if json_out:
        emit(_solve_json(result))
    elif result.assembly is None:
        typer.echo(f"no assembly of up to {plural(max_cards, 'card')} spells the {chosen.value}"
                   f" description. {_proof(result)}")
    else:
        typer.echo(f"{chosen.value}: {plural(len(result.assembly.cards), 'card')} "
                   f"(the fewest). {_proof(result)}")
        for i, card in enumerate(result.assembly.cards, 1):
            typer.echo(f"  card {i}: x = {card.x:g} mm, y = {card.y:g} mm, "
                       f"rotation {card.rotation}°, tabs {card.tabs.value}")
        assert result.report is not None
        typer.echo(f"  reads {_q(result.report.text)}")
    if result.assembly is None:
        raise typer.Exit(CHECK_STATUS)


def _gave_up(result: SolveResult, max_cards: int, no_cut: bool) -> str:
    """The search ran out of budget: what it did, and what to do."""
    instead = ("drop --no-cut (the same answer from far fewer assemblies) or raise "
               "--budget" if no_cut else "raise --budget")
    return (f"--budget: the search stopped after {result.visited:,} assemblies (its budget),"
            f" while trying {plural(result.exhausted or 0, 'card')}, without finding one that "
            f"spells the {result.game.value} description or proving that none of up to "
            f"{plural(max_cards, 'card')} does; {instead} (each million assemblies takes "
            "about 150 MB and 15 s).")


def _proof(result: SolveResult) -> str:
    """What the search enumerated, in words."""
    parts = []
    for count in sorted(result.searched):
        parts.append(f"{plural(count, 'card')}: {result.searched[count]} judged, "
                     f"{result.cut.get(count, 0)} cut")
    return ("Searched every assembly built from connections (" + "; ".join(parts) + "). "
            f"A cut branch could not show the description's {result.needed} characters: "
            f"one card shows at most {result.best} of them.")


def _solve_json(result: SolveResult) -> dict[str, object]:
    assembly = None
    if result.assembly is not None:
        assembly = {"game": result.game.value, "preset": result.preset,
                    "card": [{"x": c.x, "y": c.y, "rotation": c.rotation,
                              "tabs": c.tabs.value} for c in result.assembly.cards]}
    return {"game": result.game.value, "preset": result.preset, "cards": result.cards,
            "minimal": result.minimal, "searched": result.total_searched,
            "searched_by_cards": {str(k): v for k, v in sorted(result.searched.items())},
            "cut_by_cards": {str(k): v for k, v in sorted(result.cut.items())},
            "most_characters_one_card_shows": result.best,
            "description_characters": result.needed, "assembly": assembly,
            "text": result.report.text if result.report else None}


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
    from cardgen.connector.check import fit_problems, game_problems, placement_problems
    from cardgen.connector.draw import style_problems, styles_of
    from cardgen.physical.card import Preset
    from cardgen.text.fonts import bundled_fonts

    presets = list(Preset) if preset is None else [_preset(preset)]
    width = bundled_fonts().regular.width
    checked = []
    with progress("card sizes checked", len(presets)) as shown:
        for size in shown.each(presets):
            lay = _layout(layout, size)
            problems = style_problems(styles_of(lay))
            problems += placement_problems(lay) + fit_problems(lay, width)
            problems += game_problems(lay, size.value)
            checked.append((size, lay, problems))
    if json_out:
        emit({"presets": {size.value: {
            "sound": not problems, "problems": [str(p) for p in problems],
            "fewest_cards": {g.value: n for g, n in lay.players.items()}}
            for size, lay, problems in checked}})
    else:
        for size, lay, problems in checked:
            if problems:
                typer.echo(f"{size.value}: {plural(len(problems), 'problem')}:")
                for problem in problems:
                    typer.echo(f"- {problem}")
            else:
                counts = ", ".join(f"{g.value} {lay.players[g]}" for g in lay.players)
                typer.echo(f"{size.value}: sound; the fewest cards are {counts}.")
    if any(problems for _, _, problems in checked):
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
    from cardgen.connector.assembly import read_assembly, shipped_assembly_path
    from cardgen.connector.picture import picture_bytes
    from cardgen.connector.validate import instructions
    from cardgen.connector.validate import validate as judge
    from cardgen.output import check_folder, check_stem, write_set

    games = (list(CONNECTOR_GAMES) if game is None
             else [parse_choice(CONNECTOR_GAMES, game, "GAME")])
    size = _preset(preset)
    formats = parse_formats(fmt)
    check_stem(name)
    check_folder(output)
    lay = _layout(None, size)
    results = [(g, judge(lay, read_assembly(shipped_assembly_path(g, size)))) for g in games]
    # One set, written all or nothing: a run stopped before the end writes no picture.
    with progress("pictures drawn", len(results) * len(formats)) as shown:
        pictures = {output / f"{name}-{g.value}-{size.value}.{f.value}":
                    picture_bytes(result, f.value) for g, result in results
                    for f in shown.each(formats)}
    report(write_set(pictures))
    if json_out:
        emit({"games": [{"game": g.value, "cards": result.cards, "valid": result.valid,
                         "text": result.text, "steps": instructions(result)}
                        for g, result in results]})
        return
    for g, result in results:
        state = "" if result.valid else " (NOT VALID: " + result.problems[0] + ")"
        typer.echo(f"{g.value} ({plural(result.cards, 'card')}){state}: {_q(result.text)}")
        for step in instructions(result):
            typer.echo(f"  {step}")
