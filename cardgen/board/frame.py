"""Where the twin grids sit on a page: grid A (upper, turned 180°) above grid B, meeting
at the fold. Pure geometry, shared by the card and by printed boards."""

from __future__ import annotations

from dataclasses import dataclass
from typing import assert_never

from cardgen.board.cells import GRID_SIZE, Grid
from cardgen.draw.geometry import Affine, Box, Point

LABEL_BAND = 3.0  # mm: the band for row numbers and column letters around a card's grid


@dataclass(frozen=True)
class BoardFrame:
    """The 10-column × 20-row board on a page. (x, y) is grid A's top-left corner on the
    page; ``cell`` is the side of a square (mm)."""

    x: float
    y: float
    cell: float

    @property
    def grid_size(self) -> float:
        return GRID_SIZE * self.cell

    @property
    def fold_y(self) -> float:
        return self.y + self.grid_size

    @property
    def grid_a(self) -> Box:
        return Box(self.x, self.y, self.grid_size, self.grid_size)

    @property
    def grid_b(self) -> Box:
        return Box(self.x, self.fold_y, self.grid_size, self.grid_size)

    def grid_box(self, grid: Grid) -> Box:
        return self.grid_a if grid is Grid.A else self.grid_b

    @property
    def board(self) -> Box:
        return Box(self.x, self.y, self.grid_size, 2 * self.grid_size)

    def grid_to_page(self, grid: Grid) -> Affine:
        """A grid's own frame to the page: the origin is the grid's fold corner that is
        top-left for the player at that grid's outer edge; cell (column c, row r) is the
        box (c*s, (r-1)*s, s, s)."""
        match grid:
            case Grid.B:
                return Affine.translate(self.x, self.fold_y)
            case Grid.A:
                return (Affine.translate(self.x + self.grid_size, self.fold_y)
                        @ Affine.rotate(180))
            case _:
                assert_never(grid)

    def cell_box(self, column: int, row: int) -> Box:
        """Cell (column 0..9, row 1..10) in the grid frame."""
        return Box(column * self.cell, (row - 1) * self.cell, self.cell, self.cell)

    def cell_center(self, grid: Grid, column: int, row: int) -> Point:
        return self.grid_to_page(grid).apply(*self.cell_box(column, row).center)

    def board_cell(self, x: int, y: int) -> Box:
        """Board cell (x, y) of SPEC §5 as a page box (board and page axes agree)."""
        return Box(self.x + x * self.cell, self.y + y * self.cell, self.cell, self.cell)
