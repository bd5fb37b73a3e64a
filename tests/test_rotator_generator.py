"""The seeded generator: reproducible anywhere, only proved-winnable boards, documented
grades, a bounded effort."""

from __future__ import annotations

import json
import re

import pytest

from benchmarks.bench_rotator_grading import plain_below, plain_random_map
from cardgen.errors import ParameterError
from cardgen.games.rng import SplitMix64
from cardgen.games.rotator.board import RotatorMap
from cardgen.games.rotator.engine import Terrain, replay
from cardgen.games.rotator.generator import (
    GRADE_RULES,
    Grade,
    analyse,
    generate,
    grade,
    random_map,
    shares,
)
from cardgen.games.rotator.grading import Figures
from tests.helpers import cli, error_line, ok, sampled


def test_splitmix64_matches_the_published_sequence():
    rng = SplitMix64(0)
    assert [rng.next() for _ in range(3)] == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4,
                                              0x06C45D188009454F]


def test_below_is_in_range_and_covers_it():
    rng = SplitMix64(42)
    values = [rng.below(7) for _ in range(700)]
    assert set(values) == set(range(7))


def test_below_draws_what_rejection_on_next_draws():
    # below writes next out: the same values and the same state after, for small n, for
    # n of the generator's and the computer's sizes, and for n just past 2**63, where
    # nearly half the draws are rejected (the loop runs again).
    sizes = [1, 2, 3, 7, 10, 64, 1000, 1 << 30, (1 << 63) + 1, (1 << 64) - 1, 1 << 64]
    for seed in (0, 1, 42, 2026, -5, 1 << 70):
        fast, plain = SplitMix64(seed), SplitMix64(seed)
        for _ in range(20):
            for n in sizes:
                assert fast.below(n) == plain_below(plain, n)
                assert fast.state == plain.state
    with pytest.raises(ValueError, match="below"):
        SplitMix64(1).below(0)


def test_seeds_give_pinned_boards():
    """The same seed gives these boards on every machine and Python version: the
    generator uses its own arithmetic, no library random numbers."""
    assert [b.rmap.board_id for b in generate(7, 3).boards] == [
        "R1:B2D9G5I2I8-B6D3E8H4I9", "R1:C5D9E2G7I4-B2C9F7H3I9", "R1:B5C9F2G6I9-B7D3F6H9I4"]
    assert [b.rmap.board_id for b in generate(2026, 2, Grade.EASY).boards] == [
        "R1:B8C3F7G2I9-B3D7F2G9I6", "R1:B4D8G2H9I5-B7E3E9G6I2"]


@pytest.mark.slow
def test_different_seeds_differ_and_parallel_jobs_change_nothing():
    # Easy boards are quick to grade and rare (seed 12 draws 17 maps for three), so many
    # maps are in flight at once with two jobs.
    a = [b.rmap.board_id for b in generate(12, 3, Grade.EASY).boards]
    b = [b.rmap.board_id for b in generate(12, 3, Grade.EASY, jobs=2).boards]
    c = [b.rmap.board_id for b in generate(14, 3, Grade.EASY).boards]
    assert a == b and a != c


@pytest.mark.parametrize(("par", "boosts", "opened", "expected"), [
    (5, 3, 10, Grade.EASY), (2, 0, 30, Grade.EASY), (5, 4, 20, Grade.MEDIUM),
    (5, 0, 9, Grade.MEDIUM), (7, 0, 30, Grade.MEDIUM), (9, 3, 13, Grade.MEDIUM),
    (9, 4, 13, Grade.HARD), (9, 0, 12, Grade.HARD), (12, 3, 13, Grade.MEDIUM),
    (13, 0, 30, Grade.HARD), (5, 9, 1, Grade.MEDIUM),
])
def test_grade_thresholds(par, boosts, opened, expected):
    assert grade(Figures(par, boosts, opened, 35, 1, 0)) is expected


def test_every_grade_is_documented():
    assert set(GRADE_RULES) == set(Grade)
    assert [g.value for g in Grade] == ["easy", "medium", "hard"]


@pytest.mark.parametrize("difficulty", [Grade.EASY, Grade.HARD])
def test_boards_are_proved_winnable_and_of_the_asked_grade(difficulty):
    result = generate(5, 2, difficulty)
    assert result.complete and len(result.boards) == 2
    for board in result.boards:
        assert board.grade is difficulty
        best = board.best
        figures = board.figures
        assert grade(figures) is difficulty and figures.par == best.turns
        assert figures.boosts_needed <= best.boosts
        assert figures.par_moves <= figures.open_moves <= figures.first_moves
        reports = replay(Terrain.from_map(board.rmap), best.start, best.choices)
        assert reports[-1].won and len(reports) == best.turns
        assert best.start in board.winning_starts


def test_analyse_drops_maps_that_cannot_have_the_grade():
    medium = RotatorMap.from_id("R1:B2D9G5I2I8-B6D3E8H4I9")  # best line: 9 turns
    easy = RotatorMap.from_id("R1:B8C3F7G2I9-B3D7F2G9I6")  # best line: 5 turns
    one_fall = RotatorMap.from_id("R1:D4D9G6I2I9-B9D6E2G8H4")  # won by the first fall
    assert analyse(medium).grade is Grade.MEDIUM and analyse(easy).grade is Grade.EASY
    assert analyse(one_fall) is None  # no puzzle: never emitted
    assert analyse(medium, wanted=Grade.MEDIUM).grade is Grade.MEDIUM
    assert analyse(medium, wanted=Grade.EASY) is None  # stopped after 5 turns
    assert analyse(easy, wanted=Grade.HARD) is None  # too short to be hard
    full, quick = analyse(medium), analyse(medium, wanted=Grade.EASY)
    assert quick is None and full.states > 0


def test_bounded_effort_says_so():
    result = generate(3, 5, Grade.HARD, max_candidates=3)
    assert not result.complete and result.candidates == 3


def test_bad_options(tmp_path):
    # The library takes a Grade; difficulty text is checked where it is typed, the CLI.
    pdf = tmp_path / "x.pdf"
    error_line(cli("rotator", "generate", "--difficulty", "fiendish", "--count", "1", "-o",
                   tmp_path, "--name", "x"), "--difficulty", "easy, medium, hard", "'fiendish'",
               status=2)
    assert not pdf.exists()
    with pytest.raises(ParameterError, match="count") as caught:
        generate(1, 0)
    assert caught.value.parameter == "count" and str(caught.value) == "count must be at least 1."
    with pytest.raises(ParameterError, match="jobs"):
        generate(1, 1, jobs=0)


def test_random_maps_are_the_plain_definitions_maps():
    # random_map keeps the centres too near a placed Node in a set instead of measuring
    # every distance again: the same free centres in the same order, so the same maps
    # and the same state of the generator after each.
    for seed in (0, 5, 7, 32, 2026):
        fast, plain = SplitMix64(seed), SplitMix64(seed)
        for _ in range(40):
            assert random_map(fast) == plain_random_map(plain)
            assert fast.state == plain.state


# --- mixed books: a ramp from easy to hard ------------------------------------------------

def book(tmp_path, *args: str) -> list[dict]:
    """``rotator generate ARGS --json`` as a user runs it: the boards, in book order."""
    result = ok(cli("rotator", "generate", *args, "--json", "--jobs", "1", "--no-keys",
                    "--no-rules", "-o", tmp_path))
    data = json.loads(result.stdout)
    # The boards are the list itself, or the list of boards in the JSON object.
    boards = data if isinstance(data, list) else next(
        v for v in data.values() if isinstance(v, list) and v and "grade" in v[0])
    return boards


def ramp(grades: list[str], order: tuple[str, ...]) -> bool:
    return grades == sorted(grades, key=order.index)


def test_shares_of_a_mixed_book():
    easy, medium, hard = Grade
    assert shares(12, tuple(Grade)) == {easy: 4, medium: 4, hard: 4}
    assert shares(13, tuple(Grade)) == {easy: 5, medium: 4, hard: 4}
    assert shares(5, tuple(Grade)) == {easy: 2, medium: 2, hard: 1}
    assert shares(2, tuple(Grade)) == {easy: 1, medium: 1, hard: 0}
    assert shares(7, (hard, easy)) == {hard: 4, easy: 3}
    for count in range(4, 60):
        for grades in ((easy, medium, hard), (easy, hard), (medium, hard, easy)):
            share = shares(count, grades)
            assert sum(share.values()) == count and min(share.values()) >= count // 4
    with pytest.raises(ParameterError, match="difficulty"):
        shares(3, (easy, easy))


@pytest.mark.slow  # a whole default book (the quick loop's mixed book is --count 5 below)
def test_a_mixed_book_of_twelve_ramps_from_easy_to_hard_with_a_share_of_each(tmp_path):
    # Seed 1 came out 2 easy, 7 medium, 3 hard before: the boards as they were drawn.
    boards = book(tmp_path, "--seed", "1", "--count", "12")
    grades = [b["grade"] for b in boards]
    assert grades == ["easy"] * 4 + ["medium"] * 4 + ["hard"] * 4
    # Within a grade: by the turns of the best line, then by ID.
    keys = [(("easy", "medium", "hard").index(b["grade"]), b["turns"], b["board_id"])
            for b in boards]
    assert keys == sorted(keys)
    # The same seed gives the same boards again, here through the library (the default
    # book).
    from cardgen.games.registry import rotator
    assert [m.board_id for m in rotator().generate(1, 12)] == [b["board_id"] for b in boards]


RAMPS = [
    (("--difficulty", "easy,hard", "--count", "6"), ("easy",) * 3 + ("hard",) * 3),
    (("--difficulty", "hard, easy", "--count", "5"), ("hard",) * 3 + ("easy",) * 2),
    (("--difficulty", "MEDIUM,easy,hard", "--count", "4"),
     ("medium", "medium", "easy", "hard")),
    (("--count", "5"), ("easy", "easy", "medium", "medium", "hard")),
    (("--count", "2"), ("easy", "medium")),  # fewer boards than grades: the first grades
    (("--count", "1"), ("easy",)),
    (("--difficulty", "hard", "--count", "2"), ("hard", "hard")),
]


# The quick loop: several grades named (out of order, with a space), the default mix, and
# fewer boards than grades (each book is some 0.5-1.5 s of grading).
@pytest.mark.parametrize(("args", "expected"), sampled(RAMPS, *(RAMPS[i] for i in (1, 3, 4))))
def test_several_grades_can_be_named_and_the_book_ramps_in_their_order(tmp_path, args,
                                                                       expected):
    boards = book(tmp_path, "--seed", "3", *args)
    assert tuple(b["grade"] for b in boards) == expected


@pytest.mark.slow
def test_a_mixed_book_is_the_same_with_parallel_jobs():
    easy, medium, hard = Grade
    one = generate(9, 6, (hard, easy, medium), jobs=1)
    two = generate(9, 6, (hard, easy, medium), jobs=2)
    assert [b.rmap.board_id for b in one.boards] == [b.rmap.board_id for b in two.boards]
    assert sorted(b.grade for b in one.boards) == sorted([easy, easy, medium, medium, hard,
                                                          hard])


def test_a_mixed_book_that_runs_out_of_tries_says_which_grade_is_short(tmp_path):
    result = cli("rotator", "generate", "--seed", "3", "--count", "6", "--tries", "8",
                 "--jobs", "1", "-o", tmp_path)
    assert result.returncode == 1  # the boards found are written all the same
    line = result.stderr.strip().splitlines()[-1]
    assert re.fullmatch(r"error: found only \d of 6 easy,medium,hard boards \((\w+ \d of 2, )*"
                        r"\w+ \d of 2\) in 8 maps from seed 3; try another --seed or more "
                        r"--tries\.", line), line


def test_a_grade_named_twice_is_refused(tmp_path):
    error_line(cli("rotator", "generate", "--difficulty", "easy,hard,easy", "-o", tmp_path),
               "--difficulty names easy twice", status=2)
    error_line(cli("rotator", "generate", "--difficulty", "easy,", "-o", tmp_path),
               "--difficulty must be one of easy, medium, hard, not ''", status=2)
    assert not list(tmp_path.iterdir())
