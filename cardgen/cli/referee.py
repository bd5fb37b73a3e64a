"""``cardgen referee``: replay a Node-game record (SPEC §9.8) and print the referee's
report, move by move, then the outcome.

The record is read by ``cardgen.games.nodes.recordfile`` and replayed by
``cardgen.games.nodes.engine``. The report is TOML (a comment on each move, and
parseable back) or, with ``--json``, the same data as JSON. The first illegal move
stops the replay: the report ends with it and the outcome, its reason and rule are
said on stderr, and the exit status is 4, as for any check that finds a problem
(``connector validate``, ``ladder deck``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from cardgen.cli.common import JsonOpt, QuietOpt, UsageError, emit
from cardgen.datafile import path_text
from cardgen.errors import CHECK_STATUS
from cardgen.games.nodes.record import IllegalMove, Reason, Record


def referee(
    record: Annotated[Path | None, typer.Argument(
        metavar="GAME", help="The game record (TOML, SPEC §9.8: game, players, moves). "
        "Without it, give --example.", show_default=False)] = None,
    example: Annotated[str | None, typer.Option(
        "--example", help="Replay a worked record cardgen ships: reflector (eight shots "
        "and an illegal ninth) or deflector (a four-player chain).",
        show_default=False)] = None,
    json_out: JsonOpt = False,
    quiet: QuietOpt = False,
) -> None:
    """Replay a Node game record and say whether every move is legal.

    For a Reflector, Deflector or Defector record: what the referee reports for each
    move, then the outcome (winner, draw, or not over). The replay stops at the first
    illegal move."""
    from cardgen.games.nodes.engine import check
    from cardgen.games.nodes.recordfile import (
        EXAMPLES,
        commented_report,
        example_record,
        read_record,
        report_json,
    )

    if example is not None:
        if example not in EXAMPLES:
            raise UsageError(f"--example must be {' or '.join(EXAMPLES)}, not "
                             f"{example!r}.", field="--example")
        if record is not None:
            raise UsageError("--example replays a record cardgen ships; give either GAME or "
                             "--example, not both.", field="--example")
        record = example_record(example)
    if record is None:
        raise UsageError("no game record given: give GAME (a record file, TOML) or "
                         "--example reflector or --example deflector.", field="GAME")
    game = read_record(record)
    replay, error = check(game)
    if json_out:
        emit(json.loads(report_json(replay)))
    else:
        typer.echo(commented_report(game, replay, error), nl=False)
    if error is not None:
        typer.echo(f"error: {path_text(record)}: {_where(game, replay.reports[-1].move, error)}"
                   f"{error}", err=True)
        raise typer.Exit(CHECK_STATUS)


def _where(game: Record, move: int, error: IllegalMove) -> str:
    """Which move of the record is illegal, and on which line (a bad set-up is reported
    on move 1, before any move)."""
    if error.reason is Reason.BAD_SETUP:
        return "the set-up breaks a rule: "
    line = game.move_lines[move - 1] if move <= len(game.move_lines) else 0
    return f"line {line}: move {move} is illegal: " if line else f"move {move} is illegal: "
