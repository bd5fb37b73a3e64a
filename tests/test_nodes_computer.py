"""Computer players of the Node games (games.nodes.computer): legal, deterministic set-ups
and moves, chosen from what the player may know only (SPEC §9.1.8), a Reflector strategy
that beats simple players, and games that end.

The computer's fast paths (its belief's walk, what it reads of a grid, the engine's legal
moves in its views) are held equal to their plain versions (``games.nodes.reference``)
on every position these tests walk: a fresh plain computer of the same seed, given the
plain view, must choose the same move. The quick loop walks Reflector and three-player
Deflector (both strategies, every kind of answer); the full command every table.

The hidden-information test changes the opponents' hidden placements (Nodes and
Deflectors that play has not revealed) while every public fact stays the same: the same
moves, replayed on the changed set-up, must give exactly the same reports, and then the
computer must choose the same move."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest

from cardgen.games.names import GameName
from cardgen.games.nodes import deal, engine, joins, knowledge, reference
from cardgen.games.nodes.computer import (
    Belief,
    Computer,
    HuntTarget,
    RandomShooter,
    constraints,
    match,
    play,
)
from cardgen.games.nodes.model import NODES, deflectors
from cardgen.games.nodes.record import Coord, Move, Pass, PlayerSetup, Record, Result, Shot
from cardgen.games.nodes.state import Fact, State
from cardgen.games.rng import SplitMix64
from tests.helpers import sampled

ALL = [(c, r) for r in range(1, 11) for c in range(10)]
TABLES = [(GameName.REFLECTOR, 2), (GameName.DEFLECTOR, 3), (GameName.DEFLECTOR, 4),
          (GameName.DEFLECTOR, 5), (GameName.DEFECTOR, 6)]


def _walk(game: GameName, players: int, seed: int, moves: int):
    """A seeded game among computer players, ``moves`` moves at most: each position with
    the player to move, his view and his choice. Several tests walk the same games: each
    is played once per test process, as far as a test has read it, and read from there
    (the positions are values: no test changes them)."""
    seen, rest = _PLAYED.setdefault((game, players, seed), ([], _play(game, players, seed)))
    while len(seen) < moves:
        step = next(rest, None)
        if step is None:
            break
        seen.append(step)
    return seen[:moves]


_PLAYED: dict[tuple[GameName, int, int], tuple[list[Any], Iterator[Any]]] = {}


def _play(game: GameName, players: int, seed: int) -> Iterator[Any]:
    seats = [Computer(seed * 10 + k) for k in range(players)]
    table = deal.arrangement_for(game, players)
    layout = joins.layout(game, players, table)
    setups = []
    for k, seat in enumerate(seats, start=1):
        nodes, placed = seat.place(game, layout, f"P{k}")
        setups.append(PlayerSetup(f"P{k}", f"C{k}", deal.SYMBOLS[k - 1], nodes, placed))
    record = Record(game, tuple(setups), "P1", (), table)
    state = engine.start(record)
    while True:
        if state.finish is not None or state.to_move is None:
            return
        who = state.to_move
        view = knowledge.view(state, who)
        move = seats[int(who[1:]) - 1].choose(view)
        yield record, state, who, view, move, seed * 10 + int(who[1:]) - 1
        state, _ = engine.push(state, move)


@pytest.mark.parametrize(("game", "players"), TABLES)
def test_computer_places_a_legal_set_up_the_same_for_a_seed(game, players):
    layout = joins.layout(game, players, deal.arrangement_for(game, players))
    for seed in range(6):
        for k in range(1, players + 1):
            nodes, placed = Computer(seed).place(game, layout, f"P{k}")
            assert (nodes, placed) == Computer(seed).place(game, layout, f"P{k}")
            assert len(set(nodes)) == NODES and len(set(placed)) == deflectors(game)
            assert not set(nodes) & set(placed)
            assert all(0 <= c < 10 and 1 <= r <= 10 for c, r in (*nodes, *placed))


@pytest.mark.parametrize(("game", "players"), sampled(TABLES, *TABLES[:2]))
def test_computer_chooses_a_legal_move_the_same_for_a_seed(game, players):
    """The same move from a fresh computer of the same seed, and from the plain one given
    the plain view (``games.nodes.reference``): the fast paths change no choice."""
    for _, state, who, view, move, seed in _walk(game, players, 0, 80):
        assert move in view.legal
        plain = reference.view(state, who)
        assert plain == view
        assert reference.PlainComputer(seed).choose(plain) == move
        if isinstance(move, Pass):
            assert not any(isinstance(m, Shot) for m in view.legal)
        assert isinstance(move, Shot | Pass)  # no alliances proposed, none left


def test_a_level_that_does_not_exist_is_refused():
    with pytest.raises(ValueError, match="level"):
        Computer(1, "expert")


def test_the_easy_level_plays_legal_moves():
    state = play(GameName.REFLECTOR, [Computer(3, "easy"), Computer(4)])
    assert state.finish is not None


def test_a_seeded_reflector_game_between_computers_reaches_an_outcome():
    state = play(GameName.REFLECTOR, [Computer(11), Computer(12)])
    assert state.finish is not None
    assert state.finish.result in (Result.WIN, Result.DRAW)
    again = play(GameName.REFLECTOR, [Computer(11), Computer(12)])
    assert again.history == state.history


@pytest.mark.parametrize(("game", "arrangement"), [
    (GameName.DEFLECTOR, None),
    pytest.param(GameName.DEFECTOR, "defector-full", marks=pytest.mark.slow),
    pytest.param(GameName.DEFECTOR, "defector-island", marks=pytest.mark.slow)])
def test_seeded_games_between_computers_reach_an_outcome(game, arrangement):
    """On the Island too: the computers do not trade its spaces back and forth for
    ever, but go in towards the other players' grids."""
    players = 3 if game is GameName.DEFLECTOR else 6
    state = play(game, [Computer(20 + k) for k in range(players)], arrangement=arrangement,
                 limit=3000)
    assert state.finish is not None


# --- what the computer may know ----------------------------------------------------------


def _truth(state: State, grid: str) -> frozenset[Coord]:
    return state.setup.nodes[grid]


@pytest.mark.parametrize(("game", "players"), [(GameName.REFLECTOR, 2),
                                               (GameName.DEFLECTOR, 3)])
def test_the_facts_the_computer_keeps_always_admit_the_true_placement(game, players):
    """Every placement the computer keeps agrees with what was revealed: the truth is
    always one of them (the unknown Nodes among the candidates, every need met)."""
    checked = 0
    for seed in range(3):
        for _, state, who, view, _, _ in _walk(game, players, seed, 120):
            for grid in state.setup.players:
                if grid == who:
                    continue
                facts = constraints(view, grid)
                assert facts == reference.constraints(view, grid)
                truth = _truth(state, grid)
                assert facts.known <= truth
                unknown = truth - facts.known
                assert len(unknown) == facts.count
                assert unknown <= facts.candidates
                assert all(need & unknown for need in facts.needs)
                checked += 1
    assert checked > 100


def test_the_belief_draws_only_consistent_placements():
    for _, _, who, view, _, _ in _walk(GameName.REFLECTOR, 2, 0, 60):
        grid = "P2" if who == "P1" else "P1"
        facts = constraints(view, grid)
        rng, plain_rng = SplitMix64(1), SplitMix64(1)
        belief = Belief(facts, rng)
        plain = reference.PlainBelief(facts, plain_rng)
        assert (belief.samples, belief.node, belief.cover, rng.state) == (
            plain.samples, plain.node, plain.cover, plain_rng.state)
        for coord in ALL:
            if coord not in facts.candidates and coord not in facts.known:
                assert belief.p_node(coord) == 0.0
        assert abs(sum(belief.p_node(c) for c in ALL) - NODES) < 1e-6


def _replayed(record: Record, setups: tuple[PlayerSetup, ...], moves: list[Move],
              ) -> State | None:
    """The same moves on another set-up, or None if one of them is not legal there."""
    state = engine.start(replace(record, players=setups))
    for move in moves:
        if engine.problem(state, move) is not None:
            return None
        state, _ = engine.push(state, move)
    return state


def _hidden(state: State, view_player: str, grid: str) -> tuple[list[Coord], list[Coord]]:
    """The Nodes and unused Deflectors of ``grid`` that nothing has revealed to
    ``view_player``, and the spaces of that grid nothing is known about."""
    view = knowledge.view(state, view_player)
    nodes = [c for c in sorted(state.setup.nodes[grid])
             if Fact.NODE not in view.known((grid, *c))]
    silent = [c for c in ALL if not view.known((grid, *c))]
    return nodes, silent


def _alternatives(record: Record, state: State, moves: list[Move], who: str,
                  rng: SplitMix64, tries: int) -> list[State]:
    """Other set-ups of ``who``'s opponents, each reached by moving one hidden Node or
    Deflector at a time to another space, kept when the same moves give exactly the same
    reports: positions ``who`` cannot tell from ``state``."""
    found = []
    setups = record.players
    for _ in range(tries):
        grid = setups[rng.below(len(setups))].id
        if grid == who:
            continue
        k = int(grid[1:]) - 1
        seat = setups[k]
        nodes, silent = _hidden(state, who, grid)
        hidden_deflectors = [c for c in seat.deflectors
                             if not state.facts.get((grid, *c)) and c in silent]
        options = []
        if nodes:
            options.append("node")
        if hidden_deflectors:
            options.append("deflector")
        if not options:
            continue
        taken = set(seat.nodes) | set(seat.deflectors)
        free = [c for c in ALL if c not in taken]
        target = free[rng.below(len(free))]
        if options[rng.below(len(options))] == "node":
            old = nodes[rng.below(len(nodes))]
            changed = replace(seat, nodes=tuple(target if c == old else c for c in seat.nodes))
        else:
            if target not in silent:
                continue
            old = hidden_deflectors[rng.below(len(hidden_deflectors))]
            changed = replace(seat, deflectors=tuple(target if c == old else c
                                                     for c in seat.deflectors))
        trial = (*setups[:k], changed, *setups[k + 1:])
        after = _replayed(record, trial, moves)
        if after is not None and after.history == state.history:
            setups = trial
            found.append(after)
    return found


@pytest.mark.parametrize(("game", "players", "seeds"), [
    (GameName.REFLECTOR, 2, range(4)),
    pytest.param(GameName.DEFLECTOR, 3, range(2), marks=pytest.mark.slow)])
def test_the_computer_chooses_from_what_it_may_know_only(game, players, seeds):
    """SPEC §9.1.8 and the issue's test: positions that differ only in the opponents'
    hidden Nodes and Deflectors, with the same public history, get the same move."""
    rng = SplitMix64(99)
    compared = moved_nodes = 0
    for seed in seeds:
        moves: list[Move] = []
        for record, state, who, _, move, own_seed in _walk(game, players, seed, 60):
            if len(moves) % 7 == 3:
                for other in _alternatives(record, state, moves, who, rng, 12):
                    assert other.setup.nodes != state.setup.nodes or \
                        other.setup.deflectors != state.setup.deflectors
                    assert Computer(own_seed).choose(knowledge.view(other, who)) == move
                    compared += 1
                    moved_nodes += other.setup.nodes != state.setup.nodes
            moves.append(move)
    assert compared >= 20 and moved_nodes >= 10, (compared, moved_nodes)


# --- strength (benchmarks/bench_nodes_computer.py measures it over 200 games each) --------


@pytest.mark.slow
def test_the_reflector_computer_beats_simple_players():
    random = match(Computer, RandomShooter, 40)
    assert random.rate(random.wins) >= 0.95
    hunt = match(Computer, HuntTarget, 40)
    assert hunt.rate(hunt.wins) >= 0.60
