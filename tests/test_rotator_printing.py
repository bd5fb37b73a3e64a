"""Printed Rotator boards and answer keys, read back from the PDF."""

from __future__ import annotations

import io
import itertools
import math

import pdfplumber
import pytest
from PIL import Image as PILImage

from cardgen.board.cells import card_name
from cardgen.board.frame import BoardFrame
from cardgen.draw.colors import PAPER_WHITE
from cardgen.draw.geometry import Box
from cardgen.draw.page import (
    Close,
    CurveTo,
    Group,
    Line,
    LineTo,
    MoveTo,
    Path,
    Rect,
    Text,
    View,
    page_items,
)
from cardgen.games.rotator.art import (
    BOOST,
    KEY_MIN_TYPE,
    MOVES,
    NUMBER,
    Entry,
    RotatorPuzzle,
    key_events,
    printed_board,
)
from cardgen.games.rotator.board import RotatorMap
from cardgen.games.rotator.describe import turn_text
from cardgen.games.rotator.engine import Choice, Terrain, replay
from cardgen.games.rotator.solver import Solver
from cardgen.prepress.ink import page_ink_problems
from cardgen.prepress.paper import Paper
from cardgen.prepress.puzzlebook import (
    PuzzleSize,
    key_pages,
    large_pages,
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


def book(puzzles, size: PuzzleSize = PuzzleSize.CARD, keys: bool = True):
    """The puzzle book the command line prints (A4, the bundled fonts)."""
    return puzzle_book(puzzles, size=size, keys=keys, paper=Paper.A4, fonts=FONTS,
                       title="Rotator boards", subject="cardgen Rotator boards")


def pdf_pages(document):
    return pdfplumber.open(io.BytesIO(render_pdf(document)))


def board_grid(page) -> tuple[float, float, float]:
    """Left edge, top edge and cell size (mm) of the board, from its grid lines."""
    long_lines = [ln for ln in page.lines if abs(ln["x0"] - ln["x1"]) < 1e-6
                  and ln["height"] > 0]
    xs = sorted({round(ln["x0"] / PT_PER_MM, 2) for ln in long_lines})
    tops = sorted({round(ln["top"] / PT_PER_MM, 4) for ln in long_lines})
    steps = [b - a for a, b in itertools.pairwise(xs)]
    assert len(xs) == 11 and max(steps) - min(steps) < 0.02, "eleven equally spaced lines"
    return xs[0], tops[0], (xs[-1] - xs[0]) / 10


def cell_of(x_mm: float, y_mm: float, left: float, top: float, cell: float) -> tuple[int, int]:
    return (math.floor((x_mm - left) / cell), math.floor((y_mm - top) / cell))


@pytest.mark.parametrize("size", list(PuzzleSize))
def test_board_as_on_the_card(size):
    document = book([RotatorPuzzle(BOARD, "a caption")], size=size, keys=False)
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
        if size is PuzzleSize.CARD:
            assert math.isclose(cell, 4.9, abs_tol=1e-3)  # the card's own squares


@pytest.mark.slow
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
        assert {c for c in marked if c[0] < 10} == entered  # beyond: the row pointers
        orange = {cell_of((r["x0"] + r["x1"]) / 2 / PT_PER_MM,
                          (r["top"] + r["bottom"]) / 2 / PT_PER_MM, left, top, cell)
                  for r in page.rects
                  if r["non_stroking_color"] == tuple(round(v, 4) for v in
                                                      BOOST.tint(0.35).cmyk_fractions)}
        assert orange == boosted
        text = page.extract_text()
        assert f"Solution 1 {BOARD.board_id}" in text
        for report in printed.reports:
            first_words = turn_text(report, BOARD.nodes).partition(": ")[2].split(",")[0]
            assert first_words in text


def _frame_of(page):
    """The board frame of a page, recovered from grid B's group (its transform puts the
    grid's fold corner on the page; its second column line is one cell in)."""
    grid_b = next(g for layer in page.layers for g in _groups(layer.items)
                  if g.name == "grid-B")
    cell = sorted({i.x1 for i in grid_b.items if isinstance(i, Line) and i.x1 == i.x2})[1]
    return BoardFrame(grid_b.transform.e, grid_b.transform.f - 10 * cell, cell)


def _groups(items):
    for item in items:
        if isinstance(item, Group):
            yield item
            yield from _groups(item.items)


def _named(page) -> dict[str, tuple[int, Group]]:
    """Every named group of a page with its place in drawing order."""
    found = [g for layer in page.layers for g in _groups(layer.items) if g.name]
    return {g.name: (i, g) for i, g in enumerate(found)}


# R1:B2B7E9H4I8-B3B8E6F2I8's line picks A:A3 after a capture in turn 7 and falls through
# it again in turn 9, and passes A:A4 in turns 7 and 9: the cases a key used to hide.
REVISITED = RotatorMap.from_id("R1:B2B7E9H4I8-B3B8E6F2I8")


@pytest.fixture(scope="module")
def revisited() -> RotatorPuzzle:
    return solved(REVISITED)


# A hard board's best line (13 turns), recorded so the test need not search: its Node at
# A:C3 is boosted through in turn 6 and fallen through in turn 9, and B:J1 is entered in
# turns 10 and 13.
CROWDED = RotatorMap.from_id("R1:C3D7G2G9I5-B4C8F2G7I4")
CROWDED_LINE = [(None, True, 0), (None, True, 1), (None, True, 0), (None, False, 0),
                (None, True, 0), (None, True, 2), ((7, 5), False, 0), *[(None, False, 0)] * 5,
                (None, True, 2)]


@pytest.fixture(scope="module")
def crowded() -> RotatorPuzzle:
    reports = replay(Terrain.from_map(CROWDED), 0, [Choice(*c) for c in CROWDED_LINE])
    assert reports[-1].won and len(reports) == 13
    return RotatorPuzzle(CROWDED, start=0, reports=tuple(reports))


def test_every_event_of_the_line_has_a_named_unobstructed_mark(solved_board, revisited,
                                                               crowded):
    """From the model: each event of the replayed line (start, pick after a capture, fall,
    drill, boost, capture, goal) has its own mark, each square lists the turn of every
    event on it, and the turn numbers are drawn last, on white, apart from each other."""
    events = key_events(revisited.start, revisited.reports, REVISITED.nodes)
    moves = {}
    for e in events:
        if e.kind in MOVES:
            moves.setdefault(e.cell, []).append(e)
    assert any(e.kind is Entry.PICK and e.cell in moves for e in events)
    assert any(len({e.turn for e in here}) > 1 for here in moves.values())
    for puzzle in (solved_board, revisited, crowded):
        page = key_pages([puzzle], Paper.A4, FONTS)[0]
        named = _named(page)
        frame = _frame_of(page)
        events = key_events(puzzle.start, puzzle.reports, puzzle.rmap.nodes)
        assert len({e.name for e in events}) == len(events)
        marks = [named[e.name][0] for e in events]  # KeyError: an event without a mark
        labels = {}
        for cell in {e.cell for e in events}:
            turns = [e.turn for e in events if e.cell == cell and e.kind is not Entry.GOAL]
            if not turns:
                continue
            order, group = named[f"turns {card_name(cell)}"]
            backing, *lines = group.items  # a long list breaks onto more lines
            assert isinstance(backing, Rect) and backing.fill == PAPER_WHITE
            text = "".join(line.text for line in lines)
            assert [int(t) for t in text.split(",")] == list(dict.fromkeys(turns))
            assert min(line.size for line in lines) >= KEY_MIN_TYPE  # never unreadable
            assert order > max(marks)  # over every triangle and ring
            box = frame.board_cell(*cell)
            assert box.contains_box(Box(backing.x, backing.y, backing.w, backing.h))
            labels[cell] = backing
        for a, b in itertools.combinations(labels.values(), 2):  # apart from each other
            assert not Box(a.x, a.y, a.w, a.h).intersects(Box(b.x, b.y, b.w, b.h))
        # Events on a square share it: one triangle per move, side by side.
        here_moves: dict = {}
        for e in events:
            if e.kind in MOVES:
                here_moves.setdefault(e.cell, []).append(e)
        for cell, here in here_moves.items():
            if len(here) > 1:
                for e in here:
                    path = named[e.name][1].items[-1]
                    # Not white: sharing a Node's square, a triangle sticks out of its dot.
                    assert PAPER_WHITE not in (path.fill, path.stroke and path.stroke.color)
                    cx = sum(op.x for op in path.ops[:3]) / 3
                    assert frame.board_cell(*cell).x < cx < frame.board_cell(*cell).x \
                        + frame.cell


def test_triangles_point_the_way_gravity_pulled(solved_board, revisited, crowded):
    """Each move of the line is a triangle pointing along the gravity of its turn."""
    for puzzle in (solved_board, revisited, crowded):
        page = key_pages([puzzle], Paper.A4, FONTS)[0]
        named = _named(page)
        for event in key_events(puzzle.start, puzzle.reports, puzzle.rmap.nodes):
            if event.kind not in MOVES:
                continue
            path = named[event.name][1].items[-1]
            a, b, t = path.ops[:3]
            assert isinstance(a, MoveTo) and isinstance(b, LineTo) and isinstance(t, LineTo)
            assert isinstance(path.ops[3], Close)
            dx, dy = t.x - (a.x + b.x) / 2, t.y - (a.y + b.y) / 2
            length = math.hypot(dx, dy)
            assert (round(dx / length), round(dy / length)) == event.gravity


def test_marks_keep_their_distinctions_in_black_and_white(revisited):
    """Shape, not colour alone: boosted squares are hatched in black, a pick after a
    capture is a diamond, a captured Node a ring, the goal a square."""
    page = key_pages([revisited], Paper.A4, FONTS)[0]
    named = _named(page)
    frame = _frame_of(page)
    events = key_events(revisited.start, revisited.reports, REVISITED.nodes)
    lines = [i for i, _ in page_items(page) if isinstance(i, Line) and i.x1 != i.x2
             and i.y1 != i.y2]
    for e in events:
        shape = named[e.name][1].items[-1]
        if e.kind is Entry.BOOST:
            box = frame.board_cell(*e.cell)
            hatched = [ln for ln in lines if box.contains_box(
                Box((ln.x1 + ln.x2) / 2, (ln.y1 + ln.y2) / 2, 0, 0))]
            assert len(hatched) >= 2 and all(ln.stroke.color == NUMBER for ln in hatched)
        elif e.kind is Entry.PICK:
            assert isinstance(shape, Path) and len(shape.ops) == 5  # four corners
        elif e.kind is Entry.CAPTURE:
            assert isinstance(shape, Path) and any(isinstance(op, CurveTo)
                                                   for op in shape.ops)
        elif e.kind is Entry.GOAL:
            assert isinstance(shape, Rect) and shape.fill is None


@pytest.mark.parametrize("size", list(PuzzleSize))
def test_every_page_keeps_the_ink_rule(solved_board, revisited, size):
    puzzles = [solved_board, revisited, RotatorPuzzle(BOARD)]
    pages = [*(nup_pages if size is PuzzleSize.CARD else large_pages)(puzzles, Paper.A4,
                                                                       FONTS),
             *key_pages(puzzles, Paper.A4, FONTS, size),
             single_page(revisited, size, key=True, fonts=FONTS),
             single_page(revisited, size, key=False, fonts=FONTS)]
    for page in pages:
        assert page_ink_problems(page) == [], page.name


def test_players_pages_carry_the_play_aids(solved_board):
    for page in (nup_pages([solved_board], Paper.A4, FONTS)[0],
                 large_pages([solved_board], Paper.A4, FONTS)[0]):
        named = _named(page)
        frame = _frame_of(page)
        for name, row in (("start row", 0), ("goal row", 19)):
            (pointer_path,) = named[name][1].items
            ys = [op.y for op in pointer_path.ops if isinstance(op, (MoveTo, LineTo))]
            assert frame.y + row * frame.cell < sum(ys) / len(ys) < frame.y + (row + 1) \
                * frame.cell
        tally = named["boost tally"][1].items
        assert len(tally) == 10 and all(r.fill == PAPER_WHITE for r in tally)
        tracker = named["turn tracker"][1]
        texts = [t.text for t in tracker.items if isinstance(t, Text)]
        assert [t for t in texts if t in "↓→↑←"] == ["↓", "→", "↑", "←"]
        assert any("t + 3" in t for t in texts)
        board_bottom = frame.y + 20 * frame.cell
        assert min(t.y for t in tracker.items if isinstance(t, Text)) > board_bottom
        assert max(t.y for t in tracker.items if isinstance(t, Text)) < page.height - 10
    # On a key the tally shows the boost spaces the line spends.
    key = _named(key_pages([solved_board], Paper.A4, FONTS)[0])
    filled = [r for r in key["boost tally"][1].items if r.fill != PAPER_WHITE]
    assert len(filled) == solved_board.boosts > 0


def test_single_board_page_for_svg_and_png(solved_board):
    page = single_page(solved_board, PuzzleSize.CARD, key=True, fonts=FONTS)
    view = View("board", page, tuple(page.layers))
    image = rasterize(view, 100)
    assert image.size[0] < image.size[1] * 1.2  # a tall board, its table beside it
    assert page.width > 80  # with the solution's table beside the board
    assert single_page(solved_board, PuzzleSize.CARD, key=False, fonts=FONTS).width < 80
    # render_png gives the same picture encoded as PNG.
    with PILImage.open(io.BytesIO(render_png(view, 100))) as png:
        assert png.format == "PNG" and png.size == image.size
