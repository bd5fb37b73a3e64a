"""The twin 10 × 10 grids as drawn on the card and on printed boards: lines, column
letters and row numbers, in each grid's own frame (see ``board.frame``), so a printed
board looks exactly like the board inside the card."""

from __future__ import annotations

from dataclasses import dataclass

from cardgen.board.cells import COLUMNS, GRID_SIZE, Grid
from cardgen.board.frame import LABEL_BAND
from cardgen.draw.colors import Color
from cardgen.draw.page import Anchor, Item, Line, Stroke, Text
from cardgen.text.fit import check_printable
from cardgen.text.fonts import FontFace

CARD_LABEL_SIZE = 6.0  # pt, the labels of a card-sized grid (band LABEL_BAND)
CARD_CELL_FOR_LABELS = 4.5  # mm, the cell at which labels have their card size
MIN_LABEL_SIZE = 6.0  # pt: labels are read in play, so never smaller, on any squares


@dataclass(frozen=True)
class GridStyle:
    line: Color
    border: Color
    label: Color
    face: FontFace
    band: float  # width of the label band around the grid (mm)
    line_width: float = 0.12
    border_width: float = 0.25
    where: str = "the grid labels"  # what a font problem with the labels is blamed on


def label_size(cell: float, band: float) -> float:
    """Type size (pt) of the row and column labels: 6 pt for a card-sized grid, scaled
    with the label band and the cell on larger prints; never under
    :data:`MIN_LABEL_SIZE`, however small the squares (the ``us`` card's, a key's): a
    player reads them to call a square. (6 pt capitals are 1.5 mm tall and "10" is 2.1
    mm wide: they fit a square and the 3 mm band down to the smallest card.)"""
    by_cell = cell / CARD_CELL_FOR_LABELS
    scale = max(by_cell, 1.0) if band > LABEL_BAND else min(by_cell, 1.0)
    return max(MIN_LABEL_SIZE, CARD_LABEL_SIZE * min(band / LABEL_BAND, scale))


def grid_items(grid: Grid, cell: float, style: GridStyle, draw_fold: bool = True,
               fold_clear: float = 0.0) -> list[Item]:
    """One grid in its own frame: lines, column letters beyond Row 10, row numbers on
    the player's left. ``draw_fold`` False leaves out the Row 1 edge (the other grid
    draws the shared fold line). The row numbers' ink keeps at least ``fold_clear`` mm
    from the Row 1 edge (on the card, the fold's crease band): a number that would come
    nearer, on the smallest squares, moves down its row."""
    side = GRID_SIZE * cell
    thin = Stroke(style.line, style.line_width)
    border = Stroke(style.border, style.border_width)
    items: list[Item] = []
    for i in range(GRID_SIZE + 1):
        stroke = border if i in (0, GRID_SIZE) else thin
        items.append(Line(i * cell, 0, i * cell, side, stroke))
        if draw_fold or i != 0:
            items.append(Line(0, i * cell, side, i * cell, stroke))
    face = style.face
    check_printable(COLUMNS + "".join(str(r) for r in range(1, GRID_SIZE + 1)), face, style.where)
    size = label_size(cell, style.band)
    lift = face.metrics.cap_height_mm(size) / 2
    for c, letter in enumerate(COLUMNS):
        items.append(Text((c + 0.5) * cell, side + style.band / 2 + lift, letter, face, size,
                          style.label, anchor=Anchor.MIDDLE, name=f"grid-{grid}-col-{letter}"))
    for r in range(1, GRID_SIZE + 1):
        label = str(r)
        baseline = max((r - 0.5) * cell + lift, fold_clear + face.metrics.ink_top_mm(label, size))
        items.append(Text(-style.band / 2, baseline, label, face, size,
                          style.label, anchor=Anchor.MIDDLE, name=f"grid-{grid}-row-{r}"))
    return items
