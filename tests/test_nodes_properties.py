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

import functools
import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardgen.games.names import GameName
from cardgen.games.nodes.deal import deal
from cardgen.games.nodes.engine import legal_moves, problem, push, start
from cardgen.games.nodes.record import Answer, MoveReport, Shot, Spot, Variant
from cardgen.games.nodes.state import Setup, State
from cardgen.games.rng import SplitMix64
from tests.helpers import examples

QUICK = settings(max_examples=examples(6), deadline=None, derandomize=True,
                 suppress_health_check=[HealthCheck.too_slow])
SLOW = settings(max_examples=examples(15), deadline=None, derandomize=True,
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


@functools.cache
def _spaces(grids: tuple[str, ...]) -> frozenset[Spot]:
    """Every space of a table with these grids."""
    return frozenset((g, c, r) for g in grids for r in range(1, 11) for c in range(10))


_PLACED: dict[int, tuple[Setup, frozenset[Spot]]] = {}  # by id: the set-up, kept alive


def _placed(setup: Setup) -> frozenset[Spot]:
    """Every Deflector placed at set-up (worked out once per set-up)."""
    found = _PLACED.get(id(setup))
    if found is None:
        found = _PLACED[id(setup)] = (setup, frozenset(
            (g, *c) for g, cs in setup.deflectors.items() for c in cs))
    return found[1]


def check_position(state: State, *, every_space: bool = True) -> None:
    """Every mark is a player's, on a space of the table and on no unused Deflector; the
    Node counts add up. With ``every_space``, each space's holder too, by
    ``State.holder``: since a holder is the mark, else the grid's owner, the marks'
    check already holds it between two such sweeps."""
    setup, marks = state.setup, state.marks
    players = set(setup.players)
    assert set(marks.values()) <= players
    assert marks.keys() <= _spaces(state.layout.grids)
    unused = [s for s in _placed(setup) if s in marks and state.unused_deflector(s)]
    assert not unused, f"{unused} is won over an unused Deflector"
    if every_space:
        for grid in state.layout.grids:  # every space's holder, a grid at a time
            held = set(map(state.holder, state.layout.spaces(grid)))
            assert held <= (players if setup.owners[grid] is not None else players | {None})
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


SWEEP = 25  # a whole game checks every space's holder every SWEEP moves and at its end


def play(table: Table, seed: int, moves: int, sweep: int = 1) -> State:
    """A random legal game from a seeded set-up, every position and report checked
    (every space's holder: in the first ``sweep`` positions, every ``sweep``-th and the
    last)."""
    game, players, arrangement, variants = table
    record = deal(game, players, seed, arrangement=arrangement,
                  variants=frozenset(Variant(v) for v in variants))
    state = start(record)
    pick = SplitMix64(seed)
    for number in range(moves):
        if state.finish is not None:
            assert legal_moves(state) == []
            check_position(state)
            break
        options = legal_moves(state)
        assert options
        move = options[pick.below(len(options))]
        assert problem(state, move) is None
        after, report = push(state, move)
        check_position(after, every_space=number < sweep or number % sweep == 0)
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
        state = play(table, seed, ENDS_WITHIN, SWEEP)
        assert state.finish is not None

    game_ends()
