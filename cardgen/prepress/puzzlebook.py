"""Puzzle books: numbered puzzles N to a page (or one large per page) with the game's
play aids at the foot, then their numbered solutions several to a page.

Generic printing in the manner of Simon Tatham's puzzle collection: the book asks each
puzzle only for its size at a scale, its drawing, its solution as a compact table and its
play aids (:class:`Puzzle`); where the puzzles go on the paper, their numbers and
captions, and the solutions pages (a newspaper's answers page: board and table side by
side, the legend once per page) are decided here, the same for every game. Every
distance is a field of :class:`PuzzleBookStyle`.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from cardgen.draw.colors import INK, KNOCKOUT_INK
from cardgen.draw.geometry import Box
from cardgen.draw.page import Anchor, Document, Item, Page, Text
from cardgen.errors import FitError
from cardgen.prepress.ink import FINE_TYPE
from cardgen.prepress.intents import paper_intent
from cardgen.prepress.paper import Paper
from cardgen.text.fit import line_height, wrap
from cardgen.text.flow import Paragraph, flow
from cardgen.text.flowable import Baseline, Lines, fill
from cardgen.text.fonts import FontSet
from cardgen.texts import say

CAPTION_LINES = 2  # the puzzle's number (and caption), then its ID in small type


class PuzzleSize(enum.StrEnum):
    """How large the puzzles print; it decides the book's layout too."""

    CARD = "card"  # as on the card, as many to a page as fit
    LARGE = "large"  # one puzzle per page, as large as the page allows


@runtime_checkable
class Puzzle(Protocol):
    """What a puzzle book needs of one puzzle."""

    @property
    def ident(self) -> str:
        """The puzzle's ID, printed under it."""

    @property
    def caption(self) -> str:
        """Under the puzzle on the players' pages: nothing that gives it away."""

    @property
    def key_caption(self) -> str:
        """Under the puzzle on its answer key."""

    @property
    def card_unit(self) -> float:
        """The scale at which it is drawn as on the card."""

    @property
    def large_unit(self) -> float:
        """The scale of a large puzzle on a page of its own size."""

    @property
    def scale_extent(self) -> tuple[float, float]:
        """Width and height in units (with some slack) for fitting it to an area."""

    def print_size(self, unit: float) -> tuple[float, float]:
        """Width and height (mm) of the drawing at ``unit``."""

    def draw(self, x: float, y: float, unit: float, fonts: FontSet, *,
             key: bool) -> list[Item]:
        """The drawing with its top-left corner at (x, y); with ``key``, the solution on
        it."""

    def key_table(self) -> list[tuple[str, str]]:
        """The solution as a compact table: (a short marker such as a step number, what
        happens) per row."""

    def key_legend(self) -> str:
        """The legend of the key's marks, printed once per solutions page."""

    def aids_height(self, width: float, fonts: FontSet) -> float:
        """Height (mm) of the play aids at the foot of a players' page (0: none)."""

    def aids(self, x: float, y: float, width: float, fonts: FontSet) -> list[Item]:
        """The play aids (the same for every puzzle of the game) with their top-left
        corner at (x, y)."""


@dataclass(frozen=True)
class PuzzleBookStyle:
    """Every distance (mm) and type size (pt) of a puzzle book's pages."""

    margin: float = 10.0  # around every page
    column_gap: float = 5.0  # the least gap between puzzles side by side (N-up)
    row_gap: float = 4.0  # between a caption and the puzzle below it (N-up)
    caption_gap: float = 2.0  # from a puzzle to its caption
    nup_caption_size: float = 7.0
    nup_caption_after: float = 3.0  # room kept under an N-up caption
    large_caption_size: float = 10.0
    large_caption_after: float = 2.0
    id_size: float = 6.0  # the puzzle's ID, in small type under its number
    aids_gap: float = 4.0  # above the play aids at the foot of a players' page
    single_margin: float = 4.0  # around a puzzle on a page of its own size
    single_table_width: float = 62.0  # the solution's table beside a single key
    key_title_size: float = 11.0  # "Solutions" at the head of each solutions page
    key_title_after: float = 3.0
    key_columns: tuple[int, int] = (2, 1)  # solutions across a page: card size, large
    key_rows: tuple[int, int] = (3, 2)  # solutions down a page: card size, large
    key_board_share: tuple[float, float] = (0.5, 0.45)  # of a solution's width
    key_gap: float = 5.0  # between solutions, and from a board to its table
    key_heading_size: float = 8.0  # "Solution n"
    key_caption_size: float = 6.5  # the solution's figures, first in its table
    key_table_sizes: tuple[float, ...] = (6.5, 6.0, 5.5)  # the table, smaller if need be
    key_marker_width: float = 5.5  # the turn column of the table
    key_row_gap: float = 0.4
    key_legend_gap: float = 3.0
    key_legend_size: float = 6.5


STYLE = PuzzleBookStyle()


def caption_items(x: float, y: float, width: float, lines: Sequence[str], fonts: FontSet,
                  size: float, align: Anchor = Anchor.MIDDLE, small: float | None = None,
                  ) -> list[Item]:
    """Lines under a puzzle from ``y`` down, aligned by ``align`` in ``width`` from ``x``:
    the first bold at ``size``, the rest regular at ``small`` (default ``size``); type
    under 8 pt in solid black. Each line is a flowable on the cap rule set by the one
    frame filler, line box under line box (``baselines=False``)."""
    flowables = []
    for i, text in enumerate(lines):
        face = fonts.bold if i == 0 else fonts.regular
        pt = size if i == 0 or small is None else small
        # fine type in INK (overprinting), larger type in KNOCKOUT_INK
        flowables.append(Lines((((text, face),),), pt, INK if pt < FINE_TYPE else KNOCKOUT_INK,
                               baseline=Baseline.CAP, align=align))
    filled = fill(flowables, iter([Box(x, y, width, math.inf)]), width=width,
                  where="a caption", baselines=False)
    return [item for part in filled.placed
            for item in part.flowable.draw(part.x, part.y, width)]


def numbered(number: int | None, caption: str, key: bool) -> str:
    """"Puzzle 3 · medium" (or "Solution 3 · …"); without a number, the caption alone."""
    if number is None:
        return caption
    head = (say("puzzlebook", "solution", number=number) if key
            else say("puzzlebook", "puzzle", number=number))
    return f"{head} · {caption}" if caption else head


def puzzle_with_caption(puzzle: Puzzle, x: float, y: float, unit: float, fonts: FontSet,
                        caption_size: float, key: bool, style: PuzzleBookStyle = STYLE,
                        number: int | None = None) -> list[Item]:
    """The puzzle at (x, y) with its number and caption, then its ID in small type,
    centred under it."""
    items = puzzle.draw(x, y, unit, fonts, key=key)
    w, h = puzzle.print_size(unit)
    caption = numbered(number, puzzle.key_caption if key else puzzle.caption, key)
    lines = [caption, puzzle.ident] if caption else [puzzle.ident]
    items += caption_items(x, y + h + style.caption_gap, w, lines, fonts, caption_size,
                           small=min(style.id_size, caption_size))
    return items


def _page(name: str, width: float, height: float) -> Page:
    paper = Box(0, 0, width, height)
    return Page(name, width, height, paper, paper)


def _aids(puzzle: Puzzle, page: Page, paper: Paper, fonts: FontSet, style: PuzzleBookStyle,
          ) -> None:
    """The game's play aids at the foot of a players' page."""
    pw, ph = paper.size
    width = pw - 2 * style.margin
    height = puzzle.aids_height(width, fonts)
    if height > 0:
        page.layer("aids").add(*puzzle.aids(style.margin, ph - style.margin - height, width,
                                            fonts))


def _aids_room(puzzle: Puzzle, paper: Paper, fonts: FontSet, style: PuzzleBookStyle) -> float:
    height = puzzle.aids_height(paper.size[0] - 2 * style.margin, fonts)
    return height + style.aids_gap if height > 0 else 0.0


def nup_pages(puzzles: Sequence[Puzzle], paper: Paper, fonts: FontSet,
              style: PuzzleBookStyle = STYLE) -> list[Page]:
    """Card-sized puzzles, as many per page as fit, each numbered and captioned, the play
    aids at the foot of each page."""
    if not puzzles:
        return []
    pw, ph = paper.size
    m = style.margin
    unit = puzzles[0].card_unit
    w, h = (max(size) for size in zip(*(p.print_size(p.card_unit) for p in puzzles),
                                      strict=True))
    caption = (style.caption_gap + line_height(style.nup_caption_size)
               + (CAPTION_LINES - 1) * line_height(min(style.id_size, style.nup_caption_size))
               + style.nup_caption_after)
    room = ph - 2 * m - _aids_room(puzzles[0], paper, fonts, style)
    cols = max(1, int((pw - 2 * m + style.column_gap) // (w + style.column_gap)))
    rows = max(1, int((room + style.row_gap) // (h + caption + style.row_gap)))
    gap_x = (pw - 2 * m - cols * w) / max(cols - 1, 1)
    pages = []
    per_page = cols * rows
    for p in range(0, len(puzzles), per_page):
        page = _page(f"boards-{p // per_page + 1}", pw, ph)
        layer = page.layer("boards")
        for i, puzzle in enumerate(puzzles[p:p + per_page]):
            c, r = i % cols, i // cols
            x = m + c * (w + gap_x)
            y = m + r * (h + caption + style.row_gap)
            layer.add(*puzzle_with_caption(puzzle, x, y, unit, fonts, style.nup_caption_size,
                                           key=False, style=style, number=p + i + 1))
        _aids(puzzles[p], page, paper, fonts, style)
        pages.append(page)
    return pages


def fit_unit(puzzle: Puzzle, width: float, height: float) -> float:
    """The largest scale at which the puzzle fits ``width`` × ``height``."""
    ew, eh = puzzle.scale_extent
    return min(width / ew, height / eh)


def large_pages(puzzles: Sequence[Puzzle], paper: Paper, fonts: FontSet,
                style: PuzzleBookStyle = STYLE) -> list[Page]:
    """One puzzle per page, as large as the page allows above the play aids."""
    pw, ph = paper.size
    m = style.margin
    caption = (style.caption_gap + line_height(style.large_caption_size)
               + (CAPTION_LINES - 1) * line_height(style.id_size) + style.large_caption_after)
    pages = []
    for i, puzzle in enumerate(puzzles):
        unit = fit_unit(puzzle, pw - 2 * m,
                        ph - 2 * m - caption - _aids_room(puzzle, paper, fonts, style))
        w = puzzle.print_size(unit)[0]
        page = _page(f"board-{i + 1}", pw, ph)
        page.layer("board").add(*puzzle_with_caption(
            puzzle, (pw - w) / 2, m, unit, fonts, style.large_caption_size, key=False,
            style=style, number=i + 1))
        _aids(puzzle, page, paper, fonts, style)
        pages.append(page)
    return pages


def _table(puzzle: Puzzle, fonts: FontSet, size: float, style: PuzzleBookStyle,
           ) -> list[Paragraph]:
    """The solution's figures, then its table: each row's marker in a narrow column."""
    paragraphs = []
    if puzzle.key_caption:
        paragraphs.append(Paragraph(puzzle.key_caption, fonts.bold, style.key_caption_size,
                                    INK, space_after=style.key_row_gap * 2))
    for marker, text in puzzle.key_table():
        paragraphs.append(Paragraph(text, fonts.regular, size, INK, marker=marker,
                                    indent=style.key_marker_width if marker else 0.0,
                                    space_after=style.key_row_gap))
    return paragraphs


def table_items(puzzle: Puzzle, box: Box, fonts: FontSet, style: PuzzleBookStyle = STYLE,
                ) -> list[Item]:
    """The solution's table set in ``box``, in the largest of the table sizes that
    fits."""
    failure: FitError | None = None
    for size in style.key_table_sizes:
        try:
            placed = flow(_table(puzzle, fonts, size, style), [box],
                          where=f"the solution of {puzzle.ident}")
        except FitError as error:
            failure = error
            continue
        return [line for lines in placed for line in lines]
    assert failure is not None
    raise failure


def table_height(puzzle: Puzzle, width: float, fonts: FontSet,
                 style: PuzzleBookStyle = STYLE) -> float:
    """How tall the solution's table is at ``width`` in its largest size."""
    items = table_items(puzzle, Box(0, 0, width, 10_000.0), fonts, style)
    size = style.key_table_sizes[0]
    return max((t.y for t in items if isinstance(t, Text)), default=0.0) + (
        line_height(size) - fonts.regular.metrics.cap_height_mm(size))


def key_block(puzzle: Puzzle, number: int | None, x: float, y: float, unit: float,
              table_width: float, height: float, fonts: FontSet, style: PuzzleBookStyle = STYLE,
              ) -> list[Item]:
    """One solution: "Solution n" and the ID in small type, the board with the line
    drawn on it, and beside it the compact table (its figures first)."""
    heading = numbered(number, "", key=True) or puzzle.ident
    w = puzzle.print_size(unit)[0]
    items = caption_items(x, y, w + style.key_gap + table_width, [heading], fonts,
                          style.key_heading_size, align=Anchor.START)
    if number is not None:
        items.append(Text(x + fonts.bold.width(heading + "  ", style.key_heading_size),
                          y + fonts.bold.metrics.cap_height_mm(style.key_heading_size),
                          puzzle.ident, fonts.regular, style.id_size, INK))
    top = y + line_height(style.key_heading_size)
    items += puzzle.draw(x, top, unit, fonts, key=True)
    column = Box(x + w + style.key_gap, top, table_width, height - (top - y))
    items += table_items(puzzle, column, fonts, style)
    return items


def _legend(puzzle: Puzzle, width: float, fonts: FontSet, style: PuzzleBookStyle,
            ) -> list[Paragraph]:
    return [Paragraph(puzzle.key_legend(), fonts.regular, style.key_legend_size, INK)]


def legend_height(puzzle: Puzzle, width: float, fonts: FontSet, style: PuzzleBookStyle = STYLE,
                  ) -> float:
    lines = wrap(puzzle.key_legend(), fonts.regular, style.key_legend_size, width) or [""]
    return len(lines) * line_height(style.key_legend_size)


def key_pages(puzzles: Sequence[Puzzle], paper: Paper, fonts: FontSet,
              size: PuzzleSize = PuzzleSize.CARD, style: PuzzleBookStyle = STYLE) -> list[Page]:
    """Solutions pages, several solutions to a page like a newspaper's answers: each one
    numbered, its board with the line drawn on it beside a compact table; the legend once
    at the foot of each page."""
    if not puzzles:
        return []
    pw, ph = paper.size
    m = style.margin
    which = 0 if size is PuzzleSize.CARD else 1
    cols, rows = style.key_columns[which], style.key_rows[which]
    legend = legend_height(puzzles[0], pw - 2 * m, fonts, style)
    title = line_height(style.key_title_size) + style.key_title_after
    block_w = (pw - 2 * m - (cols - 1) * style.key_gap) / cols
    block_h = (ph - 2 * m - title - legend - style.key_legend_gap
               - (rows - 1) * style.key_gap) / rows
    board_w = block_w * style.key_board_share[which]
    pages = []
    per_page = cols * rows
    for p in range(0, len(puzzles), per_page):
        page = _page(f"key-{p // per_page + 1}", pw, ph)
        layer = page.layer("key")
        layer.add(*caption_items(m, m, pw - 2 * m, [say("puzzlebook", "solutions")], fonts,
                                 style.key_title_size, align=Anchor.START))
        for i, puzzle in enumerate(puzzles[p:p + per_page]):
            c, r = i % cols, i // cols
            x = m + c * (block_w + style.key_gap)
            y = m + title + r * (block_h + style.key_gap)
            unit = fit_unit(puzzle, board_w, block_h - line_height(style.key_heading_size))
            w = puzzle.print_size(unit)[0]
            layer.add(*key_block(puzzle, p + i + 1, x, y, unit,
                                 block_w - w - style.key_gap, block_h, fonts, style))
        column = Box(m, ph - m - legend, pw - 2 * m, legend)
        for lines in flow(_legend(puzzles[p], pw - 2 * m, fonts, style), [column],
                          where="the legend of the solutions"):
            layer.add(*lines)
        pages.append(page)
    return pages


def single_page(puzzle: Puzzle, size: PuzzleSize, *, key: bool, fonts: FontSet,
                style: PuzzleBookStyle = STYLE) -> Page:
    """One puzzle on a page of its own size (for SVG and PNG); with ``key``, its
    solution as on the solutions pages: the table beside the board, the legend under
    them."""
    card = size is PuzzleSize.CARD
    unit = puzzle.card_unit if card else puzzle.large_unit
    caption_size = style.nup_caption_size if card else style.large_caption_size
    w, h = puzzle.print_size(unit)
    m = style.single_margin
    if key:
        tw = style.single_table_width
        heading = line_height(style.key_heading_size)
        body = max(h, table_height(puzzle, tw, fonts, style))
        width = w + style.key_gap + tw
        legend = legend_height(puzzle, width, fonts, style)
        page = _page("board", width + 2 * m,
                     2 * m + heading + body + style.key_legend_gap + legend)
        layer = page.layer("board")
        layer.add(*key_block(puzzle, None, m, m, unit, tw, heading + body, fonts, style))
        column = Box(m, m + heading + body + style.key_legend_gap, width, legend)
        for lines in flow(_legend(puzzle, width, fonts, style), [column],
                          where="the legend of the solution"):
            layer.add(*lines)
        return page
    caption = (line_height(caption_size)
               + (CAPTION_LINES - 1) * line_height(min(style.id_size, caption_size)))
    page = _page("board", w + 2 * m, h + 2 * m + style.caption_gap + caption)
    page.layer("board").add(*puzzle_with_caption(puzzle, m, m, unit, fonts, caption_size,
                                                 key, style))
    return page


def puzzle_book(puzzles: Sequence[Puzzle], *, size: PuzzleSize, keys: bool, paper: Paper,
                fonts: FontSet, title: str, subject: str, style: PuzzleBookStyle = STYLE,
                front: Sequence[Page] = ()) -> Document:
    """``front`` (a rules sheet, say), then the numbered puzzles (card-sized N-up, or one
    large per page), then their numbered solutions, several to a page: a print file
    (PDF/X) for the paper's usual printing condition."""
    make = nup_pages if size is PuzzleSize.CARD else large_pages
    pages = [*front, *make(puzzles, paper, fonts, style)]
    if keys:
        pages += key_pages(puzzles, paper, fonts, size, style)
    return Document(pages, title=title, subject=subject, output_intent=paper_intent(paper))
