"""Frozen copy of cardgen/games/rotator/solver.py before issue 12 (the speed work): the
baseline of benchmarks/bench_rotator.py and of the test that checks the fast solver gives
the same answers, lines included. Not used to solve boards for users; do not change it.

Exhaustive breadth-first search for shortest Rotator wins, on bitboards.

A state is the position, the solid cells and the cells touched one, two and three turns
ago (each a 200-bit Python int, bit y*10 + x), the turn's phase (t mod 4), a pending
choose-start Node and the boost spaces left. Breadth-first by turns finds the fewest
turns; among wins in that turn, the fewest boost spaces. A state is skipped when the same
position of everything else was already reached as early with at least as many boosts
left: it can do nothing the earlier one could not. The search either finds the shortest
line, exhausts every reachable state (no line exists), or stops at a state budget and
says UNDECIDED - it never guesses.
"""

from __future__ import annotations

import enum
import heapq
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Literal, TypeVar

from cardgen.board.cells import HEIGHT, WIDTH, Cell
from cardgen.games.rotator.engine import BOOST_CACHE, MAX_BOOST_PER_TURN, Choice, Terrain

N = WIDTH * HEIGHT
STEPS = (WIDTH, 1, -WIDTH, -1)  # +y, +x, -y, -x as bit-index steps
GOAL_MASK = sum(1 << (WIDTH * (HEIGHT - 1) + x) for x in range(WIDTH))
DEFAULT_BUDGET = 400_000  # states, for any one search


def bit(cell: Cell) -> int:
    return 1 << (cell[1] * WIDTH + cell[0])


def mask_of(cells: Iterable[Cell]) -> int:
    return sum(bit(c) for c in cells)


def cell_of(index: int) -> Cell:
    return (index % WIDTH, index // WIDTH)


def _rays() -> tuple[list[list[int]], list[list[int]]]:
    """For each direction and cell: the mask of cells beyond it to the edge, and the
    last cell of that ray (or -1)."""
    rays: list[list[int]] = [[0] * N for _ in range(4)]
    ends: list[list[int]] = [[-1] * N for _ in range(4)]
    for d, (dx, dy) in enumerate(((0, 1), (1, 0), (0, -1), (-1, 0))):
        for i in range(N):
            x, y = i % WIDTH, i // WIDTH
            mask, last = 0, -1
            x, y = x + dx, y + dy
            while 0 <= x < WIDTH and 0 <= y < HEIGHT:
                last = y * WIDTH + x
                mask |= 1 << last
                x, y = x + dx, y + dy
            rays[d][i], ends[d][i] = mask, last
    return rays, ends


RAYS, RAY_ENDS = _rays()
NEXT = [[i + STEPS[d] if RAY_ENDS[d][i] >= 0 else -1 for i in range(N)] for d in range(4)]


S = TypeVar("S")
C = TypeVar("C")


def trace_line(parent: dict[S, tuple[S, C] | None], state: S, last: C) -> tuple[list[C], S]:
    """Walk parent links back from ``state`` (reached before the winning choice ``last``):
    the choices from the root in order, and the root itself."""
    line = [last]
    link = parent[state]
    while link is not None:
        state, step = link
        line.append(step)
        link = parent[state]
    line.reverse()
    return line, state


# A state: (pos, solid, t1, t2, t3, phase, choose, first, boosts). ``first`` holds cells
# already touched in the turn about to be played (only the start cell, before turn 1).
State = tuple[int, int, int, int, int, int, int, int, int]
# A choice: (picked start cell index or -1, drilled, boost cells).
RawChoice = tuple[int, bool, int]


class Outcome(enum.Enum):
    """What a turn can lead to besides a next state."""

    WIN = "win"


WIN: Literal[Outcome.WIN] = Outcome.WIN


class Status(enum.StrEnum):
    """How a search ended."""

    WIN = "win"  # a winning line was found
    NONE = "none"  # every reachable state was explored: no line exists (a proof)
    UNDECIDED = "undecided"  # the state budget ran out first
    LONGER = "longer"  # no line within the turn limit the search was given


@dataclass
class StartResult:
    """The outcome for one start cell (x on the top row)."""

    start: int
    status: Status
    turns: int = 0
    boosts: int = 0
    choices: list[Choice] = field(default_factory=list)
    states: int = 0
    shortest: bool = True  # False: a winning line, but not proved the shortest


@dataclass
class Solution:
    """A whole board: the best line over all starts and the outcome of each start."""

    best: StartResult
    results: list[StartResult]
    budget: int

    @property
    def states(self) -> int:
        return self.best.states + sum(r.states for r in self.results)

    @property
    def winning(self) -> list[StartResult]:
        return [r for r in self.results if r.status is Status.WIN]

    @property
    def solvable(self) -> bool | None:
        """True if some start wins, False if every start is proved lost, else None."""
        if self.best.status is Status.WIN or self.winning:
            return True
        if self.best.status is Status.NONE:
            return False
        return None

    @property
    def complete(self) -> bool:
        """Every start decided (won or proved lost)."""
        return all(r.status is not Status.UNDECIDED for r in self.results)

    @property
    def line(self) -> StartResult | None:
        """The line to show: the board's proved shortest one, or, when that search ran
        out of budget, the shortest of the winning lines found (``shortest`` False)."""
        if self.best.status is Status.WIN:
            return self.best
        wins = self.winning
        if not wins:
            return None
        found = min(wins, key=lambda r: (r.turns, r.boosts, r.start))
        return StartResult(found.start, Status.WIN, found.turns, found.boosts, found.choices,
                           found.states, shortest=False)


class Solver:
    """The search for one terrain; masks are precomputed once."""

    def __init__(self, terrain: Terrain) -> None:
        self.solid0 = mask_of(terrain.solid)
        self.centre_node = {cell[1] * WIDTH + cell[0]: n for n, cell in enumerate(terrain.nodes)}
        self.territory = [mask_of(t) for t in terrain.territories]
        # In (x, y) order, the order the engine lists a choose-start in.
        self.territory_cells = [[c[1] * WIDTH + c[0] for c in sorted(t)]
                                for t in terrain.territories]

    def expand(self, state: State) -> list[tuple[RawChoice, State | Literal[Outcome.WIN]]]:
        """Every choice of one turn, as (start index or -1, drilled, boosts), with the
        state it leads to or WIN. Losing turns are left out: they lead nowhere.

        This is the hot loop of the search: falls are written out and choices are tuples.
        """
        pos, solid, t1, t2, t3, phase, choose, first, boosts = state
        out: list[tuple[RawChoice, State | Literal[Outcome.WIN]]] = []
        starts = self.territory_cells[choose] if choose >= 0 else (pos,)
        rays, ends, step, nxt_table = RAYS[phase], RAY_ENDS[phase], STEPS[phase], NEXT[phase]
        forward = step > 0
        next_phase = (phase + 1) & 3
        older = t1 | t2 | t3
        solid_c = solid | t3
        centre_node, territory = self.centre_node, self.territory
        for start in starts:
            picked = start if choose >= 0 else -1
            if (1 << start) & GOAL_MASK:
                out.append(((picked, False, 0), WIN))
                continue
            # Fall: the first solid cell along the ray stops it (or the board edge).
            ray = rays[start]
            blockers = ray & solid
            if not blockers:
                p, path = (ends[start] if ray else start), ray
            elif forward:
                f = (blockers & -blockers).bit_length() - 1
                path = ray & ((1 << f) - 1)
                p = f - step if path else start
            else:
                f = blockers.bit_length() - 1
                path = ray & ~((2 << f) - 1)
                p = f - step if path else start
            if path & GOAL_MASK:
                out.append(((picked, False, 0), WIN))
                continue
            if (t3 >> p) & 1:
                continue  # standing on a collapsing cell: lost
            cur = first | (path & ~older)
            out.append(((picked, False, 0),
                        (p, solid_c, cur, t1, t2, next_phase, -1, 0, boosts)))
            q = nxt_table[p]
            if q < 0 or not (solid_c >> q) & 1:
                continue
            # Drill, then up to two boosts; each stage may end the move.
            s, c, used = solid_c, cur, 0
            while True:
                b = 1 << q
                s &= ~b
                c |= b
                choice: RawChoice = (picked, True, used)
                if b & GOAL_MASK:
                    out.append((choice, WIN))
                    break
                node = centre_node.get(q)
                if node is not None:
                    fresh = territory[node] & s
                    out.append((choice, (q, s & ~fresh, c | fresh, t1, t2, next_phase, node, 0,
                                         boosts - used)))
                    break
                ray = rays[q]  # fall again after the drilling
                blockers = ray & s
                if not blockers:
                    p2, path2 = (ends[q] if ray else q), ray
                elif forward:
                    f = (blockers & -blockers).bit_length() - 1
                    path2 = ray & ((1 << f) - 1)
                    p2 = f - step if path2 else q
                else:
                    f = blockers.bit_length() - 1
                    path2 = ray & ~((2 << f) - 1)
                    p2 = f - step if path2 else q
                if path2 & GOAL_MASK:
                    out.append((choice, WIN))
                else:
                    c2 = c | (path2 & ~(t1 | t2 | c))
                    out.append((choice, (p2, s, c2, t1, t2, next_phase, -1, 0, boosts - used)))
                if used in (MAX_BOOST_PER_TURN, boosts):
                    break
                q2 = nxt_table[q]
                if q2 < 0 or not (s >> q2) & 1:
                    break
                q, used = q2, used + 1
        return out

    def root(self, x: int) -> State:
        """The state before turn 1 with the player on top-row column x."""
        start_bit = 1 << x
        return (x, self.solid0 & ~start_bit, 0, 0, 0, 0, -1, start_bit, BOOST_CACHE)

    def _bfs(self, roots: list[State], budget: int, max_turns: int | None = None,
             ) -> tuple[Status, int, int, State | None, list[RawChoice], int]:
        """Breadth-first by turns from ``roots`` (in order of preference).

        Returns (status, turns, boosts used, the root the line starts from, the choice
        line, states explored). With ``max_turns``, the status is LONGER when no line of
        at most that many turns exists.
        """
        best: dict[tuple[int, ...], int] = {}
        parent: dict[State, tuple[State, RawChoice] | None] = {}
        for root in roots:
            best[root[:-1]] = BOOST_CACHE
            parent[root] = None
        layer = list(roots)
        turn = explored = 0
        while layer:
            turn += 1
            wins: list[tuple[int, int, State, RawChoice]] = []
            following: list[State] = []
            for order, state in enumerate(layer):
                if best[state[:-1]] > state[-1]:
                    continue  # the same position was reached with more boosts left
                explored += 1
                for choice, result in self.expand(state):
                    if result is WIN:
                        wins.append((BOOST_CACHE - state[-1] + choice[2], order, state, choice))
                        continue
                    key, left = result[:-1], result[-1]
                    if best.get(key, -1) >= left:
                        continue
                    best[key] = left
                    parent[result] = (state, choice)
                    following.append(result)
            if wins:
                used, _, state, choice = min(wins, key=lambda w: (w[0], w[1]))
                line, root = trace_line(parent, state, choice)
                return Status.WIN, turn, used, root, line, explored
            if max_turns is not None and turn >= max_turns and following:
                return Status.LONGER, 0, 0, None, [], explored
            if explored + len(following) > budget:
                return Status.UNDECIDED, 0, 0, None, [], explored
            layer = following
        return Status.NONE, 0, 0, None, [], explored

    @staticmethod
    def _choices(raw: list[RawChoice]) -> list[Choice]:
        return [Choice(cell_of(p) if p >= 0 else None, drill, boost) for p, drill, boost in raw]

    def solve_start(self, x: int, budget: int = DEFAULT_BUDGET) -> StartResult:
        """The shortest line from top-row column x, or a proof that there is none."""
        status, turns, used, _, line, explored = self._bfs([self.root(x)], budget)
        if status is not Status.WIN:
            return StartResult(x, status, states=explored)
        return StartResult(x, Status.WIN, turns, used, self._choices(line), explored)

    def best_line(self, budget: int = DEFAULT_BUDGET, max_turns: int | None = None,
                  ) -> StartResult:
        """The shortest line over all start cells at once (fewest turns, then boosts,
        then the leftmost start): one search from all ten starts together. With
        ``max_turns`` the search gives up (LONGER) past that many turns."""
        status, turns, used, root, line, explored = self._bfs(
            [self.root(x) for x in range(WIDTH)], budget, max_turns)
        if status is not Status.WIN or root is None:
            return StartResult(-1, status, states=explored)
        return StartResult(root[0], Status.WIN, turns, used, self._choices(line), explored)

    def witness(self, x: int, budget: int = DEFAULT_BUDGET) -> StartResult:
        """Some winning line from column x, not necessarily the shortest, or a proof that
        there is none: a best-first search that expands the states nearest the goal row
        first. Much faster than the shortest search when a start can win."""
        root = self.root(x)
        best: dict[tuple[int, ...], int] = {root[:-1]: BOOST_CACHE}
        parent: dict[State, tuple[State, RawChoice] | None] = {root: None}
        heap: list[tuple[int, int, State]] = [(HEIGHT - 1, 0, root)]
        counter = explored = 0
        while heap:
            _, _, state = heapq.heappop(heap)
            if best[state[:-1]] > state[-1]:
                continue
            explored += 1
            if explored > budget:
                return StartResult(x, Status.UNDECIDED, states=explored, shortest=False)
            for choice, result in self.expand(state):
                if result is WIN:
                    line, _ = trace_line(parent, state, choice)
                    used = sum(c[2] for c in line)
                    return StartResult(x, Status.WIN, len(line), used, self._choices(line),
                                       explored, shortest=False)
                key, left = result[:-1], result[-1]
                if best.get(key, -1) >= left:
                    continue
                best[key] = left
                parent[result] = (state, choice)
                counter += 1
                heapq.heappush(heap, (HEIGHT - 1 - result[0] // WIDTH, counter, result))
        return StartResult(x, Status.NONE, states=explored)

    def solve(self, budget: int = DEFAULT_BUDGET, shortest: bool = True,
              progress: Callable[[int], None] | None = None) -> Solution:
        """The whole board. ``budget`` bounds every single search. With ``shortest``,
        each start gets its shortest line, falling back to any winning line when that
        search runs out of budget; without, each start only gets some winning line (the
        board's best line is exact either way). ``progress`` is told each start done."""
        best = self.best_line(budget)
        results = []
        for x in range(WIDTH):
            result = self.solve_start(x, budget) if shortest else None
            if result is None or result.status is Status.UNDECIDED:
                spent = result.states if result else 0
                result = self.witness(x, budget)
                result.states += spent
            results.append(result)
            if progress:
                progress(x)
        return Solution(best, results, budget)
