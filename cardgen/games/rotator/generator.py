"""Seeded Rotator boards, graded by the solver.

Randomness comes from SplitMix64 (``games.rng``), so that a seed gives the same boards on
every machine and every Python version. Only boards the solver proved winnable, with
every start cell decided, are emitted.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass

from cardgen.board.cells import GRID_SIZE, WIDTH, Cell, Grid, board_cell
from cardgen.board.territory import MIN_DISJOINT_DISTANCE, distance
from cardgen.errors import ParameterError
from cardgen.games.rng import SplitMix64
from cardgen.games.rotator.board import NODES_PER_GRID, RotatorMap
from cardgen.games.rotator.engine import Terrain
from cardgen.games.rotator.solver import DEFAULT_BUDGET, Solver, StartResult, Status

MAPS_PER_BOARD = 60  # default number of maps tried per board asked for
WINDOW_PER_JOB = 4  # maps in flight per parallel job


def _centres(grid: Grid) -> list[Cell]:
    """Where a Node centre may sit: columns B–I, Rows 2–9 of its grid, in card order."""
    return [board_cell(grid, c, r) for c in range(1, GRID_SIZE - 1) for r in range(2, GRID_SIZE)]


CENTRES = {grid: _centres(grid) for grid in Grid}


def random_map(rng: SplitMix64) -> RotatorMap:
    """Place five Nodes per grid one by one, each uniformly among the centres that keep
    every territory apart; start again on a dead end."""
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


# --- grading ---------------------------------------------------------------------------
#
# Nearly every random map can be won (SPEC §5), so solvability alone grades nothing. What
# makes a board hard is how narrow its winning lines are: how many turns the best line
# takes, how many boost spaces it needs, how many of the ten start cells can win at all.
# Measured on 300 seeded maps: best lines of 5 turns (29 %), 9 (64 %), 13 (4 %); 8 or 9
# winning starts in four boards of five.

class Grade(enum.StrEnum):
    EASY = "easy"
    MEDIUM = "medium"
    HARD = "hard"


GRADE_RULES = {
    Grade.EASY: "best line ≤ 5 turns, ≤ 3 boost spaces, ≥ 8 of the 10 starts can win",
    Grade.HARD: ("best line ≥ 13 turns; or ≥ 9 turns needing ≥ 6 boost spaces; "
                 "or ≥ 9 turns with ≤ 7 starts that can win"),
    Grade.MEDIUM: "every other winnable board",
}


def grade(turns: int, boosts: int, winning_starts: int) -> Grade:
    """The documented grade of a board from its solver figures."""
    if turns <= 5 and boosts <= 3 and winning_starts >= 8:
        return Grade.EASY
    if turns >= 13 or (turns >= 9 and (boosts >= 6 or winning_starts <= 7)):
        return Grade.HARD
    return Grade.MEDIUM


@dataclass(frozen=True)
class GradedBoard:
    rmap: RotatorMap
    grade: Grade
    best: StartResult  # the shortest line over all starts
    winning_starts: tuple[int, ...]  # top-row columns that can win
    states: int


# The longest best line each grade allows; a search may stop there.
MAX_TURNS = {Grade.EASY: 5, Grade.MEDIUM: 12, Grade.HARD: None}
# A board won in its first turn (one straight fall) never turns: it is no puzzle.
MIN_TURNS = {Grade.EASY: 2, Grade.MEDIUM: 2, Grade.HARD: 9}


def analyse(rmap: RotatorMap, budget: int = DEFAULT_BUDGET,
            wanted: Grade | None = None) -> GradedBoard | None:
    """Grade a map, or None when it is not proved winnable with every start decided
    within ``budget`` states per search, or is won in its first turn. With ``wanted``, a
    map that cannot have that grade is dropped (None) as soon as that is clear."""
    solver = Solver(Terrain.from_map(rmap))
    best = solver.best_line(budget, MAX_TURNS[wanted] if wanted else None)
    if best.status is not Status.WIN or best.turns < MIN_TURNS[wanted or Grade.EASY]:
        return None
    states = best.states
    winning = []
    for x in range(WIDTH):
        if x == best.start:
            winning.append(x)
            continue
        result = solver.witness(x, budget)
        states += result.states
        if result.status is Status.UNDECIDED:
            return None
        if result.status is Status.WIN:
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


def generate(seed: int, count: int, difficulty: Grade | None = None, *,
             budget: int = DEFAULT_BUDGET, max_candidates: int | None = None,
             jobs: int = 1, progress: Callable[[int, int], None] | None = None) -> Generation:
    """Draw maps from ``seed`` until ``count`` boards of the grade are found (any grade
    when ``difficulty`` is None), trying at most ``max_candidates`` maps (default 60 per
    board asked for). ``progress(candidates, found)`` is called after every map.

    With ``jobs`` > 1 maps are analysed in parallel processes but accepted strictly in
    the order they were drawn, so the boards are the same as with one job.
    """
    if count < 1:
        raise ParameterError("count", "must be at least 1.", value=count)
    if jobs < 1:
        raise ParameterError("jobs", "must be at least 1.", value=jobs)
    limit = max_candidates if max_candidates is not None else MAPS_PER_BOARD * count
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

    from concurrent.futures import ProcessPoolExecutor

    window: list[Future[GradedBoard | None] | None] = []
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        drawn = 0
        while len(found) < count and candidates < limit:
            while len(window) < WINDOW_PER_JOB * jobs and drawn < limit:
                rmap = draw()
                drawn += 1
                window.append(pool.submit(analyse, rmap, budget, difficulty) if rmap else None)
            future = window.pop(0)
            take(future.result() if future is not None else None)
        for future in window:
            if future is not None:
                future.cancel()
    return Generation(found, candidates, count)
