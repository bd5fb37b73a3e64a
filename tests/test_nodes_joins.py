"""The Node games' table as the rules see it (cardgen.games.nodes.joins): the join table of
SPEC §9.1.6 row by row, the pairing rule against the geometry of every arrangement in the
data, meeting (§9.1.5), entry stretches (§9.5.3), seats and directions (§9.5.6), the
Defector layouts built by rule (§9.6.2-9.6.3) and Deluxe's "down" (§9.6.9)."""

from __future__ import annotations

import itertools
import math

import pytest

from cardgen.errors import CardgenError, ParameterError
from cardgen.games.names import GameName
from cardgen.games.nodes import joins
from cardgen.games.nodes.joins import Direction, direction, down, layout, up
from cardgen.games.nodes.record import parse_spot, spot_name
from cardgen.games.nodes.tables import (
    TOLERANCE,
    Arrangement,
    Edge,
    Kind,
    Part,
    PlacedGrid,
    Stretch,
    bundled,
)

CW, ACW = Direction.CLOCKWISE, Direction.ANTICLOCKWISE


def s(text: str) -> tuple[str, int, int]:
    spot = parse_spot(text)
    assert spot is not None, text
    return spot


def names(spots) -> list[str]:
    return [spot_name(x) for x in spots]


def across(table: joins.Layout, text: str) -> list[str]:
    return names(table.across(s(text)))


def coords(pairs) -> list[tuple[str, str]]:
    col = "ABCDEFGHIJ"
    return [(f"{col[p[0]]}{p[1]}", f"{col[q[0]]}{q[1]}") for p, q in pairs]


# --- §9.1.6: the join table, row by row -------------------------------------------------

def test_9_1_6_clockwise_lists_of_each_edge():
    """SPEC §9.1.6: Row 1 A→J, Column J 1→10, Row 10 J→A, Column A 10→1."""
    col = "ABCDEFGHIJ"

    def listed(stretch):
        return [f"{col[c]}{r}" for c, r in joins.clockwise(stretch)]
    assert listed(Stretch(Edge.ROW_1)) == [f"{c}1" for c in col]
    assert listed(Stretch(Edge.COLUMN_J)) == [f"J{r}" for r in range(1, 11)]
    assert listed(Stretch(Edge.ROW_10)) == [f"{c}10" for c in reversed(col)]
    assert listed(Stretch(Edge.COLUMN_A)) == [f"A{r}" for r in range(10, 0, -1)]
    assert listed(Stretch(Edge.COLUMN_A, Part.TOP)) == [f"A{r}" for r in range(5, 0, -1)]
    assert listed(Stretch(Edge.ROW_1, Part.RIGHT)) == [f"{c}1" for c in "FGHIJ"]


def test_9_1_6_column_a_column_j_whole_same_row():
    """SPEC §9.1.6 row 1: Column A ↔ Column J, whole: same row (table-4-full 1A–2J)."""
    pairs = coords(joins.pair(Stretch(Edge.COLUMN_A), Stretch(Edge.COLUMN_J)))
    assert sorted(pairs) == sorted((f"A{r}", f"J{r}") for r in range(1, 11))
    table = layout(GameName.DEFLECTOR, 4, "table-4-full")
    assert "P2:J4" in across(table, "P1:A4")
    assert "P1:A4" in across(table, "P2:J4")
    for r in range(1, 11):
        assert f"P2:J{r}" in across(table, f"P1:A{r}")


def test_9_1_6_column_a_column_j_top_halves_same_row():
    """SPEC §9.1.6 row 1: Column A ↔ Column J, top halves (table-5-full): same row."""
    pairs = coords(joins.pair(Stretch(Edge.COLUMN_A, Part.TOP),
                              Stretch(Edge.COLUMN_J, Part.TOP)))
    assert sorted(pairs) == sorted((f"A{r}", f"J{r}") for r in range(1, 6))
    table = layout(GameName.DEFLECTOR, 5, "table-5-full")
    assert "P2:J4" in across(table, "P1:A4")
    assert [x for x in across(table, "P1:A6")] == []  # the bottom half is not joined


def test_9_1_6_row_1_row_1_mirrored_letters():
    """SPEC §9.1.6 row 2: Row 1 ↔ Row 1, whole: mirrored letters A1–J1 … E1–F1."""
    pairs = coords(joins.pair(Stretch(Edge.ROW_1), Stretch(Edge.ROW_1)))
    col = "ABCDEFGHIJ"
    assert pairs == [(f"{col[c]}1", f"{col[9 - c]}1") for c in range(10)]
    table = layout(GameName.DEFLECTOR, 4, "table-4-full")  # 1R1–3R1
    assert "P3:J1" in across(table, "P1:A1")
    assert "P3:I1" in across(table, "P1:B1")
    assert "P3:F1" in across(table, "P1:E1")
    reflector = layout(GameName.REFLECTOR, 2, None)
    assert across(reflector, "P1:A1") == ["P2:J1"]
    assert across(reflector, "P2:E1") == ["P1:F1"]


def test_9_1_6_row_1_left_half_right_half_mirrored():
    """SPEC §9.1.6 row 2: Row 1 left half ↔ right half (table-5-full): A1–J1 … E1–F1."""
    pairs = coords(joins.pair(Stretch(Edge.ROW_1, Part.LEFT), Stretch(Edge.ROW_1, Part.RIGHT)))
    assert pairs == [("A1", "J1"), ("B1", "I1"), ("C1", "H1"), ("D1", "G1"), ("E1", "F1")]
    table = layout(GameName.DEFLECTOR, 5, "table-5-full")  # 1 row-1 left ↔ 3 row-1 right
    assert "P3:J1" in across(table, "P1:A1")
    assert "P3:F1" in across(table, "P1:E1")
    assert "P4:F1" in across(table, "P2:E1")


def test_9_1_6_row_10_row_10_island_cards_mirrored():
    """SPEC §9.1.6 row 3: Row 10 ↔ Row 10 (Island cards): A10–J10 … E10–F10."""
    pairs = coords(joins.pair(Stretch(Edge.ROW_10), Stretch(Edge.ROW_10)))
    assert sorted(pairs) == sorted((f"{c}10", f"{d}10") for c, d in
                                   zip("ABCDEFGHIJ", "JIHGFEDCBA", strict=True))
    table = layout(GameName.DEFECTOR, 6, "defector-island")  # I2's Row 10 on I3's
    assert across(table, "I2:B10") == ["I3:I10"]
    assert across(table, "I2:A10") == ["P6:J1", "I3:J10"]  # a corner: two joins
    assert across(table, "I3:E10") == ["I2:F10"]


def test_9_1_6_column_j_top_row_1_left_five_partial():
    """SPEC §9.1.6 row 4: Column J top ↔ Row 1 left (table-5-partial 2J top–1R1 left):
    J1–E1, J2–D1, J3–C1, J4–B1, J5–A1."""
    pairs = coords(joins.pair(Stretch(Edge.COLUMN_J, Part.TOP), Stretch(Edge.ROW_1, Part.LEFT)))
    assert pairs == [("J1", "E1"), ("J2", "D1"), ("J3", "C1"), ("J4", "B1"), ("J5", "A1")]
    table = layout(GameName.DEFLECTOR, 5, "table-5-partial")
    for j, a in pairs:
        assert f"P1:{a}" in across(table, f"P2:{j}")
        assert f"P2:{j}" in across(table, f"P1:{a}")


def test_9_1_6_column_a_top_row_1_right_five_partial():
    """SPEC §9.1.6 row 5: Column A top ↔ Row 1 right (table-5-partial 3A top–4R1 right):
    A1–F1, A2–G1, A3–H1, A4–I1, A5–J1."""
    pairs = coords(joins.pair(Stretch(Edge.COLUMN_A, Part.TOP), Stretch(Edge.ROW_1, Part.RIGHT)))
    assert sorted(pairs) == [("A1", "F1"), ("A2", "G1"), ("A3", "H1"), ("A4", "I1"),
                             ("A5", "J1")]
    table = layout(GameName.DEFLECTOR, 5, "table-5-partial")
    for a, f in pairs:
        assert f"P4:{f}" in across(table, f"P3:{a}")


def test_9_1_6_player_row_1_island_column_a():
    """SPEC §9.1.6 row 6: a player's Row 1 ↔ an Island grid's Column A: the k-th letter
    meets row k (A1–A1, B1–A2 … J1–A10)."""
    pairs = coords(joins.pair(Stretch(Edge.ROW_1), Stretch(Edge.COLUMN_A)))
    assert pairs == [(f"{c}1", f"A{k}") for k, c in enumerate("ABCDEFGHIJ", 1)]
    table = layout(GameName.DEFECTOR, 6, "defector-island")
    assert across(table, "P1:A1") == ["I1:A1"]
    assert across(table, "P1:B1") == ["I1:A2"]
    assert across(table, "P1:J1") == ["I1:A10"]
    assert across(table, "I2:A3") == ["P6:C1"]


def test_9_1_6_stretches_of_different_lengths_do_not_pair():
    with pytest.raises(ValueError, match="one length"):
        joins.pair(Stretch(Edge.ROW_1), Stretch(Edge.COLUMN_A, Part.TOP))


# --- §9.1.6: the pairing rule against every arrangement's geometry ----------------------

def _edge_middle(grid: PlacedGrid, edge: Edge, cell: tuple[int, int]) -> tuple[float, float]:
    """The middle of the side of square ``cell`` that lies on ``edge``, on the table."""
    c, r = cell
    x, y = {Edge.ROW_1: (c + 0.5, 0.0), Edge.ROW_10: (c + 0.5, 10.0),
            Edge.COLUMN_A: (0.0, r - 0.5), Edge.COLUMN_J: (10.0, r - 0.5)}[edge]
    return grid.transform.apply(x, y)


def _cross(o, a, b) -> float:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def _segments_cross(p, q) -> bool:
    """Whether segments p and q cross at a point inside both (or overlap)."""
    (a, b), (c, d) = p, q
    d1, d2 = _cross(a, b, c), _cross(a, b, d)
    d3, d4 = _cross(c, d, a), _cross(c, d, b)
    return d1 * d2 < -TOLERANCE and d3 * d4 < -TOLERANCE


def _paired_middles(arr: Arrangement, contact, pairing):
    g, h = arr.grid(contact.a.grid), arr.grid(contact.b.grid)
    return [(_edge_middle(g, contact.a.stretch.edge, p), _edge_middle(h, contact.b.stretch.edge, q))
            for p, q in pairing]


@pytest.mark.parametrize("name", sorted(bundled()))
def test_9_1_6_pairing_agrees_with_the_geometry_of_every_arrangement(name):
    """SPEC §9.1.6: across every contact of the data, the squares the rule pairs touch
    (touch, fold: their sides coincide on the table) or, bridged, never cross; and the
    other way of pairing (k-th with k-th) would cross, so the check has teeth."""
    arr = bundled()[name]
    assert arr.contacts
    for contact in arr.contacts:
        pairing = joins.pair(contact.a.stretch, contact.b.stretch)
        middles = _paired_middles(arr, contact, pairing)
        if contact.kind is Kind.BRIDGE:
            for m, n in itertools.combinations(middles, 2):
                assert not _segments_cross(m, n), (name, str(contact))
            wrong = _paired_middles(arr, contact, zip(
                joins.clockwise(contact.a.stretch), joins.clockwise(contact.b.stretch),
                strict=True))
            assert any(_segments_cross(m, n) for m, n in itertools.combinations(wrong, 2))
        else:
            for p, q in middles:
                assert math.dist(p, q) < TOLERANCE, (name, str(contact), p, q)


@pytest.mark.parametrize("name", sorted(n for n, a in bundled().items()
                                        if a.game is not GameName.REFLECTOR))
def test_9_5_1_layout_of_an_arrangement_keeps_its_public_contacts(name):
    """SPEC §9.5.1, §9.1.6: a Deflector or Defector layout has every contact between
    public or Island grids of the data, and private grids take no part."""
    arr = bundled()[name]
    table = joins.from_arrangement(arr)
    assert table.grids[:arr.players] == tuple(f"P{k}" for k in range(1, arr.players + 1))
    public = [c for c in arr.contacts
              if "private" not in (arr.grid(c.a.grid).role, arr.grid(c.b.grid).role)]
    assert len(table.joins) == len(public)
    assert all(g.startswith(("P", "I")) for j in table.joins for g in (j.a, j.b))


# --- §9.1.5: meeting ---------------------------------------------------------------------

def test_9_1_5_meeting_is_sides_and_joins_never_corners():
    """SPEC §9.1.5: spaces meet when they share a side or face each other across a join;
    a shared corner never counts."""
    table = layout(GameName.REFLECTOR, 2, "reflector-cut")
    assert names(table.meets(s("P1:E5"))) == ["P1:E4", "P1:D5", "P1:F5", "P1:E6"]
    assert names(table.meets(s("P1:A1"))) == ["P1:B1", "P1:A2", "P2:J1"]
    assert names(table.meets(s("P2:J10"))) == ["P2:J9", "P2:I10"]
    assert "P1:F6" not in names(table.meets(s("P1:E5")))
    # Example 1 (SPEC §9.8): P1:E2 meets P1:E1, which the reflection handed to Bob.
    assert "P1:E1" in names(table.meets(s("P1:E2")))


def test_9_1_5_meeting_is_symmetric_on_every_layout():
    """SPEC §9.1.5: if s meets t then t meets s, on every table."""
    tables = [joins.from_arrangement(a) for a in bundled().values()]
    tables += [joins.island(n) for n in (7, 8)] + [joins.full_access(7)]
    for table in tables:
        for grid in table.grids:
            for c in range(10):
                for r in range(1, 11):
                    spot = (grid, c, r)
                    for other in table.meets(spot):
                        assert spot in table.meets(other), (table.arrangement, spot, other)


def test_9_1_6_corner_squares_face_both_joins():
    """SPEC §9.1.6: a corner square on two joined edges faces a square across each."""
    table = layout(GameName.DEFLECTOR, 4, "table-4-full")
    assert across(table, "P1:A1") == ["P2:J1", "P3:J1"]


# --- §9.5.3: entry stretches ------------------------------------------------------------

def test_9_5_3_2_entry_lies_on_a_stretch_joined_to_the_home_grid():
    """SPEC §9.5.3 item 2 and Example 2 (§9.8): the entries P1→P3:E1 (1R1–3R1),
    P2→P1:A3 (1A–2J), P3→P4:J2 (3A–4J), P4→P2:D1 (2R1–4R1), P4→P1:J5 (4A–1J)."""
    table = layout(GameName.DEFLECTOR, 4, "table-4-full")
    for target, home in [("P3:E1", "P1"), ("P1:A3", "P2"), ("P4:J2", "P3"),
                         ("P2:D1", "P4"), ("P1:J5", "P4")]:
        assert table.on_stretch_joined_to(s(target), home), (target, home)
    assert not table.on_stretch_joined_to(s("P1:B3"), "P2")
    assert not table.on_stretch_joined_to(s("P1:J5"), "P2")
    assert table.joined("P1", "P3") and table.joined("P3", "P1")
    partial = layout(GameName.DEFLECTOR, 4, "table-4-partial")
    assert not partial.joined("P1", "P3")
    assert partial.joined_to("P1") == ("P2", "P4")
    five = layout(GameName.DEFLECTOR, 5, "table-5-partial")
    assert five.on_stretch_joined_to(s("P1:E1"), "P2")
    assert not five.on_stretch_joined_to(s("P1:F1"), "P2")  # only the left half
    assert not five.on_stretch_joined_to(s("P2:J6"), "P1")  # only the top half


# --- §9.5.6: directions and next grids -------------------------------------------------

def test_9_5_6_direction_the_shorter_way_round_by_seats():
    """SPEC §9.5.6 / decision 12: clockwise when d < n/2, anticlockwise when d > n/2."""
    assert direction("P1", "P2", 3) is CW
    assert direction("P1", "P3", 3) is ACW
    assert direction("P2", "P1", 4) is ACW  # Example 2, move 6: P2 captures on P1
    assert direction("P1", "P2", 5) is CW
    assert direction("P1", "P3", 5) is CW
    assert direction("P1", "P4", 5) is ACW
    assert direction("P4", "P1", 5) is CW  # wrapping: P1 is 2 seats clockwise of P4
    assert direction("P1", "P2", 2) is CW  # Reflector's only opponent is straight across


def test_9_5_6_straight_across_is_clockwise():
    """SPEC §9.5.6: d = n/2 (straight across) counts as clockwise (Example 2, move 5:
    P1 on P3 at four players)."""
    assert direction("P1", "P3", 4) is CW
    assert direction("P3", "P1", 4) is CW
    assert direction("P2", "P5", 6) is CW
    assert direction("P5", "P2", 6) is CW
    assert direction("P4", "P10", 12) is CW


def test_9_5_6_own_grid_and_island_count_as_clockwise():
    """SPEC §9.5.6: a shot on the shooter's own grid, or on the Island, is clockwise."""
    assert direction("P2", "P2", 4) is CW
    assert direction("P5", "I3", 6) is CW


@pytest.mark.parametrize("n", range(2, 13))
def test_9_5_6_direction_is_reversed_from_the_other_side_unless_straight_across(n):
    """SPEC §9.5.6: for every pair of seats, the way back is the other way round, except
    straight across, which is clockwise both ways."""
    for a, b in itertools.permutations(range(1, n + 1), 2):
        there, back = direction(f"P{a}", f"P{b}", n), direction(f"P{b}", f"P{a}", n)
        if 2 * ((b - a) % n) == n:
            assert there is back is CW
        else:
            assert there is not back


def test_9_5_6_next_grid_by_seats_wrapping_round():
    """SPEC §9.5.6 / decision 13: the next grid is the next seat's, in the direction,
    whatever the joins (Example 2 moves 5 and 6)."""
    table = layout(GameName.DEFLECTOR, 4, "table-4-full")
    assert table.next_grid("P3", CW) == "P4"
    assert table.next_grid("P4", CW) == "P1"
    assert table.next_grid("P1", ACW) == "P4"
    partial = layout(GameName.DEFLECTOR, 4, "table-4-partial")
    assert partial.next_grid("P1", CW) == "P2"  # not joined to P3, seats decide
    assert partial.next_grid("P2", CW) == "P3"
    with pytest.raises(ValueError, match="player's grid"):
        table.next_grid("P5", CW)


def test_9_6_3_next_grid_skips_the_island():
    """SPEC §9.6.3: seats, and therefore deflections, skip the Island."""
    table = layout(GameName.DEFECTOR, 6, "defector-island")
    assert table.next_grid("P6", CW) == "P1"
    assert table.next_grid("P1", ACW) == "P6"
    assert table.next_grid("P3", CW) == "P4"
    with pytest.raises(ValueError, match="player's grid"):
        table.next_grid("I1", CW)


def test_9_6_3_island_grids_have_no_owner():
    """SPEC §9.1.2, §9.6.3: the Island's grids are nobody's."""
    table = layout(GameName.DEFECTOR, 7, "defector-island")
    assert table.owner("P3") == "P3"
    assert table.owner("I2") is None
    assert table.islands == tuple(f"I{j}" for j in range(1, 9))
    assert table.has(s("I8:J10")) and not table.has(s("I9:A1")) and not table.has(s("P8:A1"))
    with pytest.raises(KeyError):
        table.owner("P8")


# --- §9.6.2: the Defector layouts built by rule -----------------------------------------

@pytest.mark.parametrize("n", range(6, 13))
def test_9_6_2_full_access_every_row_1_meets_every_row_1(n):
    """SPEC §9.6.2: full access joins every player's Row 1 to every other's, with
    mirrored letters (§9.1.6)."""
    table = layout(GameName.DEFECTOR, n, "defector-full")
    assert table.grids == tuple(f"P{k}" for k in range(1, n + 1))
    assert len(table.joins) == n * (n - 1) // 2
    for a, b in itertools.combinations(range(1, n + 1), 2):
        assert table.joined(f"P{a}", f"P{b}")
    assert across(table, "P1:C1") == [f"P{k}:H1" for k in range(2, n + 1)]
    assert across(table, "P1:C2") == []


@pytest.mark.parametrize("n", range(6, 13))
def test_9_6_2_island_seating_by_rule(n):
    """SPEC §9.6.2: k = ⌈n/2⌉ spare cards give I1 … I2k; I(2j−1) and I(2j) meet Row 1 to
    Row 1, I(2j)'s Row 10 touches I(2j+1)'s; players 1 … k lie against Column A of I1, I3,
    …, players k+1 … n against I(2k), I(2k−2), …; I2 is empty when n is odd; no two
    players' grids are joined."""
    k = math.ceil(n / 2)
    table = layout(GameName.DEFECTOR, n, "defector-island")
    assert table.grids == (tuple(f"P{p}" for p in range(1, n + 1))
                           + tuple(f"I{j}" for j in range(1, 2 * k + 1)))
    expected = {p: 2 * p - 1 for p in range(1, k + 1)}
    expected |= {k + i: 2 * k - 2 * (i - 1) for i in range(1, n - k + 1)}
    for p in range(1, n + 1):
        island = f"I{expected[p]}"
        assert table.joined_to(f"P{p}") == (island,)
        assert across(table, f"P{p}:B1") == [f"{island}:A2"]
        for q in range(1, n + 1):
            assert q == p or not table.joined(f"P{p}", f"P{q}")
    used = set(expected.values())
    assert len(used) == n
    assert (2 not in used) == (n % 2 == 1)
    for j in range(1, k + 1):
        assert across(table, f"I{2 * j - 1}:A1") == [
            f"P{p}:A1" for p in expected if expected[p] == 2 * j - 1] + [f"I{2 * j}:J1"]
        if j < k:
            assert across(table, f"I{2 * j}:B10") == [f"I{2 * j + 1}:I10"]
    assert across(table, f"I{2 * k}:C10") == []  # the strip's far end is free


@pytest.mark.parametrize("name,build", [("defector-full", joins.full_access),
                                        ("defector-island", joins.island)])
def test_9_6_2_built_layouts_equal_the_data_for_six(name, build):
    """SPEC §9.6.2: the data draws n = 6; the rule gives exactly its joins."""
    data = joins.from_arrangement(bundled()[name])
    built = build(6)
    assert built.grids == data.grids
    assert built.pairs() == data.pairs()
    assert layout(GameName.DEFECTOR, 6, name).pairs() == data.pairs()


# --- §9.4.1, §9.5.1: which arrangement --------------------------------------------------

@pytest.mark.parametrize("name", [None, "reflector-fold", "reflector-cut",
                                  "reflector-three-cards"])
def test_9_4_1_every_reflector_set_up_plays_alike(name):
    """SPEC §9.4.1: the two grids meet Row 1 to Row 1 whatever the set-up."""
    table = layout(GameName.REFLECTOR, 2, name)
    assert table.grids == ("P1", "P2")
    assert table.arrangement == name
    assert table.pairs() == layout(GameName.REFLECTOR, 2, None).pairs()
    assert len(table.pairs()) == 10


@pytest.mark.parametrize("game,players,name,words", [
    (GameName.DEFLECTOR, 4, "table-5-full", "is for 5 players, not 4"),
    (GameName.DEFLECTOR, 4, "table-9", "'table-9' is not a deflector table; for 4 players"),
    (GameName.DEFLECTOR, 4, None, "is missing"),
    (GameName.DEFLECTOR, 6, "table-4-full", "cannot seat 6 players: deflector is for 3–5"),
    (GameName.REFLECTOR, 2, "table-3", "'table-3' is not a reflector table"),
    (GameName.DEFLECTOR, 3, "x" * 500, "(500 characters)"),
    (GameName.REFLECTOR, 3, None, "2 players"),
    (GameName.DEFECTOR, 6, "table-4-full", "'defector-full' or 'defector-island'"),
    (GameName.DEFECTOR, 5, "defector-full", "6+ players"),
    (GameName.DEFECTOR, 6, None, "is missing; defector for 6 players is played on"),
])
def test_9_5_1_wrong_arrangement_names_the_field(game, players, name, words):
    """SPEC §9.5.1, §9.6.2: a wrong name or player count names ``arrangement``."""
    with pytest.raises(ParameterError) as caught:
        layout(game, players, name)
    assert caught.value.parameter == "arrangement"
    assert words in str(caught.value)
    assert str(caught.value).startswith("arrangement ")
    assert isinstance(caught.value, CardgenError)


def test_9_5_1_four_partial_offers_the_other_names_for_the_count():
    with pytest.raises(ParameterError, match="'table-4-full' or 'table-4-partial'"):
        layout(GameName.DEFLECTOR, 4, "table-3")


# --- §9.6.9: down --------------------------------------------------------------------------

def test_9_6_9_down_for_each_turn_count():
    """SPEC §9.6.9: down is towards Row 10 at q = 0, Column J at 1, Row 1 at 2, Column A
    at 3; q counts mod 4."""
    e5 = s("P3:E5")
    assert spot_name(down(e5, 0)) == "P3:E6"
    assert spot_name(down(e5, 1)) == "P3:F5"
    assert spot_name(down(e5, 2)) == "P3:E4"
    assert spot_name(down(e5, 3)) == "P3:D5"
    assert down(e5, 4) == down(e5, 0)
    assert down(e5, 7) == down(e5, 3)


def test_9_6_9_down_off_the_grid_is_none():
    """SPEC §9.6.9: a base on the edge towards the owner reaches nothing down."""
    assert down(s("P1:C10"), 0) is None
    assert down(s("P1:J4"), 1) is None
    assert down(s("P1:C1"), 2) is None
    assert down(s("P1:A7"), 3) is None
    assert spot_name(down(s("P1:A7"), 1)) == "P1:B7"


@pytest.mark.parametrize("q", range(4))
def test_9_6_9_up_is_where_down_comes_from(q):
    """SPEC §9.6.9: the base that reaches a space down from it lies up from that space."""
    table = layout(GameName.DEFECTOR, 6, "defector-full")
    for spot in table.spaces("P2"):
        below = down(spot, q)
        assert below is None or up(below, q) == spot
        above = up(spot, q)
        assert above is None or down(above, q) == spot


def test_9_1_3_spaces_in_reading_order_and_seats():
    """SPEC §9.1.3: reading order is Row 1 first, A to J within a row; §9.1.1 seats."""
    table = layout(GameName.DEFECTOR, 7, "defector-island")
    spaces = table.spaces("I3")
    assert len(spaces) == 100 and names(spaces[:3]) == ["I3:A1", "I3:B1", "I3:C1"]
    assert names(spaces[-2:]) == ["I3:I10", "I3:J10"]
    assert table.seats == tuple(f"P{k}" for k in range(1, 8))


def test_9_5_7_example_2_chains_go_round_the_seats():
    """SPEC §9.5.7-9.5.8, Example 2 (§9.8): move 5's chain P3:F1 → P4:F1 → P1:F1 goes
    clockwise (straight across); move 6's fired Deflectors go anticlockwise from P1 to P4."""
    table = layout(GameName.DEFLECTOR, 4, "table-4-full")
    way = direction("P1", "P3", 4)
    assert table.next_grid("P3", way) == "P4"
    assert table.next_grid("P4", way) == "P1"
    fired = direction("P2", "P1", 4)
    assert fired is ACW and table.next_grid("P1", fired) == "P4"
