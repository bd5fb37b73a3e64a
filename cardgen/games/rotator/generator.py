"""Seeded Rotator boards, graded by the solver.

Randomness comes from SplitMix64 (``games.rng``), so that a seed gives the same boards on
every machine and every Python version. Only boards the solver proved winnable, with
every start cell decided, are emitted.
"""

from __future__ import annotations

import enum
import os
import sys
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, replace
from multiprocessing import get_context
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from typing import NoReturn

from cardgen.board.cells import GRID_SIZE, WIDTH, Cell, Grid, board_cell
from cardgen.board.territory import MIN_DISJOINT_DISTANCE, distance
from cardgen.errors import ParameterError
from cardgen.games.rng import SplitMix64
from cardgen.games.rotator.board import NODES_PER_GRID, RotatorMap
from cardgen.games.rotator.engine import BOOST_CACHE, Terrain
from cardgen.games.rotator.fastgrade import GradingSolver
from cardgen.games.rotator.grading import (
    Figures,
    boosts_needed,
    cheaper_line,
    opening,
    par_search,
)
from cardgen.games.rotator.solver import DEFAULT_BUDGET, StartResult, Status
from cardgen.games.rotator.workers import (
    WorkerError,
    _stop_signals_blocked,
    _work,
)

MAPS_PER_BOARD = 60  # default number of maps tried per board asked for
WINDOW_PER_JOB = 4  # maps drawn ahead of the one awaited, per parallel job


def _centres(grid: Grid) -> list[Cell]:
    """Where a Node centre may sit: columns B–I, Rows 2–9 of its grid, in card order."""
    return [board_cell(grid, c, r) for c in range(1, GRID_SIZE - 1) for r in range(2, GRID_SIZE)]


CENTRES = {grid: _centres(grid) for grid in Grid}
# For each possible centre, the centres too near it for their territories to be apart.
TOO_NEAR = {p: frozenset(c for grid in Grid for c in CENTRES[grid]
                         if distance(c, p) < MIN_DISJOINT_DISTANCE)
            for grid in Grid for p in CENTRES[grid]}


def random_map(rng: SplitMix64) -> RotatorMap:
    """Place five Nodes per grid one by one, each uniformly among the centres that keep
    every territory apart (those at least MIN_DISJOINT_DISTANCE from every Node placed,
    in card order); start again on a dead end."""
    while True:
        placed: list[Cell] = []
        near: set[Cell] = set()  # the centres too near a Node placed
        for grid in Grid:
            for _ in range(NODES_PER_GRID):
                free = [c for c in CENTRES[grid] if c not in near]
                if not free:
                    break
                node = free[rng.below(len(free))]
                placed.append(node)
                near |= TOO_NEAR[node]
        if len(placed) == len(Grid) * NODES_PER_GRID:
            return RotatorMap.from_cells(placed)


# --- grading ---------------------------------------------------------------------------
#
# Nearly every random map can be won (SPEC §5), so solvability alone grades nothing. A
# board is hard when *winning at all* is hard: a long best line (par), a boost cache that
# stays tight even for a player allowed four turns more than par, few first moves that
# still win in that time. The figures are defined and searched in ``grading.py``;
# ``benchmarks/grade_study.py`` prints how they spread over random maps, and the guide
# (docs/rotator.md) shows its table. Par comes in steps of four (a fall reaches the goal
# row only in a turn of down-gravity, or by a start picked after a capture): 5, 9 and 13
# turns on 31 %, 64 % and 3 % of 300 maps from seed 2026.

class Grade(enum.StrEnum):
    EASY = "easy"
    MEDIUM = "medium"
    HARD = "hard"


@dataclass(frozen=True)
class GradeThresholds:
    """Where the grades part, on the figures of ``grading.Figures``."""

    easy_max_par: int = 5  # won in the card's first two rotations …
    easy_max_boosts: int = 3  # … with at most 3 of the 10 boost spaces …
    easy_min_open: int = 10  # … and at least 10 first moves still winning by par + 4
    hard_min_par: int = 9  # at least 9 turns, and then either …
    hard_min_boosts: int = 4  # … 4 or more boost spaces needed even by par + 4 …
    hard_max_open: int = 12  # … or at most 12 first moves winning by par + 4
    hard_par: int = 13  # a par this long is hard whatever the rest


THRESHOLDS = GradeThresholds()
_T = THRESHOLDS
GRADE_RULES = {
    Grade.EASY: (f"par ≤ {_T.easy_max_par} turns, ≤ {_T.easy_max_boosts} boost spaces "
                 f"needed, ≥ {_T.easy_min_open} open first moves"),
    Grade.HARD: (f"par ≥ {_T.hard_par} turns; or par ≥ {_T.hard_min_par} turns with "
                 f"≥ {_T.hard_min_boosts} boost spaces needed or ≤ {_T.hard_max_open} open "
                 "first moves"),
    Grade.MEDIUM: "every other winnable board",
}


def grade(figures: Figures, t: GradeThresholds = THRESHOLDS) -> Grade:
    """The documented grade of a board from its difficulty figures."""
    par, boosts, opened = figures.par, figures.boosts_needed, figures.open_moves
    if par <= t.easy_max_par and boosts <= t.easy_max_boosts and opened >= t.easy_min_open:
        return Grade.EASY
    if par >= t.hard_par or (par >= t.hard_min_par and (
            boosts >= t.hard_min_boosts or opened <= t.hard_max_open)):
        return Grade.HARD
    return Grade.MEDIUM


def _settled_above(wanted: Grade, par: int, t: GradeThresholds = THRESHOLDS) -> int | None:
    """The number of open first moves from which on more of them no longer changes
    whether a board of this par can have the grade ``wanted`` (None: always matters):
    counting them may stop there."""
    def grades(opened: int) -> list[bool]:
        return [grade(Figures(par, b, opened, 0, 0, 0), t) is wanted
                for b in range(BOOST_CACHE + 1)]
    most = 4 * WIDTH  # four choices in turn 1 at most, on each start
    top = grades(most)
    k = most
    while k > 0 and grades(k - 1) == top:
        k -= 1
    return k if k < most else None


# What a book of boards asks for: one grade, several in ramp order (a mixed book), or
# None (any grade, as drawn).
Difficulty = Grade | tuple[Grade, ...] | None
MIXED: tuple[Grade, ...] = tuple(Grade)  # the default book: easy, then medium, then hard


def grades_of(difficulty: Difficulty) -> tuple[Grade, ...] | None:
    """The grades a book asks for, in ramp order (None: any grade)."""
    if difficulty is None:
        return None
    return (difficulty,) if isinstance(difficulty, Grade) else tuple(difficulty)


def shares(count: int, grades: tuple[Grade, ...]) -> dict[Grade, int]:
    """How many boards of each grade a mixed book of ``count`` boards holds: equal shares
    in ramp order, the boards left over going to the first grades (12 boards of easy,
    medium, hard: 4, 4, 4; 13: 5, 4, 4; 5: 2, 2, 1), so each grade has ``count //
    len(grades)`` boards or one more: at least a quarter of every book of 4 boards or
    more, but for 5 boards of three grades, where two of each cannot fit. A book with
    fewer boards than grades holds the first grades of the ramp, one board each (2
    boards of easy, medium, hard: one easy and one medium)."""
    if len(set(grades)) != len(grades) or not grades:
        raise ParameterError("difficulty", "must name each grade once.", value=grades)
    base, extra = divmod(count, len(grades))
    return {g: base + (1 if i < extra else 0) for i, g in enumerate(grades)}


@dataclass(frozen=True)
class GradedBoard:
    rmap: RotatorMap
    grade: Grade
    best: StartResult  # the shortest line over all starts (the par line)
    winning_starts: tuple[int, ...]  # top-row columns that can win (at all)
    states: int
    figures: Figures


# The longest best line each grade allows; a search may stop there.
MAX_TURNS = {Grade.EASY: THRESHOLDS.easy_max_par, Grade.MEDIUM: THRESHOLDS.hard_par - 1,
             Grade.HARD: None}
# A board won in its first turn (one straight fall) never turns: it is no puzzle.
MIN_TURNS = {Grade.EASY: 2, Grade.MEDIUM: 2, Grade.HARD: THRESHOLDS.hard_min_par}


def analyse(rmap: RotatorMap, budget: int = DEFAULT_BUDGET,
            wanted: Grade | None = None) -> GradedBoard | None:
    """Grade a map, or None when it is not proved winnable with every start decided
    within ``budget`` states per search, or is won in its first turn. With ``wanted``, a
    map that cannot have that grade is dropped (None) as soon as that is clear.

    The cheap questions come first and the dear search, boosts needed by par + 4, last
    and as small as the decision allows: par (the solver's best line, searched once: it
    stops past the longest par of the grade, and it is the answer key's line), then the
    first moves (counted only as far as the grade cares), then, when the grade still
    hangs on the boosts, only the question "a line with fewer than k?" for the k where
    the grade changes, which a best-first search answers yes at its first such line; the
    exact figures and the start squares that can win are searched only for a board that
    is kept. The grading searches run on ``fastgrade.GradingSolver``: ``grading``'s
    searches, state for state, written out for speed."""
    solver = GradingSolver(Terrain.from_map(rmap))
    # The best line: par for the grade, and the line for the answer key.
    best = par_search(solver, budget, MAX_TURNS[wanted] if wanted else None)
    if best is None or best.turns < MIN_TURNS[wanted or Grade.EASY]:
        return None
    par, known, states = best.turns, best.boosts, best.states
    enough = None if wanted is None else _settled_above(wanted, par)
    opened = opening(solver, par, budget, enough)
    if opened is None:
        return None
    states += opened.states
    if wanted is not None:
        by_boosts = [grade(opened.with_boosts(b, 0)) for b in range(BOOST_CACHE + 1)]
        if wanted not in by_boosts:
            return None
        edge = next((b for b, g in enumerate(by_boosts) if g is not by_boosts[0]), None)
        if edge is not None and len(set(by_boosts[edge:])) == 1:  # one edge: ask "< edge?"
            probe = cheaper_line(solver, par, edge, budget)
            if probe is None:
                return None
            states += probe[1]
            if by_boosts[0 if probe[0] else edge] is not wanted:
                return None
        if not opened.complete:  # kept: count every open move
            opened = opening(solver, par, budget)
            if opened is None:
                return None
            states += opened.states
    exact = boosts_needed(solver, par, known, budget)
    if exact is None:
        return None
    boosts, states = exact[0], states + exact[1]
    found = opened.with_boosts(boosts, 0)
    if wanted is not None and grade(found) is not wanted:
        return None
    winning = []
    for x in range(WIDTH):
        if x in found.starts:  # wins within par + 4 turns
            winning.append(x)
            continue
        result = solver.witness(x, budget)
        states += result.states
        if result.status is Status.UNDECIDED:
            return None
        if result.status is Status.WIN:
            winning.append(x)
    found = replace(found, states=states)
    return GradedBoard(rmap, grade(found), best, tuple(winning), states, found)


@dataclass
class Generation:
    boards: list[GradedBoard]
    candidates: int  # maps drawn and analysed
    wanted: int
    shares: dict[Grade, int] | None = None  # boards wanted of each grade (None: any)

    @property
    def complete(self) -> bool:
        return len(self.boards) >= self.wanted

    def short(self) -> list[tuple[Grade, int, int]]:
        """The grades of which fewer boards were found than wanted: (grade, found,
        wanted), in ramp order."""
        if self.shares is None:
            return []
        found = [sum(1 for b in self.boards if b.grade is g) for g in self.shares]
        return [(g, n, want) for (g, want), n in zip(self.shares.items(), found, strict=True)
                if n < want]


def cpu_count() -> int:
    """The CPUs this process may use (its affinity mask, where the system has one)."""
    process_cpu_count = getattr(os, "process_cpu_count", None)  # Python 3.13 and later
    if process_cpu_count is not None:
        return int(process_cpu_count() or 1)
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0)) or 1
    return os.cpu_count() or 1


def usable_jobs(asked: int | None) -> tuple[int, bool]:
    """How many parallel jobs to use for ``asked`` (None: as many as there are CPUs this
    process may use), never more than those CPUs, and whether ``asked`` was cut down."""
    if asked is not None and asked < 1:
        raise ParameterError("jobs", "must be at least 1.", value=asked)
    cpus = cpu_count()
    if asked is None:
        return cpus, False
    return min(asked, cpus), asked > cpus


def generate(seed: int, count: int, difficulty: Difficulty = None, *,
             budget: int = DEFAULT_BUDGET, max_candidates: int | None = None,
             jobs: int = 1, progress: Callable[[int, int], None] | None = None) -> Generation:
    """Draw maps from ``seed`` until ``count`` boards of the grade are found (any grade
    when ``difficulty`` is None; with several grades, each grade's :func:`shares`, the
    boards in the order found), trying at most ``max_candidates`` maps (default 60 per
    board asked for). ``progress(candidates, found)`` is called after every map.

    With ``jobs`` > 1 maps are analysed in that many worker processes (at most one per
    CPU; see :func:`usable_jobs`) but accepted strictly in the order they
    were drawn, so the boards are the same as with one job. The workers are killed as
    soon as this function returns or raises, whatever the reason (enough boards, an
    error, Ctrl-C, a signal handler's exception, which propagates unchanged); they ignore
    SIGINT, and on Linux they die with this process even if it is killed. A worker that
    dies on its own (killed, out of memory) raises :class:`WorkerError`.
    """
    if count < 1:
        raise ParameterError("count", "must be at least 1.", value=count)
    if jobs < 1:
        raise ParameterError("jobs", "must be at least 1.", value=jobs)
    limit = max_candidates if max_candidates is not None else MAPS_PER_BOARD * count
    grades = grades_of(difficulty)
    # A map's analysis never depends on the boards taken so far, so that worker processes
    # may analyse maps ahead: one grade prunes by it, several grade every map in full.
    wanted = grades[0] if grades is not None and len(grades) == 1 else None
    asked = shares(count, grades) if grades is not None else None
    room = dict(asked) if asked is not None else None  # boards still wanted of each grade
    rng = SplitMix64(seed)
    seen: set[str] = set()

    def draw() -> RotatorMap | None:
        """The next map, or None for a repeat (counted as a candidate all the same)."""
        rmap = random_map(rng)
        if rmap.board_id in seen:
            return None
        seen.add(rmap.board_id)
        return rmap

    found: list[GradedBoard] = []
    candidates = 0

    def take(graded: GradedBoard | None) -> None:
        nonlocal candidates
        candidates += 1
        if graded is not None and (room is None or room.get(graded.grade, 0) > 0):
            found.append(graded)
            if room is not None:
                room[graded.grade] -= 1
        if progress:
            progress(candidates, len(found))

    if jobs <= 1:
        while len(found) < count and candidates < limit:
            rmap = draw()
            take(analyse(rmap, budget, wanted) if rmap else None)
        return Generation(found, candidates, count, asked)

    # Map i is analysed by whichever worker is free, but taken only after maps 0 … i-1,
    # and at most WINDOW_PER_JOB × jobs maps are drawn ahead of the one awaited.
    workers = _Workers(budget, wanted)
    try:
        workers.start(min(jobs, limit, cpu_count()))  # never more processes than CPUs
        results: dict[int, GradedBoard | None] = {}  # analysed (or repeats), not yet taken
        queue: deque[tuple[int, RotatorMap]] = deque()  # drawn, not yet sent to a worker
        drawn = 0
        while len(found) < count and candidates < limit:
            while drawn < min(limit, candidates + WINDOW_PER_JOB * jobs):
                rmap = draw()
                if rmap is None:
                    results[drawn] = None
                else:
                    queue.append((drawn, rmap))
                drawn += 1
            workers.send(queue)
            if candidates in results:
                take(results.pop(candidates))
            else:
                results.update(workers.receive())
    finally:
        workers.kill()
    return Generation(found, candidates, count, asked)


# --- worker processes ------------------------------------------------------------------
#
# Not a concurrent.futures or multiprocessing pool: those cannot kill a worker in the
# middle of a task (ProcessPoolExecutor, before Python 3.14) or hang for ever when a worker
# dies (multiprocessing.Pool). Here each worker has its own pipe and one map at a time, so
# the parent knows what each is doing, notices one that dies, and kills them all at once.

# The stop signals, the worker error and the two helpers every worker needs live in
# workers.py, which the solver's own workers (``rotator solve --jobs``) share.


@dataclass(frozen=True)
class _Analysis:
    """What a worker does with each map the parent sends (``workers._work`` runs it, and
    sends back ``(True, result)`` or ``(False, exception)``); picklable for spawned
    workers. ``analyse`` is looked up when a map comes, as the tests that replace it
    expect."""

    budget: int
    wanted: Grade | None

    def __call__(self, rmap: RotatorMap) -> GradedBoard | None:
        return analyse(rmap, self.budget, self.wanted)


class _Workers:
    """Worker processes that analyse maps, one map each at a time."""

    def __init__(self, budget: int, wanted: Grade | None) -> None:
        self.budget = budget
        self.wanted = wanted
        self.owner: dict[Connection, BaseProcess] = {}  # each worker's end of a pipe
        self.idle: list[Connection] = []
        self.busy: dict[Connection, int] = {}  # the index of the map each is analysing

    def start(self, jobs: int) -> None:
        # fork on Linux (fast); spawn elsewhere. Not the fork server: its workers would
        # be its children, not this process's.
        context = get_context("fork") if sys.platform.startswith("linux") else get_context(
            "spawn")
        with _stop_signals_blocked():
            for _ in range(jobs):
                ours, theirs = context.Pipe()
                process = context.Process(
                    target=_work, args=(theirs, os.getpid(), _Analysis(self.budget, self.wanted)),
                    name="cardgen-rotator-worker", daemon=True)
                self.owner[ours] = process
                process.start()
                theirs.close()
                self.idle.append(ours)

    def send(self, queue: deque[tuple[int, RotatorMap]]) -> None:
        """Hand the first maps of ``queue`` to the idle workers."""
        while queue and self.idle:
            pipe = self.idle.pop()
            index, rmap = queue.popleft()
            self.busy[pipe] = index
            try:
                pipe.send(rmap)
            except OSError:
                self._lost(pipe)

    def receive(self) -> dict[int, GradedBoard | None]:
        """Wait for at least one answer: ``{map index: analysis}``. A worker's exception
        is raised here."""
        assert self.busy, "nothing to wait for"
        answers: dict[int, GradedBoard | None] = {}
        for ready in wait(list(self.busy)):
            assert isinstance(ready, Connection)
            try:
                ok, value = ready.recv()
            except (EOFError, OSError):
                self._lost(ready)
            if not ok:
                raise value
            answers[self.busy.pop(ready)] = value
            self.idle.append(ready)
        return answers

    def _lost(self, pipe: Connection) -> NoReturn:
        process = self.owner[pipe]
        process.join(1)
        raise WorkerError(f"a worker process stopped while analysing map "
                          f"{self.busy[pipe] + 1} (exit code {process.exitcode}).")

    def kill(self) -> None:
        """Kill every worker now, whatever it is doing, and wait until they are gone."""
        for process in self.owner.values():
            if process.pid is not None:  # started
                process.kill()
        for pipe, process in self.owner.items():
            if process.pid is not None:
                process.join()
                process.close()
            pipe.close()
        self.owner.clear()
