"""The Node games' model (SPEC §4, §9.1 and §9.2): what every Reflector, Deflector and
Defector table is made of, stated once for the play sheets, the rules' figures and the
table arrangements.

- Every player owns one grid. His **Private** grid and his **Public** grid are two views
  of that one grid (:class:`Role`); Defector's Island adds grids that nobody owns.
- On the card the Public grid is grid A, the upper one, and the Private grid is grid B,
  the lower one (:data:`CARD_GRID`); figures tint them as the card does
  (``board.art.GRID_TINTS``).
- Each player hides :data:`NODES` Control Nodes on his grid and, in Deflector and
  Defector, :data:`DEFLECTORS` Deflectors (:func:`deflectors`): the two tallies a
  player keeps on his play sheet.
- A Node's territory (:func:`territory`) is the spaces of its own grid within
  Manhattan distance 2; it never crosses into another grid.
- Reflector is played by two, Deflector by three to five, Defector by six or more
  (:func:`player_range`).
- A space is named as printed: column letter, then row (:func:`space_name`, ``D4``).

Spaces on one grid are (column 0..9, row 1..10). Pure: imports ``cardgen.board``'s
models and ``cardgen.games.names``.
"""

from __future__ import annotations

import enum

from cardgen.board.cells import COLUMNS, Grid, board_cell, grid_of, grid_position
from cardgen.board.territory import territory as board_territory
from cardgen.games.names import GameName, Players

Space = tuple[int, int]  # (column 0..9, row 1..10) on one grid

NODES = 5  # Control Nodes on every player's grid (SPEC §4, §9.2.1)
DEFLECTORS = 20  # Deflectors per grid in Deflector and Defector (SPEC §4, §9.2.2)


class Role(enum.StrEnum):
    """What a grid on the table is: one of the two views of a player's grid, or an
    Island grid (SPEC §9.1.2)."""

    PUBLIC = "public"  # the grid whose revealed squares everyone sees
    PRIVATE = "private"  # the grid its owner keeps hidden
    ISLAND = "island"  # an empty grid of the shared middle, nobody's


# Which of the card's two grids is each view of a player's grid.
CARD_GRID: dict[Role, Grid] = {Role.PUBLIC: Grid.A, Role.PRIVATE: Grid.B}


# Who plays what (SPEC §9): Reflector two, Deflector three to five, Defector six or more.
PLAYERS: dict[GameName, Players] = {
    GameName.REFLECTOR: Players(2, 2), GameName.DEFLECTOR: Players(3, 5),
    GameName.DEFECTOR: Players(6, None)}
# The seeds name no upper bound for Defector; cardgen stops at twelve, the most the table
# arrangements' data allows too: twelve play sheets, and a table where a player may have
# to claim a way through eleven other grids.
MOST_PLAYERS = 12


def player_range(game: GameName) -> tuple[int, int]:
    """The fewest and most players cardgen prints a Node game for."""
    players = PLAYERS[game]
    return players.least, MOST_PLAYERS if players.most is None else players.most


# Deflector is won by holding this many Nodes, by number of players (SPEC §9.5.9 step 2).
DEFLECTOR_THRESHOLD = {3: 10, 4: 13, 5: 15}


def majority(players: int) -> int:
    """Defector is won by holding more than half of all the Nodes on the table (SPEC
    §9.6.8 step 1): 16 of 30 with six players."""
    return NODES * players // 2 + 1


def deflectors(game: GameName) -> int:
    """How many Deflectors each player's grid holds in a Node game (none in Reflector)."""
    return 0 if game is GameName.REFLECTOR else DEFLECTORS


def territory(column: int, row: int) -> frozenset[Space]:
    """T(N) of the Node at (``column``, ``row``): the spaces of its own grid within
    distance 2, clipped to that grid (the grid across the fold is another player's)."""
    node = board_cell(Grid.B, column, row)
    return frozenset(grid_position(c)[1:] for c in board_territory(node)
                     if grid_of(c) is Grid.B)


def space_name(space: Space) -> str:
    """A space's name as the rules write it: column letter, then row (``(3, 4)`` is
    D4)."""
    return f"{COLUMNS[space[0]]}{space[1]}"
