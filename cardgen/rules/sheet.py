"""A rules text set on pages: the title across the top, then the blocks flowed through
columns, page after page, with figures placed where the text asks for them: paragraphs,
figures with their captions and tables are flowables (:mod:`cardgen.text.flowable`,
:func:`~cardgen.text.figure.figure_flowable`, :func:`~cardgen.text.table.table_flowable`,
as in the rules book) set by the one frame filler; only the figures set across the foot
of the page are placed apart (:func:`_bands`).

Generic for every game: the blocks come from :mod:`cardgen.rules.markup`, the figures
are anything that can say how tall it is at a width and draw itself
(:class:`Figure`). Every distance and size is a field of :class:`SheetStyle`. All type
and lines are solid black set to overprint (the ink rule: most of the type is small).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace

from cardgen.draw.colors import INK
from cardgen.draw.geometry import Box
from cardgen.draw.page import Anchor, Line, Page, Stroke, Text
from cardgen.errors import FitError
from cardgen.prepress.paper import Paper
from cardgen.rules.markup import (
    Block,
    Bullet,
    FigureRef,
    Section,
    Subsection,
    Table,
    Title,
)
from cardgen.rules.markup import Span as MarkupSpan
from cardgen.text.figure import Figure, figure_flowable
from cardgen.text.fit import Run, line_height
from cardgen.text.flow import EPSILON, Paragraph, Span
from cardgen.text.flowable import CondBreak, Flowable, Lines, Solid, fill
from cardgen.text.fonts import FontSet
from cardgen.text.table import TableStyle, table_flowable
from cardgen.units import MM_PER_PT

BULLET_MARK = "•"


@dataclass(frozen=True)
class SheetStyle:
    """Every distance (mm) and type size (pt) of a rules page."""

    margin: float = 9.0
    columns: int = 3
    column_gap: float = 5.0
    title_size: float = 17.0
    credit_size: float = 7.0
    title_rule: float = 0.6 * MM_PER_PT  # the line under the title
    title_after: float = 3.5  # from the title's baseline to the rule, and on to the text
    section_size: float = 10.0
    section_before: float = 2.4
    section_after: float = 0.5
    body_size: float = 8.8
    paragraph_gap: float = 1.1
    item_gap: float = 0.35
    bullet_indent: float = 2.4
    figure_gap: float = 2.4
    caption_size: float = 7.0  # a figure's caption (``@figure NAME: Caption.``)
    caption_gap: float = 1.2  # from a figure to its caption
    table_size: float = 7.5  # a table (``| a | b |``), set like a figure where the text has it
    cell_pad: float = 1.0
    table_rule: float = 0.75 * MM_PER_PT
    table_thin: float = 0.25 * MM_PER_PT


STYLE = SheetStyle()


def paragraphs(blocks: Sequence[Block], fonts: FontSet, style: SheetStyle = STYLE,
               ) -> list[Paragraph]:
    """The text blocks after the title as paragraphs (figures and tables left out:
    :func:`rules_pages` sets them between the paragraphs)."""
    out: list[Paragraph] = []
    texts = [b for b in blocks if not isinstance(b, Title | FigureRef | Table)]
    for i, block in enumerate(texts):
        if isinstance(block, Section | Subsection):
            size = style.section_size if isinstance(block, Section) else style.body_size
            out.append(Paragraph(block.text, fonts.bold, size, INK,
                                 space_before=style.section_before,
                                 space_after=style.section_after, keep_with_next=True))
            continue
        spans = [Span(s.text, fonts.bold if s.bold else fonts.regular) for s in block.spans]
        following = texts[i + 1] if i + 1 < len(texts) else None
        if isinstance(block, Bullet):
            after = (style.item_gap if isinstance(following, Bullet)
                     else style.paragraph_gap)
            out.append(Paragraph.mixed(spans, style.body_size, INK, space_after=after,
                                       indent=style.bullet_indent, marker=BULLET_MARK))
        else:
            out.append(Paragraph.mixed(spans, style.body_size, INK,
                                       space_after=style.paragraph_gap))
    return out


def _figure(figure: Figure, ref: FigureRef, fonts: FontSet, style: SheetStyle, width: float,
            where: str) -> Solid:
    """A figure with its caption (if the text gives one) set under it, ``width`` wide."""
    caption = None
    if ref.caption:
        spans = [Span(s.text, fonts.bold if s.bold else fonts.regular) for s in ref.caption]
        caption = Paragraph.mixed(spans, style.caption_size, INK).flowable(
            width, f"the caption of {ref.name}")
    return figure_flowable(figure, width, f"{where}, line {ref.line}: the figure {ref.name!r}",
                           caption=caption, caption_gap=style.caption_gap,
                           space_before=style.figure_gap, space_after=style.figure_gap)


def _table(table: Table, fonts: FontSet, style: SheetStyle, width: float, where: str) -> Solid:
    """A table, set like a figure of the sheet."""
    def runs(cell: Sequence[MarkupSpan], bold: bool = False) -> list[Run]:
        return [(s.text, fonts.bold if s.bold or bold else fonts.regular) for s in cell]
    return table_flowable([runs(cell, True) for cell in table.header],
                          [[runs(cell) for cell in row] for row in table.rows], width,
                          TableStyle(style.table_size, style.cell_pad, style.table_rule,
                                     style.table_thin, INK, style.figure_gap,
                                     style.figure_gap), f"{where}, line {table.line}")


def _columns(page_box: Box, top: float, style: SheetStyle) -> list[Box]:
    m = style.margin
    width = (page_box.w - 2 * m - (style.columns - 1) * style.column_gap) / style.columns
    return [Box(m + c * (width + style.column_gap), top, width, page_box.h - m - top)
            for c in range(style.columns)]


def _heading(page: Page, title: str, credit: str, fonts: FontSet, style: SheetStyle,
             ) -> float:
    """The title and credit line at the top of a page; where the columns start."""
    m = style.margin
    baseline = m + fonts.bold.metrics.cap_height_mm(style.title_size)
    layer = page.layer("text")
    layer.add(Text(m, baseline, title, fonts.bold, style.title_size, INK, name="title"))
    if credit:
        layer.add(Text(page.width - m, baseline, credit, fonts.regular, style.credit_size,
                       INK, anchor=Anchor.END, name="credit"))
    rule_y = baseline + style.title_after
    layer.add(Line(m, rule_y, page.width - m, rule_y, Stroke(INK, style.title_rule)))
    return rule_y + style.title_after


def _bands(page: Page, frames: list[tuple[Page, Box]], bands: Sequence[Solid],
           style: SheetStyle, where: str, many: str) -> list[tuple[Page, Box]]:
    """Set ``bands`` (figures as wide as the page's text) across the page at its foot, and
    stop its columns above them: the frames left. A separate step from :func:`fill`: the
    bands are placed from the page's foot up, before the text is set."""
    width = page.width - 2 * style.margin
    heights = [band.height for band in bands]
    top = page.height - style.margin - sum(heights) - style.figure_gap * (len(bands) - 1)
    for band, height in zip(bands, heights, strict=True):
        page.layer("figures").add(*band.draw(style.margin, top, width))
        top += height + style.figure_gap
    floor = page.height - style.margin - sum(heights) - style.figure_gap * len(bands)
    out = []
    for owner, box in frames:
        if owner is page:
            if floor - box.y < 2 * line_height(style.section_size):
                raise FitError(f"{where}: the wide figures leave no room for the text on "
                               f"{many}.")
            box = Box(box.x, box.y, box.w, floor - box.y)
        out.append((owner, box))
    return out


def rules_pages(blocks: Sequence[Block], paper: Paper, fonts: FontSet, *, credit: str = "",
                figures: Mapping[str, Figure] | None = None, max_pages: int = 1,
                where: str = "the rules text", style: SheetStyle = STYLE,
                wide: Collection[str] = ()) -> list[Page]:
    """The rules set on portrait pages of ``paper``: the title (the first block) and
    ``credit`` on each page, the text in ``style.columns`` columns, each figure the text
    names (``@figure``) drawn by ``figures[name]``, with its caption under it, and each
    table (``| a | b |``) set like a figure (:func:`cardgen.text.table.table_flowable`),
    where the text names it: paragraphs, figures and tables are flowables set through the
    columns by the one frame filler (:func:`cardgen.text.flowable.fill`). A figure or a
    table is set ``figure_gap`` below the text above it (at the top of the next column
    when it does not fit, with no gap there), the text after it ``figure_gap`` below it;
    a column is left when less than a heading and a line is left under a figure. The
    figures named in ``wide`` are set instead across the whole width at the foot of the
    first page, in the order the text names them, and the columns stop above them. At
    most ``max_pages`` pages: FitError naming ``where`` if the text needs more or names
    a figure that ``figures`` lacks."""
    if not blocks or not isinstance(blocks[0], Title):
        raise ValueError("a rules text starts with its title")
    title = blocks[0].text
    pw, ph = paper.size
    pages: list[Page] = []
    frames: list[tuple[Page, Box]] = []  # the columns, in reading order
    for n in range(max_pages):
        page = Page(f"rules-{n + 1}" if max_pages > 1 else "rules", pw, ph,
                    Box(0, 0, pw, ph), Box(0, 0, pw, ph))
        top = _heading(page, title, credit, fonts, style)
        pages.append(page)
        frames += [(page, box) for box in _columns(Box(0, 0, pw, ph), top, style)]
    many = f"{max_pages} page{'' if max_pages == 1 else 's'} of {paper.upper()}"
    width = frames[0][1].w
    texts = iter(paragraphs(blocks, fonts, style))
    # In the text's order: a paragraph (set below), or a figure or table (a Solid).
    order: list[Paragraph | Solid] = []
    bands: list[Solid] = []
    for block in blocks[1:]:
        if isinstance(block, Table):
            order.append(_table(block, fonts, style, width, where))
        elif isinstance(block, FigureRef):
            drawing = (figures or {}).get(block.name)
            if drawing is None:
                raise FitError(f"{where}, line {block.line}: there is no figure called "
                               f"{block.name!r} on this sheet.", value=block.name)
            if block.name in wide:
                bands.append(_figure(drawing, block, fonts, style, pw - 2 * style.margin,
                                     where))
            else:
                order.append(_figure(drawing, block, fonts, style, width, where))
        elif not isinstance(block, Title):
            order.append(next(texts))
    if bands:
        frames = _bands(pages[0], frames, bands, style, where, many)
    tallest = max(box.h for _, box in frames)
    if any(isinstance(piece, Solid) and piece.height > tallest for piece in order):
        raise FitError(f"{where}: a figure does not fit on {many}.")
    # A figure's gap is all the room below it; a column is left when less than a heading
    # and a line is left under it.
    room = 2 * line_height(style.section_size)
    try:
        flowables: list[Flowable] = []
        for piece in order:
            if isinstance(piece, Solid):
                flowables += [piece, CondBreak(room)]
                continue
            lines = piece.flowable(width, where)
            if lines.lines:
                after_solid = bool(flowables) and isinstance(flowables[-1], CondBreak)
                flowables.append(replace(lines, space_before=0.0) if after_solid else lines)
        filled = fill(flowables, iter([box for _, box in frames]), width=width, where=where,
                      chain=False, epsilon=EPSILON)
    except FitError:
        raise FitError(f"{where} does not fit on {many} at {style.body_size:g} pt; "
                       "shorten it.") from None
    last_page = pages[0]
    for placed in filled.placed:
        last_page = frames[placed.frame][0]
        layer = "text" if isinstance(placed.flowable, Lines) else "figures"
        last_page.layer(layer).add(*placed.flowable.draw(placed.x, placed.y, width))
    return pages[:pages.index(last_page) + 1]
