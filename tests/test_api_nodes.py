"""The Node games' API (cardgen.api.nodes) gives what ``cardgen referee`` and ``cardgen
nodes play`` print: the referee's report as TOML and JSON and the line about the first
illegal move, from a file, its text or the model; the game against the computer move by
move (``legal_moves``, ``push``, ``outcome``) and as the whole conversation; errors carry
their problem codes; a fresh process gives the same report. And the commands these serve
reach the rest of cardgen only through the API."""

from __future__ import annotations

import doctest
import importlib
import io
import json
import subprocess
import sys

import pytest

import cardgen
from cardgen.api.nodes import (
    HEIGHT,
    WIDTH,
    NodesMatch,
    NodesSession,
    RefereeReport,
    place_by,
    referee,
)
from cardgen.errors import ConfigError, ConfigProblem, ParameterError
from cardgen.games.nodes.record import IllegalMove, Reason, Shot, coord_name
from cardgen.games.nodes.recordfile import example_record, read_record
from tests.helpers import ROOT, cli, ok


@pytest.mark.parametrize("example", ["reflector", "deflector"])
def test_a_report_is_what_referee_prints_and_its_json(example):
    report = referee(example=example)
    assert isinstance(report, RefereeReport)
    result = cli("referee", "--example", example)
    assert result.stdout == report.toml
    data = json.loads(cli("referee", "--example", example, "--json").stdout)
    assert data == report.as_json()
    if report.legal:
        assert result.returncode == 0 and report.problem is None and result.stderr == ""
    else:
        assert result.returncode == 4
        assert result.stderr == f"error: {report.problem}\n"


def test_an_illegal_move_is_coded_and_located():
    report = referee(example="reflector")
    assert not report.legal and isinstance(report.error, IllegalMove)
    assert report.error.reason is Reason.OUT_OF_REACH and report.error.rule == "9.4.3"
    assert report.problem.startswith("templates/records/reflector.toml: line 20: move 9 is ")
    assert report.moves == 9 and report.game == "reflector"


def test_a_record_is_read_from_a_file_its_text_or_the_model():
    path = example_record("deflector")
    from_file = referee(path)
    text = path.read_text(encoding="utf-8")
    assert referee(text) == referee(read_record(path)) == referee(text, label="x")
    assert referee(text).toml == from_file.toml and referee(text).as_json() == \
        from_file.as_json()
    assert from_file.legal and from_file.error is None


def test_bad_records_raise_coded_errors(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ConfigError) as caught:
        referee('game = "reflector"\n')
    assert ConfigProblem.MISSING in caught.value.codes and "record" in str(caught.value)
    with pytest.raises(ConfigError) as caught:
        referee("game = [\n")
    assert caught.value.codes == (ConfigProblem.UNREADABLE,)
    for kwargs, parameter in (({"example": "chess"}, "example"),
                              ({"example": "reflector", "record": "x"}, "example"),
                              ({}, "record"), ({"record": 42}, "record")):
        with pytest.raises(ParameterError) as caught:
            referee(**kwargs)
        assert caught.value.parameter == parameter
    assert list(tmp_path.iterdir()) == []


def test_a_match_speaks_the_referees_words():
    nodes, placed = place_by("deflector", 3, seed=2)
    match = NodesMatch("deflector", 3, 2, nodes, placed)
    again = NodesMatch("deflector", 3, 2, nodes, placed)
    assert match.outcome() is None
    while match.outcome() is None:
        match.computers_move()
        again.computers_move()
        if match.state.finish is not None:
            break
        moves = match.legal_moves()
        assert moves == again.legal_moves() and moves
        match.push(moves[0])
        again.push(moves[0])
    outcome = match.outcome()
    assert outcome is not None and outcome == again.outcome()
    assert match.state.history == again.state.history
    with pytest.raises(IllegalMove):
        match.push(Shot("P1", ("P2", 0, 1)))


@pytest.mark.parametrize(("game", "players", "parameter"), [
    ("chess", 2, "game"), ("reflector", 3, "players"), ("deflector", 6, "players"),
    ("deflector", True, "players")])
def test_a_game_outside_the_rules_is_a_parameter_error(game, players, parameter):
    with pytest.raises(ParameterError) as caught:
        NodesSession(game, players)
    assert caught.value.parameter == parameter
    with pytest.raises(ParameterError) as caught:
        place_by("reflector", 2, seed=2 ** 64)
    assert caught.value.parameter == "seed"


def _typed(game: str, players: int, seed: int) -> list[str]:
    """``r`` to place, then the first legal shot each turn, to the end."""
    nodes, placed = place_by(game, players, seed)
    match = NodesMatch(game, players, seed, nodes, placed)
    typed = ["r"] + (["r"] if placed else [])
    while True:
        match.computers_move()
        if match.state.finish is not None:
            return typed
        shots = [m for m in match.view().legal if isinstance(m, Shot)]
        if not shots:
            match.push(match.legal_moves()[0])
            continue
        at = shots[0].at
        typed.append(coord_name(at[1:]) if game == "reflector" else f"{at[0]}:{coord_name(at[1:])}")
        match.push(shots[0])


def _transcript(session: NodesSession, lines: list[str]) -> str:
    """What ``cardgen nodes play`` prints for ``lines`` typed into a pipe."""
    out = [say.text + "\n" for say in session.start()]
    pending = list(lines)
    while not session.over:
        out.append(session.prompt)
        text = pending.pop(0) if pending else None
        out.append(("" if text is None else text) + "\n")
        out += [say.text + "\n" for say in session.answer(text)]
    return "".join(out)


@pytest.mark.parametrize(("game", "players", "seed", "extra"), [
    ("reflector", 2, 7, ["?", "? A1", "u", "Z9"]), ("deflector", 3, 5, [])])
def test_a_session_says_what_nodes_play_prints(monkeypatch, game, players, seed, extra):
    typed = _typed(game, players, seed)
    lines = [typed[0], *extra, *typed[1:]]
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(f"{line}\n" for line in lines)))
    args = ("--players", str(players)) if game == "deflector" else ()
    result = ok(cli("nodes", "play", game, *args, "--seed", str(seed)))
    session = NodesSession(game, players, seed)
    assert _transcript(session, lines) == result.stdout
    assert "The game is over:" in result.stdout
    for block in result.stdout.split("\n\n")[1:]:
        assert len([line for line in block.splitlines() if not line.startswith("> ")]) < HEIGHT
    assert all(len(line) <= WIDTH for line in result.stdout.splitlines())


def test_a_session_ends_when_the_input_does():
    session = NodesSession("reflector", seed=3)
    assert session.start() and not session.over
    said = session.answer(None)
    assert session.over and said[-1].text.startswith("The input ended")
    with pytest.raises(RuntimeError):
        session.answer("r")


def test_the_library_root_names_the_node_games():
    assert cardgen.referee is referee and cardgen.NodesMatch is NodesMatch
    assert cardgen.NodesSession is NodesSession


FRESH = """
import json
from cardgen.api.nodes import referee
report = referee(example="deflector")
print(json.dumps(report.as_json(), sort_keys=True))
print(report.toml, end="")
"""


def test_a_fresh_process_gives_the_same_report():
    report = referee(example="deflector")
    there = subprocess.run([sys.executable, "-c", FRESH], capture_output=True, text=True,
                           check=True, cwd=ROOT).stdout
    assert there == json.dumps(report.as_json(), sort_keys=True) + "\n" + report.toml


@pytest.mark.parametrize("module", ['cardgen.api.nodes'])
def test_the_examples_of_the_reference_pages_hold(monkeypatch, module):
    monkeypatch.chdir(ROOT)
    failed, tried = doctest.testmod(importlib.import_module(module))
    assert tried and not failed
