"""A small reader of SPEC §9.8 records and reports for the engine's tests: the record as
:class:`~cardgen.games.nodes.record.Record`, and a replay as the data its report TOML
holds (empty keys left out, ``legal`` only when false), so that an expected report read
with ``tomllib`` compares with ``==``. The command line's reader (``recordfile``) is
tested on its own; this one trusts its input."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from cardgen.games.names import GameName
from cardgen.games.nodes import recordfile
from cardgen.games.nodes.record import (
    AllianceView,
    Leave,
    Move,
    MoveReport,
    OutcomeReport,
    Pass,
    PlayerSetup,
    Record,
    Replay,
    Shot,
    Spot,
    Start,
    Unite,
    Variant,
    parse_coord,
    parse_spot,
)

DATA = Path(__file__).parent / "data" / "nodes"


def spot(text: str) -> Spot:
    found = parse_spot(text)
    assert found is not None, text
    return found


def _coords(texts: list[str]) -> tuple[tuple[int, int], ...]:
    found = []
    for text in texts:
        coord = parse_coord(text)
        assert coord is not None, text
        found.append(coord)
    return tuple(found)


def move(data: dict[str, Any]) -> Move:
    by = data["by"]
    if "at" in data:
        return Shot(by, spot(data["at"]))
    if data.get("pass"):
        return Pass(by)
    if data.get("leave"):
        return Leave(by)
    return Unite(by, data["unite"], link=spot(data["link"]) if "link" in data else None,
                 group=tuple(data.get("group", ())),
                 master=spot(data["master"]) if "master" in data else None)


def alliance(data: dict[str, Any]) -> AllianceView:
    return AllianceView(tuple(data["members"]),
                        spot(data["master"]) if data.get("master") else None,
                        tuple((spot(g[0]), tuple(g[1:])) for g in data.get("groups", ())))


def record(data: dict[str, Any]) -> Record:
    players = tuple(PlayerSetup(p["id"], p.get("name", p["id"]), p["symbol"],
                                _coords(p["nodes"]), _coords(p.get("deflectors", [])))
                    for p in data["player"])
    begin = None
    if "start" in data:
        s = data["start"]
        begin = Start(
            s["to_move"], tuple(spot(x) for x in s.get("spent", [])), tuple(s.get("out", [])),
            tuple((d[0], d[1]) for d in s.get("divided", [])),
            {p: tuple(spot(x) for x in xs) for p, xs in s.get("marks", {}).items()},
            {p: tuple(g) for p, g in s["homes"].items()} if "homes" in s else None,
            {p: tuple(g) for p, g in s["aimed"].items()} if "aimed" in s else None,
            dict(s.get("turns", {})), tuple(alliance(a) for a in s.get("alliance", [])))
    return Record(GameName(data["game"]), players, data["first"],
                  tuple(move(m) for m in data.get("move", [])), data.get("arrangement"),
                  frozenset(Variant(v) for v in data.get("variants", [])), begin)


def read_record(path: Path | str) -> Record:
    return record(tomllib.loads(Path(DATA / path).read_text()))


def read_expected(path: Path | str) -> dict[str, Any]:
    return tomllib.loads(Path(DATA / path).read_text())


def report_data(report: MoveReport) -> dict[str, Any]:
    """A move's report as its TOML holds it (the record reader's own writer)."""
    return recordfile.move_data(report)


def outcome_data(outcome: OutcomeReport) -> dict[str, Any]:
    return recordfile.outcome_data(outcome)


def replay_data(replay: Replay) -> dict[str, Any]:
    return recordfile.report_data(replay)


# --- building records by hand, for the rules' tests ---------------------------------------

# Where a test's players keep the Deflectors it does not place itself: rows 10, 9, 8, far
# from the Nodes of DEFAULT_NODES (row 5) and from the shots the tests make.
PARKING = [(c, r) for r in (10, 9, 8) for c in range(10)]
DEFAULT_NODES = ("A5", "C5", "E5", "G5", "I5")  # Rows 1-2 and 8-10 are uncovered


def seats(game: GameName, nodes: list[tuple[str, ...]],
          deflectors: list[tuple[str, ...]] | None = None) -> tuple[PlayerSetup, ...]:
    """Players P1 … Pn with these Nodes and (Deflector, Defector) these Deflectors,
    topped up to 20 from PARKING."""
    found = []
    for k, placed in enumerate(nodes, 1):
        coords = _coords(list(placed))
        chosen: list[tuple[int, int]] = []
        if game is not GameName.REFLECTOR:
            chosen = list(_coords(list(deflectors[k - 1]))) if deflectors else []
            for c in PARKING:
                if len(chosen) == 20:
                    break
                if c not in chosen and c not in coords:
                    chosen.append(c)
        found.append(PlayerSetup(f"P{k}", f"Player {k}", "XOTSVWZHKMNA"[k - 1], coords,
                                 tuple(chosen)))
    return tuple(found)


def build(game: str, players: int = 2, *, nodes: dict[int, tuple[str, ...]] | None = None,
          deflectors: dict[int, tuple[str, ...]] | None = None, moves: tuple[str, ...] = (),
          first: str = "P1", arrangement: str | None = None, variants: tuple[str, ...] = (),
          start: Start | None = None) -> Record:
    """A record: ``nodes``/``deflectors`` by seat number (others get DEFAULT_NODES and
    parked Deflectors), ``moves`` written ``"P1 P2:E1"``, ``"P2 pass"``, ``"P4 leave"``
    or ``"P4 unite P3 link=P4:G6 master=… group=P3,P4"``."""
    name = GameName(game)
    if arrangement is None and name is not GameName.REFLECTOR:
        arrangement = ("defector-full" if name is GameName.DEFECTOR
                       else {3: "table-3", 4: "table-4-full", 5: "table-5-full"}[players])
    all_nodes = [(nodes or {}).get(k, DEFAULT_NODES) for k in range(1, players + 1)]
    all_defl = [(deflectors or {}).get(k, ()) for k in range(1, players + 1)]
    return Record(name, seats(name, all_nodes, all_defl), first,
                  tuple(parse_move(m) for m in moves), arrangement,
                  frozenset(Variant(v) for v in variants), start)


def parse_move(text: str) -> Move:
    by, what, *rest = text.split()
    if what == "pass":
        return Pass(by)
    if what == "leave":
        return Leave(by)
    if what == "unite":
        options = dict(r.split("=") for r in rest[1:])
        return Unite(by, rest[0], link=spot(options["link"]) if "link" in options else None,
                     group=tuple(options["group"].split(",")) if "group" in options else (),
                     master=spot(options["master"]) if "master" in options else None)
    return Shot(by, spot(what))


def begin(to_move: str, marks: dict[str, list[str]] | None = None, **kw: Any) -> Start:
    """A ``[start]``: marks by player as ``G:Cr`` names; ``spent`` likewise."""
    if "spent" in kw:
        kw["spent"] = tuple(spot(s) for s in kw["spent"])
    return Start(to_move, marks={p: tuple(spot(s) for s in ss)
                                 for p, ss in (marks or {}).items()}, **kw)
