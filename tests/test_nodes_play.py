"""``cardgen nodes play``: Reflector against the computer and Deflector with computer
players, played in process by feeding lines and once through a real pseudo-terminal.
Every screen fits 80 × 24 and shows only what the human player may know."""

from __future__ import annotations

import io
import os
import select
import sys
from dataclasses import replace

import pytest

from cardgen.api.nodes import HEIGHT, ME, WIDTH, place_by, screen
from cardgen.api.nodes import NodesMatch as Game
from cardgen.games.names import GameName
from cardgen.games.nodes import knowledge
from cardgen.games.nodes.record import Pass, Shot, coord_name, spot_name
from tests.helpers import cli, error_line, ok, sampled


def shots_to_end(game: GameName, players: int, seed: int) -> list[str]:
    """The lines a player types to play a whole seeded game: ``r`` to place, then his
    first legal shot each turn (the computers answer the same way every time)."""
    nodes, placed = place_by(game, players, seed)
    session = Game(game, players, seed, nodes, placed)
    typed = ["r"] + (["r"] if placed else [])
    while True:
        session.computers_move()
        if session.state.finish is not None:
            return typed
        shots = [m for m in session.view().legal if isinstance(m, Shot)]
        if not shots:
            session.push(Pass(ME))
            continue
        at = shots[0].at
        typed.append(coord_name(at[1:]) if game is GameName.REFLECTOR else spot_name(at))
        session.push(shots[0])


def play(monkeypatch, lines: list[str], *args: str):
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(f"{line}\n" for line in lines)))
    return cli("nodes", "play", *args)


def screens(out: str) -> list[list[str]]:
    """The screens of a transcript: each starts after an empty line."""
    return [block.splitlines() for block in out.split("\n\n")[1:]]


def check_bounds(out: str) -> None:
    for line in out.splitlines():
        assert len(line) <= WIDTH, line
    for block in screens(out):
        shown = [line for line in block if not line.startswith("> ")]
        assert len(shown) <= HEIGHT - 1, "\n".join(block)


def test_a_whole_reflector_game_in_the_terminal(monkeypatch):
    typed = shots_to_end(GameName.REFLECTOR, 2, 7)
    out = ok(play(monkeypatch, [typed[0], "?", "? A1", "? J10", "u", "Z9",
                                    *typed[1:]], "reflector",
                  "--seed", "7")).stdout
    assert "The game is over:" in out
    assert "No undo" in out
    assert "legal shots: A1" in out
    assert "is not a move" in out
    assert "A1 is legal" in out and "out-of-reach" in out
    check_bounds(out)


@pytest.mark.parametrize("players", sampled([3, 5], 3))
def test_a_whole_deflector_game_in_the_terminal(monkeypatch, players):
    typed = shots_to_end(GameName.DEFLECTOR, players, 5)
    out = ok(play(monkeypatch, typed, "deflector", "--players", str(players),
                  "--seed", "5")).stdout
    assert "The game is over:" in out
    check_bounds(out)


def test_typed_placement_and_illegal_shots(monkeypatch):
    out = ok(play(monkeypatch, ["A1 A1", "A1 B2 C3 D4", "A1 B2 C3 D4 E5", "A5", "? A5",
                                "q"], "reflector")).stdout
    assert "named twice" in out and "5 spaces are needed" in out
    assert "Placed: Nodes A1 B2 C3 D4 E5" in out
    assert out.count("Not legal:") == 2 and "out-of-reach" in out
    assert "You left the game" in out


def test_quitting_and_end_of_input(monkeypatch):
    assert "You left" in ok(play(monkeypatch, ["q"], "reflector")).stdout
    assert "input ended" in ok(play(monkeypatch, ["r"], "deflector")).stdout


def test_bad_options():
    assert "GAME" in error_line(cli("nodes", "play", "defector"), status=2)  # not a choice
    assert "--players" in error_line(cli("nodes", "play", "deflector", "--players", "6"))


@pytest.mark.parametrize("game, players", [(GameName.REFLECTOR, 2), (GameName.DEFLECTOR, 4)])
def test_the_screen_never_shows_hidden_placements(game, players):
    """Change what the computers hid, keep every public fact: the screen is the same."""
    nodes, placed = place_by(game, players, 3)
    session = Game(game, players, 3, nodes, placed)
    for _ in range(6):
        session.computers_move()
        shots = [m for m in session.view().legal if isinstance(m, Shot)]
        session.push(shots[len(shots) // 2])
    state = session.state
    before = screen(knowledge.view(state, ME), str, session.movers)
    # Move an opponent's unrevealed Node to a space nothing has revealed anything about.
    grid = "P2"
    secret = set(state.setup.nodes[grid])
    hidden = [c for c in secret if (grid, *c) not in state.facts]
    free = [(c, r) for r in range(1, 11) for c in range(10)
            if (grid, c, r) not in state.facts and (c, r) not in secret
            and (c, r) not in state.setup.deflectors[grid]]
    assert hidden and free
    nodes_now = dict(state.setup.nodes)
    nodes_now[grid] = frozenset(secret - {hidden[0]} | {free[-1]})
    other = replace(state, setup=replace(state.setup, nodes=nodes_now))
    assert knowledge.view(other, ME) == knowledge.view(state, ME)
    assert screen(knowledge.view(other, ME), str, session.movers) == before


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_a_seeded_reflector_game_through_a_pseudo_terminal():
    """The command in a real 80 × 24 pseudo-terminal: placing at random, then shooting
    until the outcome, each line sent after the prompt appears (no clock)."""
    import fcntl
    import pty
    import struct
    import termios

    typed = shots_to_end(GameName.REFLECTOR, 2, 11)
    pid, fd = pty.fork()
    if pid == 0:
        env = dict(os.environ, NO_COLOR="1", COLUMNS="80", LINES="24")
        os.execvpe(sys.executable, [sys.executable, "-m", "cardgen", "nodes", "play",
                                    "reflector", "--seed", "11"], env)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    seen = b""

    def read_until(marker: bytes) -> bytes:
        nonlocal seen
        while marker not in seen:
            ready, _, _ = select.select([fd], [], [])
            assert ready
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                chunk = b""
            if not chunk:
                break
            seen += chunk
        found, _, seen = seen.partition(marker)
        return found

    transcript = b""
    for line in typed:
        transcript += read_until(b"> ")
        os.write(fd, line.encode() + b"\n")
    transcript += read_until(b"\x00never")
    _, status = os.waitpid(pid, 0)
    os.close(fd)
    text = transcript.decode().replace("\r\n", "\n")
    assert os.waitstatus_to_exitcode(status) == 0
    assert "The game is over:" in text
    for line in text.splitlines():
        assert len(line) <= WIDTH


def test_computers_that_play_on_without_an_end_stop_the_game(monkeypatch):
    """With the human out, SPEC §9 sets no limit on the computers' play: the game stops
    after COMPUTER_RUN moves in a row, saying so, instead of running for ever."""
    from cardgen.api import nodes as nodes_play

    nodes, placed = place_by(GameName.DEFLECTOR, 3, 1)
    first = next(m for m in Game(GameName.DEFLECTOR, 3, 1, nodes, placed).view().legal
                 if isinstance(m, Shot))
    monkeypatch.setattr(nodes_play, "COMPUTER_RUN", 1)
    out = ok(play(monkeypatch, ["r", "r", spot_name(first.at), "q"], "deflector",
                  "--players", "3", "--seed", "1")).stdout
    assert "1 moves in a row without an end" in out
