"""The Node games' fast paths against their plain versions (``games.nodes.reference``).

    python benchmarks/bench_nodes_speed.py [--games 2] [--moves 300]

In this process, on the same positions, and checking that the answers are the same:

- **legal moves**: ``engine.legal_moves`` against ``reference.legal_moves`` over every
  position of seeded random games on each kind of table;
- **belief**: ``computer.Belief`` against ``reference.PlainBelief`` (the same
  constraints, the same seed: the same counts and the same generator state after);
- **computer game**: whole seeded games between computers, ``computer.Computer`` seeing
  ``knowledge.view`` against ``reference.PlainComputer`` seeing ``reference.view``
  (the same moves).

Times are CPU seconds of this process (``time.process_time``, the least of three runs
but for the games); the ratios are what to read (old / new: how many times faster the
fast path is). The legal moves include Defector's alliance moves, which have no fast
path; the legal shots are the part that has.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cardgen.games.names import GameName
from cardgen.games.nodes import computer, engine, knowledge, reference
from cardgen.games.nodes.deal import deal
from cardgen.games.nodes.record import Variant
from cardgen.games.nodes.state import State
from cardgen.games.rng import SplitMix64

TABLES = [
    (GameName.REFLECTOR, 2, None, ()),
    (GameName.DEFLECTOR, 3, "table-3", ()),
    (GameName.DEFLECTOR, 5, "table-5-full", ("ricochet",)),
    (GameName.DEFECTOR, 6, "defector-island", ("safety",)),
    (GameName.DEFECTOR, 7, "defector-full", ("deluxe", "ricochet")),
]


def timed(work: Callable[[], Any], repeat: int = 1) -> tuple[float, Any]:
    """The least CPU time of ``repeat`` runs of ``work`` (the machine may be busy), and
    its result."""
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        result = work()
        best = min(best, time.process_time() - start)
    return best, result


def positions(games: int, moves: int) -> list[State]:
    found = []
    for game, players, arrangement, variants in TABLES:
        for seed in range(games):
            state = engine.start(deal(game, players, seed, arrangement=arrangement,
                                      variants=frozenset(Variant(v) for v in variants)))
            pick = SplitMix64(seed)
            for _ in range(moves):
                if state.finish is not None:
                    break
                found.append(state)
                options = engine.legal_moves(state)
                state, _ = engine.push(state, options[pick.below(len(options))])
    return found


def row(name: str, old: float, new: float, count: int, unit: str) -> None:
    print(f"{name:<16} {count:>6} {unit:<10} {old:>8.2f} s {new:>8.2f} s {old / new:>7.2f}×")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2, help="seeded games per table")
    parser.add_argument("--moves", type=int, default=300, help="moves per game at most")
    args = parser.parse_args()
    print(f"{'':<16} {'count':>17} {'plain':>10} {'fast':>10} {'old/new':>8}")

    states = positions(args.games, args.moves)
    for _ in range(2):  # the states' own tables, made by whichever comes first
        [engine.legal_moves(s) for s in states]
    old, plain = timed(lambda: [reference.legal_moves(s) for s in states], 3)
    new, fast = timed(lambda: [engine.legal_moves(s) for s in states], 3)
    assert plain == fast, "the legal moves differ"
    row("legal moves", old, new, len(states), "positions")
    old, plain = timed(lambda: [reference.shots(s) for s in states], 3)
    new, fast = timed(lambda: [engine.shots(s) for s in states], 3)
    assert plain == fast, "the legal shots differ"
    row("legal shots", old, new, len(states), "positions")

    views = [knowledge.view(s, s.to_move) for s in states[::7] if s.to_move is not None]
    facts = [computer.constraints(v, g) for v in views for g in v.layout.seats
             if g != v.player and not v.knows(g)]
    old, plain = timed(lambda: [_belief(reference.PlainBelief, f) for f in facts], 3)
    new, fast = timed(lambda: [_belief(computer.Belief, f) for f in facts], 3)
    assert plain == fast, "the beliefs differ"
    row("belief", old, new, len(facts), "beliefs")

    games = [(GameName.REFLECTOR, 2, None), (GameName.DEFLECTOR, 3, None),
             (GameName.DEFECTOR, 6, "defector-full")]

    def play(kind: type[computer.Computer], see: Any) -> list[Any]:
        return [computer.play(game, [kind(seed * 10 + k) for k in range(players)],
                              arrangement=table, limit=args.moves, see=see).history
                for game, players, table in games for seed in range(args.games)]

    old, plain = timed(lambda: play(reference.PlainComputer, reference.view))
    new, fast = timed(lambda: play(computer.Computer, knowledge.view))
    assert plain == fast, "the computers chose differently"
    row("computer game", old, new, sum(len(h) for h in fast), "moves")


def _belief(kind: type[computer.Belief], facts: computer.Constraints) -> tuple[Any, ...]:
    rng = SplitMix64(len(facts.candidates))
    belief = kind(facts, rng)
    return belief.samples, belief.node, belief.cover, rng.state


if __name__ == "__main__":
    main()
