"""Node-game records and referee reports as files (SPEC §9.8).

:func:`read_record` reads a record TOML into a :class:`~cardgen.games.nodes.record.Record`
through the house's data-file machinery (``cardgen.datafile`` reads the file,
``cardgen.schema`` checks its keys): a bad record is one :class:`~cardgen.errors.ConfigError`
whose every problem names the line and the key and says what to write instead. Only the
record's shape is checked here (types, space names, one kind of move per entry); whether
the set-up and the moves obey the rules is the engine's question (``bad-setup`` and the
other reason codes).

:func:`report_data` turns a :class:`~cardgen.games.nodes.record.Replay` into the data of
SPEC §9.8's report (empty keys left out, ``legal`` only when false), :func:`report_toml`
writes it as TOML in the SPEC's layout (parseable back, with a short comment per move),
and :func:`read_report` reads a report TOML (an engine's or a hand-written one) back into
a ``Replay``, so that two reports compare with ``==``.

A pure model: it touches files only through ``cardgen.datafile``.
"""

from __future__ import annotations

import bisect
import contextlib
import json
import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from cardgen.datafile import parse_toml, path_text, read_toml_text
from cardgen.errors import Code, ConfigError, ConfigProblem, Problem, shorten
from cardgen.games.names import GameName
from cardgen.games.nodes.record import (
    AllianceView,
    Answer,
    Ending,
    Fired,
    IllegalMove,
    Leave,
    Move,
    MoveReport,
    OutcomeReport,
    Pass,
    PlayerSetup,
    Reason,
    Record,
    Reflection,
    Replay,
    Result,
    Shot,
    Spot,
    Start,
    Unite,
    Variant,
    parse_coord,
    parse_spot,
    spot_name,
)
from cardgen.resources import templates_dir
from cardgen.schema import (
    Choice,
    Custom,
    Field,
    Flag,
    ListOf,
    Number,
    Records,
    Table,
    Text,
    check,
    describe,
)

GAMES = (GameName.REFLECTOR, GameName.DEFLECTOR, GameName.DEFECTOR)
MAX_PLAYERS = 99  # far more than any table; the engine says which counts a game allows
MAX_MOVES = 20_000  # a game of twelve players has at most a few thousand moves
MAX_SYMBOL = 3  # a mark written in a space
MAX_NAME = 100
EXAMPLES = ("reflector", "deflector")  # the SPEC's worked records, shipped as data

_PLAYER = re.compile(r"^P[1-9][0-9]*$")
_GRID = re.compile(r"^(P|I)[1-9][0-9]*$")


class RecordProblem(Code):
    """What is wrong in a Node-game record or report file beyond its keys' types (those
    are :class:`~cardgen.errors.ConfigProblem`)."""

    MOVE_KIND = "record.move-kind"  # a move that is not exactly one of shot/pass/unite/leave
    PLAYER_ID = "record.player-id"  # player ids not P1, P2 … in seat order
    NO_FIRST = "record.no-first"  # neither `first` nor [start]


def example_record(name: str) -> Path:
    """The shipped worked record ``name`` (one of :data:`EXAMPLES`)."""
    return templates_dir() / "records" / f"{name}.toml"


# --- where things are in a TOML text ------------------------------------------------------


class _Lines:
    """The line of every key and array entry of a TOML text that ``tomllib`` has already
    read (so it is valid TOML): ``player[2]``, ``player[2].nodes``, ``start.marks.P1``,
    ``report[3].won``. A small scanner, not a parser: it never raises, and what it has
    not found is simply absent."""

    def __init__(self, text: str) -> None:
        self.text, self.i = text, 0
        self.breaks = [m.start() for m in re.finditer("\n", text)]
        self.found: dict[str, int] = {}
        self.counts: dict[str, int] = {}
        with contextlib.suppress(IndexError, ValueError, RecursionError):
            self._document()  # (on a surprise, what was found so far stands)

    def line(self, at: int | None = None) -> int:
        return bisect.bisect_left(self.breaks, self.i if at is None else at) + 1

    def _peek(self, n: int = 1) -> str:
        return self.text[self.i:self.i + n]

    def _skip(self, newlines: bool) -> None:
        while self.i < len(self.text):
            ch = self.text[self.i]
            if ch in " \t\r" or (newlines and ch == "\n"):
                self.i += 1
            elif ch == "#":
                end = self.text.find("\n", self.i)
                self.i = len(self.text) if end < 0 else end
            else:
                return

    def _document(self) -> None:
        table = ""
        while True:
            self._skip(True)
            if self.i >= len(self.text):
                return
            if self._peek() == "[":
                table = self._header()
            else:
                self._keyval(table)

    def _header(self) -> str:
        many = self._peek(2) == "[["
        self.i += 2 if many else 1
        self._skip(False)
        parts = self._key()
        self.i += 2 if many else 1
        path = ""
        for k, part in enumerate(parts):
            path = f"{path}.{part}" if path else part
            if k < len(parts) - 1 and path in self.counts:
                path = f"{path}[{self.counts[path]}]"
        if many:
            self.counts[path] = self.counts.get(path, 0) + 1
            path = f"{path}[{self.counts[path]}]"
        self.found.setdefault(path, self.line())
        return path

    def _key(self) -> list[str]:
        parts = []
        while True:
            self._skip(False)
            ch = self._peek()
            if ch in "\"'":
                parts.append(self._string())
            else:
                m = re.compile(r"[A-Za-z0-9_-]+").match(self.text, self.i)
                if m is None:
                    raise ValueError("not a key")
                parts.append(m.group())
                self.i = m.end()
            self._skip(False)
            if self._peek() != ".":
                return parts
            self.i += 1

    def _string(self) -> str:
        quote = self._peek()
        if self._peek(3) == quote * 3:
            end = self.text.index(quote * 3, self.i + 3)
            while self.text[end + 3:end + 4] == quote:  # up to two quotes end the text
                end += 1
            value, self.i = self.text[self.i + 3:end], end + 3
            return value
        j = self.i + 1
        while self.text[j] != quote:
            j += 2 if quote == '"' and self.text[j] == "\\" else 1
        value, self.i = self.text[self.i + 1:j], j + 1
        return value

    def _keyval(self, table: str) -> None:
        line = self.line()
        path = table
        for part in self._key():  # a dotted key names each table on its way
            path = f"{path}.{part}" if path else part
            self.found.setdefault(path, line)
        self._skip(False)
        self.i += 1  # "="
        self._skip(False)
        self._value(path)

    def _value(self, path: str) -> None:
        ch = self._peek()
        if ch == "{":
            self.i += 1
            while True:
                self._skip(True)
                if self._peek() in ("}", ""):
                    self.i += 1
                    return
                if self._peek() == ",":
                    self.i += 1
                    continue
                self._keyval(path)
        elif ch == "[":
            self.i += 1
            index = 0
            while True:
                self._skip(True)
                if self._peek() in ("]", ""):
                    self.i += 1
                    return
                if self._peek() == ",":
                    self.i += 1
                    continue
                index += 1
                self.found.setdefault(f"{path}[{index}]", self.line())
                self._value(f"{path}[{index}]")
        elif ch in "\"'":
            self._string()
        else:
            m = re.compile(r"[^,\]}\n#]*").match(self.text, self.i)
            self.i = m.end() if m is not None and m.end() > self.i else self.i + 1

    def of(self, path: str) -> int | None:
        """The line of ``path``, or of the nearest enclosing key found."""
        while path:
            if path in self.found:
                return self.found[path]
            cut = max(path.rfind("."), path.rfind("["))
            path = path[:cut] if cut > 0 else ""
        return None


_WHERE = re.compile(r"^(?:unknown key |unknown section \[|missing the \[)?"
                    r"([A-Za-z0-9_\-]+(?:\[[0-9]+\])?(?:\.[A-Za-z0-9_\-]+(?:\[[0-9]+\])?)*)"
                    r"(?: item ([0-9]+))?")


def _located(error: ConfigError, lines: _Lines) -> ConfigError:
    """``error`` with each problem starting ``line N:``, the line of the key it names."""
    problems = []
    for problem in error.problems:
        m = _WHERE.match(problem)
        line = None
        if m is not None:
            path = m.group(1) + (f"[{m.group(2)}]" if m.group(2) else "")
            line = lines.of(path)
        problems.append(problem if line is None else problem.reworded(f"line {line}: {problem}"))
    return ConfigError(error.source, problems, value=error.value)


# --- the record's schema ------------------------------------------------------------------


def _spot(value: Any) -> Spot:
    if not isinstance(value, str):
        raise ValueError(f"must be a space written G:Cr in quotes, like \"P2:E1\", not "
                         f"{_describe(value)}")
    found = parse_spot(value)
    if found is None:
        raise ValueError(f"must be a space written G:Cr (a grid P1, P2 … or I1, I2 …, a "
                         f"column A–J and a row 1–10), like \"P2:E1\", not {shorten(value)}")
    return found


def _coord(value: Any) -> tuple[int, int]:
    if not isinstance(value, str):
        raise ValueError(f"must be a space of the player's own grid in quotes, like \"F3\", "
                         f"not {_describe(value)}")
    found = parse_coord(value)
    if found is None:
        raise ValueError(f"must be a space of the player's own grid, a column A–J and a row "
                         f"1–10 like \"F3\", not {shorten(value)}")
    return found


def _player(value: Any) -> str:
    if not isinstance(value, str):
        raise ValueError(f"must be a player id in quotes, like \"P1\", not {_describe(value)}")
    if not _PLAYER.match(value):
        raise ValueError(f"must be a player id, P1, P2 … (seats clockwise), not "
                         f"{shorten(value)}")
    return value


def _grid(value: Any) -> str:
    if not isinstance(value, str) or not _GRID.match(value):
        shown = shorten(value) if isinstance(value, str) else _describe(value)
        raise ValueError(f"must be a grid, a player's (\"P1\") or an Island grid (\"I1\"), "
                         f"not {shown}")
    return value


def _describe(value: Any) -> str:
    return describe(value)


def _items(parse: Callable[[Any], Any], value: Any, what: str) -> list[Any]:
    if not isinstance(value, list):
        raise ValueError(f"must be a list of {what}, not {_describe(value)}")
    found = []
    for i, item in enumerate(value, 1):
        try:
            found.append(parse(item))
        except ValueError as exc:
            raise ValueError(f"item {i} {exc}") from None
    return found


def _pair(value: Any) -> tuple[str, str]:
    players = _items(_player, value, "two player ids")
    if len(players) != 2:
        raise ValueError(f"must be two player ids like [\"P3\", \"P4\"], not {len(players)}")
    return players[0], players[1]


def _group(value: Any) -> tuple[Spot, tuple[str, ...]]:
    if not isinstance(value, list) or not value:
        raise ValueError("must be a Link Node then its members, like [\"P4:G6\", \"P3\", "
                         "\"P4\"]")
    link = _spot(value[0])
    return link, tuple(_items(_player, value[1:], "player ids"))


_SPOT = Custom(_spot, 'a space written G:Cr, like "P2:E1"')
_GRID_ITEM = Custom(_grid, 'a grid, like "P2"')


def _spots(kind: str = "spaces") -> ListOf:
    return ListOf(_SPOT, kind, default=[])


def _players(help: str = "player ids") -> ListOf:
    return ListOf(Custom(_player, 'a player id, like "P1"'), help, default=[])


def _by_player(item: Field, keys: list[str], help: str) -> Table:
    """A table keyed by player id (``[start.marks]``): its keys are the ids it gives and
    the record's players, so a misspelt id gets the nearest one suggested."""
    return Table({key: item for key in keys}, help)


def _alliance_table() -> Table:
    return Table({
        "members": ListOf(Custom(_player, 'a player id, like "P1"'), "the alliance's members",
                          min_items=2),
        "master": Custom(_spot, 'the Master Node, like "P3:D4"', default=None),
        "groups": ListOf(Custom(_group, 'a Link group, like ["P4:G6", "P3", "P4"]'),
                         "the Link groups", default=[]),
    })


def _record_schema(ids: list[str]) -> Table:
    spots = _spots()
    return Table({
        "game": Choice(GAMES, "the game: reflector, deflector or defector"),
        "arrangement": Text("the table's arrangement (SPEC §8)", default=None, nonempty=True,
                            max_length=60),
        "variants": ListOf(Choice(Variant), "the variants played", default=[]),
        "first": Custom(_player, "who shoots first", default=None),
        "player": Records(Table({
            "id": Custom(_player, 'the seat, "P1", "P2" …'),
            "name": Text("the player's name", default="", printed=True, max_length=MAX_NAME),
            "symbol": Text("the mark the player writes", nonempty=True, printed=True,
                           max_length=MAX_SYMBOL),
            "nodes": ListOf(Custom(_coord, 'a space of his own grid, like "F3"'),
                            "the player's Nodes on his own grid"),
            "deflectors": ListOf(Custom(_coord, 'a space of his own grid, like "A2"'),
                                 "the player's Deflectors on his own grid", default=[]),
        }), 'one { id = "P1", name, symbol, nodes } per seat', min_items=1,
            max_items=MAX_PLAYERS),
        "move": Records(Table({
            "by": Custom(_player, "who moves"),
            "at": Custom(_spot, "the space shot at", default=None),
            "pass": Flag("a pass", default=False),
            "unite": Custom(_player, "the player whose side he unites with", default=None),
            "link": Custom(_spot, "the Link Node designated", default=None),
            "group": _players("the members of the new Link group"),
            "master": Custom(_spot, "the Master Node designated", default=None),
            "leave": Flag("leaving his alliance", default=False),
        }), max_items=MAX_MOVES),
        "start": Table({
            "to_move": Custom(_player, "who moves next", default=None),
            "spent": spots,
            "out": _players("the players already out"),
            "divided": ListOf(Custom(_pair, 'two player ids, like ["P3", "P4"]'),
                              "pairs divided for good", default=[]),
            "marks": _by_player(ListOf(_SPOT, "won spaces", default=None), ids,
                                "won spaces by new holder"),
            "homes": _by_player(ListOf(_GRID_ITEM, "home grids", default=None), ids,
                                "home grids by player"),
            "aimed": _by_player(ListOf(_GRID_ITEM, "grids aimed at", default=None), ids,
                                "grids aimed at by player"),
            "turns": _by_player(Number("Deluxe turn count", low=0, high=1000, integer=True,
                                       default=None), ids, "Deluxe turn counts by player"),
            "alliance": Records(_alliance_table()),
        }),
    })


def _ids(data: Mapping[str, Any]) -> list[str]:
    """Player ids the record names: its players' and every key of a ``[start]`` table
    that is written like one (the engine says which are not players)."""
    ids: list[str] = []
    players = data.get("player")
    if isinstance(players, list):
        ids += [p["id"] for p in players if isinstance(p, dict) and isinstance(p.get("id"), str)
                and _PLAYER.match(p["id"])]
    start = data.get("start")
    if isinstance(start, dict):
        for name in ("marks", "homes", "aimed", "turns"):
            given = start.get(name)
            if isinstance(given, dict):
                ids += [k for k in given if _PLAYER.match(k)]
    return sorted(set(ids), key=lambda p: int(p[1:]))


def read_record(path: Path) -> Record:
    """The record in a TOML file (SPEC §9.8); a :class:`ConfigError` names the file and,
    for every problem, its line and key."""
    label = path_text(path)
    return parse_record(read_toml_text(path, "record file", label), label)


def parse_record(text: str, label: str) -> Record:
    """The record in a TOML text (see :func:`read_record`)."""
    return _record_from(parse_toml(text, label), label, _Lines(text))


def _record_from(data: dict[str, Any], label: str, lines: _Lines) -> Record:
    try:
        values = check(_record_schema(_ids(data)), data, label)
    except ConfigError as exc:
        raise _located(exc, lines) from None
    problems: list[Problem] = []

    def note(path: str, text: str, code: Code) -> None:
        line = lines.of(path)
        problems.append(Problem(f"line {line}: {text}" if line else text, code))

    players = []
    for i, p in enumerate(values["player"], 1):
        if p["id"] != f"P{i}":
            note(f"player[{i}].id", f"player[{i}].id is {p['id']}; the players are P1, P2 … "
                "in seat order, so write \"P{i}\".".replace("{i}", str(i)),
                RecordProblem.PLAYER_ID)
        players.append(PlayerSetup(p["id"], p["name"] or p["id"], p["symbol"],
                                   tuple(p["nodes"]), tuple(p["deflectors"]),
                                   lines.of(f"player[{i}]") or 0))
    moves = [_move(m, i, note) for i, m in enumerate(values["move"], 1)]
    begin = _start(values["start"]) if isinstance(data.get("start"), dict) else None
    if begin is None and isinstance(data.get("start"), dict):
        note("start", "start.to_move is missing: a [start] position says who moves next, "
            "like to_move = \"P2\".", ConfigProblem.MISSING)
    first = values["first"]
    if first is None:
        if begin is not None:
            first = begin.to_move
        elif "start" not in data:
            note("first", "first is missing: say who shoots first, like first = \"P1\" (or "
                "give a [start] position with to_move).", RecordProblem.NO_FIRST)
    if problems:
        raise ConfigError(label, problems)
    return Record(values["game"], tuple(players), first, tuple(m for m in moves if m),
                  values["arrangement"], frozenset(values["variants"]), begin,
                  tuple(lines.of(f"move[{i}]") or 0 for i in range(1, len(moves) + 1)))


def _move(m: dict[str, Any], i: int, note: Callable[[str, str, Code], None]) -> Move | None:
    where = f"move[{i}]"
    kinds = [k for k, given in (("at", m["at"] is not None), ("pass", m["pass"]),
                                ("unite", m["unite"] is not None), ("leave", m["leave"]))
             if given]
    extras = [k for k in ("link", "group", "master") if m[k]]
    if len(kinds) != 1:
        said = (f"gives {' and '.join(kinds)}" if kinds else "gives no move")
        note(where, f"{where} {said}; a move is exactly one of at = \"P3:E1\" (a shot), "
            "pass = true, unite = \"P3\" or leave = true.", RecordProblem.MOVE_KIND)
        return None
    if extras and kinds != ["unite"]:
        note(f"{where}.{extras[0]}", f"{where}.{extras[0]} belongs to a unite move only; "
            "remove it.", RecordProblem.MOVE_KIND)
        return None
    if kinds == ["at"]:
        return Shot(m["by"], m["at"])
    if kinds == ["pass"]:
        return Pass(m["by"])
    if kinds == ["leave"]:
        return Leave(m["by"])
    return Unite(m["by"], m["unite"], link=m["link"], group=tuple(m["group"]),
                 master=m["master"])


def _start(s: dict[str, Any]) -> Start | None:
    if s["to_move"] is None:
        return None
    return Start(
        s["to_move"], tuple(s["spent"]), tuple(s["out"]), tuple(s["divided"]),
        {p: tuple(v) for p, v in s["marks"].items() if v is not None},
        {p: tuple(v) for p, v in s["homes"].items() if v is not None} or None,
        {p: tuple(v) for p, v in s["aimed"].items() if v is not None} or None,
        {p: v for p, v in s["turns"].items() if v is not None},
        tuple(_alliance(a) for a in s["alliance"]))


def _alliance(a: dict[str, Any]) -> AllianceView:
    return AllianceView(tuple(a["members"]), a["master"], tuple(a["groups"]))


# --- reports: as data, as TOML, as JSON ---------------------------------------------------


def _names(spots: tuple[Spot, ...]) -> list[str]:
    return [spot_name(s) for s in spots]


def _alliance_data(view: AllianceView) -> dict[str, Any]:
    found: dict[str, Any] = {"members": list(view.members)}
    if view.master is not None:
        found["master"] = spot_name(view.master)
    if view.groups:
        found["groups"] = [[spot_name(link), *members] for link, members in view.groups]
    return found


def move_data(report: MoveReport) -> dict[str, Any]:
    """One ``[[report]]`` as data, in SPEC §9.8's key order: empty keys left out,
    ``legal`` only when false, ``alliance`` only when the alliances changed."""
    found: dict[str, Any] = {"move": report.move}
    if not report.legal:
        found["legal"] = False
        if report.reason is not None:
            found["reason"] = report.reason.value
    if report.path:
        found["path"] = _names(report.path)
    if report.answers:
        found["answers"] = [a.value for a in report.answers]
    for key in ("captured", "revealed", "kept", "used", "spent"):  # as SPEC's examples
        value = getattr(report, key)
        if value:
            found[key] = _names(value)
    if report.won:
        found["won"] = {p: _names(s) for p, s in report.won.items()}
    if report.reflection is not None:
        answer = report.reflection.answer
        found["reflection"] = {"at": spot_name(report.reflection.at),
                               "answer": "nothing" if answer is None else answer.value}
    if report.fired:
        found["fired"] = [{"from": spot_name(f.source), "path": _names(f.path),
                           "answers": [a.value for a in f.answers]} for f in report.fired]
    if report.out:
        found["out"] = list(report.out)
    if report.turns:
        found["turns"] = dict(report.turns)
    if report.alliances is not None:
        found["alliance"] = [_alliance_data(a) for a in report.alliances]
    return found


def outcome_data(outcome: OutcomeReport) -> dict[str, Any]:
    """The ``[outcome]`` as data, empty keys left out."""
    found: dict[str, Any] = {"result": outcome.result.value}
    if outcome.reason is not None:
        found["reason"] = outcome.reason.value
    if outcome.winners:
        found["winners"] = list(outcome.winners)
    if outcome.to_move is not None:
        found["to_move"] = outcome.to_move
    if outcome.stopped_at is not None:
        found["stopped_at"] = outcome.stopped_at
    if outcome.nodes:
        found["nodes"] = dict(outcome.nodes)
    if outcome.spaces:
        found["spaces"] = dict(outcome.spaces)
    return found


def report_data(replay: Replay) -> dict[str, Any]:
    """A replay as the data of its report file: ``{"report": [...], "outcome": {...}}``
    (what :func:`report_toml` writes and ``--json`` prints)."""
    return {"report": [move_data(r) for r in replay.reports],
            "outcome": outcome_data(replay.outcome)}


def report_json(replay: Replay) -> str:
    return json.dumps(report_data(replay), indent=2, ensure_ascii=False)


def _toml(value: Any) -> str:
    """A value as TOML writes it inline (strings, whole numbers, booleans, lists and
    tables of them: all a report holds)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)  # a JSON string is a TOML basic string
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    if isinstance(value, dict):
        if not value:
            return "{}"
        return "{ " + ", ".join(f"{_key(k)} = {_toml(v)}" for k, v in value.items()) + " }"
    raise TypeError(f"a report holds no {type(value).__name__}")


def _key(key: str) -> str:
    return key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else json.dumps(key)


WIDE = 96  # a line longer than this is written as a table of its own


def _comment(lines: list[str], text: str | None) -> None:
    if text:
        lines[-1] += "   # " + " ".join(text.split())


def report_toml(replay: Replay, comments: Mapping[int, str] | None = None,
                closing: str | None = None) -> str:
    """A replay as SPEC §9.8's report TOML: one ``[[report]]`` per move (``comments``
    puts a comment after the header of the move of that index), then ``[outcome]``
    (``closing`` a comment after its header). ``won`` is written inline unless its line
    would be long, then as ``[report.won]``; each fired Deflector is a
    ``[[report.fired]]``. Reading it back (``read_report``) gives ``replay`` again."""
    comments = comments or {}
    lines: list[str] = []
    for report in replay.reports:
        data = move_data(report)
        won = data.pop("won", None)
        fired = data.pop("fired", [])
        alliance = data.pop("alliance", None)
        if lines:
            lines.append("")
        lines.append("[[report]]")
        _comment(lines, comments.get(report.move))
        if won is not None and len(f"won = {_toml(won)}") <= WIDE:
            data = {**data, "won": won}
            won = None
        if alliance is not None:
            data["alliance"] = alliance
        ordered = [(k, data[k]) for k in _REPORT_KEYS if k in data]
        if "alliance" in data and len(f"alliance = {_toml(data['alliance'])}") > WIDE:
            ordered = [(k, v) for k, v in ordered if k != "alliance"]
        else:
            alliance = None
        lines += [f"{k} = {_toml(v)}" for k, v in ordered]
        if won is not None:
            lines.append("[report.won]")
            lines += [f"{_key(p)} = {_toml(s)}" for p, s in won.items()]
        for one in fired:
            lines.append("[[report.fired]]")
            lines += [f"{_key(k)} = {_toml(v)}" for k, v in one.items()]
        for one in alliance or []:
            lines.append("[[report.alliance]]")
            lines += [f"{_key(k)} = {_toml(v)}" for k, v in one.items()]
    if lines:
        lines.append("")
    lines.append("[outcome]")
    _comment(lines, closing)
    lines += [f"{k} = {_toml(v)}" for k, v in outcome_data(replay.outcome).items()]
    return "\n".join(lines) + "\n"


_REPORT_KEYS = ("move", "legal", "reason", "path", "answers", "captured", "revealed", "kept",
                "used", "spent", "won", "reflection", "out", "turns", "alliance")


# --- reading a report ---------------------------------------------------------------------


def _answer(value: Any) -> Answer:
    for answer in Answer:
        if value == answer.value:
            return answer
    shown = shorten(value) if isinstance(value, str) else _describe(value)
    raise ValueError(f"must be one of Null, Owned, Node or Deflector, not {shown}")


def _reflected(value: Any) -> Answer | None:
    if value == "nothing":
        return None
    try:
        return _answer(value)
    except ValueError:
        raise ValueError("must be Null, Owned, Node, Deflector or nothing, not "
                         + (shorten(value) if isinstance(value, str) else _describe(value))
                         ) from None


def _holders(value: Any) -> dict[str, tuple[Spot, ...]]:
    if not isinstance(value, dict):
        raise ValueError(f"must be a table of player ids and spaces, like {{ P1 = "
                         f"[\"P2:E1\"] }}, not {_describe(value)}")
    found = {}
    for player, spots in value.items():
        _player(player)
        try:
            found[player] = tuple(_items(_spot, spots, "spaces"))
        except ValueError as exc:
            raise ValueError(f"{player} {exc}") from None
    return found


def _counts(value: Any) -> dict[str, int]:
    if not isinstance(value, dict):
        raise ValueError(f"must be a table of player ids and numbers, like {{ P1 = 5 }}, "
                         f"not {_describe(value)}")
    for player, count in value.items():
        _player(player)
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise ValueError(f"{player} must be a whole number, 0 or more, not "
                             f"{_describe(count)}")
    return dict(value)


_ANSWERS = ListOf(Custom(_answer, "Null, Owned, Node or Deflector"), "answers", default=[])


def _report_schema() -> Table:
    return Table({
        "report": Records(Table({
            "move": Number("the move's index, from 1", low=1, high=MAX_MOVES, integer=True),
            "legal": Flag("whether the move is legal", default=True),
            "reason": Choice(Reason, "why the move is illegal", default=None),
            "path": _spots(), "answers": _ANSWERS, "used": _spots(), "captured": _spots(),
            "revealed": _spots(), "kept": _spots(), "spent": _spots(),
            "won": Custom(_holders, "spaces by new holder", default={}),
            "fired": Records(Table({"from": Custom(_spot, "the Deflector's space"),
                                    "path": _spots(), "answers": _ANSWERS})),
            "reflection": Table({
                "at": Custom(_spot, "the reflected space", default=None),
                "answer": Custom(_reflected, "its answer", default=None)}),
            "out": _players(),
            "turns": Custom(_counts, "Deluxe turn counts", default={}),
            "alliance": Records(_alliance_table()),
        }), max_items=MAX_MOVES),
        "outcome": Table({
            "result": Choice(Result, "win, draw or not-over"),
            "reason": Choice(Ending, "why the game ended", default=None),
            "winners": _players(),
            "to_move": Custom(_player, "who moves next", default=None),
            "stopped_at": Number("the illegal move's index", low=1, high=MAX_MOVES,
                                 integer=True, default=None),
            "nodes": Custom(_counts, "Node counts", default={}),
            "spaces": Custom(_counts, "space counts", default={}),
        }, optional=False),
    })


def read_report(path: Path) -> Replay:
    """A report TOML (the referee's, or a hand-written expected one) as a
    :class:`Replay`; a :class:`ConfigError` names the file, line and key."""
    label = path_text(path)
    return parse_report(read_toml_text(path, "report file", label), label)


def parse_report(text: str, label: str) -> Replay:
    return _report_from(parse_toml(text, label), label, _Lines(text))


def _report_from(data: dict[str, Any], label: str, lines: _Lines) -> Replay:
    try:
        values = check(_report_schema(), data, label)
    except ConfigError as exc:
        raise _located(exc, lines) from None
    reports = []
    for i, r in enumerate(values["report"], 1):
        given = data["report"][i - 1]
        reflection = None
        if "reflection" in given:
            at = r["reflection"]["at"]
            if at is None:
                line = lines.of(f"report[{i}].reflection")
                raise ConfigError(label, [Problem(
                    f"line {line}: report[{i}].reflection.at is missing; write the reflected "
                    "space, like at = \"P1:E1\".", ConfigProblem.MISSING)])
            reflection = Reflection(at, r["reflection"]["answer"])
        reports.append(MoveReport(
            r["move"], r["legal"], r["reason"], tuple(r["path"]), tuple(r["answers"]),
            tuple(r["used"]), tuple(r["captured"]), tuple(r["revealed"]), tuple(r["kept"]),
            tuple(r["spent"]), r["won"],
            tuple(Fired(f["from"], tuple(f["path"]), tuple(f["answers"])) for f in r["fired"]),
            reflection, tuple(r["out"]),
            tuple(_alliance(a) for a in r["alliance"]) if "alliance" in given else None,
            r["turns"]))
    o = values["outcome"]
    return Replay(tuple(reports), OutcomeReport(
        o["result"], o["reason"], tuple(o["winners"]), o["to_move"], o["stopped_at"],
        o["nodes"], o["spaces"]))


def move_comment(record: Record, report: MoveReport, error: IllegalMove | None = None) -> str:
    """A short comment on a move for a report a person reads: who did what and, for a
    shot, the answers and what was captured; for the illegal move, why (``error``'s
    words, reason code and rule)."""
    if report.move > len(record.moves):  # a bad set-up, reported on move 1
        said = f"the set-up breaks a rule: {error}" if error else "the set-up breaks a rule"
        return said
    move = record.moves[report.move - 1]
    if isinstance(move, Shot):
        said = f"{move.by} shoots {spot_name(move.at)}"
    elif isinstance(move, Pass):
        said = f"{move.by} passes"
    elif isinstance(move, Unite):
        said = f"{move.by} unites with {move.other}"
    else:
        said = f"{move.by} leaves the alliance"
    if not report.legal:
        return f"{said}: illegal, {error}" if error else f"{said}: illegal"
    if report.answers:
        said += ": " + ", ".join(a.value for a in report.answers)
    if report.captured:
        said += "; captures " + " ".join(_names(report.captured))
    if report.fired:
        said += f"; {len(report.fired)} Deflector{'s' if len(report.fired) > 1 else ''} fire"
    if report.reflection is not None:
        answer = report.reflection.answer
        said += (f"; reflected at {spot_name(report.reflection.at)}: "
                 f"{'nothing' if answer is None else answer.value}")
    if report.out:
        said += "; out: " + " ".join(report.out)
    return said


def outcome_comment(outcome: OutcomeReport) -> str:
    if outcome.result is Result.WIN:
        return f"{' and '.join(outcome.winners)} won ({outcome.reason})"
    if outcome.result is Result.DRAW:
        return f"a draw ({outcome.reason}) between {' and '.join(outcome.winners)}"
    if outcome.stopped_at is not None:
        return f"stopped at move {outcome.stopped_at}; {outcome.to_move} to move"
    return f"not over; {outcome.to_move} to move"


def commented_report(record: Record, replay: Replay, error: IllegalMove | None = None) -> str:
    """:func:`report_toml` with a comment on every move and on the outcome."""
    return report_toml(replay, {r.move: move_comment(record, r, error) for r in replay.reports},
                       outcome_comment(replay.outcome))
