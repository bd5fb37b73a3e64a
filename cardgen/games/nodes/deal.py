"""Seeded set-ups of the Node games: every player's 5 Nodes and (in Deflector and
Defector) 20 Deflectors placed at random on his own grid (SPEC §9.2), the same on every
machine (:class:`~cardgen.games.rng.SplitMix64`). For tests, property tests and computer
players that need a table to play on. Pure.
"""

from __future__ import annotations

from cardgen.games.names import GameName
from cardgen.games.nodes.model import NODES, deflectors
from cardgen.games.nodes.record import Coord, PlayerSetup, Record, Variant
from cardgen.games.rng import SplitMix64

# The table each game is dealt on when none is named.
DEFAULT_ARRANGEMENT: dict[GameName, dict[int, str]] = {
    GameName.DEFLECTOR: {3: "table-3", 4: "table-4-full", 5: "table-5-full"},
}
SYMBOLS = "XOTSVWZHKMNA"  # one per seat, up to twelve players


def arrangement_for(game: GameName, players: int) -> str | None:
    if game is GameName.REFLECTOR:
        return None
    if game is GameName.DEFECTOR:
        return "defector-full"
    return DEFAULT_ARRANGEMENT[game][players]


def placement(pick: SplitMix64, count: int, avoid: frozenset[Coord] = frozenset(),
              ) -> tuple[Coord, ...]:
    """``count`` different spaces of a grid, none in ``avoid``, in the order drawn."""
    free = [(c, r) for r in range(1, 11) for c in range(10) if (c, r) not in avoid]
    chosen = []
    for _ in range(count):
        chosen.append(free.pop(pick.below(len(free))))
    return tuple(chosen)


def deal(game: GameName, players: int, seed: int, *, arrangement: str | None = None,
         variants: frozenset[Variant] = frozenset()) -> Record:
    """A record with a random set-up and no moves; ``first`` is P1."""
    pick = SplitMix64(seed)
    seats = []
    for k in range(1, players + 1):
        nodes = placement(pick, NODES)
        placed = placement(pick, deflectors(game), frozenset(nodes))
        seats.append(PlayerSetup(f"P{k}", f"Player {k}", SYMBOLS[k - 1], nodes, placed))
    chosen = arrangement if arrangement is not None else arrangement_for(game, players)
    return Record(game, tuple(seats), "P1", (), chosen, variants)
