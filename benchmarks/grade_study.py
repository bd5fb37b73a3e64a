"""How the Rotator grades split random maps, and what each grade's figures look like.

    PYTHONPATH=. python benchmarks/grade_study.py [N] [SEED] [JOBS]

Draws N maps from SEED exactly as ``rotator generate`` does (default 300 maps, seed
2026, one job per CPU), grades every one (``generator.analyse``), and prints the share of
each grade among all maps drawn and, per grade, how each figure is spread: par, boosts
needed by par + 4, open first moves (of all first moves), par first moves, and the start
squares that can win. The last part is a Markdown table for the guide (docs/rotator.md).
"""

from __future__ import annotations

import statistics
import sys
import time
from collections import Counter

from cardgen.games.rotator.generator import (
    GRADE_RULES,
    THRESHOLDS,
    Grade,
    GradedBoard,
    cpu_count,
    generate,
)


def spread(values: list[int]) -> str:
    """min / median / max, and the middle half."""
    if not values:
        return "-"
    q = statistics.quantiles(values, n=4) if len(values) > 1 else [values[0]] * 3
    return f"{min(values)}–{max(values)}, median {statistics.median(values):g}, " \
           f"middle half {q[0]:g}–{q[2]:g}"


def counts(values: list[int]) -> str:
    total = len(values)
    return ", ".join(f"{v}: {100 * n / total:.0f} %" for v, n in sorted(Counter(values).items()))


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 2026
    jobs = int(sys.argv[3]) if len(sys.argv) > 3 else cpu_count()
    start = time.perf_counter()
    result = generate(seed, n, None, max_candidates=n, jobs=jobs)
    took = time.perf_counter() - start
    boards = result.boards
    maps = result.candidates
    print(f"{maps} maps from seed {seed} ({jobs} jobs, {took:.1f} s): {len(boards)} graded; "
          f"{maps - len(boards)} left out (won by the first fall, not winnable, or a search "
          "over budget)\n")
    print(f"par over all graded maps: {counts([b.figures.par for b in boards])}\n")
    by_grade: dict[Grade, list[GradedBoard]] = {g: [] for g in Grade}
    for board in boards:
        by_grade[board.grade].append(board)
    for g in Grade:
        group = by_grade[g]
        print(f"{g.value}: {len(group)} maps, {100 * len(group) / maps:.0f} % of all "
              f"({GRADE_RULES[g]})")
        if not group:
            continue
        figures = [b.figures for b in group]
        print(f"  par                  {counts([f.par for f in figures])}")
        print(f"  boosts needed        {counts([f.boosts_needed for f in figures])}")
        print(f"  par line's boosts    {spread([b.best.boosts for b in group])}")
        print(f"  open first moves     {spread([f.open_moves for f in figures])}")
        print(f"  of first moves       {spread([f.first_moves for f in figures])}")
        print(f"  par first moves      {spread([f.par_moves for f in figures])}")
        print(f"  winning start squares {spread([len(b.winning_starts) for b in group])}")
        if g is Grade.HARD:
            t = THRESHOLDS
            why = Counter(
                "par" if f.par >= t.hard_par else
                "boosts and first moves" if (f.boosts_needed >= t.hard_min_boosts
                                             and f.open_moves <= t.hard_max_open) else
                "boosts" if f.boosts_needed >= t.hard_min_boosts else "first moves"
                for f in figures)
            print(f"  hard by              {dict(sorted(why.items()))}")
    print("\n| grade | share of maps | par (turns) | boosts needed | open first moves | "
          "par first moves |")
    print("| --- | --- | --- | --- | --- | --- |")
    for g in Grade:
        group = by_grade[g]
        if not group:
            continue
        figures = [b.figures for b in group]

        def med(values: list[int]) -> str:
            return (f"{statistics.median(values):g} ({min(values)}–{max(values)})")

        print(f"| {g.value} | {100 * len(group) / maps:.0f} % | "
              f"{counts([f.par for f in figures])} | "
              f"{med([f.boosts_needed for f in figures])} | "
              f"{med([f.open_moves for f in figures])} | "
              f"{med([f.par_moves for f in figures])} |")


if __name__ == "__main__":
    main()
