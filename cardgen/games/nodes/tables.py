"""Table arrangements (SPEC §8): where the players' 10 × 10 grids lie on the table and
which grid edge meets which, read from ``templates/tables/arrangements.toml``.

The data states each grid's place (its centre and rotation) and the contacts the rules
rely on; this module *checks* them against the geometry (:meth:`Arrangement.problems`):

- a ``touch`` or ``fold`` contact's two stretches of edge lie on each other (the same
  segment on the table, within :data:`TOLERANCE`);
- a ``bridge`` joins two stretches of equal length that face each other across open
  table: they do not lie on each other, and the band between them crosses no grid;
- no two grids overlap, and grids that touch where no contact says so are an error (so
  the contacts are the whole story of who can reach whom).

Bridges exist because a flat table cannot do what some set-ups ask: a Column A lies
along a Column J only when both grids face the same way side by side, so no ring of
such contacts can close, and five grids each touching the four others is impossible
for flat shapes. :meth:`Arrangement.entries` answers the movement question: from a
player's grid, which grids can be entered directly, on which squares.

Units are grid squares (cells); table coordinates have x to the right and y down. A
grid's own frame is the card's (``board.frame``): the origin at the corner of Row 1 and
Column A, x along Row 1 towards Column J, y from Row 1 towards Row 10; cell (column c,
row r) is the box (c, r - 1, 1, 1). Pure: imports ``board.cells``, ``games.names``,
``games.nodes.model``, ``draw.geometry``, ``datafile``, ``schema``, ``resources`` and
``errors``.
"""

from __future__ import annotations

import enum
import math
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, assert_never

from cardgen.board.cells import COLUMNS, GRID_SIZE
from cardgen.datafile import read_toml
from cardgen.draw.geometry import Affine, Box, Point
from cardgen.errors import CardgenError, ConfigError
from cardgen.games.names import NODE_GAMES, GameName
from cardgen.games.nodes.model import Role
from cardgen.resources import templates_dir
from cardgen.schema import Choice, Custom, Flag, Number, Records, Table, Text, check

TOLERANCE = 0.01  # cells: how far apart two points may be and still coincide
HALF = GRID_SIZE // 2
Cell = tuple[int, int]  # (column 0..9, row 1..10) on one grid
Polygon = tuple[Point, ...]


class Edge(enum.StrEnum):
    ROW_1 = "row-1"
    ROW_10 = "row-10"
    COLUMN_A = "column-a"
    COLUMN_J = "column-j"

    @property
    def is_row(self) -> bool:
        return self in (Edge.ROW_1, Edge.ROW_10)

    @property
    def label(self) -> str:
        return {Edge.ROW_1: "Row 1", Edge.ROW_10: "Row 10", Edge.COLUMN_A: "Column A",
                Edge.COLUMN_J: "Column J"}[self]


class Part(enum.StrEnum):
    """Which squares of an edge: all ten, or a half. A column's top half is rows 1–5
    (the end at Row 1); a row's left half is columns A–E."""

    ALL = "all"
    TOP = "top"
    BOTTOM = "bottom"
    LEFT = "left"
    RIGHT = "right"


class Kind(enum.StrEnum):
    TOUCH = "touch"  # edge on edge
    FOLD = "fold"  # the two halves of one uncut card, Row 1 on Row 1
    BRIDGE = "bridge"  # linked by the rules across open table


@dataclass(frozen=True)
class Stretch:
    """Some squares along one edge of a grid."""

    edge: Edge
    part: Part = Part.ALL

    def __str__(self) -> str:
        return self.edge.value if self.part is Part.ALL else f"{self.edge} {self.part}"

    @property
    def label(self) -> str:
        """In words: ``Row 1``, ``the left half of Row 1``."""
        if self.part is Part.ALL:
            return self.edge.label
        return f"the {self.part} half of {self.edge.label}"

    @property
    def span(self) -> range:
        """The squares' indices along the edge (columns 0..9 or rows 1..10)."""
        first = 1 if not self.edge.is_row else 0
        low, high = {Part.ALL: (0, GRID_SIZE), Part.TOP: (0, HALF), Part.LEFT: (0, HALF),
                     Part.BOTTOM: (HALF, GRID_SIZE), Part.RIGHT: (HALF, GRID_SIZE)}[self.part]
        return range(first + low, first + high)

    def cells(self) -> tuple[Cell, ...]:
        """The squares along the stretch, (column 0..9, row 1..10), from Column A or
        Row 1 onwards."""
        match self.edge:
            case Edge.ROW_1:
                return tuple((c, 1) for c in self.span)
            case Edge.ROW_10:
                return tuple((c, GRID_SIZE) for c in self.span)
            case Edge.COLUMN_A:
                return tuple((0, r) for r in self.span)
            case Edge.COLUMN_J:
                return tuple((GRID_SIZE - 1, r) for r in self.span)
            case _:
                assert_never(self.edge)

    def segment(self) -> tuple[Point, Point]:
        """The stretch of the grid's outline in the grid's frame, running clockwise
        round the grid (so two grids lying edge to edge run opposite ways)."""
        s = self.span
        match self.edge:
            case Edge.ROW_1:
                return (s.start, 0.0), (s.stop, 0.0)
            case Edge.COLUMN_J:
                return (GRID_SIZE, s.start - 1), (GRID_SIZE, s.stop - 1)
            case Edge.ROW_10:
                return (s.stop, GRID_SIZE), (s.start, GRID_SIZE)
            case Edge.COLUMN_A:
                return (0.0, s.stop - 1), (0.0, s.start - 1)
            case _:
                assert_never(self.edge)

    @property
    def length(self) -> int:
        return len(self.span)


def parse_stretch(text: str) -> Stretch:
    """``column-a``, ``row-1 left``; ``ValueError`` with the reason otherwise."""
    words = text.split()
    if not 1 <= len(words) <= 2:
        raise ValueError("must be an edge and an optional half, such as \"row-1 left\"")
    try:
        edge = Edge(words[0])
    except ValueError:
        raise ValueError(f"has no edge {words[0]!r} (edges: "
                         f"{', '.join(e.value for e in Edge)})") from None
    part = Part.ALL
    if len(words) == 2:
        allowed = (Part.LEFT, Part.RIGHT) if edge.is_row else (Part.TOP, Part.BOTTOM)
        if words[1] not in allowed:
            raise ValueError(f"has no half {words[1]!r} of {edge}: a row has a left and "
                             "a right half, a column a top and a bottom half")
        part = Part(words[1])
    return Stretch(edge, part)


@dataclass(frozen=True)
class End:
    """One side of a contact: a stretch of one grid's edge."""

    grid: str
    stretch: Stretch

    def __str__(self) -> str:
        return f"{self.grid} {self.stretch}"


_END = re.compile(r"^\s*([a-z0-9][a-z0-9-]*)\s+(.+?)\s*$")


def parse_end(text: Any) -> End:
    if not isinstance(text, str):
        raise ValueError("must be text such as \"2 column-j top\" (a grid and a stretch)")
    match = _END.match(text)
    if not match:
        raise ValueError(f"is {text[:60]!r}, not a grid and a stretch such as "
                         "\"2 column-j top\"")
    return End(match.group(1), parse_stretch(match.group(2)))


@dataclass(frozen=True)
class Contact:
    kind: Kind
    a: End
    b: End

    def __str__(self) -> str:
        return f"{self.a} ↔ {self.b} ({self.kind})"

    def other(self, grid: str) -> End:
        return self.b if self.a.grid == grid else self.a

    def end(self, grid: str) -> End:
        return self.a if self.a.grid == grid else self.b


@dataclass(frozen=True)
class PlacedGrid:
    """One grid on the table: its centre (x, y) and rotation (degrees, clockwise)."""

    id: str
    player: int  # 0: nobody's
    role: Role
    card: str
    x: float
    y: float
    rotation: float

    @property
    def transform(self) -> Affine:
        """The grid's own frame (cells) to the table."""
        c = GRID_SIZE / 2
        return (Affine.translate(self.x, self.y) @ Affine.rotate(self.rotation)
                @ Affine.translate(-c, -c))

    def corners(self) -> Polygon:
        """Row 1/Column A, Row 1/Column J, Row 10/Column J, Row 10/Column A corners on the
        table (clockwise)."""
        t = self.transform
        g = float(GRID_SIZE)
        return tuple(t.apply(px, py) for px, py in ((0, 0), (g, 0), (g, g), (0, g)))

    def segment(self, stretch: Stretch) -> tuple[Point, Point]:
        (x0, y0), (x1, y1) = stretch.segment()
        t = self.transform
        return t.apply(x0, y0), t.apply(x1, y1)

    def seat(self, distance: float) -> Point:
        """Where the player sits: ``distance`` beyond the middle of Row 10."""
        return self.transform.apply(GRID_SIZE / 2, GRID_SIZE + distance)


@dataclass(frozen=True)
class Entry:
    """A grid a player can enter directly: from ``exit`` squares of the player's grid
    onto ``cells`` of grid ``grid`` (columns 0..9, rows 1..10)."""

    grid: str
    owner: int
    kind: Kind
    exit: tuple[Cell, ...]
    cells: tuple[Cell, ...]

    @property
    def names(self) -> tuple[str, ...]:
        """The entry squares in card notation (``A1``)."""
        return tuple(f"{COLUMNS[c]}{r}" for c, r in self.cells)


@dataclass(frozen=True)
class Arrangement:
    name: str
    game: GameName
    players: int
    cards: int
    stand: bool  # the cards are folded and stood up (drawn opened flat)
    grids: tuple[PlacedGrid, ...]
    contacts: tuple[Contact, ...]

    def grid(self, grid_id: str) -> PlacedGrid:
        for g in self.grids:
            if g.id == grid_id:
                return g
        raise KeyError(grid_id)

    def public_grid(self, player: int) -> PlacedGrid:
        """The player's grid on the table, the one moves start from."""
        for g in self.grids:
            if g.player == player and g.role is Role.PUBLIC:
                return g
        raise KeyError(player)

    def seat_grid(self, player: int) -> PlacedGrid:
        """The grid the player sits at (beyond its Row 10): the Public grid, or, where
        the cards stand up, the Private grid (the half that faces its owner)."""
        if not self.stand:
            return self.public_grid(player)
        for g in self.grids:
            if g.player == player and g.role is Role.PRIVATE:
                return g
        raise KeyError(player)

    def bounds(self) -> Box:
        """The box around every grid (cells, table coordinates)."""
        return Box.around(p for g in self.grids for p in g.corners())

    def contacts_of(self, grid_id: str) -> list[Contact]:
        return [c for c in self.contacts if grid_id in (c.a.grid, c.b.grid)]

    def entries(self, player: int) -> tuple[Entry, ...]:
        """Where ``player`` may make a first move onto another grid: every grid whose
        edge touches, or is bridged to, the player's Public grid (the player's own
        other grids left out), on the squares of that stretch."""
        mine = self.public_grid(player)
        found = []
        for contact in self.contacts_of(mine.id):
            near, far = contact.end(mine.id), contact.other(mine.id)
            other = self.grid(far.grid)
            if other.player == player:
                continue
            found.append(Entry(other.id, other.player, contact.kind, near.stretch.cells(),
                               far.stretch.cells()))
        return tuple(found)

    def reachable(self, player: int) -> frozenset[str]:
        """The grids ``player`` can enter directly."""
        return frozenset(e.grid for e in self.entries(player))

    def problems(self, tolerance: float = TOLERANCE) -> list[str]:
        """Everything wrong with the arrangement's geometry, one sentence each."""
        return _problems(self, tolerance)


# --- geometry -------------------------------------------------------------------------

def _sub(p: Point, q: Point) -> Point:
    return (p[0] - q[0], p[1] - q[1])


def _dot(p: Point, q: Point) -> float:
    return p[0] * q[0] + p[1] * q[1]


def _cross(p: Point, q: Point) -> float:
    return p[0] * q[1] - p[1] * q[0]


def _dist(p: Point, q: Point) -> float:
    return math.hypot(p[0] - q[0], p[1] - q[1])


def overlap(p: Polygon, q: Polygon, tolerance: float = TOLERANCE) -> bool:
    """Whether two convex polygons share area (more than a sliver ``tolerance`` thick)."""
    for poly in (p, q):
        for i, a in enumerate(poly):
            b = poly[(i + 1) % len(poly)]
            length = _dist(a, b)
            if length <= tolerance:
                continue
            axis = (-(b[1] - a[1]) / length, (b[0] - a[0]) / length)
            pa = [_dot(v, axis) for v in p]
            qa = [_dot(v, axis) for v in q]
            if max(pa) <= min(qa) + tolerance or max(qa) <= min(pa) + tolerance:
                return False
    return True


def _shared(s: tuple[Point, Point], t: tuple[Point, Point],
            tolerance: float) -> float:
    """How long a stretch the segments ``s`` and ``t`` lie on each other (0 if they
    are not on one line)."""
    (a, b), (c, d) = s, t
    length = _dist(a, b)
    if length <= tolerance:
        return 0.0
    u = ((b[0] - a[0]) / length, (b[1] - a[1]) / length)
    if abs(_cross(u, _sub(c, a))) > tolerance or abs(_cross(u, _sub(d, a))) > tolerance:
        return 0.0
    lo, hi = sorted((_dot(_sub(c, a), u), _dot(_sub(d, a), u)))
    return max(0.0, min(hi, length) - max(lo, 0.0))


def _edges(grid: PlacedGrid) -> list[tuple[Point, Point]]:
    c = grid.corners()
    return [(c[i], c[(i + 1) % 4]) for i in range(4)]


def touching_length(g: PlacedGrid, h: PlacedGrid, tolerance: float = TOLERANCE) -> float:
    """How much of their outlines two grids share (0 if they do not touch, or only at
    a corner)."""
    return sum(_shared(e, f, tolerance) for e in _edges(g) for f in _edges(h))


def _why_apart(s: tuple[Point, Point], t: tuple[Point, Point]) -> str:
    """Why two stretches that should lie on each other do not, in words."""
    u, v = _sub(s[1], s[0]), _sub(t[1], t[0])
    angle = math.degrees(math.atan2(abs(_cross(u, v)), -_dot(u, v)))
    if angle > 0.5:
        return f"they meet at an angle of {angle:.0f}°"
    n = math.hypot(*u)
    gap = abs(_cross(u, _sub(t[0], s[0]))) / n
    if gap > TOLERANCE:
        return f"they are {gap:.2f} squares apart"
    shift = max(_dist(s[0], t[1]), _dist(s[1], t[0]))
    return f"they are shifted {shift:.2f} squares along each other"


def _bridge_band(s: tuple[Point, Point], t: tuple[Point, Point],
                 tolerance: float) -> Polygon:
    """The band between two facing stretches: each runs clockwise round its own grid,
    so the band is s's start, s's end, t's start, t's end (duplicates dropped)."""
    points: list[Point] = []
    for p in (s[0], s[1], t[0], t[1]):
        if not points or _dist(points[-1], p) > tolerance:
            points.append(p)
    if len(points) > 1 and _dist(points[0], points[-1]) <= tolerance:
        points.pop()
    return tuple(points)


def _crosses(a: Point, b: Point, c: Point, d: Point, tolerance: float) -> bool:
    """Whether segments ab and cd cross at a point inside both."""
    d1, d2 = _cross(_sub(b, a), _sub(c, a)), _cross(_sub(b, a), _sub(d, a))
    d3, d4 = _cross(_sub(d, c), _sub(a, c)), _cross(_sub(d, c), _sub(b, c))
    return d1 * d2 < -tolerance and d3 * d4 < -tolerance


def _triangles(poly: Polygon, tolerance: float) -> list[Polygon] | None:
    """A band of three or four corners cut into triangles with area, or None when it
    is twisted (its sides cross) or flat."""
    parts: list[Polygon]
    if len(poly) == 3:
        parts = [poly]
    elif len(poly) == 4:
        p0, p1, p2, p3 = poly
        if _crosses(p0, p1, p2, p3, tolerance) or _crosses(p1, p2, p3, p0, tolerance):
            return None
        # Cut along the diagonal that lies inside: the one the other two corners are on
        # opposite sides of.
        side1 = _cross(_sub(p2, p0), _sub(p1, p0))
        side3 = _cross(_sub(p2, p0), _sub(p3, p0))
        parts = ([(p0, p1, p2), (p0, p2, p3)] if side1 * side3 < 0
                 else [(p1, p2, p3), (p1, p3, p0)])
    else:
        return None
    area = sum(abs(_cross(_sub(t[1], t[0]), _sub(t[2], t[0]))) / 2 for t in parts)
    return parts if area > tolerance else None


def _problems(arr: Arrangement, tolerance: float) -> list[str]:
    out: list[str] = []
    name = arr.name
    ids = [g.id for g in arr.grids]
    for i, grid_id in enumerate(ids):
        if grid_id in ids[:i]:
            out.append(f"{name}: two grids are called {grid_id!r}; give each its own id.")
    known = set(ids)
    players = sorted({g.player for g in arr.grids if g.player})
    if players != list(range(1, arr.players + 1)):
        out.append(f"{name}: the grids belong to players {players}, but the arrangement "
                   f"is for players 1 to {arr.players}.")
    for p in players:
        public = [g.id for g in arr.grids if g.player == p and g.role is Role.PUBLIC]
        if len(public) != 1:
            out.append(f"{name}: player {p} has {len(public)} public grids; each player "
                       "has exactly one.")
    for g in arr.grids:
        if (g.role is Role.ISLAND) != (g.player == 0):
            out.append(f"{name}: grid {g.id} is {g.role} and belongs to "
                       f"{'nobody' if g.player == 0 else f'player {g.player}'}; island "
                       "grids, and only they, belong to nobody (player = 0).")
    cards: dict[str, list[PlacedGrid]] = {}
    for g in arr.grids:
        cards.setdefault(g.card, []).append(g)
    for card, grids in cards.items():
        if len(grids) > 2:
            out.append(f"{name}: card {card!r} has {len(grids)} grids; a card has two.")
    if len(cards) > arr.cards:
        out.append(f"{name}: the grids come from {len(cards)} cards, but cards = "
                   f"{arr.cards}.")
    for i, g in enumerate(arr.grids):
        for h in arr.grids[i + 1:]:
            if overlap(g.corners(), h.corners(), tolerance):
                out.append(f"{name}: grids {g.id} and {h.id} overlap; move one of them.")
    stated: dict[frozenset[str], float] = {}
    for n, contact in enumerate(arr.contacts, 1):
        where = f"{name}: contact {n} ({contact})"
        missing = [e.grid for e in (contact.a, contact.b) if e.grid not in known]
        if missing:
            out.append(f"{where} names grid {missing[0]!r}, which is not in the arrangement.")
            continue
        if contact.a.grid == contact.b.grid:
            out.append(f"{where} joins a grid to itself.")
            continue
        g, h = arr.grid(contact.a.grid), arr.grid(contact.b.grid)
        s, t = g.segment(contact.a.stretch), h.segment(contact.b.stretch)
        if contact.a.stretch.length != contact.b.stretch.length:
            out.append(f"{where}: the stretches are {contact.a.stretch.length} and "
                       f"{contact.b.stretch.length} squares long; a contact joins "
                       "stretches of the same length.")
            continue
        if contact.kind is Kind.BRIDGE:
            out += _bridge_problems(arr, where, g, h, s, t, tolerance)
            continue
        if contact.kind is Kind.FOLD:
            if g.card != h.card:
                out.append(f"{where}: a fold joins the two halves of one card, but {g.id} "
                           f"comes from card {g.card!r} and {h.id} from card {h.card!r}.")
            elif (contact.a.stretch, contact.b.stretch) != (Stretch(Edge.ROW_1),) * 2:
                out.append(f"{where}: the halves of a card meet at the fold, Row 1 "
                           "against Row 1.")
        key = frozenset((g.id, h.id))
        stated[key] = stated.get(key, 0.0) + contact.a.stretch.length
        if _dist(s[0], t[1]) > tolerance or _dist(s[1], t[0]) > tolerance:
            out.append(f"{where}: the edges do not lie on each other: {_why_apart(s, t)}.")
    for i, g in enumerate(arr.grids):
        for h in arr.grids[i + 1:]:
            shared = touching_length(g, h, tolerance)
            said = stated.get(frozenset((g.id, h.id)), 0.0)
            if shared > said + tolerance:
                out.append(f"{name}: grids {g.id} and {h.id} touch along {shared:.1f} "
                           f"squares, but the contacts give only {said:g}; state the "
                           "contact, or move the grids apart.")
    return out


def _bridge_problems(arr: Arrangement, where: str, g: PlacedGrid, h: PlacedGrid,
                     s: tuple[Point, Point], t: tuple[Point, Point],
                     tolerance: float) -> list[str]:
    if _shared(s, t, tolerance) > tolerance:
        return [f"{where}: the edges lie on each other; make it a touch, not a bridge."]
    triangles = _triangles(_bridge_band(s, t, tolerance), tolerance)
    if triangles is None:
        return [f"{where}: the stretches do not face each other across open table (the "
                "band between them is twisted or flat)."]
    crossed = [x.id for x in arr.grids
               if any(overlap(tri, x.corners(), tolerance) for tri in triangles)]
    if crossed:
        return [f"{where}: grid {crossed[0]} lies between the bridged stretches."]
    return []


# --- the data file --------------------------------------------------------------------

def _grid_id(value: Any) -> str:
    if not isinstance(value, str) or not re.fullmatch(r"[a-z0-9][a-z0-9-]{0,31}", value):
        raise ValueError("must be a short name of lower-case letters, digits and "
                         "hyphens, such as \"2\" or \"island-1\"")
    return value


GRID = Table({
    "id": Custom(_grid_id, "a short name", "the grid's name in the contacts"),
    "player": Number("whose grid it is (0: nobody's)", low=0, high=12, integer=True),
    "role": Choice(Role, "public, private or island"),
    "card": Text("which card the grid comes from", nonempty=True),
    "x": Number("the grid centre's x on the table (squares)", low=-200, high=200),
    "y": Number("the grid centre's y on the table (squares)", low=-200, high=200),
    "rotation": Number("degrees, clockwise", low=-360, high=360),
})
CONTACT = Table({
    "kind": Choice(Kind, "touch, fold or bridge"),
    "from": Custom(parse_end, "a grid and a stretch", "one end, such as \"1 column-a\""),
    "to": Custom(parse_end, "a grid and a stretch", "the other end"),
})
ARRANGEMENT = Table({
    "name": Text("the arrangement's name", nonempty=True),
    "game": Choice(NODE_GAMES, "the game it is for"),
    "players": Number("how many players", low=2, high=12, integer=True),
    "cards": Number("how many cards the set-up uses", low=1, high=24, integer=True),
    "stand": Flag("the cards are folded and stood up", default=False),
    "grid": Records(GRID, min_items=1, max_items=40),
    "contact": Records(CONTACT, max_items=100),
})
SCHEMA = Table({"arrangement": Records(ARRANGEMENT, min_items=1, max_items=50)})


def arrangements_path() -> Path:
    return templates_dir() / "tables" / "arrangements.toml"


def arrangements_from_data(data: dict[str, Any], source: str) -> dict[str, Arrangement]:
    """Arrangements from parsed TOML, checked against the schema and the geometry; a
    :class:`ConfigError` naming ``source`` lists every problem."""
    values = check(SCHEMA, data, source)
    found: dict[str, Arrangement] = {}
    problems: list[str] = []
    for entry in values["arrangement"]:
        grids = tuple(PlacedGrid(g["id"], g["player"], g["role"], g["card"], g["x"], g["y"],
                                 g["rotation"]) for g in entry["grid"])
        contacts = tuple(Contact(c["kind"], c["from"], c["to"]) for c in entry["contact"])
        arr = Arrangement(entry["name"], entry["game"], entry["players"], entry["cards"],
                          entry["stand"], grids, contacts)
        if arr.name in found:
            problems.append(f"two arrangements are called {arr.name!r}.")
        problems += arr.problems()
        found[arr.name] = arr
    if problems:
        raise ConfigError(source, problems)
    return found


def load_arrangements(path: Path | None = None) -> dict[str, Arrangement]:
    """Every arrangement of a data file (the bundled one by default), checked."""
    path = arrangements_path() if path is None else path
    return arrangements_from_data(read_toml(path, "table arrangements file"), str(path))


@cache
def bundled() -> dict[str, Arrangement]:
    return load_arrangements()


def arrangement(name: str) -> Arrangement:
    """A bundled arrangement by name."""
    known = bundled()
    if name not in known:
        raise CardgenError(f"there is no table arrangement {name!r}; known: "
                           f"{', '.join(sorted(known))}.", value=name)
    return known[name]


# --- at a scale, for drawing -----------------------------------------------------------

@dataclass(frozen=True)
class GridOutline:
    """A placed grid at a scale: ``transform`` maps the grid's own frame in mm (the
    card's grid frame, cell (c, r) = (c*s, (r-1)*s, s, s)) to the page; ``corners``
    are its corners on the page (Row 1/A, Row 1/J, Row 10/J, Row 10/A)."""

    grid: PlacedGrid
    transform: Affine
    corners: Polygon


@dataclass(frozen=True)
class Layout:
    """An arrangement drawn at ``cell`` mm a square, its bounds' top-left at the
    origin given: every grid's outline and every contact's two stretches on the page."""

    arrangement: Arrangement
    cell: float
    to_page: Affine  # table coordinates (squares) to the page (mm)
    grids: tuple[GridOutline, ...]
    width: float
    height: float

    def outline(self, grid_id: str) -> GridOutline:
        for o in self.grids:
            if o.grid.id == grid_id:
                return o
        raise KeyError(grid_id)

    def stretch(self, end: End) -> tuple[Point, Point]:
        """One end of a contact as a segment on the page (clockwise round its grid)."""
        a, b = self.arrangement.grid(end.grid).segment(end.stretch)
        return self.to_page.apply(*a), self.to_page.apply(*b)

    def point(self, p: Point) -> Point:
        return self.to_page.apply(*p)


def layout(arr: Arrangement, cell: float, x: float = 0.0, y: float = 0.0,
           margin: float = 0.0) -> Layout:
    """``arr`` at ``cell`` mm a square (a card's grid: ``CardGeometry.cell``), the top-left
    corner of its bounds at (x + margin, y + margin); width and height include the
    margin on every side."""
    box = arr.bounds()
    to_page = (Affine.translate(x + margin, y + margin) @ Affine.scale(cell)
               @ Affine.translate(-box.x, -box.y))
    mm = Affine.scale(1 / cell)
    outlines = tuple(GridOutline(g, to_page @ g.transform @ mm,
                                 tuple(to_page.apply(*p) for p in g.corners()))
                     for g in arr.grids)
    return Layout(arr, cell, to_page, outlines, box.w * cell + 2 * margin,
                  box.h * cell + 2 * margin)


