"""The interface every game fills in, in the spirit of Simon Tatham's ``struct game``
(new_desc, validate_desc, solve, text_format, print_size, print) and python-chess's
``status()``: a board is shared as a compact ID, every problem with an ID is reported at
once, a solution can be told in words, and a board knows its printed size and drawing so
that generic printing (``prepress.puzzlebook``) can lay out any game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, TypeVar, runtime_checkable

if TYPE_CHECKING:
    from cardgen.draw.page import Item
    from cardgen.prepress.puzzlebook import Puzzle
    from cardgen.text.fonts import FontSet

Board = TypeVar("Board")
Sol = TypeVar("Sol")


@runtime_checkable
class Game(Protocol[Board, Sol]):
    """One game: its boards are ``Board`` values, its solutions ``Sol`` values."""

    @property
    def name(self) -> str:
        """As the registry and the command line know it."""
        ...

    @property
    def title(self) -> str:
        """As printed."""
        ...

    @property
    def players(self) -> str: ...

    def parse_id(self, text: str) -> Board:
        """The board an ID names; a BoardError (a ValueError) listing every problem."""
        ...

    def format_id(self, board: Board) -> str:
        """The board's ID; ``parse_id(format_id(b)) == b``."""
        ...

    def problems(self, text: str) -> list[str]:
        """Every problem with an ID, in words; empty when it names a valid board."""
        ...

    def generate(self, seed: int, count: int) -> list[Board]:
        """``count`` boards from ``seed``, the same on every machine."""
        ...

    def solve(self, board: Board, budget: int) -> Sol:
        """A solution, or a proof there is none, within ``budget`` units of search."""
        ...

    def describe(self, board: Board, solution: Sol) -> list[str]:
        """The solution in words, line by line."""
        ...

    def print_size(self, unit: float) -> tuple[float, float]:
        """Width and height (mm) of a board drawn at scale ``unit``."""
        ...

    def draw(self, board: Board, x: float, y: float, unit: float, fonts: FontSet, *,
             solution: Sol | None = None) -> list[Item]:
        """The board with its top-left corner at (x, y); with a solution, drawn on it."""
        ...

    def puzzle(self, board: Board, solution: Sol | None = None, *, caption: str = "",
               key_caption: str = "") -> Puzzle:
        """The board as a puzzle book prints it."""
        ...
