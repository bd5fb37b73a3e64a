"""The physical card: sizes, bleed, safe zone, fold, grids, side tabs, cuts and scores.

Pure geometry in millimetres, y down, in the coordinates of the flat sheet with the
trim's top-left corner at ``origin`` (the trim's own corner by default; a print page
passes its slug width, see ``card.spread``). Nothing here knows about marks or pages.

Both sides share these coordinates. The *outside* is seen from the outside of the flat
sheet, the *inside* from the inside; the sheet turns head-to-head (about its vertical
centre line), so a point at x on one side is at ``2*center_x - x`` on the other
(:attr:`CardGeometry.turn`).

Frames used by the layout:

- front panel: origin at its top-left trim corner (the fold), upright;
- back panel: origin at its top-left corner *as read*, i.e. rotated 180° on the sheet;
- grid frame: origin at the grid's fold corner that is top-left as the grid's player
  reads it; cell (column c, row r) is the box (c*s, (r-1)*s, s, s). Grid B (lower) is
  upright on the sheet, grid A (upper) rotated 180°;
- tent view (:meth:`CardGeometry.tent_view`): what the player facing one half of the card
  folded the other way (a tent, grids outside) sees, with the origin at the left end of the
  ridge as that player sees it and y running down the half from the ridge.

The main fold bends both ways (:class:`Fold`): grids inside, a business card; grids
outside, a tent between two players. Whichever face lies on the outer side of a bend is
stretched there, and ink across the score may crack; on the inner side the paper is
pressed into the crease. So along every score a band of :data:`CREASE` mm either side is
kept free of text, QR codes, link numbers and grid labels, on both faces
(:meth:`CardGeometry.crease_bands`).
"""

from __future__ import annotations

import enum
import math
from dataclasses import dataclass
from functools import cached_property
from typing import assert_never

from cardgen.board.cells import GRID_SIZE, Grid
from cardgen.board.frame import LABEL_BAND, BoardFrame
from cardgen.draw.geometry import Affine, Box, Point, Segment
from cardgen.errors import CardgenError, number
from cardgen.units import inch

MIN_CELL = 3.5  # smallest grid square a pencil can use comfortably (mm)
MAX_CELL = 8.0
HINGE_GAP = 1.0  # from the game panel's edge to a side tab's score line
MIN_TAB = 9.0  # narrowest side tab that still holds a link number inside its safe zone
SIZE_LIMITS = {"width": (50.0, 150.0), "height": (40.0, 120.0)}
CUSTOM_BLEED = 3.0  # mm, bleed and safe zone of custom sizes
CUSTOM_SAFE = 3.0
# Half the width of the band along a score where the paper bends (mm): half the channel a
# scoring rule presses into 300-350 g/m2 board (a 0.7 mm rule plus the board's thickness
# on each side: about 1.5 mm, so 0.75 mm) plus the register of the score to the print
# (0.5 mm). Text, QR codes, link numbers and grid labels keep out of it on both faces.
CREASE = 1.25


class Preset(enum.StrEnum):
    EU = "eu"  # 85 × 55 mm folded
    US = "us"  # 3.5 × 2 in folded


class Tab(enum.StrEnum):
    """The two die-cut side tabs, by the link number they carry."""

    FIVE = "5"
    SIX = "6"


class Side(enum.StrEnum):
    OUTSIDE = "outside"
    INSIDE = "inside"


class Fold(enum.StrEnum):
    """The two ways the main fold bends."""

    CARD = "card"  # grids inside: a business card, front and back panels outside
    TENT = "tent"  # grids outside: a tent between two players, one grid toward each

    @property
    def stretched(self) -> Side:
        """The face on the outer side of the main fold's bend: the face the folded card
        shows, stretched over the ridge, where ink across the score may crack."""
        return Side.OUTSIDE if self is Fold.CARD else Side.INSIDE

    @property
    def pressed(self) -> Side:
        """The face on the inner side of the bend: hidden inside the folded card, pressed
        into the crease."""
        return Side.INSIDE if self is Fold.CARD else Side.OUTSIDE


@dataclass(frozen=True)
class CardSize:
    """The folded card: width × height of one panel, bleed and safe-zone widths."""

    width: float
    height: float
    bleed: float
    safe: float
    preset: Preset | None = None  # None: a custom size


PRESETS = {
    Preset.EU: CardSize(85.0, 55.0, bleed=3.0, safe=3.0, preset=Preset.EU),
    Preset.US: CardSize(inch(3.5), inch(2.0), bleed=inch(0.125), safe=inch(0.125),
                        preset=Preset.US),
}


def custom_size(width: float, height: float, *, bleed: float = CUSTOM_BLEED,
                safe: float = CUSTOM_SAFE) -> CardSize:
    """A custom folded size, checked against sane bounds."""
    for name, value in (("width", width), ("height", height)):
        low, high = SIZE_LIMITS[name]
        if not (low <= value <= high):
            raise CardgenError(
                f"card.{name}_mm = {number(value)} is impossible: a folded card must be "
                f"{low:g}–{high:g} mm {name}.", value=value)
    return CardSize(float(width), float(height), bleed=bleed, safe=safe)


@dataclass(frozen=True)
class CardGeometry:
    """Every position the layout and the dieline need, derived from a size."""

    size: CardSize
    origin: Point = (0.0, 0.0)  # the trim's top-left corner

    def __post_init__(self) -> None:
        s = self.size
        by_height = (s.height - s.safe - LABEL_BAND) / GRID_SIZE
        by_width = (s.width - 2 * (LABEL_BAND + HINGE_GAP + MIN_TAB)) / GRID_SIZE
        if min(by_height, by_width) < MIN_CELL:
            field, need = (
                ("card.height_mm", s.safe + LABEL_BAND + GRID_SIZE * MIN_CELL)
                if by_height < by_width
                else ("card.width_mm",
                      2 * (LABEL_BAND + HINGE_GAP + MIN_TAB) + GRID_SIZE * MIN_CELL))
            raise CardgenError(
                f"{field}: a {s.width:g} × {s.height:g} mm card is too small: the 10 × 10 "
                f"grids would have {max(min(by_height, by_width), 0):.1f} mm squares, and at "
                f"least {MIN_CELL:g} mm are needed for pencil play ({field} ≥ {need:g}).",
                value=s)

    # --- the flat sheet --------------------------------------------------------------
    @cached_property
    def trim(self) -> Box:
        return Box(self.origin[0], self.origin[1], self.size.width, 2 * self.size.height)

    @cached_property
    def bleed_box(self) -> Box:
        return self.trim.inset(-self.size.bleed)

    @property
    def fold_y(self) -> float:
        return self.trim.y + self.size.height

    @property
    def center_x(self) -> float:
        return self.trim.x + self.trim.w / 2

    @property
    def turn(self) -> Affine:
        """A point seen on one side -> the same point seen on the other (head-to-head)."""
        return Affine.mirror_x(self.center_x)

    # --- outside ---------------------------------------------------------------------
    @cached_property
    def front(self) -> Box:
        """The front panel (lower half of the outside), upright."""
        return Box(self.trim.x, self.fold_y, self.size.width, self.size.height)

    @cached_property
    def back(self) -> Box:
        """The back panel (upper half of the outside), printed rotated 180°."""
        return Box(self.trim.x, self.trim.y, self.size.width, self.size.height)

    @property
    def front_to_page(self) -> Affine:
        """The front panel's frame -> sheet coordinates."""
        return Affine.translate(self.front.x, self.front.y)

    @property
    def back_to_page(self) -> Affine:
        """The back panel's frame (as read) -> sheet coordinates."""
        return Affine.translate(self.back.right, self.back.bottom) @ Affine.rotate(180)

    def panel_with_bleed(self) -> Box:
        """A panel with its bleed, in the panel's own frame (both panels are the same
        size). The frame's y = 0 is the fold, where the panel meets the other one, so the
        bleed is added on the three other sides: the outer edge (y = height) and both
        sides; nothing reaches across the fold."""
        s = self.size
        return Box(-s.bleed, 0, s.width + 2 * s.bleed, s.height + s.bleed)

    def panel_safe(self) -> Box:
        """A panel's safe area in its own frame (both panels are the same size)."""
        return Box(0, 0, self.size.width, self.size.height).inset(self.size.safe)

    # --- inside ----------------------------------------------------------------------
    @cached_property
    def cell(self) -> float:
        """Side of a grid square, rounded down to 0.1 mm."""
        s = self.size
        limit = min((s.height - s.safe - LABEL_BAND) / GRID_SIZE,
                    (s.width - 2 * (LABEL_BAND + HINGE_GAP + MIN_TAB)) / GRID_SIZE, MAX_CELL)
        return math.floor(limit * 10 + 1e-9) / 10

    @property
    def grid_size(self) -> float:
        return GRID_SIZE * self.cell

    @cached_property
    def board(self) -> BoardFrame:
        """The twin grids: grid B's Row 1 touches the fold, grid A is B turned 180°."""
        return BoardFrame(self.center_x - self.grid_size / 2, self.fold_y - self.grid_size,
                          self.cell)

    @cached_property
    def game_panel(self) -> Box:
        """Both grids and their label bands (the light ground under them is narrower at
        the sides: :meth:`ground_panel`)."""
        a = self.board.grid_a
        both = Box(a.x, a.y, self.grid_size, 2 * self.grid_size)
        return both.inset(-LABEL_BAND)

    def ground_panel(self, hinge_margin: float) -> Box:
        """The light ground under the grids: the game panel, its sides ``hinge_margin``
        mm inside the side tabs' hinges, so that the margin colour runs on past each hinge
        and a score a little off its place shows neither the light ground on a tab nor
        the margin colour on the game's side."""
        p = self.game_panel
        left, right = self.hinge_left + hinge_margin, self.hinge_right - hinge_margin
        return Box(left, p.y, right - left, p.h)

    @property
    def hinge_left(self) -> float:
        return self.game_panel.x - HINGE_GAP

    @property
    def hinge_right(self) -> float:
        return self.game_panel.right + HINGE_GAP

    @cached_property
    def tabs(self) -> dict[Tab, Box]:
        """The two die-cut side tabs of the inside, by the link number they carry.

        They lie beside grid A, behind the back panel. Tab 5 (left on the inside) folds
        onto the left half of the back panel as it is read, tab 6 onto the right half.
        """
        top, height = self.trim.y, self.fold_y - self.trim.y
        return {
            Tab.FIVE: Box(self.trim.x, top, self.hinge_left - self.trim.x, height),
            Tab.SIX: Box(self.hinge_right, top, self.trim.right - self.hinge_right, height),
        }

    def hinge_x(self, tab: Tab) -> float:
        match tab:
            case Tab.FIVE:
                return self.hinge_left
            case Tab.SIX:
                return self.hinge_right
            case _:
                assert_never(tab)

    def folded_tab_to_outside(self, tab: Tab) -> Affine:
        """Where a point of a tab (inside) lies, seen on the outside, once the tab is
        folded back over the outside along its score line."""
        # Reflect about the score line (inside view), then turn the sheet (x -> 2cx - x).
        h = self.hinge_x(tab)
        return Affine.translate(2 * self.center_x - 2 * h, 0)

    def addendum_to_inside(self, tab: Tab) -> Affine:
        """Back-panel frame -> inside, for content printed on a tab so that it shows at
        that back-panel position (upright) when the tab is folded."""
        return self.folded_tab_to_outside(tab).inverse() @ self.back_to_page

    @property
    def strip_to_inside(self) -> Affine:
        """Back-panel frame -> inside, for content printed beside grid B (the lower
        half's inside) so that it shows at that back-panel position (upright) where a
        folded tab uncovers it.

        Folded, the upper half lies behind the lower half, turned over about the fold:
        the back panel's point (u, v) (``back_to_page``: the outside's
        ``(trim.right - u, fold_y - v)``) lies over the lower half's outside point
        ``(trim.right - u, fold_y + v)``, which is the inside's ``(trim.x + u,
        fold_y + v)`` (``turn``). Where the tab has swung away, that inside face is
        what shows. The back panel's half turn, the fold and the sheet's turn together
        are a translation: what reads upright on the back is upright on the inside
        page."""
        return Affine.translate(self.trim.x, self.fold_y)

    def folded_tab_footprint(self, tab: Tab) -> Box:
        """The folded tab's area in the back-panel frame."""
        to_back = self.back_to_page.inverse() @ self.folded_tab_to_outside(tab)
        return self.tabs[tab].transformed(to_back)

    # --- the tent: folded the other way, grids outside --------------------------------
    def tent_view(self, grid: Grid) -> Affine:
        """Inside (sheet) coordinates -> the view of the player facing ``grid``'s half of
        the tent: x to that player's right from the ridge's left end as they see it, y
        down the half from the ridge (distances along the paper, whatever the tent's
        angle).

        Standing the card up as a tent lifts the fold off the table and tilts each half
        about it toward its own player, printed face outward: a tilt about a line across
        the player's view neither turns nor mirrors what they see. So each player sees
        their half as they would sitting at its outer edge with the card open flat: the
        player of grid B (lower half) as the inside page reads, the player of grid A
        turned half round."""
        match grid:
            case Grid.B:
                return Affine.translate(-self.trim.x, -self.fold_y)
            case Grid.A:
                return Affine.translate(self.trim.right, self.fold_y) @ Affine.rotate(180)
            case _:
                assert_never(grid)

    def crease_bands(self, side: Side) -> list[Box]:
        """The bands where the paper bends, as seen on ``side``: :data:`CREASE` either
        side of the main fold (between the hinges) and of each tab's hinge (from the top
        edge to the fold)."""
        bands = []
        for (x1, y1), (x2, y2) in self.fold_lines(side):
            bands.append(Box(min(x1, x2), min(y1, y2), abs(x2 - x1),
                             abs(y2 - y1)).inset(-CREASE))
        return bands

    def stretched_scores(self, side: Side) -> list[Segment]:
        """The scores round which ``side`` lies on the outer side of the bend, at least
        one way of folding, as seen on ``side``: the main fold on both faces (the outside
        in a business card, the inside in a tent, :class:`Fold`), and the hinges on the
        inside only (a tab folds back over the outside, so the outside goes into the
        crease)."""
        lines = self.fold_lines(side)
        return lines if side is Side.INSIDE else lines[:1]

    # --- cuts, scores and folds (inside coordinates unless a side is given) ----------
    def score_lines(self) -> list[Segment]:
        """Scores (folds): the main fold between the tabs, and each tab's hinge."""
        t, y = self.trim, self.fold_y
        return [
            ((self.hinge_left, y), (self.hinge_right, y)),
            ((self.hinge_left, t.y), (self.hinge_left, y)),
            ((self.hinge_right, t.y), (self.hinge_right, y)),
        ]

    def _seen_from(self, side: Side, x: float) -> float:
        """An inside x as ``side`` sees it."""
        return x if side is Side.INSIDE else 2 * self.center_x - x

    def fold_lines(self, side: Side) -> list[Segment]:
        """Where the sheet folds, as seen on ``side``, for fold marks: the main fold
        between the hinges (left to right), then the hinge of tab 5 and of tab 6 (top
        edge to fold). The main fold never reaches the trim: beside the tabs the sheet
        is cut along the fold line (:meth:`tab_cuts`), not folded."""
        t, y = self.trim, self.fold_y
        ends = sorted(self._seen_from(side, x) for x in (self.hinge_left, self.hinge_right))
        lines: list[Segment] = [((ends[0], y), (ends[1], y))]
        for tab in Tab:
            x = self._seen_from(side, self.hinge_x(tab))
            lines.append(((x, t.y), (x, y)))
        return lines

    def tab_cuts(self, side: Side) -> list[Segment]:
        """The tabs' cuts along the fold line, as seen on ``side``, for cut marks: the
        one from the left edge, then the one from the right edge, each running from its
        end on the trim inwards to where it stops, at a tab's hinge."""
        t, y = self.trim, self.fold_y
        stops = sorted(self._seen_from(side, x) for x in (self.hinge_left, self.hinge_right))
        return [((t.x, y), (stops[0], y)), ((t.right, y), (stops[1], y))]
