"""The grading searches written out for speed: :class:`GradingSolver`.

``grading``'s two searches (``readable_fewest_boosts``, ``readable_win_within``, the
spec) run here on one turn inlined in each search's own loop, the way the solver's best
line search (``Solver._lean_search``) plays its turns. They are the spec step for step,
the same states in the same order with the same dominance, less the states a sound bound
leaves out, so the same answers, figures and boards. What they save:

- near the last turn searched (three turns or fewer left) a next state is neither stored
  nor queued when ``GradingSolver.hopeless`` proves it cannot reach the goal row in the
  turns left with the boosts a counted win may still spend (issue 26: 58 % fewer states
  on seed 7's hard boards). The states counted are then fewer than the spec's, a
  diagnostic only (rules decision R4): a search stores fewer states and so decides at
  least what the spec decides within a budget;

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

tests/test_rotator_fastgrade.py checks the bound against the readable search on positions
of seeded boards (no state it leaves out wins in time), compares these searches' answers
with the readable ones, and the generated boards with today's generation (frozen in
benchmarks/grading_baseline.py); benchmarks/bench_generation.py times them.
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


COLUMNS = [sum(1 << (y * WIDTH + x) for y in range(N // WIDTH)) for x in range(WIDTH)]


def fewest_in_columns(cells: int) -> list[int]:
    """For each column x: the fewest of ``cells`` in any one of the columns 0 to x."""
    fewest, least = [], N
    for column in COLUMNS:
        least = min(least, (cells & column).bit_count())
        fewest.append(least)
    return fewest


class GradingSolver(Solver):
    """A solver whose grading searches (``fewest_boosts``, ``win_within``) are written out
    for speed; every other search is the solver's."""

    def __init__(self, terrain: Terrain) -> None:
        super().__init__(terrain)
        self._answers: dict[tuple[int, ...], tuple[int | None, int]] = {}
        centres = [(i % WIDTH, i // WIDTH, n) for i, n in self.centre_node.items()]
        # By cell: the Nodes whose centre lies in the cell's row left of it (captures a
        # -x turn could make), in its row or above and left of it (those of a -x turn
        # after an up turn); whether one lies above it in its column (an up turn's), or
        # in its row or above (any turn's but a down turn's).
        self.capture_left = [[n for cx, cy, n in centres if cy == i // WIDTH and cx < i % WIDTH]
                             for i in range(N)]
        self.capture_up_left = [[n for cx, cy, n in centres
                                 if cy <= i // WIDTH and cx < i % WIDTH] for i in range(N)]
        self.capture_up = [any(cy < i // WIDTH and cx == i % WIDTH for cx, cy, _ in centres)
                           for i in range(N)]
        self.capture_above = [any(cy <= i // WIDTH for _, cy, _ in centres) for i in range(N)]
        self._goal_nodes = [bool(t & GOAL_MASK) for t in self.territory]
        self._fewest_below: dict[int, list[int]] = {}  # see ``fewest_in_columns``

    def hopeless(self, pos: int, solid: int, t3: int, phase: int, left: int, turns: int,
                 ) -> bool:
        """A sound bound: True when a state (not a choose-start) at ``pos`` with these
        solid and collapsing cells, about to play a turn of ``phase`` with ``left`` boost
        spaces, cannot reach the goal row within ``turns`` more turns (1 to 3; False,
        "may win", for more). A search that only counts wins spending fewer boosts than
        some bound passes as ``left`` the boosts such a win may still spend (fewer than
        the state has, or negative when it may spend none: then nothing counts).

        Proof. Only a turn of down-gravity (phase 0) moves the piece toward the goal
        row: the +x and -x turns keep its row (falls, drills and boosts go along the
        row), the up turn can only raise it. A turn without down-gravity wins only by
        picking a goal-row start after a capture, and a capture needs the piece to drill
        into a Node's centre on its way. So:

        - one turn: it wins only if it is a down turn whose fall and drills get through
          the solid cells below the piece, at most ``LIMIT[left]`` of them (``can_win``);
        - two or three turns from a -x turn (phase 3) or an up turn (phase 2): until the
          down turn the piece stays in its row or above it and at its column or left of
          it (up, then -x). Without a capture the last turn is the only one that can
          win, from some column x' <= x in row y' <= y. The cells below row y are never
          drilled before it (drills go up or along a row at or above y) and solid cells
          only grow (a collapsing cell turns solid the next turn), so the down turn
          finds at least the cells of ``solid | t3`` below row y in column x': if every
          such column holds more than ``LIMIT[left]`` (boosts left never grow), no line
          wins without a capture. A capture in the up turn (a Node centre above the
          piece, ``capture_up``) is not bounded: the state may win. One in the -x turn
          (a centre in a row at or above y, left of x: ``capture_left`` from a -x turn,
          ``capture_up_left`` after an up turn) leaves the last turn to a start picked
          in that Node's territory, whose cells are open then: it may win only if the
          territory reaches the goal row or one of its cells has at most
          ``LIMIT[left]`` solid cells below it, counting the cells of ``solid | t3``
          less the territory, and for a cell above row y only those below row y
          (``_capture_may_win``). From a +x turn (phase 1), or an up turn with two
          turns left, no down turn comes in time: only a capture could win, and none
          is possible without a centre in the piece's row or above (in its column
          above, for the up turn then -x). Three turns from a -x turn end with a +x
          turn, which a capture in the down turn before it could win (a goal-row
          start): no bound is claimed there.

        A state this says is hopeless is neither stored nor expanded by the grading
        searches near their last turn; tests/test_rotator_fastgrade.py checks the bound
        against the readable searches on seeded boards."""
        if left < 0:
            return True
        if turns == 1:
            return phase != 0 or (solid & BELOW[pos]).bit_count() > LIMIT[left]
        if turns > 3 or phase == 0:
            return False
        if phase == 3:  # -x, then down (then +x, which a capture below could win)
            if turns > 2:
                return False
            for node in self.capture_left[pos]:
                if self._capture_may_win(node, solid | t3, pos, left):
                    return False
        elif phase == 2:  # up, then -x, then down
            if self.capture_up[pos]:
                return False
            if turns < 3:
                return True
            for node in self.capture_up_left[pos]:
                if self._capture_may_win(node, solid | t3, pos, left):
                    return False
        else:  # +x, up, -x: no down turn; a capture needs a centre in the row or above
            return not self.capture_above[pos]
        below = (solid | t3) >> (pos - pos % WIDTH + WIDTH)  # the rows below, shifted up
        fewest = self._fewest_below.get(below)
        if fewest is None:
            fewest = self._fewest_below[below] = fewest_in_columns(below)
        return fewest[pos % WIDTH] > LIMIT[left]

    def _capture_may_win(self, node: int, solid: int, pos: int, left: int) -> bool:
        """Whether capturing ``node`` in a -x turn (from a state at ``pos`` with these
        solid cells, ``solid | t3``) could lead to a win in the down turn after it, the
        last one: a start picked in its territory on the goal row, or one with at most
        ``LIMIT[left]`` solid cells below it. The territory's cells are open after the
        capture; the cells below row y are those of ``solid`` at least (nothing drills
        them before); above row y only the cells below it count."""
        if self._goal_nodes[node]:
            return True
        cells = solid & ~self.territory[node]
        limit, row = LIMIT[left], pos - pos % WIDTH
        for c in self.territory_cells[node]:
            if c < row:  # above the piece's row: count from its row down
                c = row + c % WIDTH
            if (cells & BELOW[c]).bit_count() <= limit:
                return True
        return False

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
        get, hopeless = best.get, self.hopeless
        while layer:
            turn += 1
            last = turn == last_turn
            to_go = last_turn - turn  # turns the next states have left
            near = to_go <= 3
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
                    if not (near and hopeless(p, solid_c, t2, next_phase, left + fewest - 1 - cache,
                                              to_go)):
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
                        elif not (near and hopeless(p2, s, t2, next_phase,
                                                    after + fewest - 1 - cache, to_go)):
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
        hopeless = self.hopeless
        slack = min(cheaper_than - 1 - cache, 0)  # boosts a win may no longer spend
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
            to_go = horizon - later  # turns the next states have left
            near = to_go <= 3
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
                if (old is None or old[0] > later or old[1] < left) and not (
                        near and hopeless(p, solid_c, t2, next_phase, left + slack, to_go)):
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
                        keep = True
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
                        keep = not (near and hopeless(p2, s, t2, next_phase, after + slack, to_go))
                    if keep:
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
