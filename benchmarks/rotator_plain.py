"""A straightforward bit-mask breadth-first search for Rotator, written for the benchmark
(issue 26): the plain search the solver is measured against, besides the frozen old solver
(rotator_baseline.py). Not used to solve boards for users.

It is what one writes first, without the solver's tricks, but not a strawman: a state is
a tuple of ints (the position, the solid cells and the cells touched one, two and three
turns ago as 200-bit masks, the gravity's phase, a pending choose-start Node, the cells
touched in the coming turn, the boost spaces left); one dict keeps the most boosts each
position (the state less its boosts) was reached with and skips a state reached again
with no more; another keeps each stored state's parent for the line. Every state of a
layer is expanded; a turn's choices share their fall and drill (each boost goes one cell
further), and a fall steps cell by cell along gravity until a solid cell or the edge.
Among the wins of the first winning turn it keeps the first of the fewest boost spaces in
layer order, then in the order of the choices (no drill, drill, drill and one boost, two),
which is the solver's order: the same lines.

A board is solved by searching each of the ten starts; the best line is the best of
theirs (fewest turns, then boosts, then the leftmost start), as ``Solver.solve`` does.
"""

from __future__ import annotations

from cardgen.board.cells import HEIGHT, WIDTH
from cardgen.games.rotator.engine import BOOST_CACHE, MAX_BOOST_PER_TURN, Terrain

N = WIDTH * HEIGHT
GOAL_ROW = HEIGHT - 1


def _neighbours() -> list[list[int]]:
    """For each gravity (+y, +x, -y, -x) and cell: the next cell that way, or -1."""
    table = []
    for dx, dy in ((0, 1), (1, 0), (0, -1), (-1, 0)):
        row = []
        for i in range(N):
            x, y = i % WIDTH + dx, i // WIDTH + dy
            row.append(y * WIDTH + x if 0 <= x < WIDTH and 0 <= y < HEIGHT else -1)
        table.append(row)
    return table


NEIGHBOUR = _neighbours()
Raw = tuple[int, bool, int]  # (picked start cell or -1, drilled, boost spaces)
PlainState = tuple[int, int, int, int, int, int, int, int, int]


class PlainSolver:
    """The plain search on one terrain."""

    def __init__(self, terrain: Terrain) -> None:
        self.solid0 = sum(1 << (y * WIDTH + x) for x, y in terrain.solid)
        self.node_at = {y * WIDTH + x: n for n, (x, y) in enumerate(terrain.nodes)}
        self.territory = [sum(1 << (y * WIDTH + x) for x, y in t) for t in terrain.territories]
        self.territory_cells = [[y * WIDTH + x for x, y in sorted(t)]
                                for t in terrain.territories]

    @staticmethod
    def _fall(pos: int, solid: int, d: int) -> tuple[int, int, bool]:
        """Fall from ``pos``: where it stops, the cells passed, whether it reached the goal
        row (the game ends there)."""
        path = 0
        nxt = NEIGHBOUR[d][pos]
        while nxt >= 0 and not solid >> nxt & 1:
            pos = nxt
            path |= 1 << nxt
            if nxt // WIDTH == GOAL_ROW:
                return pos, path, True
            nxt = NEIGHBOUR[d][pos]
        return pos, path, False

    def successors(self, state: PlainState) -> list[tuple[Raw, PlainState | None]]:
        """Every choice of the turn with the state it leads to, None for a win; losing
        choices are left out."""
        pos, solid, t1, t2, t3, phase, choose, first, boosts = state
        out: list[tuple[Raw, PlainState | None]] = []
        nxt_phase = (phase + 1) % 4
        for start in (self.territory_cells[choose] if choose >= 0 else [pos]):
            picked = start if choose >= 0 else -1
            if start // WIDTH == GOAL_ROW:
                out.append(((picked, False, 0), None))
                continue
            p, path, won = self._fall(start, solid, phase)
            if won:
                out.append(((picked, False, 0), None))
                continue
            # The cells touched three turns ago collapse; standing on one loses.
            if t3 >> p & 1:
                continue
            s = solid | t3
            touched = first | (path & ~(t1 | t2 | t3))
            out.append(((picked, False, 0), (p, s, touched, t1, t2, nxt_phase, -1, 0, boosts)))
            cell = p
            for used in range(min(MAX_BOOST_PER_TURN, boosts) + 1):
                cell = NEIGHBOUR[phase][cell]
                if cell < 0 or not s >> cell & 1:
                    break
                s &= ~(1 << cell)
                touched |= 1 << cell
                choice = (picked, True, used)
                if cell // WIDTH == GOAL_ROW:
                    out.append((choice, None))
                    break
                node = self.node_at.get(cell)
                if node is not None:  # a capture ends the move
                    fresh = self.territory[node] & s
                    out.append((choice, (cell, s & ~fresh, touched | fresh, t1, t2, nxt_phase,
                                         node, 0, boosts - used)))
                    break
                p2, path2, won = self._fall(cell, s, phase)
                if won:
                    out.append((choice, None))
                else:
                    out.append((choice, (p2, s, touched | (path2 & ~(t1 | t2)), t1, t2,
                                         nxt_phase, -1, 0, boosts - used)))
        return out

    def solve_start(self, x: int, budget: int | None = None,
                    ) -> tuple[str, int, int, list[Raw], int]:
        """(status, turns, boosts, line, states stored) of the shortest line from top-row
        column x: status "win", "none" (no line) or "undecided" (more than ``budget``
        states stored)."""
        root: PlainState = (x, self.solid0 & ~(1 << x), 0, 0, 0, 0, -1, 1 << x, BOOST_CACHE)
        best = {root[:-1]: root[-1]}
        parent: dict[PlainState, tuple[PlainState, Raw] | None] = {root: None}
        layer = [root]
        turn = 0
        while layer:
            turn += 1
            wins: list[tuple[int, int, PlainState, Raw]] = []
            following: list[PlainState] = []
            for order, state in enumerate(layer):
                if best[state[:-1]] > state[-1]:
                    continue  # reached again later with more boosts left
                for choice, after in self.successors(state):
                    if after is None:
                        wins.append((BOOST_CACHE - state[-1] + choice[2], order, state, choice))
                        continue
                    key = after[:-1]
                    if best.get(key, -1) >= after[-1]:
                        continue
                    best[key] = after[-1]
                    parent[after] = (state, choice)
                    following.append(after)
            if wins:
                used, _, state, choice = min(wins, key=lambda w: (w[0], w[1]))
                line = [choice]
                link = parent[state]
                while link is not None:
                    state, step = link
                    line.append(step)
                    link = parent[state]
                line.reverse()
                return "win", turn, used, line, len(best)
            if budget is not None and len(best) > budget:
                return "undecided", 0, 0, [], len(best)
            layer = following
        return "none", 0, 0, [], len(best)

    def solve(self, budget: int | None = None,
              ) -> tuple[tuple[int, str, int, int, list[Raw]] | None,
                         list[tuple[str, int, int, list[Raw], int]]]:
        """Each start's search, and the board's best line as (start, status, turns,
        boosts, line), None when no start wins."""
        results = [self.solve_start(x, budget) for x in range(WIDTH)]
        wins = [(r[1], r[2], x) for x, r in enumerate(results) if r[0] == "win"]
        if not wins:
            return None, results
        turns, boosts, x = min(wins)
        return (x, "win", turns, boosts, results[x][3]), results
