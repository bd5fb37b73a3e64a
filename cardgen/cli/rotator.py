"""``cardgen rotator ...``: show, solve, generate and print Rotator boards.

BOARD is a board ID (``R1:B2B8E4I2I8-B4E2E8H4I9``) or a TOML file with
``nodes = ["A:C4", ...]``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from cardgen.cli.common import (
    DEFAULT_OUTPUT,
    DPI_RANGE,
    PLAY_JSON,
    DpiOpt,
    JsonOpt,
    OutputOpt,
    PaperOpt,
    QuietOpt,
    UsageError,
    check_range,
    emit,
    json_files,
    name_option,
    parse_choice,
    parse_formats,
    plural,
    report,
    warn,
)
from cardgen.cli.helptext import CONTEXT
from cardgen.cli.params import as_options
from cardgen.cli.progress import progress
from cardgen.errors import CHECK_STATUS, CardgenError, number

if TYPE_CHECKING:
    from cardgen.api.rotator import Grade

rotator = typer.Typer(
    name="rotator",
    context_settings=CONTEXT,
    help="Rotator, the one-player game: show, play, solve and make boards.",
    no_args_is_help=True,
)

BoardArg = Annotated[str, typer.Argument(
    help="A board ID such as R1:B2B8E4I2I8-B4E2E8H4I9, or a TOML file with nodes = [...].",
    show_default=False)]
BudgetOpt = Annotated[int, typer.Option(
    help="The most states any one search may explore before it answers 'undecided' "
    "(100 to 10000000; the count is a diagnostic: a search that prunes more decides "
    "more within it).")]
DEFAULT_BUDGET = 400_000  # the solver's own default, kept here so --help needs no import


@rotator.command()
def show(board: BoardArg, json_out: JsonOpt = False, quiet: QuietOpt = False) -> None:
    """Draw the board in the terminal, as the card shows it opened flat."""
    from cardgen.api.rotator import read_rotator_board, rotator_lines

    rmap = read_rotator_board(board)
    lines = rotator_lines(rmap)
    if json_out:
        emit({"board": rmap.board_id, "lines": lines})
        return
    for line in lines:
        typer.echo(line)


@rotator.command()
def play(
    board: BoardArg,
    start: Annotated[str | None, typer.Option(
        help="Start on this column of grid A's Row 10 (A–J, or a square such as A:E10) "
        "instead of choosing at the prompt.", show_default=False)] = None,
    json_out: JsonOpt = False,
    quiet: QuietOpt = False,
) -> None:
    """Play a board in the terminal, with undo, a turn log and hints."""
    from cardgen.api.rotator import play_rotator, read_rotator_board, rotator_start
    from cardgen.cli.rotator_play import play_game

    with as_options():
        column = rotator_start(start) if start is not None else None
        session = play_rotator(read_rotator_board(board), column)
    if json_out:
        raise UsageError(PLAY_JSON.format(board="rotator solve BOARD --json"), field="--json")
    play_game(session)



@rotator.command()
def solve(
    board: BoardArg,
    json_out: JsonOpt = False,
    budget: BudgetOpt = DEFAULT_BUDGET,
    quick: Annotated[bool, typer.Option(
        "--quick", help="For each start, any winning line instead of the shortest "
        "(the board's best line stays the shortest).")] = False,
    jobs: Annotated[int, typer.Option(
        help="Parallel processes searching the ten starts (at most the CPU count): the "
        "same answers, sooner on idle cores, slower on busy ones.")] = 1,
    quiet: QuietOpt = False,
) -> None:
    """Is the board winnable? Its shortest winning line, turn by turn.

    Exit 4 when no start wins."""
    from cardgen.api.rotator import (
        MAX_BUDGET,
        MIN_BUDGET,
        read_rotator_board,
        solve_rotator,
        usable_jobs,
    )

    check_range(budget, "--budget", MIN_BUDGET, MAX_BUDGET)
    with as_options():
        workers, capped = usable_jobs(jobs)
    if capped:
        warn([f"--jobs {number(jobs or 0)} is more than the {workers} CPUs this run may use; using "
              f"{workers}."])
    rmap = read_rotator_board(board)
    with progress("start squares solved", 10, json=json_out) as shown, as_options():
        solution = solve_rotator(rmap, budget=budget, quick=quick, jobs=workers,
                                 progress=lambda x: shown.advance())
    if json_out:
        emit(solution.record())
    else:
        for text in solution.describe(budget_name="--budget"):
            typer.echo(text)
    if solution.solvable is False:  # every start proved lost: the check found no win
        raise typer.Exit(CHECK_STATUS)


@rotator.command()
def generate(
    seed: Annotated[int, typer.Option(help="Any 64-bit integer; the same seed gives the same "
                                      "boards.")
                    ] = 1,
    count: Annotated[int, typer.Option(help="How many boards (1–500).")] = 12,
    difficulty: Annotated[str | None, typer.Option(
        help="easy, medium or hard, or several in the order the book ramps, such as "
        "easy,hard (equal shares). Default: easy,medium,hard.", show_default=False)] = None,
    output: OutputOpt = DEFAULT_OUTPUT,
    name: Annotated[str, name_option("File name stem of the book (NAME.pdf).")
                    ] = "rotator",
    size: Annotated[str, typer.Option(help="card: card-sized boards, several per page; "
                                      "large: one board per page, as large as it allows.")
                    ] = "card",
    layout: Annotated[str | None, typer.Option(
        hidden=True, help="Old name of --size (nup = card).")] = None,
    keys: Annotated[bool, typer.Option("--keys/--no-keys", help="Answer keys after the "
                                       "boards.")] = True,
    rules: Annotated[bool, typer.Option("--rules/--no-rules", help="The one-page rules "
                                        "sheet before the boards.")] = True,
    paper: PaperOpt = "a4",
    json_out: JsonOpt = False,
    budget: BudgetOpt = DEFAULT_BUDGET,
    tries: Annotated[int | None, typer.Option(
        help="Most maps to try (default 60 per board asked; at most 1000000).",
        show_default=False)
                     ] = None,
    jobs: Annotated[int | None, typer.Option(
        help="Parallel processes (default and most: the CPU count).", show_default=False)
                    ] = None,
    quiet: QuietOpt = False,
) -> None:
    """Make a book of new boards, proved winnable, with answer keys.

    Seeded (the same seed gives the same book) and graded easy, medium or hard."""
    from cardgen.api.rotator import (
        MAX_BUDGET,
        MAX_COUNT,
        MAX_TRIES,
        MIN_BUDGET,
        SEEDS,
        Grade,
        Paper,
        PuzzleSize,
        check_output,
        generate_rotator,
        make_rotator_book,
        usable_jobs,
    )

    grades = _grades(difficulty) if difficulty is not None else tuple(Grade)
    grade = ",".join(grades)
    if layout is not None:  # the old spelling of --size (nup for card), still read
        size = "card" if layout.strip().lower() == "nup" else layout
    book = parse_choice(PuzzleSize, size, "--size" if layout is None else "--layout")
    if layout is not None:
        warn(["--layout is deprecated: use --size card (for nup) or --size large."])
    sheet = parse_choice(Paper, paper, "--paper")
    check_range(seed, "--seed", *SEEDS)
    check_range(count, "--count", 1, MAX_COUNT)
    check_range(budget, "--budget", MIN_BUDGET, MAX_BUDGET)
    if tries is not None:
        check_range(tries, "--tries", 1, MAX_TRIES)
    with as_options():
        workers, capped = usable_jobs(jobs)
    if capped:
        warn([f"--jobs {number(jobs or 0)} is more than the {workers} CPUs this run may use; using "
              f"{workers}."])
    with as_options():
        check_output(output, name)  # before the work, not after it
    with progress(f"{grade} boards found", count, json=json_out) as shown, as_options():
        result = generate_rotator(
            seed, count, grades, budget=budget, tries=tries, jobs=workers,
            progress=lambda tried, found: shown.update(found, note=f"{tried} maps tried"))
    if result.boards:
        with progress("drawing the book", json=json_out, since=shown), as_options():
            made = make_rotator_book(result, size=book, keys=keys, rules=rules, paper=sheet,
                                     name=name)
        report(made.files.write(output))
        if not json_out:
            typer.echo(f"{plural(len(result.boards), 'board')} in the book.")
    if json_out:
        emit({"boards": result.records(), "files": json_files()})
    if not result.complete:
        short = ", ".join(f"{g} {n} of {want}" for g, n, want in result.short)
        raise CardgenError(
            f"found only {len(result.boards)} of {count} {grade} boards "
            f"{f'({short}) ' if len(grades) > 1 else ''}in {result.candidates} maps from "
            f"seed {seed}; try another --seed or more --tries.")


def _grades(text: str) -> tuple[Grade, ...]:
    """``--difficulty``: one grade, or several separated by commas in ramp order."""
    from cardgen.api.rotator import Grade

    grades = tuple(parse_choice(Grade, part.strip(), "--difficulty") for part in text.split(","))
    twice = next((g for i, g in enumerate(grades) if g in grades[:i]), None)
    if twice is not None:
        raise UsageError(f"--difficulty names {twice} twice; name each grade once, in the "
                         "order the book ramps, such as easy,hard.", field="--difficulty",
                         value=text)
    return grades


@rotator.command("print")
def print_board(
    boards: Annotated[list[str], typer.Argument(help="One or more board IDs or files.",
                                                show_default=False)],
    output: OutputOpt = DEFAULT_OUTPUT,
    name: Annotated[str, name_option("File name stem: NAME.pdf, NAME.svg, NAME.png.")
                    ] = "board",
    fmt: Annotated[str, typer.Option("--format", "-f", help="pdf, svg, png (svg and png "
                                     "take one board).")] = "pdf",
    size: Annotated[str, typer.Option(help="card: as on the card; large: as large as the "
                                      "page allows.")] = "large",
    key: Annotated[bool, typer.Option("--key", help="Solve and draw the answer key too.")
                   ] = False,
    rules: Annotated[bool, typer.Option("--rules", help="The one-page rules sheet before "
                                        "the boards (PDF only).")] = False,
    paper: PaperOpt = "a4",
    budget: BudgetOpt = DEFAULT_BUDGET,
    dpi: DpiOpt = 300,
    json_out: JsonOpt = False,
    quiet: QuietOpt = False,
) -> None:
    """Print boards as PDF pages, or one board as SVG or PNG.

    With --key, each board's answer key too."""
    from cardgen.api.rotator import (
        MAX_BUDGET,
        MIN_BUDGET,
        Format,
        Paper,
        PuzzleSize,
        check_output,
        make_rotator_boards,
        read_rotator_board,
    )
    from cardgen.cli.together import dpi_needs_png, only_with

    formats = parse_formats(fmt)
    check_range(dpi, "--dpi", *DPI_RANGE)
    check_range(budget, "--budget", MIN_BUDGET, MAX_BUDGET)
    dpi_needs_png(formats)
    only_with(["budget"], present=key, needs="to --key (the search for the answer key)",
              fix="add --key")
    board_size = parse_choice(PuzzleSize, size, "--size")
    sheet = parse_choice(Paper, paper, "--paper")
    maps = [read_rotator_board(b) for b in boards]
    with as_options():
        check_output(output, name, [f".{f.value}" for f in formats])
    pictures = [f for f in formats if f is not Format.PDF]
    if len(maps) > 1 and pictures:
        raise CardgenError("--format svg and png take one board; use pdf for several.")
    if rules and Format.PDF not in formats:
        raise CardgenError("--rules puts the rules sheet in the PDF; add pdf to --format.")
    with progress("answer keys solved", len(maps), show=key) as shown, as_options(
            formats="--format"):
        made = make_rotator_boards(maps, formats=formats, size=board_size, key=key,
                                   rules=rules, paper=sheet, budget=budget, dpi=dpi,
                                   name=name, progress=shown.update)
    report(made.files.write(output))
