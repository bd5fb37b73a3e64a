"""Frozen copy of cardgen/games/rotator/grading.py at commit 10fcb7a (before issue 26), on
the frozen solver (benchmarks/generation_baseline_solver.py), with the generator's
``analyse`` and its one-process loop of the same commit at the end: today's generation,
the baseline of benchmarks/bench_generation.py and the oracle of tests/test_rotator_fastgrade.py.
Not used to make boards for users; do not change it.

How hard a Rotator board is to win: the figures the grades are made of.

Built only on the solver (``Solver.root(x)``, ``Solver.expand(state)`` and, for par, its
``best_line``), so it plays by exactly the rules the solver and the engine play by. The
figures:

- **par**: the fewest turns of any winning line, over all ten start squares (the board's
  best line, as the solver finds it).
- **horizon**: par + 4 turns. A player who misses the par line by one rotation of the
  card still wins "on time"; a win by falling can only come in a turn of down-gravity
  (turns 1, 5, 9, …) or by picking a goal-row square after a capture, so par + 4 is the
  next chance after par, not an arbitrary slack.
- **boosts needed**: the fewest boost spaces used by any winning line of at most
  ``horizon`` turns (it may be fewer than the par line's own boosts, when a line one
  rotation longer saves boosts).
- **first moves**: a first move is a start square of grid A's Row 10 together with the
  choice played in turn 1: fall only, drill, drill + 1 boost, or drill + 2 boosts (each a
  distinct choice the rules allow; turn 1 never starts after a capture, so there is no
  other choice). ``first_moves`` counts the legal ones on the board, at most 40.
- **open first moves**: the first moves from which some winning line of at most
  ``horizon`` turns (counted from turn 1) still exists. The horizon bounds it, not
  "a win at all": a first move that only wins by a detour of many rotations is not a
  sound opening for a player, and the bound keeps each search finite and small.
- **par moves**: the first moves that still win within par turns: how many openings
  the best line leaves the player.

Pruning (dominance). A state is the position with everything else the rules look at, and
the boost spaces left; the phase is part of it, so the same state can only come back a
multiple of four turns later. Searches run breadth-first, a turn at a time, and skip a
state when the same state without its boosts was already reached *in this or an earlier
turn* with at least as many boosts left. That is sound for a turn-bounded search: the
earlier state can play the later one's continuation move for move (more boosts left
never forbid a move), so it wins in fewer or as many turns, within any bound the later
one meets, spending the same boosts. A state reached later but with *more* boosts left is
not dominated (it may win a bound-respecting line with fewer boosts spent, or one that
needs the boosts), so it is kept; the table keeps the most boosts left seen so far, which,
turn by turn, is the most over all earlier-or-equal turns.

The searches for first moves go best first instead (a win is usually found in a few
hundred states) and keep the turn with each state; see ``win_within``.

Every search stops at a state budget and answers None then: it never guesses.

The two searches are written here for reading, on ``Solver.expand``
(``readable_fewest_boosts``, ``readable_win_within``): they are the spec. The figures are
searched by the solver's own copies (``Solver.fewest_boosts``, ``Solver.win_within``),
which play the same states in the same order without building each turn's choices, and
count the same states; :class:`ReadableSolver` is a solver that answers with the
readable searches instead, for the tests and the benchmark that compare the two.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass, replace
from typing import Any

from benchmarks.generation_baseline_solver import (
    DEFAULT_BUDGET,
    NO_WIN,
    WIN,
    RawChoice,
    Solver,
    StartResult,
    State,
    Status,
)
from cardgen.board.cells import WIDTH
from cardgen.games.rng import SplitMix64
from cardgen.games.rotator.board import RotatorMap
from cardgen.games.rotator.engine import BOOST_CACHE, GOAL_ROW, Terrain
from cardgen.games.rotator.generator import (
    MAPS_PER_BOARD,
    MAX_TURNS,
    MIN_TURNS,
    THRESHOLDS,
    Grade,
    GradedBoard,
    GradeThresholds,
    grade,
    random_map,
)

HORIZON_EXTRA = 4  # turns past par a line may take and still count (one turn of the card)
FirstMove = tuple[int, RawChoice]  # (start column, turn-1 choice)


@dataclass(frozen=True)
class Figures:
    """A board's difficulty figures (see the module docstring)."""

    par: int
    boosts_needed: int  # fewest boost spaces over winning lines of ≤ par + 4 turns
    open_moves: int  # first moves that still win within par + 4 turns
    first_moves: int  # legal first moves on the board
    par_moves: int  # first moves that still win within par turns
    states: int  # states expanded by all the searches
    starts: frozenset[int] = frozenset()  # start columns with an open first move

    @property
    def horizon(self) -> int:
        return self.par + HORIZON_EXTRA


def first_moves(solver: Solver) -> list[tuple[FirstMove, State | None]]:
    """Every first move with the state it leads to (None: it wins at once), in start
    order, then in the solver's order of choices."""
    return [((x, choice), None if result is WIN else result)
            for x in range(WIDTH) for choice, result in solver.expand(solver.root(x))]


def readable_fewest_boosts(solver: Solver, last_turn: int, cheaper_than: int, budget: int,
                           ) -> tuple[int, int] | None:
    """Breadth-first from all ten starts at once, a turn at a time, to ``last_turn``,
    pruned by dominance and by ``cheaper_than``: a state that has spent that many boosts
    cannot lead to a line using fewer, so it is not expanded. Returns (the fewest boosts
    of a win found, or ``cheaper_than`` when none was cheaper; states expanded), or None
    when the budget ran out: states expanded plus the next turn's states stored, as the
    solver counts them."""
    best: dict[tuple[int, ...], int] = {}
    layer: list[State] = []
    for x in range(WIDTH):
        root = solver.root(x)
        best[root[:-1]] = root[-1]
        layer.append(root)
    turn = expanded = 0
    fewest = cheaper_than
    while layer:
        turn += 1
        last = turn == last_turn
        following: list[State] = []
        for state in layer:
            left = state[-1]
            if best[state[:-1]] > left or BOOST_CACHE - left >= fewest:
                continue  # dominated, or has spent as many boosts as a line known
            expanded += 1
            for choice, result in solver.expand(state):
                if result is WIN:
                    fewest = min(fewest, BOOST_CACHE - left + choice[2])
                    continue
                if last:
                    continue  # the last turn searched: only wins count
                key, after = result[:-1], result[-1]
                if best.get(key, -1) >= after:
                    continue
                best[key] = after
                following.append(result)
        if expanded + len(following) > budget:
            return None
        if last:
            break
        layer = following
    return fewest, expanded


def par_search(solver: Solver, budget: int, max_par: int | None = None,
               ) -> StartResult | None:
    """The board's best line (par turns, the fewest boosts of a line of par turns), or
    None when no line exists (or none within ``max_par`` turns) or the budget ran out:
    the solver's own search from all ten starts (``Solver.best_line``)."""
    best = solver.best_line(budget, max_par)
    return best if best.status is Status.WIN else None


def boosts_needed(solver: Solver, par: int, known: int, budget: int,
                  below: int | None = None) -> tuple[int, int] | None:
    """(the fewest boost spaces of a winning line of at most par + 4 turns, states
    expanded), given that a line of par turns with ``known`` boosts exists; None when
    the budget ran out. With ``below``, only lines using fewer than that many are
    looked for: the answer is then ``below`` when there is none (it means "at least")."""
    limit = known if below is None else min(known, below)
    return solver.fewest_boosts(par + HORIZON_EXTRA, limit, budget)


def win_within(solver: Solver, state: State, turn: int, horizon: int, budget: int,
               cheaper_than: int = NO_WIN) -> tuple[int | None, int]:
    """Whether some line from ``state`` (reached after turn ``turn``) wins by turn
    ``horizon`` (see ``readable_win_within``), as the solver searches it."""
    return solver.win_within(state, turn, horizon, budget, cheaper_than)


def readable_win_within(solver: Solver, state: State, turn: int, horizon: int, budget: int,
                        cheaper_than: int = NO_WIN) -> tuple[int | None, int]:
    """Whether some line from ``state`` (reached after turn ``turn``) wins by turn
    ``horizon``: (the turn of the win found, not always the earliest, or 0 when there is
    none, or None when the budget ran out; states expanded). With ``cheaper_than``, only
    lines that spend fewer boost spaces in all (since turn 1) count.

    Best first: the state nearest the goal row, then the earliest. Dominance needs
    the turn here, since states do not come in turn order: a state is skipped when the
    table holds the same state reached as early or earlier with as many boosts left or
    more. The table keeps one entry per state; a newcomer the entry does not dominate
    replaces it, and the entry it replaced is still expanded (it was queued), so every
    skipped state has an expanded state that dominates it, and the search is complete."""
    seen: dict[tuple[int, ...], tuple[int, int]] = {state[:-1]: (turn, state[-1])}
    heap: list[tuple[int, int, int, State]] = [(GOAL_ROW - state[0] // WIDTH, turn, 0, state)]
    counter = expanded = 0
    while heap:
        _, t, _, state = heapq.heappop(heap)
        known_turn, known_left = seen[state[:-1]]
        if (known_turn, known_left) != (t, state[-1]) and known_turn <= t \
                and known_left >= state[-1]:
            continue
        expanded += 1
        if expanded + len(heap) > budget:
            return None, expanded
        last = t + 1 >= horizon
        for choice, result in solver.expand(state):
            if result is WIN:
                if BOOST_CACHE - state[-1] + choice[2] < cheaper_than:
                    return t + 1, expanded
                continue
            if last or BOOST_CACHE - result[-1] >= cheaper_than:
                continue
            key, left = result[:-1], result[-1]
            old = seen.get(key)
            if old is not None and old[0] <= t + 1 and old[1] >= left:
                continue
            seen[key] = (t + 1, left)
            counter += 1
            heapq.heappush(heap, (GOAL_ROW - result[0] // WIDTH, t + 1, counter, result))
    return 0, expanded


class ReadableSolver(Solver):
    """A solver whose grading searches are this module's readable ones: the figures it
    gives are the spec the solver's fast searches must match."""

    def fewest_boosts(self, last_turn: int, cheaper_than: int, budget: int,
                      ) -> tuple[int, int] | None:
        return readable_fewest_boosts(self, last_turn, cheaper_than, budget)

    def win_within(self, state: State, turn: int, horizon: int, budget: int,
                   cheaper_than: int = NO_WIN) -> tuple[int | None, int]:
        return readable_win_within(self, state, turn, horizon, budget, cheaper_than)


def cheaper_line(solver: Solver, par: int, below: int, budget: int,
                 ) -> tuple[bool, int] | None:
    """Whether some line of at most par + 4 turns spends fewer than ``below`` boost
    spaces (states expanded too), or None when the budget ran out. Cheaper than
    ``boosts_needed`` when the answer is yes: a best-first search from each start stops
    at the first such line."""
    expanded = 0
    for x in range(WIDTH):
        wins, spent = win_within(solver, solver.root(x), 0, par + HORIZON_EXTRA, budget,
                                 cheaper_than=below)
        expanded += spent
        if wins is None:
            return None
        if wins:
            return True, expanded
    return False, expanded


def open_moves(solver: Solver, moves: list[tuple[FirstMove, State | None]], horizon: int,
               budget: int, enough: int | None = None,
               ) -> tuple[dict[FirstMove, int], int] | None:
    """The first moves that still win within ``horizon`` turns, each with the turn of a
    win found (not always its earliest), and the states expanded; or None when a search
    ran out of ``budget``. One search per first move, with its own dominance table: a
    state of one move dominated by a state of another says nothing about the first
    move's own chances. With ``enough``, the searches stop once that many moves are
    found open."""
    found: dict[FirstMove, int] = {}
    expanded = 0
    for move, state in moves:
        if len(found) == enough:
            break
        if state is None:
            found[move] = 1
            continue
        wins, spent = win_within(solver, state, 1, horizon, budget)
        expanded += spent
        if wins is None:
            return None
        if wins:
            found[move] = wins
    return found, expanded


def figures(solver: Solver, budget: int, max_par: int | None = None) -> Figures | None:
    """The difficulty figures of a board, or None when it cannot be won (within
    ``max_par`` turns, when given) or a search ran out of ``budget`` stored states."""
    found = par_search(solver, budget, max_par)
    if found is None:
        return None
    par, known, states = found.turns, found.boosts, found.states
    boosts = boosts_needed(solver, par, known, budget)
    opened = opening(solver, par, budget)
    if boosts is None or opened is None:
        return None
    return opened.with_boosts(boosts[0], states + boosts[1])


@dataclass(frozen=True)
class Opening:
    """What the first-move searches found: the figures but boosts needed."""

    par: int
    open_moves: int
    first_moves: int
    par_moves: int
    starts: frozenset[int]
    states: int
    complete: bool = True  # False: the searches stopped at ``enough`` open moves

    def with_boosts(self, boosts: int, states: int) -> Figures:
        return Figures(self.par, boosts, self.open_moves, self.first_moves, self.par_moves,
                       self.states + states, self.starts)


def opening(solver: Solver, par: int, budget: int, enough: int | None = None,
            ) -> Opening | None:
    """The first moves that win within par + 4 turns and within par, or None when a
    search ran out of ``budget``. With ``enough``, only whether at least that many are
    open is settled: when they are, the figures are partial (``complete`` False) and
    par moves are not searched."""
    moves = first_moves(solver)
    opened = open_moves(solver, moves, par + HORIZON_EXTRA, budget, enough)
    if opened is None:
        return None
    wins, more = opened
    if len(wins) == enough:
        return Opening(par, enough, len(moves), 0, frozenset(x for x, _ in wins), more,
                       complete=False)
    # A move whose win found came by par is a par move; the others need a search to par.
    unsure = [m for m in moves if m[0] in wins and wins[m[0]] > par]
    at_par = open_moves(solver, unsure, par, budget)
    if at_par is None:
        return None
    par_moves = sum(1 for t in wins.values() if t <= par) + len(at_par[0])
    return Opening(par, len(wins), len(moves), par_moves,
                   frozenset(x for x, _ in wins), more + at_par[1])


# --- generator.py's analyse and its one-process loop, at the same commit ----------------


def _settled_above(wanted: Grade, par: int, t: GradeThresholds = THRESHOLDS) -> int | None:
    def grades(opened: int) -> list[bool]:
        return [grade(Figures(par, b, opened, 0, 0, 0), t) is wanted
                for b in range(BOOST_CACHE + 1)]
    most = 4 * WIDTH  # four choices in turn 1 at most, on each start
    top = grades(most)
    k = most
    while k > 0 and grades(k - 1) == top:
        k -= 1
    return k if k < most else None


def analyse(rmap: RotatorMap, budget: int = DEFAULT_BUDGET,
            wanted: Grade | None = None) -> GradedBoard | None:
    solver = Solver(Terrain.from_map(rmap))
    # The best line: par for the grade, and the line for the answer key.
    best = par_search(solver, budget, MAX_TURNS[wanted] if wanted else None)
    if best is None or best.turns < MIN_TURNS[wanted or Grade.EASY]:
        return None
    par, known, states = best.turns, best.boosts, best.states
    enough = None if wanted is None else _settled_above(wanted, par)
    opened = opening(solver, par, budget, enough)
    if opened is None:
        return None
    states += opened.states
    if wanted is not None:
        by_boosts = [grade(opened.with_boosts(b, 0)) for b in range(BOOST_CACHE + 1)]
        if wanted not in by_boosts:
            return None
        edge = next((b for b, g in enumerate(by_boosts) if g is not by_boosts[0]), None)
        if edge is not None and len(set(by_boosts[edge:])) == 1:  # one edge: ask "< edge?"
            probe = cheaper_line(solver, par, edge, budget)
            if probe is None:
                return None
            states += probe[1]
            if by_boosts[0 if probe[0] else edge] is not wanted:
                return None
        if not opened.complete:  # kept: count every open move
            opened = opening(solver, par, budget)
            if opened is None:
                return None
            states += opened.states
    exact = boosts_needed(solver, par, known, budget)
    if exact is None:
        return None
    boosts, states = exact[0], states + exact[1]
    found = opened.with_boosts(boosts, 0)
    if wanted is not None and grade(found) is not wanted:
        return None
    winning = []
    for x in range(WIDTH):
        if x in found.starts:  # wins within par + 4 turns
            winning.append(x)
            continue
        result = solver.witness(x, budget)
        states += result.states
        if result.status is Status.UNDECIDED:
            return None
        if result.status is Status.WIN:
            winning.append(x)
    found = replace(found, states=states)
    return GradedBoard(rmap, grade(found), best, tuple(winning), states, found)


def generate(seed: int, count: int, wanted: Grade | None = None,
             budget: int = DEFAULT_BUDGET) -> tuple[list[GradedBoard], int]:
    """``generator.generate`` of one grade (or any), with one job: the boards found and
    the maps tried."""
    rng = SplitMix64(seed)
    seen: set[str] = set()
    found: list[GradedBoard] = []
    candidates = 0
    while len(found) < count and candidates < MAPS_PER_BOARD * count:
        rmap = random_map(rng)
        candidates += 1
        if rmap.board_id in seen:
            continue
        seen.add(rmap.board_id)
        graded = analyse(rmap, budget, wanted)
        if graded is not None:
            found.append(graded)
    return found, candidates


# --- not frozen: how both sides are compared --------------------------------------------


def record(board: Any) -> tuple[Any, ...] | None:
    """What a graded board holds, as plain values, so that a board of this baseline (its
    own classes) and one of today's generator compare equal when they hold the same."""
    if board is None:
        return None
    best, figures = board.best, board.figures
    return (board.rmap.board_id, str(board.grade), board.winning_starts,
            (best.start, str(best.status), best.turns, best.boosts,
             [(c.start, c.drill, c.boost) for c in best.choices]),
            (figures.par, figures.boosts_needed, figures.open_moves, figures.first_moves,
             figures.par_moves, figures.starts))
