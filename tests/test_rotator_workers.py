"""The ten starts searched side by side (``Solver.solve(jobs=...)``, ``rotator solve
--jobs``): the same answers, states counted included, as one process; worker failures
reported in one sentence."""

from __future__ import annotations

import os

import pytest

from cardgen.games.rotator.board import RotatorMap
from cardgen.games.rotator.engine import Terrain
from cardgen.games.rotator.solver import Solver
from cardgen.games.rotator.workers import WorkerError, ordered_map
from tests.helpers import cli, ok

BOARD = "R1:B2B8E4I2I8-B4E2E8H4I9"


def answers(solution) -> list[tuple]:
    return [(r.start, r.status, r.turns, r.boosts, r.choices, r.states, r.shortest, r.searched)
            for r in (solution.best, *solution.results)] + [solution.states]


@pytest.mark.parametrize("shortest", [True, False])
def test_two_jobs_give_one_jobs_answers_in_start_order(shortest):
    solver = Solver(Terrain.from_map(RotatorMap.from_id(BOARD)))
    told: list[int] = []
    parallel = solver.solve(20_000, shortest=shortest, progress=told.append, jobs=2)
    assert answers(parallel) == answers(solver.solve(20_000, shortest=shortest))
    assert sorted(told) == list(range(10))
    assert [r.start for r in parallel.results] == list(range(10))


def _fail_on_three(x: int) -> int:
    if x == 3:
        raise ValueError("three")
    return x * x


def _die_on_two(x: int) -> int:
    if x == 2:
        os._exit(7)
    return x


def test_answers_keep_the_items_order_and_errors_come_back():
    assert ordered_map(abs, [-3, 1, -2, 5], 2) == [3, 1, 2, 5]
    with pytest.raises(ValueError, match="three"):
        ordered_map(_fail_on_three, list(range(6)), 2)
    with pytest.raises(WorkerError, match=r"stopped while working on 2 \(exit code 7\)"):
        ordered_map(_die_on_two, list(range(6)), 2, what=lambda x: f"working on {x}")


def test_rotator_solve_prints_the_same_with_any_number_of_jobs():
    one = cli("rotator", "solve", BOARD, "--jobs", "1", "--budget", "20000")
    two = cli("rotator", "solve", BOARD, "--jobs", "2", "--budget", "20000")
    ok(one)
    ok(two)
    assert one.stdout == two.stdout
