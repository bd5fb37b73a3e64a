"""A figure: a drawing set between the paragraphs of a text, made from the fonts.

Rules texts ask for figures by name (``@figure NAME``); each game's package draws its own
and the text's layout only asks a figure how tall it is at a width and where to draw it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

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
