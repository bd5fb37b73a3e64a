"""One shot resolved, as SPEC §9.3 and §9.5.7-9.5.10 say: landings and their answers,
captures with their kept spaces and fired Deflectors, deflection by seats, Ricochet
runs along a row, and the reflection that follows (§9.3.4).

:class:`Turn` is the mutable working copy of one move, like Rotator's: it starts from a
:class:`~cardgen.games.nodes.state.State`, changes its own copies of the marks, the used
Deflectors, the Deluxe turn counts and the alliances, writes down what happened in the
order it happened, and hands back a new state and the referee's report
(:meth:`Turn.finish`). The end-of-turn checks are the engine's. Pure.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from types import MappingProxyType

from cardgen.games.nodes.joins import SIZE, Direction, direction
from cardgen.games.nodes.record import (
    Answer,
    Fired,
    MoveReport,
    Reflection,
    Spot,
    Variant,
)
from cardgen.games.nodes.state import Fact, State, holder, may_take


@dataclass(frozen=True)
class Landing:
    """The last landing of a shot: where, who claimed it, whether he won it, and who held
    it just before (what reflection needs, §9.3.4)."""

    spot: Spot
    claimant: str
    won: bool
    before: str | None


class Turn:
    """The working copy of one move."""

    def __init__(self, state: State) -> None:
        self.state = state
        self.setup = state.setup
        self.layout = state.layout
        self.marks = dict(state.marks)
        self.used = set(state.used)
        self.turns = dict(state.turns)
        self.alliances = state.alliances
        self.aimed = dict(state.aimed)
        self.facts: dict[Spot, set[Fact]] = {}
        # the report, in the order things happen
        self.path: list[Spot] = []
        self.answers: list[Answer] = []
        self.acted: list[Spot] = []  # Deflectors hit, fired or spent
        self.captured: list[Spot] = []
        self.revealed: list[Spot] = []
        self.kept: list[Spot] = []
        self.spent: list[Spot] = []
        self.changes: list[tuple[Spot, str]] = []
        self.fired: list[Fired | None] = []
        self.reflection: Reflection | None = None

    # -- what the working copy says --

    def holder(self, spot: Spot) -> str | None:
        return holder(self.setup, self.marks, spot)

    def owner(self, grid: str) -> str | None:
        return self.setup.owners[grid]

    def unused_deflector(self, spot: Spot) -> bool:
        return self.setup.is_deflector(spot) and spot not in self.used

    def learn(self, spot: Spot, *facts: Fact) -> None:
        """Play has made ``facts`` about ``spot`` public (§9.1.8)."""
        self.facts.setdefault(spot, set()).update(facts)

    # -- landings (§9.3.1) --

    def answer(self, spot: Spot, *, conceded: bool = False) -> Answer:
        """The owner's answer from the truth, in §9.3.1's order. A Deflector answer uses
        the Deflector; a conceded space's Deflector is used without acting (§9.3.4)."""
        if self.owner(spot[0]) is None:
            self.learn(spot, Fact.UNCOVERED, Fact.NOT_NODE, Fact.NO_DEFLECTOR)
            return Answer.NULL
        if self.unused_deflector(spot):
            self.used.add(spot)
            self.acted.append(spot)
            self.learn(spot, Fact.DEFLECTOR, Fact.NOT_NODE)
            if not conceded:
                return Answer.DEFLECTOR
        else:
            self.learn(spot, Fact.NO_DEFLECTOR)
        if self.setup.is_node(spot):
            self.learn(spot, Fact.NODE, Fact.COVERED)
            return Answer.NODE
        if self.setup.covered(spot):
            self.learn(spot, Fact.COVERED, Fact.NOT_NODE)
            return Answer.OWNED
        self.learn(spot, Fact.UNCOVERED, Fact.NOT_NODE)
        return Answer.NULL

    def impact(self, spot: Spot) -> None:
        """Deluxe: every landing answered on a player's grid turns it (§9.6.9)."""
        if self.setup.has(Variant.DELUXE) and self.owner(spot[0]) is not None:
            self.turns[spot[0]] = (self.turns.get(spot[0], 0) + 1) % 4

    def land(self, spot: Spot, path: list[Spot], answers: list[Answer]) -> Answer:
        answer = self.answer(spot)
        self.impact(spot)
        path.append(spot)
        answers.append(answer)
        return answer

    def claim(self, claimant: str, spot: Spot, answer: Answer, way: Direction) -> bool:
        """The claimant wins ``spot`` if he may take it and is in the game; otherwise
        the landing is spent (§9.3.1, decision 55)."""
        if claimant in self.state.out or not may_take(self.setup, self.marks, claimant,
                                                       spot):
            self.spent.append(spot)
            return False
        if answer is Answer.NODE:
            self.capture(spot, claimant, way)
        else:
            self.mark(spot, claimant)
        return True

    def mark(self, spot: Spot, player: str) -> None:
        """mark(s) := player; a Link or Master Node that changes holder is lost at once
        (§9.6.4 Loss)."""
        before = self.holder(spot)
        self.marks[spot] = player
        self.changes.append((spot, player))
        if before != player and spot in self.alliances.designated():
            self.alliances = self.alliances.lose(spot)
            self.learn(spot, Fact.NODE)

    # -- captures (§9.3.3) and fired Deflectors (§9.5.8) --

    def capture(self, node: Spot, claimant: str, way: Direction) -> None:
        self.captured.append(node)
        self.mark(node, claimant)
        queue = []
        others = [n for n in self.setup.grid_nodes(node[0]) if n != node]
        for spot in self.setup.territory(node):
            self.learn(spot, Fact.COVERED)
            if spot == node:
                continue
            if self.unused_deflector(spot):
                self.used.add(spot)
                self.acted.append(spot)
                self.learn(spot, Fact.DEFLECTOR, Fact.NOT_NODE)
                queue.append(spot)
                continue
            if self.holder(spot) == claimant:
                continue
            self.learn(spot, Fact.NO_DEFLECTOR)
            if any(spot in self.setup.territory(n) and self.holder(n) != claimant
                   for n in others):
                _add(self.kept, spot)
                if self.setup.is_node(spot):
                    _add(self.revealed, spot)
                    self.learn(spot, Fact.NODE)
                else:
                    self.learn(spot, Fact.NOT_NODE)
            else:
                self.learn(spot, Fact.NOT_NODE)
                self.mark(spot, claimant)
        for source in queue:
            self.fire(source, claimant, way)

    def fire(self, source: Spot, claimant: str, way: Direction) -> None:
        """A Deflector fired by a capture: Shooter the capturer, original Target the
        grid's owner, in the capture's direction (§9.5.8)."""
        target = self.owner(source[0])
        assert target is not None
        index = len(self.fired)
        self.fired.append(None)
        path: list[Spot] = []
        answers: list[Answer] = []
        if self.setup.has(Variant.RICOCHET):
            self.run(claimant, source, way, target, path, answers)
        else:
            first = (self.next_grid(source[0], way, target), source[1], source[2])
            self.travel(claimant, first, way, target, path, answers)
        self.fired[index] = Fired(source, tuple(path), tuple(answers))

    # -- a shot's way round the table (§9.5.6-9.5.7, §9.5.10, §9.6.10) --

    def next_grid(self, grid: str, way: Direction, sender: str) -> str:
        """The next grid by seats; with Safety Among Friends, passing over the grids of
        the allies of ``sender``, whose Deflector sent the shot on."""
        following = self.layout.next_grid(grid, way)
        if self.setup.has(Variant.SAFETY):
            allies = self.alliances.allies(sender)
            while self.owner(following) in allies:
                following = self.layout.next_grid(following, way)
        return following

    def claimant(self, shooter: str, target: str | None, spot: Spot) -> str:
        """The original Target wins what lands on the Shooter's own grid (§9.5.7)."""
        return target if spot[0] == shooter and target is not None else shooter

    def travel(self, shooter: str, spot: Spot, way: Direction, target: str | None,
               path: list[Spot], answers: list[Answer]) -> Landing:
        """Land on ``spot`` and go on from grid to grid while Deflectors answer."""
        while True:
            answer = self.land(spot, path, answers)
            if answer is not Answer.DEFLECTOR:
                break
            sender = self.owner(spot[0])
            assert sender is not None
            target = sender if target is None else target
            if self.setup.has(Variant.RICOCHET):
                return self.run(shooter, spot, way, target, path, answers)
            spot = (self.next_grid(spot[0], way, sender), spot[1], spot[2])
        claimant = self.claimant(shooter, target, spot)
        before = self.holder(spot)
        return Landing(spot, claimant, self.claim(claimant, spot, answer, way), before)

    def run(self, shooter: str, start: Spot, way: Direction, target: str,
            path: list[Spot], answers: list[Answer]) -> Landing:
        """Ricochet (§9.5.10): from a used Deflector at (c, r) on G0, along row r,
        towards Column A clockwise and Column J anticlockwise, grid to grid by seats."""
        g0, c, r = start
        sender = self.owner(g0)
        assert sender is not None
        grid, column, left = g0, c, False
        while True:
            column += -1 if way is Direction.CLOCKWISE else 1
            if not 0 <= column < SIZE:
                grid = self.next_grid(grid, way, sender)
                column, left = (SIZE - 1 if way is Direction.CLOCKWISE else 0), True
            spot = (grid, column, r)
            if spot == start and left:  # all the way round: the start space is won
                answer = self.land(spot, path, answers)
                break
            if self.setup.is_node(spot):
                answer = self.land(spot, path, answers)
                break
            if self.unused_deflector(spot):
                self.land(spot, path, answers)
                if grid != g0:
                    return Landing(spot, self.claimant(shooter, target, spot), False,
                                   self.holder(spot))
                way = Direction(-way)
                continue
            self.learn(spot, Fact.NOT_NODE, Fact.NO_DEFLECTOR)  # crossed
        claimant = self.claimant(shooter, target, spot)
        before = self.holder(spot)
        return Landing(spot, claimant, self.claim(claimant, spot, answer, way), before)

    # -- the named shot and its reflection --

    def shoot(self, shooter: str, spot: Spot) -> None:
        """S names ``spot``: it lands, travels on, and reflection follows (§9.3.4)."""
        self.aimed[shooter] = self.aimed[shooter] | {spot[0]}
        owner = self.owner(spot[0])
        way = direction(shooter, spot[0] if owner is not None else shooter,
                        len(self.setup.players))
        last = self.travel(shooter, spot, way, None, self.path, self.answers)
        if self.setup.reflection:
            self.reflect(shooter, last)

    def reflect(self, shooter: str, last: Landing) -> None:
        w, conceder = last.spot, last.before
        if (not last.won or last.claimant != shooter or w[0] == shooter
                or self.owner(w[0]) is None or conceder is None
                or conceder in self.state.out or any(p[0] == shooter for p in self.path)):
            return
        r = (shooter, w[1], w[2])
        if self.holder(r) != shooter:
            self.reflection = Reflection(r, None)
            return
        answer = self.answer(r, conceded=True)
        self.reflection = Reflection(r, answer)
        self.claim(conceder, r, answer, direction(conceder, shooter,
                                                  len(self.setup.players)))

    # -- the result --

    def finish(self, number: int) -> tuple[State, MoveReport]:
        """The state after the move (before the end-of-turn checks) and its report."""
        state = self.state
        final: dict[Spot, int] = {spot: i for i, (spot, _) in enumerate(self.changes)}
        won: dict[str, list[Spot]] = {}
        for i, (spot, player) in enumerate(self.changes):
            if final[spot] == i and player != state.holder(spot):
                won.setdefault(player, []).append(spot)
        facts = dict(state.facts)
        for spot, found in self.facts.items():
            facts[spot] = facts.get(spot, frozenset()) | found
        turns = {g: q for g, q in self.turns.items() if q != state.turns.get(g, 0)}
        report = MoveReport(
            number, path=tuple(self.path), answers=tuple(self.answers),
            used=tuple(self.acted), captured=tuple(self.captured),
            revealed=tuple(self.revealed), kept=tuple(self.kept), spent=tuple(self.spent),
            won={p: tuple(s) for p, s in won.items()},
            fired=tuple(f for f in self.fired if f is not None), reflection=self.reflection,
            turns={g: turns[g] for g in self.setup.players if g in turns})
        # the working copies become the new state's (this turn is over: nothing changes
        # them again), read-only
        after = replace(state, marks=MappingProxyType(self.marks), used=frozenset(self.used),
                        turns=MappingProxyType(self.turns), alliances=self.alliances,
                        aimed=MappingProxyType(self.aimed), facts=MappingProxyType(facts))
        return after, report


def _add(items: list[Spot], spot: Spot) -> None:
    if spot not in items:
        items.append(spot)
