"""The Node games' plain implementations: the hot paths of the engine and the computer as
they were first written, straight from SPEC §9's words, kept as the definition that the
fast ones must equal. The tests compare the two over many seeded positions
(``tests/test_nodes_speed.py``) and ``benchmarks/bench_nodes_speed.py`` times them
against each other; nothing else uses this module.

- :func:`shots` and :func:`legal_moves` (``engine``'s) find the reach space by space
  (every base's meeting spaces, every entry space of every grid) and ask of each whether
  the player may take it (the engine's own reasons, ``no-such-space`` to ``ally``).

Pure: imports the engine and the state.
"""

from __future__ import annotations

from collections.abc import Sequence

from cardgen.games.names import GameName
from cardgen.games.nodes import engine
from cardgen.games.nodes.joins import SIZE
from cardgen.games.nodes.record import Move, Pass, Shot, Spot
from cardgen.games.nodes.state import State, reading

# --- reach and the legal shots (§9.4.3, §9.5.3-9.5.4, §9.6.6, §9.6.9) -------------------


def reach(state: State, player: str) -> set[Spot]:
    """Every space in reach of ``player`` (before the rules of what he may take)."""
    layout, side = state.layout, state.side(player)
    found: set[Spot] = set()
    if state.setup.game is GameName.REFLECTOR:
        target = next(g for g in layout.grids if g != player)
        if target not in state.aimed[player]:
            found.update((target, c, 1) for c in range(SIZE))
        for base in state.bases(frozenset({player})):
            found.update(m for m in layout.meets(base) if m[0] == base[0])
        return found
    bases = state.bases(side)
    for base in bases:
        found.update(engine._reached_from(state, player, base))
    homes = engine._homes(state, player)
    for grid in layout.grids:
        if engine._entry_open(state, player, grid, homes, bases):
            for home in homes:
                if layout.joined(grid, home):
                    found.update((grid, c, r) for c in range(SIZE) for r in range(1, SIZE + 1)
                                 if layout.on_stretch_joined_to((grid, c, r), home))
    return found


def shots(state: State) -> list[Shot]:
    """Every legal shot of the player to move, in seat and reading order."""
    player = state.to_move
    if player is None:
        return []
    found = [s for s in reach(state, player) if engine._take_reason(state, player, s) is None]
    return [Shot(player, s) for s in sorted(found, key=reading)]


def legal_moves(state: State) -> list[Move]:
    """Alliance moves (Defector), then the legal shots, or the pass when there are none."""
    if state.finish is not None or state.to_move is None:
        return []
    moves: list[Move] = []
    if state.setup.game is GameName.DEFECTOR:
        moves += engine.alliance_moves(state)
    found: Sequence[Move] = shots(state)
    moves += found if found else [Pass(state.to_move)]
    return moves
