"""Computer players for the Node games (SPEC §9): where one hides its Nodes and
Deflectors, and which move it makes, from what it may know only.

A :class:`Computer` chooses from a :class:`~cardgen.games.nodes.knowledge.View`, which
holds nothing a player may not know (SPEC §9.1.8); it keeps no memory between moves, and
its random choices come from its seed and the number of moves played, so the same seed
and the same view always give the same move.

**Reflector** (§9.4). Every shot exchanges one pair of coordinates: the Shooter wins the
Target's space and concedes his own space with the same coordinates (reflection,
§9.3.4). So the computer

- keeps the set of the opponent's Node placements that agree with every revealed fact
  (a Null answer: no Node within distance 2; Owned: covered, not a Node; Node answers,
  revealed Nodes; a captured territory's kept spaces are covered by another Node, and
  the rest by none that the capturer does not hold), and draws a bounded number of them
  at random (:class:`Belief`) to estimate each space's chance of being a Node or covered;
- values a shot by what it expects to win (a Node takes its territory) and by what the
  reflection hands over on its own grid: never its own Node when it can help it, and as
  little as it can near its own Nodes;
- prefers shots that open reach towards likely Nodes.

It hides its Nodes apart (no two territories overlap, so a capture reveals no other
Node) and away from Row 1, where every Reflector game starts.

**Deflector and Defector** (§9.5, §9.6): the same idea, simply: capture known Nodes, win
back its own, hunt near Owned answers and away from Null ones, and mind what a
reflection concedes. It proposes no alliances and never leaves one; it passes only when
the rules leave nothing else. Deflectors go outside its territories (a Deflector inside a
captured territory fires for the capturer), on the stretches joined to other grids.

Pure: imports the Node model and the seeded generator.
"""

from __future__ import annotations

import functools
import operator
import struct
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Protocol

from cardgen.games.names import GameName
from cardgen.games.nodes import deal, engine, joins, knowledge
from cardgen.games.nodes.joins import Layout
from cardgen.games.nodes.knowledge import View
from cardgen.games.nodes.model import NODES, deflectors, territory
from cardgen.games.nodes.record import (
    Coord,
    Move,
    Pass,
    PlayerSetup,
    Record,
    Result,
    Shot,
    Spot,
    Variant,
)
from cardgen.games.nodes.state import Fact, State
from cardgen.games.rng import SplitMix64

LEVELS = ("easy", "normal")  # easy: any legal shot; normal: the strategy above
ALL: tuple[Coord, ...] = tuple((c, r) for r in range(1, 11) for c in range(10))
_MASK64 = (1 << 64) - 1
_SPAN = 1 << 64
_GOLDEN, _MIX1, _MIX2 = 0x9E3779B97F4A7C15, 0xBF58476D1CE4E5B9, 0x94D049BB133111EB  # SplitMix64

# How many consistent placements a move draws, and the chain steps between draws.
SAMPLES = 120
STEPS_BETWEEN = 3

# A Belief counts each space's draws in a field of one integer: the space at ALL[i] has
# the bits from i * _FIELD, so adding two integers adds every space's counts at once.
_FIELD = 32  # bits: room for 2**32 - 1 draws
_LANE = 128  # bits per lane when the generator's outputs are worked out side by side


@cache
def near(coord: Coord) -> frozenset[Coord]:
    """The spaces within distance 2 of ``coord`` on its grid (its territory)."""
    return territory(*coord)


@cache
def sides(coord: Coord) -> tuple[Coord, ...]:
    """The spaces sharing a side with ``coord`` on its grid."""
    c, r = coord
    return tuple((x, y) for x, y in ((c - 1, r), (c + 1, r), (c, r - 1), (c, r + 1))
                 if 0 <= x < 10 and 1 <= y <= 10)


_NODE_BIT = {c: 1 << (i * _FIELD) for i, c in enumerate(ALL)}  # one count for c
_COVER_BITS = {c: sum(_NODE_BIT[t] for t in near(c)) for c in ALL}  # one for each space c covers


@cache
def _lanes(count: int) -> tuple[int, int, struct.Struct]:
    """For :func:`_outputs`: the generator's steps 1 … ``count`` (each a multiple of its
    increment, mod 2**64) and a 64-bit mask, each in one lane of 128 bits of an integer;
    the layout of those lanes as bytes."""
    steps = sum((((j + 1) * _GOLDEN) & _MASK64) << (_LANE * j) for j in range(count))
    ones = sum(1 << (_LANE * j) for j in range(count))
    return steps, ones * _MASK64, struct.Struct("<" + "Q8x" * count)


def _outputs(at: int, count: int) -> tuple[list[int], int]:
    """The next ``count`` outputs of a SplitMix64 at state ``at`` (:meth:`SplitMix64.next`
    ``count`` times) and its state after, computed in one go: the k-th output is a
    function of the state plus k increments, so all of them are worked out side by side,
    one per lane of one integer (a lane's product never reaches the next lane)."""
    if count == 0:
        return [], at
    steps, masks, layout = _lanes(count)
    z = (at * (masks // _MASK64) + steps) & masks
    z = (((z ^ (z >> 30)) & masks) * _MIX1) & masks
    z = (((z ^ (z >> 27)) & masks) * _MIX2) & masks
    z = (z ^ (z >> 31)) & masks
    return list(layout.unpack(z.to_bytes(layout.size, "little"))), \
        (at + count * _GOLDEN) & _MASK64


def distance(a: Coord, b: Coord) -> int:
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


def _mix(*values: int) -> int:
    """One 64-bit seed from several integers (SplitMix64 steps, the same everywhere)."""
    state = 0x6A09E667F3BCC909
    for value in values:
        state = SplitMix64((state ^ value) & _MASK64).next()
    return state


def _shuffled(rng: SplitMix64, items: Iterable[Coord]) -> list[Coord]:
    found = list(items)
    for i in range(len(found) - 1, 0, -1):
        j = rng.below(i + 1)
        found[i], found[j] = found[j], found[i]
    return found


# --- what is known of one opponent's grid -------------------------------------------------


@dataclass(frozen=True)
class Constraints:
    """What every placement of one grid's Nodes still unknown must satisfy: ``count``
    Nodes among ``candidates``, with at least one in each of ``needs`` (a covered space
    that no known Node explains)."""

    known: frozenset[Coord]  # Nodes of the grid the player knows are there
    count: int  # Nodes still unknown
    candidates: frozenset[Coord]
    needs: tuple[frozenset[Coord], ...]


def constraints(view: View, grid: str) -> Constraints:
    """The facts of ``grid`` as ``view``'s player knows them (SPEC §9.1.8): answers and
    revealed Nodes from ``view.known``, and from the reports of captures on the grid,
    which spaces of a captured territory were kept (covered by another Node its capturer
    did not hold) and which were won (covered by none he did not hold)."""
    known: set[Coord] = set()
    excluded: set[Coord] = set()
    covered: list[Coord] = []
    for coord, facts in view.grid_facts(grid):
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
    for report in view.captures:
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


class Belief:
    """Placements of a grid's unknown Nodes drawn from those that agree with the
    :class:`Constraints`: a random consistent placement, then a Markov chain that moves
    one Node at a time to another candidate while every need stays met (a symmetric
    proposal, so every consistent placement is equally likely in the long run)."""

    batched = True  # draw the walk's numbers all at once (:func:`_outputs`)

    def __init__(self, facts: Constraints, rng: SplitMix64, samples: int = SAMPLES) -> None:
        self.facts = facts
        self.samples = 0
        self.node = dict.fromkeys(ALL, 0.0)
        self.cover = dict.fromkeys(ALL, 0.0)
        start = self._first(rng)
        if start is None:  # the facts contradict each other: fall back on the candidates
            self._spread()
            return
        self._walk(rng, start, samples)

    def _first(self, rng: SplitMix64) -> list[Coord] | None:
        facts = self.facts
        if facts.count == 0:
            return [] if not facts.needs else None
        pool = sorted(facts.candidates)
        budget = [4000]

        def grow(chosen: list[Coord]) -> bool:
            budget[0] -= 1
            if budget[0] < 0:
                return False
            placed = set(chosen)
            open_needs = [n for n in facts.needs if not n & placed]
            if not open_needs:
                rest = [c for c in pool if c not in placed]
                if len(rest) < facts.count - len(chosen):
                    return False
                for c in _shuffled(rng, rest)[:facts.count - len(chosen)]:
                    chosen.append(c)
                return True
            if len(chosen) == facts.count:
                return False
            need = min(open_needs, key=len)
            for c in _shuffled(rng, sorted(need)):
                chosen.append(c)
                if grow(chosen):
                    return True
                chosen.pop()
            return False

        chosen: list[Coord] = []
        return chosen if grow(chosen) else None

    def _walk(self, rng: SplitMix64, placed: list[Coord], samples: int) -> None:
        """Move one Node at a time (a random one to a random candidate, kept when every
        need stays met) for ``samples`` × ``STEPS_BETWEEN`` steps, counting the placement
        after every ``STEPS_BETWEEN``-th. The generator is stepped here as
        :meth:`SplitMix64.below` steps it, and every space's counts are kept in one
        integer (:data:`_NODE_BIT`, :data:`_COVER_BITS`), so the counts, and the
        generator's state after, are those of drawing and counting one step at a time
        (``reference.PlainBelief``; the tests hold the two equal)."""
        facts = self.facts
        pool = sorted(facts.candidates)
        how_many, choices = len(placed), len(pool)
        nodes = covers = 0  # every space's counts, a field of _FIELD bits each
        node_bit, cover_bits = _NODE_BIT, _COVER_BITS
        if not placed or choices <= how_many:  # nothing can move: every count the same
            nodes = samples * sum(node_bit[c] for c in placed)
            covers = samples * functools.reduce(operator.or_,
                                                (cover_bits[c] for c in placed), 0)
        else:
            index = {c: tuple(i for i, n in enumerate(facts.needs) if c in n) for c in pool}
            met = [0] * len(facts.needs)
            for c in placed:
                for i in index[c]:
                    met[i] += 1
            inside = set(placed)
            below_k = _SPAN - _SPAN % how_many  # SplitMix64.below's rejection limits
            below_p = _SPAN - _SPAN % choices
            steps = samples * STEPS_BETWEEN
            drawn, after = _outputs(rng.state, 2 * steps) if self.batched else ([], 0)
            picks, spots = drawn[0::2], drawn[1::2]
            if not (picks and max(picks) < below_k and max(spots) < below_p):
                picks, spots, after = self._stepwise(rng.state, steps, below_k, below_p)
            rng.state = after
            node_now = cover_now = -1
            for step in range(steps):
                k = picks[step] % how_many
                old, new = placed[k], pool[spots[step] % choices]
                if new not in inside:
                    lost, gained = index[old], index[new]
                    if not lost or all(met[i] > 1 or i in gained for i in lost):
                        for i in lost:
                            met[i] -= 1
                        for i in gained:
                            met[i] += 1
                        placed[k] = new
                        inside.discard(old)
                        inside.add(new)
                        node_now = -1
                if step % STEPS_BETWEEN == 0:
                    if node_now < 0:
                        node_now, cover_now = 0, 0
                        for c in placed:
                            node_now |= node_bit[c]
                            cover_now |= cover_bits[c]
                    nodes += node_now
                    covers += cover_now
        self.samples += samples
        width = _FIELD // 8
        for counts, into in ((nodes, self.node), (covers, self.cover)):
            data = counts.to_bytes(len(ALL) * width, "little")
            for i, c in enumerate(ALL):
                count = int.from_bytes(data[i * width:(i + 1) * width], "little")
                if count:
                    into[c] += count

    @staticmethod
    def _stepwise(at: int, steps: int, below_k: int, below_p: int,
                  ) -> tuple[list[int], list[int], int]:
        """The walk's draws one at a time, as :meth:`SplitMix64.below` makes them (for
        the rare walk in which some draw is rejected): for each step the generator's
        output for the Node moved and for the space it moves to; the state after."""
        picks: list[int] = []
        spots: list[int] = []
        mask, golden, mix1, mix2 = _MASK64, _GOLDEN, _MIX1, _MIX2
        for limit, into in ((below_k, picks), (below_p, spots)) * steps:
            while True:
                at = (at + golden) & mask
                z = ((at ^ (at >> 30)) * mix1) & mask
                z = ((z ^ (z >> 27)) * mix2) & mask
                z ^= z >> 31
                if z < limit:
                    break
            into.append(z)
        return picks, spots, at

    def _spread(self) -> None:
        facts = self.facts
        share = facts.count / max(1, len(facts.candidates))
        for c in facts.candidates:
            self.node[c] = share
        self.samples = 1

    def p_node(self, coord: Coord) -> float:
        if coord in self.facts.known:
            return 1.0
        return self.node[coord] / max(1, self.samples)

    def p_cover(self, coord: Coord) -> float:
        if near(coord) & self.facts.known:
            return 1.0
        return self.cover[coord] / max(1, self.samples)


# --- the player ---------------------------------------------------------------------------


class Computer:
    """One computer player: seeded and deterministic."""

    # what it knows of a grid and how it draws placements (the reference's plain ones)
    constraints = staticmethod(constraints)
    believe: type[Belief] = Belief

    def __init__(self, seed: int, level: str = "normal") -> None:
        if level not in LEVELS:
            raise ValueError(f"level {level!r}: choose one of {', '.join(LEVELS)}")
        self.seed = seed
        self.level = level

    def _rng(self, *salt: int) -> SplitMix64:
        return SplitMix64(_mix(self.seed, *salt))

    # -- set-up (§9.2) --

    def place(self, game: GameName, layout: Layout, player: str,
              ) -> tuple[tuple[Coord, ...], tuple[Coord, ...]]:
        """5 Nodes and (Deflector, Defector) 20 Deflectors on ``player``'s grid."""
        rng = self._rng(0x9E37, sum(map(ord, player)))
        nodes = self._nodes(rng)
        count = deflectors(game)
        if not count:
            return nodes, ()
        return nodes, self._deflectors(rng, layout, player, nodes, count)

    def _nodes(self, rng: SplitMix64) -> tuple[Coord, ...]:
        """Apart (no two territories share a space, so one capture shows no other Node)
        and away from Row 1, where play starts; otherwise anywhere, at random, so that no
        corner is a better guess than another."""
        for _ in range(100):
            chosen: list[Coord] = []
            while len(chosen) < NODES:
                options = [c for c in ALL if c[1] >= 3 and c not in chosen
                           and all(distance(c, o) >= 5 for o in chosen)]
                if not options:  # a crowded start: begin again
                    break
                chosen.append(options[rng.below(len(options))])
            if len(chosen) == NODES:
                return tuple(chosen)
        return tuple(_shuffled(rng, ALL)[:NODES])

    def _deflectors(self, rng: SplitMix64, layout: Layout, player: str,
                    nodes: Sequence[Coord], count: int) -> tuple[Coord, ...]:
        """Outside every territory, first on the stretches joined to other grids (where
        shots come in), then just outside the territories."""
        covered = set().union(*(near(n) for n in nodes))
        joined = [c for c in ALL if layout.across((player, *c))]
        ring = [c for c in ALL if min(distance(c, n) for n in nodes) == 3]
        chosen: list[Coord] = []
        for group in (joined, ring, list(ALL)):
            for c in _shuffled(rng, group):
                if len(chosen) == count:
                    break
                if c not in covered and c not in chosen:
                    chosen.append(c)
        for c in _shuffled(rng, ALL):  # a grid packed with territories: any other space
            if len(chosen) == count:
                break
            if c not in nodes and c not in chosen:
                chosen.append(c)
        return tuple(chosen)

    # -- play --

    def choose(self, view: View) -> Move:
        """One of ``view.legal``: a shot when there is one, a pass only when that is all
        the rules leave."""
        if not view.legal:
            raise ValueError(f"{view.player} has no move: it is not his turn")
        shots = [m for m in view.legal if isinstance(m, Shot)]
        if not shots:
            passes = [m for m in view.legal if isinstance(m, Pass)]
            return passes[0] if passes else view.legal[0]
        rng = self._rng(len(view.history), sum(map(ord, view.player)))
        if self.level == "easy" or len(shots) == 1:
            return shots[rng.below(len(shots))]
        if view.game is GameName.REFLECTOR:
            scored = self._reflector(view, shots, rng)
        else:
            scored = self._score(view, shots, rng)
        best = max(scored)
        return shots[scored.index(best)]

    def _reflector(self, view: View, shots: Sequence[Shot], rng: SplitMix64,
                   ) -> list[tuple[float, int]]:
        """Reflector (§9.4): each shot at ``c`` wins the opponent's ``c`` and concedes
        the player's own ``c``. Its value is the chance that ``c`` holds a Node times
        what a capture is worth (the game, when it is his last Node), plus the reach it
        opens towards likely Nodes, less what the concession costs: his own Node (the
        game, when it is the last), or a base near his Nodes."""
        me = view.player
        opp = next(s.id for s in view.seats if s.id != me)
        belief = self.believe(self.constraints(view, opp), rng)
        my_nodes = [n for n in view.secrets[me].nodes if _holder(view, (me, *n)) == me]
        a = len(my_nodes)
        b = NODES - sum(1 for s, p in view.marks.items() if s[0] == opp and p == me
                        and Fact.NODE in view.known(s))
        mine = sum(1 for s, p in view.marks.items() if s[0] == opp and p == me)
        his = sum(1 for s, p in view.marks.items() if s[0] == me and p == opp)
        reach = {s.at for s in shots}
        scored = []
        for shot in shots:
            c = shot.at[1:]
            p = belief.p_node(c)
            gained = sum(1 for t in near(c) if _holder(view, (opp, *t)) != me)
            conceded = _holder(view, (me, *c)) == me
            lost = sum(1 for t in near(c) if _holder(view, (me, *t)) == me)
            my_node = c in my_nodes
            last = my_node and a == 1
            cost = (100.0 / a + 0.5 * lost if my_node
                    else self._threat(c, my_nodes) if conceded else 0.0)
            if b == 1 and last:  # both lose their last Node: the spaces decide (§9.4.4)
                after = (mine + gained) - (his + lost)
                node = 1000.0 if after > 0 else -1000.0 if after < 0 else 0.0
            elif b == 1:
                node = 1000.0
            elif last:
                node = -1000.0
            else:
                node = 100.0 / b + 0.5 * gained - cost
            cover = belief.p_cover(c)
            other = -1000.0 if last else 0.3 + 0.6 * cover * (1 - cover) - cost
            value = p * node + (1 - p) * other
            for side in sides(c):
                nxt = (opp, *side)
                if nxt not in reach and _holder(view, nxt) != me:
                    value += 4.0 * belief.p_node(side)
            scored.append((value, rng.below(1 << 30)))
        return scored

    @staticmethod
    def _threat(coord: Coord, my_nodes: Sequence[Coord]) -> float:
        """What a base at ``coord`` on the player's own grid gives the opponent: reach
        towards his Nodes, the nearer the worse."""
        return sum(6.0 / distance(coord, n) ** 2 for n in my_nodes)

    def _score(self, view: View, shots: Sequence[Shot], rng: SplitMix64) -> list[tuple[float, int]]:
        me = view.player
        grids = sorted({s.at[0] for s in shots if view.layout.owner(s.at[0]) is not None
                        and not view.knows(s.at[0])})
        beliefs = {g: self.believe(self.constraints(view, g), rng) for g in grids}
        reflection = view.game is not GameName.DEFLECTOR or Variant.REFLECTION in view.variants
        mine = view.secrets[me]
        my_nodes = [n for n in mine.nodes if _holder(view, (me, *n)) == me]
        reach = {s.at for s in shots}
        steps = _island_steps(view) if view.layout.islands else {}
        scored = []
        for shot in shots:
            spot = shot.at
            grid, coord = spot[0], spot[1:]
            if view.layout.owner(grid) is None:  # the Island: worth the way it opens
                value = 0.05 + 0.2 / (1 + steps.get(spot, 99))
            else:
                value = self._gain(view, spot, beliefs.get(grid), reach)
            if (reflection and grid != me and view.layout.owner(grid) is not None):
                value -= self._concession(view, coord, my_nodes)
            scored.append((value, rng.below(1 << 30)))
        return scored

    def _gain(self, view: View, spot: Spot, belief: Belief | None,
              reach: set[Spot]) -> float:
        me = view.player
        grid, coord = spot[0], spot[1:]
        if view.knows(grid):
            secrets = view.secrets[grid]
            if coord in secrets.nodes:
                return 30.0 if grid == me else 25.0
            return 0.3
        if belief is None:
            return 0.3
        p = belief.p_node(coord)
        value = p * (25.0 + 0.4 * len(near(coord)))
        value += 0.3 + 0.6 * belief.p_cover(coord) * (1 - belief.p_cover(coord))
        for side in sides(coord):
            nxt = (grid, *side)
            if nxt in reach or _holder(view, nxt) == me:
                continue
            value += 4.0 * belief.p_node(side)
        return value

    def _concession(self, view: View, coord: Coord, my_nodes: Sequence[Coord]) -> float:
        """What conceding ``coord`` of the player's own grid would cost him."""
        me = view.player
        if _holder(view, (me, *coord)) != me:
            return 0.0
        if coord in my_nodes:
            return 40.0 + 0.5 * len(near(coord))
        cost = 0.0
        for node in my_nodes:
            d = distance(coord, node)
            cost += 6.0 / (d * d)
        return cost


def _island_steps(view: View) -> dict[Spot, int]:
    """For each Island space, how many steps across the Island it is from one that
    faces the grid of a player outside the player's side (where shots can go in)."""
    side = {view.player} | next((set(a.members) for a in view.alliances
                                 if view.player in a.members), set())
    layout = view.layout
    island = [spot for grid in layout.islands for spot in layout.spaces(grid)]
    found = {spot: 0 for spot in island
             if any(layout.owner(t[0]) not in (None, *side) for t in layout.across(spot))}
    edge = list(found)
    while edge:
        later = []
        for spot in edge:
            for nxt in layout.meets(spot):
                if layout.owner(nxt[0]) is None and nxt not in found:
                    found[nxt] = found[spot] + 1
                    later.append(nxt)
        edge = later
    return found


def _holder(view: View, spot: Spot) -> str | None:
    mark = view.marks.get(spot)
    return mark if mark is not None else view.layout.owner(spot[0])


# --- simple players to measure the computer against -------------------------------------


class RandomShooter:
    """Any legal shot, at random (seeded); Nodes hidden at random."""

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def place(self, game: GameName, layout: Layout, player: str,
              ) -> tuple[tuple[Coord, ...], tuple[Coord, ...]]:
        rng = SplitMix64(_mix(self.seed, 0x51AC, sum(map(ord, player))))
        nodes = tuple(_shuffled(rng, ALL)[:NODES])
        rest = [c for c in _shuffled(rng, ALL) if c not in nodes]
        return nodes, tuple(rest[:deflectors(game)])

    def _rng(self, view: View) -> SplitMix64:
        return SplitMix64(_mix(self.seed, len(view.history), sum(map(ord, view.player))))

    def choose(self, view: View) -> Move:
        shots = [m for m in view.legal if isinstance(m, Shot)]
        if not shots:
            return next((m for m in view.legal if isinstance(m, Pass)), view.legal[0])
        return shots[self._rng(view).below(len(shots))]


class HuntTarget(RandomShooter):
    """Hunt, then target: random legal shots until some answer shows a covered space,
    then legal shots that meet a known covered space first (a Node or Owned answer, a
    captured territory), at random among them."""

    def choose(self, view: View) -> Move:
        shots = [m for m in view.legal if isinstance(m, Shot)]
        if not shots:
            return super().choose(view)
        near_covered = [s for s in shots if any(
            Fact.COVERED in view.facts.get((s.at[0], *side), frozenset())
            for side in sides(s.at[1:]))]
        pool = near_covered or shots
        return pool[self._rng(view).below(len(pool))]


class Player(Protocol):
    def place(self, game: GameName, layout: Layout, player: str,
              ) -> tuple[tuple[Coord, ...], tuple[Coord, ...]]: ...

    def choose(self, view: View) -> Move: ...


def play(game: GameName, players: Sequence[Player], *, first: str = "P1",
         arrangement: str | None = None, variants: frozenset[Variant] = frozenset(),
         limit: int = 5000, see: Callable[[State, str], View] = knowledge.view) -> State:
    """A whole game among ``players`` (seat order): each places, then each chooses from
    his own view (``see``) until the game ends (or ``limit`` moves); the final state."""
    count = len(players)
    table = arrangement if arrangement is not None else deal.arrangement_for(game, count)
    grids = joins.layout(game, count, table)
    seats = []
    for k, player in enumerate(players, start=1):
        nodes, placed = player.place(game, grids, f"P{k}")
        seats.append(PlayerSetup(f"P{k}", f"Player {k}", deal.SYMBOLS[k - 1], nodes, placed))
    state = engine.start(Record(game, tuple(seats), first, (), table, variants))
    for _ in range(limit):
        if state.finish is not None or state.to_move is None:
            break
        who = state.to_move
        move = players[int(who[1:]) - 1].choose(see(state, who))
        state, _ = engine.push(state, move)
    return state


@dataclass(frozen=True)
class Tally:
    """How a player fared over a set of games."""

    wins: int
    draws: int
    losses: int
    moves: int  # moves played in all the games

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    def rate(self, count: int) -> float:
        return count / max(1, self.games)


def match(player: Callable[[int], Player], opponent: Callable[[int], Player], games: int,
          seed: int = 2026) -> Tally:
    """``games`` seeded Reflector games of ``player(seed_i)`` against
    ``opponent(seed_i')``, who goes first alternately (the player first in even games);
    the player's wins, draws (a True Draw) and losses."""
    wins = draws = losses = moves = 0
    for i in range(games):
        ours, theirs = player(_mix(seed, i, 1)), opponent(_mix(seed, i, 2))
        seats = [ours, theirs] if i % 2 == 0 else [theirs, ours]
        me = "P1" if i % 2 == 0 else "P2"
        state = play(GameName.REFLECTOR, seats)
        moves += len(state.history)
        finish = state.finish
        if finish is None or finish.result is Result.DRAW:
            draws += 1
        elif me in finish.winners:
            wins += 1
        else:
            losses += 1
    return Tally(wins, draws, losses, moves)
