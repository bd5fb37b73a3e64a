"""The game interface (cardgen.games.base.Game) and its registry: ONE contract, run over
every registered game, so generic code (the puzzle book, the rules figures, the command
line) can rely on it. A game's flags say which halves it has; the halves it has work, the
ones it lacks raise Unsupported.

Rotator has every half; its answers are checked against the readable engine and the
command line. The Node games have their rules figures and their referee (SPEC §9); their
referee is walked over seeded set-ups (``games.nodes.deal``), as they have no generator.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest

from cardgen.draw.geometry import IDENTITY, Affine
from cardgen.draw.page import Group, Image, Line, Path, Rect, Text, walk
from cardgen.errors import BoardError, ParameterError
from cardgen.games.base import HALVES, Capability, Game, Outcome, Players, Unsupported, provided
from cardgen.games.names import NODE_GAMES, SOLVER_GAMES, GameName
from cardgen.games.nodes.deal import deal
from cardgen.games.nodes.figures import FIGURES as NODE_FIGURES
from cardgen.games.registry import REGISTRY, Choice, games, get_game, rotator
from cardgen.games.rng import SplitMix64
from cardgen.games.rotator.engine import Terrain, replay
from cardgen.games.rotator.game import StartColumn
from cardgen.prepress.puzzlebook import Puzzle
from cardgen.rules.figures import figure_makers, sources
from cardgen.text.fonts import bundled_fonts
from tests.helpers import cli, ok

GAMES = list(games())
BUDGET = 20_000
SEED, COUNT = 11, 3


def has(game: Game[Any, Any, Any, Any], flag: Capability) -> bool:
    return flag in game.flags


# --- the registry ----------------------------------------------------------------------

def test_the_registry_holds_rotator_and_the_node_games_by_name():
    assert [GameName.ROTATOR, *NODE_GAMES] == GAMES
    assert all(game.name is name for name, game in REGISTRY.items())
    assert get_game("rotator") is get_game(GameName.ROTATOR) is rotator()
    assert get_game(" Reflector ").title == "Reflector"
    assert [get_game(n).players.words for n in GAMES] == [
        "1 player", "2 players", "3–5 players", "6+ players"]
    assert 7 in get_game("defector").players and 6 not in get_game("deflector").players


@pytest.mark.parametrize(("name", "message"), [
    ("rotater", "game must be a game cardgen knows, not 'rotater'; did you mean rotator?"),
    ("chess", "game must be a game cardgen knows, not 'chess'; valid: rotator, reflector, "
              "deflector, defector."),
    ("connector", "game must be a game cardgen knows, not 'connector'; valid: rotator, "
                  "reflector, deflector, defector."),
])
def test_an_unknown_game_is_one_line_with_a_did_you_mean(name, message):
    with pytest.raises(ParameterError) as info:
        get_game(name)
    assert str(info.value) == message and "\n" not in message


def test_the_groups_of_names_agree_with_the_flags():
    solving = [n for n, g in REGISTRY.items() if has(g, Capability.CAN_SOLVE)]
    assert solving == list(SOLVER_GAMES)
    for name in NODE_GAMES:  # figures and a referee, no boards of their own
        assert get_game(name).flags == Capability.HAS_FIGURES | Capability.HAS_REFEREE


def test_rules_figures_come_from_the_registry_and_the_named_other_sources():
    found = sources()
    assert list(found) == [*(g.value for g in GAMES), "ladder", "connector", "physical"]
    assert set(figure_makers()) == {k for figures in found.values() for k in figures}
    # Every Node figure belongs to some Node game's rules.
    assert set(NODE_FIGURES) == {k for n in NODE_GAMES for k in get_game(n).figures()}


# --- the contract, game by game ---------------------------------------------------------

@pytest.fixture(scope="module", params=GAMES, ids=str)
def game(request) -> Game[Any, Any, Any, Any]:
    return games()[request.param]


_GENERATED: dict[str, Any] = {}  # game -> its boards of SEED, made once for the module


def _generated(game: Game[Any, Any, Any, Any]) -> Any:
    if game.name not in _GENERATED:
        _GENERATED[game.name] = game.generate(SEED, COUNT)
    return _GENERATED[game.name]


@pytest.fixture(scope="module")
def boards(game):
    if not has(game, Capability.CAN_GENERATE):
        pytest.skip(f"{game.name} has no generator")
    return _generated(game)


@pytest.fixture(scope="module")
def solution(game, boards):
    """The first board solved (within BUDGET), once for the tests that describe and draw
    it: a few tenths of a second for Rotator."""
    if not has(game, Capability.CAN_SOLVE):
        pytest.skip(f"{game.name} has no solver")
    return game.solve(boards[0], BUDGET)


def test_the_flags_say_exactly_which_halves_the_game_fills_in(game):
    assert isinstance(game, Game)
    assert game.flags == provided(game)


# Arguments for calling each method of a half the game lacks.
CALLS: dict[str, tuple[Any, ...]] = {
    "parse_id": ("R1:",), "format_id": (None,), "problems": ("",), "generate": (1, 1),
    "solve": (None, 1), "describe": (None, None), "print_size": (5.0,),
    "draw": (None, 0.0, 0.0, 5.0, None), "puzzle": (None,), "figures": (),
    "initial": (None,), "legal_moves": (None,), "push": (None, None), "outcome": (None,),
}


def test_every_half_the_game_lacks_raises_and_says_so(game):
    assert set(CALLS) == {m for methods in HALVES.values() for m in methods}
    for half, methods in HALVES.items():
        if half in game.flags:
            continue
        for method in methods:
            with pytest.raises(Unsupported) as info:
                getattr(game, method)(*CALLS[method])
            message = str(info.value)
            assert message.startswith(f"{game.name.value} has no ") and half.name in message
            assert info.value.half is half and isinstance(info.value, ValueError)


def test_ids_round_trip_and_name_the_board(game, boards):
    assert has(game, Capability.IDS)
    assert len({game.format_id(b) for b in boards}) == COUNT
    for board in boards:
        text = game.format_id(board)
        assert game.parse_id(text) == board
        assert game.parse_id(f"  {text.lower()} ") == board
        assert game.problems(text) == []


def test_problems_lists_everything_wrong_with_an_id(game):
    if not has(game, Capability.IDS):
        pytest.skip(f"{game.name} has no board IDs")
    assert game.problems("") and game.problems("nonsense!")
    with pytest.raises(BoardError) as info:
        game.parse_id("nonsense!")
    assert list(info.value.problems) == game.problems("nonsense!")


def test_generation_is_seeded(game, boards):
    assert [game.format_id(b) for b in game.generate(SEED, COUNT)] == [
        game.format_id(b) for b in boards]
    # Another seed, other boards: its first board is none of these (one board is enough).
    assert not set(map(game.format_id, game.generate(SEED + 1, 1))) & set(
        map(game.format_id, boards))


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
    assert has(game, Capability.CAN_PRINT_BOARD)
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


@pytest.mark.parametrize("width", [70.0, 120.0])
def test_every_figure_of_the_game_draws_at_its_height(game, width):
    assert has(game, Capability.HAS_FIGURES)
    fonts = bundled_fonts()
    makers = game.figures()
    assert makers
    for name, make in makers.items():
        figure = make(fonts)
        height = figure.height(width)
        items = figure.draw(10.0, 20.0, width)
        assert height > 0 and items, name
        x0, y0, x1, y1 = _extent(items)
        # within its box, give or take half a line's width
        assert x0 >= 10.0 - 0.5 and x1 <= 10.0 + width + 0.5, name
        assert y0 >= 20.0 - 0.5 and y1 <= 20.0 + height + 0.5, name


@pytest.fixture(scope="module")
def referee_boards(game):
    """Boards to referee: generated ones, or for a game without a generator (the Node
    games) seeded set-ups for its fewest players."""
    if has(game, Capability.CAN_GENERATE):
        return _generated(game)  # the referee only reads them
    if game.name in NODE_GAMES:
        return [deal(game.name, game.players.least, SEED + i) for i in range(COUNT)]
    pytest.skip(f"{game.name} has no boards to referee")


CHECKED = 60  # moves of a random game checked in full
TRIED = 12  # legal moves pushed from each checked state (all of them when fewer)
LONGEST = 3000  # moves a random game may run to (a random Defector game: about 1 500)


def _walk_game(game, board, pick: SplitMix64, *, to_the_end: bool = False) -> list[Any]:
    """Play random legal moves from the start to the end (or CHECKED moves, or LONGEST
    when ``to_the_end``), checking the referee at the first CHECKED steps: states are
    not changed by a push, every legal move tried can be pushed, and a finished game
    offers no moves."""
    state = game.initial(board)
    states = [state]
    for step in range(LONGEST if to_the_end else CHECKED):
        if game.outcome(state) is not None:
            break
        moves = list(game.legal_moves(state))
        assert moves
        if step < CHECKED:
            assert len(set(moves)) == len(moves)
            before = replace(state)
            for move in moves[::max(1, len(moves) // TRIED)]:
                game.push(state, move)
            assert state == before  # nothing pushed changed it
        state = game.push(state, moves[pick.below(len(moves))])
        states.append(state)
    if game.outcome(state) is not None:
        assert list(game.legal_moves(state)) == []
    return states


def test_the_referee_is_consistent_over_random_games(game, referee_boards):
    assert has(game, Capability.HAS_REFEREE)
    ended = 0
    for i, board in enumerate(referee_boards):
        states = _walk_game(game, board, SplitMix64(i), to_the_end=i == 0)
        assert all(game.outcome(s) is None for s in states[:-1])
        outcome = game.outcome(states[-1])
        ended += outcome is not None
        if outcome is not None:
            assert isinstance(outcome, Outcome)
            assert set(outcome.winners) <= set(range(1, (game.players.most or 99) + 1))
    assert ended


# --- Rotator against its engine and its command line ------------------------------------

@pytest.fixture(scope="module")
def rotator_boards():
    """The boards ``boards`` has for Rotator (test_generation_is_seeded makes them anew)."""
    return _generated(rotator())


@pytest.mark.slow
def test_rotator_generates_what_the_command_line_generates(tmp_path, rotator_boards):
    """Graded boards through the real generator, in the book's order: not random maps.
    One job: the worker processes (which change only the speed) have tests of their
    own, and here they would fork and grade maps ahead for nothing."""
    game = rotator()
    result = ok(cli("rotator", "generate", "--seed", str(SEED), "--count", str(COUNT),
                    "--json", "--no-keys", "--no-rules", "--jobs", "1", "-o", tmp_path))
    records = json.loads(result.stdout)["boards"]
    assert [r["board_id"] for r in records] == [game.format_id(b) for b in rotator_boards]
    assert all(r["grade"] and r["turns"] >= 2 for r in records)


def test_rotator_solves_and_describes_as_the_readable_engine_plays(rotator_boards):
    game = rotator()
    for board in rotator_boards:
        solution = game.solve(board, BUDGET)
        line = solution.line
        assert line is not None
        reports = replay(Terrain.from_map(board), line.start, line.choices)
        assert reports[-1].won and len(reports) == line.turns
        text = "\n".join(game.describe(board, solution))
        assert f"Winnable in {line.turns} turn" in text
        # the referee plays the same line to the same win
        state = game.initial(board)
        for move in [StartColumn(line.start), *line.choices]:
            assert move in game.legal_moves(state)
            state = game.push(state, move)
        assert list(state.log) == reports
        assert game.outcome(state) == Outcome((1,), "goal")


def test_rotators_referee_refuses_illegal_moves(rotator_boards):
    game = rotator()
    state = game.initial(rotator_boards[0])
    first = game.legal_moves(state)[0]
    with pytest.raises(ValueError, match="first move is the start column"):
        game.push(state, Choice())
    with pytest.raises(ValueError, match="off the board"):
        game.push(state, StartColumn(10))
    started = game.push(state, first)
    with pytest.raises(ValueError, match="once, before turn 1"):
        game.push(started, first)


def test_splitmix_below_refuses_an_empty_range():
    with pytest.raises(ValueError, match="at least 1"):
        SplitMix64(1).below(0)


def test_players_words():
    assert Players(1, 1).words == "1 player" and Players(3, 5).words == "3–5 players"
    assert Players(6, None).words == "6+ players" and 6 in Players(6, None)
