"""Board coordinates and card notation (SPEC §5).

Board coordinates: x = 0..9 left to right, y = 0..19 top to bottom with the card opened
flat and grid A away from the player. Card notation names a cell by grid, column and row
as printed on that grid: grid A Row r, column c is (9 - c, 10 - r); grid B Row r,
column c is (c, 9 + r).
"""

from __future__ import annotations

import enum
import re

from cardgen.errors import BoardError, BoardProblem, Problem, shorten

WIDTH, HEIGHT = 10, 20
GRID_SIZE = 10  # rows and columns of one grid
COLUMNS = "ABCDEFGHIJ"

Cell = tuple[int, int]

_CARD = re.compile(r"^\s*([ABab])\s*:\s*([A-Ja-j])\s*(10|[1-9])\s*$", re.ASCII)


class Grid(enum.StrEnum):
    """The two grids: A, the upper one (printed turned 180°), and B, the lower one."""

    A = "A"
    B = "B"


def grid_of(cell: Cell) -> Grid:
    return Grid.A if cell[1] < GRID_SIZE else Grid.B


def grid_position(cell: Cell) -> tuple[Grid, int, int]:
    """(grid, column 0..9, row 1..10) of a board cell as printed on its grid."""
    x, y = cell
    if y < GRID_SIZE:
        return Grid.A, GRID_SIZE - 1 - x, GRID_SIZE - y
    return Grid.B, x, y - GRID_SIZE + 1


def board_cell(grid: Grid, column: int, row: int) -> Cell:
    """The board cell at (column 0..9, row 1..10) as printed on ``grid``."""
    if grid is Grid.A:
        return (GRID_SIZE - 1 - column, GRID_SIZE - row)
    return (column, GRID_SIZE - 1 + row)


def card_name(cell: Cell, with_grid: bool = True) -> str:
    """Card notation: ``A:C4`` (grid, column letter, row number)."""
    grid, column, row = grid_position(cell)
    name = f"{COLUMNS[column]}{row}"
    return f"{grid}:{name}" if with_grid else name


def parse_cell(text: str, where: str = "cell") -> Cell:
    """A cell from card notation (``A:C4``, case-insensitive)."""
    match = _CARD.match(text) if isinstance(text, str) else None
    if not match:
        shown = shorten(text) if isinstance(text, str) else repr(text)
        raise BoardError(where, [Problem(f"{shown} is not a cell in card notation such as "
                                         "\"A:C4\" (grid A or B, column A–J, row 1–10).",
                                         BoardProblem.NOT_A_CELL)], value=text)
    grid = Grid(match.group(1).upper())
    return board_cell(grid, COLUMNS.index(match.group(2).upper()), int(match.group(3)))


def on_board(x: int, y: int) -> bool:
    return 0 <= x < WIDTH and 0 <= y < HEIGHT
