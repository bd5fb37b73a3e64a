"""The grading searches written out for speed (``fastgrade.GradingSolver``) give the
answers of the solver's and of the readable ones (the spec), and the generator makes the
same boards, graded the same, as today's generation (frozen in
benchmarks/grading_baseline.py): every map analysed alike, for a few hundred maps in the
full command.

Since rules decision R4 (docs/rules-decisions.md) the states a search counts are a
diagnostic: the written-out searches leave out states that ``GradingSolver.hopeless``
proves cannot win in the turns left, so they count fewer states than the spec and may
decide within a small budget what the spec gives up on (never the other way round). The
tests compare answers, not counts; the bound itself is checked against the readable
search on positions of seeded boards."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from benchmarks import grading_baseline as baseline
from cardgen.games.rng import SplitMix64
from cardgen.games.rotator import grading
from cardgen.games.rotator.engine import BOOST_CACHE, Terrain
from cardgen.games.rotator.fastgrade import GradingSolver
from cardgen.games.rotator.generator import Grade, analyse, generate, random_map
from cardgen.games.rotator.solver import DEFAULT_BUDGET, WIN, Solver, State
from tests.helpers import sampled
from tests.test_rotator_grading import SWEEP, every_answer, world


def answer(found: Any) -> Any:
    """A grading answer without the states its searches counted."""
    if isinstance(found, (grading.Figures, grading.Opening)):
        return dataclasses.replace(found, states=0)
    if isinstance(found, tuple):
        return found[0]
    return found


def assert_same_answers(fast: list, spec: list, spec_in_full: list) -> None:
    """The written-out searches answer every question the spec answers, the same way;
    where the spec ran out of budget, they either do too or give the spec's answer at
    the full budget."""
    assert len(fast) == len(spec)
    for mine, theirs, full in zip(fast, spec, spec_in_full, strict=True):
        if theirs is not None:
            assert answer(mine) == answer(theirs)
        elif mine is not None:
            assert answer(mine) == answer(full)


def check_board(terrain: Terrain, budget: int) -> None:
    fast = every_answer(GradingSolver(terrain), budget)
    spec = every_answer(grading.ReadableSolver(terrain), budget)
    full = every_answer(grading.ReadableSolver(terrain), budget, small=False)
    assert_same_answers(fast, spec, full)
    assert_same_answers(every_answer(GradingSolver(terrain), budget, small=False), full, full)
    assert every_answer(Solver(terrain), budget) == spec  # the solver's copies: counts too


@pytest.mark.parametrize("seed", sampled(SWEEP, 2029, 2040))
def test_the_written_out_searches_answer_as_the_readable_ones(seed):
    check_board(Terrain.from_map(random_map(SplitMix64(seed))), 400_000)


@pytest.mark.parametrize("seed", sampled([1, 4, 6, 7, 11, 13, 15, 20, 30], 7, 13))
def test_the_written_out_searches_agree_on_small_worlds(seed):
    check_board(world(seed), 100_000)


def test_a_question_asked_again_is_answered_with_the_states_it_counted():
    solver = GradingSolver(Terrain.from_map(random_map(SplitMix64(2037))))
    state = solver.root(3)
    first = solver.win_within(state, 0, 9, 400_000)
    assert solver.win_within(state, 0, 9, 400_000) == first
    spec = grading.readable_win_within(solver, state, 0, 9, 400_000)
    assert bool(first[0]) == bool(spec[0]) and first[1] <= spec[1]


def positions(solver: Solver, turns: int, every: int) -> list[tuple[State, int]]:
    """Every ``every``-th state (with its turn) of the readable breadth-first search from
    the ten starts, to ``turns`` turns, choose-starts left out."""
    layer = [solver.root(x) for x in range(10)]
    seen = {s[:-1] for s in layer}
    found: list[tuple[State, int]] = []
    for turn in range(1, turns + 1):
        following = []
        for state in layer:
            for _, result in solver.expand(state):
                if result is WIN or result[:-1] in seen:
                    continue
                seen.add(result[:-1])
                following.append(result)
        layer = following
        found += [(s, turn) for s in layer[::every] if s[6] < 0]
    return found


# Seeded maps (a hard one, seed 7's first hard board among them) and small worlds; every
# position of the first turns, a sample of later ones. The bound must never call a state
# hopeless that the readable search wins from within the turns given, and it must prune.
@pytest.mark.parametrize(("seed", "turns", "every"), sampled(
    [(2029, 7, 3), (2037, 8, 5), (2043, 9, 7), (3, 9, 7), (11, 9, 5), (26, 10, 11)],
    (2029, 7, 3)))
def test_the_bound_is_sound(seed, turns, every):
    terrain = Terrain.from_map(random_map(SplitMix64(seed)))
    solver, spec = GradingSolver(terrain), grading.ReadableSolver(terrain)
    pruned = captures = 0
    for state, _ in positions(spec, turns, every):
        pos, solid, _, _, t3, phase, _, _, left = state
        for to_go in (1, 2, 3):
            # With fewer boosts a win may spend (the fewest-boosts and cheaper-line
            # searches' use): no win spending at most that many.
            for spend in range(-1, left + 1):
                if solver.hopeless(pos, solid, t3, phase, spend, to_go):
                    pruned += 1
                    captures += bool((phase == 3 and solver.capture_left[pos])
                                     or (phase == 2 and solver.capture_up_left[pos]))
                    won, _ = grading.readable_win_within(
                        spec, state, 0, to_go, 10**7,
                        cheaper_than=BOOST_CACHE - left + spend + 1)
                    assert won == 0, (state, to_go, spend)
    assert pruned and captures  # some with a Node that could be captured on the way


def maps(seed: int, count: int) -> list:
    rng = SplitMix64(seed)
    return [random_map(rng) for _ in range(count)]


# Each grade the generator asks for prunes differently (None: every map graded in full).
# The quick loop analyses 8 maps; the full command 300 for hard books, 100 for each of
# the others (a few minutes).
@pytest.mark.parametrize(("wanted", "seed", "count"), sampled(
    # (any grade, map by map, is left to the books of many seeds below)
    [(Grade.HARD, 11, 8), (Grade.HARD, 2026, 300),
     (Grade.EASY, 27, 100), (Grade.MEDIUM, 28, 100)], (Grade.HARD, 11, 8)))
def test_every_map_is_analysed_as_today(wanted, seed, count):
    for rmap in maps(seed, count):
        assert_analysed_as_today(rmap, wanted, DEFAULT_BUDGET)


def assert_analysed_as_today(rmap, wanted, budget: int) -> None:
    """The map is analysed as today; or today's generation gave up on it at ``budget``
    and the new one, storing fewer states, decides it as today's would with more."""
    new = baseline.record(analyse(rmap, budget, wanted=wanted))
    old = baseline.record(baseline.analyse(rmap, budget, wanted=wanted))
    if old is None and new is not None:
        old = baseline.record(baseline.analyse(rmap, 10**7, wanted=wanted))
    assert new == old, rmap.board_id


# Budgets small enough that some searches give up (seed 5 at 6,000 states: 3 first-move
# searches and 4 fewest-boosts searches; at 12,000: 2 and 13; seed 3 at 8,000: 8 and
# 19), so that the same maps are dropped, and the default budget.
@pytest.mark.parametrize(("seed", "budget", "count"), sampled(
    [(5, 6_000, 1), (5, 12_000, 3), (3, 8_000, 3), (7, 40_000, 3), (7, 400_000, 3)],
    (5, 6_000, 1)))
def test_hard_books_and_budget_runs_are_todays(seed, budget, count):
    old, tried = baseline.generate(seed, count, Grade.HARD, budget=budget)
    if budget == DEFAULT_BUDGET:
        new = generate(seed, count, Grade.HARD, budget=budget)
        assert [baseline.record(b) for b in new.boards] == [baseline.record(b) for b in old]
        assert new.candidates == tried
        return
    # A small budget: every map today's generation drew is analysed as today, or decided
    # where today's gave up (the book may then differ: R4).
    rng = SplitMix64(seed)
    for _ in range(tried):
        assert_analysed_as_today(random_map(rng), Grade.HARD, budget)


def test_a_horizon_past_what_the_queue_holds_falls_back_to_the_solvers_search():
    terrain = world(13)
    state = Solver(terrain).root(2)
    assert GradingSolver(terrain).win_within(state, 0, 5_000, 3_000) == Solver(
        terrain).win_within(state, 0, 5_000, 3_000)


# Books drawn from a few hundred seeds, today's generation against the new at the default
# budget: the same maps tried and the same boards (any grade, two boards a book; hard, one
# a book). Two seeds in the quick loop, the rest with the full command (a few minutes).
@pytest.mark.parametrize(("first", "stop", "wanted", "count"), sampled(
    # 240 seeds: 200 books of any grade, 40 hard ones
    [(1000, 1002, None, 2), (0, 100, None, 2), (100, 200, None, 2),
     (300, 340, Grade.HARD, 1)], (1000, 1002, None, 2)))
def test_books_of_many_seeds_are_todays(first, stop, wanted, count):
    for seed in range(first, stop):
        new = generate(seed, count, wanted)
        old, tried = baseline.generate(seed, count, wanted)
        assert [baseline.record(b) for b in new.boards] == [baseline.record(b) for b in old], seed
        assert new.candidates == tried, seed
