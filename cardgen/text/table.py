"""A table as a flowable: a header row and rows of cells, each cell runs of text wrapped to
its column, set between rules; never split (a :class:`~cardgen.text.flowable.Solid`).

Column widths: each column wants its longest cell on one line; when the columns want more
than the width, each gives up its share of the excess above its longest word, in
proportion; when even the longest words do not fit, FitError says so. Every row is as
tall as its tallest cell plus ``pad`` above and below; a heavy rule over and under the
table, a double-weight thin rule under the header, a thin rule between rows.

Imports ``cardgen.draw``, ``cardgen.text`` and ``cardgen.errors``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from cardgen.draw.colors import Color
from cardgen.draw.page import Item, Line, Stroke
from cardgen.errors import FitError
from cardgen.text.fit import Run, check_printable, line_height, wrap_runs
from cardgen.text.flowable import EPSILON, Lines, Solid

Cell = Sequence[Run]


@dataclass(frozen=True)
class TableStyle:
    """The type size (pt), the cells' padding and the rules' weights (mm) of a table."""

    size: float
    pad: float
    rule: float  # over and under the table
    thin: float  # between rows (twice as heavy under the header)
    color: Color
    space_before: float = 0.0
    space_after: float = 0.0
    floats: bool = False


def wrap_cell(runs: Cell, size: float, width: float, where: str,
              ) -> tuple[tuple[Run, ...], ...]:
    """``runs`` wrapped to ``width`` at ``size``; FitError naming ``where`` when a word is
    wider, FontError when a face lacks a glyph."""
    for text, face in runs:
        check_printable(text, face, where)
    lines = wrap_runs(runs, size, width)
    if lines is None:
        words = " ".join(text for text, _ in runs)
        raise FitError(f"{where}: a word of {words[:40]!r} is wider than the "
                       f"{width:.0f} mm text width.", value=words)
    return tuple(tuple(line) for line in lines)


def table_flowable(header: Sequence[Cell], rows: Sequence[Sequence[Cell]], width: float,
                   style: TableStyle, where: str) -> Solid:
    """The table ``width`` wide at most (as wide as its columns want), as a flowable."""
    size, pad = style.size, style.pad
    table = [list(header), *(list(row) for row in rows)]
    columns = len(header)

    def natural(runs: Cell) -> float:
        return sum(face.width(text, size) for text, face in runs)

    def longest_word(runs: Cell) -> float:
        return max((face.width(word, size) for text, face in runs for word in text.split()),
                   default=0.0)

    wants = [max(natural(r[c]) for r in table) + 2 * pad for c in range(columns)]
    least = [max(longest_word(r[c]) for r in table) + 2 * pad for c in range(columns)]
    if sum(least) > width + EPSILON:
        raise FitError(f"{where}: the table's columns need {sum(least):.0f} mm and the text "
                       f"is {width:.0f} mm wide; use fewer columns or shorter words.")
    if sum(wants) <= width:
        widths = wants
    else:  # shrink the columns that want more than their longest word, in proportion
        spare = width - sum(least)
        extra = [w - m for w, m in zip(wants, least, strict=True)]
        widths = [m + spare * e / sum(extra) for m, e in zip(least, extra, strict=True)]
    lh = line_height(size)
    laid = [[Lines(wrap_cell(cell, size, w - 2 * pad + 0.01, where) if cell else (), size,
                   style.color) for cell, w in zip(row, widths, strict=True)]
            for row in table]
    heights = [max(1, *(len(cell.lines) for cell in row)) * lh + 2 * pad for row in laid]
    total = sum(heights)

    def paint(x: float, y: float) -> list[Item]:
        items: list[Item] = []
        right = x + sum(widths)
        top = y
        ink = style.color
        for r, (row, h) in enumerate(zip(laid, heights, strict=True)):
            cx = x
            for cell, w in zip(row, widths, strict=True):
                items += cell.draw(cx + pad, top + pad, w)
                cx += w
            top += h
            if r == 0:
                items.append(Line(x, top, right, top, Stroke(ink, style.thin * 2)))
            elif r < len(laid) - 1:
                items.append(Line(x, top, right, top, Stroke(ink, style.thin)))
        items.append(Line(x, y, right, y, Stroke(ink, style.rule)))
        items.append(Line(x, y + total, right, y + total, Stroke(ink, style.rule)))
        return items

    return Solid(total, paint, f"{where}: the table", style.space_before, style.space_after,
                 floats=style.floats)
