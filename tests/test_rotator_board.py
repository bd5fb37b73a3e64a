"""Rotator maps: placement rules, card notation, board IDs (SPEC §5.1)."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardgen.errors import CardgenError
from cardgen.rotator.board import (
    RotatorMap,
    card_name,
    load_board,
    parse_cell,
    territory,
)
from cardgen.rotator.generator import SplitMix64, random_map

BOARD = "R1:B2B8E4I2I8-B4E2E8H4I9"


def test_card_notation_matches_spec_coordinates():
    # Grid A Row r, column c is (9 - c, 10 - r); grid B Row r, column c is (c, 9 + r).
    for c, r in itertools.product(range(10), range(1, 11)):
        letter = "ABCDEFGHIJ"[c]
        assert parse_cell(f"A:{letter}{r}") == (9 - c, 10 - r)
        assert parse_cell(f"B:{letter}{r}") == (c, 9 + r)
        assert card_name((9 - c, 10 - r)) == f"A:{letter}{r}"
        assert card_name((c, 9 + r)) == f"B:{letter}{r}"
    assert parse_cell(" a : j10 ") == (0, 0)
    for bad in ("A:K4", "C:B2", "A:B11", "A:B0", "B2", ""):
        with pytest.raises(CardgenError, match="card notation"):
            parse_cell(bad)


def test_territory_is_a_clipped_diamond():
    assert len(territory((5, 10))) == 13
    assert territory((5, 10)) == {(x, y) for x in range(3, 8) for y in range(8, 13)
                                  if abs(x - 5) + abs(y - 10) <= 2}
    assert len(territory((1, 1))) == 11  # clipped at the board edge
    assert (5, 10) in territory((5, 8))  # territories may cross the fold


def test_board_id_round_trip_and_canonical_order():
    rmap = RotatorMap.from_id(BOARD)
    assert rmap.board_id == BOARD
    shuffled = list(reversed(rmap.nodes))
    assert RotatorMap.from_cells(shuffled).board_id == BOARD
    assert RotatorMap.from_id(f"  {BOARD.lower()} ").board_id == BOARD
    assert len(rmap.solid) == sum(len(t) for t in rmap.territories)


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=0, max_value=2**64 - 1))
def test_every_generated_map_round_trips(seed):
    rmap = random_map(SplitMix64(seed))
    assert RotatorMap.from_id(rmap.board_id) == rmap
    assert RotatorMap.from_cells(list(rmap.nodes)) == rmap


@pytest.mark.parametrize(("board_id", "message"), [
    ("R1:B2B8E4I2I8-B4E2E8H4I10", "Node B:I10 sits on an edge row"),
    ("R1:B1B8E4I2I8-B4E2E8H4I9", "Node A:B1 sits on an edge row"),
    ("R1:A5B8E4I2I8-B4E2E8H4I9", "Node A:A5 sits on an edge column"),
    ("R1:B2B8E4I2I8-B4E2E8H4J9", "Node B:J9 sits on an edge column"),
    ("R1:B2B8E4I2-B4E2E8H4I9", "grid A has 4 Nodes"),
    ("R1:B2B8E4I2I8B4-B4E2E8H4", "grid A has 6 Nodes"),
    ("R1:B2B2E4I2I8-B4E2E8H4I9", "Node A:B2 is listed twice"),
    ("R1:B2C3E4I2I8-B4E2E8H4I9", "the territories of Nodes A:B2 and A:C3 overlap"),
    ("R9:B2B8E4I2I8-B4E2E8H4I9", "version R9"),
    ("hello", "malformed"),
    ("R1:B2B8E4I2I8B4E2E8H4I9", "malformed"),
])
def test_broken_rules_name_the_rule_and_the_node(board_id, message):
    with pytest.raises(CardgenError, match=message):
        RotatorMap.from_id(board_id)


def test_territories_crossing_the_fold_may_not_overlap():
    # A:E2 is (5, 8) and B:F2 is (4, 11): 4 apart, their diamonds share (5, 10) = A:E1.
    with pytest.raises(CardgenError, match="A:E2 and B:F2 overlap at A:E1"):
        RotatorMap.from_id("R1:B4B9E2E7H4-B3B8E6F2G9")


def test_toml_board_files(tmp_path):
    rmap = RotatorMap.from_id(BOARD)
    path = tmp_path / "board.toml"
    path.write_text("nodes = [" + ", ".join(f'"{card_name(c)}"' for c in rmap.nodes) + "]\n")
    assert load_board(str(path)) == rmap
    assert load_board(BOARD) == rmap
    (tmp_path / "bad.toml").write_text("nodes = [\n")
    with pytest.raises(CardgenError, match="invalid TOML"):
        load_board(str(tmp_path / "bad.toml"))
    (tmp_path / "five.toml").write_text("nodes = 5\n")
    with pytest.raises(CardgenError, match="nodes ="):
        load_board(str(tmp_path / "five.toml"))
    with pytest.raises(CardgenError, match="does not exist"):
        load_board(str(tmp_path / "missing.toml"))


def test_the_issue_example_breaks_the_no_overlap_rule():
    """The example in the issue places A:D8 and A:F7 three squares apart; SPEC §5.1 says
    territories never share a cell, so it is refused with the reason."""
    cells = ["A:C4", "A:F7", "A:H3", "A:D8", "A:G6", "B:B3", "B:E5", "B:H8", "B:C8", "B:G2"]
    with pytest.raises(CardgenError, match="overlap"):
        RotatorMap.from_cells([parse_cell(c) for c in cells])
