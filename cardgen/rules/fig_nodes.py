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
from cardgen.draw.colors import Color
from cardgen.draw.geometry import Box, Point
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


STYLE = TableStyle()


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
    if cap <= s * 0.9:
        upright = _reads_upright(g.rotation) - g.rotation
        row = say("tables", "label.row_1")
        inner.append(_text(side / 2 + s / 2, s / 2, row, face, size, rotation=upright))
        inner.append(_text(s / 2, side - s / 2, say("tables", "label.column_a"), face, size,
                           rotation=upright))
    inner.append(Rect(0, 0, side, side, stroke=Stroke(INK, style.outline)))
    items: list[Item] = [Group(inner, transform=out.transform, name=f"grid-{grid_id}")]
    if roles:
        cx, cy = lay.point((g.x, g.y))
        items.append(_text(cx, cy, _role_word(g.role), fonts.bold, size))
    return items


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
    kept: list[Item] = []
    for item in grid_items(Grid.B, s, grid_style):
        name = item.name if isinstance(item, Text) and item.name else ""
        if ((name.startswith("grid-B-col") and not letters)
                or (name.startswith("grid-B-row") and not numbers)):
            continue
        kept.append(item)
    tint = _tint(g.role)
    inner: list[Item] = [Rect(0, 0, side, side, fill=tint.tint(style.fill)),
                         Rect(0, 0, side, s, fill=tint.tint(style.band)), *kept]
    items: list[Item] = [Group(inner, transform=out.transform, name=f"grid-{grid_id}")]
    if roles:
        cx, cy = lay.point((g.x, g.y))
        items.append(_text(cx, cy, _role_word(g.role), fonts.bold, 9.0))
    return items


def _midpoint(segment: tuple[Point, Point]) -> Point:
    (ax, ay), (bx, by) = segment
    return ((ax + bx) / 2, (ay + by) / 2)


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
        items.append(Line(*a[0], *a[1], thick))
        if contact.kind is Kind.BRIDGE:
            items.append(Line(*b[0], *b[1], thick))
            (x1, y1), (x2, y2) = _midpoint(a), _midpoint(b)
            items.append(Line(x1, y1, x2, y2, Stroke(INK, style.bridge, style.bridge_dash)))
    return items


def arrangement_items(lay: Layout, fonts: FontSet, look: Look = Look.FIGURE,
                      style: TableStyle = STYLE, seats: bool = True) -> list[Item]:
    """An arrangement laid out by :func:`cardgen.board.tables.layout`: every grid, the
    contacts, the players' seats (``seats``) and, where grids of several roles lie on
    the table, each grid's role. For a play sheet at the card's size::

        lay = layout(arrangement("table-4-partial"), geometry.cell, x, y, margin)
        items = arrangement_items(lay, fonts, Look.CARD)

    (``margin`` should leave room for the seats: :func:`seat_margin`)."""
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


def seat_margin(style: TableStyle = STYLE) -> float:
    """How far (mm) the seats reach beyond the grids."""
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
               style: TableStyle = STYLE) -> Layout:
    """The arrangement as large as fits ``width`` × ``max_height`` (mm), seats included,
    centred across the width, its top (seats included) at ``y``."""
    cell = 3.0
    for _ in range(6):  # the seats' size is fixed in mm: converge on the scale
        box = _extent(arr, cell, style)
        cell *= min(width / box.w, max_height / box.h)
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
    max_height: float = 110.0
    style: TableStyle = STYLE

    def _layout(self, x: float, y: float, width: float) -> Layout:
        return fit_layout(arrangement(self.name), x, y, width, self.max_height, self.style)

    def height(self, width: float) -> float:
        arr = arrangement(self.name)
        lay = self._layout(0, 0, width)
        return _extent(arr, lay.cell, self.style).h

    def draw(self, x: float, y: float, width: float) -> list[Item]:
        return arrangement_items(self._layout(x, y, width), self.fonts, Look.FIGURE,
                                 self.style)


TABLE_FIGURES: Sequence[str] = ("table-3", "table-4-full", "table-4-partial", "table-5-full",
                                "table-5-partial", "defector-full", "defector-island")

FIGURES: dict[str, Callable[[FontSet], Figure]] = {
    name: partial(TableFigure, name=name) for name in TABLE_FIGURES}
