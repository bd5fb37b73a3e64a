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
from collections.abc import Mapping
from functools import cache

from cardgen.text.figure import FigureMaker

# The modules that draw figures, each exporting FIGURES: dict[str, FigureMaker].
MODULES: tuple[str, ...] = (
    "cardgen.ladder.figures",
    "cardgen.games.rotator.figures",
    "cardgen.connector.figures",
    "cardgen.games.nodes.figures",
    "cardgen.physical.figures",
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
