"""The grading searches: the solver's and the written-out ones against the readable ones.

    python benchmarks/bench_rotator_grading.py [--boards N] [--seed S]

All run in this process on the same seeded random maps with the default budget: the
difficulty figures of each board (``grading.figures``: par, boosts needed by par + 4,
open first moves, par moves) and the generator's own question "a line with fewer than k
boost spaces?" (``grading.cheaper_line``) for k = 1 … 4, once on a ``Solver`` (its
``fewest_boosts`` and ``win_within``), once on a ``grading.ReadableSolver`` (the
readable searches on ``Solver.expand``, the spec) and once on the generator's
``fastgrade.GradingSolver`` (the searches written out, a repeated question answered
from memory). Every answer must be the same, and the solver's copies count the same
states as the readable searches; the written-out ones leave out states a sound bound
proves cannot win in time, so their counts are not compared (rules decision R4). Then
``SplitMix64.below`` (the maps' and the Node computers' random draws) against rejection
sampling on ``next``, as it was written before, and drawing maps (``random_map``)
against measuring every distance to the Nodes placed anew. Times are CPU
seconds of this process (``time.process_time``); the ratio old / new is what to read.
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cardgen.board.cells import Cell, Grid
from cardgen.board.territory import MIN_DISJOINT_DISTANCE, distance
from cardgen.games.rng import SplitMix64
from cardgen.games.rotator import grading
from cardgen.games.rotator.board import NODES_PER_GRID, RotatorMap
from cardgen.games.rotator.engine import Terrain
from cardgen.games.rotator.fastgrade import GradingSolver
from cardgen.games.rotator.generator import CENTRES, random_map
from cardgen.games.rotator.solver import DEFAULT_BUDGET, Solver


def answers(solver: Solver) -> tuple[float, list[Any]]:
    """The CPU seconds and the answers of the grading searches on one board."""
    start = time.process_time()
    best = grading.par_search(solver, DEFAULT_BUDGET)
    out: list[Any] = [grading.figures(solver, DEFAULT_BUDGET)]
    if best is not None:
        out += [grading.cheaper_line(solver, best.turns, k, DEFAULT_BUDGET) for k in range(1, 5)]
    return time.process_time() - start, out


def without_states(found: list[Any]) -> list[Any]:
    """The answers less the states their searches counted."""
    return [dataclasses.replace(f, states=0) if isinstance(f, grading.Figures)
            else f[0] if isinstance(f, tuple) else f for f in found]


def plain_below(rng: SplitMix64, n: int) -> int:
    """``below`` as it is defined (and was written): rejection sampling on ``next``. The
    baseline here and the reference of tests/test_rotator_generator.py."""
    limit = (1 << 64) - (1 << 64) % n
    while True:
        value = rng.next()
        if value < limit:
            return value % n


def bench_below(draws: int = 300_000) -> None:
    sizes = [3, 10, 37, 64, 1 << 30]
    fast, plain = SplitMix64(2026), SplitMix64(2026)
    start = time.process_time()
    old = [plain_below(plain, sizes[i % 5]) for i in range(draws)]
    middle = time.process_time()
    new = [fast.below(sizes[i % 5]) for i in range(draws)]
    end = time.process_time()
    if new != old:
        raise AssertionError("SplitMix64.below draws other values")
    print(f"SplitMix64.below, {draws:,} draws: next-based {middle - start:.2f} s → "
          f"{end - middle:.2f} s ({(middle - start) / (end - middle):.1f}×), the same values")


def plain_random_map(rng: SplitMix64) -> RotatorMap:
    """``random_map`` as it is defined (and was written): each Node uniformly among the
    centres at least MIN_DISJOINT_DISTANCE from every Node placed, measured anew each time.
    The baseline here and the reference of tests/test_rotator_generator.py."""
    while True:
        placed: list[Cell] = []
        for grid in Grid:
            for _ in range(NODES_PER_GRID):
                free = [c for c in CENTRES[grid]
                        if all(distance(c, p) >= MIN_DISJOINT_DISTANCE for p in placed)]
                if not free:
                    break
                placed.append(free[rng.below(len(free))])
        if len(placed) == len(Grid) * NODES_PER_GRID:
            return RotatorMap.from_cells(placed)


def bench_maps(count: int = 2_000) -> None:
    fast, plain = SplitMix64(7), SplitMix64(7)
    start = time.process_time()
    old = [plain_random_map(plain) for _ in range(count)]
    middle = time.process_time()
    new = [random_map(fast) for _ in range(count)]
    end = time.process_time()
    if new != old:
        raise AssertionError("random_map draws other maps")
    print(f"random_map, {count:,} maps: {middle - start:.2f} s → {end - middle:.2f} s "
          f"({(middle - start) / (end - middle):.1f}×), the same maps")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=20, help="seeded random maps")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    rng = SplitMix64(args.seed)
    rows = []
    for i in range(args.boards):
        terrain = Terrain.from_map(random_map(rng))
        plain, old = answers(grading.ReadableSolver(terrain))
        fast, new = answers(Solver(terrain))
        out, written = answers(GradingSolver(terrain))
        if not new == old or without_states(written) != without_states(old):
            raise AssertionError(f"board {i + 1}: the answers differ:\n  {old}\n  {new}\n"
                                 f"  {written}")
        figures = new[0]
        par = figures.par if figures else "-"
        rows.append((plain, fast, out))
        print(f"  board {i + 1:>3} par {par:>2}  readable {plain:6.2f} s → solver's "
              f"{fast:6.2f} s ({plain / fast:4.1f}×) → written out {out:6.2f} s "
              f"({plain / out:4.1f}×)", flush=True)
    old_total, new_total, out_total = (sum(r[i] for r in rows) for i in range(3))
    print(f"\n{len(rows)} boards (seed {args.seed}), default budget {DEFAULT_BUDGET:,} states "
          "per search, CPU seconds of one process; the same answers (the solver's copies: "
          "states included).")
    print(f"grading: readable {old_total:.2f} s → solver's {new_total:.2f} s: "
          f"{old_total / new_total:.1f}× (median per board "
          f"{statistics.median(p / f for p, f, _ in rows):.1f}×) → written out "
          f"{out_total:.2f} s: {old_total / out_total:.1f}× (median "
          f"{statistics.median(p / o for p, _, o in rows):.1f}×; "
          f"{new_total / out_total:.2f}× the solver's)")
    bench_below()
    bench_maps()


if __name__ == "__main__":
    main()
