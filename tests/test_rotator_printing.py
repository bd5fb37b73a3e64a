"""Printed Rotator boards and answer keys, read back from the PDF."""

from __future__ import annotations

import io
import itertools
import math

import pdfplumber
import pytest
from PIL import Image as PILImage

from cardgen.draw.page import Close, LineTo, MoveTo, View
from cardgen.games.rotator.art import BOOST, RotatorPuzzle, printed_board
from cardgen.games.rotator.board import RotatorMap
from cardgen.games.rotator.describe import turn_text
from cardgen.games.rotator.engine import Terrain, replay
from cardgen.games.rotator.solver import Solver
from cardgen.prepress.paper import Paper
from cardgen.prepress.puzzlebook import (
    BookLayout,
    PuzzleSize,
    key_pages,
    nup_pages,
    puzzle_book,
    single_page,
)
from cardgen.render.pdf import render_pdf
from cardgen.render.png import rasterize, render_png
from cardgen.text.fonts import bundled_fonts
from cardgen.units import PT_PER_MM

BOARD = RotatorMap.from_id("R1:B2B8E4I2I8-B4E2E8H4I9")
FONTS = bundled_fonts()


def solved(rmap: RotatorMap) -> RotatorPuzzle:
    best = Solver(Terrain.from_map(rmap)).best_line()
    puzzle = printed_board(rmap, best, f"{best.turns} turns")
    # printed_board replays the line: the puzzle the key is drawn from.
    reports = replay(Terrain.from_map(rmap), best.start, best.choices)
    assert puzzle == RotatorPuzzle(rmap, f"{best.turns} turns", best.start, tuple(reports))
    return puzzle


@pytest.fixture(scope="module")
def solved_board() -> RotatorPuzzle:
    return solved(BOARD)


def book(puzzles, layout: BookLayout = BookLayout.NUP, keys: bool = True):
    """The puzzle book the command line prints (A4, the bundled fonts)."""
    return puzzle_book(puzzles, layout=layout, keys=keys, paper=Paper.A4, fonts=FONTS,
                       title="Rotator boards", subject="cardgen Rotator boards")


def pdf_pages(document):
    return pdfplumber.open(io.BytesIO(render_pdf(document)))


def board_grid(page) -> tuple[float, float, float]:
    """Left edge, top edge and cell size (mm) of the board, from its grid lines."""
    long_lines = [ln for ln in page.lines if abs(ln["x0"] - ln["x1"]) < 1e-6
                  and ln["height"] > 0]
    xs = sorted({round(ln["x0"] / PT_PER_MM, 4) for ln in long_lines})
    tops = sorted({round(ln["top"] / PT_PER_MM, 4) for ln in long_lines})
    steps = {round(b - a, 3) for a, b in itertools.pairwise(xs)}
    assert len(xs) == 11 and len(steps) == 1, "eleven equally spaced column lines"
    return xs[0], tops[0], steps.pop()


def cell_of(x_mm: float, y_mm: float, left: float, top: float, cell: float) -> tuple[int, int]:
    return (math.floor((x_mm - left) / cell), math.floor((y_mm - top) / cell))


@pytest.mark.parametrize("layout", [BookLayout.LARGE, BookLayout.NUP])
def test_board_as_on_the_card(layout):
    document = book([RotatorPuzzle(BOARD, "a caption")], layout=layout, keys=False)
    with pdf_pages(document) as pdf:
        page = pdf.pages[0]
        left, top, cell = board_grid(page)
        shaded = {cell_of((r["x0"] + r["x1"]) / 2 / PT_PER_MM, (r["top"] + r["bottom"]) / 2
                          / PT_PER_MM, left, top, cell)
                  for r in page.rects if r["non_stroking_color"] == (0.0, 0.0, 0.0, 0.22)}
        assert shaded == set(BOARD.solid)
        dots = {cell_of((c["x0"] + c["x1"]) / 2 / PT_PER_MM, (c["top"] + c["bottom"]) / 2
                        / PT_PER_MM, left, top, cell)
                for c in page.curves if c["non_stroking_color"] == (0.0, 0.0, 0.0, 1.0)}
        assert dots == set(BOARD.nodes)
        # Grid A's labels read upside down above the board, grid B's upright below it.
        letters = [ch for ch in page.chars if ch["text"] == "A"]
        upside = [ch for ch in letters if ch["matrix"][0] < 0]
        upright = [ch for ch in letters if ch["matrix"][0] > 0]
        assert upside and upright
        assert all(ch["bottom"] / PT_PER_MM < top for ch in upside)
        assert all(ch["top"] / PT_PER_MM > top + 20 * cell for ch in upright)
        words = page.extract_text()
        assert BOARD.board_id in words and "a caption" in words
        if layout is BookLayout.NUP:
            assert math.isclose(cell, 4.9, abs_tol=1e-3)  # the card's own squares


def test_nup_puts_several_boards_on_a_page_with_their_ids():
    boards = [RotatorPuzzle(BOARD, f"board {i}") for i in range(7)]
    pages = nup_pages(boards, Paper.A4, FONTS)
    assert len(pages) == 2
    with pdf_pages(book(boards, keys=False)) as pdf:
        first = pdf.pages[0].extract_text()
        per_page = first.count(BOARD.board_id)
        assert per_page >= 4 and per_page + pdf.pages[1].extract_text().count(
            BOARD.board_id) == 7
        assert "board 0" in first


def test_answer_key_draws_the_line_and_tells_it(solved_board):
    printed = solved_board
    entered = {(printed.start, 0)}
    boosted = set()
    for r in printed.reports:
        entered |= set(r.fall) | set(r.fall_after) | set(r.boosted)
        if r.drill:
            entered.add(r.drill)
        boosted |= set(r.boosted)
    with pdf_pages(book([printed], keys=True)) as pdf:
        page = pdf.pages[-1]
        left, top, cell = board_grid(page)
        triangles = [c for c in page.curves if len(c["pts"]) == 4]
        marked = {cell_of(sum(p[0] for p in t["pts"][:3]) / 3 / PT_PER_MM,
                          sum(p[1] for p in t["pts"][:3]) / 3 / PT_PER_MM, left, top, cell)
                  for t in triangles}
        assert marked == entered
        orange = {cell_of((r["x0"] + r["x1"]) / 2 / PT_PER_MM,
                          (r["top"] + r["bottom"]) / 2 / PT_PER_MM, left, top, cell)
                  for r in page.rects
                  if r["non_stroking_color"] == tuple(round(v, 4) for v in
                                                      BOOST.tint(0.35).cmyk_fractions)}
        assert orange == boosted
        text = page.extract_text()
        assert f"Answer key · {BOARD.board_id}" in text
        for report in printed.reports:
            first_words = turn_text(report, BOARD.nodes).split(",")[0]
            assert first_words in text


def _frame_of(page):
    """The board frame of a page, recovered from grid B's group (its transform puts the
    grid's fold corner on the page; its second column line is one cell in)."""
    from cardgen.board.frame import BoardFrame
    from cardgen.draw.page import Group, Line

    def groups(items):
        for item in items:
            if isinstance(item, Group):
                yield item
                yield from groups(item.items)

    grid_b = next(g for layer in page.layers for g in groups(layer.items) if g.name == "grid-B")
    cell = sorted({i.x1 for i in grid_b.items if isinstance(i, Line) and i.x1 == i.x2})[1]
    return BoardFrame(grid_b.transform.e, grid_b.transform.f - 10 * cell, cell)


def test_triangles_point_the_way_gravity_pulled(solved_board):
    """Each entered cell carries one triangle, pointing along the gravity of the turn in
    which the player first entered it."""
    from cardgen.draw.page import Path, page_items

    printed = solved_board
    first_entry = {(printed.start, 0): (0, 1)}
    for r in printed.reports:
        for cell in [*r.fall, *([r.drill] if r.drill else []), *r.boosted, *r.fall_after]:
            first_entry.setdefault(cell, r.gravity)
    page = key_pages([printed], Paper.A4, FONTS)[0]
    frame = _frame_of(page)
    pointing = {}
    for item, _ in page_items(page):
        if isinstance(item, Path) and len(item.ops) == 4 and isinstance(item.ops[3], Close):
            a, b, t = item.ops[:3]
            assert isinstance(a, MoveTo) and isinstance(b, LineTo) and isinstance(t, LineTo)
            (ax, ay), (bx, by), (tx, ty) = (a.x, a.y), (b.x, b.y), (t.x, t.y)
            cx, cy = (ax + bx + tx) / 3, (ay + by + ty) / 3
            cell = (math.floor((cx - frame.x) / frame.cell), math.floor((cy - frame.y)
                                                                        / frame.cell))
            dx, dy = tx - (ax + bx) / 2, ty - (ay + by) / 2
            length = math.hypot(dx, dy)
            assert cell not in pointing
            pointing[cell] = (round(dx / length), round(dy / length))
    assert pointing == first_entry


def test_single_board_page_for_svg_and_png(solved_board):
    page = single_page(solved_board, PuzzleSize.CARD, key=True, fonts=FONTS)
    view = View("board", page, tuple(page.layers))
    image = rasterize(view, 100)
    assert image.size[0] < image.size[1]  # a tall board
    assert page.width < 80
    # render_png gives the same picture encoded as PNG.
    with PILImage.open(io.BytesIO(render_png(view, 100))) as png:
        assert png.format == "PNG" and png.size == image.size
