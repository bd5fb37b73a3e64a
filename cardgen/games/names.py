"""The names of the games cardgen knows, spelled once, and how many play a game.

Every game with rules has a :class:`GameName`; the groups that parts of cardgen deal
with are named tuples of it, in the order they are printed. :class:`Players` says how
many play (the registry's games and the Node games' model use it). Imports nothing.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass


class GameName(enum.StrEnum):
    """Every game with rules, in the order a book of all of them prints them."""

    ROTATOR = "rotator"
    REFLECTOR = "reflector"
    DEFLECTOR = "deflector"
    DEFECTOR = "defector"
    CONNECTOR = "connector"
    LADDER = "ladder"


# Every game with a rules text (``templates/rules/GAME.md``), in book order.
RULES_GAMES: tuple[GameName, ...] = tuple(GameName)
# The games whose descriptions the Connector on the card's back hides, in player order
# (one card for Rotator, two for Reflector, ...).
CONNECTOR_GAMES: tuple[GameName, ...] = (
    GameName.ROTATOR, GameName.REFLECTOR, GameName.DEFLECTOR, GameName.DEFECTOR)
# The Node games: a Private and a Public grid per player, Control Nodes and territories.
NODE_GAMES: tuple[GameName, ...] = (GameName.REFLECTOR, GameName.DEFLECTOR, GameName.DEFECTOR)
# The games cardgen can generate boards for and solve.
SOLVER_GAMES: tuple[GameName, ...] = (GameName.ROTATOR,)


@dataclass(frozen=True)
class Players:
    """How many play a game: ``least`` to ``most`` (None: no upper limit)."""

    least: int
    most: int | None

    @property
    def words(self) -> str:
        """As the card prints it: "1 player", "3–5 players", "6+ players"."""
        if self.most is None:
            return f"{self.least}+ players"
        if self.most == self.least:
            return f"{self.least} player{'' if self.least == 1 else 's'}"
        return f"{self.least}–{self.most} players"

    def __contains__(self, count: object) -> bool:
        return isinstance(count, int) and self.least <= count and (
            self.most is None or count <= self.most)
