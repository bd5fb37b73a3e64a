"""The solver: exhaustive, exact, shortest; every line replays through the engine; it
agrees with the straightforward reference search state for state."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardgen.rotator import reference
from cardgen.rotator.board import RotatorMap
from cardgen.rotator.engine import BOOST_CACHE, Terrain, replay
from cardgen.rotator.generator import SplitMix64, random_map
from cardgen.rotator.solver import Solver, StartResult

BOARD = RotatorMap.from_id("R1:B2B8E4I2I8-B4E2E8H4I9")
WALL = Terrain.custom({(x, y) for x in range(10) for y in range(2, 20)})  # no way down


def figures(result: StartResult) -> tuple:
    return (result.status, result.turns, result.boosts, result.states)


def assert_line_wins(terrain: Terrain, result: StartResult) -> None:
    reports = replay(terrain, result.start, result.choices)  # raises on any illegal move
    assert reports[-1].won and not any(r.lost for r in reports)
    assert len(reports) == result.turns
    assert sum(len(r.boosted) for r in reports) == result.boosts <= BOOST_CACHE


@pytest.mark.parametrize("x", [0, 5, 7, 9])
def test_agrees_with_the_reference_search_on_a_real_board(x):
    terrain = Terrain.from_map(BOARD)
    fast = Solver(terrain).solve_start(x)
    slow = reference.solve_start(terrain, x)
    assert figures(fast) == figures(slow)
    if fast.status == "win":
        assert_line_wins(terrain, fast)
        assert_line_wins(terrain, slow)


def test_a_proved_loss():
    for x in (0, 4, 9):
        fast = Solver(WALL).solve_start(x)
        assert fast.status == "none" and fast.states > 0
        assert figures(fast) == figures(reference.solve_start(WALL, x))


def test_the_open_board_is_won_in_turn_one():
    result = Solver(Terrain.custom(set())).solve_start(3)
    assert (result.status, result.turns, result.boosts) == ("win", 1, 0)


def test_the_budget_gives_undecided_never_a_guess():
    solver = Solver(Terrain.from_map(BOARD))
    assert solver.solve_start(3, budget=50).status == "undecided"
    assert solver.best_line(budget=50).status == "undecided"
    assert solver.witness(3, budget=1).status == "undecided"
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


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(terrains(), st.integers(0, 9))
def test_agrees_with_the_reference_on_random_worlds(terrain, x):
    fast = Solver(terrain).solve_start(x, budget=1500)
    slow = reference.solve_start(terrain, x, budget=1500)
    assert figures(fast) == figures(slow)
    if fast.status == "win":
        assert_line_wins(terrain, fast)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_line_replays_and_the_best_is_the_minimum(seed):
    rmap = random_map(SplitMix64(seed))
    terrain = Terrain.from_map(rmap)
    solution = Solver(terrain).solve(budget=150_000)
    assert solution.solvable is True
    best = solution.best
    assert_line_wins(terrain, best)
    for result in solution.results:
        if result.status == "win":
            assert_line_wins(terrain, result)
    shortest = [r for r in solution.results if r.status == "win" and r.shortest]
    if len(shortest) == len(solution.winning):
        assert (best.turns, best.boosts) == min((r.turns, r.boosts) for r in shortest)
    for r in shortest:  # no start's shortest line beats the board's best line
        assert (r.turns, r.boosts) >= (best.turns, best.boosts)


def test_witness_and_shortest_agree_on_who_can_win():
    solver = Solver(Terrain.from_map(BOARD))
    for x in range(10):
        assert solver.witness(x).status == solver.solve_start(x).status


def test_solution_reports_states_and_completeness():
    solution = Solver(Terrain.from_map(BOARD)).solve()
    assert solution.complete and solution.solvable is True
    assert solution.states == solution.best.states + sum(r.states for r in solution.results)
    assert [r.start for r in solution.results] == list(range(10))
    assert [r.status for r in solution.results].count("none") == 1  # A:A10 cannot win


def test_the_cli_default_budget_is_the_solvers():
    from cardgen import cli_rotator
    from cardgen.rotator import solver

    assert cli_rotator.DEFAULT_BUDGET == solver.DEFAULT_BUDGET
