"""The twin 10 × 10 grids as drawn on the card and on printed Rotator boards.

One board frame fixes where the grids sit on a page; the grid drawing (lines, column
letters, row numbers) is shared, so a printed example board looks exactly like the board
inside the card.
"""

from __future__ import annotations

from dataclasses import dataclass

from cardgen.colors import Color
from cardgen.fonts import FontFace
from cardgen.geometry import Affine, Box, Point
from cardgen.page import Item, Line, Stroke, Text

COLUMNS = "ABCDEFGHIJ"


@dataclass(frozen=True)
class BoardFrame:
    """The 10-column × 20-row board on a page: grid A (upper, turned 180°) above grid B,
    meeting at the fold. (x, y) is grid A's top-left corner on the page."""

    x: float
    y: float
    cell: float

    @property
    def grid_size(self) -> float:
        return 10 * self.cell

    @property
    def fold_y(self) -> float:
        return self.y + self.grid_size

    @property
    def grid_a(self) -> Box:
        return Box(self.x, self.y, self.grid_size, self.grid_size)

    @property
    def grid_b(self) -> Box:
        return Box(self.x, self.fold_y, self.grid_size, self.grid_size)

    @property
    def board(self) -> Box:
        return Box(self.x, self.y, self.grid_size, 2 * self.grid_size)

    def grid_to_page(self, grid: str) -> Affine:
        """A grid's own frame to the page: the origin is the grid's fold corner that is
        top-left for the player at that grid's outer edge; cell (column c, row r) is the
        box (c*s, (r-1)*s, s, s)."""
        if grid == "B":
            return Affine.translate(self.x, self.fold_y)
        return Affine.translate(self.x + self.grid_size, self.fold_y) @ Affine.rotate(180)

    def cell_box(self, column: int, row: int) -> Box:
        """Cell (column 0..9, row 1..10) in the grid frame."""
        return Box(column * self.cell, (row - 1) * self.cell, self.cell, self.cell)

    def cell_center(self, grid: str, column: int, row: int) -> Point:
        return self.grid_to_page(grid).apply(*self.cell_box(column, row).center)

    def board_cell(self, x: int, y: int) -> Box:
        """Board cell (x, y) of SPEC §5 as a page box (board and page axes agree)."""
        return Box(self.x + x * self.cell, self.y + y * self.cell, self.cell, self.cell)


@dataclass(frozen=True)
class GridStyle:
    line: Color
    border: Color
    label: Color
    face: FontFace
    band: float  # width of the label band around the grid (mm)
    line_width: float = 0.12
    border_width: float = 0.25


def label_size(cell: float, band: float) -> float:
    """Type size (pt) of the row and column labels: 6 pt for a card-sized grid, scaled
    with the label band and the cell on larger prints, smaller on tiny cells."""
    by_cell = cell / 4.5
    scale = max(by_cell, 1.0) if band > 3.0 else min(by_cell, 1.0)
    return 6.0 * min(band / 3.0, scale)


def grid_items(grid: str, cell: float, style: GridStyle, draw_fold: bool = True) -> list[Item]:
    """One grid in its own frame: lines, column letters beyond Row 10, row numbers on
    the player's left. ``draw_fold`` False leaves out the Row 1 edge (the other grid
    draws the shared fold line)."""
    side = 10 * cell
    thin = Stroke(style.line, style.line_width)
    border = Stroke(style.border, style.border_width)
    items: list[Item] = []
    for i in range(11):
        stroke = border if i in (0, 10) else thin
        items.append(Line(i * cell, 0, i * cell, side, stroke))
        if draw_fold or i != 0:
            items.append(Line(0, i * cell, side, i * cell, stroke))
    face = style.face
    size = label_size(cell, style.band)
    lift = face.metrics.cap_height_mm(size) / 2
    for c, letter in enumerate(COLUMNS):
        items.append(Text((c + 0.5) * cell, side + style.band / 2 + lift, letter, face, size,
                          style.label, anchor="middle", name=f"grid-{grid}-col-{letter}"))
    for r in range(1, 11):
        items.append(Text(-style.band / 2, (r - 0.5) * cell + lift, str(r), face, size,
                          style.label, anchor="middle", name=f"grid-{grid}-row-{r}"))
    return items
