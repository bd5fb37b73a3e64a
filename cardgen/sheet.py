"""Imposition: as many flat cards as fit on A4 or Letter, for office duplex printing.

Page 1 of a sheet carries the outsides, page 2 the insides, placed so that each inside
lands behind its own outside when the printer turns the paper over the chosen edge:

    back placement = offset ∘ flip ∘ front placement ∘ (outside → inside mirror)

The *flip* is the paper turning over its long edge (x mirrored) or short edge (y
mirrored); the composition is always a proper rotation plus translation, so the insides
are never mirrored. The optional offset moves everything on the back to correct a
printer's duplex misregistration (measured with the registration test page).
"""

from __future__ import annotations

from dataclasses import dataclass

from cardgen import __version__
from cardgen.cardgeometry import CardGeometry
from cardgen.colors import Color
from cardgen.errors import CardgenError
from cardgen.fonts import FontSet, bundled_fonts
from cardgen.geometry import Affine, Box, Point
from cardgen.page import Document, Group, Item, Line, Page, Rect, Stroke, Text

PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
FLIPS = ("long", "short")
SHEET_MARK = 3.0  # length of the per-card crop marks, starting at the bleed edge
INFO_BAND = 13.0  # room for the check square and the sheet's caption
CHECK_SQUARE = 10.0
MARK_COLOR = Color.cmyk(0, 0, 0, 100)
MARK_STROKE = Stroke(MARK_COLOR, 0.12)
FOLD_STROKE = Stroke(MARK_COLOR, 0.12, dash=(0.8, 0.6))


@dataclass(frozen=True)
class SheetLayout:
    """Where the cards go on the front side of the paper."""

    paper: str
    width: float
    height: float
    flip: str
    offset: tuple[float, float]
    rotated: bool  # cards turned 90° on the sheet
    columns: int
    rows: int
    fronts: tuple[Affine, ...]  # card page -> sheet front page
    info: Box  # the caption band on the front page

    @property
    def count(self) -> int:
        return len(self.fronts)

    def flip_transform(self) -> Affine:
        """A point of the front page -> the same physical point seen on the back page."""
        if self.flip == "long":
            return Affine(-1, 0, 0, 1, self.width, 0)
        return Affine(1, 0, 0, -1, 0, self.height)

    def back_placement(self, front: Affine, geometry: CardGeometry) -> Affine:
        """Card page (inside view) -> sheet back page, for the card placed by ``front``."""
        mirror = Affine(-1, 0, 0, 1, 2 * geometry.center_x, 0)  # outside <-> inside view
        dx, dy = self.offset
        return Affine.translate(dx, dy) @ self.flip_transform() @ front @ mirror

    def back_box(self, box: Box) -> Box:
        """A front-page box as it lies on the back page (with the offset)."""
        dx, dy = self.offset
        return box.transformed(Affine.translate(dx, dy) @ self.flip_transform())


def plan_sheet(geometry: CardGeometry, paper: str, flip: str = "long",
               offset: tuple[float, float] = (0.0, 0.0), margin: float = 5.0) -> SheetLayout:
    """Fit as many cards as possible, upright or turned, centred on the printable area."""
    if paper not in PAPERS:
        raise CardgenError(f"--paper must be one of {', '.join(PAPERS)}, not {paper!r}.")
    if flip not in FLIPS:
        raise CardgenError(f"--flip must be long or short, not {flip!r}.")
    if not 0 <= margin <= 30:
        raise CardgenError(f"--margin must be 0–30 mm, not {margin:g}.")
    pw, ph = PAPERS[paper]
    bleed = geometry.bleed_box
    avail_w, avail_h = pw - 2 * margin, ph - 2 * margin - INFO_BAND
    best: tuple[int, bool, int, int] | None = None
    for rotated in (False, True):
        cw = (bleed.h if rotated else bleed.w) + 2 * SHEET_MARK
        ch = (bleed.w if rotated else bleed.h) + 2 * SHEET_MARK
        cols, rows = int(avail_w // cw), int(avail_h // ch)
        if cols * rows and (best is None or cols * rows > best[0]):
            best = (cols * rows, rotated, cols, rows)
    if best is None:
        raise CardgenError(f"a {geometry.size.width:g} × {2 * geometry.size.height:g} mm card "
                           f"with bleed and marks does not fit on {paper.upper()} paper.")
    _, rotated, cols, rows = best
    cw = (bleed.h if rotated else bleed.w) + 2 * SHEET_MARK
    ch = (bleed.w if rotated else bleed.h) + 2 * SHEET_MARK
    x0 = (pw - cols * cw) / 2
    y0 = margin + (avail_h - rows * ch) / 2
    fronts = []
    for r in range(rows):
        for c in range(cols):
            # Centre of the slot on the sheet <- centre of the trim on the card page.
            sx, sy = x0 + (c + 0.5) * cw, y0 + (r + 0.5) * ch
            tcx, tcy = geometry.trim.center
            turn = Affine.rotate(90) if rotated else Affine()
            fronts.append(Affine.translate(sx, sy) @ turn @ Affine.translate(-tcx, -tcy))
    info = Box(margin, ph - margin - INFO_BAND, pw - 2 * margin, INFO_BAND)
    return SheetLayout(paper, pw, ph, flip, offset, rotated, cols, rows, tuple(fronts), info)


def _card_marks(geometry: CardGeometry, inside: bool) -> list[tuple[Point, Point, Stroke]]:
    """Per-card crop and fold marks in card page coordinates, from the bleed edge out."""
    t, b = geometry.trim, geometry.size.bleed
    lines: list[tuple[Point, Point, Stroke]] = []
    for x, sx in ((t.x, -1), (t.right, 1)):
        for y, sy in ((t.y, -1), (t.bottom, 1)):
            lines.append(((x + sx * b, y), (x + sx * (b + SHEET_MARK), y), MARK_STROKE))
            lines.append(((x, y + sy * b), (x, y + sy * (b + SHEET_MARK)), MARK_STROKE))
    y = geometry.fold_y
    lines.append(((t.x - b, y), (t.x - b - SHEET_MARK, y), FOLD_STROKE))
    lines.append(((t.right + b, y), (t.right + b + SHEET_MARK, y), FOLD_STROKE))
    for tab in ("5", "6"):
        x = geometry.hinge_x(tab) if inside else 2 * geometry.center_x - geometry.hinge_x(tab)
        lines.append(((x, t.y - b), (x, t.y - b - SHEET_MARK), FOLD_STROKE))
    return lines


def _placed_card(page: Page, geometry: CardGeometry, placement: Affine, inside: bool,
                 marks: bool) -> list[Item]:
    artwork = [item for layer in page.printing_layers if layer.name != "marks"
               for item in layer.items]
    items: list[Item] = [Group(artwork, transform=placement, clip=geometry.bleed_box)]
    if marks:
        for p1, p2, stroke in _card_marks(geometry, inside):
            (x1, y1), (x2, y2) = placement.apply(*p1), placement.apply(*p2)
            items.append(Line(x1, y1, x2, y2, stroke))
    return items


def _caption(box: Box, text: str, fonts: FontSet) -> list[Item]:
    """The 10 mm check square and a caption, in a band of the page."""
    y = box.y + (box.h - CHECK_SQUARE) / 2
    items: list[Item] = [Rect(box.x, y, CHECK_SQUARE, CHECK_SQUARE, stroke=Stroke(MARK_COLOR, 0.2))]
    x = box.x + CHECK_SQUARE + 3
    items.append(Text(x, y + 3.2, "The square must measure 10 mm: print at 100 % "
                      "(\u201cactual size\u201d, not \u201cfit to page\u201d).",
                      fonts.regular, 7, MARK_COLOR))
    items.append(Text(x, y + 7.4, text, fonts.regular, 6.5, MARK_COLOR))
    return items


def build_sheets(outside: Page, inside: Page, geometry: CardGeometry, layout: SheetLayout,
                 *, marks: bool = True, fonts: FontSet | None = None,
                 title: str = "cardgen sheet") -> Document:
    """One duplex sheet: outsides on page 1, insides on page 2."""
    fonts = fonts or bundled_fonts()
    paper = Box(0, 0, layout.width, layout.height)
    front = Page("outsides", layout.width, layout.height, paper, paper)
    back = Page("insides", layout.width, layout.height, paper, paper)
    common = (f"cardgen {__version__} · {layout.count} cards on {layout.paper.upper()} · duplex: "
              f"flip on the {layout.flip} edge · back offset "
              f"{layout.offset[0]:g}, {layout.offset[1]:g} mm")
    for placement in layout.fronts:
        front.layer("cards").add(*_placed_card(outside, geometry, placement, False, marks))
        back.layer("cards").add(*_placed_card(inside, geometry,
                                              layout.back_placement(placement, geometry),
                                              True, marks))
    front.layer("info").add(*_caption(layout.info, f"Side 1 of 2: outsides · {common}", fonts))
    back_info = layout.back_box(layout.info)
    back.layer("info").add(*_caption(back_info, f"Side 2 of 2: insides · {common}", fonts))
    return Document([front, back], title=title, subject="cardgen duplex sheet")


def build_registration(layout: SheetLayout, fonts: FontSet | None = None) -> Document:
    """A two-page duplex test: lines on the front, scales on the back.

    Held against a light, each front line crosses a back scale at the printer's
    misregistration; the readings are the ``--offset`` to use.
    """
    fonts = fonts or bundled_fonts()
    paper = Box(0, 0, layout.width, layout.height)
    front = Page("registration-front", layout.width, layout.height, paper, paper)
    back = Page("registration-back", layout.width, layout.height, paper, paper)
    cx, cy = layout.width / 2, layout.height / 2
    dx, dy = layout.width / 2 - 35, layout.height / 2 - 45
    targets = [(cx, cy), (cx - dx, cy - dy), (cx + dx, cy - dy), (cx - dx, cy + dy),
               (cx + dx, cy + dy)]
    line = Stroke(MARK_COLOR, 0.15)
    to_back = Affine.translate(*layout.offset) @ layout.flip_transform()
    f, b = front.layer("test"), back.layer("test")
    for x, y in targets:
        f.add(Line(x - 12, y, x + 12, y, line), Line(x, y - 12, x, y + 12, line))
        bx, by = to_back.apply(x, y)
        b.add(*_scale(bx, by + 7, horizontal=True, fonts=fonts))
        b.add(*_scale(bx + 7, by, horizontal=False, fonts=fonts))
    flip = f"flip on the {layout.flip} edge"
    f.add(*_text_block(cx, cy - 40, [
        "Duplex registration test · side 1 of 2",
        f"Print both pages double-sided ({flip}) at 100 % on {layout.paper.upper()}.",
        "Hold the sheet against a light and read side 2, where the scales are.",
    ], fonts))
    b.add(*_text_block(cx, cy - 40, [
        "Duplex registration test · side 2 of 2",
        "Where each line from side 1 crosses a scale, read the value in mm.",
        "Pass the readings as  cardgen sheet --offset X,Y  (horizontal scale X, vertical "
        "scale Y),",
        f"added to the offset this page was printed with ({layout.offset[0]:g}, "
        f"{layout.offset[1]:g}). Equal readings everywhere mean a pure shift.",
    ], fonts))
    f.add(*_caption(layout.info, f"cardgen {__version__} · registration test · side 1", fonts))
    b.add(*_caption(layout.back_box(layout.info),
                    f"cardgen {__version__} · registration test · side 2", fonts))
    return Document([front, back], title="cardgen duplex registration test")


def _scale(x: float, y: float, *, horizontal: bool, fonts: FontSet) -> list[Item]:
    """A ruler from -5 to +5 mm centred on (x, y): ticks every 0.5 mm, numbers every 2 mm."""
    items: list[Item] = []
    stroke = Stroke(MARK_COLOR, 0.1)
    for i in range(-10, 11):
        v = i / 2
        length = 2.2 if i % 2 == 0 else 1.2
        if i == 0:
            length = 3.2
        if horizontal:
            items.append(Line(x + v, y, x + v, y + length, stroke))
            if i % 4 == 0:
                items.append(Text(x + v, y + 5.2, f"{v:+g}" if v else "0", fonts.regular, 4.5,
                                  MARK_COLOR, anchor="middle"))
        else:
            items.append(Line(x, y + v, x + length, y + v, stroke))
            if i % 4 == 0:
                items.append(Text(x + 3.8, y + v + 0.6, f"{v:+g}" if v else "0", fonts.regular,
                                  4.5, MARK_COLOR))
    return items


def _text_block(x: float, y: float, lines: list[str], fonts: FontSet) -> list[Item]:
    items: list[Item] = []
    for i, text in enumerate(lines):
        face = fonts.bold if i == 0 else fonts.regular
        items.append(Text(x, y + i * 4.2, text, face, 9 if i == 0 else 7.5, MARK_COLOR,
                          anchor="middle"))
    return items
