"""Rules texts set as a book: pages half the size of the paper (A5 for A4, half-letter for
Letter), in reading order, with running heads, page numbers, and for several games a
title page, a table of contents and bookmarks.

Why half-size pages: a rules booklet is folded from sheets of office paper, so its page
is half a sheet. The reading-order file shows the very pages the booklet is imposed from
(:mod:`cardgen.prepress.booklet`), so page numbers, contents and bookmarks agree between
the two, and a PDF viewer shows the rules as the printed booklet reads.

**Typesetting.** Text is one column, flowed page after page by the one frame filler
(:func:`cardgen.text.flowable.fill`; the paragraphs on its descent rule, two lines the
least on either side of a break):

- a game starts on a new page with its name and credit;
- a heading stays with what follows it (two lines of text, or the whole figure or table);
- a paragraph never leaves a single line at the foot of a page (orphan) or at the top of
  the next (widow): it breaks with at least two lines on each side, or moves whole;
- a figure or table is never split. When it does not fit at the foot of a page it floats
  to the top of the next, and the text after it fills the rest of the page;
- page numbers sit at the foot, on the outer side (page 1 is a right-hand page), and
  every page but a game's first carries a running head: the game's name.

Every distance and type size is a field of :class:`BookStyle`; every word that is not
part of a rules text is in ``templates/texts/rules.toml``. All type and lines are solid
black set to overprint (the ink rule: most of them are fine).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from cardgen.draw.geometry import Box
from cardgen.draw.page import (
    Anchor,
    Bookmark,
    Document,
    Item,
    Line,
    LineCap,
    Page,
    Stroke,
    Text,
)
from cardgen.errors import FitError, shorten
from cardgen.games.names import GameName
from cardgen.prepress.booklet import page_size
from cardgen.prepress.intents import default_intent
from cardgen.prepress.paper import Paper
from cardgen.resources import templates_dir
from cardgen.rules.figures import figure_makers
from cardgen.rules.markup import (
    Block,
    Bullet,
    FigureRef,
    MarkupError,
    MarkupProblem,
    Paragraph,
    Section,
    Span,
    Subsection,
    Table,
    Title,
    load,
)
from cardgen.rules.sheet import BULLET_MARK, INK
from cardgen.schema import nearest
from cardgen.text.figure import Figure, figure_flowable
from cardgen.text.fit import Run, line_height
from cardgen.text.flowable import Lines, Solid, fill
from cardgen.text.fonts import FontSet
from cardgen.text.table import TableStyle, table_flowable, wrap_cell
from cardgen.texts import say
from cardgen.units import MM_PER_PT

EPSILON = 1e-6


def rules_file(game: GameName, folder: Path | None = None) -> Path:
    """Where a game's rules text is: ``GAME.md`` in ``folder``, or in the templates."""
    return (folder or templates_dir() / "rules") / f"{game}.md"


@dataclass(frozen=True)
class BookStyle:
    """Every distance (mm) and type size (pt) of a rules book's page."""

    top: float = 17.0  # from the page's top to the text's
    bottom: float = 18.0  # from the page's bottom to the text's
    inner: float = 17.0  # at the spine
    outer: float = 13.0
    head_size: float = 8.0
    head_rule: float = 0.25 * MM_PER_PT
    head_gap: float = 2.2  # from the running head's baseline to its rule
    folio_size: float = 9.0
    foot: float = 9.0  # from the page's bottom to the page number's baseline
    chapter_size: float = 22.0
    credit_size: float = 8.0
    chapter_after: float = 7.0  # from the credit's baseline to the text
    section_size: float = 12.5
    section_before: float = 4.5
    section_after: float = 1.2
    subsection_size: float = 10.5
    subsection_before: float = 3.0
    subsection_after: float = 0.6
    body_size: float = 9.5
    paragraph_gap: float = 1.8
    item_gap: float = 0.7
    bullet_indent: float = 3.6
    figure_gap: float = 3.5  # above and below a figure or table
    caption_size: float = 8.0
    caption_gap: float = 1.8
    table_size: float = 8.5
    cell_pad: float = 1.4
    table_rule: float = 0.75 * MM_PER_PT
    table_thin: float = 0.25 * MM_PER_PT
    title_size: float = 28.0
    contents_size: float = 10.0
    contents_gap: float = 1.6
    contents_indent: float = 5.0
    dots: float = 0.35 * MM_PER_PT


STYLE = BookStyle()


# -- the pieces text is made of --------------------------------------------------------

# A paragraph, heading or bullet is a text.flowable.Lines (its bookmark, if any, in its
# tag); a figure or table a Solid that floats, never split. The one frame filler
# (text.flowable.fill) sets them page after page: widows and orphans are the paragraph's
# own rule, a heading keeps with the least head of what follows.
Piece = Lines | Solid


@dataclass
class _Chapter:
    game: GameName
    title: str
    credit: str
    pieces: list[Piece]


@dataclass
class _Layout:
    """Pages being filled and where the next chapter's text may start."""

    paper: Paper
    fonts: FontSet
    style: BookStyle
    first_number: int
    pages: list[Page] = field(default_factory=list)
    heads: list[str] = field(default_factory=list)  # the running head of each page
    marks: list[Bookmark] = field(default_factory=list)
    contents: list[tuple[str, int, int]] = field(default_factory=list)  # title, level, page
    y: float = 0.0
    at_top: bool = True

    @property
    def width(self) -> float:
        return page_size(self.paper)[0] - self.style.inner - self.style.outer

    @property
    def bottom(self) -> float:
        return page_size(self.paper)[1] - self.style.bottom

    def left(self) -> float:
        """The text's left edge on the current page (page 1 is a right-hand page)."""
        number = self.first_number + len(self.pages) - 1
        return self.style.inner if number % 2 else self.style.outer

    def new_page(self, head: str) -> None:
        w, h = page_size(self.paper)
        number = self.first_number + len(self.pages)
        self.pages.append(Page(f"page-{number}", w, h, Box(0, 0, w, h), Box(0, 0, w, h)))
        self.heads.append(head)
        self.y, self.at_top = self.style.top, True

    @property
    def page(self) -> Page:
        return self.pages[-1]

    def mark(self, title: str, level: int, y: float, index: int | None = None) -> None:
        index = len(self.pages) - 1 if index is None else index
        self.marks.append(Bookmark(title, index, max(0.0, y - 3.0), level))
        self.contents.append((title, level, self.first_number + index))

    def frames(self, head: str) -> Iterator[Box]:
        """The rest of the current page, then a new page's text area each time."""
        yield Box(self.left(), self.y, self.width, self.bottom - self.y)
        while True:
            self.new_page(head)
            yield Box(self.left(), self.y, self.width, self.bottom - self.y)


# -- from blocks to pieces --------------------------------------------------------------


def _runs(spans: Sequence[Span], fonts: FontSet, *, bold: bool = False) -> list[Run]:
    return [(s.text, fonts.bold if s.bold or bold else fonts.regular) for s in spans]


def _caption(spans: Sequence[Span], fonts: FontSet, style: BookStyle, width: float,
             where: str) -> tuple[tuple[Run, ...], ...]:
    runs = [(s.text, fonts.bold if s.bold else fonts.italic) for s in spans]
    return wrap_cell(runs, style.caption_size, width, where) if runs else ()


def _set_lines(lines: Sequence[Sequence[Run]], size: float, x: float, y: float,
               ) -> list[Item]:
    """Lines of runs from the top at y, as the book's paragraphs are set."""
    return list(Lines(tuple(tuple(line) for line in lines), size, INK).draw(x, y, 0.0))


def _table(table: Table, fonts: FontSet, style: BookStyle, width: float,
           where: str) -> Solid:
    return table_flowable(
        [_runs(cell, fonts, bold=True) for cell in table.header],
        [[_runs(cell, fonts) for cell in row] for row in table.rows], width,
        TableStyle(style.table_size, style.cell_pad, style.table_rule, style.table_thin, INK,
                   style.figure_gap, style.figure_gap, floats=True), where)


def _pieces(blocks: Sequence[Block], source: str, fonts: FontSet, style: BookStyle,
            width: float, figures: dict[str, Figure]) -> list[Piece]:
    pieces: list[Piece] = []
    body = [b for b in blocks if not isinstance(b, Title)]
    for i, block in enumerate(body):
        where = f"{source}, line {block.line}"
        following = body[i + 1] if i + 1 < len(body) else None
        if isinstance(block, Section):
            pieces.append(Lines(wrap_cell([(block.text, fonts.bold)], style.section_size,
                                      width, where), style.section_size, INK,
                                style.section_before, style.section_after,
                                keep_with_next=True, tag=(block.text, 1)))
        elif isinstance(block, Subsection):
            pieces.append(Lines(wrap_cell([(block.text, fonts.bold)], style.subsection_size,
                                      width, where), style.subsection_size, INK,
                                style.subsection_before, style.subsection_after,
                                keep_with_next=True))
        elif isinstance(block, Bullet):
            after = style.item_gap if isinstance(following, Bullet) else style.paragraph_gap
            lines = wrap_cell(_runs(block.spans, fonts), style.body_size,
                          width - style.bullet_indent, where)
            pieces.append(Lines(lines, style.body_size, INK, 0.0, after,
                                indent=style.bullet_indent, marker=BULLET_MARK,
                                marker_face=fonts.regular,
                                marker_at=style.bullet_indent * 0.25))
        elif isinstance(block, Paragraph):
            lines = wrap_cell(_runs(block.spans, fonts), style.body_size, width, where)
            pieces.append(Lines(lines, style.body_size, INK, 0.0, style.paragraph_gap))
        elif isinstance(block, FigureRef):
            caption = Lines(_caption(block.caption, fonts, style, width, where),
                            style.caption_size, INK)
            pieces.append(figure_flowable(
                figures[block.name], width, f"{where}: the figure {block.name!r}",
                caption=caption, caption_gap=style.caption_gap,
                space_before=style.figure_gap, space_after=style.figure_gap, floats=True))
        elif isinstance(block, Table):
            pieces.append(_table(block, fonts, style, width, where))
    return pieces


# -- reading the texts ---------------------------------------------------------------------


def read_texts(games: Sequence[GameName], folder: Path | None = None,
               ) -> list[tuple[GameName, str, tuple[Block, ...]]]:
    """Each game's rules text, parsed, with the file it came from. Every problem of every
    file is reported at once: markup errors, and figures that cardgen does not draw (with
    the closest name)."""
    makers = figure_makers()
    read: list[tuple[GameName, str, tuple[Block, ...]]] = []
    errors: list[MarkupError] = []
    for game in games:
        path = rules_file(game, folder)
        try:
            blocks = load(path)
        except MarkupError as exc:
            errors.append(exc)
            continue
        source = str(path) if folder else f"templates/rules/{game}.md"
        problems = []
        for block in blocks:
            if isinstance(block, FigureRef) and block.name not in makers:
                close = nearest(block.name, list(makers))
                hint = f"; did you mean {close!r}?" if close is not None else "."
                problems.append(f"line {block.line}: there is no figure called "
                                f"{shorten(block.name)}{hint}")
        if problems:
            errors.append(MarkupError(source, problems, code=MarkupProblem.FIGURE))
        read.append((game, source, blocks))
    if len(errors) == 1:
        raise errors[0]
    if errors:
        raise MarkupError("", [p.reworded(f"{e.source}: {p}") for e in errors
                               for p in e.problems])
    return read


# -- the book ------------------------------------------------------------------------------


def _chapters(texts: list[tuple[GameName, str, tuple[Block, ...]]], fonts: FontSet,
              style: BookStyle, width: float) -> list[_Chapter]:
    makers = figure_makers()
    made: dict[str, Figure] = {}
    chapters = []
    for game, source, blocks in texts:
        for block in blocks:
            if isinstance(block, FigureRef) and block.name not in made:
                made[block.name] = makers[block.name](fonts)
        title = blocks[0].text if isinstance(blocks[0], Title) else str(game)
        chapters.append(_Chapter(game, title, say("rules", f"credit.{game}"),
                                 _pieces(blocks, source, fonts, style, width, made)))
    return chapters


def _chapter(layout: _Layout, chapter: _Chapter) -> None:
    style, fonts = layout.style, layout.fonts
    if len(layout.pages) == 0 or not layout.at_top:
        layout.new_page(chapter.title)
    layout.heads[-1] = ""  # a game's first page has its name in large type instead
    x, y = layout.left(), layout.y
    cap = fonts.bold.metrics.cap_height_mm(style.chapter_size)
    layout.mark(chapter.title, 0, y)
    layer = layout.page.layer("text")
    layer.add(Text(x, y + cap, chapter.title, fonts.bold, style.chapter_size, INK,
                   name="chapter"))
    y += cap
    if chapter.credit:
        lines = wrap_cell([(chapter.credit, fonts.italic)], style.credit_size, layout.width,
                      f"templates/texts/rules.toml (credit.{chapter.game})")
        layer.add(*_set_lines(lines, style.credit_size, x, y + 2.0))
        y += 2.0 + len(lines) * line_height(style.credit_size)
    layout.y, layout.at_top = y + style.chapter_after, True
    full = layout.bottom - style.top
    for piece in chapter.pieces:
        if isinstance(piece, Solid) and piece.height > full + EPSILON:
            raise FitError(f"{piece.what} is {piece.height:.0f} mm tall and a page holds "
                           f"{full:.0f} mm of text; make it smaller.")
    first = len(layout.pages) - 1
    filled = fill(chapter.pieces, layout.frames(chapter.title), width=layout.width,
                  where=chapter.title)
    for placed in filled.placed:
        page, part = first + placed.frame, placed.flowable
        if isinstance(part, Lines):
            if isinstance(part.tag, tuple):
                layout.mark(part.tag[0], part.tag[1], placed.y, page)
            layout.pages[page].layer("text").add(*part.draw(placed.x, placed.y,
                                                            layout.width))
        else:  # a figure or a table
            layout.pages[page].layer("figures").add(*part.draw(placed.x, placed.y,
                                                               layout.width))
    layout.y, layout.at_top = filled.y, filled.at_top


def _decorate(layout: _Layout, pages: Sequence[Page], heads: Sequence[str], first: int,
              ) -> None:
    """Running heads and page numbers."""
    style, fonts = layout.style, layout.fonts
    w, h = page_size(layout.paper)
    for n, (page, head) in enumerate(zip(pages, heads, strict=True), start=first):
        right = n % 2 == 1
        left_edge = style.inner if right else style.outer
        right_edge = w - (style.outer if right else style.inner)
        outer_x, anchor = (right_edge, Anchor.END) if right else (left_edge, Anchor.START)
        layer = page.layer("furniture")
        layer.add(Text(outer_x, h - style.foot, str(n), fonts.regular, style.folio_size, INK,
                       anchor=anchor, name="folio"))
        if head:
            base = style.top - 5.5
            layer.add(Text(outer_x, base, head, fonts.regular, style.head_size, INK,
                           anchor=anchor, name="head"))
            rule = base + style.head_gap
            layer.add(Line(left_edge, rule, right_edge, rule, Stroke(INK, style.head_rule)))


def blank_page(number: int, paper: Paper, fonts: FontSet, style: BookStyle = STYLE) -> Page:
    """A page left blank on purpose (a booklet's padding), saying so, with its number."""
    w, h = page_size(paper)
    page = Page(f"page-{number}", w, h, Box(0, 0, w, h), Box(0, 0, w, h))
    page.layer("text").add(Text(w / 2, h / 2, say("rules", "blank"), fonts.italic,
                                style.caption_size, INK, anchor=Anchor.MIDDLE, name="blank"))
    layout = _Layout(paper, fonts, style, number)
    _decorate(layout, [page], [""], number)
    return page


def _title_page(layout: _Layout, games: Sequence[tuple[GameName, str]]) -> None:
    style, fonts = layout.style, layout.fonts
    layout.new_page("")
    h = page_size(layout.paper)[1]
    x = layout.left()
    layer = layout.page.layer("text")
    y = h * 0.3
    lines = wrap_cell([(say("rules", "book.title"), fonts.bold)], style.title_size, layout.width,
                  "templates/texts/rules.toml (book.title)")
    layer.add(*_set_lines(lines, style.title_size, x, y))
    y += len(lines) * line_height(style.title_size) + 4.0
    layer.add(Line(x, y, x + layout.width, y, Stroke(INK, 0.6 * MM_PER_PT)))
    y += 5.0
    sub = wrap_cell([(say("rules", "book.subtitle"), fonts.regular)], 12.0, layout.width,
                "templates/texts/rules.toml (book.subtitle)")
    layer.add(*_set_lines(sub, 12.0, x, y))
    y += len(sub) * line_height(12.0) + 6.0
    for _, title in games:
        layer.add(*_set_lines([[(title, fonts.bold)]], 11.0, x, y))
        y += line_height(11.0) + 1.0
    notes = wrap_cell([(say("rules", "book.credits"), fonts.italic)], style.credit_size,
                  layout.width, "templates/texts/rules.toml (book.credits)")
    bottom = layout.bottom - len(notes) * line_height(style.credit_size)
    layer.add(*_set_lines(notes, style.credit_size, x, bottom))


def _contents_entries(chapters: Sequence[_Chapter]) -> list[tuple[str, int]]:
    entries = []
    for chapter in chapters:
        entries.append((chapter.title, 0))
        entries += [(p.tag[0], p.tag[1]) for p in chapter.pieces
                    if isinstance(p, Lines) and isinstance(p.tag, tuple)]
    return entries


def _contents_lines(layout: _Layout, entries: Sequence[tuple[str, int]]) -> list[float]:
    """Where each entry of the contents starts (mm from a page's top), and by the
    number of pages: a new page whenever one is full. Returns the tops, pages implied
    by resets (a top smaller than the one before)."""
    style = layout.style
    lh = line_height(style.contents_size)
    first = style.top + layout.fonts.bold.metrics.cap_height_mm(style.section_size) + 6.0
    tops, y = [], first
    for _, level in entries:
        gap = style.contents_gap * (2.5 if level == 0 else 1.0)
        if y != first:
            y += gap
        if y + lh > layout.bottom:
            y = style.top
        tops.append(y)
        y += lh
    return tops


def _contents_pages(entries: Sequence[tuple[str, int]], layout: _Layout) -> int:
    tops = _contents_lines(layout, entries)
    return 1 + sum(1 for a, b in itertools.pairwise(tops) if b < a)


def _contents(layout: _Layout, pages: Sequence[Page], entries: Sequence[tuple[str, int, int]],
              first: int) -> None:
    style, fonts = layout.style, layout.fonts
    tops = _contents_lines(layout, [(t, lv) for t, lv, _ in entries])
    index = 0
    w, _ = page_size(layout.paper)
    page = pages[0]
    heading = say("rules", "book.contents")
    x0 = style.inner if first % 2 else style.outer
    page.layer("text").add(Text(x0, style.top + fonts.bold.metrics.cap_height_mm(
        style.section_size), heading, fonts.bold, style.section_size, INK))
    previous = -1.0
    for (title, level, number), top in zip(entries, tops, strict=True):
        if top < previous:
            index += 1
            page = pages[index]
        previous = top
        n = first + index
        left = style.inner if n % 2 else style.outer
        right = w - (style.outer if n % 2 else style.inner)
        face = fonts.bold if level == 0 else fonts.regular
        x = left + (style.contents_indent if level else 0.0)
        baseline = top + line_height(style.contents_size) - face.metrics.descent_mm(
            style.contents_size)
        layer = page.layer("text")
        layer.add(Text(x, baseline, title, face, style.contents_size, INK, name="contents"))
        label = str(number)
        layer.add(Text(right, baseline, label, face, style.contents_size, INK,
                       anchor=Anchor.END, name="contents"))
        start = x + face.width(title, style.contents_size) + 1.5
        end = right - face.width(label, style.contents_size) - 1.5
        if end - start > 2.0:
            layer.add(Line(start, baseline, end, baseline,
                           Stroke(INK, style.dots, dash=(0.12, 1.1), cap=LineCap.ROUND)))


def book_document(games: Sequence[GameName], paper: Paper, fonts: FontSet, *,
                  folder: Path | None = None, style: BookStyle = STYLE) -> Document:
    """The rules of ``games`` as a book in reading order. Several games get a title page
    and a table of contents; every page a page number; every game and section a
    bookmark. ``folder`` holds the rules texts (``GAME.md``) when they are not the
    templates' own (a translation, say)."""
    texts = read_texts(games, folder)
    width = page_size(paper)[0] - style.inner - style.outer
    chapters = _chapters(texts, fonts, style, width)
    layout = _Layout(paper, fonts, style, 1)
    front: list[Page] = []
    front_heads: list[str] = []
    entries = _contents_entries(chapters)
    many = len(chapters) > 1
    if many:
        _title_page(layout, [(c.game, c.title) for c in chapters])
        front, front_heads = layout.pages, layout.heads
        contents = _contents_pages(entries, layout)
        layout = _Layout(paper, fonts, style, 2 + contents)
        w, h = page_size(paper)
        toc = [Page(f"page-{2 + i}", w, h, Box(0, 0, w, h), Box(0, 0, w, h))
               for i in range(contents)]
        front_heads = [*front_heads, "", *[say("rules", "book.contents")] * (contents - 1)]
        front = front + toc
    for chapter in chapters:
        _chapter(layout, chapter)
    pages = front + layout.pages
    heads = front_heads + layout.heads
    offset = len(front)
    marks = [Bookmark(m.title, m.page + offset, m.y, m.level) for m in layout.marks]
    if many:
        _contents(layout, front[1:], layout.contents, 2)
        marks.insert(0, Bookmark(say("rules", "book.contents"), 1, 0.0, 0))
    _decorate(layout, pages, heads, 1)
    title = say("rules", "book.title") if many else chapters[0].title
    # A print file like the card's: PDF/X-1a in CMYK for the paper's usual condition.
    intent = default_intent("eu" if paper is Paper.A4 else "us")
    return Document(pages, title=title,
                    subject=say("rules", "subject", games=", ".join(c.title for c in chapters)),
                    output_intent=intent, bookmarks=marks)
