"""The names of the games cardgen knows, spelled once.

Every game with rules has a :class:`GameName`; the groups that parts of cardgen deal
with are named tuples of it, in the order they are printed. Imports nothing.
"""

from __future__ import annotations

import enum


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
