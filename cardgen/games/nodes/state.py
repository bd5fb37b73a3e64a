"""A Node game's position as SPEC §9.1.7 keeps it: the fixed set-up (:class:`Setup`: the
table, the seats, every player's secret Nodes and Deflectors, the variants) and the state
that moves change (:class:`State`: the marks, the used Deflectors, home grids, aimed-at
grids, who is out, the alliances, the Deluxe turn counts, whose turn it is).

Both are frozen: a move makes a new :class:`State` (``engine.push``) and leaves the old
one as it was, so a position can be explored. Everything else the rules speak of is
derived here, as §9.1.7 derives it: the *holder* of a space (its mark, else its grid's
owner, else nobody on the Island), the Nodes a player holds, his Node count, his bases.

The state also keeps what play has made public (:attr:`State.facts`, what each answer
revealed about a space, §9.1.8) and the reports of the moves so far, from which
``knowledge.view`` builds what one player knows. Pure: imports the record's values, the
table's joins, the alliances and the Node model.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache, cached_property
from types import MappingProxyType
from typing import TypeVar

from cardgen.games.names import GameName
from cardgen.games.nodes.alliance import Alliances
from cardgen.games.nodes.joins import Layout, seat_of
from cardgen.games.nodes.model import NODES, territory
from cardgen.games.nodes.record import (
    Coord,
    Ending,
    MoveReport,
    PlayerSetup,
    Result,
    Spot,
    Variant,
)

K = TypeVar("K")
V = TypeVar("V")


def frozen(items: Mapping[K, V] | Iterable[tuple[K, V]] = ()) -> Mapping[K, V]:
    """A read-only copy of a mapping: the states' dictionaries are never changed, only
    copied (copy-on-write)."""
    return MappingProxyType(dict(items))


@cache
def _grid_order(grid: str) -> int:
    seat = seat_of(grid)
    return seat if seat is not None else 1000 + int(grid[1:])


def reading(spot: Spot) -> tuple[int, int, int]:
    """Reading order within a grid (SPEC §9.1.3), grids by seat: Row 1 first, A to J."""
    return (_grid_order(spot[0]), spot[2], spot[1])


class Fact(enum.StrEnum):
    """What play has made public about one space (SPEC §9.1.8)."""

    NODE = "node"  # a Node is there (a Node answer, a revealed Node)
    COVERED = "covered"  # the space lies in a Node's territory (Owned, a captured territory)
    UNCOVERED = "uncovered"  # no Node's territory covers it (a Null answer)
    NOT_NODE = "not-node"  # no Node is there (Owned, Null, a Deflector, a crossed space)
    DEFLECTOR = "deflector"  # a Deflector was there; it is used now
    NO_DEFLECTOR = "no-deflector"  # no unused Deflector was there when it was answered


@dataclass(frozen=True)
class Setup:
    """What a game is played with, fixed from set-up to the end: the table (``layout``,
    SPEC §9.1.6), the seats in clockwise order, the secret placements (``nodes`` and
    ``deflectors`` by player grid, as coordinates on that grid) and the variants."""

    game: GameName
    layout: Layout
    seats: tuple[PlayerSetup, ...]
    variants: frozenset[Variant]
    first: str
    nodes: Mapping[str, frozenset[Coord]]
    deflectors: Mapping[str, frozenset[Coord]]

    @cached_property
    def owners(self) -> Mapping[str, str | None]:
        """Each grid's owner (None for the Island's)."""
        return frozen((g, self.layout.owner(g)) for g in self.layout.grids)

    @cached_property
    def players(self) -> tuple[str, ...]:
        return tuple(seat.id for seat in self.seats)

    @cached_property
    def reading(self) -> Mapping[Spot, tuple[int, int, int]]:
        """Every space of the table → its :func:`reading` key."""
        return {s: reading(s) for g in self.layout.grids for s in self.layout.spaces(g)}

    @cached_property
    def symbols(self) -> Mapping[str, str]:
        return frozen((seat.id, seat.symbol) for seat in self.seats)

    # -- the rules that apply --

    @property
    def reflection(self) -> bool:
        """Reflection (§9.3.4) follows every shot: Reflector, Defector, and Deflector's
        Reflector-Deflector variant."""
        return self.game is not GameName.DEFLECTOR or Variant.REFLECTION in self.variants

    def has(self, variant: Variant) -> bool:
        return variant in self.variants

    # -- Nodes, territories and Deflectors --

    @cached_property
    def node_spots(self) -> tuple[Spot, ...]:
        """Every Node on the table, grid by grid in seat order, in reading order."""
        return tuple(sorted(((g, *c) for g, cs in self.nodes.items() for c in cs),
                            key=reading))

    @cached_property
    def _nodes(self) -> frozenset[Spot]:
        return frozenset(self.node_spots)

    def is_node(self, spot: Spot) -> bool:
        return spot in self._nodes

    def grid_nodes(self, grid: str) -> tuple[Spot, ...]:
        """The Nodes of one grid, in reading order (none on the Island)."""
        return self._grid_nodes.get(grid, ())

    @cached_property
    def _grid_nodes(self) -> Mapping[str, tuple[Spot, ...]]:
        found: dict[str, list[Spot]] = {}
        for n in self.node_spots:
            found.setdefault(n[0], []).append(n)
        return frozen((g, tuple(ns)) for g, ns in found.items())

    @cached_property
    def _deflectors(self) -> frozenset[Spot]:
        return frozenset((g, *c) for g, cs in self.deflectors.items() for c in cs)

    def is_deflector(self, spot: Spot) -> bool:
        """A Deflector was placed on ``spot`` (used or not)."""
        return spot in self._deflectors

    @cached_property
    def _territories(self) -> Mapping[Spot, tuple[Spot, ...]]:
        return frozen((n, tuple(sorted(((n[0], *c) for c in territory(n[1], n[2])),
                                       key=reading))) for n in self.node_spots)

    def territory(self, node: Spot) -> tuple[Spot, ...]:
        """T(N) in reading order, N included (SPEC §9.1.4)."""
        return self._territories[node]

    @cached_property
    def _covering(self) -> Mapping[Spot, tuple[Spot, ...]]:
        found: dict[Spot, list[Spot]] = {}
        for node in self.node_spots:
            for spot in self.territory(node):
                found.setdefault(spot, []).append(node)
        return frozen((s, tuple(ns)) for s, ns in found.items())

    def covering(self, spot: Spot) -> tuple[Spot, ...]:
        """The Nodes whose territory holds ``spot`` (a Node covers itself)."""
        return self._covering.get(spot, ())

    def covered(self, spot: Spot) -> bool:
        return spot in self._covering

    @property
    def total_nodes(self) -> int:
        return NODES * len(self.seats)


@dataclass(frozen=True)
class Finish:
    """How a game ended: the result, why, who won (or drew), and Reflector's space
    counts when they decided it."""

    result: Result
    reason: Ending
    winners: tuple[str, ...]
    spaces: Mapping[str, int] = field(default_factory=frozen)


@dataclass(frozen=True)
class State:
    """A position between moves (SPEC §9.1.7). ``to_move`` is None once the game is over
    (``finish`` says how); ``begun`` turns true at the first shot or pass, ``united`` when
    a union has been made in the current turn, and ``passed`` holds the players who have
    passed since the last shot (for the stalemate, §9.5.9)."""

    setup: Setup
    marks: Mapping[Spot, str]
    used: frozenset[Spot]
    homes: Mapping[str, frozenset[str]]
    aimed: Mapping[str, frozenset[str]]
    out: frozenset[str]
    alliances: Alliances
    turns: Mapping[str, int]
    to_move: str | None
    passed: frozenset[str] = frozenset()
    begun: bool = False
    united: bool = False
    finish: Finish | None = None
    facts: Mapping[Spot, frozenset[Fact]] = field(default_factory=frozen)
    history: tuple[MoveReport, ...] = ()

    @property
    def layout(self) -> Layout:
        return self.setup.layout

    # -- who holds what (§9.1.7) --

    def holder(self, spot: Spot) -> str | None:
        """mark(s), else the grid's owner; None for an unwon Island space."""
        return holder(self.setup, self.marks, spot)

    def unused_deflector(self, spot: Spot) -> bool:
        return self.setup.is_deflector(spot) and spot not in self.used

    def nodes_held(self, player: str) -> tuple[Spot, ...]:
        """The Nodes ``player`` holds, in the order of :attr:`Setup.node_spots`."""
        return self._held.get(player, ())

    @cached_property
    def _held(self) -> Mapping[str, tuple[Spot, ...]]:
        """Each holder → the Nodes he holds (the state is frozen: found once)."""
        found: dict[str | None, list[Spot]] = {}
        for n in self.setup.node_spots:
            found.setdefault(self.holder(n), []).append(n)
        return frozen((p, tuple(ns)) for p, ns in found.items() if p is not None)

    def node_count_on(self, player: str, grid: str) -> int:
        """How many of ``grid``'s Nodes ``player`` holds."""
        return sum(1 for n in self.setup.grid_nodes(grid) if self.holder(n) == player)

    def node_count(self, player: str) -> int:
        return len(self.nodes_held(player))

    def in_game(self, player: str) -> bool:
        return player not in self.out

    @property
    def playing(self) -> tuple[str, ...]:
        """The players still in the game, in seat order."""
        return tuple(p for p in self.setup.players if p not in self.out)

    def allies(self, player: str) -> frozenset[str]:
        return self.alliances.allies(player)

    def side(self, player: str) -> frozenset[str]:
        """The player and his allies: whose marks are his bases, whose homes his entry
        points (§9.6.6)."""
        return self.allies(player) | {player}

    def may_take(self, claimant: str, spot: Spot) -> bool:
        """§9.3.2: C may take s unless he holds it, or s is a won non-Node space inside
        the territory of a Node that C holds."""
        return may_take(self.setup, self.marks, claimant, spot)

    def bases(self, players: frozenset[str]) -> tuple[Spot, ...]:
        """The spaces marked by any of ``players`` (unwon spaces are never bases)."""
        return tuple(s for s, p in self.marks.items() if p in players)


# The two derived rules, for a state and for a turn's working copy of the marks alike.

def holder(setup: Setup, marks: Mapping[Spot, str], spot: Spot) -> str | None:
    """The holder of ``spot`` (§9.1.7): its mark, else its grid's owner; nobody holds an
    unwon Island space."""
    mark = marks.get(spot)
    return mark if mark is not None else setup.owners[spot[0]]


def may_take(setup: Setup, marks: Mapping[Spot, str], claimant: str, spot: Spot) -> bool:
    """§9.3.2: C may take s unless C already holds s, or s is not a Node, carries another
    player's mark and lies in the territory of a Node that C holds."""
    if holder(setup, marks, spot) == claimant:
        return False
    if setup.is_node(spot) or spot not in marks:
        return True
    return not any(holder(setup, marks, n) == claimant for n in setup.covering(spot))
