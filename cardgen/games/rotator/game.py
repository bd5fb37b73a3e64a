"""Rotator as a :class:`~cardgen.games.base.Game`: the model, solver, words and drawing
of this package behind the common interface."""

from __future__ import annotations

from dataclasses import dataclass

from cardgen.draw.page import Item
from cardgen.errors import BoardError
from cardgen.games.rng import SplitMix64
from cardgen.games.rotator.art import RotatorPuzzle, printed_board
from cardgen.games.rotator.board import RotatorMap
from cardgen.games.rotator.describe import solution_lines
from cardgen.games.rotator.engine import Terrain, replay
from cardgen.games.rotator.generator import random_map
from cardgen.games.rotator.solver import DEFAULT_BUDGET, Solution, Solver
from cardgen.text.fonts import FontSet


@dataclass(frozen=True)
class RotatorGame:
    name: str = "rotator"
    title: str = "Rotator"
    players: str = "1 player"

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
        """Maps in the order the generator draws them (not yet graded or solved; the
        grading generator is ``generator.generate``)."""
        rng = SplitMix64(seed)
        return [random_map(rng) for _ in range(count)]

    def solve(self, board: RotatorMap, budget: int = DEFAULT_BUDGET) -> Solution:
        return Solver(Terrain.from_map(board)).solve(budget)

    def describe(self, board: RotatorMap, solution: Solution) -> list[str]:
        best = solution.line
        terrain = Terrain.from_map(board)
        line = replay(terrain, best.start, best.choices) if best else []
        return solution_lines(board, solution, line)

    def print_size(self, unit: float) -> tuple[float, float]:
        return RotatorPuzzle.print_size_at(unit)

    def draw(self, board: RotatorMap, x: float, y: float, unit: float, fonts: FontSet, *,
             solution: Solution | None = None) -> list[Item]:
        return self.puzzle(board, solution).draw(x, y, unit, fonts,
                                                 key=solution is not None)

    def puzzle(self, board: RotatorMap, solution: Solution | None = None, *,
               caption: str = "", key_caption: str = "") -> RotatorPuzzle:
        line = solution.line if solution is not None else None
        return printed_board(board, line, caption, key_caption)


ROTATOR = RotatorGame()
