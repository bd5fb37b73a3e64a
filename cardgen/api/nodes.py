"""The Node games (Reflector, Deflector, Defector) as values: the referee of a game
record, and the play against the computer that ``cardgen nodes play`` offers.

What ``cardgen referee`` and ``cardgen nodes play`` do, in memory, over the rules of
SPEC §9 as :mod:`cardgen.games.nodes` implements them (nothing here is a second
implementation). :func:`referee` replays a record (a file, its TOML text, or the
:class:`~cardgen.games.nodes.record.Record`) and reports every move, then the outcome::

    from cardgen.api.nodes import referee

    report = referee(example="reflector")
    print(report.legal, report.problem)
    print(report.toml)

:class:`NodesMatch` is a game between you (P1) and seeded computer players, in the referee's
words (``legal_moves``, ``push``, ``outcome``); :class:`NodesSession` is the whole
conversation of ``cardgen nodes play`` (placement, screens, shots, the end) as lines to
show and answers to give, for a terminal, a chat or a test. Every screen fits 80 × 24
and shows only what P1 may know.
"""

from __future__ import annotations

import json
import textwrap
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cardgen.errors import ParameterError, number, shorten
from cardgen.games.names import GameName
from cardgen.games.nodes import deal, engine, joins, knowledge
from cardgen.games.nodes.computer import Computer
from cardgen.games.nodes.knowledge import View
from cardgen.games.nodes.model import NODES, deflectors
from cardgen.games.nodes.record import (
    COLUMNS,
    Answer,
    Coord,
    IllegalMove,
    Move,
    MoveReport,
    Pass,
    PlayerSetup,
    Reason,
    Record,
    Result,
    Shot,
    Spot,
    coord_name,
    parse_coord,
    parse_spot,
    spot_name,
)
from cardgen.games.nodes.state import Fact, State
from cardgen.games.rng import SplitMix64
from cardgen.texts import say

if TYPE_CHECKING:
    from cardgen.games.base import Outcome
    from cardgen.games.nodes.record import Replay

__all__ = [
    "COMPUTER_RUN",
    "HEIGHT",
    "ME",
    "PLAY_GAMES",
    "REFEREE_EXAMPLES",
    "WIDTH",
    "IllegalMove",
    "NodesMatch",
    "NodesSession",
    "Pass",
    "RefereeReport",
    "Say",
    "Shot",
    "coord_name",
    "parse_placement",
    "place_by",
    "referee",
    "screen",
    "spot_name",
    "wrap_line",
]

PLAY_GAMES = (GameName.REFLECTOR, GameName.DEFLECTOR)  # the games played at the terminal
REFEREE_EXAMPLES = ("reflector", "deflector")  # the SPEC's worked records cardgen ships
SEEDS = (-2 ** 63, 2 ** 63 - 1)  # a seed is any 64-bit integer

# --- the referee --------------------------------------------------------------------------


@dataclass(frozen=True)
class RefereeReport:
    """A game record replayed (see :func:`referee`): what the referee reports for each
    move, then the outcome.

    ``legal`` when every move is; else the replay stopped at the first illegal move,
    whose :class:`~cardgen.games.nodes.record.IllegalMove` is ``error`` (its
    ``reason`` the SPEC's code, its ``rule`` the rule broken) and ``problem`` says it in
    one line, naming the record and the move's line (what ``cardgen referee`` says on
    stderr after ``error:``). ``toml`` is the report as TOML with a comment on each
    move (what ``cardgen referee`` prints; it parses back), :meth:`as_json` the same
    data as ``--json`` gives it; ``moves`` how many moves were replayed."""

    game: str
    legal: bool
    moves: int
    winners: tuple[str, ...]
    result: str
    reason: str | None
    toml: str
    problem: str | None
    error: IllegalMove | None = field(compare=False)
    replay: Replay = field(repr=False, compare=False)  # the engine's own

    def as_json(self) -> dict[str, Any]:
        """The report as ``cardgen referee --json`` gives it."""
        from cardgen.games.nodes.recordfile import report_json

        data: dict[str, Any] = json.loads(report_json(self.replay))
        return data


def referee(record: Path | str | Record | None = None, *, example: str | None = None,
            label: str = "record") -> RefereeReport:
    """Replay a Node-game record and say whether every move is legal.

    Args:
        record: the record (SPEC §9.8: game, players, moves) as a file
            (:class:`~pathlib.Path`), its TOML text, or a
            :class:`~cardgen.games.nodes.record.Record`.
        example: instead of ``record``, a worked record cardgen ships: reflector
            (eight shots and an illegal ninth) or deflector (a four-player chain).
        label: what errors and ``problem`` call text (a file is named by its path).

    Returns:
        A :class:`RefereeReport`: each move's report, the outcome, and the first illegal
        move if there is one (the replay stops there).

    Raises:
        ConfigError: a record that breaks its schema, each problem with its line, key
            and code.
        InputFileError: a file that cannot be read.
        ParameterError: both or neither of ``record`` and ``example``, or an unknown
            example.

    Example:
        >>> report = referee(example="reflector")
        >>> report.legal, report.error.reason.value
        (False, 'out-of-reach')
    """
    from cardgen.datafile import path_text
    from cardgen.games.nodes.recordfile import (
        commented_report,
        example_record,
        parse_record,
        read_record,
    )

    if example is not None:
        if example not in REFEREE_EXAMPLES:
            raise ParameterError("example", f"must be {' or '.join(REFEREE_EXAMPLES)}, not "
                                 f"{shorten(str(example))}.", value=example)
        if record is not None:
            raise ParameterError("example", "replays a record cardgen ships; give either a "
                                 "record or an example, not both.", value=example)
        record = example_record(example)
    if record is None:
        raise ParameterError("record", "is missing: give a record (a file, its TOML text or "
                             "a Record) or an example (reflector or deflector).")
    if isinstance(record, Path):
        game, where = read_record(record), path_text(record)
    elif isinstance(record, str):
        game, where = parse_record(record, label), label
    elif isinstance(record, Record):
        game, where = record, label
    else:
        raise ParameterError("record", "must be a Path, TOML text or a Record, not "
                             f"{type(record).__name__}.", value=record)
    replay, error = engine.check(game)
    problem = None
    if error is not None:
        problem = f"{where}: {_where(game, replay.reports[-1].move, error)}{error}"
    outcome = replay.outcome
    return RefereeReport(
        game=game.game.value, legal=error is None, moves=len(replay.reports),
        winners=tuple(outcome.winners), result=outcome.result.value,
        reason=None if outcome.reason is None else outcome.reason.value,
        toml=commented_report(game, replay, error), problem=problem, error=error,
        replay=replay)


def _where(game: Record, move: int, error: IllegalMove) -> str:
    """Which move of the record is illegal, and on which line (a bad set-up is reported
    on move 1, before any move)."""
    if error.reason is Reason.BAD_SETUP:
        return "the set-up breaks a rule: "
    line = game.move_lines[move - 1] if move <= len(game.move_lines) else 0
    return f"line {line}: move {move} is illegal: " if line else f"move {move} is illegal: "


# --- playing against the computer ---------------------------------------------------------


def _checked(game: GameName | str, players: int, seed: int) -> tuple[GameName, int, int]:
    """The game, players and seed of a game against the computer, checked."""
    chosen = next((g for g in PLAY_GAMES if g is game or (
        isinstance(game, str) and g.value == game.strip().lower())), None)
    if chosen is None:
        raise ParameterError("game", "must be reflector or deflector, not "
                             f"{shorten(str(game))}.", value=game)
    low, high = (2, 2) if chosen is GameName.REFLECTOR else (3, 5)
    if isinstance(players, bool) or not isinstance(players, int) or not low <= players <= high:
        raise ParameterError("players", f"must be {'2' if low == high else f'3 to {high}'} "
                             f"for {chosen.value}, not {_shown(players)}.", value=players)
    if isinstance(seed, bool) or not isinstance(seed, int) or not SEEDS[0] <= seed <= SEEDS[1]:
        raise ParameterError("seed", f"must be a 64-bit integer, not {_shown(seed)}.",
                             value=seed)
    return chosen, players, seed


def _shown(value: object) -> str:
    return number(value) if isinstance(value, int | float) else repr(value)


ME = "P1"
WIDTH, HEIGHT = 80, 24
# The most moves the computers make in a row before the game stops: SPEC §9 sets no limit,
# and with the human out the computers may trade spaces for ever (a Deflector table has
# run past 500). A whole game between computers takes some 50-2 000 moves.
COMPUTER_RUN = 3000
QUIT, UNDO = ("q", "quit", "exit"), ("u", "undo")


def _clip(line: str) -> str:
    return line if len(line) < WIDTH else line[:WIDTH - 2] + "…"


# --- placement ----------------------------------------------------------------------------

def parse_placement(text: str, count: int, avoid: frozenset[Coord] = frozenset(),
                    ) -> tuple[Coord, ...] | str:
    """``count`` different spaces typed with blanks or commas between, none in ``avoid``;
    or the problem in words."""
    words = text.replace(",", " ").upper().split()
    found: list[Coord] = []
    for word in words:
        coord = parse_coord(word)
        if coord is None:
            return f"{word[:12]} is not a space A1 … J10"
        if coord in found:
            return f"{word} is named twice"
        if coord in avoid:
            return f"{word} holds a Node"
        found.append(coord)
    if len(found) != count:
        return f"{count} spaces are needed, not {len(found)}"
    return tuple(found)


# --- the screen ---------------------------------------------------------------------------

def _cell(view: View, spot: Spot) -> tuple[str, bool, bool]:
    """What a space shows: its symbol (or ``.``), shaded, a Node."""
    facts = view.known(spot)
    mark = view.marks.get(spot)
    symbols = {s.id: s.symbol for s in view.seats}
    text = symbols[mark] if mark is not None else "."
    node = Fact.NODE in facts
    shaded = Fact.COVERED in facts and not node
    if mark is None and Fact.COVERED in facts and view.knows(spot[0]) is False:
        text = " "  # kept: shaded, no symbol
    if mark is None and spot in view.used:
        text = "+"
    elif mark is None and Fact.DEFLECTOR in facts and view.knows(spot[0]):
        text = "d"
    return text, shaded, node


def _kept(view: View) -> frozenset[Spot]:
    return frozenset(s for r in view.history for s in r.kept)


def grid_lines(view: View, grid: str) -> list[str]:
    """One grid, three characters a space: `` X `` won, ``[X]`` shaded, ``*X`` a Node."""
    kept = _kept(view)
    out = ["   " + "".join(f" {c} " for c in COLUMNS)]
    for row in range(1, 11):
        cells = []
        for col in range(10):
            spot = (grid, col, row)
            text, shaded, node = _cell(view, spot)
            if spot in kept and spot not in view.marks:
                text, shaded = " ", True
            if node:
                cells.append(f"*{text if text != '.' else ' '} ")
            elif shaded:
                cells.append(f"[{text if text != '.' else ' '}]")
            else:
                cells.append(f" {text} ")
        out.append(f"{row:>2} " + "".join(cells))
    return out


def compact_lines(view: View, grid: str) -> list[str]:
    """One grid, one character a space: ``X`` won, ``x`` won and shaded, ``:`` kept,
    ``*`` a Node."""
    kept = _kept(view)
    out = []
    for row in range(1, 11):
        chars = []
        for col in range(10):
            spot = (grid, col, row)
            text, shaded, node = _cell(view, spot)
            if node:
                text = "*"
            elif spot in kept and spot not in view.marks:
                text = ":"
            elif shaded and text not in ".+d":
                text = text.lower() if text.lower() != text else "#"
            chars.append(text)
        out.append("".join(chars))
    return out


def _path(path: Sequence[Spot], answers: Sequence[Answer]) -> str:
    """A shot's landings: those answered Deflector carry a ``d`` (the last answer is
    written after the path)."""
    return " ".join(spot_name(s) + ("d" if k < len(path) - 1 and k < len(answers)
                                    and answers[k] is Answer.DEFLECTOR else "")
                    for k, s in enumerate(path))


def report_line(view: View, report: MoveReport, who: str) -> str:
    """One move of the history in words: its landings and answers, captures, fired
    Deflectors, the reflection."""
    if not report.path:
        return say("nodes_play", "report.pass", who=who)
    parts = [say("nodes_play", "report.shot", who=who, path=_path(report.path, report.answers),
                answers=report.answers[-1].value if report.answers else "")]
    if report.captured:
        parts.append(say("nodes_play", "report.captured", spaces=" ".join(spot_name(s)
                                                          for s in report.captured)))
    for fired in report.fired:
        parts.append(say("nodes_play", "report.fired", source=spot_name(fired.source),
                        path=_path(fired.path, fired.answers),
                        answers=fired.answers[-1].value if fired.answers else ""))
    if report.reflection is not None:
        answer = report.reflection.answer
        words = answer.value if answer is not None else say("nodes_play", "report.nothing")
        parts.append(say("nodes_play", "report.reflection",
                         space=spot_name(report.reflection.at), answer=words))
    if report.out:
        parts.append(say("nodes_play", "report.out", players=" ".join(report.out)))
    return "; ".join(parts)


def _lost(view: View, player: str) -> int:
    """How many of ``player``'s own Nodes others hold (public: a capture reveals it)."""
    return sum(1 for s, facts in view.facts.items()
               if s[0] == player and Fact.NODE in facts and view.marks.get(s) not in (None, player))


def held(view: View, player: str) -> int:
    """How many Nodes ``player`` holds: his own not lost, and others' he captured."""
    return NODES - _lost(view, player) + sum(
        1 for s, facts in view.facts.items()
        if s[0] != player and Fact.NODE in facts and view.marks.get(s) == player)


def known_line(view: View, player: str) -> str:
    symbol = {s.id: s.symbol for s in view.seats}[player]
    lost = _lost(view, player)
    captured = sum(1 for s, facts in view.facts.items()
                   if s[0] == ME and Fact.NODE in facts and view.marks.get(s) == player)
    seen = sorted(s for s, facts in view.facts.items() if s[0] == player and Fact.NODE in facts)
    spaces = " ".join(coord_name(s[1:]) for s in seen)
    revealed = say("nodes_play", "screen.revealed", spaces=spaces) if seen else ""
    return say("nodes_play", "screen.known", who=player, symbol=symbol, nodes=held(view, player),
              captured=captured, lost=lost, revealed=revealed)


def screen(view: View, names: Callable[[str], str], movers: Sequence[str]) -> list[str]:
    """The whole picture for the human player, within 80 × 24 (the prompt line is the
    24th)."""
    lines: list[str] = []
    opponents = [s.id for s in view.seats if s.id != ME]
    if view.game is GameName.REFLECTOR:
        left, right = grid_lines(view, ME), grid_lines(view, opponents[0])
        lines.append(f"{say('nodes_play', 'screen.grid_private'):<36}  "
                     f"{say('nodes_play', 'screen.grid_public', who=names(opponents[0]))}")
        lines.extend(f"{a:<36}  {b}" for a, b in zip(left, right, strict=True))
        lines.append(say("nodes_play", "legend"))
        lines.append(known_line(view, opponents[0]))
        recent = view.history[-2:]
    else:
        grids = [ME, *opponents]
        symbols = {s.id: s.symbol for s in view.seats}
        heads = []
        for g in grids:
            heads.append(f"{g} {symbols[g]} {held(view, g)}N"[:10])
        columns = [compact_lines(view, g) for g in grids]
        lines.append("   " + "  ".join(f"{h:<10}" for h in heads))
        lines.append("   " + "  ".join("ABCDEFGHIJ" for _ in grids))
        for row in range(10):
            lines.append(f"{row + 1:>2} " + "  ".join(c[row] for c in columns))
        lines.append(say("nodes_play", "legend_compact"))
        for p in opponents:
            lines.append(known_line(view, p))
        recent = view.history[-(len(grids)):]
    count = len(view.history)
    for k, report in enumerate(recent):
        who = movers[count - len(recent) + k]
        lines.append(report_line(view, report, names(who)))
    return [_clip(line) for line in lines]


# --- the game -----------------------------------------------------------------------------

class NodesMatch:
    """A Node game in progress between you (P1) and computer players (P2 and on), as
    ``cardgen nodes play`` plays it: the engine's state (SPEC §9), the computers (seeded:
    the same seed, the same game), who made each move. The referee's vocabulary:
    :meth:`legal_moves`, :meth:`push`, :meth:`outcome`; :meth:`view` is what P1 may
    know, :meth:`computers_move` lets the computers play until it is P1's turn.

    Args:
        game: reflector (two players) or deflector (3 to 5).
        players: how many players, P1 and the computers.
        seed: any 64-bit integer: the computers' seed.
        nodes: P1's five Nodes (see :func:`place_by` for a seeded random placement).
        placed: P1's Deflectors (Deflector: twenty; Reflector: none).

    Raises:
        IllegalMove: a set-up that breaks a rule (``bad-setup``).
        ParameterError: a game, players or seed outside their domain.

    Example:
        >>> nodes, placed = place_by("reflector", 2, seed=7)
        >>> match = NodesMatch("reflector", 2, 7, nodes, placed)
        >>> match.push(match.legal_moves()[0]).path
        (('P2', 0, 1),)
        >>> match.computers_move(); match.movers
        ['P1', 'P2']
    """

    def __init__(self, game: GameName | str, players: int, seed: int,
                 nodes: tuple[Coord, ...], placed: tuple[Coord, ...] = ()) -> None:
        game, players, seed = _checked(game, players, seed)
        self.game = game
        table = deal.arrangement_for(game, players)
        self.layout = joins.layout(game, players, table)
        self.computers = {f"P{k}": Computer(seed * 16 + k) for k in range(2, players + 1)}
        seats = [PlayerSetup(ME, "You", deal.SYMBOLS[0], nodes, placed)]
        for k in range(2, players + 1):
            pid = f"P{k}"
            cn, cd = self.computers[pid].place(game, self.layout, pid)
            seats.append(PlayerSetup(pid, f"Computer {k}", deal.SYMBOLS[k - 1], cn, cd))
        self.state: State = engine.start(Record(game, tuple(seats), ME, (), table))
        self.movers: list[str] = []
        self.stalled = False

    def view(self) -> View:
        """What P1 may know now (what an opponent hid is never in it)."""
        return knowledge.view(self.state, ME)

    def legal_moves(self) -> list[Move]:
        """Every move the rules allow the player to move now (none once it is over)."""
        return engine.legal_moves(self.state)

    def outcome(self) -> Outcome | None:
        """None while the game goes on; then the winners by seat (none for a draw) and
        the SPEC's reason (``all-nodes``, ``true-draw`` …)."""
        from cardgen.games.nodes.game import NodeGame

        return NodeGame(self.game).outcome(self.state)

    def push(self, move: Shot | Pass) -> MoveReport:
        """Play ``move`` and return what the referee reports for it; an illegal move
        raises :class:`~cardgen.games.nodes.record.IllegalMove` (a CardgenError naming
        the rule) and changes nothing."""
        self.state, report = engine.push(self.state, move)
        self.movers.append(move.by)
        return report

    def computers_move(self) -> None:
        """The computers play until it is the human's turn or the game is over, or until
        they have made :data:`COMPUTER_RUN` moves in a row (the rules set no limit, and
        once the human is out computers can trade spaces for ever): then
        :attr:`stalled` is set."""
        run = 0
        while self.state.finish is None and self.state.to_move not in (None, ME):
            if run == COMPUTER_RUN:
                self.stalled = True
                return
            run += 1
            who = self.state.to_move
            assert who is not None
            move = self.computers[who].choose(knowledge.view(self.state, who))
            assert isinstance(move, Shot | Pass)
            self.push(move)


def place_by(game: GameName | str, players: int, seed: int
             ) -> tuple[tuple[Coord, ...], tuple[Coord, ...]]:
    """P1's seeded random placement, chosen the computer's way: his Nodes and his
    Deflectors (none in Reflector).

    Example:
        >>> len(place_by("deflector", 3, seed=1)[1])
        20
    """
    game, players, seed = _checked(game, players, seed)
    table = deal.arrangement_for(game, players)
    return Computer(seed * 16 + 1).place(game, joins.layout(game, players, table), ME)


def _example(game: GameName) -> str:
    return "F3" if game is GameName.REFLECTOR else "P2:F3"


def _target(game: GameName, text: str) -> Spot | None:
    word = text.strip().upper()
    if game is GameName.REFLECTOR and ":" not in word:
        coord = parse_coord(word)
        return None if coord is None else ("P2", *coord)
    return parse_spot(word)




# --- the conversation of ``cardgen nodes play`` -------------------------------------------


@dataclass(frozen=True)
class Say:
    """A line to show the player (at most :data:`WIDTH` - 1 columns unless it is a
    screen line, which fits :data:`WIDTH`), and its colour on a terminal that has colour:
    None, or ``cyan`` (whose turn), ``green`` (won), ``red`` (lost), ``yellow`` (a
    draw)."""

    text: str
    colour: str | None = None


class NodesSession:
    """``cardgen nodes play`` as a conversation: lines to show, and the player's answers.

    :meth:`start` gives the first lines (the welcome and how to place the Nodes); then,
    while not :attr:`over`, show :attr:`prompt`, read a line and give it to
    :meth:`answer` (None when the input has ended), which gives the lines to show next.
    No undo (a pencil game has none); ``q`` quits; ``?`` lists the legal shots and
    ``? F3`` says why a space is or is not one.

    Args:
        game: reflector (against one computer) or deflector (3 to 5 players).
        players: how many players (P1 is you; the computers play the others).
        seed: any 64-bit integer: the seed of the computers and of ``r`` (random
            placement).

    Raises:
        ParameterError: a game, players or seed outside their domain.

    Example:
        >>> session = NodesSession("reflector", 2, seed=7)
        >>> session.start()[0].text[:30]
        'Reflector against the computer'
        >>> lines = session.answer("r")  # the Nodes placed at random; the first screen
        >>> session.over
        False
    """

    def __init__(self, game: GameName | str, players: int = 2, seed: int = 1) -> None:
        self.game, self.players, self.seed = _checked(game, players, seed)
        self._said: list[Say] = []
        self._steps = _conversation(self.game, self.players, self.seed, self._said)
        self._started = False
        self.over = False

    @property
    def prompt(self) -> str:
        """What to show before reading the player's line (no line break after it)."""
        return say("nodes_play", "prompt")

    def start(self) -> list[Say]:
        """The first lines: the welcome, and how to place the Nodes."""
        if self._started:
            raise RuntimeError("the session has started already")
        self._started = True
        return self._advance(lambda: next(self._steps))

    def answer(self, text: str | None) -> list[Say]:
        """Give the player's line (None: the input ended); the lines to show next."""
        if not self._started or self.over:
            raise RuntimeError("answer() comes after start() and before the end")
        return self._advance(lambda: self._steps.send(text))

    def _advance(self, step: Callable[[], None]) -> list[Say]:
        try:
            step()
        except StopIteration:
            self.over = True
        said = list(self._said)
        self._said.clear()
        return said


def wrap_line(text: str) -> list[str]:
    """A line as the screen shows it: as it is when shorter than :data:`WIDTH`, else
    wrapped at words to lines of at most :data:`WIDTH` - 1 columns."""
    return _wrapped(text) if len(text) >= WIDTH else [text]


def _conversation(game: GameName, players: int, seed: int, said: list[Say]
                  ) -> Generator[None, str | None, None]:
    """Place, then play until the game ends, the player quits or the input ends: each
    line to show is added to ``said``; each ``yield`` asks for the player's line."""

    def echo(line: str, fg: str | None = None) -> None:
        said.extend(Say(part, fg) for part in wrap_line(line))

    echo(say("nodes_play", "welcome", game=game.value.capitalize(), seed=seed,
             symbol=deal.SYMBOLS[0]))
    random_nodes, random_placed = place_by(game, players, seed)
    nodes: tuple[Coord, ...] | None = None
    placed: tuple[Coord, ...] = ()
    count = deflectors(game)
    while nodes is None or (count and not placed):
        echo(say("nodes_play", "place.nodes") if nodes is None
             else say("nodes_play", "place.deflectors"))
        text = yield
        if text is None:
            echo(say("nodes_play", "input_end", moves=0))
            return
        word = text.lower()
        if word in QUIT:
            echo(say("nodes_play", "quit", moves=0))
            return
        if word in UNDO:
            echo(say("nodes_play", "no_undo"))
            continue
        if word == "r":
            if nodes is None:
                nodes = random_nodes
            elif not set(random_placed) & set(nodes):
                placed = random_placed
            else:  # typed Nodes: deal the Deflectors round them
                placed = deal.placement(SplitMix64(seed), count, frozenset(nodes))
            continue
        found = parse_placement(text, NODES if nodes is None else count,
                                frozenset(nodes or ()))
        if isinstance(found, str):
            echo(say("nodes_play", "place.bad", problem=found))
        elif nodes is None:
            nodes = found
        else:
            placed = found
    echo(say("nodes_play", "place.done", nodes=" ".join(coord_name(c) for c in nodes)))
    session = NodesMatch(game, players, seed, nodes, placed)
    names = {s.id: ("You" if s.id == ME else s.name) for s in session.state.setup.seats}
    _show(session, echo, names)
    while True:
        session.computers_move()
        if session.stalled:
            _show(session, echo, names)
            echo(say("nodes_play", "end.stalled", moves=COMPUTER_RUN))
            return
        if session.state.finish is not None:
            _show(session, echo, names)
            _ended(session, echo, names)
            return
        view = session.view()
        shots = [m for m in view.legal if isinstance(m, Shot)]
        if not shots:
            echo(say("nodes_play", "passed"))
            session.push(Pass(ME))
            continue
        text = yield
        if text is None:
            echo(say("nodes_play", "input_end", moves=len(session.state.history)))
            return
        word = text.lower()
        if not word:
            continue
        if word in QUIT:
            echo(say("nodes_play", "quit", moves=len(session.state.history)))
            return
        if word in UNDO:
            echo(say("nodes_play", "no_undo"))
            continue
        if word.startswith("?"):
            _explain(session, text[1:].strip(), shots, echo)
            continue
        spot = _target(game, text)
        if spot is None:
            echo(say("nodes_play", "bad_move", text=text[:20], example=_example(game)))
            continue
        problem = engine.problem(session.state, Shot(ME, spot))
        if problem is not None:
            for line in _wrapped(say("nodes_play", "illegal", reason=_reason(problem))):
                echo(line)
            continue
        session.push(Shot(ME, spot))
        session.computers_move()
        if session.state.finish is None and not session.stalled:
            _show(session, echo, names)


def _reason(problem: IllegalMove) -> str:
    return str(problem).rstrip(".")


def _wrapped(text: str) -> list[str]:
    return textwrap.wrap(text, WIDTH - 1, break_on_hyphens=False) or [""]


def _explain(session: NodesMatch, text: str, shots: Sequence[Shot],
            echo: Callable[[str], None]) -> None:
    """``?``: the legal shots; ``? F3``: why that space is or is not legal."""
    game = session.game
    if not text:
        spaces = " ".join(spot_name(s.at) if game is not GameName.REFLECTOR
                          else coord_name(s.at[1:]) for s in shots)
        for line in _wrapped(say("nodes_play", "legal_list", count=len(shots), spaces=spaces)):
            echo(line)
        return
    spot = _target(game, text)
    if spot is None:
        echo(say("nodes_play", "bad_move", text=text[:20], example=_example(game)))
        return
    problem = engine.problem(session.state, Shot(ME, spot))
    if problem is None:
        echo(say("nodes_play", "legal_one", space=coord_name(spot[1:]) if game is GameName.REFLECTOR
                else spot_name(spot)))
    else:
        for line in _wrapped(say("nodes_play", "illegal", reason=_reason(problem))):
            echo(line)


Echo = Callable[..., None]  # echo(line, fg=None): one line, in colour on a terminal


def _show(session: NodesMatch, echo: Echo, names: dict[str, str]) -> None:
    view = session.view()
    echo("")
    for line in screen(view, lambda p: names[p], session.movers):
        echo(line)
    if view.finish is None:
        echo(say("nodes_play", "turn_you", example=_example(session.game)) if view.to_move == ME
             else say("nodes_play", "turn_them", who=names.get(view.to_move or "", "")), "cyan")


def _ended(session: NodesMatch, echo: Echo, names: dict[str, str]) -> None:
    finish = session.state.finish
    assert finish is not None
    reason = finish.reason.value
    if finish.result is Result.DRAW:
        echo(say("nodes_play", "end.draw", reason=reason), "yellow")
    else:
        won = ME in finish.winners
        echo(say("nodes_play", "end.won", winners=" and ".join(
            f"{names[w]} ({w})" for w in finish.winners), reason=reason),
             "green" if won else "red")
        if won:
            echo(say("nodes_play", "end.you_won"), "green")
