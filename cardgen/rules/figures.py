"""Figures for rules texts: the diagrams a text asks for by name (``@figure NAME`` in
``templates/rules/*.md``), each drawn from the model the games' engines use.

A figure is anything that can say how tall it is at a width and draw itself there
(:class:`~cardgen.text.figure.Figure`). The figures come from explicit sources
(:func:`sources`): every registered game's own (``Game.figures``, see
``cardgen.games.registry``), and the families that are no game of the registry: the
Connector's, the Corporate Ladder's and the physical card's. :func:`figure_makers` joins
them; a name that two sources draw differently is an error (the Node games share their
territory figures, the same maker under the same name).

Imports ``cardgen.text`` and the modules that draw the figures.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache

from cardgen.connector.figures import FIGURES as CONNECTOR_FIGURES
from cardgen.games.base import Capability
from cardgen.games.registry import games
from cardgen.ladder.figures import FIGURES as LADDER_FIGURES
from cardgen.physical.figures import FIGURES as PHYSICAL_FIGURES
from cardgen.text.figure import FigureMaker

# The sources that are no game of the registry, by what they draw.
OTHER_SOURCES: dict[str, Mapping[str, FigureMaker]] = {
    "ladder": LADDER_FIGURES,
    "connector": CONNECTOR_FIGURES,
    "physical": PHYSICAL_FIGURES,
}


def sources() -> dict[str, Mapping[str, FigureMaker]]:
    """Every source of figures by name: the registry's games that have figures, then the
    others."""
    found: dict[str, Mapping[str, FigureMaker]] = {
        name.value: game.figures() for name, game in games().items()
        if Capability.HAS_FIGURES in game.flags}
    found.update(OTHER_SOURCES)
    return found


@cache
def figure_makers() -> Mapping[str, FigureMaker]:
    """Every figure a rules text may name, by name."""
    makers: dict[str, FigureMaker] = {}
    for source, figures in sources().items():
        for key, maker in figures.items():
            if makers.get(key, maker) is not maker:
                raise ValueError(f"two sources of figures draw a figure called {key!r} "
                                 f"({source} and another)")
            makers[key] = maker
    return makers
