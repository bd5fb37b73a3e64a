"""``cardgen referee``: replay a Node-game record (SPEC §9.8) and print the referee's
report, move by move, then the outcome.

The record is read and replayed by :func:`cardgen.api.nodes.referee` (over
``cardgen.games.nodes``). The report is TOML (a comment on each move, and
parseable back) or, with ``--json``, the same data as JSON. The first illegal move
stops the replay: the report ends with it and the outcome, its reason and rule are
said on stderr, and the exit status is 4, as for any check that finds a problem
(``connector validate``, ``ladder deck``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from cardgen.cli.common import JsonOpt, QuietOpt, UsageError, emit
from cardgen.errors import CHECK_STATUS


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
    from cardgen.api.nodes import REFEREE_EXAMPLES
    from cardgen.api.nodes import referee as replay

    if example is not None:
        if example not in REFEREE_EXAMPLES:
            raise UsageError(f"--example must be {' or '.join(REFEREE_EXAMPLES)}, not "
                             f"{example!r}.", field="--example")
        if record is not None:
            raise UsageError("--example replays a record cardgen ships; give either GAME or "
                             "--example, not both.", field="--example")
    elif record is None:
        raise UsageError("no game record given: give GAME (a record file, TOML) or "
                         "--example reflector or --example deflector.", field="GAME")
    report = replay(record, example=example)
    if json_out:
        emit(report.as_json())
    else:
        typer.echo(report.toml, nl=False)
    if report.problem is not None:
        typer.echo(f"error: {report.problem}", err=True)
        raise typer.Exit(CHECK_STATUS)
