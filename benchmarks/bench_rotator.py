"""The Rotator solver against a straightforward implementation of the same search.

    python benchmarks/bench_rotator.py [--boards N] [--budget STATES] [--no-generate]

Both searches solve every start cell of the same seeded boards, in this process, with
the same per-search state budget, so they explore exactly the same states (checked).
The baseline is cardgen.games.rotator.reference: the same breadth-first search over the
readable engine (frozensets, one play_turn per choice). The figure to watch is the ratio.
It then times generating 12 boards of each grade.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

from cardgen.games.rng import SplitMix64
from cardgen.games.rotator import reference
from cardgen.games.rotator.engine import Terrain
from cardgen.games.rotator.generator import Grade, generate, random_map
from cardgen.games.rotator.solver import Solver

SEED = 2024


def _solve_all(solve_start, terrain: Terrain, budget: int) -> tuple[float, list]:  # type: ignore[no-untyped-def]
    start = time.perf_counter()
    results = [solve_start(terrain, x, budget) for x in range(10)]
    return time.perf_counter() - start, results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=8)
    parser.add_argument("--budget", type=int, default=4000, help="states per search")
    parser.add_argument("--no-generate", action="store_true")
    args = parser.parse_args()
    rng = SplitMix64(SEED)
    terrains = [Terrain.from_map(random_map(rng)) for _ in range(args.boards)]

    def fast(terrain: Terrain, x: int, budget: int):  # type: ignore[no-untyped-def]
        return Solver(terrain).solve_start(x, budget)

    ours, base, states = [], [], 0
    for terrain in terrains:
        t_fast, r_fast = _solve_all(fast, terrain, args.budget)
        t_base, r_base = _solve_all(reference.solve_start, terrain, args.budget)
        same = [(r.status, r.turns, r.boosts, r.states) for r in r_fast] == [
            (r.status, r.turns, r.boosts, r.states) for r in r_base]
        assert same, "the two searches disagree"
        ours.append(t_fast)
        base.append(t_base)
        states += sum(r.states for r in r_fast)
    print(f"{args.boards} seeded boards (seed {SEED}), all 10 starts each, "
          f"≤ {args.budget:,} states per search, {states:,} states in all\n")
    print(f"{'':<28} {'boards/s':>9} {'median s':>9} {'worst s':>9}")
    for name, times in (("cardgen solver (bitboards)", ours),
                        ("baseline (sets, frozensets)", base)):
        print(f"{name:<28} {len(times) / sum(times):9.2f} {statistics.median(times):9.4f} "
              f"{max(times):9.4f}")
    print(f"\nspeed-up: {sum(base) / sum(ours):.1f}× (target ≥ 10×)")
    if args.no_generate:
        return
    jobs = os.cpu_count() or 1
    print(f"\ngenerating 12 boards per grade (seed 7, {jobs} jobs):")
    for grade in Grade:
        start = time.perf_counter()
        result = generate(7, 12, grade, jobs=jobs)
        print(f"  {grade:<7} {time.perf_counter() - start:6.1f} s  "
              f"({result.candidates} maps tried, {len(result.boards)} found)")


if __name__ == "__main__":
    main()
