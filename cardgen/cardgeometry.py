"""The physical card: sizes, bleed, safe zone, fold, grids, side tabs, marks.

Pure geometry, in millimetres on the page of one spread (origin top-left, y down). Both
spreads share one page geometry. The *outside* spread is seen from the outside of the
flat sheet, the *inside* spread from the inside; the sheet turns head-to-head (about its
vertical centre line), so a point at x on one side is at ``2*cx - x`` on the other.

Frames used by the layout:

- front panel: origin at its top-left trim corner (the fold), upright;
- back panel: origin at its top-left corner *as read*, i.e. rotated 180° on the page;
- grid frame: origin at the grid's fold corner that is top-left as the grid's player
  reads it; cell (column c, row r) is the box (c*s, (r-1)*s, s, s). Grid B (lower) is
  upright on the page, grid A (upper) rotated 180°.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property

from cardgen.boardart import BoardFrame
from cardgen.errors import CardgenError
from cardgen.geometry import Affine, Box, Point
from cardgen.units import inch

MIN_CELL = 3.5  # smallest grid square a pencil can use comfortably (mm)
MAX_CELL = 8.0
LABEL_BAND = 3.0  # band for the row numbers and column letters around each grid
HINGE_GAP = 1.0  # from the game panel's edge to a side tab's score line
MIN_TAB = 9.0  # narrowest side tab that still holds a link number inside its safe zone
MARK_GAP = 1.0  # crop/fold marks start this far outside the bleed
MARK_LENGTH = 4.0
SIZE_LIMITS = {"width": (50.0, 150.0), "height": (40.0, 120.0)}


@dataclass(frozen=True)
class CardSize:
    """The folded card: width × height of one panel, bleed and safe-zone widths."""

    width: float
    height: float
    bleed: float
    safe: float
    preset: str = "custom"


PRESETS = {
    "eu": CardSize(85.0, 55.0, bleed=3.0, safe=3.0, preset="eu"),
    "us": CardSize(inch(3.5), inch(2.0), bleed=inch(0.125), safe=inch(0.125), preset="us"),
}


def custom_size(width: float, height: float, *, bleed: float = 3.0, safe: float = 3.0) -> CardSize:
    """A custom folded size, checked against sane bounds."""
    for name, value in (("width", width), ("height", height)):
        low, high = SIZE_LIMITS[name]
        if not (low <= value <= high):
            raise CardgenError(
                f"card.{name}_mm = {value:g} is impossible: a folded card must be "
                f"{low:g}–{high:g} mm {name}."
            )
    return CardSize(float(width), float(height), bleed=bleed, safe=safe)


@dataclass(frozen=True)
class CardGeometry:
    """Every position the layout and the dieline need, derived from a size."""

    size: CardSize
    marks: bool = True

    def __post_init__(self) -> None:
        s = self.size
        by_height = (s.height - s.safe - LABEL_BAND) / 10
        by_width = (s.width - 2 * (LABEL_BAND + HINGE_GAP + MIN_TAB)) / 10
        if min(by_height, by_width) < MIN_CELL:
            field, need = (
                ("card.height_mm", s.safe + LABEL_BAND + 10 * MIN_CELL) if by_height < by_width
                else ("card.width_mm", 2 * (LABEL_BAND + HINGE_GAP + MIN_TAB) + 10 * MIN_CELL))
            raise CardgenError(
                f"{field}: a {s.width:g} × {s.height:g} mm card is too small: the 10 × 10 "
                f"grids would have {max(min(by_height, by_width), 0):.1f} mm squares, and at "
                f"least {MIN_CELL:g} mm are needed for pencil play ({field} ≥ {need:g})."
            )

    # --- page and trim ---------------------------------------------------------------
    @cached_property
    def slug(self) -> float:
        """Margin from the trim to the page edge (bleed plus room for the marks)."""
        if not self.marks:
            return self.size.bleed
        return self.size.bleed + MARK_GAP + MARK_LENGTH + 1.0

    @cached_property
    def trim(self) -> Box:
        return Box(self.slug, self.slug, self.size.width, 2 * self.size.height)

    @property
    def page_width(self) -> float:
        return self.trim.w + 2 * self.slug

    @property
    def page_height(self) -> float:
        return self.trim.h + 2 * self.slug

    @cached_property
    def bleed_box(self) -> Box:
        return self.trim.inset(-self.size.bleed)

    @property
    def fold_y(self) -> float:
        return self.trim.y + self.size.height

    @property
    def center_x(self) -> float:
        return self.trim.x + self.trim.w / 2

    # --- outside spread --------------------------------------------------------------
    @cached_property
    def front(self) -> Box:
        """The front panel (lower half of the outside spread), upright."""
        return Box(self.trim.x, self.fold_y, self.size.width, self.size.height)

    @cached_property
    def back(self) -> Box:
        """The back panel (upper half of the outside spread), printed rotated 180°."""
        return Box(self.trim.x, self.trim.y, self.size.width, self.size.height)

    @property
    def front_to_page(self) -> Affine:
        return Affine.translate(self.front.x, self.front.y)

    @property
    def back_to_page(self) -> Affine:
        return Affine.translate(self.back.right, self.back.bottom) @ Affine.rotate(180)

    def panel_safe(self) -> Box:
        """A panel's safe area in its own frame (both panels are the same size)."""
        return Box(0, 0, self.size.width, self.size.height).inset(self.size.safe)

    # --- inside spread ---------------------------------------------------------------
    @cached_property
    def cell(self) -> float:
        """Side of a grid square, rounded down to 0.1 mm."""
        s = self.size
        limit = min((s.height - s.safe - LABEL_BAND) / 10,
                    (s.width - 2 * (LABEL_BAND + HINGE_GAP + MIN_TAB)) / 10, MAX_CELL)
        return math.floor(limit * 10 + 1e-9) / 10

    @property
    def grid_size(self) -> float:
        return 10 * self.cell

    @cached_property
    def board(self) -> BoardFrame:
        """The twin grids: grid B's Row 1 touches the fold, grid A is B turned 180°."""
        return BoardFrame(self.center_x - self.grid_size / 2, self.fold_y - self.grid_size,
                          self.cell)

    @property
    def grid_a(self) -> Box:
        return self.board.grid_a

    @property
    def grid_b(self) -> Box:
        return self.board.grid_b

    def grid_box(self, grid: str) -> Box:
        return self.grid_a if grid == "A" else self.grid_b

    def grid_to_page(self, grid: str) -> Affine:
        """The grid frame (see module docstring) to inside-spread page coordinates."""
        return self.board.grid_to_page(grid)

    def cell_box(self, column: int, row: int) -> Box:
        """Cell (column 0..9, row 1..10) in the grid frame."""
        return self.board.cell_box(column, row)

    def cell_center(self, grid: str, column: int, row: int) -> Point:
        """Centre of a cell on the inside spread page."""
        return self.board.cell_center(grid, column, row)

    @cached_property
    def game_panel(self) -> Box:
        """The light area holding both grids and their label bands."""
        both = Box(self.grid_a.x, self.grid_a.y, self.grid_size, 2 * self.grid_size)
        return both.inset(-LABEL_BAND)

    @property
    def hinge_left(self) -> float:
        return self.game_panel.x - HINGE_GAP

    @property
    def hinge_right(self) -> float:
        return self.game_panel.right + HINGE_GAP

    @cached_property
    def tabs(self) -> dict[str, Box]:
        """The two die-cut side tabs of the inside spread, by the link number they carry.

        They lie beside grid A, behind the back panel. Tab 5 (left on the inside) folds
        onto the left half of the back panel as it is read, tab 6 onto the right half.
        """
        top, height = self.trim.y, self.fold_y - self.trim.y
        return {
            "5": Box(self.trim.x, top, self.hinge_left - self.trim.x, height),
            "6": Box(self.hinge_right, top, self.trim.right - self.hinge_right, height),
        }

    def hinge_x(self, tab: str) -> float:
        return self.hinge_left if tab == "5" else self.hinge_right

    def folded_tab_to_outside(self, tab: str) -> Affine:
        """Where a point of a tab (inside spread) lies, seen on the outside spread, once
        the tab is folded back over the outside along its score line."""
        # Reflect about the score line (inside view), then turn the sheet (x -> 2cx - x).
        h = self.hinge_x(tab)
        return Affine.translate(2 * self.center_x - 2 * h, 0)

    def addendum_to_inside(self, tab: str) -> Affine:
        """Back-panel frame -> inside spread, for content printed on a tab so that it
        shows at that back-panel position (upright) when the tab is folded."""
        return self.folded_tab_to_outside(tab).inverse() @ self.back_to_page

    def folded_tab_footprint(self, tab: str) -> Box:
        """The folded tab's area in the back-panel frame."""
        to_back = self.back_to_page.inverse() @ self.folded_tab_to_outside(tab)
        return self.tabs[tab].transformed(to_back)

    # --- marks and dieline (inside spread coordinates) -------------------------------
    def _mark_span(self) -> tuple[float, float]:
        """Distances from the trim where a mark starts and ends."""
        start = self.size.bleed + MARK_GAP
        return start, start + MARK_LENGTH

    def crop_marks(self) -> list[tuple[Point, Point]]:
        """Short lines on the trim lines, starting outside the bleed."""
        if not self.marks:
            return []
        t, (start, end) = self.trim, self._mark_span()
        lines = []
        for x, sx in ((t.x, -1), (t.right, 1)):
            for y, sy in ((t.y, -1), (t.bottom, 1)):
                lines.append(((x + sx * start, y), (x + sx * end, y)))
                lines.append(((x, y + sy * start), (x, y + sy * end)))
        return lines

    def fold_marks(self, inside: bool) -> list[tuple[Point, Point]]:
        """Short lines on the fold and the tab score lines, outside the bleed."""
        if not self.marks:
            return []
        t, (start, end) = self.trim, self._mark_span()
        y = self.fold_y
        lines = [((t.x - start, y), (t.x - end, y)), ((t.right + start, y), (t.right + end, y))]
        for tab in ("5", "6"):
            x = self.hinge_x(tab) if inside else 2 * self.center_x - self.hinge_x(tab)
            lines.append(((x, t.y - start), (x, t.y - end)))
        return lines

    def cut_lines(self) -> list[tuple[Point, Point]]:
        """Cuts: the trim outline, and the fold line across each tab (inside spread)."""
        t, y = self.trim, self.fold_y
        outline = list(zip(t.corners(), [*t.corners()[1:], t.corners()[0]], strict=True))
        return [*outline, ((t.x, y), (self.hinge_left, y)), ((self.hinge_right, y), (t.right, y))]

    def score_lines(self) -> list[tuple[Point, Point]]:
        """Scores (folds): the main fold between the tabs, and each tab's hinge."""
        t, y = self.trim, self.fold_y
        return [
            ((self.hinge_left, y), (self.hinge_right, y)),
            ((self.hinge_left, t.y), (self.hinge_left, y)),
            ((self.hinge_right, t.y), (self.hinge_right, y)),
        ]
