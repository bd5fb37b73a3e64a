"""Exhaustive breadth-first search for shortest Rotator wins, on bitboards.

A state is the position, the solid cells and the cells touched one, two and three turns
ago (each a 200-bit Python int, bit y*10 + x), the turn's phase (t mod 4), a pending
choose-start Node and the boost spaces left. Breadth-first by turns finds the fewest
turns; among wins in that turn, the fewest boost spaces. A state is skipped when the same
position of everything else was already reached as early with at least as many boosts
left: it can do nothing the earlier one could not. The search either finds the shortest
line, exhausts every reachable state (no line exists), or stops at a budget of states
stored and says UNDECIDED - it never guesses. The states counted are a diagnostic, not
part of the answer (rules decision R4): a search may leave out states it proves useless
(the grading searches do, see ``fastgrade.GradingSolver.hopeless``), count fewer and so
decide more within the same budget, never less; its answers stay the same.

Speed (issue 12): a win is noticed when the state before it is stored, so the winning
turn's states are never expanded; after the first win nothing is stored; the board's best
line is the best of the ten starts' own lines. The lines are the ones the plain search
finds (benchmarks/rotator_baseline.py keeps it; the benchmark and tests compare them).
Issue 26: a state is stored with one dict look-up (``setdefault``) where it is new, a fall's
path is its ray less what lies from the stop on (one table, ``RAY_FROM``), Node centres are
a list; benchmarks/bench_rotator.py also times a plain bit-mask search
(benchmarks/rotator_plain.py) and checks the same lines.
"""

from __future__ import annotations

import enum
import gc
import heapq
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Literal, TypeVar

from cardgen.board.cells import HEIGHT, WIDTH, Cell, card_name
from cardgen.games.rotator.engine import (
    BOOST_CACHE,
    GOAL_ROW,
    MAX_BOOST_PER_TURN,
    Choice,
    Terrain,
)

N = WIDTH * HEIGHT
STEPS = (WIDTH, 1, -WIDTH, -1)  # +y, +x, -y, -x as bit-index steps
GOAL_MASK = sum(1 << (WIDTH * (HEIGHT - 1) + x) for x in range(WIDTH))
DEFAULT_BUDGET = 400_000  # states, for any one search (a diagnostic count: rules decision R4)


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
LIMIT = [1 + min(MAX_BOOST_PER_TURN, k) for k in range(BOOST_CACHE + 1)]  # cells to drill
BITS = [1 << i for i in range(N)]
BELOW = RAYS[0]  # the cells below each cell, to the goal row
NEXT = [[i + STEPS[d] if RAY_ENDS[d][i] >= 0 else -1 for i in range(N)] for d in range(4)]
# Each cell and the cells beyond it, per direction: a fall from a cell stopped by a solid
# cell f passes the cells of its ray less RAY_FROM[d][f].
RAY_FROM = [[(1 << i) | RAYS[d][i] for i in range(N)] for d in range(4)]


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
# A state less its boosts: what the search keeps the best boosts for.
Key = tuple[int, int, int, int, int, int, int, int]
# A stored state in the search: (key, boosts left, parent record, the choice from it,
# its serial number).
Record = tuple[Key, int, "Record | None", RawChoice, int]
NO_CHOICE: RawChoice = (-1, False, 0)  # a root's
NO_WIN = BOOST_CACHE + 1  # more boost spaces than any line can spend
# The choices of a turn without a start to pick: no drill, drill and 0, 1, 2 boosts.
CHOICES: tuple[RawChoice, ...] = ((-1, False, 0), (-1, True, 0), (-1, True, 1), (-1, True, 2))
# The same after a capture, with the start picked (by cell index).
PICKED = [((i, False, 0), (i, True, 0), (i, True, 1), (i, True, 2)) for i in range(N)]


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
    searched: int = 0  # the shortest search proved no line of this many turns or fewer


@dataclass
class Solution:
    """A whole board: the best line over all starts and the outcome of each start."""

    best: StartResult
    results: list[StartResult]
    budget: int

    @property
    def states(self) -> int:
        """States stored by all the searches (the best line's once)."""
        best = 0 if any(r is self.best for r in self.results) else self.best.states
        return best + sum(r.states for r in self.results)

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
        # The same as a list by cell index (-1: no Node's centre), for the search's hot loop.
        self.node_at = [self.centre_node.get(i, -1) for i in range(N)]
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

    def _step(self, key: Key, left: int, kids: list[tuple[Key, int]] | None) -> int:
        """One turn from ``key`` with ``left`` boost spaces, for the grading searches:
        the fewest boost spaces a winning choice spends (NO_WIN when none wins), and,
        when ``kids`` is given, every next state ``expand`` lists appended to it as (key,
        boosts left), in ``expand``'s order. The same turn as ``expand`` plays, without
        building choices; without ``kids`` it stops as soon as the answer is known."""
        pos, solid, t1, t2, t3, phase, choose, first = key
        fewest = NO_WIN
        rays, ends, step, nxt_table = RAYS[phase], RAY_ENDS[phase], STEPS[phase], NEXT[phase]
        forward = step > 0
        next_phase = (phase + 1) & 3
        older = t1 | t2 | t3
        solid_c = solid | t3
        centre_node, territory, bits = self.centre_node, self.territory, BITS
        for start in (self.territory_cells[choose] if choose >= 0 else (pos,)):
            if bits[start] & GOAL_MASK:
                if kids is None:
                    return 0
                fewest = 0
                continue
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
                if kids is None:
                    return 0
                fewest = 0
                continue
            if t3 & bits[p]:
                continue  # standing on a collapsing cell: lost
            cur = first | (path & ~older)
            if kids is not None:
                kids.append(((p, solid_c, cur, t1, t2, next_phase, -1, 0), left))
            q = nxt_table[p]
            if q < 0 or not solid_c & bits[q]:
                continue
            s, c, used = solid_c, cur, 0
            while kids is not None or used < fewest:
                b = bits[q]
                s &= ~b
                c |= b
                if b & GOAL_MASK:
                    fewest = min(fewest, used)
                    break
                node = centre_node.get(q)
                if node is not None:
                    if kids is not None:
                        fresh = territory[node] & s
                        kids.append(((q, s & ~fresh, c | fresh, t1, t2, next_phase, node, 0),
                                     left - used))
                    break
                ray = rays[q]
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
                    fewest = min(fewest, used)
                elif kids is not None:
                    kids.append(((p2, s, c | (path2 & ~(t1 | t2 | c)), t1, t2, next_phase,
                                  -1, 0), left - used))
                if used in (MAX_BOOST_PER_TURN, left):
                    break
                q2 = nxt_table[q]
                if q2 < 0 or not s & bits[q2]:
                    break
                q, used = q2, used + 1
        return fewest

    def can_win(self, key: Key, left: int) -> bool:
        """A cheap test that rejects most states that cannot win in the turn about to
        be played (see ``_win``): False means no choice wins; True, that one may."""
        pos, solid, _, _, _, phase, choose, _ = key
        return choose >= 0 or (not phase and (solid & BELOW[pos]).bit_count() <= LIMIT[left])

    # --- the grading searches (``grading``'s questions, asked fast) ----------------------
    #
    # Each is ``grading``'s readable search (built on ``expand``) written out on ``_step``:
    # the same states in the same order, the same dominance and the same count of states
    # expanded (so the same budget), hence the same answers; states that cannot win in
    # the last turn searched are counted but not played (``can_win``).
    # tests/test_rotator_grading.py compares the two; benchmarks/bench_rotator_grading.py
    # times them.

    def fewest_boosts(self, last_turn: int, cheaper_than: int, budget: int,
                      ) -> tuple[int, int] | None:
        """``grading``'s breadth-first search from all ten starts to ``last_turn``: (the
        fewest boosts of a win found, or ``cheaper_than`` when none was cheaper; states
        expanded), or None when the budget ran out."""
        paused = gc.isenabled()
        gc.disable()
        try:
            return self._fewest_boosts(last_turn, cheaper_than, budget)
        finally:
            if paused:
                gc.enable()

    def _fewest_boosts(self, last_turn: int, cheaper_than: int, budget: int,
                       ) -> tuple[int, int] | None:
        best: dict[Key, int] = {}
        layer: list[tuple[Key, int]] = []
        for x in range(WIDTH):
            pos, solid, t1, t2, t3, phase, choose, first, left = self.root(x)
            key: Key = (pos, solid, t1, t2, t3, phase, choose, first)
            best[key] = left
            layer.append((key, left))
        turn = expanded = 0
        fewest = cheaper_than
        step, can_win, cache = self._step, self.can_win, BOOST_CACHE
        while layer:
            turn += 1
            last = turn == last_turn
            following: list[tuple[Key, int]] = []
            get = best.get
            for key, left in layer:
                if best[key] > left or cache - left >= fewest:
                    continue  # dominated, or has spent as many boosts as a line known
                expanded += 1
                if last:
                    if can_win(key, left):
                        used = step(key, left, None)
                        fewest = min(fewest, cache - left + used)
                    continue
                kids: list[tuple[Key, int]] = []
                used = step(key, left, kids)
                if used != NO_WIN:
                    fewest = min(fewest, cache - left + used)
                for kid in kids:
                    after = kid[1]
                    if get(kid[0], -1) >= after:
                        continue
                    best[kid[0]] = after
                    following.append(kid)
            if expanded + len(following) > budget:
                return None
            if last:
                break
            layer = following
        return fewest, expanded

    def win_within(self, state: State, turn: int, horizon: int, budget: int,
                   cheaper_than: int = NO_WIN) -> tuple[int | None, int]:
        """``grading.win_within``'s best-first search: whether some line from ``state``
        (reached after turn ``turn``) wins by turn ``horizon`` spending fewer than
        ``cheaper_than`` boost spaces in all: (the turn of the win found, 0 when there is
        none, None when the budget ran out; states expanded)."""
        paused = gc.isenabled()
        gc.disable()
        try:
            return self._win_within(state, turn, horizon, budget, cheaper_than)
        finally:
            if paused:
                gc.enable()

    def _win_within(self, state: State, turn: int, horizon: int, budget: int,
                    cheaper_than: int) -> tuple[int | None, int]:
        pos, solid, t1, t2, t3, phase, choose, first, left = state
        key: Key = (pos, solid, t1, t2, t3, phase, choose, first)
        seen: dict[Key, tuple[int, int]] = {key: (turn, left)}
        heap: list[tuple[int, int, int, Key, int]] = [
            (GOAL_ROW - pos // WIDTH, turn, 0, key, left)]
        counter = expanded = 0
        step, can_win, cache, pop, push = self._step, self.can_win, BOOST_CACHE, \
            heapq.heappop, heapq.heappush
        get = seen.get
        while heap:
            _, t, _, key, left = pop(heap)
            known_turn, known_left = seen[key]
            if (known_turn != t or known_left != left) and known_turn <= t \
                    and known_left >= left:
                continue
            expanded += 1
            if expanded + len(heap) > budget:
                return None, expanded
            spent = cache - left
            if t + 1 >= horizon:  # the last turn searched: only wins count
                if can_win(key, left) and spent + step(key, left, None) < cheaper_than:
                    return t + 1, expanded
                continue
            kids: list[tuple[Key, int]] = []
            if spent + step(key, left, kids) < cheaper_than:
                return t + 1, expanded
            later = t + 1
            for kid, after in kids:
                if cache - after >= cheaper_than:
                    continue
                old = get(kid)
                if old is not None and old[0] <= later and old[1] >= after:
                    continue
                seen[kid] = (later, after)
                counter += 1
                push(heap, (GOAL_ROW - kid[0] // WIDTH, later, counter, kid, after))
        return 0, expanded

    def root(self, x: int) -> State:
        """The state before turn 1 with the player on top-row column x."""
        start_bit = 1 << x
        return (x, self.solid0 & ~start_bit, 0, 0, 0, 0, -1, start_bit, BOOST_CACHE)

    def _win(self, key: Key, left: int) -> RawChoice | None:
        """The winning choice of the turn about to be played from ``key`` with ``left``
        boost spaces, if there is one: the first of the fewest boosts in ``expand``'s
        order, which is the one today's layer order picks."""
        pos, solid, t1, t2, t3, phase, choose, first = key
        limit = LIMIT[left]  # solid cells one turn can drill through
        if choose < 0:
            if phase or (solid & BELOW[pos]).bit_count() > limit:
                return None  # only a fall or drill in +y reaches the goal row
            return self._first_win(key, left)
        # After a capture: each start square in expand's order, as if the player stood
        # there (the same turn but for the start named in the choice).
        found: RawChoice | None = None
        for start in self.territory_cells[choose]:
            if (1 << start) & GOAL_MASK:
                won: RawChoice | None = (start, False, 0)
            elif phase or (solid & BELOW[start]).bit_count() > limit:
                continue
            else:
                won = self._first_win((start, solid, t1, t2, t3, phase, -1, first), left)
                if won is not None:
                    won = (start, won[1], won[2])
            if won is not None and (found is None or won[2] < found[2]):
                found = won
        return found

    def _first_win(self, key: Key, left: int) -> RawChoice | None:
        """The first of the fewest boosts among the winning choices ``expand`` lists."""
        found: RawChoice | None = None
        for choice, result in self.expand((*key, left)):
            if result is WIN and (found is None or choice[2] < found[2]):
                found = choice
        return found

    def _search(self, roots: list[State], budget: int, max_turns: int | None = None,
                ) -> tuple[Status, int, int, int, list[RawChoice], int, int]:
        """``_lean_search`` with Python's cycle collector paused: the search allocates
        hundreds of thousands of tuples that hold no cycles, and the collector would
        otherwise walk the growing heap again and again (10–25 % of the time)."""
        paused = gc.isenabled()
        gc.disable()
        try:
            return self._lean_search(roots, budget, max_turns)
        finally:
            if paused:
                gc.enable()

    def _lean_search(self, roots: list[State], budget: int, max_turns: int | None = None,
                     ) -> tuple[Status, int, int, int, list[RawChoice], int, int]:
        """Breadth-first by turns from ``roots`` (in order of preference; any states of
        the same phase, such as the ten starts or a game under way).

        Returns (status, turns, boosts used, the start column of the line, the choice
        line, states stored, turns searched without a win). With ``max_turns``, the
        status is LONGER when no line of at most that many turns exists.

        The search finds the same line as a plain breadth-first search that expands every
        state of a layer and keeps the first of the fewest boosts among the wins of the
        first winning turn (layer order, then ``expand`` order), but it does less:
        - a state is checked for a win in its next turn when it is stored (a cheap test
          rejects almost all: a move reaches the goal row only in a +y turn through at
          most three solid cells, or from a start picked after a capture), so the layer
          whose turn wins is never expanded and the layer after it never stored;
        - once a win is known, nothing more is stored, and states whose spent boosts
          reach its total are skipped (they can at best tie, and a tie found later in
          layer order loses).
        ``budget`` bounds the states stored (one dict entry per position), checked as
        they are stored: never more than the plain search counted at the same point.
        """
        # One dict: position (the state less its boosts) -> its record (key, boosts
        # left, parent record, choice). Records chain back to the roots.
        seen: dict[Key, Record] = {}
        layer: list[Record] = []
        win: tuple[int, Record, RawChoice] | None = None
        for root in roots:
            key = root[:-1]
            record: Record = (key, root[-1], None, NO_CHOICE, len(layer))
            seen[key] = record
            layer.append(record)
            choice = self._win(key, root[-1])
            if choice is not None:
                total = BOOST_CACHE - root[-1] + choice[2]  # spent in all, as below
                if win is None or total < win[0]:
                    win = (total, record, choice)
        turn = 0
        offset = roots[0][5]  # the roots' phase: 0 before turn 1, any in a game under way
        if any(root[5] != offset for root in roots):
            raise ValueError("the roots of one search must share their gravity")
        node_at, territory, below = self.node_at, self.territory, BELOW
        seen_get, seen_setdefault = seen.get, seen.setdefault
        serial = len(layer)  # records are numbered as they are stored
        superseded: set[int] = set()  # the numbers of records replaced by more boosts
        cache, goal, limit, max_boost = BOOST_CACHE, GOAL_MASK, LIMIT, MAX_BOOST_PER_TURN
        plain, picked_t, cells, bits = CHOICES, PICKED, self.territory_cells, BITS
        while layer and win is None:
            turn += 1
            phase = offset + turn - 1 & 3  # the gravity of the turn played now
            rays, ends, step, nxt_table = RAYS[phase], RAY_ENDS[phase], STEPS[phase], \
                NEXT[phase]
            ray_from = RAY_FROM[phase]
            forward = step > 0
            next_phase = phase + 1 & 3
            check_fall = next_phase == 0  # the next turn falls in +y
            last = max_turns is not None and turn >= max_turns  # wins next turn too long
            following: list[Record] = []
            append = following.append
            best_used = cache + 1  # the win's total, once one is known
            remaining = iter(layer)
            for record in remaining:
                key, left = record[0], record[1]
                if record[4] in superseded:
                    continue  # the same position was reached with more boosts left
                if cache - left >= best_used:
                    continue  # can at best tie the win found, later in layer order
                pos, solid, t1, t2, t3, _, choose, first = key
                untouched = ~(t1 | t2 | t3)  # a fall touches these cells now
                unheld = ~(t1 | t2)  # after the collapse, t3's cells are solid
                solid_c = solid | t3
                for start in (cells[choose] if choose >= 0 else (pos,)):
                    choices = plain if choose < 0 else picked_t[start]
                    if choose >= 0 and bits[start] & goal:
                        continue  # a win: found when this state was stored
                    # Fall: the first solid cell along the ray stops it (or the edge);
                    # the cells passed are the ray less the stop and what lies beyond.
                    ray = rays[start]
                    blockers = ray & solid
                    if not blockers:
                        p, path = (ends[start] if ray else start), ray
                    else:
                        f = ((blockers & -blockers) if forward else blockers).bit_length() - 1
                        path = ray ^ ray_from[f]
                        p = f - step if path else start
                    if path & goal or t3 & bits[p]:
                        continue  # won (found before) or lost
                    cur = first | (path & untouched)
                    kid = (p, solid_c, cur, t1, t2, next_phase, -1, 0)
                    if win is None and not last:
                        # Stored unless the position is known with as many boosts: one
                        # look-up for a new position (most are).
                        kid_record = (kid, left, record, choices[0], serial)
                        had = seen_setdefault(kid, kid_record)
                        if had is kid_record or had[1] < left:
                            if had is not kid_record:
                                superseded.add(had[4])
                                seen[kid] = kid_record
                            append(kid_record)
                            serial += 1
                            if check_fall and (solid_c & below[p]).bit_count() <= limit[left]:
                                won = self._win(kid, left)
                                if won is not None and cache - left + won[2] < best_used:
                                    best_used = cache - left + won[2]
                                    win = (best_used, kid_record, won)
                    else:
                        old = seen_get(kid)
                        if old is None or old[1] < left:
                            if last:
                                return (Status.LONGER, 0, 0, -1, [], len(seen), turn)
                            if check_fall and (solid_c & below[p]).bit_count() <= limit[left]:
                                won = self._win(kid, left)
                                if won is not None and cache - left + won[2] < best_used:
                                    best_used = cache - left + won[2]
                                    win = (best_used, (kid, left, record, choices[0], serial),
                                           won)
                    q = nxt_table[p]
                    if q < 0 or not solid_c & bits[q]:
                        continue
                    s, c, used = solid_c, cur, 0
                    while True:
                        b = bits[q]
                        s ^= b  # q is solid: drilled open
                        c |= b
                        if b & goal:
                            break
                        kl = left - used  # boosts left after this choice
                        spent = cache - kl
                        node = node_at[q]
                        if node >= 0:
                            fresh = territory[node] & s
                            kid = (q, s & ~fresh, c | fresh, t1, t2, next_phase, node, 0)
                            old = seen_get(kid)
                            if old is None or old[1] < kl:
                                if last:
                                    return (Status.LONGER, 0, 0, -1, [], len(seen), turn)
                                if spent < best_used:
                                    kid_record = (kid, kl, record, choices[used + 1], serial)
                                    if win is None:
                                        if old is not None:
                                            superseded.add(old[4])
                                        seen[kid] = kid_record
                                        append(kid_record)
                                        serial += 1
                                    won = self._win(kid, kl)
                                    if won is not None and spent + won[2] < best_used:
                                        best_used = spent + won[2]
                                        win = (best_used, kid_record, won)
                            break
                        ray = rays[q]
                        blockers = ray & s
                        if not blockers:
                            p2, path2 = (ends[q] if ray else q), ray
                        else:
                            f = ((blockers & -blockers) if forward else blockers
                                 ).bit_length() - 1
                            path2 = ray ^ ray_from[f]
                            p2 = f - step if path2 else q
                        if not path2 & goal:
                            kid = (p2, s, c | (path2 & unheld), t1, t2, next_phase, -1, 0)
                            if win is None and not last:
                                kid_record = (kid, kl, record, choices[used + 1], serial)
                                had = seen_setdefault(kid, kid_record)
                                if had is kid_record or had[1] < kl:
                                    if had is not kid_record:
                                        superseded.add(had[4])
                                        seen[kid] = kid_record
                                    append(kid_record)
                                    serial += 1
                                    if check_fall and (
                                            s & below[p2]).bit_count() <= limit[kl]:
                                        won = self._win(kid, kl)
                                        if won is not None and spent + won[2] < best_used:
                                            best_used = spent + won[2]
                                            win = (best_used, kid_record, won)
                            else:
                                old = seen_get(kid)
                                if old is None or old[1] < kl:
                                    if last:
                                        return (Status.LONGER, 0, 0, -1, [], len(seen), turn)
                                    if spent < best_used and check_fall and (
                                            s & below[p2]).bit_count() <= limit[kl]:
                                        won = self._win(kid, kl)
                                        if won is not None and spent + won[2] < best_used:
                                            best_used = spent + won[2]
                                            win = (best_used, (kid, kl, record,
                                                               choices[used + 1], serial), won)
                        if used in (max_boost, left):
                            break
                        q2 = nxt_table[q]
                        if q2 < 0 or not s & bits[q2]:
                            break
                        q, used = q2, used + 1
                if win is None:
                    if len(seen) > budget:
                        return (Status.UNDECIDED, 0, 0, -1, [], len(seen), turn)
                else:
                    # A win is known: the rest of the layer can only offer a cheaper one.
                    win = self._finish(remaining, win, superseded, offset + turn)
                    break
            layer = following
        if win is None:
            return (Status.NONE, 0, 0, -1, [], len(seen), turn)
        used, record, choice = win
        line = [choice]
        while record[2] is not None:
            line.append(record[3])
            record = record[2]
        line.reverse()
        return (Status.WIN, len(line), used, record[0][0], line, len(seen), len(line) - 1)

    def _finish(self, remaining: Iterable[Record], win: tuple[int, Record, RawChoice],
                superseded: set[int], turn: int) -> tuple[int, Record, RawChoice]:
        """The rest of a layer once a win in the next turn but one is known (turn ``turn``
        is being played from these states, counted so that turn 1 falls in +y): only a
        win with fewer boosts in total, found later in layer order, can replace it.
        Nothing is stored; a next state is built only when the quick tests leave it a
        chance. A next state already stored with as many boosts was checked when it was
        stored, so no look-up is needed."""
        best_used = win[0]
        phase = (turn - 1) & 3
        next_phase = turn & 3
        check_fall = next_phase == 0
        goal_nodes = {q for q, n in self.centre_node.items() if self.territory[n] & GOAL_MASK}
        if not check_fall and not goal_nodes:
            return win  # no move can reach the far row next turn
        rays, ends, step, nxt_table = RAYS[phase], RAY_ENDS[phase], STEPS[phase], NEXT[phase]
        forward = step > 0
        centre_node, territory, below, bits = self.centre_node, self.territory, BELOW, BITS
        for record in remaining:
            key, left = record[0], record[1]
            spent = BOOST_CACHE - left
            if spent >= best_used or record[4] in superseded:
                continue
            pos, solid, t1, t2, t3, _, choose, first = key
            if choose >= 0:  # rare: every choice, the plain way
                for choice, result in self.expand((*key, left)):
                    if result is WIN:
                        continue  # found when the state was stored
                    won = self._win(result[:-1], result[-1])
                    if won is not None and spent + choice[2] + won[2] < best_used:
                        best_used = spent + choice[2] + won[2]
                        win = (best_used, (result[:-1], result[-1], record, choice, -1), won)
                continue
            older = t1 | t2 | t3
            solid_c = solid | t3
            ray = rays[pos]
            blockers = ray & solid
            if not blockers:
                p, path = (ends[pos] if ray else pos), ray
            elif forward:
                f = (blockers & -blockers).bit_length() - 1
                path = ray & ((1 << f) - 1)
                p = f - step if path else pos
            else:
                f = blockers.bit_length() - 1
                path = ray & ~((2 << f) - 1)
                p = f - step if path else pos
            if path & GOAL_MASK or t3 & bits[p]:
                continue
            cur = first | (path & ~older)
            if check_fall:
                # Each solid cell below but the first costs a boost next turn.
                count = (solid_c & below[p]).bit_count()
                if count <= LIMIT[left] and spent + max(count - 1, 0) < best_used:
                    kid = (p, solid_c, cur, t1, t2, next_phase, -1, 0)
                    won = self._win(kid, left)
                    if won is not None and spent + won[2] < best_used:
                        best_used = spent + won[2]
                        win = (best_used, (kid, left, record, CHOICES[0], -1), won)
            q = nxt_table[p]
            if q < 0 or not solid_c & bits[q]:
                continue
            s, c, used = solid_c, cur, 0
            while spent + used < best_used:
                b = bits[q]
                s &= ~b
                c |= b
                if b & GOAL_MASK:
                    break
                kl = left - used
                node = centre_node.get(q)
                if node is not None:
                    if check_fall or q in goal_nodes:
                        fresh = territory[node] & s
                        kid = (q, s & ~fresh, c | fresh, t1, t2, next_phase, node, 0)
                        won = self._win(kid, kl)
                        if won is not None and spent + used + won[2] < best_used:
                            best_used = spent + used + won[2]
                            win = (best_used, (kid, kl, record, CHOICES[used + 1], -1), won)
                    break
                if check_fall:
                    ray = rays[q]
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
                    count = (s & below[p2]).bit_count()
                    if (not path2 & GOAL_MASK and count <= LIMIT[kl]
                            and spent + used + max(count - 1, 0) < best_used):
                        kid = (p2, s, c | (path2 & ~(t1 | t2 | c)), t1, t2, next_phase, -1, 0)
                        won = self._win(kid, kl)
                        if won is not None and spent + used + won[2] < best_used:
                            best_used = spent + used + won[2]
                            win = (best_used, (kid, kl, record, CHOICES[used + 1], -1), won)
                if used in (MAX_BOOST_PER_TURN, left):
                    break
                q2 = nxt_table[q]
                if q2 < 0 or not s & bits[q2]:
                    break
                q, used = q2, used + 1
        return win

    @staticmethod
    def _choices(raw: list[RawChoice]) -> list[Choice]:
        return [Choice(cell_of(p) if p >= 0 else None, drill, boost) for p, drill, boost in raw]

    def solve_start(self, x: int, budget: int = DEFAULT_BUDGET) -> StartResult:
        """The shortest line from top-row column x, or a proof that there is none."""
        status, turns, used, _, line, stored, searched = self._search([self.root(x)], budget)
        if status is not Status.WIN:
            return StartResult(x, status, states=stored, searched=searched)
        return StartResult(x, Status.WIN, turns, used, self._choices(line), stored,
                           searched=searched)

    def line_from(self, state: State, budget: int = DEFAULT_BUDGET) -> StartResult:
        """The shortest line from any state, such as a game under way: fewest turns, then
        boost spaces, by the same search as ``solve_start`` (which is ``line_from`` of a
        root). ``boosts`` counts the spaces spent from ``state`` on; ``start`` is -1."""
        status, turns, used, _, line, stored, searched = self._search([state], budget)
        if status is not Status.WIN:
            return StartResult(-1, status, states=stored, searched=searched)
        return StartResult(-1, Status.WIN, turns, used - (BOOST_CACHE - state[-1]),
                           self._choices(line), stored, searched=searched)

    def best_line(self, budget: int = DEFAULT_BUDGET, max_turns: int | None = None,
                  ) -> StartResult:
        """The shortest line over all start cells at once (fewest turns, then boosts,
        then the leftmost start): one search from all ten starts together. With
        ``max_turns`` the search gives up (LONGER) past that many turns. ``solve`` finds
        the same line as the best of the ten starts' own searches."""
        status, turns, used, start, line, stored, searched = self._search(
            [self.root(x) for x in range(WIDTH)], budget, max_turns)
        if status is not Status.WIN:
            return StartResult(-1, status, states=stored, searched=searched)
        return StartResult(start, Status.WIN, turns, used, self._choices(line), stored,
                           searched=searched)

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
              progress: Callable[[int], None] | None = None, jobs: int = 1) -> Solution:
        """The whole board. ``budget`` bounds every single search. With ``shortest``,
        each start gets its shortest line, falling back to any winning line when that
        search runs out of budget; without, each start only gets some winning line (the
        board's best line is exact either way). ``progress`` is told each start done.

        With ``shortest``, the board's best line is the best of the starts' shortest
        lines (fewest turns, then boosts, then the leftmost start: what ``best_line``
        finds, see ``best_of``); only when a start's search ran out of budget before
        ruling out a line as short does ``best_line`` search all starts at once. The best
        line's own start shows the best line (a start's shortest line is the board's
        when the board's starts there).

        With ``jobs`` > 1 the ten starts are searched in that many worker processes
        (``workers.ordered_map``; each start's search is the same, so the answers and the
        states counted are too, only the order ``progress`` is told differs). Worth it
        for one board (``rotator solve``), not where boards are already solved side by
        side (the generator's workers)."""
        search = partial(self._start, budget=budget, shortest=shortest)
        results: list[StartResult]
        if jobs > 1:
            from cardgen.games.rotator.workers import ordered_map

            results = ordered_map(search, range(WIDTH), jobs, progress,
                                  what=lambda x: f"searching from {card_name((x, 0))}")
        else:
            results = []
            for x in range(WIDTH):
                results.append(search(x))
                if progress:
                    progress(x)
        best = (best_of(results) if shortest else None) or self.best_line(budget)
        if best.status is Status.WIN and results[best.start] is not best:
            # --quick, or a start whose own search ran out: the best line is its shortest.
            results[best.start] = replace(best, states=results[best.start].states)
        return Solution(best, results, budget)

    def _start(self, x: int, budget: int, shortest: bool) -> StartResult:
        """One start's outcome for ``solve``: its shortest line (with ``shortest``), or
        some winning line when that search ran out of budget or was not asked for."""
        result = self.solve_start(x, budget) if shortest else None
        if result is None or result.status is Status.UNDECIDED:
            spent = result.states if result else 0
            searched = result.searched if result else 0
            result = self.witness(x, budget)
            result.states += spent
            result.searched = searched
        return result


def best_of(results: list[StartResult]) -> StartResult | None:
    """The board's best line from the ten starts' own searches: the shortest line of the
    start that wins in the fewest turns, then boosts, then the leftmost; None when that is
    not proved (a start ran out of budget before ruling out a line as short).

    It is the line ``best_line`` finds: the search from all starts at once keeps each
    layer in start order (children follow their parents) and the first of the fewest
    boosts; a position two starts share is kept for the earlier start, which then wins
    at least as well. The benchmark and tests/test_rotator_fast.py check it."""
    wins = [r for r in results if r.status is Status.WIN and r.shortest]
    if not wins:
        if all(r.status is Status.NONE for r in results):
            return StartResult(-1, Status.NONE)
        return None
    best = min(wins, key=lambda r: (r.turns, r.boosts, r.start))
    for r in results:
        if r.status is not Status.NONE and not r.shortest and r.searched < best.turns:
            return None  # that start might have a line as short
        if r.status is Status.UNDECIDED and r.searched < best.turns:
            return None
    return best
