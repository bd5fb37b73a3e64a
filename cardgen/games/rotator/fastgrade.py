"""The grading searches written out for speed: :class:`GradingSolver`.

``grading``'s two searches (``readable_fewest_boosts``, ``readable_win_within``, the
spec) run here on one turn inlined in each search's own loop, the way the solver's best
line search (``Solver._lean_search``) plays its turns. They are the spec step for step:
the same states in the same order, the same dominance and the same count of states
expanded, so the same budget and the same answers, figures and boards. What they save:

- no list of next states per turn, no (state, boosts) pair per next state: each next
  state is checked and queued as it is found, and a win that settles the search ends it
  at once (the next states already queued can no longer change its answer);
- the best-first queue holds one int per entry (rows to go, turn, serial number), each
  serial's state in plain lists, and each position's dominance entry is one small list
  shared by its queued entries, so a state taken from the queue is checked without
  hashing its position again;
- a choice's drill stops at the first boost stage that could neither win nor lead to a
  state worth queuing (the stages after it spend more);
- a question asked twice of one board (the generator's partial and full first-move
  counts ask the same first moves again) is answered from memory, with the states it
  counted the first time.

tests/test_rotator_fastgrade.py compares these searches with the solver's and the
readable ones on seeded boards, and the generated boards with today's generation
(frozen in benchmarks/grading_baseline.py); benchmarks/bench_generation.py times them.
"""

from __future__ import annotations

import gc
import heapq

from cardgen.board.cells import WIDTH
from cardgen.games.rotator.engine import BOOST_CACHE, GOAL_ROW, MAX_BOOST_PER_TURN, Terrain
from cardgen.games.rotator.solver import (
    BELOW,
    BITS,
    GOAL_MASK,
    LIMIT,
    NEXT,
    NO_WIN,
    RAY_ENDS,
    RAYS,
    STEPS,
    Key,
    N,
    Solver,
    State,
)

# A best-first queue entry is one int: rows to go, turn, serial number (in that order of
# significance, as the readable search's tuples compare).
SERIAL_BITS = 40
TURN_BITS = 12
ROW_SHIFT = SERIAL_BITS + TURN_BITS
SERIAL_MASK = (1 << SERIAL_BITS) - 1
TURN_MASK = (1 << TURN_BITS) - 1
# The rows to go of each cell, shifted into place.
ROW_KEY = [(GOAL_ROW - i // WIDTH) << ROW_SHIFT for i in range(N)]
# What a turn of each phase needs: the rays, their ends, the step, the next cells,
# whether the step goes forward, the next phase.
PHASES = [(RAYS[d], RAY_ENDS[d], STEPS[d], NEXT[d], STEPS[d] > 0, (d + 1) & 3)
          for d in range(4)]


class GradingSolver(Solver):
    """A solver whose grading searches (``fewest_boosts``, ``win_within``) are written out
    for speed; every other search is the solver's."""

    def __init__(self, terrain: Terrain) -> None:
        super().__init__(terrain)
        self._answers: dict[tuple[int, ...], tuple[int | None, int]] = {}

    # --- fewest boosts ---------------------------------------------------------------

    def fewest_boosts(self, last_turn: int, cheaper_than: int, budget: int,
                      ) -> tuple[int, int] | None:
        """``grading.readable_fewest_boosts``: (the fewest boosts of a win by
        ``last_turn``, or ``cheaper_than`` when none was cheaper; states expanded), or
        None when the budget ran out."""
        paused = gc.isenabled()
        gc.disable()
        try:
            return self._fewest_boosts(last_turn, cheaper_than, budget)
        finally:
            if paused:
                gc.enable()

    def _fewest_boosts(self, last_turn: int, cheaper_than: int, budget: int,
                       ) -> tuple[int, int] | None:
        # Each position's best boosts left is a one-item list, shared by its layer
        # entries (position, boosts left, that list).
        best: dict[Key, list[int]] = {}
        layer: list[tuple[Key, int, list[int]]] = []
        for x in range(WIDTH):
            root = self.root(x)
            cell = [root[-1]]
            best[root[:-1]] = cell
            layer.append((root[:-1], root[-1], cell))
        turn = expanded = 0
        fewest = cheaper_than
        cache, goal, bits, below, limit = BOOST_CACHE, GOAL_MASK, BITS, BELOW, LIMIT
        centre_node, territory, cells = self.centre_node, self.territory, self.territory_cells
        max_boost, phases = MAX_BOOST_PER_TURN, PHASES
        get = best.get
        while layer:
            turn += 1
            last = turn == last_turn
            following: list[tuple[Key, int, list[int]]] = []
            append = following.append
            for key, left, cell in layer:
                if cell[0] > left or cache - left >= fewest:
                    continue  # dominated, or has spent as many boosts as a line known
                expanded += 1
                pos, solid, t1, t2, t3, phase, choose, first = key
                if last:
                    if choose >= 0 or (
                            not phase and (solid & below[pos]).bit_count() <= limit[left]):
                        used = self._step(key, left, None)
                        if used != NO_WIN:
                            fewest = min(fewest, cache - left + used)
                    continue
                spent = cache - left
                rays, ends, step, nxt_table, forward, next_phase = phases[phase]
                older = t1 | t2 | t3
                solid_c = solid | t3
                for start in (cells[choose] if choose >= 0 else (pos,)):
                    if bits[start] & goal:
                        fewest = min(fewest, spent)
                        continue
                    ray = rays[start]
                    blockers = ray & solid
                    if not blockers:
                        p, path = (ends[start] if ray else start), ray
                    elif forward:
                        f = (blockers & -blockers).bit_length() - 1
                        path = ray & ((1 << f) - 1)
                        p = f - step if path else start
                    else:
                        f = blockers.bit_length() - 1
                        path = ray & ~((2 << f) - 1)
                        p = f - step if path else start
                    if path & goal:
                        fewest = min(fewest, spent)
                        continue
                    if t3 & bits[p]:
                        continue  # standing on a collapsing cell: lost
                    cur = first | (path & ~older)
                    kid = (p, solid_c, cur, t1, t2, next_phase, -1, 0)
                    old = get(kid)
                    if old is None:
                        kid_cell = [left]
                        best[kid] = kid_cell
                        append((kid, left, kid_cell))
                    elif old[0] < left:
                        old[0] = left
                        append((kid, left, old))
                    q = nxt_table[p]
                    if q < 0 or not solid_c & bits[q]:
                        continue
                    s, c, used = solid_c, cur, 0
                    while True:
                        b = bits[q]
                        s &= ~b
                        c |= b
                        if b & goal:
                            fewest = min(fewest, spent + used)
                            break
                        after = left - used
                        node = centre_node.get(q)
                        if node is not None:
                            fresh = territory[node] & s
                            kid = (q, s & ~fresh, c | fresh, t1, t2, next_phase, node, 0)
                            old = get(kid)
                            if old is None:
                                kid_cell = [after]
                                best[kid] = kid_cell
                                append((kid, after, kid_cell))
                            elif old[0] < after:
                                old[0] = after
                                append((kid, after, old))
                            break
                        ray = rays[q]
                        blockers = ray & s
                        if not blockers:
                            p2, path2 = (ends[q] if ray else q), ray
                        elif forward:
                            f = (blockers & -blockers).bit_length() - 1
                            path2 = ray & ((1 << f) - 1)
                            p2 = f - step if path2 else q
                        else:
                            f = blockers.bit_length() - 1
                            path2 = ray & ~((2 << f) - 1)
                            p2 = f - step if path2 else q
                        if path2 & goal:
                            fewest = min(fewest, spent + used)
                        else:
                            kid = (p2, s, c | (path2 & ~(t1 | t2 | c)), t1, t2, next_phase,
                                   -1, 0)
                            old = get(kid)
                            if old is None:
                                kid_cell = [after]
                                best[kid] = kid_cell
                                append((kid, after, kid_cell))
                            elif old[0] < after:
                                old[0] = after
                                append((kid, after, old))
                        if used in (max_boost, left):
                            break
                        q2 = nxt_table[q]
                        if q2 < 0 or not s & bits[q2]:
                            break
                        q, used = q2, used + 1
            if expanded + len(following) > budget:
                return None
            if last:
                break
            layer = following
        return fewest, expanded

    # --- win within ------------------------------------------------------------------

    def win_within(self, state: State, turn: int, horizon: int, budget: int,
                   cheaper_than: int = NO_WIN) -> tuple[int | None, int]:
        """``grading.readable_win_within``: (the turn of a win found by ``horizon``
        spending fewer than ``cheaper_than`` boosts in all, 0 when there is none, None
        when the budget ran out; states expanded). A question asked again of this board
        is answered from memory."""
        if horizon > TURN_MASK:  # beyond what a queue entry holds: the solver's search
            return super().win_within(state, turn, horizon, budget, cheaper_than)
        question = (*state, turn, horizon, budget, cheaper_than)
        answer = self._answers.get(question)
        if answer is None:
            paused = gc.isenabled()
            gc.disable()
            try:
                answer = self._win_within(state, turn, horizon, budget, cheaper_than)
            finally:
                if paused:
                    gc.enable()
            self._answers[question] = answer
        return answer

    def _win_within(self, state: State, turn: int, horizon: int, budget: int,
                    cheaper_than: int) -> tuple[int | None, int]:
        # A position's dominance entry is a list [turn, boosts left], replaced in place,
        # so that every queued entry of the position sees the current one. Serial n's
        # state is keys[n], lefts[n], entries[n].
        root_key, root_left = state[:-1], state[-1]
        entry = [turn, root_left]
        seen: dict[Key, list[int]] = {root_key: entry}
        keys, lefts, entries = [root_key], [root_left], [entry]
        heap = [ROW_KEY[state[0]] | (turn << SERIAL_BITS)]
        counter = expanded = 0
        cache, goal, bits, below, limit = BOOST_CACHE, GOAL_MASK, BITS, BELOW, LIMIT
        centre_node, territory, cells = self.centre_node, self.territory, self.territory_cells
        max_boost, row_key, phases = MAX_BOOST_PER_TURN, ROW_KEY, PHASES
        pop, push, get = heapq.heappop, heapq.heappush, seen.get
        keys_append, lefts_append, entries_append = keys.append, lefts.append, entries.append
        while heap:
            item = pop(heap)
            serial = item & SERIAL_MASK
            t = (item >> SERIAL_BITS) & TURN_MASK
            left = lefts[serial]
            entry = entries[serial]
            known_turn, known_left = entry
            if (known_turn != t or known_left != left) and known_turn <= t \
                    and known_left >= left:
                continue
            expanded += 1
            if expanded + len(heap) > budget:
                return None, expanded
            spent = cache - left
            key = keys[serial]
            pos, solid, t1, t2, t3, phase, choose, first = key
            if t + 1 >= horizon:  # the last turn searched: only wins count
                if (choose >= 0 or (not phase and (solid & below[pos]).bit_count()
                                    <= limit[left])) \
                        and spent + self._step(key, left, None) < cheaper_than:
                    return t + 1, expanded
                continue
            if spent >= cheaper_than:
                continue  # no choice can win or lead anywhere cheaper
            later = t + 1
            stamp = later << SERIAL_BITS
            rays, ends, step, nxt_table, forward, next_phase = phases[phase]
            older = t1 | t2 | t3
            solid_c = solid | t3
            for start in (cells[choose] if choose >= 0 else (pos,)):
                if bits[start] & goal:
                    return later, expanded  # spent < cheaper_than
                ray = rays[start]
                blockers = ray & solid
                if not blockers:
                    p, path = (ends[start] if ray else start), ray
                elif forward:
                    f = (blockers & -blockers).bit_length() - 1
                    path = ray & ((1 << f) - 1)
                    p = f - step if path else start
                else:
                    f = blockers.bit_length() - 1
                    path = ray & ~((2 << f) - 1)
                    p = f - step if path else start
                if path & goal:
                    return later, expanded
                if t3 & bits[p]:
                    continue  # standing on a collapsing cell: lost
                cur = first | (path & ~older)
                kid = (p, solid_c, cur, t1, t2, next_phase, -1, 0)
                old = get(kid)
                if old is None or old[0] > later or old[1] < left:
                    if old is None:
                        entry = seen[kid] = [later, left]
                    else:
                        old[0] = later
                        old[1] = left
                        entry = old
                    counter += 1
                    keys_append(kid)
                    lefts_append(left)
                    entries_append(entry)
                    push(heap, row_key[p] | stamp | counter)
                q = nxt_table[p]
                if q < 0 or not solid_c & bits[q]:
                    continue
                s, c, used = solid_c, cur, 0
                while spent + used < cheaper_than:
                    b = bits[q]
                    s &= ~b
                    c |= b
                    if b & goal:
                        return later, expanded
                    after = left - used
                    node = centre_node.get(q)
                    if node is not None:
                        fresh = territory[node] & s
                        kid = (q, s & ~fresh, c | fresh, t1, t2, next_phase, node, 0)
                        p2 = q
                    else:
                        ray = rays[q]
                        blockers = ray & s
                        if not blockers:
                            p2, path2 = (ends[q] if ray else q), ray
                        elif forward:
                            f = (blockers & -blockers).bit_length() - 1
                            path2 = ray & ((1 << f) - 1)
                            p2 = f - step if path2 else q
                        else:
                            f = blockers.bit_length() - 1
                            path2 = ray & ~((2 << f) - 1)
                            p2 = f - step if path2 else q
                        if path2 & goal:
                            return later, expanded
                        kid = (p2, s, c | (path2 & ~(t1 | t2 | c)), t1, t2, next_phase, -1, 0)
                    old = get(kid)
                    if old is None or old[0] > later or old[1] < after:
                        if old is None:
                            entry = seen[kid] = [later, after]
                        else:
                            old[0] = later
                            old[1] = after
                            entry = old
                        counter += 1
                        keys_append(kid)
                        lefts_append(after)
                        entries_append(entry)
                        push(heap, row_key[p2] | stamp | counter)
                    if node is not None or used in (max_boost, left):
                        break
                    q2 = nxt_table[q]
                    if q2 < 0 or not s & bits[q2]:
                        break
                    q, used = q2, used + 1
        return 0, expanded
