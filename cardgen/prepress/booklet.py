"""Saddle-stitched booklets: a book whose pages are half the paper, imposed two to a side
on landscape A4 or Letter sheets, to print on both sides, fold in half and staple along
the fold.

**Page size.** A book page is half the sheet (:func:`page_size`): 148.5 × 210 mm on A4
(ISO A5, 148 × 210 mm, is accepted too: a page within :data:`SIZE_TOLERANCE` of the half
is centred in it), 139.7 × 215.9 mm (5.5 × 8.5 in) on Letter. Every page of a book has
the same size.

**Which page goes where.** An n-page booklet (n a multiple of 4) takes n/4 sheets,
numbered s = 1 (the outermost, which carries the covers) to n/4 (the innermost, which
carries the centre spread). Seen as a reader sees each side (the back after turning the
sheet over like a book page), sheet s shows::

    front (side 1):   left  n − 2s + 2    right 2s − 1
    back  (side 2):   left  2s            right n − 2s + 1

An 8-page booklet prints 8 | 1 and 2 | 7 on sheet 1, then 6 | 3 and 4 | 5 on sheet 2.
Put each sheet on the one before (sheet 1 at the bottom, fronts down), fold the stack
in half and staple along the fold: the pages read 1 to n. :func:`booklet_order` is the
table.

**Padding.** A book of any length is padded with blank pages to the next multiple of 4
(:func:`padded_count`). The blanks go at the end, the usual practice (InDesign's Print
Booklet, pdfimpose): they become the last pages of the booklet, where an empty page
reads as "the end" rather than as a gap in the text. With ``keep_last`` the book's last
page stays the last page of the booklet (a back cover) and the blanks go just before it,
like pdfimpose's ``--last 1`` and PDF::Imposition's ``cover`` option. The caller makes
each blank page (``blank``, given the page's number in the booklet), so the book decides
what an intentionally blank page says; by default it is empty. A page that prints its
own number must be set knowing where it lands (:func:`page_sequence`).

**Duplex.** The PDF holds two pages per sheet: its front, then its back, both landscape.
Each book page is placed by one exact transform (:class:`~cardgen.draw.geometry.Affine`).
On the front it is a translation into its half. On the back, as in
:mod:`cardgen.prepress.impose`::

    back placement = offset ∘ flip ∘ turn ∘ reading placement

where the *reading placement* puts the page in its half as a reader sees the back (the
table above), *turn* maps that view to the front page's coordinates (the sheet turned
over its spine like a book page: x mirrored about the spine), and *flip* maps a point of
the front page to the same physical point seen on the back page the printer prints:
the paper turns over its long edge or its short edge. On a landscape sheet the long
edges are the head and foot, so a long-edge flip mirrors y, a short-edge flip mirrors x.
With :attr:`Flip.SHORT` turn and flip cancel: the back prints upright, as it reads.
With :attr:`Flip.LONG` (the default, as for ``cardgen sheet``) the back prints turned
180°, so that it comes out upright once the paper has turned over its long edge. Either
way page k + 1 lies behind page k (k odd). Most printers' booklet instructions say "flip
on the short edge"; both work, as long as the printer is set to the edge the PDF is made
for. The ``offset`` (mm right and down on the back page, within
:data:`~cardgen.prepress.impose.MAX_OFFSET` on each axis, the same meaning and limit as
``cardgen sheet``'s) moves everything on the back, to correct a printer's duplex
misregistration.

**Creep.** Folded together, the inner sheets stick out at the fore-edge: each sheet
wraps around the ones inside it. ``creep`` (mm) moves the content of every page of sheet
s towards the spine by::

    creep × (s − 1) / (sheets − 1)

the outermost sheet not at all, the innermost by the full ``creep``, the sheets between
in proportion: InDesign's Print Booklet does the same with a negative creep (the
outermost sheet stays, the inner ones move towards the spine), and pdfimpose takes the
creep as a linear function of the sheet's index. A one-sheet booklet does not creep. The
creep is at most :data:`MAX_CREEP`, see there. Both sides of a leaf move together, so
page k + 1 stays behind page k.

**Boxes and marks.** Each side is the whole paper, and its TrimBox and BleedBox are the
paper too (office printing: no bleed, no trimming). Each page is clipped to its half of
the sheet, so nothing spills across the spine. The front of every sheet carries a short
dashed fold tick on the spine at the head and at the foot, from the printer's margin
(:data:`~cardgen.prepress.impose.Duplex` ``margin``, 5 mm) :data:`FOLD_TICK` mm into the
page: solid black, fine, set to overprint (the ink rule). The back has none: a tick
there would move with the offset and mislead. The booklet keeps the book's title,
subject and output intent.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

from cardgen.draw.geometry import Affine, Box
from cardgen.draw.page import Document, Group, Item, Line, Page
from cardgen.errors import GeneralProblem, ParameterError, ProblemsError, number
from cardgen.prepress.impose import Duplex, Flip
from cardgen.prepress.marks import OFFICE
from cardgen.prepress.paper import Paper
from cardgen.texts import say

# mm: the most creep a booklet takes. The innermost sheet of a saddle-stitched booklet
# sticks out by about the thickness of the paper folded around it; an office stapler
# holds some 20–25 sheets of 0.1 mm paper (a 100-page booklet), which creep by 2–2.5 mm.
# More than this is a mistake (a value in the wrong unit), and would eat into the gutter.
MAX_CREEP = 3.0
# mm: how far a page may be from exactly half the sheet, so that ISO A5 (148 × 210 mm,
# A4's half rounded down to the millimetre) prints on A4.
SIZE_TOLERANCE = 0.5
FOLD_TICK = 3.6  # mm: each fold tick, from the printer's margin inwards: three dashes
_SAME = 1e-6  # mm: two pages of "the same size"


class SheetPages(NamedTuple):
    """The book pages (1-based) on the two sides of one sheet, each (left, right) as a
    reader sees that side."""

    front: tuple[int, int]
    back: tuple[int, int]


def booklet_order(n: int) -> list[SheetPages]:
    """Which page goes where in an n-page booklet (n a positive multiple of 4): one
    entry per sheet from the outermost; sheet s (1-based) shows pages n − 2s + 2 (left)
    and 2s − 1 (right) on its front, 2s (left) and n − 2s + 1 (right) on its back."""
    if n <= 0 or n % 4:
        raise ValueError(f"a booklet has a positive multiple of 4 pages, not {n}")
    return [SheetPages((n - 2 * s + 2, 2 * s - 1), (2 * s, n - 2 * s + 1))
            for s in range(1, n // 4 + 1)]


def padded_count(count: int) -> int:
    """The pages of a booklet made of ``count`` pages (at least 1): the next multiple
    of 4."""
    if count <= 0:
        raise ValueError(f"a booklet needs at least one page, not {count}")
    return -(-count // 4) * 4


def page_sequence(count: int, *, keep_last: bool = False) -> list[int | None]:
    """The booklet's pages in order, each the index (0-based) of the book page it shows
    or ``None`` for a blank: the blanks at the end, or with ``keep_last`` just before
    the book's last page (which stays last; a one-page book keeps it first)."""
    total = padded_count(count)
    pages: list[int | None] = list(range(count))
    blanks: list[int | None] = [None] * (total - count)
    if keep_last and count > 1:
        return pages[:-1] + blanks + pages[-1:]
    return pages + blanks


def page_size(paper: Paper) -> tuple[float, float]:
    """The size (mm) of a book page on ``paper``: half the landscape sheet, portrait (A5 on
    A4, half-letter on Letter). The one definition: the rules book sets its pages at this
    size and the booklet imposes them two to a sheet."""
    short, long_ = paper.size
    return (long_ / 2, short)


def sheet_size(paper: Paper) -> tuple[float, float]:
    """The landscape sheet (mm)."""
    short, long_ = paper.size
    return (long_, short)


def creep_shift(creep: float, sheet: int, sheets: int) -> float:
    """How far (mm) the pages of sheet ``sheet`` (0 = the outermost) of ``sheets`` move
    towards the spine: ``creep × sheet / (sheets − 1)``; none in a one-sheet booklet."""
    return 0.0 if sheets < 2 else creep * sheet / (sheets - 1)


def check_creep(creep: float) -> None:
    """Refuse a creep outside 0–:data:`MAX_CREEP` mm (a :class:`ParameterError`)."""
    if not 0 <= creep <= MAX_CREEP:  # NaN fails this too
        raise ParameterError(
            "creep", f"must be 0–{MAX_CREEP:g} mm, not {number(creep)}: the innermost sheet "
            "of a stapled office booklet sticks out by about the thickness of the paper "
            "around it, 2–2.5 mm for the 20–25 sheets a stapler holds.", value=creep)


@dataclass(frozen=True)
class Placement:
    """Where book page ``page`` (1-based) prints: on side ``side`` (0 front, 1 back) of
    sheet ``sheet`` (0-based, from the outside), through ``transform`` (book page ->
    sheet side), clipped to ``clip`` (its half of the sheet, in the book page's
    coordinates)."""

    page: int
    sheet: int
    side: int
    transform: Affine
    clip: Box


def placements(n: int, paper: Paper, size: tuple[float, float], *, flip: Flip = Flip.LONG,
               creep: float = 0.0, offset: tuple[float, float] = (0.0, 0.0),
               ) -> list[Placement]:
    """Every page of an n-page booklet (n a multiple of 4) of pages of ``size`` (mm) on
    ``paper``: sheet by sheet, front left, front right, back left, back right as a
    reader sees them. See the module's docstring for the conventions."""
    width, height = sheet_size(paper)
    half = width / 2
    spine = Affine.mirror_x(half)  # the back as read -> the front page: turned over the spine
    to_back = Affine.mirror_y(height / 2) if flip is Flip.LONG else Affine.mirror_x(half)
    back = Affine.translate(*offset) @ to_back @ spine
    pw, ph = size
    order = booklet_order(n)
    result = []
    for sheet, pages in enumerate(order):
        shift = creep_shift(creep, sheet, len(order))
        for side, pair in enumerate((pages.front, pages.back)):
            for column, page in enumerate(pair):
                # Centred in its half, then moved towards the spine (right on the left).
                x = column * half + (half - pw) / 2 + (shift if column == 0 else -shift)
                y = (height - ph) / 2
                clip = Box(column * half - x, -y, half, height)
                reading = Affine.translate(x, y)
                result.append(Placement(page, sheet, side,
                                        back @ reading if side else reading, clip))
    return result


def _size_problem(label: str, page: Page, paper: Paper, first: Page | None) -> str | None:
    """Why ``page`` cannot be a page of this booklet, if it cannot."""
    shown = f"{number(page.width)} × {number(page.height)} mm"
    if first is not None:
        if abs(page.width - first.width) > _SAME or abs(page.height - first.height) > _SAME:
            return (f"{label} ({page.name!r}) is {shown}, unlike page 1 "
                    f"({number(first.width)} × {number(first.height)} mm): every page of "
                    "a booklet has the same size.")
        return None
    w, h = page_size(paper)
    if abs(page.width - w) > SIZE_TOLERANCE or abs(page.height - h) > SIZE_TOLERANCE:
        return (f"{label} ({page.name!r}) is {shown}, but a booklet on {paper.upper()} "
                f"paper needs pages of half the sheet, {number(w)} × {number(h)} mm.")
    return None


def _fold_ticks(paper: Paper, margin: float) -> list[Item]:
    """A dashed tick on the spine at the head and at the foot of a sheet's front."""
    width, height = sheet_size(paper)
    x = width / 2
    return [Line(x, margin, x, margin + FOLD_TICK, OFFICE.fold),
            Line(x, height - margin, x, height - margin - FOLD_TICK, OFFICE.fold)]


def impose_booklet(book: Document, paper: Paper, *, flip: Flip = Flip.LONG,
                   creep: float = 0.0, offset: tuple[float, float] = (0.0, 0.0),
                   blank: Callable[[int], Page] | None = None, keep_last: bool = False,
                   fold_marks: bool = True) -> Document:
    """The pages of ``book`` (in reading order, each half of ``paper``) as a
    saddle-stitched booklet: two PDF pages per sheet, its front then its back, for
    printing on both sides with the paper turning over its ``flip`` edge. ``blank``
    makes the padding pages (given each one's page number in the booklet); ``keep_last``
    keeps the book's last page last; ``fold_marks`` ticks the fold on each front. A page
    of the wrong size is a :class:`ProblemsError` (a ``CardgenError``) naming every such
    page; a creep or offset out of range a :class:`ParameterError`. See the module's
    docstring for the conventions."""
    check_creep(creep)
    duplex = Duplex(paper, flip, offset)  # checks the offset as `cardgen sheet` does
    if not book.pages:
        raise ValueError("a booklet needs at least one page")
    first = book.pages[0]
    first_problem = _size_problem("page 1", first, paper, None)
    problems = [first_problem] if first_problem else []
    pages: list[Page] = []
    for at, index in enumerate(page_sequence(len(book.pages), keep_last=keep_last), 1):
        if index is None:
            box = Box(0, 0, first.width, first.height)
            page = (blank(at) if blank is not None else
                    Page(f"blank {at}", first.width, first.height, box, box))
            label = f"blank page {at}"
        else:
            page, label = book.pages[index], f"page {index + 1}"
        problem = _size_problem(label, page, paper, first)
        if problem:
            problems.append(problem)
        pages.append(page)
    if problems:
        raise ProblemsError("", problems, value=book, code=GeneralProblem.PAGE_SIZE)
    width, height = sheet_size(paper)
    whole = Box(0, 0, width, height)
    sides = [Page(say("prepress", "booklet.side", sheet=sheet + 1, side=side + 1),
                  width, height, whole, whole)
             for sheet in range(len(pages) // 4) for side in (0, 1)]
    for place in placements(len(pages), paper, (first.width, first.height), flip=flip,
                            creep=creep, offset=offset):
        page = pages[place.page - 1]
        artwork: list[Item] = [item for layer in page.layers for item in layer.items]
        sides[2 * place.sheet + place.side].layer("pages").add(
            Group(artwork, transform=place.transform, clip=place.clip))
    if fold_marks:
        for front in sides[::2]:
            front.layer("marks").add(*_fold_ticks(paper, duplex.margin))
    return Document(sides, title=book.title, subject=book.subject,
                    output_intent=book.output_intent)
