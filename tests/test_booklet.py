"""Saddle-stitched booklets (prepress.booklet): the page order, the padding, the duplex
geometry of a landscape sheet, creep, and an imposed PDF read back.

The physics is written out here, independently of the program (millimetres, origin
top-left, y down):

- a sheet is landscape, W × H; its long edges are the head and the foot. Turning the
  paper over its long edge maps a point of the front page to (x, H − y) on the back page,
  over its short edge to (W − x, y); the offset (dx, dy) then moves the whole back;
- a leaf of the book carries pages k and k + 1 (k odd) back to back: the point (x, y) of
  page k lies on the point (w − x, y) of page k + 1, the leaf being turned over its
  spine edge; an odd page (a recto) binds along its left edge, an even one (a verso)
  along its right edge.
"""

from __future__ import annotations

import io
import math

import pdfplumber
import pytest

from cardgen.draw.colors import Color
from cardgen.draw.geometry import Box
from cardgen.draw.page import Anchor, Document, Group, Line, Page, Rect, Text, walk
from cardgen.errors import CardgenError, ParameterError
from cardgen.prepress.booklet import (
    MAX_CREEP,
    SheetPages,
    booklet_order,
    impose_booklet,
    padded_count,
    page_sequence,
    page_size,
    placements,
)
from cardgen.prepress.impose import Flip
from cardgen.prepress.ink import page_ink_problems
from cardgen.prepress.paper import Paper
from cardgen.render import Format, render
from cardgen.text.fonts import bundled_fonts

# Written out here, not taken from the program: landscape sheets and half-sheet pages.
SHEET = {"a4": (297.0, 210.0), "letter": (11 * 25.4, 8.5 * 25.4)}
PAGE = {"a4": (148.5, 210.0), "letter": (5.5 * 25.4, 8.5 * 25.4)}
ISO_A5 = (148.0, 210.0)
BLACK = Color.cmyk(0, 0, 0, 100, overprint=True)
EPS = 1e-9
FONTS = bundled_fonts()


# --- the page order -----------------------------------------------------------------------


def folded_order(n: int) -> list[SheetPages]:
    """Fold a stack of n/4 sheets and number the faces as a reader meets them.

    The sheets lie flat, fronts down, sheet 1 at the bottom; seen from above, each has a
    left half L and a right half R. Folding the stack in half lifts the left halves over
    onto the right ones: they turn over (fronts up) and their order reverses. The closed
    booklet lies with its spine on the left, its cover on top; from the top down its
    leaves are the left halves of sheets 1 … m, then the right halves of sheets m … 1
    (backs up). A reader numbers each leaf's upper face, then its lower face.

    Seen from above, the back lies as a reader sees it; the front is seen from below, so
    its halves swap: the front's left is R, its right is L."""
    m = n // 4
    leaves = [(s, "L", ("front", "back")) for s in range(1, m + 1)]
    leaves += [(s, "R", ("back", "front")) for s in range(m, 0, -1)]
    face: dict[tuple[int, str, str], int] = {}
    for s, half, sides in leaves:
        for side in sides:
            face[s, side, half] = len(face) + 1
    return [SheetPages((face[s, "front", "R"], face[s, "front", "L"]),
                       (face[s, "back", "L"], face[s, "back", "R"])) for s in range(1, m + 1)]


@pytest.mark.parametrize("n", range(4, 65, 4))
def test_order_is_what_folding_a_stack_gives(n):
    order = booklet_order(n)
    assert order == folded_order(n)
    faces = [p for sheet in order for side in sheet for p in side]
    assert sorted(faces) == list(range(1, n + 1))


def test_order_of_an_eight_page_booklet():
    assert booklet_order(8) == [((8, 1), (2, 7)), ((6, 3), (4, 5))]
    assert booklet_order(4) == [SheetPages(front=(4, 1), back=(2, 3))]


@pytest.mark.parametrize("n", [0, -4, 2, 6, 13])
def test_order_needs_a_positive_multiple_of_four(n):
    with pytest.raises(ValueError, match="multiple of 4"):
        booklet_order(n)


# --- padding ------------------------------------------------------------------------------


@pytest.mark.parametrize(("count", "padded"), [(1, 4), (3, 4), (4, 4), (5, 8), (8, 8),
                                               (9, 12), (11, 12), (16, 16), (17, 20)])
def test_padded_count(count, padded):
    assert padded_count(count) == padded


@pytest.mark.parametrize(("count", "keep_last", "sequence"), [
    (1, False, [0, None, None, None]),
    (1, True, [0, None, None, None]),  # one page: it is the first
    (3, False, [0, 1, 2, None]),
    (3, True, [0, 1, None, 2]),
    (4, True, [0, 1, 2, 3]),
    (5, False, [0, 1, 2, 3, 4, None, None, None]),
    (5, True, [0, 1, 2, 3, None, None, None, 4]),
    (11, True, [*range(10), None, 10]),
])
def test_blanks_go_at_the_end_or_before_the_last_page(count, keep_last, sequence):
    assert page_sequence(count, keep_last=keep_last) == sequence


def test_zero_pages_is_a_bug():
    with pytest.raises(ValueError):
        padded_count(0)
    with pytest.raises(ValueError):
        impose_booklet(Document([]), Paper.A4)


# --- test pages ---------------------------------------------------------------------------


def numbered(k: int, label: str | None = None, size: tuple[float, float] = PAGE["a4"]) -> Page:
    """A book page that prints its own number (or ``label``) at the foot."""
    w, h = size
    page = Page(f"page {k}", w, h, Box(0, 0, w, h), Box(0, 0, w, h))
    page.layer("text").add(Text(w / 2, h - 12, label or str(k), FONTS.regular, 10, BLACK,
                                Anchor.MIDDLE))
    return page


def book(count: int, paper: str = "a4", size: tuple[float, float] | None = None) -> Document:
    return Document([numbered(k, size=size or PAGE[paper]) for k in range(1, count + 1)],
                    title="A rule book", subject="The rules")


def blank_page(paper: str = "a4"):
    return lambda k: numbered(k, "blank", PAGE[paper])


def page_texts(document: Document) -> list[list[str]]:
    """The texts on each sheet side, in drawing order."""
    return [[item.text for layer in side.layers for item, _ in walk(layer.items)
             if isinstance(item, Text)] for side in document.pages]


def test_blank_pages_are_made_by_the_caller_with_their_numbers():
    asked: list[int] = []

    def blank(k: int) -> Page:
        asked.append(k)
        return numbered(k, f"blank {k}")

    document = impose_booklet(book(5), Paper.A4, blank=blank, keep_last=True)
    assert asked == [5, 6, 7]
    # Sheet 1: 8 | 1 and 2 | 7, sheet 2: 6 | 3 and 4 | 5; page 8 is the book's last.
    assert page_texts(document) == [["5", "1"], ["2", "blank 7"], ["blank 6", "3"],
                                    ["4", "blank 5"]]


def test_blank_pages_are_empty_by_default():
    document = impose_booklet(book(2), Paper.A4)
    assert page_texts(document) == [["1"], ["2"]]


# --- duplex geometry ----------------------------------------------------------------------


def flip_point(p: tuple[float, float], paper: str, flip: str) -> tuple[float, float]:
    """A point of the front page, seen on the back page once the paper has turned over."""
    x, y = p
    width, height = SHEET[paper]
    return (x, height - y) if flip == "long" else (width - x, y)


def close(p: tuple[float, float], q: tuple[float, float], tol: float = 1e-9) -> bool:
    return abs(p[0] - q[0]) <= tol and abs(p[1] - q[1]) <= tol


CASES = [("a4", "long", (0.0, 0.0), 0.0, PAGE["a4"]),
         ("a4", "short", (0.0, 0.0), 0.0, PAGE["a4"]),
         ("letter", "long", (1.5, -2.0), 0.0, PAGE["letter"]),
         ("letter", "short", (-0.7, 0.35), 2.0, PAGE["letter"]),
         ("a4", "long", (0.4, 1.0), 1.5, ISO_A5),
         ("a4", "short", (0.0, 0.0), 3.0, ISO_A5)]


@pytest.mark.parametrize("n", [4, 12, 20])
@pytest.mark.parametrize(("paper", "flip", "offset", "creep", "size"), CASES)
def test_each_page_lies_behind_the_one_before(paper, flip, offset, creep, size, n):
    w, h = size
    places = {p.page: p for p in placements(n, Paper(paper), size, flip=Flip(flip),
                                            creep=creep, offset=offset)}
    assert sorted(places) == list(range(1, n + 1))
    points = [(0.0, 0.0), (w, 0.0), (w, h), (0.0, h), (w / 3, h / 7)]
    for k in range(1, n, 2):
        recto, verso = places[k], places[k + 1]
        assert recto.sheet == verso.sheet and {recto.side, verso.side} == {0, 1}
        for x, y in points:
            on = {recto.side: recto.transform.apply(x, y),
                  verso.side: verso.transform.apply(w - x, y)}
            behind = flip_point(on[0], paper, flip)
            assert close(on[1], (behind[0] + offset[0], behind[1] + offset[1])), (k, x, y)


@pytest.mark.parametrize(("paper", "flip", "offset", "creep", "size"), CASES)
def test_fronts_stand_upright_and_backs_upright_or_turned_half_round(paper, flip, offset,
                                                                     creep, size):
    for place in placements(8, Paper(paper), size, flip=Flip(flip), creep=creep,
                            offset=offset):
        t = place.transform
        if place.side == 0 or flip == "short":
            assert (t.a, t.b, t.c, t.d) == (1, 0, 0, 1)
        else:
            assert (t.a, t.b, t.c, t.d) == (-1, 0, 0, -1)


@pytest.mark.parametrize(("paper", "flip", "offset", "creep", "size"), CASES)
def test_pages_bind_at_the_spine_and_creep_moves_them_towards_it(paper, flip, offset, creep,
                                                                 size):
    """Every page's spine edge (left for odd pages, right for even) is its nearer edge to
    the fold; its centre lies a quarter sheet from the fold, less the creep of its sheet:
    nothing for the outermost sheet, all of it for the innermost, in proportion between."""
    n = 20
    sheets = n // 4
    width, height = SHEET[paper]
    w, h = size
    for place in placements(n, Paper(paper), size, flip=Flip(flip), creep=creep,
                            offset=offset):
        fold = width / 2 + (offset[0] if place.side else 0.0)
        spine_edge = place.transform.apply(0 if place.page % 2 else w, h / 2)
        fore_edge = place.transform.apply(w if place.page % 2 else 0, h / 2)
        assert abs(spine_edge[0] - fold) < abs(fore_edge[0] - fold)
        cx, cy = place.transform.apply(w / 2, h / 2)
        expected = width / 4 - creep * place.sheet / (sheets - 1)
        assert abs(cx - fold) == pytest.approx(expected, abs=EPS)
        assert cy == pytest.approx(height / 2 + (offset[1] if place.side else 0.0), abs=EPS)


@pytest.mark.parametrize(("paper", "flip", "offset", "creep", "size"), CASES)
def test_each_page_is_clipped_to_its_half_of_the_sheet(paper, flip, offset, creep, size):
    width, height = SHEET[paper]
    for place in placements(12, Paper(paper), size, flip=Flip(flip), creep=creep,
                            offset=offset):
        dx, dy = offset if place.side else (0.0, 0.0)
        clip = place.clip.transformed(place.transform)
        centre = place.transform.apply(size[0] / 2, size[1] / 2)
        left = centre[0] < width / 2 + dx
        expected = Box((0 if left else width / 2) + dx, dy, width / 2, height)
        for got, want in zip((clip.x, clip.y, clip.w, clip.h),
                             (expected.x, expected.y, expected.w, expected.h), strict=True):
            assert got == pytest.approx(want, abs=EPS)


def test_one_sheet_does_not_creep():
    plain = placements(4, Paper.A4, PAGE["a4"])
    assert placements(4, Paper.A4, PAGE["a4"], creep=3.0) == plain


# --- the imposed document -----------------------------------------------------------------


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_sheets_are_landscape_paper_with_the_books_title(paper):
    document = impose_booklet(book(6, paper), Paper(paper), blank=blank_page(paper),
                              creep=1.0)
    width, height = SHEET[paper]
    assert len(document.pages) == 4
    assert (document.title, document.subject) == ("A rule book", "The rules")
    assert [p.name for p in document.pages] == ["sheet 1 side 1", "sheet 1 side 2",
                                                "sheet 2 side 1", "sheet 2 side 2"]
    for side in document.pages:
        assert (side.width, side.height) == pytest.approx((width, height))
        assert side.trim == side.bleed == Box(0, 0, side.width, side.height)
        assert page_ink_problems(side) == []
        groups = [i for i in side.layer("pages").items if isinstance(i, Group)]
        assert len(groups) == 2 and all(g.clip is not None for g in groups)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_fold_ticks_mark_the_spine_of_each_front_inside_the_printable_area(paper):
    width, height = SHEET[paper]
    document = impose_booklet(book(8, paper), Paper(paper), offset=(2.0, 1.0))
    margin = 5.0
    for index, side in enumerate(document.pages):
        lines = [item for item, _ in walk([i for layer in side.layers for i in layer.items])
                 if isinstance(item, Line)]
        if index % 2:
            assert lines == []  # the back has none
            continue
        assert len(lines) == 2
        for line in lines:
            assert line.x1 == line.x2 == width / 2
            assert line.stroke.dash and line.stroke.color == BLACK
            for y in (line.y1, line.y2):
                assert margin - EPS <= y <= height - margin + EPS
            assert min(line.y1, line.y2) < 15 or max(line.y1, line.y2) > height - 15
    plain = impose_booklet(book(8, paper), Paper(paper), fold_marks=False)
    assert not any(isinstance(i, Line) for side in plain.pages for layer in side.layers
                   for i in layer.items)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_a_book_page_is_half_the_sheet(paper):
    assert page_size(Paper(paper)) == pytest.approx(PAGE[paper], abs=EPS)


def test_iso_a5_is_centred_on_a4():
    document = impose_booklet(book(4, size=ISO_A5), Paper.A4)
    groups = [i for i in document.pages[0].layer("pages").items if isinstance(i, Group)]
    assert [g.transform.e for g in groups] == pytest.approx([0.25, 148.75])


# --- errors -------------------------------------------------------------------------------


def test_pages_of_another_size_are_named():
    pages = book(6).pages
    pages[2] = numbered(3, size=(140.0, 210.0))
    pages[4] = numbered(5, size=(148.5, 200.0))
    with pytest.raises(CardgenError) as error:
        impose_booklet(Document(pages), Paper.A4)
    message = str(error.value)
    assert message.startswith("page 3 ('page 3') is 140 × 210 mm, unlike page 1 "
                              "(148.5 × 210 mm): every page of a booklet has the same size.")
    assert "page 5 ('page 5') is 148.5 × 200 mm" in message


@pytest.mark.parametrize(("paper", "size"), [("a4", PAGE["letter"]), ("letter", PAGE["a4"]),
                                             ("a4", (210.0, 297.0))])
def test_pages_must_be_half_the_paper(paper, size):
    with pytest.raises(CardgenError, match=r"^page 1 \('page 1'\) is .* needs pages of half "
                       r"the sheet, [\d.]+ × [\d.]+ mm\.$"):
        impose_booklet(book(3, size=size), Paper(paper))


def test_blank_pages_of_another_size_are_named():
    with pytest.raises(CardgenError, match=r"^blank page 4 \('page 4'\) is 100 × 210 mm"):
        impose_booklet(book(3), Paper.A4, blank=lambda k: numbered(k, size=(100.0, 210.0)))


@pytest.mark.parametrize("creep", [-0.1, MAX_CREEP + 0.01, 30.0, math.nan, math.inf])
def test_bad_creep_is_one_sentence(creep):
    with pytest.raises(ParameterError) as error:
        impose_booklet(book(8), Paper.A4, creep=creep)
    assert error.value.parameter == "creep"
    assert str(error.value).startswith(f"creep must be 0–{MAX_CREEP:g} mm, not ")
    assert str(error.value).count(". ") == 0 and str(error.value).endswith(".")


@pytest.mark.parametrize("offset", [(5.5, 0.0), (0.0, -6.0), (math.nan, 0.0)])
def test_bad_offset_is_refused_as_for_sheets(offset):
    with pytest.raises(ParameterError) as error:
        impose_booklet(book(8), Paper.A4, offset=offset)
    assert error.value.parameter == "offset"


# --- acceptance: the numbers read back from the imposed PDF -------------------------------


def read_sides(pdf: bytes) -> list[tuple[bool, str, str]]:
    """For each PDF page: whether its text is upside down, then the words on the left and
    on the right half as a reader holding that side upright sees them."""
    sides = []
    with pdfplumber.open(io.BytesIO(pdf)) as document:
        for page in document.pages:
            chars = page.chars
            turned = {c["matrix"][0] < 0 for c in chars}
            assert len(turned) == 1 and {c["matrix"][1] for c in chars} == {0}
            upside_down = turned.pop()
            halves: dict[bool, list[dict]] = {True: [], False: []}
            for c in chars:
                # Reading the side upright: turned half round, x runs the other way.
                x = (c["x0"] + c["x1"]) / 2
                x = page.width - x if upside_down else x
                halves[x < page.width / 2].append(c)
            words = ["".join(c["text"] for c in sorted(
                halves[left], key=lambda c: -c["x0"] if upside_down else c["x0"]))
                for left in (True, False)]
            sides.append((upside_down, words[0], words[1]))
    return sides


@pytest.mark.parametrize("flip", ["long", "short"])
@pytest.mark.parametrize("count", [1, 4, 5, 8, 11, 16])
def test_imposed_pdf_shows_the_pages_in_signature_order(count, flip):
    document = impose_booklet(book(count), Paper.A4, flip=Flip(flip), blank=blank_page())
    sides = read_sides(render(document, [Format.PDF])[".pdf"])
    n = padded_count(count)
    assert len(sides) == n // 2

    def shown(k: int) -> str:
        return str(k) if k <= count else "blank"

    for s in range(1, n // 4 + 1):
        front, back = sides[2 * s - 2], sides[2 * s - 1]
        assert front == (False, shown(n - 2 * s + 2), shown(2 * s - 1)), s
        assert back == (flip == "long", shown(2 * s), shown(n - 2 * s + 1)), s


def test_every_side_passes_the_ink_rule_with_a_full_page_tint():
    """A page with a tinted ground and fine black type keeps the ink rule on the sheet."""
    w, h = PAGE["letter"]
    page = numbered(1, size=(w, h))
    page.layers[0].items.insert(0, Rect(0, 0, w, h, fill=Color.cmyk(20, 0, 0, 0)))
    document = impose_booklet(Document([page]), Paper.LETTER, creep=2.0)
    assert all(page_ink_problems(side) == [] for side in document.pages)
