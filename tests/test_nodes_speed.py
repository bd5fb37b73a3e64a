"""The Node games' fast paths equal their plain definitions (``games.nodes.reference``):
the same legal moves in the same order, over every position of seeded random games on
every kind of table (each variant, both Defector layouts) and over scrambled positions
(random marks, homes, aimed-at grids, turn counts and alliances on a real table, which
no game need reach). ``benchmarks/bench_nodes_speed.py`` times the two.

The quick loop compares a sample of seeds; the full command all of them."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardgen.games.names import GameName
from cardgen.games.nodes import engine, reference
from cardgen.games.nodes.alliance import Alliances
from cardgen.games.nodes.deal import deal
from cardgen.games.nodes.record import AllianceView, Variant
from cardgen.games.nodes.state import State, frozen
from cardgen.games.rng import SplitMix64
from tests.helpers import sampled

Table = tuple[GameName, int, str | None, tuple[str, ...]]  # game, players, arrangement, variants
TABLES: list[Table] = [
    (GameName.REFLECTOR, 2, None, ()),
    (GameName.DEFLECTOR, 3, "table-3", ()),
    (GameName.DEFLECTOR, 4, "table-4-partial", ("reflection",)),
    (GameName.DEFLECTOR, 5, "table-5-partial", ("ricochet",)),
    (GameName.DEFECTOR, 6, "defector-island", ("safety",)),
    (GameName.DEFECTOR, 7, "defector-full", ("deluxe", "ricochet", "alliance-victory")),
    (GameName.DEFECTOR, 8, "defector-island", ("deluxe",)),
]
SEEDS = range(2)
MOVES = 150  # positions compared per game (past the first captures and outs)
# The quick loop's sample: every kind of reach (Reflector's, Deflector's with reflection,
# Defector's with Deluxe's downward rule and alliances).
QUICK = ((TABLES[0], 0), (TABLES[2], 0), (TABLES[5], 0))


def _start(table: Table, seed: int) -> State:
    game, players, arrangement, variants = table
    return engine.start(deal(game, players, seed, arrangement=arrangement,
                             variants=frozenset(Variant(v) for v in variants)))


def _positions(table: Table, seed: int, moves: int) -> list[State]:
    """The positions of a random legal game, ``moves`` at most, the fast legal moves
    compared with the plain ones at each."""
    state, pick, found = _start(table, seed), SplitMix64(seed), []
    for _ in range(moves):
        found.append(state)
        if state.finish is not None:
            break
        options = reference.legal_moves(state)
        assert engine.legal_moves(state) == options
        state, _ = engine.push(state, options[pick.below(len(options))])
    return found


@pytest.mark.parametrize(("table", "seed"),
                         sampled([(t, s) for t in TABLES for s in SEEDS], *QUICK),
                         ids=lambda v: f"{v[0].value}-{v[1]}" if isinstance(v, tuple) else str(v))
def test_the_legal_moves_are_the_plain_ones_in_order(table, seed):
    assert len(_positions(table, seed, MOVES)) > 50


@st.composite
def scrambled(draw: st.DrawFn) -> State:
    """A real table and set-up with a made-up position: any spaces won by anyone, any
    homes, aimed-at grids, Deluxe turn counts and (Defector) one alliance."""
    table = draw(st.sampled_from(TABLES))
    state = _start(table, draw(st.integers(0, 50)))
    players, grids = state.setup.players, state.layout.grids
    spaces = [s for g in grids for s in state.layout.spaces(g)]
    marks = draw(st.dictionaries(st.sampled_from(spaces), st.sampled_from(players),
                                 max_size=400))
    some_grids = st.frozensets(st.sampled_from(grids), max_size=4)
    homes = {p: draw(some_grids) for p in players}
    aimed = {p: draw(some_grids) for p in players}
    turns = {p: draw(st.integers(0, 3)) for p in players}
    alliances = Alliances()
    if table[0] is GameName.DEFECTOR and draw(st.booleans()):
        members = draw(st.lists(st.sampled_from(players), min_size=2, max_size=3,
                                unique=True))
        link = state.setup.grid_nodes(members[0])[0]
        alliances = Alliances.from_views([AllianceView(tuple(sorted(members)), None,
                                                       ((link, tuple(sorted(members))),))])
    return replace(state, marks=frozen(marks), homes=frozen(homes), aimed=frozen(aimed),
                   turns=frozen(turns), alliances=alliances,
                   to_move=draw(st.sampled_from(players)), begun=True)


@settings(max_examples=50, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(state=scrambled())
def test_the_shots_are_the_plain_ones_from_any_position(state):
    assert engine.shots(state) == reference.shots(state)
