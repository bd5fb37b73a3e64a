"""Seeded Rotator boards, graded by the solver.

Randomness comes from SplitMix64, written out here, so that a seed gives the same boards
on every machine and every Python version (``random``'s algorithms may change). Only
boards the solver proved winnable, with every start cell decided, are emitted.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from cardgen.errors import CardgenError
from cardgen.rotator.board import COLUMNS, WIDTH, Cell, RotatorMap, parse_cell
from cardgen.rotator.engine import Terrain
from cardgen.rotator.solver import DEFAULT_BUDGET, Solver, StartResult

_MASK64 = (1 << 64) - 1
MIN_DISTANCE = 5  # diamonds of radius 2 are disjoint when their centres are 5 apart


class SplitMix64:
    """A tiny, well-known 64-bit generator with an exactly specified output."""

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK64

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Uniform in 0..n-1 (rejection sampling, no modulo bias)."""
        limit = (1 << 64) - (1 << 64) % n
        while True:
            value = self.next()
            if value < limit:
                return value % n


def _centres(grid: str) -> list[Cell]:
    return [parse_cell(f"{grid}:{c}{r}") for c in COLUMNS[1:9] for r in range(2, 10)]


CENTRES = {grid: _centres(grid) for grid in "AB"}


def random_map(rng: SplitMix64) -> RotatorMap:
    """Place five Nodes per grid one by one, each uniformly among the centres that keep
    every territory apart; start again on a dead end."""
    while True:
        placed: list[Cell] = []
        for grid in "AB":
            for _ in range(5):
                free = [c for c in CENTRES[grid]
                        if all(abs(c[0] - p[0]) + abs(c[1] - p[1]) >= MIN_DISTANCE
                               for p in placed)]
                if not free:
                    break
                placed.append(free[rng.below(len(free))])
        if len(placed) == 10:
            return RotatorMap.from_cells(placed)


# --- grading ---------------------------------------------------------------------------
#
# Nearly every random map can be won (SPEC §5), so solvability alone grades nothing. What
# makes a board hard is how narrow its winning lines are: how many turns the best line
# takes, how many boost spaces it needs, how many of the ten start cells can win at all.
# Measured on 300 seeded maps: best lines of 5 turns (29 %), 9 (64 %), 13 (4 %); 8 or 9
# winning starts in four boards of five.

GRADES = ("easy", "medium", "hard")
GRADE_RULES = {
    "easy": "best line ≤ 5 turns, ≤ 3 boost spaces, ≥ 8 of the 10 starts can win",
    "hard": ("best line ≥ 13 turns; or ≥ 9 turns needing ≥ 6 boost spaces; "
             "or ≥ 9 turns with ≤ 7 starts that can win"),
    "medium": "every other winnable board",
}


def grade(turns: int, boosts: int, winning_starts: int) -> str:
    """The documented grade of a board from its solver figures."""
    if turns <= 5 and boosts <= 3 and winning_starts >= 8:
        return "easy"
    if turns >= 13 or (turns >= 9 and (boosts >= 6 or winning_starts <= 7)):
        return "hard"
    return "medium"


@dataclass(frozen=True)
class GradedBoard:
    rmap: RotatorMap
    grade: str
    best: StartResult  # the shortest line over all starts
    winning_starts: tuple[int, ...]  # top-row columns that can win
    states: int


# The longest best line each grade allows; a search may stop there.
MAX_TURNS = {"easy": 5, "medium": 12, "hard": None}
# A board won in its first turn (one straight fall) never turns: it is no puzzle.
MIN_TURNS = {"easy": 2, "medium": 2, "hard": 9}


def analyse(rmap: RotatorMap, budget: int = DEFAULT_BUDGET,
            wanted: str | None = None) -> GradedBoard | None:
    """Grade a map, or None when it is not proved winnable with every start decided
    within ``budget`` states per search, or is won in its first turn. With ``wanted``, a
    map that cannot have that grade is dropped (None) as soon as that is clear."""
    solver = Solver(Terrain.from_map(rmap))
    best = solver.best_line(budget, MAX_TURNS[wanted] if wanted else None)
    if best.status != "win" or best.turns < MIN_TURNS[wanted or "easy"]:
        return None
    states = best.states
    winning = []
    for x in range(WIDTH):
        if x == best.start:
            winning.append(x)
            continue
        result = solver.witness(x, budget)
        states += result.states
        if result.status == "undecided":
            return None
        if result.status == "win":
            winning.append(x)
    return GradedBoard(rmap, grade(best.turns, best.boosts, len(winning)), best,
                       tuple(winning), states)


@dataclass
class Generation:
    boards: list[GradedBoard]
    candidates: int  # maps drawn and analysed
    wanted: int

    @property
    def complete(self) -> bool:
        return len(self.boards) >= self.wanted


def generate(seed: int, count: int, difficulty: str | None = None, *,
             budget: int = DEFAULT_BUDGET, max_candidates: int | None = None,
             jobs: int = 1, progress: Callable[[int, int], None] | None = None) -> Generation:
    """Draw maps from ``seed`` until ``count`` boards of the grade are found (any grade
    when ``difficulty`` is None), trying at most ``max_candidates`` maps (default 60 per
    board asked). ``progress(candidates, found)`` is called after every map.

    With ``jobs`` > 1 maps are analysed in parallel processes but accepted strictly in
    the order they were drawn, so the boards are the same as with one job.
    """
    if difficulty is not None and difficulty not in GRADES:
        raise CardgenError(f"--difficulty must be one of {', '.join(GRADES)}, "
                           f"not {difficulty!r}.")
    if count < 1:
        raise CardgenError("--count must be at least 1.")
    limit = max_candidates if max_candidates is not None else 60 * count
    rng = SplitMix64(seed)
    maps: list[RotatorMap] = []
    seen: set[str] = set()

    def draw() -> RotatorMap | None:
        """The next map, or None for a repeat (counted as a candidate all the same)."""
        rmap = random_map(rng)
        maps.append(rmap)
        if rmap.board_id in seen:
            return None
        seen.add(rmap.board_id)
        return rmap

    found: list[GradedBoard] = []
    candidates = 0

    def take(graded: GradedBoard | None) -> None:
        nonlocal candidates
        candidates += 1
        if graded is not None and difficulty in (None, graded.grade):
            found.append(graded)
        if progress:
            progress(candidates, len(found))

    if jobs <= 1:
        while len(found) < count and candidates < limit:
            rmap = draw()
            take(analyse(rmap, budget, difficulty) if rmap else None)
        return Generation(found, candidates, count)

    from concurrent.futures import Future, ProcessPoolExecutor

    window: list[Future | None] = []
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        drawn = 0
        while len(found) < count and candidates < limit:
            while len(window) < 4 * jobs and drawn < limit:
                rmap = draw()
                drawn += 1
                window.append(pool.submit(analyse, rmap, budget, difficulty) if rmap else None)
            future = window.pop(0)
            take(future.result() if future is not None else None)
        for future in window:
            if future is not None:
                future.cancel()
    return Generation(found, candidates, count)
