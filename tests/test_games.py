"""The game interface (cardgen.games.base.Game) and its registry: every registered game
keeps the same contract, so generic code (printing, the command line) can rely on it."""

from __future__ import annotations

import pytest

from cardgen.draw.geometry import IDENTITY, Affine
from cardgen.draw.page import Group, Image, Line, Path, Rect, Text, walk
from cardgen.errors import BoardError, ParameterError
from cardgen.games.base import Game
from cardgen.games.registry import games, get_game
from cardgen.games.rng import SplitMix64
from cardgen.prepress.puzzlebook import Puzzle
from cardgen.text.fonts import bundled_fonts

GAMES = sorted(games())
BUDGET = 20_000


def test_the_registry_knows_rotator_and_refuses_unknown_games():
    assert "rotator" in GAMES
    assert get_game("rotator").title == "Rotator"
    with pytest.raises(ParameterError, match=r"^game must be one of rotator, not 'chess'\.$"):
        get_game("chess")


@pytest.fixture(scope="module", params=GAMES)
def game(request) -> Game:
    return games()[request.param]


@pytest.fixture(scope="module")
def boards(game):
    return game.generate(11, 3)


@pytest.fixture(scope="module")
def solution(game, boards):
    """The first board solved (within BUDGET), once for the tests that describe and draw
    it: a few tenths of a second for Rotator."""
    return game.solve(boards[0], BUDGET)


def test_ids_round_trip_and_name_the_board(game, boards):
    assert isinstance(game, Game)
    assert len({game.format_id(b) for b in boards}) == 3
    for board in boards:
        text = game.format_id(board)
        assert game.parse_id(text) == board
        assert game.parse_id(f"  {text.lower()} ") == board
        assert game.problems(text) == []


def test_generation_is_seeded(game, boards):
    assert [game.format_id(b) for b in game.generate(11, 3)] == [
        game.format_id(b) for b in boards]
    assert game.generate(12, 3) != boards


def test_problems_lists_everything_wrong_with_an_id(game):
    assert game.problems("") and game.problems("nonsense!")
    with pytest.raises(BoardError) as info:
        game.parse_id("nonsense!")
    assert list(info.value.problems) == game.problems("nonsense!")


def test_solve_and_describe(game, boards, solution):
    lines = game.describe(boards[0], solution)
    assert lines and all(isinstance(line, str) for line in lines)
    assert game.format_id(boards[0]) in " ".join(lines)


def _extent(items, transform: Affine = IDENTITY):
    """The bounding box of every drawn point (rects, lines, path points, text anchors)."""
    xs, ys = [], []
    for item, t in walk(items, transform):
        if isinstance(item, Rect | Image):
            points = [(item.x, item.y), (item.x + item.w, item.y + item.h)]
        elif isinstance(item, Line):
            points = [(item.x1, item.y1), (item.x2, item.y2)]
        elif isinstance(item, Path):
            points = [(op.x, op.y) for op in item.ops if hasattr(op, "x")]
        elif isinstance(item, Text):
            points = [(item.x, item.y)]
        else:
            assert not isinstance(item, Group)
            continue
        for x, y in points:
            px, py = t.apply(x, y)
            xs.append(px)
            ys.append(py)
    return min(xs), min(ys), max(xs), max(ys)


@pytest.mark.parametrize("unit", [4.9, 9.0])
def test_the_drawing_fills_its_print_size(game, boards, unit):
    fonts = bundled_fonts()
    w, h = game.print_size(unit)
    x0, y0, x1, y1 = _extent(game.draw(boards[0], 20, 30, unit, fonts))
    assert (x0, y0) == pytest.approx((20, 30), abs=1e-6)
    assert x1 == pytest.approx(20 + w, abs=1e-6) and y1 == pytest.approx(30 + h, abs=1e-6)


def test_a_solution_is_drawn_on_the_board_and_the_board_prints_as_a_puzzle(game, boards,
                                                                         solution):
    fonts = bundled_fonts()
    plain = game.draw(boards[0], 0, 0, 5.0, fonts)
    keyed = game.draw(boards[0], 0, 0, 5.0, fonts, solution=solution)
    assert len(keyed) > len(plain)
    puzzle = game.puzzle(boards[0], solution, caption="easy", key_caption="figures")
    assert isinstance(puzzle, Puzzle)
    assert puzzle.ident == game.format_id(boards[0]) and puzzle.caption == "easy"
    assert puzzle.key_table() and puzzle.key_legend()
    assert puzzle.print_size(5.0) == game.print_size(5.0)


def test_splitmix_below_refuses_an_empty_range():
    with pytest.raises(ValueError, match="at least 1"):
        SplitMix64(1).below(0)
