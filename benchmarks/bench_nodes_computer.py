"""The Reflector computer against two simple players, over seeded games.

    python benchmarks/bench_nodes_computer.py [--games 200] [--seed 2026]

``games.nodes.computer.Computer`` (the strategy ``cardgen nodes play reflector`` plays
against you) meets, in this process:

- **random**: a shooter that names any legal space at random, its Nodes hidden at random;
- **hunt-then-target**: the same, until some answer shows a covered space (Owned, a
  Node, a captured territory); then it shoots the legal spaces that meet a known covered
  space first;
- **careful hunt-then-target** (for comparison, no target): hunt-then-target that never
  shoots the coordinates of a Node it still holds while it has another shot, so its own
  reflections never concede its Nodes;
- **computer**: the computer itself, another seed.

Each pairing plays ``--games`` seeded games, the computer going first in every other
game. It prints the computer's win, draw (True Draw) and loss rates, the average length
of a game in moves and the computer's time per move (CPU seconds of this process,
``time.process_time``). The targets: wins in at least 95 % of the games against the
random shooter and 60 % against hunt-then-target.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cardgen.games.nodes.computer import Computer, HuntTarget, RandomShooter, Tally, match
from cardgen.games.nodes.knowledge import View
from cardgen.games.nodes.record import Move, Shot

TARGETS = {"random": 0.95, "hunt-then-target": 0.60}


class Timed(Computer):
    """The computer, counting the CPU time of its choices."""

    spent = 0.0
    chosen = 0

    def choose(self, view: View) -> Move:
        start = time.process_time()
        move = super().choose(view)
        Timed.spent += time.process_time() - start
        Timed.chosen += 1
        return move


class CarefulHunt(HuntTarget):
    """Hunt-then-target, never conceding its own Node by reflection when it can help it."""

    def choose(self, view: View) -> Move:
        me = view.player
        own = {n for n in view.secrets[me].nodes if view.marks.get((me, *n)) is None}
        safe = tuple(m for m in view.legal
                     if not (isinstance(m, Shot) and m.at[1:] in own))
        if safe and len(safe) < len(view.legal):
            view = dataclasses.replace(view, legal=safe)
        return super().choose(view)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games against each player")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    print(f"Reflector: the computer against each player, {args.games} seeded games "
          f"(seed {args.seed}), first move alternating")
    print(f"{'opponent':<18} {'win':>7} {'draw':>7} {'loss':>7} {'moves/game':>11} "
          f"{'ms/move':>8} {'target':>7}")
    failed = False
    for name, opponent in (("random", RandomShooter), ("hunt-then-target", HuntTarget),
                           ("careful hunt", CarefulHunt), ("computer", Computer)):
        Timed.spent, Timed.chosen = 0.0, 0
        tally: Tally = match(Timed, opponent, args.games, args.seed)
        win = tally.rate(tally.wins)
        target = TARGETS.get(name)
        ok = target is None or win >= target
        failed |= not ok
        print(f"{name:<18} {win:>7.1%} {tally.rate(tally.draws):>7.1%} "
              f"{tally.rate(tally.losses):>7.1%} {tally.moves / tally.games:>11.1f} "
              f"{Timed.spent / max(1, Timed.chosen) * 1000:>8.1f} "
              + (f"{'>= ' + format(target, '.0%'):>7} {'met' if ok else 'MISSED'}"
                 if target is not None else f"{'-':>7}"))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
