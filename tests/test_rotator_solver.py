"""The solver: exhaustive, exact, shortest; every line replays through the engine; it
agrees with the straightforward reference search state for state."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardgen.games.rng import SplitMix64
from cardgen.games.rotator import reference
from cardgen.games.rotator.board import RotatorMap
from cardgen.games.rotator.engine import BOOST_CACHE, Terrain, replay
from cardgen.games.rotator.generator import random_map
from cardgen.games.rotator.solver import Solver, StartResult, Status
from tests.helpers import examples, sampled

BOARD = RotatorMap.from_id("R1:B2B8E4I2I8-B4E2E8H4I9")
WALL = Terrain.custom({(x, y) for x in range(10) for y in range(2, 20)})  # no way down


def figures(result: StartResult) -> tuple:
    """What a search answers: the outcome, the line's turns and boosts, and the line (the
    solver counts the states it stores, the reference the states it expands: not compared).
    """
    return (result.status, result.turns, result.boosts, result.choices)


def assert_agrees(fast: StartResult, slow: StartResult) -> None:
    """The fast search answers as the reference does; where the reference ran out of
    budget (it counts every state it expands) the fast one may have decided."""
    if slow.status is Status.UNDECIDED:
        return  # nothing to compare (a line the fast one finds is replayed by the caller)
    assert figures(fast) == figures(slow)


def assert_line_wins(terrain: Terrain, result: StartResult) -> None:
    reports = replay(terrain, result.start, result.choices)  # raises on any illegal move
    assert reports[-1].won and not any(r.lost for r in reports)
    assert len(reports) == result.turns
    assert sum(len(r.boosted) for r in reports) == result.boosts <= BOOST_CACHE


@pytest.mark.parametrize("x", sampled([0, 5, 7, 9], 0, 9))
def test_agrees_with_the_reference_search_on_a_real_board(x):
    terrain = Terrain.from_map(BOARD)
    fast = Solver(terrain).solve_start(x)
    slow = reference.solve_start(terrain, x)
    assert_agrees(fast, slow)
    if fast.status is Status.WIN:
        assert_line_wins(terrain, fast)
        assert_line_wins(terrain, slow)


@pytest.mark.slow
def test_a_proved_loss():
    for x in (0, 4, 9):
        fast = Solver(WALL).solve_start(x)
        assert fast.status is Status.NONE and fast.states > 0
        assert figures(fast) == figures(reference.solve_start(WALL, x))


def test_the_open_board_is_won_in_turn_one():
    result = Solver(Terrain.custom(set())).solve_start(3)
    assert (result.status, result.turns, result.boosts) == (Status.WIN, 1, 0)


def test_the_budget_gives_undecided_never_a_guess():
    solver = Solver(Terrain.from_map(BOARD))
    assert solver.solve_start(3, budget=50).status is Status.UNDECIDED
    assert solver.best_line(budget=50).status is Status.UNDECIDED
    assert solver.witness(3, budget=1).status is Status.UNDECIDED
    solution = solver.solve(budget=50)
    assert solution.solvable is None or solution.winning  # undecided unless proved


@st.composite
def terrains(draw):
    """Small random worlds: a few rows of rock, sometimes a Node."""
    solid = set()
    for y in draw(st.lists(st.integers(2, 18), min_size=1, max_size=5, unique=True)):
        holes = draw(st.sets(st.integers(0, 9), max_size=4))
        solid |= {(x, y) for x in range(10) if x not in holes}
    nodes = ()
    if draw(st.booleans()):
        nodes = ((draw(st.integers(2, 7)), draw(st.integers(2, 17))),)
    return Terrain.custom(solid, nodes)


@settings(max_examples=examples(25), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(terrains(), st.integers(0, 9))
def test_agrees_with_the_reference_on_random_worlds(terrain, x):
    fast = Solver(terrain).solve_start(x, budget=1500)
    slow = reference.solve_start(terrain, x, budget=1500)
    assert_agrees(fast, slow)
    if fast.status is Status.WIN:
        assert_line_wins(terrain, fast)


# Random maps with proved-lost starts (1, 10), none (3), and ties in turns broken by boosts
# (10: several 5-turn lines). Seed 2 (17-turn lines, 114,000 states for one start) took
# 2-3 s alone; seed 10 covers the same cases in a few hundredths.
@pytest.mark.parametrize("seed", [1, 3, 10])
def test_every_line_replays_and_the_best_is_the_minimum(seed):
    rmap = random_map(SplitMix64(seed))
    terrain = Terrain.from_map(rmap)
    solution = Solver(terrain).solve(budget=50_000)  # the largest search takes 31,134
    assert solution.solvable is True
    best = solution.best
    assert_line_wins(terrain, best)
    for result in solution.results:
        if result.status is Status.WIN:
            assert_line_wins(terrain, result)
    shortest = [r for r in solution.results if r.status is Status.WIN and r.shortest]
    if len(shortest) == len(solution.winning):
        assert (best.turns, best.boosts) == min((r.turns, r.boosts) for r in shortest)
    for r in shortest:  # no start's shortest line beats the board's best line
        assert (r.turns, r.boosts) >= (best.turns, best.boosts)


@pytest.fixture(scope="module")
def board_solution():
    """BOARD solved in full (the default budget): every start's shortest line."""
    return Solver(Terrain.from_map(BOARD)).solve()


def test_witness_and_shortest_agree_on_who_can_win(board_solution):
    solver = Solver(Terrain.from_map(BOARD))
    for x, shortest in enumerate(board_solution.results):
        assert shortest.start == x and shortest.shortest  # solve_start's own answer
        assert solver.witness(x).status == shortest.status
    assert figures(board_solution.results[5]) == figures(solver.solve_start(5))


def test_solution_reports_states_and_completeness(board_solution):
    solution = board_solution
    assert solution.complete and solution.solvable is True
    # The best line is one of the starts' own answers: its states are counted once.
    assert any(r is solution.best for r in solution.results)
    assert solution.states == sum(r.states for r in solution.results)
    assert [r.start for r in solution.results] == list(range(10))
    assert [r.status for r in solution.results].count(Status.NONE) == 1  # A:A10 cannot win


def test_the_cli_default_budget_is_the_solvers():
    from cardgen.cli.rotator import DEFAULT_BUDGET
    from cardgen.games.rotator import solver

    assert DEFAULT_BUDGET == solver.DEFAULT_BUDGET
