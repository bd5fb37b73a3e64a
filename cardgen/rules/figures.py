"""Figures for rules texts: the diagrams a text asks for by name (``@figure NAME`` in
``templates/rules/*.md``), each drawn from the model the games' engines use.

A figure is anything that can say how tall it is at a width and draw itself there
(:class:`Figure`). Each family of figures lives in a module of its own that exports
``FIGURES``, a mapping from figure name to a function that makes the figure from the
fonts; :func:`figure_makers` joins them, and a name that two modules claim is an error.

Imports ``cardgen.draw`` and ``cardgen.text`` here; the figure modules it loads import
the models they draw.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from functools import cache
from typing import Protocol

from cardgen.draw.page import Item
from cardgen.text.fonts import FontSet


class Figure(Protocol):
    """A drawing set between the paragraphs of a text."""

    def height(self, width: float) -> float:
        """How tall it is (mm) when it is ``width`` wide."""

    def draw(self, x: float, y: float, width: float) -> list[Item]:
        """The drawing with its top-left corner at (x, y)."""


FigureMaker = Callable[[FontSet], Figure]

# The modules that draw figures, each exporting FIGURES: dict[str, FigureMaker].
MODULES: tuple[str, ...] = (
    "cardgen.rules.ladder",
    "cardgen.rules.fig_rotator",
    "cardgen.rules.fig_connector",
    "cardgen.rules.fig_nodes",
    "cardgen.rules.fig_fold",
)


@cache
def figure_makers() -> Mapping[str, FigureMaker]:
    """Every figure a rules text may name, by name."""
    makers: dict[str, FigureMaker] = {}
    for name in MODULES:
        module = importlib.import_module(name)
        for key, maker in module.FIGURES.items():
            if key in makers:
                raise ValueError(f"two figure modules draw a figure called {key!r}")
            makers[key] = maker
    return makers
