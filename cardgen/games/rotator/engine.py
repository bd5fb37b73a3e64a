"""The rules of Rotator (SPEC §5), written for reading: cells are (x, y) tuples, sets are
frozensets. The solver (solver.py) plays by the same rules on bitboards; tests replay
every line it finds through this engine.

A turn, in order: choose a start (only after a capture), fall, collapse, drill (optional,
with up to two boosted cells), rotate. Gravity in turn t is +y, +x, -y, -x for
(t - 1) mod 4 = 0, 1, 2, 3; the board edge is ground.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from cardgen.board.cells import HEIGHT, WIDTH, Cell, on_board
from cardgen.board.territory import territory
from cardgen.games.rotator.board import RotatorMap

GOAL_ROW = HEIGHT - 1
BOOST_CACHE = 10
MAX_BOOST_PER_TURN = 2
COLLAPSE_AFTER = 3
GRAVITY: tuple[Cell, ...] = ((0, 1), (1, 0), (0, -1), (-1, 0))


class IllegalMove(ValueError):
    """A choice the rules do not allow in this state."""


@dataclass(frozen=True)
class Terrain:
    """What a game is played on: the solid cells and the Nodes. Built from a map, or by
    hand for tests (any solid set, any Node centres)."""

    solid: frozenset[Cell]
    nodes: tuple[Cell, ...] = ()
    territories: tuple[frozenset[Cell], ...] = ()

    @classmethod
    def from_map(cls, rmap: RotatorMap) -> Terrain:
        return cls(rmap.solid, rmap.nodes, rmap.territories)

    @classmethod
    def custom(cls, solid: set[Cell] | frozenset[Cell], nodes: tuple[Cell, ...] = ()) -> Terrain:
        """A hand-built terrain (for tests and diagrams); each Node's territory is solid
        too."""
        territories = tuple(territory(n) for n in nodes)
        return cls(frozenset(solid).union(*territories), tuple(nodes), territories)

    def node_at(self, cell: Cell) -> int | None:
        try:
            return self.nodes.index(cell)
        except ValueError:
            return None


@dataclass(frozen=True)
class State:
    """The game between turns: ``turn`` is the turn about to be played."""

    turn: int
    pos: Cell
    solid: frozenset[Cell]
    touched: frozenset[tuple[Cell, int]]  # (cell, turn in which it was first entered)
    boosts: int = BOOST_CACHE
    choose_from: int | None = None  # a Node captured last turn: the next start is in it

    def touch_turns(self) -> dict[Cell, int]:
        return dict(self.touched)


@dataclass(frozen=True)
class Choice:
    """What the player decides in one turn."""

    start: Cell | None = None  # only (and always) right after a capture
    drill: bool = False
    boost: int = 0


@dataclass
class TurnReport:
    """Everything that happened in a turn, for answer keys and tests."""

    turn: int
    gravity: Cell
    start: Cell | None = None
    fall: list[Cell] = field(default_factory=list)
    collapsed: list[Cell] = field(default_factory=list)
    drill: Cell | None = None
    boosted: list[Cell] = field(default_factory=list)
    captured: int | None = None
    captured_cells: list[Cell] = field(default_factory=list)
    fall_after: list[Cell] = field(default_factory=list)
    end: Cell = (0, 0)
    won: bool = False
    lost: bool = False


def gravity(turn: int) -> Cell:
    return GRAVITY[(turn - 1) % 4]


def start_state(terrain: Terrain, x: int) -> State:
    """The player picks (x, 0) on the top row before turn 1; it is touched in turn 1."""
    if not 0 <= x < WIDTH:
        raise IllegalMove(f"start column {x} is off the board")
    cell = (x, 0)
    return State(1, cell, terrain.solid - {cell}, frozenset({(cell, 1)}))


class _Turn:
    """The mutable working copy of one turn."""

    def __init__(self, terrain: Terrain, state: State) -> None:
        self.terrain = terrain
        self.turn = state.turn
        self.solid = set(state.solid)
        self.touched = state.touch_turns()
        self.pos = state.pos
        self.boosts = state.boosts
        self.report = TurnReport(state.turn, gravity(state.turn))

    def enter(self, cell: Cell) -> None:
        """Move into a cell, touching it on first entry."""
        self.pos = cell
        self.touched.setdefault(cell, self.turn)
        self.solid.discard(cell)
        if cell[1] == GOAL_ROW:
            self.report.won = True

    def next_cell(self) -> Cell | None:
        dx, dy = gravity(self.turn)
        cell = (self.pos[0] + dx, self.pos[1] + dy)
        return cell if on_board(*cell) else None

    def fall(self, path: list[Cell]) -> None:
        while not self.report.won:
            cell = self.next_cell()
            if cell is None or cell in self.solid:
                return
            self.enter(cell)
            path.append(cell)

    def collapse(self) -> None:
        due = sorted(c for c, t in self.touched.items() if t == self.turn - COLLAPSE_AFTER)
        for cell in due:
            del self.touched[cell]
            self.solid.add(cell)
        self.report.collapsed = due
        if self.pos in due:
            self.report.lost = True

    def dig(self, cell: Cell) -> bool:
        """Drill or boost into a solid cell; True if that captured a Node (move ends)."""
        node = self.terrain.node_at(cell)
        self.enter(cell)
        if node is None or self.report.won:
            return False
        # The centre was solid, so the Node was active: capture it.
        fresh = sorted(c for c in self.terrain.territories[node] if c in self.solid)
        for c in fresh:
            self.solid.discard(c)
            self.touched.setdefault(c, self.turn)
        self.report.captured, self.report.captured_cells = node, fresh
        return True

    def state(self, choose_from: int | None) -> State:
        touched = frozenset(self.touched.items())
        return State(self.turn + 1, self.pos, frozenset(self.solid), touched, self.boosts,
                     choose_from)


def play_turn(terrain: Terrain, state: State, choice: Choice) -> tuple[State, TurnReport]:
    """Play one turn; raises IllegalMove for a choice the rules forbid."""
    t = _Turn(terrain, state)
    report = t.report
    if state.choose_from is not None:
        area = terrain.territories[state.choose_from]
        if choice.start not in area:
            raise IllegalMove("after a capture the turn must start on a cell of that Node's "
                              "territory")
        t.pos = report.start = choice.start
        if choice.start[1] == GOAL_ROW:
            report.won = True
    elif choice.start is not None:
        raise IllegalMove("a start cell may only be chosen right after a capture")
    if not report.won:
        t.fall(report.fall)
    if not report.won:
        t.collapse()
    if report.won or report.lost:
        if choice.drill or choice.boost:
            raise IllegalMove("the game ended before the drill step")
        report.end = t.pos
        return t.state(None), report
    choose_from = None
    if choice.drill:
        target = t.next_cell()
        if target is None or target not in t.solid:
            raise IllegalMove("there is no solid cell to drill into")
        report.drill = target
        captured = t.dig(target)
        if choice.boost:
            if captured or report.won:
                raise IllegalMove("no boost after the drill captured a Node or won")
            if choice.boost > min(MAX_BOOST_PER_TURN, t.boosts):
                raise IllegalMove("not enough boost spaces")
            for _ in range(choice.boost):
                cell = t.next_cell()
                if cell is None or cell not in t.solid:
                    raise IllegalMove("boosts only go through solid cells")
                t.boosts -= 1
                report.boosted.append(cell)
                captured = t.dig(cell)
                if captured or report.won:
                    break
            if len(report.boosted) < choice.boost:
                raise IllegalMove("the boost ended early (a capture or the goal)")
        if captured:
            choose_from = report.captured
        elif not report.won:
            t.fall(report.fall_after)
    elif choice.boost:
        raise IllegalMove("a boost must follow the drill")
    report.end = t.pos
    return t.state(choose_from), report


def legal_choices(terrain: Terrain, state: State) -> list[Choice]:
    """Every choice the rules allow (each leads to a distinct turn)."""
    starts: Sequence[Cell | None]
    if state.choose_from is not None:
        starts = sorted(terrain.territories[state.choose_from])
    else:
        starts = [None]
    choices = []
    for start in starts:
        base = Choice(start)
        choices.append(base)
        probe = replace(base, drill=True)
        for boost in range(MAX_BOOST_PER_TURN + 1):
            candidate = replace(probe, boost=boost)
            try:
                play_turn(terrain, state, candidate)
            except IllegalMove:
                break
            choices.append(candidate)
    return choices


def replay(terrain: Terrain, start_x: int, choices: list[Choice]) -> list[TurnReport]:
    """Play a whole line from a start column; raises IllegalMove if any turn is illegal
    or the game ends before the line does."""
    state = start_state(terrain, start_x)
    reports = []
    for i, choice in enumerate(choices):
        state, report = play_turn(terrain, state, choice)
        reports.append(report)
        if (report.won or report.lost) and i != len(choices) - 1:
            raise IllegalMove(f"the game ended in turn {report.turn}, before the line did")
    return reports
