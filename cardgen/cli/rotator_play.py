"""``cardgen rotator play``: the terminal view of a :class:`Session`.

Plain lines in, plain lines out: it reads one line at a time from stdin, so it works in a
pipe and the tests play whole games by feeding lines. Colour only where the terminal
shows it (Click leaves the codes out of pipes and files; ``NO_COLOR`` turns it off). The
words are data, ``templates/texts/rotator_play.toml``.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable

import typer

from cardgen.board.cells import COLUMNS, Cell, Grid, board_cell, card_name, parse_cell
from cardgen.board.text import text_board
from cardgen.errors import BoardError, CardgenError, one_line, shorten
from cardgen.games.registry import (
    ARROWS,
    BOOST_CACHE,
    GRAVITY_WORDS,
    NODE_MARK,
    SOLID_MARK,
    Choice,
    Hint,
    HintStatus,
    Phase,
    RotatorMap,
    Session,
    TurnReport,
    gravity,
    plural,
    rotator,
    sort_key,
    turn_text,
)
from cardgen.texts import lookup, say

YOU = "@"
QUIT, UNDO, LOG, HINT = ("q", "quit", "exit"), ("u", "undo"), ("l", "log"), ("h", "hint")


def start_column(text: str) -> int:
    """``--start``: a column letter of grid A (``E``) or a square of its Row 10
    (``A:E10``, ``E10``) as the board column x."""
    value = text.strip().upper()
    if len(value) == 1 and value in COLUMNS:
        return board_cell(Grid.A, COLUMNS.index(value), 10)[0]
    try:
        cell = parse_cell(value if ":" in value else f"A:{value}")
    except BoardError:
        cell = None
    if cell is None or cell[1] != 0:
        raise CardgenError(f"--start must be a column letter A–J or a square of grid A's "
                           f"Row 10 such as A:E10, not {shorten(text)}.", value=text)
    return cell[0]


class View:
    """Writes a session's state as lines; ``echo`` prints one line."""

    def __init__(self, session: Session, echo: Callable[[str], None], colour: bool) -> None:
        self.session, self.echo, self.colour = session, echo, colour

    def _style(self, text: str, colour: str) -> str:
        return typer.style(text, fg=colour, bold=True) if self.colour else text

    # --- the board ---------------------------------------------------------------------

    def board(self) -> list[str]:
        session = self.session
        rmap, state = session.rmap, session.state
        solid = state.solid if state is not None else rmap.solid
        marks: dict[Cell, str] = {cell: SOLID_MARK for cell in solid}
        marks.update({cell: NODE_MARK for cell in rmap.nodes if cell in solid})
        due = set(session.fills_in())
        if state is not None:
            for cell, turn in state.touched:
                mark = str(turn % 10)
                marks[cell] = self._style(mark, "red") if cell in due else mark
            marks[session.picked or state.pos] = self._style(YOU, "yellow")
        return text_board(marks)

    def status(self) -> str:
        state = self.session.state
        turn = state.turn if state is not None else 1
        way = gravity(turn)
        words = str(lookup("rotator_play", "gravity")[GRAVITY_WORDS[way]])
        return self._style(say("rotator_play", "status", turn=turn, arrow=ARROWS[way],
                               words=words, boosts=self.session.boosts_left), "cyan")

    def touched(self) -> list[str]:
        state = self.session.state
        if state is None:
            return []
        by_turn: dict[int, list[str]] = {}
        for cell, turn in sorted(state.touched, key=lambda ct: (ct[1], sort_key(ct[0]))):
            by_turn.setdefault(turn, []).append(card_name(cell))
        if not by_turn:
            return [say("rotator_play", "touch.none")]
        turns = "; ".join(say("rotator_play", "touch.turn", turn=t, cells=" ".join(cells))
                          for t, cells in by_turn.items())
        out = [say("rotator_play", "touch.list", turns=turns)]
        due = self.session.fills_in()
        if due:
            out.append(say("rotator_play", "touch.fills", turn=state.turn - 3,
                           cells=" ".join(card_name(c) for c in sorted(due, key=sort_key))))
            if state.pos in due and self.session.phase is Phase.MOVE:
                out.append(self._style(say("rotator_play", "touch.fills_under"), "red"))
        else:
            out.append(say("rotator_play", "touch.nothing"))
        return out

    # --- what the player may do --------------------------------------------------------

    def choice_words(self, choice: Choice) -> str:
        if not choice.drill:
            return say("rotator_play", "choice.fall")
        if not choice.boost:
            return say("rotator_play", "choice.drill")
        return say("rotator_play", "choice.boost", count=choice.boost)

    def outcome(self, report: TurnReport) -> str:
        """What a turn does, as the log says it, without its "Turn t ↓:" head."""
        text = turn_text(report, self.session.rmap.nodes).split(": ", 1)[1]
        if report.won or report.lost:
            return text
        return say("rotator_play", "choice.ends", outcome=text, cell=card_name(report.end))

    def offered(self) -> list[str]:
        """The numbered things the player may type now."""
        session = self.session
        phase = session.phase
        if phase is Phase.MOVE:
            options = session.options()
            width = max(len(self.choice_words(o.choice)) for o in options)
            return [f"  {n:>2}  {self.choice_words(o.choice):<{width}}  "
                    f"{self.outcome(o.report)}" for n, o in enumerate(options, 1)]
        if phase in (Phase.START, Phase.PICK):
            return [f"  {n:>2}  {card_name(cell)}" for n, cell in
                    enumerate(session.start_cells(), 1)]
        return []

    def question(self) -> str:
        session = self.session
        phase = session.phase
        if phase is Phase.START:
            return say("rotator_play", "ask.start")
        if phase is Phase.PICK:
            state = session.state
            assert state is not None and state.choose_from is not None
            node = session.rmap.nodes[state.choose_from]
            return say("rotator_play", "ask.pick", node=card_name(node))
        return say("rotator_play", "ask.move")

    def show(self) -> None:
        """The whole picture: board, turn and gravity, touched squares, the choices."""
        self.echo("")
        self.echo(self.status())
        for line in self.board():
            self.echo(line)
        for line in self.touched():
            self.echo(line)
        self.echo(self.question())
        for line in self.offered():
            self.echo(line)
        self.echo(say("rotator_play", "commands"))

    def log(self) -> None:
        session = self.session
        if session.start is None:
            self.echo(say("rotator_play", "log.empty"))
            return
        self.echo(say("rotator_play", "log.start", cell=card_name((session.start, 0))))
        for report in session.log:
            self.echo("  " + turn_text(report, session.rmap.nodes))

    def hint(self) -> None:
        session = self.session
        if session.phase in (Phase.WON, Phase.LOST):
            self.echo(say("rotator_play", "hint.over"))
            return
        self.echo(say("rotator_play", "hint.thinking"))
        hint: Hint = session.hint()
        if hint.status is HintStatus.LOST:
            self.echo(say("rotator_play", "hint.lost"))
            return
        if hint.status is HintStatus.UNDECIDED:
            self.echo(say("rotator_play", "hint.undecided", states=f"{hint.states:,}"))
            return
        assert hint.choice is not None
        turns, boosts = plural(hint.turns, "turn"), plural(hint.boosts, "boost space")
        if hint.start is not None:
            self.echo(say("rotator_play", "hint.start", cell=card_name((hint.start, 0)),
                          turns=turns, boosts=boosts))
        elif session.phase is Phase.PICK and hint.choice.start is not None:
            self.echo(say("rotator_play", "hint.pick", cell=card_name(hint.choice.start),
                          choice=self.choice_words(hint.choice), turns=turns, boosts=boosts))
        else:
            self.echo(say("rotator_play", "hint.move", choice=self.choice_words(hint.choice),
                          turns=turns, boosts=boosts))

    def ended(self, report: TurnReport) -> None:
        """The board as the game ended, and the verdict."""
        self.echo("")
        for line in self.board():
            self.echo(line)
        if report.won:
            spent = BOOST_CACHE - self.session.boosts_left
            self.echo(self._style(say("rotator_play", "end.won", turn=report.turn,
                                      boosts=spent), "green"))
        else:
            self.echo(self._style(say("rotator_play", "end.lost", turn=report.turn), "red"))
        self.echo(say("rotator_play", "end.after"))


def _decide(session: Session, text: str) -> TurnReport | str | None:
    """Act on a line that is not a command: a number or a square's name. Returns the
    turn played, None when only a square was chosen, or a message for a bad line."""
    phase = session.phase
    if phase in (Phase.WON, Phase.LOST):
        return say("rotator_play", "say.game_over")
    options = session.options() if phase is Phase.MOVE else []
    cells = session.start_cells() if phase in (Phase.START, Phase.PICK) else []
    count = len(options) or len(cells)
    if text.isascii() and text.isdigit() and len(text) < 4 and 1 <= int(text) <= count:
        index = int(text) - 1
        if options:
            return session.play(options[index])
        cell = cells[index]
    elif cells and ":" in text:
        try:
            cell = parse_cell(text)
        except BoardError:
            return say("rotator_play", "say.bad_cell", cell=one_line(text, 40), count=count)
        if cell not in cells:
            return say("rotator_play", "say.bad_cell", cell=card_name(cell), count=count)
    elif count == 1:
        return say("rotator_play", "say.bad_one")
    else:
        return say("rotator_play", "say.bad_number", count=count)
    if phase is Phase.START:
        session.choose_start(cell[0])
        return None
    return session.pick(cell)


def play_game(rmap: RotatorMap, start: int | None = None) -> None:
    """Play until the player quits or the input ends; every line goes to stdout."""
    colour = "NO_COLOR" not in os.environ

    def echo(line: str) -> None:
        typer.echo(line, color=None if colour else False)

    session = rotator().session(rmap, start)
    view = View(session, echo, colour)
    echo(say("rotator_play", "welcome", board_id=rmap.board_id))
    echo(say("rotator_play", "legend"))
    view.show()
    typed = not sys.stdin.isatty()
    while True:
        typer.echo(say("rotator_play", "prompt"), nl=False)
        try:
            line = sys.stdin.readline()
        except BaseException:  # Ctrl-C: the error boundary says so in one line of its own
            echo("")
            raise
        if not line:  # the end of the input: leave quietly
            echo("")
            echo(say("rotator_play", "end.quit", turn=_turn(session)))
            return
        text = line.strip()
        if typed:
            echo(text)  # piped input shows in the transcript
        command = text.lower()
        if not command:
            continue
        if command in QUIT:
            echo(say("rotator_play", "end.quit", turn=_turn(session)))
            return
        if command in UNDO:
            if session.undo():
                echo(say("rotator_play", "say.undone"))
                view.show()
            else:
                echo(say("rotator_play", "say.nothing_to_undo"))
        elif command in LOG:
            view.log()
        elif command in HINT:
            view.hint()
        else:
            result = _decide(session, text)
            if isinstance(result, str):
                echo(result)
            elif result is not None:
                echo(turn_text(result, rmap.nodes))
                if result.won or result.lost:
                    view.ended(result)
                else:
                    view.show()
            else:
                view.show()


def _turn(session: Session) -> int:
    """The turn the game stopped at: the last one played once it is over."""
    if session.phase in (Phase.WON, Phase.LOST):
        return session.log[-1].turn
    state = session.state
    return state.turn if state is not None else 1
