"""The table as the Node games' rules see it (SPEC §9.1.1-9.1.6, §9.5.1, §9.5.6,
§9.6.2-9.6.3, §9.6.9): which grids there are, which spaces meet across the joins, and
which way a shot travels round the seats.

- :func:`layout` gives a game's :class:`Layout`: Reflector's two grids meet Row 1 to
  Row 1 whatever set-up is used (§9.4.1); Deflector's joins are the named arrangement's
  (``templates/tables/arrangements.toml``, through :mod:`cardgen.games.nodes.tables`),
  private grids taking no part (§9.5.1); Defector's two layouts are built by rule for
  any number of players (§9.6.2), the data's six-player drawings being one case of it.
- A join pairs the squares of two stretches of edge (§9.1.6, :func:`pair`): each
  stretch's squares listed clockwise round its own grid, the k-th of one meets the k-th
  from the end of the other.
- :func:`direction` and :meth:`Layout.next_grid` go by seats, never by joins (§9.5.6);
  :func:`down` is Deluxe's "directly down" on a grid turned ``q`` quarter turns
  (§9.6.9).

Grids are named as the record names them: ``P1`` … ``Pn`` after their owners, then the
Island's ``I1`` … ``Im``. A space is a :data:`~cardgen.games.nodes.record.Spot`. Pure:
imports the record's values, the arrangements' model, ``games.names`` and ``errors``.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache, cached_property

from cardgen.errors import ParameterError, shorten
from cardgen.games.names import GameName
from cardgen.games.nodes.model import PLAYERS, Role
from cardgen.games.nodes.record import Coord, Spot
from cardgen.games.nodes.tables import Arrangement, Edge, Stretch, bundled

SIZE = 10  # a grid is SIZE × SIZE spaces, columns 0..9 (A..J), rows 1..10

# Defector's two layouts, named as the arrangement data names them (§9.6.2).
FULL = "defector-full"
ISLAND = "defector-island"
DEFECTOR_LAYOUTS = (FULL, ISLAND)


class Direction(enum.IntEnum):
    """Which way a shot travels round the seats (SPEC §9.5.6)."""

    CLOCKWISE = 1
    ANTICLOCKWISE = -1


def player_grid(seat: int) -> str:
    """Seat 3's grid: ``P3``."""
    return f"P{seat}"


def island_grid(number: int) -> str:
    """The Island's grid ``I{number}``."""
    return f"I{number}"


def seat_of(grid: str) -> int | None:
    """``P3`` → 3; None for an Island grid (or anything that is not a player's grid)."""
    if grid.startswith("P") and grid[1:].isdigit():
        return int(grid[1:])
    return None


# --- pairing the squares of a join (§9.1.6) ----------------------------------------------

def clockwise(stretch: Stretch) -> tuple[Coord, ...]:
    """A stretch's squares listed clockwise round its own grid: Row 1 A→J, Column J
    1→10, Row 10 J→A, Column A 10→1 (SPEC §9.1.6)."""
    cells = stretch.cells()  # from Column A or Row 1 onwards
    return cells if stretch.edge in (Edge.ROW_1, Edge.COLUMN_J) else cells[::-1]


def pair(a: Stretch, b: Stretch) -> tuple[tuple[Coord, Coord], ...]:
    """The squares that meet across a join of stretch ``a`` with stretch ``b``: the k-th
    square of ``a``'s clockwise list with the k-th from the end of ``b``'s (§9.1.6)."""
    if a.length != b.length:
        raise ValueError(f"a join pairs stretches of one length, not {a.length} and "
                         f"{b.length}")
    return tuple(zip(clockwise(a), reversed(clockwise(b)), strict=True))


@dataclass(frozen=True)
class Join:
    """A contact between a stretch of grid ``a`` and a stretch of grid ``b`` (touch, fold
    and bridge all mean the same to the rules)."""

    a: str
    a_stretch: Stretch
    b: str
    b_stretch: Stretch

    def pairs(self) -> tuple[tuple[Spot, Spot], ...]:
        """The spaces that meet across the join, ``a``'s first."""
        return tuple(((self.a, *p), (self.b, *q))
                     for p, q in pair(self.a_stretch, self.b_stretch))

    def __str__(self) -> str:
        return f"{self.a} {self.a_stretch} ↔ {self.b} {self.b_stretch}"


# --- the layout -------------------------------------------------------------------------

def _spaces(grid: str) -> tuple[Spot, ...]:
    return tuple((grid, c, r) for r in range(1, SIZE + 1) for c in range(SIZE))


def _neighbours(spot: Spot) -> Iterable[Spot]:
    grid, column, row = spot
    for dc, dr in ((0, -1), (-1, 0), (1, 0), (0, 1)):  # reading order
        c, r = column + dc, row + dr
        if 0 <= c < SIZE and 1 <= r <= SIZE:
            yield (grid, c, r)


@dataclass(frozen=True)
class Layout:
    """The grids of a table and their joins, as the rules see them.

    ``grids`` lists the players' grids ``P1`` … ``Pn`` in seat order, then the Island's
    ``I1`` … ``Im``; ``joins`` the contacts between stretches of their edges."""

    game: GameName
    players: int
    arrangement: str | None
    grids: tuple[str, ...]
    joins: tuple[Join, ...] = ()

    # -- derived tables, built once per layout --

    @cached_property
    def _across(self) -> dict[Spot, tuple[Spot, ...]]:
        found: dict[Spot, list[Spot]] = {}
        for join in self.joins:
            for p, q in join.pairs():
                found.setdefault(p, []).append(q)
                found.setdefault(q, []).append(p)
        return {s: tuple(sorted(set(v), key=self._key)) for s, v in found.items()}

    @cached_property
    def _joined(self) -> dict[str, dict[str, frozenset[Coord]]]:
        """grid → other grid → the squares of grid on stretches joined to it."""
        found: dict[str, dict[str, set[Coord]]] = {}
        for join in self.joins:
            for p, q in join.pairs():
                found.setdefault(p[0], {}).setdefault(q[0], set()).add(p[1:])
                found.setdefault(q[0], {}).setdefault(p[0], set()).add(q[1:])
        return {g: {h: frozenset(cells) for h, cells in others.items()}
                for g, others in found.items()}

    @cached_property
    def _order(self) -> dict[str, int]:
        return {g: i for i, g in enumerate(self.grids)}

    @cached_property
    def _meets(self) -> dict[Spot, tuple[Spot, ...]]:
        """Every space of the table → what :meth:`meets` lists for it."""
        return {spot: (*_neighbours(spot), *self.across(spot))
                for grid in self.grids for spot in self.spaces(grid)}

    @cached_property
    def _entries(self) -> dict[str, dict[str, frozenset[Spot]]]:
        """grid → other grid → the spaces of grid on stretches joined to it."""
        return {g: {h: frozenset((g, *c) for c in cells) for h, cells in others.items()}
                for g, others in self._joined.items()}

    def _key(self, spot: Spot) -> tuple[int, int, int]:
        return (self._order.get(spot[0], len(self.grids)), spot[2], spot[1])

    # -- the interface --

    @property
    def islands(self) -> tuple[str, ...]:
        """The Island's grids (Defector's Island layout only)."""
        return tuple(g for g in self.grids if seat_of(g) is None)

    @property
    def seats(self) -> tuple[str, ...]:
        """The players ``P1`` … ``Pn``, clockwise (each named like his grid)."""
        return self.grids[:self.players]

    def spaces(self, grid: str) -> tuple[Spot, ...]:
        """Every space of ``grid`` in reading order (Row 1 first, A to J in a row)."""
        found = self._spaces.get(grid)
        return found if found is not None else _spaces(grid)

    @cached_property
    def _spaces(self) -> dict[str, tuple[Spot, ...]]:
        return {grid: _spaces(grid) for grid in self.grids}

    def has(self, spot: Spot) -> bool:
        """Whether ``spot`` is a space of this table (its grid exists)."""
        return spot[0] in self._order and 0 <= spot[1] < SIZE and 1 <= spot[2] <= SIZE

    def owner(self, grid: str) -> str | None:
        """Who owns ``grid`` (``P3`` owns ``P3``); None for an Island grid."""
        owners = self._owners
        if grid not in owners:
            raise KeyError(grid)
        return owners[grid]

    @cached_property
    def _owners(self) -> dict[str, str | None]:
        return {g: g if seat_of(g) is not None else None for g in self.grids}

    def across(self, spot: Spot) -> tuple[Spot, ...]:
        """The spaces of other grids facing ``spot`` across joins (SPEC §9.1.6), in
        grid order."""
        return self._across.get(spot, ())

    def meets(self, spot: Spot) -> tuple[Spot, ...]:
        """Every space that meets ``spot`` (SPEC §9.1.5): its side neighbours on its own
        grid (in reading order), then the spaces facing it across joins."""
        found = self._meets.get(spot)
        return found if found is not None else (*_neighbours(spot), *self.across(spot))

    def joined(self, a: str, b: str) -> bool:
        """Whether some stretch of grid ``a`` is joined to grid ``b``."""
        return b in self._joined.get(a, {})

    def joined_to(self, grid: str) -> tuple[str, ...]:
        """The grids joined to ``grid``, in grid order."""
        return tuple(g for g in self.grids if self.joined(grid, g))

    def on_stretch_joined_to(self, spot: Spot, grid: str) -> bool:
        """Whether ``spot`` lies on a stretch of its grid that is joined to ``grid``:
        the squares a player may enter from ``grid`` (SPEC §9.5.3.2)."""
        return spot[1:] in self._joined.get(spot[0], {}).get(grid, frozenset())

    def entries(self, grid: str, other: str) -> frozenset[Spot]:
        """The spaces of ``grid`` on stretches joined to ``other`` (those for which
        :meth:`on_stretch_joined_to` holds), none when the two are not joined."""
        return self._entries.get(grid, {}).get(other, frozenset())

    def next_grid(self, grid: str, direction: Direction) -> str:
        """The grid of the next seat from ``grid``'s owner in ``direction``, every seat
        counting, out or not; the Island is never a seat (SPEC §9.5.6, §9.6.3)."""
        seat = seat_of(grid)
        if seat is None or not 1 <= seat <= self.players:
            raise ValueError(f"{grid} is not a player's grid at this table; only a "
                             "player's grid has a next grid")
        return player_grid((seat - 1 + int(direction)) % self.players + 1)

    def pairs(self) -> frozenset[frozenset[Spot]]:
        """Every pair of spaces that meet across a join (to compare two layouts)."""
        return frozenset(frozenset(p) for join in self.joins for p in join.pairs())


# --- building layouts --------------------------------------------------------------------

def _rules_grid(arr: Arrangement, grid_id: str) -> str | None:
    """An arrangement's grid under its rules name: a player's public grid ``Pk``, an
    island grid ``Ij`` (numbered in the data's order); None for a private grid."""
    placed = arr.grid(grid_id)
    if placed.role is Role.PRIVATE:
        return None
    if placed.role is Role.PUBLIC:
        return player_grid(placed.player)
    islands = [g.id for g in arr.grids if g.role is Role.ISLAND]
    return island_grid(islands.index(grid_id) + 1)


def from_arrangement(arr: Arrangement) -> Layout:
    """An arrangement of the data as the rules see it: the players' public grids and the
    Island's grids, and the contacts between them (private grids take no part)."""
    players = tuple(player_grid(k) for k in range(1, arr.players + 1))
    islands = tuple(island_grid(j + 1) for j in
                    range(sum(g.role is Role.ISLAND for g in arr.grids)))
    joins = []
    for contact in arr.contacts:
        a, b = _rules_grid(arr, contact.a.grid), _rules_grid(arr, contact.b.grid)
        if a is None or b is None:
            continue
        joins.append(Join(a, contact.a.stretch, b, contact.b.stretch))
    return Layout(arr.game, arr.players, arr.name, players + islands, tuple(joins))


ROW_1, ROW_10, COLUMN_A = Stretch(Edge.ROW_1), Stretch(Edge.ROW_10), Stretch(Edge.COLUMN_A)


def reflector_layout(arrangement: str | None = None) -> Layout:
    """Reflector: the two grids meet Row 1 to Row 1, whatever the set-up (§9.4.1)."""
    return Layout(GameName.REFLECTOR, 2, arrangement, ("P1", "P2"),
                  (Join("P1", ROW_1, "P2", ROW_1),))


def full_access(players: int) -> Layout:
    """Defector's full access for ``players``: every Row 1 joined to every other Row 1
    (SPEC §9.6.2)."""
    grids = tuple(player_grid(k) for k in range(1, players + 1))
    joins = tuple(Join(a, ROW_1, b, ROW_1) for i, a in enumerate(grids)
                  for b in grids[i + 1:])
    return Layout(GameName.DEFECTOR, players, FULL, grids, joins)


def island_seat(seat: int, players: int) -> int:
    """The Island grid whose Column A player ``seat`` lays his Row 1 against: players
    1 … k take I1, I3, …, I(2k−1), players k+1 … n take I(2k), I(2k−2), … (k = ⌈n/2⌉,
    SPEC §9.6.2)."""
    k = math.ceil(players / 2)
    return 2 * seat - 1 if seat <= k else 2 * (2 * k - seat + 1)


def island(players: int) -> Layout:
    """Defector's Island for ``players`` (SPEC §9.6.2): k = ⌈n/2⌉ spare cards give the
    grids I1 … I2k; card j's two halves I(2j−1) and I(2j) meet Row 1 to Row 1 at its
    fold, I(2j)'s Row 10 touches I(2j+1)'s Row 10, and each player's Row 1 lies against
    the Column A of his Island grid (:func:`island_seat`)."""
    k = math.ceil(players / 2)
    grids = tuple(player_grid(s) for s in range(1, players + 1))
    islands = tuple(island_grid(j) for j in range(1, 2 * k + 1))
    joins = []
    for j in range(1, k + 1):
        joins.append(Join(island_grid(2 * j - 1), ROW_1, island_grid(2 * j), ROW_1))
        if j < k:
            joins.append(Join(island_grid(2 * j), ROW_10, island_grid(2 * j + 1), ROW_10))
    for seat in range(1, players + 1):
        joins.append(Join(player_grid(seat), ROW_1, island_grid(island_seat(seat, players)),
                          COLUMN_A))
    return Layout(GameName.DEFECTOR, players, ISLAND, grids + islands, tuple(joins))


@cache
def layout(game: GameName, players: int, arrangement: str | None) -> Layout:
    """The table of a Node game for ``players`` players on ``arrangement`` (a §8 name).

    Reflector: the two grids Row 1 to Row 1 (``arrangement`` optional, any of
    Reflector's set-ups). Deflector: the named arrangement for that many players.
    Defector: ``defector-full`` or ``defector-island``, built by rule for any number of
    players from six. A wrong name or a wrong number of players is a
    :class:`~cardgen.errors.ParameterError` naming ``arrangement``. Each table is built
    once per process and shared (a layout is frozen; its derived tables are built on
    first use)."""
    least, most = PLAYERS[game].least, PLAYERS[game].most
    if players < least or (most is not None and players > most):
        raise ParameterError("arrangement", f"cannot seat {players} players: "
                             f"{game.value} is for {PLAYERS[game].words}.", value=players)
    choices = (list(DEFECTOR_LAYOUTS) if game is GameName.DEFECTOR
               else _arrangement_names(game, players))
    if arrangement is None:
        if game is GameName.REFLECTOR:
            return reflector_layout()
        raise ParameterError("arrangement", f"is missing; {game.value} for {players} "
                             f"players is played on {_either(choices)}.")
    if arrangement not in choices:
        known = bundled().get(arrangement)
        problem = (f"{shorten(arrangement)} is for {known.players} players, not {players}"
                   if known is not None and known.game is game else
                   f"{shorten(arrangement)} is not a {game.value} table")
        raise ParameterError("arrangement", f"{problem}; for {players} players use "
                             f"{_either(choices)}.", value=arrangement)
    if game is GameName.REFLECTOR:
        return reflector_layout(arrangement)
    if game is GameName.DEFECTOR:
        return full_access(players) if arrangement == FULL else island(players)
    return from_arrangement(bundled()[arrangement])


def _either(names: list[str]) -> str:
    quoted = [repr(n) for n in names]
    return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " or " + quoted[-1]


def _arrangement_names(game: GameName, players: int) -> list[str]:
    return sorted(name for name, arr in bundled().items()
                  if arr.game is game and arr.players == players)


# --- seats and turns ---------------------------------------------------------------------

def direction(shooter: str, target: str, players: int) -> Direction:
    """Which way a shot named by ``shooter`` on grid ``target`` travels (SPEC §9.5.6):
    with the target's owner d seats clockwise from the shooter, clockwise when d < n/2,
    anticlockwise when d > n/2, clockwise when straight across (d = n/2); a shot on the
    shooter's own grid or on the Island counts as clockwise."""
    s, t = seat_of(shooter), seat_of(target)
    if s is None:
        raise ValueError(f"{shooter} is not a player")
    if t is None or t == s:
        return Direction.CLOCKWISE
    d = (t - s) % players
    return Direction.ANTICLOCKWISE if 2 * d > players else Direction.CLOCKWISE


# Deluxe: the step "down" on a grid turned q quarter turns clockwise, towards its owner:
# Row 10, Column J, Row 1, Column A (SPEC §9.6.9).
DOWN: tuple[tuple[int, int], ...] = ((0, 1), (1, 0), (0, -1), (-1, 0))


def down(spot: Spot, turns: int) -> Spot | None:
    """The space directly down from ``spot`` on its grid after ``turns`` quarter turns
    clockwise (Deluxe, SPEC §9.6.9); None at the grid's edge."""
    dc, dr = DOWN[turns % 4]
    grid, column, row = spot
    c, r = column + dc, row + dr
    return (grid, c, r) if 0 <= c < SIZE and 1 <= r <= SIZE else None



def up(spot: Spot, turns: int) -> Spot | None:
    """The space from which ``spot`` is directly down (Deluxe, SPEC §9.6.9): the one base
    of another player's grid that reaches ``spot`` there; None at the grid's edge."""
    return down(spot, turns + 2)
