"""SPEC §9, rule by rule: every numbered rule of §9 (9.1.1 … 9.6.10) has at least one
test here that names it (``@rule("9.x.y")``), and every reason code of §9.8 is reported
by a referee replay of a record that breaks it. ``test_every_rule_has_a_test`` checks
the list below, copied from SPEC §9 (CI has no SPEC to read).

Positions are built as records (``tests/nodes_records.build``): players keep Nodes on
Row 5 (A5 C5 E5 G5 I5) unless a test places them, so Rows 1-2 and 8-10 are uncovered,
and park the Deflectors a test does not place on Rows 10, 9 and 8. ``[start]``
positions set up the middle of a game. Expected reports are worked out by hand from
the SPEC in each test's comments."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from cardgen.games.nodes import engine
from cardgen.games.nodes.engine import legal_moves, push, replay, start
from cardgen.games.nodes.record import IllegalMove, Pass, Reason, Record, Shot, Start
from cardgen.games.nodes.state import State
from tests.nodes_records import begin, build, replay_data, spot

# Every numbered rule of SPEC §9 (§9.1.1 … §9.6.10), as listed there.
RULES = (
    [f"9.1.{i}" for i in range(1, 9)] + [f"9.2.{i}" for i in range(1, 6)]
    + [f"9.3.{i}" for i in range(1, 5)] + [f"9.4.{i}" for i in range(1, 5)]
    + [f"9.5.{i}" for i in range(1, 12)] + [f"9.6.{i}" for i in range(1, 11)])
# §9.8's reason codes, in its order of precedence.
REASONS = ["bad-setup", "not-your-turn", "player-out", "no-such-space", "own-grid", "held",
           "own-territory", "ally", "out-of-reach", "not-down", "can-shoot", "divided",
           "two-masters", "bad-link", "not-allied"]


def rule(*numbers: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Mark a test as a test of these numbered rules of SPEC §9."""
    def mark(test: Callable[..., Any]) -> Callable[..., Any]:
        test.rules = (*getattr(test, "rules", ()), *numbers)  # type: ignore[attr-defined]
        return test
    return mark


def reports(record: Record) -> list[dict[str, Any]]:
    return replay_data(replay(record))["report"]


def last(record: Record) -> dict[str, Any]:
    return reports(record)[-1]


def outcome(record: Record) -> dict[str, Any]:
    return replay_data(replay(record))["outcome"]


def after(record: Record) -> State:
    state = start(record)
    for move in record.moves:
        state = push(state, move)[0]
    return state


def reason(record: Record) -> str | None:
    found = last(record)
    return found.get("reason")


# --- 9.1 grids, notation, state ---------------------------------------------------------

@rule("9.1.1", "9.5.5")
def test_turns_go_clockwise_and_skip_a_player_who_is_out_but_keeps_his_seat():
    game = build("deflector", 4, moves=("P1 P3:E1",), start=begin("P1", out=("P2",)))
    assert outcome(game)["to_move"] == "P3"
    fresh = build("deflector", 4, moves=("P1 P3:E1", "P2 P1:A4", "P3 P4:J4"))
    assert outcome(fresh)["to_move"] == "P4"


@rule("9.1.2", "9.1.3")
def test_grids_are_the_players_and_the_island_and_nothing_else():
    assert reason(build("reflector", moves=("P1 P3:E1",))) == "no-such-space"
    assert reason(build("deflector", 4, moves=("P1 I1:A1",))) == "no-such-space"
    island = build("defector", 6, arrangement="defector-island", moves=("P1 I1:A1",))
    assert last(island) == {"move": 1, "path": ["I1:A1"], "answers": ["Null"],
                            "won": {"P1": ["I1:A1"]}}


@rule("9.1.3", "9.3.3")
def test_a_capture_lists_its_node_then_its_territory_in_reading_order():
    # P2's Node C1 (Row 1 entry): T(C1) = A1 B1 C1 D1 E1 / B2 C2 D2 / C3
    game = build("reflector", nodes={2: ("C1", "A9", "C9", "H9", "J9")}, moves=("P1 P2:C1",))
    assert last(game)["won"]["P1"] == ["P2:C1", "P2:A1", "P2:B1", "P2:D1", "P2:E1",
                                       "P2:B2", "P2:C2", "P2:D2", "P2:C3"]


@rule("9.1.4")
def test_territories_have_13_12_11_9_8_or_6_spaces_and_stay_on_their_grid():
    state = start(build("reflector", nodes={1: ("E5", "B3", "B2", "A3", "A1"),
                                            2: ("A2", "J10", "J1", "A10", "E1")}))
    sizes = {n: len(state.setup.territory(spot(n)))
             for n in ("P1:E5", "P1:B3", "P1:B2", "P1:A3", "P2:A2", "P1:A1")}
    assert sizes == {"P1:E5": 13, "P1:B3": 12, "P1:B2": 11, "P1:A3": 9, "P2:A2": 8,
                     "P1:A1": 6}
    # P2:E1 sits at the fold: its territory does not cross to P1's Row 1
    assert {s[0] for s in state.setup.territory(spot("P2:E1"))} == {"P2"}


@rule("9.1.5")
def test_spaces_meet_by_a_side_never_by_a_corner():
    # After move 2, Ann holds P2:E1 and P2:E2 (the reflection of Bob's P1:E2)
    moves = ("P1 P2:E1", "P2 P1:E2")
    assert reason(build("reflector", moves=(*moves, "P1 P2:F3"))) == "out-of-reach"
    assert "reason" not in last(build("reflector", moves=(*moves, "P1 P2:F2")))


@rule("9.1.6")
def test_a_base_reaches_across_a_join():
    # table-4-full: P1's Column A meets P2's Column J, same rows. Cy's base P1:A4 reaches
    # P2:J4 (d(I5) = 2: Owned); P2:J6 faces P1:A6, which is not his, and P2's Column J
    # is joined to P1, not to Cy's home: no entry.
    position = begin("P3", {"P3": ["P1:A4"]})
    shot = last(build("deflector", 4, moves=("P3 P2:J4",), start=position))
    assert shot == {"move": 1, "path": ["P2:J4"], "answers": ["Owned"],
                    "won": {"P3": ["P2:J4"]}}
    assert reason(build("deflector", 4, moves=("P3 P2:J6",), start=position)) == "out-of-reach"


@rule("9.1.7")
def test_the_holder_of_a_space_is_its_mark_else_its_owner_and_own_spaces_are_no_bases():
    state = start(build("deflector", 4, start=begin("P1", {"P1": ["P2:A5"]})))
    assert state.holder(spot("P2:A5")) == "P1" and state.holder(spot("P2:B5")) == "P2"
    assert [state.node_count(p) for p in ("P1", "P2", "P3", "P4")] == [6, 4, 5, 5]
    island = start(build("defector", 6, arrangement="defector-island"))
    assert island.holder(spot("I1:A1")) is None
    # Bob has aimed at P1 and holds P1:A2, so his entry there is closed; his own unwon
    # P2:J4 faces P1:A4 but is not a base of his.
    closed = begin("P2", {"P2": ["P1:A2"]}, aimed={"P2": ("P1",)})
    assert reason(build("deflector", 4, moves=("P2 P1:A4",), start=closed)) == "out-of-reach"
    assert reason(build("deflector", 4, moves=("P2 P1:A1",),
                        start=begin("P2"))) is None  # not aimed yet: entry


@rule("9.1.8")
def test_a_view_holds_own_and_allies_secrets_and_the_public_facts_only():
    from dataclasses import replace as swap

    from cardgen.games.nodes.knowledge import view
    from cardgen.games.nodes.state import Fact
    from tests.nodes_records import read_record

    example = read_record("reflector-example.toml")
    # Bob's I8 moved to I9: nothing the eight legal shots revealed changes
    bob = swap(example.players[1], nodes=tuple((8, 9) if c == (8, 8) else c
                                               for c in example.players[1].nodes))
    other = swap(example, players=(example.players[0], bob), moves=example.moves[:8])
    one, two = after(swap(example, moves=example.moves[:8])), after(other)
    assert view(one, "P1") == view(two, "P1")  # Ann cannot tell the two apart
    assert view(one, "P2") != view(two, "P2")  # Bob can
    ann = view(one, "P1")
    assert set(ann.secrets) == {"P1"} and ann.secrets["P1"].nodes == frozenset(
        example.players[0].nodes)
    assert ann.known(spot("P2:D4")) >= {Fact.NODE} and Fact.COVERED in ann.known(
        spot("P2:C3"))
    assert ann.known(spot("P2:E1")) >= {Fact.UNCOVERED, Fact.NOT_NODE}
    assert ann.known(spot("P2:I8")) == frozenset()  # never answered
    assert ann.legal and all(m.by == "P1" for m in ann.legal)
    assert view(one, "P2").legal == ()  # not his turn
    # allies know each other's secrets, and keep them after parting (decision 53)
    allied = after(build("defector", 6, moves=("P3 unite P4 link=P3:A5", "P4 leave")))
    assert set(view(allied, "P3").secrets) == {"P3", "P4"}
    assert set(view(allied, "P5").secrets) == {"P5"}


# --- 9.2 set-up ---------------------------------------------------------------------------

@rule("9.2.1")
def test_five_different_nodes_anywhere_on_the_grid():
    edges = build("reflector", nodes={1: ("A1", "B1", "A2", "J10", "J9")}, moves=("P1 P2:A1",))
    assert "reason" not in last(edges)  # corners, neighbours and overlaps are allowed
    assert reason(build("reflector", nodes={1: ("A1", "B1", "A2", "J10")})) == "bad-setup"
    assert reason(build("reflector", nodes={1: ("A1", "B1", "A2", "J10", "J10")})) == \
        "bad-setup"


@rule("9.2.2")
def test_twenty_deflectors_off_the_nodes_and_none_in_reflector():
    assert reason(build("deflector", 3, deflectors={1: ("A5",)})) == "bad-setup"  # a Node
    assert replay(build("deflector", 3, deflectors={2: ("A1", "J1", "E4")})).reports == ()
    short = build("deflector", 3)
    setups = list(short.players)
    setups[0] = type(setups[0])("P1", "Ann", "X", setups[0].nodes, setups[0].deflectors[:19])
    from dataclasses import replace as swap
    assert reason(swap(short, players=tuple(setups))) == "bad-setup"
    with_deflectors = swap(build("reflector"), players=tuple(
        swap(p, deflectors=((0, 1),)) for p in build("reflector").players))
    assert reason(with_deflectors) == "bad-setup"


@rule("9.2.3")
def test_every_symbol_is_different():
    from dataclasses import replace as swap
    game = build("reflector")
    same = swap(game, players=tuple(swap(p, symbol="X") for p in game.players))
    assert reason(same) == "bad-setup"


@rule("9.2.4")
def test_first_names_who_starts():
    assert reason(build("reflector", first="P2", moves=("P1 P2:E1",))) == "not-your-turn"
    assert "reason" not in last(build("reflector", first="P2", moves=("P2 P1:E1",)))
    assert reason(build("deflector", 3, first="P9")) == "bad-setup"


@rule("9.2.5")
def test_a_bad_setup_is_refused_before_play_and_defector_unites_before_the_first_shot():
    bad = replay(build("reflector", nodes={1: ("A1",)}, moves=("P1 P2:E1",)))
    assert replay_data(bad) == {"report": [{"move": 1, "legal": False,
                                            "reason": "bad-setup"}],
                                "outcome": {"result": "not-over", "to_move": "P1",
                                            "stopped_at": 1}}
    # before the first shot anyone unites; after it, only the player to move
    early = build("defector", 6, moves=("P3 unite P5 link=P3:A5", "P1 P2:E1"))
    assert [r.get("reason") for r in reports(early)] == [None, None]
    late = build("defector", 6, moves=("P1 P2:E1", "P3 unite P5 link=P3:A5"))
    assert reason(late) == "not-your-turn"


# --- 9.3 landings, captures, reflection -------------------------------------------------

@rule("9.3.1")
def test_answers_come_in_order_and_a_deflector_sends_the_shot_on():
    # P1 aims straight across at P3 (clockwise): P3:E1 Deflector, then P4:E1 Null
    game = build("deflector", 4, deflectors={3: ("E1",)}, moves=("P1 P3:E1",))
    assert last(game) == {"move": 1, "path": ["P3:E1", "P4:E1"],
                          "answers": ["Deflector", "Null"], "used": ["P3:E1"],
                          "won": {"P1": ["P4:E1"]}}


@rule("9.3.1")
def test_a_landing_the_claimant_may_not_take_or_an_out_player_claims_is_spent():
    held = build("deflector", 4, deflectors={3: ("E1",)}, moves=("P1 P3:E1",),
                 start=begin("P1", {"P1": ["P4:E1"]}))
    assert last(held) == {"move": 1, "path": ["P3:E1", "P4:E1"],
                          "answers": ["Deflector", "Null"], "used": ["P3:E1"],
                          "spent": ["P4:E1"]}
    # back on Ann's grid the original Target P3 claims P1:E1, but he is out (decision 55)
    out = build("deflector", 4, deflectors={3: ("E1",), 4: ("E1",)}, moves=("P1 P3:E1",),
                start=begin("P1", out=("P3",)))
    assert last(out) == {"move": 1, "path": ["P3:E1", "P4:E1", "P1:E1"],
                         "answers": ["Deflector", "Deflector", "Null"],
                         "used": ["P3:E1", "P4:E1"], "spent": ["P1:E1"]}


@rule("9.3.2")
def test_a_won_space_inside_your_own_territory_cannot_be_won_back():
    # Ann holds P2's Node E5 and D5 beside it; Cy has won P2:E4, inside T(E5)
    state = start(build("deflector", 4, start=begin(
        "P1", {"P1": ["P2:E5", "P2:D5"], "P3": ["P2:E4"]})))
    assert engine.problem(state, Shot("P1", spot("P2:E4"))).reason is Reason.OWN_TERRITORY
    assert engine.problem(state, Shot("P1", spot("P2:F5"))) is None  # unwon: takeable
    assert engine.problem(state, Shot("P1", spot("P2:C5"))) is None  # a Node: takeable
    assert engine.problem(state, Shot("P1", spot("P2:D5"))).reason is Reason.HELD


@rule("9.3.3")
def test_a_capture_keeps_the_overlap_reveals_nodes_there_and_captures_no_other_node():
    from tests.nodes_records import read_record
    found = reports(read_record("reflector-example.toml"))
    assert found[5]["captured"] == ["P1:C3"] and found[5]["revealed"] == ["P1:D4"]
    assert found[5]["won"]["P2"][0] == "P1:C3"  # the Node's own space, inside T(D4)
    example2 = reports(read_record("deflector-example.toml"))
    assert example2[5]["used"] == ["P1:A2", "P1:C4"]  # C4 in the kept part fires too
    assert [f["from"] for f in example2[5]["fired"]] == ["P1:A2", "P1:C4"]


@rule("9.3.4")
def test_reflection_concedes_the_same_space_and_a_conceded_node_is_captured():
    # Ann captures Cy's Node P3:E1; she concedes P1:E1, her own Node, and Cy captures it;
    # its Deflector D1 fires from Cy towards Ann (straight across: clockwise), to P2:D1.
    game = build("deflector", 4, variants=("reflection",),
                 nodes={1: ("E1", "A7", "C7", "G7", "I7"), 3: ("E1", "A6", "C6", "H6", "J6")},
                 deflectors={1: ("D1",)}, moves=("P1 P3:E1",))
    assert last(game) == {
        "move": 1, "path": ["P3:E1"], "answers": ["Node"], "used": ["P1:D1"],
        "captured": ["P3:E1", "P1:E1"],
        "won": {"P1": ["P3:E1", "P3:C1", "P3:D1", "P3:F1", "P3:G1", "P3:D2", "P3:E2",
                       "P3:F2", "P3:E3"],
                "P3": ["P1:E1", "P1:C1", "P1:F1", "P1:G1", "P1:D2", "P1:E2", "P1:F2",
                       "P1:E3", "P2:D1"]},
        "fired": [{"from": "P1:D1", "path": ["P2:D1"], "answers": ["Null"]}],
        "reflection": {"at": "P1:E1", "answer": "Node"}}


@rule("9.3.4", "9.5.11")
def test_when_there_is_no_reflection():
    def shot(**kw: Any) -> dict[str, Any]:
        return last(build("deflector", 4, variants=("reflection",), **kw))
    # the reflected space is no longer the Shooter's: "nothing"
    assert shot(moves=("P1 P3:E1",), start=begin("P1", {"P3": ["P1:E1"]}))[
        "reflection"] == {"at": "P1:E1", "answer": "nothing"}
    # the shot won nothing (spent)
    assert "reflection" not in shot(deflectors={3: ("E1",)}, moves=("P1 P3:E1",),
                                    start=begin("P1", {"P1": ["P4:E1"]}))
    # the shot landed on the Shooter's grid on its way, then won P2:E1 for him
    way = shot(deflectors={3: ("E1",), 4: ("E1",), 1: ("E1",)}, moves=("P1 P3:E1",))
    assert way["path"] == ["P3:E1", "P4:E1", "P1:E1", "P2:E1"]
    assert way["won"] == {"P1": ["P2:E1"]} and "reflection" not in way
    # the space was held by a player who is out
    assert "reflection" not in shot(moves=("P1 P3:E1",), start=begin("P1", out=("P3",)))
    # a space of the Shooter's own grid, won back
    assert "reflection" not in shot(moves=("P1 P1:E1",), start=begin("P1", {"P2": ["P1:E1"],
                                                                           "P1": ["P1:E2"]}))
    # a Deflector on the reflected space does not act: used, and answered from beneath
    concede = shot(deflectors={1: ("E1",)}, moves=("P1 P3:E1",))
    assert concede["used"] == ["P1:E1"]
    assert concede["reflection"] == {"at": "P1:E1", "answer": "Null"}
    assert concede["won"] == {"P1": ["P3:E1"], "P3": ["P1:E1"]}
    # and plain Deflector has no reflection at all
    assert "reflection" not in last(build("deflector", 4, moves=("P1 P3:E1",)))


# --- 9.4 Reflector -------------------------------------------------------------------------

@rule("9.4.1")
def test_reflector_plays_alike_on_every_setup_and_needs_no_arrangement():
    from dataclasses import replace as swap

    from tests.nodes_records import read_record
    example = read_record("reflector-example.toml")
    expected = replay_data(replay(example))
    for name in (None, "reflector-fold", "reflector-three-cards"):
        assert replay_data(replay(swap(example, arrangement=name))) == expected
    assert reason(swap(example, arrangement="table-3")) == "bad-setup"


@rule("9.4.2")
def test_reflector_turns_alternate():
    assert reason(build("reflector", moves=("P1 P2:E1", "P1 P2:E2"))) == "not-your-turn"
    assert outcome(build("reflector", moves=("P1 P2:E1", "P2 P1:E2")))["to_move"] == "P1"


@rule("9.4.3")
def test_reflector_shots_row_1_first_then_spaces_that_meet_a_base():
    assert reason(build("reflector", moves=("P1 P1:E1",))) == "own-grid"
    assert reason(build("reflector", moves=("P1 P2:E2",))) == "out-of-reach"
    assert reason(build("reflector", moves=("P1 P2:E1", "P2 P1:E2", "P1 P2:E1"))) == "held"
    # kept spaces can be shot (Owned), and after his first shot a player always has one
    state = start(build("reflector"))
    assert {s.at for s in legal_moves(state)} == {("P2", c, 1) for c in range(10)}
    assert reason(build("reflector", moves=("P1 pass",))) == "can-shoot"


@rule("9.4.4")
def test_reflector_ends_when_a_player_has_lost_all_his_nodes():
    # Ann holds four of Bob's Nodes and P2:I4; she takes I5 and concedes her own P1:I5
    game = build("reflector", moves=("P1 P2:I5",), start=begin(
        "P1", {"P1": ["P2:A5", "P2:C5", "P2:E5", "P2:G5", "P2:I4"]}))
    assert outcome(game) == {"result": "win", "reason": "all-nodes", "winners": ["P1"],
                             "nodes": {"P1": 9, "P2": 1}}
    assert legal_moves(after(game)) == []


@rule("9.4.4")
def test_reflector_double_loss_goes_to_the_space_count_or_is_a_true_draw():
    # each holds the other's Nodes but E5; Ann takes P2:E5 and concedes her last, P1:E5
    marks = {"P1": ["P2:A5", "P2:C5", "P2:G5", "P2:I5", "P2:E4"],
             "P2": ["P1:A5", "P1:C5", "P1:G5", "P1:I5", "P1:E4"]}
    draw = build("reflector", moves=("P1 P2:E5",), start=begin("P1", marks))
    assert outcome(draw) == {"result": "draw", "reason": "true-draw", "winners": ["P1", "P2"],
                             "nodes": {"P1": 5, "P2": 5}, "spaces": {"P1": 15, "P2": 15}}
    marks["P1"].append("P2:A1")
    win = build("reflector", moves=("P1 P2:E5",), start=begin("P1", marks))
    assert outcome(win) == {"result": "win", "reason": "space-count", "winners": ["P1"],
                            "nodes": {"P1": 5, "P2": 5}, "spaces": {"P1": 16, "P2": 15}}


# --- 9.5 Deflector ------------------------------------------------------------------------

@rule("9.5.1")
def test_deflector_is_played_on_a_named_arrangement_for_its_players():
    assert reason(build("deflector", 4, arrangement="table-3")) == "bad-setup"
    assert reason(build("deflector", 4, arrangement="no-such-table")) == "bad-setup"
    # table-4-partial joins P1's Row 1 to P2's, and P1 to P3 not at all
    partial = build("deflector", 4, arrangement="table-4-partial", moves=("P1 P2:E1",))
    assert "reason" not in last(partial)
    far = build("deflector", 4, arrangement="table-4-partial", moves=("P1 P3:E1",))
    assert reason(far) == "out-of-reach"
    assert reason(build("deflector", 6, arrangement="table-5-full")) == "bad-setup"


@rule("9.5.2", "9.5.9")
def test_holding_all_five_nodes_makes_a_home_and_losing_the_last_puts_a_player_out():
    game = build("deflector", 4, moves=("P1 P2:I5",), start=begin(
        "P1", {"P1": ["P2:A5", "P2:C5", "P2:E5", "P2:G5", "P2:I4"]}))
    assert last(game)["out"] == ["P2"]
    state = after(game)
    assert state.homes["P1"] == {"P1", "P2"} and state.homes["P2"] == frozenset()
    assert outcome(game)["to_move"] == "P3"  # P2 is skipped from now on


@rule("9.5.3")
def test_entry_is_open_until_aimed_at_and_again_without_a_base():
    assert "reason" not in last(build("deflector", 4, moves=("P1 P3:J1",)))  # 1R1-3R1
    assert reason(build("deflector", 4, moves=("P1 P3:E2",))) == "out-of-reach"
    aimed = {"aimed": {"P1": ("P3",)}}
    with_base = begin("P1", {"P1": ["P3:A2"]}, **aimed)
    assert reason(build("deflector", 4, moves=("P1 P3:J1",), start=with_base)) == \
        "out-of-reach"
    without = begin("P1", **aimed)
    assert "reason" not in last(build("deflector", 4, moves=("P1 P3:J1",), start=without))


def blocked(**extra: Any) -> Record:
    """Three players, Cy out: neither Ann nor Bob has a legal shot. Each holds Nodes
    whose neighbours Cy (who is out) has won, inside their territories, and each has
    aimed at both grids joined to his home and holds a base on each. Cy still holds
    his Node J10, so it is not "two left"."""
    marks = {"P1": ["P2:E5", "P3:C3", "P3:C6", "P3:E5"], "P2": ["P1:E5", "P3:H3"],
             "P3": []}
    for node in ("P2:E5", "P1:E5", "P3:C3", "P3:C6", "P3:E5", "P3:H3"):
        g, c, r = spot(node)
        marks["P3"] += [f"{g}:{'ABCDEFGHIJ'[c + dc]}{r + dr}"
                        for dc, dr in ((0, -1), (-1, 0), (1, 0), (0, 1))]
    return build("deflector", 3, nodes={3: ("C3", "C6", "E5", "H3", "J10")},
                 start=begin("P1", marks, out=("P3",),
                             aimed={"P1": ("P2", "P3"), "P2": ("P1", "P3")}), **extra)


@rule("9.5.4")
def test_a_player_passes_when_and_only_when_he_has_no_legal_shot():
    assert engine.shots(start(blocked())) == []
    assert legal_moves(start(blocked())) == [Pass("P1")]
    assert reason(build("deflector", 4, moves=("P1 pass",))) == "can-shoot"
    assert reason(build("deflector", 4, moves=("P1 P1:E1",))) == "held"  # own unwon space


@rule("9.5.6")
def test_a_shot_travels_the_shorter_way_round_by_seats_and_out_seats_count():
    # P4 is 3 seats clockwise of P1: anticlockwise, so from P4's Deflector to P3
    game = build("deflector", 4, deflectors={4: ("A1",)}, moves=("P1 P4:A1",))
    assert last(game)["path"] == ["P4:A1", "P3:A1"]
    # straight across is clockwise; P4 is out but his seat still counts
    across = build("deflector", 4, deflectors={3: ("E1",)}, moves=("P1 P3:E1",),
                   start=begin("P1", out=("P4",)))
    assert last(across)["path"] == ["P3:E1", "P4:E1"]


@rule("9.5.7", "9.5.8")
def test_a_fired_deflector_landing_on_the_capturers_grid_is_won_by_the_original_target():
    # P3:E1 sends Ann's shot on to P4:E1, a Node she captures (clockwise); its Deflector
    # D1 fires on to the next grid clockwise, hers: P1:D1 goes to P4
    game = build("deflector", 4, nodes={4: ("E1", "A5", "C5", "G5", "I5")},
                 deflectors={3: ("E1",), 4: ("D1",)}, moves=("P1 P3:E1",))
    assert last(game) == {
        "move": 1, "path": ["P3:E1", "P4:E1"], "answers": ["Deflector", "Node"],
        "used": ["P3:E1", "P4:D1"], "captured": ["P4:E1"],
        "won": {"P1": ["P4:E1", "P4:C1", "P4:F1", "P4:G1", "P4:D2", "P4:E2", "P4:F2",
                       "P4:E3"], "P4": ["P1:D1"]},
        "fired": [{"from": "P4:D1", "path": ["P1:D1"], "answers": ["Null"]}]}


@rule("9.5.9")
def test_the_threshold_wins_before_anyone_goes_out():
    # 4 players: Ann holds her 5, Cy's 5 and two of Bob's; the third makes 13
    marks = {"P1": ["P3:A5", "P3:C5", "P3:E5", "P3:G5", "P3:I5", "P2:A5", "P2:C5", "P2:I4"]}
    game = build("deflector", 4, moves=("P1 P2:I5",), start=begin("P1", marks, out=("P3",)))
    assert outcome(game) == {"result": "win", "reason": "threshold", "winners": ["P1"],
                             "nodes": {"P1": 13, "P2": 2, "P3": 0, "P4": 5}}


@rule("9.5.9")
def test_last_standing_and_none_left():
    # 3 players, Cy out and holding four of Bob's Nodes: Ann takes Bob's last one
    last_one = build("deflector", 3, moves=("P1 P2:I5",), start=begin(
        "P1", {"P1": ["P2:I4"], "P3": ["P2:A5", "P2:C5", "P2:E5", "P2:G5"]}, out=("P3",)))
    assert last(last_one)["out"] == ["P2"]
    assert outcome(last_one)["reason"] == "last-standing"
    assert outcome(last_one)["winners"] == ["P1"]
    # each has one Node of his own left, both at E5; Ann's capture concedes hers
    # (Reflector-Deflector), both go out together, one Node each: a draw
    marks = {"P1": ["P2:E4"], "P3": ["P1:A5", "P1:C5", "P1:G5", "P1:I5", "P2:A5", "P2:C5",
                                     "P2:G5", "P2:I5"]}
    together = build("deflector", 3, variants=("reflection",), moves=("P1 P2:E5",),
                     start=begin("P1", marks, out=("P3",)))
    assert last(together)["out"] == ["P1", "P2"]
    assert outcome(together) == {"result": "draw", "reason": "none-left",
                                 "winners": ["P1", "P2"],
                                 "nodes": {"P1": 1, "P2": 1, "P3": 13}}


@rule("9.5.9")
def test_two_left_wins_when_ahead_and_goes_on_while_level():
    # 4 players, Cy and Di out; Ann holds Cy's Nodes, Bob Di's: 10 each, all 20 held
    marks = {"P1": ["P3:A5", "P3:C5", "P3:E5", "P3:G5", "P3:I5", "P2:I4"],
             "P2": ["P4:A5", "P4:C5", "P4:E5", "P4:G5", "P4:I5"]}
    position = begin("P1", marks, out=("P3", "P4"))
    level = build("deflector", 4, moves=("P1 P2:J4",), start=position)
    assert outcome(level) == {"result": "not-over", "to_move": "P2",
                              "nodes": {"P1": 10, "P2": 10, "P3": 0, "P4": 0}}
    ahead = build("deflector", 4, moves=("P1 P2:J4", "P2 P1:A1", "P1 P2:I5"), start=position)
    assert outcome(ahead) == {"result": "win", "reason": "two-left", "winners": ["P1"],
                              "nodes": {"P1": 11, "P2": 9, "P3": 0, "P4": 0}}


@rule("9.5.9", "9.5.4")
def test_a_stalemate_when_everyone_in_the_game_has_passed():
    game = blocked(moves=("P1 pass", "P2 pass"))
    assert reports(game) == [{"move": 1}, {"move": 2}]
    # Ann 4 + 1 + 3 = 8 Nodes, Bob 4 + 1 + 1 = 6
    assert outcome(game) == {"result": "win", "reason": "stalemate", "winners": ["P1"],
                             "nodes": {"P1": 8, "P2": 6, "P3": 1}}
    one = blocked(moves=("P1 pass",))
    assert outcome(one)["result"] == "not-over"


@rule("9.5.10")
def test_ricochet_runs_along_the_row_and_stops_at_a_node():
    # straight across, clockwise: from P3:E1 towards Column A, on into P4 at Column J
    game = build("deflector", 4, variants=("ricochet",), deflectors={3: ("E1",)},
                 nodes={4: ("G1", "A5", "C5", "E5", "I5")}, moves=("P1 P3:E1",))
    found = last(game)
    assert found["path"] == ["P3:E1", "P4:G1"] and found["answers"] == ["Deflector", "Node"]
    assert found["captured"] == ["P4:G1"]


@rule("9.5.10")
def test_ricochet_reverses_on_the_first_grid_and_stops_on_another():
    game = build("deflector", 4, variants=("ricochet",), deflectors={3: ("E1", "B1"),
                                                                    2: ("C1",)},
                 moves=("P1 P3:E1",))
    # back past E1 to Column J, on anticlockwise into P2 at Column A: P2:C1 stops it
    assert last(game) == {"move": 1, "path": ["P3:E1", "P3:B1", "P2:C1"],
                          "answers": ["Deflector", "Deflector", "Deflector"],
                          "used": ["P3:E1", "P3:B1", "P2:C1"]}


@rule("9.5.10")
def test_ricochet_all_the_way_round_wins_the_start_and_fired_runs_start_at_home():
    round_trip = build("deflector", 4, variants=("ricochet",), deflectors={3: ("E1",)},
                       moves=("P1 P3:E1",))
    assert last(round_trip) == {"move": 1, "path": ["P3:E1", "P3:E1"],
                                "answers": ["Deflector", "Null"], "used": ["P3:E1"],
                                "won": {"P1": ["P3:E1"]}}
    # the capture of P4:G1 fires P4:G2 (in T(G1)): its run goes round Row 2 and back
    # to G2, which is Owned, and Ann wins it
    fired = build("deflector", 4, variants=("ricochet",), deflectors={3: ("E1",), 4: ("G2",)},
                  nodes={4: ("G1", "A5", "C5", "E5", "I5")}, moves=("P1 P3:E1",))
    found = last(fired)
    assert found["fired"] == [{"from": "P4:G2", "path": ["P4:G2"], "answers": ["Owned"]}]
    assert found["won"]["P1"][-1] == "P4:G2"


@rule("9.5.11", "9.3.4")
def test_reflector_deflector_reflects_every_shot():
    plain = build("deflector", 4, moves=("P1 P3:E1",))
    assert "reflection" not in last(plain)
    reflecting = build("deflector", 4, variants=("reflection",), moves=("P1 P3:E1",))
    assert last(reflecting)["reflection"] == {"at": "P1:E1", "answer": "Null"}
    assert last(reflecting)["won"] == {"P1": ["P3:E1"], "P3": ["P1:E1"]}


# --- 9.6 Defector ---------------------------------------------------------------------------

def allied(*groups: tuple[str, ...], master: str | None = None) -> tuple[Any, ...]:
    """``[[start.alliance]]`` values: each group ``(link, member, …)``; with ``master``
    one alliance of every group's members."""
    from cardgen.games.nodes.record import AllianceView
    views = [(spot(g[0]), tuple(g[1:])) for g in groups]
    if master is not None:
        members = tuple(sorted({m for _, ms in views for m in ms} | {spot(master)[0]},
                               key=lambda p: int(p[1:])))
        return (AllianceView(members, spot(master), tuple(views)),)
    return tuple(AllianceView(ms, None, ((link, ms),)) for link, ms in views)


@rule("9.6.1")
def test_defector_always_reflects_and_allows_its_own_variants():
    game = build("defector", 6, moves=("P1 P2:E1",))
    assert last(game)["reflection"] == {"at": "P1:E1", "answer": "Null"}
    assert reason(build("defector", 6, variants=("reflection",))) == "bad-setup"
    assert reason(build("deflector", 4, variants=("deluxe",))) == "bad-setup"
    assert "reason" not in last(build("defector", 6, variants=(
        "ricochet", "deluxe", "safety", "alliance-victory"), moves=("P1 P2:E1",)))


@rule("9.6.2")
def test_the_island_is_built_by_rule_for_any_number_and_no_player_touches_another():
    seven = build("defector", 7, arrangement="defector-island", moves=("P1 I1:A1",))
    assert "reason" not in last(seven)
    assert reason(build("defector", 7, arrangement="defector-island",
                        moves=("P1 I9:A1",))) == "no-such-space"  # I1 … I8
    assert reason(build("defector", 6, arrangement="defector-island",
                        moves=("P1 P2:E1",))) == "out-of-reach"
    full = build("defector", 7, moves=("P1 P5:J1",))  # every Row 1 meets every Row 1
    assert "reason" not in last(full)


@rule("9.6.3")
def test_island_spaces_answer_null_change_hands_and_deflections_skip_the_island():
    taken = build("defector", 6, arrangement="defector-island", moves=("P1 I1:A2",),
                  start=begin("P1", {"P2": ["I1:A2"]}))
    assert last(taken) == {"move": 1, "path": ["I1:A2"], "answers": ["Null"],
                           "won": {"P1": ["I1:A2"]}}  # and never reflected
    # from I2:A1 Ann reaches P6:A1 across the join; P6 is 5 seats on: anticlockwise,
    # and the next seat anticlockwise from P6 is P5, not an Island grid
    across = build("defector", 6, arrangement="defector-island", deflectors={6: ("A1",)},
                   moves=("P1 P6:A1",), start=begin("P1", {"P1": ["I2:A1"]}))
    assert last(across)["path"] == ["P6:A1", "P5:A1"]


@rule("9.6.4")
def test_uniting_link_groups_and_a_master():
    moves = ("P3 unite P4 link=P3:A5", "P5 unite P3", "P6 unite P3 master=P6:A5")
    found = reports(build("defector", 6, moves=moves))
    assert [r["alliance"] for r in found] == [
        [{"members": ["P3", "P4"], "groups": [["P3:A5", "P3", "P4"]]}],
        [{"members": ["P3", "P4", "P5"], "groups": [["P3:A5", "P3", "P4", "P5"]]}],
        [{"members": ["P3", "P4", "P5", "P6"], "master": "P6:A5",
          "groups": [["P3:A5", "P3", "P4", "P5"]]}]]
    assert reason(build("defector", 6, moves=("P3 unite P4",))) == "bad-link"
    assert reason(build("defector", 6, moves=("P3 unite P4 link=P3:B5",))) == "bad-link"
    assert reason(build("defector", 6, moves=(*moves[:2], "P6 unite P3"))) == "bad-link"


@rule("9.6.4")
def test_when_players_may_unite_and_leave():
    position = begin("P1", alliances=allied(("P4:A5", "P3", "P4")))
    def moves(*ms: str) -> str | None:
        return reason(build("defector", 6, moves=ms, start=position))
    assert moves("P3 leave") == "not-your-turn"  # P1's turn: not a member's
    assert moves("P1 unite P2 link=P1:A5", "P1 P5:E1") is None
    assert moves("P2 unite P1 link=P1:A5") == "not-your-turn"
    assert moves("P1 leave") == "not-allied"
    # leaving comes before any union of the turn
    pair = begin("P1", alliances=allied(("P1:A5", "P1", "P2")))
    late = build("defector", 6, moves=("P1 unite P3", "P2 leave"), start=pair)
    assert [r.get("reason") for r in reports(late)] == [None, "not-your-turn"]
    assert moves("P1 P2:E1", "P2 P3:E1", "P4 leave") is None  # P3's turn: a member's
    assert moves("P1 P2:E1", "P2 P3:E1", "P3 leave") is None
    # defecting: leave and unite with another side at the start of one's own turn
    defect = build("defector", 6, moves=("P1 P2:E1", "P2 P3:E1", "P3 leave",
                                         "P3 unite P5 link=P3:A5", "P4 leave"), start=position)
    # (P3's leaving dissolved the alliance of two: P4 has nothing left to leave)
    assert [r.get("reason") for r in reports(defect)] == [None] * 4 + ["not-allied"]
    assert reports(defect)[3]["alliance"] == [
        {"members": ["P3", "P5"], "groups": [["P3:A5", "P3", "P5"]]}]


@rule("9.6.4", "9.6.5")
def test_a_lost_link_dissolves_or_divides_and_a_lost_master_splits():
    link = build("defector", 6, moves=("P1 P4:A5", "P2 P3:E1", "P3 unite P4 link=P3:C5"),
                 start=begin("P1", {"P1": ["P4:A4"]},
                             alliances=allied(("P4:A5", "P3", "P4"))))
    found = reports(link)
    # (the reflection then concedes Ann's own A5 to Di)
    assert found[0]["captured"] == ["P4:A5", "P1:A5"] and found[0]["alliance"] == []
    assert found[2]["reason"] == "divided"
    under = begin("P1", {"P1": ["P4:A4"]}, alliances=allied(
        ("P4:A5", "P3", "P4"), master="P6:A5"))
    kept = last(build("defector", 6, moves=("P1 P4:A5",), start=under))
    assert kept["alliance"] == [{"members": ["P3", "P4", "P6"], "master": "P6:A5"}]
    split = begin("P1", {"P1": ["P6:A4"]}, alliances=allied(
        ("P4:A5", "P3", "P4"), master="P6:A5"))
    assert last(build("defector", 6, moves=("P1 P6:A5",), start=split))["alliance"] == [
        {"members": ["P3", "P4"], "groups": [["P4:A5", "P3", "P4"]]}]


@rule("9.6.5")
def test_divided_players_are_never_united_again():
    game = build("defector", 6, moves=("P3 unite P4 link=P3:A5", "P3 leave",
                                       "P4 unite P3 link=P4:A5"))
    assert reason(game) == "divided"
    after_leave = after(build("defector", 6, moves=("P3 unite P4 link=P3:A5", "P3 leave")))
    assert after_leave.alliances.are_divided("P3", "P4")


@rule("9.6.6")
def test_allies_share_bases_and_homes_but_never_shoot_each_other():
    ally_base = begin("P1", {"P2": ["P3:E1"]}, aimed={"P1": ("P3",)},
                      alliances=allied(("P1:A5", "P1", "P2")))
    assert "reason" not in last(build("defector", 6, moves=("P1 P3:E2",), start=ally_base))
    assert reason(build("defector", 6, moves=("P1 P2:E1",), start=ally_base)) == "ally"
    # on the Island, an ally's home opens his Island grid (I3, at P2's Row 1) for entry
    island = begin("P1", alliances=allied(("P1:A5", "P1", "P2")))
    assert "reason" not in last(build("defector", 6, arrangement="defector-island",
                                      moves=("P1 I3:A1",), start=island))
    assert reason(build("defector", 6, arrangement="defector-island",
                        moves=("P1 I3:A1",))) == "out-of-reach"
    # a deflected shot lands on an ally like on anyone: P2:E1 sends Ann's shot to P3,
    # her ally, whose P3:E1 she wins
    deflected = build("defector", 6, deflectors={2: ("E1",)}, moves=("P1 P2:E1",),
                      start=begin("P1", alliances=allied(("P1:A5", "P1", "P3"))))
    assert last(deflected)["won"]["P1"] == ["P3:E1"]


@rule("9.6.7")
def test_a_player_without_a_home_is_saved_by_an_alliance_until_he_leaves_it():
    marks = {"P1": ["P3:A5", "P3:C5", "P3:E5", "P3:G5", "P3:I4"]}
    position = begin("P1", marks, alliances=allied(("P4:A5", "P3", "P4")))
    saved = build("defector", 6, moves=("P1 P3:I5",), start=position)
    assert "out" not in last(saved) and after(saved).homes["P3"] == frozenset()
    gone = build("defector", 6, moves=("P1 P3:I5", "P2 P1:J1", "P3 leave", "P3 P1:I8"),
                 start=position)
    assert last(gone)["out"] == ["P3"]


@rule("9.6.8")
def test_majority_wins():
    # 6 players: 16 of 30. Ann holds her 5 (on Row 6, so the reflection of P2:I5 is no
    # Node), Cy's and Di's 10 but one, P2:G5, and P2:I4 beside I5
    held = [f"P{g}:{c}5" for g in (3, 4) for c in "ACEGI"][:-1]
    marks = {"P1": [*held, "P2:I4", "P2:G5"]}
    game = build("defector", 6, nodes={1: ("A6", "C6", "E6", "G6", "I6")},
                 moves=("P1 P2:I5",), start=begin("P1", marks))
    found = outcome(game)
    assert (found["result"], found["reason"], found["winners"]) == ("win", "majority", ["P1"])
    assert found["nodes"]["P1"] == 16


@rule("9.6.8")
def test_the_alliance_victory_state_dissolves_or_wins_the_short_game():
    position = begin("P1", out=("P3", "P4", "P5", "P6"), alliances=allied(
        ("P1:A5", "P1", "P2")))
    standard = build("defector", 6, moves=("P1 P3:E1",), start=position)
    assert last(standard)["alliance"] == [] and outcome(standard)["result"] == "not-over"
    short = build("defector", 6, variants=("alliance-victory",), moves=("P1 P3:E1",),
                  start=position)
    found = outcome(short)
    assert (found["result"], found["reason"], found["winners"]) == (
        "win", "alliance", ["P1", "P2"])


@rule("9.6.8")
def test_three_left_wins_with_the_most_nodes_and_goes_on_from_a_tie():
    # P4-P6 out, their Nodes held by P1 (5), P2 (5) and P3 (5): 10 each
    marks = {"P1": [f"P4:{c}5" for c in "ACEGI"], "P2": [f"P5:{c}5" for c in "ACEGI"],
             "P3": [f"P6:{c}5" for c in "ACEGI"] + ["P1:I4"]}
    position = begin("P3", marks, out=("P4", "P5", "P6"))
    tie = build("defector", 6, moves=("P3 P2:E1",), start=position)
    assert outcome(tie)["result"] == "not-over"  # 10, 10, 10: play goes on
    # Cy's own Nodes on Row 6: taking P2:I5 concedes P3:I5, no Node: 10, 9, 11
    marks["P3"].append("P2:I4")
    ahead = build("defector", 6, nodes={3: ("A6", "C6", "E6", "G6", "I6")},
                  moves=("P3 P2:I5",), start=begin("P3", marks, out=("P4", "P5", "P6")))
    found = outcome(ahead)
    assert [found["nodes"][p] for p in ("P1", "P2", "P3")] == [10, 9, 11]
    assert (found["result"], found["reason"], found["winners"]) == (
        "win", "three-left", ["P3"])


@rule("9.6.9")
def test_deluxe_turns_a_grid_after_every_impact_on_it():
    # a landing turns its grid; the reflection onto P1:E1 does not
    assert last(build("defector", 6, variants=("deluxe",), moves=("P1 P2:E1",)))[
        "turns"] == {"P2": 1}
    # a Deflector answer is an impact, and so is a spent landing
    chain = build("defector", 6, variants=("deluxe",), deflectors={2: ("E1",)},
                  moves=("P1 P2:E1",), start=begin("P1", {"P1": ["P3:E1"]}))
    found = last(chain)
    assert found["spent"] == ["P3:E1"] and found["turns"] == {"P2": 1, "P3": 1}
    assert after(chain).turns == {"P2": 1, "P3": 1}


@rule("9.6.9")
def test_deluxe_bases_reach_only_down_inside_another_players_grid():
    def shot(at: str, turns: int) -> str | None:
        position = begin("P1", {"P1": ["P2:E2"]}, aimed={"P1": ("P2",)},
                         turns={"P2": turns})
        return reason(build("defector", 6, variants=("deluxe",), moves=(f"P1 {at}",),
                            start=position))
    assert shot("P2:E3", 0) is None  # q = 0: down is towards Row 10
    assert shot("P2:F2", 0) == "not-down"
    assert shot("P2:E1", 0) == "not-down"
    assert shot("P2:F2", 1) is None  # q = 1: towards Column J
    assert shot("P2:E3", 1) == "not-down"
    assert shot("P2:E4", 0) == "out-of-reach"


@rule("9.6.10")
def test_safety_among_friends_passes_over_the_deflecting_players_allies():
    position = begin("P1", alliances=allied(("P2:A5", "P2", "P3")))
    safe = build("defector", 6, variants=("safety",), deflectors={2: ("E1",)},
                 moves=("P1 P2:E1",), start=position)
    assert last(safe)["path"] == ["P2:E1", "P4:E1"]
    plain = build("defector", 6, deflectors={2: ("E1",)}, moves=("P1 P2:E1",),
                  start=position)
    assert last(plain)["path"] == ["P2:E1", "P3:E1"]


# --- §9.8's reason codes ------------------------------------------------------------------

def _masters() -> Start:
    from cardgen.games.nodes.record import AllianceView
    return begin("P1", alliances=(
        AllianceView(("P1", "P2", "P3", "P4"), spot("P1:A5"), ((spot("P2:A5"), ("P2", "P3")),)),
        AllianceView(("P5", "P6", "P7", "P8"), spot("P5:A5"), ((spot("P6:A5"), ("P6", "P7")),))))


BREAKS: dict[str, Callable[[], Record]] = {
    "bad-setup": lambda: build("reflector", nodes={1: ("A1", "B1")}, moves=("P1 P2:E1",)),
    "not-your-turn": lambda: build("reflector", moves=("P2 P1:E1",)),
    "player-out": lambda: build("defector", 6, moves=("P1 unite P3 link=P1:A5",),
                                start=begin("P1", out=("P3",))),
    "no-such-space": lambda: build("deflector", 3, moves=("P1 P4:E1",)),
    "own-grid": lambda: build("reflector", moves=("P1 P1:E1",)),
    "held": lambda: build("deflector", 3, moves=("P1 P1:E1",)),
    "own-territory": lambda: build("deflector", 4, moves=("P1 P2:E4",), start=begin(
        "P1", {"P1": ["P2:E5", "P2:D5"], "P3": ["P2:E4"]})),
    "ally": lambda: build("defector", 6, moves=("P1 unite P2 link=P1:A5", "P1 P2:E1")),
    "out-of-reach": lambda: build("reflector", moves=("P1 P2:E2",)),
    "not-down": lambda: build("defector", 6, variants=("deluxe",), moves=("P1 P2:F2",),
                              start=begin("P1", {"P1": ["P2:E2"]}, aimed={"P1": ("P2",)})),
    "can-shoot": lambda: build("deflector", 3, moves=("P1 pass",)),
    "divided": lambda: build("defector", 6, moves=("P3 unite P4 link=P3:A5", "P3 leave",
                                                   "P3 unite P4 link=P3:A5")),
    "two-masters": lambda: build("defector", 8, moves=("P1 unite P5",), start=_masters()),
    "bad-link": lambda: build("defector", 6, moves=("P1 unite P2 link=P2:B2",)),
    "not-allied": lambda: build("defector", 6, moves=("P1 leave",)),
}


@pytest.mark.parametrize("code", REASONS)
def test_a_replay_reports_the_rule_a_record_breaks(code):
    found = replay(BREAKS[code]())
    stop = found.reports[-1]
    assert (stop.legal, stop.reason) == (False, Reason(code))
    assert found.outcome.stopped_at == stop.move and found.outcome.result.value == "not-over"


@pytest.mark.parametrize(("game", "moves", "code"), [
    ("reflector", ("P2 P2:E1",), "not-your-turn"),  # and his own grid
    ("reflector", ("P1 P1:E9",), "own-grid"),  # and out of reach
    ("deflector", ("P1 P1:J10",), "held"),  # his own unwon space, and out of reach
    ("deflector", ("P1 P9:J10",), "no-such-space"),  # and out of reach
])
def test_the_first_reason_of_the_list_is_reported(game, moves, code):
    assert reason(build(game, 3 if game == "deflector" else 2, moves=moves)) == code


def test_a_player_who_is_out_has_no_turn():
    # not-your-turn comes before player-out in §9.8's list, and it applies
    gone = build("deflector", 4, moves=("P2 P1:A1",), start=begin("P1", out=("P2",)))
    assert reason(gone) == "not-your-turn"
    leaving = build("defector", 6, moves=("P3 leave",), start=begin("P1", out=("P3",)))
    assert reason(leaving) == "player-out"


def test_an_illegal_move_names_its_rule_and_changes_nothing():
    state = start(build("reflector"))
    with pytest.raises(IllegalMove) as info:
        push(state, Shot("P1", spot("P2:E2")))
    assert info.value.reason is Reason.OUT_OF_REACH and info.value.rule == "9.4.3"
    assert "SPEC §9.4.3" in str(info.value)
    assert state == start(build("reflector"))


def test_every_rule_has_a_test_and_every_reason_a_record():
    named = {r for test in globals().values() for r in getattr(test, "rules", ())}
    assert not set(RULES) - named, f"rules without a test: {sorted(set(RULES) - named)}"
    assert not named - set(RULES), f"unknown rules named: {sorted(named - set(RULES))}"
    assert list(BREAKS) == REASONS == [r.value for r in Reason]


def test_check_gives_the_error_that_stopped_a_replay():
    replayed, error = engine.check(build("reflector", moves=("P1 P2:E1", "P2 P2:E2")))
    assert replayed == replay(build("reflector", moves=("P1 P2:E1", "P2 P2:E2")))
    assert error is not None and error.reason is Reason.OWN_GRID and error.rule == "9.4.3"
    assert engine.check(build("reflector", moves=("P1 P2:E1",)))[1] is None


def test_the_game_interface_gives_seats_for_winners_and_none_for_a_draw():
    from cardgen.games.base import Outcome
    from cardgen.games.registry import get_game
    reflector = get_game("reflector")
    marks = {"P1": ["P2:A5", "P2:C5", "P2:G5", "P2:I5", "P2:E4"],
             "P2": ["P1:A5", "P1:C5", "P1:G5", "P1:I5", "P1:E4"]}
    draw = build("reflector", start=begin("P1", marks))
    state = reflector.push(reflector.initial(draw), Shot("P1", spot("P2:E5")))
    assert reflector.outcome(state) == Outcome((), "true-draw")
    won = build("reflector", start=begin("P1", {"P1": marks["P1"]}))
    state = reflector.push(reflector.initial(won), Shot("P1", spot("P2:E5")))
    assert reflector.outcome(state) == Outcome((1,), "all-nodes")
    with pytest.raises(ValueError, match="deflector record"):
        reflector.initial(build("deflector", 3))
