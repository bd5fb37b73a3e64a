"""Duplex N-up imposition: as many two-sided pieces as fit on A4 or Letter, for office
printing.

Page 1 of a sheet carries side 1 of every piece, page 2 side 2, placed so that each
piece's side 2 lands behind its own side 1 when the printer turns the paper over the
chosen edge:

    back placement = offset ∘ flip ∘ front placement ∘ turn

``turn`` maps a point of the piece's side-1 page to the same physical point seen on its
side-2 page (for the card, the mirror about the sheet's vertical centre line: the sides
are printed head-to-head). The *flip* is the paper turning over its long edge (x
mirrored) or short edge (y mirrored). Both are reflections, so the composition is always
a proper rotation plus translation: side 2 is never printed mirrored. The optional offset
moves everything on the back to correct a printer's duplex misregistration (measured
with the registration test page, ``prepress.registration``).

Nothing on side 2 may print into the printer's unprintable margin, for any offset a
sheet accepts. The offset is at most :data:`MAX_OFFSET` on each axis, what the
registration test can measure. The caption band keeps that much room around its check
square and caption, so it never limits the offset. The pieces do not: most sheets are
filled edge to edge, and keeping 5 mm for an offset would cost a row or a column of
pieces. So a sheet knows how far its side 2 can move before a piece, or the room kept
for its marks, reaches the margin (:attr:`SheetLayout.offset_room`), and
:func:`plan_sheet` refuses an offset beyond that, saying how much room there is.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Sequence
from dataclasses import dataclass

from cardgen.draw.geometry import Affine, Box, Segment
from cardgen.draw.page import (
    Document,
    Group,
    Item,
    Line,
    OutputIntent,
    Page,
    Rect,
    Stroke,
    Text,
)
from cardgen.errors import CardgenError, ParameterError, number
from cardgen.prepress.marks import BLACK, OFFICE, mark_lines
from cardgen.prepress.paper import Paper
from cardgen.text.fonts import FontSet
from cardgen.texts import say
from cardgen.version import __version__

MARK_ROOM = OFFICE.gap + OFFICE.length  # around each piece's bleed, for its marks
CHECK_SQUARE = 10.0  # mm: the "print at 100 %" check, outer edge to outer edge
CHECK_STROKE = 0.2  # mm, drawn inside the square
MAX_MARGIN = 30.0  # mm: no printer needs a wider unprintable margin
# mm on each axis: what the registration test's scales measure. Duplex misregistration
# is a few mm at most.
MAX_OFFSET = 5.0
# The check square and caption, with MAX_OFFSET of room all round.
INFO_BAND = CHECK_SQUARE + 2 * MAX_OFFSET


class Flip(enum.StrEnum):
    """The edge the printer turns the paper over for side 2."""

    LONG = "long"
    SHORT = "short"


@dataclass(frozen=True)
class Duplex:
    """A sheet printed on both sides: the paper, the edge it turns over, the offset that
    corrects the printer's misregistration of side 2 (mm right and down), and the
    printer's unprintable margin."""

    paper: Paper
    flip: Flip = Flip.LONG
    offset: tuple[float, float] = (0.0, 0.0)
    margin: float = 5.0

    def __post_init__(self) -> None:
        if not 0 <= self.margin <= MAX_MARGIN:
            raise ParameterError("margin", f"must be 0–{MAX_MARGIN:g} mm, not "
                                 f"{number(self.margin)}.", value=self.margin)
        dx, dy = self.offset
        if not all(abs(v) <= MAX_OFFSET for v in (dx, dy)):  # NaN fails this too
            raise ParameterError(
                "offset", f"{number(dx)},{number(dy)} is implausible: duplex errors are a few "
                f"mm at most, and the registration test measures up to ±{MAX_OFFSET:g} mm on "
                "each axis.", value=self.offset)

    @property
    def width(self) -> float:
        return self.paper.size[0]

    @property
    def height(self) -> float:
        return self.paper.size[1]

    def flip_transform(self) -> Affine:
        """A point of the front page -> the same physical point seen on the back page."""
        if self.flip is Flip.LONG:
            return Affine.mirror_x(self.width / 2)
        return Affine.mirror_y(self.height / 2)

    def to_back(self) -> Affine:
        """A point of the front page -> where side 2 prints what lies behind it."""
        dx, dy = self.offset
        return Affine.translate(dx, dy) @ self.flip_transform()

    def back_box(self, box: Box) -> Box:
        """A front-page box as it lies on the back page (with the offset)."""
        dx, dy = self.offset
        return box.transformed(Affine.translate(dx, dy) @ self.flip_transform())

    @property
    def printable(self) -> Box:
        """The paper minus the printer's margin."""
        return Box(0, 0, self.width, self.height).inset(self.margin)

    @property
    def info(self) -> Box:
        """The band at the foot of the front page for the check square and caption, which
        :func:`info_items` keep :data:`MAX_OFFSET` away from the band's edges."""
        m = self.margin
        return Box(m, self.height - m - INFO_BAND, self.width - 2 * m, INFO_BAND)


@dataclass(frozen=True)
class Piece:
    """A two-sided piece as its own pages show it (pages without slug marks): the trim
    and bleed boxes, ``turn`` from a point of the side-1 page to the same physical point
    seen on the side-2 page, each side's fold lines (for fold marks), what it is called
    in messages ("a 85 × 110 mm card"), each side's inner cuts (slits from the trim
    inwards, for cut marks), and the side (0 or 1) on whose face the end of each inner
    cut is ticked (see ``prepress.marks``), if any."""

    trim: Box
    bleed: Box
    turn: Affine
    folds: tuple[Sequence[Segment], Sequence[Segment]]
    description: str
    cuts: tuple[Sequence[Segment], Sequence[Segment]] = ((), ())
    cut_end_side: int | None = None

    @property
    def bleed_width(self) -> float:
        return self.trim.x - self.bleed.x


@dataclass(frozen=True)
class SheetLayout:
    """Where the pieces go on the front side of the paper."""

    duplex: Duplex
    rotated: bool  # pieces turned 90° on the sheet
    columns: int
    rows: int
    fronts: tuple[Affine, ...]  # piece page -> sheet front page
    # The least and the most offset (mm) across, then down, that keeps every piece on
    # side 2 with the room for its marks inside the printable area.
    offset_room: tuple[tuple[float, float], tuple[float, float]]

    @property
    def count(self) -> int:
        return len(self.fronts)

    def back_placement(self, front: Affine, piece: Piece) -> Affine:
        """Piece page (side 2) -> sheet back page, for the piece placed by ``front``."""
        dx, dy = self.duplex.offset
        return Affine.translate(dx, dy) @ self.duplex.flip_transform() @ front @ piece.turn


def plan_sheet(piece: Piece, duplex: Duplex) -> SheetLayout:
    """Fit as many pieces as possible, upright or turned, in the printable area above the
    caption band; centred across the paper, and as near its middle from top to bottom
    as the band allows: this gives side 2 the most room to move for an offset. Refuses
    an offset beyond that room (a :class:`ParameterError` for ``offset``)."""
    pw, ph = duplex.width, duplex.height
    margin = duplex.margin
    bleed = piece.bleed
    avail_w, avail_h = pw - 2 * margin, ph - 2 * margin - INFO_BAND
    best: tuple[int, bool, int, int] | None = None
    for rotated in (False, True):
        cw = (bleed.h if rotated else bleed.w) + 2 * MARK_ROOM
        ch = (bleed.w if rotated else bleed.h) + 2 * MARK_ROOM
        cols, rows = int(avail_w // cw), int(avail_h // ch)
        if cols * rows and (best is None or cols * rows > best[0]):
            best = (cols * rows, rotated, cols, rows)
    if best is None:
        raise CardgenError(f"{piece.description} with bleed and marks does not fit on "
                           f"{duplex.paper.upper()} paper.", value=duplex.paper)
    _, rotated, cols, rows = best
    cw = (bleed.h if rotated else bleed.w) + 2 * MARK_ROOM
    ch = (bleed.w if rotated else bleed.h) + 2 * MARK_ROOM
    x0 = (pw - cols * cw) / 2
    y0 = min((ph - rows * ch) / 2, margin + avail_h - rows * ch)
    fronts = []
    for r in range(rows):
        for c in range(cols):
            # Centre of the slot on the sheet <- centre of the trim on the piece's page.
            sx, sy = x0 + (c + 0.5) * cw, y0 + (r + 0.5) * ch
            tcx, tcy = piece.trim.center
            turn = Affine.rotate(90) if rotated else Affine()
            fronts.append(Affine.translate(sx, sy) @ turn @ Affine.translate(-tcx, -tcy))
    room = _offset_room(piece, duplex, fronts)
    _check_offset(duplex, room)
    return SheetLayout(duplex, rotated, cols, rows, tuple(fronts), room)


def _offset_room(piece: Piece, duplex: Duplex, fronts: Sequence[Affine],
                 ) -> tuple[tuple[float, float], tuple[float, float]]:
    """How far side 2 may move before a piece, or the room around it for its marks,
    reaches the margin: from the pieces on side 2 without offset."""
    slot = piece.bleed.inset(-MARK_ROOM)
    to_back = duplex.flip_transform()
    boxes = [slot.transformed(to_back @ front @ piece.turn) for front in fronts]
    printable = duplex.printable
    return ((printable.x - min(b.x for b in boxes), printable.right - max(b.right for b in boxes)),
            (printable.y - min(b.y for b in boxes),
             printable.bottom - max(b.bottom for b in boxes)))


def _shown(value: float) -> str:
    """A bound of the offset room as a message shows it: to 0.1 mm, towards zero."""
    return f"{math.trunc(max(-MAX_OFFSET, min(MAX_OFFSET, value)) * 10) / 10 + 0.0:g}"


def _check_offset(duplex: Duplex, room: tuple[tuple[float, float], tuple[float, float]],
                  tol: float = 1e-9) -> None:
    """Refuse an offset that would print side 2 into the printer's margin."""
    dx, dy = duplex.offset
    (left, right), (up, down) = room
    if left - tol <= dx <= right + tol and up - tol <= dy <= down + tol:
        return
    raise ParameterError(
        "offset", f"{number(dx)},{number(dy)} would push side 2 into the {number(duplex.margin)}"
        f" mm margin the printer cannot print: on this sheet side 2 can move {_shown(left)} to "
        f"{_shown(right)} mm across and {_shown(up)} to {_shown(down)} mm down (a smaller "
        "margin gives more room, if the printer prints closer to the edge).",
        value=duplex.offset)


def placed_piece(page: Page, piece: Piece, placement: Affine, side: int,
                 marks: bool) -> list[Item]:
    """One side of a piece on the sheet: its layers clipped to the bleed, and (with
    ``marks``) its crop, cut and fold marks in the office style, and on the side the
    piece names, the ticks at the ends of its inner cuts."""
    artwork = [item for layer in page.layers for item in layer.items]
    items: list[Item] = [Group(artwork, transform=placement, clip=piece.bleed)]
    if marks:
        for line in mark_lines(piece.trim, piece.bleed_width, piece.folds[side], OFFICE,
                               cuts=piece.cuts[side], cut_ends=side == piece.cut_end_side):
            p1, p2 = placement.apply(line.x1, line.y1), placement.apply(line.x2, line.y2)
            items.append(Line(*p1, *p2, line.stroke))
    return items


def info_items(box: Box, text: str, fonts: FontSet) -> list[Item]:
    """The 10 mm check square and a caption, in a band of the page, :data:`MAX_OFFSET`
    from its left edge and centred between its top and bottom. The square measures
    exactly 10 mm outside: its stroke lies inside that edge."""
    x, y = box.x + MAX_OFFSET, box.y + (box.h - CHECK_SQUARE) / 2
    half = CHECK_STROKE / 2
    items: list[Item] = [Rect(x + half, y + half, CHECK_SQUARE - CHECK_STROKE,
                              CHECK_SQUARE - CHECK_STROKE, stroke=Stroke(BLACK, CHECK_STROKE))]
    x += CHECK_SQUARE + 3
    items.append(Text(x, y + 3.2, say("prepress", "sheet.check"), fonts.regular, 7, BLACK))
    items.append(Text(x, y + 7.4, text, fonts.regular, 6.5, BLACK))
    return items


def _check_ends_at_bleed(page: Page, tol: float = 1e-9) -> None:
    """A piece's page must end at its bleed: slug marks and texts of a print shop's file
    have no place on an office sheet (the sheet draws its own marks)."""
    b = page.bleed
    if max(abs(b.x), abs(b.y), abs(b.right - page.width), abs(b.bottom - page.height)) > tol:
        raise ValueError(f"impose needs pages that end at their bleed, but page {page.name!r} "
                         f"reaches {max(b.x, b.y):g} mm past it: build the piece without "
                         "slug marks")


def impose(side1: Page, side2: Page, piece: Piece, layout: SheetLayout, *, marks: bool,
           fonts: FontSet, names: tuple[str, str], pieces: str, title: str,
           output_intent: OutputIntent | None = None) -> Document:
    """One duplex sheet: every piece's side 1 on page 1, its side 2 on page 2. The pages
    must end at their bleed (no slug). ``names`` are the sheet pages' names (what each
    side holds, "outsides"), ``pieces`` what the pieces are called ("cards");
    ``output_intent`` the printing condition of the pieces' colours."""
    return impose_many([(side1, side2)] * layout.count, piece, layout, marks=marks,
                       fonts=fonts, names=names, pieces=pieces, title=title,
                       output_intent=output_intent)


def impose_many(sides: Sequence[tuple[Page, Page]], piece: Piece, layout: SheetLayout, *,
                marks: bool, fonts: FontSet, names: tuple[str, str], pieces: str,
                title: str, output_intent: OutputIntent | None = None) -> Document:
    """Different pieces of one shape on as many duplex sheets as they need, in order:
    each piece's side 2 lies behind its own side 1 (``sides`` holds the pairs). The
    places of a last sheet that are not needed stay blank, without marks. With more
    than one sheet, each side's name ends with its sheet's number."""
    if not sides:
        raise ValueError("impose_many needs at least one piece")
    per_sheet = layout.count
    sheets = -(-len(sides) // per_sheet)
    pages: list[Page] = []
    for sheet_no in range(1, sheets + 1):
        pages += impose_sheet(sides[(sheet_no - 1) * per_sheet:sheet_no * per_sheet],
                              sheet_no, sheets, piece, layout, marks=marks, fonts=fonts,
                              names=names, pieces=pieces)
    return Document(pages, title=title, subject=sheets_subject(),
                    output_intent=output_intent)


def sheets_subject() -> str:
    """What a document of imposed sheets says it is (its subject)."""
    return say("prepress", "sheet.subject")


def impose_sheet(sides: Sequence[tuple[Page, Page]], sheet_no: int, sheets: int,
                 piece: Piece, layout: SheetLayout, *, marks: bool, fonts: FontSet,
                 names: tuple[str, str], pieces: str) -> tuple[Page, Page]:
    """Sheet ``sheet_no`` of ``sheets`` of :func:`impose_many`, alone: its front and back
    pages, for its pieces (``sides``: at most ``layout.count`` pairs). A batch too large
    to hold every piece at once imposes its pieces a sheet at a time with it."""
    if not 0 < len(sides) <= layout.count:
        raise ValueError(f"a sheet takes 1 to {layout.count} pieces, not {len(sides)}")
    for pair in sides:
        for side in pair:
            _check_ends_at_bleed(side)
    duplex = layout.duplex
    paper = Box(0, 0, duplex.width, duplex.height)
    suffix = f" {sheet_no}" if sheets > 1 else ""
    front = Page(names[0] + suffix, duplex.width, duplex.height, paper, paper)
    back = Page(names[1] + suffix, duplex.width, duplex.height, paper, paper)
    summary = say("prepress", "sheet.summary", version=__version__, count=len(sides),
                  pieces=pieces, paper=duplex.paper.upper(), flip=duplex.flip,
                  dx=f"{duplex.offset[0]:g}", dy=f"{duplex.offset[1]:g}")
    if sheets > 1:
        summary = say("prepress", "sheet.numbered", summary=summary, sheet=sheet_no,
                      sheets=sheets)
    for placement, (side1, side2) in zip(layout.fronts, sides, strict=False):
        front.layer("cards").add(*placed_piece(side1, piece, placement, 0, marks))
        back.layer("cards").add(*placed_piece(
            side2, piece, layout.back_placement(placement, piece), 1, marks))
    front.layer("info").add(*info_items(
        duplex.info, say("prepress", "sheet.side", side=1, content=names[0],
                         summary=summary), fonts))
    back.layer("info").add(*info_items(
        duplex.back_box(duplex.info),
        say("prepress", "sheet.side", side=2, content=names[1], summary=summary), fonts))
    return front, back
