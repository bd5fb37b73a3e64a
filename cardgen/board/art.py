"""The twin 10 × 10 grids as drawn on the card and on printed boards: lines, column
letters and row numbers, in each grid's own frame (see ``board.frame``), so a printed
board looks exactly like the board inside the card.

Grid A is grid B turned 180°, and its labels with it: read from grid B's side, grid A's
6 looks like a 9. So the row numbers 6 and 9 carry a short bar under them, as on dice,
drawn in the number's own frame and ink (:func:`turned_digit_bar`): whichever way up a
grid is read, the bar is under a 6 or a 9 read the right way up and over one read upside
down. This module is the one place grid labels are drawn (the card's inside, printed
Rotator boards and answer keys, play sheets, the rules' grid figures)."""

from __future__ import annotations

from dataclasses import dataclass

from cardgen.board.cells import COLUMNS, GRID_SIZE, Grid
from cardgen.board.frame import LABEL_BAND
from cardgen.draw.colors import Color
from cardgen.draw.page import Anchor, Item, Line, Stroke, Text
from cardgen.text.fit import check_printable
from cardgen.text.fonts import FontFace
from cardgen.units import MM_PER_PT

CARD_LABEL_SIZE = 6.0  # pt, the labels of a card-sized grid (band LABEL_BAND)
CARD_CELL_FOR_LABELS = 4.5  # mm, the cell at which labels have their card size
MIN_LABEL_SIZE = 6.0  # pt: labels are read in play, so never smaller, on any squares
# The bar under a 6 and a 9, in ems of the label's type size: as long as about four
# fifths of the digit's ink is wide, as thick as its strokes, a little below its ink.
TURNED_DIGITS = frozenset({"6", "9"})
BAR_LENGTH = 0.34
BAR_WEIGHT = 0.08
BAR_GAP = 0.1
BAR_MIN_WEIGHT = 0.25 * MM_PER_PT  # mm: the ink rule's thinnest line (prepress.ink.MIN_LINE)
# The card's grid tints, as the bundled themes print them (``tint_a``, ``tint_b`` in
# templates/themes/*.toml; tests/test_node_model.py checks that they agree): blue under
# grid A, red under grid B. Figures that show the card (how to fold it, the Node games'
# tables and territories) draw these, never copies.
GRID_TINTS = {Grid.A: Color.cmyk(100, 45, 0, 0), Grid.B: Color.cmyk(0, 95, 85, 0)}


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
    # The width beside Column A in which the row numbers are centred (mm; None: ``band``).
    # The type size still follows ``band``: the card's numbers keep their size where the
    # light panel beside its grids is narrower than the band (``card.inside``).
    number_band: float | None = None


def label_size(cell: float, band: float) -> float:
    """Type size (pt) of the row and column labels: 6 pt for a card-sized grid, scaled
    with the label band and the cell on larger prints; never under
    :data:`MIN_LABEL_SIZE`, however small the squares (the ``us`` card's, a key's): a
    player reads them to call a square. (6 pt capitals are 1.5 mm tall and "10" is 2.1
    mm wide: they fit a square and the 3 mm band down to the smallest card.)"""
    by_cell = cell / CARD_CELL_FOR_LABELS
    scale = max(by_cell, 1.0) if band > LABEL_BAND else min(by_cell, 1.0)
    return max(MIN_LABEL_SIZE, CARD_LABEL_SIZE * min(band / LABEL_BAND, scale))


def turned_digit_bar(x: float, baseline: float, text: str, face: FontFace, size: float,
                     color: Color) -> list[Item]:
    """The bar under a row number ``text`` set centred on (x, baseline) that would read
    as another number turned 180° (a 6 or a 9), in the number's frame and colour; no item
    for any other label."""
    if text not in TURNED_DIGITS:
        return []
    em = size * MM_PER_PT
    weight = max(BAR_WEIGHT * em, BAR_MIN_WEIGHT)
    y = baseline + face.metrics.ink_bottom_mm(text, size) + BAR_GAP * em + weight / 2
    half = BAR_LENGTH * em / 2
    return [Line(x - half, y, x + half, y, Stroke(color, weight))]


def grid_items(grid: Grid, cell: float, style: GridStyle, draw_fold: bool = True,
               fold_clear: float = 0.0, columns: bool = True, rows: bool = True,
               ) -> list[Item]:
    """One grid in its own frame: lines, column letters beyond Row 10 (unless
    ``columns`` is False), row numbers on the player's left (unless ``rows`` is False),
    6 and 9 with their bar. ``draw_fold`` False leaves out the Row 1 edge (the other grid
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
    for c, letter in enumerate(COLUMNS if columns else ""):
        items.append(Text((c + 0.5) * cell, side + style.band / 2 + lift, letter, face, size,
                          style.label, anchor=Anchor.MIDDLE, name=f"grid-{grid}-col-{letter}"))
    x = -(style.band if style.number_band is None else style.number_band) / 2
    for r in range(1, GRID_SIZE + 1 if rows else 1):
        label = str(r)
        baseline = max((r - 0.5) * cell + lift, fold_clear + face.metrics.ink_top_mm(label, size))
        items.append(Text(x, baseline, label, face, size,
                          style.label, anchor=Anchor.MIDDLE, name=f"grid-{grid}-row-{r}"))
        items += turned_digit_bar(x, baseline, label, face, size, style.label)
    return items
