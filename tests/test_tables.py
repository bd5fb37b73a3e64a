"""Table arrangements (SPEC §8): the shipped data checks out against its own geometry,
the contact relation says what SPEC §8 says, a grid moved or turned makes the check
fail for the right reason, and the data file's errors name the entry."""

from __future__ import annotations

import dataclasses
import itertools
import tomllib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardgen.errors import CardgenError, ConfigError
from cardgen.games.nodes.model import Role
from cardgen.games.nodes.tables import (
    Arrangement,
    Contact,
    Edge,
    End,
    Kind,
    Part,
    PlacedGrid,
    Stretch,
    arrangement,
    arrangements_from_data,
    arrangements_path,
    bundled,
    layout,
    parse_stretch,
)
from tests.helpers import examples

NAMES = ("reflector-fold", "reflector-cut", "reflector-three-cards", "table-3",
         "table-4-full", "table-4-partial", "table-5-full", "table-5-partial",
         "defector-full", "defector-island")


def test_every_arrangement_is_shipped_and_checks_out():
    assert set(bundled()) == set(NAMES)
    for name in NAMES:
        assert arrangement(name).problems() == [], name


def _pairs(arr: Arrangement) -> set[frozenset[int]]:
    """Which players reach which directly (through any contact of their grids)."""
    return {frozenset((p, q)) for p in range(1, arr.players + 1)
            for q in range(1, arr.players + 1) if p != q
            and any(arr.grid(e.grid).player == q for e in arr.entries(p))}


def _complete(n: int) -> set[frozenset[int]]:
    return {frozenset(pair) for pair in itertools.combinations(range(1, n + 1), 2)}


def _ring(n: int) -> set[frozenset[int]]:
    return {frozenset((k, k % n + 1)) for k in range(1, n + 1)}


def _stretches(arr: Arrangement, p: int, q: int) -> set[tuple[Stretch, Stretch]]:
    """(p's stretch, q's stretch) of every contact between the players' grids."""
    return {(e_p.stretch, e_q.stretch) for c in arr.contacts
            for e_p, e_q in ((c.a, c.b), (c.b, c.a))
            if arr.grid(e_p.grid).player == p and arr.grid(e_q.grid).player == q}


A, J, R1, R10 = Edge.COLUMN_A, Edge.COLUMN_J, Edge.ROW_1, Edge.ROW_10


def test_three_players_ring_column_a_to_the_left_neighbours_column_j():
    arr = arrangement("table-3")
    assert _pairs(arr) == _complete(3)
    for p in (1, 2, 3):
        left = p % 3 + 1
        assert _stretches(arr, p, left) == {(Stretch(A), Stretch(J))}


def test_four_players_full_access_sides_and_row_1_across():
    arr = arrangement("table-4-full")
    assert _pairs(arr) == _complete(4)
    for p in (1, 2, 3, 4):
        assert _stretches(arr, p, p % 4 + 1) == {(Stretch(A), Stretch(J))}
        assert _stretches(arr, p, (p + 1) % 4 + 1) == {(Stretch(R1), Stretch(R1))}


def test_four_players_partial_access_a_square_of_tops():
    arr = arrangement("table-4-partial")
    assert _pairs(arr) == _ring(4)  # each reaches two of three; the diagonal is out
    assert all(c.kind is Kind.TOUCH for c in arr.contacts)
    for p in (1, 2, 3, 4):
        edges = {s.edge for q in range(1, 5) for s, _ in _stretches(arr, p, q)}
        assert R1 in edges and len(edges) == 2  # the top and one side


def test_five_players_full_access_upper_halves_and_row_1_halves():
    arr = arrangement("table-5-full")
    assert _pairs(arr) == _complete(5)
    for p in range(1, 6):
        first, second = p % 5 + 1, (p + 1) % 5 + 1
        assert _stretches(arr, p, first) == {(Stretch(A, Part.TOP), Stretch(J, Part.TOP))}
        assert _stretches(arr, p, second) == {(Stretch(R1, Part.LEFT), Stretch(R1, Part.RIGHT))}


def test_five_players_partial_access_a_pentagon_edge_to_edge():
    arr = arrangement("table-5-partial")
    assert _pairs(arr) == _ring(5)  # each reaches two of the four others
    assert all(c.kind is Kind.TOUCH for c in arr.contacts)
    assert _stretches(arr, 1, 5) == {(Stretch(J), Stretch(A))}
    assert _stretches(arr, 2, 1) == {(Stretch(J, Part.TOP), Stretch(R1, Part.LEFT))}
    assert _stretches(arr, 3, 2) == {(Stretch(J, Part.TOP), Stretch(R1, Part.LEFT))}
    assert _stretches(arr, 3, 4) == {(Stretch(A, Part.TOP), Stretch(R1, Part.RIGHT))}


def test_defector_full_access_every_row_1_to_every_row_1():
    arr = arrangement("defector-full")
    assert _pairs(arr) == _complete(arr.players)
    assert {(c.a.stretch, c.b.stretch) for c in arr.contacts} == {(Stretch(R1), Stretch(R1))}


def test_defector_island_players_reach_only_the_island():
    arr = arrangement("defector-island")
    assert arr.players >= 6 and arr.cards > arr.players
    assert _pairs(arr) == set()
    island = [g for g in arr.grids if g.role is Role.ISLAND]
    entered = []
    for p in range(1, arr.players + 1):
        [entry] = arr.entries(p)  # exactly one island grid, along the player's Row 1
        assert arr.grid(entry.grid).role is Role.ISLAND
        assert entry.exit == Stretch(R1).cells()
        entered.append(entry.grid)
    assert sorted(entered) == sorted(g.id for g in island)  # one player at each


def test_reflector_set_ups():
    cut = arrangement("reflector-cut")
    assert cut.entries(1)[0].cells == Stretch(R1).cells()  # the first move: Row 1
    assert _pairs(cut) == _pairs(arrangement("reflector-three-cards")) == {frozenset((1, 2))}
    fold = arrangement("reflector-fold")
    assert fold.stand and all(c.kind is Kind.FOLD for c in fold.contacts)
    for arr in (cut, fold, arrangement("reflector-three-cards")):
        assert {g.role for g in arr.grids if g.player == 1} == {Role.PUBLIC, Role.PRIVATE}


def test_entries_name_the_squares_of_the_stretch():
    [to_one, to_three] = sorted(arrangement("table-5-partial").entries(2),
                                key=lambda e: e.grid)
    assert to_one.names == ("A1", "B1", "C1", "D1", "E1")
    assert to_one.exit == ((9, 1), (9, 2), (9, 3), (9, 4), (9, 5))
    assert to_three.names == ("J1", "J2", "J3", "J4", "J5")


def _moved(arr: Arrangement, grid_id: str, **changes: float) -> Arrangement:
    grids = tuple(dataclasses.replace(g, **changes) if g.id == grid_id else g
                  for g in arr.grids)
    return dataclasses.replace(arr, grids=grids)


@pytest.mark.parametrize(("name", "grid", "changes", "expected"), [
    ("table-4-partial", "4", {"x": 4.5}, ["grids 1 and 4 overlap", "shifted 0.50 squares"]),
    ("table-4-partial", "4", {"x": 6.0}, ["1.00 squares apart"]),
    ("table-4-partial", "3", {"y": -5.3}, ["shifted 0.30"]),
    ("table-4-partial", "4", {"rotation": 90}, ["angle of 90°"]),
    ("table-5-partial", "3", {"y": -4.0}, ["shifted 1.00", "grids 2 and 3 touch along 6.0"]),
    ("table-5-partial", "3", {"y": 1.0}, ["grids 1 and 3 overlap", "grids 3 and 5 overlap"]),
    ("table-3", "2", {"x": 2.0}, ["grids 2 and 3 overlap", "twisted"]),
    ("table-4-full", "1", {"rotation": 10}, ["grid 4 lies between"]),
    ("table-5-full", "3", {"rotation": 150}, ["grid 2 lies between"]),
    ("defector-island", "4", {"x": 45.0}, ["shifted 10.00", "island-5 and 4 touch along 10.0",
                                           "grids 4 and 5 touch"]),
])
def test_a_grid_moved_or_turned_fails_for_the_right_reason(name, grid, changes, expected):
    problems = _moved(arrangement(name), grid, **changes).problems()
    text = " ".join(problems)
    assert problems and all(word in text for word in expected), problems


def test_unstated_touches_are_found():
    arr = arrangement("table-4-partial")
    fewer = dataclasses.replace(arr, contacts=arr.contacts[1:])
    [problem] = fewer.problems()
    assert "grids 1 and 2 touch along 10.0 squares" in problem


def test_a_bridge_where_the_edges_touch_should_be_a_touch():
    arr = arrangement("table-4-partial")
    first = arr.contacts[0]
    bridged = dataclasses.replace(arr, contacts=(Contact(Kind.BRIDGE, first.a, first.b),
                                                 *arr.contacts[1:]))
    assert any("make it a touch" in p for p in bridged.problems())


def test_rotations_that_are_not_quarter_turns_are_checked_exactly():
    """Two grids turned 30° lie edge to edge; turned 31° one overlaps the other."""
    import math

    def pair(angle: float) -> Arrangement:
        c, s = math.cos(math.radians(angle)), math.sin(math.radians(angle))
        # grid 2 shares grid 1's Column J: its centre is 10 squares along 1's x axis
        return Arrangement("tilted", arrangement("table-3").game, 2, 2, False, (
            PlacedGrid("1", 1, Role.PUBLIC, "1", 0, 0, 30),
            PlacedGrid("2", 2, Role.PUBLIC, "2", 10 * c, 10 * s, angle)),
            (Contact(Kind.TOUCH, End("1", Stretch(J)), End("2", Stretch(A))),))

    assert pair(30).problems() == []
    assert any("angle of 1°" in p for p in pair(31).problems())


def test_layout_at_card_size():
    arr = arrangement("table-4-partial")
    lay = layout(arr, 4.9, 10, 20, margin=5)
    assert (lay.width, lay.height) == pytest.approx((20 * 4.9 + 10, 20 * 4.9 + 10))
    one = lay.outline("1")
    assert one.corners[0] == pytest.approx((15, 25 + 49))  # Row 1 / A corner at the middle
    assert one.transform.apply(0, 0) == pytest.approx(one.corners[0])
    start, end = lay.stretch(arr.contacts[0].a)
    assert start + end == pytest.approx((15, 74, 64, 74))


# --- the data file -----------------------------------------------------------------------

def _data() -> dict:
    return tomllib.loads(arrangements_path().read_text(encoding="utf-8"))


def test_the_data_file_round_trips():
    assert arrangements_from_data(_data(), "x") == bundled()


@pytest.mark.parametrize(("edit", "expected"), [
    (lambda d: d["arrangement"][3]["contact"][0].update({"from": "1 column-b"}),
     "arrangement[4].contact[1].from has no edge 'column-b'"),
    (lambda d: d["arrangement"][3]["contact"][0].update({"from": "1 row-1 top"}),
     "has no half 'top' of row-1"),
    (lambda d: d["arrangement"][3]["contact"][0].update({"to": "9 column-j"}),
     "names grid '9', which is not in the arrangement"),
    (lambda d: d["arrangement"][3]["grid"][1].update({"x": 0.0}),
     "table-3: grids 2 and 3 overlap"),
    (lambda d: d["arrangement"][3]["grid"][1].update({"player": 1}),
     "player 1 has 2 public grids"),
    (lambda d: d["arrangement"][3]["contact"][0].update({"to": "2 column-j top"}),
     "the stretches are 10 and 5 squares long"),
    (lambda d: d["arrangement"][5]["contact"][0].update({"kind": "fold"}),
     "a fold joins the two halves of one card"),
    (lambda d: d["arrangement"][4].update({"name": "table-3"}),
     "two arrangements are called 'table-3'"),
])
def test_errors_name_the_entry(edit, expected):
    data = _data()
    edit(data)
    with pytest.raises(ConfigError) as err:
        arrangements_from_data(data, "arrangements.toml")
    assert expected in str(err.value)


def test_an_unknown_arrangement_is_one_sentence():
    with pytest.raises(CardgenError, match="no table arrangement 'table-9'; known: "):
        arrangement("table-9")


@settings(max_examples=examples(60), deadline=None)
@given(st.text(max_size=30))
def test_hostile_stretches_parse_or_say_why(text):
    try:
        stretch = parse_stretch(text)
    except ValueError as exc:
        assert str(exc) and "\n" not in str(exc)
    else:
        assert parse_stretch(str(stretch)) == stretch
        assert len(stretch.cells()) == stretch.length in (5, 10)


_VALUES = st.one_of(st.none(), st.booleans(), st.integers(-500, 500),
                    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=20),
                    st.lists(st.integers(), max_size=2), st.dictionaries(st.text(max_size=3),
                                                                         st.integers(), max_size=2))


@settings(max_examples=examples(40), deadline=None)
@given(st.data())
def test_hostile_edits_to_the_data_load_or_fail_in_sentences(data):
    """Any value put anywhere in the file is either read or refused with sentences that
    name the entry, never a crash."""
    doc = _data()
    arr = data.draw(st.sampled_from(doc["arrangement"]))
    table = data.draw(st.sampled_from([arr, *arr["grid"], *arr["contact"]]))
    key = data.draw(st.sampled_from([*table, "extra"]))
    value = data.draw(_VALUES)
    if value is None:
        table.pop(key, None)
    else:
        table[key] = value
    try:
        arrangements_from_data(doc, "arrangements.toml")
    except ConfigError as exc:
        assert str(exc).startswith("arrangements.toml") and "Traceback" not in str(exc)
