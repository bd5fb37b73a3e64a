"""The same breadth-first search as solver.py, written straightforwardly over the
readable engine (frozensets, one ``play_turn`` per choice).

It is the baseline of benchmarks/bench_rotator.py and an independent check of the fast
solver in the tests; it is not used to solve boards for users.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cardgen.board.cells import Cell
from cardgen.games.rotator.engine import (
    Choice,
    IllegalMove,
    State,
    Terrain,
    play_turn,
    start_state,
)
from cardgen.games.rotator.solver import StartResult, Status, trace_line

_DRILLS = ((False, 0), (True, 0), (True, 1), (True, 2))


def _key(state: State) -> tuple[Any, ...]:
    """Everything that decides the future except the boosts left; touch turns are kept
    relative to the current turn so that equal positions at different turns match."""
    ages = frozenset((cell, state.turn - t) for cell, t in state.touched)
    return ((state.turn - 1) % 4, state.pos, state.solid, ages, state.choose_from)


def successors(terrain: Terrain, state: State) -> list[tuple[Choice, State, bool, bool]]:
    """(choice, next state, won, lost) for every legal choice."""
    starts: Sequence[Cell | None]
    if state.choose_from is not None:
        starts = sorted(terrain.territories[state.choose_from])
    else:
        starts = [None]
    out = []
    for start in starts:
        for drill, boost in _DRILLS:
            choice = Choice(start, drill, boost)
            try:
                after, report = play_turn(terrain, state, choice)
            except IllegalMove:
                continue
            out.append((choice, after, report.won, report.lost))
    return out


def solve_start(terrain: Terrain, x: int, budget: int = 10**9) -> StartResult:
    return solve_from(terrain, start_state(terrain, x), x, budget)


def solve_from(terrain: Terrain, root: State, x: int, budget: int = 10**9) -> StartResult:
    """The search from any position ``root`` (reported for start column ``x``): the
    boosts of a line are those spent from ``root`` on."""
    best = {_key(root): root.boosts}
    parent: dict[State, tuple[State, Choice] | None] = {root: None}
    layer = [root]
    explored = 0
    turn = 0
    while layer:
        turn += 1
        wins: list[tuple[int, State, Choice]] = []
        following: list[State] = []
        for state in layer:
            if best[_key(state)] > state.boosts:
                continue  # the same position was reached with more boosts left
            explored += 1
            for choice, after, won, lost in successors(terrain, state):
                if won:
                    wins.append((root.boosts - after.boosts, state, choice))
                elif not lost:
                    key = _key(after)
                    if best.get(key, -1) >= after.boosts:
                        continue
                    best[key] = after.boosts
                    parent[after] = (state, choice)
                    following.append(after)
        if wins:
            used, state, choice = min(wins, key=lambda w: w[0])
            line, _ = trace_line(parent, state, choice)
            return StartResult(x, Status.WIN, turn, used, line, explored)
        if explored + len(following) > budget:
            return StartResult(x, Status.UNDECIDED, states=explored)
        layer = following
    return StartResult(x, Status.NONE, states=explored)
