"""The interface every game fills in, in the spirit of Simon Tatham's ``struct game`` and
python-chess.

A game has up to four halves, and its :class:`Capability` flags say which it has:

- the **puzzle** half (``struct game``'s new_desc, validate_desc, solve, text_format): a
  board is shared as a compact ID (:meth:`Game.parse_id`, :meth:`Game.format_id`), every
  problem with an ID is reported at once (:meth:`Game.problems`), boards are generated from
  a seed (:meth:`Game.generate`), solved (:meth:`Game.solve`) and the solution told in words
  (:meth:`Game.describe`);
- the **print** half (``print_size``, ``print``): a board knows its printed size and
  drawing (:meth:`Game.print_size`, :meth:`Game.draw`) and prints as a
  :class:`~cardgen.prepress.puzzlebook.Puzzle`, so generic printing lays out any game;
- the **figures** of the game's rules text (:meth:`Game.figures`: name → FigureMaker);
- the **referee** half (python-chess's ``Board``: ``legal_moves``, ``push``,
  ``outcome()``), with immutable states: :meth:`Game.push` returns a new state.

A half a game lacks is not a silent stub: calling it raises :class:`Unsupported`, which
names the game and the half. A game subclasses :class:`Game` and overrides the methods of
the halves it has; :func:`provided` reads which those are, and the registry's tests check
it against the flags the game declares.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from cardgen.errors import CardgenError
from cardgen.games.names import GameName, Players

if TYPE_CHECKING:
    from cardgen.draw.page import Item
    from cardgen.prepress.puzzlebook import Puzzle
    from cardgen.text.figure import FigureMaker
    from cardgen.text.fonts import FontSet

Board = TypeVar("Board")
Sol = TypeVar("Sol")
State = TypeVar("State")
Move = TypeVar("Move")


class Capability(enum.Flag):
    """What a game can do; each flag stands for a group of :class:`Game` methods."""

    IDS = enum.auto()  # parse_id, format_id, problems
    CAN_GENERATE = enum.auto()  # generate
    CAN_SOLVE = enum.auto()  # solve, describe
    CAN_PRINT_BOARD = enum.auto()  # print_size, draw, puzzle
    HAS_FIGURES = enum.auto()  # figures
    HAS_REFEREE = enum.auto()  # initial, legal_moves, push, outcome
    NONE = 0


# The methods of each half: a game has a half when it overrides all of them.
HALVES: dict[Capability, tuple[str, ...]] = {
    Capability.IDS: ("parse_id", "format_id", "problems"),
    Capability.CAN_GENERATE: ("generate",),
    Capability.CAN_SOLVE: ("solve", "describe"),
    Capability.CAN_PRINT_BOARD: ("print_size", "draw", "puzzle"),
    Capability.HAS_FIGURES: ("figures",),
    Capability.HAS_REFEREE: ("initial", "legal_moves", "push", "outcome"),
}
# What the half is called in an error that says a game lacks it.
HALF_WORDS: dict[Capability, str] = {
    Capability.IDS: "board IDs",
    Capability.CAN_GENERATE: "board generator",
    Capability.CAN_SOLVE: "solver",
    Capability.CAN_PRINT_BOARD: "printed boards",
    Capability.HAS_FIGURES: "rules figures",
    Capability.HAS_REFEREE: "referee",
}


class Unsupported(CardgenError):
    """A half of the game interface that this game does not have (see its flags)."""

    def __init__(self, game: GameName, half: Capability) -> None:
        super().__init__(f"{game.value} has no {HALF_WORDS[half]} (it lacks {half.name}); "
                         f"check game.flags before calling {HALVES[half][0]}.", value=game)
        self.game, self.half = game, half


@dataclass(frozen=True)
class Outcome:
    """How a game ended (python-chess's ``Outcome``): the players who won (seat numbers
    from 1; empty when nobody did, as when a one-player game is lost) and why, in a word
    of the game's own (``"goal"``, ``"collapse"``…)."""

    winners: tuple[int, ...]
    termination: str


class Game(Generic[Board, Sol, State, Move]):
    """One game: boards are ``Board`` values, solutions ``Sol``, the referee's states
    ``State`` (immutable) and its moves ``Move``. Every method of a half the game lacks
    raises :class:`Unsupported`."""

    name: GameName
    players: Players
    flags: Capability = Capability.NONE

    @property
    def title(self) -> str:
        """As printed: the name with a capital."""
        return self.name.value.capitalize()

    def lacks(self, half: Capability) -> Unsupported:
        return Unsupported(self.name, half)

    # --- the puzzle half ---------------------------------------------------------------

    def parse_id(self, text: str) -> Board:
        """The board an ID names; a BoardError (a ValueError) listing every problem."""
        raise self.lacks(Capability.IDS)

    def format_id(self, board: Board) -> str:
        """The board's ID; ``parse_id(format_id(b)) == b``."""
        raise self.lacks(Capability.IDS)

    def problems(self, text: str) -> list[str]:
        """Every problem with an ID, in words; empty when it names a valid board."""
        raise self.lacks(Capability.IDS)

    def generate(self, seed: int, count: int) -> list[Board]:
        """``count`` boards from ``seed``, the same on every machine."""
        raise self.lacks(Capability.CAN_GENERATE)

    def solve(self, board: Board, budget: int) -> Sol:
        """A solution, or a proof there is none, within ``budget`` units of search."""
        raise self.lacks(Capability.CAN_SOLVE)

    def describe(self, board: Board, solution: Sol) -> list[str]:
        """The solution in words, line by line."""
        raise self.lacks(Capability.CAN_SOLVE)

    # --- the print half ----------------------------------------------------------------

    def print_size(self, unit: float) -> tuple[float, float]:
        """Width and height (mm) of a board drawn at scale ``unit``."""
        raise self.lacks(Capability.CAN_PRINT_BOARD)

    def draw(self, board: Board, x: float, y: float, unit: float, fonts: FontSet, *,
             solution: Sol | None = None) -> list[Item]:
        """The board with its top-left corner at (x, y); with a solution, drawn on it."""
        raise self.lacks(Capability.CAN_PRINT_BOARD)

    def puzzle(self, board: Board, solution: Sol | None = None, *, caption: str = "",
               key_caption: str = "") -> Puzzle:
        """The board as a puzzle book prints it."""
        raise self.lacks(Capability.CAN_PRINT_BOARD)

    def figures(self) -> Mapping[str, FigureMaker]:
        """The figures the game's rules text may name (``@figure NAME``), by name."""
        raise self.lacks(Capability.HAS_FIGURES)

    # --- the referee half --------------------------------------------------------------

    def initial(self, board: Board) -> State:
        """The state before the first move on ``board``."""
        raise self.lacks(Capability.HAS_REFEREE)

    def legal_moves(self, state: State) -> Sequence[Move]:
        """Every move the rules allow in ``state`` (none once the game is over)."""
        raise self.lacks(Capability.HAS_REFEREE)

    def push(self, state: State, move: Move) -> State:
        """The state after ``move``; ``state`` is left as it was. A move the rules do not
        allow raises a ValueError."""
        raise self.lacks(Capability.HAS_REFEREE)

    def outcome(self, state: State) -> Outcome | None:
        """How the game ended, or None while it goes on."""
        raise self.lacks(Capability.HAS_REFEREE)


def provided(game: Game[Any, Any, Any, Any]) -> Capability:
    """The halves ``game``'s class overrides in full: what its flags must say."""
    found = Capability.NONE
    for half, methods in HALVES.items():
        if all(getattr(type(game), m) is not getattr(Game, m) for m in methods):
            found |= half
    return found
