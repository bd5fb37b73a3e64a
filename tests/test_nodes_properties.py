"""Properties of the Node-game engine over random legal games (SPEC §9): seeded set-ups
(``games.nodes.deal``) played with random legal moves, every move checked.

- each space has exactly one holder (none for an unwon Island space), every Node is
  held by a player, and a won space never holds an unused Deflector;
- a report's ``won`` lists each space once, under the player who now holds it, and no
  player who is out gains anything;
- spaces and Nodes are conserved under reflection: the Node counts always add up to
  the Nodes on the table, and a reflection hands over the space with the coordinates of
  the shot's last landing, on the Shooter's grid;
- a deflection path never visits the same grid edge twice: no step from one landing to
  the next is repeated, and no Deflector acts twice (only the last landing may come
  back to a space already landed on, its Deflector used);
- the game ends: every random game comes to an outcome within a bound.

The quick loop plays a few short games per game; ``slow`` plays many whole ones."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardgen.games.names import GameName
from cardgen.games.nodes.deal import deal
from cardgen.games.nodes.engine import legal_moves, problem, push, start
from cardgen.games.nodes.record import Answer, MoveReport, Shot, Spot, Variant
from cardgen.games.nodes.state import State
from cardgen.games.rng import SplitMix64

QUICK = settings(max_examples=6, deadline=None, derandomize=True,
                 suppress_health_check=[HealthCheck.too_slow])
SLOW = settings(max_examples=15, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow])
Table = tuple[GameName, int, str | None, tuple[str, ...]]  # game, players, arrangement, variants
TABLES: list[Table] = [
    (GameName.REFLECTOR, 2, None, ()),
    (GameName.DEFLECTOR, 3, "table-3", ()),
    (GameName.DEFLECTOR, 4, "table-4-partial", ("reflection",)),
    (GameName.DEFLECTOR, 5, "table-5-full", ("ricochet",)),
    (GameName.DEFECTOR, 6, "defector-island", ("safety",)),
    (GameName.DEFECTOR, 7, "defector-full", ("deluxe", "ricochet", "alliance-victory")),
]
# Moves a random game is allowed before it counts as not ending (Defector's run to
# about 1 500; none has come near this).
ENDS_WITHIN = 8000


def check_position(state: State) -> None:
    setup = state.setup
    for spot, player in state.marks.items():
        assert state.layout.has(spot) and player in setup.players
        assert not state.unused_deflector(spot), f"{spot} is won over an unused Deflector"
    for grid in state.layout.grids:
        owner = setup.owners[grid]
        for spot in state.layout.spaces(grid):
            holder = state.holder(spot)
            assert holder in setup.players if owner is not None else (
                holder is None or holder in setup.players)
    counts = [state.node_count(p) for p in setup.players]
    assert sum(counts) == setup.total_nodes


def _steps(path: tuple[Spot, ...]) -> list[tuple[Spot, Spot]]:
    return list(itertools.pairwise(path))


def check_path(path: tuple[Spot, ...], answers: tuple[Answer, ...]) -> None:
    assert len(path) == len(answers) >= 1
    assert all(a is Answer.DEFLECTOR for a in answers[:-1])
    body = path[:-1]  # the last landing may come back to a space whose Deflector acted
    assert len(set(body)) == len(body), f"a Deflector acted twice in {path}"
    steps = _steps(path)
    assert len(set(steps)) == len(steps), f"a step repeated in {path}"


def check_report(before: State, after: State, move: object, report: MoveReport) -> None:
    seen: list[Spot] = []
    for player, spots in report.won.items():
        assert player not in before.out, f"{player} is out but won {spots}"
        for spot in spots:
            assert after.holder(spot) == player
            seen.append(spot)
    assert len(seen) == len(set(seen))
    if isinstance(move, Shot):
        assert report.path and report.path[0] == move.at
        check_path(report.path, report.answers)
        for fired in report.fired:
            if fired.path:
                check_path(fired.path, fired.answers)
        if report.reflection is not None:
            w = report.path[-1]
            assert report.reflection.at == (move.by, w[1], w[2])
            assert w[0] != move.by and before.setup.owners[w[0]] is not None
    else:
        assert not report.path and not report.won


def play(table: Table, seed: int, moves: int) -> State:
    """A random legal game from a seeded set-up, every position and report checked."""
    game, players, arrangement, variants = table
    record = deal(game, players, seed, arrangement=arrangement,
                  variants=frozenset(Variant(v) for v in variants))
    state = start(record)
    pick = SplitMix64(seed)
    for _ in range(moves):
        if state.finish is not None:
            assert legal_moves(state) == []
            break
        options = legal_moves(state)
        assert options
        move = options[pick.below(len(options))]
        assert problem(state, move) is None
        after, report = push(state, move)
        check_position(after)
        check_report(state, after, move, report)
        state = after
    return state


@pytest.mark.parametrize("table", TABLES, ids=lambda t: f"{t[0].value}-{t[1]}")
@QUICK
@given(seed=st.integers(0, 2**32))
def test_random_games_keep_the_rules_invariants(table, seed):
    play(table, seed, 60 if table[0] is GameName.REFLECTOR else 40)


@QUICK
@given(seed=st.integers(0, 2**32))
def test_a_random_reflector_game_ends(seed):
    # every shot wins a space of the other grid for good (nobody shoots his own grid,
    # and a reflection only hands over the Shooter's): 200 moves at most
    state = play(TABLES[0], seed, 200)
    assert state.finish is not None


# Whole random games per table in the slow run: a random Defector game runs to some
# 1 500 moves at several milliseconds a move with every invariant checked, so the
# larger tables play fewer (15 per table took four CPU minutes).
WHOLE_GAMES = {2: 15, 3: 5, 4: 4, 5: 2, 6: 1, 7: 1}


@pytest.mark.slow
@pytest.mark.parametrize("table", TABLES, ids=lambda t: f"{t[0].value}-{t[1]}")
def test_random_games_end(table):
    @settings(SLOW, max_examples=WHOLE_GAMES[table[1]])
    @given(seed=st.integers(0, 2**32))
    def game_ends(seed: int) -> None:
        state = play(table, seed, ENDS_WITHIN)
        assert state.finish is not None

    game_ends()
