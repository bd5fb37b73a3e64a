"""The Node games' plain implementations: the hot paths of the engine and the computer as
they were first written, straight from SPEC §9's words, kept as the definition that the
fast ones must equal. The tests compare the two over many seeded positions
(``tests/test_nodes_speed.py``) and ``benchmarks/bench_nodes_speed.py`` times them
against each other; nothing else uses this module.

- :func:`shots` and :func:`legal_moves` (``engine``'s) find the reach space by space
  (every base's meeting spaces, every entry space of every grid) and ask of each whether
  the player may take it (the engine's own reasons, ``no-such-space`` to ``ally``);
- :func:`view` (``knowledge``'s) copies every report into a player's view and lists his
  moves with the plain :func:`legal_moves`;
- :func:`constraints` (``computer``'s) asks what is known of each of a grid's 100 spaces
  and reads every report; :class:`PlainBelief` draws its placements with the
  generator's own methods and counts each one as it is drawn, space by space;
  :class:`PlainComputer` is the computer choosing with both.

Pure: imports the engine, the knowledge, the computer and the state.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from cardgen.games.names import GameName
from cardgen.games.nodes import computer, engine, knowledge
from cardgen.games.nodes.computer import ALL, STEPS_BETWEEN, Belief, Constraints, near
from cardgen.games.nodes.joins import SIZE
from cardgen.games.nodes.knowledge import Seat, Side, View
from cardgen.games.nodes.model import NODES
from cardgen.games.nodes.record import Coord, Move, Pass, Shot, Spot, Unite
from cardgen.games.nodes.state import Fact, State, frozen, reading
from cardgen.games.rng import SplitMix64

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


# --- what a player knows (§9.1.8) -------------------------------------------------------


def view(state: State, player: str) -> View:
    """What ``player`` knows in ``state``: ``knowledge.view`` as first written."""
    setup = state.setup
    if player not in setup.players:
        raise ValueError(f"{player} is not a player at this table")
    knows = frozenset(p for p in setup.players if state.alliances.knows(player, p))
    sides = tuple(Side(v.members, tuple(members for _, members in v.groups),
                       v.master is not None) for v in state.alliances.views())
    history = tuple(replace(r, alliances=None) for r in state.history)
    legal = tuple(m for m in legal_moves(state) if m.by == player and not (
        isinstance(m, Unite) and any(n is not None and n[0] not in knows
                                     for n in (m.link, m.master))))
    return View(
        player, setup.game, setup.layout,
        tuple(Seat(s.id, s.name, s.symbol) for s in setup.seats), setup.variants,
        state.to_move, state.marks, state.used, state.homes, state.aimed, state.out,
        state.turns, sides, state.alliances.divided,
        frozen((p, knowledge._secrets(state, p)) for p in setup.players if p in knows),
        state.facts, history, state.finish, legal)


# --- the computer's belief about a grid --------------------------------------------------


def constraints(view: View, grid: str) -> Constraints:
    """``computer.constraints`` as first written: every space of the grid asked, every
    report read."""
    known: set[Coord] = set()
    excluded: set[Coord] = set()
    covered: list[Coord] = []
    for coord in ALL:
        facts = view.known((grid, *coord))
        if Fact.NODE in facts:
            known.add(coord)
        elif Fact.NOT_NODE in facts:
            excluded.add(coord)
        if Fact.UNCOVERED in facts:
            excluded |= near(coord)
        elif Fact.COVERED in facts:
            covered.append(coord)
    needs: list[frozenset[Coord]] = []
    held: set[Coord] = set()  # the grid's Nodes the player had captured so far
    me = view.player
    for report in view.history:
        won = set(report.won.get(me, ()))
        for node in report.captured:
            if node[0] != grid:
                continue
            if node not in won:
                held.discard(node[1:])
                continue
            centre = node[1:]
            kept = {s[1:] for s in report.kept if s[0] == grid}
            for coord in near(centre) - {centre}:
                if coord in kept:
                    others = near(coord) - {centre} - held
                    if not others & (known - held):
                        needs.append(frozenset(others))
                elif (grid, *coord) in won:
                    excluded |= near(coord) - held - {centre}
            held.add(centre)
    candidates = frozenset(ALL) - excluded - known
    unexplained = [frozenset(near(c) & candidates) for c in covered
                   if not near(c) & known]
    needs += unexplained
    trimmed = tuple(sorted({frozenset(n & candidates) for n in needs},
                           key=lambda s: (len(s), sorted(s))))
    return Constraints(frozenset(known), max(0, NODES - len(known)), candidates, trimmed)


class PlainBelief(Belief):
    """``computer.Belief`` with its walk as first written: the generator's methods, and
    every placement counted, space by space, as it is drawn."""

    def _walk(self, rng: SplitMix64, placed: list[Coord], samples: int) -> None:
        facts = self.facts
        pool = sorted(facts.candidates)
        index = {c: [i for i, n in enumerate(facts.needs) if c in n] for c in pool}
        met = [0] * len(facts.needs)
        for c in placed:
            for i in index[c]:
                met[i] += 1
        inside = set(placed)
        for step in range(samples * STEPS_BETWEEN):
            if placed and len(pool) > len(placed):
                k = rng.below(len(placed))
                old, new = placed[k], pool[rng.below(len(pool))]
                if new not in inside:
                    gained = set(index[new])
                    if all(met[i] > 1 or i in gained for i in index[old]):
                        for i in index[old]:
                            met[i] -= 1
                        for i in gained:
                            met[i] += 1
                        placed[k] = new
                        inside.discard(old)
                        inside.add(new)
            if step % STEPS_BETWEEN == 0:
                self._count(placed)

    def _count(self, placed: Sequence[Coord]) -> None:
        self.samples += 1
        covered: set[Coord] = set()
        for c in placed:
            self.node[c] += 1
            covered |= near(c)
        for c in covered:
            self.cover[c] += 1


class PlainComputer(computer.Computer):
    """The computer choosing with :class:`PlainBelief` and the plain
    :func:`constraints` (give it views made by :func:`view`)."""

    believe = PlainBelief
    constraints = staticmethod(constraints)
