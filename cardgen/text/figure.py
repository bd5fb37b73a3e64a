"""A figure: a drawing set between the paragraphs of a text, made from the fonts.

Rules texts ask for figures by name (``@figure NAME``); each game's package draws its own
and the text's layout only asks a figure how tall it is at a width and where to draw it.
:func:`figure_flowable` is the one wrapper that makes a figure (with its caption) a
flowable for :func:`cardgen.text.flowable.fill`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from cardgen.text.flowable import Lines, Solid

if TYPE_CHECKING:
    from cardgen.draw.page import Item
    from cardgen.text.fonts import FontSet


class Figure(Protocol):
    """A drawing set between the paragraphs of a text."""

    def height(self, width: float) -> float:
        """How tall it is (mm) when it is ``width`` wide."""

    def draw(self, x: float, y: float, width: float) -> list[Item]:
        """The drawing with its top-left corner at (x, y)."""


FigureMaker = Callable[["FontSet"], Figure]


def figure_flowable(figure: Figure, width: float, what: str, *, caption: Lines | None = None,
                    caption_gap: float = 0.0, space_before: float = 0.0,
                    space_after: float = 0.0, floats: bool = False) -> Solid:
    """``figure`` at ``width`` with ``caption`` (lines whose box starts ``caption_gap``
    under it) as a flowable that never splits: as tall as the drawing, the gap and the
    caption down to its last line's descenders (:meth:`Lines.ink_bottom`: the foot of its
    line boxes on the descent rule, the book's; a descent below its last baseline on the
    cap rule, the sheets')."""
    drawing = figure.height(width)
    lines = caption if caption is not None and caption.lines else None
    gap = caption_gap if lines is not None else 0.0
    height = lines.ink_bottom(drawing + gap) if lines is not None else drawing

    def paint(x: float, y: float) -> list[Item]:
        items = figure.draw(x, y, width)
        if lines is not None:
            items += lines.draw(x, y + drawing + gap + lines.inset(), width)
        return items

    return Solid(height, paint, what, space_before, space_after, floats=floats)
