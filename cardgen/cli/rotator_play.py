"""``cardgen rotator play``: the terminal view of a :class:`Session`.

It reads one line at a time from stdin. On a terminal (stdin and stdout both, ``TERM``
not ``dumb``, at least 80 × 24) the whole game is one 80 × 24 screen, cleared and drawn again
after every line typed: the board on the left, beside it the turn, gravity, boosts, the
last turn, what fills in, any message and the choices, the prompt on the last line
(:class:`ScreenView`). Anywhere else it writes a plain transcript that never redraws, so
it works in a pipe and the tests play whole games by feeding lines (:class:`View`).
Colour only where the terminal shows it (Click leaves the codes out of pipes and files;
``NO_COLOR`` turns it off). The words are data, ``templates/texts/rotator_play.toml``.
"""

from __future__ import annotations

import os
import re
import shutil
import sys
import textwrap
from collections.abc import Callable

import typer

from cardgen.api.rotator import (
    ARROWS,
    BOOST_CACHE,
    COLUMNS,
    GRAVITY_WORDS,
    NODE_MARK,
    SOLID_MARK,
    Cell,
    Choice,
    Hint,
    HintStatus,
    Phase,
    Session,
    TurnReport,
    card_name,
    gravity,
    lookup,
    parse_cell,
    plural,
    say,
    sort_key,
    text_board,
    turn_text,
)
from cardgen.errors import BoardError, one_line

YOU = "@"
QUIT, UNDO, LOG, HINT = ("q", "quit", "exit"), ("u", "undo"), ("l", "log"), ("h", "hint")


class View:
    """Writes a session's state as lines; ``echo`` prints one line."""

    def __init__(self, session: Session, echo: Callable[[str], None], colour: bool) -> None:
        self.session, self.echo, self.colour = session, echo, colour

    def _style(self, text: str, colour: str) -> str:
        return typer.style(text, fg=colour, bold=True) if self.colour else text

    # --- the board ---------------------------------------------------------------------

    def board(self) -> list[str]:
        return text_board(self.marks())

    def marks(self) -> dict[Cell, str]:
        """What each marked square of the board shows (``·`` elsewhere)."""
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
        return marks

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
        self.thinking()
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

    def thinking(self) -> None:
        """Say that a hint is on its way (the solver may take a while)."""
        self.echo(say("rotator_play", "hint.thinking"))

    def prompt(self) -> None:
        typer.echo(say("rotator_play", "prompt"), nl=False)

    def typed(self, text: str) -> None:
        """A line read from a pipe or a file: shown in the transcript."""
        self.echo(text)

    def played(self, report: TurnReport) -> None:
        """A turn just played, then the state it leaves."""
        self.echo(turn_text(report, self.session.rmap.nodes))
        if report.won or report.lost:
            self.ended(report)
        else:
            self.show()

    def leave(self, text: str, *, end_of_input: bool = False) -> None:
        """The last line, as the game is left (the prompt's line ended first at the end
        of the input)."""
        if end_of_input:
            self.echo("")
        self.echo(text)

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


SCREEN_COLUMNS, SCREEN_LINES = 80, 24  # the screen, the prompt on its last line
LEFT_WIDTH = 33  # the board and its labels
PANEL_WIDTH = 44  # beside it, after two spaces: 79 columns, never the last one
CLEAR = "\x1b[H\x1b[2J"  # home, then clear the screen
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def visible(text: str) -> int:
    """The columns a line takes on the terminal (colour codes take none)."""
    return len(ANSI.sub("", text))


def clip(text: str, width: int = PANEL_WIDTH) -> str:
    """One line of at most ``width`` columns: cut with … when longer (no colour)."""
    return text if len(text) <= width else text[:width - 1] + "…"


def wrap(text: str, width: int = PANEL_WIDTH) -> list[str]:
    return textwrap.wrap(text, width, break_on_hyphens=False) or [""]


class ScreenView(View):
    """The game on one 80 × 24 screen, drawn anew at each prompt: the board on the left,
    beside it the state, the messages of the last line typed, the question and the
    choices; nothing scrolls. Messages (``echo``) wait for the next screen."""

    def __init__(self, session: Session, colour: bool,
                 write: Callable[[str], None] | None = None) -> None:
        super().__init__(session, self._note, colour)
        self.notes: list[str] = []
        self.tail = False  # the notes are a log: when cut, keep its end
        self.write = write or self._write

    @staticmethod
    def _write(text: str) -> None:
        sys.stdout.write(text)
        sys.stdout.flush()

    def _note(self, line: str) -> None:
        if line:
            self.notes.append(line)

    # --- the panel beside the board -----------------------------------------------------

    def screen_board(self) -> list[str]:
        """The board with its labels, 23 lines of at most LEFT_WIDTH columns."""
        lines = text_board(self.marks())
        letters = len("      ") + 2 * len(COLUMNS) - 1
        lines[0] = f"{lines[0][:letters]}  {say('rotator_play', 'screen.grid_a')}"
        lines[-1] = f"{lines[-1][:letters]}  {say('rotator_play', 'screen.grid_b')}"
        return lines

    def state_lines(self) -> list[str]:
        state, session = self.session.state, self.session
        turn = state.turn if state is not None else 1
        if session.phase in (Phase.WON, Phase.LOST):  # the turn the game ended in
            turn = session.log[-1].turn
        way = gravity(turn)
        words = str(lookup("rotator_play", "gravity")[GRAVITY_WORDS[way]])
        return [self._style(clip(say("rotator_play", "screen.turn", turn=turn,
                                     arrow=ARROWS[way], words=words)), "cyan"),
                clip(say("rotator_play", "screen.boosts", boosts=session.boosts_left))]

    def last_lines(self) -> list[str]:
        """The last turn played in full, and the verdict once the game is over."""
        session = self.session
        if not session.log:
            return []
        report = session.log[-1]
        out = wrap(say("rotator_play", "screen.last",
                       turn=turn_text(report, session.rmap.nodes)))
        if session.phase is Phase.WON:
            spent = BOOST_CACHE - session.boosts_left
            out += [self._style(line, "green") for line in wrap(say(
                "rotator_play", "end.won", turn=report.turn, boosts=spent))]
        elif session.phase is Phase.LOST:
            out += [self._style(line, "red") for line in wrap(say(
                "rotator_play", "end.lost", turn=report.turn))]
        return out

    def fills_lines(self) -> list[str]:
        session, state = self.session, self.session.state
        if state is None or session.phase in (Phase.WON, Phase.LOST):
            return []
        due = session.fills_in()
        if not due:
            return wrap(say("rotator_play", "touch.nothing"))
        out = wrap(say("rotator_play", "screen.fills", turn=state.turn - 3, cells=" ".join(
            card_name(c) for c in sorted(due, key=sort_key))))
        if state.pos in due and session.phase is Phase.MOVE:
            out += [self._style(line, "red")
                    for line in wrap(say("rotator_play", "screen.fills_under"))]
        return out

    def short_outcome(self, report: TurnReport) -> str:
        to = say("rotator_play", "screen.to", cell=card_name(report.end))
        if report.won or report.lost:
            if report.won:
                return say("rotator_play", "screen.won", to=to)
            return say("rotator_play", "screen.lost", to=to)
        if report.captured is not None:
            node = self.session.rmap.nodes[report.captured]
            return say("rotator_play", "screen.captures", to=to, node=card_name(node))
        return to

    def choice_lines(self) -> list[str]:
        session = self.session
        phase = session.phase
        if phase is Phase.MOVE:
            options = session.options()
            width = max(len(self.choice_words(o.choice)) for o in options)
            return [clip(f"{n:>2} {self.choice_words(o.choice):<{width}}  "
                         f"{self.short_outcome(o.report)}") for n, o in enumerate(options, 1)]
        if phase in (Phase.START, Phase.PICK):
            cells = [f"{n:>2} {card_name(cell):<6}" for n, cell in
                     enumerate(session.start_cells(), 1)]
            return [" ".join(cells[i:i + 4]).rstrip() for i in range(0, len(cells), 4)]
        return []

    def question_lines(self) -> list[str]:
        if self.session.phase in (Phase.WON, Phase.LOST):
            return wrap(say("rotator_play", "end.after"))
        return wrap(self.question())

    def panel(self, height: int) -> list[str]:
        """Everything beside the board in at most ``height`` lines: what is least needed
        gives way first (blank lines, the legend, the title, then the long sections are
        cut to their first lines, the messages to their last when they are a log)."""
        notes = [line for note in self.notes for line in textwrap.wrap(
            note, PANEL_WIDTH, break_on_hyphens=False,
            subsequent_indent=" " * (len(note) - len(note.lstrip()) + 2))]
        sections: list[list[str]] = [
            [say("rotator_play", "screen.title", board_id=self.session.rmap.board_id)],
            self.state_lines(), [""], self.last_lines(), self.fills_lines(), notes, [""],
            self.question_lines(), self.choice_lines(), [""],
            [say("rotator_play", "screen.legend")], [say("rotator_play", "commands")]]
        title, _, gap1, last, fills, _, gap2, _, _, gap3, legend, _ = sections
        # (section, the lines it keeps at the least), in the order they give way
        give = [(gap3, 0), (gap2, 0), (gap1, 0), (legend, 0), (title, 0), (last, 1),
                (fills, 1), (notes, 2), (last, 0), (fills, 0), (notes, 1)]

        def total() -> int:
            return sum(len(section) for section in sections)

        for section, least in give:
            excess = total() - height
            if excess <= 0:
                break
            keep = max(least, len(section) - excess)
            if keep >= len(section):
                continue
            if section is notes and self.tail:
                kept = ["…", *section[len(section) - keep + 1:]] if keep else []
            else:
                kept = section[:keep]
                if kept:
                    kept[-1] = clip(ANSI.sub("", kept[-1]) + " …")
            section[:] = kept
        return [line for section in sections for line in section][:height]

    def frame(self) -> list[str]:
        """The screen above the prompt: SCREEN_LINES - 1 lines of at most 79 columns."""
        board = self.screen_board()
        panel = self.panel(SCREEN_LINES - 1)
        out = []
        for i in range(SCREEN_LINES - 1):
            left = board[i] if i < len(board) else ""
            right = panel[i] if i < len(panel) else ""
            pad = " " * (LEFT_WIDTH - visible(left))
            out.append(f"{left}{pad}  {right}".rstrip() if right else left.rstrip())
        return out

    # --- what the game loop calls -------------------------------------------------------

    def draw(self, prompt: str) -> None:
        self.write(CLEAR + "\n".join(self.frame()) + "\n" + prompt)

    def show(self) -> None:
        """Drawn at the prompt."""

    def prompt(self) -> None:
        self.draw(say("rotator_play", "prompt"))
        self.notes, self.tail = [], False

    def thinking(self) -> None:
        self.notes = [say("rotator_play", "hint.thinking")]
        self.draw("")
        self.notes = []

    def typed(self, text: str) -> None:
        """The terminal shows what is typed."""

    def played(self, report: TurnReport) -> None:
        """The screen shows the turn as the last one."""

    def log(self) -> None:
        super().log()
        self.tail = True

    def leave(self, text: str, *, end_of_input: bool = False) -> None:
        self.write(("\n" if end_of_input else "") + text + "\n")


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


def play_game(session: Session) -> None:
    """Play until the player quits or the input ends: one redrawn screen on a terminal,
    a transcript of plain lines anywhere else (see the module's docstring)."""
    colour = "NO_COLOR" not in os.environ

    def echo(line: str) -> None:
        typer.echo(line, color=None if colour else False)

    size = shutil.get_terminal_size((SCREEN_COLUMNS, SCREEN_LINES))
    screen = (sys.stdin.isatty() and sys.stdout.isatty()
              and os.environ.get("TERM", "") != "dumb"
              and size.columns >= SCREEN_COLUMNS and size.lines >= SCREEN_LINES)
    view: View
    if screen:
        view = ScreenView(session, colour)
    else:
        view = View(session, echo, colour)
        echo(say("rotator_play", "welcome", board_id=session.rmap.board_id))
        echo(say("rotator_play", "legend"))
    view.show()
    typed = not sys.stdin.isatty()
    while True:
        view.prompt()
        try:
            line = sys.stdin.readline()
        except BaseException:  # Ctrl-C: the error boundary says so in one line of its own
            echo("")
            raise
        if not line:  # the end of the input: leave quietly
            view.leave(say("rotator_play", "end.quit", turn=_turn(session)), end_of_input=True)
            return
        text = line.strip()
        if typed:
            view.typed(text)  # piped input shows in the transcript
        command = text.lower()
        if not command:
            continue
        if command in QUIT:
            view.leave(say("rotator_play", "end.quit", turn=_turn(session)))
            return
        if command in UNDO:
            if session.undo():
                view.echo(say("rotator_play", "say.undone"))
                view.show()
            else:
                view.echo(say("rotator_play", "say.nothing_to_undo"))
        elif command in LOG:
            view.log()
        elif command in HINT:
            view.hint()
        else:
            result = _decide(session, text)
            if isinstance(result, str):
                view.echo(result)
            elif result is not None:
                view.played(result)
            else:
                view.show()


def _turn(session: Session) -> int:
    """The turn the game stopped at: the last one played once it is over."""
    if session.phase in (Phase.WON, Phase.LOST):
        return session.log[-1].turn
    state = session.state
    return state.turn if state is not None else 1
