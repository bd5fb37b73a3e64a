"""``cardgen referee`` and its files (SPEC §9.8): records read with every problem naming
its line and key, reports written as TOML and JSON and read back, the shipped worked
examples, and the command line's output and exit statuses."""

from __future__ import annotations

import datetime
import json
import math
import tomllib
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardgen.errors import ConfigError, ConfigProblem
from cardgen.games.nodes.engine import check, replay
from cardgen.games.nodes.record import (
    Leave,
    Pass,
    Reason,
    Record,
    Result,
    Shot,
    Unite,
)
from cardgen.games.nodes.recordfile import (
    EXAMPLES,
    RecordProblem,
    commented_report,
    example_record,
    parse_record,
    parse_report,
    read_record,
    read_report,
    report_data,
    report_json,
    report_toml,
)
from tests.helpers import cli, error_line, examples, run_process
from tests.nodes_records import read_expected
from tests.nodes_records import read_record as simple_record

DATA = Path(__file__).parent / "data" / "nodes"
FUZZ = settings(max_examples=examples(60), deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow])
NAMES = {"reflector": "reflector-example", "deflector": "deflector-example"}


def _bare(record: Record) -> Record:
    """A record without the lines it was read from (the engine's test reader has none)."""
    return replace(record, move_lines=(),
                   players=tuple(replace(p, line=0) for p in record.players))


# --- reading records ----------------------------------------------------------------------


@pytest.mark.parametrize("name", EXAMPLES)
def test_examples_read_as_the_engine_tests_read_them(name: str) -> None:
    """The shipped example and the test data are the same record, read the same way by
    recordfile and by the engine tests' small reader."""
    shipped = read_record(example_record(name))
    data = read_record(DATA / f"{NAMES[name]}.toml")
    assert _bare(shipped) == _bare(data) == simple_record(f"{NAMES[name]}.toml")


def test_a_record_knows_the_lines_of_its_players_and_moves() -> None:
    record = read_record(DATA / "reflector-example.toml")
    assert [p.line for p in record.players] == [5, 6]
    assert record.move_lines == (9, 9, 9, 10, 10, 10, 11, 11, 11)


def test_every_kind_of_move_and_a_start_position() -> None:
    text = """\
game = "defector"
variants = ["safety"]
player = [
  { id = "P1", symbol = "X", nodes = ["A5"] },
]
move = [
  { by = "P1", pass = true },
  { by = "P2", unite = "P3", link = "P2:G6", group = ["P2", "P3"], master = "P3:D4" },
  { by = "P4", leave = true },
  { by = "P4", at = "I1:J10" },
]
[start]
to_move = "P2"
spent = ["P3:F1"]
out = ["P5"]
divided = [["P3", "P4"]]
marks = { P1 = ["P3:E1"] }
turns = { P2 = 1 }
homes = { P1 = ["P1", "I1"] }
[[start.alliance]]
members = ["P1", "P2"]
master = "P1:A5"
groups = [["P2:G6", "P2", "P3"]]
"""
    record = parse_record(text, "r.toml")
    assert record.first == "P2"  # from [start]
    assert record.players[0].name == "P1"  # a name defaults to the id
    assert record.moves == (
        Pass("P1"), Unite("P2", "P3", link=("P2", 6, 6), group=("P2", "P3"),
                          master=("P3", 3, 4)),
        Leave("P4"), Shot("P4", ("I1", 9, 10)))
    start = record.start
    assert start is not None
    assert start.spent == (("P3", 5, 1),) and start.out == ("P5",)
    assert start.divided == (("P3", "P4"),) and start.marks == {"P1": (("P3", 4, 1),)}
    assert start.turns == {"P2": 1} and start.homes == {"P1": ("P1", "I1")}
    assert start.aimed is None
    assert start.alliances[0].groups == ((("P2", 6, 6), ("P2", "P3")),)


BAD_RECORDS = [
    # (what, the line changed, what it is changed to, the line and key the message names)
    ("a misspelt game", 'game = "reflector"', 'game = "reflecter"', "line 1: game",
     ConfigProblem.NOT_A_CHOICE),
    ("a node off the grid", '"J10"', '"K10"', "line 5: player[1].nodes item 4",
     ConfigProblem.INVALID),
    ("a shot at no space", '"P2:H5"', '"P2 H5"', "line 11: move[9].at",
     ConfigProblem.INVALID),
    ("a move of two kinds", '{ by = "P1", at = "P2:H5" }',
     '{ by = "P1", at = "P2:H5", pass = true }', "line 11: move[9] gives at and pass",
     RecordProblem.MOVE_KIND),
    ("an unknown key in a move", '{ by = "P1", at = "P2:H5" }',
     '{ by = "P1", att = "P2:H5" }', "line 11: unknown key move[9].att; did you mean "
     "move[9].at?", ConfigProblem.UNKNOWN_KEY),
    ("players out of order", '{ id = "P2"', '{ id = "P3"', "line 6: player[2].id is P3",
     RecordProblem.PLAYER_ID),
    ("no first", 'first = "P1"', "", "first is missing", RecordProblem.NO_FIRST),
    ("a symbol too long", 'symbol = "O"', 'symbol = "OOOO"', "line 6: player[2].symbol",
     ConfigProblem.TOO_LONG),
]


@pytest.mark.parametrize(("what", "old", "new", "said", "code"), BAD_RECORDS,
                         ids=[b[0] for b in BAD_RECORDS])
def test_a_bad_record_names_the_line_and_the_key(what: str, old: str, new: str, said: str,
                                                 code: object) -> None:
    text = (DATA / "reflector-example.toml").read_text()
    assert old in text
    with pytest.raises(ConfigError) as caught:
        parse_record(text.replace(old, new, 1), "bad.toml")
    assert str(caught.value).startswith("bad.toml: "), str(caught.value)
    assert said in str(caught.value)
    assert caught.value.codes == (code,)


def test_a_start_table_needs_to_move_and_its_players_are_checked() -> None:
    base = (DATA / "reflector-example.toml").read_text()
    with pytest.raises(ConfigError, match=r"line 14: start\.to_move is missing"):
        parse_record(base + "\n[start]\nspent = []\n", "s.toml")
    with pytest.raises(ConfigError, match=r"line 17: unknown key start\.marks\.P9x; "
                                          r"valid: start\.marks\.P1, start\.marks\.P2\."):
        parse_record(base + '\n[start]\nto_move = "P1"\n[start.marks]\nP9x = []\n', "s.toml")


# --- a key-by-type fuzz: no traceback ever, one line naming the line and the key -----------

KEYS = {
    "": ["game", "arrangement", "variants", "first", "player", "move", "start"],
    "player": ["id", "name", "symbol", "nodes", "deflectors"],
    "move": ["by", "at", "pass", "unite", "link", "group", "master", "leave"],
    "start": ["to_move", "spent", "out", "divided", "marks", "homes", "aimed", "turns",
              "alliance"],
}
TEXT = st.text(st.sampled_from('AP1:J0 "\\\n\t\x00\u202eı'), max_size=8)
SCALARS = st.one_of(
    TEXT, st.sampled_from(["P1", "P2:E1", "E1", "reflector", "I1", "nothing"]),
    st.integers(-2 ** 63, 2 ** 63 - 1), st.floats(allow_nan=True), st.booleans(),
    st.dates(), st.times(), st.datetimes(),
    st.datetimes(timezones=st.just(datetime.UTC)))
VALUES = st.recursive(SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=3),
    st.dictionaries(st.sampled_from(["P1", "P2", "to_move", "members", "x y", "at"]), inner,
                    max_size=3)), max_leaves=8)


def _value(value: Any) -> str:
    """A value as inline TOML (the test's own small writer)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf") if \
            math.isinf(value) else repr(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, datetime.date | datetime.time):
        return value.isoformat()
    if isinstance(value, list):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    return "{ " + ", ".join(f"{json.dumps(k)} = {_value(v)}" for k, v in value.items()) + " }"


def _record_text(data: dict[str, Any]) -> str:
    lines = []
    for key, value in data.items():
        if key in ("player", "move") and isinstance(value, list):
            lines.append(f"{key} = [")
            lines += [f"  {_value(v)}," for v in value]
            lines.append("]")
        elif key != "start":
            lines.append(f"{key} = {_value(value)}")
    if "start" in data:
        if isinstance(data["start"], dict):
            lines.append("[start]")
            lines += [f"{json.dumps(k)} = {_value(v)}" for k, v in data["start"].items()]
        else:
            lines.insert(0, f"start = {_value(data['start'])}")
    return "\n".join(lines) + "\n"


def _base() -> dict[str, Any]:
    data = tomllib.loads((DATA / "reflector-example.toml").read_text())
    data["start"] = {"to_move": "P1", "marks": {"P1": ["P2:E1"]}}
    return data


def _where(data: dict[str, Any], table: str, key: str, value: Any) -> str:
    """Put ``value`` at ``key`` of ``table`` (its second entry for an array) and say the
    key as a message names it."""
    if not table:
        data[key] = value
        return key
    if table == "start":
        data["start"][key] = value
        return f"start.{key}"
    data[table][1][key] = value
    return f"{table}[2].{key}"


@FUZZ
@given(st.sampled_from([(t, k) for t, keys in KEYS.items() for k in keys]), VALUES)
def test_every_key_with_every_type_gives_a_record_or_one_line(place: tuple[str, str],
                                                               value: Any) -> None:
    data = _base()
    key = _where(data, *place, value)
    text = _record_text(data)
    try:
        record = parse_record(text, "fuzz.toml")
    except ConfigError as exc:
        message = str(exc)
        assert "\n" not in message and message.startswith("fuzz.toml: ")
        for problem in exc.problems:
            if problem.code is not ConfigProblem.UNREADABLE:
                assert problem.startswith("line "), problem
        named = [p for p in exc.problems if key in p or key.split(".")[0] in p]
        assert named or exc.codes[0] is ConfigProblem.UNREADABLE, (key, message)
    else:
        check(record)  # the engine says what is illegal; it never raises


_EXAMPLE_TEXT = (DATA / "deflector-example.toml").read_text()
EDITS = st.lists(st.tuples(st.integers(0, len(_EXAMPLE_TEXT) - 1),
                           st.sampled_from(['"', "x", "1", " ", "=", "]", "[", "{", ",", "",
                                            "P", ":", ".", "\n", "#"]),
                           st.integers(0, 2)), min_size=1, max_size=4)


@FUZZ
@given(EDITS)
def test_a_mangled_record_reads_or_fails_in_one_line_naming_lines(edits: list[Any]) -> None:
    """Characters put in or taken out anywhere: a record, or one line where every
    problem but a missing top-level key names its line."""
    text = _EXAMPLE_TEXT
    for at, put, cut in edits:
        text = text[:at] + put + text[at + cut:]
    try:
        record = parse_record(text, "m.toml")
    except ConfigError as exc:
        assert "\n" not in str(exc)
        for problem in exc.problems:
            if problem.code not in (ConfigProblem.UNREADABLE, ConfigProblem.MISSING):
                assert problem.startswith("line "), problem
    else:
        check(record)


@FUZZ
@given(VALUES)
def test_a_report_file_of_any_values_reads_or_fails_in_one_line(value: Any) -> None:
    text = (DATA / "deflector-example.report.toml").read_text()
    text = text.replace('answers = ["Null"]', f"answers = {_value(value)}", 1)
    try:
        parse_report(text, "r.toml")
    except ConfigError as exc:
        assert "\n" not in str(exc)
        assert all(p.startswith("line ") for p in exc.problems), exc.problems


# --- reports ------------------------------------------------------------------------------


@pytest.mark.parametrize("name", EXAMPLES)
def test_the_engine_report_equals_the_hand_written_one(name: str) -> None:
    """SPEC §9.8's expected reports, read into MoveReport/OutcomeReport, equal the
    engine's replay exactly; written and read back, a report is the same replay."""
    found = replay(read_record(example_record(name)))
    assert found == read_report(DATA / f"{NAMES[name]}.report.toml")
    assert parse_report(report_toml(found), "x") == found
    assert report_data(found) == read_expected(f"{NAMES[name]}.report.toml")


def test_a_report_with_fired_deflectors_alliances_and_a_long_won() -> None:
    from cardgen.games.nodes.record import (
        AllianceView,
        Answer,
        Ending,
        Fired,
        MoveReport,
        OutcomeReport,
        Reflection,
        Replay,
    )

    many = tuple(("P2", c, r) for r in range(1, 4) for c in range(10))
    made = Replay((
        MoveReport(1, path=(("P1", 0, 1),), answers=(Answer.NODE,), won={"P2": many},
                   fired=(Fired(("P1", 0, 2), (("P3", 0, 2),), (Answer.NULL,)),),
                   reflection=Reflection(("P2", 0, 1), None), out=("P3",),
                   alliances=(AllianceView(("P1", "P2"), ("P1", 0, 5),
                                           ((("P2", 1, 5), ("P2", "P4")),)),),
                   turns={"P1": 2}),
        MoveReport(2, alliances=()),
    ), OutcomeReport(Result.WIN, Ending.ALLIANCE, ("P1", "P2"), nodes={"P1": 5},
                     spaces={"P1": 40}))
    text = report_toml(made)
    assert "[report.won]" in text and "[[report.fired]]" in text
    assert parse_report(text, "x") == made
    assert tomllib.loads(text) == json.loads(report_json(made))


def test_a_bad_report_names_line_and_key() -> None:
    text = (DATA / "reflector-example.report.toml").read_text()
    with pytest.raises(ConfigError, match=r"line 4: report\[1\]\.answers item 1 must be one "
                                          r"of Null, Owned, Node or Deflector, not 'Nul'"):
        parse_report(text.replace('"Null"', '"Nul"', 1), "r.toml")
    with pytest.raises(ConfigError, match=r"line 6: report\[1\]\.reflection\.at is missing"):
        parse_report(text.replace('at = "P1:E1", ', "", 1), "r.toml")


# --- the command line ---------------------------------------------------------------------


def test_example_one_prints_the_expected_report_and_stops_at_the_illegal_move() -> None:
    result = cli("referee", "--example", "reflector")
    line = error_line(result, "reflector.toml: line 20: move 9 is illegal", "out-of-reach",
                      "SPEC §9.4.3", status=4)  # a check that found a problem
    assert "P2:H5" in line
    assert parse_report(result.stdout, "stdout") == read_report(
        DATA / "reflector-example.report.toml")
    assert "# P1 shoots P2:H5: illegal" in result.stdout


def test_example_two_is_legal_and_json_equals_the_toml() -> None:
    toml_run = cli("referee", "--example", "deflector")
    assert toml_run.returncode == 0 and toml_run.stderr == "", toml_run.stderr
    assert parse_report(toml_run.stdout, "stdout") == read_report(
        DATA / "deflector-example.report.toml")
    json_run = cli("referee", "--example", "deflector", "--json")
    assert json_run.returncode == 0
    assert json.loads(json_run.stdout) == tomllib.loads(toml_run.stdout)


def test_json_of_a_stopped_replay_equals_its_toml() -> None:
    toml_run = cli("referee", DATA / "reflector-example.toml")
    json_run = cli("referee", DATA / "reflector-example.toml", "--json")
    assert toml_run.returncode == json_run.returncode == 4
    assert json.loads(json_run.stdout) == tomllib.loads(toml_run.stdout)


def test_a_record_breaking_a_rule_exits_as_a_failed_check(tmp_path: Path) -> None:
    text = (DATA / "reflector-example.toml").read_text()
    bad = tmp_path / "turn.toml"
    bad.write_text(text.replace('{ by = "P2", at = "P1:E2" }', '{ by = "P1", at = "P2:E2" }'))
    result = cli("referee", bad)
    error_line(result, "turn.toml: line 9: move 2 is illegal: it is P2's turn, not P1's "
               "(not-your-turn, SPEC §9.4.2)", status=4)
    data = tomllib.loads(result.stdout)
    assert data["report"][-1] == {"move": 2, "legal": False, "reason": "not-your-turn"}
    assert data["outcome"]["stopped_at"] == 2
    assert len(data["report"]) == 2


def test_a_bad_set_up_is_reported_on_move_one(tmp_path: Path) -> None:
    text = (DATA / "reflector-example.toml").read_text()
    bad = tmp_path / "setup.toml"
    bad.write_text(text.replace('"C3", "D4", "H7", "J10", "F9"', '"C3", "D4"'))
    result = cli("referee", bad)
    error_line(result, "setup.toml: the set-up breaks a rule", "bad-setup", status=4)
    data = tomllib.loads(result.stdout)
    assert data["report"] == [{"move": 1, "legal": False, "reason": Reason.BAD_SETUP.value}]


def test_option_errors() -> None:
    # The command line cannot be used as typed: usage errors, exit 2.
    error_line(cli("referee"), "no game record given", "--example reflector", status=2)
    error_line(cli("referee", "--example", "rotator"),
               "--example must be reflector or deflector, not 'rotator'", status=2)
    error_line(cli("referee", DATA / "reflector-example.toml", "--example", "reflector"),
               "--example", "not both", status=2)
    error_line(cli("referee", "missing.toml"), "record file missing.toml does not exist")


def test_a_bad_record_is_one_error_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text((DATA / "reflector-example.toml").read_text().replace('"P2:E1"', '"P2:E11"'))
    result = cli("referee", bad)
    error_line(result, "bad.toml: line 9: move[1].at must be a space written G:Cr")
    assert result.stdout == ""


def test_the_commented_report_reads_back() -> None:
    record = read_record(example_record("deflector"))
    found, error = check(record)
    assert error is None
    text = commented_report(record, found)
    assert "# P1 shoots P3:F1: Deflector, Deflector, Owned" in text
    assert "# P2 shoots P1:B3: Node; captures P1:B3; 2 Deflectors fire" in text
    assert parse_report(text, "x") == found


def test_referee_smoke_in_a_real_process() -> None:
    """Example 1 through the installed command line prints exactly SPEC §9.8's report."""
    result = run_process("referee", DATA / "reflector-example.toml")
    assert result.returncode == 4, result.stderr
    assert "Traceback" not in result.stderr
    assert parse_report(result.stdout, "stdout") == read_report(
        DATA / "reflector-example.report.toml")
    assert result.stderr.startswith("error: ") and "move 9 is illegal" in result.stderr


def test_the_readme_record_example_replays(tmp_path: Path) -> None:
    """The guide's short record is a record the referee replays, every move legal."""
    text = (Path(__file__).parents[1] / "docs" / "rules.md").read_text(encoding="utf-8")
    block = text.split("A short Reflector game:\n\n", 1)[1].split("\n\n", 1)[0]
    path = tmp_path / "mini.toml"
    path.write_text("\n".join(line.removeprefix("    ") for line in block.splitlines()))
    result = cli("referee", path)
    assert result.returncode == 0, result.stderr
    assert [r["move"] for r in tomllib.loads(result.stdout)["report"]] == [1, 2]


ILLEGAL = [
    # (the moves after Ann's first shot at P2:E1, the reason, the rule's section)
    ('{ by = "P2", at = "P1:E2" }, { by = "P1", at = "P3:E1" }', "no-such-space", "9.1.3"),
    ('{ by = "P2", at = "P1:E2" }, { by = "P1", at = "P1:E3" }', "own-grid", "9.4.3"),
    ('{ by = "P2", at = "P1:E2" }, { by = "P1", at = "P2:E1" }', "held", "9.4.3"),
    ('{ by = "P2", at = "P1:E2" }, { by = "P1", pass = true }', "can-shoot", "9.4.3"),
    ('{ by = "P1", at = "P2:E2" }', "not-your-turn", "9.4.2"),
]


@pytest.mark.parametrize(("moves", "reason", "rule"), ILLEGAL, ids=[i[1] for i in ILLEGAL])
def test_the_referee_names_the_reason_and_rule_of_an_illegal_move(
        tmp_path: Path, moves: str, reason: str, rule: str) -> None:
    path = tmp_path / "game.toml"
    path.write_text(_RECORD_HEAD + f'move = [{{ by = "P1", at = "P2:E1" }}, {moves}]\n')
    result = cli("referee", path)
    line = error_line(result, f"({reason}, SPEC §{rule}", status=4)
    last = tomllib.loads(result.stdout)["report"][-1]
    assert last["legal"] is False and last["reason"] == reason
    assert f"move {last['move']} is illegal" in line


_RECORD_HEAD = """\
game = "reflector"
first = "P1"
player = [
  { id = "P1", symbol = "X", nodes = ["C3", "D4", "H7", "J10", "F9"] },
  { id = "P2", symbol = "O", nodes = ["B2", "D4", "G3", "I8", "D9"] },
]
"""


def test_long_alliances_are_written_as_tables_and_read_back() -> None:
    from cardgen.games.nodes.record import AllianceView, MoveReport, OutcomeReport, Replay

    views = tuple(AllianceView((f"P{k}", f"P{k + 1}", f"P{k + 2}"), (f"P{k}", 1, 2),
                               (((f"P{k + 1}", 3, 4), (f"P{k + 1}", f"P{k + 2}")),))
                  for k in (1, 4, 7))
    made = Replay((MoveReport(1, alliances=views),),
                  OutcomeReport(Result.NOT_OVER, to_move="P2"))
    text = report_toml(made)
    assert text.count("[[report.alliance]]") == 3
    assert parse_report(text, "x") == made
