"""``cardgen nodes play``: Reflector against the computer, Deflector with computer players.

Plain lines in, plain lines out, like ``cardgen rotator play``: one line at a time from
stdin, so it works in a pipe and tests play whole games by feeding lines. Every screen
fits 80 × 24 and is drawn only from :func:`knowledge.view` of the human player (P1): what
an opponent hid is never shown. There is no undo (a pencil game has none). The words are
data, ``templates/texts/nodes_play.toml``.
"""

from __future__ import annotations

import os
import sys
import textwrap
from collections.abc import Callable, Sequence

import typer

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
    MoveReport,
    Pass,
    PlayerSetup,
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

class Game:
    """A game in progress: the engine's state, the computers, who made each move."""

    def __init__(self, game: GameName, players: int, seed: int,
                 nodes: tuple[Coord, ...], placed: tuple[Coord, ...]) -> None:
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
        return knowledge.view(self.state, ME)

    def push(self, move: Shot | Pass) -> MoveReport:
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


def place_by(game: GameName, players: int, seed: int) -> tuple[tuple[Coord, ...],
                                                                 tuple[Coord, ...]]:
    """The human's seeded random placement, chosen the computer's way."""
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


def play_game(game: GameName, players: int, seed: int) -> None:
    """Place, then play until the game ends, the player quits or the input ends."""
    colour = "NO_COLOR" not in os.environ and sys.stdout.isatty()

    def echo(line: str, fg: str | None = None) -> None:
        for part in _wrapped(line) if len(line) >= WIDTH else [line]:
            if colour and fg is not None:
                part = typer.style(part, fg=fg, bold=True)
            typer.echo(part, color=None if colour else False)

    typed = not sys.stdin.isatty()

    def ask() -> str | None:
        typer.echo(say("nodes_play", "prompt"), nl=False)
        line = sys.stdin.readline()
        if not line:
            echo("")
            return None
        text = line.strip()
        if typed:
            echo(text)
        return text

    echo(say("nodes_play", "welcome", game=game.value.capitalize(), seed=seed,
             symbol=deal.SYMBOLS[0]))
    random_nodes, random_placed = place_by(game, players, seed)
    nodes: tuple[Coord, ...] | None = None
    placed: tuple[Coord, ...] = ()
    count = deflectors(game)
    while nodes is None or (count and not placed):
        echo(say("nodes_play", "place.nodes") if nodes is None
             else say("nodes_play", "place.deflectors"))
        text = ask()
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
    session = Game(game, players, seed, nodes, placed)
    names = {s.id: ("You" if s.id == ME else s.name) for s in session.state.setup.seats}
    show(session, echo, names)
    while True:
        session.computers_move()
        if session.stalled:
            show(session, echo, names)
            echo(say("nodes_play", "end.stalled", moves=COMPUTER_RUN))
            return
        if session.state.finish is not None:
            show(session, echo, names)
            ended(session, echo, names)
            return
        view = session.view()
        shots = [m for m in view.legal if isinstance(m, Shot)]
        if not shots:
            echo(say("nodes_play", "passed"))
            session.push(Pass(ME))
            continue
        text = ask()
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
            explain(session, text[1:].strip(), shots, echo)
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
            show(session, echo, names)


def _reason(problem: IllegalMove) -> str:
    return str(problem).rstrip(".")


def _wrapped(text: str) -> list[str]:
    return textwrap.wrap(text, WIDTH - 1, break_on_hyphens=False) or [""]


def explain(session: Game, text: str, shots: Sequence[Shot],
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


def show(session: Game, echo: Echo, names: dict[str, str]) -> None:
    view = session.view()
    echo("")
    for line in screen(view, lambda p: names[p], session.movers):
        echo(line)
    if view.finish is None:
        echo(say("nodes_play", "turn_you", example=_example(session.game)) if view.to_move == ME
             else say("nodes_play", "turn_them", who=names.get(view.to_move or "", "")), "cyan")


def ended(session: Game, echo: Echo, names: dict[str, str]) -> None:
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
