"""Print production is generic (cardgen.prepress): marks around any trimmed piece, duplex
imposition of any two-sided piece, puzzle books of any puzzle. Tested here with a plain
folded leaflet and a dummy puzzle, not with the card or Rotator."""

from __future__ import annotations

import math
from dataclasses import dataclass

import pytest

from cardgen.draw.colors import Color
from cardgen.draw.geometry import Affine, Box
from cardgen.draw.page import Group, Item, Line, Page, Rect, Text, page_texts, walk
from cardgen.errors import ParameterError
from cardgen.prepress.impose import (
    INFO_BAND,
    MARK_ROOM,
    MAX_OFFSET,
    Duplex,
    Flip,
    Piece,
    impose,
    plan_sheet,
)
from cardgen.prepress.marks import OFFICE, PRINT_SHOP, crop_marks, fold_marks, mark_lines
from cardgen.prepress.paper import Paper
from cardgen.prepress.puzzlebook import (
    STYLE,
    PuzzleSize,
    key_pages,
    large_pages,
    nup_pages,
    puzzle_book,
    single_page,
)
from cardgen.text.fit import line_height
from cardgen.text.fonts import FontSet, bundled_fonts

FONTS = bundled_fonts()
GREY = Color.cmyk(0, 0, 0, 40)

# A 60 × 40 mm leaflet folded down the middle, 2 mm bleed, printed with 2 mm of slug.
TRIM = Box(2, 2, 60, 40)
BLEED = TRIM.inset(-2)
FOLD = ((32.0, 2.0), (32.0, 42.0))
LEAFLET = Piece(TRIM, BLEED, Affine.mirror_x(32), ([FOLD], [FOLD]), "a 60 × 40 mm leaflet")


def _outside(p, box: Box, bleed: float) -> float:
    """How far outside ``box`` a point lies (Chebyshev distance; 0 inside)."""
    return max(box.x - p[0], p[0] - box.right, box.y - p[1], p[1] - box.bottom, 0)


@pytest.mark.parametrize("style", [PRINT_SHOP, OFFICE])
def test_crop_marks_continue_the_trim_lines_outside_the_bleed(style):
    marks = crop_marks(TRIM, 2, style)
    assert len(marks) == 8
    for p1, p2 in marks:
        assert math.dist(p1, p2) == pytest.approx(style.length)
        for p in (p1, p2):
            assert _outside(p, TRIM, 2) >= 2 + style.gap - 1e-9  # never on the bleed
        on_edge_line = any(abs(p1[i] - v) < 1e-9 and abs(p2[i] - v) < 1e-9
                           for i, v in ((0, TRIM.x), (0, TRIM.right), (1, TRIM.y),
                                        (1, TRIM.bottom)))
        assert on_edge_line


def test_fold_marks_continue_each_fold_from_the_ends_on_the_trim():
    inner_hinge = ((20.0, 2.0), (20.0, 20.0))  # from the top edge to the middle
    marks = fold_marks(TRIM, 2, [FOLD, inner_hinge], PRINT_SHOP)
    assert marks == [((32.0, -1.0), (32.0, -5.0)), ((32.0, 45.0), (32.0, 49.0)),
                     ((20.0, -1.0), (20.0, -5.0))]
    diagonal = ((2.0, 2.0), (62.0, 42.0))  # corner to corner
    (a, b), (c, d) = fold_marks(TRIM, 2, [diagonal], OFFICE)
    assert math.dist(a, b) == pytest.approx(3) and math.dist(c, d) == pytest.approx(3)
    slope = (b[1] - a[1]) / (b[0] - a[0])
    assert slope == pytest.approx(40 / 60)  # the line continues, outward
    assert b[0] < a[0] < 2 and d[0] > c[0] > 62
    lines = mark_lines(TRIM, 2, [FOLD], OFFICE)
    assert [line.stroke for line in lines] == [OFFICE.crop] * 8 + [OFFICE.fold] * 2


def test_duplex_checks_its_parameters_without_naming_any_user_interface():
    with pytest.raises(ParameterError, match=r"^margin must be 0–30 mm, not 40\.$") as info:
        Duplex(Paper.A4, margin=40)
    assert info.value.parameter == "margin" and info.value.problem == "must be 0–30 mm, not 40."
    with pytest.raises(ParameterError, match=r"^offset 25,0 is implausible"):
        Duplex(Paper.A4, offset=(25, 0))


@pytest.mark.parametrize("paper", list(Paper))
@pytest.mark.parametrize("flip", list(Flip))
def test_each_side_two_lands_behind_its_side_one(paper, flip):
    # (A 4 mm margin: at 5 mm, four turned leaflets fill A4's printable width exactly.)
    duplex = Duplex(paper, flip, offset=(0.4, -0.7), margin=4)
    layout = plan_sheet(LEAFLET, duplex)
    slot = (BLEED.w + 2 * MARK_ROOM, BLEED.h + 2 * MARK_ROOM)
    width, height = paper.size
    assert layout.count == max(
        int((width - 8) // a) * int((height - 8 - INFO_BAND) // b)
        for a, b in (slot, slot[::-1]))
    samples = [TRIM.corners()[0], TRIM.center, (10.0, 37.5)]
    for front in layout.fronts:
        back = layout.back_placement(front, LEAFLET)
        assert back.a * back.d - back.b * back.c == pytest.approx(1)  # never mirrored
        for p in samples:
            behind = duplex.to_back().apply(*front.apply(*p))
            assert back.apply(*LEAFLET.turn.apply(*p)) == pytest.approx(behind)


def test_impose_places_every_piece_with_its_marks():
    side = Page("one", 64, 44, TRIM, BLEED)
    side.layer("art").add(Rect(0, 0, 64, 44, fill=GREY))
    layout = plan_sheet(LEAFLET, Duplex(Paper.A4))
    doc = impose(side, side, LEAFLET, layout, marks=True, fonts=FONTS,
                 names=("fronts", "backs"), pieces="leaflets", title="Leaflets")
    assert [p.name for p in doc.pages] == ["fronts", "backs"]
    for page in doc.pages:
        cards = page.layer("cards").items
        groups = [i for i in cards if isinstance(i, Group)]
        assert len(groups) == layout.count and all(g.clip == BLEED for g in groups)
        assert sum(isinstance(i, Line) for i in cards) == layout.count * (8 + 2)
        caption = " ".join(t.text for t, _ in page_texts(page))
        assert f"{layout.count} leaflets on A4" in caption and "10 mm" in caption
    bare = impose(side, side, LEAFLET, layout, marks=False, fonts=FONTS,
                  names=("a", "b"), pieces="leaflets", title="x")
    assert not any(isinstance(i, Line) for i in bare.pages[0].layer("cards").items)


def test_a_full_sheet_has_no_room_for_an_offset_across():
    """Four turned leaflets (50 mm slots) fill A4's 200 mm printable width exactly: side
    2 cannot move across at all without printing into the margin, so any offset across
    is refused, naming the room; down there is room up to the largest offset."""
    layout = plan_sheet(LEAFLET, Duplex(Paper.A4))
    assert (layout.rotated, layout.columns) == (True, 4)
    (left, right), (up, down) = layout.offset_room
    assert (left, right) == pytest.approx((0, 0), abs=1e-9)
    assert up <= -MAX_OFFSET and down >= MAX_OFFSET
    plan_sheet(LEAFLET, Duplex(Paper.A4, offset=(0, -MAX_OFFSET)))
    for dx in (0.05, -0.05):
        with pytest.raises(ParameterError, match=r"^offset .* would push side 2 into the 5 mm "
                           r"margin .*: on this sheet side 2 can move 0 to 0 mm across and -5 "
                           r"to 5 mm down") as info:
            plan_sheet(LEAFLET, Duplex(Paper.A4, offset=(dx, 0)))
        assert info.value.parameter == "offset" and "--" not in str(info.value)


def test_cut_marks_ticks_and_fold_marks_of_a_slit_piece():
    """A slit from the left edge to the middle (like a card's tab cut): a solid cut mark
    continues it outward; a fold that does not reach the trim gets no mark; with
    ``cut_ends``, the office style ticks the slit's last 3 mm on the piece, over a white
    casing; the print-shop style never does."""
    slit = ((2.0, 22.0), (20.0, 22.0))
    inner_fold = ((20.0, 22.0), (44.0, 22.0))  # from the slit's end, stopping inside
    hinge = ((20.0, 2.0), (20.0, 22.0))
    lines = mark_lines(TRIM, 2, [inner_fold, hinge], OFFICE, cuts=[slit], cut_ends=True)
    segments = [((ln.x1, ln.y1), (ln.x2, ln.y2)) for ln in lines]
    assert [ln.stroke for ln in lines] == [OFFICE.crop] * 9 + [OFFICE.fold] + [
        lines[-2].stroke, OFFICE.crop]
    assert segments[8] == ((0.0, 22.0), (-3.0, 22.0))  # the cut mark, from the bleed out
    assert segments[9] == ((20.0, 0.0), (20.0, -3.0))  # the hinge's fold mark
    assert segments[10] == segments[11] == ((17.0, 22.0), (20.0, 22.0))  # the tick
    casing = lines[-2].stroke
    assert casing.color.cmyk_fractions == (0, 0, 0, 0) and not casing.dash
    assert casing.width == pytest.approx(OFFICE.crop.width + 0.3)
    assert OFFICE.crop.dash == () and OFFICE.fold.dash and PRINT_SHOP.fold.dash
    shop = mark_lines(TRIM, 2, [inner_fold, hinge], PRINT_SHOP, cuts=[slit], cut_ends=True)
    assert len(shop) == 8 + 1 + 1  # no tick in a print shop's file
    assert len(mark_lines(TRIM, 2, [], OFFICE, cuts=[slit])) == 9  # ticks only if asked


@dataclass(frozen=True)
class Tile:
    """A dummy puzzle: a grey w × h-unit block."""

    ident: str
    caption: str = "tiny"
    key_caption: str = "solved"
    card_unit: float = 5.0
    large_unit: float = 8.0
    scale_extent: tuple[float, float] = (10.5, 14.5)

    def print_size(self, unit: float) -> tuple[float, float]:
        return 10 * unit, 14 * unit

    def draw(self, x: float, y: float, unit: float, fonts: FontSet, *,
             key: bool) -> list[Item]:
        w, h = self.print_size(unit)
        return [Rect(x, y, w, h, fill=GREY if not key else Color.cmyk(0, 0, 0, 80))]

    def key_table(self) -> list[tuple[str, str]]:
        return [(str(i), "move on.") for i in range(1, 6)]

    def key_legend(self) -> str:
        return "Legend."

    def aids_height(self, width: float, fonts: FontSet) -> float:
        return 0.0

    def aids(self, x: float, y: float, width: float, fonts: FontSet) -> list[Item]:
        return []


TILES = [Tile(f"T{i}") for i in range(11)]


def _blocks(page: Page) -> list[Rect]:
    return [i for i, _ in walk(page.layers[0].items) if isinstance(i, Rect)]


def test_nup_pages_fill_each_page_with_numbered_puzzles_inside_the_margins():
    pages = nup_pages(TILES, Paper.A4, FONTS)
    w, h = 50, 70
    caption = (STYLE.caption_gap + line_height(STYLE.nup_caption_size)
               + line_height(STYLE.id_size) + STYLE.nup_caption_after)
    cols = int((210 - 20 + STYLE.column_gap) // (w + STYLE.column_gap))
    rows = int((297 - 20 + STYLE.row_gap) // (h + caption + STYLE.row_gap))
    per_page = cols * rows
    assert per_page == 9
    assert [len(_blocks(p)) for p in pages] == [9, 2]
    for page in pages:
        for block in _blocks(page):
            assert Box(10, 10, 190, 277).contains_box(Box(block.x, block.y, block.w, block.h))
    texts = [t.text for page in pages for t, _ in page_texts(page)]
    assert [t for t in texts if t.startswith("Puzzle")] == [
        f"Puzzle {i} · tiny" for i in range(1, 12)]
    assert [t for t in texts if t.startswith("T")] == [f"T{i}" for i in range(11)]


def test_large_pages_fit_the_page_and_solutions_share_pages():
    [large] = large_pages(TILES[:1], Paper.LETTER, FONTS)
    [block] = _blocks(large)
    assert block.w / 10 == pytest.approx(min(195.9 / 10.5, (259.4 - 2 - line_height(
        STYLE.large_caption_size) - line_height(STYLE.id_size) - 2) / 14.5))
    assert block.x == pytest.approx((215.9 - block.w) / 2)
    keys = key_pages(TILES, Paper.A4, FONTS)
    assert [len(_blocks(p)) for p in keys] == [6, 5]  # 2 × 3 solutions to a page
    texts = [t for t, _ in page_texts(keys[0])]
    assert texts[0].text == "Solutions"
    assert [t.text for t in texts if t.text.startswith("Solution ")] == [
        f"Solution {i}" for i in range(1, 7)]
    steps = [t for t in texts if t.text == "move on."]
    first = _blocks(keys[0])[0]
    assert len(steps) == 30 and all(t.x > first.x + first.w for t in steps[:5])
    assert texts[-1].text == "Legend." and texts[-1].size == STYLE.key_legend_size
    assert [t.text for t in texts].count("Legend.") == 1  # once per page
    assert [len(_blocks(p)) for p in key_pages(TILES, Paper.A4, FONTS,
                                               PuzzleSize.LARGE)] == [2] * 5 + [1]


def test_a_book_is_the_puzzles_then_their_keys_and_a_single_page_fits_one():
    book = puzzle_book(TILES[:2], size=PuzzleSize.LARGE, keys=True, paper=Paper.A4,
                       fonts=FONTS, title="Tiles", subject="tests")
    assert [p.name for p in book.pages] == ["board-1", "board-2", "key-1"]
    page = single_page(TILES[0], PuzzleSize.CARD, key=False, fonts=FONTS)
    assert page.width == pytest.approx(50 + 2 * STYLE.single_margin)
    assert isinstance(page.layers[0].items[-1], Text)
