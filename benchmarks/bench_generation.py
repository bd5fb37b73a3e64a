"""Generating Rotator boards: today's generation (frozen) against the generator's.

    python benchmarks/bench_generation.py [--count N] [--seed S] [--runs R] [--book B]
                                          [--difficulty hard|medium|easy|any]

All run in this process, one job, with the default budget: the baseline is generation as
it was before issue 26 (benchmarks/grading_baseline.py: the grading module, the
generator's ``analyse`` and the solver, frozen), the new one ``generator.generate`` with
``jobs=1``; and, for the record, the generator with its grading searches on
``Solver.expand`` (``grading.ReadableSolver``, the spec, as the issue measured grading).
Each run times all three, rotating which goes first, and checks that they make the same
boards: the same maps tried, and for each board its ID, grade, best line, winning
starts, difficulty figures and the states every search counted. Times are CPU seconds of
this process (``time.process_time``); the median of the runs and the ratios old / new
are what to read. With ``--book B`` it then times one book of B boards, today's against
the new, once each.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks import grading_baseline as baseline
from cardgen.games.rotator import generator
from cardgen.games.rotator.generator import Grade, GradedBoard, generate
from cardgen.games.rotator.grading import ReadableSolver


def record(board: GradedBoard) -> tuple[Any, ...]:
    """What a graded board holds, as plain values (the baseline has its own classes)."""
    best, figures = board.best, board.figures
    return (board.rmap.board_id, str(board.grade), board.winning_starts, board.states,
            (best.start, str(best.status), best.turns, best.boosts, best.states,
             [(c.start, c.drill, c.boost) for c in best.choices]),
            (figures.par, figures.boosts_needed, figures.open_moves, figures.first_moves,
             figures.par_moves, figures.states, figures.starts))


def old_run(seed: int, count: int, wanted: Grade | None) -> tuple[float, list[Any], int]:
    start = time.process_time()
    boards, tried = baseline.generate(seed, count, wanted)
    return time.process_time() - start, [record(b) for b in boards], tried


def new_run(seed: int, count: int, wanted: Grade | None) -> tuple[float, list[Any], int]:
    start = time.process_time()
    made = generate(seed, count, wanted, jobs=1)
    return time.process_time() - start, [record(b) for b in made.boards], made.candidates


def readable_run(seed: int, count: int, wanted: Grade | None,
                 ) -> tuple[float, list[Any], int]:
    names = vars(generator)
    fast = names["GradingSolver"]
    names["GradingSolver"] = ReadableSolver
    try:
        return new_run(seed, count, wanted)
    finally:
        names["GradingSolver"] = fast


def compare(seed: int, count: int, wanted: Grade | None, run: int, readable: bool = True,
            ) -> tuple[float, float, float, int]:
    """One run of each, the first rotating with ``run``: CPU seconds today, new and on
    the readable searches (0 when not asked), maps tried."""
    makers = [old_run, new_run] + ([readable_run] if readable else [])
    order = [(run + i) % len(makers) for i in range(len(makers))]
    done: dict[int, tuple[float, list[Any], int]] = {}
    for i in order:
        done[i] = makers[i](seed, count, wanted)
    for i in done:
        if done[i][1:] != done[0][1:]:
            raise AssertionError(f"seed {seed}: the boards differ:\n  {done[0][1:]}\n"
                                 f"  {done[i][1:]}")
    return done[0][0], done[1][0], done[2][0] if readable else 0.0, done[1][2]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=12, help="boards per run")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--book", type=int, default=0, help="then one book of this many")
    parser.add_argument("--difficulty", default="hard")
    args = parser.parse_args()
    wanted = None if args.difficulty == "any" else Grade(args.difficulty)
    rows = []
    for run in range(args.runs):
        old, new, plain, tried = compare(args.seed, args.count, wanted, run)
        rows.append((old, new, plain))
        print(f"run {run + 1}: on Solver.expand {plain:.2f} s, today {old:.2f} s → now "
              f"{new:.2f} s ({old / new:.2f}×), {tried} maps tried, the same boards", flush=True)
    old, new, plain = (statistics.median(r[i] for r in rows) for i in range(3))
    print(f"\n{args.count} {args.difficulty} boards (seed {args.seed}), one job, CPU seconds "
          f"of one process, median of {args.runs} runs:\ntoday {old:.2f} s → now {new:.2f} s: "
          f"{old / new:.2f}× (grading on Solver.expand: {plain:.2f} s, {plain / new:.2f}×);\n"
          "the same boards, figures and states counted.")
    if args.book:
        old, new, _, tried = compare(args.seed, args.book, wanted, 0, readable=False)
        print(f"a book of {args.book} {args.difficulty} boards (seed {args.seed}, {tried} maps "
              f"tried), one job, CPU:\ntoday {old:.1f} s → now {new:.1f} s: {old / new:.2f}×; "
              "the same boards.")


if __name__ == "__main__":
    main()
