"""What one player knows (SPEC §9.1.8), as a value he could hold: a computer player is
written against a :class:`View` and can never see hidden state.

Three things are secret: where the Nodes are, where the Deflectors are, and which Nodes
are Links or Masters. A player knows his own and those of every player who is or has
been his ally (decision 53). Everything else is public: the table, the seats and
symbols, the variants, every move and answer and mark, the used Deflectors, the home
grids and who is out, the alliances (their members, not their designations), and what
each answer revealed about a space (:class:`~cardgen.games.nodes.state.Fact`). Two
states that differ only in what a player cannot know give him equal views.
Pure.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from functools import cached_property

from cardgen.games.names import GameName
from cardgen.games.nodes import engine
from cardgen.games.nodes.joins import SIZE, Layout
from cardgen.games.nodes.record import Coord, Move, MoveReport, Spot, Unite, Variant
from cardgen.games.nodes.state import Fact, Finish, State, frozen


@dataclass(frozen=True)
class Seat:
    """A seat as everyone sees it."""

    id: str
    name: str
    symbol: str


@dataclass(frozen=True)
class Secrets:
    """One grid's secrets, for a player who knows them: its Nodes, its Deflectors (used
    or not), and its Link and Master Nodes."""

    nodes: frozenset[Coord]
    deflectors: frozenset[Coord]
    links: frozenset[Coord] = frozenset()
    masters: frozenset[Coord] = frozenset()


@dataclass(frozen=True)
class Side:
    """An alliance as everyone sees it: its members, its Link groups' members, and
    whether it has a Master (not which Nodes hold it together)."""

    members: tuple[str, ...]
    groups: tuple[tuple[str, ...], ...]
    has_master: bool


@dataclass(frozen=True)
class View:
    """Everything ``player`` may know at this point of the game."""

    player: str
    game: GameName
    layout: Layout
    seats: tuple[Seat, ...]
    variants: frozenset[Variant]
    to_move: str | None
    marks: Mapping[Spot, str]
    used: frozenset[Spot]
    homes: Mapping[str, frozenset[str]]
    aimed: Mapping[str, frozenset[str]]
    out: frozenset[str]
    turns: Mapping[str, int]
    alliances: tuple[Side, ...]
    divided: frozenset[frozenset[str]]
    secrets: Mapping[str, Secrets]  # by grid: his own, and those of players he knows
    facts: Mapping[Spot, frozenset[Fact]]
    history: tuple[MoveReport, ...]  # every report, alliances' designations left out
    finish: Finish | None
    legal: tuple[Move, ...]  # his moves now (none when it is not his turn)

    @cached_property
    def _facts_by_grid(self) -> dict[str, dict[Coord, frozenset[Fact]]]:
        found: dict[str, dict[Coord, frozenset[Fact]]] = {}
        for spot, facts in self.facts.items():
            found.setdefault(spot[0], {})[spot[1:]] = facts
        return found

    def grid_facts(self, grid: str) -> Iterable[tuple[Coord, frozenset[Fact]]]:
        """What is known of the spaces of ``grid`` (:meth:`known`), for those spaces
        of which something is known: every space of a grid whose secrets he knows."""
        if grid in self.secrets:
            return [((c, r), self.known((grid, c, r)))
                    for r in range(1, SIZE + 1) for c in range(SIZE)]
        return self._facts_by_grid.get(grid, {}).items()

    @cached_property
    def captures(self) -> tuple[MoveReport, ...]:
        """The reports of :attr:`history` that capture a Node, in order."""
        return tuple(r for r in self.history if r.captured)

    def knows(self, grid: str) -> bool:
        """Whether the player knows ``grid``'s secrets."""
        return grid in self.secrets

    def known(self, spot: Spot) -> frozenset[Fact]:
        """What is known of ``spot``: from its grid's secrets when he knows them, else
        from what play has revealed."""
        secrets = self.secrets.get(spot[0])
        if secrets is None:
            return self.facts.get(spot, frozenset())
        coord = spot[1:]
        found = {Fact.NODE if coord in secrets.nodes else Fact.NOT_NODE}
        if coord in secrets.deflectors:
            found.add(Fact.DEFLECTOR)
        elif spot not in self.used:
            found.add(Fact.NO_DEFLECTOR)
        return frozenset(found) | self.facts.get(spot, frozenset())


def _secrets(state: State, grid: str) -> Secrets:
    designated = state.alliances.designated()
    masters = {a.master for a in state.alliances.alliances if a.master is not None}
    return Secrets(state.setup.nodes[grid], state.setup.deflectors[grid],
                   frozenset(n[1:] for n in designated - masters if n[0] == grid),
                   frozenset(n[1:] for n in masters if n[0] == grid))


def _legal(state: State, player: str, knows: frozenset[str]) -> tuple[Move, ...]:
    """The player's moves now. Unions are listed only with designations on grids he
    knows: the other side's Nodes are the other side's to offer."""
    moves = []
    for move in engine.legal_moves(state):
        if move.by != player:
            continue
        if isinstance(move, Unite) and any(n is not None and n[0] not in knows
                                           for n in (move.link, move.master)):
            continue
        moves.append(move)
    return tuple(moves)


def view(state: State, player: str) -> View:
    """What ``player`` knows in ``state`` (SPEC §9.1.8)."""
    setup = state.setup
    if player not in setup.players:
        raise ValueError(f"{player} is not a player at this table")
    knows = frozenset(p for p in setup.players if state.alliances.knows(player, p))
    sides = tuple(Side(v.members, tuple(members for _, members in v.groups),
                       v.master is not None) for v in state.alliances.views())
    history = tuple(r if r.alliances is None else replace(r, alliances=None)
                    for r in state.history)
    return View(
        player, setup.game, setup.layout,
        tuple(Seat(s.id, s.name, s.symbol) for s in setup.seats), setup.variants,
        state.to_move, state.marks, state.used, state.homes, state.aimed, state.out,
        state.turns, sides, state.alliances.divided,
        frozen((p, _secrets(state, p)) for p in setup.players if p in knows),
        state.facts, history, state.finish, _legal(state, player, knows))
