"""``cardgen rotator ...``: show, solve, generate and print Rotator boards.

BOARD is a board ID (``R1:B2B8E4I2I8-B4E2E8H4I9``) or a TOML file with
``nodes = ["A:C4", ...]``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from cardgen.errors import CardgenError

if TYPE_CHECKING:
    from cardgen.rotator.board import RotatorMap
    from cardgen.rotator.printing import PrintedBoard
    from cardgen.rotator.solver import StartResult

rotator = typer.Typer(
    name="rotator",
    help="Rotator, the one-player game: show, solve, generate and print boards.",
    no_args_is_help=True,
)

BoardArg = Annotated[str, typer.Argument(
    help="A board ID such as R1:B2B8E4I2I8-B4E2E8H4I9, or a TOML file with nodes = [...].",
    show_default=False)]
JsonOpt = Annotated[bool, typer.Option("--json", help="Machine-readable output on stdout.")]
BudgetOpt = Annotated[int, typer.Option(
    help="The most states any one search may explore before it answers 'undecided'.",
    min=100)]
PaperOpt = Annotated[str, typer.Option(help="Paper size: a4 or letter.")]
DEFAULT_BUDGET = 400_000  # the solver's own default, kept here so --help needs no import


def _board(spec: str) -> RotatorMap:
    from cardgen.rotator.board import load_board

    return load_board(spec)


def _paper(value: str) -> str:
    from cardgen.sheet import PAPERS

    paper = value.lower()
    if paper not in PAPERS:
        raise CardgenError(f"--paper must be one of {', '.join(PAPERS)}, not {value!r}.")
    return paper


def _progress():  # type: ignore[no-untyped-def]
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    console = Console(stderr=True)
    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                    TextColumn("{task.fields[note]}"), console=console, transient=True,
                    disable=not console.is_terminal)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _printed(rmap: RotatorMap, result: StartResult | None, caption: str,
             details: str = "") -> PrintedBoard:
    from cardgen.rotator.engine import Terrain, replay
    from cardgen.rotator.printing import PrintedBoard

    if result is None or result.status != "win":
        return PrintedBoard(rmap, caption, details=details)
    reports = replay(Terrain.from_map(rmap), result.start, result.choices)
    return PrintedBoard(rmap, caption, result.start, tuple(reports), details)


@rotator.command()
def show(board: BoardArg) -> None:
    """Draw the board in the terminal, as the card shows it opened flat."""
    from cardgen.rotator.board import card_name

    rmap = _board(board)
    centres = set(rmap.nodes)
    letters = "ABCDEFGHIJ"
    typer.echo(f"{rmap.board_id}   (● Node, ▒ its territory: solid; · open air)")
    typer.echo("      " + " ".join(reversed(letters)) + "      grid A, read from the far side")
    for y in range(20):
        if y == 10:
            typer.echo("    " + "─" * 21 + "  fold")
        row = " ".join("●" if (x, y) in centres else "▒" if (x, y) in rmap.solid else "·"
                       for x in range(10))
        label = card_name((0, y), with_grid=False)[1:]
        typer.echo(f"  {label:>2}  {row}  {label:<2}")
    typer.echo("      " + " ".join(letters) + "      grid B")
    typer.echo("Start on any cell of grid A's Row 10; reach grid B's Row 10.")


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
    from cardgen.rotator.board import card_name
    from cardgen.rotator.describe import turn_record, turn_text
    from cardgen.rotator.engine import Terrain, replay
    from cardgen.rotator.solver import Solver

    rmap = _board(board)
    terrain = Terrain.from_map(rmap)
    solver = Solver(terrain)
    with _progress() as bar:
        task = bar.add_task("solving", total=10, note="")
        solution = solver.solve(budget, shortest=not quick,
                                progress=lambda x: bar.update(task, advance=1,
                                                              note=f"start {x + 1} of 10"))
    line = solution.line
    reports = replay(terrain, line.start, line.choices) if line else []
    winning = [card_name((r.start, 0)) for r in solution.winning]
    if json_out:
        data = {
            "board_id": rmap.board_id,
            "solvable": solution.solvable,
            "turns": line.turns if line else None,
            "boosts": line.boosts if line else None,
            "start": card_name((line.start, 0)) if line else None,
            "shortest": line.shortest if line else None,
            "winning_starts": winning,
            "complete": solution.complete,
            "states": solution.states,
            "budget": budget,
            "line": [turn_record(r, rmap.nodes) for r in reports],
            "starts": [{"start": card_name((r.start, 0)), "status": r.status,
                        "turns": r.turns or None, "boosts": r.boosts if r.turns else None,
                        "shortest": r.shortest if r.status == "win" else None}
                       for r in solution.results],
        }
        typer.echo(json.dumps(data, indent=2, ensure_ascii=False))
        return
    typer.echo(f"Board {rmap.board_id}")
    if line is not None:
        start = card_name((line.start, 0))
        figures = f"{_plural(line.turns, 'turn')} with {_plural(line.boosts, 'boost space')}"
        if line.shortest:
            typer.echo(f"Winnable in {figures}, starting from {start}.")
        else:
            typer.echo(f"Winnable: a line of {figures} from {start}; the shortest line was "
                       f"not proved within {budget:,} states per search.")
        typer.echo(f"Start cells that can win: {len(winning)} of 10 ({', '.join(winning)})")
    elif solution.solvable is None:
        typer.echo(f"Undecided: no winning line found within {budget:,} states per search "
                   "(try a larger --budget).")
    else:
        typer.echo(f"Not winnable: every start cell was searched to the end "
                   f"({solution.states:,} states).")
    typer.echo("")
    typer.echo("start   outcome")
    for r in solution.results:
        if r.status == "win":
            note = (f"{_plural(r.turns, 'turn')}, {_plural(r.boosts, 'boost')}" if r.shortest
                    else f"wins (a {r.turns}-turn line; the shortest was not proved)")
        else:
            note = {"none": "cannot win (proved)", "undecided": "undecided (budget)"}[r.status]
        typer.echo(f"{card_name((r.start, 0)):<7} {note}")
    if line is not None:
        typer.echo("")
        title = "Shortest line" if line.shortest else "Winning line"
        typer.echo(f"{title}: start on {card_name((line.start, 0))}")
        for report in reports:
            typer.echo("  " + turn_text(report, rmap.nodes))
    typer.echo(f"\n{solution.states:,} states explored.")


@rotator.command()
def generate(
    seed: Annotated[int, typer.Option(help="Any integer; the same seed gives the same boards.")
                    ] = 1,
    count: Annotated[int, typer.Option(help="How many boards.", min=1, max=500)] = 12,
    difficulty: Annotated[str | None, typer.Option(
        help="easy, medium or hard (default: any).", show_default=False)] = None,
    output: Annotated[Path, typer.Option("--output", "-o", help="The PDF to write.")] = Path(
        "output/rotator.pdf"),
    layout: Annotated[str, typer.Option(help="nup: card-sized boards, several per page; "
                                        "large: one board per page.")] = "nup",
    keys: Annotated[bool, typer.Option("--keys/--no-keys", help="Answer keys after the "
                                       "boards.")] = True,
    paper: PaperOpt = "a4",
    json_out: JsonOpt = False,
    budget: BudgetOpt = DEFAULT_BUDGET,
    tries: Annotated[int | None, typer.Option(
        help="Most maps to try (default 60 per board asked).", min=1, show_default=False)
                     ] = None,
    jobs: Annotated[int | None, typer.Option(
        help="Parallel processes (default: the CPU count).", min=1, show_default=False)
                    ] = None,
) -> None:
    """Seeded boards that the solver proved winnable, graded, with answer keys."""
    from cardgen.output import write_files
    from cardgen.render.pdf import render_pdf
    from cardgen.rotator.board import card_name
    from cardgen.rotator.generator import GRADES
    from cardgen.rotator.generator import generate as run
    from cardgen.rotator.printing import rotator_document

    if difficulty is not None and difficulty.lower() not in GRADES:
        raise CardgenError(f"--difficulty must be one of {', '.join(GRADES)}, "
                           f"not {difficulty!r}.")
    if layout not in ("nup", "large"):
        raise CardgenError(f"--layout must be nup or large, not {layout!r}.")
    grade = difficulty.lower() if difficulty else None
    paper = _paper(paper)
    with _progress() as bar:
        task = bar.add_task(f"{grade or 'any'} boards", total=count, note="")
        result = run(seed, count, grade, budget=budget, max_candidates=tries,
                     jobs=jobs or os.cpu_count() or 1,
                     progress=lambda tried, found: bar.update(
                         task, completed=found, note=f"{tried} maps tried"))
    # Players see the grade only; the figures that give the puzzle away go on the keys.
    boards = [_printed(b.rmap, b.best, b.grade,
                       f"{b.grade} · best line {_plural(b.best.turns, 'turn')}, "
                       f"{_plural(b.best.boosts, 'boost')} · {len(b.winning_starts)} of 10 "
                       "starts win")
              for b in result.boards]
    if boards:
        document = rotator_document(boards, layout=layout, keys=keys, paper=paper,
                                    title=f"Rotator boards, seed {seed}")
        for path in write_files({output: render_pdf(document)}):
            typer.echo(f"wrote {path} ({_plural(len(boards), 'board')})", err=json_out)
    if json_out:
        typer.echo(json.dumps([{
            "board_id": b.rmap.board_id,
            "grade": b.grade,
            "turns": b.best.turns,
            "boosts": b.best.boosts,
            "start": card_name((b.best.start, 0)),
            "winning_starts": [card_name((x, 0)) for x in b.winning_starts],
        } for b in result.boards], indent=2, ensure_ascii=False))
    if not result.complete:
        raise CardgenError(
            f"found only {len(result.boards)} of {count} {grade or ''} boards in "
            f"{result.candidates} maps from seed {seed}; try another --seed or more --tries."
            .replace("  ", " "))


@rotator.command("print")
def print_board(
    boards: Annotated[list[str], typer.Argument(help="One or more board IDs or files.",
                                                show_default=False)],
    output: Annotated[Path, typer.Option("--output", "-o", help="Where to write; the "
                                         "suffix is set per format.")] = Path("output/board.pdf"),
    fmt: Annotated[str, typer.Option("--format", "-f", help="pdf, svg, png (svg and png "
                                     "take one board).")] = "pdf",
    size: Annotated[str, typer.Option(help="card: as on the card; large: as large as the "
                                      "page allows.")] = "large",
    key: Annotated[bool, typer.Option("--key", help="Solve and draw the answer key too.")
                   ] = False,
    paper: PaperOpt = "a4",
    budget: BudgetOpt = DEFAULT_BUDGET,
    dpi: Annotated[float, typer.Option(help="PNG resolution.", min=36, max=1200)] = 300,
) -> None:
    """Print boards as PDF pages (with answer keys if asked), or one board as SVG or PNG."""
    from cardgen.cli import parse_formats
    from cardgen.output import write_files
    from cardgen.page import Document
    from cardgen.render.pdf import render_pdf
    from cardgen.render.png import png_bytes, render_png
    from cardgen.render.svg import render_svg
    from cardgen.rotator.engine import Terrain
    from cardgen.rotator.printing import rotator_document, single_page
    from cardgen.rotator.solver import Solver

    formats = parse_formats(fmt)
    if size not in ("card", "large"):
        raise CardgenError(f"--size must be card or large, not {size!r}.")
    paper = _paper(paper)
    maps = [_board(b) for b in boards]
    if len(maps) > 1 and set(formats) & {"svg", "png"}:
        raise CardgenError("--format svg and png take one board; use pdf for several.")
    printed = []
    for rmap in maps:
        best = Solver(Terrain.from_map(rmap)).best_line(budget) if key else None
        details = ""
        if best is not None:
            details = {"none": "no winning line", "undecided": "undecided within the budget",
                       "win": f"best line {_plural(best.turns, 'turn')}, "
                              f"{_plural(best.boosts, 'boost')}"}[best.status]
        printed.append(_printed(rmap, best, "", details))
    files: dict[Path, bytes] = {}
    if "pdf" in formats:
        document = rotator_document(printed, layout="nup" if size == "card" else "large",
                                    keys=key, paper=paper, title="Rotator boards")
        files[output.with_suffix(".pdf")] = render_pdf(document)
    if set(formats) & {"svg", "png"}:
        page = single_page(printed[0], size, key=key)
        view = Document([page]).views()[0]
        if "svg" in formats:
            files[output.with_suffix(".svg")] = render_svg(view)
        if "png" in formats:
            files[output.with_suffix(".png")] = png_bytes(render_png(view, dpi), dpi)
    for path in write_files(files):
        typer.echo(f"wrote {path}")
