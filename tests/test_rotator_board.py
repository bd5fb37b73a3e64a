"""Rotator maps: placement rules, card notation, board IDs (SPEC §5.1)."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardgen.board.cells import card_name, parse_cell
from cardgen.board.territory import territory
from cardgen.errors import BoardError, BoardProblem, CardgenError, ConfigError, ConfigProblem
from cardgen.games.rng import SplitMix64
from cardgen.games.rotator.board import RotatorMap, load_board, map_problems
from cardgen.games.rotator.generator import random_map
from tests.helpers import examples

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


@settings(max_examples=examples(60), deadline=None)
@given(st.integers(min_value=0, max_value=2**64 - 1))
def test_every_generated_map_round_trips(seed):
    rmap = random_map(SplitMix64(seed))
    assert RotatorMap.from_id(rmap.board_id) == rmap
    assert RotatorMap.from_cells(list(rmap.nodes)) == rmap


@pytest.mark.parametrize(("board_id", "code", "named"), [
    ("R1:B2B8E4I2I8-B4E2E8H4I10", BoardProblem.PLACEMENT, "Node B:I10"),
    ("R1:B1B8E4I2I8-B4E2E8H4I9", BoardProblem.PLACEMENT, "Node A:B1"),
    ("R1:A5B8E4I2I8-B4E2E8H4I9", BoardProblem.PLACEMENT, "Node A:A5"),
    ("R1:B2B8E4I2I8-B4E2E8H4J9", BoardProblem.PLACEMENT, "Node B:J9"),
    ("R1:B2B8E4I2-B4E2E8H4I9", BoardProblem.NODE_COUNT, "grid A has 4"),
    ("R1:B2B8E4I2I8B4-B4E2E8H4", BoardProblem.NODE_COUNT, "grid A has 6"),
    ("R1:B2B2E4I2I8-B4E2E8H4I9", BoardProblem.DUPLICATE_NODE, "Node A:B2"),
    ("R1:B2C3E4I2I8-B4E2E8H4I9", BoardProblem.OVERLAP, "Nodes A:B2 and A:C3"),
    ("R9:B2B8E4I2I8-B4E2E8H4I9", BoardProblem.ID_VERSION, "version R9"),
    ("hello", BoardProblem.MALFORMED_ID, "'hello'"),
    ("R1:B2B8E4I2I8B4E2E8H4I9", BoardProblem.MALFORMED_ID, "need a dash"),
])
def test_broken_rules_name_the_rule_and_the_node(board_id, code, named):
    """Which rule is broken is the problem's code; its sentence names the Node."""
    with pytest.raises(BoardError) as caught:
        RotatorMap.from_id(board_id)
    # The rule named is the first problem found, which the message leads with.
    assert caught.value.codes[0] is code
    assert named in caught.value.problems[0]
    assert named in str(caught.value).split(" Also: ")[0]


def test_territories_crossing_the_fold_may_not_overlap():
    # A:E2 is (5, 8) and B:F2 is (4, 11): 4 apart, their diamonds share (5, 10) = A:E1.
    with pytest.raises(BoardError, match="A:E2 and B:F2 overlap at A:E1") as caught:
        RotatorMap.from_id("R1:B4B9E2E7H4-B3B8E6F2G9")
    assert caught.value.codes == (BoardProblem.OVERLAP,)


def test_a_board_breaking_several_rules_lists_every_one():
    # BOARD with B:I9 moved onto the edge row and A:B8 moved to A:C3, which overlaps both
    # A:B2 and A:E4.
    board_id = "R1:B2C3E4I2I8-B4E2E8H4I10"
    expected = [
        "Node B:I10 sits on an edge row (Node centres need Rows 2–9 of their grid).",
        "the territories of Nodes A:B2 and A:C3 overlap at A:D2 (no two territories may "
        "share a cell).",
        "the territories of Nodes A:C3 and A:E4 overlap at A:E3 (no two territories may "
        "share a cell).",
    ]
    with pytest.raises(BoardError) as caught:
        RotatorMap.from_id(board_id)
    error = caught.value
    assert list(error.problems) == expected
    assert error.codes == (BoardProblem.PLACEMENT, BoardProblem.OVERLAP, BoardProblem.OVERLAP)
    # The message: the first problem, then " Also: " and the others, each naming its Node.
    assert str(error) == (f"board ID {board_id!r}: {expected[0]} Also: {expected[1]} "
                          f"{expected[2]}")
    for needle in ("B:I10", "A:B2", "A:C3", "A:E4", "edge row", "overlap at A:D2",
                   "overlap at A:E3"):
        assert needle in str(error), needle
    # The same from cells and from the rule check itself.
    cells = [parse_cell(c) for c in ("A:B2", "A:C3", "A:E4", "A:I2", "A:I8", "B:B4", "B:E2",
                                     "B:E8", "B:H4", "B:I10")]
    assert map_problems(cells) == expected
    with pytest.raises(BoardError) as caught:
        RotatorMap.from_cells(cells, "my board")
    assert list(caught.value.problems) == expected
    assert str(caught.value).startswith(f"my board: {expected[0]} Also: ")


def test_every_kind_of_broken_rule_at_once_in_the_documented_order():
    """Repeats, then the count per grid, then edges, then overlaps."""
    with pytest.raises(BoardError) as caught:
        RotatorMap.from_id("R1:B2B2C3I2I8-B4E2E8H4I10")
    problems = caught.value.problems
    assert caught.value.codes == (BoardProblem.DUPLICATE_NODE, BoardProblem.NODE_COUNT,
                                  BoardProblem.PLACEMENT, BoardProblem.OVERLAP)
    assert problems[0] == "Node A:B2 is listed twice."
    assert problems[1] == "grid A has 4 Nodes; each grid needs exactly 5."
    assert problems[2].startswith("Node B:I10 sits on an edge row")
    assert problems[3].startswith("the territories of Nodes A:B2 and A:C3 overlap at A:D2")
    message = str(caught.value)
    assert message.count(" Also: ") == 1
    for problem in problems:
        assert problem in message
    assert map_problems([parse_cell(c) for c in ("A:B2", "A:B8", "A:E4", "A:I2", "A:I8",
                                                 "B:B4", "B:E2", "B:E8", "B:H4", "B:I9")]) == []


def test_toml_board_files(tmp_path):
    rmap = RotatorMap.from_id(BOARD)
    path = tmp_path / "board.toml"
    path.write_text("nodes = [" + ", ".join(f'"{card_name(c)}"' for c in rmap.nodes) + "]\n")
    assert load_board(str(path)) == rmap
    assert load_board(BOARD) == rmap
    (tmp_path / "bad.toml").write_text("nodes = [\n")
    with pytest.raises(ConfigError, match="invalid TOML") as caught:
        load_board(str(tmp_path / "bad.toml"))
    assert caught.value.codes == (ConfigProblem.UNREADABLE,)
    (tmp_path / "five.toml").write_text("nodes = 5\n")
    with pytest.raises(ConfigError) as caught:
        load_board(str(tmp_path / "five.toml"))
    assert caught.value.codes == (ConfigProblem.WRONG_TYPE,)
    with pytest.raises(ConfigError, match="does not exist") as caught:
        load_board(str(tmp_path / "missing.toml"))
    assert caught.value.codes == (ConfigProblem.UNREADABLE,)
    (tmp_path / "cells.toml").write_text('nodes = ["A:C4", "Z9"]\n')
    with pytest.raises(ConfigError, match="nodes item 2: ") as caught:
        load_board(str(tmp_path / "cells.toml"))
    assert caught.value.codes == (BoardProblem.NOT_A_CELL,)  # the cell's code, kept


def test_the_issue_example_breaks_the_no_overlap_rule():
    """The example in the issue places A:D8 and A:F7 three squares apart; SPEC §5.1 says
    territories never share a cell, so it is refused with the reason."""
    cells = ["A:C4", "A:F7", "A:H3", "A:D8", "A:G6", "B:B3", "B:E5", "B:H8", "B:C8", "B:G2"]
    with pytest.raises(BoardError) as caught:
        RotatorMap.from_cells([parse_cell(c) for c in cells])
    assert BoardProblem.OVERLAP in caught.value.codes


# --- board IDs as people paste them ------------------------------------------------------

@pytest.mark.parametrize("spelling", [
    BOARD, BOARD.lower(), f" \t{BOARD}\n", "R1:B2B8E4I2I8\u2013B4E2E8H4I9",  # en dash
    "R1:B2B8E4I2I8\u2014B4E2E8H4I9", "r1:b2b8e4i2i8\u2212b4e2e8h4i9",  # em dash, minus
    "R1:B2B8E4I2I8 B4E2E8H4I9", "B2B8E4I2I8-B4E2E8H4I9", "b2b8e4i2i8 b4e2e8h4i9",
    "R1 : B2B8E4I2I8 - B4E2E8H4I9", "R1B2B8E4I2I8-B4E2E8H4I9", "R1:B2B8E4I2I8\u00a0B4E2E8H4I9",
])
def test_board_ids_are_read_as_pasted(spelling):
    assert RotatorMap.from_id(spelling).board_id == BOARD
    assert load_board(spelling).board_id == BOARD


@pytest.mark.parametrize(("spelling", "needle"), [
    ("R1:B2B8E4I2I8-B4E2E8H4I9X", "character 25, 'X' (U+0058"),
    ("R1:B2B8E4I2I8\u2012\u2012B4E2E8H4I9", "character 15, '\u2012' (U+2012 Figure Dash), is a "
                                            "second dash"),
    ("R1:B2B8E4I2I8_B4E2E8H4I9", "character 14, '_' (U+005F Low Line)"),
    ("R1:B0B8E4I2I8-B4E2E8H4I9", "character 5, '0' (U+0030 Digit Zero), is not a row number"),
    ("  R1:B2B8E4\u01312I8-B4E2E8H4I9", "character 10, '\u0131' (U+0131"),
    ("R1:B2B8E4I2I8-B4E2E8H4I", "ends after the column letter I"),
    ("R1:B2 B8E4I2I8 B4E2E8H4I9", "need a dash (or one space)"),
    ("R:B2B8E4I2I8-B4E2E8H4I9", "the R at character 1 needs a version number"),
    ("R" + "7" * 300 + ":B2B8E4I2I8-B4E2E8H4I9", "has version R777777…;"),
])
def test_a_board_id_that_cannot_be_read_names_the_character_and_its_place(spelling, needle):
    with pytest.raises(BoardError) as caught:
        RotatorMap.from_id(spelling)
    assert needle in str(caught.value)
    assert len(caught.value.problems) == 1 and "\n" not in str(caught.value)


_SPACES = st.sampled_from(["", " ", "  ", "\t", "\u00a0 "])


@settings(max_examples=examples(80), deadline=None)
@given(st.integers(min_value=0, max_value=2**64 - 1), st.sampled_from(["R1:", "r1:", "", "R1 :"]),
       st.sampled_from(["-", "\u2013", "\u2014", "\u2212", " ", " - ", "\u2013 "]),
       _SPACES, _SPACES, st.randoms(use_true_random=False))
def test_fuzz_every_accepted_spelling_reads_the_same_board(seed, prefix, dash, before, after,
                                                          rnd):
    rmap = random_map(SplitMix64(seed))
    a, b = rmap.board_id.split(":")[1].split("-")
    text = before + prefix + a + dash + b + after
    text = "".join(ch.lower() if rnd.random() < 0.5 else ch for ch in text)
    assert RotatorMap.from_id(text) == rmap


@settings(max_examples=examples(150), deadline=None)
@given(st.text(alphabet=st.sampled_from("R1:-\u2013 B2C9J0aIıx\u00a0\n"), max_size=40)
       | st.text(max_size=30))
def test_fuzz_any_text_is_a_board_or_one_sentence(text):
    try:
        rmap = RotatorMap.from_id(text)
    except BoardError as exc:
        message = str(exc)
        assert message.startswith("board ID ") and message.endswith(".")
        assert "\n" not in message.replace(repr(text.strip())[:40], "")
        return
    assert RotatorMap.from_id(rmap.board_id) == rmap
