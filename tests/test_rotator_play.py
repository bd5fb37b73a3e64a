"""``cardgen rotator play``: the session model (history, undo, choices, hints from the
solver) and the terminal loop, played in process by feeding it lines."""

from __future__ import annotations

import io
import os
import re
import select
import signal
import sys
import time

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from cardgen.board.cells import card_name, parse_cell
from cardgen.cli.rotator_play import View, _decide
from cardgen.games.rotator.board import RotatorMap
from cardgen.games.rotator.engine import (
    GOAL_ROW,
    IllegalMove,
    Terrain,
    TurnReport,
    replay,
    start_state,
)
from cardgen.games.rotator.play import HintStatus, Phase, Session, shortest_from, solver_state
from cardgen.games.rotator.solver import WIN, Solver
from tests.helpers import cli, error_line, examples, ok

BOARD = "R1:B2B8E4I2I8-B4E2E8H4I9"  # best: 5 turns, 7 boosts from A:E10; A:A10 cannot win
RMAP = RotatorMap.from_id(BOARD)
TERRAIN = Terrain.from_map(RMAP)
LOSING = ["10", "1", "1", "1", "1"]  # A:J10, then fall only: A:J10's column fills in under you


def follow_hints(session: Session) -> None:
    """Play the solver's hints to the end."""
    while session.phase not in (Phase.WON, Phase.LOST):
        hint = session.hint()
        assert hint.status is HintStatus.WIN
        if session.phase is Phase.START:
            assert hint.start is not None
            session.choose_start(hint.start)
            continue
        assert hint.choice is not None
        if session.phase is Phase.PICK:
            assert hint.choice.start is not None
            if session.pick(hint.choice.start) is not None:
                continue  # a goal-row square: won on the spot
        option = next(o for o in session.options() if o.choice == hint.choice)
        session.play(option)


# --- the model ------------------------------------------------------------------------

def test_the_solver_state_of_an_engine_state_is_the_solvers_own():
    solver = Solver(TERRAIN)
    for x in range(10):
        assert solver_state(start_state(TERRAIN, x)) == solver.root(x)


@pytest.mark.parametrize("x", [1, 5, 6, 9])
def test_a_hint_from_a_start_is_the_solvers_shortest_line(x):
    solver = Solver(TERRAIN)
    expected = solver.solve_start(x)
    hint = shortest_from(solver, solver_state(start_state(TERRAIN, x)))
    if not expected.turns:
        assert hint.status is HintStatus.LOST
        return
    assert (hint.turns, hint.boosts) == (expected.turns, expected.boosts)
    assert hint.choice == expected.choices[0]


def plain_shortest(solver: Solver, state, only_start=None):
    """A plain breadth-first search by turns, every layer expanded in full: (turns,
    boosts spent from ``state``) of the shortest line, or None."""
    if only_start is not None:
        state = (only_start, *state[1:6], -1, *state[7:])
    best = {state[:-1]: state[-1]}
    layer, turn = [state], 0
    while layer:
        turn += 1
        wins, following = [], []
        for current in layer:
            if best[current[:-1]] > current[-1]:
                continue
            for raw, result in solver.expand(current):
                if result is WIN:
                    wins.append(state[-1] - current[-1] + raw[2])
                elif best.get(result[:-1], -1) < result[-1]:
                    best[result[:-1]] = result[-1]
                    following.append(result)
        if wins:
            return turn, min(wins)
        layer = following
    return None


def test_every_hint_of_a_game_agrees_with_a_plain_search_from_that_position():
    solver = Solver(TERRAIN)
    session, checked, picks = Session(RMAP), 0, 0
    session.choose_start(session.hint().start)
    while session.phase is Phase.MOVE or session.phase is Phase.PICK:
        state = solver_state(session.state)
        hint = session.hint()
        only = None if session.picked is None else session.picked[1] * 10 + session.picked[0]
        assert (hint.turns, hint.boosts) == plain_shortest(solver, state, only)
        checked += 1
        picks += only is not None
        if session.phase is Phase.PICK:
            if session.pick(hint.choice.start) is not None:
                break  # a goal-row square: won on the spot
            continue  # asked again with the square picked
        session.play(next(o for o in session.options() if o.choice == hint.choice))
    assert checked >= 5 and picks


@pytest.mark.slow
def test_a_hint_deep_in_a_hard_board_is_proved_where_the_old_search_gave_up():
    # The example: from A:D10 a 17-turn line with 2 boosts (the plain search
    # ran past its budget from here).
    rmap = RotatorMap.from_id("R1:C5D9E2H5I9-B3C9F7I2I9")
    session = Session(rmap, start=6)
    hint = session.hint()
    assert hint.status is HintStatus.WIN
    assert (hint.turns, hint.boosts) == (17, 2)


def test_following_the_hints_wins_in_the_boards_best_line():
    session = Session(RMAP)
    follow_hints(session)
    assert session.phase is Phase.WON
    best = Solver(TERRAIN).best_line()
    assert (session.start, len(session.log)) == (best.start, best.turns)
    assert 10 - session.boosts_left == best.boosts
    # The log is the engine's own replay of the line played.
    played = replay(TERRAIN, best.start, best.choices)
    assert [r.end for r in played] == [r.end for r in session.log]
    assert session.hint().status is HintStatus.WIN  # nothing left to advise


def test_undo_takes_back_any_number_of_decisions():
    session = Session(RMAP)
    assert not session.undo() and session.phase is Phase.START
    follow_hints(session)
    seen = []
    while session.undo():
        seen.append(session.phase)
    assert session.phase is Phase.START and session.state is None and session.log == ()
    # Every decision was one step back: the start, each pick after a capture, each turn
    # (a pick on the goal row and its win are one decision).
    replayed = Session(RMAP)
    follow_hints(replayed)
    picks = sum(1 for r in replayed.log if r.start is not None and r.start[1] != GOAL_ROW)
    assert picks and len(seen) == 1 + len(replayed.log) + picks
    assert seen.count(Phase.PICK) == picks
    assert seen[-1] is Phase.START


def test_a_start_given_up_front_is_not_undone_and_a_lost_game_says_so():
    session = Session(RMAP, start=9)  # A:A10: proved lost
    assert session.phase is Phase.MOVE and not session.can_undo
    hint = session.hint()
    assert hint.status is HintStatus.LOST and hint.states > 0
    session = Session(RMAP, start=0)
    for _ in range(4):
        session.play(session.options()[0])
    assert session.phase is Phase.LOST and session.options() == []
    assert session.log[-1].lost and session.undo() and session.phase is Phase.MOVE


def test_choices_the_rules_forbid_are_refused():
    session = Session(RMAP, start=4)
    with pytest.raises(IllegalMove):
        session.choose_start(3)
    with pytest.raises(IllegalMove):
        session.pick((4, 0))
    other = Session(RMAP, start=5).options()[-1]
    with pytest.raises(IllegalMove):
        session.play(other)
    # After a capture, only squares of that Node's diamond.
    session = Session(RMAP, start=5)
    session.play(session.options()[3])  # drill and boost 2: captures the Node at A:E4
    assert session.phase is Phase.PICK and session.options() == []
    assert card_name(RMAP.nodes[session.state.choose_from]) == "A:E4"
    with pytest.raises(IllegalMove):
        session.pick(parse_cell("B:A10"))
    session.pick(parse_cell("A:E2"))
    assert {o.choice.start for o in session.options()} == {parse_cell("A:E2")}
    assert session.undo() and session.phase is Phase.PICK


# --- the terminal ---------------------------------------------------------------------

class Keys(io.StringIO):
    """Typed lines, then (optionally) Ctrl-C instead of the end of the input."""

    def __init__(self, lines: list[str], interrupt: bool = False) -> None:
        super().__init__("".join(f"{line}\n" for line in lines))
        self.interrupt = interrupt

    def readline(self, size: int | None = -1) -> str:
        line = super().readline()
        if not line and self.interrupt:
            os.kill(os.getpid(), signal.SIGINT)  # as Ctrl-C does; the handler raises
            time.sleep(1)
        return line


def play(monkeypatch, lines: list[str], *args: str, interrupt: bool = False):
    monkeypatch.setattr("sys.stdin", Keys(lines, interrupt))
    return cli("rotator", "play", BOARD, *args)


def hint_inputs() -> list[str]:
    """The numbers a player types to play the board's best line."""
    session, typed = Session(RMAP), []
    while session.phase is not Phase.WON:
        hint = session.hint()
        if session.phase is Phase.START:
            typed.append(str(session.start_cells().index((hint.start, 0)) + 1))
            session.choose_start(hint.start)
            continue
        if session.phase is Phase.PICK:
            typed.append(card_name(hint.choice.start))
            if session.pick(hint.choice.start) is not None:
                continue
        options = session.options()
        index = next(i for i, o in enumerate(options) if o.choice == hint.choice)
        typed.append(str(index + 1))
        session.play(options[index])
    return typed


def test_a_whole_game_in_the_terminal(monkeypatch):
    typed = hint_inputs()
    out = ok(play(monkeypatch, ["h", *typed[:2], "h", typed[2], "h", *typed[3:], "h", "l",
                                "q"])).stdout
    assert "Hint: start on A:E10. From there a shortest line wins in 5 turns with 7 boost " \
           "spaces." in out
    assert "You win: you reached grid B's Row 10 in turn 5, spending 7 of your 10 boost " \
           "spaces." in out
    assert "Hint: start on A:E2, then drill and boost 1. A shortest line from here wins in 4 " \
           "turns (this one included) with 5 boost spaces." in out
    assert "Hint: drill and boost 1. A shortest line from here wins in 4 turns" in out
    assert "The game is over; there is nothing left to hint." in out
    assert "Turn 1 · gravity ↓ down, toward grid B · boost cache: 10 of 10 left" in out
    assert "Turn 2 · gravity → right · boost cache: 8 of 10 left" in out
    assert "You hold the Node at A:E4." in out and "   4  drill and boost 2  " in out
    assert out.count("  Turn ") == 5  # the log
    assert "\n  10  @ · · · ▒ · · ▒ ▒ ▒  10\n" in out  # the board as the game ended
    assert out.rstrip().endswith("Game left at turn 5.")
    assert "\x1b[" not in out  # no colour codes in a pipe


def test_losing_undoing_and_bad_lines(monkeypatch):
    typed = [*LOSING, "2", "u", "h", "zz", "0", "l", "u", "u", "u", "u", "u", "A:Q1", "B:C3",
             "9", "u", "q"]
    out = ok(play(monkeypatch, typed)).stdout
    for line in typed:
        assert f"> {line}\n" in out  # piped input shows in the transcript
    assert "At the collapse step of this turn, the squares touched in turn 1 fill in: " \
           "A:J10." in out
    assert "Careful: you stand on one of them" in out
    assert "   1  fall only  A:J10 collapses under you: lost" in out
    assert "You lose: the square under you filled in during turn 4." in out
    assert "The game is over: u takes the last turn back" in out  # "2" after the loss
    assert "Hint: no line wins from here" in out
    assert out.count("Type 1 (the only choice), or one of u, l, h, q.") == 2  # zz, 0
    assert "Start on A:J10.\n  Turn 1 ↓: no move\n  Turn 2 →: no move\n  Turn 3 ↑: no " \
           "move\n>" in out
    assert out.count("Taken back.") == 6 and out.count("Nothing to take back.") == 1
    assert "A:Q1 is not one of the squares offered" in out
    assert "B:C3 is not one of the squares offered" in out


def test_start_option_end_of_input_and_ctrl_c(monkeypatch):
    out = ok(play(monkeypatch, [], "--start", "e")).stdout
    assert "fall 3, drill A:E6" in out and out.rstrip().endswith("Game left at turn 1.")
    assert ok(play(monkeypatch, ["u"], "--start", "A:E10")).stdout.count("Nothing to take") == 1
    result = play(monkeypatch, ["1"], interrupt=True)
    assert result.returncode == 130 and result.stderr == "interrupted\n"
    assert result.stdout.endswith("q quit\n> \n")  # the prompt's line is ended
    assert "Traceback" not in result.stdout + result.stderr
    for bad in ("K", "A:E9", "B:E10", "x" * 300):
        error_line(play(monkeypatch, [], "--start", bad), "--start must be a column letter")
    error_line(cli("rotator", "play", "R1:B2B8E4I2I8\u2013B4E2E8H4I9X"), "character 25")


@settings(max_examples=examples(120), deadline=None, derandomize=True)
@given(st.lists(st.sampled_from(["1", "2", "4", "13", "u", "A:E2", "a:e10", "B:A10", "\u00b2",
                                 "\u0663", "9" * 5000, "0" * 5000 + "1"])
                | st.text(max_size=12), max_size=12))
@example(lines=["0\n:"])  # a square's name with a line break in it: echoed escaped
def test_fuzz_any_typed_line_is_a_decision_or_one_message(lines):
    session = Session(RMAP)
    for text in lines:
        if text.strip().lower() in ("u", "undo"):
            session.undo()
            continue
        result = _decide(session, text.strip())
        assert result is None or isinstance(result, (str, TurnReport))
        if isinstance(result, str):
            assert "\n" not in result and result.endswith(".")


# --- the screen on a terminal: 80 × 24, redrawn after every line ------------------------

class Terminal:
    """Just enough of an 80 × 24 terminal to see what the game leaves on it: printable
    characters (one column each), carriage return, line feed (scrolling at the foot,
    counted), wrapping at the right edge, and the only escape codes the game may write:
    home, clear the screen, colour. Anything else fails the test."""

    ESCAPE = re.compile(r"\x1b\[([0-9;?]*)([A-Za-z])")

    def __init__(self, columns: int = 80, lines: int = 24) -> None:
        self.columns, self.lines = columns, lines
        self.rows = [[" "] * columns for _ in range(lines)]
        self.x = self.y = 0
        self.clears = self.scrolled = 0  # scrolled: lines lost off the top since a clear

    def _feed_line(self) -> None:
        self.y += 1
        if self.y == self.lines:
            self.rows = [*self.rows[1:], [" "] * self.columns]
            self.y -= 1
            self.scrolled += 1

    def feed(self, text: str) -> None:
        i = 0
        while i < len(text):
            char = text[i]
            if char == "\x1b":
                match = self.ESCAPE.match(text, i)
                assert match, repr(text[i:i + 12])
                args, command = match.groups()
                if command == "H" and args in ("", "1;1"):
                    self.x = self.y = 0
                elif command == "J" and args == "2":
                    self.rows = [[" "] * self.columns for _ in range(self.lines)]
                    self.clears += 1
                    self.scrolled = 0
                else:
                    assert command == "m", f"unexpected escape code {match.group()!r}"
                i = match.end()
                continue
            if char == "\r":
                self.x = 0
            elif char == "\b":
                self.x = max(0, self.x - 1)
            elif char == "\n":
                self._feed_line()
            else:
                assert char.isprintable(), repr(char)
                if self.x == self.columns:
                    self.x = 0
                    self._feed_line()
                self.rows[self.y][self.x] = char
                self.x += 1
            i += 1

    def screen(self) -> list[str]:
        return ["".join(row).rstrip() for row in self.rows]


def terminal_game(typed: list[str], *args: str, env: dict[str, str] | None = None,
                  ) -> tuple[list[list[str]], Terminal, str, int]:
    """Play ``typed`` in a real 80 × 24 pseudo-terminal, each line sent once the prompt
    is shown (no clock): the screen at every prompt, the terminal at the end, the raw
    output and the exit status."""
    import fcntl
    import pty
    import struct
    import termios

    environment = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    environment.update({"COLUMNS": "80", "LINES": "24", "TERM": "xterm", **(env or {})})
    redrawn = environment["TERM"] != "dumb" and (environment["COLUMNS"],
                                                  environment["LINES"]) == ("80", "24")
    pid, fd = pty.fork()
    if pid == 0:  # the child: the command as a user types it
        os.execvpe(sys.executable, [sys.executable, "-m", "cardgen", "rotator", "play",
                                    BOARD, *args], environment)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    terminal, screens, raw = Terminal(), [], ""
    pending = b""

    def read_until(marker: bytes) -> bool:
        """Feed the terminal up to and including ``marker``; False at the end."""
        nonlocal pending, raw
        while marker not in pending:
            select.select([fd], [], [])
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                chunk = b""
            if not chunk:
                text = pending.decode()
                terminal.feed(text)
                raw += text
                pending = b""
                return False
            pending += chunk
        head, _, pending = pending.partition(marker)
        text = (head + marker).decode()
        terminal.feed(text)
        raw += text
        return True

    for line in typed:
        assert read_until(b"> "), raw[-2000:]
        screens.append(terminal.screen())
        if redrawn:
            checked_screen(terminal)
        os.write(fd, line.encode() + b"\n")
    if typed[-1] != "q":  # then the end of the input: Ctrl-D at the prompt
        assert read_until(b"> "), raw[-2000:]
        screens.append(terminal.screen())
        os.write(fd, b"\x04")
    read_until(b"\x00never")
    _, status = os.waitpid(pid, 0)
    os.close(fd)
    return screens, terminal, raw, os.waitstatus_to_exitcode(status)


def checked_screen(terminal: Terminal) -> None:
    """At a prompt: the screen was cleared and drawn, nothing scrolled away since, the
    prompt on the last line, the rest of the state above it."""
    screen = terminal.screen()
    assert terminal.clears and terminal.scrolled == 0, "\n".join(screen)
    assert (terminal.y, screen[-1]) == (23, ">"), "\n".join(screen)


def beside(screen: list[str]) -> str:
    """The text beside the board (from column 36), its wrapped lines joined."""
    return " ".join(line[35:].strip() for line in screen[:-1] if line[35:].strip())


def state_of(session: Session) -> tuple[int, str]:
    """The turn and gravity arrow the screen must show for a session."""
    from cardgen.games.registry import ARROWS, gravity

    if session.phase in (Phase.WON, Phase.LOST):
        turn = session.log[-1].turn
        return turn, ARROWS[gravity(turn + 1)]
    turn = session.state.turn if session.state is not None else 1
    return turn, ARROWS[gravity(turn)]


def follow(typed: list[str]) -> list[Session]:
    """The session before each line of ``typed``, as the game plays it (to compare the
    screen at each prompt with)."""
    states = []
    for shown in range(len(typed)):
        session = Session(RMAP)
        for earlier in typed[:shown]:
            command = earlier.strip().lower()
            if command in ("u", "undo"):
                session.undo()
            elif command not in ("h", "hint", "l", "log", "q", ""):
                _decide(session, earlier.strip())
        states.append(session)
    return states


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_the_whole_state_stays_on_an_80_by_24_terminal_after_every_move():
    """The issue's player: at 80 × 24 the board with @, the turn, gravity, the boosts,
    the last turn and the choices all stay on the screen after every line typed,
    through hints, the log, undo, a bad line, a capture, the win and the end."""
    best = hint_inputs()
    typed = [best[0], "h", best[1], "l", "u", best[1], *best[2:4], "zz", *best[4:], "l",
             "q"]
    screens, terminal, raw, status = terminal_game(typed)
    assert status == 0
    sessions = follow(typed)
    assert len(screens) == len(typed)
    for screen, session, before in zip(screens, sessions, [None, *typed[:-1]],
                                       strict=True):
        text = "\n".join(screen)
        assert all(len(line) <= 80 for line in screen), text
        turn, arrow = state_of(session)
        if session.phase not in (Phase.WON, Phase.LOST):
            assert f"Turn {turn} · gravity {arrow}" in text, (before, text)
            assert f"Boost cache: {session.boosts_left} of 10 left" in text, text
        if session.state is not None:
            assert text.count("@") == 2, text  # on the board, and in the legend
        assert "u undo · l log · h hint · q quit" in text
        if session.phase is Phase.MOVE:
            for n, option in enumerate(session.options(), 1):
                assert f" {n} {View(session, print, False).choice_words(option.choice)}" \
                    in text, text
        if session.log and session.phase is not Phase.WON:
            assert "Last: Turn " in text, text
    # What each line did is on the next screen.
    assert "Hint: drill and boost 2. A shortest line from here wins in 5 turns" in beside(
        screens[2])
    assert "Last: Turn 1 ↓: fall 3, drill A:E6, boost 2 (A:E5, A:E4), capture the Node at " \
           "A:E4" in beside(screens[3])
    assert "1 A:C4 2 A:D3" in " ".join(beside(screens[3]).split())  # 13 squares to pick
    log = beside(screens[4])
    assert "Start on A:E10. Turn 1 ↓: fall 3, drill A:E6" in log
    assert "Taken back." in beside(screens[5])
    assert "Type a number from 1 to 2, or one of u, l, h, q." in beside(
        screens[typed.index("zz") + 1])
    won = beside(screens[-2])
    assert "You win: you reached grid B's Row 10 in turn 5, spending 7 of your 10 boost " \
           "spaces." in won and "Turn 5 · gravity ↓" in won
    assert "u takes that turn back, l lists the game, q quits." in won
    assert "Turn 5 ↓: start from A:J3, fall 4, drill B:A3" in beside(screens[-1])  # the log
    # After q, the last screen stays, with the line that says the game is left under it.
    assert terminal.screen()[-3:] == ["> q", "Game left at turn 5.", ""]
    assert terminal.scrolled == 2
    assert raw.count("\x1b[H\x1b[2J") == len(typed) + 1  # and the hint's "Thinking…"
    assert "\x1b[1m" in raw or "\x1b[3" in raw  # colour on a terminal without NO_COLOR


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_a_lost_game_and_the_end_of_input_on_a_terminal_and_a_dumb_one():
    typed = [*LOSING, "2"]
    screens, terminal, raw, status = terminal_game(typed, env={"NO_COLOR": "1"})
    assert status == 0 and "\x1b[3" not in raw and "\x1b[1m" not in raw
    careful = beside(screens[4])
    assert "Fills in this turn: A:J10 (touched in turn 1)." in careful
    assert "Careful: that is under you unless you fall off." in careful
    assert "1 fall only  → A:J10: you lose" in careful
    lost = beside(screens[5])
    assert "You lose: the square under you filled in during turn 4." in lost
    assert "Turn 4 · gravity ←" in lost
    assert "The game is over: u takes the last turn back" in beside(screens[6])
    # The end of the input (Ctrl-D) at the prompt: the prompt's line is ended first.
    assert terminal.screen()[-3:] == [">", "Game left at turn 4.", ""]
    # TERM=dumb, or a terminal smaller than 80 × 24: the plain transcript, never redrawn.
    for env in ({"TERM": "dumb"}, {"COLUMNS": "79"}, {"LINES": "23"}):
        _, _, raw, status = terminal_game(["5", "q"], env=env)
        assert status == 0 and "\x1b[2J" not in raw and raw.count("What do you do") == 1


def test_every_screen_fits_whatever_is_typed():
    """Frames drawn in process for many games: each exactly 23 lines of at most 79
    columns above the prompt, with @ (once the player stands), the turn and gravity."""
    from cardgen.cli.rotator_play import SCREEN_LINES, ScreenView

    frames: list[str] = []
    for typed in ([*hint_inputs(), "l"], [*LOSING, "l", "h"], ["1", "1", "1", "1", "1", "l"],
                  ["6", "4", "l", "h", "u", "u", "u", "l", "h"]):
        session = Session(RMAP)
        view = ScreenView(session, colour=True, write=frames.append)
        view.prompt()
        for text in typed:
            if text == "l":
                view.log()
            elif text == "h":
                view.hint()
            elif text == "u":
                session.undo()
            else:
                result = _decide(session, text)
                if isinstance(result, str):
                    view.echo(result)
            view.prompt()
    view.notes = [f"  Turn {t} ↓: fall 3, drill A:E6, boost 2 (A:E5, A:E4), capture the Node "
                  "at A:E4" for t in range(40)]
    view.tail = True
    view.prompt()
    view.notes = ["Hint: " + "a long message " * 40]
    view.prompt()
    assert len(frames) > 30
    for frame in frames:
        assert frame.startswith("\x1b[H\x1b[2J")
        lines = re.sub(r"\x1b\[[0-9;]*m", "", frame.removeprefix("\x1b[H\x1b[2J")).split("\n")
        if lines[-1] != "> ":
            continue  # the "Thinking…" screen
        assert len(lines) == SCREEN_LINES and all(len(line) <= 79 for line in lines), frame
        text = "\n".join(lines)
        assert re.search(r"Turn \d+ · gravity [↓→↑←]", text) or "You win" in text \
            or "You lose" in text, text
        assert "u undo · l log · h hint · q quit" in text
    assert "…" in frames[-1] and "…" in frames[-2]
