"""Figures for the Node games (Reflector, Deflector, Defector), drawn from the models:
a Node's territory on a grid drawn like the card's (:mod:`cardgen.board.territory`,
:mod:`cardgen.board.art`), and the table arrangements (:mod:`cardgen.board.tables`).

:func:`arrangement_items` draws an arrangement at any scale: small for a rules figure
(``Look.FIGURE``: each grid a tinted square with its Row 1 and Column A marked), or at
the card's own size for a play sheet (``Look.CARD``: every square and label as on the
card). Either way a stretch of edge that touches another grid is drawn thick, a bridge
(a link the rules make across open table) is drawn thick at both ends with a dashed line
between them, and each player's seat is a numbered disc beyond their grid's Row 10.

Type under 8 pt and thin lines are solid black set to overprint; the seat numbers are
paper white on a solid black disc (the ink rule).
"""

from __future__ import annotations

import enum
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial

from cardgen.board.art import GridStyle, grid_items
from cardgen.board.cells import GRID_SIZE, Grid
from cardgen.board.frame import LABEL_BAND
from cardgen.board.tables import (
    Arrangement,
    Kind,
    Layout,
    Polygon,
    Role,
    arrangement,
    layout,
    overlap,
)
from cardgen.board.territory import grid_territory
from cardgen.draw.colors import Color
from cardgen.draw.geometry import Affine, Box, Point
from cardgen.draw.page import (
    CLOSE,
    Anchor,
    CurveTo,
    Group,
    Item,
    Line,
    MoveTo,
    Path,
    Rect,
    Stroke,
    Text,
)
from cardgen.rules.figures import Figure
from cardgen.rules.sheet import INK
from cardgen.text.fonts import FontFace, FontSet
from cardgen.texts import say
from cardgen.units import MM_PER_PT

PAPER = Color.cmyk(0, 0, 0, 0)
BLUE = Color.cmyk(100, 45, 0, 0)  # the card's grid A tint (templates/themes)
RED = Color.cmyk(0, 95, 85, 0)  # the card's grid B tint
GREY = Color.cmyk(0, 0, 0, 100)


class Look(enum.StrEnum):
    FIGURE = "figure"  # small: tinted squares, Row 1 and Column A marked
    CARD = "card"  # full size: every square and label, as on the card


@dataclass(frozen=True)
class TableStyle:
    """Strokes (mm), type (pt) and tints of a drawn arrangement."""

    outline: float = 0.5 * MM_PER_PT
    contact: float = 1.8 * MM_PER_PT  # a touching or bridged stretch
    bridge: float = 0.6 * MM_PER_PT  # the dashed line across a bridge
    bridge_dash: tuple[float, ...] = (1.2, 0.9)
    fold_dash: tuple[float, ...] = (1.6, 1.0)
    label_size: float = 6.0  # "Row 1", "A", role words
    seat_size: float = 7.5  # the player's number in the seat disc
    seat_radius: float = 2.1  # mm
    seat_gap: float = 1.2  # mm from Row 10 to the disc's edge
    fill: float = 0.10  # a grid's tint
    band: float = 0.30  # the Row 1 and Column A bands' tint
    roomy: float = 0.62  # the most of a square's side the labels' capitals may fill
    label_gap: float = 0.45  # mm between a band and its label when the label is beside it
    bridge_inset: float = 0.9  # mm: a bridge's dashed line stops short of the edges
    stretch_gap: float = 0.35  # mm: a thick stretch stops short of its ends


STYLE = TableStyle()
# At the card's size the seats clear the column letters beyond Row 10.
CARD_STYLE = TableStyle(seat_gap=LABEL_BAND + 1.5, seat_size=9.0, seat_radius=2.8)


def _tint(role: Role) -> Color:
    return {Role.PUBLIC: BLUE, Role.PRIVATE: RED, Role.ISLAND: GREY}[role]


def _role_word(role: Role) -> str:
    match role:
        case Role.PUBLIC:
            return say("tables", "role.public")
        case Role.PRIVATE:
            return say("tables", "role.private")
        case Role.ISLAND:
            return say("tables", "role.island")


def circle(cx: float, cy: float, r: float) -> Path:
    k = 0.5523 * r
    return Path((MoveTo(cx + r, cy),
                 CurveTo(cx + r, cy + k, cx + k, cy + r, cx, cy + r),
                 CurveTo(cx - k, cy + r, cx - r, cy + k, cx - r, cy),
                 CurveTo(cx - r, cy - k, cx - k, cy - r, cx, cy - r),
                 CurveTo(cx + k, cy - r, cx + r, cy - k, cx + r, cy), CLOSE), fill=INK)


def _text(x: float, y: float, text: str, face: FontFace, size: float,
          color: Color = INK, rotation: float = 0.0) -> Text:
    """Type centred on (x, y) both ways."""
    lift = face.metrics.cap_height_mm(size) / 2
    if rotation == 0:
        return Text(x, y + lift, text, face, size, color, anchor=Anchor.MIDDLE)
    r = math.radians(rotation)
    return Text(x - lift * math.sin(r), y + lift * math.cos(r), text, face, size, color,
                anchor=Anchor.MIDDLE, rotation=rotation)


def seat_items(center: Point, player: int, fonts: FontSet, style: TableStyle) -> list[Item]:
    """A player's seat: a solid black disc with the number in paper white."""
    x, y = center
    return [circle(x, y, style.seat_radius),
            _text(x, y, str(player), fonts.bold, style.seat_size, PAPER)]


def seat_point(lay: Layout, grid_id: str, style: TableStyle) -> Point:
    """The seat's centre on the page: beyond the middle of Row 10."""
    g = lay.arrangement.grid(grid_id)
    distance = (style.seat_gap + style.seat_radius) / lay.cell
    return lay.point(g.seat(distance))


def _reads_upright(rotation: float) -> float:
    """The rotation (degrees) at which to set a label running along a grid turned by
    ``rotation``, so that it is never upside down for the reader of the page."""
    return (rotation + 90) % 180 - 90


def _figure_grid(lay: Layout, grid_id: str, fonts: FontSet, style: TableStyle,
                 roles: bool) -> list[Item]:
    """One grid, small: a tinted square, its Row 1 and Column A bands, their labels."""
    out = lay.outline(grid_id)
    g = out.grid
    s = lay.cell
    side = GRID_SIZE * s
    tint = _tint(g.role)
    inner: list[Item] = [
        Rect(0, 0, side, side, fill=tint.tint(style.fill)),
        Rect(0, 0, side, s, fill=tint.tint(style.band)),
        Rect(0, s, s, side - s, fill=tint.tint(style.band)),
    ]
    face, size = fonts.regular, style.label_size
    cap = face.metrics.cap_height_mm(size)
    upright = _reads_upright(g.rotation) - g.rotation
    column_a = say("tables", "label.column_a")
    if cap <= s * style.roomy:  # the labels in the bands
        row_y, a_x = s / 2, s / 2
    else:  # small squares: beside the bands, inside the grid
        row_y = s + style.label_gap + cap / 2
        a_x = s + style.label_gap + face.metrics.width(column_a, size) / 2
    inner.append(_text(side / 2 + s / 2, row_y, say("tables", "label.row_1"), face, size,
                       rotation=upright))
    inner.append(_text(a_x, side - s / 2, column_a, face, size, rotation=upright))
    inner.append(Rect(0, 0, side, side, stroke=Stroke(INK, style.outline)))
    items: list[Item] = [Group(inner, transform=out.transform, name=f"grid-{grid_id}")]
    if roles:
        items += _role_items(lay.point((g.x, g.y)), g.role, g.player, fonts, size)
    return items


def _role_items(center: Point, role: Role, player: int, fonts: FontSet,
                size: float) -> list[Item]:
    """A grid's role in bold and, under it, whose it is."""
    cx, cy = center
    if role is Role.ISLAND:
        return [_text(cx, cy, _role_word(role), fonts.bold, size)]
    pitch = size * 1.2 * MM_PER_PT
    return [_text(cx, cy - pitch / 2, _role_word(role), fonts.bold, size),
            _text(cx, cy + pitch / 2, say("tables", "label.owner", player=player),
                  fonts.regular, size)]


def _free(lay: Layout, grid_id: str, band: Box) -> bool:
    """Whether a band in a grid's own frame (mm) lies clear of every other grid."""
    t = lay.outline(grid_id).transform
    poly: Polygon = tuple(t.apply(x, y) for x, y in band.corners())
    return not any(overlap(poly, o.corners) for o in lay.grids if o.grid.id != grid_id)


def _card_grid(lay: Layout, grid_id: str, fonts: FontSet, style: TableStyle,
               roles: bool) -> list[Item]:
    """One grid at the card's size: every square, the column letters beyond Row 10 and
    the row numbers beside Column A, each set only where it falls clear of the other
    grids."""
    out = lay.outline(grid_id)
    g = out.grid
    s = lay.cell
    side = GRID_SIZE * s
    band = LABEL_BAND * s / 4.9 if s > 4.9 else LABEL_BAND
    grid_style = GridStyle(INK, INK, INK, fonts.regular, band, line_width=0.1,
                           border_width=style.outline,
                           where="the table arrangement's grid labels")
    letters = _free(lay, grid_id, Box(0, side, side, band))
    numbers = _free(lay, grid_id, Box(-band, 0, band, side))
    kept = grid_items(Grid.B, s, grid_style, columns=letters, rows=numbers)
    tint = _tint(g.role)
    inner: list[Item] = [Rect(0, 0, side, side, fill=tint.tint(style.fill)),
                         Rect(0, 0, side, s, fill=tint.tint(style.band)), *kept]
    items: list[Item] = [Group(inner, transform=out.transform, name=f"grid-{grid_id}")]
    if roles:
        items += _role_items(lay.point((g.x, g.y)), g.role, g.player, fonts, 9.0)
    return items


def _midpoint(segment: tuple[Point, Point]) -> Point:
    (ax, ay), (bx, by) = segment
    return ((ax + bx) / 2, (ay + by) / 2)


def _stretch_line(segment: tuple[Point, Point], stroke: Stroke, gap: float) -> Line:
    """A stretch drawn thick, ``gap`` short of each end so that two stretches along one
    edge (its halves) show as two."""
    (x1, y1), (x2, y2) = segment
    length = math.hypot(x2 - x1, y2 - y1)
    k = min(gap / length, 0.2) if length else 0.0
    return Line(x1 + k * (x2 - x1), y1 + k * (y2 - y1), x2 - k * (x2 - x1), y2 - k * (y2 - y1),
                stroke)


def contact_items(lay: Layout, style: TableStyle) -> list[Item]:
    """Every contact: a touching stretch drawn thick once; a bridge's two stretches
    thick with a dashed line between their middles; the fold of a card that is stood
    up dashed (it is where the card bends, not a way across)."""
    thick = Stroke(INK, style.contact)
    items: list[Item] = []
    for contact in lay.arrangement.contacts:
        a, b = lay.stretch(contact.a), lay.stretch(contact.b)
        if contact.kind is Kind.FOLD and lay.arrangement.stand:
            items.append(Line(*a[0], *a[1], Stroke(INK, style.contact * 0.6,
                                                   style.fold_dash)))
            continue
        items.append(_stretch_line(a, thick, style.stretch_gap))
        if contact.kind is Kind.BRIDGE:
            items.append(_stretch_line(b, thick, style.stretch_gap))
            (x1, y1), (x2, y2) = _midpoint(a), _midpoint(b)
            length = math.hypot(x2 - x1, y2 - y1)
            k = min(style.bridge_inset / length, 0.25) if length else 0.0
            items.append(Line(x1 + k * (x2 - x1), y1 + k * (y2 - y1), x2 - k * (x2 - x1),
                              y2 - k * (y2 - y1), Stroke(INK, style.bridge, style.bridge_dash)))
    return items


def arrangement_items(lay: Layout, fonts: FontSet, look: Look = Look.FIGURE,
                      style: TableStyle | None = None, seats: bool = True) -> list[Item]:
    """An arrangement laid out by :func:`cardgen.board.tables.layout`: every grid, the
    contacts, the players' seats (``seats``) and, where grids of several roles lie on
    the table, each grid's role. For a play sheet at the card's size::

        margin = seat_margin(Look.CARD)
        lay = layout(arrangement("table-4-partial"), geometry.cell, x, y, margin)
        items = arrangement_items(lay, fonts, Look.CARD)

    ``style`` defaults to the look's (:data:`STYLE`, :data:`CARD_STYLE`)."""
    style = style or (CARD_STYLE if look is Look.CARD else STYLE)
    arr = lay.arrangement
    roles = any(g.role is not Role.PUBLIC for g in arr.grids)
    draw = _card_grid if look is Look.CARD else _figure_grid
    items: list[Item] = []
    for g in arr.grids:
        items += draw(lay, g.id, fonts, style, roles)
    items += contact_items(lay, style)
    if seats:
        for player in range(1, arr.players + 1):
            grid = arr.seat_grid(player)
            items += seat_items(seat_point(lay, grid.id, style), player, fonts, style)
    return items


def seat_margin(look: Look = Look.FIGURE) -> float:
    """How far (mm) the seats reach beyond the grids in a look's default style: the
    margin to give :func:`cardgen.board.tables.layout`."""
    style = CARD_STYLE if look is Look.CARD else STYLE
    return style.seat_gap + 2 * style.seat_radius + 0.5


def _extent(arr: Arrangement, cell: float, style: TableStyle) -> Box:
    """The box (mm, table frame scaled) around the grids and the seats."""
    distance = (style.seat_gap + style.seat_radius) / cell
    r = style.seat_radius / cell
    points = [p for g in arr.grids for p in g.corners()]
    for player in range(1, arr.players + 1):
        x, y = arr.seat_grid(player).seat(distance)
        points += [(x - r, y - r), (x + r, y + r)]
    box = Box.around(points)
    return Box(box.x * cell, box.y * cell, box.w * cell, box.h * cell)


def fit_layout(arr: Arrangement, x: float, y: float, width: float, max_height: float,
               style: TableStyle = STYLE, max_cell: float = math.inf) -> Layout:
    """The arrangement as large as fits ``width`` × ``max_height`` (mm), seats included,
    with squares no larger than ``max_cell``, centred across the width, its top (seats
    included) at ``y``."""
    cell = 3.0
    for _ in range(6):  # the seats' size is fixed in mm: converge on the scale
        box = _extent(arr, cell, style)
        cell = min(cell * min(width / box.w, max_height / box.h), max_cell)
    box = _extent(arr, cell, style)
    grids = arr.bounds()
    left = x + (width - box.w) / 2 + (grids.x * cell - box.x)
    top = y + (grids.y * cell - box.y)
    return layout(arr, cell, left, top)


@dataclass(frozen=True)
class TableFigure:
    """One arrangement as a rules figure: as wide as the column, at most
    ``max_height`` tall."""

    fonts: FontSet
    name: str
    max_height: float = 85.0
    max_cell: float = 3.2  # mm: a diagram, not a board to play on
    style: TableStyle = STYLE

    def _layout(self, x: float, y: float, width: float) -> Layout:
        return fit_layout(arrangement(self.name), x, y, width, self.max_height, self.style,
                          self.max_cell)

    def height(self, width: float) -> float:
        arr = arrangement(self.name)
        lay = self._layout(0, 0, width)
        return _extent(arr, lay.cell, self.style).h

    def draw(self, x: float, y: float, width: float) -> list[Item]:
        return arrangement_items(self._layout(x, y, width), self.fonts, Look.FIGURE,
                                 self.style)


@dataclass(frozen=True)
class PanelsFigure:
    """Arrangements side by side at one scale, each under a short heading (data), as
    large as the column's width and ``max_height`` allow."""

    fonts: FontSet
    names: tuple[str, ...]
    headings: tuple[str, ...] = ()
    gap: float = 6.0  # mm between panels
    heading_size: float = 7.0
    max_height: float = 100.0
    style: TableStyle = STYLE

    def _head(self) -> float:
        return 2.4 * self.heading_size * MM_PER_PT if self.headings else 0.0

    def _scale(self, width: float) -> tuple[float, list[Box]]:
        """The common square size and each panel's extent at it."""
        arrs = [arrangement(n) for n in self.names]
        room = width - self.gap * (len(arrs) - 1)
        cell = 2.0
        for _ in range(8):  # the seats are a fixed size in mm: converge on the scale
            boxes = [_extent(a, cell, self.style) for a in arrs]
            cell *= min(room / sum(b.w for b in boxes),
                        (self.max_height - self._head()) / max(b.h for b in boxes))
        return cell, [_extent(a, cell, self.style) for a in arrs]

    def height(self, width: float) -> float:
        _, boxes = self._scale(width)
        return self._head() + max(b.h for b in boxes)

    def draw(self, x: float, y: float, width: float) -> list[Item]:
        cell, boxes = self._scale(width)
        used = sum(b.w for b in boxes) + self.gap * (len(boxes) - 1)
        left = x + (width - used) / 2
        tallest = max(b.h for b in boxes)
        items: list[Item] = []
        for i, (name, box) in enumerate(zip(self.names, boxes, strict=True)):
            arr = arrangement(name)
            grids = arr.bounds()
            top = y + self._head() + (tallest - box.h) / 2
            lay = layout(arr, cell, left + grids.x * cell - box.x, top + grids.y * cell - box.y)
            if self.headings:
                items.append(Text(left + box.w / 2,
                                  y + self.fonts.bold.metrics.cap_height_mm(self.heading_size),
                                  self.headings[i], self.fonts.bold, self.heading_size, INK,
                                  anchor=Anchor.MIDDLE))
            items += arrangement_items(lay, self.fonts, Look.FIGURE, self.style)
            left += box.w + self.gap
        return items


def reflector_two_cards(fonts: FontSet) -> PanelsFigure:
    return PanelsFigure(fonts, ("reflector-fold", "reflector-cut"),
                        (say("tables", "heading.fold"), say("tables", "heading.cut")))


def reflector_three_cards(fonts: FontSet) -> PanelsFigure:
    return PanelsFigure(fonts, ("reflector-three-cards",), max_height=80.0)


# --- territories ------------------------------------------------------------------------

FIGURE_BAND = 3.2  # mm: a label band a little over the card's, so labels stay >= 6 pt


@dataclass(frozen=True)
class Hatch:
    """Diagonal hatching drawn square by square, so it reads without colour: ``rising``
    lines run from bottom left to top right."""

    rising: bool
    lines: int = 2  # per square, along each diagonal direction
    width: float = 0.3 * MM_PER_PT

    def items(self, x: float, y: float, s: float) -> list[Item]:
        stroke = Stroke(INK, self.width)
        out: list[Item] = []
        n = self.lines
        for k in range(1, 2 * n):
            t = k * s / n  # the line x + y = t (rising) in the square's own frame
            a = (max(0.0, t - s), min(s, t))
            b = (min(s, t), max(0.0, t - s))
            if self.rising:
                out.append(Line(x + a[0], y + a[1], x + b[0], y + b[1], stroke))
            else:
                out.append(Line(x + s - a[0], y + a[1], x + s - b[0], y + b[1], stroke))
        return out


def mix(tints: Sequence[Color]) -> Color:
    """Tints printed over each other: their inks added (each plate at most 100 %)."""
    c, m, y, k = (min(1.0, sum(t.cmyk_fractions[i] for t in tints)) * 100 for i in range(4))
    return Color.cmyk(c, m, y, k)


def _grid_style(fonts: FontSet) -> GridStyle:
    return GridStyle(INK, INK, INK, fonts.regular, FIGURE_BAND, line_width=0.1,
                     border_width=0.25, where="the territory figure's grid labels")


def _node_dot(cx: float, cy: float, cell: float) -> Path:
    return circle(cx, cy, cell * 0.22)


def territory_grid(x: float, y: float, cell: float, fonts: FontSet,
                   areas: Sequence[tuple[frozenset[tuple[int, int]], Color, Hatch | None]],
                   nodes: Sequence[tuple[int, int]]) -> list[Item]:
    """A 10 × 10 grid as on the card (top-left corner of Row 1 at (x, y)), its squares
    in ``areas`` filled (tints overlaid) and hatched, a dot on each Node."""
    items: list[Item] = []
    fills: dict[tuple[int, int], list[Color]] = {}
    for cells, tint, _ in areas:
        for c in cells:
            fills.setdefault(c, []).append(tint)
    for (col, row), tints in sorted(fills.items()):
        items.append(Rect(x + col * cell, y + (row - 1) * cell, cell, cell, fill=mix(tints)))
    for cells, _, hatch in areas:
        if hatch is not None:
            for col, row in sorted(cells):
                items += hatch.items(x + col * cell, y + (row - 1) * cell, cell)
    items.append(Group(grid_items(Grid.B, cell, _grid_style(fonts)),
                       transform=Affine.translate(x, y)))
    for col, row in nodes:
        items.append(_node_dot(x + (col + 0.5) * cell, y + (row - 0.5) * cell, cell))
    return items


def _lines_height(fonts: FontSet, size: float, lines: int) -> float:
    return fonts.regular.metrics.cap_height_mm(size) + (lines - 1) * size * 1.25 * MM_PER_PT


@dataclass(frozen=True)
class TerritoryFigure:
    """Two grids side by side: a Node's whole territory (13 squares) and one clipped
    by the grid's edge, each with its count under it."""

    fonts: FontSet
    nodes: tuple[tuple[int, int], ...] = ((3, 6), (9, 4))  # D6 inside, J4 on an edge
    gap: float = 8.0
    size: float = 7.0
    max_cell: float = 4.9  # never larger than the card's squares

    def _cell(self, width: float) -> float:
        per_grid = (width - self.gap) / 2 - FIGURE_BAND
        return min(per_grid / GRID_SIZE, self.max_cell)

    def height(self, width: float) -> float:
        cell = self._cell(width)
        return GRID_SIZE * cell + FIGURE_BAND + 2.5 + _lines_height(self.fonts, self.size, 1)

    def draw(self, x: float, y: float, width: float) -> list[Item]:
        cell = self._cell(width)
        side = GRID_SIZE * cell
        total = 2 * (side + FIGURE_BAND) + self.gap
        left = x + (width - total) / 2 + FIGURE_BAND
        items: list[Item] = []
        for i, node in enumerate(self.nodes):
            gx = left + i * (side + FIGURE_BAND + self.gap)
            cells = grid_territory(*node)
            items += territory_grid(gx, y, cell, self.fonts,
                                    [(cells, BLUE.tint(0.28), None)], [node])
            text = say("tables", "territory.count", count=len(cells))
            items.append(Text(gx + side / 2, y + side + FIGURE_BAND + 2.5
                              + self.fonts.regular.metrics.cap_height_mm(self.size),
                              text, self.fonts.regular, self.size, INK, anchor=Anchor.MIDDLE))
        return items


@dataclass(frozen=True)
class OverlapFigure:
    """Two Nodes whose territories share squares: each Node's own squares hatched one
    way, the shared squares both ways (cross-hatched), and a key beside the grid."""

    fonts: FontSet
    nodes: tuple[tuple[int, int], tuple[int, int]] = ((3, 4), (5, 6))  # D4 and F6
    share: float = 0.58  # of the width, for the grid
    size: float = 7.0
    max_cell: float = 4.9

    def _cell(self, width: float) -> float:
        return min((width * self.share - FIGURE_BAND) / GRID_SIZE, self.max_cell)

    def height(self, width: float) -> float:
        return GRID_SIZE * self._cell(width) + FIGURE_BAND

    def draw(self, x: float, y: float, width: float) -> list[Item]:
        cell = self._cell(width)
        first, second = (grid_territory(*n) for n in self.nodes)
        rising, falling = Hatch(rising=True), Hatch(rising=False)
        gx = x + FIGURE_BAND
        items = territory_grid(gx, y, cell, self.fonts,
                               [(first, BLUE.tint(0.22), rising),
                                (second, RED.tint(0.22), falling)], self.nodes)
        key_x = gx + GRID_SIZE * cell + 5.0
        swatch = min(cell, 4.5)
        cap = self.fonts.regular.metrics.cap_height_mm(self.size)
        pitch = max(swatch + 2.5, 2.4 * cap)
        rows = [(say("tables", "territory.first"), [(BLUE.tint(0.22), rising)]),
                (say("tables", "territory.second"), [(RED.tint(0.22), falling)]),
                (say("tables", "territory.shared", count=len(first & second)),
                 [(BLUE.tint(0.22), rising), (RED.tint(0.22), falling)]),
                (say("tables", "territory.node"), [])]
        top = y + (GRID_SIZE * cell - len(rows) * pitch) / 2
        for i, (label, looks) in enumerate(rows):
            sy = top + i * pitch
            if looks:
                items.append(Rect(key_x, sy, swatch, swatch, fill=mix([c for c, _ in looks])))
                for _, hatch in looks:
                    items += hatch.items(key_x, sy, swatch)
                items.append(Rect(key_x, sy, swatch, swatch, stroke=Stroke(INK, 0.1)))
            else:
                items.append(_node_dot(key_x + swatch / 2, sy + swatch / 2, swatch))
            items.append(Text(key_x + swatch + 2.0, sy + swatch / 2 + cap / 2, label,
                              self.fonts.regular, self.size, INK))
        return items


TABLE_FIGURES: Sequence[str] = ("table-3", "table-4-full", "table-4-partial", "table-5-full",
                                "table-5-partial", "defector-full", "defector-island")

FIGURES: dict[str, Callable[[FontSet], Figure]] = {
    "territory": TerritoryFigure,
    "territory-overlap": OverlapFigure,
    "reflector-two-cards": reflector_two_cards,
    "reflector-three-cards": reflector_three_cards,
    **{name: partial(TableFigure, name=name) for name in TABLE_FIGURES},
}
