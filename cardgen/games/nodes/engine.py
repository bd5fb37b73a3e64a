"""The rules of Reflector, Deflector and Defector (SPEC §9), written for reading: the
referee that replays a game record (§9.8) and the engine the computer players and the
book's worked examples play through.

- :func:`start` sets a game up from a record (§9.2; a bad set-up is ``bad-setup``);
- :func:`legal_moves` lists what the player to move may do; :func:`problem` says why a
  move is illegal (the first reason of §9.8's list that applies, with its rule);
- :func:`push` plays one move and returns the new state and the referee's report; the
  state given is never changed, and an illegal move raises
  :class:`~cardgen.games.nodes.record.IllegalMove` before anything happens;
- :func:`outcome` is the final ``[outcome]``, :func:`replay` a whole record.

A shot is resolved by :class:`~cardgen.games.nodes.turn.Turn` (landings, captures,
deflections, Ricochet runs, reflection: §9.3, §9.5.7-9.5.10); this module holds who may
do what (§9.4.3, §9.5.3-9.5.5, §9.6.4-9.6.6, §9.6.9) and the end of a turn (§9.4.4,
§9.5.9, §9.6.7-9.6.8). Pure: imports the Node model, the record's values, the table's
joins and the alliances.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from itertools import chain

from cardgen.errors import CardgenError
from cardgen.games.names import GameName
from cardgen.games.nodes import joins
from cardgen.games.nodes.alliance import Alliances
from cardgen.games.nodes.joins import SIZE
from cardgen.games.nodes.model import DEFLECTOR_THRESHOLD, NODES, PLAYERS, deflectors, majority
from cardgen.games.nodes.record import (
    Ending,
    IllegalMove,
    Leave,
    Move,
    MoveReport,
    OutcomeReport,
    Pass,
    Reason,
    Record,
    Replay,
    Result,
    Shot,
    Spot,
    Unite,
    Variant,
    coord_name,
    spot_name,
)
from cardgen.games.nodes.state import Finish, Setup, State, frozen
from cardgen.games.nodes.turn import Turn

# The variants each game allows (SPEC §9.5.10-11, §9.6.1).
VARIANTS: dict[GameName, frozenset[Variant]] = {
    GameName.REFLECTOR: frozenset(),
    GameName.DEFLECTOR: frozenset({Variant.RICOCHET, Variant.REFLECTION}),
    GameName.DEFECTOR: frozenset({Variant.RICOCHET, Variant.DELUXE, Variant.SAFETY,
                                  Variant.ALLIANCE_VICTORY}),
}


def _bad_setup(message: str, rule: str) -> IllegalMove:
    return IllegalMove(Reason.BAD_SETUP, message, rule=rule)


# --- set-up (§9.2) ----------------------------------------------------------------------

def _check_seats(record: Record) -> None:
    """Rules 9.2.1-9.2.3 and the seats of §9.1.1; raises ``bad-setup``."""
    game, seats = record.game, record.players
    if len(seats) not in PLAYERS[game]:
        raise _bad_setup(f"{game.value} is for {PLAYERS[game].words}, not {len(seats)}",
                         "9.1.1")
    for k, seat in enumerate(seats, 1):
        if seat.id != f"P{k}":
            raise _bad_setup(f"the players are P1 … P{len(seats)} in seat order; seat {k} "
                             f"is {seat.id}", "9.1.1")
        if len(set(seat.nodes)) != NODES or len(seat.nodes) != NODES:
            raise _bad_setup(f"{seat.id} must hide {NODES} Nodes on {NODES} different "
                             f"spaces, not {len(seat.nodes)} on {len(set(seat.nodes))}",
                             "9.2.1")
        wanted = deflectors(game)
        if len(seat.deflectors) != wanted or len(set(seat.deflectors)) != wanted:
            raise _bad_setup(f"{seat.id} must place {wanted} Deflectors on different spaces "
                             f"in {game.value}, not {len(seat.deflectors)}", "9.2.2")
        on_nodes = sorted(set(seat.deflectors) & set(seat.nodes))
        if on_nodes:
            raise _bad_setup(f"{seat.id} has a Deflector on his Node "
                             f"{coord_name(on_nodes[0])}; Deflectors go on other spaces",
                             "9.2.2")
    symbols = [seat.symbol for seat in seats]
    if len(set(symbols)) != len(symbols) or not all(symbols):
        raise _bad_setup("every player needs a symbol that no other player uses", "9.2.3")
    if record.first not in {seat.id for seat in seats}:
        raise _bad_setup(f"first must be one of the players, not {record.first}", "9.2.4")
    wrong = sorted(record.variants - VARIANTS[game])
    if wrong:
        allowed = ", ".join(sorted(VARIANTS[game])) or "none"
        raise _bad_setup(f"{game.value} has no variant {wrong[0].value} (it allows "
                         f"{allowed})", "9.6.1" if game is GameName.DEFECTOR else "9.5.11")


def start(record: Record) -> State:
    """The position before the record's first move: its set-up checked (§9.2) and, with
    ``[start]``, the given position with its defaults (§9.8). A set-up the rules do not
    allow raises ``bad-setup``."""
    _check_seats(record)
    try:
        layout = joins.layout(record.game, len(record.players), record.arrangement)
    except CardgenError as exc:
        raise _bad_setup(str(exc), "9.5.1") from exc
    setup = Setup(record.game, layout, record.players, record.variants, record.first,
                  frozen((s.id, frozenset(s.nodes)) for s in record.players),
                  frozen((s.id, frozenset(s.deflectors)) for s in record.players))
    players = setup.players
    state = State(setup, frozen(), frozenset(), frozen((p, frozenset({p})) for p in players),
                  frozen((p, frozenset()) for p in players), frozenset(), Alliances(),
                  frozen(), record.first)
    return state if record.start is None else _from_start(state, record)


def _from_start(state: State, record: Record) -> State:
    """A ``[start]`` position (§9.8) over the fresh state, its defaults filled in. Play
    has begun: alliances are made from here in turn (§9.6.4)."""
    assert record.start is not None
    begin, setup, layout = record.start, state.setup, state.layout
    players = setup.players

    def player(p: str, what: str) -> str:
        if p not in players:
            raise _bad_setup(f"start {what} names {p}, who is not a player", "9.8")
        return p

    def space(spot: Spot, what: str) -> Spot:
        if not layout.has(spot):
            raise _bad_setup(f"start {what} names {spot_name(spot)}, which is not on this "
                             "table", "9.8")
        return spot

    marks: dict[Spot, str] = {}
    for p, spots in begin.marks.items():
        for spot in spots:
            if space(spot, "marks") in marks:
                raise _bad_setup(f"start marks give {spot_name(spot)} twice", "9.8")
            marks[spot] = player(p, "marks")
    used = frozenset(space(s, "spent") for s in begin.spent)
    for spot in used:
        if not setup.is_deflector(spot):
            raise _bad_setup(f"start spent names {spot_name(spot)}, which holds no "
                             "Deflector", "9.8")
    for spot in marks:
        if setup.is_deflector(spot) and spot not in used:
            raise _bad_setup(f"{spot_name(spot)} is won but holds an unused Deflector; a "
                             "won space never does", "9.3.1")
    out = frozenset(player(p, "out") for p in begin.out)
    state = replace(state, marks=frozen(marks), used=used, out=out,
                    to_move=player(begin.to_move, "to_move"), begun=True)
    if begin.to_move in out:
        raise _bad_setup(f"start to_move is {begin.to_move}, who is out", "9.8")
    grids = set(layout.grids)
    homes = {p: frozenset(g for g in grids if layout.owner(g) is not None and (
        (g == p and state.node_count_on(p, g) > 0)
        or state.node_count_on(p, g) == NODES)) for p in players}
    for p, given in (begin.homes or {}).items():
        homes[player(p, "homes")] = frozenset(given)
    aimed = {p: frozenset(s[0] for s in state.bases(frozenset({p}))) for p in players}
    for p, given in (begin.aimed or {}).items():
        aimed[player(p, "aimed")] = frozenset(given)
    for table in (homes, aimed):
        for p, given_grids in table.items():
            if not given_grids <= grids:
                raise _bad_setup(f"start names a grid that is not on this table for {p}",
                                 "9.8")
    turns = {}
    for g, q in begin.turns.items():
        if g not in players or not 0 <= q <= 3:
            raise _bad_setup(f"start turns gives {g} the count {q}; counts are 0-3 on "
                             "players' grids", "9.6.9")
        turns[g] = q
    alliances = Alliances.from_views(begin.alliances, begin.divided)
    for alliance in alliances.alliances:
        if alliance.members & out:
            raise _bad_setup("an alliance is of players in the game", "9.6.4")
    return replace(state, homes=frozen(homes), aimed=frozen(aimed), turns=frozen(turns),
                   alliances=alliances)


# --- reach (§9.4.3, §9.5.3, §9.6.6, §9.6.9) --------------------------------------------

def _downward_only(state: State, player: str, grid: str) -> bool:
    """Deluxe: within another player's grid a base reaches only the space down from it."""
    owner = state.setup.owners[grid]
    return state.setup.has(Variant.DELUXE) and owner is not None and owner != player


def _reached_from(state: State, player: str, base: Spot, *, deluxe: bool = True,
                  ) -> Iterable[Spot]:
    """The spaces a base of ``player`` reaches: those that meet it (§9.5.3 item 1), in
    Deluxe only the one down from it inside another player's grid (§9.6.9)."""
    limited = deluxe and _downward_only(state, player, base[0])
    below = joins.down(base, state.turns.get(base[0], 0)) if limited else None
    for spot in state.layout.meets(base):
        if spot[0] != base[0] or not limited or spot == below:
            yield spot


def _entry_open(state: State, player: str, grid: str, homes: frozenset[str],
                bases: Iterable[Spot]) -> bool:
    """§9.5.3 item 2's grid conditions: not a home grid of the side, and not yet aimed
    at by ``player`` or without a base of the side on it."""
    if grid in homes:
        return False
    return grid not in state.aimed[player] or not any(b[0] == grid for b in bases)


def _homes(state: State, player: str) -> frozenset[str]:
    return frozenset().union(*(state.homes[p] for p in state.side(player)))


def in_reach(state: State, player: str, spot: Spot, *, deluxe: bool = True) -> bool:
    """Whether ``player`` may aim at ``spot`` as far as reach goes (§9.4.3 step 1 in
    Reflector; §9.5.3 with §9.6.6 and §9.6.9 otherwise). ``deluxe=False`` leaves out
    Deluxe's downward rule (to tell ``not-down`` from ``out-of-reach``)."""
    side = state.side(player)
    if state.setup.game is GameName.REFLECTOR:
        if spot[2] == 1 and spot[0] not in state.aimed[player]:
            return True  # the first turn's Row 1
        return any(state.marks.get(m) == player for m in state.layout.meets(spot)
                   if m[0] == spot[0])
    for m in state.layout.meets(spot):
        if state.marks.get(m) in side and spot in _reached_from(state, player, m,
                                                                deluxe=deluxe):
            return True
    homes = _homes(state, player)
    bases = state.bases(side)
    return (_entry_open(state, player, spot[0], homes, bases)
            and any(state.layout.on_stretch_joined_to(spot, g) for g in homes))


def _reach(state: State, player: str, bases: Iterable[Spot]) -> set[Spot]:
    """Every space in reach of ``player`` (before the rules of what he may take), from
    the ``bases`` of his side: the spaces a base reaches (:func:`_reached_from`) and, on
    each grid whose entry is open (:func:`_entry_open`), the spaces on its stretches
    joined to a home grid of the side. The layout's tables give each base's meeting
    spaces and each grid's entries whole (``reference.reach`` asks space by space; the
    tests hold the two equal)."""
    layout, setup = state.layout, state.setup
    found: set[Spot] = set()
    if setup.game is GameName.REFLECTOR:
        target = next(g for g in layout.grids if g != player)
        if target not in state.aimed[player]:
            found.update((target, c, 1) for c in range(SIZE))
        for base in bases:
            found.update(m for m in layout.meets(base) if m[0] == base[0])
        return found
    meets, owners = layout.meets, setup.owners
    if setup.has(Variant.DELUXE):
        for base in bases:
            grid = base[0]
            owner = owners[grid]
            if owner is not None and owner != player:  # within the grid only down
                found.update(layout.across(base))
                below = joins.down(base, state.turns.get(grid, 0))
                if below is not None:
                    found.add(below)
            else:
                found.update(meets(base))
    else:
        found.update(*map(meets, bases))
    homes = _homes(state, player)
    aimed, based = state.aimed[player], {b[0] for b in bases}
    for grid in layout.grids:
        if grid not in homes and (grid not in aimed or grid not in based):
            for home in homes:
                found |= layout.entries(grid, home)
    return found


def shots(state: State) -> list[Shot]:
    """Every legal shot of the player to move, in seat and reading order (§9.4.3,
    §9.5.4): the spaces of his reach for which :func:`_take_reason` finds nothing,
    its reasons taken here a set at a time (``reference.shots`` asks them space by
    space; the tests hold the two equal)."""
    player = state.to_move
    if player is None:
        return []
    setup, marks = state.setup, state.marks
    side = state.side(player)
    bases = [s for s, p in marks.items() if p in side]
    found = _reach(state, player, bases)
    found.difference_update(bases)  # held: his marks, his allies' (ally)
    if setup.game is GameName.REFLECTOR:  # own-grid
        found = {s for s in found if s[0] != player}
    else:  # held: the unwon spaces of his grid and his allies' (ally)
        found = {s for s in found if s[0] not in side or s in marks}
    held = state.nodes_held(player)
    if held:  # own-territory: won spaces, not Nodes, in the territory of his Nodes
        covered = found.intersection(chain.from_iterable(map(setup.territory, held)))
        found.difference_update(s for s in covered if s in marks and not setup.is_node(s))
    return [Shot(player, s) for s in sorted(found, key=setup.reading.__getitem__)]


# --- why a move is illegal (§9.8's reasons, in their order) -----------------------------

def _turn_problem(state: State, by: str, *, rule: str) -> IllegalMove | None:
    """``not-your-turn`` for a shot or a pass by anyone but the player to move: a player
    who is out has no turn either (``player-out`` comes later in §9.8's list)."""
    if by not in state.setup.players:
        return IllegalMove(Reason.NOT_YOUR_TURN, f"{by} is not a player at this table",
                           rule=rule)
    if state.finish is not None:
        return IllegalMove(Reason.NOT_YOUR_TURN, "the game is over", rule=rule)
    if by != state.to_move:
        out = f"; {by} is out of the game" if by in state.out else ""
        return IllegalMove(Reason.NOT_YOUR_TURN, f"it is {state.to_move}'s turn, not "
                           f"{by}'s{out}", rule=rule)
    return None


def _take_reason(state: State, by: str, spot: Spot) -> Reason | None:
    """Why ``by`` may not name ``spot`` whatever his reach (``no-such-space`` to
    ``ally``, in that order), or None."""
    if not state.layout.has(spot):
        return Reason.NO_SUCH_SPACE
    if state.setup.game is GameName.REFLECTOR and spot[0] == by:
        return Reason.OWN_GRID
    holder = state.holder(spot)
    if holder == by:
        return Reason.HELD
    if not state.may_take(by, spot):
        return Reason.OWN_TERRITORY
    if holder is not None and holder in state.allies(by):
        return Reason.ALLY
    return None


def _take_problem(state: State, by: str, spot: Spot) -> IllegalMove | None:
    """:func:`_take_reason` with its rule and words."""
    reason = _take_reason(state, by, spot)
    if reason is None:
        return None
    reflector = state.setup.game is GameName.REFLECTOR
    name, holder = spot_name(spot), state.holder(spot) if state.layout.has(spot) else None
    words, rule = {
        Reason.NO_SUCH_SPACE: (f"{name} is not a space of this table", "9.1.3"),
        Reason.OWN_GRID: (f"{by} never shoots his own grid ({name})", "9.4.3"),
        Reason.HELD: (f"{name} is already {by}'s", "9.4.3" if reflector else "9.5.4"),
        Reason.OWN_TERRITORY: (f"{name} was won by {holder} inside the territory of a Node "
                               f"{by} holds; it cannot be won back until that Node changes "
                               "hands", "9.3.2"),
        Reason.ALLY: (f"{name} is held by {by}'s ally {holder}", "9.6.6"),
    }[reason]
    return IllegalMove(reason, words, rule=rule)


def _target_problem(state: State, by: str, spot: Spot) -> IllegalMove | None:
    """Why ``by`` may not name ``spot``, or None (from ``no-such-space`` on)."""
    found = _take_problem(state, by, spot)
    if found is not None:
        return found
    name = spot_name(spot)
    if not in_reach(state, by, spot, deluxe=False):
        reflector = state.setup.game is GameName.REFLECTOR
        return IllegalMove(Reason.OUT_OF_REACH, f"{name} meets none of {by}'s bases and "
                           "is no entry for him", rule="9.4.3" if reflector else "9.5.3")
    if not in_reach(state, by, spot):
        return IllegalMove(Reason.NOT_DOWN, f"{name} is not directly down from a base of "
                           f"{by} on that grid", rule="9.6.9")
    return None


def _union_problem(state: State, move: Unite | Leave) -> IllegalMove | None:
    """When an alliance move may be made (§9.6.4): a union before the first shot by any
    player, later by the player to move before his shot; leaving at the start of a turn
    of any member of one's alliance, before any union of that turn."""
    by = move.by
    if state.setup.game is not GameName.DEFECTOR:
        return IllegalMove(Reason.NOT_YOUR_TURN, "alliances are made only in Defector",
                           rule="9.6.4")
    if by not in state.setup.players or state.finish is not None:
        return IllegalMove(Reason.NOT_YOUR_TURN, "no alliance move can be made now",
                           rule="9.6.4")
    if isinstance(move, Unite):
        if state.begun and by != state.to_move:
            return IllegalMove(Reason.NOT_YOUR_TURN, f"after the first shot only the "
                               f"player to move ({state.to_move}) may unite",
                               rule="9.6.4")
        if by in state.out:
            return IllegalMove(Reason.PLAYER_OUT, f"{by} is out of the game",
                               rule="9.6.4")
        if move.other not in state.setup.players:
            return IllegalMove(Reason.BAD_LINK, f"{move.other} is not a player at this "
                               "table", rule="9.6.4")
        if move.other in state.out:
            return IllegalMove(Reason.PLAYER_OUT, f"{move.other} is out of the game; an "
                               "alliance is of players in the game", rule="9.6.4")
        return None
    if by in state.out:  # in no alliance: no member's turn to leave at
        return IllegalMove(Reason.PLAYER_OUT, f"{by} is out of the game", rule="9.6.4")
    alliance = state.alliances.of(by)
    if state.begun and alliance is not None and (
            state.to_move not in alliance.members or state.united):
        return IllegalMove(Reason.NOT_YOUR_TURN, f"{by} may leave only at the start of a "
                           "turn of a member of his alliance, before any union of that "
                           "turn", rule="9.6.4")
    if alliance is None:
        return IllegalMove(Reason.NOT_ALLIED, f"{by} is in no alliance to leave",
                           rule="9.6.4")
    return None


def problem(state: State, move: Move) -> IllegalMove | None:
    """Why ``move`` is illegal in ``state`` (the first reason of §9.8's list that
    applies), or None when it is legal. Alliance structure (``divided``,
    ``two-masters``, ``bad-link``) is checked by the alliances themselves in
    :func:`push`."""
    rule = "9.4.2" if state.setup.game is GameName.REFLECTOR else "9.5.5"
    if isinstance(move, Shot):
        return (_turn_problem(state, move.by, rule=rule)
                or _target_problem(state, move.by, move.at))
    if isinstance(move, Pass):
        found = _turn_problem(state, move.by, rule=rule)
        if found is None and shots(state):
            return IllegalMove(Reason.CAN_SHOOT, f"{move.by} has a legal shot and may "
                               "pass only without one",
                               rule="9.4.3" if rule == "9.4.2" else "9.5.4")
        return found
    return _union_problem(state, move)


# --- moves ------------------------------------------------------------------------------

def _united(state: State, move: Unite) -> Alliances:
    """The alliances after a union (structure checked by :class:`Alliances`)."""
    def holds_own(player: str, node: Spot) -> bool:
        return node[0] == player and state.setup.is_node(node) and state.holder(node) == player
    return state.alliances.unite(move.by, move.other, link=move.link, group=move.group,
                                 master=move.master, holds_own=holds_own)


def legal_moves(state: State) -> list[Move]:
    """Every move the rules allow now: alliance moves (Defector), then the legal shots
    of the player to move in reading order, or his pass when he has none. Unions are
    listed with the fewest designations that make them valid (see
    :func:`union_moves`)."""
    if state.finish is not None or state.to_move is None:
        return []
    moves: list[Move] = []
    if state.setup.game is GameName.DEFECTOR:
        moves += alliance_moves(state)
    found = shots(state)
    moves += found if found else [Pass(state.to_move)]
    return moves


def alliance_moves(state: State) -> list[Move]:
    """The leaving and uniting the rules allow now (Defector, §9.6.4)."""
    moves: list[Move] = []
    if state.finish is not None or state.to_move is None:
        return moves
    movers = state.playing if not state.begun else (state.to_move,)
    leavers = state.playing if not state.begun else tuple(
        p for p in state.playing if state.to_move in state.side(p))
    for p in leavers:
        move = Leave(p)
        if state.alliances.of(p) is not None and problem(state, move) is None:
            moves.append(move)
    for by in movers:
        for other in state.playing:
            if other != by:
                moves += union_moves(state, by, other)
    return moves


def union_moves(state: State, by: str, other: str) -> list[Unite]:
    """The valid unions of ``by``'s side with ``other``'s, one per choice of the Link or
    Master Node the union must designate (§9.6.4); forming a new Link group under a
    Master is always optional and is not listed."""
    if other in state.side(by) or problem(state, Unite(by, other)) is not None:
        return []
    one, two = state.alliances.of(by), state.alliances.of(other)
    if any(state.alliances.are_divided(a, b) for a in state.side(by)
           for b in state.side(other)):
        return []
    members = state.side(by) | state.side(other)
    masters = [a.master for a in (one, two) if a is not None and a.master is not None]
    own = [n for n in state.setup.node_spots if n[0] in members and state.holder(n) == n[0]]
    if len(masters) == 2:
        return []
    if len(members) < 4 and not masters:
        candidates = ([Unite(by, other, link=n) for n in own] if one is None and two is None
                      else [Unite(by, other)])
    else:
        candidates = ([Unite(by, other)] if masters
                      else [Unite(by, other, master=n) for n in own])
    found = []
    for move in candidates:
        try:
            _united(state, move)
        except IllegalMove:
            continue
        found.append(move)
    return found


def push(state: State, move: Move, *, index: int | None = None) -> tuple[State, MoveReport]:
    """Play ``move``: the new state and the referee's report for it (``index`` is the
    move's number in the record, by default the next). An illegal move raises
    :class:`IllegalMove` and changes nothing."""
    number = len(state.history) + 1 if index is None else index
    found = problem(state, move)
    if found is not None:
        raise found
    if isinstance(move, Unite | Leave):
        alliances = (_united(state, move) if isinstance(move, Unite)
                     else state.alliances.leave(move.by))
        report = MoveReport(number, alliances=alliances.views())
        after = replace(state, alliances=alliances, history=(*state.history, report),
                        united=state.united or isinstance(move, Unite))
        return after, report
    turn = Turn(state)
    if isinstance(move, Shot):
        turn.shoot(move.by, move.at)
    after, report = turn.finish(number)
    after = _end_of_turn(after, move, report)
    if after.out != state.out:
        report = replace(report, out=tuple(p for p in state.setup.players
                                           if p in after.out - state.out))
    if after.alliances.views() != state.alliances.views():
        report = replace(report, alliances=after.alliances.views())
    return replace(after, history=(*state.history, report)), report


# --- the end of a turn (§9.4.4, §9.5.9, §9.6.7-9.6.8) ----------------------------------

def _most(state: State, players: Iterable[str]) -> tuple[str, ...]:
    """The players among ``players`` with the most Nodes."""
    counts = {p: state.node_count(p) for p in players}
    best = max(counts.values(), default=0)
    return tuple(p for p, c in counts.items() if c == best)


def _decided(state: State, players: Iterable[str], reason: Ending) -> State:
    """The game ends: the one with the most Nodes wins; equal counts draw."""
    best = _most(state, players)
    result = Result.WIN if len(best) == 1 else Result.DRAW
    return replace(state, finish=Finish(result, reason, best), to_move=None)


def _won(state: State, winners: Iterable[str], reason: Ending) -> State:
    players = state.setup.players
    return replace(state, finish=Finish(Result.WIN, reason, tuple(
        p for p in players if p in set(winners))), to_move=None)


def _reflector_end(state: State) -> State | None:
    """§9.4.4: a player who holds none of his own Nodes has lost them all."""
    players = state.setup.players
    lost = [p for p in players if not any(state.holder(n) == p
                                          for n in state.setup.grid_nodes(p))]
    if len(lost) == 1:
        return _won(state, [p for p in players if p not in lost], Ending.ALL_NODES)
    if len(lost) == 2:
        spaces = {p: sum(1 for s, m in state.marks.items() if m == p and s[0] != p)
                  for p in players}
        best = max(spaces.values())
        leaders = tuple(p for p in players if spaces[p] == best)
        if len(leaders) == 1:
            finish = Finish(Result.WIN, Ending.SPACE_COUNT, leaders, frozen(spaces))
        else:
            finish = Finish(Result.DRAW, Ending.TRUE_DRAW, leaders, frozen(spaces))
        return replace(state, finish=finish, to_move=None)
    return None


def _update_homes(state: State) -> State:
    """§9.5.2: a home grid of P stops being one when P holds none of its Nodes; a grid
    whose 5 Nodes P holds becomes one."""
    homes = {}
    for p in state.setup.players:
        held: dict[str, int] = {}
        for node in state.nodes_held(p):
            held[node[0]] = held.get(node[0], 0) + 1
        homes[p] = frozenset(g for g in state.homes[p] if held.get(g, 0) > 0) | frozenset(
            g for g, count in held.items() if count == NODES)
    return replace(state, homes=frozen(homes))


def _go_out(state: State, players: Iterable[str]) -> State:
    return replace(state, out=state.out | frozenset(players))


def _left(state: State, before: tuple[str, ...]) -> State | None:
    """Last standing, or none left (§9.5.9 step 4)."""
    playing = state.playing
    if len(playing) == 1:
        return _won(state, playing, Ending.LAST_STANDING)
    if not playing:
        return _decided(state, before, Ending.NONE_LEFT)
    return None


def _everything_held_by(state: State, players: tuple[str, ...]) -> bool:
    return all(state.holder(n) in players for n in state.setup.node_spots)


def _stalemate(state: State) -> State | None:
    """§9.5.9 step 6: everyone in the game has passed since the last shot."""
    if state.playing and set(state.playing) <= state.passed:
        return _decided(state, state.playing, Ending.STALEMATE)
    return None


def _deflector_end(state: State) -> State:
    """§9.5.9 steps 1-6."""
    state = _update_homes(state)
    n = len(state.setup.players)
    for p in state.playing:
        if state.node_count(p) >= DEFLECTOR_THRESHOLD[n]:
            return _won(state, [p], Ending.THRESHOLD)
    before = state.playing
    state = _go_out(state, [p for p in before if not state.homes[p]])
    ended = _left(state, before)
    if ended is not None:
        return ended
    playing = state.playing
    if len(playing) == 2 and _everything_held_by(state, playing):
        best = _most(state, playing)
        if len(best) == 1:
            return _won(state, best, Ending.TWO_LEFT)
    return _stalemate(state) or state


def _defector_end(state: State) -> State:
    """§9.5.9 step 1, then §9.6.8 steps 1-6 (with §9.6.7's out and saved)."""
    state = _update_homes(state)
    most = majority(len(state.setup.players))
    for p in state.playing:
        if state.node_count(p) >= most:
            return _won(state, [p], Ending.MAJORITY)
    while True:  # the alliance victory state
        winning = next((a for a in state.alliances.alliances
                        if _everything_held_by(state, tuple(a.members))
                        or set(state.playing) <= a.members), None)
        if winning is None:
            break
        if state.setup.has(Variant.ALLIANCE_VICTORY):
            return _won(state, winning.members, Ending.ALLIANCE)
        state = replace(state, alliances=state.alliances.dissolve(winning))
    before = state.playing
    state = _go_out(state, [p for p in before
                            if not state.homes[p] and state.alliances.of(p) is None])
    ended = _left(state, before)
    if ended is not None:
        return ended
    playing = state.playing
    if len(playing) <= 3 and _everything_held_by(state, playing):
        best = _most(state, playing)
        if len(best) == 1:
            return _won(state, best, Ending.THREE_LEFT)
    return _stalemate(state) or state


def _end_of_turn(state: State, move: Move, report: MoveReport) -> State:
    """The end checks after a shot or a pass, then the next player's turn."""
    passed = state.passed | {move.by} if isinstance(move, Pass) else frozenset()
    state = replace(state, passed=passed, begun=True, united=False)
    game = state.setup.game
    if game is GameName.REFLECTOR:
        ended = _reflector_end(state)
        state = ended if ended is not None else state
    elif game is GameName.DEFLECTOR:
        state = _deflector_end(state)
    else:
        state = _defector_end(state)
    if state.finish is not None:
        return state
    state = replace(state, passed=state.passed & set(state.playing))
    return replace(state, to_move=_next_player(state, move.by))


def _next_player(state: State, player: str) -> str:
    """The next player clockwise from ``player`` who is still in the game."""
    players = state.setup.players
    k = players.index(player)
    for step in range(1, len(players) + 1):
        candidate = players[(k + step) % len(players)]
        if candidate not in state.out:
            return candidate
    return player


# --- the outcome and a whole record ----------------------------------------------------

def outcome(state: State, *, stopped_at: int | None = None) -> OutcomeReport:
    """The ``[outcome]`` of ``state`` (§9.8): every player's Node count always, the
    space counts when they decided a Reflector game."""
    nodes = {p: state.node_count(p) for p in state.setup.players}
    finish = state.finish
    if finish is None:
        return OutcomeReport(Result.NOT_OVER, to_move=state.to_move, stopped_at=stopped_at,
                             nodes=nodes)
    return OutcomeReport(finish.result, finish.reason, finish.winners,
                         stopped_at=stopped_at, nodes=nodes, spaces=dict(finish.spaces))


def check(record: Record) -> tuple[Replay, IllegalMove | None]:
    """Replay a record move by move (§9.8): one report per move, stopping at the first
    illegal one (a bad set-up is reported on move 1), then the outcome; with the error
    that stopped it (its words and rule, for the command line), or None."""
    try:
        state = start(record)
    except IllegalMove as exc:
        report = MoveReport(1, legal=False, reason=exc.reason)
        return Replay((report,), OutcomeReport(Result.NOT_OVER, to_move=record.first,
                                               stopped_at=1)), exc
    reports = []
    for number, move in enumerate(record.moves, 1):
        try:
            state, report = push(state, move, index=number)
        except IllegalMove as exc:
            reports.append(MoveReport(number, legal=False, reason=exc.reason))
            return Replay(tuple(reports), outcome(state, stopped_at=number)), exc
        reports.append(report)
    return Replay(tuple(reports), outcome(state)), None


def replay(record: Record) -> Replay:
    """The referee's report of a record (:func:`check` without the error)."""
    return check(record)[0]


__all__ = ["IllegalMove", "State", "alliance_moves", "check", "in_reach",
           "legal_moves", "outcome", "problem", "push", "replay", "shots", "start",
           "union_moves"]
