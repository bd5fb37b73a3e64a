"""The difficulty figures (par, boosts needed, open first moves) agree with a brute force
over the readable engine on small hand-built worlds; the solver's fast grading searches
give the readable searches' answers (figures, states counted, budget runs) on seeded
boards, and the generator keeps the same boards on either."""

from __future__ import annotations

import dataclasses
import functools
import random

import pytest

from cardgen.board.cells import WIDTH
from cardgen.games.rng import SplitMix64
from cardgen.games.rotator import generator, grading
from cardgen.games.rotator.engine import (
    BOOST_CACHE,
    Choice,
    State,
    Terrain,
    legal_choices,
    play_turn,
    start_state,
)
from cardgen.games.rotator.generator import Grade, generate, random_map
from cardgen.games.rotator.solver import Solver
from tests.helpers import sampled

NO_WIN = BOOST_CACHE + 1


def brute(terrain: Terrain, max_par: int) -> tuple[int, int, set, set] | None:
    """(par, boosts needed, open first moves, par first moves) by trying every line
    through the engine, or None when no line of at most ``max_par`` turns wins."""

    @functools.cache
    def cheapest(state: State, limit: int) -> int:
        """Fewest boosts spent from here on a line that wins by turn ``limit``."""
        if state.turn > limit:
            return NO_WIN
        best = NO_WIN
        for choice in legal_choices(terrain, state):
            after, report = play_turn(terrain, state, choice)
            if report.won:
                best = min(best, choice.boost)
            elif not report.lost:
                best = min(best, choice.boost + cheapest(after, limit))
        return best

    firsts = []
    for x in range(WIDTH):
        root = start_state(terrain, x)
        for choice in legal_choices(terrain, root):
            after, report = play_turn(terrain, root, choice)
            if not report.lost:
                firsts.append(((x, choice), choice.boost, after, report.won))

    def spent(first: tuple, limit: int) -> int:
        _, boost, after, won = first
        return boost if won else boost + cheapest(after, limit)

    par = next((t for t in range(1, max_par + 1)
                if any(spent(f, t) < NO_WIN for f in firsts)), None)
    if par is None:
        return None
    horizon = par + grading.HORIZON_EXTRA
    boosts = min(spent(f, horizon) for f in firsts)
    opened = {f[0] for f in firsts if spent(f, horizon) < NO_WIN}
    at_par = {f[0] for f in firsts if spent(f, par) < NO_WIN}
    return par, boosts, opened, at_par


def world(seed: int) -> Terrain:
    """A small random world: rows of rock with holes, sometimes a Node."""
    rng = random.Random(seed)
    solid = set()
    for y in rng.sample(range(2, 19), rng.randint(2, 5)):
        holes = set(rng.sample(range(WIDTH), rng.randint(0, 3)))
        solid |= {(x, y) for x in range(WIDTH) if x not in holes}
    nodes = ((rng.randint(2, 7), rng.randint(3, 16)),) if rng.random() < 0.5 else ()
    return Terrain.custom(solid, nodes)


def engine_move(move: grading.FirstMove) -> tuple[int, Choice]:
    x, (_, drill, boost) = move
    return x, Choice(None, drill, boost)


# Seeds picked for variety at a small cost: par 1 and 5, boosts needed 0–2, no win (7, 38),
# a Node in some. Three of them (a win, a loss) in the quick loop.
@pytest.mark.parametrize("seed", sampled([1, 4, 6, 7, 11, 13, 15, 20, 30, 38], 1, 4, 7))
def test_figures_agree_with_a_brute_force_over_the_engine(seed):
    terrain = world(seed)
    expected = brute(terrain, 5)
    solver = Solver(terrain)
    found = grading.figures(solver, 100_000, max_par=5)
    if expected is None:
        assert found is None
        return
    assert found is not None
    par, boosts, opened, at_par = expected
    assert (found.par, found.boosts_needed) == (par, boosts)
    assert (found.open_moves, found.par_moves) == (len(opened), len(at_par))
    moves = grading.first_moves(solver)
    assert found.first_moves == len(moves)
    searched = grading.open_moves(solver, moves, par + grading.HORIZON_EXTRA, 100_000)
    assert searched is not None
    assert {engine_move(m) for m in searched[0]} == opened
    assert all(1 <= t <= par + grading.HORIZON_EXTRA for t in searched[0].values())
    for below in (boosts, boosts + 1):  # the generator's quick question
        answer = grading.cheaper_line(solver, par, below, 100_000)
        assert answer is not None and answer[0] is (boosts < below)


@pytest.mark.slow
def test_a_wall_cannot_be_won_and_the_budget_never_guesses():
    wall = Terrain.custom({(x, y) for x in range(WIDTH) for y in range(2, 20)})
    assert grading.figures(Solver(wall), 100_000) is None
    from cardgen.games.rotator.board import RotatorMap
    solver = Solver(Terrain.from_map(RotatorMap.from_id("R1:B2B8E4I2I8-B4E2E8H4I9")))
    assert grading.figures(solver, 50) is None


# --- the solver's fast grading searches against the readable ones ----------------------

def every_answer(solver: Solver, budget: int, small: bool = True) -> list:
    """Everything the grading searches answer on a board, budget runs included (with
    ``small`` False, the questions asked at small budgets are asked at ``budget``)."""
    best = grading.par_search(solver, budget)
    if best is None:
        return [None]
    par = best.turns
    moves = grading.first_moves(solver)
    answers: list = [grading.figures(solver, budget), grading.opening(solver, par, budget, 6)]
    answers += [grading.cheaper_line(solver, par, below, budget) for below in (1, 3)]
    answers.append(grading.open_moves(solver, moves, par, budget))
    # Small budgets: the same states are counted, so the searches give up at the same point.
    answers.append(grading.open_moves(solver, moves, par + 4, 300 if small else budget))
    answers.append(grading.boosts_needed(solver, par, best.boosts,
                                          2_000 if small else budget))
    answers.append(grading.cheaper_line(solver, par, 2, 200 if small else budget))
    return answers


# Seeded random maps picked for variety at a small cost: pars of 5 and 9, boosts
# needed 0–4, 8 to 24 open first moves, small-budget searches that give up and that do
# not; three in the quick loop, the rest with the full command.
SWEEP = [2029, 2035, 2037, 2040, 2041, 2043, 2049, 2058]


@pytest.mark.parametrize("seed", sampled(SWEEP, 2029, 2037, 2040))
def test_the_solvers_grading_searches_answer_as_the_readable_ones(seed):
    terrain = Terrain.from_map(random_map(SplitMix64(seed)))
    fast = every_answer(Solver(terrain), 400_000)
    assert fast == every_answer(grading.ReadableSolver(terrain), 400_000)
    assert fast[0] is not None  # every one of these maps is won


@pytest.mark.parametrize("seed", sampled([1, 4, 6, 7, 11, 13, 15, 20, 30], 6, 7))
def test_the_fast_searches_agree_on_small_worlds(seed):
    terrain = world(seed)
    assert every_answer(Solver(terrain), 100_000) == every_answer(
        grading.ReadableSolver(terrain), 100_000)


@pytest.mark.slow
def test_graded_boards_are_the_readable_searches_boards(monkeypatch):
    # What the generator keeps, grade by grade, is what it kept on the readable searches.
    asked = ((7, 1, None), (5, 1, Grade.HARD))
    # The states counted are left out: the generator's searches count fewer (R4).
    fast = [answers_of(generate(*ask)) for ask in asked]
    monkeypatch.setattr(generator, "GradingSolver", grading.ReadableSolver)
    plain = [answers_of(generate(*ask)) for ask in asked]
    assert fast == plain


def answers_of(made: generator.Generation) -> tuple:
    """A generation less the states its searches counted."""
    return (made.candidates, [
        (b.rmap.board_id, b.grade, b.winning_starts, dataclasses.replace(b.best, states=0),
         dataclasses.replace(b.figures, states=0)) for b in made.boards])
