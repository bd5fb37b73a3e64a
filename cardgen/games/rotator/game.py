"""Rotator as a :class:`~cardgen.games.base.Game`: the model, solver, generator, words,
drawing, rules figures and referee of this package behind the common interface, and the
few things only Rotator's own commands need (board files, graded generation with its
progress and processes, solution records, the terminal session), so that the command line
reaches Rotator through the registry alone.

The referee plays by the readable engine (``engine``): a :class:`Position` is the board,
the engine's state and the turns played; the first move is a :class:`StartColumn`, every
later one an engine :class:`~cardgen.games.rotator.engine.Choice`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from cardgen.board.cells import WIDTH
from cardgen.errors import BoardError
from cardgen.games.base import Capability, Game, Outcome, Players
from cardgen.games.names import GameName
from cardgen.games.rotator import generator
from cardgen.games.rotator.board import RotatorMap, load_board
from cardgen.games.rotator.describe import (
    board_lines,
    graded_record,
    solution_lines,
    solution_record,
)
from cardgen.games.rotator.engine import (
    Choice,
    IllegalMove,
    State,
    Terrain,
    TurnReport,
    legal_choices,
    play_turn,
    replay,
    start_state,
)
from cardgen.games.rotator.generator import MIXED, Difficulty, Generation, Grade, GradedBoard
from cardgen.games.rotator.play import Session
from cardgen.games.rotator.solver import DEFAULT_BUDGET, Solution, Solver, StartResult

if TYPE_CHECKING:  # the drawing: loaded by the print half only, not by a solve
    from cardgen.draw.page import Item
    from cardgen.games.rotator.art import RotatorPuzzle
    from cardgen.text.figure import FigureMaker
    from cardgen.text.fonts import FontSet


@dataclass(frozen=True)
class StartColumn:
    """The first decision of a game: stand on column ``x`` (0–9) of the top row."""

    x: int


RotatorMove = StartColumn | Choice


@dataclass(frozen=True)
class Position:
    """A game between decisions: ``state`` is None before the start column is chosen;
    ``log`` holds every turn played, the last one saying whether the game was won or
    lost."""

    rmap: RotatorMap
    state: State | None = None
    log: tuple[TurnReport, ...] = ()


class RotatorGame(Game[RotatorMap, Solution, Position, RotatorMove]):
    """Rotator, the one-player game (SPEC §5), with every half of the interface."""

    name = GameName.ROTATOR
    players = Players(1, 1)
    flags = (Capability.IDS | Capability.CAN_GENERATE | Capability.CAN_SOLVE
             | Capability.CAN_PRINT_BOARD | Capability.HAS_FIGURES | Capability.HAS_REFEREE)

    # --- the puzzle half ---------------------------------------------------------------

    def parse_id(self, text: str) -> RotatorMap:
        return RotatorMap.from_id(text)

    def format_id(self, board: RotatorMap) -> str:
        return board.board_id

    def problems(self, text: str) -> list[str]:
        try:
            RotatorMap.from_id(text)
        except BoardError as exc:
            return list(exc.problems)
        return []

    def generate(self, seed: int, count: int) -> list[RotatorMap]:
        """The boards ``cardgen rotator generate --seed SEED --count COUNT`` prints, in
        its order: graded, proved winnable, a mixed book (see :meth:`graded`). Fewer than
        ``count`` when the default number of tries finds no more."""
        return [b.rmap for b in self.graded(seed, count).boards]

    def solve(self, board: RotatorMap, budget: int = DEFAULT_BUDGET, *, shortest: bool = True,
              progress: Callable[[int], None] | None = None, jobs: int = 1) -> Solution:
        """Every start's outcome and the board's best line (:meth:`Solver.solve`; ``jobs``
        worker processes search the starts, the same answers)."""
        return Solver(Terrain.from_map(board)).solve(budget, shortest=shortest,
                                                     progress=progress, jobs=jobs)

    def describe(self, board: RotatorMap, solution: Solution, *,
                 budget_name: str = "budget") -> list[str]:
        """The verdict, every start and the best line turn by turn; ``budget_name`` is
        what the reader calls the state budget."""
        return solution_lines(board, solution, self.line_turns(board, solution.line),
                              budget_name=budget_name)

    # --- the print half ----------------------------------------------------------------

    def print_size(self, unit: float) -> tuple[float, float]:
        from cardgen.games.rotator.art import RotatorPuzzle

        return RotatorPuzzle.print_size_at(unit)

    def draw(self, board: RotatorMap, x: float, y: float, unit: float, fonts: FontSet, *,
             solution: Solution | None = None) -> list[Item]:
        return self.puzzle(board, solution).draw(x, y, unit, fonts,
                                                 key=solution is not None)

    def puzzle(self, board: RotatorMap, solution: Solution | None = None, *,
               caption: str = "", key_caption: str = "") -> RotatorPuzzle:
        from cardgen.games.rotator.art import printed_board

        line = solution.line if solution is not None else None
        return printed_board(board, line, caption, key_caption)

    def figures(self) -> Mapping[str, FigureMaker]:
        from cardgen.games.rotator.figures import FIGURES

        return FIGURES

    # --- the referee half --------------------------------------------------------------

    def initial(self, board: RotatorMap) -> Position:
        return Position(board)

    def legal_moves(self, state: Position) -> list[RotatorMove]:
        if self.outcome(state) is not None:
            return []
        if state.state is None:
            return [StartColumn(x) for x in range(WIDTH)]
        return list(legal_choices(Terrain.from_map(state.rmap), state.state))

    def push(self, state: Position, move: RotatorMove) -> Position:
        """The position after ``move``; an illegal one raises IllegalMove (a ValueError)."""
        if self.outcome(state) is not None:
            raise IllegalMove("the game is over")
        terrain = Terrain.from_map(state.rmap)
        if state.state is None:
            if not isinstance(move, StartColumn):
                raise IllegalMove("the first move is the start column")
            return Position(state.rmap, start_state(terrain, move.x))
        if not isinstance(move, Choice):
            raise IllegalMove("the start column is chosen once, before turn 1")
        after, report = play_turn(terrain, state.state, move)
        return Position(state.rmap, after, (*state.log, report))

    def outcome(self, state: Position) -> Outcome | None:
        last = state.log[-1] if state.log else None
        if last is not None and last.won:
            return Outcome((1,), "goal")
        if last is not None and last.lost:
            return Outcome((), "collapse")
        return None

    # --- what only Rotator's own commands need -----------------------------------------

    def load(self, spec: str) -> RotatorMap:
        """A board from an ID or from a TOML file with ``nodes = [...]``."""
        return load_board(spec)

    def board_lines(self, board: RotatorMap) -> list[str]:
        """The board in the terminal, as the card shows it opened flat."""
        return board_lines(board)

    def line_turns(self, board: RotatorMap, line: StartResult | None) -> list[TurnReport]:
        """A line's turns replayed through the readable engine (none without a line)."""
        return replay(Terrain.from_map(board), line.start, line.choices) if line else []

    def solution_record(self, board: RotatorMap, solution: Solution) -> dict[str, Any]:
        """A solved board as JSON-ready data."""
        return solution_record(board, solution, self.line_turns(board, solution.line))

    def best_line(self, board: RotatorMap, budget: int = DEFAULT_BUDGET) -> StartResult:
        """The board's shortest line over all starts (or why there is none)."""
        return Solver(Terrain.from_map(board)).best_line(budget)

    def graded(self, seed: int, count: int, difficulty: Difficulty = MIXED, *,
               budget: int = DEFAULT_BUDGET, tries: int | None = None, jobs: int = 1,
               progress: Callable[[int, int], None] | None = None) -> Generation:
        """Seeded boards the solver proved winnable, graded (:func:`generator.generate`),
        in the order a puzzle book prints them: a mixed book (several grades, by default
        easy, medium and hard in equal shares, see :func:`generator.shares`; or any grade,
        None) ramps from its first grade to its last, then by par turns, then ID; one
        grade keeps the order found. ``jobs`` changes only the speed."""
        found = generator.generate(seed, count, difficulty, budget=budget,
                                   max_candidates=tries, jobs=jobs, progress=progress)
        grades = generator.grades_of(difficulty)
        if grades is None or len(grades) > 1:
            order = list(grades or Grade)
            found.boards = sorted(found.boards, key=lambda b: (
                order.index(b.grade), b.best.turns, b.rmap.board_id))
        return found

    @staticmethod
    def usable_jobs(asked: int | None) -> tuple[int, bool]:
        """The parallel processes ``graded`` may use for ``asked``, and whether that is
        fewer (see :func:`generator.usable_jobs`)."""
        return generator.usable_jobs(asked)

    def graded_record(self, board: GradedBoard) -> dict[str, Any]:
        """A generated board and its figures as JSON-ready data."""
        return graded_record(board)

    def line_puzzle(self, board: RotatorMap, line: StartResult | None, caption: str = "",
                    key_caption: str = "") -> RotatorPuzzle:
        """The board to print, its answer key drawn from ``line`` when that wins."""
        from cardgen.games.rotator.art import printed_board

        return printed_board(board, line, caption, key_caption)

    def session(self, board: RotatorMap, start: int | None = None) -> Session:
        """A game to play in the terminal: undo, options, hints."""
        return Session(board, start)


ROTATOR = RotatorGame()
