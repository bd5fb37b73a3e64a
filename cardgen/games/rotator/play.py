"""A game of Rotator in progress, for ``cardgen rotator play``: the model behind the
terminal, with no input or output of its own.

A :class:`Session` keeps every state of the game so far (so any number of turns can be
undone), offers the choices the rules engine allows (each with the turn it would play,
so a view can say what would happen), and gives hints: the next choice of a shortest
winning line from the current state, found by a breadth-first search over the fast
solver's :meth:`Solver.expand` from the engine state translated into the solver's
bitboards (fewest turns, then fewest boost spaces).

A game has three kinds of decisions: the start column before turn 1, the start square
after a capture, and each turn's drill and boosts. Undo takes back the last decision.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from cardgen.board.cells import WIDTH, Cell
from cardgen.games.rotator.board import RotatorMap, sort_key
from cardgen.games.rotator.engine import (
    BOOST_CACHE,
    COLLAPSE_AFTER,
    GOAL_ROW,
    Choice,
    IllegalMove,
    State,
    Terrain,
    TurnReport,
    legal_choices,
    play_turn,
    start_state,
)
from cardgen.games.rotator.solver import (
    DEFAULT_BUDGET,
    Solver,
    Status,
    cell_of,
    mask_of,
)
from cardgen.games.rotator.solver import State as SolverState


class Phase(enum.StrEnum):
    """What the game waits for."""

    START = "start"  # the start column, before turn 1
    PICK = "pick"  # the start square after a capture
    MOVE = "move"  # the turn's drill and boosts
    WON = "won"
    LOST = "lost"


@dataclass(frozen=True)
class Option:
    """One thing the player may do now: a choice and the turn it plays."""

    choice: Choice
    report: TurnReport


class HintStatus(enum.StrEnum):
    WIN = "win"  # ``choice`` starts a shortest winning line
    LOST = "lost"  # every line from here was searched: none wins
    UNDECIDED = "undecided"  # the search ran out of its state budget


@dataclass(frozen=True)
class Hint:
    """The solver's advice: for WIN, the start column (before turn 1) or the choice to
    make now, and the figures of the line it begins (turns from now, including this
    one, and boost spaces it spends)."""

    status: HintStatus
    start: int | None = None
    choice: Choice | None = None
    turns: int = 0
    boosts: int = 0
    states: int = 0


@dataclass(frozen=True)
class _Snapshot:
    start: int | None
    states: tuple[State, ...]
    reports: tuple[TurnReport, ...]
    picked: Cell | None


def solver_state(state: State) -> SolverState:
    """An engine state as the solver's tuple: cells touched in this turn (only the start
    cell before turn 1), one, two and three turns ago become masks; the phase is
    (turn - 1) mod 4."""
    ages: list[list[Cell]] = [[] for _ in range(COLLAPSE_AFTER + 1)]
    for cell, turn in state.touched:
        ages[state.turn - turn].append(cell)
    first, t1, t2, t3 = (mask_of(cells) for cells in ages)
    pos = state.pos[1] * WIDTH + state.pos[0]
    choose = -1 if state.choose_from is None else state.choose_from
    return (pos, mask_of(state.solid), t1, t2, t3, (state.turn - 1) % 4, choose, first,
            state.boosts)


def shortest_from(solver: Solver, state: SolverState, budget: int = DEFAULT_BUDGET,
                  only_start: int | None = None) -> Hint:
    """The first choice of a shortest winning line from ``state`` (fewest turns, then
    fewest boost spaces; the solver's own search, :meth:`Solver.line_from`), or LOST
    when no line exists, or UNDECIDED past ``budget`` stored states. With ``only_start``
    (a cell index, in a state that picks a start after a capture), only the lines that
    start there are searched: the same turn played from that square."""
    if only_start is not None:
        state = (only_start, *state[1:6], -1, *state[7:])
    result = solver.line_from(state, budget)
    if result.status is Status.WIN:
        choice = result.choices[0]
        if only_start is not None:
            choice = Choice(cell_of(only_start), choice.drill, choice.boost)
        return Hint(HintStatus.WIN, choice=choice, turns=result.turns,
                    boosts=result.boosts, states=result.states)
    status = HintStatus.LOST if result.status is Status.NONE else HintStatus.UNDECIDED
    return Hint(status, states=result.states)


class Session:
    """One game on one board, from the start column to a win or a loss."""

    def __init__(self, rmap: RotatorMap, start: int | None = None) -> None:
        self.rmap = rmap
        self.terrain = Terrain.from_map(rmap)
        self._solver: Solver | None = None
        self._start: int | None = None
        self._states: tuple[State, ...] = ()
        self._reports: tuple[TurnReport, ...] = ()
        self._picked: Cell | None = None
        self._past: list[_Snapshot] = []
        if start is not None:
            self.choose_start(start)
            self._past.clear()  # a start given up front is where undo stops

    # --- what the game looks like now ---------------------------------------------------

    @property
    def state(self) -> State | None:
        """The state before the turn about to be played (None before the start)."""
        return self._states[-1] if self._states else None

    @property
    def start(self) -> int | None:
        return self._start

    @property
    def picked(self) -> Cell | None:
        """The start square picked after a capture, before the turn is played."""
        return self._picked

    @property
    def log(self) -> tuple[TurnReport, ...]:
        """Every turn played so far, in order."""
        return self._reports

    @property
    def phase(self) -> Phase:
        state = self.state
        if state is None:
            return Phase.START
        if self._reports and self._reports[-1].won:
            return Phase.WON
        if self._reports and self._reports[-1].lost:
            return Phase.LOST
        if state.choose_from is not None and self._picked is None:
            return Phase.PICK
        return Phase.MOVE

    @property
    def can_undo(self) -> bool:
        return bool(self._past)

    def start_cells(self) -> list[Cell]:
        """Where the player may stand now: the top row before turn 1, the captured Node's
        territory after a capture (in card order: grid, column letter, row)."""
        state = self.state
        if state is None:
            return sorted(((x, 0) for x in range(WIDTH)), key=sort_key)
        if state.choose_from is None:
            return []
        return sorted(self.terrain.territories[state.choose_from], key=sort_key)

    def options(self) -> list[Option]:
        """The choices the rules allow now (MOVE only), each with the turn it plays."""
        state = self.state
        if state is None or self.phase is not Phase.MOVE:
            return []
        out = []
        for choice in legal_choices(self.terrain, state):
            if choice.start == self._picked:
                out.append(Option(choice, play_turn(self.terrain, state, choice)[1]))
        return out

    def fills_in(self) -> list[Cell]:
        """The squares that fill in at the collapse step of the turn about to be played."""
        state = self.state
        if state is None:
            return []
        return sorted(c for c, t in state.touched if t == state.turn - COLLAPSE_AFTER)

    # --- decisions ---------------------------------------------------------------------

    def _remember(self) -> None:
        self._past.append(_Snapshot(self._start, self._states, self._reports, self._picked))

    def choose_start(self, x: int) -> None:
        """Stand on top-row column x before turn 1."""
        if self.phase is not Phase.START:
            raise IllegalMove("the start column is chosen once, before turn 1")
        state = start_state(self.terrain, x)
        self._remember()
        self._start, self._states = x, (state,)

    def pick(self, cell: Cell) -> TurnReport | None:
        """After a capture: stand on ``cell`` of the Node's territory. A square of the
        goal row wins at once: the turn is played and its report returned."""
        if self.phase is not Phase.PICK:
            raise IllegalMove("a start square is picked only right after a capture")
        if cell not in self.start_cells():
            raise IllegalMove("after a capture the turn must start on a cell of that Node's "
                              "territory")
        self._remember()
        self._picked = cell
        if cell[1] == GOAL_ROW:  # picking it and winning are one decision
            return self._play(Choice(cell), remember=False)
        return None

    def play(self, option: Option) -> TurnReport:
        """Play one of :meth:`options`."""
        if self.phase is not Phase.MOVE or option not in self.options():
            raise IllegalMove("that choice is not one the rules allow now")
        return self._play(option.choice)

    def _play(self, choice: Choice, remember: bool = True) -> TurnReport:
        state = self.state
        assert state is not None
        after, report = play_turn(self.terrain, state, choice)
        if remember:
            self._remember()
        self._states += (after,)
        self._reports += (report,)
        self._picked = None
        return report

    def undo(self) -> bool:
        """Take back the last decision; False if there is none."""
        if not self._past:
            return False
        snap = self._past.pop()
        self._start, self._states, self._reports, self._picked = (
            snap.start, snap.states, snap.reports, snap.picked)
        return True

    # --- advice ------------------------------------------------------------------------

    def hint(self, budget: int = DEFAULT_BUDGET) -> Hint:
        """The next decision of a shortest winning line from here (before turn 1: the
        start column of the board's best line)."""
        if self._solver is None:
            self._solver = Solver(self.terrain)
        state = self.state
        if state is None:
            best = self._solver.best_line(budget)
            if best.turns:
                return Hint(HintStatus.WIN, start=best.start, choice=best.choices[0],
                            turns=best.turns, boosts=best.boosts, states=best.states)
            status = HintStatus.LOST if best.status is Status.NONE else HintStatus.UNDECIDED
            return Hint(status, states=best.states)
        if self.phase in (Phase.WON, Phase.LOST):
            return Hint(HintStatus.LOST if self.phase is Phase.LOST else HintStatus.WIN)
        only = None
        if self._picked is not None:
            only = self._picked[1] * WIDTH + self._picked[0]
        return shortest_from(self._solver, solver_state(state), budget, only)

    @property
    def boosts_left(self) -> int:
        state = self.state
        return state.boosts if state is not None else BOOST_CACHE
