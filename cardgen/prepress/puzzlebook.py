"""Puzzle books: puzzles N to a page (or one large per page), then their answer keys.

Generic printing in the manner of Simon Tatham's puzzle collection: the book asks each
puzzle only for its size at a scale and for its drawing (:class:`Puzzle`); where the
puzzles go on the paper, their captions, and the answer keys' pages are decided here,
the same for every game. Every distance is a field of :class:`BookStyle`.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from cardgen.draw.colors import Color
from cardgen.draw.geometry import Box
from cardgen.draw.page import Anchor, Document, Item, Page, Text
from cardgen.prepress.paper import Paper
from cardgen.text.fit import line_height
from cardgen.text.flow import Paragraph, flow
from cardgen.text.fonts import FontSet

INK = Color.cmyk(0, 0, 0, 100)
MUTED = Color.cmyk(0, 0, 0, 60)
CAPTION_LINES = 2  # the puzzle's ID and one line of caption


class BookLayout(enum.StrEnum):
    NUP = "nup"  # puzzles at their card size, as many to a page as fit
    LARGE = "large"  # one puzzle per page, as large as the page allows


class PuzzleSize(enum.StrEnum):
    CARD = "card"  # as on the card
    LARGE = "large"


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

    def key_text(self) -> tuple[str, list[str], str]:
        """The answer key's heading, the solution told in words (one paragraph each),
        and the legend of the key's marks."""


@dataclass(frozen=True)
class BookStyle:
    """Every distance (mm) and type size (pt) of a puzzle book's pages."""

    margin: float = 10.0  # around every page
    column_gap: float = 6.0  # the least gap between puzzles side by side (N-up)
    row_gap: float = 4.0  # between a caption and the puzzle below it (N-up)
    caption_gap: float = 2.0  # from a puzzle to its caption
    nup_caption_size: float = 7.0
    nup_caption_after: float = 3.0  # room kept under an N-up caption
    large_caption_size: float = 10.0
    large_caption_after: float = 2.0
    single_margin: float = 4.0  # around a puzzle on a page of its own size
    key_header_size: float = 11.0
    key_header_height: float = 16.0  # from the margin to the top of the puzzle
    key_reserved_height: float = 30.0  # the header and the caption under the puzzle
    key_width_share: float = 0.5  # the puzzle takes at most this share of the page width
    key_caption_size: float = 8.0
    key_text_gap: float = 8.0  # between the puzzle and the solution in words
    key_text_size: float = 8.5
    key_paragraph_gap: float = 1.2
    key_legend_gap: float = 3.0
    key_legend_size: float = 7.0


STYLE = BookStyle()


def caption_items(x: float, y: float, lines: Sequence[str], fonts: FontSet, size: float,
                  anchor: Anchor = Anchor.MIDDLE) -> list[Item]:
    """Lines under a puzzle from ``y`` down: the first bold in ink, the rest muted."""
    items: list[Item] = []
    for i, text in enumerate(lines):
        face = fonts.bold if i == 0 else fonts.regular
        items.append(Text(x, y + i * line_height(size) + fonts.regular.metrics.cap_height_mm(
            size), text, face, size, INK if i == 0 else MUTED, anchor=anchor))
    return items


def puzzle_with_caption(puzzle: Puzzle, x: float, y: float, unit: float, fonts: FontSet,
                        caption_size: float, key: bool, style: BookStyle = STYLE,
                        ) -> list[Item]:
    """The puzzle at (x, y) with its ID and caption centred under it."""
    items = puzzle.draw(x, y, unit, fonts, key=key)
    w, h = puzzle.print_size(unit)
    caption = puzzle.key_caption if key else puzzle.caption
    lines = [puzzle.ident, *([caption] if caption else [])]
    items += caption_items(x + w / 2, y + h + style.caption_gap, lines, fonts, caption_size)
    return items


def _page(name: str, width: float, height: float) -> Page:
    paper = Box(0, 0, width, height)
    return Page(name, width, height, paper, paper)


def nup_pages(puzzles: Sequence[Puzzle], paper: Paper, fonts: FontSet,
              style: BookStyle = STYLE) -> list[Page]:
    """Card-sized puzzles, as many per page as fit, each with its ID and caption."""
    if not puzzles:
        return []
    pw, ph = paper.size
    m = style.margin
    unit = puzzles[0].card_unit
    w, h = (max(size) for size in zip(*(p.print_size(p.card_unit) for p in puzzles),
                                      strict=True))
    caption = (style.caption_gap + CAPTION_LINES * line_height(style.nup_caption_size)
               + style.nup_caption_after)
    cols = max(1, int((pw - 2 * m + style.column_gap) // (w + style.column_gap)))
    rows = max(1, int((ph - 2 * m + style.row_gap) // (h + caption + style.row_gap)))
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
                                           key=False, style=style))
        pages.append(page)
    return pages


def fit_unit(puzzle: Puzzle, width: float, height: float) -> float:
    """The largest scale at which the puzzle fits ``width`` × ``height``."""
    ew, eh = puzzle.scale_extent
    return min(width / ew, height / eh)


def large_pages(puzzles: Sequence[Puzzle], paper: Paper, fonts: FontSet,
                style: BookStyle = STYLE) -> list[Page]:
    """One puzzle per page, as large as the page allows."""
    pw, ph = paper.size
    m = style.margin
    caption = (style.caption_gap + CAPTION_LINES * line_height(style.large_caption_size)
               + style.large_caption_after)
    pages = []
    for i, puzzle in enumerate(puzzles):
        unit = fit_unit(puzzle, pw - 2 * m, ph - 2 * m - caption)
        w = puzzle.print_size(unit)[0]
        page = _page(f"board-{i + 1}", pw, ph)
        page.layer("board").add(*puzzle_with_caption(
            puzzle, (pw - w) / 2, m, unit, fonts, style.large_caption_size, key=False,
            style=style))
        pages.append(page)
    return pages


def key_pages(puzzles: Sequence[Puzzle], paper: Paper, fonts: FontSet,
              style: BookStyle = STYLE) -> list[Page]:
    """One answer key per page: the solution drawn on the puzzle, beside it in words."""
    pw, ph = paper.size
    m = style.margin
    pages = []
    for i, puzzle in enumerate(puzzles):
        ew, eh = puzzle.scale_extent
        unit = min((ph - 2 * m - style.key_reserved_height) / eh,
                   (pw * style.key_width_share - m) / ew)
        w = puzzle.print_size(unit)[0]
        page = _page(f"key-{i + 1}", pw, ph)
        layer = page.layer("key")
        heading, paragraphs, legend = puzzle.key_text()
        layer.add(*caption_items(m, m, [heading, puzzle.key_caption], fonts,
                                 style.key_header_size, anchor=Anchor.START))
        top = m + style.key_header_height
        layer.add(*puzzle_with_caption(puzzle, m, top, unit, fonts, style.key_caption_size,
                                       key=True, style=style))
        x = m + w + style.key_text_gap
        column = Box(x, top, pw - m - x, ph - m - top)
        text = [Paragraph(p, fonts.regular, style.key_text_size, INK,
                          space_after=style.key_paragraph_gap) for p in paragraphs]
        text.append(Paragraph(legend, fonts.regular, style.key_legend_size, MUTED,
                              space_before=style.key_legend_gap))
        for lines in flow(text, [column], where=f"the answer key of {puzzle.ident}"):
            layer.add(*lines)
        pages.append(page)
    return pages


def single_page(puzzle: Puzzle, size: PuzzleSize, *, key: bool, fonts: FontSet,
                style: BookStyle = STYLE) -> Page:
    """One puzzle on a page of its own size (for SVG and PNG)."""
    card = size is PuzzleSize.CARD
    unit = puzzle.card_unit if card else puzzle.large_unit
    caption_size = style.nup_caption_size if card else style.large_caption_size
    w, h = puzzle.print_size(unit)
    m = style.single_margin
    page = _page("board", w + 2 * m,
                 h + 2 * m + style.caption_gap + CAPTION_LINES * line_height(caption_size))
    page.layer("board").add(*puzzle_with_caption(puzzle, m, m, unit, fonts, caption_size,
                                                 key, style))
    return page


def puzzle_book(puzzles: Sequence[Puzzle], *, layout: BookLayout, keys: bool, paper: Paper,
                fonts: FontSet, title: str, subject: str, style: BookStyle = STYLE,
                front: Sequence[Page] = ()) -> Document:
    """``front`` (a rules sheet, say), then the puzzles (N-up or one per page), then
    their answer keys."""
    make = nup_pages if layout is BookLayout.NUP else large_pages
    pages = [*front, *make(puzzles, paper, fonts, style)]
    if keys:
        pages += key_pages(puzzles, paper, fonts, style)
    return Document(pages, title=title, subject=subject)
