"""The grading searches written out for speed (``fastgrade.GradingSolver``) give the
answers of the solver's and of the readable ones (the spec), states counted and budget
runs included, and the generator makes the same boards, graded the same, as today's
generation (frozen in benchmarks/grading_baseline.py): every map analysed alike, for a
few hundred maps in the full command."""

from __future__ import annotations

import pytest

from benchmarks import grading_baseline as baseline
from cardgen.games.rng import SplitMix64
from cardgen.games.rotator import grading
from cardgen.games.rotator.engine import Terrain
from cardgen.games.rotator.fastgrade import GradingSolver
from cardgen.games.rotator.generator import Grade, GradedBoard, analyse, generate, random_map
from cardgen.games.rotator.solver import Solver
from tests.helpers import sampled
from tests.test_rotator_grading import SWEEP, every_answer, world


@pytest.mark.parametrize("seed", sampled(SWEEP, 2029, 2040))
def test_the_written_out_searches_answer_as_the_readable_ones(seed):
    terrain = Terrain.from_map(random_map(SplitMix64(seed)))
    fast = every_answer(GradingSolver(terrain), 400_000)
    assert fast == every_answer(Solver(terrain), 400_000)
    assert fast == every_answer(grading.ReadableSolver(terrain), 400_000)


@pytest.mark.parametrize("seed", sampled([1, 4, 6, 7, 11, 13, 15, 20, 30], 7, 13))
def test_the_written_out_searches_agree_on_small_worlds(seed):
    terrain = world(seed)
    assert every_answer(GradingSolver(terrain), 100_000) == every_answer(
        grading.ReadableSolver(terrain), 100_000)


def test_a_question_asked_again_is_answered_with_the_states_it_counted():
    solver = GradingSolver(Terrain.from_map(random_map(SplitMix64(2037))))
    state = solver.root(3)
    first = solver.win_within(state, 0, 9, 400_000)
    assert solver.win_within(state, 0, 9, 400_000) == first
    assert first == grading.readable_win_within(solver, state, 0, 9, 400_000)


def record(board: GradedBoard | None) -> tuple | None:
    """What a graded board holds, as plain values (the baseline has its own classes)."""
    if board is None:
        return None
    best, figures = board.best, board.figures
    return (board.rmap.board_id, str(board.grade), board.winning_starts, board.states,
            (best.start, str(best.status), best.turns, best.boosts, best.states,
             [(c.start, c.drill, c.boost) for c in best.choices]),
            (figures.par, figures.boosts_needed, figures.open_moves, figures.first_moves,
             figures.par_moves, figures.states, figures.starts))


def maps(seed: int, count: int) -> list:
    rng = SplitMix64(seed)
    return [random_map(rng) for _ in range(count)]


# Each grade the generator asks for prunes differently (None: every map graded in full).
# The quick loop analyses 8 maps; the full command 300 for hard books, 100 for each of
# the others (a few minutes).
@pytest.mark.parametrize(("wanted", "seed", "count"), sampled(
    [(Grade.HARD, 11, 8), (Grade.HARD, 2026, 300), (None, 26, 100),
     (Grade.EASY, 27, 100), (Grade.MEDIUM, 28, 100)], (Grade.HARD, 11, 8)))
def test_every_map_is_analysed_as_today(wanted, seed, count):
    for rmap in maps(seed, count):
        assert record(analyse(rmap, wanted=wanted)) == record(
            baseline.analyse(rmap, wanted=wanted)), rmap.board_id


# Budgets small enough that some searches give up (seed 5 at 6,000 states: 3 first-move
# searches and 4 fewest-boosts searches; at 12,000: 2 and 13; seed 3 at 8,000: 8 and
# 19), so that the same maps are dropped, and the default budget.
@pytest.mark.parametrize(("seed", "budget", "count"), sampled(
    [(5, 6_000, 1), (5, 12_000, 3), (3, 8_000, 3), (7, 40_000, 3), (7, 400_000, 3)],
    (5, 6_000, 1)))
def test_hard_books_and_budget_runs_are_todays(seed, budget, count):
    new = generate(seed, count, Grade.HARD, budget=budget)
    old, tried = baseline.generate(seed, count, Grade.HARD, budget=budget)
    assert [record(b) for b in new.boards] == [record(b) for b in old]
    assert new.candidates == tried


def test_a_horizon_past_what_the_queue_holds_falls_back_to_the_solvers_search():
    terrain = world(13)
    state = Solver(terrain).root(2)
    assert GradingSolver(terrain).win_within(state, 0, 5_000, 3_000) == Solver(
        terrain).win_within(state, 0, 5_000, 3_000)
