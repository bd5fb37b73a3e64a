"""Rotator in words: a played line turn by turn, a solution as text or JSON-ready data,
the board as characters. The game's ``text_format``: everything here is a pure function
of the model, for answer keys, ``rotator solve``, ``rotator show`` and JSON output.
"""

from __future__ import annotations

from typing import Any

from cardgen.board.cells import Cell, card_name
from cardgen.board.text import text_board
from cardgen.games.rotator.board import RotatorMap
from cardgen.games.rotator.engine import GRAVITY, TurnReport
from cardgen.games.rotator.generator import GradedBoard
from cardgen.games.rotator.solver import Solution, Status

# Gravity as arrows on the card opened flat, grid A away from the player.
ARROWS = {(0, 1): "↓", (1, 0): "→", (0, -1): "↑", (-1, 0): "←"}
GRAVITY_WORDS = {(0, 1): "down", (1, 0): "right", (0, -1): "up", (-1, 0): "left"}
assert set(ARROWS) == set(GRAVITY) == set(GRAVITY_WORDS)

NODE_MARK, SOLID_MARK = "●", "▒"


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def start_name(x: int) -> str:
    """A start cell (column x of the top row) in card notation."""
    return card_name((x, 0))


def _names(cells: list[Cell]) -> list[str]:
    return [card_name(c) for c in cells]


def turn_text(report: TurnReport, nodes: tuple[Cell, ...]) -> str:
    """One turn in words, e.g. "Turn 3 ↑: fall 2, drill A:C5, boost 1 (A:C6)"."""
    parts = []
    if report.start is not None:
        parts.append(f"start from {card_name(report.start)}")
    if report.fall:
        parts.append(f"fall {len(report.fall)}")
    if report.lost:
        parts.append(f"{card_name(report.end)} collapses under you: lost")
    if report.drill is not None:
        parts.append(f"drill {card_name(report.drill)}")
    if report.boosted:
        parts.append(f"boost {len(report.boosted)} ({', '.join(_names(report.boosted))})")
    if report.captured is not None:
        parts.append(f"capture the Node at {card_name(nodes[report.captured])}")
    if report.fall_after:
        parts.append(f"fall {len(report.fall_after)}")
    if not parts:
        parts.append("no move")
    text = f"Turn {report.turn} {ARROWS[report.gravity]}: " + ", ".join(parts)
    if report.won:
        text += f"; reach the far Row 10 at {card_name(report.end)}: won"
    return text


def turn_record(report: TurnReport, nodes: tuple[Cell, ...]) -> dict[str, Any]:
    """One turn as JSON-ready data in card notation."""
    return {
        "turn": report.turn,
        "gravity": GRAVITY_WORDS[report.gravity],
        "start": card_name(report.start) if report.start is not None else None,
        "fall": _names(report.fall),
        "drill": card_name(report.drill) if report.drill is not None else None,
        "boost": _names(report.boosted),
        "capture": card_name(nodes[report.captured]) if report.captured is not None else None,
        "fall_after": _names(report.fall_after),
        "end": card_name(report.end),
        "won": report.won,
        "text": turn_text(report, nodes),
    }


def board_lines(rmap: RotatorMap) -> list[str]:
    """The board for a terminal, as the card shows it opened flat."""
    marks = {cell: SOLID_MARK for cell in rmap.solid}
    marks.update({cell: NODE_MARK for cell in rmap.nodes})
    return [f"{rmap.board_id}   ({NODE_MARK} Node, {SOLID_MARK} its territory: solid; "
            "· open air)",
            *text_board(marks),
            "Start on any cell of grid A's Row 10; reach grid B's Row 10."]


def solution_record(rmap: RotatorMap, solution: Solution, line: list[TurnReport],
                    ) -> dict[str, Any]:
    """A solved board as JSON-ready data; ``line`` is the replayed best line."""
    best = solution.line
    return {
        "board_id": rmap.board_id,
        "solvable": solution.solvable,
        "turns": best.turns if best else None,
        "boosts": best.boosts if best else None,
        "start": start_name(best.start) if best else None,
        "shortest": best.shortest if best else None,
        "winning_starts": [start_name(r.start) for r in solution.winning],
        "complete": solution.complete,
        "states": solution.states,
        "budget": solution.budget,
        "line": [turn_record(r, rmap.nodes) for r in line],
        "starts": [{"start": start_name(r.start), "status": r.status,
                    "turns": r.turns or None, "boosts": r.boosts if r.turns else None,
                    "shortest": r.shortest if r.status is Status.WIN else None,
                    "best": best is not None and r.start == best.start}
                   for r in solution.results],
    }


def solution_lines(rmap: RotatorMap, solution: Solution, line: list[TurnReport], *,
                   budget_name: str = "budget") -> list[str]:
    """A solved board in words: the verdict, every start's outcome, the best line. The
    best line's start shows that line (``Solver.solve`` puts it there); a start whose line
    is not proved the shortest says so.
    ``budget_name`` is what the reader calls the state budget (a UI names its option)."""
    best = solution.line
    budget = solution.budget
    winning = [start_name(r.start) for r in solution.winning]
    out = [f"Board {rmap.board_id}"]
    if best is not None:
        start = start_name(best.start)
        figures = f"{plural(best.turns, 'turn')} with {plural(best.boosts, 'boost space')}"
        if best.shortest:
            out.append(f"Winnable in {figures}, starting from {start}.")
        else:
            out.append(f"Winnable: a line of {figures} from {start}; the shortest line was "
                       f"not proved within {budget:,} states per search.")
        out.append(f"Start cells that can win: {len(winning)} of 10 ({', '.join(winning)})")
    elif solution.solvable is None:
        out.append(f"Undecided: no winning line found within {budget:,} states per search "
                   f"(try a larger {budget_name}).")
    else:
        out.append(f"Not winnable: every start cell was searched to the end "
                   f"({solution.states:,} states).")
    out += ["", "start   outcome"]
    for r in solution.results:
        if r.status is Status.WIN:
            note = (f"{plural(r.turns, 'turn')}, {plural(r.boosts, 'boost')}" if r.shortest
                    else f"wins: a line of {plural(r.turns, 'turn')} found, not proved the "
                         "shortest")
            if best is not None and r.start == best.start:
                note += " (the line below)"
        else:
            note = {Status.NONE: "cannot win (proved)",
                    Status.UNDECIDED: "undecided (budget)"}[r.status]
        out.append(f"{start_name(r.start):<7} {note}")
    if best is not None:
        title = "Shortest line" if best.shortest else "Winning line"
        out += ["", f"{title}: start on {start_name(best.start)}"]
        out += ["  " + turn_text(report, rmap.nodes) for report in line]
    out.append(f"\n{solution.states:,} states explored.")
    return out


def graded_record(board: GradedBoard) -> dict[str, Any]:
    """A generated board, its best line's figures and its difficulty figures (see
    ``grading``) as JSON-ready data."""
    figures = board.figures
    return {
        "board_id": board.rmap.board_id,
        "grade": board.grade,
        "turns": board.best.turns,
        "boosts": board.best.boosts,
        "start": start_name(board.best.start),
        "winning_starts": [start_name(x) for x in board.winning_starts],
        "par": figures.par,
        "boosts_needed": figures.boosts_needed,
        "open_first_moves": figures.open_moves,
        "first_moves": figures.first_moves,
        "par_first_moves": figures.par_moves,
    }
