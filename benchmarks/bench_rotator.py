"""The Rotator solver against two baselines: the solver as it was before issue 12 (frozen
in rotator_baseline.py) and a plain bit-mask breadth-first search written for this
benchmark (rotator_plain.py, issue 26).

    python benchmarks/bench_rotator.py [--boards N] [--hard N] [--no-per-start]
                                       [--no-generate]

All run in this process on the same boards with the default budget: seeded random maps
(the "all boards" set also holds the hard ones) and boards the generator grades hard.
For each board it times ``Solver.solve()`` (the whole board, what ``rotator solve`` and the
puzzle book run), the old solver's ``solve()`` and the plain search of the ten starts
(twice: as a plain Python program runs, and with the cycle collector paused as the solver
pauses it), and, apart, ``solve_start`` for each of the ten starts; and it checks that the
answers are the same: status, turns, boosts, start and the choice line, for every start
and for the board's best line. The one difference allowed is the budget's: a start that the
baseline or the plain search left undecided (they store a whole layer past the win, and
the old solver counted every state it expanded) may be proved by the solver; those are
counted and shown, and their lines replayed.
Solver times are CPU seconds of this process (``time.process_time``), so that other work on
the machine changes them little; the ratios are what to read. Then the ten starts in
worker processes (``solve(jobs=CPUs)``, ``rotator solve --jobs``): its wall-clock
seconds against the plain search's and the solver's own in one process, and its CPU
seconds (this process and its workers) against one process's, with the same answers.
Then it times generating 12 boards of each grade (wall-clock seconds, with every core).
"""

from __future__ import annotations

import argparse
import gc
import os
import resource
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks import rotator_baseline as baseline
from benchmarks.rotator_plain import PlainSolver
from cardgen.games.rng import SplitMix64
from cardgen.games.rotator import solver as fast
from cardgen.games.rotator.engine import Terrain, replay
from cardgen.games.rotator.generator import Grade, generate, random_map

SEED = 2024
EXAMPLE = "R1:C5D9E2H5I9-B3C9F7I2I9"  # the issue's: the baseline leaves A:D10 unproved


def answer(result: Any) -> tuple[Any, ...]:
    return (result.start, str(result.status), result.turns, result.boosts,
            [(c.start, c.drill, c.boost) for c in result.choices], result.shortest)


def compare(terrain: Terrain, old: Any, new: Any, label: str) -> int:
    """Assert the same answer; a start the baseline left unproved may now be proved.
    Returns how many such starts."""
    if answer(old) == answer(new):
        return 0
    proved_now = (not old.shortest or str(old.status) == "undecided") and new.shortest \
        and str(new.status) != "undecided"
    if str(old.status) == "win" and str(new.status) == "win":
        proved_now = proved_now and (new.turns, new.boosts) <= (old.turns, old.boosts)
    if not proved_now:
        raise AssertionError(f"{label}: the answers differ:\n  {answer(old)}\n  {answer(new)}")
    if str(new.status) == "win":
        reports = replay(terrain, new.start, new.choices)
        assert reports[-1].won and len(reports) == new.turns, label
    return 1


def compare_plain(terrain: Terrain, plain: Any, new: Any, label: str) -> int:
    """Assert that the solver answers as the plain search wherever that one decided;
    returns how many starts it left undecided (the solver's lines there are replayed)."""
    best, results = plain
    undecided = 0
    for x, (status, turns, boosts, line, _) in enumerate(results):
        mine = new.results[x]
        if status == "undecided":
            undecided += 1
            if str(mine.status) == "win":
                reports = replay(terrain, x, mine.choices)
                assert reports[-1].won and len(reports) == mine.turns, label
            continue
        raw = [(-1 if c.start is None else c.start[1] * 10 + c.start[0], c.drill, c.boost)
               for c in mine.choices]
        if (status, turns, boosts, line) != (str(mine.status), mine.turns, mine.boosts, raw) \
                or not mine.shortest:
            raise AssertionError(f"{label} start {x}: the plain search differs:\n"
                                 f"  {(status, turns, boosts, line)}\n  {answer(mine)}")
    if best is not None and not undecided:
        x, _, turns, boosts, _ = best
        assert (x, turns, boosts) == (new.best.start, new.best.turns, new.best.boosts), label
    return undecided


def plain_solve(terrain: Terrain, paused: bool) -> tuple[Any, float, float]:
    """The plain search of the ten starts, its CPU and wall-clock seconds; with
    ``paused``, Python's cycle collector is paused meanwhile, as the solver pauses it."""
    w0, t0 = time.perf_counter(), time.process_time()
    if paused:
        gc.disable()
    try:
        result = PlainSolver(terrain).solve(fast.DEFAULT_BUDGET)
    finally:
        gc.enable()
    return result, time.process_time() - t0, time.perf_counter() - w0


def children_cpu() -> float:
    """CPU seconds of this process's workers that have ended."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=12, help="seeded random maps")
    parser.add_argument("--hard", type=int, default=8, help="boards the generator grades hard")
    parser.add_argument("--no-per-start", action="store_true")
    parser.add_argument("--no-generate", action="store_true")
    args = parser.parse_args()
    rng = SplitMix64(SEED)
    boards: list[tuple[str, Terrain, bool]] = [
        (f"random {i + 1}", Terrain.from_map(random_map(rng)), False)
        for i in range(args.boards)]
    hard = generate(SEED, args.hard, Grade.HARD).boards if args.hard else []
    boards += [(b.rmap.board_id, Terrain.from_map(b.rmap), True) for b in hard]
    from cardgen.games.rotator.board import RotatorMap

    boards.append((EXAMPLE, Terrain.from_map(RotatorMap.from_id(EXAMPLE)), False))

    rows: list[tuple[str, bool, float, float, float, float, float, float]] = []
    walls: list[tuple[float, float, float, float, float]] = []
    jobs = os.cpu_count() or 1
    proved_now = plain_undecided = 0
    for label, terrain, is_hard in boards:
        t0 = time.process_time()
        old = baseline.Solver(terrain).solve()
        t1, w1 = time.process_time(), time.perf_counter()
        new = fast.Solver(terrain).solve()
        t2, w2, c2 = time.process_time(), time.perf_counter(), children_cpu()
        side = fast.Solver(terrain).solve(jobs=jobs)
        t3, w3, c3 = time.process_time(), time.perf_counter(), children_cpu()
        plain, plain_time, plain_wall = plain_solve(terrain, paused=False)
        _, paused_time, _ = plain_solve(terrain, paused=True)
        # (plain wall, solver wall, with workers wall, solver CPU, with workers CPU)
        walls.append((plain_wall, w2 - w1, w3 - w2, t2 - t1, t3 - t2 + c3 - c2))
        assert answer(side.best) == answer(new.best) and side.states == new.states, label
        assert [answer(r) for r in side.results] == [answer(r) for r in new.results], label
        proved_now += compare(terrain, old.best, new.best, f"{label} best line")
        for x in range(10):
            proved_now += compare(terrain, old.results[x], new.results[x], f"{label} start {x}")
        plain_undecided += compare_plain(terrain, plain, new, label)
        per_old = per_new = 0.0
        if not args.no_per_start:
            for x in range(10):
                t3 = time.process_time()
                a = baseline.Solver(terrain).solve_start(x)
                t4 = time.process_time()
                b = fast.Solver(terrain).solve_start(x)
                t5 = time.process_time()
                per_old += t4 - t3
                per_new += t5 - t4
                if str(a.status) != "undecided":  # decided then: the same answer now
                    assert answer(a) == answer(b), f"{label} solve_start({x})"
        rows.append((label, is_hard, t1 - t0, t2 - t1, per_old, per_new, plain_time,
                     paused_time))
        print(f"  {label:<26} {'hard' if is_hard else '':<4} solve {t2 - t1:6.2f} s: "
              f"old {t1 - t0:6.2f} s ({(t1 - t0) / (t2 - t1):4.1f}×), plain "
              f"{plain_time:6.2f} s ({plain_time / (t2 - t1):4.1f}×), paused "
              f"{paused_time:6.2f} s ({paused_time / (t2 - t1):4.1f}×)", flush=True)

    print(f"\n{len(rows)} boards: {args.boards} seeded random maps (seed {SEED}), "
          f"{len(hard)} graded hard (seed {SEED}), the issue's example; default budget "
          f"{fast.DEFAULT_BUDGET:,} states per search; CPU seconds of one process.")
    print("Identical answers (status, turns, boosts, start, lines) for every start and "
          f"best line; {proved_now} start(s) the baseline left unproved are now proved;")
    print(f"the same answers as the plain search wherever it decided ({plain_undecided} "
          "start(s) it left undecided at the budget, the solver's lines there replayed).\n")
    print(f"{'set':<12} {'boards':>6} {'solve() total':>22} {'ratio':>6} {'median':>7}"
          f" {'solve_start ×10':>22} {'ratio':>6}")
    for name, subset in (("all boards", rows), ("hard boards", [r for r in rows if r[1]])):
        if not subset:
            continue
        old = sum(r[2] for r in subset)
        new = sum(r[3] for r in subset)
        median = statistics.median(r[2] / r[3] for r in subset)
        per = ""
        if not args.no_per_start:
            p_old, p_new = sum(r[4] for r in subset), sum(r[5] for r in subset)
            per = f"{p_old:8.2f} s → {p_new:6.2f} s {p_old / p_new:5.1f}×"
        print(f"{name:<12} {len(subset):>6} {old:8.2f} s → {new:6.2f} s {old / new:5.1f}× "
              f"{median:6.1f}× {per}")
    print(f"\n{'against the plain search':<30} {'plain':>8} {'solver':>8} {'ratio':>6} "
          f"{'median':>7}")
    for name, subset in (("all boards", rows), ("hard boards", [r for r in rows if r[1]])):
        for how, column in (("as written", 6), ("collector paused", 7)):
            if not subset:
                continue
            plain_total = sum(r[column] for r in subset)
            new = sum(r[3] for r in subset)
            median = statistics.median(r[column] / r[3] for r in subset)
            print(f"{name + ', ' + how:<30} {plain_total:7.2f}s {new:7.2f}s "
                  f"{plain_total / new:5.1f}× {median:6.1f}×")
    plain_wall, one_wall, side_wall, one_cpu, side_cpu = (sum(w[i] for w in walls)
                                                          for i in range(5))
    print(f"\nthe ten starts in {jobs} worker processes (solve(jobs={jobs}), rotator solve "
          f"--jobs {jobs}), the same answers and states counted:")
    print(f"  wall: plain search {plain_wall:.2f} s, solver in one process {one_wall:.2f} s, "
          f"in {jobs} {side_wall:.2f} s: {plain_wall / side_wall:.1f}× the plain search "
          f"(median {statistics.median(w[0] / w[2] for w in walls):.1f}×), "
          f"{one_wall / side_wall:.2f}× one process")
    print(f"  CPU (this process and its workers): {side_cpu:.2f} s against {one_cpu:.2f} s in "
          f"one process ({side_cpu / one_cpu:.2f}×)")
    if args.no_generate:
        return
    print(f"\ngenerating 12 boards per grade (seed 7, {jobs} jobs):")
    for grade in Grade:
        start = time.perf_counter()
        result = generate(7, 12, grade, jobs=jobs)
        print(f"  {grade:<7} {time.perf_counter() - start:6.1f} s  "
              f"({result.candidates} maps tried, {len(result.boards)} found)")


if __name__ == "__main__":
    main()
