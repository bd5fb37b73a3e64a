"""Generating Rotator boards: today's generation (frozen) against the generator's.

    python benchmarks/bench_generation.py [--count N] [--seed S] [--runs R] [--book B]
                                          [--difficulty hard|medium|easy|any]
                                          [--cardgen-from FOLDER]

All run in this process, one job, with the default budget: the baseline is generation as
it was before issue 26 (benchmarks/grading_baseline.py: the grading module, the
generator's ``analyse`` and the solver, frozen), the new one ``generator.generate`` with
``jobs=1``; and, for the record, the generator with its grading searches on
``Solver.expand`` (``grading.ReadableSolver``, the spec, as the issue measured grading).
Each run times all three, rotating which goes first, and checks that they make the same
boards: the same maps tried, and for each board its ID, grade, best line, winning
starts and difficulty figures (not the states counted: rules decision R4). Times are CPU seconds of
this process (``time.process_time``); the median of the runs and the ratios old / new
are what to read. With ``--book B`` it then times one book of B boards, today's against
the new, once each.

With ``--cardgen-from FOLDER`` it times instead the generator of another checkout of
cardgen (the code when issue 26 was filed: ``git worktree add --detach /tmp/x c5d3fb3``)
against this one, each in a fresh process of this interpreter, interleaved (old, new,
old, new, ...): CPU seconds of the generation alone in each process, the medians, and a
check that both made the same boards (IDs, grades, best lines, winning starts, figures;
not the states counted, which rules decision R4 made a diagnostic).
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
from cardgen.games.rotator.generator import Grade, generate
from cardgen.games.rotator.grading import ReadableSolver


def old_run(seed: int, count: int, wanted: Grade | None) -> tuple[float, list[Any], int]:
    start = time.process_time()
    boards, tried = baseline.generate(seed, count, wanted)
    return time.process_time() - start, [baseline.record(b) for b in boards], tried


def new_run(seed: int, count: int, wanted: Grade | None) -> tuple[float, list[Any], int]:
    start = time.process_time()
    made = generate(seed, count, wanted, jobs=1)
    return time.process_time() - start, [baseline.record(b) for b in made.boards], made.candidates


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


CHILD = """
import json, sys, time
sys.path.insert(0, sys.argv[1])
from cardgen.games.rotator.generator import Grade, generate
seed, count, wanted = int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
wanted = None if wanted == "any" else Grade(wanted)
start = time.process_time()
made = generate(seed, count, wanted, jobs=1)
spent = time.process_time() - start
boards = [[b.rmap.board_id, str(b.grade), list(b.winning_starts),
           [b.best.start, b.best.turns, b.best.boosts,
            [[c.start, c.drill, c.boost] for c in b.best.choices]],
           [b.figures.par, b.figures.boosts_needed, b.figures.open_moves,
            b.figures.first_moves, b.figures.par_moves, sorted(b.figures.starts)]]
          for b in made.boards]
print(json.dumps({"cpu": spent, "boards": boards, "tried": made.candidates}))
"""


def checkout_run(folder: Path, seed: int, count: int, difficulty: str) -> tuple[float, Any]:
    """CPU seconds of one generation by the cardgen in ``folder``, in a fresh process,
    and what it made."""
    import json
    import subprocess

    done = subprocess.run([sys.executable, "-c", CHILD, str(folder), str(seed), str(count),
                           difficulty], capture_output=True, text=True, check=True)
    out = json.loads(done.stdout)
    return out["cpu"], (out["boards"], out["tried"])


def against_checkout(folder: Path, args: argparse.Namespace) -> None:
    here = Path(__file__).resolve().parent.parent
    rows = []
    for run in range(args.runs):
        old, made_old = checkout_run(folder, args.seed, args.count, args.difficulty)
        new, made_new = checkout_run(here, args.seed, args.count, args.difficulty)
        if made_old != made_new:
            raise AssertionError(f"the boards differ:\n  {made_old}\n  {made_new}")
        rows.append((old, new))
        print(f"run {run + 1}: {folder} {old:.2f} s → this checkout {new:.2f} s "
              f"({old / new:.2f}×), {made_new[1]} maps tried, the same boards", flush=True)
    old, new = (statistics.median(r[i] for r in rows) for i in range(2))
    print(f"\n{args.count} {args.difficulty} boards (seed {args.seed}), one job, CPU seconds "
          f"of generation in fresh processes, median of {args.runs} interleaved runs:\n"
          f"{folder} {old:.2f} s → this checkout {new:.2f} s: {old / new:.2f}×; the same "
          "boards, grades, lines and figures.")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=12, help="boards per run")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--book", type=int, default=0, help="then one book of this many")
    parser.add_argument("--difficulty", default="hard")
    parser.add_argument("--cardgen-from", type=Path, metavar="FOLDER",
                        help="time another checkout's generator against this one instead")
    args = parser.parse_args()
    if args.cardgen_from:
        against_checkout(args.cardgen_from, args)
        return
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
          "the same boards, grades, lines and figures.")
    if args.book:
        old, new, _, tried = compare(args.seed, args.book, wanted, 0, readable=False)
        print(f"a book of {args.book} {args.difficulty} boards (seed {args.seed}, {tried} maps "
              f"tried), one job, CPU:\ntoday {old:.1f} s → now {new:.1f} s: {old / new:.2f}×; "
              "the same boards.")


if __name__ == "__main__":
    main()
