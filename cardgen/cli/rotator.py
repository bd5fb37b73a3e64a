"""``cardgen rotator ...``: show, solve, generate and print Rotator boards.

BOARD is a board ID (``R1:B2B8E4I2I8-B4E2E8H4I9``) or a TOML file with
``nodes = ["A:C4", ...]``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from cardgen.cli.common import (
    DPI_RANGE,
    DpiOpt,
    JsonOpt,
    PaperOpt,
    check_range,
    check_stem_path,
    file_or_folder,
    parse_choice,
    parse_formats,
    plural,
    report,
    warn,
)
from cardgen.cli.progress import progress
from cardgen.errors import CardgenError, number

rotator = typer.Typer(
    name="rotator",
    help="Rotator, the one-player game: show, play, solve, generate and print boards.",
    no_args_is_help=True,
)

BoardArg = Annotated[str, typer.Argument(
    help="A board ID such as R1:B2B8E4I2I8-B4E2E8H4I9, or a TOML file with nodes = [...].",
    show_default=False)]
BudgetOpt = Annotated[int, typer.Option(
    help="The most states any one search may explore before it answers 'undecided' "
    "(100 to 10000000).")]
MIN_BUDGET = 100
MAX_BUDGET = 10_000_000  # 25 times the default: every state a search stores is kept in memory
MAX_COUNT = 500
MAX_TRIES = 1_000_000
SEEDS = (-2 ** 63, 2 ** 63 - 1)  # SplitMix64 reads 64 bits: any more would repeat seeds
DEFAULT_BUDGET = 400_000  # the solver's own default, kept here so --help needs no import


@rotator.command()
def show(board: BoardArg) -> None:
    """Draw the board in the terminal, as the card shows it opened flat."""
    from cardgen.games.registry import rotator as game

    rotator_game = game()
    for line in rotator_game.board_lines(rotator_game.load(board)):
        typer.echo(line)


@rotator.command()
def play(
    board: BoardArg,
    start: Annotated[str | None, typer.Option(
        help="Start on this column of grid A's Row 10 (A–J, or a square such as A:E10) "
        "instead of choosing at the prompt.", show_default=False)] = None,
) -> None:
    """Play a board in the terminal: legal choices, undo, the turn log and hints."""
    from cardgen.cli.rotator_play import play_game, start_column
    from cardgen.games.registry import rotator as game

    column = start_column(start) if start is not None else None
    play_game(game().load(board), column)


@rotator.command()
def solve(
    board: BoardArg,
    json_out: JsonOpt = False,
    budget: BudgetOpt = DEFAULT_BUDGET,
    quick: Annotated[bool, typer.Option(
        "--quick", help="For each start, any winning line instead of the shortest "
        "(the board's best line stays the shortest).")] = False,
) -> None:
    """Is the board winnable? The shortest winning line, turn by turn."""
    from cardgen.games.registry import rotator as game

    check_range(budget, "--budget", MIN_BUDGET, MAX_BUDGET)
    rotator_game = game()
    rmap = rotator_game.load(board)
    with progress("start squares solved", 10, json=json_out) as shown:
        solution = rotator_game.solve(rmap, budget, shortest=not quick,
                                      progress=lambda x: shown.advance())
    if json_out:
        typer.echo(json.dumps(rotator_game.solution_record(rmap, solution), indent=2,
                              ensure_ascii=False))
        return
    for text in rotator_game.describe(rmap, solution, budget_name="--budget"):
        typer.echo(text)


@rotator.command()
def generate(
    seed: Annotated[int, typer.Option(help="Any 64-bit integer; the same seed gives the same "
                                      "boards.")
                    ] = 1,
    count: Annotated[int, typer.Option(help="How many boards (1–500).")] = 12,
    difficulty: Annotated[str | None, typer.Option(
        help="easy, medium or hard (default: any).", show_default=False)] = None,
    output: Annotated[Path, typer.Option(
        "--output", "-o", parser=file_or_folder("rotator.pdf"),
        help="The PDF to write, or a folder to write rotator.pdf in.")] = Path(
        "output/rotator.pdf"),
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
) -> None:
    """Seeded boards that the solver proved winnable, graded, with answer keys."""
    from cardgen.games.registry import Grade
    from cardgen.games.registry import rotator as game
    from cardgen.output import check_file, write_files
    from cardgen.prepress.paper import Paper
    from cardgen.prepress.puzzlebook import PuzzleSize, puzzle_book
    from cardgen.render import Format, render
    from cardgen.rules.rotator import rules_sheet
    from cardgen.text.fonts import bundled_fonts
    from cardgen.texts import say

    grade = parse_choice(Grade, difficulty, "--difficulty") if difficulty is not None else None
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
    rotator_game = game()
    workers, capped = rotator_game.usable_jobs(jobs)
    if capped:
        warn([f"--jobs {number(jobs or 0)} is more than the {workers} CPUs this run may use; using "
              f"{workers}."])
    check_file(output)  # before the work, not after it
    with progress(f"{grade or 'any'} boards found", count, json=json_out) as shown:
        result = rotator_game.graded(
            seed, count, grade, budget=budget, tries=tries, jobs=workers,
            progress=lambda tried, found: shown.update(found, note=f"{tried} maps tried"))
    # Players see the grade only; the figures that give the puzzle away go on the keys.
    # The boards come in book order (a mixed set runs easy to hard).
    graded = result.boards
    boards = [rotator_game.line_puzzle(b.rmap, b.best, b.grade.value, say(
        "rotator", "caption.graded", grade=b.grade.value,
        best=say("rotator", "caption.best", turns=plural(b.best.turns, "turn"),
                 boosts=plural(b.best.boosts, "boost")),
        needed=say("rotator", "caption.needed",
                   boosts=plural(b.figures.boosts_needed, "boost")),
        horizon=b.figures.horizon, opened=b.figures.open_moves,
        first=b.figures.first_moves)) for b in graded]
    if boards:
        fonts = bundled_fonts()
        with progress("drawing the book", json=json_out, since=shown):
            document = puzzle_book(boards, size=book, keys=keys, paper=sheet, fonts=fonts,
                                   title=say("rotator", "book.title_seeded", seed=seed),
                                   subject=say("rotator", "book.subject"),
                                   front=rules_sheet(sheet, fonts) if rules else ())
            pdf = render(document, [Format.PDF])[".pdf"]
        report(write_files({output: pdf}), err=json_out,
               note=f" ({plural(len(boards), 'board')})")
    if json_out:
        typer.echo(json.dumps([rotator_game.graded_record(b) for b in graded], indent=2,
                              ensure_ascii=False))
    if not result.complete:
        raise CardgenError(
            f"found only {len(result.boards)} of {count} {grade or ''} boards in "
            f"{result.candidates} maps from seed {seed}; try another --seed or more --tries."
            .replace("  ", " "))


@rotator.command("print")
def print_board(
    boards: Annotated[list[str], typer.Argument(help="One or more board IDs or files.",
                                                show_default=False)],
    output: Annotated[Path, typer.Option(
        "--output", "-o", parser=file_or_folder("board"),
        help="Where to write (a folder: board.pdf … in it); the suffix is set per "
        "format.")] = Path("output/board.pdf"),
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
) -> None:
    """Print boards as PDF pages (with answer keys if asked), or one board as SVG or PNG."""
    from cardgen.draw.page import Document
    from cardgen.games.registry import Status
    from cardgen.games.registry import rotator as game
    from cardgen.output import check_file, write_files
    from cardgen.prepress.paper import Paper
    from cardgen.prepress.puzzlebook import PuzzleSize, puzzle_book, single_page
    from cardgen.render import Format, render, render_files
    from cardgen.rules.rotator import rules_sheet
    from cardgen.text.fonts import bundled_fonts
    from cardgen.texts import say

    formats = parse_formats(fmt)
    check_range(dpi, "--dpi", *DPI_RANGE)
    check_range(budget, "--budget", MIN_BUDGET, MAX_BUDGET)
    board_size = parse_choice(PuzzleSize, size, "--size")
    sheet = parse_choice(Paper, paper, "--paper")
    rotator_game = game()
    maps = [rotator_game.load(b) for b in boards]
    check_stem_path(output)
    for f in formats:
        check_file(output.with_suffix(f".{f.value}"))
    pictures = [f for f in formats if f is not Format.PDF]
    if len(maps) > 1 and pictures:
        raise CardgenError("--format svg and png take one board; use pdf for several.")
    if rules and Format.PDF not in formats:
        raise CardgenError("--rules puts the rules sheet in the PDF; add pdf to --format.")
    with progress("answer keys solved", len(maps), show=key) as shown:
        bests = [rotator_game.best_line(rmap, budget) if key else None
                 for rmap in shown.each(maps)]
    printed = []
    for rmap, best in zip(maps, bests, strict=True):
        details = ""
        if best is not None:
            details = {Status.NONE: say("rotator", "caption.none"),
                       Status.UNDECIDED: say("rotator", "caption.undecided"),
                       Status.WIN: say("rotator", "caption.best",
                                       turns=plural(best.turns, "turn"),
                                       boosts=plural(best.boosts, "boost"))}[best.status]
        printed.append(rotator_game.line_puzzle(rmap, best, "", details))
    fonts = bundled_fonts()
    files: dict[Path, bytes] = {}
    if Format.PDF in formats:
        document = puzzle_book(printed, size=board_size, keys=key, paper=sheet, fonts=fonts,
                               title=say("rotator", "book.title"),
                               subject=say("rotator", "book.subject"),
                               front=rules_sheet(sheet, fonts) if rules else ())
        files[output.with_suffix(".pdf")] = render(document, [Format.PDF])[".pdf"]
    if pictures:
        page = single_page(printed[0], board_size, key=key, fonts=fonts)
        files.update(render_files(Document([page]), output.with_suffix(""), pictures, dpi=dpi))
    report(write_files(files))
