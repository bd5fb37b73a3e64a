"""The Corporate Ladder pyramid (cardgen.ladder.pyramid): places, supports, the
attackable rule (a card can be attacked iff no card lies directly below it), and where
the places lie on the table."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardgen.errors import CardgenError
from cardgen.ladder.pyramid import Pyramid, Slot
from tests.helpers import examples

THREE, FOUR = Pyramid(3), Pyramid(4)
S = Slot


def test_places_row_by_row_from_the_apex():
    assert THREE.slots() == (S(0, 0), S(1, 0), S(1, 1), S(2, 0), S(2, 1), S(2, 2))
    assert len(THREE) == 6 and len(FOUR) == 10 and len(FOUR.slots()) == 10
    assert THREE.apex == S(0, 0)
    assert S(2, 2) in THREE and S(2, 3) not in THREE and S(3, 0) not in THREE


@pytest.mark.parametrize("pyramid,slot,below", [
    (THREE, S(0, 0), (S(1, 0), S(1, 1))),
    (THREE, S(1, 1), (S(2, 1), S(2, 2))),
    (THREE, S(2, 0), ()),
    (FOUR, S(2, 0), (S(3, 0), S(3, 1))),
    (FOUR, S(3, 3), ()),
])
def test_each_card_rests_on_the_two_below_it(pyramid, slot, below):
    assert pyramid.below(slot) == below
    for support in below:
        assert slot in pyramid.above(support)


def test_above_is_below_turned_round():
    for pyramid in (THREE, FOUR):
        for upper, lower in itertools.product(pyramid.slots(), repeat=2):
            assert (lower in pyramid.below(upper)) == (upper in pyramid.above(lower))
    assert FOUR.above(S(0, 0)) == ()
    assert FOUR.above(S(3, 0)) == (S(2, 0),)


# occupied places -> the attackable ones
CASES = [
    (THREE, THREE.slots(), {S(2, 0), S(2, 1), S(2, 2)}),
    (THREE, {S(0, 0), S(1, 0), S(1, 1), S(2, 2)}, {S(1, 0), S(2, 2)}),
    (THREE, {S(0, 0), S(1, 1), S(2, 0)}, {S(1, 1), S(2, 0)}),
    (THREE, {S(0, 0)}, {S(0, 0)}),
    (THREE, set(), set()),
    (FOUR, FOUR.slots(), {S(3, c) for c in range(4)}),
    (FOUR, {S(0, 0), S(1, 0), S(2, 1), S(3, 2)}, {S(3, 2)}),
    (FOUR, {S(0, 0), S(1, 1), S(2, 0), S(3, 3)}, {S(1, 1), S(2, 0), S(3, 3)}),
]


@pytest.mark.parametrize("pyramid,occupied,expected", CASES)
def test_attackable_cases(pyramid, occupied, expected):
    assert pyramid.attackable(occupied) == expected


@settings(max_examples=examples(40), deadline=None)
@given(st.sampled_from([3, 4]), st.data())
def test_a_card_is_attackable_iff_no_card_lies_directly_below_it(rows, data):
    pyramid = Pyramid(rows)
    occupied = set(data.draw(st.sets(st.sampled_from(pyramid.slots()))))
    open_ = pyramid.attackable(occupied)
    assert open_ <= occupied
    for slot in occupied:
        assert (slot in open_) == (not set(pyramid.below(slot)) & occupied)
        if slot.row == rows - 1:
            assert slot in open_  # the bottom row always can be


def test_places_that_are_not_in_the_pyramid_are_refused():
    with pytest.raises(CardgenError, match="row 4 place 1 is not a place of a 3-row"):
        THREE.attackable({S(3, 0)})
    with pytest.raises(CardgenError, match="not a place"):
        THREE.below(S(1, 2))
    with pytest.raises(CardgenError, match="1 to 12 rows, not 0"):
        Pyramid(0)


def test_boxes_each_card_centred_over_the_gap_of_the_two_below():
    w, h, gx, gy = 85.0, 55.0, 4.0, 14.0
    boxes = FOUR.boxes(w, h, gx, gy)
    assert FOUR.size(w, h, gx, gy) == (4 * w + 3 * gx, 4 * h + 3 * gy)
    assert boxes[S(3, 0)].x == pytest.approx(0) and boxes[S(0, 0)].y == 0
    assert boxes[S(3, 3)].right == pytest.approx(4 * w + 3 * gx)
    assert boxes[S(3, 3)].bottom == pytest.approx(4 * h + 3 * gy)
    for slot, box in boxes.items():
        assert (box.w, box.h) == (w, h)
        assert box.y == pytest.approx(slot.row * (h + gy))
        below = FOUR.below(slot)
        if below:
            left, right = (boxes[b] for b in below)
            assert box.center[0] == pytest.approx((left.right + right.x) / 2)
            assert right.x - left.right == pytest.approx(gx)
    for a, b in itertools.combinations(boxes.values(), 2):
        assert not a.intersects(b)
