"""``cardgen nodes play``: Reflector against the computer, Deflector with computer players.

Plain lines in, plain lines out, like ``cardgen rotator play``: one line at a time from
stdin, so it works in a pipe and tests play whole games by feeding lines. The game and
every screen are :class:`cardgen.api.nodes.NodesSession`'s (what P1 may know, within
80 × 24); this module only reads the lines, echoes them when they come from a pipe, and
colours what it shows on a terminal.
"""

from __future__ import annotations

import os
import sys

import typer


def play_game(game: str, players: int, seed: int) -> None:
    """Place, then play until the game ends, the player quits or the input ends."""
    from cardgen.api.nodes import NodesSession, wrap_line

    colour = "NO_COLOR" not in os.environ and sys.stdout.isatty()

    def echo(line: str, fg: str | None = None) -> None:
        for part in wrap_line(line):
            if colour and fg is not None:
                part = typer.style(part, fg=fg, bold=True)
            typer.echo(part, color=None if colour else False)

    typed = not sys.stdin.isatty()
    session = NodesSession(game, players, seed)
    said = session.start()
    while True:
        for line in said:
            echo(line.text, line.colour)
        if session.over:
            return
        typer.echo(session.prompt, nl=False)
        read = sys.stdin.readline()
        if not read:
            echo("")
            said = session.answer(None)
            continue
        text = read.strip()
        if typed:
            echo(text)
        said = session.answer(text)
