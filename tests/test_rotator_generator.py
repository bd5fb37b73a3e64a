"""The seeded generator: reproducible anywhere, only proved-winnable boards, documented
grades, a bounded effort."""

from __future__ import annotations

import pytest

from cardgen.errors import CardgenError
from cardgen.rotator.engine import Terrain, replay
from cardgen.rotator.generator import (
    GRADE_RULES,
    GRADES,
    SplitMix64,
    analyse,
    generate,
    grade,
)


def test_splitmix64_matches_the_published_sequence():
    rng = SplitMix64(0)
    assert [rng.next() for _ in range(3)] == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4,
                                              0x06C45D188009454F]


def test_below_is_in_range_and_covers_it():
    rng = SplitMix64(42)
    values = [rng.below(7) for _ in range(700)]
    assert set(values) == set(range(7))


def test_seeds_give_pinned_boards():
    """The same seed gives these boards on every machine and Python version: the
    generator uses its own arithmetic, no library random numbers."""
    assert [b.rmap.board_id for b in generate(7, 3).boards] == [
        "R1:B2D9G5I2I8-B6D3E8H4I9", "R1:C5D9E2G7I4-B2C9F7H3I9", "R1:B5C9F2G6I9-B7D3F6H9I4"]
    assert [b.rmap.board_id for b in generate(2026, 2, "easy").boards] == [
        "R1:B8C3F7G2I9-B3D7F2G9I6", "R1:B9C4F6G2I9-B5E8F2I4I9"]


def test_different_seeds_differ_and_parallel_jobs_change_nothing():
    a = [b.rmap.board_id for b in generate(11, 4, "medium").boards]
    b = [b.rmap.board_id for b in generate(11, 4, "medium", jobs=2).boards]
    c = [b.rmap.board_id for b in generate(12, 4, "medium").boards]
    assert a == b and a != c


@pytest.mark.parametrize(("turns", "boosts", "starts", "expected"), [
    (5, 3, 8, "easy"), (1, 0, 10, "easy"), (5, 4, 9, "medium"), (5, 2, 7, "medium"),
    (9, 5, 8, "medium"), (9, 6, 9, "hard"), (9, 2, 7, "hard"), (13, 1, 10, "hard"),
    (7, 5, 8, "medium"),
])
def test_grade_thresholds(turns, boosts, starts, expected):
    assert grade(turns, boosts, starts) == expected


def test_every_grade_is_documented():
    assert set(GRADE_RULES) == set(GRADES)


@pytest.mark.parametrize("difficulty", ["easy", "hard"])
def test_boards_are_proved_winnable_and_of_the_asked_grade(difficulty):
    result = generate(5, 2, difficulty, jobs=2)
    assert result.complete and len(result.boards) == 2
    for board in result.boards:
        assert board.grade == difficulty
        best = board.best
        assert grade(best.turns, best.boosts, len(board.winning_starts)) == difficulty
        reports = replay(Terrain.from_map(board.rmap), best.start, best.choices)
        assert reports[-1].won and len(reports) == best.turns
        assert best.start in board.winning_starts


def test_analyse_drops_maps_that_cannot_have_the_grade():
    from cardgen.rotator.board import RotatorMap

    medium = RotatorMap.from_id("R1:B2D9G5I2I8-B6D3E8H4I9")  # best line: 9 turns
    easy = RotatorMap.from_id("R1:B8C3F7G2I9-B3D7F2G9I6")  # best line: 5 turns
    one_fall = RotatorMap.from_id("R1:D4D9G6I2I9-B9D6E2G8H4")  # won by the first fall
    assert analyse(medium).grade == "medium" and analyse(easy).grade == "easy"
    assert analyse(one_fall) is None  # no puzzle: never emitted
    assert analyse(medium, wanted="medium").grade == "medium"
    assert analyse(medium, wanted="easy") is None  # stopped after 5 turns
    assert analyse(easy, wanted="hard") is None  # too short to be hard
    full, quick = analyse(medium), analyse(medium, wanted="easy")
    assert quick is None and full.states > 0


def test_bounded_effort_says_so():
    result = generate(3, 5, "hard", max_candidates=3)
    assert not result.complete and result.candidates == 3


def test_bad_options():
    with pytest.raises(CardgenError, match="difficulty"):
        generate(1, 1, "fiendish")
    with pytest.raises(CardgenError, match="count"):
        generate(1, 0)
