"""The Node games' fast paths equal their plain definitions (``games.nodes.reference``):
the same legal moves in the same order, over every position of seeded random games on
every kind of table (each variant, both Defector layouts) and over scrambled positions
(random marks, homes, aimed-at grids, turn counts and alliances on a real table, which
no game need reach); the computer's belief counts the same and leaves its generator in
the same state, from any facts of a grid. (``tests/test_nodes_computer.py`` re-chooses
every move its walks play with the plain computer.) ``benchmarks/bench_nodes_speed.py``
times the two.

The quick loop compares a sample of seeds; the full command all of them."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardgen.games.names import GameName
from cardgen.games.nodes import computer, engine, reference
from cardgen.games.nodes.alliance import Alliances
from cardgen.games.nodes.deal import deal
from cardgen.games.nodes.record import AllianceView, Variant
from cardgen.games.nodes.state import State, frozen
from cardgen.games.rng import SplitMix64
from tests.helpers import examples, sampled

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


@settings(max_examples=examples(50), deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(state=scrambled())
def test_the_shots_are_the_plain_ones_from_any_position(state):
    assert engine.shots(state) == reference.shots(state)


# --- the computer's belief ---------------------------------------------------------------


class _Stepwise(computer.Belief):
    """The fast belief drawing its numbers one at a time (its way when a draw is
    rejected, which no seed here reaches)."""

    batched = False


@st.composite
def constraints(draw: st.DrawFn) -> computer.Constraints:
    """Any facts of one grid: known Nodes, candidates, needs (some of them unmeetable)."""
    spaces = st.sampled_from(computer.ALL)
    known = draw(st.frozensets(spaces, max_size=5))
    candidates = draw(st.frozensets(spaces, max_size=100)) - known
    needs = draw(st.lists(st.frozensets(spaces, min_size=1, max_size=12), max_size=4))
    return computer.Constraints(known, max(0, 5 - len(known)), candidates,
                                tuple(frozenset(n & candidates) for n in needs))


@settings(max_examples=examples(60), deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(facts=constraints(), seed=st.integers(0, 2**64 - 1),
       samples=st.sampled_from([0, 1, 7, computer.SAMPLES]))
def test_the_belief_counts_what_the_plain_one_counts(facts, seed, samples):
    """The same counts, and the generator left in the same state (the next draws of the
    computer depend on it), drawing the numbers at once, one at a time, or plainly."""
    found = []
    for kind in (computer.Belief, _Stepwise, reference.PlainBelief):
        rng = SplitMix64(seed)
        belief = kind(facts, rng, samples)
        found.append((belief.samples, belief.node, belief.cover, rng.state))
    assert found[0] == found[1] == found[2]


@given(seed=st.integers(0, 2**64 - 1), count=st.integers(0, 50))
@settings(max_examples=examples(50), deadline=None, derandomize=True)
def test_the_outputs_drawn_at_once_are_the_generators(seed, count):
    rng = SplitMix64(seed)
    expected = [rng.next() for _ in range(count)]
    assert computer._outputs(SplitMix64(seed).state, count) == (expected, rng.state)
