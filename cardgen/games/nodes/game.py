"""Reflector, Deflector and Defector as :class:`~cardgen.games.base.Game` entries: for now
their names, their players and the figures of their rules texts only. They have no board
IDs, generator, solver or printed boards, and their referee (SPEC §9) is still to come,
so their flags say :attr:`~cardgen.games.base.Capability.HAS_FIGURES` alone and every
other half raises :class:`~cardgen.games.base.Unsupported`.

The territory figures belong to all three games; each game lists the figures its rules
text draws (``templates/rules/GAME.md``), from :mod:`cardgen.games.nodes.figures`.
"""

from __future__ import annotations

from collections.abc import Mapping

from cardgen.games.base import Capability, Game
from cardgen.games.names import GameName
from cardgen.games.nodes.figures import FIGURES
from cardgen.games.nodes.model import PLAYERS
from cardgen.text.figure import FigureMaker

SHARED = ("territory", "territory-overlap")  # every Node game's rules draw these
OWN: dict[GameName, tuple[str, ...]] = {
    GameName.REFLECTOR: ("reflector-two-cards", "reflector-three-cards"),
    GameName.DEFLECTOR: ("table-3", "table-4-full", "table-4-partial", "table-5-full",
                         "table-5-partial"),
    GameName.DEFECTOR: ("defector-full", "defector-island"),
}


class NodeGame(Game[None, None, None, None]):
    """One of the Node games: a name, its players and its rules figures."""

    flags = Capability.HAS_FIGURES

    def __init__(self, name: GameName) -> None:
        self.name = name
        self.players = PLAYERS[name]

    def figures(self) -> Mapping[str, FigureMaker]:
        return {key: FIGURES[key] for key in (*OWN[self.name], *SHARED)}

    def __repr__(self) -> str:
        return f"NodeGame({self.name.value!r})"


REFLECTOR, DEFLECTOR, DEFECTOR = (NodeGame(name) for name in OWN)
